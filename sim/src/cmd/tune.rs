//! `kanaszta tune`: an agent's number parameters tuned by self-play
//! against a set of opponents on paired deals (SPSA, see `crate::tune`).
//! Under `--rules classic-…` the agent is a classic player, tuned at a
//! classic table (every seat of its side plays it; an opponent may be a
//! side of mixed players, `rules+greedy`); the margin is the side's.

use super::parse_agent;
use super::play::{parse_classic_agent, parse_classic_side};
use crate::classic::run::StoredClassicRules;
use crate::classic::{ClassicPlan, ClassicSink, SideSpec};
use crate::error::CliError;
use crate::lock::RunLock;
use crate::run::family::{family_rules, Classic, Decorated, FamilyRules};
use crate::run::options::{RulesArgs, ValueError};
use crate::run::{self, Manifest, Mode, Plan, SeriesSpec};
use crate::signals::{self, Notes};
use crate::tune::{spec_at, Spsa, SpsaConfig, Tunable, TunedParam};
use clap::Args;
use kanaszta_agents::{AgentSpec, Bounds};
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::Rules;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kanaszta tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The agent tuned, with the starting values of its parameters, e.g.
    /// rules or greedy:pile=5 (classic canasta: a classic player, e.g.
    /// rules:wild_take=6).
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Number parameters tuned, comma-separated: KEY (within its declared
    /// range, see `kanaszta agents`) or KEY=LO..HI (a narrower range).
    #[arg(long, value_name = "KEYS", required = true, value_delimiter = ',')]
    param: Vec<String>,
    /// The opponents, comma-separated; every evaluation plays each of them
    /// (classic canasta: a side, e.g. rules+greedy with four players).
    #[arg(long, value_name = "AGENTS", required = true, value_delimiter = ',')]
    vs: Vec<String>,
    /// Hands per opponent and perturbation in a step, played on paired deals.
    #[arg(long, default_value_t = 200, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64>)]
    hands_per_step: u64,
    /// The most steps.
    #[arg(long, default_value_t = 50, value_name = "K", allow_negative_numbers = true, value_parser = whole::<u64>)]
    steps: u64,
    /// The first step, as a fraction of each parameter's range.
    #[arg(long, default_value_t = 0.1, value_name = "A", allow_negative_numbers = true, value_parser = fraction)]
    step_size: f64,
    /// The first perturbation, as a fraction of each parameter's range.
    #[arg(long, default_value_t = 0.1, value_name = "C", allow_negative_numbers = true, value_parser = fraction)]
    perturb: f64,
    /// Steps of the settling rule (0: play every step).
    #[arg(long, default_value_t = 10, value_name = "W", allow_negative_numbers = true, value_parser = whole::<u64>)]
    window: u64,
    /// Master seed: the directions and every step's deals derive from it.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T", allow_negative_numbers = true, value_parser = whole::<usize>)]
    threads: usize,
    /// Directory for trace.csv, best.txt and run.json (created).
    #[arg(long, default_value = "kanaszta-tune", value_name = "DIR")]
    out: PathBuf,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// A count or a seed: a whole number from 0.
fn whole<T: std::str::FromStr>(s: &str) -> Result<T, ValueError> {
    s.trim().parse::<T>().map_err(|_| ValueError::TuneWhole)
}

/// `--step-size` and `--perturb`: a number; its range is checked with the
/// other options.
fn fraction(s: &str) -> Result<f64, ValueError> {
    s.trim().parse::<f64>().map_err(|_| ValueError::Fraction)
}

/// What run.json of a tuning says.
#[derive(Serialize)]
struct TuneRun<'a, R: Serialize> {
    command: &'static str,
    /// `classic` for classic canasta; none for decorated.
    #[serde(skip_serializing_if = "Option::is_none")]
    family: Option<&'static str>,
    agent: String,
    params: Vec<ParamRecord>,
    vs: &'a [String],
    hands_per_step: u64,
    steps: u64,
    steps_done: u64,
    settled: bool,
    /// Only when a signal stopped the tuning: false.
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    /// The signal that stopped it, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
    step_size: f64,
    perturb: f64,
    window: u64,
    seed: u64,
    best: String,
    rules: R,
    version: String,
    commit: String,
    dirty: String,
}

