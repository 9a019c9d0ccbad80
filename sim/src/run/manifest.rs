//! `run.json`, the manifest of a run: its command, seed, mode (hands or
//! matches), shard and series (matchups under rule settings), written
//! with the run and read back by `merge`, `ratings` and `replay`; runs
//! merge only when their manifests agree on everything but the shard.

use crate::error::CliError;
pub use crate::error::ManifestError;
use kanaszta_engine::{Family, Rules};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    pub fn parse(s: &str) -> Result<Mode, BadMode> {
        match s {
            "hands" => Ok(Mode::Hands),
            "matches" => Ok(Mode::Matches),
            _ => Err(BadMode(s.to_string())),
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
    pub fn parse(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard::Malformed(text.to_string());
        let (a, b) = text.split_once('/').ok_or_else(bad)?;
        let b = b.trim();
        let n: u32 = match b.parse() {
            Ok(n) => n,
            Err(_) if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) => {
                return Err(BadShard::TooMany {
                    text: text.to_string(),
                    n: b.to_string(),
                })
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
                return Err(BadShard::OutOfRange {
                    text: text.to_string(),
                    i,
                    n,
                });
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

/// A mode that is neither `hands` nor `matches`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMode(pub String);

impl std::fmt::Display for BadMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown mode `{}`: expected hands or matches", self.0)
    }
}

impl std::error::Error for BadMode {}

/// A shard that is not `I/N` (or `I+J/N`) with `0 ≤ I < N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadShard {
    /// Not of the form, N zero, or an index twice.
    Malformed(String),
    /// N above the most shards (`u32::MAX`).
    TooMany {
        /// The text given.
        text: String,
        /// Its N.
        n: String,
    },
    /// An index not below N.
    OutOfRange {
        /// The text given.
        text: String,
        /// The index.
        i: u32,
        /// N.
        n: u32,
    },
}

impl std::fmt::Display for BadShard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadShard::Malformed(text) => write!(
                f,
                "bad shard `{text}`: expected I/N with N from 1 to {} and 0 ≤ I < N, e.g. 0/4 \
                 (shard I of N)",
                u32::MAX
            ),
            BadShard::TooMany { text, n } => write!(
                f,
                "bad shard `{text}`: N is {n}, above the most shards, {}: expected I/N with \
                 N from 1 to {} and 0 ≤ I < N, e.g. 0/4",
                u32::MAX,
                u32::MAX
            ),
            BadShard::OutOfRange { text, i, n } => write!(
                f,
                "bad shard `{text}`: shard {i} of {n}: expected I/N with 0 ≤ I < N, here I from 0 to {}",
                n - 1
            ),
        }
    }
}

impl std::error::Error for BadShard {}

/// Which row files a run writes (`--rows`): every file (`all`, the
/// default), `matches.csv` without `hands.csv` (`matches`), or no row file
/// (`none`). `errors.csv`, `summary.csv` and `run.json` are always written,
/// and so is `accum.json` (the statistics merge needs) when rows are left
/// out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Rows {
    /// hands.csv, matches.csv (matches mode) and errors.csv.
    #[default]
    All,
    /// matches.csv (matches mode) and errors.csv, no hands.csv.
    Matches,
    /// errors.csv only.
    None,
}

impl Rows {
    /// `all`, `matches` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Rows::All => "all",
            Rows::Matches => "matches",
            Rows::None => "none",
        }
    }
}

/// How the row files `hands.csv` and `matches.csv` are written
/// (`--compress`): plain text (the default) or gzip (`hands.csv.gz`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Compress {
    /// Plain CSV.
    #[default]
    None,
    /// gzip: `hands.csv.gz`, `matches.csv.gz`.
    Gz,
}

/// What a run writes of its rows: which files, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Which row files.
    pub rows: Rows,
    /// Plain or compressed.
    pub compress: Compress,
}

