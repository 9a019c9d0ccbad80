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
    // The registry is the list: a new entry is tested here without any
    // change to this file. The built-in players are among them.
    for built_in in ["random", "greedy", "rules", "ismcts", "pimc", "careful"] {
        assert!(names.contains(&built_in), "{built_in} missing: {names:?}");
    }
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        names.len(),
        "a name registered twice: {names:?}"
    );
    let help = AgentSpec::help();
    for name in names {
        let spec: AgentSpec = name.parse().unwrap();
        assert_eq!((spec.name(), spec.to_string()), (name, name.to_string()));
        assert!(help.contains(&format!("{name} — ")), "{help}");
        // A search agent on a small budget, whatever its name: the way to
        // act is the point here, not its strength.
        let mut spec = spec;
        let mut searches = false;
        for (key, small) in [("iters", "8"), ("worlds", "2")] {
            if spec.docs().iter().any(|d| d.key == key) {
                spec = spec.with(key, small).unwrap();
                searches = true;
            }
        }
        let hands = if searches { 1 } else { 20 };
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
