//! `kanaszta score`: the scoring breakdown of a position's hand.

use super::classic_pos::{self, AnyPosition};
use crate::error::{quiet_pipe, CliError};
use clap::Args;
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
    quiet_pipe(crate::position::write_score(&mut out, &g))?;
    Ok(ExitCode::SUCCESS)
}
