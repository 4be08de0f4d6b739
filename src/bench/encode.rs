//! Encoding throughput of bpeek's encoder against `tiktoken-rs`, on the same
//! text in the same run. Printed, never asserted.

use crate::bench::figures::{push, put, round};
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::builtin;
use serde_json::json;
use std::time::Instant;

/// Time `f` over `rounds` runs and return the best MB/s.
fn best_mb_per_s(bytes: usize, rounds: usize, mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut tokens = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        tokens = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (bytes as f64 / 1e6 / best, tokens)
}

pub fn run(text: &str, rounds: usize) -> Result<()> {
    put(&["encode_rounds"], rounds);
    crate::say!(
        "encode throughput on {:.1} MB of text, best of {rounds} runs (same text, same process)",
        text.len() as f64 / 1e6
    );
    crate::say!(
        "{:<8} {:>12} {:>14} {:>8}  {:>10}",
        "name",
        "bpeek MB/s",
        "tiktoken MB/s",
        "ratio",
        "load (s)"
    );
    for name in ["gpt2", "cl100k", "o200k"] {
        let t = Instant::now();
        let ours = builtin::load(name)?;
        let load = t.elapsed().as_secs_f64();
        let reference = match name {
            "gpt2" => tiktoken_rs::r50k_base(),
            "cl100k" => tiktoken_rs::cl100k_base(),
            _ => tiktoken_rs::o200k_base(),
        }
        .map_err(|e| Error::failure(format!("tiktoken-rs {name}: {e}")))?;
        let (ours_speed, ours_tokens) =
            best_mb_per_s(text.len(), rounds, || ours.encode(text, false).len());
        let (ref_speed, ref_tokens) =
            best_mb_per_s(text.len(), rounds, || reference.encode_ordinary(text).len());
        let same = if ours_tokens == ref_tokens {
            ""
        } else {
            "  (token counts differ!)"
        };
        push(
            &["encode"],
            json!({
                "tokenizer": name,
                "bpeek_mb_per_s": round(ours_speed, 2),
                "tiktoken_mb_per_s": round(ref_speed, 2),
                "ratio": round(ours_speed / ref_speed, 3),
                "load_s": round(load, 3),
                "bpeek_tokens": ours_tokens,
                "tiktoken_tokens": ref_tokens,
            }),
        );
        crate::say!(
            "{name:<8} {ours_speed:>12.2} {ref_speed:>14.2} {:>7.2}x  {load:>10.3}{same}",
            ours_speed / ref_speed
        );
    }
    Ok(())
}
