//! # kanaszta-agents
//!
//! Players for kanaszta behind one interface, [`Agent`], in the shape of
//! OpenSpiel's `Bot`: an agent sees only its seat's [`SeatView`] and the legal
//! actions, and draws randomness from its own seeded generator. Agents are
//! chosen by text specs ([`AgentSpec`]): `random`, `greedy`, `rules`,
//! `ismcts:iters=1000,c=0.7,rollout=greedy`, `pimc:worlds=20`.
//!
//! [`play_hand`] and [`play_match`] drive agents through a hand or a match;
//! an agent that returns an illegal action ends that game with an
//! [`AgentError`] naming the rule, never a panic.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod eval;
pub mod greedy;
pub mod ismcts;
pub mod pimc;
mod play;
pub mod random;
pub mod rules;
pub mod search;
pub mod spec;

pub use greedy::{GreedyAgent, GreedyParams};
pub use ismcts::{IsmctsAgent, IsmctsParams};
pub use pimc::{PimcAgent, PimcParams};
pub use play::{play_hand, play_match, seat_rng, AgentError, HandPlay};
pub use random::{RandomAgent, RandomParams};
pub use rules::{RulesAgent, RulesParams};
pub use spec::{AgentSpec, ParamDoc, Params, SpecError, AGENT_NAMES};

use kanaszta_engine::{Action, CandidateCheck, GameState, Group, SeatView, Table};
use rand::Rng;
use rand_pcg::Pcg64Mcg;

/// The meld phase's candidate actions of [`Agent::act_unlisted`]: the
/// actions [`GameState::legal_actions`] chooses from, unchecked, in its
/// order ([`GameState::candidate_actions`]), with the listing's check one
/// candidate at a time. They read only the mover's own cards, table and
/// turn; the state behind them is out of the agent's reach.
pub struct Candidates<'a> {
    actions: &'a [Action],
    /// Where the ends (the discards and the reset) begin: they come after
    /// every meld step.
    ends: usize,
    check: CandidateCheck<'a>,
    listed: &'a mut Vec<Action>,
    /// The actions are the listing itself ([`Candidates::of_listing`]).
    is_listing: bool,
}

impl<'a> Candidates<'a> {
    /// The candidates `actions` of `state` (from
    /// [`GameState::candidate_actions`]); the ones found listed are added
    /// to `listed`.
    pub fn new(state: &'a GameState, actions: &'a [Action], listed: &'a mut Vec<Action>) -> Self {
        Candidates {
            actions,
            ends: ends_start(actions),
            check: state.candidate_check(),
            listed,
            is_listing: false,
        }
    }

    /// The listing `legal` of the state whose mover's part is that of
    /// `world` (a world of the mover's view), as candidates that are all
    /// listed: so that an agent's choice from candidates serves for its
    /// choice from the listing too. Steps are tried on `world`.
    pub fn of_listing(
        world: &'a GameState,
        legal: &'a [Action],
        listed: &'a mut Vec<Action>,
    ) -> Self {
        Candidates {
            actions: legal,
            ends: ends_start(legal),
            check: world.candidate_check(),
            listed,
            is_listing: true,
        }
    }

