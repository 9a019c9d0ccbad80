//! `kanaszta plot`: SVG charts drawn from the toolkit's own CSVs, with no
//! dependency beyond the CSV reader.
//!
//! Three kinds:
//! - `bar`: one bar per row (or per row and group), height from `--y`,
//!   optional error bars from `--lo`/`--hi` (e.g. Wilson intervals);
//! - `line`: `--y` against a numeric or categorical `--x`, one line per
//!   value of `--group`, with optional error bars;
//! - `hist`: the distribution of `--x` (e.g. hands per match), one outline
//!   per value of `--group`, on shared bins; the two rows of a game in
//!   `hands.csv` or `matches.csv` count once for a column of the game.
//!
//! The input streams, of any size (plain or gzip): only what the chart
//! draws is kept, so a histogram of a hands.csv of millions of rows takes
//! the memory of its distinct values, not of its rows (see [`draw`]).

use super::parse_filters;
use crate::error::CliError;
use crate::input::{self, BadColumn, BadNumber, CsvGuard, Filter};
use clap::Args;
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kanaszta plot`.
#[derive(Args, Debug, Clone)]
pub struct PlotArgs {
    /// The CSV file (`-`: standard input).
    file: String,
    /// bar, line or hist. A hist of hands.csv or matches.csv (two rows per
    /// game, one per seat) counts each game once when --x is the same on
    /// both seats' rows (`hands`, `capped`, `turns`), each row otherwise.
    #[arg(long, default_value = "bar")]
    kind: String,
    /// Column on the x axis (categories for bar, values for hist).
    #[arg(long, value_name = "COL")]
    x: String,
    /// Column on the y axis (bar, line).
    #[arg(long, value_name = "COL")]
    y: Option<String>,
    /// Lower end of an interval (with --hi).
    #[arg(long, value_name = "COL", requires = "hi")]
    lo: Option<String>,
    /// Upper end of an interval (with --lo).
    #[arg(long, value_name = "COL", requires = "lo")]
    hi: Option<String>,
    /// One series per value of this column.
    #[arg(long, value_name = "COL")]
    group: Option<String>,
    /// Keep only rows that pass this condition (repeatable): COL=VALUE,
    /// COL!=VALUE, COL<VALUE, COL<=VALUE, COL>VALUE or COL>=VALUE, as
    /// numbers when the cell and VALUE both are, else as text.
    #[arg(long = "where", value_name = "COND")]
    filter: Vec<String>,
    /// Chart title.
    #[arg(long, default_value = "")]
    title: String,
    /// Histogram bins, 1 to 1000.
    #[arg(long, default_value_t = 20, value_parser = parse_bins, allow_negative_numbers = true)]
    bins: usize,
    /// The SVG file to write (`-`: standard output; also accepted as
    /// `--out`).
    #[arg(long = "file", alias = "out", value_name = "FILE")]
    out: PathBuf,
}

/// Most histogram bins: more than the chart's 490 pixels would not show.
pub const MAX_BINS: usize = 1000;

fn parse_bins(s: &str) -> Result<usize, PlotError> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|b| (1..=MAX_BINS).contains(b))
        .ok_or(PlotError::Bins)
}

/// Why a chart cannot be drawn: what was wrong and what is accepted.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlotError {
    /// `--bins` not a whole number from 1 to [`MAX_BINS`].
    Bins,
    /// `--kind` none of `bar`, `line`, `hist`.
    Kind(String),
    /// Text that is not CSV; `guard` is the reader guard's message when it
    /// stopped the read (a file or a record too long).
    Csv {
        /// The file, as messages name it.
        name: String,
        /// Whether the header was being read.
        header: bool,
        /// The line, where the reader knows it.
        line: Option<u64>,
        /// The reader's error.
        source: csv::Error,
        /// The guard's message.
        guard: Option<String>,
    },
    /// No header.
    Empty {
        /// The file.
        name: String,
    },
    /// A quote never closed.
    OpenQuote {
        /// The file.
        name: String,
        /// The line of the quote.
        line: u64,
    },
    /// A column the file does not have once.
    Column(BadColumn),
    /// A cell that is not a number.
    Number {
        /// The row (the header is row 1).
        row: usize,
        /// The column.
        column: String,
        /// What the cell holds.
        source: BadNumber,
    },
    /// No rows left after the filters.
    NoRows {
        /// The file.
        file: String,
    },
    /// A bar or line chart without `--y`.
    NoY,
    /// A second point at the same x of one series.
    Duplicate(Box<DuplicatePoint>),
    /// More than [`MAX_POINTS`] points in a bar or line chart.
    Points {
        /// The limit ([`MAX_POINTS`]).
        limit: usize,
        /// The file.
        file: String,
        /// The row of the point past the limit.
        row: usize,
        /// Whether the chart is of bars (else of lines).
        bar: bool,
        /// The x column.
        x_col: String,
        /// The `--group` column.
        group_col: Option<String>,
        /// The y column.
        y_col: String,
    },
    /// More than [`MAX_VALUES`] distinct values of a histogram read from
    /// standard input (a file would be read twice).
    Values {
        /// The limit ([`MAX_VALUES`]).
        limit: usize,
        /// The x column.
        x: String,
    },
    /// A file read twice that gave other rows the second time.
    Changed {
        /// The file.
        name: String,
    },
}

/// A second point at the same x of one series of a bar or line chart:
/// where, and what would summarize the rows first.
#[derive(Debug)]
pub struct DuplicatePoint {
    /// The file.
    pub file: String,
    /// The row.
    pub row: usize,
    /// The x (clipped).
    pub x: String,
    /// The series (clipped; empty without `--group`).
    pub series: String,
    /// The row of the first point at x.
    pub first: usize,
    /// Whether the chart is of bars (else of lines).
    pub bar: bool,
    /// Whether the chart has `--group`.
    pub grouped: bool,
    /// The x column.
    pub x_col: String,
    /// The `--group` column.
    pub group_col: Option<String>,
    /// The y column.
    pub y_col: String,
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Bins => {
                write!(f, "expected a whole number of bins from 1 to {MAX_BINS}")
            }
            PlotError::Kind(s) => {
                write!(f, "unknown chart kind `{s}`; accepted: bar, line, hist")
            }
            PlotError::Csv {
                name,
                guard: Some(m),
                ..
            } => write!(f, "{name}: {m}"),
            PlotError::Csv {
                name,
                header,
                line,
                source,
                guard: None,
            } => {
                write!(f, "{name}: malformed CSV")?;
                if *header {
                    f.write_str(" in the header")?;
                } else if let Some(l) = line {
                    write!(f, " at line {l}")?;
                }
                write!(f, ": {source}")
            }
            PlotError::Empty { name } => write!(
                f,
                "{name}: empty: expected a CSV file with a header line naming the columns"
            ),
            PlotError::OpenQuote { name, line } => write!(
                f,
                "{name}: the quote opened on line {line} is never closed: expected every quoted field to end with `\"`"
            ),
            PlotError::Column(e) => write!(f, "{e}"),
            PlotError::Number {
                row,
                column,
                source,
            } => write!(f, "row {row}: column `{column}` holds {source}"),
            PlotError::NoRows { file } => write!(f, "{file}: no rows to plot (after filters)"),
            PlotError::NoY => f.write_str("bar and line charts need --y COLUMN"),
            PlotError::Duplicate(d) => {
                let DuplicatePoint {
                    file,
                    row,
                    x,
                    series,
                    first,
                    bar,
                    grouped,
                    x_col,
                    group_col,
                    y_col,
                } = d.as_ref();
                write!(
                f,
                "{file}: row {row}: x `{x}`{} appears again (first on row {first}): a {} chart draws one point per x{}; summarize first, e.g. `kanaszta aggregate {file} --by {x_col}{} --cols {y_col}`, or pick rows with --where",
                if series.is_empty() { String::new() } else { format!(" of series `{series}`") },
                if *bar { "bar" } else { "line" },
                if *grouped { " and series" } else { " (or one per x and --group value)" },
                group_col.as_ref().map_or(String::new(), |g| format!(",{g}")),
                )
            }
            PlotError::Points {
                limit,
                file,
                row,
                bar,
                x_col,
                group_col,
                y_col,
            } => write!(
                f,
                "{file}: row {row}: more than {limit} points: a {} chart keeps at most {limit} (one a row); aggregate first, e.g. `kanaszta aggregate {file} --by {x_col}{} --cols {y_col}`, or pick rows with --where",
                if *bar { "bar" } else { "line" },
                group_col.as_ref().map_or(String::new(), |g| format!(",{g}")),
            ),
            PlotError::Values { limit, x } => write!(
                f,
                "standard input: more than {limit} distinct values of `{x}`: a histogram of standard input counts each distinct value (a file is read twice instead); give the file's name, or round the values first"
            ),
            PlotError::Changed { name } => write!(
                f,
                "{name}: changed while read: a histogram of this many values reads its file twice; plot a file that is not being written"
            ),
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Csv { source, .. } => Some(source),
            PlotError::Column(e) => Some(e),
            PlotError::Number { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<PlotError> for CliError {
    fn from(e: PlotError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// Runs `kanaszta plot`.
pub fn run(a: PlotArgs) -> Result<ExitCode, CliError> {
    let spec = Spec {
        kind: a.kind.parse()?,
        x: a.x,
        y: a.y,
        lo: a.lo,
        hi: a.hi,
        group: a.group,
        filter: parse_filters(&a.filter)?,
        title: a.title,
        bins: a.bins.max(1),
    };
    let (svg, what) = draw(
        || input::open(&a.file, "read"),
        a.file != "-",
        input::name(&a.file),
        &a.file,
        &spec,
    )?;
    if a.out.as_os_str() == "-" {
        // Standard output holds the SVG; what it is goes to stderr.
        eprintln!("kanaszta plot: {what}");
        return super::print(&svg);
    }
    std::fs::write(&a.out, svg).map_err(|e| CliError::io("write", a.out.display(), e))?;
    super::print(&format!("wrote {}: {what}\n", a.out.display()))
}

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bars with optional intervals.
    Bar,
    /// Lines with optional intervals.
    Line,
    /// Histogram outlines.
    Hist,
}

impl std::str::FromStr for Kind {
    type Err = PlotError;
    fn from_str(s: &str) -> Result<Kind, PlotError> {
        match s {
            "bar" => Ok(Kind::Bar),
            "line" => Ok(Kind::Line),
            "hist" => Ok(Kind::Hist),
            _ => Err(PlotError::Kind(s.to_string())),
        }
    }
}

/// A chart request: which columns of which table.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Chart kind.
    pub kind: Kind,
    /// Column on the x axis (categories for bars, values for histograms).
    pub x: String,
    /// Column on the y axis (not for histograms).
    pub y: Option<String>,
    /// Lower end of an interval.
    pub lo: Option<String>,
    /// Upper end of an interval.
    pub hi: Option<String>,
    /// One series per value of this column.
    pub group: Option<String>,
    /// Keep only rows that pass every condition.
    pub filter: Vec<Filter>,
    /// Chart title.
    pub title: String,
    /// Histogram bins.
    pub bins: usize,
}

/// Most points a bar or line chart keeps (bars, or points of lines, over
/// all series): a chart of more shows nothing more, and its SVG would run
/// to hundreds of megabytes.
pub const MAX_POINTS: usize = 1_000_000;

/// Most distinct values (over all series) a histogram counts in one
/// reading: beyond it, a file is read a second time and counted into the
/// bins directly; standard input, which cannot be read again, is refused.
pub const MAX_VALUES: usize = 1 << 22;

/// Draws the chart of `spec` from the CSV `open` gives, streaming: only the
/// cells the chart uses are kept (for a bar or line chart its points, for
/// a histogram the count of each distinct value of each series), so memory
/// does not grow with the number of rows. `rereadable`: whether `open` may
/// be called a second time (a file, not standard input); then the rows of a
/// game are forgotten once a later game starts, and the file is read again
/// when its games are out of order or it holds more than [`MAX_VALUES`]
/// distinct values. `name` names the input in messages about its text,
/// `file` in those about its columns. The SVG text and what it shows.
pub fn draw<R: Read, E: From<PlotError>>(
    open: impl FnMut() -> Result<R, E>,
    rereadable: bool,
    name: &str,
    file: &str,
    spec: &Spec,
) -> Result<(String, String), E> {
    let limits = Limits {
        points: MAX_POINTS,
        values: MAX_VALUES,
    };
    draw_within(open, rereadable, name, file, spec, limits)
}

/// The most a chart keeps: [`MAX_POINTS`] and [`MAX_VALUES`] (smaller in
/// tests).
#[derive(Clone, Copy, Debug)]
struct Limits {
    points: usize,
    values: usize,
}

/// [`draw`] within `limits`.
fn draw_within<R: Read, E: From<PlotError>>(
    mut open: impl FnMut() -> Result<R, E>,
    rereadable: bool,
    name: &str,
    file: &str,
    spec: &Spec,
    limits: Limits,
) -> Result<(String, String), E> {
    let first = Pass {
        prune: rereadable,
        range: None,
        rereadable,
        limits,
    };
    let mut pass = first;
    // Each further reading knows more (every key remembered, the range
    // of values): at most three, unless the file changed.
    loop {
        match scan(open()?, name, file, spec, pass)? {
            Scan::Drawn(svg, what) => return Ok((svg, what)),
            Scan::Again(next)
                if next.prune != pass.prune || next.range.is_some() != pass.range.is_some() =>
            {
                pass = next
            }
            Scan::Again(_) => {
                return Err(PlotError::Changed {
                    name: name.to_string(),
                }
                .into())
            }
        }
    }
}

/// How one reading of the input counts.
#[derive(Clone, Copy, Debug)]
struct Pass {
    /// Whether a game's key is forgotten once a later game starts (the
    /// file is read again, remembering every key, when a game comes back).
    prune: bool,
    /// The least and greatest value of a histogram, known from a first
    /// reading: values are counted into bins, not one by one.
    range: Option<(f64, f64)>,
    /// Whether the input can be read again.
    rereadable: bool,
    limits: Limits,
}

/// What a reading gave: the chart and what it shows, or the need of a
/// second reading.
enum Scan {
    Drawn(String, String),
    Again(Pass),
}

/// A CSV input read row by row, and the name its errors give.
struct CsvRows<'n, R: Read> {
    r: csv::Reader<CsvGuard<R>>,
    name: &'n str,
}

