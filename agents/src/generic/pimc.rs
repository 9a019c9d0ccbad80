//! Perfect-information Monte Carlo over any [`Game`] (a determinized flat
//! search): `worlds` worlds are dealt from the seat's view
//! ([`Game::determinize`]); in each, every listed option is played and
//! the world played out by the rollout [`Policy`], each option from the
//! same world with the same random stream, so options are compared on the
//! same cards. The option of the best mean reward for the seat's side
//! ([`Rewards`]) is chosen; only one listed option is returned at once.

use super::{rollout_until, Cut, Policy, Rewards};
use kanaszta_engine::Game;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A flat determinized search, with the buffers it reuses.
#[derive(Clone, Debug)]
pub struct Pimc<G: Game, P: Policy<G>> {
    /// Worlds per decision.
    pub worlds: u32,
    /// Points of score difference that make a reward of tanh(1).
    pub scale: f64,
    policy: P,
    sim: P,
    legal: Vec<G::Action>,
    sums: Vec<f64>,
    rewards: Rewards,
    cut: Cut<G>,
}

impl<G: Game, P: Policy<G>> Pimc<G, P> {
    /// A search over `worlds` worlds, playing them out with `policy`.
    pub fn new(worlds: u32, scale: f64, policy: P) -> Pimc<G, P> {
        Pimc {
            worlds,
            scale,
            sim: policy.clone(),
            policy,
            legal: Vec::new(),
            sums: Vec::new(),
            rewards: Rewards::default(),
            cut: Cut::default(),
        }
    }

    /// This search with its playouts cut and judged by `cut`.
    pub fn with_cut(mut self, cut: Cut<G>) -> Pimc<G, P> {
        self.cut = cut;
        self
    }

    /// Tells the policy what a player did in the real hand.
    pub fn inform(&mut self, player: usize, action: G::Action) {
        self.policy.inform(player, action);
    }

    /// Forgets the hand.
    pub fn restart(&mut self) {
        self.policy.restart();
    }

    /// The mean reward of each of the last search's options, in `legal`'s
    /// order (empty when it had one option).
    pub fn means(&self) -> Vec<f64> {
        let n = f64::from(self.worlds.max(1));
        self.sums.iter().map(|s| s / n).collect()
    }

    /// The choice for the mover of `view` among `legal` (never empty).
    pub fn search(
        &mut self,
        view: &G::View<'_>,
        legal: &[G::Action],
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        self.sums.clear();
        if legal.len() == 1 {
            return legal[0];
        }
        self.sums.resize(legal.len(), 0.0);
        for _ in 0..self.worlds.max(1) {
            let world = G::determinize(view, rng);
            let stop = self.cut.stop(world.turns());
            let mover = world.current_player();
            let side = world.side_of(mover);
            let stream = rng.next_u64();
            for (i, &a) in legal.iter().enumerate() {
                let mut state = world.clone();
                if state.apply(a).is_err() {
                    // Not playable in this world (never, for a view that
                    // lists the mover's actions): it scores the worst.
                    self.sums[i] -= 1.0;
                    continue;
                }
                self.sim.clone_from(&self.policy);
                self.sim.inform(mover, a);
                let mut r = Pcg64Mcg::seed_from_u64(stream);
                rollout_until(&mut state, &mut self.sim, &mut self.legal, &mut r, stop);
                self.rewards
                    .judge(&state, self.scale, self.cut.judge.as_mut());
                self.sums[i] += self.rewards.of_side[side];
            }
        }
        let mut best = 0;
        for i in 1..legal.len() {
            if self.sums[i] > self.sums[best] {
                best = i;
            }
        }
        legal[best]
    }
}

impl<G: crate::Family, P: Policy<G>> crate::Follower<G> for Pimc<G, P> {
    fn inform(&mut self, player: usize, action: G::Action) {
        Pimc::inform(self, player, action);
    }
    fn restart(&mut self) {
        Pimc::restart(self);
    }
}
