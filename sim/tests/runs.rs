//! Runs `kanaszta play`, `tournament`, `sweep`, `merge`, `bench`, `replay`
//! and `agents` as users do: exit codes, CSV shape, determinism across
//! thread counts and shards, bad-input messages. Fast agents and a few
//! hundred hands keep the suite short.

mod common;

use common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn play_writes_tidy_documented_csvs() {
    let d = tmp("play");
    let out = ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "40",
        "--out",
        s(&d),
        "--quiet",
    ]);
    assert!(out.contains("greedy vs random"), "{out}");
    assert!(out.contains("hand wins"), "{out}");
    let (h, rows) = table(&d.join("hands.csv"));
    assert_eq!(rows.len(), 80, "two rows per hand");
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("CSV.md"));
    for c in &h {
        let name = c.as_str();
        assert!(
            doc.contains(&format!("`{name}`")),
            "column {name} undocumented in sim/CSV.md"
        );
    }
    for needed in [
        "run_seed",
        "game",
        "deal",
        "hand_seed",
        "seat",
        "agent",
        "starter",
        "turns",
        "end",
        "raw",
        "taxed",
        "total_before",
        "total_after",
        "opened_turn",
        "first_canasta_turn",
        "pile_pickups",
        "twins",
        "red_threes",
        "heart_aces",
        "frozen_turns",
        "won",
        "rule_tax",
        "rule_opening",
    ] {
        col(&h, needed);
    }
    // Every scoring item adds up.
    let (base, cv, raw) = (col(&h, "base"), col(&h, "card_value"), col(&h, "raw"));
    for r in &rows {
        let n = |i: usize| r[i].parse::<i64>().unwrap();
        assert_eq!(n(base) + n(cv), n(raw));
    }
    let (sh, srows) = table(&d.join("summary.csv"));
    assert_eq!(srows.len(), 2);
    for c in &sh {
        assert!(
            doc.contains(&format!("`{c}`")),
            "summary column {c} undocumented"
        );
    }
    let rate = col(&sh, "hand_win_rate");
    let total: f64 = srows.iter().map(|r| r[rate].parse::<f64>().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-3, "win rates add to one: {total}");
    let (eh, erows) = table(&d.join("errors.csv"));
    assert!(erows.is_empty());
    col(&eh, "message");
    assert!(!d.join("matches.csv").exists());
    assert!(read(&d.join("run.json")).contains("\"seed\": 1"));
}

#[test]
fn paired_games_replay_the_deal_with_seats_swapped() {
    let d = tmp("paired");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--out",
        s(&d),
        "-q",
    ]);
    let (h, rows) = table(&d.join("hands.csv"));
    let (g, seed, seat, agent, sw) = (
        col(&h, "game"),
        col(&h, "hand_seed"),
        col(&h, "seat"),
        col(&h, "agent"),
        col(&h, "swapped"),
    );
    let row = |game: &str, st: &str| {
        rows.iter()
            .find(|r| r[g] == game && r[seat] == st)
            .unwrap()
            .clone()
    };
    assert_eq!(row("0", "0")[seed], row("1", "0")[seed]);
    assert_eq!(row("0", "0")[agent], "greedy");
    assert_eq!(row("1", "0")[agent], "random");
    assert_eq!(row("1", "0")[sw], "true");
    assert_ne!(row("0", "0")[seed], row("2", "0")[seed]);
    let u = tmp("unpaired");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--unpaired",
        "--out",
        s(&u),
        "-q",
    ]);
    let (_, rows) = table(&u.join("hands.csv"));
    assert_ne!(rows[0][seed], rows[2][seed]);
    assert!(rows.iter().all(|r| r[sw] == "false"));
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    let one = tmp("t1");
    let two = tmp("t2");
    for (d, t) in [(&one, "1"), (&two, "2")] {
        ok(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--hands",
            "60",
            "--seed",
            "9",
            "--threads",
            t,
            "--out",
            s(d),
            "-q",
        ]);
    }
    for f in ["hands.csv", "summary.csv", "errors.csv", "run.json"] {
        assert_eq!(read(&one.join(f)), read(&two.join(f)), "{f}");
    }
}

