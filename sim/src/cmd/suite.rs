//! `kanaszta bench --suite`: every workload of the speed table in one run,
//! each figure printed next to its goal and appended to a CSV file
//! (results/bench.csv by default) with the commit and the machine.
//!
//! The workloads: greedy against greedy on one and two threads (the
//! scaling is the ratio of the two, measured in the same run); random
//! against random on one thread (actions/s); rules against greedy on one
//! thread, under the default rules and under `opening=120` (whose time per
//! action is compared with that of the default, measured in the same run);
//! one ISMCTS search at its default budget (milliseconds a search, from
//! the agents' stopwatch of `bench`); classic canasta, four players,
//! greedy, on one and two threads. `--quick` plays a few hands of each
//! (and ISMCTS at a small budget): a check that every row is made, not a
//! measurement.

use super::bench::{csv_field, decorated_plan, medians, time_agents};
use crate::classic::{ClassicPlan, ClassicSink};
use crate::error::CliError;
use crate::run::{execute, Mode};
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// The columns of results/bench.csv: those of `bench --csv` that the file
/// began with, the command, commit and machine, then the suite's figure,
/// its unit and its goal (empty in rows written before the suite).
pub const HEADER: &str = "agents,threads,hands,actions,seconds,hands_per_s,actions_per_s,\
speedup,command,commit,cpu,nproc,figure,unit,goal";

/// Which way a goal points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// No goal for this row (a baseline).
    None,
    /// The figure should be at least this.
    AtLeast(f64),
    /// The figure should be at most this.
    AtMost(f64),
}

impl Goal {
    /// Whether `figure` meets the goal (`None` for no goal).
    pub fn met(self, figure: f64) -> Option<bool> {
        match self {
            Goal::None => None,
            Goal::AtLeast(g) => Some(figure >= g),
            Goal::AtMost(g) => Some(figure <= g),
        }
    }

    fn text(self) -> String {
        match self {
            Goal::None => String::new(),
            Goal::AtLeast(g) => format!(">= {}", number(g)),
            Goal::AtMost(g) => format!("<= {}", number(g)),
        }
    }
}

/// One row of the suite.
#[derive(Clone, Debug)]
pub struct SuiteRow {
    /// What was played, e.g. `greedy vs greedy`.
    pub workload: String,
    /// Worker threads.
    pub threads: usize,
    /// Hands played in one measurement.
    pub hands: u64,
    /// Actions applied in one measurement.
    pub actions: u64,
    /// Seconds of the measurement (the median of the repeats).
    pub seconds: f64,
    /// The first thread count's time over this one's, where the workload
    /// ran on more than one.
    pub speedup: Option<f64>,
    /// The row's figure, in `unit`.
    pub figure: f64,
    /// The unit of `figure`: `hands/s`, `actions/s`, `ms/search`, `x`.
    pub unit: &'static str,
    /// The goal for `figure`.
    pub goal: Goal,
}

/// Sizes of the suite's measurements.
struct Sizes {
    repeat: u32,
    greedy: u64,
    random: u64,
    rules: u64,
    opening: u64,
    ismcts: u64,
    ismcts_spec: &'static str,
    classic: u64,
}

const FULL: Sizes = Sizes {
    repeat: 3,
    greedy: 4000,
    random: 2000,
    rules: 4000,
    opening: 1000,
    ismcts: 2,
    ismcts_spec: "ismcts",
    classic: 4000,
};

const QUICK: Sizes = Sizes {
    repeat: 1,
    greedy: 6,
    random: 2,
    rules: 4,
    opening: 2,
    ismcts: 1,
    ismcts_spec: "ismcts:iters=10",
    classic: 4,
};

