//! Tokenizers made elsewhere load and encode exactly like the originals,
//! and broken files give a clear error, never a panic.

mod scratch;

use base64::Engine;
use bpeek::bpe::formats::{builtin, byte_unicode, load};
use bpeek::bpe::{TokenId, Tokenizer};
use serde_json::{Value, json};

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-import-{}-{name}", std::process::id()))
}

fn sample_text() -> String {
    let mut s = String::new();
    for sample in bpeek::corpora::SAMPLES {
        s.push_str(sample.text);
    }
    s
}

/// A vocabulary string in GPT-2's printable byte form.
fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| byte_unicode::byte_chars()[b as usize])
        .collect()
}

/// GPT-2's ordinary tokens and its merges in rank order, recovered from the
/// built-in rank data.
fn gpt2_parts() -> (Tokenizer, Vec<(TokenId, TokenId)>) {
    let gpt2 = builtin::load("gpt2").unwrap();
    let n = gpt2.vocab().len() as TokenId;
    let merges = (0..n)
        .filter_map(|id| gpt2.made_by(id))
        .map(|m| (m.left, m.right))
        .collect();
    (gpt2, merges)
}

#[test]
fn a_tiktoken_file_with_its_pretokenizer_encodes_like_the_builtin() {
    let dir = scratch("tiktoken");
    let cl = builtin::load("cl100k").unwrap();
    let mut file = String::new();
    for id in 0..cl.vocab().len() as TokenId {
        let b64 = base64::engine::general_purpose::STANDARD.encode(cl.vocab().token_bytes(id));
        file.push_str(&format!("{b64} {id}\n"));
    }
    let path = dir.join("cl100k_base.tiktoken");
    std::fs::write(&path, file).unwrap();
    let spec = format!("{}:cl100k", path.display());
    let loaded = load::load(&spec).unwrap();
    let text = sample_text();
    assert_eq!(loaded.encode(&text, false), cl.encode(&text, false));
    assert_eq!(loaded.name(), "cl100k_base.tiktoken");
}

#[test]
fn gpt2_encoder_json_and_vocab_bpe_encode_like_the_builtin() {
    let dir = scratch("gpt2");
    let (gpt2, merges) = gpt2_parts();
    let mut encoder = serde_json::Map::new();
    for id in 0..gpt2.vocab().len() as TokenId {
        encoder.insert(printable(gpt2.vocab().token_bytes(id)), json!(id));
    }
    encoder.insert("<|endoftext|>".into(), json!(50256));
    let mut bpe = String::from("#version: 0.2\n");
    for (a, b) in &merges {
        bpe.push_str(&format!(
            "{} {}\n",
            printable(gpt2.vocab().token_bytes(*a)),
            printable(gpt2.vocab().token_bytes(*b))
        ));
    }
    std::fs::write(dir.join("encoder.json"), Value::Object(encoder).to_string()).unwrap();
    std::fs::write(dir.join("vocab.bpe"), bpe).unwrap();
    let text = sample_text();
    for spec in [
        dir.to_path_buf(),
        dir.join("encoder.json"),
        dir.join("vocab.bpe"),
    ] {
        let loaded = load::load(spec.to_str().unwrap()).unwrap();
        assert_eq!(
            loaded.encode(&text, false),
            gpt2.encode(&text, false),
            "{}",
            spec.display()
        );
        assert_eq!(loaded.encode("<|endoftext|>", true), [50256]);
        let made = loaded.made_by(gpt2.encode(" the", false)[0]).unwrap();
        assert_eq!(
            (
                loaded.decode(&[made.left]).unwrap(),
                loaded.decode(&[made.right]).unwrap()
            ),
            (" t".into(), "he".into())
        );
    }
}

#[test]
fn a_hugging_face_byte_level_bpe_encodes_like_the_builtin() {
    let dir = scratch("hf");
    let (gpt2, merges) = gpt2_parts();
    let mut vocab = serde_json::Map::new();
    for id in 0..gpt2.vocab().len() as TokenId {
        vocab.insert(printable(gpt2.vocab().token_bytes(id)), json!(id));
    }
    let show = |id: TokenId| printable(gpt2.vocab().token_bytes(id));
    let merge_strings: Vec<Value> = merges
        .iter()
        .map(|(a, b)| json!(format!("{} {}", show(*a), show(*b))))
        .collect();
    let merge_pairs: Vec<Value> = merges
        .iter()
        .map(|(a, b)| json!([show(*a), show(*b)]))
        .collect();
    for (name, merges) in [("strings.json", merge_strings), ("pairs.json", merge_pairs)] {
        let doc = json!({
            "version": "1.0",
            "added_tokens": [{"id": 50256, "content": "<|endoftext|>", "special": true}],
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "vocab": vocab, "merges": merges},
        });
        let path = dir.join(name);
        std::fs::write(&path, doc.to_string()).unwrap();
        let loaded = load::load(path.to_str().unwrap()).unwrap();
        let text = sample_text();
        assert_eq!(
            loaded.encode(&text, false),
            gpt2.encode(&text, false),
            "{name}"
        );
        assert_eq!(loaded.encode("<|endoftext|>", true), [50256], "{name}");
    }
}

