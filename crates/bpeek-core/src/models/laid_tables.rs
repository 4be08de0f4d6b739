//! Hash tables laid out once by the build script and read in place by the
//! program: the built-in tokenizers' ids by token bytes and by pair. A
//! process that encodes one text then builds no table at start (building
//! the two hash maps was most of the 20 ms o200k took to load). The build
//! script includes this file, so both sides hash and probe with the same
//! code.
//!
//! Each table has a power-of-two number of slots, at least twice its keys,
//! probed linearly from the slot the key's hash picks; an empty slot holds
//! [`EMPTY`]. Slots are little-endian `u32`s: a token table's slot is an
//! id, a pair table's slot is `left, right, made`.

/// An empty slot (no token has this id).
pub const EMPTY: u32 = u32::MAX;

/// `u32`s in a pair table's slot.
pub const PAIR_SLOT: usize = 3;

/// The number of slots for `keys` keys: a power of two with at most half
/// of them full, so that a probe, found or not, reads one or two slots.
pub fn slot_count(keys: usize) -> usize {
    (2 * keys).max(2).next_power_of_two()
}

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// A token's bytes hashed eight at a time; the high bits pick the slot.
#[inline]
pub fn bytes_hash(bytes: &[u8]) -> u64 {
    let mut h = (bytes.len() as u64).wrapping_mul(MIX);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ w).wrapping_mul(MIX).rotate_left(26);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(MIX);
    }
    (h ^ (h >> 31)).wrapping_mul(MIX)
}

/// A pair of ids hashed; the high bits pick the slot.
#[inline]
pub fn pair_hash(left: u32, right: u32) -> u64 {
    let h = ((u64::from(left) << 32) | u64::from(right)).wrapping_mul(MIX);
    (h ^ (h >> 29)).wrapping_mul(MIX)
}

/// The first slot `hash` probes in a table of `slots` slots.
#[inline]
fn first_slot(hash: u64, slots: usize) -> usize {
    (hash >> (64 - slots.trailing_zeros())) as usize
}

