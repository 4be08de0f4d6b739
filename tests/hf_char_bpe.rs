//! Hugging Face BPE tokenizers on characters, made by the real library
//! (Python `tokenizers`) in the test, as Llama 2 and Mistral ship theirs:
//! Llama 2's normalizer (Prepend `▁`, Replace ` ` by `▁`) with no
//! pre-tokenizer and its decoder chain (Replace, ByteFallback, Fuse,
//! Strip), and Metaspace files (prepend scheme first or always, words
//! split or not); byte fallback on and off, unknown characters fused or
//! not, NFKC, Lowercase and Strip before, `ignore_merges`. Loaded by bpeek from
//! the saved `tokenizer.json`, each gives the ids HF's `encode` gives on
//! every sample, every line of every sample and random text of many
//! scripts, and decodes them to HF's text.

mod hf;
mod spm;

use bpeek::bpe::io::load::load;
use hf::texts::random_texts;
use serde_json::{Value, json};

fn models() -> Value {
    json!({
        "llama2": {"style": "legacy", "vocab_size": 1200},
        "llama2_no_fallback": {"style": "legacy", "vocab_size": 900, "byte_fallback": false},
        "llama2_unfused": {"style": "legacy", "vocab_size": 900, "byte_fallback": false,
                           "fuse_unk": false},
        "llama2_nfkc_lower": {"style": "legacy", "vocab_size": 1000,
                              "normalizers": ["nfkc", "lowercase"]},
        "metaspace_first": {"style": "metaspace", "prepend_scheme": "first", "split": false,
                            "vocab_size": 1200},
        "metaspace_split": {"style": "metaspace", "prepend_scheme": "always", "split": true,
                            "vocab_size": 1500, "ignore_merges": true},
        "metaspace_never": {"style": "metaspace", "prepend_scheme": "never", "split": true,
                            "vocab_size": 1000},
        "strip": {"style": "metaspace", "prepend_scheme": "always", "split": true,
                  "vocab_size": 1000, "normalizers": ["strip", "nfkc"]},
    })
}

fn all_texts() -> Vec<String> {
    let mut texts: Vec<String> = spm::samples().into_iter().map(|(_, t)| t).collect();
    let lines: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines().map(String::from).collect::<Vec<_>>())
        .collect();
    texts.extend(lines);
    texts.extend(random_texts(400));
    // Special tokens in the text: the text around them is normalized and
    // cut as pieces of its own.
    texts.extend(
        [
            "<s>hello</s> world",
            "a <s> b",
            "<s>",
            " </s>  x<unk>y",
            "<s> <s>",
        ]
        .map(String::from),
    );
    texts
}

#[test]
fn ids_and_text_are_what_hugging_face_gives() {
    let texts = all_texts();
    let Some(python) = hf::python() else { return };
    let dir = spm::TempDir::new("hf-char-bpe");
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, text).unwrap();
    let answer = hf::run(
        &python,
        "char_bpe.py",
        &json!({"corpus": corpus, "dir": dir.0, "models": models(), "texts": texts}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(tok.kind(), "bpe on characters", "{name}");
        let ids = a["ids"].as_array().unwrap();
        for (text, want) in texts.iter().zip(ids) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode(text, true);
            compared += 1;
            // What the explorer and the fertility view show: the ids of
            // encoding (special tokens as text), each over its place.
            let shown = bpeek::bpe::fertility::token_spans(&tok, text);
            let plain = tok.encode(text, false);
            assert_eq!(
                shown.iter().map(|s| s.0).collect::<Vec<_>>(),
                plain,
                "{name}: {text:?}"
            );
            let mut start = 0;
            for (_, r) in &shown {
                assert!(
                    r.start >= start && r.start <= r.end,
                    "{name}: {text:?}: {shown:?}"
                );
                assert!(r.end <= text.len(), "{name}: {text:?}: {shown:?}");
                start = r.start;
            }
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
    assert!(compared > 2_000, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings or decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// A small file written by hand, with what each part does known.
fn small(dir: &spm::TempDir, name: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut doc = json!({
        "version": "1.0",
        "added_tokens": [{"id": 0, "content": "<unk>", "single_word": false, "lstrip": false,
                          "rstrip": false, "normalized": false, "special": true}],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "\u{2581}"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u{2581}"}]},
        "pre_tokenizer": null,
        "post_processor": null,
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u{2581}"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>",
                  "continuing_subword_prefix": null, "end_of_word_suffix": null,
                  "fuse_unk": true, "byte_fallback": true, "ignore_merges": false,
                  "vocab": {"<unk>": 0, "\u{2581}": 1, "a": 2, "b": 3, "\u{2581}a": 4, "ab": 5,
                            "\u{2581}ab": 6, "<0xC3>": 7, "<0xA9>": 8},
                  "merges": ["\u{2581} a", "a b", "\u{2581}a b"]},
    });
    change(&mut doc);
    let path = dir.path(name);
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_small_file_encodes_as_its_merges_say() {
    let dir = spm::TempDir::new("hf-char-bpe-small");
    let tok = load(&small(&dir, "small.json", |_| {})).unwrap();
    // "▁ab▁ab": ▁+a first (rank 0), then ▁a+b (rank 2).
    assert_eq!(tok.encode("ab ab", true), vec![6, 6]);
    // é has no token: its two bytes; x has neither: <unk>, and xx fused.
    assert_eq!(tok.encode("é", true), vec![1, 7, 8]);
    assert_eq!(tok.encode("axxb", true), vec![4, 0, 3]);
    assert_eq!(tok.decode(&[6, 6, 1, 7, 8]).unwrap(), "ab ab é");
    assert_eq!(tok.kind_detail(), "bpe on characters, byte fallback");
}

#[test]
fn what_cannot_be_read_is_refused_by_field() {
    let dir = spm::TempDir::new("hf-char-bpe-refused");
    type Change = Box<dyn FnOnce(&mut Value)>;
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "regex.json",
            Box::new(|d: &mut Value| {
                d["normalizer"]["normalizers"][1]["pattern"] = json!({"Regex": " +"});
            }),
            "normalizer.normalizers[1].pattern: only a String pattern",
        ),
        (
            "accents.json",
            Box::new(|d: &mut Value| d["normalizer"] = json!({"type": "StripAccents"})),
            "normalizer: type 'StripAccents' is not supported with BPE on characters",
        ),
        (
            "suffix.json",
            Box::new(|d: &mut Value| d["model"]["end_of_word_suffix"] = json!("</w>")),
            "model.end_of_word_suffix '</w>' is not supported",
        ),
        (
            "pretok.json",
            Box::new(|d: &mut Value| d["pre_tokenizer"] = json!({"type": "Whitespace"})),
            "pre_tokenizer: type 'Whitespace' is not supported",
        ),
        (
            "unk.json",
            Box::new(|d: &mut Value| d["model"]["unk_token"] = json!("<nope>")),
            "model.unk_token '<nope>' is not in model.vocab",
        ),
        (
            "merge.json",
            Box::new(|d: &mut Value| d["model"]["merges"][1] = json!("a z")),
            "model.merges[1]: a half of \"a z\" is not a token",
        ),
    ];
    for (name, change, says) in cases {
        let path = small(&dir, name, change);
        let err = load(&path)
            .err()
            .unwrap_or_else(|| panic!("{name} loaded"))
            .to_string();
        assert!(err.contains(says), "{name}: {err}");
    }
}
