//! Cards, ranks and suits, and their text notation (D-1).
//!
//! Notation: a rank character followed by a suit character, or `JK` for a
//! joker. Ranks: `2 3 4 5 6 7 8 9 T J Q K A` (`10` is accepted for `T`).
//! Suits: `C` clubs, `D` diamonds, `H` hearts, `S` spades (lower case is
//! accepted). Examples: `8D`, `TS`, `AH`, `2C`, `JK`.

use std::fmt;
use std::str::FromStr;

/// A card suit. Suits matter only for the colour of threes (D-1.3), twins
/// (D-7) and heart aces (D-9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0..4).
    pub const fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// Red suits (hearts, diamonds).
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// The notation character.
    pub const fn char(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }
}

/// A card rank, `Two` to `Ace`. Jokers have no rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2: a small wild (D-1.2).
    Two = 0,
    /// 3: red threes are bonus cards, black threes are never melded (D-1.3).
    Three = 1,
    /// 4
    Four = 2,
    /// 5
    Five = 3,
    /// 6
    Six = 4,
    /// 7
    Seven = 5,
    /// 8
    Eight = 6,
    /// 9
    Nine = 7,
    /// 10
    Ten = 8,
    /// J
    Jack = 9,
    /// Q
    Queen = 10,
    /// K
    King = 11,
    /// A
    Ace = 12,
}

impl Rank {
    /// All ranks in index order.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The natural ranks 4–A, the only ranks a group can be of (D-1.2, D-9.1).
    pub const NATURALS: [Rank; 11] = [
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0..13); panics on anything else.
    pub const fn from_index(i: u8) -> Rank {
        Rank::ALL[i as usize]
    }

    /// Whether the rank is natural (4–A).
    pub const fn is_natural(self) -> bool {
        self as u8 >= Rank::Four as u8
    }

    /// Card value of a natural card or a 2 (D-14): 4–7 → 5, 8–K → 10, A and 2 → 20.
    /// Threes have no card value of their own here (see [`Card::points`]).
    pub const fn points(self) -> i32 {
        match self {
            Rank::Two | Rank::Ace => 20,
            Rank::Three => 0,
            Rank::Four | Rank::Five | Rank::Six | Rank::Seven => 5,
            _ => 10,
        }
    }

    /// The notation character.
    pub const fn char(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }
}

