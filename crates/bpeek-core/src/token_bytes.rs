//! The bytes of every token of a vocabulary side by side in one buffer, with
//! where each ends: a vocabulary of 200,000 tokens is two allocations, not
//! 200,000 (which cost most of the time a built-in tokenizer took to load,
//! and as much again to free). A built-in vocabulary is not even copied:
//! its bytes and ends are read where the build left them in the program.

use crate::TokenId;
use std::borrow::Cow;

#[derive(Clone, Debug, Default)]
pub struct TokenBytes {
    bytes: Cow<'static, [u8]>,
    /// Where token `id`'s bytes end; they start where `id - 1`'s end.
    ends: Ends,
}

/// Each token's end: a vector, or the build's table of little-endian
/// `u32`s (read in place; copied into a vector before any change).
#[derive(Clone, Debug)]
enum Ends {
    Owned(Vec<usize>),
    Static(&'static [u8]),
}

impl Default for Ends {
    fn default() -> Self {
        Ends::Owned(Vec::new())
    }
}

impl Ends {
    #[inline]
    fn len(&self) -> usize {
        match self {
            Ends::Owned(v) => v.len(),
            Ends::Static(b) => b.len() / 4,
        }
    }

    #[inline]
    fn at(&self, i: usize) -> usize {
        match self {
            Ends::Owned(v) => v[i],
            Ends::Static(b) => {
                let b = &b[4 * i..4 * i + 4];
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
            }
        }
    }

    fn to_mut(&mut self) -> &mut Vec<usize> {
        if let Ends::Static(_) = self {
            *self = Ends::Owned((0..self.len()).map(|i| self.at(i)).collect());
        }
        match self {
            Ends::Owned(v) => v,
            Ends::Static(_) => unreachable!("made owned above"),
        }
    }
}

/// Two vocabularies are equal when their tokens are, however they are kept.
impl PartialEq for TokenBytes {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for TokenBytes {}

impl TokenBytes {
    /// Tokens whose bytes are `bytes` cut at `ends` (each token's end, in
    /// order); `None` where an end goes back or past the bytes.
    pub fn from_parts(bytes: Vec<u8>, ends: Vec<usize>) -> Option<Self> {
        Self::checked(Cow::Owned(bytes), Ends::Owned(ends))
    }

    /// Tokens read in place from a table in the program: `bytes` cut at
    /// `ends`, little-endian `u32`s; `None` if the ends are not whole
    /// `u32`s. The ends are not checked one by one (that was most of the
    /// time a built-in tokenizer took to load): a token whose ends are
    /// wrong is empty (see [`Self::token`]), never a panic.
    pub fn from_static(bytes: &'static [u8], ends: &'static [u8]) -> Option<Self> {
        ends.len().is_multiple_of(4).then_some(TokenBytes {
            bytes: Cow::Borrowed(bytes),
            ends: Ends::Static(ends),
        })
    }

    fn checked(bytes: Cow<'static, [u8]>, ends: Ends) -> Option<Self> {
        let mut last = 0;
        for i in 0..ends.len() {
            let end = ends.at(i);
            if end < last || end > bytes.len() {
                return None;
            }
            last = end;
        }
        Some(TokenBytes { bytes, ends })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.len() == 0
    }

    /// The bytes of token `id` (panics past the end, as indexing does;
    /// empty where a table read in place has ends that are wrong).
    #[inline]
    pub fn token(&self, id: TokenId) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends.at(id - 1) };
        self.bytes.get(start..self.ends.at(id)).unwrap_or_default()
    }

    /// The bytes of token `id`, `None` past the end.
    pub fn get(&self, id: TokenId) -> Option<&[u8]> {
        ((id as usize) < self.ends.len()).then(|| self.token(id))
    }

    pub fn push(&mut self, token: &[u8]) {
        let bytes = self.bytes.to_mut();
        bytes.extend_from_slice(token);
        let end = bytes.len();
        self.ends.to_mut().push(end);
    }

