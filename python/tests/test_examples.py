"""The examples of python/examples run (briefly)."""

import os
import pathlib
import subprocess
import runpy
import sys

import numpy as np
import pytest

import kanaszta

from test_agent import kanaszta_binary

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_the_heuristic_plays_legal_classic_actions():
    h = runpy.run_path(str(EXAMPLES / "heuristic.py"))["heuristic"]
    g = kanaszta.Game("classic-002", seed=3)
    while not g.is_terminal:
        a = h(g.observation(), g.legal_mask())
        assert g.legal_mask()[a]
        g.apply(a)
    r = kanaszta.evaluate(h, opponent="random", hands=4, seed=1, rules="classic-002")
    assert r["hands"] + r["errors"] == 4 and np.isfinite(r["points"][0])


def test_the_tax_sweep_reads_a_sweep(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pandas")
    binary = kanaszta_binary()
    if binary is None:
        pytest.skip("the kanaszta command is not built (cargo build -p kanaszta --profile testing)")
    monkeypatch.setenv("KANASZTA_BIN", str(binary))
    argv = ["tax_sweep.py", "--a", "greedy", "--b", "random", "--matches", "2", "--threads", "1",
            "--out", str(tmp_path / "s")]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(EXAMPLES / "tax_sweep.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "all_comeback_rate" in out and "2 matches a setting" in out


@pytest.mark.parametrize("rules", ["decorated-2003-02", "classic-002"])
def test_the_profile_run_steps_its_hands(rules):
    """python/profile/step100.py, the run behind the instruction counts of
    results/perf-notes.md, runs on the installed module."""
    script = pathlib.Path(__file__).resolve().parents[1] / "profile" / "step100.py"
    out = subprocess.run([sys.executable, str(script), rules], capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "EXT"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{rules}: 64 hands, 100 calls, 6400 steps"
