//! # kanaszta-agents
//!
//! Players for kanaszta. An agent sees only its seat's [`SeatView`] and the
//! legal actions, and draws randomness from its own seeded generator.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use kanaszta_engine::{Action, SeatView};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// A player, in the shape of OpenSpiel's `Bot`.
pub trait Agent {
    /// A short name, e.g. `random`.
    fn name(&self) -> String;
    /// Chooses one of `legal` (never empty) for the seat of `view`.
    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action;
    /// Told what a player did (every action of the hand, in order).
    fn inform(&mut self, _player: usize, _action: Action) {}
    /// Called before each new hand.
    fn restart(&mut self) {}
}

/// Uniform among legal actions, with a sane way to end the meld phase: when
/// a discard is legal it discards with probability `discard_bias`, and it
/// never undoes a meld phase (`reset`) unless nothing else is legal.
/// After `patience` meld actions in one turn it finishes the turn by the
/// engine's completion search (needed when a short pickup opening obliges it
/// to go out, I-26).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    /// Probability of choosing a discard whenever one is legal.
    pub discard_bias: f64,
    /// Meld actions in one turn before it finishes the turn deliberately.
    pub patience: u32,
    turn: Option<(u32, usize)>,
    steps: u32,
    plan: Vec<Action>,
}

impl Default for RandomAgent {
    fn default() -> RandomAgent {
        RandomAgent {
            discard_bias: 0.3,
            patience: 40,
            turn: None,
            steps: 0,
            plan: Vec::new(),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn restart(&mut self) {
        self.turn = None;
        self.steps = 0;
        self.plan.clear();
    }

    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let key = (view.turns(), view.current_player());
        if self.turn != Some(key) {
            self.turn = Some(key);
            self.steps = 0;
            self.plan.clear();
        }
        self.steps += 1;
        if self.steps > self.patience {
            // Only the mover's own information decides how a turn can end,
            // so any determinization gives the same way out. The plan is
            // followed to its end (re-planning each step could wander).
            if self.plan.is_empty() {
                if let Some(mut path) = view.determinize(rng).completion(5000) {
                    path.reverse();
                    self.plan = path;
                }
            }
            if let Some(a) = self.plan.pop() {
                if legal.contains(&a) {
                    return a;
                }
                self.plan.clear();
            }
        }
        let discards = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard(_)))
            .count();
        if discards > 0 && rng.random_bool(self.discard_bias) {
            let k = rng.random_range(0..discards);
            if let Some(a) = legal
                .iter()
                .filter(|a| matches!(a, Action::Discard(_)))
                .nth(k)
            {
                return *a;
            }
        }
        let others = legal.iter().filter(|a| **a != Action::Reset).count();
        if others == 0 {
            return legal[0];
        }
        let k = rng.random_range(0..others);
        legal
            .iter()
            .filter(|a| **a != Action::Reset)
            .nth(k)
            .copied()
            .unwrap_or(legal[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::{GameState, Rules};
    use rand::SeedableRng;

    #[test]
    fn random_agent_finishes_hands_with_legal_actions() {
        let mut legal = Vec::new();
        for seed in 0..20 {
            let mut g = GameState::new(Rules::default(), seed);
            let mut agent = RandomAgent::default();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut steps = 0;
            while !g.is_terminal() {
                g.legal_actions(&mut legal);
                let v = g.view(g.current_player());
                let a = agent.act(&v, &legal, &mut rng);
                assert!(legal.contains(&a));
                g.apply(a).unwrap();
                steps += 1;
                assert!(steps < 100_000);
            }
        }
    }
}
