//! `ismcts` and `pimc` for classic canasta (C-1 … C-24): the searches of
//! [`crate::generic`], written against the engine's `Game` interface,
//! over the classic actions one by one (draw or pickup, each meld step,
//! the discard, C-18's question and answer), with a classic player
//! (`random`, `greedy` or `rules`) playing the simulations. They see only
//! the seat's [`ClassicView`]: every world is dealt from it.
//!
//! With `depth=N` a simulation is cut `N` turns after the searched
//! position; `eval=FILE` then judges the cut position by a classic value
//! model ([`ModelJudge`]) instead of its score as it stands. A model needs
//! a depth: a spec with `eval` and no `depth` is refused.

use super::greedy::ClassicGreedy;
use super::rules::{ClassicRulesAgent, ClassicRulesParams};
use super::{ClassicMoves, ClassicRandom};
use crate::agent_params;
use crate::generic::ismcts::{Ismcts, IsmctsConfig};
use crate::generic::pimc::Pimc;
use crate::generic::{Cut, Policy};
use crate::search::{Rollout, SearchStats};
use crate::spec::range;
use crate::switch;
use crate::value::{model_file, ModelFile, ModelJudge};
use crate::{Agent, Follower};
use kanaszta_engine::classic::{ClassicAction, ClassicState, ClassicView};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// The classic players are rollout policies: the same `act`, `inform`
/// and `restart`.
macro_rules! classic_policy {
    ($($t:ty),*) => {
        $(impl Policy<ClassicState> for $t {
            fn choose(
                &mut self,
                view: &ClassicView<'_>,
                legal: &[ClassicAction],
                rng: &mut Pcg64Mcg,
            ) -> ClassicAction {
                Agent::<ClassicState>::act(self, view, &mut ClassicMoves::new(legal), rng)
            }
            fn inform(&mut self, player: usize, action: ClassicAction) {
                Agent::<ClassicState>::inform(self, player, action)
            }
            fn restart(&mut self) {
                Agent::<ClassicState>::restart(self)
            }
        })*
    };
}
classic_policy!(ClassicRandom, ClassicGreedy, ClassicRulesAgent);

/// The classic player that plays a search's simulations, by its
/// [`Rollout`] name, with its default parameters. The player is reached
/// through one accessor ([`ClassicPolicy::agent_mut`]), by which it is
/// asked, told every action and restarted.
#[derive(Clone, Debug)]
pub enum ClassicPolicy {
    /// [`ClassicRandom`].
    Random(ClassicRandom),
    /// [`ClassicGreedy`].
    Greedy(ClassicGreedy),
    /// [`ClassicRulesAgent`].
    Rules(ClassicRulesAgent),
}

impl ClassicPolicy {
    /// The policy of this name.
    pub fn of(rollout: Rollout) -> ClassicPolicy {
        match rollout {
            Rollout::Random => ClassicPolicy::Random(ClassicRandom),
            Rollout::Greedy => ClassicPolicy::Greedy(ClassicGreedy),
            Rollout::Rules => {
                ClassicPolicy::Rules(ClassicRulesAgent::new(ClassicRulesParams::default()))
            }
        }
    }
}

impl ClassicPolicy {
    /// The player.
    pub fn agent_mut(&mut self) -> &mut dyn Agent<ClassicState> {
        match self {
            ClassicPolicy::Random(p) => p,
            ClassicPolicy::Greedy(p) => p,
            ClassicPolicy::Rules(p) => p,
        }
    }
}

impl Policy<ClassicState> for ClassicPolicy {
    fn choose(
        &mut self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        self.agent_mut()
            .act(view, &mut ClassicMoves::new(legal), rng)
    }
    fn inform(&mut self, player: usize, action: ClassicAction) {
        self.agent_mut().inform(player, action)
    }
    fn restart(&mut self) {
        self.agent_mut().restart()
    }
}

/// What `depth` says in the help of the classic searches.
const DEPTH_DOC: &str = "turns a simulation plays from the searched position before it is cut and judged (by the `eval` model, else by its score as it stands); 0 plays to the end of the hand";
/// What `eval` says in the help of the classic searches.
const EVAL_DOC: &str = "a classic value model of `kanaszta learn fit` that judges a simulation cut at `depth` turns: each side's reward is tanh(predicted margin / scale); needs depth=1 or more";

