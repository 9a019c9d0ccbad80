//! `kanaszta ratings`: one Bradley–Terry rating table from the `summary.csv`
//! files of several runs (play, tournament, merge), so that agents too slow
//! for a full round robin are rated through the pairs they did play — a
//! ladder of A v B, B v C, … runs is enough, as long as every agent is
//! linked to every other by some chain of games.
//!
//! The games of every pair are summed over the files, in the unit chosen
//! (hands or matches; ties count half). The intervals are those of the fit,
//! which treats games as independent: the seat-swapped pairing and the hands
//! of one match are not modelled, so read them as approximate.
//!
//! Runs of classic canasta are rated alike, from their summaries or from
//! their `hands.csv` (a side's players are named as in the summary,
//! `rules+greedy`); runs of the two families are not mixed.

use crate::classic::run::StoredClassicRules;
use crate::error::CliError;
use crate::report::{rating_table, RATING_COLUMNS};
use crate::run::{Manifest, Mode, Shard, StoredRules};
use crate::stats::bradley_terry;
use clap::Args;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kanaszta ratings`.
#[derive(Args, Debug, Clone)]
pub struct RatingsArgs {
    /// summary.csv files (or run directories holding one), or hands.csv
    /// files (or directories holding one and no summary, such as `kanaszta
    /// human`'s), rated from their rows.
    #[arg(required = true, value_name = "SUMMARY")]
    files: Vec<PathBuf>,
    /// What counts as a game: hands or matches (ties count half).
    #[arg(long, default_value = "hands")]
    unit: String,
    /// Write the ratings CSV to this file as well (also accepted as `--out`).
    #[arg(long = "file", alias = "out", value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `kanaszta ratings`.
pub fn run(a: RatingsArgs) -> Result<ExitCode, CliError> {
    let unit = Mode::parse(&a.unit).map_err(|e| CliError::Input(format!("--unit: {e}")))?;
    let mut files = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in a.files {
        // A file named twice (overlapping globs) counts once.
        let key = if f.is_dir() {
            f.join("summary.csv")
        } else {
            f.clone()
        };
        if seen.insert(std::fs::canonicalize(&key).unwrap_or(key)) {
            files.push(f);
        }
    }
    let mut inputs = Vec::new();
    for f in once_each(files)? {
        inputs.push(Input::read(&f)?);
    }
    let r = ratings(&inputs, unit)?;
    if let Some(path) = a.out {
        std::fs::write(&path, &r.csv).map_err(|e| CliError::io("write", path.display(), e))?;
    }
    super::print(&r.text)
}

/// The run.json of a run of either family.
enum RunManifest {
    Decorated(Manifest),
    Classic(Manifest<StoredClassicRules>),
}

/// The run described by the run.json beside a summary, if there is one.
/// A run still being written (its lock held), or stopped early, is marked
/// incomplete, with a note: its games so far are rated.
fn run_of(f: &Path) -> Result<Option<RunManifest>, CliError> {
    let dir = dir_of(f);
    let live = crate::lock::holder(&dir);
    match &live {
        Some((who, false)) => eprintln!(
            "kanaszta: note: {}: a run is still writing there ({who} holds {}); the games \
             written so far are rated, and the ratings will change as it goes on",
            dir.display(),
            dir.join(crate::lock::LOCK_FILE).display()
        ),
        Some((who, true)) => eprintln!(
            "kanaszta: note: {}: the run that wrote there ({who}) was stopped without \
             finishing (its lock {} is left, its process gone); the games it wrote are rated",
            dir.display(),
            dir.join(crate::lock::LOCK_FILE).display()
        ),
        None => {}
    }
    if !dir.join("run.json").is_file() {
        return Ok(None);
    }
    if crate::run::run_family(&dir)?.as_deref() == Some("classic") {
        let m = crate::run::read_manifest::<StoredClassicRules>(&dir)?;
        Ok(Some(RunManifest::Classic(incomplete(
            m,
            &dir,
            live.is_some(),
        ))))
    } else {
        let m = Manifest::read(&dir)?;
        Ok(Some(RunManifest::Decorated(incomplete(
            m,
            &dir,
            live.is_some(),
        ))))
    }
}

/// A run's manifest marked incomplete while its lock is held; a note when
/// its run.json says it was stopped early.
fn incomplete<R: StoredRules>(mut m: Manifest<R>, dir: &Path, live: bool) -> Manifest<R> {
    if live {
        m.complete = Some(false);
    } else if m.complete == Some(false) {
        eprintln!(
            "kanaszta: note: {}/run.json says the run is incomplete ({} of its {} games \
             played): only those are rated",
            dir.display(),
            m.games_done.unwrap_or(0),
            m.shard_games()
        );
    }
    m
}

/// The directory of a summary (or the directory given).
fn dir_of(f: &Path) -> PathBuf {
    let dir = if f.is_dir() {
        f.to_path_buf()
    } else {
        f.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    }
}

