//! Search written only against the engine's [`Game`] interface, so that
//! one implementation plays either rule family: information-set MCTS
//! ([`ismcts::Ismcts`]) and perfect-information Monte Carlo
//! ([`pimc::Pimc`]), each with a rollout [`Policy`].
//!
//! Both see only the searching seat's view: every simulated world comes
//! from [`Game::determinize`] of that view, never from the real state.
//! Partnerships are read through [`Game::side_of`]: a seat's reward is its
//! side's ([`Rewards`]), so partners pull the same way. Both draw every
//! random choice from the generator they are given, so a seed fixes their
//! choices.
//!
//! The decorated searches ([`crate::ismcts`], [`crate::pimc`]) are tuned
//! to decorated canasta's macro actions and stay as they are; these search
//! the family's own actions one by one.

pub mod ismcts;
pub mod pimc;

use kanaszta_engine::Game;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// A player of simulated moves: chooses one of `legal` (never empty) for
/// the mover of `view`. It is cloned at the start of every simulation
/// from a copy that was told the real hand so far, then told every
/// simulated action.
pub trait Policy<G: Game>: Clone + Send {
    /// The action for the mover of `view`.
    fn choose(&mut self, view: &G::View<'_>, legal: &[G::Action], rng: &mut Pcg64Mcg) -> G::Action;
    /// Told what a player did.
    fn inform(&mut self, _player: usize, _action: G::Action) {}
    /// Called before each new hand.
    fn restart(&mut self) {}
}

/// Uniform among the legal actions, in any game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Policy<G> for Uniform {
    fn choose(&mut self, _: &G::View<'_>, legal: &[G::Action], rng: &mut Pcg64Mcg) -> G::Action {
        legal[rng.random_range(0..legal.len())]
    }
}

/// A simulation longer than this many actions is cut and scored as it
/// stands (a policy that undoes its own meld steps forever must not hang
/// the search).
pub const MAX_ROLLOUT_ACTIONS: u32 = 20_000;

/// Plays `state` on with `policy` until the hand ends or
/// [`MAX_ROLLOUT_ACTIONS`] have been played; `legal` is a reused buffer.
pub fn rollout<G: Game, P: Policy<G>>(
    state: &mut G,
    policy: &mut P,
    legal: &mut Vec<G::Action>,
    rng: &mut Pcg64Mcg,
) {
    let mut steps = 0;
    while !state.is_terminal() && steps < MAX_ROLLOUT_ACTIONS {
        let p = state.current_player();
        state.legal_actions(legal);
        let a = policy.choose(&state.view(p), legal, rng);
        // A policy only chooses listed actions; a refusal would be a bug
        // of the policy, and the listed first action keeps the game going.
        // A listed action skips the checks the listing made.
        let applied = if legal.contains(&a) {
            state.apply_listed(a)
        } else {
            state.apply(a)
        };
        let a = if applied.is_ok() {
            a
        } else {
            state.apply(legal[0]).expect("a listed action applies");
            legal[0]
        };
        policy.inform(p, a);
        steps += 1;
    }
}

/// The reward of each side at the end of a simulation: its score minus
/// the best other side's, squashed into -1..1 as `tanh(diff / scale)`.
#[derive(Clone, Debug, Default)]
pub struct Rewards {
    scores: Vec<i32>,
    /// The reward of each side.
    pub of_side: Vec<f64>,
}

impl Rewards {
    /// Reads every side's score from `state` (reusing the buffers).
    pub fn read<G: Game>(&mut self, state: &G, scale: f64) {
        let sides = state.sides();
        self.scores.clear();
        self.scores.extend((0..sides).map(|s| state.side_score(s)));
        self.of_side.clear();
        for s in 0..sides {
            let best_other = (0..sides)
                .filter(|&o| o != s)
                .map(|o| self.scores[o])
                .max()
                .unwrap_or(0);
            let diff = f64::from(self.scores[s]) - f64::from(best_other);
            self.of_side.push((diff / scale).tanh());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::{ClassicRules, ClassicState};
    use rand::SeedableRng;

    #[test]
    fn rewards_are_score_differences_against_the_best_other_side() {
        let mut g = ClassicState::new(ClassicRules::default(), 3, 0, [0; 6]);
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut legal = Vec::new();
        rollout(&mut g, &mut Uniform, &mut legal, &mut rng);
        assert!(g.is_terminal());
        let mut r = Rewards::default();
        r.read(&g, 1000.0);
        let d = f64::from(Game::side_score(&g, 0) - Game::side_score(&g, 1));
        assert!((r.of_side[0] - (d / 1000.0).tanh()).abs() < 1e-12);
        assert!((r.of_side[0] + r.of_side[1]).abs() < 1e-12);
    }
}
