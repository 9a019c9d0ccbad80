//! `kanaszta learn tune`: a decorated linear model tuned by play.

mod common;
use common::{kanaszta, ok, refused, s, tmp};

fn tiny<'a>(dir: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "tune",
        "--steps",
        "3",
        "--hands",
        "4",
        "--seed",
        "5",
        "--threads",
        threads,
        "--out",
        dir,
        "-q",
    ]
}

/// The same seed writes the same files for any thread count, and the
/// model is one the value agent plays.
#[test]
fn tune_is_deterministic_and_writes_a_playable_model() {
    let d = tmp("learn-tune-det");
    let (one, two) = (d.join("one"), d.join("two"));
    ok(&tiny(s(&one), "1"));
    ok(&tiny(s(&two), "2"));
    for f in ["model.json", "steps.csv"] {
        let a = std::fs::read(one.join(f)).unwrap();
        assert_eq!(a, std::fs::read(two.join(f)).unwrap(), "{f}");
    }
    assert!(!one.join("point.json").exists());
    let csv = std::fs::read_to_string(one.join("steps.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "a header and a row a step: {csv}");
    assert!(lines[0].starts_with("step,plus_points,plus_win,minus_points,minus_win,hand_points"));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("model.json")).unwrap()).unwrap();
    assert_eq!(m["kind"], "linear");
    assert_eq!(m["training"]["kind"], "tuned");
    assert_eq!(m["training"]["steps"], 3);
    let names = m["training"]["directions"].as_array().unwrap();
    assert_eq!(
        names.len() + 5,
        lines[0].split(',').count(),
        "a weight a direction"
    );
    let model = one.join("model.json");
    let agent = format!("value:model={},turn=on", s(&model));
    ok(&[
        "play",
        "--a",
        &agent,
        "--b",
        "greedy",
        "--hands",
        "2",
        "--seed",
        "3",
        "--out",
        s(&d.join("p")),
    ]);
    // Another seed tunes otherwise.
    let three = d.join("three");
    let mut args = tiny(s(&three), "1");
    args[7] = "6";
    ok(&args);
    assert_ne!(
        std::fs::read(one.join("steps.csv")).unwrap(),
        std::fs::read(three.join("steps.csv")).unwrap()
    );
}

/// Starting from a linear model's weights: its projection is the first
/// step's starting point; a model of the other family is refused.
#[test]
fn tune_starts_from_a_model() {
    let d = tmp("learn-tune-from");
    let first = d.join("first");
    ok(&tiny(s(&first), "1"));
    let from = d.join("from");
    let model = first.join("model.json");
    let mut args = tiny(s(&from), "1");
    args.extend(["--from", s(&model)]);
    ok(&args);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(from.join("model.json")).unwrap()).unwrap();
    assert_eq!(m["training"]["from"], s(&model));
    // The first step starts at the projection of the first tuning's model,
    // which is that model's weights.
    let start: Vec<f64> = std::fs::read_to_string(from.join("steps.csv"))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .skip(5)
        .map(|x| x.parse().unwrap())
        .collect();
    let theta: Vec<f64> = m["training"]["directions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["theta"].as_f64().unwrap())
        .collect();
    let first_theta: Vec<f64> =
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&model).unwrap())
            .unwrap()["training"]["directions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["theta"].as_f64().unwrap())
            .collect();
    assert_eq!(start.len(), theta.len());
    for (a, b) in start.iter().zip(&first_theta) {
        assert!((a - b).abs() <= 1e-3 * (1.0 + b.abs()), "{a} {b}");
    }
    refused(
        &[
            "learn",
            "tune",
            "--out",
            s(&d.join("x")),
            "--from",
            s(&d.join("none.json")),
        ],
        &["--from", "none.json"],
    );
}

#[test]
fn tune_refuses_bad_options() {
    let d = tmp("learn-tune-bad");
    let dir = d.join("t");
    for (flag, value, says) in [
        ("--steps", "0", "from 1 to 100000"),
        ("--hands", "3", "even number"),
        ("--hands", "0", "even number"),
        ("--step", "0", "in (0, 1]"),
        ("--perturb", "2", "in (0, 1]"),
        ("--metric", "elo", "expected points"),
        ("--turn", "yes", "expected on"),
        ("--worlds", "0", "from 1 to 64"),
        ("--opponent", "bogus", "bogus"),
        ("--opponent", "rules+greedy", "partnership"),
        ("--rules", "classic-002", "classic canasta"),
    ] {
        let (code, _, err) = kanaszta(&["learn", "tune", "--out", s(&dir), flag, value]);
        assert_eq!(code, 1, "{flag} {value}: {err}");
        assert!(err.contains(says), "{flag} {value}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    refused(
        &[
            "learn",
            "tune",
            "--out",
            s(&dir),
            "--turn",
            "off",
            "--worlds",
            "4",
        ],
        &["--turn is off"],
    );
    assert!(!dir.exists());
}
