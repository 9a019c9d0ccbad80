//! What the search agents ([`crate::ismcts`], [`crate::pimc`]) share: the
//! macro actions they search over, the simulator that plays a sampled world
//! forward with rollout policies, the reward, and the driver that turns a
//! searched macro action back into the atomic action the game asks for.
//!
//! # Macro actions
//!
//! A turn is a draw or pickup, any number of meld steps, and a discard; in
//! atomic actions it is both wide and deep. The searchers branch only on the
//! decisions that matter and let the rollout policy fill in the meld steps:
//!
//! - at the draw: `draw`, `free` (the free pickup, D-6.1) or `take` (the
//!   penalized pickup, D-6.2), whichever are legal;
//! - at the start of the meld phase, when a discard is already legal and
//!   the policy would lay something first: `meld` (meld as the rollout
//!   policy would, up to the moment it wants to discard) or `hold` (lay
//!   nothing more, go straight to the discard);
//! - at the discard: which card (one option per legal discard; going out is
//!   the discard of the last card).
//!
//! A pickup turn, or one whose discard is not yet legal (I-26), always melds
//! by the policy: the compulsory steps are not worth a branch.
//!
//! # Anchor
//!
//! At every searched decision the policy's own choice is known (the
//! [`Driver`] asks it). A searcher plays its best option only if that
//! option's mean reward lead over the policy's choice is above `margin`
//! standard errors ([`anchored`]): outcomes of a hand vary so much that a
//! search which cannot tell two options apart should not trade a good
//! policy's judgement for noise. `pimc` measures the lead on its own
//! worlds; `ismcts` on fresh ones (its check).
//!
//! # Reward
//!
//! From the searching seat `me`, with `d` the raw hand-score difference
//! between `me` and its best opponent and `t` the same difference after the
//! tax each player's running total brings (D-15):
//! `reward = w·sign(d) + (1 − w)·clamp(t / scale, −1, 1)`, in `[-1, 1]`.
//! `w` (the `win` parameter) weighs winning the hand (D-16.1) against its
//! margin; the tax term makes points worth less to a player whose running
//! total is high. With `match_aware` (ismcts's `stakes`) and a match under
//! way, the margin term is instead the change in [`match_win`], the
//! estimated chance of winning the match, from the totals before the hand
//! to the totals after its taxed scores, scaled so that at a match's start
//! it weighs as the taxed margin does. A rollout cut at `depth` turns is scored by [`estimate`], a
//! fitted guess of each player's final hand score.

use crate::eval::least_useful_discard;
use crate::random::RandomParams;
use crate::spec::{AgentSpec, ParamValueError};
use crate::{Agent, Follower, GreedyParams, MoveBuf, Moves, RulesAgent, RulesParams, Twins};
use kanaszta_engine::{
    score_table, tax, Action, Card, CardSet, GameState, GoingOut, Phase, SeatView,
};
use rand_pcg::Pcg64Mcg;
use std::fmt;

/// Hard cap on the policy's steps within one simulated turn: a guard against
/// a policy that never ends its meld phase (as in [`crate::play_hand`]).
const MAX_SIM_STEPS_PER_TURN: u32 = 400;

/// The parameters of a `rules` policy in the searchers' simulated worlds:
/// the defaults, with the turn planner on or off (`rollout_plan`) and the
/// twin play as `twins` says (`rollout_twins`).
pub fn rollout_rules(plan: bool, twins: Twins) -> RulesParams {
    RulesParams {
        plan,
        twins,
        ..RulesParams::default()
    }
}

/// The policy that plays simulated moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// [`crate::RandomAgent`] with its default parameters.
    Random,
    /// [`crate::GreedyAgent`] with its default parameters.
    Greedy,
    /// [`crate::RulesAgent`] with its default parameters.
    Rules,
}

impl crate::ParamText for Rollout {
    fn text(&self) -> String {
        self.to_string()
    }
}

impl Rollout {
    /// The accepted names.
    pub const ACCEPTS: &'static str = "random|greedy|rules";

    /// Parses a rollout name.
    pub fn parse(value: &str) -> Result<Rollout, ParamValueError> {
        match value {
            "random" => Ok(Rollout::Random),
            "greedy" => Ok(Rollout::Greedy),
            "rules" => Ok(Rollout::Rules),
            _ => Err(ParamValueError::OneOf(Rollout::ACCEPTS)),
        }
    }

    /// The spec of the policy agent.
    pub fn spec(self) -> AgentSpec {
        match self {
            Rollout::Random => AgentSpec::of(RandomParams::default()),
            Rollout::Greedy => AgentSpec::of(GreedyParams::default()),
            Rollout::Rules => AgentSpec::of(RulesParams::default()),
        }
    }

    /// A new policy agent.
    pub fn build(self) -> Box<dyn Agent> {
        self.spec().build()
    }
}

impl fmt::Display for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
            Rollout::Rules => "rules",
        })
    }
}

