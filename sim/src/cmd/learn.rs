//! `kanaszta learn`: training data from self-play (`learn data`) and a
//! value model fitted to it (`learn fit`). docs/LEARNING.md holds the
//! file formats and figures.

use crate::classic::{parse_classic_side, SideSpec};
use crate::error::CliError;
use crate::learn::data::{At, DataPlan, DataSet, LearnFamily, Views};
use crate::learn::fit::{FitConfig, Kind};
use crate::learn::iteration::{Gate, Loop, LoopConfig, Window};
use crate::run::family::{family_rules, FamilyRules};
use crate::run::options::{whole, RulesArgs, ValueError};
use crate::run::Mode;
use crate::sprt::{Metric, SprtConfig};
use clap::{Args, Subcommand};
use kanaszta_agents::AgentSpec;
use kanaszta_engine::classic::ClassicState;
use kanaszta_engine::GameState;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kanaszta learn`.
#[derive(Args, Debug, Clone)]
pub struct LearnArgs {
    #[command(subcommand)]
    command: LearnCommand,
}

#[derive(Subcommand, Debug, Clone)]
enum LearnCommand {
    /// Play paired hands (or matches) and write sampled decisions as
    /// NumPy .npy files: each seat's encoding, the legal ids, the id
    /// taken, the hand's final margin (and the match's outcome).
    #[command(
        after_help = "Examples:\n  kanaszta learn data --a rules --b greedy --hands 2000 --sample 0.2 --out data/d1\n      1,000 deals played twice with the seats swapped; a fifth of the decisions in data/d1/*.npy\n  kanaszta learn data --rules classic-002 --set players=4 --a rules --b rules --hands 1000 --views all --out data/c4\n      classic canasta in partnerships; every seat's view of each decision\n\nThe files, field by field, and how numpy reads them: docs/LEARNING.md."
    )]
    Data(DataArgs),
    /// Fit a value model (the hand's final margin from the seat's
    /// encoding) to the files of `learn data`: ridge regression or a
    /// small network; held-out error and calibration in the model file
    /// and on standard output.
    #[command(
        after_help = "Examples:\n  kanaszta learn fit data/d1 --out models/linear.json\n      ridge regression on data/d1, a tenth of its deals held out\n  kanaszta learn fit data/d1 --kind mlp --hidden 32 --epochs 8 --out models/mlp.json\n      a network of 32 ReLU units, Adam on mini-batches of 128 rows\n\nThe model file, field by field: docs/LEARNING.md. The same data and --seed give the same file."
    )]
    Fit(FitArgs),
    /// Improvement by iteration: generation 0 plays a starting pair and
    /// fits a model; each later generation plays with the best model's
    /// agent (value:model=…), fits a new model, gates it against the best
    /// (by default the sequential test of play --sprt on paired deals) and
    /// measures it against rules and greedy.
    #[command(
        after_help = "Examples:\n  kanaszta learn loop --generations 4 --hands 2000 --out loops/d1\n      rules v greedy, then the value agent of the best model against itself; one row a generation in loops/d1/loop.csv\n  kanaszta plot loops/d1/loop.csv --kind line --x generation --y rules_win --lo rules_win_lo --hi rules_win_hi --file curve.svg\n      the learning curve: each generation's hands won against rules, with 95% intervals\n  kanaszta learn loop --generations 4 --gate-sprt 100 --gate-hands 2000 --out loops/d2\n      a new model becomes the best when the test accepts that its agent gains at least 100 points a hand on the best one's (at most 2,000 hands; --gate hands plays a fixed number)\n  kanaszta learn loop --opponent greedy --turn on --worlds 4 --at turn-end --out loops/d3\n      the turn-level agent value:model=…,turn=on,worlds=4 against greedy, learning from the positions that end turns\n\nThe same command on the same directory goes on after its last complete generation. The columns of loop.csv: docs/LEARNING.md."
    )]
    Loop(LoopArgs),
    /// Tune a decorated linear value model by play: its weights are a few
    /// hand-made directions of the encoding (points in hand, on each
    /// side's table, canastas, the pile, ...), moved by SPSA on paired
    /// deals of its value agent against an opponent.
    #[command(
        after_help = "Examples:\n  kanaszta learn tune --steps 100 --hands 200 --out tuned/t1\n      value:model=…,turn=on against greedy, 100 SPSA steps of 2 x 200 hands; tuned/t1/model.json and steps.csv\n  kanaszta play --a value:model=tuned/t1/model.json,turn=on --b greedy --hands 2000 --seed 7\n      the tuned model measured on deals it was not tuned on\n\nThe directions and the files: docs/LEARNING.md. The same --seed gives the same files for any --threads."
    )]
    Tune(TuneArgs),
}

/// Options of `kanaszta learn tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The tuning's directory: steps.csv (a row a step) and model.json
    /// (created; files of the same names replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The opponent the agent is tuned against.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    opponent: String,
    /// SPSA steps (each plays two points).
    #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = steps)]
    steps: u64,
    /// Hands each point of a step plays (whole deals, the seats swapped).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = even_hands)]
    hands: u64,
    /// The first step, as a fraction of each weight's range.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true, value_parser = gain)]
    step: f64,
    /// The first perturbation, as a fraction of each weight's range.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true, value_parser = gain)]
    perturb: f64,
    /// What the two points of a step are compared by: `points` (a hand,
    /// the agent's less the opponent's) or `wins` (the share of hands won).
    #[arg(long, default_value = "points", value_parser = metric)]
    metric: Metric,
    /// The agent judges whole turns (`value:…,turn=on`) or one step (`off`).
    #[arg(long, default_value = "on", value_parser = turn, action = clap::ArgAction::Set)]
    turn: bool,
    /// With --turn on: the worlds each decision averages over.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = worlds)]
    worlds: u32,
    /// Start from the weights nearest this linear model's (least squares
    /// in the encoding's space) instead of the directions' own.
    #[arg(long, value_name = "MODEL")]
    from: Option<PathBuf>,
    /// Master seed: SPSA's directions and each step's deals.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core); the files do not depend on them.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<usize>)]
    threads: usize,
    /// No progress lines.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

