//! `kanaszta replay` (alias `show`): one game of a run, move by move, for a
//! person, of either family ([`show::replay`]): the game is played again
//! as the run played it and printed hand by hand; or a saved log of a
//! hand (decorated or classic) is printed.

use crate::error::{quiet_pipe, CliError};
use crate::run::family::{family_rules, Classic, Decorated, FamilyRules};
use crate::run::options::whole;
use crate::run::options::RulesArgs;
use crate::run::{family_of_run, run_family, Mode};
use crate::show::{self, Pick, PlayFlags, Show};
use clap::Args;
use kanaszta_engine::{Family, GameLog};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kanaszta replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// A run directory: take agents, seed, mode and rules from its run.json.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["a", "b", "seed", "unit", "is_match", "unpaired", "log"])]
    run: Option<PathBuf>,
    /// The game index (the `game` column).
    #[arg(long, default_value_t = 0, value_name = "G", allow_negative_numbers = true, value_parser = whole::<u64>)]
    game: u64,
    /// The series of a tournament or sweep (the `series` column).
    #[arg(long, default_value_t = 0, value_name = "K", allow_negative_numbers = true, value_parser = whole::<u32>)]
    series: u32,
    /// In a match, only this hand (the `hand` column); default every hand.
    #[arg(long, value_name = "H", allow_negative_numbers = true, value_parser = whole::<u32>)]
    hand: Option<u32>,
    /// Agent A (without --run).
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B (without --run).
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// The run's master seed (without --run).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// What the run's games were (without --run): `hands` (the default) or
    /// `matches` (the run used `--matches N`), as run.json's `mode` and
    /// `ratings --unit` name them.
    #[arg(long, value_name = "hands|matches", value_parser = parse_unit)]
    unit: Option<Mode>,
    /// Old spelling of `--unit matches`.
    #[arg(long = "match", id = "is_match", hide = true, conflicts_with = "unit")]
    is_match: bool,
    /// The run used --unpaired.
    #[arg(long)]
    unpaired: bool,
    /// Print a saved game log (JSON, as written by --save-log, of either
    /// family) instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "series", "hand"])]
    log: Option<PathBuf>,
    /// Also save the (last printed) hand's game log as JSON.
    #[arg(long, value_name = "FILE")]
    save_log: Option<PathBuf>,
    /// Draw the game as one self-contained HTML page in FILE instead of
    /// printing it: cards, hands, pile, tables, score, step by step
    /// (docs/PICTURES.md).
    #[arg(long, value_name = "FILE", conflicts_with = "save_log")]
    html: Option<PathBuf>,
    /// With --html: the page first shows only this seat's hand (the others
    /// face down); default every hand.
    #[arg(long, value_name = "P", requires = "html", allow_negative_numbers = true, value_parser = whole::<u32>)]
    seat: Option<u32>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// `--unit`: hands or matches.
fn parse_unit(s: &str) -> Result<Mode, crate::run::BadMode> {
    Mode::parse(s.trim())
}

/// Runs `kanaszta replay`.
pub fn run(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let args = &args;
    if let Some(path) = &args.log {
        let text = crate::input::read_text(
            &path.display().to_string(),
            "game log",
            crate::input::JSON_LIMIT,
        )?;
        if show::classic::is_classic_log(&text) {
            let hand = show::classic::load_log(path, &text)?;
            if let Some(page) = &args.html {
                return show::classic::write_log_html(page, path, &hand, args.seat);
            }
            let mut out = std::io::stdout().lock();
            quiet_pipe(show::classic::print_log(&mut out, path, &hand))?;
            return Ok(ExitCode::SUCCESS);
        }
        let log = GameLog::from_json(&text).map_err(|e| CliError::Log {
            path: path.display().to_string(),
            source: e,
        })?;
        if let Some(page) = &args.html {
            let labels: Vec<String> = (0..log.initial().players())
                .map(|p| format!("P{p}"))
                .collect();
            let hand = crate::html::decorated::HandData {
                log: &log,
                notes: &[],
                error: None,
            };
            let title = format!("game log {}", path.display());
            return crate::html::decorated::write_replay(
                page,
                &title,
                &labels,
                args.seat,
                &[hand],
                true,
            );
        }
        let mut out = std::io::stdout().lock();
        quiet_pipe(show::decorated::print_log(&mut out, path, &log))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.run {
        let family = run_family(dir).ok().flatten();
        return match family_of_run(family.as_deref()) {
            Some(Family::Classic) => from_run::<Classic>(dir, args),
            // The decorated reader says what is wrong with the directory.
            _ => from_run::<Decorated>(dir, args),
        };
    }
    match family_rules(&args.rules)? {
        FamilyRules::Decorated(r) => from_flags::<Decorated>(args, r),
        FamilyRules::Classic(r) => from_flags::<Classic>(args, r),
    }
}

/// Replays the game `args` pick of the run in `dir`.
fn from_run<F: Show>(dir: &Path, args: &ReplayArgs) -> Result<ExitCode, CliError> {
    let src = F::from_run(dir, args.series)?;
    show::replay::<F>(&src, &pick(args))
}

/// Replays game `--game` of `play` with `args`' agents and seed under
/// `rules`.
fn from_flags<F: Show>(args: &ReplayArgs, rules: F::Rules) -> Result<ExitCode, CliError> {
    let flags = PlayFlags {
        a: &args.a,
        b: &args.b,
        seed: args.seed,
        mode: unit(args),
        paired: !args.unpaired,
        game: args.game,
    };
    let src = F::from_flags(&flags, rules)?;
    show::replay::<F>(&src, &pick(args))
}

/// The game, series and hand `args` pick.
fn pick(args: &ReplayArgs) -> Pick {
    Pick {
        game: args.game,
        series: args.series,
        hand: args.hand,
        save_log: args.save_log.clone(),
        html: args.html.clone(),
        seat: args.seat,
    }
}

/// What the run's games were, by `--unit` or the old `--match`.
fn unit(args: &ReplayArgs) -> Mode {
    match (args.unit, args.is_match) {
        (Some(m), _) => m,
        (None, true) => Mode::Matches,
        (None, false) => Mode::Hands,
    }
}
