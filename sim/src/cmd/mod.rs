//! One module per command: its options and what it does with them. `play`,
//! `tournament` and `sweep` build plans for the runner and share its
//! run layer (`run::family`).

pub mod agents;
pub mod aggregate;
pub mod apply;
pub mod bench;
pub mod check;
pub mod classic_pos;
pub mod demo;
pub mod human;
pub mod learn;
pub mod legal;
pub mod merge;
pub mod play;
pub mod plot;
pub mod ratings;
pub mod replay;
pub mod report;
pub mod rules;
pub mod score;
pub mod suite;
pub mod sweep;
pub mod tournament;
pub mod tune;

use crate::error::CliError;
use crate::input::Filter;
use kanaszta_agents::AgentSpec;
use std::process::ExitCode;

/// An agent spec, e.g. `ismcts:iters=500`.
pub fn parse_agent(text: &str) -> Result<AgentSpec, CliError> {
    Ok(text.parse::<AgentSpec>()?)
}

/// The conditions of `--where` (see [`Filter::parse`]).
pub fn parse_filters(items: &[String]) -> Result<Vec<Filter>, CliError> {
    items
        .iter()
        .map(|f| Filter::parse(f).map_err(|e| CliError::Input(e.to_string())))
        .collect()
}

/// Writes `text` to standard output (a closed pipe is a normal end).
pub fn print(text: &str) -> Result<ExitCode, CliError> {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    crate::error::quiet_pipe(o.write_all(text.as_bytes()).map_err(CliError::from))?;
    Ok(ExitCode::SUCCESS)
}