fn steps(s: &str) -> Result<u64, LearnValueError> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .ok_or(LearnValueError::Steps)
}

fn even_hands(s: &str) -> Result<u64, LearnValueError> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 2 && n % 2 == 0)
        .ok_or(LearnValueError::EvenHands)
}

fn gain(s: &str) -> Result<f64, LearnValueError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0 && *x <= 1.0)
        .ok_or(LearnValueError::Gain)
}

fn metric(s: &str) -> Result<Metric, LearnValueError> {
    Metric::parse(s).map_err(|_| LearnValueError::Metric)
}

/// Options of `kanaszta learn loop`.
#[derive(Args, Debug, Clone)]
pub struct LoopArgs {
    /// The loop's directory: run.json, loop.csv and gen-NNN/ (data/ and
    /// model.json) a generation. A loop's own directory goes on after its
    /// complete generations; any other directory with files is refused.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Generations in all, generation 0 included.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = generations)]
    generations: u32,
    /// Hands of data a generation (each deal played twice, the seats swapped).
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = count)]
    hands: u64,
    /// Agent A of generation 0's games.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B of generation 0's games.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// The opponent of the best model's agent in later generations' games
    /// [default: the same agent: self-play].
    #[arg(long, value_name = "AGENT")]
    opponent: Option<String>,
    /// The data a fit reads: `all` (every generation's so far) or `latest`.
    #[arg(long, default_value = "all", value_parser = window)]
    data: Window,
    /// The share of decisions written, in (0, 1].
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = share)]
    sample: f64,
    /// The models' agent: `off`, the one-step agent `value:model=…`;
    /// `on`, the turn-level agent `value:model=…,turn=on` (each action
    /// judged by the position at the end of its turn), in the games, the
    /// gate and the ladder.
    #[arg(long, default_value = "off", value_parser = turn, action = clap::ArgAction::Set)]
    turn: bool,
    /// With --turn on: the worlds each decision averages over
    /// (`value:…,worlds=N`), 1 to 64 [default: 1].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = worlds)]
    worlds: Option<u32>,
    /// Which decisions a generation's data writes: `decision` (every one,
    /// sampled) or `turn-end` (a turn's first decision but a hand's first:
    /// the position at the end of the turn before, as --turn on judges).
    #[arg(long, default_value = "decision", value_parser = at)]
    at: At,
    /// How a new model's agent is gated against the best one's: `sprt`
    /// (the sequential test of `play --sprt` on paired deals, at most
    /// --gate-hands hands: passed when H1 is accepted, failed when H0 is,
    /// and if undecided at the cap, passed unless it loses points on
    /// average) or `hands` (--gate-hands hands, passed unless it loses
    /// points on average).
    #[arg(long, default_value = "sprt", value_parser = gate)]
    gate: GateKind,
    /// Paired hands of a new model's agent against the best one's: under
    /// --gate sprt the most the test plays (an even number).
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = count)]
    gate_hands: u64,
    /// The gate's test: H1 = H0 + X, X in points per hand, or in a share of
    /// hands won with --gate-metric wins [default: 50 points, or 0.05].
    #[arg(long, value_name = "X", allow_negative_numbers = true, value_parser = crate::cmd::play::sprt_number)]
    gate_sprt: Option<f64>,
    /// The gate's test: H0, the new agent's mean per deal is at most M0
    /// [default: the metric's equal value, 0 points or a 0.5 share].
    #[arg(long, value_name = "M0", allow_negative_numbers = true, value_parser = crate::cmd::play::sprt_number)]
    gate_h0: Option<f64>,
    /// The gate's test: the chance of accepting H1 when H0 holds [default: 0.05].
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = crate::cmd::play::sprt_number)]
    gate_alpha: Option<f64>,
    /// The gate's test: the chance of accepting H0 when H1 holds [default: 0.05].
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = crate::cmd::play::sprt_number)]
    gate_beta: Option<f64>,
    /// The gate's test: the statistic of a deal, points or wins (as
    /// `play --sprt-metric`) [default: points].
    #[arg(long, value_name = "METRIC", value_parser = Metric::parse)]
    gate_metric: Option<Metric>,
    /// The gate's test: deals before its first decision [default: 20].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cmd::play::sprt_deals)]
    gate_min_deals: Option<u64>,
    /// Paired hands of each model's agent against rules and against greedy
    /// (the same deals every generation).
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = count)]
    eval_hands: u64,
    /// Master seed: the same seed gives the same directory for any --threads.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<usize>)]
    threads: usize,
    /// No line a generation on standard error.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    fit: FitOptions,
    #[command(flatten)]
    rules: RulesArgs,
}

