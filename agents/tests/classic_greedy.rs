//! The classic greedy player against random (C-1 … C-24): over a few
//! hundred paired hands greedy's side wins clearly more than half, the
//! lower end of the 95% Wilson interval above one half; and unknown
//! classic specs are refused with the accepted names.

use kanaszta_agents::classic::play::play_classic_hand;
use kanaszta_agents::seat_rng;
use kanaszta_agents::Agent;
use kanaszta_agents::AgentSpec;
use kanaszta_engine::classic::{ClassicRules, ClassicState};

/// The 95% Wilson interval's lower end.
fn wilson_lo(wins: f64, n: f64) -> f64 {
    let z = 1.96f64;
    let p = wins / n;
    let d = 1.0 + z * z / n;
    (p + z * z / (2.0 * n) - z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt()) / d
}

/// Greedy's hand wins (ties count half) over `deals` deals, each played
/// twice with greedy holding side 0 then side 1.
fn greedy_vs_random(players: usize, deals: u64) -> (f64, f64) {
    let mut rules = ClassicRules::preset("classic-002").unwrap();
    rules.set("players", &players.to_string()).unwrap();
    let greedy: AgentSpec<ClassicState> = "greedy".parse().unwrap();
    let random: AgentSpec<ClassicState> = "random".parse().unwrap();
    let (mut wins, mut n) = (0.0, 0.0);
    for deal in 0..deals {
        for greedy_side in 0..2 {
            let seed = kanaszta_engine::seed::deal(11, deal);
            let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
            let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..players)
                .map(|p| {
                    let side = rules.side_of(p).min(1);
                    if side == greedy_side {
                        greedy.build()
                    } else {
                        random.build()
                    }
                })
                .collect();
            let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(seed, p)).collect();
            play_classic_hand(&mut g, &mut agents, &mut rngs).unwrap();
            // Greedy's best side against the best other side.
            let s = g.scores();
            let sides = rules.sides();
            let best = |mine: bool| {
                (0..sides)
                    .filter(|&x| (x.min(1) == greedy_side) == mine)
                    .map(|x| s[x])
                    .max()
                    .unwrap()
            };
            let (a, b) = (best(true), best(false));
            wins += if a > b {
                1.0
            } else if a == b {
                0.5
            } else {
                0.0
            };
            n += 1.0;
        }
    }
    (wins / n, wilson_lo(wins, n))
}

#[test]
fn classic_greedy_beats_random_in_partnerships() {
    let (rate, lo) = greedy_vs_random(4, 100);
    assert!(
        lo > 0.6,
        "greedy won {rate:.3} of 200 hands, interval from {lo:.3}"
    );
}

#[test]
fn classic_greedy_beats_random_heads_up() {
    let (rate, lo) = greedy_vs_random(2, 100);
    assert!(
        lo > 0.6,
        "greedy won {rate:.3} of 200 hands, interval from {lo:.3}"
    );
}

#[test]
fn unknown_classic_agent_is_refused_with_the_accepted_names() {
    let e = "minimax"
        .parse::<AgentSpec<ClassicState>>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown classic agent `minimax`"), "{e}");
    assert!(e.contains("random, greedy, rules, ismcts, pimc"), "{e}");
    let e = "greedy:x=1"
        .parse::<AgentSpec<ClassicState>>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("greedy has no parameter `x`"), "{e}");
    assert!(e.contains("no parameters"), "{e}");
    assert_eq!(
        "GREEDY"
            .parse::<AgentSpec<ClassicState>>()
            .unwrap()
            .to_string(),
        "greedy"
    );
}
