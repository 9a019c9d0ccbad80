//! A game of either rule family shown move by move for a person: the game
//! played again as a run played it (or a demo's seeded hand), then each
//! hand printed with its turns, tables, pile, end and score. [`Show`] is
//! what a family gives ([`decorated`], [`classic`]); [`replay`] and
//! [`demo`] print over it, once for both.

pub mod classic;
pub mod decorated;

use crate::error::{quiet_pipe, CliError};
use crate::run::family::RunFamily;
use crate::run::Mode;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Which game of a run to show.
pub struct Pick {
    /// The game index (the `game` column).
    pub game: u64,
    /// The series of a tournament or sweep (the `series` column).
    pub series: u32,
    /// In a match, only this hand; else every hand.
    pub hand: Option<u32>,
    /// Also save the last printed hand's game log here.
    pub save_log: Option<PathBuf>,
    /// Draw the game as a page in this file instead of printing it.
    pub html: Option<PathBuf>,
    /// The seat whose view the page first shows (`None`: every hand).
    pub seat: Option<u32>,
}

/// What `kanaszta play` was given, for a game replayed without its run
/// directory.
pub struct PlayFlags<'a> {
    /// Side A's spec.
    pub a: &'a str,
    /// Side B's spec.
    pub b: &'a str,
    /// The run's master seed.
    pub seed: u64,
    /// Hands or matches.
    pub mode: Mode,
    /// Each deal played twice, seats swapped.
    pub paired: bool,
    /// The game to be replayed (the run holds the games up to it).
    pub game: u64,
}

/// A game played again, to print: the lines before its hands, its hands,
/// and each seat's label.
pub struct Shown<H> {
    /// The heading, whole lines.
    pub header: String,
    /// The hands in play order (one in mode hands).
    pub hands: Vec<H>,
    /// The seats' labels (decorated canasta: the agents' names).
    pub labels: Vec<String>,
    /// The hands are a match's (each headed by the running totals).
    pub matches: bool,
}

/// How a hand is printed: by `replay`, or by `demo` (which also shows a
/// mover's hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A game of a run.
    Replay,
    /// A demo's hand.
    Demo,
}

/// What showing a game needs of a family.
pub trait Show: RunFamily {
    /// A run to replay a game of, read and checked.
    type Source;
    /// One hand as played, with what printing it needs.
    type Hand;

    /// Series `series` of the run in `dir`.
    fn from_run(dir: &Path, series: u32) -> Result<Self::Source, CliError>;
    /// The run `kanaszta play` with `flags` under `rules` writes.
    fn from_flags(flags: &PlayFlags<'_>, rules: Self::Rules) -> Result<Self::Source, CliError>;
    /// Checks `pick` against the run and plays its game again.
    fn replay(src: &Self::Source, pick: &Pick) -> Result<Shown<Self::Hand>, CliError>;
    /// The seeded hand of sides `a` and `b` under `rules`.
    fn demo(rules: Self::Rules, a: &str, b: &str, seed: u64)
        -> Result<Shown<Self::Hand>, CliError>;
    /// The running totals before a hand of a match.
    fn totals(hand: &Self::Hand) -> String;
    /// Prints a hand.
    fn print_hand(
        out: &mut dyn Write,
        hand: &Self::Hand,
        labels: &[String],
        style: Style,
        matches: bool,
    ) -> Result<(), CliError>;
    /// Saves a hand's game log as JSON to `path`.
    fn save_log(hand: &Self::Hand, path: &Path) -> Result<(), CliError>;
    /// Draws `hands` of the game `shown` as one page in `path`
    /// (`replay --html`), `seat`'s view first if given.
    fn write_html(
        path: &Path,
        title: &str,
        shown: &Shown<Self::Hand>,
        hands: &[&Self::Hand],
        seat: Option<u32>,
    ) -> Result<ExitCode, CliError>;
}

/// Prints game `pick` of `src` (every hand, or the one picked), and saves
/// the last printed hand's log if asked.
pub fn replay<F: Show>(src: &F::Source, pick: &Pick) -> Result<ExitCode, CliError> {
    let shown = F::replay(src, pick)?;
    if let Some(path) = &pick.html {
        let hands: Vec<&F::Hand> = shown
            .hands
            .iter()
            .enumerate()
            .filter(|(i, _)| pick.hand.is_none_or(|h| h as usize == *i))
            .map(|(_, h)| h)
            .collect();
        // The heading's first line, without the seating after its colon.
        let first = shown.header.lines().next().unwrap_or_default();
        let title = first.rsplit_once(": ").map_or(first, |(t, _)| t);
        return F::write_html(path, title, &shown, &hands, pick.seat);
    }
    let mut out = std::io::stdout().lock();
    let mut last = None;
    quiet_pipe((|| -> Result<(), CliError> {
        write!(out, "{}", shown.header)?;
        for (i, h) in shown.hands.iter().enumerate() {
            if pick.hand.is_some_and(|x| x as usize != i) {
                continue;
            }
            if shown.matches {
                writeln!(out, "\n== hand {i}: totals {}", F::totals(h))?;
            }
            F::print_hand(&mut out, h, &shown.labels, Style::Replay, shown.matches)?;
            last = Some(h);
        }
        Ok(())
    })())?;
    if let (Some(path), Some(h)) = (&pick.save_log, last) {
        F::save_log(h, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays and prints the seeded hand of sides `a` and `b` under `rules`.
pub fn demo<F: Show>(rules: F::Rules, a: &str, b: &str, seed: u64) -> Result<ExitCode, CliError> {
    let shown = F::demo(rules, a, b, seed)?;
    let mut out = std::io::stdout().lock();
    quiet_pipe((|| -> Result<(), CliError> {
        write!(out, "{}", shown.header)?;
        for h in &shown.hands {
            F::print_hand(&mut out, h, &shown.labels, Style::Demo, false)?;
        }
        Ok(())
    })())?;
    Ok(ExitCode::SUCCESS)
}
