//! The pairs in the order WordPiece's score merges them, kept up to date
//! merge by merge, so that a round reads its winner and the rivals tied
//! with it off the front instead of scoring every pair.
//!
//! A pair's score is count(ab) / (count(a) x count(b)), and its place
//! among pairs of one score is the pair table's (the higher count, then
//! the tie rule's key). What that place depends on changes in two ways:
//!
//! - a pair's count and tie key (its first place, under `first`) change
//!   only for pairs the table moves when it settles a merge or an undo,
//!   and the table hands those over ([`PairTable::take_moved`]);
//! - a token's count changes only when a merge makes or undoes a token:
//!   merging `a b` into `ab` changes the counts of `a`, `b` and `ab`, and
//!   so the score of every pair that holds one of them, whatever that
//!   pair's own count did.
//!
//! A key cannot be left stale and mended when it reaches the front (as a
//! heap with lazy updates does for counts that only fall): a merge makes
//! the scores of its tokens' pairs rise, an undo makes them fall, so a
//! stale key bounds nothing. But a token's count divides the scores of
//! all its pairs alike, and does not change their order among themselves.
//! So each pair lives in the group of one of its tokens, its home, keyed
//! there by count(ab) / count(other token) and the tie rule: a key that
//! the home's own count never touches. A group is placed among the others
//! by its first pair's whole score. When a token's count changes, its
//! group is placed again (one move), and only the pairs it holds as a
//! guest (homed at the other token) are keyed again. A pair goes home to
//! whichever of its tokens has more pairs when it is made, so the bytes
//! and short tokens that stand in thousands of pairs hold most of them at
//! home, and a merge that changes their count moves one group.
//!
//! The whole order is the groups' sorted lists merged ([`Walk`]); a
//! round's ties are counted without walking them: only groups whose first
//! pair has the best score hold pairs of that score, and each group keeps
//! how many of its pairs share its first pair's key there.

use crate::Pair;
use crate::TokenId;
use crate::train::choice::PairScore;
use crate::train::pairs::PairTable;
use rustc_hash::FxHashMap;
use std::cmp::{Ordering, Reverse};
use std::collections::hash_map::Entry as MapEntry;
use std::collections::{BTreeSet, BinaryHeap, btree_set};

/// A pair where it stands in the score's order: pairs the minimum count
/// lets merge first, then the higher score (compared exactly, as
/// fractions), then the table's own order (the higher count, then the tie
/// rule's key). The less, the sooner it merges.
#[derive(Debug, Clone, Copy)]
pub struct Ranked {
    pub eligible: bool,
    pub score: PairScore,
    /// The pair table's tie key: the smaller goes first among equal counts.
    tie: u64,
    pub pair: Pair,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .eligible
            .cmp(&self.eligible)
            .then_with(|| other.score.cmp_exact(&self.score))
            .then(other.score.count.cmp(&self.score.count))
            .then(self.tie.cmp(&other.tie))
            .then(self.pair.cmp(&other.pair))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

/// A pair in its home's group: as [`Ranked`], with the score's part that
/// the home's count does not touch, count(ab) / count(other token).
///
/// A move in a group's tree compares its key with a few dozen others, so
/// the key carries its place in a quick form: `rank` orders by
/// eligibility, then by the part as a float. While both terms are below
/// [`SMALL`], two parts are equal exactly when their floats are (see
/// [`Homed::part`]), so the rank decides; larger terms are compared by
/// cross-multiplying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Homed {
    rank: u64,
    /// Both terms of the part are below [`SMALL`].
    small: bool,
    eligible: bool,
    count: u64,
    other: u64,
    tie: u64,
    pair: Pair,
}

/// Terms below this make parts whose floats are equal only when the
/// parts are: two different fractions of such terms, x < y, differ by at
/// least y / 2^52, more than a float's step at y, so they round apart.
const SMALL: u64 = 1 << 26;