#[test]
fn bpeek_files_and_builtin_names_load_through_the_same_door() {
    let dir = scratch("own");
    let config = bpeek::bpe::TrainerConfig {
        max_merges: Some(20),
        ..Default::default()
    };
    let mut t =
        bpeek::bpe::Trainer::new(b"low lower lowest newer newest".to_vec(), config).unwrap();
    t.run();
    let path = dir.join("mine.json");
    std::fs::write(
        &path,
        bpeek::bpe::formats::tokenizer_file::to_json(&t.tokenizer()).to_string(),
    )
    .unwrap();
    let loaded = load::load(path.to_str().unwrap()).unwrap();
    assert_eq!(
        loaded.encode("lowest", false),
        t.tokenizer().encode("lowest", false)
    );
    for name in [
        "bytes",
        "gpt2",
        "cl100k",
        "o200k",
        "r50k_base",
        "cl100k_base",
    ] {
        assert!(load::load(name).is_ok(), "{name}");
    }
    assert_eq!(
        load::load("bytes").unwrap().encode("hé", false),
        [104, 195, 169]
    );
}

/// Each broken file must fail with a message naming the problem.
#[test]
fn malformed_files_of_every_format_are_rejected_clearly() {
    let dir = scratch("broken");
    let write = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    };
    let mut all_bytes = serde_json::Map::new();
    for b in 0..=255u8 {
        all_bytes.insert(printable(&[b]), json!(b));
    }
    let cases: Vec<(String, &str)> = vec![
        (format!("{}:gpt2", write("bad.tiktoken", "YQ== 0\nnot-base64!! 1\n")), "line 2: bad base64"),
        (format!("{}:gpt2", write("short.tiktoken", "YQ==\n")), "line 1: expected 'BASE64 RANK'"),
        (format!("{}:gpt2", write("nobytes.tiktoken", "YQ== 0\n")), "no token for the byte 0x00"),
        (write("plain.tiktoken", "YQ== 0\n"), "has no pre-tokenizer"),
        (write("truncated.json", "{\"model\": {\"type\": \"BPE\", \"vocab\""), "malformed JSON"),
        (write("unigram.json", r#"{"model": {"type": "Unigram", "vocab": []}}"#), "no normal, user-defined or unused piece"),
        (write("wordlevel.json", r#"{"model": {"type": "WordLevel", "vocab": {}}}"#), "model: unk_token \"<unk>\" is not in the vocabulary"),
        (write("wordmodel.json", r#"{"model": {"type": "WordModel", "vocab": {}}}"#), "model.type 'WordModel' is not supported"),
        (write("wordpiece.json", r#"{"model": {"type": "WordPiece", "vocab": {}}}"#), "model: unk_token \"[UNK]\" is not in the vocabulary"),
        (
            write("fixedlength.json", r#"{"pre_tokenizer": {"type": "FixedLength", "length": 0}, "model": {"type": "BPE", "vocab": {}, "merges": []}}"#),
            "pre_tokenizer.length: 0 is not a length above 0",
        ),
        (
            write(
                "badmerge.json",
                &json!({"pre_tokenizer": {"type": "ByteLevel"}, "model": {"type": "BPE", "vocab": all_bytes, "merges": ["a zz"]}}).to_string(),
            ),
            "model.merges[0]: token \"zz\" is not in the vocabulary",
        ),
        (write("encoder.json", r#"{"a": 0, "b": 1}"#), "vocab.bpe"),
        (write("unknown.json", r#"{"hello": "world"}"#), "not a tokenizer bpeek reads"),
        (write("counts.json", r#"{"a": 1, "b": 2}"#), "not a tokenizer bpeek reads"),
        (write("binary.bin", "\u{0}\u{1}"), "malformed JSON"),
    ];
    for (spec, expect) in cases {
        let err = load::load(&spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} loaded"));
        assert!(err.to_string().contains(expect), "{spec}: {err}");
        assert_eq!(err.exit_code(), 2, "{spec}");
    }
    // A vocab.bpe line with one token.
    let gdir = scratch("gpt2-broken");
    std::fs::write(
        gdir.join("encoder.json"),
        Value::Object(all_bytes).to_string(),
    )
    .unwrap();
    std::fs::write(gdir.join("vocab.bpe"), "#version: 0.2\nab\n").unwrap();
    let err = load::load(gdir.to_str().unwrap()).err().unwrap();
    assert!(err.to_string().contains("vocab.bpe line 2"), "{err}");
}
