//! `kanaszta demo|ratings|human|tune --rules classic-…` as users run them:
//! a demo hand played to its score, ratings of a classic run's agents, a
//! hand played at the terminal through standard input (saved and resumed),
//! and a tuning run of a classic agent's parameters.

mod common;

use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `kanaszta human ARGS` with `input` on standard input.
fn human(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .arg("human")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kanaszta human");
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before the script does: a closed pipe is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `n` lines of `1`: the first listed move, every time.
fn firsts(n: usize) -> String {
    "1\n".repeat(n)
}

/// The lines of `demo` after its first (the header), and of `replay`
/// after its two.
fn after(text: &str, n: usize) -> String {
    text.lines().skip(n).collect::<Vec<_>>().join("\n")
}

#[test]
fn classic_demo_plays_a_hand_to_its_score_as_replay_shows_it() {
    let args = [
        "--rules",
        "classic-002",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--seed",
        "7",
    ];
    let mut demo = vec!["demo"];
    demo.extend(args);
    let out = ok(&demo);
    assert!(
        out.starts_with("kanaszta demo: seed 7, 2 players, classic-002: P0 rules, P1 greedy\n"),
        "{out}"
    );
    assert!(out.contains("turn   1  P0 rules"), "{out}");
    for line in [
        "at the end of the hand:",
        "score (C-23)",
        "canasta_points (C-5)",
        "= total",
    ] {
        assert!(out.contains(line), "`{line}` not in:\n{out}");
    }
    // The hand is game 0 of a `play` run of the same seed.
    let mut replay = vec!["replay", "--game", "0"];
    replay.extend(args);
    assert_eq!(after(&out, 1), after(&ok(&replay), 2));
    // Another seed deals another hand.
    let mut other = demo.clone();
    let last = other.len() - 1;
    other[last] = "8";
    assert_ne!(after(&ok(&other), 1), after(&out, 1));
}

#[test]
fn classic_demo_seats_partnerships_and_refuses_bad_sides() {
    let out = ok(&[
        "demo",
        "--rules",
        "classic-004",
        "--set",
        "players=4",
        "--a",
        "rules+greedy",
        "--b",
        "random",
        "--seed",
        "2",
    ]);
    assert!(
        out.starts_with(
            "kanaszta demo: seed 2, 4 players, partnerships (C-20), classic-004: \
             P0 (side 0) rules, P1 (side 1) random, P2 (side 0) greedy, P3 (side 1) random\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("side 0 table:") && out.contains("side 1 table:"),
        "{out}"
    );
    assert!(out.contains("= total"), "{out}");
    let three = ok(&["demo", "--rules", "classic-003", "--set", "players=3"]);
    assert!(three.contains("3 players, classic-003: P0 random, P1 random, P2 random"));
    refused(
        &["demo", "--rules", "classic-002", "--a", "rules+greedy"],
        &["--a rules+greedy", "with 2 players a side is one player"],
    );
    refused(
        &["demo", "--rules", "classic-002", "--b", "nobody"],
        &["unknown classic agent `nobody`", "greedy"],
    );
}

/// Runs `kanaszta ARGS --quiet --out DIR` and returns DIR as text.
fn run_into(dir: &std::path::Path, args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.extend(["--quiet", "--out", s(dir)]);
    ok(&a);
    s(dir).to_string()
}

/// The rating of `agent` in a ratings CSV.
fn rating(csv: &str, agent: &str) -> f64 {
    let (h, rows) = {
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let h: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        let rows: Vec<Vec<String>> = r
            .records()
            .map(|x| x.unwrap().iter().map(str::to_string).collect())
            .collect();
        (h, rows)
    };
    let (a, v) = (col(&h, "agent"), col(&h, "rating"));
    rows.iter()
        .find(|r| r[a] == agent)
        .unwrap_or_else(|| panic!("{agent} not rated in\n{csv}"))[v]
        .parse()
        .unwrap()
}

#[test]
fn classic_ratings_rate_the_agents_of_a_run_from_its_summary_or_hands() {
    let d = tmp("classic-ratings");
    let run = run_into(
        &d.join("run"),
        &[
            "play",
            "--rules",
            "classic-002",
            "--a",
            "rules",
            "--b",
            "random",
            "--hands",
            "40",
        ],
    );
    let from_summary = d.join("summary-ratings.csv");
    let out = ok(&["ratings", &run, "--file", s(&from_summary)]);
    assert!(
        out.contains("ratings: 2 agents, 1 pairs, from 1 run"),
        "{out}"
    );
    let csv = read(&from_summary);
    assert!(
        rating(&csv, "rules") > rating(&csv, "random") + 100.0,
        "{csv}"
    );
    // The rows of hands.csv count as the summary does.
    let from_hands = d.join("hands-ratings.csv");
    let hands = format!("{run}/hands.csv");
    ok(&["ratings", &hands, "--file", s(&from_hands)]);
    assert_eq!(read(&from_hands), csv);
    // Partnerships: a side is rated by its players, as the summary names it,
    // from either file.
    let four = run_into(
        &d.join("four"),
        &[
            "play",
            "--rules",
            "classic-004",
            "--set",
            "players=4",
            "--a",
            "rules+greedy",
            "--b",
            "random",
            "--hands",
            "10",
        ],
    );
    let out = ok(&["ratings", &four]);
    assert!(
        out.contains("rules+greedy") && out.contains("random"),
        "{out}"
    );
    assert!(out.contains("of 10\n"), "ten hands a side: {out}");
    assert_eq!(ok(&["ratings", &format!("{four}/hands.csv")]), out);
    // A tournament of three rates the three.
    let t = run_into(
        &d.join("t"),
        &[
            "tournament",
            "--rules",
            "classic-002",
            "--agents",
            "random,greedy,rules",
            "--hands",
            "10",
        ],
    );
    let out = ok(&["ratings", &t]);
    assert!(out.contains("ratings: 3 agents, 3 pairs"), "{out}");
}

#[test]
fn classic_ratings_count_shared_games_once_and_keep_families_apart() {
    let d = tmp("classic-ratings-shards");
    let shard = |i: &str| {
        run_into(
            &d.join(format!("s{i}")),
            &[
                "play",
                "--rules",
                "classic-002",
                "--a",
                "greedy",
                "--b",
                "random",
                "--hands",
                "20",
                "--shard",
                &format!("{i}/2"),
            ],
        )
    };
    let (s0, s1) = (shard("0"), shard("1"));
    let all = d.join("all").display().to_string();
    ok(&["merge", &s0, &s1, "--out", &all]);
    let (code, out, err) = kanaszta(&["ratings", &s0, &s1, &all]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("they are counted once"), "{err}");
    assert_eq!(out, ok(&["ratings", &all]));
    assert!(out.contains("of 20\n"), "{out}");
    let dec = run_into(
        &d.join("dec"),
        &["play", "--a", "greedy", "--b", "random", "--hands", "4"],
    );
    refused(
        &["ratings", &dec, &format!("{all}/hands.csv")],
        &[
            "of decorated canasta",
            "of classic canasta",
            "of one family",
        ],
    );
}

/// A classic hand at the terminal, always the first listed move: played
/// to its end and score (C-23), exit 0; stopped by the end of the input,
/// the game is saved, and resumed it ends as the hand played through.
#[test]
fn classic_human_plays_a_hand_through_a_pipe_and_resumes_a_save() {
    let d = tmp("classic-human");
    let game = [
        "--lines",
        "--rules",
        "classic-002",
        "--vs",
        "rules",
        "--seed",
        "3",
        "--out",
    ];
    let whole = d.join("whole");
    let mut args = game.to_vec();
    args.push(s(&whole));
    let (code, out, err) = human(&args, &firsts(3000));
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(
        out.starts_with(
            "kanaszta human: you (P0) against rules (P1), one hand, seed 3, classic-002"
        ),
        "{out}"
    );
    assert!(
        out.contains("your moves:\n    1  draw\n> 1\nP0 you: draw"),
        "{out}"
    );
    assert!(out.contains("P1 rules: "), "the agent's moves are shown");
    for line in ["at the end of the hand:", "score (C-23)", "= total"] {
        assert!(out.contains(line), "`{line}` not in the output");
    }
    let last = out.lines().last().unwrap();
    assert!(
        ["you won the hand", "you lost the hand", "the hand is a tie"]
            .iter()
            .any(|w| last.starts_with(w)),
        "{last}"
    );
    // The last lines, each run's --out named alike.
    let tail = |t: &str, dir: &std::path::Path| {
        let t = t.replace(s(dir), "DIR");
        t.lines().rev().take(20).collect::<Vec<_>>().join("\n")
    };
    // Stopped after a few moves: saved, exit 1.
    let part = d.join("part");
    let mut args = game.to_vec();
    args.push(s(&part));
    let (code, out, _) = human(&args, &firsts(30));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("input ended before the end of the game"),
        "{out}"
    );
    let save = part.join("save.json");
    let saved = read(&save);
    assert!(
        saved.contains("\"format\": \"kanaszta-human-classic/1\""),
        "{saved}"
    );
    assert!(saved.contains("\"preset\": \"classic-002\""), "{saved}");
    // Resumed: the game goes on where it stopped and ends as played through.
    let (code, again, err) = human(
        &["--lines", "--resume", s(&save), "--out", s(&part)],
        &firsts(3000),
    );
    assert_eq!(code, 0, "{err}\n{again}");
    assert!(
        !again.contains("note: an agent now chooses otherwise"),
        "{again}"
    );
    assert!(
        !again.contains("turn 1, P0 to play (draw)"),
        "resumed past turn 1: {again}"
    );
    let (_, full, _) = human(
        &game.iter().copied().chain([s(&whole)]).collect::<Vec<_>>(),
        &firsts(3000),
    );
    assert_eq!(tail(&again, &part), tail(&full, &whole));
    // The hand's rows are written once, at its end, beside the save.
    let (_, rows) = table(&part.join("hands.csv"));
    assert_eq!(rows.len(), 2);
    // A broken save is refused saying what is wrong.
    let bad = d.join("bad.json");
    std::fs::write(&bad, saved.replace("\"seat\": 0", "\"seat\": 5")).unwrap();
    let (code, _, err) = human(&["--lines", "--resume", s(&bad)], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("`seat` 5") && err.contains("players 0 to 1"),
        "{err}"
    );
}

/// Partnerships at the terminal: the person's partner is an agent (C-20),
/// its question "may I go out?" is the person's to answer (C-18); a match
/// is played to the target (C-24); bad options say what is accepted.
#[test]
fn classic_human_partnerships_matches_and_bad_options() {
    let d = tmp("classic-human-4");
    let (code, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-002",
            "--set",
            "players=4",
            "--vs",
            "greedy",
            "--seat",
            "1",
            "--seed",
            "5",
            "--out",
            s(&d),
        ],
        &firsts(5000),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(
        out.contains("you (P1) against greedy (P0, P2, P3), one hand, seed 5, classic-002, 4 players, partnerships (C-20): your partner is P3"),
        "{out}"
    );
    assert!(out.contains("P1 (side 1) you: ask"), "{out}");
    assert!(out.contains("side 1 (yours)"), "{out}");
    assert!(out.contains("(your side is side 1)"), "{out}");
    let (code, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-004",
            "--match",
            "--vs",
            "random",
            "--seed",
            "2",
            "--out",
            s(&d),
        ],
        &firsts(20000),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("== hand 1: totals side 0"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("the match is over: side "),
        "{out}"
    );
    let (code, _, err) = human(&["--lines", "--rules", "classic-002", "--seat", "2"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("--seat 2") && err.contains("seats are 0 to 1"),
        "{err}"
    );
    let (code, _, err) = human(&["--lines", "--rules", "classic-002", "--vs", "nobody"], "");
    assert_eq!(code, 1);
    assert!(err.contains("unknown classic agent `nobody`"), "{err}");
    let (code, out, _) = human(
        &[
            "--lines",
            "--rules",
            "classic-002",
            "--seed",
            "3",
            "--out",
            s(&d),
        ],
        "draw\nlay 7 2 1 0\nlay 7 9 9 9\nhint greedy\n42\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("P0 you: draw"), "{out}");
    assert!(out.contains("P0 you: lay 7 2 1 0"), "{out}");
    assert!(
        out.contains("illegal: lay 7 9 9 9") || out.contains("bad action"),
        "{out}"
    );
    assert!(out.contains("hint: greedy would play"), "{out}");
    assert!(
        out.contains("no move 42: the moves are numbered 1 to"),
        "{out}"
    );
    assert!(out.contains("saved to"), "{out}");
}

/// A classic player's number parameters tuned on a tiny budget: the trace
/// has a row a step, best.txt the tuned spec within the range, run.json
/// the classic rules; the same seed gives the same files on any thread
/// count; partnerships tune against a side of mixed players.
#[test]
fn classic_tune_moves_a_players_parameters_on_a_tiny_budget() {
    let d = tmp("classic-tune");
    let tune = |dir: &str, threads: &str, extra: &[&str]| {
        let out = d.join(dir);
        let mut args = vec![
            "tune",
            "--rules",
            "classic-002",
            "--agent",
            "rules",
            "--param",
            "wild_take,pair_keep=0..100",
            "--vs",
            "greedy",
            "--hands-per-step",
            "20",
            "--steps",
            "3",
            "--window",
            "0",
            "--quiet",
            "--threads",
            threads,
            "--out",
        ];
        args.push(s(&out));
        args.extend_from_slice(extra);
        (ok(&args), out)
    };
    let (text, one) = tune("one", "1", &[]);
    assert!(
        text.contains("rules tuned against greedy (3 of 3 steps)"),
        "{text}"
    );
    let best = read(&one.join("best.txt"));
    assert!(best.starts_with("rules:"), "{best}");
    assert_eq!(text.lines().next().unwrap(), best.trim());
    let (h, rows) = table(&one.join("trace.csv"));
    assert_eq!(rows.len(), 3, "a row a step");
    let keep = col(&h, "pair_keep");
    for r in &rows {
        let v: f64 = r[keep].parse().unwrap();
        assert!((0.0..=100.0).contains(&v), "pair_keep {v} outside 0..100");
    }
    // The margins are points per classic hand, not all equal.
    let plus = col(&h, "margin_plus");
    let minus = col(&h, "margin_minus");
    assert!(rows.iter().any(|r| r[plus] != r[minus]), "{rows:?}");
    let run = read(&one.join("run.json"));
    assert!(run.contains("\"family\": \"classic\""), "{run}");
    assert!(run.contains("\"preset\": \"classic-002\""), "{run}");
    let (_, two) = tune("two", "2", &[]);
    assert_eq!(read(&one.join("trace.csv")), read(&two.join("trace.csv")));
    assert_eq!(best, read(&two.join("best.txt")));
    // Partnerships: the tuned player holds both seats of its side.
    let four = d.join("four");
    let text = ok(&[
        "tune",
        "--rules",
        "classic-002",
        "--set",
        "players=4",
        "--agent",
        "rules",
        "--param",
        "ask_margin=-500..500",
        "--vs",
        "rules+greedy",
        "--hands-per-step",
        "8",
        "--steps",
        "1",
        "--quiet",
        "--out",
        s(&four),
    ]);
    assert!(
        text.contains("rules tuned against rules+greedy (1 of 1 steps)"),
        "{text}"
    );
    let bad = d.join("bad");
    for (extra, needles) in [
        (
            vec!["--vs", "rules+greedy"],
            vec!["--vs rules+greedy", "with 2 players a side is one player"],
        ),
        (
            vec!["--param", "hold_threes"],
            vec![
                "`hold_threes` is not a number in a range",
                "wild_take (1..110)",
            ],
        ),
        (
            vec!["--vs", "ismcts:time=5"],
            vec!["tune needs reproducible games", "time=0"],
        ),
    ] {
        let mut args = vec![
            "tune",
            "--rules",
            "classic-002",
            "--agent",
            "rules",
            "--param",
            "wild_take",
            "--vs",
            "greedy",
            "--out",
            s(&bad),
        ];
        args.extend(extra);
        refused(&args, &needles);
    }
    assert!(!bad.exists(), "nothing written for a refused tuning");
}

/// A printed hand with its seats' agent names left out and its spacing
/// collapsed: a replay names the agents (`P0 rules`), a saved log does not.
fn unnamed(text: &str, agents: &[&str]) -> Vec<String> {
    text.lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let mut kept = Vec::new();
            for (i, t) in w.iter().enumerate() {
                let after_seat =
                    i > 0 && w[i - 1].starts_with('P') && w[i - 1][1..].parse::<u32>().is_ok();
                if !(after_seat && agents.contains(t)) {
                    kept.push(*t);
                }
            }
            kept.join(" ")
        })
        .collect()
}

/// `replay --save-log` of a classic game and `replay --log` of the file
/// print the same hand (2 and 4 players), and `--html` draws the log.
#[test]
fn a_saved_classic_log_replays_as_the_game_did() {
    let d = tmp("classic-log");
    for (preset, heading) in [("classic-002", 2), ("classic-004", 2)] {
        let log = d.join(format!("{preset}.json"));
        let run = ok(&[
            "replay",
            "--rules",
            preset,
            "--a",
            "rules",
            "--b",
            "greedy",
            "--seed",
            "5",
            "--save-log",
            s(&log),
        ]);
        let text = read(&log);
        assert!(
            text.contains("\"format\": \"kanaszta-classic-log\""),
            "{text}"
        );
        let from_log = ok(&["replay", "--log", s(&log)]);
        assert_eq!(
            from_log.lines().next(),
            Some(format!("game log {}", log.display()).as_str())
        );
        let run_hand: Vec<&str> = run.lines().skip(heading).collect();
        let log_hand: Vec<&str> = from_log.lines().skip(1).collect();
        assert!(run_hand.len() > 10, "{run}");
        assert!(run_hand.iter().any(|l| l.contains("rules")), "{run}");
        assert_eq!(
            unnamed(&run_hand.join("\n"), &["rules", "greedy"]),
            unnamed(&log_hand.join("\n"), &["rules", "greedy"]),
            "{preset}"
        );
        let page = d.join(format!("{preset}.html"));
        ok(&["replay", "--log", s(&log), "--html", s(&page)]);
        assert!(read(&page).contains("<html"), "{preset}");
    }
}

/// A classic log with an action that does not parse, or one its place
/// refuses, is refused with what was wrong (the rule named) and exit 1.
#[test]
fn a_malformed_classic_log_is_refused() {
    let d = tmp("classic-bad-log");
    let log = d.join("good.json");
    ok(&[
        "replay",
        "--rules",
        "classic-002",
        "--seed",
        "3",
        "--save-log",
        s(&log),
    ]);
    let good = read(&log);
    let first = "\"actions\": [\n    \"draw\"";
    assert!(good.contains(first), "{good}");
    let bad = d.join("bad.json");
    std::fs::write(&bad, good.replacen(first, "\"actions\": [\n    \"fly\"", 1)).unwrap();
    refused(
        &["replay", "--log", s(&bad)],
        &["bad classic game log", "action 0 (`fly`)", "unknown action"],
    );
    let illegal = d.join("illegal.json");
    std::fs::write(
        &illegal,
        good.replacen(first, "\"actions\": [\n    \"endhand\"", 1),
    )
    .unwrap();
    refused(
        &["replay", "--log", s(&illegal)],
        &["action 0 (`endhand`) is refused", "C-23"],
    );
    let no_start = d.join("no-start.json");
    std::fs::write(
        &no_start,
        "{\"format\": \"kanaszta-classic-log\", \"actions\": []}",
    )
    .unwrap();
    refused(
        &["replay", "--log", s(&no_start)],
        &["bad classic game log", "start"],
    );
}