/// A decision of the searching seat as the searchers see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Macro {
    /// Draw from the stock.
    Draw,
    /// The free pickup (D-6.1).
    Free,
    /// The penalized pickup (D-6.2), then meld by the policy.
    Take,
    /// Meld as the policy would, then choose the discard.
    Meld,
    /// Meld nothing more; choose the discard now.
    Hold,
    /// Discard this card.
    Discard(Card),
}

impl fmt::Display for Macro {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Macro::Draw => f.write_str("draw"),
            Macro::Free => f.write_str("free"),
            Macro::Take => f.write_str("take"),
            Macro::Meld => f.write_str("meld"),
            Macro::Hold => f.write_str("hold"),
            Macro::Discard(c) => write!(f, "discard {c}"),
        }
    }
}

/// Where the searching seat is within its own meld phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Nothing chosen yet this turn.
    Start,
    /// Melding by the policy until it wants to discard.
    ByPolicy,
    /// The discard is to be chosen now.
    DiscardNow,
}

/// The reward's parameters (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RewardParams {
    /// Weight of the hand's win or loss against its margin.
    pub win: f64,
    /// Points of (taxed) margin that count as a full win.
    pub scale: f64,
    /// In match play (some running total above 0), the margin term is the
    /// change in the estimated chance of winning the match ([`match_win`]).
    pub match_aware: bool,
}

/// What the simulator reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// The searching seat must choose among the options in the buffer.
    Decide,
    /// The hand is over, or the rollout was cut at its depth.
    Stop,
}

/// Plays a sampled world forward: other seats and the searcher's meld steps
/// by the rollout policy (each seat its own instance), the searcher's macro
/// decisions handed to the caller. Buffers are kept between iterations.
pub struct Sim {
    me: usize,
    policies: Vec<Policy>,
    legal: Vec<Action>,
    /// The moves a policy chooses from.
    buf: MoveBuf,
    /// The options of the last [`Point::Decide`].
    pub options: Vec<Macro>,
    /// The searcher's stage in its current turn.
    pub stage: Stage,
    turn_key: (u32, usize),
    steps: u32,
    /// The policy's first meld step, asked before offering `meld` or
    /// `hold` and played if `meld` is chosen.
    pending: Option<Action>,
    /// Turns after which a rollout stops (`u32::MAX`: the end of the hand).
    pub stop_turn: u32,
    /// Actions the engine refused although they were listed as legal.
    pub refused: u64,
    broken: bool,
}

impl Sim {
    /// A simulator for seat `me` with `players` policy instances; a
    /// `rules` policy plays with the parameters `rules` (e.g. without its
    /// turn planner, [`rollout_rules`]), the other policies ignore them.
    pub fn new(me: usize, players: usize, rollout: Rollout, rules: &RulesParams) -> Sim {
        Sim {
            me,
            policies: (0..players).map(|_| Policy::of(rollout, rules)).collect(),
            legal: Vec::with_capacity(128),
            buf: MoveBuf::new(),
            options: Vec::with_capacity(32),
            stage: Stage::Start,
            turn_key: (u32::MAX, usize::MAX),
            steps: 0,
            pending: None,
            stop_turn: u32::MAX,
            refused: 0,
            broken: false,
        }
    }

    /// The searching seat.
    pub fn me(&self) -> usize {
        self.me
    }

    /// Seats simulated.
    pub fn players(&self) -> usize {
        self.policies.len()
    }

    /// A new search decision: the rules policies' bound on deep
    /// finisher searches starts afresh ([`RulesAgent::new_decision`]).
    pub fn new_decision(&mut self) {
        for p in &mut self.policies {
            if let Policy::Rules(a) = p {
                a.new_decision();
            }
        }
    }

    /// Prepares for a new world: policies forget their turn plans (a rules
    /// policy keeps its count of deep finisher searches, which bounds
    /// them by decision, [`RulesAgent::new_world`]).
    pub fn reset(&mut self, stage: Stage, stop_turn: u32) {
        for p in &mut self.policies {
            match p {
                Policy::Rules(a) => a.new_world(),
                Policy::Other(a, _) => a.restart(),
            }
        }
        self.stage = stage;
        self.stop_turn = stop_turn;
        self.turn_key = (u32::MAX, usize::MAX);
        self.steps = 0;
        self.pending = None;
        self.broken = false;
    }

    /// Applies `a`; `false` if the engine refused it (the world is then
    /// scored as it stands rather than the search failing).
    fn apply(&mut self, g: &mut GameState, a: Action) -> bool {
        self.apply_as(g, a, false)
    }

    /// [`Sim::apply`] of an action chosen while `self.legal` is the
    /// listing of `g`: a listed one skips the completion check the listing
    /// already made ([`GameState::apply_listed`]).
    fn apply_chosen(&mut self, g: &mut GameState, a: Action) -> bool {
        let listed = self.legal.contains(&a);
        self.apply_as(g, a, listed)
    }

