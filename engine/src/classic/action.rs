//! [`Kind`]: a card as classic canasta tells cards apart (suits matter only
//! for the colour of threes), and [`ClassicAction`]: every decision, naming
//! kinds and counts rather than suited cards, so that the listing holds
//! each distinct decision once.

use crate::card::{Card, Rank, Suit};
use crate::card_set::CardSet;
use std::fmt;
use std::str::FromStr;

/// A card kind of classic canasta: a natural rank 4–A, a black three, a 2
/// or a joker (red threes never stay in a hand, C-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kind(u8);

impl Kind {
    /// Black three.
    pub const BLACK_THREE: Kind = Kind(11);
    /// A 2 of any suit.
    pub const TWO: Kind = Kind(12);
    /// A joker.
    pub const JOKER: Kind = Kind(13);
    /// Number of kinds.
    pub const COUNT: usize = 14;

    /// All kinds in index order.
    pub const ALL: [Kind; 14] = [
        Kind(0),
        Kind(1),
        Kind(2),
        Kind(3),
        Kind(4),
        Kind(5),
        Kind(6),
        Kind(7),
        Kind(8),
        Kind(9),
        Kind(10),
        Kind(11),
        Kind(12),
        Kind(13),
    ];

    /// The natural kind of a rank 4–A.
    pub const fn natural(rank: Rank) -> Option<Kind> {
        if rank.is_natural() {
            Some(Kind(rank as u8 - 2))
        } else {
            None
        }
    }

    /// The kind of a card; `None` for a red three.
    pub const fn of(card: Card) -> Option<Kind> {
        if card.is_joker() {
            Some(Kind::JOKER)
        } else if card.is_red_three() {
            None
        } else if card.is_black_three() {
            Some(Kind::BLACK_THREE)
        } else if card.is_wild() {
            Some(Kind::TWO)
        } else {
            Some(Kind(card.index() / 4 - 2))
        }
    }

    /// Index 0..14.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind of index `i`.
    pub const fn from_index(i: usize) -> Kind {
        Kind(i as u8)
    }

    /// The natural rank, `None` for a black three or a wild.
    pub const fn rank(self) -> Option<Rank> {
        if self.0 < 11 {
            Some(Rank::from_index(self.0 + 2))
        } else {
            None
        }
    }

    /// A 2 or a joker.
    pub const fn is_wild(self) -> bool {
        self.0 >= 12
    }

    /// Card value (C-9): joker 50, A and 2 20, K–8 10, 7–4 and a black three 5.
    pub const fn value(self) -> i32 {
        match self.0 {
            13 => 50,
            12 | 10 => 20,
            11 => 5,
            0..=3 => 5,
            _ => 10,
        }
    }

    /// The copies of this kind in `set`.
    pub const fn count_in(self, set: CardSet) -> u32 {
        match self.0 {
            13 => set.jokers(),
            12 => set.rank_count(Rank::Two),
            11 => set.black_three_count(),
            _ => set.rank_count(Rank::from_index(self.0 + 2)),
        }
    }

    /// The cards of this kind in `set`.
    pub fn cards_in(self, set: CardSet) -> CardSet {
        match self.0 {
            13 => {
                let mut s = CardSet::EMPTY;
                for _ in 0..set.jokers() {
                    s.insert(Card::JOKER);
                }
                s
            }
            12 => set.of_rank(Rank::Two),
            11 => {
                let b = set.of_rank(Rank::Three);
                let mut s = CardSet::EMPTY;
                for c in b.iter().filter(|c| c.is_black_three()) {
                    s.insert(c);
                }
                s
            }
            _ => set.of_rank(Rank::from_index(self.0 + 2)),
        }
    }

    /// Moves `n` cards of this kind from `from` to `to` (the lowest suits
    /// first); `false` and no change if `from` holds fewer.
    pub fn move_cards(self, n: u32, from: &mut CardSet, to: &mut CardSet) -> bool {
        if self.count_in(*from) < n {
            return false;
        }
        if n == 0 {
            return true;
        }
        if self.0 == 13 {
            // Jokers are a count: no order among them.
            for _ in 0..n {
                from.remove(Card::JOKER);
                to.insert(Card::JOKER);
            }
            return true;
        }
        let mut left = n;
        for c in self.cards_in(*from).iter() {
            if left == 0 {
                break;
            }
            from.remove(c);
            to.insert(c);
            left -= 1;
        }
        true
    }

    /// A card of this kind (the lowest suit), for display.
    pub const fn card(self) -> Card {
        match self.0 {
            13 => Card::JOKER,
            12 => Card::new(Rank::Two, Suit::Clubs),
            11 => Card::new(Rank::Three, Suit::Clubs),
            _ => Card::new(Rank::from_index(self.0 + 2), Suit::Clubs),
        }
    }

