//! [`Game`]: one interface for both rule families, in the shape of
//! OpenSpiel's `State`: the current player, legal actions into a caller's
//! buffer, `apply` with a [`RuleError`], a seat's view, determinization
//! from the view, terminal, scores per side. The parts that need not know
//! the family (random play, soak tests, runners) are written against it.
//!
//! Both implementations only delegate to the family's own methods, which
//! stay the fast path: the trait adds no work to a decorated hand.
//!
//! ```
//! use kanaszta_engine::classic::{ClassicRules, ClassicState};
//! use kanaszta_engine::{Game, GameState, Rules};
//!
//! /// Plays a hand to its end with the first listed action.
//! fn first_action<G: Game>(mut g: G) -> G {
//!     let mut legal = Vec::new();
//!     while !g.is_terminal() {
//!         g.legal_actions(&mut legal);
//!         g.apply(legal[0]).unwrap();
//!     }
//!     g
//! }
//! let d = first_action(GameState::new(Rules::default(), 7));
//! let c = first_action(ClassicState::new(ClassicRules::default(), 7, 0, [0; 6]));
//! assert!(d.is_terminal() && c.is_terminal());
//! assert_eq!(Game::sides(&c), 2);
//! ```

use crate::action::Action;
use crate::classic::{ClassicAction, ClassicState, ClassicView};
use crate::error::{InvariantError, RuleError};
use crate::state::view::SeatView;
use crate::state::GameState;
use rand::Rng;
use std::fmt::{Debug, Display};

/// A hand of a card game as the toolkit plays it.
pub trait Game: Clone + Send + Sync + 'static {
    /// One decision.
    type Action: Copy + Eq + Debug + Display + Send + Sync + 'static;
    /// What one seat may know; the only thing a player is given.
    type View<'a>: Copy
    where
        Self: 'a;

    /// The family's name in specs and rows: [`crate::Family::name`] of
    /// the game's family (`decorated`, `classic`).
    const FAMILY: &'static str;

    /// Number of players.
    fn players(&self) -> usize;
    /// Number of sides: players play alone, or in partnerships of two.
    fn sides(&self) -> usize;
    /// The side of a seat (its own index when players play alone).
    fn side_of(&self, seat: usize) -> usize;
    /// The player to act.
    fn current_player(&self) -> usize;
    /// The legal actions into `out` (cleared first), in a fixed order;
    /// never empty before the end.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Applies an action, or says which rule forbids it (the state is
    /// then unchanged).
    fn apply(&mut self, action: Self::Action) -> Result<(), RuleError>;
    /// Applies an action that [`Game::legal_actions`] of this very state
    /// listed, with `apply`'s result; a family may skip the checks the
    /// listing already made. For an action not listed, use `apply`.
    fn apply_listed(&mut self, action: Self::Action) -> Result<(), RuleError> {
        self.apply(action)
    }
    /// What `seat` may know.
    fn view(&self, seat: usize) -> Self::View<'_>;
    /// A full state consistent with a view, the unseen cards dealt at
    /// random: the only way from a view to a state.
    fn determinize<R: Rng + ?Sized>(view: &Self::View<'_>, rng: &mut R) -> Self;
    /// Whether the hand is over.
    fn is_terminal(&self) -> bool;
    /// A side's score for this hand as it stands (meaningful once
    /// terminal; before any tax or match total).
    fn side_score(&self, side: usize) -> i32;
    /// Turns completed.
    fn turns(&self) -> u32;
    /// The family's invariants (the pack conserved, legal groups or
    /// melds), as the soak tests check them after every action.
    fn check_invariants(&self) -> Result<(), InvariantError>;
}

impl Game for GameState {
    type Action = Action;
    type View<'a> = SeatView<'a>;
    const FAMILY: &'static str = crate::Family::Decorated.name();

    fn players(&self) -> usize {
        GameState::players(self)
    }
    fn sides(&self) -> usize {
        GameState::players(self)
    }
    fn side_of(&self, seat: usize) -> usize {
        seat
    }
    fn current_player(&self) -> usize {
        GameState::current_player(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        GameState::legal_actions(self, out)
    }
    fn apply(&mut self, action: Action) -> Result<(), RuleError> {
        GameState::apply(self, action)
    }
    fn apply_listed(&mut self, action: Action) -> Result<(), RuleError> {
        GameState::apply_listed(self, action)
    }
    fn view(&self, seat: usize) -> SeatView<'_> {
        GameState::view(self, seat)
    }
    fn determinize<R: Rng + ?Sized>(view: &SeatView<'_>, rng: &mut R) -> GameState {
        view.determinize(rng)
    }
    fn is_terminal(&self) -> bool {
        GameState::is_terminal(self)
    }
    fn side_score(&self, side: usize) -> i32 {
        self.score_of(side).total
    }
    fn turns(&self) -> u32 {
        GameState::turns(self)
    }
    fn check_invariants(&self) -> Result<(), InvariantError> {
        GameState::check_invariants(self)
    }
}

impl Game for ClassicState {
    type Action = ClassicAction;
    type View<'a> = ClassicView<'a>;
    const FAMILY: &'static str = crate::Family::Classic.name();

    fn players(&self) -> usize {
        ClassicState::players(self)
    }
    fn sides(&self) -> usize {
        self.rules().sides()
    }
    fn side_of(&self, seat: usize) -> usize {
        ClassicState::side_of(self, seat)
    }
    fn current_player(&self) -> usize {
        ClassicState::current_player(self)
    }
    fn legal_actions(&self, out: &mut Vec<ClassicAction>) {
        ClassicState::legal_actions(self, out)
    }
    fn apply(&mut self, action: ClassicAction) -> Result<(), RuleError> {
        ClassicState::apply(self, action)
    }
    fn apply_listed(&mut self, action: ClassicAction) -> Result<(), RuleError> {
        ClassicState::apply_listed(self, action)
    }
    fn view(&self, seat: usize) -> ClassicView<'_> {
        ClassicState::view(self, seat)
    }
    fn determinize<R: Rng + ?Sized>(view: &ClassicView<'_>, rng: &mut R) -> ClassicState {
        view.determinize(rng)
    }
    fn is_terminal(&self) -> bool {
        ClassicState::is_terminal(self)
    }
    fn side_score(&self, side: usize) -> i32 {
        ClassicState::side_score(self, side).total
    }
    fn turns(&self) -> u32 {
        ClassicState::turns(self)
    }
    fn check_invariants(&self) -> Result<(), InvariantError> {
        ClassicState::check_invariants(self)
    }
}
