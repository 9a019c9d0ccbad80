//! `legal`, `check`, `score`, `apply` and `replay` on classic canasta: the
//! family is read from the position, actions are in classic notation,
//! errors name the field and the C- rule, and a replayed game scores as
//! the run's rows say.

mod common;

use common::{col, kanaszta, ok, read, refused, s, table, tmp};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The classic examples of sim/POSITIONS.md, by phase.
fn example(phase: &str) -> String {
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("POSITIONS.md"));
    doc.split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().to_string())
        .find(|b| {
            b.contains("\"family\": \"classic\"") && b.contains(&format!("\"phase\": \"{phase}\""))
        })
        .unwrap_or_else(|| panic!("a classic {phase} example"))
}

fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn legal_lists_classic_actions_without_a_flag() {
    let d = tmp("cpos-legal");
    let draw = file(&d, "draw.json", &example("draw"));
    assert_eq!(ok(&["legal", s(&draw)]), "draw\n");
    let answer = file(&d, "answer.json", &example("answer"));
    assert_eq!(ok(&["legal", s(&answer)]), "yes\n");
    let meld = file(&d, "meld.json", &example("meld"));
    let out = ok(&["legal", s(&meld)]);
    assert!(out.lines().any(|l| l == "rest"), "{out}");
    let over = file(&d, "over.json", &example("over"));
    assert!(ok(&["legal", s(&over)]).contains("the hand is over"));
    // From standard input too.
    let mut child = Command::new(common::BIN)
        .args(["legal", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(example("meld").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("rest"));
}

#[test]
fn check_names_the_rule_of_an_illegal_action() {
    let d = tmp("cpos-check");
    let meld = file(&d, "meld.json", &example("meld"));
    let (code, out, _) = kanaszta(&["check", s(&meld), "rest"]);
    assert_eq!((code, out.as_str()), (0, "legal: rest\n"));
    // The rest of the pile first (C-14).
    let (code, out, _) = kanaszta(&["check", s(&meld), "discard 4"]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("C-14"), "{out}");
    // 004: "no" only if the partner could lay cards (C-18).
    let answer = file(&d, "answer.json", &example("answer"));
    let (code, out, _) = kanaszta(&["check", s(&answer), "no"]);
    assert_eq!(code, 3);
    assert!(out.contains("C-18"), "{out}");
    // A bad action says what the notation is.
    refused(
        &["check", s(&meld), "lay 8D 8S 2C"],
        &["bad action", "lay KEY N T J"],
    );
}

#[test]
fn score_gives_each_sides_items() {
    let d = tmp("cpos-score");
    let over = file(&d, "over.json", &example("over"));
    let out = ok(&["score", s(&over)]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("side,players,red_threes,red_three_points,canastas_natural"));
    // C-5 natural canasta 500, C-8 two red threes 200, C-10 going out 100.
    assert_eq!(
        lines[2],
        "1,1 3,2,200,1,0,0,500,1,false,100,220,-15,0,0,1005,2450,3455"
    );
    assert_eq!(
        lines[1],
        "0,0 2,1,100,0,1,0,300,,false,0,90,-85,1,-100,305,1200,1505"
    );
    // Before the end: as if it ended now.
    let draw = file(&d, "draw.json", &example("draw"));
    assert!(ok(&["score", s(&draw)]).starts_with("the hand is not over"));
}

#[test]
fn apply_prints_the_position_after_the_actions() {
    let d = tmp("cpos-apply");
    let meld = file(&d, "meld.json", &example("meld"));
    let (code, out, err) = kanaszta(&["apply", s(&meld), "rest", "discard 6"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1/2 rest") && err.contains("2/2 discard 6"),
        "{err}"
    );
    assert!(
        out.contains("\"family\": \"classic\"") && out.contains("\"phase\": \"draw\""),
        "{out}"
    );
    // What it prints loads again, and takes the next actions.
    let next = file(&d, "next.json", &out);
    let legal = ok(&["legal", s(&next)]);
    assert!(legal.lines().any(|l| l == "draw"), "{legal}");
    // A partner's question and answer, then the draw, under --seed.
    let answer = example("answer")
        .replace("  \"turn\": {\"asked\": true}\n", "")
        .replace("\"phase\": \"answer\"", "\"phase\": \"draw\"");
    let answer = answer.replace("\"pile\": \"4D AC 5S\",", "\"pile\": \"4D AC 5S\"");
    let a = file(&d, "ask.json", &answer);
    let (code, out, err) = kanaszta(&["apply", "--seed", "3", s(&a), "ask", "yes", "draw"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("answers yes"), "{err}");
    assert!(out.contains("\"answer\": true"), "{out}");
    // The first illegal action stops with the rule, exit 3.
    let (code, out, err) = kanaszta(&["apply", s(&meld), "discard 4", "rest"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("illegal") && err.contains("C-14") && err.contains("stopped at action 1"),
        "{err}"
    );
    assert!(out.contains("\"rest_pending\": true"), "{out}");
    // The end of a hand: the score follows the position.
    let over = file(&d, "over.json", &example("over"));
    let (code, _, err) = kanaszta(&["apply", s(&over), "draw"]);
    assert_eq!(code, 3);
    assert!(err.contains("C-11"), "{err}");
}

#[test]
fn bad_classic_positions_are_refused_with_the_field_and_rule() {
    let d = tmp("cpos-bad");
    let draw = example("draw");
    let cases = [
        // The wrong number of cards (C-1).
        (
            draw.replace("\"4C 4D 5H", "\"AC AC 4C 4D 5H"),
            vec!["C-1", "AC"],
        ),
        // An illegal meld under 002 (C-4).
        (
            draw.replace("\"AC AD AH 2C\"", "\"AC 2D 2H 2C\""),
            vec!["sides[0].melds[0]", "C-4"],
        ),
        // An unknown field.
        (
            draw.replace("\"turns\": 4", "\"turns\": 4, \"trun\": 1"),
            vec!["unknown field `trun`"],
        ),
        // Players against the rules (C-2).
        (
            draw.replace(
                "\"rules\": \"classic-002\"",
                "\"rules\": {\"preset\": \"classic-002\", \"players\": 4}",
            ),
            vec!["C-2"],
        ),
        // Not JSON.
        (
            "{\"family\": \"classic\", \"phase\": ".to_string(),
            vec!["bad position JSON"],
        ),
        // Cut short, the family named only by a classic preset: the JSON's
        // fault is told, not that the preset is not a decorated one.
        (
            draw.replace("\"family\": \"classic\",", "")[..80].to_string(),
            vec!["bad position JSON", "EOF while parsing"],
        ),
    ];
    for (i, (text, needles)) in cases.iter().enumerate() {
        let p = file(&d, &format!("bad{i}.json"), text);
        for cmd in [
            vec!["legal"],
            vec!["score"],
            vec!["check", "", "draw"],
            vec!["apply", "", "draw"],
        ] {
            let mut args: Vec<&str> = cmd.clone();
            if args.len() > 1 {
                args[1] = s(&p);
            } else {
                args.push(s(&p));
            }
            refused(&args, needles);
        }
    }
}

#[test]
fn replay_prints_a_classic_game_that_scores_as_its_rows() {
    replay_scores_as_rows("rules", "cpos-replay");
}

/// A side of mixed players (C-20: seat 0 rules, seat 2 greedy) replays
/// with each seat's own player.
#[test]
fn replay_of_mixed_sides_scores_as_its_rows() {
    replay_scores_as_rows("rules+greedy", "cpos-replay-mixed");
}

fn replay_scores_as_rows(a: &str, tag: &str) {
    let d = tmp(tag);
    let out = d.join("run");
    ok(&[
        "play",
        "--rules",
        "classic-002",
        "--set",
        "players=4",
        "--a",
        a,
        "--b",
        "greedy",
        "--hands",
        "4",
        "--seed",
        "7",
        "--out",
        s(&out),
        "-q",
    ]);
    let (h, rows) = table(&out.join("hands.csv"));
    for game in 0..4u64 {
        let text = ok(&["replay", "--run", s(&out), "--game", &game.to_string()]);
        assert!(
            text.contains("P0 (side 0)") && text.contains("score (C-23)"),
            "{text}"
        );
        let total = text
            .lines()
            .find(|l| l.trim_start().starts_with("= total"))
            .unwrap();
        let got: Vec<i64> = total
            .split_whitespace()
            .skip(2)
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(got.len(), 2, "{total}");
        for (side, &got) in got.iter().enumerate() {
            let raw: i64 = rows
                .iter()
                .find(|r| {
                    r[col(&h, "game")] == game.to_string() && r[col(&h, "side")] == side.to_string()
                })
                .map(|r| r[col(&h, "raw")].parse().unwrap())
                .unwrap();
            assert_eq!(got, raw, "game {game} side {side}:\n{text}");
        }
    }
    // The same game from the flags, as the run's play command gave them.
    let from_run = ok(&["replay", "--run", s(&out), "--game", "3"]);
    let from_flags = ok(&[
        "replay",
        "--rules",
        "classic-002",
        "--set",
        "players=4",
        "--a",
        a,
        "--b",
        "greedy",
        "--seed",
        "7",
        "--game",
        "3",
    ]);
    assert_eq!(
        from_run.lines().skip(1).collect::<Vec<_>>(),
        from_flags.lines().skip(1).collect::<Vec<_>>()
    );
    refused(
        &["replay", "--run", s(&out), "--game", "9"],
        &["games 0 to 3"],
    );
    refused(
        &["replay", "--run", s(&out), "--game", "0", "--hand", "2"],
        &["hand 0"],
    );
}