/// Runs the suite: `quick` sizes or full ones, from master seed `seed`.
pub fn measure(quick: bool, seed: u64) -> Result<Vec<SuiteRow>, CliError> {
    let z = if quick { &QUICK } else { &FULL };
    let mut rows = Vec::new();
    let decorated = |a: &str, b: &str, hands: u64, rules: Rules, threads: &[usize]| {
        let plan = decorated_plan(a, b, hands, seed, rules)?;
        medians(threads, z.repeat, |t| execute(&plan, t, None, true))
    };
    // Two threads whatever the cores: the goals are for two.
    let two = 2;

    // Greedy against greedy: one thread, then two (the scaling).
    let m = decorated("greedy", "greedy", z.greedy, Rules::default(), &[1, two])?;
    push_scaled(
        &mut rows,
        "greedy vs greedy",
        z.greedy,
        &m,
        "hands/s",
        300_000.0,
    );

    // Random against random, one thread: actions/s.
    let m = decorated("random", "random", z.random, Rules::default(), &[1])?;
    let (t, actions, s) = m[0];
    rows.push(row("random vs random", t, z.random, actions, s, None).with(
        actions as f64 / s,
        "actions/s",
        Goal::AtLeast(5_000_000.0),
    ));

    // Rules against greedy, one thread: hands/s.
    let m = decorated("rules", "greedy", z.rules, Rules::default(), &[1])?;
    let (t, actions, s) = m[0];
    rows.push(row("rules vs greedy", t, z.rules, actions, s, None).with(
        z.rules as f64 / s,
        "hands/s",
        Goal::AtLeast(30_000.0),
    ));

    // Rules against greedy at opening=50 (the default) and opening=120:
    // the time per action of the second over the first.
    let mut base = None;
    for opening in ["50", "120"] {
        let mut r = Rules::default();
        r.set("opening", opening)
            .map_err(|e| CliError::Input(e.to_string()))?;
        let m = decorated("rules", "greedy", z.opening, r, &[1])?;
        let (t, actions, s) = m[0];
        let per_action = s / actions.max(1) as f64;
        let name = format!("rules vs greedy (opening={opening})");
        let r = row(&name, t, z.opening, actions, s, None);
        rows.push(match base {
            None => {
                base = Some(per_action);
                r.with(actions as f64 / s, "actions/s", Goal::None)
            }
            Some(b) => r.with(per_action / b, "x opening=50 per action", Goal::AtMost(2.0)),
        });
    }

    // One ISMCTS search at its default budget: the agents' stopwatch.
    let plan = decorated_plan(z.ismcts_spec, "rules", z.ismcts, seed, Rules::default())?;
    let clocks = time_agents(&plan)?;
    let a = &clocks[0];
    let ms = 1e3 * a.seconds / a.searches.max(1) as f64;
    let actions = clocks[0].actions + clocks[1].actions;
    let name = format!("{} vs rules (a search)", z.ismcts_spec);
    rows.push(row(&name, 1, z.ismcts, actions, a.seconds, None).with(
        ms,
        "ms/search",
        Goal::AtMost(25.0),
    ));

    // Classic, four players, greedy: one thread, then two.
    let mut rules =
        ClassicRules::preset("classic-002").map_err(|e| CliError::Input(e.to_string()))?;
    rules
        .apply_settings(["players=4"])
        .map_err(|e| CliError::Input(e.to_string()))?;
    let specs = [
        super::play::parse_classic_side("greedy")?,
        super::play::parse_classic_side("greedy")?,
    ];
    let plan = ClassicPlan::new(rules, specs, Mode::Hands, z.classic, seed, true)?;
    let m = medians(&[1, two], z.repeat, |t| {
        let mut stats = plan.new_stats();
        plan.execute(t, &mut ClassicSink::counting(&mut stats), true)
    })?;
    push_scaled(
        &mut rows,
        "greedy vs greedy (classic-002, 4 players)",
        z.classic,
        &m,
        "hands/s",
        50_000.0,
    );
    Ok(rows)
}

/// A row without its figure yet.
fn row(
    workload: &str,
    threads: usize,
    hands: u64,
    actions: u64,
    seconds: f64,
    speedup: Option<f64>,
) -> SuiteRow {
    SuiteRow {
        workload: workload.to_string(),
        threads,
        hands,
        actions,
        seconds,
        speedup,
        figure: 0.0,
        unit: "",
        goal: Goal::None,
    }
}

impl SuiteRow {
    fn with(mut self, figure: f64, unit: &'static str, goal: Goal) -> SuiteRow {
        self.figure = figure;
        self.unit = unit;
        self.goal = goal;
        self
    }
}

