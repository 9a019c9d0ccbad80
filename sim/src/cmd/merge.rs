//! `kanaszta merge`: shards back into one run. Rows are merged in
//! (series, game) order, streaming, and re-written with the writer of
//! `play`, so the merged `hands.csv` is byte-identical to a single run's;
//! the summaries are recomputed from the rows.

use crate::classic::run::{ClassicFiles, ClassicManifest, ClassicRun, StoredClassicRules};
use crate::classic::{
    ClassicErrorRow, ClassicHandFacts, ClassicHandRow, ClassicMatchFacts, ClassicMatchRow,
    ClassicStats,
};
use crate::error::{quiet_pipe, CliError};
use crate::input::CsvGuard;
use crate::report::report;
use crate::rows::{CellError, CsvRow, ErrorRow, HandRow, Keyed, MatchRow};
use crate::run::{
    family_name, family_of_run, games_in_shard, read_manifest, run_family, Accum, Compress,
    Manifest, Mode, Outputs, Plan, Rows, Shard, StoredRules, Written,
};
use crate::stats::{HandFacts, MatchFacts, SeriesStats};
use clap::Args;
use kanaszta_engine::Family;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Options of `kanaszta merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// Run directories (each with run.json and the CSVs).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Directory for the merged result (the files of an earlier run there
    /// are replaced, with a note; DIR/.lock keeps out other runs meanwhile).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Compress the merged row files: gz writes hands.csv.gz and
    /// matches.csv.gz (the shards may be plain or compressed alike).
    #[arg(long, value_enum, default_value_t = Compress::None, value_name = "HOW")]
    compress: Compress,
    /// Threads reading the shards: 0 reads each file of each shard on a
    /// thread of its own, ahead of the merge; 1 reads them all on the
    /// merging thread. The output does not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T", value_parser = parse_threads)]
    threads: usize,
}

/// `--threads`: 0 or 1.
fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim() {
        "0" => Ok(0),
        "1" => Ok(1),
        _ => Err(format!(
            "expected 0 (a thread for each shard's file) or 1 (none beside the merging one), got `{s}`"
        )),
    }
}

/// Runs `kanaszta merge`.
pub fn run(a: MergeArgs) -> Result<ExitCode, CliError> {
    merge(&a.dirs, &a.out, a.compress, a.threads != 1)
}

/// What two manifests disagree on, besides the shard (and whether they
/// are complete).
pub fn difference<R: StoredRules>(a: &Manifest<R>, b: &Manifest<R>) -> Option<String> {
    if a.command != b.command {
        return Some(format!("command {} vs {}", a.command, b.command));
    }
    if a.seed != b.seed {
        return Some(format!("seed {} vs {}", a.seed, b.seed));
    }
    if a.mode != b.mode || a.games != b.games {
        return Some(format!("{} {} vs {} {}", a.games, a.mode, b.games, b.mode));
    }
    if a.paired != b.paired {
        return Some("paired vs unpaired seats".into());
    }
    if a.agents != b.agents {
        return Some(format!(
            "agents {} vs {}",
            a.agents.join(" "),
            b.agents.join(" ")
        ));
    }
    if a.series.len() != b.series.len() {
        return Some(format!(
            "{} vs {} series (matchups or settings)",
            a.series.len(),
            b.series.len()
        ));
    }
    for (i, (x, y)) in a.series.iter().zip(&b.series).enumerate() {
        if x.a != y.a || x.b != y.b || x.settings != y.settings {
            return Some(format!(
                "series {i}: {} vs {} [{}] against {} vs {} [{}]",
                x.a, x.b, x.settings, y.a, y.b, y.settings
            ));
        }
        if x.rules != y.rules {
            let diff: Vec<String> = x
                .rules
                .switches()
                .into_iter()
                .zip(y.rules.switches())
                .filter(|(p, q)| p != q)
                .map(|((k, v), (_, w))| format!("{k}={v} vs {k}={w}"))
                .collect();
            return Some(format!("series {i}: rules {}", diff.join(", ")));
        }
    }
    None
}

/// One CSV file of one shard, read a batch of rows at a time: on the
/// merging thread, or on a thread of its own that reads ahead (the rows,
/// and the error that ends them, come in the file's order either way).
/// Each row comes with its record as `play` writes it, formatted where it
/// was read.
struct Source<T> {
    path: PathBuf,
    /// The rows read and not yet taken; the first is the next.
    batch: Batch<T>,
    truncated: bool,
    /// A compressed file's partial last line, known once it is read.
    cut: Option<Arc<AtomicBool>>,
    feed: Feed<T>,
}

/// Where a [`Source`]'s batches come from.
enum Feed<T> {
    /// Read on the merging thread.
    Here(Box<Reader<T>>),
    /// Read ahead on a thread of their own; the batches taken go back to
    /// it on `spent`, to be filled again.
    Thread {
        rx: Receiver<Batch<T>>,
        spent: Sender<Batch<T>>,
        handle: Option<JoinHandle<()>>,
    },
    /// Every row was read.
    Done,
}

/// Rows of one file in its order, each with its record as written
/// ([`CsvRow::write_csv`], as `play` writes it), and the error that ends them if one does. Its
/// buffers are filled again batch after batch, not allocated a row.
struct Batch<T> {
    rows: VecDeque<T>,
    /// The records, one after another.
    bytes: Vec<u8>,
    /// Where each row's record ends in `bytes`.
    ends: VecDeque<usize>,
    /// Where the next row's record starts.
    from: usize,
    /// What stopped the reading after the rows.
    error: Option<MergeError>,
    /// Rows merged, going back with the batch to be dropped where they
    /// were made (the reading thread's allocator takes their strings back
    /// at no cost to the merging thread).
    dead: Vec<T>,
}

impl<T> Batch<T> {
    fn new() -> Batch<T> {
        Batch {
            rows: VecDeque::new(),
            bytes: Vec::new(),
            ends: VecDeque::new(),
            from: 0,
            error: None,
            dead: Vec::new(),
        }
    }

    /// Empty, its buffers kept.
    fn clear(&mut self) {
        self.rows.clear();
        self.bytes.clear();
        self.ends.clear();
        self.from = 0;
        self.error = None;
        self.dead.clear();
    }

    /// Takes the first row, its record appended to `into`.
    fn pop(&mut self, into: &mut Taken<T>) {
        if let (Some(r), Some(end)) = (self.rows.pop_front(), self.ends.pop_front()) {
            into.push(r, &self.bytes[self.from..end]);
            self.from = end;
        }
    }
}

/// The rows of one game taken from one file, and their records as written.
struct Taken<T> {
    rows: Vec<T>,
    bytes: Vec<u8>,
    /// Where the first row's record ends in `bytes`.
    first: usize,
}

impl<T> Taken<T> {
    fn new() -> Taken<T> {
        Taken {
            rows: Vec::new(),
            bytes: Vec::new(),
            first: 0,
        }
    }

    fn clear(&mut self) {
        self.rows.clear();
        self.bytes.clear();
        self.first = 0;
    }

    fn push(&mut self, r: T, record: &[u8]) {
        self.rows.push(r);
        self.bytes.extend_from_slice(record);
        if self.rows.len() == 1 {
            self.first = self.bytes.len();
        }
    }

    /// The first row's record.
    fn first_record(&self) -> &[u8] {
        &self.bytes[..self.first]
    }
}

/// Rows a reading thread hands over at once.
const BATCH: usize = 256;

/// Batches a reading thread may hold ready (flat memory: at most this
/// many, the one it fills and the one being taken, whatever the file's
/// size).
const BATCHES_AHEAD: usize = 2;

/// The rows of one file, parsed and checked for order.
struct Reader<T> {
    path: PathBuf,
    /// The rows, read through the guard of an overlong record, up to the
    /// end of the last whole line.
    rdr: csv::Reader<CsvGuard<Box<dyn Read + Send>>>,
    /// Byte offset past the last newline: a partial last line (a run killed
    /// mid-write) is left out.
    limit: u64,
    last: Option<(u32, u64)>,
    row: u64,
    /// The record read into, reused row after row.
    rec: csv::StringRecord,
    /// The rule cells of the last row, shared by the next when equal.
    rules: Option<Arc<[String]>>,
    rows: std::marker::PhantomData<fn() -> T>,
}

/// A compressed row file read up to its last whole line: a run killed
/// mid-write leaves a gzip stream without its last block and trailer, and
/// what was decompressed before that ends in a partial line.
struct WholeLines<R> {
    inner: R,
    /// Bytes read but not yet passed on: after the last newline seen.
    held: Vec<u8>,
    /// Passed on from `held[..ready]`.
    ready: usize,
    ended: bool,
    /// Whether a partial last line (or a cut stream) was left out.
    cut: Arc<AtomicBool>,
}

impl<R: Read> Read for WholeLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.ready > 0 {
                let n = self.ready.min(buf.len());
                buf[..n].copy_from_slice(&self.held[..n]);
                self.held.drain(..n);
                self.ready -= n;
                return Ok(n);
            }
            if self.ended {
                return Ok(0);
            }
            let mut chunk = [0u8; 1 << 14];
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // A cut stream: what came before its last whole line stands.
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    self.cut.store(true, Ordering::Relaxed);
                    0
                }
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.ended = true;
                if !self.held.is_empty() {
                    self.cut.store(true, Ordering::Relaxed);
                    self.held.clear();
                }
                continue;
            }
            let from = self.held.len();
            self.held.extend_from_slice(&chunk[..n]);
            if let Some(i) = self.held[from..].iter().rposition(|&b| b == b'\n') {
                self.ready = from + i + 1;
            } else if self.held.len() as u64 > crate::input::RECORD_LIMIT {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "a line longer than {}: expected the rows of a run",
                        crate::input::size(crate::input::RECORD_LIMIT)
                    ),
                ));
            }
        }
    }
}

/// Why a shard's file is refused: the file, and what was wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum MergeError {
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The header is not CSV.
    Header {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        source: csv::Error,
    },
    /// The header is not the one kanaszta writes.
    Columns {
        /// The file.
        path: PathBuf,
        /// The columns it lacks.
        missing: Vec<String>,
        /// The columns kanaszta does not write.
        unexpected: Vec<String>,
    },
    /// A record that is not CSV; `guard` is the reader guard's message
    /// when it stopped the read (an overlong record).
    Csv {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        source: csv::Error,
        /// The guard's message.
        guard: Option<String>,
    },
    /// A row that does not read back.
    Row {
        /// The file.
        path: PathBuf,
        /// Its line (the header is line 1).
        line: u64,
        /// What was wrong.
        source: CellError,
    },
    /// A row out of (series, game) order.
    Order {
        /// The file.
        path: PathBuf,
        /// Its line.
        line: u64,
    },
    /// A row that is not of the run its run.json describes.
    Foreign {
        /// The shard directory.
        dir: PathBuf,
        /// The file, e.g. `hands.csv`.
        file: &'static str,
        /// The row's series.
        series: u32,
        /// The row's game.
        game: u64,
        /// What does not match.
        why: Mismatch,
    },
}

/// How a row differs from the run described by run.json.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// A series or game the run does not have.
    Outside,
    /// Another master seed.
    Seed {
        /// The row's.
        found: u64,
        /// run.json's.
        expected: u64,
    },
    /// A deal of another shard.
    Deal {
        /// The row's deal.
        deal: u64,
        /// The shard, as written (`2/4`).
        shard: String,
    },
    /// Other rule columns.
    Rules,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Outside => f.write_str("outside the run described by run.json"),
            Mismatch::Seed { found, expected } => {
                write!(f, "seed {found} where run.json says {expected}")
            }
            Mismatch::Deal { deal, shard } => {
                write!(f, "deal {deal} does not belong to shard {shard}")
            }
            Mismatch::Rules => f.write_str("its rule columns differ from run.json"),
        }
    }
}

/// `none`, or the names joined by commas.
fn names_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            MergeError::Header { path, source } => {
                write!(f, "{}: malformed CSV header: {source}", path.display())
            }
            MergeError::Columns {
                path,
                missing,
                unexpected,
            } => write!(
                f,
                "{}: the header is not the one kanaszta writes (missing: {}; unexpected: {})",
                path.display(),
                names_or_none(missing),
                names_or_none(unexpected),
            ),
            MergeError::Csv {
                path,
                guard: Some(m),
                ..
            } => write!(f, "{}: {m}", path.display()),
            MergeError::Csv {
                path,
                source,
                guard: None,
            } => write!(f, "{}: malformed CSV: {source}", path.display()),
            MergeError::Row { path, line, source } => {
                write!(f, "{}: line {line}: {source}", path.display())
            }
            MergeError::Order { path, line } => write!(
                f,
                "{}: line {line}: rows are not in (series, game) order",
                path.display()
            ),
            MergeError::Foreign {
                dir,
                file,
                series,
                game,
                why,
            } => write!(
                f,
                "{}: {file} row of series {series} game {game}: {why}",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Read { source, .. } => Some(source),
            MergeError::Header { source, .. } | MergeError::Csv { source, .. } => Some(source),
            MergeError::Row { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<MergeError> for CliError {
    fn from(e: MergeError) -> CliError {
        CliError::Input(e.to_string())
    }
}

fn end_of_last_line(path: &Path) -> Result<(u64, bool), MergeError> {
    let read = |source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut f = File::open(path).map_err(read)?;
    let len = f.metadata().map_err(read)?.len();
    // Look back from the end for the last newline (rows are short).
    let mut pos = len;
    let mut buf = vec![0u8; 1 << 16];
    while pos > 0 {
        let n = buf.len().min(pos as usize);
        pos -= n as u64;
        f.seek(SeekFrom::Start(pos))
            .and_then(|_| f.read_exact(&mut buf[..n]))
            .map_err(read)?;
        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
            let end = pos + i as u64 + 1;
            return Ok((end, end != len));
        }
    }
    Ok((0, len > 0))
}

trait Row: Keyed + CsvRow + Sized + Send + 'static {
    fn legacy_header() -> Vec<String>;
    fn from_cells_after(
        rec: &csv::StringRecord,
        prev: Option<&std::sync::Arc<[String]>>,
    ) -> Result<Self, CellError>;
    fn rules(&self) -> &std::sync::Arc<[String]>;
    fn deal(&self) -> u64;
    fn run_seed(&self) -> u64;
}

/// `Row` for a row type; `$legacy` names the header that older files of
/// the type may carry (decorated rows read files written before their tail
/// columns; classic rows have only their one header).
macro_rules! impl_row {
    ($t:ty, $legacy:ident) => {
        impl Row for $t {
            fn legacy_header() -> Vec<String> {
                <$t>::$legacy()
            }
            fn from_cells_after(
                rec: &csv::StringRecord,
                prev: Option<&std::sync::Arc<[String]>>,
            ) -> Result<Self, CellError> {
                <$t>::from_cells_after(rec, prev)
            }
            fn rules(&self) -> &std::sync::Arc<[String]> {
                &self.rules
            }
            fn deal(&self) -> u64 {
                self.deal
            }
            fn run_seed(&self) -> u64 {
                self.run_seed
            }
        }
    };
}
impl_row!(HandRow, legacy_header);
impl_row!(MatchRow, legacy_header);
impl_row!(ErrorRow, legacy_header);
impl_row!(ClassicHandRow, header);
impl_row!(ClassicMatchRow, header);
impl_row!(ClassicErrorRow, header);

impl<T: Row> Source<T> {
    /// Opens `path` and reads its header and first row; with `ahead`, the
    /// rest is read on a thread of its own.
    fn open(path: PathBuf, ahead: bool) -> Result<Source<T>, MergeError> {
        let compressed = path.extension().is_some_and(|e| e == "gz");
        let (limit, truncated, cut, inner): (u64, bool, _, Box<dyn Read + Send>) = if compressed {
            let file = match File::open(&path) {
                Ok(f) => f,
                Err(source) => return Err(MergeError::Read { path, source }),
            };
            let cut = Arc::new(AtomicBool::new(false));
            let gz = match crate::input::maybe_gzip(file) {
                Ok(r) => r,
                Err(source) => return Err(MergeError::Read { path, source }),
            };
            let lines = WholeLines {
                inner: gz,
                held: Vec::new(),
                ready: 0,
                ended: false,
                cut: cut.clone(),
            };
            (u64::MAX, false, Some(cut), Box::new(lines))
        } else {
            let (limit, truncated) = end_of_last_line(&path)?;
            let file = match File::open(&path) {
                Ok(f) => f,
                Err(source) => return Err(MergeError::Read { path, source }),
            };
            (limit, truncated, None, Box::new(file.take(limit)))
        };
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(true)
            .buffer_capacity(1 << 16)
            .from_reader(CsvGuard::new(inner, u64::MAX));
        let header: Vec<String> = match rdr.headers() {
            Ok(h) => h.iter().map(str::to_string).collect(),
            Err(source) => return Err(MergeError::Header { path, source }),
        };
        let want = T::header();
        // A file written before the newest columns reads too: they stay
        // empty in the merged rows.
        if header != want && header != T::legacy_header() {
            let missing: Vec<String> = want
                .iter()
                .filter(|c| !header.contains(c))
                .cloned()
                .collect();
            let unexpected: Vec<String> = header
                .iter()
                .filter(|c| !want.contains(c))
                .cloned()
                .collect();
            return Err(MergeError::Columns {
                path,
                missing,
                unexpected,
            });
        }
        let mut reader = Box::new(Reader {
            path: path.clone(),
            rdr,
            limit,
            last: None,
            row: 1,
            rec: csv::StringRecord::new(),
            rules: None,
            rows: std::marker::PhantomData,
        });
        let mut batch = Batch::new();
        let more = reader.fill(&mut batch, 1);
        if let Some(e) = batch.error.take() {
            return Err(e);
        }
        let feed = if !more {
            Feed::Done
        } else if ahead {
            let (tx, rx) = sync_channel::<Batch<T>>(BATCHES_AHEAD);
            let (spent, back) = channel::<Batch<T>>();
            let handle = std::thread::Builder::new()
                .name("merge-read".into())
                .spawn(move || loop {
                    let mut b = back.try_recv().unwrap_or_else(|_| Batch::new());
                    b.clear();
                    let more = reader.fill(&mut b, BATCH);
                    // The merge stopped (an error): so does the reading.
                    if tx.send(b).is_err() || !more {
                        return;
                    }
                })
                .map_err(|source| MergeError::Read {
                    path: path.clone(),
                    source,
                })?;
            Feed::Thread {
                rx,
                spent,
                handle: Some(handle),
            }
        } else {
            Feed::Here(reader)
        };
        Ok(Source {
            path,
            batch,
            truncated,
            cut,
            feed,
        })
    }

    /// Makes the next row (or the error that ends the rows) the first of
    /// the batch, reading on when the batch is taken; the error is
    /// returned once it is next.
    fn refill(&mut self) -> Result<(), MergeError> {
        while self.batch.rows.is_empty() {
            if let Some(e) = self.batch.error.take() {
                return Err(e);
            }
            match &mut self.feed {
                Feed::Done => return Ok(()),
                Feed::Here(reader) => {
                    self.batch.clear();
                    if !reader.fill(&mut self.batch, BATCH) {
                        self.feed = Feed::Done;
                    }
                }
                Feed::Thread { rx, spent, handle } => match rx.recv() {
                    Ok(b) => {
                        let taken = std::mem::replace(&mut self.batch, b);
                        // The thread may have ended: the batch is dropped.
                        let _ = spent.send(taken);
                    }
                    // The thread sent every row and ended.
                    Err(_) => {
                        if let Some(h) = handle.take() {
                            if let Err(panic) = h.join() {
                                std::panic::resume_unwind(panic);
                            }
                        }
                        self.feed = Feed::Done;
                    }
                },
            }
        }
        Ok(())
    }

    fn key(&self) -> Option<(u32, u64)> {
        self.batch.rows.front().map(Keyed::key)
    }

    /// Gives back the rows `taken` from this file once merged, to be
    /// dropped with the batch they go back with.
    fn bury(&mut self, taken: &mut Taken<T>) {
        self.batch.dead.append(&mut taken.rows);
        taken.clear();
    }

    /// Takes every row of game `k` (they are consecutive), with its
    /// record.
    fn take(&mut self, k: (u32, u64), into: &mut Taken<T>) -> Result<(), MergeError> {
        while self.key() == Some(k) {
            self.batch.pop(into);
            self.refill()?;
        }
        Ok(())
    }
}

impl<T: Row> Reader<T> {
    /// Reads rows into `b` up to `max` of them, each written as `play`
    /// writes it; an error ends them. Returns whether more may follow (no
    /// error, not the end of the file).
    fn fill(&mut self, b: &mut Batch<T>, max: usize) -> bool {
        while b.rows.len() < max {
            match self.next(&mut b.bytes) {
                Ok(Some(r)) => {
                    b.rows.push_back(r);
                    b.ends.push_back(b.bytes.len());
                }
                Ok(None) => return false,
                Err(e) => {
                    b.error = Some(e);
                    return false;
                }
            }
        }
        true
    }

    /// The next row, or `None` at the end of the file; its record, as
    /// written, appended to `out`.
    fn next(&mut self, out: &mut Vec<u8>) -> Result<Option<T>, MergeError> {
        if self.rdr.position().byte() >= self.limit {
            return Ok(None);
        }
        let more = self
            .rdr
            .read_record(&mut self.rec)
            .map_err(|source| MergeError::Csv {
                path: self.path.clone(),
                source,
                guard: self.rdr.get_ref().failure.clone(),
            })?;
        if !more {
            return Ok(None);
        }
        self.row += 1;
        let r = T::from_cells_after(&self.rec, self.rules.as_ref()).map_err(|source| {
            MergeError::Row {
                path: self.path.clone(),
                line: self.row,
                source,
            }
        })?;
        if self
            .rules
            .as_ref()
            .is_none_or(|p| !Arc::ptr_eq(p, r.rules()))
        {
            self.rules = Some(r.rules().clone());
        }
        let k = r.key();
        if self.last.is_some_and(|l| l > k) {
            return Err(MergeError::Order {
                path: self.path.clone(),
                line: self.row,
            });
        }
        self.last = Some(k);
        r.write_csv(out);
        Ok(Some(r))
    }
}

/// One shard directory's three files (hands.csv only where written).
struct ShardFiles<F: Merged> {
    dir: PathBuf,
    shard: Shard,
    hands: Option<Source<F::Hand>>,
    matches: Option<Source<F::Match>>,
    errors: Source<F::Error>,
}

impl<F: Merged> ShardFiles<F> {
    /// Gives back the rows of a game taken from these files.
    fn bury(&mut self, h: &mut Taken<F::Hand>, m: &mut Taken<F::Match>, e: &mut Taken<F::Error>) {
        if let Some(hs) = &mut self.hands {
            hs.bury(h);
        }
        if let Some(ms) = &mut self.matches {
            ms.bury(m);
        }
        self.errors.bury(e);
    }

    fn key(&self) -> Option<(u32, u64)> {
        [
            self.hands.as_ref().and_then(Source::key),
            self.matches.as_ref().and_then(Source::key),
            self.errors.key(),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

fn check_row<T: Row, F: Merged>(
    r: &T,
    m: &Manifest<F::Rules>,
    files: &ShardFiles<F>,
    rule_values: &[std::sync::Arc<[String]>],
    file: &'static str,
) -> Result<(), MergeError> {
    let (series, game) = r.key();
    let bad = |why: Mismatch| {
        Err(MergeError::Foreign {
            dir: files.dir.clone(),
            file,
            series,
            game,
            why,
        })
    };
    if series as usize >= rule_values.len() || game >= m.games {
        return bad(Mismatch::Outside);
    }
    if r.run_seed() != m.seed {
        return bad(Mismatch::Seed {
            found: r.run_seed(),
            expected: m.seed,
        });
    }
    if r.deal() != m.deal(game) || !files.shard.contains(r.deal()) {
        return bad(Mismatch::Deal {
            deal: r.deal(),
            shard: files.shard.to_string(),
        });
    }
    if r.rules()[..] != rule_values[series as usize][..] {
        return bad(Mismatch::Rules);
    }
    Ok(())
}

/// The games a merge expects (those of its shards) that no input holds.
/// Games are seen in (series, game) order; a gap is counted from the
/// positions of the games around it, without enumerating the games.
struct Gaps {
    /// Games per series in the shards.
    per: u64,
    /// Games in the shards, all series.
    total: u64,
    /// The last game seen.
    prev: Option<(u32, u64)>,
    /// Games missing so far.
    missing: u64,
    /// The first gaps: first and last game missing, and how many.
    shown: Vec<Gap>,
    /// Gaps beyond those shown.
    more: u64,
}

/// A game, `(series, game)`.
type Key = (u32, u64);

/// A gap: the game before it and the game after it (none at the ends),
/// and how many games it lacks.
type Gap = (Option<Key>, Option<Key>, u64);

/// Gaps listed by name; the rest are counted.
const GAPS_SHOWN: usize = 8;

impl Gaps {
    fn new<R: StoredRules>(m: &Manifest<R>) -> Gaps {
        Gaps {
            per: games_in_shard(m.games, m.paired, &m.shard),
            total: m.shard_games(),
            prev: None,
            missing: 0,
            shown: Vec::new(),
            more: 0,
        }
    }

    /// The position of game `(s, g)` among the games of the shards.
    fn rank<R: StoredRules>(&self, m: &Manifest<R>, (s, g): (u32, u64)) -> u64 {
        u64::from(s) * self.per + games_in_shard(g, m.paired, &m.shard)
    }

    fn gap(&mut self, after: Option<(u32, u64)>, before: Option<(u32, u64)>, n: u64) {
        if n == 0 {
            return;
        }
        self.missing += n;
        if self.shown.len() < GAPS_SHOWN {
            self.shown.push((after, before, n));
        } else {
            self.more += 1;
        }
    }

    fn see_with<R: StoredRules>(&mut self, plan: &Manifest<R>, k: (u32, u64)) {
        let r = self.rank(plan, k);
        let from = self.prev.map_or(0, |p| self.rank(plan, p) + 1);
        self.gap(self.prev, Some(k), r.saturating_sub(from));
        self.prev = Some(k);
    }

    fn end_with<R: StoredRules>(&mut self, plan: &Manifest<R>) {
        let from = self.prev.map_or(0, |p| self.rank(plan, p) + 1);
        self.gap(self.prev, None, self.total.saturating_sub(from));
    }

    /// The gaps by their first and last game.
    fn describe<R: StoredRules>(&self, plan: &Manifest<R>) -> String {
        if self.shown.is_empty() {
            return "which ones is not known: the shards kept no hands.csv, only the count \
                    in accum.json"
                .into();
        }
        let mut parts: Vec<String> = self
            .shown
            .iter()
            .map(|&(after, before, n)| {
                let first = step(plan, after, true);
                let last = step(plan, before, false);
                match (first, last) {
                    (Some(a), Some(b)) if a == b => format!("series {} game {}", a.0, a.1),
                    (Some(a), Some(b)) if a.0 == b.0 => {
                        format!("series {} games {} to {} ({n} games)", a.0, a.1, b.1)
                    }
                    (Some(a), Some(b)) => format!(
                        "series {} game {} to series {} game {} ({n} games)",
                        a.0, a.1, b.0, b.1
                    ),
                    _ => format!("{n} games"),
                }
            })
            .collect();
        if self.more > 0 {
            parts.push(format!("and {} more gaps", self.more));
        }
        parts.join("; ")
    }
}

/// The game of the shards next after `from` (`forward`) or last before it;
/// from the start or the end when `from` is `None`. Games of a shard are
/// at most 2N apart, so the search is short.
fn step<R: StoredRules>(
    m: &Manifest<R>,
    from: Option<(u32, u64)>,
    forward: bool,
) -> Option<(u32, u64)> {
    let series = m.series.len() as u32;
    let held = |g: u64| m.shard.contains(m.deal(g));
    let (mut s, mut g) = match (from, forward) {
        (Some(k), _) => k,
        (None, true) => (0, 0),
        (None, false) => (series.checked_sub(1)?, m.games),
    };
    let first = from.is_none() && forward;
    if first && m.games > 0 && held(0) {
        return Some((0, 0));
    }
    loop {
        if forward {
            if g + 1 < m.games {
                g += 1;
            } else {
                s += 1;
                if s >= series {
                    return None;
                }
                g = 0;
            }
        } else if g > 0 {
            g -= 1;
        } else {
            s = s.checked_sub(1)?;
            g = m.games.checked_sub(1)?;
        }
        if held(g) {
            return Some((s, g));
        }
    }
}

/// What a merge does by the rule family of the runs: their rows, their
/// statistics, their files and their report.
trait Merged {
    /// The rules in run.json.
    type Rules: StoredRules;
    /// A hands.csv row.
    type Hand: Row;
    /// A matches.csv row.
    type Match: Row;
    /// An errors.csv row.
    type Error: Row;
    /// The statistics of a series.
    type Stats: Clone + serde::Serialize + serde::de::DeserializeOwned;
    /// The files written.
    type Files;
    /// Checks the manifest as a run would (agents, rules); empty
    /// statistics, one per series.
    fn stats(m: &Manifest<Self::Rules>) -> Result<Vec<Self::Stats>, CliError>;
    /// The values of the rule columns of a series.
    fn rule_values(r: &Self::Rules) -> std::sync::Arc<[String]>;
    /// Creates the files `written` asks for in `dir` (run.json written).
    fn create(
        dir: &Path,
        m: &Manifest<Self::Rules>,
        written: Written,
    ) -> Result<Self::Files, CliError>;
    /// Takes in the rows of game `k` (into the statistics too, when
    /// `count`) and writes their `records`; its hands and actions.
    fn game(
        files: &mut Self::Files,
        stats: &mut [Self::Stats],
        m: &Manifest<Self::Rules>,
        k: (u32, u64),
        rows: GameRows<'_, Self>,
        records: Records<'_>,
        count: bool,
    ) -> std::io::Result<(u64, u64)>;
    /// Takes another shard's statistics of a series into `into`.
    fn absorb(into: &mut Self::Stats, from: &Self::Stats);
    /// The agents and settings of a series' statistics.
    fn label(s: &Self::Stats) -> (&[String; 2], &str);
    /// Writes what is buffered.
    fn flush(files: &mut Self::Files) -> std::io::Result<()>;
    /// Writes everything and ends the files.
    fn finish(files: &mut Self::Files) -> std::io::Result<()>;
    /// An error row as the user reads it first.
    fn error_text(e: &Self::Error) -> String;
    /// The seats of a game of series `s`: the hand rows of one hand, and
    /// the match rows of one match.
    fn players(m: &Manifest<Self::Rules>, s: u32) -> usize;
    /// The hands a match row says its match played.
    fn match_hands(r: &Self::Match) -> u32;
    /// Finishes the statistics, writes the summaries, returns the report.
    fn report(
        dir: &Path,
        m: &Manifest<Self::Rules>,
        stats: &mut [Self::Stats],
    ) -> Result<String, CliError>;
}

/// The rows of one game: hands.csv's, matches.csv's, and the error.
type GameRows<'a, F> = (
    &'a [<F as Merged>::Hand],
    &'a [<F as Merged>::Match],
    Option<&'a <F as Merged>::Error>,
);

/// The records of one game's rows, as written: hands.csv's, matches.csv's,
/// and the error's (empty without one).
type Records<'a> = (&'a [u8], &'a [u8], &'a [u8]);

/// Decorated canasta.
struct Decorated;

impl Merged for Decorated {
    type Rules = kanaszta_engine::Rules;
    type Hand = HandRow;
    type Match = MatchRow;
    type Error = ErrorRow;
    type Stats = SeriesStats;
    type Files = Outputs;
    fn stats(m: &Manifest) -> Result<Vec<SeriesStats>, CliError> {
        Ok(Plan::new(m.clone())?.new_stats())
    }
    fn rule_values(r: &Self::Rules) -> std::sync::Arc<[String]> {
        crate::rows::rule_values(r)
    }
    fn create(dir: &Path, m: &Manifest, written: Written) -> Result<Outputs, CliError> {
        Outputs::create_as(dir, m, m.mode, written)
    }
    fn game(
        files: &mut Outputs,
        stats: &mut [SeriesStats],
        _: &Manifest,
        k: (u32, u64),
        (h, m, e): (&[HandRow], &[MatchRow], Option<&ErrorRow>),
        records: Records<'_>,
        count: bool,
    ) -> std::io::Result<(u64, u64)> {
        let st = &mut stats[k.0 as usize];
        if !count {
        } else if e.is_some() {
            st.add_error();
        } else {
            st.add_game(h.iter().map(HandFacts::of), m.iter().map(MatchFacts::of));
        }
        files.records(records);
        Ok((
            h.len() as u64 / 2,
            h.iter().step_by(2).map(|r| r.actions).sum::<u64>(),
        ))
    }
    fn absorb(into: &mut SeriesStats, from: &SeriesStats) {
        into.absorb(from);
    }
    fn label(s: &SeriesStats) -> (&[String; 2], &str) {
        (&s.agents, &s.settings)
    }
    fn flush(files: &mut Outputs) -> std::io::Result<()> {
        files.flush()
    }
    fn finish(files: &mut Outputs) -> std::io::Result<()> {
        files.finish()
    }
    fn error_text(e: &ErrorRow) -> String {
        format!("series {} game {}: {}", e.series, e.game, e.message)
    }
    fn players(_: &Manifest, _: u32) -> usize {
        2
    }
    fn match_hands(r: &MatchRow) -> u32 {
        r.hands
    }
    fn report(dir: &Path, m: &Manifest, stats: &mut [SeriesStats]) -> Result<String, CliError> {
        for s in stats.iter_mut() {
            s.finish();
        }
        report(Some(dir), m, stats)
    }
}

/// Classic canasta.
struct Classic;

impl Merged for Classic {
    type Rules = StoredClassicRules;
    type Hand = ClassicHandRow;
    type Match = ClassicMatchRow;
    type Error = ClassicErrorRow;
    type Stats = ClassicStats;
    type Files = ClassicFiles;
    fn stats(m: &ClassicManifest) -> Result<Vec<ClassicStats>, CliError> {
        Ok(ClassicRun::new(m.clone())?.new_stats())
    }
    fn rule_values(r: &StoredClassicRules) -> std::sync::Arc<[String]> {
        crate::classic::classic_rule_values(&r.0)
    }
    fn create(dir: &Path, m: &ClassicManifest, written: Written) -> Result<ClassicFiles, CliError> {
        crate::run::prepare_run_dir(dir)?;
        m.write(dir)?;
        ClassicFiles::open_as(dir, m.mode, written)
    }
    fn game(
        files: &mut ClassicFiles,
        stats: &mut [ClassicStats],
        manifest: &ClassicManifest,
        (series, g): (u32, u64),
        (h, m, e): (
            &[ClassicHandRow],
            &[ClassicMatchRow],
            Option<&ClassicErrorRow>,
        ),
        records: Records<'_>,
        count: bool,
    ) -> std::io::Result<(u64, u64)> {
        let players = manifest.series[series as usize].rules.0.players.max(1) as usize;
        let st = &mut stats[series as usize];
        if !count {
        } else if e.is_some() {
            st.add_error();
        } else {
            let facts: Vec<ClassicHandFacts> = h.iter().map(ClassicHandFacts::of).collect();
            let match_facts: Vec<ClassicMatchFacts> = m.iter().map(ClassicMatchFacts::of).collect();
            st.add_game(manifest.deal(g), &facts, &match_facts);
        }
        files.records(records);
        Ok((
            h.len() as u64 / players as u64,
            h.iter().step_by(players).map(|r| r.actions).sum::<u64>(),
        ))
    }
    fn absorb(into: &mut ClassicStats, from: &ClassicStats) {
        into.absorb(from);
    }
    fn label(s: &ClassicStats) -> (&[String; 2], &str) {
        (&s.agents, &s.settings)
    }
    fn flush(files: &mut ClassicFiles) -> std::io::Result<()> {
        files.flush()
    }
    fn finish(files: &mut ClassicFiles) -> std::io::Result<()> {
        files.finish()
    }
    fn error_text(e: &ClassicErrorRow) -> String {
        format!("series {} game {}: {}", e.series, e.game, e.message)
    }
    fn players(m: &ClassicManifest, s: u32) -> usize {
        m.series[s as usize].rules.0.players.max(1) as usize
    }
    fn match_hands(r: &ClassicMatchRow) -> u32 {
        r.hands
    }
    fn report(
        dir: &Path,
        m: &ClassicManifest,
        stats: &mut [ClassicStats],
    ) -> Result<String, CliError> {
        for s in stats.iter_mut() {
            s.finish();
        }
        crate::classic::run::report(Some(dir), m, stats)
    }
}

/// Every row of one game: hands.csv's, matches.csv's, errors.csv's.
type AllRows<'a, F> = (
    &'a [<F as Merged>::Hand],
    &'a [<F as Merged>::Match],
    &'a [<F as Merged>::Error],
);

/// Why the rows of game `k` are not a whole game, if they are not: a run
/// stopped mid-write (a full disk, a kill) may leave some rows of its last
/// games and not the others. A whole game is an error row alone, or, in
/// hands mode, one hand row a seat, or, in matches mode, one match row a
/// seat, all of one hand count, and one hand row a seat for every hand.
fn partial<F: Merged>(
    m: &Manifest<F::Rules>,
    (s, _): (u32, u64),
    (h, mr, e): AllRows<'_, F>,
) -> Option<String> {
    let seats = F::players(m, s);
    if !e.is_empty() {
        return (e.len() > 1).then(|| format!("{} error rows", e.len()));
    }
    match m.mode {
        Mode::Hands => (h.len() != seats || !mr.is_empty()).then(|| {
            format!(
                "{} of its {seats} hands.csv rows{}",
                h.len(),
                if mr.is_empty() {
                    ""
                } else {
                    " and rows in matches.csv"
                }
            )
        }),
        Mode::Matches => {
            let hands = mr.first().map(F::match_hands);
            if mr.len() != seats || mr.iter().any(|r| Some(F::match_hands(r)) != hands) {
                return Some(format!(
                    "{} of its {seats} matches.csv rows and {} hands.csv rows",
                    mr.len(),
                    h.len()
                ));
            }
            let want = seats as u64 * u64::from(hands.unwrap_or(0));
            (h.len() as u64 != want).then(|| {
                format!(
                    "{} of the {want} hands.csv rows of its {} hands",
                    h.len(),
                    hands.unwrap_or(0)
                )
            })
        }
    }
}

/// Merges run directories into `out`: runs of one family, decorated or
/// classic canasta.
fn merge(
    dirs: &[PathBuf],
    out: &Path,
    compress: Compress,
    ahead: bool,
) -> Result<ExitCode, CliError> {
    let families: Vec<Option<String>> = dirs
        .iter()
        .map(|d| run_family(d))
        .collect::<Result<_, _>>()?;
    if let Some((d, f)) = dirs.iter().zip(&families).find(|(_, f)| **f != families[0]) {
        return Err(CliError::Input(format!(
            "{} is a run of {} but {} of {}: merge the shards of one run, all of one family \
             (decorated or classic canasta)",
            dirs[0].display(),
            family_name(families[0].as_deref()),
            d.display(),
            family_name(f.as_deref())
        )));
    }
    match family_of_run(families[0].as_deref()) {
        Some(Family::Decorated) => merge_as::<Decorated>(dirs, out, compress, ahead),
        Some(Family::Classic) => merge_as::<Classic>(dirs, out, compress, ahead),
        None => Err(CliError::Input(format!(
            "{}: run.json says \"family\": \"{}\": expected classic, or no family \
             (decorated canasta)",
            dirs[0].display(),
            families[0].as_deref().unwrap_or_default()
        ))),
    }
}

/// Games whose rows merge holds before it writes them.
const MERGE_FLUSH: u64 = 256;

/// Merges run directories of family `F` into `out`.
fn merge_as<F: Merged>(
    dirs: &[PathBuf],
    out: &Path,
    compress: Compress,
    ahead: bool,
) -> Result<ExitCode, CliError> {
    let manifests: Vec<Manifest<F::Rules>> = dirs
        .iter()
        .map(|d| read_manifest(d))
        .collect::<Result<_, _>>()?;
    let first = &manifests[0];
    let mut shards = Vec::new();
    for (d, m) in dirs.iter().zip(&manifests) {
        if let Some(diff) = difference(first, m) {
            return Err(CliError::Input(format!(
                "{} and {} are not shards of one run: {diff}",
                dirs[0].display(),
                d.display()
            )));
        }
        shards.push(m.shard.clone());
    }
    // Shards built from other sources may play other games; the merged
    // run.json keeps the first one's build, so say when they differ.
    let build = |m: &Manifest<F::Rules>| (m.version.clone(), m.commit.clone(), m.dirty.clone());
    if let Some((d, m)) = dirs
        .iter()
        .zip(&manifests)
        .find(|(_, m)| build(m) != build(first))
    {
        let show = |m: &Manifest<F::Rules>| {
            format!(
                "version {}, commit {}{}",
                m.version.as_deref().unwrap_or("unrecorded"),
                m.commit.as_deref().unwrap_or("unrecorded"),
                if m.dirty.as_deref() == Some("true") {
                    " (dirty)"
                } else {
                    ""
                }
            )
        };
        eprintln!(
            "kanaszta: note: {} was played by {} but {} by {}; run.json keeps the first",
            dirs[0].display(),
            show(first),
            d.display(),
            show(m)
        );
    }
    let n = shards[0].n;
    let mut held: Vec<u32> = Vec::new();
    for (d, s) in dirs.iter().zip(&shards) {
        if s.n != n {
            return Err(CliError::Input(format!(
                "{} is shard {} but {} is shard {}: shards of one run share N",
                dirs[0].display(),
                shards[0],
                d.display(),
                s
            )));
        }
        for i in &s.indices {
            if held.contains(i) {
                return Err(CliError::Input(format!(
                    "shard {i}/{n} is given twice (in {}): give each shard once",
                    d.display()
                )));
            }
            held.push(*i);
        }
    }
    held.sort_unstable();
    let union = Shard { indices: held, n };
    if let Ok(o) = out.canonicalize() {
        if dirs
            .iter()
            .any(|d| d.canonicalize().ok() == Some(o.clone()))
        {
            return Err(CliError::Input(format!(
                "--out {} is one of the inputs: merge into a new directory",
                out.display()
            )));
        }
    }
    if !union.is_complete() {
        let missing: Vec<String> = (0..n)
            .filter(|i| !union.indices.contains(i))
            .map(|i| format!("{i}/{n}"))
            .collect();
        eprintln!(
            "kanaszta: note: shards {} are missing; the result covers shard {union}",
            missing.join(", ")
        );
    }
    let mut manifest = first.clone();
    // Whether the result is complete is known once its rows are counted.
    manifest.complete = None;
    manifest.games_done = None;
    // Every shard merged is the whole run: its run.json says so, like a
    // single run's.
    manifest.shard = if union.is_complete() {
        Shard::all()
    } else {
        union.clone()
    };
    let mut stats =
        F::stats(&manifest).map_err(|e| format!("{}: run.json: {e}", dirs[0].display()))?;
    let rule_values: Vec<std::sync::Arc<[String]>> = manifest
        .series
        .iter()
        .map(|s| F::rule_values(&s.rules))
        .collect();

    // Shards run with --rows matches or none carry their statistics in
    // accum.json; their merge adds them up, and merges the rows they have.
    let accums = read_accums::<F>(dirs, &manifest)?;
    let rows = accums.rows;
    if let Some(shard_stats) = &accums.stats {
        for shard in shard_stats {
            for (into, from) in stats.iter_mut().zip(shard) {
                F::absorb(into, from);
            }
        }
    }
    let count = accums.stats.is_none();

    let mut files: Vec<ShardFiles<F>> = Vec::new();
    for (d, s) in dirs.iter().zip(shards) {
        if !d.join("errors.csv").exists() {
            return Err(CliError::Input(format!("{}: no errors.csv", d.display())));
        }
        files.push(ShardFiles {
            dir: d.clone(),
            shard: s,
            hands: if rows == Rows::All {
                Some(Source::open(row_file(d, "hands.csv")?, ahead)?)
            } else {
                None
            },
            matches: if manifest.mode == Mode::Matches && rows != Rows::None {
                Some(Source::open(row_file(d, "matches.csv")?, ahead)?)
            } else {
                None
            },
            errors: Source::open(d.join("errors.csv"), ahead)?,
        });
    }
    for f in &files {
        for (t, p) in [
            (f.hands.as_ref().is_some_and(|h| h.truncated), "hands.csv"),
            (f.errors.truncated, "errors.csv"),
            (
                f.matches.as_ref().is_some_and(|m| m.truncated),
                "matches.csv",
            ),
        ] {
            if t {
                eprintln!(
                    "kanaszta: note: {} ends in a partial line (an interrupted run); it is left out",
                    f.dir.join(p).display()
                );
            }
        }
    }

    let _lock = crate::lock::RunLock::acquire(out)?;
    let written = Written { rows, compress };
    manifest.record_written(written);
    let mut outputs = F::create(out, &manifest, written)?;
    let (mut games, mut errors, mut hands_n, mut actions) = (0u64, 0u64, 0u64, 0u64);
    let mut first_error = None;
    let mut taken = 0u64;
    let mut gaps = Gaps::new(&manifest);
    // Games left out because only some of their rows were written.
    let (mut partials, mut partial_shown) = (0u64, Vec::<String>::new());
    let write_err = |e: std::io::Error| format!("cannot write into {}: {e}", out.display());
    // The rows of the game being merged, file by file (their buffers kept
    // from game to game).
    let (mut h, mut m, mut e) = (Taken::new(), Taken::new(), Taken::new());
    // The files the last game's rows came from.
    let mut last: Option<usize> = None;
    while let Some((k, owner)) = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.key().map(|k| (k, i)))
        .min()
    {
        if let Some(other) = files
            .iter()
            .enumerate()
            .find(|(i, f)| *i != owner && f.key() == Some(k))
        {
            return Err(CliError::Input(format!(
                "series {} game {} is in both {} and {}",
                k.0,
                k.1,
                files[owner].dir.display(),
                other.1.dir.display()
            )));
        }
        if let Some(l) = last.replace(owner) {
            files[l].bury(&mut h, &mut m, &mut e);
        }
        let f = &mut files[owner];
        if let Some(hs) = &mut f.hands {
            hs.take(k, &mut h)?;
        }
        if let Some(ms) = &mut f.matches {
            ms.take(k, &mut m)?;
        }
        f.errors.take(k, &mut e)?;
        let (h, m, e) = (&h, &m, &e);
        let (hr, mr, er) = (&h.rows, &m.rows, &e.rows);
        for r in hr {
            check_row(r, &manifest, f, &rule_values, "hands.csv")?;
        }
        for r in mr {
            check_row(r, &manifest, f, &rule_values, "matches.csv")?;
        }
        for r in er {
            check_row(r, &manifest, f, &rule_values, "errors.csv")?;
        }
        let whole = if count {
            partial::<F>(&manifest, k, (hr, mr, er))
        } else {
            None
        };
        if let Some(why) = whole {
            partials += 1;
            if partial_shown.len() < GAPS_SHOWN {
                partial_shown.push(format!(
                    "series {} game {} in {} ({why})",
                    k.0,
                    k.1,
                    f.dir.display()
                ));
            }
            continue;
        }
        if count {
            gaps.see_with(&manifest, k);
            games += 1;
        }
        if let Some(err) = er.first() {
            errors += 1;
            first_error.get_or_insert_with(|| F::error_text(err));
        }
        let (hn, an) = F::game(
            &mut outputs,
            &mut stats,
            &manifest,
            k,
            (hr, mr, er.first()),
            (&h.bytes, &m.bytes, e.first_record()),
            count,
        )
        .map_err(write_err)?;
        hands_n += hn;
        actions += an;
        // The rows go to disk as they come, so memory stays flat however
        // large the run.
        taken += 1;
        if taken.is_multiple_of(MERGE_FLUSH) {
            F::flush(&mut outputs).map_err(write_err)?;
        }
    }
    F::finish(&mut outputs).map_err(write_err)?;
    for f in &files {
        let sources = [
            f.hands.as_ref().map(|h| (h.cut.as_ref(), &h.path)),
            f.matches.as_ref().map(|m| (m.cut.as_ref(), &m.path)),
        ];
        for (cut, path) in sources.into_iter().flatten() {
            if cut.is_some_and(|c| c.load(Ordering::Relaxed)) {
                eprintln!(
                    "kanaszta: note: {} ends in a partial line or a cut gzip stream (an \
                     interrupted run); what follows its last whole line is left out",
                    path.display()
                );
            }
        }
    }
    if count {
        gaps.end_with(&manifest);
    } else {
        // The games are those the shards counted; those missing are
        // counted, not named (the shards kept no rows of them).
        games = accums.games;
        hands_n = accums.hands;
        actions = accums.actions;
        gaps.missing = gaps.total.saturating_sub(games);
        if gaps.missing > 0 {
            gaps.shown.clear();
        }
    }
    if partials > 0 {
        eprintln!(
            "kanaszta: note: {partials} games left out as partly written (a run stopped \
             mid-write): {}{}; only whole games and whole matches are merged",
            partial_shown.join("; "),
            if partials > partial_shown.len() as u64 {
                format!("; and {} more", partials - partial_shown.len() as u64)
            } else {
                String::new()
            }
        );
    }
    if gaps.missing > 0 {
        eprintln!(
            "kanaszta: note: {} games missing of the {} of {}: {}; \
             run.json of {} says \"complete\": false, \"games_done\": {games}",
            gaps.missing,
            gaps.total,
            if manifest.shard.is_complete() {
                "the run".to_string()
            } else {
                format!("shard {}", manifest.shard)
            },
            gaps.describe(&manifest),
            out.display()
        );
        manifest.complete = Some(false);
        manifest.games_done = Some(games);
        manifest.write(out)?;
    }
    let text = F::report(out, &manifest, &mut stats)?;
    if rows != Rows::All {
        Accum {
            rows,
            games,
            errors,
            hands: hands_n,
            actions,
            first_error: first_error.clone(),
            series: stats.clone(),
        }
        .write(out)?;
    }
    let mut o = std::io::stdout().lock();
    quiet_pipe((|| -> Result<(), CliError> {
        use std::io::Write;
        write!(o, "{text}")?;
        writeln!(
            o,
            "merged {} directories: {games} games, {hands_n} hands, {actions} actions; CSVs in {}",
            dirs.len(),
            out.display()
        )?;
        Ok(())
    })())?;
    if errors > 0 {
        eprintln!(
            "kanaszta: note: {errors} games were ended by an agent error; first: {}",
            first_error.unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The accumulators of the shards of a merge: the rows all of them wrote,
/// and, when they left hands.csv out, every shard's statistics and the
/// sums of their counts.
struct Accums<S> {
    rows: Rows,
    /// Each shard's statistics, one per series (`None`: the shards wrote
    /// their rows, from which the statistics are recomputed).
    stats: Option<Vec<Vec<S>>>,
    games: u64,
    hands: u64,
    actions: u64,
}

/// Reads the shards' accum.json: all of them or none, of one `--rows`,
/// each of the series of the run.
fn read_accums<F: Merged>(
    dirs: &[PathBuf],
    m: &Manifest<F::Rules>,
) -> Result<Accums<F::Stats>, CliError> {
    let mut read = Vec::new();
    for d in dirs {
        read.push(Accum::<F::Stats>::read(d)?);
    }
    let rows_of = |a: &Option<Accum<F::Stats>>| a.as_ref().map_or(Rows::All, |a| a.rows);
    let rows = rows_of(&read[0]);
    for (d, a) in dirs.iter().zip(&read) {
        let r = rows_of(a);
        if r != rows {
            return Err(CliError::Input(format!(
                "{} was run with --rows {} but {} with --rows {}: shards merge only when \
                 all were run with one --rows (a merged run holds its rows for every game \
                 or for none); rerun the odd shards with --rows {}",
                dirs[0].display(),
                rows.name(),
                d.display(),
                r.name(),
                rows.name()
            )));
        }
    }
    if rows == Rows::All {
        return Ok(Accums {
            rows,
            stats: None,
            games: 0,
            hands: 0,
            actions: 0,
        });
    }
    let (mut games, mut hands, mut actions) = (0u64, 0u64, 0u64);
    let mut stats = Vec::new();
    for (d, a) in dirs.iter().zip(read) {
        let Some(a) = a else { continue };
        let fits = a.series.len() == m.series.len()
            && a.series.iter().zip(&m.series).all(|(s, spec)| {
                let (agents, settings) = F::label(s);
                agents[0] == spec.a && agents[1] == spec.b && settings == spec.settings
            });
        if !fits {
            return Err(CliError::Input(format!(
                "{}: accum.json holds other series than its run.json: it is not this \
                 run's; rerun that shard",
                d.display()
            )));
        }
        games += a.games;
        hands += a.hands;
        actions += a.actions;
        stats.push(a.series);
    }
    Ok(Accums {
        rows,
        stats: Some(stats),
        games,
        hands,
        actions,
    })
}

/// The row file `name` of shard `dir`: `name` or `name.gz`.
fn row_file(dir: &Path, name: &str) -> Result<PathBuf, CliError> {
    let plain = dir.join(name);
    let gz = dir.join(format!("{name}.gz"));
    match (plain.exists(), gz.exists()) {
        (true, false) => Ok(plain),
        (false, true) => Ok(gz),
        (true, true) => Err(CliError::Input(format!(
            "{}: holds both {name} and {name}.gz: a run writes one of them; move the other away",
            dir.display()
        ))),
        (false, false) => Err(CliError::Input(format!(
            "{}: no {name} (nor {name}.gz)",
            dir.display()
        ))),
    }
}
