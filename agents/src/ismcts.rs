//! `ismcts`: information-set Monte Carlo tree search (Cowling, Powley &
//! Whitehouse 2012; OpenSpiel's `is_mcts`) over macro actions.
//!
//! Every iteration takes a world consistent with the seat's view
//! ([`SeatView::determinize`], the only way to a full state), then descends
//! one tree of the searching seat's own decisions using only the options
//! legal in that world, choosing by UCB with availability counts:
//! `mean + c·sqrt(ln(available) / visits)`. It adds one node, plays the
//! world on with the rollout policy to the end of the hand (or for `depth`
//! turns, then scores it with [`crate::search::estimate`]) and backs the
//! reward ([`crate::search`]) up the path. The move played is the most
//! visited option at the root.
//!
//! - **Macro actions.** The tree branches on draw / free pickup / take the
//!   pile, on `meld` (as the policy would) or `hold`, and on the discard;
//!   the policy fills in the meld steps ([`crate::search`]). Other seats'
//!   moves are the rollout policy's — each seat its own instance — inside
//!   the tree as in the rollout, so a node stands for the seat's sequence of
//!   macro decisions.
//! - **Horizon.** The tree covers the seat's next `horizon` turns (the
//!   current one included); later decisions are the policy's. Deeper trees
//!   spend their iterations exploring far-off discards at random and judge
//!   the root by them: measured, a tree over the current turn plays better.
//! - **Worlds.** With `worlds` > 0 the search samples up to that many
//!   worlds and reuses them (OpenSpiel's `max_world_samples`); the n-th
//!   visit of a root option plays world n with that world's own random
//!   stream, so the options are compared on the same cards and the same
//!   luck. Hand outcomes vary so much with the cards that without this
//!   pairing a few hundred iterations cannot tell discards apart. The
//!   default (1,000, more than any default search's iterations) never
//!   plays an option twice in one world: with the policy's play nearly
//!   deterministic, a repeat would only count one outcome twice.
//! - **Anchor.** The most visited option is only a candidate. When it is
//!   not the rollout policy's own choice, it is played only if its mean
//!   reward lead over the policy's choice exceeds `margin` standard errors.
//!   By default (`check=0`) the lead is read from the search itself: the
//!   policy's choice is visited at the root whenever it is behind the most
//!   visited option, and the two are compared world by world over the
//!   visits both had, each pair on the same cards and the same random
//!   stream, so the luck of the deal cancels. With `check` > 0 the
//!   candidate is instead played against the policy's choice in `check`
//!   fresh worlds to the end of the hand, a measurement free of the
//!   search's winner's curse (the best of a dozen noisy means is too good
//!   by construction) and of a cut rollout's estimate. `margin=0` with
//!   `check=0` plays the most visited option whenever it is ahead, close to
//!   plain ISMCTS; the default `margin` is 2.5. The default rollouts play to
//!   the end of the hand
//!   (`depth=0`): measured, rollouts cut at 8 turns and scored by the
//!   estimate gave a search no better than its policy (`results/README.md`).
//! - **Race.** The most visited option is the best of a dozen noisy means,
//!   too good by construction. When it is not the policy's own choice, or
//!   leads the runner-up by less than `band` standard errors of the paired
//!   difference, the few most visited options and the policy's choice are
//!   raced on up to `race` fresh worlds (each world plays every option
//!   still in, on the same cards and the same random stream; an option
//!   2.5 standard errors behind the leader drops out), and the winner is
//!   played if it leads the policy's choice there by `margin` standard
//!   errors. The default races on 16 worlds; `race=0` reads the lead as
//!   before (`check`).
//! - **Budget.** Draw-or-pickup and meld-or-hold decisions (going out is
//!   decided there) search `focus` times `iters`; a discard searches
//!   `iters`. Any search stops early, from a quarter of its budget on, once
//!   its most visited option leads every other by `early` standard errors
//!   of the paired difference. The default is 60 iterations, `focus=1.5`,
//!   `early=3`; `focus=1,early=0` gives every decision `iters`.
//! - **Rollout policy.** The seat's moves at the table (the cut, the meld
//!   steps of `meld`, the anchor) are the `rules` policy's with its turn
//!   planner; in the sampled worlds (rollouts, the other seats, the seat's
//!   own meld steps) it plays without the planner by default
//!   (`rollout_plan=off`, i.e. `rules:plan=off`), which costs about a third
//!   of the planned policy's time an action. `rollout_plan=on` simulates
//!   the planned policy. `rollout_twins=on` gives the unplanned policy
//!   the planned one's twin play (`rules:plan=off,twins=on`, D-7), which
//!   costs no planner time: it beats `rules:plan=off` by +12 [+5, +18]
//!   points a hand (20,000 hands, seed 2026), but as the search's rollouts
//!   it changed ISMCTS against rules by +7 [−24, +38] a hand (1,000 hands
//!   on the same deals, seed 2026), so the default stays `plan`.
//! - **Cost.** Nearly all of a search's time is the rollout policy
//!   playing the sampled worlds, so its cost is the number of rollouts:
//!   the iterations and the race's worlds times its options. The default
//!   budget (`iters=60,race=16,focus=1.5`) takes about an eighth of the
//!   processor time of the one before it, `iters=500,race=64,focus=2`
//!   (that string plays as the default did), which took 90–97 ms a
//!   searched decision; paired hands of the two showed no difference
//!   (`results/perf-notes.md`, 2026-11-29). With the budget before it a
//!   second seed made the same choice at 96% of 25 searched positions
//!   (`agents/tests/stability.rs`); the search before that,
//!   `iters=1000,rollout_plan=on,margin=1.5,race=0,focus=1,early=0,stakes=off`,
//!   took 263 ms and agreed at 72%.
//! - **Match play.** With `stakes` on (the default) and a match under way (a running
//!   total above 0), the margin part of the reward is the change in an
//!   estimated chance of winning the match ([`crate::search::match_win`]):
//!   the taxed hand (D-15) moves the totals towards the target (D-16.2).
//! - **Meld or hold.** The choice is offered only when the policy would lay
//!   something before its discard; otherwise both are the same move.
//!
//! At the table the agent is asked one atomic action at a time: the cut,
//! forced moves and meld steps of a `meld` plan are played without search by
//! its own policy instance; a search runs at the draw (when more than drawing
//! is legal), at the start of a meld phase (`meld` or `hold`, when a discard
//! is already legal) and at the discard (when more than one card may go).
//! [`IsmctsAgent::search_stats`] reports the cost of the last search.

