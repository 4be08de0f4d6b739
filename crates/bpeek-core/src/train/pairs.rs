//! The live pair table: each pair's weighted count, where it occurs, and an
//! ordered index that always has the next winner first.
//!
//! A merge (or its undo) gathers its window changes by neighbour token (see
//! [`WindowBatch`]) and hands them over once per pair, not once per place;
//! the counts they change are settled into the order once the rewrite is
//! done, so each changed pair moves once.
//!
//! A pair's list of places is kept loosely: places are appended when the
//! pair appears there and left in the list when it goes, because the chain
//! of tokens can always say whether the pair is still there. The list is
//! ascending, packed as gaps (see [`Packed`]), with the places an undo gives
//! back out of order set aside; it is put in order and cleaned when the
//! pair is merged, when its first place is gone, or when it holds
//! [`CROWDED`] times as many entries as live places. So an update is an
//! append and a count, whatever the pair's size.

use crate::names::TieRule;
use crate::train::chain::Chain;
use crate::train::hf_ids::hf_id;
use crate::train::packed::{Ahead, Packed, PackedDown};
use crate::train::paged::Paged;
use crate::vocab::Vocab;
use crate::{Pair, TokenId};
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
#[derive(Debug, Clone)]
pub struct PairStat {
    /// Overlapping windows, weighted by chunk frequency.
    pub count: u64,
    /// Where the pair first occurs: its first position in the chunk layout,
    /// which orders by chunk, then by offset.
    pub first: u32,
    /// How many positions the pair starts at now.
    live: u32,
    /// Where the pair sits in its count's bucket, if its count is low.
    at: u32,
    /// Every position where the pair starts, and perhaps some where it no
    /// longer does, ascending.
    places: Packed,
    /// Places that came back below the list's last one (an undo gives
    /// back a few at a time), kept aside until the list is put in order.
    /// Most pairs never have any: boxed, none costs a word, not three.
    #[allow(clippy::box_collection)]
    strays: Option<Box<Vec<u32>>>,
}

/// Where a pair's stat is, and its changes not yet settled: the index in
/// the table's `pending`, if `epoch` is the table's (each settle starts a
/// new one, so settling marks no pair clean). Kept in the map beside the
/// key, so that recording a loss never reads the stat, which is far away
/// in memory.
#[derive(Debug, Clone, Copy)]
struct Loc {
    slot: u32,
    epoch: u32,
    pending: u32,
}

/// The changes to one pair since the last settle.
#[derive(Debug, Clone)]
struct Pending {
    pair: Pair,
    /// The pair's slot when the change was recorded, or [`TAKEN`] if the
    /// pair has been taken out since (then made afresh, it has an entry of
    /// its own after this one).
    slot: u32,
    /// Count and live places gained (or lost, below zero).
    delta: i64,
    live_delta: i64,
    /// The smallest place added and the smallest lost.
    min_added: u32,
    min_lost: u32,
}

impl PairStat {
    fn empty() -> Self {
        PairStat {
            count: 0,
            first: 0,
            live: 0,
            at: 0,
            places: Packed::new(),
            strays: None,
        }
    }

    /// The places, perhaps with some the pair has left, in no set order.
    pub fn places(&self) -> impl Iterator<Item = u32> + '_ {
        let strays = self.strays.iter().flat_map(|s| s.iter().copied());
        self.places.iter().chain(strays)
    }

    /// Entries kept, gone places included.
    fn entries(&self) -> usize {
        self.places.len() + self.strays.as_ref().map_or(0, |s| s.len())
    }

    /// Add ascending `places`.
    fn append(&mut self, places: Packed) {
        if places.is_empty() {
            return;
        }
        if self.entries() == 0 {
            self.places = places;
            return;
        }
        let Some(strays) = &mut self.strays else {
            if self.places.last() < places.first() {
                self.places.extend(&places);
                return;
            }
            if places.len() >= self.places.len() / MERGE_FROM {
                // Many places back at once (an undo): merging the two
                // ascending lists now is cheaper than sorting later.
                self.places = Packed::union(&self.places, &places);
                return;
            }
            self.strays = Some(Box::new(places.iter().collect()));
            return;
        };
        strays.extend(places.iter());
    }

    /// Put the strays into the list, each place once.
    fn normalize(&mut self) {
        if let Some(mut strays) = self.strays.take() {
            strays.sort_unstable();
            strays.dedup();
            self.places = Packed::union(&self.places, &strays.into_iter().collect());
        }
    }

    /// Every place, ascending, once each.
    fn into_places(mut self) -> Packed {
        self.normalize();
        self.places
    }
}

