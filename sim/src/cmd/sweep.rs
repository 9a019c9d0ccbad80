//! `kanaszta sweep`: one matchup over the cartesian product of rule
//! settings.

use crate::error::CliError;
use crate::run::family::{with_family, FamilyBody, RunFamily};
use crate::run::options::RunArgs;
use crate::run::SeriesSpec;
use clap::Args;
use std::process::ExitCode;

/// Options of `kanaszta sweep`.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Agent A.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// A rule switch and its values, e.g. --vary tax=on,off --vary opening=50,75,90,120
    /// (repeatable; values of tax_schedule are separated by `;`); under
    /// --rules classic-… a classic switch, e.g. --vary players=2,3,4. Every
    /// combination is played: at most 1,000 settings in all.
    #[arg(long, required = true, value_name = "KEY=V1,V2,...")]
    vary: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `kanaszta sweep`.
pub fn run(s: SweepArgs) -> Result<ExitCode, CliError> {
    with_family(&s.run.rules, &s)
}

impl FamilyBody for &SweepArgs {
    type Out = ExitCode;

    /// A against B under every combination of the family's switches
    /// (`kanaszta rules`, with --rules classic-002 the classic ones).
    fn body<F: RunFamily>(self, base: F::Rules) -> Result<ExitCode, CliError> {
        let a = F::side(&self.a)?;
        let b = F::side(&self.b)?;
        let keys = F::sweep_keys();
        let series = sweep_settings(
            &base,
            &self.vary,
            &keys,
            |v, key| F::unknown_switch(v, key, &keys),
            F::set,
        )?
        .into_iter()
        .map(|(settings, rules)| SeriesSpec {
            a: a.clone(),
            b: b.clone(),
            settings,
            rules: F::store(rules),
        })
        .collect();
        let plan = F::plan(&self.run, "sweep", vec![a, b], series, 2_000)?;
        F::run(plan, &self.run, None)
    }
}

/// Most settings a sweep plays (the product of the `--vary` value counts):
/// run.json holds each (about 0.7 KB a setting), and the commands that read
/// a run (`merge`, `ratings`, `replay`) read a run.json of at most 4 MiB.
pub const MAX_SETTINGS: usize = 1_000;

/// The cartesian product of `--vary KEY=V1,V2` options: every combination as
/// (settings text, rules). `keys` are the switches accepted (`unknown` says
/// so of another); `set` sets one, the context naming it for a message.
fn sweep_settings<R: Copy + PartialEq>(
    base: &R,
    vary: &[String],
    keys: &[String],
    unknown: impl Fn(&str, &str) -> String,
    set: impl Fn(&mut R, &str, &str, &str) -> Result<(), CliError>,
) -> Result<Vec<(String, R)>, CliError> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for v in vary {
        let (k, vals) = v.split_once('=').ok_or_else(|| {
            CliError::Input(format!(
                "bad --vary `{v}`: expected KEY=V1,V2,..., e.g. --vary opening=50,75,90,120"
            ))
        })?;
        let key = k.trim().replace('-', "_");
        if !keys.contains(&key) {
            return Err(CliError::Input(unknown(v, &key)));
        }
        if axes.iter().any(|(a, _)| *a == key) {
            return Err(CliError::Input(format!(
                "--vary {key} is given twice; list its values once"
            )));
        }
        let sep = if key == "tax_schedule" || vals.contains(';') {
            ';'
        } else {
            ','
        };
        let values: Vec<String> = vals
            .split(sep)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if values.is_empty() {
            return Err(CliError::Input(format!(
                "bad --vary `{v}`: no values after `=`"
            )));
        }
        // Two values that give the same rules would play one setting
        // twice under two names.
        let mut seen: Vec<(&String, R)> = Vec::new();
        let mut twice: Option<(&String, &String)> = None;
        for val in &values {
            let mut r = *base;
            set(&mut r, &key, val, &format!("--vary {key}"))?;
            match seen.iter().find(|(_, q)| *q == r) {
                Some((first, _)) => {
                    twice.get_or_insert((val, first));
                }
                None => seen.push((val, r)),
            }
        }
        if let Some((val, first)) = twice {
            let once: Vec<&str> = seen.iter().map(|(x, _)| x.as_str()).collect();
            return Err(CliError::Input(format!(
                "bad --vary `{v}`: {key}={val} gives the same rules as {key}={first}: list each \
                 setting once, e.g. --vary {key}={}",
                once.join(&sep.to_string())
            )));
        }
        axes.push((key, values));
    }
    // Counted before any is built: a million settings took gigabytes
    // before the first game.
    let count = axes
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
        .filter(|&n| n <= MAX_SETTINGS);
    if count.is_none() {
        let sizes: Vec<String> = axes
            .iter()
            .map(|(k, v)| format!("{} of {k}", v.len()))
            .collect();
        return Err(CliError::Input(format!(
            "--vary gives {} settings ({}): a sweep plays at most {MAX_SETTINGS} settings \
             (each a series of its own in run.json and the summaries); vary fewer values, or \
             split the sweep into several runs",
            axes.iter()
                .try_fold(1u128, |n, (_, v)| n.checked_mul(v.len() as u128))
                .map_or("more than 2^128".to_string(), |n| n.to_string()),
            sizes.join(" × ")
        )));
    }
    let mut out: Vec<(Vec<(String, String)>, R)> = vec![(Vec::new(), *base)];
    for (key, values) in &axes {
        let mut next = Vec::new();
        for (done, rules) in &out {
            for val in values {
                let mut r = *rules;
                set(&mut r, key, val, &format!("--vary {key}={val}"))?;
                let mut s = done.clone();
                s.push((key.clone(), val.clone()));
                next.push((s, r));
            }
        }
        out = next;
    }
    Ok(out
        .into_iter()
        .map(|(s, r)| {
            let text: Vec<String> = s.iter().map(|(k, v)| format!("{k}={v}")).collect();
            (text.join(";"), r)
        })
        .collect())
}
