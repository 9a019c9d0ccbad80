//! SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal closed) during a
//! run, all three alike. The first signal stops the
//! dealing of new games: the games in play finish, the finished rows are
//! written, the summary covers them, run.json marks the run incomplete and
//! the command exits with 128 + the signal's number (130 for SIGINT, 143
//! for SIGTERM, 129 for SIGHUP). A second signal quits at once, removing the run's lock.
//! `tune` stops the same way between steps (see [`Notes::TUNE`]).
//!
//! `signal-hook` is used for its iterator: the handler is an ordinary
//! thread, which may print, remove files and exit, and which is told which
//! signal came (`ctrlc` does not say whether it was SIGINT or SIGTERM).

use crate::error::CliError;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// The first signal received (0: none).
static STOP: AtomicI32 = AtomicI32::new(0);

static INSTALLED: OnceLock<()> = OnceLock::new();

/// What the user is told at the first signal and at a second one: how the
/// command stops.
#[derive(Clone, Copy, Debug)]
pub struct Notes {
    /// After the first signal's name.
    pub first: &'static str,
    /// After "SIGNAL again: quitting at once; ".
    pub again: &'static str,
}

impl Notes {
    /// A run of games (`play`, `tournament`, `sweep`).
    pub const RUN: Notes = Notes {
        first: "no new games are dealt; the games in play finish and the rows so far are \
                summarized",
        again: "the whole rows written are kept but summary.csv is not written \
                (`kanaszta merge DIR --out NEW` summarizes them)",
    };
    /// `tune`: the step in play is dropped.
    pub const TUNE: Notes = Notes {
        first: "no new step is begun; the step in play is dropped and best.txt and run.json \
                are written from the steps finished",
        again: "trace.csv keeps the steps finished but best.txt and run.json are not written",
    };
}

/// The signal's name.
pub fn name(sig: i32) -> &'static str {
    match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "signal",
    }
}

/// The exit status of a run stopped by `sig`: 128 + its number.
pub fn exit_status(sig: i32) -> u8 {
    (128 + sig).clamp(1, 255) as u8
}

/// The signals that stop a command: Ctrl-C, `kill`, and the terminal
/// closing (a run started in a terminal that is then closed stops as it
/// does on Ctrl-C, not at once).
pub const STOPPING: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Handles SIGINT, SIGTERM and SIGHUP from now on (once per process), for a run
/// of games.
pub fn install() -> Result<(), CliError> {
    install_with(Notes::RUN)
}

/// [`install`], telling the user `notes` of how the command stops.
pub fn install_with(notes: Notes) -> Result<(), CliError> {
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new(STOPPING)
        .map_err(|e| CliError::Input(format!("cannot handle SIGINT, SIGTERM and SIGHUP: {e}")))?;
    let _ = INSTALLED.set(());
    std::thread::spawn(move || {
        for sig in signals.forever() {
            // The progress bar's line is cleared before anything is said.
            let clear = if std::io::stderr().is_terminal() {
                "\r\x1b[2K"
            } else {
                ""
            };
            if STOP
                .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                eprintln!(
                    "{clear}kanaszta: {}: {} ({} again to quit at once)",
                    name(sig),
                    notes.first,
                    if sig == SIGINT { "Ctrl-C" } else { "a signal" }
                );
            } else {
                crate::lock::release_all();
                eprintln!(
                    "{clear}kanaszta: {} again: quitting at once; {}",
                    name(sig),
                    notes.again
                );
                std::process::exit(exit_status(sig).into());
            }
        }
    });
    Ok(())
}

/// The signal that asked the run to stop, if one did.
pub fn stopped() -> Option<i32> {
    match STOP.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}
