//! WordPiece's score (`--score wordpiece`), as the Hugging Face course
//! describes WordPiece training: the pair to merge is the one with the
//! highest count(ab) / (count(a) x count(b)), which favours pairs whose
//! parts are rare on their own over pairs that are merely frequent. The
//! pair table is the one BPE keeps; the trainer keeps how often each token
//! stands in the corpus beside it, updated by each merge and undo.
//!
//! Scores are compared exactly (as fractions, by cross-multiplying), and
//! among equal scores the pair met first in the table's own order wins:
//! the higher count, then the tie rule.

use crate::train::chain::Chain;
pub use crate::train::choice::PairScore;
use crate::train::choice::{Choice, StopReason};
use crate::train::corpus::Corpus;
use crate::train::pairs::PairTable;
use crate::train::score_order::ScoreOrder;
use crate::{Pair, TokenId};
use std::cmp::Ordering;

/// WordPiece's way of choosing a round's winner, with what it keeps
/// beside the pair table: how often each token stands in the corpus as it
/// is now cut (weighted by chunk counts), by id, and the pairs in the
/// order the score merges them (see [`ScoreOrder`]).
#[derive(Debug, Clone, Default)]
pub struct WordPieceScore {
    symbols: Vec<u64>,
    order: ScoreOrder,
}

/// What the score reads of a round: the pair table and the bounds a
/// winner must meet.
pub struct Round<'a> {
    pub table: &'a PairTable,
    pub min_count: u64,
    pub max_token_bytes: usize,
    /// The length of a token's bytes.
    pub token_len: &'a dyn Fn(TokenId) -> usize,
    /// The chunk a pair was met in first.
    pub chunk_of: &'a dyn Fn(Pair) -> Option<u32>,
    /// How many tied rivals to list (at most).
    pub listed: usize,
}

/// The score of `(a, b)`, which stands `count` times, with the tokens'
/// counts `symbols`.
fn score_with(symbols: &[u64], (a, b): Pair, count: u64) -> PairScore {
    let of = |id: TokenId| symbols.get(id as usize).copied().unwrap_or(0);
    // A token always stands where its pairs do; the floor only keeps a
    // stale count from dividing by zero.
    PairScore {
        count,
        left: of(a).max(1),
        right: of(b).max(1),
    }
}

impl WordPieceScore {
    /// The counts of the tokens as `chain` cuts `corpus`, and the pairs of
    /// `table` (counted on the same chain) in order; from now on `table`
    /// keeps the pairs it moves, for [`WordPieceScore::merged`].
    pub fn of(chain: &Chain, corpus: &Corpus, table: &mut PairTable, min_count: u64) -> Self {
        let symbols = symbol_counts(chain, corpus);
        table.track_moves();
        let order = ScoreOrder::new(table, min_count, &symbols);
        WordPieceScore { symbols, order }
    }

    /// How often token `id` stands in the corpus now.
    pub fn count(&self, id: TokenId) -> u64 {
        self.symbols.get(id as usize).copied().unwrap_or(0)
    }

    /// The score of `pair`, which stands `count` times.
    pub fn score_of(&self, pair: Pair, count: u64) -> PairScore {
        score_with(&self.symbols, pair, count)
    }

    /// After merge `pair` into `id` replaced it `times` times, and `table`
    /// settled.
    pub fn merged(&mut self, pair: Pair, id: TokenId, times: u64, table: &mut PairTable) {
        merged(&mut self.symbols, pair, id, times);
        self.reorder(pair, id, table);
    }

    /// After that merge is undone, and `table` settled.
    pub fn unmerged(&mut self, pair: Pair, id: TokenId, times: u64, table: &mut PairTable) {
        unmerged(&mut self.symbols, pair, id, times);
        self.reorder(pair, id, table);
    }

    /// Key again what the merge or undo of `(a, b)` into `id` changed: the
    /// pairs the table moved, and those of the three tokens whose counts
    /// moved.
    fn reorder(&mut self, (a, b): Pair, id: TokenId, table: &mut PairTable) {
        let moved = table.take_moved();
        self.order.update(table, &moved, &[a, b, id], &self.symbols);
    }
}

/// The first `k` pairs in the order the score picks winners in (pairs the
/// minimum count lets merge first, then the higher score, then the
/// table's own order), with their scores: the first is the pair
/// [`choose`] merges next.
pub fn top(score: &WordPieceScore, k: usize) -> Vec<(Pair, PairScore)> {
    score
        .order
        .walk(&score.symbols)
        .take(k)
        .map(|r| (r.pair, r.score))
        .collect()
}

