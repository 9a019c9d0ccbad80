//! [`Position`]: any position of a hand as JSON (`kanaszta-position/1`),
//! loaded with validation and saved so that loading what was saved gives back
//! exactly the same [`GameState`] (generator included, so play continues
//! identically).
//!
//! # The format
//!
//! One JSON object. Only `phase` is required: every other field has a
//! default, so a hand-written position names only what matters to it.
//! Unknown fields are refused everywhere (a misspelt field is an error, not a
//! silently ignored one). Saving ([`Position::from_state`],
//! [`Position::to_json`]) always writes `format`, `rng`, `phase`, `starter`,
//! `current`, `turns`, `players` and `stock`, and any other field only where
//! its value differs from the default the loader would use, so saved
//! positions stay short too. Loading what was saved gives back a state equal
//! to the saved one, and saving it again gives the same text.
//!
//! **Cards** use the notation of [`Card`](crate::Card): `8D`, `TS` (or
//! `10S`), `AH`, `2C`, `JK` (lower case is accepted). A **set of cards** (a
//! hand, a group, …) is a string of cards separated by spaces or commas,
//! `"8D 8S 2C JK"`, or a JSON array of card strings, `["8D", "8S", "2C",
//! "JK"]`; its order does not matter and no card may appear more than twice
//! (jokers: 8 times). An **ordered list** (`pile`, `stock`, `cut`) has the same
//! two forms and keeps its order: **bottom card first, top card last**.
//! Saving writes strings.
//!
//! Players are numbered from 0 in seat order (the next player is `p + 1`).
//!
//! ## Top level
//!
//! | field | default | meaning |
//! |---|---|---|
//! | `format` | `"kanaszta-position/1"` | format tag; any other value is refused |
//! | `rules` | default rules | a [`Rules`](crate::Rules) object; missing switches take their defaults, e.g. `{"players": 3, "opening": 90}`; saving writes only the switches that differ from the defaults |
//! | `rng` | from `seed` | the chance generator's state (`rand_pcg::Pcg64Mcg`): 32 hex digits, an optional `0x` in front (the low bit is forced to 1) |
//! | `seed` | `0` | without `rng`: the generator is `Pcg64Mcg::seed_from_u64(seed)`; giving both `rng` and `seed` is an error |
//! | `phase` | required | `"cut"`, `"first_discard"`, `"draw"`, `"meld"` or `"over"` (see [`Phase`]) |
//! | `starter` | `0` | the player who started the hand |
//! | `current` | `starter`; in phase `over` after going out, the player who went out | the player to move |
//! | `turns` | `0` | turns played so far (I-24: discards) |
//! | `totals` | zeros | running totals before this hand, one per player (they set the opening minimum under `opening = table`) |
//! | `players` | empty players | one object per player (below); exactly `rules.players` of them |
//! | `pile` | empty | the discard pile, an ordered list, bottom first |
//! | `pile_top_fresh` | see below | whether the pile's top card is the previous discard, still open to a twin (D-7, I-10) and to the free pickup (D-6.1) |
//! | `stock` | the rest of the pack, shuffled | the stock, an ordered list, bottom first: the last card is drawn next |
//! | `stock_known_bottom` | `0` | how many cards at the bottom of the stock everybody knows (the unkept cut cards, D-3.3): at most 3 and at most the stock |
//! | `cut` | see below | phase `cut` only: the three shown cut cards, in order (`keep 100` keeps the first) |
//! | `turn` | see below | the turn in progress (object below) |
//! | `anchor` | see below | phase `meld` only: what [`Action::Reset`](crate::Action::Reset) returns to (object below) |
//! | `end` | `null` | phase `over` only, and then required: how the hand ended, a [`HandEnd`] object: `{"kind": "went_out", "player": 0, "from_hand": false, "cleared_table": false}`, `{"kind": "exhausted"}`, `{"kind": "stalled"}` or `{"kind": "deadlocked"}` (I-32: every player must be dead-locked) |
//!
//! **The stock may be left out**: it then gets every card of the 112-card
//! pack (D-1.1) that the rest of the position does not hold, shuffled with
//! the position's generator (Fisher–Yates over the missing cards in card
//! order; the generator advances). In phase `cut`, leaving out both `cut` and
//! `stock` shuffles the whole pack exactly as a new deal does: the first three
//! cards are the cut cards, the rest the stock, so `{"phase": "cut",
//! "starter": s, "seed": n}` is `GameState::new_hand(rules, n, s, &[])`.
//! Giving the stock, the position must hold every card of the pack exactly
//! (the error names the missing and the extra cards).
//!
//! `pile_top_fresh` defaults to "the pile is not empty, and this turn neither
//! took the free card nor the pile" (in phase `over`: the pile is not empty).
//!
//! ## Players
//!
//! | field | default | meaning |
//! |---|---|---|
//! | `hand` | empty | the cards in hand (a set); never a red three (D-4) |
//! | `known` | empty | the cards of the hand everybody knows (taken from the pile, kept from the cut); part of `hand` |
//! | `table` | empty | the player's table (object below) |
//! | `free_pending` | `true` in phases `cut` and `first_discard`, else `false` | whether the player's free-pickup chance (D-6.1) is still to come |
//! | `owed_red` | `0` | red-three replacements still to draw at his next turn (I-3) |
//! | `stats` | zeros | counters: `opened_turn`, `first_canasta_turn` (a turn number or `null`), `pile_pickups`, `free_pickups`, `frozen_turns`, `cards_picked` (see [`PlayerStats`]) |
//! | `dead_locked` | see below | whether the player was found dead-locked after his last discard (I-32); `true` only for a player who is (or for the mover of a meld phase, who holds the card of his turn too) |
//!
//! `dead_locked` defaults, under `deadlock = end` and in phases `draw`,
//! `meld` and `over`, to whether the player holds one card and is
//! dead-locked ([`GameState::dead_locked`]); otherwise, and for the mover
//! of a meld phase, to `false`.
//!
//! ## Tables
//!
//! | field | default | meaning |
//! |---|---|---|
//! | `groups` | none | the groups in the order they were laid (group `i` of actions such as `extend 0 2C`); each a set of cards, `"KC KD KH 2S"`, or, when a per-turn flag is set, an object `{"cards": "KC KD KH", "new": true, "received": false}` |
//! | `red_threes` | empty | red threes laid out (a set of `3H`/`3D`) |
//! | `twins` | `0` | twins received (D-7) |
//! | `heart_aces` | `0` | ♥A laid separately (D-9.4, `decorated-2003-02` only) |
//! | `heart_aces_new` | `0` | how many of those were laid this turn (they may be taken back) |
//! | `opened` | see below | whether the opening meld (D-8) has been made |
//!
//! Group flags: `new` — laid this turn, may still be taken back (D-11.5,
//! I-25); `received` — received a wild moved from another group this turn, so
//! it gives none away this turn (D-11.2). Both default to `false` and are
//! meaningful in phase `meld` only. Every group must be legal (D-9): the
//! error names it. `opened` defaults to "the table holds a group or a ♥A that
//! was not laid this turn".
//!
//! ## The turn
//!
//! | field | default | meaning |
//! |---|---|---|
//! | `opened_at_start` | the mover's `opened`; in phase `over` after going out, the opposite of `end.from_hand` | the mover had opened when the turn began (D-14.1: going out "from hand") |
//! | `free_offer` | see below | phase `draw`: the free pickup (D-6.1) is offered now |
//! | `free_card` | `null` | the card taken by this turn's free pickup (I-21) |
//! | `pickup` | `null` | this turn's penalized pickup (D-6.2): `{"top": "9C", "group_baseline": 0, "pile_size": 5, "rest_taken": false}` |
//! | `must_go_out` | `false` | I-26: the opening fell short before the rest of the pile was taken: this turn must go out |
//! | `pending` | `[]` | wilds taken out of a group, to be placed at once (D-11.2): `[{"wild": "JK", "src": 0, "ret": 0}]` |
//! | `moves` | `[]` | this turn's wild moves, for takebacks (I-25): `[{"wild": "2C", "to": 1, "from": "hand"}]` |
//! | `undos` | `0` | take-backs and resets made this meld phase (at most [`MAX_UNDOS`](crate::MAX_UNDOS), the last a reset) |
//!
//! `free_offer` defaults to what the start of the turn decides: phase `draw`,
//! the mover's `free_pending`, `pile_top_fresh`, and a top card the free
//! pickup may take (not a black three; not a wild under `free_pickup_wild =
//! forbid`). `free_card`, `pickup`, `must_go_out`, `pending`, `moves` and `undos`
//! belong to phases `meld` and `over`.
//!
//! `pickup`: `top` is the pile's top card taken (a natural: a wild or a black
//! three freezes the pile, D-6.3); `group_baseline` the copies of `top` in
//! the mover's groups before the pickup: the top card counts as laid once the
//! groups hold more (I-8) (default: the copies in the groups not laid this
//! turn; give it when the top card went into an older group); `pile_size`
//! the cards in the pile when it was taken, top included (default: the pile
//! now plus one); `rest_taken` whether the rest of the pile was taken
//! (default `false`; before that the pile holds the rest, after it the pile
//! is empty).
//!
//! `pending` and `moves` name groups of the mover's table by index, or
//! `"hand"` (the wild came from the hand, or from a group laid this turn) or
//! `"dissolved"` (from a group of wilds broken up this turn, D-11.3). A pending
//! entry: `wild` the card, `src` the group it left (it may not go back there),
//! `ret` where taking back its new group would return it (default: `src`, or
//! `"hand"` if `src` is a group laid this turn). A move: the `wild` went `to`
//! a group `from` somewhere.
//!
//! ## The anchor
//!
//! Phase `meld` only: the mover's state at the start of his meld phase (after
//! the draw or pickup, or after taking the rest of the pile), which
//! [`Action::Reset`](crate::Action::Reset) restores. Fields `hand`, `known`,
//! `table` (a table object) and `turn` (a turn object). **Every missing field,
//! also inside `table` and `turn`, is copied from the current position**, so
//! an absent anchor means "nothing was laid or moved this meld phase" (reset
//! changes nothing). The anchor's hand, table and pending wilds must hold the
//! same cards as the mover's hand, table and pending wilds now.
//!
//! ## Checks
//!
//! Loading refuses, with a message naming the field, player, group or cards:
//! JSON that does not parse, unknown fields, bad card notation; a number of
//! players other than `rules.players` (D-2.1) and rules out of range;
//! `starter` or `current` out of range; card conservation (D-1.1): with the
//! stock given, hands, tables (groups, red threes, ♥A), pending wilds, pile,
//! stock and, in phase `cut`, the cut cards must make exactly the 112-card
//! pack (the missing and the extra cards are named, with where the extra
//! ones lie); a card more often than the pack holds; an illegal group (D-9);
//! a red three in a hand (D-4); known cards not in the hand; a pickup whose
//! top card is not a natural (D-6.3); `stock_known_bottom` beyond the stock;
//! turn fields in a phase they do not belong to; an `end` outside phase
//! `over` or a missing one in it; an end `went_out` that cannot be (D-13.1,
//! D-14): the player still holds cards, has no canasta or an unopened
//! table, is not `current` (the turn record is his), `from_hand` differs
//! from "not opened at the start of the turn" (`turn.opened_at_start`), or
//! `cleared_table` from "from hand, with a penalized pickup of a pile of at
//! least 10 cards" (`turn.pickup`); an end `exhausted` with cards in the
//! stock or the pile (I-4), an end `stalled` before the turn cap (I-5); an
//! anchor whose cards differ from the mover's now. It never panics, and the state it builds passes
//! [`GameState::check_invariants`].
//!
//! ## Example
//!
//! The player to move (0) has drawn and may meld: he has opened with three
//! kings; player 1 holds two cards. The stock is left out, so it holds the
//! other 101 cards in a random order fixed by `seed`.
//!
//! ```
//! use kanaszta_engine::{Action, GameState, Phase};
//! let g = GameState::from_position_json(r#"{
//!     "format": "kanaszta-position/1",
//!     "seed": 7,
//!     "phase": "meld",
//!     "current": 0,
//!     "turns": 12,
//!     "players": [
//!         {"hand": "8D 8S 2C", "table": {"groups": ["KC KD KH"], "opened": true}},
//!         {"hand": "4C 5D", "known": "5D"}
//!     ],
//!     "pile": "9C 7H"
//! }"#).unwrap();
//! assert_eq!(g.phase(), Phase::Meld);
//! assert_eq!(g.stock().len(), 112 - 10);
//! let mut legal = Vec::new();
//! g.legal_actions(&mut legal);
//! assert!(legal.contains(&"extend 0 2C".parse::<Action>().unwrap()));
//! // Saving and loading gives back the same state.
//! let text = g.to_position_json();
//! assert_eq!(GameState::from_position_json(&text).unwrap(), g);
//! ```
//!
//! A position saved in the middle of a hand: player 0 has drawn and laid
//! three groups this turn (`new`), not yet committed (he has not opened:
//! `opened` is derived as false); the anchor says his meld phase began with
//! those cards in hand and no group, so `reset` takes them all back. Saved
//! text lays arrays and objects on one line when they fit in 80 columns.
//!
//! ```
//! use kanaszta_engine::{Action, GameState};
//! let text = r#"{
//!   "format": "kanaszta-position/1",
//!   "rng": "7f3d54aebe663a7666522e73897e18f5",
//!   "phase": "meld",
//!   "starter": 0,
//!   "current": 0,
//!   "turns": 16,
//!   "players": [
//!     {
//!       "hand": "6S 7S 9H JS AC AS",
//!       "known": "JS",
//!       "table": {
//!         "groups": [
//!           {"cards": "KC KS KS", "new": true},
//!           {"cards": "6C 6D JK", "new": true},
//!           {"cards": "5D 5S 5S", "new": true}
//!         ],
//!         "red_threes": "3D 3D"
//!       },
//!       "stats": {"frozen_turns": 1}
//!     },
//!     {
//!       "hand": "3C 3S 4C 4H 8D 8D 9H TD JC QH 2D",
//!       "known": "4H",
//!       "table": {"groups": ["2C 2H JK"]},
//!       "stats": {"opened_turn": 1, "free_pickups": 1}
//!     }
//!   ],
//!   "pile": "QD 8C AS 8H 5D JD JH KC 4D KD JK 6D 7S JS 8C",
//!   "stock": "QD KD 2D 6H JK QC 6S 5C 3C 2C AH QC AD 7D TD JK TC QH 3H TC JK TS 2S 8S 2H JK 4C 3S 9C 5H 7C 7H 9D 9C 8S QS AD QS KH 4S TH TS 9S KH JC 5C 6C 9D 7D 7H 4H 4S 6H JH 3H 9S 4D 7C AC JK AH 2S 5H TH JD 8H",
//!   "stock_known_bottom": 2,
//!   "anchor": {
//!     "hand": "5D 5S 5S 6C 6D 6S 7S 9H JS KC KS KS AC AS JK",
//!     "table": {"groups": []}
//!   }
//! }
//! "#;
//! let g = GameState::from_position_json(text).unwrap();
//! assert!(!g.table(0).opened);
//! assert_eq!(g.to_position_json(), text);
//! let mut legal = Vec::new();
//! g.legal_actions(&mut legal);
//! assert!(legal.contains(&Action::Reset));
//! ```

