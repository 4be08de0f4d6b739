//! Lists of positions in order, kept as the gaps between them, seven bits
//! to a byte (LEB128).
//!
//! The places of a pair on a long chunk are millions of positions a few
//! bytes apart: one byte each instead of four is what lets a long chunk
//! train in a few times its size. Every use walks a list from one end or
//! the other (a merge, an undo, a clean-up), so nothing is lost by having
//! no index.
//!
//! A gap's last byte has its high bit clear and the others set, so the
//! bytes can be read backwards as well: an undo walks a merge's places
//! right to left, and a list recorded right to left is turned around in
//! place.

/// Positions strictly ascending.
#[derive(Debug, Clone, Default)]
pub struct Packed {
    /// The gaps after `first`, from `from` on. Bytes before `from` belong
    /// to positions dropped from the front.
    gaps: Vec<u8>,
    from: u32,
    first: u32,
    last: u32,
    len: u32,
}

impl PartialEq for Packed {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Packed {}

#[inline]
fn put(gaps: &mut Vec<u8>, mut gap: u32) {
    while gap >= 0x80 {
        gaps.push(gap as u8 | 0x80);
        gap >>= 7;
    }
    gaps.push(gap as u8);
}

/// Write `gap` over the bytes from `*at` on, moving `*at` past it.
#[inline]
fn put_at(gaps: &mut [u8], at: &mut usize, mut gap: u32) {
    while gap >= 0x80 {
        gaps[*at] = gap as u8 | 0x80;
        *at += 1;
        gap >>= 7;
    }
    gaps[*at] = gap as u8;
    *at += 1;
}

/// The gap starting at `*at`, moving `*at` past it.
#[inline]
fn get(gaps: &[u8], at: &mut usize) -> u32 {
    let byte = gaps[*at];
    *at += 1;
    if byte < 0x80 {
        return byte as u32;
    }
    let mut gap = (byte & 0x7f) as u32;
    let mut shift = 7;
    loop {
        let byte = gaps[*at];
        *at += 1;
        gap |= ((byte & 0x7f) as u32) << shift;
        if byte < 0x80 {
            return gap;
        }
        shift += 7;
    }
}

/// The gap ending just before `*end`, moving `*end` to its start. The
/// byte before a gap is the last of another (high bit clear), or there is
/// none.
#[inline]
fn get_back(gaps: &[u8], end: &mut usize) -> u32 {
    let mut start = *end - 1;
    while start > 0 && gaps[start - 1] >= 0x80 {
        start -= 1;
    }
    let mut at = start;
    *end = start;
    get(gaps, &mut at)
}

/// How many bytes `gap` takes.
fn width(gap: u32) -> usize {
    (32 - (gap | 1).leading_zeros() as usize).div_ceil(7)
}

impl Packed {
    pub fn new() -> Self {
        Packed::default()
    }

    /// Room for positions whose gaps take `bytes` bytes in all.
    pub fn with_capacity(bytes: usize) -> Self {
        Packed {
            gaps: Vec::with_capacity(bytes),
            ..Packed::default()
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first position pushed (the smallest when ascending).
    pub fn first(&self) -> Option<u32> {
        (self.len > 0).then_some(self.first)
    }

    /// The last position pushed.
    pub fn last(&self) -> Option<u32> {
        (self.len > 0).then_some(self.last)
    }

    /// Bytes held, spare room included.
    pub fn heap_bytes(&self) -> usize {
        self.gaps.capacity()
    }

    pub fn clear(&mut self) {
        self.gaps.clear();
        self.from = 0;
        self.len = 0;
    }

    /// The bytes `pos` would add after `last` (for sizing a list ahead).
    pub fn gap_bytes(last: Option<u32>, pos: u32) -> usize {
        last.map_or(0, |l| width(pos.abs_diff(l)))
    }

    /// Add `pos`, above every position so far.
    #[inline]
    pub fn push(&mut self, pos: u32) {
        if self.len == 0 {
            self.start(pos);
            return;
        }
        debug_assert!(pos > self.last);
        put(&mut self.gaps, pos - self.last);
        self.last = pos;
        self.len += 1;
    }

    fn start(&mut self, pos: u32) {
        self.gaps.clear();
        self.from = 0;
        self.first = pos;
        self.last = pos;
        self.len = 1;
    }

    /// The positions, ascending.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            gaps: &self.gaps,
            at: self.from as usize,
            next: self.first,
            left: self.len,
        }
    }

