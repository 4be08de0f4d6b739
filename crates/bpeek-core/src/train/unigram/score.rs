//! Each piece's score: how much the corpus loss (the negative
//! log-probability of every word's best cut, words counted as often as
//! they occur) would grow if the piece were removed, the others keeping
//! their probabilities. Only a word whose best cut takes the piece can
//! change, so each such word is cut again without it.

use crate::train::unigram::lattice::{PieceId, Viterbi};
use crate::train::unigram::lattices::Lattices;
use crate::train::unigram::pieces::Pieces;
use crate::train::unigram::words::Words;

/// A piece's score and the words behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceScore {
    pub piece: PieceId,
    /// The loss increase if the piece were removed.
    pub loss_increase: f64,
    /// How many word occurrences have it in their best cut.
    pub uses: u64,
}

/// The corpus as every word's best cut gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorpusCut {
    /// The negative log-probability of every word's best cut, words
    /// counted as often as they occur.
    pub loss: f64,
    /// The pieces of those cuts, words counted as often as they occur.
    pub tokens: u64,
}

/// The corpus cut now, and the score of every piece of two characters or
/// more in the vocabulary, in the order of [`Pieces::alive`].
pub fn score_pieces(
    words: &Words,
    lattices: &Lattices,
    pieces: &Pieces,
) -> (CorpusCut, Vec<PieceScore>) {
    let logp = pieces.all_logp();
    let mut increase = vec![0.0f64; logp.len()];
    let mut uses = vec![0u64; logp.len()];
    let mut viterbi = Viterbi::default();
    let mut path = Vec::new();
    let mut taken: Vec<PieceId> = Vec::new();
    let mut loss = 0.0;
    let mut tokens = 0u64;
    for (i, (word, count)) in words.iter().enumerate() {
        let lattice = lattices.word(i);
        let best = viterbi.run(lattice, word.len(), logp, None);
        loss -= count as f64 * best;
        viterbi.path_in(lattice, &mut path);
        tokens += count * path.len() as u64;
        taken.clear();
        taken.extend(
            path.iter()
                .map(|&i| lattice[i as usize].piece)
                .filter(|&p| !pieces.is_char(p)),
        );
        taken.sort_unstable();
        taken.dedup();
        for &p in &taken {
            let without = viterbi.value_without(lattice, word.len(), logp, p);
            increase[p as usize] += count as f64 * (best - without);
            uses[p as usize] += count;
        }
    }
    let scores = pieces
        .alive()
        .iter()
        .filter(|&&p| !pieces.is_char(p))
        .map(|&p| PieceScore {
            piece: p,
            loss_increase: increase[p as usize],
            uses: uses[p as usize],
        })
        .collect();
    (CorpusCut { loss, tokens }, scores)
}

/// The corpus loss (the negative log-probability of every word's best
/// cut, words counted as often as they occur) and the tokens of those cuts.
pub fn corpus_cut(words: &Words, lattices: &Lattices, pieces: &Pieces) -> CorpusCut {
    let logp = pieces.all_logp();
    let mut viterbi = Viterbi::default();
    let mut path = Vec::new();
    let mut cut = CorpusCut {
        loss: 0.0,
        tokens: 0,
    };
    for (i, (word, count)) in words.iter().enumerate() {
        let lattice = lattices.word(i);
        cut.loss -= count as f64 * viterbi.run(lattice, word.len(), logp, None);
        viterbi.path_in(lattice, &mut path);
        cut.tokens += count * path.len() as u64;
    }
    cut
}
