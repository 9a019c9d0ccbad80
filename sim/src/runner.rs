//! Running many games: the plan (series × games, paired seats, shards), one
//! game from its indices alone, and the parallel executor that streams rows
//! to the CSV files in game order.
//!
//! Determinism: game `g` of series `s` depends only on the plan and `(s, g)`:
//! its deal seed is `seed::deal(run_seed, deal)` with `deal = g / 2` when
//! paired (the odd game plays the same deal with the seats swapped), and the
//! agents draw from `seat_rng(hand_seed, seat)`. Threads only change the
//! order in which games finish; the writer puts them back in order.

use crate::error::CliError;
use crate::rows::{rule_values, write_text, CsvRow, ErrorRow, HandRow, MatchRow};
use crate::stats::SeriesStats;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kanaszta_agents::{play_hand, play_match, seat_rng, Agent, AgentError, AgentSpec, HandPlay};
use kanaszta_engine::{GameState, HandEnd, HandRecord, HandScore, Match, Rules};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Hands or full matches (`hands`, `matches` in run.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Single hands, running totals zero.
    Hands,
    /// Matches to the target with the tax (D-15, D-16).
    Matches,
}

impl Mode {
    /// `hands` or `matches`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hands => "hands",
            Mode::Matches => "matches",
        }
    }

    /// Parses [`Mode::name`].
    pub fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "hands" => Ok(Mode::Hands),
            "matches" => Ok(Mode::Matches),
            _ => Err(format!("unknown mode `{s}`: expected hands or matches")),
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which deals a shard plays: those whose index mod `n` is in `indices`.
/// Sharding by deal keeps both games of a pair in the same shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Shard indices held (one for a shard, several for a partial merge).
    pub indices: Vec<u32>,
    /// Number of shards.
    pub n: u32,
}

impl Shard {
    /// The whole run.
    pub fn all() -> Shard {
        Shard {
            indices: vec![0],
            n: 1,
        }
    }

    /// Parses `I/N` (or `I+J/N`, written by a partial merge).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "bad shard `{text}`: expected I/N with N from 1 to {} and 0 ≤ I < N, e.g. 0/4 \
                 (shard I of N)",
                u32::MAX
            )
        };
        let (a, b) = text.split_once('/').ok_or_else(bad)?;
        let b = b.trim();
        let n: u32 = match b.parse() {
            Ok(n) => n,
            Err(_) if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) => {
                return Err(format!(
                    "bad shard `{text}`: N is {b}, above the most shards, {}: expected I/N with \
                     N from 1 to {} and 0 ≤ I < N, e.g. 0/4",
                    u32::MAX,
                    u32::MAX
                ))
            }
            Err(_) => return Err(bad()),
        };
        if n == 0 {
            return Err(bad());
        }
        let mut indices = Vec::new();
        for p in a.split('+') {
            let i: u32 = p.trim().parse().map_err(|_| bad())?;
            if i >= n {
                return Err(format!(
                    "bad shard `{text}`: shard {i} of {n}: expected I/N with 0 ≤ I < N, here I from 0 to {}",
                    n - 1
                ));
            }
            if indices.contains(&i) {
                return Err(bad());
            }
            indices.push(i);
        }
        indices.sort_unstable();
        Ok(Shard { indices, n })
    }

    /// Whether deal `d` belongs to the shard.
    pub fn contains(&self, deal: u64) -> bool {
        self.indices.contains(&((deal % self.n as u64) as u32))
    }

    /// Whether every shard is held.
    pub fn is_complete(&self) -> bool {
        self.indices.len() == self.n as usize
    }
}

/// In run.json as its text, `I/N`.
impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        Shard::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.indices.iter().map(u32::to_string).collect();
        write!(f, "{}/{}", parts.join("+"), self.n)
    }
}

/// One matchup under one rule setting, as stored in `run.json`; `R` is
/// the rules of the family (decorated [`Rules`], or classic).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesSpec<R = Rules> {
    /// Agent A (canonical spec).
    pub a: String,
    /// Agent B (canonical spec).
    pub b: String,
    /// The varied settings of a sweep (`tax=off;opening=90`), else empty.
    pub settings: String,
    /// The rules.
    pub rules: R,
}

/// `run.json`: everything a run's rows depend on. Runs merge only when their
/// manifests agree on everything but the shard. `R` is the rules of the
/// family: decorated [`Rules`], or classic (then run.json begins with
/// `"family": "classic"`, see [`RuleFamily`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest<R = Rules> {
    /// `play`, `tournament` or `sweep`.
    pub command: String,
    /// The master seed.
    pub seed: u64,
    /// `hands` or `matches`.
    pub mode: Mode,
    /// Games per series.
    pub games: u64,
    /// Paired seats (the odd game replays the even one's deal swapped).
    pub paired: bool,
    /// `I/N`.
    pub shard: Shard,
    /// The agents of a tournament (or A and B).
    pub agents: Vec<String>,
    /// The series, in order.
    pub series: Vec<SeriesSpec<R>>,
    /// `false` when the run holds fewer games than it describes (stopped
    /// by a signal, or a merge with games missing); absent when whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
    /// The games the run holds, when it is not complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_done: Option<u64>,
    /// `false` when some agent searches on a wall-clock budget (`time`),
    /// so that its games depend on the machine; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproducible: Option<bool>,
    /// Why the run is not reproducible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproducible_note: Option<String>,
    /// The version of `kanaszta` that played the run (absent in runs
    /// written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The git commit it was built from, or `unknown`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Whether tracked files differed from that commit at the build:
    /// `true`, `false` or `unknown`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty: Option<String>,
}

/// This build: the package version, the git commit and whether the
/// sources differed from it (embedded by `build.rs`).
pub fn build_info() -> (String, String, String) {
    (
        env!("CARGO_PKG_VERSION").to_string(),
        env!("KANASZTA_COMMIT").to_string(),
        env!("KANASZTA_DIRTY").to_string(),
    )
}

/// An unreadable or malformed `run.json`: the file, and the field that was
/// wrong when one was.
#[derive(Debug)]
pub enum ManifestError {
    /// The run directory does not exist.
    NoDirectory(PathBuf),
    /// `run.json` cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// `run.json` is a run of the other rule family.
    Family {
        /// The run directory.
        dir: PathBuf,
        /// Its family.
        found: String,
        /// The family the reader takes.
        expected: String,
    },
    /// `run.json` is not a manifest.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The field that was wrong (`seed`, `series[1].rules`), when
        /// serde's message does not name it already.
        field: Option<String>,
        /// What was wrong.
        message: String,
    },
}