    fn apply_as(&mut self, g: &mut GameState, a: Action, listed: bool) -> bool {
        let p = g.current_player();
        let r = if listed {
            g.apply_listed(a)
        } else {
            g.apply(a)
        };
        if r.is_err() {
            self.refused += 1;
            return false;
        }
        for pol in &mut self.policies {
            pol.inform(p, a);
        }
        true
    }

    /// Applies a macro chosen at the last [`Point::Decide`].
    pub fn apply_macro(&mut self, g: &mut GameState, m: Macro) {
        let ok = match m {
            Macro::Draw => self.apply(g, Action::Draw),
            Macro::Free => self.apply(g, Action::FreePickup),
            Macro::Take => self.apply(g, Action::TakePile),
            Macro::Meld | Macro::Hold => set_plan(m, &mut self.stage, &mut self.pending),
            Macro::Discard(c) => self.apply(g, Action::Discard(c)),
        };
        self.broken |= !ok;
    }

    /// Plays on until the searcher has a macro decision (`tree` true) or
    /// the hand ends or the depth is reached. With `tree` false the
    /// searcher's moves are the policy's too (a rollout).
    pub fn advance(&mut self, g: &mut GameState, rng: &mut Pcg64Mcg, tree: bool) -> Point {
        loop {
            if self.broken || g.is_terminal() || g.turns() >= self.stop_turn {
                return Point::Stop;
            }
            let p = g.current_player();
            let key = (g.turns(), p);
            if key != self.turn_key {
                // Each of the searcher's turns after the root's starts with
                // nothing chosen, also where a forced draw (a single
                // listed action) offers no decision to reset it at.
                if p == self.me && self.turn_key.0 != u32::MAX {
                    self.stage = Stage::Start;
                    self.pending = None;
                }
                self.turn_key = key;
                self.steps = 0;
            }
            self.steps += 1;
            // A rules policy's pickup: the rest of the pile, when it may be
            // taken, is taken without the listing. Not at the searcher's own
            // decisions in the tree, which the stages below handle.
            if (p != self.me || !tree) && self.steps <= MAX_SIM_STEPS_PER_TURN {
                if let Policy::Rules(r) = &mut self.policies[p] {
                    if g.pickup().is_some_and(|k| !k.rest_taken) && r.take_rest_in(p, g) {
                        for pol in &mut self.policies {
                            pol.inform(p, Action::TakeRest);
                        }
                        continue;
                    }
                }
            }
            // A policy's meld step chosen from the lazy moves (the
            // candidates checked one at a time): not at the searcher's own
            // decisions in the tree, nor after its `hold`.
            let policy_step = p != self.me || (!tree && self.stage != Stage::DiscardNow);
            if policy_step
                && g.phase() == Phase::Meld
                && self.steps <= MAX_SIM_STEPS_PER_TURN
                && self.policies[p].lazy()
            {
                let view = g.view(p);
                let mut moves = g.moves(&mut self.buf);
                let a = self.policies[p].act_moves(&view, g, &mut moves, rng);
                let listed = moves.lists(a);
                self.broken |= !self.apply_as(g, a, listed);
                continue;
            }
            // The searcher's own meld phase in the tree: from the lazy
            // moves where its policy chooses from them (only the
            // candidates the decisions need are checked), else from the
            // listing.
            if p == self.me
                && tree
                && g.phase() == Phase::Meld
                && self.steps <= MAX_SIM_STEPS_PER_TURN
            {
                let lazy = self.policies[p].lazy();
                if !lazy {
                    g.legal_actions(&mut self.legal);
                }
                match self.own_meld_step(g, !lazy, rng) {
                    OwnStep::Apply(a, listed) => {
                        self.broken |= !self.apply_as(g, a, listed);
                        continue;
                    }
                    OwnStep::Decide => return Point::Decide,
                }
            }
            g.legal_actions(&mut self.legal);
            if self.steps > MAX_SIM_STEPS_PER_TURN {
                // A wandering policy: end the turn the engine's way.
                match g.completion(2000).and_then(|path| path.first().copied()) {
                    Some(a) => {
                        self.broken |= !self.apply(g, a);
                        continue;
                    }
                    None => return Point::Stop,
                }
            }
            if self.legal.len() == 1 {
                let a = self.legal[0];
                self.broken |= !self.apply_chosen(g, a);
                continue;
            }
            if p != self.me {
                let a = self.policies[p].act(g, &self.legal, &mut self.buf, rng);
                self.broken |= !self.apply_chosen(g, a);
                continue;
            }
            match g.phase() {
                Phase::FirstDiscard if tree => {
                    discard_options(&self.legal, &mut self.options);
                    return Point::Decide;
                }
                Phase::Draw => {
                    self.stage = Stage::Start;
                    if tree {
                        draw_options(&self.legal, &mut self.options);
                        return Point::Decide;
                    }
                }
                Phase::Meld if self.stage == Stage::DiscardNow => {
                    // A rollout after `hold`: the policy's discard if it
                    // offers one, else the least useful card.
                    let v = g.view(p);
                    let mut a = self.policies[p].act_with(&v, g, &self.legal, &mut self.buf, rng);
                    if !matches!(a, Action::Discard(_)) {
                        if let Some(d) = least_useful_discard(&v, &self.legal) {
                            a = d;
                        }
                    }
                    self.broken |= !self.apply_chosen(g, a);
                    continue;
                }
                _ => {}
            }
            let a = self.policies[p].act(g, &self.legal, &mut self.buf, rng);
            self.broken |= !self.apply_chosen(g, a);
        }
    }
}

