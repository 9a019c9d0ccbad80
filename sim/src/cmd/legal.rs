//! `kanaszta legal`: the legal actions of a position.

use super::classic_pos::{self, AnyPosition};
use crate::error::CliError;
use clap::Args;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Options of `kanaszta legal`.
#[derive(Args, Debug, Clone)]
pub struct LegalArgs {
    /// The position file (`-`: standard input), in the position format of
    /// sim/POSITIONS.md.
    position: String,
}

/// Runs `kanaszta legal`.
pub fn run(a: LegalArgs) -> Result<ExitCode, CliError> {
    let g = match classic_pos::load(&a.position)? {
        AnyPosition::Classic(g) => return classic_pos::legal(&g),
        AnyPosition::Decorated(g) => *g,
    };
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut text = String::new();
    if g.is_terminal() {
        text.push_str("the hand is over: no legal action\n");
    }
    for a in &legal {
        let _ = writeln!(text, "{a}");
    }
    super::print(&text)
}
