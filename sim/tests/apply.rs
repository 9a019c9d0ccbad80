//! `kanaszta apply`: actions applied to a position, the position they lead
//! to, and where the hand ended its score.

mod common;

use common::{kanaszta, s, tmp};
use kanaszta_engine::{GameState, HandEnd};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn position(dir: &str, json: &str) -> PathBuf {
    let p = tmp(dir).join("p.json");
    std::fs::write(&p, json).unwrap();
    p
}

/// The position printed first on stdout (the rest: more positions with
/// `--each`, or the score).
fn positions(out: &str) -> Vec<GameState> {
    let mut v = Vec::new();
    let mut rest = out;
    while rest.trim_start().starts_with('{') {
        let mut it = serde_json::Deserializer::from_str(rest).into_iter::<serde_json::Value>();
        let Some(Ok(_)) = it.next() else { break };
        let end = it.byte_offset();
        v.push(GameState::from_position_json(&rest[..end]).unwrap());
        rest = &rest[end..];
    }
    v
}

fn run_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    let mut c = Command::new(common::BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = c.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Player 0 to draw, holding a 9C on a fresh pile topped by the 9C.
const TWIN: &str = r#"{"phase":"draw","seed":3,"turns":4,
  "players":[{"hand":"8D 8S 2C 9C","table":{"groups":["KC KD KH"]}},{"hand":"4C 5D"}],
  "pile":"7H 9C"}"#;

/// D-7: discarding the card on top of a fresh pile receives a twin.
#[test]
fn apply_shows_a_twin_received_d7() {
    let p = position("apply-twin", TWIN);
    let (code, out, err) = kanaszta(&["apply", s(&p), "draw", "discard 9C"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("2/2 discard 9C: player 0 received a twin (D-7)"),
        "{err}"
    );
    let g = &positions(&out)[0];
    assert_eq!(g.table(0).twins, 1);
    assert_eq!(g.current_player(), 1);
    assert_eq!(g.pile().len(), 3);
}

/// D-6.1: a player's free pickup is offered once; drawing instead uses it
/// up, and so does taking it.
#[test]
fn apply_shows_a_free_pickup_used_up_d6_1() {
    let json = r#"{"phase":"draw","current":1,"turns":1,
      "players":[{"hand":"4C 7D KH"},{"hand":"5C 8H TD 9H","free_pending":true}],
      "pile":"9C"}"#;
    let p = position("apply-free", json);
    for (act, free) in [("draw", 0), ("free", 1)] {
        let (code, out, err) = kanaszta(&["apply", s(&p), act]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("player 1's free pickup (D-6.1) is used up"),
            "{act}: {err}"
        );
        let g = &positions(&out)[0];
        assert!(!g.free_pickup_pending(1));
        assert_eq!(g.stats(1).free_pickups, free);
    }
}

/// D-13.1, D-14.1: laying a canasta in the opening turn and discarding the
/// last card goes out from hand; the hand's score follows the position.
#[test]
fn apply_goes_out_from_hand_and_scores_d14_1() {
    let json = r#"{"phase":"meld","turns":6,
      "players":[{"hand":"KC KD KS KH KC KD KH 4C"},{"hand":"5C 8H"}],
      "pile":"9S"}"#;
    let p = position("apply-out", json);
    let (code, out, err) = kanaszta(&["apply", s(&p), "lay KC KD KS KH KC KD KH", "discard 4C"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("player 0 went out (D-13), from hand (D-14.1)"),
        "{err}"
    );
    let g = &positions(&out)[0];
    assert!(matches!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    ));
    // The score is `kanaszta score`'s breakdown of the same position.
    let saved = tmp("apply-out-score").join("over.json");
    std::fs::write(&saved, g.to_position_json()).unwrap();
    let (code, score, err) = kanaszta(&["score", s(&saved)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(&score), "{out}\n--- score:\n{score}");
    let row0 = score.lines().find(|l| l.starts_with("0,")).unwrap();
    let cols: Vec<&str> = row0.split(',').collect();
    assert_eq!(cols[5], "100", "going out: {row0}");
    assert_eq!(cols[6], "100", "from hand: {row0}");
    assert_eq!(cols[7], "0", "cleared table: {row0}");
}

