//! `value`: one step ahead over the listed actions, each judged by a
//! learned value model ([`ValueModel`], fitted by `kanaszta learn fit`):
//! the agent deals the unseen cards once at random (one world per
//! decision), applies each listed action to it, and plays the action
//! whose position its model values highest from its seat (a finished hand
//! by its true margin). The model file is read once, when the spec is
//! parsed; a file that is not a model, or a model of another family or
//! encoding, is refused then with a message, never a panic.
//!
//! The forward pass of a linear model or of a one-hidden-layer network
//! over the encoding ([`Encode`]) is done here, in buffers the agent
//! keeps: a decision allocates nothing for it.

use crate::agent_params;
use crate::classic::greedy::ClassicGreedy;
use crate::family::ClassicMoves;
use crate::spec::{range, switch, ParamText};
use crate::{Agent, Family, TurnFinisher};
use crate::{GreedyAgent, GreedyParams};
use kanaszta_engine::classic::{ClassicAction, ClassicState, ClassicView};
use kanaszta_engine::{Action, Encode, Game, GameState, Moves, SeatView, ENCODING_VERSION};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use crate::spec::{ModelError, MODEL_FORMAT};

/// What a model computes from an encoding.
#[derive(Clone, Debug, PartialEq)]
pub enum Net {
    /// `bias + Σ weights[i] x[i]`.
    Linear {
        /// One weight per entry of the encoding.
        weights: Vec<f32>,
        /// The bias.
        bias: f32,
    },
    /// `b2 + Σ_h w2[h] relu(b1[h] + Σ_i w1[i hidden + h] x[i])`.
    Mlp {
        /// Hidden units.
        hidden: usize,
        /// Input weights, input-major: `w1[i * hidden + h]`.
        w1: Vec<f32>,
        /// Hidden biases.
        b1: Vec<f32>,
        /// Output weights.
        w2: Vec<f32>,
        /// Output bias.
        b2: f32,
    },
}

/// A value model: the margin a seat's side ends its hand with, predicted
/// from the seat's encoding as `mean + scale · net(x)`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueModel {
    /// The rule family (`decorated`, `classic`).
    pub family: String,
    /// The encoding's version ([`ENCODING_VERSION`]).
    pub encoding_version: u32,
    /// The encoding's length.
    pub obs_len: usize,
    /// The margin's mean in the training rows.
    pub mean: f32,
    /// The margin's scale (its standard deviation in the training rows).
    pub scale: f32,
    /// The network.
    pub net: Net,
    /// What it was trained on and how well it did (as written by `learn
    /// fit`; not read by the agent).
    pub training: serde_json::Value,
}

fn floats(v: &serde_json::Value, key: &str, len: usize) -> Result<Vec<f32>, ModelError> {
    let a = v[key]
        .as_array()
        .ok_or_else(|| ModelError::Field(format!("no array \"{key}\"")))?;
    if a.len() != len {
        return Err(ModelError::Field(format!(
            "\"{key}\" holds {} numbers, {len} expected",
            a.len()
        )));
    }
    a.iter()
        .map(|x| {
            x.as_f64()
                .map(|x| x as f32)
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    ModelError::Field(format!(
                        "\"{key}\" holds something other than a finite number"
                    ))
                })
        })
        .collect()
}

fn float(v: &serde_json::Value, key: &str) -> Result<f32, ModelError> {
    v[key]
        .as_f64()
        .map(|x| x as f32)
        .filter(|x| x.is_finite())
        .ok_or_else(|| ModelError::Field(format!("no number \"{key}\"")))
}

