//! Learning from self-play: training data written by `kanaszta learn
//! data` ([`data`], in the `.npy` files of [`npy`]), a value model fitted
//! to it by `kanaszta learn fit` ([`fit`]), and the two in turn,
//! generation after generation, by `kanaszta learn loop` ([`iteration`]);
//! a linear model over a few hand-made directions tuned by play against
//! an opponent, by `kanaszta learn tune` ([`tune`]).
//! docs/LEARNING.md describes the files field by field.

pub mod data;
pub mod fit;
pub mod iteration;
pub mod tune;

pub mod npy;
