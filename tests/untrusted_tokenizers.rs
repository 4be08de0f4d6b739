//! Tokenizer files are untrusted input: a small file cannot make bpeek take
//! all memory, ids that clash are errors naming the token and the id, and
//! parts of a file that would change the ids are refused, never ignored.

mod scratch;

use bpeek::bpe::formats::{byte_unicode, import, load, tokenizer_file};
use serde_json::{Value, json};

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-untrusted-{}-{name}", std::process::id()))
}

/// A byte-mode bpeek tokenizer with these merges.
fn bpeek_file(merges: &[[u64; 2]]) -> String {
    let merges: Vec<Value> = merges.iter().map(|p| json!({"pair": p})).collect();
    json!({"format": "bpeek-tokenizer", "version": 1, "mode": "byte", "pretok": "gpt2",
           "tie": "first", "merges": merges})
    .to_string()
}

fn load_error(text: &str) -> String {
    match tokenizer_file::from_json_str(text) {
        Ok(_) => panic!("the file loaded"),
        Err(e) => e.to_string(),
    }
}

/// The 256 byte tokens in GPT-2's printable form, with their byte values as ids.
fn byte_vocab() -> serde_json::Map<String, Value> {
    (0..=255u8)
        .map(|b| (byte_unicode::byte_chars()[b as usize].to_string(), json!(b)))
        .collect()
}

/// A Hugging Face byte-level BPE document with one merge (`a b` -> 256).
fn hugging_face(vocab: serde_json::Map<String, Value>, added: Value) -> Value {
    let mut vocab = vocab;
    vocab.insert("ab".into(), json!(256));
    json!({
        "version": "1.0",
        "added_tokens": added,
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
        "model": {"type": "BPE", "vocab": vocab, "merges": ["a b"]},
    })
}

fn hf_error(doc: &Value) -> String {
    match import::hugging_face("t.json", doc) {
        Ok(_) => panic!("the file loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_token_doubled_forty_times_is_refused_by_its_size() {
    // [97,97], [256,256], [257,257], ...: merge k makes a token of 2^(k+1) bytes.
    let mut merges = vec![[97, 97]];
    for k in 0..40 {
        merges.push([256 + k, 256 + k]);
    }
    let file = bpeek_file(&merges);
    assert!(file.len() < 2_000);
    let err = load_error(&file);
    assert!(
        err.contains("merges[16]")
            && err.contains("131072 bytes")
            && err.contains("65536 bytes per token"),
        "{err}"
    );
    // Up to the limit it loads and round-trips.
    let tok = tokenizer_file::from_json_str(&bpeek_file(&merges[..15])).unwrap();
    let long = "a".repeat(70_000);
    let ids = tok.encode(&long, false);
    assert_eq!(tok.decode(&ids).unwrap(), long);
}

#[test]
fn many_long_tokens_are_refused_by_their_total_size() {
    // A token of 32,768 `a`, then a chain that adds one `b` at a time: each
    // merge is a few bytes of file and 32 kB of vocabulary.
    let mut merges = vec![[97, 97]];
    for k in 0..14 {
        merges.push([256 + k, 256 + k]);
    }
    for last in 256 + 14..256 + 14 + 2_200 {
        merges.push([last, 98]);
    }
    let err = load_error(&bpeek_file(&merges));
    assert!(err.contains("64 MiB"), "{err}");
    assert!(err.starts_with("merges["), "{err}");
}

#[test]
fn a_merge_repeated_far_apart_is_still_found() {
    let mut merges = vec![[97, 98]];
    for k in 0..5_000u64 {
        merges.push([256 + k, 99 + (k % 2)]);
    }
    merges.push([97, 98]);
    let err = load_error(&bpeek_file(&merges));
    assert!(
        err.contains("merges[5001].pair: [97, 98] is already merged"),
        "{err}"
    );
}

#[test]
fn a_special_token_on_an_ordinary_id_is_refused() {
    let doc = hugging_face(
        byte_vocab(),
        json!([{"id": 98, "content": "<|eot|>", "special": true}]),
    );
    let err = hf_error(&doc);
    assert!(
        err.contains("\"<|eot|>\"") && err.contains("id 98") && err.contains("\"b\""),
        "{err}"
    );
}

#[test]
fn an_id_above_two_to_the_32_is_too_large_not_zero() {
    let doc = hugging_face(
        byte_vocab(),
        json!([{"id": 4_294_967_296u64, "content": "<|eot|>", "special": true}]),
    );
    let err = hf_error(&doc);
    assert!(
        err.contains("\"<|eot|>\"") && err.contains("4294967296 is too large"),
        "{err}"
    );
    let mut vocab = byte_vocab();
    vocab.insert("abc".into(), json!(4_294_967_296u64));
    let err = hf_error(&hugging_face(vocab, json!([])));
    assert!(
        err.contains("\"abc\"") && err.contains("too large"),
        "{err}"
    );
}

#[test]
fn two_special_tokens_on_one_id_are_refused() {
    let doc = hugging_face(
        byte_vocab(),
        json!([
            {"id": 300, "content": "<|start|>", "special": true},
            {"id": 300, "content": "<|end|>", "special": true},
        ]),
    );
    let err = hf_error(&doc);
    assert!(
        err.contains("\"<|start|>\" and \"<|end|>\" both have id 300"),
        "{err}"
    );
}

#[test]
fn two_tokens_on_one_id_are_refused_in_gpt2_and_hugging_face_files() {
    let mut vocab = byte_vocab();
    vocab.insert("xyz".into(), json!(65));
    let err = hf_error(&hugging_face(vocab.clone(), json!([])));
    assert!(
        err.contains("both have id 65") && err.contains("\"xyz\""),
        "{err}"
    );

    let encoder = Value::Object(vocab).to_string();
    let err = import::gpt2_files("gpt2", &encoder, "#version: 0.2\n")
        .expect_err("refused")
        .to_string();
    assert!(
        err.starts_with("encoder.json")
            && err.contains("both have id 65")
            && err.contains("\"xyz\""),
        "{err}"
    );
}

#[test]
fn a_normalizer_is_applied_or_refused_by_name() {
    let mut doc = hugging_face(byte_vocab(), json!([]));
    assert!(import::hugging_face("t.json", &doc).is_ok());
    // Lowercase runs as a step of the file's own: "AB" is "ab".
    doc["normalizer"] = json!({"type": "Lowercase"});
    let tok = import::hugging_face("t.json", &doc).unwrap();
    assert_eq!(tok.encode("AB", false), [256]);
    doc["normalizer"] =
        json!({"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Foo"}]});
    let err = hf_error(&doc);
    assert!(
        err.contains("normalizer.normalizers[1]: type 'Foo' is not supported"),
        "{err}"
    );
    // An empty sequence changes nothing.
    doc["normalizer"] = json!({"type": "Sequence", "normalizers": []});
    assert!(import::hugging_face("t.json", &doc).is_ok());
}

