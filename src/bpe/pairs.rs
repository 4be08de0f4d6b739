//! The live pair table: each pair's weighted count, where it occurs, and an
//! ordered index that always has the next winner first.
//!
//! Occurrences are added and removed one at a time while a merge (or its
//! undo) rewrites the chunks; the counts they change are settled into the
//! order once the rewrite is done, so each changed pair moves once.
//!
//! A pair's list of places is kept loosely: a place is appended when the
//! pair appears there and left in the list when it goes, because the chain
//! of tokens can always say whether the pair is still there. The list is
//! checked and compacted when the pair is merged, when its first place is
//! needed again, or when it holds twice as many entries as live places. So
//! an update is an append and a count, whatever the pair's size.

use crate::bpe::Pair;
use crate::bpe::chain::Chain;
use crate::bpe::hf_ids::hf_id;
use crate::bpe::names::TieRule;
use crate::bpe::vocab::Vocab;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BTreeSet;

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
    /// Every position where the pair starts, and perhaps some where it no
    /// longer does, in no particular order.
    places: Vec<u32>,
    /// How many positions the pair starts at now.
    live: u32,
    /// How many places the pair has in each long chunk (see
    /// [`LONG_CHUNK`]); short chunks are searched instead.
    in_long: FxHashMap<u32, u32>,
    /// Count change not yet settled into the order.
    delta: i64,
    dirty: bool,
    /// The smallest place added since the last settle.
    min_added: u32,
    /// Whether the place `first` names, or `min_added`, was removed since
    /// the last settle.
    first_gone: bool,
}

/// Chunks longer than this (in base symbols) keep per-pair place counts;
/// shorter ones are walked to see whether they still hold a pair.
pub const LONG_CHUNK: u32 = 48;

/// A pair as a full count found it, for [`PairTable::from_counts`].
#[derive(Debug, Default)]
pub struct Counted {
    count: u64,
    places: Vec<u32>,
    chunks: Vec<u32>,
    in_long: Vec<(u32, u32)>,
}

impl Counted {
    /// One more place `pos`, in chunk `chunk` (in layout order) of
    /// frequency `freq`; `long` if the chunk is long.
    pub fn add(&mut self, pos: u32, chunk: u32, freq: u64, long: bool) {
        self.count += freq;
        self.places.push(pos);
        if self.chunks.last() != Some(&chunk) {
            self.chunks.push(chunk);
        }
        if long {
            match self.in_long.last_mut() {
                Some((c, n)) if *c == chunk => *n += 1,
                _ => self.in_long.push((chunk, 1)),
            }
        }
    }
}

/// The selection order: higher count first, then the tie rule's key.
type OrderKey = (Reverse<u64>, u64, Pair);

#[derive(Debug, Clone)]
pub struct PairTable {
    tie: TieRule,
    stats: FxHashMap<Pair, PairStat>,
    order: BTreeSet<OrderKey>,
    dirty: Vec<Pair>,
    /// Pairs that lost a place in a short chunk since the last settle.
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

    /// A table from a full count.
    pub fn from_counts(tie: TieRule, counts: impl IntoIterator<Item = (Pair, Counted)>) -> Self {
        let mut table = PairTable::new(tie);
        for (pair, c) in counts {
            if c.count == 0 {
                continue;
            }
            let stat = PairStat {
                count: c.count,
                first: c.places.first().map_or(0, |&p| p as u64),
                chunks: c.chunks.into_iter().collect(),
                live: c.places.len() as u32,
                places: c.places,
                in_long: c.in_long.into_iter().collect(),
                min_added: u32::MAX,
                ..Default::default()
            };
            table.stats.insert(pair, stat);
        }
        let keys: Vec<OrderKey> = table
            .stats
            .iter()
            .map(|(p, s)| order_key(tie, *p, s))
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
        let key = order_key(self.tie, pair, stat);
        Some(self.order.range(..key).count())
    }

    /// `pair` now also starts at `pos`, in chunk `chunk` of frequency
    /// `freq`; `long` if that chunk is long.
    pub fn add(&mut self, pair: Pair, pos: u32, chunk: u32, freq: u64, long: bool) {
        let stat = self.stats.entry(pair).or_insert_with(|| PairStat {
            min_added: u32::MAX,
            ..Default::default()
        });
        stat.places.push(pos);
        stat.live += 1;
        stat.min_added = stat.min_added.min(pos);
        if long {
            let n = stat.in_long.entry(chunk).or_insert(0);
            *n += 1;
            if *n == 1 {
                stat.chunks.insert(chunk);
            }
        } else {
            stat.chunks.insert(chunk);
        }
        stat.delta += freq as i64;
        if !stat.dirty {
            stat.dirty = true;
            self.dirty.push(pair);
        }
    }

