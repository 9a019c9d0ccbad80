//! Quick paired duel for agent development (the `kanaszta play` command is
//! the full tool): `duel A B [HANDS] [SEED]`, e.g. `duel rules greedy 400`.
//! Every deal is played twice with the seats swapped.

use kanaszta_agents::{play_hand, seat_rng, Agent, AgentSpec};
use kanaszta_engine::{derive_seed, GameState, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a: AgentSpec = args
        .get(1)
        .map_or("greedy", |s| s)
        .parse()
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    let b: AgentSpec = args
        .get(2)
        .map_or("random", |s| s)
        .parse()
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    let deals: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(200);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let t = Instant::now();
    let (mut wins, mut losses, mut ties) = (0u64, 0u64, 0u64);
    let mut diffs: Vec<f64> = Vec::new();
    let mut actions = 0;
    for d in 0..deals {
        let gs = derive_seed(seed, d);
        let mut pair = 0.0;
        for swap in [false, true] {
            let mut g = GameState::new(Rules::default(), gs);
            let mut agents: Vec<Box<dyn Agent>> = if swap {
                vec![b.build(), a.build()]
            } else {
                vec![a.build(), b.build()]
            };
            let mut rngs = vec![seat_rng(gs, 0), seat_rng(gs, 1)];
            match play_hand(&mut g, &mut agents, &mut rngs) {
                Ok(p) => actions += p.actions,
                Err(e) => {
                    eprintln!("deal {d}: {e}");
                    continue;
                }
            }
            let s = g.scores();
            let (ia, ib) = if swap { (1, 0) } else { (0, 1) };
            let diff = (s[ia].total - s[ib].total) as f64;
            pair += diff;
            match diff.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => wins += 1,
                Some(std::cmp::Ordering::Less) => losses += 1,
                _ => ties += 1,
            }
        }
        diffs.push(pair / 2.0);
    }
    let n = (wins + losses + ties) as f64;
    let p = (wins as f64 + ties as f64 / 2.0) / n;
    let se = (p * (1.0 - p) / n).sqrt();
    let m = diffs.iter().sum::<f64>() / diffs.len() as f64;
    let v = diffs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (diffs.len() as f64 - 1.0);
    let mse = (v / diffs.len() as f64).sqrt();
    println!(
        "{a} vs {b}: {n} hands ({deals} paired deals): hand wins {wins}-{losses}-{ties}, rate {:.3} ± {:.3}; mean diff per hand {:.0} ± {:.0} (95%); {:.1} s, {actions} actions",
        p,
        1.96 * se,
        m,
        1.96 * mse,
        t.elapsed().as_secs_f64()
    );
}
