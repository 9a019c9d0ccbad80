//! A sequential probability ratio test on paired deals, for `kanaszta play
//! --sprt`: it ends a comparison of agents A and B as soon as "A is
//! stronger than B by at least `h1`" is accepted or rejected.
//!
//! The unit is a deal played twice with the seats swapped; its statistic is
//! A's mean margin over the two games, in points per hand (or A's share of
//! the hands won, ties half). The test is the generalized SPRT with a normal
//! approximation, the variance estimated from the data, as chess engine
//! testing runs it: `H0: mean ≤ h0` against `H1: mean ≥ h1`, with
//!
//! ```text
//! LLR = n (h1 − h0) (2 x̄ − h0 − h1) / (2 s²)
//! ```
//!
//! over `n` deals of mean `x̄` and variance `s²` (divided by `n`). H1 is
//! accepted when the LLR reaches `ln((1 − β) / α)`, H0 when it falls to
//! `ln(β / (1 − α))`; no decision is taken before `min_deals` deals, where
//! the variance is still a guess.

use crate::error::CliError;
use crate::run::{run_json_family, GameOut, Manifest, StoredRules};
use crate::stats::side_of;
use serde::Serialize;

/// What the test reads of a finished game, in either rule family.
pub trait SprtGame {
    /// Whether an error ended the game (its deal is left out).
    fn errored(&self) -> bool;
    /// A's margin, hands won and hands over the game's hands.
    fn tally(&self) -> Tally;
}

/// A game's hands from A's side, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// A's points minus B's.
    pub margin: f64,
    /// The hands A won, ties half.
    pub won: f64,
    /// The hands counted.
    pub hands: u32,
}

impl SprtGame for GameOut {
    fn errored(&self) -> bool {
        self.error.is_some()
    }

    /// Every seat's raw points (D-14), A's added and B's taken off; a hand
    /// for each of A's rows.
    fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for r in &self.facts {
            let a = side_of(r.seat, r.swapped) == 0;
            if a {
                t.hands += 1;
                if r.won {
                    t.won += 1.0;
                } else if r.tied {
                    t.won += 0.5;
                }
                t.margin += r.raw as f64;
            } else {
                t.margin -= r.raw as f64;
            }
        }
        t
    }
}

/// What a deal's statistic measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// A's raw points per hand (D-14) minus B's.
    Points,
    /// A's share of the hands won (D-16.1, ties half).
    Wins,
}

impl Metric {
    /// Parses `points` or `wins`.
    pub fn parse(s: &str) -> Result<Metric, SprtError> {
        match s.trim() {
            "points" => Ok(Metric::Points),
            "wins" => Ok(Metric::Wins),
            _ => Err(SprtError::Metric(s.to_string())),
        }
    }

    /// The value of the statistic when A and B are equally strong.
    pub fn equal(self) -> f64 {
        match self {
            Metric::Points => 0.0,
            Metric::Wins => 0.5,
        }
    }

    /// The statistic's unit, for messages.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Points => "points per hand",
            Metric::Wins => "hand-win share",
        }
    }
}

/// The largest mean of points per hand a hypothesis may name: far above
/// any hand's score, far below where the LLR's products overflow.
pub const POINTS_BOUND: f64 = 100_000.0;

