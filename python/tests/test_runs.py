"""kanaszta.runs: run directories of the command line read into Python and pandas.

`data/run` was written by `kanaszta play --a greedy --b random --matches 2
--seed 1 --set target=2000`; where the command is built, a fresh run of
each family is read too.
"""

import math
import pathlib
import subprocess

import pytest

import kanaszta
from kanaszta import runs

from test_agent import kanaszta_binary

FIXTURE = pathlib.Path(__file__).parent / "data" / "run"


def test_read_types_the_cells_as_csv_md_writes_them():
    r = runs.read(FIXTURE)
    assert r.run["command"] == "play" and r.run["mode"] == "matches" and r.family == "decorated"
    assert len(r.hands) == 12 and len(r.matches) == 4 and len(r.summary) == 2 and r.errors == []
    assert r.sweep is None and r.tournament is None
    h = r.hands[0]
    assert isinstance(h["raw"], int) and isinstance(h["won"], bool)
    assert {x["agent"] for x in r.summary} == {"greedy", "random"}
    # Each hand's two rows: the taxed scores add up to the running totals (D-15).
    for m in r.matches:
        rows = [x for x in r.hands if x["game"] == m["game"] and x["seat"] == m["seat"]]
        assert sum(x["taxed"] for x in rows) == m["total"]


def test_load_gives_data_frames():
    pd = pytest.importorskip("pandas")
    r = runs.load(FIXTURE)
    assert isinstance(r.hands, pd.DataFrame) and isinstance(r.summary, pd.DataFrame)
    assert r.hands["won"].dtype == "boolean" and str(r.hands["raw"].dtype) == "Int64"
    assert r.summary["hand_win_rate"].dtype == float
    # An empty cell is missing, not text: a single match has no interval.
    assert r.summary.set_index("agent").loc["greedy", "matches"] == 2
    plain = runs.read(FIXTURE)
    assert r.hands.shape == (len(plain.hands), len(plain.hands[0]))
    # Seeds are unsigned 64-bit numbers, kept exactly.
    assert list(r.hands["deal_seed"]) == [x["deal_seed"] for x in plain.hands]
    by_agent = r.hands.groupby("agent")["raw"].mean()
    s = r.summary.set_index("agent")["mean_raw"]
    for agent in ("greedy", "random"):
        assert math.isclose(by_agent[agent], s[agent], abs_tol=0.006)


def test_a_missing_or_partial_directory_says_what_a_run_holds(tmp_path):
    with pytest.raises(FileNotFoundError, match="no run directory"):
        runs.read(tmp_path / "nowhere")
    (tmp_path / "run.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match="hands.csv"):
        runs.read(tmp_path)


@pytest.mark.parametrize("rules", ["decorated-2003-02", "classic-002"])
def test_a_fresh_run_of_the_command_line_loads(tmp_path, rules):
    binary = kanaszta_binary()
    if binary is None:
        pytest.skip("the kanaszta command is not built (cargo build -p kanaszta --profile testing)")
    out = tmp_path / "run"
    subprocess.run(
        [str(binary), "play", "--rules", rules, "--a", "greedy", "--b", "random", "--hands", "4",
         "--seed", "2", "--threads", "1", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = runs.read(out)
    assert r.family == ("classic" if rules.startswith("classic") else "decorated")
    assert len(r.hands) == 8 and len(r.summary) == 2
    e = kanaszta.evaluate("greedy", opponent="random", hands=4, seed=2, rules=rules)
    row = next(x for x in r.summary if x["agent"] == "greedy")
    assert row["hand_wins"] == e["wins"]


def test_a_compressed_run_reads_as_the_plain_one(tmp_path):
    import gzip
    import shutil

    for f in FIXTURE.iterdir():
        if f.name in ("hands.csv", "matches.csv"):
            with open(f, "rb") as src, gzip.open(tmp_path / (f.name + ".gz"), "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copy(f, tmp_path / f.name)
    assert not (tmp_path / "hands.csv").exists()
    plain, packed = runs.read(FIXTURE), runs.read(tmp_path)
    assert packed.hands == plain.hands and packed.matches == plain.matches
    assert packed.summary == plain.summary


def test_a_run_without_rows_reads_its_summary(tmp_path):
    import shutil

    for f in FIXTURE.iterdir():
        if f.name not in ("hands.csv", "matches.csv"):
            shutil.copy(f, tmp_path / f.name)
    with pytest.raises(FileNotFoundError, match="hands.csv"):
        runs.read(tmp_path)
    (tmp_path / "accum.json").write_text('{"rows": "none"}')
    r = runs.read(tmp_path)
    assert r.hands is None and r.matches is None and len(r.summary) == 2
