"""A tax sweep into pandas: comebacks with and without the tax (D-15).

Runs `kanaszta sweep --vary tax=on,off` (full matches to 10,000, each deal
twice with the seats swapped), loads the run directory with
`kanaszta.runs.load`, and compares the comeback rate (the share of matches
a seat won after trailing by 2,000 or more, sim/CSV.md) with and without
the tax, from the per-match rows of matches.csv and from sweep.csv's own
pooled rate. With matplotlib installed it also plots them (--plot FILE).

    cargo build -p kanaszta --profile testing
    python python/examples/tax_sweep.py --matches 200 --out tax-sweep --plot comebacks.png

An existing run directory is read as it is: --run DIR.
"""

import argparse
import os
import pathlib
import shutil
import subprocess

import kanaszta
from kanaszta import runs

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary() -> str:
    for c in [os.environ.get("KANASZTA_BIN"), shutil.which("kanaszta")] + [
        str(ROOT / "target" / p / "kanaszta") for p in ("release", "testing", "debug")
    ]:
        if c and os.access(c, os.X_OK):
            return c
    raise SystemExit("no kanaszta command: cargo build -p kanaszta --release, or set KANASZTA_BIN")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--a", default="rules")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--out", default="tax-sweep")
    ap.add_argument("--run", help="read this run directory instead of running a sweep")
    ap.add_argument("--plot", help="save a bar chart of the comeback rates here (needs matplotlib)")
    a = ap.parse_args()

    out = a.run
    if out is None:
        out = a.out
        subprocess.run(
            [binary(), "sweep", "--a", a.a, "--b", a.b, "--vary", "tax=on,off",
             "--matches", str(a.matches), "--seed", str(a.seed), "--threads", str(a.threads),
             "--out", out, "--quiet"],
            check=True, stdout=subprocess.DEVNULL,
        )
    run = runs.load(out)
    if run.matches is None or run.sweep is None:
        raise SystemExit(f"{out} is not a sweep of matches (kanaszta sweep --matches N)")

    # From the match rows: a seat "trailed" if it was ever 2,000 behind.
    m = run.matches
    m = m.assign(trailed=m["max_deficit"] >= 2000)
    by_tax = (
        m[m["trailed"]]
        .groupby("rule_tax")
        .agg(trailed=("trailed", "size"), comebacks=("comeback", "sum"), tax_paid=("tax_paid", "mean"))
    )
    by_tax["comeback_rate"] = by_tax["comebacks"] / by_tax["trailed"]
    print(f"{' v '.join(run.run['agents'])}: {run.run['games']} matches a setting, seed {run.run['seed']}")
    print(by_tax.to_string(float_format=lambda x: f"{x:.3f}"))
    print()
    cols = ["tax", "matches", "all_comeback_rate", "all_comeback_lo", "all_comeback_hi", "mean_match_hands"]
    print(run.sweep[[c for c in cols if c in run.sweep.columns]].to_string(index=False))

    if a.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise SystemExit("--plot needs matplotlib: pip install matplotlib")
        s = run.sweep.set_index("tax")
        rate = s["all_comeback_rate"].astype(float)
        err = [rate - s["all_comeback_lo"].astype(float), s["all_comeback_hi"].astype(float) - rate]
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.bar([f"tax {t}" for t in s.index], rate, yerr=err, capsize=6, color=["tab:blue", "tab:gray"])
        ax.set_ylabel("comeback rate")
        ax.set_title("won after trailing by 2,000 or more", fontsize=9)
        ax.set_ylim(0, 1)
        fig.tight_layout()
        fig.savefig(a.plot, dpi=120)
        print(f"\nplot: {a.plot}")


if __name__ == "__main__":
    main()
