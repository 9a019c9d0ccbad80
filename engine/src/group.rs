//! [`Group`]: cards of one natural rank plus wilds, or wilds only (D-9), and
//! the five canasta kinds (D-10). Five bytes, exact cards (suits included).

use crate::card::{Card, Rank, Suit};
use crate::card_set::{rank_mask, CardSet};
use std::fmt;

/// The five canasta kinds of D-10, with their base points (D-14).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CanastaKind {
    /// 7 wilds, 2s and jokers mixed: 200.
    BlackWild,
    /// 7 cards, 1–3 wild, the rest of one rank: 300.
    Black,
    /// 7 naturals of one rank: 400.
    Red,
    /// 7 wilds, all 2s or all jokers: 500.
    RedWild,
    /// 8 naturals of one rank: 600.
    Gold,
}

impl CanastaKind {
    /// All kinds.
    pub const ALL: [CanastaKind; 5] = [
        CanastaKind::BlackWild,
        CanastaKind::Black,
        CanastaKind::Red,
        CanastaKind::RedWild,
        CanastaKind::Gold,
    ];

    /// Base points of the kind (D-14).
    pub const fn bonus(self) -> i32 {
        match self {
            CanastaKind::BlackWild => 200,
            CanastaKind::Black => 300,
            CanastaKind::Red => 400,
            CanastaKind::RedWild => 500,
            CanastaKind::Gold => 600,
        }
    }

    /// A short name.
    pub const fn name(self) -> &'static str {
        match self {
            CanastaKind::BlackWild => "black_wild",
            CanastaKind::Black => "black",
            CanastaKind::Red => "red",
            CanastaKind::RedWild => "red_wild",
            CanastaKind::Gold => "gold",
        }
    }
}

/// Marker for a group of wilds only.
pub const WILD_GROUP: u8 = 0xFF;

/// Per-turn flag: the group was laid this turn and may still be taken back
/// (D-11.5, I-25).
pub const FLAG_NEW: u8 = 1;
/// Per-turn flag: the group received a wild moved from another group this
/// turn; it gives none away in the same turn (so every wild moves at most
/// once per turn and a meld phase always ends).
pub const FLAG_RECEIVED: u8 = 2;

/// Per-suit counts, two bits each (0, 1 or 2 copies): their sum, by table
/// (a population count is a long bit-twiddling sequence on CPUs targeted
/// without `popcnt`, and groups are counted on every step).
#[inline]
const fn field_count(x: u8) -> u32 {
    FIELD_COUNT[x as usize] as u32
}

const FIELD_COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = ((x & 0x55).count_ones() + 2 * (x & 0xAA).count_ones()) as u8;
        x += 1;
    }
    t
};

#[inline]
const fn field_get(x: u8, suit: u8) -> u8 {
    (x >> (suit * 2)) & 3
}

/// A suit field (two bits a suit) spread into a nibble of suits present
/// (low) and a nibble of suits present twice (high).
static SPREAD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let mut v = 0u8;
        let mut suit = 0;
        while suit < 4 {
            let c = field_get(x as u8, suit);
            if c >= 1 {
                v |= 1 << suit;
            }
            if c >= 2 {
                v |= 0x10 << suit;
            }
            suit += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
};

/// The suit field (two bits a suit) of the four cards at bit `shift` of a
/// card set's words: the inverse of [`SPREAD`].
#[inline]
fn compact(lo: u64, hi: u64, shift: u32) -> u8 {
    let l = ((lo >> shift) & 0xF) as usize;
    let h = ((hi >> shift) & 0xF) as usize;
    COMPACT[l | h << 4]
}

/// Nibbles of suits present (low) and present twice (high) to a suit field.
static COMPACT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let mut v = 0u8;
        let mut suit = 0;
        while suit < 4 {
            let c = ((x >> suit) & 1) + ((x >> (suit + 4)) & 1);
            v |= (c as u8) << (suit * 2);
            suit += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
};

/// Whether `naturals` naturals and `wilds` wilds make a legal natural group
/// (D-9.1): 3 to 8 cards, wilds strictly fewer than naturals, none in 8.
pub const fn legal_natural_counts(naturals: u32, wilds: u32) -> bool {
    let n = naturals + wilds;
    n >= 3 && n <= 8 && wilds < naturals && !(n == 8 && wilds > 0)
}

