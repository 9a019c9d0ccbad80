//! Runs of classic canasta with the decorated runs' shape: a manifest
//! (run.json, with `"family": "classic"`) of series (matchups, rule
//! settings) and a shard, played by the generic executor into hands.csv,
//! matches.csv and errors.csv, and reported as `play`, `tournament` or
//! `sweep` (summary.csv, tournament.csv, ratings.csv, sweep.csv).

use super::{
    seating_text, ClassicErrorRow, ClassicGame, ClassicHandRow, ClassicMatchRow, ClassicPlan,
    ClassicSink, ClassicStats,
};
use crate::error::CliError;
use crate::lock::RunLock;
use crate::report::{self, SeriesSummary};
use crate::run::options::RunArgs;
use crate::run::{self, Manifest, Mode, RunResult, StoredRules};
use crate::signals;
use crate::sprt::Sprt;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Family;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// Classic rules as a run stores them: every switch by name, in the
/// order of [`ClassicRules::settings`] (the preset first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredClassicRules(pub ClassicRules);

impl Serialize for StoredClassicRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let settings = self.0.settings();
        let mut m = s.serialize_map(Some(settings.len()))?;
        for (k, v) in &settings {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for StoredClassicRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let map = BTreeMap::<String, String>::deserialize(d)?;
        let mut r = ClassicRules::default();
        let order: Vec<&str> = r.settings().into_iter().map(|(k, _)| k).collect();
        if let Some(k) = map.keys().find(|k| !order.contains(&k.as_str())) {
            return Err(D::Error::custom(format!(
                "unknown classic rule switch `{k}`: expected preset or one of {}",
                ClassicRules::keys().join(", ")
            )));
        }
        // In the order of the settings: the preset first, then the number
        // of players, then what they imply.
        for k in order {
            if let Some(v) = map.get(k) {
                r.set(k, v).map_err(D::Error::custom)?;
            }
        }
        r.validate().map_err(D::Error::custom)?;
        Ok(StoredClassicRules(r))
    }
}

impl StoredRules for StoredClassicRules {
    const FAMILY: Family = Family::Classic;
    fn switches(&self) -> Vec<(String, String)> {
        self.0
            .settings()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
}

/// The run.json of a classic run.
pub type ClassicManifest = Manifest<StoredClassicRules>;

impl SeriesSummary for ClassicStats {
    fn agent(&self, i: usize) -> &str {
        &self.agents[i]
    }
    fn settings(&self) -> &str {
        &self.settings
    }
    fn score(&self, i: usize) -> (f64, f64) {
        ClassicStats::score(self, i)
    }
    fn rate(&self, i: usize) -> Option<(f64, f64, f64)> {
        ClassicStats::rate(self, i)
    }
    fn diff(&self, i: usize) -> Option<(f64, f64, f64)> {
        ClassicStats::diff(self, i)
    }
    fn columns() -> Vec<&'static str> {
        ClassicStats::columns()
    }
    fn cells(&self, i: usize) -> Vec<String> {
        ClassicStats::cells(self, i)
    }
    fn shared() -> &'static [&'static str] {
        &[
            "players",
            "games",
            "errors",
            "hands",
            "deals",
            "mean_diff",
            "mean_diff_lo",
            "mean_diff_hi",
            "ended_out_share",
            "stock_out_share",
            "stalled_share",
            "mean_turns",
            "mean_match_hands",
            "capped_share",
        ]
    }
    fn win_rule(mode: Mode) -> &'static str {
        if mode == Mode::Matches {
            "the first side to the target, C-24; draws I-31"
        } else {
            "the higher side score, C-23"
        }
    }
    fn diff_legend(_: Mode) -> &'static str {
        "mean difference of the agents' hand scores (C-23) in points per hand, averaged per paired \
         deal, 95% interval"
    }
    fn turns_legend() -> &'static str {
        "mean turns per hand"
    }
    const DIFF_MATRIX: bool = true;
}

/// A checked classic run: its manifest and one plan per series.
pub struct ClassicRun {
    /// What run.json says.
    pub manifest: ClassicManifest,
    plans: Vec<ClassicPlan>,
}

impl ClassicRun {
    /// Validates a manifest: the agents parse, the rules are valid.
    pub fn new(manifest: ClassicManifest) -> Result<ClassicRun, CliError> {
        let mut plans = Vec::new();
        for (i, s) in manifest.series.iter().enumerate() {
            let specs = [
                super::parse_classic_side(&s.a)?,
                super::parse_classic_side(&s.b)?,
            ];
            let mut plan = ClassicPlan::new(
                s.rules.0,
                specs,
                manifest.mode,
                manifest.games,
                manifest.seed,
                manifest.paired,
            )?;
            plan.series = i as u32;
            plans.push(plan);
        }
        Ok(ClassicRun { manifest, plans })
    }

