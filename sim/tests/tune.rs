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

/// Ctrl-C (SIGINT) during a tuning keeps its work like `play` keeps its
/// finished games: the step in play is dropped, best.txt and run.json are
/// written from the steps finished (run.json: `"complete": false` and how
/// many), the lock is removed, and the exit status is 130.
#[test]
fn sigint_keeps_the_steps_finished() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let d = tmp("tune-sigint");
    let child = Command::new(BIN)
        .args([
            "tune",
            "--agent",
            "greedy",
            "--param",
            "pile,patience=5..200",
            "--vs",
            "random",
            "--hands-per-step",
            "20",
            "--steps",
            "1000000",
            "--window",
            "0",
            "--threads",
            "1",
            "--out",
            s(&d),
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let trace = d.join("trace.csv");
    let start = Instant::now();
    while std::fs::read_to_string(&trace).map_or(0, |t| t.lines().count()) < 4 {
        assert!(start.elapsed() < Duration::from_secs(60), "no steps");
        std::thread::sleep(Duration::from_millis(20));
    }
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let (_, rows) = table(&trace);
    let done = rows.len();
    assert!(done >= 3);
    let best = read(&d.join("best.txt"));
    assert!(best.starts_with("greedy"), "{best}");
    let run: serde_json::Value = serde_json::from_str(&read(&d.join("run.json"))).unwrap();
    assert_eq!(run["complete"], false, "{run}");
    assert_eq!(run["stopped_by"], "SIGINT", "{run}");
    assert_eq!(run["steps_done"], done as u64, "{run}");
    assert_eq!(run["steps"], 1_000_000);
    assert_eq!(run["best"], best.trim());
    assert!(
        stdout.contains(&format!("stopped by SIGINT after {done} of 1000000 steps")),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!("\"steps_done\": {done}")) && stderr.contains("again"),
        "{stderr}"
    );
    assert!(!d.join(".lock").exists(), "the lock is removed");
}

#[test]
fn a_narrow_whole_number_range_is_perturbed_by_whole_units() {
    let d = tmp("tune-narrow");
    let args = |out: &std::path::Path, agent: &'static str| {
        vec![
            "tune".to_string(),
            "--agent".into(),
            agent.into(),
            "--param".into(),
            "pile=1..5".into(),
            "--vs".into(),
            "random".into(),
            "--hands-per-step".into(),
            "20".into(),
            "--steps".into(),
            "4".into(),
            "--window".into(),
            "0".into(),
            "--threads".into(),
            "1".into(),
            "--out".into(),
            s(out).to_string(),
            "--quiet".into(),
        ]
    };
    let dir = d.join("ok");
    let a = args(&dir, "greedy:pile=3");
    let (code, _, err) = kanaszta(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--perturb 0.1 of pile's range 1..5 is under one whole unit")
            && err.contains("perturbed by at least 1"),
        "{err}"
    );
    let (h, rows) = table(&dir.join("trace.csv"));
    for r in &rows {
        let p: i64 = r[col(&h, "plus_pile")].parse().unwrap();
        let m: i64 = r[col(&h, "minus_pile")].parse().unwrap();
        assert!(p != m, "both points play pile={p}");
    }
    // A start given outside the range is refused; a default outside it is
    // moved into it with a note.
    let a = args(&d.join("outside"), "greedy:pile=9");
    refused(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        &[
            "pile=9 is outside --param pile=1..5",
            "start within the range",
        ],
    );
    let mut a = args(&d.join("default"), "greedy");
    a[4] = "pile=20..30".into();
    a[10] = "1".into();
    let (code, _, err) = kanaszta(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("greedy's default pile=") && err.contains("the search starts at 20"),
        "{err}"
    );
}

#[test]
fn an_odd_hands_per_step_is_refused() {
    let d = tmp("tune-odd");
    refused(
        &[
            "tune",
            "--agent",
            "greedy",
            "--param",
            "pile",
            "--vs",
            "random",
            "--hands-per-step",
            "3",
            "--out",
            s(&d),
        ],
        &[
            "--hands-per-step 3: expected an even number",
            "paired deals",
            "e.g. 2 or 4",
        ],
    );
}