/// Most wilds a group of `naturals` naturals can hold (D-9.1).
pub const fn max_wilds(naturals: u32) -> u32 {
    if naturals >= 7 || naturals == 0 {
        0
    } else {
        let a = naturals - 1;
        let b = 7 - naturals;
        if a < b {
            a
        } else {
            b
        }
    }
}

/// A group on a table. Exact cards: naturals and 2s by suit, jokers by count.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Group {
    rank: u8,
    naturals: u8,
    twos: u8,
    jokers: u8,
    flags: u8,
}

impl Group {
    /// The group's five bytes in one word, for hashing.
    pub(crate) const fn packed(&self) -> u64 {
        self.rank as u64
            | (self.naturals as u64) << 8
            | (self.twos as u64) << 16
            | (self.jokers as u64) << 24
            | (self.flags as u64) << 32
    }

    /// An empty group of a natural rank (not yet legal).
    pub const fn empty(rank: Rank) -> Group {
        Group {
            rank: rank as u8,
            naturals: 0,
            twos: 0,
            jokers: 0,
            flags: 0,
        }
    }

    /// An empty group of wilds only.
    pub const fn empty_wild() -> Group {
        Group {
            rank: WILD_GROUP,
            naturals: 0,
            twos: 0,
            jokers: 0,
            flags: 0,
        }
    }

    /// Builds a group from its cards, if they are one natural rank plus wilds
    /// or wilds only (legality of counts is checked by [`Group::is_legal`]).
    pub fn from_cards(cards: CardSet) -> Option<Group> {
        // Straight from the set's words: the naturals must lie in one
        // rank's nibble (and not the threes'); 2s and jokers are wilds.
        let (lo, hi, jokers) = cards.raw();
        let wild_bits = rank_mask(Rank::Two);
        let nat = lo & !wild_bits;
        let mut g = if nat == 0 {
            Group::empty_wild()
        } else {
            let r = (nat.trailing_zeros() / 4) as u8;
            let rank = Rank::from_index(r);
            if !rank.is_natural() || nat & !rank_mask(rank) != 0 {
                return None;
            }
            let mut g = Group::empty(rank);
            g.naturals = compact(lo, hi, r as u32 * 4);
            g
        };
        g.twos = compact(lo, hi, 0);
        g.jokers = jokers;
        Some(g)
    }

    /// The natural rank, `None` for a group of wilds only.
    pub const fn rank(&self) -> Option<Rank> {
        if self.rank == WILD_GROUP {
            None
        } else {
            Some(Rank::from_index(self.rank))
        }
    }

    /// The natural rank's index ([`Rank`] as `u8`), or [`WILD_GROUP`].
    pub(crate) const fn rank_index(&self) -> u8 {
        self.rank
    }

    /// Whether the group holds wilds only (D-9.2).
    pub const fn is_wild_only(&self) -> bool {
        self.rank == WILD_GROUP
    }

    /// Number of naturals.
    pub const fn naturals(&self) -> u32 {
        field_count(self.naturals)
    }

    /// Number of 2s.
    pub const fn twos(&self) -> u32 {
        field_count(self.twos)
    }

    /// Number of jokers.
    pub const fn jokers(&self) -> u32 {
        self.jokers as u32
    }

    /// Number of wilds.
    pub const fn wilds(&self) -> u32 {
        self.twos() + self.jokers()
    }

    /// Number of cards.
    pub const fn len(&self) -> u32 {
        self.naturals() + self.wilds()
    }

    /// Whether the group holds no card.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The suit fields of the naturals and of the 2s: two bits a suit
    /// (♣ lowest), each the copies of that suit's card (0, 1 or 2).
    pub(crate) const fn suit_fields(&self) -> (u8, u8) {
        (self.naturals, self.twos)
    }

    /// Per-turn flags ([`FLAG_NEW`], [`FLAG_RECEIVED`]).
    pub const fn flags(&self) -> u8 {
        self.flags
    }

    pub(crate) fn set_flags(&mut self, f: u8) {
        self.flags = f;
    }

    /// Whether the group was laid this turn and can still be taken back.
    pub const fn is_new(&self) -> bool {
        self.flags & FLAG_NEW != 0
    }

