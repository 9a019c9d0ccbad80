//! `kanaszta.VectorGame`: n hands of one preset stepped by one call, on
//! one thread or several, without the GIL.
//!
//! The hands are the family's own state ([`GameState`] or
//! [`ClassicState`]), not [`AnyGame`], so that a step applies the listed
//! action itself (`apply_listed`, which skips the checks the listing has
//! made) and the mask is written from the listing's ids. The
//! observations, masks, rewards, terminal flags and seats are written
//! straight into new zeroed arrays (`copy=True`), or into arrays the
//! `VectorGame` owns (`copy=False`: nothing is allocated a step, and a
//! mask row is cleared only where the last listing set it). A decorated
//! observation row is written only where it changed: the slot keeps what
//! the row holds ([`HeldRow`]), and a number the row holds already is
//! not written again.
//! Each slot's rows are written by whichever thread steps it, so the
//! results do not depend on the number of threads.

use crate::{illegal, make_rules, to_py, Game as PyGame};
use kanaszta_engine::classic::{ClassicRules, ClassicState, ClassicView};
use kanaszta_engine::{
    Action, ActionIds, AnyError, AnyGame, Encode, Game, GameState, HeldRow, Phase, Rules, SeatView,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::type_object::PyTypeCheck;
use pyo3::types::PyDict;
use rayon::prelude::*;

/// A family as the vector steps it: its state, ids and encoding, and a
/// new hand from the rules and a seed, dealt as [`AnyGame`] deals it.
trait Family: Game + ActionIds + Encode + Into<AnyGame> {
    type Rules: Copy + Send + Sync;
    /// Whether a row is written through [`HeldRow`], only where it
    /// changed; classic canasta's 456 numbers are zeroed and encoded
    /// whole.
    const SPARSE: bool;
    fn deal(rules: &Self::Rules, seed: u64) -> Self;
    /// Encodes `view` into a row that holds what `held` says (used only
    /// when `SPARSE`); `changed`: what the step since the row was
    /// written changed.
    fn encode_sparse(view: &Self::View<'_>, row: &mut [f32], held: &mut HeldRow, changed: Changed);
    /// What listed action `a` changes, as [`HeldRow`] takes it.
    fn changed(&self, a: &Self::Action) -> Changed;
    /// Whether listed action `a`, taken in this state, sets the turn's
    /// anchor: the listing made after it, in the meld phase, is the
    /// anchor's, which [`Family::returns`] may reuse.
    fn anchors(&self, a: &Self::Action) -> bool;
    /// Whether listed action `a` returns the mover's part to the turn's
    /// anchor (the reset).
    fn returns(a: &Self::Action) -> bool;
    /// Whether listed action `a` is allowed only while the undos of the
    /// meld phase allow it (a take-back).
    fn undoes(a: &Self::Action) -> bool;
    /// After a return to the anchor ([`Family::returns`]), whether the
    /// anchor's listing `kept` is the listing now.
    fn anchor_lists(&self, kept: &[Self::Action]) -> bool;
}

/// What a step changed of the state, for the row written after it.
#[derive(Clone, Copy)]
enum Changed {
    /// Not known.
    Any,
    /// The mover's part, the stock and the pile, as a draw-phase step
    /// does ([`HeldRow::encode_drawn`]).
    Drawn,
    /// Only the mover's part ([`HeldRow::encode_mover`]).
    Mover,
    /// Only the mover's part but the table's flags and the turn's
    /// (free pickup, pickup, duty to go out), in the same phase
    /// ([`HeldRow::encode_melded`]).
    Melded,
}

impl Family for GameState {
    type Rules = Rules;
    const SPARSE: bool = true;
    fn deal(rules: &Rules, seed: u64) -> GameState {
        GameState::new(*rules, seed)
    }
    fn encode_sparse(view: &SeatView<'_>, row: &mut [f32], held: &mut HeldRow, changed: Changed) {
        match changed {
            Changed::Any => held.encode(view, row),
            Changed::Drawn => held.encode_drawn(view, row),
            Changed::Mover => held.encode_mover(view, row),
            Changed::Melded => held.encode_melded(view, row),
        }
    }
    /// A meld-phase step other than a discard is made on the mover's
    /// hand, known cards and table and the turn (the part a refused step
    /// puts back); so is the reset (I-25), which puts back the hand, the
    /// known cards, the table and the turn of the anchor, and counts one
    /// undo more. A draw-phase step (a draw, the free pickup, taking the
    /// pile) changes those, the stock and the pile. Of the meld steps,
    /// only taking the rest (which may mark the opening and the duty to
    /// go out, and marks the pickup's rest taken), the ♥A's steps and
    /// the reset change the mover's table flags or the turn's.
    fn changed(&self, a: &Action) -> Changed {
        match self.phase() {
            Phase::Meld => match a {
                Action::Discard(_) => Changed::Any,
                Action::TakeRest
                | Action::LayHeartAce
                | Action::TakeBackHeartAce
                | Action::Reset => Changed::Mover,
                _ => Changed::Melded,
            },
            Phase::Draw => Changed::Drawn,
            _ => Changed::Any,
        }
    }
    /// The anchor is set by the draw, the free pickup and taking the
    /// pile (D-5.1), and by taking the rest of the pile (D-6.2).
    fn anchors(&self, a: &Action) -> bool {
        matches!(
            a,
            Action::Draw | Action::FreePickup | Action::TakePile | Action::TakeRest
        )
    }
    fn returns(a: &Action) -> bool {
        matches!(a, Action::Reset)
    }
    fn undoes(a: &Action) -> bool {
        matches!(a, Action::TakeBack { .. } | Action::TakeBackHeartAce)
    }
    /// The reset (I-25) puts back the mover's hand, known cards, table
    /// and turn of the anchor, with the anchor's flag set: the state is
    /// the anchor's but for the undos counted this meld phase (one more
    /// at least) and the mover's statistics, which no listing reads.
    /// No meld step changes anything else but the pile, and only taking
    /// the rest shrinks the pile, which sets a new anchor. The listing
    /// reads the undos only to ask whether a take-back may be listed
    /// (D-11.5, [`MAX_UNDOS`](kanaszta_engine::MAX_UNDOS)) and whether
    /// the reset may (never at the anchor: it would change nothing);
    /// the completion checks (I-9, I-26) do not read them. So the
    /// anchor's listing is the listing now if take-backs are still
    /// allowed, or if it lists no take-back (looked for only then, late
    /// in a meld phase: a reset is more than twice as rare as an anchor,
    /// and the undos seldom run so low); otherwise the state is listed
    /// anew.
    fn anchor_lists(&self, kept: &[Action]) -> bool {
        self.may_take_back() || !kept.iter().any(GameState::undoes)
    }
}

impl Family for ClassicState {
    type Rules = ClassicRules;
    const SPARSE: bool = false;
    fn deal(rules: &ClassicRules, seed: u64) -> ClassicState {
        ClassicState::new(*rules, seed, 0, [0; 6])
    }
    fn encode_sparse(view: &ClassicView<'_>, row: &mut [f32], _: &mut HeldRow, _: Changed) {
        ClassicState::encode(view, row);
    }
    fn changed(&self, _: &Self::Action) -> Changed {
        Changed::Any
    }
    /// Classic listings are not kept: every state is listed.
    fn anchors(&self, _: &Self::Action) -> bool {
        false
    }
    fn returns(_: &Self::Action) -> bool {
        false
    }
    fn undoes(_: &Self::Action) -> bool {
        false
    }
    fn anchor_lists(&self, _: &[Self::Action]) -> bool {
        false
    }
}

/// One slot: its hand, how many hands it has finished, the last
/// listing with its ids (the actions the next step may take, and the
/// mask entries the next write clears), the listing of the turn's
/// anchor, and what its observation row holds.
#[derive(Clone)]
struct Slot<G: Game> {
    game: G,
    deals: u64,
    legal: Vec<G::Action>,
    ids: Vec<u32>,
    anchor: Kept<G::Action>,
    written: HeldRow,
}

/// The listing made at the turn's anchor ([`Family::anchors`]), with
/// its ids, kept for the steps that return there ([`Family::returns`]):
/// listing a state is most of a step.
#[derive(Clone)]
struct Kept<A> {
    legal: Vec<A>,
    ids: Vec<u32>,
    /// Whether it is the listing of the hand's current anchor.
    valid: bool,
}

impl<A: Copy> Kept<A> {
    fn new() -> Kept<A> {
        Kept {
            legal: Vec::new(),
            ids: Vec::new(),
            valid: false,
        }
    }
}

/// A slot's rows of the output arrays.
struct Rows<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    reward: &'a mut [f32],
    done: &'a mut bool,
    seat: &'a mut i64,
    /// Whether the rows are new (all zero), or the last call's.
    fresh: bool,
}

/// What every slot shares: the rules, the seed and the number of slots.
struct Deal<R> {
    rules: R,
    seed: u64,
    n: u64,
}

impl<R> Deal<R> {
    /// Slot `slot`'s hand `deals` (from 0) is dealt from
    /// `seed + slot + deals·n`.
    fn seed(&self, slot: usize, deals: u64) -> u64 {
        self.seed
            .wrapping_add(slot as u64)
            .wrapping_add(deals.wrapping_mul(self.n))
    }
}

impl<G: Family> Slot<G> {
    fn new(game: G) -> Slot<G> {
        Slot {
            game,
            deals: 0,
            legal: Vec::new(),
            ids: Vec::new(),
            anchor: Kept::new(),
            written: HeldRow::ZERO,
        }
    }

    /// The listing's index of action id `id`, if it is listed.
    fn find(&self, id: i64) -> Option<usize> {
        let id = u32::try_from(id).ok()?;
        self.ids.iter().position(|&x| x == id)
    }

    /// Lists the legal actions (or, with `reuse`, takes the anchor's
    /// listing, which [`Family::anchor_lists`] has found to be the
    /// listing now) and writes the mask row (clearing only what the last
    /// listing set, unless the row is new), the seat to act and its
    /// observation; `changed`: what the step since the last write
    /// changed ([`Family::changed`]).
    fn write(&mut self, rows: &mut Rows<'_>, changed: Changed, reuse: bool) {
        if !rows.fresh {
            for &id in &self.ids {
                if let Some(m) = rows.mask.get_mut(id as usize) {
                    *m = false;
                }
            }
        }
        let mask = &mut *rows.mask;
        if reuse {
            self.legal.clone_from(&self.anchor.legal);
            self.ids.clone_from(&self.anchor.ids);
            #[cfg(debug_assertions)]
            {
                let mut fresh = Vec::new();
                self.game.legal_actions(&mut fresh);
                assert_eq!(fresh, self.legal, "the anchor's listing, reused");
            }
            for &id in &self.ids {
                if let Some(m) = mask.get_mut(id as usize) {
                    *m = true;
                }
            }
        } else {
            self.game.legal_actions(&mut self.legal);
            self.ids.clear();
            // Every listed action has an id; one without would stay
            // unmatched (u32::MAX is no id). The mask is set as the ids
            // are read, in one pass over the listing.
            let ids = self.legal.iter().map(|a| {
                let id = G::action_id(a).unwrap_or(u32::MAX);
                if let Some(m) = mask.get_mut(id as usize) {
                    *m = true;
                }
                id
            });
            self.ids.extend(ids);
        }
        let p = self.game.current_player();
        *rows.seat = p as i64;
        let view = self.game.view(p);
        if G::SPARSE {
            if rows.fresh {
                self.written = HeldRow::ZERO;
            }
            G::encode_sparse(&view, rows.obs, &mut self.written, changed);
        } else if rows.fresh {
            G::encode_zeroed(&view, rows.obs);
        } else {
            G::encode(&view, rows.obs);
        }
    }

    /// Plays listed action `k`; a hand that ends is scored into the
    /// reward row and the next deal is made; then the rows are written.
    fn step(
        &mut self,
        slot: usize,
        k: usize,
        deal: &Deal<G::Rules>,
        rows: &mut Rows<'_>,
    ) -> Result<(), AnyError> {
        // A reward row holds scores only where its terminal flag is set
        // (new rows are all zero): only such a row needs clearing.
        let scored = *rows.done;
        let action = self.legal[k];
        let changed = self.game.changed(&action);
        let anchors = self.game.anchors(&action);
        self.game.apply_listed(action)?;
        *rows.done = self.game.is_terminal();
        if *rows.done {
            for (s, r) in rows.reward.iter_mut().enumerate() {
                *r = self.game.side_score(s) as f32;
            }
            self.deals += 1;
            self.game = G::deal(&deal.rules, deal.seed(slot, self.deals));
            self.anchor.valid = false;
        } else if scored {
            rows.reward.fill(0.0);
        }
        // A new deal changed more than the mover's part.
        let changed = if *rows.done { Changed::Any } else { changed };
        // Back at the anchor, whose listing is kept: it is listed again
        // only if the undos counted since change it.
        let reuse = !*rows.done
            && G::returns(&action)
            && self.anchor.valid
            && self.game.anchor_lists(&self.anchor.legal);
        self.write(rows, changed, reuse);
        if anchors && !*rows.done {
            // Every anchor's listing is kept: a return goes to the last.
            let kept = &mut self.anchor;
            kept.legal.clone_from(&self.legal);
            kept.ids.clone_from(&self.ids);
            kept.valid = true;
        }
        Ok(())
    }
}

/// The output arrays' contents, as slices.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    reward: &'a mut [f32],
    done: &'a mut [bool],
    seat: &'a mut [i64],
    fresh: bool,
}

