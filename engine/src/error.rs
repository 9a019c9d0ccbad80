//! [`RuleError`]: why an action is refused, naming the rule it breaks;
//! [`InvariantError`]: which invariant of a state is broken.

use crate::card_set::CardSet;
use crate::group::Group;
use crate::rules::Family;
use std::borrow::Cow;
use std::fmt;

/// An illegal action or an impossible position: the rule identifier of
/// RULES.md (`D-6.3`, `I-9`, …) and a sentence saying what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleError {
    /// Rule identifier, e.g. `D-6.3`.
    pub rule: &'static str,
    /// What was wrong (empty for refusals found by legality probes, which
    /// skip formatting so that listing legal actions does not allocate).
    pub message: Cow<'static, str>,
}

impl RuleError {
    /// A new error.
    pub fn new(rule: &'static str, message: impl Into<Cow<'static, str>>) -> RuleError {
        RuleError {
            rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

impl std::error::Error for RuleError {}

/// Shorthand for `Err(RuleError::new(..))`. Cold and never inlined, as
/// the refusals below: the checks of the hot paths (the listing tries
/// every candidate step) keep only a call on their refusing branches.
#[cold]
#[inline(never)]
pub(crate) fn refuse<T>(rule: &'static str, message: &'static str) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}

/// A refusal without its message ([`refuse_fmt!`] when quiet).
#[cold]
#[inline(never)]
pub(crate) fn refuse_quiet<T>(rule: &'static str) -> Result<T, RuleError> {
    Err(RuleError::new(rule, ""))
}

/// A refusal with its message formatted ([`refuse_fmt!`] when not quiet).
#[cold]
#[inline(never)]
pub(crate) fn refuse_args<T>(
    rule: &'static str,
    args: std::fmt::Arguments<'_>,
) -> Result<T, RuleError> {
    Err(RuleError::new(rule, std::fmt::format(args)))
}

/// `Err(RuleError)` with a formatted message, formatted only when `quiet` is
/// false (the arguments are not even evaluated then).
#[macro_export]
#[doc(hidden)]
macro_rules! refuse_fmt {
    ($quiet:expr, $rule:expr, $($arg:tt)*) => {
        if $quiet {
            $crate::error::refuse_quiet($rule)
        } else {
            $crate::error::refuse_args($rule, format_args!($($arg)*))
        }
    };
}

/// A broken invariant of a state ([`crate::Game::check_invariants`]): which
/// one, and where. The classic variants name their rule (`C-4`, …) in the
/// message, the decorated ones theirs (`D-9`, `D-4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvariantError {
    /// A card appears more often than the pack holds.
    TooManyCopies,
    /// Decorated: the zones do not hold the 112 cards of the pack; `found`
    /// is what they hold.
    Conservation {
        /// The cards found in all zones.
        found: CardSet,
    },
    /// Classic (C-1): the zones do not hold the pack.
    ClassicPack {
        /// How many cards the zones hold.
        cards: u32,
        /// How many the pack holds.
        pack: usize,
    },
    /// Decorated (D-9): an illegal group on a table.
    IllegalGroup {
        /// The player whose table holds it.
        player: usize,
        /// Its index on the table.
        index: usize,
        /// The group.
        group: Group,
    },
    /// A player's known cards are not all in his hand.
    KnownNotInHand {
        /// The player.
        player: usize,
        /// The family of the state (the two word it differently).
        family: Family,
    },
    /// Decorated (D-4): a red three in a hand.
    RedThreeInHand {
        /// The player.
        player: usize,
    },
    /// Classic (C-4): an illegal meld of a natural rank.
    IllegalMeld {
        /// The side whose table holds it.
        side: usize,
        /// The meld.
        meld: CardSet,
    },
    /// Classic (C-16): an illegal black-three meld.
    IllegalBlackThrees {
        /// The side whose table holds it.
        side: usize,
        /// The meld.
        meld: CardSet,
    },
    /// Classic (C-21): a wild canasta not of seven wild cards.
    IllegalWildCanasta {
        /// The side whose table holds it.
        side: usize,
        /// The meld.
        meld: CardSet,
    },
    /// Classic (C-8): laid red threes that are not all red threes.
    LaidRedThrees {
        /// The side whose table holds them.
        side: usize,
        /// The cards.
        cards: CardSet,
    },
    /// Classic (C-22): a red three in a hand at the end of the hand.
    RedThreeAtEnd {
        /// The player.
        player: usize,
    },
    /// Classic (C-8): the mover holds a red three.
    MoverRedThree {
        /// The mover.
        player: usize,
    },
    /// Classic: the hand is over but has no end.
    OverWithoutEnd,
}

impl InvariantError {
    /// The rule of RULES.md the invariant comes from, when one does.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            InvariantError::ClassicPack { .. } => Some("C-1"),
            InvariantError::IllegalGroup { .. } => Some("D-9"),
            InvariantError::RedThreeInHand { .. } => Some("D-4"),
            InvariantError::IllegalMeld { .. } => Some("C-4"),
            InvariantError::IllegalBlackThrees { .. } => Some("C-16"),
            InvariantError::IllegalWildCanasta { .. } => Some("C-21"),
            InvariantError::LaidRedThrees { .. } | InvariantError::MoverRedThree { .. } => {
                Some("C-8")
            }
            InvariantError::RedThreeAtEnd { .. } => Some("C-22"),
            InvariantError::TooManyCopies
            | InvariantError::Conservation { .. }
            | InvariantError::KnownNotInHand { .. }
            | InvariantError::OverWithoutEnd => None,
        }
    }
}

