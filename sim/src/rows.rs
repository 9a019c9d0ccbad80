//! The rows of the CSV files (`hands.csv`, `matches.csv`, `errors.csv`):
//! one struct each, its columns declared once, written and read back with
//! the same code so a merged file is byte-identical to a single run's.
//! sim/CSV.md documents every column.

use kanaszta_engine::Rules;

/// A value of one CSV cell: written as text, read back exactly.
pub trait Cell: Sized {
    /// The cell's text.
    fn to_cell(&self) -> String;
    /// Parses the cell's text; the error says what was expected.
    fn from_cell(s: &str) -> Result<Self, String>;
}

macro_rules! number_cell {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn to_cell(&self) -> String {
                self.to_string()
            }
            fn from_cell(s: &str) -> Result<Self, String> {
                s.parse().map_err(|_| format!("expected an integer, got `{s}`"))
            }
        }
    )*};
}
number_cell!(u8, u16, u32, u64, i32, i64);

impl Cell for bool {
    fn to_cell(&self) -> String {
        if *self { "true" } else { "false" }.into()
    }
    fn from_cell(s: &str) -> Result<Self, String> {
        match s {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("expected true or false, got `{s}`")),
        }
    }
}

impl Cell for String {
    fn to_cell(&self) -> String {
        self.clone()
    }
    fn from_cell(s: &str) -> Result<Self, String> {
        Ok(s.to_string())
    }
}

/// Absent values (no opening meld, nobody went out) are empty cells.
impl<T: Cell> Cell for Option<T> {
    fn to_cell(&self) -> String {
        self.as_ref().map(Cell::to_cell).unwrap_or_default()
    }
    fn from_cell(s: &str) -> Result<Self, String> {
        if s.is_empty() {
            Ok(None)
        } else {
            T::from_cell(s).map(Some)
        }
    }
}

/// Declares a row struct whose fields are its CSV columns, in order, followed
/// by one `rule_KEY` column per rule switch.
macro_rules! row {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $($(#[$fm])* pub $field: $ty,)*
            /// The rule switches the game was played under, in
            /// [`Rules::keys`] order.
            pub rules: Vec<String>,
        }

        impl $name {
            /// The columns before the rule columns.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Every column name.
            pub fn header() -> Vec<String> {
                let mut h: Vec<String> = Self::FIELDS.iter().map(|s| s.to_string()).collect();
                h.extend(rule_columns());
                h
            }

            /// The row's cells, in header order.
            pub fn cells(&self) -> Vec<String> {
                let mut v = Vec::with_capacity(Self::FIELDS.len() + self.rules.len());
                $(v.push(Cell::to_cell(&self.$field));)*
                v.extend(self.rules.iter().cloned());
                v
            }

            /// Reads a row written by [`Self::cells`] (the header was checked
            /// to be [`Self::header`]).
            pub fn from_cells(rec: &csv::StringRecord) -> Result<Self, String> {
                let want = Self::FIELDS.len() + rule_keys().len();
                if rec.len() != want {
                    return Err(format!("{} fields where {want} were expected", rec.len()));
                }
                let mut it = rec.iter();
                Ok($name {
                    $($field: {
                        let s = it.next().unwrap_or_default();
                        Cell::from_cell(s).map_err(|e| format!("column `{}`: {e}", stringify!($field)))?
                    },)*
                    rules: it.map(str::to_string).collect(),
                })
            }
        }
    };
}

/// The rule switch names, in [`Rules::keys`] order (computed once).
pub fn rule_keys() -> &'static [String] {
    static KEYS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    KEYS.get_or_init(Rules::keys)
}

/// `rule_KEY` for every rule switch, in [`Rules::keys`] order.
pub fn rule_columns() -> Vec<String> {
    rule_keys().iter().map(|k| format!("rule_{k}")).collect()
}

/// The values of every rule switch, in [`Rules::keys`] order.
pub fn rule_values(rules: &Rules) -> Vec<String> {
    rules.settings().into_iter().map(|(_, v)| v).collect()
}

/// Rebuilds rules from the `rule_*` cells of a row.
#[cfg(test)]
pub fn rules_from_values(values: &[String]) -> Result<Rules, String> {
    let mut r = Rules::default();
    for (k, v) in rule_keys().iter().zip(values) {
        r.set(k, v)?;
    }
    Ok(r)
}

