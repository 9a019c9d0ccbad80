//! [`CardSet`]: a multiset of cards in three machine words (D-1.1).
//!
//! Every suited card exists twice, so a set holds each suited kind 0, 1 or 2
//! times. Bit `rank * 4 + suit` of `lo` says "at least one copy", the same
//! bit of `hi` "two copies" (`hi ⊆ lo` always). Jokers (8 in the pack) are a
//! count. Rank counts are two popcounts against a constant nibble mask.

use crate::card::{Card, ParseCardError, Rank, Suit};
use std::fmt;

const SUITED: u64 = (1u64 << 52) - 1;

/// A multiset of cards: each suited card 0–2 times, 0–8 jokers. `Copy`,
/// 24 bytes, set operations are a few bit operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet {
    lo: u64,
    hi: u64,
    jokers: u8,
}

/// The mask of the four suits of one rank.
pub const fn rank_mask(rank: Rank) -> u64 {
    0xF << (rank as u32 * 4)
}

/// The lowest bit of each natural rank's nibble (4 to A) in
/// [`CardSet::rank_counts`].
pub(crate) const NATURAL_NIBBLES: u64 = 0x0001_1111_1111_1100;

/// The ranks of the nibble bits `m` (the lowest bit of rank `r`'s nibble
/// at bit `4r`), in rank order.
#[inline(always)]
pub(crate) fn nibble_ranks(mut m: u64) -> impl Iterator<Item = Rank> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() / 4;
            m &= m - 1;
            Rank::from_index(i as u8)
        })
    })
}

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet {
        lo: 0,
        hi: 0,
        jokers: 0,
    };

    /// The full pack of 112 cards (D-1.1).
    pub const FULL_PACK: CardSet = CardSet {
        lo: SUITED,
        hi: SUITED,
        jokers: 8,
    };

    /// Builds a set from its raw words; `None` if they break the invariants.
    pub const fn from_raw(lo: u64, hi: u64, jokers: u8) -> Option<CardSet> {
        if lo & !SUITED != 0 || hi & !lo != 0 || jokers > 8 {
            None
        } else {
            Some(CardSet { lo, hi, jokers })
        }
    }

    /// A set from raw words known to keep the invariants.
    pub(crate) const fn from_raw_unchecked(lo: u64, hi: u64, jokers: u8) -> CardSet {
        debug_assert!(lo & !SUITED == 0 && hi & !lo == 0 && jokers <= 8);
        CardSet { lo, hi, jokers }
    }

    /// Raw words `(lo, hi, jokers)`.
    pub const fn raw(self) -> (u64, u64, u8) {
        (self.lo, self.hi, self.jokers)
    }

    /// Number of cards.
    pub const fn len(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones() + self.jokers as u32
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.lo == 0 && self.jokers == 0
    }

    /// How many copies of `card` the set holds.
    pub const fn count(self, card: Card) -> u32 {
        if card.is_joker() {
            self.jokers as u32
        } else {
            let b = 1u64 << card.index();
            ((self.lo & b != 0) as u32) + ((self.hi & b != 0) as u32)
        }
    }

    /// Whether at least one copy of `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Number of cards of `rank` (any suit).
    pub const fn rank_count(self, rank: Rank) -> u32 {
        // A nibble's count by table: cheaper than two 64-bit population
        // counts where the target has no popcnt instruction.
        const POP4: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
        let shift = rank as u32 * 4;
        (POP4[((self.lo >> shift) & 0xF) as usize] + POP4[((self.hi >> shift) & 0xF) as usize])
            as u32
    }

    /// Every rank's count at once, one nibble a rank (rank `r` at bits
    /// `4r..4r+4`; at most 8 a rank, so nibbles never carry).
    pub(crate) const fn rank_counts(self) -> u64 {
        const fn nibble_pop(x: u64) -> u64 {
            let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
            (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333)
        }
        nibble_pop(self.lo) + nibble_pop(self.hi)
    }

    /// Number of jokers.
    pub const fn jokers(self) -> u32 {
        self.jokers as u32
    }

    /// Number of wilds (2s and jokers).
    pub const fn wild_count(self) -> u32 {
        self.rank_count(Rank::Two) + self.jokers as u32
    }

    /// Number of black threes.
    pub const fn black_three_count(self) -> u32 {
        self.count(Card::new(Rank::Three, Suit::Clubs))
            + self.count(Card::new(Rank::Three, Suit::Spades))
    }

    /// Number of red threes.
    pub const fn red_three_count(self) -> u32 {
        self.count(Card::new(Rank::Three, Suit::Hearts))
            + self.count(Card::new(Rank::Three, Suit::Diamonds))
    }

    /// Adds one copy of `card`; `false` (and no change) if the set already
    /// holds the maximum (2 of a suited card, 8 jokers).
    pub fn insert(&mut self, card: Card) -> bool {
        if card.is_joker() {
            if self.jokers >= 8 {
                return false;
            }
            self.jokers += 1;
            return true;
        }
        let b = 1u64 << card.index();
        if self.lo & b == 0 {
            self.lo |= b;
            true
        } else if self.hi & b == 0 {
            self.hi |= b;
            true
        } else {
            false
        }
    }

    /// The set with a first copy of `card`, which it does not hold:
    /// [`CardSet::insert`] without its tests.
    pub(crate) const fn with_first(self, card: Card) -> CardSet {
        debug_assert!(self.count(card) == 0);
        self.with_copy(card, false)
    }

    /// The set with a second copy of `card`, which it holds once:
    /// [`CardSet::insert`] without its tests.
    pub(crate) const fn with_second(self, card: Card) -> CardSet {
        debug_assert!(self.count(card) == 1);
        self.with_copy(card, true)
    }

    /// The set with one more `card`: a joker counted, a suited card's bit
    /// set in `hi` if `second`, else in `lo`.
    const fn with_copy(self, card: Card, second: bool) -> CardSet {
        if card.is_joker() {
            CardSet {
                jokers: self.jokers + 1,
                ..self
            }
        } else if second {
            CardSet {
                hi: self.hi | 1u64 << card.index(),
                ..self
            }
        } else {
            CardSet {
                lo: self.lo | 1u64 << card.index(),
                ..self
            }
        }
    }

    /// Removes one copy of `card`; `false` if there was none.
    pub fn remove(&mut self, card: Card) -> bool {
        if card.is_joker() {
            if self.jokers == 0 {
                return false;
            }
            self.jokers -= 1;
            return true;
        }
        let b = 1u64 << card.index();
        if self.hi & b != 0 {
            self.hi &= !b;
            true
        } else if self.lo & b != 0 {
            self.lo &= !b;
            true
        } else {
            false
        }
    }

    /// Multiset sum; `None` if some card would exceed its number of copies.
    pub const fn checked_add(self, other: CardSet) -> Option<CardSet> {
        if self.hi & other.lo != 0 || other.hi & self.lo != 0 || self.jokers + other.jokers > 8 {
            return None;
        }
        Some(CardSet {
            lo: self.lo | other.lo,
            hi: self.hi | other.hi | (self.lo & other.lo),
            jokers: self.jokers + other.jokers,
        })
    }

    /// The union of two sets with no kind in common (a rank's cards and
    /// the wilds, say): [`CardSet::checked_add`] without its checks.
    pub(crate) const fn union_disjoint(self, other: CardSet) -> CardSet {
        debug_assert!(self.lo & other.lo == 0 && (self.jokers == 0 || other.jokers == 0));
        CardSet {
            lo: self.lo | other.lo,
            hi: self.hi | other.hi,
            jokers: self.jokers + other.jokers,
        }
    }

    /// Whether `other ⊆ self` as multisets.
    pub const fn contains_all(self, other: CardSet) -> bool {
        other.lo & !self.lo == 0 && other.hi & !self.hi == 0 && other.jokers <= self.jokers
        // one copy wanted where self has one but other has one too is fine;
        // two wanted needs two present (checked by hi above)
    }

    /// Multiset difference `self − other`; `None` unless `other ⊆ self`.
    pub const fn checked_sub(self, other: CardSet) -> Option<CardSet> {
        if !self.contains_all(other) {
            return None;
        }
        Some(CardSet {
            lo: (self.lo & !other.lo) | (self.hi & !other.hi),
            hi: self.hi & !other.lo,
            jokers: self.jokers - other.jokers,
        })
    }

    /// Multiset intersection: each card as often as in both.
    pub const fn min(self, other: CardSet) -> CardSet {
        CardSet {
            lo: self.lo & other.lo,
            hi: self.hi & other.hi,
            jokers: if self.jokers < other.jokers {
                self.jokers
            } else {
                other.jokers
            },
        }
    }

    /// The set with its copies of `card` cut to as many as `other` holds,
    /// the other kinds as they are: [`CardSet::min`] for one kind.
    #[inline]
    pub(crate) const fn cut_to(self, other: CardSet, card: Card) -> CardSet {
        if card.is_joker() {
            CardSet {
                jokers: if self.jokers < other.jokers {
                    self.jokers
                } else {
                    other.jokers
                },
                ..self
            }
        } else {
            let keep = !(1u64 << card.index());
            CardSet {
                lo: self.lo & (other.lo | keep),
                hi: self.hi & (other.hi | keep),
                jokers: self.jokers,
            }
        }
    }

    /// The set of distinct kinds present (each at most once).
    pub const fn distinct(self) -> CardSet {
        CardSet {
            lo: self.lo,
            hi: 0,
            jokers: if self.jokers > 0 { 1 } else { 0 },
        }
    }

    /// The cards of `rank` in the set.
    pub const fn of_rank(self, rank: Rank) -> CardSet {
        let m = rank_mask(rank);
        CardSet {
            lo: self.lo & m,
            hi: self.hi & m,
            jokers: 0,
        }
    }

    /// The cards of the set whose kind occurs in `kinds` (all their copies).
    pub(crate) const fn of_kinds(self, kinds: CardSet) -> CardSet {
        CardSet {
            lo: self.lo & kinds.lo,
            hi: self.hi & kinds.lo,
            jokers: if kinds.jokers > 0 { self.jokers } else { 0 },
        }
    }

    /// The wilds (2s and jokers) in the set.
    pub const fn wilds(self) -> CardSet {
        let m = rank_mask(Rank::Two);
        CardSet {
            lo: self.lo & m,
            hi: self.hi & m,
            jokers: self.jokers,
        }
    }

    /// Card value of the set, every card counted plus (D-14).
    pub fn points(self) -> i32 {
        let mut total = self.jokers as i32 * 50;
        for r in Rank::ALL {
            let n = self.rank_count(r) as i32;
            if n == 0 {
                continue;
            }
            if r == Rank::Three {
                total += self.black_three_count() as i32 * 100;
            } else {
                total += n * r.points();
            }
        }
        total
    }

    /// Iterates the cards, each copy once, in kind order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut lo = self.lo;
        let mut hi = self.hi;
        let mut jokers = self.jokers;
        std::iter::from_fn(move || {
            let next = lo | hi;
            if next != 0 {
                let i = next.trailing_zeros() as u8;
                let b = 1u64 << i;
                if hi & b != 0 {
                    hi &= !b;
                } else {
                    lo &= !b;
                }
                return Card::from_index(i);
            }
            if jokers > 0 {
                jokers -= 1;
                return Some(Card::JOKER);
            }
            None
        })
    }

    /// Iterates the distinct kinds present, in kind order: the bits of
    /// `lo` one by one, then the joker (what [`CardSet::iter`] gives of
    /// [`CardSet::distinct`], without its test of `hi` on every card).
    pub fn kinds(self) -> impl Iterator<Item = Card> {
        self.kind_counts().map(|(c, _)| c)
    }

    /// The kinds present with their counts, in kind order, as
    /// [`CardSet::kinds`] with [`CardSet::count`] of each: a suited
    /// kind's count read from `hi` by the same bit.
    pub(crate) fn kind_counts(self) -> impl Iterator<Item = (Card, u8)> {
        let mut lo = self.lo;
        let hi = self.hi;
        let mut jokers = self.jokers;
        std::iter::from_fn(move || {
            if lo != 0 {
                let i = lo.trailing_zeros() as u8;
                lo &= lo - 1;
                return Some((Card::of_index(i), 1 + ((hi >> i) & 1) as u8));
            }
            if jokers > 0 {
                let n = jokers;
                jokers = 0;
                return Some((Card::JOKER, n));
            }
            None
        })
    }

    /// Builds a set from cards; `None` if a card exceeds its copies.
    pub fn try_from_cards<I: IntoIterator<Item = Card>>(cards: I) -> Option<CardSet> {
        let mut s = CardSet::EMPTY;
        for c in cards {
            if !s.insert(c) {
                return None;
            }
        }
        Some(s)
    }

    /// Parses space- or comma-separated card notation (`"8D 8S 2C"`).
    pub fn parse(text: &str) -> Result<CardSet, ParseCardSetError> {
        let mut s = CardSet::EMPTY;
        for tok in text.split([' ', ',']).filter(|t| !t.is_empty()) {
            let c: Card = tok.parse().map_err(ParseCardSetError::Card)?;
            if !s.insert(c) {
                return Err(ParseCardSetError::TooMany(c));
            }
        }
        Ok(s)
    }
}

