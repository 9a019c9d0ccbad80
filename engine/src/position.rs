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
//! | `current` | `starter` | the player to move |
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
//! | `opened_at_start` | the mover's `opened` | the mover had opened when the turn began (D-14.1: going out "from hand") |
//! | `free_offer` | see below | phase `draw`: the free pickup (D-6.1) is offered now |
//! | `free_card` | `null` | the card taken by this turn's free pickup (I-21) |
//! | `pickup` | `null` | this turn's penalized pickup (D-6.2): `{"top": "9C", "group_baseline": 0, "pile_size": 5, "rest_taken": false}` |
//! | `must_go_out` | `false` | I-26: the opening fell short before the rest of the pile was taken: this turn must go out |
//! | `pending` | `[]` | wilds taken out of a group, to be placed at once (D-11.2): `[{"wild": "JK", "src": 0, "ret": 0}]` |
//! | `moves` | `[]` | this turn's wild moves, for takebacks (I-25): `[{"wild": "2C", "to": 1, "from": "hand"}]` |
//!
//! `free_offer` defaults to what the start of the turn decides: phase `draw`,
//! the mover's `free_pending`, `pile_top_fresh`, and a top card the free
//! pickup may take (not a black three; not a wild under `free_pickup_wild =
//! forbid`). `free_card`, `pickup`, `must_go_out`, `pending` and `moves`
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
//! `over` or a missing one in it; an anchor whose cards differ from the
//! mover's now. It never panics, and the state it builds passes
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

use crate::card::Card;
use crate::card_set::CardSet;
use crate::group::{Group, FLAG_NEW, FLAG_RECEIVED};
use crate::rules::{Permit, Rules};
use crate::state::{
    shuffle, Anchor, GameState, HandEnd, Phase, Pickup, PlayerStats, Turn, DISSOLVED, FROM_HAND,
    MAX_PLAYERS, MAX_WILD_MOVES, PACK,
};
use crate::table::{Table, MAX_GROUPS};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt::Write as _;

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
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_rules"
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

/// Whether a loaded position takes player `p` as found dead-locked (I-32)
/// when it does not say: under `deadlock = end`, once the deal is done, if
/// he holds one card and is dead-locked; never the mover of a meld phase,
/// whose hand is that of his turn (he is tested again at his discard).
fn default_dead_locked(g: &GameState, p: usize) -> bool {
    g.rules.deadlock == crate::rules::Deadlock::End
        && matches!(g.phase, Phase::Draw | Phase::Meld | Phase::Over)
        && !(g.phase == Phase::Meld && p == g.current as usize)
        && g.dead_locked(p)
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

// ----- card notation -------------------------------------------------------

/// Cards as a string (`"8D 8S 2C"`) or an array of card strings.
#[derive(Clone, Debug, PartialEq)]
enum Cards {
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

fn cards_from_value(v: serde_json::Value) -> Result<Cards, String> {
    let expected =
        "expected cards as a string like \"8D 8S 2C JK\" or an array like [\"8D\", \"8S\"]";
    match v {
        serde_json::Value::String(s) => Ok(Cards::Text(s)),
        serde_json::Value::Array(a) => a
            .into_iter()
            .map(|x| match x {
                serde_json::Value::String(s) => Ok(s),
                other => Err(format!("{expected}, found {other} in the array")),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Cards::List),
        other => Err(format!("{expected}, found {other}")),
    }
}

impl Cards {
    fn from_list(cards: &[Card]) -> Cards {
        let mut s = String::new();
        for (i, c) in cards.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{c}");
        }
        Cards::Text(s)
    }

    fn from_set(cards: CardSet) -> Cards {
        Cards::Text(cards.to_string())
    }

    /// The cards in order; `what` names the field in errors.
    fn list(&self, what: &dyn std::fmt::Display) -> Result<Vec<Card>, String> {
        let toks: Vec<&str> = match self {
            Cards::Text(t) => t.split([' ', ',', '\t', '\n']).collect(),
            Cards::List(l) => l.iter().map(|s| s.as_str()).collect(),
        };
        toks.into_iter()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<Card>().map_err(|e| format!("{what}: {e}")))
            .collect()
    }

    /// The cards as a set: no card more often than the pack holds.
    fn set(&self, what: &dyn std::fmt::Display) -> Result<CardSet, String> {
        let mut s = CardSet::EMPTY;
        for c in self.list(what)? {
            if !s.insert(c) {
                return Err(format!(
                    "{what}: card {c} appears more often than the pack holds (2 of each suited card, 8 jokers; D-1.1)"
                ));
            }
        }
        Ok(s)
    }
}

// ----- origins of wild moves -----------------------------------------------

/// Where a wild came from or goes back to: a group index, the hand, or a
/// dissolved group of wilds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Origin {
    Group(u8),
    Hand,
    Dissolved,
}

impl Origin {
    fn from_raw(x: u8) -> Origin {
        match x {
            FROM_HAND => Origin::Hand,
            DISSOLVED => Origin::Dissolved,
            i => Origin::Group(i),
        }
    }

