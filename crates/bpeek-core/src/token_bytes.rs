//! The bytes of every token of a vocabulary side by side in one buffer, with
//! where each ends: a vocabulary of 200,000 tokens is two allocations, not
//! 200,000 (which cost most of the time a built-in tokenizer took to load,
//! and as much again to free).

use crate::TokenId;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenBytes {
    bytes: Vec<u8>,
    /// Where token `id`'s bytes end; they start where `id - 1`'s end.
    ends: Vec<usize>,
}

impl TokenBytes {
    /// Tokens whose bytes are `bytes` cut at `ends` (each token's end, in
    /// order); `None` where an end goes back or past the bytes.
    pub fn from_parts(bytes: Vec<u8>, ends: Vec<usize>) -> Option<Self> {
        let mut last = 0;
        for &end in &ends {
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
        self.ends.is_empty()
    }

    /// The bytes of token `id` (panics past the end, as indexing does).
    pub fn token(&self, id: TokenId) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        &self.bytes[start..self.ends[id]]
    }

    /// The bytes of token `id`, `None` past the end.
    pub fn get(&self, id: TokenId) -> Option<&[u8]> {
        ((id as usize) < self.ends.len()).then(|| self.token(id))
    }

    pub fn push(&mut self, token: &[u8]) {
        self.bytes.extend_from_slice(token);
        self.ends.push(self.bytes.len());
    }

    pub fn pop(&mut self) {
        if self.ends.pop().is_some() {
            self.bytes.truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    /// Keep only the first `len` tokens.
    pub fn truncate(&mut self, len: usize) {
        if len < self.ends.len() {
            self.ends.truncate(len);
            self.bytes.truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len() as TokenId).map(|id| self.token(id))
    }
}

impl From<Vec<Vec<u8>>> for TokenBytes {
    fn from(tokens: Vec<Vec<u8>>) -> Self {
        let mut all = TokenBytes {
            bytes: Vec::with_capacity(tokens.iter().map(Vec::len).sum()),
            ends: Vec::with_capacity(tokens.len()),
        };
        for token in &tokens {
            all.push(token);
        }
        all
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
}
