//! Reading input files with limits: every file a command reads (positions,
//! rules files, CSVs) is read through a bound on its size, so `/dev/zero` or
//! an endless pipe is refused with a message instead of filling memory.
//!
//! - Whole files ([`read_text`]): positions and rules files at most
//!   [`JSON_LIMIT`]; summary CSVs that `ratings` reads whole at most
//!   [`SUMMARY_LIMIT`].
//! - CSVs streamed by `aggregate` and `plot` ([`CsvGuard`]): any total size, but no
//!   record longer than [`RECORD_LIMIT`]; the guard also tells a quote left
//!   open at the end of the file, which the CSV reader accepts silently.

use crate::error::CliError;
use std::io::{self, Read};

/// Largest position or rules file: 4 MiB (a position is a few KB).
pub const JSON_LIMIT: u64 = 4 << 20;
/// Largest summary CSV `ratings` reads whole: 256 MiB.
pub const SUMMARY_LIMIT: u64 = 256 << 20;
/// Longest CSV record (the toolkit's rows are under 2 KB): 1 MiB.
pub const RECORD_LIMIT: u64 = 1 << 20;

/// `n` bytes as `4 MiB`.
pub fn size(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Opens `path` for reading, standard input for `-`; gzip (a run's
/// `hands.csv.gz`, known by its first bytes) is read decompressed, as a
/// stream.
pub fn open(path: &str, what: &'static str) -> Result<Box<dyn Read + Send>, CliError> {
    if path == "-" {
        maybe_gzip(io::stdin()).map_err(|e| CliError::io(what, name(path), e))
    } else {
        let f = std::fs::File::open(path).map_err(|e| CliError::io(what, path, e))?;
        maybe_gzip(f).map_err(|e| CliError::io(what, path, e))
    }
}

/// `inner` as it is, or decompressed when it starts as gzip does.
pub fn maybe_gzip<R: Read + Send + 'static>(inner: R) -> io::Result<Box<dyn Read + Send>> {
    let mut r = io::BufReader::with_capacity(1 << 16, inner);
    let head = io::BufRead::fill_buf(&mut r)?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(Gunzip(flate2::bufread::MultiGzDecoder::new(r))))
    } else {
        Ok(Box::new(r))
    }
}

/// A gzip stream read decompressed; an error says the stream is cut short
/// or damaged (the caller names the file).
struct Gunzip<R>(R);

impl<R: Read> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "the gzip stream is cut short or damaged ({e}): expected a whole gzip \
                     file (a run stopped by a kill leaves its last block unwritten; \
                     `kanaszta merge` keeps the whole lines before it)"
                ),
            )
        })
    }
}

