//! Running many games: the manifest (`run.json`), the options of a run,
//! a game's plan, the rows of a finished game, the run directory's files,
//! and the parallel executor that streams rows to the CSV files in game
//! order.
//!
//! Determinism: game `g` of series `s` depends only on the plan and `(s, g)`
//! (see [`plan`]); threads only change the order in which games finish,
//! and the executor puts them back in order (see [`exec`]).

pub mod accum;
pub mod exec;
pub mod family;
pub mod files;
pub mod manifest;
pub mod options;
pub mod plan;
pub mod rows;

pub use accum::{Accum, ACCUM};
pub use exec::*;
pub use files::*;
pub use manifest::*;
pub use options::{RulesArgs, RunArgs};
pub use plan::*;
pub use rows::*;
