//! What a finished run (or a merge) writes beside its rows: `summary.csv`
//! for every command, `tournament.csv` and `ratings.csv` for a tournament,
//! `sweep.csv` for a sweep, and the tables printed on stdout.

use crate::error::quiet_pipe;
use crate::error::CliError;
use crate::run::{CsvFile, Manifest, Mode, RunResult, StoredRules};
use crate::signals;
use crate::stats::{bradley_terry, fmt_opt, legend, mean3, num3, pct3, push3, SeriesStats};
use crate::EXIT_GAME_ERRORS;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Columns of a sweep row shared by both agents (taken from A's summary).
const SHARED: [&str; 27] = [
    "games",
    "errors",
    "hands",
    "matches",
    "diff_unit",
    "deals",
    "mean_diff",
    "mean_diff_lo",
    "mean_diff_hi",
    "ended_out_share",
    "exhausted_share",
    "stalled_share",
    "deadlocked_share",
    "mean_turns",
    "median_turns",
    "mean_turns_out",
    "median_turns_out",
    "starter_win_rate",
    "starter_win_lo",
    "starter_win_hi",
    "mean_match_hands",
    "mean_lead_changes",
    "lead_changes_lo",
    "lead_changes_hi",
    "all_comeback_rate",
    "all_comeback_lo",
    "all_comeback_hi",
];

/// Summary columns that name rather than measure.
const NAMES: [&str; 5] = ["series", "settings", "agent", "side", "opponent"];

/// What the tables of a tournament and a sweep read of a series'
/// statistics, whatever the rule family.
pub trait SeriesSummary {
    /// Agent A (`0`) or B (`1`).
    fn agent(&self, i: usize) -> &str;
    /// The varied settings of a sweep (`KEY=V;KEY=V`).
    fn settings(&self) -> &str;
    /// What agent `i` scored against the other, and of how many (ties half).
    fn score(&self, i: usize) -> (f64, f64);
    /// The rate of the score with its 95% interval.
    fn rate(&self, i: usize) -> Option<(f64, f64, f64)>;
    /// The mean paired difference from agent `i`'s side, 95% interval.
    fn diff(&self, i: usize) -> Option<(f64, f64, f64)>;
    /// The summary columns, as in [`Self::cells`].
    fn columns() -> Vec<&'static str>;
    /// Agent `i`'s summary cells.
    fn cells(&self, i: usize) -> Vec<String>;
    /// The columns of a sweep row shared by both agents.
    fn shared() -> &'static [&'static str];
    /// The rule that decides who won a hand or match, for the legends.
    fn win_rule(mode: Mode) -> &'static str;
    /// The legend of `A − B`.
    fn diff_legend(mode: Mode) -> &'static str;
    /// The legend of `turns`.
    fn turns_legend() -> &'static str;
    /// A tournament prints the matrix of [`Self::diff`] as well.
    const DIFF_MATRIX: bool;
}

impl SeriesSummary for SeriesStats {
    fn agent(&self, i: usize) -> &str {
        &self.agents[i]
    }
    fn settings(&self) -> &str {
        &self.settings
    }
    fn score(&self, i: usize) -> (f64, f64) {
        SeriesStats::score(self, i)
    }
    fn rate(&self, i: usize) -> Option<(f64, f64, f64)> {
        SeriesStats::rate(self, i)
    }
    fn diff(&self, i: usize) -> Option<(f64, f64, f64)> {
        SeriesStats::diff(self, i)
    }
    fn columns() -> Vec<&'static str> {
        SeriesStats::columns()
    }
    fn cells(&self, i: usize) -> Vec<String> {
        SeriesStats::cells(self, i)
    }
    fn shared() -> &'static [&'static str] {
        &SHARED
    }
    fn win_rule(mode: Mode) -> &'static str {
        if mode == Mode::Matches {
            "D-16.2"
        } else {
            "higher raw score, D-16.1, I-19"
        }
    }
    fn diff_legend(mode: Mode) -> &'static str {
        if mode == Mode::Matches {
            "mean difference of the final totals (taxed, D-15) per match, A minus B, 95% interval"
        } else {
            "mean difference of raw hand scores (D-14, untaxed), A minus B, 95% interval"
        }
    }
    fn turns_legend() -> &'static str {
        "mean discards per hand (I-24), both seats"
    }
    const DIFF_MATRIX: bool = false;
}