/// A pair as a full count found it, for [`PairTable::from_counts`].
#[derive(Debug, Default)]
pub struct Counted {
    pub count: u64,
    /// Ascending.
    pub places: Packed,
}

/// The slot of a pending change whose pair was taken out.
const TAKEN: u32 = u32::MAX;

/// Places coming back below a list's last one are merged in, keeping it
/// in order, when they are at least this fraction of it (else set aside,
/// to be sorted when needed).
const MERGE_FROM: usize = 8;

/// A list of places is cleaned once it holds this many times as many
/// entries as live places: the scan costs about one look per entry gone.
const CROWDED: usize = 2;

/// The winner's ties: see [`PairTable::ties_with_best`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ties {
    pub rivals: Vec<Pair>,
    pub total: usize,
    pub next_best: Option<u64>,
}

/// One pair fewer of `count` in the tally.
fn untally(tally: &mut FxHashMap<u64, usize>, count: u64) {
    if let Some(n) = tally.get_mut(&count) {
        *n -= 1;
        if *n == 0 {
            tally.remove(&count);
        }
    }
}

/// The selection order: higher count first, then the tie rule's key.
type OrderKey = (Reverse<u64>, u64, Pair);

/// The pairs in selection order. Those with high counts are kept sorted;
/// the many with low counts wait unsorted, one bucket per count, and are
/// sorted as the best count comes down to theirs. Most pairs a merge
/// changes have low counts, so most changes cost a push and a swap.
#[derive(Debug, Clone, Default)]
struct Order {
    /// Every pair with a count above `low`.
    sorted: BTreeSet<OrderKey>,
    /// How many pairs of `sorted` have each count: the winner's ties are
    /// counted without walking them (at a low count they are thousands).
    tally: FxHashMap<u64, usize>,
    low: u64,
    /// The pairs of each count up to `low` with their slots, in no order.
    buckets: Vec<Vec<(Pair, u32)>>,
    bucketed: usize,
}

/// The highest count kept in an unsorted bucket.
const MOST_BUCKETS: u64 = 1 << 14;

#[derive(Debug, Clone)]
pub struct PairTable {
    tie: TieRule,
    /// Each pair's entry in `slots` and its pending changes: the map stays
    /// small, so growing it moves a few bytes per pair, not a whole stat.
    stats: FxHashMap<Pair, Loc>,
    slots: Paged<PairStat>,
    /// Slots of pairs that are gone, for reuse.
    free: Vec<u32>,
    order: Order,
    /// The pairs changed since the last settle, with their changes.
    pending: Vec<Pending>,
    /// The settle under way: a [`Loc`] of another epoch has no changes.
    epoch: u32,
    /// Pairs taken out whole since the last settle, with their counts.
    taken: Vec<(Pair, u64)>,
    /// With [`PairTable::track_moves`], every pair whose count or tie key
    /// may have changed since [`PairTable::take_moved`] was last called.
    moved: Option<Vec<Pair>>,
}

impl PairTable {
    pub fn new(tie: TieRule) -> Self {
        PairTable {
            tie,
            stats: FxHashMap::default(),
            slots: Paged::default(),
            free: Vec::new(),
            order: Order::default(),
            pending: Vec::new(),
            epoch: 1,
            taken: Vec::new(),
            moved: None,
        }
    }

    /// Keep the pairs each settle moves, for an order of the pairs kept
    /// beside this one (WordPiece's score).
    pub fn track_moves(&mut self) {
        self.moved.get_or_insert_with(Vec::new);
    }

