//! Which pairs surely do not merge, told from a small table of bits: most
//! pairs looked up while merging a chunk have no rank (every two tokens
//! side by side at the end are one), and the map of 100-200 thousand
//! pairs answers each from memory outside the cache. The bits, half a
//! megabyte, stay in the cache: a pair whose two bits are not both set has
//! no rank, and only the others are looked up in the map.

use crate::bpe::Pair;

/// 2^22 bits: about 20 per merge of the largest built-in tokenizer.
const WORDS: usize = 1 << 16;

#[derive(Debug)]
pub struct PairFilter {
    words: Box<[u64]>,
}

impl PairFilter {
    pub fn new(pairs: impl Iterator<Item = Pair>) -> Self {
        let mut words = vec![0u64; WORDS].into_boxed_slice();
        for pair in pairs {
            let (word, bits) = place(pair);
            words[word] |= bits;
        }
        PairFilter { words }
    }

    /// False if `pair` surely has no rank; true if it may.
    #[inline]
    pub fn may_hold(&self, pair: Pair) -> bool {
        let (word, bits) = place(pair);
        self.words[word] & bits == bits
    }
}

/// A pair's word and its two bits in it (one line of memory).
#[inline]
fn place((a, b): Pair) -> (usize, u64) {
    let h = ((a as u64) << 32 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let word = (h >> 48) as usize & (WORDS - 1);
    let bits = 1u64 << (h & 63) | 1u64 << ((h >> 6) & 63);
    (word, bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_put_in_may_be_there_and_few_others_may() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 200_000) as u32
        };
        let pairs: Vec<Pair> = (0..200_000).map(|_| (next(), next())).collect();
        let filter = PairFilter::new(pairs.iter().copied());
        assert!(pairs.iter().all(|&p| filter.may_hold(p)));
        let set: std::collections::HashSet<Pair> = pairs.into_iter().collect();
        let others: Vec<Pair> = (0..100_000)
            .map(|_| (next(), next()))
            .filter(|p| !set.contains(p))
            .collect();
        let passed = others.iter().filter(|&&p| filter.may_hold(p)).count();
        assert!(
            passed * 20 < others.len(),
            "{passed} of {} pass",
            others.len()
        );
    }
}
