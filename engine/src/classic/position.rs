//! [`ClassicPosition`]: a hand of classic canasta as JSON (the position
//! format `kanaszta-position/1` with `"family": "classic"`), loaded with
//! every check of C-1 … C-24 that a position can break, and saved so that
//! loading what was saved gives back the same [`ClassicState`] (stock order
//! included, so play continues identically).
//!
//! Every field is described, with an example per phase, in sim/POSITIONS.md
//! ("Classic canasta"). In short: `rules` (a preset name or an object of
//! switches, `preset` first), `phase` (`draw`, `answer`, `meld`, `over`),
//! `dealer`, `mover` (whose turn it is; `current` is derived: the partner
//! while he answers "may I go out?"), `turns`, `totals` (per side),
//! `players` (`hand`, `known`, `melded_before`), `sides` (`players`,
//! `melds`, `black_threes`, `wild_canastas`, `red_threes`, `failed_yes`,
//! `opened`), `pile` (bottom first), `frozen`, `stock` (bottom first, the
//! last card is drawn next; or a count, or left out: then the rest of the
//! pack shuffled by `seed`), `turned_open`, `turn` (the turn in progress)
//! and `end`.
//!
//! ```
//! use kanaszta_engine::classic::{ClassicPosition, ClassicRules, ClassicState};
//! let g = ClassicState::new(ClassicRules::preset("classic-003").unwrap(), 5, 1, [0; 6]);
//! let text = ClassicPosition::from_state(&g).to_json();
//! let back = ClassicState::from_position_json(&text).unwrap();
//! assert!(back.same_position(&g));
//! assert_eq!(back.to_position_json(), text);
//! ```

use super::action::{Kind, MeldKey};
use super::rules::ClassicRules;
use super::state::*;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::position::json::Cards;
use crate::position::PositionError;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt::Write as _;

/// The format tag (shared with decorated positions).
const FORMAT: &str = "kanaszta-position/1";

/// The family tag of a classic position.
const FAMILY: &str = crate::Family::Classic.name();

/// Whether position JSON text is a classic canasta position: its `family`
/// is `"classic"`, or (without `family`) its `rules` name a classic preset
/// (`"rules": "classic-003"` or `"rules": {"preset": "classic-003", …}`).
/// Text that is not a JSON object is not (the decorated loader says why).
pub fn is_classic_position(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    if let Some(f) = m.get("family") {
        return f.as_str() == Some(FAMILY);
    }
    let preset = match m.get("rules") {
        Some(serde_json::Value::String(s)) => Some(s.as_str()),
        Some(serde_json::Value::Object(r)) => r.get("preset").and_then(|p| p.as_str()),
        _ => None,
    };
    preset.is_some_and(|p| p.starts_with("classic"))
}

/// A classic hand as position JSON (see the [module documentation](self)
/// and sim/POSITIONS.md). [`ClassicPosition::from_json`] checks everything
/// and names the field and the rule; [`ClassicPosition::to_state`] builds
/// the [`ClassicState`]; [`ClassicPosition::from_state`] and
/// [`ClassicPosition::to_json`] save one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicPosition {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    family: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<RulesField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    phase: PhaseJson,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dealer: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mover: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    current: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    totals: Option<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    players: Option<Vec<PlayerJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sides: Option<Vec<SideJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pile: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frozen: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de_stock"
    )]
    stock: Option<StockJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turned_open: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<TurnJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end: Option<EndJson>,
}

/// The rules as read (a preset name or an object), or as written: the
/// switches in order, `preset` first.
#[derive(Clone, Debug, PartialEq)]
enum RulesField {
    Read(serde_json::Value),
    Ordered(Vec<(String, serde_json::Value)>),
}

