"""Run directories of the command line (`kanaszta play`, `tournament`, `sweep`).

`load(dir)` reads one into pandas data frames (the `pandas` extra);
`read(dir)` into plain lists of dicts, without pandas. The files and their
columns are those of sim/CSV.md: `run.json` (the run's parameters),
`hands.csv` (a row per seat of a hand), `summary.csv` (a row per agent of
a series), and where the run wrote them `matches.csv` (with `--matches`),
`errors.csv`, `sweep.csv`, `tournament.csv` and `ratings.csv`. Row files
written compressed (`--compress gz`: `hands.csv.gz`, `matches.csv.gz`) are
read as the plain ones, streaming; a run that left its rows out (`--rows
matches` or `none`, with `accum.json`) has `hands` (and `matches`) `None`.

Cells are typed as sim/CSV.md writes them: `true` / `false` are booleans,
an empty cell (an absent value: no opening meld, an interval of fewer than
two observations) is missing (NaN in pandas, `None` in `read`), whole
numbers are ints and the rest floats or text.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
from dataclasses import dataclass, field
from typing import Any, Optional

#: The CSV files a run directory may hold, by attribute name.
FILES = ("hands", "summary", "matches", "errors", "sweep", "tournament", "ratings")


@dataclass
class Run:
    """A run directory read: `run` is run.json as a dict; `hands`,
    `summary` (always there) and `matches`, `errors`, `sweep`,
    `tournament`, `ratings` (`None` where the run wrote no such file) are
    data frames (`load`) or lists of dicts (`read`)."""

    dir: str
    run: dict
    hands: Any
    summary: Any
    matches: Any = None
    errors: Any = None
    sweep: Any = None
    tournament: Any = None
    ratings: Any = None
    family: str = field(default="decorated")


def _check(dir: str) -> str:
    path = os.fspath(dir)
    if not os.path.isdir(path):
        raise FileNotFoundError(f"no run directory {path!r}: give the --out DIR of a kanaszta run")
    for need in ("run.json", "hands.csv", "summary.csv"):
        if _file(path, need) is None and not (
            need == "hands.csv" and os.path.isfile(os.path.join(path, "accum.json"))
        ):
            raise FileNotFoundError(
                f"{path!r} is not a complete run directory: it has no {need} "
                "(a run writes run.json, hands.csv, summary.csv and errors.csv; "
                "hands.csv may be hands.csv.gz, or left out with accum.json)"
            )
    return path


def _file(path: str, name: str) -> Optional[str]:
    """`name` in `path`, or `name.gz` (written with --compress gz), or None."""
    for candidate in (name, name + ".gz"):
        file = os.path.join(path, candidate)
        if os.path.isfile(file):
            return file
    return None


def _run_json(path: str) -> dict:
    with open(os.path.join(path, "run.json"), encoding="utf-8") as f:
        return json.load(f)


def _cell(text: str) -> Any:
    if text == "":
        return None
    if text == "true":
        return True
    if text == "false":
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def read(dir: str) -> Run:
    """The run directory `dir` as plain Python: lists of dicts, one a row."""
    path = _check(dir)
    tables: dict[str, Optional[list]] = {}
    for name in FILES:
        file = _file(path, f"{name}.csv")
        if file is not None:
            opener = gzip.open if file.endswith(".gz") else open
            with opener(file, "rt", newline="", encoding="utf-8") as f:
                tables[name] = [{k: _cell(v) for k, v in row.items()} for row in csv.DictReader(f)]
        else:
            tables[name] = None
    run = _run_json(path)
    return Run(dir=path, run=run, family=run.get("family", "decorated"), **tables)


def load(dir: str) -> Run:
    """The run directory `dir` as pandas data frames (needs pandas)."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(
            "kanaszta.runs.load needs pandas: pip install 'kanaszta[pandas]'; "
            "kanaszta.runs.read gives the same tables as lists of dicts"
        ) from e
    path = _check(dir)
    tables: dict[str, Any] = {}
    for name in FILES:
        file = _file(path, f"{name}.csv")
        if file is not None:
            # pandas reads .gz itself (by the file's name), streaming.
            df = pd.read_csv(file, keep_default_na=False, na_values=[""], dtype=str)
            tables[name] = df.apply(_column) if len(df.columns) else df
        else:
            tables[name] = None
    run = _run_json(path)
    return Run(dir=path, run=run, family=run.get("family", "decorated"), **tables)


def _column(col):
    """A column of text cells typed: booleans, ints (nullable), floats, text."""
    import pandas as pd

    present = col.dropna()
    if present.empty:
        return pd.to_numeric(col, errors="coerce")
    if present.isin(["true", "false"]).all():
        return col.map({"true": True, "false": False}).astype("boolean")
    num = pd.to_numeric(col, errors="coerce")
    if num[col.notna()].notna().all():
        if present.str.fullmatch(r"-?\d+").all():
            # Seeds are unsigned 64-bit: past int64 the column is UInt64.
            ints = [None if v is None or v != v else int(v) for v in col]
            big = any(v is not None and v > 2**63 - 1 for v in ints)
            return pd.Series(pd.array(ints, dtype="UInt64" if big else "Int64"), index=col.index)
        return num.astype(float)
    return col