/// A slot with its index and its rows, as the iterators over the slots
/// and the arrays' rows zip them.
type Item<'a, G> = (
    usize,
    (
        &'a mut Slot<G>,
        (
            &'a mut [f32],
            (&'a mut [bool], (&'a mut [f32], (&'a mut bool, &'a mut i64))),
        ),
    ),
);

/// The slots of one family and how they are dealt.
struct Batch<G: Family> {
    slots: Vec<Slot<G>>,
    deal: Deal<G::Rules>,
}

impl<G: Family> Batch<G> {
    fn new(rules: G::Rules, seed: u64, n: usize) -> Batch<G> {
        let deal = Deal {
            rules,
            seed,
            n: n as u64,
        };
        let slots = (0..n)
            .map(|i| Slot::new(G::deal(&rules, deal.seed(i, 0))))
            .collect();
        Batch { slots, deal }
    }

    /// Runs `f` on every slot with its rows, on the pool's threads if
    /// there is a pool; the first error, if any.
    fn each<F>(
        &mut self,
        pool: Option<&rayon::ThreadPool>,
        out: Out<'_>,
        f: F,
    ) -> Result<(), AnyError>
    where
        F: Fn(usize, &mut Slot<G>, &mut Rows<'_>) -> Result<(), AnyError> + Sync,
    {
        let n = self.slots.len();
        let (obs_len, ids, sides) = (G::OBS_LEN, G::ACTION_IDS, out.reward.len() / n);
        let fresh = out.fresh;
        let one = |(i, (slot, (obs, (mask, (reward, (done, seat)))))): Item<'_, G>| {
            let mut rows = Rows {
                obs,
                mask,
                reward,
                done,
                seat,
                fresh,
            };
            f(i, slot, &mut rows)
        };
        match pool {
            None => self
                .slots
                .iter_mut()
                .zip(
                    out.obs.chunks_exact_mut(obs_len).zip(
                        out.mask.chunks_exact_mut(ids).zip(
                            out.reward
                                .chunks_exact_mut(sides)
                                .zip(out.done.iter_mut().zip(out.seat.iter_mut())),
                        ),
                    ),
                )
                .enumerate()
                .try_for_each(one),
            Some(pool) => pool.install(|| {
                self.slots
                    .par_iter_mut()
                    .zip(
                        out.obs.par_chunks_exact_mut(obs_len).zip(
                            out.mask.par_chunks_exact_mut(ids).zip(
                                out.reward
                                    .par_chunks_exact_mut(sides)
                                    .zip(out.done.par_iter_mut().zip(out.seat.par_iter_mut())),
                            ),
                        ),
                    )
                    .enumerate()
                    .try_for_each(one)
            }),
        }
    }

