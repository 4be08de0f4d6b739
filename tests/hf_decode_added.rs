//! Decoding a Hugging Face file as the library's `decode` does, with
//! special tokens left out (its default) and kept (`skip_special_tokens=
//! False`, `decode --keep-special`), with added tokens of every kind:
//! special tokens (also one named like a byte piece, `<0x41>`, and one
//! matched normalized, `[Mask]`, which behind Lowercase decodes as
//! `[mask]`, no special token's text, and so is not left out), an added
//! token matched after normalizing decodes as its normalized text (`Hello`
//! behind Lowercase is `hello`; behind a Prepend("▁") it is `▁Hello`, a
//! space and `Hello`), and a byte-level file reads an added token through
//! its byte alphabet when every character is in it (`naïve` gives a lone
//! byte 0xEF) and as its own UTF-8 when one is not (`ĠzzĀ q`). A WordPiece
//! file behind a BertNormalizer matches `Hello` in lowercased text (it was
//! refused). Files of every model (byte-level BPE with a ByteLevel decoder,
//! none and a decoder Sequence; BPE on characters with byte fallback; BPE
//! with `</w>`; WordPiece; WordLevel; Unigram) are trained in the test by
//! `tokenizers`; the texts hold each added token, each special token, and
//! the two in every order, and 200 random id lists decode too.

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use hf::texts::Rng;
use serde_json::{Value, json};

fn texts() -> Vec<String> {
    let words = [
        "Hello", "World", "naïve", "ĠzzĀ q", "<s>", "<0x41>", "hello", "HELLO", "A", " ", "[Mask]",
        "[mask]",
    ];
    let mut texts: Vec<String> = words.iter().map(|w| format!("x {w} y")).collect();
    for a in words {
        for b in words {
            texts.push(format!("{a}{b}"));
            texts.push(format!("say {a} and {b}."));
        }
    }
    texts
}

/// Lists of ids as fractions of the vocabulary: the special tokens are
/// among the first and last ids, so short lists of them come often.
fn id_lists() -> Vec<Vec<f64>> {
    let mut rng = Rng(0x5eed_0044);
    (0..200)
        .map(|_| {
            (0..1 + rng.below(10))
                .map(|_| match rng.below(4) {
                    0 => rng.below(8) as f64 / 1000.0,
                    1 => 1.0 - rng.below(8) as f64 / 1000.0,
                    _ => rng.below(1000) as f64 / 1000.0,
                })
                .collect()
        })
        .collect()
}

/// The decoding of `ids`, special tokens left out (`skip`) or kept, as
/// the library gives text: bytes that are not UTF-8 read as U+FFFD.
fn decoded(tok: &bpeek::bpe::Tokenizer, ids: &[u32], skip: bool) -> String {
    String::from_utf8_lossy(&tok.decode_bytes_with(ids, skip).unwrap()).into_owned()
}

#[test]
fn decoding_is_what_the_library_gives_for_every_added_token() {
    let Some(python) = hf::python() else { return };
    let dir = spm::TempDir::new("hf-decode-added");
    let corpus = vec![
        "hi there hello world, the quick brown fox jumps over the lazy dog. ABBA Hello World naive";
        40
    ];
    let texts = texts();
    let answer = hf::run(
        &python,
        "decode_added.py",
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts, "id_lists": id_lists()}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut kept_differs = 0;
    for (kind, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut check = |ids: &[u32], want: &Value, skip: bool, what: &str| {
            if want.is_null() {
                // The library panics (its Strip on an empty token).
                return;
            }
            let got = decoded(&tok, ids, skip);
            compared += 1;
            if got != want.as_str().unwrap() {
                failures.push(format!(
                    "{kind}: {what} {ids:?} skip_special_tokens={skip}\n  tokenizers {want}\n  bpeek      {got:?}"
                ));
            }
        };
        let rows = a["ids"]
            .as_array()
            .unwrap()
            .iter()
            .zip(a["decoded"].as_array().unwrap())
            .zip(a["kept"].as_array().unwrap());
        for (((ids, want), want_kept), text) in rows.zip(&texts) {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            assert_eq!(tok.encode(text, true), ids, "{kind}: {text:?}");
            check(&ids, want, true, &format!("{text:?}"));
            check(&ids, want_kept, false, &format!("{text:?}"));
            kept_differs += usize::from(want != want_kept);
        }
        for row in a["random"].as_array().unwrap() {
            let ids: Vec<u32> = serde_json::from_value(row[0].clone()).unwrap();
            check(&ids, &row[1], true, "random");
            check(&ids, &row[2], false, "random");
        }
    }
    assert_eq!(answer.as_object().unwrap().len(), 9);
    // All but the few the library panics on.
    assert!(compared > 17 * (texts.len() + 200), "{compared}");
    // Keeping special tokens must change many decodings, or the texts
    // hold too few special tokens to test it.
    assert!(kept_differs > texts.len(), "{kept_differs}");
    assert!(
        failures.is_empty(),
        "{} of {compared} decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
}
