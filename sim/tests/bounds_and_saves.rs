//! Faults of the command that panicked, grew without bound, lost data or
//! recorded a game wrongly: `demo` with more than two players, endless
//! input to `human`, `plot` with many groups, `sweep` with a million
//! settings, `play --out` into a directory of the user's own files,
//! `human` stopped by a signal or given an unwritable `--out`, finished
//! positions and agents' names in `human`. Each test runs the binary as
//! users do.

mod common;

use common::*;

/// `demo` plays any player count the rules allow (2 to 6, D-2.1), A in
/// the even seats and B in the odd ones; it used to panic for any count
/// but 2, also when the count came from a rules file.
#[test]
fn demo_plays_every_player_count_d2_1() {
    for n in 2..=6 {
        let set = format!("players={n}");
        let out = ok(&["demo", "--set", &set, "--a", "greedy", "--b", "random"]);
        let seats: Vec<String> = (0..n)
            .map(|p| format!("P{p} {}", if p % 2 == 0 { "greedy" } else { "random" }))
            .collect();
        assert!(
            out.starts_with(&format!(
                "kanaszta demo: seed 1, {n} players, decorated-2003-02: {}\n",
                seats.join(", ")
            )),
            "{out}"
        );
        // The hand ends and every seat is scored.
        assert!(
            out.contains(" went out (") || out.contains("the hand ended "),
            "{out}"
        );
        let score = out
            .lines()
            .find(|l| l.starts_with("  = raw"))
            .unwrap_or_else(|| panic!("no score table: {out}"));
        assert_eq!(score.split_whitespace().count(), 2 + n, "{score}");
    }
    let d = tmp("demo-rules-file");
    let f = d.join("four.json");
    std::fs::write(&f, r#"{"version": "decorated-2003-02", "players": 4}"#).unwrap();
    let out = ok(&["demo", "--rules", s(&f)]);
    assert!(out.contains(", 4 players, "), "{out}");
    // Out of the family's range: refused, naming what is accepted.
    let (code, _, err) = kanaszta(&["demo", "--set", "players=7"]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked") && err.contains("players"), "{err}");
}
