//! Tests of the position format.

use super::*;
use crate::action::Action;
use crate::card_set::CardSet;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn load(text: &str) -> Result<GameState, String> {
    GameState::from_position_json(text).map_err(|e| e.to_string())
}

fn err(text: &str) -> String {
    match load(text) {
        Ok(_) => panic!("position accepted: {text}"),
        Err(e) => e,
    }
}

fn legal_strings(g: &GameState) -> Vec<String> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut v: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    v.sort();
    v
}

/// A saved position as a JSON value, to break in tests.
fn saved(g: &GameState) -> serde_json::Value {
    serde_json::from_str(&g.to_position_json()).unwrap()
}

fn round_trip(g: &GameState) {
    let text = g.to_position_json();
    let p = Position::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(p, Position::from_state(g));
    let back = p.to_state().unwrap();
    assert_eq!(&back, g, "{text}");
    assert_eq!(back.to_position_json(), text);
}

#[test]
fn fresh_deal_round_trips() {
    for seed in 0..20 {
        let r = Rules {
            players: 2 + (seed % 5) as u8,
            ..Rules::default()
        };
        let mut g = GameState::new(r, seed);
        round_trip(&g);
        g.apply(Action::KeepCut {
            mask: (seed % 8) as u8,
        })
        .unwrap();
        round_trip(&g);
        // Play on a little: the generator continues identically.
        let mut h = Position::from_state(&g).to_state().unwrap();
        let mut legal = Vec::new();
        for _ in 0..30 {
            if g.is_terminal() {
                break;
            }
            g.legal_actions(&mut legal);
            let a = *legal
                .iter()
                .find(|a| matches!(a, Action::Draw))
                .unwrap_or(&legal[legal.len() - 1]);
            g.apply(a).unwrap();
            h.apply(a).unwrap();
            assert_eq!(g, h);
            round_trip(&g);
        }
    }
}