/// A number as a message shows it: huge ones in exponent form.
fn short(v: f64) -> String {
    if v.abs() >= 1e9 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A test the options do not describe: the option and what it accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `--sprt-metric` neither `points` nor `wins`.
    Metric(String),
    /// A bound that is not a finite number.
    NotFinite {
        /// The option.
        name: &'static str,
        /// Its value.
        v: f64,
    },
    /// An error rate outside (0, 1).
    Rate {
        /// The option.
        name: &'static str,
        /// Its value.
        v: f64,
    },
    /// Error rates whose sum is 1 or more.
    RateSum {
        /// α.
        alpha: f64,
        /// β.
        beta: f64,
    },
    /// H1 not above H0.
    Order {
        /// The statistic.
        metric: Metric,
        /// H0.
        h0: f64,
        /// H1.
        h1: f64,
    },
    /// Points bounds beyond ±[`POINTS_BOUND`].
    Points {
        /// H0.
        h0: f64,
        /// H1.
        h1: f64,
    },
    /// Share bounds outside 0..1.
    Share {
        /// H0.
        h0: f64,
        /// H1.
        h1: f64,
    },
    /// Fewer than 2 deals before the first decision.
    MinDeals(u64),
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::Metric(s) => write!(
                f,
                "unknown SPRT metric `{s}`: expected points (A's points per hand minus B's) \
                 or wins (A's share of the hands won)"
            ),
            SprtError::NotFinite { name, v } => write!(f, "{name} {v}: expected a finite number"),
            SprtError::Rate { name, v } => write!(
                f,
                "{name} {v}: expected an error rate strictly between 0 and 1, e.g. 0.05"
            ),
            SprtError::RateSum { alpha, beta } => write!(
                f,
                "--sprt-alpha {alpha} and --sprt-beta {beta}: their sum must be below 1, \
                 else the test could accept both hypotheses at once"
            ),
            SprtError::Order { metric, h0, h1 } => write!(
                f,
                "SPRT bounds H0 {h0}, H1 {h1}: H1 must be above H0 (H0: A's mean {unit} \
                 ≤ h0, H1: ≥ h1), e.g. --sprt 50 for H0 0, H1 50",
                unit = metric.unit()
            ),
            SprtError::Points { h0, h1 } => write!(
                f,
                "SPRT bounds H0 {}, H1 {}: A's mean points per hand (A's raw score minus B's) \
                 lies within ±{POINTS_BOUND}; expected -{POINTS_BOUND} ≤ H0 < H1 ≤ {POINTS_BOUND}, \
                 e.g. --sprt 50 for H0 0, H1 50",
                short(*h0),
                short(*h1)
            ),
            SprtError::Share { h0, h1 } => write!(
                f,
                "SPRT bounds H0 {h0}, H1 {h1}: a hand-win share lies in 0..1 \
                 (0.5 when A and B are equal), e.g. --sprt-metric wins --sprt 0.05"
            ),
            SprtError::MinDeals(n) => write!(
                f,
                "--sprt-min-deals {n}: at least 2 (the variance is estimated from the deals)"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// The test's hypotheses and error rates, validated.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtConfig {
    /// The statistic.
    pub metric: Metric,
    /// `H0: mean ≤ h0`.
    pub h0: f64,
    /// `H1: mean ≥ h1`.
    pub h1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// Deals before the first decision.
    pub min_deals: u64,
}

impl SprtConfig {
    /// A checked configuration: the message of an error names the option
    /// and what it accepts.
    pub fn new(
        metric: Metric,
        h0: f64,
        h1: f64,
        alpha: f64,
        beta: f64,
        min_deals: u64,
    ) -> Result<SprtConfig, SprtError> {
        for (name, v) in [("--sprt-h0", h0), ("--sprt-h1", h1)] {
            if !v.is_finite() {
                return Err(SprtError::NotFinite { name, v });
            }
        }
        for (name, v) in [("--sprt-alpha", alpha), ("--sprt-beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(SprtError::Rate { name, v });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::RateSum { alpha, beta });
        }
        if h1 <= h0 {
            return Err(SprtError::Order { metric, h0, h1 });
        }
        // Beyond any hand's score the test means nothing, and the LLR's
        // products overflow (±1e308 gave NaN).
        if metric == Metric::Points && (h0.abs() > POINTS_BOUND || h1.abs() > POINTS_BOUND) {
            return Err(SprtError::Points { h0, h1 });
        }
        let share = |v: f64| (0.0..=1.0).contains(&v);
        if metric == Metric::Wins && !(share(h0) && share(h1)) {
            return Err(SprtError::Share { h0, h1 });
        }
        if min_deals < 2 {
            return Err(SprtError::MinDeals(min_deals));
        }
        Ok(SprtConfig {
            metric,
            h0,
            h1,
            alpha,
            beta,
            min_deals,
        })
    }

    /// The LLR at or below which H0 is accepted: `ln(β / (1 − α))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at or above which H1 is accepted: `ln((1 − β) / α)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// The log-likelihood ratio of `H1: mean = h1` against `H0: mean = h0`
/// for `n` observations of sum `sum` and sum of squares `sumsq`, normal
/// with the variance estimated from them; 0 while fewer than two are in.
/// Observations all equal (two deterministic agents that mirror each
/// other on every deal) have no variance: the LLR is then its limit, −∞
/// or +∞ by the side of the midpoint of `h0` and `h1` the mean lies on.
pub fn llr(n: u64, sum: f64, sumsq: f64, h0: f64, h1: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    let mean = sum / n;
    let var = (sumsq / n - mean * mean).max(0.0);
    let lead = (h1 - h0) * (2.0 * mean - h0 - h1);
    // The variance of equal observations comes out as rounding noise.
    if var <= 1e-12 * (mean * mean).max(1.0) {
        return if lead > 0.0 {
            f64::INFINITY
        } else if lead < 0.0 {
            f64::NEG_INFINITY
        } else {
            0.0
        };
    }
    n * lead / (2.0 * var)
}

/// The test in run.json (`sprt`): its configuration, bounds and outcome.
#[derive(Clone, Debug, Serialize)]
pub struct SprtRecord {
    /// Metric, hypotheses, error rates, minimum of deals.
    #[serde(flatten)]
    pub config: SprtConfig,
    /// The LLR at which H0 is accepted.
    pub lower: f64,
    /// The LLR at which H1 is accepted.
    pub upper: f64,
    /// `H1`, `H0` or `undecided`.
    pub decision: &'static str,
    /// The LLR at the end: a number, or `inf` / `-inf` (deals without
    /// variance, see [`llr`]).
    #[serde(serialize_with = "number_or_infinity")]
    pub llr: f64,
    /// Deals in the test.
    pub deals: u64,
    /// Deals left out for an agent error.
    pub skipped_deals: u64,
    /// The mean statistic of the deals.
    pub mean: Option<f64>,
    /// The most games the run would have played.
    pub max_games: u64,
}

/// A finite number as a JSON number, an infinity as `"inf"` or `"-inf"`.
fn number_or_infinity<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_str(if *x > 0.0 { "inf" } else { "-inf" })
    }
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1: A is stronger than B by at least `h1`.
    H1,
    /// H0: A is not stronger than B by more than `h0`.
    H0,
    /// The run ended (its maximum of games, or a signal) first.
    Undecided,
}

impl Decision {
    /// `H1`, `H0` or `undecided`, as run.json writes it.
    pub fn name(self) -> &'static str {
        match self {
            Decision::H1 => "H1",
            Decision::H0 => "H0",
            Decision::Undecided => "undecided",
        }
    }
}

