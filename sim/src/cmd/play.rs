//! `kanaszta play`: agent A against agent B; and the running and report of
//! a plan, shared with `tournament` and `sweep`.

use super::parse_agent;
use crate::classic::{ClassicPlan, ClassicSink, ClassicStats};
use crate::cli::RunArgs;
use crate::error::{quiet_pipe, CliError};
use crate::lock::RunLock;
use crate::runner::{self, CsvFile, Outputs, Plan, SeriesSpec};
use crate::signals;
use crate::{report, EXIT_GAME_ERRORS};
use clap::Args;
use kanaszta_agents::classic::registry::{ClassicSpec, ClassicSpecError};
use kanaszta_engine::classic::ClassicRules;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Options of `kanaszta play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Agent A (see `kanaszta agents`), e.g. rules, greedy, ismcts:iters=500.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `kanaszta play`.
pub fn run(p: PlayArgs) -> Result<ExitCode, CliError> {
    if let Some(rules) = p.run.rules.classic()? {
        return run_classic(&p, rules);
    }
    let a = parse_agent(&p.a)?.to_string();
    let b = parse_agent(&p.b)?.to_string();
    let rules = p.run.rules.build()?;
    let series = vec![SeriesSpec {
        a: a.clone(),
        b: b.clone(),
        settings: String::new(),
        rules,
    }];
    let plan = p.run.plan("play", vec![a, b], series, 10_000)?;
    run_plan(plan, &p.run)
}

/// Runs a plan into `dir` and prints the report; exit 2 if games erred.
pub fn run_plan(plan: Plan, args: &RunArgs) -> Result<ExitCode, CliError> {
    let _lock = RunLock::acquire(&args.out)?;
    signals::install()?;
    let m = &plan.manifest;
    if m.paired && m.games % 2 == 1 {
        let deals = m.games / 2;
        eprintln!(
            "kanaszta: warning: --{} {} is odd: with paired seats {deals} {} played twice with \
             the seats swapped, and the last game (deal {deals}) only once, unpaired, so its \
             luck does not cancel; give an even number to pair every deal, or --unpaired",
            m.mode,
            m.games,
            if deals == 1 { "deal is" } else { "deals are" },
        );
    }
    if let Some(note) = &plan.manifest.reproducible_note {
        eprintln!(
            "kanaszta: warning: this run is not reproducible: {note}; run.json says \
             \"reproducible\": false, and `kanaszta replay` may show other games than the rows"
        );
    }
    let outputs = Outputs::create(&args.out, &plan.manifest, plan.mode)?;
    let res = runner::execute(&plan, args.threads, Some(outputs), args.quiet)?;
    let mut manifest = plan.manifest.clone();
    if res.stopped.is_some() {
        // What the directory holds: the first games_done games, whole.
        manifest.complete = Some(false);
        manifest.games_done = Some(res.games);
        manifest.write(&args.out)?;
    }
    let text = report::report(Some(&args.out), &manifest, &res.stats)?;
    finish(&text, &res, &args.out)
}

/// A rate with three significant digits for slow agents (0.145, 2.31)
/// and whole numbers from 100 on.
pub fn rate_text(r: f64) -> String {
    let decimals = if r >= 100.0 {
        0
    } else if r >= 10.0 {
        1
    } else if r >= 1.0 {
        2
    } else {
        3
    };
    format!("{r:.decimals$}")
}

/// A classic agent spec (`--a`, `--b` under classic rules).
pub fn parse_classic_agent(text: &str) -> Result<ClassicSpec, CliError> {
    text.parse()
        .map_err(|e: ClassicSpecError| CliError::Input(e.to_string()))
}

/// `kanaszta play --rules classic-…`: the classic path of the runner, into
/// the same files (hands.csv, matches.csv, errors.csv, summary.csv,
/// run.json) with classic columns.
fn run_classic(p: &PlayArgs, rules: ClassicRules) -> Result<ExitCode, CliError> {
    let specs = [parse_classic_agent(&p.a)?, parse_classic_agent(&p.b)?];
    let (mode, games, seed, paired) = p.run.classic_run(10_000)?;
    let plan = ClassicPlan::new(rules, specs, mode, games, seed, paired)?;
    let dir = &p.run.out;
    let _lock = RunLock::acquire(dir)?;
    signals::install()?;
    if paired && games % 2 == 1 {
        eprintln!(
            "kanaszta: warning: --{mode} {games} is odd: with paired seats the last game is \
             played only once, unpaired; give an even number to pair every deal, or --unpaired"
        );
    }
    runner::prepare_run_dir(dir)?;
    let (version, commit, dirty) = runner::build_info();
    let mut manifest = serde_json::json!({
        "command": "play",
        "family": "classic",
        "seed": seed,
        "mode": mode.name(),
        "games": games,
        "paired": paired,
        "agents": plan.names,
        "rules": rules.settings().into_iter().map(|(k, v)| (k.to_string(), v)).collect::<std::collections::BTreeMap<_, _>>(),
        "version": version,
        "commit": commit,
        "dirty": dirty,
    });
    write_json(dir, &manifest)?;
    let mut stats = plan.new_stats();
    let mut sink = ClassicSink::files(&mut stats, dir, mode)?;
    let res = plan.execute(p.run.threads, &mut sink, p.run.quiet)?;
    stats.finish();
    if res.stopped.is_some() {
        manifest["complete"] = false.into();
        manifest["games_done"] = res.games.into();
        write_json(dir, &manifest)?;
    }
    let mut summary = CsvFile::create(
        &dir.join("summary.csv"),
        &ClassicStats::columns()
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>(),
    )?;
    for i in 0..2 {
        summary.row(stats.cells(i))?;
    }
    summary.flush()?;
    let mut text = format!(
        "{} vs {} under {}: {games} {mode}, {}, seed {seed}\n",
        plan.names[0],
        plan.names[1],
        rules.preset,
        if paired { "paired seats" } else { "unpaired" },
    );
    stats.table(
        &mut text,
        &crate::classic::seating_text(rules.players as usize, &plan.names),
    );
    finish(&text, &res, dir)
}

fn write_json(dir: &Path, v: &serde_json::Value) -> Result<(), CliError> {
    let json = serde_json::to_string_pretty(v)
        .map_err(|e| CliError::Input(format!("internal: run.json: {e}")))?;
    let path = dir.join("run.json");
    std::fs::write(&path, json + "\n").map_err(|e| CliError::io("write", path.display(), e))
}

fn finish(text: &str, res: &runner::RunResult, dir: &Path) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    let r = (|| -> Result<(), CliError> {
        write!(out, "{text}")?;
        writeln!(
            out,
            "{} games, {} hands, {} actions in {:.1} s ({} hands/s); CSVs in {}",
            res.games,
            res.hands,
            res.actions,
            res.seconds,
            rate_text(res.hands as f64 / res.seconds.max(1e-9)),
            dir.display()
        )?;
        Ok(())
    })();
    quiet_pipe(r)?;
    if let Some(sig) = res.stopped {
        let command: Vec<String> = std::env::args().collect();
        eprintln!(
            "kanaszta: stopped by {} after {} of {} games: {} holds their rows and summary.csv \
             covers them; run.json says \"complete\": false, \"games_done\": {}. \
             To play the whole run, run `{}` again (the games are the same); \
             `kanaszta merge {} --out NEW` re-summarizes what is there",
            signals::name(sig),
            res.games,
            res.total,
            dir.display(),
            res.games,
            command.join(" "),
            dir.display()
        );
        return Ok(ExitCode::from(signals::exit_status(sig)));
    }
    if res.errors > 0 {
        eprintln!(
            "kanaszta: {} games ended by an agent error (see {}); first: {}",
            res.errors,
            dir.join("errors.csv").display(),
            res.first_error.as_deref().unwrap_or("")
        );
        return Ok(ExitCode::from(EXIT_GAME_ERRORS));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    /// A run of a search agent at 0.14 hands/s must not report 0 hands/s.
    #[test]
    fn slow_rates_keep_their_digits() {
        assert_eq!(rate_text(0.1446), "0.145");
        assert_eq!(rate_text(2.314), "2.31");
        assert_eq!(rate_text(57.25), "57.2");
        assert_eq!(rate_text(6079.4), "6079");
    }
}