impl ValueModel {
    /// The model of the JSON text of a model file.
    pub fn from_json(text: &str) -> Result<ValueModel, ModelError> {
        let field = |e: &str| ModelError::Field(e.to_string());
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ModelError::NotJson(e.to_string()))?;
        if v["format"] != MODEL_FORMAT {
            return Err(ModelError::NotModel);
        }
        let family = v["family"]
            .as_str()
            .ok_or_else(|| field("no \"family\""))?
            .to_string();
        let encoding_version = v["encoding_version"]
            .as_u64()
            .ok_or_else(|| field("no \"encoding_version\""))? as u32;
        let obs_len = v["obs_len"]
            .as_u64()
            .ok_or_else(|| field("no \"obs_len\""))? as usize;
        let net = match v["kind"].as_str() {
            Some("linear") => Net::Linear {
                weights: floats(&v, "weights", obs_len)?,
                bias: float(&v, "bias")?,
            },
            Some("mlp") => {
                let hidden = v["hidden"]
                    .as_u64()
                    .filter(|h| (1..=4096).contains(h))
                    .ok_or_else(|| field("no \"hidden\" (1..4096)"))?
                    as usize;
                Net::Mlp {
                    hidden,
                    w1: floats(&v, "w1", obs_len * hidden)?,
                    b1: floats(&v, "b1", hidden)?,
                    w2: floats(&v, "w2", hidden)?,
                    b2: float(&v, "b2")?,
                }
            }
            _ => return Err(field("\"kind\" is neither \"linear\" nor \"mlp\"")),
        };
        Ok(ValueModel {
            family,
            encoding_version,
            obs_len,
            mean: float(&v, "mean")?,
            scale: float(&v, "scale")?,
            net,
            training: v["training"].clone(),
        })
    }

    /// The model file's JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "format": MODEL_FORMAT,
            "family": self.family,
            "encoding_version": self.encoding_version,
            "obs_len": self.obs_len,
            "mean": self.mean,
            "scale": self.scale,
            "training": self.training,
        });
        match &self.net {
            Net::Linear { weights, bias } => {
                v["kind"] = "linear".into();
                v["bias"] = (*bias).into();
                v["weights"] = weights.clone().into();
            }
            Net::Mlp {
                hidden,
                w1,
                b1,
                w2,
                b2,
            } => {
                v["kind"] = "mlp".into();
                v["hidden"] = (*hidden).into();
                v["b2"] = (*b2).into();
                v["w2"] = w2.clone().into();
                v["b1"] = b1.clone().into();
                v["w1"] = w1.clone().into();
            }
        }
        v
    }

    /// Reads a model file and checks it is of the family `G` and its
    /// encoding; the error names the file and what was wrong.
    pub fn load<G: Encode>(path: &Path) -> Result<ValueModel, ModelError> {
        let p = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ModelError::Read(format!("cannot read {p}: {e}")))?;
        let within = |e| ModelError::In {
            path: p.to_string(),
            source: Box::new(e),
        };
        let m = ValueModel::from_json(&text).map_err(within)?;
        m.check::<G>().map_err(within)?;
        Ok(m)
    }

    /// Whether the model reads the encoding of `G`.
    pub fn check<G: Encode>(&self) -> Result<(), ModelError> {
        if self.family != G::FAMILY {
            return Err(ModelError::Family {
                model: self.family.clone(),
                game: G::FAMILY,
            });
        }
        if self.encoding_version != ENCODING_VERSION || self.obs_len != G::OBS_LEN {
            return Err(ModelError::Encoding {
                version: self.encoding_version,
                len: self.obs_len,
                want: G::OBS_LEN,
            });
        }
        Ok(())
    }

    /// Hidden units (0 for a linear model): the length of the scratch
    /// [`ValueModel::margin`] needs.
    pub fn hidden(&self) -> usize {
        match &self.net {
            Net::Linear { .. } => 0,
            Net::Mlp { hidden, .. } => *hidden,
        }
    }

    /// The network's output (in units of `scale` about `mean`) for the
    /// encoding's non-zero entries `(index, value)`; `h` is scratch of
    /// [`ValueModel::hidden`] numbers.
    pub fn raw(&self, entries: impl Iterator<Item = (usize, f32)>, h: &mut [f32]) -> f32 {
        match &self.net {
            Net::Linear { weights, bias } => {
                bias + entries.map(|(i, x)| weights[i] * x).sum::<f32>()
            }
            Net::Mlp {
                hidden,
                w1,
                b1,
                w2,
                b2,
            } => {
                let h = &mut h[..*hidden];
                h.copy_from_slice(b1);
                for (i, x) in entries {
                    let row = &w1[i * hidden..(i + 1) * hidden];
                    for (a, w) in h.iter_mut().zip(row) {
                        *a += w * x;
                    }
                }
                b2 + h.iter().zip(w2).map(|(a, w)| a.max(0.0) * w).sum::<f32>()
            }
        }
    }

    /// The predicted margin of a dense encoding `obs`.
    pub fn margin(&self, obs: &[f32], h: &mut [f32]) -> f32 {
        let entries = obs[..self.obs_len]
            .iter()
            .enumerate()
            .filter(|(_, &x)| x != 0.0)
            .map(|(i, &x)| (i, x));
        self.mean + self.scale * self.raw(entries, h)
    }
}

