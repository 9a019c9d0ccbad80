//! `kanaszta agents`: every agent with its parameters, then the classic
//! canasta players, then the rule families each agent plays.

use crate::error::CliError;
use kanaszta_agents::AgentSpec;
use std::process::ExitCode;

/// Runs `kanaszta agents`.
pub fn run() -> Result<ExitCode, CliError> {
    super::print(&AgentSpec::help())
}