/// A model judges cut simulations only: `eval` needs a `depth`.
fn eval_needs_depth(depth: u32, eval: &ModelFile) -> Result<(), String> {
    if eval.model.is_some() && depth == 0 {
        return Err(
            "`eval` judges simulations cut at `depth` turns, and depth is 0 (to the end of the hand, where the score is exact): give depth=N too, e.g. depth=4"
                .to_string(),
        );
    }
    Ok(())
}

/// The cut of a classic search's simulations.
fn cut(depth: u32, eval: &ModelFile) -> Cut<ClassicState> {
    Cut {
        depth,
        judge: ModelJudge::of(eval),
    }
}

agent_params! {
    /// Parameters of [`ClassicIsmcts`].
    pub struct ClassicIsmctsParams for classic ClassicIsmcts {
        name: "ismcts",
        check: |p: &ClassicIsmctsParams| eval_needs_depth(p.depth, &p.eval),
        summary: "information-set MCTS over the classic actions one by one, worlds dealt from its own view, a classic player in the rollouts",
        /// Iterations per search.
        iters: u32 = 100, range(1, 10_000_000), "1..10000000", "iterations per search";
        /// Milliseconds per search (0: no time limit); whichever ends first.
        time: u32 = 0, range(0, 600_000), "0..600000", "milliseconds per search, 0 for no limit; the search stops at whichever budget ends first (a time limit makes the choice depend on the machine)";
        /// The UCB exploration constant.
        c: f64 = 0.7, range(0.0, 100.0), "0..100", "UCB exploration constant (rewards lie in -1..1)";
        /// The classic player of the simulations.
        rollout: Rollout = Rollout::Rules, Rollout::parse, Rollout::ACCEPTS, "the classic player that plays the simulated moves";
        /// Points of score difference that make a reward of tanh(1).
        scale: f64 = 1000.0, range(1.0, 100_000.0), "1..100000", "points by which the side leads the best other side for a reward of tanh(1) (C-23 hand scores)";
        /// Turns a simulation plays before it is cut (0: to the end).
        depth: u32 = 0, range(0, 1000), "0..1000", DEPTH_DOC;
        /// A learned value model judging simulations cut at `depth`.
        eval: ModelFile = ModelFile::default(), model_file::<ClassicState>, "a file of `kanaszta learn fit` (classic)", EVAL_DOC;
        /// The club player's choice is played unless the search's beats it
        /// clearly.
        anchor: bool = true, switch, "on|off", "on: the club player `rules` chooses, and the search's most visited option is played instead only when it leads that choice by `margin` standard errors over `check` fresh paired worlds (each played out by the rollout player); off: the most visited option is played (`anchor=off,rollout=greedy,iters=200` is the search of before)";
        /// Fresh worlds of the anchor's check.
        check: u32 = 16, range(2, 100_000), "2..100000", "with anchor=on, fresh worlds in which the search's choice and `rules`' are each played out, in pairs on the same cards, when they differ";
        /// Standard errors by which the search's choice must lead the
        /// anchor's in the check.
        margin: f64 = 2.5, range(0.0, 100.0), "0..100", "with anchor=on, standard errors of the paired difference by which the search's choice must lead `rules`' in the check to be played (0: whenever it leads)";
    }
}

agent_params! {
    /// Parameters of [`ClassicPimc`].
    pub struct ClassicPimcParams for classic ClassicPimc {
        name: "pimc",
        check: |p: &ClassicPimcParams| eval_needs_depth(p.depth, &p.eval),
        summary: "perfect-information Monte Carlo: every listed action played out in the same worlds dealt from its own view, the best mean chosen",
        /// Worlds per decision.
        worlds: u32 = 8, range(1, 100_000), "1..100000", "worlds (determinizations) per decision, each option played out in every one";
        /// The classic player of the simulations.
        rollout: Rollout = Rollout::Greedy, Rollout::parse, Rollout::ACCEPTS, "the classic player that plays the simulated moves";
        /// Points of score difference that make a reward of tanh(1).
        scale: f64 = 1000.0, range(1.0, 100_000.0), "1..100000", "points by which the side leads the best other side for a reward of tanh(1) (C-23 hand scores)";
        /// Turns a simulation plays before it is cut (0: to the end).
        depth: u32 = 0, range(0, 1000), "0..1000", DEPTH_DOC;
        /// A learned value model judging simulations cut at `depth`.
        eval: ModelFile = ModelFile::default(), model_file::<ClassicState>, "a file of `kanaszta learn fit` (classic)", EVAL_DOC;
    }
}