/// The part's float bits in a rank (the eligibility bit above them).
const PART_BITS: u64 = u64::MAX >> 1;

impl Homed {
    fn new(eligible: bool, count: u64, other: u64, tie: u64, pair: Pair) -> Self {
        // A positive float's bits order as its value; inverted so that the
        // higher part sorts first, and ineligible pairs after all others.
        let part = (count as f64 / other as f64).to_bits();
        Homed {
            rank: ((!eligible as u64) << 63) | (PART_BITS - part),
            small: count < SMALL && other < SMALL,
            eligible,
            count,
            other,
            tie,
            pair,
        }
    }

    /// The part as a key equal for equal fractions only: its float's bits
    /// where its lowest terms are small, else the lowest terms (never 0
    /// below, so the two forms never meet).
    fn part(&self) -> (u64, u128) {
        if self.small {
            return (PART_BITS - (self.rank & PART_BITS), 0);
        }
        let (num, den) = lowest_terms(self.count, self.other as u128);
        if (num as u128) < SMALL as u128 && den < SMALL as u128 {
            return ((num as f64 / den as f64).to_bits(), 0);
        }
        (num, den)
    }
}

impl Ord for Homed {
    fn cmp(&self, o: &Self) -> Ordering {
        let same_part = if self.small && o.small {
            match self.rank.cmp(&o.rank) {
                Ordering::Equal => Ordering::Equal,
                decided => return decided,
            }
        } else {
            let mine = self.count as u128 * o.other as u128;
            let theirs = o.count as u128 * self.other as u128;
            o.eligible.cmp(&self.eligible).then(theirs.cmp(&mine))
        };
        same_part
            .then(o.count.cmp(&self.count))
            .then(self.tie.cmp(&o.tie))
            .then(self.pair.cmp(&o.pair))
    }
}

impl PartialOrd for Homed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The pairs homed at one token.
#[derive(Debug, Clone, Default)]
struct Group {
    pairs: BTreeSet<Homed>,
    /// How many eligible pairs have each score part, in lowest terms.
    parts: FxHashMap<(u64, u128), usize>,
    /// The first pair as placed among the groups, and how many eligible
    /// pairs share its score (counted in [`ScoreOrder::tied`]).
    front: Option<(Ranked, usize)>,
    /// Waiting to be placed again.
    dirty: bool,
}

/// Where a pair is and what it was keyed with, and the marks that keep
/// it from being keyed twice in one update or listed twice as a guest.
#[derive(Debug, Clone, Copy)]
struct Entry {
    home: TokenId,
    key: Homed,
    keyed_in: u32,
    listed_in: u32,
}

/// The pairs by score, in groups by home token.
#[derive(Debug, Clone, Default)]
pub struct ScoreOrder {
    groups: Vec<Group>,
    /// Each group with pairs, by its first pair's place.
    fronts: BTreeSet<(Ranked, TokenId)>,
    entries: FxHashMap<Pair, Entry>,
    /// For each score a group's first pair has, how many eligible pairs in
    /// those groups share it (late in training thousands of pairs score
    /// 1 / (1 x 1)), in lowest terms.
    tied: FxHashMap<(u64, u128), usize>,
    /// For each token, the pairs that hold it and are homed at the other
    /// token (and its pairs with itself), perhaps with some that are gone
    /// or listed twice: cleaned when walked, or when crowded.
    guests: Vec<Vec<Pair>>,
    /// How many pairs hold each token now, at home or as guests.
    live: Vec<u32>,
    dirty: Vec<TokenId>,
    /// The update under way, and the last list cleaned.
    update: u32,
    pass: u32,
    min_count: u64,
}

/// A token's list of guests is cleaned when it holds this many times its
/// live pairs (and a few more).
const CROWDED: usize = 2;