#[derive(Serialize)]
struct ParamRecord {
    key: String,
    lo: f64,
    hi: f64,
    integer: bool,
    start: f64,
    best: f64,
}

/// The number parameters of an agent with their declared ranges, e.g.
/// `pile (1..112), patience (1..10000)`, or `none`.
fn number_params<S: Tunable>(spec: &S) -> String {
    let keys: Vec<String> = spec
        .docs()
        .iter()
        .filter_map(|d| {
            let b = spec.bounds(d.key)?;
            Some(format!("{} ({}..{})", d.key, b.lo, b.hi))
        })
        .collect();
    if keys.is_empty() {
        "none".into()
    } else {
        keys.join(", ")
    }
}

/// A parameter of `--param`: `KEY` or `KEY=LO..HI`, checked against the
/// agent's declaration.
fn tuned_param<S: Tunable>(spec: &S, item: &str) -> Result<TunedParam, CliError> {
    let (key, range) = match item.split_once('=') {
        Some((k, r)) => (k.trim(), Some(r.trim())),
        None => (item.trim(), None),
    };
    if key.is_empty() {
        return Err(CliError::Input(format!(
            "--param `{item}`: no parameter named; expected KEY or KEY=LO..HI, e.g. --param \
             pile,patience=5..200; {}'s number parameters: {}",
            spec.name(),
            number_params(spec)
        )));
    }
    let numbers = || number_params(spec);
    let Some(doc) = spec.docs().iter().find(|d| d.key == key) else {
        return Err(CliError::Input(format!(
            "--param {key}: {} has no parameter `{key}`; its number parameters: {}",
            spec.name(),
            numbers()
        )));
    };
    let Some(declared) = spec.bounds(key) else {
        return Err(CliError::Input(format!(
            "--param {key}: {}'s `{key}` is not a number in a range (it takes {}); tune moves \
             number parameters: {}",
            spec.name(),
            doc.accepts,
            numbers()
        )));
    };
    let bounds = match range {
        None => declared,
        Some(r) => {
            let bad = || {
                CliError::Input(format!(
                    "--param {item}: expected KEY=LO..HI with LO < HI within {key}'s declared \
                     range {}..{}, e.g. {key}={}..{}",
                    declared.lo, declared.hi, declared.lo, declared.hi
                ))
            };
            let (lo, hi) = r.split_once("..").ok_or_else(bad)?;
            let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
            let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
            if !(lo.is_finite() && hi.is_finite() && lo < hi)
                || lo < declared.lo
                || hi > declared.hi
            {
                return Err(bad());
            }
            Bounds { lo, hi, ..declared }
        }
    };
    Ok(TunedParam {
        key: key.to_string(),
        bounds,
    })
}

/// A rule family tuned in: how its agents are read, its rules, and how
/// one evaluation plays.
trait Family {
    type Spec: Tunable;
    type Rules: Copy;
    type Stored: Serialize;
    /// `family` in run.json.
    const FAMILY: Option<&'static str>;
    /// The tuned agent (`--agent`).
    fn agent(text: &str) -> Result<Self::Spec, CliError>;
    /// An opponent (`--vs`), as its runs name it.
    fn opponent(text: &str) -> Result<String, CliError>;
    /// The rules as run.json holds them.
    fn stored(rules: Self::Rules) -> Self::Stored;
    /// See [`evaluate`].
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        base: &Self::Spec,
        params: &[TunedParam],
        x: &[f64],
        vs: &[String],
        rules: Self::Rules,
        t: &TuneArgs,
        k: u64,
        check: bool,
    ) -> Result<Option<f64>, CliError>;
}