impl fmt::Display for InvariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InvariantError::TooManyCopies => {
                f.write_str("a card appears more often than the pack holds")
            }
            InvariantError::Conservation { found } => write!(
                f,
                "card conservation broken: {} cards, missing [{}], extra [{}]",
                found.len(),
                CardSet::FULL_PACK
                    .checked_sub(found)
                    .map(|d| d.to_string())
                    .unwrap_or_default(),
                found
                    .checked_sub(CardSet::FULL_PACK)
                    .map(|d| d.to_string())
                    .unwrap_or_default()
            ),
            InvariantError::ClassicPack { cards, pack } => {
                write!(f, "C-1: {cards} cards where the pack holds {pack}")
            }
            InvariantError::IllegalGroup {
                player,
                index,
                group,
            } => write!(f, "player {player} group {index} [{group}] is illegal (D-9)"),
            InvariantError::KnownNotInHand {
                player,
                family: Family::Decorated,
            } => write!(f, "player {player}: known cards not in hand"),
            InvariantError::KnownNotInHand {
                player,
                family: Family::Classic,
            } => write!(f, "player {player}'s known cards are not in his hand"),
            InvariantError::RedThreeInHand { player } => {
                write!(f, "player {player} holds a red three (D-4)")
            }
            InvariantError::IllegalMeld { side, meld } => {
                write!(f, "C-4: side {side} holds the meld {meld:?}")
            }
            InvariantError::IllegalBlackThrees { side, meld } => {
                write!(f, "C-16: side {side} holds the black-three meld {meld:?}")
            }
            InvariantError::IllegalWildCanasta { side, meld } => {
                write!(f, "C-21: side {side} holds the wild canasta {meld:?}")
            }
            InvariantError::LaidRedThrees { side, cards } => {
                write!(f, "C-8: side {side}'s red threes {cards:?}")
            }
            InvariantError::RedThreeAtEnd { player } => write!(
                f,
                "C-22: player {player} holds a red three at the end of the hand (dealt red threes score as laid)"
            ),
            InvariantError::MoverRedThree { player } => {
                write!(f, "C-8: the mover {player} holds a red three")
            }
            InvariantError::OverWithoutEnd => f.write_str("a hand over without an end"),
        }
    }
}

impl std::error::Error for InvariantError {}
