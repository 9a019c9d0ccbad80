//! The files of a run directory: whole-record CSV files, the
//! hands/matches/errors files of a run, and the preparation of the
//! directory (an earlier run's files replaced, a stranger's refused).

use super::manifest::{read_run_json, Compress, Manifest, Mode, Rows, Shard, Written};
use crate::error::CliError;
use crate::rows::{write_text, CsvRow, ErrorRow, HandRow, MatchRow};
use serde::Deserialize;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Where a CSV file's bytes go: the file itself, or a gzip stream into it.
enum Dest {
    Plain(File),
    Gz(flate2::write::GzEncoder<File>),
}

/// A CSV file written whole records at a time: rows collect in a buffer and
/// go to the file in one `write_all` of complete lines, so a run killed at
/// any moment leaves a valid file (a compressed file is valid up to its
/// last whole block: readers stop at its last whole line).
pub struct CsvFile {
    file: Dest,
    buf: Vec<u8>,
}

impl CsvFile {
    /// Creates (truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &[String]) -> Result<CsvFile, CliError> {
        CsvFile::create_as(path, header, Compress::None)
    }

    /// Creates (truncates) `path`, compressed as `compress` says, and
    /// writes the header.
    pub fn create_as(
        path: &Path,
        header: &[String],
        compress: Compress,
    ) -> Result<CsvFile, CliError> {
        let file = File::create(path).map_err(|e| CliError::io("create", path.display(), e))?;
        let file = match compress {
            Compress::None => Dest::Plain(file),
            // Level 3: see results/perf-notes.md (size and speed by level).
            Compress::Gz => Dest::Gz(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::new(3),
            )),
        };
        let mut f = CsvFile {
            file,
            buf: Vec::with_capacity(1 << 16),
        };
        f.row(header.iter().map(String::as_str))
            .and_then(|()| f.flush())
            .map_err(|e| CliError::io("write", path.display(), e))?;
        Ok(f)
    }

    /// Buffers one record (RFC 4180: a field with a comma, quote or line
    /// break is quoted, quotes doubled).
    pub fn row<I, T>(&mut self, cells: I) -> std::io::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        for (i, c) in cells.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            write_text(&mut self.buf, c.as_ref());
        }
        self.buf.push(b'\n');
        Ok(())
    }

    /// Buffers one record that `write` appends whole, newline included
    /// (such as a row's `write_csv`).
    pub fn record(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.buf);
    }

    /// Writes the buffered records to the file (into the gzip stream,
    /// which writes its blocks as they fill).
    pub fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            match &mut self.file {
                Dest::Plain(f) => f.write_all(&self.buf)?,
                Dest::Gz(z) => z.write_all(&self.buf)?,
            }
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes what is buffered and ends a gzip stream (its last block and
    /// trailer).
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        match &mut self.file {
            Dest::Plain(_) => Ok(()),
            Dest::Gz(z) => z.try_finish(),
        }
    }
}

/// The CSV files of a run directory: `hands.csv`, `errors.csv` and, in
/// matches mode, `matches.csv`, with rows `H`, `M` and `E`.
pub struct RunFiles<H, M, E> {
    hands: Option<CsvFile>,
    matches: Option<CsvFile>,
    errors: CsvFile,
    rows: std::marker::PhantomData<fn(&H, &M, &E)>,
}

/// The CSV files of a decorated run directory.
pub type Outputs = RunFiles<HandRow, MatchRow, ErrorRow>;

impl<H: CsvRow, M: CsvRow, E: CsvRow> RunFiles<H, M, E> {
    /// Creates the files in `dir` with their headers.
    pub fn open(dir: &Path, mode: Mode) -> Result<Self, CliError> {
        RunFiles::open_as(dir, mode, Written::default())
    }

    /// Creates the files `written` asks for in `dir` with their headers.
    pub fn open_as(dir: &Path, mode: Mode, written: Written) -> Result<Self, CliError> {
        let c = written.compress;
        Ok(RunFiles {
            hands: match written.rows {
                Rows::All => Some(CsvFile::create_as(
                    &written.path(dir, "hands.csv"),
                    &H::header(),
                    c,
                )?),
                Rows::Matches | Rows::None => None,
            },
            matches: match (mode, written.rows) {
                (Mode::Matches, Rows::All | Rows::Matches) => Some(CsvFile::create_as(
                    &written.path(dir, "matches.csv"),
                    &M::header(),
                    c,
                )?),
                _ => None,
            },
            errors: CsvFile::create(&dir.join("errors.csv"), &E::header())?,
            rows: std::marker::PhantomData,
        })
    }

    /// The rows these files take: `all` with `hands.csv` open, `matches`
    /// with only `matches.csv`, else `none`.
    pub fn rows(&self) -> Rows {
        match (&self.hands, &self.matches) {
            (Some(_), _) => Rows::All,
            (None, Some(_)) => Rows::Matches,
            (None, None) => Rows::None,
        }
    }

