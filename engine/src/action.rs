//! [`Action`]: every decision a player makes, in a compact value with a text
//! notation (`draw`, `lay 8D 8S 2C`, `extend 0 8H`, `discard 3S`, …).

use crate::card::Card;
use crate::card_set::CardSet;
use std::fmt;
use std::str::FromStr;

/// One decision of the player to move.
///
/// A turn is `Draw` / `FreePickup` / `TakePile`, then any number of meld
/// actions, then `Discard`. Group indices refer to the mover's own table in
/// the order its groups were laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// D-3.1: the starter keeps the shown cut cards whose bit is set in `mask`
    /// (bit 0 = first shown card).
    KeepCut {
        /// Bits 0–2: keep shown card 0, 1, 2.
        mask: u8,
    },
    /// D-5.1 step 1: draw the top card of the stock.
    Draw,
    /// D-6.1: the free pickup of the previous player's first eligible discard.
    FreePickup,
    /// D-6.2 step 1: the penalized pickup; takes the top card, which must then
    /// be laid in a group before [`Action::TakeRest`].
    TakePile,
    /// D-6.2 step 3: take the rest of the pile (compulsory after the top card
    /// is laid).
    TakeRest,
    /// Lay a new group (D-9) from these cards of the hand. Wilds just taken out
    /// of a group ([`Action::TakeWild`], [`Action::Swap`], [`Action::Convert`])
    /// are used before the hand's (D-11.2).
    Lay {
        /// The group's cards.
        cards: CardSet,
    },
    /// D-11.1: add one card to group `group` (a wild just taken out of
    /// another group is placed this way too).
    Extend {
        /// Index of the group on the mover's table.
        group: u8,
        /// The card.
        card: Card,
    },
    /// D-11.2 / D-11.3: take a wild out of group `group`; it must go at once
    /// into another group (the next actions place it).
    TakeWild {
        /// Index of the group.
        group: u8,
        /// The wild (a 2 of a suit, or `JK`).
        wild: Card,
    },
    /// I-13 `swap`: add a natural from hand to a black canasta and take out a
    /// wild at the same time; the wild must then be placed.
    Swap {
        /// Index of the black canasta.
        group: u8,
        /// The natural added.
        natural: Card,
        /// The wild taken out.
        wild: Card,
    },
    /// I-13 `convert_only`: add naturals to a black canasta and take all its
    /// wilds out at once, making it red or gold; the wilds must then be placed.
    Convert {
        /// Index of the black canasta.
        group: u8,
        /// The naturals added.
        naturals: CardSet,
    },
    /// D-11.5: take a group laid this turn back into the hand.
    TakeBack {
        /// Index of the group.
        group: u8,
    },
    /// D-9.4 (`decorated-2003-02`): lay a ♥A separately.
    LayHeartAce,
    /// D-11.5: take a ♥A laid separately this turn back into the hand.
    TakeBackHeartAce,
    /// I-25, I-9: undo this meld phase back to its start (after the draw or
    /// pickup, or after the rest of the pile was taken). The phase is judged
    /// on its final state, so this reaches nothing new; it means no turn is
    /// ever stuck.
    Reset,
    /// D-5.1 step 3: discard a card; an empty hand afterwards goes out (D-13).
    Discard(Card),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::KeepCut { mask } => {
                write!(f, "keep {}{}{}", mask & 1, (mask >> 1) & 1, (mask >> 2) & 1)
            }
            Action::Draw => f.write_str("draw"),
            Action::FreePickup => f.write_str("free"),
            Action::TakePile => f.write_str("take"),
            Action::TakeRest => f.write_str("rest"),
            Action::Lay { cards } => write!(f, "lay {cards}"),
            Action::Extend { group, card } => write!(f, "extend {group} {card}"),
            Action::TakeWild { group, wild } => write!(f, "unwild {group} {wild}"),
            Action::Swap {
                group,
                natural,
                wild,
            } => write!(f, "swap {group} {natural} {wild}"),
            Action::Convert { group, naturals } => write!(f, "convert {group} {naturals}"),
            Action::TakeBack { group } => write!(f, "takeback {group}"),
            Action::LayHeartAce => f.write_str("heart"),
            Action::TakeBackHeartAce => f.write_str("takeback heart"),
            Action::Reset => f.write_str("reset"),
            Action::Discard(c) => write!(f, "discard {c}"),
        }
    }
}

/// Error for action notation that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError(pub String);

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; actions are: keep 101, draw, free, take, rest, lay CARDS, extend G CARD, unwild G WILD, swap G NATURAL WILD, convert G CARDS, takeback G, heart, takeback heart, reset, discard CARD",
            self.0
        )
    }
}

