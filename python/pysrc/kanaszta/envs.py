"""Environments over `kanaszta.Game` (the `envs` extra: Gymnasium and PettingZoo).

- `KanasztaEnv`: a Gymnasium single-agent environment. The learner holds one
  seat; a built-in agent (`opponent="rules"`) plays every other seat.
- `KanasztaAEC` (also `aec_env(...)`): a PettingZoo AEC environment, one
  agent a seat (`player_0`, `player_1`, ...).

Observations are dicts: `"observation"`, the seat's encoding (float32,
docs/ENCODING.md, every number in [-2, 2]), and `"action_mask"` (int8, 1 at
the legal action ids; all zeros when the seat is not to act). Actions are
action ids. A hand is an episode; the reward comes at its end: the seat's
side's hand score minus the best other side's, times `reward_scale`
(default 0.001, so a thousand points is 1).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "kanaszta.envs needs Gymnasium and PettingZoo: pip install 'kanaszta[envs]' "
        "(or pip install 'gymnasium>=1,<2' 'pettingzoo>=1.24,<2')"
    ) from e

from ._kanaszta import Agent, Game, IllegalAction

OBS_LOW, OBS_HIGH = -2.0, 2.0


def _spaces(game: Game):
    obs = spaces.Dict(
        {
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )
    return obs, spaces.Discrete(game.num_actions)


def _observe(game: Game, seat: int) -> dict:
    if not game.is_terminal and game.current_player == seat:
        # The bool mask's bytes are 0 and 1: as int8, without a copy.
        mask = game.legal_mask().view(np.int8)
    else:
        mask = np.zeros(game.num_actions, dtype=np.int8)
    return {"observation": game.observation(seat), "action_mask": mask}


def _margins(game: Game, scale: float) -> list:
    """Per seat: its side's hand score minus the best other side's, scaled."""
    totals = [s["total"] for s in game.scores()]
    out = []
    for seat in range(game.players):
        side = game.side_of(seat)
        others = [t for i, t in enumerate(totals) if i != side]
        out.append(float(totals[side] - max(others)) * scale)
    return out


class KanasztaEnv(gymnasium.Env):
    """One seat of a hand against built-in agents, as a Gymnasium environment.

    `KanasztaEnv(rules="decorated-2003-02", players=2, seat=0,
    opponent="rules", set=None, reward_scale=0.001, on_illegal="end",
    illegal_reward=-5.0, render_mode=None)`.

    `seat` is the learner's seat (`None`: drawn at each reset); `opponent`
    an agent spec (`kanaszta agents`) for every other seat, partners
    included. `reset(seed=s)` deals from `s` (the same seed, the same hand
    and opponents). An action the mask does not allow ends the episode with
    `illegal_reward` and `info["illegal"]` saying why (`on_illegal="end"`),
    or raises `IllegalAction` / `ValueError` (`on_illegal="raise"`).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "decorated-2003-02",
        players: int = 2,
        seat: Optional[int] = 0,
        opponent: str = "rules",
        set: Optional[dict] = None,
        reward_scale: float = 0.001,
        on_illegal: str = "end",
        illegal_reward: float = -5.0,
        render_mode: Optional[str] = None,
    ):
        if on_illegal not in ("end", "raise"):
            raise ValueError(f"on_illegal is 'end' or 'raise', not {on_illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules, self.players, self.set = rules, players, set
        self.game = Game(rules, players=players, seed=0, set=set)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"no seat {seat}: seats are 0..{players - 1}")
        Agent(opponent, rules=rules)  # the spec is checked now
        self.fixed_seat, self.opponent = seat, opponent
        self.seat = seat if seat is not None else 0
        self.reward_scale, self.on_illegal, self.illegal_reward = reward_scale, on_illegal, illegal_reward
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self.game)
        self._agents: dict = {}

    def _play_others(self) -> None:
        g = self.game
        while not g.is_terminal and g.current_player != self.seat:
            p = g.current_player
            a = self._agents[p].act(g)
            self._inform(p, a)
            g.apply(a)

    def _inform(self, player: int, action: int) -> None:
        for agent in self._agents.values():
            agent.inform(self.game, player, action)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**63))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.players))
        self.game = Game(self.rules, players=self.players, seed=deal, set=self.set)
        self._agents = {
            p: Agent(self.opponent, rules=self.rules, seed=deal + p)
            for p in range(self.players)
            if p != self.seat
        }
        self._play_others()
        return _observe(self.game, self.seat), {"seat": self.seat}

    def step(self, action):
        g = self.game
        if g.is_terminal:
            raise ValueError("the hand is over: call reset()")
        action = int(action)
        mask = g.legal_mask()
        if not (0 <= action < len(mask) and mask[action]):
            if self.on_illegal == "raise":
                g.apply(action)  # raises IllegalAction or ValueError, saying why
            try:
                g.clone().apply(action)
                why = f"action id {action} is not legal here"
            except (IllegalAction, ValueError) as e:
                why = str(e)
            obs = _observe(g, self.seat)
            obs["action_mask"][:] = 0
            return obs, float(self.illegal_reward), True, False, {"illegal": why, "seat": self.seat}
        self._inform(self.seat, action)
        g.apply(action)
        self._play_others()
        reward = _margins(g, self.reward_scale)[self.seat] if g.is_terminal else 0.0
        info = {"seat": self.seat}
        if g.is_terminal:
            info["scores"] = g.scores()
        return _observe(g, self.seat), reward, g.is_terminal, False, info

    def render(self):
        if self.render_mode == "ansi":
            return self.game.view(self.seat)
        return None

    def action_masks(self) -> np.ndarray:
        """The legal mask (bool), for maskable learners."""
        return self.game.legal_mask()


