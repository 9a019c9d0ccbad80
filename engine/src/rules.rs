//! [`Rules`]: every switch of RULES.md as one `Copy` value (serde).
//!
//! Presets: `decorated-2003-02` (the default) and `decorated-2003-01` (the
//! same game without separately laid heart aces, D-9.4). Any field can be
//! changed by name with [`Rules::set`], e.g. `tax=off`, `opening=90`,
//! `tax_schedule=5000:2,7000:4,9000:10`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which dated text of the variant is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub enum Version {
    /// Seed 000, 18 January 2003: no separately laid heart aces.
    #[serde(rename = "decorated-2003-01")]
    Decorated2003_01,
    /// Seed 001, 28 February 2003: heart aces may be laid separately (D-9.4).
    #[serde(rename = "decorated-2003-02")]
    Decorated2003_02,
}

/// I-4: when the pile becomes the new stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Reshuffle {
    /// As soon as the last stock card is drawn (default).
    WhenEmpty,
    /// Only when a card must be drawn from an empty stock.
    OnDraw,
}

/// Allow / forbid switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Permit {
    /// Allowed.
    Allow,
    /// Forbidden.
    Forbid,
}

/// I-12: how many groups of one natural rank a player may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum GroupsPerRank {
    /// One group per rank (default).
    One,
    /// Several groups per rank; they never merge (I-28).
    Many,
}

/// I-13: how wilds may leave a black canasta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum BlackCanastaWilds {
    /// A wild leaves only against a natural that keeps it a canasta (default).
    Swap,
    /// All wilds leave at once and the canasta becomes red or gold.
    ConvertOnly,
}

/// I-22: whether wilds may leave a wild canasta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum WildCanasta {
    /// No wild ever leaves a wild canasta (default).
    Locked,
    /// D-11.2 applies: wilds may leave; the group stays legal at 3–6 wilds.
    Open,
}

/// I-11: the opening minimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// The same fixed value for everybody in every hand (50, 75, 90, 120).
    Fixed(u32),
    /// Seed 002's schedule on the running total: < 0 → 0, < 1,500 → 50,
    /// < 3,000 → 90, otherwise 120.
    Table,
}

impl Opening {
    /// The minimum for a player whose running total is `total`.
    pub const fn minimum(self, total: i32) -> i32 {
        match self {
            Opening::Fixed(v) => v as i32,
            Opening::Table => {
                if total < 0 {
                    0
                } else if total < 1500 {
                    50
                } else if total < 3000 {
                    90
                } else {
                    120
                }
            }
        }
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opening::Fixed(v) => write!(f, "{v}"),
            Opening::Table => f.write_str("table"),
        }
    }
}

/// The largest fixed opening minimum (I-11): more than any hand and pile
/// can lay, so a larger value would only stall every hand.
pub const MAX_OPENING: u32 = 1000;

impl std::str::FromStr for Opening {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Opening, RulesError> {
        if s == "table" {
            return Ok(Opening::Table);
        }
        s.parse::<u32>()
            .ok()
            .filter(|v| *v <= MAX_OPENING)
            .map(Opening::Fixed)
            .ok_or_else(|| RulesError::BadOpening(s.to_string()))
    }
}

impl Serialize for Opening {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Opening::Fixed(v) => s.serialize_u32(*v),
            Opening::Table => s.serialize_str("table"),
        }
    }
}

impl<'de> Deserialize<'de> for Opening {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Opening, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Opening;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a number of points from 0 to {MAX_OPENING} or `table`")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Opening, E> {
                v.to_string().parse().map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Opening, E> {
                v.to_string().parse().map_err(E::custom)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Opening, E> {
                Err(E::custom(RulesError::BadOpening(v.to_string())))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Opening, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// I-23: how the tax divides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum TaxRounding {
    /// The text's mental shortcuts D-15.1 – D-15.3 (default).
    Shortcut,
    /// The true quotient rounded to the nearest point, halves up.
    Nearest,
}

/// I-17: whether negative hand scores are taxed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum TaxNegative {
    /// Negative scores are not taxed (default).
    Exempt,
    /// Same rounding on the absolute value, sign kept.
    Apply,
}

/// I-30: how cards left in hand count in exhausted and stalled hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum StalledHandCards {
    /// Cards in hand count minus, like any hand (default).
    Minus,
    /// Cards in hand count nothing.
    Ignore,
}