use crate::rules::Rules;
use crate::state::{GameState, HandEnd, Phase};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use error::PositionError;
use json::{AnchorJson, Cards, PlayerJson, TurnJson};

mod defaults;
mod error;
pub(crate) mod json;
pub(crate) mod layout;
mod load;
mod save;
#[cfg(test)]
mod tests;

/// The format tag written in `"format"`.
const FORMAT: &str = "kanaszta-position/1";

/// A position of a hand in the JSON format described in the
/// [module documentation](self): every card's place, the generator, the turn
/// in progress. [`Position::from_json`] checks everything and says exactly
/// what is wrong; [`Position::to_state`] builds the [`GameState`];
/// [`Position::from_state`] and [`Position::to_json`] save one, so that
/// `Position::from_state(&g).to_state() == Ok(g)`.
///
/// ```
/// use kanaszta_engine::{GameState, Position, Rules};
/// let g = GameState::new(Rules::default(), 5);
/// let text = Position::from_state(&g).to_json();
/// let back = Position::from_json(&text).unwrap().to_state().unwrap();
/// assert_eq!(back, g);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    /// `"decorated"`, the family this reads (classic positions have their
    /// own reader); accepted, never written.
    #[serde(default, skip_serializing)]
    family: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_rules",
        deserialize_with = "de_rules"
    )]
    rules: Option<Rules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rng: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    phase: Phase,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    starter: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    current: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    totals: Option<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    players: Option<Vec<PlayerJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pile: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pile_top_fresh: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stock: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stock_known_bottom: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cut: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<TurnJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    anchor: Option<AnchorJson>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de_end"
    )]
    end: Option<HandEnd>,
}

