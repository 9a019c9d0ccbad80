//! The turn's flow (D-3 … D-7, D-13, I-32): the cut, drawing and the
//! pickups, the discard, the next turn, the end of the hand.

use super::*;
use crate::card::{Card, Rank, Suit};
use crate::error::{refuse, RuleError};
use crate::refuse_fmt;
use crate::rules::{Deadlock, Permit, Reshuffle};

impl GameState {
    pub(super) fn keep_cut(&mut self, mask: u8) {
        let s = self.starter as usize;
        let n = self.players();
        let mut kept = 0;
        let mut unkept = [Card::JOKER; 3];
        let mut nu = 0;
        for i in 0..3 {
            if mask & (1 << i) != 0 {
                self.hands[s].insert(self.cut[i]);
                self.known[s].insert(self.cut[i]);
                kept += 1;
            } else {
                unkept[nu] = self.cut[i];
                nu += 1;
            }
        }
        // D-3.2: deal from the lower part: 15 − kept to the starter, 14 to others.
        for k in 0..n {
            let p = (s + k) % n;
            let want = if p == s { 15 - kept } else { 14 };
            for _ in 0..want {
                self.stock_len -= 1;
                let c = self.stock[self.stock_len as usize];
                self.hands[p].insert(c);
            }
        }
        // D-3.3: unkept shown cards become the bottom of the stock.
        let len = self.stock_len as usize;
        self.stock.copy_within(0..len, nu);
        self.stock[..nu].copy_from_slice(&unkept[..nu]);
        self.stock_len += nu as u8;
        self.stock_known_bottom = nu as u8;
        // D-4.1: dealt red threes go to the table; replacements at the
        // owner's first turn (I-3).
        for p in 0..n {
            for rt in [
                Card::new(Rank::Three, Suit::Hearts),
                Card::new(Rank::Three, Suit::Diamonds),
            ] {
                while self.hands[p].count(rt) > 0 {
                    self.hand_remove(p, rt);
                    self.tables[p].red_threes.insert(rt);
                    self.owed_red[p] += 1;
                }
            }
        }
        self.begin_turn(s, true);
    }

    /// Starts player `p`'s turn: owed red-three replacements (I-3), the free
    /// pickup offer (D-6.1), exhaustion (I-4).
    pub(super) fn begin_turn(&mut self, p: usize, first_discard: bool) {
        self.current = p as u8;
        self.turn = Turn {
            opened_at_start: self.tables[p].opened,
            ..Turn::default()
        };
        while self.owed_red[p] > 0 {
            self.owed_red[p] -= 1;
            if !self.draw_into(p) {
                self.finish(HandEnd::Exhausted);
                return;
            }
        }
        if first_discard {
            self.phase = Phase::FirstDiscard;
            return;
        }
        self.phase = Phase::Draw;
        let top = self.pile_top();
        self.turn.free_offer = self.free_pending[p]
            && self.pile_top_fresh
            && top.is_some_and(|c| self.free_eligible(c));
        if self.pile_frozen() {
            self.stats[p].frozen_turns += 1;
        }
        if self.stock_len == 0 && self.pile_len == 0 {
            self.finish(HandEnd::Exhausted);
        }
    }

    /// D-6.1, I-6: a card the free pickup may take.
    pub(super) fn free_eligible(&self, c: Card) -> bool {
        !(c.is_black_three() || c.is_wild() && self.rules.free_pickup_wild == Permit::Forbid)
    }

    pub(super) fn end_draw_choice(&mut self) {
        let p = self.current as usize;
        if self.turn.free_offer {
            self.free_pending[p] = false;
            self.turn.free_offer = false;
        }
        self.phase = Phase::Meld;
    }

    pub(super) fn draw_for_turn(&mut self) {
        let p = self.current as usize;
        if !self.draw_into(p) {
            self.finish(HandEnd::Exhausted);
        }
    }

