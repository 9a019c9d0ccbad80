//! One meld step (D-9 … D-12, I-13, I-22, I-25): lay, extend, move a wild,
//! swap, convert, take back, lay a ♥A apart, take the rest of the pile. Each
//! checks its own rules only; whether the turn can then be completed is
//! the completion layer's question.

use super::*;
use crate::action::Action;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::error::{refuse, refuse_args, RuleError};
use crate::group::{Group, FLAG_NEW, FLAG_RECEIVED};
use crate::refuse_fmt;
use crate::rules::{BlackCanastaWilds, GroupsPerRank, WildCanasta};
use crate::table::Table;

/// D-11.5, I-25: takes group `gi` of a table laid this turn back into the
/// hand, wilds moved in returning where they came from. On a refusal
/// nothing changes. Works on the mover's parts, so that the completion test
/// can try take-backs on copies of them alone.
pub(super) fn take_back_in(
    table_now: &mut Table,
    hand: &mut CardSet,
    turn: &mut Turn,
    p: usize,
    gi: usize,
    quiet: bool,
) -> Result<(), RuleError> {
    let Some(&g) = table_now.group(gi) else {
        return refuse_args(
            "D-2.2",
            format_args!(
                "player {p} has no group {gi} (groups 0..{})",
                table_now.len()
            ),
        );
    };
    if !g.is_new() {
        return refuse(
            "D-12.2",
            "only a group laid this turn may be taken back (D-11.5); melded cards never return to the hand",
        );
    }
    let mut cards = g.cards();
    let n = turn.moves_len as usize;
    if turn.moves[..n].iter().all(|&(to, _, _)| to as usize != gi) {
        // No wild was moved into the group: every card goes to the hand,
        // and the moves stay as they are.
        hand_add(hand, cards);
        table_now.remove(gi);
        turn.reindex(gi, FROM_HAND);
        return Ok(());
    }
    // I-25: wilds moved in from other groups return where they came from.
    let moves = turn.moves;
    let mut keep = [(0u8, 0u8, Card::JOKER); MAX_WILD_MOVES];
    let mut nk = 0;
    let mut returns = [(0u8, Card::JOKER); MAX_WILD_MOVES];
    let mut nr = 0;
    for &(to, from, w) in &moves[..n] {
        if to as usize == gi && cards.contains(w) {
            cards.remove(w);
            returns[nr] = (from, w);
            nr += 1;
        } else {
            keep[nk] = (to, from, w);
            nk += 1;
        }
    }
    if nr > 0 {
        returns_in(table_now, &mut cards, &returns[..nr], quiet)?;
    }
    hand_add(hand, cards);
    table_now.remove(gi);
    turn.moves[..nk].copy_from_slice(&keep[..nk]);
    turn.moves_len = nk as u8;
    turn.reindex(gi, FROM_HAND);
    Ok(())
}

/// `cards` into `hand`, as [`CardSet::insert`] card by card: by the
/// sets' words where no card would exceed its copies (always, the cards
/// of a pack being in one place at a time), else card by card.
#[inline]
fn hand_add(hand: &mut CardSet, cards: CardSet) {
    match hand.checked_add(cards) {
        Some(h) => *hand = h,
        None => {
            for c in cards.iter() {
                hand.insert(c);
            }
        }
    }
}

/// The wilds of a group taken back that return where they came from
/// (I-25): into their groups of `table_now`, or into `cards` for the hand.
/// Worked on a copy of the table: nothing changes unless every wild can
/// return.
fn returns_in(
    table_now: &mut Table,
    cards: &mut CardSet,
    returns: &[(u8, Card)],
    quiet: bool,
) -> Result<(), RuleError> {
    let mut table = *table_now;
    for &(from, w) in returns {
        if from == FROM_HAND {
            cards.insert(w);
            continue;
        }
        let Some(og) = table.groups_mut().get_mut(from as usize) else {
            return refuse_fmt!(
                quiet,
                "I-25",
                "the wild {w} came from a group of wilds that was broken up; it cannot return"
            );
        };
        let mut t = *og;
        t.add(w);
        if !t.is_legal() {
            return refuse_fmt!(
                quiet,
                "I-25",
                "the wild {w} cannot return to group {from}, where it came from"
            );
        }
        *og = t;
    }
    *table_now = table;
    Ok(())
}