    /// The pairs moved since the last call (see [`PairTable::track_moves`]),
    /// perhaps some more than once.
    pub fn take_moved(&mut self) -> Vec<Pair> {
        self.moved.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The key that orders `pair` among pairs of its count under the tie
    /// rule (the smaller first).
    pub fn tie_key(&self, pair: Pair, stat: &PairStat) -> u64 {
        order_key(self.tie, pair, stat).1
    }

    /// A table from a full count; each pair's places in ascending order.
    pub fn from_counts(tie: TieRule, counts: impl IntoIterator<Item = (Pair, Counted)>) -> Self {
        let mut table = PairTable::new(tie);
        for (pair, c) in counts {
            if c.count == 0 {
                continue;
            }
            let stat = PairStat {
                count: c.count,
                first: c.places.first().unwrap_or_default(),
                live: c.places.len() as u32,
                places: c.places,
                ..PairStat::empty()
            };
            let slot = table.slots.len() as u32;
            let loc = Loc {
                slot,
                epoch: 0,
                pending: 0,
            };
            table.stats.insert(pair, loc);
            table.slots.push(stat);
        }
        let most = (0..table.slots.len())
            .map(|s| table.slots[s].count)
            .max()
            .unwrap_or(0);
        // Counts above `low` are kept sorted; a bucket per count below it.
        // The cap keeps the buckets small on a large corpus, where the top
        // count runs into the millions but few pairs come near it.
        table.order.low = (most / 2).min(MOST_BUCKETS);
        table.order.buckets = vec![Vec::new(); table.order.low as usize + 1];
        let entries: Vec<(Pair, u32)> = table.stats.iter().map(|(&p, l)| (p, l.slot)).collect();
        for (pair, s) in entries {
            table.enter(pair, s as usize);
        }
        table.keep_best_count_sorted();
        table
    }

    pub fn tie(&self) -> TieRule {
        self.tie
    }

    /// Pairs with a count above zero.
    pub fn len(&self) -> usize {
        self.order.sorted.len() + self.order.bucketed
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, pair: Pair) -> Option<&PairStat> {
        self.stats.get(&pair).map(|l| &self.slots[l.slot as usize])
    }

    pub fn count(&self, pair: Pair) -> u64 {
        self.get(pair).map_or(0, |s| s.count)
    }

    /// Forget `pair`, and free its slot.
    fn forget(&mut self, pair: Pair) -> Option<PairStat> {
        let s = self.stats.remove(&pair)?.slot;
        self.free.push(s);
        Some(std::mem::replace(
            &mut self.slots[s as usize],
            PairStat::empty(),
        ))
    }

    /// The pair that would win now, with its count.
    pub fn best(&self) -> Option<(Pair, u64)> {
        self.order.sorted.first().map(|(Reverse(c), _, p)| (*p, *c))
    }

    /// The pairs tied with the winner, in selection order after it (at most
    /// `listed` of them), how many tie with it, and the next lower count:
    /// without walking the ties, which at a low count are thousands.
    pub fn ties_with_best(&self, listed: usize) -> Ties {
        let sorted = &self.order.sorted;
        let Some(&(Reverse(count), _, _)) = sorted.first() else {
            return Ties::default();
        };
        let total = self.order.tally.get(&count).copied().unwrap_or(1) - 1;
        // Sized once: grown as it fills, the list cost a few reallocations
        // every round.
        let mut rivals = Vec::with_capacity(total.min(listed));
        rivals.extend(
            sorted
                .iter()
                .skip(1)
                .take_while(|k| k.0.0 == count)
                .take(listed)
                .map(|k| k.2),
        );
        // The first key of a lower count (Reverse puts higher counts first),
        // if the sorted part holds more than the best count's pairs: mostly
        // it holds only those, and a search of it finds nothing.
        let below = (Reverse(count.saturating_sub(1)), 0, (0, 0));
        let lower_sorted = total + 1 < sorted.len() && count > 1;
        let next_best = match lower_sorted.then(|| sorted.range(below..).next()) {
            Some(Some(k)) => Some(k.0.0),
            _ => (1..=self.order.low.min(count.saturating_sub(1)))
                .rev()
                .find(|&c| !self.order.buckets[c as usize].is_empty()),
        };
        Ties {
            rivals,
            total,
            next_best,
        }
    }

    /// All pairs with a count, in selection order. The low counts are put
    /// in order as the walk reaches them.
    pub fn iter(&self) -> impl Iterator<Item = (Pair, u64)> + '_ {
        let low = (1..=self.order.low).rev().flat_map(move |count| {
            let mut keys: Vec<OrderKey> = self.order.buckets[count as usize]
                .iter()
                .map(|&(p, s)| order_key(self.tie, p, &self.slots[s as usize]))
                .collect();
            keys.sort_unstable();
            keys.into_iter()
        });
        self.order
            .sorted
            .iter()
            .copied()
            .chain(low)
            .map(|(Reverse(c), _, p)| (p, c))
    }