/// An illegal action mid-sequence stops there, naming the rule (D-6.3: a
/// black three on the pile freezes it), with exit status 3 and the
/// position before it on stdout.
#[test]
fn apply_stops_at_an_illegal_action_naming_the_rule_d6_3() {
    let json = r#"{"phase":"first_discard","seed":1,
      "players":[{"hand":"3S 4C 7D KH"},{"hand":"5C 8H TD 8D","free_pending":false}]}"#;
    let p = position("apply-illegal", json);
    let (code, out, err) = kanaszta(&["apply", s(&p), "discard 3S", "take", "draw"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("2/3 take: illegal: D-6.3: "), "{err}");
    assert!(err.contains("stopped at action 2 of 3: 1 applied"), "{err}");
    let g = &positions(&out)[0];
    assert_eq!(g.current_player(), 1);
    assert_eq!(g.pile_top().map(|c| c.to_string()), Some("3S".to_string()));
    assert!(!err.contains("internal error"), "{err}");
    // With --each: the positions after the actions applied, each once.
    let (code, each, _) = kanaszta(&["apply", "--each", s(&p), "discard 3S", "take", "draw"]);
    assert_eq!(code, 3);
    assert_eq!(positions(&each).len(), 1, "{each}");
    assert_eq!(&positions(&each)[0], g);
    let (code, none, _) = kanaszta(&["apply", "--each", s(&p), "take"]);
    assert_eq!(code, 3);
    assert_eq!(
        positions(&none).len(),
        1,
        "the position given, when nothing applied"
    );
}

/// D-3: keeping cut cards deals the hand; apply shows every hand dealt.
#[test]
fn apply_shows_the_deal_after_the_cut_d3() {
    let p = position("apply-cut", r#"{"phase":"cut","starter":1,"seed":42}"#);
    let (code, out, err) = kanaszta(&["apply", s(&p), "keep 100"]);
    assert_eq!(code, 0, "{err}");
    let g = &positions(&out)[0];
    assert_eq!(g.current_player(), 1);
    for q in 0..2 {
        assert!(
            err.contains(&format!("player {q} holds [{}]", g.hand(q))),
            "{err}"
        );
    }
}

/// `--seed` fixes the stock a position leaves out: the same seed, the same
/// draw; another seed, another stock. A position with its own generator
/// refuses it.
#[test]
fn apply_seed_is_deterministic() {
    let json = r#"{"phase":"draw","players":[{"hand":"4C 7D KH"},{"hand":"5C 8H"}],"pile":"9C"}"#;
    let p = position("apply-seed", json);
    let run = |seed: &str| kanaszta(&["apply", "--seed", seed, s(&p), "draw"]);
    let (c1, a, e1) = run("5");
    let (c2, b, _) = run("5");
    let (_, other, _) = run("6");
    assert_eq!((c1, c2), (0, 0), "{e1}");
    assert_eq!(a, b, "same seed, same result");
    assert_ne!(a, other, "another seed, another stock");
    // The stock given is drawn in its order, whatever the seed.
    let with_seed = position("apply-seed-own", TWIN);
    let (code, _, err) = kanaszta(&["apply", "--seed", "5", s(&with_seed), "draw"]);
    assert_eq!(code, 1);
    assert!(err.contains("fixes its generator with `seed`"), "{err}");
}

/// The printed positions load again, in every position command, and give
/// back the same text: after each action with `--each`, from stdin too.
#[test]
fn apply_output_round_trips() {
    let (code, out, err) = run_stdin(&["apply", "--each", "-", "draw", "discard 9C"], TWIN);
    assert_eq!(code, 0, "{err}");
    let gs = positions(&out);
    assert_eq!(gs.len(), 2, "--each prints one position per action");
    let last = gs[1].to_position_json();
    assert!(out.ends_with(&last));
    assert_eq!(GameState::from_position_json(&last).unwrap(), gs[1]);
    // Every position command reads it.
    for args in [
        vec!["legal", "-"],
        vec!["score", "-"],
        vec!["check", "-", "draw"],
    ] {
        let (code, _, err) = run_stdin(&args, &last);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    // Applying the rest to the first gives the second.
    let (code, again, err) = run_stdin(&["apply", "-", "discard 9C"], &gs[0].to_position_json());
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, last);
    // --save writes the position alone.
    let f = tmp("apply-save").join("after.json");
    let (code, _, err) = run_stdin(&["apply", "-", "draw", "--save", s(&f)], TWIN);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        gs[0].to_position_json()
    );
}

