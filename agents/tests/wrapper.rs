//! A wrapping agent ([`Wrapped`] with its [`Wrapper`]) forwards what its
//! inner agent must be told by construction: the inner agent is restarted
//! before every hand and told every action, in both rule families, though
//! the wrapper writes no `restart` or `inform` of its own.

use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::{play_turns, seat_rng, Agent, AgentSpec, Family, Wrapped, Wrapper};
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Game, GameState, Rules};
use rand_pcg::Pcg64Mcg;
use std::cell::Cell;
use std::rc::Rc;

/// What the probe was told.
#[derive(Default)]
struct Told {
    restarts: Cell<u32>,
    informs: Cell<u64>,
}

/// Plays the spec's agent, counting what it is told.
struct Probe<G: Family> {
    inner: Box<dyn Agent<G>>,
    told: Rc<Told>,
}

impl<G: Family> Agent<G> for Probe<G> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn act(
        &mut self,
        view: &G::View<'_>,
        moves: &mut G::Moves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        self.inner.act(view, moves, rng)
    }
    fn inform(&mut self, player: usize, action: G::Action) {
        self.told.informs.set(self.told.informs.get() + 1);
        self.inner.inform(player, action);
    }
    fn restart(&mut self) {
        self.told.restarts.set(self.told.restarts.get() + 1);
        self.inner.restart();
    }
}

/// A wrapper that adds nothing of its own but a name.
struct Plain;

impl<G: Family> Wrapper<G> for Plain {
    fn name(&self, inner: &dyn Agent<G>) -> String {
        format!("plain {}", inner.name())
    }
}

/// Two hands with a wrapped probe in seat 0: its restarts and the
/// actions it was told, and the actions played.
fn wrapped_hands<G: Family>(deal: impl Fn(u64) -> G) -> (u32, u64, u64) {
    let told = Rc::new(Told::default());
    let greedy: AgentSpec<G> = "greedy".parse().unwrap();
    let probe = Probe {
        inner: greedy.build(),
        told: Rc::clone(&told),
    };
    let mut agents: Vec<Box<dyn Agent<G>>> =
        vec![Box::new(Wrapped::new(probe, Plain)), greedy.build()];
    let mut actions = 0;
    for seed in 0..2 {
        let mut g = deal(seed);
        let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
        actions += play_turns(&mut g, &mut agents, &mut rngs).unwrap().actions;
    }
    assert_eq!(agents[0].name(), "plain greedy");
    (told.restarts.get(), told.informs.get(), actions)
}

#[test]
fn a_wrappers_inner_agent_is_restarted_and_told_every_action() {
    let (restarts, informs, actions) = wrapped_hands(|seed| GameState::new(Rules::default(), seed));
    assert_eq!((restarts, informs), (2, actions));
    assert!(actions > 20, "{actions}");
    let (restarts, informs, actions) = wrapped_hands(|seed| {
        ClassicState::new(
            ClassicRules::preset("classic-002").unwrap(),
            seed,
            0,
            [0; 6],
        )
    });
    assert_eq!((restarts, informs), (2, actions));
    assert!(actions > 20, "{actions}");
}

/// The wrapper's decision is the inner agent's: the same hand, move for
/// move, as the bare agent.
#[test]
fn a_wrapper_plays_as_its_inner_agent() {
    for seed in 0..3 {
        let rules = ClassicRules::preset("classic-002").unwrap();
        let spec: AgentSpec<ClassicState> = "rules".parse().unwrap();
        let play = |wrap: bool| {
            let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
            let first = if wrap {
                Box::new(Wrapped::new(spec.build(), ())) as Box<dyn Agent<ClassicState>>
            } else {
                spec.build()
            };
            let mut agents = vec![first, spec.build()];
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            play_turns(&mut g, &mut agents, &mut rngs).unwrap();
            (0..Game::sides(&g))
                .map(|s| g.side_score(s))
                .collect::<Vec<_>>()
        };
        assert_eq!(play(true), play(false), "seed {seed}");
    }
    // The listing a classic agent is handed reads as the legal actions.
    let legal = [kanaszta_engine::classic::ClassicAction::Draw];
    let moves = ClassicMoves::new(&legal);
    assert_eq!((moves.all(), moves.len()), (&legal[..], 1));
}
