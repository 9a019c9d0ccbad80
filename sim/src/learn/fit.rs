//! `kanaszta learn fit`: a value model (the hand's final margin from the
//! seat's side, predicted from the seat's encoding) fitted to the rows of
//! a data run: ridge regression solved exactly by conjugate gradients on
//! its normal equations, or a one-hidden-layer network (ReLU) trained by
//! Adam on mini-batches. Both work on the sparse rows as written (a
//! decorated encoding has about 64 non-zero entries of 7,122), on one
//! thread, so a seed gives the same model on any machine.
//!
//! Rows are split by deal, not by row: the held-out deals (`--holdout`, drawn
//! from the seed) are never seen in training, nor their seat-swapped twins.

use super::data::DataSet;
use kanaszta_agents::value::{Net, ValueModel};
use kanaszta_engine::seed;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What a model file records of a data run (`training.data`), from its
/// meta.json.
pub fn data_record(meta: &serde_json::Value) -> serde_json::Value {
    let data_keys = [
        "a", "b", "rules", "mode", "games", "seed", "sample", "views", "at", "rows",
    ];
    let data: serde_json::Map<String, serde_json::Value> = data_keys
        .iter()
        .filter(|k| **k != "at" || !meta[**k].is_null())
        .map(|k| (k.to_string(), meta[*k].clone()))
        .collect();
    data.into()
}

/// What is fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Ridge regression.
    Linear,
    /// One hidden layer of ReLU units.
    Mlp,
}

/// The settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Linear or a network.
    pub kind: Kind,
    /// The L2 penalty (ridge: λ of `mean squared error + λ |w|²`; the
    /// network: weight decay).
    pub lambda: f64,
    /// Conjugate-gradient iterations at most (ridge).
    pub iters: usize,
    /// Hidden units (network).
    pub hidden: usize,
    /// Passes over the training rows (network).
    pub epochs: usize,
    /// Adam's step (network).
    pub lr: f64,
    /// Rows a step (network).
    pub batch: usize,
    /// The share of deals held out.
    pub holdout: f64,
    /// The seed of the split, the initial weights and the order of rows.
    pub seed: u64,
    /// Network: start from the ridge fit (one hidden unit carries the
    /// linear model, the others start with no say in the output) instead
    /// of from random weights alone.
    pub from_linear: bool,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            kind: Kind::Linear,
            lambda: 1e-4,
            iters: 300,
            hidden: 32,
            epochs: 8,
            lr: 1e-3,
            batch: 128,
            holdout: 0.1,
            seed: 1,
            from_linear: false,
        }
    }
}

/// Why a model cannot be fitted to the data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FitError {
    /// Fewer than two training rows.
    TooFewRows {
        /// The training rows.
        train: usize,
    },
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::TooFewRows { train } => write!(
                f,
                "{train} training rows: too few to fit (play more hands, or hold out fewer deals with --holdout)"
            ),
        }
    }
}

impl std::error::Error for FitError {}

impl From<FitError> for crate::error::CliError {
    fn from(e: FitError) -> crate::error::CliError {
        crate::error::CliError::Input(e.to_string())
    }
}

/// Whether row `i` is held out: its deal is drawn into the held-out share.
fn held_out(set: &DataSet, i: usize, cfg: &FitConfig) -> bool {
    let deal = (set.game[i] / 2) as u64;
    let u = seed::derive_seed(cfg.seed ^ 0x686f_6c64, deal) >> 11;
    (u as f64 / (1u64 << 53) as f64) < cfg.holdout
}

