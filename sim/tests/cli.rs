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
    assert!(out.lines().filter(|l| l.starts_with("P0: base")).count() == 1);
    let (_, again, _) = kanaszta(&["demo", "--seed", "5"]);
    assert_eq!(out, again, "same seed, same hand");
    let (_, other, _) = kanaszta(&["demo", "--seed", "6"]);
    assert_ne!(out, other);
}

#[test]
fn no_arguments_runs_the_demo() {
    let (code, out, _) = kanaszta(&[]);
    assert_eq!(code, 0);
    assert!(out.contains("kanaszta demo"));
}

#[test]
fn bad_rule_switch_is_a_clear_error() {
    let (code, _, err) = kanaszta(&["demo", "--set", "tax=maybe"]);
    assert_eq!(code, 1);
    assert!(err.contains("tax") && err.contains("on") && err.contains("off"), "{err}");
    let (code, _, err) = kanaszta(&["demo", "--set", "taxes=off"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown rule switch"), "{err}");
    let (code, _, err) = kanaszta(&["demo", "--rules", "classic"]);
    assert_eq!(code, 1);
    assert!(err.contains("decorated-2003-02"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn rules_lists_switches() {
    let (code, out, _) = kanaszta(&["rules", "--set", "opening=90"]);
    assert_eq!(code, 0);
    assert!(out.contains("opening=90"));
    assert!(out.contains("tax=on"));
}
