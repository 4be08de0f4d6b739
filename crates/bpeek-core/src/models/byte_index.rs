//! Each token's id by its bytes, in a few allocations however large the
//! vocabulary: the bytes side by side ([`TokenBytes`]), and a hash table of
//! ids that hashes and compares those bytes. A map keyed by each token's own `Vec<u8>`
//! allocated (and freed) once per token, most of the time it takes to load
//! a vocabulary of 200,000 tokens. A built-in tokenizer's table was laid
//! out by the build and is read in place (see [`laid_tables`]).

use crate::TokenId;
use crate::models::laid_tables;
use crate::token_bytes::TokenBytes;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

#[derive(Clone)]
pub struct ByteIndex {
    /// Every token's bytes.
    tokens: TokenBytes,
    /// The ids of the non-empty tokens, found by their bytes.
    table: Table,
}

#[derive(Clone)]
enum Table {
    /// Made when the vocabulary was read.
    Made(HashTable<TokenId>),
    /// Laid out by the build ([`laid_tables`]).
    Laid(&'static [u8]),
}

impl ByteIndex {
    /// The index of `tokens`; empty tokens (unused ids) are left out. A
    /// token given twice is refused with the second id.
    pub fn new(tokens: &TokenBytes) -> Result<Self, TokenId> {
        let mut table = HashTable::with_capacity(tokens.len());
        for (id, token) in tokens.iter().enumerate() {
            if token.is_empty() {
                continue;
            }
            let hash = FxBuildHasher.hash_one(token);
            if table
                .find(hash, |&other| tokens.token(other) == token)
                .is_some()
            {
                return Err(id as TokenId);
            }
            table.insert_unique(hash, id as TokenId, |&other| {
                FxBuildHasher.hash_one(tokens.token(other))
            });
        }
        Ok(ByteIndex {
            tokens: tokens.clone(),
            table: Table::Made(table),
        })
    }

    /// The index of `tokens` whose table the build laid out (`slots`, see
    /// [`laid_tables`]); `None` if the table is not one.
    pub fn laid(tokens: &TokenBytes, slots: &'static [u8]) -> Option<Self> {
        laid_tables::well_formed(slots, 1).then(|| ByteIndex {
            tokens: tokens.clone(),
            table: Table::Laid(slots),
        })
    }

    /// The id of the token whose bytes are `key`.
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<TokenId> {
        match &self.table {
            Table::Made(table) => {
                let hash = FxBuildHasher.hash_one(key);
                table
                    .find(hash, |&id| self.tokens.token(id) == key)
                    .copied()
            }
            Table::Laid(slots) => laid_tables::find_token(slots, key, |id| self.tokens.get(id)),
        }
    }
}

/// The number of tokens, not each one (a vocabulary has thousands).
impl std::fmt::Debug for ByteIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteIndex")
            .field("tokens", &self.tokens.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn finds_each_token_as_a_map_of_its_bytes_would() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Bytes, then random short tokens over a small alphabet (many
        // share prefixes and hashes' buckets), with unused (empty) ids.
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        let mut by_bytes: FxHashMap<Vec<u8>, TokenId> = FxHashMap::default();
        for (id, t) in tokens.iter().enumerate() {
            by_bytes.insert(t.clone(), id as TokenId);
        }
        while tokens.len() < 5000 {
            let len = (next() % 6) as usize;
            let token: Vec<u8> = (0..len).map(|_| (next() % 4) as u8).collect();
            if token.is_empty() || !by_bytes.contains_key(&token) {
                if !token.is_empty() {
                    by_bytes.insert(token.clone(), tokens.len() as TokenId);
                }
                tokens.push(token);
            }
        }
        let index = ByteIndex::new(&tokens.into()).unwrap();
        for len in 0..7 {
            for k in 0..2000u64 {
                let key: Vec<u8> = (0..len).map(|i| ((k >> (2 * i)) % 5) as u8).collect();
                assert_eq!(index.get(&key), by_bytes.get(&key).copied(), "{key:?}");
            }
        }
    }

    #[test]
    fn a_token_given_twice_is_refused_with_its_second_id() {
        let tokens = vec![
            b"a".to_vec(),
            Vec::new(),
            b"ab".to_vec(),
            Vec::new(),
            b"ab".to_vec(),
        ];
        assert_eq!(ByteIndex::new(&tokens.clone().into()).err(), Some(4));
        let index = ByteIndex::new(&tokens[..4].to_vec().into()).unwrap();
        assert_eq!(index.get(b""), None, "empty tokens are unused ids");
        assert_eq!(index.get(b"ab"), Some(2));
    }
}
