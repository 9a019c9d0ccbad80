//! [`ClassicView`]: what one seat may know (a partner's hand is hidden
//! too), and states sampled from it for determinizing search.

use super::action::ClassicAction;
use super::state::*;
use crate::card::Card;
use crate::card_set::CardSet;
use rand::{Rng, RngExt};

/// One seat's view of a hand: its own hand, every table, the pile, the
/// sizes of the other hands and of the stock, the cards known to be in
/// each hand (taken from the pile), and the turn's public facts. The rest
/// is out of reach.
#[derive(Clone, Copy)]
pub struct ClassicView<'a> {
    state: &'a ClassicState,
    seat: u8,
}

impl ClassicState {
    /// The view of seat `seat`.
    pub fn view(&self, seat: usize) -> ClassicView<'_> {
        ClassicView {
            state: self,
            seat: seat as u8,
        }
    }
}

impl<'a> ClassicView<'a> {
    /// The seat.
    pub fn seat(&self) -> usize {
        self.seat as usize
    }
    /// The seat's own hand.
    pub fn hand(&self) -> CardSet {
        self.state.hands[self.seat as usize]
    }
    /// The size of a player's hand.
    pub fn hand_len(&self, p: usize) -> usize {
        self.state.hands[p].len() as usize
    }
    /// Cards known to be in a player's hand (taken from the pile).
    pub fn known(&self, p: usize) -> CardSet {
        self.state.known[p]
    }
    /// A side's table.
    pub fn table(&self, side: usize) -> &SideTable {
        &self.state.tables[side]
    }
    /// The pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        self.state.pile()
    }
    /// The stock's size.
    pub fn stock_len(&self) -> usize {
        self.state.stock_len as usize
    }
    /// The player to act.
    pub fn current_player(&self) -> usize {
        self.state.current_player()
    }
    /// The phase.
    pub fn phase(&self) -> ClassicPhase {
        self.state.phase
    }
    /// The rules.
    pub fn rules(&self) -> &super::rules::ClassicRules {
        &self.state.rules
    }
    /// Whether the pile is frozen for everybody (C-7).
    pub fn pile_frozen(&self) -> bool {
        self.state.frozen
    }
    /// A side's opening minimum this hand (C-6).
    pub fn minimum(&self, side: usize) -> i32 {
        self.state.minimum(side)
    }
    /// A side's running total before this hand (C-6).
    pub fn total(&self, side: usize) -> i32 {
        self.state.totals[side]
    }
    /// The pickup of the current turn (C-7, C-14).
    pub fn pickup(&self) -> Option<ClassicPickup> {
        self.state.turn.pickup
    }
    /// C-18: the answer given this turn.
    pub fn answer(&self) -> Option<bool> {
        self.state.turn.answer
    }
    /// Turns completed (C-22).
    pub fn turns(&self) -> u32 {
        self.state.turns
    }
    /// C-19: whether a player has melded a card earlier in the hand.
    pub fn melded_before(&self, p: usize) -> bool {
        self.state.melded_before[p]
    }
    /// C-19: whether the mover drew from the stock this turn.
    pub fn drew(&self) -> bool {
        self.state.turn.drew
    }
    /// C-18: whether the mover, in his meld phase, can go out from here
    /// (judged on his own hand, his side's table and the pile only).
    pub fn can_go_out(&self) -> bool {
        self.state.phase == ClassicPhase::Meld
            && self.state.mover as usize == self.seat as usize
            && self.state.can_go_out()
    }
    /// C-18 (004's rule for "no"): whether the seat's hand holds cards it
    /// could lay on its next turn, onto its side's melds or as a new meld,
    /// judged on its hand and its side's table now under the rules of a
    /// meld phase (minimum and wild limits included).
    pub fn could_lay(&self) -> bool {
        let s = self.state;
        let side = s.rules.side_of(self.seat as usize);
        let t = &s.tables[side];
        let need = if t.has_melds() {
            1
        } else {
            s.minimum(side).max(1)
        };
        super::solver::could_lay(&s.rules, self.hand(), t, need)
    }
    /// C-10, C-18: whether the seat's whole hand could be laid onto its
    /// side's table in one meld phase, going out without a discard (C-10's
    /// canastas, those it completes counted; the minimum of a side that has
    /// not melded, C-17; black threes as their own meld, C-16). Then after
    /// a draw it goes out whatever card it draws, discarding that card.
    pub fn lays_out(&self) -> bool {
        let s = self.state;
        let side = s.rules.side_of(self.seat as usize);
        let t = &s.tables[side];
        let min = (!t.has_melds()).then(|| s.minimum(side));
        super::solver::lays_out(&s.rules, self.hand(), t, min)
    }
    /// The legal actions, when the seat is to act (they depend only on
    /// what it sees).
    pub fn legal_actions(&self, out: &mut Vec<ClassicAction>) {
        out.clear();
        if self.state.current_player() == self.seat as usize {
            self.state.legal_actions(out);
        }
    }

    /// A full state consistent with this view: the unseen cards dealt at
    /// random to the other hands (beside their known cards) and the stock.
    /// Red threes go only where they can be: the stock, or a hand whose
    /// owner has not yet had a turn (C-8, C-22).
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> ClassicState {
        let s = self.state;
        let seat = self.seat as usize;
        let n = s.players();
        let mut g = s.clone();
        // The unseen cards.
        let mut seen = s.hands[seat];
        for q in 0..n {
            if q != seat {
                seen = seen.checked_add(s.known[q]).expect("cards of the pack");
            }
        }
        for t in &s.tables[..s.rules.sides()] {
            seen = seen.checked_add(t.all()).expect("cards of the pack");
        }
        for c in s.pile() {
            seen.insert(*c);
        }
        let unseen = classic_pack(s.rules.jokers)
            .checked_sub(seen)
            .expect("what is seen is in the pack");
        let mut pool = [Card::JOKER; CLASSIC_MAX_PACK];
        let mut len = 0;
        for c in unseen.iter() {
            pool[len] = c;
            len += 1;
        }
        for i in (1..len).rev() {
            let j = rng.random_range(0..=i);
            pool.swap(i, j);
        }
        let first = (s.dealer as usize + 1) % n;
        let may_hold_red = |q: usize| (q + n - first) % n > s.turns as usize;
        // Red threes first to the places that may hold them: move them to
        // the end of the pool, which the stock and eligible hands take.
        let mut order = [Card::JOKER; CLASSIC_MAX_PACK];
        let mut o = 0;
        for c in pool[..len].iter().filter(|c| !c.is_red_three()) {
            order[o] = *c;
            o += 1;
        }
        let plain = o;
        for c in pool[..len].iter().filter(|c| c.is_red_three()) {
            order[o] = *c;
            o += 1;
        }
        // Hands that may not hold red threes draw from the plain cards.
        let mut lo = 0;
        let mut hi_slots = [0usize; CLASSIC_MAX_PLAYERS];
        for (q, slot) in hi_slots.iter_mut().enumerate().take(n) {
            if q == seat {
                continue;
            }
            let need = s.hands[q].len() as usize - s.known[q].len() as usize;
            if may_hold_red(q) {
                *slot = need;
                continue;
            }
            let mut h = s.known[q];
            for c in &order[lo..lo + need] {
                h.insert(*c);
            }
            lo += need;
            g.hands[q] = h;
        }
        debug_assert!(lo <= plain);
        // The rest, red threes among them, shuffled again for the eligible
        // hands and the stock.
        let rest = &mut order[lo..len];
        for i in (1..rest.len()).rev() {
            let j = rng.random_range(0..=i);
            rest.swap(i, j);
        }
        let mut at = 0;
        for q in 0..n {
            if q == seat || !may_hold_red(q) {
                continue;
            }
            let mut h = s.known[q];
            for c in &rest[at..at + hi_slots[q]] {
                h.insert(*c);
            }
            at += hi_slots[q];
            g.hands[q] = h;
        }
        let stock_len = s.stock_len as usize;
        debug_assert_eq!(rest.len() - at, stock_len);
        g.stock[..stock_len].copy_from_slice(&rest[at..at + stock_len]);
        if s.mover as usize != seat && g.turn.answer == Some(true) && g.phase == ClassicPhase::Meld
        {
            // Whether a "yes" binds the mover to go out depends on his
            // hand: decided again for the sampled hand.
            g.turn.must_go_out = false;
            g.turn.must_go_out = g.can_go_out();
        }
        g
    }
}

impl std::fmt::Debug for ClassicView<'_> {
    /// What the seat knows, never a hidden card.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.state;
        let n = s.players();
        let lens: Vec<usize> = (0..n).map(|p| self.hand_len(p)).collect();
        let known: Vec<CardSet> = (0..n).map(|p| s.known[p]).collect();
        f.debug_struct("ClassicView")
            .field("seat", &self.seat)
            .field("hand", &self.hand())
            .field("hand_lens", &lens)
            .field("known", &known)
            .field("tables", &&s.tables[..s.rules.sides()])
            .field("pile", &s.pile())
            .field("stock_len", &s.stock_len)
            .field("phase", &s.phase)
            .field("current", &s.current)
            .field("turns", &s.turns)
            .field("asked", &s.turn.asked)
            .field("answer", &s.turn.answer)
            .field("pickup", &s.turn.pickup)
            .field("end", &s.end)
            .finish()
    }
}