/// [`HandEnd`], refusing fields its kind does not have.
fn de_end<'de, D: Deserializer<'de>>(d: D) -> Result<Option<HandEnd>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    let Some(v) = v else { return Ok(None) };
    if let Some(m) = v.as_object() {
        let allowed: &[&str] = match m.get("kind").and_then(|k| k.as_str()) {
            Some("went_out") => &["kind", "player", "from_hand", "cleared_table"],
            _ => &["kind"],
        };
        if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(serde::de::Error::custom(format!(
                "unknown field `{k}` in end, expected {}",
                allowed.join(", ")
            )));
        }
    }
    serde_json::from_value(v)
        .map(Some)
        .map_err(|e| serde::de::Error::custom(format!("end: {e}")))
}

/// Writes only the rule switches that differ from the defaults.
/// `rules`: an object of switches, or a decorated preset's name; a classic
/// preset is named as such (classic positions have their own reader).
fn de_rules<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Rules>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    let Some(v) = v else { return Ok(None) };
    let classic = match &v {
        serde_json::Value::String(p) => Some(p.as_str()),
        serde_json::Value::Object(m) => m.get("preset").and_then(|p| p.as_str()),
        _ => None,
    }
    .filter(|p| crate::rules::CLASSIC_PRESET_NAMES.contains(p));
    if let Some(p) = classic {
        return Err(serde::de::Error::custom(format!(
            "rules: `{p}` is a classic canasta preset, and this reads decorated canasta \
             positions (rules: decorated-2003-02, decorated-2003-01 or an object of decorated \
             switches); a classic canasta position, \"family\": \"classic\", is read by legal, \
             check, score and apply"
        )));
    }
    if let serde_json::Value::String(p) = &v {
        return Rules::preset(p).map(Some).map_err(serde::de::Error::custom);
    }
    serde_json::from_value(v)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

