#!/usr/bin/env bash
# Regenerates every experiment of results/ (results/README.md reads them).
#
#   results/make.sh [EXPERIMENT...]             full sizes, into results/ (see README for the time it takes)
#   results/make.sh --quick DIR [EXPERIMENT...] tiny samples into DIR: checks the pipeline (the test suite runs it)
#
# REUSE=1 with a $WORK of an earlier run keeps the ladder's finished (or
# interrupted) runs there instead of repeating them (the searches take
# hours); LADDER_ONLY="PART ..." plays only those parts of the ladder (to
# run the long ones side by side; see the ladder section).
#
# EXPERIMENT: tax, opening, seat, switches, ladder, anatomy, classic (default: all).
#
# Every figure comes from the `kanaszta` binary ($KANASZTA, default
# target/release/kanaszta; build it with `cargo build --release -p kanaszta`).
# Raw per-hand CSVs are large: they go to $WORK (default a temporary
# directory, removed at the end; set WORK to keep them) and only summaries
# and charts are kept in results/.
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
# Raw runs go to $WORK when it is given (and stay there, for REUSE=1);
# else to a temporary directory that is removed when the script ends.
KEPT=1
if [ -z "${WORK:-}" ]; then
    WORK=$(mktemp -d)
    KEPT=0
    trap 'rm -rf "$WORK"' EXIT
fi
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
begin ladder "5. the agent ladder: every agent against every other"
mkdir -p "$WORK/ladder"
# The parts of the ladder, each into $WORK/ladder/NAME:
#   tune      SPSA on five of rules' numbers against greedy and the old
#             rules (rules:plan=off); its spec (best.txt) joins the round robin
#   rr        round robin of the cheap agents and the tuned rules, hands
#   STEP      a search agent against another agent (the steps below)
#   time-X    kanaszta bench of agent X against rules on one thread: the
#             wall time of its decisions
# LADDER_ONLY="NAME ..." plays only those parts ("time": every time-X) and
# stops before the tables
# (to run the long steps side by side; a later REUSE=1 run gathers them).
# REUSE_ONLY=1 (with REUSE=1) plays nothing new: the parts not in $WORK
# are left out of the tables (logged as not played).
# With REUSE=1 a part whose directory holds a finished or interrupted run
# of the same command is kept (runs are deterministic; a run stopped by a
# signal keeps its finished games, run.json says "complete": false).
# A step stopped by SIGINT/SIGTERM (status 130/143) does not stop the rest.
part() {
    [ -z "${LADDER_ONLY:-}" ] || [[ " $LADDER_ONLY " == *" $1 "* ]] ||
        [[ $1 == time-* && " $LADDER_ONLY " == *" time "* ]]
}
# reuse NAME CMD...: whether $WORK/ladder/NAME holds a run of CMD to keep
# (logged as reused); a run of another command there is refused.
reuse() {
    local d="$WORK/ladder/$1" cmd
    shift
    cmd=$(printf '%q ' "$@")
    [ "${REUSE:-0}" = 1 ] && [ -f "$d/command.txt" ] || return 1
    if [ "$(cat "$d/command.txt")" != "$cmd" ]; then
        echo "$d holds a run of another command: $(cat "$d/command.txt")" >&2
        exit 1
    fi
    [ -f "$d/summary.csv" ] || [ -f "$d/best.txt" ] || [ -f "$d/bench.csv" ] || return 1
    printf '%s\n# (reused from $WORK%s)\n' "$cmd" "$(grep -q '"complete": false' "$d/run.json" 2>/dev/null && echo ', stopped by a signal' || true)" >> "$LOG"
}
# play_part NAME CMD...: runs CMD (its output directory $WORK/ladder/NAME)
# unless reused; a signal's stop (130, 143) keeps what it played.
play_part() {
    local name=$1 d="$WORK/ladder/$1"
    shift
    part "$name" || return 0
    reuse "$name" "$@" && return 0
    if [ "${REUSE_ONLY:-0}" = 1 ]; then
        printf '# not played (REUSE_ONLY): %s\n' "$name" >> "$LOG"
        return 0
    fi
    mkdir -p "$d"
    printf '%q ' "$@" > "$d/command.txt"
    printf '%q ' "$@" >> "$LOG"; echo >> "$LOG"
    local st=0
    "$@" || st=$?
    case $st in 0|2) ;; 130|143) echo "# (stopped by a signal: kept as it is)" >> "$LOG" ;; *) exit $st ;; esac
}
# The search agents at their defaults (tiny budgets with --quick).
ISMCTS=$(size ismcts ismcts:iters=10)
# The quarter budget: a quarter of the iterations and of the race (whose
# 64 worlds would otherwise cost as much as 125 iterations).
ISMCTS_Q=$(size ismcts:iters=125,race=16 ismcts:iters=3,race=1)
PIMC=$(size pimc pimc:worlds=2)

