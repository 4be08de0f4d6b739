//! Unigram training, step by step (Kudo 2018, as sentencepiece trains it):
//! seed pieces, EM, pruning by loss, until the vocabulary size.
//!
//! The corpus is cut into words ([`words`]), seeded ([`seed`]), and the
//! trainer ([`trainer`]) goes a phase at a time: each EM iteration
//! ([`estimate`]) walks every word's lattice ([`lattice`]) forward and
//! backward ([`forward_backward`]; the lattices are kept, [`lattices`])
//! and drops the pieces expected fewer than half a time; scoring
//! ([`score`]) cuts each word again without each piece of its best cut; a
//! prune ([`prune`]) removes the lowest-scoring share.
//! [`inspect`] is what a screen reads off it.

pub mod config;
pub mod estimate;
pub mod forward_backward;
pub mod inspect;
pub mod lattice;
pub mod lattices;
pub mod pieces;
pub mod prune;
pub mod score;
pub mod seed;
pub mod trainer;
pub mod vocabulary;
pub mod words;

pub use config::{UnigramConfig, WordMarks};
pub use estimate::Dropped;
pub use inspect::{LatticeEdge, PieceRow, PruneEdge, Verdict, WordLattice};
pub use lattice::PieceId;
pub use score::PieceScore;
pub use trainer::{Gone, StepDetail, UnigramPhase, UnigramStep, UnigramStop, UnigramTrainer};
pub use vocabulary::UnigramVocabulary;
pub use words::Words;
