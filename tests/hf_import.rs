//! Tokenizer.json files made by the real Hugging Face `tokenizers`
//! (Python) in the test, loaded by bpeek, encode as HF encodes them: added
//! tokens special or not with every flag, `Split` patterns in the spellings
//! HF files carry, the NFC normalizer, on the samples and random strings.

mod hf;
mod python;

use bpeek::bpe::formats::load::load;
use bpeek::bpe::pretokenize::pretok::{
    CL100K_PATTERN, GPT2_PATTERN, LLAMA3_PATTERN, O200K_PATTERN,
};
use serde_json::{Value, json};

/// Qwen2's split pattern, as its tokenizer.json writes it.
const QWEN2_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
use std::path::{Path, PathBuf};

fn added(content: &str, special: bool, flags: &[&str]) -> Value {
    json!({
        "content": content,
        "special": special,
        "single_word": flags.contains(&"single_word"),
        "lstrip": flags.contains(&"lstrip"),
        "rstrip": flags.contains(&"rstrip"),
        "normalized": flags.contains(&"normalized"),
    })
}

/// Added tokens of every kind: special and not, each flag alone, strips
/// together, normalized or matched as written.
fn every_kind_of_added_token() -> Vec<Value> {
    vec![
        added("hello world", false, &["normalized"]),
        added("<|endoftext|>", true, &[]),
        added("<pad>", true, &["lstrip", "rstrip"]),
        added("<mask>", true, &["lstrip"]),
        added("[end]", false, &["rstrip", "normalized"]),
        added("word", false, &["single_word"]),
        added("Mx", false, &[]),
        added("e\u{301}t\u{e9}", false, &["normalized"]),
    ]
}

fn texts() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut texts: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    texts.extend(
        [
            "say hello world",
            "hello <pad> world",
            "x=2000",
            "a  <mask>  b",
            "swordfish word",
        ]
        .map(String::from),
    );
    let pieces = [
        "hello world",
        " hello",
        " world",
        "<pad>",
        "  ",
        " ",
        "\n",
        "\n\n  ",
        "<mask>",
        "[end]",
        "word",
        "words",
        "_",
        "Mx",
        "mx",
        "e\u{301}t\u{e9}",
        "\u{e9}t\u{e9}",
        "e\u{301}",
        "<|endoftext|>",
        "2000",
        "123456",
        "x=",
        "'s",
        "The",
        "мир",
        "日本",
        "🙂",
        "\t",
        "\u{a0}",
        ".",
        "a",
    ];
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let len = 1 + next() % 20;
        let s: String = (0..len)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        texts.push(s);
    }
    texts
}

/// Name, Split pattern (None: ByteLevel's own), normalizer, added tokens.
type SplitCase = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Vec<Value>,
);

/// Files of one ByteLevel model with a Split pattern and a normalizer.
fn split_cases() -> Vec<SplitCase> {
    vec![
        ("bytelevel", None, None, vec![]),
        ("bytelevel-added", None, None, every_kind_of_added_token()),
        (
            "cl100k-tiktoken-spelling",
            Some(CL100K_PATTERN),
            None,
            every_kind_of_added_token(),
        ),
        (
            "llama3-nfc",
            Some(LLAMA3_PATTERN),
            Some("NFC"),
            every_kind_of_added_token(),
        ),
        (
            "o200k",
            Some(O200K_PATTERN),
            None,
            vec![added("<|endoftext|>", true, &[])],
        ),
        ("gpt2-split-nfc", Some(GPT2_PATTERN), Some("NFC"), vec![]),
        // Patterns with no fast path run as written: Qwen2's, and one whose
        // look-aheads cut cased words as o200k does (a one-character guard
        // before each letter).
        ("qwen2", Some(QWEN2_PATTERN), None, vec![]),
        (
            "letters-by-lookahead",
            Some(
                r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            ),
            None,
            vec![],
        ),
    ]
}

