//! `kanaszta demo|ratings|human|tune --rules classic-…` as users run them:
//! a demo hand played to its score, ratings of a classic run's agents, a
//! hand played at the terminal through standard input (saved and resumed),
//! and a tuning run of a classic agent's parameters.

mod common;

use common::*;

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
