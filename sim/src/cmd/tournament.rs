//! `kanaszta tournament`: every pair of agents on the same paired deals.

use super::parse_agent;
use super::play::run_plan;
use crate::cli::RunArgs;
use crate::error::CliError;
use crate::runner::SeriesSpec;
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
    let agents = split_agents(&t.agents)?;
    let rules = t.run.rules.build()?;
    let mut series = Vec::new();
    for i in 0..agents.len() {
        for j in i + 1..agents.len() {
            series.push(SeriesSpec {
                a: agents[i].clone(),
                b: agents[j].clone(),
                settings: String::new(),
                rules,
            });
        }
    }
    let plan = t.run.plan("tournament", agents, series, 2_000)?;
    run_plan(plan, &t.run)
}

/// Splits `random,ismcts:iters=500,c=0.7,greedy` into agent specs: an item
/// with `=` and no `:` is a parameter of the agent before it.
fn split_agents(lists: &[String]) -> Result<Vec<String>, CliError> {
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
        let c = parse_agent(&a)?.to_string();
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
