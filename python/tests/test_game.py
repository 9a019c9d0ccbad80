"""kanaszta.Game: the API, its exceptions, ids, masks and the encoding."""

import copy
import random
import re

import numpy as np
import pytest

import kanaszta

FAMILIES = [("decorated-2003-02", 2), ("decorated-2003-01", 3), ("classic-002", 2), ("classic-003", 4)]


def play(g, rng, steps):
    """Plays up to `steps` random legal actions; yields the game before each."""
    for _ in range(steps):
        if g.is_terminal:
            return
        yield g
        g.apply(rng.choice(g.legal_ids()))


def test_sizes_and_family():
    d = kanaszta.Game("decorated-2003-02", players=2, seed=1)
    c = kanaszta.Game("classic-002", players=2, seed=1)
    assert (d.family, d.num_actions, d.observation_size) == (
        "decorated",
        kanaszta.DECORATED_ACTION_IDS,
        kanaszta.DECORATED_OBS_LEN,
    )
    assert (c.family, c.num_actions, c.observation_size) == (
        "classic",
        kanaszta.CLASSIC_ACTION_IDS,
        kanaszta.CLASSIC_OBS_LEN,
    )
    assert (kanaszta.DECORATED_ACTION_IDS, kanaszta.DECORATED_OBS_LEN) == (4850, 7122)
    assert (kanaszta.CLASSIC_ACTION_IDS, kanaszta.CLASSIC_OBS_LEN) == (233, 456)
    for g in (d, c):
        obs = g.observation(0)
        assert obs.dtype == np.float32 and obs.shape == (g.observation_size,)
        mask = g.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
        assert 0 <= g.current_player < g.players
        assert not g.is_terminal
        assert isinstance(g.view(0), str) and g.view(0)


def test_defaults_and_settings():
    g = kanaszta.Game()
    assert (g.rules, g.family, g.players) == ("decorated-2003-02", "decorated", 2)
    four = kanaszta.Game("classic", players=4)
    assert (four.players, four.sides) == (4, 2)
    assert four.side_of(0) == four.side_of(2) != four.side_of(1)


def test_same_seed_same_deal_other_seed_other_deal():
    a, b, c = (kanaszta.Game("classic-002", seed=s) for s in (5, 5, 6))
    for g in (a, b, c):
        while g.current_player != 0 or g.turns < 2:
            g.apply(g.legal_ids()[0])
    assert np.array_equal(a.observation(0), b.observation(0))
    assert not np.array_equal(a.observation(0), c.observation(0))


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"rules": "poker"}, ["poker", "classic-002", "decorated-2003-02"]),
        ({"rules": "classic-002", "players": 7}, ["players"]),
        ({"rules": "decorated", "set": {"no_such_switch": "on"}}, ["no_such_switch", "tax"]),
    ],
)
def test_bad_rules_raise_value_error_saying_why(kwargs, words):
    with pytest.raises(ValueError) as e:
        kanaszta.Game(**kwargs)
    assert not isinstance(e.value, kanaszta.IllegalAction)
    for w in words:
        assert w in str(e.value)


def test_illegal_action_carries_the_rule_and_leaves_the_hand_unchanged():
    assert issubclass(kanaszta.IllegalAction, ValueError)
    g = kanaszta.Game("decorated-2003-02", seed=7)
    before = g.observation(g.current_player)
    with pytest.raises(kanaszta.IllegalAction) as e:
        g.apply("discard 3S")
    assert e.value.rule == "D-3.1"
    assert str(e.value).startswith("D-3.1: ")
    assert np.array_equal(before, g.observation(g.current_player))
    assert g.turns == 0

    c = kanaszta.Game("classic-002", seed=7)
    with pytest.raises(kanaszta.IllegalAction) as e:
        c.apply("ask")
    assert e.value.rule == "C-18"
    assert str(e.value).startswith(e.value.rule + ": ")


