//! Precomputes the built-in tokenizers (GPT-2, cl100k, o200k) from the rank
//! data the `tiktoken-rs` crate ships: each token's bytes, and the pair of
//! tokens that makes each one, derived by the same code bpeek uses for rank
//! files it reads (`src/models/rank_pairs.rs`). Loading then only copies tables
//! instead of decoding base64 and replaying every token's merges.
//!
//! The table written for each is, in little-endian u32s: the token count
//! `n`; `n + 1` offsets into the bytes that follow; the bytes; the pair
//! count; then `left, right, made` for each pair.

use rustc_hash::FxHashMap;
use std::path::Path;

// The names the engine's root gives, so the shared files compile here.
type TokenId = u32;
type Pair = (TokenId, TokenId);

#[path = "src/merge.rs"]
#[allow(dead_code)]
mod merge;
#[path = "src/models/rank_pairs.rs"]
mod rank_pairs;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/merge.rs");
    println!("cargo::rerun-if-changed=src/models/rank_pairs.rs");
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
        std::fs::write(
            Path::new(&out).join(format!("{name}.ranks")),
            table(&tokens, &pairs),
        )
        .unwrap_or_else(|e| panic!("{name}: cannot write its table: {e}"));
    }
}

fn table(tokens: &[Vec<u8>], pairs: &[(Pair, u32)]) -> Vec<u8> {
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
    put(&mut out, pairs.len());
    for &((a, b), id) in pairs {
        for v in [a, b, id] {
            put(&mut out, v as usize);
        }
    }
    out
}