impl<'n, R: Read> CsvRows<'n, R> {
    /// Opens `input` (at most `limit` bytes) and reads its header, which
    /// must name a column.
    fn open(input: R, limit: u64, name: &'n str) -> Result<(Self, Vec<String>), PlotError> {
        let mut rows = CsvRows {
            r: csv::ReaderBuilder::new()
                .has_headers(true)
                .from_reader(CsvGuard::new(input, limit)),
            name,
        };
        let header: Vec<String> = match rows.r.headers() {
            Ok(h) => h.iter().map(str::to_string).collect(),
            Err(e) => return Err(rows.failed(e, true)),
        };
        if header.iter().all(String::is_empty) {
            return Err(PlotError::Empty {
                name: name.to_string(),
            });
        }
        Ok((rows, header))
    }

    /// Reads the next row into `rec`: false after the last.
    fn next(&mut self, rec: &mut csv::StringRecord) -> Result<bool, PlotError> {
        self.r.read_record(rec).map_err(|e| self.failed(e, false))
    }

    /// After the last row: a quote left open is an error.
    fn end(&self) -> Result<(), PlotError> {
        match self.r.get_ref().open_quote() {
            Some(line) => Err(PlotError::OpenQuote {
                name: self.name.to_string(),
                line,
            }),
            None => Ok(()),
        }
    }

    fn failed(&self, source: csv::Error, header: bool) -> PlotError {
        let line = if header {
            None
        } else {
            source.position().map(|p| p.line())
        };
        PlotError::Csv {
            name: self.name.to_string(),
            header,
            line,
            source,
            guard: self.r.get_ref().failure.clone(),
        }
    }
}

/// Reads the input once, as [`draw`] says.
fn scan(
    input: impl Read,
    name: &str,
    file: &str,
    spec: &Spec,
    pass: Pass,
) -> Result<Scan, PlotError> {
    let (mut rows, header) = CsvRows::open(input, u64::MAX, name)?;
    // The first error of the chart (a column, a cell) is told only once
    // the whole input is read: text that is not CSV, further on, comes
    // first.
    let mut chart = Chart::new(&header, spec, file, pass);
    let mut rec = csv::StringRecord::new();
    let mut row = 1;
    while rows.next(&mut rec)? {
        row += 1;
        chart.add(&rec, row);
    }
    rows.end()?;
    chart.finish()
}

