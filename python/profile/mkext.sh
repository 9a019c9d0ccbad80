#!/usr/bin/env bash
# Builds the extension as `pip install ./python` does (release, fat LTO,
# from the repository's root so that .cargo/config.toml applies) and lays
# it out as a package directory OUT/kanaszta, for python/profile/step100.py
# (EXT=OUT) or PYTHONPATH=OUT python python/bench.py: two builds side by side.
#
#     bash python/profile/mkext.sh OUT
set -euo pipefail
out=$(realpath -m "${1:?usage: mkext.sh OUT}")
cd "$(dirname "$0")/../.."
cargo build --release --manifest-path python/Cargo.toml --lib
rm -rf "$out/kanaszta"
mkdir -p "$out/kanaszta"
cp python/pysrc/kanaszta/*.py "$out/kanaszta/"
cp python/target/release/libkanaszta.so "$out/kanaszta/_kanaszta.abi3.so"
echo "package at $out/kanaszta"