/// I-32: what a hand does once every player is dead-locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Deadlock {
    /// The hand ends *deadlocked*, scored like an exhausted hand (default).
    End,
    /// The hand goes on until the turn cap (I-5).
    PlayOn,
}

/// One bracket of the tax schedule (D-15, I-18): running totals from `from`
/// upwards divide the hand score by `divisor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct TaxBracket {
    /// Lowest running total (inclusive) the bracket applies to.
    pub from: i32,
    /// Divisor: 2 halves, 4 quarters, 10 takes a tenth; others round to nearest.
    pub divisor: u32,
}

/// Maximum number of brackets in a tax schedule.
pub const MAX_TAX_BRACKETS: usize = 6;

/// The tax schedule (D-15, I-18): up to six brackets with rising thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaxSchedule {
    brackets: [TaxBracket; MAX_TAX_BRACKETS],
    len: u8,
}

impl TaxSchedule {
    /// The schedule of D-15: 5,000 → ½, 7,000 → ¼, 9,000 → 1/10.
    pub const STANDARD: TaxSchedule = TaxSchedule {
        brackets: [
            TaxBracket {
                from: 5000,
                divisor: 2,
            },
            TaxBracket {
                from: 7000,
                divisor: 4,
            },
            TaxBracket {
                from: 9000,
                divisor: 10,
            },
            TaxBracket {
                from: 0,
                divisor: 1,
            },
            TaxBracket {
                from: 0,
                divisor: 1,
            },
            TaxBracket {
                from: 0,
                divisor: 1,
            },
        ],
        len: 3,
    };

    /// Builds a schedule; brackets must have strictly rising thresholds and
    /// divisors ≥ 1.
    pub fn new(brackets: &[TaxBracket]) -> Result<TaxSchedule, RulesError> {
        if brackets.len() > MAX_TAX_BRACKETS {
            return Err(RulesError::TooManyTaxBrackets(brackets.len()));
        }
        for w in brackets.windows(2) {
            if w[1].from <= w[0].from {
                return Err(RulesError::TaxThresholdsFall {
                    before: w[0].from,
                    after: w[1].from,
                });
            }
        }
        if let Some(b) = brackets.iter().find(|b| b.divisor == 0) {
            return Err(RulesError::ZeroTaxDivisor { from: b.from });
        }
        let mut s = TaxSchedule {
            brackets: [TaxBracket {
                from: 0,
                divisor: 1,
            }; MAX_TAX_BRACKETS],
            len: brackets.len() as u8,
        };
        s.brackets[..brackets.len()].copy_from_slice(brackets);
        Ok(s)
    }

    /// The brackets, lowest threshold first.
    pub fn brackets(&self) -> &[TaxBracket] {
        &self.brackets[..self.len as usize]
    }

    /// The divisor for a running total (1 below the first bracket).
    pub fn divisor(&self, total: i32) -> u32 {
        self.brackets()
            .iter()
            .rev()
            .find(|b| total >= b.from)
            .map_or(1, |b| b.divisor)
    }
}

impl fmt::Display for TaxSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.brackets().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{}", b.from, b.divisor)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TaxSchedule {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<TaxSchedule, RulesError> {
        let mut v = Vec::new();
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (a, b) = part
                .split_once(':')
                .ok_or_else(|| RulesError::BadTaxBracket(part.to_string()))?;
            let from = a
                .trim()
                .parse()
                .map_err(|_| RulesError::BadTaxThreshold(a.to_string()))?;
            let divisor = b
                .trim()
                .parse()
                .map_err(|_| RulesError::BadTaxDivisor(b.to_string()))?;
            v.push(TaxBracket { from, divisor });
        }
        if v.is_empty() {
            return Err(RulesError::EmptyTaxSchedule);
        }
        TaxSchedule::new(&v)
    }
}

