//! What a round of training decides, apart from how it decides it: the
//! winner and its tied rivals ([`Choice`]), WordPiece's score of a pair
//! ([`PairScore`]), and why training stops ([`StopReason`]). The trainer
//! and each way of scoring (count, WordPiece) share these.

use crate::Pair;
use std::cmp::Ordering;
use std::fmt;

/// How many tied rivals a choice lists by name (all are counted).
pub const RIVALS_LISTED: usize = 64;

/// Why training stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The merge budget (or target vocabulary size) was reached.
    Budget,
    /// The best pair's count fell below the minimum count.
    MinCount { best: u64, min: u64 },
    /// Every chunk is a single token.
    NoPairs,
    /// The best pair would make a token longer than the files that hold
    /// tokens accept.
    TokenTooLong { bytes: usize, max: usize },
}

impl StopReason {
    /// A few words, for a status line.
    pub fn short(self) -> &'static str {
        match self {
            StopReason::Budget => "merge budget reached",
            StopReason::MinCount { .. } => "best count below minimum",
            StopReason::NoPairs => "no pairs left",
            StopReason::TokenTooLong { .. } => "next token too long",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            StopReason::Budget => "budget",
            StopReason::MinCount { .. } => "min_count",
            StopReason::NoPairs => "no_pairs",
            StopReason::TokenTooLong { .. } => "token_too_long",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Budget => f.write_str("merge budget reached"),
            StopReason::MinCount { best, min } => {
                write!(f, "best pair count {best} is below the minimum count {min}")
            }
            StopReason::NoPairs => f.write_str("no pairs left: every chunk is one token"),
            StopReason::TokenTooLong { bytes, max } => write!(
                f,
                "the best pair would make a token of {bytes} bytes, more than the {max} bytes a tokenizer file holds"
            ),
        }
    }
}

/// The winner of a round and the pairs that had the same count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub pair: Pair,
    pub count: u64,
    /// Tied rivals in selection order (at most [`RIVALS_LISTED`]).
    pub rivals: Vec<Pair>,
    /// How many rivals there are in all.
    pub rivals_total: usize,
    /// The best count below the winner's, if any pair has one.
    pub next_best: Option<u64>,
    /// The chunk the winner was met in first (chunks are numbered in order
    /// of first appearance), which decides a tie under rule `first`.
    pub first_chunk: Option<u32>,
    /// With WordPiece's score: the winner's score, and the most frequent
    /// pair's where that pair did not win.
    pub score: Option<PairScore>,
    pub most_frequent: Option<(Pair, PairScore)>,
}

/// A pair's score as its three counts: `count / (left x right)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairScore {
    /// How often the pair stands in the corpus.
    pub count: u64,
    /// How often its left token stands in the corpus.
    pub left: u64,
    /// How often its right token stands in the corpus.
    pub right: u64,
}

impl PairScore {
    pub fn value(&self) -> f64 {
        self.count as f64 / (self.left as f64 * self.right as f64)
    }

    /// The two scores compared exactly.
    pub fn cmp_exact(&self, other: &PairScore) -> Ordering {
        let mine = self.count as u128 * (other.left as u128 * other.right as u128);
        let theirs = other.count as u128 * (self.left as u128 * self.right as u128);
        mine.cmp(&theirs)
    }

    /// The value in a few columns: four decimals, as the course writes
    /// scores, or three significant digits where four decimals would be
    /// all or nearly all zeros (a large corpus makes tiny scores).
    pub fn shown(&self) -> String {
        let v = self.value();
        if v >= 0.001 || v == 0.0 {
            format!("{v:.4}")
        } else {
            format!("{v:.2e}")
        }
    }

    /// `0.0500 = 5 / (20 x 5)`.
    pub fn said(&self) -> String {
        format!(
            "{} = {} / ({} x {})",
            self.shown(),
            self.count,
            self.left,
            self.right
        )
    }
}