impl Family for Decorated {
    type Spec = AgentSpec;
    type Rules = Rules;
    type Stored = Rules;
    const FAMILY: Option<&'static str> = None;
    fn agent(text: &str) -> Result<AgentSpec, CliError> {
        parse_agent(text)
    }
    fn opponent(text: &str) -> Result<String, CliError> {
        Ok(parse_agent(text)?.to_string())
    }
    fn stored(rules: Rules) -> Rules {
        rules
    }
    fn evaluate(
        base: &AgentSpec,
        params: &[TunedParam],
        x: &[f64],
        vs: &[String],
        rules: Rules,
        t: &TuneArgs,
        k: u64,
        check: bool,
    ) -> Result<Option<f64>, CliError> {
        evaluate(base, params, x, vs, rules, t, k, check)
    }
}

impl Family for Classic {
    type Spec = AgentSpec<ClassicState>;
    type Rules = ClassicRules;
    type Stored = StoredClassicRules;
    const FAMILY: Option<&'static str> = Some("classic");
    fn agent(text: &str) -> Result<AgentSpec<ClassicState>, CliError> {
        parse_classic_agent(text)
    }
    fn opponent(text: &str) -> Result<String, CliError> {
        Ok(parse_classic_side(text)?.name().to_string())
    }
    fn stored(rules: ClassicRules) -> StoredClassicRules {
        StoredClassicRules(rules)
    }
    fn evaluate(
        base: &AgentSpec<ClassicState>,
        params: &[TunedParam],
        x: &[f64],
        vs: &[String],
        rules: ClassicRules,
        t: &TuneArgs,
        k: u64,
        check: bool,
    ) -> Result<Option<f64>, CliError> {
        evaluate_classic(base, params, x, vs, rules, t, k, check)
    }
}

/// Runs `kanaszta tune`.
pub fn run(t: TuneArgs) -> Result<ExitCode, CliError> {
    match family_rules(&t.rules)? {
        FamilyRules::Decorated(r) => tune::<Decorated>(t, r),
        FamilyRules::Classic(r) => tune::<Classic>(t, r),
    }
}