    /// Deals every slot its first hand and writes its rows.
    fn reset(&mut self, pool: Option<&rayon::ThreadPool>, out: Out<'_>) {
        let deal = &self.deal;
        let slots = &mut self.slots;
        for (i, s) in slots.iter_mut().enumerate() {
            s.deals = 0;
            s.game = G::deal(&deal.rules, deal.seed(i, 0));
            s.anchor.valid = false;
        }
        // Writing the rows cannot fail.
        let _ = self.each(pool, out, |_, slot, rows| {
            rows.reward.fill(0.0);
            *rows.done = false;
            slot.write(rows, Changed::Any, false);
            Ok(())
        });
    }

    /// Plays listed action `picks[i]` in slot `i`, for every slot.
    fn step(
        &mut self,
        pool: Option<&rayon::ThreadPool>,
        picks: &[usize],
        out: Out<'_>,
    ) -> Result<(), AnyError> {
        let deal = Deal {
            rules: self.deal.rules,
            seed: self.deal.seed,
            n: self.deal.n,
        };
        self.each(pool, out, |i, slot, rows| {
            slot.step(i, picks[i], &deal, rows)
        })
    }

    /// A copy of slot `i`'s hand.
    fn hand(&self, i: usize) -> Option<AnyGame> {
        self.slots.get(i).map(|s| s.game.clone().into())
    }