#[test]
fn shards_merged_equal_a_single_run() {
    let base = tmp("shards");
    let full = base.join("full");
    let args = |out: &Path, shard: Option<&str>| {
        let mut v: Vec<String> = [
            "play", "--a", "greedy", "--b", "random", "--hands", "50", "--seed", "4", "-q", "--out",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        v.push(s(out).into());
        if let Some(sh) = shard {
            v.push("--shard".into());
            v.push(sh.into());
        }
        v
    };
    let run = |v: Vec<String>| {
        let r: Vec<&str> = v.iter().map(String::as_str).collect();
        ok(&r)
    };
    run(args(&full, None));
    let mut shard_dirs = Vec::new();
    for i in 0..3 {
        let d = base.join(format!("s{i}"));
        run(args(&d, Some(&format!("{i}/3"))));
        shard_dirs.push(d);
    }
    // Shards hold whole deals: both games of a pair.
    let (h, rows) = table(&shard_dirs[1].join("hands.csv"));
    let deal = col(&h, "deal");
    assert!(rows
        .iter()
        .all(|r| r[deal].parse::<u64>().unwrap() % 3 == 1));
    let merged = base.join("merged");
    // Given in any order.
    let out = ok(&[
        "merge",
        s(&shard_dirs[2]),
        s(&shard_dirs[0]),
        s(&shard_dirs[1]),
        "--out",
        s(&merged),
    ]);
    assert!(out.contains("merged 3 directories"), "{out}");
    for f in ["hands.csv", "summary.csv", "errors.csv", "run.json"] {
        assert_eq!(read(&full.join(f)), read(&merged.join(f)), "{f}");
    }
    // A partial merge works and says what is missing.
    let part = base.join("part");
    let (code, _, err) = kanaszta(&["merge", s(&shard_dirs[0]), "--out", s(&part)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("missing") && err.contains("1/3"), "{err}");
}

#[test]
fn matches_write_match_rows_and_merge_too() {
    let base = tmp("matches");
    let full = base.join("full");
    let out = ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "4",
        "--set",
        "target=3000",
        "--out",
        s(&full),
        "-q",
    ]);
    assert!(out.contains("match wins"), "{out}");
    let (h, rows) = table(&full.join("matches.csv"));
    assert_eq!(rows.len(), 8);
    for c in [
        "hands",
        "winner",
        "total",
        "tax_paid",
        "lead_changes",
        "comeback",
        "max_deficit",
    ] {
        col(&h, c);
    }
    let (hh, hrows) = table(&full.join("hands.csv"));
    let (hand, before, after, taxed) = (
        col(&hh, "hand"),
        col(&hh, "total_before"),
        col(&hh, "total_after"),
        col(&hh, "taxed"),
    );
    assert!(hrows.iter().any(|r| r[hand] != "0"));
    for r in &hrows {
        let n = |i: usize| r[i].parse::<i64>().unwrap();
        assert_eq!(n(before) + n(taxed), n(after));
    }
    // The last hand's totals are the match's.
    let (total, seat, game) = (col(&h, "total"), col(&h, "seat"), col(&h, "game"));
    let (hseat, hgame) = (col(&hh, "seat"), col(&hh, "game"));
    for m in &rows {
        let last = hrows
            .iter()
            .rfind(|r| r[hgame] == m[game] && r[hseat] == m[seat])
            .unwrap();
        assert_eq!(last[after], m[total]);
    }
    let mut dirs = Vec::new();
    for i in 0..2 {
        let d = base.join(format!("s{i}"));
        ok(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--matches",
            "4",
            "--set",
            "target=3000",
            "--out",
            s(&d),
            "-q",
            "--shard",
            &format!("{i}/2"),
            "--threads",
            "1",
        ]);
        dirs.push(d);
    }
    let merged = base.join("merged");
    ok(&["merge", s(&dirs[0]), s(&dirs[1]), "--out", s(&merged)]);
    for f in ["hands.csv", "matches.csv", "summary.csv"] {
        assert_eq!(read(&full.join(f)), read(&merged.join(f)), "{f}");
    }
}