fn generations(s: &str) -> Result<u32, LearnValueError> {
    s.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=999).contains(n))
        .ok_or(LearnValueError::Generations)
}

/// `--gate` as given, before its test's options are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GateKind {
    Hands,
    Sprt,
}

fn gate(s: &str) -> Result<GateKind, LearnValueError> {
    match s.trim() {
        "sprt" => Ok(GateKind::Sprt),
        "hands" => Ok(GateKind::Hands),
        _ => Err(LearnValueError::Gate),
    }
}

impl LoopArgs {
    /// The gate of the options: its test's options are refused with
    /// `--gate hands`, and checked as `play --sprt` checks its own.
    fn gate(&self) -> Result<Gate, CliError> {
        let given = [
            ("--gate-sprt", self.gate_sprt.is_some()),
            ("--gate-h0", self.gate_h0.is_some()),
            ("--gate-alpha", self.gate_alpha.is_some()),
            ("--gate-beta", self.gate_beta.is_some()),
            ("--gate-metric", self.gate_metric.is_some()),
            ("--gate-min-deals", self.gate_min_deals.is_some()),
        ];
        if self.gate == GateKind::Hands {
            if let Some((name, _)) = given.iter().find(|(_, on)| *on) {
                return Err(CliError::Input(format!(
                    "{name} sets up the gate's sequential test, and --gate hands plays a fixed number of hands: drop {name}, or give --gate sprt"
                )));
            }
            return Ok(Gate::Hands);
        }
        if self.gate_hands % 2 == 1 {
            return Err(CliError::Input(format!(
                "--gate-hands {}: expected an even number under --gate sprt: the test reads whole deals, each played twice with the seats swapped, e.g. {}",
                self.gate_hands,
                self.gate_hands + 1
            )));
        }
        let metric = self.gate_metric.unwrap_or(Metric::Points);
        let h0 = self.gate_h0.unwrap_or(metric.equal());
        let x = self.gate_sprt.unwrap_or(match metric {
            Metric::Points => 50.0,
            Metric::Wins => 0.05,
        });
        SprtConfig::new(
            metric,
            h0,
            h0 + x,
            self.gate_alpha.unwrap_or(0.05),
            self.gate_beta.unwrap_or(0.05),
            self.gate_min_deals.unwrap_or(20),
        )
        .map(Gate::Sprt)
        .map_err(|e| {
            // The test's messages name play's options.
            CliError::Input(
                e.to_string()
                    .replace("--sprt-", "--gate-")
                    .replace("--sprt ", "--gate-sprt "),
            )
        })
    }
}

