//! `kanaszta human --lines` through a pipe, as a script drives it.

mod common;

use common::{kanaszta, s, table, tmp, BIN};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `kanaszta human` with `input` on standard input.
fn human(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .arg("human")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kanaszta human");
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before the script does: a closed pipe is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A whole hand through the pipe, always the first listed move: the end
/// of the hand with its scores and tax, exit 0, two rows appended to
/// hands.csv in the columns of `kanaszta play` — and two more for a
/// second game into the same directory. Plain text: no escapes, no suit
/// symbols.
#[test]
fn a_whole_hand_through_a_pipe() {
    let dir = tmp("human-pipe");
    let script = "1\n".repeat(3000);
    for round in 1..=2 {
        let (code, out, err) = human(
            &["--lines", "--vs", "random", "--seed", "3", "--out", s(&dir)],
            &script,
        );
        assert_eq!(code, 0, "{err}\n{out}");
        assert!(out.contains("=== the hand is over: "), "{out}");
        assert!(out.contains("tax (D-15): P0 you"), "{out}");
        assert!(!out.contains('\x1b') && !out.contains('♠'), "{out}");
        let (h, rows) = table(&dir.join("hands.csv"));
        let (play_h, _) = {
            let run = dir.join("play");
            let (c, _, e) = kanaszta(&[
                "play",
                "--a",
                "random",
                "--b",
                "random",
                "--hands",
                "2",
                "-q",
                "--out",
                s(&run),
            ]);
            assert_eq!(c, 0, "{e}");
            table(&run.join("hands.csv"))
        };
        assert_eq!(h, play_h);
        assert_eq!(rows.len(), 2 * round);
    }
    // The person's hands are rated like any run: from the directory, and
    // beside a run of kanaszta play.
    let (code, out, err) = kanaszta(&["ratings", s(&dir)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("human ") && out.contains("random "), "{out}");
    assert!(out.contains("of 2"), "two hands rated: {out}");
    let (code, out, err) = kanaszta(&["ratings", s(&dir), s(&dir.join("play"))]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("from 2 runs"), "{out}");
    // A hands.csv whose `won` cell is not a boolean is refused, by line.
    let bad = dir.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let text = std::fs::read_to_string(dir.join("hands.csv")).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let col = head.split(',').position(|c| c == "won").unwrap();
    let mut cells: Vec<&str> = rest.lines().next().unwrap().split(',').collect();
    cells[col] = "maybe";
    std::fs::write(
        bad.join("hands.csv"),
        format!("{head}\n{}\n", cells.join(",")),
    )
    .unwrap();
    let (code, _, err) = kanaszta(&["ratings", s(&bad)]);
    assert_ne!(code, 0);
    assert!(err.contains("line 2") && err.contains("`won`"), "{err}");
}

const FROZEN: &str = r#"{"phase": "draw", "current": 0, "seed": 3,
 "players": [{"hand": "8D 8S 2C 5H QS QD 7C", "table": {"groups": ["KC KD KH"], "opened": true}},
             {"hand": "4C 5D 9S 7H 7D"}],
 "pile": "9C 8H 3S"}"#;

/// An illegal move gets the rule's message and the prompt again; the end
/// of the input in the middle of the game saves it and exits 1; the saved
/// game resumes at the same screen.
#[test]
fn illegal_move_end_of_input_and_resume() {
    let dir = tmp("human-eof");
    let pos = dir.join("p.json");
    std::fs::write(&pos, FROZEN).unwrap();
    let (code, out, err) = human(
        &[
            "--lines",
            "--position",
            s(&pos),
            "--seed",
            "1",
            "--out",
            s(&dir),
        ],
        "take\nwhat\ndraw\n",
    );
    assert_eq!(code, 1, "{err}\n{out}");
    assert!(
        out.contains("> take\nillegal: take: D-6.3: the pile is frozen by a black three\n> "),
        "{out}"
    );
    assert!(out.contains("unknown command `what`"), "{out}");
    assert!(
        out.contains("input ended before the end of the game"),
        "{out}"
    );
    let save = dir.join("save.json");
    assert!(save.exists() && dir.join("save.position.json").exists());
    // The screen after the draw, as saved.
    let last_board = |o: &str| {
        let i = o.rfind("=== turn").unwrap();
        let j = o[i..].find("> ").unwrap();
        o[i..i + j].to_string()
    };
    let (code, again, err) = human(&["--lines", "--resume", s(&save), "--out", s(&dir)], "");
    assert_eq!(code, 1, "{err}\n{again}");
    assert_eq!(last_board(&out), last_board(&again));
    // A save file that is not one is refused with what is expected.
    std::fs::write(dir.join("bad.json"), "{\"format\": 3}").unwrap();
    let (code, _, err) = human(&["--lines", "--resume", s(&dir.join("bad.json"))], "");
    assert_eq!(code, 1);
    assert!(err.contains("bad.json"), "{err}");
}

/// Bad options are refused with what is accepted.
#[test]
fn bad_options_say_what_is_accepted() {
    let (code, _, err) = human(&["--lines", "--vs", "nobody"], "");
    assert_eq!(code, 1);
    assert!(err.contains("random, greedy, rules"), "{err}");
    let (code, _, err) = human(&["--lines", "--set", "players=3"], "");
    assert_eq!(code, 1);
    assert!(err.contains("players must be 2"), "{err}");
    let (code, _, err) = human(&["--lines", "--pace", "slow"], "");
    assert_eq!(code, 1);
    assert!(err.contains("none, turn or move"), "{err}");
}