    /// The notation: the rank character, `3` for a black three, `2`, `JK`.
    pub const fn name(self) -> &'static str {
        [
            "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "3", "2", "JK",
        ][self.0 as usize]
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = ParseKindError;
    fn from_str(s: &str) -> Result<Kind, ParseKindError> {
        let u = s.trim().to_ascii_uppercase();
        let u = if u == "10" { "T".to_string() } else { u };
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == u)
            .ok_or_else(|| ParseKindError(s.to_string()))
    }
}

/// Text that is no classic card kind (the text as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseKindError(pub String);

impl fmt::Display for ParseKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad kind `{}`: expected 4-9, T, J, Q, K, A, 3 (a black three), 2 or JK",
            self.0
        )
    }
}

impl std::error::Error for ParseKindError {}

/// Which meld of a side a meld action is about (C-20: one meld per natural
/// rank; black-three melds and wild canastas aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKey {
    /// The side's meld of a natural rank (given by its kind, 4–A).
    Rank(Kind),
    /// The black-three meld of a player going out (C-16).
    BlackThrees,
    /// A wild canasta (C-21).
    Wilds,
}

impl fmt::Display for MeldKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeldKey::Rank(k) => write!(f, "{k}"),
            MeldKey::BlackThrees => f.write_str("3"),
            MeldKey::Wilds => f.write_str("W"),
        }
    }
}

/// Cards of a meld action, by count: naturals of the meld's rank (black
/// threes for a black-three meld), 2s and jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Counts {
    /// Naturals (or black threes).
    pub naturals: u8,
    /// 2s.
    pub twos: u8,
    /// Jokers.
    pub jokers: u8,
}

impl Counts {
    /// All cards.
    pub const fn len(self) -> u32 {
        self.naturals as u32 + self.twos as u32 + self.jokers as u32
    }
    /// No card.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// Wilds.
    pub const fn wilds(self) -> u32 {
        self.twos as u32 + self.jokers as u32
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.naturals, self.twos, self.jokers)
    }
}

/// One decision in classic canasta.
///
/// A turn: (in partnerships, optionally `Ask`, answered by the partner),
/// then `Draw`, `TakePile` or `TakeTurned` (or `EndHand` when the stock
/// is empty), then meld steps, then `Discard` or `End`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicAction {
    /// C-18: "may I go out?", at the start of the turn.
    Ask,
    /// C-18: the partner's answer.
    Answer(bool),
    /// Draw the top card of the stock.
    Draw,
    /// C-22 (004): the first player takes the turned card alone.
    TakeTurned,
    /// C-7, C-13, C-14: take the pile's top card with these hand cards,
    /// laid together into `key` (the side's meld of that rank, new or old).
    /// The rest of the pile follows with [`ClassicAction::TakeRest`].
    TakePile {
        /// The meld the top card goes to.
        key: MeldKey,
        /// The hand cards laid with it.
        with: Counts,
    },
    /// Take the rest of the pile (C-14, C-17).
    TakeRest,
    /// Lay a new meld: three cards of a rank, a black-three meld (C-16),
    /// or a wild canasta (C-21).
    Lay {
        /// Which meld.
        key: MeldKey,
        /// Its cards.
        cards: Counts,
    },
    /// Add one card of `kind` to the side's meld of a rank.
    Extend {
        /// The meld's rank (a natural kind).
        rank: Kind,
        /// The card added: a natural of the rank, a 2 or a joker.
        kind: Kind,
    },
    /// I-25: take a meld laid this turn back into the hand.
    TakeBack {
        /// Which meld.
        key: MeldKey,
    },
    /// I-25: undo the meld phase back to its start.
    Reset,
    /// Discard a card, ending the turn.
    Discard(Kind),
    /// End the turn without a discard: going out with an empty hand (C-10),
    /// or after a red three drawn as the last stock card (C-23).
    End,
    /// C-11, C-23: the stock is empty and the player does not take the
    /// pile: the hand ends.
    EndHand,
}

impl fmt::Display for ClassicAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClassicAction::Ask => f.write_str("ask"),
            ClassicAction::Answer(y) => f.write_str(if y { "yes" } else { "no" }),
            ClassicAction::Draw => f.write_str("draw"),
            ClassicAction::TakeTurned => f.write_str("turned"),
            ClassicAction::TakePile { key, with } => write!(f, "take {key} {with}"),
            ClassicAction::TakeRest => f.write_str("rest"),
            ClassicAction::Lay { key, cards } => write!(f, "lay {key} {cards}"),
            ClassicAction::Extend { rank, kind } => write!(f, "extend {rank} {kind}"),
            ClassicAction::TakeBack { key } => write!(f, "takeback {key}"),
            ClassicAction::Reset => f.write_str("reset"),
            ClassicAction::Discard(k) => write!(f, "discard {k}"),
            ClassicAction::End => f.write_str("end"),
            ClassicAction::EndHand => f.write_str("endhand"),
        }
    }
}