    /// Each slot's listing index of its action id, or the error of the
    /// first slot whose id is not legal (no slot has moved).
    fn picks(&self, py: Python<'_>, ids: &[i64], width: usize) -> PyResult<Vec<usize>> {
        let mut picks = Vec::with_capacity(ids.len());
        for (i, (&id, slot)) in ids.iter().zip(&self.slots).enumerate() {
            match slot.find(id) {
                Some(k) => picks.push(k),
                None => return Err(refused(py, i, id, slot.game.clone().into(), width)),
            }
        }
        Ok(picks)
    }
}

/// The error for game `i`'s id `id`, which its listing does not hold:
/// `IllegalAction` with the rule when the id names an action the rules
/// refuse, else `ValueError`.
fn refused(py: Python<'_>, i: usize, id: i64, mut g: AnyGame, width: usize) -> PyErr {
    let why = match u32::try_from(id)
        .map_err(|_| AnyError::Argument(String::new()))
        .and_then(|u| g.action_from_id(u))
        .and_then(|a| g.apply(a))
    {
        Err(AnyError::Illegal(r)) => return illegal(py, r.rule, &format!("game {i}: {r}")),
        Err(e) if !e.to_string().is_empty() => e.to_string(),
        _ => format!("ids are 0..{width}"),
    };
    PyValueError::new_err(format!("game {i}: action id {id} is not legal here: {why}"))
}

