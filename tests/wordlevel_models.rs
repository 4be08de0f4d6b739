//! WordLevel tokenizers made by the real Hugging Face `tokenizers` library
//! (Python) in the test: `WordLevelTrainer` on the bundled samples with
//! the pre-tokenizers Whitespace, WhitespaceSplit and BertPreTokenizer,
//! with and without a BertNormalizer, and WordLevel and WordPiece models
//! behind other normalizers and Sequences of pre-tokenizers (Digits,
//! Punctuation, UnicodeScripts, Split, CharDelimiterSplit, Metaspace,
//! StripAccents, NFKD, Replace). Loaded by bpeek from the saved
//! `tokenizer.json`, each gives the ids HF's `encode` gives on every
//! sample, every line of every sample and random text of many scripts
//! (every word not in the vocabulary one `<unk>`), and decodes them to
//! HF's text (tokens joined by spaces, special tokens left out).

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use hf::texts::random_texts;
use serde_json::json;

#[test]
fn ids_and_text_are_what_hugging_face_gives() {
    let mut texts: Vec<String> = spm::samples().into_iter().map(|(_, t)| t).collect();
    let lines: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines().map(String::from).collect::<Vec<_>>())
        .collect();
    texts.extend(lines);
    texts.extend(random_texts(300));
    texts.push("[CLS] the <unk> [CLS]x".into());
    let Some(python) = hf::python() else { return };
    let dir = spm::TempDir::new("hf-wordlevel");
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, text).unwrap();
    let models = json!({
        "whitespace": {"pre_tokenizer": "Whitespace", "vocab_size": 600},
        "split": {"pre_tokenizer": "WhitespaceSplit", "vocab_size": 900},
        "bert_uncased": {"pre_tokenizer": "BertPreTokenizer", "lowercase": true, "vocab_size": 700},
        "bert_cased": {"pre_tokenizer": "BertPreTokenizer", "lowercase": false, "vocab_size": 700},
        "digits_scripts": {"vocab_size": 800, "steps": {
            "normalizer": {"type": "Sequence", "normalizers": [
                {"type": "NFKD"}, {"type": "StripAccents"}, {"type": "Lowercase"}]},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "WhitespaceSplit"}, {"type": "UnicodeScripts"},
                {"type": "Digits", "individual_digits": false},
                {"type": "Punctuation", "behavior": "Isolated"}]}}},
        "wordpiece_metaspace": {"vocab_size": 1200, "wordpiece": true, "steps": {
            "normalizer": {"type": "Replace", "pattern": {"Regex": "[0-9]"}, "content": "0"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "CharDelimiterSplit", "delimiter": ","},
                {"type": "Split", "pattern": {"String": "."}, "behavior": "MergedWithPrevious",
                 "invert": false},
                {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "first",
                 "split": true}]}}},
    });
    let answer = hf::run(
        &python,
        "wordlevel.py",
        &json!({"corpus": corpus, "dir": dir.0, "models": models, "texts": texts}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let kind = if name.starts_with("wordpiece") {
            "wordpiece"
        } else {
            "wordlevel"
        };
        assert_eq!(tok.kind(), kind, "{name}");
        for (text, want) in texts.iter().zip(a["ids"].as_array().unwrap()) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            compared += 1;
            let got = tok.encode(text, true);
            if got != want {
                failures.push(format!(
                    "{name}: {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                ));
            }
        }
        let ids = a["ids"].as_array().unwrap();
        for (ids, want) in ids.iter().zip(a["decoded"].as_array().unwrap()) {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            let got = tok.decode(&ids).unwrap();
            if got != want.as_str().unwrap() {
                failures.push(format!("{name}: decode {ids:?}: {want} / {got:?}"));
            }
        }
    }
    assert!(compared > 1_000, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings or decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
