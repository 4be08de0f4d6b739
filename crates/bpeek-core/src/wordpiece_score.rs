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

use crate::chain::Chain;
use crate::corpus::Corpus;
use crate::trainer::{Choice, RIVALS_LISTED, StopReason, Trainer};
use crate::{Pair, TokenId};
use std::cmp::Ordering;

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

/// The score of `pair`, which stands `count` times, as the trainer counts
/// its tokens now.
pub fn score_of(t: &Trainer, (a, b): Pair, count: u64) -> PairScore {
    // A token always stands where its pairs do; the floor only keeps a
    // stale count from dividing by zero.
    PairScore {
        count,
        left: t.symbol_count(a).max(1),
        right: t.symbol_count(b).max(1),
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

fn places(t: &Trainer) -> impl Iterator<Item = Place> + '_ {
    let min = t.config().min_count;
    t.pairs()
        .iter()
        .enumerate()
        .map(move |(index, (pair, count))| Place {
            eligible: count >= min,
            score: score_of(t, pair, count),
            index,
            pair,
        })
}

/// The first `k` pairs in the order the score picks winners in, with
/// their scores: the first is the pair [`choose`] merges next. One walk
/// over the table, keeping the best `k` on a heap.
pub fn top(t: &Trainer, k: usize) -> Vec<(Pair, PairScore)> {
    if k == 0 {
        return Vec::new();
    }
    let mut heap = std::collections::BinaryHeap::with_capacity(k + 1);
    for place in places(t) {
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
pub fn ranks(t: &Trainer, pairs: &[Pair]) -> Vec<Option<usize>> {
    let asked: rustc_hash::FxHashSet<Pair> = pairs.iter().copied().collect();
    let mut found: Vec<Place> = places(t).filter(|p| asked.contains(&p.pair)).collect();
    found.sort_unstable();
    // between[j]: how many pairs go before found[j] but not before found[j - 1].
    let mut between = vec![0usize; found.len() + 1];
    for place in places(t) {
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
pub fn symbol_counts(chain: &Chain, corpus: &Corpus) -> Vec<u64> {
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
pub fn merged(symbols: &mut Vec<u64>, (a, b): Pair, id: TokenId, times: u64) {
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
pub fn unmerged(symbols: &mut [u64], (a, b): Pair, id: TokenId, times: u64) {
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
pub fn choose(t: &Trainer) -> Result<Choice, StopReason> {
    let config = t.config();
    let (table, chunk_of) = t.table_and_chunk_of();
    let score = |(pair, count): (Pair, u64)| score_of(t, pair, count);
    let Some(most_frequent) = table.best() else {
        return Err(StopReason::NoPairs);
    };
    if most_frequent.1 < config.min_count {
        return Err(StopReason::MinCount {
            best: most_frequent.1,
            min: config.min_count,
        });
    }
    // Pairs below the minimum count take no part.
    let mut best: Option<(Pair, PairScore)> = None;
    for entry in table.iter().take_while(|&(_, c)| c >= config.min_count) {
        let s = score(entry);
        if best.is_none_or(|(_, b)| s.cmp_exact(&b) == Ordering::Greater) {
            best = Some((entry.0, s));
        }
    }
    let Some((pair, winning)) = best else {
        return Err(StopReason::NoPairs);
    };
    let bytes = t.token_bytes(pair.0).len() + t.token_bytes(pair.1).len();
    if bytes > config.max_token_bytes {
        return Err(StopReason::TokenTooLong {
            bytes,
            max: config.max_token_bytes,
        });
    }
    let mut rivals = Vec::new();
    let mut rivals_total = 0;
    for entry in table.iter().take_while(|&(_, c)| c >= config.min_count) {
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
        first_chunk: chunk_of(pair),
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