/// `num / den` in lowest terms (`num` is a count, so it fits in 64 bits).
fn lowest_terms(num: u64, den: u128) -> (u64, u128) {
    // Nearly always the product of two counts fits in 64 bits, where a
    // division is several times cheaper than in 128.
    if let Ok(den) = u64::try_from(den) {
        if num == 1 {
            // Late in training nearly every pair stands once.
            return (num, den as u128);
        }
        let g = gcd(num, den).max(1);
        return (num / g, (den / g) as u128);
    }
    let (mut a, mut b) = (num as u128, den);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1);
    ((num as u128 / g) as u64, den / g)
}

/// The greatest common divisor by halving (Stein's), which takes no
/// division: a score's terms are reduced at every keying.
fn gcd(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// The score `score` stands for, in lowest terms.
fn score_terms(score: &PairScore) -> (u64, u128) {
    lowest_terms(score.count, score.left as u128 * score.right as u128)
}

impl ScoreOrder {
    /// Every pair of `table`, scored with the tokens' counts `units`.
    pub fn new(table: &PairTable, min_count: u64, units: &[u64]) -> Self {
        let mut order = ScoreOrder {
            min_count,
            update: 1,
            ..ScoreOrder::default()
        };
        for (pair, _) in table.iter() {
            order.rekey(pair, table, units);
        }
        order.place_dirty(units);
        order
    }

    /// Every pair in the order they merge, the first the next winner
    /// (when eligible).
    pub fn walk<'a>(&'a self, units: &'a [u64]) -> Walk<'a> {
        let mut fronts = self.fronts.iter();
        let mut heap = BinaryHeap::new();
        if let Some(&(first, home)) = fronts.next() {
            heap.push(Head::of(first, self, home));
        }
        Walk {
            order: self,
            units,
            fronts,
            heap,
        }
    }

    /// How many eligible pairs have the score `best`, the first pair's.
    pub fn tied_with_first(&self, best: &PairScore) -> usize {
        self.tied.get(&score_terms(best)).copied().unwrap_or(0)
    }

    /// Key again the pairs `moved` (their counts or tie keys changed) and
    /// every pair whose score `tokens`' counts (now `units`) change.
    pub fn update(&mut self, table: &PairTable, moved: &[Pair], tokens: &[TokenId], units: &[u64]) {
        self.update = self.update.wrapping_add(1);
        for &pair in moved {
            self.rekey(pair, table, units);
        }
        for &t in tokens {
            let Some(list) = self.guests.get_mut(t as usize) else {
                continue;
            };
            let list = std::mem::take(list);
            for &pair in &list {
                self.rekey(pair, table, units);
            }
            // Guests listed while the list was out (none are expected:
            // every pair of the table is entered by now) go back with it.
            let added = std::mem::replace(&mut self.guests[t as usize], list);
            self.guests[t as usize].extend(added);
            // Gone and doubled entries cost a look-up each when walked,
            // as cleaning them out would: cleaned only once crowded.
            if self.crowded(t) {
                self.clean(t);
            }
            self.mark(t);
        }
        self.place_dirty(units);
    }

    /// Take `pair`'s key out and enter it again as the table and the
    /// tokens' counts stand now (or not at all, if it is gone). Once per
    /// update.
    fn rekey(&mut self, pair: Pair, table: &PairTable, units: &[u64]) {
        let old = self.entries.get(&pair).copied();
        if old.is_some_and(|old| old.keyed_in == self.update) {
            return;
        }
        let Some(stat) = table.get(pair).filter(|s| s.count > 0) else {
            if let Some(old) = old {
                self.leave(old.home, &old.key);
                self.entries.remove(&pair);
                self.unlist(pair);
            }
            return;
        };
        let home = old.map_or_else(|| self.home_for(pair), |o| o.home);
        let other = if home == pair.0 { pair.1 } else { pair.0 };
        let key = Homed::new(
            stat.count >= self.min_count,
            stat.count,
            unit(units, other),
            table.tie_key(pair, stat),
            pair,
        );
        if let Some(old) = old {
            // A key that came out the same (a count that moved and came
            // back within one settle) keeps its place: two tree moves saved.
            if old.key == key {
                if let Some(at) = self.entries.get_mut(&pair) {
                    at.keyed_in = self.update;
                }
                return;
            }
            self.leave(old.home, &old.key);
        }
        self.enter(home, key);
        let entry = Entry {
            home,
            key,
            keyed_in: self.update,
            listed_in: 0,
        };
        match self.entries.entry(pair) {
            MapEntry::Occupied(mut at) => {
                let listed_in = at.get().listed_in;
                *at.get_mut() = Entry { listed_in, ..entry };
            }
            MapEntry::Vacant(at) => {
                at.insert(entry);
                self.list(pair, home);
            }
        }
    }

    /// The token a new pair lives with: the one that holds more pairs.
    fn home_for(&self, (a, b): Pair) -> TokenId {
        let live = |t: TokenId| self.live.get(t as usize).copied().unwrap_or(0);
        if live(b) > live(a) { b } else { a }
    }

    fn enter(&mut self, home: TokenId, key: Homed) {
        let h = home as usize;
        if h >= self.groups.len() {
            self.groups.resize_with(h + 1, Group::default);
        }
        let group = &mut self.groups[h];
        group.pairs.insert(key);
        if key.eligible {
            *group.parts.entry(key.part()).or_default() += 1;
        }
        self.mark(home);
    }

    fn leave(&mut self, home: TokenId, key: &Homed) {
        let group = &mut self.groups[home as usize];
        group.pairs.remove(key);
        if key.eligible {
            let part = key.part();
            if let Some(n) = group.parts.get_mut(&part) {
                *n -= 1;
                if *n == 0 {
                    group.parts.remove(&part);
                }
            }
        }
        self.mark(home);
    }

    /// Group `home` is to be placed again.
    fn mark(&mut self, home: TokenId) {
        if let Some(group) = self.groups.get_mut(home as usize)
            && !group.dirty
        {
            group.dirty = true;
            self.dirty.push(home);
        }
    }

    /// Place every marked group again by its first pair's score now.
    fn place_dirty(&mut self, units: &[u64]) {
        for home in std::mem::take(&mut self.dirty) {
            let group = &mut self.groups[home as usize];
            group.dirty = false;
            let first = group.pairs.first().copied();
            let front = first.map(|first| ranked(first, units));
            let sharing = match first {
                Some(first) if first.eligible => {
                    group.parts.get(&first.part()).copied().unwrap_or(0)
                }
                _ => 0,
            };
            if let (Some((was, shared)), Some(front)) = (group.front, front)
                && same_place(&was, &front)
            {
                // Most groups marked lost or gained a pair behind their
                // first: the group stays where it is, only its tally moves.
                group.front = Some((front, sharing));
                if shared != sharing {
                    let terms = score_terms(&front.score);
                    untally(&mut self.tied, terms, shared);
                    if sharing > 0 {
                        *self.tied.entry(terms).or_default() += sharing;
                    }
                }
                continue;
            }
            if let Some((front, sharing)) = group.front.take() {
                self.fronts.remove(&(front, home));
                untally(&mut self.tied, score_terms(&front.score), sharing);
            }
            let Some(front) = front else {
                continue;
            };
            group.front = Some((front, sharing));
            self.fronts.insert((front, home));
            if sharing > 0 {
                *self.tied.entry(score_terms(&front.score)).or_default() += sharing;
            }
        }
    }

    /// List a new pair as a guest of the token that is not its home (or
    /// of its one token, for a pair of a token with itself), and count it
    /// for both.
    fn list(&mut self, pair: Pair, home: TokenId) {
        let guest_of = if pair.0 == home { pair.1 } else { pair.0 };
        let most = pair.0.max(pair.1) as usize;
        if most >= self.guests.len() {
            self.guests.resize_with(most + 1, Vec::new);
            self.live.resize(most + 1, 0);
        }
        let g = guest_of as usize;
        self.guests[g].push(pair);
        self.live[pair.0 as usize] += 1;
        if pair.1 != pair.0 {
            self.live[pair.1 as usize] += 1;
        }
        if self.crowded(guest_of) {
            self.clean(guest_of);
        }
    }

    /// Whether token `t`'s guest list holds many more entries than it has
    /// guests.
    fn crowded(&self, t: TokenId) -> bool {
        let t = t as usize;
        self.guests[t].len() > CROWDED * self.live[t] as usize + 32
    }

    /// A pair gone: its entry in a guest list stays until it is cleaned.
    fn unlist(&mut self, (a, b): Pair) {
        self.live[a as usize] -= 1;
        if b != a {
            self.live[b as usize] -= 1;
        }
    }

    /// Keep in token `t`'s guest list only its guests now, once each.
    fn clean(&mut self, t: TokenId) {
        self.pass = self.pass.wrapping_add(1);
        let pass = self.pass;
        let entries = &mut self.entries;
        self.guests[t as usize].retain(|pair| match entries.get_mut(pair) {
            Some(entry) if entry.listed_in != pass && (entry.home != t || pair.0 == pair.1) => {
                entry.listed_in = pass;
                true
            }
            _ => false,
        });
    }
}

fn unit(units: &[u64], id: TokenId) -> u64 {
    // A token always stands where its pairs do; the floor only keeps a
    // stale count from dividing by zero.
    units.get(id as usize).copied().unwrap_or(0).max(1)
}

/// Whether two keys are the same in every field, the counts behind the
/// score included (equal in the order is not enough: a front's counts are
/// what a round reports).
fn same_place(a: &Ranked, b: &Ranked) -> bool {
    a.eligible == b.eligible && a.score == b.score && a.tie == b.tie && a.pair == b.pair
}

/// A pair's whole key, from its key at home and the tokens' counts.
fn ranked(homed: Homed, units: &[u64]) -> Ranked {
    let (a, b) = homed.pair;
    Ranked {
        eligible: homed.eligible,
        score: PairScore {
            count: homed.count,
            left: unit(units, a),
            right: unit(units, b),
        },
        tie: homed.tie,
        pair: homed.pair,
    }
}

fn untally(tally: &mut FxHashMap<(u64, u128), usize>, terms: (u64, u128), n: usize) {
    if n == 0 {
        return;
    }
    if let Some(have) = tally.get_mut(&terms) {
        *have -= n;
        if *have == 0 {
            tally.remove(&terms);
        }
    }
}

/// The next pair of one group in a [`Walk`], with the rest of the group.
struct Head<'a> {
    key: Ranked,
    rest: btree_set::Iter<'a, Homed>,
    /// This is the group's first pair: taking it lets the next group in.
    first: bool,
}

