//! # kanaszta-agents
//!
//! Players for kanaszta behind one interface for both rule families,
//! [`Agent<G>`](Agent), in the shape of OpenSpiel's `Bot`: an agent sees
//! only its seat's view ([`SeatView`] in decorated canasta) and the legal
//! actions, and draws randomness from its own seeded generator. Agents are
//! chosen by text specs ([`AgentSpec`], parsed for a family from one
//! registry, [`AGENTS`]): `random`, `greedy`, `rules`,
//! `ismcts:iters=1000,c=0.7,rollout=greedy`, `pimc:worlds=20`.
//!
//! [`play_hand`] and [`play_match`] drive agents through a hand or a match;
//! an agent that returns an illegal action ends that game with an
//! [`AgentError`] naming the rule, never a panic.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// The agents' own paths (`kanaszta_agents::…`) hold inside the crate too,
// so that an agent file reads the same in the crate and as an example.
extern crate self as kanaszta_agents;

pub mod classic;
pub mod eval;
mod expert;
pub mod family;
pub mod generic;
pub mod greedy;
pub mod ismcts;
pub mod pimc;
mod play;
pub mod random;
pub mod registry;
pub mod rules;
pub mod search;
pub mod spec;
pub mod value;

pub use family::Family;
pub use greedy::{GreedyAgent, GreedyParams};
pub use ismcts::{IsmctsAgent, IsmctsParams};
pub use pimc::{PimcAgent, PimcParams};
pub use play::{
    play_hand, play_match, play_turns, play_turns_observed, seat_rng, AgentError, HandPlay,
    Observer,
};
pub use random::{RandomAgent, RandomParams};
pub use registry::{agent_names, agent_names_for, Entry, Plays, AGENTS};
pub use rules::{RulesAgent, RulesParams, Twins};
pub use spec::{
    range, switch, AgentSpec, Bounds, Number, NumberRange, ParamDoc, ParamError, ParamText,
    ParamValueError, Params, ParseParam, SpecError,
};

pub use kanaszta_engine::{MoveBuf, Moves};