#[test]
fn nfc_is_applied_other_decoders_are_refused_and_splits_run_as_written_with_any_behavior() {
    let mut doc = hugging_face(byte_vocab(), json!([]));
    doc["normalizer"] = json!({"type": "NFC"});
    let tok = import::hugging_face("t.json", &doc).unwrap();
    // é written as e + combining acute is composed first: both spellings
    // give the same ids.
    assert_eq!(tok.encode("e\u{301}", false), tok.encode("\u{e9}", false));
    doc["decoder"] = json!({"type": "ByteLevel"});
    assert!(import::hugging_face("t.json", &doc).is_ok());
    // Another decoder runs on the tokens' byte-level spellings, as the
    // library runs it (`Ġ` stays); one the library does not have is
    // refused by name.
    doc["decoder"] = json!({"type": "WordPiece", "prefix": "##"});
    let tok = import::hugging_face("t.json", &doc).unwrap();
    assert_eq!(
        tok.decode(&tok.encode("ab a", false)).unwrap(),
        "ab \u{120} a"
    );
    doc["decoder"] = json!({"type": "Spiral"});
    let err = hf_error(&doc);
    assert!(err.contains("decoder: type 'Spiral'"), "{err}");
    doc["decoder"] = Value::Null;
    doc["pre_tokenizer"] = json!({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Removed", "invert": false},
        {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]});
    // Removed: the spaces are dropped, so "ab a b" is "ab", "a", "b".
    let tok = import::hugging_face("t.json", &doc).unwrap();
    assert_eq!(tok.encode("ab a b", false).len(), 3);
    // Any Isolated pattern runs as written: "\s+" keeps the spaces as
    // pieces of their own, so "a" and "b" never merge across one.
    doc["pre_tokenizer"]["pretokenizers"][0]["behavior"] = json!("Isolated");
    let tok = import::hugging_face("t.json", &doc).unwrap();
    assert_eq!(tok.encode("ab", false), [256]);
    assert_eq!(tok.encode("ab a b", false).len(), 5);
    // A pattern that does not compile is refused by name.
    doc["pre_tokenizer"]["pretokenizers"][0]["pattern"] = json!({"Regex": "(a"});
    let err = hf_error(&doc);
    assert!(
        err.contains("'(a'") && err.contains("does not compile"),
        "{err}"
    );
}

#[test]
fn a_folder_named_like_a_rank_file_is_just_a_folder() {
    let base = scratch("tiktoken-name");
    let dir = base.join("my.tiktoken.d");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tok.json");
    std::fs::write(&path, bpeek_file(&[[97, 98]])).unwrap();
    let tok = load::load(path.to_str().unwrap()).unwrap();
    assert_eq!(tok.encode("ab", false), [256]);

    // A rank file is known by its extension, or by its content.
    let ranks: String = (0..=255u8)
        .map(|b| {
            use base64::Engine;
            format!(
                "{} {b}\n",
                base64::engine::general_purpose::STANDARD.encode([b])
            )
        })
        .collect();
    for name in ["bytes.tiktoken", "bytes-ranks"] {
        let path = dir.join(name);
        std::fs::write(&path, &ranks).unwrap();
        let err = load::load(path.to_str().unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("has no pre-tokenizer"), "{name}: {err}");
        let with = format!("{}:gpt2", path.display());
        assert_eq!(load::load(&with).unwrap().encode("ab", false), [97, 98]);
    }
}
