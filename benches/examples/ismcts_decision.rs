//! One ISMCTS decision at the position of the criterion benchmark
//! `ismcts/decision_greedy_rollouts` (or `--rollout rules`), repeated, for
//! a profiler: instruction counts under callgrind repeat exactly where
//! wall-clock times on a shared machine do not.
//!
//! ```text
//! cargo build --release -p kanaszta-benches --example ismcts_decision
//! valgrind --tool=callgrind target/release/examples/ismcts_decision 3
//! ```
//!
//! Arguments: the number of decisions (default 3), then the rollout
//! policy (default `greedy`). Prints the action chosen each time.

use kanaszta_agents::ismcts::{IsmctsAgent, IsmctsParams};
use kanaszta_agents::spec::Params;
use kanaszta_agents::Agent;
use rand::SeedableRng;

fn main() {
    let mut args = std::env::args().skip(1);
    let decisions: usize = match args.next().map(|s| s.parse()) {
        None => 3,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("the number of decisions must be a whole number: {e}");
            std::process::exit(2);
        }
    };
    let rollout = args.next().unwrap_or_else(|| "greedy".into());
    let g = kanaszta_benches::draw_state();
    let p = g.current_player();
    let view = g.view(p);
    let mut buf = kanaszta_engine::MoveBuf::new();
    let mut params = IsmctsParams::default();
    if let Err(e) = params.set("rollout", &rollout) {
        eprintln!("rollout `{rollout}`: {e}");
        std::process::exit(2);
    }
    let mut agent = IsmctsAgent::new(params);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    for _ in 0..decisions {
        agent.restart();
        let a = agent.act(&view, &mut g.moves(&mut buf), &mut rng);
        println!("{a}");
    }
}
