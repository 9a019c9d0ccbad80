//! `kanaszta learn fit`: a value model (the hand's final margin from the
//! seat's side, predicted from the seat's encoding) fitted to the rows of
//! a data run: ridge regression solved exactly by conjugate gradients on
//! its normal equations, or a one-hidden-layer network (ReLU) trained with
//! candle (its automatic differentiation and its Adam) on mini-batches.
//! Both work on the sparse rows as written (a decorated encoding has about
//! 64 non-zero entries of 7,122), on one thread, so a seed gives the same
//! model for any thread count.
//!
//! The ridge fit stays a conjugate-gradient solve of its own: it is an
//! exact sparse solve of the normal equations, two passes over the
//! non-zero entries an iteration, not a network to train by descent.
//!
//! Rows are split by deal, not by row: the held-out deals (`--holdout`, drawn
//! from the seed) are never seen in training, nor their seat-swapped twins.

use super::data::DataSet;
use kanaszta_agents::value::{Net, ValueModel};
use kanaszta_engine::seed;
#[cfg(feature = "mlp")]
use rand::{RngExt, SeedableRng};
#[cfg(feature = "mlp")]
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
    /// candle refused an operation of the network's training (its error).
    Training(String),
    /// A network was asked of a build without the `mlp` feature (no
    /// candle in it).
    NoNetwork,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::TooFewRows { train } => write!(
                f,
                "{train} training rows: too few to fit (play more hands, or hold out fewer deals with --holdout)"
            ),
            FitError::Training(e) => write!(f, "training the network failed: {e}"),
            FitError::NoNetwork => write!(
                f,
                "this build of kanaszta trains no networks (--kind mlp): build it with the `mlp` feature"
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
        Kind::Mlp => mlp(set, &train, &target, cfg)?,
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

/// Puts the ridge fit of `rows` into unit 0 of a network of `hn =
/// b1.len()` units, so that the network starts where the linear model is:
/// unit 0's input weights are the linear weights and its bias lifts its
/// input to at least 1 on every training row (the ReLU passes it
/// unchanged), its output weight is 1 and the output bias takes the lift
/// back. The other units keep their random input weights and get output
/// weight 0: they join the output as training finds them a use.
#[cfg(feature = "mlp")]
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

/// A one-hidden-layer network trained with candle: its automatic
/// differentiation gives the gradient of the mean squared error of a
/// mini-batch plus `lambda / 2` times the squared weights (the biases
/// unpenalized), and its AdamW, with no decoupled decay, takes the step:
/// the network and the steps taken.
///
/// The first layer reads the sparse rows as they are: the weights of a
/// batch's non-zero entries are gathered (`index_select`), scaled by the
/// entries' values and summed into their rows (`index_add`), whose
/// gradients are the scatter and the gather back. No operation of the fit
/// is a matrix product or a reduction split over threads: candle's CPU
/// backend splits only element-wise operations on tensors of 64 K elements
/// or more (the first layer's weights and Adam's moments), each element
/// computed alone, so the model is the same for any thread count.
#[cfg(feature = "mlp")]
fn mlp(
    set: &DataSet,
    rows: &[usize],
    target: &dyn Fn(usize) -> f64,
    cfg: &FitConfig,
) -> Result<(Net, usize), FitError> {
    one_candle_thread();
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
    let ((w1, b1, w2, b2), steps) =
        train(set, rows, &mut rng, target, cfg, (w1, b1, w2, b2[0]), hn)
            .map_err(|e| FitError::Training(e.to_string()))?;
    Ok((
        Net::Mlp {
            hidden: hn,
            w1,
            b1,
            w2,
            b2,
        },
        steps,
    ))
}

/// Without the `mlp` feature there is no candle to train a network with.
#[cfg(not(feature = "mlp"))]
fn mlp(
    _set: &DataSet,
    _rows: &[usize],
    _target: &dyn Fn(usize) -> f64,
    _cfg: &FitConfig,
) -> Result<(Net, usize), FitError> {
    Err(FitError::NoNetwork)
}

/// candle's pool for element-wise operations is as many threads as
/// `CANDLE_NUM_THREADS` (else `RAYON_NUM_THREADS`, else the cores) and
/// they spin while they wait for each other: on a shared machine a
/// decorated fit took 6 s of processor time with one, and two had spent
/// 43 s on it, unfinished. Unless `CANDLE_NUM_THREADS` is set the fit
/// makes it 1, before candle builds its pool (once a process):
/// `learn fit` and `learn loop` fit between their games, when the
/// process's other threads are idle.
#[cfg(feature = "mlp")]
fn one_candle_thread() {
    if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
        std::env::set_var("CANDLE_NUM_THREADS", "1");
    }
}

