//! `kanaszta.Match`: hands to the match target with running totals, the
//! decorated tax (D-15, D-16) or classic canasta's totals (C-12, C-24),
//! over the engine's own [`Match`] and [`ClassicMatch`].

use crate::{make_rules, Game};
use kanaszta_engine::classic::{ClassicMatch, ClassicMatchResult};
use kanaszta_engine::{AnyGame, Match as DecoratedMatch};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

enum Inner {
    Decorated(DecoratedMatch),
    Classic(ClassicMatch),
}

/// A match: hands dealt by `next_hand()`, played by the caller, and
/// scored into the running totals by `record(game)` until a side passes
/// the target.
///
/// `Match(rules="decorated-2003-02", players=2, seed=0, set=None)`: the
/// same presets and switches as `Game`. The hands and the first starter
/// (dealer) are those of the command line's matches from the same seed.
#[pyclass(module = "kanaszta")]
pub struct Match {
    inner: Inner,
    rules: String,
    target: i32,
}

#[pymethods]
impl Match {
    #[new]
    #[pyo3(signature = (rules = "decorated-2003-02", players = 2, seed = 0, set = None))]
    fn new(
        rules: &str,
        players: usize,
        seed: u64,
        set: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Match> {
        let (inner, target) = match make_rules(rules, players, set)? {
            Ok(r) => (Inner::Decorated(DecoratedMatch::new(r, seed)), r.target),
            Err(r) => (Inner::Classic(ClassicMatch::new(r, seed)), r.target),
        };
        Ok(Match {
            inner,
            rules: rules.to_string(),
            target,
        })
    }

    /// `decorated` or `classic`.
    #[getter]
    fn family(&self) -> &'static str {
        match self.inner {
            Inner::Decorated(_) => "decorated",
            Inner::Classic(_) => "classic",
        }
    }
    /// The total a side must pass (decorated, D-16.2) or reach (classic,
    /// C-24) to win.
    #[getter]
    fn target(&self) -> i32 {
        self.target
    }
    /// Each side's running total.
    #[getter]
    fn totals(&self) -> Vec<i32> {
        match &self.inner {
            Inner::Decorated(m) => m.totals().to_vec(),
            Inner::Classic(m) => m.totals().to_vec(),
        }
    }
    /// The tax each side has paid so far (D-15: raw minus taxed points);
    /// zeros in classic canasta, which has no tax.
    #[getter]
    fn tax_paid(&self) -> Vec<i64> {
        match &self.inner {
            Inner::Decorated(m) => m.tax_paid().to_vec(),
            Inner::Classic(m) => vec![0; m.totals().len()],
        }
    }
    /// Hands recorded.
    #[getter]
    fn hands_played(&self) -> u32 {
        match &self.inner {
            Inner::Decorated(m) => m.hands_played(),
            Inner::Classic(m) => m.hands_played(),
        }
    }
    /// Whether the match is over (a side past the target with the highest
    /// total, or the `max_hands` cap reached, I-31).
    #[getter]
    fn is_over(&self) -> bool {
        match &self.inner {
            Inner::Decorated(m) => m.is_over(),
            Inner::Classic(m) => m.result() != ClassicMatchResult::Playing,
        }
    }
    /// The winning side once over; `None` while playing or for a drawn
    /// (capped and tied) match.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match &self.inner {
            Inner::Decorated(m) => m.result().and_then(|r| r.winner),
            Inner::Classic(m) => match m.result() {
                ClassicMatchResult::Won(s) => Some(s),
                _ => None,
            },
        }
    }

    /// The next hand, dealt: its starter (dealer) rotates each hand, and
    /// it knows the totals before it (the opening minimum and the tax
    /// depend on them). `ValueError` once the match is over.
    fn next_hand(&self) -> PyResult<Game> {
        if self.is_over() {
            return Err(PyValueError::new_err(
                "the match is over: no next hand (see `winner` and `totals`)",
            ));
        }
        let g: AnyGame = match &self.inner {
            Inner::Decorated(m) => m.next_hand().into(),
            Inner::Classic(m) => m.next_hand().into(),
        };
        Ok(Game::wrap(g, self.rules.clone()))
    }

    /// Scores a finished hand dealt by `next_hand()` into the totals (the
    /// tax applied, D-15) and returns what it did: `{"raw": [...],
    /// "taxed": [...], "totals": [...], "winner": side or None}`, one
    /// entry a side, `winner` the hand's (by raw score, `None` on a tie).
    /// `ValueError` for a hand not over, of the other family, or not this
    /// match's next hand.
    fn record<'py>(&mut self, py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyDict>> {
        if !game.game.is_terminal() {
            return Err(PyValueError::new_err(
                "record takes a finished hand: play it until `is_terminal`",
            ));
        }
        if self.is_over() {
            return Err(PyValueError::new_err("the match is over"));
        }
        let expected = self.next_hand()?;
        let mismatch = || {
            PyValueError::new_err(
                "this hand is not the match's next hand: record the hands `next_hand()` deals, in order",
            )
        };
        let d = PyDict::new(py);
        match (&mut self.inner, game.game.decorated(), game.game.classic()) {
            (Inner::Decorated(m), Some(h), _) => {
                let e = expected.game.decorated().ok_or_else(mismatch)?;
                if e.starter() != h.starter() || e.totals() != h.totals() {
                    return Err(mismatch());
                }
                let rec = m.record(h);
                d.set_item("raw", rec.raw)?;
                d.set_item("taxed", rec.taxed)?;
                d.set_item("totals", rec.totals_after)?;
                d.set_item("winner", rec.winner)?;
            }
            (Inner::Classic(m), _, Some(h)) => {
                let e = expected.game.classic().ok_or_else(mismatch)?;
                let sides = h.rules().sides();
                if e.dealer() != h.dealer() || (0..sides).any(|s| e.total(s) != h.total(s)) {
                    return Err(mismatch());
                }
                let raw: Vec<i32> = (0..sides).map(|s| h.side_score(s).total).collect();
                m.record(h);
                let best = raw.iter().copied().max().unwrap_or(0);
                let winner = (raw.iter().filter(|&&r| r == best).count() == 1)
                    .then(|| raw.iter().position(|&r| r == best))
                    .flatten();
                d.set_item("taxed", raw.clone())?;
                d.set_item("raw", raw)?;
                d.set_item("totals", m.totals().to_vec())?;
                d.set_item("winner", winner)?;
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "this hand is {}; the match is {}",
                    game.game.family(),
                    self.family()
                )))
            }
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Match(rules={:?}, hands_played={}, totals={:?}, over={})",
            self.rules,
            self.hands_played(),
            self.totals(),
            self.is_over()
        )
    }
}
