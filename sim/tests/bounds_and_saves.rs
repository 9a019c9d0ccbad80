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
    assert!(
        !err.contains("panicked") && err.contains("players"),
        "{err}"
    );
}

/// Runs `kanaszta human --lines ARGS` with `input` written to its
/// standard input by a thread; (status, stdout, stderr, bytes the thread
/// could write before the command stopped reading).
fn human_fed(args: &[&str], input: Vec<u8>) -> (i32, String, String, usize) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(BIN)
        .args(["human", "--lines"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        for chunk in input.chunks(64 * 1024) {
            if stdin.write_all(chunk).is_err() {
                break;
            }
            written += chunk.len();
        }
        written
    });
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        written,
    )
}

/// Input without line breaks (`< /dev/zero`) is read a bounded line at a
/// time and, past 1 MiB without a break, no further: the game is saved as
/// at the end of the input and the command exits 1. It used to read the
/// whole "line" into memory (1.3 GB in 20 s from /dev/zero).
#[test]
fn human_stops_reading_input_without_line_breaks() {
    let d = tmp("human-zero");
    let total = 64 << 20;
    let (code, out, err, written) = human_fed(&["--seed", "3", "--out", s(&d)], vec![0u8; total]);
    assert_eq!(code, 1, "{err}\n{out}");
    assert!(
        out.contains("the input holds more than 1 MiB without a line break"),
        "{out}"
    );
    // It stopped reading: the writer met a closed pipe long before the end.
    assert!(written < 8 << 20, "{written} of {total} bytes were read");
    assert!(d.join("save.json").exists(), "{out}");
    // A long line that does end is skipped, and the game goes on.
    let mut input = vec![b'x'; 100_000];
    input.extend_from_slice(b"\nquit\n");
    let (code, out, err, _) = human_fed(&["--seed", "3", "--out", s(&d)], input);
    assert!(code == 0 || code == 1, "{err}");
    assert!(
        out.contains("a line of more than 4096 bytes is not a move"),
        "{out}"
    );
}

/// Binary input is echoed and quoted escaped, never as raw bytes (a
/// terminal would obey the escapes).
#[test]
fn human_escapes_binary_input_in_its_echo_and_messages() {
    let d = tmp("human-binary");
    let (_, out, err, _) = human_fed(
        &["--seed", "3", "--out", s(&d)],
        b"\x00\x01\xff\x1b[31mzz\nquit\n".to_vec(),
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !out.contains('\x1b') && !out.contains('\0') && !out.contains('\u{1}'),
        "{out:?}"
    );
    assert!(
        out.contains("unknown command `\\u{0}\\u{1}\\xFF\\u{1b}[31mzz`"),
        "{out}"
    );
}