use crate::agent_params;
use crate::search::{
    anchored, mean_se, note_departure, reward, rollout_rules, Driver, Macro, Point, RewardParams,
    Rollout, SearchStats, Sim, Stage,
};
use crate::spec::{range, switch, ParamDoc, Params};
use crate::value::LeafEval;
use crate::{Agent, Choice, Follower, Moves, Twins};
use kanaszta_engine::{Action, GameState, SeatView};
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

agent_params! {
    /// Parameters of [`IsmctsAgent`].
    pub struct IsmctsParams for IsmctsAgent {
        name: "ismcts",
        summary: "information-set MCTS over macro actions (draw/pickup, meld or hold, discard) with policy rollouts",
        /// Iterations per search.
        iters: u32 = 60, range(1, 10_000_000), "1..10000000", "iterations per search";
        /// Distinct worlds sampled per search, reused in turn (0: a new world
        /// every iteration); OpenSpiel's `max_world_samples`.
        worlds: u32 = 1000, range(0, 100_000), "0..100000", "distinct worlds (determinizations) per search, reused in turn so that options are compared on the same cards; 0 samples a new world every iteration";
        /// Milliseconds per search (0: no time limit); whichever ends first.
        time: u32 = 0, range(0, 600_000), TIME_DOC.accepts, TIME_DOC.doc;
        /// The UCB exploration constant.
        c: f64 = 0.7, range(0.0, 100.0), "0..100", "UCB exploration constant (rewards lie in -1..1)";
        /// The policy of rollouts and of the seat's own meld steps.
        rollout: Rollout = Rollout::Rules, Rollout::parse, ROLLOUT_DOC.accepts, ROLLOUT_DOC.doc;
        /// Whether a `rules` rollout policy plans its meld steps (its turn
        /// planner); the seat's own moves at the table are planned either way.
        rollout_plan: bool = false, switch, PLAN_DOC.accepts, PLAN_DOC.doc;
        /// When a `rules` rollout policy plays for twins (its `twins`).
        rollout_twins: Twins = Twins::Plan, Twins::parse, TWINS_DOC.accepts, TWINS_DOC.doc;
        /// Turns a rollout plays before it is cut and evaluated (0: to the end of the hand).
        depth: u32 = 0, range(0, 1000), DEPTH_DOC.accepts, DEPTH_DOC.doc;
        /// The seat's own turns the tree covers, the current one included (0:
        /// no limit); later decisions are the policy's.
        horizon: u32 = 1, range(0, 1000), "0..1000", "the seat's own turns the tree branches on, the current one included (later decisions are the rollout policy's); 0 for no limit";
        /// Fresh worlds in which the search's choice, when it is not the
        /// policy's own, is played against it to the end of the hand (0: the
        /// lead is read from the search's own paired worlds).
        check: u32 = 0, range(0, 100_000), "0..100000", "fresh worlds in which the search's choice, when it differs from the rollout policy's own, is played against it to the end of the hand to measure its lead; 0 measures the lead on the search's own worlds, where the policy's choice is visited as often as the best";
        /// Standard errors by which the search's choice must beat the policy's
        /// in the check to be played instead.
        margin: f64 = 2.5, range(0.0, 10.0), "0..10", "standard errors by which the searched choice's lead over the policy's own must exceed 0 for it to be played instead (0: whenever it leads)";
        /// Weight of winning the hand against the point margin in the reward.
        win: f64 = 0.5, range(0.0, 1.0), WIN_DOC.accepts, WIN_DOC.doc;
        /// Taxed points of margin that count as a full reward.
        scale: u32 = 1000, range(1, 100_000), SCALE_DOC.accepts, SCALE_DOC.doc;
        /// Fresh worlds of the race among the top options after the search
        /// (0: no race; the lead over the policy's choice is read as `check`
        /// says).
        race: u32 = 16, range(0, 100_000), "0..100000", "fresh worlds in which the most visited options and the policy's own are raced after the search when they are close (each world plays every option still in the race; an option trailing the leader by 2.5 standard errors of the paired difference drops out); the winner is played if it leads the policy's choice by `margin` standard errors there; 0: no race";
        /// Standard errors of the paired lead under which the most visited
        /// option is contested by the runner-up and a race is run.
        band: f64 = 2.0, range(0.0, 100.0), "0..100", "standard errors of the paired lead of the most visited option over the runner-up under which the two are raced (a choice other than the policy's is always raced)";
        /// Budget factor at the decisions that matter most: draw or pick up,
        /// meld or hold.
        focus: f64 = 1.5, range(0.1, 10.0), "0.1..10", "factor on `iters` at draw-or-pickup and meld-or-hold decisions (discards get `iters`; an early stop saves at clear ones)";
        /// Standard errors of the paired lead at which the search stops early.
        early: f64 = 3.0, range(0.0, 100.0), "0..100", "standard errors of the paired lead of the most visited option over every other at which the search stops early (checked from a quarter of its budget on); 0: never";
        /// The match-aware reward.
        stakes: bool = true, switch, "on|off", "in match play the reward's margin term is the change in an estimated chance of winning the match (a logistic on the lead after the taxed hand, D-15, and the hands left to the target, D-16.2); off: the taxed hand margin alone";
        /// A learned value model scoring rollouts cut at `depth`.
        eval: crate::value::ModelFile = crate::value::ModelFile::default(), crate::value::model_file::<GameState>, "a file of `kanaszta learn fit` (decorated)", "a value model that scores a rollout cut at `depth` turns (its predicted margin, untaxed, in place of the hand-made estimate); without `depth` the rollouts reach the end of the hand and it is not used";
    }
}

