//! The draw of `rules` (D-6): the pile taken or not, by its size, its
//! black threes and a simulated turn after the pickup against one after
//! the draw (`pile`, `piles`, `through`, `weigh`, `deny`), and the free
//! pickup of a wanted card (D-6.1).

use super::discard::pile_worth_to;
use super::meld::Others;
use super::worth::{risk, Outlook};
use super::RulesAgent;
use crate::eval::{is_meld, pickup_opens};
use crate::expert::pile_black_threes;
use crate::{MoveBuf, WALK_STEPS};
use kanaszta_engine::{Action, Card, GameState, Phase, SeatView};
use rand_pcg::Pcg64Mcg;

impl RulesAgent {
    pub(super) fn draw(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let o = Outlook::with(
            view,
            self.params.movable_on(),
            self.params.reads_near(),
            self.params.lone_on(),
        );
        let opened = view.table(o.me).opened;
        // Not opened, the pickup must open from the hand and the top card
        // before the rest is taken (D-6.2.1); otherwise the turn would have
        // to go out (I-26), which a careful player does not count on.
        if legal.contains(&Action::TakePile) && (opened || pickup_opens(view)) {
            // A big pile is taken whatever it holds, unless it is weighed
            // by its contents (`piles`): one holding black threes, each 100
            // points against the hand until thrown, one a turn (D-6.3), is
            // weighed by simulation like a small one.
            // Nor, weighing the pickup through (`through`), one holding a
            // black three while an opponent is on two cards or fewer: the
            // three may never be thrown before he goes out.
            let close = self.params.through_on()
                && pile_black_threes(view) > 0
                && (0..view.players()).any(|p| p != o.me && view.hand_size(p) <= 2);
            if opened
                && view.pile().len() as u32 >= self.params.pile
                && (!self.params.piles_on() || pile_black_threes(view) <= 1)
                && !close
            {
                return Action::TakePile;
            }
            let base = view.determinize(rng);
            let mut take = self.simulate_turn(&base, Action::TakePile, &o);
            if close {
                // One black three a turn is thrown (D-6.3); the others
                // stay in hand, each 100 points against it when he goes
                // out, not the share of them the worth counts.
                let kept = pile_black_threes(view).saturating_sub(1) as f64;
                take = take.map(|t| t - kept * 100.0 * (1.0 - risk(&o)));
            }
            let other = view.determinize(rng);
            let draw = match (
                self.simulate_turn(&base, Action::Draw, &o),
                self.simulate_turn(&other, Action::Draw, &o),
            ) {
                (Some(a), Some(b)) => Some(0.5 * (a + b)),
                (a, b) => a.or(b),
            };
            if let (Some(t), Some(d)) = (take, draw) {
                // The pile left lying is the opponent's to take (D-6.2).
                let d = d - self.params.deny * pile_worth_to(view, o.opp);
                if t > d {
                    return Action::TakePile;
                }
            }
        }
        if legal.contains(&Action::FreePickup) && view.pile_top().is_some_and(|c| wanted(view, c)) {
            return Action::FreePickup;
        }
        if legal.contains(&Action::Draw) {
            Action::Draw
        } else {
            legal[0]
        }
    }

