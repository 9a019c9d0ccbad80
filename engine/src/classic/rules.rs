//! [`ClassicRules`]: every switch of RULES.md's classic presets table, the
//! three presets (`classic-002`, `classic-003`, `classic-004`), and
//! [`ClassicRulesError`] for a bad preset, switch or value.

use std::fmt;

/// Preset names, the default first.
pub const CLASSIC_PRESETS: [&str; 3] = ["classic-002", "classic-003", "classic-004"];

/// C-4: how many wilds a meld of naturals may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WildLimit {
    /// `two_naturals` (002): at least two naturals, at most three wilds.
    TwoNaturals,
    /// `wilds_le_naturals` (003): no more wilds than naturals.
    WildsLeNaturals,
    /// `by_size` (004): 2 naturals in 3–4 cards, 3 in 5–6, 4 in 7 or more;
    /// at most three wilds.
    BySize,
}

/// C-13: a wild on top of the pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WildTop {
    /// `pair` (002): taken with any natural pair from the hand.
    Pair,
    /// `forbidden` (003): the pile cannot be taken.
    Forbidden,
    /// `under` (004): a discarded wild goes under the pile and freezes it.
    Under,
}

/// C-7, C-14: when the pile is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClosedPile {
    /// `unmelded_wild_red` (002): for a side that has not melded, and for
    /// everybody once a wild or a red three lies in it.
    UnmeldedWildRed,
    /// `wild_only` (004): once a wild lies in it; a side that has not melded
    /// may take an unfrozen pile as any other, reaching the minimum.
    WildOnly,
}

/// C-7: the ways of taking the pile besides a natural pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PickupRule {
    /// `pair_wild_meld` (002): a natural and a wild, or the top card onto
    /// the side's meld, when the pile is open.
    PairWildMeld,
    /// `pair_wild` (004): a natural and a wild when not frozen; never the
    /// top card onto a meld.
    PairWild,
}

/// C-15: a black three on top of the pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlackThreeTop {
    /// `blocked` (002, 004): the next player may not take the pile.
    Blocked,
    /// `go_out` (003): only a player who goes out in that turn takes it.
    GoOut,
}

/// C-16: the shape of a black-three meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlackThreeMeld {
    /// `wild_limit` (002): at least two black threes, wilds within
    /// `wild_limit`.
    WildLimit,
    /// `wilds_le_threes` (003): at least two black threes, no more wilds
    /// than black threes.
    WildsLeThrees,
    /// `three_or_two_and_wild` (004): three black threes, or two and a wild.
    ThreeOrTwoAndWild,
}

/// C-18: whether a partner must ask before going out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// `optional` (002, 003).
    Optional,
    /// `compulsory` (004): and "no" only if the partner could lay cards.
    Compulsory,
}

/// C-6: the opening minimum schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Minimum {
    /// `002`: below 0 → 0, 0–1,495 → 50, 1,500–2,995 → 90, 3,000 and over → 120.
    Seed002,
    /// `004`: 50, over 1,500 → 90, over 3,000 → 120.
    Seed004,
}

/// Every switch of the classic presets table. `Copy`.
///
/// ```
/// use kanaszta_engine::classic::ClassicRules;
/// let mut r = ClassicRules::preset("classic-004").unwrap();
/// r.set("players", "4").unwrap();
/// assert_eq!(r.jokers, 6);
/// assert!(r.set("wild_top", "sideways").unwrap_err().to_string().contains("under"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClassicRules {
    /// The preset this was built from (for display only).
    pub preset: &'static str,
    /// Players, 2–6 (C-2); 4 play in two partnerships (C-20).
    pub players: u8,
    /// `jokers` (C-1): 4 or 6.
    pub jokers: u8,
    /// `deal` (C-2): cards dealt to each of three players, 13 or 15 (two get
    /// 15, four to six 11 in every preset).
    pub deal_three: u8,
    /// `wild_limit` (C-4).
    pub wild_limit: WildLimit,
    /// `wild_canasta` (C-5, C-21): its bonus, 0 for none.
    pub wild_canasta: i32,
    /// `minimum` (C-6).
    pub minimum: Minimum,
    /// `red_three_unmelded` (C-8): extra minus per red three (0 or 5).
    pub red_three_extra: i32,
    /// `wild_top` (C-13).
    pub wild_top: WildTop,
    /// `closed_pile` (C-7, C-14).
    pub closed_pile: ClosedPile,
    /// `pickup` (C-7).
    pub pickup: PickupRule,
    /// `black_three_top` (C-15).
    pub black_three_top: BlackThreeTop,
    /// `black_three_meld` (C-16).
    pub black_three_meld: BlackThreeMeld,
    /// `canastas_to_go_out` with two players (C-10): 1 or 2.
    pub canastas_two_players: u8,
    /// `ask` (C-18).
    pub ask: Ask,
    /// `minimum_waived` (C-17): by a complete canasta laid from the hand.
    pub minimum_waived: bool,
    /// `completed_canasta` (C-20): only naturals join a completed canasta.
    pub completed_naturals_only: bool,
    /// `turned_card` (C-22): a turned red three or wild is covered and the
    /// first player may take the top turned card alone (004).
    pub turned_covered: bool,
    /// `target` (C-12, C-24): 5,000.
    pub target: i32,
    /// `turn_cap` (I-5).
    pub turn_cap: u32,
    /// `max_hands` (I-31).
    pub max_hands: u32,
}