use kanaszta_engine::{completion_class, Action, Card, GameState, Phase, SeatView};
use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A player of the rule family `G` ([`Family`]: [`GameState`] for
/// decorated canasta, the default, or
/// [`ClassicState`](kanaszta_engine::classic::ClassicState) for classic
/// canasta), in the shape of OpenSpiel's `Bot`. One trait for both
/// families: the view, the listing and the action are the family's
/// ([`Family::Moves`] is the listing an agent chooses from). It is object
/// safe: the runs hold `Box<dyn Agent<G>>`.
///
/// An agent that plays through another implements [`Wrapper`] instead,
/// which forwards [`Agent::restart`] and [`Agent::inform`] to the inner
/// agent by construction.
pub trait Agent<G: Family = GameState> {
    /// The agent's spec name, e.g. `random`.
    fn name(&self) -> String;
    /// Chooses one of `moves` for the seat of `view`, which is the mover.
    /// Decorated canasta's [`Moves::all`] is the whole listing (never
    /// empty); a player with an order of preference may instead walk
    /// [`Moves::actions`] and ask [`Moves::is_listed`] only of the ones it
    /// gets to. Classic canasta's [`classic::ClassicMoves`] reads as the
    /// whole listing, and offers the same choice: its
    /// [`candidates`](classic::ClassicMoves::candidates) checked one at a
    /// time by [`is_listed`](classic::ClassicMoves::is_listed). Returning
    /// an action that is not listed is an error of the game.
    fn act(
        &mut self,
        view: &G::View<'_>,
        moves: &mut G::Moves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> G::Action;
    /// Told what a player did (every action of the hand, in order, its own
    /// included): by default, its [`Agent::follower`] is told.
    fn inform(&mut self, player: usize, action: G::Action) {
        if let Some(f) = self.follower() {
            f.inform(player, action);
        }
    }
    /// Called before each new hand: by default, its [`Agent::follower`] is
    /// restarted.
    fn restart(&mut self) {
        if let Some(f) = self.follower() {
            f.restart();
        }
    }
    /// The part of the agent that follows the real hand (a search's
    /// driver), which the default [`Agent::inform`] and [`Agent::restart`]
    /// forward to; `None` (the default) for an agent that keeps nothing
    /// across its decisions or follows the hand itself.
    fn follower(&mut self) -> Option<&mut dyn Follower<G>> {
        None
    }
    /// The options the last decision weighed and what it found of each, in
    /// the order searched (for a person asking why: `kanaszta human`'s
    /// `hint`). Empty for agents that weigh no options, and after a
    /// decision that needed no search.
    fn choices(&self) -> &[Choice] {
        &[]
    }
    /// What every search since the agent was made cost, and how often its
    /// move left the policy it anchors on ([`search::SearchStats`]); `None`
    /// for agents that do not search.
    fn search_totals(&self) -> Option<search::SearchStats> {
        None
    }
}

/// What an agent keeps across its decisions of one hand (a search's
/// driver, the policy its simulations play): told every action and
/// restarted before each hand through [`Agent::follower`].
pub trait Follower<G: Family = GameState> {
    /// Told what a player did in the real hand.
    fn inform(&mut self, player: usize, action: G::Action);
    /// Forgets the hand.
    fn restart(&mut self);
}

/// What an agent that plays through another one adds to it (timing it,
/// recording what it is told): the hooks of a [`Wrapped`] agent. The
/// inner agent is held by [`Wrapped`], which restarts it, tells it every
/// action and asks it for [`Agent::choices`] and [`Agent::search_totals`]
/// itself — a wrapper cannot forget to forward them. `()` adds nothing.
pub trait Wrapper<G: Family = GameState> {
    /// The spec name: the inner agent's.
    fn name(&self, inner: &dyn Agent<G>) -> String {
        inner.name()
    }
    /// The decision ([`Agent::act`]): the inner agent's.
    fn choose(
        &mut self,
        inner: &mut dyn Agent<G>,
        view: &G::View<'_>,
        moves: &mut G::Moves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        inner.act(view, moves, rng)
    }
    /// Sees each action before the inner agent is told it.
    fn observe(&mut self, _player: usize, _action: G::Action) {}
    /// Called before each new hand, before the inner agent is restarted.
    fn on_restart(&mut self) {}
}

impl<G: Family> Wrapper<G> for () {}

/// The agent `inner` played through the wrapper `hooks` ([`Wrapper`]):
/// an [`Agent`] whose inner agent is restarted, told every action and
/// asked for its choices and search totals by construction.
#[derive(Clone, Debug, Default)]
pub struct Wrapped<A, W> {
    /// The agent played through.
    pub inner: A,
    /// What the wrapper adds.
    pub hooks: W,
}

impl<A, W> Wrapped<A, W> {
    /// `inner` played through `hooks`.
    pub fn new(inner: A, hooks: W) -> Wrapped<A, W> {
        Wrapped { inner, hooks }
    }
}

impl<G: Family, A: Agent<G>, W: Wrapper<G>> Agent<G> for Wrapped<A, W> {
    fn name(&self) -> String {
        self.hooks.name(&self.inner)
    }
    fn act(
        &mut self,
        view: &G::View<'_>,
        moves: &mut G::Moves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        self.hooks.choose(&mut self.inner, view, moves, rng)
    }
    fn inform(&mut self, player: usize, action: G::Action) {
        self.hooks.observe(player, action);
        self.inner.inform(player, action);
    }
    fn restart(&mut self) {
        self.hooks.on_restart();
        self.inner.restart();
    }
    fn choices(&self) -> &[Choice] {
        self.inner.choices()
    }
    fn search_totals(&self) -> Option<search::SearchStats> {
        self.inner.search_totals()
    }
}

/// A boxed agent is an agent (the inner agent of a [`Wrapped`] is often
/// one).
impl<G: Family, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn act(
        &mut self,
        view: &G::View<'_>,
        moves: &mut G::Moves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        (**self).act(view, moves, rng)
    }
    fn inform(&mut self, player: usize, action: G::Action) {
        (**self).inform(player, action)
    }
    fn restart(&mut self) {
        (**self).restart()
    }
    fn follower(&mut self) -> Option<&mut dyn Follower<G>> {
        (**self).follower()
    }
    fn choices(&self) -> &[Choice] {
        (**self).choices()
    }
    fn search_totals(&self) -> Option<search::SearchStats> {
        (**self).search_totals()
    }
}

/// One option of a searched decision ([`Agent::choices`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The option.
    pub option: search::Macro,
    /// Its mean reward (the search's own scale: a hand won or lost and its
    /// margin, see [`search::reward`]).
    pub value: f64,
    /// The standard error of the mean, where the search measures one.
    pub se: Option<f64>,
    /// Playouts through it.
    pub visits: u32,
    /// What the rollout policy would play here (the search's anchor).
    pub policy: bool,
    /// The option the agent played.
    pub chosen: bool,
    /// On the option played where it is not the policy's: the lead over
    /// the policy's option that decided it (mean reward difference and
    /// its standard error), measured where the agent measures it (ismcts:
    /// its race on fresh worlds, or its own paired worlds; pimc: its
    /// worlds). `None` elsewhere.
    pub lead: Option<(f64, f64)>,
}