    /// Draws one card for `p`, laying out and replacing red threes (D-4.2).
    /// `false` if stock and pile are both empty (I-4: exhausted).
    pub(super) fn draw_into(&mut self, p: usize) -> bool {
        loop {
            if self.stock_len == 0 {
                if self.pile_len == 0 {
                    return false;
                }
                self.reshuffle();
            }
            self.stock_len -= 1;
            let c = self.stock[self.stock_len as usize];
            if (self.stock_len as usize) < self.stock_known_bottom as usize {
                self.stock_known_bottom = self.stock_len;
            }
            if self.stock_len == 0
                && self.rules.reshuffle == Reshuffle::WhenEmpty
                && self.pile_len > 0
            {
                self.reshuffle();
            }
            if c.is_red_three() {
                self.tables[p].red_threes.insert(c);
                continue;
            }
            self.hands[p].insert(c);
            return true;
        }
    }

    /// D-5.3, I-4: the pile, top included, shuffled into a new stock.
    pub(super) fn reshuffle(&mut self) {
        let n = self.pile_len as usize;
        let mut cards = self.pile;
        let mut rng = self.rng.generator();
        shuffle(&mut cards[..n], &mut rng);
        self.rng = Chance::of(&rng);
        self.stock[..n].copy_from_slice(&cards[..n]);
        self.stock_len = n as u8;
        self.stock_known_bottom = 0;
        self.pile_len = 0;
        self.pile_top_fresh = false;
    }

    pub(super) fn free_pickup(&mut self) -> Result<(), RuleError> {
        if !self.turn.free_offer {
            return refuse(
                "D-6.1",
                "the free pickup is not offered now: it takes the previous player's first discard that is not a black three, on the turn right after it, once per hand",
            );
        }
        let p = self.current as usize;
        self.end_draw_choice();
        self.pile_len -= 1;
        let c = self.pile[self.pile_len as usize];
        self.pile_top_fresh = false;
        self.hands[p].insert(c);
        self.known[p].insert(c);
        self.turn.free_card = Some(c);
        self.stats[p].free_pickups += 1;
        Ok(())
    }

    pub(super) fn take_pile(&mut self) {
        let p = self.current as usize;
        self.end_draw_choice();
        let size = self.pile_len;
        self.pile_len -= 1;
        let top = self.pile[self.pile_len as usize];
        self.pile_top_fresh = false;
        let in_groups: u32 = self.tables[p].groups().iter().map(|g| g.count(top)).sum();
        self.hands[p].insert(top);
        self.known[p].insert(top);
        self.turn.pickup = Some(Pickup {
            top,
            group_baseline: in_groups as u8,
            pile_size: size,
            rest_taken: false,
        });
        self.stats[p].pile_pickups += 1;
        self.stats[p].cards_picked += size as u16;
    }

    pub(super) fn discard(&mut self, c: Card) -> Result<(), RuleError> {
        // The yes or no first; the full check only to name a refusal.
        if !self.discard_allowed(c) {
            self.check_discard(c)?;
        }
        self.commit_discard(c);
        Ok(())
    }

    /// The checks of a discard, changing nothing: listing and the
    /// completion search test discards without copying the state.
    pub(super) fn check_discard(&self, c: Card) -> Result<(), RuleError> {
        self.discard_check(c, self.quiet)
    }

    /// [`GameState::check_discard`], its refusals' messages formatted
    /// unless `quiet`.
    pub(crate) fn discard_check(&self, c: Card, quiet: bool) -> Result<(), RuleError> {
        let p = self.current as usize;
        if self.phase == Phase::Meld {
            if !self.turn.pending.is_empty() {
                return refuse("D-11.2", "place the wild taken out before discarding");
            }
            if self.before_rest() {
                return refuse(
                    "D-6.2",
                    "after taking the pile's top card, lay it and take the rest of the pile before discarding",
                );
            }
        }
        let hand = self.hands[p];
        if !hand.contains(c) {
            if self.tables[p].groups().iter().any(|g| g.count(c) > 0) {
                return refuse_fmt!(
                    quiet,
                    "D-12.2",
                    "{c} is melded: melded cards are never discarded"
                );
            }
            return refuse_fmt!(quiet, "D-5.1", "the hand does not hold {c}");
        }
        if self.turn.free_card == Some(c)
            && self.rules.free_pickup_return == Permit::Forbid
            && hand.count(c) < 2
        {
            return refuse_fmt!(
                quiet,
                "I-21",
                "the card taken by the free pickup ({c}) cannot be discarded in the same turn"
            );
        }
        let going_out = hand.len() == 1;
        let table = &self.tables[p];
        if going_out && !table.has_canasta() {
            return refuse(
                "D-13.2",
                "a player without a canasta must keep at least one card after discarding",
            );
        }
        if !going_out && self.turn.must_go_out {
            return refuse(
                "I-26",
                "the opening made before taking the rest of the pile fell short: this turn must go out",
            );
        }
        // The groups are scanned for one laid this turn only where it
        // matters.
        if !table.opened && !going_out && table.has_new() {
            let v = table.opening_value();
            let min = self.opening_minimum(p);
            if v < min {
                return refuse_fmt!(quiet, "D-8.2", "the opening meld is worth {v}, below the minimum of {min}: lay more or take it back (D-11.5)");
            }
        }
        Ok(())
    }

