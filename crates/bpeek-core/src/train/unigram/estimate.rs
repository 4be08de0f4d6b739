//! One EM iteration: each word's expected piece counts from its lattice by
//! forward-backward (E); then, as sentencepiece does, the pieces of two
//! characters or more expected fewer than half a time are dropped, and
//! each piece left gets the log of its share of their expected counts (M).
//!
//! A piece no cut needs (a character always inside a longer piece) sees
//! its probability shrink each iteration until its expected count is
//! below what a float holds; its log would then be minus infinity, and a
//! word that needs it later (once the longer piece is pruned) could not be
//! cut. So counts too small for a float are summed as logs.

use crate::train::unigram::forward_backward::{ForwardBackward, Probabilities, Share};
use crate::train::unigram::lattice::{PieceId, log_add};
use crate::train::unigram::lattices::Lattices;
use crate::train::unigram::pieces::Pieces;
use crate::train::unigram::words::Words;

/// The expected count under which a piece is dropped after an iteration
/// (sentencepiece's).
pub const DROP_BELOW: f64 = 0.5;

/// A piece dropped after an EM iteration, with its expected count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dropped {
    pub piece: PieceId,
    pub expected: f64,
}

/// What an iteration gives: the new log-probabilities (in the order of
/// [`Pieces::alive`]; a dropped piece keeps the one it had), the pieces
/// dropped, and the corpus's negative log-likelihood summed over every
/// cut of each word, under the probabilities it started from.
pub struct Estimate {
    pub logp: Vec<f64>,
    pub dropped: Vec<Dropped>,
    pub objective: f64,
}

/// Below this log, an expected count is summed as a log: its exponential
/// would lose precision or vanish.
const SMALLEST_ADDED: f64 = -600.0;

/// An expected count as compared with [`DROP_BELOW`]: in millionths, as
/// scores are, so that a count of exactly one half in exact arithmetic
/// does not go one way or the other by the order its sum was made in.
pub fn expected_key(expected: f64) -> i64 {
    (expected * 1e6).round() as i64
}

/// One EM iteration; never drops the vocabulary below `target` pieces.
pub fn estimate(words: &Words, lattices: &Lattices, pieces: &Pieces, target: usize) -> Estimate {
    let logp = pieces.all_logp();
    let mut expected = vec![0.0f64; logp.len()];
    // The log of each piece's expected count from shares too small to add.
    let mut tiny = vec![f64::NEG_INFINITY; logp.len()];
    let mut objective = 0.0;
    let mut fb = ForwardBackward::default();
    let probabilities = Probabilities::new(logp);
    for (i, (word, count)) in words.iter().enumerate() {
        let lattice = lattices.word(i);
        let weight = count as f64;
        let z = fb.run(lattice, word.len(), &probabilities, |piece, share| {
            let l = match share {
                // At least 1e-250, so never below the smallest added.
                Share::Plain(x) => {
                    expected[piece as usize] += weight * x;
                    return;
                }
                Share::Log(l) => weight.ln() + l,
            };
            if l > SMALLEST_ADDED {
                expected[piece as usize] += l.exp();
            } else {
                tiny[piece as usize] = log_add(tiny[piece as usize], l);
            }
        });
        objective -= count as f64 * z;
    }
    let dropped = drops(pieces, &expected, target);
    let mut gone = vec![false; logp.len()];
    for d in &dropped {
        gone[d.piece as usize] = true;
    }
    let alive = pieces.alive();
    let kept = || alive.iter().filter(|&&id| !gone[id as usize]);
    let log_total = kept().map(|&id| expected[id as usize]).sum::<f64>().ln();
    let new = alive
        .iter()
        .map(|&id| match gone[id as usize] {
            true => logp[id as usize],
            false => log_add(expected[id as usize].ln(), tiny[id as usize]) - log_total,
        })
        .collect();
    Estimate {
        logp: new,
        dropped,
        objective,
    }
}

/// The pieces of two characters or more expected fewer than
/// [`DROP_BELOW`] times, lowest first (then the later seed), as many as
/// leave `target` pieces.
fn drops(pieces: &Pieces, expected: &[f64], target: usize) -> Vec<Dropped> {
    let threshold = expected_key(DROP_BELOW);
    let mut out: Vec<(i64, Dropped)> = pieces
        .alive()
        .iter()
        .filter(|&&id| !pieces.is_char(id))
        .map(|&id| Dropped {
            piece: id,
            expected: expected[id as usize],
        })
        .map(|d| (expected_key(d.expected), d))
        .filter(|&(key, _)| key < threshold)
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.piece.cmp(&a.1.piece)));
    out.truncate(pieces.alive().len().saturating_sub(target));
    out.into_iter().map(|(_, d)| d).collect()
}
