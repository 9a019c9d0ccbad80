//! `random`: uniform among legal actions, with a sane way to end the meld
//! phase so hands finish.

use crate::agent_params;
use crate::spec::{range, Params};
use crate::{Agent, Moves, TurnFinisher};
use kanaszta_engine::{Action, SeatView};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

agent_params! {
    /// Parameters of [`RandomAgent`].
    pub struct RandomParams for RandomAgent {
        name: "random",
        summary: "uniform among legal actions; discards with a set probability; never undoes a meld phase unless forced",
        /// Probability of choosing a discard whenever one is legal.
        discard: f64 = 0.3, range(0.0, 1.0), "0..1", "probability of discarding whenever a discard is legal";
        /// Meld actions in one turn before it finishes the turn deliberately.
        patience: u32 = 40, range(1, 10_000), "1..10000", "meld actions in a turn before it ends the turn by the shortest way";
    }
}

/// Uniform among legal actions, with a sane way to end the meld phase: when
/// a discard is legal it discards with probability `discard`, and it never
/// undoes a meld phase (`reset`) unless nothing else is legal. After
/// `patience` meld actions in one turn it finishes the turn by the engine's
/// completion search (needed when a short pickup opening obliges it to go
/// out, I-26).
#[derive(Clone, Debug, Default)]
pub struct RandomAgent {
    params: RandomParams,
    finisher: TurnFinisher,
}

impl RandomAgent {
    /// A random agent with these parameters.
    pub fn new(params: RandomParams) -> RandomAgent {
        RandomAgent {
            params,
            finisher: TurnFinisher::default(),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        RandomParams::NAME.into()
    }

    fn restart(&mut self) {
        self.finisher.reset();
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        let legal = moves.all();
        if self.finisher.step(view) > self.params.patience {
            if let Some(a) = self.finisher.next(view, legal, rng) {
                return a;
            }
        }
        random_choice(legal, self.params.discard, rng)
    }
}

/// The random agent's choice: a discard with probability `discard_bias` when
/// one is legal, otherwise uniform over the actions other than `reset`.
pub fn random_choice(legal: &[Action], discard_bias: f64, rng: &mut Pcg64Mcg) -> Action {
    let discards = legal
        .iter()
        .filter(|a| matches!(a, Action::Discard(_)))
        .count();
    if discards > 0 && rng.random_bool(discard_bias) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::{GameState, MoveBuf, Rules};
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
                let a = agent.act(&v, &mut g.moves(&mut MoveBuf::new()), &mut rng);
                assert!(legal.contains(&a));
                g.apply(a).unwrap();
                steps += 1;
                assert!(steps < 100_000);
            }
        }
    }
}
