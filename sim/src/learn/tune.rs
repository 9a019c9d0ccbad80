//! `kanaszta learn tune`: a decorated value model learned by play instead
//! of regression. The model is linear over the encoding, its weights
//! `Σ_j θ_j B_j` for a few hand-made directions `B_j` of the encoding's
//! space ([`directions`]: the points in the viewer's hand, the natural
//! cards and wild points on each side's groups, canastas, red threes,
//! the pile, …), each in its own unit (points or cards). The weights `θ`
//! are tuned by SPSA ([`crate::tune::Spsa`]) on paired deals of the value
//! agent with the model against an opponent (`greedy` by default): step
//! `k` plays the agent at `θ + c_k Δ` and at `θ − c_k Δ` on the same deals
//! (run seed `seed::deal(seed, k)`) and moves `θ` toward the better.
//! The result is an ordinary linear model file (`kind` `linear`, `mean`
//! 0, `scale` 1: the model's value is `Σ_j θ_j f_j(x)` points), read by
//! the agent `value` like any other.

use super::iteration::versus;
use crate::error::CliError;
use crate::sprt::Metric;
use crate::tune::{Spsa, SpsaConfig};
use kanaszta_agents::value::{Net, ValueModel};
use kanaszta_agents::AgentSpec;
use kanaszta_engine::{seed, Encode, GameState, Rules, DECORATED_OBS_LEN, ENCODING_VERSION};
use std::io::Write;
use std::path::Path;

/// One direction of the model's weights: a named feature of the
/// encoding, `f(x) = Σ_i B[i] x[i]`, in points or cards, with the range
/// its weight is tuned in and the weight it starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Direction {
    /// The feature's name (a column of steps.csv).
    pub name: &'static str,
    /// What it counts.
    pub what: &'static str,
    /// The least weight.
    pub lo: f64,
    /// The greatest weight.
    pub hi: f64,
    /// The starting weight (a position's points as they stand).
    pub start: f64,
    /// The non-zero entries of `B`: (index in the encoding, weight).
    pub entries: Vec<(usize, f32)>,
}

/// A card's points (D-14) by its rank index (2 = 0 … A = 12): the black
/// three's −100 is a direction of its own, the red three 0 (it never
/// stays in hand).
fn rank_points(rank: usize) -> f32 {
    match rank {
        0 | 12 => 20.0,
        1 => 0.0,
        2..=5 => 5.0,
        _ => 10.0,
    }
}

/// The entries of a card set at `offset` (53 numbers: 0.5 a copy, the
/// jokers / 8) weighed `per_card(index)` a card.
fn card_set(offset: usize, per_card: impl Fn(usize) -> f32) -> Vec<(usize, f32)> {
    (0..53)
        .filter_map(|i| {
            let scale = if i == 52 { 8.0 } else { 2.0 };
            let w = per_card(i) * scale;
            (w != 0.0).then_some((offset + i, w))
        })
        .collect()
}

/// A card's points by its index, the joker 50, threes 0.
fn card_points(i: usize) -> f32 {
    if i == 52 {
        50.0
    } else {
        rank_points(i / 4)
    }
}

fn is_wild(i: usize) -> bool {
    i == 52 || i / 4 == 0
}

fn is_black_three(i: usize) -> bool {
    i == 4 || i == 7
}

fn off(name: &str) -> usize {
    GameState::field(name).expect("a decorated field").offset
}

/// Slots of the viewer (`[0]`) or of the others (`1..6`).
fn slots(own: bool) -> std::ops::Range<usize> {
    if own {
        0..1
    } else {
        1..6
    }
}

/// Per slot of `own`, per group, entry `k` of the group's 30 weighed `w`.
fn group_entries(own: bool, ks: &[(usize, f32)]) -> Vec<(usize, f32)> {
    let base = off("groups");
    let mut v = Vec::new();
    for q in slots(own) {
        for g in 0..35 {
            for &(k, w) in ks {
                v.push((base + q * 1050 + g * 30 + k, w));
            }
        }
    }
    v
}

