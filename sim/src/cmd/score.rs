//! `kanaszta score`: the scoring breakdown of a position's hand.

use super::classic_pos::{self, AnyPosition};
use crate::error::{quiet_pipe, CliError};
use clap::Args;
use kanaszta_engine::{tax, GameState};
use std::io::Write;
use std::process::ExitCode;

/// Options of `kanaszta score`.
#[derive(Args, Debug, Clone)]
pub struct ScoreArgs {
    /// The position file (`-`: standard input), in the position format of
    /// sim/POSITIONS.md.
    position: String,
}

/// Runs `kanaszta score`.
pub fn run(a: ScoreArgs) -> Result<ExitCode, CliError> {
    let g = match classic_pos::load(&a.position)? {
        AnyPosition::Classic(g) => return classic_pos::score(&g),
        AnyPosition::Decorated(g) => *g,
    };
    let mut out = std::io::stdout().lock();
    quiet_pipe(score(&mut out, &g))?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn score(out: &mut impl Write, g: &GameState) -> Result<(), CliError> {
    if !g.is_terminal() {
        writeln!(
            out,
            "the hand is not over: scores as if it ended now, nobody going out"
        )?;
    }
    writeln!(
        out,
        "player,red_threes,twins,canastas,heart_aces,going_out,from_hand,cleared_table,base,melded,in_hand,card_value,raw,total_before,taxed"
    )?;
    for (p, s) in g.scores().iter().enumerate() {
        let before = g.totals()[p];
        writeln!(
            out,
            "{p},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points,
            s.base,
            s.melded,
            s.in_hand,
            s.card_value,
            s.total,
            before,
            tax(s.total, before, g.rules())
        )?;
    }
    Ok(())
}