/// Tunes in family `F` under `rules`.
fn tune<F: Family>(t: TuneArgs, rules: F::Rules) -> Result<ExitCode, CliError> {
    let base = F::agent(&t.agent)?;
    let mut params: Vec<TunedParam> = Vec::new();
    for item in &t.param {
        let p = tuned_param(&base, item)?;
        if params.iter().any(|q| q.key == p.key) {
            return Err(CliError::Input(format!(
                "--param: `{}` is given twice",
                p.key
            )));
        }
        params.push(p);
    }
    let mut vs: Vec<String> = Vec::new();
    for v in &t.vs {
        if v.trim().is_empty() {
            continue;
        }
        vs.push(F::opponent(v)?);
    }
    if vs.is_empty() {
        return Err(CliError::Input(
            "--vs: expected at least one opponent, e.g. --vs greedy,rules".into(),
        ));
    }
    for (name, v) in [("--step-size", t.step_size), ("--perturb", t.perturb)] {
        if !(v > 0.0 && v <= 1.0) {
            return Err(CliError::Input(format!(
                "{name} {v}: expected a fraction of the parameters' ranges in (0, 1], e.g. 0.1"
            )));
        }
    }
    if t.steps == 0 || t.hands_per_step < 2 {
        return Err(CliError::Input(format!(
            "--steps {} --hands-per-step {}: expected at least 1 step of at least 2 hands \
             (one paired deal)",
            t.steps, t.hands_per_step
        )));
    }
    if t.hands_per_step % 2 == 1 {
        return Err(CliError::Input(format!(
            "--hands-per-step {}: expected an even number: the hands are played on paired \
             deals (each deal twice, seats swapped), e.g. {} or {}",
            t.hands_per_step,
            t.hands_per_step - 1,
            t.hands_per_step + 1
        )));
    }
    if t.window == 1 {
        return Err(CliError::Input(
            "--window 1: the settling rule needs at least 2 steps (0 turns it off)".into(),
        ));
    }
    if t.threads > 1024 {
        return Err(CliError::Input(format!(
            "--threads {}: at most 1024 (0: one per core)",
            t.threads
        )));
    }
    // The keys the spec of --agent sets itself (the others start at the
    // agent's defaults).
    let given: Vec<&str> = t
        .agent
        .split_once(':')
        .map(|(_, rest)| {
            rest.split(',')
                .filter_map(|kv| kv.split_once('=').map(|(k, _)| k.trim()))
                .collect()
        })
        .unwrap_or_default();
    let mut start = Vec::new();
    for p in &params {
        let v = base
            .get(&p.key)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(p.bounds.lo);
        let (lo, hi) = (p.bounds.lo, p.bounds.hi);
        if v < lo || v > hi {
            let range = format!("{}={}..{}", p.key, p.text(lo), p.text(hi));
            if given.contains(&p.key.as_str()) {
                return Err(CliError::Input(format!(
                    "--agent {}: {}={} is outside --param {range}: start within the range, \
                     or widen it",
                    t.agent,
                    p.key,
                    p.text(v)
                )));
            }
            eprintln!(
                "kanaszta: note: {}'s default {}={} is outside --param {range}; the search \
                 starts at {} (give --agent {}:{}=V to start elsewhere)",
                base.to_string().split(':').next().unwrap_or_default(),
                p.key,
                p.text(v),
                p.text(p.value(p.fraction(v))),
                base.to_string().split(':').next().unwrap_or_default(),
                p.key
            );
        }
        start.push(p.fraction(v));
    }
    // A whole-number parameter moves by whole units: a perturbation under
    // one unit of its range would play the same value at both points.
    let min_perturb: Vec<f64> = params
        .iter()
        .map(|p| {
            let span = p.bounds.hi - p.bounds.lo;
            if p.bounds.integer && span > 0.0 {
                1.0 / span
            } else {
                0.0
            }
        })
        .collect();
    for (p, &m) in params.iter().zip(&min_perturb) {
        if m > t.perturb {
            eprintln!(
                "kanaszta: note: --perturb {} of {}'s range {}..{} is under one whole unit, \
                 which would round both points of a step to the same value; {} is perturbed \
                 by at least 1 ({:.3} of its range)",
                t.perturb,
                p.key,
                p.text(p.bounds.lo),
                p.text(p.bounds.hi),
                p.key,
                m
            );
        }
    }
    // Every evaluation is checked before the first game: a plan of the start.
    F::evaluate(&base, &params, &start, &vs, rules, &t, 0, true)?;

    std::fs::create_dir_all(&t.out)
        .map_err(|e| CliError::io("create output directory", t.out.display(), e))?;
    let _lock = RunLock::acquire(&t.out)?;
    signals::install_with(Notes::TUNE)?;
    let trace_path = t.out.join("trace.csv");
    let mut trace = run::CsvFile::create(&trace_path, &trace_header(&params))?;
    let cfg = SpsaConfig {
        step: t.step_size,
        perturb: t.perturb,
        steps: t.steps,
        window: t.window,
    };
    let mut spsa = Spsa::new(cfg, start.clone(), t.seed).with_min_perturb(min_perturb);
    let pb = run::progress(t.steps, t.quiet, "steps");
    let write_err = |e: std::io::Error| CliError::io("write", trace_path.display(), e);
    let mut done = 0;
    let mut settled = false;
    for _ in 0..t.steps {
        if signals::stopped().is_some() {
            break;
        }
        let st = spsa.propose();
        // A step cut short by a signal is dropped: the search keeps the
        // steps finished.
        let Some(plus) = F::evaluate(&base, &params, &st.plus, &vs, rules, &t, st.k, false)? else {
            break;
        };
        let Some(minus) = F::evaluate(&base, &params, &st.minus, &vs, rules, &t, st.k, false)?
        else {
            break;
        };
        spsa.update(&st, plus, minus);
        let mut row: Vec<String> = vec![st.k.to_string()];
        row.extend(params.iter().zip(&st.x).map(|(p, &x)| p.text(p.value(x))));
        row.extend(st.delta.iter().map(|d| format!("{d}")));
        for (p, (a, b)) in params.iter().zip(st.plus.iter().zip(&st.minus)) {
            row.push(p.text(p.value(*a)));
            row.push(p.text(p.value(*b)));
        }
        row.extend(
            [
                plus,
                minus,
                (plus + minus) / 2.0,
                (plus - minus) / 2.0,
                st.perturb,
                st.step,
            ]
            .iter()
            .map(|v| format!("{v:.4}")),
        );
        trace.row(row).map_err(write_err)?;
        trace.flush().map_err(write_err)?;
        done = st.k;
        pb.set_message(format!("steps, margin {:.1}", (plus + minus) / 2.0));
        pb.inc(1);
        if spsa.settled() {
            settled = true;
            break;
        }
    }
    pb.finish_and_clear();
    let stopped = signals::stopped().filter(|_| !settled && done < t.steps);
    let best_x = spsa.best();
    let best = spec_at(&base, &params, &best_x)?.to_string();
    let best_path = t.out.join("best.txt");
    std::fs::write(&best_path, format!("{best}\n"))
        .map_err(|e| CliError::io("write", best_path.display(), e))?;
    let (version, commit, dirty) = run::build_info();
    let record = TuneRun {
        command: "tune",
        family: F::FAMILY,
        agent: base.to_string(),
        params: params
            .iter()
            .zip(start.iter().zip(&best_x))
            .map(|(p, (&s, &b))| ParamRecord {
                key: p.key.clone(),
                lo: p.bounds.lo,
                hi: p.bounds.hi,
                integer: p.bounds.integer,
                start: p.value(s),
                best: p.value(b),
            })
            .collect(),
        vs: &vs,
        hands_per_step: t.hands_per_step,
        steps: t.steps,
        steps_done: done,
        settled,
        complete: stopped.map(|_| false),
        stopped_by: stopped.map(signals::name),
        step_size: t.step_size,
        perturb: t.perturb,
        window: t.window,
        seed: t.seed,
        best: best.clone(),
        rules: F::stored(rules),
        version,
        commit,
        dirty,
    };
    write_json(&t.out.join("run.json"), &record)?;
    let how = if settled {
        format!("settled after {done} of {} steps", t.steps)
    } else if let Some(sig) = stopped {
        format!(
            "stopped by {} after {done} of {} steps",
            signals::name(sig),
            t.steps
        )
    } else {
        format!("{done} of {} steps", t.steps)
    };
    let mut out = std::io::stdout().lock();
    crate::error::quiet_pipe(
        writeln!(
            out,
            "{best}\n{} tuned against {} ({how}); trace.csv, best.txt and run.json in {}",
            base,
            vs.join(", "),
            t.out.display()
        )
        .map_err(CliError::from),
    )?;
    if let Some(sig) = stopped {
        let command: Vec<String> = std::env::args().collect();
        eprintln!(
            "kanaszta: stopped by {} after {done} of {} steps: best.txt holds the tuned spec of \
             the steps finished, trace.csv their rows; run.json says \"complete\": false, \
             \"steps_done\": {done}. To tune the whole run, run `{}` again (the steps are the \
             same)",
            signals::name(sig),
            t.steps,
            command.join(" ")
        );
        return Ok(ExitCode::from(signals::exit_status(sig)));
    }
    Ok(ExitCode::SUCCESS)
}

