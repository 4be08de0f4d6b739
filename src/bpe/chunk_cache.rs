//! Recent chunks and their tokens, for encoding long texts: words repeat,
//! and a hit costs one comparison in a small table instead of look-ups in
//! the large token and pair maps.

use crate::bpe::TokenId;

/// Chunks up to this many bytes are kept.
const MAX_BYTES: usize = 15;
/// Encodings up to this many tokens are kept.
const MAX_TOKENS: usize = 4;
const SLOTS: usize = 4096;

#[derive(Clone, Copy, Default)]
struct Slot {
    len: u8,
    bytes: [u8; MAX_BYTES],
    count: u8,
    ids: [TokenId; MAX_TOKENS],
}

/// A direct-mapped table: each chunk has one slot, and a newer chunk in
/// the same slot replaces the older one. A hit compares the whole chunk,
/// so it is never wrong.
pub struct ChunkCache {
    slots: Vec<Slot>,
}

impl Default for ChunkCache {
    fn default() -> Self {
        ChunkCache {
            slots: vec![Slot::default(); SLOTS],
        }
    }
}

impl ChunkCache {
    fn slot(chunk: &[u8]) -> Option<usize> {
        if chunk.is_empty() || chunk.len() > MAX_BYTES {
            return None;
        }
        let mut h = chunk.len() as u64;
        for &b in chunk {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
        Some((h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (SLOTS - 1))
    }

    /// The tokens of `chunk`, if it is here.
    pub fn get(&self, chunk: &[u8]) -> Option<&[TokenId]> {
        let s = &self.slots[Self::slot(chunk)?];
        (s.len as usize == chunk.len() && &s.bytes[..chunk.len()] == chunk)
            .then(|| &s.ids[..s.count as usize])
    }

    /// Remember that `chunk` encodes to `ids` (if both are short enough).
    pub fn put(&mut self, chunk: &[u8], ids: &[TokenId]) {
        let Some(i) = Self::slot(chunk) else { return };
        if ids.len() > MAX_TOKENS {
            return;
        }
        let s = &mut self.slots[i];
        s.len = chunk.len() as u8;
        s.bytes[..chunk.len()].copy_from_slice(chunk);
        s.count = ids.len() as u8;
        s.ids[..ids.len()].copy_from_slice(ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_needs_the_same_bytes() {
        let mut cache = ChunkCache::default();
        cache.put(b" hello", &[1, 2]);
        assert_eq!(cache.get(b" hello"), Some(&[1, 2][..]));
        assert_eq!(cache.get(b" hellp"), None);
        assert_eq!(cache.get(b" hell"), None);
        cache.put(b"a very long chunk of text", &[3]);
        assert_eq!(cache.get(b"a very long chunk of text"), None);
        cache.put(b"abcde", &[1, 2, 3, 4, 5]);
        assert_eq!(cache.get(b"abcde"), None);
    }
}