/// Steps a walk takes at most before it gives up (a turn has far fewer).
pub(crate) const WALK_STEPS: usize = 60;

/// The way to the end of the mover's turn in `s` (a meld phase) found by
/// walking: a listed discard where there is one, else the first listed
/// step in the completion search's order ([`completion_class`]: the rest
/// of the pile, the top card laid, extends, lays, swaps and conversions,
/// the ♥A; never a take-back or the reset), applied to `s`, and so on.
/// Every listed step leaves a turn that can still be completed without
/// undoing anything (I-9), and such steps cannot go on for ever (each
/// lays a card, places or moves a wild, or takes the rest), so the walk
/// reaches a discard where a budgeted search may not, at one candidate
/// check a candidate tried. `None` if it does not (a turn that cannot be
/// ended, or one longer than [`WALK_STEPS`]).
///
/// [`completion_class`]: kanaszta_engine::completion_class
pub fn walk_to_discard(s: &mut GameState) -> Option<Vec<Action>> {
    let mut buf = MoveBuf::new();
    let mut path = Vec::new();
    for _ in 0..WALK_STEPS {
        if s.phase() != Phase::Meld {
            return Some(path);
        }
        let top = s.pickup().filter(|p| !p.rest_taken).map(|p| p.top);
        let step = walk_step(&mut s.moves(&mut buf), top)?;
        path.push(step);
        if matches!(step, Action::Discard(_)) {
            return Some(path);
        }
        s.apply_listed(step).ok()?;
    }
    None
}

/// The next step of a walk among `moves`, those of a meld phase whose
/// pickup's pile top is `top` (`None` without a pickup or once the rest
/// is taken): a listed discard if there is one, else the first listed
/// step in the completion search's order; `None` when nothing is listed
/// but take-backs and the reset. [`walk_to_discard`] and the rules
/// player's walk through a pickup take their steps from here.
pub fn walk_step(moves: &mut Moves, top: Option<Card>) -> Option<Action> {
    // Discards are taken first (below); take-backs and the reset are
    // never walked.
    let class = |a: &Action| -> usize {
        match a {
            Action::Discard(_)
            | Action::TakeBack { .. }
            | Action::TakeBackHeartAce
            | Action::Reset => 7,
            _ => completion_class(a, top),
        }
    };
    let ends = moves.ends();
    if let Some(&d) = ends
        .iter()
        .find(|&&a| matches!(a, Action::Discard(_)) && moves.is_listed(a))
    {
        return Some(d);
    }
    let steps = moves.steps();
    (0..7).find_map(|c| {
        steps
            .iter()
            .copied()
            .filter(|a| class(a) == c)
            .find(|&a| moves.is_listed(a))
    })
}

/// The budgets of the finisher's searches for a way to end the turn: the
/// usual one, then deeper ones where it does not suffice (a pickup
/// opening of 120 may need seven lays found by deepening).
pub const FINISHER_BUDGETS: [u32; 3] = [5_000, 200_000, 2_000_000];