# 1. The tuned rules: SPSA over five of its numbers against a fixed set.
play_part tune "$K" tune --agent rules --param caution,wild,pair,chase,freeze --vs greedy,rules:plan=off \
    --hands-per-step "$(size 2000 4)" --steps "$(size 60 2)" --window "$(size 15 0)" --seed $SEED \
    --out "$WORK/ladder/tune" --quiet
TUNED=rules
[ -f "$WORK/ladder/tune/best.txt" ] && TUNED=$(head -1 "$WORK/ladder/tune/best.txt")

# 2. The round robin of the cheap agents and the tuned rules, paired hands.
RR=rules,$TUNED,rules:plan=off,greedy,random
play_part rr "$K" tournament --agents "$RR" --hands "$(size 8000 6)" --seed $SEED --out "$WORK/ladder/rr" --quiet

# 3. Decision time: each agent against rules on one thread (the machine
# is shared: wall time, other work included).
TIMED=()
for x in random greedy rules:plan=off rules "$TUNED" "$PIMC" "$ISMCTS"; do
    case $x in ismcts*) h=$(size 2 1) ;; pimc*) h=$(size 6 1) ;; *) h=$(size 400 4) ;; esac
    name=time-$(printf '%s' "$x" | tr -c 'A-Za-z0-9=.\n' '_')
    TIMED+=("$x|$name")
    if part "$name" && ! reuse "$name" "$K" bench --a "$x" --b rules --hands "$h" --threads 1 --repeat 1 --csv; then
        if [ "${REUSE_ONLY:-0}" = 1 ]; then
            printf '# not played (REUSE_ONLY): %s\n' "$name" >> "$LOG"
            continue
        fi
        mkdir -p "$WORK/ladder/$name"
        printf '%q ' "$K" bench --a "$x" --b rules --hands "$h" --threads 1 --repeat 1 --csv > "$WORK/ladder/$name/command.txt"
        cat "$WORK/ladder/$name/command.txt" >> "$LOG"; echo >> "$LOG"
        "$K" bench --a "$x" --b rules --hands "$h" --threads 1 --repeat 1 --csv > "$WORK/ladder/$name/bench.csv.part"
        mv "$WORK/ladder/$name/bench.csv.part" "$WORK/ladder/$name/bench.csv"
    fi
