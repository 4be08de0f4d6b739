//! Decoding a Hugging Face file as the library's `decode` does by default,
//! with added tokens of every kind: special tokens are left out (also one
//! named like a byte piece, `<0x41>`), an added token matched after
//! normalizing decodes as its normalized text (`Hello` behind Lowercase is
//! `hello`; behind a Prepend("▁") it is `▁Hello`, a space and `Hello`),
//! and a byte-level file reads an added token through its byte alphabet
//! when every character is in it (`naïve` gives a lone byte 0xEF) and as
//! its own UTF-8 when one is not (`ĠzzĀ q`). A WordPiece file behind a
//! BertNormalizer matches `Hello` in lowercased text (it was refused). Files are trained in the
//! test by `tokenizers`; the texts hold each added token, each special
//! token, and the two in every order.

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use serde_json::json;

fn texts() -> Vec<String> {
    let words = [
        "Hello", "World", "naïve", "ĠzzĀ q", "<s>", "<0x41>", "hello", "HELLO", "A", " ",
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
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (kind, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rows = a["ids"]
            .as_array()
            .unwrap()
            .iter()
            .zip(a["decoded"].as_array().unwrap());
        for ((ids, want), text) in rows.zip(&texts) {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            assert_eq!(tok.encode(text, true), ids, "{kind}: {text:?}");
            let got = tok.decode_bytes(&ids).unwrap();
            // The library gives text; bytes that are not UTF-8 read as U+FFFD.
            let got = String::from_utf8_lossy(&got);
            compared += 1;
            if got != want.as_str().unwrap() {
                failures.push(format!(
                    "{kind}: {text:?} {ids:?}\n  tokenizers {want}\n  bpeek      {got:?}"
                ));
            }
        }
    }
    assert!(compared >= 5 * texts.len(), "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
