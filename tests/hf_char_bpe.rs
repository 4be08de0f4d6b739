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
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
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
        // Every other normalizer and pre-tokenizer, and the affixes.
        "accents_whitespace": {"style": "custom", "vocab_size": 900,
            "normalizer": {"type": "Sequence", "normalizers": [
                {"type": "NFD"}, {"type": "StripAccents"}, {"type": "Lowercase"}]},
            "pre_tokenizer": {"type": "Whitespace"}, "decoder": null},
        "bert_prefix": {"style": "custom", "vocab_size": 1200, "prefix": "##",
            "normalizer": {"type": "BertNormalizer", "clean_text": true,
                           "handle_chinese_chars": true, "strip_accents": null,
                           "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true}},
        "punct_digits_suffix": {"style": "custom", "vocab_size": 1200, "suffix": "</w>",
            "byte_fallback": false,
            "normalizer": {"type": "StripAccents"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "WhitespaceSplit"},
                {"type": "Punctuation", "behavior": "Contiguous"},
                {"type": "Digits", "individual_digits": true}]},
            "decoder": {"type": "BPEDecoder", "suffix": "</w>"}},
        "scripts": {"style": "custom", "vocab_size": 1200,
            "normalizer": {"type": "NFKC"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "UnicodeScripts"},
                {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always",
                 "split": true}]},
            "decoder": {"type": "Metaspace", "replacement": "\u{2581}",
                        "prepend_scheme": "always", "split": true}},
        "split_regex": {"style": "custom", "vocab_size": 1000, "fuse_unk": false,
            "normalizer": {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": "\\p{N}{1,3}"}, "behavior": "Isolated",
                 "invert": false},
                {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithNext",
                 "invert": false},
                {"type": "CharDelimiterSplit", "delimiter": "-"},
                {"type": "Punctuation", "behavior": "MergedWithPrevious"}]},
            "decoder": null},
        "first_after_split": {"style": "custom", "vocab_size": 1000,
            "normalizer": {"type": "Strip", "strip_left": true, "strip_right": false},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": "\\w+|[^\\w\\s]+"},
                 "behavior": "Removed", "invert": true},
                {"type": "Punctuation", "behavior": "MergedWithNext"},
                {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "first",
                 "split": false}]},
            "decoder": {"type": "Metaspace", "replacement": "\u{2581}",
                        "prepend_scheme": "first", "split": false}},
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
    let mut unknowns = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(tok.kind(), "bpe on characters", "{name}");
        let unk = unknown_id(path);
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
            // `fertility` counts as unknown what the library's unknown
            // token stands for: its row of the text, as the command makes
            // it (special tokens as text), has as many unknown tokens as
            // the library's ids, where no special token is in the text.
            let unknown = want.iter().filter(|&&id| Some(id) == unk).count();
            let row = bpeek::bpe::fertility::measure(&tok, name, text);
            if tok.encode(text, false) != want {
                continue;
            }
            unknowns += unknown;
            if row.unknown != unknown || row.tokens != want.len() {
                failures.push(format!(
                    "{name}: {text:?}: fertility counts {} tokens, {} unknown; the library gives {}, {unknown} unknown",
                    row.tokens, row.unknown, want.len()
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
    assert!(unknowns > 100, "{unknowns}");
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings or decodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// The id of the file's unknown token, if it names one.
fn unknown_id(path: &str) -> Option<u32> {
    let file: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let unk = file["model"]["unk_token"].as_str()?;
    file["model"]["vocab"][unk].as_u64().map(|id| id as u32)
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
                d["normalizer"]["normalizers"][1]["pattern"] = json!({"Regex": "(a+)+(?=b)"});
            }),
            "normalizer.normalizers[1].pattern.Regex: the regex '(a+)+(?=b)' could take more than linear time",
        ),
        (
            "unclosed.json",
            Box::new(|d: &mut Value| {
                d["pre_tokenizer"] = json!({"type": "Split", "pattern": {"Regex": "(ab"},
                                            "behavior": "Isolated", "invert": false});
            }),
            "pre_tokenizer.pattern.Regex: the regex '(ab' does not compile",
        ),
        (
            "normalizer.json",
            Box::new(|d: &mut Value| d["normalizer"] = json!({"type": "Foo"})),
            "normalizer: type 'Foo' is not supported with BPE on characters (bpeek reads NFC",
        ),
        (
            "behavior.json",
            Box::new(|d: &mut Value| {
                d["pre_tokenizer"] = json!({"type": "Sequence", "pretokenizers": [
                    {"type": "WhitespaceSplit"},
                    {"type": "Punctuation", "behavior": "Sideways"}]});
            }),
            "pre_tokenizer.pretokenizers[1].behavior: 'Sideways' is not Removed, Isolated",
        ),
        (
            "pretok.json",
            Box::new(|d: &mut Value| {
                d["pre_tokenizer"] = json!({"type": "FixedLength", "length": 0})
            }),
            "pre_tokenizer.length: 0 is not a length above 0",
        ),
        (
            "decoder.json",
            Box::new(|d: &mut Value| d["decoder"] = json!({"type": "Spiral"})),
            "decoder: type 'Spiral' is not supported",
        ),
        (
            "prefix.json",
            Box::new(|d: &mut Value| {
                d["model"]["continuing_subword_prefix"] = json!("@@@@");
            }),
            "model.merges[0]: the right half of \"\u{2581} a\" is shorter than the continuing-subword prefix",
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
