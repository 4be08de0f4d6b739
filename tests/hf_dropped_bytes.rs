//! Byte-level files without a token for every byte (trained by
//! `tokenizers`' BpeTrainer without `initial_alphabet`, with no normalizer,
//! behind NFKC and behind Lowercase) drop the bytes that have none; the
//! bytes `fertility` says were dropped are, for every text, the bytes of
//! the normalized text less the bytes of the tokens the library gives,
//! and a file with every byte drops none.

mod hf;
mod python;

use bpeek::bpe::fertility;
use bpeek::bpe::formats::load::load;
use hf::texts::random_texts;
use serde_json::json;

#[test]
fn dropped_bytes_are_those_the_library_drops() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-dropped-bytes");
    // A corpus of few characters, so that most texts have bytes it lacks.
    let corpus = vec!["the cat sat on the mat, and the dog ate the hat."; 30];
    let mut texts = random_texts(150);
    texts.extend(["the cat", "the zebra", "ＴＨＥ ﬁt Cat", ""].map(String::from));
    let answer = hf::run(
        &python,
        "dropped_bytes.py",
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts}),
    );
    let mut failures = Vec::new();
    let mut some_dropped = 0;
    for (name, a) in answer.as_object().unwrap() {
        let tok = load(a["json"].as_str().unwrap()).unwrap();
        assert!(tok.drops_bytes(), "{name}");
        for (text, want) in texts.iter().zip(a["dropped"].as_array().unwrap()) {
            let want = want.as_u64().unwrap() as usize;
            let row = fertility::measure(&tok, "text", text);
            some_dropped += usize::from(want > 0);
            if row.dropped != want {
                failures.push(format!(
                    "{name}: {text:?}\n  tokenizers {want}\n  bpeek      {}",
                    row.dropped
                ));
            }
        }
    }
    assert_eq!(answer.as_object().unwrap().len(), 3);
    assert!(some_dropped > texts.len(), "{some_dropped}");
    assert!(
        failures.is_empty(),
        "{} differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
    // Every byte has a token: nothing is dropped.
    let gpt2 = load("gpt2").unwrap();
    for text in &texts {
        assert_eq!(fertility::measure(&gpt2, "text", text).dropped, 0);
    }
}