/// Whether every deal of shard `b` is in shard `a`.
fn covers(a: &Shard, b: &Shard) -> bool {
    let g = gcd(a.n, b.n);
    // The deals ≡ j (mod b.n) fall on every residue ≡ j (mod g) of a.n.
    b.indices.iter().all(|&j| {
        (j % g..a.n)
            .step_by(g as usize)
            .all(|r| a.indices.contains(&r))
    })
}

/// Whether shards `a` and `b` share some deal.
fn overlap(a: &Shard, b: &Shard) -> bool {
    let g = gcd(a.n, b.n);
    a.indices
        .iter()
        .any(|&i| b.indices.iter().any(|&j| i % g == j % g))
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The inputs with every game once. Game `g` of two runs is the same
/// game when their seed, rules, agents, mode and seating agree, whatever
/// the number of games each played: so of two inputs that hold games of
/// the same run (overlapping shards, such as the shards of a run and their
/// merge) or of the same seed (200 hands and 400 hands of one seed), the
/// one that holds all of the other's games is kept and the other left out,
/// with a note; when neither holds all of the other's games, the two are
/// refused.
fn once_each(files: Vec<PathBuf>) -> Result<Vec<PathBuf>, CliError> {
    let mut kept: Vec<(PathBuf, Option<RunManifest>)> = Vec::new();
    for f in files {
        let m = run_of(&f)?;
        let mut keep = true;
        let mut i = 0;
        while i < kept.len() {
            let (g, other) = &kept[i];
            let shared = match (&m, other) {
                (Some(RunManifest::Decorated(a)), Some(RunManifest::Decorated(b))) => {
                    shared_games(a, b, &f, g)?
                }
                (Some(RunManifest::Classic(a)), Some(RunManifest::Classic(b))) => {
                    shared_games(a, b, &f, g)?
                }
                _ => Shared::None,
            };
            match shared {
                Shared::None => i += 1,
                Shared::InKept => {
                    keep = false;
                    break;
                }
                Shared::InNew => {
                    kept.remove(i);
                }
            }
        }
        if keep {
            kept.push((f, m));
        }
    }
    Ok(kept.into_iter().map(|(f, _)| f).collect())
}

/// Which of two inputs holds the games they share.
enum Shared {
    /// They share no game.
    None,
    /// The kept input holds all of the new one's games.
    InKept,
    /// The new input holds all of the kept one's games.
    InNew,
}

/// Whether the run `a` of the new input `f` and the run `b` of the kept
/// input `g` share games, and which holds the other's (with a note);
/// refused when neither does.
fn shared_games<R: StoredRules>(
    a: &Manifest<R>,
    b: &Manifest<R>,
    f: &Path,
    g: &Path,
) -> Result<Shared, CliError> {
    // The two as if of one length: they share games 0 to the
    // shorter's count.
    let mut b_as_a = b.clone();
    b_as_a.games = a.games;
    if super::merge::difference(a, &b_as_a).is_some()
        || !overlap(&a.shard, &b.shard)
        || a.games.min(b.games) == 0
    {
        return Ok(Shared::None);
    }
    let whole = |x: &Manifest<R>| x.complete != Some(false);
    let games = |x: &Manifest<R>| {
        if a.games == b.games {
            String::new()
        } else {
            format!(", {} {}", x.games, x.mode)
        }
    };
    let run = if a.games == b.games {
        format!(
            "one run ({} {}, seed {}, {} {})",
            a.command,
            a.agents.join(" "),
            a.seed,
            a.games,
            a.mode
        )
    } else {
        format!(
            "runs of one seed and rules ({} {}, seed {}, {} and {} {}: game N of \
                 either is the same game)",
            a.command,
            a.agents.join(" "),
            a.seed,
            a.games.min(b.games),
            a.games.max(b.games),
            a.mode
        )
    };
    if whole(b) && b.games >= a.games && covers(&b.shard, &a.shard) {
        eprintln!(
            "kanaszta: note: {} (shard {}{}) holds games also in {} (shard {}) of {run}; \
                 they are counted once, from {}",
            f.display(),
            a.shard,
            games(a),
            g.display(),
            b.shard,
            g.display()
        );
        return Ok(Shared::InKept);
    }
    if whole(a) && a.games >= b.games && covers(&a.shard, &b.shard) {
        eprintln!(
            "kanaszta: note: {} (shard {}{}) holds games also in {} (shard {}) of {run}; \
                 they are counted once, from {}",
            g.display(),
            b.shard,
            games(b),
            f.display(),
            a.shard,
            f.display()
        );
        return Ok(Shared::InNew);
    }
    Err(CliError::Input(format!(
        "{} (shard {}) and {} (shard {}) hold some of the same games of {run}; \
             pass each game once: either the shards or their merge, or the longer run alone",
        g.display(),
        b.shard,
        f.display(),
        a.shard
    )))
}

/// The rating table: the text for stdout and the CSV (`RATING_COLUMNS`).
pub struct Ratings {
    pub text: String,
    pub csv: String,
}

/// Games of one ordered pair: `(score, games)`.
type Pairs = BTreeMap<(String, String), (f64, f64)>;

/// Reads one summary CSV (`text`, named `name` in errors) into `pairs`,
/// and the rule settings its rows name (with the first file naming each)
/// into `settings`.
fn read_summary(
    text: &str,
    name: &str,
    unit: Mode,
    pairs: &mut Pairs,
    settings: &mut BTreeMap<String, String>,
) -> Result<(), RatingsError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let header = r
        .headers()
        .map_err(|source| RatingsError::Header {
            name: name.to_string(),
            source,
        })?
        .clone();
    let (wins, ties, games) = match unit {
        Mode::Hands => ("hand_wins", "hand_ties", "hands"),
        Mode::Matches => ("match_wins", "match_draws", "matches"),
    };
    let want = ["settings", "agent", "opponent", wins, ties, games];
    let mut col = [0usize; 6];
    for (c, w) in col.iter_mut().zip(want) {
        *c = header
            .iter()
            .position(|h| h == w)
            .ok_or_else(|| RatingsError::NoColumn {
                name: name.to_string(),
                column: w,
            })?;
    }
    for (line, rec) in r.records().enumerate() {
        let line = line + 2;
        let rec = rec.map_err(|source| RatingsError::Record {
            name: name.to_string(),
            line,
            source,
        })?;
        let field = |i: usize| rec.get(col[i]).unwrap_or("").trim();
        let num = |i: usize| -> Result<f64, RatingsError> {
            let v = field(i);
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| RatingsError::NotCount {
                    name: name.to_string(),
                    line,
                    column: want[i],
                    value: v.to_string(),
                })
        };
        let (agent, opponent) = (field(1).to_string(), field(2).to_string());
        if agent.is_empty() || opponent.is_empty() {
            return Err(RatingsError::EmptyName {
                name: name.to_string(),
                line,
            });
        }
        let (w, t, n) = (num(3)?, num(4)?, num(5)?);
        if w + t > n {
            return Err(RatingsError::TooManyWins {
                name: name.to_string(),
                line,
                wins: w,
                ties: t,
                games: n,
                unit: games,
            });
        }
        if n == 0.0 || agent == opponent {
            // No games in this unit, or self-play: nothing to compare.
            continue;
        }
        settings
            .entry(field(0).to_string())
            .or_insert_with(|| name.to_string());
        let e = pairs.entry((agent, opponent)).or_insert((0.0, 0.0));
        e.0 += w + t / 2.0;
        e.1 += n;
    }
    Ok(())
}