fn named<S: SeriesSummary>(s: &S, side: usize) -> Vec<(&'static str, String)> {
    S::columns().into_iter().zip(s.cells(side)).collect()
}

pub fn write_csv(
    dir: &Path,
    name: &str,
    header: &[String],
    rows: &[Vec<String>],
) -> Result<(), CliError> {
    let path = dir.join(name);
    let mut f = CsvFile::create(&path, header)?;
    for r in rows {
        f.row(r)
            .map_err(|e| CliError::io("write", path.display(), e))?;
    }
    f.flush()
        .map_err(|e| CliError::io("write", path.display(), e))
}

/// Writes the summary files into `dir` (if any) and returns the text for
/// stdout.
pub fn report(
    dir: Option<&Path>,
    manifest: &Manifest,
    stats: &[SeriesStats],
) -> Result<String, CliError> {
    let mut text = String::new();
    if let Some(dir) = dir {
        let mut header = vec!["series".to_string()];
        header.extend(SeriesStats::columns().iter().map(|s| s.to_string()));
        let mut rows = Vec::new();
        for (i, s) in stats.iter().enumerate() {
            for side in 0..2 {
                let mut r = vec![i.to_string()];
                r.extend(s.cells(side));
                rows.push(r);
            }
        }
        write_csv(dir, "summary.csv", &header, &rows)?;
    }
    incomplete(manifest, &mut text);
    let unit = manifest.mode.name();
    let paired = if manifest.paired {
        "paired seats"
    } else {
        "unpaired"
    };
    match manifest.command.as_str() {
        "tournament" => tournament(dir, manifest, stats, &mut text)?,
        "sweep" => sweep(dir, manifest, stats, &mut text)?,
        _ => {
            if let Some(s) = stats.first() {
                let _ = writeln!(
                    text,
                    "{} vs {}: {} {unit}, {paired}, seed {}{}",
                    s.agents[0],
                    s.agents[1],
                    manifest.games,
                    manifest.seed,
                    shard_text(manifest)
                );
                s.table(&mut text);
                s.legend(&mut text);
            }
        }
    }
    Ok(text)
}

/// The line that says a run holds fewer games than it describes.
pub fn incomplete<R: StoredRules>(manifest: &Manifest<R>, text: &mut String) {
    if manifest.complete == Some(false) {
        let _ = writeln!(
            text,
            "INCOMPLETE: {} of the {} games of this run (run.json: \"complete\": false)",
            manifest.games_done.unwrap_or(0),
            manifest.shard_games()
        );
    }
}

