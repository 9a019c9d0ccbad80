//! `kanaszta aggregate`: group the rows of a CSV (e.g. `hands.csv`) by some
//! columns and summarize numeric columns: count, mean with a 95% interval,
//! standard deviation, share of non-zero values, min and max.
//!
//! For questions the summary does not answer directly: the starter's
//! advantage (`--by starter`), the anatomy of hands (`--cols
//! canastas_gold,twins,red_threes`), any rule setting against any column.

use super::parse_filters;
use crate::error::CliError;
use crate::input::{self, column, fmt_num, number, BadColumn, BadNumber, CsvGuard, Filter};
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
    /// Summarize these columns (default: every numeric column; a column
    /// with some cells that are not numbers is left out with a warning).
    #[arg(long, value_delimiter = ',', value_name = "COL,COL,...")]
    cols: Vec<String>,
    /// Keep only rows that pass this condition (repeatable; all must
    /// pass): COL=VALUE, COL!=VALUE, COL<VALUE, COL<=VALUE, COL>VALUE or
    /// COL>=VALUE, e.g. `--where 'lead_before<=-2000'` (quoted: a shell
    /// takes `<` and `>` for redirections): as numbers when the
    /// cell and VALUE both are (a cell that is not a number passes no
    /// `<`, `>` against a number), else as text (`true`/`false` also match
    /// 1/0).
    #[arg(long = "where", value_name = "COND")]
    filter: Vec<String>,
    /// Write the CSV to this file instead of standard output (also accepted as `--out`).
    #[arg(long = "file", alias = "out", value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `kanaszta aggregate`.
pub fn run(a: AggregateArgs) -> Result<ExitCode, CliError> {
    let filter = parse_filters(&a.filter)?;
    let reader = input::open(&a.file, "read")?;
    let mut warnings = Vec::new();
    let csv = aggregate_from(
        reader,
        input::name(&a.file),
        &a.by,
        &a.cols,
        &filter,
        &mut warnings,
    )?;
    for w in &warnings {
        eprintln!("kanaszta: warning: {w}");
    }
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

/// What a column held over the rows read: numbers, and the cells that were
/// not (the first one kept for the message).
#[derive(Clone, Debug, Default)]
struct Census {
    numbers: u64,
    others: u64,
    first_other: Option<(u64, String)>,
}

/// Aggregates `text` (CSV with a header); see [`aggregate_from`].
#[cfg(test)]
pub fn aggregate(
    text: &str,
    name: &str,
    by: &[String],
    cols: &[String],
    filter: &[Filter],
) -> Result<String, AggregateError> {
    aggregate_from(text.as_bytes(), name, by, cols, filter, &mut Vec::new())
}

/// Why a CSV file cannot be summarized: the file, where, and what was
/// wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum AggregateError {
    /// The header is not CSV; `guard` is the reader guard's message when it
    /// stopped the read.
    Header {
        /// The file.
        name: String,
        /// The reader's error.
        source: csv::Error,
        /// The guard's message.
        guard: Option<String>,
    },
    /// No header.
    Empty {
        /// The file.
        name: String,
    },
    /// A column the file does not have once.
    Column(BadColumn),
    /// A record that is not CSV (`line` 0: unknown).
    Csv {
        /// The file.
        name: String,
        /// The line.
        line: u64,
        /// The reader's error.
        source: csv::Error,
        /// The guard's message.
        guard: Option<String>,
    },
    /// A cell of a summarized column that is not a number.
    Number {
        /// The file.
        name: String,
        /// The row's line.
        line: u64,
        /// The column (clipped).
        column: String,
        /// What the cell holds.
        source: BadNumber,
    },
    /// A quote never closed.
    OpenQuote {
        /// The file.
        name: String,
        /// The line of the quote.
        line: u64,
    },
}

impl std::fmt::Display for AggregateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AggregateError::Header {
                name,
                guard: Some(m),
                ..
            } => write!(f, "{name}: {m} (expected a CSV file with a header line)"),
            AggregateError::Header {
                name,
                source,
                guard: None,
            } => write!(
                f,
                "{name}: {source} (expected a CSV file with a header line)"
            ),
            AggregateError::Empty { name } => write!(
                f,
                "{name}: empty: expected a CSV file with a header line naming the columns"
            ),
            AggregateError::Column(e) => write!(f, "{e}"),
            AggregateError::Csv {
                name,
                line,
                source,
                guard: None,
            } if *line > 0 => write!(f, "{name}: malformed CSV at line {line}: {source}"),
            AggregateError::Csv {
                name,
                guard: Some(m),
                ..
            } => write!(f, "{name}: {m}"),
            AggregateError::Csv { name, source, .. } => write!(f, "{name}: {source}"),
            AggregateError::Number {
                name,
                line,
                column,
                source,
            } => write!(
                f,
                "{name}: row {line}: column `{column}` holds {source} (summarized columns take numbers of magnitude up to 1e100; booleans count as 1/0, empty cells are skipped)"
            ),
            AggregateError::OpenQuote { name, line } => write!(
                f,
                "{name}: the quote opened on line {line} is never closed: expected every quoted field to end with `\"`"
            ),
        }
    }
}

