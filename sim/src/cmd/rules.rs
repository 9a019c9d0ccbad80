//! `kanaszta rules`: the rule switches, their values and what each accepts.

use crate::error::CliError;
use crate::rules_doc;
use crate::run::options::RulesArgs;
use clap::Args;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Options of `kanaszta rules`.
#[derive(Args, Debug, Clone)]
pub struct RulesCmdArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Print the text of one rule instead (an identifier such as D-6.3,
    /// I-32 or C-18, or a section such as D-6), from the rules reference
    /// docs/RULES.md (repeatable).
    #[arg(long, value_name = "ID")]
    explain: Vec<String>,
}

/// Runs `kanaszta rules`.
pub fn run(a: RulesCmdArgs) -> Result<ExitCode, CliError> {
    if !a.explain.is_empty() {
        let mut text = String::new();
        for id in &a.explain {
            let id = id.trim().to_ascii_uppercase();
            let rule =
                rules_doc::explain(&id).ok_or_else(|| CliError::Input(rules_doc::unknown(&id)))?;
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = writeln!(text, "{rule}");
        }
        return super::print(&text);
    }
    eprintln!(
        "every rule named here: {}; `kanaszta rules --explain ID` prints one",
        rules_doc::RULES_PATH
    );
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