/// A `model=FILE` parameter: the file's name and, once parsed, the model.
#[derive(Clone, Default)]
pub struct ModelFile {
    /// The file as given.
    pub path: String,
    /// The model read from it.
    pub model: Option<Arc<ValueModel>>,
}

impl PartialEq for ModelFile {
    fn eq(&self, other: &ModelFile) -> bool {
        self.path == other.path
    }
}

impl fmt::Debug for ModelFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ModelFile({:?})", self.path)
    }
}

impl ParamText for ModelFile {
    fn text(&self) -> String {
        self.path.clone()
    }
}

/// Reads the model file `text` names, for the family `G`.
pub fn model_file<G: Encode>(text: &str) -> Result<ModelFile, ModelError> {
    if text.is_empty() {
        return Ok(ModelFile::default());
    }
    let m = ValueModel::load::<G>(Path::new(text))?;
    Ok(ModelFile {
        path: text.to_string(),
        model: Some(Arc::new(m)),
    })
}

agent_params! {
    /// Parameters of the decorated [`ValueAgent`].
    pub struct ValueParams for ValueAgent<GameState> {
        name: "value",
        summary: "one step ahead over the listed actions, judged by a learned value model (model=FILE of `kanaszta learn fit`)",
        /// The model file.
        model: ModelFile = ModelFile::default(), model_file::<GameState>, "a file of `kanaszta learn fit` (decorated)", "the value model; without one every position is worth 0 and the first listed action is played";
        /// Meld actions in a turn before it ends the turn by the shortest way.
        patience: u32 = 30, range(1, 10_000), "1..10000", "meld actions in a turn before it ends the turn by the shortest way";
        /// Judges whole turns: each listed action followed by `greedy` to
        /// the end of the turn, the position there valued by the model.
        turn: bool = false, switch, "on|off", "on: judges each listed action by the position at the end of its turn, the rest of the turn played by greedy";
        /// Worlds a turn-level decision averages over.
        worlds: u32 = 1, range(1, 64), "1..64", "with turn=on: the sampled worlds each action is judged in (the same ones for every action)";
    }
}

agent_params! {
    /// Parameters of the classic [`ValueAgent`].
    pub struct ClassicValueParams for classic ValueAgent<ClassicState> {
        name: "value",
        summary: "one step ahead over the listed actions, judged by a learned value model (model=FILE of `kanaszta learn fit`)",
        /// The model file.
        model: ModelFile = ModelFile::default(), model_file::<ClassicState>, "a file of `kanaszta learn fit` (classic)", "the value model; without one every position is worth 0 and the first listed action is played";
        /// Judges whole turns: each listed action followed by `greedy` to
        /// the end of the turn, the position there valued by the model.
        turn: bool = false, switch, "on|off", "on: judges each listed action by the position at the end of its turn, the rest of the turn played by greedy";
        /// Worlds a turn-level decision averages over.
        worlds: u32 = 1, range(1, 64), "1..64", "with turn=on: the sampled worlds each action is judged in (the same ones for every action)";
    }
}

