//! `kanaszta play --sprt`: the sequential test on paired deals ends a run
//! at its decision, at the same deal for any thread count, and refuses bad
//! bounds; under classic rules too (C-23, with partnerships C-20).

mod common;

use common::*;
use std::path::Path;

fn sprt_of(dir: &Path) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&read(&dir.join("run.json"))).unwrap();
    v["sprt"].clone()
}

/// rules against greedy, H1 20 points per hand: decided after some dozens
/// of deals, the same deal and the same rows on one thread and on two.
#[test]
fn the_decision_and_the_rows_do_not_depend_on_the_thread_count() {
    let d = tmp("sprt-threads");
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let dir = d.join(t);
        let out = ok(&[
            "play",
            "--a",
            "rules",
            "--b",
            "greedy",
            "--sprt",
            "20",
            "--hands",
            "2000",
            "--threads",
            t,
            "--out",
            s(&dir),
            "--quiet",
        ]);
        outs.push((dir, out));
    }
    let (a, b) = (&outs[0].0, &outs[1].0);
    for f in ["hands.csv", "errors.csv", "summary.csv", "run.json"] {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
    let t = sprt_of(a);
    let deals = t["deals"].as_u64().unwrap();
    assert!(t["decision"] == "H1" || t["decision"] == "H0", "{t}");
    assert!(
        deals > 20 && deals < 1000,
        "decided after {deals} deals: {t}"
    );
    // The CSVs hold exactly the deals up to the decision.
    let (_, rows) = table(&a.join("hands.csv"));
    assert_eq!(
        rows.len() as u64,
        4 * deals,
        "two games of two rows per deal"
    );
    let m: serde_json::Value = serde_json::from_str(&read(&a.join("run.json"))).unwrap();
    assert_eq!(
        m["games"].as_u64(),
        Some(2 * deals),
        "run.json: the games played"
    );
    assert_eq!(t["max_games"].as_u64(), Some(2000));
    assert!(outs[0].1.contains("LLR") && outs[0].1.contains("bounds -2.944, 2.944"));
}

#[test]
fn a_clearly_stronger_agent_is_accepted_quickly() {
    let d = tmp("sprt-strong");
    let out = ok(&[
        "play",
        "--a",
        "rules",
        "--b",
        "random",
        "--sprt",
        "50",
        "--hands",
        "4000",
        "--out",
        s(&d),
        "--quiet",
    ]);
    assert!(
        out.contains("H1 accepted: rules is stronger than random by at least 50 points per hand"),
        "{out}"
    );
    let t = sprt_of(&d);
    assert_eq!(t["decision"], "H1");
    assert!(t["deals"].as_u64().unwrap() <= 100, "{t}");
    assert!(
        t["llr"].as_f64().unwrap() >= t["upper"].as_f64().unwrap(),
        "{t}"
    );
}

/// greedy against itself is not stronger than itself by 50 points per
/// hand, in points or in hands won.
#[test]
fn equal_agents_are_not_accepted_as_stronger() {
    for metric in [["--sprt", "50"], ["--sprt-metric", "wins"]] {
        let d = tmp(&format!("sprt-equal-{}", metric[1]));
        let mut args = vec!["play", "--a", "greedy", "--b", "greedy", "--hands", "400"];
        args.extend(metric);
        if metric[0] == "--sprt-metric" {
            args.extend(["--sprt", "0.05"]);
        }
        args.extend(["--out", s(&d), "--quiet"]);
        let out = ok(&args);
        let t = sprt_of(&d);
        assert_ne!(t["decision"], "H1", "{out}");
        assert!(!out.contains("H1 accepted"), "{out}");
    }
}

/// A run that reaches its maximum says so.
#[test]
fn a_truncated_test_ends_undecided() {
    let d = tmp("sprt-undecided");
    let out = ok(&[
        "play",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--sprt",
        "20",
        "--hands",
        "20",
        "--out",
        s(&d),
        "--quiet",
    ]);
    assert!(out.contains("undecided"), "{out}");
    assert_eq!(sprt_of(&d)["decision"], "undecided");
    let (_, rows) = table(&d.join("hands.csv"));
    assert_eq!(rows.len(), 40, "every game of the run");
}