/// Per slot of `own`, entry `k` of the slot's 5 table flags weighed `w`.
fn flag_entries(own: bool, k: usize, w: f32) -> Vec<(usize, f32)> {
    slots(own)
        .map(|q| (off("table_flags") + q * 5 + k, w))
        .collect()
}

/// The table directions of the viewer (`own`) or of the others: natural
/// cards and wild points on groups, groups, canasta bonuses (D-14),
/// canastas, opened, red threes, twins and ♥A laid apart.
fn table(own: bool) -> Vec<Direction> {
    let s = if own { 1.0 } else { -1.0 };
    let span = |a: f64, b: f64| if own { (a, b) } else { (-b, -a) };
    let d = |name, what, (l, h): (f64, f64), start: f64, entries| Direction {
        name,
        what,
        lo: l,
        hi: h,
        start: s * start,
        entries,
    };
    let n = |own_name: &'static str, other: &'static str| if own { own_name } else { other };
    vec![
        d(
            n("table_naturals", "others_naturals"),
            "natural cards on the side's groups",
            span(-20.0, 40.0),
            8.0,
            group_entries(own, &[(13, 2.0), (14, 2.0), (15, 2.0), (16, 2.0)]),
        ),
        d(
            n("table_wild_points", "others_wild_points"),
            "points of the wilds on the side's groups",
            span(-2.0, 4.0),
            1.0,
            group_entries(
                own,
                &[(17, 40.0), (18, 40.0), (19, 40.0), (20, 40.0), (21, 400.0)],
            ),
        ),
        d(
            n("table_groups", "others_groups"),
            "groups on the side's table",
            span(-100.0, 100.0),
            0.0,
            group_entries(own, &[(0, 1.0)]),
        ),
        d(
            n("canasta_bonus", "others_canasta_bonus"),
            "the side's canasta bonuses: 200 black wild … 600 gold",
            span(-1.0, 3.0),
            1.0,
            group_entries(
                own,
                &[
                    (23, 200.0),
                    (24, 300.0),
                    (25, 400.0),
                    (26, 500.0),
                    (27, 600.0),
                ],
            ),
        ),
        d(
            n("canastas", "others_canastas"),
            "the side's canastas",
            span(-300.0, 500.0),
            0.0,
            group_entries(
                own,
                &[(23, 1.0), (24, 1.0), (25, 1.0), (26, 1.0), (27, 1.0)],
            ),
        ),
        d(
            n("opened", "others_opened"),
            "the side has opened (1 or 0)",
            span(-300.0, 500.0),
            0.0,
            flag_entries(own, 0, 1.0),
        ),
        d(
            n("red_threes", "others_red_threes"),
            "the side's red threes",
            span(-100.0, 300.0),
            100.0,
            flag_entries(own, 1, 4.0),
        ),
        d(
            n("twins", "others_twins"),
            "the side's twins (8 at most)",
            span(-100.0, 300.0),
            100.0,
            flag_entries(own, 2, 8.0),
        ),
        d(
            n("heart_aces", "others_heart_aces"),
            "♥A the side laid apart",
            span(-200.0, 1000.0),
            500.0,
            flag_entries(own, 3, 2.0),
        ),
    ]
}

