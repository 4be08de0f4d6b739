//! The models that turn a chunk into tokens: byte-level merges by rank (their
//! tables), BPE on characters, SentencePiece BPE and Unigram, WordPiece and
//! WordLevel.

pub mod byte_index;
pub mod char_bpe;
pub mod chunk_cache;
pub mod laid_tables;
pub mod rank_pairs;
pub mod spm;
pub mod wordpiece;