/// Pipelines with no fast path, run as the file's steps: Falcon's
/// (Punctuation, ByteLevel, Digits, a Split of three digits after it),
/// StarCoder's (single digits before ByteLevel), RoBERTa's space in
/// front, and normalizers other than NFC. Name, normalizer, pre-tokenizer.
fn pipeline_cases() -> [(&'static str, Value, Value); 4] {
    let byte_level = |prefix: bool, regex: bool| {
        json!({"type": "ByteLevel", "add_prefix_space": prefix, "trim_offsets": true,
               "use_regex": regex})
    };
    [
        (
            "falcon",
            Value::Null,
            json!({"type": "Sequence", "pretokenizers": [
                {"type": "Punctuation", "behavior": "Contiguous"},
                byte_level(false, true),
                {"type": "Digits", "individual_digits": false},
                {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"},
                 "behavior": "Isolated", "invert": false}]}),
        ),
        (
            "starcoder",
            Value::Null,
            json!({"type": "Sequence", "pretokenizers": [
                {"type": "Digits", "individual_digits": true}, byte_level(false, true)]}),
        ),
        ("prefix-space", Value::Null, byte_level(true, true)),
        (
            "nfkc-lowercase",
            json!({"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Lowercase"}]}),
            json!({"type": "Sequence", "pretokenizers": [
                {"type": "WhitespaceSplit"}, byte_level(true, false)]}),
        ),
    ]
}

/// Have Hugging Face train and write every case's file into `dir`, and
/// return the cases' names in order.
fn make_files(python: &str, dir: &hf::TempDir) -> Vec<&'static str> {
    let corpus = dir.file(
        "corpus.txt",
        bpeek::corpora::default_corpus().text.as_bytes(),
    );
    let cases = split_cases();
    let mut jobs: Vec<Value> = cases
        .iter()
        .map(|(name, pattern, normalizer, added)| {
            json!({
                "out": dir.0.join(format!("{name}.json")),
                "corpus": corpus,
                "vocab_size": 700,
                "pattern": pattern,
                "normalizer": normalizer,
                "added": added,
            })
        })
        .collect();
    let steps = pipeline_cases();
    for (name, normalizer, pre_tokenizer) in &steps {
        jobs.push(json!({
            "out": dir.0.join(format!("{name}.json")),
            "corpus": corpus,
            "vocab_size": 700,
            "pattern": null,
            "normalizer": null,
            "added": every_kind_of_added_token(),
            "steps": {"normalizer": normalizer, "pre_tokenizer": pre_tokenizer},
        }));
    }
    hf::run(python, "make_files.py", &Value::Array(jobs));
    cases
        .iter()
        .map(|c| c.0)
        .chain(steps.iter().map(|s| s.0))
        .collect()
}

/// bpeek encodes `text` with the file `name` as Hugging Face did
/// (`hf_ids`), and shows its tokens in order inside the text.
fn assert_encodes_as_hf(name: &str, tok: &bpeek::bpe::Tokenizer, text: &str, hf_ids: &[u32]) {
    // HF always matches special tokens in the text: bpeek does with
    // --allow-special.
    assert_eq!(tok.encode(text, true), hf_ids, "{name}: {text:?}");
    // What the explorer and the fertility view show: the ids of
    // encoding (special tokens as text), each over its place, in
    // order, inside the text, even where the steps put a space in
    // front or change the text.
    let shown = bpeek::bpe::fertility::token_spans(tok, text);
    let plain = tok.encode(text, false);
    assert_eq!(
        shown.iter().map(|s| s.0).collect::<Vec<_>>(),
        plain,
        "{name}: {text:?}"
    );
    let mut start = 0;
    for (_, r) in &shown {
        assert!(
            r.start >= start && r.start <= r.end && r.end <= text.len(),
            "{name}: {text:?}: {shown:?}"
        );
        start = r.start;
    }
}