done
# 4. The search agents, each step into $WORK/ladder/STEP, in the order of
# priority: the goal (ISMCTS v rules, single paired hands), then matches
# to 10,000 against rules, then ISMCTS against the others, then each
# search agent against the cheap ones.
STEPS=()
step() { # STEP A B ARGS...
    local name=$1 a=$2 b=$3
    shift 3
    STEPS+=("$name")
    play_part "$name" "$K" play --a "$a" --b "$b" "$@" --seed $SEED --out "$WORK/ladder/$name" --quiet
}
step ismcts-rules-hands "$ISMCTS" rules --hands "$(size 1000 6)" --threads 4
step ismcts-rules "$ISMCTS" rules --matches "$(size 40 2)" --threads 2
step pimc-rules "$PIMC" rules --matches "$(size 40 2)" --threads 2
step ismcts-greedy "$ISMCTS" greedy --hands "$(size 300 4)" --threads 1
step ismcts-rulesold "$ISMCTS" rules:plan=off --hands "$(size 300 4)" --threads 1
step ismcts-pimc "$ISMCTS" "$PIMC" --hands "$(size 300 4)" --threads 1
step ismcts-quarter "$ISMCTS" "$ISMCTS_Q" --hands "$(size 300 4)" --threads 1
step pimc-greedy "$PIMC" greedy --hands "$(size 200 4)" --threads 1
step pimc-rulesold "$PIMC" rules:plan=off --hands "$(size 200 4)" --threads 1
step ismcts-random "$ISMCTS" random --hands "$(size 100 2)" --threads 1
step pimc-random "$PIMC" random --hands "$(size 100 2)" --threads 1

if [ -n "${LADDER_ONLY:-}" ]; then
    echo "played: $LADDER_ONLY (in $WORK/ladder)"
    exit 0
fi

# 5. The tables. csv(): a CSV line's fields into f[1..n] (quotes honoured).
CSV_AWK='function csv(line, f,   n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 } else cur = cur c }
        else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