/// The directions, in the order of steps.csv and of the model file's
/// `training.directions` (docs/LEARNING.md lists them).
pub fn directions() -> Vec<Direction> {
    let hand = off("hand");
    let pending = off("pending_wilds");
    let both = |f: &dyn Fn(usize) -> f32| {
        let mut v = card_set(hand, f);
        v.extend(card_set(pending, f));
        v
    };
    let mut d = vec![
        Direction {
            name: "hand_points",
            what: "points of the cards in the viewer's hand and its wilds to place, black threes aside",
            lo: -3.0,
            hi: 3.0,
            start: -0.5,
            entries: both(&card_points),
        },
        Direction {
            name: "hand_black_threes",
            what: "black threes in the viewer's hand",
            lo: -300.0,
            hi: 100.0,
            start: -100.0,
            entries: card_set(hand, |i| if is_black_three(i) { 1.0 } else { 0.0 }),
        },
        Direction {
            name: "hand_wilds",
            what: "wilds in the viewer's hand and to place",
            lo: -100.0,
            hi: 100.0,
            start: 0.0,
            entries: both(&|i| if is_wild(i) { 1.0 } else { 0.0 }),
        },
        Direction {
            name: "hand_cards",
            what: "cards in the viewer's hand",
            lo: -50.0,
            hi: 50.0,
            start: 0.0,
            entries: vec![(off("hand_sizes"), 112.0)],
        },
    ];
    d.extend(table(true));
    d.extend(table(false));
    d.extend([
        Direction {
            name: "others_hand_cards",
            what: "cards in the other players' hands",
            lo: -50.0,
            hi: 50.0,
            start: 0.0,
            entries: (1..6).map(|q| (off("hand_sizes") + q, 112.0)).collect(),
        },
        Direction {
            name: "others_known_points",
            what: "points of the cards known to be in the other players' hands",
            lo: -3.0,
            hi: 3.0,
            start: 0.0,
            entries: (1..6)
                .flat_map(|q| card_set(off("known") + q * 53, card_points))
                .collect(),
        },
        Direction {
            name: "pile_cards",
            what: "cards in the pile",
            lo: -50.0,
            hi: 50.0,
            start: 0.0,
            entries: vec![(off("pile_size"), 112.0)],
        },
        Direction {
            name: "pile_points",
            what: "points of the cards in the pile",
            lo: -3.0,
            hi: 3.0,
            start: 0.0,
            entries: card_set(off("pile"), card_points),
        },
        Direction {
            name: "pile_top_points",
            what: "points of the pile's top card",
            lo: -10.0,
            hi: 10.0,
            start: 0.0,
            entries: (0..53)
                .filter(|&i| card_points(i) != 0.0)
                .map(|i| (off("pile_top") + i, card_points(i)))
                .collect(),
        },
        Direction {
            name: "pile_frozen",
            what: "the pile is frozen (1 or 0)",
            lo: -300.0,
            hi: 300.0,
            start: 0.0,
            entries: vec![(off("pile_flags"), 1.0)],
        },
        Direction {
            name: "stock_cards",
            what: "cards in the stock",
            lo: -20.0,
            hi: 20.0,
            start: 0.0,
            entries: vec![(off("stock_size"), 112.0)],
        },
    ]);
    d
}

/// The linear model of weights `θ` over `dirs`: `mean` 0, `scale` 1,
/// weights `Σ_j θ_j B_j`, bias 0; `training` as given.
pub fn model_of(dirs: &[Direction], theta: &[f64], training: serde_json::Value) -> ValueModel {
    let mut w = vec![0f64; DECORATED_OBS_LEN];
    for (d, &t) in dirs.iter().zip(theta) {
        for &(i, b) in &d.entries {
            w[i] += t * f64::from(b);
        }
    }
    ValueModel {
        family: "decorated".into(),
        encoding_version: ENCODING_VERSION,
        obs_len: DECORATED_OBS_LEN,
        mean: 0.0,
        scale: 1.0,
        net: Net::Linear {
            weights: w.into_iter().map(|x| x as f32).collect(),
            bias: 0.0,
        },
        training,
    }
}

