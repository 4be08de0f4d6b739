//! Where each token of an encoding stands in its text, kept small: a
//! served class holds an encode box per student, and at merge 0 a pasted
//! megabyte is a million tokens.
//!
//! Byte-level tokens lie end to end, so one end per token says it all (4
//! bytes where a `Range<usize>` takes 16). Only where a token starts
//! elsewhere than the one before it ends (char mode drops the spaces
//! between words, and `</w>` stands for nothing) are the starts kept too.

use std::ops::Range;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// Where the first token starts, while the tokens lie end to end.
    first: u32,
    ends: Vec<u32>,
    /// Every token's start, once the tokens stop lying end to end; empty
    /// until then.
    starts: Vec<u32>,
}

fn narrow(at: usize) -> u32 {
    // An encode box holds far less than 4 GiB (see `MAX_TEXT`).
    u32::try_from(at).expect("an encode box's text is under 4 GiB")
}

/// The most text whose places can be kept; the encode box and the
/// fertility view hold far less.
pub const MAX_TEXT: usize = u32::MAX as usize;

impl Places {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn tiled(&self) -> bool {
        self.starts.is_empty()
    }

    fn start(&self, i: usize) -> usize {
        if !self.tiled() {
            self.starts[i] as usize
        } else if i == 0 {
            self.first as usize
        } else {
            self.ends[i - 1] as usize
        }
    }

    /// The bytes token `i` stands for; panics past the end, as indexing
    /// does.
    pub fn range(&self, i: usize) -> Range<usize> {
        self.start(i)..self.ends[i] as usize
    }

    pub fn get(&self, i: usize) -> Option<Range<usize>> {
        (i < self.len()).then(|| self.range(i))
    }

    pub fn last(&self) -> Option<Range<usize>> {
        self.len().checked_sub(1).map(|i| self.range(i))
    }

    pub fn iter(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        (0..self.len()).map(|i| self.range(i))
    }

