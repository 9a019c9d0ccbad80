//! Integration tests for RULES.md I-32, the dead lock, on constructed
//! positions (`Position`): a hand ends `deadlocked` once every player is
//! dead-locked, and not while one of them is only live-locked; the switch
//! `deadlock = play_on` plays on to the turn cap (I-5).

use kanaszta_engine::{Action, GameState, HandEnd, Phase, Position, Rules};
use serde_json::json;

fn a(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn act(g: &mut GameState, script: &str) {
    for s in script.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let p = g.current_player();
        if let Err(e) = g.apply(a(s)) {
            panic!("`{s}` refused: {e}\nhand [{}]", g.hand(p));
        }
    }
}

fn rules(settings: &[&str]) -> Rules {
    let mut r = Rules::default();
    r.apply_settings(settings.iter().copied()).unwrap();
    r
}

/// A position: `phase`, the mover, each player's hand and groups (laid in
/// earlier turns), the pile; the stock holds the rest of the pack.
fn position(
    r: &Rules,
    phase: &str,
    current: usize,
    players: &[(&str, &[&str])],
    pile: &str,
) -> serde_json::Value {
    let ps: Vec<serde_json::Value> = players
        .iter()
        .map(|(hand, groups)| {
            json!({
                "hand": hand,
                "free_pending": false,
                "table": {"groups": groups, "opened": !groups.is_empty()},
            })
        })
        .collect();
    json!({
        "seed": 3,
        "rules": r,
        "phase": phase,
        "starter": 0,
        "current": current,
        "turns": 20,
        "players": ps,
        "pile": pile,
    })
}

fn load(v: &serde_json::Value) -> GameState {
    let text = v.to_string();
    let g = Position::from_json(&text)
        .unwrap_or_else(|e| panic!("bad position: {e}\n{text}"))
        .to_state()
        .unwrap_or_else(|e| panic!("position refused: {e}\n{text}"));
    g.check_invariants().unwrap();
    g
}

fn load_err(v: &serde_json::Value) -> String {
    match Position::from_json(&v.to_string()).and_then(|p| p.to_state()) {
        Ok(_) => panic!("position accepted: {v}"),
        Err(e) => e.to_string(),
    }
}

/// Groups of three and five: one card never makes a canasta of them.
const DEAD_0: &[&str] = &["QC QD QH", "8C 8D 8H 8S 8C"];
const DEAD_1: &[&str] = &["KC KD KH", "9C 9D 9H 9S 9C"];

/// I-32: player 1 is dead-locked; player 0 discards down to one card with
/// a dead table: the hand ends `deadlocked`, with no further turn, scored
/// like an exhausted hand (I-30: cards in hand count minus, nobody went
/// out).
#[test]
fn i32_every_player_dead_locked_ends_the_hand() {
    let r = Rules::default();
    let mut g = load(&position(
        &r,
        "meld",
        0,
        &[("5C 6D", DEAD_0), ("7C", DEAD_1)],
        "4C",
    ));
    assert!(g.found_dead_locked(1), "a loaded position tests the others");
    assert!(
        !g.found_dead_locked(0),
        "the mover is tested at his discard"
    );
    act(&mut g, "discard 5C");
    assert_eq!(g.end(), Some(HandEnd::Deadlocked));
    assert_eq!(g.phase(), Phase::Over);
    assert!(g.found_dead_locked(0) && g.found_dead_locked(1));
    let s = g.scores();
    // Queens 30 + eights 50 = 80, the six of diamonds −5; no bonus.
    assert_eq!((s[0].melded, s[0].in_hand, s[0].total), (80, -5, 75));
    assert_eq!((s[1].melded, s[1].in_hand, s[1].total), (80, -5, 75));
    assert_eq!(s[0].base, 0);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.is_empty(), "no further turn");
}