/// `u32` number `i` of little-endian `table`.
#[inline]
fn word(table: &[u8], i: usize) -> u32 {
    let b = &table[4 * i..4 * i + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Whether `table` has the shape of a table of `slot` `u32`s per slot: a
/// power of two slots, at least two, and at least one empty (so a probe
/// ends).
pub fn well_formed(table: &[u8], slot: usize) -> bool {
    let size = 4 * slot;
    let slots = table.len() / size;
    table.len().is_multiple_of(size)
        && slots >= 2
        && slots.is_power_of_two()
        && (0..slots).any(|s| word(table, s * slot + slot - 1) == EMPTY)
}

/// The token table of `tokens` (each token's bytes by id; empty ones are
/// left out), as little-endian bytes.
pub fn lay_out_tokens<'t>(tokens: impl ExactSizeIterator<Item = &'t [u8]>) -> Vec<u8> {
    let slots = slot_count(tokens.len());
    let mut table = vec![EMPTY; slots];
    for (id, token) in tokens.enumerate() {
        if token.is_empty() {
            continue;
        }
        let mut s = first_slot(bytes_hash(token), slots);
        while table[s] != EMPTY {
            s = (s + 1) & (slots - 1);
        }
        table[s] = id as u32;
    }
    table.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The id whose bytes are `key` in a token `table`; `token` gives an id's
/// bytes (`None` for an id it does not know, which matches nothing).
#[inline]
pub fn find_token<'t>(
    table: &[u8],
    key: &[u8],
    token: impl Fn(u32) -> Option<&'t [u8]>,
) -> Option<u32> {
    let slots = table.len() / 4;
    let mut s = first_slot(bytes_hash(key), slots);
    loop {
        match word(table, s) {
            EMPTY => return None,
            id if token(id) == Some(key) => return Some(id),
            _ => s = (s + 1) & (slots - 1),
        }
    }
}

/// The pair table of `pairs` (`(left, right)` and the id they make), as
/// little-endian bytes. Pairs must be distinct.
pub fn lay_out_pairs(pairs: impl ExactSizeIterator<Item = ((u32, u32), u32)>) -> Vec<u8> {
    let slots = slot_count(pairs.len());
    let mut table = vec![[0, 0, EMPTY]; slots];
    for ((left, right), made) in pairs {
        let mut s = first_slot(pair_hash(left, right), slots);
        while table[s][2] != EMPTY {
            s = (s + 1) & (slots - 1);
        }
        table[s] = [left, right, made];
    }
    table
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// The id `(left, right)` makes in a pair `table`.
#[inline]
pub fn find_pair(table: &[u8], left: u32, right: u32) -> Option<u32> {
    let slots = table.len() / (4 * PAIR_SLOT);
    let mut s = first_slot(pair_hash(left, right), slots);
    loop {
        let at = s * PAIR_SLOT;
        match word(table, at + 2) {
            EMPTY => return None,
            made if word(table, at) == left && word(table, at + 1) == right => return Some(made),
            _ => s = (s + 1) & (slots - 1),
        }
    }
}

/// Every pair in a pair `table`, with the id it makes.
pub fn pairs(table: &[u8]) -> impl Iterator<Item = ((u32, u32), u32)> + '_ {
    (0..table.len() / (4 * PAIR_SLOT)).filter_map(move |s| {
        let at = s * PAIR_SLOT;
        match word(table, at + 2) {
            EMPTY => None,
            made => Some(((word(table, at), word(table, at + 1)), made)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    fn dice(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn a_token_table_finds_what_a_map_of_the_tokens_finds() {
        let mut seed = 0x51_7cc1_b727_220au64;
        // Short tokens over a small alphabet (shared prefixes, colliding
        // slots), long ones, and unused (empty) ids.
        let mut tokens: Vec<Vec<u8>> = Vec::new();
        let mut map: FxHashMap<Vec<u8>, u32> = FxHashMap::default();
        while tokens.len() < 3000 {
            let len = (dice(&mut seed) % 20) as usize;
            let token: Vec<u8> = (0..len).map(|_| (dice(&mut seed) % 3) as u8).collect();
            if token.is_empty() || !map.contains_key(&token) {
                if !token.is_empty() {
                    map.insert(token.clone(), tokens.len() as u32);
                }
                tokens.push(token);
            }
        }
        let table = lay_out_tokens(tokens.iter().map(Vec::as_slice));
        assert!(well_formed(&table, 1));
        let token = |id: u32| tokens.get(id as usize).map(Vec::as_slice);
        for t in &tokens {
            assert_eq!(find_token(&table, t, token), map.get(t).copied(), "{t:?}");
        }
        for _ in 0..5000 {
            let len = (dice(&mut seed) % 22) as usize;
            let key: Vec<u8> = (0..len).map(|_| (dice(&mut seed) % 4) as u8).collect();
            assert_eq!(
                find_token(&table, &key, token),
                map.get(&key).copied(),
                "{key:?}"
            );
        }
    }

    #[test]
    fn a_pair_table_finds_what_a_map_of_the_pairs_finds_and_lists_them() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut map: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        while map.len() < 4000 {
            let pair = (
                (dice(&mut seed) % 300) as u32,
                (dice(&mut seed) % 300) as u32,
            );
            let made = 300 + map.len() as u32;
            map.entry(pair).or_insert(made);
        }
        let table = lay_out_pairs(map.iter().map(|(&p, &m)| (p, m)));
        assert!(well_formed(&table, PAIR_SLOT));
        for a in 0..310 {
            for b in 0..310 {
                assert_eq!(
                    find_pair(&table, a, b),
                    map.get(&(a, b)).copied(),
                    "{a} {b}"
                );
            }
        }
        let listed: FxHashMap<(u32, u32), u32> = pairs(&table).collect();
        assert_eq!(listed, map);
    }

    #[test]
    fn tables_without_an_empty_slot_or_of_a_wrong_size_are_not_well_formed() {
        let full: Vec<u8> = [1u32, 2].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert!(!well_formed(&full, 1));
        assert!(!well_formed(
            &lay_out_tokens([&b"a"[..]].into_iter())[..4],
            1
        ));
        assert!(well_formed(&lay_out_tokens([&b"a"[..]].into_iter()), 1));
    }
}