/// Whether `g` stays within the group limits with `card` added (D-9.1,
/// D-9.2): the last check of [`GameState::extend`] for a card it accepts.
pub(super) fn extend_fits(g: &Group, card: Card) -> bool {
    let mut t = *g;
    t.add(card);
    t.is_legal()
}

/// Whether taking a wild out of `g` breaks it up (D-11.3): three wilds
/// only, no canasta.
fn breaks_up(g: &Group) -> bool {
    g.is_wild_only() && !g.is_canasta() && g.wilds() == 3
}

/// Whether `wild` may leave `g` as far as the group itself goes (not a
/// black canasta, and free to give): broken up if three wilds only
/// (D-11.3), else a canasta stays one (I-13) and the group legal (D-11.2);
/// the last checks of [`GameState::take_wild`].
pub(super) fn wild_may_leave(g: &Group, wild: Card) -> bool {
    if breaks_up(g) {
        return true;
    }
    let mut t = *g;
    t.remove(wild);
    !(g.is_canasta() && !t.is_canasta() && !t.is_wild_only()) && t.is_legal()
}

impl GameState {
    /// One meld-phase step, without the I-9 completion check.
    pub(super) fn meld_step(&mut self, action: Action) -> Result<(), RuleError> {
        let made = self.make_step(action);
        if made.is_ok() {
            // Whether the step leads back to the anchor is not known.
            self.turn.at_anchor = false;
        }
        made
    }

    /// [`GameState::meld_step`] but for the anchor's flag.
    pub(super) fn make_step(&mut self, action: Action) -> Result<(), RuleError> {
        let p = self.current as usize;
        // The action's kind first: most steps are of the kinds that may
        // place a pending wild, and then the pending set is not read.
        if !matches!(
            action,
            Action::Extend { .. }
                | Action::Lay { .. }
                | Action::TakeWild { .. }
                | Action::Swap { .. }
                | Action::Convert { .. }
        ) && !self.turn.pending.is_empty()
        {
            return refuse_fmt!(self.quiet, "D-11.2", "the wild taken out ({}) must go at once into another group: extend a group or lay a new one with it",
                    self.turn.pending);
        }
        match action {
            Action::Lay { cards } => self.lay(p, cards),
            Action::Extend { group, card } => self.extend(p, group as usize, card),
            Action::TakeWild { group, wild } => self.take_wild(p, group as usize, wild),
            Action::Swap {
                group,
                natural,
                wild,
            } => self.swap(p, group as usize, natural, wild),
            Action::Convert { group, naturals } => self.convert(p, group as usize, naturals),
            Action::TakeBack { .. } | Action::TakeBackHeartAce if !self.may_take_back() => refuse(
                "I-25",
                "the take-backs of this meld phase are spent: its last undo is the reset (at most 8 undos a meld phase)",
            ),
            Action::TakeBack { group } => {
                self.take_back(p, group as usize)?;
                self.turn.undos += 1;
                Ok(())
            }
            Action::LayHeartAce => self.lay_heart_ace(p),
            Action::TakeBackHeartAce => {
                if self.tables[p].heart_aces_new == 0 {
                    return refuse("D-11.5", "no ♥A was laid separately this turn");
                }
                self.tables[p].heart_aces_new -= 1;
                self.tables[p].heart_aces -= 1;
                self.hands[p].insert(Card::HEART_ACE);
                self.turn.undos += 1;
                Ok(())
            }
            Action::TakeRest => self.take_rest(p),
            Action::Reset => refuse("I-25", "reset is handled by apply"),
            Action::Draw | Action::FreePickup | Action::TakePile => {
                refuse("D-5.1", "this turn's card has already been drawn or taken")
            }
            Action::KeepCut { .. } => refuse("D-3.1", "the cut is over"),
            Action::Discard(_) => unreachable!("discard is handled by apply"),
        }
    }

