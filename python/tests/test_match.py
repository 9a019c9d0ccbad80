"""kanaszta.Match: hands to the target, running totals and the tax (D-15, D-16, C-24)."""

import json
import random

import pytest

import kanaszta


def play_out(g, rng):
    while not g.is_terminal:
        g.apply(rng.choice(g.legal_ids()))


@pytest.mark.parametrize(
    "rules,players,target", [("decorated-2003-02", 2, 1500), ("classic-002", 2, 1500), ("classic-003", 4, 1000)]
)
def test_a_match_adds_hands_until_the_target(rules, players, target):
    rng = random.Random(5)
    m = kanaszta.Match(rules, players=players, seed=9, set={"target": target, "max_hands": 12})
    assert m.target == target and m.totals == [0] * m_sides(m, players)
    totals = [0] * len(m.totals)
    starters = []
    while not m.is_over:
        g = m.next_hand()
        starters.append(g.current_player)
        play_out(g, rng)
        scores = g.scores()
        rec = m.record(g)
        assert rec["raw"] == [s["total"] for s in scores]
        assert rec["taxed"] == [s["taxed"] for s in scores]
        totals = [t + x for t, x in zip(totals, rec["taxed"])]
        assert rec["totals"] == totals == m.totals
    assert 1 <= m.hands_played <= 12
    if m.winner is not None:
        assert m.totals[m.winner] == max(m.totals)
    with pytest.raises(ValueError, match="over"):
        m.next_hand()


def m_sides(m, players):
    return players if m.family == "decorated" else 2


def test_the_decorated_tax_is_paid_on_a_high_total():
    # D-15: a hand scored on a running total of 5,000 or more is taxed.
    rng = random.Random(1)
    m = kanaszta.Match("decorated-2003-02", seed=3, set={"max_hands": 60})
    paid = False
    while not m.is_over and not paid:
        g = m.next_hand()
        play_out(g, rng)
        rec = m.record(g)
        for side in range(2):
            before = rec["totals"][side] - rec["taxed"][side]
            if rec["raw"][side] > 0 and before >= 5000:
                assert rec["taxed"][side] < rec["raw"][side]
        paid = any(t > 0 for t in m.tax_paid)
    assert paid
    assert all(t >= 0 for t in m.tax_paid)


def _dealer(g):
    return json.loads(g.to_json()).get("dealer", 0)


def test_record_refuses_unfinished_foreign_and_out_of_turn_hands():
    m = kanaszta.Match("classic-002", seed=1)
    g = m.next_hand()
    with pytest.raises(ValueError, match="is_terminal"):
        m.record(g)
    other = kanaszta.Game("decorated-2003-02", seed=1)
    play_out(other, random.Random(0))
    with pytest.raises(ValueError, match="decorated"):
        m.record(other)
    # A hand dealt by another dealer than the match's first is not its hand.
    m = next(
        m
        for m in (kanaszta.Match("classic-002", seed=s) for s in range(40))
        if _dealer(m.next_hand()) != 0
    )
    stray = kanaszta.Game("classic-002", seed=4)
    assert _dealer(stray) == 0
    play_out(stray, random.Random(0))
    with pytest.raises(ValueError, match="next hand"):
        m.record(stray)
    assert m.hands_played == 0
