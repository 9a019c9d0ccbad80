//! The `kanaszta` Python module: [`AnyGame`] as `kanaszta.Game`, and
//! `kanaszta.VectorGame`, n hands stepped by one call.
//!
//! Observations and masks are NumPy arrays of the documented encoding and
//! action ids (docs/ENCODING.md); an action the rules refuse raises
//! `kanaszta.IllegalAction`, a `ValueError` carrying the rule identifier.

use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::classic::{is_classic_position, ClassicPosition};
use kanaszta_engine::{AnyError, AnyGame, Position, Rules};

mod agent;
mod matches;
mod stats;
mod vector;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

create_exception!(
    kanaszta,
    IllegalAction,
    PyValueError,
    "An action the rules refuse; `rule` holds the rule identifier (`D-6.3`, `C-12`, ...)."
);

/// The Python exception for an engine error: `IllegalAction` with its
/// `rule` for a refused action, `ValueError` for anything else.
fn to_py(py: Python<'_>, e: AnyError) -> PyErr {
    match e {
        AnyError::Illegal(r) => illegal(py, r.rule, &r.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn illegal(py: Python<'_>, rule: &str, message: &str) -> PyErr {
    let err = IllegalAction::new_err(message.to_string());
    if let Err(e) = err.value(py).setattr("rule", rule) {
        return e;
    }
    err
}

/// Rule switches from a Python dict: keys and values as text; `True` and
/// `False` become `on` and `off`.
fn settings(set: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = set {
        for (k, v) in d.iter() {
            let key: String = k.str()?.extract()?;
            let value: String = if let Ok(b) = v.extract::<bool>() {
                if b { "on" } else { "off" }.to_string()
            } else {
                v.str()?.extract()?
            };
            out.push((key, value));
        }
    }
    Ok(out)
}

/// The rules of a preset with switches: decorated (`Ok`) or classic
/// (`Err`), checked as `Game` checks them.
fn make_rules(
    rules: &str,
    players: usize,
    set: Option<&Bound<'_, PyDict>>,
) -> PyResult<Result<Rules, ClassicRules>> {
    let g = make(rules, players, &settings(set)?, 0)?;
    Ok(match (g.decorated(), g.classic()) {
        (Some(d), _) => Ok(*d.rules()),
        (_, Some(c)) => Err(*c.rules()),
        _ => unreachable!("a hand is of one family"),
    })
}

fn make(rules: &str, players: usize, set: &[(String, String)], seed: u64) -> PyResult<AnyGame> {
    let pairs: Vec<(&str, &str)> = set.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    AnyGame::with_settings(rules, players, &pairs, seed)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// One hand of decorated or classic canasta.
///
/// `Game(rules="decorated-2003-02", players=2, seed=0, set=None)`:
/// `rules` is a preset (`decorated`, `decorated-2003-02`,
/// `decorated-2003-01`, `classic`, `classic-002`, `classic-003`,
/// `classic-004`), `set` a dict of rule switches (`{"tax": "off"}`).
#[pyclass(module = "kanaszta")]
struct Game {
    game: AnyGame,
    rules: String,
    ids: Vec<u32>,
}

impl Game {
    fn wrap(game: AnyGame, rules: String) -> Game {
        Game {
            game,
            rules,
            ids: Vec::new(),
        }
    }

    fn seat(&self, seat: Option<usize>) -> usize {
        seat.unwrap_or_else(|| self.game.current_player())
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "decorated-2003-02", players = 2, seed = 0, set = None))]
    fn new(
        rules: &str,
        players: usize,
        seed: u64,
        set: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        let set = settings(set)?;
        Ok(Game::wrap(
            make(rules, players, &set, seed)?,
            rules.to_string(),
        ))
    }

    /// The preset the hand was made from.
    #[getter]
    fn rules(&self) -> &str {
        &self.rules
    }
    /// `decorated` or `classic`.
    #[getter]
    fn family(&self) -> &'static str {
        self.game.family()
    }
    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }
    /// Number of sides (players alone, or partnerships).
    #[getter]
    fn sides(&self) -> usize {
        self.game.sides()
    }
    /// The side of a seat.
    fn side_of(&self, seat: usize) -> PyResult<usize> {
        if seat >= self.game.players() {
            return Err(PyValueError::new_err(format!(
                "no seat {seat}: seats are 0..{}",
                self.game.players()
            )));
        }
        Ok(self.game.side_of(seat))
    }
    /// The seat to act.
    #[getter]
    fn current_player(&self) -> usize {
        self.game.current_player()
    }
    /// Whether the hand is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }
    /// Turns completed.
    #[getter]
    fn turns(&self) -> u32 {
        self.game.turns()
    }
    /// Size of the family's action id space (the mask's length).
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.action_ids()
    }
    /// Length of the family's observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.game.obs_len()
    }

    /// The legal actions in text notation, in the family's order. The
    /// listing is kept as by `legal_ids`, so that `apply` of one of them
    /// skips the checks the listing made.
    fn legal_actions(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        // Every listed action has an id and the id names it again
        // (engine/tests/encoding.rs), so the ids give the listing's text.
        self.game.legal_ids(&mut self.ids);
        self.ids
            .iter()
            .map(|&id| {
                self.game
                    .action_from_id(id)
                    .map(|a| a.to_string())
                    .map_err(|e| to_py(py, e))
            })
            .collect()
    }
    /// The legal actions' ids, in the same order as `legal_actions()`.
    fn legal_ids(&mut self) -> Vec<u32> {
        self.game.legal_ids(&mut self.ids);
        self.ids.clone()
    }
    /// A bool array over the id space, true at the legal actions' ids.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let arr = PyArray1::<bool>::zeros(py, self.game.action_ids(), false);
        {
            let mut w = arr.readwrite();
            let s = w.as_slice_mut()?;
            self.game.legal_mask(s).map_err(|e| to_py(py, e))?;
        }
        Ok(arr)
    }
    /// The id of an action given in text (parsed, not checked for
    /// legality); `None` if the action has no id.
    fn action_id(&self, py: Python<'_>, text: &str) -> PyResult<Option<u32>> {
        let a = self.game.parse(text).map_err(|e| to_py(py, e))?;
        Ok(self.game.action_id(a))
    }
    /// The text of the action `id` names in this state.
    fn action_text(&self, py: Python<'_>, id: u32) -> PyResult<String> {
        let a = self.game.action_from_id(id).map_err(|e| to_py(py, e))?;
        Ok(a.to_string())
    }

    /// Plays an action given as text (`"draw"`, `"lay 8D 8S 2C"`) or as an
    /// integer id. Raises `IllegalAction` (with `.rule`) if the rules
    /// refuse it, `ValueError` if it does not parse or the id names
    /// nothing here; the hand is unchanged on an error. An action that
    /// `legal_actions()`, `legal_ids()` or `legal_mask()` listed for the
    /// hand as it is skips the completion check (I-9) the listing made;
    /// the result is the same.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = if let Ok(s) = action.cast::<PyString>() {
            self.game.apply_text(&s.to_cow()?)
        } else if let Ok(id) = action.extract::<i64>() {
            match u32::try_from(id) {
                Ok(id) => self.game.apply_id(id),
                Err(_) => {
                    return Err(PyValueError::new_err(format!(
                        "action id {id} is out of range: ids are 0..{}",
                        self.game.action_ids()
                    )))
                }
            }
        } else {
            return Err(PyValueError::new_err(
                "an action is its text (`draw`, `lay 8D 8S 2C`) or an integer id",
            ));
        };
        r.map_err(|e| to_py(py, e))
    }

    /// The seat's observation (float32, `observation_size` long); the seat
    /// to act if `seat` is omitted.
    #[pyo3(signature = (seat = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let arr = PyArray1::<f32>::zeros(py, self.game.obs_len(), false);
        {
            let mut w = arr.readwrite();
            let s = w.as_slice_mut()?;
            // The array is new and zeroed: it is not zeroed again.
            self.game
                .encode_zeroed(self.seat(seat), s)
                .map_err(|e| to_py(py, e))?;
        }
        Ok(arr)
    }
    /// What the seat sees, as text; the seat to act if omitted.
    #[pyo3(signature = (seat = None))]
    fn view(&self, py: Python<'_>, seat: Option<usize>) -> PyResult<String> {
        self.game
            .view_text(self.seat(seat))
            .map_err(|e| to_py(py, e))
    }
    /// A hand consistent with what `seat` sees, the unseen cards dealt at
    /// random from `seed`.
    #[pyo3(signature = (seat, seed = 0))]
    fn determinize(&self, py: Python<'_>, seat: usize, seed: u64) -> PyResult<Game> {
        let g = self
            .game
            .determinize(seat, seed)
            .map_err(|e| to_py(py, e))?;
        Ok(Game::wrap(g, self.rules.clone()))
    }
    /// An independent copy.
    fn clone(&self) -> Game {
        Game::wrap(self.game.clone(), self.rules.clone())
    }
    fn __copy__(&self) -> Game {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// The hand as position JSON (`kanaszta-position/1`, sim/POSITIONS.md):
    /// every card's place, the turn so far, the rules and the chance
    /// generator, so `Game.from_json(g.to_json())` plays on exactly as `g`.
    fn to_json(&self) -> String {
        match (self.game.decorated(), self.game.classic()) {
            (Some(g), _) => g.to_position_json(),
            (_, Some(g)) => g.to_position_json(),
            _ => unreachable!("a hand is of one family"),
        }
    }
    /// A hand from position JSON (sim/POSITIONS.md), either family (a
    /// classic position says `"family": "classic"` or names a classic
    /// preset), checked completely: `ValueError` says what is wrong. Its
    /// `rules` is the family's name, `decorated` or `classic`.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Game> {
        let bad = |e: kanaszta_engine::PositionError| PyValueError::new_err(e.to_string());
        if is_classic_position(text) {
            let g = ClassicPosition::from_json(text)
                .and_then(|p| p.to_state())
                .map_err(bad)?;
            Ok(Game::wrap(g.into(), "classic".into()))
        } else {
            let g = Position::from_json(text)
                .and_then(|p| p.to_state())
                .map_err(bad)?;
            Ok(Game::wrap(g.into(), "decorated".into()))
        }
    }

    /// Each side's hand score as it stands (final once terminal): a list
    /// of dicts, one a side, `{"total": int, "taxed": int, "parts": {name:
    /// int}}`; `taxed` is the total after the decorated tax on the side's
    /// running total before the hand (D-15; a hand outside a match has
    /// totals of zero), the total itself in classic canasta.
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut out = Vec::with_capacity(self.game.sides());
        for side in 0..self.game.sides() {
            let s = self.game.score(side).map_err(|e| to_py(py, e))?;
            let d = PyDict::new(py);
            d.set_item("total", s.total)?;
            let taxed = match self.game.decorated() {
                Some(g) => kanaszta_engine::tax(s.total, g.totals()[side], g.rules()),
                None => s.total,
            };
            d.set_item("taxed", taxed)?;
            let parts = PyDict::new(py);
            for (k, v) in s.parts {
                parts.set_item(k, v)?;
            }
            d.set_item("parts", parts)?;
            out.push(d);
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(rules={:?}, players={}, turns={}, current_player={}, terminal={})",
            self.rules,
            self.game.players(),
            self.game.turns(),
            self.game.current_player(),
            self.game.is_terminal()
        )
    }
}

#[pymodule]
#[pyo3(name = "_kanaszta")]
fn kanaszta(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<vector::VectorGame>()?;
    m.add_class::<matches::Match>()?;
    agent::register(m)?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add(
        "DECORATED_ACTION_IDS",
        kanaszta_engine::DECORATED_ACTION_IDS,
    )?;
    m.add("CLASSIC_ACTION_IDS", kanaszta_engine::CLASSIC_ACTION_IDS)?;
    m.add("DECORATED_OBS_LEN", kanaszta_engine::DECORATED_OBS_LEN)?;
    m.add("CLASSIC_OBS_LEN", kanaszta_engine::CLASSIC_OBS_LEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