#[test]
fn files_hugging_face_writes_encode_in_bpeek_as_in_hugging_face() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-import");
    let names = make_files(&python, &dir);
    let texts = texts();
    let encode_jobs: Vec<Value> = names
        .iter()
        .map(|name| json!({"tokenizer": dir.0.join(format!("{name}.json")), "texts": texts}))
        .collect();
    let answers = hf::run(&python, "encode.py", &Value::Array(encode_jobs));
    for (name, answer) in names.iter().zip(answers.as_array().unwrap()) {
        let path = dir.0.join(format!("{name}.json"));
        let tok = load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs: Vec<Vec<u32>> = serde_json::from_value(answer["ids"].clone()).unwrap();
        for (text, hf_ids) in texts.iter().zip(&theirs) {
            assert_encodes_as_hf(name, &tok, text, hf_ids);
        }
    }
}

#[test]
fn special_tokens_stay_literal_text_unless_allowed_and_added_ones_always_match() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-import-special");
    let corpus = dir.file(
        "corpus.txt",
        bpeek::corpora::default_corpus().text.as_bytes(),
    );
    let out = dir.0.join("tok.json");
    let job = json!([{
        "out": out, "corpus": corpus, "vocab_size": 400, "pattern": null, "normalizer": null,
        "added": [added("<|endoftext|>", true, &[]), added("hello world", false, &["normalized"])],
    }]);
    hf::run(&python, "make_files.py", &job);
    let tok = load(out.to_str().unwrap()).unwrap();
    let eot = tok.encode("<|endoftext|>", true);
    assert_eq!(eot.len(), 1);
    assert!(tok.encode("<|endoftext|>", false).len() > 1);
    let hello = tok.encode("hello world", false);
    assert_eq!(
        hello.len(),
        1,
        "a non-special added token matches without --allow-special"
    );
    assert_eq!(tok.decode(&hello).unwrap(), "hello world");
}

/// Thousands of added tokens that share prefixes and overlap (`ab`, `abc`,
/// `bcd`, ...), with random flags, matched at once by bpeek's automaton:
/// the ids equal HF's on random text made of the same letters.
#[test]
fn thousands_of_overlapping_added_tokens_encode_as_in_hugging_face() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-import-many-added");
    let corpus = dir.file(
        "corpus.txt",
        bpeek::corpora::default_corpus().text.as_bytes(),
    );
    let mut x = 99u64;
    let mut next = move |n: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % n
    };
    // Letters the corpus hardly has, so no added token is a trained one.
    let letters = ['X', 'Q', 'Z', 'J', ' ', 'É'];
    let mut seen = std::collections::HashSet::new();
    let mut tokens = Vec::new();
    while tokens.len() < 3_000 {
        let len = 2 + next(4) as usize;
        let text: String = (0..len).map(|_| letters[next(6) as usize]).collect();
        if text.trim().is_empty() || !seen.insert(text.clone()) {
            continue;
        }
        let flags: Vec<&str> = ["single_word", "lstrip", "rstrip", "normalized"]
            .into_iter()
            .filter(|_| next(4) == 0)
            .collect();
        tokens.push(added(&text, next(3) == 0, &flags));
    }
    let out = dir.0.join("many.json");
    let job = json!([{
        "out": out, "corpus": corpus, "vocab_size": 400, "pattern": null, "normalizer": null,
        "added": tokens,
    }]);
    hf::run(&python, "make_files.py", &job);
    let texts: Vec<String> = (0..200)
        .map(|_| {
            let len = next(60) as usize;
            (0..len).map(|_| letters[next(6) as usize]).collect()
        })
        .collect();
    let answers = hf::run(
        &python,
        "encode.py",
        &json!([{"tokenizer": out, "texts": texts}]),
    );
    let theirs: Vec<Vec<u32>> = serde_json::from_value(answers[0]["ids"].clone()).unwrap();
    let tok = load(out.to_str().unwrap()).unwrap();
    for (text, hf_ids) in texts.iter().zip(&theirs) {
        assert_eq!(&tok.encode(text, true), hf_ids, "{text:?}");
    }
}
