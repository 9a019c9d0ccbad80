//! `kanaszta bench`: hands/s and actions/s of two agents for chosen thread
//! counts, the median of repeated runs. The games are those of `play` (same
//! plan, same executor, no CSV); every measurement must apply the same
//! number of actions, or the run is not deterministic and the bench fails.

use super::parse_agent;
use crate::classic::{ClassicPlan, ClassicSink};
use crate::cli::RulesArgs;
use crate::error::CliError;
use crate::runner::{execute, Manifest, Mode, Plan, RunResult, SeriesSpec, Shard};
use clap::Args;
use kanaszta_agents::AgentSpec;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Options of `kanaszta bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Agent A.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// Hands per measurement.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    hands: u64,
    /// Thread counts to measure, comma-separated (0: one per core); the
    /// speedup is relative to the first.
    #[arg(long, default_value = "1,0", value_name = "T,T,...")]
    threads: String,
    /// Measurements per thread count; the median is reported.
    #[arg(long, default_value_t = 3, value_name = "R")]
    repeat: u32,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Machine-readable CSV on stdout.
    #[arg(long)]
    csv: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta bench`.
pub fn run(a: BenchArgs) -> Result<ExitCode, CliError> {
    if let Some(rules) = a.rules.classic()? {
        return bench_classic(&a, rules);
    }
    super::play::refuse_mixed_side("--a", &a.a)?;
    super::play::refuse_mixed_side("--b", &a.b)?;
    let options = Options {
        a: parse_agent(&a.a)?,
        b: parse_agent(&a.b)?,
        hands: a.hands,
        threads: &a.threads,
        repeat: a.repeat,
        seed: a.seed,
        csv: a.csv,
        rules: a.rules.build()?,
    };
    bench(&options)
}

/// The checked options of a benchmark.
struct Options<'a> {
    /// Agent A.
    pub a: AgentSpec,
    /// Agent B.
    pub b: AgentSpec,
    /// Hands per measurement.
    pub hands: u64,
    /// Thread counts, comma-separated (0: one per core).
    pub threads: &'a str,
    /// Measurements per thread count.
    pub repeat: u32,
    /// Master seed.
    pub seed: u64,
    /// CSV on stdout.
    pub csv: bool,
    /// The rules.
    pub rules: Rules,
}

fn parse_threads(text: &str) -> Result<Vec<usize>, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v: Vec<usize> = Vec::new();
    for t in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let n: usize = t.parse().map_err(|_| {
            format!("bad --threads `{text}`: expected thread counts like 1,2,4 (0: one per core)")
        })?;
        let n = if n == 0 { cores } else { n };
        if n > 1024 {
            return Err(format!("bad --threads `{text}`: at most 1024 threads"));
        }
        if !v.contains(&n) {
            v.push(n);
        }
    }
    if v.is_empty() {
        return Err(format!(
            "bad --threads `{text}`: expected thread counts like 1,2,4"
        ));
    }
    Ok(v)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs the benchmark and prints its table (or CSV).
fn bench(args: &Options) -> Result<ExitCode, CliError> {
    if args.hands == 0 {
        return Err(CliError::Input("--hands must be at least 1".into()));
    }
    if args.repeat == 0 {
        return Err(CliError::Input("--repeat must be at least 1".into()));
    }
    let (a, b) = (args.a.to_string(), args.b.to_string());
    let plan = Plan::new(Manifest {
        command: "bench".into(),
        seed: args.seed,
        mode: Mode::Hands,
        games: args.hands,
        paired: true,
        shard: Shard::all(),
        agents: vec![a.clone(), b.clone()],
        series: vec![SeriesSpec {
            a: a.clone(),
            b: b.clone(),
            settings: String::new(),
            rules: args.rules,
        }],
        complete: None,
        games_done: None,
        reproducible: None,
        reproducible_note: None,
        version: None,
        commit: None,
        dirty: None,
    })?;
    let agents = format!("{a} vs {b}");
    measure(
        &agents,
        [&a, &b],
        args.hands,
        args.threads,
        args.repeat,
        args.csv,
        |t| execute(&plan, t, None, true),
    )
}

