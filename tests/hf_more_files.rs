//! Hugging Face files that bpeek once refused and the library loads, made
//! by the real `tokenizers` library (Python) in the test: Unigram files
//! with added tokens the vocabulary lacks (special and not, behind
//! Lowercase too), and WordPiece files decoding through a decoder
//! `Sequence` (WordPiece then Strip, Metaspace then WordPiece, Replace then
//! Fuse) or `CTC` (with and without its cleanup), a WordPiece file cutting
//! words with `FixedLength` or with no decoder (the tokens joined by
//! spaces), byte-level files whose decoder is `ByteLevel` then Strip, or
//! Replace and Metaspace, or has steps before `ByteLevel` (Replace, Strip,
//! Fuse, a second ByteLevel; with added tokens, one of them not in the
//! byte alphabet) or has no `ByteLevel` at all (Strip, Replace then Fuse,
//! Metaspace: `Ġ` stays `Ġ`), byte-level, Unigram and WordPiece files
//! with no decoder (the tokens' texts joined by spaces) or an empty
//! decoder `Sequence` (joined as they are), and byte-level files trained without
//! `initial_alphabet` (a byte with no token is dropped and its neighbours
//! merge; on bpeek's fast path and behind NFKC, its steps). Each gives the library's
//! ids on random texts full of the added tokens' texts, and decodes the
//! library's ids and 200 random id lists (runs of one id among them, for
//! CTC) to the library's text, with special tokens left out and kept.

mod hf;
mod python;

use bpeek::bpe::formats::load::load;
use hf::texts::{Rng, random_texts};
use serde_json::json;

/// Random texts with the added tokens' texts and CTC's marks among them.
fn texts() -> Vec<String> {
    const SPRINKLE: [&str; 9] = [
        "hello world",
        "qqq",
        "<extra>",
        "<EXTRA>",
        "<s>",
        "|",
        "<pad>",
        "[PAD]",
        "Hello World",
    ];
    let mut rng = Rng(0x5eed_0042);
    let mut out = random_texts(150);
    for t in random_texts(100) {
        let mut s = String::new();
        for (k, c) in t.chars().enumerate() {
            if k % 5 == 0 && rng.below(2) == 0 {
                s.push_str([" ", ""][rng.below(2)]);
                s.push_str(SPRINKLE[rng.below(SPRINKLE.len())]);
            }
            s.push(c);
        }
        out.push(s);
    }
    out
}

/// Lists of ids as fractions of the vocabulary, with runs of one id.
fn id_lists() -> Vec<Vec<f64>> {
    let mut rng = Rng(0x5eed_0043);
    (0..200)
        .map(|_| {
            let mut l = Vec::new();
            for _ in 0..1 + rng.below(12) {
                let f = rng.below(1000) as f64 / 1000.0;
                for _ in 0..1 + rng.below(3) {
                    l.push(f);
                }
            }
            l
        })
        .collect()
}

#[test]
fn files_read_as_the_library_reads_them() {
    let Some(python) = hf::python() else {
        return;
    };
    let dir = hf::TempDir::new("hf-more-files");
    let corpus: Vec<String> = bpeek::bpe::corpora::default_corpus()
        .text
        .lines()
        .map(String::from)
        .collect();
    let texts = texts();
    let answer = hf::run(
        &python,
        "more_files.py",
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts, "id_lists": id_lists()}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (text, want) in texts.iter().zip(a["ids"].as_array().unwrap()) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode(text, true);
            compared += 1;
            if got != want {
                failures.push(format!(
                    "{name}: {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                ));
            }
        }
        for row in a["decoded"].as_array().unwrap() {
            let ids: Vec<u32> = serde_json::from_value(row[0].clone()).unwrap();
            for (skip, want) in [(true, &row[1]), (false, &row[2])] {
                let want = want.as_str().unwrap();
                // The library reads the bytes as UTF-8, U+FFFD where they
                // are not (`decode` would show such bytes as `<8A>`).
                let got = tok.decode_bytes_with(&ids, skip).unwrap();
                let got = String::from_utf8_lossy(&got).into_owned();
                compared += 1;
                if got != want {
                    failures.push(format!(
                        "{name}: decode {ids:?} skip_special_tokens={skip}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                    ));
                }
            }
        }
    }
    assert!(compared > 11_000, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
}