#[test]
fn merge_refuses_runs_that_do_not_belong_together() {
    let base = tmp("mismatch");
    let a = base.join("a");
    let b = base.join("b");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "6",
        "--shard",
        "0/2",
        "--out",
        s(&a),
        "-q",
    ]);
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "6",
        "--shard",
        "1/2",
        "--seed",
        "2",
        "--out",
        s(&b),
        "-q",
    ]);
    let out = base.join("out");
    refused(
        &["merge", s(&a), s(&b), "--out", s(&out)],
        &["not shards of one run", "seed 1 vs 2"],
    );
    refused(&["merge", s(&a), s(&a), "--out", s(&out)], &["given twice"]);
    refused(&["merge", s(&a), "--out", s(&a)], &["one of the inputs"]);
    refused(
        &["merge", s(&base.join("nowhere")), "--out", s(&out)],
        &["no such directory"],
    );
    // A malformed row names the file, the line and the column.
    let hands = a.join("hands.csv");
    let text = read(&hands);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = lines[2].replacen(",false,hands,", ",maybe,hands,", 1);
    std::fs::write(&hands, lines.join("\n") + "\n").unwrap();
    refused(
        &["merge", s(&a), "--out", s(&out)],
        &["hands.csv", "line 3", "swapped"],
    );
    std::fs::write(&hands, "not,a,kanaszta,file\n1,2,3,4\n").unwrap();
    refused(
        &["merge", s(&a), "--out", s(&out)],
        &["hands.csv", "header"],
    );
    std::fs::write(a.join("run.json"), "{").unwrap();
    refused(&["merge", s(&a), "--out", s(&out)], &["run.json"]);
}

