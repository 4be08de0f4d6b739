//! Precomputes the built-in tokenizers (GPT-2, cl100k, o200k) from the rank
//! data the `tiktoken-rs` crate ships: each token's bytes, and the pair of
//! tokens that makes each one, derived by the same code bpeek uses for rank
//! files it reads (`src/models/rank_pairs.rs`). Loading then only copies tables
//! instead of decoding base64 and replaying every token's merges.
//!
//! The files written for each, in little-endian u32s: `NAME.ranks`, the
//! token count `n`, `n + 1` offsets into the bytes that follow, the bytes;
//! `NAME.token_slots` and `NAME.pair_slots`, hash tables of the ids by
//! token bytes and by the pair that makes them, read in place (see
//! `src/models/laid_tables.rs`); and `NAME.byte_pairs`, the rank and id
//! each pair of two bytes makes (`u32::MAX, 0` for none), by the two bytes.

use rustc_hash::FxHashMap;
use std::path::Path;

// The names the engine's root gives, so the shared files compile here.
type TokenId = u32;
type Pair = (TokenId, TokenId);

#[path = "src/models/laid_tables.rs"]
#[allow(dead_code)]
mod laid_tables;
#[path = "src/merge.rs"]
#[allow(dead_code)]
mod merge;
#[path = "src/models/rank_pairs.rs"]
mod rank_pairs;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/merge.rs");
    println!("cargo::rerun-if-changed=src/models/rank_pairs.rs");
    println!("cargo::rerun-if-changed=src/models/laid_tables.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    // Each built-in tokenizer and its first special id: its ordinary tokens
    // are the ranks below it.
    for (name, first_special) in [("gpt2", 50256), ("cl100k", 100257), ("o200k", 199999)] {
        let core = match name {
            "gpt2" => tiktoken_rs::r50k_base(),
            "cl100k" => tiktoken_rs::cl100k_base(),
            _ => tiktoken_rs::o200k_base(),
        }
        .unwrap_or_else(|e| panic!("{name}: the rank data did not load: {e}"));
        let mut tokens: Vec<Vec<u8>> = Vec::new();
        for rank in 0..first_special {
            match core.decode_bytes(&[rank]) {
                Ok(bytes) => tokens.push(bytes),
                Err(_) => break,
            }
        }
        let mut by_bytes = FxHashMap::default();
        for (id, t) in tokens.iter().enumerate() {
            assert!(
                !t.is_empty() && by_bytes.insert(t.clone(), id as u32).is_none(),
                "{name}: token {id} is empty or repeated"
            );
        }
        let byte_ids: Vec<u32> = (0..=255u8)
            .map(|b| *by_bytes.get(&[b][..]).expect("every byte is a token"))
            .collect();
        let pairs = rank_pairs::pair_ranks(
            tokens.len(),
            |id| &tokens[id as usize],
            &byte_ids,
            |bytes| by_bytes.get(bytes).copied(),
        );
        let mut pairs: Vec<(Pair, u32)> = pairs.into_iter().map(|(p, (_, id))| (p, id)).collect();
        pairs.sort_unstable();
        let by_pair: FxHashMap<Pair, u32> = pairs.iter().copied().collect();
        let byte_pairs = (0..1usize << 16).flat_map(|ab| {
            let pair = (byte_ids[ab >> 8], byte_ids[ab & 0xff]);
            match by_pair.get(&pair) {
                Some(&id) => [id, id],
                None => [u32::MAX, 0],
            }
        });
        let files = [
            ("ranks", table(&tokens)),
            (
                "token_slots",
                laid_tables::lay_out_tokens(tokens.iter().map(Vec::as_slice)),
            ),
            (
                "pair_slots",
                laid_tables::lay_out_pairs(pairs.iter().copied()),
            ),
            (
                "byte_pairs",
                byte_pairs.flat_map(u32::to_le_bytes).collect(),
            ),
        ];
        for (kind, data) in files {
            std::fs::write(Path::new(&out).join(format!("{name}.{kind}")), data)
                .unwrap_or_else(|e| panic!("{name}: cannot write its {kind}: {e}"));
        }
    }
}

fn table(tokens: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    let put = |out: &mut Vec<u8>, v: usize| {
        out.extend_from_slice(&u32::try_from(v).expect("fits in u32").to_le_bytes())
    };
    put(&mut out, tokens.len());
    let mut offset = 0;
    put(&mut out, 0);
    for t in tokens {
        offset += t.len();
        put(&mut out, offset);
    }
    for t in tokens {
        out.extend_from_slice(t);
    }
    out
}