try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import agent_selector  # noqa: F401  (the extra is complete)
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "kanaszta.envs needs PettingZoo: pip install 'kanaszta[envs]' "
        "(or pip install 'pettingzoo>=1.24,<2')"
    ) from e


class KanasztaAEC(AECEnv):
    """Every seat of a hand as a PettingZoo AEC environment.

    `KanasztaAEC(rules="decorated-2003-02", players=2, set=None,
    reward_scale=0.001, render_mode=None)`. Agents are `player_0`, ...;
    the agent to act is the seat to move (one seat acts several times in a
    row during its meld phase). `reset(seed=s)` deals from `s`. An action
    the mask does not allow raises `IllegalAction` (with `.rule`) or
    `ValueError`, the hand unchanged.
    """

    metadata = {"render_modes": ["ansi"], "name": "kanaszta_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "decorated-2003-02",
        players: int = 2,
        set: Optional[dict] = None,
        reward_scale: float = 0.001,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules, self.set, self.reward_scale = rules, set, reward_scale
        self.render_mode = render_mode
        self.game = Game(rules, players=players, seed=0, set=set)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs, act = _spaces(self.game)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**63))
        self.game = Game(self.rules, players=len(self.possible_agents), seed=deal, set=self.set)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> Any:
        return _observe(self.game, self._index[agent])

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply(int(action))
        if not self.game.is_terminal:
            # Every reward is zero until the hand ends: nothing to add up.
            self.agent_selection = self.possible_agents[self.game.current_player]
            return
        self._cumulative_rewards[agent] = 0.0
        margins = _margins(self.game, self.reward_scale)
        scores = self.game.scores()
        self.rewards = {}
        for a in self.agents:
            self.rewards[a] = margins[self._index[a]]
            self.terminations[a] = True
            self.infos[a] = {"scores": scores}
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.game.view(self.game.current_player)
        return None

    def close(self) -> None:
        pass


def aec_env(**kwargs) -> KanasztaAEC:
    """A `KanasztaAEC` (the PettingZoo convention's constructor)."""
    return KanasztaAEC(**kwargs)
