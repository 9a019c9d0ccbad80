//! `kanaszta demo`: one seeded hand between two random agents, printed
//! move by move.

use crate::cli::RulesArgs;
use crate::error::{quiet_pipe, CliError};
use clap::Args;
use kanaszta_agents::{Agent, RandomAgent};
use kanaszta_engine::{Action, CardSet, GameState, HandEnd, Rules};
use rand_pcg::Pcg64Mcg;
use std::io::Write;
use std::process::ExitCode;

/// Options of `kanaszta demo`.
#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Seed of the deal and of the agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta demo`.
pub fn run(d: DemoArgs) -> Result<ExitCode, CliError> {
    let rules = d.rules.build()?;
    quiet_pipe(demo(&mut std::io::stdout().lock(), rules, d.seed))?;
    Ok(ExitCode::SUCCESS)
}

fn demo(out: &mut impl Write, rules: Rules, seed: u64) -> Result<(), CliError> {
    let mut g = GameState::new(rules, seed);
    let n = g.players();
    let mut agents: Vec<RandomAgent> = (0..n).map(|_| RandomAgent::default()).collect();
    let mut rngs: Vec<Pcg64Mcg> = (0..n).map(|p| kanaszta_agents::seat_rng(seed, p)).collect();
    let version = rules
        .settings()
        .into_iter()
        .find(|(k, _)| k == "version")
        .map(|(_, v)| v)
        .unwrap_or_default();
    writeln!(
        out,
        "kanaszta demo: seed {seed}, {n} players, {version}, random agents, starter P{}",
        g.starter()
    )?;
    let cut = g.cut_cards();
    writeln!(out, "cut shows {} {} {}", cut[0], cut[1], cut[2])?;
    let mut buf = kanaszta_engine::MoveBuf::new();
    while !g.is_terminal() {
        let p = g.current_player();
        let view = g.view(p);
        let a = agents[p].act(&view, &mut g.moves(&mut buf), &mut rngs[p]);
        let before = g.hand(p);
        g.apply(a)
            .map_err(|e| CliError::Input(format!("agent of P{p} chose `{a}`: {e}")))?;
        let gained = g.hand(p).checked_sub(before).unwrap_or(CardSet::EMPTY);
        let extra = match a {
            Action::Draw | Action::FreePickup | Action::TakePile | Action::TakeRest => {
                format!("  (+{gained})")
            }
            Action::KeepCut { .. } => format!("  (P{p} holds {})", g.hand(p)),
            _ => String::new(),
        };
        writeln!(out, "turn {:>3}  P{p}  {a}{extra}", g.turns())?;
        if matches!(a, Action::Discard(_)) && !g.is_terminal() {
            let t = g.table(p);
            writeln!(
                out,
                "           P{p} hand [{}]  table: {} groups, {} canastas, {} red threes, {} twins",
                g.hand(p),
                t.len(),
                t.canastas(),
                t.red_threes.len(),
                t.twins
            )?;
        }
    }
    match g.end() {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => writeln!(
            out,
            "P{player} went out{}{}",
            if from_hand { " from hand" } else { "" },
            if cleared_table {
                ", clearing the table"
            } else {
                ""
            }
        )?,
        Some(HandEnd::Exhausted) => writeln!(out, "the hand is exhausted (stock and pile empty)")?,
        Some(HandEnd::Stalled) => writeln!(out, "the hand stalled at the turn cap")?,
        Some(HandEnd::Deadlocked) => writeln!(
            out,
            "the hand ended deadlocked: every player holds one card that can never go out (I-32)"
        )?,
        None => {}
    }
    for (p, s) in g.scores().iter().enumerate() {
        writeln!(
            out,
            "P{p}: base {} (red threes {}, twins {}, canastas {}, heart aces {}, going out {}) + cards {} (melded {}, in hand {}) = {}",
            s.base,
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points + s.from_hand_points + s.cleared_table_points,
            s.card_value,
            s.melded,
            s.in_hand,
            s.total
        )?;
    }
    Ok(())
}
