//! `kanaszta human --lines` through a pipe, as a script drives it.

mod common;

use common::{col, kanaszta, read, s, table, tmp, BIN};
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

/// `n` lines `1`: always the first listed move.
fn firsts(n: usize) -> String {
    "1\n".repeat(n)
}

/// A classic game at the terminal appends each finished hand to
/// hands.csv in the columns of `kanaszta play --rules classic-002`, one
/// row per seat (C-23's score by part): the person under his name, the
/// agent under its spec; a second game into the same directory adds its
/// rows under the same header. A match of four players in partnerships
/// (C-20) writes four rows a hand, the person's side (seats 1 and 3)
/// named `human+greedy`.
#[test]
fn classic_hands_csv_has_the_play_columns_and_a_row_per_seat() {
    let dir = tmp("human-classic-csv");
    let run = dir.join("play");
    let (c, _, e) = kanaszta(&[
        "play",
        "--rules",
        "classic-002",
        "--a",
        "rules",
        "--b",
        "rules",
        "--hands",
        "2",
        "-q",
        "--out",
        s(&run),
    ]);
    assert_eq!(c, 0, "{e}");
    let (play_h, _) = table(&run.join("hands.csv"));
    let one = dir.join("one");
    for round in 1..=2 {
        let (code, out, err) = human(
            &[
                "--lines",
                "--rules",
                "classic-002",
                "--seed",
                "3",
                "--out",
                s(&one),
            ],
            &firsts(3000),
        );
        assert_eq!(code, 0, "{err}\n{out}");
        assert!(
            out.contains(&format!(
                "the hand's rows are appended to {}",
                one.join("hands.csv").display()
            )),
            "{out}"
        );
        let (h, rows) = table(&one.join("hands.csv"));
        assert_eq!(h, play_h);
        assert_eq!(rows.len(), 2 * round);
        let agent = col(&h, "agent");
        let seat = col(&h, "seat");
        let opponent = col(&h, "opponent");
        for r in &rows {
            let (who, other) = if r[seat] == "0" {
                ("human", "rules")
            } else {
                ("rules", "human")
            };
            assert_eq!((r[agent].as_str(), r[opponent].as_str()), (who, other));
        }
        // The two seats' rows add up to one hand: its end and the
        // actions played are the same, each side's total follows (C-23).
        let last = &rows[rows.len() - 2..];
        for name in ["end", "actions", "turns", "hand_winner", "rule_preset"] {
            let c = col(&h, name);
            assert_eq!(last[0][c], last[1][c], "{name}");
        }
        let (raw, after) = (col(&h, "raw"), col(&h, "total_after"));
        assert!(last.iter().all(|r| r[raw] == r[after]), "{last:?}");
    }
    let four = dir.join("four");
    let (code, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-004",
            "--set",
            "players=4",
            "--match",
            "--vs",
            "greedy",
            "--seat",
            "1",
            "--seed",
            "5",
            "--out",
            s(&four),
        ],
        &firsts(5000),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    let hands = out.matches("the hand's rows are appended").count();
    assert!(hands >= 1, "{out}");
    let (h, rows) = table(&four.join("hands.csv"));
    assert_eq!(rows.len(), 4 * hands);
    let (side_agents, mode, hand) = (col(&h, "side_agents"), col(&h, "mode"), col(&h, "hand"));
    assert_eq!(rows[0][side_agents], "greedy");
    assert_eq!(rows[1][side_agents], "human+greedy");
    assert!(rows.iter().all(|r| r[mode] == "matches"));
    assert_eq!(rows.last().unwrap()[hand], (hands - 1).to_string());
}

/// `undo` in a classic game goes back to the start of the person's last
/// turn: the board and the same legal list are printed again, and the
/// hand goes on from there; a rated game refuses it.
#[test]
fn classic_undo_restores_the_previous_decision_and_is_refused_when_rated() {
    let dir = tmp("human-classic-undo");
    let game = [
        "--lines",
        "--rules",
        "classic-002",
        "--seed",
        "3",
        "--out",
        s(&dir),
    ];
    // The moves listed up to the prompt, from `at` on.
    let list_at = |out: &str, at: usize| -> String {
        let i = at + out[at..].find("your moves:").unwrap();
        let j = i + out[i..].find("> ").unwrap();
        out[i..j].to_string()
    };
    let (code, out, err) = human(&game, "undo\n1\n1\nundo\n");
    assert_eq!(code, 1, "{err}\n{out}");
    assert!(
        out.contains("> undo\nnothing to undo in this hand\n"),
        "{out}"
    );
    let first = list_at(&out, 0);
    let undone = out.find("undone: back to turn ").expect("undone");
    assert_eq!(list_at(&out, undone), first);
    // After the undo the game goes on as before it: the same move again
    // leads to the same list.
    let (_, again, _) = human(&game, "1\nundo\n1\n");
    let (_, straight, _) = human(&game, "1\n");
    let after = |o: &str| list_at(o, o.rfind("P0 you: draw").unwrap());
    assert_eq!(after(&again), after(&straight));
    let (code, out, err) = human(
        &game.iter().copied().chain(["--rated"]).collect::<Vec<_>>(),
        "1\nundo\n",
    );
    assert_eq!(code, 1, "{err}\n{out}");
    assert!(out.contains("rated (no undo, no hints)"), "{out}");
    assert!(
        out.contains("> undo\nundo is off in a rated game (practice games allow it)\n"),
        "{out}"
    );
}

