//! What the agents need of a rule family beyond the engine's [`Game`]:
//! the listing an agent chooses from ([`Family::Moves`]) and how the turn
//! loop hands it over ([`Family::play_one`], shown to an [`Observer`]).
//!
//! The listing is the family's: decorated canasta's meld phase lists
//! lazily ([`Moves`], whose candidates are checked only as an agent asks),
//! classic canasta's listing is made when it is first read and its
//! candidates can be checked one at a time ([`ClassicMoves`]). An agent of
//! either family is an [`Agent<G>`](Agent) whatever the listing.

use crate::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicState};
use kanaszta_engine::{Action, Game, GameState, MoveBuf, Moves, RuleError};
use rand_pcg::Pcg64Mcg;
use std::cell::{Cell, OnceCell};
use std::ops::Deref;

/// Watches the turn loop
/// ([`play_turns_observed`](crate::play_turns_observed)): told each
/// action with the state it is about to be applied to, after the mover
/// chose it and before the engine checks it. It sees everything, so it is for the
/// run's bookkeeping (counts of what was played), never for a player.
/// `()` watches nothing, at no cost.
pub trait Observer<G: Game> {
    /// Seat `p`, the mover of `state`, is about to apply `action`.
    fn before(&mut self, state: &G, p: usize, action: G::Action);
}

impl<G: Game> Observer<G> for () {
    #[inline(always)]
    fn before(&mut self, _state: &G, _p: usize, _action: G::Action) {}
}

/// The listing a classic player chooses from ([`Agent::act`] of an
/// [`Agent<ClassicState>`](Agent)): every legal action, in the engine's
/// order, never empty. It reads as the slice it holds.
///
/// In the turn loop ([`Family::play_one`]) the listing is made only when
/// it is first read: a player that wants the best of a few actions takes
/// the [candidates](ClassicMoves::candidates) and checks them in its own
/// order ([`ClassicMoves::is_listed`]), so the candidates it never asks
/// about are never judged (the costly part of a meld phase's listing is
/// the completion check, I-9, of every candidate).
pub struct ClassicMoves<'a> {
    given: Option<&'a [ClassicAction]>,
    state: Option<&'a ClassicState>,
    legal: OnceCell<Vec<ClassicAction>>,
    candidates: OnceCell<Vec<ClassicAction>>,
    /// Buffers for the two lists, kept by the turn loop across decisions.
    spare: Cell<ClassicScratch>,
    /// An action found listed one at a time.
    checked: Cell<Option<ClassicAction>>,
}

/// What the classic turn loop keeps between decisions: the buffers of
/// [`ClassicMoves`].
#[derive(Debug, Default)]
pub struct ClassicScratch {
    legal: Vec<ClassicAction>,
    candidates: Vec<ClassicAction>,
}

impl<'a> ClassicMoves<'a> {
    /// The listing `legal`.
    pub fn new(legal: &'a [ClassicAction]) -> ClassicMoves<'a> {
        ClassicMoves {
            given: Some(legal),
            state: None,
            legal: OnceCell::new(),
            candidates: OnceCell::new(),
            spare: Cell::new(ClassicScratch::default()),
            checked: Cell::new(None),
        }
    }

    /// The listing of `state`, made as it is asked, in `scratch`'s
    /// buffers (given back by [`ClassicMoves::into_scratch`]).
    pub fn of(state: &'a ClassicState, scratch: ClassicScratch) -> ClassicMoves<'a> {
        ClassicMoves {
            given: None,
            state: Some(state),
            legal: OnceCell::new(),
            candidates: OnceCell::new(),
            spare: Cell::new(scratch),
            checked: Cell::new(None),
        }
    }

    /// Every legal action.
    pub fn all(&self) -> &[ClassicAction] {
        match (self.given, self.state) {
            (Some(legal), _) => legal,
            (None, Some(state)) => self.legal.get_or_init(|| {
                let mut spare = self.spare.take();
                let mut v = std::mem::take(&mut spare.legal);
                self.spare.set(spare);
                state.legal_actions(&mut v);
                v
            }),
            (None, None) => unreachable!("a listing or a state"),
        }
    }

    /// The listing's candidates, unchecked, in its order
    /// ([`ClassicState::candidates`]): the listing is those of them that
    /// [`ClassicMoves::is_listed`] passes. A given listing is its own
    /// candidates.
    pub fn candidates(&self) -> &[ClassicAction] {
        match (self.given, self.state) {
            (Some(legal), _) => legal,
            (None, Some(state)) => self.candidates.get_or_init(|| {
                let mut spare = self.spare.take();
                let mut v = std::mem::take(&mut spare.candidates);
                self.spare.set(spare);
                state.candidates(&mut v);
                v
            }),
            (None, None) => unreachable!("a listing or a state"),
        }
    }

    /// Whether the listing holds `a`; for a listing not yet made, `a`
    /// alone is judged ([`ClassicState::is_legal`]).
    pub fn is_listed(&self, a: ClassicAction) -> bool {
        if let Some(legal) = self.given.or(self.legal.get().map(|v| &v[..])) {
            return legal.contains(&a);
        }
        let state = self.state.expect("a listing or a state");
        let ok = state.is_legal(a);
        if ok {
            self.checked.set(Some(a));
        }
        ok
    }

    /// Whether `a` is known to be listed: held by the listing if it was
    /// made, or found listed by [`ClassicMoves::is_listed`]. `false`
    /// says only that it is not known.
    pub fn known_listed(&self, a: ClassicAction) -> bool {
        match self.given.or(self.legal.get().map(|v| &v[..])) {
            Some(legal) => legal.contains(&a),
            None => self.checked.get() == Some(a),
        }
    }

    /// The buffers back, for the next decision.
    pub fn into_scratch(self) -> ClassicScratch {
        let mut spare = self.spare.into_inner();
        if let Some(v) = self.legal.into_inner() {
            spare.legal = v;
        }
        if let Some(v) = self.candidates.into_inner() {
            spare.candidates = v;
        }
        spare
    }
}

impl std::fmt::Debug for ClassicMoves<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClassicMoves")
            .field("given", &self.given)
            .field("legal", &self.legal.get())
            .field("candidates", &self.candidates.get())
            .finish_non_exhaustive()
    }
}

