//! Training, step by step: the trainer and its rounds, the corpus and its
//! chunks, the live pair table, the chain of tokens, the scores (count,
//! WordPiece), Hugging Face's tie ids, and Unigram training.

pub mod cells;
pub mod chain;
pub mod choice;
pub mod chunk_counts;
pub mod compare;
pub mod corpus;
pub mod first_count;
pub mod hf_ids;
pub mod packed;
pub mod paged;
pub mod pairs;
pub mod score_order;
pub mod shard_edges;
pub mod trainer;
pub mod unigram;
pub mod wordpiece_score;