impl Serialize for TaxSchedule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TaxSchedule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TaxSchedule, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// On / off switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

/// A family of canasta rules: decorated canasta (this module's [`Rules`])
/// or classic canasta ([`crate::classic::ClassicRules`]). Its name
/// ([`Family::name`]) is the family's [`crate::Game::FAMILY`], the
/// `family` of positions, rules files and run directories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Díszített kanaszta, D-1 … D-16.
    Decorated,
    /// Classic canasta, C-1 … C-24.
    Classic,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 2] = [Family::Decorated, Family::Classic];

    /// `decorated` or `classic`.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Decorated => "decorated",
            Family::Classic => "classic",
        }
    }

    /// The family of a name ([`Family::name`]).
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// [`Rules::family`] as rules files and run directories give it: only
/// `decorated` (with serde's own messages for anything else, as when
/// `decorated` was the one family).
fn decorated_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Family, D::Error> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Decorated {
        Decorated,
    }
    Decorated::deserialize(d).map(|Decorated::Decorated| Family::Decorated)
}

/// Every rule switch of RULES.md. `Copy`: games hold their rules by value.
///
/// ```
/// use kanaszta_engine::Rules;
/// let mut r = Rules::default();
/// r.set("tax", "off").unwrap();
/// r.set("opening", "90").unwrap();
/// assert!(r.set("opening", "lots").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The rule family: always [`Family::Decorated`] (these are the
    /// decorated rules; classic rules are [`crate::classic::ClassicRules`]).
    #[serde(deserialize_with = "decorated_only")]
    pub family: Family,
    /// Dated version: heart aces laid separately only in `decorated-2003-02`.
    pub version: Version,
    /// Number of players, 2–6 (D-2.1).
    pub players: u8,
    /// I-4.
    pub reshuffle: Reshuffle,
    /// I-6: whether a wild may be taken by the free pickup.
    pub free_pickup_wild: Permit,
    /// I-21: whether the freely picked card may be discarded in the same turn.
    pub free_pickup_return: Permit,
    /// I-12.
    pub groups_per_rank: GroupsPerRank,
    /// I-13.
    pub black_canasta_wilds: BlackCanastaWilds,
    /// I-22.
    pub wild_canasta: WildCanasta,
    /// I-11.
    pub opening: Opening,
    /// I-18: the tax on or off.
    pub tax: Switch,
    /// I-18: thresholds and divisors.
    pub tax_schedule: TaxSchedule,
    /// I-23.
    pub tax_rounding: TaxRounding,
    /// I-17.
    pub tax_negative: TaxNegative,
    /// I-20: the match is won by a running total strictly above this.
    pub target: i32,
    /// I-5: a hand reaching this many turns ends stalled.
    pub turn_cap: u32,
    /// I-30.
    pub stalled_hand_cards: StalledHandCards,
    /// I-32: whether a hand ends once every player is dead-locked.
    pub deadlock: Deadlock,
    /// I-31: a match ends after this many hands.
    pub max_hands: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DECORATED_2003_02
    }
}

/// Names of the presets accepted by [`Rules::preset`].
pub const PRESETS: [&str; 2] = ["decorated-2003-02", "decorated-2003-01"];

impl Rules {
    /// `decorated-2003-02`, every interpretation at its default.
    pub const DECORATED_2003_02: Rules = Rules {
        family: Family::Decorated,
        version: Version::Decorated2003_02,
        players: 2,
        reshuffle: Reshuffle::WhenEmpty,
        free_pickup_wild: Permit::Allow,
        free_pickup_return: Permit::Forbid,
        groups_per_rank: GroupsPerRank::One,
        black_canasta_wilds: BlackCanastaWilds::Swap,
        wild_canasta: WildCanasta::Locked,
        opening: Opening::Fixed(50),
        tax: Switch::On,
        tax_schedule: TaxSchedule::STANDARD,
        tax_rounding: TaxRounding::Shortcut,
        tax_negative: TaxNegative::Exempt,
        target: 10_000,
        turn_cap: 1000,
        stalled_hand_cards: StalledHandCards::Minus,
        deadlock: Deadlock::End,
        max_hands: 200,
    };