    /// Every `(series, game)` of the shard, in file order.
    pub fn jobs(&self) -> impl Iterator<Item = (u32, u64)> + Send + '_ {
        let m = &self.manifest;
        (0..self.plans.len() as u32).flat_map(move |s| {
            (0..m.games)
                .filter(move |&g| m.shard.contains(m.deal(g)))
                .map(move |g| (s, g))
        })
    }

    /// Empty statistics, one per series.
    pub fn new_stats(&self) -> Vec<ClassicStats> {
        self.plans
            .iter()
            .zip(&self.manifest.series)
            .map(|(p, s)| {
                let mut st = p.new_stats();
                st.series = p.series;
                st.settings = s.settings.clone();
                st.matches_mode = self.manifest.mode == Mode::Matches;
                st
            })
            .collect()
    }

    /// Plays every game of the shard on `threads` threads into `sink`.
    pub fn execute(
        &self,
        threads: usize,
        sink: &mut ClassicSink<'_>,
        quiet: bool,
    ) -> Result<RunResult, crate::error::RunError> {
        self.execute_until(threads, sink, quiet, None)
    }

    /// [`Self::execute`] that ends at the first game, in file order, for
    /// which `stop` says so (as [`run::execute_until`] does).
    pub fn execute_until(
        &self,
        threads: usize,
        sink: &mut ClassicSink<'_>,
        quiet: bool,
        stop: Option<&mut (dyn FnMut(&ClassicGame) -> bool + Send)>,
    ) -> Result<RunResult, crate::error::RunError> {
        // Rows no file takes are not built.
        let rows = sink.rows();
        run::execute_games(
            self.jobs(),
            self.manifest.shard_games(),
            self.manifest.mode.name(),
            |s, g| self.plans[s as usize].play_rows(g, rows),
            sink,
            threads,
            quiet,
            run::REORDER_WINDOW,
            stop,
        )
    }
}

/// Plays a classic run into `args.out` and prints its report, with a
/// sequential test that may end the run early (a side's score per hand,
/// C-23, the unit the deal played twice); exit 2 if games erred.
pub fn run(run: ClassicRun, args: &RunArgs, sprt: Option<Sprt>) -> Result<ExitCode, CliError> {
    let dir = &args.out;
    let _lock = RunLock::acquire(dir)?;
    signals::install()?;
    let m = &run.manifest;
    if m.paired && m.games % 2 == 1 {
        eprintln!(
            "kanaszta: warning: --{} {} is odd: with paired seats the last game is played only \
             once, unpaired; give an even number to pair every deal, or --unpaired",
            m.mode, m.games
        );
    }
    run::prepare_run_dir(dir)?;
    m.write(dir)?;
    let mut stats = run.new_stats();
    let mut sink = ClassicSink::files(&mut stats, dir, m.mode, args.written())?;
    let mut test = sprt;
    let res = match &mut test {
        None => run.execute(args.threads, &mut sink, args.quiet)?,
        Some(t) => {
            // One series, unsharded: the writer's order is the game index.
            let mut game = 0u64;
            let mut stop = |g: &ClassicGame| {
                game += 1;
                t.game(game - 1, g)
            };
            run.execute_until(args.threads, &mut sink, args.quiet, Some(&mut stop))?
        }
    };
    for s in &mut stats {
        s.finish();
    }
    let mut manifest = run.manifest.clone();
    if res.decided {
        // The run holds the deals up to the decision, whole: it is the run
        // of that many games (the same games).
        manifest.games = res.games;
    }
    if res.stopped.is_some() {
        manifest.complete = Some(false);
        manifest.games_done = Some(res.games);
    }
    let mut text = report(Some(dir), &manifest, &stats)?;
    match &test {
        Some(t) => {
            crate::sprt::write_with_sprt(&manifest, &t.record(run.manifest.games), dir)?;
            let [a, b] = [&manifest.agents[0], &manifest.agents[1]];
            text.push_str(&t.report(a, b, run.manifest.games / 2));
        }
        None if res.stopped.is_some() => manifest.write(dir)?,
        None => {}
    }
    if args.rows != run::Rows::All {
        run::Accum::of(args.rows, &res, stats).write(dir)?;
    }
    crate::report::finish(&text, &res, dir)
}

/// Writes summary.csv (and a tournament's or a sweep's files) into `dir`
/// (if any) and returns the report for stdout.
pub fn report(
    dir: Option<&Path>,
    manifest: &ClassicManifest,
    stats: &[ClassicStats],
) -> Result<String, CliError> {
    if let Some(dir) = dir {
        let header: Vec<String> = ClassicStats::columns()
            .into_iter()
            .map(String::from)
            .collect();
        let rows: Vec<Vec<String>> = stats
            .iter()
            .flat_map(|s| [s.cells(0), s.cells(1)])
            .collect();
        report::write_csv(dir, "summary.csv", &header, &rows)?;
    }
    let mut text = String::new();
    report::incomplete(manifest, &mut text);
    match manifest.command.as_str() {
        "tournament" => report::tournament(dir, manifest, stats, &mut text)?,
        "sweep" => report::sweep(dir, manifest, stats, &mut text)?,
        _ => {
            if let (Some(s), Some(spec)) = (stats.first(), manifest.series.first()) {
                let rules = spec.rules.0;
                text.push_str(&format!(
                    "{} vs {} under {}: {} {}, {}, seed {}{}\n",
                    s.agents[0],
                    s.agents[1],
                    rules.preset,
                    manifest.games,
                    manifest.mode,
                    if manifest.paired {
                        "paired seats"
                    } else {
                        "unpaired"
                    },
                    manifest.seed,
                    report::shard_text(manifest)
                ));
                let seating = ClassicRun::new(ClassicManifest {
                    series: vec![spec.clone()],
                    ..manifest.clone()
                })
                .map(|run| run.plans[0].seating())
                .unwrap_or_else(|_| seating_text(rules.players as usize, &s.agents));
                s.table(&mut text, &seating);
            }
        }
    }
    Ok(text)
}

/// The CSV files of a classic run directory.
pub type ClassicFiles = run::RunFiles<ClassicHandRow, ClassicMatchRow, ClassicErrorRow>;

impl RunArgs {
    /// The checked run of classic `series`.
    pub fn classic_plan(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<run::SeriesSpec<StoredClassicRules>>,
        default_hands: u64,
    ) -> Result<ClassicRun, CliError> {
        ClassicRun::new(self.manifest(command, agents, series, default_hands)?)
    }
}