fn trace_header(params: &[TunedParam]) -> Vec<String> {
    let mut h = vec!["step".to_string()];
    h.extend(params.iter().map(|p| p.key.clone()));
    h.extend(params.iter().map(|p| format!("delta_{}", p.key)));
    for p in params {
        h.push(format!("plus_{}", p.key));
        h.push(format!("minus_{}", p.key));
    }
    for c in [
        "margin_plus",
        "margin_minus",
        "margin",
        "gain",
        "perturb",
        "step_size",
    ] {
        h.push(c.into());
    }
    h
}

fn write_json<T: Serialize>(path: &Path, v: &T) -> Result<(), CliError> {
    let json = serde_json::to_string_pretty(v)
        .map_err(|e| CliError::Input(format!("internal: run.json: {e}")))?;
    std::fs::write(path, json + "\n").map_err(|e| CliError::io("write", path.display(), e))
}

/// The mean margin, in raw points per hand over paired deals, of the agent
/// at fractions `x` against the opponents, on the deals of step `k`
/// (the same deals for both points of a step); `None` when a signal stopped
/// the games before the last. `check` only validates the plan.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    base: &AgentSpec,
    params: &[TunedParam],
    x: &[f64],
    vs: &[String],
    rules: Rules,
    t: &TuneArgs,
    k: u64,
    check: bool,
) -> Result<Option<f64>, CliError> {
    let a = spec_at(base, params, x)?.to_string();
    let series: Vec<SeriesSpec> = vs
        .iter()
        .map(|b| SeriesSpec {
            a: a.clone(),
            b: b.clone(),
            settings: String::new(),
            rules,
        })
        .collect();
    let mut agents = vec![a];
    agents.extend(vs.iter().cloned());
    let plan = Plan::new(Manifest::new(
        "tune",
        kanaszta_engine::seed::deal(t.seed, k),
        Mode::Hands,
        t.hands_per_step,
        true,
        agents,
        series,
    ))?;
    if let Some(note) = &plan.manifest.reproducible_note {
        return Err(CliError::Input(format!(
            "tune needs reproducible games: {note}"
        )));
    }
    if check {
        return Ok(Some(0.0));
    }
    let res = run::execute(&plan, t.threads, None, true)?;
    if res.stopped.is_some() && res.games < res.total {
        return Ok(None);
    }
    let mut sum = 0.0;
    for (s, opp) in res.stats.iter().zip(vs) {
        let Some((m, _, _)) = s.diff(0) else {
            return Err(CliError::Input(format!(
                "step {k}: every game against {opp} ended by an agent error ({})",
                res.first_error.as_deref().unwrap_or("")
            )));
        };
        sum += m;
    }
    Ok(Some(sum / vs.len() as f64))
}

