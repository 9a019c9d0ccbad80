//! `pimc`: determinized flat Monte Carlo (perfect-information Monte Carlo).
//!
//! At each decision that needs a search (the same ones as
//! [`crate::ismcts`]: the draw, `meld` or `hold`, the discard), it samples
//! `worlds` worlds consistent with the seat's view
//! ([`SeatView::determinize`]); in each world it plays every candidate macro
//! action and then the rest of the hand (or `depth` turns) with the rollout
//! policy, every seat included, and scores the result with the same reward as
//! `ismcts` ([`crate::search`]). The candidate with the best mean reward is
//! played. All candidates of a world share its sampled cards and the
//! rollout's random stream, so they are compared on equal terms.
//!
//! With `eval=FILE` a playout cut at `depth` turns is scored by a learned
//! value model ([`LeafEval`], as `ismcts:eval=FILE`) instead of the
//! hand-made estimate; a finished hand keeps its exact reward.
//!
//! It assumes that later on every seat plays the policy, seeing no more than
//! now (no strategy fusion in the tree sense, since there is no tree), but it
//! judges each candidate by a single playout per world.

use crate::agent_params;
use crate::ismcts::{
    DEPTH_DOC, MARGIN_DOC, PLAN_DOC, ROLLOUT_DOC, SCALE_DOC, TIME_DOC, TWINS_DOC, WIN_DOC,
};
use crate::search::{
    anchored, note_departure, rollout_rules, Driver, Macro, RewardParams, Rollout, SearchStats,
    Sim, Stage,
};
use crate::spec::{range, switch, Params};
use crate::value::LeafEval;
use crate::{Agent, Choice, Follower, Moves, Twins};
use kanaszta_engine::{Action, GameState, SeatView};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

agent_params! {
    /// Parameters of [`PimcAgent`].
    pub struct PimcParams for PimcAgent {
        name: "pimc",
        summary: "determinized flat Monte Carlo: each macro action (draw/pickup, meld or hold, discard) played out with the policy in sampled worlds, best mean kept",
        /// Worlds sampled per search.
        worlds: u32 = 24, range(1, 1_000_000), "1..1000000", "worlds (determinizations) per search; every candidate is played out once in each";
        /// Milliseconds per search (0: no time limit); whichever ends first.
        time: u32 = 0, range(0, 600_000), TIME_DOC.accepts, TIME_DOC.doc;
        /// The policy of playouts and of the seat's own meld steps.
        rollout: Rollout = Rollout::Rules, Rollout::parse, ROLLOUT_DOC.accepts, ROLLOUT_DOC.doc;
        /// Whether a `rules` playout policy plans its meld steps (its turn
        /// planner); the seat's own moves at the table are planned either way.
        rollout_plan: bool = true, switch, PLAN_DOC.accepts, PLAN_DOC.doc;
        /// When a `rules` playout policy plays for twins (its `twins`).
        rollout_twins: Twins = Twins::Plan, Twins::parse, TWINS_DOC.accepts, TWINS_DOC.doc;
        /// Turns a playout plays before it is cut and evaluated (0: to the end).
        depth: u32 = 8, range(0, 1000), DEPTH_DOC.accepts, DEPTH_DOC.doc;
        /// Standard errors by which the best candidate must beat the policy's
        /// own choice to be played instead.
        margin: f64 = 2.0, range(0.0, 10.0), MARGIN_DOC.accepts, MARGIN_DOC.doc;
        /// Weight of winning the hand against the point margin in the reward.
        win: f64 = 0.5, range(0.0, 1.0), WIN_DOC.accepts, WIN_DOC.doc;
        /// Taxed points of margin that count as a full reward.
        scale: u32 = 1000, range(1, 100_000), SCALE_DOC.accepts, SCALE_DOC.doc;
        /// A learned value model scoring playouts cut at `depth`.
        eval: crate::value::ModelFile = crate::value::ModelFile::default(), crate::value::model_file::<GameState>, "a file of `kanaszta learn fit` (decorated)", "a value model that scores a playout cut at `depth` turns (its predicted margin, untaxed, in place of the hand-made estimate); with depth=0 the playouts reach the end of the hand and it is not used";
    }
}

/// The PIMC player (see the module documentation).
pub struct PimcAgent {
    driver: Driver,
    core: Core,
}

struct Core {
    params: PimcParams,
    sim: Option<Sim>,
    /// Rewards by world, then option.
    rewards: Vec<f64>,
    worlds_run: usize,
    /// The options of the decision's last search ([`Agent::choices`]).
    choices: Vec<Choice>,
    last: SearchStats,
    total: SearchStats,
    /// The learned evaluation of cut playouts (`eval`), if any.
    eval: LeafEval,
    /// The whole state to search instead of sampled worlds, and whether
    /// its stock is shuffled for each world ([`PimcAgent::know`]):
    /// analysis only, never set in play.
    known: Option<(GameState, bool)>,
}

impl Default for PimcAgent {
    fn default() -> PimcAgent {
        PimcAgent::new(PimcParams::default())
    }
}

impl PimcAgent {
    /// A PIMC agent with these parameters.
    pub fn new(params: PimcParams) -> PimcAgent {
        PimcAgent {
            driver: Driver::new(params.rollout),
            core: Core {
                eval: LeafEval::new(&params.eval),
                params,
                sim: None,
                rewards: Vec::new(),
                worlds_run: 0,
                choices: Vec::with_capacity(32),
                last: SearchStats::default(),
                total: SearchStats::default(),
                known: None,
            },
        }
    }

