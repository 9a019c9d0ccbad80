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
//! With a [`Cut`] a simulation stops `depth` turns after the searched
//! position and the position is judged as it stands: by a learned value
//! model ([`ModelJudge`]) when one is given.
//!
//! The decorated searches ([`crate::ismcts`], [`crate::pimc`]) are tuned
//! to decorated canasta's macro actions and stay as they are; these search
//! the family's own actions one by one.

pub mod ismcts;
pub mod pimc;

use crate::value::ModelJudge;
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

/// Where a search's simulations stop before the end of the hand, and how
/// a position cut there is judged.
#[derive(Clone, Debug)]
pub struct Cut<G: Game> {
    /// Turns a simulation plays from the searched position before it is
    /// cut (0: to the end of the hand).
    pub depth: u32,
    /// The judge of a cut position; without one, its score as it stands.
    pub judge: Option<ModelJudge<G>>,
}

impl<G: Game> Default for Cut<G> {
    fn default() -> Cut<G> {
        Cut {
            depth: 0,
            judge: None,
        }
    }
}

impl<G: Game> Cut<G> {
    /// The turn count at which a simulation of a position `start` turns
    /// into the hand is cut (`u32::MAX`: never).
    pub fn stop(&self, start: u32) -> u32 {
        if self.depth == 0 {
            u32::MAX
        } else {
            start.saturating_add(self.depth)
        }
    }
}

/// Plays `state` on with `policy` until the hand ends or
/// [`MAX_ROLLOUT_ACTIONS`] have been played; `legal` is a reused buffer.
pub fn rollout<G: Game, P: Policy<G>>(
    state: &mut G,
    policy: &mut P,
    legal: &mut Vec<G::Action>,
    rng: &mut Pcg64Mcg,
) {
    rollout_until(state, policy, legal, rng, u32::MAX);
}

/// [`rollout`], cut as well once `stop` turns are complete.
pub fn rollout_until<G: Game, P: Policy<G>>(
    state: &mut G,
    policy: &mut P,
    legal: &mut Vec<G::Action>,
    rng: &mut Pcg64Mcg,
    stop: u32,
) {
    let mut steps = 0;
    while !state.is_terminal() && steps < MAX_ROLLOUT_ACTIONS && state.turns() < stop {
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

    /// [`Rewards::read`], but a hand not over is judged by `judge` when
    /// there is one: each side's reward is `tanh(margin / scale)` of the
    /// margin its first seat's view is predicted to end with.
    pub fn judge<G: Game>(&mut self, state: &G, scale: f64, judge: Option<&mut ModelJudge<G>>) {
        let Some(judge) = judge.filter(|_| !state.is_terminal()) else {
            return self.read(state, scale);
        };
        self.of_side.clear();
        for s in 0..state.sides() {
            let seat = (0..state.players())
                .find(|&p| state.side_of(p) == s)
                .unwrap_or(s);
            self.of_side
                .push((judge.margin(state, seat) / scale).tanh());
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

    /// A classic model predicting the same margin from every view.
    fn flat_model(margin: f32) -> std::sync::Arc<crate::value::ValueModel> {
        use kanaszta_engine::Encode;
        std::sync::Arc::new(crate::value::ValueModel {
            family: "classic".into(),
            encoding_version: kanaszta_engine::ENCODING_VERSION,
            obs_len: ClassicState::OBS_LEN,
            mean: margin,
            scale: 1.0,
            net: crate::value::Net::Linear {
                weights: vec![0.0; ClassicState::OBS_LEN],
                bias: 0.0,
            },
            training: serde_json::Value::Null,
        })
    }

    #[test]
    fn a_cut_stops_simulations_at_its_turn_and_its_judge_scores_them() {
        let start = ClassicState::new(ClassicRules::default(), 4, 0, [0; 6]);
        let mut g = start.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut legal = Vec::new();
        let cut = Cut::<ClassicState> {
            depth: 3,
            judge: None,
        };
        assert_eq!(Cut::<ClassicState>::default().stop(7), u32::MAX);
        let stop = cut.stop(Game::turns(&g));
        assert_eq!(stop, Game::turns(&g) + 3);
        rollout_until(&mut g, &mut Uniform, &mut legal, &mut rng, stop);
        assert!(!g.is_terminal());
        assert_eq!(Game::turns(&g), stop, "cut as the third turn ends");
        // Without a judge the position scores as it stands; with one, each
        // side by its prediction, tanh(margin / scale).
        let (mut plain, mut judged) = (Rewards::default(), Rewards::default());
        plain.read(&g, 1000.0);
        judged.judge(&g, 1000.0, None);
        assert_eq!(plain.of_side, judged.of_side);
        let mut judge = ModelJudge::<ClassicState>::new(flat_model(500.0));
        assert!((judge.margin(&g, 1) - 500.0).abs() < 1e-3);
        judged.judge(&g, 1000.0, Some(&mut judge));
        assert_eq!(judged.of_side.len(), Game::sides(&g));
        for r in &judged.of_side {
            assert!((r - 0.5f64.tanh()).abs() < 1e-6, "{r}");
        }
        // A finished hand keeps its exact reward.
        let mut end = start;
        rollout(&mut end, &mut Uniform, &mut legal, &mut rng);
        plain.read(&end, 1000.0);
        judged.judge(&end, 1000.0, Some(&mut judge));
        assert_eq!(plain.of_side, judged.of_side);
    }
}