/// The weights `θ` of `dirs` nearest a linear model's (`scale ·
/// weights`, its mean and bias dropped: every position of one phase
/// shares them): least squares in the encoding's space, `(B Bᵀ + εI) θ =
/// B w`, each weight then clamped to its direction's range. `None` for a
/// network.
pub fn project(dirs: &[Direction], m: &ValueModel) -> Option<Vec<f64>> {
    let Net::Linear { weights, .. } = &m.net else {
        return None;
    };
    let n = dirs.len();
    let dense: Vec<Vec<f64>> = dirs
        .iter()
        .map(|d| {
            let mut v = vec![0f64; weights.len()];
            for &(i, b) in &d.entries {
                v[i] += f64::from(b);
            }
            v
        })
        .collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let w: Vec<f64> = weights
        .iter()
        .map(|&x| f64::from(x) * f64::from(m.scale))
        .collect();
    // The augmented system [B Bᵀ + εI | B w], solved by Gauss-Jordan with
    // partial pivoting.
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let mut row: Vec<f64> = (0..n).map(|k| dot(&dense[j], &dense[k])).collect();
            row[j] += 1e-6 * (1.0 + row[j]);
            row.push(dot(&dense[j], &w));
            row
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        a.swap(c, p);
        let pivot = a[c][c];
        if pivot.abs() < 1e-12 {
            return None;
        }
        let pivot_row = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[c] / pivot;
            if r != c && f != 0.0 {
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(
        dirs.iter()
            .enumerate()
            .map(|(j, d)| (a[j][n] / a[j][j]).clamp(d.lo, d.hi))
            .collect(),
    )
}

/// The settings of a tuning.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The opponent's spec.
    pub opponent: String,
    /// The value agent's parameters after its model (e.g. `,turn=on`).
    pub agent_params: String,
    /// SPSA steps.
    pub steps: u64,
    /// Hands each point of a step plays (whole deals).
    pub hands: u64,
    /// `a`, `c` of SPSA, as fractions of each weight's range.
    pub step: f64,
    /// See [`TuneConfig::step`].
    pub perturb: f64,
    /// What a point is judged by.
    pub metric: Metric,
    /// The master seed (SPSA's directions and every step's deals).
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The rules' name, for the record.
    pub rules_name: String,
    /// The weights to start from (`None`: each direction's `start`), and
    /// where they come from, for the record.
    pub from: Option<(Vec<f64>, String)>,
}

fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Points => "points",
        Metric::Wins => "wins",
    }
}

fn theta_of(dirs: &[Direction], x: &[f64]) -> Vec<f64> {
    dirs.iter()
        .zip(x)
        .map(|(d, &x)| d.lo + x.clamp(0.0, 1.0) * (d.hi - d.lo))
        .collect()
}

fn fraction_of(d: &Direction, t: f64) -> f64 {
    ((t - d.lo) / (d.hi - d.lo)).clamp(0.0, 1.0)
}

/// Writes `text` to `path` whole (a temporary file renamed).
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| CliError::io("write", tmp.display(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| CliError::io("write", path.display(), e))
}

