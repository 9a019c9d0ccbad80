//! The registry of agents by name: every registered agent — the example
//! agent of `agents/examples/careful.rs` among them — parses from its
//! name, prints back to it, documents its parameters, and plays whole
//! hands through the one way to act (`Agent::act` over the turn's
//! `Moves`) without an error.

use kanaszta_agents::registry::careful::CarefulParams;
use kanaszta_agents::{agent_names, play_hand, seat_rng, AgentSpec};
use kanaszta_engine::{GameState, Rules};

#[test]
fn every_registered_agent_plays_hands_by_name() {
    let names: Vec<&str> = agent_names().collect();
    assert_eq!(
        names,
        ["random", "greedy", "rules", "ismcts", "pimc", "careful"]
    );
    let help = AgentSpec::help();
    for name in names {
        let spec: AgentSpec = name.parse().unwrap();
        assert_eq!((spec.name(), spec.to_string()), (name, name.to_string()));
        assert!(help.contains(&format!("{name} — ")), "{help}");
        // The search agents on a small budget: the way to act is the point.
        let spec: AgentSpec = match name {
            "ismcts" => "ismcts:iters=8".parse().unwrap(),
            "pimc" => "pimc:worlds=2".parse().unwrap(),
            _ => spec,
        };
        let hands = if matches!(name, "ismcts" | "pimc") {
            1
        } else {
            20
        };
        for seed in 0..hands {
            let mut g = GameState::new(Rules::default(), seed);
            let greedy: AgentSpec = "greedy".parse().unwrap();
            let mut agents = [spec.build(), greedy.build()];
            let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
            play_hand(&mut g, &mut agents, &mut rngs)
                .unwrap_or_else(|e| panic!("{name}, hand {seed}: {e}"));
            assert!(g.is_terminal());
        }
    }
}

/// The example agent's parameters come from its one declaration: parsed,
/// checked against their range, printed only where they differ from the
/// default, and documented in `kanaszta agents`.
#[test]
fn the_example_agents_parameters_come_from_its_declaration() {
    let spec: AgentSpec = "careful:pile=8".parse().unwrap();
    assert_eq!(spec.to_string(), "careful:pile=8");
    assert_eq!(spec.params::<CarefulParams>().map(|p| p.pile), Some(8));
    assert_eq!(
        AgentSpec::of(CarefulParams::default()),
        "careful".parse::<AgentSpec>().unwrap()
    );
    let e = "careful:pile=0"
        .parse::<AgentSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("bad value `0`") && e.contains("from 1 to 112"),
        "{e}"
    );
    let e = "careful:speed=2"
        .parse::<AgentSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("accepted: pile=1..112"), "{e}");
    assert!(AgentSpec::help()
        .contains("    pile       smallest pile it takes (default 5; accepts 1..112)"));
}
