//! Criterion benchmarks of play with agents: a whole greedy hand, a whole
//! greedy match to 10,000, writing a `hands.csv` row, and one ISMCTS
//! decision at the default budget (throughput in iterations, so criterion
//! reports iterations/s). Each asserts what it computed, so a fast wrong
//! answer fails instead of looking good.
//!
//! `cargo bench -p kanaszta-benches --bench play`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kanaszta_agents::{
    play_hand, play_match, seat_rng, Agent, AgentSpec, IsmctsAgent, IsmctsParams, Params,
};
use kanaszta_engine::{CardSet, GameState, Match, MoveBuf, Rules};
use std::hint::black_box;
use std::time::Duration;

// The row type of `hands.csv`, the very code the `kanaszta` command writes with.
#[allow(dead_code, unused_imports)]
#[path = "../../sim/src/rows.rs"]
mod rows;

fn agents(spec: &str) -> Vec<Box<dyn Agent>> {
    let s: AgentSpec = spec.parse().expect("spec");
    vec![s.build(), s.build()]
}

fn greedy_hand(seed: u64) -> (GameState, u64) {
    let mut g = GameState::new(Rules::default(), seed);
    let mut a = agents("greedy");
    let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
    let play = play_hand(&mut g, &mut a, &mut rngs).expect("greedy plays legally");
    (g, play.actions)
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    group.throughput(Throughput::Elements(10));
    let mut base = 0u64;
    group.bench_function("greedy_v_greedy_x10", |b| {
        b.iter(|| {
            base += 10;
            let mut n = 0;
            for s in base..base + 10 {
                n += greedy_hand(black_box(s)).1;
            }
            n
        })
    });
    group.finish();
    // The same seed replays the same hand, which ends with every card there.
    let (g, n) = greedy_hand(7);
    assert!(g.is_terminal() && n > 10);
    assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    assert_eq!(greedy_hand(7).1, n);
}

fn greedy_match(seed: u64) -> Match {
    let mut m = Match::new(Rules::default(), seed);
    let mut a = agents("greedy");
    play_match(&mut m, &mut a, |_, _, _| {}).expect("greedy plays legally");
    m
}

fn matches(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("match/greedy_v_greedy", |b| {
        b.iter(|| {
            seed += 1;
            greedy_match(black_box(seed))
        })
    });
    let m = greedy_match(3);
    let r = m.result().expect("a match ends");
    assert!(r.capped || r.totals.iter().any(|t| *t > Rules::default().target));
    assert_eq!(r.hands, m.hands_played());
}

fn csv_rows(c: &mut Criterion) {
    let (g, actions) = greedy_hand(11);
    let s = g.score_of(0);
    let row = rows::HandRow {
        mode: "hands".into(),
        agent: "greedy".into(),
        opponent: "greedy".into(),
        turns: g.turns(),
        actions,
        end: "normal".into(),
        raw: s.total,
        taxed: s.total,
        base: s.base,
        melded: s.melded,
        in_hand: s.in_hand,
        card_value: s.card_value,
        rules: rows::rule_values(&Rules::default()),
        ..Default::default()
    };
    let mut group = c.benchmark_group("csv");
    group.throughput(Throughput::Elements(100));
    let mut buf = Vec::with_capacity(64 * 1024);
    group.bench_function("hand_rows_x100", |b| {
        b.iter(|| {
            buf.clear();
            for _ in 0..100 {
                black_box(&row).write_csv(&mut buf);
            }
            buf.len()
        })
    });
    group.finish();
    // What is written reads back to the same rows (written again here, so
    // that the check holds when a filter skips the measurement).
    buf.clear();
    for _ in 0..100 {
        row.write_csv(&mut buf);
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(rows::HandRow::header()).unwrap();
    let mut bytes = w.into_inner().unwrap();
    bytes.extend_from_slice(&buf);
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let recs: Vec<_> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(recs.len(), 100);
    for rec in &recs {
        assert_eq!(rows::HandRow::from_cells(rec).unwrap(), row);
    }
}

fn ismcts(c: &mut Criterion) {
    // One decision of ismcts at its default budget, in a draw phase where
    // the pile may be taken (draw, take and the free pickup are compared):
    // with the default rollouts (the rules policy to the end of the hand)
    // and with greedy rollouts. Throughput is in iterations, so criterion
    // reports iterations/s; the time per iteration is the decision time.
    let g = kanaszta_benches::draw_state();
    let p = g.current_player();
    let view = g.view(p);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut group = c.benchmark_group("ismcts");
    group.sample_size(10);
    for (name, rollout) in [
        ("decision_default_budget", None),
        ("decision_greedy_rollouts", Some("greedy")),
    ] {
        let mut params = IsmctsParams::default();
        if let Some(r) = rollout {
            params.set("rollout", r).expect("a known rollout policy");
        }
        let mut agent = IsmctsAgent::new(params);
        let mut rng = seat_rng(5, p);
        let mut buf = MoveBuf::new();
        let a = agent.act(&view, &mut g.moves(&mut buf), &mut rng);
        assert!(legal.contains(&a), "ismcts chose a legal action");
        let stats = agent.search_stats();
        // The budget is `iters`, times `focus` at this draw-or-pickup
        // decision, less an early stop, plus a race when it is close.
        assert!(stats.iterations > 0, "the search ran");
        group.throughput(Throughput::Elements(stats.iterations));
        group.bench_function(name, |b| {
            b.iter(|| {
                agent.restart();
                agent.act(black_box(&view), &mut g.moves(&mut buf), &mut rng)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = hands, matches, csv_rows, ismcts
}
criterion_main!(benches);