/// A chart being read: the columns it uses, what it keeps of the rows
/// read so far, and its first error.
struct Chart<'s> {
    spec: &'s Spec,
    file: String,
    /// The columns of x, of the series, and of the filters.
    xi: usize,
    gi: Option<usize>,
    filters: Vec<(usize, &'s Filter)>,
    /// Rows that passed the filters.
    selected: u64,
    body: Body,
    /// The first error: nothing more is kept once it is set.
    error: Option<PlotError>,
    limits: Limits,
}

enum Body {
    /// Bar and line charts: the columns of y and of the interval, or why
    /// they are not found (told at the first row drawn: "no rows" comes
    /// first).
    Xy {
        cols: Result<YColumns, Option<PlotError>>,
        series: Vec<Series>,
        index: HashMap<String, usize>,
        points: usize,
    },
    Hist(Box<Hist>),
}

impl<'s> Chart<'s> {
    fn new(header: &[String], spec: &'s Spec, file: &str, pass: Pass) -> Chart<'s> {
        let col = |c: &str| input::column(header, c, file).map_err(PlotError::Column);
        let cols = (|| {
            let xi = col(&spec.x)?;
            let gi = match &spec.group {
                Some(g) => Some(col(g)?),
                None => None,
            };
            let mut filters = Vec::new();
            for f in &spec.filter {
                filters.push((col(&f.col)?, f));
            }
            Ok((xi, gi, filters))
        })();
        let body = match spec.kind {
            Kind::Hist => Body::Hist(Box::new(Hist::new(header, pass))),
            _ => Body::Xy {
                cols: y_columns(spec, &col).map_err(Some),
                series: Vec::new(),
                index: HashMap::new(),
                points: 0,
            },
        };
        let (xi, gi, filters, error) = match cols {
            Ok((xi, gi, filters)) => (xi, gi, filters, None),
            Err(e) => (0, None, Vec::new(), Some(e)),
        };
        Chart {
            spec,
            file: file.to_string(),
            xi,
            gi,
            filters,
            selected: 0,
            body,
            error,
            limits: pass.limits,
        }
    }

    /// Takes the record on row `row` (the header is row 1).
    fn add(&mut self, rec: &csv::StringRecord, row: usize) {
        if self.error.is_some()
            || !self
                .filters
                .iter()
                .all(|(i, f)| rec.get(*i).is_some_and(|c| f.matches(c)))
        {
            return;
        }
        self.selected += 1;
        if let Err(e) = self.keep(rec, row) {
            self.error = Some(e);
        }
    }

    fn keep(&mut self, rec: &csv::StringRecord, row: usize) -> Result<(), PlotError> {
        let spec = self.spec;
        let x = &rec[self.xi];
        let g = self.gi.map_or("", |g| &rec[g]);
        match &mut self.body {
            Body::Hist(h) => h.add(rec, x, g, num(x, &spec.x, row)?, spec),
            Body::Xy {
                cols,
                series,
                index,
                points,
            } => {
                if let Some(e) = cols.as_mut().err().and_then(Option::take) {
                    return Err(e);
                }
                let Ok((yi, iv_cols)) = *cols else {
                    return Ok(());
                };
                let y = spec.y.as_deref().unwrap_or_default();
                let yv = num(&rec[yi], y, row)?;
                let iv = match iv_cols {
                    Some((l, h)) => Some((
                        num(&rec[l], spec.lo.as_deref().unwrap_or(""), row)?,
                        num(&rec[h], spec.hi.as_deref().unwrap_or(""), row)?,
                    )),
                    None => None,
                };
                let dup = index.get(g).and_then(|&i| series[i].seen.get(x));
                if let Some(first) = dup {
                    return Err(PlotError::Duplicate(Box::new(DuplicatePoint {
                        file: self.file.clone(),
                        row,
                        x: input::clip(x),
                        series: input::clip(g),
                        first: *first,
                        bar: spec.kind == Kind::Bar,
                        grouped: self.gi.is_some(),
                        x_col: spec.x.clone(),
                        group_col: spec.group.clone(),
                        y_col: y.to_string(),
                    })));
                }
                if *points == self.limits.points {
                    return Err(PlotError::Points {
                        limit: self.limits.points,
                        file: self.file.clone(),
                        row,
                        bar: spec.kind == Kind::Bar,
                        x_col: spec.x.clone(),
                        group_col: spec.group.clone(),
                        y_col: y.to_string(),
                    });
                }
                *points += 1;
                let (i, new) = place(index, &g.to_string());
                if new {
                    series.push(Series {
                        name: g.to_string(),
                        points: Vec::new(),
                        seen: HashMap::new(),
                    });
                }
                let s = &mut series[i];
                s.seen.insert(x.to_string(), row);
                s.points.push((x.to_string(), yv, iv));
                Ok(())
            }
        }
    }
}

/// The columns of y and of the interval (lo, hi) of a bar or line chart.
type YColumns = (usize, Option<(usize, usize)>);

/// The columns of y and of the interval of a bar or line chart.
fn y_columns(
    spec: &Spec,
    col: &impl Fn(&str) -> Result<usize, PlotError>,
) -> Result<YColumns, PlotError> {
    let y = spec.y.as_ref().ok_or(PlotError::NoY)?;
    let yi = col(y)?;
    let lo = match &spec.lo {
        Some(c) => Some(col(c)?),
        None => None,
    };
    let hi = match &spec.hi {
        Some(c) => Some(col(c)?),
        None => None,
    };
    Ok((yi, lo.zip(hi)))
}

impl Chart<'_> {
    /// The chart once every row is read, and what it shows; or the need
    /// of a second reading.
    fn finish(self) -> Result<Scan, PlotError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let spec = self.spec;
        let file = &self.file;
        if self.selected == 0 {
            return Err(PlotError::NoRows { file: file.clone() });
        }
        let (svg, once) = match self.body {
            Body::Xy { series, .. } => (xy_chart(spec, &series), None),
            Body::Hist(h) => match h.finish(spec, self.selected) {
                Ok(drawn) => drawn,
                Err(pass) => return Ok(Scan::Again(pass)),
            },
        };
        let kind = match spec.kind {
            Kind::Bar => "bar chart",
            Kind::Line => "line chart",
            Kind::Hist => "histogram",
        };
        let what = match (&spec.kind, &spec.y) {
            (Kind::Hist, _) | (_, None) => format!("`{}`", spec.x),
            (_, Some(y)) => format!("`{y}` by `{}`", spec.x),
        };
        let group = spec
            .group
            .as_ref()
            .map_or(String::new(), |g| format!(", one series per `{g}`"));
        let counted = match once {
            Some(kept) => format!(
                "{kept} rows, counted once per game: `{}` is the same on both seats' rows",
                spec.x
            ),
            None => format!("{} rows", self.selected),
        };
        Ok(Scan::Drawn(
            svg,
            format!("a {kind} of {what}{group} from {file} ({counted})"),
        ))
    }
}

/// The rows of one series of a histogram: how many, and how many hold
/// each value (by its bits), or, once the range is known, fall in each
/// bin (by its index).
#[derive(Default)]
struct Group {
    n: u64,
    counts: HashMap<u64, u64>,
}

/// Series by name.
type Counts = BTreeMap<String, Group>;

/// Counts one row of series `g` under `key`; the number of new entries
/// (series and keys) it made.
fn count(counts: &mut Counts, g: &str, key: u64) -> usize {
    let mut new = 0;
    let group = match counts.get_mut(g) {
        Some(group) => group,
        None => {
            new += 1;
            counts.entry(g.to_string()).or_default()
        }
    };
    group.n += 1;
    let c = group.counts.entry(key).or_insert_with(|| {
        new += 1;
        0
    });
    *c += 1;
    new
}