impl Written {
    /// The path of row file `name` (`hands.csv`) in `dir`, as written.
    pub fn path(&self, dir: &Path, name: &str) -> PathBuf {
        match self.compress {
            Compress::None => dir.join(name),
            Compress::Gz => dir.join(format!("{name}.gz")),
        }
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
/// `"family": "classic"`, see [`StoredRules`]).
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
    /// The row files written (`--rows`) when not all of them; absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Rows>,
    /// How the row files are compressed (`--compress`) when they are;
    /// absent: plain CSV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compress: Option<Compress>,
}

impl<R> Manifest<R> {
    /// The manifest of `series` over the whole run (shard `0/1`), with
    /// nothing else recorded (no build, every row file in plain CSV).
    pub fn new(
        command: &str,
        seed: u64,
        mode: Mode,
        games: u64,
        paired: bool,
        agents: Vec<String>,
        series: Vec<SeriesSpec<R>>,
    ) -> Manifest<R> {
        Manifest {
            command: command.into(),
            seed,
            mode,
            games,
            paired,
            shard: Shard::all(),
            agents,
            series,
            complete: None,
            games_done: None,
            reproducible: None,
            reproducible_note: None,
            version: None,
            commit: None,
            dirty: None,
            rows: None,
            compress: None,
        }
    }

    /// One paired series of agents `a` and `b` under `rules` over the whole
    /// run, as [`Manifest::new`] records it.
    pub fn pair(
        command: &str,
        seed: u64,
        mode: Mode,
        games: u64,
        a: &str,
        b: &str,
        rules: R,
    ) -> Manifest<R> {
        Manifest::new(
            command,
            seed,
            mode,
            games,
            true,
            vec![a.to_string(), b.to_string()],
            vec![SeriesSpec {
                a: a.to_string(),
                b: b.to_string(),
                settings: String::new(),
                rules,
            }],
        )
    }

    /// Records what the run writes of its rows, where it is not the
    /// default (all files, plain CSV): a default run's run.json is as it
    /// was before these were recorded.
    pub fn record_written(&mut self, w: Written) {
        self.rows = (w.rows != Rows::All).then_some(w.rows);
        self.compress = (w.compress != Compress::None).then_some(w.compress);
    }

    /// What the run wrote of its rows, as run.json records it.
    pub fn written(&self) -> Written {
        Written {
            rows: self.rows.unwrap_or_default(),
            compress: self.compress.unwrap_or_default(),
        }
    }
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
pub trait StoredRules:
    Serialize + serde::de::DeserializeOwned + Clone + PartialEq + std::fmt::Debug
{
    /// The family of these rules.
    const FAMILY: Family;
    /// Every switch and its value, for messages.
    fn switches(&self) -> Vec<(String, String)>;
}

impl StoredRules for Rules {
    const FAMILY: Family = Family::Decorated;
    fn switches(&self) -> Vec<(String, String)> {
        self.settings()
    }
}

/// `family` in the run.json of a run of `family`: none for decorated
/// canasta (runs written before classic canasta have none), the family's
/// name otherwise.
pub fn run_json_family(family: Family) -> Option<&'static str> {
    match family {
        Family::Decorated => None,
        f => Some(f.name()),
    }
}

/// The family a run.json's `family` stands for (see [`run_json_family`]),
/// if any.
pub fn family_of_run(family: Option<&str>) -> Option<Family> {
    Family::ALL
        .into_iter()
        .find(|f| run_json_family(*f) == family)
}

/// How a family is named in messages.
pub fn family_name(family: Option<&str>) -> String {
    match family_of_run(family) {
        Some(Family::Decorated) => "decorated canasta".to_string(),
        Some(Family::Classic) => "classic canasta".to_string(),
        None => format!("family `{}`", family.unwrap_or_default()),
    }
}

impl<R: StoredRules> Manifest<R> {
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
        struct Tagged<'a, R: StoredRules> {
            family: &'a str,
            #[serde(flatten)]
            manifest: &'a Manifest<R>,
        }
        let json = match run_json_family(R::FAMILY) {
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
pub(crate) fn read_run_json(dir: &Path) -> Result<(PathBuf, String), ManifestError> {
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
pub fn read_manifest<R: StoredRules>(dir: &Path) -> Result<Manifest<R>, ManifestError> {
    let found = run_family(dir)?;
    if found.as_deref() != run_json_family(R::FAMILY) {
        return Err(ManifestError::Family {
            dir: dir.to_path_buf(),
            found: family_name(found.as_deref()),
            expected: family_name(run_json_family(R::FAMILY)),
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