/// The rows of a workload measured on one thread then two: hands/s on
/// each (the goal on the last), then the scaling (goal 1.9).
fn push_scaled(
    rows: &mut Vec<SuiteRow>,
    workload: &str,
    hands: u64,
    m: &[(usize, u64, f64)],
    unit: &'static str,
    goal: f64,
) {
    let base = m[0].2;
    for (i, &(t, actions, s)) in m.iter().enumerate() {
        let last = i + 1 == m.len();
        let speedup = (i > 0).then_some(base / s);
        rows.push(row(workload, t, hands, actions, s, speedup).with(
            hands as f64 / s,
            unit,
            if last {
                Goal::AtLeast(goal)
            } else {
                Goal::None
            },
        ));
    }
    if let Some(&(t, actions, s)) = m.get(1) {
        let name = format!("{workload}: scaling");
        rows.push(row(&name, t, hands, actions, s, Some(base / s)).with(
            base / s,
            "x one thread",
            Goal::AtLeast(1.9),
        ));
    }
}

/// A figure with thousands separated, at most two decimals below 100.
fn number(x: f64) -> String {
    if x.abs() >= 100.0 {
        let digits = format!("{:.0}", x.abs());
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if x < 0.0 {
            out.insert(0, '-');
        }
        out
    } else {
        format!("{x:.2}")
    }
}

/// The suite's table for the terminal.
pub fn table(rows: &[SuiteRow], quick: bool) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "bench --suite{}: each figure next to its goal (wall clock; shared cores count)",
        if quick {
            " --quick (tiny sizes: not a measurement)"
        } else {
            ""
        }
    );
    let w = rows
        .iter()
        .map(|r| r.workload.chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    let _ = writeln!(
        t,
        "{:<w$}  {:>7}  {:>12}  {:<23}  {:>14}  {:>4}",
        "workload", "threads", "figure", "unit", "goal", "met"
    );
    for r in rows {
        let met = match r.goal.met(r.figure) {
            None => "",
            Some(true) => "yes",
            Some(false) => "no",
        };
        let _ = writeln!(
            t,
            "{:<w$}  {:>7}  {:>12}  {:<23}  {:>14}  {:>4}",
            r.workload,
            r.threads,
            number(r.figure),
            r.unit,
            r.goal.text(),
            met
        );
    }
    t
}

/// The rows as CSV lines of [`HEADER`] (no header), with the command,
/// `commit`, `cpu` and `nproc`.
pub fn csv_lines(
    rows: &[SuiteRow],
    command: &str,
    commit: &str,
    cpu: &str,
    nproc: usize,
) -> String {
    let mut t = String::new();
    for r in rows {
        let _ = writeln!(
            t,
            "{},{},{},{},{:.4},{:.1},{:.0},{},{},{},{},{},{},{},{}",
            csv_field(&r.workload),
            r.threads,
            r.hands,
            r.actions,
            r.seconds,
            r.hands as f64 / r.seconds,
            r.actions as f64 / r.seconds,
            r.speedup.map_or(String::new(), |s| format!("{s:.3}")),
            csv_field(command),
            csv_field(commit),
            csv_field(cpu),
            nproc,
            format_args!("{:.4}", r.figure),
            csv_field(r.unit),
            csv_field(&r.goal.text()),
        );
    }
    t
}

/// Appends `lines` to the CSV file `path`, writing [`HEADER`] first when
/// the file is missing or empty; a file with other columns is refused.
pub fn append(path: &Path, lines: &str) -> Result<(), CliError> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(CliError::Input(format!(
                "--append {}: cannot read it: {e}",
                path.display()
            )))
        }
    };
    let mut out = String::new();
    match existing.as_deref().and_then(|t| t.lines().next()) {
        None => {
            out.push_str(HEADER);
            out.push('\n');
        }
        Some(first) if first.trim_end() == HEADER => {
            if !existing.as_deref().unwrap_or("").ends_with('\n') {
                out.push('\n');
            }
        }
        Some(first) => {
            return Err(CliError::Input(format!(
                "--append {}: its columns are `{first}`, not the suite's `{HEADER}`; give \
                 another file, or `-` to append nowhere",
                path.display()
            )))
        }
    }
    out.push_str(lines);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| {
            CliError::Input(format!("--append {}: cannot open it: {e}", path.display()))
        })?;
    f.write_all(out.as_bytes())
        .map_err(|e| CliError::Input(format!("--append {}: cannot write it: {e}", path.display())))
}