/// How a run directory is described in messages.
const RUN_DIR: &str = "expected a run directory written by kanaszta play, tournament or sweep";

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestError::NoDirectory(dir) => {
                write!(f, "{}: no such directory ({RUN_DIR})", dir.display())
            }
            ManifestError::Read { path, source } => {
                write!(f, "cannot read {}: {source} ({RUN_DIR})", path.display())
            }
            ManifestError::Family {
                dir,
                found,
                expected,
            } => write!(
                f,
                "{}: a run of {found}, where this reads runs of {expected} only",
                dir.display()
            ),
            ManifestError::Malformed {
                path,
                field: None,
                message,
            } => write!(f, "{}: malformed run.json: {message}", path.display()),
            ManifestError::Malformed {
                path,
                field: Some(field),
                message,
            } => write!(
                f,
                "{}: malformed run.json: field `{field}`: {message}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ManifestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ManifestError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// How many games of `0..games` have their deal in `shard`, counted
/// without enumerating them.
pub fn games_in_shard(games: u64, paired: bool, shard: &Shard) -> u64 {
    let n = u64::from(shard.n.max(1));
    // Deals `0..end` whose index mod n is one of the shard's.
    let deals = |end: u64| -> u64 {
        shard
            .indices
            .iter()
            .map(|&i| {
                let i = u64::from(i);
                if i < end {
                    (end - 1 - i) / n + 1
                } else {
                    0
                }
            })
            .sum()
    };
    if paired {
        let whole = games / 2;
        2 * deals(whole) + u64::from(games % 2 == 1 && shard.contains(whole))
    } else {
        deals(games)
    }
}

/// The rules of a family of canasta as a run stores them.
pub trait RuleFamily:
    Serialize + serde::de::DeserializeOwned + Clone + PartialEq + std::fmt::Debug
{
    /// `family` in run.json: none for decorated canasta (runs written
    /// before classic canasta have none), `classic`.
    const FAMILY: Option<&'static str>;
    /// Every switch and its value, for messages.
    fn switches(&self) -> Vec<(String, String)>;
}

impl RuleFamily for Rules {
    const FAMILY: Option<&'static str> = None;
    fn switches(&self) -> Vec<(String, String)> {
        self.settings()
    }
}

/// How a family is named in messages.
pub fn family_name(family: Option<&str>) -> String {
    match family {
        None => "decorated canasta".to_string(),
        Some("classic") => "classic canasta".to_string(),
        Some(other) => format!("family `{other}`"),
    }
}

impl<R: RuleFamily> Manifest<R> {
    /// The games of the run's shard, over all series (saturating).
    pub fn shard_games(&self) -> u64 {
        games_in_shard(self.games, self.paired, &self.shard)
            .saturating_mul(self.series.len() as u64)
    }

    /// The deal of game `g`: `g / 2` when paired.
    pub fn deal(&self, g: u64) -> u64 {
        if self.paired {
            g / 2
        } else {
            g
        }
    }

    /// Writes `DIR/run.json` (with the family first, unless decorated).
    pub fn write(&self, dir: &Path) -> Result<(), CliError> {
        #[derive(Serialize)]
        struct Tagged<'a, R: RuleFamily> {
            family: &'a str,
            #[serde(flatten)]
            manifest: &'a Manifest<R>,
        }
        let json = match R::FAMILY {
            None => serde_json::to_string_pretty(self),
            Some(family) => serde_json::to_string_pretty(&Tagged {
                family,
                manifest: self,
            }),
        }
        .map_err(|e| CliError::Input(format!("internal: run.json: {e}")))?;
        let path = dir.join("run.json");
        std::fs::write(&path, json + "\n").map_err(|e| CliError::io("write", path.display(), e))
    }
}

impl Manifest {
    /// Reads `DIR/run.json` of a decorated run: the one reader of run.json,
    /// used by `merge`, `ratings` and `replay`. A classic run is refused
    /// with a message that says so.
    pub fn read(dir: &Path) -> Result<Manifest, ManifestError> {
        read_manifest(dir)
    }
}

/// The family of a run directory's `run.json`: `None` for decorated
/// canasta, `Some("classic")` for classic.
pub fn run_family(dir: &Path) -> Result<Option<String>, ManifestError> {
    let (path, text) = read_run_json(dir)?;
    #[derive(Deserialize)]
    struct Family {
        #[serde(default)]
        family: Option<String>,
    }
    serde_json::from_str::<Family>(&text)
        .map(|f| f.family)
        .map_err(|e| ManifestError::Malformed {
            path,
            field: None,
            message: e.to_string(),
        })
}

/// `DIR/run.json` and its text, read with a limit.
fn read_run_json(dir: &Path) -> Result<(PathBuf, String), ManifestError> {
    let path = dir.join("run.json");
    if !dir.is_dir() {
        return Err(ManifestError::NoDirectory(dir.to_path_buf()));
    }
    // Read with a limit: a run.json is a few kilobytes.
    use std::io::Read;
    let limit = crate::input::JSON_LIMIT;
    let mut text = String::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(limit + 1).read_to_string(&mut text))
        .map_err(|source| ManifestError::Read {
            path: path.clone(),
            source,
        })?;
    if text.len() as u64 > limit {
        return Err(ManifestError::Malformed {
            path,
            field: None,
            message: format!(
                "more than {} MiB: a run.json is a few kilobytes (is it the right file?)",
                limit >> 20
            ),
        });
    }
    Ok((path, text))
}

/// Reads `DIR/run.json` of a run of the family of `R`; a run of another
/// family is refused.
pub fn read_manifest<R: RuleFamily>(dir: &Path) -> Result<Manifest<R>, ManifestError> {
    let found = run_family(dir)?;
    if found.as_deref() != R::FAMILY {
        return Err(ManifestError::Family {
            dir: dir.to_path_buf(),
            found: family_name(found.as_deref()),
            expected: family_name(R::FAMILY),
        });
    }
    let (path, text) = read_run_json(dir)?;
    serde_json::from_str(&text).map_err(|e| {
        let (field, message) = match misfit::<R>(&text) {
            Some((field, m)) => (
                Some(field),
                format!("{m} (line {}, column {})", e.line(), e.column()),
            ),
            None => (None, e.to_string()),
        };
        ManifestError::Malformed {
            path,
            field,
            message,
        }
    })
}

/// The first field of a manifest whose value does not fit its type, and
/// why: serde's own message names a missing or unknown field but not the
/// field of a value of the wrong type, so the fields are tried one by one.
fn misfit<R: serde::de::DeserializeOwned>(text: &str) -> Option<(String, String)> {
    use serde::de::DeserializeOwned;
    use serde_json::Value;
    fn check<T: DeserializeOwned>(v: &Value) -> Option<String> {
        serde_json::from_value::<T>(v.clone())
            .err()
            .map(|e| e.to_string())
    }
    type Check = fn(&Value) -> Option<String>;
    let map: serde_json::Map<String, Value> = serde_json::from_str(text).ok()?;
    let top: [(&str, Check); 11] = [
        ("command", check::<String>),
        ("seed", check::<u64>),
        ("mode", check::<Mode>),
        ("games", check::<u64>),
        ("paired", check::<bool>),
        ("shard", check::<Shard>),
        ("agents", check::<Vec<String>>),
        ("series", check::<Vec<Value>>),
        ("version", check::<String>),
        ("commit", check::<String>),
        ("dirty", check::<String>),
    ];
    for (k, f) in top {
        if let Some(e) = map.get(k).and_then(f) {
            return Some((k.to_string(), e));
        }
    }
    let series = map.get("series")?.as_array()?;
    for (i, s) in series.iter().enumerate() {
        let fields: [(&str, Check); 4] = [
            ("a", check::<String>),
            ("b", check::<String>),
            ("settings", check::<String>),
            ("rules", check::<R>),
        ];
        // A rule switch alone (the others take their defaults).
        if let Some(rules) = s.get("rules").and_then(Value::as_object) {
            for (k, v) in rules {
                let one = Value::Object([(k.clone(), v.clone())].into_iter().collect());
                if let Some(e) = check::<R>(&one) {
                    return Some((format!("series[{i}].rules.{k}"), e));
                }
            }
        }
        for (k, f) in fields {
            if let Some(e) = s.get(k).and_then(f) {
                return Some((format!("series[{i}].{k}"), e));
            }
        }
        if let Some(e) = check::<SeriesSpec<R>>(s) {
            return Some((format!("series[{i}]"), e));
        }
    }
    None
}

