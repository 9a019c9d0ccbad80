"""Decorated and classic canasta from Python: the kanaszta engine and agents.

`Game`, `VectorGame`, `Match`, `Agent`, `evaluate` and `IllegalAction` come
from the Rust extension (`kanaszta._kanaszta`); `kanaszta.runs` reads the
command line's run directories, and `kanaszta.envs` holds the PettingZoo
and Gymnasium environments (the `envs` extra).
"""

from ._kanaszta import (
    CLASSIC_ACTION_IDS,
    CLASSIC_OBS_LEN,
    DECORATED_ACTION_IDS,
    DECORATED_OBS_LEN,
    Agent,
    Game,
    IllegalAction,
    Match,
    VectorGame,
    __version__,
    evaluate,
)
from . import runs

__all__ = [
    "CLASSIC_ACTION_IDS",
    "CLASSIC_OBS_LEN",
    "DECORATED_ACTION_IDS",
    "DECORATED_OBS_LEN",
    "Agent",
    "Game",
    "IllegalAction",
    "Match",
    "VectorGame",
    "__version__",
    "evaluate",
    "runs",
]
