//! A word's lattice: every piece of the vocabulary that stands at each
//! place of the word, and the best cut (Viterbi), with or without one
//! piece; the share of all cuts that takes each piece is in
//! [`crate::train::unigram::forward_backward`].
//!
//! Edges are listed by their start, shortest first, so a walk in list
//! order finds every path into a place before any path out of it.

use crate::models::spm::trie::Trie;

/// A piece's index among the seeds; it keeps it while training goes.
pub type PieceId = u32;

/// One piece standing in a word: bytes `start..end` of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub start: u32,
    pub end: u32,
    pub piece: PieceId,
}

/// The edges of `word` for the pieces of `trie`, into `out`.
pub fn edges(trie: &Trie, word: &str, out: &mut Vec<Edge>) {
    out.clear();
    let bytes = word.as_bytes();
    for (start, _) in word.char_indices() {
        trie.prefixes(&bytes[start..], |len, piece| {
            out.push(Edge {
                start: start as u32,
                end: (start + len) as u32,
                piece,
            });
        });
    }
}

/// The best cut's value at each place of a word, and the edge that ends
/// it there; reused from word to word.
#[derive(Debug, Default)]
pub struct Viterbi {
    best: Vec<f64>,
    back: Vec<u32>,
}

const NO_EDGE: u32 = u32::MAX;

impl Viterbi {
    /// The log-probability of the best cut of a word `len` bytes long
    /// (minus infinity if there is none), leaving `skip` out. Among equal
    /// values the first path found stays.
    pub fn run(&mut self, edges: &[Edge], len: usize, logp: &[f64], skip: Option<PieceId>) -> f64 {
        self.best.clear();
        self.best.resize(len + 1, f64::NEG_INFINITY);
        self.back.clear();
        self.back.resize(len + 1, NO_EDGE);
        self.best[0] = 0.0;
        for (i, e) in edges.iter().enumerate() {
            if Some(e.piece) == skip {
                continue;
            }
            let value = self.best[e.start as usize] + logp[e.piece as usize];
            if value > self.best[e.end as usize] {
                self.best[e.end as usize] = value;
                self.back[e.end as usize] = i as u32;
            }
        }
        self.best[len]
    }

    /// The log-probability of the best cut, as [`Viterbi::run`] finds it,
    /// without noting the path: the loss needs only the value, and it is
    /// summed after every step.
    pub fn value(&mut self, edges: &[Edge], len: usize, logp: &[f64]) -> f64 {
        self.best.clear();
        self.best.resize(len + 1, f64::NEG_INFINITY);
        self.best[0] = 0.0;
        for e in edges {
            let value = self.best[e.start as usize] + logp[e.piece as usize];
            let end = &mut self.best[e.end as usize];
            *end = end.max(value);
        }
        self.best[len]
    }

    /// The same without the piece `skip`.
    pub fn value_without(
        &mut self,
        edges: &[Edge],
        len: usize,
        logp: &[f64],
        skip: PieceId,
    ) -> f64 {
        self.best.clear();
        self.best.resize(len + 1, f64::NEG_INFINITY);
        self.best[0] = 0.0;
        for e in edges.iter().filter(|e| e.piece != skip) {
            let value = self.best[e.start as usize] + logp[e.piece as usize];
            let end = &mut self.best[e.end as usize];
            *end = end.max(value);
        }
        self.best[len]
    }

    /// The edges of the best cut found by the last [`Viterbi::run`] over
    /// `edges`, in order (empty if there was none).
    pub fn path_in(&self, edges: &[Edge], out: &mut Vec<u32>) {
        out.clear();
        let mut at = self.best.len() - 1;
        while at > 0 {
            let i = self.back[at];
            if i == NO_EDGE {
                out.clear();
                return;
            }
            out.push(i);
            at = edges[i as usize].start as usize;
        }
        out.reverse();
    }
}

/// `ln(e^a + e^b)`, exact when either is minus infinity.
#[inline]
pub fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}