impl Default for ClassicRules {
    fn default() -> Self {
        ClassicRules::CLASSIC_002
    }
}

/// A bad preset, switch or value, saying what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClassicRulesError {
    /// A preset name not among [`CLASSIC_PRESETS`].
    UnknownPreset(String),
    /// A switch not among [`ClassicRules::keys`].
    UnknownSwitch(String),
    /// A setting without `=`.
    BadSetting(String),
    /// A value the switch does not accept.
    BadValue {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
        /// What it accepts.
        accepted: &'static str,
    },
}

impl fmt::Display for ClassicRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassicRulesError::UnknownPreset(p) => write!(
                f,
                "unknown classic preset `{p}`: expected one of {}",
                CLASSIC_PRESETS.join(", ")
            ),
            ClassicRulesError::UnknownSwitch(k) => write!(
                f,
                "unknown classic rule switch `{k}`: expected one of {}",
                ClassicRules::keys().join(", ")
            ),
            ClassicRulesError::BadSetting(s) => write!(
                f,
                "bad rule setting `{s}`: expected KEY=VALUE, e.g. players=4"
            ),
            ClassicRulesError::BadValue {
                key,
                value,
                accepted,
            } => write!(f, "bad value `{value}` for `{key}`: expected {accepted}"),
        }
    }
}

impl std::error::Error for ClassicRulesError {}

const KEYS: [(&str, &str); 21] = [
    ("players", "a number of players from 2 to 6 (C-2)"),
    ("jokers", "`4` or `6` (C-1)"),
    (
        "deal",
        "`002` (three players get 13) or `004` (three get 15) (C-2)",
    ),
    (
        "wild_limit",
        "`two_naturals`, `wilds_le_naturals` or `by_size` (C-4)",
    ),
    ("wild_canasta", "`none`, `700` or `1000` (C-5, C-21)"),
    ("minimum", "`002` or `004` (C-6)"),
    (
        "red_three_unmelded",
        "`002` (−100 each) or `004` (−105 each) (C-8)",
    ),
    ("wild_top", "`pair`, `forbidden` or `under` (C-13)"),
    (
        "closed_pile",
        "`unmelded_wild_red` or `wild_only` (C-7, C-14)",
    ),
    ("pickup", "`pair_wild_meld` or `pair_wild` (C-7)"),
    ("black_three_top", "`blocked` or `go_out` (C-15)"),
    (
        "black_three_meld",
        "`wild_limit`, `wilds_le_threes` or `three_or_two_and_wild` (C-16)",
    ),
    ("canastas_to_go_out", "`1` or `2` (with two players, C-10)"),
    ("ask", "`optional` or `compulsory` (C-18)"),
    ("minimum_waived", "`never` or `canasta_from_hand` (C-17)"),
    (
        "completed_canasta",
        "`within_limit` or `naturals_only` (C-20)",
    ),
    ("turned_card", "`stays` or `covered` (C-22)"),
    (
        "target",
        "a whole number of points from -1000000 to 1000000, e.g. 5000 (C-12, C-24)",
    ),
    (
        "turn_cap",
        "a whole number of turns from 1 to 1000000 (I-5)",
    ),
    (
        "max_hands",
        "a whole number of hands from 1 to 1000000 (I-31)",
    ),
    ("preset", "`classic-002`, `classic-003` or `classic-004`"),
];

