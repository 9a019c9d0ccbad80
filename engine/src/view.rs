//! [`SeatView`]: what one seat may know ("Information" in RULES.md), and the
//! determinizer: the only way from a view back to a full state.

use crate::card::Card;
use crate::card_set::CardSet;
use crate::rules::Rules;
use crate::state::{shuffle, GameState, HandEnd, Phase, PlayerStats, Turn, MAX_PLAYERS, PACK};
use crate::table::Table;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// One seat's information state: its own hand, every table, the whole pile,
/// the number of cards in each hand and in the stock, the cards known to be
/// in other hands (picked up from the pile or kept from the cut), the unkept
/// cut cards at the bottom of the stock. Other hands and the stock order are
/// not in it: an agent holding a view cannot reach them.
#[derive(Clone, Copy, Debug)]
pub struct SeatView {
    seat: u8,
    rules: Rules,
    starter: u8,
    current: u8,
    phase: Phase,
    hand: CardSet,
    hand_sizes: [u8; MAX_PLAYERS],
    tables: [Table; MAX_PLAYERS],
    known: [CardSet; MAX_PLAYERS],
    pile: [Card; PACK],
    pile_len: u8,
    pile_top_fresh: bool,
    stock_len: u8,
    stock_bottom: [Card; 3],
    stock_bottom_len: u8,
    cut: [Card; 3],
    free_pending: [bool; MAX_PLAYERS],
    owed_red: [u8; MAX_PLAYERS],
    turns: u32,
    totals: [i32; MAX_PLAYERS],
    turn: Turn,
    anchor_table: Table,
    anchor_known: CardSet,
    anchor_turn: Turn,
    end: Option<HandEnd>,
    stats: [PlayerStats; MAX_PLAYERS],
}

impl GameState {
    /// What `seat` may know of this state.
    pub fn view(&self, seat: usize) -> SeatView {
        let mut hand_sizes = [0u8; MAX_PLAYERS];
        for (p, h) in hand_sizes.iter_mut().enumerate().take(self.players()) {
            *h = self.hands[p].len() as u8;
        }
        let mut stock_bottom = [Card::JOKER; 3];
        let nb = (self.stock_known_bottom as usize).min(3);
        stock_bottom[..nb].copy_from_slice(&self.stock[..nb]);
        SeatView {
            seat: seat as u8,
            rules: self.rules,
            starter: self.starter,
            current: self.current,
            phase: self.phase,
            hand: self.hands[seat],
            hand_sizes,
            tables: self.tables,
            known: self.known,
            pile: self.pile,
            pile_len: self.pile_len,
            pile_top_fresh: self.pile_top_fresh,
            stock_len: self.stock_len,
            stock_bottom,
            stock_bottom_len: nb as u8,
            cut: if self.phase == Phase::Cut {
                self.cut
            } else {
                [Card::JOKER; 3]
            },
            free_pending: self.free_pending,
            owed_red: self.owed_red,
            turns: self.turns,
            totals: self.totals,
            turn: self.turn,
            anchor_table: self.anchor.table,
            anchor_known: self.anchor.known,
            anchor_turn: self.anchor.turn,
            end: self.end,
            stats: self.stats,
        }
    }
}