def test_illegal_id_carries_the_rule():
    g = kanaszta.Game("classic-002", seed=3)
    legal = set(g.legal_ids())
    for i in range(g.num_actions):
        if i in legal:
            continue
        try:
            g.apply(i)
        except kanaszta.IllegalAction as e:
            assert re.fullmatch(r"[CDI]-[0-9][0-9.]*", e.rule), e.rule
            assert str(e).startswith(e.rule + ": ")
            return
        except ValueError as e:
            assert "action id" in str(e)
        else:
            pytest.fail(f"id {i} is not in the legal ids but was applied")
    pytest.fail("no id was refused by a rule")


@pytest.mark.parametrize("bad", ["fly away", "lay ZZ", ""])
def test_unparsable_text_is_a_value_error_not_illegal(bad):
    g = kanaszta.Game("decorated")
    with pytest.raises(ValueError) as e:
        g.apply(bad)
    assert not isinstance(e.value, kanaszta.IllegalAction)


def test_bad_ids_seats_and_types():
    g = kanaszta.Game("classic-002")
    for bad in (-1, 2**40, g.num_actions + 5):
        with pytest.raises(ValueError, match="action id"):
            g.apply(bad)
    with pytest.raises(ValueError, match="seat"):
        g.observation(2)
    with pytest.raises(ValueError, match="seat"):
        g.view(5)
    with pytest.raises(ValueError, match="seat"):
        g.determinize(3, 0)
    with pytest.raises(ValueError, match="seat"):
        g.side_of(2)
    with pytest.raises(ValueError):
        g.apply(1.5)
    with pytest.raises(ValueError, match="action id"):
        g.action_text(g.num_actions + 1)


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_ids_and_text_round_trip_and_mask_equals_legal_ids(rules, players):
    rng = random.Random(11)
    steps = 0
    for seed in range(3):
        g = kanaszta.Game(rules, players=players, seed=seed)
        for g in play(g, rng, 400):
            text = g.legal_actions()
            ids = g.legal_ids()
            assert ids, "a hand that is not over has a legal action with an id"
            mask = g.legal_mask()
            # the decorated listing can hold two actions that print alike
            # and share an id (`extend 0 JK` twice): compare sets
            assert np.flatnonzero(mask).tolist() == sorted(set(ids))
            # text -> id, in the listing's order
            from_text = [g.action_id(t) for t in text]
            assert [i for i in from_text if i is not None] == ids
            # id -> text -> id
            for i in ids:
                t = g.action_text(i)
                assert t in text
                assert g.action_id(t) == i
            steps += 1
    assert steps > 300


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_apply_by_text_equals_apply_by_id(rules, players):
    rng = random.Random(3)
    a = kanaszta.Game(rules, players=players, seed=9)
    b = kanaszta.Game(rules, players=players, seed=9)
    while not a.is_terminal:
        i = rng.choice(a.legal_ids())
        a.apply(i)
        b.apply(b.action_text(i))
        assert a.current_player == b.current_player
        assert np.array_equal(a.observation(0), b.observation(0))
    assert b.is_terminal
    assert a.scores() == b.scores()


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_no_peeking_determinize_keeps_the_seats_observation(rules, players):
    rng = random.Random(5)
    g = kanaszta.Game(rules, players=players, seed=21)
    checked = 0
    differ = 0
    for g in play(g, rng, 300):
        if rng.random() > 0.1:
            continue
        for seat in range(g.players):
            mine = g.observation(seat)
            d1 = g.determinize(seat, 1)
            d2 = g.determinize(seat, 2)
            assert np.array_equal(d1.observation(seat), mine)
            assert np.array_equal(d2.observation(seat), mine)
            assert d1.current_player == g.current_player
            assert sorted(d1.legal_ids()) == sorted(d2.legal_ids()) or seat != g.current_player
            other = (seat + 1) % g.players
            if not np.array_equal(d1.observation(other), d2.observation(other)):
                differ += 1
            checked += 1
    assert checked > 10
    # the hidden cards were really redealt: some other seat's view differs
    assert differ > 0


