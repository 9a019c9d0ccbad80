"""Game.to_json / Game.from_json: positions of both families (sim/POSITIONS.md)."""

import json
import random

import numpy as np
import pytest

import kanaszta

FAMILIES = [("decorated-2003-02", 2), ("decorated-2003-01", 3), ("classic-002", 2), ("classic-003", 4)]


@pytest.mark.parametrize("rules,players", FAMILIES)
def test_saved_positions_load_and_play_on_identically(rules, players):
    rng = random.Random(3)
    g = kanaszta.Game(rules, players=players, seed=11)
    saved = 0
    while not g.is_terminal:
        if g.turns % 3 == 0 or rng.random() < 0.05:
            text = g.to_json()
            h = kanaszta.Game.from_json(text)
            assert h.family == g.family and h.rules == g.family
            assert h.to_json() == text
            assert h.current_player == g.current_player and h.turns == g.turns
            assert h.legal_ids() == g.legal_ids()
            for seat in range(players):
                assert np.array_equal(h.observation(seat), g.observation(seat))
            # Play both on with the same actions: the generator is saved too.
            for _ in range(6):
                if g.is_terminal:
                    break
                a = rng.choice(g.legal_ids())
                g.apply(a)
                h.apply(a)
                assert h.to_json() == g.to_json()
            saved += 1
            continue
        g.apply(rng.choice(g.legal_ids()))
    assert saved >= 3
    end = kanaszta.Game.from_json(g.to_json())
    assert end.is_terminal and end.scores() == g.scores()


def test_a_written_decorated_position_loads_with_defaults():
    g = kanaszta.Game.from_json(
        '{"phase": "draw", "players": [{"hand": "8D 8S"}, {"hand": "4C"}]}'
    )
    assert (g.family, g.players, g.current_player) == ("decorated", 2, 0)
    assert "draw" in g.legal_actions()
    assert json.loads(g.to_json())["format"] == "kanaszta-position/1"


def test_a_written_classic_position_loads():
    text = json.dumps(
        {
            "family": "classic",
            "rules": "classic-002",
            "phase": "draw",
            "dealer": 1,
            "mover": 0,
            "turns": 4,
            "players": [{"hand": "4C 4D 5H 8S 9S KC KD"}, {"hand": "6C 6D 7H 7S QC QD"}],
            "sides": [{"melds": ["AC AD AH 2C"], "red_threes": "3H"}, {}],
            "pile": "9C 5S",
        }
    )
    g = kanaszta.Game.from_json(text)
    assert (g.family, g.rules, g.current_player, g.turns) == ("classic", "classic", 0, 4)
    assert "draw" in g.legal_actions()
    assert kanaszta.Game.from_json(g.to_json()).to_json() == g.to_json()


@pytest.mark.parametrize(
    "text,says",
    [
        ("[]", "one JSON object"),
        ("{}", "phase"),
        ('{"phase": "draw", "colour": 1}', "colour"),
        ('{"phase": "draw", "players": [{"hand": "8D 8D 8D"}, {}]}', "8D"),
        ('{"family": "classic", "phase": "draw", "mover": 9}', "mover"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, says):
    with pytest.raises(ValueError, match=says):
        kanaszta.Game.from_json(text)