/// What [`Sim::own_meld_step`] found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OwnStep {
    /// The step to apply, and whether it is listed.
    Apply(Action, bool),
    /// A decision point: `options` are set.
    Decide,
}

impl Sim {
    /// The searcher's own meld phase in the tree: the one listed action
    /// is applied; at the start of the phase, where a discard is listed
    /// and no pickup is in progress, the policy's first step is held back
    /// for a `meld`/`hold` decision; after `hold`, or when the policy
    /// would discard, the listed discards are the options; otherwise the
    /// policy's step. With `listed`, `self.legal` is the listing of `g`;
    /// else the policy chooses from the lazy moves of `g`.
    fn own_meld_step(&mut self, g: &GameState, listed: bool, rng: &mut Pcg64Mcg) -> OwnStep {
        let p = self.me;
        let mut c = if listed {
            Moves::of_listing(g, &self.legal, &mut self.buf)
        } else {
            g.moves(&mut self.buf)
        };
        if let Some(a) = c.only_listed() {
            return OwnStep::Apply(a, true);
        }
        let view = g.view(p);
        let policy = &mut self.policies[p];
        let mut choose = |c: &mut Moves, rng: &mut Pcg64Mcg| policy.act_moves(&view, g, c, rng);
        // The listed discards, in the listing's order.
        let discards = |c: &mut Moves, out: &mut Vec<Macro>| {
            out.clear();
            for &a in c.ends() {
                if let Action::Discard(d) = a {
                    if c.is_listed(a) {
                        out.push(Macro::Discard(d));
                    }
                }
            }
        };
        if self.stage == Stage::Start {
            self.stage = Stage::ByPolicy;
            let hold = g.pickup().is_none()
                && c.ends()
                    .iter()
                    .any(|&a| matches!(a, Action::Discard(_)) && c.is_listed(a));
            if hold {
                let a = choose(&mut c, rng);
                // `meld` differs from `hold` only if the policy would lay
                // something first.
                if !matches!(a, Action::Discard(_)) {
                    self.pending = Some(a);
                    self.options.clear();
                    self.options.extend([Macro::Meld, Macro::Hold]);
                    return OwnStep::Decide;
                }
                self.stage = Stage::DiscardNow;
            }
        }
        if self.stage == Stage::DiscardNow {
            discards(&mut c, &mut self.options);
            if !self.options.is_empty() {
                return OwnStep::Decide;
            }
        }
        let a = match self.pending.take() {
            Some(a) => a,
            None => choose(&mut c, rng),
        };
        if let Action::Discard(_) = a {
            self.stage = Stage::DiscardNow;
            discards(&mut c, &mut self.options);
            return OwnStep::Decide;
        }
        OwnStep::Apply(a, c.lists(a))
    }
}

/// A simulated seat's policy. The rules policy is held as itself so that
/// it tries its meld steps on the simulated world ([`RulesAgent::act_in`])
/// rather than on one it would make from the seat's view.
enum Policy {
    Rules(Box<RulesAgent>),
    /// Another agent, and whether it chooses its meld steps from the lazy
    /// moves (as greedy does) rather than from the listing.
    Other(Box<dyn Agent>, bool),
}

impl Policy {
    fn of(rollout: Rollout, rules: &RulesParams) -> Policy {
        match rollout {
            Rollout::Rules => Policy::Rules(Box::new(RulesAgent::for_rollouts(rules.clone()))),
            Rollout::Greedy => Policy::Other(rollout.build(), true),
            Rollout::Random => Policy::Other(rollout.build(), false),
        }
    }

    /// Whether the policy chooses its meld steps from the lazy moves (it
    /// checks only the candidates it gets to); one that reads the whole
    /// listing anyway is given the listing, and a single listed action is
    /// played without asking it.
    fn lazy(&self) -> bool {
        match self {
            Policy::Rules(_) => true,
            Policy::Other(_, lazy) => *lazy,
        }
    }

    fn inform(&mut self, player: usize, action: Action) {
        match self {
            Policy::Rules(a) => a.inform(player, action),
            Policy::Other(a, _) => a.inform(player, action),
        }
    }

    /// The mover's action in `g`, from the listing `legal` of `g`.
    fn act(
        &mut self,
        g: &GameState,
        legal: &[Action],
        buf: &mut MoveBuf,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        self.act_with(&g.view(g.current_player()), g, legal, buf, rng)
    }