/// The finisher's budgets in a search's simulated worlds: no search of
/// millions of states. A simulated turn the usual searches do not end
/// resets (I-25) to the turn's start, where the policy's pickup check
/// found a way within 20,000 states; one that still wanders is ended by
/// the simulator or scored as it stands. A zero ends the tiers.
pub const ROLLOUT_FINISHER_BUDGETS: [u32; 3] = [5_000, 200_000, 0];

/// The finisher's deep searches (beyond the usual budget) in one hand.
/// A few hands in a thousand need one or two; a hand where a step the
/// engine lists leads to no way the search can find, turn after turn,
/// would otherwise search millions of states every turn (the turns end by
/// a reset, I-25).
pub const DEEP_SEARCHES_PER_HAND: u8 = 8;

/// Follows the engine's shortest way to the end of a turn once an agent has
/// spent `patience` actions in it (or asks for it): needed when a short
/// pickup opening obliges going out (I-26), and a guard against wandering.
/// Only the mover's own cards decide how a turn can end, so any
/// determinization of the view gives a valid plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnFinisher {
    turn: Option<(u32, usize)>,
    steps: u32,
    plan: Vec<Action>,
    /// Deep searches left this turn (a hopeless turn cannot stall a run).
    deep: u8,
    /// Deep searches made this hand (hopeless turns, one after another,
    /// cannot stall a run either).
    deep_in_hand: u8,
    /// The searches' budgets, if not [`FINISHER_BUDGETS`] (tests).
    budgets: Option<[u32; 3]>,
    /// Set by the agent when it wants the plan followed from now on.
    pub finishing: bool,
    /// Where the usual search finds no way, walk the turn
    /// ([`walk_to_discard`]) instead of the deeper searches.
    pub walk: bool,
}

impl TurnFinisher {
    /// Counts one decision; returns the number of decisions so far this turn.
    pub fn step(&mut self, view: &SeatView) -> u32 {
        let key = (view.turns(), view.current_player());
        if self.turn != Some(key) {
            self.turn = Some(key);
            self.steps = 0;
            self.plan.clear();
            self.finishing = false;
            self.deep = 4;
        }
        self.steps += 1;
        self.steps
    }

    /// What [`TurnFinisher::step`] would return, and whether the plan
    /// would then still be followed, without counting the decision.
    pub(crate) fn peek(&self, view: &SeatView) -> (u32, bool) {
        if self.turn == Some((view.turns(), view.current_player())) {
            (self.steps + 1, self.finishing)
        } else {
            (1, false)
        }
    }

    /// The next action of the plan to end the turn, if one is found and legal.
    pub fn next(
        &mut self,
        view: &SeatView,
        legal: &[Action],
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.next_with(view, &mut |a| legal.contains(&a), rng)
    }

    /// [`TurnFinisher::next`] with `listed(a)` telling whether the listing
    /// holds `a` (as [`Moves::lists`] does).
    pub fn next_with(
        &mut self,
        view: &SeatView,
        listed: &mut dyn FnMut(Action) -> bool,
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.next_tiers(view, listed, rng, 3)
    }

    /// [`TurnFinisher::next_with`] searching with the usual budget only
    /// (the first of [`FINISHER_BUDGETS`]), never the deep ones: for an
    /// agent that has a cheaper way on where the usual search finds none.
    pub fn next_shallow_with(
        &mut self,
        view: &SeatView,
        listed: &mut dyn FnMut(Action) -> bool,
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.next_tiers(view, listed, rng, 1)
    }