    /// `pair` no longer starts at `pos`, in chunk `chunk` of frequency
    /// `freq`; `long` if that chunk is long. A pair taken out whole is left
    /// alone.
    pub fn remove(&mut self, pair: Pair, pos: u32, chunk: u32, freq: u64, long: bool) {
        let Some(stat) = self.stats.get_mut(&pair) else {
            return;
        };
        stat.live -= 1;
        if long {
            if let Some(n) = stat.in_long.get_mut(&chunk) {
                *n -= 1;
                if *n == 0 {
                    stat.in_long.remove(&chunk);
                    stat.chunks.remove(&chunk);
                }
            }
        } else {
            self.thinned.push((pair, chunk));
        }
        if (stat.count > 0 && stat.first == pos as u64) || stat.min_added == pos {
            stat.first_gone = true;
        }
        stat.delta -= freq as i64;
        if !stat.dirty {
            stat.dirty = true;
            self.dirty.push(pair);
        }
    }

    /// Take `pair` out of the table whole (a merge replaces every place it
    /// has) and return the places it may have, ascending.
    pub fn take(&mut self, pair: Pair) -> Vec<u32> {
        let Some(stat) = self.stats.remove(&pair) else {
            return Vec::new();
        };
        if stat.count > 0 {
            self.order.remove(&order_key(self.tie, pair, &stat));
        }
        self.taken.push((pair, stat.count));
        let mut places = stat.places;
        places.sort_unstable();
        places.dedup();
        places
    }

    /// Move every pair changed since the last call to its new place, and
    /// record in `changes` how each count moved. `chain` is the tokens as
    /// they are now.
    pub fn settle(
        &mut self,
        changes: &mut FxHashMap<Pair, CountChange>,
        chain: &Chain,
        vocab: &Vocab,
    ) {
        changes.clear();
        for (pair, before) in self.taken.drain(..) {
            changes.insert(pair, CountChange { before, after: 0 });
        }
        self.thinned.sort_unstable();
        self.thinned.dedup();
        for &(pair, chunk) in &self.thinned {
            if let Some(stat) = self.stats.get_mut(&pair)
                && !chain.holds(chunk, pair, vocab)
            {
                stat.chunks.remove(&chunk);
            }
        }
        self.thinned.clear();
        let first_rule = self.tie == TieRule::First;
        let dirty = std::mem::take(&mut self.dirty);
        for &pair in &dirty {
            let Some(stat) = self.stats.get(&pair) else {
                continue;
            };
            if stat.count > 0 {
                let key = order_key(self.tie, pair, stat);
                self.order.remove(&key);
            }
            let Some(stat) = self.stats.get_mut(&pair) else {
                continue;
            };
            let before = stat.count;
            let after = (before as i64 + stat.delta) as u64;
            if after == 0 {
                self.stats.remove(&pair);
            } else {
                stat.count = after;
                stat.delta = 0;
                stat.dirty = false;
                let crowded = stat.places.len() > 2 * stat.live as usize + 16;
                if crowded || (first_rule && stat.first_gone) {
                    compact(&mut stat.places, pair, chain, vocab);
                    stat.first = stat.places.first().map_or(0, |&p| p as u64);
                } else if first_rule {
                    let kept = if before > 0 { stat.first } else { u64::MAX };
                    stat.first = kept.min(stat.min_added as u64);
                }
                stat.first_gone = false;
                stat.min_added = u32::MAX;
                let key = order_key(self.tie, pair, stat);
                self.order.insert(key);
            }
            if before != after {
                changes.insert(pair, CountChange { before, after });
            }
        }
        self.dirty = dirty;
        self.dirty.clear();
    }
}

fn order_key(tie: TieRule, pair: Pair, stat: &PairStat) -> OrderKey {
    match tie {
        TieRule::First => (Reverse(stat.count), stat.first, pair),
        TieRule::Lex => (Reverse(stat.count), 0, pair),
        TieRule::Hf => (Reverse(stat.count), hf_pair_key(pair), pair),
    }
}

/// Smaller for the pair Hugging Face's trainer prefers among equal counts.
fn hf_pair_key(pair: Pair) -> u64 {
    ((hf_id(pair.0) as u64) << 32) | hf_id(pair.1) as u64
}

/// Keep only the places where `pair` still starts, ascending, once each.
fn compact(places: &mut Vec<u32>, pair: Pair, chain: &Chain, vocab: &Vocab) {
    places.sort_unstable();
    places.dedup();
    places.retain(|&p| chain.pair_at(p, vocab) == Some(pair));
}