/// `kanaszta bench --rules classic-…`: the classic path of the runner.
fn bench_classic(a: &BenchArgs, rules: ClassicRules) -> Result<ExitCode, CliError> {
    let specs = [
        super::play::parse_classic_side(&a.a)?,
        super::play::parse_classic_side(&a.b)?,
    ];
    if a.hands == 0 {
        return Err(CliError::Input("--hands must be at least 1".into()));
    }
    let plan = ClassicPlan::new(rules, specs, Mode::Hands, a.hands, a.seed, true)?;
    let agents = format!(
        "{} vs {} ({}, {} players)",
        plan.names[0], plan.names[1], rules.preset, rules.players
    );
    measure(
        &agents,
        [&plan.names[0], &plan.names[1]],
        a.hands,
        &a.threads,
        a.repeat,
        a.csv,
        |t| {
            let mut stats = plan.new_stats();
            plan.execute(t, &mut ClassicSink::counting(&mut stats), true)
        },
    )
}

/// Measures `run` (one run of `hands` hands on `t` threads) `repeat` times
/// per thread count and prints the table (or CSV).
fn measure(
    agents: &str,
    [a, b]: [&str; 2],
    hands: u64,
    threads: &str,
    repeat: u32,
    csv: bool,
    run: impl Fn(usize) -> Result<RunResult, String>,
) -> Result<ExitCode, CliError> {
    if repeat == 0 {
        return Err(CliError::Input("--repeat must be at least 1".into()));
    }
    let threads = parse_threads(threads)?;
    let mut rows: Vec<(usize, u64, f64)> = Vec::new();

    let mut actions_seen: Option<u64> = None;
    for &t in &threads {
        let mut secs = Vec::new();
        for _ in 0..repeat {
            let res = run(t)?;
            if res.errors > 0 {
                return Err(CliError::Input(format!(
                    "{} games ended by an agent error; first: {}",
                    res.errors,
                    res.first_error.unwrap_or_default()
                )));
            }
            match actions_seen {
                Some(n) if n != res.actions => {
                    return Err(CliError::Input(format!(
                    "nondeterministic: {n} actions in one measurement, {} in another ({t} threads)",
                    res.actions
                )))
                }
                _ => actions_seen = Some(res.actions),
            }
            secs.push(res.seconds);
        }
        rows.push((t, actions_seen.unwrap_or(0), median(secs)));
    }
    let base = rows[0].2;
    let mut text = String::new();
    if csv {
        let _ = writeln!(
            text,
            "agents,threads,hands,actions,seconds,hands_per_s,actions_per_s,speedup"
        );
    } else {
        let _ = writeln!(
            text,
            "bench: {agents}, {} hands per measurement, median of {}",
            hands, repeat
        );
        let _ = writeln!(
            text,
            "{:>7}  {:>9}  {:>11}  {:>8}  {:>7}",
            "threads", "hands/s", "actions/s", "seconds", "speedup"
        );
    }
    for &(t, actions, s) in &rows {
        let hps = hands as f64 / s;
        let aps = actions as f64 / s;
        let speedup = base / s;
        if csv {
            let _ = writeln!(
                text,
                "{},{t},{},{actions},{s:.4},{hps:.1},{aps:.0},{speedup:.3}",
                csv_field(agents),
                hands
            );
        } else {
            let _ = writeln!(
                text,
                "{t:>7}  {:>9}  {:>11}  {s:>8.3}  {speedup:>6.2}×",
                super::play::rate_text(hps),
                super::play::rate_text(aps)
            );
        }
    }
    if !csv {
        crate::stats::legend(
            &mut text,
            &[
                ("threads", "worker threads (0: one per core)".into()),
                (
                    "hands/s",
                    format!(
                        "hands played per second of wall time, {} and {} agents both included",
                        a, b
                    ),
                ),
                ("actions/s", "actions applied per second, both seats".into()),
                (
                    "seconds",
                    format!("the median of {} measurements of {} hands", repeat, hands),
                ),
                (
                    "speedup",
                    "the first thread count's time over this one's".into(),
                ),
            ],
        );
    }
    super::print(&text)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
