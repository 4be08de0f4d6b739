//! The BPE engine: pre-tokenizers, the step-wise trainer, the encoder and the
//! file formats. Nothing in here draws on a terminal, parses a command line
//! or opens a socket: the explorer, the classroom and the command line are
//! crates above this one.

pub mod corpora;
pub mod decode;
#[doc(hidden)]
pub mod dice;
pub mod encode_report;
pub mod error;
pub mod memory_budget;
pub mod memory_owner;
pub mod output;

pub mod display;
pub mod embedding;
pub mod encoder;
pub mod fertility;
pub mod fertility_report;

pub mod formats;
pub mod large_pages;
pub mod line_cuts;
pub mod merge;
pub mod model;
pub mod models;
pub mod names;
pub mod normalize;
pub mod parallel;
pub mod pipeline;
pub mod post;
pub mod pretokenize;
pub mod resync;
pub mod script;
pub mod specials;
pub mod token_bytes;
pub mod train;

pub mod vocab;

pub use encoder::{Template, Tokenizer};
pub use names::{Mode, Score, TieRule};
pub use pretokenize::pretok::{Digits, Pretok};
pub use train::corpus::Corpus;
pub use train::trainer::{Phase, Round, Segment, StopReason, Trainer, TrainerConfig};
pub use vocab::Vocab;

/// A token id. In byte mode ids 0-255 are the bytes and merge `r` makes `256 + r`.
pub type TokenId = u32;

/// Two adjacent tokens, left then right.
pub type Pair = (TokenId, TokenId);