impl IsmctsParams {
    /// The reward's parameters.
    pub fn reward(&self) -> RewardParams {
        RewardParams {
            win: self.win,
            scale: self.scale as f64,
            match_aware: self.stakes,
        }
    }
}

/// The documentation of the parameters both search agents share.
pub(crate) const ROLLOUT_DOC: ParamDoc = ParamDoc {
    key: "rollout",
    accepts: Rollout::ACCEPTS,
    doc: "policy that plays rollouts, the other seats in the tree and the seat's own meld steps",
};
pub(crate) const PLAN_DOC: ParamDoc = ParamDoc {
    key: "rollout_plan",
    accepts: "on|off",
    doc: "with rollout=rules, whether the simulated play (rollouts, the other seats in the tree, the seat's own meld steps in a sampled world) uses the rules turn planner; off plays it as rules:plan=off, at about a third of the cost; the seat's moves at the table follow the planned rules either way",
};
pub(crate) const TWINS_DOC: ParamDoc = ParamDoc {
    key: "rollout_twins",
    accepts: Twins::ACCEPTS,
    doc: "with rollout=rules, when the simulated play plays for twins (rules' twins: plan, with the planner, i.e. as rollout_plan; on, also without it; off, never); the seat's moves at the table follow rules either way",
};
pub(crate) const TIME_DOC: ParamDoc = ParamDoc {
    key: "time",
    accepts: "0..600000",
    doc: "milliseconds per search, 0 for no limit; the search stops at whichever budget ends first",
};
pub(crate) const DEPTH_DOC: ParamDoc = ParamDoc {
    key: "depth",
    accepts: "0..1000",
    doc: "turns a rollout plays before it is cut and scored as if the hand ended (cards in hand at half value); 0 plays to the end of the hand",
};
pub(crate) const MARGIN_DOC: ParamDoc = ParamDoc {
    key: "margin",
    accepts: "0..10",
    doc: "standard errors by which the searched choice's mean reward must beat the rollout policy's own choice to be played instead (0: the search's whenever it is better)",
};
pub(crate) const WIN_DOC: ParamDoc = ParamDoc {
    key: "win",
    accepts: "0..1",
    doc:
        "reward weight of winning the hand (D-16.1); the rest rewards the taxed point margin (D-15)",
};
pub(crate) const SCALE_DOC: ParamDoc = ParamDoc {
    key: "scale",
    accepts: "1..100000",
    doc: "taxed points of margin over the best opponent that earn the full margin reward",
};