    /// Makes the next decisions search `state`, the whole game with every
    /// hidden card, in every world instead of worlds sampled from the
    /// seat's view; with `shuffle_stock` each world puts the stock in a
    /// fresh order ([`GameState::shuffle_stock`]), so that the search knows
    /// the hands but not the draws to come. `None`: back to sampling. A
    /// measuring tool for what hidden cards are worth to this search
    /// (`benches/examples/oracle`): the [`Agent`] interface never passes
    /// more than the seat's view, and no agent spec sets it.
    pub fn know(&mut self, state: Option<&GameState>, shuffle_stock: bool) {
        self.core.known = state.map(|g| (g.clone(), shuffle_stock));
    }

    /// The parameters.
    pub fn params(&self) -> &PimcParams {
        &self.core.params
    }

    /// Playouts and time of the last search.
    pub fn search_stats(&self) -> SearchStats {
        self.core.last
    }

    /// Playouts and time of every search since the agent was made.
    pub fn total_stats(&self) -> SearchStats {
        self.core.total
    }

    /// The mean reward of each of `root_opts` at `view`, the simulator
    /// starting at `stage`. For analysis and tests.
    pub fn search(
        &mut self,
        view: &SeatView,
        stage: Stage,
        root_opts: &[Macro],
        rng: &mut Pcg64Mcg,
    ) -> Vec<(Macro, f64)> {
        self.core.search(view, stage, root_opts, rng)
    }
}

impl Core {
    fn search(
        &mut self,
        view: &SeatView,
        stage: Stage,
        root_opts: &[Macro],
        rng: &mut Pcg64Mcg,
    ) -> Vec<(Macro, f64)> {
        let t0 = Instant::now();
        let p = &self.params;
        let limit = (p.time > 0).then(|| Duration::from_millis(p.time as u64));
        let me = view.seat();
        let stop_turn = if p.depth == 0 {
            u32::MAX
        } else {
            view.turns().saturating_add(p.depth)
        };
        let rp = RewardParams {
            win: p.win,
            scale: p.scale as f64,
            match_aware: false,
        };
        let sim = match &mut self.sim {
            Some(s) if s.me() == me && s.players() == view.players() => s,
            slot => slot.insert(Sim::new(
                me,
                view.players(),
                p.rollout,
                &rollout_rules(p.rollout_plan, p.rollout_twins),
            )),
        };
        self.rewards.clear();
        let mut worlds = 0u64;
        while worlds < p.worlds as u64 {
            if let Some(l) = limit {
                if worlds > 0 && t0.elapsed() >= l {
                    break;
                }
            }
            let world = match &self.known {
                Some((g, shuffle)) => {
                    let mut w = g.clone();
                    if *shuffle {
                        w.shuffle_stock(rng.next_u64());
                    }
                    w
                }
                None => view.determinize(rng),
            };
            let seed = rng.next_u64();
            for m in root_opts {
                let mut g = world.clone();
                let mut r = Pcg64Mcg::seed_from_u64(seed);
                sim.reset(stage, stop_turn);
                sim.apply_macro(&mut g, *m);
                sim.advance(&mut g, &mut r, false);
                self.rewards.push(self.eval.reward(&g, me, &rp));
            }
            worlds += 1;
        }
        self.last = SearchStats {
            searches: 1,
            iterations: worlds * root_opts.len() as u64,
            elapsed: t0.elapsed(),
            departures: 0,
        };
        self.total += self.last;
        self.worlds_run = worlds as usize;
        let k = root_opts.len();
        root_opts
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let sum: f64 = self.rewards.chunks(k).map(|w| w[i]).sum();
                (*m, sum / worlds.max(1) as f64)
            })
            .collect()
    }

    /// The mean reward lead of option `b` over option `a` in the last
    /// search, world by world, and its standard error.
    fn lead(&self, k: usize, b: usize, a: usize) -> Option<(f64, f64)> {
        let n = self.worlds_run;
        if n < 2 {
            return None;
        }
        let d: Vec<f64> = self.rewards.chunks(k).map(|w| w[b] - w[a]).collect();
        let mean = d.iter().sum::<f64>() / n as f64;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n as f64 - 1.0);
        Some((mean, (var / n as f64).sqrt()))
    }
}

impl Agent for PimcAgent {
    fn name(&self) -> String {
        PimcParams::NAME.into()
    }

    fn follower(&mut self) -> Option<&mut dyn Follower> {
        Some(&mut self.driver)
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        let legal = moves.all();
        let core = &mut self.core;
        let margin = core.params.margin;
        core.choices.clear();
        if let Some(sim) = core.sim.as_mut() {
            sim.new_decision();
        }
        self.driver
            .decide(view, legal, rng, |stage, opts, anchor, rng| {
                let means = core.search(view, stage, opts, rng);
                // Best mean; ties go to the first listed.
                let mut best = (f64::NEG_INFINITY, opts[0]);
                for (m, q) in &means {
                    if *q > best.0 {
                        best = (*q, *m);
                    }
                }
                let idx = |m: Macro| opts.iter().position(|o| *o == m);
                let lead = match (idx(best.1), idx(anchor)) {
                    (Some(b), Some(a)) => core.lead(opts.len(), b, a),
                    _ => None,
                };
                let played = anchored(best.1, anchor, lead, margin);
                note_departure(&mut core.last, &mut core.total, played != anchor);
                let worlds = core.worlds_run as u32;
                core.choices.clear();
                core.choices.extend(means.iter().map(|(m, q)| Choice {
                    option: *m,
                    value: *q,
                    se: None,
                    visits: worlds,
                    policy: *m == anchor,
                    chosen: *m == played,
                    lead: lead.filter(|_| *m == played && played != anchor),
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