impl ClassicRules {
    /// `classic-002`, the default.
    pub const CLASSIC_002: ClassicRules = ClassicRules {
        preset: "classic-002",
        players: 2,
        jokers: 4,
        deal_three: 13,
        wild_limit: WildLimit::TwoNaturals,
        wild_canasta: 0,
        minimum: Minimum::Seed002,
        red_three_extra: 0,
        wild_top: WildTop::Pair,
        closed_pile: ClosedPile::UnmeldedWildRed,
        pickup: PickupRule::PairWildMeld,
        black_three_top: BlackThreeTop::Blocked,
        black_three_meld: BlackThreeMeld::WildLimit,
        canastas_two_players: 2,
        ask: Ask::Optional,
        minimum_waived: false,
        completed_naturals_only: false,
        turned_covered: false,
        target: 5000,
        turn_cap: 1000,
        max_hands: 200,
    };

    /// `classic-003`.
    pub const CLASSIC_003: ClassicRules = ClassicRules {
        preset: "classic-003",
        wild_limit: WildLimit::WildsLeNaturals,
        wild_canasta: 700,
        wild_top: WildTop::Forbidden,
        black_three_top: BlackThreeTop::GoOut,
        black_three_meld: BlackThreeMeld::WildsLeThrees,
        canastas_two_players: 1,
        ..ClassicRules::CLASSIC_002
    };

    /// `classic-004`.
    pub const CLASSIC_004: ClassicRules = ClassicRules {
        preset: "classic-004",
        jokers: 6,
        deal_three: 15,
        wild_limit: WildLimit::BySize,
        wild_canasta: 1000,
        minimum: Minimum::Seed004,
        red_three_extra: 5,
        wild_top: WildTop::Under,
        closed_pile: ClosedPile::WildOnly,
        pickup: PickupRule::PairWild,
        black_three_top: BlackThreeTop::Blocked,
        black_three_meld: BlackThreeMeld::ThreeOrTwoAndWild,
        canastas_two_players: 1,
        ask: Ask::Compulsory,
        minimum_waived: true,
        completed_naturals_only: true,
        turned_covered: true,
        ..ClassicRules::CLASSIC_002
    };

    /// A preset by name (`default` is `classic-002`).
    pub fn preset(name: &str) -> Result<ClassicRules, ClassicRulesError> {
        match name {
            "classic-002" | "classic" | "default" => Ok(ClassicRules::CLASSIC_002),
            "classic-003" => Ok(ClassicRules::CLASSIC_003),
            "classic-004" => Ok(ClassicRules::CLASSIC_004),
            _ => Err(ClassicRulesError::UnknownPreset(name.to_string())),
        }
    }