    /// Whether [`GameState::discard_check`] accepts a discard of `c`, as a
    /// yes or no: `c` in the hand, not the free pickup's card held once
    /// where I-21 bars it, and the checks that do not depend on the card
    /// ([`GameState::discard_open`]). Inlined: the listing asks it once a
    /// listing, for the first card it would list.
    #[inline(always)]
    pub(super) fn discard_allowed(&self, c: Card) -> bool {
        let hand = self.hands[self.current as usize];
        let ok = hand.contains(c)
            && !(self.turn.free_card == Some(c)
                && self.rules.free_pickup_return == Permit::Forbid
                && hand.count(c) < 2)
            && self.discard_open();
        debug_assert_eq!(ok, self.discard_check(c, true).is_ok(), "discard {c}");
        ok
    }

    /// The first kind of the mover's hand that [`GameState::check_discard`]
    /// accepts. Of its checks only the free-pickup card's (I-21) depends on
    /// the card (every kind is in the hand), so the first kind that rule
    /// allows decides for all.
    pub(super) fn first_discard(&self) -> Option<Card> {
        let hand = self.hands[self.current as usize];
        let c = hand.kinds().find(|&c| {
            !(self.turn.free_card == Some(c)
                && self.rules.free_pickup_return == Permit::Forbid
                && hand.count(c) < 2)
        })?;
        let ok = self.discard_open();
        debug_assert_eq!(ok, self.check_discard(c).is_ok(), "discard {c}");
        debug_assert_eq!(
            Some(c).filter(|_| ok),
            hand.kinds().find(|&d| self.check_discard(d).is_ok())
        );
        ok.then_some(c)
    }

    /// Whether [`GameState::first_discard`] finds a card, in the meld
    /// phase with nothing pending and no pickup before the rest (the
    /// completion check's leaves, [`GameState::plain_finish`]), read by
    /// the hand's size: with two cards or more some kind is one I-21
    /// allows (the free card is barred only as a single copy), so the
    /// card-free checks decide (I-26, D-8.2); with one card, that card
    /// must not be the free pickup's (I-21) and going out needs a
    /// canasta (D-13.2); with none, nothing to discard.
    pub(super) fn discard_now(&self) -> bool {
        debug_assert!(
            self.phase == Phase::Meld && self.turn.pending.is_empty() && !self.before_rest()
        );
        let p = self.current as usize;
        let hand = self.hands[p];
        let table = &self.tables[p];
        let ok = match hand.len() {
            0 => false,
            1 => {
                !(self.rules.free_pickup_return == Permit::Forbid
                    && self.turn.free_card.is_some_and(|c| hand.contains(c)))
                    && table.has_canasta()
            }
            _ => {
                !self.turn.must_go_out
                    && (table.opened
                        || !table.has_new()
                        || table.opening_value() >= self.opening_minimum(p))
            }
        };
        debug_assert_eq!(ok, self.first_discard().is_some(), "discard now");
        ok
    }

