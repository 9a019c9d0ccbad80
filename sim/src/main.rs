//! `kanaszta`: the command-line front end of the toolkit. Thin: it parses
//! the clap options (`kanaszta::cli`) and dispatches to one module per
//! command (`kanaszta::cmd`), which turns them into a validated plan or
//! input; the library's modules do the work.

use clap::Parser;
use kanaszta::cli::{Cli, Command};
use kanaszta::error::{self, CliError};
use kanaszta::{cmd, rules_doc};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic inside a game is caught and recorded in errors.csv; one line
    // on stderr says so instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("kanaszta: internal error: {info}");
    }));
    let cli = match Cli::try_parse_from(with_default_command(std::env::args_os().collect())) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // Usage errors are bad input like any other: status 1.
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            let message = error::clip_quotes(&e.to_string());
            eprintln!("kanaszta: {message}");
            if let Some(hint) = rules_doc::see_also(&message) {
                eprintln!("{hint}");
            }
            ExitCode::from(1)
        }
    }
}

/// The arguments with `play` put in front of options given without a
/// command (`kanaszta --hands 100`), since `play` is the default command;
/// `--help` and `--version` stay the whole tool's.
fn with_default_command(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let first = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    let own = ["-h", "--help", "-V", "--version"];
    if first.starts_with('-') && !own.contains(&first) {
        args.insert(1, "play".into());
    }
    args
}

/// Runs the command (`play` when none is given).
fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let command = match cli.command {
        Some(c) => c,
        None => match Cli::try_parse_from(["kanaszta", "play"]) {
            Ok(Cli {
                command: Some(c), ..
            }) => c,
            _ => {
                return Err(CliError::Input(
                    "internal: the default command did not parse".into(),
                ))
            }
        },
    };
    match command {
        Command::Play(a) => cmd::play::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Sweep(a) => cmd::sweep::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Ratings(a) => cmd::ratings::run(a),
        Command::Bench(a) if a.suite => cmd::suite::run(a.quick, a.seed, &a.append),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Agents => cmd::agents::run(),
        Command::Aggregate(a) => cmd::aggregate::run(a),
        Command::Plot(a) => cmd::plot::run(a),
        Command::Demo(a) => cmd::demo::run(a),
        Command::Human(a) => cmd::human::run(a),
        Command::Legal(a) => cmd::legal::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Score(a) => cmd::score::run(a),
        Command::Apply(a) => cmd::apply::run(a),
        Command::Rules(a) => cmd::rules::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Learn(a) => cmd::learn::run(a),
    }
}