/// The display name of `path` (`standard input` for `-`).
pub fn name(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// Reads `path` (`-`: standard input) as UTF-8 text of at most `limit`
/// bytes; `what` names the kind of file in messages (`position`).
pub fn read_text(path: &str, what: &'static str, limit: u64) -> Result<String, CliError> {
    let action = match what {
        "position" => "read position",
        "rules" => "read rules file",
        "game log" => "read game log",
        _ => "read",
    };
    read_text_from(open(path, action)?, path, what, limit)
}

/// Reads `input`, the contents of `path`, as [`read_text`] does.
pub fn read_text_from(
    input: impl Read,
    path: &str,
    what: &'static str,
    limit: u64,
) -> Result<String, CliError> {
    let action = match what {
        "position" => "read position",
        "rules" => "read rules file",
        "game log" => "read game log",
        _ => "read",
    };
    let mut bytes = Vec::new();
    input
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(action, name(path), e))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::Input(format!(
            "{}: more than {}: a {what} file is at most {} (is it the right file?)",
            name(path),
            size(limit),
            size(limit)
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!(
            "{}: not UTF-8 text (invalid byte at offset {}): expected a {what} file in UTF-8",
            name(path),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The rest of a file after its first line ([`first_line`]).
pub type Rest = io::BufReader<Box<dyn Read + Send>>;

/// Opens `path` as [`open`] does and reads its first line (a CSV's
/// header, at most [`RECORD_LIMIT`]): the line, its newline included, and
/// the reader at the line after it, so that a command can tell what the
/// file is before it chooses how to read the rest.
pub fn first_line(path: &str) -> Result<(Vec<u8>, Rest), CliError> {
    let mut r = io::BufReader::with_capacity(1 << 16, open(path, "read")?);
    let mut head = Vec::new();
    io::BufRead::read_until(&mut (&mut r).take(RECORD_LIMIT), b'\n', &mut head)
        .map_err(|e| CliError::io("read", name(path), e))?;
    Ok((head, r))
}

/// A reader that passes CSV bytes through while checking them: at most
/// `total` bytes in all, no record longer than [`RECORD_LIMIT`], and,
/// once the end is reached, whether a quoted field was left open.
pub struct CsvGuard<R> {
    inner: R,
    total: u64,
    read: u64,
    line: u64,
    record: u64,
    in_quotes: bool,
    quote_line: u64,
    field_start: bool,
    just_closed: bool,
    /// Why reading stopped, when the guard stopped it.
    pub failure: Option<String>,
    /// Whether the end of the input was reached.
    pub ended: bool,
}

const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];

impl<R: Read> CsvGuard<R> {
    /// Guards `inner`, allowing `total` bytes.
    pub fn new(inner: R, total: u64) -> CsvGuard<R> {
        CsvGuard {
            inner,
            total,
            read: 0,
            line: 1,
            record: 0,
            in_quotes: false,
            quote_line: 0,
            field_start: true,
            just_closed: false,
            failure: None,
            ended: false,
        }
    }

    /// The line on which a quote was opened and never closed, once the
    /// whole input has been read.
    pub fn open_quote(&self) -> Option<u64> {
        (self.ended && self.in_quotes).then_some(self.quote_line)
    }

    fn fail(&mut self, m: String) -> io::Error {
        self.failure = Some(m.clone());
        io::Error::new(io::ErrorKind::InvalidData, m)
    }
}

impl<R: Read> Read for CsvGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 {
            self.ended = true;
            return Ok(0);
        }
        let bytes = &buf[..n];
        let mut i = 0;
        while i < n {
            let at = self.read + i as u64;
            let b = bytes[i];
            if at < 3 && b == BOM[at as usize] && self.field_start {
                i += 1;
                continue; // a byte order mark before the header
            }
            // A run of bytes that change nothing but the record's length
            // (none of a quote, a line break, or a separator before a
            // quote) is passed over at once.
            let run = if at < 3 {
                0
            } else if self.in_quotes {
                bytes[i..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\n')
                    .unwrap_or(n - i)
            } else {
                bytes[i..]
                    .iter()
                    .position(|&c| matches!(c, b'"' | b'\n' | b'\r'))
                    .unwrap_or(n - i)
            };
            if run > 0 {
                self.record += run as u64;
                if !self.in_quotes {
                    self.just_closed = false;
                    self.field_start = bytes[i + run - 1] == b',';
                }
                i += run;
            } else {
                self.record += 1;
                if self.in_quotes {
                    if b == b'"' {
                        self.in_quotes = false;
                        self.just_closed = true;
                    } else if b == b'\n' {
                        self.line += 1;
                    }
                } else if b == b'"' && (self.field_start || self.just_closed) {
                    if self.field_start {
                        self.quote_line = self.line;
                    }
                    self.in_quotes = true;
                    self.just_closed = false;
                    self.field_start = false;
                } else {
                    self.just_closed = false;
                    self.field_start = matches!(b, b',' | b'\n' | b'\r');
                    if b == b'\n' || b == b'\r' {
                        if b == b'\n' {
                            self.line += 1;
                        }
                        self.record = 0;
                    }
                }
                i += 1;
            }
            if self.record > RECORD_LIMIT {
                return Err(self.fail(format!(
                    "line {}: a record longer than {}: expected CSV rows (a quote left open, or not a CSV file?)",
                    self.line,
                    size(RECORD_LIMIT)
                )));
            }
        }
        self.read += n as u64;
        if self.read > self.total {
            return Err(self.fail(format!(
                "more than {}: this command reads at most {} of CSV",
                size(self.total),
                size(self.total)
            )));
        }
        Ok(n)
    }
}

/// The largest magnitude a CSV number may have: beyond it means and
/// variances overflow (and no column of the toolkit comes near).
pub const MAX_ABS: f64 = 1e100;

/// `v` for a message: at most 60 characters, the rest cut with `…`.
pub fn clip(v: &str) -> String {
    match v.char_indices().nth(60) {
        Some((i, _)) => format!("{}… ({} bytes)", &v[..i], v.len()),
        None => v.to_string(),
    }
}

/// A CSV cell as a number: finite, at most [`MAX_ABS`] in magnitude; `-0`
/// is 0. The error says what the cell holds instead.
pub fn number(v: &str) -> Result<f64, BadNumber> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x.abs() <= MAX_ABS => Ok(x + 0.0),
        Ok(_) => Err(BadNumber::NotFinite(clip(v))),
        Err(_) => Err(BadNumber::NotANumber(clip(v))),
    }
}

