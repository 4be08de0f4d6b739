//! The two operations everything else is built from: listing the adjacent
//! pairs of a token sequence and replacing one pair left to right.

use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;
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
    } else if symbols.len() <= MEDIUM && !repeats_from_the_start(symbols) {
        apply_ranked_medium(symbols, rank_of)
    } else if !apply_ranked_runs(symbols, &rank_of) {
        apply_ranked_heap(symbols, rank_of)
    }
}

/// A chunk is taken as runs when it has at least this many symbols per run.
const SYMBOLS_PER_RUN: usize = 16;

/// Merge a chunk made of few long runs of one symbol (`aaaa…`, `0000…`) as
/// runs: `m` copies of `x` merged by `(x, x)` become `m / 2` of the new
/// token and perhaps one `x`, all at once, so the cost follows the number of
/// runs and merges, not the chunk's length.
///
/// Merging every place of the lowest-ranked pair at once is what merging
/// them one at a time, leftmost first, does, as long as no pair the new
/// token can form with the chunk's tokens ranks below that pair (rank files
/// allow such pairs). When one could, nothing is changed and false is
/// returned, so the caller merges place by place.
fn apply_ranked_runs(
    symbols: &mut Vec<TokenId>,
    rank_of: &impl Fn(Pair) -> Option<(u32, TokenId)>,
) -> bool {
    let mut runs: Vec<(TokenId, usize)> = Vec::new();
    for &s in symbols.iter() {
        match runs.last_mut() {
            Some((t, n)) if *t == s => *n += 1,
            _ => runs.push((s, 1)),
        }
        if runs.len() * SYMBOLS_PER_RUN > symbols.len() + SYMBOLS_PER_RUN {
            return false;
        }
    }
    if runs.len() * SYMBOLS_PER_RUN > symbols.len() {
        return false;
    }
    let mut next: Vec<(TokenId, usize)> = Vec::with_capacity(runs.len() + 1);
    loop {
        // The lowest-ranked pair: inside a run, or where two runs meet.
        let mut best: Option<(u32, TokenId, Pair)> = None;
        let mut consider = |pair: Pair| {
            if let Some((r, id)) = rank_of(pair)
                && best.is_none_or(|(b, _, _)| r < b)
            {
                best = Some((r, id, pair));
            }
        };
        for (i, &(t, n)) in runs.iter().enumerate() {
            if n >= 2 {
                consider((t, t));
            }
            if let Some(&(u, _)) = runs.get(i + 1) {
                consider((t, u));
            }
        }
        let Some((rank, made, (a, b))) = best else {
            break;
        };
        let below = |pair: Pair| rank_of(pair).is_some_and(|(r, _)| r < rank);
        let unsafe_pair = below((made, made))
            || runs
                .iter()
                .any(|&(t, _)| below((made, t)) || below((t, made)));
        if unsafe_pair {
            return false;
        }
        next.clear();
        let push = |next: &mut Vec<(TokenId, usize)>, t: TokenId, n: usize| {
            if n == 0 {
                return;
            }
            match next.last_mut() {
                Some((u, m)) if *u == t => *m += n,
                _ => next.push((t, n)),
            }
        };
        if a == b {
            for &(t, n) in &runs {
                if t == a {
                    push(&mut next, made, n / 2);
                    push(&mut next, a, n % 2);
                } else {
                    push(&mut next, t, n);
                }
            }
        } else {
            // Runs are maximal, so `(a, b)` only stands where a run of `a`
            // meets a run of `b`: the last `a` and the first `b` merge.
            let mut first_taken = false;
            for (i, &(t, n)) in runs.iter().enumerate() {
                let n = n - usize::from(first_taken);
                first_taken = false;
                if t == a && runs.get(i + 1).is_some_and(|&(u, _)| u == b) {
                    push(&mut next, a, n - 1);
                    push(&mut next, made, 1);
                    first_taken = true;
                } else {
                    push(&mut next, t, n);
                }
            }
        }
        std::mem::swap(&mut runs, &mut next);
    }
    symbols.clear();
    for &(t, n) in &runs {
        symbols.extend(std::iter::repeat_n(t, n));
    }
    true
}