    /// How many copies of `card` the group holds.
    pub const fn count(&self, card: Card) -> u32 {
        if card.is_joker() {
            return self.jokers as u32;
        }
        let suit = card.index() & 3;
        let rank = card.index() / 4;
        if rank == 0 {
            field_get(self.twos, suit) as u32
        } else if rank == self.rank {
            field_get(self.naturals, suit) as u32
        } else {
            0
        }
    }

    /// Whether a card of this kind may belong to the group at all (its rank or a wild).
    pub const fn accepts_kind(&self, card: Card) -> bool {
        card.is_wild()
            || (card.is_natural() && self.rank != WILD_GROUP && card.index() / 4 == self.rank)
    }

    /// Adds a card without legality checks; `false` if the kind does not fit
    /// or exceeds its copies.
    pub fn add(&mut self, card: Card) -> bool {
        if !self.accepts_kind(card) {
            return false;
        }
        if card.is_joker() {
            if self.jokers >= 8 {
                return false;
            }
            self.jokers += 1;
            return true;
        }
        let suit = card.index() & 3;
        let field = if card.index() < 4 {
            &mut self.twos
        } else {
            &mut self.naturals
        };
        let v = field_get(*field, suit);
        if v >= 2 {
            return false;
        }
        *field = (*field & !(3 << (suit * 2))) | ((v + 1) << (suit * 2));
        true
    }

    /// Removes a card; `false` if absent.
    pub fn remove(&mut self, card: Card) -> bool {
        if self.count(card) == 0 {
            return false;
        }
        if card.is_joker() {
            self.jokers -= 1;
            return true;
        }
        let suit = card.index() & 3;
        let field = if card.index() < 4 {
            &mut self.twos
        } else {
            &mut self.naturals
        };
        let v = field_get(*field, suit);
        *field = (*field & !(3 << (suit * 2))) | ((v - 1) << (suit * 2));
        true
    }

    /// The group's cards.
    pub fn cards(&self) -> CardSet {
        // A suit field's copies become "at least one" and "two" bits of
        // the card set's words, at the rank's nibble.
        let t = SPREAD[self.twos as usize];
        let mut lo = (t & 0xF) as u64;
        let mut hi = (t >> 4) as u64;
        if self.rank != WILD_GROUP {
            let n = SPREAD[self.naturals as usize];
            let shift = self.rank as u32 * 4;
            lo |= ((n & 0xF) as u64) << shift;
            hi |= ((n >> 4) as u64) << shift;
        }
        CardSet::from_raw_unchecked(lo, hi, self.jokers)
    }

    /// Whether the group holds a wild (`self.wilds() > 0`), from its
    /// fields without counting them.
    #[inline]
    pub(crate) const fn holds_wild(&self) -> bool {
        self.twos | self.jokers != 0
    }

    /// The nibble of the group's natural rank in a card set's word of
    /// kinds ([`rank_mask`]), 0 for a group of wilds only.
    #[inline]
    pub(crate) const fn rank_bits(&self) -> u64 {
        if self.rank == WILD_GROUP {
            0
        } else {
            0xF << (self.rank as u32 * 4)
        }
    }

    /// The kinds of the group's wilds, each once, in kind order: the
    /// suits of its 2s, then the joker if it holds one
    /// (`self.cards().wilds().distinct()`).
    pub(crate) fn wild_kinds(&self) -> CardSet {
        let suits = (SPREAD[self.twos as usize] & 0xF) as u64;
        CardSet::from_raw_unchecked(suits, 0, (self.jokers > 0) as u8)
    }

    /// Whether the group stays legal with one more card (D-9.1, D-9.2), a
    /// wild or a natural of its rank, one the group accepts and holds
    /// fewer than two of (any card in a hand): [`Group::add`] then
    /// [`Group::is_legal`], by the counts.
    pub(crate) const fn fits_one_more(&self, wild: bool) -> bool {
        let (n, w) = (self.naturals(), self.wilds());
        if self.rank == WILD_GROUP {
            // Only wilds are accepted; a natural would leave it as it is.
            let w = if wild { w + 1 } else { w };
            self.naturals == 0 && w >= 3 && w <= 7
        } else if wild {
            legal_natural_counts(n, w + 1)
        } else {
            legal_natural_counts(n + 1, w)
        }
    }

