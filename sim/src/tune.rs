//! Tuning an agent's number parameters by self-play: simultaneous
//! perturbation stochastic approximation (SPSA) on paired deals.
//!
//! Each parameter moves in `0..1`, the fraction of its range. Step `k`
//! draws a direction `Δ` of ±1 per parameter, plays the agent at `x + c_k Δ`
//! and at `x − c_k Δ` against every opponent on the same paired deals
//! (common random numbers: the luck of the cards cancels from the
//! difference), and moves `x` by `a_k · (m+ − m−) / rms · Δ`, where `m±` are
//! the mean margins in points per hand and `rms` the root mean square of
//! the differences `m+ − m−` so far: a step is a fraction `a_k` of each
//! range, whatever the scale of the points. The gains decay as SPSA's do,
//! `a_k = a ((1 + A) / (k + A))^0.602` with `A` a tenth of the steps, and
//! `c_k = c / k^0.101`.
//!
//! The tuning is settled, and stops, once `window` steps have passed in
//! which no parameter has a direction left: the mean of its gradient
//! estimate `(m+ − m−) Δ_i / 2` over the last `window` steps lies within one
//! standard error of 0 for every parameter.

use kanaszta_agents::{AgentSpec, Bounds, ParamDoc, SpecError};
use kanaszta_engine::classic::ClassicState;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// An agent spec whose number parameters can be tuned: a decorated agent's
/// ([`AgentSpec`]) or a classic player's ([`AgentSpec<ClassicState>`]).
pub trait Tunable: Clone + std::fmt::Display {
    /// The agent's name.
    fn name(&self) -> &'static str;
    /// The documented parameters, in canonical order.
    fn docs(&self) -> &'static [ParamDoc];
    /// The declared range of number parameter `key`.
    fn bounds(&self, key: &str) -> Option<Bounds>;
    /// The value of parameter `key` as text.
    fn get(&self, key: &str) -> Option<String>;
    /// This spec with `key` set to `value`.
    fn with(&self, key: &str, value: &str) -> Result<Self, SpecError>;
}

macro_rules! tunable {
    ($t:ty) => {
        impl Tunable for $t {
            fn name(&self) -> &'static str {
                <$t>::name(self)
            }
            fn docs(&self) -> &'static [ParamDoc] {
                <$t>::docs(self)
            }
            fn bounds(&self, key: &str) -> Option<Bounds> {
                <$t>::bounds(self, key)
            }
            fn get(&self, key: &str) -> Option<String> {
                <$t>::get(self, key)
            }
            fn with(&self, key: &str, value: &str) -> Result<Self, SpecError> {
                <$t>::with(self, key, value)
            }
        }
    };
}
tunable!(AgentSpec);
tunable!(AgentSpec<ClassicState>);

/// One parameter tuned, with the range it moves in.
#[derive(Clone, Debug, PartialEq)]
pub struct TunedParam {
    /// The key.
    pub key: String,
    /// The range, within the declared one.
    pub bounds: Bounds,
}

impl TunedParam {
    /// The value at fraction `x` of the range (whole numbers rounded).
    pub fn value(&self, x: f64) -> f64 {
        let b = &self.bounds;
        let v = b.lo + x.clamp(0.0, 1.0) * (b.hi - b.lo);
        if b.integer {
            v.round()
        } else {
            v
        }
    }

