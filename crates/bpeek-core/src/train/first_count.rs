//! The full count at merge 0: every pair of adjacent base symbols, with its
//! weighted count and its places.
//!
//! A long chain is walked twice. The first walk sizes each pair's list of
//! places, so that the second writes each list into room of its final
//! size: on a long chunk the lists are the largest thing training keeps
//! after the chain, and lists grown by doubling would hold up to twice
//! that at the peak.

use crate::train::chain::Chain;
use crate::train::corpus::Corpus;
use crate::train::packed::Packed;
use crate::train::pairs::Counted;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;

/// Chains shorter than this are counted in one walk: their lists are
/// small, and what doubling leaves spare is too.
const SIZED_FROM: usize = 1 << 20;

/// Every pair of `chain` (at merge 0) with its count and ascending places,
/// and how many tokens the corpus is cut into.
pub fn count_pairs(chain: &Chain, corpus: &Corpus) -> (Vec<(Pair, Counted)>, u64) {
    let mut tokens = 0u64;
    for (c, chunk) in corpus.chunks().iter().enumerate() {
        tokens += chunk.freq * chain.chunk_range(c as u32).len() as u64;
    }
    let mut index = PairIndex::new();
    if chain.len() < SIZED_FROM {
        let mut lists: Vec<Counted> = Vec::new();
        for_each_place(chain, corpus, |pair, pos, freq| {
            let s = index.slot(pair);
            if s == lists.len() {
                lists.push(Counted::default());
            }
            lists[s].count += freq;
            lists[s].places.push(pos);
        });
        return (index.pairs.into_iter().zip(lists).collect(), tokens);
    }
    let mut sizes: Vec<Size> = Vec::new();
    for_each_place(chain, corpus, |pair, pos, freq| {
        let s = index.slot(pair);
        if s == sizes.len() {
            sizes.push(Size::default());
        }
        let size = &mut sizes[s];
        size.count += freq;
        size.bytes += Packed::gap_bytes(size.last, pos);
        size.last = Some(pos);
    });
    let mut lists: Vec<Counted> = sizes
        .iter()
        .map(|s| Counted {
            count: s.count,
            places: Packed::with_capacity(s.bytes),
        })
        .collect();
    drop(sizes);
    for_each_place(chain, corpus, |pair, pos, _| {
        lists[index.slot(pair)].places.push(pos);
    });
    (index.pairs.into_iter().zip(lists).collect(), tokens)
}

#[derive(Default)]
struct Size {
    count: u64,
    bytes: usize,
    last: Option<u32>,
}

/// Every pair place of `chain`, in layout order, with its chunk's frequency.
fn for_each_place(chain: &Chain, corpus: &Corpus, mut f: impl FnMut(Pair, u32, u64)) {
    for (c, chunk) in corpus.chunks().iter().enumerate() {
        let range = chain.chunk_range(c as u32);
        let Some(last) = range.end.checked_sub(1) else {
            continue;
        };
        let mut previous = chain.at(range.start);
        for pos in range.start..last {
            let next = chain.at(pos + 1);
            f((previous, next), pos, chunk.freq);
            previous = next;
        }
    }
}

/// Pairs numbered in order of first appearance: a flat table for pairs of
/// two bytes (most of them, in byte mode), a map for the others.
struct PairIndex {
    flat: Vec<u32>,
    others: FxHashMap<Pair, u32>,
    pairs: Vec<Pair>,
}

/// Symbols below this are looked up in the flat table.
const FLAT: TokenId = 256;

impl PairIndex {
    fn new() -> Self {
        PairIndex {
            flat: vec![u32::MAX; (FLAT * FLAT) as usize],
            others: FxHashMap::default(),
            pairs: Vec::new(),
        }
    }

    /// The number of `pair`, the next one if it is new.
    #[inline]
    fn slot(&mut self, pair: Pair) -> usize {
        let next = self.pairs.len() as u32;
        let slot = if pair.0 < FLAT && pair.1 < FLAT {
            let cell = &mut self.flat[(pair.0 * FLAT + pair.1) as usize];
            if *cell == u32::MAX {
                *cell = next;
            }
            *cell
        } else {
            *self.others.entry(pair).or_insert(next)
        };
        if slot == next {
            self.pairs.push(pair);
        }
        slot as usize
    }
}