enum Hands {
    Decorated(Batch<GameState>),
    Classic(Batch<ClassicState>),
}

/// Calls `$body` with `$b` bound to the family's batch.
macro_rules! each_batch {
    ($hands:expr, $b:ident => $body:expr) => {
        match $hands {
            Hands::Decorated($b) => $body,
            Hands::Classic($b) => $body,
        }
    };
}

/// `n` hands of one preset stepped together.
///
/// `VectorGame(n, rules="decorated-2003-02", players=2, seed=0, set=None,
/// threads=1, copy=True)`. Slot `i` plays deals from seeds `seed + i`,
/// `seed + i + n`, `seed + i + 2n`, ...: a hand that ends in `step` is
/// scored and the slot is dealt its next hand at once (auto-reset), so
/// every slot always has a player to act. `reset()` deals every slot its
/// first hand again. `threads` steps the slots on that many threads (0:
/// one a core), with the same results for any number. With `copy=False`
/// `step` and `reset` return the `VectorGame`'s own arrays (read-only),
/// which the next call overwrites, instead of new ones.
#[pyclass(module = "kanaszta")]
pub struct VectorGame {
    hands: Hands,
    rules: String,
    n: usize,
    obs_len: usize,
    ids: usize,
    sides: usize,
    threads: usize,
    pool: Option<rayon::ThreadPool>,
    /// With `copy=False`, the arrays the slots are written into and
    /// read-only views of them, which `step` and `reset` return.
    own: Option<(Arrays, Arrays)>,
}