    /// `decorated-2003-01`: as 2003-02 but without separately laid heart aces.
    pub const DECORATED_2003_01: Rules = Rules {
        version: Version::Decorated2003_01,
        ..Rules::DECORATED_2003_02
    };

    /// A preset by name (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        match name {
            "decorated-2003-02" | "default" => Ok(Rules::DECORATED_2003_02),
            "decorated-2003-01" => Ok(Rules::DECORATED_2003_01),
            _ => Err(RulesError::UnknownPreset(name.to_string())),
        }
    }

    /// Whether heart aces may be laid separately (D-9.4).
    pub const fn heart_aces(&self) -> bool {
        matches!(self.version, Version::Decorated2003_02)
    }

    /// Names of all switches settable with [`Rules::set`].
    pub fn keys() -> Vec<String> {
        match serde_json::to_value(Rules::default()) {
            Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// Sets one switch by name from its text value, e.g. `("tax", "off")`,
    /// `("opening", "table")`, `("players", "3")`. The error says which keys
    /// or values are accepted.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let key = key.trim().replace('-', "_");
        let value = value.trim();
        let mut obj = match serde_json::to_value(*self) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err(RulesError::NotAnObject),
        };
        if !obj.contains_key(&key) {
            return Err(RulesError::UnknownSwitch(key));
        }
        // Numbers as numbers; names as snake_case strings, except the
        // version and tax schedule, whose text is taken as written.
        let v = match value.parse::<i64>() {
            Ok(n) if key != "tax_schedule" => serde_json::Value::from(n),
            _ if key == "version" || key == "tax_schedule" => serde_json::Value::from(value),
            _ => serde_json::Value::from(value.replace('-', "_")),
        };
        obj.insert(key.clone(), v);
        let new: Rules = serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| {
            RulesError::BadValue {
                message: explain(&key, &e.to_string()),
                key,
                value: value.to_string(),
            }
        })?;
        new.validate()?;
        *self = new;
        Ok(())
    }

    /// What switch `key` accepts, with its rule of RULES.md (`None` for an
    /// unknown switch).
    pub fn accepted(key: &str) -> Option<&'static str> {
        Some(match key {
            "family" => "`decorated`",
            "version" => "`decorated-2003-02` or `decorated-2003-01` (D-9.4)",
            "players" => "a whole number from 2 to 6 (D-2.1)",
            "reshuffle" => "`when_empty` or `on_draw` (I-4)",
            "free_pickup_wild" => "`allow` or `forbid` (I-6)",
            "free_pickup_return" => "`forbid` or `allow` (I-21)",
            "groups_per_rank" => "`one` or `many` (I-12)",
            "black_canasta_wilds" => "`swap` or `convert_only` (I-13)",
            "wild_canasta" => "`locked` or `open` (I-22)",
            "opening" => "a number of points from 0 to 1000 (the text's values: 50, 75, 90, 120) or `table` (I-11)",
            "tax" => "`on` or `off` (I-18)",
            "tax_schedule" => "THRESHOLD:DIVISOR,… with rising thresholds, e.g. `5000:2,7000:4,9000:10` (D-15, I-18)",
            "tax_rounding" => "`shortcut` or `nearest` (I-23)",
            "tax_negative" => "`exempt` or `apply` (I-17)",
            "target" => "a whole number of points, e.g. 10000 (I-20)",
            "turn_cap" => "a whole number of turns, at least 1 (I-5)",
            "stalled_hand_cards" => "`minus` or `ignore` (I-30)",
            "deadlock" => "`end` or `play_on` (I-32)",
            "max_hands" => "a whole number of hands, at least 1 (I-31)",
            _ => return None,
        })
    }

    /// Settings that are accepted but make for degenerate play, one
    /// sentence each (empty when there are none), e.g. a target below 0.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if self.target < 0 {
            w.push(format!(
                "target {} is below 0 (I-20): a match ends at the first hand that leaves one player ahead",
                self.target
            ));
        }
        w
    }

    /// Applies `key=value` pairs in order.
    pub fn apply_settings<'a, I: IntoIterator<Item = &'a str>>(
        &mut self,
        settings: I,
    ) -> Result<(), RulesError> {
        for s in settings {
            let (k, v) = s
                .split_once('=')
                .ok_or_else(|| RulesError::BadSetting(s.to_string()))?;
            self.set(k, v)?;
        }
        Ok(())
    }

    /// Checks ranges that serde cannot: players 2–6, a positive turn cap…
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(2..=6).contains(&self.players) {
            return Err(RulesError::OutOfRange {
                key: "players",
                rule: "D-2.1",
                accepted: "2 to 6",
                got: Some(self.players.into()),
            });
        }
        if self.turn_cap == 0 {
            return Err(RulesError::OutOfRange {
                key: "turn_cap",
                rule: "I-5",
                accepted: "at least 1",
                got: None,
            });
        }
        if self.max_hands == 0 {
            return Err(RulesError::OutOfRange {
                key: "max_hands",
                rule: "I-31",
                accepted: "at least 1",
                got: None,
            });
        }
        // 112 cards: every player needs 14 (15 for the starter) plus a stock.
        if 14 * self.players as u32 + 1 + 3 > 112 {
            return Err(RulesError::TooManyPlayers(self.players));
        }
        Ok(())
    }

    /// Loads rules from JSON text (a file's contents); missing fields take
    /// their defaults.
    ///
    /// A leading UTF-8 byte order mark is skipped. The text must be one JSON
    /// object; a switch that is unknown or has a value it does not accept
    /// is named, with what it accepts.
    pub fn from_json(text: &str) -> Result<Rules, RulesError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RulesError::Json(e.to_string()))?;
        let serde_json::Value::Object(given) = v else {
            return Err(RulesError::JsonNotObject(json_kind(&v)));
        };
        // A map keeps the last of a key given twice: read the keys in order.
        let keys: UniqueKeys =
            serde_json::from_str(text).map_err(|e| RulesError::Json(e.to_string()))?;
        if let Some(k) = keys.twice {
            return Err(RulesError::DuplicateSwitch(k));
        }
        let mut r = Rules::default();
        let Ok(serde_json::Value::Object(mut obj)) = serde_json::to_value(r) else {
            return Err(RulesError::NotAnObject);
        };
        for (key, value) in given {
            if !obj.contains_key(&key) {
                return Err(RulesError::UnknownSwitch(key));
            }
            // Each switch alone, so that an error names it.
            let mut one = obj.clone();
            one.insert(key.clone(), value.clone());
            if let Err(e) = serde_json::from_value::<Rules>(serde_json::Value::Object(one)) {
                return Err(RulesError::BadValue {
                    message: explain(&key, &e.to_string()),
                    key,
                    value: value.to_string(),
                });
            }
            obj.insert(key, value);
        }
        r = serde_json::from_value(serde_json::Value::Object(obj))
            .map_err(|e| RulesError::Json(e.to_string()))?;
        r.validate()?;
        Ok(r)
    }

    /// The switches as `key=value` pairs, in a stable order.
    pub fn settings(&self) -> Vec<(String, String)> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m
                .into_iter()
                .map(|(k, v)| {
                    let s = match v {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (k, s)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The message of a refused value of switch `key`: serde's own words when
/// they come from the switch's parser (they say what is accepted), else
/// what the switch accepts.
fn explain(key: &str, serde_message: &str) -> String {
    let generic = [
        "invalid type",
        "invalid value",
        "unknown variant",
        "data did not match",
    ]
    .iter()
    .any(|p| serde_message.starts_with(p));
    match Rules::accepted(key) {
        Some(a) if generic => format!("expected {a}"),
        _ => serde_message.to_string(),
    }
}

/// The top-level keys of a JSON object: the first given twice, if one is.
struct UniqueKeys {
    twice: Option<String>,
}

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UniqueKeys, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = UniqueKeys;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<UniqueKeys, A::Error> {
                let mut seen = std::collections::HashSet::new();
                let mut twice = None;
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    if !seen.insert(k.clone()) && twice.is_none() {
                        twice = Some(k);
                    }
                }
                Ok(UniqueKeys { twice })
            }
        }
        d.deserialize_map(Keys)
    }
}

