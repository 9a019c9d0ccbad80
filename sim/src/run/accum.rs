//! `accum.json`: the statistics of a run whose rows were left out
//! (`--rows matches` or `none`), as `merge` needs them. A shard's
//! `summary.csv` alone cannot be merged (its rates and intervals are not
//! sums); these accumulators are: counts and exact sums, added shard to
//! shard, so the shards of a run merge to the single run's summary.

use super::exec::RunResult;
use super::manifest::Rows;
use crate::error::CliError;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::path::Path;

/// The file's name in a run directory.
pub const ACCUM: &str = "accum.json";

/// Largest `accum.json` read: 64 MiB (a series takes a few KB).
pub const ACCUM_LIMIT: u64 = 64 << 20;

/// What `accum.json` holds: the rows written, the run's counts, and the
/// statistics of each series (`S`, of the run's family).
#[derive(Serialize, Deserialize)]
pub struct Accum<S> {
    /// Which row files the run wrote.
    pub rows: Rows,
    /// Games written (errors included).
    pub games: u64,
    /// Games ended by an agent error.
    pub errors: u64,
    /// Hands played.
    pub hands: u64,
    /// Actions applied.
    pub actions: u64,
    /// The first error, as the report names it.
    pub first_error: Option<String>,
    /// The statistics of each series, closed.
    pub series: Vec<S>,
}

impl<S: Serialize + DeserializeOwned> Accum<S> {
    /// The accumulators of a finished run.
    pub fn of(rows: Rows, res: &RunResult, stats: Vec<S>) -> Accum<S> {
        Accum {
            rows,
            games: res.games,
            errors: res.errors,
            hands: res.hands,
            actions: res.actions,
            first_error: res.first_error.clone(),
            series: stats,
        }
    }

    /// Writes `DIR/accum.json`.
    pub fn write(&self, dir: &Path) -> Result<(), CliError> {
        let json = serde_json::to_string(self)
            .map_err(|e| CliError::Input(format!("internal: {ACCUM}: {e}")))?;
        let path = dir.join(ACCUM);
        std::fs::write(&path, json + "\n").map_err(|e| CliError::io("write", path.display(), e))
    }

    /// Reads `DIR/accum.json`, `None` when there is none (a run that wrote
    /// its rows).
    pub fn read(dir: &Path) -> Result<Option<Accum<S>>, CliError> {
        let path = dir.join(ACCUM);
        if !path.exists() {
            return Ok(None);
        }
        let shown = path.display().to_string();
        let text = crate::input::read_text(&shown, "accumulator", ACCUM_LIMIT)?;
        serde_json::from_str(&text).map(Some).map_err(|e| {
            CliError::Input(format!(
                "{shown}: not the accumulators kanaszta writes with --rows matches or none \
                 ({e}); rerun that shard, or merge shards that wrote their rows"
            ))
        })
    }
}
