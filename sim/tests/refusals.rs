//! The refusals of `play --sprt`, `tune`, `apply` and `human`, as listed
//! in sim/FAULTS.md: each bad input exits with status 1 (an illegal
//! action in `apply`: 3), says what was wrong and what is accepted, and
//! never panics; nothing is written for it.

mod common;

use common::*;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    s(&p).to_string()
}

/// Every case of `cases` refused; `base` goes before each case's words.
fn all_refused(base: &[&str], cases: &[(&[&str], &[&str])]) {
    for (words, needles) in cases {
        let mut args = base.to_vec();
        args.extend_from_slice(words);
        refused(&args, needles);
    }
}

const POSITION: &str = r#"{"phase": "draw", "current": 0, "players": [{"hand": "8D 8S 2C 5H"}, {"hand": "4C 5D 9S"}], "pile": "9C 8H 3S"}"#;

#[test]
fn play_sprt_refusals_name_the_bounds_and_what_is_accepted() {
    let d = tmp("refuse-sprt");
    let out = s(&d);
    all_refused(
        &["play", "--hands", "40", "-q", "--out", out],
        &[
            (
                &["--sprt", "0"],
                &["H0 0, H1 0", "H1 must be above H0", "--sprt 50"],
            ),
            (&["--sprt", "-5"], &["H0 0, H1 -5", "H1 must be above H0"]),
            (
                &["--sprt-h0", "10", "--sprt-h1", "5"],
                &["H0 10, H1 5", "H1 must be above H0"],
            ),
            (&["--sprt", "inf"], &["--sprt-h1 inf", "a finite number"]),
            (&["--sprt", "NaN"], &["--sprt-h1 NaN", "a finite number"]),
            (
                &["--sprt", "abc"],
                &["'abc'", "--sprt", "expected a number, e.g. 50"],
            ),
            (
                &["--sprt", "50", "--sprt-min-deals", "-1"],
                &["'-1'", "--sprt-min-deals", "a whole number of deals"],
            ),
            (
                &["--sprt", "50", "--sprt-alpha", "0"],
                &["--sprt-alpha 0", "strictly between 0 and 1", "0.05"],
            ),
            (
                &["--sprt", "50", "--sprt-alpha", "1.5"],
                &["--sprt-alpha 1.5", "strictly between 0 and 1"],
            ),
            (
                &["--sprt", "50", "--sprt-beta", "NaN"],
                &["--sprt-beta NaN", "strictly between 0 and 1"],
            ),
            (
                &["--sprt", "50", "--sprt-alpha", "0.5", "--sprt-beta", "0.6"],
                &["their sum must be below 1"],
            ),
            (
                &["--sprt", "50", "--sprt-h1", "60"],
                &["either --sprt X", "not both"],
            ),
            (
                &["--sprt-alpha", "0.1"],
                &["--sprt-alpha sets up a sequential test", "--sprt X"],
            ),
            (
                &["--sprt-h0", "10"],
                &["--sprt-h0 sets up a sequential test"],
            ),
            (
                &["--sprt-metric", "wins", "--sprt", "0.6"],
                &["H0 0.5, H1 1.1", "a hand-win share lies in 0..1"],
            ),
            (
                &[
                    "--sprt-metric",
                    "wins",
                    "--sprt-h0",
                    "-0.1",
                    "--sprt-h1",
                    "0.6",
                ],
                &["a hand-win share lies in 0..1"],
            ),
            (
                &["--sprt-metric", "elo", "--sprt", "5"],
                &["unknown SPRT metric `elo`", "points", "wins"],
            ),
            (
                &["--sprt", "50", "--sprt-min-deals", "0"],
                &["--sprt-min-deals 0", "at least 2"],
            ),
            (&["--sprt", "50", "--unpaired"], &["drop --unpaired"]),
            (&["--sprt", "50", "--shard", "0/2"], &["drop --shard"]),
        ],
    );
    assert!(!d.join("hands.csv").exists(), "nothing written");
}

