//! Scripted games through the session's lines, in-process.

use super::save::SaveError;
use super::*;
use kanaszta_agents::RulesAgent;
use kanaszta_engine::Phase;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kanaszta-human-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn config(vs: &str, seed: u64) -> Config {
    Config {
        vs: vs.parse().unwrap(),
        hint: "ismcts:iters=40".parse().unwrap(),
        seat: 0,
        name: "human".into(),
        seed,
        is_match: false,
        rated: false,
        pace: Pace::None,
        style: Style::default(),
        rules: Rules::default(),
        position: None,
        out: None,
    }
}

/// The person's move as the `rules` agent would choose it from his view,
/// typed in notation.
fn rules_line(s: &Session, brain: &mut RulesAgent, rng: &mut Pcg64Mcg) -> String {
    let g = s.state();
    let mut buf = MoveBuf::new();
    let a = brain.act(&g.view(s.seat()), &mut g.moves(&mut buf), rng);
    a.to_string()
}

/// Plays the session to its end with `choose` giving each line; the
/// whole transcript.
fn play_out(s: &mut Session, mut choose: impl FnMut(&Session) -> String) -> String {
    let mut out = String::new();
    s.start(&mut out);
    for _ in 0..20_000 {
        match s.waiting() {
            Await::Done => return out,
            Await::Continue { .. } => s.input("", &mut out),
            Await::Move => {
                let line = choose(s);
                out.push_str(&format!("> {line}\n"));
                s.input(&line, &mut out);
            }
        }
    }
    panic!(
        "the game did not end:\n{}",
        &out[out.len().saturating_sub(3000)..]
    );
}

fn hand_over(out: &str) {
    assert!(out.contains("=== the hand is over: "), "{out}");
    assert!(out.contains("P0 you: base "), "{out}");
    assert!(
        out.contains("P1 ") && out.contains("tax (D-15): P0 you"),
        "{out}"
    );
}

/// A whole hand against `random`, the person's moves typed in notation
/// (the `rules` agent's choices from his view): it ends with every hand,
/// the scores (D-14) and the tax (D-15); the CSV gets two rows in the
/// columns of `kanaszta play`.
#[test]
fn a_hand_against_random_in_notation() {
    let dir = tmp("random");
    let mut cfg = config("random", 5);
    cfg.out = Some(dir.clone());
    let mut s = Session::new(cfg).unwrap();
    let mut brain = RulesAgent::default();
    let mut rng = seat_rng(1, 0);
    brain.restart();
    let out = play_out(&mut s, |s| rules_line(s, &mut brain, &mut rng));
    hand_over(&out);
    assert!(!out.contains("illegal"), "{out}");
    assert_eq!(s.exit_code(), 0);
    let csv = std::fs::read_to_string(dir.join("hands.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], HandRow::header().join(","));
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].contains(",human,random,") && lines[2].contains(",random,human,"));
}

/// A whole hand against `rules`, moves chosen by number (always the last
/// listed: a pickup or a discard where there is one).
#[test]
fn a_hand_against_rules_by_number() {
    let mut s = Session::new(config("rules", 11)).unwrap();
    let out = play_out(&mut s, |s| s.listed().len().to_string());
    hand_over(&out);
    assert!(!out.contains("no move"), "{out}");
}

/// A position: P0 to draw, opened, the pile frozen by a black three
/// (D-6.3); the opponent holds `theirs`, the stock is shuffled by `seed`.
fn frozen_position(theirs: &str, seed: u64) -> String {
    format!(
        r#"{{"phase": "draw", "current": 0, "seed": {seed},
 "players": [{{"hand": "8D 8S 2C 5H QS QD 7C", "table": {{"groups": ["KC KD KH"], "opened": true}}}},
             {{"hand": "{theirs}"}}],
 "pile": "9C 8H 3S"}}"#
    )
}

