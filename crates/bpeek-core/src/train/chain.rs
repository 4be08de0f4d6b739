//! The distinct chunks as linked tokens, merged and split in place.
//!
//! Every base symbol of every distinct chunk has a position in one array:
//! the chunks are laid out in order of first appearance, each followed by an
//! end mark. A token lives at the position of its first base symbol, and the
//! positions it covers beyond that are marked as inside it. So a position
//! orders occurrences by (chunk, offset), the token after a position is found
//! from the token's length in base symbols, and a merge or its undo rewrites
//! a handful of cells whatever the chunk's length.
//!
//! A position holds one number (see [`Cells`]): at a token's start its id;
//! inside it, how far back to look. The last position of a token points
//! straight at its start, which is how the token before any position is
//! found. The others point at where the token they were merged into
//! started; merges and undos come and go in stack order, so following
//! them from any position reaches the token that covers it now.

use crate::TokenId;
use crate::train::cells::{Cells, INSIDE};
use crate::vocab::Vocab;
use std::ops::Range;

pub use crate::train::cells::END;

/// No position (the left link of a chunk's first token).
pub const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
pub struct Chain {
    cells: Cells,
    /// The first position of each chunk, and one past the last end mark.
    starts: Vec<u32>,
    /// The chunk of every [`BLOCK`]-th position: the chunk of any position
    /// is then one of the few between its block's and the next block's,
    /// found in one or two cache lines of `starts` (a search of all of
    /// them missed the cache at nearly every step, for every replacement).
    blocks: Vec<u32>,
}

/// Positions per entry of [`Chain`]'s block index.
const BLOCK: u32 = 64;

impl Chain {
    /// Lay out `chunks` (each its base symbols, `positions` in all with an
    /// end mark each) one after another.
    pub fn new(
        positions: usize,
        chunks: impl IntoIterator<Item = impl IntoIterator<Item = TokenId>>,
    ) -> Self {
        let mut chain = Chain::default();
        chain.fill(positions, chunks);
        chain
    }

    /// Lay out `chunks` afresh (back to the base symbols: the chain keeps
    /// no copy of them, the corpus has them), in the room the cells have.
    pub fn fill(
        &mut self,
        positions: usize,
        chunks: impl IntoIterator<Item = impl IntoIterator<Item = TokenId>>,
    ) {
        self.cells.clear(positions);
        self.starts.clear();
        self.starts.push(0);
        self.blocks.clear();
        for chunk in chunks {
            let c = self.starts.len() as u32 - 1;
            for id in chunk {
                self.note_block(c);
                self.cells.push(id);
            }
            self.note_block(c);
            self.cells.push(END);
            self.starts.push(self.cells.len() as u32);
        }
    }

    /// Chunk `c` holds the position about to be pushed: enter it in the
    /// block index if that position starts a block.
    #[inline]
    fn note_block(&mut self, c: u32) {
        if (self.cells.len() as u32).is_multiple_of(BLOCK) {
            self.blocks.push(c);
        }
    }

