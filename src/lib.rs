//! bpeek: see how byte-pair-encoding tokenizers are made and what they cost.
//!
//! The [`bpe`] module is the engine and knows nothing of terminals; [`cli`]
//! and [`tui`] both drive its step-wise [`bpe::Trainer`].

pub mod bpe;
pub mod cli;
pub mod corpora;
pub mod error;
pub mod serve;
pub mod tui;