/// An illegal typed move gets the engine's rule message and the same
/// prompt again; a bad number or an unknown word says what is accepted.
#[test]
fn illegal_input_gets_the_rule_and_the_prompt_again() {
    let mut cfg = config("random", 1);
    cfg.position = Some(frozen_position("4C 5D 9S 7H 7D", 3));
    let mut s = Session::new(cfg).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    let before = s.state().clone();
    for (line, want) in [
        (
            "take",
            "illegal: take: D-6.3: the pile is frozen by a black three",
        ),
        ("discard 8D", "illegal: discard 8D: "),
        ("0", "no move 0: the moves are numbered 1 to "),
        ("lay 8Z", "bad action `lay 8Z`"),
        ("fly", "unknown command `fly`: type a move number"),
    ] {
        out.clear();
        s.input(line, &mut out);
        assert!(out.contains(want), "{line}: {out}");
        assert_eq!(s.waiting(), Await::Move, "{line}");
        assert_eq!(s.state(), &before, "{line}");
    }
    out.clear();
    s.input("help", &mut out);
    assert!(
        out.contains("hint [AGENT]") && out.contains("undo"),
        "{out}"
    );
}

/// `reset` undoes the meld phase back to its start (I-25).
#[test]
fn reset_undoes_the_meld_phase() {
    let mut cfg = config("random", 1);
    cfg.position = Some(frozen_position("4C 5D 9S 7H 7D", 3));
    let mut s = Session::new(cfg).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    s.input("draw", &mut out);
    assert_eq!(s.state().phase(), Phase::Meld);
    let drawn = s.state().clone();
    s.input("extend 0 2C", &mut out);
    assert!(!out.contains("illegal"), "{out}");
    assert_ne!(s.state().hand(0), drawn.hand(0));
    out.clear();
    s.input("reset", &mut out);
    assert!(out.contains("you: reset"), "{out}");
    assert_eq!(s.state().hand(0), drawn.hand(0));
    assert_eq!(s.state().table(0), drawn.table(0));
}

/// `hint` names the agent's move and, for a search agent, its options
/// with their values; `hint rules` asks another agent.
#[test]
fn hint_shows_the_search_and_its_values() {
    let mut s = Session::new(config("random", 2)).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    out.clear();
    s.input("hint", &mut out);
    assert!(out.contains("ismcts:iters=40 would play: "), "{out}");
    assert!(
        out.contains("playouts") && out.contains("<- played"),
        "{out}"
    );
    out.clear();
    s.input("hint rules", &mut out);
    assert!(out.contains("rules would play: "), "{out}");
    out.clear();
    s.input("hint nobody", &mut out);
    assert!(
        out.contains("hint: ") && out.contains("random, greedy"),
        "{out}"
    );
    assert_eq!(s.waiting(), Await::Move);
}

/// The person's view only: two games that differ only in hidden cards
/// (the opponent's hand, the stock's order) show the same screen, the
/// same moves and the same hint, up to the person's draw.
#[test]
fn no_peeking_at_hidden_cards() {
    let run = |theirs: &str, seed: u64| {
        let mut cfg = config("rules", 9);
        cfg.position = Some(frozen_position(theirs, seed));
        let mut s = Session::new(cfg).unwrap();
        let mut out = String::new();
        s.start(&mut out);
        for line in ["board", "moves", "hint", "hint pimc:worlds=8", "help"] {
            s.input(line, &mut out);
        }
        (out, s)
    };
    let (a, mut sa) = run("4C 5D 9S 7H 7D", 3);
    let (b, mut sb) = run("4C 5D 9S 7H JK", 4);
    assert_ne!(sa.state().hand(1), sb.state().hand(1));
    assert_ne!(sa.state().stock(), sb.state().stock());
    assert_eq!(a, b);
    // The draw then shows the drawn card, which differs.
    let (mut da, mut db) = (String::new(), String::new());
    sa.input("draw", &mut da);
    sb.input("draw", &mut db);
    assert_ne!(da, db);
}