/// [`evaluate`] at a classic table: the agent at fractions `x` holds side
/// A (every seat of it), each opponent side B, on the paired deals of step
/// `k`; the mean margin of side A in points per hand, over the opponents.
#[allow(clippy::too_many_arguments)]
fn evaluate_classic(
    base: &AgentSpec<ClassicState>,
    params: &[TunedParam],
    x: &[f64],
    vs: &[String],
    rules: ClassicRules,
    t: &TuneArgs,
    k: u64,
    check: bool,
) -> Result<Option<f64>, CliError> {
    let a = spec_at(base, params, x)?;
    let mut plans = Vec::new();
    for b in vs {
        let side = parse_classic_side(b)?;
        side.check("--vs", rules.players as usize)?;
        plans.push(ClassicPlan::new(
            rules,
            [SideSpec::single(a.clone()), side],
            Mode::Hands,
            t.hands_per_step,
            kanaszta_engine::seed::deal(t.seed, k),
            true,
        )?);
    }
    if check {
        // A search stopped by the clock plays otherwise on every run.
        let timed = |spec: &AgentSpec<ClassicState>| spec.get("time").is_some_and(|v| v != "0");
        let mut players = vec![a.to_string()];
        players.extend(vs.iter().flat_map(|b| b.split('+')).map(str::to_string));
        for p in players {
            if timed(&parse_classic_agent(&p)?)
                || (p == a.to_string() && params.iter().any(|q| q.key == "time"))
            {
                return Err(CliError::Input(format!(
                    "tune needs reproducible games: {p} stops its search by the clock \
                     (time), so the same deals play otherwise on every run; give time=0 and \
                     an iters budget, and tune iters rather than time"
                )));
            }
        }
        return Ok(Some(0.0));
    }
    let mut sum = 0.0;
    for (plan, opp) in plans.iter().zip(vs) {
        let mut stats = plan.new_stats();
        let res = plan.execute(t.threads, &mut ClassicSink::counting(&mut stats), true)?;
        if res.stopped.is_some() && res.games < res.total {
            return Ok(None);
        }
        stats.finish();
        let Some((m, _, _)) = stats.diff(0) else {
            return Err(CliError::Input(format!(
                "step {k}: every game against {opp} ended by an agent error ({})",
                res.first_error.as_deref().unwrap_or("")
            )));
        };
        sum += m;
    }
    Ok(Some(sum / vs.len() as f64))
}