    /// The mover's action in `g`, whose view `view` is, from the listing
    /// `legal` of `g`.
    fn act_with(
        &mut self,
        view: &SeatView,
        g: &GameState,
        legal: &[Action],
        buf: &mut MoveBuf,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        self.act_moves(view, g, &mut Moves::of_listing(g, legal, buf), rng)
    }

    /// The mover's action in `g`, whose view `view` is, from `moves` of
    /// `g`.
    fn act_moves(
        &mut self,
        view: &SeatView,
        g: &GameState,
        moves: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        match self {
            Policy::Rules(a) => a.act_in(view, g, moves, rng),
            Policy::Other(a, _) => a.act(view, moves, rng),
        }
    }
}

/// Sets the turn's plan for `meld` (the policy melds) or `hold` (discard
/// now, the policy's pending step dropped) and says true; false, with
/// nothing changed, for any other macro.
fn set_plan(m: Macro, stage: &mut Stage, pending: &mut Option<Action>) -> bool {
    match m {
        Macro::Meld => *stage = Stage::ByPolicy,
        Macro::Hold => {
            *stage = Stage::DiscardNow;
            *pending = None;
        }
        _ => return false,
    }
    true
}

/// Whether `hold` differs from `meld` at the start of a meld phase: not in
/// a pickup (its steps are compulsory) and a discard is already legal.
pub fn hold_possible(pickup: bool, legal: &[Action]) -> bool {
    !pickup && legal.iter().any(|a| matches!(a, Action::Discard(_)))
}

/// The draw-phase options among `legal`.
pub fn draw_options(legal: &[Action], out: &mut Vec<Macro>) {
    out.clear();
    for a in legal {
        match a {
            Action::Draw => out.push(Macro::Draw),
            Action::FreePickup => out.push(Macro::Free),
            Action::TakePile => out.push(Macro::Take),
            _ => {}
        }
    }
}

/// The discard options among `legal`.
pub fn discard_options(legal: &[Action], out: &mut Vec<Macro>) {
    out.clear();
    for a in legal {
        if let Action::Discard(c) = a {
            out.push(Macro::Discard(*c));
        }
    }
}

/// A player's expected hand score at a cut rollout: the table as it
/// stands (D-14 base items and melded cards), about 125 for each group one
/// or two cards short of a canasta and 50 for having a canasta (weights of a
/// linear fit of final score differences on greedy self-play positions),
/// black threes in hand at their full −100, and other cards in hand at half
/// their value; a player left with one card and no canasta is stuck and
/// scored as such. The fit credits cards in hand more (a fresh pile is material
/// for melds), but a card held must be worth less than the same card melded,
/// or a search learns to hoard and never go out.
pub fn estimate(g: &GameState, p: usize) -> i32 {
    let t = g.table(p);
    let hand = g.hand(p);
    let near = t
        .groups()
        .iter()
        .filter(|gr| !gr.is_canasta() && gr.len() >= 5)
        .count() as i32;
    let black = hand.black_three_count() as i32 * 100;
    let table = score_table(t, CardSet::EMPTY, GoingOut::NO, false, g.rules()).total;
    if !t.has_canasta() && hand.len() <= 1 {
        // Stuck: one card and no canasta. Each turn he draws one card and
        // must keep one (D-13.2), so he can neither add to his groups nor
        // take the pile (D-6.2 needs a pair in hand): the table is final,
        // the card counts minus and the opponent goes out at leisure.
        return table - hand.points() - STUCK_PENALTY;
    }
    table - black + (hand.points() - black) / 2 + 125 * near + if t.has_canasta() { 50 } else { 0 }
}

/// What being stuck with one card and no canasta costs at a cut rollout
/// beyond the table's frozen value: roughly the canasta and going-out points
/// the opponent may still collect while the stuck player cannot.
const STUCK_PENALTY: i32 = 300;

/// The reward of a finished (or cut) simulated hand for seat `me`.
pub fn reward(g: &GameState, me: usize, rp: &RewardParams) -> f64 {
    let cut = !g.is_terminal();
    let mut mine = (0i32, 0i32);
    let mut best: Option<(i32, i32)> = None;
    for p in 0..g.players() {
        let raw = if cut {
            estimate(g, p)
        } else {
            g.score_of(p).total
        };
        let taxed = tax(raw, g.totals()[p], g.rules());
        if p == me {
            mine = (raw, taxed);
        } else if best.is_none_or(|b| raw > b.0) {
            best = Some((raw, taxed));
        }
    }
    let (ob, ot) = best.unwrap_or((0, 0));
    let d = mine.0 - ob;
    let t = (mine.1 - ot) as f64;
    let totals = g.totals();
    let margin = if rp.match_aware && totals.iter().any(|&x| x != 0) {
        // The running totals after the hand: each total plus its taxed
        // hand score (D-15); the best opponent's is the highest.
        let target = g.rules().target as f64;
        let mut opp_before = f64::NEG_INFINITY;
        let mut opp_after = f64::NEG_INFINITY;
        for (p, &total) in totals.iter().enumerate() {
            if p == me {
                continue;
            }
            let raw = if cut {
                estimate(g, p)
            } else {
                g.score_of(p).total
            };
            opp_before = opp_before.max(total as f64);
            opp_after = opp_after.max((total + tax(raw, total, g.rules())) as f64);
        }
        let my_before = totals[me] as f64;
        let my_after = my_before + mine.1 as f64;
        let gain =
            match_win(my_after, opp_after, target) - match_win(my_before, opp_before, target);
        // Scaled so that at a match's start a taxed margin of `scale`
        // weighs as in a single hand: the slope of the chance at an even
        // score with a whole match to play is 1 / (4·s0).
        (gain * 4.0 * match_spread(0.0, target) / rp.scale).clamp(-1.0, 1.0)
    } else {
        (t / rp.scale).clamp(-1.0, 1.0)
    };
    let sign = match d.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
    };
    rp.win * sign + (1.0 - rp.win) * margin
}