fn turn(s: &str) -> Result<bool, LearnValueError> {
    match s.trim() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(LearnValueError::Turn),
    }
}

fn worlds(s: &str) -> Result<u32, LearnValueError> {
    s.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=64).contains(n))
        .ok_or(LearnValueError::Worlds)
}

fn window(s: &str) -> Result<Window, LearnValueError> {
    match s.trim() {
        "all" => Ok(Window::All),
        "latest" => Ok(Window::Latest),
        _ => Err(LearnValueError::Window),
    }
}

/// Options of `kanaszta learn fit`.
#[derive(Args, Debug, Clone)]
pub struct FitArgs {
    /// The directory `kanaszta learn data` wrote; several (of one
    /// family and encoding) are fitted as one set.
    #[arg(required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The model file to write (JSON).
    #[arg(long, value_name = "MODEL")]
    out: PathBuf,
    #[command(flatten)]
    fit: FitOptions,
    /// Seed of the split, the initial weights and the order of rows.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// mlp: start from the ridge fit (one hidden unit carries the linear
    /// model) instead of from random weights alone.
    #[arg(long)]
    from_linear: bool,
}

/// The options of a fit, shared by `learn fit` and `learn loop`.
#[derive(Args, Debug, Clone)]
pub struct FitOptions {
    /// `linear` (ridge regression) or `mlp` (one hidden layer of ReLU units).
    #[arg(long, default_value = "linear", value_parser = kind)]
    kind: Kind,
    /// L2 penalty: ridge's λ, or the network's weight decay.
    #[arg(long, default_value_t = 1e-4, allow_negative_numbers = true, value_parser = non_negative)]
    lambda: f64,
    /// Conjugate-gradient iterations at most (linear).
    #[arg(long, default_value_t = 300, allow_negative_numbers = true, value_parser = count_usize)]
    iters: usize,
    /// Hidden units (mlp).
    #[arg(long, default_value_t = 32, allow_negative_numbers = true, value_parser = count_usize)]
    hidden: usize,
    /// Passes over the training rows (mlp).
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = count_usize)]
    epochs: usize,
    /// Adam's learning rate (mlp).
    #[arg(long, default_value_t = 1e-3, allow_negative_numbers = true, value_parser = positive)]
    lr: f64,
    /// Rows a step (mlp).
    #[arg(long, default_value_t = 128, allow_negative_numbers = true, value_parser = count_usize)]
    batch: usize,
    /// The share of deals held out for the figures, in [0, 1).
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true, value_parser = holdout)]
    holdout: f64,
}

impl FitOptions {
    fn config(&self, seed: u64) -> FitConfig {
        FitConfig {
            kind: self.kind,
            lambda: self.lambda,
            iters: self.iters,
            hidden: self.hidden,
            epochs: self.epochs,
            lr: self.lr,
            batch: self.batch,
            holdout: self.holdout,
            seed,
            from_linear: false,
        }
    }
}

fn kind(s: &str) -> Result<Kind, LearnValueError> {
    match s.trim() {
        "linear" => Ok(Kind::Linear),
        "mlp" => Ok(Kind::Mlp),
        _ => Err(LearnValueError::Kind),
    }
}

fn count_usize(s: &str) -> Result<usize, ValueError> {
    count(s).map(|n| n as usize)
}

fn non_negative(s: &str) -> Result<f64, LearnValueError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or(LearnValueError::NonNegative)
}

fn positive(s: &str) -> Result<f64, LearnValueError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or(LearnValueError::Positive)
}

fn holdout(s: &str) -> Result<f64, LearnValueError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (0.0..1.0).contains(x))
        .ok_or(LearnValueError::Holdout)
}

