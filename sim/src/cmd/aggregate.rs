//! `kanaszta aggregate`: group the rows of a CSV (e.g. `hands.csv`) by some
//! columns and summarize numeric columns: count, mean with a 95% interval,
//! standard deviation, share of non-zero values, min and max.
//!
//! For questions the summary does not answer directly: the starter's
//! advantage (`--by starter`), the anatomy of hands (`--cols
//! canastas_gold,twins,red_threes`), any rule setting against any column.

use super::{parse_filters, read_csv_input};
use crate::error::CliError;
use clap::Args;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kanaszta aggregate`.
#[derive(Args, Debug, Clone)]
pub struct AggregateArgs {
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
}

/// Runs `kanaszta aggregate`.
pub fn run(a: AggregateArgs) -> Result<ExitCode, CliError> {
    let text = read_csv_input(&a.file)?;
    let filter = parse_filters(&a.filter)?;
    let csv = aggregate(&text, &a.file, &a.by, &a.cols, &filter)?;
    match a.out {
        Some(path) => std::fs::write(&path, csv)
            .map(|()| ExitCode::SUCCESS)
            .map_err(|e| CliError::io("write", path.display(), e)),
        None => super::print(&csv),
    }
}

/// Running moments of one column in one group.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
    nonzero: u64,
    min: f64,
    max: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        if self.n == 0 {
            self.min = x;
            self.max = x;
        }
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
        if x != 0.0 {
            self.nonzero += 1;
        }
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    fn sd(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
}

/// Aggregates `text` (CSV with a header) grouped by `by`, over `cols` (all
/// columns that are numeric in every row when empty); `filter` keeps rows
/// whose column equals a value. Returns CSV text.
pub fn aggregate(
    text: &str,
    name: &str,
    by: &[String],
    cols: &[String],
    filter: &[(String, String)],
) -> Result<String, String> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let header: Vec<String> = r
        .headers()
        .map_err(|e| format!("{name}: not a CSV file: {e}"))?
        .iter()
        .map(str::to_string)
        .collect();
    let find = |c: &str| {
        header
            .iter()
            .position(|h| h == c)
            .ok_or_else(|| format!("{name}: no column `{c}`; columns: {}", header.join(", ")))
    };
    let by_i: Vec<usize> = by.iter().map(|c| find(c)).collect::<Result<_, _>>()?;
    let filt: Vec<(usize, &str)> = filter
        .iter()
        .map(|(c, v)| find(c).map(|i| (i, v.as_str())))
        .collect::<Result<_, _>>()?;
    let rows: Vec<csv::StringRecord> = r
        .records()
        .enumerate()
        .map(|(i, rec)| rec.map_err(|e| format!("{name}: malformed CSV at record {}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let rows: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| filt.iter().all(|(i, v)| r.get(*i) == Some(*v)))
        .collect();
    let col_i: Vec<usize> = if cols.is_empty() {
        (0..header.len())
            .filter(|i| !by_i.contains(i))
            .filter(|&i| {
                !rows.is_empty()
                    && rows
                        .iter()
                        .all(|r| r.get(i).is_some_and(|v| v.is_empty() || value(v).is_some()))
                    && rows.iter().any(|r| r.get(i).is_some_and(|v| !v.is_empty()))
            })
            .collect()
    } else {
        cols.iter().map(|c| find(c)).collect::<Result<_, _>>()?
    };
    let mut groups: BTreeMap<Vec<String>, Vec<Moments>> = BTreeMap::new();
    for (line, r) in rows.iter().enumerate() {
        let key: Vec<String> = by_i
            .iter()
            .map(|&i| r.get(i).unwrap_or("").to_string())
            .collect();
        let m = groups
            .entry(key)
            .or_insert_with(|| vec![Moments::default(); col_i.len()]);
        for (k, &i) in col_i.iter().enumerate() {
            let v = r.get(i).unwrap_or("");
            if v.is_empty() {
                continue; // missing (e.g. never opened): not counted
            }
            let x: f64 = value(v).ok_or_else(|| {
                format!(
                    "{name}: row {}: column `{}` holds `{v}`, not a number",
                    line + 2,
                    header[i]
                )
            })?;
            m[k].add(x);
        }
    }
    let mut out = String::new();
    for b in by {
        let _ = write!(out, "{b},");
    }
    out.push_str("column,n,mean,ci95_lo,ci95_hi,sd,share_nonzero,min,max\n");
    for (key, ms) in &groups {
        for (k, m) in ms.iter().enumerate() {
            for v in key {
                let _ = write!(out, "{},", csv_field(v));
            }
            let half = if m.n > 1 {
                1.96 * m.sd() / (m.n as f64).sqrt()
            } else {
                0.0
            };
            let share = if m.n > 0 {
                m.nonzero as f64 / m.n as f64
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{},{}",
                header[col_i[k]],
                m.n,
                m.mean,
                m.mean - half,
                m.mean + half,
                m.sd(),
                share,
                m.min,
                m.max
            );
        }
    }
    Ok(out)
}

/// A cell as a number: numbers, and booleans as 1 / 0 (so a mean is a share).
fn value(v: &str) -> Option<f64> {
    match v {
        "true" => Some(1.0),
        "false" => Some(0.0),
        _ => v.trim().parse().ok(),
    }
}

fn csv_field(v: &str) -> String {
    if v.contains([',', '"', '\n']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_means_with_intervals() {
        let csv =
            "agent,starter,points,twins\nrules,true,100,0\nrules,false,300,1\ngreedy,true,50,\n";
        let out = aggregate(csv, "h", &["agent".into()], &[], &[]).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "agent,column,n,mean,ci95_lo,ci95_hi,sd,share_nonzero,min,max"
        );
        // BTreeMap order: greedy before rules; starter, points, twins columns.
        assert!(lines.contains(&"greedy,points,1,50.0000,50.0000,50.0000,0.0000,1.0000,50,50"));
        assert!(
            lines.iter().any(|l| l.starts_with("greedy,twins,0,")),
            "{out}"
        );
        let rules_points = lines
            .iter()
            .find(|l| l.starts_with("rules,points"))
            .unwrap();
        assert!(
            rules_points.starts_with("rules,points,2,200.0000,"),
            "{rules_points}"
        );
        let rules_twins = lines.iter().find(|l| l.starts_with("rules,twins")).unwrap();
        assert!(rules_twins.contains(",0.5000,0,1"), "{rules_twins}");
        // Booleans count as 1 / 0: the mean is a share.
        let starter = lines
            .iter()
            .find(|l| l.starts_with("rules,starter"))
            .unwrap();
        assert!(starter.starts_with("rules,starter,2,0.5000,"), "{starter}");
    }

    #[test]
    fn filters_and_chosen_columns() {
        let csv = "a,b,x\n1,k,5\n1,j,7\n2,k,9\n";
        let out = aggregate(csv, "h", &[], &["x".into()], &[("b".into(), "k".into())]).unwrap();
        assert!(out.contains("x,2,7.0000,"), "{out}");
    }

    #[test]
    fn bad_columns_and_values_are_errors() {
        let csv = "a,x\n1,5\n1,zz\n";
        let e = aggregate(csv, "h.csv", &["nope".into()], &[], &[]).unwrap_err();
        assert!(
            e.contains("no column `nope`") && e.contains("columns: a, x"),
            "{e}"
        );
        let e = aggregate(csv, "h.csv", &[], &["x".into()], &[]).unwrap_err();
        assert!(e.contains("row 3") && e.contains("`zz`"), "{e}");
        let e = aggregate("a,b\n1,2,3\n", "h.csv", &[], &[], &[]).unwrap_err();
        assert!(e.contains("malformed CSV"), "{e}");
    }
}