/// A tournament's tables, and its `tournament.csv` and `ratings.csv`.
pub fn tournament<R: StoredRules, S: SeriesSummary>(
    dir: Option<&Path>,
    manifest: &Manifest<R>,
    stats: &[S],
    text: &mut String,
) -> Result<(), CliError> {
    let agents = &manifest.agents;
    let k = agents.len();
    let idx = |name: &str| agents.iter().position(|a| a == name);
    let mut wins = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    let mut cell: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; k]; k];
    for (si, s) in stats.iter().enumerate() {
        let (Some(i), Some(j)) = (idx(s.agent(0)), idx(s.agent(1))) else {
            continue;
        };
        let (wa, na) = s.score(0);
        let (wb, nb) = s.score(1);
        wins[i][j] += wa;
        wins[j][i] += wb;
        games[i][j] += na;
        games[j][i] += nb;
        cell[i][j] = Some((si, 0));
        cell[j][i] = Some((si, 1));
    }
    let ratings = bradley_terry(&wins, &games);
    let unit = manifest.mode.name();
    let _ = writeln!(
        text,
        "tournament: {k} agents, {} {unit} per pair, {}, seed {}{}",
        manifest.games,
        if manifest.paired {
            "paired seats"
        } else {
            "unpaired"
        },
        manifest.seed,
        shard_text(manifest)
    );
    let _ = writeln!(
        text,
        "win rate of the row agent against the column agent ({unit}, ties half):"
    );
    let w = agents.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
    let _ = write!(text, "{:<w$}", "");
    for j in 0..k {
        let _ = write!(text, "  {:>8}", format!("#{}", j + 1));
    }
    let _ = writeln!(text);
    let mut rows = Vec::new();
    for i in 0..k {
        let _ = write!(text, "{:<w$}", format!("#{} {}", i + 1, agents[i]));
        for j in 0..k {
            let c = cell[i][j].map(|(si, side)| (&stats[si], side));
            let shown = match c.and_then(|(s, side)| s.rate(side)) {
                Some((p, _, _)) => format!("{:.1}%", 100.0 * p),
                None => "-".into(),
            };
            let _ = write!(text, "  {shown:>8}");
            if let Some((s, side)) = c {
                let (score, n) = s.score(side);
                let mut r = vec![
                    agents[i].clone(),
                    agents[j].clone(),
                    format!("{n}"),
                    format!("{score}"),
                ];
                push3(&mut r, s.rate(side), 4);
                push3(&mut r, s.diff(side), 2);
                rows.push(r);
            }
        }
        let _ = writeln!(text);
    }
    if S::DIFF_MATRIX {
        diff_matrix(agents, &cell, stats, text);
    }
    let rating_rows = rating_table(agents, &wins, &games, &ratings, text);
    legend(
        text,
        &[
            (
                "win rate",
                format!(
                    "share of the {unit} between the two that the row agent won ({}), ties half; `-` never met",
                    S::win_rule(manifest.mode)
                ),
            ),
            ("#N", "the agents in --agents order".into()),
            rating_legend(unit),
        ]
        .into_iter()
        .chain(S::DIFF_MATRIX.then(|| {
            (
                "points",
                format!("{}, row agent minus column agent", S::diff_legend(manifest.mode)),
            )
        }))
        .collect::<Vec<_>>(),
    );
    if let Some(dir) = dir {
        let h: Vec<String> = [
            "agent",
            "opponent",
            "games",
            "score",
            "win_rate",
            "win_lo",
            "win_hi",
            "mean_diff",
            "mean_diff_lo",
            "mean_diff_hi",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        write_csv(dir, "tournament.csv", &h, &rows)?;
        let h: Vec<String> = RATING_COLUMNS.iter().map(|s| s.to_string()).collect();
        write_csv(dir, "ratings.csv", &h, &rating_rows)?;
    }
    Ok(())
}

/// The columns of `ratings.csv` (a tournament's, or `kanaszta ratings`').
pub const RATING_COLUMNS: [&str; 7] = [
    "agent",
    "rating",
    "rating_lo",
    "rating_hi",
    "games",
    "score",
    "score_share",
];

/// Prints the ratings, best first, to `text` and returns the rows of
/// `ratings.csv` in `agents` order. `wins`/`games` are as for
/// [`bradley_terry`], whose answer is `ratings`.
pub fn rating_table(
    agents: &[String],
    wins: &[Vec<f64>],
    games: &[Vec<f64>],
    ratings: &[(f64, f64, f64)],
    text: &mut String,
) -> Vec<Vec<String>> {
    let k = agents.len();
    let w = agents.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
    let _ = writeln!(
        text,
        "Bradley–Terry rating (Elo scale, mean 0) with 95% interval:"
    );
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| ratings[b].0.total_cmp(&ratings[a].0));
    for &i in &order {
        let (r, lo, hi) = ratings[i];
        let n: f64 = games[i].iter().sum();
        let sc: f64 = wins[i].iter().sum();
        let _ = writeln!(
            text,
            "{:<w$}  {r:>+7.0} [{lo:+.0}, {hi:+.0}]  score {}",
            agents[i],
            if n > 0.0 {
                format!("{:.1}% of {n}", 100.0 * sc / n)
            } else {
                "-".into()
            }
        );
    }
    (0..k)
        .map(|i| {
            let (r, lo, hi) = ratings[i];
            let n: f64 = games[i].iter().sum();
            let sc: f64 = wins[i].iter().sum();
            vec![
                agents[i].clone(),
                format!("{r:.1}"),
                format!("{lo:.1}"),
                format!("{hi:.1}"),
                format!("{n}"),
                format!("{sc}"),
                fmt_opt((n > 0.0).then(|| sc / n), 4),
            ]
        })
        .collect()
}