/// The standard deviation, in points, of one hand's score difference
/// between two players, roughly (fitted by eye to `rules` against itself:
/// about 900 points a hand each, a difference spread near 1,100).
const HAND_SPREAD: f64 = 1100.0;

/// Points a player's total gains in a hand on average.
const HAND_GAIN: f64 = 900.0;

/// The logistic scale of the final lead with the leader at `top` of a
/// match to `target`: hands still to play times the spread of one, the
/// normal's sd turned into a logistic scale (× 0.55).
fn match_spread(top: f64, target: f64) -> f64 {
    let hands = 1.0 + ((target - top).max(0.0) / HAND_GAIN);
    0.55 * HAND_SPREAD * hands.sqrt()
}

/// A simple estimate of the chance that a player with total `mine`
/// wins the match to `target` against a best opponent with `opp` (D-16.2):
/// decided once a total passes the target (the higher total wins, an exact
/// tie is even), else a logistic on the lead whose scale shrinks with the
/// hands left.
pub fn match_win(mine: f64, opp: f64, target: f64) -> f64 {
    if mine > target || opp > target {
        return match mine.partial_cmp(&opp) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
    }
    let s = match_spread(mine.max(opp), target);
    1.0 / (1.0 + (-(mine - opp) / s).exp())
}

/// The root decision at a real position, or the atomic action to play
/// without search.
pub enum Root {
    /// Play this action.
    Play(Action),
    /// Search among these options, starting the simulator at this stage;
    /// the last is what the policy would play (the search's anchor).
    Search(Stage, Vec<Macro>, Macro),
}

/// Turns macro decisions into atomic actions at the real table: keeps the
/// turn's plan (`meld` or `hold`), lets the real policy play the meld steps,
/// and asks for a search only where a macro decision is due.
pub struct Driver {
    /// The policy that plays the searcher's meld steps (and its cut).
    pub policy: Box<dyn Agent>,
    turn_key: Option<(u32, usize)>,
    stage: Stage,
    /// The policy's first meld step, asked before offering `meld` or `hold`
    /// and played if the search chooses `meld`.
    pending: Option<Action>,
    /// The moves the policy chooses from.
    buf: MoveBuf,
}

impl Driver {
    /// A driver whose meld steps follow `rollout`.
    pub fn new(rollout: Rollout) -> Driver {
        Driver {
            policy: rollout.build(),
            turn_key: None,
            stage: Stage::Start,
            pending: None,
            buf: MoveBuf::new(),
        }
    }

    /// Forgets the hand.
    pub fn restart(&mut self) {
        self.policy.restart();
        self.turn_key = None;
        self.stage = Stage::Start;
        self.pending = None;
    }

