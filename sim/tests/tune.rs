//! `kanaszta tune`: SPSA by self-play writes its trace, the tuned spec and
//! run.json, the same for any thread count, stops once settled, and
//! refuses parameters it cannot move.

mod common;

use common::*;

fn tune(dir: &std::path::Path, threads: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "tune",
        "--agent",
        "greedy",
        "--param",
        "pile,patience=5..200",
        "--vs",
        "random,greedy",
        "--hands-per-step",
        "20",
        "--seed",
        "5",
        "--threads",
        threads,
        "--out",
        s(dir),
        "--quiet",
    ];
    args.extend(extra);
    ok(&args)
}

#[test]
fn the_same_seed_tunes_the_same_for_any_thread_count() {
    let d = tmp("tune-threads");
    let (one, two) = (d.join("1"), d.join("2"));
    let out = tune(&one, "1", &["--steps", "3", "--window", "0"]);
    tune(&two, "2", &["--steps", "3", "--window", "0"]);
    for f in ["trace.csv", "best.txt"] {
        assert_eq!(read(&one.join(f)), read(&two.join(f)), "{f}");
    }
    let (h, rows) = table(&one.join("trace.csv"));
    assert_eq!(rows.len(), 3, "one row per step");
    for c in [
        "step",
        "pile",
        "patience",
        "delta_pile",
        "plus_patience",
        "minus_patience",
        "margin_plus",
        "margin_minus",
        "gain",
    ] {
        col(&h, c);
    }
    // Each step's two points differ only by the perturbation, within range.
    for r in &rows {
        let p: f64 = r[col(&h, "plus_patience")].parse().unwrap();
        let m: f64 = r[col(&h, "minus_patience")].parse().unwrap();
        assert!(
            (5.0..=200.0).contains(&p) && (5.0..=200.0).contains(&m),
            "{r:?}"
        );
    }
    let best = read(&one.join("best.txt"));
    assert!(best.starts_with("greedy"), "{best}");
    assert!(out.contains(best.trim()), "{out}");
    let run: serde_json::Value = serde_json::from_str(&read(&one.join("run.json"))).unwrap();
    assert_eq!(run["steps_done"], 3);
    assert_eq!(run["best"], best.trim());
    assert_eq!(run["params"][1]["hi"], 200.0);
}

/// greedy's patience does not change greedy against itself: every margin
/// difference is 0, no direction is left, and the tuning stops early.
#[test]
fn a_parameter_without_effect_settles_early() {
    let d = tmp("tune-settle");
    let out = ok(&[
        "tune",
        "--agent",
        "greedy",
        "--param",
        "patience",
        "--vs",
        "greedy",
        "--hands-per-step",
        "10",
        "--steps",
        "30",
        "--window",
        "3",
        "--out",
        s(&d),
        "--quiet",
    ]);
    assert!(out.contains("settled after"), "{out}");
    let run: serde_json::Value = serde_json::from_str(&read(&d.join("run.json"))).unwrap();
    assert_eq!(run["settled"], true);
    assert!(run["steps_done"].as_u64().unwrap() < 30);
}

#[test]
fn parameters_it_cannot_move_are_refused() {
    let d = tmp("tune-bad");
    let out = s(&d);
    let base = |agent: &'static str, param: &'static str| {
        vec![
            "tune", "--agent", agent, "--param", param, "--vs", "random", "--out", out,
        ]
    };
    refused(&base("grody", "pile"), &["unknown agent `grody`"]);
    refused(
        &base("greedy", "speed"),
        &["no parameter `speed`", "pile (1..112)"],
    );
    refused(
        &base("greedy", "open_pickup"),
        &["not a number in a range", "on|off"],
    );
    refused(&base("greedy", "pile=0..5"), &["declared range 1..112"]);
    refused(&base("greedy", "pile=9..3"), &["LO < HI"]);
    refused(&base("greedy", "pile,pile"), &["given twice"]);
    let mut v = base("greedy", "pile");
    v.extend(["--step-size", "2"]);
    refused(&v, &["--step-size"]);
    let mut v = base("greedy", "pile");
    v.extend(["--window", "1"]);
    refused(&v, &["--window 1"]);
    refused(
        &[
            "tune", "--agent", "greedy", "--param", "pile", "--vs", "zz", "--out", out,
        ],
        &["unknown agent `zz`"],
    );
    assert!(
        !d.join("trace.csv").exists(),
        "nothing written for bad input"
    );
}
