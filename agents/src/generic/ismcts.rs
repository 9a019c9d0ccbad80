//! Single-observer information-set MCTS (Cowling, Powley & Whitehouse
//! 2012) over any [`Game`]: one tree over the searching seat's
//! information sets. Every iteration deals one world from the seat's view
//! ([`Game::determinize`]), descends the tree only through actions legal in
//! that world, choosing by UCB with availability counts
//! (`mean + c·sqrt(ln(avail)/n)`, `avail` the times the action was
//! listed when its parent was reached), adds one node, plays the world
//! out with the rollout [`Policy`] and backs up each side's [`Rewards`]:
//! a node is scored for the side of the seat that chose its action, so
//! partners maximise the same reward and opponents minimise it.
//!
//! The answer is the most visited option of the root. Only one listed
//! option is returned at once, without a search.

use super::{rollout_until, Cut, Policy, Rewards};
use crate::search::mean_se;
use kanaszta_engine::Game;
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// How much one search may spend and how it weighs exploration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per search (at least one is played).
    pub iters: u32,
    /// Milliseconds per search, 0 for no limit; whichever budget ends
    /// first. A time budget makes the number of iterations, and so the
    /// choice, depend on the machine.
    pub time_ms: u32,
    /// The UCB exploration constant (rewards lie in -1..1).
    pub c: f64,
    /// Points of score difference that make a reward of tanh(1).
    pub scale: f64,
}

/// A node's link to nothing.
const NONE: u32 = u32::MAX;

/// One node of the tree: the action that leads to it from its parent.
#[derive(Clone, Copy, Debug)]
struct Node<A> {
    action: A,
    /// The side of the seat that chose `action`: whose reward `sum` adds.
    side: usize,
    visits: u32,
    /// Times `action` was listed when the parent was reached.
    avail: u32,
    sum: f64,
    first_child: u32,
    next_sibling: u32,
}

/// The search, with the buffers it reuses from one iteration and one
/// decision to the next.
#[derive(Clone, Debug)]
pub struct Ismcts<G: Game, P: Policy<G>> {
    /// The budget and the exploration.
    pub config: IsmctsConfig,
    /// The policy as told the real hand so far; every simulation starts
    /// from a copy.
    policy: P,
    sim: P,
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    rewards: Rewards,
    last_iters: u32,
    cut: Cut<G>,
}

impl<G: Game, P: Policy<G>> Ismcts<G, P> {
    /// A search with this budget, playing simulations with `policy`.
    pub fn new(config: IsmctsConfig, policy: P) -> Ismcts<G, P> {
        Ismcts {
            config,
            sim: policy.clone(),
            policy,
            nodes: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            untried: Vec::new(),
            rewards: Rewards::default(),
            last_iters: 0,
            cut: Cut::default(),
        }
    }