impl Serialize for RulesField {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            RulesField::Read(v) => v.serialize(s),
            RulesField::Ordered(kv) => {
                let mut m = s.serialize_map(Some(kv.len()))?;
                for (k, v) in kv {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for RulesField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RulesField, D::Error> {
        serde_json::Value::deserialize(d).map(RulesField::Read)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhaseJson {
    Draw,
    Answer,
    Meld,
    Over,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hand: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    known: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    melded_before: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    players: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    melds: Option<Vec<Cards>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_threes: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wild_canastas: Option<Vec<Cards>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    red_threes: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failed_yes: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnchorJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    melds: Option<Vec<Cards>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_threes: Option<Cards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wild_canastas: Option<Vec<Cards>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    red_threes: Option<Cards>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asked: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    must_go_out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drew: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pickup: Option<PickupJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_three_pickup: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opening: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_red_three: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    new: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    committed: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    undos: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    anchor: Option<AnchorJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PickupJson {
    top: String,
    meld: String,
    #[serde(default)]
    rest_pending: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EndJson {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    concealed: Option<bool>,
}

/// The stock: an ordered list (bottom first) or a count.
#[derive(Clone, Debug, PartialEq)]
enum StockJson {
    Cards(Cards),
    Count(u64),
}

impl Serialize for StockJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StockJson::Cards(c) => c.serialize(s),
            StockJson::Count(n) => s.serialize_u64(*n),
        }
    }
}

fn de_stock<'de, D: Deserializer<'de>>(d: D) -> Result<Option<StockJson>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    match v {
        None => Ok(None),
        Some(serde_json::Value::Number(n)) => n
            .as_u64()
            .map(|n| Some(StockJson::Count(n)))
            .ok_or_else(|| serde::de::Error::custom("stock: a count is a whole number")),
        Some(v) => serde_json::from_value::<Cards>(v)
            .map(|c| Some(StockJson::Cards(c)))
            .map_err(|e| serde::de::Error::custom(format!("stock: {e}, or a count of cards"))),
    }
}

// ----- helpers -------------------------------------------------------------

fn field(path: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError::Field {
        path: path.into(),
        message: message.into(),
    }
}

fn invalid(f: impl Into<String>, message: impl Into<String>) -> PositionError {
    let f = f.into();
    let message = message.into();
    PositionError::Invalid {
        message: format!("{f}: {message}"),
        field: f,
    }
}

fn text_of(c: &Cards) -> Vec<String> {
    match c {
        Cards::Text(t) => t
            .split([' ', ',', '\t', '\n'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect(),
        Cards::List(l) => l.iter().map(|t| t.trim().to_string()).collect(),
    }
}

fn list_of(c: &Cards, path: &str) -> Result<Vec<Card>, PositionError> {
    text_of(c)
        .iter()
        .map(|t| t.parse::<Card>().map_err(|e| field(path, e.to_string())))
        .collect()
}

fn set_of(c: &Cards, path: &str) -> Result<CardSet, PositionError> {
    let mut s = CardSet::EMPTY;
    for card in list_of(c, path)? {
        if !s.insert(card) {
            return Err(field(
                path,
                format!(
                    "card {card} appears more often than the pack holds (2 of each suited card, 4 or 6 jokers; C-1)"
                ),
            ));
        }
    }
    Ok(s)
}

fn opt_set(c: &Option<Cards>, path: &str) -> Result<CardSet, PositionError> {
    c.as_ref().map_or(Ok(CardSet::EMPTY), |c| set_of(c, path))
}

fn cards_text(cards: impl IntoIterator<Item = Card>) -> String {
    let mut s = String::new();
    for c in cards {
        if !s.is_empty() {
            s.push(' ');
        }
        let _ = write!(s, "{c}");
    }
    s
}

/// The name of a bit of a turn's meld masks: a rank, `3`, `W` (the first
/// wild canasta) or `W2` (the second).
fn bit_name(bit: u32) -> String {
    match bit {
        0..=10 => Kind::from_index(bit as usize).name().to_string(),
        11 => "3".into(),
        12 => "W".into(),
        _ => "W2".into(),
    }
}

fn bit_of(name: &str, path: &str) -> Result<u32, PositionError> {
    match name.trim() {
        "3" => Ok(11),
        "W" | "w" => Ok(12),
        "W2" | "w2" => Ok(13),
        t => match t.parse::<Kind>() {
            Ok(k) if k.rank().is_some() => Ok(k.index() as u32),
            _ => Err(field(
                path,
                format!("bad meld `{t}`: expected a rank 4-A, 3 (the black threes), W or W2 (the first or second wild canasta)"),
            )),
        },
    }
}

fn mask_names(mask: u16) -> Vec<String> {
    (0..14)
        .filter(|b| mask & (1 << b) != 0)
        .map(bit_name)
        .collect()
}

fn mask_of(names: &Option<Vec<String>>, path: &str) -> Result<u16, PositionError> {
    let mut m = 0u16;
    for n in names.iter().flatten() {
        m |= 1 << bit_of(n, path)?;
    }
    Ok(m)
}

/// Rules from a preset name or an object of switches (`preset` first).
fn rules_of(v: &Option<RulesField>) -> Result<ClassicRules, PositionError> {
    let bad = |m: String| field("rules", m);
    let mut r = ClassicRules::default();
    let v = match v {
        None => None,
        Some(RulesField::Read(v)) => Some(v.clone()),
        Some(RulesField::Ordered(kv)) => {
            Some(serde_json::Value::Object(kv.iter().cloned().collect()))
        }
    };
    match &v {
        None => {}
        Some(serde_json::Value::String(p)) => {
            r = ClassicRules::preset(p).map_err(|e| bad(e.to_string()))?;
        }
        Some(serde_json::Value::Object(m)) => {
            if let Some(p) = m.get("preset") {
                let p = p
                    .as_str()
                    .ok_or_else(|| bad(format!("preset: expected a preset name, found {p}")))?;
                r = ClassicRules::preset(p).map_err(|e| bad(e.to_string()))?;
            }
            for (k, v) in m.iter().filter(|(k, _)| *k != "preset") {
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Number(n) => n.to_string(),
                    serde_json::Value::Bool(b) => b.to_string(),
                    other => return Err(bad(format!("{k}: expected a value, found {other}"))),
                };
                r.set(k, &text).map_err(|e| bad(e.to_string()))?;
            }
        }
        Some(other) => {
            return Err(bad(format!(
                "expected a classic preset name such as \"classic-003\" or an object such as {{\"preset\": \"classic-002\", \"players\": 4}}, found {other}"
            )))
        }
    }
    r.validate().map_err(|e| bad(e.to_string()))?;
    Ok(r)
}

/// The rules as written: `preset`, `players`, and the switches that differ
/// from the preset.
fn rules_json(r: &ClassicRules) -> RulesField {
    let base = ClassicRules::preset(r.preset)
        .unwrap_or_default()
        .settings();
    let mut m = Vec::new();
    for (k, v) in r.settings() {
        let differs = base.iter().any(|(bk, bv)| *bk == k && *bv != v);
        if k == "preset" || k == "players" || differs {
            let val = match v.parse::<i64>() {
                Ok(n) if !v.starts_with('0') => serde_json::Value::from(n),
                _ => serde_json::Value::from(v),
            };
            m.push((k.to_string(), val));
        }
    }
    RulesField::Ordered(m)
}

/// A card count per kind index.
fn counts(cards: impl IntoIterator<Item = Card>, into: &mut [u32; Card::KINDS]) {
    for c in cards {
        into[c.index() as usize] += 1;
    }
}

fn set_cards(s: CardSet) -> impl Iterator<Item = Card> {
    s.iter()
}

/// A side's table read from JSON: melds by rank, black threes, wild
/// canastas, red threes; `base` gives the fields left out (the anchor).
struct TableParts<'a> {
    melds: &'a Option<Vec<Cards>>,
    black_threes: &'a Option<Cards>,
    wild_canastas: &'a Option<Vec<Cards>>,
    red_threes: &'a Option<Cards>,
}

/// `unfinished`: the mover's side in his meld phase, whose melds may wait
/// for the naturals that make them legal as a whole (I-25; checked against
/// the anchor once it is read).
fn table_of(
    parts: TableParts,
    base: &SideTable,
    r: &ClassicRules,
    path: &str,
    unfinished: bool,
) -> Result<SideTable, PositionError> {
    let mut t = *base;
    if let Some(melds) = parts.melds {
        t.melds = [CardSet::EMPTY; 11];
        for (i, m) in melds.iter().enumerate() {
            let p = format!("{path}.melds[{i}]");
            let set = set_of(m, &p)?;
            let mut kind = None;
            for c in set.iter().filter(|c| !c.is_wild()) {
                if c.is_red_three() {
                    return Err(invalid(&p, format!("red three {c} in a meld: red threes are laid apart, in `red_threes` (C-8)")));
                }
                if c.is_black_three() {
                    return Err(invalid(&p, format!("black three {c} in a meld of a rank: black threes meld only among themselves, in `black_threes` (C-16)")));
                }
                let k = Kind::of(c).expect("a natural");
                match kind {
                    None => kind = Some(k),
                    Some(k0) if k0 != k => {
                        return Err(invalid(
                            &p,
                            format!("[{set}] mixes ranks {k0} and {k}: a meld holds naturals of one rank 4-A and wilds (C-4, C-20)"),
                        ))
                    }
                    _ => {}
                }
            }
            let Some(k) = kind else {
                return Err(invalid(&p, format!("[{set}] holds no natural: seven wilds are a wild canasta, in `wild_canastas` (C-21); a meld of a rank holds at least two naturals (C-4)")));
            };
            if !t.melds[k.index()].is_empty() {
                return Err(invalid(
                    &p,
                    format!("a second meld of {k}: a side has one meld per rank, extended (C-20)"),
                ));
            }
            let (n, w) = (k.count_in(set), set.wild_count());
            if !r.meld_ok(n, w) && !unfinished {
                return Err(invalid(
                    &p,
                    format!(
                        "[{set}]: {n} natural(s) and {w} wild(s) break {} (C-4: wild_limit {}; a meld has at least 3 cards)",
                        r.preset,
                        r.settings()
                            .into_iter()
                            .find(|(k, _)| *k == "wild_limit")
                            .map(|(_, v)| v)
                            .unwrap_or_default()
                    ),
                ));
            }
            t.melds[k.index()] = set;
        }
    }
    if parts.black_threes.is_some() {
        let p = format!("{path}.black_threes");
        let b = opt_set(parts.black_threes, &p)?;
        if !b.is_empty() {
            let n = Kind::BLACK_THREE.count_in(b);
            if n + b.wild_count() != b.len() {
                return Err(invalid(
                    &p,
                    format!("[{b}]: a black-three meld holds black threes and wilds only (C-16)"),
                ));
            }
            if !r.black_three_meld_ok(n, b.wild_count()) {
                return Err(invalid(
                    &p,
                    format!("[{b}] is not a black-three meld under {} (C-16)", r.preset),
                ));
            }
        }
        t.black_threes = b;
    }
    if let Some(ws) = parts.wild_canastas {
        let p = format!("{path}.wild_canastas");
        if !ws.is_empty() && r.wild_canasta == 0 {
            return Err(invalid(
                &p,
                format!("{} has no wild canasta (C-5: wild_canasta none)", r.preset),
            ));
        }
        if ws.len() > 2 {
            return Err(invalid(
                &p,
                "at most two wild canastas: the pack holds 8 or 14 wilds (C-21)",
            ));
        }
        t.wild_canastas = [CardSet::EMPTY; 2];
        for (i, w) in ws.iter().enumerate() {
            let pi = format!("{p}[{i}]");
            let set = set_of(w, &pi)?;
            if set.len() != 7 || set.wild_count() != 7 {
                return Err(invalid(
                    &pi,
                    format!("[{set}]: a wild canasta is seven wilds (C-21)"),
                ));
            }
            t.wild_canastas[i] = set;
        }
    }
    if parts.red_threes.is_some() {
        let p = format!("{path}.red_threes");
        let s = opt_set(parts.red_threes, &p)?;
        if s.red_three_count() != s.len() {
            return Err(invalid(
                &p,
                format!("[{s}]: only red threes (3H, 3D) are laid apart (C-8)"),
            ));
        }
        t.red_threes = s;
    }
    Ok(t)
}

fn melds_json(t: &SideTable) -> Vec<Cards> {
    t.melds
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| Cards::Text(m.to_string()))
        .collect()
}

fn wilds_json(t: &SideTable) -> Option<Vec<Cards>> {
    let v: Vec<Cards> = t
        .wild_canastas
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| Cards::Text(m.to_string()))
        .collect();
    (!v.is_empty()).then_some(v)
}