    /// [`TurnFinisher::next_with`] with the first `tiers` budgets.
    fn next_tiers(
        &mut self,
        view: &SeatView,
        listed: &mut dyn FnMut(Action) -> bool,
        rng: &mut Pcg64Mcg,
        tiers: usize,
    ) -> Option<Action> {
        self.finishing = true;
        if self.plan.is_empty() {
            // A larger budget only where the usual one does not suffice (a
            // pickup opening of 120 may need seven lays found by deepening).
            // The search reads only the mover's part, so the unshuffled
            // world (the same number drawn) plans as a sampled one.
            let seed = rng.next_u64();
            let budgets = self.budgets.unwrap_or(FINISHER_BUDGETS);
            for (i, budget) in budgets.into_iter().take(tiers).enumerate() {
                if budget == 0 {
                    break;
                }
                if i > 0 {
                    if self.walk {
                        // The walk reads only the mover's part, as the
                        // search does: the unshuffled world of the same
                        // sample serves.
                        let mut world = view.own_world(&mut Pcg64Mcg::seed_from_u64(seed));
                        if let Some(mut path) = walk_to_discard(&mut world) {
                            path.reverse();
                            self.plan = path;
                        }
                        break;
                    }
                    if self.deep == 0 || self.deep_in_hand >= DEEP_SEARCHES_PER_HAND {
                        break;
                    }
                    self.deep -= 1;
                    self.deep_in_hand += 1;
                }
                if let Some(mut path) = view.own_completion(seed, budget) {
                    path.reverse();
                    self.plan = path;
                    break;
                }
            }
        }
        match self.plan.pop() {
            Some(a) if listed(a) => Some(a),
            _ => {
                self.plan.clear();
                None
            }
        }
    }

    /// [`TurnFinisher::next`], or else `reset` when legal: with no way out
    /// found from here (a step the engine's bounded check does not list),
    /// the meld phase starts over (I-25) and is planned from its start,
    /// where the engine guarantees a way out (I-9).
    pub fn next_or_reset(
        &mut self,
        view: &SeatView,
        legal: &[Action],
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.next_or_reset_with(view, &mut |a| legal.contains(&a), rng)
    }

    /// [`TurnFinisher::next_or_reset`] with `listed` as in
    /// [`TurnFinisher::next_with`].
    pub fn next_or_reset_with(
        &mut self,
        view: &SeatView,
        listed: &mut dyn FnMut(Action) -> bool,
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.next_with(view, listed, rng)
            .or_else(|| listed(Action::Reset).then_some(Action::Reset))
    }

    /// Forgets the turn and the hand (between hands).
    pub fn reset(&mut self) {
        *self = TurnFinisher {
            budgets: self.budgets,
            walk: self.walk,
            ..TurnFinisher::default()
        };
    }

    /// Stops following the plan: the agent decides again from here.
    pub fn release(&mut self) {
        self.finishing = false;
        self.plan.clear();
    }

    /// A finisher for a search's simulated worlds: the budgets of
    /// [`ROLLOUT_FINISHER_BUDGETS`], and deep searches counted by
    /// decision (see [`TurnFinisher::new_world`]).
    pub fn for_rollouts() -> TurnFinisher {
        TurnFinisher {
            budgets: Some(ROLLOUT_FINISHER_BUDGETS),
            ..TurnFinisher::default()
        }
    }

    /// Forgets the turn, for the next simulated world of the same search
    /// decision: the deep searches made stay counted, so the
    /// [`DEEP_SEARCHES_PER_HAND`] bound holds for the decision's worlds
    /// together (hundreds of worlds may each meet the same hopeless turn).
    pub fn new_world(&mut self) {
        *self = TurnFinisher {
            budgets: self.budgets,
            deep_in_hand: self.deep_in_hand,
            walk: self.walk,
            ..TurnFinisher::default()
        };
    }