def test_clone_is_independent():
    g = kanaszta.Game("classic-002", seed=4)
    c = g.clone()
    d = copy.deepcopy(g)
    before = g.observation(0)
    c.apply(c.legal_ids()[0])
    assert c.turns != g.turns or c.current_player != g.current_player or not np.array_equal(
        c.observation(0), before
    )
    assert np.array_equal(g.observation(0), before)
    assert np.array_equal(d.observation(0), before)
    assert (c.rules, c.family) == (g.rules, g.family)


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_scores_have_parts_and_a_hand_ends(rules, players):
    rng = random.Random(8)
    g = kanaszta.Game(rules, players=players, seed=2)
    for _ in play(g, rng, 100000):
        pass
    assert g.is_terminal
    s = g.scores()
    assert len(s) == g.sides
    for side in s:
        assert set(side) == {"total", "taxed", "parts"}
        assert isinstance(side["total"], int)
        # Outside a match the running totals are zero: no tax (D-15).
        assert side["taxed"] == side["total"]
        assert side["parts"] and all(isinstance(v, int) for v in side["parts"].values())
    if g.family == "classic":
        for side in s:
            assert side["total"] == sum(side["parts"].values())
        assert set(s[0]["parts"]) == {"melds", "canastas", "red_threes", "going_out", "in_hand", "failed_yes"}
    else:
        assert {"canasta_points", "going_out_points", "in_hand"} <= set(s[0]["parts"])
    assert any(side["total"] != 0 for side in s)


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_listed_actions_play_as_unlisted_ones(rules, players):
    # `a` lists (legal_ids or legal_mask) before each action, so `apply`
    # skips the checks the listing made; `b` never lists, so every action
    # is checked in full. The hands and scores must stay equal, and an
    # action the listing does not hold must be refused alike.
    rng = random.Random(5)
    a = kanaszta.Game(rules, players=players, seed=4)
    b = kanaszta.Game(rules, players=players, seed=4)
    steps = refused = 0
    while not a.is_terminal:
        ids = a.legal_ids() if steps % 2 else np.flatnonzero(a.legal_mask()).tolist()
        before = a.to_json()
        for bad in rng.sample(range(a.num_actions), 5):
            if bad in ids:
                continue
            try:
                text = a.action_text(bad)
            except ValueError:
                continue
            with pytest.raises(kanaszta.IllegalAction) as listed:
                a.apply(bad if refused % 2 else text)
            with pytest.raises(kanaszta.IllegalAction) as unlisted:
                b.apply(text)
            assert (listed.value.rule, str(listed.value)) == (unlisted.value.rule, str(unlisted.value))
            assert a.to_json() == before
            refused += 1
        i = rng.choice(ids)
        if steps % 3:
            a.apply(i)
        else:
            a.apply(a.action_text(i))
        b.apply(b.action_text(i))
        assert a.to_json() == b.to_json()
        steps += 1
    assert b.is_terminal
    assert a.scores() == b.scores()
    assert steps > 20 and refused > 20


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_stepping_by_legal_actions_equals_a_twin_stepped_without_listing(rules, players):
    # `a` lists by legal_actions() before each action and plays one of
    # them (by text or id), so `apply` skips the checks the listing made;
    # `b` never lists. The hands must stay equal, an action the listing
    # does not hold must be refused alike, and the text listing must
    # stay the id listing's.
    rng = random.Random(17)
    a = kanaszta.Game(rules, players=players, seed=6)
    b = kanaszta.Game(rules, players=players, seed=6)
    steps = refused = 0
    while not a.is_terminal:
        text = a.legal_actions()
        assert text and [a.action_id(t) for t in text] == a.legal_ids()
        text = a.legal_actions()  # legal_ids listed last: list by text again
        bad = rng.randrange(a.num_actions)
        if bad not in {a.action_id(t) for t in text}:
            try:
                bad_text = a.action_text(bad)
            except ValueError:
                bad_text = None
            if bad_text is not None:
                with pytest.raises(kanaszta.IllegalAction) as listed:
                    a.apply(bad_text)
                with pytest.raises(kanaszta.IllegalAction) as unlisted:
                    b.apply(bad_text)
                assert (listed.value.rule, str(listed.value)) == (unlisted.value.rule, str(unlisted.value))
                refused += 1
        t = rng.choice(text)
        a.apply(t if steps % 2 else a.action_id(t))
        b.apply(t)
        assert a.to_json() == b.to_json()
        steps += 1
    assert b.is_terminal and a.scores() == b.scores()
    assert steps > 20 and refused > 0