const NONE: u32 = u32::MAX;

/// The part of a `time` budget kept for the check (when `check` > 0).
const CHECK_TIME_SHARE: f64 = 0.3;

/// One node of the tree: the macro that leads to it from its parent and
/// its statistics. Children are a linked list in the arena.
#[derive(Clone, Copy, Debug)]
struct Node {
    m: Macro,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    avail: u32,
    total: f64,
    squares: f64,
}

impl Node {
    fn new(m: Macro) -> Node {
        Node {
            m,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            total: 0.0,
            squares: 0.0,
        }
    }
}

fn child_of(tree: &[Node], node: u32, m: Macro) -> Option<u32> {
    let mut c = tree[node as usize].first_child;
    while c != NONE {
        if tree[c as usize].m == m {
            return Some(c);
        }
        c = tree[c as usize].next_sibling;
    }
    None
}

/// Chooses the child of `node` among `options`: an untried option first
/// (at random; the new node is added), else the best by UCB with
/// availability counts. Returns the child and whether it is new.
fn select(
    tree: &mut Vec<Node>,
    node: u32,
    options: &[Macro],
    c: f64,
    rng: &mut Pcg64Mcg,
) -> (u32, bool) {
    let untried = options
        .iter()
        .filter(|m| child_of(tree, node, **m).is_none())
        .count();
    let mut best = (f64::NEG_INFINITY, NONE);
    for m in options {
        if let Some(ch) = child_of(tree, node, *m) {
            let n = &mut tree[ch as usize];
            n.avail += 1;
            if untried == 0 {
                let v = n.visits.max(1) as f64;
                let score = n.total / v + c * ((n.avail as f64).ln() / v).sqrt();
                if score > best.0 {
                    best = (score, ch);
                }
            }
        }
    }
    if untried == 0 {
        return (best.1, false);
    }
    let k = rng.random_range(0..untried);
    let m = options
        .iter()
        .copied()
        .filter(|m| child_of(tree, node, *m).is_none())
        .nth(k)
        .unwrap_or(options[0]);
    let id = tree.len() as u32;
    let mut n = Node::new(m);
    n.avail = 1;
    n.next_sibling = tree[node as usize].first_child;
    tree[node as usize].first_child = id;
    tree.push(n);
    (id, true)
}

/// The ISMCTS player (see the module documentation).
pub struct IsmctsAgent {
    driver: Driver,
    core: Core,
}

/// The search itself, apart from the driver so that both can be borrowed.
struct Core {
    params: IsmctsParams,
    sim: Option<Sim>,
    tree: Vec<Node>,
    path: Vec<u32>,
    opts: Vec<Macro>,
    /// The worlds of the current search (when `worlds` > 0): each with the
    /// seed of its simulation's random stream.
    cache: Vec<(GameState, u64)>,
    /// Rewards of each root option (by its index among the options) in the
    /// order of its visits: the n-th entry of every option was played in
    /// world n (mod `worlds`), so two options' entries pair up.
    hist: Vec<Vec<f64>>,
    /// Rewards of each option of the race, world by world.
    race_rows: Vec<Vec<f64>>,
    /// The root options of the decision's last search ([`Agent::choices`]).
    choices: Vec<Choice>,
    last: SearchStats,
    total: SearchStats,
    /// The learned evaluation of cut rollouts (`eval`), if any.
    eval: LeafEval,
}

impl Default for IsmctsAgent {
    fn default() -> IsmctsAgent {
        IsmctsAgent::new(IsmctsParams::default())
    }
}

impl IsmctsAgent {
    /// An ISMCTS agent with these parameters.
    pub fn new(params: IsmctsParams) -> IsmctsAgent {
        IsmctsAgent {
            driver: Driver::new(params.rollout),
            core: Core {
                sim: None,
                tree: Vec::with_capacity(4096),
                path: Vec::with_capacity(64),
                opts: Vec::with_capacity(32),
                cache: Vec::new(),
                hist: Vec::new(),
                race_rows: Vec::new(),
                choices: Vec::with_capacity(32),
                last: SearchStats::default(),
                total: SearchStats::default(),
                eval: LeafEval::new(&params.eval),
                params,
            },
        }
    }

    /// The parameters.
    pub fn params(&self) -> &IsmctsParams {
        &self.core.params
    }

    /// Iterations and time of the last search (for benchmarks).
    pub fn search_stats(&self) -> SearchStats {
        self.core.last
    }

    /// Iterations and time of every search since the agent was made.
    pub fn total_stats(&self) -> SearchStats {
        self.core.total
    }