    /// Plays `first` and the rest of the turn on a copy of `base` with this
    /// agent's meld policy; the position's worth before the discard.
    fn simulate_turn(&mut self, base: &GameState, first: Action, o: &Outlook) -> Option<f64> {
        let mut s = base.clone();
        s.apply(first).ok()?;
        let mut result = None;
        let mut planned: Option<Option<f64>> = None;
        for _ in 0..40 {
            if s.phase() != Phase::Meld || s.current_player() != o.me {
                result = Some(self.worth(&s, o));
                break;
            }
            // The rest of the pile, once it may be taken, is the meld
            // policy's first answer: tried by itself (the very check the
            // listing makes of it), it spares the listing.
            if s.pickup().is_some_and(|p| !p.rest_taken) {
                let mut t = s.clone();
                if t.apply(Action::TakeRest).is_ok() {
                    s = t;
                    continue;
                }
            }
            if planned.is_none() && self.params.weigh_on() {
                // The turn planner's best plan from the first position the
                // hill climb starts from: the melds the draw or the pickup
                // make possible, some of which the hill climb misses.
                planned = Some(self.plan_weigh(&s, o));
            }
            let choice = self.meld_choice_unlisted(&s, o, Others::Here);
            // A pickup the meld policy cannot carry on is finished the
            // engine's way, as in play, until the rest is in hand
            // (`through`): its cards count, black threes and all.
            if self.params.through_on()
                && s.pickup().is_some_and(|p| !p.rest_taken)
                && !matches!(choice, Some(a) if is_meld(&a))
            {
                match s.completion(PICKUP_BUDGET) {
                    Some(path) => {
                        for a in path {
                            if s.apply(a).is_err() || s.pickup().is_none_or(|p| p.rest_taken) {
                                break;
                            }
                        }
                        if s.pickup().is_none_or(|p| p.rest_taken) {
                            continue;
                        }
                    }
                    None => return None,
                }
            }
            let a = match choice {
                Some(a) => a,
                None => {
                    result = Some(self.worth(&s, o));
                    break;
                }
            };
            if let Action::Discard(_) = a {
                result = Some(self.worth(&s, o));
                break;
            }
            // `a` is listed for `s` (the choice checked it).
            if s.apply_listed(a).is_err() {
                break;
            }
        }
        match (result, planned.flatten()) {
            (Some(r), Some(p)) => Some(r.max(p)),
            (r, _) => r,
        }
    }
}

/// States the engine's completion search may try in [`pickup_plannable`]
/// with `walk=off`. A "no" spends the whole budget twice (deepening, then
/// one deep search), and "no" is the common answer under a high opening
/// minimum (120, or the opening table in matches, I-11); a larger budget
/// finds few more ways through (results/perf-notes.md). The finisher's
/// second budget ([`crate::FINISHER_BUDGETS`]) is larger, so it finds a
/// way where this check found one.
const PICKUP_PLAN_BUDGET: u32 = 20_000;

impl RulesAgent {
    /// Whether a way through the penalized pickup (D-6.2) from its start
    /// is found: with `walk` by [`walk_through`], else by the engine's
    /// completion search within [`PICKUP_PLAN_BUDGET`] states. The pickup
    /// and both read only the mover's part and the pile, so the
    /// unshuffled world (the same number drawn) answers as a sampled one.
    pub(super) fn pickup_plannable(&mut self, view: &SeatView, rng: &mut Pcg64Mcg) -> bool {
        let mut s = view.own_world(rng);
        if s.apply(Action::TakePile).is_err() {
            return false;
        }
        if self.params.walk {
            walk_through(&mut s, &mut self.moves)
        } else {
            s.completion(PICKUP_PLAN_BUDGET).is_some()
        }
    }
}

/// Plays the turn in `s` forward to a discard by the first listed step
/// in the completion search's order (the rest of the pile, the top card
/// laid, extends, lays, swaps and conversions, the ♥A; never a take-back
/// or the reset), and says whether a discard is reached. Every listed
/// step leaves a turn that can still be completed without undoing
/// anything (I-9), and such steps cannot go on for ever (each lays a
/// card, places or moves a wild, or takes the rest), so the walk reaches
/// a discard where the search's budget may not: at a high opening
/// minimum the way through is five to seven steps long, which deepening
/// reaches only after tens of thousands of states. A step costs one
/// candidate check (I-9) per candidate tried before it.
pub(super) fn walk_through(s: &mut GameState, buf: &mut MoveBuf) -> bool {
    for _ in 0..WALK_STEPS {
        if s.phase() != Phase::Meld {
            return true;
        }
        let top = s.pickup().filter(|p| !p.rest_taken).map(|p| p.top);
        match crate::walk_step(&mut s.moves(buf), top) {
            Some(Action::Discard(_)) => return true,
            Some(a) => {
                if s.apply_listed(a).is_err() {
                    return false;
                }
            }
            None => return false,
        }
    }
    false
}

/// Whether a card is worth the free pickup (D-6.1).
fn wanted(view: &SeatView, card: Card) -> bool {
    if card.is_wild() || (card.is_heart_ace() && view.rules().heart_aces()) {
        return true;
    }
    let me = view.seat();
    card.rank().is_some_and(|r| {
        card.is_natural()
            && !card.is_black_three()
            && (view.hand().rank_count(r) >= 1 || view.table(me).group_of_rank(r).is_some())
    })
}

/// States the engine's search may try to finish a simulated pickup
/// (`through`).
const PICKUP_BUDGET: u32 = 20_000;