#[test]
fn bad_bounds_are_refused() {
    let d = tmp("sprt-bad");
    let out = s(&d);
    let base = [
        "play", "--a", "greedy", "--b", "random", "--hands", "10", "--out", out,
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend(extra);
        v
    };
    refused(
        &with(&["--sprt", "50", "--sprt-alpha", "1"]),
        &["--sprt-alpha", "between 0 and 1"],
    );
    refused(
        &with(&["--sprt", "50", "--sprt-beta", "0"]),
        &["--sprt-beta"],
    );
    refused(
        &with(&["--sprt-h0", "10", "--sprt-h1", "5"]),
        &["H1 must be above H0"],
    );
    refused(&with(&["--sprt", "-5"]), &["H1 must be above H0"]);
    refused(
        &with(&["--sprt-alpha", "0.01"]),
        &["--sprt-alpha", "give --sprt X"],
    );
    refused(&with(&["--sprt", "50", "--sprt-h1", "50"]), &["not both"]);
    refused(&with(&["--sprt", "50", "--unpaired"]), &["paired deals"]);
    refused(&with(&["--sprt", "50", "--shard", "0/2"]), &["--shard"]);
    refused(
        &with(&["--sprt", "0.6", "--sprt-metric", "wins"]),
        &["lies in 0..1"],
    );
    refused(
        &with(&["--sprt", "5", "--sprt-metric", "elo"]),
        &["points", "wins"],
    );
    refused(
        &with(&["--sprt", "5", "--sprt-min-deals", "1"]),
        &["at least 2"],
    );
    refused(&with(&["--sprt", "nan"]), &["finite"]);
}

/// Hypotheses of ±1e308 points per hand made the LLR NaN on screen and
/// `-inf` in run.json; they are refused with the range accepted.
#[test]
fn sprt_hypotheses_beyond_any_hands_score_are_refused() {
    let d = tmp("sprt-huge");
    for (words, shown) in [
        (
            &["--sprt-h0", "-1e308", "--sprt-h1", "1e308"][..],
            "H0 -1e308, H1 1e308",
        ),
        (&["--sprt", "1e308"][..], "H0 0, H1 1e308"),
        (
            &["--sprt-h0", "-200000", "--sprt", "10"][..],
            "H0 -200000, H1 -199990",
        ),
    ] {
        let mut args = vec!["play", "--hands", "10", "-q", "--out", s(&d)];
        args.extend_from_slice(words);
        refused(
            &args,
            &[
                shown,
                "within ±100000",
                "-100000 ≤ H0 < H1 ≤ 100000",
                "--sprt 50",
            ],
        );
        assert!(!d.join("run.json").exists(), "nothing written");
    }
    // The edges are accepted.
    let out = ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "10",
        "-q",
        "--sprt-h0",
        "-100000",
        "--sprt-h1",
        "100000",
        "--out",
        s(&d),
    ]);
    assert!(!out.contains("NaN"), "{out}");
}