    /// The 0-based place of `pair` in selection order (linear; for display).
    pub fn position(&self, pair: Pair) -> Option<usize> {
        self.get(pair)?;
        self.iter().position(|(p, _)| p == pair)
    }

    /// Put `pair` (in slot `s`) in the order by its count.
    fn enter(&mut self, pair: Pair, s: usize) {
        let stat = &mut self.slots[s];
        if stat.count == 0 {
            return;
        }
        if stat.count > self.order.low {
            self.order.sorted.insert(order_key(self.tie, pair, stat));
            *self.order.tally.entry(stat.count).or_default() += 1;
        } else {
            let bucket = &mut self.order.buckets[stat.count as usize];
            stat.at = bucket.len() as u32;
            bucket.push((pair, s as u32));
            self.order.bucketed += 1;
        }
    }

    /// Take `pair` (in slot `s`) out of the order, by the count and first
    /// place it was entered with.
    fn leave(&mut self, pair: Pair, s: usize) {
        let stat = &self.slots[s];
        if stat.count == 0 {
            return;
        }
        if stat.count > self.order.low {
            self.order.sorted.remove(&order_key(self.tie, pair, stat));
            untally(&mut self.order.tally, stat.count);
        } else {
            let at = stat.at as usize;
            let bucket = &mut self.order.buckets[stat.count as usize];
            bucket.swap_remove(at);
            self.order.bucketed -= 1;
            if let Some(&(_, moved)) = bucket.get(at) {
                self.slots[moved as usize].at = at as u32;
            }
        }
    }

    /// Sort the highest bucketed count while the sorted part is empty, and
    /// drop the empty buckets on top, so that the winner's count is sorted
    /// and the highest bucket is the next count below the sorted ones
    /// ([`PairTable::ties_with_best`] reads it there). The next count is not
    /// sorted before it is the best: late in training it is the thousands
    /// of pairs seen once, and a budget often stops before they win.
    fn keep_best_count_sorted(&mut self) {
        loop {
            while self.order.low > 0 && self.order.buckets[self.order.low as usize].is_empty() {
                self.order.buckets.pop();
                self.order.low -= 1;
            }
            if !self.order.sorted.is_empty() || self.order.bucketed == 0 || self.order.low == 0 {
                return;
            }
            let low = self.order.low;
            let bucket = self.order.buckets.pop().unwrap_or_default();
            self.order.low = low - 1;
            self.order.bucketed -= bucket.len();
            if !bucket.is_empty() {
                *self.order.tally.entry(low).or_default() += bucket.len();
            }
            // The sorted part is empty here: a tree built from the keys in
            // order is laid out node by node, with no search per key (late
            // in training the bucket is the thousands of pairs seen twice).
            let mut keys: Vec<OrderKey> = bucket
                .into_iter()
                .map(|(pair, s)| order_key(self.tie, pair, &self.slots[s as usize]))
                .collect();
            keys.sort_unstable();
            self.order.sorted = keys.into_iter().collect();
        }
    }

    /// `pair` now also starts at `places` (ascending), and its count
    /// rises by `weight`.
    pub fn gain(&mut self, pair: Pair, weight: u64, places: Packed) {
        let (s, k) = self.touch(pair);
        let pending = &mut self.pending[k];
        pending.delta += weight as i64;
        pending.live_delta += places.len() as i64;
        if let Some(low) = places.first() {
            pending.min_added = pending.min_added.min(low);
        }
        self.slots[s].append(places);
    }

