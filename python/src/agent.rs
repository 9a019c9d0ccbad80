//! The built-in agents from Python: `kanaszta.Agent(spec)` acting on a
//! `Game`, and `kanaszta.evaluate`, a Python policy (or a built-in agent)
//! against a built-in agent over paired deals, seeded and scored as the
//! command line's `play` seeds and scores its hands. The only file of the
//! module that uses the agents crate.

use crate::stats::Tally;
use crate::{make_rules, to_py, Game};
use kanaszta_agents::classic::play::play_classic_hand;
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::{
    play_hand, seat_rng, Agent as DecoratedAgent, AgentSpec, MoveBuf, SpecError,
};
use kanaszta_engine::classic::{ClassicAction, ClassicMatch, ClassicRules, ClassicState};
use kanaszta_engine::{seed, AnyAction, AnyGame, GameState, Rules};
use kanaszta_sim::stats::wilson;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Decisions a seat may take in one turn before the game is called off,
/// as the agents' own turn loop counts them.
const MAX_DECISIONS_PER_TURN: u32 = 2_000;

/// A spec parsed for the families it names a player of.
#[derive(Clone)]
struct Specs {
    text: String,
    decorated: Result<AgentSpec, SpecError>,
    classic: Result<AgentSpec<ClassicState>, SpecError>,
}

impl Specs {
    fn parse(text: &str, family: Option<&str>) -> PyResult<Specs> {
        let s = Specs {
            text: text.to_string(),
            decorated: text.parse::<AgentSpec>(),
            classic: text.parse::<AgentSpec<ClassicState>>(),
        };
        match family {
            Some("decorated") => drop(s.decorated_spec()?),
            Some(_) => drop(s.classic_spec()?),
            None if s.decorated.is_err() && s.classic.is_err() => drop(s.decorated_spec()?),
            None => {}
        }
        Ok(s)
    }
    fn decorated_spec(&self) -> PyResult<AgentSpec> {
        self.decorated
            .clone()
            .map_err(|e| PyValueError::new_err(format!("decorated canasta: {e}")))
    }
    fn classic_spec(&self) -> PyResult<AgentSpec<ClassicState>> {
        self.classic
            .clone()
            .map_err(|e| PyValueError::new_err(format!("classic canasta: {e}")))
    }
}

enum Built {
    None,
    Decorated(Box<dyn DecoratedAgent>, MoveBuf),
    Classic(
        Box<dyn kanaszta_agents::Agent<ClassicState>>,
        Vec<ClassicAction>,
    ),
}

/// A built-in agent (`kanaszta agents` lists them): `random`, `greedy`,
/// `rules`, `ismcts:iters=500`, `pimc:worlds=20`, ...
///
/// `Agent(spec, rules=None, seed=0)`: `rules` (a preset or a family name)
/// checks the spec against that family at once; without it the spec is
/// checked when the agent first acts, against the game's family. The agent
/// draws its randomness from its own generator, seeded by `seed`.
#[pyclass(module = "kanaszta", unsendable)]
pub struct Agent {
    specs: Specs,
    built: Built,
    rng: Pcg64Mcg,
}

fn family_of(rules: &str) -> PyResult<&'static str> {
    match rules {
        "decorated" | "classic" => Ok(if rules == "decorated" {
            "decorated"
        } else {
            "classic"
        }),
        preset => Ok(match make_rules(preset, 2, None)? {
            Ok(_) => "decorated",
            Err(_) => "classic",
        }),
    }
}

impl Agent {
    /// The agent built for the game's family (built on first use).
    fn built_for(&mut self, game: &AnyGame) -> PyResult<()> {
        let fits = matches!(
            (&self.built, game.family()),
            (Built::Decorated(..), "decorated") | (Built::Classic(..), "classic")
        );
        if !fits {
            self.built = match game.family() {
                "decorated" => {
                    Built::Decorated(self.specs.decorated_spec()?.build(), MoveBuf::default())
                }
                _ => Built::Classic(self.specs.classic_spec()?.build(), Vec::new()),
            };
        }
        Ok(())
    }
}

