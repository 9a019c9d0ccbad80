"""kanaszta.Agent and kanaszta.evaluate: the built-in agents from Python."""

import csv
import os
import pathlib
import subprocess

import numpy as np
import pytest

import kanaszta

ROOT = pathlib.Path(__file__).resolve().parents[2]


def kanaszta_binary():
    """The command line, if built: $KANASZTA_BIN, or target/{testing,release,debug}."""
    env = os.environ.get("KANASZTA_BIN")
    candidates = [pathlib.Path(env)] if env else []
    candidates += [ROOT / "target" / p / "kanaszta" for p in ("testing", "release", "debug")]
    return next((c for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)


@pytest.mark.parametrize("rules,players", [("decorated-2003-02", 2), ("classic-002", 2), ("classic-003", 4)])
@pytest.mark.parametrize("spec", ["random", "greedy", "rules"])
def test_agents_play_a_hand_to_its_end(rules, players, spec):
    g = kanaszta.Game(rules, players=players, seed=4)
    agents = [kanaszta.Agent(spec, rules=rules, seed=p) for p in range(players)]
    steps = 0
    while not g.is_terminal:
        p = g.current_player
        before = g.to_json()
        a = agents[p].act(g)
        assert g.to_json() == before  # acting does not move the hand
        assert g.legal_mask()[a]
        for agent in agents:
            agent.inform(g, p, a)
        g.apply(a)
        steps += 1
        assert steps < 5000
    assert len(g.scores()) == g.sides


def test_an_agent_acts_in_text_and_by_search():
    g = kanaszta.Game("decorated-2003-02", seed=1)
    a = kanaszta.Agent("ismcts:iters=30")
    assert a.act_text(g) in g.legal_actions()
    c = kanaszta.Game("classic-002", seed=1)
    assert c.legal_mask()[a.act(c)]  # the same agent, the other family
    assert a.spec == "ismcts:iters=30" and "ismcts" in repr(a)


def test_bad_specs_say_what_is_accepted():
    with pytest.raises(ValueError, match="accepted: random, greedy"):
        kanaszta.Agent("nonesuch")
    with pytest.raises(ValueError, match="classic canasta.*no parameter `race`"):
        kanaszta.Agent("ismcts:race=3", rules="classic-002")
    with pytest.raises(ValueError, match="unknown preset"):
        kanaszta.Agent("rules", rules="bridge")
    g = kanaszta.Game("classic-002", seed=1)
    while not g.is_terminal:
        g.apply(g.legal_ids()[0])
    with pytest.raises(ValueError, match="over"):
        kanaszta.Agent("random").act(g)


def test_evaluate_a_python_policy():
    seen = []

    def last_legal(obs, mask):
        assert obs.dtype == np.float32 and obs.shape == (kanaszta.DECORATED_OBS_LEN,)
        assert mask.dtype == np.bool_ and mask.any()
        seen.append(1)
        return int(np.flatnonzero(mask)[-1])

    r = kanaszta.evaluate(last_legal, opponent="random", hands=6, seed=2)
    assert seen and r["hands"] + r["errors"] == 6 and r["deals"] == 3
    rate, lo, hi = r["win_rate"]
    assert lo <= rate <= hi and r["wins"] + r["ties"] <= r["hands"]
    m, lo, hi = r["points"]
    assert lo <= m <= hi
    # The same seed plays the same deals.
    assert kanaszta.evaluate(last_legal, opponent="random", hands=6, seed=2) == r


def test_a_policy_that_breaks_the_rules_is_told_so():
    with pytest.raises(ValueError, match="mask does not allow"):
        kanaszta.evaluate(lambda o, m: int(np.flatnonzero(~m)[0]), hands=2, rules="classic-002")
    with pytest.raises(ValueError, match="action id"):
        kanaszta.evaluate(lambda o, m: "draw", hands=2)
    with pytest.raises(ValueError, match="two players"):
        kanaszta.evaluate("random", hands=2, players=3)


@pytest.mark.parametrize("rules", ["decorated-2003-02", "classic-002"])
def test_agents_evaluated_on_threads_give_the_same_figures(rules):
    # threads=1 is the loop of Python policies, others the agents' own.
    one = kanaszta.evaluate("rules", opponent="random", hands=12, seed=5, rules=rules, threads=1)
    three = kanaszta.evaluate("rules", opponent="random", hands=12, seed=5, rules=rules, threads=3)
    assert one == three and one["hands"] + one["errors"] == 12


def cli_summary(binary, tmp, rules, a, b, hands, seed, players=2):
    out = tmp / f"run-{rules}"
    subprocess.run(
        [str(binary), "play", "--rules", rules, "--set", f"players={players}", "--a", a, "--b", b,
         "--hands", str(hands), "--seed", str(seed), "--threads", "1", "--out", str(out)],
        check=True, capture_output=True,
    )
    with open(out / "summary.csv", newline="") as f:
        return next(r for r in csv.DictReader(f) if r["agent"] == a)


# threads=1 plays the agent through the loop a Python policy plays
# through; other counts through the agents crate's own loop, on threads.
@pytest.mark.parametrize("threads", [1, 0])
@pytest.mark.parametrize("rules", ["decorated-2003-02", "classic-002", "classic-003"])
def test_an_agent_as_policy_gives_the_command_lines_figures(tmp_path, rules, threads):
    binary = kanaszta_binary()
    if binary is None:
        pytest.skip("the kanaszta command is not built (cargo build -p kanaszta --profile testing)")
    players = 4 if rules == "classic-003" else 2
    row = cli_summary(binary, tmp_path, rules, "greedy", "random", 8, 11, players)
    r = kanaszta.evaluate(
        kanaszta.Agent("greedy"), opponent="random", hands=8, seed=11, rules=rules, players=players, threads=threads
    )
    assert r["hands"] == int(row["hands"]) and r["wins"] == int(row["hand_wins"])
    assert r["ties"] == int(row["hand_ties"]) and r["deals"] == int(row["deals"])
    for key, cols, places in [
        ("win_rate", ("hand_win_rate", "hand_win_lo", "hand_win_hi"), 4),
        ("points", ("mean_raw", "mean_raw_lo", "mean_raw_hi"), 2),
        ("diff", ("mean_diff", "mean_diff_lo", "mean_diff_hi"), 2),
    ]:
        assert [f"{x:.{places}f}" for x in r[key]] == [row[c] for c in cols], key