    /// `pair` no longer starts at `count` of its places, the lowest of them
    /// `lowest`, and its count falls by `weight`. The places themselves
    /// stay in its list: the chain tells they are gone.
    pub fn lose(&mut self, pair: Pair, weight: u64, count: u32, lowest: u32) {
        let (_, k) = self.touch(pair);
        let pending = &mut self.pending[k];
        pending.min_lost = pending.min_lost.min(lowest);
        pending.delta -= weight as i64;
        pending.live_delta -= count as i64;
    }

    /// The slot of `pair` (made if it has none) and the index of its
    /// pending changes (made if it has none): one look-up in the map.
    fn touch(&mut self, pair: Pair) -> (usize, usize) {
        let (slots, free, pending, epoch) = (
            &mut self.slots,
            &mut self.free,
            &mut self.pending,
            self.epoch,
        );
        let loc = self.stats.entry(pair).or_insert_with(|| {
            let slot = free.pop().unwrap_or_else(|| {
                slots.push(PairStat::empty());
                (slots.len() - 1) as u32
            });
            Loc {
                slot,
                epoch: 0,
                pending: 0,
            }
        });
        if loc.epoch != epoch {
            loc.epoch = epoch;
            loc.pending = pending.len() as u32;
            pending.push(Pending {
                pair,
                slot: loc.slot,
                delta: 0,
                live_delta: 0,
                min_added: u32::MAX,
                min_lost: u32::MAX,
            });
        }
        (loc.slot as usize, loc.pending as usize)
    }

    /// Take `pair` out of the table whole (a merge replaces every place it
    /// has) and return the places it may have, ascending.
    pub fn take(&mut self, pair: Pair) -> Packed {
        let Some(&loc) = self.stats.get(&pair) else {
            return Packed::new();
        };
        if loc.epoch == self.epoch {
            // Its changes so far went with it.
            self.pending[loc.pending as usize].slot = TAKEN;
        }
        self.leave(pair, loc.slot as usize);
        let Some(stat) = self.forget(pair) else {
            return Packed::new();
        };
        self.taken.push((pair, stat.count));
        stat.into_places()
    }