#[test]
fn a_killed_run_leaves_whole_rows_and_merge_summarizes_them() {
    // No arguments: the default run (rules vs greedy, 10,000 hands) in the
    // current directory. Kill it once some rows are on disk.
    let d = tmp("default");
    let mut child = Command::new(BIN)
        .current_dir(&d)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let hands = d.join("kanaszta-out").join("hands.csv");
    let start = Instant::now();
    loop {
        let n = std::fs::read_to_string(&hands)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > 40 || start.elapsed() > Duration::from_secs(30) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let run = read(&d.join("kanaszta-out").join("run.json"));
    assert!(
        run.contains("\"rules\"") && run.contains("\"games\": 10000"),
        "{run}"
    );
    assert!(run.contains("\"greedy\""), "{run}");
    // A kill between two writes may leave at most a partial last line;
    // merge leaves it out and summarizes the rest.
    let merged = d.join("merged");
    let (code, out, err) = kanaszta(&["merge", s(&d.join("kanaszta-out")), "--out", s(&merged)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rules vs greedy"), "{out}");
    let (_, rows) = table(&merged.join("hands.csv"));
    assert!(rows.len() >= 40 && rows.len() % 2 == 0, "{}", rows.len());
}

#[test]
fn a_crashed_game_is_recorded_and_the_run_goes_on_with_exit_2() {
    let d = tmp("fault");
    let (code, out, err) = kanaszta_env(
        &[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--hands",
            "10",
            "--out",
            s(&d),
            "-q",
        ],
        &[("KANASZTA_FAULT_GAME", "3")],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("1 games ended by an agent error"), "{err}");
    let (h, rows) = table(&d.join("errors.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][col(&h, "game")], "3");
    assert!(rows[0][col(&h, "message")].contains("panic"));
    let (hh, hrows) = table(&d.join("hands.csv"));
    assert_eq!(hrows.len(), 18, "the other nine games are all there");
    assert!(hrows.iter().all(|r| r[col(&hh, "game")] != "3"));
    let (sh, srows) = table(&d.join("summary.csv"));
    assert_eq!(srows[0][col(&sh, "errors")], "1");
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = tmp("bad");
    let o = s(&d);
    refused(
        &["play", "--a", "grody", "--out", o],
        &["unknown agent `grody`", "random, greedy"],
    );
    refused(
        &["play", "--b", "random:speed=3", "--out", o],
        &["no parameter `speed`"],
    );
    refused(&["play", "--set", "tax=maybe", "--out", o], &["tax", "off"]);
    refused(&["play", "--set", "tax", "--out", o], &["KEY=VALUE"]);
    refused(
        &["play", "--set", "players=3", "--out", o],
        &["players must be 2"],
    );
    for shard in ["3/2", "0/0", "x", "1/x", "2/2"] {
        refused(
            &["play", "--shard", shard, "--out", o],
            &["bad shard", "I/N"],
        );
    }
    refused(
        &["play", "--hands", "10", "--matches", "2", "--out", o],
        &["either --hands", "not both"],
    );
    refused(&["play", "--hands", "0", "--out", o], &["at least 1"]);
    refused(
        &["play", "--threads", "99999", "--out", o],
        &["at most 1024"],
    );
    refused(&["play", "--hands", "ten", "--out", o], &["--hands"]);
    refused(
        &["tournament", "--agents", "random", "--out", o],
        &["at least two"],
    );
    refused(
        &["tournament", "--agents", "random,random", "--out", o],
        &["listed twice"],
    );
    refused(
        &["sweep", "--vary", "taxes=on,off", "--out", o],
        &["unknown rule switch `taxes`"],
    );
    refused(
        &["sweep", "--vary", "opening=50,lots", "--out", o],
        &["opening", "table"],
    );
    refused(&["sweep", "--vary", "opening", "--out", o], &["KEY=V1,V2"]);
    refused(&["bench", "--threads", "one"], &["--threads", "1,2,4"]);
    refused(
        &["replay", "--game", "5", "--run", s(&d.join("nope"))],
        &["no such directory"],
    );
    refused(
        &["replay", "--log", s(&d.join("nope.json"))],
        &["cannot read game log"],
    );
    refused(&["frobnicate"], &["frobnicate"]);
}

#[test]
fn tournament_writes_a_matrix_and_ratings() {
    let d = tmp("tournament");
    let out = ok(&[
        "tournament",
        "--agents",
        "random,greedy,random:discard=0.6,patience=20",
        "--hands",
        "20",
        "--out",
        s(&d),
        "-q",
    ]);
    assert!(out.contains("Bradley–Terry"), "{out}");
    assert!(out.contains("random:discard=0.6,patience=20"), "{out}");
    let (h, rows) = table(&d.join("tournament.csv"));
    assert_eq!(rows.len(), 6, "ordered pairs of three agents");
    col(&h, "win_lo");
    let (h, rows) = table(&d.join("ratings.csv"));
    assert_eq!(rows.len(), 3);
    let r = col(&h, "rating");
    let sum: f64 = rows.iter().map(|x| x[r].parse::<f64>().unwrap()).sum();
    assert!(sum.abs() < 0.5, "centred ratings: {sum}");
    let (h, rows) = table(&d.join("hands.csv"));
    let series = col(&h, "series");
    assert_eq!(rows.len(), 3 * 20 * 2);
    assert_eq!(rows.last().unwrap()[series], "2");
    // `kanaszta ratings` on the tournament's summary gives its ratings.
    let again = d.join("again.csv");
    let text = ok(&[
        "ratings",
        s(&d),
        s(&d.join("summary.csv")),
        "--out",
        s(&again),
    ]);
    assert!(text.contains("3 agents, 3 pairs, from 1 run"), "{text}");
    let sorted = |p: &Path| {
        let (h, mut rows) = table(p);
        rows.sort();
        (h, rows)
    };
    assert_eq!(sorted(&again), sorted(&d.join("ratings.csv")));
}

#[test]
fn ratings_link_agents_through_separate_runs() {
    let d = tmp("ratings");
    let (gr, rg) = (d.join("gr"), d.join("rg"));
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "40",
        "--out",
        s(&gr),
        "-q",
    ]);
    ok(&[
        "play",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--hands",
        "40",
        "--out",
        s(&rg),
        "-q",
    ]);
    let out = d.join("ratings.csv");
    let text = ok(&["ratings", s(&gr), s(&rg), "--out", s(&out)]);
    assert!(text.contains("3 agents, 2 pairs, from 2 runs"), "{text}");
    let (h, rows) = table(&out);
    let (agent, games) = (col(&h, "agent"), col(&h, "games"));
    let names: Vec<&str> = rows.iter().map(|r| r[agent].as_str()).collect();
    assert_eq!(names, ["greedy", "random", "rules"]);
    let g: Vec<&str> = rows.iter().map(|r| r[games].as_str()).collect();
    assert_eq!(g, ["80", "40", "40"], "greedy played in both runs");
    // Matches: these runs played none.
    refused(
        &["ratings", s(&gr), s(&rg), "--unit", "matches"],
        &["no matches"],
    );
    refused(
        &["ratings", s(&gr), "--unit", "games"],
        &["--unit", "hands or matches"],
    );
    // A run under other rules is not mixed in.
    let other = d.join("other");
    ok(&[
        "play",
        "--a",
        "rules",
        "--b",
        "random",
        "--hands",
        "4",
        "--set",
        "opening=90",
        "--out",
        s(&other),
        "-q",
    ]);
    refused(
        &["ratings", s(&gr), s(&other)],
        &["different rules", "run.json"],
    );
    refused(&["ratings", s(&d.join("nothing"))], &["cannot read"]);
    // A run's hands.csv rates as its summary does: the same counts.
    let (code, from_hands, err) = kanaszta(&["ratings", s(&gr.join("hands.csv"))]);
    assert_eq!(code, 0, "{err}");
    let (code, from_summary, err) = kanaszta(&["ratings", s(&gr.join("summary.csv"))]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_hands, from_summary);
    let other_csv = d.join("other.csv");
    std::fs::write(&other_csv, "a,b\n1,2\n").unwrap();
    refused(&["ratings", s(&other_csv)], &["no column", "summary.csv"]);
}

#[test]
fn sweep_puts_settings_in_columns() {
    let d = tmp("sweep");
    let out = ok(&[
        "sweep",
        "--a",
        "greedy",
        "--b",
        "random",
        "--vary",
        "tax=on,off",
        "--vary",
        "opening=50,75",
        "--matches",
        "2",
        "--set",
        "target=2000",
        "--out",
        s(&d),
        "-q",
    ]);
    assert!(out.contains("tax=off;opening=75"), "{out}");
    let (h, rows) = table(&d.join("sweep.csv"));
    assert_eq!(rows.len(), 4);
    let (t, o) = (col(&h, "tax"), col(&h, "opening"));
    let settings: Vec<(String, String)> =
        rows.iter().map(|r| (r[t].clone(), r[o].clone())).collect();
    assert_eq!(
        settings,
        [("on", "50"), ("on", "75"), ("off", "50"), ("off", "75")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    for c in [
        "a_match_win_rate",
        "a_match_win_lo",
        "mean_match_hands",
        "a_mean_tax_paid",
        "b_mean_opened_turn",
        "mean_diff",
    ] {
        col(&h, c);
    }
    let (hh, hrows) = table(&d.join("hands.csv"));
    let ro = col(&hh, "rule_opening");
    assert!(hrows.iter().any(|r| r[ro] == "75") && hrows.iter().any(|r| r[ro] == "50"));
    // A tax schedule is varied with `;` between values.
    let d2 = tmp("sweep2");
    let out = ok(&[
        "sweep",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--vary",
        "tax_schedule=5000:2,7000:4;3000:2",
        "--hands",
        "2",
        "--out",
        s(&d2),
        "-q",
    ]);
    assert!(out.contains("tax_schedule=3000:2"), "{out}");
}

#[test]
fn bench_reports_throughput_as_csv() {
    let out = ok(&[
        "bench",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--hands",
        "20",
        "--threads",
        "1,2",
        "--repeat",
        "1",
        "--csv",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    let mut header =
        "agents,threads,hands,actions,seconds,hands_per_s,actions_per_s,speedup".to_string();
    for side in ["a", "b"] {
        for c in [
            "actions",
            "decisions",
            "seconds",
            "us_per_action",
            "us_per_decision",
            "median_us_per_decision",
            "searches",
            "departures",
        ] {
            header += &format!(",{side}_{c}");
        }
    }
    assert_eq!(lines[0], header);
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("greedy vs greedy,1,20,"), "{out}");
    let cells: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(cells[7], "1.000", "{out}");
    // The agents' clocks: every action of the measured runs is on the
    // clock of the agent that played it, each played some, and a decision
    // is one of its actions.
    let n = |i: usize| -> f64 {
        cells[i]
            .parse()
            .unwrap_or_else(|_| panic!("cell {i}: {out}"))
    };
    assert_eq!(n(8) + n(16), n(3), "{out}");
    for first in [8, 16] {
        assert!(n(first) > 0.0 && n(first + 1) <= n(first), "{out}");
        assert!(
            n(first + 3) > 0.0 && n(first + 4) > 0.0 && n(first + 5) > 0.0,
            "{out}"
        );
        // greedy searches nothing, so it never leaves a policy.
        assert_eq!((n(first + 6), n(first + 7)), (0.0, 0.0), "{out}");
    }
    assert_eq!(
        cells[8..].to_vec(),
        lines[2].split(',').collect::<Vec<_>>()[8..].to_vec(),
        "one timed run for every row"
    );
    // Without the timed run the columns stay, empty.
    let out = ok(&[
        "bench",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--hands",
        "4",
        "--threads",
        "1",
        "--repeat",
        "1",
        "--csv",
        "--no-agent-time",
    ]);
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .ends_with(",1.000,,,,,,,,,,,,,,,,"),
        "{out}"
    );
    let out = ok(&[
        "bench",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "10",
        "--threads",
        "1",
        "--repeat",
        "1",
    ]);
    assert!(out.contains("hands/s"), "{out}");
    assert!(
        out.contains("agent time: one more run of the 10 hands on one thread"),
        "{out}"
    );
    assert!(out.contains("median dec."), "{out}");
}

/// A replay of a search agent notes, under its action, every search that
/// left its policy (pimc with no margin leaves it on any lead), with the
/// options' values; the other seat's actions carry none.
#[test]
fn replay_notes_where_a_search_leaves_its_policy() {
    let out = ok(&[
        "replay",
        "--a",
        "pimc:worlds=4,margin=0",
        "--b",
        "rules",
        "--seed",
        "2026",
        "--game",
        "3",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    let mut notes = 0;
    for (i, l) in lines.iter().enumerate() {
        if let Some(note) = l.trim_start().strip_prefix("search: ") {
            notes += 1;
            assert!(note.contains(" over the policy's "), "{l}");
            let above = lines[..i]
                .iter()
                .rev()
                .find(|l| l.starts_with("turn"))
                .unwrap();
            assert!(above.contains("P1 pimc"), "{above} / {l}");
        }
    }
    assert!(notes > 0, "{out}");
}

#[test]
fn replay_reproduces_a_row() {
    let d = tmp("replay");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--out",
        s(&d),
        "-q",
    ]);
    let (h, rows) = table(&d.join("hands.csv"));
    let (g, seat, raw, agent) = (
        col(&h, "game"),
        col(&h, "seat"),
        col(&h, "raw"),
        col(&h, "agent"),
    );
    let row = rows.iter().find(|r| r[g] == "3" && r[seat] == "0").unwrap();
    let out = ok(&["replay", "--run", s(&d), "--game", "3"]);
    assert!(out.contains("seats swapped"), "{out}");
    let p0 = out.lines().find(|l| l.starts_with("P0 ")).unwrap();
    assert!(p0.contains(&row[agent]), "{p0}");
    assert!(
        p0.ends_with(&format!("= {}", row[raw])),
        "{p0} vs {}",
        row[raw]
    );
    assert!(out.contains("discard"), "{out}");
    assert!(
        !out.contains("search:"),
        "greedy and random search nothing: {out}"
    );
    // The same game from the options alone, and through `show`.
    let again = ok(&["show", "--a", "greedy", "--b", "random", "--game", "3"]);
    assert_eq!(out, again);
    // A saved log prints the same moves.
    let log = d.join("g3.json");
    ok(&[
        "replay",
        "--run",
        s(&d),
        "--game",
        "3",
        "--save-log",
        s(&log),
    ]);
    let from_log = ok(&["replay", "--log", s(&log)]);
    // `turn N P0 greedy ACTION` from a run, `turn N P0 ACTION` from a log
    // (which does not name the agents).
    let moves = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("turn"))
            .map(|l| {
                l.split_whitespace()
                    .skip(3)
                    .skip_while(|w| ["greedy", "random"].contains(w))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(moves(&out), moves(&from_log));
    assert!(!moves(&out).is_empty());
    refused(
        &["replay", "--run", s(&d), "--game", "4"],
        &["games 0 to 3"],
    );
}

#[test]
fn replay_shows_one_hand_of_a_match() {
    let out = ok(&[
        "replay", "--a", "greedy", "--b", "random", "--match", "--game", "1", "--hand", "1",
    ]);
    assert!(out.contains("== hand 1"), "{out}");
    assert!(!out.contains("== hand 0"), "{out}");
    assert!(out.contains("taxed") || out.contains("total"), "{out}");
}

#[test]
fn agents_lists_every_agent() {
    let out = ok(&["agents"]);
    for name in ["random", "greedy", "rules", "ismcts", "pimc"] {
        assert!(out.contains(&format!("{name} — ")), "{out}");
    }
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let d = tmp("quiet");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "30",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "stderr should stay empty: {err}");
}

#[test]
fn sweep_shards_merge_into_the_same_sweep() {
    let base = tmp("sweepshards");
    let run = |out: &Path, shard: Option<&str>| {
        let mut v = vec![
            "sweep",
            "--a",
            "greedy",
            "--b",
            "random",
            "--vary",
            "opening=50,90",
            "--hands",
            "12",
            "-q",
            "--out",
            s(out),
        ];
        if let Some(sh) = shard {
            v.extend(["--shard", sh]);
        }
        ok(&v);
    };
    let full = base.join("full");
    run(&full, None);
    let (a, b) = (base.join("a"), base.join("b"));
    run(&a, Some("0/2"));
    run(&b, Some("1/2"));
    let merged = base.join("merged");
    ok(&["merge", s(&a), s(&b), "--out", s(&merged)]);
    for f in ["hands.csv", "summary.csv", "sweep.csv"] {
        assert_eq!(read(&full.join(f)), read(&merged.join(f)), "{f}");
    }
    // Both settings play the same deals (common random numbers).
    let (h, rows) = table(&full.join("hands.csv"));
    let (series, game, seed) = (col(&h, "series"), col(&h, "game"), col(&h, "hand_seed"));
    let seed_of = |sr: &str, g: &str| {
        rows.iter()
            .find(|r| r[series] == sr && r[game] == g)
            .unwrap()[seed]
            .clone()
    };
    assert_eq!(seed_of("0", "5"), seed_of("1", "5"));
}

/// The example agent of `agents/examples/careful.rs`, registered by one
/// line, plays from the command line like any built-in agent, with its
/// parameters; `kanaszta agents` documents it.
#[test]
fn the_example_agent_plays_from_the_command_line() {
    let dir = tmp("careful");
    let out = ok(&[
        "play",
        "--a",
        "careful:pile=8",
        "--b",
        "greedy",
        "--hands",
        "40",
        "--seed",
        "3",
        "--out",
        s(&dir),
        "--quiet",
    ]);
    assert!(out.contains("careful:pile=8"), "{out}");
    let (h, rows) = table(&dir.join("summary.csv"));
    let agent = col(&h, "agent");
    assert!(
        rows.iter().any(|r| r[agent] == "careful:pile=8"),
        "{rows:?}"
    );
    assert!(!dir.join("errors.csv").exists() || read(&dir.join("errors.csv")).lines().count() <= 1);
    let agents = ok(&["agents"]);
    assert!(
        agents.contains("careful — melds natural cards only"),
        "{agents}"
    );
}

/// Per hand of a replay's output: (turns, [(raw, taxed); 2]).
fn replayed_hands(out: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut hands = Vec::new();
    let mut turns = None;
    let mut scores = Vec::new();
    for l in out.lines() {
        if let Some(i) = l.find(" at turn ") {
            turns = Some(l[i + " at turn ".len()..].to_string());
        } else if (l.starts_with("P0 ") || l.starts_with("P1 ")) && l.contains(" = ") {
            let tail = &l[l.rfind(" = ").unwrap() + 3..];
            let raw = tail.split(',').next().unwrap().to_string();
            let taxed = match tail.find(", taxed ") {
                Some(i) => tail[i + 8..].split(',').next().unwrap().to_string(),
                None => raw.clone(),
            };
            scores.push((raw, taxed));
            if scores.len() == 2 {
                hands.push((
                    turns.take().expect("a hand's end"),
                    std::mem::take(&mut scores),
                ));
            }
        }
    }
    hands
}

/// `replay --run DIR --game G` plays game G again through the runner's own
/// setup: every hand's turns, raw and taxed scores are the CSV's, in a
/// hands run and in a matches run (seats swapped or not).
#[test]
fn replay_reproduces_the_rows_of_hands_and_matches_runs() {
    for (mode, n, games) in [("--hands", "6", ["4", "5"]), ("--matches", "4", ["2", "3"])] {
        let d = tmp(&format!("replay-rows{mode}"));
        ok(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            mode,
            n,
            "--seed",
            "11",
            "--out",
            s(&d),
            "-q",
        ]);
        let (h, rows) = table(&d.join("hands.csv"));
        let (g, hand, seat, turns, raw, taxed) = (
            col(&h, "game"),
            col(&h, "hand"),
            col(&h, "seat"),
            col(&h, "turns"),
            col(&h, "raw"),
            col(&h, "taxed"),
        );
        for game in games {
            let out = ok(&["replay", "--run", s(&d), "--game", game]);
            let replayed = replayed_hands(&out);
            let mut want = Vec::new();
            for r in rows.iter().filter(|r| r[g] == game && r[seat] == "0") {
                let other = rows
                    .iter()
                    .find(|o| o[g] == game && o[hand] == r[hand] && o[seat] == "1")
                    .unwrap();
                want.push((
                    r[turns].clone(),
                    vec![
                        (r[raw].clone(), r[taxed].clone()),
                        (other[raw].clone(), other[taxed].clone()),
                    ],
                ));
            }
            assert!(!want.is_empty());
            assert_eq!(replayed, want, "{mode} game {game}:\n{out}");
        }
    }
}

/// A malformed run.json is refused by every reader (merge, ratings,
/// replay) with the file and the field that was wrong.
#[test]
fn malformed_run_json_names_the_file_and_the_field() {
    let d = tmp("bad-manifest");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--out",
        s(&d),
        "-q",
    ]);
    let good = read(&d.join("run.json"));
    let out = tmp("bad-manifest-out");
    for (from, to, field) in [
        ("\"seed\": 1", "\"seed\": \"one\"", "field `seed`"),
        ("\"mode\": \"hands\"", "\"mode\": \"hand\"", "field `mode`"),
        (
            "\"tax\": \"on\"",
            "\"tax\": \"maybe\"",
            "field `series[0].rules.tax`",
        ),
    ] {
        assert!(good.contains(from), "{from} not in {good}");
        std::fs::write(d.join("run.json"), good.replace(from, to)).unwrap();
        let file = d.join("run.json");
        let needles = [file.to_str().unwrap(), "malformed run.json", field];
        refused(&["replay", "--run", s(&d), "--game", "1"], &needles);
        refused(&["merge", s(&d), "--out", s(&out)], &needles);
        refused(&["ratings", s(&d)], &needles);
    }
}
