//! `kanaszta learn loop`: improvement by iteration. Generation 0 plays a
//! starting pair of agents and fits a value model to their games; each
//! later generation plays with the best model so far (the one-step agent
//! `value:model=…`, or with `--turn on` the turn-level one
//! `value:model=…,turn=on`), fits a new model, gates it in paired hands against
//! the best (by the sequential test of `play --sprt`, [`crate::sprt`], or
//! over a fixed number of hands) and keeps it as the best only if it
//! passes. Every
//! generation's model is measured against a fixed ladder (`rules`,
//! `greedy`) on the same deals, so the curve of loop.csv compares like
//! with like. The directory holds everything a later run needs to go on
//! where this one stopped.

use super::data::{margin_of, At, DataPlan, DataSet, LearnFamily, Views};
use super::fit::{fit, FitConfig, Kind};
use crate::error::CliError;
use crate::run::Mode;
use crate::sprt::{Decision, Metric, Sprt, SprtConfig};
use crate::stats::{wilson, PairedDiff};
use kanaszta_agents::{play_turns, seat_rng, AgentSpec};
use kanaszta_engine::seed;
use std::path::{Path, PathBuf};

/// The format name of a loop's run.json.
pub const LOOP_FORMAT: &str = "kanaszta-learn-loop";

/// The agents every generation is measured against, in loop.csv's order.
pub const LADDER: [&str; 2] = ["rules", "greedy"];

/// Which generations' data a fit reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Every generation's so far, the first one's included.
    All,
    /// The generation's own only.
    Latest,
}

impl Window {
    /// The name used on the command line and in run.json.
    pub fn name(self) -> &'static str {
        match self {
            Window::All => "all",
            Window::Latest => "latest",
        }
    }
}

/// How a new model is gated against the best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gate {
    /// `gate_hands` paired hands; the new model passes unless its agent
    /// loses points on average.
    Hands,
    /// The sequential test of `play --sprt` on paired deals, over at most
    /// `gate_hands` hands: the new model passes when H1 (it is stronger
    /// by at least `h1`) is accepted, fails when H0 is; a test still
    /// undecided at the cap is judged as [`Gate::Hands`] judges.
    Sprt(SprtConfig),
}

impl Gate {
    /// The name used on the command line and in run.json.
    pub fn name(&self) -> &'static str {
        match self {
            Gate::Hands => "hands",
            Gate::Sprt(_) => "sprt",
        }
    }
}

/// Games of a sequential gate played at once, in parallel, before the
/// test reads them in deal order: the test stops on the same deal for any
/// number of threads, the games after it in the batch unread.
pub const GATE_BATCH: u64 = 64;

/// The settings of a loop (all but the number of generations and the
/// threads, which a resumed run may change).
#[derive(Clone, Debug)]
pub struct LoopConfig {
    /// Agents A and B of generation 0's games.
    pub start: [String; 2],
    /// The opponent of the best learned agent in later generations'
    /// games (`None`: the best agent itself).
    pub opponent: Option<String>,
    /// Hands of data a generation (paired: each deal twice, seats swapped).
    pub hands: u64,
    /// The share of decisions written.
    pub sample: f64,
    /// Which data a fit reads.
    pub window: Window,
    /// How a new model is gated.
    pub gate: Gate,
    /// Paired hands of a new model against the best (under
    /// [`Gate::Sprt`], the most).
    pub gate_hands: u64,
    /// Paired hands of each model against each agent of [`LADDER`].
    pub eval_hands: u64,
    /// The master seed.
    pub seed: u64,
    /// The fit's settings (its seed is the loop's).
    pub fit: FitConfig,
    /// `--rules` as given.
    pub rules_name: String,
    /// The models' agents judge whole turns (`value:…,turn=on`).
    pub turn: bool,
    /// The worlds a turn-level decision averages over (1 unless `turn`).
    pub worlds: u32,
    /// Which decisions a generation's data writes.
    pub at: At,
}

/// The settings a run.json written before a key existed ran with: a key
/// missing from an old run.json means this value, the behaviour of the
/// version that wrote it.
fn old_default(key: &str) -> serde_json::Value {
    match key {
        // Before the sequential gate, every loop was gated over a fixed
        // number of hands.
        "gate" => "hands".into(),
        "turn" => "off".into(),
        "worlds" => 1.into(),
        "at" => At::Decisions.name().into(),
        _ => serde_json::Value::Null,
    }
}