impl<'a> Head<'a> {
    fn of(first: Ranked, order: &'a ScoreOrder, home: TokenId) -> Self {
        let mut rest = order.groups[home as usize].pairs.iter();
        rest.next();
        Head {
            key: first,
            rest,
            first: true,
        }
    }
}

impl PartialEq for Head<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Head<'_> {}

impl PartialOrd for Head<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Head<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        // The heap gives its greatest first: the least key.
        Reverse(self.key).cmp(&Reverse(other.key))
    }
}

/// The groups' sorted lists merged into the one order, a pair at a time.
/// A group comes in only when the one placed before it gives up its
/// first pair: no later group's pair can come sooner, since each group's
/// first pair is its least and the groups are placed by it.
pub struct Walk<'a> {
    order: &'a ScoreOrder,
    units: &'a [u64],
    fronts: btree_set::Iter<'a, (Ranked, TokenId)>,
    heap: BinaryHeap<Head<'a>>,
}

impl Iterator for Walk<'_> {
    type Item = Ranked;

    fn next(&mut self) -> Option<Ranked> {
        let mut head = self.heap.pop()?;
        let key = head.key;
        if head.first
            && let Some(&(front, home)) = self.fronts.next()
        {
            self.heap.push(Head::of(front, self.order, home));
        }
        if let Some(&next) = head.rest.next() {
            head.key = ranked(next, self.units);
            head.first = false;
            self.heap.push(head);
        }
        Some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn euclid(mut a: u64, mut b: u64) -> u64 {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }

    #[test]
    fn gcd_by_halving_is_euclids() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..20_000 {
            // Small, shared-factor and full-width values alike.
            let f = 1 + next() % 64;
            let (a, b) = match i % 3 {
                0 => (next() % 1000, next() % 1000),
                1 => ((next() % 100_000) * f, (next() % 100_000) * f),
                _ => (next(), next()),
            };
            assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
        }
        assert_eq!(gcd(0, 0), 0);
        assert_eq!(gcd(0, 12), 12);
        assert_eq!(gcd(12, 0), 12);
    }

    /// The order by cross-multiplying alone, as keys were compared before
    /// they carried a rank.
    fn exact(x: &Homed, o: &Homed) -> Ordering {
        let mine = x.count as u128 * o.other as u128;
        let theirs = o.count as u128 * x.other as u128;
        o.eligible
            .cmp(&x.eligible)
            .then(theirs.cmp(&mine))
            .then(o.count.cmp(&x.count))
            .then(x.tie.cmp(&o.tie))
            .then(x.pair.cmp(&o.pair))
    }

    #[test]
    fn keys_order_as_their_fractions_cross_multiplied() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let near = SMALL;
        for i in 0..200_000 {
            // Small counts that tie, fractions a hair apart on either
            // side of SMALL, and full-width values.
            let (count, other) = match i % 5 {
                0 | 1 => (1 + next() % 6, 1 + next() % 6),
                2 => {
                    let n = near - 1 - next() % 4;
                    (n - next() % 2, n - next() % 2)
                }
                3 => {
                    let n = near - 2 + next() % 5;
                    (n + next() % 2, n + next() % 2)
                }
                _ => (1 + next(), 1 + next()),
            };
            let key = |count, other, next: &mut dyn FnMut() -> u64| {
                let eligible = !next().is_multiple_of(8);
                let tie = next() % 3;
                Homed::new(eligible, count, other, tie, (0, (next() % 3) as u32))
            };
            let a = key(count, other, &mut next);
            let (c2, o2) = if i % 2 == 0 {
                // The same fraction in other terms, or one step off it.
                let f = 1 + next() % 3;
                match (count.checked_mul(f), other.checked_mul(f)) {
                    (Some(c), Some(o)) => (c + next() % 2, o),
                    _ => (count, other + next() % 2),
                }
            } else {
                (
                    count.saturating_add(next() % 3),
                    other.saturating_add(next() % 3),
                )
            };
            let b = key(c2.max(1), o2.max(1), &mut next);
            assert_eq!(a.cmp(&b), exact(&a, &b), "{a:?} against {b:?}");
            assert_eq!(b.cmp(&a), exact(&b, &a), "{b:?} against {a:?}");
            let same = a.count as u128 * b.other as u128 == b.count as u128 * a.other as u128;
            assert_eq!(a.part() == b.part(), same, "{a:?} and {b:?}");
        }
    }

    #[test]
    fn lowest_terms_are_reduced_and_equal_in_value() {
        for num in 0..60u64 {
            for den in 1..60u64 {
                let (n, d) = lowest_terms(num, den as u128);
                assert_eq!(n as u128 * den as u128, num as u128 * d, "{num}/{den}");
                assert_eq!(euclid(n, d as u64), if num == 0 { d as u64 } else { 1 });
            }
        }
        let big = (1u128 << 70) * 6;
        assert_eq!(lowest_terms(4, big), (1, (1u128 << 69) * 3));
    }
}