/// The 0-based place of each of `pairs` in that order (`None` for a pair
/// not in the table).
pub fn ranks(score: &WordPieceScore, pairs: &[Pair]) -> Vec<Option<usize>> {
    let asked: rustc_hash::FxHashSet<Pair> = pairs.iter().copied().collect();
    let rank_of: rustc_hash::FxHashMap<Pair, usize> = score
        .order
        .walk(&score.symbols)
        .enumerate()
        .filter(|(_, r)| asked.contains(&r.pair))
        .map(|(i, r)| (r.pair, i))
        .collect();
    pairs.iter().map(|p| rank_of.get(p).copied()).collect()
}

/// How often each token stands in the corpus as `chain` cuts it, by id,
/// each chunk weighted by how often it occurs.
fn symbol_counts(chain: &Chain, corpus: &Corpus) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for (c, chunk) in corpus.chunks().iter().enumerate() {
        for pos in chain.chunk_range(c as u32) {
            let id = chain.at(pos) as usize;
            if id >= out.len() {
                out.resize(id + 1, 0);
            }
            out[id] += chunk.freq;
        }
    }
    out
}

/// The counts after merge `pair` into `id` replaced it `times` times.
fn merged(symbols: &mut Vec<u64>, (a, b): Pair, id: TokenId, times: u64) {
    if symbols.len() <= id as usize {
        symbols.resize(id as usize + 1, 0);
    }
    for t in [a, b] {
        if let Some(n) = symbols.get_mut(t as usize) {
            *n = n.saturating_sub(times);
        }
    }
    symbols[id as usize] += times;
}

/// The counts after that merge is undone.
fn unmerged(symbols: &mut [u64], (a, b): Pair, id: TokenId, times: u64) {
    if let Some(n) = symbols.get_mut(id as usize) {
        *n = n.saturating_sub(times);
    }
    for t in [a, b] {
        if let Some(n) = symbols.get_mut(t as usize) {
            *n += times;
        }
    }
}

/// The pair with the best score, everything tied with it, and the most
/// frequent pair's score where that pair does not win; or why training
/// has to stop. The winner and its rivals are read off the front of the
/// order, and the rivals counted by their score's tally.
pub fn choose(wp: &WordPieceScore, round: &Round) -> Result<Choice, StopReason> {
    let Some(most_frequent) = round.table.best() else {
        return Err(StopReason::NoPairs);
    };
    if most_frequent.1 < round.min_count {
        return Err(StopReason::MinCount {
            best: most_frequent.1,
            min: round.min_count,
        });
    }
    // Pairs below the minimum count take no part.
    let mut order = wp.order.walk(&wp.symbols).take_while(|r| r.eligible);
    let Some(winner) = order.next() else {
        return Err(StopReason::NoPairs);
    };
    let (pair, winning) = (winner.pair, winner.score);
    let bytes = (round.token_len)(pair.0) + (round.token_len)(pair.1);
    if bytes > round.max_token_bytes {
        return Err(StopReason::TokenTooLong {
            bytes,
            max: round.max_token_bytes,
        });
    }
    let rivals = order
        .take_while(|r| r.score.cmp_exact(&winning) == Ordering::Equal)
        .take(round.listed)
        .map(|r| r.pair)
        .collect();
    Ok(Choice {
        pair,
        count: winning.count,
        rivals,
        rivals_total: wp.order.tied_with_first(&winning) - 1,
        next_best: None,
        first_chunk: (round.chunk_of)(pair),
        score: Some(winning),
        most_frequent: (most_frequent.0 != pair).then(|| {
            (
                most_frequent.0,
                wp.score_of(most_frequent.0, most_frequent.1),
            )
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_compare_as_fractions() {
        let gs = PairScore {
            count: 5,
            left: 20,
            right: 5,
        };
        let ug = PairScore {
            count: 20,
            left: 36,
            right: 20,
        };
        assert_eq!(gs.cmp_exact(&ug), Ordering::Greater);
        assert_eq!(gs.said(), "0.0500 = 5 / (20 x 5)");
        assert_eq!(ug.said(), "0.0278 = 20 / (36 x 20)");
        let half = PairScore {
            count: 1,
            left: 1,
            right: 2,
        };
        let same = PairScore {
            count: 2,
            left: 2,
            right: 2,
        };
        assert_eq!(half.cmp_exact(&same), Ordering::Equal);
    }
}