/// Chunks up to this many symbols (a run of letters in a script written
/// without spaces, say) take one heap of pairs by rank and place; longer
/// ones, and runs that repeat themselves, group their places by rank,
/// which suits many places of few ranks.
const MEDIUM: usize = 4096;

/// Whether the chunk starts (perhaps after a space) with one symbol or two,
/// repeated (`aaaa`, ` abab`): likely a run, where places group by rank
/// well.
fn repeats_from_the_start(symbols: &[TokenId]) -> bool {
    let repeats = |s: &[TokenId]| s.len() >= 4 && s[0] == s[2] && s[1] == s[3];
    repeats(symbols) || repeats(&symbols[1..])
}

/// A linked list over positions and one heap of `(rank, position)`: the
/// lowest rank, leftmost first, is always on top. An entry left behind by
/// a change is recognised by the rank its position holds now. O(n log n)
/// with no look-up tables of its own.
fn apply_ranked_medium(
    symbols: &mut Vec<TokenId>,
    rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>,
) {
    let lookup = |pair: Pair| rank_of(pair).unwrap_or(NO_RANK);
    let mut heap: Vec<Reverse<(u32, u32)>> = Vec::with_capacity(symbols.len());
    let mut list = Linked::new(symbols, lookup, |rank, at| heap.push(Reverse((rank, at))));
    let mut heap = BinaryHeap::from(heap);
    while let Some(Reverse((r, i))) = heap.pop() {
        if list.rank_at(i) == r {
            list.join(i, lookup, |rank, at| heap.push(Reverse((rank, at))));
        }
    }
    list.finish();
}

/// A chunk's symbols as a linked list of the positions still standing,
/// each with the rank and result of the pair it starts ([`NO_RANK`] if
/// none): what the heap-ordered merge paths share.
struct Linked<'s> {
    symbols: &'s mut Vec<TokenId>,
    next: Vec<u32>,
    prev: Vec<u32>,
    pair_rank: Vec<(u32, TokenId)>,
}

/// No position, or no ranked pair.
const NONE: u32 = u32::MAX;
const NO_RANK: (u32, TokenId) = (u32::MAX, 0);

impl<'s> Linked<'s> {
    /// The list over `symbols` (at least two), passing each ranked pair's
    /// rank and position to `found`.
    fn new(
        symbols: &'s mut Vec<TokenId>,
        mut lookup: impl FnMut(Pair) -> (u32, TokenId),
        mut found: impl FnMut(u32, u32),
    ) -> Self {
        let n = symbols.len();
        let mut next: Vec<u32> = (1..=n as u32).collect();
        next[n - 1] = NONE;
        let prev: Vec<u32> = (0..n as u32).map(|i| i.wrapping_sub(1)).collect();
        let mut pair_rank = vec![NO_RANK; n];
        for i in 0..n - 1 {
            let pair = lookup((symbols[i], symbols[i + 1]));
            if pair.0 != NONE {
                pair_rank[i] = pair;
                found(pair.0, i as u32);
            }
        }
        Linked {
            symbols,
            next,
            prev,
            pair_rank,
        }
    }

    /// The rank of the pair that starts at `i` now.
    #[inline]
    fn rank_at(&self, i: u32) -> u32 {
        self.pair_rank[i as usize].0
    }

    /// Merge the pair that starts at `i` with the next position, and pass
    /// the ranked pairs this makes on either side to `found`.
    #[inline]
    fn join(
        &mut self,
        i: u32,
        mut lookup: impl FnMut(Pair) -> (u32, TokenId),
        mut found: impl FnMut(u32, u32),
    ) {
        let i = i as usize;
        let id = self.pair_rank[i].1;
        let j = self.next[i] as usize;
        self.symbols[i] = id;
        self.pair_rank[j] = NO_RANK;
        self.next[i] = self.next[j];
        if self.next[j] != NONE {
            self.prev[self.next[j] as usize] = i as u32;
        }
        let p = self.prev[i];
        if p != NONE {
            let pair = lookup((self.symbols[p as usize], id));
            self.pair_rank[p as usize] = pair;
            if pair.0 != NONE {
                found(pair.0, p);
            }
        }
        let q = self.next[i];
        self.pair_rank[i] = if q != NONE {
            let pair = lookup((id, self.symbols[q as usize]));
            if pair.0 != NONE {
                found(pair.0, i as u32);
            }
            pair
        } else {
            NO_RANK
        };
        // Marked so that `finish` drops it.
        self.symbols[j] = NONE;
    }