    /// The positions, descending.
    pub fn iter_rev(&self) -> IterRev<'_> {
        IterRev {
            gaps: &self.gaps,
            end: self.gaps.len(),
            next: self.last,
            left: self.len,
        }
    }

    /// Turn the list around in place: the gaps are the same, in the other
    /// order.
    fn reverse(&mut self) {
        let gaps = &mut self.gaps[self.from as usize..];
        gaps.reverse();
        // Each gap now reads last byte first; put its bytes back in order.
        let mut start = 0;
        while start < gaps.len() {
            let mut end = start + 1;
            while end < gaps.len() && gaps[end] >= 0x80 {
                end += 1;
            }
            gaps[start..end].reverse();
            start = end;
        }
        std::mem::swap(&mut self.first, &mut self.last);
    }

    /// Drop the first `n` positions.
    pub fn drop_front(&mut self, n: usize) {
        if n >= self.len() {
            self.clear();
            return;
        }
        let mut at = self.from as usize;
        for _ in 0..n {
            let gap = get(&self.gaps, &mut at);
            self.first += gap;
        }
        self.from = at as u32;
        self.len -= n as u32;
        self.trim();
    }

    /// Append `other`, ascending like this list and wholly above it.
    pub fn extend(&mut self, other: &Packed) {
        let Some(low) = other.first() else {
            return;
        };
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        debug_assert!(low > self.last);
        put(&mut self.gaps, low - self.last);
        self.gaps
            .extend_from_slice(&other.gaps[other.from as usize..]);
        self.last = other.last;
        self.len += other.len;
    }

    /// The positions of two ascending lists, ascending, each once.
    pub fn union(a: &Packed, b: &Packed) -> Packed {
        let mut out = Packed::with_capacity(a.gaps.len() + b.gaps.len() + 8);
        let (mut x, mut y) = (a.iter().peekable(), b.iter().peekable());
        loop {
            let next = match (x.peek(), y.peek()) {
                (Some(&p), Some(&q)) => {
                    if p <= q {
                        x.next();
                    }
                    if q <= p {
                        y.next();
                    }
                    p.min(q)
                }
                (Some(_), None) => x.next().unwrap_or_default(),
                (None, Some(_)) => y.next().unwrap_or_default(),
                (None, None) => break,
            };
            out.push(next);
        }
        out
    }

    /// Keep only the positions `keep` accepts, in place: a gap between two
    /// kept positions never takes more bytes than the gaps it replaces.
    /// `ahead` sees each position a little before `keep` does (to ask for
    /// what `keep` will read).
    pub fn retain(&mut self, mut keep: impl FnMut(u32) -> bool, mut ahead: impl FnMut(u32)) {
        const BLOCK: usize = 32;
        let (mut read, mut write) = (self.from as usize, 0usize);
        let mut next = self.first;
        let mut left = self.len;
        let mut kept = 0u32;
        let (mut first, mut last) = (0, 0);
        let mut block = [0u32; BLOCK];
        while left > 0 {
            let n = (left as usize).min(BLOCK);
            for slot in block.iter_mut().take(n) {
                *slot = next;
                ahead(next);
                left -= 1;
                if left > 0 {
                    let gap = get(&self.gaps, &mut read);
                    next += gap;
                }
            }
            for &p in &block[..n] {
                if !keep(p) {
                    continue;
                }
                if kept == 0 {
                    first = p;
                } else {
                    let gap = p - last;
                    // Never past what was read: see above.
                    debug_assert!(write + width(gap) <= read || left == 0);
                    put_at(&mut self.gaps, &mut write, gap);
                }
                last = p;
                kept += 1;
            }
        }
        self.gaps.truncate(write);
        self.from = 0;
        self.first = first;
        self.last = last;
        self.len = kept;
        if kept == 0 {
            self.clear();
        }
        self.trim();
    }

    /// Give back the room of dropped positions and spare room once they
    /// are most of what the list holds: a list cleaned of gone places can
    /// be a small part of what it was.
    pub fn trim(&mut self) {
        let used = self.gaps.len() - self.from as usize;
        if self.gaps.capacity() > 2 * used + 16 {
            self.shrink_to_fit();
        }
    }

    /// Give back spare room.
    pub fn shrink_to_fit(&mut self) {
        if self.from > 0 {
            self.gaps.drain(..self.from as usize);
            self.from = 0;
        }
        self.gaps.shrink_to_fit();
    }
}