impl Deref for ClassicMoves<'_> {
    type Target = [ClassicAction];
    fn deref(&self) -> &[ClassicAction] {
        self.all()
    }
}

/// A rule family as its agents play it: a [`Game`] with the listing its
/// agents choose from.
pub trait Family: Game {
    /// The listing of legal actions an agent is handed
    /// ([`Agent::act`]): [`Moves`] for decorated canasta, [`ClassicMoves`]
    /// for classic canasta.
    type Moves<'a>;
    /// What the turn loop keeps between decisions to make the listing.
    type Scratch: Default;
    /// The family's name in help (`decorated canasta`).
    const TITLE: &'static str;

    /// Asks `agent`, the mover `p` of `state`, for its action, shows it to
    /// `observer` with the state before it, and applies it: the action and
    /// the rule that refused it, if one did (the state then unchanged).
    fn play_one<O: Observer<Self>>(
        agent: &mut dyn Agent<Self>,
        state: &mut Self,
        p: usize,
        scratch: &mut Self::Scratch,
        rng: &mut Pcg64Mcg,
        observer: &mut O,
    ) -> (Self::Action, Result<(), RuleError>);
}

impl Family for GameState {
    type Moves<'a> = Moves<'a>;
    type Scratch = MoveBuf;
    const TITLE: &'static str = "decorated canasta";

    #[inline]
    fn play_one<O: Observer<GameState>>(
        agent: &mut dyn Agent<GameState>,
        state: &mut GameState,
        p: usize,
        buf: &mut MoveBuf,
        rng: &mut Pcg64Mcg,
        observer: &mut O,
    ) -> (Action, Result<(), RuleError>) {
        let view = state.view(p);
        let mut moves = state.moves(buf);
        let action = agent.act(&view, &mut moves, rng);
        let listed = moves.lists(action);
        observer.before(state, p, action);
        // A listed action skips the completion check its listing made; any
        // other goes through the full check and is refused with the rule.
        let applied = if listed {
            state.apply_listed(action)
        } else {
            state.apply(action)
        };
        (action, applied)
    }
}

impl Family for ClassicState {
    type Moves<'a> = ClassicMoves<'a>;
    type Scratch = ClassicScratch;
    const TITLE: &'static str = "classic canasta";

    #[inline]
    fn play_one<O: Observer<ClassicState>>(
        agent: &mut dyn Agent<ClassicState>,
        state: &mut ClassicState,
        p: usize,
        scratch: &mut ClassicScratch,
        rng: &mut Pcg64Mcg,
        observer: &mut O,
    ) -> (ClassicAction, Result<(), RuleError>) {
        let mut moves = ClassicMoves::of(state, std::mem::take(scratch));
        let action = agent.act(&state.view(p), &mut moves, rng);
        let listed = moves.known_listed(action);
        *scratch = moves.into_scratch();
        observer.before(state, p, action);
        // An action known to be listed skips the completion check already
        // made of it; any other goes through the full check (which, for a
        // listed action, `apply_listed` agrees with) and is refused with
        // the rule.
        let applied = if listed {
            state.apply_listed(action)
        } else {
            state.apply(action)
        };
        (action, applied)
    }
}