/// A value of an option of `learn` refused by its parser: what the
/// option accepts (clap names the option and the value).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LearnValueError {
    /// `--kind`: neither `linear` nor `mlp`.
    Kind,
    /// `--lambda`: not a finite number from 0.
    NonNegative,
    /// `--lr`: not a finite number above 0.
    Positive,
    /// `--holdout`: not a share in [0, 1).
    Holdout,
    /// `--sample`: not a share in (0, 1].
    Share,
    /// `--views`: neither `decider` nor `all`.
    Views,
    /// `--at`: neither `decision` nor `turn-end`.
    At,
    /// `--generations`: not a whole number from 1 to 999.
    Generations,
    /// `--data`: neither `all` nor `latest`.
    Window,
    /// `--gate`: neither `sprt` nor `hands`.
    Gate,
    /// `--turn`: neither `on` nor `off`.
    Turn,
    /// `--worlds`: not a whole number from 1 to 64.
    Worlds,
    /// `--steps`: not a whole number from 1 to 100,000.
    Steps,
    /// `--hands` of `learn tune`: not an even number from 2.
    EvenHands,
    /// `--step`, `--perturb`: not a number in (0, 1].
    Gain,
    /// `--metric`: neither `points` nor `wins`.
    Metric,
}

impl std::fmt::Display for LearnValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LearnValueError::Kind => "expected linear (ridge regression) or mlp (one hidden layer)",
            LearnValueError::NonNegative => "expected a number from 0, e.g. 0.0001",
            LearnValueError::Positive => "expected a number above 0, e.g. 0.001",
            LearnValueError::Holdout => "expected a share in [0, 1), e.g. 0.1",
            LearnValueError::Share => {
                "expected a share in (0, 1], e.g. 0.1 (a tenth of the decisions) or 1 (all)"
            }
            LearnValueError::Views => "expected decider (the seat to act) or all (every seat)",
            LearnValueError::At => {
                "expected decision (every decision) or turn-end (a turn's first decision: the end of the turn before)"
            }
            LearnValueError::Generations => "expected a whole number from 1 to 999, e.g. 4",
            LearnValueError::Window => {
                "expected all (every generation's data) or latest (the generation's own)"
            }
            LearnValueError::Gate => {
                "expected sprt (the sequential test of play --sprt, at most --gate-hands hands) or hands (--gate-hands hands)"
            }
            LearnValueError::Turn => {
                "expected on (the agent judges the position at the end of each action's turn) or off (one step)"
            }
            LearnValueError::Worlds => "expected a whole number from 1 to 64, e.g. 4",
            LearnValueError::Steps => "expected a whole number from 1 to 100000, e.g. 100",
            LearnValueError::EvenHands => {
                "expected an even number of hands from 2 (whole deals), e.g. 200"
            }
            LearnValueError::Gain => "expected a fraction of the weight's range in (0, 1], e.g. 0.05",
            LearnValueError::Metric => {
                "expected points (points a hand) or wins (the share of hands won)"
            }
        })
    }
}

impl std::error::Error for LearnValueError {}

impl From<LearnValueError> for CliError {
    fn from(e: LearnValueError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// Options of `kanaszta learn data`.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// Agent A (see `kanaszta agents`); a classic side may join one agent per seat with `+`.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// Number of hands (each deal played twice with the seats swapped) [default: 1000].
    #[arg(long, value_name = "N", value_parser = count)]
    hands: Option<u64>,
    /// Number of full matches instead (then outcome.npy holds each match's result).
    #[arg(long, value_name = "N", value_parser = count)]
    matches: Option<u64>,
    /// Master seed: the same seed writes the same files for any --threads.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<usize>)]
    threads: usize,
    /// The share of decisions written, in (0, 1] (drawn per decision from the deal's seed).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = share)]
    sample: f64,
    /// Whose encoding a decision writes: `decider` (the seat to act) or
    /// `all` (every seat's, the decider's first; a value model judging the
    /// positions after its own moves needs those of the other seats to act).
    #[arg(long, default_value = "decider", value_parser = views)]
    views: Views,
    /// Which decisions are written: `decision` (every one, sampled) or
    /// `turn-end` (a turn's first decision, but a hand's first: the
    /// position at the end of the turn before, as `value:turn=on` judges).
    #[arg(long, default_value = "decision", value_parser = at)]
    at: At,
    /// Directory for the .npy files and meta.json (created; files of the same names replaced).
    #[arg(long, default_value = "kanaszta-learn", value_name = "DIR")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

fn count(s: &str) -> Result<u64, ValueError> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or(ValueError::Count)
}

fn share(s: &str) -> Result<f64, LearnValueError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| *x > 0.0 && *x <= 1.0)
        .ok_or(LearnValueError::Share)
}

