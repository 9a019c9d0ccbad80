//! The options every run-like command shares: `--rules`/`--set`
//! ([`RulesArgs`]: the rules of either family) and the options of `play`,
//! `tournament` and `sweep` ([`RunArgs`]: counts, seed, threads, shard,
//! output), checked and turned into a manifest or a plan. The command line
//! (`cli`) and the commands (`cmd`) both use them.

use super::manifest::{build_info, games_in_shard, Manifest, Mode, SeriesSpec, Shard};
use super::manifest::{Compress, Rows, Written};
use super::plan::Plan;
use crate::error::CliError;
use crate::input;
use clap::Args;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::path::PathBuf;

/// `--rules` and `--set`.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Rules: a preset name (decorated-2003-02, decorated-2003-01; classic
    /// canasta: classic-002, classic-003, classic-004) or a JSON file.
    #[arg(long, default_value = "decorated-2003-02")]
    rules: String,
    /// Change one rule switch, e.g. --set tax=off --set opening=90 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

impl RulesArgs {
    /// `--rules` as given: a preset name or a file.
    pub fn name(&self) -> &str {
        &self.rules
    }

    /// Whether `--rules` or `--set` was given (the rules are not the
    /// default decorated preset as it stands).
    pub fn is_given(&self) -> bool {
        !self.set.is_empty() || self.rules != "decorated-2003-02"
    }

    /// The `--set` switches as given.
    pub fn settings(&self) -> &[String] {
        &self.set
    }

    /// Whether `--rules` names a classic canasta preset.
    pub fn is_classic(&self) -> bool {
        self.rules.starts_with("classic") && ClassicRules::preset(&self.rules).is_ok()
    }

    /// Classic rules when `--rules` names a classic preset (then every
    /// `--set` in order, with the classic switches); `None` for decorated.
    pub fn classic(&self) -> Result<Option<ClassicRules>, CliError> {
        if !self.is_classic() {
            return Ok(None);
        }
        let mut r =
            ClassicRules::preset(&self.rules).map_err(|e| CliError::Input(e.to_string()))?;
        r.apply_settings(self.set.iter().map(String::as_str))
            .and_then(|()| r.validate())
            .map_err(|e| CliError::Input(format!("--rules {}: {e}", self.rules)))?;
        Ok(Some(r))
    }

    /// The rules: the preset or file, then every `--set` in order. A
    /// classic preset is refused: the commands take it through
    /// [`RulesArgs::classic`] first, and call this for decorated canasta.
    pub fn build(&self) -> Result<Rules, CliError> {
        if self.is_classic() {
            return Err(CliError::Input(format!(
                "--rules {}: classic canasta where decorated rules are read; here: a \
                 decorated preset ({}) or a rules JSON file",
                self.rules,
                kanaszta_engine::PRESETS.join(", ")
            )));
        }
        let mut r = match Rules::preset(&self.rules) {
            Ok(r) => r,
            Err(preset_err) => {
                // A file that cannot be read (a symlink loop, no
                // permission) is named with its error, not taken for a
                // preset.
                if std::fs::symlink_metadata(&self.rules).is_ok() {
                    let text = input::read_text(&self.rules, "rules", input::JSON_LIMIT)?;
                    Rules::from_json(&text).map_err(|e| match e {
                        e if classic_json(&text)
                            || matches!(&e, kanaszta_engine::RulesError::UnknownSwitch(k) if k == "preset") =>
                        {
                            CliError::Input(format!(
                                "{}: classic canasta rules (a classic `preset` or `family`): a \
                                 rules JSON file holds the switches of decorated canasta \
                                 (`kanaszta rules` lists them); classic rules are a preset and \
                                 --set, e.g. --rules classic-004 --set players=4 (`kanaszta \
                                 rules --rules classic-002` lists the classic switches)",
                                self.rules
                            ))
                        }
                        e => CliError::Rules {
                            context: self.rules.clone(),
                            source: e,
                        },
                    })?
                } else {
                    return Err(CliError::UnknownRules(preset_err));
                }
            }
        };
        r.apply_settings(self.set.iter().map(String::as_str))?;
        for w in r.warnings() {
            eprintln!("kanaszta: warning: {w}");
        }
        Ok(r)
    }
}