    /// The raw byte, checking a group index against the table's groups.
    fn raw(self, groups: usize, what: &dyn std::fmt::Display) -> Result<u8, String> {
        match self {
            Origin::Hand => Ok(FROM_HAND),
            Origin::Dissolved => Ok(DISSOLVED),
            Origin::Group(i) if (i as usize) < groups => Ok(i),
            Origin::Group(i) => Err(format!(
                "{what}: group {i} does not exist (the mover's table has {groups} groups)"
            )),
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

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u16(x: &u16) -> bool {
    *x == 0
}

/// Deserializes a present field (`null` included) as `Some(…)`.
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hand: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    known: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    table: Option<TableJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    free_pending: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owed_red: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stats: Option<StatsJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dead_locked: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    groups: Option<Vec<GroupJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    red_threes: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    twins: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    heart_aces: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    heart_aces_new: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened: Option<bool>,
}

/// A group: its cards, or an object when a per-turn flag is set.
#[derive(Clone, Debug, PartialEq)]
enum GroupJson {
    Plain(Cards),
    Flagged(GroupObj),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupObj {
    cards: Cards,
    #[serde(default, skip_serializing_if = "is_false")]
    new: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    received: bool,
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
struct StatsJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    opened_turn: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_canasta_turn: Option<u16>,
    #[serde(skip_serializing_if = "is_zero_u16")]
    pile_pickups: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    free_pickups: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    frozen_turns: u16,
    #[serde(skip_serializing_if = "is_zero_u16")]
    cards_picked: u16,
}

impl StatsJson {
    fn from_stats(s: &PlayerStats) -> StatsJson {
        StatsJson {
            opened_turn: s.opened_turn,
            first_canasta_turn: s.first_canasta_turn,
            pile_pickups: s.pile_pickups,
            free_pickups: s.free_pickups,
            frozen_turns: s.frozen_turns,
            cards_picked: s.cards_picked,
        }
    }

    fn to_stats(&self) -> PlayerStats {
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
struct TurnJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened_at_start: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    free_offer: Option<bool>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    free_card: Option<Option<Card>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pickup: Option<Option<PickupJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    must_go_out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Vec<PendJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveJson>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PickupJson {
    top: Card,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    group_baseline: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pile_size: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rest_taken: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PendJson {
    wild: Card,
    src: Origin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ret: Option<Origin>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveJson {
    wild: Card,
    to: Origin,
    from: Origin,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnchorJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hand: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    known: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    table: Option<TableJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<TurnJson>,
}

// ----- defaults the loader derives (the saver writes what differs) ---------

/// A table is opened by default if it holds a group or ♥A from an earlier turn.
fn default_opened(t: &Table) -> bool {
    t.heart_aces > t.heart_aces_new || t.groups().iter().any(|g| !g.is_new())
}

/// Free-pickup chances are still to come before anybody's first draw turn.
fn default_free_pending(phase: Phase) -> bool {
    matches!(phase, Phase::Cut | Phase::FirstDiscard)
}

/// The pile's top is the previous discard unless this turn took from the pile.
fn default_pile_top_fresh(pile_len: usize, phase: Phase, turn: &Turn) -> bool {
    pile_len > 0 && (phase == Phase::Over || (turn.free_card.is_none() && turn.pickup.is_none()))
}

/// What the start of the turn decides about the free pickup (D-6.1, I-6).
fn default_free_offer(
    rules: &Rules,
    phase: Phase,
    free_pending: bool,
    fresh: bool,
    top: Option<Card>,
) -> bool {
    phase == Phase::Draw
        && free_pending
        && fresh
        && top.is_some_and(|c| {
            !(c.is_black_three() || (c.is_wild() && rules.free_pickup_wild == Permit::Forbid))
        })
}

/// Copies of `c` in the groups of `t` not laid this turn.
fn copies_in_old_groups(t: &Table, c: Card) -> u32 {
    t.groups()
        .iter()
        .filter(|g| !g.is_new())
        .map(|g| g.count(c))
        .sum()
}

/// `a − b` as multisets, clipped at zero.
fn excess(a: CardSet, b: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    for c in a.kinds() {
        for _ in b.count(c)..a.count(c) {
            out.insert(c);
        }
    }
    out
}

// ----- saving ----------------------------------------------------------------

fn group_json(g: &Group) -> GroupJson {
    let cards = Cards::from_set(g.cards());
    if g.flags() == 0 {
        GroupJson::Plain(cards)
    } else {
        GroupJson::Flagged(GroupObj {
            cards,
            new: g.flags() & FLAG_NEW != 0,
            received: g.flags() & FLAG_RECEIVED != 0,
        })
    }
}

/// The fields of `t` that differ from `base` (or, without a base, from an
/// empty table); `None` if nothing differs.
fn table_json(t: &Table, base: Option<&Table>) -> Option<TableJson> {
    let empty = Table::default();
    let b = base.unwrap_or(&empty);
    let opened_default = base.map_or_else(|| default_opened(t), |b| b.opened);
    let tj = TableJson {
        groups: (t.groups() != b.groups()).then(|| t.groups().iter().map(group_json).collect()),
        red_threes: (t.red_threes != b.red_threes).then(|| Cards::from_set(t.red_threes)),
        twins: (t.twins != b.twins).then_some(t.twins),
        heart_aces: (t.heart_aces != b.heart_aces).then_some(t.heart_aces),
        heart_aces_new: (t.heart_aces_new != b.heart_aces_new).then_some(t.heart_aces_new),
        opened: (t.opened != opened_default).then_some(t.opened),
    };
    (tj != TableJson::default()).then_some(tj)
}

/// The fields of `t` that differ from `base`; `None` if nothing differs.
fn turn_json(t: &Turn, base: &Turn) -> Option<TurnJson> {
    let pend = &t.pend[..t.pend_len as usize];
    let moves = &t.moves[..t.moves_len as usize];
    let tj = TurnJson {
        opened_at_start: (t.opened_at_start != base.opened_at_start).then_some(t.opened_at_start),
        free_offer: (t.free_offer != base.free_offer).then_some(t.free_offer),
        free_card: (t.free_card != base.free_card).then_some(t.free_card),
        pickup: (t.pickup != base.pickup).then(|| {
            t.pickup.map(|pk| PickupJson {
                top: pk.top,
                group_baseline: Some(pk.group_baseline),
                pile_size: Some(pk.pile_size),
                rest_taken: Some(pk.rest_taken),
            })
        }),
        must_go_out: (t.must_go_out != base.must_go_out).then_some(t.must_go_out),
        pending: (pend != &base.pend[..base.pend_len as usize]).then(|| {
            pend.iter()
                .map(|&(src, ret, wild)| PendJson {
                    wild,
                    src: Origin::from_raw(src),
                    ret: Some(Origin::from_raw(ret)),
                })
                .collect()
        }),
        moves: (moves != &base.moves[..base.moves_len as usize]).then(|| {
            moves
                .iter()
                .map(|&(to, from, wild)| MoveJson {
                    wild,
                    to: Origin::from_raw(to),
                    from: Origin::from_raw(from),
                })
                .collect()
        }),
    };
    (tj != TurnJson::default()).then_some(tj)
}

// ----- loading ---------------------------------------------------------------

/// Why a group is illegal (D-9), for messages.
fn illegal_reason(g: &Group) -> &'static str {
    let n = g.len();
    if g.is_wild_only() {
        if n < 3 {
            "a group of wilds only needs at least 3 cards (D-9.2)"
        } else {
            "a group of wilds only holds at most 7 cards (D-9.2)"
        }
    } else if n < 3 {
        "a group needs at least 3 cards (D-9.1)"
    } else if n > 8 {
        "a group holds at most 8 cards (D-9.1)"
    } else if n == 8 && g.wilds() > 0 {
        "a group of 8 holds no wild (D-9.1)"
    } else {
        "wilds must be fewer than naturals (D-9.1)"
    }
}

fn parse_group(gj: &GroupJson, what: &dyn std::fmt::Display) -> Result<Group, String> {
    let (cards, flags) = match gj {
        GroupJson::Plain(c) => (c, 0),
        GroupJson::Flagged(o) => (
            &o.cards,
            if o.new { FLAG_NEW } else { 0 } | if o.received { FLAG_RECEIVED } else { 0 },
        ),
    };
    let set = cards.set(what)?;
    let Some(mut g) = Group::from_cards(set) else {
        return Err(format!(
            "{what} [{set}] is not a group: a group holds cards of one natural rank (4 to A) plus wilds, or wilds only; threes are never melded (D-9)"
        ));
    };
    if !g.is_legal() {
        return Err(format!("{what} [{set}] is illegal: {}", illegal_reason(&g)));
    }
    g.set_flags(flags);
    Ok(g)
}

/// A table from its JSON, missing fields taken from `base` (or empty).
fn resolve_table(
    tj: Option<&TableJson>,
    base: Option<&Table>,
    who: &dyn std::fmt::Display,
    rules: &Rules,
) -> Result<Table, String> {
    let empty = TableJson::default();
    let tj = tj.unwrap_or(&empty);
    let none = Table::default();
    let b = base.unwrap_or(&none);
    let mut t = Table::default();
    match &tj.groups {
        Some(gs) => {
            if gs.len() > MAX_GROUPS {
                return Err(format!(
                    "{who}: {} groups, a table holds at most {MAX_GROUPS}",
                    gs.len()
                ));
            }
            for (i, gj) in gs.iter().enumerate() {
                t.push(parse_group(gj, &format_args!("{who} group {i}"))?);
            }
        }
        None => {
            for g in b.groups() {
                t.push(*g);
            }
        }
    }
    t.red_threes = match &tj.red_threes {
        Some(c) => {
            let what = format_args!("{who} red_threes");
            let s = c.set(&what)?;
            if s.red_three_count() != s.len() {
                return Err(format!(
                    "{what} [{s}]: only red threes (3H, 3D) are laid out as red threes (D-4)"
                ));
            }
            s
        }
        None => b.red_threes,
    };
    t.twins = tj.twins.unwrap_or(b.twins);
    t.heart_aces = tj.heart_aces.unwrap_or(b.heart_aces);
    t.heart_aces_new = tj.heart_aces_new.unwrap_or(b.heart_aces_new);
    if t.heart_aces > 2 {
        return Err(format!(
            "{who} heart_aces is {}: the pack holds two ♥A (D-1.1)",
            t.heart_aces
        ));
    }
    if t.heart_aces_new > t.heart_aces {
        return Err(format!(
            "{who} heart_aces_new is {} but heart_aces only {}: those laid this turn are among those laid",
            t.heart_aces_new, t.heart_aces
        ));
    }
    if t.heart_aces > 0 && !rules.heart_aces() {
        return Err(format!(
            "{who} has separately laid ♥A, but they exist only in decorated-2003-02 (D-9.4); the rules say {}",
            serde_json::to_value(rules.version)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ));
    }
    t.opened = match (tj.opened, base) {
        (Some(o), _) => o,
        (None, Some(b)) => b.opened,
        (None, None) => default_opened(&t),
    };
    Ok(t)
}

/// A turn from its JSON, missing fields taken from `base`. `table` is the
/// mover's table the indices refer to, `pile_len` the pile now.
fn resolve_turn(
    tj: Option<&TurnJson>,
    base: &Turn,
    table: &Table,
    pile_len: usize,
    what: &str,
) -> Result<Turn, String> {
    let empty = TurnJson::default();
    let tj = tj.unwrap_or(&empty);
    let mut t = *base;
    t.opened_at_start = tj.opened_at_start.unwrap_or(base.opened_at_start);
    t.free_offer = tj.free_offer.unwrap_or(base.free_offer);
    if let Some(fc) = tj.free_card {
        t.free_card = fc;
    }
    if let Some(pk) = &tj.pickup {
        t.pickup = match pk {
            None => None,
            Some(pj) => {
                if !pj.top.is_natural() {
                    return Err(format!(
                        "{what}.pickup: the top card {} is not a natural: a pile with a wild or a black three on top is frozen (D-6.3), and a red three never lies on the pile",
                        pj.top
                    ));
                }
                let baseline = match pj.group_baseline {
                    Some(b) => b,
                    None => copies_in_old_groups(table, pj.top) as u8,
                };
                let size = match pj.pile_size {
                    Some(s) => s,
                    None => (pile_len + 1).min(u8::MAX as usize) as u8,
                };
                if size == 0 {
                    return Err(format!(
                        "{what}.pickup.pile_size is 0: the pile taken held at least its top card"
                    ));
                }
                Some(Pickup {
                    top: pj.top,
                    group_baseline: baseline,
                    pile_size: size,
                    rest_taken: pj.rest_taken.unwrap_or(false),
                })
            }
        };
    }
    t.must_go_out = tj.must_go_out.unwrap_or(base.must_go_out);
    if let Some(list) = &tj.pending {
        if list.len() > MAX_WILD_MOVES {
            return Err(format!(
                "{what}.pending: {} entries, at most {MAX_WILD_MOVES} (the wilds of the pack)",
                list.len()
            ));
        }
        t.pend = Turn::default().pend;
        t.pend_len = 0;
        t.pending = CardSet::EMPTY;
        for (i, e) in list.iter().enumerate() {
            let w = format!("{what}.pending[{i}]");
            if !e.wild.is_wild() {
                return Err(format!(
                    "{w}: {} is not a wild: only wilds are moved between groups (D-11.2)",
                    e.wild
                ));
            }
            let src = e.src.raw(table.len(), &format_args!("{w}.src"))?;
            let ret = match e.ret {
                Some(r) => r.raw(table.len(), &format_args!("{w}.ret"))?,
                None => match e.src {
                    Origin::Group(g) if table.groups()[g as usize].is_new() => FROM_HAND,
                    _ => src,
                },
            };
            if !t.pending.insert(e.wild) {
                return Err(format!("{w}: more {} pending than the pack holds", e.wild));
            }
            t.pend[i] = (src, ret, e.wild);
            t.pend_len += 1;
        }
    }
    if let Some(list) = &tj.moves {
        if list.len() > MAX_WILD_MOVES {
            return Err(format!(
                "{what}.moves: {} entries, at most {MAX_WILD_MOVES} (each wild moves once a turn)",
                list.len()
            ));
        }
        t.moves = Turn::default().moves;
        t.moves_len = 0;
        for (i, m) in list.iter().enumerate() {
            let w = format!("{what}.moves[{i}]");
            if !m.wild.is_wild() {
                return Err(format!("{w}: {} is not a wild", m.wild));
            }
            let to = m.to.raw(table.len(), &format_args!("{w}.to"))?;
            let from = m.from.raw(table.len(), &format_args!("{w}.from"))?;
            t.moves[i] = (to, from, m.wild);
            t.moves_len += 1;
        }
    }
    Ok(t)
}

/// A place cards lie in, for messages.
#[derive(Clone, Copy)]
enum Zone {
    Hand(usize),
    Group(usize, usize),
    RedThrees(usize),
    HeartAces(usize),
    Pending,
    Pile,
    Cut,
    Stock,
}

impl std::fmt::Display for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Zone::Hand(p) => write!(f, "player {p} hand"),
            Zone::Group(p, i) => write!(f, "player {p} group {i}"),
            Zone::RedThrees(p) => write!(f, "player {p} red_threes"),
            Zone::HeartAces(p) => write!(f, "player {p} heart_aces"),
            Zone::Pending => f.write_str("turn.pending"),
            Zone::Pile => f.write_str("pile"),
            Zone::Cut => f.write_str("cut"),
            Zone::Stock => f.write_str("stock"),
        }
    }
}

/// The cards of a zone.
enum ZoneCards<'a> {
    Set(CardSet),
    List(&'a [Card]),
}

impl ZoneCards<'_> {
    fn each(&self, mut f: impl FnMut(Card)) {
        match self {
            ZoneCards::Set(s) => s.iter().for_each(f),
            ZoneCards::List(l) => l.iter().for_each(|c| f(*c)),
        }
    }
}

/// Counts every card of a position, and names the zones of extra cards.
struct Census<'a> {
    counts: [u32; Card::KINDS],
    zones: Vec<(Zone, ZoneCards<'a>)>,
}

impl<'a> Census<'a> {
    fn new() -> Census<'a> {
        Census {
            counts: [0; Card::KINDS],
            zones: Vec::with_capacity(32),
        }
    }

    fn add(&mut self, zone: Zone, cards: ZoneCards<'a>) {
        cards.each(|c| self.counts[c.index() as usize] += 1);
        self.zones.push((zone, cards));
    }

    fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    fn max(k: usize) -> u32 {
        if k == Card::JOKER.index() as usize {
            8
        } else {
            2
        }
    }

    /// Cards over their number of copies, with where they are.
    fn extra(&self) -> Vec<String> {
        let mut out = Vec::new();
        for k in 0..Card::KINDS {
            if self.counts[k] <= Census::max(k) {
                continue;
            }
            let c = Card::from_index(k as u8).unwrap_or(Card::JOKER);
            let mut at = Vec::new();
            for (z, cards) in &self.zones {
                let mut n = 0;
                cards.each(|x| n += u32::from(x == c));
                match n {
                    0 => {}
                    1 => at.push(z.to_string()),
                    n => at.push(format!("{z} ×{n}")),
                }
            }
            out.push(format!(
                "{c} {} times, the pack holds {} ({})",
                self.counts[k],
                Census::max(k),
                at.join(", ")
            ));
        }
        out
    }

    /// The cards of the pack not counted.
    fn missing(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for k in 0..Card::KINDS {
            let c = Card::from_index(k as u8).unwrap_or(Card::JOKER);
            for _ in self.counts[k]..Census::max(k) {
                s.insert(c);
            }
        }
        s
    }
}

impl Position {
    /// The state's position. Saving writes the generator's state, so the
    /// loaded state continues exactly as the saved one would.
    pub fn from_state(g: &GameState) -> Position {
        let n = g.players();
        let cur = g.current as usize;
        let phase = g.phase;
        let players = (0..n)
            .map(|p| {
                let stats = StatsJson::from_stats(&g.stats[p]);
                PlayerJson {
                    hand: (!g.hands[p].is_empty()).then(|| Cards::from_set(g.hands[p])),
                    known: (!g.known[p].is_empty()).then(|| Cards::from_set(g.known[p])),
                    table: table_json(&g.tables[p], None),
                    free_pending: (g.free_pending[p] != default_free_pending(phase))
                        .then_some(g.free_pending[p]),
                    owed_red: (g.owed_red[p] != 0).then_some(g.owed_red[p]),
                    stats: (stats != StatsJson::default()).then_some(stats),
                    dead_locked: (g.found_dead_locked(p) != default_dead_locked(g, p))
                        .then_some(g.found_dead_locked(p)),
                }
            })
            .collect();
        let fresh_default = default_pile_top_fresh(g.pile().len(), phase, &g.turn);
        let turn_base = Turn {
            opened_at_start: g.tables[cur].opened,
            free_offer: default_free_offer(
                &g.rules,
                phase,
                g.free_pending[cur],
                g.pile_top_fresh,
                g.pile_top(),
            ),
            ..Turn::default()
        };
        let anchor = if phase == Phase::Meld {
            let a = &g.anchor;
            let aj = AnchorJson {
                hand: (a.hand != g.hands[cur]).then(|| Cards::from_set(a.hand)),
                known: (a.known != g.known[cur]).then(|| Cards::from_set(a.known)),
                table: table_json(&a.table, Some(&g.tables[cur])),
                turn: turn_json(&a.turn, &g.turn),
            };
            (aj != AnchorJson::default()).then_some(aj)
        } else {
            None
        };
        Position {
            format: Some(FORMAT.to_string()),
            rules: (g.rules != Rules::default()).then_some(g.rules),
            rng: Some(format!("{:032x}", g.rng.state())),
            seed: None,
            phase,
            starter: Some(g.starter),
            current: Some(g.current),
            turns: Some(g.turns),
            totals: g.totals[..n]
                .iter()
                .any(|t| *t != 0)
                .then(|| g.totals[..n].to_vec()),
            players: Some(players),
            pile: (!g.pile().is_empty()).then(|| Cards::from_list(g.pile())),
            pile_top_fresh: (g.pile_top_fresh != fresh_default).then_some(g.pile_top_fresh),
            stock: Some(Cards::from_list(g.stock())),
            stock_known_bottom: (g.stock_known_bottom != 0).then_some(g.stock_known_bottom),
            cut: (phase == Phase::Cut).then(|| Cards::from_list(&g.cut)),
            turn: turn_json(&g.turn, &turn_base),
            anchor,
            end: g.end,
        }
    }