impl LoopConfig {
    /// The settings as run.json records them; a resumed run must give
    /// the same.
    pub fn settings(&self, family: &str) -> serde_json::Value {
        let f = &self.fit;
        serde_json::json!({
            "family": family,
            "rules": self.rules_name,
            "a": self.start[0],
            "b": self.start[1],
            "opponent": self.opponent.clone().unwrap_or_else(|| "best".into()),
            "hands": self.hands,
            "sample": self.sample,
            "data": self.window.name(),
            "gate": self.gate.name(),
            "gate_hands": self.gate_hands,
            "gate_sprt": match &self.gate {
                Gate::Sprt(t) => serde_json::to_value(t).unwrap_or_default(),
                Gate::Hands => serde_json::Value::Null,
            },
            "eval_hands": self.eval_hands,
            "seed": self.seed,
            "kind": match f.kind { Kind::Linear => "linear", Kind::Mlp => "mlp" },
            "lambda": f.lambda,
            "iters": f.iters,
            "hidden": f.hidden,
            "epochs": f.epochs,
            "lr": f.lr,
            "batch": f.batch,
            "holdout": f.holdout,
            "turn": if self.turn { "on" } else { "off" },
            "worlds": self.worlds,
            "at": self.at.name(),
        })
    }

    /// The parameters after the model's of a learned agent's spec: none
    /// for the one-step agent (its spec as before `--turn` existed),
    /// `,turn=on` (and `,worlds=N` above one) for the turn-level agent.
    pub fn agent_params(&self) -> String {
        match (self.turn, self.worlds) {
            (false, _) => String::new(),
            (true, 1) => ",turn=on".into(),
            (true, w) => format!(",turn=on,worlds={w}"),
        }
    }
}

/// The columns a later version added to loop.csv: a loop.csv without
/// them (and otherwise [`columns`]) is read with them empty.
const ADDED_COLUMNS: [&str; 2] = ["gate_decision", "gate_llr"];

/// The columns of loop.csv (docs/LEARNING.md).
pub fn columns() -> Vec<String> {
    let mut c: Vec<String> = [
        "generation",
        "model",
        "data_a",
        "data_b",
        "data_hands",
        "rows",
        "decisions",
        "fit_hands",
        "train_rows",
        "held_out_rows",
        "held_out_rmse",
        "baseline_rmse",
        "held_out_r2",
        "gate_hands",
        "gate_diff",
        "gate_diff_lo",
        "gate_diff_hi",
        "gate_win",
        "gate_win_lo",
        "gate_win_hi",
        "gate_decision",
        "gate_llr",
        "accepted",
        "best",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for who in LADDER {
        for k in ["win", "win_lo", "win_hi", "diff", "diff_lo", "diff_hi"] {
            c.push(format!("{who}_{k}"));
        }
    }
    c
}

/// Paired hands of A against B: the hands won (ties half) and the points
/// per hand, A less B, with 95% intervals.
#[derive(Clone, Debug)]
pub struct Versus {
    /// Hands played.
    pub hands: u64,
    /// A's share of hands won, ties half: `(rate, lo, hi)`.
    pub win: Option<(f64, f64, f64)>,
    /// A's points less B's a hand, averaged per deal: `(mean, lo, hi)`.
    pub diff: Option<(f64, f64, f64)>,
}

/// Plays games `games` of A against B as `kanaszta play` pairs them: deal
/// `g / 2` of `seed`, the seats swapped in odd games, on `pool`; A's
/// margin of each game, in game order. An agent's error ends the series
/// with the game's error.
fn margins<G: LearnFamily>(
    rules: G::Rules,
    [a, b]: [&AgentSpec<G>; 2],
    games: std::ops::Range<u64>,
    seed_: u64,
    pool: &rayon::ThreadPool,
) -> Result<Vec<i32>, CliError> {
    use rayon::prelude::*;
    let specs = [a, b];
    let one = |g: u64| -> Result<i32, String> {
        let swapped = g % 2 == 1;
        let (mut state, rng_seed) = G::hand(rules, seed::deal(seed_, g / 2));
        let players = state.players();
        let mut agents: Vec<_> = (0..players)
            .map(|p| specs[crate::classic::agent_of(p, swapped)].build())
            .collect();
        let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(rng_seed, p)).collect();
        play_turns(&mut state, &mut agents, &mut rngs).map_err(|e| format!("game {g}: {e}"))?;
        // Seat 0 is A's unless the seats are swapped, then seat 1.
        Ok(margin_of(&state, state.side_of(usize::from(swapped))))
    };
    let out: Vec<Result<i32, String>> = pool.install(|| games.into_par_iter().map(one).collect());
    out.into_iter()
        .map(|m| m.map_err(|e| CliError::Input(format!("{a} v {b}: {e}"))))
        .collect()
}