/// A cell that is not a number [`number`] takes, with what it holds
/// (clipped); its text reads as the end of a sentence (`row 3: column
/// `x` holds …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadNumber {
    /// A number, but infinite, NaN or above [`MAX_ABS`] in magnitude.
    NotFinite(String),
    /// No number.
    NotANumber(String),
}

impl std::fmt::Display for BadNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadNumber::NotFinite(v) => {
                write!(f, "`{v}`, not a finite number of magnitude up to 1e100")
            }
            BadNumber::NotANumber(v) => write!(f, "`{v}`, not a number"),
        }
    }
}

impl std::error::Error for BadNumber {}

/// Whether a cell passes a `--where COL=VALUE` filter: equal text, or
/// `true` / `false` against `1` / `0` (booleans count as 1 / 0).
pub fn cell_matches(cell: &str, want: &str) -> bool {
    fn norm(v: &str) -> &str {
        match v {
            "true" => "1",
            "false" => "0",
            v => v,
        }
    }
    cell == want || norm(cell) == norm(want)
}

/// How a `--where` condition compares a cell with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `COL=VALUE`: equal (`true`/`false` match `1`/`0`).
    Eq,
    /// `COL!=VALUE`: not equal.
    Ne,
    /// `COL<VALUE`: below.
    Lt,
    /// `COL<=VALUE`.
    Le,
    /// `COL>VALUE`.
    Gt,
    /// `COL>=VALUE`.
    Ge,
}

impl Compare {
    /// Whether a cell that stands `o` to the value passes.
    fn passes(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match self {
            Compare::Eq => o == Equal,
            Compare::Ne => o != Equal,
            Compare::Lt => o == Less,
            Compare::Le => o != Greater,
            Compare::Gt => o == Greater,
            Compare::Ge => o != Less,
        }
    }
}

/// How two texts compare as numbers, when both are: whole numbers exactly
/// (a seed of 20 digits is not rounded to its neighbour), others as
/// finite floating-point numbers.
fn number_order(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    if let (Ok(x), Ok(y)) = (a.parse::<i128>(), b.parse::<i128>()) {
        return Some(x.cmp(&y));
    }
    let num = |v: &str| v.parse::<f64>().ok().filter(|x| x.is_finite());
    num(a)?.partial_cmp(&num(b)?)
}

/// One `--where` condition of `aggregate` and `plot`: a column, a
/// comparison and a value. When the cell and the value are both numbers
/// they compare as numbers (`-2500 < -2000`, `1.0 = 1`); else as text
/// (`=` also matches `true`/`false` with `1`/`0`). A cell that is not a
/// number never passes `<`, `<=`, `>`, `>=` against a number, so an empty
/// cell is not "below -2000".
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// The column's name.
    pub col: String,
    /// The comparison.
    pub op: Compare,
    /// The value as written.
    pub value: String,
    /// Whether the value is a number.
    numeric: bool,
}

impl Filter {
    /// What `--where` accepts, for messages.
    pub const ACCEPTED: &'static str =
        "COL=VALUE, COL!=VALUE, COL<VALUE, COL<=VALUE, COL>VALUE or COL>=VALUE (e.g. \
         `lead_before<=-2000`, `rule_tax!=off`), compared as numbers when the cell and VALUE \
         both are, else as text";