    /// Parses position JSON and checks it completely (as
    /// [`Position::to_state`] does): the error says exactly what is wrong.
    pub fn from_json(text: &str) -> Result<Position, String> {
        let p: Position =
            serde_json::from_str(text).map_err(|e| format!("bad position JSON: {e}"))?;
        p.to_state()?;
        Ok(p)
    }

    /// The position as JSON text, indented, with every array or object
    /// that fits in 80 columns on one line.
    pub fn to_json(&self) -> String {
        match serde_json::to_string(self) {
            Ok(t) => layout(&t),
            Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
        }
    }

    /// Builds the state, checking every rule a position must satisfy: the
    /// number of players, card conservation (the 112 cards of the pack, each
    /// exactly once across hands, tables, pending wilds, pile, stock and, in
    /// phase `cut`, the cut cards), legal groups (D-9), no red three in a hand
    /// (D-4), known cards in the hand, indices in range, and the turn
    /// consistent with the phase. Never panics.
    pub fn to_state(&self) -> Result<GameState, String> {
        if let Some(f) = &self.format {
            if f != FORMAT {
                return Err(format!("format is \"{f}\": this engine reads \"{FORMAT}\""));
            }
        }
        let rules = self.rules.unwrap_or_default();
        rules.validate().map_err(|e| format!("rules: {e}"))?;
        let n = rules.players as usize;
        let phase = self.phase;
        let default_players;
        let players: &[PlayerJson] = match &self.players {
            Some(v) => v,
            None => {
                default_players = vec![PlayerJson::default(); n];
                &default_players
            }
        };
        if players.len() != n {
            return Err(format!(
                "the position lists {} players but the rules say {n} (D-2.1): list {n} players or set \"rules\": {{\"players\": {}}}",
                players.len(),
                players.len()
            ));
        }
        let starter = self.starter.unwrap_or(0);
        if starter as usize >= n {
            return Err(format!(
                "starter {starter} is out of range: players are 0 to {}",
                n - 1
            ));
        }
        let current = self.current.unwrap_or(starter);
        if current as usize >= n {
            return Err(format!(
                "current player {current} is out of range: players are 0 to {}",
                n - 1
            ));
        }
        let cur = current as usize;
        let mut rng =
            match (&self.rng, self.seed) {
                (Some(_), Some(_)) => return Err(
                    "both rng and seed are given: seed only seeds a generator when rng is absent"
                        .into(),
                ),
                (Some(s), None) => {
                    let hex = s.trim().trim_start_matches("0x").trim_start_matches("0X");
                    let state = if hex.is_empty() || hex.len() > 32 {
                        None
                    } else {
                        u128::from_str_radix(hex, 16).ok()
                    };
                    match state {
                        Some(v) => Pcg64Mcg::new(v),
                        None => {
                            return Err(format!(
                                "rng \"{s}\": expected the generator state as up to 32 hex digits"
                            ))
                        }
                    }
                }
                (None, seed) => Pcg64Mcg::seed_from_u64(seed.unwrap_or(0)),
            };
        let mut totals = [0i32; MAX_PLAYERS];
        if let Some(t) = &self.totals {
            if t.len() != n {
                return Err(format!(
                    "totals lists {} running totals for {n} players",
                    t.len()
                ));
            }
            totals[..n].copy_from_slice(t);
        }

        // Players.
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut known = [CardSet::EMPTY; MAX_PLAYERS];
        let mut tables = [Table::default(); MAX_PLAYERS];
        let mut free_pending = [true; MAX_PLAYERS];
        let mut owed_red = [0u8; MAX_PLAYERS];
        let mut stats = [PlayerStats::default(); MAX_PLAYERS];
        for (p, pj) in players.iter().enumerate() {
            let who = format!("player {p}");
            hands[p] = match &pj.hand {
                Some(c) => c.set(&format_args!("{who} hand"))?,
                None => CardSet::EMPTY,
            };
            if hands[p].red_three_count() > 0 {
                let reds: Vec<String> = hands[p]
                    .iter()
                    .filter(|c| c.is_red_three())
                    .map(|c| c.to_string())
                    .collect();
                return Err(format!(
                    "{who} hand holds a red three ({}): red threes go to the table at once (D-4); list them in the table's red_threes",
                    reds.join(" ")
                ));
            }
            known[p] = match &pj.known {
                Some(c) => c.set(&format_args!("{who} known"))?,
                None => CardSet::EMPTY,
            };
            let not_in_hand = excess(known[p], hands[p]);
            if !not_in_hand.is_empty() {
                return Err(format!(
                    "{who} known cards [{not_in_hand}] are not in the hand [{}]: known cards are part of the hand",
                    hands[p]
                ));
            }
            tables[p] = resolve_table(
                pj.table.as_ref(),
                None,
                &format_args!("{who} table"),
                &rules,
            )?;
            free_pending[p] = pj.free_pending.unwrap_or(default_free_pending(phase));
            owed_red[p] = pj.owed_red.unwrap_or(0);
            if owed_red[p] > 4 {
                return Err(format!(
                    "{who} owed_red is {}: there are only 4 red threes",
                    owed_red[p]
                ));
            }
            stats[p] = pj
                .stats
                .as_ref()
                .map(StatsJson::to_stats)
                .unwrap_or_default();
        }

        // Pile, cut, turn.
        let pile = match &self.pile {
            Some(c) => c.list(&"pile")?,
            None => Vec::new(),
        };
        let mut cut = match &self.cut {
            Some(c) => {
                if phase != Phase::Cut {
                    return Err(
                        "cut cards are given only in phase cut (D-3.1); after the cut the unkept ones lie at the bottom of the stock"
                            .into(),
                    );
                }
                let v = c.list(&"cut")?;
                if v.len() != 3 {
                    return Err(format!(
                        "cut lists {} cards: three cut cards are shown (D-3.1)",
                        v.len()
                    ));
                }
                Some([v[0], v[1], v[2]])
            }
            None => None,
        };
        let turn_base = Turn {
            opened_at_start: tables[cur].opened,
            ..Turn::default()
        };
        let mut turn = resolve_turn(
            self.turn.as_ref(),
            &turn_base,
            &tables[cur],
            pile.len(),
            "turn",
        )?;

        // Card conservation (D-1.1).
        let stock_given = match &self.stock {
            Some(c) => Some(c.list(&"stock")?),
            None => None,
        };
        let mut census = Census::new();
        for p in 0..n {
            census.add(Zone::Hand(p), ZoneCards::Set(hands[p]));
            for (i, g) in tables[p].groups().iter().enumerate() {
                census.add(Zone::Group(p, i), ZoneCards::Set(g.cards()));
            }
            census.add(Zone::RedThrees(p), ZoneCards::Set(tables[p].red_threes));
            let mut aces = CardSet::EMPTY;
            for _ in 0..tables[p].heart_aces {
                aces.insert(Card::HEART_ACE);
            }
            census.add(Zone::HeartAces(p), ZoneCards::Set(aces));
        }
        census.add(Zone::Pending, ZoneCards::Set(turn.pending));
        census.add(Zone::Pile, ZoneCards::List(&pile));
        if let Some(c) = &cut {
            census.add(Zone::Cut, ZoneCards::List(c));
        }
        if let Some(s) = &stock_given {
            census.add(Zone::Stock, ZoneCards::List(s));
        }
        let extra = census.extra();
        let missing = if stock_given.is_some() {
            census.missing()
        } else {
            CardSet::EMPTY
        };
        if !extra.is_empty() || !missing.is_empty() {
            let mut parts = Vec::new();
            if !missing.is_empty() {
                parts.push(format!("missing [{missing}]"));
            }
            if !extra.is_empty() {
                parts.push(format!("extra: {}", extra.join("; ")));
            }
            let held = if stock_given.is_some() {
                format!(
                    "the position holds {} cards, the pack 112: ",
                    census.total()
                )
            } else {
                String::new()
            };
            return Err(format!(
                "card conservation broken (D-1.1): {held}{}",
                parts.join("; ")
            ));
        }
        let stock_cards = match stock_given {
            Some(s) => {
                if phase == Phase::Cut && cut.is_none() {
                    return Err(
                        "phase cut: give the three shown cut cards in \"cut\", or leave out both cut and stock to shuffle the pack"
                            .into(),
                    );
                }
                s
            }
            None => {
                let mut rest: Vec<Card> = census.missing().iter().collect();
                shuffle(&mut rest, &mut rng);
                if phase == Phase::Cut && cut.is_none() {
                    if rest.len() < 3 {
                        return Err("phase cut: fewer than three cards left for the cut".into());
                    }
                    cut = Some([rest[0], rest[1], rest[2]]);
                    rest.drain(..3);
                }
                rest
            }
        };
        let skb = self.stock_known_bottom.unwrap_or(0);
        if skb as usize > stock_cards.len() || skb > 3 {
            return Err(format!(
                "stock_known_bottom is {skb}: at most the 3 unkept cut cards (D-3.3) and at most the stock's {} cards",
                stock_cards.len()
            ));
        }

        // The phase and the turn.
        if phase == Phase::Cut {
            for p in 0..n {
                if !hands[p].is_empty() || !tables[p].cards().is_empty() || tables[p].twins > 0 {
                    return Err(format!(
                        "phase cut comes before the deal (D-3): player {p}'s hand and table must be empty"
                    ));
                }
            }
            if !pile.is_empty() {
                return Err("phase cut comes before the deal (D-3): the pile must be empty".into());
            }
        }
        if !matches!(phase, Phase::Meld | Phase::Over) {
            let name = serde_json::to_value(phase)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let bad = [
                ("free_card", turn.free_card.is_some()),
                ("pickup", turn.pickup.is_some()),
                ("must_go_out", turn.must_go_out),
                ("pending", turn.pend_len > 0),
                ("moves", turn.moves_len > 0),
            ];
            if let Some((f, _)) = bad.iter().find(|(_, b)| *b) {
                return Err(format!(
                    "turn.{f} belongs to phase meld (or over), not to phase {name}"
                ));
            }
        }
        if phase == Phase::Meld {
            if let Some(pk) = turn.pickup {
                if !pk.rest_taken && pk.pile_size as usize != pile.len() + 1 {
                    return Err(format!(
                        "turn.pickup.pile_size is {} but the pile holds {} cards besides the top taken: before the rest is taken the pile is the rest",
                        pk.pile_size,
                        pile.len()
                    ));
                }
                if pk.rest_taken && !pile.is_empty() {
                    return Err(
                        "turn.pickup.rest_taken is true but the pile is not empty: the rest of the pile was taken (D-6.2)"
                            .into(),
                    );
                }
            }
        }
        let pile_top_fresh = self
            .pile_top_fresh
            .unwrap_or_else(|| default_pile_top_fresh(pile.len(), phase, &turn));
        if pile_top_fresh && pile.is_empty() {
            return Err("pile_top_fresh is true but the pile is empty".into());
        }
        match self.turn.as_ref().and_then(|t| t.free_offer) {
            Some(true) => {
                if phase != Phase::Draw {
                    return Err(
                        "turn.free_offer: the free pickup is offered only in phase draw (D-6.1)"
                            .into(),
                    );
                }
                if pile.is_empty() {
                    return Err(
                        "turn.free_offer: the free pickup is offered but the pile is empty".into(),
                    );
                }
            }
            Some(false) => {}
            None => {
                turn.free_offer = default_free_offer(
                    &rules,
                    phase,
                    free_pending[cur],
                    pile_top_fresh,
                    pile.last().copied(),
                )
            }
        }
        match (phase, &self.end) {
            (Phase::Over, None) => {
                return Err(
                    "phase over needs \"end\": {\"kind\": \"went_out\", \"player\": …, \"from_hand\": …, \"cleared_table\": …}, {\"kind\": \"exhausted\"}, {\"kind\": \"stalled\"} or {\"kind\": \"deadlocked\"}"
                        .into(),
                )
            }
            (Phase::Over, Some(HandEnd::WentOut { player, .. })) if *player as usize >= n => {
                return Err(format!(
                    "end: player {player} is out of range: players are 0 to {}",
                    n - 1
                ))
            }
            (Phase::Over, _) | (_, None) => {}
            (_, Some(_)) => return Err("end is given only in phase over".into()),
        }

        // The anchor (phase meld): what reset returns to.
        let no_anchor = AnchorJson::default();
        let anchor = match (&self.anchor, phase) {
            (Some(_), p) if p != Phase::Meld => {
                return Err(
                    "anchor is given only in phase meld: it is what reset returns to (I-25)".into(),
                )
            }
            (aj, _) => {
                let aj = aj.as_ref().unwrap_or(&no_anchor);
                let hand = match &aj.hand {
                    Some(c) => c.set(&"anchor hand")?,
                    None => hands[cur],
                };
                if hand.red_three_count() > 0 {
                    return Err("anchor hand holds a red three (D-4)".into());
                }
                let aknown = match &aj.known {
                    Some(c) => c.set(&"anchor known")?,
                    None => known[cur],
                };
                let nk = excess(aknown, hand);
                if !nk.is_empty() {
                    return Err(format!(
                        "anchor known cards [{nk}] are not in the anchor hand [{hand}]"
                    ));
                }
                let table = resolve_table(
                    aj.table.as_ref(),
                    Some(&tables[cur]),
                    &"anchor table",
                    &rules,
                )?;
                let aturn =
                    resolve_turn(aj.turn.as_ref(), &turn, &table, pile.len(), "anchor turn")?;
                let a = Anchor {
                    hand,
                    known: aknown,
                    table,
                    turn: aturn,
                };
                if phase == Phase::Meld {
                    let then = a
                        .hand
                        .checked_add(a.table.cards())
                        .and_then(|s| s.checked_add(a.turn.pending));
                    let now = hands[cur]
                        .checked_add(tables[cur].cards())
                        .and_then(|s| s.checked_add(turn.pending));
                    match (then, now) {
                        (Some(t), Some(nw)) if t == nw => {}
                        (Some(t), Some(nw)) => {
                            return Err(format!(
                                "anchor: the mover's hand, table and pending wilds hold [{nw}] now, but [{t}] at the anchor; a meld phase only moves cards among them (missing at the anchor [{}], extra [{}])",
                                excess(nw, t),
                                excess(t, nw)
                            ))
                        }
                        _ => {
                            return Err(
                                "anchor: a card appears more often than the pack holds".into()
                            )
                        }
                    }
                }
                a
            }
        };

        // Assemble.
        let mut stock = [Card::JOKER; PACK];
        stock[..stock_cards.len()].copy_from_slice(&stock_cards);
        let mut pile_arr = [Card::JOKER; PACK];
        pile_arr[..pile.len()].copy_from_slice(&pile);
        let mut g = GameState {
            quiet: false,
            rules,
            rng,
            starter,
            current,
            phase,
            hands,
            tables,
            known,
            stock,
            stock_len: stock_cards.len() as u8,
            stock_known_bottom: skb,
            pile: pile_arr,
            pile_len: pile.len() as u8,
            pile_top_fresh,
            cut: cut.unwrap_or([Card::JOKER; 3]),
            free_pending,
            owed_red,
            turns: self.turns.unwrap_or(0),
            totals,
            turn,
            anchor,
            end: self.end,
            stats,
            dead: 0,
        };
        // I-32: who was found dead-locked.
        let given = self.players.as_deref().unwrap_or(&[]);
        for p in 0..n {
            let dead = match given.get(p).and_then(|pj| pj.dead_locked) {
                // The mover of a meld phase holds the card of his turn too:
                // his mark is from his last discard.
                Some(true) if !(g.dead_locked(p) || phase == Phase::Meld && p == current as usize) => {
                    return Err(format!(
                        "player {p} dead_locked is true, but he is not dead-locked (I-32: one card in hand, no wild that can move, no card outside the tables that lets him go out)"
                    ))
                }
                Some(d) => d,
                None => default_dead_locked(&g, p),
            };
            g.dead |= (dead as u8) << p;
        }
        if g.end == Some(HandEnd::Deadlocked) {
            if let Some(p) = (0..n).find(|&p| !g.dead_locked(p)) {
                return Err(format!(
                    "end deadlocked: player {p} is not dead-locked (I-32: the hand ends so only when every player is)"
                ));
            }
        }
        g.check_invariants()?;
        Ok(g)
    }
}

// ----- layout of the JSON text ----------------------------------------------

/// Line width [`Position::to_json`] fits arrays and objects in.
const WIDTH: usize = 80;

/// Lays out compact JSON (as `serde_json::to_string` writes it: no
/// whitespace, keys in order): every array or object whose one-line form
/// (`, ` and `: ` separators) fits in [`WIDTH`] columns on one line, the
/// others one entry a line, indented by two.
fn layout(src: &str) -> String {
    let b = src.as_bytes();
    // Pass 1: where each array or object ends, and its one-line width.
    let mut end = vec![0u32; b.len()];
    let mut width = vec![0u32; b.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut seps = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i) - 1,
            b'[' | b'{' => stack.push((i, seps)),
            b']' | b'}' => {
                if let Some((start, s0)) = stack.pop() {
                    end[start] = i as u32;
                    width[start] = (i - start + 1 + seps - s0) as u32;
                }
            }
            b',' | b':' => seps += 1,
            _ => {}
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(b.len() * 2);
    let mut i = 0;
    emit(b, &end, &width, &mut i, 0, 0, &mut out);
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|_| src.to_string())
}