    /// Whether one of the group's wilds may leave it as far as the group
    /// itself goes, for a group holding a wild: a group of three wilds
    /// only is broken up (D-11.3); otherwise a canasta stays one (I-13),
    /// but for a group of wilds only, and the group stays legal (D-11.2).
    pub(crate) const fn may_lose_a_wild(&self) -> bool {
        let (n, w) = (self.naturals(), self.wilds());
        let wild_only = self.rank == WILD_GROUP;
        if w == 0 {
            return false;
        }
        if wild_only && n + w < 7 && w == 3 {
            return true;
        }
        if n + w == 7 && !wild_only {
            // A canasta of seven that would lose its canasta.
            return false;
        }
        if wild_only {
            // Three to seven wilds left.
            self.naturals == 0 && w >= 4 && w <= 8
        } else {
            legal_natural_counts(n, w - 1)
        }
    }

    /// One 2 of the group (the lowest suit), if any.
    pub fn some_two(&self) -> Option<Card> {
        (0..4u8)
            .find(|s| field_get(self.twos, *s) > 0)
            .map(|s| Card::new(Rank::Two, Suit::from_index(s)))
    }

    /// Whether the group is legal (D-9.1, D-9.2).
    pub const fn is_legal(&self) -> bool {
        if self.rank == WILD_GROUP {
            let w = self.wilds();
            self.naturals == 0 && w >= 3 && w <= 7
        } else {
            legal_natural_counts(self.naturals(), self.wilds())
        }
    }

    /// Whether the group is a canasta (7 or 8 cards, D-10).
    pub const fn is_canasta(&self) -> bool {
        self.len() >= 7
    }

    /// The canasta kind, if the group is one (D-10).
    pub const fn canasta_kind(&self) -> Option<CanastaKind> {
        let n = self.len();
        if n < 7 {
            return None;
        }
        if self.rank == WILD_GROUP {
            if self.twos() == 0 || self.jokers == 0 {
                Some(CanastaKind::RedWild)
            } else {
                Some(CanastaKind::BlackWild)
            }
        } else if n == 8 {
            Some(CanastaKind::Gold)
        } else if self.wilds() == 0 {
            Some(CanastaKind::Red)
        } else {
            Some(CanastaKind::Black)
        }
    }

    /// Card value of the group (D-14): every card plus.
    pub const fn points(&self) -> i32 {
        let nat = if self.rank == WILD_GROUP {
            0
        } else {
            self.naturals() as i32 * Rank::from_index(self.rank).points()
        };
        nat + self.twos() as i32 * 20 + self.jokers as i32 * 50
    }

    /// Value towards the opening minimum (D-8.2): a wild counts as the rank
    /// it stands for; in a group of wilds only, each counts as a 2 (20).
    pub const fn opening_value(&self) -> i32 {
        if self.rank == WILD_GROUP {
            self.wilds() as i32 * 20
        } else {
            self.len() as i32 * Rank::from_index(self.rank).points()
        }
    }

    /// Whether the group is a wild canasta (7 wilds).
    pub const fn is_wild_canasta(&self) -> bool {
        self.rank == WILD_GROUP && self.wilds() >= 7
    }

    /// Whether the group is a black canasta (7 cards with wilds, naturals of one rank).
    pub const fn is_black_canasta(&self) -> bool {
        self.rank != WILD_GROUP && self.len() == 7 && self.wilds() > 0
    }
}

/// What the meld candidates ask of a group, by its counts alone
/// ([`Group::step_facts`]): bits [`FACT_BLACK`], [`FACT_FITS_NATURAL`],
/// [`FACT_FITS_WILD`], [`FACT_LOSES_WILD`], [`FACT_WILD_CANASTA`].
pub(crate) const FACT_BLACK: u8 = 1;
/// [`Group::fits_one_more`] of a natural.
pub(crate) const FACT_FITS_NATURAL: u8 = 2;
/// [`Group::fits_one_more`] of a wild.
pub(crate) const FACT_FITS_WILD: u8 = 4;
/// [`Group::may_lose_a_wild`].
pub(crate) const FACT_LOSES_WILD: u8 = 8;
/// [`Group::is_wild_canasta`].
pub(crate) const FACT_WILD_CANASTA: u8 = 16;