    /// Reads `COL=VALUE`, `COL!=VALUE`, `COL<VALUE`, `COL<=VALUE`,
    /// `COL>VALUE` or `COL>=VALUE` (`==` is taken as `=`).
    pub fn parse(text: &str) -> Result<Filter, BadFilter> {
        let bad = |why: &str| BadFilter {
            text: text.to_string(),
            why: why.to_string(),
        };
        // `--where lead>=2000` unquoted reaches us as `lead`: the shell
        // took `>` for a redirection.
        let at = text.find(['=', '!', '<', '>']).ok_or_else(|| {
            bad(&format!(
                "no comparison (a shell takes an unquoted `<` or `>` for a redirection: \
                 quote the condition, e.g. --where '{text}>=2000')"
            ))
        })?;
        let col = text[..at].trim();
        if col.is_empty() {
            return Err(bad("no column before the comparison"));
        }
        let rest = &text[at..];
        let (op, sym) = [
            ("==", Compare::Eq),
            ("!=", Compare::Ne),
            ("<=", Compare::Le),
            (">=", Compare::Ge),
            ("=", Compare::Eq),
            ("<", Compare::Lt),
            (">", Compare::Gt),
        ]
        .iter()
        .find(|(sym, _)| rest.starts_with(sym))
        .map(|(sym, op)| (*op, *sym))
        .ok_or_else(|| bad("`!` must be followed by `=`"))?;
        let value = rest[sym.len()..].trim().to_string();
        let ordered = !matches!(op, Compare::Eq | Compare::Ne);
        if ordered && value.is_empty() {
            return Err(bad(&format!("no value after `{sym}`")));
        }
        if value.starts_with(['=', '<', '>', '!']) {
            return Err(bad(&format!("`{sym}{}` is not a comparison", &value[..1])));
        }
        // `inf` and `NaN` read as numbers but order nothing: a slip, not
        // a text to compare with.
        let numeric = match value.parse::<f64>() {
            Ok(v) if v.is_finite() => true,
            Ok(_) => return Err(bad(&format!("`{value}` is not a finite number"))),
            Err(_) => false,
        };
        Ok(Filter {
            col: col.to_string(),
            op,
            value,
            numeric,
        })
    }

    /// Whether `cell` passes the condition.
    pub fn matches(&self, cell: &str) -> bool {
        let c = cell.trim();
        if self.numeric {
            if let Some(o) = number_order(c, &self.value) {
                return self.op.passes(o);
            }
        }
        match self.op {
            Compare::Eq => cell_matches(c, &self.value),
            Compare::Ne => !cell_matches(c, &self.value),
            // A number's order against a text cell would be an accident
            // of the characters: no such cell passes.
            _ if self.numeric => false,
            op => op.passes(c.cmp(self.value.as_str())),
        }
    }
}

/// A `--where` condition [`Filter::parse`] does not read: the text and
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadFilter {
    /// The condition given.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for BadFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--where `{}`: {}; expected {}",
            self.text,
            self.why,
            Filter::ACCEPTED
        )
    }
}

impl std::error::Error for BadFilter {}

/// Columns renamed in the command's CSVs, (old, new): a reader asked for
/// either name finds a file that has the other, so scripts and files from
/// before the renaming keep working.
pub const RENAMED_COLUMNS: &[(&str, &str)] = &[("ci95_lo", "mean_lo"), ("ci95_hi", "mean_hi")];

/// The column `c` of `header` (or, when it has none, the column `c` was
/// renamed from or to, [`RENAMED_COLUMNS`]): an error names the columns
/// there are, or the places of a name the header holds twice.
pub fn column(header: &[String], c: &str, file: &str) -> Result<usize, BadColumn> {
    let mut at: Vec<usize> = (0..header.len()).filter(|&i| header[i] == c).collect();
    if at.is_empty() {
        if let Some(other) = RENAMED_COLUMNS.iter().find_map(|&(old, new)| match c {
            _ if c == old => Some(new),
            _ if c == new => Some(old),
            _ => None,
        }) {
            at = (0..header.len()).filter(|&i| header[i] == other).collect();
        }
    }
    match at[..] {
        [i] => Ok(i),
        [] => Err(BadColumn::Missing {
            file: file.to_string(),
            column: clip(c),
            columns: clip(&header.join(", ")),
        }),
        _ => Err(BadColumn::Twice {
            file: file.to_string(),
            column: clip(c),
            at: at.iter().map(|i| i + 1).collect(),
        }),
    }
}