/// A histogram being read.
struct Hist {
    pass: Pass,
    /// Every row drawn.
    all: Counts,
    /// The rows of a file of one row per seat of a game, kept once per
    /// game, while every game's rows agree on x and the series.
    once: Option<Once>,
    lo: f64,
    hi: f64,
    /// Entries of the counts, to stop at [`MAX_VALUES`].
    entries: usize,
    /// Whether [`MAX_VALUES`] was passed: only the range is kept.
    over: bool,
}

impl Hist {
    fn new(header: &[String], pass: Pass) -> Hist {
        Hist {
            pass,
            all: Counts::new(),
            once: Once::new(header, pass.prune),
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            entries: 0,
            over: false,
        }
    }

    fn add(
        &mut self,
        rec: &csv::StringRecord,
        x: &str,
        g: &str,
        v: f64,
        spec: &Spec,
    ) -> Result<(), PlotError> {
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
        let first = match self.once.as_mut().map(|o| o.see(rec, x, g)) {
            Some(Seen::First) => true,
            Some(Seen::Again) | None => false,
            Some(Seen::Differs) => {
                self.once = None;
                false
            }
        };
        if self.over {
            return Ok(());
        }
        let key = match self.pass.range {
            Some((lo, hi)) => {
                let bins = spec.bins.max(1);
                bin(v, lo, bin_width(lo, hi, bins), bins) as u64
            }
            None => v.to_bits(),
        };
        self.entries += count(&mut self.all, g, key);
        if let Some(o) = self.once.as_mut().filter(|_| first) {
            o.rows += 1;
            self.entries += count(&mut o.kept, g, key);
        }
        if self.entries > self.pass.limits.values && self.pass.range.is_none() {
            if !self.pass.rereadable {
                return Err(PlotError::Values {
                    limit: self.pass.limits.values,
                    x: spec.x.clone(),
                });
            }
            self.over = true;
            self.all = Counts::new();
            if let Some(o) = self.once.as_mut() {
                o.kept = Counts::new();
            }
        }
        Ok(())
    }

    /// The SVG, and the rows counted when counted once per game; or the
    /// second reading to make.
    fn finish(self, spec: &Spec, selected: u64) -> Result<(String, Option<u64>), Pass> {
        let broken = self.once.as_ref().is_some_and(|o| o.broken);
        // A second reading that finds another range: the file changed.
        let changed = self.pass.range.is_some_and(|r| r != (self.lo, self.hi));
        if broken || self.over || changed {
            return Err(Pass {
                prune: self.pass.prune && !broken,
                range: (self.over || changed)
                    .then_some((self.lo, self.hi))
                    .or(self.pass.range),
                rereadable: self.pass.rereadable,
                limits: self.pass.limits,
            });
        }
        let (lo, hi) = self.pass.range.unwrap_or((self.lo, self.hi));
        let (counts, once) = match self.once {
            Some(o) if o.rows < selected => (o.kept, Some(o.rows)),
            _ => (self.all, None),
        };
        let bins = spec.bins.max(1);
        let width = bin_width(lo, hi, bins);
        let groups: Vec<(String, u64, Vec<f64>)> = counts
            .into_iter()
            .map(|(name, group)| {
                let mut c = vec![0.0; bins];
                for (key, k) in group.counts {
                    let i = match self.pass.range {
                        Some(_) => key as usize,
                        None => bin(f64::from_bits(key), lo, width, bins),
                    };
                    c[i] += k as f64;
                }
                (name, group.n, c)
            })
            .collect();
        Ok((histogram(spec, lo, width, &groups), once))
    }
}

/// The width of each of `bins` bins from `lo` to `hi`.
fn bin_width(lo: f64, hi: f64, bins: usize) -> f64 {
    if hi > lo {
        (hi - lo) / bins as f64
    } else {
        1.0
    }
}

/// The bin of `x`.
fn bin(x: f64, lo: f64, width: f64, bins: usize) -> usize {
    (((x - lo) / width) as usize).min(bins - 1)
}

/// How a row stands to the rows of its game read before it.
enum Seen {
    /// The game's first row.
    First,
    /// A later row with the same x and series (or, once the games were
    /// found out of order, any row not against its game's last).
    Again,
    /// A row whose x or series differs from its game's.
    Differs,
}

/// The rows of a file with one row per seat of a game (`hands.csv`,
/// `matches.csv`: columns `seat` and `game`) kept once per game (and hand),
/// as long as the histogram's column and series hold the same value on
/// every row of each game: a column of the game itself (`hands`, `capped`,
/// `lead_changes`), which would otherwise count every game twice. Any
/// other file or column (`total`, `raw`: one value per seat) counts every
/// row.
///
/// Pruning, only the last game's key is remembered: a game whose key is
/// not above the last one's (in a total order: whole numbers by value
/// first, then texts) may have come before, so the count is given up
/// (`broken`) and the file read again remembering every key.
struct Once {
    /// The columns of the key: `series`, `game`, `hand` when there.
    keys: Vec<usize>,
    prune: bool,
    /// Every game's key, packed ([`pack`]), and the place of its x and
    /// series in `values` (without pruning).
    seen: HashMap<Box<[u8]>, u32>,
    /// The distinct pairs of x and series of `seen`, and their places.
    values: Vec<(String, String)>,
    value_at: HashMap<(String, String), u32>,
    /// The last game's key, x and series.
    last: Option<(Vec<String>, String, String)>,
    broken: bool,
    /// The first row of each game.
    kept: Counts,
    rows: u64,
}

impl Once {
    fn new(header: &[String], prune: bool) -> Option<Once> {
        let find = |c: &str| header.iter().position(|h| h == c);
        find("seat")?;
        let game = find("game")?;
        let keys: Vec<usize> = [find("series"), Some(game), find("hand")]
            .into_iter()
            .flatten()
            .collect();
        Some(Once {
            keys,
            prune,
            seen: HashMap::new(),
            values: Vec::new(),
            value_at: HashMap::new(),
            last: None,
            broken: false,
            kept: Counts::new(),
            rows: 0,
        })
    }

    fn see(&mut self, rec: &csv::StringRecord, x: &str, g: &str) -> Seen {
        let same = |lx: &str, lg: &str| {
            if lx == x && lg == g {
                Seen::Again
            } else {
                Seen::Differs
            }
        };
        if let Some((k, lx, lg)) = &self.last {
            if self.keys.iter().zip(k).all(|(&i, c)| &rec[i] == c) {
                return same(lx, lg);
            }
        }
        let key: Vec<String> = self.keys.iter().map(|&i| rec[i].to_string()).collect();
        let seen = if self.prune {
            let later = self
                .last
                .as_ref()
                .is_none_or(|(k, _, _)| key_order(&key, k) == std::cmp::Ordering::Greater);
            if !later && !self.broken {
                self.broken = true;
                self.kept = Counts::new();
            }
            if self.broken {
                Seen::Again
            } else {
                Seen::First
            }
        } else {
            let packed = pack(&key);
            match self.seen.get(&packed) {
                Some(&at) => {
                    let (lx, lg) = &self.values[at as usize];
                    match same(lx, lg) {
                        Seen::Again => Seen::Again,
                        differs => return differs,
                    }
                }
                None => {
                    let value = (x.to_string(), g.to_string());
                    let at = match self.value_at.get(&value) {
                        Some(&at) => at,
                        None => {
                            let at = self.values.len() as u32;
                            self.values.push(value.clone());
                            self.value_at.insert(value, at);
                            at
                        }
                    };
                    self.seen.insert(packed, at);
                    Seen::First
                }
            }
        };
        self.last = Some((key, x.to_string(), g.to_string()));
        seen
    }
}

/// A key as one string of bytes: each cell's length (8 bytes) then its
/// text, so that two keys are equal exactly when their cells are.
fn pack(key: &[String]) -> Box<[u8]> {
    let mut b = Vec::with_capacity(key.iter().map(|c| c.len() + 8).sum());
    for c in key {
        b.extend_from_slice(&(c.len() as u64).to_le_bytes());
        b.extend_from_slice(c.as_bytes());
    }
    b.into_boxed_slice()
}

/// A total order of keys, cell by cell: whole numbers by value (then by
/// text: `01` after `1`), before other texts, by text.
fn key_order(a: &[String], b: &[String]) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Greater, Less};
    let cell = |a: &str, b: &str| match (a.parse::<i128>(), b.parse::<i128>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => Less,
        (Err(_), Ok(_)) => Greater,
        _ => a.cmp(b),
    };
    a.iter()
        .zip(b)
        .map(|(a, b)| cell(a, b))
        .find(|o| o.is_ne())
        .unwrap_or(a.len().cmp(&b.len()))
}

