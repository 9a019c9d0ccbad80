//! `kanaszta`: the command-line front end of the toolkit. Thin: clap options
//! become a validated plan, the modules do the work.

mod aggregate;
mod bench;
mod merge;
mod plot;
mod ratings;
mod replay;
mod report;
mod rows;
mod runner;
mod stats;

use clap::{Args, Parser, Subcommand};
use kanaszta_agents::{Agent, AgentSpec, RandomAgent};
use kanaszta_engine::{tax, Action, CardSet, GameState, HandEnd, Position, Rules};
use rand_pcg::Pcg64Mcg;
use runner::{Manifest, Mode, Outputs, Plan, SeriesSpec, Shard};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "kanaszta",
    version,
    about = "Decorated canasta (Díszített kanaszta) between AI agents",
    after_help = "Without a command, `kanaszta` runs `kanaszta play`: rules vs greedy, 10,000 paired hands, CSVs in kanaszta-out/.\n\
Exit status: 0 done; 1 bad input (the message says what is accepted); 2 some game ended by an agent error (recorded in errors.csv); 3 `check`: the action is illegal.\n\
The CSV columns are documented in sim/CSV.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Args, Debug, Clone, Default)]
struct RulesArgs {
    /// Rules: a preset name (decorated-2003-02, decorated-2003-01) or a JSON file.
    #[arg(long, default_value = "decorated-2003-02")]
    rules: String,
    /// Change one rule switch, e.g. --set tax=off --set opening=90 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

impl RulesArgs {
    fn build(&self) -> Result<Rules, String> {
        let mut r = match Rules::preset(&self.rules) {
            Ok(r) => r,
            Err(preset_err) => {
                if std::path::Path::new(&self.rules).exists() {
                    let text = std::fs::read_to_string(&self.rules)
                        .map_err(|e| format!("cannot read rules file {}: {e}", self.rules))?;
                    Rules::from_json(&text).map_err(|e| format!("{}: {e}", self.rules))?
                } else {
                    return Err(format!("{preset_err}, or a path to a rules JSON file"));
                }
            }
        };
        r.apply_settings(self.set.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        Ok(r)
    }
}

/// Options shared by play, tournament and sweep.
#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// Number of hands per matchup (default: 10,000 for play; 2,000 per pair
    /// or setting for tournament and sweep).
    #[arg(long, value_name = "N")]
    hands: Option<u64>,
    /// Number of full matches (to the target, with the tax) per matchup.
    #[arg(long, value_name = "N")]
    matches: Option<u64>,
    /// Master seed: every game's deal and generators derive from it and the game index.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Directory for the CSV files (created; files of an earlier run there are replaced).
    #[arg(long, default_value = "kanaszta-out", value_name = "DIR")]
    out: PathBuf,
    /// Play only shard I of N: the deals whose index mod N is I (both seatings of each deal).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Play every game on its own deal instead of each deal twice with the seats swapped.
    #[arg(long)]
    unpaired: bool,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

impl RunArgs {
    /// Mode and games per series, checked.
    fn count(&self, default_hands: u64) -> Result<(Mode, u64), String> {
        match (self.hands, self.matches) {
            (Some(_), Some(_)) => Err(
                "give either --hands N or --matches N, not both (hands are single deals; matches are played to the target)"
                    .into(),
            ),
            (Some(0), None) | (None, Some(0)) => {
                Err("the number of --hands or --matches must be at least 1".into())
            }
            (Some(n), None) => Ok((Mode::Hands, n)),
            (None, Some(n)) => Ok((Mode::Matches, n)),
            (None, None) => Ok((Mode::Hands, default_hands)),
        }
    }

    fn shard(&self) -> Result<Shard, String> {
        match &self.shard {
            None => Ok(Shard::all()),
            Some(s) => {
                let sh = Shard::parse(s)?;
                if sh.indices.len() != 1 {
                    return Err(format!(
                        "bad shard `{s}`: expected I/N with 0 ≤ I < N, e.g. 0/4 (one shard per run)"
                    ));
                }
                Ok(sh)
            }
        }
    }