/// The meld key `w`; `bad` makes the error of the whole action text.
fn parse_key(
    w: &str,
    bad: &dyn Fn(String) -> ParseClassicActionError,
) -> Result<MeldKey, ParseClassicActionError> {
    match w {
        "3" => Ok(MeldKey::BlackThrees),
        "W" | "w" => Ok(MeldKey::Wilds),
        _ => {
            let k: Kind = w.parse().map_err(|e: ParseKindError| bad(e.to_string()))?;
            if k.rank().is_some() {
                Ok(MeldKey::Rank(k))
            } else {
                Err(bad(format!("bad meld `{w}`: expected a rank 4-A, 3 or W")))
            }
        }
    }
}

/// Why action text ([`ClassicAction`]'s `FromStr`) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseClassicActionError {
    /// The text, trimmed.
    pub action: String,
    /// What was wrong with it.
    pub reason: String,
}

impl fmt::Display for ParseClassicActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad action `{}`: {}; actions are: ask, yes, no, draw, turned, take KEY N T J, rest, lay KEY N T J, extend RANK KIND, takeback KEY, reset, discard KIND, end, endhand",
            self.action, self.reason
        )
    }
}

impl std::error::Error for ParseClassicActionError {}

impl FromStr for ClassicAction {
    type Err = ParseClassicActionError;

    fn from_str(s: &str) -> Result<ClassicAction, ParseClassicActionError> {
        let w: Vec<&str> = s.split_whitespace().collect();
        let bad = |why: String| ParseClassicActionError {
            action: s.trim().to_string(),
            reason: why,
        };
        let counts = |a: &[&str]| -> Result<Counts, ParseClassicActionError> {
            if a.len() != 3 {
                return Err(bad("expected three counts: naturals, 2s, jokers".into()));
            }
            let n = |x: &str| x.parse::<u8>().map_err(|_| bad(format!("bad count `{x}`")));
            Ok(Counts {
                naturals: n(a[0])?,
                twos: n(a[1])?,
                jokers: n(a[2])?,
            })
        };
        let one = |n: usize| {
            if w.len() == n {
                Ok(())
            } else {
                Err(bad(format!("expected {n} word(s)")))
            }
        };
        match w.first().copied() {
            Some("ask") => one(1).map(|_| ClassicAction::Ask),
            Some("yes") => one(1).map(|_| ClassicAction::Answer(true)),
            Some("no") => one(1).map(|_| ClassicAction::Answer(false)),
            Some("draw") => one(1).map(|_| ClassicAction::Draw),
            Some("turned") => one(1).map(|_| ClassicAction::TakeTurned),
            Some("rest") => one(1).map(|_| ClassicAction::TakeRest),
            Some("reset") => one(1).map(|_| ClassicAction::Reset),
            Some("end") => one(1).map(|_| ClassicAction::End),
            Some("endhand") => one(1).map(|_| ClassicAction::EndHand),
            Some("take") => {
                one(5)?;
                Ok(ClassicAction::TakePile {
                    key: parse_key(w[1], &bad)?,
                    with: counts(&w[2..])?,
                })
            }
            Some("lay") => {
                one(5)?;
                Ok(ClassicAction::Lay {
                    key: parse_key(w[1], &bad)?,
                    cards: counts(&w[2..])?,
                })
            }
            Some("extend") => {
                one(3)?;
                let rank: Kind = w[1]
                    .parse()
                    .map_err(|e: ParseKindError| bad(e.to_string()))?;
                if rank.rank().is_none() {
                    return Err(bad("a meld to extend is of a rank 4-A".into()));
                }
                Ok(ClassicAction::Extend {
                    rank,
                    kind: w[2]
                        .parse()
                        .map_err(|e: ParseKindError| bad(e.to_string()))?,
                })
            }
            Some("takeback") => {
                one(2)?;
                Ok(ClassicAction::TakeBack {
                    key: parse_key(w[1], &bad)?,
                })
            }
            Some("discard") => {
                one(2)?;
                Ok(ClassicAction::Discard(
                    w[1].parse()
                        .map_err(|e: ParseKindError| bad(e.to_string()))?,
                ))
            }
            _ => Err(bad("unknown action".into())),
        }
    }
}