/// The built-in player of `game`'s mover chooses; its action.
fn choose(built: &mut Built, game: &AnyGame, rng: &mut Pcg64Mcg) -> AnyAction {
    let p = game.current_player();
    match (built, game.decorated(), game.classic()) {
        (Built::Decorated(a, buf), Some(g), _) => {
            let view = g.view(p);
            let mut moves = g.moves(buf);
            AnyAction::Decorated(a.act(&view, &mut moves, rng))
        }
        (Built::Classic(a, legal), _, Some(g)) => {
            g.legal_actions(legal);
            AnyAction::Classic(a.act(&g.view(p), &mut ClassicMoves::new(legal), rng))
        }
        _ => unreachable!("the agent is built for the game's family"),
    }
}

fn inform(built: &mut Built, player: usize, action: AnyAction) {
    match (built, action) {
        (Built::Decorated(a, _), AnyAction::Decorated(x)) => a.inform(player, x),
        (Built::Classic(a, _), AnyAction::Classic(x)) => a.inform(player, x),
        _ => {}
    }
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, rules = None, seed = 0))]
    fn new(spec: &str, rules: Option<&str>, seed: u64) -> PyResult<Agent> {
        let family = rules.map(family_of).transpose()?;
        Ok(Agent {
            specs: Specs::parse(spec, family)?,
            built: Built::None,
            rng: Pcg64Mcg::seed_from_u64(seed),
        })
    }

    /// The spec as given.
    #[getter]
    fn spec(&self) -> &str {
        &self.specs.text
    }

    /// The action id the agent chooses for the seat to move in `game`
    /// (the game is not changed). `ValueError` if the hand is over.
    fn act(&mut self, game: &Game) -> PyResult<u32> {
        let a = self.act_action(game)?;
        game.game.action_id(a).ok_or_else(|| {
            PyValueError::new_err(format!("the agent chose `{a}`, which has no action id"))
        })
    }

    /// As `act`, the action in text notation.
    fn act_text(&mut self, game: &Game) -> PyResult<String> {
        Ok(self.act_action(game)?.to_string())
    }

    /// Tells the agent what a player did (the command line tells every
    /// agent every action of the hand, its own included; agents that keep
    /// no memory ignore it). `action` is text or an id of `game`'s family,
    /// read in `game` before the action is applied.
    fn inform(
        &mut self,
        py: Python<'_>,
        game: &Game,
        player: usize,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let a = if let Ok(id) = action.extract::<u32>() {
            game.game.action_from_id(id)
        } else {
            game.game.parse(&action.extract::<String>()?)
        }
        .map_err(|e| to_py(py, e))?;
        self.built_for(&game.game)?;
        inform(&mut self.built, player, a);
        Ok(())
    }

    /// Forgets the hand (before a new one).
    fn restart(&mut self) {
        match &mut self.built {
            Built::Decorated(a, _) => a.restart(),
            Built::Classic(a, _) => a.restart(),
            Built::None => {}
        }
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.specs.text)
    }
}

impl Agent {
    fn act_action(&mut self, game: &Game) -> PyResult<AnyAction> {
        if game.game.is_terminal() {
            return Err(PyValueError::new_err("the hand is over: nobody is to act"));
        }
        self.built_for(&game.game)?;
        Ok(choose(&mut self.built, &game.game, &mut self.rng))
    }
}

/// The family's rules of an evaluation.
#[derive(Clone, Copy)]
enum EvalRules {
    Decorated(Rules),
    Classic(ClassicRules),
}

/// The hand of game `g`'s deal and the seats' generators, as `play` deals
/// them in mode hands.
fn deal_game(rules: EvalRules, deal_seed: u64) -> (AnyGame, Vec<Pcg64Mcg>) {
    match rules {
        EvalRules::Decorated(r) => {
            let g = GameState::new(r, deal_seed);
            let rngs = (0..g.players()).map(|p| seat_rng(deal_seed, p)).collect();
            (g.into(), rngs)
        }
        EvalRules::Classic(r) => {
            let g = ClassicMatch::new(r, deal_seed).next_hand();
            let s = seed::match_hand(deal_seed, 0);
            let rngs = (0..g.players()).map(|p| seat_rng(s, p)).collect();
            (g.into(), rngs)
        }
    }
}

