//! The JSON shapes of a position's parts (serde): cards, players, tables,
//! groups, the turn, the anchor.

use super::error::PositionError;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::state::{PlayerStats, DISSOLVED, FROM_HAND};
use crate::table::MAX_GROUPS;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt::Write as _;

// ----- card notation -------------------------------------------------------

/// Cards as a string (`"8D 8S 2C"`) or an array of card strings.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cards {
    Text(String),
    List(Vec<String>),
}

impl Default for Cards {
    fn default() -> Cards {
        Cards::Text(String::new())
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cards::Text(t) => s.serialize_str(t),
            Cards::List(l) => l.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cards, D::Error> {
        cards_from_value(serde_json::Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// A JSON value that is not cards: the value found, and whether it was an
/// element of an array.
#[derive(Debug)]
pub(super) struct NotCards {
    found: serde_json::Value,
    in_array: bool,
}

impl std::fmt::Display for NotCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "expected cards as a string like \"8D 8S 2C JK\" or an array like [\"8D\", \"8S\"], found {}",
            self.found
        )?;
        if self.in_array {
            f.write_str(" in the array")?;
        }
        Ok(())
    }
}

impl std::error::Error for NotCards {}

pub(super) fn cards_from_value(v: serde_json::Value) -> Result<Cards, NotCards> {
    match v {
        serde_json::Value::String(s) => Ok(Cards::Text(s)),
        serde_json::Value::Array(a) => a
            .into_iter()
            .map(|x| match x {
                serde_json::Value::String(s) => Ok(s),
                found => Err(NotCards {
                    found,
                    in_array: true,
                }),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Cards::List),
        found => Err(NotCards {
            found,
            in_array: false,
        }),
    }
}

impl Cards {
    pub(super) fn from_list(cards: &[Card]) -> Cards {
        let mut s = String::new();
        for (i, c) in cards.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{c}");
        }
        Cards::Text(s)
    }

    pub(super) fn from_set(cards: CardSet) -> Cards {
        Cards::Text(cards.to_string())
    }

    /// The cards in order; `what` names the field in errors.
    pub(super) fn list(&self, what: &dyn std::fmt::Display) -> Result<Vec<Card>, PositionError> {
        let toks: Vec<&str> = match self {
            Cards::Text(t) => t.split([' ', ',', '\t', '\n']).collect(),
            Cards::List(l) => l.iter().map(|s| s.as_str()).collect(),
        };
        toks.into_iter()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<Card>().map_err(|e| PositionError::Field {
                    path: what.to_string(),
                    message: e.to_string(),
                })
            })
            .collect()
    }

    /// The cards as a set: no card more often than the pack holds.
    pub(super) fn set(&self, what: &dyn std::fmt::Display) -> Result<CardSet, PositionError> {
        let mut s = CardSet::EMPTY;
        for c in self.list(what)? {
            if !s.insert(c) {
                return Err(PositionError::Field {
                    path: what.to_string(),
                    message: format!(
                        "card {c} appears more often than the pack holds (2 of each suited card, 8 jokers; D-1.1)"
                    ),
                });
            }
        }
        Ok(s)
    }
}

// ----- origins of wild moves -----------------------------------------------

/// Where a wild came from or goes back to: a group index, the hand, or a
/// dissolved group of wilds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Origin {
    Group(u8),
    Hand,
    Dissolved,
}

impl Origin {
    pub(super) fn from_raw(x: u8) -> Origin {
        match x {
            FROM_HAND => Origin::Hand,
            DISSOLVED => Origin::Dissolved,
            i => Origin::Group(i),
        }
    }

    /// The raw byte, checking a group index against the table's groups.
    pub(super) fn raw(
        self,
        groups: usize,
        what: &dyn std::fmt::Display,
    ) -> Result<u8, PositionError> {
        match self {
            Origin::Hand => Ok(FROM_HAND),
            Origin::Dissolved => Ok(DISSOLVED),
            Origin::Group(i) if (i as usize) < groups => Ok(i),
            Origin::Group(i) => Err(PositionError::Field {
                path: what.to_string(),
                message: format!(
                    "group {i} does not exist (the mover's table has {groups} groups)"
                ),
            }),
        }
    }
}

