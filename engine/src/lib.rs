//! # kanaszta-engine
//!
//! The rules of *Díszített kanaszta* (decorated canasta), exact and fast:
//! bitset card sets ([`CardSet`]), rules as data ([`Rules`]), a hand as an
//! OpenSpiel-style state ([`GameState`]) with legal actions, rule errors that
//! name the rule of RULES.md they enforce, scoring ([`HandScore`]), the tax
//! ([`tax`]), matches to 10,000 ([`Match`]), per-seat views and
//! determinization ([`SeatView`]), JSON positions ([`Position`]) and game
//! logs ([`GameLog`]); [`Game`] is the interface both rule
//! families share. Classic canasta, the second rule family (C-1 …
//! C-24), is in [`classic`]. For learners and bindings, both families
//! have fixed integer action ids with a legal mask ([`ActionIds`]), a
//! seat's view as a fixed-size array of numbers ([`Encode`], laid out in
//! docs/ENCODING.md), and one concrete type for a hand of either family
//! ([`AnyGame`]).
//!
//! ```
//! use kanaszta_engine::{GameState, Rules};
//! let g = GameState::new(Rules::default(), 7);
//! let mut legal = Vec::new();
//! g.legal_actions(&mut legal);
//! assert_eq!(legal.len(), 8); // the starter's eight ways to keep cut cards
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod action;
mod any_game;
mod card;
mod card_set;
pub mod classic;
mod classic_encode;
mod classic_ids;
mod deadlock;
mod encode;
mod error;
mod game;
mod group;
mod ids;
mod log;
mod matches;
mod position;
mod rules;
mod score;
pub mod seed;
mod solver;
mod state;
mod table;
mod tax;
#[cfg(test)]
mod test_util;

pub use action::{completion_class, Action, ParseActionError};
pub use any_game::{AnyAction, AnyError, AnyGame, AnyScore};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use card_set::{rank_mask, CardSet, ParseCardSetError};
pub use classic_encode::CLASSIC_OBS_LEN;
pub use classic_ids::CLASSIC_ACTION_IDS;
pub use deadlock::{dead_locked, never_goes_out, wild_can_move};
pub use encode::{Encode, Field, HeldRow, DECORATED_OBS_LEN, ENCODING_VERSION};
pub use error::{InvariantError, RuleError};
pub use game::Game;
pub use group::{legal_natural_counts, max_wilds, CanastaKind, Group};
pub use ids::{ActionIds, ACTION_IDS_VERSION, DECORATED_ACTION_IDS};
pub use log::{GameLog, LogError};
pub use matches::{HandRecord, Match, MatchResult};
pub use position::{Position, PositionError};
pub use rules::{
    BlackCanastaWilds, Deadlock, Family, GroupsPerRank, Opening, Permit, Reshuffle, Rules,
    RulesError, StalledHandCards, Switch, TaxBracket, TaxNegative, TaxRounding, TaxSchedule,
    Version, WildCanasta, MAX_OPENING, PRESETS,
};
pub use score::{red_three_points, score_table, GoingOut, HandScore};
pub use seed::derive_seed;
pub use solver::going_out::can_go_out_with;
pub use solver::opening::{max_opening, max_opening_any};
pub use state::moves::{MoveBuf, Moves};
pub use state::view::SeatView;
pub use state::{GameState, HandEnd, Phase, Pickup, PlayerStats, MAX_PLAYERS, MAX_UNDOS, PACK};
pub use table::{Table, MAX_GROUPS};
pub use tax::tax;
