#!/usr/bin/env bash
# Regenerates every experiment of results/ (results/README.md reads them).
#
#   results/make.sh [EXPERIMENT...]             full sizes, into results/ (see README for the time it takes)
#   results/make.sh --quick DIR [EXPERIMENT...] tiny samples into DIR: checks the pipeline (the test suite runs it)
#
# REUSE=1 with a $WORK of an earlier run keeps the ladder's finished play
# runs there instead of repeating them (the searches take hours).
#
# EXPERIMENT: tax, opening, seat, switches, ladder, anatomy, classic (default: all).
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
ONLY=" ${*:-tax opening seat switches ladder anatomy classic} "
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
run "$K" aggregate "$WORK/tax/matches.csv" --by rule_tax,agent --cols hands,won,comeback,tax_paid,total,lead_changes,max_deficit --file "$OUT/tax/matches-by-tax.csv"
run "$K" plot "$WORK/tax/matches.csv" --kind hist --x hands --group rule_tax --where seat=0 --bins 20 --title "Match length in hands: tax on vs off (rules v greedy)" --file "$OUT/tax/match-length.svg"
run "$K" plot "$WORK/tax/matches.csv" --kind hist --x total --group rule_tax --bins 30 --title "Final totals: tax on vs off" --file "$OUT/tax/final-totals.svg"
run "$K" sweep --a rules --b greedy --matches "$M" --seed $SEED --vary 'tax_schedule=5000:2,7000:4,9000:10;3000:2,6000:4,9000:10;7000:2' --out "$WORK/schedules" --quiet
cp "$WORK/schedules/sweep.csv" "$OUT/tax/schedules.csv"
# The same question under two more pairings: a stronger player against
# a weaker one that plays much like it (rules against its yardstick, the
# rules agent with its fixes off), and two equal players (match length).
run "$K" sweep --a rules --b rules:fixes=off --matches "$M" --seed $SEED --vary tax=on,off --out "$WORK/tax-yardstick" --quiet
cp "$WORK/tax-yardstick/sweep.csv" "$OUT/tax/sweep-rules-yardstick.csv"
run "$K" sweep --a rules --b rules --matches "$M" --seed $SEED --vary tax=on,off --out "$WORK/tax-rules" --quiet
cp "$WORK/tax-rules/sweep.csv" "$OUT/tax/sweep-rules-rules.csv"
# Per agent under those two pairings as well (spread of the final totals,
# lead changes, comebacks), and the custom schedules against the yardstick.
for p in yardstick rules; do
    run "$K" aggregate "$WORK/tax-$p/matches.csv" --by rule_tax,agent --cols hands,won,comeback,tax_paid,total,lead_changes,max_deficit --file "$OUT/tax/matches-by-tax-rules-$p.csv"
done
run "$K" sweep --a rules --b rules:fixes=off --matches "$M" --seed $SEED --vary 'tax_schedule=5000:2,7000:4,9000:10;3000:2,6000:4,9000:10;7000:2' --out "$WORK/schedules-yardstick" --quiet
cp "$WORK/schedules-yardstick/sweep.csv" "$OUT/tax/schedules-rules-yardstick.csv"

fi