/// What the agent needs of a family beyond [`Family`] and [`Encode`].
pub trait ValueFamily: Family + Encode {
    /// The seat a view is of.
    fn seat(view: &Self::View<'_>) -> usize;
    /// Whether an action undoes the turn's melds (never chosen while
    /// another is listed: a one-step judge could undo and redo forever).
    fn undoes(action: &Self::Action) -> bool;
    /// The player that ends a turn a turn-level judge begins: the
    /// family's `greedy` (decorated: walking, not searching deeper, where
    /// the finisher's usual search finds no way).
    fn completer() -> Box<dyn Agent<Self>>;
}

impl ValueFamily for GameState {
    fn seat(view: &SeatView<'_>) -> usize {
        view.seat()
    }
    fn undoes(a: &Action) -> bool {
        matches!(
            a,
            Action::Reset
                | Action::TakeBack { .. }
                | Action::TakeBackHeartAce
                | Action::TakeWild { .. }
        )
    }
    fn completer() -> Box<dyn Agent<GameState>> {
        Box::new(GreedyAgent::new(GreedyParams {
            walk: true,
            ..GreedyParams::default()
        }))
    }
}

impl ValueFamily for ClassicState {
    fn seat(view: &ClassicView<'_>) -> usize {
        view.seat()
    }
    fn undoes(a: &ClassicAction) -> bool {
        matches!(a, ClassicAction::Reset | ClassicAction::TakeBack { .. })
    }
    fn completer() -> Box<dyn Agent<ClassicState>> {
        Box::new(ClassicGreedy)
    }
}

/// The value player of the family `G`.
pub struct ValueAgent<G: ValueFamily> {
    model: Option<Arc<ValueModel>>,
    patience: u32,
    finisher: TurnFinisher,
    obs: Vec<f32>,
    hidden: Vec<f32>,
    /// With `turn=on`: the player that ends each judged turn, and the
    /// worlds a decision averages over.
    turns: Option<TurnJudge<G>>,
    _g: std::marker::PhantomData<G>,
}

/// What a turn-level decision keeps: the player ending each judged turn,
/// its listing's buffers, the worlds and the sums of values.
struct TurnJudge<G: ValueFamily> {
    completer: Box<dyn Agent<G>>,
    scratch: G::Scratch,
    worlds: u32,
    sums: Vec<f32>,
}

/// Actions a judged turn plays at most after its first (a turn has far
/// fewer; a longer one is judged where it stands).
const TURN_STEPS: usize = 200;

impl<G: ValueFamily> ValueAgent<G> {
    fn with(model: &ModelFile, patience: u32, turn: bool, worlds: u32) -> ValueAgent<G> {
        let hidden = model.model.as_ref().map_or(0, |m| m.hidden());
        ValueAgent {
            model: model.model.clone(),
            patience,
            finisher: TurnFinisher::default(),
            obs: vec![0.0; G::OBS_LEN],
            hidden: vec![0.0; hidden],
            turns: turn.then(|| TurnJudge {
                completer: G::completer(),
                scratch: G::Scratch::default(),
                worlds,
                sums: Vec::new(),
            }),
            _g: std::marker::PhantomData,
        }
    }

    /// The value, from `seat`'s side, of the position `s` (a finished
    /// hand by its true margin); `None` without a model.
    fn value_of(&mut self, s: &G, seat: usize) -> Option<f32> {
        if s.is_terminal() {
            let side = s.side_of(seat);
            let best = (0..s.sides())
                .filter(|&x| x != side)
                .map(|x| s.side_score(x))
                .max()
                .unwrap_or(0);
            return Some((s.side_score(side) - best) as f32);
        }
        let m = self.model.as_ref()?;
        G::encode(&s.view(seat), &mut self.obs);
        Some(m.margin(&self.obs, &mut self.hidden))
    }

    /// The value, from `seat`'s side, of the end of the turn that begins
    /// with `action` in `world`, the rest of the turn played by the
    /// completer with a generator seeded by `seed`; `None` if the world
    /// refuses an action of it.
    fn judge_turn(&mut self, world: &G, seat: usize, action: G::Action, seed: u64) -> Option<f32> {
        let mut s = world.clone();
        s.apply(action).ok()?;
        let t = world.turns();
        let judge = self.turns.as_mut().expect("a turn-level agent");
        judge.completer.restart();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..TURN_STEPS {
            if s.is_terminal() || s.turns() != t {
                break;
            }
            let p = s.current_player();
            let (_, r) = G::play_one(
                &mut *judge.completer,
                &mut s,
                p,
                &mut judge.scratch,
                &mut rng,
                &mut (),
            );
            r.ok()?;
        }
        self.value_of(&s, seat)
    }

