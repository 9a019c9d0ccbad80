//! `kanaszta demo`: one seeded hand between two agents (random ones by
//! default), printed move by move and scored item by item, as `replay`
//! prints a hand of a run. With more than two players (`--set players=N`,
//! 2 to 6, D-2.1) each plays alone: agent A holds the even seats and B the
//! odd ones.
//!
//! Under `--rules classic-…` the hand is classic canasta's (2 to 6
//! players, partnerships with four, C-20), game 0 of a `play` run of the
//! same rules, sides and seed, printed as `replay` prints it.

use super::parse_agent;
use super::replay::{print_hand, recorders, HandPrint};
use crate::error::{quiet_pipe, CliError};
use crate::run::family::{family_rules, Classic, Decorated, FamilyRules, RunFamily};
use crate::run::options::RulesArgs;
use clap::Args;
use kanaszta_agents::{play_hand, seat_rng};
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::{GameLog, GameState, Rules};
use std::io::Write;
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

/// Runs `kanaszta demo`: the hand of the family `--rules` names.
pub fn run(d: DemoArgs) -> Result<ExitCode, CliError> {
    match family_rules(&d.rules)? {
        FamilyRules::Decorated(r) => Decorated::demo(r, &d),
        FamilyRules::Classic(r) => Classic::demo(r, &d),
    }
}

/// What `demo` needs of a family: its hand, played and printed.
trait DemoFamily: RunFamily {
    /// Plays the hand of `d` under `rules` and prints it.
    fn demo(rules: Self::Rules, d: &DemoArgs) -> Result<ExitCode, CliError>;
}

impl DemoFamily for Classic {
    fn demo(rules: ClassicRules, d: &DemoArgs) -> Result<ExitCode, CliError> {
        let specs = [
            super::play::parse_classic_side(&d.a)?,
            super::play::parse_classic_side(&d.b)?,
        ];
        super::classic_replay::demo(rules, specs, d.seed)
    }
}

impl DemoFamily for Decorated {
    fn demo(rules: Rules, d: &DemoArgs) -> Result<ExitCode, CliError> {
        let a = parse_agent(&d.a)?;
        let b = parse_agent(&d.b)?;
        let mut state = GameState::new(rules, d.seed);
        // One agent a seat, A in the even seats and B in the odd ones.
        let players = state.players();
        let seat = |p: usize| if p.is_multiple_of(2) { &a } else { &b };
        let names: Vec<String> = (0..players).map(|p| seat(p).to_string()).collect();
        let (mut agents, log, notes) = recorders((0..players).map(|p| seat(p).build()).collect());
        let first = GameLog::new(&state, d.seed);
        let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(d.seed, p)).collect();
        let r = play_hand(&mut state, &mut agents, &mut rngs);
        let hand = GameLog {
            actions: std::mem::take(&mut *log.borrow_mut()),
            ..first
        };
        let error = r.err().map(|e| e.to_string());
        quiet_pipe(demo(
            &mut std::io::stdout().lock(),
            &rules,
            d.seed,
            &names,
            &hand,
            &notes.borrow(),
            error.as_deref(),
        ))?;
        Ok(ExitCode::SUCCESS)
    }
}

fn demo(
    out: &mut impl Write,
    rules: &Rules,
    seed: u64,
    names: &[String],
    log: &GameLog,
    notes: &[(usize, String)],
    error: Option<&str>,
) -> Result<(), CliError> {
    let version = rules
        .settings()
        .into_iter()
        .find(|(k, _)| k == "version")
        .map(|(_, v)| v)
        .unwrap_or_default();
    let seats: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(p, n)| format!("P{p} {n}"))
        .collect();
    writeln!(
        out,
        "kanaszta demo: seed {seed}, {} players, {version}: {}",
        log.totals.len(),
        seats.join(", ")
    )?;
    let how = HandPrint {
        names: Some(names),
        show_hand: true,
        taxed: false,
        notes,
    };
    print_hand(out, log, &how, error)
}