fn nonempty(s: CardSet) -> Option<Cards> {
    (!s.is_empty()).then(|| Cards::Text(s.to_string()))
}

/// Whether `c` closes the pile (C-7): a wild, or a red three under
/// `closed_pile = unmelded_wild_red`.
fn freezes(r: &ClassicRules, c: Card) -> bool {
    c.is_wild() || (c.is_red_three() && r.closed_pile == super::rules::ClosedPile::UnmeldedWildRed)
}

/// The default of `turn.opening`: the side had no meld when the turn began
/// (every meld it holds was laid this turn), unless the rest of the pile
/// was taken (then the opening is made).
fn default_opening(t: &SideTable, new_mask: u16, pickup: Option<ClassicPickup>) -> bool {
    if matches!(pickup, Some(pk) if !pk.rest_pending) {
        return false;
    }
    (0..11).all(|k| t.melds[k].is_empty() || new_mask & (1 << k) != 0)
        && (t.black_threes.is_empty() || new_mask & (1 << 11) != 0)
        && (t.wild_canastas[0].is_empty() || new_mask & (1 << 12) != 0)
        && (t.wild_canastas[1].is_empty() || new_mask & (1 << 13) != 0)
}

fn default_turned_open(r: &ClassicRules, turns: u32, phase: ClassicPhase) -> bool {
    r.turned_covered && turns == 0 && matches!(phase, ClassicPhase::Draw | ClassicPhase::Answer)
}

fn phase_of(p: PhaseJson) -> ClassicPhase {
    match p {
        PhaseJson::Draw => ClassicPhase::Draw,
        PhaseJson::Answer => ClassicPhase::Answer,
        PhaseJson::Meld => ClassicPhase::Meld,
        PhaseJson::Over => ClassicPhase::Over,
    }
}

fn phase_json(p: ClassicPhase) -> PhaseJson {
    match p {
        ClassicPhase::Draw => PhaseJson::Draw,
        ClassicPhase::Answer => PhaseJson::Answer,
        ClassicPhase::Meld => PhaseJson::Meld,
        ClassicPhase::Over => PhaseJson::Over,
    }
}