/// The index just past the string starting at `i`.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// Writes the value at `*i` (starting at column `col`, its lines indented
/// by `indent`) and moves `*i` past it.
fn emit(
    b: &[u8],
    end: &[u32],
    width: &[u32],
    i: &mut usize,
    col: usize,
    indent: usize,
    out: &mut Vec<u8>,
) {
    let start = *i;
    match b.get(start) {
        Some(b'[' | b'{') => {
            let e = (end[start] as usize).max(start);
            if col + (width[start] as usize) < WIDTH || e == start + 1 {
                let mut k = start;
                while k <= e {
                    if b[k] == b'"' {
                        let n = skip_string(b, k).min(e + 1);
                        out.extend_from_slice(&b[k..n]);
                        k = n;
                        continue;
                    }
                    out.push(b[k]);
                    if b[k] == b',' || b[k] == b':' {
                        out.push(b' ');
                    }
                    k += 1;
                }
                *i = e + 1;
                return;
            }
            let object = b[start] == b'{';
            out.extend_from_slice(&b[start..start + 1]);
            out.push(b'\n');
            *i = start + 1;
            loop {
                out.extend(std::iter::repeat_n(b' ', indent + 2));
                let mut c = indent + 2;
                if object {
                    let n = skip_string(b, *i).min(e);
                    out.extend_from_slice(&b[*i..n]);
                    out.extend_from_slice(b": ");
                    c += n - *i + 2;
                    *i = n + 1;
                }
                emit(b, end, width, i, c, indent + 2, out);
                if *i < e && b[*i] == b',' {
                    out.extend_from_slice(b",\n");
                    *i += 1;
                } else {
                    break;
                }
            }
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b' ', indent));
            out.push(b[e]);
            *i = e + 1;
        }
        Some(b'"') => {
            let n = skip_string(b, start).min(b.len());
            out.extend_from_slice(&b[start..n]);
            *i = n;
        }
        Some(_) => {
            let mut n = start;
            while n < b.len() && !matches!(b[n], b',' | b']' | b'}') {
                n += 1;
            }
            out.extend_from_slice(&b[start..n]);
            *i = n;
        }
        None => {}
    }
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
    pub fn from_position_json(text: &str) -> Result<GameState, String> {
        let p: Position =
            serde_json::from_str(text).map_err(|e| format!("bad position JSON: {e}"))?;
        p.to_state()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;

    fn load(text: &str) -> Result<GameState, String> {
        GameState::from_position_json(text)
    }

    fn err(text: &str) -> String {
        match load(text) {
            Ok(_) => panic!("position accepted: {text}"),
            Err(e) => e,
        }
    }

    fn legal_strings(g: &GameState) -> Vec<String> {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let mut v: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        v.sort();
        v
    }

    /// A saved position as a JSON value, to break in tests.
    fn saved(g: &GameState) -> serde_json::Value {
        serde_json::from_str(&g.to_position_json()).unwrap()
    }

    fn round_trip(g: &GameState) {
        let text = g.to_position_json();
        let p = Position::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(p, Position::from_state(g));
        let back = p.to_state().unwrap();
        assert_eq!(&back, g, "{text}");
        assert_eq!(back.to_position_json(), text);
    }

    #[test]
    fn fresh_deal_round_trips() {
        for seed in 0..20 {
            let r = Rules {
                players: 2 + (seed % 5) as u8,
                ..Rules::default()
            };
            let mut g = GameState::new(r, seed);
            round_trip(&g);
            g.apply(Action::KeepCut {
                mask: (seed % 8) as u8,
            })
            .unwrap();
            round_trip(&g);
            // Play on a little: the generator continues identically.
            let mut h = Position::from_state(&g).to_state().unwrap();
            let mut legal = Vec::new();
            for _ in 0..30 {
                if g.is_terminal() {
                    break;
                }
                g.legal_actions(&mut legal);
                let a = *legal
                    .iter()
                    .find(|a| matches!(a, Action::Draw))
                    .unwrap_or(&legal[legal.len() - 1]);
                g.apply(a).unwrap();
                h.apply(a).unwrap();
                assert_eq!(g, h);
                round_trip(&g);
            }
        }
    }

    /// Leaving out cut and stock shuffles the pack as a new deal does.
    #[test]
    fn cut_position_is_a_new_deal() {
        let g = load(r#"{"phase": "cut", "starter": 1, "seed": 7}"#).unwrap();
        assert_eq!(g, GameState::new_hand(Rules::default(), 7, 1, &[]));
        let g = load(
            r#"{"phase": "cut", "rules": {"players": 3}, "seed": 9, "totals": [100, 0, -20]}"#,
        )
        .unwrap();
        let r = Rules {
            players: 3,
            ..Rules::default()
        };
        assert_eq!(g, GameState::new_hand(r, 9, 0, &[100, 0, -20]));
    }

    /// The example of the brief: the mover has opened with kings and may
    /// extend them with his 2, lay 8 8 2 (then take it back or go on), or
    /// discard. The stock is filled with the rest of the pack.
    #[test]
    fn minimal_meld_position() {
        let g = load(
            r#"{"phase":"meld","current":0,"players":[{"hand":"8D 8S 2C","table":{"groups":["KC KD KH"],"opened":true}},{"hand":"4C 5D"}],"pile":"9C 7H"}"#,
        )
        .unwrap();
        assert_eq!(g.stock().len(), 112 - 10);
        assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
        assert!(g.table(0).opened);
        assert!(!g.table(1).opened);
        assert!(g.pile_top_fresh);
        assert_eq!(
            legal_strings(&g),
            [
                "discard 2C",
                "discard 8D",
                "discard 8S",
                "extend 0 2C",
                "lay 8D 8S 2C"
            ]
        );
        round_trip(&g);
        // The same with `opened` left out: a group from an earlier turn means
        // the table has opened.
        let h = load(
            r#"{"phase":"meld","players":[{"hand":"8D 8S 2C","table":{"groups":["KC KD KH"]}},{"hand":"4C 5D"}],"pile":"9C 7H"}"#,
        )
        .unwrap();
        assert_eq!(h, g);
        // Saving writes only what differs from the defaults.
        let v = saved(&g);
        assert!(v["players"][0]["table"].get("opened").is_none());
        assert!(v.get("turn").is_none() && v.get("anchor").is_none());
    }

    /// Draw phase mid-hand: the free chance has passed by default, so the
    /// pile can be taken with two nines; with the chance still to come the
    /// free pickup is offered instead (I-7).
    #[test]
    fn minimal_draw_position() {
        // `@` marks where player 1's free_pending goes.
        let text = r#"{"phase": "draw", "current": 1, "turns": 9,
            "players": [{"hand": "4C 5D 6H"},
                        {"hand": "9D 9S KH QS", "table": {"groups": ["AC AD AH"]} @}],
            "pile": "7H 9C"}"#;
        let g = load(&text.replace('@', "")).unwrap();
        assert_eq!(legal_strings(&g), ["draw", "take"]);
        round_trip(&g);
        let g = load(&text.replace('@', r#", "free_pending": true"#)).unwrap();
        assert!(g.free_pickup_offered());
        assert_eq!(legal_strings(&g), ["draw", "free"]);
        round_trip(&g);
        // Not opened, 9 9 9 falls short of the opening (D-8.2, I-26).
        let g = load(
            &text
                .replace(r#", "table": {"groups": ["AC AD AH"]}"#, "")
                .replace('@', ""),
        )
        .unwrap();
        assert_eq!(legal_strings(&g), ["draw"]);
    }

    /// A turn in progress: a penalized pickup whose top is laid, a pending
    /// wild, and an anchor.
    #[test]
    fn turn_state_round_trips() {
        let g = load(
            r#"{"phase":"meld","turns":20,
            "players":[{"hand":"9D 9S KH QS 4C","known":"9D",
                        "table":{"groups":["KC KD KS 2H", {"cards":"9C 9H 9H","new":true}],"opened":true}},
                       {"hand":"4D 5D"}],
            "pile":"7H 8C",
            "turn":{"pickup":{"top":"9H"}},
            "anchor":{"hand":"9D 9S KH QS 4C 9C 9H 9H","table":{"groups":["KC KD KS 2H"]}}}"#,
        );
        // The pickup's top 9H is in hand or laid: pile_size defaults to 3.
        let g = g.unwrap();
        let pk = g.pickup().unwrap();
        assert_eq!(
            (pk.pile_size, pk.group_baseline, pk.rest_taken),
            (3, 0, false)
        );
        round_trip(&g);
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert!(legal.contains(&Action::Reset));
        assert!(legal.contains(&Action::TakeRest));
        let mut h = g.clone();
        h.apply(Action::Reset).unwrap();
        assert_eq!(h.table(0).len(), 1);
        round_trip(&h);
        // A wild taken out of the kings, waiting to be placed.
        let mut w = g.clone();
        w.apply("unwild 0 2H".parse().unwrap()).unwrap();
        assert_eq!(w.pending_wilds().to_string(), "2H");
        round_trip(&w);
        let v = saved(&w);
        assert_eq!(v["turn"]["pending"][0]["wild"], "2H");
        assert_eq!(v["turn"]["pending"][0]["src"], 0);
    }

    #[test]
    fn over_position() {
        let g = load(
            r#"{"phase":"over","turns":30,"end":{"kind":"went_out","player":0,"from_hand":false,"cleared_table":false},
            "players":[{"table":{"groups":["KC KD KS KH KC KD 2H"]}},{"hand":"4D 5D"}],
            "pile":"7H 8C"}"#,
        )
        .unwrap();
        assert!(g.is_terminal());
        assert!(g.scores()[0].went_out);
        round_trip(&g);
        assert!(err(r#"{"phase":"over"}"#).contains("phase over needs \"end\""));
        assert!(err(r#"{"phase":"draw","end":{"kind":"stalled"}}"#).contains("only in phase over"));
        let e = err(r#"{"phase":"over","end":{"kind":"stalled","player":1}}"#);
        assert!(e.contains("unknown field `player` in end"), "{e}");
        let e = err(r#"{"phase":"over","end":{"kind":"gone"}}"#);
        assert!(e.contains("end: unknown variant `gone`"), "{e}");
    }

    #[test]
    fn wrong_card_count() {
        let g = GameState::new(Rules::default(), 3);
        let mut v = saved(&g);
        let stock = v["stock"].as_str().unwrap().to_string();
        let (first, rest) = stock.split_once(' ').unwrap();
        v["stock"] = rest.into();
        let e = err(&v.to_string());
        assert!(e.contains("card conservation"), "{e}");
        assert!(e.contains("111 cards"), "{e}");
        assert!(e.contains(&format!("missing [{first}]")), "{e}");
        // One card too many.
        v["stock"] = format!("{stock} {first}").into();
        let e = err(&v.to_string());
        assert!(
            e.contains(&format!("{first} 3 times, the pack holds 2")),
            "{e}"
        );
        assert!(e.contains("stock ×3") || e.contains("cut"), "{e}");
    }

    #[test]
    fn card_three_times() {
        let e = err(r#"{"phase":"draw","players":[{"hand":"8D 8D"},{"hand":"8D 4C"}]}"#);
        assert!(e.contains("8D 3 times, the pack holds 2"), "{e}");
        assert!(e.contains("player 0 hand ×2, player 1 hand"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"hand":"8D 8D 8D"},{}]}"#);
        assert!(
            e.contains("player 0 hand: card 8D appears more often"),
            "{e}"
        );
        let e = err(
            r#"{"phase":"draw","players":[{},{}],"pile":"JK JK JK JK JK","stock":"JK JK JK JK"}"#,
        );
        assert!(
            e.contains("JK 9 times, the pack holds 8 (pile ×5, stock ×4)"),
            "{e}"
        );
    }

    #[test]
    fn illegal_groups_are_named() {
        let e =
            err(r#"{"phase":"draw","players":[{"table":{"groups":["KC KD KH","8C 2D 2S"]}},{}]}"#);
        assert!(
            e.contains("player 0 table group 1 [8C 2D 2S] is illegal: wilds must be fewer than naturals (D-9.1)"),
            "{e}"
        );
        let e = err(r#"{"phase":"draw","players":[{},{"table":{"groups":["8C 9C 9D"]}}]}"#);
        assert!(
            e.contains("player 1 table group 0 [8C 9C 9D] is not a group"),
            "{e}"
        );
        let e = err(r#"{"phase":"draw","players":[{"table":{"groups":["8C 8D"]}},{}]}"#);
        assert!(e.contains("at least 3 cards"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"table":{"groups":["3C 3S 3C"]}},{}]}"#);
        assert!(e.contains("threes are never melded"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"table":{"red_threes":"3C"}},{}]}"#);
        assert!(e.contains("only red threes"), "{e}");
    }

    #[test]
    fn red_three_in_hand() {
        let e = err(r#"{"phase":"draw","players":[{"hand":"3H 4C 5C"},{}]}"#);
        assert!(e.contains("player 0 hand holds a red three (3H)"), "{e}");
        assert!(e.contains("D-4"), "{e}");
    }

    #[test]
    fn bad_json() {
        let e = err(r#"{"phase":"draw", "players": [}"#);
        assert!(e.starts_with("bad position JSON"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"hnad":"4C"},{}]}"#);
        assert!(e.contains("unknown field `hnad`"), "{e}");
        let e = err(r#"{"players":[{},{}]}"#);
        assert!(e.contains("missing field `phase`"), "{e}");
        let e = err(r#"{"phase":"melding"}"#);
        assert!(e.contains("unknown variant `melding`"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"hand":"8X"},{}]}"#);
        assert!(e.contains("player 0 hand: bad card `8X`"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"hand":42},{}]}"#);
        assert!(e.contains("expected cards as a string"), "{e}");
        let e = err(r#"{"phase":"draw","format":"kanaszta-position/9"}"#);
        assert!(e.contains("kanaszta-position/1"), "{e}");
        let e = err(r#"{"phase":"draw","rules":{"players":9}}"#);
        assert!(e.contains("rules: players must be 2 to 6"), "{e}");
        let e = err(r#"{"phase":"draw","rng":"xyz"}"#);
        assert!(e.contains("hex digits"), "{e}");
        let e = err(r#"{"phase":"draw","rng":"1","seed":1}"#);
        assert!(e.contains("both rng and seed"), "{e}");
    }

    #[test]
    fn other_bad_positions() {
        let e = err(r#"{"phase":"draw","players":[{},{},{}]}"#);
        assert!(e.contains("lists 3 players but the rules say 2"), "{e}");
        let e = err(r#"{"phase":"draw","current":2}"#);
        assert!(e.contains("current player 2 is out of range"), "{e}");
        let e = err(r#"{"phase":"draw","starter":5}"#);
        assert!(e.contains("starter 5 is out of range"), "{e}");
        let e = err(r#"{"phase":"draw","players":[{"hand":"4C 5C","known":"4C 6C"},{}]}"#);
        assert!(
            e.contains("player 0 known cards [6C] are not in the hand"),
            "{e}"
        );
        let e = err(
            r#"{"phase":"meld","players":[{"hand":"4C 5C 2C"},{}],"turn":{"pickup":{"top":"2C"}}}"#,
        );
        assert!(
            e.contains("turn.pickup: the top card 2C is not a natural"),
            "{e}"
        );
        let e = err(
            r#"{"phase":"draw","pile":"4C","stock":"","stock_known_bottom":1,"players":[{"hand":"4C"},{}]}"#,
        );
        assert!(e.contains("card conservation"), "{e}");
        let e = err(r#"{"phase":"draw","stock_known_bottom":4}"#);
        assert!(e.contains("stock_known_bottom is 4"), "{e}");
        let g = GameState::new(Rules::default(), 1);
        let mut v = saved(&g);
        v["phase"] = "draw".into();
        v.as_object_mut().unwrap().remove("cut");
        let mut stock: Vec<String> = v["stock"]
            .as_str()
            .unwrap()
            .split(' ')
            .map(String::from)
            .collect();
        stock.extend(g.cut_cards().iter().map(|c| c.to_string()));
        v["stock"] = stock.join(" ").into();
        v["stock_known_bottom"] = 112.into();
        let e = err(&v.to_string());
        assert!(e.contains("stock_known_bottom is 112"), "{e}");
        let e = err(r#"{"phase":"draw","cut":"4C 5C 6C"}"#);
        assert!(e.contains("only in phase cut"), "{e}");
        let e = err(r#"{"phase":"cut","players":[{"hand":"4C"},{}]}"#);
        assert!(e.contains("before the deal"), "{e}");
        let e = err(r#"{"phase":"draw","anchor":{}}"#);
        assert!(e.contains("anchor is given only in phase meld"), "{e}");
        let e =
            err(r#"{"phase":"meld","players":[{"hand":"4C 5C"},{}],"anchor":{"hand":"4C 6C"}}"#);
        assert!(e.contains("anchor: the mover's hand"), "{e}");
        let e = err(r#"{"phase":"draw","turn":{"free_card":"4C"}}"#);
        assert!(e.contains("turn.free_card belongs to phase meld"), "{e}");
        let e = err(r#"{"phase":"meld","turn":{"free_offer":true}}"#);
        assert!(e.contains("only in phase draw"), "{e}");
        let e = err(
            r#"{"phase":"meld","players":[{"table":{"groups":["4C 4D 2C"]}},{}],"turn":{"pending":[{"wild":"JK","src":3}]}}"#,
        );
        assert!(
            e.contains("turn.pending[0].src: group 3 does not exist"),
            "{e}"
        );
        let e = err(
            r#"{"phase":"draw","rules":{"version":"decorated-2003-01"},"players":[{"table":{"heart_aces":1}},{}]}"#,
        );
        assert!(e.contains("D-9.4"), "{e}");
        let e = err(r#"{"phase":"draw","totals":[1]}"#);
        assert!(e.contains("totals lists 1"), "{e}");
    }

    /// Broken saved positions (fields removed or changed at random) are
    /// refused or accepted, never a panic, and accepted ones hold together.
    #[test]
    fn mutations_never_panic() {
        use rand::RngExt;
        const FUZZ_STATES: u64 = 12;
        const FUZZ_TRIES: usize = 250;
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut states = Vec::new();
        for seed in 0..FUZZ_STATES {
            let mut g = GameState::new(Rules::default(), seed);
            let mut legal = Vec::new();
            for step in 0..((seed * 37) % 400) {
                if g.is_terminal() {
                    break;
                }
                g.legal_actions(&mut legal);
                g.apply(legal[(step as usize * 7) % legal.len()]).unwrap();
            }
            states.push(g);
        }
        let values = [
            serde_json::json!(null),
            serde_json::json!(0),
            serde_json::json!(3),
            serde_json::json!(255),
            serde_json::json!(-1),
            serde_json::json!(true),
            serde_json::json!(""),
            serde_json::json!("JK"),
            serde_json::json!("4C 4C"),
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!("meld"),
            serde_json::json!("draw"),
        ];
        fn paths(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        let p = format!("{at}/{k}");
                        out.push(p.clone());
                        paths(x, p, out);
                    }
                }
                serde_json::Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        let p = format!("{at}/{i}");
                        out.push(p.clone());
                        paths(x, p, out);
                    }
                }
                _ => {}
            }
        }
        let (mut accepted, mut refused) = (0, 0);
        for g in &states {
            let v = saved(g);
            let mut all = Vec::new();
            paths(&v, String::new(), &mut all);
            for _ in 0..FUZZ_TRIES {
                let mut w = v.clone();
                for _ in 0..rng.random_range(1..3) {
                    let p = &all[rng.random_range(0..all.len())];
                    if let Some(x) = w.pointer_mut(p) {
                        *x = values[rng.random_range(0..values.len())].clone();
                    }
                }
                match load(&w.to_string()) {
                    Ok(s) => {
                        accepted += 1;
                        s.check_invariants().unwrap();
                        round_trip(&s);
                        let mut legal = Vec::new();
                        s.legal_actions(&mut legal);
                        for a in legal {
                            let mut t = s.clone();
                            t.apply(a).unwrap();
                        }
                    }
                    Err(_) => refused += 1,
                }
            }
        }
        assert!(
            accepted > 50 && refused > 50,
            "accepted {accepted}, refused {refused}"
        );
    }
}