    /// The fraction of the range at value `v`.
    pub fn fraction(&self, v: f64) -> f64 {
        let b = &self.bounds;
        if b.hi > b.lo {
            ((v - b.lo) / (b.hi - b.lo)).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// The value as a spec writes it: whole numbers without a point, the
    /// others to six decimals at most.
    pub fn text(&self, v: f64) -> String {
        if self.bounds.integer {
            format!("{}", v as i64)
        } else {
            let t = format!("{v:.6}");
            let t = t.trim_end_matches('0').trim_end_matches('.');
            if t.is_empty() || t == "-" {
                "0".into()
            } else {
                t.to_string()
            }
        }
    }
}

/// The spec of `base` with the parameters at fractions `x`.
pub fn spec_at<S: Tunable>(base: &S, params: &[TunedParam], x: &[f64]) -> Result<S, SpecError> {
    let mut s = base.clone();
    for (p, &xi) in params.iter().zip(x) {
        s = s.with(&p.key, &p.text(p.value(xi)))?;
    }
    Ok(s)
}

/// The settings of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpsaConfig {
    /// `a`: the first step, as a fraction of each range.
    pub step: f64,
    /// `c`: the first perturbation, as a fraction of each range.
    pub perturb: f64,
    /// Steps planned (sets `A`).
    pub steps: u64,
    /// Steps of the settling rule (0: never stop early).
    pub window: u64,
}

/// One step of the search: where it was, which way it looked, what it
/// measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// From 1.
    pub k: u64,
    /// The fractions at the start of the step.
    pub x: Vec<f64>,
    /// The direction, ±1 per parameter.
    pub delta: Vec<f64>,
    /// `c_k`.
    pub perturb: f64,
    /// `a_k`.
    pub step: f64,
    /// The fractions played at `x + c_k Δ` and `x − c_k Δ`.
    pub plus: Vec<f64>,
    /// See [`Step::plus`].
    pub minus: Vec<f64>,
}

/// The state of the search.
pub struct Spsa {
    cfg: SpsaConfig,
    x: Vec<f64>,
    k: u64,
    rng: Pcg64Mcg,
    sum_sq: f64,
    /// The gradient estimates of the steps so far, per step.
    grads: Vec<Vec<f64>>,
    /// The fractions after each step.
    path: Vec<Vec<f64>>,
    /// The least perturbation of each parameter (one unit of a whole-number
    /// parameter's range, so that the two points differ once rounded).
    min_perturb: Vec<f64>,
}

impl Spsa {
    /// A search from fractions `x`, its directions drawn from `seed`.
    pub fn new(cfg: SpsaConfig, x: Vec<f64>, seed: u64) -> Spsa {
        Spsa {
            cfg,
            x,
            k: 0,
            rng: Pcg64Mcg::seed_from_u64(seed),
            sum_sq: 0.0,
            grads: Vec::new(),
            path: Vec::new(),
            min_perturb: Vec::new(),
        }
    }

    /// Perturbs parameter `i` by at least `min[i]` of its range.
    pub fn with_min_perturb(mut self, min: Vec<f64>) -> Spsa {
        self.min_perturb = min;
        self
    }