/// A validated plan: the manifest with parsed agents.
pub struct Plan {
    /// What `run.json` says.
    pub manifest: Manifest,
    /// Hands or matches.
    pub mode: Mode,
    /// The shard played.
    pub shard: Shard,
    series: Vec<SeriesCtx>,
    /// Fault injection for the tests of error handling: the game whose index
    /// the environment variable `KANASZTA_FAULT_GAME` names panics.
    fault: Option<u64>,
}

struct SeriesCtx {
    specs: [AgentSpec; 2],
    names: [String; 2],
    rules: Rules,
    rule_values: std::sync::Arc<[String]>,
}

impl Plan {
    /// Validates a manifest (agents parse, rules valid, shard in range).
    pub fn new(mut manifest: Manifest) -> Result<Plan, CliError> {
        let mode = manifest.mode;
        let shard = manifest.shard.clone();
        let mut series = Vec::new();
        for s in &manifest.series {
            let a: AgentSpec = s.a.parse()?;
            let b: AgentSpec = s.b.parse()?;
            s.rules.validate()?;
            if s.rules.players != 2 {
                return Err(CliError::Input(format!(
                    "two agents play two seats: players must be 2 here, got {} (set players=2)",
                    s.rules.players
                )));
            }
            series.push(SeriesCtx {
                names: [a.to_string(), b.to_string()],
                specs: [a, b],
                rules: s.rules,
                rule_values: rule_values(&s.rules),
            });
        }
        // An agent on a wall-clock budget plays by the machine's speed and
        // load: its games cannot be played again as they were.
        let mut timed: Vec<String> = Vec::new();
        for c in &series {
            for spec in &c.specs {
                let t = spec.get("time").and_then(|v| v.parse::<f64>().ok());
                let name = spec.to_string();
                if t.is_some_and(|t| t > 0.0) && !timed.contains(&name) {
                    timed.push(name);
                }
            }
        }
        if !timed.is_empty() {
            manifest.reproducible = Some(false);
            manifest.reproducible_note =
                Some(format!(
                "{} {} on a wall-clock budget (`time`): {} moves depend on the machine's speed \
                 and load, so the games cannot be played again as they were (give iterations \
                 instead, with time=0, for a reproducible run)",
                timed.join(", "),
                if timed.len() == 1 { "searches" } else { "search" },
                if timed.len() == 1 { "its" } else { "their" }
            ));
        }
        Ok(Plan {
            manifest,
            mode,
            shard,
            series,
            fault: std::env::var("KANASZTA_FAULT_GAME")
                .ok()
                .and_then(|v| v.parse().ok()),
        })
    }

    /// The deal of game `g`.
    pub fn deal(&self, g: u64) -> u64 {
        self.manifest.deal(g)
    }

    /// Every `(series, game)` of the shard, in file order.
    pub fn jobs(&self) -> impl Iterator<Item = (u32, u64)> + Send + '_ {
        (0..self.series.len() as u32).flat_map(move |s| {
            (0..self.manifest.games)
                .filter(move |&g| self.shard.contains(self.deal(g)))
                .map(move |g| (s, g))
        })
    }

    /// Number of jobs of the shard.
    pub fn job_count(&self) -> u64 {
        self.manifest.shard_games()
    }

    /// Empty statistics, one per series.
    pub fn new_stats(&self) -> Vec<SeriesStats> {
        self.manifest
            .series
            .iter()
            .zip(&self.series)
            .map(|(s, c)| {
                SeriesStats::new(
                    c.names[0].clone(),
                    c.names[1].clone(),
                    s.settings.clone(),
                    self.mode == Mode::Matches,
                )
            })
            .collect()
    }

    /// The agents of a game, seat by seat, and whether they are swapped.
    pub fn seating(&self, series: u32, g: u64) -> ([&AgentSpec; 2], bool) {
        let c = &self.series[series as usize];
        let swapped = self.manifest.paired && g % 2 == 1;
        if swapped {
            ([&c.specs[1], &c.specs[0]], true)
        } else {
            ([&c.specs[0], &c.specs[1]], false)
        }
    }

    /// The deal seed of game `g`.
    pub fn deal_seed(&self, g: u64) -> u64 {
        kanaszta_engine::seed::deal(self.manifest.seed, self.deal(g))
    }

    /// Everything game `g` of `series` is played with, derived from the
    /// plan and the two indices alone: the run plays every game through
    /// this, and `replay` too, so that a replay cannot drift from the run.
    pub fn setup(&self, series: u32, g: u64) -> GameSetup<'_> {
        let (seats, swapped) = self.seating(series, g);
        GameSetup {
            deal: self.deal(g),
            swapped,
            seats,
            rules: self.series[series as usize].rules,
            deal_seed: self.deal_seed(g),
        }
    }

    /// Plays game `g` of `series` to its end. A panic (a bug of an agent or
    /// the engine) becomes an error row of that game, like an agent's error.
    pub fn play(&self, series: u32, g: u64) -> GameOut {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if self.fault == Some(g) {
                panic!("fault injected by KANASZTA_FAULT_GAME={g}");
            }
            self.play_unguarded(series, g)
        }));
        match outcome {
            Ok(out) => out,
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                let mut out = GameOut::new(series);
                out.error = Some(self.error_row(series, g, 0, None, format!("panic: {msg}")));
                out
            }
        }
    }

    fn error_row(
        &self,
        series: u32,
        g: u64,
        hand: u32,
        e: Option<&AgentError>,
        message: String,
    ) -> ErrorRow {
        let (seats, swapped) = self.seating(series, g);
        ErrorRow {
            series,
            game: g,
            deal: self.deal(g),
            swapped,
            mode: self.mode.name().into(),
            hand,
            run_seed: self.manifest.seed,
            deal_seed: self.deal_seed(g),
            seat: e.map(|e| e.player as u8),
            agent: e.map_or(String::new(), |e| seats[e.player.min(1)].to_string()),
            turn: e.map(|e| e.turn),
            action: e
                .and_then(|e| e.action)
                .map_or(String::new(), |a| a.to_string()),
            rule: e.map_or(String::new(), |e| e.error.rule.to_string()),
            message,
            rules: self.series[series as usize].rule_values.clone(),
        }
    }

    fn play_unguarded(&self, series: u32, g: u64) -> GameOut {
        let setup = self.setup(series, g);
        let ctx = &self.series[series as usize];
        let mut agents = setup.agents();
        let deal_seed = setup.deal_seed;
        let mut out = GameOut::new(series);
        let ids = Ids {
            series,
            game: g,
            deal: setup.deal,
            swapped: setup.swapped,
            mode: self.mode,
            run_seed: self.manifest.seed,
            deal_seed,
            names: setup.names(),
            rules: &ctx.rule_values,
        };
        match self.mode {
            Mode::Hands => {
                let (state, r) = setup.play_hand(&mut agents);
                match r {
                    Ok(play) => {
                        let raw: Vec<i32> = state.scores().iter().map(|s| s.total).collect();
                        let winner = unique_max(&raw);
                        out.actions = play.actions;
                        out.hands = hand_rows(
                            &ids,
                            &state,
                            0,
                            deal_seed,
                            &[0, 0],
                            &raw,
                            winner,
                            play.actions,
                        );
                    }
                    Err(e) => {
                        out.error = Some(self.error_row(series, g, 0, Some(&e), e.to_string()))
                    }
                }
            }
            Mode::Matches => {
                let mut track = MatchTrack::default();
                let mut hands = Vec::new();
                let mut actions = 0;
                let (m, r) = setup.play_match(&mut agents, |state, rec, play| {
                    let before: Vec<i32> = rec
                        .totals_after
                        .iter()
                        .zip(&rec.taxed)
                        .map(|(a, t)| a - t)
                        .collect();
                    actions += play.actions;
                    hands.extend(hand_rows(
                        &ids,
                        state,
                        rec.index,
                        rec.seed,
                        &before,
                        &rec.taxed,
                        rec.winner,
                        play.actions,
                    ));
                    track.hand(
                        rec.starter,
                        &rec.raw,
                        &rec.taxed,
                        &rec.totals_after,
                        rec.winner,
                    );
                });
                match r {
                    Ok(()) => {
                        out.actions = actions;
                        out.hands = hands;
                        out.matches = match_rows(&ids, &m, &track);
                    }
                    Err(e) => {
                        let hand = m.hands_played();
                        out.error = Some(self.error_row(series, g, hand, Some(&e), e.to_string()));
                    }
                }
            }
        }
        out
    }
}

