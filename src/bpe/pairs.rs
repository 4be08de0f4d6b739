//! The live pair table: each pair's weighted count, where it occurs, and an
//! ordered index that always has the next winner first.
//!
//! Occurrences are added and removed one at a time while a merge (or its
//! undo) rewrites the chunks; the counts they change are settled into the
//! order once the rewrite is done, so each changed pair moves once.

use crate::bpe::Pair;
use crate::bpe::names::TieRule;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::ops::Range;

/// How one pair's count moved in the last merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountChange {
    pub before: u64,
    pub after: u64,
}

/// What the table knows about one pair.
#[derive(Debug, Clone, Default)]
pub struct PairStat {
    /// Overlapping windows, weighted by chunk frequency.
    pub count: u64,
    /// Where the pair first occurs: its first position in the chunk layout,
    /// which orders by chunk, then by offset (tie rule `first` only).
    pub first: u64,
    /// The distinct chunks that contain the pair.
    pub chunks: BTreeSet<u32>,
    /// Every position where the pair starts, in the chunk layout.
    pub positions: BTreeSet<u32>,
    /// Count change not yet settled into the order.
    delta: i64,
    dirty: bool,
}

/// The selection order: higher count first, then the tie rule's key.
type OrderKey = (Reverse<u64>, u64, Pair);

#[derive(Debug, Clone)]
pub struct PairTable {
    tie: TieRule,
    stats: FxHashMap<Pair, PairStat>,
    order: BTreeSet<OrderKey>,
    dirty: Vec<Pair>,
    /// Pairs that lost a place in a chunk since the last settle: whether
    /// the chunk still holds them is checked once each, at the settle.
    thinned: Vec<(Pair, u32)>,
    /// Pairs taken out whole since the last settle, with their counts.
    taken: Vec<(Pair, u64)>,
}

impl PairTable {
    pub fn new(tie: TieRule) -> Self {
        PairTable {
            tie,
            stats: FxHashMap::default(),
            order: BTreeSet::new(),
            dirty: Vec::new(),
            thinned: Vec::new(),
            taken: Vec::new(),
        }
    }

    /// A table from a full count: each pair's weighted count, its positions
    /// (ascending) and its chunks (ascending).
    pub fn from_counts(
        tie: TieRule,
        counts: impl IntoIterator<Item = (Pair, u64, Vec<u32>, Vec<u32>)>,
    ) -> Self {
        let mut table = PairTable::new(tie);
        for (pair, count, positions, chunks) in counts {
            if count == 0 {
                continue;
            }
            let stat = PairStat {
                count,
                first: positions.first().map_or(0, |&p| p as u64),
                chunks: chunks.into_iter().collect(),
                positions: positions.into_iter().collect(),
                delta: 0,
                dirty: false,
            };
            table.stats.insert(pair, stat);
        }
        let keys: Vec<OrderKey> = table
            .stats
            .iter()
            .map(|(p, s)| table.key(*p, s))
            .collect();
        table.order = keys.into_iter().collect();
        table
    }

    pub fn tie(&self) -> TieRule {
        self.tie
    }