fn at(s: &str) -> Result<At, LearnValueError> {
    match s.trim() {
        "decision" => Ok(At::Decisions),
        "turn-end" => Ok(At::TurnEnds),
        _ => Err(LearnValueError::At),
    }
}

fn views(s: &str) -> Result<Views, LearnValueError> {
    match s.trim() {
        "decider" => Ok(Views::Decider),
        "all" => Ok(Views::All),
        _ => Err(LearnValueError::Views),
    }
}

/// Runs `kanaszta learn`.
pub fn run(a: LearnArgs) -> Result<ExitCode, CliError> {
    match a.command {
        LearnCommand::Data(d) => data(d),
        LearnCommand::Fit(f) => fit(f),
        LearnCommand::Loop(l) => learn_loop(l),
        LearnCommand::Tune(t) => tune(t),
    }
}

fn tune(t: TuneArgs) -> Result<ExitCode, CliError> {
    let rules = match family_rules(&t.rules)? {
        FamilyRules::Classic(_) => {
            return Err(CliError::Input(format!(
                "learn tune tunes a decorated model, and --rules {} is classic canasta",
                t.rules.name()
            )))
        }
        FamilyRules::Decorated(rules) => rules,
    };
    rules.validate().map_err(|e| CliError::Rules {
        context: format!("--rules {}", t.rules.name()),
        source: e,
    })?;
    if !t.turn && t.worlds != 1 {
        return Err(CliError::Input(format!(
            "--worlds {} sets the worlds of the turn-level agent, and --turn is off: give --turn on, or drop --worlds",
            t.worlds
        )));
    }
    crate::cmd::play::refuse_mixed_side("--opponent", &t.opponent)?;
    let agent_params = if t.turn {
        format!(",turn=on,worlds={}", t.worlds)
    } else {
        String::new()
    };
    let cfg = crate::learn::tune::TuneConfig {
        opponent: t.opponent.clone(),
        agent_params,
        steps: t.steps,
        hands: t.hands,
        step: t.step,
        perturb: t.perturb,
        metric: t.metric,
        seed: t.seed,
        threads: t.threads,
        rules_name: t.rules.name().to_string(),
        from: match &t.from {
            None => None,
            Some(path) => {
                let m = kanaszta_agents::value::ValueModel::load::<GameState>(path)
                    .map_err(|e| CliError::Input(format!("--from: {e}")))?;
                let theta = crate::learn::tune::project(&crate::learn::tune::directions(), &m)
                    .ok_or_else(|| {
                        CliError::Input(format!(
                            "--from {}: a network; the weights start from a linear model",
                            path.display()
                        ))
                    })?;
                Some((theta, path.display().to_string()))
            }
        },
    };
    crate::signals::install_with(crate::signals::Notes {
        first: "no new step is begun; model.json holds the steps finished",
        again: "steps.csv and model.json hold the steps finished",
    })?;
    crate::learn::tune::run(rules, &cfg, &t.out, t.quiet)?;
    if let Some(sig) = crate::signals::stopped() {
        return Ok(ExitCode::from(crate::signals::exit_status(sig)));
    }
    if !t.quiet {
        eprintln!(
            "kanaszta: {} steps in {}/steps.csv, the model in {}/model.json",
            t.steps,
            t.out.display(),
            t.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn learn_loop(l: LoopArgs) -> Result<ExitCode, CliError> {
    if let (false, Some(w)) = (l.turn, l.worlds) {
        return Err(CliError::Input(format!(
            "--worlds {w} sets the worlds of the turn-level agent, and --turn is off: give --turn on, or drop --worlds"
        )));
    }
    let cfg = LoopConfig {
        start: [l.a.clone(), l.b.clone()],
        opponent: l.opponent.clone(),
        hands: l.hands,
        sample: l.sample,
        window: l.data,
        gate: l.gate()?,
        gate_hands: l.gate_hands,
        eval_hands: l.eval_hands,
        seed: l.seed,
        fit: l.fit.config(l.seed),
        rules_name: l.rules.name().to_string(),
        turn: l.turn,
        worlds: l.worlds.unwrap_or(1),
        at: l.at,
    };
    crate::signals::install()?;
    let command: Vec<String> = std::env::args().collect();
    match family_rules(&l.rules)? {
        FamilyRules::Classic(rules) => {
            let lp = Loop::<ClassicState> {
                rules,
                cfg: &cfg,
                dir: &l.out,
                threads: l.threads,
                quiet: l.quiet,
            };
            lp.run(l.generations, &command)?;
        }
        FamilyRules::Decorated(rules) => {
            crate::cmd::play::refuse_mixed_side("--a", &l.a)?;
            crate::cmd::play::refuse_mixed_side("--b", &l.b)?;
            rules.validate().map_err(|e| CliError::Rules {
                context: format!("--rules {}", l.rules.name()),
                source: e,
            })?;
            let lp = Loop::<GameState> {
                rules,
                cfg: &cfg,
                dir: &l.out,
                threads: l.threads,
                quiet: l.quiet,
            };
            lp.run(l.generations, &command)?;
        }
    }
    if !l.quiet {
        eprintln!(
            "kanaszta: {} generations in {}/loop.csv",
            l.generations,
            l.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn fit(f: FitArgs) -> Result<ExitCode, CliError> {
    let mut set = DataSet::read(&f.data[0])?;
    let mut runs = vec![crate::learn::fit::data_record(&set.meta)];
    for dir in &f.data[1..] {
        let more = DataSet::read(dir)?;
        if (&more.family, more.obs_len, &more.meta["encoding_version"])
            != (&set.family, set.obs_len, &set.meta["encoding_version"])
        {
            return Err(CliError::Input(format!(
                "{}: data of {} canasta, encoding version {} ({} entries); {} holds {} canasta, version {} ({} entries): one model reads one encoding",
                dir.display(),
                more.family,
                more.meta["encoding_version"],
                more.obs_len,
                f.data[0].display(),
                set.family,
                set.meta["encoding_version"],
                set.obs_len,
            )));
        }
        runs.push(crate::learn::fit::data_record(&more.meta));
        set.append(more);
    }
    let cfg = FitConfig {
        from_linear: f.from_linear,
        ..f.fit.config(f.seed)
    };
    let names = f
        .data
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut model =
        crate::learn::fit::fit(&set, &cfg).map_err(|e| CliError::Input(format!("{names}: {e}")))?;
    if runs.len() > 1 {
        model.training["data"]["runs"] = runs.into();
    }
    let text = serde_json::to_string(&model.to_json())
        .map_err(|e| CliError::Input(format!("internal: the model's JSON: {e}")))?;
    if let Some(dir) = f.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| CliError::io("create", dir.display(), e))?;
    }
    std::fs::write(&f.out, text + "\n").map_err(|e| CliError::io("write", f.out.display(), e))?;
    let t = &model.training;
    let mut out = format!(
        "{} model of {} canasta, {} rows ({} held out, {} training), written to {}\n",
        t["kind"].as_str().unwrap_or(""),
        model.family,
        t["samples"],
        t["held_out_rows"],
        t["train_rows"],
        f.out.display(),
    );
    if t["held_out_mse"].is_null() {
        let deals = set
            .game
            .iter()
            .map(|g| g / 2)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        out.push_str(&format!(
            "held-out: no rows (--holdout {} drew none of the data's deals, {deals}): no held-out figures; play more hands or raise --holdout\n",
            f.fit.holdout,
        ));
    } else {
        out.push_str(&format!(
            "held-out: mse {} (rmse {}), mae {}; predicting the mean: mse {}; r² {}\n",
            t["held_out_mse"],
            t["held_out_rmse"],
            t["held_out_mae"],
            t["held_out_baseline_mse"],
            t["held_out_r2"],
        ));
    }
    out.push_str(&format!(
        "training: mse {}, mae {}\n",
        t["train_mse"], t["train_mae"]
    ));
    let calibration = t["calibration"].as_array().filter(|c| !c.is_empty());
    if let Some(c) = calibration {
        out.push_str("calibration (held-out rows by decile of prediction: predicted, margin):\n");
        for c in c {
            out.push_str(&format!(
                "  {:>2}  {:>8}  {:>8}  ({} rows)\n",
                c["decile"], c["predicted"], c["margin"], c["rows"]
            ));
        }
    }
    crate::cmd::print(&out)
}

fn data(d: DataArgs) -> Result<ExitCode, CliError> {
    let (mode, games) = match (d.hands, d.matches) {
        (Some(_), Some(_)) => {
            return Err(CliError::Input(
                "give either --hands N or --matches N, not both".into(),
            ))
        }
        (None, Some(n)) => (Mode::Matches, n),
        (Some(n), None) => (Mode::Hands, n),
        (None, None) => (Mode::Hands, 1000),
    };
    let rules_name = d.rules.name().to_string();
    let rules = match family_rules(&d.rules)? {
        FamilyRules::Classic(rules) => rules,
        FamilyRules::Decorated(rules) => {
            return decorated_data(&d, rules, mode, games, &rules_name)
        }
    };
    let players = rules.players as usize;
    let side = |flag: &str, text: &str| -> Result<SideSpec, CliError> {
        let s = parse_classic_side(text)?;
        s.check(flag, players)?;
        Ok(s)
    };
    let sides = [side("--a", &d.a)?, side("--b", &d.b)?];
    let seats = |swapped: bool| -> Vec<AgentSpec<ClassicState>> {
        (0..players)
            .map(|p| {
                let who = crate::classic::agent_of(p, swapped);
                sides[who].spec(p / 2).clone()
            })
            .collect()
    };
    let plan = DataPlan::<ClassicState> {
        rules,
        seats: [seats(false), seats(true)],
        names: [sides[0].name().to_string(), sides[1].name().to_string()],
        mode,
        games,
        seed: d.seed,
        sample: d.sample,
        views: d.views,
        at: d.at,
    };
    finish(&plan, &d, &rules_name)
}

/// `learn data` under decorated rules.
fn decorated_data(
    d: &DataArgs,
    rules: kanaszta_engine::Rules,
    mode: Mode,
    games: u64,
    rules_name: &str,
) -> Result<ExitCode, CliError> {
    crate::cmd::play::refuse_mixed_side("--a", &d.a)?;
    crate::cmd::play::refuse_mixed_side("--b", &d.b)?;
    rules.validate().map_err(|e| CliError::Rules {
        context: format!("--rules {rules_name}"),
        source: e,
    })?;
    let a: AgentSpec<GameState> = d.a.parse()?;
    let b: AgentSpec<GameState> = d.b.parse()?;
    let players = rules.players as usize;
    let specs = [a, b];
    let seats = |swapped: bool| -> Vec<AgentSpec<GameState>> {
        (0..players)
            .map(|p| specs[crate::classic::agent_of(p, swapped)].clone())
            .collect()
    };
    let plan = DataPlan::<GameState> {
        rules,
        seats: [seats(false), seats(true)],
        names: [specs[0].to_string(), specs[1].to_string()],
        mode,
        games,
        seed: d.seed,
        sample: d.sample,
        views: d.views,
        at: d.at,
    };
    finish(&plan, d, rules_name)
}

fn finish<G: LearnFamily>(
    plan: &DataPlan<G>,
    d: &DataArgs,
    rules_name: &str,
) -> Result<ExitCode, CliError> {
    crate::signals::install()?;
    let summary = plan.execute(&d.out, d.threads, d.quiet)?;
    let meta = plan.meta(&summary, rules_name);
    let path = d.out.join("meta.json");
    let text = serde_json::to_string_pretty(&meta)
        .map_err(|e| CliError::Input(format!("internal: meta.json: {e}")))?;
    std::fs::write(&path, text + "\n").map_err(|e| CliError::io("write", path.display(), e))?;
    eprintln!(
        "kanaszta: {} rows ({} decisions) of {} {} in {:.1} s written to {}",
        summary.rows,
        summary.decisions,
        summary.run.games,
        mode_word(plan.mode),
        summary.run.seconds,
        d.out.display()
    );
    if let Some(e) = summary.errors.first() {
        eprintln!(
            "kanaszta: {} games ended by an agent's error were left out; the first: {e}",
            summary.errors.len()
        );
        return Ok(ExitCode::from(crate::EXIT_GAME_ERRORS));
    }
    if let Some(sig) = summary.run.stopped {
        eprintln!("kanaszta: stopped by signal {sig}: the files hold the games played (meta.json \"complete\": false)");
        return Ok(ExitCode::from(crate::signals::exit_status(sig)));
    }
    Ok(ExitCode::SUCCESS)
}

fn mode_word(m: Mode) -> &'static str {
    match m {
        Mode::Hands => "hands",
        Mode::Matches => "matches",
    }
}
