//! `kanaszta play`: agent A against agent B, written once for both
//! families (see [`RunFamily`]).

pub use crate::classic::{parse_classic_agent, parse_classic_side};
use crate::error::CliError;
use crate::run::family::{with_family, FamilyBody, RunFamily};
use crate::run::options::{RunArgs, ValueError};
use crate::run::SeriesSpec;
use crate::sprt::{Metric, Sprt, SprtConfig};
use clap::Args;
use std::process::ExitCode;

/// Options of `kanaszta play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Agent A (see `kanaszta agents`), e.g. rules, greedy, ismcts:iters=500.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// Stop as soon as "A is stronger than B by at least X" is accepted or
    /// rejected: a sequential probability ratio test on paired deals
    /// (shorthand for --sprt-h0 E --sprt-h1 E+X, E the metric's equal
    /// value: 0 points, or a 0.5 share of the hands won). --hands or
    /// --matches is then the most the run plays; a run that reaches it
    /// says "undecided".
    #[arg(
        long,
        value_name = "X",
        allow_negative_numbers = true,
        value_parser = sprt_number,
        long_help = SPRT_HELP
    )]
    sprt: Option<f64>,
    /// SPRT: H0, A's mean per deal is at most M0 (default: the metric's equal value).
    #[arg(long, value_name = "M0", allow_negative_numbers = true, value_parser = sprt_number)]
    sprt_h0: Option<f64>,
    /// SPRT: H1, A's mean per deal is at least M1 (turns the test on, like --sprt).
    #[arg(long, value_name = "M1", allow_negative_numbers = true, value_parser = sprt_number)]
    sprt_h1: Option<f64>,
    /// SPRT: the chance of accepting H1 when H0 holds, in (0, 1) [default: 0.05].
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = sprt_number)]
    sprt_alpha: Option<f64>,
    /// SPRT: the chance of accepting H0 when H1 holds, in (0, 1) [default: 0.05].
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = sprt_number)]
    sprt_beta: Option<f64>,
    /// SPRT: the statistic of a deal: points (A's raw points per hand minus
    /// B's, averaged over the deal's two games) or wins (A's share of the
    /// deal's hands won, ties half) [default: points].
    #[arg(long, value_name = "METRIC", value_parser = Metric::parse)]
    sprt_metric: Option<Metric>,
    /// SPRT: deals before the first decision, while the variance is still
    /// a guess [default: 20].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = sprt_deals)]
    sprt_min_deals: Option<u64>,
    #[command(flatten)]
    run: RunArgs,
}

/// The SPRT's numbers: a decimal number (its range is checked with the
/// other options).
pub(crate) fn sprt_number(s: &str) -> Result<f64, ValueError> {
    s.trim().parse::<f64>().map_err(|_| ValueError::SprtNumber)
}

/// `--sprt-min-deals`: a whole number of deals.
pub(crate) fn sprt_deals(s: &str) -> Result<u64, ValueError> {
    s.trim().parse::<u64>().map_err(|_| ValueError::SprtDeals)
}

/// The long help of `--sprt`.
const SPRT_HELP: &str = "Stop as soon as \"A is stronger than B by at least X\" is accepted or \
rejected: a sequential probability ratio test on paired deals.

The unit is a deal played twice with the seats swapped; its statistic is A's mean margin over \
the two games in raw points per hand (--sprt-metric points), or A's share of the deal's hands \
won, ties half (--sprt-metric wins). The test is the generalized SPRT with a normal \
approximation and the variance estimated from the deals, as chess engines are tested: \
H0: mean ≤ h0 against H1: mean ≥ h1, LLR = n (h1 − h0) (2 mean − h0 − h1) / (2 variance). \
H1 is accepted when the LLR reaches ln((1 − β) / α), H0 when it falls to ln(β / (1 − α)); \
no decision is taken before --sprt-min-deals deals.

--sprt X is shorthand for --sprt-h0 E --sprt-h1 E+X, E the equal value (0 points, a 0.5 \
share); --sprt-h1 alone turns the test on as well. --hands or --matches is the most the run \
plays: a run that reaches it ends \"undecided\". Deals are fed to the test in deal order, so \
the decision and the deal it falls on do not depend on --threads; the CSVs hold exactly the \
deals up to the decision, and run.json records the test under \"sprt\" (its games are the \
games played, the most under \"sprt\".\"max_games\"). A deal one of whose games ended by an \
agent error is left out. Needs paired deals and the whole run (not --unpaired, not --shard).

