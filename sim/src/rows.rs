//! The rows of the CSV files (`hands.csv`, `matches.csv`, `errors.csv`):
//! one struct each, its columns declared once, written and read back with
//! the same code so a merged file is byte-identical to a single run's.
//! sim/CSV.md documents every column.

use kanaszta_engine::{Rules, RulesError};

/// The deficit from which a won match counts as a comeback.
pub const COMEBACK: i32 = 2_000;

/// A CSV cell or record that does not read back: what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CellError {
    /// Not an integer of the column's type (the cell's text).
    Integer(String),
    /// Not `true` or `false` (the cell's text).
    Bool(String),
    /// A record with another number of fields than the header.
    Fields {
        /// The fields of the record.
        found: usize,
        /// The fields of the header.
        expected: usize,
    },
    /// A cell refused in a named column.
    Column {
        /// The column.
        column: &'static str,
        /// What was wrong with the cell.
        source: Box<CellError>,
    },
}

impl CellError {
    /// `e`, found in `column`.
    pub fn in_column(column: &'static str, e: CellError) -> CellError {
        CellError::Column {
            column,
            source: Box::new(e),
        }
    }
}

impl std::fmt::Display for CellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellError::Integer(s) => write!(f, "expected an integer, got `{s}`"),
            CellError::Bool(s) => write!(f, "expected true or false, got `{s}`"),
            CellError::Fields { found, expected } => {
                write!(f, "{found} fields where {expected} were expected")
            }
            CellError::Column { column, source } => write!(f, "column `{column}`: {source}"),
        }
    }
}

impl std::error::Error for CellError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CellError::Column { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// A value of one CSV cell: written as text, read back exactly.
pub trait Cell: Sized {
    /// The cell's text.
    fn to_cell(&self) -> String;
    /// Parses the cell's text; the error says what was expected.
    fn from_cell(s: &str) -> Result<Self, CellError>;
    /// Appends the cell as a CSV field ([`write_text`] of its text),
    /// without building the text where it can.
    fn write_cell(&self, out: &mut Vec<u8>) {
        write_text(out, &self.to_cell());
    }
}

/// Appends `s` as one CSV field (RFC 4180: a field with a comma, quote or
/// line break is quoted, quotes doubled).
pub fn write_text(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        out.push(b'"');
        for b in s.bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(s.as_bytes());
    }
}

/// Appends the decimal digits of `n`.
fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    // Two digits a division (a seed has twenty).
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    while n >= 100 {
        let d = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        digits[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    }
    if n >= 10 {
        let d = n as usize * 2;
        i -= 2;
        digits[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    } else {
        i -= 1;
        digits[i] = b'0' + n as u8;
    }
    out.extend_from_slice(&digits[i..]);
}

macro_rules! number_cell {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn to_cell(&self) -> String {
                self.to_string()
            }
            fn from_cell(s: &str) -> Result<Self, CellError> {
                s.parse().map_err(|_| CellError::Integer(s.to_string()))
            }
            fn write_cell(&self, out: &mut Vec<u8>) {
                // Every column type widens to i128 without loss.
                let n = *self as i128;
                if n < 0 {
                    out.push(b'-');
                }
                write_u64(out, n.unsigned_abs() as u64);
            }
        }
    )*};
}
number_cell!(u8, u16, u32, u64, i32, i64);

