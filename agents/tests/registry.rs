//! The registry of agents by name, iterated: every registered agent — the
//! example agent of `agents/examples/careful.rs` among them — parses its
//! default spec for every family it claims, prints back to it, documents
//! its parameters, round-trips its spec text, and plays whole hands of
//! each family it claims with only listed actions (an unlisted one is an
//! error of the game, which fails here). A new entry is tested without
//! any change to this file.

use kanaszta_agents::registry::careful::CarefulParams;
use kanaszta_agents::{agent_names, play_turns, seat_rng, AgentSpec, Family, SpecError, AGENTS};
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Game, GameState, Rules};

/// `spec` on a small budget, whatever its name: the way to act is the
/// point here, not its strength. Whether it searches.
fn small<G: Family>(mut spec: AgentSpec<G>) -> (AgentSpec<G>, bool) {
    let mut searches = false;
    for (key, value) in [("iters", "8"), ("worlds", "2")] {
        if spec.docs().iter().any(|d| d.key == key) {
            spec = spec.with(key, value).unwrap();
            searches = true;
        }
    }
    (spec, searches)
}

/// Every entry that claims the family `G`: its default spec parses from
/// the name, prints and round-trips, is in the help, and plays `hands`
/// hands (fewer for a search) against `greedy` in every seat count of
/// `deals`, through the turn loop (which refuses an unlisted action).
/// The number of entries checked.
fn check_family<G: Family>(deal: impl Fn(u64, usize) -> G, seats: &[usize]) -> usize {
    let help = AgentSpec::<G>::family_help();
    let mut checked = 0;
    for entry in AGENTS {
        let Some(plays) = entry.plays::<G>() else {
            let e = entry.name.parse::<AgentSpec<G>>().unwrap_err();
            assert!(
                matches!(&e, SpecError::NotForFamily { agent, .. } if *agent == entry.name),
                "{}: {e:?}",
                entry.name
            );
            let text = e.to_string();
            assert!(text.contains(G::FAMILY), "{text}");
            for f in entry.families() {
                assert!(text.contains(f), "{text}");
            }
            continue;
        };
        let name = entry.name;
        let spec: AgentSpec<G> = name
            .parse()
            .unwrap_or_else(|e| panic!("{name} ({}): {e}", G::FAMILY));
        assert_eq!(spec, (plays.default)(), "{name}");
        assert_eq!((spec.name(), spec.to_string()), (name, name.to_string()));
        assert_eq!(spec.build().name(), name);
        assert!(
            help.contains(&format!("{name} — {}", plays.about)),
            "{help}"
        );
        assert_eq!(spec.docs().len(), (plays.docs)().len());
        let (spec, searches) = small(spec);
        let again: AgentSpec<G> = spec.to_string().parse().unwrap();
        assert_eq!(again, spec, "{name}: {spec} does not round-trip");
        let greedy: AgentSpec<G> = "greedy".parse().unwrap();
        let hands = if searches { 1 } else { 6 };
        for &players in seats {
            for seed in 0..hands {
                let mut g = deal(seed, players);
                let mut agents: Vec<_> = (0..players)
                    .map(|p| if p == 0 { spec.build() } else { greedy.build() })
                    .collect();
                let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(seed, p)).collect();
                play_turns(&mut g, &mut agents, &mut rngs).unwrap_or_else(|e| {
                    panic!(
                        "{spec} ({}, {players} players, hand {seed}): {e}",
                        G::FAMILY
                    )
                });
                assert!(g.is_terminal());
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_registered_agent_plays_every_family_it_claims() {
    let names: Vec<&str> = agent_names().collect();
    // The built-in players are among the registered ones.
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
    for e in AGENTS {
        assert!(!e.families().is_empty(), "{} plays no family", e.name);
    }
    let decorated = check_family(
        |seed, players| {
            let mut r = Rules::default();
            r.set("players", &players.to_string()).unwrap();
            GameState::new(r, seed)
        },
        &[2, 3],
    );
    let classic = check_family(
        |seed, players| {
            let mut r = ClassicRules::preset("classic-002").unwrap();
            r.set("players", &players.to_string()).unwrap();
            ClassicState::new(r, seed, 0, [0; 6])
        },
        &[2, 4],
    );
    let claims = |f: &str| AGENTS.iter().filter(|e| e.families().contains(&f)).count();
    assert_eq!(decorated, claims(<GameState as Game>::FAMILY));
    assert_eq!(classic, claims(<ClassicState as Game>::FAMILY));
    assert!(decorated >= 6 && classic >= 5, "{decorated} {classic}");
}

/// An agent named for a family it does not play is refused, naming the
/// families it plays and the names the family accepts.
#[test]
fn an_agent_of_another_family_is_refused_with_what_is_accepted() {
    let e = "careful:pile=8"
        .parse::<AgentSpec<ClassicState>>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("careful plays decorated canasta only, not classic")
            && e.contains("accepted under classic rules: random, greedy, rules, ismcts, pimc"),
        "{e}"
    );
    let e = "minimax"
        .parse::<AgentSpec<ClassicState>>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown classic agent `minimax`"), "{e}");
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