/// Runs a tuning into `dir`: steps.csv (a row a step: the two points'
/// figures and the weights the step started from) and model.json (the
/// mean of the weights after the last tenth of the steps, written again
/// after every step: a tuning stopped by a signal keeps the steps
/// finished). Returns the model.
pub fn run(
    rules: Rules,
    cfg: &TuneConfig,
    dir: &Path,
    quiet: bool,
) -> Result<ValueModel, CliError> {
    let opponent: AgentSpec = cfg
        .opponent
        .parse()
        .map_err(|e| CliError::Input(format!("--opponent {}: {e}", cfg.opponent)))?;
    std::fs::create_dir_all(dir).map_err(|e| CliError::io("create", dir.display(), e))?;
    let dirs = directions();
    let x0: Vec<f64> = match &cfg.from {
        Some((theta, _)) => dirs
            .iter()
            .zip(theta)
            .map(|(d, &t)| fraction_of(d, t))
            .collect(),
        None => dirs.iter().map(|d| fraction_of(d, d.start)).collect(),
    };
    let window = (cfg.steps / 10).max(1);
    let mut spsa = Spsa::new(
        SpsaConfig {
            step: cfg.step,
            perturb: cfg.perturb,
            steps: cfg.steps,
            window,
        },
        x0,
        seed::derive_seed(cfg.seed, u64::MAX),
    );
    let point = dir.join("point.json");
    let agent = |theta: &[f64]| -> Result<AgentSpec, CliError> {
        let m = model_of(&dirs, theta, serde_json::Value::Null);
        write_atomic(&point, &m.to_json().to_string())?;
        let text = format!("value:model={}{}", point.display(), cfg.agent_params);
        text.parse::<AgentSpec>()
            .map_err(|e| CliError::Input(format!("{text}: {e}")))
    };
    let csv_path = dir.join("steps.csv");
    let mut csv = std::fs::File::create(&csv_path)
        .map_err(|e| CliError::io("create", csv_path.display(), e))?;
    let mut header = vec![
        "step".to_string(),
        "plus_points".into(),
        "plus_win".into(),
        "minus_points".into(),
        "minus_win".into(),
    ];
    header.extend(dirs.iter().map(|d| d.name.to_string()));
    let io = |e| CliError::io("write", csv_path.display(), e);
    writeln!(csv, "{}", header.join(",")).map_err(io)?;
    let hands = cfg.hands / 2 * 2;
    let mut done = 0;
    for _ in 0..cfg.steps {
        if crate::signals::stopped().is_some() {
            break;
        }
        let st = spsa.propose();
        let deals = seed::deal(cfg.seed, st.k);
        let plus = versus(
            rules,
            &agent(&theta_of(&dirs, &st.plus))?,
            &opponent,
            hands,
            deals,
            cfg.threads,
        )?;
        let minus = versus(
            rules,
            &agent(&theta_of(&dirs, &st.minus))?,
            &opponent,
            hands,
            deals,
            cfg.threads,
        )?;
        let fig = |v: &super::iteration::Versus| {
            (v.diff.map_or(0.0, |d| d.0), v.win.map_or(0.5, |w| w.0))
        };
        let (pp, pw) = fig(&plus);
        let (mp, mw) = fig(&minus);
        let (a, b) = match cfg.metric {
            Metric::Points => (pp, mp),
            Metric::Wins => (pw, mw),
        };
        spsa.update(&st, a, b);
        let theta = theta_of(&dirs, &st.x);
        let mut row = vec![
            st.k.to_string(),
            format!("{pp:.1}"),
            format!("{pw:.4}"),
            format!("{mp:.1}"),
            format!("{mw:.4}"),
        ];
        row.extend(theta.iter().map(|t| format!("{t:.4}")));
        writeln!(csv, "{}", row.join(",")).map_err(io)?;
        csv.flush().map_err(io)?;
        done = st.k;
        write_model(rules, cfg, dir, &dirs, &spsa, window, done)?;
        if !quiet {
            eprintln!(
                "step {}/{}: θ+cΔ {:+.0} a hand, {:.1}% won; θ−cΔ {:+.0}, {:.1}%",
                st.k,
                cfg.steps,
                pp,
                100.0 * pw,
                mp,
                100.0 * mw
            );
        }
    }
    let _ = std::fs::remove_file(&point);
    let m = write_model(rules, cfg, dir, &dirs, &spsa, window, done)?;
    Ok(m)
}

