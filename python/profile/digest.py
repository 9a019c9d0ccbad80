"""SHA-256 of every array VectorGame returns, to show that two builds
return the same numbers: both families, 2 and 4 players, n = 1, 7 and
64, copy True and False, 1 and 2 threads, seeds 0-3 (0-1 for 4
players), CALLS calls of step (200 by default) with random legal ids
(bench.random_legal, numpy's generator seeded with the seed).

    EXT=DIR python python/profile/digest.py [CALLS]

One line a setting and the digest of them all on the last line; EXT as
in step100.py (a package directory made by python/profile/mkext.sh).
"""

import hashlib
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

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
total = hashlib.sha256()
for rules in ("decorated-2003-02", "classic-002"):
    for players in (2, 4):
        for n in (1, 7, 64):
            for copy in (True, False):
                for threads in (1, 2):
                    for seed in range(4 if players == 2 else 2):
                        h = hashlib.sha256()
                        v = kanaszta.VectorGame(
                            n, rules=rules, players=players, seed=seed, copy=copy, threads=threads
                        )
                        out = v.reset()
                        rng = np.random.default_rng(seed)
                        for i in range(calls + 1):
                            for a in out:
                                h.update(np.ascontiguousarray(a).tobytes())
                            if i < calls:
                                out = v.step(random_legal(out[1], rng))
                        d = h.hexdigest()
                        total.update(d.encode())
                        print(rules, players, n, copy, threads, seed, d[:16])
print("all", total.hexdigest())
