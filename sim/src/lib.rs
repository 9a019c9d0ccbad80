//! The kanaszta toolkit above the engine and the agents: runs of many games
//! (plans, the parallel executor, the CSV files and run.json), their
//! statistics and reports, positions, replays, tuning and the terminal
//! game. The `kanaszta` command is a thin layer over it: `cli` holds its
//! clap options, `cmd` one module per command that turns them into a
//! validated plan or input and does the work; tests and other programs
//! call the same modules.

pub mod classic;
pub mod cli;
pub mod cmd;
pub mod error;
pub mod html;
pub mod human;
pub mod input;
pub mod learn;
pub mod lock;
pub mod position;
pub mod report;
pub mod rows;
pub mod rules_doc;
pub mod run;
pub mod show;
pub mod signals;
pub mod sprt;
pub mod stats;
pub mod tune;

/// Exit status when some game was lost to an agent's error.
pub const EXIT_GAME_ERRORS: u8 = 2;