/// `human` stopped by SIGINT, SIGTERM or SIGHUP mid-game saves the game
/// (it used to end at once, losing it) and exits 128 + the signal; the
/// message names `--out`, so that resuming as told appends the hand's rows
/// beside the earlier ones.
#[test]
fn human_saves_the_game_on_a_signal() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    for (sig, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let d = tmp(&format!("human-sig{sig}"));
        let mut child = Command::new(BIN)
            .args(["human", "--lines", "--vs", "random", "--seed", "3", "--out"])
            .arg(&d)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Standard input stays open: the game waits for the first move.
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("\n> ") {
            let n = stdout.read(&mut buf).unwrap();
            assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..n]);
        }
        let st = Command::new("kill")
            .args([&format!("-{sig}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success());
        stdout.read_to_end(&mut seen).unwrap();
        let code = child.wait().unwrap().code();
        drop(stdin);
        let out = String::from_utf8_lossy(&seen).into_owned();
        assert_eq!(code, Some(status), "{out}");
        assert!(
            out.contains(&format!("SIG{sig}: the game is stopped")),
            "{out}"
        );
        let save = d.join("save.json");
        assert!(
            out.contains(&format!(
                "resume with `kanaszta human --resume {} --out {}`",
                save.display(),
                d.display()
            )),
            "{out}"
        );
        // Resumed as told, the game plays on and its rows land in --out.
        let (code, out, err, _) = human_fed(
            &["--resume", s(&save), "--out", s(&d)],
            "1\n".repeat(3000).into_bytes(),
        );
        assert_eq!(code, 0, "{err}\n{out}");
        let (_, rows) = table(&d.join("hands.csv"));
        assert_eq!(rows.len(), 2);
    }
}

/// An `--out` that cannot take the game's rows or its save is refused
/// before the game starts, naming what is in the way; it used to be found
/// at the end of the hand, with a warning and exit 0, the hand's rows
/// lost.
#[test]
fn human_refuses_an_unwritable_out_before_the_game() {
    let d = tmp("human-out");
    let check = |out: &std::path::Path, needle: &str| {
        let (code, sout, err, _) = human_fed(&["--seed", "3", "--out", s(out)], b"1\n".to_vec());
        assert_eq!(code, 1, "{err}\n{sout}");
        assert!(
            err.contains(needle) && err.contains("give another --out"),
            "{err}"
        );
        assert!(
            !sout.contains("kanaszta human: you"),
            "the game started: {sout}"
        );
    };
    let dir_csv = d.join("dir");
    std::fs::create_dir_all(dir_csv.join("hands.csv")).unwrap();
    check(&dir_csv, "hands.csv is a directory");
    let foreign = d.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("hands.csv"), "name,score\nann,3\n").unwrap();
    check(
        &foreign,
        "hands.csv has other columns than kanaszta play's hands.csv",
    );
    assert_eq!(read(&foreign.join("hands.csv")), "name,score\nann,3\n");
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    check(&file, "cannot create the directory");
    let save_dir = d.join("save-dir");
    std::fs::create_dir_all(save_dir.join("save.json")).unwrap();
    check(&save_dir, "save.json is a directory");
    // A read-only directory, where this user cannot write (root can).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = d.join("read-only");
        std::fs::create_dir_all(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        if std::fs::write(ro.join("probe"), "x").is_err() {
            check(&ro, "cannot write there");
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// `human --position` of a finished hand is refused (it appended a hand
/// of no actions, won, that `ratings` counted); a person's name that is
/// an agent's is refused (`ratings` merged the person into the agent).
#[test]
fn human_refuses_a_finished_position_and_an_agents_name() {
    let d = tmp("human-refusals");
    let p = d.join("over.json");
    std::fs::write(
        &p,
        r#"{"phase":"over","end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
            "totals":[6000,0],
            "players":[{"table":{"groups":["8C 8C 8D 8D 8H 8H 8S","AC AD AS"],"opened":true}},
                       {"hand":"JC JD"}]}"#,
    )
    .unwrap();
    let out = d.join("out");
    let (code, sout, err, _) = human_fed(&["--position", s(&p), "--out", s(&out)], b"1\n".to_vec());
    assert_eq!(code, 1, "{err}\n{sout}");
    assert!(
        err.contains("the hand is over") && err.contains("give a position of a hand in play"),
        "{err}"
    );
    assert!(!out.join("hands.csv").exists());
    for name in ["rules", "Greedy", "ismcts:iterations=50"] {
        let (code, sout, err, _) = human_fed(
            &["--name", name, "--seed", "3", "--out", s(&out)],
            b"1\n".to_vec(),
        );
        assert_eq!(code, 1, "{err}\n{sout}");
        assert!(
            err.contains("is an agent's name") && err.contains("e.g. --name human"),
            "{err}"
        );
    }
    assert!(!out.join("hands.csv").exists());
    // Another name plays.
    let (code, _, err, _) = human_fed(
        &[
            "--name",
            "ann",
            "--vs",
            "random",
            "--seed",
            "3",
            "--out",
            s(&out),
        ],
        "1\n".repeat(3000).into_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let (h, rows) = table(&out.join("hands.csv"));
    assert!(
        rows.iter().any(|r| r[col(&h, "agent")] == "ann"),
        "{rows:?}"
    );
}

/// `play --out DIR` where DIR holds files of a run's names that no run
/// wrote (no run.json of a run beside them) is refused before playing,
/// naming them, and leaves them be; it used to delete the user's own
/// ratings.csv, sweep.csv or matches.csv. An earlier run's files are
/// still replaced.
#[test]
fn a_run_never_deletes_files_no_run_wrote() {
    let d = tmp("foreign-files");
    let play = |dir: &std::path::Path| {
        kanaszta(&[
            "play",
            "--a",
            "greedy",
            "--b",
            "random",
            "--hands",
            "4",
            "-q",
            "--out",
            s(dir),
        ])
    };
    for f in ["ratings.csv", "sweep.csv", "matches.csv"] {
        let dir = d.join(f);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(f), "my,own\n1,2\n").unwrap();
        let (code, _, err) = play(&dir);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!(
                "holds {f} and there is no run.json of a kanaszta run"
            )) && err.contains("give another --out")
                && err.contains("move those files away"),
            "{err}"
        );
        assert_eq!(read(&dir.join(f)), "my,own\n1,2\n");
        assert!(!dir.join("hands.csv").exists() && !dir.join(".lock").exists());
    }
    // A run.json that no run wrote does not vouch for them.
    let dir = d.join("ratings.csv");
    std::fs::write(dir.join("run.json"), "{\"mine\": true}\n").unwrap();
    let (code, _, err) = play(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("its run.json is not one a kanaszta run wrote"),
        "{err}"
    );
    assert_eq!(read(&dir.join("ratings.csv")), "my,own\n1,2\n");
    // An earlier run's directory is replaced, as before.
    let run = d.join("run");
    let (code, _, err) = play(&run);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = play(&run);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("replacing the earlier run there"), "{err}");
}

/// `sweep` counts its settings before building them and refuses more than
/// 1,000, saying the limit and the count; a million settings used to grow
/// past 1.25 GB with no output and no message.
#[test]
fn sweep_refuses_more_settings_than_its_limit() {
    let d = tmp("sweep-limit");
    let values = |lo: u32, hi: u32| {
        (lo..=hi)
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let opening = format!("opening={}", values(0, 999));
    let target = format!("target={}", values(1, 1000));
    let out = d.join("million");
    let (code, _, err) = kanaszta(&[
        "sweep",
        "--vary",
        &opening,
        "--vary",
        &target,
        "--hands",
        "2",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--vary gives 1000000 settings (1000 of opening × 1000 of target)")
            && err.contains("a sweep plays at most 1000 settings"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
    // One more than the limit is refused; the limit itself plays.
    let over = format!("opening={}", values(0, 1000));
    let (code, _, err) = kanaszta(&["sweep", "--vary", &over, "--hands", "2", "--out", s(&out)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1001 settings (1001 of opening)"), "{err}");
    let (code, _, err) = kanaszta(&[
        "sweep",
        "--vary",
        &target,
        "--hands",
        "2",
        "--threads",
        "1",
        "-q",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, rows) = table(&out.join("sweep.csv"));
    assert_eq!(rows.len(), 1000);
}