if want opening; then
begin opening "2. the opening minimum (I-11)"
H=$(size 10000 40)
run "$K" sweep --a rules --b greedy --hands "$H" --seed $SEED --vary opening=50,75,90,120,table --out "$WORK/opening" --quiet
cp "$WORK/opening/sweep.csv" "$OUT/opening/sweep.csv"
run "$K" plot "$OUT/opening/sweep.csv" --kind line --x opening --y a_hand_win_rate --lo a_hand_win_lo --hi a_hand_win_hi --title "Hand-win rate of rules v greedy by opening minimum" --file "$OUT/opening/win-rate.svg"
run "$K" plot "$OUT/opening/sweep.csv" --kind line --x opening --y median_turns_out --title "Hand length (turns, hands that went out, median) by opening minimum" --file "$OUT/opening/hand-length.svg"
# The second pairing: two rules players.
run "$K" sweep --a rules --b rules --hands "$H" --seed $SEED --vary opening=50,75,90,120,table --out "$WORK/opening-rules" --quiet
cp "$WORK/opening-rules/sweep.csv" "$OUT/opening/sweep-rules-rules.csv"
# The skill gap under a second unequal pairing: rules against its yardstick.
run "$K" sweep --a rules --b rules:fixes=off --hands "$H" --seed $SEED --vary opening=50,75,90,120,table --out "$WORK/opening-yardstick" --quiet
cp "$WORK/opening-yardstick/sweep.csv" "$OUT/opening/sweep-rules-yardstick.csv"
# The tail of long hands: turns per hand by minimum and pairing (median,
# 90th and 99th percentile, longest, share over 60 turns; one row a hand).
echo "pairing,opening,hands,median_turns,p90_turns,p99_turns,max_turns,over_60_share" > "$OUT/opening/long-hands.csv"
for p in "rules-greedy opening" "rules-rules opening-rules" "rules-yardstick opening-yardstick"; do
    set -- $p
    echo "# long-hands.csv, $1: turns of seat 0 of $WORK/$2/hands.csv by rule_opening (awk in make.sh)" >> "$LOG"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["seat"] == 0 { print $c["rule_opening"] "," $c["turns"] }' "$WORK/$2/hands.csv" |
        sort -t, -k1,1n -k2,2n |
        awk -F, -v pairing="$1" '
            function flush() {
                if (n == 0) return
                printf "%s,%s,%d,%s,%s,%s,%s,%.4f\n", pairing, key, n, t[int((n - 1) * 0.5) + 1], t[int((n - 1) * 0.9) + 1], t[int((n - 1) * 0.99) + 1], t[n], long / n
            }
            $1 != key { flush(); key = $1; n = 0; long = 0 }
            { t[++n] = $2; if ($2 > 60) long++ }
            END { flush() }' >> "$OUT/opening/long-hands.csv"
done

fi

if want seat; then
begin seat "3. seat and cut: the starter's advantage"
H=$(size 20000 40)
for a in greedy rules; do
    run "$K" play --a $a --b $a --hands "$H" --seed $SEED --out "$WORK/seat-$a" --quiet
    run "$K" aggregate "$WORK/seat-$a/hands.csv" --by starter --cols won,raw,went_out,opened_turn,first_canasta_turn,red_threes --file "$OUT/seat/$a-v-$a.csv"
    cp "$WORK/seat-$a/summary.csv" "$OUT/seat/$a-v-$a-summary.csv"
done

fi

if want switches; then
begin switches "4. rule versions and switches"
H=$(size 6000 20)
run "$K" sweep --a rules --b greedy --hands "$H" --seed $SEED --vary version=decorated-2003-02,decorated-2003-01 --vary free_pickup_wild=allow,forbid --vary groups_per_rank=one,many --out "$WORK/switches" --quiet
cp "$WORK/switches/sweep.csv" "$OUT/switches/sweep.csv"
# The same switches under two more pairings: rules against its yardstick,
# and two rules players.
for p in "yardstick rules:fixes=off" "rules rules"; do
    set -- $p
    run "$K" sweep --a rules --b "$2" --hands "$H" --seed $SEED --vary version=decorated-2003-02,decorated-2003-01 --vary free_pickup_wild=allow,forbid --vary groups_per_rank=one,many --out "$WORK/switches-$1" --quiet
    cp "$WORK/switches-$1/sweep.csv" "$OUT/switches/sweep-rules-$1.csv"
done

fi