fn ser_rules<S: Serializer>(rules: &Option<Rules>, s: S) -> Result<S::Ok, S::Error> {
    let r = rules.unwrap_or_default();
    let now = serde_json::to_value(r).map_err(serde::ser::Error::custom)?;
    let def = serde_json::to_value(Rules::default()).map_err(serde::ser::Error::custom)?;
    let mut out = serde_json::Map::new();
    if let (serde_json::Value::Object(now), serde_json::Value::Object(def)) = (now, def) {
        for (k, v) in now {
            if def.get(&k) != Some(&v) {
                out.insert(k, v);
            }
        }
    }
    out.serialize(s)
}

impl GameState {
    /// This state as a [`Position`].
    pub fn to_position(&self) -> Position {
        Position::from_state(self)
    }

    /// This state as position JSON text (see [`Position`]).
    pub fn to_position_json(&self) -> String {
        Position::from_state(self).to_json()
    }

    /// A state from position JSON text (see [`Position`]), checked completely.
    pub fn from_position_json(text: &str) -> Result<GameState, PositionError> {
        let p: Position =
            serde_json::from_str(text).map_err(|e| PositionError::Json(e.to_string()))?;
        p.to_state()
    }
}

impl Position {
    /// Parses position JSON and checks it completely (as
    /// [`Position::to_state`] does): the error says exactly what is wrong.
    pub fn from_json(text: &str) -> Result<Position, PositionError> {
        // A byte order mark is no part of JSON, but editors write one.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let first = text.trim_start().chars().next();
        if first != Some('{') {
            let got = match first {
                None => "nothing (the text is empty)".to_string(),
                Some('[') => "an array".to_string(),
                Some(c) => format!("text starting with `{c}`"),
            };
            return Err(PositionError::Json(format!(
                "a position is one JSON object, e.g. {{\"phase\": \"draw\", \"players\": [{{\"hand\": \"8D 8S\"}}, {{\"hand\": \"4C\"}}]}}; got {got}"
            )));
        }
        let p: Position =
            serde_json::from_str(text).map_err(|e| PositionError::Json(e.to_string()))?;
        p.to_state()?;
        Ok(p)
    }

    /// The position as JSON text, indented, with every array or object
    /// that fits in 80 columns on one line.
    pub fn to_json(&self) -> String {
        match serde_json::to_string(self) {
            Ok(t) => layout::layout(&t),
            Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
        }
    }
}