/// Writes model.json of the mean of the weights after the last `window`
/// of the `done` steps.
fn write_model(
    rules: Rules,
    cfg: &TuneConfig,
    dir: &Path,
    dirs: &[Direction],
    spsa: &Spsa,
    window: u64,
    done: u64,
) -> Result<ValueModel, CliError> {
    let theta = theta_of(dirs, &spsa.best());
    let training = serde_json::json!({
        "kind": "tuned",
        "method": "spsa",
        "rules": cfg.rules_name,
        "settings": rules.settings().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
        "opponent": cfg.opponent,
        "agent_params": cfg.agent_params,
        "steps": done,
        "planned_steps": cfg.steps,
        "hands": cfg.hands / 2 * 2,
        "step": cfg.step,
        "perturb": cfg.perturb,
        "metric": metric_name(cfg.metric),
        "seed": cfg.seed,
        "from": cfg.from.as_ref().map(|f| f.1.clone()),
        "averaged_steps": window,
        "directions": dirs.iter().zip(&theta).map(|(d, t)| serde_json::json!({
            "name": d.name,
            "theta": t,
        })).collect::<Vec<_>>(),
    });
    let m = model_of(dirs, &theta, training);
    let text =
        serde_json::to_string_pretty(&m.to_json()).map_err(|e| CliError::Input(e.to_string()))?;
    write_atomic(&dir.join("model.json"), &text)?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model made of the directions projects back to its weights.
    #[test]
    fn a_model_of_the_directions_projects_to_its_weights() {
        let dirs = directions();
        let theta: Vec<f64> = dirs.iter().map(|d| 0.3 * d.lo + 0.7 * d.hi).collect();
        let m = model_of(&dirs, &theta, serde_json::Value::Null);
        let back = project(&dirs, &m).expect("a linear model");
        for ((d, t), b) in dirs.iter().zip(&theta).zip(&back) {
            assert!((t - b).abs() < 1e-3 * (d.hi - d.lo), "{}: {t} {b}", d.name);
        }
    }

    /// Every direction's entries lie in the encoding, once each.
    #[test]
    fn directions_lie_in_the_encoding() {
        let dirs = directions();
        assert!((10..=40).contains(&dirs.len()));
        for d in &dirs {
            assert!(
                d.lo < d.hi && (d.lo..=d.hi).contains(&d.start),
                "{}",
                d.name
            );
            let mut seen = std::collections::HashSet::new();
            for &(i, w) in &d.entries {
                assert!(i < DECORATED_OBS_LEN && w != 0.0, "{}", d.name);
                assert!(seen.insert(i), "{}: {i} twice", d.name);
            }
        }
        let names: std::collections::HashSet<_> = dirs.iter().map(|d| d.name).collect();
        assert_eq!(names.len(), dirs.len());
    }

    /// The features count what they say on a dealt hand: the viewer's
    /// cards in hand and the points of its hand.
    #[test]
    fn features_count_cards_and_points() {
        let g = GameState::new(Rules::default(), 7);
        let mut obs = vec![0.0; DECORATED_OBS_LEN];
        let seat = 0;
        GameState::encode(&g.view(seat), &mut obs);
        let f = |name: &str| -> f64 {
            let d = directions().into_iter().find(|d| d.name == name).unwrap();
            d.entries
                .iter()
                .map(|&(i, w)| f64::from(w) * f64::from(obs[i]))
                .sum()
        };
        let hand = g.hand(seat);
        assert!((f("hand_cards") - hand.len() as f64).abs() < 1e-3);
        let pts = f64::from(hand.points() - 100 * hand.black_three_count() as i32);
        assert!(
            (f("hand_points") - pts).abs() < 1e-2,
            "{} {pts}",
            f("hand_points")
        );
    }

    /// The model of θ values a position `Σ θ_j f_j(x)`.
    #[test]
    fn the_model_is_the_weighted_features() {
        let dirs = directions();
        let theta: Vec<f64> = (0..dirs.len()).map(|j| j as f64 * 0.5 - 3.0).collect();
        let m = model_of(&dirs, &theta, serde_json::Value::Null);
        let g = GameState::new(Rules::default(), 3);
        let mut obs = vec![0.0; DECORATED_OBS_LEN];
        GameState::encode(&g.view(1), &mut obs);
        let want: f64 = dirs
            .iter()
            .zip(&theta)
            .map(|(d, t)| {
                t * d
                    .entries
                    .iter()
                    .map(|&(i, w)| f64::from(w) * f64::from(obs[i]))
                    .sum::<f64>()
            })
            .sum();
        let got = f64::from(m.margin(&obs, &mut []));
        assert!(
            (got - want).abs() < 1e-2 * want.abs().max(1.0),
            "{got} {want}"
        );
    }
}
