//! Which two tokens make each token of a rank file (tiktoken's format gives
//! only each token's bytes and rank).
//!
//! Merging by rank makes each token from one split only: the one that
//! merging its own bytes with the lower ranks ends in (the merges inside a
//! token's span run as they would on its bytes alone). So one pair per token
//! is enough, found in rank order. A token whose bytes do not end in two
//! parts that way keeps every split, as tiktoken's merging would try them
//! all.
//!
//! The build script runs this same code on the built-in tokenizers, so they
//! load with the answer precomputed.

use crate::merge::apply_ranked;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;

/// The pair of each token of rank (and id) `0..count`, with the rank and id
/// it merges into. `token_bytes` gives a token's bytes (empty for an unused
/// rank), `byte_ids` the id of each byte, `by_bytes` each token's id.
pub fn pair_ranks<'v>(
    count: usize,
    token_bytes: impl Fn(TokenId) -> &'v [u8],
    byte_ids: &[TokenId],
    by_bytes: impl Fn(&[u8]) -> Option<TokenId>,
) -> FxHashMap<Pair, (u32, TokenId)> {
    let mut ranks = FxHashMap::default();
    let mut symbols = Vec::new();
    for id in 0..count as TokenId {
        let bytes = token_bytes(id);
        if bytes.len() < 2 {
            continue;
        }
        symbols.clear();
        symbols.extend(bytes.iter().map(|&b| byte_ids[b as usize]));
        apply_ranked(&mut symbols, |p| ranks.get(&p).copied());
        if let [a, b] = symbols[..] {
            ranks.insert((a, b), (id, id));
            continue;
        }
        for split in 1..bytes.len() {
            if let (Some(a), Some(b)) = (by_bytes(&bytes[..split]), by_bytes(&bytes[split..])) {
                ranks.insert((a, b), (id, id));
            }
        }
    }
    ranks
}