#[test]
fn tune_refusals_name_what_is_accepted() {
    let d = tmp("refuse-tune");
    let out = s(&d);
    let spec = |agent: &'static str, param: &'static str, vs: &'static str| {
        vec![
            "tune", "--agent", agent, "--param", param, "--vs", vs, "--out", out, "--quiet",
        ]
    };
    refused(
        &spec("greedy", "pile", ""),
        &["--vs", "at least one opponent"],
    );
    refused(&spec("greedy", "pile", ",,"), &["at least one opponent"]);
    refused(
        &spec("greedy", "pile", "greedy:pile=abc"),
        &["bad value `abc`", "a number from 1 to 112"],
    );
    refused(
        &spec("greedy:pile=500", "pile", "random"),
        &["bad value `500`", "a number from 1 to 112"],
    );
    refused(
        &spec("greedy", "", "random"),
        &["no parameter named", "KEY=LO..HI", "pile (1..112)"],
    );
    refused(
        &spec("greedy", "pile,,patience", "random"),
        &["no parameter named"],
    );
    refused(
        &spec("random", "pile", "random"),
        &["random has no parameter `pile`", "discard (0..1)"],
    );
    for bad in ["pile=abc..5", "pile=5", "pile=1..inf", "pile=NaN..5"] {
        let args = [
            "tune", "--agent", "greedy", "--param", bad, "--vs", "random", "--out", out,
        ];
        refused(&args, &[bad, "KEY=LO..HI", "declared range 1..112"]);
    }
    refused(
        &spec("ismcts:time=3", "iters", "random"),
        &["tune needs reproducible games", "time=0"],
    );
    refused(
        &spec("greedy", "pile", "ismcts:time=3"),
        &["tune needs reproducible games"],
    );
    let base = spec("greedy", "pile", "random");
    all_refused(
        &base,
        &[
            (&["--steps", "0"], &["at least 1 step of at least 2 hands"]),
            (&["--hands-per-step", "1"], &["at least 2 hands"]),
            (
                &["--steps", "-1"],
                &["'-1'", "--steps", "a whole number from 0"],
            ),
            (&["--seed", "x"], &["--seed", "a whole number from 0"]),
            (
                &["--perturb", "abc"],
                &[
                    "--perturb",
                    "a fraction of the parameters' ranges in (0, 1]",
                ],
            ),
            (&["--perturb", "0"], &["--perturb 0", "(0, 1]"]),
            (&["--perturb", "NaN"], &["--perturb NaN", "(0, 1]"]),
            (&["--step-size", "-0.5"], &["--step-size -0.5", "(0, 1]"]),
            (&["--threads", "5000"], &["--threads 5000", "at most 1024"]),
            (
                &["--set", "opening=-5"],
                &["bad value `-5` for `opening`", "0 to 1000"],
            ),
        ],
    );
    assert!(!d.join("trace.csv").exists(), "nothing written");
}

