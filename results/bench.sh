#!/usr/bin/env bash
# Throughput of the engine with agents, for results/bench.csv: every
# workload of the speed table (`kanaszta bench --suite`), each figure next
# to its goal, appended to results/bench.csv with the commit and machine.
# Rows before the suite are the per-pair benches of `kanaszta bench --csv`
# (their figure, unit and goal cells are empty).
#   cargo build --release -p kanaszta && results/bench.sh
set -euo pipefail
K=${KANASZTA:-target/release/kanaszta}
"$K" bench --suite --append results/bench.csv
