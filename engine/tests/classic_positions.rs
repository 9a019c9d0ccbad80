//! Classic positions (JSON): what the loader checks, naming the rule
//! (C-1, C-2, C-4, C-5, C-7, C-8, C-10, C-16, C-18, C-20, C-21, C-23), and
//! that saving and loading states reached by random play gives them back.

use kanaszta_engine::classic::{
    is_classic_position, ClassicAction, ClassicPhase, ClassicPosition, ClassicRules, ClassicState,
    CLASSIC_PRESETS,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Saves, loads, and saves again: the same state and the same text.
fn round_trip(g: &ClassicState) {
    let text = g.to_position_json();
    let back = ClassicState::from_position_json(&text)
        .unwrap_or_else(|e| panic!("{e}\nin\n{text}\nfrom {g:?}"));
    assert!(back.same_position(g), "{text}\n{g:?}\n{back:?}");
    assert_eq!(back.to_position_json(), text);
    assert!(is_classic_position(&text));
}

/// Random play from a deal, every state saved and loaded back.
fn play_round_trips(preset: &str, players: u8, seed: u64, every: usize) {
    let mut r = ClassicRules::preset(preset).unwrap();
    r.players = players;
    let mut g = ClassicState::new(r, seed, (seed % players as u64) as usize, [0; 6]);
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5eed);
    let mut legal: Vec<ClassicAction> = Vec::new();
    let mut i = 0usize;
    round_trip(&g);
    while !g.is_terminal() {
        g.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).unwrap();
        i += 1;
        if i.is_multiple_of(every) || g.is_terminal() || g.phase() == ClassicPhase::Answer {
            round_trip(&g);
        }
    }
}

#[test]
fn states_of_every_preset_and_player_count_round_trip() {
    for preset in CLASSIC_PRESETS {
        for players in 2..=6 {
            play_round_trips(preset, players, 11 + players as u64, 3);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn positions_written_mid_hand_load_back_equal(
        seed in any::<u64>(),
        preset in 0..3usize,
        players in 2..=6u8,
    ) {
        play_round_trips(CLASSIC_PRESETS[preset], players, seed, 5);
    }
}

/// A position of two players, player 0 to draw; the stock left out.
const BASE: &str = r#"{
    "family": "classic",
    "rules": "classic-002",
    "phase": "draw",
    "dealer": 1,
    "mover": 0,
    "turns": 4,
    "players": [{"hand": "4C 4D 5H 8S 9S KC KD"}, {"hand": "6C 6D 7H 7S QC QD"}],
    "sides": [{"melds": ["AC AD AH 2C"], "red_threes": "3H"}, {}],
    "pile": "9C 5S"
}"#;

/// `BASE` with `from` replaced by `to`.
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    BASE.replacen(from, to, 1)
}

