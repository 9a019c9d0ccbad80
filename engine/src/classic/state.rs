//! [`ClassicState`]: one hand of classic canasta in the shape of OpenSpiel's
//! `State`: the fields, the deal (C-1 … C-3, C-22), accessors, invariants.
//! The turn's flow is in `flow`, the listing in `legal`, the completion
//! test (I-9) in `solver`.

use super::action::{Kind, MeldKey};
use super::rules::ClassicRules;
use crate::card::{Card, Rank, Suit};
use crate::card_set::CardSet;
use crate::error::{InvariantError, RuleError};
use crate::rules::Family;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Most players (C-2).
pub const CLASSIC_MAX_PLAYERS: usize = 6;

/// Most cards in the pack (C-1: 104 and up to 6 jokers).
pub const CLASSIC_MAX_PACK: usize = 110;

/// Undos (take-backs and resets, I-25) a meld phase allows: undoing
/// reaches no final state that laying alone does not, so the cap takes no
/// outcome away and makes every meld phase end.
pub const CLASSIC_MAX_UNDOS: u8 = 8;

/// Where the hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicPhase {
    /// The start of a turn: ask (C-18), draw, take the pile or the turned
    /// card, or end the hand on an empty stock (C-23).
    Draw,
    /// C-18: the partner answers "may I go out?".
    Answer,
    /// Meld steps, then a discard or the end of the turn.
    Meld,
    /// The hand is over.
    Over,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicEnd {
    /// C-10: a player went out.
    WentOut {
        /// Who.
        player: u8,
        /// C-19: concealed.
        concealed: bool,
    },
    /// C-11, C-23: the stock ran out (a player did not take the pile, or the
    /// last stock card was a red three).
    StockOut,
    /// I-5: the turn cap was reached.
    Stalled,
}

/// One side's cards on the table (C-20): a meld per natural rank (empty =
/// none), the black-three meld, wild canastas, red threes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SideTable {
    /// The meld of each natural rank, by kind index 0..11.
    pub melds: [CardSet; 11],
    /// The black-three meld (C-16), empty if none.
    pub black_threes: CardSet,
    /// Wild canastas (C-21).
    pub wild_canastas: [CardSet; 2],
    /// Red threes laid (C-8).
    pub red_threes: CardSet,
}

impl SideTable {
    /// The cards of a meld.
    pub fn meld(&self, key: MeldKey) -> CardSet {
        match key {
            MeldKey::Rank(k) => self.melds[k.index()],
            MeldKey::BlackThrees => self.black_threes,
            MeldKey::Wilds => {
                if self.wild_canastas[1].is_empty() {
                    self.wild_canastas[0]
                } else {
                    self.wild_canastas[1]
                }
            }
        }
    }

    /// The bit of a meld in the turn's masks of new melds: bit `kind` for
    /// a rank, 11 for black threes, 12 or 13 for the slot a new wild
    /// canasta goes to.
    pub(crate) fn key_bit(&self, key: MeldKey) -> u16 {
        match key {
            MeldKey::Rank(k) => 1 << k.index(),
            MeldKey::BlackThrees => 1 << 11,
            MeldKey::Wilds => {
                if self.wild_canastas[0].is_empty() {
                    1 << 12
                } else {
                    1 << 13
                }
            }
        }
    }

    /// Whether the side has melded anything (red threes aside).
    pub fn has_melds(&self) -> bool {
        self.melds.iter().any(|m| !m.is_empty())
            || !self.black_threes.is_empty()
            || !self.wild_canastas[0].is_empty()
    }

    /// Every melded card (red threes aside).
    pub fn melded(&self) -> CardSet {
        let mut s = self.black_threes;
        for m in self.melds.iter().chain(self.wild_canastas.iter()) {
            s = s.checked_add(*m).unwrap_or(s);
        }
        s
    }

    /// Every card on the table, red threes included.
    pub fn all(&self) -> CardSet {
        self.melded()
            .checked_add(self.red_threes)
            .unwrap_or(CardSet::EMPTY)
    }

    /// Canastas (C-5): melds of 7 or more, wild canastas included; the
    /// black-three meld never counts (C-16).
    pub fn canastas(&self) -> u32 {
        self.melds.iter().filter(|m| m.len() >= 7).count() as u32
            + self.wild_canastas.iter().filter(|m| !m.is_empty()).count() as u32
    }

    /// Card value of the melds (C-9), red threes aside.
    pub fn melded_value(&self) -> i32 {
        value_of(self.melded())
    }
}

/// Card value of a set of cards (C-9): joker 50, A and 2 20, K–8 10, 7–4
/// and black three 5; red threes 0 (they score as C-8 says).
pub fn value_of(set: CardSet) -> i32 {
    Kind::ALL
        .iter()
        .map(|k| k.value() * k.count_in(set) as i32)
        .sum()
}