/// The processor's model name (`unknown` where /proc/cpuinfo says none).
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Runs `kanaszta bench --suite`.
pub fn run(quick: bool, seed: u64, append_to: &str) -> Result<ExitCode, CliError> {
    let rows = measure(quick, seed)?;
    let (_, commit, dirty) = crate::run::build_info();
    let mut commit: String = commit.chars().take(7).collect();
    if dirty == "true" {
        commit.push_str("+dirty");
    }
    let command = format!(
        "kanaszta bench --suite{}",
        if quick { " --quick" } else { "" }
    );
    let nproc = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut text = table(&rows, quick);
    if append_to != "-" {
        let lines = csv_lines(&rows, &command, &commit, &cpu_model(), nproc);
        append(Path::new(append_to), &lines)?;
        let _ = writeln!(
            text,
            "\n{} rows appended to {append_to} (commit {commit})",
            rows.len()
        );
    }
    super::print(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick suite makes every row of the table, each with a positive
    /// figure, a unit, and a goal where the table has one; its CSV lines
    /// have the header's columns and append under one header.
    #[test]
    fn quick_suite_makes_every_row_with_its_goal() {
        let rows = measure(true, 3).expect("the quick suite runs");
        let names: Vec<(&str, usize)> = rows
            .iter()
            .map(|r| (r.workload.as_str(), r.threads))
            .collect();
        assert_eq!(
            names,
            [
                ("greedy vs greedy", 1),
                ("greedy vs greedy", 2),
                ("greedy vs greedy: scaling", 2),
                ("random vs random", 1),
                ("rules vs greedy", 1),
                ("rules vs greedy (opening=50)", 1),
                ("rules vs greedy (opening=120)", 1),
                ("ismcts:iters=10 vs rules (a search)", 1),
                ("greedy vs greedy (classic-002, 4 players)", 1),
                ("greedy vs greedy (classic-002, 4 players)", 2),
                ("greedy vs greedy (classic-002, 4 players): scaling", 2),
            ]
        );
        for r in &rows {
            assert!(r.figure > 0.0 && r.figure.is_finite(), "{r:?}");
            assert!(r.actions > 0 && r.seconds > 0.0, "{r:?}");
            assert!(!r.unit.is_empty(), "{r:?}");
        }
        let goals: Vec<Goal> = rows.iter().map(|r| r.goal).collect();
        assert_eq!(goals[1], Goal::AtLeast(300_000.0));
        assert_eq!(goals[2], Goal::AtLeast(1.9));
        assert_eq!(goals[6], Goal::AtMost(2.0));
        assert_eq!(goals[7], Goal::AtMost(25.0));
        assert_eq!(goals[9], Goal::AtLeast(50_000.0));
        assert_eq!(goals[0], Goal::None);
        // The two thread counts play the same hands.
        assert_eq!(rows[0].actions, rows[1].actions);
        assert_eq!(rows[8].actions, rows[9].actions);

        let text = table(&rows, true);
        assert_eq!(text.lines().count(), 2 + rows.len(), "{text}");
        assert!(
            text.contains(">= 300,000") && text.contains("<= 25.00"),
            "{text}"
        );

        let lines = csv_lines(
            &rows,
            "kanaszta bench --suite --quick",
            "abc1234",
            "cpu, x",
            2,
        );
        let columns = HEADER.split(',').count();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(lines.as_bytes());
        let records: Vec<_> = reader.records().map(|r| r.expect("csv")).collect();
        assert_eq!(records.len(), rows.len());
        for rec in &records {
            assert_eq!(rec.len(), columns, "{rec:?}");
            assert_eq!(&rec[9], "abc1234");
            assert_eq!(&rec[10], "cpu, x");
        }

        let dir = std::env::temp_dir().join(format!("kanaszta-suite-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bench.csv");
        append(&file, &lines).unwrap();
        append(&file, &lines).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.lines().filter(|l| *l == HEADER).count(), 1);
        assert_eq!(text.lines().count(), 1 + 2 * rows.len());

        let other = dir.join("other.csv");
        std::fs::write(&other, "a,b\n1,2\n").unwrap();
        let e = append(&other, &lines).expect_err("other columns are refused");
        assert!(e.to_string().contains("its columns are `a,b`"), "{e}");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "a,b\n1,2\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn goals_and_numbers_read_as_the_table_prints_them() {
        assert_eq!(Goal::AtLeast(1.9).met(1.2), Some(false));
        assert_eq!(Goal::AtMost(2.0).met(1.5), Some(true));
        assert_eq!(Goal::None.met(1.0), None);
        assert_eq!(number(5_000_000.0), "5,000,000");
        assert_eq!(number(28_123.4), "28,123");
        assert_eq!(number(1.234), "1.23");
        assert_eq!(Goal::AtLeast(300_000.0).text(), ">= 300,000");
    }
}
