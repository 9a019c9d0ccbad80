"""kanaszta.envs: the PettingZoo AEC and Gymnasium environments (the `envs` extra)."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from kanaszta import envs  # noqa: E402


@pytest.mark.parametrize("rules,players", [("decorated-2003-02", 2), ("classic-002", 2), ("classic-003", 4)])
def test_the_aec_env_passes_pettingzoos_api_test(rules, players):
    from pettingzoo.test import api_test

    api_test(envs.aec_env(rules=rules, players=players), num_cycles=60)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponent": "random"},
        {"rules": "classic-002", "opponent": "rules"},
        {"rules": "classic-003", "players": 4, "seat": None, "opponent": "greedy"},
    ],
)
def test_the_gym_env_passes_gymnasiums_check_env(kwargs):
    from gymnasium.utils.env_checker import check_env

    check_env(envs.KanasztaEnv(**kwargs), skip_render_check=True)


def test_a_gym_episode_is_one_hand_scored_at_its_end():
    env = envs.KanasztaEnv(rules="classic-002", opponent="greedy", seat=1)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    assert info["seat"] == 1 and env.game.current_player == 1
    steps, total = 0, 0.0
    done = False
    while not done:
        assert obs["action_mask"].any() and obs["observation"].dtype == np.float32
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    s = [x["total"] for x in info["scores"]]
    assert total == pytest.approx((s[1] - s[0]) * 0.001)
    assert not obs["action_mask"].any() and steps > 5
    # The same seed deals the same hand against the same opponent.
    again, _ = env.reset(seed=5)
    first, _ = envs.KanasztaEnv(rules="classic-002", opponent="greedy", seat=1).reset(seed=5)
    assert np.array_equal(again["observation"], first["observation"])


def test_an_illegal_action_ends_the_episode_or_raises():
    env = envs.KanasztaEnv(opponent="random")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, _, info = env.step(bad)
    assert done and reward == -5.0 and info["illegal"]
    strict = envs.KanasztaEnv(opponent="random", on_illegal="raise")
    strict.reset(seed=1)
    g = strict.game.clone()
    with pytest.raises(ValueError):
        strict.step(bad)
    assert strict.game.to_json() == g.to_json()
    with pytest.raises(ValueError, match="on_illegal"):
        envs.KanasztaEnv(on_illegal="ignore")
    with pytest.raises(ValueError, match="unknown agent"):
        envs.KanasztaEnv(opponent="nonesuch")


def test_the_aec_env_scores_every_seat_and_refuses_illegal_actions():
    env = envs.aec_env(rules="classic-003", players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100000):
        obs, reward, term, trunc, info = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert env.game.current_player == env.possible_agents.index(agent)
        if returns[agent] == 0.0 and rng.random() < 0.01:
            with pytest.raises(ValueError):  # IllegalAction, or an id naming nothing here
                env.step(int(np.flatnonzero(mask == 0)[-1]))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.agents
    # Partners share their side's margin; the two sides' margins are opposite.
    assert returns["player_0"] == returns["player_2"] == -returns["player_1"] == -returns["player_3"]