    /// Add the token made of token `a`'s bytes and then token `b`'s from
    /// byte `skip` on, copied within the buffer: a merge makes one a
    /// round, and a joined copy made first cost an allocation each.
    pub fn push_joined(&mut self, a: TokenId, b: TokenId, skip: usize) {
        let span = |id: TokenId| {
            let id = id as usize;
            let start = if id == 0 { 0 } else { self.ends.at(id - 1) };
            start..self.ends.at(id)
        };
        let (left, right) = (span(a), span(b));
        let right = (right.start + skip).min(right.end)..right.end;
        let bytes = self.bytes.to_mut();
        bytes.extend_from_within(left);
        bytes.extend_from_within(right);
        let end = bytes.len();
        self.ends.to_mut().push(end);
    }

    pub fn pop(&mut self) {
        if self.ends.to_mut().pop().is_some() {
            let keep = self.last_end();
            self.bytes.to_mut().truncate(keep);
        }
    }

    /// Keep only the first `len` tokens.
    pub fn truncate(&mut self, len: usize) {
        if len < self.ends.len() {
            self.ends.to_mut().truncate(len);
            let keep = self.last_end();
            self.bytes.to_mut().truncate(keep);
        }
    }

    fn last_end(&self) -> usize {
        match self.ends.len() {
            0 => 0,
            n => self.ends.at(n - 1),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len() as TokenId).map(|id| self.token(id))
    }
}

impl From<Vec<Vec<u8>>> for TokenBytes {
    fn from(tokens: Vec<Vec<u8>>) -> Self {
        let mut bytes = Vec::with_capacity(tokens.iter().map(Vec::len).sum());
        let mut ends = Vec::with_capacity(tokens.len());
        for token in &tokens {
            bytes.extend_from_slice(token);
            ends.push(bytes.len());
        }
        TokenBytes {
            bytes: Cow::Owned(bytes),
            ends: Ends::Owned(ends),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_a_list_of_vectors_holds_through_pushes_pops_and_cuts() {
        let mut list: Vec<Vec<u8>> = vec![b"a".to_vec(), Vec::new(), b"bcd".to_vec()];
        let mut flat = TokenBytes::from(list.clone());
        let mut seed = 7u32;
        for step in 0..2000u32 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            match seed >> 29 {
                0 => {
                    list.pop();
                    flat.pop();
                }
                1 => {
                    let keep = (seed >> 8) as usize % (list.len() + 2);
                    list.truncate(keep);
                    flat.truncate(keep);
                }
                _ => {
                    let token: Vec<u8> = (0..(seed >> 12) % 5).map(|i| (step + i) as u8).collect();
                    flat.push(&token);
                    list.push(token);
                }
            }
            assert_eq!(flat.len(), list.len());
            assert!(flat.iter().eq(list.iter().map(Vec::as_slice)));
            assert_eq!(flat.get(list.len() as TokenId), None);
        }
    }

    #[test]
    fn parts_whose_ends_go_back_or_past_the_bytes_are_refused() {
        assert!(TokenBytes::from_parts(b"abc".to_vec(), vec![1, 3]).is_some());
        assert!(TokenBytes::from_parts(b"abc".to_vec(), vec![2, 1]).is_none());
        assert!(TokenBytes::from_parts(b"abc".to_vec(), vec![4]).is_none());
    }

    #[test]
    fn tokens_read_in_place_are_those_of_the_same_parts_and_change_alike() {
        static BYTES: &[u8] = b"abcdefg";
        static ENDS: &[u8] = &[1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0];
        let mut read = TokenBytes::from_static(BYTES, ENDS).unwrap();
        let mut owned = TokenBytes::from_parts(BYTES.to_vec(), vec![1, 1, 4, 7]).unwrap();
        assert_eq!(read, owned);
        assert_eq!(read.token(2), b"bcd");
        assert_eq!(read.token(1), b"");
        read.push(b"xy");
        owned.push(b"xy");
        assert_eq!(read, owned);
        read.truncate(2);
        owned.truncate(2);
        assert_eq!(read, owned);
        assert!(TokenBytes::from_static(BYTES, &ENDS[..5]).is_none());
        let wrong = TokenBytes::from_static(BYTES, &[8, 0, 0, 0, 2, 0, 0, 0]).unwrap();
        assert_eq!((wrong.token(0), wrong.token(1)), (&b""[..], &b""[..]));
    }
}