impl Serialize for Origin {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Origin::Group(i) => s.serialize_u8(*i),
            Origin::Hand => s.serialize_str("hand"),
            Origin::Dissolved => s.serialize_str("dissolved"),
        }
    }
}

impl<'de> Deserialize<'de> for Origin {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Origin, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match &v {
            serde_json::Value::String(s) if s == "hand" => return Ok(Origin::Hand),
            serde_json::Value::String(s) if s == "dissolved" => return Ok(Origin::Dissolved),
            serde_json::Value::Number(n) => {
                if let Some(i) = n.as_u64().filter(|i| (*i as usize) < MAX_GROUPS) {
                    return Ok(Origin::Group(i as u8));
                }
            }
            _ => {}
        }
        Err(serde::de::Error::custom(format!(
            "expected a group index (0 to {}), \"hand\" or \"dissolved\", found {v}",
            MAX_GROUPS - 1
        )))
    }
}

// ----- the parts of a position ---------------------------------------------

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

pub(super) fn is_zero_u16(x: &u16) -> bool {
    *x == 0
}

/// Deserializes a present field (`null` included) as `Some(…)`.
pub(super) fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) hand: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) known: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) table: Option<TableJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) free_pending: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) owed_red: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) stats: Option<StatsJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) dead_locked: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) groups: Option<Vec<GroupJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) red_threes: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) twins: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) heart_aces: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) heart_aces_new: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) opened: Option<bool>,
}

/// A group: its cards, or an object when a per-turn flag is set.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum GroupJson {
    Plain(Cards),
    Flagged(GroupObj),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupObj {
    pub(super) cards: Cards,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(super) new: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(super) received: bool,
}

impl Serialize for GroupJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GroupJson::Plain(c) => c.serialize(s),
            GroupJson::Flagged(o) => o.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for GroupJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GroupJson, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        if v.is_object() {
            serde_json::from_value(v)
                .map(GroupJson::Flagged)
                .map_err(serde::de::Error::custom)
        } else {
            cards_from_value(v).map(GroupJson::Plain).map_err(|e| {
                serde::de::Error::custom(format!(
                    "a group: {e}, or an object {{\"cards\": …, \"new\": …, \"received\": …}}"
                ))
            })
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct StatsJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) opened_turn: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) first_canasta_turn: Option<u16>,
    #[serde(skip_serializing_if = "is_zero_u16")]
    pub(super) pile_pickups: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    pub(super) free_pickups: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    pub(super) frozen_turns: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    pub(super) cards_picked: u16,
}

impl StatsJson {
    pub(super) fn from_stats(s: &PlayerStats) -> StatsJson {
        StatsJson {
            opened_turn: s.opened_turn,
            first_canasta_turn: s.first_canasta_turn,
            pile_pickups: s.pile_pickups,
            free_pickups: s.free_pickups,
            frozen_turns: s.frozen_turns,
            cards_picked: s.cards_picked,
        }
    }

    pub(super) fn to_stats(&self) -> PlayerStats {
        PlayerStats {
            opened_turn: self.opened_turn,
            first_canasta_turn: self.first_canasta_turn,
            pile_pickups: self.pile_pickups,
            free_pickups: self.free_pickups,
            frozen_turns: self.frozen_turns,
            cards_picked: self.cards_picked,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TurnJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) opened_at_start: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) free_offer: Option<bool>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) free_card: Option<Option<Card>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) pickup: Option<Option<PickupJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) must_go_out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pending: Option<Vec<PendJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) moves: Option<Vec<MoveJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) undos: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PickupJson {
    pub(super) top: Card,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) group_baseline: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pile_size: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) rest_taken: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PendJson {
    pub(super) wild: Card,
    pub(super) src: Origin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) ret: Option<Origin>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveJson {
    pub(super) wild: Card,
    pub(super) to: Origin,
    pub(super) from: Origin,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnchorJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) hand: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) known: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) table: Option<TableJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) turn: Option<TurnJson>,
}
