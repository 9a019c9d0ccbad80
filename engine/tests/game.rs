//! The family-independent invariants, written once over [`Game`] and run
//! on both families (OpenSpiel's random simulation test): at every step of
//! random play the family's invariants hold (the pack conserved, legal
//! groups or melds: D-1/C-1, D-4/C-4), the listing is never empty before
//! the end and `apply` accepts every listed action (and `apply_listed`,
//! which skips the checks the listing made, reaches the same state from
//! it), a state determinized
//! from the mover's view keeps the mover and its listing, and every hand
//! ends with a score for each side.
//!
//! The family-specific soaks (`soak.rs`, `soak_classic.rs`) go further;
//! this one guards the interface the toolkit plays through.

use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Game, GameState, Rules};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn hands() -> u64 {
    std::env::var("KANASZTA_SOAK_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 2 } else { 20 })
}

/// Plays `g` to its end at random, checking the interface's promises;
/// returns the number of actions.
fn soak<G: Game + PartialEq>(mut g: G, seed: u64) -> u64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut again = Vec::new();
    let mut steps = 0u64;
    g.check_invariants().unwrap();
    while !g.is_terminal() {
        let p = g.current_player();
        assert!(p < g.players());
        assert!(g.side_of(p) < g.sides());
        g.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "{}: empty listing before the end",
            G::FAMILY
        );
        if steps.is_multiple_of(7) {
            let world = G::determinize(&g.view(p), &mut rng);
            world.check_invariants().unwrap();
            assert_eq!(world.current_player(), p);
            world.legal_actions(&mut again);
            assert_eq!(
                again,
                legal,
                "{}: the mover's listing after determinizing",
                G::FAMILY
            );
        }
        // Ending actions come last in both listings; lean to them so that
        // hands end in reasonable time.
        let i = if rng.random_range(0..3) == 0 {
            legal.len() - 1
        } else {
            rng.random_range(0..legal.len())
        };
        let mut probe = g.clone();
        probe
            .apply(legal[i])
            .unwrap_or_else(|e| panic!("{}: listed action {} refused: {e}", G::FAMILY, legal[i]));
        let mut listed = g.clone();
        listed
            .apply_listed(legal[i])
            .unwrap_or_else(|e| panic!("{}: apply_listed of {} refused: {e}", G::FAMILY, legal[i]));
        assert!(
            listed == probe,
            "{}: apply_listed of {} reached another state than apply",
            G::FAMILY,
            legal[i]
        );
        g = probe;
        g.check_invariants()
            .unwrap_or_else(|e| panic!("{} after {}: {e}", G::FAMILY, legal[i]));
        steps += 1;
        assert!(steps < 1_000_000, "{}: the hand never ends", G::FAMILY);
    }
    let total: i64 = (0..g.sides()).map(|s| g.side_score(s) as i64).sum();
    assert!(total.abs() < 1_000_000);
    steps
}

#[test]
fn decorated_hands_keep_the_interface_promises() {
    for seed in 0..hands() {
        assert!(soak(GameState::new(Rules::default(), seed), seed) > 0);
    }
}

#[test]
fn classic_hands_keep_the_interface_promises() {
    for players in [2, 3, 4, 6] {
        let mut rules = ClassicRules::default();
        rules.set("players", &players.to_string()).unwrap();
        for seed in 0..hands() {
            let g = ClassicState::new(rules, seed, seed as usize, [0; 6]);
            assert_eq!(Game::sides(&g), if players == 4 { 2 } else { players });
            assert!(soak(g, seed) > 0);
        }
    }
}

/// C-20 partnerships: with four players seats 0 and 2 are side 0, 1 and 3
/// side 1; decorated players play alone.
#[test]
fn sides_of_seats() {
    let mut rules = ClassicRules::default();
    rules.set("players", "4").unwrap();
    let g = ClassicState::new(rules, 1, 0, [0; 6]);
    let sides: Vec<usize> = (0..4).map(|p| Game::side_of(&g, p)).collect();
    assert_eq!(sides, [0, 1, 0, 1]);
    let d = GameState::new(Rules::default(), 1);
    assert_eq!(Game::side_of(&d, 1), 1);
    assert_eq!(Game::sides(&d), 2);
}
