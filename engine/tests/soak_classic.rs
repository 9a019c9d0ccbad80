//! Random-play soak of classic canasta (C-1 … C-24), in the spirit of
//! OpenSpiel's random simulation test: under each preset and for 2, 3, 4
//! and 6 players, at every step the pack is conserved (108 cards, 110 with
//! six jokers) and every meld legal, the listing is never empty before
//! the end, every listed action is accepted by `apply` and a sample of
//! unlisted ones refused, and a view determinizes into a consistent state
//! (same view, pack conserved, the mover's listing unchanged). Every hand
//! ends; match totals are the sums of the hand scores.
//!
//! `KANASZTA_SOAK_HANDS` sets the number of hands per preset and player
//! count (default: 4 in debug builds, 120 in release builds). With 25,000
//! (100,000 hands a preset, 300,000 in all) it runs about ten minutes in
//! release on one core.

use kanaszta_engine::classic::{
    ClassicAction, ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState, Counts, Kind,
    MeldKey, CLASSIC_PRESETS,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn hands() -> u64 {
    std::env::var("KANASZTA_SOAK_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 4 } else { 120 })
}

/// A random policy that ends meld phases: it discards or ends with some
/// probability whenever it may, and rarely undoes.
fn pick(legal: &[ClassicAction], rng: &mut Pcg64Mcg) -> ClassicAction {
    let ends: Vec<ClassicAction> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, ClassicAction::Discard(_) | ClassicAction::End))
        .collect();
    if !ends.is_empty() && rng.random_range(0..3) == 0 {
        return ends[rng.random_range(0..ends.len())];
    }
    let pool: Vec<ClassicAction> = legal
        .iter()
        .copied()
        .filter(|a| {
            !matches!(a, ClassicAction::Reset | ClassicAction::TakeBack { .. })
                || rng.random_range(0..10) == 0
        })
        .collect();
    let pool = if pool.is_empty() { legal } else { &pool[..] };
    pool[rng.random_range(0..pool.len())]
}

/// A sample of actions, mostly unlisted, to be refused unless listed.
fn probes(rng: &mut Pcg64Mcg) -> [ClassicAction; 6] {
    let kind = |rng: &mut Pcg64Mcg| Kind::ALL[rng.random_range(0..14)];
    let rank = |rng: &mut Pcg64Mcg| Kind::ALL[rng.random_range(0..11)];
    let counts = |rng: &mut Pcg64Mcg| Counts {
        naturals: rng.random_range(0..4),
        twos: rng.random_range(0..3),
        jokers: rng.random_range(0..3),
    };
    [
        ClassicAction::Discard(kind(rng)),
        ClassicAction::Extend {
            rank: rank(rng),
            kind: kind(rng),
        },
        ClassicAction::Lay {
            key: MeldKey::Rank(rank(rng)),
            cards: counts(rng),
        },
        ClassicAction::TakePile {
            key: MeldKey::Rank(rank(rng)),
            with: counts(rng),
        },
        ClassicAction::End,
        ClassicAction::TakeRest,
    ]
}

/// Plays one hand at random with every check; returns the steps.
fn play_checked(mut g: ClassicState, seed: u64) -> (ClassicState, u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5EED);
    let mut legal = Vec::new();
    let mut k = 0u64;
    while !g.is_terminal() {
        if let Err(e) = g.check_invariants() {
            panic!("seed {seed} step {k}: {e}\n{g:?}");
        }
        g.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "seed {seed} step {k}: nothing legal\n{g:?}"
        );
        if k.is_multiple_of(5) {
            for a in &legal {
                let mut c = g.clone();
                if let Err(e) = c.apply(*a) {
                    panic!("seed {seed} step {k}: listed {a} refused: {e}");
                }
            }
            for a in probes(&mut rng) {
                let mut c = g.clone();
                let ok = c.apply(a).is_ok();
                assert_eq!(
                    ok,
                    legal.contains(&a),
                    "seed {seed} step {k}: {a} accepted {ok}, listed {}",
                    legal.contains(&a)
                );
                if !ok {
                    assert_eq!(c, g, "a refused action leaves the state unchanged");
                }
            }
        }
        if k.is_multiple_of(7) {
            for p in 0..g.players() {
                let v = g.view(p);
                let d = v.determinize(&mut rng);
                d.check_invariants()
                    .unwrap_or_else(|e| panic!("seed {seed} step {k}: determinized: {e}"));
                assert_eq!(
                    format!("{:?}", d.view(p)),
                    format!("{v:?}"),
                    "seed {seed} step {k}: the sample shows seat {p} the same view"
                );
                if p == g.current_player() {
                    let mut dl = Vec::new();
                    d.legal_actions(&mut dl);
                    assert_eq!(dl, legal, "seed {seed} step {k}: the mover's listing");
                }
            }
        }
        let a = pick(&legal, &mut rng);
        g.apply(a)
            .unwrap_or_else(|e| panic!("seed {seed} step {k}: {a}: {e}\n{g:?}"));
        k += 1;
        assert!(k < 200_000, "seed {seed}: runaway hand");
    }
    g.check_invariants().unwrap();
    (g, k)
}

fn soak(preset: &str, players: u8, n: u64) {
    let mut r = ClassicRules::preset(preset).unwrap();
    r.players = players;
    let mut steps = 0;
    let mut went_out = 0;
    for h in 0..n {
        let seed = h * 7919 + players as u64;
        let g = ClassicState::new(r, seed, (h % players as u64) as usize, [0; 6]);
        assert_eq!(g.all_cards().unwrap().len() as usize, r.pack_size());
        let (g, k) = play_checked(g, seed);
        steps += k;
        if matches!(
            g.end(),
            Some(kanaszta_engine::classic::ClassicEnd::WentOut { .. })
        ) {
            went_out += 1;
        }
    }
    eprintln!("{preset} {players}p: {n} hands, {steps} steps, {went_out} went out");
    assert!(steps > 0);
}

#[test]
fn soak_every_preset_and_player_count() {
    let n = hands();
    for preset in CLASSIC_PRESETS {
        for players in [2, 3, 4, 6] {
            soak(preset, players, n);
        }
    }
}

/// C-12, C-24: a match's totals are the sums of its hands' scores.
#[test]
fn soak_matches_add_up() {
    for preset in CLASSIC_PRESETS {
        for players in [2, 4] {
            let mut r = ClassicRules::preset(preset).unwrap();
            r.players = players;
            r.max_hands = 3;
            let mut m = ClassicMatch::new(r, 11);
            let mut sums = vec![0; r.sides()];
            while m.result() == ClassicMatchResult::Playing {
                let (g, _) = play_checked(m.next_hand(), m.hands_played() as u64);
                for (s, x) in sums.iter_mut().zip(g.scores()) {
                    *s += x;
                }
                m.record(&g);
            }
            assert_eq!(m.totals(), &sums[..]);
            assert!(m.hands_played() <= 3);
        }
    }
}