/// Information-set MCTS for classic canasta (see the module docs).
#[derive(Clone, Debug)]
pub struct ClassicIsmcts {
    params: ClassicIsmctsParams,
    search: Ismcts<ClassicState, ClassicPolicy>,
    /// The club player of `anchor=on`, told the real hand.
    rules: ClassicRulesAgent,
    /// Its generator (`None` until the hand's first decision).
    rules_rng: Option<Pcg64Mcg>,
    /// What the searches cost and how often they left `rules`.
    total: SearchStats,
}

impl ClassicIsmcts {
    /// A player with these parameters.
    pub fn new(params: ClassicIsmctsParams) -> ClassicIsmcts {
        let config = IsmctsConfig {
            iters: params.iters,
            time_ms: params.time,
            c: params.c,
            scale: params.scale,
        };
        ClassicIsmcts {
            search: Ismcts::new(config, ClassicPolicy::of(params.rollout))
                .with_cut(cut(params.depth, &params.eval)),
            params,
            rules: ClassicRulesAgent::new(ClassicRulesParams::default()),
            rules_rng: None,
            total: SearchStats::default(),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &ClassicIsmctsParams {
        &self.params
    }

    /// The search, as the last decision left it.
    pub fn search(&self) -> &Ismcts<ClassicState, ClassicPolicy> {
        &self.search
    }
}

impl Agent<ClassicState> for ClassicIsmcts {
    fn name(&self) -> String {
        "ismcts".into()
    }

    fn act(
        &mut self,
        view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let legal = moves.all();
        if !self.params.anchor {
            return self.search.search(view, legal, rng);
        }
        // `rules` draws from a stream of its own, taken from the seat's at
        // the hand's first decision: it chooses as it would in the seat,
        // whatever the search draws.
        let own_rng = self.rules_rng.get_or_insert_with(|| rng.clone());
        let own = Agent::<ClassicState>::act(
            &mut self.rules,
            view,
            &mut ClassicMoves::new(legal),
            own_rng,
        );
        if legal.len() == 1 {
            return own;
        }
        let t0 = Instant::now();
        let best = self.search.search(view, legal, rng);
        let mut played = own;
        if best != own {
            let (lead, se) = self
                .search
                .paired_lead(view, own, best, self.params.check, rng);
            if lead > 0.0 && lead > self.params.margin * se {
                played = best;
            }
        }
        self.total.searches += 1;
        self.total.iterations += u64::from(self.search.last_iters());
        self.total.elapsed += t0.elapsed();
        self.total.departures += u64::from(played != own);
        played
    }

    fn follower(&mut self) -> Option<&mut dyn Follower<ClassicState>> {
        Some(self)
    }

    fn search_totals(&self) -> Option<SearchStats> {
        self.params.anchor.then_some(self.total)
    }
}

impl Follower<ClassicState> for ClassicIsmcts {
    fn inform(&mut self, player: usize, action: ClassicAction) {
        self.search.inform(player, action);
        if self.params.anchor {
            Agent::<ClassicState>::inform(&mut self.rules, player, action);
        }
    }
    fn restart(&mut self) {
        self.search.restart();
        Agent::<ClassicState>::restart(&mut self.rules);
        self.rules_rng = None;
    }
}

/// Perfect-information Monte Carlo for classic canasta (see the module
/// docs).
#[derive(Clone, Debug)]
pub struct ClassicPimc {
    params: ClassicPimcParams,
    search: Pimc<ClassicState, ClassicPolicy>,
}

impl ClassicPimc {
    /// A player with these parameters.
    pub fn new(params: ClassicPimcParams) -> ClassicPimc {
        ClassicPimc {
            search: Pimc::new(
                params.worlds,
                params.scale,
                ClassicPolicy::of(params.rollout),
            )
            .with_cut(cut(params.depth, &params.eval)),
            params,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &ClassicPimcParams {
        &self.params
    }
}

impl Agent<ClassicState> for ClassicPimc {
    fn name(&self) -> String {
        "pimc".into()
    }

    fn act(
        &mut self,
        view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        self.search.search(view, moves.all(), rng)
    }

    fn follower(&mut self) -> Option<&mut dyn Follower<ClassicState>> {
        Some(&mut self.search)
    }
}