    /// The candidates, in the listing's order.
    pub fn actions(&self) -> &'a [Action] {
        self.actions
    }

    /// The meld steps among the candidates (every candidate before the
    /// discards and the reset), in order.
    pub fn steps(&self) -> &'a [Action] {
        &self.actions[..self.ends]
    }

    /// The discards and the reset among the candidates, in order: they
    /// come after every meld step.
    pub fn ends(&self) -> &'a [Action] {
        &self.actions[self.ends..]
    }

    /// Whether [`GameState::legal_actions`] lists the candidate `a`.
    pub fn is_listed(&mut self, a: Action) -> bool {
        // The ones found listed are kept: asked again, they are not
        // checked again.
        if self.is_listing {
            return self.actions.contains(&a);
        }
        if self.listed.contains(&a) {
            return true;
        }
        let ok = self.check.is_listed(a);
        if ok {
            self.listed.push(a);
        }
        ok
    }

    /// Whether the candidate `a` is surely not listed, by a cheap test
    /// ([`CandidateCheck::surely_unlisted`]): a player scoring candidates
    /// before checking them may leave these out. `false` decides nothing.
    pub fn surely_unlisted(&mut self, a: Action) -> bool {
        !self.is_listing && self.check.surely_unlisted(a)
    }

    /// Whether `a` is a candidate and listed: the listing's `contains`.
    pub fn lists(&mut self, a: Action) -> bool {
        self.actions.contains(&a) && self.is_listed(a)
    }

    /// The one listed candidate, if exactly one is; found by checking
    /// the cheap candidates first (discards and the reset) and the rest
    /// of the pile (listed whenever it may be taken, and asked for first
    /// by the players), then the take-backs (a group laid this turn taken
    /// back nearly always leaves a way out, where a step that empties the
    /// hand leaves none and takes a going-out test to refuse), and no
    /// more than it takes to see a second.
    pub fn only_listed(&mut self) -> Option<Action> {
        let mut only = None;
        let pass = |a: &Action| match a {
            Action::Discard(_) | Action::Reset | Action::TakeRest => 0,
            Action::TakeBack { .. } | Action::TakeBackHeartAce => 1,
            _ => 2,
        };
        // The discards are counted at once (they are the hand's kinds):
        // two listed settle it, and with none listed none is checked.
        let mut check_discards = true;
        if !self.is_listing {
            match self.check.listed_discards() {
                0 => check_discards = false,
                1 => {}
                _ => return None,
            }
        }
        // A pass runs only if it has candidates. The ends (discards and
        // the reset) come after the steps and belong to the first pass.
        let (steps, ends) = (self.steps(), self.ends());
        let passes = steps.iter().fold(0u8, |m, a| m | 1 << pass(a)) | (!ends.is_empty()) as u8;
        for this_pass in 0..3 {
            if passes & (1 << this_pass) == 0 {
                continue;
            }
            let all = if this_pass == 0 { self.actions } else { steps };
            for &a in all {
                if pass(&a) != this_pass || (!check_discards && matches!(a, Action::Discard(_))) {
                    continue;
                }
                if self.is_listed(a) {
                    if only.is_some() {
                        return None;
                    }
                    only = Some(a);
                }
            }
        }
        only
    }

    /// Every listed candidate, in order, into `out` (cleared first): the
    /// listing itself.
    pub fn listing(&mut self, out: &mut Vec<Action>) {
        out.clear();
        for i in 0..self.actions.len() {
            let a = self.actions[i];
            if self.is_listed(a) {
                out.push(a);
            }
        }
    }

    /// For an extend from the hand with no wild pending, the group before
    /// and after it (`Some(None)` if the step is refused); `None` for any
    /// other action ([`CandidateCheck::extend_from_hand`]).
    pub fn extend_from_hand(&self, a: Action) -> Option<Option<(Group, Group)>> {
        self.check.extend_from_hand(a)
    }

    /// `read` of the mover's table after the meld step `a` alone, or
    /// `None` if the step is refused ([`CandidateCheck::read_table_after`]):
    /// what a listed step leads to, without the listing's check, read in
    /// place.
    pub fn read_table_after<R>(&mut self, a: Action, read: impl FnOnce(&Table) -> R) -> Option<R> {
        self.check.read_table_after(a, read)
    }
}

/// Where the ends of a meld phase (the discards and the reset) begin in
/// `actions`, candidates or a listing: the engine lists them after every
/// meld step ([`GameState::candidate_actions`]).
fn ends_start(actions: &[Action]) -> usize {
    let mut n = actions.len();
    while n > 0 && matches!(actions[n - 1], Action::Discard(_) | Action::Reset) {
        n -= 1;
    }
    debug_assert!(!actions[..n]
        .iter()
        .any(|a| matches!(a, Action::Discard(_) | Action::Reset)));
    n
}