/// What one game produced.
/// One game of a plan, ready to play: see [`Plan::setup`].
pub struct GameSetup<'a> {
    /// The deal (`g / 2` when paired).
    pub deal: u64,
    /// Whether the seats are swapped (the odd game of a pair).
    pub swapped: bool,
    /// The agents, seat by seat.
    pub seats: [&'a AgentSpec; 2],
    /// The rules of the series.
    pub rules: Rules,
    /// The seed of the deal (of the match's first hand).
    pub deal_seed: u64,
}

impl GameSetup<'_> {
    /// Fresh agents, seat by seat.
    pub fn agents(&self) -> Vec<Box<dyn Agent>> {
        self.seats.iter().map(|s| s.build()).collect()
    }

    /// The agents' names, seat by seat.
    pub fn names(&self) -> [String; 2] {
        [self.seats[0].to_string(), self.seats[1].to_string()]
    }

    /// Plays the game's hand (mode hands) with `agents`: the final state,
    /// and what the hand took or the agent error that ended it.
    pub fn play_hand(
        &self,
        agents: &mut [Box<dyn Agent>],
    ) -> (GameState, Result<HandPlay, AgentError>) {
        let mut state = GameState::new(self.rules, self.deal_seed);
        let mut rngs = vec![seat_rng(self.deal_seed, 0), seat_rng(self.deal_seed, 1)];
        let r = play_hand(&mut state, agents, &mut rngs);
        (state, r)
    }

    /// Plays the game's match (mode matches) with `agents`, calling
    /// `on_hand` after every hand: the match, and the agent error that
    /// ended it if one did.
    pub fn play_match(
        &self,
        agents: &mut [Box<dyn Agent>],
        on_hand: impl FnMut(&GameState, &HandRecord, HandPlay),
    ) -> (Match, Result<(), AgentError>) {
        let mut m = Match::new(self.rules, self.deal_seed);
        let r = play_match(&mut m, agents, on_hand);
        (m, r)
    }
}

#[derive(Debug, Default)]
pub struct GameOut {
    /// Series.
    pub series: u32,
    /// Two rows per hand (none if the game erred).
    pub hands: Vec<HandRow>,
    /// Two rows for a match.
    pub matches: Vec<MatchRow>,
    /// Why the game ended early.
    pub error: Option<ErrorRow>,
    /// Actions applied.
    pub actions: u64,
}

impl GameOut {
    fn new(series: u32) -> GameOut {
        GameOut {
            series,
            ..GameOut::default()
        }
    }
}

/// What names the rows of one game (`hand_rows`, `match_rows`).
pub(crate) struct Ids<'a> {
    pub(crate) series: u32,
    pub(crate) game: u64,
    pub(crate) deal: u64,
    pub(crate) swapped: bool,
    pub(crate) mode: Mode,
    pub(crate) run_seed: u64,
    pub(crate) deal_seed: u64,
    pub(crate) names: [String; 2],
    pub(crate) rules: &'a std::sync::Arc<[String]>,
}

fn unique_max(v: &[i32]) -> Option<u8> {
    let max = *v.iter().max()?;
    let mut it = v.iter().enumerate().filter(|(_, x)| **x == max);
    let first = it.next()?.0;
    it.next().is_none().then_some(first as u8)
}

/// `normal`, `from_hand`, `table_cleared`, `exhausted`, `stalled` or
/// `deadlocked`.
pub fn end_kind(end: Option<HandEnd>) -> (&'static str, Option<u8>) {
    match end {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => (
            if cleared_table {
                "table_cleared"
            } else if from_hand {
                "from_hand"
            } else {
                "normal"
            },
            Some(player),
        ),
        Some(HandEnd::Exhausted) => ("exhausted", None),
        Some(HandEnd::Deadlocked) => ("deadlocked", None),
        Some(HandEnd::Stalled) | None => ("stalled", None),
    }
}