if want ladder; then
begin ladder "5. the agent ladder"
mkdir -p "$WORK/ladder"
# Each step of the ladder: agent A against the agent below it, full
# matches to 10,000 with the tax on paired deals, so that one run gives the
# hand-win rate, the match-win rate and the point difference; the cheap
# steps also play hands alone for a paired per-hand point difference.
LADDER_CSV="$OUT/ladder.csv"
[ "$QUICK" = 1 ] && LADDER_CSV="$OUT/ladder/ladder.csv"
echo "step,agent,opponent,mode,hands,hand_win_rate,hand_win_lo,hand_win_hi,matches,match_win_rate,match_win_lo,match_win_hi,points_per_hand,opponent_points_per_hand,diff_unit,deals,mean_diff,mean_diff_lo,mean_diff_hi,command" > "$LADDER_CSV"
# step NAME A B ARGS...: plays A v B and appends A's row to ladder.csv.
STEP_DIRS=()
step() {
    local name=$1 a=$2 b=$3
    shift 3
    if [ "${REUSE:-0}" = 1 ] && [ -f "$WORK/ladder/$name/summary.csv" ]; then
        # A run of this very command already in $WORK (runs are
        # deterministic): logged, not repeated.
        printf '%q ' "$K" play --a "$a" --b "$b" "$@" --seed $SEED --out "$WORK/ladder/$name" --quiet >> "$LOG"
        echo "# (reused from \$WORK)" >> "$LOG"
    else
        run "$K" play --a "$a" --b "$b" "$@" --seed $SEED --out "$WORK/ladder/$name" --quiet
    fi
    cp "$WORK/ladder/$name/summary.csv" "$OUT/ladder/$name.csv"
    STEP_DIRS+=("$WORK/ladder/$name")
    local cmd
    cmd=$(printf '%q ' kanaszta play --a "$a" --b "$b" "$@" --seed $SEED)
    awk -F, -v step="$name" -v cmd="${cmd% }" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["side"] == "a" { A = $0 }
        $c["side"] == "b" { B = $0 }
        END {
            split(A, x, ","); split(B, y, ",")
            mode = (x[c["matches"]] > 0) ? "matches" : "hands"
            gsub(/"/, "\"\"", cmd)
            print step "," x[c["agent"]] "," x[c["opponent"]] "," mode "," x[c["hands"]] "," \
                x[c["hand_win_rate"]] "," x[c["hand_win_lo"]] "," x[c["hand_win_hi"]] "," \
                x[c["matches"]] "," x[c["match_win_rate"]] "," x[c["match_win_lo"]] "," x[c["match_win_hi"]] "," \
                x[c["mean_raw"]] "," y[c["mean_raw"]] "," x[c["diff_unit"]] "," x[c["deals"]] "," \
                x[c["mean_diff"]] "," x[c["mean_diff_lo"]] "," x[c["mean_diff_hi"]] ",\"" cmd "\""
        }' "$WORK/ladder/$name/summary.csv" >> "$LADDER_CSV"
}
CHEAP_M=$(size 2000 2)
CHEAP_H=$(size 20000 20)
step greedy-random-hands greedy random --hands "$CHEAP_H"
step greedy-random greedy random --matches "$CHEAP_M"
step rules-greedy-hands rules greedy --hands "$CHEAP_H"
step rules-greedy rules greedy --matches "$CHEAP_M"
step pimc-rules "$(size pimc pimc:worlds=2)" rules --matches "$(size 4 1)"
step ismcts250-rules "$(size ismcts:iters=250 ismcts:iters=10)" rules --matches "$(size 4 1)"
step ismcts-rules "$(size ismcts ismcts:iters=20)" rules --matches "$(size 8 1)"
# The default ISMCTS against rules on single hands as well: the paired
# per-hand difference is the most sensitive test of the step. Shards 0 and
# 2 of 3 of 600 hands (the deals whose index is 0 or 2 mod 3), one row
# each; shard 1 was stopped for time, see README.md.
step ismcts-rules-hands "$(size ismcts ismcts:iters=20)" rules --hands "$(size 600 6)" --shard 0/3
step ismcts-rules-hands-s2 "$(size ismcts ismcts:iters=20)" rules --hands "$(size 600 6)" --shard 2/3
# Both shards as one sample (400 hands): their merged summary.
run "$K" merge "$WORK/ladder/ismcts-rules-hands" "$WORK/ladder/ismcts-rules-hands-s2" --out "$WORK/ladder/ismcts-rules-hands-0+2"
cp "$WORK/ladder/ismcts-rules-hands-0+2/summary.csv" "$OUT/ladder/ismcts-rules-hands-0+2.csv"
# Ratings: every pair of the agents fast enough for a round robin, on the
# same paired deals (the search agents are placed by their steps above).
H=$(size 2000 4)
LADDER=random,greedy,rules
if [ "${REUSE:-0}" = 1 ] && [ -f "$WORK/ladder/tournament/ratings.csv" ]; then
    printf '%q ' "$K" tournament --agents "$LADDER" --hands "$H" --seed $SEED --out "$WORK/ladder/tournament" --quiet >> "$LOG"
    echo "# (reused from \$WORK)" >> "$LOG"