    /// The listed action whose turn ends in the best position, averaged
    /// over `worlds` sampled worlds (the same for every action, each
    /// action's turn finished with the same generator); undoing actions
    /// only when no other is listed; ties to the first listed.
    fn choose_turn(
        &mut self,
        view: &G::View<'_>,
        listed: &[G::Action],
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        let seat = G::seat(view);
        let forward = listed.iter().any(|a| !G::undoes(a));
        let worlds = self.turns.as_ref().map_or(1, |j| j.worlds);
        let mut sums = std::mem::take(&mut self.turns.as_mut().expect("turn=on").sums);
        sums.clear();
        sums.resize(listed.len(), 0.0);
        for _ in 0..worlds {
            let world = G::determinize(view, rng);
            let seed = rng.next_u64();
            for (i, &a) in listed.iter().enumerate() {
                if forward && G::undoes(&a) {
                    sums[i] = f32::NEG_INFINITY;
                    continue;
                }
                sums[i] += self
                    .judge_turn(&world, seat, a, seed)
                    .unwrap_or(f32::NEG_INFINITY);
            }
        }
        let mut best: Option<(f32, G::Action)> = None;
        for (&v, &a) in sums.iter().zip(listed) {
            if v > f32::NEG_INFINITY && best.is_none_or(|(b, _)| v > b) {
                best = Some((v, a));
            }
        }
        self.turns.as_mut().expect("turn=on").sums = sums;
        best.map_or_else(
            || {
                *listed
                    .iter()
                    .find(|a| !forward || !G::undoes(a))
                    .unwrap_or(&listed[0])
            },
            |(_, a)| a,
        )
    }

    /// The value of the position after `action` in `world`, from `seat`'s
    /// side; `None` if the world refuses the action.
    fn judge(&mut self, world: &G, seat: usize, action: G::Action) -> Option<f32> {
        let mut s = world.clone();
        s.apply(action).ok()?;
        self.value_of(&s, seat)
    }

    /// The listed action of the best value, undoing ones only when no
    /// other is listed; ties to the first listed.
    fn choose(
        &mut self,
        view: &G::View<'_>,
        listed: &[G::Action],
        rng: &mut Pcg64Mcg,
    ) -> G::Action {
        if self.turns.is_some() {
            return self.choose_turn(view, listed, rng);
        }
        let seat = G::seat(view);
        let world = G::determinize(view, rng);
        let mut best: Option<(f32, G::Action)> = None;
        let forward = listed.iter().any(|a| !G::undoes(a));
        for &a in listed {
            if forward && G::undoes(&a) {
                continue;
            }
            let v = self.judge(&world, seat, a).unwrap_or(f32::NEG_INFINITY);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, a));
            }
        }
        best.map_or(listed[0], |(_, a)| a)
    }
}

impl ValueAgent<GameState> {
    /// A decorated value player.
    pub fn new(p: ValueParams) -> ValueAgent<GameState> {
        ValueAgent::with(&p.model, p.patience, p.turn, p.worlds)
    }
}

impl ValueAgent<ClassicState> {
    /// A classic value player.
    pub fn new(p: ClassicValueParams) -> ValueAgent<ClassicState> {
        ValueAgent::with(&p.model, u32::MAX, p.turn, p.worlds)
    }
}

impl Agent<GameState> for ValueAgent<GameState> {
    fn name(&self) -> String {
        "value".into()
    }
    fn restart(&mut self) {
        self.finisher.reset();
    }
    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        let legal = moves.all();
        if self.finisher.step(view) > self.patience {
            if let Some(a) = self.finisher.next(view, legal, rng) {
                return a;
            }
        }
        self.choose(view, legal, rng)
    }
}