    /// What to do at a real decision.
    pub fn root(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Root {
        let key = (view.turns(), view.current_player());
        if self.turn_key != Some(key) {
            self.turn_key = Some(key);
            self.stage = Stage::Start;
            self.pending = None;
        }
        if legal.len() == 1 {
            return Root::Play(legal[0]);
        }
        let mut opts = Vec::new();
        match view.phase() {
            Phase::Cut | Phase::Over => Root::Play(self.policy_act(view, legal, rng)),
            Phase::FirstDiscard => {
                discard_options(legal, &mut opts);
                let anchor = self.policy_macro(view, legal, rng, &opts);
                Root::Search(Stage::DiscardNow, opts, anchor)
            }
            Phase::Draw => {
                draw_options(legal, &mut opts);
                let anchor = self.policy_macro(view, legal, rng, &opts);
                Root::Search(Stage::Start, opts, anchor)
            }
            Phase::Meld => {
                let mut proposed = None;
                if self.stage == Stage::Start {
                    self.stage = Stage::ByPolicy;
                    if hold_possible(view.pickup().is_some(), legal) {
                        // `meld` differs from `hold` only if the policy
                        // would lay something first.
                        let a = self.policy_act(view, legal, rng);
                        if matches!(a, Action::Discard(_)) {
                            proposed = Some(a);
                            self.stage = Stage::DiscardNow;
                        } else {
                            self.pending = Some(a);
                            opts.extend([Macro::Meld, Macro::Hold]);
                            return Root::Search(Stage::Start, opts, Macro::Meld);
                        }
                    }
                }
                if self.stage == Stage::ByPolicy {
                    let a = match self.pending.take() {
                        Some(a) => a,
                        None => self.policy_act(view, legal, rng),
                    };
                    if !matches!(a, Action::Discard(_)) {
                        return Root::Play(a);
                    }
                    proposed = Some(a);
                    self.stage = Stage::DiscardNow;
                }
                discard_options(legal, &mut opts);
                match opts.len() {
                    0 => Root::Play(self.policy_act(view, legal, rng)),
                    1 => Root::Play(to_action(opts[0]).unwrap_or(legal[0])),
                    _ => {
                        let anchor = match proposed {
                            Some(Action::Discard(c)) => Macro::Discard(c),
                            _ => {
                                let a = self.policy_act(view, legal, rng);
                                match a {
                                    Action::Discard(c) => Macro::Discard(c),
                                    _ => least_useful_discard(view, legal)
                                        .and_then(|d| match d {
                                            Action::Discard(c) => Some(Macro::Discard(c)),
                                            _ => None,
                                        })
                                        .unwrap_or(opts[0]),
                                }
                            }
                        };
                        Root::Search(Stage::DiscardNow, opts, anchor)
                    }
                }
            }
        }
    }

    /// The policy's choice as one of `opts` (the first if it is none).
    fn policy_macro(
        &mut self,
        view: &SeatView,
        legal: &[Action],
        rng: &mut Pcg64Mcg,
        opts: &[Macro],
    ) -> Macro {
        let m = match self.policy_act(view, legal, rng) {
            Action::Draw => Macro::Draw,
            Action::FreePickup => Macro::Free,
            Action::TakePile => Macro::Take,
            Action::Discard(c) => Macro::Discard(c),
            _ => opts[0],
        };
        if opts.contains(&m) {
            m
        } else {
            opts[0]
        }
    }

    /// Takes the macro a search chose at the root: the atomic action to
    /// play, or `None` after `meld` / `hold`, which set the turn's plan;
    /// then [`Driver::root`] is asked again.
    pub fn choose(&mut self, m: Macro, legal: &[Action]) -> Option<Action> {
        if set_plan(m, &mut self.stage, &mut self.pending) {
            return None;
        }
        to_action(m).filter(|a| legal.contains(a))
    }

    /// The whole decision: plays what needs no search, calls `search` with
    /// the root's stage, options and the policy's own choice where one is due, and maps its choice
    /// back to a legal atomic action (the policy's if the choice does not map).
    pub fn decide(
        &mut self,
        view: &SeatView,
        legal: &[Action],
        rng: &mut Pcg64Mcg,
        mut search: impl FnMut(Stage, &[Macro], Macro, &mut Pcg64Mcg) -> Macro,
    ) -> Action {
        // At most three rounds: a plan, then the policy's meld step or the discard.
        for _ in 0..3 {
            match self.root(view, legal, rng) {
                Root::Play(a) => return a,
                Root::Search(stage, opts, anchor) => {
                    let m = if opts.len() == 1 {
                        opts[0]
                    } else {
                        search(stage, &opts, anchor, rng)
                    };
                    if let Some(a) = self.choose(m, legal) {
                        return a;
                    }
                    if !matches!(m, Macro::Meld | Macro::Hold) {
                        return self.policy_act(view, legal, rng);
                    }
                }
            }
        }
        self.policy_act(view, legal, rng)
    }

    /// The policy's action, checked against `legal`.
    pub fn policy_act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        // The listing's steps are tried on the mover's own world (the
        // unshuffled one: only the mover's part decides them).
        let world = view.own_world(&mut Pcg64Mcg::new(0));
        let a = self.policy.act(
            view,
            &mut Moves::of_listing(&world, legal, &mut self.buf),
            rng,
        );
        if legal.contains(&a) {
            a
        } else {
            legal
                .iter()
                .copied()
                .find(|a| *a != Action::Reset)
                .unwrap_or(legal[0])
        }
    }

    /// Passes an observed action to the policy.
    pub fn inform(&mut self, player: usize, action: Action) {
        self.policy.inform(player, action);
    }
}

impl Follower for Driver {
    fn inform(&mut self, player: usize, action: Action) {
        Driver::inform(self, player, action);
    }
    fn restart(&mut self) {
        Driver::restart(self);
    }
}

/// The option to play: the search's `best`, unless its lead over the
/// policy's own choice (`anchor`) — `lead`: the mean reward difference and
/// its standard error — is under `margin` standard errors (or not
/// positive). A search that cannot tell the options apart keeps the
/// policy's move: the best of a dozen noisy means beats a good move by noise
/// alone.
pub fn anchored(best: Macro, anchor: Macro, lead: Option<(f64, f64)>, margin: f64) -> Macro {
    match lead {
        _ if best == anchor => anchor,
        Some((d, se)) if d <= 0.0 || d < margin * se => anchor,
        _ => best,
    }
}

