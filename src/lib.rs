//! bpeek: see how byte-pair-encoding tokenizers are made and what they cost.
//!
//! This crate is the `bpeek` program: its command line ([`cli`]) and its
//! benchmarks ([`bench`]). The layers below are crates of their own, each
//! using only the ones under it:
//!
//! - `bpeek-core` ([`bpe`]): the engine, the tokenizers, their files and
//!   the step-wise trainer; nothing of terminals, command lines or sockets.
//! - `bpeek-counts` ([`counts`]): count files, Parquet or tab-separated.
//! - `bpeek-tui` ([`tui`], [`options`]): the explorer and the options the
//!   commands share.
//! - `bpeek-serve` ([`serve`], with the `classroom` feature): the explorer
//!   for a whole class over SSH.
//!
//! The names below are those the program's tests and benchmarks use.

pub mod bench;
pub mod cli;
pub mod interrupt;

pub use bpeek_core as bpe;
pub use bpeek_core::{
    corpora, encode_report, error, memory_budget, memory_owner, outln, output, tell,
};
pub use bpeek_counts as counts;
#[cfg(feature = "classroom")]
pub use bpeek_serve as serve;
pub use bpeek_tui as tui;
pub use bpeek_tui::options;