/// The kind counts of a set (red threes left out).
pub fn kind_counts(set: CardSet) -> [u8; 14] {
    // The naturals 4–A and the 2s off the rank counts, a nibble a rank
    // (ranks 2, 3, 4 … A at nibbles 0, 1, 2 …).
    let ranks = set.rank_counts();
    let mut a = [0u8; 14];
    for (k, n) in a.iter_mut().enumerate().take(11) {
        *n = ((ranks >> (4 * (k + 2))) & 0xF) as u8;
    }
    a[Kind::BLACK_THREE.index()] = set.black_three_count() as u8;
    a[Kind::TWO.index()] = (ranks & 0xF) as u8;
    a[Kind::JOKER.index()] = set.jokers() as u8;
    a
}

/// The pickup of this turn (C-7, C-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClassicPickup {
    /// The top card taken.
    pub top: Card,
    /// The meld it went to.
    pub key: MeldKey,
    /// The rest of the pile is still to be taken.
    pub rest_pending: bool,
}

/// The current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Turn {
    /// C-18: asked this turn.
    pub asked: bool,
    /// C-18: the answer.
    pub answer: Option<bool>,
    /// C-18: "yes" was answered and a meld phase lets him go out.
    pub must_go_out: bool,
    /// C-15, C-16: a black three was taken with the pile.
    pub black_three_pickup: bool,
    /// Drew from the stock (or took 004's turned card) this turn (C-19).
    pub drew: bool,
    /// The pickup in progress.
    pub pickup: Option<ClassicPickup>,
    /// The side had not melded when the turn began: its opening turn if it
    /// lays anything (C-17).
    pub opening: bool,
    /// C-23: a red three was the last stock card: no discard.
    pub last_red_three: bool,
    /// Melds created this turn: bit `kind` for ranks, 11 black threes, 12
    /// and 13 the wild canastas.
    pub new_mask: u16,
    /// Melds created before the rest of the pile was taken: committed
    /// (I-25).
    pub committed_mask: u16,
    /// The side's table where the meld phase began (or where the rest of
    /// the pile was taken): the reset returns the difference to the hand.
    pub anchor: SideTable,
    /// Take-backs and resets made ([`CLASSIC_MAX_UNDOS`]).
    pub undos: u8,
}

/// One hand of classic canasta. `Clone` is a copy of plain arrays.
///
/// ```
/// use kanaszta_engine::classic::{ClassicRules, ClassicState};
/// let g = ClassicState::new(ClassicRules::default(), 7, 0, [0; 6]);
/// let mut legal = Vec::new();
/// g.legal_actions(&mut legal);
/// assert!(!legal.is_empty());
/// assert_eq!(g.hand(g.current_player()).len(), 15);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassicState {
    pub(crate) rules: ClassicRules,
    pub(crate) dealer: u8,
    pub(crate) hands: [CardSet; CLASSIC_MAX_PLAYERS],
    /// Cards known to every seat to be in a hand (taken from the pile).
    pub(crate) known: [CardSet; CLASSIC_MAX_PLAYERS],
    pub(crate) stock: [Card; CLASSIC_MAX_PACK],
    pub(crate) stock_len: u8,
    pub(crate) pile: [Card; CLASSIC_MAX_PACK],
    pub(crate) pile_len: u8,
    /// C-7: a wild (or, under `unmelded_wild_red`, a red three) lies in the
    /// pile.
    pub(crate) frozen: bool,
    pub(crate) tables: [SideTable; CLASSIC_MAX_PLAYERS],
    /// Running totals of the sides before this hand (C-6).
    pub(crate) totals: [i32; CLASSIC_MAX_PLAYERS],
    pub(crate) phase: ClassicPhase,
    pub(crate) current: u8,
    /// The player whose turn it is (the asker while the partner answers).
    pub(crate) mover: u8,
    pub(crate) turns: u32,
    /// C-22 (004): the turned card may still be taken alone.
    pub(crate) turned_open: bool,
    /// C-19: the player has melded a card earlier in the hand.
    pub(crate) melded_before: [bool; CLASSIC_MAX_PLAYERS],
    /// C-18: failed "yes" answers, per side.
    pub(crate) failed_yes: [u8; CLASSIC_MAX_PLAYERS],
    pub(crate) turn: Turn,
    pub(crate) end: Option<ClassicEnd>,
}

pub(crate) fn rule(rule: &'static str, message: &'static str) -> RuleError {
    RuleError::new(rule, message)
}

/// The pack (C-1): two decks and the jokers.
pub fn classic_pack(jokers: u8) -> CardSet {
    let mut s = CardSet::EMPTY;
    for r in Rank::ALL {
        for su in Suit::ALL {
            s.insert(Card::new(r, su));
            s.insert(Card::new(r, su));
        }
    }
    for _ in 0..jokers {
        s.insert(Card::JOKER);
    }
    s
}