impl SeatView {
    /// The seat this view belongs to.
    pub fn seat(&self) -> usize {
        self.seat as usize
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.rules.players as usize
    }
    /// The starter.
    pub fn starter(&self) -> usize {
        self.starter as usize
    }
    /// The player to move.
    pub fn current_player(&self) -> usize {
        self.current as usize
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat's own hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }
    /// Number of cards in player `p`'s hand.
    pub fn hand_size(&self, p: usize) -> usize {
        self.hand_sizes[p] as usize
    }
    /// Player `p`'s table.
    pub fn table(&self, p: usize) -> &Table {
        &self.tables[p]
    }
    /// Cards known to be in player `p`'s hand.
    pub fn known(&self, p: usize) -> CardSet {
        self.known[p]
    }
    /// The pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile[..self.pile_len as usize]
    }
    /// The top of the pile.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile().last().copied()
    }
    /// Whether the pile is frozen (D-6.3).
    pub fn pile_frozen(&self) -> bool {
        self.pile_top()
            .is_some_and(|c| c.is_black_three() || c.is_wild())
    }
    /// Cards in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }
    /// The known cards at the bottom of the stock (unkept cut cards), bottom first.
    pub fn stock_bottom(&self) -> &[Card] {
        &self.stock_bottom[..self.stock_bottom_len as usize]
    }
    /// The shown cut cards (during the cut).
    pub fn cut_cards(&self) -> [Card; 3] {
        self.cut
    }
    /// Turns played.
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// Running totals before the hand.
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.players()]
    }
    /// The penalized pickup in progress this turn (D-6.2), public to all.
    pub fn pickup(&self) -> Option<crate::state::Pickup> {
        self.turn.pickup
    }

    /// Whether the free pickup is offered to the mover.
    pub fn free_pickup_offered(&self) -> bool {
        self.turn.free_offer
    }
    /// Whether the pile's top was discarded by the previous player just now (a twin is possible).
    pub fn pile_top_fresh(&self) -> bool {
        self.pile_top_fresh
    }
    /// Whether the mover must go out this turn (I-26).
    pub fn must_go_out(&self) -> bool {
        self.turn.must_go_out
    }
    /// Wilds taken out of a group and not yet placed.
    pub fn pending_wilds(&self) -> CardSet {
        self.turn.pending
    }
    /// Player counters.
    pub fn stats(&self, p: usize) -> &PlayerStats {
        &self.stats[p]
    }
    /// How the hand ended, if it has.
    pub fn end(&self) -> Option<HandEnd> {
        self.end
    }
    /// The opening minimum for player `p` (I-11).
    pub fn opening_minimum(&self, p: usize) -> i32 {
        self.rules.opening.minimum(self.totals[p])
    }

    /// The cards this seat cannot place: the union of the other hands' unknown
    /// cards and the stock's unknown cards.
    pub fn unseen(&self) -> CardSet {
        let mut seen = self.hand;
        let n = self.players();
        for p in 0..n {
            seen = seen.checked_add(self.tables[p].cards()).unwrap_or(seen);
            if p != self.seat as usize {
                seen = seen.checked_add(self.known[p]).unwrap_or(seen);
            }
        }
        seen = seen.checked_add(self.turn.pending).unwrap_or(seen);
        for c in self.pile() {
            seen.insert(*c);
        }
        for c in self.stock_bottom() {
            seen.insert(*c);
        }
        if self.phase == Phase::Cut {
            for c in self.cut {
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

    /// The state of [`SeatView::determinize`] for the sample `seed`, with
    /// the unseen cards shuffled or in card order.
    fn world(&self, seed: u64, shuffled: bool) -> GameState {
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
        let nb = self.stock_bottom_len as usize;
        stock[..nb].copy_from_slice(&self.stock_bottom[..nb]);
        let mut k = nb;
        if shuffled {
            let mut pool = [Card::JOKER; PACK];
            let mut n = 0;
            for c in rest.iter() {
                pool[n] = c;
                n += 1;
            }
            shuffle(&mut pool[..n], &mut gen);
            let mut next = 0;
            for (p, hand) in hands.iter_mut().enumerate().take(self.players()) {
                if p == self.seat as usize {
                    *hand = self.hand;
                    continue;
                }
                *hand = self.known[p];
                let need = self.hand_sizes[p] as usize - self.known[p].len() as usize;
                for c in &pool[next..next + need] {
                    hand.insert(*c);
                }
                next += need;
            }
            for c in &pool[next..n] {
                stock[k] = *c;
                k += 1;
            }
        } else {
            // In card order: the hands take the first unseen cards, the
            // stock the rest, with no pool in between.
            let mut cards = rest.iter();
            for (p, hand) in hands.iter_mut().enumerate().take(self.players()) {
                if p == self.seat as usize {
                    *hand = self.hand;
                    continue;
                }
                *hand = self.known[p];
                let need = self.hand_sizes[p] as usize - self.known[p].len() as usize;
                for c in cards.by_ref().take(need) {
                    hand.insert(c);
                }
            }
            for c in cards {
                stock[k] = c;
                k += 1;
            }
        }
        for c in reds.iter() {
            stock[k] = c;
            k += 1;
        }
        debug_assert_eq!(k, self.stock_len as usize, "unseen cards fill the stock");
        if shuffled {
            shuffle(&mut stock[nb..k], &mut gen);
        }
        // The mover's hand at the start of his meld phase: his hand now plus
        // what he laid from it since (the table's growth, pending wilds included).
        let cur = self.current as usize;
        let laid = self.tables[cur]
            .cards()
            .checked_add(self.turn.pending)
            .and_then(|t| t.checked_sub(self.anchor_table.cards()))
            .unwrap_or(CardSet::EMPTY);
        let anchor = crate::state::Anchor {
            hand: hands[cur].checked_add(laid).unwrap_or(hands[cur]),
            known: self.anchor_known,
            table: self.anchor_table,
            turn: self.anchor_turn,
        };
        GameState {
            anchor,
            quiet: false,
            rules: self.rules,
            rng: Pcg64Mcg::seed_from_u64(gen.next_u64()),
            starter: self.starter,
            current: self.current,
            phase: self.phase,
            hands,
            tables: self.tables,
            known: self.known,
            stock,
            stock_len: self.stock_len,
            stock_known_bottom: nb as u8,
            pile: self.pile,
            pile_len: self.pile_len,
            pile_top_fresh: self.pile_top_fresh,
            cut: self.cut,
            free_pending: self.free_pending,
            owed_red: self.owed_red,
            turns: self.turns,
            totals: self.totals,
            turn: self.turn,
            end: self.end,
            stats: self.stats,
        }
    }
}
