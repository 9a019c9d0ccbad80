"""Steps per second of kanaszta from Python, on one core.

Rates are per second of this process's CPU time (time.process_time), so
that other work on a shared machine does not count against them.

    python python/bench.py [--seconds S]

Game: one hand at a time, a random legal id each step (legal_ids, then
apply), a new hand dealt when one ends. VectorGame: n hands stepped by
one call, a random legal id of each row of the returned masks chosen by
NumPy, observations and masks returned every step (new arrays, or with
copy=False the VectorGame's own), on one thread or two; also the rate
counting only the time inside `step`, and the wall-clock rate (which
counts both threads' work once). AEC: the PettingZoo environment
of kanaszta.envs (when the envs extra is installed), a random legal id
from each observation's action mask (viewed as bool), `env.last()` and
`env.step()` each step, a new hand (reset) when one ends.
"""

import argparse
import random
import time

import numpy as np

import kanaszta


def bench_game(rules, seconds):
    rng = random.Random(0)
    seed = 0
    g = kanaszta.Game(rules, seed=seed)
    steps = 0
    start = time.process_time()
    end = start + seconds
    while True:
        for _ in range(1000):
            if g.is_terminal:
                seed += 1
                g = kanaszta.Game(rules, seed=seed)
            ids = g.legal_ids()
            g.apply(ids[rng.randrange(len(ids))])
        steps += 1000
        now = time.process_time()
        if now >= end:
            return steps / (now - start)


def bench_game_observed(rules, seconds):
    """As bench_game, with the mover's observation and mask each step."""
    rng = random.Random(0)
    seed = 0
    g = kanaszta.Game(rules, seed=seed)
    steps = 0
    start = time.process_time()
    end = start + seconds
    while True:
        for _ in range(1000):
            if g.is_terminal:
                seed += 1
                g = kanaszta.Game(rules, seed=seed)
            g.observation()
            ids = np.flatnonzero(g.legal_mask())
            g.apply(int(ids[rng.randrange(len(ids))]))
        steps += 1000
        now = time.process_time()
        if now >= end:
            return steps / (now - start)


def random_legal(masks, rng):
    """One legal id a row, uniformly at random: one pass over the masks."""
    flat = np.flatnonzero(masks)
    n, width = masks.shape
    rows = flat // width
    counts = np.bincount(rows, minlength=n)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    pick = starts + (rng.random(n) * counts).astype(np.int64)
    return flat[pick] - np.arange(n) * width


def bench_vector(rules, n, seconds, copy=True, threads=1):
    """Steps a second of CPU time overall and counting only the time
    inside step, and steps a second of wall-clock time overall."""
    v = kanaszta.VectorGame(n, rules=rules, seed=0, copy=copy, threads=threads)
    _, masks, _ = v.reset()
    rng = np.random.default_rng(0)
    calls = 0
    inside = 0.0
    start = time.process_time()
    wall = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(20):
            ids = random_legal(masks, rng)
            t = time.process_time()
            _, masks, _, _, _ = v.step(ids)
            inside += time.process_time() - t
        calls += 20
        now = time.process_time()
        if now >= end:
            steps = calls * n
            return steps / (now - start), steps / inside, steps / (time.perf_counter() - wall)


def bench_aec(rules, seconds):
    """PettingZoo AEC steps a second, random legal actions by the mask."""
    from kanaszta.envs import aec_env

    env = aec_env(rules=rules)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    end = start + seconds
    while True:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            # The int8 mask viewed as bool: NumPy finds the nonzero
            # entries of an int8 array one call an entry, six times
            # slower than those of a bool array (29 against 5 us).
            ids = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(ids[int(rng.random() * len(ids))]))
            steps += 1
        now = time.process_time()
        if now >= end:
            return steps / (now - start)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    a = p.parse_args()
    for rules in ("classic-002", "decorated-2003-02"):
        print(f"{rules}: Game, random legal id        {bench_game(rules, a.seconds):>12,.0f} steps/s")
        print(f"{rules}: Game, + observation and mask {bench_game_observed(rules, a.seconds):>12,.0f} steps/s")
        try:
            aec = f"{bench_aec(rules, a.seconds):>12,.0f} steps/s"
        except ImportError:
            aec = "(not measured: pip install './python[envs]')"
        print(f"{rules}: PettingZoo AEC, random legal {aec}")
        for n, copy, threads in ((64, True, 1), (256, True, 1), (256, False, 1), (256, False, 2)):
            r, inside, wall = bench_vector(rules, n, a.seconds, copy, threads)
            print(
                f"{rules}: VectorGame n={n:<4} copy={copy!s:<5} threads={threads} "
                f"{r:>12,.0f} steps/s ({inside:,.0f} inside step; {wall:,.0f} a wall-clock second)"
            )

if __name__ == "__main__":
    main()