/// The two `hands.csv` rows of a finished hand.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_rows(
    ids: &Ids,
    state: &GameState,
    hand: u32,
    hand_seed: u64,
    before: &[i32],
    taxed: &[i32],
    winner: Option<u8>,
    actions: u64,
) -> Vec<HandRow> {
    let (end, out_seat) = end_kind(state.end());
    let scores = state.scores();
    let taxed_winner = unique_max(taxed);
    let black_threes: Vec<i32> = (0..2)
        .map(|p| black_threes_in_hand(state, p, &scores[p]))
        .collect();
    (0..2)
        .map(|p| {
            let s = &scores[p];
            let st = state.stats(p);
            HandRow {
                series: ids.series,
                game: ids.game,
                deal: ids.deal,
                swapped: ids.swapped,
                mode: ids.mode.name().into(),
                hand,
                run_seed: ids.run_seed,
                deal_seed: ids.deal_seed,
                hand_seed,
                seat: p as u8,
                agent: ids.names[p].clone(),
                opponent: ids.names[1 - p].clone(),
                starter: state.starter() == p,
                turns: state.turns(),
                actions,
                end: end.into(),
                out_seat,
                went_out: out_seat == Some(p as u8),
                hand_winner: winner,
                won: winner == Some(p as u8),
                raw: s.total,
                taxed: taxed[p],
                total_before: before[p],
                total_after: before[p] + taxed[p],
                red_threes: s.red_threes,
                red_three_points: s.red_three_points,
                twins: s.twins,
                twin_points: s.twin_points,
                canastas_black_wild: s.canastas[0],
                canastas_black: s.canastas[1],
                canastas_red: s.canastas[2],
                canastas_red_wild: s.canastas[3],
                canastas_gold: s.canastas[4],
                canasta_points: s.canasta_points,
                heart_aces: s.heart_aces,
                heart_ace_points: s.heart_ace_points,
                going_out_points: s.going_out_points,
                from_hand_points: s.from_hand_points,
                cleared_table_points: s.cleared_table_points,
                base: s.base,
                melded: s.melded,
                in_hand: s.in_hand,
                card_value: s.card_value,
                opened_turn: st.opened_turn.map(turn_number),
                first_canasta_turn: st.first_canasta_turn.map(turn_number),
                pile_pickups: st.pile_pickups,
                free_pickups: st.free_pickups,
                cards_picked: st.cards_picked,
                frozen_turns: st.frozen_turns,
                rules: ids.rules.clone(),
                tax_divisor: Some(match ids.mode {
                    Mode::Hands => 1,
                    Mode::Matches => tax_divisor(state.rules(), before[p]),
                }),
                opponent_total_before: Some(before[1 - p]),
                lead_before: Some(before[p] - before[1 - p]),
                taxed_winner,
                won_taxed: Some(taxed_winner == Some(p as u8)),
                cards_in_hand: Some(s.in_hand - black_threes[p]),
                black_threes_in_hand: Some(black_threes[p]),
            }
        })
        .collect()
}

/// The number, counted from 1 as people count (I-24), of the turn in which
/// the engine recorded an event: the engine keeps the turns completed
/// before it. The last turn of a hand that ends at a discard is then
/// numbered `turns`.
pub fn turn_number(completed: u16) -> u16 {
    completed.saturating_add(1)
}

/// The divisor of the tax bracket of `total_before` (D-15, I-18): 1 when
/// the score is not divided (below the first threshold, or `tax=off`).
pub fn tax_divisor(rules: &Rules, total_before: i32) -> u32 {
    if rules.tax == kanaszta_engine::Switch::Off {
        1
    } else {
        rules.tax_schedule.divisor(total_before).max(1)
    }
}

/// The part of seat `p`'s `in_hand` (D-14) from black threes: −100 each
/// (I-16) when the cards in hand count, else 0.
pub fn black_threes_in_hand(state: &GameState, p: usize, s: &HandScore) -> i32 {
    if s.in_hand == 0 {
        0
    } else {
        -100 * state.hand(p).black_three_count() as i32
    }
}

/// The course of a match: leads, deficits, hand wins.
#[derive(Default)]
struct MatchTrack {
    first_starter: Option<u8>,
    leader: Option<u8>,
    lead_changes: u32,
    max_deficit: [i32; 2],
    hand_wins: [u32; 2],
    taxed_hand_wins: [u32; 2],
    raw_sum: [i64; 2],
    net_tax: [i64; 2],
}

impl MatchTrack {
    fn hand(
        &mut self,
        starter: u8,
        raw: &[i32],
        taxed: &[i32],
        totals: &[i32],
        winner: Option<u8>,
    ) {
        self.first_starter.get_or_insert(starter);
        if let Some(w) = winner {
            self.hand_wins[w as usize & 1] += 1;
        }
        if let Some(w) = unique_max(taxed) {
            self.taxed_hand_wins[w as usize & 1] += 1;
        }
        for p in 0..2 {
            self.raw_sum[p] += raw[p] as i64;
            self.net_tax[p] += raw[p] as i64 - taxed[p] as i64;
            self.max_deficit[p] = self.max_deficit[p].max(totals[1 - p] - totals[p]);
        }
        // A lead change: the strict leader differs from the last strict one.
        if let Some(l) = unique_max(totals) {
            if self.leader.is_some_and(|prev| prev != l) {
                self.lead_changes += 1;
            }
            self.leader = Some(l);
        }
    }
}

/// The deficit from which a won match counts as a comeback.
pub const COMEBACK: i32 = 2_000;

fn match_rows(ids: &Ids, m: &Match, t: &MatchTrack) -> Vec<MatchRow> {
    let res = m
        .result()
        .cloned()
        .unwrap_or_else(|| kanaszta_engine::MatchResult {
            winner: None,
            hands: m.hands_played(),
            totals: m.totals().to_vec(),
            capped: true,
        });
    (0..2)
        .map(|p| {
            let won = res.winner == Some(p as u8);
            MatchRow {
                series: ids.series,
                game: ids.game,
                deal: ids.deal,
                swapped: ids.swapped,
                run_seed: ids.run_seed,
                deal_seed: ids.deal_seed,
                seat: p as u8,
                agent: ids.names[p].clone(),
                opponent: ids.names[1 - p].clone(),
                first_starter: t.first_starter == Some(p as u8),
                hands: res.hands,
                capped: res.capped,
                winner: res.winner,
                won,
                total: res.totals[p],
                opponent_total: res.totals[1 - p],
                tax_paid: m.tax_paid()[p],
                raw_sum: t.raw_sum[p],
                hand_wins: t.hand_wins[p],
                lead_changes: t.lead_changes,
                max_deficit: t.max_deficit[p],
                comeback: won && t.max_deficit[p] >= COMEBACK,
                rules: ids.rules.clone(),
                net_tax: Some(t.net_tax[p]),
                taxed_hand_wins: Some(t.taxed_hand_wins[p]),
            }
        })
        .collect()
}

/// A CSV file written whole records at a time: rows collect in a buffer and
/// go to the file in one `write_all` of complete lines, so a run killed at
/// any moment leaves a valid file.
pub struct CsvFile {
    file: File,
    buf: Vec<u8>,
}

impl CsvFile {
    /// Creates (truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &[String]) -> Result<CsvFile, CliError> {
        let file = File::create(path).map_err(|e| CliError::io("create", path.display(), e))?;
        let mut f = CsvFile {
            file,
            buf: Vec::with_capacity(1 << 16),
        };
        f.row(header.iter().map(String::as_str))
            .and_then(|()| f.flush())
            .map_err(|e| CliError::io("write", path.display(), e))?;
        Ok(f)
    }

    /// Buffers one record (RFC 4180: a field with a comma, quote or line
    /// break is quoted, quotes doubled).
    pub fn row<I, T>(&mut self, cells: I) -> std::io::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        for (i, c) in cells.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            write_text(&mut self.buf, c.as_ref());
        }
        self.buf.push(b'\n');
        Ok(())
    }

    /// Buffers one record that `write` appends whole, newline included
    /// (such as a row's `write_csv`).
    pub fn record(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.buf);
    }

    /// Writes the buffered records to the file.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            self.file.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// The CSV files of a run directory: `hands.csv`, `errors.csv` and, in
