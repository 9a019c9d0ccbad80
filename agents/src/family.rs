//! What the agents need of a rule family beyond the engine's [`Game`]:
//! the listing an agent chooses from ([`Family::Moves`]) and how the turn
//! loop hands it over ([`Family::play_one`], shown to an [`Observer`]).
//!
//! The listing is the family's: decorated canasta's meld phase lists
//! lazily ([`Moves`], whose candidates are checked only as an agent asks),
//! classic canasta lists every action ([`ClassicMoves`]). An agent of
//! either family is an [`Agent<G>`](Agent) whatever the listing.

use crate::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicState};
use kanaszta_engine::{Action, Game, GameState, MoveBuf, Moves, RuleError};
use rand_pcg::Pcg64Mcg;
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
#[derive(Clone, Copy, Debug)]
pub struct ClassicMoves<'a> {
    legal: &'a [ClassicAction],
}

impl<'a> ClassicMoves<'a> {
    /// The listing `legal`.
    pub fn new(legal: &'a [ClassicAction]) -> ClassicMoves<'a> {
        ClassicMoves { legal }
    }

    /// Every legal action.
    pub fn all(&self) -> &'a [ClassicAction] {
        self.legal
    }
}

impl Deref for ClassicMoves<'_> {
    type Target = [ClassicAction];
    fn deref(&self) -> &[ClassicAction] {
        self.legal
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
    type Scratch = Vec<ClassicAction>;
    const TITLE: &'static str = "classic canasta";

    #[inline]
    fn play_one<O: Observer<ClassicState>>(
        agent: &mut dyn Agent<ClassicState>,
        state: &mut ClassicState,
        p: usize,
        legal: &mut Vec<ClassicAction>,
        rng: &mut Pcg64Mcg,
        observer: &mut O,
    ) -> (ClassicAction, Result<(), RuleError>) {
        state.legal_actions(legal);
        let action = agent.act(&state.view(p), &mut ClassicMoves::new(legal), rng);
        observer.before(state, p, action);
        // A listed action skips the completion check its listing made; any
        // other goes through the full check and is refused with the rule.
        let applied = if legal.contains(&action) {
            state.apply_listed(action)
        } else {
            state.apply(action)
        };
        (action, applied)
    }
}