impl std::error::Error for ParseActionError {}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let bad = |why: &str| ParseActionError(format!("bad action `{}`: {why}", s.trim()));
        let card = |w: &str| w.parse::<Card>().map_err(|e| bad(&e.to_string()));
        let group = |w: &str| {
            w.parse::<u8>()
                .map_err(|_| bad("expected a group index (0, 1, …)"))
        };
        let arity = |n: usize| {
            if words.len() == n {
                Ok(())
            } else {
                Err(bad(&format!("expected {} word(s)", n)))
            }
        };
        let Some(&head) = words.first() else {
            return Err(bad("empty"));
        };
        match head.to_ascii_lowercase().as_str() {
            "keep" => {
                arity(2)?;
                let w = words[1];
                if w.len() != 3 || !w.chars().all(|c| c == '0' || c == '1') {
                    return Err(bad("expected three 0/1 digits, e.g. keep 101"));
                }
                let mut mask = 0;
                for (i, c) in w.chars().enumerate() {
                    if c == '1' {
                        mask |= 1 << i;
                    }
                }
                Ok(Action::KeepCut { mask })
            }
            "draw" => arity(1).map(|_| Action::Draw),
            "free" => arity(1).map(|_| Action::FreePickup),
            "take" => arity(1).map(|_| Action::TakePile),
            "rest" => arity(1).map(|_| Action::TakeRest),
            "heart" => arity(1).map(|_| Action::LayHeartAce),
            "reset" => arity(1).map(|_| Action::Reset),
            "lay" => {
                let cards =
                    CardSet::parse(&words[1..].join(" ")).map_err(|e| bad(&e.to_string()))?;
                if cards.is_empty() {
                    return Err(bad("lay needs cards"));
                }
                Ok(Action::Lay { cards })
            }
            "extend" => {
                arity(3)?;
                Ok(Action::Extend {
                    group: group(words[1])?,
                    card: card(words[2])?,
                })
            }
            "unwild" => {
                arity(3)?;
                Ok(Action::TakeWild {
                    group: group(words[1])?,
                    wild: card(words[2])?,
                })
            }
            "swap" => {
                arity(4)?;
                Ok(Action::Swap {
                    group: group(words[1])?,
                    natural: card(words[2])?,
                    wild: card(words[3])?,
                })
            }
            "convert" => {
                if words.len() < 3 {
                    return Err(bad("expected convert G CARDS"));
                }
                let naturals =
                    CardSet::parse(&words[2..].join(" ")).map_err(|e| bad(&e.to_string()))?;
                Ok(Action::Convert {
                    group: group(words[1])?,
                    naturals,
                })
            }
            "takeback" => {
                arity(2)?;
                if words[1].eq_ignore_ascii_case("heart") {
                    Ok(Action::TakeBackHeartAce)
                } else {
                    Ok(Action::TakeBack {
                        group: group(words[1])?,
                    })
                }
            }
            "discard" => {
                arity(2)?;
                Ok(Action::Discard(card(words[1])?))
            }
            _ => Err(bad("unknown action")),
        }
    }
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The order in which the completion search tries a meld-phase step:
/// classes 0 to 6, lower first (the search keeps the listing's order
/// within a class). `top` is the pile's top card during a pickup whose
/// rest is not yet taken: taking the rest comes first, then laying that
/// card; then extensions, lays, swaps and conversions, the heart ace, and
/// the rest. Agents that follow the search's way (the rules player's walk
/// through a pickup) order their steps by it too.
#[inline]
pub fn completion_class(a: &Action, top: Option<Card>) -> usize {
    match a {
        Action::TakeRest => 0,
        Action::Extend { card, .. } if Some(*card) == top => 1,
        Action::Lay { cards } if top.is_some_and(|t| cards.contains(t)) => 1,
        Action::Extend { .. } => 2,
        Action::Lay { .. } => 3,
        Action::Swap { .. } | Action::Convert { .. } => 4,
        Action::LayHeartAce => 5,
        _ => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for s in [
            "keep 101",
            "keep 000",
            "draw",
            "free",
            "take",
            "rest",
            "lay 8D 8S 2C",
            "extend 3 8H",
            "unwild 0 JK",
            "swap 1 8H 2C",
            "convert 1 8H 8S",
            "takeback 2",
            "heart",
            "takeback heart",
            "reset",
            "discard 3S",
        ] {
            let a: Action = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
        }
        let e = "discrad 8D".parse::<Action>().unwrap_err().to_string();
        assert!(
            e.contains("unknown action") && e.contains("discard CARD"),
            "{e}"
        );
        assert!("extend x 8D".parse::<Action>().is_err());
        assert!("keep 12".parse::<Action>().is_err());
    }

    #[test]
    fn action_is_small() {
        assert!(std::mem::size_of::<Action>() <= 32);
    }
}