    /// Counts deep searches afresh: a new search decision.
    pub fn new_decision(&mut self) {
        self.deep_in_hand = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::ClassicState;
    use kanaszta_engine::{GameState, Phase, Rules};
    use rand::{RngExt, SeedableRng};

    /// Counts what it is told.
    #[derive(Default)]
    struct Counter {
        informed: Vec<(usize, Action)>,
        restarts: u32,
    }

    impl Follower for Counter {
        fn inform(&mut self, player: usize, action: Action) {
            self.informed.push((player, action));
        }
        fn restart(&mut self) {
            self.restarts += 1;
        }
    }

    /// An agent that only names its follower.
    struct Follows(Counter);

    impl Agent for Follows {
        fn name(&self) -> String {
            "follows".into()
        }
        fn act(&mut self, _: &SeatView, moves: &mut Moves, _: &mut Pcg64Mcg) -> Action {
            moves.all()[0]
        }
        fn follower(&mut self) -> Option<&mut dyn Follower> {
            Some(&mut self.0)
        }
    }

    #[test]
    fn the_default_inform_and_restart_reach_the_follower() {
        let mut a = Follows(Counter::default());
        a.restart();
        a.inform(1, Action::Draw);
        let mut w = Wrapped::new(Box::new(a), ());
        Agent::<GameState>::restart(&mut w);
        w.inform(0, Action::Draw);
        assert!(Agent::<GameState>::follower(&mut w.inner).is_some());
        let c = &w.inner.0;
        assert_eq!(c.restarts, 2);
        assert_eq!(c.informed, vec![(1, Action::Draw), (0, Action::Draw)]);
    }

    /// The searches keep a driver that follows the hand (its policy's
    /// memory of the hand, the turn it is in): each names it, so the
    /// default inform and restart reach it.
    #[test]
    fn every_search_forwards_inform_and_restart_to_its_driver() {
        for name in ["ismcts", "pimc"] {
            let mut a = name.parse::<AgentSpec>().unwrap().build();
            assert!(a.follower().is_some(), "{name}");
            let mut c = name.parse::<AgentSpec<ClassicState>>().unwrap().build();
            assert!(c.follower().is_some(), "classic {name}");
        }
    }

    /// A meld phase during a pickup, before the rest is taken: no discard
    /// yet, so a search of one node finds no way to end the turn.
    fn pickup_in_progress() -> GameState {
        let mut legal = Vec::new();
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for seed in 0.. {
            let mut g = GameState::new(Rules::default(), seed);
            while !g.is_terminal() {
                if g.phase() == Phase::Meld && g.pickup().is_some_and(|k| !k.rest_taken) {
                    return g;
                }
                g.legal_actions(&mut legal);
                let a = if legal.contains(&Action::TakePile) {
                    Action::TakePile
                } else {
                    legal[rng.random_range(0..legal.len())]
                };
                g.apply(a).unwrap();
            }
        }
        unreachable!()
    }

    /// `Moves::only_listed` is the listing's only action where it has one,
    /// and `None` where it has more, and `Moves::all` is the listing, at
    /// every meld-phase state of meld-biased hands under both rule
    /// versions: states with no listed discard (pickups, pending wilds, a
    /// last card that cannot go out) and with one come often, and the
    /// take-backs' pass is met. Made from the listing, the moves answer
    /// the same.
    #[test]
    fn only_listed_is_the_single_listed_action() {
        let mut legal = Vec::new();
        let mut buf = MoveBuf::new();
        let (mut single, mut no_discard, mut one_discard, mut take_backs) = (0, 0, 0, 0);
        crate::eval::play_meld_biased_hands(0..70, |_, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            g.legal_actions(&mut legal);
            let want = (legal.len() == 1).then(|| legal[0]);
            let mut m = g.moves(&mut buf);
            assert!(!m.is_complete());
            assert_eq!(m.only_listed(), want, "{legal:?}");
            assert_eq!(m.all(), &legal[..]);
            assert_eq!(m.only_listed(), want, "after all: {legal:?}");
            let mut m = Moves::of_listing(g, &legal, &mut buf);
            assert!(m.is_complete());
            assert_eq!(m.only_listed(), want, "{legal:?}");
            single += want.is_some() as u32;
            let discards = legal
                .iter()
                .filter(|a| matches!(a, Action::Discard(_)))
                .count();
            no_discard += (discards == 0) as u32;
            one_discard += (discards == 1) as u32;
            take_backs += legal
                .iter()
                .any(|a| matches!(a, Action::TakeBack { .. } | Action::TakeBackHeartAce))
                as u32;
        });
        assert!(
            single > 100 && no_discard > 1000 && one_discard > 100 && take_backs > 1000,
            "{single} single, {no_discard} without a discard, {one_discard} with one, {take_backs} with a take-back"
        );
    }