/// matches mode, `matches.csv`, with rows `H`, `M` and `E`.
pub struct RunFiles<H, M, E> {
    hands: CsvFile,
    matches: Option<CsvFile>,
    errors: CsvFile,
    rows: std::marker::PhantomData<fn(&H, &M, &E)>,
}

/// The CSV files of a decorated run directory.
pub type Outputs = RunFiles<HandRow, MatchRow, ErrorRow>;

impl<H: CsvRow, M: CsvRow, E: CsvRow> RunFiles<H, M, E> {
    /// Creates the files in `dir` with their headers.
    pub fn open(dir: &Path, mode: Mode) -> Result<Self, CliError> {
        Ok(RunFiles {
            hands: CsvFile::create(&dir.join("hands.csv"), &H::header())?,
            matches: match mode {
                Mode::Matches => Some(CsvFile::create(&dir.join("matches.csv"), &M::header())?),
                Mode::Hands => None,
            },
            errors: CsvFile::create(&dir.join("errors.csv"), &E::header())?,
            rows: std::marker::PhantomData,
        })
    }

    /// Buffers one game's rows.
    pub fn game(&mut self, hands: &[H], matches: &[M], error: Option<&E>) {
        for r in hands {
            self.hands.record(|buf| r.write_csv(buf));
        }
        if let Some(m) = &mut self.matches {
            for r in matches {
                m.record(|buf| r.write_csv(buf));
            }
        }
        if let Some(e) = error {
            self.errors.record(|buf| e.write_csv(buf));
        }
    }

    /// Writes everything buffered.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.hands.flush()?;
        if let Some(m) = &mut self.matches {
            m.flush()?;
        }
        self.errors.flush()
    }
}

/// Files a run may leave in its directory, removed when a new run there
/// would not write them (so no stale file mixes with new ones).
pub const RUN_FILES: [&str; 8] = [
    "run.json",
    "hands.csv",
    "matches.csv",
    "errors.csv",
    "summary.csv",
    "tournament.csv",
    "ratings.csv",
    "sweep.csv",
];

/// Creates the run directory `dir`, or empties it of an earlier run's files
/// (all of them, with a note on stderr), for any family's run. Files of
/// those names that no run wrote (no run.json of a run beside them: the
/// user's own `ratings.csv`, say) are never removed: the run is refused,
/// before anything is played or written.
pub fn prepare_run_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::io("create output directory", dir.display(), e))?;
    // The files of an earlier run are replaced, all of them, never
    // mixed with the new ones; say so.
    let earlier: Vec<&str> = RUN_FILES
        .into_iter()
        .filter(|f| dir.join(f).exists())
        .collect();
    if !earlier.is_empty() {
        // What any family's run.json says of the run.
        #[derive(Deserialize)]
        struct Earlier {
            command: String,
            agents: Vec<String>,
            seed: u64,
            games: u64,
            mode: Mode,
            shard: Shard,
        }
        let earlier_run = read_run_json(dir)
            .ok()
            .and_then(|(_, text)| serde_json::from_str::<Earlier>(&text).ok());
        let Some(m) = earlier_run else {
            let run_json = dir.join("run.json");
            let why = if run_json.exists() {
                format!(
                    "its run.json is not one a kanaszta run wrote ({})",
                    read_run_json(dir).err().map_or_else(
                        || "not the fields of a run".to_string(),
                        |e| crate::input::clip(&e.to_string())
                    )
                )
            } else {
                "there is no run.json of a kanaszta run beside them".to_string()
            };
            return Err(CliError::Input(format!(
                "{}: holds {} and {why}, so they are not files of an earlier run, and a run \
                 there would replace them; give another --out (a new or empty directory, or \
                 one of an earlier run), or move those files away",
                dir.display(),
                earlier.join(", ")
            )));
        };
        let what = format!(
            "the earlier run there ({} {}, seed {}, {} {}{})",
            m.command,
            m.agents.join(" "),
            m.seed,
            m.games,
            m.mode,
            if m.shard.n > 1 {
                format!(", shard {}", m.shard)
            } else {
                String::new()
            }
        );
        eprintln!(
            "kanaszta: note: {}: replacing {what}; give another --out to keep it",
            dir.display()
        );
    }
    for f in RUN_FILES {
        let p = dir.join(f);
        if p.exists() {
            std::fs::remove_file(&p).map_err(|e| CliError::io("replace", p.display(), e))?;
        }
    }
    Ok(())
}

impl Outputs {
    /// Creates `dir` and the files with their headers; writes `run.json`.
    pub fn create(dir: &Path, manifest: &Manifest, mode: Mode) -> Result<Outputs, CliError> {
        prepare_run_dir(dir)?;
        manifest.write(dir)?;
        Outputs::open(dir, mode)
    }
}

/// What a run did.
pub struct RunResult {
    /// Per series.
    pub stats: Vec<SeriesStats>,
    /// Games played.
    pub games: u64,
    /// Games lost to errors.
    pub errors: u64,
    /// The first error message, for the user.
    pub first_error: Option<String>,
    /// Actions applied.
    pub actions: u64,
    /// Hands played.
    pub hands: u64,
    /// Wall time.
    pub seconds: f64,
    /// The most games that finished and waited to be written at once (at
    /// most [`REORDER_WINDOW`]).
    pub peak_pending: u64,
    /// The games of the plan (of its shard).
    pub total: u64,
    /// The signal that stopped the run before its last game, if one did.
    pub stopped: Option<i32>,
    /// Whether the early-stop predicate ended the run (see [`execute_until`]).
    pub decided: bool,
}

/// A predicate the writer consults after each game, in game order: `true`
/// ends the run there, the games after it unwritten and uncounted.
pub type EarlyStop<'a> = &'a mut (dyn FnMut(&GameOut) -> bool + Send);

/// A progress bar on stderr (rate and ETA), or nothing when stderr is not a
/// terminal or `quiet`.
pub fn progress(total: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} {wide_bar} {human_pos}/{human_len} {msg} ({rate}, ETA {eta})",
    ) {
        pb.set_style(style.with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        ));
    }
    pb.set_message(unit.to_string());
    pb
}

/// A rayon pool of `threads` (0: one per core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// How many games may start ahead of the oldest game not yet written. The
/// writer puts games back in order, so while one slow game runs (a stalled
/// hand can take seconds) the others wait in memory; without a limit a long
/// run's memory grows with every slow game. With it, memory is flat in the
/// number of games, and threads that reach the limit wait for the slow one.
pub const REORDER_WINDOW: u64 = 4096;