/// `save` writes the game; `--resume` plays it again to the same point,
/// and from there the two go on alike.
#[test]
fn save_and_resume() {
    let dir = tmp("save");
    let mut cfg = config("rules", 4);
    cfg.is_match = true;
    cfg.out = Some(dir.clone());
    let mut s = Session::new(cfg.clone()).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    let mut brain = RulesAgent::default();
    let mut rng = seat_rng(3, 0);
    for _ in 0..25 {
        let line = rules_line(&s, &mut brain, &mut rng);
        s.input(&line, &mut out);
    }
    out.clear();
    s.input("save", &mut out);
    assert!(out.contains("saved to "), "{out}");
    // The message tells how to resume into the same directory.
    let resume = format!(
        "kanaszta human --resume {} --out {}`",
        dir.join("save.json").display(),
        dir.display()
    );
    assert!(out.contains(&resume), "{resume} not in {out}");
    let text = std::fs::read_to_string(dir.join("save.json")).unwrap();
    assert!(dir.join("save.position.json").exists() && dir.join("save.log.json").exists());
    let save = SaveFile::from_json(&text).unwrap();
    // The resumed session writes where the first one does, so a hand that
    // ends in the steps compared is reported alike by both.
    let mut again = config("random", 99);
    again.out = Some(dir.clone());
    let mut r = Session::resume(&save, again).unwrap();
    let mut rout = String::new();
    r.start(&mut rout);
    assert!(!r.diverged);
    assert_eq!(r.state(), s.state());
    for _ in 0..25 {
        let line = rules_line(&s, &mut brain, &mut rng);
        let (mut o1, mut o2) = (String::new(), String::new());
        s.input(&line, &mut o1);
        r.input(&line, &mut o2);
        assert_eq!(o1, o2);
    }
    // The end of the input saves too, and says so with a non-zero status.
    out.clear();
    assert_eq!(s.end_of_input(&mut out), 1);
    assert!(out.contains("input ended before the end of the game") && out.contains("saved to"));
    let bad = SaveFile::from_json(&text.replace("kanaszta-human/1", "other/9")).unwrap_err();
    assert!(
        matches!(&bad, SaveError::Format(f) if f == "other/9"),
        "{bad:?}"
    );
    let bad = bad.to_string();
    assert!(bad.contains("expected \"kanaszta-human/1\""), "{bad}");
}

/// `undo` takes back the person's last whole turn (practice only).
#[test]
fn undo_takes_back_a_turn() {
    let mut s = Session::new(config("random", 6)).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    let at_start = s.state().clone();
    let mut brain = RulesAgent::default();
    let mut rng = seat_rng(3, 0);
    let start_turns = s.state().turns();
    while s.state().turns() == start_turns || s.state().current_player() != 0 {
        let line = rules_line(&s, &mut brain, &mut rng);
        s.input(&line, &mut out);
    }
    out.clear();
    s.input("undo", &mut out);
    assert!(out.contains("undone"), "{out}");
    assert_eq!(s.state(), &at_start);
    let mut cfg = config("random", 6);
    cfg.rated = true;
    let mut s = Session::new(cfg).unwrap();
    s.start(&mut out);
    out.clear();
    s.input("undo", &mut out);
    s.input("hint", &mut out);
    assert!(out.contains("undo is off in a rated game"), "{out}");
    assert!(out.contains("hints are off in a rated game"), "{out}");
}

/// A match with the tax (D-15): brackets low enough to be crossed in a
/// few hands; a hand scored in a bracket is taxed, the screen names the
/// bracket, and the match ends past the target (D-16).
#[test]
fn a_match_crossing_a_tax_bracket() {
    let dir = tmp("match");
    let mut cfg = config("random", 8);
    cfg.is_match = true;
    cfg.out = Some(dir.clone());
    cfg.rules
        .apply_settings(["tax_schedule=500:2,1500:4", "target=2500"])
        .unwrap();
    let mut s = Session::new(cfg).unwrap();
    let mut brain = RulesAgent::default();
    let mut rng = seat_rng(2, 0);
    let out = play_out(&mut s, |s| rules_line(s, &mut brain, &mut rng));
    assert!(out.contains("=== the match is over after "), "{out}");
    assert!(out.contains("hands halved from 500 (D-15)"), "{out}");
    assert!(out.contains(" is taxed at a total of "), "{out}");
    let csv = std::fs::read_to_string(dir.join("hands.csv")).unwrap();
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let (raw, taxed, mode) = (col("raw"), col("taxed"), col("mode"));
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert!(rows.len() >= 4 && rows.iter().all(|x| &x[mode] == "matches"));
    assert!(rows.iter().any(|x| x[raw] != x[taxed]), "{csv}");
}