    /// Move every pair changed since the last call to its new place, and
    /// record in `changes` how each count moved. `chain` is the tokens as
    /// they are now.
    pub fn settle(&mut self, changes: &mut Vec<(Pair, CountChange)>, chain: &Chain, vocab: &Vocab) {
        changes.clear();
        for (pair, before) in self.taken.drain(..) {
            changes.push((pair, CountChange { before, after: 0 }));
            if let Some(moved) = &mut self.moved {
                moved.push(pair);
            }
        }
        let pending = std::mem::take(&mut self.pending);
        if let Some(moved) = &mut self.moved {
            moved.extend(pending.iter().map(|change| change.pair));
        }
        for (k, change) in pending.iter().enumerate() {
            if let Some(ahead) = pending.get(k + SETTLE_AHEAD)
                && ahead.slot != TAKEN
            {
                self.slots.prefetch(ahead.slot as usize);
            }
            let (pair, s) = (change.pair, change.slot);
            if s == TAKEN {
                continue;
            }
            self.leave(pair, s as usize);
            let stat = &mut self.slots[s as usize];
            let before = stat.count;
            let after = (before as i64 + change.delta) as u64;
            if after == 0 {
                self.forget(pair);
            } else {
                stat.count = after;
                stat.live = (stat.live as i64 + change.live_delta) as u32;
                // The first place is the old one or a new one, if that
                // place still holds the pair: surely so if nothing at or
                // before it was lost. Else the list is walked.
                let kept = if before > 0 { stat.first } else { u32::MAX };
                let candidate = kept.min(change.min_added);
                let crowded = stat.entries() > CROWDED * stat.live as usize + 64;
                if crowded {
                    compact(stat, pair, chain, vocab);
                    stat.first = stat.places.first().unwrap_or_default();
                } else if candidate < change.min_lost
                    || (candidate < u32::MAX && chain.pair_at(candidate, vocab) == Some(pair))
                {
                    stat.first = candidate;
                } else {
                    stat.normalize();
                    let gone = Ahead::<_, 16>::new(stat.places.iter())
                        .take_while(|&(p, ahead)| {
                            if let Some(ahead) = ahead {
                                chain.prefetch(ahead);
                            }
                            chain.pair_at(p, vocab) != Some(pair)
                        })
                        .count();
                    stat.places.drop_front(gone);
                    stat.first = stat.places.first().unwrap_or_default();
                }
                self.enter(pair, s as usize);
            }
            if before != after {
                changes.push((pair, CountChange { before, after }));
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.next_epoch();
        self.keep_best_count_sorted();
    }
}

impl PairTable {
    /// Start a new epoch: no pair has changes pending. Should the count
    /// ever run out, every mark is cleared and it starts over.
    fn next_epoch(&mut self) {
        self.epoch = match self.epoch.checked_add(1) {
            Some(next) => next,
            None => {
                for loc in self.stats.values_mut() {
                    loc.epoch = 0;
                }
                1
            }
        };
    }
}

/// How many changes ahead a settle asks for the stats it will read.
const SETTLE_AHEAD: usize = 8;

fn order_key(tie: TieRule, pair: Pair, stat: &PairStat) -> OrderKey {
    match tie {
        TieRule::First => (Reverse(stat.count), stat.first as u64, pair),
        TieRule::Lex => (Reverse(stat.count), 0, pair),
        TieRule::Hf => (Reverse(stat.count), hf_pair_key(pair), pair),
    }
}

/// Smaller for the pair Hugging Face's trainer prefers among equal counts.
fn hf_pair_key(pair: Pair) -> u64 {
    ((hf_id(pair.0) as u64) << 32) | hf_id(pair.1) as u64
}

/// Keep only the places where `pair` still starts, ascending, once each.
fn compact(stat: &mut PairStat, pair: Pair, chain: &Chain, vocab: &Vocab) {
    stat.normalize();
    stat.places.retain(
        |p| chain.pair_at(p, vocab) == Some(pair),
        |p| chain.prefetch(p),
    );
}

/// The window changes of one merge or undo, gathered by the token on one
/// side of the rewritten places: each replacement there records the
/// neighbour token and a place, and [`WindowBatch::drain`] hands back, for
/// each neighbour, its weight and its places in ascending order. So the
/// pair table is touched once per neighbour, not once per place.
#[derive(Debug, Clone, Default)]
pub struct WindowBatch {
    /// For each token, its group in `groups` (stale entries are told apart
    /// by the group's token).
    slot: Vec<u32>,
    groups: Vec<Group>,
}

#[derive(Debug, Clone)]
struct Group {
    token: TokenId,
    weight: u64,
    places: Places,
}

/// A group's places, in the order they are recorded.
#[derive(Debug, Clone)]
enum Places {
    Up(Packed),
    Down(PackedDown),
}

impl WindowBatch {
    /// Record one place next to `token`, in a chunk of frequency `freq`;
    /// places come left to right, or right to left if `down`.
    // Always inlined: called once or twice for every replacement, and
    // a call's saving and restoring of registers was a third of its cost.
    #[inline(always)]
    pub fn record(&mut self, token: TokenId, place: u32, freq: u64, down: bool) {
        let t = token as usize;
        if t >= self.slot.len() {
            self.slot.resize(t + 1, u32::MAX);
        }
        let mut g = self.slot[t] as usize;
        if g >= self.groups.len() || self.groups[g].token != token {
            g = self.groups.len();
            self.slot[t] = g as u32;
            self.groups.push(Group {
                token,
                weight: 0,
                places: if down {
                    Places::Down(PackedDown::default())
                } else {
                    Places::Up(Packed::new())
                },
            });
        }
        let group = &mut self.groups[g];
        group.weight += freq;
        match &mut group.places {
            Places::Up(list) => list.push(place),
            Places::Down(list) => list.push(place),
        }
    }

    /// Hand back each neighbour token with its weight and places
    /// (ascending, whichever way they were recorded), and start over.
    pub fn drain(&mut self, mut f: impl FnMut(TokenId, u64, Packed)) {
        for g in self.groups.drain(..) {
            self.slot[g.token as usize] = u32::MAX;
            let mut places = match g.places {
                Places::Up(list) => list,
                Places::Down(list) => list.into_ascending(),
            };
            places.trim();
            f(g.token, g.weight, places);
        }
    }
}