/// A player, in the shape of OpenSpiel's `Bot`.
pub trait Agent {
    /// The agent's spec name, e.g. `random`.
    fn name(&self) -> String;
    /// Chooses one of `legal` (never empty) for the seat of `view`, which is
    /// the mover. Returning an action not in `legal` is an error of the game.
    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action;
    /// Whether the agent may choose meld-phase actions by
    /// [`Agent::act_unlisted`]. Asked before each meld-phase decision.
    fn chooses_unlisted(&self) -> bool {
        false
    }
    /// A meld-phase choice without the checked listing: an agent with an
    /// order of preference checks only the [`Candidates`] it gets to.
    /// Returns the action [`Agent::act`] would return with the listing, or
    /// `None`, leaving the agent and `rng` as they were, to be asked by
    /// [`Agent::act`] instead.
    fn act_unlisted(
        &mut self,
        _view: &SeatView,
        _candidates: &mut Candidates,
        _rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        None
    }
    /// Told what a player did (every action of the hand, in order, its own
    /// included).
    fn inform(&mut self, _player: usize, _action: Action) {}
    /// Called before each new hand.
    fn restart(&mut self) {}
}

/// The budgets of the finisher's searches for a way to end the turn: the
/// usual one, then deeper ones where it does not suffice (a pickup
/// opening of 120 may need seven lays found by deepening).
pub const FINISHER_BUDGETS: [u32; 3] = [5_000, 200_000, 2_000_000];

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
    /// holds `a` (as [`Candidates::is_listed`] does).
    pub fn next_with(
        &mut self,
        view: &SeatView,
        listed: &mut dyn FnMut(Action) -> bool,
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        self.finishing = true;
        if self.plan.is_empty() {
            // A larger budget only where the usual one does not suffice (a
            // pickup opening of 120 may need seven lays found by deepening).
            // The search reads only the mover's part, so the unshuffled
            // world (the same number drawn) plans as a sampled one.
            let seed = rng.next_u64();
            let budgets = self.budgets.unwrap_or(FINISHER_BUDGETS);
            for (i, budget) in budgets.into_iter().enumerate() {
                if i > 0 {
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
            ..TurnFinisher::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::{GameState, Phase, Rules};
    use rand::{RngExt, SeedableRng};

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

    /// `Candidates::only_listed` is the listing's only action where it has
    /// one, and `None` where it has more, at every meld-phase state of
    /// meld-biased hands under both rule versions: states with no listed
    /// discard (pickups, pending wilds, a last card that cannot go out)
    /// and with one come often, and the take-backs' pass is met.
    #[test]
    fn only_listed_is_the_single_listed_action() {
        let (mut legal, mut cand, mut found) = (Vec::new(), Vec::new(), Vec::new());
        let (mut single, mut no_discard, mut one_discard, mut take_backs) = (0, 0, 0, 0);
        crate::eval::play_meld_biased_hands(0..70, |_, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            g.legal_actions(&mut legal);
            g.candidate_actions(&mut cand);
            found.clear();
            let got = Candidates::new(g, &cand, &mut found).only_listed();
            let want = (legal.len() == 1).then(|| legal[0]);
            assert_eq!(got, want, "{legal:?}");
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
    /// `Candidates::steps` and `Candidates::ends` split them: at every
    /// meld-phase state of meld-biased hands under both rule versions.
    #[test]
    fn ends_follow_every_step() {
        let (mut cand, mut legal, mut found) = (Vec::new(), Vec::new(), Vec::new());
        let (mut states, mut resets) = (0, 0);
        let is_end = |a: &Action| matches!(a, Action::Discard(_) | Action::Reset);
        crate::eval::play_meld_biased_hands(0..30, |_, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            g.candidate_actions(&mut cand);
            g.legal_actions(&mut legal);
            for list in [&cand, &legal] {
                let first_end = list.iter().position(is_end).unwrap_or(list.len());
                assert!(list[first_end..].iter().all(is_end), "{list:?}");
                let c = Candidates::new(g, list, &mut found);
                assert_eq!(c.steps(), &list[..first_end]);
                assert_eq!(c.ends(), &list[first_end..]);
            }
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
}
