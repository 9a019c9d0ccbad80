"""A simple Python heuristic for classic canasta, evaluated against `rules`.

The policy sees what any learner sees: the seat's observation and the legal
mask over the action ids of docs/ENCODING.md. It takes the pile whenever it
may, lays and extends melds, draws otherwise, and discards a card of the
kind it holds fewest of. `kanaszta.evaluate` plays it against the built-in
`rules` agent over paired deals (each deal twice, the seats swapped) and
reports its win rate and points a hand with 95% intervals, as
`kanaszta play` reports them.

    python python/examples/heuristic.py --hands 400 --opponent rules
"""

import argparse

import numpy as np

import kanaszta

# Classic action ids (docs/ENCODING.md, "Classic action ids").
DRAW, REST = 3, 5
DISCARD = range(9, 23)  # 9 + the card kind's index
EXTEND = range(23, 56)
TAKE = range(69, 117)
LAY = range(117, 233)
HAND = slice(17, 32)  # the viewer's hand in the encoding: a count by kind


def heuristic(observation: np.ndarray, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    for group in (TAKE, (REST,), LAY, EXTEND, (DRAW,)):
        for a in legal:
            if a in group:
                return int(a)
    discards = [a for a in legal if a in DISCARD]
    if discards:
        held = observation[HAND]
        return int(min(discards, key=lambda a: (held[a - 9], a)))
    return int(legal[0])  # answers, `end`, the 004 turned card


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--opponent", default="rules")
    ap.add_argument("--rules", default="classic-002")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = kanaszta.evaluate(heuristic, opponent=a.opponent, hands=a.hands, seed=a.seed, rules=a.rules)
    rate, lo, hi = r["win_rate"]
    pts, plo, phi = r["points"]
    d, dlo, dhi = r["diff"]
    print(f"heuristic vs {a.opponent} under {a.rules}: {r['hands']} hands ({r['errors']} errors), seed {a.seed}")
    print(f"  hand wins      {rate:6.1%}  [{lo:.1%}, {hi:.1%}]")
    print(f"  points/hand    {pts:+7.0f}  [{plo:+.0f}, {phi:+.0f}]")
    print(f"  heuristic - {a.opponent}: {d:+.0f} [{dlo:+.0f}, {dhi:+.0f}] points a hand over {r['deals']} paired deals")
    # The same statistics for a built-in agent in the heuristic's place.
    g = kanaszta.evaluate("greedy", opponent=a.opponent, hands=a.hands, seed=a.seed, rules=a.rules)
    print(f"  (greedy in its place: hand wins {g['win_rate'][0]:.1%}, {g['diff'][0]:+.0f} points a hand)")


if __name__ == "__main__":
    main()
