#!/usr/bin/env bash
# Regenerates every experiment of results/ (results/README.md reads them).
#
#   results/make.sh [EXPERIMENT...]             full sizes, into results/ (see README for the time it takes)
#   results/make.sh --quick DIR [EXPERIMENT...] tiny samples into DIR: checks the pipeline (the test suite runs it)
#
# EXPERIMENT: tax, opening, seat, switches, ladder, anatomy (default: all).
#
# Every figure comes from the `kanaszta` binary ($KANASZTA, default
# target/release/kanaszta; build it with `cargo build --release -p kanaszta`).
# Raw per-hand CSVs are large: they go to $WORK (default a temporary
# directory) and only summaries and charts are kept in results/.
set -euo pipefail

K=${KANASZTA:-target/release/kanaszta}
OUT=results
QUICK=0
if [ "${1:-}" = "--quick" ]; then
    QUICK=1
    OUT=${2:?usage: make.sh --quick DIR}
    shift 2
fi
ONLY=" ${*:-tax opening seat switches ladder anatomy} "
want() { [[ "$ONLY" == *" $1 "* ]]; }
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$OUT"
[ -x "$K" ] || { echo "no kanaszta binary at $K: cargo build --release -p kanaszta" >&2; exit 1; }

# size FULL QUICK: the sample size of this mode.
size() { if [ "$QUICK" = 1 ]; then echo "$2"; else echo "$1"; fi; }
SEED=2026
# Every command is echoed into the experiment's commands.txt before it runs
# (with the binary's path and the scratch directory as they were).
LOG=/dev/null
begin() { mkdir -p "$OUT/$1"; LOG="$OUT/$1/commands.txt"; echo "# $2" > "$LOG"; }
# Status 2 (some game erred, recorded in errors.csv) does not stop the rest.
run() { printf '%q ' "$@" >> "$LOG"; echo >> "$LOG"; "$@" || [ $? -eq 2 ]; }

if want tax; then
begin tax "1. the tax (D-15): matches to 10,000, tax on vs off, same deals"
M=$(size 3000 8)
run "$K" sweep --a rules --b greedy --matches "$M" --seed $SEED --vary tax=on,off --out "$WORK/tax" --quiet
cp "$WORK/tax/sweep.csv" "$OUT/tax/sweep.csv"
run "$K" aggregate "$WORK/tax/matches.csv" --by rule_tax,agent --cols hands,won,comeback,tax_paid,total,lead_changes,max_deficit --out "$OUT/tax/matches-by-tax.csv"
run "$K" plot "$WORK/tax/matches.csv" --kind hist --x hands --group rule_tax --where seat=0 --bins 20 --title "Match length in hands: tax on vs off (rules v greedy)" --out "$OUT/tax/match-length.svg"
run "$K" plot "$WORK/tax/matches.csv" --kind hist --x total --group rule_tax --bins 30 --title "Final totals: tax on vs off" --out "$OUT/tax/final-totals.svg"
run "$K" sweep --a rules --b greedy --matches "$M" --seed $SEED --vary 'tax_schedule=5000:2,7000:4,9000:10;3000:2,6000:4,9000:10;7000:2' --out "$WORK/schedules" --quiet
cp "$WORK/schedules/sweep.csv" "$OUT/tax/schedules.csv"

fi

if want opening; then
begin opening "2. the opening minimum (I-11)"
H=$(size 10000 40)
run "$K" sweep --a rules --b greedy --hands "$H" --seed $SEED --vary opening=50,75,90,120,table --out "$WORK/opening" --quiet
cp "$WORK/opening/sweep.csv" "$OUT/opening/sweep.csv"
run "$K" plot "$OUT/opening/sweep.csv" --kind line --x opening --y a_hand_win_rate --lo a_hand_win_lo --hi a_hand_win_hi --title "Hand-win rate of rules v greedy by opening minimum" --out "$OUT/opening/win-rate.svg"
run "$K" plot "$OUT/opening/sweep.csv" --kind line --x opening --y mean_turns --title "Hand length (turns) by opening minimum" --out "$OUT/opening/hand-length.svg"

fi

if want seat; then
begin seat "3. seat and cut: the starter's advantage"
H=$(size 20000 40)
for a in greedy rules; do
    run "$K" play --a $a --b $a --hands "$H" --seed $SEED --out "$WORK/seat-$a" --quiet
    run "$K" aggregate "$WORK/seat-$a/hands.csv" --by starter --cols won,raw,went_out,opened_turn,first_canasta_turn,red_threes --out "$OUT/seat/$a-v-$a.csv"
done

fi

if want switches; then
begin switches "4. rule versions and switches"
H=$(size 6000 20)
run "$K" sweep --a rules --b greedy --hands "$H" --seed $SEED --vary version=decorated-2003-02,decorated-2003-01 --vary free_pickup_wild=allow,forbid --vary groups_per_rank=one,many --out "$WORK/switches" --quiet
cp "$WORK/switches/sweep.csv" "$OUT/switches/sweep.csv"

fi

if want ladder; then
begin ladder "5. the agent ladder"
H=$(size 100 4)
LADDER=$(size random,greedy,rules,pimc,ismcts "random,greedy,rules,pimc:worlds=2,ismcts:iters=10,check=4")
run "$K" tournament --agents "$LADDER" --hands "$H" --seed $SEED --out "$WORK/ladder" --quiet
cp "$WORK/ladder/tournament.csv" "$OUT/ladder/tournament.csv"
cp "$WORK/ladder/ratings.csv" "$OUT/ladder/ratings.csv"
cp "$WORK/ladder/summary.csv" "$OUT/ladder/summary.csv"
run "$K" plot "$OUT/ladder/ratings.csv" --kind bar --x agent --y rating --lo rating_lo --hi rating_hi --title "Agent ratings (Bradley–Terry, Elo scale, 95%)" --out "$OUT/ladder/ratings.svg"

fi

if want anatomy; then
begin anatomy "6. game anatomy (rules v greedy, default rules)"
H=$(size 20000 40)
run "$K" play --a rules --b greedy --hands "$H" --seed $SEED --out "$WORK/anatomy" --quiet
cp "$WORK/anatomy/summary.csv" "$OUT/anatomy/summary.csv"
run "$K" aggregate "$WORK/anatomy/hands.csv" --by agent --cols raw,canastas_black_wild,canastas_black,canastas_red,canastas_red_wild,canastas_gold,twins,red_threes,heart_aces,went_out,turns,pile_pickups,free_pickups,frozen_turns --out "$OUT/anatomy/by-agent.csv"
run "$K" plot "$WORK/anatomy/hands.csv" --kind hist --x raw --group agent --bins 40 --title "Raw hand scores (rules v greedy)" --out "$OUT/anatomy/scores.svg"

fi

echo "done: $OUT (raw runs in $WORK)"