/// A game won, lost or tied from A's side by its margin: 1, 0 or ½.
fn won(m: i32) -> f64 {
    match m.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The hands won and points per hand of A's margins, game `g` of deal
/// `g / 2`.
fn summary(m: &[i32]) -> Versus {
    let mut diff = PairedDiff::default();
    for (g, &x) in m.iter().enumerate() {
        diff.add(g as u64 / 2, x as f64);
    }
    diff.finish();
    Versus {
        hands: m.len() as u64,
        win: wilson(m.iter().map(|&x| won(x)).sum(), m.len() as f64),
        diff: diff.interval(),
    }
}

/// Plays `hands` games of A against B as `kanaszta play` pairs them: deal
/// `g / 2` of `seed`, the seats swapped in odd games, on `threads`
/// threads; the result depends on the seed only. An agent's error ends
/// the series with the game's error.
pub fn versus<G: LearnFamily>(
    rules: G::Rules,
    a: &AgentSpec<G>,
    b: &AgentSpec<G>,
    hands: u64,
    seed_: u64,
    threads: usize,
) -> Result<Versus, CliError> {
    let pool = crate::run::pool(threads).map_err(|e| CliError::Input(e.to_string()))?;
    Ok(summary(&margins(rules, [a, b], 0..hands, seed_, &pool)?))
}

/// The sequential test of `play --sprt` on paired deals of A against B,
/// dealt as [`versus`] deals them, over at most `hands` hands (whole
/// deals): the games up to the deal that decides it, and the test. The
/// deals are read in order, so the decision, the deal it falls on and the
/// figures do not depend on `threads`.
pub fn versus_sprt<G: LearnFamily>(
    rules: G::Rules,
    a: &AgentSpec<G>,
    b: &AgentSpec<G>,
    test: SprtConfig,
    hands: u64,
    seed_: u64,
    threads: usize,
) -> Result<(Versus, Sprt), CliError> {
    let pool = crate::run::pool(threads).map_err(|e| CliError::Input(e.to_string()))?;
    let games = hands / 2 * 2;
    let mut sprt = Sprt::new(test);
    let mut read: Vec<i32> = Vec::new();
    let mut next = 0;
    'batches: while next < games {
        let end = (next + GATE_BATCH).min(games);
        let batch = margins(rules, [a, b], next..end, seed_, &pool)?;
        for deal in batch.chunks(2) {
            read.extend_from_slice(deal);
            let x = match test.metric {
                Metric::Points => f64::from(deal[0] + deal[1]) / 2.0,
                Metric::Wins => (won(deal[0]) + won(deal[1])) / 2.0,
            };
            if sprt.deal(x) {
                break 'batches;
            }
        }
        next = end;
    }
    Ok((summary(&read), sprt))
}

/// The directory of generation `g`.
pub fn generation_dir(dir: &Path, g: u32) -> PathBuf {
    dir.join(format!("gen-{g:03}"))
}

/// The model file of generation `g`.
pub fn model_path(dir: &Path, g: u32) -> PathBuf {
    generation_dir(dir, g).join("model.json")
}

/// The value agent of generation `g`'s model, `params` after the model
/// ([`LoopConfig::agent_params`]).
pub fn agent_of_model<G: LearnFamily>(
    dir: &Path,
    g: u32,
    params: &str,
) -> Result<AgentSpec<G>, CliError> {
    let text = format!("value:model={}{params}", model_path(dir, g).display());
    text.parse::<AgentSpec<G>>()
        .map_err(|e| CliError::Input(format!("generation {g}'s model: {e}")))
}

/// What a directory holds before a loop starts.
pub struct Resume {
    /// The rows of loop.csv already written, one a generation.
    pub rows: Vec<Vec<String>>,
    /// The best generation so far, if any generation is complete.
    pub best: Option<u32>,
}

