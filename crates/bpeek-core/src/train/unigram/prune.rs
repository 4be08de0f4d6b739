//! Which pieces a prune removes: the lowest-scoring share of the pieces of
//! two characters or more, so that the vocabulary keeps
//! `shrinking_factor` of its size (or the size asked for, if that is
//! more). Among equal scores the piece seeded later goes first.
//!
//! Scores are compared to a millionth of a nat: two pieces whose scores
//! are equal in exact arithmetic (a corpus with `ab` and `ba` as often)
//! get floats that differ in their last digits, by the order the sums were
//! made in, and which of them goes should not hang on that.

use crate::train::unigram::lattice::PieceId;
use crate::train::unigram::score::PieceScore;

/// How many pieces a vocabulary of `size` keeps in a prune.
pub fn kept_size(size: usize, shrinking_factor: f64, target: usize) -> usize {
    ((size as f64 * shrinking_factor).floor() as usize).max(target)
}

/// A score as compared: in millionths of a nat.
pub fn score_key(loss_increase: f64) -> i64 {
    // `as` saturates, so an infinite score is the largest.
    (loss_increase * 1e6).round() as i64
}

/// The scores in the order pieces go: lowest score first, then the piece
/// seeded later.
pub fn removal_order(scores: &[PieceScore]) -> Vec<PieceScore> {
    let mut order = scores.to_vec();
    order.sort_by(|a, b| {
        score_key(a.loss_increase)
            .cmp(&score_key(b.loss_increase))
            .then(b.piece.cmp(&a.piece))
    });
    order
}

/// The pieces to remove from a vocabulary of `size`, with their scores,
/// in the order they go.
pub fn choose_removals(
    scores: &[PieceScore],
    size: usize,
    shrinking_factor: f64,
    target: usize,
) -> Vec<PieceScore> {
    let remove = size.saturating_sub(kept_size(size, shrinking_factor, target));
    let mut order = removal_order(scores);
    order.truncate(remove);
    order
}

/// The ids of `removed`.
pub fn ids(removed: &[PieceScore]) -> Vec<PieceId> {
    removed.iter().map(|s| s.piece).collect()
}