#[test]
fn apply_refuses_bad_positions_and_actions() {
    let d = tmp("refuse-apply");
    let pos = write(&d, "p.json", POSITION);
    let cut = write(&d, "cut.json", &POSITION[..POSITION.len() - 1]);
    let empty = write(&d, "empty.json", "");
    refused(&["apply", &cut, "draw"], &["cut.json", "bad position JSON"]);
    refused(
        &["apply", &empty, "draw"],
        &["a position is one JSON object", "the text is empty"],
    );
    refused(
        &["apply", s(&d.join("none.json")), "draw"],
        &["cannot read position", "none.json"],
    );
    let actions = "actions are: keep 101, draw";
    refused(
        &["apply", &pos, "fly away"],
        &["action 1 of 1 `fly away`", "unknown action", actions],
    );
    refused(
        &["apply", &pos, ""],
        &["action 1 of 1 ``", "empty", actions],
    );
    refused(
        &["apply", &pos, "draw", "discard ZZ"],
        &["action 2 of 2", "bad card `ZZ`", "a rank", actions],
    );
    refused(&["apply", &pos], &["<ACTION>"]);
    // An illegal action: status 3 (as `check`), the rule named, the
    // position before it printed.
    let (code, out, err) = kanaszta(&["apply", &pos, "discard 9C"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("illegal: D-5.1") && err.contains("stopped at action 1 of 1: 0 applied"),
        "{err}"
    );
    assert!(out.contains("\"phase\": \"draw\""), "{out}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn human_refuses_bad_opponents_saves_and_positions() {
    let d = tmp("refuse-human");
    let out = s(&d);
    let human = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["human", "--lines", "--out", out];
        args.extend_from_slice(extra);
        refused(&args, needles);
    };
    human(
        &["--vs", "zz"],
        &["unknown agent `zz`", "random, greedy, rules"],
    );
    human(
        &["--vs", "greedy:pile=abc"],
        &["bad value `abc`", "a number from 1 to 112"],
    );
    human(&["--seat", "5"], &["--seat 5", "0 or 1"]);
    let save_is = "a game saved by `save` in kanaszta human";
    let pos = write(&d, "p.json", POSITION);
    human(
        &["--resume", &pos],
        &["p.json", "a position, not a saved game", "--position FILE"],
    );
    let f = write(&d, "empty.json", "");
    human(&["--resume", &f], &["empty.json", "empty", save_is]);
    let f = write(&d, "cut.json", "{\"format\": ");
    human(&["--resume", &f], &["cut.json", "not JSON", save_is]);
    let f = write(&d, "arr.json", "[1]");
    human(&["--resume", &f], &["not a JSON object", save_is]);
    let f = write(&d, "x.json", "{\"x\": 1}");
    human(&["--resume", &f], &["no `format`", save_is]);
    let f = write(&d, "f3.json", "{\"format\": 3}");
    human(&["--resume", &f], &["format 3", "\"kanaszta-human/1\""]);
    let f = write(
        &d,
        "part.json",
        "{\"format\": \"kanaszta-human/1\", \"vs\": \"rules\"}",
    );
    human(&["--resume", &f], &["saved game", "missing field"]);
    human(
        &["--resume", s(&d.join("none.json"))],
        &["cannot read", "none.json"],
    );
    let f = write(&d, "badpos.json", &POSITION[..POSITION.len() - 1]);
    human(&["--position", &f], &["badpos.json", "bad position JSON"]);
    let three = POSITION.replace("]", ", {\"hand\": \"4H\"}]");
    let f = write(&d, "three.json", &three);
    human(&["--position", &f], &["three.json", "3 players", "D-2.1"]);
    assert!(!d.join("hands.csv").exists(), "nothing written");
}

/// A classic position of four players in partnerships, the person (P0)
/// to answer his partner's "may I go out?" (C-18): sim/POSITIONS.md's
/// "answer" position.
const CLASSIC_ANSWER: &str = r#"{
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
}"#;

/// A classic hand that is over: P1 went out.
const CLASSIC_OVER: &str = r#"{
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
    {"melds": ["AC AD AD AH AH AS AS", "9D 9H 9S 2H", "TC TD TS"], "red_threes": "3D 3D"}
  ],
  "pile": "7C QC",
  "end": {"kind": "went_out", "player": 1, "concealed": false}
}"#;

/// The refusals of a classic game from `--position`, one case a row of
/// sim/FAULTS.md: a seat the position lacks, a hand that is over, a
/// decorated position under classic rules, a position the classic rules
/// refuse (the file named), an agent's name; nothing is written.
#[test]
fn human_refuses_classic_positions_it_cannot_play() {
    let d = tmp("refuse-human-classic");
    let out = s(&d);
    let human = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["human", "--lines", "--out", out];
        args.extend_from_slice(extra);
        refused(&args, needles);
    };
    let answer = write(&d, "answer.json", CLASSIC_ANSWER);
    human(
        &["--position", &answer, "--seat", "4"],
        &["--seat 4", "with 4 players the seats are 0 to 3"],
    );
    let over = write(&d, "over.json", CLASSIC_OVER);
    human(
        &["--position", &over],
        &[
            "position: the hand is over",
            "nothing to play and no hand to record",
            "`kanaszta score FILE`",
        ],
    );
    let dec = write(&d, "dec.json", POSITION);
    human(
        &["--rules", "classic-002", "--position", &dec],
        &[
            "--position",
            "dec.json: a decorated canasta position, but --rules names classic canasta",
            "`\"family\": \"classic\"`",
            "leave --rules out",
        ],
    );
    let mover = write(
        &d,
        "mover.json",
        &CLASSIC_ANSWER.replace("\"mover\": 2", "\"mover\": 7"),
    );
    human(
        &["--position", &mover],
        &["mover.json", "player 7 does not exist", "0 to 3 (C-2)"],
    );
    human(
        &["--position", &answer, "--name", "rules"],
        &["--name rules", "an agent's name", "e.g. --name human"],
    );
    assert!(
        !d.join("hands.csv").exists() && !d.join("save.json").exists(),
        "nothing written"
    );
}