/// The loader's message for a refused position.
fn refused(text: &str) -> String {
    match ClassicState::from_position_json(text) {
        Ok(_) => panic!("loaded:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_hand_written_position_loads_with_the_rest_of_the_pack_in_the_stock() {
    let g = ClassicState::from_position_json(BASE).unwrap();
    assert_eq!(g.players(), 2);
    assert_eq!(g.current_player(), 0);
    assert_eq!(g.stock_len(), 108 - 7 - 6 - 4 - 1 - 2);
    assert_eq!(g.pile_top().unwrap().to_string(), "5S");
    assert!(g.table(0).has_melds() && !g.table(1).has_melds());
    // The seed shuffles the stock left out.
    let s1 = ClassicState::from_position_json(&with("\"turns\": 4", "\"turns\": 4, \"seed\": 1"))
        .unwrap();
    assert!(!s1.same_position(&g));
    // And the saved text loads back to the same state.
    let back = ClassicState::from_position_json(&g.to_position_json()).unwrap();
    assert!(back.same_position(&g));
    assert!(is_classic_position(BASE));
    assert!(!is_classic_position(r#"{"phase": "draw"}"#));
}

#[test]
fn the_pack_is_conserved_c1() {
    let e = refused(&with("\"4C 4D 5H", "\"AC AC 4C 4D 5H"));
    assert!(e.contains("C-1") && e.contains("AC"), "{e}");
    let g = ClassicState::from_position_json(BASE).unwrap();
    // A stock given with a card missing.
    let text = g.to_position_json();
    let stock_line = text.lines().find(|l| l.contains("\"stock\"")).unwrap();
    let (head, cards) = stock_line.split_once(": \"").unwrap();
    let first = cards.split(' ').next().unwrap();
    let cut = format!("{head}: \"{}", &cards[first.len() + 1..]);
    let e = refused(&text.replace(stock_line, &cut));
    assert!(e.contains("C-1") && e.contains("missing"), "{e}");
    // 110 cards need six jokers.
    let e = refused(&with("\"4C 4D", "\"JK JK JK JK JK 4C 4D"));
    assert!(e.contains("C-1"), "{e}");
}

#[test]
fn players_and_sides_match_the_rules_c2_c20() {
    let e = refused(&with(
        "\"rules\": \"classic-002\"",
        "\"rules\": {\"preset\": \"classic-002\", \"players\": 3}",
    ));
    assert!(e.contains("C-2") && e.contains("players"), "{e}");
    let e = refused(&with("{}]", "{}, {}]"));
    assert!(e.contains("C-2") && e.contains("sides"), "{e}");
    let e = refused(&with("{}]", "{\"players\": [0]}]"));
    assert!(e.contains("C-20") && e.contains("sides[1].players"), "{e}");
}

#[test]
fn melds_keep_the_presets_wild_limit_c4_c5_c20_c21() {
    // 002: at least two naturals.
    let e = refused(&with("\"AC AD AH 2C\"", "\"AC AD AH 2C\", \"KH 2D 2H\""));
    assert!(e.contains("C-4") && e.contains("sides[0].melds[1]"), "{e}");
    // The same meld is legal under 003? One natural, two wilds: no.
    let e = refused(
        &with("\"AC AD AH 2C\"", "\"AC AD AH 2C\", \"KH 2D 2H\"")
            .replace("classic-002", "classic-003"),
    );
    assert!(e.contains("C-4"), "{e}");
    // Four wilds with three naturals: 002 allows at most three.
    let e = refused(&with("\"AC AD AH 2C\"", "\"AC AD AH 2C 2D 2H JK\""));
    assert!(e.contains("C-4"), "{e}");
    // One meld per rank.
    let e = refused(&with("\"AC AD AH 2C\"", "\"AC AD AH 2C\", \"AS AS 2D\""));
    assert!(e.contains("C-20"), "{e}");
    // Mixed ranks.
    let e = refused(&with("\"AC AD AH 2C\"", "\"AC AD KH 2C\""));
    assert!(e.contains("C-4") || e.contains("C-20"), "{e}");
    // No wild canasta under 002 (C-5); seven wilds under 003 (C-21).
    let e = refused(&with(
        "\"red_threes\": \"3H\"",
        "\"red_threes\": \"3H\", \"wild_canastas\": [\"2C 2D 2D 2H 2H 2S 2S\"]",
    ));
    assert!(e.contains("C-5"), "{e}");
    let e = refused(
        &with(
            "\"red_threes\": \"3H\"",
            "\"red_threes\": \"3H\", \"wild_canastas\": [\"2D 2D 2H 2H 2S 2S\"]",
        )
        .replace("classic-002", "classic-003"),
    );
    assert!(e.contains("C-21"), "{e}");
}

#[test]
fn red_and_black_threes_c8_c16() {
    let e = refused(&with("\"4C 4D 5H", "\"3D 4C 4D 5H"));
    assert!(e.contains("C-8"), "{e}");
    let e = refused(&with("\"red_threes\": \"3H\"", "\"red_threes\": \"3H 3C\""));
    assert!(e.contains("C-8") && e.contains("red_threes"), "{e}");
    let e = refused(&with("\"AC AD AH 2C\"", "\"AC AD AH 3C\""));
    assert!(e.contains("C-16"), "{e}");
    // A black-three meld only for a player going out.
    let e = refused(&with(
        "\"red_threes\": \"3H\"",
        "\"red_threes\": \"3H\", \"black_threes\": \"3C 3C 3S\"",
    ));
    assert!(e.contains("C-16") && e.contains("black_threes"), "{e}");
}

#[test]
fn the_pile_and_the_phase_c7_c10_c18_c23() {
    let e = refused(&with(
        "\"pile\": \"9C 5S\"",
        "\"pile\": \"9C 5S\", \"frozen\": true",
    ));
    assert!(e.contains("C-7") && e.contains("frozen"), "{e}");
    // Asking needs a partner.
    let e = refused(&with("\"phase\": \"draw\"", "\"phase\": \"answer\""));
    assert!(e.contains("C-18"), "{e}");
    // An end says how, and it must be possible.
    let e = refused(&with("\"phase\": \"draw\"", "\"phase\": \"over\""));
    assert!(e.contains("end"), "{e}");
    let e = refused(&with(
        "\"phase\": \"draw\"",
        "\"phase\": \"over\", \"end\": {\"kind\": \"went_out\", \"player\": 0}",
    ));
    assert!(e.contains("C-10"), "{e}");
    let e = refused(&with(
        "\"phase\": \"draw\"",
        "\"phase\": \"over\", \"end\": {\"kind\": \"stock_out\"}",
    ));
    assert!(e.contains("C-23"), "{e}");
    let e = refused(&with(
        "\"phase\": \"draw\"",
        "\"phase\": \"meld\", \"turn\": {\"undos\": 9}",
    ));
    assert!(e.contains("I-25"), "{e}");
}

#[test]
fn bad_json_and_unknown_fields_are_named() {
    let e = refused(&with("\"turns\": 4", "\"turns\": 4, \"colour\": 1"));
    assert!(e.contains("colour"), "{e}");
    let e = refused(&with("\"hand\": \"4C", "\"hnad\": \"4C"));
    assert!(e.contains("hnad"), "{e}");
    let e = refused(&with("4C 4D", "4C 4X"));
    assert!(e.contains("players[0].hand") && e.contains("4X"), "{e}");
    let e = refused(&with("\"classic-002\"", "\"classic-009\""));
    assert!(e.contains("rules") && e.contains("classic-003"), "{e}");
    let e = refused("[1, 2]");
    assert!(e.contains("JSON object"), "{e}");
    let _ = ClassicPosition::from_json("").unwrap_err();
}

/// Positions with two cards swapped (the pack stays whole, so the deeper
/// checks decide) or a flag flipped either load or are refused: never a
/// panic, and what loads lists and takes its legal actions.
#[test]
fn mutated_positions_load_or_are_refused_never_panic() {
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    let mut loaded = 0;
    for (i, preset) in CLASSIC_PRESETS.iter().enumerate() {
        for players in [2u8, 4] {
            let mut r = ClassicRules::preset(preset).unwrap();
            r.players = players;
            let mut g = ClassicState::new(r, 40 + i as u64, 0, [0; 6]);
            let mut legal: Vec<ClassicAction> = Vec::new();
            for step in 0..160u32 {
                if g.is_terminal() {
                    break;
                }
                g.legal_actions(&mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.apply(a).unwrap();
                if !step.is_multiple_of(8) {
                    continue;
                }
                let text = g.to_position_json();
                // Card tokens: two upper-case characters inside a card string.
                let toks: Vec<(usize, usize)> = text
                    .match_indices(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
                    .map(|(i, _)| i)
                    .filter(|&i| {
                        let b = text.as_bytes();
                        i + 2 <= b.len()
                            && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'"')
                            && (b.get(i + 2) == Some(&b' ') || b.get(i + 2) == Some(&b'"'))
                            && text[i..i + 2].parse::<kanaszta_engine::Card>().is_ok()
                    })
                    .map(|i| (i, i + 2))
                    .collect();
                for _ in 0..12 {
                    let mut t = text.clone();
                    if rng.random_range(0..4) == 0 {
                        t = match rng.random_range(0..3) {
                            0 => t.replacen("false", "true", 1),
                            1 => t.replacen("true", "false", 1),
                            _ => t
                                .replacen("\"phase\": \"", "\"phase\": \"me", 1)
                                .replace("\"phase\": \"medraw", "\"phase\": \"meld")
                                .replace("\"phase\": \"memeld", "\"phase\": \"draw"),
                        };
                    } else if toks.len() >= 2 {
                        let a = toks[rng.random_range(0..toks.len())];
                        let b = toks[rng.random_range(0..toks.len())];
                        let (x, y) = (text[a.0..a.1].to_string(), text[b.0..b.1].to_string());
                        let mut bytes = t.into_bytes();
                        bytes[a.0..a.1].copy_from_slice(y.as_bytes());
                        bytes[b.0..b.1].copy_from_slice(x.as_bytes());
                        t = String::from_utf8(bytes).unwrap();
                    }
                    if let Ok(m) = ClassicState::from_position_json(&t) {
                        loaded += 1;
                        m.check_invariants().unwrap();
                        m.legal_actions(&mut legal);
                        for &a in &legal {
                            let mut c = m.clone();
                            c.apply(a).unwrap();
                        }
                    }
                }
            }
        }
    }
    assert!(loaded > 0);
}

#[test]
fn the_first_player_holding_dealt_red_threes_loads_and_lays_them_c22_c18() {
    // Player 0, the dealer's left, about to begin his first turn, holds
    // two dealt red threes: loading lays and replaces them from the stock's
    // top, as the start of his turn does, before he asks or draws.
    let text = with("\"turns\": 4", "\"turns\": 0")
        .replace("\"4C 4D 5H", "\"3D 3D 4C 4D 5H")
        .replace(
            "\"sides\": [{\"melds\": [\"AC AD AH 2C\"], \"red_threes\": \"3H\"}, {}]",
            "\"sides\": [{}, {}]",
        );
    let g = ClassicState::from_position_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(g.hand(0).red_three_count(), 0);
    assert_eq!(g.hand(0).len(), 9, "two replacements from the stock");
    assert_eq!(g.table(0).red_threes.len(), 2);
    assert_eq!(g.phase(), ClassicPhase::Draw);
    assert_eq!(g.stock_len(), 108 - 9 - 6 - 2 - 2);
    // The same under 004 with partners: then he may ask (C-18), the red
    // threes already laid.
    let text4 = r#"{
        "family": "classic",
        "rules": {"preset": "classic-004", "players": 4},
        "phase": "draw",
        "dealer": 3,
        "players": [{"hand": "3H 4C 4D 5H"}, {"hand": "6C 6D"}, {"hand": "7C 7D"}, {"hand": "8C 8D"}],
        "pile": "9C"
    }"#;
    let g = ClassicState::from_position_json(text4).unwrap();
    assert_eq!(g.current_player(), 0);
    assert_eq!(g.table(0).red_threes.len(), 1);
    assert!(g.is_legal("ask".parse().unwrap()));
    // Once he has asked, or after his first turn, he holds none.
    let asked = text4.replace(
        "\"phase\": \"draw\"",
        "\"phase\": \"answer\", \"turn\": {\"asked\": true}",
    );
    let e = refused(&asked);
    assert!(e.contains("C-8") && e.contains("players[0].hand"), "{e}");
    let later = text4.replace("\"dealer\": 3", "\"dealer\": 3, \"mover\": 0, \"turns\": 4");
    let e = refused(&later);
    assert!(e.contains("C-8"), "{e}");
    // Another player holds his dealt ones until his first turn, not after.
    let e = refused(
        &text4
            .replace("\"dealer\": 3", "\"dealer\": 3, \"mover\": 2, \"turns\": 2")
            .replace("\"3H 4C 4D 5H\"", "\"4C 4D 5H\"")
            .replace("\"6C 6D\"", "\"3H 6C 6D\""),
    );
    assert!(e.contains("players[1].hand") && e.contains("C-22"), "{e}");
    // At the end of a hand they lie on the table (C-22: scored as laid).
    let e = refused(&text4.replace(
        "\"phase\": \"draw\"",
        "\"phase\": \"over\", \"end\": {\"kind\": \"stalled\"}, \"turns\": 1000",
    ));
    assert!(e.contains("C-22") && e.contains("red_threes"), "{e}");
}

#[test]
fn an_empty_hand_mid_hand_is_the_movers_meld_phase_only_c10() {
    let e = refused(&with(
        "{\"hand\": \"6C 6D 7H 7S QC QD\"}",
        "{\"hand\": \"\"}",
    ));
    assert!(e.contains("players[1].hand") && e.contains("C-10"), "{e}");
    let e = refused(&with("{\"hand\": \"4C 4D 5H 8S 9S KC KD\"}", "{}"));
    assert!(e.contains("players[0].hand") && e.contains("C-10"), "{e}");
    // At the end of the hand an empty hand is no contradiction.
    let over = with(
        "\"phase\": \"draw\"",
        "\"phase\": \"over\", \"end\": {\"kind\": \"stalled\"}",
    )
    .replace("\"turns\": 4", "\"turns\": 1000")
    .replace("{\"hand\": \"6C 6D 7H 7S QC QD\"}", "{\"hand\": \"\"}");
    ClassicState::from_position_json(&over).unwrap();
}

#[test]
fn a_004_pile_shows_no_wild_on_top_c13_c22() {
    let text = r#"{
        "family": "classic",
        "rules": "classic-004",
        "phase": "draw",
        "dealer": 1,
        "mover": 0,
        "turns": 6,
        "players": [{"hand": "4C 4D 5H"}, {"hand": "6C 6D"}],
        "pile": "9C 5S 2D"
    }"#;
    let e = refused(text);
    assert!(
        e.contains("pile") && e.contains("C-13") && e.contains("2D"),
        "{e}"
    );
    // Under it, frozen, as a discarded wild lies.
    let g = ClassicState::from_position_json(&text.replace("9C 5S 2D", "2D 9C 5S")).unwrap();
    assert!(g.pile_frozen());
    // A pile of wilds alone (taken, then a wild discarded) shows one.
    ClassicState::from_position_json(&text.replace("9C 5S 2D", "2D")).unwrap();
    // 002 takes a wild on top with a natural pair (C-13): loads.
    ClassicState::from_position_json(&text.replace("classic-004", "classic-002")).unwrap();
}