/// The "answer" position of sim/POSITIONS.md: classic-004 in
/// partnerships, the person's partner asked "may I go out?" and under
/// `ask = compulsory` the person may answer only yes (C-18). `--position`
/// plays the hand from there, under the position's rules, to its end;
/// its rows follow; saved and resumed, it ends the same. A finished position and a decorated position under
/// `--rules classic-…` are refused, saying why.
#[test]
fn c18_a_classic_position_is_played_from_where_it_stands() {
    let dir = tmp("human-classic-position");
    let pos = dir.join("answer.json");
    std::fs::write(
        &pos,
        r#"{
  "family": "classic",
  "rules": {"preset": "classic-004", "players": 4},
  "phase": "answer",
  "dealer": 1,
  "mover": 2,
  "turns": 30,
  "players": [
    {"hand": "5C 5D 9H"},
    {"hand": "4S 6D 8C TC JD QS"},
    {"hand": "KC KD 8S"},
    {"hand": "6H 6S 8D 9C JC"}
  ],
  "sides": [
    {"melds": ["7C 7D 7H 7H 7S 7S 2C", "KH KS 2H"], "red_threes": "3D"},
    {"melds": ["QC QD QH"]}
  ],
  "pile": "4D AC 5S",
  "turn": {"asked": true}
}"#,
    )
    .unwrap();
    let (code, out, err) = human(
        &[
            "--lines",
            "--position",
            s(&pos),
            "--vs",
            "rules",
            "--seed",
            "1",
            "--out",
            s(&dir),
        ],
        &firsts(3000),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(
        out.starts_with(
            "kanaszta human: you (P0) against rules (P1, P2, P3), one hand from a position, \
             seed 1, classic-004, 4 players"
        ),
        "{out}"
    );
    assert!(
        out.contains("turn 31, P0 (side 0) to play (answer)"),
        "{out}"
    );
    assert!(out.contains("your moves:\n    1  yes\n> 1\n"), "{out}");
    assert!(out.contains("P0 (side 0) you: yes"), "{out}");
    assert!(out.contains("score (C-23)"), "{out}");
    let (h, rows) = table(&dir.join("hands.csv"));
    assert_eq!(rows.len(), 4);
    let turns = col(&h, "turns");
    assert!(rows.iter().all(|r| r[turns].parse::<u32>().unwrap() > 30));
    // Stopped, the game from the position is saved with it, and resumed
    // it plays on to the same end.
    let part = dir.join("part");
    let (code, out, err) = human(
        &[
            "--lines",
            "--position",
            s(&pos),
            "--vs",
            "rules",
            "--seed",
            "1",
            "--out",
            s(&part),
        ],
        &firsts(3),
    );
    assert_eq!(code, 1, "{err}\n{out}");
    let save = part.join("save.json");
    assert!(read(&save).contains("\"position\": {"), "{}", read(&save));
    let (code, again, err) = human(
        &["--lines", "--resume", s(&save), "--out", s(&part)],
        &firsts(3000),
    );
    assert_eq!(code, 0, "{err}\n{again}");
    let (_, resumed) = table(&part.join("hands.csv"));
    assert_eq!(resumed, rows);
    // A hand that is over has nothing to play.
    let over = dir.join("over.json");
    std::fs::write(
        &over,
        r#"{
  "family": "classic",
  "rules": {"preset": "classic-002", "players": 4},
  "phase": "over",
  "dealer": 0,
  "mover": 1,
  "turns": 41,
  "totals": [1200, 2450],
  "players": [{"hand": "5D 9C JK"}, {"hand": ""}, {"hand": "4H 4S QD"}, {"hand": "6C 8H"}],
  "sides": [
    {"melds": ["KC KD KH KS KS 2C 2D"], "red_threes": "3H", "failed_yes": 1},
    {
      "melds": ["AC AD AD AH AH AS AS", "9D 9H 9S 2H", "TC TD TS"],
      "red_threes": "3D 3D"
    }
  ],
  "pile": "7C QC",
  "end": {"kind": "went_out", "player": 1, "concealed": false}
}"#,
    )
    .unwrap();
    let (code, _, err) = human(&["--lines", "--position", s(&over)], "");
    assert_eq!(code, 1);
    assert!(err.contains("the hand is over"), "{err}");
    // A decorated position is not played as classic canasta.
    let dec = dir.join("dec.json");
    std::fs::write(&dec, FROZEN).unwrap();
    let (code, _, err) = human(
        &["--lines", "--rules", "classic-002", "--position", s(&dec)],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("a decorated canasta position") && err.contains("\"family\": \"classic\""),
        "{err}"
    );
    // --rules or --set that would change a classic position's own rules
    // are refused, not silently left out; its own preset is accepted.
    for args in [
        vec!["--rules", "classic-003"],
        vec!["--rules", "classic-004", "--set", "target=3000"],
        vec!["--set", "opening=90"],
    ] {
        let mut all = vec!["--lines", "--position", s(&pos)];
        all.extend(args.iter().copied());
        let (code, _, err) = human(&all, "");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("plays under its own rules") && err.contains(args[1]),
            "{args:?}: {err}"
        );
    }
    let (code, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-004",
            "--set",
            "players=4",
            "--position",
            s(&pos),
            "--seed",
            "1",
            "--out",
            s(&dir.join("same-rules")),
        ],
        &firsts(3000),
    );
    assert_eq!(code, 0, "{err}\n{out}");
}

