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
use crate::train::choice::{Choice, RIVALS_LISTED, StopReason};
use crate::train::corpus::Corpus;
use crate::train::pairs::PairTable;
use crate::{Pair, TokenId};
use std::cmp::Ordering;

/// WordPiece's way of choosing a round's winner, with what it keeps
/// beside the pair table: how often each token stands in the corpus as it
/// is now cut (weighted by chunk counts), by id.
#[derive(Debug, Clone, Default)]
pub struct WordPieceScore {
    symbols: Vec<u64>,
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
}

impl WordPieceScore {
    /// The counts of the tokens as `chain` cuts `corpus`.
    pub fn of(chain: &Chain, corpus: &Corpus) -> Self {
        WordPieceScore {
            symbols: symbol_counts(chain, corpus),
        }
    }

    /// How often token `id` stands in the corpus now.
    pub fn count(&self, id: TokenId) -> u64 {
        self.symbols.get(id as usize).copied().unwrap_or(0)
    }

    /// The score of `pair`, which stands `count` times.
    pub fn score_of(&self, (a, b): Pair, count: u64) -> PairScore {
        // A token always stands where its pairs do; the floor only keeps a
        // stale count from dividing by zero.
        PairScore {
            count,
            left: self.count(a).max(1),
            right: self.count(b).max(1),
        }
    }

    /// After merge `pair` into `id` replaced it `times` times.
    pub fn merged(&mut self, pair: Pair, id: TokenId, times: u64) {
        merged(&mut self.symbols, pair, id, times);
    }

    /// After that merge is undone.
    pub fn unmerged(&mut self, pair: Pair, id: TokenId, times: u64) {
        unmerged(&mut self.symbols, pair, id, times);
    }
}

/// Where a pair stands in the order the score picks winners in: pairs the
/// minimum count lets merge first, then the higher score, then the place
/// in the table's own order (the higher count, then the tie rule), as
/// [`choose`] breaks ties. The less, the sooner it merges.
#[derive(Debug, Clone, Copy)]
struct Place {
    eligible: bool,
    score: PairScore,
    index: usize,
    pair: Pair,
}

impl Ord for Place {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .eligible
            .cmp(&self.eligible)
            .then_with(|| other.score.cmp_exact(&self.score))
            .then(self.index.cmp(&other.index))
    }
}

impl PartialOrd for Place {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Two places are equal only at the same index in the table, that is for
// the same pair.
impl PartialEq for Place {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl Eq for Place {}

fn places<'a>(
    score: &'a WordPieceScore,
    table: &'a PairTable,
    min: u64,
) -> impl Iterator<Item = Place> + 'a {
    table
        .iter()
        .enumerate()
        .map(move |(index, (pair, count))| Place {
            eligible: count >= min,
            score: score.score_of(pair, count),
            index,
            pair,
        })
}

/// The first `k` pairs in the order the score picks winners in, with
/// their scores: the first is the pair [`choose`] merges next. One walk
/// over the table, keeping the best `k` on a heap.
pub fn top(
    score: &WordPieceScore,
    table: &PairTable,
    min: u64,
    k: usize,
) -> Vec<(Pair, PairScore)> {
    if k == 0 {
        return Vec::new();
    }
    let mut heap = std::collections::BinaryHeap::with_capacity(k + 1);
    for place in places(score, table, min) {
        // The heap's top is the worst kept: a place no better is skipped
        // without a push.
        if heap.len() == k && heap.peek().is_some_and(|worst| place >= *worst) {
            continue;
        }
        heap.push(place);
        if heap.len() > k {
            heap.pop();
        }
    }
    heap.into_sorted_vec()
        .into_iter()
        .map(|p| (p.pair, p.score))
        .collect()
}

/// The 0-based place of each of `pairs` in that order (`None` for a pair
/// not in the table), in two walks over the table rather than a sort of
/// all of it: a pair goes before the asked pairs from the first one it
/// does not follow on, so a running sum over them gives each its place.
pub fn ranks(
    score: &WordPieceScore,
    table: &PairTable,
    min: u64,
    pairs: &[Pair],
) -> Vec<Option<usize>> {
    let asked: rustc_hash::FxHashSet<Pair> = pairs.iter().copied().collect();
    let mut found: Vec<Place> = places(score, table, min)
        .filter(|p| asked.contains(&p.pair))
        .collect();
    found.sort_unstable();
    // between[j]: how many pairs go before found[j] but not before found[j - 1].
    let mut between = vec![0usize; found.len() + 1];
    for place in places(score, table, min) {
        between[found.partition_point(|f| *f <= place)] += 1;
    }
    let mut rank_of = rustc_hash::FxHashMap::default();
    let mut before = 0;
    for (j, f) in found.iter().enumerate() {
        before += between[j];
        rank_of.insert(f.pair, before);
    }
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
/// has to stop.
pub fn choose(wp: &WordPieceScore, round: &Round) -> Result<Choice, StopReason> {
    let table = round.table;
    let score = |(pair, count): (Pair, u64)| wp.score_of(pair, count);
    let Some(most_frequent) = table.best() else {
        return Err(StopReason::NoPairs);
    };
    if most_frequent.1 < round.min_count {
        return Err(StopReason::MinCount {
            best: most_frequent.1,
            min: round.min_count,
        });
    }
    // Pairs below the minimum count take no part.
    let mut best: Option<(Pair, PairScore)> = None;
    for entry in table.iter().take_while(|&(_, c)| c >= round.min_count) {
        let s = score(entry);
        if best.is_none_or(|(_, b)| s.cmp_exact(&b) == Ordering::Greater) {
            best = Some((entry.0, s));
        }
    }
    let Some((pair, winning)) = best else {
        return Err(StopReason::NoPairs);
    };
    let bytes = (round.token_len)(pair.0) + (round.token_len)(pair.1);
    if bytes > round.max_token_bytes {
        return Err(StopReason::TokenTooLong {
            bytes,
            max: round.max_token_bytes,
        });
    }
    let mut rivals = Vec::new();
    let mut rivals_total = 0;
    for entry in table.iter().take_while(|&(_, c)| c >= round.min_count) {
        if entry.0 != pair && score(entry).cmp_exact(&winning) == Ordering::Equal {
            if rivals.len() < RIVALS_LISTED {
                rivals.push(entry.0);
            }
            rivals_total += 1;
        }
    }
    Ok(Choice {
        pair,
        count: winning.count,
        rivals,
        rivals_total,
        next_best: None,
        first_chunk: (round.chunk_of)(pair),
        score: Some(winning),
        most_frequent: (most_frequent.0 != pair).then(|| (most_frequent.0, score(most_frequent))),
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