/// [`Group::step_facts`] of every group shape, at index
/// `wild_only << 9 | naturals << 5 | wilds` (naturals 0 to 8, wilds 0 to
/// 16; the rest unused, so the index needs no bounds check). Each entry
/// is the predicates' answer for a group of those counts (they read
/// nothing else), computed once here instead of on every listing.
static STEP_FACTS: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut wild_only = 0;
    while wild_only < 2 {
        let mut n = 0;
        while n < 9 {
            let mut w = 0;
            while w < 17 {
                // Naturals two a suit, wilds as 2s (two a suit) then jokers.
                let twos = if w < 8 { w } else { 8 };
                let g = Group {
                    rank: if wild_only == 1 { WILD_GROUP } else { 4 },
                    naturals: spread_count(n as u32),
                    twos: spread_count(twos as u32),
                    jokers: (w - twos) as u8,
                    flags: 0,
                };
                let mut f = 0;
                if g.is_black_canasta() {
                    f |= FACT_BLACK;
                }
                if g.fits_one_more(false) {
                    f |= FACT_FITS_NATURAL;
                }
                if g.fits_one_more(true) {
                    f |= FACT_FITS_WILD;
                }
                if g.may_lose_a_wild() {
                    f |= FACT_LOSES_WILD;
                }
                if g.is_wild_canasta() {
                    f |= FACT_WILD_CANASTA;
                }
                t[wild_only << 9 | n << 5 | w] = f;
                w += 1;
            }
            n += 1;
        }
        wild_only += 1;
    }
    t
};

/// A suit field (two bits a suit) holding `n` cards, `n` at most 8.
const fn spread_count(n: u32) -> u8 {
    let mut field = 0u8;
    let mut left = n;
    let mut suit = 0;
    while suit < 4 {
        let c = if left >= 2 { 2 } else { left };
        field |= (c as u8) << (suit * 2);
        left -= c;
        suit += 1;
    }
    field
}

impl Group {
    /// The facts of [`STEP_FACTS`] for this group: whether it is a black
    /// canasta or a wild canasta, takes one more natural or wild, may
    /// lose a wild. One lookup where the meld candidates would otherwise
    /// count the group's cards for each question.
    #[inline]
    pub(crate) fn step_facts(&self) -> u8 {
        let wild_only = (self.rank == WILD_GROUP) as usize;
        let n = self.naturals() as usize;
        let w = self.wilds() as usize;
        debug_assert!(n <= 8 && w <= 16);
        let f = STEP_FACTS[(wild_only << 9 | n << 5 | w) & 1023];
        debug_assert_eq!(f & FACT_BLACK != 0, self.is_black_canasta());
        debug_assert_eq!(f & FACT_FITS_NATURAL != 0, self.fits_one_more(false));
        debug_assert_eq!(f & FACT_FITS_WILD != 0, self.fits_one_more(true));
        debug_assert_eq!(f & FACT_LOSES_WILD != 0, self.may_lose_a_wild(), "{self:?}");
        debug_assert_eq!(f & FACT_WILD_CANASTA != 0, self.is_wild_canasta());
        f
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cards())
    }
}

