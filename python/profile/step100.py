"""Instructions inside VectorGame.step, for callgrind: 64 hands, 100 calls (by default)
of step with random legal ids (bench.random_legal, numpy's generator
seeded 0), 6,400 steps.

    EXT=DIR valgrind --tool=callgrind --toggle-collect='*__pymethod_step__*' \\
        python python/profile/step100.py decorated-2003-02 [CALLS]

100 calls see only the first 100 steps of each hand. CALLS = 1500
(96,000 steps) runs through whole hands, with new hands dealt as they
end, as python/bench.py does: its instructions a step are those the
rates are measured on.

EXT, if set, is a directory holding a package directory kanaszta/ (made
by python/profile/mkext.sh), so that two builds can be compared side by
side; without it the installed kanaszta is used.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
if os.environ.get("EXT"):
    sys.path.insert(0, os.environ["EXT"])

import numpy as np  # noqa: E402

import kanaszta  # noqa: E402
from bench import random_legal  # noqa: E402

if os.environ.get("EXT"):
    assert kanaszta.__file__.startswith(os.environ["EXT"]), kanaszta.__file__

rules = sys.argv[1] if len(sys.argv) > 1 else "decorated-2003-02"
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 100
v = kanaszta.VectorGame(64, rules=rules, seed=0, copy=False)
_, masks, _ = v.reset()
rng = np.random.default_rng(0)
for _ in range(calls):
    ids = random_legal(masks, rng)
    _, masks, _, _, _ = v.step(ids)
print(f"{rules}: {len(v)} hands, {calls} calls, {len(v) * calls} steps")