/// Suits as symbols (and colour) in a terminal, letters with `--plain`;
/// typed symbols are read as the notation's letters.
#[test]
fn cards_in_symbols_or_letters() {
    let c: kanaszta_engine::Card = "TD".parse().unwrap();
    let uni = Style {
        unicode: true,
        color: false,
    };
    assert_eq!(uni.card(c), "10♦");
    assert_eq!(Style::default().card(c), "TD");
    let col = Style {
        unicode: true,
        color: true,
    };
    assert_eq!(col.card(c), "\x1b[31m10♦\x1b[0m");
    assert_eq!(screen::normalize_input("lay 8♦ 8♠ 2♣"), "lay 8D 8S 2C");
    assert_eq!(
        screen::normalize_input("discard 10♥")
            .parse::<Action>()
            .ok(),
        "discard TH".parse().ok()
    );
}

/// At a pace that waits after the agent's turns, Enter goes on, and a
/// move typed at the pause is played once it is the person's turn.
#[test]
fn the_pace_waits_and_a_typed_move_goes_on() {
    let mut cfg = config("random", 4);
    cfg.pace = Pace::Turn;
    let mut s = Session::new(cfg).unwrap();
    let mut out = String::new();
    s.start(&mut out);
    while s.waiting() != Await::Move {
        assert_eq!(s.waiting(), Await::Continue { next_hand: false });
        assert_eq!(s.prompt(), "[Enter] > ");
        s.input("", &mut out);
    }
    let turns = s.state().turns();
    let mut brain = RulesAgent::default();
    let mut rng = seat_rng(3, 0);
    // Play to the end of the person's turn, then type a move at the pause.
    while s.waiting() == Await::Move {
        let line = rules_line(&s, &mut brain, &mut rng);
        s.input(&line, &mut out);
    }
    assert_eq!(s.waiting(), Await::Continue { next_hand: false }, "{out}");
    out.clear();
    s.input("draw", &mut out);
    assert!(
        out.contains("  you: draw from the stock: you get "),
        "{out}"
    );
    assert!(s.state().turns() >= turns + 2);
}

/// A classic game of the person against `rules`, without files.
fn classic(players: u8, seat: usize, seed: u64) -> classic::ClassicSession {
    let mut rules = kanaszta_engine::classic::ClassicRules::preset("classic-004").unwrap();
    rules.set("players", &players.to_string()).unwrap();
    classic::ClassicSession::new(classic::ClassicConfig {
        vs: "rules".parse().unwrap(),
        hint: "greedy".parse().unwrap(),
        seat,
        name: "human".into(),
        seed,
        is_match: false,
        rated: false,
        rules,
        position: None,
        out: None,
    })
    .unwrap()
}

/// `undo` in a classic game goes back to the start of the person's last
/// turn with the agents as they were then (their generators and memory):
/// the screen of that turn is shown again, and the same moves lead to the
/// same screens, the agents' moves included — with partners too, where
/// the person answers his partner's "may I go out?" (C-18).
#[test]
fn classic_undo_goes_back_to_the_turn_with_the_agents_as_they_were() {
    for (players, seat, seed) in [(2, 0, 9), (4, 1, 5)] {
        let mut s = classic(players, seat, seed);
        let mut screens = vec![String::new()];
        s.start(&mut screens[0]);
        for _ in 0..25 {
            assert_eq!(s.waiting(), Await::Move, "{}", screens.concat());
            let mut o = String::new();
            s.input("1", &mut o);
            screens.push(o);
        }
        let mut o = String::new();
        s.input("undo", &mut o);
        let (head, board) = o.split_once('\n').unwrap();
        assert!(head.starts_with("undone: back to turn "), "{o}");
        let k = screens
            .iter()
            .rposition(|sc| sc.ends_with(board))
            .unwrap_or_else(|| panic!("no earlier screen ends with\n{board}"));
        assert!(k + 1 < screens.len(), "a move was undone");
        for want in &screens[k + 1..] {
            let mut o = String::new();
            s.input("1", &mut o);
            assert_eq!(&o, want);
        }
    }
}
