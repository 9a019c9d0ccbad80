//! The stability of ISMCTS's decisions: a fixed set of positions from
//! seeded games (rules against rules), each searched twice with different
//! seeds; the share of positions where both searches choose the same
//! action. A sound search of enough budget agrees with itself; one whose
//! choice is the best of many noisy means flips from seed to seed.
//!
//! Quick by default (a few positions at a small budget). For the measure,
//! `KANASZTA_STABILITY_POSITIONS=30` and `KANASZTA_STABILITY_SPEC=SPEC`
//! (any spec; `ismcts` is the agent at its default budget), e.g.
//! `KANASZTA_STABILITY_POSITIONS=30 KANASZTA_STABILITY_SPEC=ismcts:margin=2.5,race=64,focus=2,early=3
//! cargo test --release -p kanaszta-agents --test stability -- --nocapture`.

use kanaszta_agents::{Agent, AgentSpec, RulesAgent};
use kanaszta_engine::{Action, GameState, MoveBuf, Phase, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    match std::env::var(key) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{key}={v} is not a valid value")),
        Err(_) => default,
    }
}

/// Positions where the seat's decision is a searched one: a draw where the
/// pile may be taken, or a discard among several cards. Every third such
/// point of a game, from seeded games of rules against rules.
fn positions(n: usize) -> Vec<GameState> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    let mut buf = MoveBuf::new();
    for seed in 0u64.. {
        let mut g = GameState::new(Rules::default(), 1000 + seed);
        let mut agents = [RulesAgent::default(), RulesAgent::default()];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut seen = 0;
        while !g.is_terminal() && g.turns() < 80 && out.len() < n {
            g.legal_actions(&mut legal);
            let decision = match g.phase() {
                Phase::Draw => legal.len() > 1,
                Phase::Meld => {
                    legal
                        .iter()
                        .filter(|a| matches!(a, Action::Discard(_)))
                        .count()
                        > 1
                }
                _ => false,
            };
            if decision {
                seen += 1;
                if seen % 3 == 0 {
                    out.push(g.clone());
                }
            }
            let me = g.current_player();
            let a = agents[me].act(&g.view(me), &mut g.moves(&mut buf), &mut rng);
            g.apply(a).expect("the rules agent plays legal actions");
            for (p, ag) in agents.iter_mut().enumerate() {
                if p != me {
                    ag.inform(me, a);
                }
            }
        }
        if out.len() >= n {
            break;
        }
    }
    out
}

/// The time this thread has run on a processor, where Linux tells it
/// (`/proc/thread-self/schedstat`): on a busy machine a decision's wall time
/// counts the other processes' turns too.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The action a fresh agent of `spec` chooses at `g` with the seed, whether
/// it searched to choose it, the policy's own choice and the wall time of
/// the decision (its processor time where known).
fn decide(spec: &AgentSpec, g: &GameState, seed: u64) -> (Action, bool, String, Duration) {
    let mut agent = spec.build();
    let me = g.current_player();
    let mut buf = MoveBuf::new();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let (start, cpu) = (Instant::now(), cpu_time());
    let a = agent.act(&g.view(me), &mut g.moves(&mut buf), &mut rng);
    let took = match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => start.elapsed(),
    };
    let policy = agent
        .choices()
        .iter()
        .find(|c| c.policy)
        .map_or("-".to_string(), |c| c.option.to_string());
    (a, !agent.choices().is_empty(), policy, took)
}

#[test]
fn ismcts_decisions_agree_across_seeds() {
    let n: usize = env_or("KANASZTA_STABILITY_POSITIONS", 3);
    let text: String = env_or("KANASZTA_STABILITY_SPEC", "ismcts:iters=40".to_string());
    let spec: AgentSpec = text
        .parse()
        .unwrap_or_else(|e| panic!("KANASZTA_STABILITY_SPEC={text}: {e}"));
    let mut searched = 0;
    let mut agree = 0;
    let mut times = Vec::new();
    for (i, g) in positions(n).iter().enumerate() {
        let (a, sa, pa, ta) = decide(&spec, g, 1);
        let (b, sb, pb, tb) = decide(&spec, g, 2);
        // The same seed gives the same decision (results do not depend on
        // anything but the seed).
        assert_eq!(
            decide(&spec, g, 1).0,
            a,
            "position {i}: same seed, same choice"
        );
        if sa || sb {
            times.extend([ta, tb]);
            searched += 1;
            agree += usize::from(a == b);
            if a != b {
                eprintln!(
                    "position {i} (turn {}): {a} v {b} (the policy's: {pa}, {pb})",
                    g.turns() + 1
                );
            }
        }
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    eprintln!(
        "{text}: the same choice at {agree} of {searched} searched positions ({:.0}%); \
         {:.1} ms the median decision ({} time)",
        100.0 * agree as f64 / searched.max(1) as f64,
        median.as_secs_f64() * 1000.0,
        if cpu_time().is_some() {
            "processor"
        } else {
            "wall"
        }
    );
    assert!(searched > 0, "no position needed a search");
}