impl fmt::Debug for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Group[{}]", self.cards())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Group {
        Group::from_cards(CardSet::parse(s).unwrap()).unwrap()
    }

    /// A group's cards are exactly the cards it was built from, every
    /// rank, suit and number of copies; its wild kinds are those of its
    /// wilds.
    #[test]
    fn cards_round_trip() {
        for r in Rank::NATURALS {
            for nat in 0..=255u32 {
                let mut s = CardSet::EMPTY;
                for suit in 0..4u8 {
                    for _ in 0..(nat >> (suit * 2)) & 3 {
                        s.insert(Card::new(r, Suit::from_index(suit)));
                    }
                }
                for (i, w) in ["2C", "2D", "2H", "2S", "JK", "JK", "JK"]
                    .iter()
                    .enumerate()
                {
                    if nat.rotate_right(i as u32) & 1 == 1 {
                        s.insert(w.parse().unwrap());
                    }
                }
                let grp = Group::from_cards(s).unwrap();
                assert_eq!(grp.cards(), s, "{r:?} [{s}]");
                assert_eq!(grp.wild_kinds(), s.wilds().distinct(), "{r:?} [{s}]");
                assert_eq!(Group::from_cards(s.wilds()).unwrap().cards(), s.wilds());
            }
        }
    }

    /// D-9.1: 3–8 cards, wilds strictly fewer than naturals, none in 8.
    #[test]
    fn d9_1_group_limits() {
        assert!(g("8C 8D 8S").is_legal());
        assert!(g("8C 8D 2S").is_legal());
        assert!(
            !g("8C 2D 2S").is_legal(),
            "wilds must be fewer than naturals"
        );
        assert!(!g("8C 8D").is_legal(), "at least 3 cards");
        assert!(!g("8C 8D 2S JK").is_legal(), "4 cards hold at most 1 wild");
        assert!(g("8C 8D 8S 2S JK").is_legal(), "5 cards hold 2 wilds");
        assert!(g("8C 8D 8S 8H 2S JK JK").is_legal(), "7 cards hold 3 wilds");
        assert!(
            !g("8C 8D 8S 8H 8C 2S JK JK").is_legal(),
            "8 cards hold no wild"
        );
        assert!(g("8C 8D 8S 8H 8C 8D 8S 8H").is_legal());
        assert!(
            Group::from_cards(CardSet::parse("8C 9C 9D").unwrap()).is_none(),
            "one rank"
        );
        assert!(
            Group::from_cards(CardSet::parse("3S 3C 3S").unwrap()).is_none(),
            "D-9.3"
        );
        for n in 0..=8 {
            for w in 0..=8 {
                let legal = legal_natural_counts(n, w);
                assert_eq!(
                    legal,
                    n + w >= 3 && w <= max_wilds(n) && n + w <= 8,
                    "{n}+{w}"
                );
            }
        }
    }

    /// D-9.2: wilds only, 3 to 7.
    #[test]
    fn d9_2_wild_groups() {
        assert!(g("2C JK JK").is_legal());
        assert!(!g("2C JK").is_legal());
        assert!(g("2C 2C 2D 2D 2H JK JK").is_legal());
        assert!(!g("2C 2C 2D 2D 2H JK JK JK").is_legal(), "at most 7");
    }

    /// D-10: the five canasta kinds.
    #[test]
    fn d10_canasta_kinds() {
        assert_eq!(
            g("8C 8D 8S 8H 2S JK JK").canasta_kind(),
            Some(CanastaKind::Black)
        );
        assert_eq!(
            g("8C 8D 8S 8H 8C 8D 8S").canasta_kind(),
            Some(CanastaKind::Red)
        );
        assert_eq!(
            g("8C 8D 8S 8H 8C 8D 8S 8H").canasta_kind(),
            Some(CanastaKind::Gold)
        );
        assert_eq!(
            g("2C 2C 2D JK JK JK JK").canasta_kind(),
            Some(CanastaKind::BlackWild)
        );
        assert_eq!(
            g("2C 2C 2D 2D 2H 2H 2S").canasta_kind(),
            Some(CanastaKind::RedWild)
        );
        assert_eq!(
            g("JK JK JK JK JK JK JK").canasta_kind(),
            Some(CanastaKind::RedWild)
        );
        assert_eq!(g("8C 8D 8S 8H 2S JK").canasta_kind(), None);
        assert_eq!(CanastaKind::Gold.bonus(), 600);
    }

    /// D-8.2: wilds count as the rank they stand for; wild groups 20 each.
    #[test]
    fn d8_2_opening_values() {
        assert_eq!(g("KC KD 2S").opening_value(), 30);
        assert_eq!(g("AC AD JK").opening_value(), 60);
        assert_eq!(g("5C 5D 2S").opening_value(), 15);
        assert_eq!(g("2C JK JK").opening_value(), 60);
        assert_eq!(g("KC KD 2S").points(), 40);
    }

    #[test]
    fn exact_cards_round_trip() {
        let s = CardSet::parse("AH AH AS 2C 2C JK").unwrap();
        let grp = Group::from_cards(s).unwrap();
        assert_eq!(grp.cards(), s);
        let mut h = grp;
        assert!(h.remove("2C".parse().unwrap()));
        assert!(!h.remove("2D".parse().unwrap()));
        assert_eq!(h.count("AH".parse().unwrap()), 2);
    }
}