/// Whether rules JSON names a classic preset or family.
fn classic_json(text: &str) -> bool {
    let v: serde_json::Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(v) => v,
        Err(_) => return false,
    };
    v.get("family").and_then(|f| f.as_str()) == Some("classic")
        || v.get("preset")
            .and_then(|p| p.as_str())
            .is_some_and(|p| p.starts_with("classic"))
}

/// A seed, count or index: a whole number from 0 (a negative number is
/// named as such, rather than taken for an option).
pub fn whole<T: std::str::FromStr>(s: &str) -> Result<T, ValueError> {
    let t = s.trim();
    t.parse::<T>().map_err(|_| {
        if t.starts_with('-') {
            ValueError::Negative
        } else {
            ValueError::Whole
        }
    })
}

/// A number of hands or matches: a whole number, at least 1.
fn parse_count(s: &str) -> Result<u64, ValueError> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or(ValueError::Count)
}

/// A value of a command-line option refused by its parser: what the
/// option accepts (clap names the option and the value).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueError {
    /// Not a whole number from 0 (a seed, count or index).
    Whole,
    /// A negative number where a whole number from 0 is expected.
    Negative,
    /// Not a whole number of at least 1 (hands, matches).
    Count,
    /// Not a whole number from 0 (a count of `tune`).
    TuneWhole,
    /// Not a number (`tune`'s `--step-size`, `--perturb`).
    Fraction,
    /// Not a number (the SPRT's bounds and error rates).
    SprtNumber,
    /// Not a whole number of deals from 0 (`--sprt-min-deals`).
    SprtDeals,
    /// `--threads` of `bench`: not thread counts (the text given).
    Threads(String),
    /// `--threads` of `bench`: more than 1024 threads (the text given).
    TooManyThreads(String),
    /// `--threads` of `bench`: no count (the text given).
    NoThreads(String),
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueError::Whole => f.write_str("expected a whole number from 0, e.g. 7"),
            ValueError::Negative => {
                f.write_str("a negative number: expected a whole number from 0, e.g. 7")
            }
            ValueError::Count => f.write_str("expected a whole number of at least 1, e.g. 1000"),
            ValueError::TuneWhole => f.write_str("expected a whole number from 0, e.g. 50"),
            ValueError::Fraction => {
                f.write_str("expected a fraction of the parameters' ranges in (0, 1], e.g. 0.1")
            }
            ValueError::SprtNumber => {
                f.write_str("expected a number, e.g. 50 (points) or 0.03 (a share of hands)")
            }
            ValueError::SprtDeals => {
                f.write_str("expected a whole number of deals from 0, e.g. 20")
            }
            ValueError::Threads(text) => write!(
                f,
                "bad --threads `{text}`: expected thread counts like 1,2,4 (0: one per core)"
            ),
            ValueError::TooManyThreads(text) => {
                write!(f, "bad --threads `{text}`: at most 1024 threads")
            }
            ValueError::NoThreads(text) => {
                write!(
                    f,
                    "bad --threads `{text}`: expected thread counts like 1,2,4"
                )
            }
        }
    }
}

impl std::error::Error for ValueError {}

