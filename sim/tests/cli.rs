//! Runs the `kanaszta` binary.

use std::process::Command;

fn kanaszta(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kanaszta"))
        .args(args)
        .output()
        .expect("run kanaszta");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn demo_plays_a_hand_and_is_reproducible() {
    let (code, out, _) = kanaszta(&["demo", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("cut shows"));
    assert!(out.contains("discard"));
    assert!(
        out.lines()
            .filter(|l| l.starts_with("P0 random: base"))
            .count()
            == 1
    );
    let (_, again, _) = kanaszta(&["demo", "--seed", "5"]);
    assert_eq!(out, again, "same seed, same hand");
    let (_, other, _) = kanaszta(&["demo", "--seed", "6"]);
    assert_ne!(out, other);
}

#[test]
fn help_names_play_as_the_default() {
    let (code, out, _) = kanaszta(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("kanaszta play"), "{out}");
    for cmd in [
        "play",
        "tournament",
        "sweep",
        "merge",
        "bench",
        "replay",
        "agents",
        "demo",
    ] {
        assert!(out.contains(cmd), "{cmd} missing from\n{out}");
    }
}

#[test]
fn bad_rule_switch_is_a_clear_error() {
    let (code, _, err) = kanaszta(&["demo", "--set", "tax=maybe"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("tax") && err.contains("on") && err.contains("off"),
        "{err}"
    );
    let (code, _, err) = kanaszta(&["demo", "--set", "taxes=off"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown rule switch"), "{err}");
    let (code, _, err) = kanaszta(&["demo", "--rules", "decorated-1999"]);
    assert_eq!(code, 1);
    assert!(err.contains("decorated-2003-02"), "{err}");
    assert!(!err.contains("panicked"));
}

/// Options given without a command are the default command's, `play`.
#[test]
fn options_without_a_command_are_plays() {
    let dir = std::env::temp_dir().join(format!("kanaszta-cli-default-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = kanaszta(&[
        "--a",
        "random",
        "--b",
        "greedy",
        "--hands",
        "4",
        "--threads",
        "1",
        "--out",
        out,
        "-q",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(dir.join("hands.csv").is_file(), "{stdout}{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, help, _) = kanaszta(&["--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("Without a command"), "{help}");
}

#[test]
fn rules_lists_switches() {
    let (code, out, _) = kanaszta(&["rules", "--set", "opening=90"]);
    assert_eq!(code, 0);
    assert!(out.contains("opening=90"));
    assert!(out.contains("tax=on"));
}

fn write_position(name: &str, json: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kanaszta-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, json).unwrap();
    p
}

const DRAW_POSITION: &str = r#"{"phase":"draw","current":0,
  "players":[{"hand":"8D 8S 2C 5H","table":{"groups":["KC KD KH"],"opened":true}},
             {"hand":"4C 5D 9S"}],
  "pile":"3S 9C 8H"}"#;

#[test]
fn legal_lists_the_actions_of_a_position() {
    let p = write_position("legal.json", DRAW_POSITION);
    let (code, out, _) = kanaszta(&["legal", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, vec!["draw", "take"]);
}

#[test]
fn check_names_the_rule_that_forbids_an_action() {
    let p = write_position("check.json", DRAW_POSITION);
    let (code, out, _) = kanaszta(&["check", p.to_str().unwrap(), "take"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("legal"));
    let frozen = DRAW_POSITION.replace("3S 9C 8H", "9C 8H 3S");
    let q = write_position("frozen.json", &frozen);
    let (code, out, _) = kanaszta(&["check", q.to_str().unwrap(), "take"]);
    assert_eq!(code, 3);
    assert!(
        out.contains("D-6.3") && out.contains("black three"),
        "{out}"
    );
    let (code, _, err) = kanaszta(&["check", p.to_str().unwrap(), "tkae"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("unknown action") && err.contains("discard CARD"),
        "{err}"
    );
}

#[test]
fn score_prints_raw_and_taxed() {
    let p = write_position(
        "score.json",
        r#"{"phase":"over","end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
            "totals":[6000,0],
            "players":[{"table":{"groups":["8C 8C 8D 8D 8H 8H 8S","AC AD AS"],"opened":true}},
                       {"hand":"JC JD"}]}"#,
    );
    let (code, out, err) = kanaszta(&["score", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // P0: red canasta 400 + going out 100, cards 130: raw 630, halved at 6,000: 315.
    let row0 = out.lines().find(|l| l.starts_with("0,")).unwrap();
    assert!(row0.ends_with(",630,6000,315"), "{row0}");
    let row1 = out.lines().find(|l| l.starts_with("1,")).unwrap();
    assert!(row1.ends_with(",-20,0,-20"), "{row1}");
}

#[test]
fn malformed_positions_are_clear_errors() {
    let p = write_position(
        "bad.json",
        r#"{"phase":"draw","players":[{"hand":"8D 8D 8D"},{}]}"#,
    );
    let (code, _, err) = kanaszta(&["legal", p.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("8D"), "{err}");
    assert!(!err.contains("panicked"));
    let (code, _, err) = kanaszta(&["legal", "/nonexistent/position.json"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read position"), "{err}");
    let q = write_position("notjson.json", "{phase: draw");
    let (code, _, err) = kanaszta(&["score", q.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!err.is_empty() && !err.contains("panicked"));
}