impl std::error::Error for AggregateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AggregateError::Header { source, .. } | AggregateError::Csv { source, .. } => {
                Some(source)
            }
            AggregateError::Column(e) => Some(e),
            AggregateError::Number { source, .. } => Some(source),
            AggregateError::Empty { .. } | AggregateError::OpenQuote { .. } => None,
        }
    }
}

impl From<AggregateError> for CliError {
    fn from(e: AggregateError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// Aggregates CSV read from `input` (a header, then rows; streamed, so the
/// file may be of any size) grouped by `by`, over `cols` (when empty: every
/// column whose non-empty cells are all numbers; columns with some numbers
/// and some text are left out with a warning in `warnings`). `filter` keeps
/// the rows that pass every condition.
/// Returns CSV text. Empty input, a quote left open, a record too long or
/// a cell of a chosen column that is not a number are errors.
pub fn aggregate_from(
    input: impl std::io::Read,
    name: &str,
    by: &[String],
    cols: &[String],
    filter: &[Filter],
    warnings: &mut Vec<String>,
) -> Result<String, AggregateError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(CsvGuard::new(input, u64::MAX));
    let header: Vec<String> = match r.headers() {
        Ok(h) => h.iter().map(str::to_string).collect(),
        Err(source) => {
            return Err(AggregateError::Header {
                name: name.to_string(),
                source,
                guard: r.get_ref().failure.clone(),
            });
        }
    };
    if header.iter().all(String::is_empty) {
        return Err(AggregateError::Empty {
            name: name.to_string(),
        });
    }
    let find = |c: &str| column(&header, c, name).map_err(AggregateError::Column);
    let by_i: Vec<usize> = by.iter().map(|c| find(c)).collect::<Result<_, _>>()?;
    let filt: Vec<(usize, &Filter)> = filter
        .iter()
        .map(|f| find(&f.col).map(|i| (i, f)))
        .collect::<Result<_, _>>()?;
    let chosen = !cols.is_empty();
    let col_i: Vec<usize> = if chosen {
        cols.iter().map(|c| find(c)).collect::<Result<_, _>>()?
    } else {
        (0..header.len()).filter(|i| !by_i.contains(i)).collect()
    };
    let mut census = vec![Census::default(); col_i.len()];
    let mut groups: BTreeMap<Vec<String>, Vec<Moments>> = BTreeMap::new();
    let mut rec = csv::StringRecord::new();
    let mut rows = 0u64;
    loop {
        match r.read_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(source) => {
                return Err(AggregateError::Csv {
                    name: name.to_string(),
                    line: source.position().map_or(0, |p| p.line()),
                    source,
                    guard: r.get_ref().failure.clone(),
                });
            }
        }
        if !filt
            .iter()
            .all(|(i, f)| f.matches(rec.get(*i).unwrap_or("")))
        {
            continue;
        }
        rows += 1;
        let line = rec.position().map_or(0, |p| p.line());
        let key: Vec<String> = by_i
            .iter()
            .map(|&i| rec.get(i).unwrap_or("").to_string())
            .collect();
        let m = groups
            .entry(key)
            .or_insert_with(|| vec![Moments::default(); col_i.len()]);
        for (k, &i) in col_i.iter().enumerate() {
            let v = rec.get(i).unwrap_or("");
            if v.is_empty() {
                continue; // missing (e.g. never opened): not counted
            }
            match value(v) {
                Ok(x) => {
                    census[k].numbers += 1;
                    m[k].add(x);
                }
                // A number out of range is an error in any column: left
                // out, it would silently drop a numeric column.
                Err(source) if chosen || v.trim().parse::<f64>().is_ok() => {
                    return Err(AggregateError::Number {
                        name: name.to_string(),
                        line,
                        column: input::clip(&header[i]),
                        source,
                    })
                }
                Err(_) => {
                    census[k].others += 1;
                    if census[k].first_other.is_none() {
                        census[k].first_other = Some((line, input::clip(v)));
                    }
                }
            }
        }
    }
    if let Some(line) = r.get_ref().open_quote() {
        return Err(AggregateError::OpenQuote {
            name: name.to_string(),
            line,
        });
    }
    if rows == 0 {
        warnings.push(format!(
            "{name}: no rows to summarize{}",
            if filter.is_empty() {
                ""
            } else {
                " (after --where)"
            }
        ));
    }
    // Without --cols: the columns whose non-empty cells are all numbers.
    let keep: Vec<usize> = (0..col_i.len())
        .filter(|&k| {
            let c = &census[k];
            if !chosen && c.numbers > 0 && c.others > 0 {
                if let Some((line, v)) = &c.first_other {
                    warnings.push(format!(
                        "column `{}` left out: {} of its {} non-empty cells are not numbers (first `{v}` on line {line}); --cols {} shows the error",
                        input::clip(&header[col_i[k]]),
                        c.others,
                        c.others + c.numbers,
                        input::clip(&header[col_i[k]])
                    ));
                }
            }
            chosen || (c.numbers > 0 && c.others == 0)
        })
        .collect();
    let mut out = String::new();
    for b in by {
        let _ = write!(out, "{b},");
    }
    out.push_str("column,n,mean,mean_lo,mean_hi,sd,share_nonzero,min,max\n");
    for (key, ms) in &groups {
        for &k in &keep {
            let m = &ms[k];
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
            let f4 = |x: f64| fmt_num(x, Some(4));
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                csv_field(&header[col_i[k]]),
                m.n,
                f4(m.mean),
                f4(m.mean - half),
                f4(m.mean + half),
                f4(m.sd()),
                f4(share),
                fmt_num(m.min, None),
                fmt_num(m.max, None)
            );
        }
    }
    Ok(out)
}