    /// The checks of [`GameState::discard_check`] that do not depend on
    /// the card, answered as a yes or no: whether the mover may discard a
    /// card he holds that I-21 does not bar. Nothing pending (D-11.2),
    /// no pickup before the rest (D-6.2); going out, a canasta (D-13.2);
    /// otherwise no duty to go out (I-26) and the opening minimum reached
    /// where this turn's groups are the opening (D-8.2).
    #[inline(always)]
    fn discard_open(&self) -> bool {
        if self.phase == Phase::Meld && (!self.turn.pending.is_empty() || self.before_rest()) {
            return false;
        }
        let p = self.current as usize;
        let table = &self.tables[p];
        if self.hands[p].len() == 1 {
            return table.has_canasta();
        }
        !self.turn.must_go_out
            && (table.opened
                || !table.has_new()
                || table.opening_value() >= self.opening_minimum(p))
    }

    /// A discard that [`GameState::check_discard`] accepted.
    pub(super) fn commit_discard(&mut self, c: Card) {
        let p = self.current as usize;
        let going_out = self.hands[p].len() == 1;
        self.hand_remove(p, c);
        if self.twin_card() == Some(c) {
            self.tables[p].twins += 1;
        }
        self.pile[self.pile_len as usize] = c;
        self.pile_len += 1;
        self.pile_top_fresh = true;
        // Whether anything was laid this turn is asked only of a player
        // not yet opened (neither the hand nor the twins count in it).
        let tb = &mut self.tables[p];
        if !tb.opened && (tb.has_new() || !tb.is_empty()) {
            tb.opened = true;
            self.stats[p].opened_turn.get_or_insert(self.turns as u16);
        }
        if self.stats[p].first_canasta_turn.is_none() && self.tables[p].has_canasta() {
            self.stats[p].first_canasta_turn = Some(self.turns as u16);
        }
        self.tables[p].end_turn();
        self.turns += 1;
        if going_out {
            let from_hand = !self.turn.opened_at_start;
            let cleared = from_hand && self.turn.pickup.is_some_and(|pk| pk.pile_size >= 10);
            self.finish(HandEnd::WentOut {
                player: p as u8,
                from_hand,
                cleared_table: cleared,
            });
            return;
        }
        if self.rules.deadlock == Deadlock::End && self.test_dead_lock(p) {
            self.finish(HandEnd::Deadlocked);
            return;
        }
        if self.turns >= self.rules.turn_cap {
            self.finish(HandEnd::Stalled);
            return;
        }
        let next = (p + 1) % self.players();
        self.begin_turn(next, false);
    }

    /// I-32, after a discard of player `p` that did not go out: tests him
    /// if he holds one card (once found, a dead lock lasts: his table
    /// cannot change and the cards outside the tables only shrink), and
    /// says whether every player is now dead-locked.
    pub(super) fn test_dead_lock(&mut self, p: usize) -> bool {
        let bit = 1u8 << p;
        if self.hands[p].len() != 1 {
            self.dead &= !bit;
            return false;
        }
        if self.dead & bit == 0 && self.dead_locked(p) {
            self.dead |= bit;
        }
        let all = ((1u16 << self.players()) - 1) as u8;
        self.dead == all
    }

    /// Whether player `p` is dead-locked now (I-32): he holds one card, and
    /// neither a wild moved on his table nor any card outside the tables
    /// could ever let him go out ([`crate::dead_locked`]). Exact; reads
    /// public cards only (the tables, and wilds taken out of a group and
    /// not yet placed, which belong to the mover's table), never a hand
    /// but for its size.
    pub fn dead_locked(&self, p: usize) -> bool {
        self.hands[p].len() == 1 && {
            let out = crate::deadlock::outside(&self.tables[..self.players()]);
            let out = out.checked_sub(self.turn.pending).unwrap_or(out);
            crate::deadlock::dead_locked(&self.tables[p], out, &self.rules)
        }
    }

    /// Whether player `p` was found dead-locked after his last discard
    /// (I-32; tested under `deadlock = end` only). The hand ends
    /// `deadlocked` once every player is.
    pub fn found_dead_locked(&self, p: usize) -> bool {
        self.dead & (1 << p) != 0
    }

    pub(super) fn finish(&mut self, end: HandEnd) {
        self.end = Some(end);
        self.phase = Phase::Over;
        self.turn.free_offer = false;
    }
}