/// Fits a model to `set`; the error says what was wrong with the data.
pub fn fit(set: &DataSet, cfg: &FitConfig) -> Result<ValueModel, FitError> {
    let (train, test): (Vec<usize>, Vec<usize>) =
        (0..set.len()).partition(|&i| !held_out(set, i, cfg));
    if train.len() < 2 {
        return Err(FitError::TooFewRows { train: train.len() });
    }
    let n = train.len() as f64;
    let mean = train.iter().map(|&i| set.margin[i] as f64).sum::<f64>() / n;
    let var = train
        .iter()
        .map(|&i| (set.margin[i] as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let scale = var.sqrt().max(1.0);
    let target = |i: usize| (set.margin[i] as f64 - mean) / scale;
    let (net, steps) = match cfg.kind {
        Kind::Linear => ridge(set, &train, &target, cfg),
        Kind::Mlp => mlp(set, &train, &target, cfg),
    };
    let mut model = ValueModel {
        family: set.family.clone(),
        encoding_version: set.meta["encoding_version"].as_u64().unwrap_or(0) as u32,
        obs_len: set.obs_len,
        mean: mean as f32,
        scale: scale as f32,
        net,
        training: serde_json::Value::Null,
    };
    let mut h = vec![0.0f32; model.hidden()];
    let predict = |m: &ValueModel, i: usize, h: &mut [f32]| -> f64 {
        let (idx, val) = set.sparse(i);
        let e = idx.iter().zip(val).map(|(&j, &x)| (j as usize, x));
        m.mean as f64 + m.scale as f64 * m.raw(e, h) as f64
    };
    let mse_of = |rows: &[usize], h: &mut [f32]| -> (f64, f64) {
        let (mut se, mut ae) = (0.0, 0.0);
        for &i in rows {
            let d = predict(&model, i, h) - set.margin[i] as f64;
            se += d * d;
            ae += d.abs();
        }
        let k = rows.len().max(1) as f64;
        (se / k, ae / k)
    };
    let (train_mse, train_mae) = mse_of(&train, &mut h);
    let (test_mse, test_mae) = mse_of(&test, &mut h);
    let baseline = test
        .iter()
        .map(|&i| (set.margin[i] as f64 - mean).powi(2))
        .sum::<f64>()
        / test.len().max(1) as f64;
    // Calibration: the held-out rows in ten bins by prediction.
    let mut preds: Vec<(f64, f64)> = test
        .iter()
        .map(|&i| (predict(&model, i, &mut h), set.margin[i] as f64))
        .collect();
    preds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let calibration: Vec<serde_json::Value> = (0..10)
        .filter_map(|d| {
            let (a, b) = (d * preds.len() / 10, (d + 1) * preds.len() / 10);
            let part = &preds[a..b];
            (!part.is_empty()).then(|| {
                let k = part.len() as f64;
                serde_json::json!({
                    "decile": d + 1,
                    "rows": part.len(),
                    "predicted": round1(part.iter().map(|p| p.0).sum::<f64>() / k),
                    "margin": round1(part.iter().map(|p| p.1).sum::<f64>() / k),
                })
            })
        })
        .collect();
    let data = data_record(&set.meta);
    model.training = serde_json::json!({
        "kind": match cfg.kind { Kind::Linear => "linear", Kind::Mlp => "mlp" },
        "data": data,
        "settings": set.meta["settings"],
        "samples": set.len(),
        "train_rows": train.len(),
        "held_out_rows": test.len(),
        "holdout": cfg.holdout,
        "seed": cfg.seed,
        "lambda": cfg.lambda,
        "iterations": steps,
        "hidden": model.hidden(),
        "epochs": if cfg.kind == Kind::Mlp { cfg.epochs } else { 0 },
        "lr": cfg.lr,
        "batch": cfg.batch,
        "train_mse": round1(train_mse),
        "train_mae": round1(train_mae),
        "held_out_mse": round1(test_mse),
        "held_out_rmse": round1(test_mse.sqrt()),
        "held_out_mae": round1(test_mae),
        "held_out_baseline_mse": round1(baseline),
        // 1 − mse / baseline, to four places.
        "held_out_r2": ((1.0 - test_mse / baseline.max(1e-9)) * 1e4).round() / 1e4,
        "calibration": calibration,
    });
    if cfg.kind == Kind::Mlp && cfg.from_linear {
        model.training["from_linear"] = true.into();
    }
    if test.is_empty() {
        // No held-out deal: there is no held-out figure to give, and a
        // zero would read as a perfect fit.
        for k in [
            "held_out_mse",
            "held_out_rmse",
            "held_out_mae",
            "held_out_baseline_mse",
            "held_out_r2",
        ] {
            model.training[k] = serde_json::Value::Null;
        }
    }
    Ok(model)
}

/// `x` to one place; an empty sum's −0 is written 0.
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// Ridge regression by conjugate gradients on `(XᵀX/n + λI) w = Xᵀy/n`,
/// the bias an unpenalized column of ones: the weights and the
/// iterations taken.
fn ridge(
    set: &DataSet,
    rows: &[usize],
    target: &dyn Fn(usize) -> f64,
    cfg: &FitConfig,
) -> (Net, usize) {
    let d = set.obs_len;
    let n = rows.len() as f64;
    // A v = Xᵀ X v / n + λ v (λ = 0 on the bias at index d).
    let apply = |v: &[f64], out: &mut [f64]| {
        out.fill(0.0);
        for &i in rows {
            let (idx, val) = set.sparse(i);
            let xv = v[d]
                + idx
                    .iter()
                    .zip(val)
                    .map(|(&j, &x)| v[j as usize] * x as f64)
                    .sum::<f64>();
            for (&j, &x) in idx.iter().zip(val) {
                out[j as usize] += xv * x as f64;
            }
            out[d] += xv;
        }
        for (k, o) in out.iter_mut().enumerate() {
            *o /= n;
            if k < d {
                *o += cfg.lambda * v[k];
            }
        }
    };
    let mut b = vec![0.0; d + 1];
    for &i in rows {
        let y = target(i);
        let (idx, val) = set.sparse(i);
        for (&j, &x) in idx.iter().zip(val) {
            b[j as usize] += y * x as f64;
        }
        b[d] += y;
    }
    b.iter_mut().for_each(|x| *x /= n);
    let dot = |a: &[f64], c: &[f64]| a.iter().zip(c).map(|(x, y)| x * y).sum::<f64>();
    let mut w = vec![0.0; d + 1];
    let mut r = b.clone();
    let mut p = r.clone();
    let mut ap = vec![0.0; d + 1];
    let mut rr = dot(&r, &r);
    let stop = rr * 1e-12;
    let mut it = 0;
    while it < cfg.iters && rr > stop && rr > 0.0 {
        apply(&p, &mut ap);
        let pap = dot(&p, &ap);
        if pap <= 0.0 {
            break;
        }
        let alpha = rr / pap;
        for k in 0..=d {
            w[k] += alpha * p[k];
            r[k] -= alpha * ap[k];
        }
        let rr2 = dot(&r, &r);
        let beta = rr2 / rr;
        for k in 0..=d {
            p[k] = r[k] + beta * p[k];
        }
        rr = rr2;
        it += 1;
    }
    (
        Net::Linear {
            weights: w[..d].iter().map(|&x| x as f32).collect(),
            bias: w[d] as f32,
        },
        it,
    )
}

/// Adam's moments of one array of parameters.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
    /// One step of `params` along the gradient `g` (plus weight decay
    /// `wd`), at step `t` (from 1).
    fn step(&mut self, params: &mut [f32], g: &[f32], lr: f64, wd: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        let lr = lr as f32;
        for k in 0..params.len() {
            let gk = g[k] + wd * params[k];
            self.m[k] = b1 * self.m[k] + (1.0 - b1) * gk;
            self.v[k] = b2 * self.v[k] + (1.0 - b2) * gk * gk;
            params[k] -= lr * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + 1e-8);
        }
    }
}

