//! Criterion benchmarks of the engine: dealing, legal-action listing in
//! representative positions, apply, cloning, determinization, a seat's
//! encoding and legal mask, and whole hands. Each asserts what it computed (outside the timed loop or cheaply
//! inside it), so a fast wrong answer fails instead of looking good.
//!
//! `cargo bench -p kanaszta-benches` (add `-- <filter>` for a subset).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kanaszta_benches::{draw_state, meld_state, pickup_state, random_hand, simple_hand};
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Action, ActionIds, CardSet, Encode, GameState, Phase, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;
use std::time::Duration;

fn deal(c: &mut Criterion) {
    // Shuffle and deal: a new hand, then the cut decision that deals.
    let mut seed = 0u64;
    c.bench_function("deal/new", |b| {
        b.iter(|| {
            seed += 1;
            GameState::new(black_box(Rules::default()), seed)
        })
    });
    c.bench_function("deal/new_and_cut", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = GameState::new(Rules::default(), seed);
            g.apply(Action::KeepCut { mask: 0 })
                .expect("a listed action");
            g
        })
    });
    let mut g = GameState::new(Rules::default(), 1);
    g.apply(Action::KeepCut { mask: 0 })
        .expect("a listed action");
    assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    assert_eq!(
        g.hand(0).len()
            + g.hand(1).len()
            + g.table(0).red_threes.len()
            + g.table(1).red_threes.len(),
        29
    );
}

fn legal(c: &mut Criterion) {
    let mut legal = Vec::with_capacity(1024);
    let mut group = c.benchmark_group("legal");
    for (name, g) in [
        ("draw", draw_state()),
        ("meld_opened", meld_state()),
        ("meld_pickup", pickup_state()),
    ] {
        g.legal_actions(&mut legal);
        match name {
            "draw" => assert!(legal.contains(&Action::Draw) && legal.contains(&Action::TakePile)),
            "meld_opened" => assert!(
                legal.iter().any(|a| matches!(a, Action::Discard(_)))
                    && legal.iter().any(|a| matches!(a, Action::Extend { .. }))
            ),
            _ => assert!(legal.iter().all(|a| !matches!(a, Action::Discard(_)))),
        }
        // Every listed action is accepted (checked once, untimed).
        for a in &legal {
            g.clone().apply(*a).unwrap();
        }
        let expect = legal.len();
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&g).legal_actions(&mut legal);
                assert_eq!(legal.len(), expect);
            })
        });
    }
    group.finish();
}

fn apply(c: &mut Criterion) {
    let mut group = c.benchmark_group("apply");
    let g = meld_state();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let extend = *legal
        .iter()
        .find(|a| matches!(a, Action::Extend { .. }))
        .expect("an extend");
    let discard = *legal
        .iter()
        .find(|a| matches!(a, Action::Discard(_)))
        .expect("a discard");
    let draw = draw_state();
    let before = g.hand(g.current_player()).len();
    for (name, start, a) in [
        ("extend", &g, extend),
        ("discard", &g, discard),
        ("draw", &draw, Action::Draw),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || start.clone(),
                |s| {
                    s.apply(black_box(a)).unwrap();
                },
                BatchSize::SmallInput,
            )
        });
    }
    let mut s = g.clone();
    s.apply(extend).unwrap();
    assert_eq!(s.hand(s.current_player()).len(), before - 1);
    assert_eq!(s.all_cards(), Some(CardSet::FULL_PACK));
    group.finish();
}

fn clone(c: &mut Criterion) {
    let g = meld_state();
    c.bench_function("clone", |b| b.iter(|| black_box(&g).clone()));
    assert_eq!(g.clone(), g);
}

fn determinize(c: &mut Criterion) {
    let g = meld_state();
    let p = g.current_player();
    let view = g.view(p);
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    c.bench_function("determinize", |b| {
        b.iter(|| black_box(&view).determinize(&mut rng))
    });
    let d = view.determinize(&mut rng);
    d.check_invariants().unwrap();
    assert_eq!(d.hand(p), g.hand(p));
    assert_eq!(d.table(1 - p), g.table(1 - p));
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode");
    let g = meld_state();
    let p = g.current_player();
    let mut obs = vec![0.0f32; GameState::OBS_LEN];
    GameState::encode(&g.view(p), &mut obs);
    let expect: f32 = obs.iter().sum();
    assert!(expect > 0.0);
    group.bench_function("decorated", |b| {
        b.iter(|| GameState::encode(&black_box(&g).view(p), &mut obs))
    });
    assert_eq!(obs.iter().sum::<f32>(), expect);
    let cl = ClassicState::new(ClassicRules::default(), 3, 0, [0; 6]);
    let mut cobs = vec![0.0f32; ClassicState::OBS_LEN];
    ClassicState::encode(&cl.view(0), &mut cobs);
    let cexpect: f32 = cobs.iter().sum();
    assert!(cexpect > 0.0);
    group.bench_function("classic", |b| {
        b.iter(|| ClassicState::encode(&black_box(&cl).view(0), &mut cobs))
    });
    assert_eq!(cobs.iter().sum::<f32>(), cexpect);
    // The mask over the listing of the meld state.
    let mut legal = Vec::with_capacity(1024);
    let mut mask = vec![false; GameState::ACTION_IDS];
    g.legal_mask(&mut legal, &mut mask);
    let n = legal.len();
    assert!(n > 0 && mask.iter().filter(|&&m| m).count() <= n);
    group.bench_function("decorated_legal_mask", |b| {
        b.iter(|| {
            black_box(&g).legal_mask(&mut legal, &mut mask);
            assert_eq!(legal.len(), n);
        })
    });
    group.finish();
}

fn hands(c: &mut Criterion) {
    // The same ten hands every iteration, so that figures compare across
    // versions; throughput is in actions.
    const SEEDS: std::ops::RangeInclusive<u64> = 1..=10;
    let mut group = c.benchmark_group("hand");
    group.sample_size(10);
    let simple: u64 = SEEDS.map(simple_hand).sum();
    group.throughput(Throughput::Elements(simple));
    group.bench_function("simple_x10", |b| {
        b.iter(|| {
            let n: u64 = SEEDS.map(|s| simple_hand(black_box(s))).sum();
            assert_eq!(n, simple);
        })
    });
    let random: u64 = SEEDS.map(|s| random_hand(s).1).sum();
    group.throughput(Throughput::Elements(random));
    group.bench_function("random_agents_x10", |b| {
        b.iter(|| {
            let n: u64 = SEEDS.map(|s| random_hand(black_box(s)).1).sum();
            assert_eq!(n, random);
        })
    });
    for s in SEEDS {
        let (g, n) = random_hand(s);
        assert!(g.phase() == Phase::Over && n > 10);
        assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Short runs: the machines are small and shared.
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = deal, legal, apply, clone, determinize, encode, hands
}
criterion_main!(benches);