/// One card: a suited card (rank and suit) or a joker. Two physically
/// identical copies of every suited card exist (D-1.1); a `Card` names the
/// kind, not the copy.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The joker (a "big wild").
    pub const JOKER: Card = Card(52);
    /// Number of distinct card kinds: 52 suited plus the joker.
    pub const KINDS: usize = 53;

    /// A suited card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card of kind index `i` (0..53); `None` outside.
    pub const fn from_index(i: u8) -> Option<Card> {
        if i <= 52 {
            Some(Card(i))
        } else {
            None
        }
    }

    /// The card of kind index `i`, known to be below 53.
    pub(crate) const fn of_index(i: u8) -> Card {
        debug_assert!(i <= 52);
        Card(i)
    }

    /// Kind index: `rank * 4 + suit` for suited cards, 52 for the joker.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether the card is a joker.
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The rank, `None` for a joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank::from_index(self.0 / 4))
        }
    }

    /// The suit, `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0 & 3))
        }
    }

    /// A wild: a joker or a 2 (D-1.2).
    pub const fn is_wild(self) -> bool {
        self.0 == 52 || self.0 < 4
    }

    /// A natural card 4–A (D-1.2).
    pub const fn is_natural(self) -> bool {
        self.0 >= 8 && self.0 < 52
    }

    /// ♥3 or ♦3 (D-1.3).
    pub const fn is_red_three(self) -> bool {
        self.0 == 5 || self.0 == 6
    }

    /// ♠3 or ♣3 (D-1.3).
    pub const fn is_black_three(self) -> bool {
        self.0 == 4 || self.0 == 7
    }

    /// The ♥A, which may be laid separately in `decorated-2003-02` (D-9.4).
    pub const fn is_heart_ace(self) -> bool {
        self.0 == Card::HEART_ACE.0
    }

    /// ♥A.
    pub const HEART_ACE: Card = Card::new(Rank::Ace, Suit::Hearts);

    /// Card value when melded, or minus when left in hand (D-14): 4–7 → 5,
    /// 8–K → 10, A and 2 → 20, joker → 50, black three → 100 (counted minus,
    /// since it is only ever in hand; I-16), red three → 0 (base only).
    pub const fn points(self) -> i32 {
        if self.is_joker() {
            50
        } else if self.is_black_three() {
            100
        } else {
            Rank::from_index(self.0 / 4).points()
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            f.write_str("JK")
        } else {
            let r = Rank::from_index(self.0 / 4);
            let s = Suit::from_index(self.0 & 3);
            write!(f, "{}{}", r.char(), s.char())
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for card notation that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCardError(pub String);

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad card `{}`: expected a rank (2-9, T or 10, J, Q, K, A) and a suit (C, D, H, S), e.g. 8D, TS, AH, 2C, or JK for a joker",
            self.0
        )
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let t = s.trim();
        let up = t.to_ascii_uppercase();
        if up == "JK" || up == "JOKER" || up == "*" {
            return Ok(Card::JOKER);
        }
        let err = || ParseCardError(t.to_string());
        // The suit is the last character (any character: a card typed with
        // a suit symbol is refused, not cut inside the symbol).
        let (rank_part, suit_part) = match up.char_indices().last() {
            Some((i, _)) if i > 0 => up.split_at(i),
            _ => return Err(err()),
        };
        let rank = match rank_part {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return Err(err()),
        };
        let suit = match suit_part {
            "C" => Suit::Clubs,
            "D" => Suit::Diamonds,
            "H" => Suit::Hearts,
            "S" => Suit::Spades,
            _ => return Err(err()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_kind() {
        for i in 0..53u8 {
            let c = Card::from_index(i).unwrap();
            let s = c.to_string();
            assert_eq!(s.parse::<Card>().unwrap(), c, "{s}");
        }
        assert_eq!("10s".parse::<Card>().unwrap(), "TS".parse().unwrap());
        assert!("1S".parse::<Card>().is_err());
        assert!("8X".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
    }

    /// A card whose text ends in a character of several bytes (a suit
    /// symbol, any letter) is refused, never cut inside the character:
    /// found by the position fuzz test.
    #[test]
    fn cards_with_symbols_are_refused() {
        for t in ["8♥", "K♠", "10♦", "𐌕", "é", "AÉ", "=𛇘B𑅞🢹𐌕"] {
            let e = t.parse::<Card>().unwrap_err();
            assert!(e.to_string().contains(t.trim()), "{e}");
        }
    }

    /// D-1.2, D-1.3: wilds, naturals and threes.
    #[test]
    fn d1_card_classes() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        assert!(c("JK").is_wild() && c("2H").is_wild());
        assert!(!c("3S").is_wild() && !c("3S").is_natural());
        assert!(c("3H").is_red_three() && c("3D").is_red_three());
        assert!(c("3S").is_black_three() && c("3C").is_black_three());
        assert!(c("4C").is_natural() && c("AS").is_natural());
        assert!(c("AH").is_heart_ace() && !c("AD").is_heart_ace());
    }

    /// D-14 card values, I-16 black three.
    #[test]
    fn d14_card_points() {
        let p = |s: &str| s.parse::<Card>().unwrap().points();
        assert_eq!(p("4C"), 5);
        assert_eq!(p("7D"), 5);
        assert_eq!(p("8D"), 10);
        assert_eq!(p("KH"), 10);
        assert_eq!(p("AS"), 20);
        assert_eq!(p("2C"), 20);
        assert_eq!(p("JK"), 50);
        assert_eq!(p("3S"), 100);
    }
}