    /// Searches the position of `view` (the seat's own decision) among
    /// `root_opts`, the simulator starting at `stage`; returns what it found
    /// of each root option tried. For analysis and tests;
    /// [`Agent::act`] finds the stage and options itself.
    pub fn search(
        &mut self,
        view: &SeatView,
        stage: Stage,
        root_opts: &[Macro],
        rng: &mut Pcg64Mcg,
    ) -> Vec<OptionStats> {
        let budget = self.core.params.iters as u64;
        self.core.search(view, stage, root_opts, None, budget, rng)
    }
}

impl Core {
    /// The mean reward lead of root option `b` over `a` in the last search
    /// and its standard error, measured world by world over the visits both
    /// had (the n-th visits of both played the same world with the same
    /// random stream, so the luck of the deal, the largest part of a hand's
    /// outcome, cancels). Without fixed worlds (`worlds` = 0) the two means
    /// are compared as independent.
    fn paired_lead(&self, opts: &[Macro], b: Macro, a: Macro) -> Option<(f64, f64)> {
        let bi = opts.iter().position(|o| *o == b)?;
        let ai = opts.iter().position(|o| *o == a)?;
        let (hb, ha) = (self.hist.get(bi)?, self.hist.get(ai)?);
        if self.params.worlds == 0 {
            let (mb, sb) = mean_se(hb.iter().copied());
            let (ma, sa) = mean_se(ha.iter().copied());
            return Some((mb - ma, (sb * sb + sa * sa).sqrt()));
        }
        Some(mean_se(hb.iter().zip(ha).map(|(x, y)| x - y)))
    }

    /// The factor on the budget of a decision: `focus` at the draw when a
    /// pickup is an option and at meld-or-hold, 1 at a discard.
    fn focus(&self, stage: Stage, opts: &[Macro]) -> f64 {
        let key = stage == Stage::Start
            && opts
                .iter()
                .any(|m| matches!(m, Macro::Free | Macro::Take | Macro::Hold));
        if key {
            self.params.focus
        } else {
            1.0
        }
    }

    /// The search's time budget, less the `share` of it kept for the check.
    fn time_limit(&self, share: f64) -> Option<Duration> {
        let ms = self.params.time as f64;
        let keep = if self.params.check > 0 || self.params.race > 0 {
            share
        } else {
            0.0
        };
        (self.params.time > 0).then(|| Duration::from_secs_f64(ms * (1.0 - keep) / 1000.0))
    }

    /// The check of the search's choice `best` against the policy's own
    /// `anchor`: both are played in `check` fresh worlds, each pair in the
    /// same world with the same random stream, then by the policy to the end
    /// of the hand (no cut, no estimate). Returns the mean reward lead of
    /// `best` and its standard error. The worlds are new, so the lead is
    /// free of the winner's curse of the search itself (the best of a dozen
    /// noisy means is too good by construction).
    fn check(
        &mut self,
        view: &SeatView,
        stage: Stage,
        best: Macro,
        anchor: Macro,
        rng: &mut Pcg64Mcg,
    ) -> (f64, f64) {
        let t0 = Instant::now();
        let limit = self.time_limit(0.0);
        let rp = self.params.reward();
        let me = view.seat();
        let Some(sim) = self.sim.as_mut() else {
            return (0.0, f64::INFINITY);
        };
        let mut diffs = Vec::with_capacity(self.params.check as usize);
        for k in 0..self.params.check {
            if let Some(l) = limit {
                if k >= 2 && t0.elapsed() + self.last.elapsed >= l {
                    break;
                }
            }
            let world = view.determinize(rng);
            let seed = rng.next_u64();
            let mut pair = [0.0; 2];
            for (i, m) in [best, anchor].into_iter().enumerate() {
                let mut g = world.clone();
                let mut r = Pcg64Mcg::seed_from_u64(seed);
                sim.reset(stage, u32::MAX);
                sim.apply_macro(&mut g, m);
                sim.advance(&mut g, &mut r, false);
                pair[i] = reward(&g, me, &rp);
            }
            diffs.push(pair[0] - pair[1]);
        }
        let spent = t0.elapsed();
        let played = 2 * diffs.len() as u64;
        self.last.elapsed += spent;
        self.last.iterations += played;
        self.total.elapsed += spent;
        self.total.iterations += played;
        mean_se(diffs.into_iter())
    }

