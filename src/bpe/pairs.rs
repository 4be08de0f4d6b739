//! The live pair table: each pair's weighted count, the chunks it occurs in,
//! and an ordered index that always has the next winner first.

use crate::bpe::Pair;
use crate::bpe::names::TieRule;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BTreeSet;

/// What the table knows about one pair.
#[derive(Debug, Clone, Default)]
pub struct PairStat {
    /// Overlapping windows, weighted by chunk frequency.
    pub count: u64,
    /// Where the pair first occurs: `chunk << 32 | unit offset` (tie rule
    /// `first` only).
    pub first: u64,
    /// The distinct chunks that contain the pair.
    pub chunks: BTreeSet<u32>,
}

/// The selection order: higher count first, then the tie rule's key.
type OrderKey = (Reverse<u64>, u64, Pair);

#[derive(Debug, Clone)]
pub struct PairTable {
    tie: TieRule,
    stats: FxHashMap<Pair, PairStat>,
    order: BTreeSet<OrderKey>,
}

impl PairTable {
    pub fn new(tie: TieRule) -> Self {
        PairTable {
            tie,
            stats: FxHashMap::default(),
            order: BTreeSet::new(),
        }
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

    /// The entry for `pair`, created empty (and not yet ordered) if absent.
    pub fn entry(&mut self, pair: Pair) -> &mut PairStat {
        self.stats.entry(pair).or_default()
    }

    /// Take `pair` out of the order before its count or first place changes.
    pub fn unlink(&mut self, pair: Pair) {
        if let Some(stat) = self.stats.get(&pair)
            && stat.count > 0
        {
            let key = self.key(pair, stat);
            self.order.remove(&key);
        }
    }

    /// Put `pair` back in order after a change; forget it if its count is 0.
    pub fn relink(&mut self, pair: Pair) {
        let Some(stat) = self.stats.get(&pair) else {
            return;
        };
        if stat.count == 0 {
            self.stats.remove(&pair);
            return;
        }
        let key = self.key(pair, stat);
        self.order.insert(key);
    }

    /// Rebuild the order from scratch (after a full count).
    pub fn reorder_all(&mut self) {
        self.stats.retain(|_, s| s.count > 0);
        let keys: Vec<OrderKey> = self.stats.iter().map(|(p, s)| self.key(*p, s)).collect();
        self.order = keys.into_iter().collect();
    }

    fn key(&self, pair: Pair, stat: &PairStat) -> OrderKey {
        match self.tie {
            TieRule::First => (Reverse(stat.count), stat.first, pair),
            TieRule::Lex => (Reverse(stat.count), 0, pair),
        }
    }
}