row! {
    /// One row of `hands.csv`: one seat of one hand.
    HandRow {
        /// Which matchup or rule setting of a tournament or sweep (0 for `play`).
        series: u32,
        /// Game index in the run.
        game: u64,
        /// Deal index: the game index halved when paired.
        deal: u64,
        /// The second game of a pair: agents in swapped seats.
        swapped: bool,
        /// `hands` or `matches`.
        mode: String,
        /// Hand number in the match (0 in `hands` mode).
        hand: u32,
        /// The run's master seed.
        run_seed: u64,
        /// `derive_seed(run_seed, deal)`: the deal's (or match's) seed.
        deal_seed: u64,
        /// The hand's seed (equal to `deal_seed` in `hands` mode).
        hand_seed: u64,
        seat: u8,
        agent: String,
        opponent: String,
        starter: bool,
        turns: u32,
        actions: u64,
        end: String,
        out_seat: Option<u8>,
        went_out: bool,
        hand_winner: Option<u8>,
        won: bool,
        raw: i32,
        taxed: i32,
        total_before: i32,
        total_after: i32,
        red_threes: u8,
        red_three_points: i32,
        twins: u16,
        twin_points: i32,
        canastas_black_wild: u8,
        canastas_black: u8,
        canastas_red: u8,
        canastas_red_wild: u8,
        canastas_gold: u8,
        canasta_points: i32,
        heart_aces: u8,
        heart_ace_points: i32,
        going_out_points: i32,
        from_hand_points: i32,
        cleared_table_points: i32,
        base: i32,
        melded: i32,
        in_hand: i32,
        card_value: i32,
        opened_turn: Option<u16>,
        first_canasta_turn: Option<u16>,
        pile_pickups: u16,
        free_pickups: u16,
        cards_picked: u16,
        frozen_turns: u16,
    }
}

row! {
    /// One row of `matches.csv`: one seat of one match.
    MatchRow {
        series: u32,
        game: u64,
        deal: u64,
        swapped: bool,
        run_seed: u64,
        deal_seed: u64,
        seat: u8,
        agent: String,
        opponent: String,
        first_starter: bool,
        hands: u32,
        capped: bool,
        winner: Option<u8>,
        won: bool,
        total: i32,
        opponent_total: i32,
        tax_paid: i64,
        raw_sum: i64,
        hand_wins: u32,
        lead_changes: u32,
        max_deficit: i32,
        comeback: bool,
    }
}

row! {
    /// One row of `errors.csv`: a game an agent broke (or a crash).
    ErrorRow {
        series: u32,
        game: u64,
        deal: u64,
        swapped: bool,
        mode: String,
        hand: u32,
        run_seed: u64,
        deal_seed: u64,
        seat: Option<u8>,
        agent: String,
        turn: Option<u32>,
        action: String,
        rule: String,
        message: String,
    }
}

/// Orders rows of the files: series, then game.
pub trait Keyed {
    /// `(series, game)`.
    fn key(&self) -> (u32, u64);
}

impl Keyed for HandRow {
    fn key(&self) -> (u32, u64) {
        (self.series, self.game)
    }
}

impl Keyed for MatchRow {
    fn key(&self) -> (u32, u64) {
        (self.series, self.game)
    }
}

impl Keyed for ErrorRow {
    fn key(&self) -> (u32, u64) {
        (self.series, self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_back_to_itself() {
        let r = HandRow {
            series: 2,
            game: 7,
            agent: "ismcts:iters=5,c=0.7".into(),
            opened_turn: Some(4),
            out_seat: None,
            raw: -35,
            rules: rule_values(&Rules::default()),
            ..HandRow::default()
        };
        let rec = csv::StringRecord::from(r.cells());
        assert_eq!(HandRow::from_cells(&rec).unwrap(), r);
        assert_eq!(HandRow::header().len(), rec.len());
        assert_eq!(rules_from_values(&r.rules).unwrap(), Rules::default());
    }

    #[test]
    fn a_bad_cell_names_its_column() {
        let mut cells = HandRow {
            rules: rule_values(&Rules::default()),
            ..HandRow::default()
        }
        .cells();
        cells[1] = "seven".into();
        let e = HandRow::from_cells(&csv::StringRecord::from(cells)).unwrap_err();
        assert!(e.contains("column `game`"), "{e}");
    }
}