/// Side scores of the policy's side (0) and the opponent's, or `None` for
/// a game an agent broke.
type Outcome = Option<(i32, i32)>;

/// Both seats' built-in agents through the agents crate's own loop: the
/// command line's play exactly.
fn native_game(
    rules: EvalRules,
    specs: [&Specs; 2],
    swapped: bool,
    deal_seed: u64,
) -> PyResult<Outcome> {
    let (game, mut rngs) = deal_game(rules, deal_seed);
    let players = game.players();
    let who = |p: usize| (p % 2) ^ usize::from(swapped);
    let side = |g: &AnyGame, i: usize| (0..players).find(|&p| who(p) == i).map(|p| g.side_of(p));
    match (rules, game) {
        (EvalRules::Decorated(_), g) => {
            let mut state = g.decorated().cloned().expect("decorated");
            let mut agents: Vec<_> = (0..players)
                .map(|p| specs[who(p)].decorated_spec().map(|s| s.build()))
                .collect::<PyResult<_>>()?;
            if play_hand(&mut state, &mut agents, &mut rngs).is_err() {
                return Ok(None);
            }
            let g: AnyGame = state.into();
            let s = g.scores();
            Ok(Some((
                s[side(&g, 0).unwrap_or(0)],
                s[side(&g, 1).unwrap_or(1)],
            )))
        }
        (EvalRules::Classic(_), g) => {
            let mut state: ClassicState = g.classic().cloned().expect("classic");
            let mut agents: Vec<_> = (0..players)
                .map(|p| specs[who(p)].classic_spec().map(|s| s.build()))
                .collect::<PyResult<_>>()?;
            if play_classic_hand(&mut state, &mut agents, &mut rngs).is_err() {
                return Ok(None);
            }
            let g: AnyGame = state.into();
            let s = g.scores();
            Ok(Some((
                s[side(&g, 0).unwrap_or(0)],
                s[side(&g, 1).unwrap_or(1)],
            )))
        }
    }
}

/// Games `0..hands` of two built-in agents on `threads` threads, without
/// the GIL: their outcomes in game order (the figures do not depend on
/// the threads, as the command line's do not).
fn native_games(
    py: Python<'_>,
    rules: EvalRules,
    specs: [&Specs; 2],
    seed: u64,
    hands: u64,
    threads: usize,
) -> PyResult<Vec<Outcome>> {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Mutex;
    let next = AtomicU64::new(0);
    let outs: Mutex<Vec<(u64, PyResult<Outcome>)>> = Mutex::new(Vec::new());
    py.detach(|| {
        std::thread::scope(|s| {
            for _ in 0..threads.min(hands.max(1) as usize) {
                s.spawn(|| loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= hands {
                        break;
                    }
                    let r = native_game(rules, specs, g % 2 == 1, seed::deal(seed, g / 2));
                    let failed = r.is_err();
                    if let Ok(mut o) = outs.lock() {
                        o.push((g, r));
                    }
                    if failed {
                        next.store(hands, Ordering::Relaxed);
                    }
                });
            }
        })
    });
    let mut outs = outs
        .into_inner()
        .map_err(|_| PyValueError::new_err("a worker thread failed"))?;
    outs.sort_by_key(|(g, _)| *g);
    outs.into_iter().map(|(_, r)| r).collect()
}

