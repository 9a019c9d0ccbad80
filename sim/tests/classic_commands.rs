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
