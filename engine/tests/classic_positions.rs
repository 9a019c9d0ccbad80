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
        if i % every == 0 || g.is_terminal() || g.phase() == ClassicPhase::Answer {
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
