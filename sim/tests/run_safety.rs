//! Faults at the level of whole runs: two runs into one directory, runs
//! stopped by a signal, merges and ratings of inputs that overlap or have
//! gaps, irreproducible agents, absurd game counts. Each test runs the
//! binary as users do.

mod common;

use common::*;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts a long run into `dir` (a child process) and waits until it has
/// written some rows.
fn start_long_run(dir: &Path, extra: &[&str]) -> Child {
    let mut args = vec![
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "50000000",
        "--seed",
        "4",
        "--threads",
        "1",
        "--out",
    ];
    args.push(s(dir));
    args.extend_from_slice(extra);
    let child = Command::new(BIN)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hands = dir.join("hands.csv");
    let start = Instant::now();
    loop {
        let n = std::fs::read_to_string(&hands)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > 40 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the run wrote no rows"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn small_run(dir: &Path) -> (i32, String, String) {
    kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "10",
        "--seed",
        "2",
        "-q",
        "--out",
        s(dir),
    ])
}

#[test]
fn a_second_run_into_a_locked_directory_is_refused_and_a_stale_lock_taken_over() {
    let d = tmp("locked");
    let mut child = start_long_run(&d, &["-q"]);
    let lock = read(&d.join(".lock"));
    assert!(lock.contains(&format!("pid {}", child.id())), "{lock}");
    let (code, _, err) = small_run(&d);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("another run is writing there")
            && err.contains(&format!("process {}", child.id()))
            && err.contains("50000000")
            && err.contains("another --out"),
        "{err}"
    );
    // The refused run touched nothing: the first run's files are whole.
    assert!(read(&d.join("run.json")).contains("\"games\": 50000000"));
    // Killed outright, the first run leaves its lock; the next run sees
    // that its process is gone and takes the directory over.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(d.join(".lock").exists());
    let (code, _, err) = small_run(&d);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("stale lock") && err.contains("taking it over"),
        "{err}"
    );
    assert!(err.contains("replacing the earlier run"), "{err}");
    assert!(!d.join(".lock").exists(), "the lock is removed at the end");
    assert!(read(&d.join("run.json")).contains("\"games\": 10"));
    let (_, rows) = table(&d.join("hands.csv"));
    assert_eq!(rows.len(), 20);
}

#[test]
fn a_run_into_a_finished_runs_directory_says_it_replaces_it() {
    let d = tmp("replace");
    let (code, _, err) = small_run(&d);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("replacing"), "{err}");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "2",
        "-q",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("replacing the earlier run there (play greedy random, seed 2, 10 hands)"),
        "{err}"
    );
    // Nothing of the earlier run is left to mix with the new one.
    assert!(read(&d.join("run.json")).contains("\"matches\""));
    let (h, rows) = table(&d.join("hands.csv"));
    assert!(rows.iter().all(|r| r[col(&h, "mode")] == "matches"));
    assert!(!d.join(".lock").exists());
}