impl Agent<ClassicState> for ValueAgent<ClassicState> {
    fn name(&self) -> String {
        "value".into()
    }
    fn act(
        &mut self,
        view: &ClassicView,
        moves: &mut ClassicMoves,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let legal = moves.all();
        self.choose(view, legal, rng)
    }
}

/// A learned evaluation of a search's cut rollouts (`ismcts:eval=FILE`):
/// the model's predicted margin for the searching seat, turned into the
/// search's reward as a finished hand's margin is (its sign weighed by
/// `win`, the margin over `scale` clamped to ±1; untaxed). A finished hand,
/// or no model, is scored by [`reward`](crate::search::reward) itself.
#[derive(Clone, Debug, Default)]
pub struct LeafEval {
    model: Option<Arc<ValueModel>>,
    obs: Vec<f32>,
    hidden: Vec<f32>,
}

impl LeafEval {
    /// The evaluation of a `model=`/`eval=` parameter.
    pub fn new(m: &ModelFile) -> LeafEval {
        LeafEval {
            model: m.model.clone(),
            obs: vec![
                0.0;
                if m.model.is_some() {
                    GameState::OBS_LEN
                } else {
                    0
                }
            ],
            hidden: vec![0.0; m.model.as_ref().map_or(0, |m| m.hidden())],
        }
    }

    /// The reward of the simulated hand `g` for seat `me`.
    pub fn reward(&mut self, g: &GameState, me: usize, rp: &crate::search::RewardParams) -> f64 {
        match &self.model {
            Some(m) if !g.is_terminal() => {
                GameState::encode(&g.view(me), &mut self.obs);
                let d = m.margin(&self.obs, &mut self.hidden) as f64;
                let sign = if d > 0.0 {
                    1.0
                } else if d < 0.0 {
                    -1.0
                } else {
                    0.0
                };
                rp.win * sign + (1.0 - rp.win) * (d / rp.scale).clamp(-1.0, 1.0)
            }
            _ => crate::search::reward(g, me, rp),
        }
    }
}

/// A learned judge of positions for the searches of [`crate::generic`]
/// (classic `ismcts:eval=FILE`, `pimc:eval=FILE`): the margin the model
/// predicts for a seat's side, read from the seat's encoding in buffers
/// it keeps.
pub struct ModelJudge<G: Game> {
    model: Arc<ValueModel>,
    encode: fn(&G, usize, &mut [f32]),
    obs: Vec<f32>,
    hidden: Vec<f32>,
}

/// Writes `seat`'s encoding of `g` into `out`.
fn encode_seat<G: Encode>(g: &G, seat: usize, out: &mut [f32]) {
    G::encode(&g.view(seat), out);
}

impl<G: Encode> ModelJudge<G> {
    /// The judge of a model read for `G` ([`model_file`]).
    pub fn new(model: Arc<ValueModel>) -> ModelJudge<G> {
        ModelJudge {
            encode: encode_seat::<G>,
            obs: vec![0.0; G::OBS_LEN],
            hidden: vec![0.0; model.hidden()],
            model,
        }
    }

    /// The judge of an `eval=` parameter (`None` without a model).
    pub fn of(m: &ModelFile) -> Option<ModelJudge<G>> {
        m.model.clone().map(ModelJudge::new)
    }
}

impl<G: Game> ModelJudge<G> {
    /// The margin, in points, `seat`'s side is predicted to end the hand
    /// of `g` with (its score less the best other side's).
    pub fn margin(&mut self, g: &G, seat: usize) -> f64 {
        (self.encode)(g, seat, &mut self.obs);
        f64::from(self.model.margin(&self.obs, &mut self.hidden))
    }
}

impl<G: Game> Clone for ModelJudge<G> {
    fn clone(&self) -> ModelJudge<G> {
        ModelJudge {
            model: self.model.clone(),
            encode: self.encode,
            obs: self.obs.clone(),
            hidden: self.hidden.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for ModelJudge<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ModelJudge({} model)", self.model.family)
    }
}
