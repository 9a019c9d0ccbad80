//! `kanaszta rules`: the rule switches, their values and what each accepts.

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
    if let Some(rules) = a.rules.classic()? {
        let settings = rules.settings();
        let w = settings
            .iter()
            .map(|(k, v)| k.len() + v.len() + 1)
            .max()
            .unwrap_or(0);
        let mut text = String::new();
        for (k, v) in &settings {
            let kv = format!("{k}={v}");
            let acc = kanaszta_engine::classic::ClassicRules::accepted(k).unwrap_or_default();
            let _ = writeln!(text, "{kv:<w$}  accepted: {acc}");
        }
        return super::print(&text);
    }
    let rules = a.rules.build()?;
    let mut text = String::new();
    let settings = rules.settings();
    // `key=value` first, as `--set` takes it, then what the switch accepts.
    let w = settings
        .iter()
        .map(|(k, v)| k.len() + v.len() + 1)
        .max()
        .unwrap_or(0);
    for (k, v) in &settings {
        let kv = format!("{k}={v}");
        match kanaszta_engine::Rules::accepted(k) {
            Some(acc) => {
                let _ = writeln!(text, "{kv:<w$}  accepted: {acc}");
            }
            None => {
                let _ = writeln!(text, "{kv}");
            }
        }
    }
    super::print(&text)
}