/// Why summaries cannot be rated: the file and line, or the runs, and what
/// was wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum RatingsError {
    /// The header is not CSV.
    Header {
        /// The file.
        name: String,
        /// The reader's error.
        source: csv::Error,
    },
    /// A column of a summary missing.
    NoColumn {
        /// The file.
        name: String,
        /// The column.
        column: &'static str,
    },
    /// A record that is not CSV.
    Record {
        /// The file.
        name: String,
        /// The line.
        line: usize,
        /// The reader's error.
        source: csv::Error,
    },
    /// A cell that is not a count.
    NotCount {
        /// The file.
        name: String,
        /// The line.
        line: usize,
        /// The column.
        column: &'static str,
        /// The cell.
        value: String,
    },
    /// An empty agent name.
    EmptyName {
        /// The file.
        name: String,
        /// The line.
        line: usize,
    },
    /// More wins and ties than games.
    TooManyWins {
        /// The file.
        name: String,
        /// The line.
        line: usize,
        /// Wins.
        wins: f64,
        /// Ties.
        ties: f64,
        /// Games.
        games: f64,
        /// `hands` or `matches`.
        unit: &'static str,
    },
    /// Runs of both families.
    Families {
        /// The first run.
        first: String,
        /// Its family.
        first_family: &'static str,
        /// The other run.
        second: String,
        /// Its family.
        second_family: &'static str,
    },
    /// Runs under different rules (their run.json).
    Rules {
        /// The first run.
        first: String,
        /// The other run.
        second: String,
    },
    /// Runs under different rule settings: each setting with the first
    /// file naming it.
    Settings(Vec<(String, String)>),
    /// Fewer than two agents.
    TooFewAgents {
        /// `hands` or `matches`.
        unit: &'static str,
    },
    /// A pair counted from one side only.
    OneSided {
        /// The agent.
        agent: String,
        /// Its opponent.
        opponent: String,
        /// Games as the agent.
        as_agent: f64,
        /// Games as the opponent.
        as_opponent: f64,
    },
    /// Groups of agents that never met.
    Unlinked(Vec<Vec<String>>),
}

