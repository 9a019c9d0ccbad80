//! `kanaszta agents`: every agent with its parameters, then the classic
//! canasta players.

use crate::error::CliError;
use kanaszta_agents::classic::registry::ClassicSpec;
use kanaszta_agents::AgentSpec;
use std::process::ExitCode;

/// Runs `kanaszta agents`.
pub fn run() -> Result<ExitCode, CliError> {
    let mut text = AgentSpec::help();
    text.push('\n');
    text.push_str(&ClassicSpec::help());
    super::print(&text)
}