/// `play --rules classic-002 --sprt` with `extra` into `dir`: its output
/// with the timing line left out.
fn classic_sprt(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "play",
        "--rules",
        "classic-002",
        "--a",
        "rules",
        "--b",
        "random",
        "--sprt",
        "50",
        "--hands",
        "4000",
        "--out",
        s(dir),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let out = ok(&args);
    out.lines()
        .filter(|l| !l.contains("hands/s"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Classic canasta, two players and four (a side a partnership, C-20):
/// rules is accepted as stronger than random long before the 2,000 deals,
/// the CSVs hold exactly the deals up to the decision, run.json records
/// the test after the family, and the summary the games played.
#[test]
fn a_classic_run_stops_at_its_decision_alone_and_in_partnerships() {
    for players in ["2", "4"] {
        let d = tmp(&format!("sprt-classic-{players}"));
        let set = format!("players={players}");
        let out = classic_sprt(&d, &["--set", &set, "--threads", "1"]);
        assert!(
            out.contains(
                "H1 accepted: rules is stronger than random by at least 50 points per hand"
            ),
            "{out}"
        );
        let t = sprt_of(&d);
        assert_eq!(t["decision"], "H1", "{t}");
        let deals = t["deals"].as_u64().unwrap();
        assert!(
            (20..200).contains(&deals),
            "decided after {deals} deals: {t}"
        );
        assert_eq!(t["max_games"].as_u64(), Some(4000));
        assert_eq!(t["skipped_deals"].as_u64(), Some(0));
        assert!(t["llr"].as_f64().unwrap() >= t["upper"].as_f64().unwrap());
        assert!(
            out.contains(&format!("after {deals} deals of at most 2000")),
            "{out}"
        );
        let m: serde_json::Value = serde_json::from_str(&read(&d.join("run.json"))).unwrap();
        assert_eq!(m["family"], "classic", "still a classic run: {m}");
        assert_eq!(m["games"].as_u64(), Some(2 * deals), "the games played");
        assert_eq!(m["series"][0]["rules"]["players"], players);
        let (_, rows) = table(&d.join("hands.csv"));
        let n: u64 = players.parse().unwrap();
        assert_eq!(rows.len() as u64, 2 * deals * n, "one row a seat a game");
        let (h, rows) = table(&d.join("summary.csv"));
        assert_eq!(rows.len(), 2);
        for r in &rows {
            assert_eq!(r[col(&h, "games")], (2 * deals).to_string());
            assert_eq!(r[col(&h, "deals")], deals.to_string());
        }
        // The test's mean is the summary's paired difference, per deal.
        let mean = t["mean"].as_f64().unwrap();
        let a = rows.iter().find(|r| r[col(&h, "side")] == "a").unwrap();
        let diff: f64 = a[col(&h, "mean_diff")].parse().unwrap();
        assert!((mean - diff).abs() < 0.01, "sprt {mean} v summary {diff}");
        assert!(
            out.contains(&format!("{} hands, paired seats", 2 * deals)),
            "{out}"
        );
    }
}

/// The same classic test on one thread and two, and twice on one: the
/// same decision at the same deal, byte for byte the same files and report.
#[test]
fn a_classic_decision_does_not_depend_on_the_thread_count_or_the_run() {
    let d = tmp("sprt-classic-threads");
    let mut runs = Vec::new();
    for (name, t) in [("one", "1"), ("again", "1"), ("two", "2")] {
        let dir = d.join(name);
        let out = classic_sprt(&dir, &["--set", "players=4", "--seed", "9", "--threads", t]);
        runs.push((dir, out.replace(s(&d.join(name)), "DIR")));
    }
    let (first, text) = &runs[0];
    assert!(text.contains("H1 accepted"), "{text}");
    for (dir, out) in &runs[1..] {
        assert_eq!(out, text, "{}", dir.display());
        for f in ["hands.csv", "errors.csv", "summary.csv", "run.json"] {
            assert_eq!(read(&first.join(f)), read(&dir.join(f)), "{f}");
        }
    }
}

/// What the decorated test refuses, classic refuses alike; a classic test
/// truncated by --hands ends undecided with every game played.
#[test]
fn a_classic_test_refuses_unpaired_and_sharded_runs_and_may_end_undecided() {
    let d = tmp("sprt-classic-refused");
    let base = [
        "play",
        "--rules",
        "classic-002",
        "--sprt",
        "50",
        "--out",
        s(&d),
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend(extra);
        v
    };
    refused(&with(&["--unpaired"]), &["paired deals"]);
    refused(&with(&["--shard", "0/2"]), &["--shard"]);
    refused(&with(&["--sprt-min-deals", "1"]), &["at least 2"]);
    let out = ok(&with(&[
        "--a", "rules", "--b", "greedy", "--hands", "8", "-q",
    ]));
    assert!(
        out.contains("undecided: neither bound was reached within 4 deals"),
        "{out}"
    );
    assert_eq!(sprt_of(&d)["decision"], "undecided");
    let (_, rows) = table(&d.join("hands.csv"));
    assert_eq!(rows.len(), 16, "every game of the run, two seats each");
}
