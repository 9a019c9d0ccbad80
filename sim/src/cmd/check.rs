//! `kanaszta check`: is an action legal in a position, and if not which
//! rule forbids it.

use super::classic_pos::{self, AnyPosition};
use crate::error::CliError;
use clap::Args;
use kanaszta_engine::Action;
use std::process::ExitCode;

/// Exit status of `check` when the action is illegal.
const EXIT_ILLEGAL: u8 = 3;

/// Options of `kanaszta check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The position file (`-`: standard input), in the position format of
    /// sim/POSITIONS.md.
    position: String,
    /// The action in text notation, e.g. "take" or "lay 8D 8S 2C".
    action: String,
}

/// Runs `kanaszta check`: exit 0 when legal, 3 when illegal.
pub fn run(c: CheckArgs) -> Result<ExitCode, CliError> {
    let g = match classic_pos::load(&c.position)? {
        AnyPosition::Classic(g) => return classic_pos::check(&g, &c.action),
        AnyPosition::Decorated(g) => *g,
    };
    let a: Action = c
        .action
        .parse()
        .map_err(|e| CliError::Input(format!("{e}")))?;
    let mut t = g.clone();
    match t.apply(a) {
        Ok(()) => {
            println!("legal: {a}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("illegal: {a}: {e}");
            if let Some(hint) = crate::rules_doc::see_also(&e.to_string()) {
                eprintln!("{hint}");
            }
            Ok(ExitCode::from(EXIT_ILLEGAL))
        }
    }
}
