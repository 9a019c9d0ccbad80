#!/usr/bin/env bash
# Throughput of the engine with agents, for results/bench.csv: hands/s and
# actions/s at 1 and 2 threads (median of 3), with the commit and machine.
#   cargo build --release -p kanaszta && results/bench.sh > results/bench.csv
set -euo pipefail
K=${KANASZTA:-target/release/kanaszta}
commit=$(git rev-parse --short HEAD)
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
cores=$(nproc)
first=1
bench() {
    "$K" bench "$@" --threads 1,2 --csv | while IFS= read -r line; do
        if [ "$first" = 1 ]; then echo "$line,command,commit,cpu,nproc"; fi
        case "$line" in agents,*) ;; *) echo "$line,\"kanaszta bench $*\",$commit,\"$cpu\",$cores" ;; esac
        first=0
    done
    first=0
}
bench --a random --b random --hands 2000 --repeat 3
bench --a greedy --b greedy --hands 4000 --repeat 3
bench --a rules --b greedy --hands 4000 --repeat 3
bench --a ismcts --b rules --hands 4 --repeat 1
bench --rules classic-002 --set players=4 --a greedy --b greedy --hands 4000 --repeat 3