impl ClassicState {
    /// Deals a hand (C-2, C-3, C-22): the dealer `dealer`, the sides'
    /// running totals `totals` (for the opening minimum, C-6), the shuffle
    /// from `seed`.
    pub fn new(rules: ClassicRules, seed: u64, dealer: usize, totals: [i32; 6]) -> ClassicState {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut deck = [Card::JOKER; CLASSIC_MAX_PACK];
        let n = rules.pack_size();
        for (i, c) in classic_pack(rules.jokers).iter().enumerate() {
            deck[i] = c;
        }
        for i in (1..n).rev() {
            let j = rng.random_range(0..=i);
            deck.swap(i, j);
        }
        let players = rules.players as usize;
        let mut g = ClassicState {
            rules,
            dealer: (dealer % players) as u8,
            hands: [CardSet::EMPTY; 6],
            known: [CardSet::EMPTY; 6],
            stock: deck,
            stock_len: n as u8,
            pile: [Card::JOKER; CLASSIC_MAX_PACK],
            pile_len: 0,
            frozen: false,
            tables: [SideTable::default(); 6],
            totals,
            phase: ClassicPhase::Draw,
            current: 0,
            mover: 0,
            turns: 0,
            turned_open: false,
            melded_before: [false; 6],
            failed_yes: [0; 6],
            turn: Turn::default(),
            end: None,
        };
        // The deal, one card at a time from the dealer's left.
        for _ in 0..rules.deal_size() {
            for i in 0..players {
                let p = (g.dealer as usize + 1 + i) % players;
                let c = g.pop_stock().expect("the pack holds every deal");
                g.hands[p].insert(c);
            }
        }
        // C-3, C-22: the turned card; under 004 a red three or a wild is
        // covered until a card is neither.
        if let Some(c) = g.pop_stock() {
            g.push_pile_top(c);
            while rules.turned_covered && (c_is_cover(g.pile_top())) && g.stock_len > 0 {
                let c = g.pop_stock().expect("stock checked");
                g.push_pile_top(c);
            }
        }
        g.turned_open = rules.turned_covered;
        let first = (g.dealer as usize + 1) % players;
        g.begin_turn(first);
        g
    }

    pub(crate) fn pop_stock(&mut self) -> Option<Card> {
        if self.stock_len == 0 {
            return None;
        }
        self.stock_len -= 1;
        Some(self.stock[self.stock_len as usize])
    }

    /// Puts a card on top of the pile, closing it where C-7 says.
    pub(crate) fn push_pile_top(&mut self, c: Card) {
        self.pile[self.pile_len as usize] = c;
        self.pile_len += 1;
        if self.freezes(c) {
            self.frozen = true;
        }
    }

    pub(crate) fn freezes(&self, c: Card) -> bool {
        c.is_wild()
            || (c.is_red_three()
                && self.rules.closed_pile == super::rules::ClosedPile::UnmeldedWildRed)
    }

    /// The top card of the pile.
    pub fn pile_top(&self) -> Option<Card> {
        if self.pile_len == 0 {
            None
        } else {
            Some(self.pile[self.pile_len as usize - 1])
        }
    }

    /// The rules.
    pub fn rules(&self) -> &ClassicRules {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// The player to act (the partner while he answers, C-18).
    pub fn current_player(&self) -> usize {
        self.current as usize
    }

    /// The dealer (C-22).
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    /// The phase.
    pub fn phase(&self) -> ClassicPhase {
        self.phase
    }

    /// Turns completed (I-5).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// A player's hand (the state sees everything; agents use a view).
    pub fn hand(&self, p: usize) -> CardSet {
        self.hands[p]
    }

    /// A side's table.
    pub fn table(&self, side: usize) -> &SideTable {
        &self.tables[side]
    }

    /// The stock's size.
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }

