//! [`CliError`]: why a command failed, as one line for the user. Every
//! error says what was wrong and what is accepted; all of them exit with
//! status 1 (bad input).

use kanaszta_agents::SpecError;
use kanaszta_engine::{LogError, PositionError, RulesError};
use std::fmt;
use std::io;
use std::path::PathBuf;

/// An error of a command.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: the message says what was wrong and what is accepted.
    Input(String),
    /// A file, directory or stream that cannot be read or written:
    /// `cannot {action} {path}: {source}`.
    Io {
        /// What was being done, e.g. `read position`, `write`.
        action: &'static str,
        /// The file (or `standard input`).
        path: String,
        /// The system's error.
        source: io::Error,
    },
    /// Writing the command's output failed (a closed pipe is no error).
    Output(io::Error),
    /// Rules refused; `context` names the option or file they came from
    /// (empty for `--set`, whose message names the switch).
    Rules {
        /// `--vary tax`, a rules file, or empty.
        context: String,
        /// What the engine refused.
        source: RulesError,
    },
    /// `--rules NAME`: neither a preset nor a file.
    UnknownRules(RulesError),
    /// A position file refused.
    Position {
        /// The file (or `-`).
        path: String,
        /// The field that was wrong and why.
        source: PositionError,
    },
    /// A game log refused.
    Log {
        /// The file.
        path: String,
        /// What was wrong.
        source: LogError,
    },
    /// An agent spec refused.
    Agent(SpecError),
    /// A run directory's run.json unreadable or malformed.
    Manifest(ManifestError),
}

impl CliError {
    /// An [`CliError::Io`] error.
    pub fn io(action: &'static str, path: impl fmt::Display, source: io::Error) -> CliError {
        CliError::Io {
            action,
            path: path.to_string(),
            source,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) => f.write_str(m),
            CliError::Io {
                action,
                path,
                source,
            } => write!(f, "cannot {action} {path}: {source}"),
            CliError::Output(e) => write!(f, "cannot write output: {e}"),
            CliError::Rules { context, source } if context.is_empty() => write!(f, "{source}"),
            CliError::Rules { context, source } => write!(f, "{context}: {source}"),
            CliError::UnknownRules(e) => write!(f, "{e}, or a path to a rules JSON file"),
            CliError::Position { path, source } => write!(f, "{path}: {source}"),
            CliError::Log { path, source } => write!(f, "{path}: {source}"),
            CliError::Agent(e) => write!(f, "{e}"),
            CliError::Manifest(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Io { source, .. } | CliError::Output(source) => Some(source),
            CliError::Rules { source, .. } | CliError::UnknownRules(source) => Some(source),
            CliError::Position { source, .. } => Some(source),
            CliError::Log { source, .. } => Some(source),
            CliError::Agent(e) => Some(e),
            CliError::Manifest(e) => Some(e),
            CliError::Input(_) => None,
        }
    }
}

impl From<String> for CliError {
    fn from(m: String) -> CliError {
        CliError::Input(m)
    }
}

impl From<ManifestError> for CliError {
    fn from(e: ManifestError) -> CliError {
        CliError::Manifest(e)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Output(e)
    }
}

impl From<SpecError> for CliError {
    fn from(e: SpecError) -> CliError {
        CliError::Agent(e)
    }
}

impl From<RulesError> for CliError {
    fn from(e: RulesError) -> CliError {
        CliError::Rules {
            context: String::new(),
            source: e,
        }
    }
}

/// Output errors: a closed pipe (`kanaszta demo | head`) is a normal end.
pub fn quiet_pipe(r: Result<(), CliError>) -> Result<(), CliError> {
    match r {
        Err(CliError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// The longest text a message quotes whole between backticks (a command
/// line, a spec of many parameters are shorter).
const QUOTE_LIMIT: usize = 400;

/// `message` with every span quoted between backticks that is longer than
/// [`QUOTE_LIMIT`] characters cut to its start and its length: an argument
/// of 100 KB is not echoed back whole (a message may quote it twice).
pub fn clip_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            rest = after;
            break;
        };
        let quoted = &after[..close];
        let n = quoted.chars().count();
        if n > QUOTE_LIMIT {
            let cut: String = quoted.chars().take(QUOTE_LIMIT / 4).collect();
            out.push_str(&format!("{cut}…` ({n} characters)"));
        } else {
            out.push_str(quoted);
            out.push('`');
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// An unreadable or malformed `run.json`: the file, and the field that was
/// wrong when one was.
#[derive(Debug)]
pub enum ManifestError {
    /// The run directory does not exist.
    NoDirectory(PathBuf),
    /// `run.json` cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// `run.json` is a run of the other rule family.
    Family {
        /// The run directory.
        dir: PathBuf,
        /// Its family.
        found: String,
        /// The family the reader takes.
        expected: String,
    },
    /// `run.json` is not a manifest.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The field that was wrong (`seed`, `series[1].rules`), when
        /// serde's message does not name it already.
        field: Option<String>,
        /// What was wrong.
        message: String,
    },
}

/// How a run directory is described in messages.
const RUN_DIR: &str = "expected a run directory written by kanaszta play, tournament or sweep";

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestError::NoDirectory(dir) => {
                write!(f, "{}: no such directory ({RUN_DIR})", dir.display())
            }
            ManifestError::Read { path, source } => {
                write!(f, "cannot read {}: {source} ({RUN_DIR})", path.display())
            }
            ManifestError::Family {
                dir,
                found,
                expected,
            } => write!(
                f,
                "{}: a run of {found}, where this reads runs of {expected} only",
                dir.display()
            ),
            ManifestError::Malformed {
                path,
                field: None,
                message,
            } => write!(f, "{}: malformed run.json: {message}", path.display()),
            ManifestError::Malformed {
                path,
                field: Some(field),
                message,
            } => write!(
                f,
                "{}: malformed run.json: field `{field}`: {message}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ManifestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ManifestError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a run of games stopped before its plan was played, apart from
/// signals and agents' errors (those end one game, a row of errors.csv).
#[derive(Debug)]
pub enum RunError {
    /// The worker threads could not be started.
    Threads {
        /// How many were asked for (0: one per core).
        threads: usize,
        /// The pool's error.
        source: rayon::ThreadPoolBuildError,
    },
    /// The CSV files could not be written.
    Write(io::Error),
    /// The thread that writes the files ended abnormally.
    Writer,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Threads { threads, source } => {
                write!(f, "cannot start {threads} threads: {source}")
            }
            RunError::Write(e) => write!(f, "cannot write the CSV files: {e}"),
            RunError::Writer => f.write_str("the writer thread failed"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Threads { source, .. } => Some(source),
            RunError::Write(e) => Some(e),
            RunError::Writer => None,
        }
    }
}

impl From<RunError> for CliError {
    fn from(e: RunError) -> CliError {
        CliError::Input(e.to_string())
    }
}

#[cfg(test)]
mod clip_tests {
    use super::clip_quotes;

    #[test]
    fn long_quotes_are_cut_and_short_ones_kept() {
        let long = "é".repeat(100_000);
        let m = format!("unknown agent `{long}` in spec `{long}`; accepted: `random`");
        let c = clip_quotes(&m);
        assert!(c.len() < 800, "{c}");
        assert_eq!(c.matches("(100000 characters)").count(), 2, "{c}");
        assert!(c.ends_with("; accepted: `random`"), "{c}");
        assert_eq!(clip_quotes("a `b` c `d"), "a `b` c `d");
    }
}
