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
    start_run(dir, "50000000", extra)
}

/// Starts a run of `hands` hands into `dir` and waits for some rows.
fn start_run(dir: &Path, hands: &str, extra: &[&str]) -> Child {
    let mut args = vec![
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        hands,
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

fn signal(child: &Child, sig: &str) {
    let st = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
}

/// Waits for the child, at most a minute; (status, stdout, stderr).
fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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

/// A run stopped by `sig` keeps and summarizes its finished games.
fn stopped_run(sig: &str, status: i32) {
    let d = tmp(&format!("signal-{sig}"));
    let child = start_long_run(&d, &[]);
    signal(&child, sig);
    let (code, out, err) = finish(child);
    assert_eq!(code, Some(status), "{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    let run = read(&d.join("run.json"));
    assert!(run.contains("\"complete\": false"), "{run}");
    let (_, rows) = table(&d.join("hands.csv"));
    let done = rows.len() / 2;
    assert!(done > 20);
    assert!(
        run.contains(&format!("\"games_done\": {done}")),
        "{run}\n{done} games in hands.csv"
    );
    let (sh, srows) = table(&d.join("summary.csv"));
    assert_eq!(srows[0][col(&sh, "hands")], done.to_string());
    assert!(
        out.contains(&format!("INCOMPLETE: {done} of the 50000000 games")),
        "{out}"
    );
    assert!(
        err.contains(&format!(
            "stopped by SIG{sig} after {done} of 50000000 games"
        )) && err.contains("\"complete\": false")
            && err.contains(&format!("kanaszta merge {} --out", d.display())),
        "{err}"
    );
    assert!(!d.join(".lock").exists(), "the lock is removed");
    // The partial run merges into a run that says what it holds.
    let m = d.join("merged");
    let (code, mout, merr) = kanaszta(&["merge", s(&d), "--out", s(&m)]);
    assert_eq!(code, 0, "{merr}");
    let mrun = read(&m.join("run.json"));
    assert!(
        mrun.contains("\"complete\": false") && mrun.contains(&format!("\"games_done\": {done}")),
        "{mrun}"
    );
    assert!(mout.contains("INCOMPLETE"), "{mout}");
    assert!(
        merr.contains(&format!("{} games missing", 50_000_000 - done)),
        "{merr}"
    );
}

#[test]
fn sigint_stops_a_run_with_a_summary_of_what_finished() {
    stopped_run("INT", 130);
}

#[test]
fn sigterm_stops_a_run_with_a_summary_of_what_finished() {
    stopped_run("TERM", 143);
}

/// A closed terminal (SIGHUP) stops a run as Ctrl-C does: summary,
/// run.json marked incomplete, lock removed; it used to end the run at
/// once, leaving the lock.
#[test]
fn sighup_stops_a_run_with_a_summary_of_what_finished() {
    stopped_run("HUP", 129);
}

#[test]
fn merge_names_the_games_missing_from_a_shard() {
    let d = tmp("gaps");
    let (a, b) = (d.join("s0"), d.join("s1"));
    for (dir, sh) in [(&a, "0/2"), (&b, "1/2")] {
        ok(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--hands",
            "40",
            "--seed",
            "6",
            "-q",
            "--shard",
            sh,
            "--out",
            s(dir),
        ]);
    }
    // Delete game 9 (deal 4, shard 0) from the middle of shard 0.
    let hands = a.join("hands.csv");
    let text = read(&hands);
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("0,9,")).collect();
    assert_eq!(kept.len(), text.lines().count() - 2);
    std::fs::write(&hands, kept.join("\n") + "\n").unwrap();
    let m = d.join("m");
    let (code, out, err) = kanaszta(&["merge", s(&a), s(&b), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1 games missing of the 40 of the run: series 0 game 9"),
        "{err}"
    );
    let run = read(&m.join("run.json"));
    assert!(
        run.contains("\"complete\": false") && run.contains("\"games_done\": 39"),
        "{run}"
    );
    assert!(out.contains("INCOMPLETE: 39 of the 40 games"), "{out}");
    // The shards whole merge as before: complete, no note.
    let whole = d.join("whole");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "40",
        "--seed",
        "6",
        "-q",
        "--shard",
        "0/2",
        "--out",
        s(&a),
    ]);
    let (code, _, err) = kanaszta(&["merge", s(&a), s(&b), "--out", s(&whole)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("missing"), "{err}");
    assert!(!read(&whole.join("run.json")).contains("complete"));
}

#[test]
fn ratings_count_the_games_of_shards_and_their_merge_once() {
    let d = tmp("ratings-dup");
    let run = |dir: &Path, a: &str, b: &str, shard: Option<&str>| {
        let mut args = vec![
            "play", "--a", a, "--b", b, "--hands", "60", "--seed", "8", "-q", "--out",
        ];
        args.push(s(dir));
        if let Some(sh) = shard {
            args.extend_from_slice(&["--shard", sh]);
        }
        ok(&args);
    };
    let ladder = d.join("ladder");
    run(&ladder.join("shard-0"), "rules", "greedy", Some("0/2"));
    run(&ladder.join("shard-1"), "rules", "greedy", Some("1/2"));
    ok(&[
        "merge",
        s(&ladder.join("shard-0")),
        s(&ladder.join("shard-1")),
        "--out",
        s(&ladder.join("all")),
    ]);
    run(&d.join("gr"), "greedy", "random", None);
    let once = ok(&["ratings", s(&ladder.join("all")), s(&d.join("gr"))]);
    let (code, out, err) = kanaszta(&[
        "ratings",
        s(&ladder.join("all")),
        s(&ladder.join("shard-0")),
        s(&ladder.join("shard-1")),
        s(&d.join("gr")),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, once, "each game counted once");
    assert!(out.contains("from 2 runs"), "{out}");
    assert!(
        err.contains("shard-0 (shard 0/2) holds games also in") && err.contains("counted once"),
        "{err}"
    );
    // The shards before their merge: the same, the merge kept.
    let (code, out2, _) = kanaszta(&[
        "ratings",
        s(&ladder.join("shard-0")),
        s(&ladder.join("shard-1")),
        s(&ladder.join("all")),
        s(&d.join("gr")),
    ]);
    assert_eq!(code, 0);
    assert_eq!(out2, once);
    // Shards of one run that overlap without one holding the other.
    run(&d.join("third"), "rules", "greedy", Some("0/3"));
    refused(
        &[
            "ratings",
            s(&ladder.join("shard-0")),
            s(&d.join("third")),
            s(&d.join("gr")),
        ],
        &[
            "hold some of the same games",
            "either the shards or their merge",
        ],
    );
}

#[test]
fn a_run_on_a_time_budget_says_it_is_not_reproducible() {
    let d = tmp("timed");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "pimc:worlds=2,depth=2,time=1",
        "--b",
        "random",
        "--hands",
        "2",
        "-q",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: this run is not reproducible")
            && err.contains("pimc:")
            && err.contains("wall-clock budget"),
        "{err}"
    );
    let run = read(&d.join("run.json"));
    assert!(
        run.contains("\"reproducible\": false") && run.contains("\"reproducible_note\""),
        "{run}"
    );
    let (code, _, err) = kanaszta(&["replay", "--run", s(&d), "--game", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning") && err.contains("may differ from the run's rows"),
        "{err}"
    );
    // Without a time budget nothing is said and run.json is as before.
    let e = tmp("untimed");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "2",
        "-q",
        "--out",
        s(&e),
    ]);
    assert_eq!(code, 0);
    assert!(!err.contains("reproducible"), "{err}");
    assert!(!read(&e.join("run.json")).contains("reproducible"));
}