Examples:
  kanaszta play --a rules --b random --sprt 50 --hands 4000
      accepts \"rules is stronger than random by at least 50 points per hand\" after a few dozen deals
  kanaszta play --a rules:caution=2 --b rules --sprt-metric wins --sprt 0.03 --sprt-alpha 0.01
      does the change win at least 53% of the hands? (at most 10,000 hands)";

/// Runs `kanaszta play`.
pub fn run(p: PlayArgs) -> Result<ExitCode, CliError> {
    with_family(&p.run.rules, &p)
}

impl FamilyBody for &PlayArgs {
    type Out = ExitCode;

    /// A against B under `rules`, into the files of the family (hands.csv,
    /// matches.csv, errors.csv, summary.csv, run.json); sharded, and with
    /// a sequential test where the family has one.
    fn body<F: RunFamily>(self, rules: F::Rules) -> Result<ExitCode, CliError> {
        let p = self;
        if !F::PARTNERSHIPS {
            refuse_mixed_side("--a", &p.a)?;
            refuse_mixed_side("--b", &p.b)?;
        }
        let a = F::side(&p.a)?;
        let b = F::side(&p.b)?;
        let sprt = p.sprt_config()?;
        let series = vec![SeriesSpec {
            a: a.clone(),
            b: b.clone(),
            settings: String::new(),
            rules: F::store(rules),
        }];
        let plan = F::plan(&p.run, "play", vec![a, b], series, 10_000)?;
        if sprt.is_some() {
            let m = F::manifest(&plan);
            if !m.paired {
                return Err(CliError::Input(
                    "--sprt tests paired deals: drop --unpaired (each deal is played twice \
                     with the seats swapped)"
                        .into(),
                ));
            }
            if m.shard.n > 1 {
                return Err(CliError::Input(
                    "--sprt decides on the whole run in deal order: drop --shard".into(),
                ));
            }
        }
        F::run(plan, &p.run, sprt.map(Sprt::new))
    }
}

impl PlayArgs {
    /// The SPRT's configuration, when one of --sprt and --sprt-h1 asks for
    /// the test; its other options alone are refused.
    fn sprt_config(&self) -> Result<Option<SprtConfig>, CliError> {
        let metric = self.sprt_metric.unwrap_or(Metric::Points);
        let h0 = self.sprt_h0.unwrap_or(metric.equal());
        let h1 = match (self.sprt, self.sprt_h1) {
            (Some(_), Some(_)) => {
                return Err(CliError::Input(
                    "give either --sprt X (H1 = H0 + X) or --sprt-h1 M1, not both".into(),
                ))
            }
            (Some(x), None) => h0 + x,
            (None, Some(m1)) => m1,
            (None, None) => {
                let set = [
                    ("--sprt-h0", self.sprt_h0.is_some()),
                    ("--sprt-alpha", self.sprt_alpha.is_some()),
                    ("--sprt-beta", self.sprt_beta.is_some()),
                    ("--sprt-metric", self.sprt_metric.is_some()),
                    ("--sprt-min-deals", self.sprt_min_deals.is_some()),
                ];
                if let Some((name, _)) = set.iter().find(|(_, on)| *on) {
                    return Err(CliError::Input(format!(
                        "{name} sets up a sequential test: give --sprt X (e.g. --sprt 50: is A \
                         stronger than B by at least 50 points per hand?) or --sprt-h1 M1"
                    )));
                }
                return Ok(None);
            }
        };
        SprtConfig::new(
            metric,
            h0,
            h1,
            self.sprt_alpha.unwrap_or(0.05),
            self.sprt_beta.unwrap_or(0.05),
            self.sprt_min_deals.unwrap_or(20),
        )
        .map(Some)
        .map_err(|e| CliError::Input(e.to_string()))
    }
}

/// Refuses a side of mixed players (`rules+greedy`) outside classic rules.
pub fn refuse_mixed_side(flag: &str, text: &str) -> Result<(), CliError> {
    if text.contains('+') {
        return Err(CliError::Input(format!(
            "{flag} {text}: a side of several players joined by `+` is a classic partnership \
             (--rules classic-002 --set players=4); decorated canasta seats one agent a side: \
             give one agent spec"
        )));
    }
    Ok(())
}