    /// Pairs with a count above zero.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub fn get(&self, pair: Pair) -> Option<&PairStat> {
        self.stats.get(&pair)
    }

    pub fn count(&self, pair: Pair) -> u64 {
        self.stats.get(&pair).map_or(0, |s| s.count)
    }

    /// The pair that would win now, with its count.
    pub fn best(&self) -> Option<(Pair, u64)> {
        self.order.first().map(|(Reverse(c), _, p)| (*p, *c))
    }

    /// All pairs with a count, in selection order.
    pub fn iter(&self) -> impl Iterator<Item = (Pair, u64)> + '_ {
        self.order.iter().map(|(Reverse(c), _, p)| (*p, *c))
    }

    /// The 0-based place of `pair` in selection order (linear; for display).
    pub fn position(&self, pair: Pair) -> Option<usize> {
        let stat = self.stats.get(&pair)?;
        if stat.count == 0 {
            return None;
        }
        let key = self.key(pair, stat);
        Some(self.order.range(..key).count())
    }

    /// `pair` now also starts at `pos`, in chunk `chunk` of frequency `freq`.
    pub fn add(&mut self, pair: Pair, pos: u32, chunk: u32, freq: u64) {
        let stat = self.stats.entry(pair).or_default();
        stat.positions.insert(pos);
        stat.chunks.insert(chunk);
        stat.delta += freq as i64;
        if !stat.dirty {
            stat.dirty = true;
            self.dirty.push(pair);
        }
    }

    /// `pair` no longer starts at `pos`, in chunk `chunk` of frequency `freq`.
    pub fn remove(&mut self, pair: Pair, pos: u32, chunk: u32, freq: u64) {
        let stat = self.stats.entry(pair).or_default();
        stat.positions.remove(&pos);
        self.thinned.push((pair, chunk));
        stat.delta -= freq as i64;
        if !stat.dirty {
            stat.dirty = true;
            self.dirty.push(pair);
        }
    }

    /// Take `pair` out of the table whole (a merge replaces every place it
    /// has) and return its places.
    pub fn take(&mut self, pair: Pair) -> BTreeSet<u32> {
        let Some(stat) = self.stats.remove(&pair) else {
            return BTreeSet::new();
        };
        self.order.remove(&self.key(pair, &stat));
        self.taken.push((pair, stat.count));
        stat.positions
    }

    /// Undo [`PairTable::take`]: `pair` is back with its count, its places
    /// (ascending) and its chunks (ascending).
    pub fn put_back(&mut self, pair: Pair, count: u64, positions: Vec<u32>, chunks: Vec<u32>) {
        let stat = self.stats.entry(pair).or_default();
        stat.positions = positions.into_iter().collect();
        stat.chunks = chunks.into_iter().collect();
        stat.delta += count as i64;
        if !stat.dirty {
            stat.dirty = true;
            self.dirty.push(pair);
        }
    }

    /// Move every pair changed since the last call to its new place, and
    /// record in `changes` how each count moved. `chunk_positions` gives
    /// the positions of a chunk.
    pub fn settle(
        &mut self,
        changes: &mut FxHashMap<Pair, CountChange>,
        chunk_positions: impl Fn(u32) -> Range<u32>,
    ) {
        changes.clear();
        for (pair, before) in self.taken.drain(..) {
            changes.insert(pair, CountChange { before, after: 0 });
        }
        self.thinned.sort_unstable();
        self.thinned.dedup();
        for &(pair, chunk) in &self.thinned {
            if let Some(stat) = self.stats.get_mut(&pair)
                && stat.positions.range(chunk_positions(chunk)).next().is_none()
            {
                stat.chunks.remove(&chunk);
            }
        }
        self.thinned.clear();
        let dirty = std::mem::take(&mut self.dirty);
        for &pair in &dirty {
            let Some(stat) = self.stats.get(&pair) else {
                continue;
            };
            if stat.count > 0 {
                let key = self.key(pair, stat);
                self.order.remove(&key);
            }
            let first_rule = self.tie == TieRule::First;
            let Some(stat) = self.stats.get_mut(&pair) else {
                continue;
            };
            let before = stat.count;
            let after = (before as i64 + stat.delta) as u64;
            stat.count = after;
            stat.delta = 0;
            stat.dirty = false;
            stat.first = match stat.positions.first() {
                Some(&p) if first_rule => p as u64,
                _ => 0,
            };
            if after == 0 {
                self.stats.remove(&pair);
            } else {
                let key = self.key(pair, &self.stats[&pair]);
                self.order.insert(key);
            }
            if before != after {
                changes.insert(pair, CountChange { before, after });
            }
        }
        self.dirty = dirty;
        self.dirty.clear();
    }

    fn key(&self, pair: Pair, stat: &PairStat) -> OrderKey {
        match self.tie {
            TieRule::First => (Reverse(stat.count), stat.first, pair),
            TieRule::Lex => (Reverse(stat.count), 0, pair),
        }
    }
}