/// I-32 `deadlock = play_on`: the same discard lets the hand go on; the
/// engine tests nobody, and the hand ends only at the turn cap (I-5).
#[test]
fn i32_play_on_keeps_the_hand_going_to_the_cap() {
    let r = rules(&["deadlock=play_on", "turn_cap=30"]);
    let mut g = load(&position(
        &r,
        "meld",
        0,
        &[("5C 6D", DEAD_0), ("7C", DEAD_1)],
        "4C",
    ));
    assert!(!g.found_dead_locked(1), "play_on marks nobody");
    assert!(g.dead_locked(1), "though player 1 is dead-locked");
    act(&mut g, "discard 5C");
    assert_eq!(g.end(), None);
    assert_eq!((g.phase(), g.current_player()), (Phase::Draw, 1));
    // Both can only draw and discard; the cap ends the hand stalled.
    let mut legal = Vec::new();
    while !g.is_terminal() {
        g.legal_actions(&mut legal);
        let pick = legal
            .iter()
            .copied()
            .find(|x| *x == Action::Draw || matches!(x, Action::Discard(_)))
            .unwrap_or(legal[0]);
        g.apply(pick).unwrap();
    }
    assert_eq!(g.end(), Some(HandEnd::Stalled));
    assert_eq!(g.turns(), 30);
}

/// I-32: live locks do not end the hand. A group of six takes a natural of
/// its rank or a wild to make a canasta; a wild that can move changes the
/// table; either way player 0 is not dead-locked after his discard, and the
/// hand goes on although player 1 is.
#[test]
fn i32_live_locks_keep_the_hand_going() {
    let r = Rules::default();
    let six: &[&str] = &["QC QD QH", "8C 8D 8H 8S 8C 8D"];
    let wild: &[&str] = &["QC QD QH 2C", "8C 8D 8H 8S 8C"];
    for (what, table) in [("a group of six", six), ("a wild that can move", wild)] {
        let mut g = load(&position(
            &r,
            "meld",
            0,
            &[("5C 6D", table), ("7C", DEAD_1)],
            "4C",
        ));
        act(&mut g, "discard 5C");
        assert_eq!(g.end(), None, "{what}");
        assert!(!g.found_dead_locked(0) && !g.dead_locked(0), "{what}");
        assert!(g.found_dead_locked(1), "{what}");
        assert_eq!(g.current_player(), 1);
    }
}

/// I-32: a kind that is still out keeps a player live; once the opponent
/// melds its last copies, the player is dead-locked at his next discard
/// (tested then, not before).
#[test]
fn i32_the_last_copies_melded_by_the_opponent() {
    let r = Rules::default();
    // Player 0 holds six nines and one card: a nine or a wild completes the
    // canasta. Every wild but one joker is on player 1's table; the last
    // two nines and the last joker are in player 1's hand.
    let mut g = load(&position(
        &r,
        "meld",
        1,
        &[
            ("5C", &["9C 9C 9D 9D 9H 9S"]),
            (
                "9H 9S JK 4C 4D",
                &[
                    "JK JK JK JK JK JK JK",
                    "2C 2C 2D 2D 2H 2H 2S",
                    "KC KD KH 2S",
                ],
            ),
        ],
        "6C",
    ));
    assert!(!g.dead_locked(0), "the nines and a joker are out");
    assert!(!g.found_dead_locked(0));
    act(&mut g, "lay 9H 9S JK; discard 4C");
    assert!(g.dead_locked(0), "no nine and no wild left outside");
    assert!(!g.found_dead_locked(0), "player 0 is tested at his discard");
    assert_eq!(g.end(), None);
    act(&mut g, "draw");
    let held = g.hand(0);
    let discard = held
        .kinds()
        .find(|c| *c != "5C".parse().unwrap())
        .unwrap_or("5C".parse().unwrap());
    g.apply(Action::Discard(discard)).unwrap();
    assert!(g.found_dead_locked(0), "tested after his discard");
    // Player 1 has canastas and a group of kings: he is live, and the
    // hand goes on.
    assert!(!g.found_dead_locked(1));
    assert_eq!(g.end(), None);
}

/// I-32 with three players: the hand ends only when all three are
/// dead-locked; one live player keeps it going.
#[test]
fn i32_three_players() {
    let r = rules(&["players=3"]);
    let dead_2: &[&str] = &["JC JD JH", "TC TD TH TS TC"];
    let mut g = load(&position(
        &r,
        "meld",
        0,
        &[("5C 6D", DEAD_0), ("7C", DEAD_1), ("7D", dead_2)],
        "4C",
    ));
    act(&mut g, "discard 5C");
    assert_eq!(g.end(), Some(HandEnd::Deadlocked));

    let live_2: &[&str] = &["JC JD JH", "TC TD TH TS TC TD"];
    let mut g = load(&position(
        &r,
        "meld",
        0,
        &[("5C 6D", DEAD_0), ("7C", DEAD_1), ("7D", live_2)],
        "4C",
    ));
    act(&mut g, "discard 5C");
    assert_eq!(g.end(), None);
    assert!(g.found_dead_locked(0) && g.found_dead_locked(1) && !g.found_dead_locked(2));
}