/// A column [`column`] does not find once: the file, the column (clipped),
/// and the columns there are or the places of a name given twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadColumn {
    /// No such column (nor its renamed name).
    Missing {
        /// The file, as messages name it.
        file: String,
        /// The column asked for.
        column: String,
        /// The header's columns, joined.
        columns: String,
    },
    /// The header names the column more than once.
    Twice {
        /// The file, as messages name it.
        file: String,
        /// The column asked for.
        column: String,
        /// Its places, counted from 1.
        at: Vec<usize>,
    },
}

impl std::fmt::Display for BadColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadColumn::Missing {
                file,
                column,
                columns,
            } => write!(f, "{file}: no column `{column}`; columns: {columns}"),
            BadColumn::Twice { file, column, at } => write!(
                f,
                "{file}: the header names column `{column}` {} times (columns {}): expected each column name once",
                at.len(),
                at.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::error::Error for BadColumn {}

/// A number for a CSV cell of output: as Rust prints it with `decimals`
/// (all digits when `None`), but in scientific notation when it is so large
/// or small that plain digits would run to dozens.
pub fn fmt_num(x: f64, decimals: Option<usize>) -> String {
    let a = x.abs();
    let sci = a >= 1e21 || (a != 0.0 && a < 1e-6 && decimals.is_none());
    match (sci, decimals) {
        (true, Some(d)) => format!("{x:.d$e}"),
        (true, None) => format!("{x:e}"),
        (false, Some(d)) => format!("{x:.d$}"),
        (false, None) => format!("{x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(text: &[u8]) -> CsvGuard<&[u8]> {
        let mut g = CsvGuard::new(text, 1 << 30);
        let mut sink = Vec::new();
        let _ = g.read_to_end(&mut sink);
        g
    }

    #[test]
    fn quotes_balance() {
        assert_eq!(guard(b"a,b\n1,\"x,\"\"y\"\"\"\n").open_quote(), None);
        assert_eq!(guard(b"a,b\n1,x\"y\n").open_quote(), None);
        assert_eq!(guard(b"a,b\n1,\"x\n2,3\n").open_quote(), Some(2));
        assert_eq!(guard(b"\xef\xbb\xbf\"a\",b\n1,2\n").open_quote(), None);
        assert_eq!(guard(b"a\n\"\"\"\n").open_quote(), Some(2));
    }

    #[test]
    fn numbers_filters_and_formats() {
        assert_eq!(number(" 5 "), Ok(5.0));
        assert_eq!(number("-0").map(f64::is_sign_negative), Ok(false));
        for bad in ["inf", "-inf", "NaN", "1e308", "-1e101"] {
            assert!(
                number(bad).unwrap_err().to_string().contains("finite"),
                "{bad}"
            );
        }
        assert!(number("x")
            .unwrap_err()
            .to_string()
            .contains("not a number"));
        assert!(cell_matches("true", "1") && cell_matches("0", "false"));
        assert!(cell_matches("rules", "rules") && !cell_matches("true", "0"));
        assert_eq!(fmt_num(50.0, None), "50");
        assert_eq!(fmt_num(0.5, Some(4)), "0.5000");
        assert_eq!(fmt_num(1e100, None), "1e100");
        assert_eq!(fmt_num(-1e100, Some(4)), "-1.0000e100");
        assert_eq!(fmt_num(1.8e19, None), "18000000000000000000");
        let h = vec!["a".to_string(), "b".into(), "a".into()];
        assert!(column(&h, "a", "f")
            .unwrap_err()
            .to_string()
            .contains("2 times (columns 1, 3)"));
        assert_eq!(column(&h, "b", "f"), Ok(1));
    }

    #[test]
    fn long_records_and_totals_stop() {
        let long = vec![b'x'; (RECORD_LIMIT + 10) as usize];
        let g = guard(&long);
        assert!(g.failure.as_deref().unwrap().contains("longer than 1 MiB"));
        let mut g = CsvGuard::new(&b"a,b\n1,2\n"[..], 4);
        let mut sink = Vec::new();
        assert!(g.read_to_end(&mut sink).is_err());
        assert!(g.failure.unwrap().contains("at most 4 bytes"));
    }
}
