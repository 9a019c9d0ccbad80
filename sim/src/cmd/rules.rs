//! `kanaszta rules`: the rule switches, their values and what each accepts.

use crate::error::CliError;
use crate::rules_doc;
use crate::run::family::{with_family, FamilyBody, RunFamily};
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
    with_family(&a.rules, Settings)
}

/// The switches of the rules, `key=value` first, as `--set` takes it,
/// then what the switch accepts.
struct Settings;

impl FamilyBody for Settings {
    type Out = ExitCode;

    fn body<F: RunFamily>(self, rules: F::Rules) -> Result<ExitCode, CliError> {
        let mut text = String::new();
        let settings = F::settings(&rules);
        let w = settings
            .iter()
            .map(|(k, v)| k.len() + v.len() + 1)
            .max()
            .unwrap_or(0);
        for (k, v) in &settings {
            let kv = format!("{k}={v}");
            match F::accepted(k) {
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
}