    /// The switch names [`ClassicRules::set`] accepts.
    pub fn keys() -> Vec<&'static str> {
        KEYS.iter().map(|(k, _)| *k).collect()
    }

    /// Sets one switch by name (`preset=…` replaces every switch but the
    /// number of players).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ClassicRulesError> {
        let accepted = match KEYS.iter().find(|(k, _)| *k == key) {
            Some((_, a)) => *a,
            None => return Err(ClassicRulesError::UnknownSwitch(key.to_string())),
        };
        let bad = || ClassicRulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            accepted,
        };
        let num = |lo: i64, hi: i64| -> Result<i64, ClassicRulesError> {
            value
                .parse::<i64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(bad)
        };
        match key {
            "players" => self.players = num(2, 6)? as u8,
            "jokers" => {
                self.jokers = match value {
                    "4" => 4,
                    "6" => 6,
                    _ => return Err(bad()),
                }
            }
            "deal" => {
                self.deal_three = match value {
                    "002" => 13,
                    "004" => 15,
                    _ => return Err(bad()),
                }
            }
            "wild_limit" => {
                self.wild_limit = match value {
                    "two_naturals" => WildLimit::TwoNaturals,
                    "wilds_le_naturals" => WildLimit::WildsLeNaturals,
                    "by_size" => WildLimit::BySize,
                    _ => return Err(bad()),
                }
            }
            "wild_canasta" => {
                self.wild_canasta = match value {
                    "none" => 0,
                    "700" => 700,
                    "1000" => 1000,
                    _ => return Err(bad()),
                }
            }
            "minimum" => {
                self.minimum = match value {
                    "002" => Minimum::Seed002,
                    "004" => Minimum::Seed004,
                    _ => return Err(bad()),
                }
            }
            "red_three_unmelded" => {
                self.red_three_extra = match value {
                    "002" => 0,
                    "004" => 5,
                    _ => return Err(bad()),
                }
            }
            "wild_top" => {
                self.wild_top = match value {
                    "pair" => WildTop::Pair,
                    "forbidden" => WildTop::Forbidden,
                    "under" => WildTop::Under,
                    _ => return Err(bad()),
                }
            }
            "closed_pile" => {
                self.closed_pile = match value {
                    "unmelded_wild_red" => ClosedPile::UnmeldedWildRed,
                    "wild_only" => ClosedPile::WildOnly,
                    _ => return Err(bad()),
                }
            }
            "pickup" => {
                self.pickup = match value {
                    "pair_wild_meld" => PickupRule::PairWildMeld,
                    "pair_wild" => PickupRule::PairWild,
                    _ => return Err(bad()),
                }
            }
            "black_three_top" => {
                self.black_three_top = match value {
                    "blocked" => BlackThreeTop::Blocked,
                    "go_out" => BlackThreeTop::GoOut,
                    _ => return Err(bad()),
                }
            }
            "black_three_meld" => {
                self.black_three_meld = match value {
                    "wild_limit" => BlackThreeMeld::WildLimit,
                    "wilds_le_threes" => BlackThreeMeld::WildsLeThrees,
                    "three_or_two_and_wild" => BlackThreeMeld::ThreeOrTwoAndWild,
                    _ => return Err(bad()),
                }
            }
            "canastas_to_go_out" => self.canastas_two_players = num(1, 2)? as u8,
            "ask" => {
                self.ask = match value {
                    "optional" => Ask::Optional,
                    "compulsory" => Ask::Compulsory,
                    _ => return Err(bad()),
                }
            }
            "minimum_waived" => {
                self.minimum_waived = match value {
                    "never" => false,
                    "canasta_from_hand" => true,
                    _ => return Err(bad()),
                }
            }
            "completed_canasta" => {
                self.completed_naturals_only = match value {
                    "within_limit" => false,
                    "naturals_only" => true,
                    _ => return Err(bad()),
                }
            }
            "turned_card" => {
                self.turned_covered = match value {
                    "stays" => false,
                    "covered" => true,
                    _ => return Err(bad()),
                }
            }
            "target" => self.target = num(-1_000_000, 1_000_000)? as i32,
            "turn_cap" => self.turn_cap = num(1, 1_000_000)? as u32,
            "max_hands" => self.max_hands = num(1, 1_000_000)? as u32,
            "preset" => {
                let players = self.players;
                *self = ClassicRules::preset(value).map_err(|_| bad())?;
                self.players = players;
            }
            _ => return Err(ClassicRulesError::UnknownSwitch(key.to_string())),
        }
        Ok(())
    }

    /// Applies `key=value` settings in order.
    pub fn apply_settings<'a, I: IntoIterator<Item = &'a str>>(
        &mut self,
        settings: I,
    ) -> Result<(), ClassicRulesError> {
        for s in settings {
            let (k, v) = s
                .split_once('=')
                .ok_or_else(|| ClassicRulesError::BadSetting(s.to_string()))?;
            self.set(k.trim(), v.trim())?;
        }
        Ok(())
    }

    /// Cards in the pack (C-1): 104 and the jokers.
    pub const fn pack_size(&self) -> usize {
        104 + self.jokers as usize
    }

    /// Cards dealt to each player (C-2).
    pub const fn deal_size(&self) -> usize {
        match self.players {
            2 => 15,
            3 => self.deal_three as usize,
            _ => 11,
        }
    }

    /// Whether four players play in two partnerships (C-2, C-20).
    pub const fn partnerships(&self) -> bool {
        self.players == 4
    }

    /// Number of sides: two in partnerships, else one a player (C-24).
    pub const fn sides(&self) -> usize {
        if self.partnerships() {
            2
        } else {
            self.players as usize
        }
    }

    /// The side of a player: partners sit opposite, sides alternate (C-20).
    pub const fn side_of(&self, player: usize) -> usize {
        if self.partnerships() {
            player % 2
        } else {
            player
        }
    }

    /// Canastas a side needs to go out (C-10).
    pub const fn canastas_to_go_out(&self) -> u8 {
        if self.players == 2 {
            self.canastas_two_players
        } else {
            1
        }
    }

    /// The opening minimum for a side whose running total is `total` (C-6).
    pub const fn opening_minimum(&self, total: i32) -> i32 {
        match self.minimum {
            Minimum::Seed002 => {
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
            Minimum::Seed004 => {
                if total > 3000 {
                    120
                } else if total > 1500 {
                    90
                } else {
                    50
                }
            }
        }
    }

    /// Whether a meld of `n` naturals and `w` wilds keeps the wild limit
    /// (C-4; size at least 3).
    pub const fn meld_ok(&self, n: u32, w: u32) -> bool {
        let size = n + w;
        if size < 3 {
            return false;
        }
        match self.wild_limit {
            WildLimit::TwoNaturals => n >= 2 && w <= 3,
            WildLimit::WildsLeNaturals => w <= n,
            WildLimit::BySize => {
                let need = if size <= 4 {
                    2
                } else if size <= 6 {
                    3
                } else {
                    4
                };
                w <= 3 && n >= need
            }
        }
    }

    /// Whether `b` black threes and `w` wilds make a black-three meld (C-16).
    pub const fn black_three_meld_ok(&self, b: u32, w: u32) -> bool {
        match self.black_three_meld {
            BlackThreeMeld::WildLimit => b >= 2 && self.meld_ok(b, w),
            BlackThreeMeld::WildsLeThrees => b >= 2 && b + w >= 3 && w <= b,
            BlackThreeMeld::ThreeOrTwoAndWild => (b == 3 && w == 0) || (b == 2 && w == 1),
        }
    }

    /// What switch `key` accepts (C- identifiers in brackets), `None` for
    /// an unknown switch.
    pub fn accepted(key: &str) -> Option<&'static str> {
        KEYS.iter().find(|(k, _)| *k == key).map(|(_, a)| *a)
    }

    /// Every switch with its value, as [`ClassicRules::set`] takes it:
    /// `preset` first, then the switches in the order of
    /// [`ClassicRules::keys`], so that setting them in order rebuilds
    /// these rules.
    ///
    /// ```
    /// use kanaszta_engine::classic::ClassicRules;
    /// let r = ClassicRules::preset("classic-003").unwrap();
    /// let mut again = ClassicRules::default();
    /// for (k, v) in r.settings() {
    ///     again.set(k, &v).unwrap();
    /// }
    /// assert_eq!(again, r);
    /// ```
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let pick = |b: bool, yes: &str, no: &str| if b { yes } else { no }.to_string();
        let mut v = vec![("preset", self.preset.to_string())];
        v.extend([
            ("players", self.players.to_string()),
            ("jokers", self.jokers.to_string()),
            ("deal", pick(self.deal_three == 15, "004", "002")),
            (
                "wild_limit",
                match self.wild_limit {
                    WildLimit::TwoNaturals => "two_naturals",
                    WildLimit::WildsLeNaturals => "wilds_le_naturals",
                    WildLimit::BySize => "by_size",
                }
                .to_string(),
            ),
            (
                "wild_canasta",
                if self.wild_canasta == 0 {
                    "none".to_string()
                } else {
                    self.wild_canasta.to_string()
                },
            ),
            (
                "minimum",
                pick(self.minimum == Minimum::Seed004, "004", "002"),
            ),
            (
                "red_three_unmelded",
                pick(self.red_three_extra == 5, "004", "002"),
            ),
            (
                "wild_top",
                match self.wild_top {
                    WildTop::Pair => "pair",
                    WildTop::Forbidden => "forbidden",
                    WildTop::Under => "under",
                }
                .to_string(),
            ),
            (
                "closed_pile",
                pick(
                    self.closed_pile == ClosedPile::WildOnly,
                    "wild_only",
                    "unmelded_wild_red",
                ),
            ),
            (
                "pickup",
                pick(
                    self.pickup == PickupRule::PairWild,
                    "pair_wild",
                    "pair_wild_meld",
                ),
            ),
            (
                "black_three_top",
                pick(
                    self.black_three_top == BlackThreeTop::GoOut,
                    "go_out",
                    "blocked",
                ),
            ),
            (
                "black_three_meld",
                match self.black_three_meld {
                    BlackThreeMeld::WildLimit => "wild_limit",
                    BlackThreeMeld::WildsLeThrees => "wilds_le_threes",
                    BlackThreeMeld::ThreeOrTwoAndWild => "three_or_two_and_wild",
                }
                .to_string(),
            ),
            ("canastas_to_go_out", self.canastas_two_players.to_string()),
            (
                "ask",
                pick(self.ask == Ask::Compulsory, "compulsory", "optional"),
            ),
            (
                "minimum_waived",
                pick(self.minimum_waived, "canasta_from_hand", "never"),
            ),
            (
                "completed_canasta",
                pick(
                    self.completed_naturals_only,
                    "naturals_only",
                    "within_limit",
                ),
            ),
            ("turned_card", pick(self.turned_covered, "covered", "stays")),
            ("target", self.target.to_string()),
            ("turn_cap", self.turn_cap.to_string()),
            ("max_hands", self.max_hands.to_string()),
        ]);
        v
    }

    /// Checks what the setters cannot: the number of players.
    pub fn validate(&self) -> Result<(), ClassicRulesError> {
        if !(2..=6).contains(&self.players) {
            return Err(ClassicRulesError::BadValue {
                key: "players".into(),
                value: self.players.to_string(),
                accepted: KEYS[0].1,
            });
        }
        Ok(())
    }
}
