#!/usr/bin/env bash
# Counts the giveaways the baseline players are watched for (results/blunders/README.md):
#
#   results/blunders/count.sh [DEALS] [SEED]
#
# DEALS paired deals (default 2000: 4,000 hands) a decorated pairing, seed 2026:
# black-three pickups against an opponent on two cards or fewer (and on one,
# and those that leave a black three in hand at the turn's end and at the hand's),
# wilds thrown to freeze (and those while nobody had opened), hands holding 30
# meldable points or more against an opponent on two cards or fewer, hands
# unopened at turn 30, and how the hands ended (stalled, dead-locked); then
# classic rules' canasta-feeding discards under classic-002 (CLASSIC_DEALS,
# default 300: 600 hands, four players). RULES names the rules player (default
# `rules`; `RULES=rules:lone=off` counts the play before `lone`,
# `RULES=rules:thin=off` the play before `thin`). The counters
# are the agents examples `blunders` and `classic_feeds`, built here with the
# testing profile (it plays as the release build). Deterministic: the same
# tree gives the same counts.
set -euo pipefail
cd "$(dirname "$0")/../.."
DEALS=${1:-2000}
SEED=${2:-2026}
RULES=${RULES:-rules}
CLASSIC_DEALS=${CLASSIC_DEALS:-300}
cargo build --quiet --profile testing -p kanaszta-agents --example blunders --example classic_feeds
B=target/testing/examples
"$B/blunders" "$RULES" "$RULES" "$DEALS" "$SEED"
"$B/blunders" "$RULES" greedy "$DEALS" "$SEED"
"$B/blunders" greedy greedy "$DEALS" "$SEED"
"$B/blunders" "$RULES" "$RULES" "$DEALS" "$SEED" opening=120
"$B/classic_feeds" "$CLASSIC_DEALS" "$SEED"