/// Why card text ([`CardSet::parse`]) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseCardSetError {
    /// A word that is not a card.
    Card(ParseCardError),
    /// A card given more often than the pack holds it.
    TooMany(Card),
}

impl fmt::Display for ParseCardSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCardSetError::Card(e) => write!(f, "{e}"),
            ParseCardSetError::TooMany(c) => write!(
                f,
                "card {c} appears more often than the pack holds (2 of each suited card, 8 jokers)"
            ),
        }
    }
}

impl std::error::Error for ParseCardSetError {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Naturals and threes first, then 2s and jokers: `8D 8S 2C JK`.
        let mut first = true;
        let nat = self.iter().filter(|c| !c.is_wild());
        let wild = self.iter().filter(|c| c.is_wild());
        for c in nat.chain(wild) {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl serde::Serialize for CardSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for CardSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let s = String::deserialize(d)?;
        CardSet::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::cs;

    #[test]
    fn min_keeps_each_card_as_often_as_in_both() {
        let a = cs("AS AS KH 2C 2C JK JK JK 5D");
        let b = cs("AS KH KH 2C 2C JK 7S");
        let m = a.min(b);
        assert_eq!(m, cs("AS KH 2C 2C JK"));
        for c in a.checked_add(b).unwrap_or(a).kinds() {
            assert_eq!(m.count(c), a.count(c).min(b.count(c)), "{c}");
        }
        assert_eq!(b.min(a), m);
        // Taking cards away keeps a set canonical, so `min` still applies.
        let rest = a.checked_sub(cs("AS 2C JK")).unwrap();
        assert_eq!(rest.min(a), rest);
        assert_eq!(a.min(CardSet::EMPTY), CardSet::EMPTY);
    }

    /// D-1.1: 112 cards, every suited card twice, 8 jokers.
    #[test]
    fn d1_1_full_pack() {
        let p = CardSet::FULL_PACK;
        assert_eq!(p.len(), 112);
        assert_eq!(p.jokers(), 8);
        for r in Rank::ALL {
            assert_eq!(p.rank_count(r), 8);
        }
        let mut q = p;
        assert!(!q.insert("8D".parse().unwrap()), "a third 8D cannot exist");
        assert!(!q.insert(Card::JOKER), "a ninth joker cannot exist");
    }

    #[test]
    fn rank_counts_match_rank_count() {
        for s in [
            cs("8D 8D 8S 2C JK"),
            CardSet::FULL_PACK,
            CardSet::EMPTY,
            cs("AS AS AH AH AD AD AC AC 4C 3S 3S KD"),
        ] {
            for r in Rank::ALL {
                assert_eq!(
                    ((s.rank_counts() >> (r as u32 * 4)) & 0xF) as u32,
                    s.rank_count(r)
                );
            }
        }
    }

    #[test]
    fn kinds_and_kind_counts_match_distinct_and_count() {
        for s in [
            cs("8D 8D 8S 2C JK"),
            cs("JK JK JK 2S 2S AH"),
            CardSet::FULL_PACK,
            CardSet::EMPTY,
            cs("AS AS AH AH AD AD AC AC 4C 3S 3S KD"),
        ] {
            let kinds: Vec<Card> = s.kinds().collect();
            assert_eq!(kinds, s.distinct().iter().collect::<Vec<_>>());
            let counts: Vec<(Card, u8)> = s.kind_counts().collect();
            let want: Vec<(Card, u8)> = kinds.iter().map(|&c| (c, s.count(c) as u8)).collect();
            assert_eq!(counts, want);
        }
    }

    #[test]
    fn add_sub_and_counts() {
        let a = cs("8D 8D 8S 2C JK");
        assert_eq!(a.len(), 5);
        assert_eq!(a.rank_count(Rank::Eight), 3);
        assert_eq!(a.wild_count(), 2);
        assert_eq!(a.count("8D".parse().unwrap()), 2);
        let b = cs("8D 2C");
        let d = a.checked_sub(b).unwrap();
        assert_eq!(d, cs("8D 8S JK"));
        assert_eq!(d.checked_add(b).unwrap(), a);
        assert!(b.checked_sub(a).is_none());
        assert!(a.checked_add(cs("8D")).is_none());
        assert!(a.contains_all(cs("8D 8D")));
        assert!(!a.contains_all(cs("8S 8S")));
        assert_eq!(a.iter().count(), 5);
        assert_eq!(cs("AS AH 4C").points(), 45);
        assert_eq!(cs("3S JK").points(), 150);
    }

    #[test]
    fn parse_errors_say_what_is_wrong() {
        let e = CardSet::parse("8D 8D 8D").unwrap_err();
        assert_eq!(e, ParseCardSetError::TooMany("8D".parse().unwrap()));
        assert!(e.to_string().contains("8D"));
        assert!(CardSet::parse("8X").unwrap_err().to_string().contains("8X"));
    }
}
