//! Loading a large tokenizer file: 120,000 merges as bpeek JSON against the
//! same tokens as a `.tiktoken` rank file. The JSON load must not grow
//! faster than the file (every merge is checked against the earlier ones).
//!
//! Then a Hugging Face file with 20,000 and 200,000 added tokens: the
//! time to load it, and to encode 120 KB of text that holds some of them
//! (each added token used to cost a scan of the list at load and at each
//! position of the text).
//!
//! Then the largest of llama.cpp's test vocabularies (command-r, 256k
//! tokens; gemma-4, 262k tokens and 515k merges), where `.ci/run` has
//! unpacked them: the time to read the `.gguf` file and build the
//! tokenizer, its tables dropped outside the timing.
//!
//! `cargo bench --bench load` prints the times and ratios; nothing is
//! asserted.

use base64::Engine;
use bpeek::bpe::TokenId;
use bpeek::bpe::formats::{builtin, load};
use rustc_hash::FxHashMap;
use serde_json::json;
use std::time::{Duration, Instant};

const MERGES: usize = 120_000;

fn main() {
    let o200k = builtin::load("o200k").expect("o200k loads");
    // o200k's tokens in rank order, renumbered bpeek's way: bytes first
    // (id = byte value), then each merged token after its two halves.
    let mut id_of: FxHashMap<TokenId, TokenId> = FxHashMap::default();
    for id in 0..o200k.vocab().len() as TokenId {
        let bytes = o200k.vocab().token_bytes(id);
        if bytes.len() == 1 {
            id_of.insert(id, bytes[0] as TokenId);
        }
    }
    let mut merges = Vec::new();
    let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    for id in 0..o200k.vocab().len() as TokenId {
        if merges.len() == MERGES {
            break;
        }
        let Some(m) = o200k.made_by(id) else { continue };
        let (Some(&l), Some(&r)) = (id_of.get(&m.left), id_of.get(&m.right)) else {
            continue;
        };
        let new = 256 + merges.len() as TokenId;
        id_of.insert(id, new);
        merges.push(json!({"pair": [l, r]}));
        tokens.push(o200k.vocab().token_bytes(id).to_vec());
    }
    let dir = std::env::temp_dir().join(format!("bpeek-bench-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json_path = dir.join("o200k-120k.json");
    let doc = json!({"format": "bpeek-tokenizer", "version": 1, "mode": "byte",
        "pretok": "o200k", "tie": "first", "merges": merges});
    std::fs::write(&json_path, doc.to_string()).unwrap();
    let rank_path = dir.join("o200k-120k.tiktoken");
    let ranks: String = tokens
        .iter()
        .enumerate()
        .map(|(r, t)| {
            format!(
                "{} {r}\n",
                base64::engine::general_purpose::STANDARD.encode(t)
            )
        })
        .collect();
    std::fs::write(&rank_path, ranks).unwrap();

    let json_spec = json_path.to_string_lossy().into_owned();
    let rank_spec = format!("{}:o200k", rank_path.display());
    let a = load::load(&json_spec).expect("the JSON file loads");
    let b = load::load(&rank_spec).expect("the rank file loads");
    let text = "Loading is checked: the two files encode alike, 12345 times.";
    assert_eq!(a.encode(text, false), b.encode(text, false));

    let json_time = median(|| {
        load::load(&json_spec).unwrap();
    });
    let rank_time = median(|| {
        load::load(&rank_spec).unwrap();
    });
    println!("{} merges", merges.len());
    println!("bpeek JSON: {:.1} ms", json_time.as_secs_f64() * 1e3);
    println!(".tiktoken:  {:.1} ms", rank_time.as_secs_f64() * 1e3);
    let ratio = json_time.as_secs_f64() / rank_time.as_secs_f64();
    println!(
        "JSON / tiktoken: {ratio:.2}x ({} the 1.5x target)",
        if ratio < 1.5 { "under" } else { "over" }
    );
    added_tokens(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    gguf_vocabularies();
}

/// Load the largest GGUF test vocabularies, best of five.
fn gguf_vocabularies() {
    let root = std::env::var_os("BPEEK_TEST_DATA")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|h| std::path::Path::new(&h).join(".cache/bpeek-test-data"))
        });
    let models = root.and_then(|root| {
        let mut dirs: Vec<_> = std::fs::read_dir(root)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("vendor/llama.cpp/models")))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        dirs.pop()
    });
    let Some(models) = models else {
        println!("GGUF vocabularies: not unpacked (.ci/run downloads them); skipped");
        return;
    };
    println!("GGUF vocabularies, load (best of 5):");
    for name in ["command-r", "gemma-4"] {
        let spec = models
            .join(format!("ggml-vocab-{name}.gguf"))
            .to_string_lossy()
            .into_owned();
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let tok = load::load(&spec);
            best = best.min(t.elapsed());
            match tok {
                Ok(tok) => drop(tok),
                Err(e) => {
                    println!("  {name}: {e}");
                    break;
                }
            }
        }
        println!("  {name}: {:.0} ms", best.as_secs_f64() * 1e3);
    }
}

/// Load and encode with many added tokens.
fn added_tokens(dir: &std::path::Path) {
    let corpus = bpeek::corpora::default_corpus().text.as_bytes().to_vec();
    let config = bpeek::bpe::TrainerConfig {
        max_merges: Some(50),
        ..Default::default()
    };
    let mut trainer = bpeek::bpe::Trainer::new(corpus, config).unwrap();
    while trainer.step().is_ok() {}
    let base = bpeek::bpe::formats::hf_export::to_json(&trainer.tokenizer()).unwrap();
    let first_id = base["model"]["vocab"].as_object().unwrap().len();
    let text: String = "the bakery sells bread <tok17> and <tok19999> cakes "
        .repeat(3000)
        .chars()
        .take(120_000)
        .collect();
    println!("added tokens (HF file), load / encode 120 KB:");
    for n in [20_000, 200_000] {
        let mut doc = base.clone();
        doc["added_tokens"] = (0..n)
            .map(|i| {
                json!({"id": first_id + i, "content": format!("<tok{i}>"), "single_word": false,
                       "lstrip": false, "rstrip": false, "normalized": i % 2 == 0, "special": i % 3 == 0})
            })
            .collect();
        let path = dir.join(format!("added-{n}.json"));
        std::fs::write(&path, doc.to_string()).unwrap();
        let spec = path.to_string_lossy().into_owned();
        let tok = load::load(&spec).unwrap();
        let load_time = median(|| {
            load::load(&spec).unwrap();
        });
        let encode_time = median(|| {
            tok.encode(&text, true);
        });
        println!(
            "  {n:>7} added: load {:.0} ms, encode {:.1} ms",
            load_time.as_secs_f64() * 1e3,
            encode_time.as_secs_f64() * 1e3
        );
    }
}

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}