/// The running test: fed games in game order ([`Sprt::game`]).
#[derive(Clone, Debug)]
pub struct Sprt {
    cfg: SprtConfig,
    /// Deals in the test.
    n: u64,
    sum: f64,
    sumsq: f64,
    llr: f64,
    /// Deals left out because one of their games ended by an agent error.
    skipped: u64,
    decision: Decision,
    /// The first game of the current deal: its index and its statistic
    /// (`None` when it erred).
    first: Option<(u64, Option<f64>)>,
}

impl Sprt {
    /// A test with no deal in.
    pub fn new(cfg: SprtConfig) -> Sprt {
        Sprt {
            cfg,
            n: 0,
            sum: 0.0,
            sumsq: 0.0,
            llr: 0.0,
            skipped: 0,
            decision: Decision::Undecided,
            first: None,
        }
    }

    /// The decision so far.
    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// The mean statistic of the deals in.
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }

    /// Adds one deal's statistic; true when it decides the test.
    pub fn deal(&mut self, x: f64) -> bool {
        self.n += 1;
        self.sum += x;
        self.sumsq += x * x;
        self.llr = llr(self.n, self.sum, self.sumsq, self.cfg.h0, self.cfg.h1);
        if self.n >= self.cfg.min_deals {
            if self.llr >= self.cfg.upper() {
                self.decision = Decision::H1;
            } else if self.llr <= self.cfg.lower() {
                self.decision = Decision::H0;
            }
        }
        self.decision != Decision::Undecided
    }

    /// Takes in game `game` of a paired run (the even game of a deal, then
    /// the odd one); true when the deal it completes decides the test.
    pub fn game<G: SprtGame>(&mut self, game: u64, out: &G) -> bool {
        let x = if out.errored() {
            None
        } else {
            self.statistic(out)
        };
        if game.is_multiple_of(2) {
            self.first = Some((game, x));
            return false;
        }
        match self.first.take() {
            Some((g, first)) if g + 1 == game => match (first, x) {
                (Some(a), Some(b)) => self.deal((a + b) / 2.0),
                _ => {
                    self.skipped += 1;
                    false
                }
            },
            _ => false,
        }
    }

    /// The game's statistic from A's side: its margin per hand, or its
    /// share of the hands won.
    fn statistic<G: SprtGame>(&self, out: &G) -> Option<f64> {
        let t = out.tally();
        if t.hands == 0 {
            return None;
        }
        Some(match self.cfg.metric {
            Metric::Points => t.margin / t.hands as f64,
            Metric::Wins => t.won / t.hands as f64,
        })
    }

    /// What run.json records of the test: its configuration and outcome.
    pub fn record(&self, max_games: u64) -> SprtRecord {
        SprtRecord {
            config: self.cfg,
            lower: self.cfg.lower(),
            upper: self.cfg.upper(),
            decision: self.decision.name(),
            llr: self.llr,
            deals: self.n,
            skipped_deals: self.skipped,
            mean: self.mean(),
            max_games,
        }
    }

    /// The lines of the report: the test, the decision, the LLR and its
    /// bounds, the deals used.
    pub fn report(&self, a: &str, b: &str, max_deals: u64) -> String {
        let c = &self.cfg;
        let unit = c.metric.unit();
        let verdict = match self.decision() {
            Decision::H1 => format!(
                "H1 accepted: {a} is stronger than {b} by at least {} {unit}",
                c.h1
            ),
            Decision::H0 => format!(
                "H0 accepted: {a} is not stronger than {b} by {} {unit} (H1 rejected)",
                c.h1
            ),
            Decision::Undecided => format!(
                "undecided: neither bound was reached within {max_deals} deals; give more \
                 --hands or --matches, or wider bounds"
            ),
        };
        let mean = self.mean().map_or("-".into(), |m| format!("{m:.3}"));
        let skipped = if self.skipped > 0 {
            format!(
                " ({} deals left out: an agent error in one of their games)",
                self.skipped
            )
        } else {
            String::new()
        };
        format!(
            "SPRT on paired deals, {unit}: H0 mean ≤ {} against H1 mean ≥ {}, α {}, β {}\n\
             {verdict}\n\
             LLR {:.3} (bounds {:.3}, {:.3}) after {} deals of at most {max_deals}, \
             mean {mean}{skipped}\n",
            c.h0,
            c.h1,
            c.alpha,
            c.beta,
            self.llr,
            c.lower(),
            c.upper(),
            self.n
        )
    }
}