impl std::fmt::Display for RatingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RatingsError::Header { name, source } => {
                write!(f, "{name}: cannot read the header: {source}")
            }
            RatingsError::NoColumn { name, column } => write!(
                f,
                "{name}: no column `{column}`; expected the summary.csv of a run \
                 (kanaszta play, tournament or merge)"
            ),
            RatingsError::Record { name, line, source } => {
                write!(f, "{name} line {line}: {source}")
            }
            RatingsError::NotCount {
                name,
                line,
                column,
                value,
            } => write!(
                f,
                "{name} line {line}: column `{column}`: `{value}` is not a count"
            ),
            RatingsError::EmptyName { name, line } => {
                write!(f, "{name} line {line}: an agent name is empty")
            }
            RatingsError::TooManyWins {
                name,
                line,
                wins,
                ties,
                games,
                unit,
            } => write!(
                f,
                "{name} line {line}: {wins} wins and {ties} ties out of {games} {unit}"
            ),
            RatingsError::Families {
                first,
                first_family,
                second,
                second_family,
            } => write!(
                f,
                "{first} is a run of {first_family} and {second} of {second_family}; rate runs of one family at a time"
            ),
            RatingsError::Rules { first, second } => write!(
                f,
                "{first} and {second} were played under different rules (see their run.json); \
                 rate runs of one rule set at a time"
            ),
            RatingsError::Settings(settings) => {
                let shown: Vec<String> = settings
                    .iter()
                    .map(|(s, file)| format!("`{s}` ({file})"))
                    .collect();
                write!(
                    f,
                    "the runs are under different rule settings: {}; rate runs of one setting at a time",
                    shown.join(", ")
                )
            }
            RatingsError::TooFewAgents { unit } => write!(
                f,
                "no {unit} between two different agents in the input; nothing to rate"
            ),
            RatingsError::OneSided {
                agent,
                opponent,
                as_agent,
                as_opponent,
            } => write!(
                f,
                "{agent} v {opponent}: {as_agent} games as one side but {as_opponent} as the other; \
                 pass both rows of every run's summary"
            ),
            RatingsError::Unlinked(groups) => {
                let shown: Vec<String> = groups
                    .iter()
                    .map(|g| format!("{{{}}}", g.join(", ")))
                    .collect();
                write!(
                    f,
                    "the agents fall into groups that never played each other: {}; \
                     add a run linking them",
                    shown.join(" and ")
                )
            }
        }
    }
}

impl std::error::Error for RatingsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RatingsError::Header { source, .. } | RatingsError::Record { source, .. } => {
                Some(source)
            }
            _ => None,
        }
    }
}