/// The gate of [`REORDER_WINDOW`]: jobs enter in order, and job `seq` may
/// start once fewer than `size` games before it are unwritten.
struct Window {
    /// Games written so far, and whether the writer has stopped.
    state: Mutex<(u64, bool)>,
    changed: Condvar,
    size: u64,
}

impl Window {
    fn new(size: u64) -> Window {
        Window {
            state: Mutex::new((0, false)),
            changed: Condvar::new(),
            size: size.max(1),
        }
    }

    /// Whether job `seq` may start now without waiting (or the writer
    /// has stopped).
    fn admits(&self, seq: u64) -> bool {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 || seq < st.0 + self.size
    }

    /// Waits until job `seq` may start: true, or false once the writer has
    /// stopped (no more jobs should start).
    fn enter(&self, seq: u64) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !st.1 && seq >= st.0 + self.size {
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        !st.1
    }

    /// The writer has written `written` games.
    fn advance(&self, written: u64) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 = written;
        self.changed.notify_all();
    }

    /// The writer has stopped: release every waiting job.
    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

/// At most this many finished games wait in a worker before they go to
/// the writer together.
const BATCH_GAMES: usize = 64;

/// A worker hands its finished games to the writer at least this often
/// (and before it waits for the window, and when it stops).
const BATCH_AGE: Duration = Duration::from_millis(20);

/// A worker's finished games on their way to the writer. Handing them over
/// one by one cost a wake-up of the writer, a flush and a wake-up of the
/// window per game: a tenth of the time of a run of fast games. A batch
/// goes when it holds [`BATCH_GAMES`] games, when [`BATCH_AGE`] has passed
/// since the last one went (so a slow game goes at once), before its worker
/// waits for the window (the games the window waits for may be in it), and
/// when it is dropped.
struct Batch<G: Send> {
    tx: mpsc::SyncSender<Vec<(u64, G)>>,
    games: Vec<(u64, G)>,
    sent: Instant,
}

impl<G: Send> Batch<G> {
    fn new(tx: mpsc::SyncSender<Vec<(u64, G)>>) -> Batch<G> {
        Batch {
            tx,
            games: Vec::new(),
            sent: Instant::now(),
        }
    }

    /// Adds a finished game; sends the batch if it is due. Err once the
    /// writer has stopped.
    fn push(&mut self, seq: u64, game: G) -> Result<(), ()> {
        self.games.push((seq, game));
        if self.games.len() >= BATCH_GAMES || self.sent.elapsed() >= BATCH_AGE {
            self.send()
        } else {
            Ok(())
        }
    }

    /// Sends the games held. Err once the writer has stopped.
    fn send(&mut self) -> Result<(), ()> {
        self.sent = Instant::now();
        if self.games.is_empty() {
            return Ok(());
        }
        let games = std::mem::replace(&mut self.games, Vec::with_capacity(BATCH_GAMES));
        self.tx.send(games).map_err(|_| ())
    }
}

impl<G: Send> Clone for Batch<G> {
    fn clone(&self) -> Batch<G> {
        Batch::new(self.tx.clone())
    }
}

impl<G: Send> Drop for Batch<G> {
    fn drop(&mut self) {
        let _ = self.send();
    }
}

/// Closes the window when the writer stops, however it stops.
struct CloseOnDrop<'a>(&'a Window);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// One finished game as the executor's writer takes it in, whatever the
/// rule family: what it took and whether an error ended it.
pub trait Played: Send {
    /// Actions applied.
    fn actions(&self) -> u64;
    /// Hands played.
    fn hands(&self) -> u64;
    /// The error that ended the game, as the user reads it first.
    fn error(&self) -> Option<String>;
}

impl Played for GameOut {
    fn actions(&self) -> u64 {
        self.actions
    }
    fn hands(&self) -> u64 {
        self.hands.len() as u64 / 2
    }
    fn error(&self) -> Option<String> {
        self.error
            .as_ref()
            .map(|e| format!("series {} game {}: {}", e.series, e.game, e.message))
    }
}

/// Where finished games go, one at a time in game order: the statistics
/// and the CSV files of a run.
pub trait Sink<G>: Send {
    /// Takes in the next game.
    fn take(&mut self, game: &G) -> std::io::Result<()>;
    /// Writes what is buffered (every game taken in so far is then on disk).
    fn flush(&mut self) -> std::io::Result<()>;
}

/// The statistics and files of a decorated run.
struct RunSink<'a> {
    stats: &'a mut [SeriesStats],
    out: Option<Outputs>,
}

impl Sink<GameOut> for RunSink<'_> {
    fn take(&mut self, g: &GameOut) -> std::io::Result<()> {
        let st = &mut self.stats[g.series as usize];
        if g.error.is_some() {
            st.add_error();
        } else {
            st.add_game(&g.hands, &g.matches);
        }
        if let Some(o) = &mut self.out {
            o.game(&g.hands, &g.matches, g.error.as_ref());
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.out {
            Some(o) => o.flush(),
            None => Ok(()),
        }
    }
}

/// Plays every job of the plan on `threads` threads, streaming rows in game
/// order into `out` (if any) as games finish. At most [`REORDER_WINDOW`]
/// games are in play or waiting to be written at any time.
pub fn execute(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
) -> Result<RunResult, String> {
    execute_within(plan, threads, out, quiet, REORDER_WINDOW, None)
}

/// [`execute`] that ends at the first game, in game order, for which `stop`
/// says so. The predicate sees the games in the order of the files whatever
/// the thread count, so where the run ends does not depend on it.
pub fn execute_until(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
    stop: EarlyStop<'_>,
) -> Result<RunResult, String> {
    execute_within(plan, threads, out, quiet, REORDER_WINDOW, Some(stop))
}

/// [`execute`] with a window of `window` games.
fn execute_within(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
    window: u64,
    stop: Option<EarlyStop<'_>>,
) -> Result<RunResult, String> {
    let unit = if plan.mode == Mode::Matches {
        "matches"
    } else {
        "hands"
    };
    let mut stats = plan.new_stats();
    let mut sink = RunSink {
        stats: &mut stats,
        out,
    };
    let mut res = execute_games(
        plan.jobs(),
        plan.job_count(),
        unit,
        |s, g| plan.play(s, g),
        &mut sink,
        threads,
        quiet,
        window,
        stop,
    )?;
    for s in &mut stats {
        s.finish();
    }
    res.stats = stats;
    Ok(res)
}