    /// The manifest of a run of `series` (validated by building its plan).
    fn plan(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec>,
        default_hands: u64,
    ) -> Result<Plan, String> {
        let (mode, games) = self.count(default_hands)?;
        let shard = self.shard()?;
        if self.threads > 1024 {
            return Err(format!(
                "--threads {}: at most 1024 (0: one per core)",
                self.threads
            ));
        }
        Plan::new(Manifest {
            command: command.into(),
            seed: self.seed,
            mode: mode.name().into(),
            games,
            paired: !self.unpaired,
            shard: shard.to_string(),
            agents,
            series,
        })
    }
}

#[derive(Args, Debug, Clone)]
struct PlayArgs {
    /// Agent A (see `kanaszta agents`), e.g. rules, greedy, ismcts:iters=500.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Agent A against agent B over many hands or matches: summary table,
    /// CSVs (hands.csv, matches.csv, errors.csv, summary.csv) in --out.
    /// The default command. Exit 2 if an agent erred in some game.
    Play(PlayArgs),
    /// Every pair of agents on the same paired deals: win-rate matrix,
    /// Bradley–Terry ratings (tournament.csv, ratings.csv) besides the CSVs of play.
    Tournament {
        /// The agents, comma-separated (`random,greedy,ismcts:iters=500,c=0.7`:
        /// a `key=value` item continues the agent before it) or --agents repeated.
        #[arg(long, required = true, value_name = "AGENT,AGENT,...")]
        agents: Vec<String>,
        #[command(flatten)]
        run: RunArgs,
    },
    /// One matchup over the cartesian product of rule settings: sweep.csv with
    /// the settings as columns, and all games in one hands.csv.
    Sweep {
        /// Agent A.
        #[arg(long, default_value = "rules", value_name = "AGENT")]
        a: String,
        /// Agent B.
        #[arg(long, default_value = "greedy", value_name = "AGENT")]
        b: String,
        /// A rule switch and its values, e.g. --vary tax=on,off --vary opening=50,75,90,120
        /// (repeatable; values of tax_schedule are separated by `;`).
        #[arg(long, required = true, value_name = "KEY=V1,V2,...")]
        vary: Vec<String>,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Combine the run directories of shards (or recompute one run's summary).
    Merge {
        /// Run directories (each with run.json and the CSVs).
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Directory for the merged result.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// One Bradley–Terry rating table from the summary.csv files of several
    /// runs (play, tournament, merge): agents are rated through the pairs
    /// they played, e.g. the steps of a ladder, when all are linked.
    Ratings {
        /// summary.csv files (or run directories holding one).
        #[arg(required = true, value_name = "SUMMARY")]
        files: Vec<PathBuf>,
        /// What counts as a game: hands or matches (ties count half).
        #[arg(long, default_value = "hands")]
        unit: String,
        /// Write the ratings CSV here as well.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Engine and agent throughput: hands/s and actions/s per thread count.
    Bench {
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
    },
    /// One game of a run, move by move in card notation.
    #[command(alias = "show")]
    Replay(replay::ReplayArgs),
    /// Every agent with its parameters, defaults and accepted values.
    Agents,
    /// Group the rows of a CSV (e.g. hands.csv) and summarize numeric
    /// columns: n, mean with a 95% interval, sd, share non-zero, min, max.
    /// Booleans count as 1/0, so their mean is a share.
    Aggregate {
        /// The CSV file (`-`: standard input).
        file: String,
        /// Group by these columns, comma-separated (e.g. `starter` or `rule_tax,agent`).
        #[arg(long, value_delimiter = ',', value_name = "COL,COL,...")]
        by: Vec<String>,
        /// Summarize these columns (default: every numeric column).
        #[arg(long, value_delimiter = ',', value_name = "COL,COL,...")]
        cols: Vec<String>,
        /// Keep only rows where COL equals VALUE (repeatable).
        #[arg(long = "where", value_name = "COL=VALUE")]
        filter: Vec<String>,
        /// Write the CSV here instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Draw an SVG chart from a CSV: bars or lines with 95% intervals, or a histogram.
    Plot {
        /// The CSV file (`-`: standard input).
        file: String,
        /// bar, line or hist.
        #[arg(long, default_value = "bar")]
        kind: String,
        /// Column on the x axis (categories for bar, values for hist).
        #[arg(long, value_name = "COL")]
        x: String,
        /// Column on the y axis (bar, line).
        #[arg(long, value_name = "COL")]
        y: Option<String>,
        /// Lower end of an interval (with --hi).
        #[arg(long, value_name = "COL", requires = "hi")]
        lo: Option<String>,
        /// Upper end of an interval (with --lo).
        #[arg(long, value_name = "COL", requires = "lo")]
        hi: Option<String>,
        /// One series per value of this column.
        #[arg(long, value_name = "COL")]
        group: Option<String>,
        /// Keep only rows where COL equals VALUE (repeatable).
        #[arg(long = "where", value_name = "COL=VALUE")]
        filter: Vec<String>,
        /// Chart title.
        #[arg(long, default_value = "")]
        title: String,
        /// Histogram bins.
        #[arg(long, default_value_t = 20)]
        bins: usize,
        /// The SVG file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Play one seeded hand between two random agents, printed move by move.
    Demo {
        /// Seed of the deal and of the agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// List the legal actions of the player to move in a position (JSON file, `-` for stdin).
    Legal {
        /// The position file (the engine's JSON position format).
        position: String,
    },
    /// Is ACTION legal in the position, and if not which rule forbids it?
    /// Exit status 0 when legal, 3 when illegal.
    Check {
        /// The position file (the engine's JSON position format).
        position: String,
        /// The action in text notation, e.g. "take" or "lay 8D 8S 2C".
        action: String,
    },
    /// The scoring breakdown (D-14) of a position's hand, raw and taxed (D-15).
    Score {
        /// The position file (the engine's JSON position format).
        position: String,
    },
    /// Print the rule switches and their values.
    Rules {
        #[command(flatten)]
        rules: RulesArgs,
    },
}

/// Exit status when some game was lost to an agent's error.
const EXIT_GAME_ERRORS: u8 = 2;

fn main() -> ExitCode {
    // A panic inside a game is caught and recorded in errors.csv; one line
    // on stderr says so instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("kanaszta: internal error: {info}");
    }));
    let cli = match Cli::try_parse() {
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
            eprintln!("kanaszta: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    text.parse::<AgentSpec>().map_err(|e| e.to_string())
}

/// Splits `random,ismcts:iters=500,c=0.7,greedy` into agent specs: an item
/// with `=` and no `:` is a parameter of the agent before it.
fn split_agents(lists: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for list in lists {
        let mut here: Vec<String> = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match here.last_mut() {
                Some(prev) if item.contains('=') && !item.contains(':') => {
                    prev.push(',');
                    prev.push_str(item);
                }
                _ => here.push(item.to_string()),
            }
        }
        out.extend(here);
    }
    let mut canon: Vec<String> = Vec::new();
    for a in out {
        let c = parse_agent(&a)?.to_string();
        if canon.contains(&c) {
            return Err(format!(
                "agent `{c}` is listed twice in --agents; list each agent once"
            ));
        }
        canon.push(c);
    }
    if canon.len() < 2 {
        return Err(format!(
            "a tournament needs at least two agents, got {}: e.g. --agents random,greedy,rules",
            canon.len()
        ));
    }
    Ok(canon)
}

/// The cartesian product of `--vary KEY=V1,V2` options: every combination as
/// (settings text, rules).
fn sweep_settings(base: &Rules, vary: &[String]) -> Result<Vec<(String, Rules)>, String> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for v in vary {
        let (k, vals) = v.split_once('=').ok_or_else(|| {
            format!("bad --vary `{v}`: expected KEY=V1,V2,..., e.g. --vary opening=50,75,90,120")
        })?;
        let key = k.trim().replace('-', "_");
        if !Rules::keys().contains(&key) {
            return Err(format!(
                "bad --vary `{v}`: unknown rule switch `{key}`: expected one of {}",
                Rules::keys().join(", ")
            ));
        }
        if axes.iter().any(|(a, _)| *a == key) {
            return Err(format!("--vary {key} is given twice; list its values once"));
        }
        let sep = if key == "tax_schedule" || vals.contains(';') {
            ';'
        } else {
            ','
        };
        let values: Vec<String> = vals
            .split(sep)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if values.is_empty() {
            return Err(format!("bad --vary `{v}`: no values after `=`"));
        }
        for val in &values {
            let mut r = *base;
            r.set(&key, val).map_err(|e| format!("--vary {key}: {e}"))?;
        }
        axes.push((key, values));
    }
    let mut out: Vec<(Vec<(String, String)>, Rules)> = vec![(Vec::new(), *base)];
    for (key, values) in &axes {
        let mut next = Vec::new();
        for (set, rules) in &out {
            for val in values {
                let mut r = *rules;
                r.set(key, val)
                    .map_err(|e| format!("--vary {key}={val}: {e}"))?;
                let mut s = set.clone();
                s.push((key.clone(), val.clone()));
                next.push((s, r));
            }
        }
        out = next;
    }
    Ok(out
        .into_iter()
        .map(|(s, r)| {
            let text: Vec<String> = s.iter().map(|(k, v)| format!("{k}={v}")).collect();
            (text.join(";"), r)
        })
        .collect())
}

/// Runs a plan into `dir` and prints the report; exit 2 if games erred.
fn run_plan(plan: Plan, args: &RunArgs) -> Result<ExitCode, String> {
    let outputs = Outputs::create(&args.out, &plan.manifest, plan.mode)?;
    let res = runner::execute(&plan, args.threads, Some(outputs), args.quiet)?;
    let text = report::report(Some(&args.out), &plan.manifest, &res.stats)?;
    finish(&text, &res, &args.out)
}

/// A rate with three significant digits for slow agents (0.145, 2.31)
/// and whole numbers from 100 on.
fn rate_text(r: f64) -> String {
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

fn finish(text: &str, res: &runner::RunResult, dir: &Path) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let r = (|| -> Result<(), Fail> {
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

fn run(cli: Cli) -> Result<ExitCode, String> {
    let command = match cli.command {
        Some(c) => c,
        None => match Cli::try_parse_from(["kanaszta", "play"]) {
            Ok(Cli {
                command: Some(c), ..
            }) => c,
            _ => return Err("internal: the default command did not parse".into()),
        },
    };
    let ok = |r: Result<(), String>| r.map(|()| ExitCode::SUCCESS);
    match command {
        Command::Play(p) => {
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
        Command::Tournament { agents, run } => {
            let agents = split_agents(&agents)?;
            let rules = run.rules.build()?;
            let mut series = Vec::new();
            for i in 0..agents.len() {
                for j in i + 1..agents.len() {
                    series.push(SeriesSpec {
                        a: agents[i].clone(),
                        b: agents[j].clone(),
                        settings: String::new(),
                        rules,
                    });
                }
            }
            let plan = run.plan("tournament", agents, series, 2_000)?;
            run_plan(plan, &run)
        }
        Command::Sweep { a, b, vary, run } => {
            let a = parse_agent(&a)?.to_string();
            let b = parse_agent(&b)?.to_string();
            let base = run.rules.build()?;
            let series = sweep_settings(&base, &vary)?
                .into_iter()
                .map(|(settings, rules)| SeriesSpec {
                    a: a.clone(),
                    b: b.clone(),
                    settings,
                    rules,
                })
                .collect();
            let plan = run.plan("sweep", vec![a, b], series, 2_000)?;
            run_plan(plan, &run)
        }
        Command::Merge { dirs, out } => merge::merge(&dirs, &out),
        Command::Ratings { files, unit, out } => {
            let unit = Mode::parse(&unit).map_err(|e| format!("--unit: {e}"))?;
            let mut inputs = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for f in files {
                // A file named twice (overlapping globs) counts once.
                let key = if f.is_dir() {
                    f.join("summary.csv")
                } else {
                    f.clone()
                };
                if seen.insert(std::fs::canonicalize(&key).unwrap_or(key)) {
                    inputs.push(ratings::Input::read(&f)?);
                }
            }
            let r = ratings::ratings(&inputs, unit)?;
            if let Some(path) = out {
                std::fs::write(&path, &r.csv)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            let mut o = std::io::stdout().lock();
            ok(quiet_pipe(
                o.write_all(r.text.as_bytes()).map_err(Fail::from),
            ))
        }
        Command::Bench {
            a,
            b,
            hands,
            threads,
            repeat,
            seed,
            csv,
            rules,
        } => {
            let a = parse_agent(&a)?;
            let b = parse_agent(&b)?;
            let rules = rules.build()?;
            ok(bench::bench(&bench::BenchArgs {
                a,
                b,
                hands,
                threads: &threads,
                repeat,
                seed,
                csv,
                rules,
            }))
        }
        Command::Replay(r) => replay::replay(&r),
        Command::Aggregate {
            file,
            by,
            cols,
            filter,
            out,
        } => {
            let text = read_csv_input(&file)?;
            let filter = parse_filters(&filter)?;
            let csv = aggregate::aggregate(&text, &file, &by, &cols, &filter)?;
            match out {
                Some(path) => std::fs::write(&path, csv)
                    .map(|()| ExitCode::SUCCESS)
                    .map_err(|e| format!("cannot write {}: {e}", path.display())),
                None => {
                    let mut o = std::io::stdout().lock();
                    ok(quiet_pipe(o.write_all(csv.as_bytes()).map_err(Fail::from)))
                }
            }
        }
        Command::Plot {
            file,
            kind,
            x,
            y,
            lo,
            hi,
            group,
            filter,
            title,
            bins,
            out,
        } => {
            let spec = plot::Spec {
                kind: kind.parse()?,
                x,
                y,
                lo,
                hi,
                group,
                filter: parse_filters(&filter)?,
                title,
                bins: bins.max(1),
            };
            let text = read_csv_input(&file)?;
            let table = plot::Table::parse(&text, &file)?;
            let svg = plot::render(&table, &spec, &file)?;
            std::fs::write(&out, svg)
                .map(|()| ExitCode::SUCCESS)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        Command::Agents => {
            let mut out = std::io::stdout().lock();
            ok(quiet_pipe(
                write!(out, "{}", AgentSpec::help()).map_err(Fail::from),
            ))
        }
        Command::Demo { seed, rules } => {
            let rules = rules.build()?;
            ok(quiet_pipe(demo(&mut std::io::stdout().lock(), rules, seed)))
        }
        Command::Legal { position } => {
            let g = load_position(&position)?;
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            let mut out = std::io::stdout().lock();
            ok(quiet_pipe((|| {
                if g.is_terminal() {
                    writeln!(out, "the hand is over: no legal action")?;
                }
                for a in &legal {
                    writeln!(out, "{a}")?;
                }
                Ok(())
            })()))
        }
        Command::Check { position, action } => {
            let g = load_position(&position)?;
            let a: Action = action.parse().map_err(|e| format!("{e}"))?;
            let mut t = g.clone();
            match t.apply(a) {
                Ok(()) => {
                    println!("legal: {a}");
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    println!("illegal: {a}: {e}");
                    Ok(ExitCode::from(3))
                }
            }
        }
        Command::Score { position } => {
            let g = load_position(&position)?;
            let mut out = std::io::stdout().lock();
            ok(quiet_pipe(score(&mut out, &g)))
        }
        Command::Rules { rules } => {
            let rules = rules.build()?;
            let mut out = std::io::stdout().lock();
            ok(quiet_pipe((|| {
                for (k, v) in rules.settings() {
                    writeln!(out, "{k}={v}")?;
                }
                Ok(())
            })()))
        }
    }
}

/// Reads a position file (`-`: standard input) in the engine's JSON format.
fn load_position(path: &str) -> Result<GameState, String> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read position {path}: {e}"))?
    };
    let pos = Position::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    pos.to_state().map_err(|e| format!("{path}: {e}"))
}

fn score(out: &mut impl Write, g: &GameState) -> Result<(), Fail> {
    if !g.is_terminal() {
        writeln!(
            out,
            "the hand is not over: scores as if it ended now, nobody going out"
        )?;
    }
    writeln!(
        out,
        "player,red_threes,twins,canastas,heart_aces,going_out,from_hand,cleared_table,base,melded,in_hand,card_value,raw,total_before,taxed"
    )?;
    for (p, s) in g.scores().iter().enumerate() {
        let before = g.totals()[p];
        writeln!(
            out,
            "{p},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points,
            s.base,
            s.melded,
            s.in_hand,
            s.card_value,
            s.total,
            before,
            tax(s.total, before, g.rules())
        )?;
    }
    Ok(())
}

/// Reads a CSV file (`-`: standard input) for `aggregate` and `plot`.
fn read_csv_input(file: &str) -> Result<String, String> {
    if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))
    }
}

/// `COL=VALUE` filters of `--where`.
fn parse_filters(items: &[String]) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|f| {
            f.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("--where `{f}`: expected COL=VALUE"))
        })
        .collect()
}

/// Output errors: a closed pipe (`kanaszta demo | head`) is a normal end.
pub(crate) fn quiet_pipe(r: Result<(), Fail>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(Fail::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(Fail::Io(e)) => Err(format!("cannot write output: {e}")),
        Err(Fail::Msg(m)) => Err(m),
    }
}

/// An error of a command: a message for the user, or an output error.
pub(crate) enum Fail {
    Msg(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Fail {
    fn from(e: std::io::Error) -> Fail {
        Fail::Io(e)
    }
}

impl From<String> for Fail {
    fn from(m: String) -> Fail {
        Fail::Msg(m)
    }
}

fn demo(out: &mut impl Write, rules: Rules, seed: u64) -> Result<(), Fail> {
    let mut g = GameState::new(rules, seed);
    let n = g.players();
    let mut agents: Vec<RandomAgent> = (0..n).map(|_| RandomAgent::default()).collect();
    let mut rngs: Vec<Pcg64Mcg> = (0..n).map(|p| kanaszta_agents::seat_rng(seed, p)).collect();
    let version = rules
        .settings()
        .into_iter()
        .find(|(k, _)| k == "version")
        .map(|(_, v)| v)
        .unwrap_or_default();
    writeln!(
        out,
        "kanaszta demo: seed {seed}, {n} players, {version}, random agents, starter P{}",
        g.starter()
    )?;
    let cut = g.cut_cards();
    writeln!(out, "cut shows {} {} {}", cut[0], cut[1], cut[2])?;
    let mut legal = Vec::new();
    while !g.is_terminal() {
        let p = g.current_player();
        g.legal_actions(&mut legal);
        let view = g.view(p);
        let a = agents[p].act(&view, &legal, &mut rngs[p]);
        let before = g.hand(p);
        g.apply(a)
            .map_err(|e| format!("agent of P{p} chose `{a}`: {e}"))?;
        let gained = g.hand(p).checked_sub(before).unwrap_or(CardSet::EMPTY);
        let extra = match a {
            Action::Draw | Action::FreePickup | Action::TakePile | Action::TakeRest => {
                format!("  (+{gained})")
            }
            Action::KeepCut { .. } => format!("  (P{p} holds {})", g.hand(p)),
            _ => String::new(),
        };
        writeln!(out, "turn {:>3}  P{p}  {a}{extra}", g.turns())?;
        if matches!(a, Action::Discard(_)) && !g.is_terminal() {
            let t = g.table(p);
            writeln!(
                out,
                "           P{p} hand [{}]  table: {} groups, {} canastas, {} red threes, {} twins",
                g.hand(p),
                t.len(),
                t.canastas(),
                t.red_threes.len(),
                t.twins
            )?;
        }
    }
    match g.end() {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => writeln!(
            out,
            "P{player} went out{}{}",
            if from_hand { " from hand" } else { "" },
            if cleared_table {
                ", clearing the table"
            } else {
                ""
            }
        )?,
        Some(HandEnd::Exhausted) => writeln!(out, "the hand is exhausted (stock and pile empty)")?,
        Some(HandEnd::Stalled) => writeln!(out, "the hand stalled at the turn cap")?,
        Some(HandEnd::Deadlocked) => writeln!(
            out,
            "the hand ended deadlocked: every player holds one card that can never go out (I-32)"
        )?,
        None => {}
    }
    for (p, s) in g.scores().iter().enumerate() {
        writeln!(
            out,
            "P{p}: base {} (red threes {}, twins {}, canastas {}, heart aces {}, going out {}) + cards {} (melded {}, in hand {}) = {}",
            s.base,
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points + s.from_hand_points + s.cleared_table_points,
            s.card_value,
            s.melded,
            s.in_hand,
            s.total
        )?;
    }
    Ok(())
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