impl ClassicState {
    /// This state as position JSON text (see [`ClassicPosition`]).
    pub fn to_position_json(&self) -> String {
        ClassicPosition::from_state(self).to_json()
    }

    /// A state from position JSON text (see [`ClassicPosition`]), checked
    /// completely.
    pub fn from_position_json(text: &str) -> Result<ClassicState, PositionError> {
        ClassicPosition::from_json(text)?.to_state()
    }

    /// Whether two states are the same position: every card's place, the
    /// turn, the totals (the parts of the fixed arrays past the stock, the
    /// pile and the players are no part of a position).
    pub fn same_position(&self, other: &ClassicState) -> bool {
        self.clone().normalized() == other.clone().normalized()
    }

    fn normalized(mut self) -> ClassicState {
        for c in &mut self.stock[self.stock_len as usize..] {
            *c = Card::JOKER;
        }
        for c in &mut self.pile[self.pile_len as usize..] {
            *c = Card::JOKER;
        }
        self
    }
}

impl ClassicPosition {
    /// Parses classic position JSON and checks it completely (as
    /// [`ClassicPosition::to_state`] does).
    pub fn from_json(text: &str) -> Result<ClassicPosition, PositionError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if !text.trim_start().starts_with('{') {
            return Err(PositionError::Json(
                "a classic position is one JSON object, e.g. {\"family\": \"classic\", \"rules\": \"classic-002\", \"phase\": \"draw\"}".into(),
            ));
        }
        let p: ClassicPosition =
            serde_json::from_str(text).map_err(|e| PositionError::Json(e.to_string()))?;
        p.to_state()?;
        Ok(p)
    }

    /// The position as JSON text, laid out as decorated positions are
    /// (arrays and objects that fit in 80 columns on one line).
    pub fn to_json(&self) -> String {
        match serde_json::to_string(self) {
            Ok(t) => crate::position::layout::layout(&t),
            Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
        }
    }

    /// A state as a position: every field the loader cannot derive.
    pub fn from_state(g: &ClassicState) -> ClassicPosition {
        let r = &g.rules;
        let n = g.players();
        let sides = r.sides();
        let side = r.side_of(g.mover as usize);
        let players = (0..n)
            .map(|p| PlayerJson {
                hand: Some(Cards::Text(g.hands[p].to_string())),
                known: nonempty(g.known[p]),
                melded_before: (g.melded_before[p] != g.tables[r.side_of(p)].has_melds())
                    .then_some(g.melded_before[p]),
            })
            .collect();
        let side_list = (0..sides)
            .map(|s| {
                let t = &g.tables[s];
                SideJson {
                    players: Some(
                        (0..n)
                            .filter(|&p| r.side_of(p) == s)
                            .map(|p| p as u8)
                            .collect(),
                    ),
                    melds: Some(melds_json(t)),
                    black_threes: nonempty(t.black_threes),
                    wild_canastas: wilds_json(t),
                    red_threes: nonempty(t.red_threes),
                    failed_yes: (g.failed_yes[s] > 0).then_some(g.failed_yes[s]),
                    opened: Some(t.has_melds()),
                }
            })
            .collect();
        let tu = &g.turn;
        let now = &g.tables[side];
        let anchor = (tu.anchor != *now).then(|| AnchorJson {
            melds: (tu.anchor.melds != now.melds).then(|| melds_json(&tu.anchor)),
            black_threes: (tu.anchor.black_threes != now.black_threes)
                .then(|| Cards::Text(tu.anchor.black_threes.to_string())),
            wild_canastas: (tu.anchor.wild_canastas != now.wild_canastas)
                .then(|| wilds_json(&tu.anchor).unwrap_or_default()),
            red_threes: (tu.anchor.red_threes != now.red_threes)
                .then(|| Cards::Text(tu.anchor.red_threes.to_string())),
        });
        let asked_default = tu.answer.is_some() || g.phase == ClassicPhase::Answer;
        let drew_default = g.phase == ClassicPhase::Meld && tu.pickup.is_none();
        let b3_default = matches!(tu.pickup, Some(pk) if pk.key == MeldKey::BlackThrees);
        let turn = TurnJson {
            asked: (tu.asked != asked_default).then_some(tu.asked),
            answer: tu.answer,
            must_go_out: tu.must_go_out.then_some(true),
            drew: (tu.drew != drew_default).then_some(tu.drew),
            pickup: tu.pickup.map(|pk| PickupJson {
                top: pk.top.to_string(),
                meld: pk.key.to_string(),
                rest_pending: pk.rest_pending,
            }),
            black_three_pickup: (tu.black_three_pickup != b3_default)
                .then_some(tu.black_three_pickup),
            opening: (tu.opening != default_opening(now, tu.new_mask, tu.pickup))
                .then_some(tu.opening),
            last_red_three: tu.last_red_three.then_some(true),
            new: (tu.new_mask != 0).then(|| mask_names(tu.new_mask)),
            committed: (tu.committed_mask != 0).then(|| mask_names(tu.committed_mask)),
            undos: (tu.undos != 0).then_some(tu.undos),
            anchor,
        };
        let end = g.end.map(|e| match e {
            ClassicEnd::WentOut { player, concealed } => EndJson {
                kind: "went_out".into(),
                player: Some(player),
                concealed: Some(concealed),
            },
            ClassicEnd::StockOut => EndJson {
                kind: "stock_out".into(),
                player: None,
                concealed: None,
            },
            ClassicEnd::Stalled => EndJson {
                kind: "stalled".into(),
                player: None,
                concealed: None,
            },
        });
        ClassicPosition {
            format: Some(FORMAT.into()),
            family: Some(FAMILY.into()),
            rules: Some(rules_json(r)),
            seed: None,
            phase: phase_json(g.phase),
            dealer: Some(g.dealer),
            mover: Some(g.mover),
            current: None,
            turns: Some(g.turns),
            totals: g.totals[..sides]
                .iter()
                .any(|&t| t != 0)
                .then(|| g.totals[..sides].to_vec()),
            players: Some(players),
            sides: Some(side_list),
            pile: Some(Cards::Text(cards_text(g.pile().iter().copied()))),
            frozen: Some(g.frozen),
            stock: Some(StockJson::Cards(Cards::Text(cards_text(
                g.stock[..g.stock_len as usize].iter().copied(),
            )))),
            turned_open: (g.turned_open != default_turned_open(r, g.turns, g.phase))
                .then_some(g.turned_open),
            turn: (turn != TurnJson::default()).then_some(turn),
            end,
        }
    }

    /// The state, checked: the pack conserved (C-1), players and sides
    /// (C-2, C-20), legal melds under the preset (C-4, C-5, C-16, C-21),
    /// red threes (C-8), the pile's state (C-7), the phase and the turn
    /// (C-10, C-11, C-14, C-15, C-18, C-23, I-5, I-25).
    pub fn to_state(&self) -> Result<ClassicState, PositionError> {
        if let Some(f) = &self.format {
            if f != FORMAT {
                return Err(field("format", format!("`{f}`: expected \"{FORMAT}\"")));
            }
        }
        if let Some(f) = &self.family {
            if f != FAMILY {
                return Err(field(
                    "family",
                    format!("`{f}`: a classic position has \"family\": \"classic\" (decorated positions leave `family` out)"),
                ));
            }
        }
        let r = rules_of(&self.rules)?;
        let n = r.players as usize;
        let sides = r.sides();
        let phase = phase_of(self.phase);
        let dealer = self.dealer.unwrap_or(0) as usize;
        if dealer >= n {
            return Err(invalid(
                "dealer",
                format!(
                    "player {dealer} does not exist: players are 0 to {} (C-2)",
                    n - 1
                ),
            ));
        }
        let mover = self.mover.map_or((dealer + 1) % n, |m| m as usize);
        if mover >= n {
            return Err(invalid(
                "mover",
                format!(
                    "player {mover} does not exist: players are 0 to {} (C-2)",
                    n - 1
                ),
            ));
        }
        let turns = self.turns.unwrap_or(0);
        let current = if phase == ClassicPhase::Answer {
            (mover + 2) % 4
        } else {
            mover
        };
        if let Some(c) = self.current {
            if c as usize != current {
                return Err(invalid(
                    "current",
                    format!("player {c}, but in phase {:?} the player to act is {current} (the mover, or his partner while he answers, C-18)", phase),
                ));
            }
        }
        let mut totals = [0i32; CLASSIC_MAX_PLAYERS];
        if let Some(t) = &self.totals {
            if t.len() != sides {
                return Err(invalid(
                    "totals",
                    format!(
                        "{} totals for {sides} sides: one running total per side (C-12, C-24)",
                        t.len()
                    ),
                ));
            }
            totals[..sides].copy_from_slice(t);
        }
        // Players.
        let default_players = vec![PlayerJson::default(); n];
        let pj = self.players.as_ref().unwrap_or(&default_players);
        if pj.len() != n {
            return Err(invalid(
                "players",
                format!(
                    "{} players, but the rules say players = {n} (C-2)",
                    pj.len()
                ),
            ));
        }
        let mut hands = [CardSet::EMPTY; CLASSIC_MAX_PLAYERS];
        let mut known = [CardSet::EMPTY; CLASSIC_MAX_PLAYERS];
        for (p, pl) in pj.iter().enumerate() {
            hands[p] = opt_set(&pl.hand, &format!("players[{p}].hand"))?;
            known[p] = opt_set(&pl.known, &format!("players[{p}].known"))?;
            if !hands[p].contains_all(known[p]) {
                return Err(invalid(
                    format!("players[{p}].known"),
                    format!("[{}] are not all in the hand", known[p]),
                ));
            }
        }
        // Red threes in a hand are dealt ones, before the player's first
        // turn (C-8, C-22); only the hand's end lays them otherwise.
        let first_turn = |p: usize| ((p + 2 * n - dealer - 1) % n) as u32;
        let turn_begun = self
            .turn
            .as_ref()
            .is_some_and(|t| t.asked == Some(true) || t.answer.is_some());
        for (p, h) in hands[..n].iter().enumerate() {
            let (f, red) = (first_turn(p), h.red_three_count() > 0);
            let why = if red && phase == ClassicPhase::Over {
                "a red three in a hand at the end of the hand: dealt red threes of a player whose first turn never came score as laid (C-22, C-8); put them in his side's `red_threes`".to_string()
            } else if red && p == mover && (phase != ClassicPhase::Draw || turn_begun || turns != f)
            {
                format!("the mover holds a red three: red threes are laid at once and replaced from the stock (C-8); only a player about to begin his first turn (phase draw, turns {f}, before asking, C-18, C-22) holds his dealt ones; else put it in his side's `red_threes`")
            } else if red && p != mover && turns > f {
                format!("player {p} holds a red three after his first turn (turn {f} of this hand, the dealer {dealer}'s left beginning): dealt red threes are laid at the start of it (C-8, C-22); put it in his side's `red_threes`")
            } else if h.is_empty()
                && phase != ClassicPhase::Over
                && (p != mover || matches!(phase, ClassicPhase::Draw | ClassicPhase::Answer))
            {
                format!("player {p} holds no card, but the hand is not over: a hand empties only by going out, which ends the hand (C-10); only the mover's hand may be empty, in his meld phase")
            } else {
                continue;
            };
            return Err(invalid(format!("players[{p}].hand"), why));
        }
        // Sides.
        let default_sides = vec![SideJson::default(); sides];
        let sj = self.sides.as_ref().unwrap_or(&default_sides);
        if sj.len() != sides {
            return Err(invalid(
                "sides",
                format!(
                    "{} sides, but {n} players make {sides} (C-2, C-20: four play in two partnerships, otherwise everyone alone)",
                    sj.len()
                ),
            ));
        }
        let mut tables = [SideTable::default(); CLASSIC_MAX_PLAYERS];
        let mut failed_yes = [0u8; CLASSIC_MAX_PLAYERS];
        for (s, sd) in sj.iter().enumerate() {
            let path = format!("sides[{s}]");
            let members: Vec<u8> = (0..n)
                .filter(|&p| r.side_of(p) == s)
                .map(|p| p as u8)
                .collect();
            if let Some(ps) = &sd.players {
                if *ps != members {
                    return Err(invalid(
                        format!("{path}.players"),
                        format!("{ps:?}, but side {s} is players {members:?} (C-20: partners sit opposite, sides alternate)"),
                    ));
                }
            }
            tables[s] = table_of(
                TableParts {
                    melds: &sd.melds,
                    black_threes: &sd.black_threes,
                    wild_canastas: &sd.wild_canastas,
                    red_threes: &sd.red_threes,
                },
                &SideTable::default(),
                &r,
                &path,
                phase == ClassicPhase::Meld && s == r.side_of(mover),
            )?;
            if let Some(o) = sd.opened {
                if o != tables[s].has_melds() {
                    return Err(invalid(
                        format!("{path}.opened"),
                        format!("{o}, but the side {} (a side has opened once it has a meld on the table, C-17)", if o { "has no meld" } else { "has melds" }),
                    ));
                }
            }
            failed_yes[s] = sd.failed_yes.unwrap_or(0);
            if failed_yes[s] > 0 && !r.partnerships() {
                return Err(invalid(
                    format!("{path}.failed_yes"),
                    "only partners ask \"may I go out?\" (C-18)",
                ));
            }
        }
        // The pile and the stock; the pack conserved (C-1).
        let pile = match &self.pile {
            Some(c) => list_of(c, "pile")?,
            None => Vec::new(),
        };
        let mut used = [0u32; Card::KINDS];
        for h in &hands[..n] {
            counts(set_cards(*h), &mut used);
        }
        for t in &tables[..sides] {
            counts(set_cards(t.all()), &mut used);
        }
        counts(pile.iter().copied(), &mut used);
        let pack = classic_pack(r.jokers);
        let mut pack_n = [0u32; Card::KINDS];
        counts(set_cards(pack), &mut pack_n);
        let mut rest = Vec::new();
        let mut extra = Vec::new();
        for i in 0..Card::KINDS {
            let c = Card::from_index(i as u8).expect("a kind");
            for _ in pack_n[i]..used[i] {
                extra.push(c);
            }
            for _ in used[i]..pack_n[i] {
                rest.push(c);
            }
        }
        if !extra.is_empty() {
            return Err(invalid(
                "players, sides, pile",
                format!(
                    "more cards than the pack of {} holds (C-1: two decks and {} jokers): {} too many",
                    r.pack_size(),
                    r.jokers,
                    cards_text(extra)
                ),
            ));
        }
        let stock: Vec<Card> = match &self.stock {
            Some(StockJson::Cards(c)) => {
                let s = list_of(c, "stock")?;
                let mut have = [0u32; Card::KINDS];
                counts(s.iter().copied(), &mut have);
                let mut want = [0u32; Card::KINDS];
                counts(rest.iter().copied(), &mut want);
                if have != want {
                    let mut missing = Vec::new();
                    let mut more = Vec::new();
                    for i in 0..Card::KINDS {
                        let c = Card::from_index(i as u8).expect("a kind");
                        for _ in have[i]..want[i] {
                            missing.push(c);
                        }
                        for _ in want[i]..have[i] {
                            more.push(c);
                        }
                    }
                    let total = s.len() + (r.pack_size() - rest.len());
                    return Err(invalid(
                        "stock",
                        format!(
                            "the position holds {total} cards where the pack holds {} (C-1){}{}",
                            r.pack_size(),
                            if missing.is_empty() {
                                String::new()
                            } else {
                                format!("; missing: {}", cards_text(missing))
                            },
                            if more.is_empty() {
                                String::new()
                            } else {
                                format!("; too many: {}", cards_text(more))
                            },
                        ),
                    ));
                }
                s
            }
            other => {
                if let Some(StockJson::Count(k)) = other {
                    if *k as usize != rest.len() {
                        return Err(invalid(
                            "stock",
                            format!(
                                "{k} cards, but the pack of {} leaves {} for the stock (C-1)",
                                r.pack_size(),
                                rest.len()
                            ),
                        ));
                    }
                }
                let mut rng = Pcg64Mcg::seed_from_u64(self.seed.unwrap_or(0));
                let mut deck = rest.clone();
                for i in (1..deck.len()).rev() {
                    let j = rng.random_range(0..=i);
                    deck.swap(i, j);
                }
                deck
            }
        };
        if self.seed.is_some() && matches!(self.stock, Some(StockJson::Cards(_))) {
            return Err(invalid("seed", "the seed shuffles a stock left out (or given as a count); this position gives the stock's cards"));
        }
        if r.wild_top == super::rules::WildTop::Under
            && pile.last().is_some_and(|c| c.is_wild())
            && pile.iter().any(|c| !c.is_wild() && !c.is_red_three())
        {
            return Err(invalid(
                "pile",
                format!(
                    "a wild on top ({}) under wild_top = under: a discarded wild lies crosswise under the pile, never on top (C-13), and a turned wild is covered (C-22); a wild shows on top only of a pile of nothing but wilds and turned red threes",
                    pile.last().expect("checked")
                ),
            ));
        }
        let frozen_by_pile = pile.iter().any(|&c| freezes(&r, c));
        // While the rest of a pile is pending, it stays closed as it was
        // when its top card (a wild, say) was taken.
        let pending_top = match &self.turn.as_ref().and_then(|t| t.pickup.as_ref()) {
            Some(pk) if pk.rest_pending => pk.top.parse::<Card>().ok(),
            _ => None,
        };
        let frozen = self.frozen.unwrap_or(frozen_by_pile);
        if frozen != frozen_by_pile && !(frozen && pending_top.is_some_and(|c| freezes(&r, c))) {
            return Err(invalid(
                "frozen",
                format!(
                    "{frozen}, but the pile {} (C-7: a wild{} in the pile freezes it; a pile whose frozen top card was taken stays frozen until the rest is taken)",
                    if frozen_by_pile { "holds a card that freezes it" } else { "holds no card that freezes it" },
                    if r.closed_pile == super::rules::ClosedPile::UnmeldedWildRed { " or a red three" } else { "" }
                ),
            ));
        }
        // The turn.
        let side = r.side_of(mover);
        let default_turn = TurnJson::default();
        let tj = self.turn.as_ref().unwrap_or(&default_turn);
        let in_turn = matches!(phase, ClassicPhase::Meld | ClassicPhase::Over);
        let answer = tj.answer;
        let asked = tj
            .asked
            .unwrap_or(answer.is_some() || phase == ClassicPhase::Answer);
        if asked && !r.partnerships() {
            return Err(invalid(
                "turn.asked",
                "only a player with a partner asks \"may I go out?\" (C-18: four players)",
            ));
        }
        if answer.is_some() && !asked {
            return Err(invalid(
                "turn.answer",
                "an answer without the question (C-18)",
            ));
        }
        match phase {
            ClassicPhase::Answer if !asked || answer.is_some() => {
                return Err(invalid("phase", "phase answer: the mover has asked (turn.asked) and the partner has not answered yet (no turn.answer) (C-18)"));
            }
            ClassicPhase::Draw if asked && answer.is_none() => {
                return Err(invalid("turn.answer", "the mover has asked: the partner's answer is awaited in phase answer, or given here (C-18)"));
            }
            _ => {}
        }
        let pickup = match &tj.pickup {
            None => None,
            Some(pk) => {
                if !in_turn {
                    return Err(invalid(
                        "turn.pickup",
                        "a pickup belongs to phases meld and over",
                    ));
                }
                let top: Card = pk.top.parse().map_err(|e: crate::card::ParseCardError| {
                    field("turn.pickup.top", e.to_string())
                })?;
                let bit = bit_of(&pk.meld, "turn.pickup.meld")?;
                let key = match bit {
                    0..=10 => MeldKey::Rank(Kind::from_index(bit as usize)),
                    11 => MeldKey::BlackThrees,
                    _ => {
                        return Err(invalid(
                            "turn.pickup.meld",
                            "the pile's top card never starts a wild canasta (C-21)",
                        ))
                    }
                };
                if !tables[side].meld(key).contains(top) {
                    return Err(invalid(
                        "turn.pickup",
                        format!("the top card {top} is not in the mover's meld {key} (C-7: the top card is laid at once)"),
                    ));
                }
                if pk.rest_pending && phase != ClassicPhase::Meld {
                    return Err(invalid(
                        "turn.pickup.rest_pending",
                        "the rest of the pile is taken before the turn ends (C-14)",
                    ));
                }
                Some(ClassicPickup {
                    top,
                    key,
                    rest_pending: pk.rest_pending,
                })
            }
        };
        let new_mask = mask_of(&tj.new, "turn.new")?;
        let committed_mask = mask_of(&tj.committed, "turn.committed")?;
        let undos = tj.undos.unwrap_or(0);
        if undos > CLASSIC_MAX_UNDOS {
            return Err(invalid("turn.undos", format!("{undos}: at most {CLASSIC_MAX_UNDOS} take-backs and resets a meld phase (I-25)")));
        }
        let drew = tj
            .drew
            .unwrap_or(phase == ClassicPhase::Meld && pickup.is_none());
        let must_go_out = tj.must_go_out.unwrap_or(false);
        let last_red_three = tj.last_red_three.unwrap_or(false);
        let b3_pickup = tj
            .black_three_pickup
            .unwrap_or(matches!(pickup, Some(pk) if pk.key == MeldKey::BlackThrees));
        if !in_turn {
            let stray = [
                ("drew", drew),
                ("must_go_out", must_go_out),
                ("last_red_three", last_red_three),
                ("black_three_pickup", b3_pickup),
                ("new", new_mask != 0),
                ("committed", committed_mask != 0),
                ("undos", undos != 0),
                ("anchor", tj.anchor.is_some()),
            ];
            if let Some((f, _)) = stray.iter().find(|(_, set)| *set) {
                return Err(invalid(
                    format!("turn.{f}"),
                    "belongs to phases meld and over: the turn has not drawn yet",
                ));
            }
        }
        if phase == ClassicPhase::Meld && drew == pickup.is_some() {
            return Err(invalid(
                "turn.drew",
                "a meld phase follows either a draw (turn.drew) or a pickup of the pile (turn.pickup), one of the two",
            ));
        }
        if must_go_out && answer != Some(true) {
            return Err(invalid(
                "turn.must_go_out",
                "binds only after \"yes\" (C-18)",
            ));
        }
        if last_red_three && !(drew && stock.is_empty()) {
            return Err(invalid("turn.last_red_three", "a red three drawn as the last stock card: the turn drew and the stock is empty (C-23)"));
        }
        if b3_pickup != matches!(pickup, Some(pk) if pk.key == MeldKey::BlackThrees) {
            return Err(invalid(
                "turn.black_three_pickup",
                "is set exactly when the pile was taken into black threes (C-15)",
            ));
        }
        let t = &tables[side];
        for b in 0..14u32 {
            if new_mask & (1 << b) == 0 {
                continue;
            }
            let empty = match b {
                0..=10 => t.melds[b as usize].is_empty(),
                11 => t.black_threes.is_empty(),
                12 => t.wild_canastas[0].is_empty(),
                _ => t.wild_canastas[1].is_empty(),
            };
            if empty {
                return Err(invalid(
                    "turn.new",
                    format!(
                        "meld {} was laid this turn, but the mover's side has none",
                        bit_name(b)
                    ),
                ));
            }
        }
        let anchor = match &tj.anchor {
            None => *t,
            Some(a) => {
                let at = table_of(
                    TableParts {
                        melds: &a.melds,
                        black_threes: &a.black_threes,
                        wild_canastas: &a.wild_canastas,
                        red_threes: &a.red_threes,
                    },
                    t,
                    &r,
                    "turn.anchor",
                    false,
                )?;
                let within = (0..11).all(|k| t.melds[k].contains_all(at.melds[k]))
                    && t.black_threes.contains_all(at.black_threes)
                    && (0..2).all(|i| t.wild_canastas[i].contains_all(at.wild_canastas[i]));
                if !within {
                    return Err(invalid(
                        "turn.anchor",
                        "the meld phase only adds to the table: every anchor meld is part of the mover's meld now (I-25)",
                    ));
                }
                at
            }
        };
        let opening = tj.opening.unwrap_or(default_opening(t, new_mask, pickup));
        // The black-three meld belongs to a player going out (C-16).
        for (s, tb) in tables[..sides].iter().enumerate() {
            if tb.black_threes.is_empty() {
                continue;
            }
            let ok = match (phase, self.end.as_ref()) {
                (ClassicPhase::Meld, _) => s == side,
                (ClassicPhase::Over, Some(e)) => {
                    e.kind == "went_out" && e.player.map(|p| r.side_of(p as usize)) == Some(s)
                }
                _ => false,
            };
            if !ok {
                return Err(invalid(
                    format!("sides[{s}].black_threes"),
                    "black threes are melded only by a player going out (C-16): in the mover's meld phase or at the end of a hand he went out of",
                ));
            }
        }
        // The end.
        let end = match (&self.end, phase) {
            (None, ClassicPhase::Over) => {
                return Err(invalid("end", "phase over needs an end: {\"kind\": \"went_out\", \"player\": 0, \"concealed\": false}, {\"kind\": \"stock_out\"} or {\"kind\": \"stalled\"}"));
            }
            (None, _) => None,
            (Some(_), p) if p != ClassicPhase::Over => {
                return Err(invalid("end", "only a hand in phase over has an end"));
            }
            (Some(e), _) => Some(self.end_of(e, &r, mover, &hands, &tables, &stock, turns)?),
        };
        let turned_open = self
            .turned_open
            .unwrap_or(default_turned_open(&r, turns, phase));
        if turned_open && !(r.turned_covered && turns == 0) {
            return Err(invalid("turned_open", "the turned card is taken alone only in the first turn under turned_card = covered (C-22)"));
        }
        let mut melded_before = [false; CLASSIC_MAX_PLAYERS];
        for (p, pl) in pj.iter().enumerate() {
            melded_before[p] = pl.melded_before.unwrap_or(tables[r.side_of(p)].has_melds());
        }
        let mut g = ClassicState::new(r, 0, dealer, totals);
        g.hands = hands;
        g.known = known;
        g.stock = [Card::JOKER; CLASSIC_MAX_PACK];
        g.stock[..stock.len()].copy_from_slice(&stock);
        g.stock_len = stock.len() as u8;
        g.pile = [Card::JOKER; CLASSIC_MAX_PACK];
        g.pile[..pile.len()].copy_from_slice(&pile);
        g.pile_len = pile.len() as u8;
        g.frozen = frozen;
        g.tables = tables;
        g.totals = totals;
        g.phase = phase;
        g.current = current as u8;
        g.mover = mover as u8;
        g.turns = turns;
        g.turned_open = turned_open;
        g.melded_before = melded_before;
        g.failed_yes = failed_yes;
        g.turn = Turn {
            asked,
            answer,
            must_go_out,
            black_three_pickup: b3_pickup,
            drew,
            pickup,
            opening,
            last_red_three,
            new_mask,
            committed_mask,
            anchor,
            undos,
        };
        g.end = end;
        if phase == ClassicPhase::Meld {
            // I-25: a meld of the mover's side not legal by itself is one
            // whose wild came before the naturals that make it legal.
            for (k, m) in g.tables[side].melds.iter().enumerate() {
                let (n, w) = (Kind::from_index(k).count_in(*m), m.wild_count());
                if !m.is_empty()
                    && !r.meld_ok(n, w)
                    && (g.turn.anchor.melds[k] == *m || !g.meld_fixable(k, n, w))
                {
                    return Err(invalid(
                        format!("sides[{side}].melds"),
                        format!(
                            "[{m}]: {n} natural(s) and {w} wild(s) break {} (C-4, C-20), and no naturals added later in this meld phase could make it legal from the anchor's [{}] (I-25)",
                            r.preset, g.turn.anchor.melds[k]
                        ),
                    ));
                }
            }
        }
        if phase == ClassicPhase::Draw && g.hands[mover].red_three_count() > 0 {
            // C-22: his dealt red threes, laid and replaced as his first
            // turn begins, before he asks (C-18) or draws.
            g.lay_red_threes(mover);
            g.turn.anchor = g.tables[side];
        }
        g.check_invariants().map_err(PositionError::Invariant)?;
        Ok(g.normalized())
    }

    #[allow(clippy::too_many_arguments)]
    fn end_of(
        &self,
        e: &EndJson,
        r: &ClassicRules,
        mover: usize,
        hands: &[CardSet; CLASSIC_MAX_PLAYERS],
        tables: &[SideTable; CLASSIC_MAX_PLAYERS],
        stock: &[Card],
        turns: u32,
    ) -> Result<ClassicEnd, PositionError> {
        let only_kind = |what: &str| -> Result<(), PositionError> {
            if e.player.is_some() || e.concealed.is_some() {
                return Err(invalid("end", format!("an end `{what}` has only `kind`")));
            }
            Ok(())
        };
        match e.kind.as_str() {
            "went_out" => {
                let p = e.player.ok_or_else(|| {
                    invalid(
                        "end.player",
                        "an end `went_out` names the player who went out",
                    )
                })? as usize;
                if p != mover {
                    return Err(invalid("end.player", format!("player {p}, but the turn is player {mover}'s (`mover`): the hand ends in the turn of the player going out (C-10)")));
                }
                if !hands[p].is_empty() {
                    return Err(invalid(
                        "end.player",
                        format!(
                            "player {p} still holds [{}]: going out empties the hand (C-10)",
                            hands[p]
                        ),
                    ));
                }
                let need = r.canastas_to_go_out() as u32;
                if tables[r.side_of(p)].canastas() < need {
                    return Err(invalid(
                        "end.player",
                        format!(
                            "player {p}'s side has {} canasta(s); going out needs {need} (C-10)",
                            tables[r.side_of(p)].canastas()
                        ),
                    ));
                }
                Ok(ClassicEnd::WentOut {
                    player: p as u8,
                    concealed: e.concealed.unwrap_or(false),
                })
            }
            "stock_out" => {
                only_kind("stock_out")?;
                if !stock.is_empty() {
                    return Err(invalid(
                        "end",
                        format!(
                            "stock_out with {} cards in the stock (C-11, C-23)",
                            stock.len()
                        ),
                    ));
                }
                Ok(ClassicEnd::StockOut)
            }
            "stalled" => {
                only_kind("stalled")?;
                if turns < r.turn_cap {
                    return Err(invalid(
                        "end",
                        format!(
                            "stalled after {turns} turns, below the turn cap {} (I-5)",
                            r.turn_cap
                        ),
                    ));
                }
                Ok(ClassicEnd::Stalled)
            }
            k => Err(field(
                "end.kind",
                format!("`{k}`: expected went_out, stock_out or stalled"),
            )),
        }
    }
}