impl Cell for bool {
    fn to_cell(&self) -> String {
        if *self { "true" } else { "false" }.into()
    }
    fn write_cell(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
    fn from_cell(s: &str) -> Result<Self, CellError> {
        match s {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(CellError::Bool(s.to_string())),
        }
    }
}

impl Cell for String {
    fn to_cell(&self) -> String {
        self.clone()
    }
    fn write_cell(&self, out: &mut Vec<u8>) {
        write_text(out, self);
    }
    fn from_cell(s: &str) -> Result<Self, CellError> {
        Ok(s.to_string())
    }
}

/// Absent values (no opening meld, nobody went out) are empty cells.
impl<T: Cell> Cell for Option<T> {
    fn to_cell(&self) -> String {
        self.as_ref().map(Cell::to_cell).unwrap_or_default()
    }
    fn write_cell(&self, out: &mut Vec<u8>) {
        if let Some(v) = self {
            v.write_cell(out);
        }
    }
    fn from_cell(s: &str) -> Result<Self, CellError> {
        if s.is_empty() {
            Ok(None)
        } else {
            T::from_cell(s).map(Some)
        }
    }
}

/// A row of a run's CSV files (the rows of [`csv_row!`], of either
/// family).
pub trait CsvRow {
    /// Every column name.
    fn header() -> Vec<String>;
    /// Appends the row as one CSV record, newline included.
    fn write_csv(&self, out: &mut Vec<u8>);
}

/// Declares a row struct of either family whose fields are its CSV
/// columns, in order, followed by one `rule_KEY` column per rule switch
/// (`columns`, `count` of them; `rules_doc` documents them), then the
/// `tail` columns: those added after the first files were written, at the
/// end so that readers by position keep working. With `legacy: true` a
/// file without the tail columns (written before them) still reads: the
/// tail takes its default (empty cells) and `upgrade` brings the older
/// columns to today's conventions; with `legacy: false` it is refused.
macro_rules! csv_row {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }
     tail { $($(#[$tm:meta])* $tfield:ident : $tty:ty),* $(,)? }
     rules { doc: $rules_doc:expr, columns: $columns:expr, count: $count:expr,
             legacy: $legacy:expr, upgrade: $upgrade:expr $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $($(#[$fm])* pub $field: $ty,)*
            #[doc = $rules_doc]
            pub rules: std::sync::Arc<[String]>,
            $($(#[$tm])* pub $tfield: $tty,)*
        }

        impl $name {
            /// The columns before the rule columns.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// The columns after the rule columns.
            pub const TAIL: &'static [&'static str] = &[$(stringify!($tfield)),*];

            /// Every column name.
            pub fn header() -> Vec<String> {
                let mut h: Vec<String> = Self::FIELDS.iter().map(|s| s.to_string()).collect();
                h.extend($columns);
                h.extend(Self::TAIL.iter().map(|s| s.to_string()));
                h
            }

            /// The row's cells, in header order.
            #[cfg(test)]
            #[allow(dead_code)]
            pub fn cells(&self) -> Vec<String> {
                let mut v = Vec::with_capacity(Self::FIELDS.len() + self.rules.len());
                $(v.push($crate::rows::Cell::to_cell(&self.$field));)*
                v.extend(self.rules.iter().cloned());
                $(v.push($crate::rows::Cell::to_cell(&self.$tfield));)*
                v
            }

            /// Appends the row as one CSV record, newline included, in
            /// header order: each cell written in place ([`Cell::write_cell`]),
            /// with no string per cell.
            pub fn write_csv(&self, out: &mut Vec<u8>) {
                let mut sep = false;
                $(
                    if sep {
                        out.push(b',');
                    }
                    sep = true;
                    $crate::rows::Cell::write_cell(&self.$field, out);
                )*
                let _ = sep;
                for r in self.rules.iter() {
                    out.push(b',');
                    $crate::rows::write_text(out, r);
                }
                $(
                    out.push(b',');
                    $crate::rows::Cell::write_cell(&self.$tfield, out);
                )*
                out.push(b'\n');
            }

            /// Reads a row written by [`Self::write_csv`] (the header was
            /// checked to be [`Self::header`]), or, where legacy files are
            /// read, by a version before the tail columns: its tail is
            /// left at the default and its older columns are brought up to
            /// date.
            pub fn from_cells(rec: &csv::StringRecord) -> Result<Self, $crate::rows::CellError> {
                Self::from_cells_after(rec, None)
            }

            /// [`Self::from_cells`] of a row that follows one whose rule
            /// cells were `prev`: when this row's are the same (as in
            /// every row of a series), it shares them instead of
            /// allocating a string a cell.
            pub fn from_cells_after(
                rec: &csv::StringRecord,
                prev: Option<&std::sync::Arc<[String]>>,
            ) -> Result<Self, $crate::rows::CellError> {
                let rules = $count;
                let legacy = Self::FIELDS.len() + rules;
                let want = legacy + Self::TAIL.len();
                let old = $legacy && rec.len() == legacy;
                if rec.len() != want && !old {
                    return Err($crate::rows::CellError::Fields {
                        found: rec.len(),
                        expected: want,
                    });
                }
                let mut it = rec.iter();
                #[allow(clippy::needless_update)] // a row with no tail
                let mut row = $name {
                    $($field: {
                        let s = it.next().unwrap_or_default();
                        $crate::rows::Cell::from_cell(s).map_err(|e| $crate::rows::CellError::in_column(stringify!($field), e))?
                    },)*
                    rules: match prev {
                        Some(p) if p.len() == rules && it.clone().take(rules).eq(p.iter().map(String::as_str)) => {
                            it.by_ref().take(rules).for_each(drop);
                            p.clone()
                        }
                        _ => it.by_ref().take(rules).map(str::to_string).collect(),
                    },
                    ..$name::default()
                };
                if old {
                    ($upgrade)(&mut row);
                } else {
                    $(row.$tfield = {
                        let s = it.next().unwrap_or_default();
                        $crate::rows::Cell::from_cell(s).map_err(|e| $crate::rows::CellError::in_column(stringify!($tfield), e))?
                    };)*
                }
                Ok(row)
            }
        }

        impl $crate::rows::CsvRow for $name {
            fn header() -> Vec<String> {
                $name::header()
            }
            fn write_csv(&self, out: &mut Vec<u8>) {
                $name::write_csv(self, out)
            }
        }

        impl $crate::rows::Keyed for $name {
            fn key(&self) -> (u32, u64) {
                (self.series, self.game)
            }
        }
    };
}
pub(crate) use csv_row;

/// A decorated row ([`csv_row!`]): the rule columns of [`Rules::keys`],
/// files from before the tail columns read and brought up to date by the
/// row's `upgrade_legacy`.
macro_rules! row {
    ($(#[$m:meta])* $name:ident { $($body:tt)* } tail { $($tail:tt)* }) => {
        csv_row! {
            $(#[$m])* $name { $($body)* }
            tail { $($tail)* }
            rules {
                doc: "The rule switches the game was played under, in [`Rules::keys`] order (shared by every row of a series).",
                columns: rule_columns(),
                count: rule_keys().len(),
                legacy: true,
                upgrade: $name::upgrade_legacy,
            }
        }

        impl $name {
            /// The header of files written before the tail columns.
            pub fn legacy_header() -> Vec<String> {
                let mut h: Vec<String> = Self::FIELDS.iter().map(|s| s.to_string()).collect();
                h.extend(rule_columns());
                h
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
pub fn rule_values(rules: &Rules) -> std::sync::Arc<[String]> {
    rules.settings().into_iter().map(|(_, v)| v).collect()
}

/// Rebuilds rules from the `rule_*` cells of a row.
pub fn rules_from_values(values: &[String]) -> Result<Rules, RulesError> {
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
        /// `seed::deal(run_seed, deal)`: the deal's (or match's) seed.
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
        /// The turn of the opening meld, numbered from 1 (I-24) like `turns`.
        opened_turn: Option<u16>,
        /// The turn of the first canasta, numbered from 1.
        first_canasta_turn: Option<u16>,
        pile_pickups: u16,
        free_pickups: u16,
        cards_picked: u16,
        frozen_turns: u16,
    }
    tail {
        /// The divisor of the tax bracket of `total_before` (D-15, I-18):
        /// 1 when untaxed (below the first threshold, `tax=off`, hands mode).
        tax_divisor: Option<u32>,
        /// The other seat's running total before the hand.
        opponent_total_before: Option<i32>,
        /// `total_before − opponent_total_before`.
        lead_before: Option<i32>,
        /// The seat with the higher taxed score (I-19 keeps it for
        /// statistics); empty on a tie.
        taxed_winner: Option<u8>,
        /// This seat won the hand by taxed score.
        won_taxed: Option<bool>,
        /// The part of `in_hand` from cards other than black threes (≤ 0).
        cards_in_hand: Option<i32>,
        /// The part of `in_hand` from black threes, −100 each (I-16, ≤ 0).
        black_threes_in_hand: Option<i32>,
    }
}

impl HandRow {
    /// Files written before the tail columns counted `opened_turn` and
    /// `first_canasta_turn` from 0; today they count from 1, like `turns`.
    fn upgrade_legacy(&mut self) {
        self.opened_turn = self.opened_turn.map(|t| t.saturating_add(1));
        self.first_canasta_turn = self.first_canasta_turn.map(|t| t.saturating_add(1));
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
    tail {
        /// Points this seat lost to the tax over the match, negative hands
        /// included (`raw_sum − total`; less than `tax_paid` when a taxed
        /// negative hand, `tax_negative=apply`, gave points back).
        net_tax: Option<i64>,
        /// Hands this seat won by taxed score.
        taxed_hand_wins: Option<u32>,
    }
}

impl MatchRow {
    /// Nothing to bring up to date.
    fn upgrade_legacy(&mut self) {}
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
    tail {}
}

impl ErrorRow {
    /// Nothing to bring up to date.
    fn upgrade_legacy(&mut self) {}
}

/// Orders rows of the files: series, then game.
pub trait Keyed {
    /// `(series, game)`.
    fn key(&self) -> (u32, u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_rust_prints_them() {
        let mut v: Vec<u64> = vec![
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999,
            1000,
            u64::MAX,
            u64::MAX - 1,
        ];
        v.extend((0..64).map(|k| 1u64 << k));
        v.extend((1..20).map(|k| 10u64.pow(k) - 1));
        v.extend((1..20).map(|k| 10u64.pow(k)));
        for n in v {
            let mut out = Vec::new();
            write_u64(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }

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

    /// The record `write_csv` appends: the cells of `cells`, each quoted
    /// as RFC 4180 wants, as the writer did before it wrote cells in place.
    fn reference_record(cells: &[String]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if c.contains([',', '"', '\n', '\r']) {
                out.push(b'"');
                out.extend_from_slice(c.replace('"', "\"\"").as_bytes());
                out.push(b'"');
            } else {
                out.extend_from_slice(c.as_bytes());
            }
        }
        out.push(b'\n');
        out
    }

    /// Rows written in place are the bytes of their cells joined and
    /// quoted, and a CSV reader gives the same row back: extreme numbers,
    /// absent values, and names with commas, quotes and line breaks.
    #[test]
    fn rows_written_in_place_are_their_cells() {
        let hand = HandRow {
            series: u32::MAX,
            game: u64::MAX,
            deal: 0,
            mode: "hands".into(),
            hand_seed: 1 << 63,
            seat: 1,
            agent: "ismcts:iters=5,c=0.7".into(),
            opponent: "say \"hi\"\nand\rgo".into(),
            raw: i32::MIN,
            taxed: -35,
            total_after: i32::MAX,
            opened_turn: Some(0),
            first_canasta_turn: None,
            out_seat: None,
            rules: rule_values(&Rules::default()),
            ..HandRow::default()
        };
        let matched = MatchRow {
            game: 3,
            agent: "rules".into(),
            winner: Some(0),
            raw_sum: i64::MIN,
            rules: rule_values(&Rules::default()),
            ..MatchRow::default()
        };
        let error = ErrorRow {
            agent: "a,b".into(),
            seat: None,
            turn: Some(17),
            message: "agent `x` said \"no\"".into(),
            rules: rule_values(&Rules::default()),
            ..ErrorRow::default()
        };
        let mut all = Vec::new();
        let mut want = Vec::new();
        for (bytes, cells) in [
            (
                {
                    let mut b = Vec::new();
                    hand.write_csv(&mut b);
                    b
                },
                hand.cells(),
            ),
            (
                {
                    let mut b = Vec::new();
                    matched.write_csv(&mut b);
                    b
                },
                matched.cells(),
            ),
            (
                {
                    let mut b = Vec::new();
                    error.write_csv(&mut b);
                    b
                },
                error.cells(),
            ),
        ] {
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(&reference_record(&cells))
            );
            all.push(bytes);
            want.push(cells);
        }
        let written = all.concat();
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(written.as_slice());
        let recs: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(recs.len(), 3);
        assert_eq!(HandRow::from_cells(&recs[0]).unwrap(), hand);
        assert_eq!(MatchRow::from_cells(&recs[1]).unwrap(), matched);
        assert_eq!(ErrorRow::from_cells(&recs[2]).unwrap(), error);
        for (rec, cells) in recs.iter().zip(&want) {
            assert_eq!(rec.iter().collect::<Vec<_>>(), *cells);
        }
    }

    /// A row of a file written before the tail columns reads: the tail
    /// is empty and the turns, counted from 0 then, count from 1 (I-24).
    #[test]
    fn a_row_written_before_the_tail_reads_on_todays_scale() {
        let r = HandRow {
            opened_turn: Some(5),
            first_canasta_turn: None,
            tax_divisor: Some(2),
            cards_in_hand: Some(-35),
            rules: rule_values(&Rules::default()),
            ..HandRow::default()
        };
        let mut cells = r.cells();
        cells.truncate(HandRow::legacy_header().len());
        let at = HandRow::FIELDS
            .iter()
            .position(|f| *f == "opened_turn")
            .unwrap();
        cells[at] = "4".into();
        let old = HandRow::from_cells(&csv::StringRecord::from(cells)).unwrap();
        assert_eq!(old.opened_turn, Some(5));
        assert_eq!(old.first_canasta_turn, None);
        assert_eq!((old.tax_divisor, old.cards_in_hand), (None, None));
        assert_eq!(old.rules, r.rules);
        let mut short = r.cells();
        short.pop();
        let e = HandRow::from_cells(&csv::StringRecord::from(short)).unwrap_err();
        let want = HandRow::header().len();
        assert_eq!(
            e,
            CellError::Fields {
                found: want - 1,
                expected: want
            }
        );
        assert!(e.to_string().contains("were expected"), "{e}");
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
        assert_eq!(
            e,
            CellError::in_column("game", CellError::Integer("seven".into()))
        );
        assert!(e.to_string().contains("column `game`"), "{e}");
    }
}