    /// Leave only the positions still standing.
    fn finish(self) {
        self.symbols.retain(|&s| s != NONE);
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
    if symbols.len() < 2 {
        return;
    }
    let first = |i: usize, s: &[TokenId]| rank_of((s[i], s[i + 1])).unwrap_or(NO_RANK);
    merge_small(symbols, first, &rank_of)
}

/// [`apply_ranked`] on a chunk of at most [`SHORT`] symbols whose first
/// pairs' ranks `first(i)` gives (from a table by bytes, say), `(u32::MAX,
/// _)` for none.
pub fn apply_ranked_seeded(
    symbols: &mut Vec<TokenId>,
    first: impl Fn(usize) -> (u32, TokenId),
    rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>,
) {
    if symbols.len() > SHORT {
        return apply_ranked(symbols, rank_of);
    }
    if symbols.len() < 2 {
        return;
    }
    merge_small(symbols, |i, _| first(i), &rank_of)
}

fn merge_small(
    symbols: &mut Vec<TokenId>,
    first: impl Fn(usize, &[TokenId]) -> (u32, TokenId),
    rank_of: &impl Fn(Pair) -> Option<(u32, TokenId)>,
) {
    let mut len = symbols.len();
    let mut ranks = [NO_RANK; SHORT];
    for (i, rank) in ranks.iter_mut().enumerate().take(len - 1) {
        *rank = first(i, symbols);
    }
    while len > 1 {
        let mut at = 0;
        let mut best = ranks[0].0;
        for (i, r) in ranks.iter().enumerate().take(len - 1).skip(1) {
            if r.0 < best {
                (at, best) = (i, r.0);
            }
        }
        if best == u32::MAX {
            break;
        }
        symbols[at] = ranks[at].1;
        // A few places each: moved one by one, cheaper than a call to
        // move memory.
        for i in at + 1..len - 1 {
            symbols[i] = symbols[i + 1];
            ranks[i] = ranks[i + 1];
        }
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

/// A linked list over positions and, for each rank present, the positions
/// where a pair of that rank starts: O(n) look-ups for chunks of any length.
///
/// Ranks are taken lowest first and each rank's positions left to right, as
/// the rule says. A merge of rank `r` makes pairs that hold its new token;
/// their ranks are never `r` (that token would contain itself) and almost
/// always above it, but a rank file can have one below: then the rest of
/// rank `r` waits until that lower rank is done. Each position remembers
/// the rank of the pair it starts, so an entry left behind by a change is
/// recognised without a look-up; and since long chunks repeat themselves
/// (a run of one letter is the worst case), look-ups go through a small
/// cache of recent pairs first.
fn apply_ranked_heap(symbols: &mut Vec<TokenId>, rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>) {
    const CACHE: usize = 1024;
    let mut cache: Vec<(Pair, (u32, TokenId))> = vec![((NONE, NONE), NO_RANK); CACHE];
    let mut lookup = |pair: Pair| {
        let slot = (pair.0.wrapping_mul(0x9E37_79B9) ^ pair.1).wrapping_mul(0x85EB_CA6B) as usize
            >> 22
            & (CACHE - 1);
        if cache[slot].0 == pair {
            return cache[slot].1;
        }
        let found = rank_of(pair).unwrap_or(NO_RANK);
        cache[slot] = (pair, found);
        found
    };
    let mut queue = RankQueue::new();
    let mut list = Linked::new(symbols, &mut lookup, |rank, at| queue.push(rank, at));
    while let Some((r, mut places)) = queue.pop() {
        if !places.is_sorted() {
            places.sort_unstable();
        }
        for (k, &i) in places.iter().enumerate() {
            if queue.lowest().is_some_and(|low| low < r) {
                queue.put_back(r, places[k..].to_vec());
                break;
            }
            if list.rank_at(i) == r {
                list.join(i, &mut lookup, |rank, at| queue.push(rank, at));
            }
        }
    }
    list.finish();
}

/// Positions waiting, by rank, with the lowest rank at hand.
///
/// Merging a run makes pushes that alternate between a few ranks (in
/// `a a a a`, the pairs `aa aa` and `aa a`), so the last few ranks pushed
/// to keep their lists at hand without a look-up.
struct RankQueue {
    /// Each waiting rank's list in `lists`.
    slot_of: FxHashMap<u32, u32>,
    lists: Vec<Vec<u32>>,
    free: Vec<u32>,
    ranks: BinaryHeap<Reverse<u32>>,
    /// Recent ranks and their slots, by the rank's low bits.
    recent: [(u32, u32); RECENT],
}

const RECENT: usize = 8;
const NO_SLOT: (u32, u32) = (u32::MAX, u32::MAX);

impl RankQueue {
    fn new() -> Self {
        RankQueue {
            slot_of: FxHashMap::default(),
            lists: Vec::new(),
            free: Vec::new(),
            ranks: BinaryHeap::new(),
            recent: [NO_SLOT; RECENT],
        }
    }

    fn push(&mut self, rank: u32, pos: u32) {
        let hint = rank as usize % RECENT;
        let (r, slot) = self.recent[hint];
        let slot = if r == rank {
            slot
        } else {
            let (lists, free, ranks) = (&mut self.lists, &mut self.free, &mut self.ranks);
            let slot = *self.slot_of.entry(rank).or_insert_with(|| {
                ranks.push(Reverse(rank));
                match free.pop() {
                    Some(s) => s,
                    None => {
                        lists.push(Vec::new());
                        (lists.len() - 1) as u32
                    }
                }
            });
            self.recent[hint] = (rank, slot);
            slot
        };
        self.lists[slot as usize].push(pos);
    }

    fn lowest(&self) -> Option<u32> {
        self.ranks.peek().map(|Reverse(r)| *r)
    }

    fn pop(&mut self) -> Option<(u32, Vec<u32>)> {
        let Reverse(rank) = self.ranks.pop()?;
        let slot = self.slot_of.remove(&rank)?;
        let hint = rank as usize % RECENT;
        if self.recent[hint].0 == rank {
            self.recent[hint] = NO_SLOT;
        }
        self.free.push(slot);
        Some((rank, std::mem::take(&mut self.lists[slot as usize])))
    }

    fn put_back(&mut self, rank: u32, places: Vec<u32>) {
        for pos in places {
            self.push(rank, pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every adjacent pair, overlapping windows included (`a a a` has two).
    fn pairs_of(symbols: &[TokenId]) -> impl Iterator<Item = Pair> + '_ {
        symbols.windows(2).map(|w| (w[0], w[1]))
    }

    /// Replace each occurrence of `pair` by `new`, left to right, without
    /// overlap. Returns how many were replaced.
    fn merge_pair(symbols: &[TokenId], pair: Pair, new: TokenId, out: &mut Vec<TokenId>) -> usize {
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
    fn split_token(symbols: &[TokenId], pair: Pair, new: TokenId, out: &mut Vec<TokenId>) -> usize {
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

    /// Repeatedly merge the leftmost pair of lowest rank: the rule itself.
    fn by_the_rule(symbols: &mut Vec<TokenId>, rank_of: impl Fn(Pair) -> Option<(u32, TokenId)>) {
        loop {
            let best = (0..symbols.len().saturating_sub(1))
                .filter_map(|i| rank_of((symbols[i], symbols[i + 1])).map(|(r, id)| (r, i, id)))
                .min_by_key(|&(r, i, _)| (r, i));
            let Some((_, i, id)) = best else { return };
            symbols[i] = id;
            symbols.remove(i + 1);
        }
    }

    #[test]
    fn long_runs_merge_as_runs_and_follow_the_rule() {
        // Ranks over a few symbols, some pairs of new tokens ranked below
        // the merges that made them; chunks of long runs with some breaks.
        let mut next = crate::dice::rolls(0x9e37_79b9_7f4a_7c15);
        for round in 0..300 {
            let mut table: FxHashMap<Pair, (u32, TokenId)> = FxHashMap::default();
            let mut made = 10;
            for _ in 0..2 + next(12) {
                let pair = (next(made as u64) as TokenId, next(made as u64) as TokenId);
                if pair.0 >= 4 && pair.0 < 10 || pair.1 >= 4 && pair.1 < 10 {
                    continue;
                }
                let rank = next(40) as u32;
                if table.values().all(|&(r, _)| r != rank) {
                    table.entry(pair).or_insert((rank, made));
                    made += 1;
                }
            }
            let rank_of = |p: Pair| table.get(&p).copied();
            let mut symbols = Vec::new();
            for _ in 0..1 + next(4) {
                let s = next(4) as TokenId;
                for _ in 0..1 + next(400) {
                    symbols.push(s);
                }
            }
            let mut expected = symbols.clone();
            by_the_rule(&mut expected, rank_of);
            let mut got = symbols.clone();
            if apply_ranked_runs(&mut got, &rank_of) {
                assert_eq!(got, expected, "round {round}: {table:?}");
            } else {
                assert_eq!(got, symbols, "round {round}: left as it was");
            }
            let mut whole = symbols.clone();
            apply_ranked(&mut whole, rank_of);
            assert_eq!(whole, expected, "round {round}");
        }
    }

    #[test]
    fn both_paths_follow_the_rule_on_short_and_long_chunks() {
        // (1,1) makes 10 at rank 5, and (3,10) has rank 4: a pair holding
        // a new token ranked below the merge that made it, which rank
        // files allow. Runs of 1 overlap; 65+ symbols take the long path.
        let rank = |p: Pair| match p {
            (1, 1) => Some((5, 10)),
            (10, 1) => Some((6, 11)),
            (2, 1) => Some((7, 12)),
            (11, 10) => Some((8, 13)),
            (3, 10) => Some((4, 14)),
            _ => None,
        };
        let mut seed = 7u64;
        for case in 0..2000 {
            let len = if case % 4 == 0 {
                65 + (seed % 400) as usize
            } else {
                (seed % 64) as usize
            };
            let mut v = Vec::new();
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                v.push(1 + ((seed >> 33) % 3) as u32);
            }
            let mut want = v.clone();
            by_the_rule(&mut want, rank);
            let mut got = v.clone();
            apply_ranked(&mut got, rank);
            assert_eq!(got, want, "input {v:?}");
            if v.len() >= 2 {
                let mut heap = v.clone();
                apply_ranked_heap(&mut heap, rank);
                assert_eq!(heap, want, "heap path, input {v:?}");
                let mut medium = v.clone();
                apply_ranked_medium(&mut medium, rank);
                assert_eq!(medium, want, "medium path, input {v:?}");
            }
        }
    }

    #[test]
    fn the_long_path_follows_the_rule_with_many_ranks() {
        // Every pair of four letters and of the tokens they make has its
        // own rank, in a scrambled order: many ranks wait at once, and
        // pushes alternate between them.
        let mut seed = 11u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let symbols: Vec<TokenId> = (1..=4).chain(100..120).collect();
        let mut ranks: FxHashMap<Pair, (u32, TokenId)> = FxHashMap::default();
        let mut made = 100;
        for &a in &symbols {
            for &b in &symbols {
                if next() % 3 != 0 && made < 120 && a < 100 && b < 100 {
                    ranks.insert((a, b), (0, made));
                    made += 1;
                } else if next() % 2 == 0 {
                    ranks.insert((a, b), (0, 120 + (next() % 50) as TokenId));
                }
            }
        }
        let mut order: Vec<Pair> = ranks.keys().copied().collect();
        order.sort_unstable();
        for i in (1..order.len()).rev() {
            order.swap(i, next() as usize % (i + 1));
        }
        for (r, p) in order.iter().enumerate() {
            ranks.get_mut(p).expect("a ranked pair").0 = r as u32;
        }
        let rank = |p: Pair| ranks.get(&p).copied();
        for case in 0..300 {
            let len = 2 + next() as usize % 300;
            let run = next() % 4 == 0;
            let v: Vec<TokenId> = (0..len)
                .map(|_| if run { 1 } else { 1 + (next() % 4) as TokenId })
                .collect();
            let mut want = v.clone();
            by_the_rule(&mut want, rank);
            let mut heap = v.clone();
            apply_ranked_heap(&mut heap, rank);
            assert_eq!(heap, want, "case {case}, input {v:?}");
            let mut medium = v.clone();
            apply_ranked_medium(&mut medium, rank);
            assert_eq!(medium, want, "case {case}, medium path, input {v:?}");
        }
    }
}