/// The policy's player: a Python callable, or a built-in agent played
/// through the same loop (which a test compares with the command line's).
enum Policy<'a, 'py> {
    Python(&'a Bound<'py, PyAny>),
    Agent(&'a Specs),
}

fn build(spec: &Specs, rules: EvalRules) -> PyResult<Built> {
    Ok(match rules {
        EvalRules::Decorated(_) => {
            Built::Decorated(spec.decorated_spec()?.build(), MoveBuf::default())
        }
        EvalRules::Classic(_) => Built::Classic(spec.classic_spec()?.build(), Vec::new()),
    })
}

/// The policy in the policy's seats, the built-in opponent in the others,
/// by the same turn loop as the agents crate's: players restarted, told
/// every action, a turn called off after its decision limit. A built-in
/// player's illegal action or endless turn ends the game as an error of
/// the game (`None`), as the command line counts it; a Python policy's
/// raises.
#[allow(clippy::too_many_arguments)]
fn policy_game(
    py: Python<'_>,
    rules: EvalRules,
    policy: &Policy<'_, '_>,
    opponent: &Specs,
    swapped: bool,
    deal_seed: u64,
    g_index: u64,
) -> PyResult<Outcome> {
    let (mut game, mut rngs) = deal_game(rules, deal_seed);
    let players = game.players();
    let mine = |p: usize| (p % 2) ^ usize::from(swapped) == 0;
    let python = |p: usize| mine(p) && matches!(policy, Policy::Python(_));
    let mut agents: Vec<Built> = Vec::with_capacity(players);
    for p in 0..players {
        agents.push(match (mine(p), policy) {
            (true, Policy::Python(_)) => Built::None,
            (true, Policy::Agent(spec)) => build(spec, rules)?,
            (false, _) => build(opponent, rules)?,
        });
    }
    for a in agents.iter_mut() {
        match a {
            Built::Decorated(a, _) => a.restart(),
            Built::Classic(a, _) => a.restart(),
            Built::None => {}
        }
    }
    let mut scratch: Vec<bool> = Vec::new();
    let mut last = (u32::MAX, usize::MAX);
    let mut in_turn = 0u32;
    while !game.is_terminal() {
        let p = game.current_player();
        if (game.turns(), p) != last {
            last = (game.turns(), p);
            in_turn = 0;
        }
        in_turn += 1;
        if in_turn > MAX_DECISIONS_PER_TURN {
            if python(p) {
                return Err(PyValueError::new_err(format!(
                    "game {g_index}: the policy did not end its turn within {MAX_DECISIONS_PER_TURN} decisions"
                )));
            }
            return Ok(None);
        }
        let action = if let (true, Policy::Python(policy)) = (mine(p), policy) {
            let obs = PyArray1::<f32>::zeros(py, game.obs_len(), false);
            {
                let mut o = obs.readwrite();
                game.encode(p, o.as_slice_mut()?)
                    .map_err(|e| to_py(py, e))?;
            }
            // The policy gets a copy of the mask: what it does to its
            // array cannot change what is legal.
            scratch.clear();
            scratch.resize(game.action_ids(), false);
            game.legal_mask(&mut scratch).map_err(|e| to_py(py, e))?;
            let mask = PyArray1::from_slice(py, &scratch);
            let id: i64 = policy.call1((obs, mask))?.extract().map_err(|_| {
                PyValueError::new_err("the policy must return an action id (an int)")
            })?;
            let legal = usize::try_from(id)
                .ok()
                .is_some_and(|i| scratch.get(i).copied().unwrap_or(false));
            if !legal {
                return Err(PyValueError::new_err(format!(
                    "game {g_index}, seat {p}: the policy chose action id {id}, which the mask does not allow"
                )));
            }
            game.action_from_id(id as u32).map_err(|e| to_py(py, e))?
        } else {
            choose(&mut agents[p], &game, &mut rngs[p])
        };
        if let Err(e) = game.apply(action) {
            if python(p) {
                return Err(to_py(py, e));
            }
            return Ok(None);
        }
        for a in agents.iter_mut() {
            inform(a, p, action);
        }
    }
    let s = game.scores();
    let side = |i: usize| {
        (0..players)
            .find(|&p| mine(p) == (i == 0))
            .map(|p| game.side_of(p))
    };
    Ok(Some((s[side(0).unwrap_or(0)], s[side(1).unwrap_or(1)])))
}

/// Plays `policy` against a built-in agent over paired deals and returns
/// the command line's statistics of the policy's side.
///
/// `evaluate(policy, opponent="rules", hands=1000, seed=0, rules="decorated-2003-02", players=2, set=None)`:
/// `policy` is a callable `(observation, mask) -> action id` (NumPy
/// arrays of the mover's encoding and legal mask), a `kanaszta.Agent`, or
/// an agent spec; it sits in the even seats of even games and the odd
/// seats of odd games. Game `g` deals deal `g // 2` from `seed` as
/// `kanaszta play --hands N --seed S` does; a policy given as an agent
/// plays through the agents' own loop, on `threads` threads (0: one a
/// core; the figures do not depend on it), so `evaluate("greedy",
/// "random", ...)` gives `play --a greedy --b random`'s figures on the
/// same seed. A Python policy plays on the calling thread.
#[pyfunction]
#[pyo3(signature = (policy, opponent = "rules", hands = 1000, seed = 0, rules = "decorated-2003-02", players = 2, set = None, threads = 0))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    opponent: &str,
    hands: u64,
    seed: u64,
    rules: &str,
    players: usize,
    set: Option<&Bound<'py, PyDict>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let er = match make_rules(rules, players, set)? {
        Ok(r) => EvalRules::Decorated(r),
        Err(r) => EvalRules::Classic(r),
    };
    let family = match er {
        EvalRules::Decorated(r) => {
            if r.players != 2 {
                return Err(PyValueError::new_err(format!(
                    "decorated canasta is evaluated between two players; players = {}",
                    r.players
                )));
            }
            "decorated"
        }
        EvalRules::Classic(r) => {
            if r.sides() != 2 {
                return Err(PyValueError::new_err(format!(
                    "classic canasta is evaluated between two sides: 2 or 4 players, not {}",
                    r.players
                )));
            }
            "classic"
        }
    };
    let opp = Specs::parse(opponent, Some(family))?;
    let native: Option<Specs> = if let Ok(a) = policy.cast::<Agent>() {
        Some(Specs::parse(&a.borrow().specs.text, Some(family))?)
    } else if let Ok(s) = policy.extract::<String>() {
        Some(Specs::parse(&s, Some(family))?)
    } else if policy.is_callable() {
        None
    } else {
        return Err(PyValueError::new_err(
            "policy is a callable (observation, mask) -> action id, a kanaszta.Agent or an agent spec",
        ));
    };
    let mut t = Tally::default();
    let mut count = |g: u64, out: Outcome| match out {
        Some((a, b)) => t.add(g / 2, a, b),
        None => t.errors += 1,
    };
    match &native {
        Some(mine) if threads == 1 => {
            // One thread: the loop a Python policy plays through.
            for g in 0..hands {
                let deal_seed = seed::deal(seed, g / 2);
                let p = Policy::Agent(mine);
                count(g, policy_game(py, er, &p, &opp, g % 2 == 1, deal_seed, g)?);
                if g % 64 == 63 {
                    py.check_signals()?;
                }
            }
        }
        Some(mine) => {
            let threads = match threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            for (g, out) in native_games(py, er, [mine, &opp], seed, hands, threads)?
                .into_iter()
                .enumerate()
            {
                count(g as u64, out);
            }
        }
        None => {
            for g in 0..hands {
                let deal_seed = seed::deal(seed, g / 2);
                let p = Policy::Python(policy);
                count(g, policy_game(py, er, &p, &opp, g % 2 == 1, deal_seed, g)?);
                if g % 64 == 63 {
                    py.check_signals()?;
                }
            }
        }
    }
    t.finish();
    let d = PyDict::new(py);
    d.set_item("hands", t.hands)?;
    d.set_item("wins", t.wins)?;
    d.set_item("ties", t.ties)?;
    d.set_item("errors", t.errors)?;
    d.set_item("deals", t.diff.n())?;
    d.set_item(
        "win_rate",
        wilson(t.wins as f64 + t.ties as f64 / 2.0, t.hands as f64),
    )?;
    d.set_item("points", t.raw.interval())?;
    d.set_item("diff", t.diff.interval())?;
    Ok(d)
}

/// Registers `Agent` and `evaluate`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    Ok(())
}