impl From<ValueError> for CliError {
    fn from(e: ValueError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// Options shared by play, tournament and sweep.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Number of hands per matchup (default: 10,000 for play; 2,000 per pair
    /// or setting for tournament and sweep).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    hands: Option<u64>,
    /// Number of full matches (to the target, with the tax) per matchup.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    matches: Option<u64>,
    /// Master seed: every game's deal and generators derive from it and the game index.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub threads: usize,
    /// Directory for the CSV files (created). The files of an earlier run
    /// there are replaced, all of them, with a note on stderr; files of a
    /// run's names that no run wrote (no run.json of a run beside them)
    /// are never removed: the run is refused. One run at a time per
    /// directory: DIR/.lock names the run writing there.
    #[arg(long, default_value = "kanaszta-out", value_name = "DIR")]
    pub out: PathBuf,
    /// Play only shard I of N: the deals whose index mod N is I (both seatings of each deal).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Play every game on its own deal instead of each deal twice with the seats swapped.
    #[arg(long)]
    unpaired: bool,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// Which row files to write: all (hands.csv, matches.csv, errors.csv),
    /// matches (no hands.csv) or none (errors.csv only). summary.csv and
    /// run.json are the same whatever is chosen; without hands.csv the
    /// statistics merge needs go to accum.json.
    #[arg(long, value_enum, default_value_t = Rows::All, value_name = "WHICH")]
    pub rows: Rows,
    /// Compress the row files: gz writes hands.csv.gz and matches.csv.gz
    /// (gzip), which every reader of the toolkit, pandas, polars and R
    /// read as they read plain CSV.
    #[arg(long, value_enum, default_value_t = Compress::None, value_name = "HOW")]
    pub compress: Compress,
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl RunArgs {
    /// What the run writes of its rows.
    pub fn written(&self) -> Written {
        Written {
            rows: self.rows,
            compress: self.compress,
        }
    }

    /// Mode and games per series, checked.
    fn count(&self, default_hands: u64) -> Result<(Mode, u64), CliError> {
        match (self.hands, self.matches) {
            (Some(_), Some(_)) => Err(CliError::Input(
                "give either --hands N or --matches N, not both (hands are single deals; matches are played to the target)"
                    .into(),
            )),
            (Some(0), None) | (None, Some(0)) => Err(CliError::Input(
                "the number of --hands or --matches must be at least 1".into(),
            )),
            (Some(n), None) => Ok((Mode::Hands, n)),
            (None, Some(n)) => Ok((Mode::Matches, n)),
            (None, None) => Ok((Mode::Hands, default_hands)),
        }
    }

    fn shard(&self) -> Result<Shard, CliError> {
        match &self.shard {
            None => Ok(Shard::all()),
            Some(s) => {
                let sh = Shard::parse(s).map_err(|e| CliError::Input(e.to_string()))?;
                if sh.indices.len() != 1 {
                    return Err(CliError::Input(format!(
                        "bad shard `{s}`: expected I/N with 0 ≤ I < N, e.g. 0/4 (one shard per run)"
                    )));
                }
                Ok(sh)
            }
        }
    }

    /// The mode, the games per series and the shard, checked (with the
    /// number of threads).
    pub fn checked(&self, default_hands: u64) -> Result<(Mode, u64, Shard), CliError> {
        let (mode, games) = self.count(default_hands)?;
        let shard = self.shard()?;
        if self.threads > 1024 {
            return Err(CliError::Input(format!(
                "--threads {}: at most 1024 (0: one per core)",
                self.threads
            )));
        }
        Ok((mode, games, shard))
    }

    /// The plan of a run of `series` (validated by building it).
    pub fn plan(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec>,
        default_hands: u64,
    ) -> Result<Plan, CliError> {
        Plan::new(self.manifest(command, agents, series, default_hands)?)
    }

    /// The manifest of a run of `series`, of either family (`R`, its
    /// rules): the switches checked, the build recorded.
    pub fn manifest<R>(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec<R>>,
        default_hands: u64,
    ) -> Result<Manifest<R>, CliError> {
        let (mode, games, shard) = self.checked(default_hands)?;
        let paired = !self.unpaired;
        // A shard may hold no deal of a short run (4 hands in shards of 4
        // are 2 deals): that is no error, as scripts run every shard, but
        // it is said, since the run plays nothing.
        if games_in_shard(games, paired, &shard) == 0 {
            let deals = if paired { games.div_ceil(2) } else { games };
            eprintln!(
                "kanaszta: warning: shard {shard} holds none of this run's deals: {games} {mode}{} \
                 are {deals} deals (0 to {}), and shard I/N plays the deals whose index mod N is \
                 I; nothing is played (run.json and empty CSVs are written, and merge with the \
                 other shards); give more --{mode} or fewer shards",
                if paired { ", paired," } else { "" },
                deals.saturating_sub(1)
            );
        }
        let (version, commit, dirty) = build_info();
        let mut m = Manifest {
            shard,
            version: Some(version),
            commit: Some(commit),
            dirty: Some(dirty),
            ..Manifest::new(command, self.seed, mode, games, paired, agents, series)
        };
        m.record_written(self.written());
        Ok(m)
    }
}