/// Bad input is a clear error with status 1, never a panic.
#[test]
fn apply_refuses_bad_input_clearly() {
    let p = position("apply-bad", TWIN);
    let cases: [(&[&str], Option<&str>, &str); 5] = [
        (
            &["apply", s(&p), "draw", "tkae"],
            None,
            "action 2 of 2 `tkae`",
        ),
        (
            &["apply", s(&p), "lay", "8D", "8S"],
            None,
            "each action is one argument",
        ),
        (
            &["apply", "-", "draw"],
            Some(r#"{"phase": "draw", "players": ["#),
            "bad position JSON",
        ),
        (
            &["apply", "-", "draw"],
            Some(r#"{"phase": "dance"}"#),
            "unknown variant `dance`",
        ),
        (&["apply", s(&p)], None, "<ACTION>"),
    ];
    for (args, stdin, want) in cases {
        let (code, out, err) = match stdin {
            Some(text) => run_stdin(args, text),
            None => kanaszta(args),
        };
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: nothing applied: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(
            !err.contains("internal error") && !err.contains("panicked"),
            "{err}"
        );
    }
    // The accepted actions are listed.
    let (_, _, err) = kanaszta(&["apply", s(&p), "tkae"]);
    assert!(err.contains("actions are: keep 101, draw"), "{err}");
}

/// D-5.3, I-4: drawing the last card of the stock shuffles the pile into a
/// new stock, by the position's generator; apply says so.
#[test]
fn apply_shows_a_reshuffle_d5_3() {
    let g = GameState::from_position_json(TWIN).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&g.to_position_json()).unwrap();
    let stock: Vec<String> = v["stock"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let (rest, last) = stock.split_at(stock.len() - 1);
    let pile = format!("{} {}", rest.join(" "), v["pile"].as_str().unwrap());
    v["pile"] = pile.into();
    v["stock"] = last.join(" ").into();
    let p = position("apply-reshuffle", &v.to_string());
    let (code, out, err) = kanaszta(&["apply", s(&p), "draw"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the stock was reshuffled"), "{err}");
    let after = &positions(&out)[0];
    assert!(after.pile().is_empty());
    assert_eq!(after.stock().len(), stock.len() + 1);
    assert_eq!(after.hand(0).len(), 5);
    let (_, again, _) = kanaszta(&["apply", s(&p), "draw"]);
    assert_eq!(
        out, again,
        "the generator of the position decides the shuffle"
    );
}

/// `score` refuses an end record that cannot be, naming the rule: a
/// from-hand bonus for a player who had opened before his turn (D-14.1),
/// a cleared table without a penalized pickup (D-14.2).
#[test]
fn score_refuses_an_impossible_end_record_d14() {
    let over = |end: &str, turn: &str| {
        format!(
            r#"{{"phase":"over","turns":9,"end":{end},{turn}
              "players":[{{"table":{{"groups":["KC KD KS KH KC KD 2H"]}}}},{{"hand":"9S"}}],"pile":"TC"}}"#
        )
    };
    let cases = [
        (
            over(
                r#"{"kind":"went_out","player":0,"from_hand":true,"cleared_table":false}"#,
                r#""turn":{"opened_at_start":true},"#,
            ),
            "D-14.1",
        ),
        (
            over(
                r#"{"kind":"went_out","player":0,"from_hand":true,"cleared_table":true}"#,
                "",
            ),
            "D-14.2",
        ),
        (over(r#"{"kind":"stalled"}"#, ""), "I-5"),
    ];
    for (json, rule) in cases {
        let (code, out, err) = run_stdin(&["score", "-"], &json);
        assert_eq!(code, 1, "{json}: {out}");
        assert!(err.contains(rule), "{rule}: {err}");
    }
    let ok = over(
        r#"{"kind":"went_out","player":0,"from_hand":true,"cleared_table":false}"#,
        "",
    );
    let (code, out, err) = run_stdin(&["score", "-"], &ok);
    assert_eq!(code, 0, "{err}");
    let row0 = out.lines().find(|l| l.starts_with("0,")).unwrap();
    assert_eq!(row0.split(',').nth(6), Some("100"), "from hand: {row0}");
}