    /// The race among `cands` (the policy's own choice `anchor` among
    /// them) on up to `race` fresh worlds: every option still in the race
    /// plays each world, all with the same cards and the same random
    /// stream, by the policy to the end of the hand. After each batch of
    /// worlds an option whose paired deficit to the leader (the best mean
    /// of those still in) exceeds [`RACE_DROP`] standard errors drops out.
    /// Returns the leader and its paired lead over the anchor (over the
    /// worlds the anchor played). Fresh worlds free the choice of the
    /// winner's curse of the search, where the best of a dozen noisy means
    /// is too good by construction.
    fn race(
        &mut self,
        view: &SeatView,
        stage: Stage,
        cands: &[Macro],
        anchor: Macro,
        rng: &mut Pcg64Mcg,
    ) -> (Macro, Option<(f64, f64)>) {
        let t0 = Instant::now();
        let limit = self.time_limit(0.0);
        let rp = self.params.reward();
        let me = view.seat();
        let Some(sim) = self.sim.as_mut() else {
            return (anchor, None);
        };
        let rows = &mut self.race_rows;
        rows.iter_mut().for_each(Vec::clear);
        if rows.len() < cands.len() {
            rows.resize_with(cands.len(), Vec::new);
        }
        let mut alive: Vec<bool> = vec![true; cands.len()];
        let mut played = 0u64;
        let mut worlds = 0usize;
        let mut leader = 0usize;
        while worlds < self.params.race as usize && alive.iter().filter(|a| **a).count() > 1 {
            if let Some(l) = limit {
                if worlds >= 2 && t0.elapsed() + self.last.elapsed >= l {
                    break;
                }
            }
            let world = view.determinize(rng);
            let seed = rng.next_u64();
            for (i, m) in cands.iter().enumerate() {
                if !alive[i] {
                    continue;
                }
                let mut g = world.clone();
                let mut r = Pcg64Mcg::seed_from_u64(seed);
                sim.reset(stage, u32::MAX);
                sim.apply_macro(&mut g, *m);
                sim.advance(&mut g, &mut r, false);
                rows[i].push(reward(&g, me, &rp));
                played += 1;
            }
            worlds += 1;
            // The leader: the best mean among those still in (all of
            // them played every world so far).
            let mean = |r: &Vec<f64>| r.iter().sum::<f64>() / r.len().max(1) as f64;
            leader = (0..cands.len())
                .filter(|&i| alive[i])
                .max_by(|&a, &b| mean(&rows[a]).total_cmp(&mean(&rows[b])))
                .unwrap_or(0);
            if worlds.is_multiple_of(RACE_BATCH) {
                for i in 0..cands.len() {
                    if i == leader || !alive[i] || rows[i].len() < RACE_MIN {
                        continue;
                    }
                    let (d, se) = mean_se(rows[leader].iter().zip(&rows[i]).map(|(x, y)| x - y));
                    if d > RACE_DROP * se {
                        alive[i] = false;
                    }
                }
            }
        }
        let spent = t0.elapsed();
        self.last.elapsed += spent;
        self.last.iterations += played;
        self.total.elapsed += spent;
        self.total.iterations += played;
        let best = cands[leader];
        let lead = cands
            .iter()
            .position(|m| *m == anchor)
            .map(|ai| mean_se(rows[leader].iter().zip(&rows[ai]).map(|(x, y)| x - y)));
        (best, lead)
    }

