//! `careful`: a complete agent in one file. It melds natural cards only
//! (its wilds stay in hand), takes the pile once it is big, and throws its
//! cheapest card. Registered by one line in `agents/src/registry.rs`, it
//! plays from the command line: `kanaszta play --a careful --b greedy`;
//! `cargo run --release -p kanaszta-agents --example careful` plays it
//! from the library.

use kanaszta_agents::{agent_params, range, Agent, Moves};
use kanaszta_engine::{Action, SeatView};
use rand_pcg::Pcg64Mcg;

agent_params! {
    /// Parameters of [`Careful`].
    pub struct CarefulParams for Careful {
        name: "careful",
        summary: "melds natural cards only, takes big piles, throws its cheapest card",
        /// Smallest pile it takes (D-6.2).
        pile: u32 = 5, range(1, 112), "1..112", "smallest pile it takes";
    }
}

/// The careful player.
pub struct Careful(CarefulParams);

impl Careful {
    /// A careful player with these parameters.
    pub fn new(params: CarefulParams) -> Careful {
        Careful(params)
    }
}

impl Agent for Careful {
    fn name(&self) -> String {
        "careful".into()
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, _rng: &mut Pcg64Mcg) -> Action {
        if view.pile().len() >= self.0.pile as usize && moves.lists(Action::TakePile) {
            return Action::TakePile;
        }
        // The first listed natural lay or extend (or the rest of a pile,
        // or the draw): only the actions it would play are checked.
        let natural = |a: &Action| match a {
            Action::Lay { cards } => cards.wild_count() == 0,
            Action::Extend { card, .. } => !card.is_wild(),
            a => matches!(a, Action::TakeRest | Action::Draw),
        };
        let steps = moves.steps();
        if let Some(a) = steps
            .iter()
            .copied()
            .find(|a| natural(a) && moves.is_listed(*a))
        {
            return a;
        }
        // The cheapest listed discard; else the first listed action.
        let mut cheapest: Option<(i32, Action)> = None;
        for &a in moves.ends() {
            if let Action::Discard(c) = a {
                if cheapest.is_none_or(|(p, _)| c.points() < p) && moves.is_listed(a) {
                    cheapest = Some((c.points(), a));
                }
            }
        }
        cheapest.map_or_else(|| moves.all()[0], |(_, a)| a)
    }
}

/// Plays 400 hands of `careful` against `greedy` and prints the result.
pub fn main() {
    use kanaszta_agents::{play_hand, seat_rng, AgentSpec};
    let (mut won, hands) = (0, 400);
    for seed in 0..hands {
        let mut g = kanaszta_engine::GameState::new(kanaszta_engine::Rules::default(), seed);
        let b: AgentSpec = "greedy".parse().expect("a known agent");
        let mut agents = [AgentSpec::of(CarefulParams::default()).build(), b.build()];
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        play_hand(&mut g, &mut agents, &mut rngs).expect("careful plays listed actions");
        won += (g.score_of(0).total > g.score_of(1).total) as u32;
    }
    println!("careful won {won} of {hands} hands against greedy");
}