/// Puts the ridge fit of `rows` into unit 0 of a network of `hn =
/// b1.len()` units, so that the network starts where the linear model is:
/// unit 0's input weights are the linear weights and its bias lifts its
/// input to at least 1 on every training row (the ReLU passes it
/// unchanged), its output weight is 1 and the output bias takes the lift
/// back. The other units keep their random input weights and get output
/// weight 0: they join the output as training finds them a use.
fn from_linear(
    set: &DataSet,
    rows: &[usize],
    target: &dyn Fn(usize) -> f64,
    cfg: &FitConfig,
    (w1, b1, w2, b2): (&mut [f32], &mut [f32], &mut [f32], &mut [f32; 1]),
) {
    let hn = b1.len();
    let Net::Linear { weights, bias } = ridge(set, rows, target, cfg).0 else {
        unreachable!("ridge fits a linear model")
    };
    let least = rows
        .iter()
        .map(|&i| {
            let (idx, val) = set.sparse(i);
            idx.iter()
                .zip(val)
                .map(|(&j, &x)| weights[j as usize] * x)
                .sum::<f32>()
        })
        .fold(0.0f32, f32::min);
    let lift = 1.0 - least;
    for (j, w) in weights.iter().enumerate() {
        w1[j * hn] = *w;
    }
    b1[0] = lift;
    w2.fill(0.0);
    w2[0] = 1.0;
    b2[0] = bias - lift;
}

