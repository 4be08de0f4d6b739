//! Unigram tokenizers made by the real Hugging Face `tokenizers` library
//! (Python) in the test: `UnigramTrainer` on the bundled samples with the
//! `Metaspace` pre-tokenizer (a `▁` in front always, first or never; words
//! split or not) and the normalizers NFKC and Lowercase, alone or as a
//! `Sequence`. Loaded by bpeek from the saved `tokenizer.json`, each
//! gives the ids HF's `encode` gives (without the template's special
//! tokens) on every sample, every line of every sample and random text of
//! many scripts, and decodes them to HF's text. Files with special tokens
//! beside the unknown piece are held to the library on texts holding the
//! special tokens' texts (with `--allow-special`, as the library always
//! matches them).

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use hf::texts::random_texts;
use serde_json::{Value, json};

fn models() -> Value {
    json!({
        "always": {"prepend_scheme": "always", "split": true, "vocab_size": 2000},
        "first": {"prepend_scheme": "first", "split": true, "vocab_size": 1500},
        "never": {"prepend_scheme": "never", "split": true, "vocab_size": 1500},
        "unsplit": {"prepend_scheme": "always", "split": false, "vocab_size": 1800},
        "nfkc": {"prepend_scheme": "always", "split": true, "vocab_size": 1500,
                 "normalizers": ["nfkc"]},
        "nfkc_lowercase": {"prepend_scheme": "first", "split": true, "vocab_size": 1500,
                           "normalizers": ["nfkc", "lowercase"]},
        // Special tokens beside the unknown piece: matched in the text as
        // given, and made by the lattice from their text (behind Lowercase,
        // from `<S>` too), in SentencePiece's layout and in Metaspace's
        // `first` scheme, where the text after one has no `▁` put in front.
        "specials": {"prepend_scheme": "always", "split": true, "vocab_size": 1500,
                     "specials": ["<unk>", "<s>", "</s>"]},
        "specials_lowercase": {"prepend_scheme": "always", "split": true, "vocab_size": 1500,
                               "normalizers": ["lowercase"],
                               "specials": ["<unk>", "<s>", "</s>", "<mask>"]},
        "specials_first": {"prepend_scheme": "first", "split": true, "vocab_size": 1500,
                           "normalizers": ["lowercase"],
                           "specials": ["<unk>", "<s>", "</s>"]},
        // Pipelines of other shapes, run as the file's steps: T5's (spaces
        // squeezed by a regex, words split at whitespace, then Metaspace),
        // and digits and punctuation cut apart after Metaspace.
        "t5_like": {"vocab_size": 1500, "steps": {
            "normalizer": {"type": "Sequence", "normalizers": [
                {"type": "NFKC"},
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "WhitespaceSplit"},
                {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always",
                 "split": true}]},
            "decoder": {"type": "Metaspace", "replacement": "\u{2581}",
                        "prepend_scheme": "always", "split": true}}},
        "digits_punct": {"vocab_size": 1500, "steps": {
            "normalizer": {"type": "Lowercase"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "first",
                 "split": true},
                {"type": "Digits", "individual_digits": true},
                {"type": "Punctuation", "behavior": "Isolated"}]},
            "decoder": {"type": "Metaspace", "replacement": "\u{2581}",
                        "prepend_scheme": "first", "split": true}}},
    })
}

/// Train, encode with HF, and the texts encoded.
fn with_hf(tag: &str, texts: &[String]) -> Option<(spm::TempDir, Value)> {
    let python = hf::python()?;
    let dir = spm::TempDir::new(tag);
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, text).unwrap();
    let answer = hf::run(
        &python,
        "unigram.py",
        &json!({"corpus": corpus, "dir": dir.0, "models": models(), "texts": texts}),
    );
    Some((dir, answer))
}