    /// The next step's points to measure.
    pub fn propose(&mut self) -> Step {
        self.k += 1;
        let k = self.k as f64;
        let big_a = 0.1 * self.cfg.steps as f64;
        let ak = self.cfg.step * ((1.0 + big_a) / (k + big_a)).powf(0.602);
        let ck = self.cfg.perturb / k.powf(0.101);
        let delta: Vec<f64> = self
            .x
            .iter()
            .map(|_| if self.rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let at = |sign: f64| -> Vec<f64> {
            self.x
                .iter()
                .zip(&delta)
                .enumerate()
                .map(|(i, (x, d))| {
                    let c = ck.max(self.min_perturb.get(i).copied().unwrap_or(0.0));
                    (x + sign * c * d).clamp(0.0, 1.0)
                })
                .collect()
        };
        Step {
            k: self.k,
            x: self.x.clone(),
            plus: at(1.0),
            minus: at(-1.0),
            delta,
            perturb: ck,
            step: ak,
        }
    }

    /// Takes the margins measured at the step's two points and moves.
    pub fn update(&mut self, s: &Step, m_plus: f64, m_minus: f64) {
        let d = m_plus - m_minus;
        self.sum_sq += d * d;
        let rms = (self.sum_sq / self.k as f64).sqrt();
        if rms > 0.0 {
            for (x, delta) in self.x.iter_mut().zip(&s.delta) {
                *x = (*x + s.step * d / rms * delta).clamp(0.0, 1.0);
            }
        }
        self.grads
            .push(s.delta.iter().map(|delta| d * delta / 2.0).collect());
        self.path.push(self.x.clone());
    }

    /// Whether the last `window` steps left no parameter a direction.
    pub fn settled(&self) -> bool {
        let w = self.cfg.window as usize;
        if w < 2 || self.grads.len() < w {
            return false;
        }
        let last = &self.grads[self.grads.len() - w..];
        (0..self.x.len()).all(|i| {
            let n = w as f64;
            let mean = last.iter().map(|g| g[i]).sum::<f64>() / n;
            let var = last.iter().map(|g| (g[i] - mean).powi(2)).sum::<f64>() / (n - 1.0);
            mean.abs() <= (var / n).sqrt()
        })
    }

    /// The tuned fractions: the mean of the points after the last
    /// `window` steps (all of them when fewer; the last point when
    /// `window` is 0), which evens out the noise of single steps.
    pub fn best(&self) -> Vec<f64> {
        let w = (self.cfg.window as usize).max(1).min(self.path.len());
        if w == 0 {
            return self.x.clone();
        }
        let last = &self.path[self.path.len() - w..];
        (0..self.x.len())
            .map(|i| last.iter().map(|p| p[i]).sum::<f64>() / w as f64)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(window: u64) -> SpsaConfig {
        SpsaConfig {
            step: 0.1,
            perturb: 0.1,
            steps: 100,
            window,
        }
    }

    /// On a smooth margin with its peak at 0.7, the search climbs to it.
    #[test]
    fn spsa_climbs_a_smooth_margin() {
        let mut s = Spsa::new(cfg(0), vec![0.2, 0.9], 3);
        let margin = |x: &[f64]| -1000.0 * ((x[0] - 0.7).powi(2) + (x[1] - 0.4).powi(2));
        for _ in 0..200 {
            let st = s.propose();
            s.update(&st, margin(&st.plus), margin(&st.minus));
        }
        let b = s.best();
        assert!(
            (b[0] - 0.7).abs() < 0.05 && (b[1] - 0.4).abs() < 0.05,
            "{b:?}"
        );
    }

    /// A flat margin gives no direction: settled after the window.
    #[test]
    fn a_flat_margin_settles() {
        let mut s = Spsa::new(cfg(5), vec![0.5], 1);
        let mut steps = 0;
        let mut noise = Pcg64Mcg::seed_from_u64(9);
        while !s.settled() && steps < 100 {
            let st = s.propose();
            s.update(&st, noise.random::<f64>(), noise.random::<f64>());
            steps += 1;
        }
        assert!(steps < 100, "settled after {steps} steps");
    }

    /// A whole-number parameter of a narrow range is perturbed by at least
    /// one unit: its two points differ once rounded, wherever it starts.
    #[test]
    fn whole_number_parameters_are_perturbed_by_at_least_one() {
        let p = TunedParam {
            key: "pile".into(),
            bounds: Bounds {
                lo: 1.0,
                hi: 5.0,
                integer: true,
            },
        };
        for start in [0.0, 0.3, 0.5, 0.62, 1.0] {
            let mut s = Spsa::new(cfg(0), vec![start], 2).with_min_perturb(vec![0.25]);
            for _ in 0..20 {
                let st = s.propose();
                assert_ne!(
                    p.value(st.plus[0]),
                    p.value(st.minus[0]),
                    "from {start}: {st:?}"
                );
                s.update(&st, 1.0, 0.0);
            }
        }
        // Without the floor the two points round alike.
        let mut s = Spsa::new(cfg(0), vec![0.5], 2);
        let st = s.propose();
        assert_eq!(p.value(st.plus[0]), p.value(st.minus[0]));
    }

    #[test]
    fn values_are_rounded_for_whole_number_parameters() {
        let p = TunedParam {
            key: "pile".into(),
            bounds: Bounds {
                lo: 1.0,
                hi: 112.0,
                integer: true,
            },
        };
        assert_eq!(p.text(p.value(0.5)), "57");
        assert_eq!(p.value(2.0), 112.0, "clamped");
        let q = TunedParam {
            key: "discard".into(),
            bounds: Bounds {
                lo: 0.0,
                hi: 1.0,
                integer: false,
            },
        };
        assert_eq!(q.text(0.25), "0.25");
        assert_eq!(q.text(1.0), "1");
    }
}
