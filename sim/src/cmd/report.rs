//! `kanaszta report DIR --html FILE`: a run directory drawn as one
//! self-contained page (its summary with intervals, how hands ended, match
//! lengths and tax paid, the run's command and seed; see [`crate::html::run`]).

use crate::error::CliError;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kanaszta report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// The run directory (the --out of play, tournament, sweep or merge).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The page to write.
    #[arg(long, value_name = "FILE")]
    html: PathBuf,
}

/// Runs `kanaszta report`.
pub fn run(args: ReportArgs) -> Result<ExitCode, CliError> {
    let data = crate::html::run::data(&args.dir)?;
    let title = format!("run {}", args.dir.display());
    crate::html::write(
        &args.html,
        &crate::html::page(crate::html::PageKind::Run, &title, &data),
    )?;
    eprintln!("kanaszta: wrote {}", args.html.display());
    Ok(ExitCode::SUCCESS)
}
