//! Learning from self-play: training data written by `kanaszta learn
//! data` ([`data`], in the `.npy` files of [`npy`]), a value model fitted
//! to it by `kanaszta learn fit` ([`fit`]), and the two in turn,
//! generation after generation, by `kanaszta learn loop` ([`iteration`]).
//! docs/LEARNING.md describes the files field by field.

pub mod data;
pub mod fit;
pub mod iteration;

pub mod npy;
