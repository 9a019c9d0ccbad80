//! The quick variant of the results pipeline: `results/make.sh --quick`
//! runs every experiment of results/ on tiny samples with this binary, so
//! the commands that made the committed results keep working.

use std::process::Command;

#[test]
fn results_pipeline_runs_on_small_samples() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = std::env::temp_dir().join(format!("kanaszta-results-{}", std::process::id()));
    let work = out.join("work");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&work).unwrap();
    let r = Command::new("bash")
        .arg("results/make.sh")
        .arg("--quick")
        .arg(&out)
        .current_dir(root)
        .env("KANASZTA", env!("CARGO_BIN_EXE_kanaszta"))
        .env("WORK", &work)
        .output()
        .expect("run bash");
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "make.sh --quick failed: {err}");
    for f in [
        "tax/commands.txt",
        "tax/sweep.csv",
        "tax/matches-by-tax.csv",
        "tax/match-length.svg",
        "tax/schedules.csv",
        "opening/sweep.csv",
        "opening/win-rate.svg",
        "seat/greedy-v-greedy.csv",
        "switches/sweep.csv",
        "ladder/ratings.csv",
        "ladder/ratings.svg",
        "ladder/ratings-all.csv",
        "ladder/ismcts-rules-hands.csv",
        "ladder/timing.csv",
        "ladder/tune-trace.csv",
        "ladder/tune-best.txt",
        "ladder/tournament.csv",
        "ladder/ratings-all.svg",
        "ladder/ladder.csv",
        "ladder/steps.svg",
        "anatomy/by-agent.csv",
        "anatomy/scores.svg",
        "classic/presets.csv",
        "classic/presets-length.csv",
        "classic/partners.csv",
        "classic/partners-seats.csv",
    ] {
        let p = out.join(f);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(
            text.lines().count() >= 2
                || f.ends_with(".svg")
                || (f.ends_with("best.txt") && !text.trim().is_empty()),
            "{f} is empty"
        );
    }
    // One row per pair played: the round robin's ten (five agents, the
    // tuned rules among them) and the search steps, each with the
    // hand-win rate, the match-win rate (in matches mode), the point
    // difference, how the hands ended, whether the run is whole, the
    // decision time of the agents that were timed, and its command.
    let ladder = std::fs::read_to_string(out.join("ladder/ladder.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(ladder.as_bytes());
    let head = rows.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rows.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 10 + 11, "{ladder}");
    let tuned = std::fs::read_to_string(out.join("ladder/tune-best.txt")).unwrap();
    let tuned = tuned.trim();
    assert!(
        tuned.starts_with("rules:")
            && rows
                .iter()
                .any(|r| &r[col("agent")] == tuned && r[col("step")].starts_with("rr:")),
        "the tuned spec `{tuned}` is a row of the round robin:\n{ladder}"
    );
    for r in &rows {
        let rate: f64 = r[col("hand_win_rate")].parse().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{ladder}");
        assert!(r[col("mean_diff")].parse::<f64>().is_ok(), "{ladder}");
        let ends: f64 = ["ended_out", "exhausted", "stalled", "deadlocked"]
            .iter()
            .map(|c| r[col(c)].parse::<f64>().unwrap())
            .sum();
        assert!(
            (ends - 1.0).abs() < 1e-3,
            "every hand ended one way: {ladder}"
        );
        assert_eq!(&r[col("complete")], "true", "{ladder}");
        let cmd = &r[col("command")];
        assert!(
            cmd.starts_with("kanaszta play --a ")
                || cmd.starts_with("kanaszta tournament --agents "),
            "{ladder}"
        );
        if &r[col("step")] != "ismcts-quarter" {
            let ms: f64 = r[col("agent_ms_per_decision")].parse().unwrap();
            assert!(ms > 0.0, "{ladder}");
        }
        if &r[col("mode")] == "matches" {
            let m: f64 = r[col("match_win_rate")].parse().unwrap();
            assert!((0.0..=1.0).contains(&m), "{ladder}");
        }
    }
    // Every agent of the ladder is in the one rating table.
    let all = std::fs::read_to_string(out.join("ladder/ratings-all.csv")).unwrap();
    for r in &rows {
        let agent = &r[col("agent")];
        assert!(
            all.lines()
                .any(|l| l.starts_with(&format!("{agent},"))
                    || l.starts_with(&format!("\"{agent}\","))),
            "{agent} not rated: {all}"
        );
    }
    let opening = std::fs::read_to_string(out.join("opening/sweep.csv")).unwrap();
    assert_eq!(
        opening.lines().count(),
        6,
        "one row per opening minimum: {opening}"
    );
}

/// Without `WORK`, `make.sh --quick` plays its raw runs in a temporary
/// directory and removes it at the end, saying so: nothing is left in
/// the temporary directory, and the results are in DIR.
#[test]
fn quick_pipeline_leaves_no_raw_runs_behind() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let base = std::env::temp_dir().join(format!("kanaszta-results-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let scratch = base.join("tmp");
    let out = base.join("out");
    std::fs::create_dir_all(&scratch).unwrap();
    let r = Command::new("bash")
        .arg("results/make.sh")
        .arg("--quick")
        .arg(&out)
        .arg("seat")
        .current_dir(root)
        .env("KANASZTA", env!("CARGO_BIN_EXE_kanaszta"))
        .env("TMPDIR", &scratch)
        .env_remove("WORK")
        .output()
        .expect("run bash");
    let err = String::from_utf8_lossy(&r.stderr);
    let said = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "make.sh --quick failed: {err}");
    assert!(said.contains("raw runs removed"), "{said}");
    assert!(out.join("seat/rules-v-rules.csv").exists());
    let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().collect();
    assert!(left.is_empty(), "left in the temporary directory: {left:?}");
    std::fs::remove_dir_all(&base).unwrap();
}