fn num(v: &str, col: &str, row: usize) -> Result<f64, PlotError> {
    input::number(v).map_err(|source| PlotError::Number {
        row,
        column: col.to_string(),
        source,
    })
}

/// One point: x label (or value), y, and an optional interval.
type Point = (String, f64, Option<(f64, f64)>);

/// One series: its name and points.
struct Series {
    name: String,
    points: Vec<Point>,
    /// The row of each x, to refuse a second point at the same x.
    seen: HashMap<String, usize>,
}

/// The place of `key` in a list indexed by `index` (in order of first
/// appearance), and whether it is new (then it takes the next place): one
/// hash look-up, whatever the number of keys.
fn place<K: std::hash::Hash + Eq + Clone>(index: &mut HashMap<K, usize>, key: &K) -> (usize, bool) {
    if let Some(&i) = index.get(key) {
        return (i, false);
    }
    let i = index.len();
    index.insert(key.clone(), i);
    (i, true)
}

const W: f64 = 720.0;
const H: f64 = 420.0;
const L: f64 = 70.0;
const R: f64 = 160.0;
const T: f64 = 40.0;
const B: f64 = 60.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" step for about `n` ticks over `span`.
fn nice_step(span: f64, n: f64) -> f64 {
    if span <= 0.0 || !span.is_finite() {
        return 1.0;
    }
    let raw = span / n;
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f < 1.5 {
        1.0
    } else if f < 3.0 {
        2.0
    } else if f < 7.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

fn fmt_tick(v: f64) -> String {
    if v.abs() >= 1000.0 || v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn header(out: &mut String, title: &str) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(
        out,
        r#"<rect width="{W}" height="{H}" fill="white"/><text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
        (L + W - R) / 2.0,
        esc(title)
    );
}

fn y_axis(out: &mut String, lo: f64, hi: f64, label: &str) -> impl Fn(f64) -> f64 {
    let step = nice_step(hi - lo, 6.0);
    let lo = (lo / step).floor() * step;
    let hi = (hi / step).ceil() * step;
    // A step lost in the magnitude of lo (1e100 + 1 = 1e100) grows to show.
    let step = if hi <= lo {
        step.max(lo.abs() * 1e-9)
    } else {
        step
    };
    let hi = if hi <= lo { lo + step } else { hi };
    let ph = H - T - B;
    let map = move |v: f64| T + ph * (1.0 - (v - lo) / (hi - lo));
    let mut v = lo;
    let mut ticks = 0;
    // At most 100 ticks: a step lost in the magnitude of lo would loop.
    while v <= hi + step * 1e-6 && ticks < 100 {
        ticks += 1;
        let y = map(v);
        let _ = write!(
            out,
            r##"<line x1="{L}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            W - R,
            L - 6.0,
            y + 4.0,
            fmt_tick(v)
        );
        if v + step == v {
            break;
        }
        v += step;
    }
    let _ = write!(
        out,
        r#"<text transform="translate(16,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (T + H - B) / 2.0,
        esc(label)
    );
    map
}

fn legend(out: &mut String, names: &[&str]) {
    if names.len() <= 1 && names.first().is_none_or(|n| n.is_empty()) {
        return;
    }
    for (i, n) in names.iter().enumerate() {
        let y = T + 10.0 + 18.0 * i as f64;
        let _ = write!(
            out,
            r#"<rect x="{}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{}" y="{:.1}">{}</text>"#,
            W - R + 14.0,
            y - 10.0,
            COLORS[i % COLORS.len()],
            W - R + 32.0,
            y,
            esc(n)
        );
    }
}

fn xy_chart(spec: &Spec, series: &[Series]) -> String {
    let mut out = String::new();
    header(&mut out, &spec.title);
    // Categories in order of first appearance across series.
    let mut cats: Vec<String> = Vec::new();
    let mut cat_index: HashMap<&str, usize> = HashMap::new();
    for s in series {
        for (x, _, _) in &s.points {
            if !cat_index.contains_key(x.as_str()) {
                cat_index.insert(x, cats.len());
                cats.push(x.clone());
            }
        }
    }
    let numeric = spec.kind == Kind::Line && cats.iter().all(|c| input::number(c).is_ok());
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in series {
        for (_, y, iv) in &s.points {
            lo = lo.min(*y);
            hi = hi.max(*y);
            if let Some((a, b)) = iv {
                lo = lo.min(*a);
                hi = hi.max(*b);
            }
        }
    }
    if spec.kind == Kind::Bar {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    let ymap = y_axis(&mut out, lo, hi, spec.y.as_deref().unwrap_or_default());
    let pw = W - L - R;
    let (xmin, xmax) = if numeric {
        let v: Vec<f64> = cats.iter().filter_map(|c| c.parse().ok()).collect();
        let a = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let b = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        (a, if b > a { b } else { a + 1.0 })
    } else {
        (0.0, 1.0)
    };
    let slot = pw / cats.len().max(1) as f64;
    let xpos = |x: &str| -> f64 {
        if numeric {
            let v: f64 = x.parse().unwrap_or(xmin);
            L + 20.0 + (pw - 40.0) * (v - xmin) / (xmax - xmin)
        } else {
            let i = cat_index.get(x).copied().unwrap_or(0);
            L + slot * (i as f64 + 0.5)
        }
    };
    // x tick labels
    for c in &cats {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            xpos(c),
            H - B + 18.0,
            esc(c)
        );
    }
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (L + W - R) / 2.0,
        H - 14.0,
        esc(&spec.x)
    );
    let zero = ymap(0.0_f64.clamp(lo.min(0.0), hi.max(0.0)));
    let ns = series.len().max(1) as f64;
    for (si, s) in series.iter().enumerate() {
        let color = COLORS[si % COLORS.len()];
        match spec.kind {
            Kind::Bar => {
                let bw = slot * 0.8 / ns;
                for (x, y, iv) in &s.points {
                    let cx = xpos(x) - slot * 0.4 + bw * (si as f64 + 0.5);
                    let (y0, y1) = (ymap(*y).min(zero), ymap(*y).max(zero));
                    let _ = write!(
                        out,
                        r#"<rect x="{:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="{color}" fill-opacity="0.8"><title>{} {}: {}</title></rect>"#,
                        cx - bw / 2.0,
                        bw * 0.9,
                        (y1 - y0).max(0.5),
                        esc(&s.name),
                        esc(x),
                        fmt_tick(*y)
                    );
                    if let Some((a, b)) = iv {
                        error_bar(&mut out, cx, ymap(*a), ymap(*b));
                    }
                }
            }
            _ => {
                let mut pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .map(|(x, y, _)| (xpos(x), ymap(*y)))
                    .collect();
                if numeric {
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
                let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
                let _ = write!(
                    out,
                    r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
                    path.join(" ")
                );
                for (x, y, iv) in &s.points {
                    let cx = xpos(x);
                    let _ = write!(
                        out,
                        r#"<circle cx="{cx:.1}" cy="{:.1}" r="3.5" fill="{color}"><title>{} {}: {}</title></circle>"#,
                        ymap(*y),
                        esc(&s.name),
                        esc(x),
                        fmt_tick(*y)
                    );
                    if let Some((a, b)) = iv {
                        error_bar(&mut out, cx, ymap(*a), ymap(*b));
                    }
                }
            }
        }
    }
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    legend(&mut out, &names);
    out.push_str("</svg>\n");
    out
}

fn error_bar(out: &mut String, x: f64, ya: f64, yb: f64) {
    let _ = write!(
        out,
        r##"<line x1="{x:.1}" x2="{x:.1}" y1="{ya:.1}" y2="{yb:.1}" stroke="#222"/><line x1="{:.1}" x2="{:.1}" y1="{ya:.1}" y2="{ya:.1}" stroke="#222"/><line x1="{:.1}" x2="{:.1}" y1="{yb:.1}" y2="{yb:.1}" stroke="#222"/>"##,
        x - 4.0,
        x + 4.0,
        x - 4.0,
        x + 4.0
    );
}

/// The histogram of `groups` (each series' name, rows, and count in each
/// bin), on bins of `width` from `lo`.
fn histogram(spec: &Spec, lo: f64, width: f64, groups: &[(String, u64, Vec<f64>)]) -> String {
    let mut out = String::new();
    header(&mut out, &spec.title);
    let bins = spec.bins.max(1);
    let mut shares: Vec<(String, Vec<f64>)> = Vec::new();
    let mut top: f64 = 0.0;
    for (name, n, c) in groups {
        let mut c = c.clone();
        let n = (*n).max(1) as f64;
        for x in c.iter_mut() {
            *x /= n;
            top = top.max(*x);
        }
        shares.push((name.clone(), c));
    }
    let ymap = y_axis(&mut out, 0.0, top, "share");
    let pw = W - L - R;
    let xmap = |v: f64| L + pw * (v - lo) / (width * bins as f64);
    let step = nice_step(width * bins as f64, 8.0);
    let mut t = (lo / step).ceil() * step;
    let mut ticks = 0;
    while t <= lo + width * bins as f64 + 1e-9 && ticks < 100 {
        ticks += 1;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            xmap(t),
            H - B + 18.0,
            fmt_tick(t)
        );
        if t + step == t {
            break;
        }
        t += step;
    }
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (L + W - R) / 2.0,
        H - 14.0,
        esc(&spec.x)
    );
    for (si, (_, c)) in shares.iter().enumerate() {
        let color = COLORS[si % COLORS.len()];
        let mut pts = format!("{:.1},{:.1}", xmap(lo), ymap(0.0));
        for (i, s) in c.iter().enumerate() {
            let x0 = xmap(lo + width * i as f64);
            let x1 = xmap(lo + width * (i + 1) as f64);
            let y = ymap(*s);
            let _ = write!(pts, " {x0:.1},{y:.1} {x1:.1},{y:.1}");
        }
        let _ = write!(
            pts,
            " {:.1},{:.1}",
            xmap(lo + width * bins as f64),
            ymap(0.0)
        );
        let _ = write!(
            out,
            r#"<polyline points="{pts}" fill="{color}" fill-opacity="0.15" stroke="{color}" stroke-width="2"/>"#
        );
    }
    let names: Vec<String> = groups
        .iter()
        .map(|(k, n, _)| format!("{k} (n={n})"))
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    legend(&mut out, &refs);
    out.push_str("</svg>\n");
    out
}