    /// Buffers one game's rows.
    pub fn game(&mut self, hands: &[H], matches: &[M], error: Option<&E>) {
        if let Some(h) = &mut self.hands {
            for r in hands {
                h.record(|buf| r.write_csv(buf));
            }
        }
        if let Some(m) = &mut self.matches {
            for r in matches {
                m.record(|buf| r.write_csv(buf));
            }
        }
        if let Some(e) = error {
            self.errors.record(|buf| e.write_csv(buf));
        }
    }

    /// Buffers one game's records as the rows' `write_csv` writes them:
    /// the hand rows', the match rows' and the error's, each newline
    /// included (for the files open).
    pub fn records(&mut self, (hands, matches, error): (&[u8], &[u8], &[u8])) {
        if let Some(h) = &mut self.hands {
            h.record(|buf| buf.extend_from_slice(hands));
        }
        if let Some(m) = &mut self.matches {
            m.record(|buf| buf.extend_from_slice(matches));
        }
        self.errors.record(|buf| buf.extend_from_slice(error));
    }

    /// Writes everything buffered.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if let Some(h) = &mut self.hands {
            h.flush()?;
        }
        if let Some(m) = &mut self.matches {
            m.flush()?;
        }
        self.errors.flush()
    }

    /// Writes everything buffered and ends the compressed streams.
    pub fn finish(&mut self) -> std::io::Result<()> {
        if let Some(h) = &mut self.hands {
            h.finish()?;
        }
        if let Some(m) = &mut self.matches {
            m.finish()?;
        }
        self.errors.finish()
    }
}

/// Files a run may leave in its directory, removed when a new run there
/// would not write them (so no stale file mixes with new ones).
pub const RUN_FILES: [&str; 11] = [
    "run.json",
    "hands.csv",
    "matches.csv",
    "hands.csv.gz",
    "matches.csv.gz",
    "accum.json",
    "errors.csv",
    "summary.csv",
    "tournament.csv",
    "ratings.csv",
    "sweep.csv",
];

/// Creates the run directory `dir`, or empties it of an earlier run's files
/// (all of them, with a note on stderr), for any family's run. Files of
/// those names that no run wrote (no run.json of a run beside them: the
/// user's own `ratings.csv`, say) are never removed: the run is refused,
/// before anything is played or written.
pub fn prepare_run_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::io("create output directory", dir.display(), e))?;
    // The files of an earlier run are replaced, all of them, never
    // mixed with the new ones; say so.
    let earlier: Vec<&str> = RUN_FILES
        .into_iter()
        .filter(|f| dir.join(f).exists())
        .collect();
    if !earlier.is_empty() {
        // What any family's run.json says of the run.
        #[derive(Deserialize)]
        struct Earlier {
            command: String,
            agents: Vec<String>,
            seed: u64,
            games: u64,
            mode: Mode,
            shard: Shard,
        }
        let earlier_run = read_run_json(dir)
            .ok()
            .and_then(|(_, text)| serde_json::from_str::<Earlier>(&text).ok());
        let Some(m) = earlier_run else {
            let run_json = dir.join("run.json");
            let why = if run_json.exists() {
                format!(
                    "its run.json is not one a kanaszta run wrote ({})",
                    read_run_json(dir).err().map_or_else(
                        || "not the fields of a run".to_string(),
                        |e| crate::input::clip(&e.to_string())
                    )
                )
            } else {
                "there is no run.json of a kanaszta run beside them".to_string()
            };
            return Err(CliError::Input(format!(
                "{}: holds {} and {why}, so they are not files of an earlier run, and a run \
                 there would replace them; give another --out (a new or empty directory, or \
                 one of an earlier run), or move those files away",
                dir.display(),
                earlier.join(", ")
            )));
        };
        let what = format!(
            "the earlier run there ({} {}, seed {}, {} {}{})",
            m.command,
            m.agents.join(" "),
            m.seed,
            m.games,
            m.mode,
            if m.shard.n > 1 {
                format!(", shard {}", m.shard)
            } else {
                String::new()
            }
        );
        eprintln!(
            "kanaszta: note: {}: replacing {what}; give another --out to keep it",
            dir.display()
        );
    }
    for f in RUN_FILES {
        let p = dir.join(f);
        if p.exists() {
            std::fs::remove_file(&p).map_err(|e| CliError::io("replace", p.display(), e))?;
        }
    }
    Ok(())
}

impl Outputs {
    /// Creates `dir` and the files with their headers; writes `run.json`.
    pub fn create(dir: &Path, manifest: &Manifest, mode: Mode) -> Result<Outputs, CliError> {
        Outputs::create_as(dir, manifest, mode, Written::default())
    }

    /// [`Outputs::create`] of the files `written` asks for.
    pub fn create_as(
        dir: &Path,
        manifest: &Manifest,
        mode: Mode,
        written: Written,
    ) -> Result<Outputs, CliError> {
        prepare_run_dir(dir)?;
        manifest.write(dir)?;
        Outputs::open_as(dir, mode, written)
    }
}
