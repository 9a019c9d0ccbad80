//! `kanaszta demo`: one seeded hand between two agents (random ones by
//! default), printed move by move and scored item by item, as `replay`
//! prints a hand of a run. With more than two players (`--set players=N`,
//! 2 to 6, D-2.1) each plays alone: agent A holds the even seats and B the
//! odd ones.
//!
//! Under `--rules classic-…` the hand is classic canasta's (2 to 6
//! players, partnerships with four, C-20), game 0 of a `play` run of the
//! same rules, sides and seed, printed as `replay` prints it.

use crate::error::CliError;
use crate::run::family::{family_rules, Classic, Decorated, FamilyRules};
use crate::run::options::RulesArgs;
use crate::show;
use clap::Args;
use std::process::ExitCode;

/// Options of `kanaszta demo`.
#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Seed of the deal and of the agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The agent in seat 0 (see `kanaszta agents`), e.g. rules, greedy;
    /// with more players, in every even seat. Classic canasta: a side, one
    /// spec or one per seat of the side joined by `+` (rules+greedy).
    #[arg(long, default_value = "random", value_name = "AGENT")]
    a: String,
    /// The agent in seat 1; with more players, in every odd seat.
    #[arg(long, default_value = "random", value_name = "AGENT")]
    b: String,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta demo`: the hand of the family `--rules` names, printed
/// by [`show::demo`].
pub fn run(d: DemoArgs) -> Result<ExitCode, CliError> {
    match family_rules(&d.rules)? {
        FamilyRules::Decorated(r) => show::demo::<Decorated>(r, &d.a, &d.b, d.seed),
        FamilyRules::Classic(r) => show::demo::<Classic>(r, &d.a, &d.b, d.seed),
    }
}