/// The atomic action of a macro that is one (`draw`, `free`, `take`,
/// `discard`).
pub fn to_action(m: Macro) -> Option<Action> {
    match m {
        Macro::Draw => Some(Action::Draw),
        Macro::Free => Some(Action::FreePickup),
        Macro::Take => Some(Action::TakePile),
        Macro::Discard(c) => Some(Action::Discard(c)),
        Macro::Meld | Macro::Hold => None,
    }
}

/// What the last searches cost: for benchmarks (`kanaszta bench`) and for
/// choosing budgets. Summed with `+=`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Searches run (decisions that needed one).
    pub searches: u64,
    /// Iterations (ISMCTS) or rollouts (PIMC) run.
    pub iterations: u64,
    /// Time spent searching.
    pub elapsed: std::time::Duration,
    /// Searches whose move was not the policy's own choice (the anchor):
    /// where the search left the policy.
    pub departures: u64,
}

impl SearchStats {
    /// Iterations per second (0 when nothing was timed).
    pub fn iterations_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.iterations as f64 / s
        } else {
            0.0
        }
    }

    /// Mean time of one search, in milliseconds.
    pub fn ms_per_search(&self) -> f64 {
        if self.searches == 0 {
            0.0
        } else {
            self.elapsed.as_secs_f64() * 1000.0 / self.searches as f64
        }
    }
}

/// Counts the move of the search just run (`last`, already in `total`):
/// whether it `departed` from the policy's own choice.
pub(crate) fn note_departure(last: &mut SearchStats, total: &mut SearchStats, departed: bool) {
    let d = u64::from(departed);
    last.departures = d;
    total.departures += d;
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, o: SearchStats) {
        self.searches += o.searches;
        self.iterations += o.iterations;
        self.elapsed += o.elapsed;
        self.departures += o.departures;
    }
}

/// The mean of `xs` and its standard error (infinite, with a mean of 0,
/// under two values, so that nothing is concluded from them).
pub(crate) fn mean_se(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut n, mut sum, mut sq) = (0.0f64, 0.0f64, 0.0f64);
    for x in xs {
        n += 1.0;
        sum += x;
        sq += x * x;
    }
    if n < 2.0 {
        return (0.0, f64::INFINITY);
    }
    let mean = sum / n;
    let var = ((sq - n * mean * mean) / (n - 1.0)).max(0.0);
    (mean, (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GreedyAgent;
    use kanaszta_engine::Rules;
    use rand::SeedableRng;

    /// Each of the searcher's turns starts afresh ("nothing chosen yet
    /// this turn"), also when its draw is forced and so offers no
    /// decision: after a turn that ended in a discard, the next one still
    /// offers `meld` or `hold` where the policy would lay something first,
    /// and is not played as a discard at once.
    #[test]
    fn every_turn_of_the_searcher_starts_afresh() {
        let mut legal = Vec::new();
        let mut checked = 0;
        for seed in 0..40 {
            let mut g = GameState::new(Rules::default(), seed);
            let mut agents = [GreedyAgent::default(), GreedyAgent::default()];
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while !g.is_terminal() && g.turns() < 60 {
                g.legal_actions(&mut legal);
                let me = g.current_player();
                // A discard decision of the searcher: the root of a search.
                if g.phase() == Phase::Meld
                    && legal.iter().all(|a| matches!(a, Action::Discard(_)))
                    && legal.len() > 1
                {
                    let mut w = g.clone();
                    let mut sim = Sim::new(me, 2, Rollout::Greedy, &RulesParams::default());
                    let mut srng = Pcg64Mcg::seed_from_u64(7);
                    sim.reset(Stage::DiscardNow, u32::MAX);
                    assert_eq!(sim.advance(&mut w, &mut srng, true), Point::Decide);
                    sim.apply_macro(&mut w, sim.options[0]);
                    // On to the searcher's next decision.
                    if sim.advance(&mut w, &mut srng, true) == Point::Decide
                        && w.current_player() == me
                        && w.phase() == Phase::Meld
                    {
                        let mut l = Vec::new();
                        w.legal_actions(&mut l);
                        let policy = GreedyAgent::default().act(
                            &w.view(me),
                            &mut w.moves(&mut MoveBuf::new()),
                            &mut srng.clone(),
                        );
                        if hold_possible(w.pickup().is_some(), &l)
                            && !matches!(policy, Action::Discard(_))
                        {
                            assert_eq!(
                                sim.options,
                                [Macro::Meld, Macro::Hold],
                                "seed {seed}, turn {}: a new turn of the searcher",
                                w.turns()
                            );
                            checked += 1;
                        }
                    }
                }
                let a = agents[me].act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
                g.apply(a).unwrap();
            }
        }
        assert!(checked >= 20, "only {checked} new turns checked");
    }
}