    pub(super) fn lay(&mut self, p: usize, cards: CardSet) -> Result<(), RuleError> {
        if cards.len() < 3 {
            return refuse_fmt!(
                self.quiet,
                "D-9.1",
                "a group needs at least 3 cards, got [{cards}]"
            );
        }
        let Some(mut g) = Group::from_cards(cards) else {
            if cards.black_three_count() + cards.red_three_count() > 0 {
                return refuse("D-9.3", "threes are never melded");
            }
            return refuse_fmt!(
                self.quiet,
                "D-9.1",
                "a group holds cards of one natural rank plus wilds, not [{cards}]"
            );
        };
        if !g.is_legal() {
            let rule = if g.is_wild_only() { "D-9.2" } else { "D-9.1" };
            return refuse_fmt!(
                self.quiet,
                rule,
                "[{cards}] is not a legal group: 3–8 cards, wilds fewer than naturals, none in 8; or 3–7 wilds"
            );
        }
        if let Some(r) = g.rank() {
            if self.rules.groups_per_rank == GroupsPerRank::One
                && self.tables[p].group_of_rank(r).is_some()
            {
                return refuse_fmt!(
                    self.quiet,
                    "I-12",
                    "there is already a group of {}s: extend it (groups_per_rank = one)",
                    rank_name(r)
                );
            }
        }
        // Pending wilds are used first, the rest comes from the hand.
        let from_pending = pending_part(self.turn.pending, cards);
        if !self.turn.pending.is_empty() && from_pending.is_empty() {
            return refuse(
                "D-11.2",
                "place the wild taken out first: the new group must hold it",
            );
        }
        let from_hand = cards.checked_sub(from_pending).unwrap_or(cards);
        if !self.hands[p].contains_all(from_hand) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold [{from_hand}]");
        }
        // Checked before anything changes: a refused step changes nothing.
        if self.tables[p].len() >= crate::table::MAX_GROUPS {
            return refuse("D-9", "the table cannot hold more groups");
        }
        // As `hand_remove` card by card: the hand loses them, and the
        // cards known to be in it stay as far as it still holds them.
        let hand = self.hands[p]
            .checked_sub(from_hand)
            .unwrap_or(self.hands[p]);
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        let mut flags = FLAG_NEW;
        let idx = self.tables[p].len() as u8;
        if !from_pending.is_empty() {
            flags |= FLAG_RECEIVED;
            for w in from_pending.iter() {
                let origin = self.take_pending(w).unwrap_or(FROM_HAND);
                self.log_move(idx, origin, w);
            }
        }
        g.set_flags(flags);
        if self.tables[p].push(g).is_none() {
            return refuse("D-9", "the table cannot hold more groups");
        }
        Ok(())
    }

    /// The meld step of a lay that [`GameState::raw_meld_candidates`]
    /// lists while no wild is pending, made without the checks it passes
    /// already: three cards the hand holds, three naturals of one rank,
    /// two and a wild, or three wilds, a legal group (D-9.1, D-9.2), of
    /// no rank the table holds under one group a rank (I-12). Only the
    /// table's room is checked (D-9); returns whether the step is made,
    /// and a refused step changes nothing. As [`GameState::meld_step`].
    pub(super) fn lay_checked(&mut self, p: usize, cards: CardSet) -> bool {
        debug_assert!(
            self.turn.pending.is_empty(),
            "lay [{cards}] with no wild pending"
        );
        #[cfg(debug_assertions)]
        let full = {
            let mut t = *self;
            t.meld_step(Action::Lay { cards }).ok().map(|()| t)
        };
        let made = self.put_laid(p, cards);
        #[cfg(debug_assertions)]
        match full {
            Some(t) => assert!(made && t == *self, "lay [{cards}] checked already"),
            None => assert!(!made, "lay [{cards}] refused by the step"),
        }
        made
    }

    /// Whether [`GameState::lay_checked`] makes the lay of `cards`, a lay
    /// candidate of [`GameState::raw_meld_candidates`] with no wild
    /// pending, changing nothing.
    /// Read from the set's words: the naturals of one natural rank (or
    /// none, a group of wilds only), as [`Group::from_cards`] takes them,
    /// room on the table, and under one group a rank none of that rank's
    /// index on it.
    pub(super) fn lay_fits(&self, p: usize, cards: CardSet) -> bool {
        let table = &self.tables[p];
        let nat = cards.raw().0 & !crate::card_set::rank_mask(crate::card::Rank::Two);
        let r = nat.trailing_zeros() / 4;
        let fits = table.len() < crate::table::MAX_GROUPS
            && (nat == 0
                || r >= crate::card::Rank::Four as u32
                    && nat & !(0xF << (r * 4)) == 0
                    && !(self.rules.groups_per_rank == GroupsPerRank::One
                        && table.groups().iter().any(|g| g.rank_index() as u32 == r)));
        debug_assert_eq!(
            fits,
            Group::from_cards(cards).is_some_and(|g| self.table_takes(p, &g)),
            "lay [{cards}] fits"
        );
        fits
    }

    /// The table's limits on a new group `g` of `p` (I-12, D-9): one
    /// group a rank where the rules say so, and room on the table.
    fn table_takes(&self, p: usize, g: &Group) -> bool {
        let table = &self.tables[p];
        if let Some(r) = g.rank() {
            if self.rules.groups_per_rank == GroupsPerRank::One && table.group_of_rank(r).is_some()
            {
                return false;
            }
        }
        table.len() < crate::table::MAX_GROUPS
    }

    /// The change of [`GameState::lay_checked`], after the table's room
    /// (the one group a rank of I-12 the candidate keeps already).
    fn put_laid(&mut self, p: usize, cards: CardSet) -> bool {
        let Some(mut g) = Group::from_cards(cards) else {
            return false;
        };
        debug_assert!(cards.len() == 3 && g.is_legal() && self.hands[p].contains_all(cards));
        let room = self.tables[p].len() < crate::table::MAX_GROUPS;
        debug_assert_eq!(room, self.table_takes(p, &g), "lay [{cards}]");
        if !room {
            return false;
        }
        let hand = self.hands[p].checked_sub(cards).unwrap_or(self.hands[p]);
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        g.set_flags(FLAG_NEW);
        let pushed = self.tables[p].push(g);
        debug_assert!(pushed.is_some());
        self.turn.at_anchor = false;
        true
    }

    /// Logs a wild moved from group `from` into group `to`, for a
    /// take-back of `to` (I-25). The log never overflows: a group that
    /// received a wild gives none away in the same turn (D-11.2), so each
    /// of the 16 wilds of the pack (D-1.1) stands in it at most once (a
    /// take-back drops the entries of its group, a reset puts back the
    /// anchor's log, taking the rest of the pile empties it).
    pub(super) fn log_move(&mut self, to: u8, from: u8, wild: Card) {
        let i = self.turn.moves_len as usize;
        debug_assert!(
            i < MAX_WILD_MOVES,
            "wild move log full: {:?}",
            self.turn.live_moves()
        );
        if i < MAX_WILD_MOVES {
            self.turn.moves[i] = (to, from, wild);
            self.turn.moves_len += 1;
        }
    }

    pub(super) fn group_ref(&self, p: usize, i: usize) -> Result<Group, RuleError> {
        match self.tables[p].group(i) {
            Some(&g) => Ok(g),
            None => refuse_args(
                "D-2.2",
                format_args!(
                    "player {p} has no group {i} (groups 0..{})",
                    self.tables[p].len()
                ),
            ),
        }
    }

    pub(super) fn extend(&mut self, p: usize, gi: usize, card: Card) -> Result<(), RuleError> {
        let (g, pending) = self.extended_group(p, gi, card, self.quiet)?;
        self.put_extended(p, gi, card, g, pending);
        Ok(())
    }

    /// The meld step of an extend known to pass the checks of
    /// [`GameState::extended_group`], made without them: an extend that
    /// [`GameState::raw_meld_candidates`] lists (it lists only those the
    /// group's limits take, of a card held or pending), or a pending wild
    /// placed into a group that takes it. As [`GameState::meld_step`].
    /// Inlined into the listing's probe and the completion check's
    /// placements, which make it for most extends they try.
    #[inline(always)]
    pub(super) fn extend_checked(&mut self, p: usize, gi: usize, card: Card) {
        let pending = self.turn.pending.contains(card);
        #[cfg(debug_assertions)]
        let checked = self.extended_group(p, gi, card, true).ok();
        // The group read and written in place: one index, checked once.
        let slot = &mut self.tables[p].groups_mut()[gi];
        let mut g = *slot;
        g.add(card);
        #[cfg(debug_assertions)]
        assert_eq!(
            checked,
            Some((g, pending)),
            "extend of {card} onto group {gi} checked already"
        );
        if pending {
            g.set_flags(g.flags() | FLAG_RECEIVED);
        }
        *slot = g;
        self.extended_from(p, gi, card, pending);
        self.turn.at_anchor = false;
    }

    /// The change of [`GameState::extend`]: group `gi` becomes `g`, which
    /// is it with `card` added, the card from the pending wilds if
    /// `pending`, else from the hand. Inlined: the listing makes it for
    /// most candidates it checks on its probe, through
    /// [`GameState::extend_checked`], and the call's frame cost more than
    /// the change.
    #[inline(always)]
    fn put_extended(&mut self, p: usize, gi: usize, card: Card, mut g: Group, pending: bool) {
        if pending {
            g.set_flags(g.flags() | FLAG_RECEIVED);
        }
        self.tables[p].groups_mut()[gi] = g;
        self.extended_from(p, gi, card, pending);
    }

    /// The card of an extend of group `gi` leaves the pending wilds if
    /// `pending` (the move logged), else the hand.
    #[inline(always)]
    fn extended_from(&mut self, p: usize, gi: usize, card: Card, pending: bool) {
        if pending {
            // Putting a wild back where it came from undoes the move; the
            // group is then marked as having received it, so it ends.
            let origin = self.take_pending(card).unwrap_or(FROM_HAND);
            self.log_move(gi as u8, origin, card);
        } else {
            self.hand_remove(p, card);
        }
    }

    /// The checks of [`GameState::extend`], changing nothing: group `gi`
    /// with `card` added, and whether the card is a pending wild (placed
    /// from there, not from the hand); refusals' messages formatted
    /// unless `quiet`. Inlined into the step, which makes it for every
    /// extend applied.
    #[inline(always)]
    pub(super) fn extended_group(
        &self,
        p: usize,
        gi: usize,
        card: Card,
        quiet: bool,
    ) -> Result<(Group, bool), RuleError> {
        let Some(&(mut g)) = self.tables[p].group(gi) else {
            return refuse_fmt!(
                quiet,
                "D-2.2",
                "player {p} has no group {gi} (groups 0..{})",
                self.tables[p].len()
            );
        };
        let pending = self.turn.pending.contains(card);
        if !pending && !self.hands[p].contains(card) {
            if card == Card::HEART_ACE && self.tables[p].heart_aces > 0 {
                return refuse("D-12.3", "a ♥A laid separately never joins a group of aces");
            }
            return refuse_fmt!(quiet, "D-11.1", "the hand does not hold {card}");
        }
        if card.is_black_three() || card.is_red_three() {
            return refuse("D-9.3", "threes are never melded");
        }
        if !g.accepts_kind(card) {
            let rule = if g.is_wild_only() { "I-28" } else { "D-9.1" };
            return refuse_fmt!(quiet, rule, "{card} does not belong in group {gi} [{g}]");
        }
        let was_black = g.is_black_canasta();
        g.add(card);
        if was_black {
            return refuse(
                "D-11.4",
                "a black canasta never exceeds 7 cards: add a natural only while taking a wild out (swap)",
            );
        }
        if !g.is_legal() {
            let rule = if g.is_wild_only() { "D-9.2" } else { "D-9.1" };
            return refuse_fmt!(
                quiet,
                rule,
                "adding {card} to [{}] breaks the group limits (3–8 cards, wilds fewer than naturals, none in 8, wild groups 3–7)",
                self.tables[p].groups()[gi]
            );
        }
        Ok((g, pending))
    }

    pub(super) fn check_wild_may_leave(&self, g: &Group, gi: usize) -> Result<(), RuleError> {
        if g.flags() & FLAG_RECEIVED != 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} received a wild this turn; it gives none away in the same turn (each wild moves once a turn)");
        }
        if g.is_wild_canasta() && self.rules.wild_canasta == WildCanasta::Locked {
            return refuse(
                "I-22",
                "no wild leaves a wild canasta (wild_canasta = locked)",
            );
        }
        Ok(())
    }

    pub(super) fn take_wild(&mut self, p: usize, gi: usize, wild: Card) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !wild.is_wild() || g.count(wild) == 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} [{g}] holds no {wild}");
        }
        self.check_wild_may_leave(&g, gi)?;
        if g.is_black_canasta() {
            return refuse(
                "I-13",
                "a wild leaves a black canasta only against a natural that keeps it a canasta (swap)",
            );
        }
        if breaks_up(&g) {
            self.break_up(p, gi, g);
            return Ok(());
        }
        let was_canasta = g.is_canasta();
        g.remove(wild);
        if was_canasta && !g.is_canasta() && !g.is_wild_only() {
            return refuse("I-13", "a canasta never drops below 7 cards");
        }
        if !g.is_legal() {
            return refuse_fmt!(
                self.quiet,
                "D-11.2",
                "taking {wild} out would leave group {gi} illegal"
            );
        }
        self.put_taken_wild(p, gi, g, wild);
        Ok(())
    }

    /// The meld step of a take-wild that
    /// [`GameState::raw_meld_candidates`] lists, made without the checks it
    /// passes already: group `gi` holds `wild`, received no wild this turn,
    /// is neither a locked wild canasta nor a black canasta, and the wild
    /// may leave it ([`wild_may_leave`]: D-11.2, D-11.3, I-13, I-22). As
    /// [`GameState::meld_step`].
    pub(super) fn take_wild_checked(&mut self, p: usize, gi: usize, wild: Card) {
        #[cfg(debug_assertions)]
        let full = {
            let mut t = *self;
            t.quiet = true;
            t.meld_step(Action::TakeWild {
                group: gi as u8,
                wild,
            })
            .map(|()| t)
        };
        let mut g = self.tables[p].groups()[gi];
        if breaks_up(&g) {
            self.break_up(p, gi, g);
        } else {
            g.remove(wild);
            self.put_taken_wild(p, gi, g, wild);
        }
        self.turn.at_anchor = false;
        #[cfg(debug_assertions)]
        match full {
            Ok(t) => assert!(t == *self, "take {wild} out of group {gi} checked already"),
            Err(e) => panic!("take {wild} out of group {gi} refused by the step: {e}"),
        }
    }

    /// D-11.3: group `gi`, `g`, of wilds only and no canasta, broken up
    /// by a wild taken out: all its wilds must go into other groups.
    fn break_up(&mut self, p: usize, gi: usize, g: Group) {
        let origin = if g.is_new() { FROM_HAND } else { DISSOLVED };
        self.tables[p].remove(gi);
        self.reindex_moves(gi, origin);
        for w in g.cards().iter() {
            self.push_pending(DISSOLVED, origin, w);
        }
    }

    /// The change of a take-wild that leaves group `gi` as `g`, without
    /// `wild`, which waits to be placed. Inlined: the listing makes it on
    /// its probe for every take-wild it checks.
    #[inline(always)]
    fn put_taken_wild(&mut self, p: usize, gi: usize, g: Group, wild: Card) {
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        self.push_pending(gi as u8, ret, wild);
    }

    /// A wild waits to be placed: `src` is the group it left (it may not go
    /// back there), `ret` where a takeback of its new group returns it (I-25:
    /// an older group; a wild of a group laid this turn came from the hand).
    /// The list never overflows: it holds each of the 16 wilds of the
    /// pack (D-1.1) at most once.
    pub(super) fn push_pending(&mut self, src: u8, ret: u8, wild: Card) {
        let i = self.turn.pend_len as usize;
        debug_assert!(
            i < MAX_WILD_MOVES,
            "pending list full: {:?}",
            self.turn.live_pend()
        );
        if i < MAX_WILD_MOVES {
            self.turn.pend[i] = (src, ret, wild);
            self.turn.pend_len += 1;
            self.turn.pending.insert(wild);
        }
    }

    /// Takes the first pending `wild`; returns its origin. Inlined: every
    /// wild placed from the pending ones (the listing's probes, the
    /// completion check's placements) takes one, and the call's frame
    /// cost about as much as the change.
    #[inline]
    pub(super) fn take_pending(&mut self, wild: Card) -> Option<u8> {
        let turn = &mut self.turn;
        let n = turn.pend_len as usize;
        let i = turn.pend[..n].iter().position(|&(_, _, w)| w == wild)?;
        let origin = turn.pend[i].1;
        // The later ones move down one place, entry by entry: a few
        // three-byte entries at most, no call to a block move.
        for j in i + 1..n {
            turn.pend[j - 1] = turn.pend[j];
        }
        turn.pend_len -= 1;
        turn.pending.remove(wild);
        Some(origin)
    }

    /// After group `gi` left the table: later indices shift down; wilds it
    /// gave now count as coming from `origin`.
    pub(super) fn reindex_moves(&mut self, gi: usize, origin: u8) {
        self.turn.reindex(gi, origin);
    }

    pub(super) fn swap(
        &mut self,
        p: usize,
        gi: usize,
        natural: Card,
        wild: Card,
    ) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !g.is_black_canasta() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "group {gi} is not a black canasta: extend it or take the wild out"
            );
        }
        if self.rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly {
            return refuse(
                "I-13",
                "under black_canasta_wilds = convert_only all wilds leave at once (convert)",
            );
        }
        if !natural.is_natural() || natural.rank() != g.rank() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "{natural} is not a natural of the canasta's rank"
            );
        }
        if !self.hands[p].contains(natural) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold {natural}");
        }
        if !wild.is_wild() || g.count(wild) == 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} holds no {wild}");
        }
        self.check_wild_may_leave(&g, gi)?;
        g.add(natural);
        g.remove(wild);
        if !g.is_legal() || !g.is_canasta() {
            return refuse("I-13", "the swap must leave a canasta");
        }
        self.hand_remove(p, natural);
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        self.push_pending(gi as u8, ret, wild);
        Ok(())
    }

    pub(super) fn convert(
        &mut self,
        p: usize,
        gi: usize,
        naturals: CardSet,
    ) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !g.is_black_canasta() {
            return refuse_fmt!(self.quiet, "I-13", "group {gi} is not a black canasta");
        }
        if self.rules.black_canasta_wilds != BlackCanastaWilds::ConvertOnly {
            return refuse(
                "I-13",
                "convert is the convert_only form; under swap use swap",
            );
        }
        let Some(r) = g.rank() else {
            return refuse("I-13", "not a natural canasta");
        };
        if naturals.of_rank(r) != naturals || naturals.is_empty() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "only naturals of the canasta's rank, not [{naturals}]"
            );
        }
        if !self.hands[p].contains_all(naturals) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold [{naturals}]");
        }
        self.check_wild_may_leave(&g, gi)?;
        let wilds = g.cards().wilds();
        for c in naturals.iter() {
            g.add(c);
        }
        for w in wilds.iter() {
            g.remove(w);
        }
        if !(g.is_legal() && g.is_canasta() && g.wilds() == 0) {
            return refuse(
                "I-13",
                "converting must leave a red (7) or gold (8) canasta",
            );
        }
        for c in naturals.iter() {
            self.hand_remove(p, c);
        }
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        for w in wilds.iter() {
            self.push_pending(gi as u8, ret, w);
        }
        Ok(())
    }

    pub(super) fn take_back(&mut self, p: usize, gi: usize) -> Result<(), RuleError> {
        take_back_in(
            &mut self.tables[p],
            &mut self.hands[p],
            &mut self.turn,
            p,
            gi,
            self.quiet,
        )
    }

    pub(super) fn lay_heart_ace(&mut self, p: usize) -> Result<(), RuleError> {
        if !self.rules.heart_aces() {
            return refuse(
                "D-9.4",
                "heart aces are laid separately only in decorated-2003-02",
            );
        }
        if !self.hands[p].contains(Card::HEART_ACE) {
            if self.tables[p]
                .groups()
                .iter()
                .any(|g| g.count(Card::HEART_ACE) > 0)
            {
                return refuse(
                    "D-12.3",
                    "a ♥A in a group of aces never leaves it to lie separately",
                );
            }
            return refuse("D-9.4", "the hand holds no ♥A");
        }
        if let Some(pk) = self.turn.pickup {
            if !pk.rest_taken
                && pk.top == Card::HEART_ACE
                && !self.top_laid()
                && self.hands[p].count(Card::HEART_ACE) < 2
            {
                return refuse(
                    "I-8",
                    "a ♥A taken from the pile must go into a group, not be laid separately",
                );
            }
        }
        self.hand_remove(p, Card::HEART_ACE);
        self.tables[p].heart_aces += 1;
        self.tables[p].heart_aces_new += 1;
        Ok(())
    }

    pub(super) fn take_rest(&mut self, p: usize) -> Result<(), RuleError> {
        let Some(mut pk) = self.turn.pickup else {
            return refuse("D-6.2", "no pile was taken this turn");
        };
        if pk.rest_taken {
            return refuse("D-6.2", "the rest of the pile has already been taken");
        }
        if !self.top_laid() {
            return refuse_fmt!(
                self.quiet,
                "I-8",
                "first lay the top card {} in a group (D-6.2 step 2)",
                pk.top
            );
        }
        // The rest as one set, added to the hand and to what is known of
        // it by the sets' words (card by card where a card would exceed
        // its copies, never in play).
        let n = self.pile_len as usize;
        let mut rest = CardSet::EMPTY;
        let mut whole = true;
        for &c in &self.pile[..n] {
            whole &= rest.insert(c);
        }
        match (
            whole,
            self.hands[p].checked_add(rest),
            self.known[p].checked_add(rest),
        ) {
            (true, Some(hand), Some(known)) => {
                self.hands[p] = hand;
                self.known[p] = known;
            }
            _ => {
                for &c in &self.pile[..n] {
                    self.hands[p].insert(c);
                    self.known[p].insert(c);
                }
            }
        }
        self.pile_len = 0;
        pk.rest_taken = true;
        self.turn.pickup = Some(pk);
        if !self.tables[p].opened {
            if self.tables[p].opening_value() >= self.opening_minimum(p) {
                self.tables[p].opened = true;
                self.stats[p].opened_turn.get_or_insert(self.turns as u16);
            } else {
                self.turn.must_go_out = true;
            }
        }
        // I-25: what was laid before the rest was taken is committed.
        self.tables[p].end_turn();
        self.turn.moves_len = 0;
        Ok(())
    }
}

/// Part of `cards` that the pending wilds supply (pending wilds are used first).
/// Each kind as often as both hold it: the multiset intersection, by words.
pub(super) fn pending_part(pending: CardSet, cards: CardSet) -> CardSet {
    let out = pending.min(cards);
    #[cfg(debug_assertions)]
    {
        let mut slow = CardSet::EMPTY;
        for w in pending.iter() {
            if cards.count(w) > slow.count(w) {
                slow.insert(w);
            }
        }
        assert_eq!(out, slow, "pending part of [{cards}]");
    }
    out
}
