//! [`SeatView`]: what one seat may know ("Information" in RULES.md), and the
//! determinizer: the only way from a view back to a full state.

use super::{shuffle, Anchor, GameState, HandEnd, Parts, Phase, PlayerStats, MAX_PLAYERS, PACK};
use crate::card::Card;
use crate::card_set::CardSet;
use crate::rules::Rules;
use crate::table::Table;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// One seat's information state: its own hand, every table, the whole pile,
/// the number of cards in each hand and in the stock, the cards known to be
/// in other hands (picked up from the pile or kept from the cut), the unkept
/// cut cards at the bottom of the stock. Other hands and the stock order are
/// not in it: an agent holding a view cannot reach them, since the state it
/// reads is private to this crate and every method answers from the seat's
/// side only. It borrows the state rather than copying it, so a view costs
/// nothing to make (one is made for every decision).
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    state: &'a GameState,
    seat: u8,
}

impl GameState {
    /// What `seat` may know of this state.
    pub fn view(&self, seat: usize) -> SeatView<'_> {
        SeatView {
            state: self,
            seat: seat as u8,
        }
    }
}

impl std::fmt::Debug for SeatView<'_> {
    /// The seat's side only (never the other hands or the stock's order).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.players();
        f.debug_struct("SeatView")
            .field("seat", &self.seat)
            .field("phase", &self.phase())
            .field("current", &self.current_player())
            .field("turns", &self.turns())
            .field("hand", &self.hand())
            .field(
                "hand_sizes",
                &(0..n).map(|p| self.hand_size(p)).collect::<Vec<_>>(),
            )
            .field("tables", &(0..n).map(|p| self.table(p)).collect::<Vec<_>>())
            .field("known", &(0..n).map(|p| self.known(p)).collect::<Vec<_>>())
            .field("pile", &self.pile())
            .field("stock_len", &self.stock_len())
            .field("stock_bottom", &self.stock_bottom())
            .finish()
    }
}