fn all_texts() -> Vec<String> {
    let mut texts: Vec<String> = spm::samples().into_iter().map(|(_, t)| t).collect();
    let lines: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines().map(String::from).collect::<Vec<_>>())
        .collect();
    texts.extend(lines);
    texts.extend(random_texts(400));
    texts.extend(with_special_texts(&random_texts(60)));
    texts
}

/// Texts with the special tokens' texts among them, in either case and
/// with or without spaces around.
fn with_special_texts(texts: &[String]) -> Vec<String> {
    const SPECIALS: [&str; 8] = [
        "<s>", "</s>", "<unk>", "<mask>", "<S>", "</S>", "<UNK>", "<Mask>",
    ];
    let mut rng = hf::texts::Rng(0x5eed_0041);
    texts
        .iter()
        .map(|t| {
            let mut out = String::new();
            for (k, c) in t.chars().enumerate() {
                if k % 7 == 0 && rng.below(3) == 0 {
                    let gap = [" ", "", "  "][rng.below(3)];
                    out.push_str(gap);
                    out.push_str(SPECIALS[rng.below(SPECIALS.len())]);
                    out.push_str(gap);
                }
                out.push(c);
            }
            out
        })
        .collect()
}

#[test]
fn ids_and_text_are_what_hugging_face_gives() {
    let texts = all_texts();
    let Some((_dir, answer)) = with_hf("unigram-ids", &texts) else {
        return;
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(tok.kind(), "sentencepiece unigram");
        let ids = a["ids"].as_array().unwrap();
        for (text, want) in texts.iter().zip(ids) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode(text, true);
            compared += 1;
            if got != want {
                failures.push(format!(
                    "{name}: {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                ));
            }
        }
        for (ids, want) in ids.iter().zip(a["decoded"].as_array().unwrap()) {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            let got = tok.decode(&ids).unwrap();
            if got != want.as_str().unwrap() {
                failures.push(format!("{name}: decode {ids:?}: {want} / {got:?}"));
            }
        }
    }
    assert!(compared > 1_500, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings or decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// A small Unigram file with the given normalizer and pre-tokenizer.
fn small_file(dir: &spm::TempDir, normalizer: Value, pre_tokenizer: Value) -> String {
    let doc = json!({
        "version": "1.0",
        "added_tokens": [{"id": 0, "content": "<unk>", "single_word": false, "lstrip": false,
                          "rstrip": false, "normalized": false, "special": true}],
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": null,
        "decoder": {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true},
        "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": false,
                  "vocab": [["<unk>", 0.0], ["\u{2581}", -1.0], ["a", -2.0], ["b", -2.5], ["\u{2581}ab", -1.5]]},
    });
    let path = dir.path("small.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_small_file_encodes_and_what_is_not_read_is_named() {
    let dir = spm::TempDir::new("unigram-small");
    let meta = json!({"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true});
    let tok = load(&small_file(&dir, Value::Null, meta.clone())).unwrap();
    // "▁ab" scores -1.5, better than "▁" "a" "b" (-5.5); "c" is unknown.
    assert_eq!(tok.encode("ab bac", false), vec![4, 1, 3, 2, 0]);
    assert_eq!(tok.kind(), "sentencepiece unigram");

    let seq = json!({"type": "Sequence", "pretokenizers": [meta.clone(), {"type": "Foo"}]});
    let err = load(&small_file(&dir, Value::Null, seq))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("pre_tokenizer.pretokenizers[1]: type 'Foo' is not supported"),
        "{err}"
    );
    let norm = json!({"type": "Sequence", "normalizers": [{"type": "Precompiled", "precompiled_charsmap": "@@"}]});
    let err = load(&small_file(&dir, norm, meta.clone()))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("normalizer.normalizers[0].precompiled_charsmap"),
        "{err}"
    );
    let norm = json!({"type": "Bar"});
    let err = load(&small_file(&dir, norm, meta))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("normalizer: type 'Bar' is not supported"),
        "{err}"
    );
}