#[test]
fn the_largest_hand_count_starts_at_once_and_odd_counts_are_warned_of() {
    // Today the games were counted one by one before the first was dealt.
    let d = tmp("huge");
    let child = start_run(&d, "18446744073709551615", &["-q"]);
    signal(&child, "INT");
    let (code, out, err) = finish(child);
    assert_eq!(code, Some(130), "{err}");
    assert!(out.contains("of the 18446744073709551615 games"), "{out}");
    assert!(err.contains("--hands 18446744073709551615 is odd"), "{err}");
    let e = tmp("odd");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "3",
        "-q",
        "--out",
        s(&e),
    ]);
    assert_eq!(code, 0);
    assert!(
        err.contains("--hands 3 is odd: with paired seats 1 deal is played twice")
            && err.contains("the last game (deal 1) only once, unpaired")
            && err.contains("--unpaired"),
        "{err}"
    );
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "3",
        "--unpaired",
        "-q",
        "--out",
        s(&e),
    ]);
    assert_eq!(code, 0);
    assert!(!err.contains("is odd"), "{err}");
}

#[test]
fn replay_refuses_a_hand_of_a_hands_run_and_a_run_of_no_games() {
    let d = tmp("replay-faults");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "-q",
        "--out",
        s(&d),
    ]);
    refused(
        &["replay", "--run", s(&d), "--game", "1", "--hand", "3"],
        &["--hand 3", "single hands", "hand 0"],
    );
    // Hand 0 is the game's one hand.
    let whole = ok(&["replay", "--run", s(&d), "--game", "1"]);
    assert_eq!(
        ok(&["replay", "--run", s(&d), "--game", "1", "--hand", "0"]),
        whole
    );
    let run = read(&d.join("run.json")).replace("\"games\": 4", "\"games\": 0");
    std::fs::write(d.join("run.json"), run).unwrap();
    refused(
        &["replay", "--run", s(&d)],
        &["run.json describes no games (games 0", "nothing to replay"],
    );
    refused(
        &[
            "replay",
            "--a",
            "greedy",
            "--b",
            "random",
            "--game",
            "18446744073709551615",
        ],
        &["--game 18446744073709551615"],
    );
}

