//! What a position's missing fields default to: the loader fills them in,
//! and saving leaves out what equals them.

use crate::card::Card;
use crate::rules::{Permit, Rules};
use crate::state::{GameState, HandEnd, Phase, Turn};
use crate::table::Table;

/// Whether a loaded position takes player `p` as found dead-locked (I-32)
/// when it does not say: under `deadlock = end`, once the deal is done, if
/// he holds one card and is dead-locked; never the mover of a meld phase,
/// whose hand is that of his turn (he is tested again at his discard).
pub(super) fn default_dead_locked(g: &GameState, p: usize) -> bool {
    g.rules().deadlock == crate::rules::Deadlock::End
        && matches!(g.phase(), Phase::Draw | Phase::Meld | Phase::Over)
        && !(g.phase() == Phase::Meld && p == g.current_player())
        && g.dead_locked(p)
}

// ----- defaults the loader derives (the saver writes what differs) ---------

/// A table is opened by default if it holds a group or ♥A from an earlier turn.
pub(super) fn default_opened(t: &Table) -> bool {
    t.heart_aces > t.heart_aces_new || t.groups().iter().any(|g| !g.is_new())
}

/// Free-pickup chances are still to come before anybody's first draw turn.
pub(super) fn default_free_pending(phase: Phase) -> bool {
    matches!(phase, Phase::Cut | Phase::FirstDiscard)
}

/// The pile's top is the previous discard unless this turn took from the pile.
pub(super) fn default_pile_top_fresh(pile_len: usize, phase: Phase, turn: &Turn) -> bool {
    pile_len > 0 && (phase == Phase::Over || (turn.free_card.is_none() && turn.pickup.is_none()))
}

/// What the start of the turn decides about the free pickup (D-6.1, I-6).
pub(super) fn default_free_offer(
    rules: &Rules,
    phase: Phase,
    free_pending: bool,
    fresh: bool,
    top: Option<Card>,
) -> bool {
    phase == Phase::Draw
        && free_pending
        && fresh
        && top.is_some_and(|c| {
            !(c.is_black_three() || (c.is_wild() && rules.free_pickup_wild == Permit::Forbid))
        })
}

/// The player to move: in a hand over by a player going out, he (his
/// discard was the last move, and the turn record is his); else the
/// starter.
pub(super) fn default_current(phase: Phase, end: Option<HandEnd>, starter: u8) -> u8 {
    match (phase, end) {
        (Phase::Over, Some(HandEnd::WentOut { player, .. })) => player,
        _ => starter,
    }
}

/// Whether the mover had opened when his turn began: his table's `opened`,
/// except for a player who went out, for whom the end record says it
/// (D-14.1: from hand is in his opening turn).
pub(super) fn default_opened_at_start(phase: Phase, end: Option<HandEnd>, opened: bool) -> bool {
    match (phase, end) {
        (Phase::Over, Some(HandEnd::WentOut { from_hand, .. })) => !from_hand,
        _ => opened,
    }
}
