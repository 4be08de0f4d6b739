//! One EM iteration: each word's expected piece counts from its lattice by
//! forward-backward (E), then each piece's log-probability as the log of
//! its share of all expected counts (M).
//!
//! A piece no cut needs (a character always inside a longer piece) sees
//! its probability shrink each iteration until its expected count is
//! below what a float holds; its log would then be minus infinity, and a
//! word that needs it later (once the longer piece is pruned) could not be
//! cut. So counts too small for a float are summed as logs.

use crate::train::unigram::lattice::{ForwardBackward, log_add};
use crate::train::unigram::lattices::Lattices;
use crate::train::unigram::pieces::Pieces;
use crate::train::unigram::words::Words;

/// What an iteration gives: the new log-probabilities (in the order of
/// [`Pieces::alive`]) and the corpus's negative log-likelihood summed over
/// every cut of each word, under the probabilities it started from.
pub struct Estimate {
    pub logp: Vec<f64>,
    pub expected: Vec<f64>,
    pub objective: f64,
}

/// Below this log, an expected count is summed as a log: its exponential
/// would lose precision or vanish.
const SMALLEST_ADDED: f64 = -600.0;

pub fn estimate(words: &Words, lattices: &Lattices, pieces: &Pieces) -> Estimate {
    let logp = pieces.all_logp();
    let mut expected = vec![0.0f64; logp.len()];
    // The log of each piece's expected count from shares too small to add.
    let mut tiny = vec![f64::NEG_INFINITY; logp.len()];
    let mut objective = 0.0;
    let mut fb = ForwardBackward::default();
    for (i, (word, count)) in words.iter().enumerate() {
        let lattice = lattices.word(i);
        let log_count = (count as f64).ln();
        let z = fb.run(lattice, word.len(), logp, |piece, log_share| {
            let l = log_count + log_share;
            if l > SMALLEST_ADDED {
                expected[piece as usize] += l.exp();
            } else {
                tiny[piece as usize] = log_add(tiny[piece as usize], l);
            }
        });
        objective -= count as f64 * z;
    }
    let alive = pieces.alive();
    let total: f64 = alive.iter().map(|&id| expected[id as usize]).sum();
    let log_total = total.ln();
    let new: Vec<f64> = alive
        .iter()
        .map(|&id| log_add(expected[id as usize].ln(), tiny[id as usize]) - log_total)
        .collect();
    Estimate {
        logp: new,
        expected: alive.iter().map(|&id| expected[id as usize]).collect(),
        objective,
    }
}