    /// The pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile[..self.pile_len as usize]
    }

    /// Whether the pile is frozen for everybody (C-7).
    pub fn pile_frozen(&self) -> bool {
        self.frozen
    }

    /// The pickup of the current turn.
    pub fn pickup(&self) -> Option<ClassicPickup> {
        self.turn.pickup
    }

    /// C-18: the answer given this turn.
    pub fn answer(&self) -> Option<bool> {
        self.turn.answer
    }

    /// How the hand ended.
    pub fn end(&self) -> Option<ClassicEnd> {
        self.end
    }

    /// Whether the hand is over.
    pub fn is_terminal(&self) -> bool {
        self.phase == ClassicPhase::Over
    }

    /// The side's running total before this hand.
    pub fn total(&self, side: usize) -> i32 {
        self.totals[side]
    }

    /// The opening minimum of a side this hand (C-6).
    pub fn minimum(&self, side: usize) -> i32 {
        self.rules.opening_minimum(self.totals[side])
    }

    /// The side of a player.
    pub fn side_of(&self, p: usize) -> usize {
        self.rules.side_of(p)
    }

    /// Failed "yes" answers of a side (C-18).
    pub fn failed_yes(&self, side: usize) -> u32 {
        self.failed_yes[side] as u32
    }

    /// Every card of the hand in one set: hands, stock, pile and tables.
    pub fn all_cards(&self) -> Option<CardSet> {
        let mut s = CardSet::EMPTY;
        for h in &self.hands[..self.players()] {
            s = s.checked_add(*h)?;
        }
        for t in &self.tables[..self.rules.sides()] {
            s = s.checked_add(t.all())?;
        }
        for c in self.stock[..self.stock_len as usize]
            .iter()
            .chain(self.pile().iter())
        {
            if !s.insert(*c) {
                return None;
            }
        }
        Some(s)
    }

    /// Checks the invariants: the pack conserved (C-1), every meld legal
    /// (C-4, C-16, C-21), one meld per rank (C-20), no red three in a hand
    /// outside a turn's start (C-8), known cards within their hands.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let all = self.all_cards().ok_or(InvariantError::TooManyCopies)?;
        if all != classic_pack(self.rules.jokers) {
            return Err(InvariantError::ClassicPack {
                cards: all.len(),
                pack: self.rules.pack_size(),
            });
        }
        for (si, t) in self.tables[..self.rules.sides()].iter().enumerate() {
            for k in 0..11 {
                let m = t.melds[k];
                if m.is_empty() {
                    continue;
                }
                let n = Kind::from_index(k).count_in(m);
                let w = m.wild_count();
                // I-25: in the mover's meld phase a meld may wait for the
                // naturals that make it legal as a whole.
                let unfinished_ok = self.phase == ClassicPhase::Meld
                    && si == self.side()
                    && self.turn.anchor.melds[k] != m
                    && self.meld_fixable(k, n, w);
                if n + w != m.len() || !(self.rules.meld_ok(n, w) || unfinished_ok) {
                    return Err(InvariantError::IllegalMeld { side: si, meld: m });
                }
            }
            let b = t.black_threes;
            if !b.is_empty()
                && (Kind::BLACK_THREE.count_in(b) + b.wild_count() != b.len()
                    || !self
                        .rules
                        .black_three_meld_ok(Kind::BLACK_THREE.count_in(b), b.wild_count()))
            {
                return Err(InvariantError::IllegalBlackThrees { side: si, meld: b });
            }
            for w in t.wild_canastas {
                if !w.is_empty() && (w.len() != 7 || w.wild_count() != 7) {
                    return Err(InvariantError::IllegalWildCanasta { side: si, meld: w });
                }
            }
            if t.red_threes.len() != t.red_threes.red_three_count() {
                return Err(InvariantError::LaidRedThrees {
                    side: si,
                    cards: t.red_threes,
                });
            }
        }
        for p in 0..self.players() {
            if !self.hands[p].contains_all(self.known[p]) {
                return Err(InvariantError::KnownNotInHand {
                    player: p,
                    family: Family::Classic,
                });
            }
            if self.hands[p].red_three_count() > 0 {
                if self.phase == ClassicPhase::Over {
                    return Err(InvariantError::RedThreeAtEnd { player: p });
                }
                if p == self.mover as usize {
                    return Err(InvariantError::MoverRedThree { player: p });
                }
            }
        }
        if self.phase == ClassicPhase::Over && self.end.is_none() {
            return Err(InvariantError::OverWithoutEnd);
        }
        Ok(())
    }
}

fn c_is_cover(c: Option<Card>) -> bool {
    matches!(c, Some(c) if c.is_red_three() || c.is_wild())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind counts read off the rank nibbles are each kind's
    /// `count_in`: the whole pack with 0 to 6 jokers and the hands of
    /// random deals of every preset.
    #[test]
    fn kind_counts_are_each_kinds_count() {
        let mut sets: Vec<CardSet> = (0..=6).map(classic_pack).collect();
        sets.push(CardSet::EMPTY);
        for preset in super::super::rules::CLASSIC_PRESETS {
            for seed in 0..8 {
                let rules = ClassicRules {
                    players: 4,
                    ..ClassicRules::preset(preset).unwrap()
                };
                let g = ClassicState::new(rules, seed, 0, [0; 6]);
                sets.extend_from_slice(&g.hands[..4]);
                let stock = g.stock[..g.stock_len as usize].iter().copied();
                sets.push(CardSet::try_from_cards(stock).unwrap());
            }
        }
        for s in sets {
            let want: Vec<u8> = Kind::ALL.iter().map(|k| k.count_in(s) as u8).collect();
            assert_eq!(kind_counts(s).to_vec(), want, "[{s}]");
        }
    }
}
