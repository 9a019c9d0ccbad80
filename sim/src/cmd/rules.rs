//! `kanaszta rules`: the rule switches and their values.

use crate::cli::RulesArgs;
use crate::error::CliError;
use clap::Args;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Options of `kanaszta rules`.
#[derive(Args, Debug, Clone)]
pub struct RulesCmdArgs {
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta rules`.
pub fn run(a: RulesCmdArgs) -> Result<ExitCode, CliError> {
    let rules = a.rules.build()?;
    let mut text = String::new();
    for (k, v) in rules.settings() {
        let _ = writeln!(text, "{k}={v}");
    }
    super::print(&text)
}