/// Reads `dir` for a loop of `settings`: an absent or empty directory
/// starts afresh; one of the same loop goes on after its complete
/// generations (a setting its run.json lacks, or a column its loop.csv
/// lacks, written before it existed, means the old behaviour); anything
/// else is refused with the reason.
pub fn resume(dir: &Path, settings: &serde_json::Value) -> Result<Resume, CliError> {
    let fresh = Resume {
        rows: Vec::new(),
        best: None,
    };
    let empty = match std::fs::read_dir(dir) {
        Ok(mut it) => it.next().is_none(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(CliError::io("read", dir.display(), e)),
    };
    if empty {
        return Ok(fresh);
    }
    let d = dir.display();
    let run_json = dir.join("run.json");
    let text = std::fs::read_to_string(&run_json).map_err(|_| {
        CliError::Input(format!(
            "{d} holds files but no run.json of a learn loop: give a new or empty directory with --out"
        ))
    })?;
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    if v["format"] != LOOP_FORMAT {
        return Err(CliError::Input(format!(
            "{d}/run.json is not a learn loop's: give a new or empty directory with --out"
        )));
    }
    if let (Some(old), Some(new)) = (v["settings"].as_object(), settings.as_object()) {
        for (k, want) in new {
            let default = old_default(k);
            let had = old.get(k).unwrap_or(&default);
            if had != want {
                return Err(CliError::Input(format!(
                    "{d} holds a learn loop whose {k} is {had}, not {want}: to go on with it, give the options it was started with (its run.json); otherwise give a new directory with --out"
                )));
            }
        }
    } else {
        return Err(CliError::Input(format!(
            "{d}/run.json has no settings: give a new or empty directory with --out"
        )));
    }
    let path = dir.join("loop.csv");
    if !path.exists() {
        return Ok(fresh);
    }
    let bad = |what: String| CliError::Input(format!("{}: {what}", path.display()));
    let mut reader = csv::Reader::from_path(&path).map_err(|e| bad(e.to_string()))?;
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| bad(e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    let now = columns();
    let older: Vec<String> = now
        .iter()
        .filter(|c| !ADDED_COLUMNS.contains(&c.as_str()))
        .cloned()
        .collect();
    // For each column of this version, its place in the file's rows.
    let place: Vec<Option<usize>> = if header == now {
        (0..now.len()).map(Some).collect()
    } else if header == older {
        now.iter()
            .map(|c| header.iter().position(|h| h == c))
            .collect()
    } else {
        return Err(bad(
            "other columns than this version writes: give a new directory with --out".into(),
        ));
    };
    let best_col = columns().iter().position(|c| c == "best").unwrap_or(0);
    let mut rows = Vec::new();
    let mut best = None;
    for (g, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| bad(e.to_string()))?;
        let cells: Vec<String> = place
            .iter()
            .map(|i| i.and_then(|i| rec.get(i)).unwrap_or_default().to_string())
            .collect();
        let ok = cells[0].parse::<usize>() == Ok(g) && model_path(dir, g as u32).exists();
        if !ok {
            return Err(bad(format!(
                "row {} is not generation {g}'s of this loop (or its model file is missing): give a new directory with --out",
                g + 2
            )));
        }
        best = cells[best_col].parse::<u32>().ok();
        rows.push(cells);
    }
    Ok(Resume { rows, best })
}

fn cell3(v: Option<(f64, f64, f64)>, digits: usize, out: &mut Vec<String>) {
    match v {
        Some((m, lo, hi)) => {
            for x in [m, lo, hi] {
                out.push(if x.is_finite() {
                    format!("{x:.digits$}")
                } else {
                    String::new()
                });
            }
        }
        None => out.extend(std::iter::repeat_n(String::new(), 3)),
    }
}

fn fitted(v: &serde_json::Value, key: &str) -> String {
    match v[key].as_f64() {
        Some(x) => format!("{x}"),
        None => String::new(),
    }
}

/// A loop over the family `G`.
pub struct Loop<'a, G: LearnFamily> {
    /// The rules.
    pub rules: G::Rules,
    /// The settings.
    pub cfg: &'a LoopConfig,
    /// The directory.
    pub dir: &'a Path,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// No progress lines on standard error.
    pub quiet: bool,
}