/// A classic save writes the side files a decorated one does: the
/// position in play with every hidden card, which `legal` and `check`
/// read, and the hand so far as a classic game log, which `replay --log`
/// reads; the log's actions applied to its start lead to that position.
#[test]
fn a_classic_save_writes_a_position_and_a_log_that_check_and_replay_read() {
    let dir = tmp("human-classic-sides");
    let (code, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-002",
            "--seed",
            "3",
            "--out",
            s(&dir),
        ],
        &firsts(2),
    );
    assert_eq!(code, 1, "{err}\n{out}");
    let (pos, log) = (dir.join("save.position.json"), dir.join("save.log.json"));
    assert!(
        out.contains(&format!(
            "({} holds the position with every hidden card, {} the hand's game log)",
            pos.display(),
            log.display()
        )),
        "{out}"
    );
    // The person's first listed move where the game was saved.
    let listed = out.rfind("your moves:\n").expect("a list of moves");
    let first = out[listed..].lines().nth(1).unwrap();
    let first = first.trim_start().split_once("  ").unwrap().1.trim();
    let (code, legal, err) = kanaszta(&["legal", s(&pos)]);
    assert_eq!(code, 0, "{err}");
    assert!(legal.contains(first), "{first}\n{legal}");
    let (code, _, err) = kanaszta(&["check", s(&pos), first]);
    assert_eq!(code, 0, "{first}: {err}");
    let (code, _, err) = kanaszta(&["check", s(&pos), "draw"]);
    assert_eq!(code, 3, "draw is not legal in the meld phase: {err}");
    let (code, replayed, err) = kanaszta(&["replay", "--log", s(&log)]);
    assert_eq!(code, 0, "{err}");
    assert!(replayed.contains("draw"), "{replayed}");
    let v: serde_json::Value = serde_json::from_str(&read(&log)).unwrap();
    assert_eq!(v["format"], "kanaszta-classic-log");
    let start = dir.join("start.json");
    std::fs::write(&start, v["start"].to_string()).unwrap();
    let actions: Vec<&str> = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(actions.len(), 2, "{actions:?}");
    let mut args = vec!["apply", s(&start)];
    args.extend(&actions);
    let (code, applied, err) = kanaszta(&args);
    assert_eq!(code, 0, "{err}");
    let at: serde_json::Value = serde_json::from_str(&applied).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&read(&pos)).unwrap();
    assert_eq!(at, saved);
    // Saved elsewhere, the game is resumed with the --out of its rows.
    let other = dir.join("elsewhere").join("x.json");
    let (_, out, err) = human(
        &[
            "--lines",
            "--rules",
            "classic-002",
            "--seed",
            "3",
            "--out",
            s(&dir),
        ],
        &format!("1\nsave {}\nquit\n", other.display()),
    );
    assert!(
        out.contains(&format!(
            "resume with `kanaszta human --resume {} --out {}`",
            other.display(),
            dir.display()
        )),
        "{err}\n{out}"
    );
    assert!(dir.join("elsewhere").join("x.position.json").exists());
    assert!(dir.join("elsewhere").join("x.log.json").exists());
}