else
    run "$K" tournament --agents "$LADDER" --hands "$H" --seed $SEED --out "$WORK/ladder/tournament" --quiet
fi
cp "$WORK/ladder/tournament/tournament.csv" "$OUT/ladder/tournament.csv"
cp "$WORK/ladder/tournament/ratings.csv" "$OUT/ladder/ratings.csv"
cp "$WORK/ladder/tournament/summary.csv" "$OUT/ladder/summary.csv"
# Ratings of every agent, search agents included, through the games they
# played: the round robin above and every step of the ladder.
run "$K" ratings "$WORK/ladder/tournament" "${STEP_DIRS[@]}" --file "$OUT/ladder/ratings-all.csv"
run "$K" plot "$OUT/ladder/ratings-all.csv" --kind bar --x agent --y rating --lo rating_lo --hi rating_hi --title "All agents rated through the ladder (Bradley–Terry on hands, Elo scale, 95%)" --file "$OUT/ladder/ratings-all.svg"
run "$K" plot "$OUT/ladder/ratings.csv" --kind bar --x agent --y rating --lo rating_lo --hi rating_hi --title "Agent ratings (Bradley–Terry, Elo scale, 95%)" --file "$OUT/ladder/ratings.svg"
run "$K" plot "$LADDER_CSV" --kind bar --x step --y hand_win_rate --lo hand_win_lo --hi hand_win_hi --title "Ladder steps: hand-win rate of the upper agent (95%)" --file "$OUT/ladder/steps.svg"

fi

if want anatomy; then
begin anatomy "6. game anatomy (rules v greedy, default rules)"
H=$(size 20000 40)
run "$K" play --a rules --b greedy --hands "$H" --seed $SEED --out "$WORK/anatomy" --quiet
cp "$WORK/anatomy/summary.csv" "$OUT/anatomy/summary.csv"
run "$K" aggregate "$WORK/anatomy/hands.csv" --by agent --cols raw,canastas_black_wild,canastas_black,canastas_red,canastas_red_wild,canastas_gold,twins,red_threes,heart_aces,went_out,turns,pile_pickups,free_pickups,frozen_turns,canasta_points,twin_points,red_three_points,heart_ace_points,going_out_points,from_hand_points,card_value --file "$OUT/anatomy/by-agent.csv"
run "$K" plot "$WORK/anatomy/hands.csv" --kind hist --x raw --group agent --bins 40 --title "Raw hand scores (rules v greedy)" --file "$OUT/anatomy/scores.svg"
# The same counts under two more pairings: rules against its yardstick,
# and two rules players.
for p in "yardstick rules:fixes=off" "rules rules"; do
    set -- $p
    run "$K" play --a rules --b "$2" --hands "$H" --seed $SEED --out "$WORK/anatomy-$1" --quiet
    cp "$WORK/anatomy-$1/summary.csv" "$OUT/anatomy/summary-rules-$1.csv"
    run "$K" aggregate "$WORK/anatomy-$1/hands.csv" --by agent --cols raw,canastas_black_wild,canastas_black,canastas_red,canastas_red_wild,canastas_gold,twins,red_threes,heart_aces,went_out,turns,pile_pickups,free_pickups,frozen_turns,canasta_points,twin_points,red_three_points,heart_ace_points,going_out_points,from_hand_points,card_value --file "$OUT/anatomy/by-agent-rules-$1.csv"