#[test]
fn merge_keeps_whole_games_and_matches_of_a_run_stopped_mid_write() {
    let d = tmp("partial-write");
    // A matches run whose last match lost its matches.csv rows, as a full
    // disk leaves it: the hand rows written, the match rows not.
    let r = d.join("matches");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "12",
        "--seed",
        "3",
        "-q",
        "--out",
        s(&r),
    ]);
    let path = r.join("matches.csv");
    let text = read(&path);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 25);
    std::fs::write(&path, lines[..23].join("\n") + "\n").unwrap();
    let m = d.join("m1");
    let (code, out, err) = kanaszta(&["merge", s(&r), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1 games left out as partly written")
            && err.contains("series 0 game 11 in")
            && err.contains("0 of its 2 matches.csv rows"),
        "{err}"
    );
    assert!(out.contains("merged 1 directories: 11 games"), "{out}");
    assert!(out.contains("INCOMPLETE: 11 of the 12 games"), "{out}");
    let run = read(&m.join("run.json"));
    assert!(
        run.contains("\"complete\": false") && run.contains("\"games_done\": 11"),
        "{run}"
    );
    let (h, rows) = table(&m.join("hands.csv"));
    let game = col(&h, "game");
    assert!(rows.iter().all(|r| r[game] != "11"), "game 11 kept");
    assert_eq!(table(&m.join("matches.csv")).1.len(), 22);

    // A hands run that lost the second row of a game's pair of rows in the
    // middle, and ends in a row cut short: both games are left out, and
    // the agents' hand counts agree.
    let r = d.join("hands");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "20",
        "--seed",
        "3",
        "-q",
        "--out",
        s(&r),
    ]);
    let path = r.join("hands.csv");
    let text = read(&path);
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 41);
    let second = lines.iter().position(|l| l.starts_with("0,7,")).unwrap() + 1;
    assert!(lines[second].starts_with("0,7,"));
    lines.remove(second);
    let mut cut = lines.join("\n");
    cut.truncate(cut.len() - 30);
    std::fs::write(&path, cut).unwrap();
    let m = d.join("m2");
    let (code, out, err) = kanaszta(&["merge", s(&r), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("2 games left out as partly written")
            && err.contains("series 0 game 7 in")
            && err.contains("series 0 game 19 in")
            && err.contains("1 of its 2 hands.csv rows"),
        "{err}"
    );
    assert!(out.contains("INCOMPLETE: 18 of the 20 games"), "{out}");
    let (h, rows) = table(&m.join("hands.csv"));
    assert_eq!(rows.len(), 36);
    let agent = col(&h, "agent");
    let greedy = rows.iter().filter(|r| r[agent] == "greedy").count();
    assert_eq!(greedy, 18, "the agents' hand counts differ");
    assert!(read(&m.join("run.json")).contains("\"games_done\": 18"));
}

#[test]
fn ratings_count_the_same_games_of_runs_of_one_seed_once() {
    let d = tmp("ratings-same-seed");
    let (short, long) = (d.join("d200"), d.join("d400"));
    for (dir, n) in [(&short, "200"), (&long, "400")] {
        ok(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--hands",
            n,
            "--seed",
            "1",
            "-q",
            "--out",
            s(dir),
        ]);
    }
    let alone = ok(&["ratings", s(&long)]);
    for args in [[s(&short), s(&long)], [s(&long), s(&short)]] {
        let (code, out, err) = kanaszta(&["ratings", args[0], args[1]]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("d200 (shard 0/1, 200 hands) holds games also in")
                && err.contains("200 and 400 hands: game N of either is the same game")
                && err.contains("counted once"),
            "{err}"
        );
        assert!(out.contains("of 400") && !out.contains("of 600"), "{out}");
        assert_eq!(out, alone);
    }
    // Another seed plays other games: both count.
    let other = d.join("seed2");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "200",
        "--seed",
        "2",
        "-q",
        "--out",
        s(&other),
    ]);
    let (code, out, err) = kanaszta(&["ratings", s(&long), s(&other)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("of 600") && !err.contains("counted once"),
        "{out}\n{err}"
    );
}

#[test]
fn ratings_of_a_run_still_being_written_say_so() {
    let d = tmp("ratings-live");
    let child = start_long_run(&d, &[]);
    let (code, out, err) = kanaszta(&["ratings", s(&d)]);
    signal(&child, "TERM");
    finish(child);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("a run is still writing there")
            && err.contains(".lock")
            && err.contains("the ratings will change"),
        "{err}"
    );
    assert!(out.contains("greedy"), "{out}");
    // Stopped, it says it is incomplete.
    let (code, _, err) = kanaszta(&["ratings", s(&d)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("run.json says the run is incomplete")
            && err.contains("of its 50000000 games"),
        "{err}"
    );
}
