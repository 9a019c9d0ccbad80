//! A run directory (play, tournament, sweep or merge output; either
//! family) as page data: the run (command, seed, mode, agents, settings),
//! each side's win rates and points a hand with their 95% intervals (from
//! summary.csv), how the hands ended (hands.csv), and where the run played
//! matches the match lengths and the tax paid (matches.csv, summary.csv).

use crate::error::CliError;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// A CSV file's rows as (column → cell) maps; `None` if it does not exist.
fn read_rows(path: &Path) -> Result<Option<Vec<BTreeMap<String, String>>>, CliError> {
    if !path.exists() {
        return Ok(None);
    }
    let bad = |e: csv::Error| {
        CliError::Input(format!(
            "{}: not readable as CSV ({e}); expected the file as a run writes it",
            path.display()
        ))
    };
    let mut r = csv::Reader::from_path(path).map_err(bad)?;
    let header: Vec<String> = r.headers().map_err(bad)?.iter().map(String::from).collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(bad)?;
        rows.push(
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect(),
        );
    }
    Ok(Some(rows))
}

/// A cell as a number (`None` when empty or not a number).
fn num(row: &BTreeMap<String, String>, col: &str) -> Option<f64> {
    row.get(col)?
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

/// A cell as text (empty when the column is missing).
fn text<'a>(row: &'a BTreeMap<String, String>, col: &str) -> &'a str {
    row.get(col).map_or("", String::as_str)
}

/// A value with its interval, from three columns (`null` when the value
/// is missing).
fn interval(row: &BTreeMap<String, String>, v: &str, lo: &str, hi: &str) -> Value {
    match num(row, v) {
        Some(x) => json!({"v": x, "lo": num(row, lo), "hi": num(row, hi)}),
        None => Value::Null,
    }
}

/// Counts by value as `[value, count]` pairs from the least value to the
/// greatest, the values between counted 0 (a histogram's bars).
fn histogram(counts: &BTreeMap<u64, u64>) -> Vec<Value> {
    match (counts.keys().next(), counts.keys().next_back()) {
        (Some(&lo), Some(&hi)) => (lo..=hi)
            .map(|v| json!([v, counts.get(&v).copied().unwrap_or(0)]))
            .collect(),
        _ => Vec::new(),
    }
}

/// The page data of the run in `dir`.
pub fn data(dir: &Path) -> Result<Value, CliError> {
    let manifest_path = dir.join("run.json");
    let manifest_text = std::fs::read_to_string(&manifest_path).map_err(|e| {
        CliError::Input(format!(
            "{}: cannot read it ({e}); expected a run directory (the --out of play, tournament, \
             sweep or merge) with run.json and summary.csv",
            manifest_path.display()
        ))
    })?;
    let manifest: Value = serde_json::from_str(&manifest_text).map_err(|e| {
        CliError::Input(format!(
            "{}: not JSON ({e}); expected the run.json a run writes",
            manifest_path.display()
        ))
    })?;
    let summary_path = dir.join("summary.csv");
    let Some(summary) = read_rows(&summary_path)? else {
        return Err(CliError::Input(format!(
            "{}: not found; expected a finished run directory (play, tournament, sweep or \
             merge write summary.csv)",
            summary_path.display()
        )));
    };
    let family = manifest
        .pointer("/series/0/rules/family")
        .and_then(Value::as_str)
        .or_else(|| manifest.get("family").and_then(Value::as_str))
        .unwrap_or("decorated")
        .to_string();
    let sides: Vec<Value> = summary
        .iter()
        .map(|r| {
            json!({
                "series": text(r, "series"),
                "settings": text(r, "settings"),
                "agent": text(r, "agent"),
                "side": text(r, "side"),
                "opponent": text(r, "opponent"),
                "games": num(r, "games"),
                "hands": num(r, "hands"),
                "hand_win": interval(r, "hand_win_rate", "hand_win_lo", "hand_win_hi"),
                "match_win": interval(r, "match_win_rate", "match_win_lo", "match_win_hi"),
                "mean_raw": interval(r, "mean_raw", "mean_raw_lo", "mean_raw_hi"),
                "tax_paid": interval(r, "mean_tax_paid", "mean_tax_paid_lo", "mean_tax_paid_hi"),
                "matches": num(r, "matches"),
            })
        })
        .collect();
    // How the hands ended: one row a hand (seat 0's).
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    if let Some(hands) = read_rows(&dir.join("hands.csv"))? {
        for r in hands.iter().filter(|r| text(r, "seat") == "0") {
            *ends.entry(text(r, "end").to_string()).or_default() += 1;
        }
    }
    // Match lengths and the tax paid: one row a match (seat 0's), the tax
    // of both seats.
    let mut lengths: BTreeMap<u64, u64> = BTreeMap::new();
    let mut tax: Vec<f64> = Vec::new();
    let mut has_matches = false;
    if let Some(matches) = read_rows(&dir.join("matches.csv"))? {
        for r in &matches {
            has_matches = true;
            if let Some(t) = num(r, "tax_paid") {
                tax.push(t);
            }
            if text(r, "seat") == "0" {
                if let Some(h) = num(r, "hands") {
                    *lengths.entry(h as u64).or_default() += 1;
                }
            }
        }
    }
    let mut run = Map::new();
    for key in [
        "command",
        "seed",
        "mode",
        "games",
        "games_done",
        "paired",
        "shard",
        "agents",
        "complete",
        "version",
        "commit",
    ] {
        if let Some(v) = manifest.get(key) {
            run.insert(key.into(), v.clone());
        }
    }
    let settings: Vec<Value> = manifest
        .get("series")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .map(|x| {
                    json!({
                        "a": x.get("a"),
                        "b": x.get("b"),
                        "settings": x.get("settings"),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    run.insert("series".into(), json!(settings));
    Ok(json!({
        "family": family,
        "dir": dir.display().to_string(),
        "run": run,
        "sides": sides,
        "ends": ends,
        "matches": has_matches,
        "match_lengths": histogram(&lengths),
        "tax_paid": tax,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_counts_the_values_between_as_zero() {
        let counts: BTreeMap<u64, u64> = [(24, 2), (27, 1)].into_iter().collect();
        assert_eq!(
            histogram(&counts),
            vec![
                json!([24, 2]),
                json!([25, 0]),
                json!([26, 0]),
                json!([27, 1])
            ]
        );
        assert!(histogram(&BTreeMap::new()).is_empty());
    }
}