/// I-32 in positions: `dead_locked` is saved and loaded; `true` is refused
/// for a player who is not dead-locked, and so is an end `deadlocked`
/// while one player is live.
#[test]
fn i32_positions_save_and_check_the_dead_lock() {
    let r = Rules::default();
    let mut v = position(&r, "draw", 0, &[("5C", DEAD_0), ("7C", DEAD_1)], "4C");
    // Player 0 was not tested since the cards outside shrank: say so.
    v["players"][0]["dead_locked"] = json!(false);
    let g = load(&v);
    assert!(!g.found_dead_locked(0) && g.found_dead_locked(1));
    let text = Position::from_state(&g).to_json();
    assert!(text.contains("\"dead_locked\": false"), "{text}");
    let back = Position::from_json(&text).unwrap().to_state().unwrap();
    assert_eq!(back, g);

    let mut live = position(
        &r,
        "draw",
        0,
        &[("5C", &["QC QD QH 2C", "8C 8D"]), ("7C", DEAD_1)],
        "4C",
    );
    live["players"][0]["table"]["groups"] = json!(["QC QD QH 2C", "8C 8D 8H"]);
    live["players"][0]["dead_locked"] = json!(true);
    let e = load_err(&live);
    assert!(e.contains("I-32") && e.contains("player 0"), "{e}");

    let mut over = position(&r, "over", 0, &[("5C", DEAD_0), ("7C 7D", DEAD_1)], "4C");
    over["end"] = json!({"kind": "deadlocked"});
    let e = load_err(&over);
    assert!(e.contains("deadlocked") && e.contains("player 1"), "{e}");
    over["players"][1]["hand"] = json!("7C");
    let g = load(&over);
    assert_eq!(g.end(), Some(HandEnd::Deadlocked));
}

/// I-32, the query for agents: at every meld step of meld-biased random
/// hands that leaves two cards in hand and nothing pending, the seat's
/// view says from the table after the step (public cards only) whether a
/// discard will leave it dead-locked, as the engine then finds; and a
/// dead lock is always hopeless (`never_goes_out_with`).
#[test]
fn i32_the_views_query_agrees_with_the_engine() {
    use rand::{RngExt, SeedableRng};
    let (mut asked, mut dead, mut hopeless) = (0, 0, 0);
    let mut legal = Vec::new();
    for seed in 0..120u64 {
        let mut g = GameState::new(Rules::default(), seed);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        while !g.is_terminal() {
            g.legal_actions(&mut legal);
            if g.phase() == Phase::Meld {
                let p = g.current_player();
                for &a in legal
                    .iter()
                    .filter(|a| !matches!(a, Action::Discard(_) | Action::Reset | Action::TakeRest))
                {
                    let mut after = g.clone();
                    after.apply(a).unwrap();
                    if after.hand(p).len() != 2 || !after.pending_wilds().is_empty() {
                        continue;
                    }
                    let view = after.view(p);
                    let table = after.table(p);
                    let said = view.dead_locked_with(table);
                    let never = view.never_goes_out_with(table);
                    assert!(!said || never, "a dead lock is hopeless");
                    // Any discard the engine accepts: the mark that follows.
                    let Some(d) = after.hand(p).kinds().find(|&c| {
                        let mut t = after.clone();
                        t.apply(Action::Discard(c)).is_ok()
                    }) else {
                        continue;
                    };
                    after.apply(Action::Discard(d)).unwrap();
                    assert_eq!(after.found_dead_locked(p), said, "seed {seed}: {a}");
                    asked += 1;
                    dead += said as u32;
                    hopeless += never as u32;
                }
            }
            let melds: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Lay { .. } | Action::Extend { .. }))
                .collect();
            let pick = if !melds.is_empty() && rng.random_bool(0.9) {
                melds[rng.random_range(0..melds.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            g.apply(pick).unwrap();
        }
    }
    assert!(
        asked > 200 && dead > 20 && hopeless > dead,
        "{asked} steps asked, {dead} dead, {hopeless} hopeless"
    );
}