    /// The first token for which `pred` is false, `pred` being true for
    /// every token before some point and false from there on (as
    /// [`slice::partition_point`]).
    pub fn partition_point(&self, pred: impl Fn(Range<usize>) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.range(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Keep every start from now on.
    fn untile(&mut self) {
        if self.tiled() && !self.ends.is_empty() {
            self.starts = (0..self.len()).map(|i| narrow(self.start(i))).collect();
        }
    }

    pub fn push(&mut self, r: Range<usize>) {
        let (start, end) = (narrow(r.start), narrow(r.end));
        if self.ends.is_empty() && self.starts.is_empty() {
            self.first = start;
        } else if self.tiled() && self.ends.last() != Some(&start) {
            self.untile();
        }
        if !self.tiled() {
            self.starts.push(start);
        }
        self.ends.push(end);
    }

    /// Set token `i`'s place (`i` at most the number of tokens before it
    /// that are kept, as when tokens are joined in place).
    pub fn set(&mut self, i: usize, r: Range<usize>) {
        if self.tiled() && r.start != self.start(i) {
            self.untile();
        }
        if !self.tiled() {
            self.starts[i] = narrow(r.start);
        }
        self.ends[i] = narrow(r.end);
    }

    /// Join token `i` and token `i + 1` into one for each `i` of `lefts`
    /// (ascending, no two next to each other), as a merge joins a pair.
    pub fn join_after(&mut self, lefts: &[usize]) {
        remove_at(&mut self.ends, lefts.iter().copied());
        if !self.tiled() {
            remove_at(&mut self.starts, lefts.iter().map(|&i| i + 1));
        }
    }

    pub fn truncate(&mut self, n: usize) {
        self.ends.truncate(n);
        self.starts.truncate(n);
        if n == 0 {
            self.clear();
        }
    }

    pub fn clear(&mut self) {
        self.first = 0;
        self.ends.clear();
        self.starts.clear();
    }

    /// The places from `n` on, taken out.
    pub fn split_off(&mut self, n: usize) -> Places {
        let first = self.get(n).map_or(0, |r| narrow(r.start));
        let ends = self.ends.split_off(n);
        let starts = if self.tiled() {
            Vec::new()
        } else {
            self.starts.split_off(n)
        };
        Places {
            first,
            ends,
            starts,
        }
    }

    /// Every place moved by `delta` bytes.
    pub fn shift(&mut self, delta: isize) {
        let by = |at: &mut u32| *at = narrow((*at as isize + delta) as usize);
        if !self.ends.is_empty() {
            by(&mut self.first);
        }
        self.ends.iter_mut().for_each(by);
        self.starts.iter_mut().for_each(by);
    }

    /// Give back memory grown for more places than are kept.
    pub fn shrink_to_fit(&mut self) {
        self.ends.shrink_to_fit();
        self.starts.shrink_to_fit();
    }
}

/// `v` without the items at `gone` (ascending indices): the runs between
/// them moved down whole, as a merge leaves long runs untouched.
pub fn remove_at<T: Copy>(v: &mut Vec<T>, gone: impl Iterator<Item = usize>) {
    let mut write = None;
    let mut read = 0;
    for g in gone {
        let w = match write {
            None => g,
            Some(w) => {
                v.copy_within(read..g, w);
                w + (g - read)
            }
        };
        write = Some(w);
        read = g + 1;
    }
    if let Some(w) = write {
        let len = v.len();
        v.copy_within(read..len, w);
        v.truncate(w + (len - read));
    }
}

impl Extend<Range<usize>> for Places {
    fn extend<I: IntoIterator<Item = Range<usize>>>(&mut self, places: I) {
        for r in places {
            self.push(r);
        }
    }
}

impl Extend<Places> for Places {
    fn extend<I: IntoIterator<Item = Places>>(&mut self, more: I) {
        for places in more {
            self.extend(places.iter());
        }
    }
}

impl FromIterator<Range<usize>> for Places {
    fn from_iter<I: IntoIterator<Item = Range<usize>>>(places: I) -> Self {
        let mut all = Places::default();
        all.extend(places);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small random generator, so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_places(rng: &mut Rng, tiled: bool) -> Vec<Range<usize>> {
        let mut at = rng.below(5) as usize;
        (0..rng.below(40))
            .map(|_| {
                if !tiled && rng.below(3) == 0 {
                    at += rng.below(3) as usize;
                }
                let len = rng.below(4) as usize;
                at += len;
                at - len..at
            })
            .collect()
    }

    #[test]
    fn places_read_back_as_the_ranges_they_were_made_of_whatever_is_done_to_them() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..2000 {
            let ranges = random_places(&mut rng, round % 2 == 0);
            let mut places: Places = ranges.iter().cloned().collect();
            let mut model = ranges.clone();
            assert_eq!(places.iter().collect::<Vec<_>>(), model);
            // Any of the edits the encode box makes, against a plain list.
            match rng.below(5) {
                0 => {
                    let n = rng.below(model.len() as u64 + 1) as usize;
                    let after = places.split_off(n);
                    let model_after = model.split_off(n);
                    assert_eq!(after.iter().collect::<Vec<_>>(), model_after);
                    assert_eq!(places.iter().collect::<Vec<_>>(), model);
                    let mut after = after;
                    after.shift(3);
                    places.extend([after]);
                    model.extend(model_after.iter().map(|r| r.start + 3..r.end + 3));
                }
                1 => {
                    let n = rng.below(model.len() as u64 + 1) as usize;
                    places.truncate(n);
                    model.truncate(n);
                }
                2 if model.len() >= 2 => {
                    // Join two neighbours, as a merge does.
                    let i = rng.below(model.len() as u64 - 1) as usize;
                    let joined = model[i].start..model[i + 1].end;
                    places.set(i, joined.clone());
                    for k in i + 1..model.len() - 1 {
                        places.set(k, model[k + 1].clone());
                    }
                    places.truncate(model.len() - 1);
                    model[i] = joined;
                    model.remove(i + 1);
                }
                _ => {
                    let more = random_places(&mut rng, false);
                    let from = model.last().map_or(0, |r| r.end);
                    let more: Vec<_> = more.iter().map(|r| r.start + from..r.end + from).collect();
                    places.extend(more.iter().cloned());
                    model.extend(more);
                }
            }
            assert_eq!(places.iter().collect::<Vec<_>>(), model, "round {round}");
            assert_eq!(places.last(), model.last().cloned());
            for cut in 0..model.last().map_or(0, |r| r.end + 2) {
                assert_eq!(
                    places.partition_point(|r| r.end <= cut),
                    model.partition_point(|r| r.end <= cut)
                );
                assert_eq!(
                    places.partition_point(|r| r.start < cut),
                    model.partition_point(|r| r.start < cut)
                );
            }
        }
    }

    #[test]
    fn tokens_end_to_end_cost_one_number_each() {
        let places: Places = (0..1000).map(|i| i..i + 1).collect();
        assert!(places.tiled());
        assert_eq!(places.range(999), 999..1000);
        let gapped: Places = [0..1, 2..3].into_iter().collect();
        assert!(!gapped.tiled());
    }
}
