//! I-9 and I-26, the quick tests: can the mover still complete the turn
//! (discard, or go out) from here?

use super::steps::{legal_natural_counts_after_loss, take_back_in};
use super::*;
use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::group::{max_wilds, FLAG_RECEIVED};
use crate::rules::{BlackCanastaWilds, GroupsPerRank, Permit, WildCanasta};
use crate::solver;
use crate::table::Table;

/// Outcome of a quick completion test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// A way through is certain.
    Sure,
    /// Perhaps: an exact search decides.
    Maybe,
    /// No way through.
    No,
}

impl Verdict {
    pub(super) fn maybe(b: bool) -> Verdict {
        if b {
            Verdict::Maybe
        } else {
            Verdict::No
        }
    }
}

impl GameState {
    // ----- I-9: can the turn be completed? ---------------------------------

    /// Whether the mover can still complete the turn from here (I-9).
    pub(crate) fn can_finish(&self) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        let p = self.current as usize;
        if !self.turn.pending.is_empty() {
            return self.pending_placeable(p)
                && (!self.before_rest() || self.pickup_completable(p));
        }
        if self.before_rest() {
            return self.pickup_completable(p);
        }
        self.meld_completable(p)
    }

    /// A discard now, or after taking back what was laid this turn, or a way out.
    pub(super) fn meld_completable(&self, p: usize) -> bool {
        let hand = self.hands[p];
        let table = &self.tables[p];
        if !self.turn.must_go_out {
            let opening_ok = table.opened
                || !table.has_new()
                || table.opening_value() >= self.opening_minimum(p);
            let free_ok = |h: CardSet| {
                h.kinds().any(|c| {
                    !(self.turn.free_card == Some(c)
                        && self.rules.free_pickup_return == Permit::Forbid
                        && h.count(c) < 2)
                })
            };
            if hand.len() >= 2 && opening_ok && free_ok(hand) {
                return true;
            }
            // Take back what was laid this turn and can be taken back (D-11.5):
            // what the reset reaches too, so while an undo is left (the
            // last one is a reset, I-25). On copies of the mover's table,
            // hand and turn only, made when something was laid this turn.
            if !table.has_new() || self.turn.undos >= MAX_UNDOS {
                return self.meld_out(p, hand, table);
            }
            let mut bt = *table;
            let mut bh = hand;
            let mut bturn = self.turn;
            let mut any = false;
            for gi in (0..table.len()).rev() {
                if table.groups()[gi].is_new()
                    && take_back_in(&mut bt, &mut bh, &mut bturn, p, gi, true).is_ok()
                {
                    any = true;
                }
            }
            while bt.heart_aces_new > 0 {
                any = true;
                bt.heart_aces_new -= 1;
                bt.heart_aces -= 1;
                bh.insert(Card::HEART_ACE);
            }
            let bt = &bt;
            let b_open_ok =
                bt.opened || !bt.has_new() || bt.opening_value() >= self.opening_minimum(p);
            if any && bh.len() >= 2 && b_open_ok && free_ok(bh) {
                return true;
            }
        }
        self.meld_out(p, hand, table)
    }

    /// The last resort of [`GameState::meld_completable`]: going out with
    /// `hand` onto `table`, the mover's.
    pub(super) fn meld_out(&self, p: usize, hand: CardSet, table: &Table) -> bool {
        if hand.len() == 1 && table.has_canasta() {
            let c = hand.iter().next();
            if c.is_some_and(|c| {
                !(self.turn.free_card == Some(c) && self.rules.free_pickup_return == Permit::Forbid)
            }) {
                return true;
            }
        }
        self.can_go_out(p, hand, false, None, CardSet::EMPTY)
    }

    /// During a penalized pickup before the rest is taken: can the top card be
    /// laid, the rest taken and the turn completed?
    pub(super) fn pickup_completable(&self, p: usize) -> bool {
        self.pickup_verdict(p) != Verdict::No
    }

    /// [`Verdict::Sure`] only where a plain way through is certain: the top
    /// card laid with cards of the hand (or into its group), the rest taken,
    /// two cards kept to discard from; for an unopened player, an opening of
    /// the minimum that the solver can lay from the hand.
    pub(super) fn pickup_verdict(&self, p: usize) -> Verdict {
        let Some(pk) = self.turn.pickup else {
            return Verdict::Sure;
        };
        let rest = self.pile_len as u32;
        let hand = self.hands[p];
        let table = &self.tables[p];
        // Built only where a verdict needs it.
        let rest_set =
            || CardSet::try_from_cards(self.pile().iter().copied()).unwrap_or(CardSet::EMPTY);
        let Some(r) = pk.top.rank() else {
            return Verdict::No;
        };
        let laid = self.top_laid();
        if table.opened {
            // The top card goes into its group or a new one, before the rest
            // is taken, with cards of the hand (or a wild moved from a group).
            let nat = hand.rank_count(r).saturating_sub(1);
            let pend = self.turn.pending.len();
            let wild = hand.wild_count();
            let existing = table.groups().iter().any(|g| {
                g.rank() == Some(r) && {
                    let mut t = *g;
                    t.add(pk.top);
                    t.is_legal() && !g.is_black_canasta()
                }
            });
            let swap_ok = self.rules.black_canasta_wilds == BlackCanastaWilds::Swap
                && table.groups().iter().any(|g| {
                    g.rank() == Some(r) && g.is_black_canasta() && g.flags() & FLAG_RECEIVED == 0
                });
            let new_ok = self.rules.groups_per_rank == GroupsPerRank::Many
                || table.group_of_rank(r).is_none();
            let borrow = table.groups().iter().any(|g| {
                g.flags() & FLAG_RECEIVED == 0
                    && !g.is_black_canasta()
                    && !(g.is_wild_canasta() && self.rules.wild_canasta == WildCanasta::Locked)
                    && g.wilds() > 0
                    && (g.is_wild_only() || legal_natural_counts_after_loss(g))
            });
            let after = |used: u32| (hand.len() + rest).saturating_sub(used);
            let sure = if pend > 0 {
                Verdict::Maybe
            } else {
                Verdict::Sure
            };
            if laid {
                if after(0) >= 2 {
                    return sure;
                }
            } else {
                if existing && after(1) >= 2 {
                    return sure;
                }
                if new_ok && (nat >= 2 || (nat >= 1 && wild >= 1)) && after(3) >= 2 {
                    return sure;
                }
                if new_ok && nat >= 1 && (borrow || pend > 0) && after(2) >= 2 {
                    return Verdict::Maybe;
                }
                if !(existing
                    || swap_ok
                    || (new_ok && (nat >= 2 || (nat >= 1 && (wild + pend >= 1 || borrow)))))
                {
                    return Verdict::No;
                }
            }
            let all = hand.checked_add(rest_set()).unwrap_or(hand);
            let all = all.checked_add(self.turn.pending).unwrap_or(all);
            let must = if laid { None } else { Some(pk.top) };
            return Verdict::maybe(self.can_go_out(p, all, false, must, self.turn.pending));
        }
        let pend = self.turn.pending.len();
        // Not opened: everything on the table was laid this turn (not yet
        // committed). Can an opening of the minimum be laid before the rest,
        // with the top card in it, keeping two cards after the rest?
        let mut pool = hand;
        for g in table.groups() {
            pool = pool.checked_add(g.cards()).unwrap_or(pool);
        }
        let nat = pool.rank_count(r);
        if !(nat >= 3 || (nat >= 2 && pool.wild_count() >= 1)) {
            return Verdict::No;
        }
        let max_used = (pool.len() + rest).saturating_sub(2);
        if solver::max_opening(pool, r, max_used) >= self.opening_minimum(p) {
            // Sure when nothing is laid yet (at the pickup itself); with
            // groups already laid, they may have to be taken back first.
            return if table.is_empty() && pend == 0 {
                Verdict::Sure
            } else {
                Verdict::Maybe
            };
        }
        // I-26: short of the minimum, the turn must go out.
        let all_pool = pool.checked_add(rest_set()).unwrap_or(pool);
        Verdict::maybe(self.can_go_out(p, all_pool, true, Some(pk.top), CardSet::EMPTY))
    }

    /// The pending wilds can go somewhere now (an existing group or a new one).
    pub(super) fn pending_placeable(&self, p: usize) -> bool {
        let hand = self.hands[p];
        let table = &self.tables[p];
        let k = self.turn.pending.len();
        // Homes among the groups (not the one a wild left), new groups of
        // hand naturals, or a new group of wilds gathered from elsewhere.
        let mut capacity = 0;
        let mut capacity_ext = 0;
        let mut used_ext = 0;
        for g in table.groups() {
            let (c0, c1, h) = if g.is_wild_only() {
                let c = 7u32.saturating_sub(g.wilds());
                (c, c, 0)
            } else if g.is_black_canasta() || g.len() >= 7 {
                (0, 0, 0)
            } else {
                let h = g
                    .rank()
                    .map_or(0, |r| hand.rank_count(r))
                    .min(8 - g.naturals());
                (
                    max_wilds(g.naturals()).saturating_sub(g.wilds()),
                    max_wilds(g.naturals() + h).saturating_sub(g.wilds()),
                    h,
                )
            };
            capacity += c0;
            capacity_ext += c1;
            if c1 > c0 {
                used_ext += h;
            }
        }
        let mut new_cap = 0;
        let mut new_cards = 0;
        for r in Rank::NATURALS {
            let n = hand.rank_count(r);
            let free = self.rules.groups_per_rank == GroupsPerRank::Many
                || table.group_of_rank(r).is_none();
            if n >= 2 && free {
                new_cap += max_wilds(n);
                new_cards = new_cards.max(2);
            }
        }
        let mut donatable = 0;
        for g in table.groups() {
            if g.flags() & FLAG_RECEIVED != 0 {
                continue;
            }
            donatable += if g.is_wild_only() {
                if g.is_canasta() {
                    if self.rules.wild_canasta == WildCanasta::Open {
                        g.wilds() - 3
                    } else {
                        0
                    }
                } else {
                    g.wilds()
                }
            } else if g.is_black_canasta() {
                g.rank().map_or(0, |r| hand.rank_count(r).min(g.wilds()))
            } else if g.is_canasta() {
                0
            } else {
                g.wilds().saturating_sub(
                    3u32.saturating_sub(g.naturals())
                        .max(if g.naturals() <= 2 { 1 } else { 0 }),
                )
            };
        }
        let hand_after_ok = |used: u32| {
            let h = hand.len().saturating_sub(used);
            h >= 2
                && !self.turn.must_go_out
                && (table.opened
                    || table.opening_value() + 20 * k as i32 >= self.opening_minimum(p)
                    || !table.has_new())
        };
        if capacity >= k && hand_after_ok(0) {
            return true;
        }
        if capacity + new_cap >= k && hand_after_ok(new_cards) {
            return true;
        }
        if capacity_ext + new_cap >= k && hand_after_ok(new_cards + used_ext) {
            return true;
        }
        if k + hand.wild_count() + donatable >= 3 && hand_after_ok(hand.wild_count().min(3)) {
            return true;
        }
        // Otherwise the pending wilds are part of a way out.
        let all = hand.checked_add(self.turn.pending).unwrap_or(hand);
        self.can_go_out(p, all, false, None, self.turn.pending)
    }
}

impl GameState {
    /// Whether player `p` can go out with `cards` as his hand (I-26, I-9):
    /// onto his table as it is, or onto nothing when `fresh` (an unopened
    /// player's groups of this turn dissolved into `cards`). `must`: a card
    /// that has to end in a group (the pile's top card during a penalized
    /// pickup); `keep`: cards that must be melded, never discarded (pending
    /// wilds). The going-out solver's question about this state.
    pub(crate) fn can_go_out(
        &self,
        p: usize,
        cards: CardSet,
        fresh: bool,
        must: Option<Card>,
        keep: CardSet,
    ) -> bool {
        let groups = if fresh {
            &[][..]
        } else {
            self.tables[p].groups()
        };
        solver::can_meld_all_but_one(cards, groups, &self.rules, must, self.turn.free_card, keep)
    }
}