    /// Positions in all, end marks included.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.len() == 0
    }

    pub fn chunk_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The positions of chunk `c`, its end mark excluded.
    pub fn chunk_range(&self, c: u32) -> Range<u32> {
        self.starts[c as usize]..self.starts[c as usize + 1] - 1
    }

    /// The chunk that position `pos` belongs to.
    pub fn chunk_of(&self, pos: u32) -> u32 {
        let k = (pos / BLOCK) as usize;
        let Some(&lo) = self.blocks.get(k) else {
            // Past the last position.
            return (self.starts.partition_point(|&s| s <= pos) - 1) as u32;
        };
        let hi = self
            .blocks
            .get(k + 1)
            .map_or(self.chunk_count() - 1, |&c| c as usize);
        // Chunk `lo` starts at or before `pos`; the chunks up to `hi` that
        // also do are counted.
        let (lo, hi) = (lo as usize, hi.max(lo as usize));
        (lo + self.starts[lo + 1..=hi].partition_point(|&s| s <= pos)) as u32
    }

    /// Ask the processor to load what [`Chain::chunk_of`] reads first for
    /// `pos`, a merge knowing its places ahead.
    #[inline]
    pub fn prefetch_chunk_of(&self, pos: u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(entry) = self.blocks.get((pos / BLOCK) as usize) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch only hints the cache; it reads nothing and
            // cannot fault, and the pointer is to a live entry anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((entry as *const u32).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// The positions of chunk `c` with its end mark.
    pub fn chunk_span(&self, c: u32) -> Range<u32> {
        self.starts[c as usize]..self.starts[c as usize + 1]
    }

    /// Ask the processor to load position `pos`'s cell: a merge knows its
    /// places ahead, and on a long chunk each one is a cache miss otherwise.
    #[inline]
    pub fn prefetch(&self, pos: u32) {
        self.cells.prefetch(pos);
    }

    /// The token starting at `pos`, [`END`] after a chunk's last token, or
    /// a number at or above [`INSIDE`] (no token starts there).
    #[inline]
    pub fn at(&self, pos: u32) -> TokenId {
        self.cells.get(pos)
    }

    /// Where the token before the one at `pos` starts, or [`NONE`].
    #[inline]
    pub fn left(&self, pos: u32) -> u32 {
        let Some(before) = pos.checked_sub(1) else {
            return NONE;
        };
        self.cells.start_of_last(before).unwrap_or(NONE)
    }

    /// The position of the token that covers `pos`.
    pub fn owner(&self, mut pos: u32) -> u32 {
        loop {
            let v = self.cells.get(pos);
            if v < INSIDE {
                return pos;
            }
            pos -= v & !INSIDE;
        }
    }

    /// Join the tokens at `i` and `j` (the next one) into `new`; `n` is the
    /// position after `j`'s token.
    #[inline]
    pub fn join(&mut self, i: u32, j: u32, n: u32, new: TokenId) {
        self.cells.set_id(i, new);
        self.cells.set_inside(j, j - i);
        if n - 1 != j {
            self.cells.set_inside(n - 1, n - 1 - i);
        }
    }

    /// Undo [`Chain::join`]: the token at `i` becomes `a` at `i` and `b` at
    /// `j`. The cells `join` left alone are as they were before it.
    #[inline]
    pub fn split(&mut self, i: u32, j: u32, n: u32, a: TokenId, b: TokenId) {
        self.cells.set_id(i, a);
        self.cells.set_id(j, b);
        if n - 1 != j {
            self.cells.set_inside(n - 1, n - 1 - j);
        }
    }

    /// The pair that starts at `pos` now, if a token starts there and
    /// another follows it.
    pub fn pair_at(&self, pos: u32, vocab: &Vocab) -> Option<(TokenId, TokenId)> {
        let a = self.cells.get(pos);
        if a >= END {
            return None;
        }
        let b = self.cells.get(pos + vocab.units(a));
        (b != END).then_some((a, b))
    }

    /// Whether chunk `c` holds `pair` anywhere (a walk over its tokens).
    pub fn holds(&self, c: u32, pair: (TokenId, TokenId), vocab: &Vocab) -> bool {
        let mut previous = END;
        for (_, id) in self.tokens_from(self.starts[c as usize], vocab) {
            if (previous, id) == pair {
                return true;
            }
            previous = id;
        }
        false
    }

    /// The tokens of chunk `c` from position `from` on (a token start), as
    /// `(position, id)`.
    pub fn tokens_from<'a>(
        &'a self,
        from: u32,
        vocab: &'a Vocab,
    ) -> impl Iterator<Item = (u32, TokenId)> + 'a {
        let mut pos = from;
        std::iter::from_fn(move || {
            let id = self.cells.get(pos);
            if id == END {
                return None;
            }
            let here = pos;
            pos += vocab.units(id);
            Some((here, id))
        })
    }

    /// The current tokens of chunk `c`.
    pub fn tokens(&self, c: u32, vocab: &Vocab) -> Vec<TokenId> {
        self.tokens_from(self.starts[c as usize], vocab)
            .map(|(_, id)| id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_inside_a_token_finds_its_owner() {
        let mut vocab = Vocab::bytes();
        let mut chain = Chain::new(7, [vec![97, 97, 97, 97], vec![98]]);
        assert_eq!((chain.chunk_count(), chain.len()), (2, 7));
        let aa = vocab.push_merge((97, 97));
        chain.join(0, 1, 2, aa);
        chain.join(2, 3, 4, aa);
        assert_eq!(chain.tokens(0, &vocab), [aa, aa]);
        let aaaa = vocab.push_merge((aa, aa));
        chain.join(0, 2, 4, aaaa);
        assert_eq!(chain.owner(3), 0);
        assert_eq!(chain.tokens(0, &vocab), [aaaa]);
        chain.split(0, 2, 4, aa, aa);
        assert_eq!(chain.owner(3), 2);
        assert_eq!(chain.left(2), 0);
        assert_eq!(chain.chunk_of(5), 1);
        assert_eq!(chain.chunk_range(1), 5..6);
    }

    /// Chunks of every size, from empty ones (only an end mark) to ones
    /// longer than several blocks of the index, many to a block or one
    /// across many: every position's chunk is the one whose span holds it.
    #[test]
    fn every_positions_chunk_is_the_one_whose_span_holds_it() {
        let mut roll = crate::dice::rolls(0xc4c);
        for round in 0..40 {
            let longest = [2, 8, 70, 300][round % 4];
            let lens: Vec<usize> = (0..1 + roll(200)).map(|_| roll(longest) as usize).collect();
            let total = lens.iter().map(|n| n + 1).sum();
            let chain = Chain::new(total, lens.iter().map(|&n| vec![97u32; n]));
            let mut spans = Vec::new();
            let mut start = 0;
            for &n in &lens {
                spans.push(start..start + n as u32 + 1);
                start += n as u32 + 1;
            }
            for pos in 0..chain.len() as u32 {
                let owner = spans.iter().position(|s| s.contains(&pos)).unwrap() as u32;
                assert_eq!(chain.chunk_of(pos), owner, "round {round} position {pos}");
            }
            for c in 0..lens.len() as u32 {
                assert_eq!(chain.chunk_span(c), spans[c as usize]);
                let span = chain.chunk_span(c);
                assert_eq!(span.start, chain.chunk_range(c).start);
                assert_eq!(span.end, chain.chunk_range(c).end + 1);
            }
        }
    }

    /// A chain beside the same tokens kept as plain lists (each chunk's
    /// tokens with their positions), and the joins made so far, to undo in
    /// stack order.
    struct Twin {
        chain: Chain,
        plain: Vec<Vec<(u32, TokenId)>>,
        vocab: Vocab,
        stack: Vec<(usize, usize, TokenId, TokenId)>,
    }

    impl Twin {
        fn new(vocab: Vocab, positions: usize, chunks: &[Vec<TokenId>]) -> Twin {
            let chain = Chain::new(positions, chunks.to_vec());
            let plain = (0..chunks.len())
                .map(|c| {
                    let start = chain.chunk_range(c as u32).start;
                    chain.tokens_from(start, &vocab).collect()
                })
                .collect();
            Twin {
                chain,
                plain,
                vocab,
                stack: Vec::new(),
            }
        }

        /// The chain's tokens, left neighbours and owners are the plain
        /// lists'.
        fn check(&self) {
            let (chain, vocab) = (&self.chain, &self.vocab);
            for (c, tokens) in self.plain.iter().enumerate() {
                let start = chain.chunk_range(c as u32).start;
                let got: Vec<(u32, TokenId)> = chain.tokens_from(start, vocab).collect();
                assert_eq!(&got, tokens, "chunk {c}");
                for (k, &(i, id)) in tokens.iter().enumerate() {
                    let left = if k == 0 { NONE } else { tokens[k - 1].0 };
                    assert_eq!(chain.left(i), left);
                    let units = vocab.units(id);
                    for inside in [i + units - 1, i + units / 2, i + units * 5 / 7] {
                        assert_eq!(chain.owner(inside), i);
                    }
                }
            }
        }

        /// Joins tokens `k` and `k + 1` of chunk `c` into `new`, or into a
        /// fresh id: the vocabulary only grows, as merges make it.
        fn join(&mut self, c: usize, k: usize, new: Option<TokenId>) {
            let ((i, a), (j, b)) = (self.plain[c][k], self.plain[c][k + 1]);
            let new = new.unwrap_or_else(|| self.vocab.push_merge((a, b)));
            self.chain.join(i, j, j + self.vocab.units(b), new);
            self.plain[c][k] = (i, new);
            self.plain[c].remove(k + 1);
            self.stack.push((c, k, a, b));
        }

        /// Undoes the last join, if any.
        fn split(&mut self) {
            let Some((c, k, a, b)) = self.stack.pop() else {
                return;
            };
            let (i, _) = self.plain[c][k];
            let (ua, ub) = (self.vocab.units(a), self.vocab.units(b));
            self.chain.split(i, i + ua, i + ua + ub, a, b);
            self.plain[c][k] = (i, a);
            self.plain[c].insert(k + 1, (i + ua, b));
        }

        /// Fifteen levels of pairwise joins of chunk 0's equal neighbours,
        /// one id a level as a merge makes.
        fn join_levels(&mut self) {
            for _level in 0..15 {
                let same = self.plain[0][0].1;
                let level = self.vocab.push_merge((same, same));
                let mut k = 0;
                while k + 1 < self.plain[0].len() {
                    if self.plain[0][k].1 == same && self.plain[0][k + 1].1 == same {
                        self.join(0, k, Some(level));
                    }
                    k += 1;
                }
                self.check();
            }
        }

        /// Random joins and splits, checked after each; whether chunk 0
        /// ever held a token longer than a two-byte distance reaches.
        fn join_and_split_at_random(&mut self, below: &mut impl FnMut(usize) -> usize) -> bool {
            let chunk_count = self.plain.len();
            let mut far = false;
            for _ in 0..2000 {
                if below(3) == 0 {
                    self.split();
                } else {
                    // The long chunk half the time, near its long token.
                    let c = below(2 * chunk_count).saturating_sub(chunk_count);
                    if self.plain[c].len() >= 2 {
                        let k = below(self.plain[c].len() - 1);
                        let k = if c == 0 { k.min(below(3)) } else { k };
                        self.join(c, k, None);
                    }
                }
                self.check();
                let longest = self.plain[0]
                    .iter()
                    .map(|&(_, id)| self.vocab.units(id))
                    .max();
                far |= longest.is_some_and(|u| u > 32_768);
            }
            far
        }

        /// Undoes every join left, checking now and then and at the end.
        fn split_all(&mut self) {
            let mut n = 0;
            while !self.stack.is_empty() {
                self.split();
                n += 1;
                if n % 4096 == 0 {
                    self.check();
                }
            }
            self.check();
        }
    }

    /// A xorshift draw below `n`, from `seed`.
    fn xorshift_below(seed: u64) -> impl FnMut(usize) -> usize {
        let mut rng = seed;
        move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        }
    }

    /// Joins and splits in stack order, checked against the tokens kept
    /// as plain lists: with ids past the two-byte range (`dummies` merges
    /// made before, so the cells widen part way) and tokens longer than a
    /// two-byte distance reaches (a chunk of 40,000 symbols is first
    /// joined pairwise, level by level, into tokens of up to 32,768, which
    /// later joins make longer).
    fn joins_and_splits_match_plain_lists(dummies: usize, seed: u64) {
        let mut below = xorshift_below(seed);
        let mut vocab = Vocab::bytes();
        for _ in 0..dummies {
            vocab.push_merge((97, 98));
        }
        let chunks: Vec<Vec<TokenId>> = vec![
            vec![97; 40_000],
            (0..300).map(|i| 97 + i % 3).collect(),
            vec![98],
            vec![],
        ];
        let positions = chunks.iter().map(|c| c.len() + 1).sum();
        let mut twin = Twin::new(vocab, positions, &chunks);
        twin.join_levels();
        let vocab = &twin.vocab;
        assert!(
            twin.plain[0]
                .iter()
                .any(|&(_, id)| vocab.units(id) == 32_768)
        );
        let far = twin.join_and_split_at_random(&mut below);
        assert!(far, "a token past a two-byte distance");
        assert_eq!(twin.chain.cells.is_wide(), dummies > 0);
        twin.split_all();
        let fresh = Chain::new(positions, chunks.clone());
        for pos in 0..positions as u32 {
            assert_eq!(twin.chain.at(pos), fresh.at(pos), "position {pos}");
        }
    }

    #[test]
    fn narrow_cells_follow_joins_and_splits() {
        joins_and_splits_match_plain_lists(0, 0x5EED);
    }

    #[test]
    fn cells_that_widen_part_way_follow_joins_and_splits() {
        joins_and_splits_match_plain_lists(32_766 - 256 - 15 - 200, 0xC0FFEE);
    }

    #[test]
    fn laying_out_again_gives_the_base_symbols_back() {
        let mut vocab = Vocab::bytes();
        let chunks = [vec![97, 98, 97, 98], vec![99]];
        let mut chain = Chain::new(7, chunks.clone());
        let ab = vocab.push_merge((97, 98));
        chain.join(0, 1, 2, ab);
        chain.join(2, 3, 4, ab);
        chain.fill(7, chunks.clone());
        assert_eq!(chain.tokens(0, &vocab), chunks[0]);
        assert_eq!(chain.left(3), 2);
        assert_eq!(chain.owner(3), 3);
    }
}