function q(s) { if (s ~ /[,"]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" } return s }'
# timing.csv: one row per agent, from its bench against rules (with, for
# the search agents, their searches and the searches that left the rules
# move they anchor on).
TIMING="$OUT/ladder/timing.csv"
echo "agent,opponent,hands,actions,decisions,seconds,ms_per_action,ms_per_decision,median_ms_per_decision,searches,departures,command" > "$TIMING"
for t in "${TIMED[@]}"; do
    x=${t%%|*} name=${t#*|}
    [ -f "$WORK/ladder/$name/bench.csv" ] || continue
    cmd="kanaszta bench --a $x --b rules --threads 1 --repeat 1 --csv"
    awk -v agent="$x" -v cmd="${cmd% }" -v hands="$(grep -o -- '--hands [0-9]*' "$WORK/ladder/$name/command.txt" | cut -d' ' -f2)" "$CSV_AWK"'
        NR == 1 { n = csv($0, h); for (i = 1; i <= n; i++) c[h[i]] = i; next }
        NR == 2 { csv($0, f)
            print q(agent) ",rules," f[c["hands"]] "," f[c["a_actions"]] "," f[c["a_decisions"]] "," f[c["a_seconds"]] "," \
                f[c["a_us_per_action"]] / 1000 "," f[c["a_us_per_decision"]] / 1000 "," f[c["a_median_us_per_decision"]] / 1000 "," \
                f[c["a_searches"]] "," f[c["a_departures"]] "," q(cmd " --hands " hands) }' \
        "$WORK/ladder/$name/bench.csv" >> "$TIMING"
done
cp "$WORK/ladder/tune/trace.csv" "$WORK/ladder/tune/best.txt" "$WORK/ladder/tune/run.json" "$OUT/ladder/" 2>/dev/null || true
for f in trace.csv best.txt run.json; do [ -f "$OUT/ladder/$f" ] && mv "$OUT/ladder/$f" "$OUT/ladder/tune-$f"; done
cp "$WORK/ladder/rr/tournament.csv" "$OUT/ladder/tournament.csv"
cp "$WORK/ladder/rr/ratings.csv" "$OUT/ladder/ratings.csv"
cp "$WORK/ladder/rr/summary.csv" "$OUT/ladder/rr-summary.csv"
# ladder.csv: one row per pair played (side A's row of each summary): the
# hand-win rate (Wilson 95%), the match-win rate in matches, points per
# hand, the paired difference, how the hands ended, whether the run is
# whole, each side's mean decision time (timing.csv) and the command.
LADDER_CSV="$OUT/ladder.csv"
[ "$QUICK" = 1 ] && LADDER_CSV="$OUT/ladder/ladder.csv"
echo "step,agent,opponent,mode,hands,hand_win_rate,hand_win_lo,hand_win_hi,matches,match_win_rate,match_win_lo,match_win_hi,points_per_hand,opponent_points_per_hand,diff_unit,deals,mean_diff,mean_diff_lo,mean_diff_hi,ended_out,exhausted,stalled,deadlocked,complete,agent_ms_per_decision,opponent_ms_per_decision,command" > "$LADDER_CSV"
rows() { # STEP_OR_EMPTY SUMMARY COMPLETE COMMAND
    awk -v step="$1" -v complete="$3" -v cmd="$4" -v timing="$TIMING" "$CSV_AWK"'
        BEGIN { while ((getline l < timing) > 0) { csv(l, t); ms[t[1]] = t[8] } }
        NR == 1 { n = csv($0, h); for (i = 1; i <= n; i++) c[h[i]] = i; next }
        { csv($0, f); s = f[c["series"]]; side = f[c["side"]] }
        side == "a" { for (i in f) A[s, i] = f[i]; S[s] = 1 }
        side == "b" { B[s] = f[c["mean_raw"]] }
        END {
            for (s = 0; (s in S); s++) {
                for (i = 1; i <= n; i++) x[i] = A[s, i]
                name = (step != "") ? step : "rr:" x[c["agent"]] " v " x[c["opponent"]]
                mode = (x[c["matches"]] > 0) ? "matches" : "hands"
                print q(name) "," q(x[c["agent"]]) "," q(x[c["opponent"]]) "," mode "," x[c["hands"]] "," \
                    x[c["hand_win_rate"]] "," x[c["hand_win_lo"]] "," x[c["hand_win_hi"]] "," \
                    x[c["matches"]] "," x[c["match_win_rate"]] "," x[c["match_win_lo"]] "," x[c["match_win_hi"]] "," \
                    x[c["mean_raw"]] "," B[s] "," x[c["diff_unit"]] "," x[c["deals"]] "," \
                    x[c["mean_diff"]] "," x[c["mean_diff_lo"]] "," x[c["mean_diff_hi"]] "," \
                    x[c["ended_out_share"]] "," x[c["exhausted_share"]] "," x[c["stalled_share"]] "," x[c["deadlocked_share"]] "," \
                    complete "," ms[x[c["agent"]]] "," ms[x[c["opponent"]]] "," q(cmd)
            }
        }' "$2" >> "$LADDER_CSV"
}
whole() { if grep -q '"complete": false' "$1/run.json"; then echo false; else echo true; fi; }
shown() { # the command of a part as kanaszta NAME ARGS (no paths)
    sed -e "s|^$(printf '%q' "$K") |kanaszta |" -e "s| --out [^ ]*||" -e "s| --quiet||" -e 's/ *$//' -e 's/\\,/,/g' "$WORK/ladder/$1/command.txt"
}
rows "" "$WORK/ladder/rr/summary.csv" "$(whole "$WORK/ladder/rr")" "$(shown rr)"
RATED=("$WORK/ladder/rr")
for name in "${STEPS[@]}"; do
    [ -f "$WORK/ladder/$name/summary.csv" ] || continue
    cp "$WORK/ladder/$name/summary.csv" "$OUT/ladder/$name.csv"
    rows "$name" "$WORK/ladder/$name/summary.csv" "$(whole "$WORK/ladder/$name")" "$(shown "$name")"
    RATED+=("$WORK/ladder/$name")
done
# Ratings of every agent through every run: the round robin and every step.
run "$K" ratings "${RATED[@]}" --file "$OUT/ladder/ratings-all.csv"
run "$K" plot "$OUT/ladder/ratings-all.csv" --kind bar --x agent --y rating --lo rating_lo --hi rating_hi --title "All agents rated through the ladder (Bradley–Terry on hands, Elo scale, 95%)" --file "$OUT/ladder/ratings-all.svg"
run "$K" plot "$OUT/ladder/ratings.csv" --kind bar --x agent --y rating --lo rating_lo --hi rating_hi --title "Round robin ratings (Bradley–Terry, Elo scale, 95%)" --file "$OUT/ladder/ratings.svg"
run "$K" plot "$LADDER_CSV" --kind bar --x step --y hand_win_rate --lo hand_win_lo --hi hand_win_hi --title "Every pair: hand-win rate of the first agent (95%)" --file "$OUT/ladder/steps.svg"

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
rm -f "$OUT/classic/presets.csv" "$OUT/classic/presets-length.csv" "$OUT/classic/partners.csv" "$OUT/classic/partners-seats.csv" "$OUT/classic/presets-yardstick.csv"
# CLASSIC_HANDS and CLASSIC_MATCHES set smaller samples (the committed
# figures say which they used).
H=${CLASSIC_HANDS:-$(size 20000 8)}
M=${CLASSIC_MATCHES:-$(size 2000 2)}
# The second pairing: rules against a weaker player that plays much like
# it, its yardstick (rules with its later parameters off: the opening
# towards the minimum, the match stakes, the canasta a discard feeds).
YARD=rules:minimum=off,stakes=off,feed=off
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
# The skill gap under the second pairing: rules v its yardstick, first hands.
for players in 4 2; do
    for preset in classic-002 classic-003 classic-004; do
        d="$WORK/classic/$preset-${players}p-yardstick"
        run "$K" play --rules $preset --set players=$players --a rules --b "$YARD" --hands "$H" --seed $SEED --threads 2 --out "$d" --quiet
        stack "$OUT/classic/presets-yardstick.csv" preset,players,mode $preset,$players,hands "$d/summary.csv"
    done
done
# Partnerships: does a strong partner carry a weak one? Side A against
# side B on the same deals, four players; the reference is the full gap
# (both strong against both weak). Under 002 in hands and matches, then
# the hands under 004 and with random as the weak player; the same with
# the yardstick as the weak player (named `yardstick` in the CSVs).
partners() { # PRESET WEAK MODE [LABEL]
    local preset=$1 weak=$2 mode=$3 label=${4:-$2} n
    if [ "$mode" = hands ]; then n=$H; else n=$M; fi
    for pair in "rules $weak" "rules+$weak $weak" "$weak+rules $weak" "rules+$weak rules"; do
        set -- $pair
        local d="$WORK/classic/partners-$preset-$1-v-$2-$mode"
        run "$K" play --rules $preset --set players=4 --a "$1" --b "$2" --"$mode" "$n" --seed $SEED --threads 2 --out "$d" --quiet
        stack "$OUT/classic/partners.csv" preset,weak,mode $preset,$label,$mode "$d/summary.csv"
        if [ "$mode" = hands ] && [[ "$1" == *+* ]]; then
            run "$K" aggregate "$d/hands.csv" --by side_agents,agent --cols went_out,seat_in_hand,pickups,pile_taken_cards,draws --file "$d/seats.csv"
            local opp=$2
            [ "$opp" = "$weak" ] && opp=$label
            stack "$OUT/classic/partners-seats.csv" preset,opponent,mode $preset,$opp,$mode "$d/seats.csv"
        fi
    done
}
partners classic-002 greedy hands
partners classic-002 greedy matches
partners classic-004 greedy hands
partners classic-002 random hands
partners classic-002 "$YARD" hands yardstick
partners classic-002 "$YARD" matches yardstick
partners classic-004 "$YARD" hands yardstick

fi

if [ "$KEPT" = 1 ]; then
    echo "done: $OUT (raw runs in $WORK)"
else
    echo "done: $OUT (raw runs removed; set WORK=DIR to keep them)"
fi
