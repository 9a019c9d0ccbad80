//! Learning from self-play: training data written by `kanaszta learn
//! data` ([`data`], in the `.npy` files of [`npy`]) and a value model
//! fitted to it by `kanaszta learn fit` ([`fit`]). docs/LEARNING.md
//! describes the files field by field.

pub mod data;
pub mod fit;

pub mod npy;
