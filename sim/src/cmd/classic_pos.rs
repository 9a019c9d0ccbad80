//! `legal`, `check`, `score` and `apply` on classic canasta positions
//! (sim/POSITIONS.md, "Classic canasta"): the family is read from the
//! position's `family` or `rules`, so no flag is needed.

use crate::error::CliError;
pub use crate::position::{
    describe, end_text, load, load_classic, load_text, phase_name, read, score_text, seat_name,
    with_seed, AnyPosition,
};
use crate::position::{stop_status, EXIT_ILLEGAL};
use kanaszta_engine::classic::{ClassicAction, ClassicState};
use std::fmt::Write as _;
use std::process::ExitCode;

fn parse(text: &str) -> Result<ClassicAction, CliError> {
    text.parse::<ClassicAction>()
        .map_err(|e| CliError::Input(e.to_string()))
}

/// `legal`: the legal actions in classic notation.
pub fn legal(g: &ClassicState) -> Result<ExitCode, CliError> {
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

/// `check`: exit 0 when legal, 3 when illegal (naming the rule).
pub fn check(g: &ClassicState, action: &str) -> Result<ExitCode, CliError> {
    let a = parse(action)?;
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

/// `score`.
pub fn score(g: &ClassicState) -> Result<ExitCode, CliError> {
    super::print(&score_text(g))
}

/// `apply`: every action in order; the position after them (and the
/// score when the hand ended); exit 3 at the first illegal one.
pub fn apply(
    mut g: ClassicState,
    actions: &[String],
    each: bool,
    save: Option<&std::path::Path>,
) -> Result<ExitCode, CliError> {
    let n = actions.len();
    let parsed = actions
        .iter()
        .enumerate()
        .map(|(i, t)| {
            parse(t).map_err(|e| {
                let hint = if t.split_whitespace().count() == 1 && n > 1 {
                    "; each action is one argument: quote one with counts, e.g. \"lay K 3 0 0\""
                } else {
                    ""
                };
                CliError::Input(format!("action {} of {n} `{t}`: {e}{hint}", i + 1))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = String::new();
    let mut err = String::new();
    let mut illegal = None;
    for (i, &act) in parsed.iter().enumerate() {
        let before = g.clone();
        if let Err(e) = g.apply(act) {
            illegal = Some((i, act, e));
            break;
        }
        let _ = writeln!(err, "{}/{n} {act}: {}", i + 1, describe(&before, &g, act));
        if each {
            out.push_str(&g.to_position_json());
        }
    }
    if !each || out.is_empty() {
        out.push_str(&g.to_position_json());
    }
    if let Some(path) = save {
        std::fs::write(path, g.to_position_json())
            .map_err(|e| CliError::io("write", path.display(), e))?;
    }
    if g.is_terminal() {
        out.push('\n');
        out.push_str(&score_text(&g));
    }
    let code = stop_status(&mut err, n, illegal);
    eprint!("{err}");
    super::print(&out)?;
    Ok(code)
}