/// The arrays of a step.
type Arrays = (
    Py<PyArray2<f32>>,
    Py<PyArray2<bool>>,
    Py<PyArray2<f32>>,
    Py<PyArray1<bool>>,
    Py<PyArray1<i64>>,
);

type Step<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
);

type Reset<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i64>>,
);

/// A read-only view of `a`.
fn read_only<'py, T: PyTypeCheck>(a: &Bound<'py, PyAny>) -> PyResult<Py<T>> {
    let v = a.call_method0("view")?;
    v.call_method1("setflags", (false,))?;
    Ok(v.cast_into::<T>()?.unbind())
}

/// Arrays of a step for `n` slots, all zero.
fn zeros(py: Python<'_>, n: usize, obs_len: usize, ids: usize, sides: usize) -> Step<'_> {
    (
        PyArray2::<f32>::zeros(py, [n, obs_len], false),
        PyArray2::<bool>::zeros(py, [n, ids], false),
        PyArray2::<f32>::zeros(py, [n, sides], false),
        PyArray1::<bool>::zeros(py, n, false),
        PyArray1::<i64>::zeros(py, n, false),
    )
}

fn bind<'py>(py: Python<'py>, a: &Arrays) -> Step<'py> {
    (
        a.0.bind(py).clone(),
        a.1.bind(py).clone(),
        a.2.bind(py).clone(),
        a.3.bind(py).clone(),
        a.4.bind(py).clone(),
    )
}

