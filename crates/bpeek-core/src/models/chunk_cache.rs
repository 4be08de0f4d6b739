//! Recent chunks and their tokens, for encoding long texts: words repeat,
//! and a hit costs one comparison in a small table instead of look-ups in
//! the large token and pair maps.
//!
//! Two tables: one for the short chunks most of English is cut into, and
//! one for chunks of up to 31 bytes, which is where words of most other
//! scripts fall (two or three bytes a letter). Keeping the long ones apart
//! keeps the short table as small, and as often in cache, as it was.

use crate::TokenId;

/// Chunks up to this many bytes go in the short table, with up to
/// `SHORT_TOKENS` tokens.
const SHORT_BYTES: usize = 15;
const SHORT_TOKENS: usize = 4;
const SHORT_SLOTS: usize = 8192;
/// Longer chunks up to this many bytes go in the long table.
const LONG_FROM: usize = SHORT_BYTES + 1;
const LONG_BYTES: usize = 31;
const LONG_TOKENS: usize = 8;
const LONG_SLOTS: usize = 8192;
/// Longer chunks still, up to this many bytes, go in a third table: text
/// written without spaces (Chinese, Japanese, Thai) is cut into whole
/// phrases, and a phrase met again is worth finding again.
const PHRASE_FROM: usize = LONG_BYTES + 1;
const PHRASE_BYTES: usize = 127;
const PHRASE_TOKENS: usize = 40;
const PHRASE_SLOTS: usize = 1024;

#[derive(Clone, Copy)]
struct Slot<const B: usize, const T: usize> {
    len: u8,
    bytes: [u8; B],
    count: u8,
    ids: [TokenId; T],
}

impl<const B: usize, const T: usize> Default for Slot<B, T> {
    fn default() -> Self {
        Slot {
            len: 0,
            bytes: [0; B],
            count: 0,
            ids: [0; T],
        }
    }
}

/// A direct-mapped table: each chunk has one slot, and a newer chunk in
/// the same slot replaces the older one. A hit compares the whole chunk,
/// so it is never wrong.
///
/// A slot holds up to `T` tokens, what most chunks of English need. A
/// chunk with more (a word of a script its vocabulary knows little of, at
/// a token for every letter or two) keeps them in the slot's place in
/// `spill`, which only such chunks touch: the slots stay small enough to
/// sit in the processor's nearer caches.
struct Table<const B: usize, const T: usize> {
    slots: Vec<Slot<B, T>>,
    /// `B` ids for each slot, made when a chunk first spills (most English
    /// never does).
    spill: Vec<TokenId>,
}

impl<const B: usize, const T: usize> Table<B, T> {
    fn new(slots: usize) -> Self {
        Table {
            // Written out empty at once: slots left to be zeroed by the
            // system as first touched were slower (a fault inside the
            // loop that encodes, for each page of them).
            slots: vec![Slot::default(); slots],
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    fn slot(&self, chunk: &[u8]) -> usize {
        let n = chunk.len();
        // Up to 16 bytes by at most two loads and one multiply: a chain of
        // one multiply a byte was the longest wait of a hit.
        let h = match n {
            8..=16 => word(chunk, 0) ^ word(chunk, n - 8).rotate_left(23) ^ n as u64,
            4..=7 => {
                ((half(chunk, 0) as u64) << 32) | (half(chunk, n - 4) as u64 ^ ((n as u64) << 60))
            }
            1..=3 => {
                chunk[0] as u64
                    | ((chunk[n / 2] as u64) << 8)
                    | ((chunk[n - 1] as u64) << 16)
                    | ((n as u64) << 24)
            }
            0 => 0,
            // Longer chunks a word at a time, the last word overlapping.
            _ => {
                (0..n - 8).step_by(8).fold(n as u64, |h, k| {
                    (h ^ word(chunk, k)).wrapping_mul(0x100_0000_01B3)
                }) ^ word(chunk, n - 8).rotate_left(23)
            }
        };
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.slots.len() - 1)
    }

    #[inline(always)]
    fn get(&self, chunk: &[u8]) -> Option<&[TokenId]> {
        let i = self.slot(chunk);
        let s = &self.slots[i];
        if s.len as usize != chunk.len() || !same(&s.bytes[..chunk.len()], chunk) {
            return None;
        }
        let count = s.count as usize;
        Some(if count <= T {
            &s.ids[..count]
        } else {
            &self.spill[i * B..i * B + count]
        })
    }

    fn put(&mut self, chunk: &[u8], ids: &[TokenId]) {
        // Every token is at least a byte, but a tokenizer that drops bytes
        // it has no token for could in principle be asked otherwise.
        if ids.len() > B {
            return;
        }
        let i = self.slot(chunk);
        let s = &mut self.slots[i];
        s.len = chunk.len() as u8;
        s.bytes[..chunk.len()].copy_from_slice(chunk);
        s.count = ids.len() as u8;
        if ids.len() <= T {
            s.ids[..ids.len()].copy_from_slice(ids);
        } else {
            if self.spill.is_empty() {
                // Zeroed memory from the system: pages nothing spills into
                // are never touched.
                self.spill = vec![0; self.slots.len() * B];
            }
            self.spill[i * B..i * B + ids.len()].copy_from_slice(ids);
        }
    }
}

/// Whether two slices of the same length hold the same bytes: up to 16
/// bytes by two overlapping loads each, cheaper than a call to compare
/// memory for the short chunks most hits are.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        // Longer chunks a word at a time, the last word overlapping.
        17.. => {
            (0..n - 8).step_by(8).all(|k| word(a, k) == word(b, k))
                && word(a, n - 8) == word(b, n - 8)
        }
        // One to three bytes (digits, short words): each byte looked at,
        // where a call to `memcmp` cost more than the rest of a hit.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        _ => a == b,
    }
}

