//! The BPE engine: pre-tokenizers, the step-wise trainer, the encoder and the
//! file formats. Nothing in here draws on a terminal.

pub(crate) mod added;
pub(crate) mod ascii_cuts;
pub(crate) mod bert_text;
pub(crate) mod cells;
pub(crate) mod chain;
pub mod char_bpe;
pub(crate) mod chunk_cache;
pub mod chunk_counts;
pub mod compare;
pub mod corpus;
pub mod display;
pub(crate) mod encoder;
pub mod fertility;
pub(crate) mod first_count;
pub(crate) mod hf_ids;
pub mod hf_pretok;
pub mod hf_text;
pub(crate) mod unicode_cuts;

pub mod io;
pub(crate) mod line_cuts;
pub mod mapped;
pub(crate) mod merge;
pub(crate) mod names;
pub(crate) mod packed;
pub(crate) mod paged;
pub(crate) mod pairs;
pub mod pattern_work;
pub mod pretok;
pub(crate) mod rank_pairs;
pub mod regex_split;
pub mod resync;
pub(crate) mod script;
pub(crate) mod specials;
pub(crate) mod splitter;
pub mod spm;
pub(crate) mod steps_spans;
pub mod text_step;

pub mod trainer;
pub(crate) mod vocab;
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