    /// The ends of a meld phase (the discards and the reset) come after
    /// every meld step, in the candidates and in the listing, so that
    /// `Moves::steps` and `Moves::ends` split them; every listed action
    /// is among the candidates, and `Moves::lists` is the listing's
    /// `contains`: at every meld-phase state of meld-biased hands under
    /// both rule versions.
    #[test]
    fn ends_follow_every_step() {
        let mut legal = Vec::new();
        let mut buf = MoveBuf::new();
        let (mut states, mut resets) = (0, 0);
        let is_end = |a: &Action| matches!(a, Action::Discard(_) | Action::Reset);
        crate::eval::play_meld_biased_hands(0..30, |_, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            g.legal_actions(&mut legal);
            let cand = g.moves(&mut buf).actions().to_vec();
            for list in [&cand, &legal] {
                let first_end = list.iter().position(is_end).unwrap_or(list.len());
                assert!(list[first_end..].iter().all(is_end), "{list:?}");
            }
            let m = g.moves(&mut buf);
            let first_end = cand.iter().position(is_end).unwrap_or(cand.len());
            assert_eq!(m.steps(), &cand[..first_end]);
            assert_eq!(m.ends(), &cand[first_end..]);
            let m = Moves::of_listing(g, &legal, &mut buf);
            let first_end = legal.iter().position(is_end).unwrap_or(legal.len());
            assert_eq!(m.steps(), &legal[..first_end]);
            assert_eq!(m.ends(), &legal[first_end..]);
            let mut m = g.moves(&mut buf);
            for &a in &cand {
                assert_eq!(m.lists(a), legal.contains(&a), "{a}");
            }
            assert!(legal.iter().all(|a| cand.contains(a)));
            states += 1;
            resets += legal.contains(&Action::Reset) as u32;
        });
        assert!(
            states > 3000 && resets > 1000,
            "{states} states, {resets} with a reset"
        );
    }

    /// `SeatView::own_completion` is the completion of the mover's own
    /// world for the same sample (the finisher's plan), at every
    /// meld-phase state of meld-biased hands under both rule versions:
    /// with the finisher's usual budget, and with ones small enough that
    /// the deepening runs out and one deep search answers (every state of
    /// the listing has a way out, I-9: one not found is a budget spent).
    /// States with long ways out and pickups before the rest is taken come
    /// often.
    #[test]
    fn own_completion_is_the_own_worlds() {
        let (mut states, mut long, mut before_rest, mut none) = (0, 0, 0, 0);
        let mut k = 0u64;
        crate::eval::play_meld_biased_hands(0..30, |_, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            k += 1;
            let view = g.view(g.current_player());
            let mut r = Pcg64Mcg::seed_from_u64(k);
            let seed = r.clone().next_u64();
            let world = view.own_world(&mut r);
            for budget in [8, 30, FINISHER_BUDGETS[0]] {
                let want = world.completion(budget);
                assert_eq!(view.own_completion(seed, budget), want, "budget {budget}");
                long += want.as_ref().is_some_and(|p| p.len() >= 4) as u32;
                none += want.is_none() as u32;
            }
            states += 1;
            before_rest += g.pickup().is_some_and(|p| !p.rest_taken) as u32;
        });
        assert!(
            states > 3000 && long > 300 && before_rest > 100 && none > 100,
            "{states} states, {long} long ways out, {before_rest} before the rest, {none} without"
        );
    }

    /// The finisher searches beyond its usual budget at most
    /// [`DEEP_SEARCHES_PER_HAND`] times in a hand, whatever the number of
    /// turns that need it, and at most four times in a turn; a new hand
    /// has them all again.
    #[test]
    fn deep_searches_are_capped_per_turn_and_per_hand() {
        let g = pickup_in_progress();
        let view = g.view(g.current_player());
        let mut f = TurnFinisher {
            budgets: Some([1, 1, 1]),
            ..TurnFinisher::default()
        };
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        let mut per_turn = |f: &mut TurnFinisher, calls: usize| {
            // A new turn each time: forget the last one's key.
            f.turn = None;
            f.step(&view);
            let before = f.deep_in_hand;
            for _ in 0..calls {
                assert_eq!(f.next_with(&view, &mut |_| true, &mut rng), None);
            }
            f.deep_in_hand - before
        };
        // Two deep searches a call; four a turn.
        assert_eq!(per_turn(&mut f, 3), 4);
        let hand: Vec<u8> = (0..6).map(|_| per_turn(&mut f, 1)).collect();
        assert_eq!(hand, [2, 2, 0, 0, 0, 0]);
        assert_eq!(f.deep_in_hand, DEEP_SEARCHES_PER_HAND);
        f.reset();
        assert_eq!(per_turn(&mut f, 1), 2);
    }

    /// With `walk`, where the usual search finds no way (one state here)
    /// the finisher walks the turn instead of searching deeper: a plan of
    /// listed steps ending in the discard, no deep search counted. Without
    /// it the deeper searches (one state each here) find none.
    #[test]
    fn the_walk_ends_a_turn_the_usual_search_does_not() {
        let g = pickup_in_progress();
        let view = g.view(g.current_player());
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut f = TurnFinisher {
            budgets: Some([1, 1, 1]),
            ..TurnFinisher::default()
        };
        f.step(&view);
        assert_eq!(f.next_with(&view, &mut |_| true, &mut rng), None);
        let mut f = TurnFinisher {
            budgets: Some([1, 1, 1]),
            walk: true,
            ..TurnFinisher::default()
        };
        f.step(&view);
        let first = f.next_with(&view, &mut |_| true, &mut rng).expect("a walk");
        assert_eq!(f.deep_in_hand, 0);
        let mut plan = vec![first];
        plan.extend(f.plan.iter().rev());
        let (mut s, mut legal) = (g, Vec::new());
        for &a in &plan {
            assert_eq!(s.phase(), Phase::Meld, "{plan:?}");
            s.legal_actions(&mut legal);
            assert!(legal.contains(&a), "{a} of {plan:?} listed");
            s.apply(a).unwrap();
        }
        assert!(matches!(plan.last(), Some(Action::Discard(_))), "{plan:?}");
        assert_ne!(s.phase(), Phase::Meld);
        f.reset();
        assert!(f.walk, "the walk survives a new hand");
    }

    /// In a search's simulated worlds the finisher's tiers end at a zero
    /// budget (no search of millions of states), and the bound on deep
    /// searches holds for all the worlds of one decision together: a new
    /// world keeps the count, a new decision starts it afresh.
    #[test]
    fn rollout_deep_searches_are_capped_per_decision() {
        assert_eq!(ROLLOUT_FINISHER_BUDGETS[2], 0);
        assert!(ROLLOUT_FINISHER_BUDGETS[1] < FINISHER_BUDGETS[2]);
        let g = pickup_in_progress();
        let view = g.view(g.current_player());
        let mut f = TurnFinisher {
            budgets: Some([1, 1, 0]),
            ..TurnFinisher::for_rollouts()
        };
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        let mut world = |f: &mut TurnFinisher| {
            f.new_world();
            f.step(&view);
            let before = f.deep_in_hand;
            assert_eq!(f.next_with(&view, &mut |_| true, &mut rng), None);
            f.deep_in_hand - before
        };
        // One deep search a call (the third tier is off), until the
        // decision's eight are spent, whatever the number of worlds.
        let worlds: Vec<u8> = (0..10).map(|_| world(&mut f)).collect();
        assert_eq!(worlds, [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
        assert_eq!(f.deep_in_hand, DEEP_SEARCHES_PER_HAND);
        f.new_decision();
        assert_eq!(world(&mut f), 1);
        // The rollout budgets survive a new world and a reset.
        f.reset();
        assert_eq!(f.budgets, Some([1, 1, 0]));
        assert_eq!(
            TurnFinisher::for_rollouts().budgets,
            Some(ROLLOUT_FINISHER_BUDGETS)
        );
    }
}
