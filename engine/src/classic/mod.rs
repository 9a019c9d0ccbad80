//! Classic canasta (C-1 … C-24 of RULES.md), the second rule family: the
//! home game decorated canasta came from, with the three presets
//! `classic-002` (default), `classic-003` and `classic-004`.
//!
//! The shape is the decorated engine's: rules as data
//! ([`ClassicRules`]), a hand as an OpenSpiel-style state
//! ([`ClassicState`]: current player, legal actions into a caller's
//! buffer, `apply` with a [`RuleError`](crate::RuleError) naming the C-
//! rule, terminal, scores), a seat's view ([`ClassicView`]) and
//! determinization, and matches to 5,000 ([`ClassicMatch`]).
//!
//! Actions name card kinds and counts, not suited cards: suits matter in
//! classic canasta only for the colour of threes, so each distinct
//! decision is listed once.
//!
//! ```
//! use kanaszta_engine::classic::{ClassicRules, ClassicState};
//! let mut g = ClassicState::new(ClassicRules::preset("classic-003").unwrap(), 1, 0, [0; 6]);
//! let mut legal = Vec::new();
//! while !g.is_terminal() {
//!     g.legal_actions(&mut legal);
//!     // a simple policy: the last listed action (discards come last)
//!     g.apply(*legal.last().unwrap()).unwrap();
//! }
//! let s = g.scores();
//! assert_eq!(s[0], g.side_score(0).total);
//! ```

mod action;
mod flow;
mod legal;
mod matches;
mod position;
mod rules;
mod score;
mod setup;
mod solver;
mod state;
#[doc(hidden)]
pub mod testing;
mod view;

pub use action::{ClassicAction, Counts, Kind, MeldKey, ParseClassicActionError, ParseKindError};
pub use matches::{ClassicMatch, ClassicMatchResult};
pub use position::{is_classic_position, ClassicPosition};
pub use rules::{
    Ask, BlackThreeMeld, BlackThreeTop, ClassicRules, ClassicRulesError, ClosedPile, Minimum,
    PickupRule, WildLimit, WildTop, CLASSIC_PRESETS,
};
pub use score::ClassicScore;
pub use setup::{ClassicSetup, ClassicSetupError};
pub use state::{
    classic_pack, kind_counts, value_of, ClassicEnd, ClassicPhase, ClassicPickup, ClassicState,
    SideTable, CLASSIC_MAX_PACK, CLASSIC_MAX_PLAYERS, CLASSIC_MAX_UNDOS,
};
pub use view::ClassicView;