/// Writes run.json with the record of the sequential test under `sprt`,
/// after the manifest's own fields (the family first, unless decorated,
/// as [`Manifest::write`] writes it).
pub fn write_with_sprt<R: StoredRules>(
    m: &Manifest<R>,
    record: &SprtRecord,
    dir: &std::path::Path,
) -> Result<(), CliError> {
    #[derive(serde::Serialize)]
    struct WithSprt<'a, R: StoredRules> {
        #[serde(skip_serializing_if = "Option::is_none")]
        family: Option<&'a str>,
        #[serde(flatten)]
        manifest: &'a Manifest<R>,
        sprt: &'a SprtRecord,
    }
    let json = serde_json::to_string_pretty(&WithSprt {
        family: run_json_family(R::FAMILY),
        manifest: m,
        sprt: record,
    })
    .map_err(|e| CliError::Input(format!("internal: run.json: {e}")))?;
    let path = dir.join("run.json");
    std::fs::write(&path, json + "\n").map_err(|e| CliError::io("write", path.display(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(h0: f64, h1: f64) -> SprtConfig {
        SprtConfig::new(Metric::Points, h0, h1, 0.05, 0.05, 2).expect("valid")
    }

    /// Deals 1, 2, 3, 4: mean 2.5, variance 1.25; for H0 0, H1 1 the LLR
    /// is 4 · 1 · (5 − 1) / (2 · 1.25) = 6.4, past ln(0.95/0.05) = 2.944.
    #[test]
    fn llr_matches_a_hand_computed_case() {
        let x = [1.0, 2.0, 3.0, 4.0];
        let sum: f64 = x.iter().sum();
        let sumsq: f64 = x.iter().map(|v| v * v).sum();
        assert!((llr(4, sum, sumsq, 0.0, 1.0) - 6.4).abs() < 1e-12);
        // Symmetric: the same data against H0 4, H1 5 speaks for H0 as much.
        assert!((llr(4, sum, sumsq, 4.0, 5.0) + 6.4).abs() < 1e-12);
        let c = cfg(0.0, 1.0);
        assert!((c.upper() - 19f64.ln()).abs() < 1e-12);
        assert!((c.lower() + 19f64.ln()).abs() < 1e-12);
        let mut t = Sprt::new(SprtConfig::new(Metric::Points, 0.0, 1.0, 0.05, 0.05, 4).unwrap());
        assert!(
            !t.deal(1.0) && !t.deal(2.0) && !t.deal(3.0),
            "fewer than 4 deals"
        );
        assert!(t.deal(4.0), "LLR 6.4 ≥ 2.944 decides");
        assert!((t.llr - 6.4).abs() < 1e-12);
        assert_eq!(t.decision(), Decision::H1);
    }

    #[test]
    fn no_decision_before_the_minimum_or_without_variance() {
        let mut t = Sprt::new(SprtConfig::new(Metric::Points, 0.0, 1.0, 0.05, 0.05, 10).unwrap());
        for x in [1.0, 2.0, 3.0, 4.0] {
            assert!(!t.deal(x));
        }
        // Five deals of 2: no variance; the limit by the side of 0.5.
        assert_eq!(llr(5, 10.0, 20.0, 0.0, 1.0), f64::INFINITY);
        assert_eq!(llr(5, 10.0, 20.0, 2.0, 3.0), f64::NEG_INFINITY);
        assert_eq!(llr(5, 10.0, 20.0, 1.0, 3.0), 0.0, "on the midpoint");
    }

    #[test]
    fn bad_bounds_are_refused_with_the_option_named() {
        let e = SprtConfig::new(Metric::Points, 0.0, 50.0, 1.0, 0.05, 20)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--sprt-alpha") && e.contains("between 0 and 1"),
            "{e}"
        );
        let e = SprtConfig::new(Metric::Points, 10.0, 5.0, 0.05, 0.05, 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("H1 must be above H0"), "{e}");
        let e = SprtConfig::new(Metric::Points, 0.0, 5.0, 0.6, 0.5, 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("sum must be below 1"), "{e}");
        let e = SprtConfig::new(Metric::Wins, 0.5, 1.5, 0.05, 0.05, 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("lies in 0..1"), "{e}");
        let e = SprtConfig::new(Metric::Points, 0.0, f64::NAN, 0.05, 0.05, 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("finite"), "{e}");
        let e = SprtConfig::new(Metric::Points, -1e308, 1e308, 0.05, 0.05, 20)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("H0 -1e308, H1 1e308") && e.contains("within ±100000"),
            "{e}"
        );
        assert!(SprtConfig::new(Metric::Points, -1e5, 1e5, 0.05, 0.05, 20).is_ok());
    }
}