    /// The candidates of a race after a search whose most visited option
    /// is `best`, or none when no race is due: the [`RACE_TOP`] most
    /// visited options and the policy's own choice `anchor`. A race is due
    /// when `best` is not the anchor, or when its paired lead over the
    /// runner-up is under `band` standard errors.
    fn race_candidates(
        &self,
        stats: &[OptionStats],
        opts: &[Macro],
        best: Macro,
        anchor: Macro,
    ) -> Vec<Macro> {
        let mut by_visits: Vec<&OptionStats> =
            stats.iter().filter(|s| opts.contains(&s.m)).collect();
        by_visits.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)));
        if best == anchor {
            let clear = match by_visits.iter().find(|s| s.m != best) {
                None => true,
                Some(second) => self
                    .paired_lead(opts, best, second.m)
                    .is_some_and(|(d, se)| d > 0.0 && d > self.params.band * se),
            };
            if clear {
                return Vec::new();
            }
        }
        let mut cands: Vec<Macro> = by_visits.iter().take(RACE_TOP).map(|s| s.m).collect();
        if !cands.contains(&best) {
            cands.insert(0, best);
        }
        if opts.contains(&anchor) && !cands.contains(&anchor) {
            cands.push(anchor);
        }
        cands
    }

    fn search(
        &mut self,
        view: &SeatView,
        stage: Stage,
        root_opts: &[Macro],
        anchor: Option<Macro>,
        budget: u64,
        rng: &mut Pcg64Mcg,
    ) -> Vec<OptionStats> {
        let t0 = Instant::now();
        let early = self.params.early;
        let limit = self.time_limit(CHECK_TIME_SHARE);
        let me = view.seat();
        let stop_turn = if self.params.depth == 0 {
            u32::MAX
        } else {
            view.turns().saturating_add(self.params.depth)
        };
        // My k-th turn from now begins at turn `now + k·players` at the
        // earliest; the tree stops branching at the horizon's first.
        let tree_stop = match self.params.horizon {
            0 => u32::MAX,
            h => view
                .turns()
                .saturating_add(h.saturating_mul(view.players() as u32)),
        };
        let rp = self.params.reward();
        let c = self.params.c;
        let rollout = self.params.rollout;
        let sim = match &mut self.sim {
            Some(s) if s.me() == me && s.players() == view.players() => s,
            slot => slot.insert(Sim::new(
                me,
                view.players(),
                rollout,
                &rollout_rules(self.params.rollout_plan, self.params.rollout_twins),
            )),
        };
        let tree = &mut self.tree;
        let path = &mut self.path;
        let opts = &mut self.opts;
        let cache = &mut self.cache;
        cache.clear();
        let hist = &mut self.hist;
        let eval = &mut self.eval;
        hist.iter_mut().for_each(Vec::clear);
        if hist.len() < root_opts.len() {
            hist.resize_with(root_opts.len(), || Vec::with_capacity(1024));
        }
        let nworlds = self.params.worlds as usize;
        tree.clear();
        tree.push(Node::new(Macro::Hold));
        let mut iters = 0u64;
        while iters < budget {
            if let Some(l) = limit {
                if iters > 0 && t0.elapsed() >= l {
                    break;
                }
            }
            if early > 0.0
                && nworlds > 0
                && iters >= budget / 4
                && iters.is_multiple_of(EARLY_EVERY)
                && clear_lead(tree, hist, root_opts, early)
            {
                break;
            }
            // The root's options are the same in every world, so the
            // option is chosen first. With a fixed set of worlds, the n-th
            // visit of a root option plays world n (each world with its own
            // random stream): options are compared on the same cards and the
            // same luck, differing only by the choices made.
            let (first, new) = match anchor_due(tree, root_opts, anchor) {
                Some(m) => select(tree, 0, std::slice::from_ref(&m), c, rng),
                None => select(tree, 0, root_opts, c, rng),
            };
            let mut sim_rng;
            let (mut g, rng) = if nworlds == 0 {
                (view.determinize(rng), &mut *rng)
            } else {
                let k = (tree[first as usize].visits as usize) % nworlds;
                while cache.len() <= k {
                    let w = view.determinize(rng);
                    cache.push((w, rng.next_u64()));
                }
                sim_rng = Pcg64Mcg::seed_from_u64(cache[k].1);
                (cache[k].0.clone(), &mut sim_rng)
            };
            sim.reset(stage, stop_turn);
            path.clear();
            path.push(0);
            path.push(first);
            sim.apply_macro(&mut g, tree[first as usize].m);
            let mut node = first;
            let mut new = new;
            loop {
                if new {
                    sim.advance(&mut g, rng, false);
                    break;
                }
                if sim.advance(&mut g, rng, true) == Point::Stop {
                    break;
                }
                if g.turns() >= tree_stop {
                    sim.advance(&mut g, rng, false);
                    break;
                }
                opts.clear();
                opts.extend_from_slice(&sim.options);
                let (child, fresh) = select(tree, node, opts, c, rng);
                path.push(child);
                sim.apply_macro(&mut g, tree[child as usize].m);
                node = child;
                new = fresh;
            }
            let r = eval.reward(&g, me, &rp);
            let root_m = tree[first as usize].m;
            if let Some(i) = root_opts.iter().position(|o| *o == root_m) {
                hist[i].push(r);
            }
            for &n in path.iter() {
                let n = &mut tree[n as usize];
                n.visits += 1;
                n.total += r;
                n.squares += r * r;
            }
            iters += 1;
        }
        let mut out = Vec::with_capacity(root_opts.len());
        let mut ch = tree[0].first_child;
        while ch != NONE {
            let n = &tree[ch as usize];
            out.push(OptionStats::of(n));
            ch = n.next_sibling;
        }
        self.last = SearchStats {
            searches: 1,
            iterations: iters,
            elapsed: t0.elapsed(),
            departures: 0,
        };
        self.total += self.last;
        out
    }
}

/// The anchor (the policy's own choice) when it is due a visit at the
/// root: the paired comparison of the search's best option with it
/// ([`Core::paired_lead`]) needs the anchor played in as many worlds as
/// the option most visited, so it is visited whenever it is behind.
fn anchor_due(tree: &[Node], opts: &[Macro], anchor: Option<Macro>) -> Option<Macro> {
    let a = anchor.filter(|a| opts.contains(a))?;
    let Some(ai) = child_of(tree, 0, a) else {
        return Some(a);
    };
    let av = tree[ai as usize].visits;
    let mut ch = tree[0].first_child;
    while ch != NONE {
        let n = &tree[ch as usize];
        if ch != ai && n.visits > av {
            return Some(a);
        }
        ch = n.next_sibling;
    }
    None
}

/// Iterations between two checks for an early stop.
const EARLY_EVERY: u64 = 32;