done

fi

if want classic; then
begin classic "7. classic canasta: the presets, the pile, and partnerships of different players"
# stack OUT PREFIX_HEADER PREFIX FILE: FILE's rows appended to OUT, each
# after the PREFIX columns (the header written once).
stack() {
    [ -s "$1" ] || echo "$2,$(head -1 "$4")" > "$1"
    tail -n +2 "$4" | sed "s/^/$3,/" >> "$1"
}
rm -f "$OUT/classic/presets.csv" "$OUT/classic/presets-length.csv" "$OUT/classic/partners.csv" "$OUT/classic/partners-seats.csv"
H=$(size 20000 8)
M=$(size 2000 2)
# The three presets, rules v greedy, four players then two: hands (the
# skill gap, how hands end, the pile) and matches to 5,000 (their length).
for players in 4 2; do
    for preset in classic-002 classic-003 classic-004; do
        d="$WORK/classic/$preset-${players}p"
        run "$K" play --rules $preset --set players=$players --a rules --b greedy --hands "$H" --seed $SEED --threads 2 --out "$d-hands" --quiet
        stack "$OUT/classic/presets.csv" preset,players,mode $preset,$players,hands "$d-hands/summary.csv"
        run "$K" aggregate "$d-hands/hands.csv" --where seat=0 --cols turns,actions --file "$d-hands/length.csv"
        stack "$OUT/classic/presets-length.csv" preset,players $preset,$players "$d-hands/length.csv"
        run "$K" play --rules $preset --set players=$players --a rules --b greedy --matches "$M" --seed $SEED --threads 2 --out "$d-matches" --quiet
        stack "$OUT/classic/presets.csv" preset,players,mode $preset,$players,matches "$d-matches/summary.csv"
    done
done
# Partnerships: does a strong partner carry a weak one? Side A against
# side B on the same deals, four players; the reference is the full gap
# (both strong against both weak). Under 002 in hands and matches, then
# the hands under 004 and with random as the weak player.
partners() { # PRESET WEAK MODE
    local preset=$1 weak=$2 mode=$3 n
    if [ "$mode" = hands ]; then n=$H; else n=$M; fi
    for pair in "rules $weak" "rules+$weak $weak" "$weak+rules $weak" "rules+$weak rules"; do
        set -- $pair
        local d="$WORK/classic/partners-$preset-$1-v-$2-$mode"
        run "$K" play --rules $preset --set players=4 --a "$1" --b "$2" --"$mode" "$n" --seed $SEED --threads 2 --out "$d" --quiet
        stack "$OUT/classic/partners.csv" preset,weak,mode $preset,$weak,$mode "$d/summary.csv"
        if [ "$mode" = hands ] && [[ "$1" == *+* ]]; then
            run "$K" aggregate "$d/hands.csv" --by side_agents,agent --cols went_out,seat_in_hand,pickups,pile_taken_cards,draws --file "$d/seats.csv"
            stack "$OUT/classic/partners-seats.csv" preset,opponent,mode $preset,$2,$mode "$d/seats.csv"
        fi
    done
}
partners classic-002 greedy hands
partners classic-002 greedy matches
partners classic-004 greedy hands
partners classic-002 random hands

fi

echo "done: $OUT (raw runs in $WORK)"