/// A cell as a number: numbers, and booleans as 1 / 0 (so a mean is a share).
fn value(v: &str) -> Result<f64, BadNumber> {
    match v {
        "true" => Ok(1.0),
        "false" => Ok(0.0),
        _ => number(v),
    }
}

fn csv_field(v: &str) -> String {
    if v.contains([',', '"', '\n', '\r']) {
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
            "agent,column,n,mean,mean_lo,mean_hi,sd,share_nonzero,min,max"
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
        let out = aggregate(csv, "h", &[], &["x".into()], &[where_("b=k")]).unwrap();
        assert!(out.contains("x,2,7.0000,"), "{out}");
    }

    fn where_(text: &str) -> Filter {
        Filter::parse(text).unwrap()
    }

    /// `--where` compares numbers as numbers when the cell and the value
    /// both are, else text as text; a cell that is not a number passes
    /// no order comparison with a number (an empty cell is not "below
    /// -2000"); a bad condition says what is accepted.
    #[test]
    fn filters_compare_numbers_and_exclude_values() {
        let csv = "lead,b,x\n-2500,k,1\n-2000,j,2\n-1999,k,4\n500,k,8\nnone,k,16\n,k,32\n";
        let rows = |conds: &[&str]| {
            let f: Vec<Filter> = conds.iter().map(|c| where_(c)).collect();
            let out = aggregate(csv, "h", &[], &["x".into()], &f).unwrap();
            let row = out.lines().nth(1).unwrap_or("").to_string();
            let n: u64 = row.split(',').nth(1).unwrap_or("0").parse().unwrap_or(0);
            n
        };
        assert_eq!(rows(&["lead<=-2000"]), 2);
        assert_eq!(rows(&["lead<-2000"]), 1);
        assert_eq!(rows(&["lead>-2000"]), 2);
        assert_eq!(rows(&["lead>=-2000"]), 3);
        assert_eq!(rows(&["lead>=-2e3"]), 3);
        assert_eq!(rows(&["lead=-2000.0"]), 1, "numbers compare as numbers");
        assert_eq!(rows(&["lead!=500"]), 5);
        assert_eq!(rows(&["b!=k"]), 1);
        assert_eq!(rows(&["b==k", "lead>0"]), 1);
        assert_eq!(rows(&["lead=none"]), 1);
        assert_eq!(rows(&["lead="]), 1, "the empty cell");
        assert_eq!(rows(&["b<k"]), 1, "text compares as text: j < k");
        assert_eq!(rows(&["b>=k"]), 5);
        assert_eq!(
            rows(&["lead>m"]),
            1,
            "none > m as text; numbers too are text here"
        );
        let e = Filter::parse("lead").unwrap_err().to_string();
        assert!(e.contains("quote the condition"), "{e}");
        for bad in ["lead", "lead<", "<=3", "lead!3", "lead>=inf", "lead=<3"] {
            let e = Filter::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains(&format!("`{bad}`")) && e.contains("COL<=VALUE"),
                "{e}"
            );
        }
        // Whole numbers compare exactly, beyond the 53 bits of a float.
        let seeds = "seed,x\n18446744073709551617,1\n18446744073709551616,2\n";
        let f = [where_("seed=18446744073709551616")];
        let out = aggregate(seeds, "h", &[], &["x".into()], &f).unwrap();
        assert!(out.contains("x,1,2.0000,"), "{out}");
    }

    #[test]
    fn bad_columns_and_values_are_errors() {
        let csv = "a,x\n1,5\n1,zz\n";
        let e = aggregate(csv, "h.csv", &["nope".into()], &[], &[]).unwrap_err();
        assert!(matches!(e, AggregateError::Column(_)), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("no column `nope`") && e.contains("columns: a, x"),
            "{e}"
        );
        let e = aggregate(csv, "h.csv", &[], &["x".into()], &[]).unwrap_err();
        assert!(
            matches!(&e, AggregateError::Number { line: 3, column, .. } if column == "x"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("row 3") && e.contains("`zz`"), "{e}");
        let e = aggregate("a,b\n1,2,3\n", "h.csv", &[], &[], &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("malformed CSV"), "{e}");
    }
}