/// Candidates of the race: the most visited root options.
const RACE_TOP: usize = 3;

/// Standard errors of the paired deficit at which an option drops out of
/// the race.
const RACE_DROP: f64 = 2.5;

/// Worlds an option plays in the race before it may drop out.
const RACE_MIN: usize = 16;

/// Worlds played between two looks at the race.
const RACE_BATCH: usize = 8;

/// Whether the most visited root option leads every other one tried by
/// `z` standard errors of the paired difference (the n-th visits of two
/// options played the same world): the search has decided and may stop.
fn clear_lead(tree: &[Node], hist: &[Vec<f64>], opts: &[Macro], z: f64) -> bool {
    let mut best: Option<(u32, usize)> = None;
    let mut ch = tree[0].first_child;
    while ch != NONE {
        let n = &tree[ch as usize];
        if let Some(i) = opts.iter().position(|o| *o == n.m) {
            if best.is_none_or(|(v, _)| n.visits > v) {
                best = Some((n.visits, i));
            }
        }
        ch = n.next_sibling;
    }
    let Some((_, bi)) = best else {
        return false;
    };
    (0..opts.len()).filter(|&i| i != bi).all(|i| {
        // An option the search has all but left (under four paired
        // visits) counts as beaten.
        if hist[i].len().min(hist[bi].len()) < 4 {
            return true;
        }
        let (d, se) = mean_se(hist[bi].iter().zip(&hist[i]).map(|(x, y)| x - y));
        d > 0.0 && d > z * se
    })
}

/// What a search found about one root option.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionStats {
    /// The option.
    pub m: Macro,
    /// Iterations through it.
    pub visits: u32,
    /// Mean reward.
    pub mean: f64,
    /// Standard error of the mean reward.
    pub se: f64,
}

impl OptionStats {
    fn of(n: &Node) -> OptionStats {
        let k = n.visits.max(1) as f64;
        let mean = n.total / k;
        let var = if n.visits > 1 {
            ((n.squares - k * mean * mean) / (k - 1.0)).max(0.0)
        } else {
            f64::INFINITY
        };
        OptionStats {
            m: n.m,
            visits: n.visits,
            mean,
            se: (var / k).sqrt(),
        }
    }
}

/// The most visited option (ties: the better mean, then the first listed).
pub(crate) fn most_visited(stats: &[OptionStats], opts: &[Macro]) -> Macro {
    let mut best: Option<(u32, f64, Macro)> = None;
    for m in opts {
        if let Some(s) = stats.iter().find(|s| s.m == *m) {
            if best.is_none_or(|(bv, bq, _)| (s.visits, s.mean) > (bv, bq)) {
                best = Some((s.visits, s.mean, *m));
            }
        }
    }
    best.map_or(opts[0], |b| b.2)
}

impl Agent for IsmctsAgent {
    fn name(&self) -> String {
        IsmctsParams::NAME.into()
    }

    fn follower(&mut self) -> Option<&mut dyn Follower> {
        Some(&mut self.driver)
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        let legal = moves.all();
        let core = &mut self.core;
        core.choices.clear();
        if let Some(sim) = core.sim.as_mut() {
            sim.new_decision();
        }
        self.driver
            .decide(view, legal, rng, |stage, opts, anchor, rng| {
                let paired = core.params.check == 0;
                let budget = (core.params.iters as f64 * core.focus(stage, opts)).round() as u64;
                let stats = core.search(
                    view,
                    stage,
                    opts,
                    paired.then_some(anchor),
                    budget.max(1),
                    rng,
                );
                let best = most_visited(&stats, opts);
                let cands = if core.params.race > 0 {
                    core.race_candidates(&stats, opts, best, anchor)
                } else {
                    Vec::new()
                };
                let (played, lead) = if cands.len() > 1 {
                    let (leader, lead) = core.race(view, stage, &cands, anchor, rng);
                    (anchored(leader, anchor, lead, core.params.margin), lead)
                } else if best == anchor {
                    (best, None)
                } else {
                    let lead = if paired {
                        core.paired_lead(opts, best, anchor)
                    } else {
                        Some(core.check(view, stage, best, anchor, rng))
                    };
                    (anchored(best, anchor, lead, core.params.margin), lead)
                };
                note_departure(&mut core.last, &mut core.total, played != anchor);
                core.choices.clear();
                core.choices.extend(stats.iter().map(|s| Choice {
                    option: s.m,
                    value: s.mean,
                    se: s.se.is_finite().then_some(s.se),
                    visits: s.visits,
                    policy: s.m == anchor,
                    chosen: s.m == played,
                    lead: lead.filter(|_| s.m == played && played != anchor),
                }));
                played
            })
    }

    fn choices(&self) -> &[Choice] {
        &self.core.choices
    }

    fn search_totals(&self) -> Option<SearchStats> {
        Some(self.core.total)
    }
}