impl From<RatingsError> for CliError {
    fn from(e: RatingsError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// The rules of one series of a run, of either family.
#[derive(Clone, Debug, PartialEq)]
pub enum RunRules {
    Decorated(Rules),
    Classic(ClassicRules),
}

impl RunRules {
    /// The family as messages name it.
    fn family(&self) -> &'static str {
        match self {
            RunRules::Decorated(_) => "decorated canasta",
            RunRules::Classic(_) => "classic canasta",
        }
    }
}

/// One summary CSV to rate: its name (for messages), its text, and the
/// rules of its run when known (from the `run.json` beside it), so that
/// runs under different rules are not mixed.
pub struct Input {
    pub name: String,
    pub text: String,
    /// The distinct rule sets of the run's series.
    pub rules: Option<Vec<RunRules>>,
}

impl Input {
    /// Reads a summary CSV (or `DIR/summary.csv`) and, when a `run.json`
    /// stands beside it, the rules of its run.
    ///
    /// A `hands.csv` (or a directory holding one but no summary, such as
    /// `kanaszta human`'s) is rated from its rows: each row is one seat's
    /// hand, won, tied or lost against the opponent it names.
    pub fn read(path: &Path) -> Result<Input, CliError> {
        let path = if path.is_dir() {
            let summary = path.join("summary.csv");
            let mut hands = path.join("hands.csv");
            if !hands.is_file() {
                hands = path.join("hands.csv.gz");
            }
            if !summary.is_file() && hands.is_file() {
                hands
            } else {
                summary
            }
        } else {
            path.to_path_buf()
        };
        let shown = path.display().to_string();
        // A hands.csv is counted as it streams by, in flat memory; a
        // summary is read whole (a few rows a series).
        let (head, rest) = crate::input::first_line(&shown)?;
        let header = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(head.as_slice())
            .records()
            .next()
            .and_then(Result::ok)
            .unwrap_or_default();
        let all = std::io::Read::chain(head.as_slice(), rest);
        if is_hands_header(&header) {
            let (summary, rules) = summary_of_hands(all, &shown)?;
            return Ok(Input {
                name: shown,
                text: summary,
                rules: Some(rules),
            });
        }
        let text =
            crate::input::read_text_from(all, &shown, "summary CSV", crate::input::SUMMARY_LIMIT)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let rules = if dir.join("run.json").is_file() {
            let series: Vec<RunRules> =
                if crate::run::run_family(dir)?.as_deref() == Some("classic") {
                    crate::run::read_manifest::<StoredClassicRules>(dir)?
                        .series
                        .into_iter()
                        .map(|s| RunRules::Classic(s.rules.0))
                        .collect()
                } else {
                    Manifest::read(dir)?
                        .series
                        .into_iter()
                        .map(|s| RunRules::Decorated(s.rules))
                        .collect()
                };
            let mut all: Vec<RunRules> = Vec::new();
            for r in series {
                if !all.contains(&r) {
                    all.push(r);
                }
            }
            Some(all)
        } else {
            None
        };
        Ok(Input {
            name: path.display().to_string(),
            text,
            rules,
        })
    }
}

/// Whether a CSV header is that of a `hands.csv` (of either family).
fn is_hands_header(header: &csv::StringRecord) -> bool {
    ["agent", "opponent", "won", "hand_winner"]
        .iter()
        .all(|w| header.iter().any(|h| h == *w))
}

/// The summary rows a `hands.csv` read from `input` amounts to (hand
/// wins, ties and hands per agent and opponent, under the settings of its
/// rows) and the rules its `rule_*` columns give. The rows stream by: what
/// is kept is a count per pair of agents and each distinct rule set.
fn summary_of_hands(
    input: impl std::io::Read,
    name: &str,
) -> Result<(String, Vec<RunRules>), CliError> {
    let guard = crate::input::CsvGuard::new(input, u64::MAX);
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(guard);
    let header = r
        .headers()
        .map_err(|e| CliError::Input(format!("{name}: cannot read the header: {e}")))?
        .clone();
    let at = |w: &str| header.iter().position(|h| h == w);
    let (Some(agent), Some(opponent), Some(won), Some(winner)) =
        (at("agent"), at("opponent"), at("won"), at("hand_winner"))
    else {
        return Err(CliError::Input(format!(
            "{name}: expected the hands.csv of kanaszta play, merge or human"
        )));
    };
    let classic_keys: Vec<String> = ClassicRules::keys()
        .iter()
        .map(|k| format!("rule_{k}"))
        .collect();
    if classic_keys.iter().all(|k| at(k).is_some()) {
        return classic_summary_of_hands(r, &header, name);
    }
    let keys = crate::rows::rule_columns();
    let rule_at: Vec<usize> = keys
        .iter()
        .map(|k| {
            at(k).ok_or_else(|| {
                CliError::Input(format!(
                    "{name}: a hands.csv without the column `{k}`; expected the hands.csv \
                     of kanaszta play, merge or human"
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    // (agent, opponent) -> (wins, ties, hands), in first-seen order.
    type Pair = (String, String);
    let mut pairs: Vec<(Pair, (u64, u64, u64))> = Vec::new();
    let mut rules: Vec<RunRules> = Vec::new();
    let mut seen: Vec<Vec<String>> = Vec::new();
    let mut rec = csv::StringRecord::new();
    for line in 2.. {
        if !r
            .read_record(&mut rec)
            .map_err(|e| CliError::Input(format!("{name} line {line}: {e}")))?
        {
            break;
        }
        let field = |i: usize| rec.get(i).unwrap_or("").trim();
        let known = seen
            .iter()
            .any(|v| v.iter().zip(&rule_at).all(|(s, &i)| s == field(i)));
        if !known {
            let values: Vec<String> = rule_at.iter().map(|&i| field(i).to_string()).collect();
            let r = crate::rows::rules_from_values(&values)
                .map_err(|e| CliError::Input(format!("{name} line {line}: rule columns: {e}")))?;
            seen.push(values);
            rules.push(RunRules::Decorated(r));
        }
        let w = match field(won) {
            "true" => 1,
            "false" => 0,
            v => {
                return Err(CliError::Input(format!(
                    "{name} line {line}: column `won`: `{v}` is not true or false"
                )))
            }
        };
        let t = u64::from(field(winner).is_empty());
        let (a, b) = (field(agent), field(opponent));
        if a.is_empty() || b.is_empty() {
            return Err(CliError::Input(format!(
                "{name} line {line}: an agent name is empty"
            )));
        }
        match pairs.iter_mut().find(|(k, _)| k.0 == a && k.1 == b) {
            Some((_, c)) => {
                c.0 += w;
                c.1 += t;
                c.2 += 1;
            }
            None => pairs.push(((a.to_string(), b.to_string()), (w, t, 1))),
        }
    }
    if let Some(line) = r.get_ref().open_quote() {
        return Err(CliError::Input(format!(
            "{name}: the quote opened on line {line} is never closed"
        )));
    }
    Ok((hand_summary(pairs), rules))
}

/// Hand wins, ties and hands of each agent against each opponent, in
/// first-seen order.
type HandPairs = Vec<((String, String), (u64, u64, u64))>;

/// The summary rows of counted hands.
fn hand_summary(pairs: HandPairs) -> String {
    let mut out = String::from(
        "settings,agent,opponent,hand_wins,hand_ties,hands,match_wins,match_draws,matches\n",
    );
    for ((a, b), (w, t, n)) in pairs {
        out.push_str(&format!(
            ",{},{},{w},{t},{n},0,0,0\n",
            csv_cell(&a),
            csv_cell(&b)
        ));
    }
    out
}

/// The summary rows of a classic `hands.csv` (its rows one per seat,
/// sim/CSV.md) and the rules of its `rule_*` columns. As in a classic
/// run's summary, a hand counts once for each agent at the table (a side
/// named by its players, `side_agents`), won when a seat of it won (its
/// side scored highest, C-23), tied when no side did.
fn classic_summary_of_hands<R: std::io::Read>(
    mut r: csv::Reader<crate::input::CsvGuard<R>>,
    header: &csv::StringRecord,
    name: &str,
) -> Result<(String, Vec<RunRules>), CliError> {
    let at = |w: &str| {
        header.iter().position(|h| h == w).ok_or_else(|| {
            CliError::Input(format!(
                "{name}: a classic hands.csv without the column `{w}`; expected the hands.csv \
                 of kanaszta play, merge or human under --rules classic-…"
            ))
        })
    };
    let [series, game, hand, agent, opponent, won, winner] = [
        "series",
        "game",
        "hand",
        "side_agents",
        "opponent",
        "won",
        "hand_winner",
    ]
    .map(at);
    let (series, game, hand, agent, opponent, won, winner) =
        (series?, game?, hand?, agent?, opponent?, won?, winner?);
    let keys: Vec<&str> = ClassicRules::keys();
    let rule_at: Vec<usize> = keys
        .iter()
        .map(|k| at(&format!("rule_{k}")))
        .collect::<Result<_, _>>()?;
    let mut pairs: HandPairs = Vec::new();
    let mut rules: Vec<RunRules> = Vec::new();
    let mut seen: Vec<Vec<String>> = Vec::new();
    // The hand being read (series, game, hand) and the agents counted in it.
    let mut current: Option<[String; 3]> = None;
    let mut counted: Vec<(String, String, bool)> = Vec::new();
    let mut flush = |counted: &mut Vec<(String, String, bool)>, tie: bool| {
        for (a, b, w) in counted.drain(..) {
            let key = (a, b);
            let (w, t) = (u64::from(w), u64::from(tie));
            match pairs.iter_mut().find(|(k, _)| *k == key) {
                Some((_, c)) => {
                    c.0 += w;
                    c.1 += t;
                    c.2 += 1;
                }
                None => pairs.push((key, (w, t, 1))),
            }
        }
    };
    let mut tie = false;
    let mut rec = csv::StringRecord::new();
    for line in 2.. {
        if !r
            .read_record(&mut rec)
            .map_err(|e| CliError::Input(format!("{name} line {line}: {e}")))?
        {
            break;
        }
        let field = |i: usize| rec.get(i).unwrap_or("").trim();
        let known = seen
            .iter()
            .any(|v| v.iter().zip(&rule_at).all(|(s, &i)| s == field(i)));
        if !known {
            let values: Vec<String> = rule_at.iter().map(|&i| field(i).to_string()).collect();
            let mut c = ClassicRules::default();
            for (k, v) in keys.iter().zip(&values) {
                c.set(k, v).map_err(|e| {
                    CliError::Input(format!("{name} line {line}: rule columns: {e}"))
                })?;
            }
            seen.push(values);
            rules.push(RunRules::Classic(c));
        }
        let w = match field(won) {
            "true" => true,
            "false" => false,
            v => {
                return Err(CliError::Input(format!(
                    "{name} line {line}: column `won`: `{v}` is not true or false"
                )))
            }
        };
        let (a, b) = (field(agent).to_string(), field(opponent).to_string());
        if a.is_empty() || b.is_empty() {
            return Err(CliError::Input(format!(
                "{name} line {line}: an agent name is empty"
            )));
        }
        let this = [field(series), field(game), field(hand)].map(str::to_string);
        if current.as_ref() != Some(&this) {
            flush(&mut counted, tie);
            current = Some(this);
            tie = field(winner).is_empty();
        }
        match counted.iter_mut().find(|(x, _, _)| *x == a) {
            Some(c) => c.2 |= w,
            None => counted.push((a, b, w)),
        }
    }
    flush(&mut counted, tie);
    if let Some(line) = r.get_ref().open_quote() {
        return Err(CliError::Input(format!(
            "{name}: the quote opened on line {line} is never closed"
        )));
    }
    Ok((hand_summary(pairs), rules))
}

/// A CSV cell: quoted when it holds a comma or a quote.
fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Rates the agents of the given summary CSVs.
pub fn ratings(inputs: &[Input], unit: Mode) -> Result<Ratings, RatingsError> {
    let mut pairs = Pairs::new();
    let mut settings = BTreeMap::new();
    let mut rules: Option<(&[RunRules], &str)> = None;
    for input in inputs {
        read_summary(&input.text, &input.name, unit, &mut pairs, &mut settings)?;
        if let Some(r) = input.rules.as_deref() {
            match rules {
                Some((first, name))
                    if first.first().map(RunRules::family) != r.first().map(RunRules::family) =>
                {
                    return Err(RatingsError::Families {
                        first: name.to_string(),
                        first_family: first.first().map_or("", RunRules::family),
                        second: input.name.clone(),
                        second_family: r.first().map_or("", RunRules::family),
                    })
                }
                Some((first, name)) if first != r => {
                    return Err(RatingsError::Rules {
                        first: name.to_string(),
                        second: input.name.clone(),
                    })
                }
                None => rules = Some((r, &input.name)),
                _ => {}
            }
        }
    }
    if settings.len() > 1 {
        return Err(RatingsError::Settings(settings.into_iter().collect()));
    }
    let mut agents: Vec<String> = pairs
        .keys()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    agents.sort();
    agents.dedup();
    if agents.len() < 2 {
        return Err(RatingsError::TooFewAgents { unit: unit.name() });
    }
    let idx = |a: &str| agents.iter().position(|x| x == a).unwrap_or(0);
    let k = agents.len();
    let mut wins = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    for ((a, b), (w, n)) in &pairs {
        let (i, j) = (idx(a), idx(b));
        wins[i][j] += w;
        games[i][j] += n;
    }
    // Both directions must count the same games: the fit reads each pair
    // from both sides.
    for i in 0..k {
        for j in i + 1..k {
            if games[i][j] != games[j][i] {
                return Err(RatingsError::OneSided {
                    agent: agents[i].clone(),
                    opponent: agents[j].clone(),
                    as_agent: games[i][j],
                    as_opponent: games[j][i],
                });
            }
        }
    }
    let parts = components(&games);
    if parts.len() > 1 {
        return Err(RatingsError::Unlinked(
            parts
                .iter()
                .map(|p| p.iter().map(|&i| agents[i].clone()).collect())
                .collect(),
        ));
    }
    let fit = bradley_terry(&wins, &games);
    let mut text = String::new();
    let runs = inputs.len();
    let _ = writeln!(
        text,
        "ratings: {k} agents, {} pairs, from {runs} {}",
        pairs.len() / 2,
        if runs == 1 { "run" } else { "runs" }
    );
    let rows = rating_table(&agents, &wins, &games, &fit, &mut text);
    crate::stats::legend(&mut text, &[crate::report::rating_legend(unit.name())]);
    let mut csv = RATING_COLUMNS.join(",");
    csv.push('\n');
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| quote(c)).collect();
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    Ok(Ratings { text, csv })
}

/// A CSV cell, quoted when it holds a comma or a quote (agent specs do).
fn quote(c: &str) -> String {
    if c.contains([',', '"', '\n']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
    }
}

/// The connected groups of agents (indices) linked by games.
fn components(games: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let k = games.len();
    let mut group = vec![usize::MAX; k];
    let mut parts = Vec::new();
    for s in 0..k {
        if group[s] != usize::MAX {
            continue;
        }
        let id = parts.len();
        let mut members = vec![s];
        group[s] = id;
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for j in 0..k {
                if group[j] == usize::MAX && (games[i][j] > 0.0 || games[j][i] > 0.0) {
                    group[j] = id;
                    members.push(j);
                }
            }
        }
        members.sort();
        parts.push(members);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "series,settings,agent,side,opponent,hands,hand_wins,hand_ties,matches,match_wins,match_draws";

    fn summary(rows: &[&str]) -> String {
        let mut s = HEAD.to_string();
        for r in rows {
            s.push('\n');
            s.push_str(r);
        }
        s.push('\n');
        s
    }

    fn input(name: &str, text: &str) -> Input {
        Input {
            name: name.into(),
            text: text.into(),
            rules: None,
        }
    }

    fn rating_of(csv: &str, agent: &str) -> f64 {
        csv.lines()
            .find(|l| l.starts_with(&format!("{agent},")))
            .and_then(|l| l.split(',').nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{agent} not rated in\n{csv}"))
    }

    #[test]
    fn a_chain_of_runs_rates_every_agent_in_order() {
        // x beats y 75% of hands and y beats z 75%: a ladder, no x v z games.
        let xy = summary(&["0,,x,a,y,400,300,0,0,0,0", "0,,y,b,x,400,100,0,0,0,0"]);
        let yz = summary(&["0,,y,a,z,400,290,20,0,0,0", "0,,z,b,y,400,90,20,0,0,0"]);
        let r = ratings(&[input("xy.csv", &xy), input("yz.csv", &yz)], Mode::Hands).unwrap();
        let (x, y, z) = (
            rating_of(&r.csv, "x"),
            rating_of(&r.csv, "y"),
            rating_of(&r.csv, "z"),
        );
        assert!(x > y && y > z, "{}", r.csv);
        // 75% is about 191 Elo; the half-win prior pulls it in a little.
        assert!((x - y - 190.0).abs() < 5.0, "{}", r.csv);
        assert!((x + y + z).abs() < 1e-6, "ratings are centred on 0");
        assert!(
            r.text.contains("3 agents, 2 pairs, from 2 runs"),
            "{}",
            r.text
        );
    }

    #[test]
    fn runs_of_one_pair_add_up() {
        let one = summary(&["0,,x,a,y,100,60,0,0,0,0", "0,,y,b,x,100,40,0,0,0,0"]);
        let twice = ratings(&[input("1", &one), input("2", &one)], Mode::Hands).unwrap();
        let doubled = summary(&["0,,x,a,y,200,120,0,0,0,0", "0,,y,b,x,200,80,0,0,0,0"]);
        let once = ratings(&[input("d", &doubled)], Mode::Hands).unwrap();
        assert_eq!(twice.csv, once.csv);
    }

    #[test]
    fn matches_are_counted_apart_from_hands() {
        let s = summary(&["0,,x,a,y,100,50,0,10,9,0", "0,,y,b,x,100,50,0,10,1,0"]);
        let h = ratings(&[input("s", &s)], Mode::Hands).unwrap();
        let m = ratings(&[input("s", &s)], Mode::Matches).unwrap();
        assert!(rating_of(&h.csv, "x").abs() < 1e-6);
        assert!(rating_of(&m.csv, "x") > 100.0);
        // A hands-only run has no matches to rate.
        let hands_only = summary(&["0,,x,a,y,100,50,0,0,0,0", "0,,y,b,x,100,50,0,0,0,0"]);
        let e = ratings(&[input("h", &hands_only)], Mode::Matches)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no matches"), "{e}");
    }

    #[test]
    fn unlinked_groups_are_refused_by_name() {
        let xy = summary(&["0,,x,a,y,10,5,0,0,0,0", "0,,y,b,x,10,5,0,0,0,0"]);
        let uv = summary(&["0,,u,a,v,10,5,0,0,0,0", "0,,v,b,u,10,5,0,0,0,0"]);
        let e = ratings(&[input("1", &xy), input("2", &uv)], Mode::Hands)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("{u, v} and {x, y}"), "{e}");
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        let e = ratings(&[input("f.csv", "a,b\n1,2\n")], Mode::Hands)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("f.csv") && e.contains("no column `settings`"),
            "{e}"
        );
        let bad = summary(&["0,,x,a,y,ten,5,0,0,0,0", "0,,y,b,x,10,5,0,0,0,0"]);
        let e = ratings(&[input("g.csv", &bad)], Mode::Hands).err().unwrap();
        assert!(
            matches!(&e, RatingsError::NotCount { line: 2, column: "hands", value, .. } if value == "ten"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("g.csv line 2") && e.contains("`ten`"), "{e}");
        let over = summary(&["0,,x,a,y,10,9,3,0,0,0", "0,,y,b,x,10,1,3,0,0,0"]);
        let e = ratings(&[input("o.csv", &over)], Mode::Hands)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("9 wins and 3 ties out of 10"), "{e}");
        let one_side = summary(&["0,,x,a,y,10,5,0,0,0,0"]);
        let e = ratings(&[input("s.csv", &one_side)], Mode::Hands)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("both rows"), "{e}");
        let a = summary(&["0,tax=on,x,a,y,10,5,0,0,0,0", "0,tax=on,y,b,x,10,5,0,0,0,0"]);
        let b = summary(&[
            "1,tax=off,x,a,y,10,5,0,0,0,0",
            "1,tax=off,y,b,x,10,5,0,0,0,0",
        ]);
        let e = ratings(&[input("a", &a), input("b", &b)], Mode::Hands)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("`tax=off`") && e.contains("`tax=on`"), "{e}");
        assert!(Mode::parse("games")
            .unwrap_err()
            .to_string()
            .contains("hands or matches"));
        // Runs whose run.json gives different rules are not mixed.
        let xy = summary(&["0,,x,a,y,10,5,0,0,0,0", "0,,y,b,x,10,5,0,0,0,0"]);
        let yz = summary(&["0,,y,a,z,10,5,0,0,0,0", "0,,z,b,y,10,5,0,0,0,0"]);
        let with = |name: &str, text: &str, rules: Rules| Input {
            name: name.into(),
            text: text.into(),
            rules: Some(vec![RunRules::Decorated(rules)]),
        };
        let mut no_tax = Rules::default();
        no_tax.set("tax", "off").unwrap();
        let e = ratings(
            &[with("xy", &xy, Rules::default()), with("yz", &yz, no_tax)],
            Mode::Hands,
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("xy and yz were played under different rules"),
            "{e}"
        );
        assert!(ratings(
            &[
                with("xy", &xy, Rules::default()),
                with("yz", &yz, Rules::default()),
                input("zz", &yz)
            ],
            Mode::Hands
        )
        .is_ok());
    }
}