/// A one-hidden-layer network trained by Adam on mini-batches of the
/// mean squared error: the network and the steps taken.
fn mlp(
    set: &DataSet,
    rows: &[usize],
    target: &dyn Fn(usize) -> f64,
    cfg: &FitConfig,
) -> (Net, usize) {
    let d = set.obs_len;
    let hn = cfg.hidden.max(1);
    let mut rng = Pcg64Mcg::seed_from_u64(seed::derive_seed(cfg.seed, 0x6d6c70));
    let nnz = set.obs_index.len() as f64 / set.len().max(1) as f64;
    let a1 = (3.0 / nnz.max(1.0)).sqrt() as f32;
    let a2 = (6.0 / (hn as f64 + 1.0)).sqrt() as f32;
    let mut w1: Vec<f32> = (0..d * hn)
        .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * a1)
        .collect();
    let mut b1 = vec![0.0f32; hn];
    let mut w2: Vec<f32> = (0..hn)
        .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * a2)
        .collect();
    let mut b2 = [0.0f32];
    if cfg.from_linear {
        from_linear(set, rows, target, cfg, (&mut w1, &mut b1, &mut w2, &mut b2));
    }
    let (mut o1, mut ob1, mut o2, mut ob2) = (
        Adam::new(d * hn),
        Adam::new(hn),
        Adam::new(hn),
        Adam::new(1),
    );
    let (mut g1, mut gb1, mut g2, mut gb2) = (
        vec![0.0f32; d * hn],
        vec![0.0f32; hn],
        vec![0.0f32; hn],
        [0.0f32],
    );
    let mut h = vec![0.0f32; hn];
    let mut order = rows.to_vec();
    let mut t = 0;
    let wd = cfg.lambda as f32;
    for _ in 0..cfg.epochs {
        // Fisher–Yates with the fit's own generator.
        for k in (1..order.len()).rev() {
            let j = rng.random_range(0..=k);
            order.swap(k, j);
        }
        for batch in order.chunks(cfg.batch.max(1)) {
            g1.fill(0.0);
            gb1.fill(0.0);
            g2.fill(0.0);
            gb2[0] = 0.0;
            let k = batch.len() as f32;
            for &i in batch {
                let (idx, val) = set.sparse(i);
                h.copy_from_slice(&b1);
                for (&j, &x) in idx.iter().zip(val) {
                    let row = &w1[j as usize * hn..(j as usize + 1) * hn];
                    for (a, w) in h.iter_mut().zip(row) {
                        *a += w * x;
                    }
                }
                let out = b2[0] + h.iter().zip(&w2).map(|(a, w)| a.max(0.0) * w).sum::<f32>();
                // d(mean squared error)/d out for this row.
                let e = 2.0 * (out - target(i) as f32) / k;
                gb2[0] += e;
                for u in 0..hn {
                    if h[u] > 0.0 {
                        g2[u] += e * h[u];
                        let dh = e * w2[u];
                        gb1[u] += dh;
                        for (&j, &x) in idx.iter().zip(val) {
                            g1[j as usize * hn + u] += dh * x;
                        }
                    }
                }
            }
            t += 1;
            o1.step(&mut w1, &g1, cfg.lr, wd, t);
            ob1.step(&mut b1, &gb1, cfg.lr, 0.0, t);
            o2.step(&mut w2, &g2, cfg.lr, wd, t);
            ob2.step(&mut b2, &gb2, cfg.lr, 0.0, t);
        }
    }
    (
        Net::Mlp {
            hidden: hn,
            w1,
            b1,
            w2,
            b2: b2[0],
        },
        t as usize,
    )
}
