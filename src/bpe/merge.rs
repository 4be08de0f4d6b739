//! The two operations everything else is built from: listing the adjacent
//! pairs of a token sequence and replacing one pair left to right.

use crate::bpe::{Pair, TokenId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One merge as training made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub rank: usize,
    pub pair: Pair,
    pub id: TokenId,
    /// The pair's count (overlapping windows) when it won.
    pub count: u64,
    /// How many times it was replaced (left to right, no overlap).
    pub replacements: u64,
}

/// Every adjacent pair, overlapping windows included (`a a a` has two).
pub fn pairs_of(symbols: &[TokenId]) -> impl Iterator<Item = Pair> + '_ {
    symbols.windows(2).map(|w| (w[0], w[1]))
}

/// Replace each occurrence of `pair` by `new`, left to right, without
/// overlap. Returns how many were replaced.
pub fn merge_pair(symbols: &[TokenId], pair: Pair, new: TokenId, out: &mut Vec<TokenId>) -> usize {
    out.clear();
    let mut replaced = 0;
    let mut i = 0;
    while i < symbols.len() {
        if i + 1 < symbols.len() && symbols[i] == pair.0 && symbols[i + 1] == pair.1 {
            out.push(new);
            replaced += 1;
            i += 2;
        } else {
            out.push(symbols[i]);
            i += 1;
        }
    }
    replaced
}

/// Undo [`merge_pair`]: expand every `new` back into `pair`.
pub fn split_token(symbols: &[TokenId], pair: Pair, new: TokenId, out: &mut Vec<TokenId>) -> usize {
    out.clear();
    let mut split = 0;
    for &s in symbols {
        if s == new {
            out.push(pair.0);
            out.push(pair.1);
            split += 1;
        } else {
            out.push(s);
        }
    }
    split
}

/// Apply merges by rank: repeatedly merge the adjacent pair with the lowest
/// rank, leftmost first, until no pair has a rank. `rank_of` gives a pair's
/// rank and the id it merges into.
///
/// This equals replaying the merges one rank at a time, because a pair that
/// contains the token made by merge `r` can only have a rank above `r`.
pub fn apply_ranked(symbols: &mut Vec<TokenId>, rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>) {
    if symbols.len() < 2 {
        return;
    }
    if symbols.len() <= SHORT {
        apply_ranked_small(symbols, rank_of)
    } else {
        apply_ranked_heap(symbols, rank_of)
    }
}

/// Chunks up to this many symbols are merged by scanning a small array.
const SHORT: usize = 64;

/// Quadratic in comparisons but linear in rank look-ups, and free of
/// allocation: each pair's rank is looked up once, and after a merge only
/// the two pairs around it are looked up again. Best for the short chunks
/// of real text.
fn apply_ranked_small(
    symbols: &mut Vec<TokenId>,
    rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>,
) {
    const NO_RANK: (u32, TokenId) = (u32::MAX, 0);
    let mut len = symbols.len();
    if len < 2 {
        return;
    }
    let mut ranks = [NO_RANK; SHORT];
    for i in 0..len - 1 {
        ranks[i] = rank_of((symbols[i], symbols[i + 1])).unwrap_or(NO_RANK);
    }
    while len > 1 {
        let mut at = 0;
        for i in 1..len - 1 {
            if ranks[i].0 < ranks[at].0 {
                at = i;
            }
        }
        if ranks[at].0 == u32::MAX {
            break;
        }
        symbols[at] = ranks[at].1;
        symbols.copy_within(at + 2..len, at + 1);
        ranks.copy_within(at + 2..len, at + 1);
        len -= 1;
        ranks[at] = if at + 1 < len {
            rank_of((symbols[at], symbols[at + 1])).unwrap_or(NO_RANK)
        } else {
            NO_RANK
        };
        if at > 0 {
            ranks[at - 1] = rank_of((symbols[at - 1], symbols[at])).unwrap_or(NO_RANK);
        }
    }
    symbols.truncate(len);
}

/// A linked list over positions and a heap of (rank, position): O(n log n)
/// for chunks of any length. Stale heap entries are skipped when popped.
fn apply_ranked_heap(symbols: &mut Vec<TokenId>, rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>) {
    const NONE: usize = usize::MAX;
    let n = symbols.len();
    let mut next: Vec<usize> = (1..=n).map(|i| if i == n { NONE } else { i }).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| if i == 0 { NONE } else { i - 1 }).collect();
    let mut alive = vec![true; n];
    let mut heap = BinaryHeap::new();
    for i in 0..n - 1 {
        if let Some((r, _)) = rank_of((symbols[i], symbols[i + 1])) {
            heap.push(Reverse((r, i)));
        }
    }
    while let Some(Reverse((r, i))) = heap.pop() {
        if !alive[i] || next[i] == NONE {
            continue;
        }
        let j = next[i];
        let Some((current, id)) = rank_of((symbols[i], symbols[j])) else {
            continue;
        };
        if current != r {
            continue;
        }
        symbols[i] = id;
        alive[j] = false;
        next[i] = next[j];
        if next[j] != NONE {
            prev[next[j]] = i;
        }
        if prev[i] != NONE
            && let Some((r2, _)) = rank_of((symbols[prev[i]], symbols[i]))
        {
            heap.push(Reverse((r2, prev[i])));
        }
        if next[i] != NONE
            && let Some((r2, _)) = rank_of((symbols[i], symbols[next[i]]))
        {
            heap.push(Reverse((r2, i)));
        }
    }
    let mut k = 0;
    for i in 0..n {
        if alive[i] {
            symbols[k] = symbols[i];
            k += 1;
        }
    }
    symbols.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_pairs_count_every_window_but_merge_left_to_right() {
        let aaaa = [97, 97, 97, 97];
        assert_eq!(pairs_of(&aaaa).filter(|p| *p == (97, 97)).count(), 3);
        let mut out = Vec::new();
        assert_eq!(merge_pair(&aaaa, (97, 97), 256, &mut out), 2);
        assert_eq!(out, vec![256, 256]);
        let mut back = Vec::new();
        split_token(&out, (97, 97), 256, &mut back);
        assert_eq!(back, aaaa);
    }

    #[test]
    fn heap_and_small_paths_agree() {
        // Ranks: (1,1)->10 r0, (10,1)->11 r1, (2,1)->12 r2, (11,10)->13 r3.
        let rank = |p: Pair| match p {
            (1, 1) => Some((0, 10)),
            (10, 1) => Some((1, 11)),
            (2, 1) => Some((2, 12)),
            (11, 10) => Some((3, 13)),
            _ => None,
        };
        let mut seed = 7u64;
        for _ in 0..500 {
            let len = (seed % 60) as usize;
            let mut v = Vec::new();
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                v.push(1 + ((seed >> 33) % 2) as u32);
            }
            let mut a = v.clone();
            let mut b = v.clone();
            apply_ranked_small(&mut a, rank);
            if b.len() >= 2 {
                apply_ranked_heap(&mut b, rank);
            }
            assert_eq!(a, b, "input {v:?}");
        }
    }
}
