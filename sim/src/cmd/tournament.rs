//! `kanaszta tournament`: every pair of agents on the same paired deals.

use crate::error::CliError;
use crate::run::family::{with_family, FamilyBody, RunFamily};
use crate::run::options::RunArgs;
use crate::run::SeriesSpec;
use clap::Args;
use std::process::ExitCode;

/// Options of `kanaszta tournament`.
#[derive(Args, Debug, Clone)]
pub struct TournamentArgs {
    /// The agents, comma-separated (`random,greedy,ismcts:iters=500,c=0.7`:
    /// a `key=value` item continues the agent before it) or --agents repeated.
    #[arg(long, required = true, value_name = "AGENT,AGENT,...")]
    agents: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `kanaszta tournament`.
pub fn run(t: TournamentArgs) -> Result<ExitCode, CliError> {
    with_family(&t.run.rules, &t)
}

impl FamilyBody for &TournamentArgs {
    type Out = ExitCode;

    /// Every pair on the same paired deals, at a table of the rules'
    /// players (the pair's A in the even seats, B in the odd).
    fn body<F: RunFamily>(self, rules: F::Rules) -> Result<ExitCode, CliError> {
        let agents = split_agents(&self.agents, F::agent)?;
        let mut series = Vec::new();
        for i in 0..agents.len() {
            for j in i + 1..agents.len() {
                series.push(SeriesSpec {
                    a: agents[i].clone(),
                    b: agents[j].clone(),
                    settings: String::new(),
                    rules: F::store(rules),
                });
            }
        }
        let plan = F::plan(&self.run, "tournament", agents, series, 2_000)?;
        F::run(plan, &self.run, None)
    }
}

/// Splits `random,ismcts:iters=500,c=0.7,greedy` into agent specs: an item
/// with `=` and no `:` is a parameter of the agent before it. `canon_of`
/// parses a spec into its canonical text.
fn split_agents(
    lists: &[String],
    canon_of: impl Fn(&str) -> Result<String, CliError>,
) -> Result<Vec<String>, CliError> {
    let mut out: Vec<String> = Vec::new();
    for list in lists {
        let mut here: Vec<String> = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match here.last_mut() {
                Some(prev) if item.contains('=') && !item.contains(':') => {
                    prev.push(',');
                    prev.push_str(item);
                }
                _ => here.push(item.to_string()),
            }
        }
        out.extend(here);
    }
    let mut canon: Vec<String> = Vec::new();
    for a in out {
        let c = canon_of(&a)?;
        if canon.contains(&c) {
            return Err(CliError::Input(format!(
                "agent `{c}` is listed twice in --agents; list each agent once"
            )));
        }
        canon.push(c);
    }
    if canon.len() < 2 {
        return Err(CliError::Input(format!(
            "a tournament needs at least two agents, got {}: e.g. --agents random,greedy,rules",
            canon.len()
        )));
    }
    Ok(canon)
}