impl SeatView<'_> {
    /// The seat this view belongs to.
    pub fn seat(&self) -> usize {
        self.seat as usize
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.state.rules
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.state.rules.players as usize
    }
    /// The starter.
    pub fn starter(&self) -> usize {
        self.state.starter as usize
    }
    /// The player to move.
    pub fn current_player(&self) -> usize {
        self.state.current as usize
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }
    /// The seat's own hand.
    pub fn hand(&self) -> CardSet {
        self.state.hands[self.seat as usize]
    }
    /// Number of cards in player `p`'s hand.
    pub fn hand_size(&self, p: usize) -> usize {
        self.state.hands[p].len() as usize
    }
    /// Player `p`'s table.
    pub fn table(&self, p: usize) -> &Table {
        &self.state.tables[p]
    }
    /// Cards known to be in player `p`'s hand.
    pub fn known(&self, p: usize) -> CardSet {
        self.state.known[p]
    }
    /// The pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        self.state.pile()
    }
    /// The top of the pile.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile().last().copied()
    }
    /// The card whose discard would now be a twin (D-7, I-10;
    /// [`GameState::twin_card`]).
    pub fn twin_card(&self) -> Option<Card> {
        self.state.twin_card()
    }
    /// Whether the pile is frozen (D-6.3).
    pub fn pile_frozen(&self) -> bool {
        self.pile_top()
            .is_some_and(|c| c.is_black_three() || c.is_wild())
    }
    /// Cards in the stock.
    pub fn stock_len(&self) -> usize {
        self.state.stock_len as usize
    }
    /// The known cards at the bottom of the stock (unkept cut cards), bottom first.
    pub fn stock_bottom(&self) -> &[Card] {
        let nb = (self.state.stock_known_bottom as usize).min(3);
        &self.state.stock[..nb]
    }
    /// The shown cut cards (during the cut).
    pub fn cut_cards(&self) -> [Card; 3] {
        if self.state.phase == Phase::Cut {
            self.state.cut
        } else {
            [Card::JOKER; 3]
        }
    }
    /// Turns played.
    pub fn turns(&self) -> u32 {
        self.state.turns
    }
    /// Running totals before the hand.
    pub fn totals(&self) -> &[i32] {
        &self.state.totals[..self.players()]
    }
    /// The penalized pickup in progress this turn (D-6.2), public to all.
    pub fn pickup(&self) -> Option<super::Pickup> {
        self.state.turn.pickup
    }

    /// Whether the free pickup is offered to the mover.
    pub fn free_pickup_offered(&self) -> bool {
        self.state.turn.free_offer
    }
    /// Whether the pile's top was discarded by the previous player just now (a twin is possible).
    pub fn pile_top_fresh(&self) -> bool {
        self.state.pile_top_fresh
    }
    /// Whether the mover must go out this turn (I-26).
    pub fn must_go_out(&self) -> bool {
        self.state.turn.must_go_out
    }
    /// Wilds taken out of a group and not yet placed.
    pub fn pending_wilds(&self) -> CardSet {
        self.state.turn.pending
    }
    /// Player counters.
    pub fn stats(&self, p: usize) -> &PlayerStats {
        &self.state.stats[p]
    }
    /// How the hand ended, if it has.
    pub fn end(&self) -> Option<HandEnd> {
        self.state.end
    }
    /// The opening minimum for player `p` (I-11).
    pub fn opening_minimum(&self, p: usize) -> i32 {
        self.state.rules.opening.minimum(self.state.totals[p])
    }

    /// Whether player `p` is dead-locked now (I-32): public knowledge,
    /// since the test reads only the tables and the size of his hand.
    pub fn dead_locked(&self, p: usize) -> bool {
        self.state.dead_locked(p)
    }

    /// The cards outside every table (the stock, the pile, every hand),
    /// with `table` in place of the seat's own.
    fn outside_with(&self, table: &Table) -> CardSet {
        let g = self.state;
        let mut on = table.cards();
        for p in (0..self.players()).filter(|&p| p != self.seat as usize) {
            on = on.checked_add(g.tables[p].cards()).unwrap_or(on);
        }
        CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY)
    }

    /// Whether the seat would be dead-locked (I-32) holding one card after
    /// its discard with `table` as its table: the query for a meld step
    /// that leaves two cards in hand (read the table after the step, with
    /// nothing pending). Public cards only.
    pub fn dead_locked_with(&self, table: &Table) -> bool {
        crate::deadlock::dead_locked(table, self.outside_with(table), self.rules())
    }

    /// Whether the seat, holding one card after its discard with `table`
    /// as its table, could never go out whatever its wilds do
    /// ([`crate::never_goes_out`]): hopeless although, if a wild can
    /// move, not a dead lock by I-32.
    pub fn never_goes_out_with(&self, table: &Table) -> bool {
        crate::deadlock::never_goes_out(table, self.outside_with(table), self.rules())
    }

    /// The cards this seat cannot place: the union of the other hands' unknown
    /// cards and the stock's unknown cards.
    pub fn unseen(&self) -> CardSet {
        let g = self.state;
        let mut seen = self.hand();
        let n = self.players();
        for p in 0..n {
            seen = seen.checked_add(g.tables[p].cards()).unwrap_or(seen);
            if p != self.seat as usize {
                seen = seen.checked_add(g.known[p]).unwrap_or(seen);
            }
        }
        seen = seen.checked_add(g.turn.pending).unwrap_or(seen);
        for c in self.pile() {
            seen.insert(*c);
        }
        for c in self.stock_bottom() {
            seen.insert(*c);
        }
        if g.phase == Phase::Cut {
            for c in g.cut {
                seen.insert(c);
            }
        }
        CardSet::FULL_PACK
            .checked_sub(seen)
            .unwrap_or(CardSet::EMPTY)
    }

    /// Samples a full state consistent with this view: the unseen cards dealt
    /// at random to the other hands (beside their known cards) and to the
    /// stock (above its known bottom), and a fresh chance generator. This is
    /// the only way from a view to a state; it never sees the true hidden
    /// cards because the view does not hold them.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> GameState {
        self.world(rng.next_u64(), true)
    }

    /// A state consistent with this view for trying the seat's own meld
    /// steps: like [`SeatView::determinize`], but the unseen cards go to the
    /// other hands and the stock in card order instead of at random, which
    /// saves the two shuffles. It draws the same one number from `rng` as
    /// `determinize`, so using one in place of the other leaves the caller's
    /// later samples as they were. Only what the seat knows is faithful:
    /// read its own hand, table and turn after its own meld steps (the rest
    /// of the pile excepted, whose red threes are replaced from the stock),
    /// never the other hands or the stock.
    pub fn own_world<R: Rng + ?Sized>(&self, rng: &mut R) -> GameState {
        self.world(rng.next_u64(), false)
    }

    /// [`GameState::completion`] of the world [`SeatView::own_world`] makes
    /// for the sample `seed` (the number it draws): the shortest way to end
    /// the seat's turn. Where the seat is the mover in a meld phase, the
    /// search reads only what the world copies from the state (the seat's
    /// hand, table and turn, the pile, the tables, the counts of cards;
    /// meld steps and discards draw nothing, and the reset, which reads
    /// the turn's start, is not searched), so it runs on the state itself
    /// and the world is not built: the answer is the world's.
    pub fn own_completion(&self, seed: u64, budget: u32) -> Option<Vec<crate::Action>> {
        let g = self.state;
        if g.phase == Phase::Meld && g.current == self.seat {
            g.completion(budget)
        } else {
            self.world(seed, false).completion(budget)
        }
    }

    /// The state of [`SeatView::determinize`] for the sample `seed`, with
    /// the unseen cards shuffled or in card order.
    fn world(&self, seed: u64, shuffled: bool) -> GameState {
        let g = self.state;
        // Red threes never stay in a hand (D-4): unseen ones are in the stock.
        let unseen = self.unseen();
        // Bits 5 and 6 of each copy: the red threes (D-1.3).
        const RED_THREES: u64 = 0b11 << 5;
        let (lo, hi, jokers) = unseen.raw();
        let reds = CardSet::from_raw_unchecked(lo & RED_THREES, hi & RED_THREES, 0);
        let rest = CardSet::from_raw_unchecked(lo & !RED_THREES, hi & !RED_THREES, jokers);
        let mut gen = Pcg64Mcg::seed_from_u64(seed);
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut stock = [Card::JOKER; PACK];
        let bottom = self.stock_bottom();
        let nb = bottom.len();
        stock[..nb].copy_from_slice(bottom);
        let mut k = nb;
        // The unseen cards in card order (each copy; the jokers last), as
        // `rest.iter()` gives them; shuffled for a sample.
        let mut pool = [Card::JOKER; PACK];
        let mut n = 0;
        let (rest_lo, rest_hi, rest_jokers) = rest.raw();
        let mut bits = rest_lo;
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            let c = Card::of_index(i as u8);
            pool[n] = c;
            n += 1;
            if rest_hi >> i & 1 == 1 {
                pool[n] = c;
                n += 1;
            }
        }
        n += rest_jokers as usize;
        debug_assert!(pool[..n].iter().copied().eq(rest.iter()));
        if shuffled {
            shuffle(&mut pool[..n], &mut gen);
        }
        let mut next = 0;
        for (p, hand) in hands.iter_mut().enumerate().take(self.players()) {
            if p == self.seat as usize {
                *hand = self.hand();
                continue;
            }
            *hand = g.known[p];
            let need = g.hands[p].len() as usize - g.known[p].len() as usize;
            for c in &pool[next..next + need] {
                hand.insert(*c);
            }
            next += need;
        }
        stock[k..k + n - next].copy_from_slice(&pool[next..n]);
        k += n - next;
        for c in reds.iter() {
            stock[k] = c;
            k += 1;
        }
        debug_assert_eq!(k, g.stock_len as usize, "unseen cards fill the stock");
        if shuffled {
            shuffle(&mut stock[nb..k], &mut gen);
        }
        // The mover's hand at the start of his meld phase: his hand now plus
        // what he laid from it since (the table's growth, pending wilds included).
        let cur = g.current as usize;
        let laid = g.tables[cur]
            .cards()
            .checked_add(g.turn.pending)
            .and_then(|t| t.checked_sub(g.anchor.table.cards()))
            .unwrap_or(CardSet::EMPTY);
        let anchor = Anchor {
            hand: hands[cur].checked_add(laid).unwrap_or(hands[cur]),
            known: g.anchor.known,
            table: g.anchor.table,
            turn: g.anchor.turn,
        };
        GameState::from_parts(Parts {
            anchor,
            rules: g.rules,
            rng: Pcg64Mcg::seed_from_u64(gen.next_u64()),
            starter: g.starter,
            current: g.current,
            phase: g.phase,
            hands,
            tables: g.tables,
            known: g.known,
            stock,
            stock_len: g.stock_len,
            stock_known_bottom: nb as u8,
            pile: g.pile,
            pile_len: g.pile_len,
            pile_top_fresh: g.pile_top_fresh,
            cut: self.cut_cards(),
            free_pending: g.free_pending,
            owed_red: g.owed_red,
            turns: g.turns,
            totals: g.totals,
            turn: g.turn,
            end: g.end,
            stats: g.stats,
            dead: g.dead,
        })
    }
}