/// The reading of `kanaszta plot` before it streamed: the whole input
/// into a table of text, then the chart. The streamed reading must draw
/// the same SVG, say the same, and refuse with the same message.
#[cfg(test)]
mod reference {
    use super::*;

    /// A table read from CSV: header and rows of text.
    pub struct Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    }

    impl Table {
        /// Reads CSV text.
        pub fn parse(text: &str, name: &str) -> Result<Table, PlotError> {
            Table::read(text.as_bytes(), name)
        }

        /// Reads CSV of at most [`input::SUMMARY_LIMIT`] bytes: a header line,
        /// then rows of its width, every quote closed.
        pub fn read(input: impl std::io::Read, name: &str) -> Result<Table, PlotError> {
            let (mut reader, header) = CsvRows::open(input, input::SUMMARY_LIMIT, name)?;
            let mut rows = Vec::new();
            let mut rec = csv::StringRecord::new();
            while reader.next(&mut rec)? {
                rows.push(rec.iter().map(str::to_string).collect());
            }
            reader.end()?;
            Ok(Table { header, rows })
        }

        fn col(&self, name: &str, file: &str) -> Result<usize, PlotError> {
            input::column(&self.header, name, file).map_err(PlotError::Column)
        }
    }

    /// The rows of a file with one row per seat of a game (`hands.csv`,
    /// `matches.csv`: columns `seat` and `game`) kept once per game (and hand),
    /// when the histogram's column and group hold the same value on every row
    /// of each game: a column of the game itself (`hands`, `capped`,
    /// `lead_changes`), which would otherwise count every game twice. `None`
    /// for any other file or column (`total`, `raw`: one value per seat).
    fn once_per_game<'a>(
        table: &Table,
        rows: &[(usize, &'a Vec<String>)],
        xi: usize,
        gi: Option<usize>,
    ) -> Option<Vec<(usize, &'a Vec<String>)>> {
        let find = |c: &str| table.header.iter().position(|h| h == c);
        find("seat")?;
        let game = find("game")?;
        let keys: Vec<usize> = [find("series"), Some(game), find("hand")]
            .into_iter()
            .flatten()
            .collect();
        let mut first: HashMap<Vec<&str>, (&str, Option<&str>)> = HashMap::new();
        let mut kept = Vec::new();
        for &(line, r) in rows {
            let key: Vec<&str> = keys.iter().map(|&k| r[k].as_str()).collect();
            let value = (r[xi].as_str(), gi.map(|g| r[g].as_str()));
            match first.get(&key) {
                Some(v) if *v != value => return None,
                Some(_) => {}
                None => {
                    first.insert(key, value);
                    kept.push((line, r));
                }
            }
        }
        (kept.len() < rows.len()).then_some(kept)
    }

    /// The rows of `table` that `spec` draws, after its filters: each with
    /// its line in the file (the header is line 1), and the columns of x and
    /// of the series.
    struct Selected<'t> {
        xi: usize,
        gi: Option<usize>,
        rows: Vec<(usize, &'t Vec<String>)>,
    }

    fn select<'t>(table: &'t Table, spec: &Spec, file: &str) -> Result<Selected<'t>, PlotError> {
        let xi = table.col(&spec.x, file)?;
        let gi = match &spec.group {
            Some(g) => Some(table.col(g, file)?),
            None => None,
        };
        let mut filters = Vec::new();
        for f in &spec.filter {
            filters.push((table.col(&f.col, file)?, f));
        }
        let rows: Vec<(usize, &Vec<String>)> = table
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                filters
                    .iter()
                    .all(|(i, f)| r.get(*i).is_some_and(|c| f.matches(c)))
            })
            .map(|(i, r)| (i + 2, r))
            .collect();
        Ok(Selected { xi, gi, rows })
    }

    /// What `kanaszta plot` says it drew: the chart's kind and columns, the
    /// rows behind it, and whether per-seat rows were counted once per game.
    pub fn describe(table: &Table, spec: &Spec, file: &str) -> Result<String, PlotError> {
        let Selected { xi, gi, rows } = select(table, spec, file)?;
        let kind = match spec.kind {
            Kind::Bar => "bar chart",
            Kind::Line => "line chart",
            Kind::Hist => "histogram",
        };
        let what = match (&spec.kind, &spec.y) {
            (Kind::Hist, _) | (_, None) => format!("`{}`", spec.x),
            (_, Some(y)) => format!("`{y}` by `{}`", spec.x),
        };
        let group = spec
            .group
            .as_ref()
            .map_or(String::new(), |g| format!(", one series per `{g}`"));
        let counted = match (&spec.kind, once_per_game(table, &rows, xi, gi)) {
            (Kind::Hist, Some(kept)) => format!(
                "{} rows, counted once per game: `{}` is the same on both seats' rows",
                kept.len(),
                spec.x
            ),
            _ => format!("{} rows", rows.len()),
        };
        Ok(format!("a {kind} of {what}{group} from {file} ({counted})"))
    }

    /// Draws the chart of `spec` from `table` as SVG text.
    pub fn render(table: &Table, spec: &Spec, file: &str) -> Result<String, PlotError> {
        let Selected { xi, gi, rows } = select(table, spec, file)?;
        if rows.is_empty() {
            return Err(PlotError::NoRows {
                file: file.to_string(),
            });
        }
        let group_of = |r: &Vec<String>| gi.map_or(String::new(), |g| r[g].clone());
        if spec.kind == Kind::Hist {
            let rows = once_per_game(table, &rows, xi, gi).unwrap_or(rows);
            let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
            for (line, r) in &rows {
                groups
                    .entry(group_of(r))
                    .or_default()
                    .push(num(&r[xi], &spec.x, *line)?);
            }
            return Ok(histogram(spec, &groups));
        }
        let y = spec.y.as_ref().ok_or(PlotError::NoY)?;
        let yi = table.col(y, file)?;
        let lo = match &spec.lo {
            Some(c) => Some(table.col(c, file)?),
            None => None,
        };
        let hi = match &spec.hi {
            Some(c) => Some(table.col(c, file)?),
            None => None,
        };
        let mut series: Vec<Series> = Vec::new();
        // Each series' place by name: one look-up a row, not a scan of the
        // series (200,000 groups took minutes).
        let mut index: HashMap<String, usize> = HashMap::new();
        for (line, r) in &rows {
            let g = group_of(r);
            let yv = num(&r[yi], y, *line)?;
            let iv = match (lo, hi) {
                (Some(l), Some(h)) => Some((
                    num(&r[l], spec.lo.as_deref().unwrap_or(""), *line)?,
                    num(&r[h], spec.hi.as_deref().unwrap_or(""), *line)?,
                )),
                _ => None,
            };
            let dup = index.get(&g).and_then(|&i| series[i].seen.get(&r[xi]));
            if let Some(first) = dup {
                return Err(PlotError::Duplicate(Box::new(DuplicatePoint {
                    file: file.to_string(),
                    row: *line,
                    x: input::clip(&r[xi]),
                    series: input::clip(&g),
                    first: *first,
                    bar: spec.kind == Kind::Bar,
                    grouped: gi.is_some(),
                    x_col: spec.x.clone(),
                    group_col: spec.group.clone(),
                    y_col: y.clone(),
                })));
            }
            let (i, new) = place(&mut index, &g);
            if new {
                series.push(Series {
                    name: g,
                    points: Vec::new(),
                    seen: HashMap::new(),
                });
            }
            let s = &mut series[i];
            s.seen.insert(r[xi].clone(), *line);
            s.points.push((r[xi].clone(), yv, iv));
        }
        Ok(xy_chart(spec, &series))
    }

    /// The old whole-table binning: every value kept, bins from the
    /// values' range; the drawing is the chart's own.
    fn histogram(spec: &Spec, groups: &BTreeMap<String, Vec<f64>>) -> String {
        let all = groups.values().flatten();
        let lo = all.clone().cloned().fold(f64::INFINITY, f64::min);
        let hi = all.cloned().fold(f64::NEG_INFINITY, f64::max);
        let bins = spec.bins.max(1);
        let width = if hi > lo {
            (hi - lo) / bins as f64
        } else {
            1.0
        };
        let counted: Vec<(String, u64, Vec<f64>)> = groups
            .iter()
            .map(|(name, v)| {
                let mut c = vec![0.0; bins];
                for x in v {
                    let i = (((x - lo) / width) as usize).min(bins - 1);
                    c[i] += 1.0;
                }
                (name.clone(), v.len() as u64, c)
            })
            .collect();
        super::histogram(spec, lo, width, &counted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chart of `text` read as a file (which can be read again) and as
    /// standard input (which cannot): the same either way.
    fn render(text: &str, spec: &Spec, file: &str) -> Result<String, PlotError> {
        let file_read = draw(
            || Ok::<_, PlotError>(text.as_bytes()),
            true,
            file,
            file,
            spec,
        );
        let stdin_read = draw(
            || Ok::<_, PlotError>(text.as_bytes()),
            false,
            file,
            file,
            spec,
        );
        assert_eq!(
            file_read.as_ref().map_err(ToString::to_string),
            stdin_read.as_ref().map_err(ToString::to_string)
        );
        file_read.map(|(svg, _)| svg)
    }

    fn spec(kind: Kind, x: &str, y: Option<&str>) -> Spec {
        Spec {
            kind,
            x: x.into(),
            y: y.map(Into::into),
            lo: None,
            hi: None,
            group: None,
            filter: Vec::new(),
            title: "t".into(),
            bins: 10,
        }
    }

    #[test]
    fn bar_chart_has_one_bar_per_row_and_error_bars() {
        let t = "agent,rate,lo,hi\nrules,0.6,0.55,0.65\ngreedy,0.4,0.35,0.45\n";
        let mut s = spec(Kind::Bar, "agent", Some("rate"));
        s.lo = Some("lo".into());
        s.hi = Some("hi".into());
        let svg = render(t, &s, "x").unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<rect x=").count(), 2, "{svg}");
        assert!(svg.contains(">rules<") && svg.contains(">greedy<"));
        assert_eq!(svg.matches("stroke=\"#222\"").count(), 6);
    }

    /// Rows find their series by a hash look-up: 20,000 groups met twice
    /// take a few comparisons each, where scanning the series (as before)
    /// took about 300 million.
    #[test]
    fn series_are_found_in_linear_time_by_group_count() {
        use std::cell::Cell;
        use std::hash::{Hash, Hasher};
        thread_local!(static EQ: Cell<u64> = const { Cell::new(0) });
        #[derive(Clone)]
        struct Counted(u64);
        impl PartialEq for Counted {
            fn eq(&self, o: &Counted) -> bool {
                EQ.with(|c| c.set(c.get() + 1));
                self.0 == o.0
            }
        }
        impl Eq for Counted {}
        impl Hash for Counted {
            fn hash<H: Hasher>(&self, h: &mut H) {
                self.0.hash(h)
            }
        }
        let n = 20_000u64;
        let mut index = HashMap::new();
        for round in 0..2 {
            for k in 0..n {
                assert_eq!(place(&mut index, &Counted(k)), (k as usize, round == 0));
            }
        }
        let comparisons = EQ.with(Cell::get);
        assert!(
            comparisons <= 4 * n,
            "{comparisons} comparisons for {n} groups"
        );
    }

    #[test]
    fn line_chart_groups_series_and_filters_rows() {
        let t = "opening,tax,rate\n50,on,0.5\n90,on,0.6\n50,off,0.4\n90,off,0.7\n50,x,9\n";
        let mut s = spec(Kind::Line, "opening", Some("rate"));
        s.group = Some("tax".into());
        s.filter = vec![];
        let svg = render(t, &s, "x").unwrap();
        assert_eq!(svg.matches("<polyline").count(), 3);
        let mut s2 = s.clone();
        s2.filter = vec![Filter::parse("tax=on").unwrap()];
        let svg = render(t, &s2, "x").unwrap();
        assert_eq!(svg.matches("<polyline").count(), 1);
    }

    #[test]
    fn histogram_shares_sum_to_one_per_group() {
        let t = "hands,tax\n3,on\n4,on\n4,on\n10,off\n";
        let mut s = spec(Kind::Hist, "hands", None);
        s.group = Some("tax".into());
        let svg = render(t, &s, "x").unwrap();
        assert!(
            svg.contains("on (n=3)") && svg.contains("off (n=1)"),
            "{svg}"
        );
    }

    #[test]
    fn bad_columns_and_values_are_reported() {
        let t = "a,b\nx,1\ny,z\n";
        let e = render(t, &spec(Kind::Bar, "nope", Some("b")), "f.csv").unwrap_err();
        assert!(
            matches!(&e, PlotError::Column(BadColumn::Missing { column, .. }) if column == "nope"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("no column `nope`") && e.contains("columns: a, b"),
            "{e}"
        );
        let e = render(t, &spec(Kind::Bar, "a", Some("b")), "f.csv").unwrap_err();
        assert!(
            matches!(&e, PlotError::Number { row: 3, column, source: BadNumber::NotANumber(_) } if column == "b"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("row 3") && e.contains("not a number"), "{e}");
        let e = render(t, &spec(Kind::Bar, "a", None), "f.csv").unwrap_err();
        assert!(matches!(e, PlotError::NoY), "{e:?}");
        assert!(e.to_string().contains("--y"), "{e}");
        let e = "pie".parse::<Kind>().unwrap_err();
        assert!(matches!(&e, PlotError::Kind(k) if k == "pie"), "{e:?}");
        assert!(e.to_string().contains("bar, line, hist"));
    }

    /// A small random generator for the cases below.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len() as u64) as usize]
        }
    }

    /// A CSV of the toolkit's shapes: one row per seat of a game (with or
    /// without `series` and `hand`), in order, shuffled, or with a game
    /// met again later; or rows of a summary; cells that agree or not
    /// between seats, repeat or not, and now and then are not numbers.
    fn random_csv(rng: &mut Lcg) -> String {
        let value = |rng: &mut Lcg| match rng.below(40) {
            0 => "x".to_string(),
            1 => "-0".to_string(),
            2..=9 => format!("{}.{}", rng.below(30), rng.below(10)),
            _ => (rng.below(12) as i64 - 3).to_string(),
        };
        let mut out = String::new();
        if rng.below(4) == 0 {
            out.push_str("agent,y,lo,hi,g\n");
            for i in 0..rng.below(12) {
                let y = rng.below(100);
                let _ = writeln!(
                    out,
                    "a{},{y},{},{},{}",
                    rng.below(8 + i),
                    y.saturating_sub(rng.below(5)),
                    y + rng.below(5),
                    rng.pick(&["p", "q"])
                );
            }
            return out;
        }
        let series = rng.below(2) == 0;
        let hand = rng.below(2) == 0;
        let mut cols = vec![];
        if series {
            cols.push("series");
        }
        cols.push("game");
        if hand {
            cols.push("hand");
        }
        cols.extend(["seat", "turns", "raw", "agent", "y", "lo", "hi"]);
        out.push_str(&cols.join(","));
        out.push('\n');
        let seats = 2 + rng.below(2) * rng.below(2);
        let mut rows = Vec::new();
        let differ = rng.below(3) == 0;
        for game in 0..rng.below(60) {
            let s = rng.below(2);
            let turns = value(rng);
            let hands = if hand { 1 + rng.below(3) } else { 1 };
            for h in 0..hands {
                for seat in 0..seats {
                    let mut r = vec![];
                    if series {
                        r.push(s.to_string());
                    }
                    r.push(game.to_string());
                    if hand {
                        r.push(h.to_string());
                    }
                    let t = if differ && rng.below(50) == 0 {
                        value(rng)
                    } else {
                        turns.clone()
                    };
                    let y = rng.below(100);
                    r.extend([
                        seat.to_string(),
                        t,
                        value(rng),
                        rng.pick(&["greedy", "rules", "random"]).to_string(),
                        y.to_string(),
                        y.saturating_sub(3).to_string(),
                        (y + 3).to_string(),
                    ]);
                    rows.push(r.join(","));
                }
            }
        }
        match rng.below(6) {
            0 => {
                for i in (1..rows.len()).rev() {
                    rows.swap(i, rng.below(i as u64 + 1) as usize);
                }
            }
            1 if !rows.is_empty() => {
                let again = rows[rng.below(rows.len() as u64) as usize].clone();
                rows.push(again);
            }
            _ => {}
        }
        for r in rows {
            out.push_str(&r);
            out.push('\n');
        }
        // Now and then text that is not CSV, after the rows.
        match rng.below(20) {
            0 => out.push_str("1,2\n"),
            1 => out.push_str("\"open,1\n"),
            _ => {}
        }
        out
    }

    fn random_spec(rng: &mut Lcg, text: &str) -> Spec {
        let summary = text.starts_with("agent");
        let kind = [Kind::Bar, Kind::Line, Kind::Hist][rng.below(3) as usize].clone();
        let x = match (&kind, summary) {
            (Kind::Hist, true) => rng.pick(&["y", "lo", "agent"]),
            (Kind::Hist, false) => rng.pick(&["turns", "turns", "raw", "y", "game", "agent"]),
            (_, true) => rng.pick(&["agent", "y"]),
            (_, false) => rng.pick(&["game", "turns", "nope"]),
        };
        let mut s = spec(kind, x, Some(rng.pick(&["y", "y", "hi", "agent"])));
        s.bins = 1 + rng.below(25) as usize;
        if rng.below(3) == 0 {
            s.y = None;
        }
        if rng.below(3) == 0 {
            s.lo = Some("lo".into());
            s.hi = Some("hi".into());
        }
        if rng.below(3) == 0 {
            s.group = Some(rng.pick(&["agent", "g", "seat"]).into());
        }
        for _ in 0..rng.below(3) {
            let f = rng.pick(&["seat=0", "y>=20", "agent!=rules", "turns<5", "y<90"]);
            s.filter.push(Filter::parse(f).unwrap());
        }
        s
    }

    fn gzip(text: &str) -> Vec<u8> {
        use std::io::Write as _;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    /// The streamed reading draws what the whole-table reading drew, says
    /// the same and refuses alike, byte for byte: read as a file (with
    /// limits small enough to read some twice), as standard input, and
    /// gzip-compressed.
    #[test]
    fn streamed_charts_match_the_whole_table_reading() {
        let mut rng = Lcg(44);
        let (mut drawn, mut twice) = (0, 0);
        for case in 0..1500 {
            let text = random_csv(&mut rng);
            let spec = random_spec(&mut rng, &text);
            let file = "f.csv";
            let want = reference::Table::parse(&text, file).and_then(|t| {
                Ok((
                    reference::render(&t, &spec, file)?,
                    reference::describe(&t, &spec, file)?,
                ))
            });
            let want = want.map_err(|e| e.to_string());
            let values = 1 + rng.below(40) as usize;
            let small = Limits {
                points: usize::MAX,
                values,
            };
            let mut reads = 0;
            let as_file = draw_within(
                || {
                    reads += 1;
                    Ok::<_, PlotError>(text.as_bytes())
                },
                true,
                file,
                file,
                &spec,
                small,
            );
            twice += usize::from(reads == 2);
            let as_file = as_file.map_err(|e| e.to_string());
            assert_eq!(as_file, want, "case {case}: {spec:?}\n{text}");
            let as_stdin = draw(
                || Ok::<_, PlotError>(text.as_bytes()),
                false,
                file,
                file,
                &spec,
            );
            assert_eq!(as_stdin.map_err(|e| e.to_string()), want, "case {case}");
            if case % 5 == 0 {
                let gz = gzip(&text);
                let open = || {
                    Ok::<_, PlotError>(input::maybe_gzip(std::io::Cursor::new(gz.clone())).unwrap())
                };
                let read = draw_within(open, true, file, file, &spec, small);
                assert_eq!(read.map_err(|e| e.to_string()), want, "case {case} (gzip)");
            }
            drawn += usize::from(want.is_ok());
        }
        // Both paths were walked often: charts drawn, files read twice.
        assert!(
            drawn > 200 && twice > 50,
            "{drawn} drawn, {twice} read twice"
        );
    }

    /// A bar or line chart keeps at most its limit of points, and says
    /// how to plot fewer; a histogram of standard input with more distinct
    /// values than its limit is refused, where a file is read twice.
    #[test]
    fn what_a_chart_keeps_is_bounded() {
        let text = "game,y\n1,5\n2,6\n3,7\n4,8\n5,9\n";
        let s = spec(Kind::Line, "game", Some("y"));
        let within = |points, values| Limits { points, values };
        let got = |limits, rereadable| {
            draw_within(
                || Ok::<_, PlotError>(text.as_bytes()),
                rereadable,
                "h.csv",
                "h.csv",
                &s,
                limits,
            )
        };
        let e = got(within(4, 100), true).unwrap_err();
        assert!(
            matches!(
                e,
                PlotError::Points {
                    row: 6,
                    limit: 4,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("row 6: more than 4 points")
                && e.contains("kanaszta aggregate h.csv --by game --cols y"),
            "{e}"
        );
        assert_eq!(
            got(within(5, 100), true).unwrap(),
            render(text, &s, "h.csv")
                .map(|svg| (svg, got(within(5, 100), false).unwrap().1))
                .unwrap()
        );
        let h = spec(Kind::Hist, "y", None);
        let hist = |limits, rereadable| {
            draw_within(
                || Ok::<_, PlotError>(text.as_bytes()),
                rereadable,
                "-",
                "-",
                &h,
                limits,
            )
        };
        let e = hist(within(100, 3), false).unwrap_err();
        assert!(matches!(e, PlotError::Values { limit: 3, .. }), "{e:?}");
        assert!(e.to_string().contains("give the file's name"), "{e}");
        assert_eq!(
            hist(within(100, 3), true).unwrap(),
            hist(within(100, 100), false).unwrap()
        );
        // A file that changes between its two readings is refused.
        let mut texts = [text, "game,y\n1,5\n2,6\n3,7\n4,8\n5,100\n"].into_iter();
        let e = draw_within(
            || Ok::<_, PlotError>(texts.next().unwrap().as_bytes()),
            true,
            "h.csv",
            "h.csv",
            &h,
            within(100, 3),
        )
        .unwrap_err();
        assert!(matches!(e, PlotError::Changed { .. }), "{e:?}");
    }
}