    /// This search with its simulations cut and judged by `cut`.
    pub fn with_cut(mut self, cut: Cut<G>) -> Ismcts<G, P> {
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

    /// Iterations played by the last search (0 when it had one option).
    pub fn last_iters(&self) -> u32 {
        self.last_iters
    }

    /// Visits of each root option after the last search, in tree order.
    pub fn root_visits(&self) -> Vec<(G::Action, u32)> {
        let mut out = Vec::new();
        if let Some(root) = self.nodes.first() {
            let mut c = root.first_child;
            while c != NONE {
                let n = &self.nodes[c as usize];
                out.push((n.action, n.visits));
                c = n.next_sibling;
            }
        }
        out
    }

    /// The choice for the mover of `view` among `legal` (never empty).
    pub fn search(
        &mut self,
        view: &G::View<'_>,
        legal: &[G::Action],
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        self.last_iters = 0;
        if legal.len() == 1 {
            return legal[0];
        }
        self.nodes.clear();
        self.nodes.push(Node {
            action: legal[0],
            side: 0,
            visits: 0,
            avail: 0,
            sum: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        let t0 = Instant::now();
        let limit = Duration::from_millis(u64::from(self.config.time_ms));
        for it in 0..self.config.iters.max(1) {
            if self.config.time_ms > 0 && it > 0 && t0.elapsed() >= limit {
                break;
            }
            self.iterate(view, rng);
            self.last_iters += 1;
        }
        self.best(legal)
    }

    /// One iteration: a world, a descent, one new node, a rollout, the
    /// backup.
    fn iterate(&mut self, view: &G::View<'_>, rng: &mut Pcg64Mcg) {
        let mut state = G::determinize(view, rng);
        let stop = self.cut.stop(state.turns());
        self.sim.clone_from(&self.policy);
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        while !state.is_terminal() {
            state.legal_actions(&mut self.legal);
            let p = state.current_player();
            let (child, expanded) = self.select(node, p, &state, rng);
            let action = self.nodes[child].action;
            // The action is one of the listing of `state`.
            if state.apply_listed(action).is_err() {
                // Only listed actions are in the tree's choice; a refusal
                // would be the family's bug: score the world as it stands.
                break;
            }
            self.sim.inform(p, action);
            self.path.push(child as u32);
            node = child;
            if expanded {
                break;
            }
        }
        rollout_until(&mut state, &mut self.sim, &mut self.legal, rng, stop);
        self.rewards
            .judge(&state, self.config.scale, self.cut.judge.as_mut());
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            if i != 0 {
                n.sum += self.rewards.of_side[n.side];
            }
        }
    }

    /// Counts the availability of `node`'s children listed in this world
    /// and returns a new child for an untried action (chosen at random),
    /// else the listed child of best UCB; `true` when it is new.
    fn select(
        &mut self,
        node: usize,
        mover: usize,
        state: &G,
        rng: &mut Pcg64Mcg,
    ) -> (usize, bool) {
        self.untried.clear();
        let mut best = (f64::NEG_INFINITY, NONE);
        for &a in &self.legal {
            let mut c = self.nodes[node].first_child;
            while c != NONE && self.nodes[c as usize].action != a {
                c = self.nodes[c as usize].next_sibling;
            }
            if c == NONE {
                self.untried.push(a);
                continue;
            }
            let n = &mut self.nodes[c as usize];
            n.avail += 1;
            if self.untried.is_empty() {
                let visits = f64::from(n.visits.max(1));
                let ucb =
                    n.sum / visits + self.config.c * (f64::from(n.avail).ln() / visits).sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
            }
        }
        if self.untried.is_empty() {
            return (best.1 as usize, false);
        }
        let action = self.untried[rng.random_range(0..self.untried.len())];
        let idx = self.nodes.len();
        let first = self.nodes[node].first_child;
        self.nodes.push(Node {
            action,
            side: state.side_of(mover),
            visits: 0,
            avail: 1,
            sum: 0.0,
            first_child: NONE,
            next_sibling: first,
        });
        self.nodes[node].first_child = idx as u32;
        (idx, true)
    }

    /// The lead of `b` over `a` for the side of the mover of `view`: both
    /// are played in `worlds` fresh worlds dealt from the view, each pair in
    /// the same world with the same random stream, and the hand played on
    /// by the policy (cut as the search's simulations are). Returns the
    /// mean and the standard error of the paired difference of rewards
    /// (`b`'s minus `a`'s), as [`mean_se`] gives them: under two worlds
    /// the error is infinite.
    pub fn paired_lead(
        &mut self,
        view: &G::View<'_>,
        a: G::Action,
        b: G::Action,
        worlds: u32,
        rng: &mut Pcg64Mcg,
    ) -> (f64, f64) {
        mean_se((0..worlds).map(|_| {
            let world = G::determinize(view, rng);
            let stop = self.cut.stop(world.turns());
            let mover = world.current_player();
            let side = world.side_of(mover);
            let stream = rng.next_u64();
            let mut r = [0.0; 2];
            for (i, action) in [a, b].into_iter().enumerate() {
                let mut state = world.clone();
                if state.apply(action).is_err() {
                    // Not playable in this world (never, for actions the
                    // view lists): the worst reward.
                    r[i] = -1.0;
                    continue;
                }
                self.sim.clone_from(&self.policy);
                self.sim.inform(mover, action);
                let mut s = Pcg64Mcg::seed_from_u64(stream);
                rollout_until(&mut state, &mut self.sim, &mut self.legal, &mut s, stop);
                self.rewards
                    .judge(&state, self.config.scale, self.cut.judge.as_mut());
                r[i] = self.rewards.of_side[side];
            }
            r[1] - r[0]
        }))
    }

    /// The most visited root option among `legal` (the better mean on a
    /// tie, then the first listed).
    fn best(&self, legal: &[G::Action]) -> G::Action {
        let mut best: Option<(u32, f64, G::Action)> = None;
        for &a in legal {
            let mut c = self.nodes[0].first_child;
            while c != NONE && self.nodes[c as usize].action != a {
                c = self.nodes[c as usize].next_sibling;
            }
            if c == NONE {
                continue;
            }
            let n = &self.nodes[c as usize];
            let mean = n.sum / f64::from(n.visits.max(1));
            if best.is_none_or(|(v, m, _)| n.visits > v || (n.visits == v && mean > m)) {
                best = Some((n.visits, mean, a));
            }
        }
        best.map_or(legal[0], |(_, _, a)| a)
    }
}

impl<G: crate::Family, P: Policy<G>> crate::Follower<G> for Ismcts<G, P> {
    fn inform(&mut self, player: usize, action: G::Action) {
        Ismcts::inform(self, player, action);
    }
    fn restart(&mut self) {
        Ismcts::restart(self);
    }
}
