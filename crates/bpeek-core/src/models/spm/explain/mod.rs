//! Why a model gives a piece, in the model's own terms: a BPE piece by the
//! merges that build it from its text, a Unigram piece by its score beside
//! the best other cut of its text. The explorer shows these where a
//! byte-level token shows its merge tree.

mod cuts;
mod merges;
#[cfg(test)]
pub(super) mod random_models;

pub use cuts::{Cut, UnigramCuts, unigram_cuts};
pub use merges::{BpeReplay, Merge, replay_bpe};
