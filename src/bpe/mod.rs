//! The BPE engine: pre-tokenizers, the step-wise trainer, the encoder and the
//! file formats. Nothing in here draws on a terminal.

pub mod added;
pub mod ascii_cuts;
pub mod chain;
pub mod chunk_cache;
pub mod corpus;
pub mod display;
pub mod encoder;
pub mod fertility;
pub mod hf_ids;

pub mod io;
pub mod line_cuts;
pub mod merge;
pub mod names;
pub mod pairs;
pub mod pretok;
pub mod rank_pairs;
pub mod script;
pub mod specials;
pub mod splitter;

pub mod trainer;
pub mod vocab;

pub use corpus::Corpus;
pub use encoder::Tokenizer;
pub use names::{Mode, TieRule};
pub use pretok::Pretok;
pub use trainer::{Phase, Segment, StopReason, Trainer, TrainerConfig};
pub use vocab::Vocab;

/// A token id. In byte mode ids 0-255 are the bytes and merge `r` makes `256 + r`.
pub type TokenId = u32;

/// Two adjacent tokens, left then right.
pub type Pair = (TokenId, TokenId);