/// The weights of the network: first layer `d × hidden` (row-major, as
/// the model file keeps it), its biases, output weights, output bias.
#[cfg(feature = "mlp")]
type Weights = (Vec<f32>, Vec<f32>, Vec<f32>, f32);

/// Trains the network from the weights given, for `cfg.epochs` passes
/// over `rows`, each in an order drawn from `rng`, in mini-batches of
/// `cfg.batch`: the trained weights and the steps.
#[cfg(feature = "mlp")]
fn train(
    set: &DataSet,
    rows: &[usize],
    rng: &mut Pcg64Mcg,
    target: &dyn Fn(usize) -> f64,
    cfg: &FitConfig,
    (w1, b1, w2, b2): Weights,
    hn: usize,
) -> candle_core::Result<(Weights, usize)> {
    use candle_core::{Device, Tensor, Var};
    use candle_nn::optim::{AdamW, Optimizer, ParamsAdamW};
    let dev = Device::Cpu;
    let d = set.obs_len;
    let w1 = Var::from_vec(w1, (d, hn), &dev)?;
    let b1 = Var::from_vec(b1, hn, &dev)?;
    let w2 = Var::from_vec(w2, hn, &dev)?;
    let b2 = Var::from_vec(vec![b2], 1, &dev)?;
    let mut opt = AdamW::new(
        vec![w1.clone(), b1.clone(), w2.clone(), b2.clone()],
        ParamsAdamW {
            lr: cfg.lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
        },
    )?;
    let half_lambda = cfg.lambda / 2.0;
    let (mut idx, mut val, mut row, mut y) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut steps = 0;
    let mut order = rows.to_vec();
    for _ in 0..cfg.epochs {
        // Fisher–Yates with the fit's own generator.
        for k in (1..order.len()).rev() {
            let j = rng.random_range(0..=k);
            order.swap(k, j);
        }
        for batch in order.chunks(cfg.batch.max(1)) {
            idx.clear();
            val.clear();
            row.clear();
            y.clear();
            for (r, &i) in batch.iter().enumerate() {
                let (ix, vx) = set.sparse(i);
                idx.extend(ix.iter().map(|&j| j as u32));
                val.extend_from_slice(vx);
                row.extend(std::iter::repeat_n(r as u32, ix.len()));
                y.push(target(i) as f32);
            }
            let k = batch.len();
            let n = idx.len();
            let idx_t = Tensor::from_slice(&idx, n, &dev)?;
            let val_t = Tensor::from_slice(&val, (n, 1), &dev)?;
            let row_t = Tensor::from_slice(&row, n, &dev)?;
            let y_t = Tensor::from_slice(&y, k, &dev)?;
            let entries = w1.index_select(&idx_t, 0)?.broadcast_mul(&val_t)?;
            let h = Tensor::zeros((k, hn), candle_core::DType::F32, &dev)?
                .index_add(&row_t, &entries, 0)?
                .broadcast_add(&b1)?
                .relu()?;
            let out = h.broadcast_mul(&w2)?.sum(1)?.broadcast_add(&b2)?;
            let mut loss = (out - y_t)?.sqr()?.mean_all()?;
            if half_lambda > 0.0 {
                let penalty = (w1.sqr()?.sum_all()? + w2.sqr()?.sum_all()?)?;
                loss = (loss + (penalty * half_lambda)?)?;
            }
            opt.backward_step(&loss)?;
            steps += 1;
        }
    }
    let weights = (
        w1.flatten_all()?.to_vec1()?,
        b1.to_vec1()?,
        w2.to_vec1()?,
        b2.to_vec1::<f32>()?[0],
    );
    Ok((weights, steps))
}