/// The varied keys of a sweep, in order, from a series' settings text.
fn setting_pairs(settings: &str) -> Vec<(String, String)> {
    settings
        .split(';')
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The points per hand of each row agent against each column agent.
fn diff_matrix<S: SeriesSummary>(
    agents: &[String],
    cell: &[Vec<Option<(usize, usize)>>],
    stats: &[S],
    text: &mut String,
) {
    let k = agents.len();
    let _ = writeln!(
        text,
        "points per hand of the row agent minus the column agent, 95% interval:"
    );
    let w = agents.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
    let _ = write!(text, "{:<w$}", "");
    for j in 0..k {
        let _ = write!(text, "  {:>18}", format!("#{}", j + 1));
    }
    let _ = writeln!(text);
    for (i, row) in cell.iter().enumerate() {
        let _ = write!(text, "{:<w$}", format!("#{} {}", i + 1, agents[i]));
        for c in row {
            let shown = match *c {
                Some((si, side)) => num3(stats[si].diff(side)),
                None => "-".into(),
            };
            let _ = write!(text, "  {shown:>18}");
        }
        let _ = writeln!(text);
    }
}

/// A sweep's table and its `sweep.csv`.
pub fn sweep<R: StoredRules, S: SeriesSummary>(
    dir: Option<&Path>,
    manifest: &Manifest<R>,
    stats: &[S],
    text: &mut String,
) -> Result<(), CliError> {
    let keys: Vec<String> = manifest
        .series
        .first()
        .map(|s| {
            setting_pairs(&s.settings)
                .into_iter()
                .map(|p| p.0)
                .collect()
        })
        .unwrap_or_default();
    let mut header = vec!["series".to_string()];
    header.extend(keys.iter().cloned());
    header.extend(["a".to_string(), "b".to_string()]);
    // A shared column that is also a varied switch (a classic sweep over
    // `players`) is given once, among the settings.
    let shared: Vec<&str> = S::shared()
        .iter()
        .copied()
        .filter(|c| !keys.iter().any(|k| k == c))
        .collect();
    header.extend(shared.iter().map(|s| s.to_string()));
    let own: Vec<&str> = S::columns()
        .into_iter()
        .filter(|c| !S::shared().contains(c) && !NAMES.contains(c))
        .collect();
    for p in ["a_", "b_"] {
        header.extend(own.iter().map(|c| format!("{p}{c}")));
    }
    let mut rows = Vec::new();
    let unit = manifest.mode.name();
    let a = manifest.agents.first().cloned().unwrap_or_default();
    let b = manifest.agents.get(1).cloned().unwrap_or_default();
    let _ = writeln!(
        text,
        "sweep: {a} vs {b}, {} {unit} per setting, {}, seed {}{}",
        manifest.games,
        if manifest.paired {
            "paired seats"
        } else {
            "unpaired"
        },
        manifest.seed,
        shard_text(manifest)
    );
    let sw = stats
        .iter()
        .map(|s| s.settings().len())
        .max()
        .unwrap_or(8)
        .max(8);
    let matches = manifest.mode == Mode::Matches;
    let _ = write!(
        text,
        "{:<sw$}  {:<22}  {:<22}  {:>6}  {:>7}",
        "setting",
        format!("{a} wins [95%]"),
        "A − B [95%]",
        "turns",
        if matches { "hands/m" } else { "" }
    );
    // The rule-balance columns of a match run, where the family has them.
    let balance = matches
        && stats
            .first()
            .is_some_and(|s| named(s, 0).iter().any(|(k, _)| *k == "all_comeback_rate"));
    if balance {
        let _ = write!(
            text,
            "  {:<18}  {:<22}  {:<21}  tax B/m [95%]",
            "lead ch. [95%]", "comebacks [95%]", "tax A/m [95%]"
        );
    }
    text.push('\n');
    for (i, s) in stats.iter().enumerate() {
        let na = named(s, 0);
        let nb = named(s, 1);
        let get = |v: &[(&str, String)], c: &str| {
            v.iter()
                .find(|(k, _)| *k == c)
                .map(|(_, x)| x.clone())
                .unwrap_or_default()
        };
        let mut r = vec![i.to_string()];
        let pairs = setting_pairs(s.settings());
        for k in &keys {
            r.push(
                pairs
                    .iter()
                    .find(|(pk, _)| pk == k)
                    .map(|p| p.1.clone())
                    .unwrap_or_default(),
            );
        }
        r.push(s.agent(0).to_string());
        r.push(s.agent(1).to_string());
        for c in &shared {
            r.push(get(&na, c));
        }
        for c in &own {
            r.push(get(&na, c));
        }
        for c in &own {
            r.push(get(&nb, c));
        }
        rows.push(r);
        let _ = write!(
            text,
            "{:<sw$}  {:<22}  {:<22}  {:>6}  {:>7}",
            s.settings(),
            pct3(s.rate(0)),
            num3(s.diff(0)),
            get(&na, "mean_turns"),
            get(&na, "mean_match_hands")
        );
        if balance {
            // A mean (or rate) and its bounds, read back from the cells.
            let three = |v: &[(&str, String)], m: &str, lo: &str, hi: &str| {
                let num = |c: &str| get(v, c).parse::<f64>().ok();
                match (num(m), num(lo), num(hi)) {
                    (Some(x), Some(l), Some(h)) => Some((x, l, h)),
                    (Some(x), _, _) => Some((x, f64::NAN, f64::NAN)),
                    _ => None,
                }
            };
            let _ = write!(
                text,
                "  {:<18}  {:<22}  {:<21}  {}",
                mean3(
                    three(
                        &na,
                        "mean_lead_changes",
                        "lead_changes_lo",
                        "lead_changes_hi"
                    ),
                    2
                ),
                pct3(
                    three(
                        &na,
                        "all_comeback_rate",
                        "all_comeback_lo",
                        "all_comeback_hi"
                    )
                    .filter(|x| x.1.is_finite())
                ),
                mean3(
                    three(&na, "mean_tax_paid", "mean_tax_paid_lo", "mean_tax_paid_hi"),
                    0
                ),
                mean3(
                    three(&nb, "mean_tax_paid", "mean_tax_paid_lo", "mean_tax_paid_hi"),
                    0
                ),
            );
        }
        text.push('\n');
    }
    let mut l: Vec<(&str, String)> = vec![
        ("setting", "the values of the --vary switches".into()),
        (
            "wins",
            format!(
                "share of the {unit} that {a} won ({}), ties half; Wilson 95% interval",
                S::win_rule(manifest.mode)
            ),
        ),
        ("A − B", S::diff_legend(manifest.mode).into()),
        ("turns", S::turns_legend().into()),
    ];
    if manifest.mode == Mode::Matches {
        l.push(("hands/m", "mean hands per match".into()));
    }
    if balance {
        l.push((
            "lead ch.",
            "times the strict leader after a hand changed, per match, 95% interval".into(),
        ));
        l.push((
            "comebacks",
            "a comeback is a match won by a player who trailed by 2,000 or more after some hand (sim/CSV.md, `comeback`): of the matches in which a player trailed so, the share he won (both agents); Wilson 95% interval".into(),
        ));
        l.push((
            "tax A/m",
            "points the tax took (D-15) from agent A's positive hands per match, 95% interval; tax B/m: from agent B".into(),
        ));
        if a == b && manifest.paired {
            // A deterministic agent plays the swapped game of a deal as
            // the first one mirrored: the pooled count holds it twice.
            l.push((
                "one agent",
                format!("{a} on both sides on paired deals: if it is deterministic, each deal's second game mirrors the first and the comebacks count every match twice, their interval too narrow; --unpaired counts each once")
            ));
        }
    }
    legend(text, &l);
    if let Some(dir) = dir {
        write_csv(dir, "sweep.csv", &header, &rows)?;
    }
    Ok(())
}

/// `, shard I/N` for a run that is a shard (or a partial merge of shards);
/// nothing for a whole run.
pub fn shard_text<R: StoredRules>(manifest: &Manifest<R>) -> String {
    if manifest.shard.is_complete() {
        String::new()
    } else {
        format!(", shard {}", manifest.shard)
    }
}

/// The legend line of a rating table.
pub fn rating_legend(unit: &str) -> (&'static str, String) {
    (
        "rating",
        format!(
            "Bradley–Terry strength on the Elo scale (+400 = odds of 10 to 1), mean 0, 95% interval; score: {unit} won, ties half, of those played"
        ),
    )
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

/// Prints the report and the run's tally; the exit status of a run.
pub fn finish(text: &str, res: &RunResult, dir: &Path) -> Result<ExitCode, CliError> {
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
