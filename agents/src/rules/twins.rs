//! The twin play of `rules` (D-7, `twins`, `plan_keep`, `plan_twin`,
//! `plan_guard`): when it is in force (`twins`, [`Twins`]), the card whose discard
//! would be a twin and what keeping it is worth while melding, and the
//! chance that a discard hands the opponent a twin.

use super::{RulesAgent, RulesParams, Twins};
use kanaszta_engine::{Card, CardSet, GameState, Phase, SeatView};

impl RulesParams {
    /// Whether the twin play is in force (`twins`): by default with the
    /// planner.
    fn twins_on(&self) -> bool {
        match self.twins {
            Twins::Plan => self.plan_on(),
            Twins::On => self.expert_on(),
            Twins::Off => false,
        }
    }

    /// `on` with the twin play in force (`twins`), `off` without.
    fn with_twins<T>(&self, on: T, off: T) -> T {
        if self.twins_on() {
            on
        } else {
            off
        }
    }

    /// The worth of keeping the twin card while melding: 0 without the
    /// twin play.
    pub(super) fn keep_in_force(&self) -> f64 {
        self.with_twins(self.plan_keep, 0.0)
    }

    /// A twin's worth in the discard: with the twin play, `plan_twin` more.
    pub(super) fn twin_in_force(&self) -> f64 {
        self.with_twins(100.0 + self.plan_twin, 100.0)
    }

    /// The weight of the twin handed over: 0 without the twin play.
    pub(super) fn guard_in_force(&self) -> f64 {
        self.with_twins(self.plan_guard, 0.0)
    }
}

impl RulesAgent {
    /// The card whose discard would be a twin for `me`, melding in `s`
    /// ([`GameState::twin_card`]), when keeping it is worth something
    /// (`plan_keep`).
    pub(super) fn twin_card(&self, s: &GameState, me: usize) -> Option<Card> {
        if self.params.keep_in_force() == 0.0
            || s.phase() != Phase::Meld
            || s.current_player() != me
        {
            return None;
        }
        s.twin_card()
    }
}

/// The chance that `opp` holds a card identical to `c`, which he would
/// throw onto it for a twin (D-7; never on a joker, D-7.2): sure if he
/// picked one up and holds it still ([`SeatView::known`]), else each
/// unseen copy is in his hand as often as his unknown cards are among the
/// unseen.
pub(super) fn twin_chance(view: &SeatView, opp: usize, unseen: CardSet, c: Card) -> f64 {
    if c.is_joker() {
        return 0.0;
    }
    if view.known(opp).contains(c) {
        return 1.0;
    }
    let copies = unseen.count(c);
    if copies == 0 {
        return 0.0;
    }
    let unknown = view
        .hand_size(opp)
        .saturating_sub(view.known(opp).len() as usize) as f64;
    let share = (unknown / unseen.len().max(1) as f64).min(1.0);
    1.0 - (1.0 - share).powi(copies as i32)
}