impl VectorGame {
    /// Writes the slots' rows with `f`, without the GIL, into new arrays
    /// (when copying; written straight, not copied) or the
    /// `VectorGame`'s own; returns `f`'s result and the arrays for the
    /// caller.
    fn run<'py, T: Send>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(&mut Hands, Option<&rayon::ThreadPool>, Out<'_>) -> T + Send,
    ) -> PyResult<(T, Step<'py>)> {
        let (arrays, fresh) = match &self.own {
            Some((own, _)) => (bind(py, own), false),
            None => (zeros(py, self.n, self.obs_len, self.ids, self.sides), true),
        };
        let mut obs = arrays.0.readwrite();
        let mut mask = arrays.1.readwrite();
        let mut reward = arrays.2.readwrite();
        let mut done = arrays.3.readwrite();
        let mut seat = arrays.4.readwrite();
        let o = Out {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            reward: reward.as_slice_mut()?,
            done: done.as_slice_mut()?,
            seat: seat.as_slice_mut()?,
            fresh,
        };
        let (hands, pool) = (&mut self.hands, self.pool.as_ref());
        let r = py.detach(move || f(hands, pool, o));
        drop((obs, mask, reward, done, seat));
        Ok(match &self.own {
            Some((_, views)) => (r, bind(py, views)),
            None => (r, arrays),
        })
    }
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (n, rules = "decorated-2003-02", players = 2, seed = 0, set = None, threads = 1, copy = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        rules: &str,
        players: usize,
        seed: u64,
        set: Option<&Bound<'_, PyDict>>,
        threads: usize,
        copy: bool,
    ) -> PyResult<VectorGame> {
        if n == 0 {
            return Err(PyValueError::new_err(
                "a VectorGame needs at least one game (n >= 1)",
            ));
        }
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let (hands, obs_len, ids) = match make_rules(rules, players, set)? {
            Ok(r) => (
                Hands::Decorated(Batch::new(r, seed, n)),
                GameState::OBS_LEN,
                GameState::ACTION_IDS,
            ),
            Err(r) => (
                Hands::Classic(Batch::new(r, seed, n)),
                ClassicState::OBS_LEN,
                ClassicState::ACTION_IDS,
            ),
        };
        let sides = each_batch!(&hands, b => Game::sides(&b.slots[0].game));
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| PyValueError::new_err(format!("no threads: {e}")))?,
            )
        } else {
            None
        };
        let own = if copy {
            None
        } else {
            let a = zeros(py, n, obs_len, ids, sides);
            let views = (
                read_only(a.0.as_any())?,
                read_only(a.1.as_any())?,
                read_only(a.2.as_any())?,
                read_only(a.3.as_any())?,
                read_only(a.4.as_any())?,
            );
            let own = (
                a.0.unbind(),
                a.1.unbind(),
                a.2.unbind(),
                a.3.unbind(),
                a.4.unbind(),
            );
            Some((own, views))
        };
        let mut v = VectorGame {
            hands,
            rules: rules.to_string(),
            n,
            obs_len,
            ids,
            sides,
            threads,
            pool,
            own,
        };
        v.run(
            py,
            |hands, pool, out| each_batch!(hands, b => b.reset(pool, out)),
        )?;
        Ok(v)
    }

    fn __len__(&self) -> usize {
        self.n
    }
    /// `decorated` or `classic`.
    #[getter]
    fn family(&self) -> &'static str {
        match self.hands {
            Hands::Decorated(_) => GameState::FAMILY,
            Hands::Classic(_) => ClassicState::FAMILY,
        }
    }
    /// Size of the action id space (a mask row's length).
    #[getter]
    fn num_actions(&self) -> usize {
        self.ids
    }
    /// Length of an observation row.
    #[getter]
    fn observation_size(&self) -> usize {
        self.obs_len
    }
    /// Number of sides: the columns of `rewards`.
    #[getter]
    fn sides(&self) -> usize {
        self.sides
    }
    /// Number of threads the slots are stepped on.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    /// Whether `step` and `reset` return new arrays (`True`) or the
    /// `VectorGame`'s own, overwritten by the next call (`False`).
    #[getter]
    fn copy(&self) -> bool {
        self.own.is_none()
    }

    /// Deals every slot its first hand again; returns
    /// `(observations, masks, players)` for the seats to act.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Reset<'py>> {
        let ((), (obs, mask, _, _, seat)) = self.run(
            py,
            |hands, pool, out| each_batch!(hands, b => b.reset(pool, out)),
        )?;
        Ok((obs, mask, seat))
    }

    /// Plays `actions[i]` (an action id) in slot `i`, for every slot, and
    /// returns `(observations, masks, rewards, terminal, players)`:
    /// the seats to act's observations (n x observation_size float32) and
    /// masks (n x num_actions bool), each side's hand score in the rows
    /// whose hand ended on this step (n x sides float32, zero elsewhere),
    /// which slots' hands ended (and were dealt anew), and the seats to
    /// act. Every action is checked before any hand moves: an illegal one
    /// raises `IllegalAction` and no slot steps.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Step<'py>> {
        let ids: Vec<i64> = if let Ok(a) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
            a.as_array().to_vec()
        } else {
            actions.extract()?
        };
        let n = self.n;
        if ids.len() != n {
            return Err(PyValueError::new_err(format!(
                "step takes one action id a game: {} given for {n} games",
                ids.len()
            )));
        }
        let width = self.ids;
        let picks = each_batch!(&self.hands, b => b.picks(py, &ids, width))?;
        let (r, arrays) = self.run(
            py,
            |hands, pool, out| each_batch!(hands, b => b.step(pool, &picks, out)),
        )?;
        r.map_err(|e| to_py(py, e))?;
        Ok(arrays)
    }

    /// A copy of slot `i`'s hand as a `Game`.
    fn game(&self, i: usize) -> PyResult<PyGame> {
        let g = each_batch!(&self.hands, b => b.hand(i));
        g.map(|g| PyGame::wrap(g, self.rules.clone()))
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}: games are 0..{}", self.n)))
    }
}
