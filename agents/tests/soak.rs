//! Every agent plays complete hands without an illegal action (the engine's
//! soak, run with each agent). `KANASZTA_AGENT_SOAK_HANDS=N` plays N hands
//! per pairing (default 1,000 for the cheap agents; searching agents play a
//! tenth of that at a small budget).

use kanaszta_agents::{play_hand, seat_rng, Agent, AgentSpec};
use kanaszta_engine::{derive_seed, GameState, Rules};

fn hands(default: u64) -> u64 {
    std::env::var("KANASZTA_AGENT_SOAK_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn soak(a: &str, b: &str, n: u64, rules: Rules) -> (u64, [i64; 2]) {
    let sa: AgentSpec = a.parse().unwrap();
    let sb: AgentSpec = b.parse().unwrap();
    let mut actions = 0;
    let mut points = [0i64; 2];
    for i in 0..n {
        let seed = derive_seed(0x50A4, i);
        let mut g = GameState::new(rules, seed);
        // Paired: seat 0 is `a` on even games, `b` on odd ones.
        let swap = i % 2 == 1;
        let mut agents: Vec<Box<dyn Agent>> = if swap {
            vec![sb.build(), sa.build()]
        } else {
            vec![sa.build(), sb.build()]
        };
        let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
        let play = play_hand(&mut g, &mut agents, &mut rngs)
            .unwrap_or_else(|e| panic!("{a} vs {b}, game {i} (seed {seed}): {e}"));
        assert!(g.is_terminal());
        g.check_invariants().unwrap();
        actions += play.actions;
        let s = g.scores();
        let (ia, ib) = if swap { (1, 0) } else { (0, 1) };
        points[0] += s[ia].total as i64;
        points[1] += s[ib].total as i64;
    }
    (actions, points)
}

#[test]
fn random_and_greedy_play_thousands_of_hands() {
    let n = hands(1_000);
    let (_, p) = soak("random", "random", n, Rules::default());
    eprintln!("random vs random: {p:?}");
    let (_, p) = soak("greedy", "random", n, Rules::default());
    eprintln!("greedy vs random: {p:?}");
    assert!(p[0] > p[1], "greedy outscores random over {n} hands: {p:?}");
    let (_, p) = soak("greedy", "greedy", n, Rules::default());
    eprintln!("greedy vs greedy: {p:?}");
}

#[test]
fn agents_play_under_every_non_default_switch() {
    let n = hands(1_000) / 4;
    let mut rules = Rules::default();
    for (k, v) in [
        ("opening", "table"),
        ("tax", "off"),
        ("free_pickup_wild", "forbid"),
        ("groups_per_rank", "many"),
        ("black_canasta_wilds", "convert_only"),
        ("wild_canasta", "open"),
        ("reshuffle", "on_draw"),
        ("version", "decorated-2003-01"),
    ] {
        rules
            .set(k, v)
            .unwrap_or_else(|e| panic!("switch {k}={v}: {e}"));
    }
    soak("greedy", "random", n, rules);
    let mut three = Rules::default();
    three.set("players", "3").unwrap();
    let three_soak = |a: &str| {
        let spec: AgentSpec = a.parse().unwrap();
        for i in 0..n / 2 {
            let seed = derive_seed(0x3333, i);
            let mut g = GameState::new(three, seed);
            let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| spec.build()).collect();
            let mut rngs: Vec<_> = (0..3).map(|p| seat_rng(seed, p)).collect();
            play_hand(&mut g, &mut agents, &mut rngs)
                .unwrap_or_else(|e| panic!("three {a}, game {i}: {e}"));
        }
    };
    three_soak("greedy");
}
