//! bpeek: see how byte-pair-encoding tokenizers are made and what they cost.
//!
//! The [`bpe`] module is the engine and knows nothing of terminals; the
//! command line ([`cli`]), the explorer ([`tui`]) and the classroom
//! ([`serve`]) all drive its step-wise [`bpe::Trainer`], with the options
//! they share in [`options`]. Each uses only the modules it needs below
//! it: the explorer never the server or the command line.

pub mod bench;
pub mod bpe;
pub mod cli;
pub mod corpora;
#[cfg(test)]
pub(crate) mod dice;
pub mod encode_report;
pub mod error;
pub(crate) mod freed_memory;
pub mod interrupt;
pub mod memory_budget;
pub mod options;
pub mod output;
pub mod serve;
pub mod tui;