/// Eight bytes of `s` from `at`, as a number.
#[inline]
fn word(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default())
}

/// Four bytes of `s` from `at`, as a number.
#[inline]
fn half(s: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or_default())
}

pub struct ChunkCache {
    short: Table<SHORT_BYTES, SHORT_TOKENS>,
    long: Table<LONG_BYTES, LONG_TOKENS>,
    phrase: Table<PHRASE_BYTES, PHRASE_TOKENS>,
}

impl Default for ChunkCache {
    fn default() -> Self {
        ChunkCache::for_text(usize::MAX)
    }
}

impl ChunkCache {
    /// A cache sized for a text of `len` bytes: a short text has fewer
    /// distinct chunks, and setting up large tables would cost it more
    /// than their hits give back.
    pub fn for_text(len: usize) -> Self {
        let slots = |most: usize, bytes_per_slot: usize| {
            (len / bytes_per_slot).next_power_of_two().clamp(256, most)
        };
        ChunkCache {
            short: Table::new(slots(SHORT_SLOTS, 128)),
            long: Table::new(slots(LONG_SLOTS, 128)),
            phrase: Table::new(slots(PHRASE_SLOTS, 1024)),
        }
    }

    /// The tokens of `chunk`, if it is here.
    #[inline]
    pub fn get(&self, chunk: &[u8]) -> Option<&[TokenId]> {
        match chunk.len() {
            0 => None,
            1..=SHORT_BYTES => self.short.get(chunk),
            LONG_FROM..=LONG_BYTES => self.long.get(chunk),
            PHRASE_FROM..=PHRASE_BYTES => self.phrase.get(chunk),
            _ => None,
        }
    }

    /// Remember that `chunk` encodes to `ids` (if both are short enough).
    pub fn put(&mut self, chunk: &[u8], ids: &[TokenId]) {
        match chunk.len() {
            0 => {}
            1..=SHORT_BYTES => self.short.put(chunk, ids),
            LONG_FROM..=LONG_BYTES => self.long.put(chunk, ids),
            PHRASE_FROM..=PHRASE_BYTES => self.phrase.put(chunk, ids),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_finds_a_difference_at_any_place_of_any_length() {
        for len in 0..=PHRASE_BYTES {
            let a: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
            assert!(same(&a, &a.clone()));
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 1 << (at % 8);
                assert!(!same(&a, &b), "length {len}, byte {at}");
            }
        }
    }

    #[test]
    fn a_new_cache_of_any_size_holds_nothing() {
        for len in [0, 1000, 1 << 20, 1 << 30] {
            let cache = ChunkCache::for_text(len);
            for chunk in [
                &[0u8][..],
                &[0; 15],
                &[0; 16],
                &[0; 31],
                &[0; 32],
                &[0; 127],
            ] {
                assert_eq!(
                    cache.get(chunk),
                    None,
                    "text of {len}, {} bytes",
                    chunk.len()
                );
            }
        }
    }

    #[test]
    fn a_hit_needs_the_same_bytes() {
        let mut cache = ChunkCache::default();
        cache.put(b" hello", &[1, 2]);
        assert_eq!(cache.get(b" hello"), Some(&[1, 2][..]));
        assert_eq!(cache.get(b" hellp"), None);
        assert_eq!(cache.get(b" hell"), None);
        cache.put(b"abcde", &[1, 2, 3, 4, 5]);
        assert_eq!(
            cache.get(b"abcde"),
            Some(&[1, 2, 3, 4, 5][..]),
            "more tokens than a short slot holds"
        );
        let word = " слово за словом".as_bytes();
        cache.put(word, &[7, 8, 9, 10, 11]);
        assert_eq!(cache.get(word), Some(&[7, 8, 9, 10, 11][..]));
        assert_eq!(cache.get(&word[..word.len() - 1]), None);
        let phrase = "一个没有空格的中文短语".as_bytes();
        let ids: Vec<TokenId> = (0..11).collect();
        cache.put(phrase, &ids);
        assert_eq!(cache.get(phrase), Some(&ids[..]));
        assert_eq!(cache.get(&phrase[..phrase.len() - 3]), None);
        let long = "a chunk of text far too long to be kept ".repeat(4);
        cache.put(long.as_bytes(), &[3]);
        assert_eq!(cache.get(long.as_bytes()), None);
        assert_eq!(cache.get(b""), None);
    }

    #[test]
    fn every_hit_is_what_was_last_put_for_that_chunk() {
        // Chunks of every length the tables take, with as many tokens as
        // bytes or as few as one, many sharing slots.
        let mut cache = ChunkCache::default();
        let mut last: std::collections::HashMap<Vec<u8>, Vec<TokenId>> = Default::default();
        let mut next = crate::dice::rolls(0x2545_f491_4f6c_dd1d);
        for round in 0..60_000u32 {
            let len = 1 + next(PHRASE_BYTES as u64) as usize;
            // Few distinct bytes, so chunks repeat with new ids.
            let chunk: Vec<u8> = (0..len).map(|_| b'a' + next(2) as u8).collect();
            let count = 1 + next(len as u64) as usize;
            let ids: Vec<TokenId> = (0..count as u32).map(|k| round ^ k).collect();
            cache.put(&chunk, &ids);
            assert_eq!(cache.get(&chunk), Some(&ids[..]), "round {round}");
            last.insert(chunk, ids);
            let probe = last.keys().nth(next(last.len() as u64) as usize).unwrap();
            if let Some(got) = cache.get(probe) {
                assert_eq!(got, &last[probe][..], "round {round}, {probe:?}");
            }
        }
    }
}