/// Positions strictly descending (a walk right to left), to be turned
/// into a [`Packed`] list.
#[derive(Debug, Clone, Default)]
pub struct PackedDown(Packed);

impl PackedDown {
    /// Add `pos`, below every position so far.
    #[inline]
    pub fn push(&mut self, pos: u32) {
        let list = &mut self.0;
        if list.len == 0 {
            list.start(pos);
            return;
        }
        debug_assert!(pos < list.last);
        put(&mut list.gaps, list.last - pos);
        list.last = pos;
        list.len += 1;
    }

    /// The same positions, ascending.
    pub fn into_ascending(self) -> Packed {
        let mut list = self.0;
        list.reverse();
        list
    }
}

impl FromIterator<u32> for Packed {
    /// From ascending positions.
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut out = Packed::new();
        for p in iter {
            out.push(p);
        }
        out
    }
}

/// Each item of `iter` with the one `K` places later, decoding each once:
/// a walk over a pair's places asks for the chain cells it will read a
/// little ahead.
pub struct Ahead<I, const K: usize> {
    iter: I,
    ring: [u32; K],
    head: usize,
    left: usize,
}

impl<I: Iterator<Item = u32>, const K: usize> Ahead<I, K> {
    pub fn new(mut iter: I) -> Self {
        let mut ring = [0; K];
        let mut left = 0;
        for slot in ring.iter_mut() {
            match iter.next() {
                Some(v) => *slot = v,
                None => break,
            }
            left += 1;
        }
        Ahead {
            iter,
            ring,
            head: 0,
            left,
        }
    }
}

impl<I: Iterator<Item = u32>, const K: usize> Iterator for Ahead<I, K> {
    /// An item, and the one `K` later if there is one.
    type Item = (u32, Option<u32>);

    #[inline]
    fn next(&mut self) -> Option<(u32, Option<u32>)> {
        if self.left == 0 {
            return None;
        }
        let here = self.ring[self.head];
        let later = self.iter.next();
        match later {
            Some(v) => self.ring[self.head] = v,
            None => self.left -= 1,
        }
        // A compare, not `% K`: K is rarely a power of two, and a
        // remainder by a constant costs a multiply and shifts per item.
        self.head += 1;
        if self.head == K {
            self.head = 0;
        }
        Some((here, later))
    }
}

/// [`Packed::iter`].
#[derive(Clone)]
pub struct Iter<'a> {
    gaps: &'a [u8],
    at: usize,
    next: u32,
    left: u32,
}

impl Iterator for Iter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            return None;
        }
        let here = self.next;
        self.left -= 1;
        if self.left > 0 {
            let gap = get(self.gaps, &mut self.at);
            self.next = here + gap;
        }
        Some(here)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// [`Packed::iter_rev`].
#[derive(Clone)]
pub struct IterRev<'a> {
    gaps: &'a [u8],
    end: usize,
    next: u32,
    left: u32,
}