/// The executor of any family: plays `jobs` (`(series, game)`, `total` of
/// them) with `play` on `threads` threads and hands the games to `sink` in
/// job order as they finish, at most `window` of them in play or waiting
/// at once. `stop`, when given, sees each game in job order and ends the
/// run after the first one it answers `true` for (an early stop that does
/// not depend on the thread count). The result's `stats` is left empty for
/// the caller.
#[allow(clippy::too_many_arguments)]
pub fn execute_games<G: Played>(
    jobs: impl Iterator<Item = (u32, u64)> + Send,
    total: u64,
    unit: &str,
    play: impl Fn(u32, u64) -> G + Sync,
    sink: &mut impl Sink<G>,
    threads: usize,
    quiet: bool,
    window: u64,
    mut stop: Option<&mut (dyn FnMut(&G) -> bool + Send)>,
) -> Result<RunResult, String> {
    let start = Instant::now();
    let pb = progress(total, quiet, unit);
    let pool = pool(threads)?;
    let (tx, rx) = mpsc::sync_channel::<Vec<(u64, G)>>(4 * pool.current_num_threads().max(1));
    let pbw = pb.clone();
    let window = Window::new(window);
    let window = &window;
    let play = &play;
    let result = std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<RunResult, String> {
            let _close = CloseOnDrop(window);
            let mut pending: BTreeMap<u64, G> = BTreeMap::new();
            let mut peak = 0usize;
            let mut next = 0u64;
            let mut res = RunResult {
                stats: Vec::new(),
                games: 0,
                errors: 0,
                first_error: None,
                actions: 0,
                hands: 0,
                seconds: 0.0,
                peak_pending: 0,
                total,
                stopped: None,
                decided: false,
            };
            let write_err = |e: std::io::Error| format!("cannot write the CSV files: {e}");
            'games: while let Ok(batch) = rx.recv() {
                // Everything already sent is taken in before the writing.
                for (seq, game) in batch.into_iter().chain(rx.try_iter().flatten()) {
                    pending.insert(seq, game);
                }
                peak = peak.max(pending.len());
                let mut wrote = false;
                while let Some(g) = pending.remove(&next) {
                    next += 1;
                    wrote = true;
                    res.games += 1;
                    res.actions += g.actions();
                    res.hands += g.hands();
                    if let Some(e) = g.error() {
                        res.errors += 1;
                        if res.first_error.is_none() {
                            res.first_error = Some(e);
                        }
                    }
                    sink.take(&g).map_err(write_err)?;
                    pbw.inc(1);
                    if stop.as_mut().is_some_and(|f| f(&g)) {
                        // Dropping the receiver on return stops the workers.
                        res.decided = true;
                        break 'games;
                    }
                }
                // Every game finished in order is on disk before the next wait.
                if wrote {
                    sink.flush().map_err(write_err)?;
                    window.advance(next);
                }
            }
            sink.flush().map_err(write_err)?;
            res.peak_pending = peak as u64;
            Ok(res)
        });
        // A send fails only when the writer has stopped on an error: stop too.
        let _ = pool.install(|| {
            jobs.enumerate().par_bridge().try_for_each_with(
                Batch::new(tx),
                |batch, (seq, (s, g))| {
                    let seq = seq as u64;
                    // After a signal no new game is dealt.
                    if crate::signals::stopped().is_some() {
                        return Err(());
                    }
                    if !window.admits(seq) {
                        // The games the window waits for may be here.
                        batch.send()?;
                    }
                    if !window.enter(seq) || crate::signals::stopped().is_some() {
                        return Err(());
                    }
                    batch.push(seq, play(s, g))
                },
            )
        });
        writer
            .join()
            .unwrap_or_else(|_| Err("the writer thread failed".into()))
    });
    pb.finish_and_clear();
    let mut res = result?;
    res.seconds = start.elapsed().as_secs_f64();
    if res.games < res.total && !res.decided {
        res.stopped = crate::signals::stopped();
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    #[test]
    fn window_holds_a_job_until_the_games_before_it_are_written() {
        let w = Window::new(3);
        assert!(
            w.enter(0) && w.enter(2),
            "jobs inside the window start at once"
        );
        let entered = AtomicU64::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                assert!(w.enter(4), "job 4 starts once game 1 is written");
                entered.store(1, Ordering::SeqCst);
            });
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(
                entered.load(Ordering::SeqCst),
                0,
                "job 4 waits: games 0..1 unwritten"
            );
            w.advance(1);
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(
                entered.load(Ordering::SeqCst),
                0,
                "one game written is not enough"
            );
            w.advance(2);
        });
        assert_eq!(entered.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_closed_window_releases_waiting_jobs_and_starts_no_more() {
        let w = Window::new(2);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| w.enter(10));
            std::thread::sleep(Duration::from_millis(20));
            w.close();
            assert!(!waiter.join().unwrap(), "a waiting job is told to stop");
        });
        assert!(!w.enter(0), "no job starts after the writer stopped");
    }

    fn plan(games: u64) -> Plan {
        Plan::new(Manifest {
            command: "test".into(),
            seed: 17,
            mode: Mode::Hands,
            games,
            paired: true,
            shard: Shard::all(),
            agents: vec!["greedy".into(), "random".into()],
            series: vec![SeriesSpec {
                a: "greedy".into(),
                b: "random".into(),
                settings: String::new(),
                rules: Rules::default(),
            }],
            complete: None,
            games_done: None,
            reproducible: None,
            reproducible_note: None,
            version: None,
            commit: None,
            dirty: None,
        })
        .expect("a valid plan")
    }

    #[test]
    fn a_narrow_window_bounds_the_waiting_games_and_changes_no_result() {
        let p = plan(40);
        let wide = execute_within(&p, 2, None, true, REORDER_WINDOW, None).expect("runs");
        for size in [1, 2, 5] {
            let narrow = execute_within(&p, 2, None, true, size, None).expect("runs");
            assert!(
                narrow.peak_pending <= size,
                "window {size}: {} games waited",
                narrow.peak_pending
            );
            assert_eq!(narrow.games, 40);
            assert_eq!(
                (narrow.actions, narrow.hands, narrow.errors),
                (wide.actions, wide.hands, wide.errors)
            );
            let cells = |r: &RunResult| -> Vec<Vec<String>> {
                r.stats
                    .iter()
                    .flat_map(|s| [s.cells(0), s.cells(1)])
                    .collect()
            };
            assert_eq!(
                cells(&narrow),
                cells(&wide),
                "window {size}: same statistics"
            );
        }
    }

    #[test]
    fn an_early_stop_ends_the_run_at_the_same_game_for_any_thread_count() {
        let p = plan(200);
        for threads in [1, 2] {
            let mut seen = Vec::new();
            let mut stop = |g: &GameOut| {
                let game = g.hands.first().map_or(u64::MAX, |r| r.game);
                seen.push(game);
                game == 37
            };
            let r = execute_until(&p, threads, None, true, &mut stop).expect("runs");
            assert!(r.decided && r.stopped.is_none());
            assert_eq!(r.games, 38, "{threads} threads: games 0..=37 counted");
            assert_eq!(seen, (0..38).collect::<Vec<u64>>(), "in game order");
            assert_eq!(
                r.stats[0].cells(0),
                plan_stats(&p, 38),
                "the statistics of those games"
            );
        }
    }

    /// The statistics of the first `games` games of `p`'s plan.
    fn plan_stats(p: &Plan, games: u64) -> Vec<String> {
        let mut m = p.manifest.clone();
        m.games = games;
        let short = Plan::new(m).expect("a valid plan");
        execute(&short, 1, None, true).expect("runs").stats[0].cells(0)
    }
}
