//! The BPE engine: pre-tokenizers, the step-wise trainer, the encoder and the
//! file formats. Nothing in here draws on a terminal, parses a command line
//! or opens a socket: the explorer, the classroom and the command line are
//! crates above this one.

pub mod corpora;
#[doc(hidden)]
pub mod dice;
pub mod encode_report;
pub mod error;
pub mod memory_budget;
pub mod output;

pub mod added;
pub mod ascii_cuts;
pub mod bert_text;
pub mod cells;
pub mod chain;
pub mod char_bpe;
pub mod choice;
pub mod chunk_cache;
pub mod chunk_counts;
pub mod compare;
pub mod corpus;
pub mod display;
pub mod encoder;
pub mod fertility;
pub mod first_count;
pub mod hf_ids;
pub mod hf_pretok;
pub mod hf_text;
pub mod unicode_cuts;

pub mod io;
pub mod line_cuts;
pub mod mapped;
pub mod merge;
pub mod model;
pub mod names;
pub mod packed;
pub mod paged;
pub mod pairs;
pub mod pattern_work;
pub mod pipeline;
pub mod pretok;
pub mod rank_pairs;
pub mod regex_split;
pub mod resync;
pub mod script;
pub mod specials;
pub mod splitter;
pub mod spm;
pub mod steps_spans;
pub mod text_step;

pub mod trainer;
pub mod vocab;
pub mod wordpiece;
pub mod wordpiece_score;

pub use corpus::Corpus;
pub use encoder::{Template, Tokenizer};
pub use names::{Mode, Score, TieRule};
pub use pretok::{Digits, Pretok};
pub use trainer::{Phase, Round, Segment, StopReason, Trainer, TrainerConfig};
pub use vocab::Vocab;

/// A token id. In byte mode ids 0-255 are the bytes and merge `r` makes `256 + r`.
pub type TokenId = u32;

/// Two adjacent tokens, left then right.
pub type Pair = (TokenId, TokenId);