impl Iterator for IterRev<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            return None;
        }
        let here = self.next;
        self.left -= 1;
        if self.left > 0 {
            let gap = get_back(self.gaps, &mut self.end);
            self.next = here - gap;
        }
        Some(here)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for IterRev<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Ascending positions from gaps of every width, the largest included.
    fn ascending() -> impl Strategy<Value = Vec<u32>> {
        let gap = prop_oneof![1u32..4, 1u32..200, 1u32..70_000, 1u32..u32::MAX / 64];
        (0u32..1000, prop::collection::vec(gap, 0..300)).prop_map(|(start, gaps)| {
            let mut at = start as u64;
            let mut out = Vec::new();
            for g in gaps {
                if at > u32::MAX as u64 {
                    break;
                }
                out.push(at as u32);
                at += g as u64;
            }
            out
        })
    }

    fn reversed(v: &[u32]) -> Vec<u32> {
        v.iter().rev().copied().collect()
    }

    proptest! {
        #[test]
        fn a_list_reads_back_both_ways(v in ascending(), drop in 0usize..10) {
            let mut p: Packed = v.iter().copied().collect();
            prop_assert_eq!(p.len(), v.len());
            prop_assert_eq!(p.iter().collect::<Vec<_>>(), v.clone());
            prop_assert_eq!(p.iter_rev().collect::<Vec<_>>(), reversed(&v));
            p.drop_front(drop);
            let rest = &v[drop.min(v.len())..];
            prop_assert_eq!(p.iter().collect::<Vec<_>>(), rest.to_vec());
            prop_assert_eq!(p.iter_rev().collect::<Vec<_>>(), reversed(rest));
            prop_assert_eq!(p.first(), rest.first().copied());
        }

        #[test]
        fn a_list_pushed_downwards_turns_around(v in ascending(), drop in 0usize..4) {
            let mut down = PackedDown::default();
            for &x in v.iter().rev() {
                down.push(x);
            }
            let mut p = down.into_ascending();
            prop_assert_eq!(p.iter().collect::<Vec<_>>(), v.clone());
            prop_assert_eq!(p.iter_rev().collect::<Vec<_>>(), reversed(&v));
            p.drop_front(drop);
            let rest = &v[drop.min(v.len())..];
            prop_assert_eq!(p.iter().collect::<Vec<_>>(), rest.to_vec());
            prop_assert_eq!(p.iter_rev().collect::<Vec<_>>(), reversed(rest));
        }

        #[test]
        fn kept_positions_are_the_ones_filtered(v in ascending(), drop in 0usize..4, seed: u64) {
            let mut p: Packed = v.iter().copied().collect();
            p.drop_front(drop);
            let keep = |x: u32| (x as u64 ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 62 != 0;
            let want: Vec<u32> = v.iter().skip(drop).copied().filter(|&x| keep(x)).collect();
            let mut seen = Vec::new();
            p.retain(keep, |x| seen.push(x));
            prop_assert_eq!(seen, v.iter().skip(drop).copied().collect::<Vec<_>>());
            prop_assert_eq!(p.iter().collect::<Vec<_>>(), want.clone());
            prop_assert_eq!(p.iter_rev().collect::<Vec<_>>(), reversed(&want));
            prop_assert_eq!(p.last(), want.last().copied());
            // Still a list to push onto.
            let top = want.last().map_or(0, |&x| x as u64 + 1);
            if top <= u32::MAX as u64 {
                p.push(top as u32);
                prop_assert_eq!(p.iter().last(), Some(top as u32));
                prop_assert_eq!(p.len(), want.len() + 1);
            }
        }

        #[test]
        fn lists_join_and_merge(a in ascending(), b in ascending()) {
            let (pa, pb): (Packed, Packed) =
                (a.iter().copied().collect(), b.iter().copied().collect());
            let mut want: Vec<u32> = a.iter().chain(&b).copied().collect();
            want.sort_unstable();
            want.dedup();
            prop_assert_eq!(Packed::union(&pa, &pb).iter().collect::<Vec<_>>(), want);
            let top = a.last().map_or(0, |&x| x as u64 + 1);
            let above: Vec<u32> = b
                .iter()
                .map(|&x| x as u64 + top)
                .take_while(|&x| x <= u32::MAX as u64)
                .map(|x| x as u32)
                .collect();
            let mut joined = pa.clone();
            joined.extend(&above.iter().copied().collect());
            let want: Vec<u32> = a.iter().chain(&above).copied().collect();
            prop_assert_eq!(joined.iter().collect::<Vec<_>>(), want.clone());
            prop_assert_eq!(joined.iter_rev().collect::<Vec<_>>(), reversed(&want));
        }
    }

    #[test]
    fn a_walk_sees_each_place_and_the_one_ahead() {
        for n in [0u32, 1, 3, 4, 5, 40] {
            let got: Vec<(u32, Option<u32>)> = Ahead::<_, 4>::new(0..n).collect();
            let want: Vec<(u32, Option<u32>)> =
                (0..n).map(|i| (i, (i + 4 < n).then_some(i + 4))).collect();
            assert_eq!(got, want, "{n}");
        }
    }

    #[test]
    fn a_frequent_pair_takes_a_byte_a_place() {
        let mut p: Packed = (0..10_000u32).map(|i| i * 3 + 7).collect();
        p.shrink_to_fit();
        assert!(p.heap_bytes() < 10_000, "{}", p.heap_bytes());
        assert_eq!(Packed::gap_bytes(Some(5), 6), 1);
        assert_eq!(Packed::gap_bytes(Some(0), 128), 2);
        assert_eq!(Packed::gap_bytes(Some(0), u32::MAX), 5);
        assert_eq!(Packed::gap_bytes(None, 9), 0);
    }
}