impl<G: LearnFamily> Loop<'_, G> {
    fn spec(&self, text: &str, flag: &str) -> Result<AgentSpec<G>, CliError> {
        text.parse::<AgentSpec<G>>()
            .map_err(|e| CliError::Input(format!("{flag}: {e}")))
    }

    /// Checks the agents of the settings before anything is played.
    pub fn check(&self) -> Result<(), CliError> {
        self.spec(&self.cfg.start[0], "--a")?;
        self.spec(&self.cfg.start[1], "--b")?;
        if let Some(o) = &self.cfg.opponent {
            self.spec(o, "--opponent")?;
        }
        Ok(())
    }

    /// Runs generations until `generations` are complete, after those
    /// `resume` found; writes run.json (with `command`) and loop.csv.
    pub fn run(&self, generations: u32, command: &[String]) -> Result<Resume, CliError> {
        self.check()?;
        let settings = self.cfg.settings(G::FAMILY);
        let mut state = resume(self.dir, &settings)?;
        std::fs::create_dir_all(self.dir)
            .map_err(|e| CliError::io("create", self.dir.display(), e))?;
        let run_json = serde_json::json!({
            "format": LOOP_FORMAT,
            "format_version": 1,
            "command": command,
            "settings": settings,
        });
        write_atomic(
            &self.dir.join("run.json"),
            &(serde_json::to_string_pretty(&run_json).unwrap_or_default() + "\n"),
        )?;
        let done = state.rows.len() as u32;
        if done >= generations && !self.quiet {
            eprintln!(
                "kanaszta: {} holds {done} generations already; nothing to do (--generations {generations})",
                self.dir.display()
            );
        }
        for g in done..generations {
            let row = self.generation(g, state.best)?;
            state.best = row.1;
            state.rows.push(row.0);
            let mut w = csv::Writer::from_writer(Vec::new());
            let mut text = Vec::new();
            for r in std::iter::once(&columns()).chain(&state.rows) {
                w.write_record(r)
                    .map_err(|e| CliError::Input(e.to_string()))?;
            }
            if let Ok(bytes) = w.into_inner() {
                text = bytes;
            }
            write_atomic(&self.dir.join("loop.csv"), &String::from_utf8_lossy(&text))?;
        }
        Ok(state)
    }

    /// Plays, fits, gates and measures generation `g`: its row of
    /// loop.csv and the best generation after it.
    fn generation(
        &self,
        g: u32,
        best: Option<u32>,
    ) -> Result<(Vec<String>, Option<u32>), CliError> {
        let cfg = self.cfg;
        let gdir = generation_dir(self.dir, g);
        let data_dir = gdir.join("data");
        let (a, b) = match best {
            None => (
                self.spec(&cfg.start[0], "--a")?,
                self.spec(&cfg.start[1], "--b")?,
            ),
            Some(k) => {
                let best = agent_of_model::<G>(self.dir, k, &cfg.agent_params())?;
                let opp = match &cfg.opponent {
                    Some(o) => self.spec(o, "--opponent")?,
                    None => best.clone(),
                };
                (best, opp)
            }
        };
        let players = G::hand(self.rules, 0).0.players();
        let seats = |swapped: bool| -> Vec<AgentSpec<G>> {
            (0..players)
                .map(|p| [&a, &b][crate::classic::agent_of(p, swapped)].clone())
                .collect()
        };
        let plan = DataPlan::<G> {
            rules: self.rules,
            seats: [seats(false), seats(true)],
            names: [a.to_string(), b.to_string()],
            mode: Mode::Hands,
            games: cfg.hands,
            seed: seed::derive_seed(cfg.seed, 4 * g as u64),
            sample: cfg.sample,
            views: Views::All,
            at: cfg.at,
        };
        let summary = plan.execute(&data_dir, self.threads, true)?;
        if let Some(e) = summary.errors.first() {
            return Err(CliError::Input(format!(
                "generation {g}: {} games ended by an agent's error; the first: {e}",
                summary.errors.len()
            )));
        }
        if let Some(sig) = summary.run.stopped {
            return Err(CliError::Input(format!(
                "generation {g}: stopped by signal {sig}; the complete generations are kept, and the same command goes on from generation {g}"
            )));
        }
        let meta = plan.meta(&summary, &cfg.rules_name);
        write_atomic(
            &data_dir.join("meta.json"),
            &(serde_json::to_string_pretty(&meta).unwrap_or_default() + "\n"),
        )?;
        let first = match cfg.window {
            Window::All => 0,
            Window::Latest => g,
        };
        let mut set = DataSet::read(&generation_dir(self.dir, first).join("data"))?;
        for k in first + 1..=g {
            set.append(DataSet::read(&generation_dir(self.dir, k).join("data"))?);
        }
        let fit_cfg = FitConfig {
            seed: cfg.seed,
            ..cfg.fit.clone()
        };
        let mut model =
            fit(&set, &fit_cfg).map_err(|e| CliError::Input(format!("generation {g}: {e}")))?;
        model.training["data"]["generations"] = serde_json::json!([first, g]);
        let t = model.training.clone();
        drop(set);
        let path = model_path(self.dir, g);
        write_atomic(
            &path,
            &(serde_json::to_string(&model.to_json()).unwrap_or_default() + "\n"),
        )?;
        let new = agent_of_model::<G>(self.dir, g, &cfg.agent_params())?;
        let mut row = vec![
            g.to_string(),
            format!("gen-{g:03}/model.json"),
            a.to_string(),
            b.to_string(),
            cfg.hands.to_string(),
            summary.rows.to_string(),
            summary.decisions.to_string(),
            (cfg.hands * (g - first + 1) as u64).to_string(),
            fitted(&t, "train_rows"),
            fitted(&t, "held_out_rows"),
            fitted(&t, "held_out_rmse"),
            t["held_out_baseline_mse"]
                .as_f64()
                .map_or(String::new(), |x| format!("{:.1}", x.sqrt())),
            fitted(&t, "held_out_r2"),
        ];
        let mut gate_line = String::new();
        let (accepted, best_after) = match best {
            None => {
                row.extend(std::iter::repeat_n(String::new(), 9));
                (true, g)
            }
            Some(k) => {
                let old = agent_of_model::<G>(self.dir, k, &cfg.agent_params())?;
                let gate_seed = seed::derive_seed(cfg.seed, 4 * g as u64 + 1);
                let (v, test) = match cfg.gate {
                    Gate::Hands => {
                        let v = versus(
                            self.rules,
                            &new,
                            &old,
                            cfg.gate_hands,
                            gate_seed,
                            self.threads,
                        )?;
                        (v, None)
                    }
                    Gate::Sprt(t) => {
                        let (v, test) = versus_sprt(
                            self.rules,
                            &new,
                            &old,
                            t,
                            cfg.gate_hands,
                            gate_seed,
                            self.threads,
                        )?;
                        (v, Some(test))
                    }
                };
                row.push(v.hands.to_string());
                cell3(v.diff, 1, &mut row);
                cell3(v.win, 4, &mut row);
                // Not worse: points per hand at least level with the best's.
                let level = v.diff.is_some_and(|d| d.0 >= 0.0);
                let ok = match &test {
                    None => {
                        row.extend(std::iter::repeat_n(String::new(), 2));
                        level
                    }
                    Some(t) => {
                        let r = t.record(cfg.gate_hands);
                        row.push(r.decision.to_string());
                        row.push(match r.llr {
                            x if x.is_finite() => format!("{x:.3}"),
                            x if x > 0.0 => "inf".into(),
                            _ => "-inf".into(),
                        });
                        gate_line = format!("; gate {} after {} hands", r.decision, v.hands);
                        match t.decision() {
                            Decision::H1 => true,
                            Decision::H0 => false,
                            Decision::Undecided => level,
                        }
                    }
                };
                (ok, if ok { g } else { k })
            }
        };
        row.push(u8::from(accepted).to_string());
        row.push(best_after.to_string());
        // The same deals for every generation: the curve is paired too.
        let eval_seed = seed::derive_seed(cfg.seed, 0x6576_616c);
        let mut ladder = Vec::new();
        for who in LADDER {
            let opp = self.spec(who, "ladder")?;
            let v = versus(
                self.rules,
                &new,
                &opp,
                cfg.eval_hands,
                eval_seed,
                self.threads,
            )?;
            cell3(v.win, 4, &mut row);
            cell3(v.diff, 1, &mut row);
            ladder.push((who, v));
        }
        if !self.quiet {
            let mut line = format!(
                "kanaszta: generation {g}: {} rows, held-out rmse {}, r² {}; {}",
                summary.rows,
                fitted(&t, "held_out_rmse"),
                fitted(&t, "held_out_r2"),
                match best {
                    None => "the first best".to_string(),
                    Some(k) => format!(
                        "{} against generation {k}{}",
                        if accepted { "accepted" } else { "refused" },
                        gate_line
                    ),
                }
            );
            for (who, v) in &ladder {
                if let Some((m, lo, hi)) = v.win {
                    line.push_str(&format!(
                        "; v {who} {:.1}% [{:.1}, {:.1}]",
                        100.0 * m,
                        100.0 * lo,
                        100.0 * hi
                    ));
                }
            }
            eprintln!("{line}");
        }
        Ok((row, Some(best_after)))
    }
}

/// Writes `text` to `path` through a temporary file, so a stopped run
/// leaves the old file or the new one, never half of one.
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| CliError::io("create", d.display(), e))?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| CliError::io("write", tmp.display(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| CliError::io("write", path.display(), e))
}
