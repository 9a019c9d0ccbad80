use kanaszta_engine::{Action, GameState, Rules};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let mut legal = Vec::new();
    let t = Instant::now();
    let mut steps = 0u64;
    for seed in 0..n {
        let mut g = GameState::new(Rules::default(), seed);
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0xABCD);
        let mut hist: Vec<Action> = Vec::new();
        let only: Option<u64> = std::env::args().nth(2).and_then(|s| s.parse().ok());
        if only.is_some_and(|o| o != seed) {
            continue;
        }
        while !g.is_terminal() {
            let t0 = Instant::now();
            g.legal_actions(&mut legal);
            let dt = t0.elapsed();
            if dt.as_millis() > 50 {
                eprintln!("slow legal_actions seed {seed} {:?} {} actions phase {:?} hand [{}] pending [{}]", dt, legal.len(), g.phase(), g.hand(g.current_player()), g.pending_wilds());
            }
            if legal.is_empty() {
                let c = g.current_player();
                eprintln!("DEAD seed {seed}: phase {:?} hand [{}] table {:?} flags {:?} pile top {:?} len {} pickup {:?} must {} pending [{}] hist {:?}", g.phase(), g.hand(c), g.table(c), g.table(c).groups().iter().map(|x| x.flags()).collect::<Vec<_>>(), g.pile_top(), g.pile().len(), g.pickup(), g.must_go_out(), g.pending_wilds(), &hist[hist.len().saturating_sub(6)..].iter().map(|a: &Action| a.to_string()).collect::<Vec<_>>());
                break;
            }
            let d: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Discard(_)))
                .collect();
            let legal: Vec<Action> = if legal.len() > 1 && rng.random_range(0..20) != 0 {
                legal
                    .iter()
                    .copied()
                    .filter(|a| *a != Action::Reset)
                    .collect()
            } else {
                legal.clone()
            };
            let a = if !d.is_empty() && rng.random_range(0..3) == 0 {
                d[rng.random_range(0..d.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            g.apply(a).unwrap();
            hist.push(a);
            steps += 1;
        }
    }
    eprintln!("{n} hands {steps} steps in {:?}", t.elapsed());
}