/// Leaving out cut and stock shuffles the pack as a new deal does.
#[test]
fn cut_position_is_a_new_deal() {
    let g = load(r#"{"phase": "cut", "starter": 1, "seed": 7}"#).unwrap();
    assert_eq!(g, GameState::new_hand(Rules::default(), 7, 1, &[]));
    let g =
        load(r#"{"phase": "cut", "rules": {"players": 3}, "seed": 9, "totals": [100, 0, -20]}"#)
            .unwrap();
    let r = Rules {
        players: 3,
        ..Rules::default()
    };
    assert_eq!(g, GameState::new_hand(r, 9, 0, &[100, 0, -20]));
}

/// The example of the brief: the mover has opened with kings and may
/// extend them with his 2, or discard. Laying 8 8 2 is not listed: it
/// would leave no card to discard, and no step that undoes nothing ends
/// the turn from there (I-9). The stock is filled with the rest of the
/// pack.
#[test]
fn minimal_meld_position() {
    let g = load(
        r#"{"phase":"meld","current":0,"players":[{"hand":"8D 8S 2C","table":{"groups":["KC KD KH"],"opened":true}},{"hand":"4C 5D"}],"pile":"9C 7H"}"#,
    )
    .unwrap();
    assert_eq!(g.stock().len(), 112 - 10);
    assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    assert!(g.table(0).opened);
    assert!(!g.table(1).opened);
    assert!(g.view(0).pile_top_fresh());
    assert_eq!(
        legal_strings(&g),
        ["discard 2C", "discard 8D", "discard 8S", "extend 0 2C"]
    );
    round_trip(&g);
    // The same with `opened` left out: a group from an earlier turn means
    // the table has opened.
    let h = load(
        r#"{"phase":"meld","players":[{"hand":"8D 8S 2C","table":{"groups":["KC KD KH"]}},{"hand":"4C 5D"}],"pile":"9C 7H"}"#,
    )
    .unwrap();
    assert_eq!(h, g);
    // Saving writes only what differs from the defaults.
    let v = saved(&g);
    assert!(v["players"][0]["table"].get("opened").is_none());
    assert!(v.get("turn").is_none() && v.get("anchor").is_none());
}

/// Draw phase mid-hand: the free chance has passed by default, so the
/// pile can be taken with two nines; with the chance still to come the
/// free pickup is offered instead (I-7).
#[test]
fn minimal_draw_position() {
    // `@` marks where player 1's free_pending goes.
    let text = r#"{"phase": "draw", "current": 1, "turns": 9,
        "players": [{"hand": "4C 5D 6H"},
                    {"hand": "9D 9S KH QS", "table": {"groups": ["AC AD AH"]} @}],
        "pile": "7H 9C"}"#;
    let g = load(&text.replace('@', "")).unwrap();
    assert_eq!(legal_strings(&g), ["draw", "take"]);
    round_trip(&g);
    let g = load(&text.replace('@', r#", "free_pending": true"#)).unwrap();
    assert!(g.free_pickup_offered());
    assert_eq!(legal_strings(&g), ["draw", "free"]);
    round_trip(&g);
    // Not opened, 9 9 9 falls short of the opening (D-8.2, I-26).
    let g = load(
        &text
            .replace(r#", "table": {"groups": ["AC AD AH"]}"#, "")
            .replace('@', ""),
    )
    .unwrap();
    assert_eq!(legal_strings(&g), ["draw"]);
}

/// A turn in progress: a penalized pickup whose top is laid, a pending
/// wild, and an anchor.
#[test]
fn turn_state_round_trips() {
    let g = load(
        r#"{"phase":"meld","turns":20,
        "players":[{"hand":"9D 9S KH QS 4C","known":"9D",
                    "table":{"groups":["KC KD KS 2H", {"cards":"9C 9H 9H","new":true}],"opened":true}},
                   {"hand":"4D 5D"}],
        "pile":"7H 8C",
        "turn":{"pickup":{"top":"9H"}},
        "anchor":{"hand":"9D 9S KH QS 4C 9C 9H 9H","table":{"groups":["KC KD KS 2H"]}}}"#,
    );
    // The pickup's top 9H is in hand or laid: pile_size defaults to 3.
    let g = g.unwrap();
    let pk = g.pickup().unwrap();
    assert_eq!(
        (pk.pile_size, pk.group_baseline, pk.rest_taken),
        (3, 0, false)
    );
    round_trip(&g);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.contains(&Action::Reset));
    assert!(legal.contains(&Action::TakeRest));
    let mut h = g.clone();
    h.apply(Action::Reset).unwrap();
    assert_eq!(h.table(0).len(), 1);
    round_trip(&h);
    // A wild taken out of the kings, waiting to be placed.
    let mut w = g.clone();
    w.apply("unwild 0 2H".parse().unwrap()).unwrap();
    assert_eq!(w.pending_wilds().to_string(), "2H");
    round_trip(&w);
    let v = saved(&w);
    assert_eq!(v["turn"]["pending"][0]["wild"], "2H");
    assert_eq!(v["turn"]["pending"][0]["src"], 0);
}

#[test]
fn over_position() {
    let g = load(
        r#"{"phase":"over","turns":30,"end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
        "players":[{"table":{"groups":["KC KD KS KH KC KD 2H"]}},{"hand":"4D 5D"}],
        "pile":"7H 8C"}"#,
    )
    .unwrap();
    assert!(g.is_terminal());
    assert!(g.scores()[0].went_out);
    round_trip(&g);
    assert!(err(r#"{"phase":"over"}"#).contains("phase over needs \"end\""));
    assert!(err(r#"{"phase":"draw","end":{"kind":"stalled"}}"#).contains("only in phase over"));
    let e = err(r#"{"phase":"over","end":{"kind":"stalled","player":1}}"#);
    assert!(e.contains("unknown field `player` in end"), "{e}");
    let e = err(r#"{"phase":"over","end":{"kind":"gone"}}"#);
    assert!(e.contains("end: unknown variant `gone`"), "{e}");
}

#[test]
fn wrong_card_count() {
    let g = GameState::new(Rules::default(), 3);
    let mut v = saved(&g);
    let stock = v["stock"].as_str().unwrap().to_string();
    let (first, rest) = stock.split_once(' ').unwrap();
    v["stock"] = rest.into();
    let e = err(&v.to_string());
    assert!(e.contains("card conservation"), "{e}");
    assert!(e.contains("111 cards"), "{e}");
    assert!(e.contains(&format!("missing [{first}]")), "{e}");
    // One card too many.
    v["stock"] = format!("{stock} {first}").into();
    let e = err(&v.to_string());
    assert!(
        e.contains(&format!("{first} 3 times, the pack holds 2")),
        "{e}"
    );
    assert!(e.contains("stock ×3") || e.contains("cut"), "{e}");
}

#[test]
fn card_three_times() {
    let e = err(r#"{"phase":"draw","players":[{"hand":"8D 8D"},{"hand":"8D 4C"}]}"#);
    assert!(e.contains("8D 3 times, the pack holds 2"), "{e}");
    assert!(e.contains("player 0 hand ×2, player 1 hand"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"hand":"8D 8D 8D"},{}]}"#);
    assert!(
        e.contains("player 0 hand: card 8D appears more often"),
        "{e}"
    );
    let e =
        err(r#"{"phase":"draw","players":[{},{}],"pile":"JK JK JK JK JK","stock":"JK JK JK JK"}"#);
    assert!(
        e.contains("JK 9 times, the pack holds 8 (pile ×5, stock ×4)"),
        "{e}"
    );
}

#[test]
fn illegal_groups_are_named() {
    let e = err(r#"{"phase":"draw","players":[{"table":{"groups":["KC KD KH","8C 2D 2S"]}},{}]}"#);
    assert!(
        e.contains("player 0 table group 1 [8C 2D 2S] is illegal: wilds must be fewer than naturals (D-9.1)"),
        "{e}"
    );
    let e = err(r#"{"phase":"draw","players":[{},{"table":{"groups":["8C 9C 9D"]}}]}"#);
    assert!(
        e.contains("player 1 table group 0 [8C 9C 9D] is not a group"),
        "{e}"
    );
    let e = err(r#"{"phase":"draw","players":[{"table":{"groups":["8C 8D"]}},{}]}"#);
    assert!(e.contains("at least 3 cards"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"table":{"groups":["3C 3S 3C"]}},{}]}"#);
    assert!(e.contains("threes are never melded"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"table":{"red_threes":"3C"}},{}]}"#);
    assert!(e.contains("only red threes"), "{e}");
}

#[test]
fn red_three_in_hand() {
    let e = err(r#"{"phase":"draw","players":[{"hand":"3H 4C 5C"},{}]}"#);
    assert!(e.contains("player 0 hand holds a red three (3H)"), "{e}");
    assert!(e.contains("D-4"), "{e}");
}

#[test]
fn bad_json() {
    let e = err(r#"{"phase":"draw", "players": [}"#);
    assert!(e.starts_with("bad position JSON"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"hnad":"4C"},{}]}"#);
    assert!(e.contains("unknown field `hnad`"), "{e}");
    let e = err(r#"{"players":[{},{}]}"#);
    assert!(e.contains("missing field `phase`"), "{e}");
    let e = err(r#"{"phase":"melding"}"#);
    assert!(e.contains("unknown variant `melding`"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"hand":"8X"},{}]}"#);
    assert!(e.contains("player 0 hand: bad card `8X`"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"hand":42},{}]}"#);
    assert!(e.contains("expected cards as a string"), "{e}");
    let e = err(r#"{"phase":"draw","format":"kanaszta-position/9"}"#);
    assert!(e.contains("kanaszta-position/1"), "{e}");
    let e = err(r#"{"phase":"draw","rules":{"players":9}}"#);
    assert!(e.contains("rules: players must be 2 to 6"), "{e}");
    let e = err(r#"{"phase":"draw","rng":"xyz"}"#);
    assert!(e.contains("hex digits"), "{e}");
    let e = err(r#"{"phase":"draw","rng":"1","seed":1}"#);
    assert!(e.contains("both rng and seed"), "{e}");
}

/// The typed error names the field that was wrong, and keeps the rules'
/// own error.
#[test]
fn errors_name_their_field() {
    let field = |text: &str| match GameState::from_position_json(text) {
        Ok(_) => panic!("position accepted: {text}"),
        Err(e) => (e.field().to_string(), e),
    };
    let (f, e) = field(r#"{"phase":"draw","players":[{"hand":"8X"},{}]}"#);
    assert_eq!(f, "player 0 hand");
    assert!(matches!(e, PositionError::Field { .. }), "{e:?}");
    let (f, _) = field(r#"{"phase":"draw","starter":5}"#);
    assert_eq!(f, "starter");
    let (f, _) = field(r#"{"phase":"meld","turn":{"pending":[{"wild":"2C","src":3}]}}"#);
    assert_eq!(f, "turn.pending[0].src");
    let (f, e) = field(r#"{"phase":"draw","rules":{"players":9}}"#);
    assert_eq!(f, "rules");
    assert!(
        matches!(
            e,
            PositionError::Rules(crate::rules::RulesError::OutOfRange {
                key: "players",
                rule: "D-2.1",
                ..
            })
        ),
        "{e:?}"
    );
    let (f, e) = field("{phase: draw");
    assert_eq!(f, "");
    assert!(matches!(e, PositionError::Json(_)), "{e:?}");
}

#[test]
fn other_bad_positions() {
    let e = err(r#"{"phase":"draw","players":[{},{},{}]}"#);
    assert!(e.contains("lists 3 players but the rules say 2"), "{e}");
    let e = err(r#"{"phase":"draw","current":2}"#);
    assert!(e.contains("current player 2 is out of range"), "{e}");
    let e = err(r#"{"phase":"draw","starter":5}"#);
    assert!(e.contains("starter 5 is out of range"), "{e}");
    let e = err(r#"{"phase":"draw","players":[{"hand":"4C 5C","known":"4C 6C"},{}]}"#);
    assert!(
        e.contains("player 0 known cards [6C] are not in the hand"),
        "{e}"
    );
    let e = err(
        r#"{"phase":"meld","players":[{"hand":"4C 5C 2C"},{}],"turn":{"pickup":{"top":"2C"}}}"#,
    );
    assert!(
        e.contains("turn.pickup: the top card 2C is not a natural"),
        "{e}"
    );
    let e = err(
        r#"{"phase":"draw","pile":"4C","stock":"","stock_known_bottom":1,"players":[{"hand":"4C"},{}]}"#,
    );
    assert!(e.contains("card conservation"), "{e}");
    let e = err(r#"{"phase":"draw","stock_known_bottom":4}"#);
    assert!(e.contains("stock_known_bottom is 4"), "{e}");
    let g = GameState::new(Rules::default(), 1);
    let mut v = saved(&g);
    v["phase"] = "draw".into();
    v.as_object_mut().unwrap().remove("cut");
    let mut stock: Vec<String> = v["stock"]
        .as_str()
        .unwrap()
        .split(' ')
        .map(String::from)
        .collect();
    stock.extend(g.cut_cards().iter().map(|c| c.to_string()));
    v["stock"] = stock.join(" ").into();
    v["stock_known_bottom"] = 112.into();
    let e = err(&v.to_string());
    assert!(e.contains("stock_known_bottom is 112"), "{e}");
    let e = err(r#"{"phase":"draw","cut":"4C 5C 6C"}"#);
    assert!(e.contains("only in phase cut"), "{e}");
    let e = err(r#"{"phase":"cut","players":[{"hand":"4C"},{}]}"#);
    assert!(e.contains("before the deal"), "{e}");
    let e = err(r#"{"phase":"draw","anchor":{}}"#);
    assert!(e.contains("anchor is given only in phase meld"), "{e}");
    let e = err(r#"{"phase":"meld","players":[{"hand":"4C 5C"},{}],"anchor":{"hand":"4C 6C"}}"#);
    assert!(e.contains("anchor: the mover's hand"), "{e}");
    let e = err(r#"{"phase":"draw","turn":{"free_card":"4C"}}"#);
    assert!(e.contains("turn.free_card belongs to phase meld"), "{e}");
    let e = err(r#"{"phase":"meld","turn":{"free_offer":true}}"#);
    assert!(e.contains("only in phase draw"), "{e}");
    let e = err(
        r#"{"phase":"meld","players":[{"table":{"groups":["4C 4D 2C"]}},{}],"turn":{"pending":[{"wild":"JK","src":3}]}}"#,
    );
    assert!(
        e.contains("turn.pending[0].src: group 3 does not exist"),
        "{e}"
    );
    let e = err(
        r#"{"phase":"draw","rules":{"version":"decorated-2003-01"},"players":[{"table":{"heart_aces":1}},{}]}"#,
    );
    assert!(e.contains("D-9.4"), "{e}");
    let e = err(r#"{"phase":"draw","totals":[1]}"#);
    assert!(e.contains("totals lists 1"), "{e}");
}

/// Broken saved positions (fields removed or changed at random) are
/// refused or accepted, never a panic, and accepted ones hold together.
#[test]
fn mutations_never_panic() {
    use rand::RngExt;
    const FUZZ_STATES: u64 = 12;
    const FUZZ_TRIES: usize = 250;
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut states = Vec::new();
    for seed in 0..FUZZ_STATES {
        let mut g = GameState::new(Rules::default(), seed);
        let mut legal = Vec::new();
        for step in 0..((seed * 37) % 400) {
            if g.is_terminal() {
                break;
            }
            g.legal_actions(&mut legal);
            g.apply(legal[(step as usize * 7) % legal.len()]).unwrap();
        }
        states.push(g);
    }
    let values = [
        serde_json::json!(null),
        serde_json::json!(0),
        serde_json::json!(3),
        serde_json::json!(255),
        serde_json::json!(-1),
        serde_json::json!(true),
        serde_json::json!(""),
        serde_json::json!("JK"),
        serde_json::json!("4C 4C"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!("meld"),
        serde_json::json!("draw"),
    ];
    fn paths(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let p = format!("{at}/{k}");
                    out.push(p.clone());
                    paths(x, p, out);
                }
            }
            serde_json::Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    let p = format!("{at}/{i}");
                    out.push(p.clone());
                    paths(x, p, out);
                }
            }
            _ => {}
        }
    }
    let (mut accepted, mut refused) = (0, 0);
    for g in &states {
        let v = saved(g);
        let mut all = Vec::new();
        paths(&v, String::new(), &mut all);
        for _ in 0..FUZZ_TRIES {
            let mut w = v.clone();
            for _ in 0..rng.random_range(1..3) {
                let p = &all[rng.random_range(0..all.len())];
                if let Some(x) = w.pointer_mut(p) {
                    *x = values[rng.random_range(0..values.len())].clone();
                }
            }
            match load(&w.to_string()) {
                Ok(s) => {
                    accepted += 1;
                    s.check_invariants().unwrap();
                    round_trip(&s);
                    let mut legal = Vec::new();
                    s.legal_actions(&mut legal);
                    for a in legal {
                        let mut t = s.clone();
                        t.apply(a).unwrap();
                    }
                }
                Err(_) => refused += 1,
            }
        }
    }
    assert!(
        accepted > 50 && refused > 50,
        "accepted {accepted}, refused {refused}"
    );
}

/// D-6.2: a pickup in progress whose top card the mover neither holds
/// nor has laid (here: the wrong player to move) is refused, naming the
/// field: found by the position fuzz test, where such positions loaded
/// and then listed no action, at once or a few steps later. With the
/// right player to move it loads and the top card's lay is listed.
#[test]
fn a_pickup_whose_top_the_mover_lacks_is_refused() {
    let text = |current: u8| {
        format!(
            r#"{{"phase":"meld","current":{current},"turns":15,"pile":"7D 6D",
               "players":[{{"hand":"5D 6S 8C 8H 8D 9S JK","table":{{"groups":["KC KD KH"]}}}},
                          {{"hand":"3S 5S 8S JS QC QC KD","table":{{"groups":["AC AD AH"]}}}}],
               "turn":{{"pickup":{{"top":"8H","group_baseline":0,"pile_size":3,"rest_taken":false}}}}}}"#
        )
    };
    let e = err(&text(1));
    assert!(
        e.contains("turn.pickup.top 8H: player 1, the mover, neither holds it nor has laid it"),
        "{e}"
    );
    let g = load(&text(0)).unwrap();
    assert!(legal_strings(&g)
        .iter()
        .any(|a| a.starts_with("lay ") && a.contains("8H")));
}

/// D-13.1: the player to move in the draw (or the first discard) holds a
/// card: a player whose last card is gone has gone out. Found by the
/// position fuzz test: such a position loaded, and its mover drew a card
/// he could neither meld nor discard. In the meld phase an empty hand is
/// a moment of the turn, and loads.
#[test]
fn a_turn_starts_with_a_card_in_hand() {
    let e = err(r#"{"phase":"draw","current":1,"players":[{"hand":"4C"},{}]}"#);
    assert!(
        e.contains("player 1, the player to move, holds no cards in phase draw"),
        "{e}"
    );
    assert!(load(r#"{"phase":"draw","current":1,"players":[{},{"hand":"4C"}]}"#).is_ok());
}

/// D-13.1: a position that says a player went out while he still holds
/// cards, or has no canasta, is refused: `score` used to trust it and
/// give 300 in going-out bonuses to a player with two cards in hand.
#[test]
fn going_out_needs_an_empty_hand_and_a_canasta() {
    let e = err(
        r#"{"phase":"over","end":{"kind":"went_out","player":0,"from_hand":true,"cleared_table":true},
            "players":[{"hand":"4C 5D","table":{"groups":["KC KD KH"]}},{"hand":"9S"}],"pile":"TC"}"#,
    );
    assert!(
        e.contains("end went_out: player 0 still holds 2 cards [4C 5D]"),
        "{e}"
    );
    let e = err(
        r#"{"phase":"over","end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
            "players":[{"table":{"groups":["KC KD KH"]}},{"hand":"9S"}],"pile":"TC"}"#,
    );
    assert!(e.contains("player 0 has no canasta"), "{e}");
    let g = load(
        r#"{"phase":"over","end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
            "players":[{"table":{"groups":["KC KD KS KH KC KD 2H"]}},{"hand":"9S"}],"pile":"TC"}"#,
    )
    .unwrap();
    assert!(g.scores()[0].went_out);
}

/// An over position of player `who` going out, with `end` and `extra`
/// top-level fields spliced in.
fn went_out(from_hand: bool, cleared: bool, extra: &str) -> String {
    format!(
        r#"{{"phase":"over","turns":9,{extra}
            "end":{{"kind":"went_out","player":1,"from_hand":{from_hand},"cleared_table":{cleared}}},
            "players":[{{"hand":"9S"}},{{"table":{{"groups":["KC KD KS KH KC KD 2H"]}}}}],"pile":"TC"}}"#
    )
}

/// D-14.1, D-14.2: the end record of a player going out must agree with
/// the turn record, as his last discard would have set it: the turn is his
/// (`current` defaults to him), from hand exactly when he had not opened at
/// its start (`turn.opened_at_start` defaults so), the table cleared
/// exactly when from hand with a pickup of a pile of 10 or more.
#[test]
fn going_out_flags_agree_with_the_turn_record_d14() {
    // Defaults make each flag consistent: current is the player who went
    // out, opened_at_start the opposite of from_hand.
    for from_hand in [false, true] {
        let g = load(&went_out(from_hand, false, "")).unwrap();
        assert_eq!(g.current_player(), 1);
        assert_eq!(g.scores()[1].from_hand, from_hand);
        assert_eq!(
            g.scores()[1].from_hand_points,
            if from_hand { 100 } else { 0 }
        );
        round_trip(&g);
        assert!(saved(&g).get("turn").is_none(), "{}", g.to_position_json());
    }
    // The turn record is the player's who went out.
    let e = err(&went_out(false, false, r#""current":0,"#));
    assert!(
        e.contains("player 1 went out") && e.contains("current must be 1"),
        "{e}"
    );
    // from_hand against turn.opened_at_start (D-14.1).
    let e = err(&went_out(
        true,
        false,
        r#""turn":{"opened_at_start":true},"#,
    ));
    assert!(
        e.contains("from_hand is true but turn.opened_at_start is true") && e.contains("D-14.1"),
        "{e}"
    );
    let e = err(&went_out(
        false,
        false,
        r#""turn":{"opened_at_start":false},"#,
    ));
    assert!(
        e.contains("from_hand is false but turn.opened_at_start is false"),
        "{e}"
    );
    // cleared_table without from hand, without a pickup, with a small pile (D-14.2).
    let e = err(&went_out(false, true, ""));
    assert!(
        e.contains(
            "cleared_table is true, but clearing the table needs going out from hand (D-14.2)"
        ),
        "{e}"
    );
    let e = err(&went_out(true, true, ""));
    assert!(
        e.contains("no penalized pickup (turn.pickup)") && e.contains("D-14.2"),
        "{e}"
    );
    let pickup = |n: u8| {
        format!(
            r#""turn":{{"pickup":{{"top":"KH","group_baseline":0,"pile_size":{n},"rest_taken":true}}}},"#
        )
    };
    let e = err(&went_out(true, true, &pickup(9)));
    assert!(
        e.contains("held 9 cards") && e.contains("at least 10 (I-14"),
        "{e}"
    );
    // ... and a clearing left unrecorded.
    let e = err(&went_out(true, false, &pickup(10)));
    assert!(e.contains("cleared_table is false, but he went out from hand with a penalized pickup of a pile of 10 cards"), "{e}");
    let g = load(&went_out(true, true, &pickup(10))).unwrap();
    let s = g.scores()[1];
    assert!(s.from_hand && s.cleared_table);
    assert_eq!(
        s.going_out_points + s.from_hand_points + s.cleared_table_points,
        300
    );
    round_trip(&g);
    // A table marked unopened cannot have gone out.
    let e = err(&went_out(false, false, "").replace(
        r#"{"table":{"groups""#,
        r#"{"table":{"opened":false,"groups""#,
    ));
    assert!(
        e.contains("player 1 table.opened is false, but he went out"),
        "{e}"
    );
}

/// I-4, I-5: a hand is exhausted only with stock and pile empty, and
/// stalls only at the turn cap.
#[test]
fn exhausted_and_stalled_ends_agree_with_stock_and_turns_i4_i5() {
    let e = err(r#"{"phase":"over","turns":40,"end":{"kind":"exhausted"},
        "players":[{"hand":"4C"},{"hand":"5C"}],"pile":"9C"}"#);
    assert!(
        e.contains("end exhausted: the stock holds 109 cards and the pile 1")
            && e.contains("(I-4)"),
        "{e}"
    );
    assert!(e.contains("give \"stock\": \"\""), "{e}");
    let e = err(
        r#"{"phase":"over","turns":40,"end":{"kind":"stalled"},"players":[{"hand":"4C"},{"hand":"5C"}]}"#,
    );
    assert!(
        e.contains("end stalled: turns is 40") && e.contains("turn_cap = 1000 (I-5)"),
        "{e}"
    );
    let g = load(
        r#"{"phase":"over","turns":40,"rules":{"turn_cap":40},"end":{"kind":"stalled"},
        "players":[{"hand":"4C"},{"hand":"5C"}]}"#,
    )
    .unwrap();
    assert_eq!(g.end(), Some(HandEnd::Stalled));
    round_trip(&g);
    // The ends of real play all load: random hands played to the end.
    let mut legal = Vec::new();
    for seed in 0..40 {
        let mut g = GameState::new(Rules::default(), seed);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        while !g.is_terminal() {
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
        }
        round_trip(&g);
    }
}