/// The classic presets' names, for messages (the classic module's
/// `CLASSIC_PRESETS`; this module does not import it).
pub(crate) const CLASSIC_PRESET_NAMES: [&str; 3] = ["classic-002", "classic-003", "classic-004"];

/// The kind of a JSON value, for messages.
fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Why rules, a preset or a rule setting are refused: each variant names
/// the switch or the text that was wrong and says what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A preset name not among [`PRESETS`].
    UnknownPreset(String),
    /// A switch name not among [`Rules::keys`].
    UnknownSwitch(String),
    /// A setting without `=` (expected `KEY=VALUE`).
    BadSetting(String),
    /// A value the switch `key` does not accept; `message` says what it
    /// accepts.
    BadValue {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
        /// What was wrong and what is accepted.
        message: String,
    },
    /// An opening minimum that is neither a number of points nor `table`.
    BadOpening(String),
    /// A tax bracket not of the form `THRESHOLD:DIVISOR`.
    BadTaxBracket(String),
    /// A tax threshold that is not an integer.
    BadTaxThreshold(String),
    /// A tax divisor that is not a positive integer.
    BadTaxDivisor(String),
    /// More tax brackets than a schedule holds.
    TooManyTaxBrackets(usize),
    /// Tax thresholds that do not rise.
    TaxThresholdsFall {
        /// The earlier threshold.
        before: i32,
        /// The threshold after it, not above it.
        after: i32,
    },
    /// A tax divisor of 0.
    ZeroTaxDivisor {
        /// The bracket's threshold.
        from: i32,
    },
    /// A switch outside its range, with the rule of RULES.md that sets it.
    OutOfRange {
        /// The switch.
        key: &'static str,
        /// Rule identifier, e.g. `D-2.1`.
        rule: &'static str,
        /// The accepted range, e.g. `2 to 6`.
        accepted: &'static str,
        /// The value given, where it says more than the range.
        got: Option<u32>,
    },
    /// More players than 112 cards can deal to.
    TooManyPlayers(u8),
    /// Rules JSON that does not parse (serde's message, with its position).
    Json(String),
    /// The rules did not serialize to a JSON object (a bug).
    NotAnObject,
    /// Rules JSON that is not an object of switches (an array, a number…).
    JsonNotObject(&'static str),
    /// A tax schedule of no brackets (a tax that taxes nothing).
    EmptyTaxSchedule,
    /// A switch given twice in rules JSON.
    DuplicateSwitch(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(name) => write!(
                f,
                "unknown rules preset `{name}`: expected one of {} (decorated canasta), {} \
                 (classic canasta)",
                PRESETS.join(", "),
                CLASSIC_PRESET_NAMES.join(", ")
            ),
            RulesError::UnknownSwitch(key) => write!(
                f,
                "unknown rule switch `{key}`: expected one of {}",
                Rules::keys().join(", ")
            ),
            RulesError::BadSetting(s) => {
                write!(
                    f,
                    "bad rule setting `{s}`: expected KEY=VALUE, e.g. tax=off"
                )
            }
            RulesError::BadValue {
                key,
                value,
                message,
            } => write!(f, "bad value `{value}` for `{key}`: {message}"),
            RulesError::BadOpening(s) => write!(
                f,
                "bad opening `{s}`: expected a number of points from 0 to {MAX_OPENING} (the text's values: 50, 75, 90, 120) or `table` (I-11)"
            ),
            RulesError::BadTaxBracket(s) => write!(
                f,
                "bad tax bracket `{s}`: expected THRESHOLD:DIVISOR, e.g. 5000:2"
            ),
            RulesError::BadTaxThreshold(s) => {
                write!(f, "bad tax threshold `{s}`: expected an integer")
            }
            RulesError::BadTaxDivisor(s) => {
                write!(f, "bad tax divisor `{s}`: expected a positive integer")
            }
            RulesError::TooManyTaxBrackets(n) => write!(
                f,
                "a tax schedule has at most {MAX_TAX_BRACKETS} brackets, got {n}"
            ),
            RulesError::TaxThresholdsFall { before, after } => {
                write!(f, "tax thresholds must rise: {before} then {after}")
            }
            RulesError::ZeroTaxDivisor { from } => {
                write!(f, "tax divisor must be at least 1 (bracket from {from})")
            }
            RulesError::OutOfRange {
                key,
                rule,
                accepted,
                got,
            } => {
                write!(f, "{key} must be {accepted} ({rule})")?;
                match got {
                    Some(v) => write!(f, ", got {v}"),
                    None => Ok(()),
                }
            }
            RulesError::TooManyPlayers(_) => f.write_str("too many players for 112 cards"),
            RulesError::Json(e) => write!(f, "bad rules JSON: {e}"),
            RulesError::JsonNotObject(kind) => write!(
                f,
                "rules JSON must be one object of switches, e.g. {{\"tax\": \"off\", \"opening\": 90}}; got {kind}"
            ),
            RulesError::NotAnObject => {
                f.write_str("internal: rules did not serialize to an object")
            }
            RulesError::EmptyTaxSchedule => f.write_str(
                "an empty tax schedule taxes nothing: expected THRESHOLD:DIVISOR,… with rising \
                 thresholds, e.g. `5000:2,7000:4,9000:10` (D-15, I-18); for no tax, set tax=off",
            ),
            RulesError::DuplicateSwitch(key) => write!(
                f,
                "bad rules JSON: `{key}` is given twice; give each switch once"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// The rules, the 2003-01 rules, and rule sets with the switches the
/// completion check and the going-out solver read turned: many groups per
/// rank; that with `convert_only` and an open wild canasta; the free
/// pickup's card returnable. For the engine's tests.
#[cfg(test)]
pub(crate) fn test_variants() -> [Rules; 5] {
    let mut many = Rules::default();
    many.set("groups_per_rank", "many").unwrap();
    let mut convert = many;
    convert.set("black_canasta_wilds", "convert_only").unwrap();
    convert.set("wild_canasta", "open").unwrap();
    let mut free = Rules::default();
    free.set("free_pickup_return", "allow").unwrap();
    let older = Rules::preset("decorated-2003-01").unwrap();
    [Rules::default(), older, many, convert, free]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_familys_name_is_its_games_family() {
        use crate::Game;
        assert_eq!(Family::Decorated.name(), <crate::GameState as Game>::FAMILY);
        assert_eq!(
            Family::Classic.name(),
            <crate::classic::ClassicState as Game>::FAMILY
        );
        for f in Family::ALL {
            assert_eq!(Family::from_name(f.name()), Some(f));
            assert_eq!(f.to_string(), f.name());
        }
        assert_eq!(Family::from_name("klassic"), None);
    }

    #[test]
    fn decorated_rules_read_no_other_family() {
        let e = serde_json::from_str::<Rules>(r#"{"family": "classic"}"#)
            .expect_err("classic is not a family of the decorated rules")
            .to_string();
        assert!(
            e.starts_with("unknown variant `classic`, expected `decorated`"),
            "{e}"
        );
        let r: Rules = serde_json::from_str(r#"{"family": "decorated"}"#).expect("decorated");
        assert_eq!(r.family, Family::Decorated);
    }

    #[test]
    fn presets_and_defaults() {
        let r = Rules::default();
        assert_eq!(r.version, Version::Decorated2003_02);
        assert!(r.heart_aces());
        assert!(!Rules::preset("decorated-2003-01").unwrap().heart_aces());
        assert!(Rules::preset("classic")
            .unwrap_err()
            .to_string()
            .contains("decorated-2003-02"));
    }

    #[test]
    fn set_every_switch_by_name() {
        let mut r = Rules::default();
        r.set("tax", "off").unwrap();
        assert_eq!(r.tax, Switch::Off);
        r.set("opening", "table").unwrap();
        assert_eq!(r.opening, Opening::Table);
        r.set("opening", "120").unwrap();
        assert_eq!(r.opening, Opening::Fixed(120));
        r.set("reshuffle", "on_draw").unwrap();
        r.set("groups_per_rank", "many").unwrap();
        r.set("black_canasta_wilds", "convert-only").unwrap();
        assert_eq!(r.black_canasta_wilds, BlackCanastaWilds::ConvertOnly);
        r.set("wild_canasta", "open").unwrap();
        r.set("free_pickup_wild", "forbid").unwrap();
        r.set("free_pickup_return", "allow").unwrap();
        r.set("tax_rounding", "nearest").unwrap();
        r.set("tax_negative", "apply").unwrap();
        r.set("stalled_hand_cards", "ignore").unwrap();
        r.set("deadlock", "play_on").unwrap();
        assert_eq!(r.deadlock, Deadlock::PlayOn);
        r.set("deadlock", "play-on").unwrap();
        r.set("target", "5000").unwrap();
        r.set("turn_cap", "200").unwrap();
        r.set("max_hands", "50").unwrap();
        r.set("players", "4").unwrap();
        r.set("version", "decorated-2003-01").unwrap();
        r.set("tax_schedule", "4000:2,8000:3").unwrap();
        assert_eq!(r.tax_schedule.divisor(8500), 3);
        let back: Rules = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn bad_settings_say_what_is_accepted() {
        let mut r = Rules::default();
        let e = r.set("taxes", "off").unwrap_err().to_string();
        assert!(
            e.contains("unknown rule switch") && e.contains("tax"),
            "{e}"
        );
        let e = r.set("tax", "maybe").unwrap_err().to_string();
        assert!(e.contains("on") && e.contains("off"), "{e}");
        let e = r.set("players", "7").unwrap_err().to_string();
        assert!(e.contains("2 to 6"), "{e}");
        let e = r
            .set("tax_schedule", "5000:2,4000:4")
            .unwrap_err()
            .to_string();
        assert!(e.contains("rise"), "{e}");
        assert_eq!(r, Rules::default(), "a refused setting changes nothing");
    }

    /// The typed errors name the switch (and the rule) that was wrong.
    #[test]
    fn errors_name_the_switch() {
        let mut r = Rules::default();
        assert_eq!(
            r.set("taxes", "off"),
            Err(RulesError::UnknownSwitch("taxes".into()))
        );
        assert!(matches!(
            r.set("tax", "maybe"),
            Err(RulesError::BadValue { ref key, ref value, .. }) if key == "tax" && value == "maybe"
        ));
        assert!(matches!(
            r.set("turn_cap", "0"),
            Err(RulesError::OutOfRange {
                key: "turn_cap",
                rule: "I-5",
                ..
            })
        ));
        assert_eq!(
            r.apply_settings(["tax"]),
            Err(RulesError::BadSetting("tax".into()))
        );
        assert_eq!(
            "x".parse::<Opening>(),
            Err(RulesError::BadOpening("x".into()))
        );
        assert!(matches!(Rules::from_json("{"), Err(RulesError::Json(_))));
    }

    /// I-11: the `table` schedule.
    #[test]
    fn i11_opening_table() {
        let t = Opening::Table;
        assert_eq!(t.minimum(-10), 0);
        assert_eq!(t.minimum(0), 50);
        assert_eq!(t.minimum(1499), 50);
        assert_eq!(t.minimum(1500), 90);
        assert_eq!(t.minimum(2999), 90);
        assert_eq!(t.minimum(3000), 120);
        assert_eq!(Opening::Fixed(75).minimum(5000), 75);
    }
}
