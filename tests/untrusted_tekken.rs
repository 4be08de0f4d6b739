//! Tekken files are untrusted input: a field missing or of the wrong kind,
//! bad base64, ranks out of order, sizes the vocabulary cannot fill and
//! numbers too large each give an error naming the field, and random damage
//! to a file gives an error or a tokenizer, never a panic.

mod scratch;

use base64::Engine;
use bpeek::bpe::formats::load::load;
use serde_json::{Value, json};

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A small Tekken file: the 256 bytes, `ab` and `abc`, two special tokens
/// listed of three.
fn small_file() -> Value {
    let mut vocab: Vec<Value> = (0..=255u8)
        .map(|b| json!({"rank": b, "token_bytes": b64(&[b]), "token_str": null}))
        .collect();
    for (rank, token) in [(256, "ab"), (257, "abc")] {
        vocab.push(json!({"rank": rank, "token_bytes": b64(token.as_bytes()), "token_str": token}));
    }
    json!({
        "config": {
            "pattern": r"\p{L}+|\s+|[^\s\p{L}]+",
            "num_vocab_tokens": 258,
            "default_vocab_size": 261,
            "default_num_special_tokens": 3,
            "version": "v13",
        },
        "vocab": vocab,
        "special_tokens": [
            {"rank": 0, "token_str": "<unk>", "is_control": true},
            {"rank": 1, "token_str": "<s>", "is_control": true},
        ],
    })
}

/// Load `doc` from a file as `--tokenizer` would.
fn load_doc(dir: &scratch::Scratch, doc: &Value) -> Result<bpeek::bpe::Tokenizer, String> {
    let path = dir.file("tekken.json", doc.to_string());
    load(&path.to_string_lossy()).map_err(|e| e.to_string())
}

#[test]
fn a_small_file_loads_with_its_ids_offset_by_the_special_tokens() {
    let dir = scratch::Scratch::new("tekken-small");
    let tok = load_doc(&dir, &small_file()).unwrap();
    assert_eq!(tok.encode("abc ab", false), vec![3 + 257, 3 + 32, 3 + 256]);
    assert_eq!(tok.encode("<s><SPECIAL_2>", true), vec![1, 2]);
    assert_eq!(tok.decode(&[1, 3 + 256]).unwrap(), "<s>ab");
}

/// A change that breaks a file.
type Break = fn(&mut Value);

/// Damage to `config`, with what the error must say.
fn config_damage() -> Vec<(Break, &'static str)> {
    vec![
        (|d| d["config"] = json!(3), "config is not an object"),
        (
            |d| drop(d["config"].as_object_mut().unwrap().remove("pattern")),
            "config.pattern is missing",
        ),
        (
            |d| d["config"]["pattern"] = json!("(unclosed"),
            "config.pattern",
        ),
        (
            |d| drop(d["config"].as_object_mut().unwrap().remove("version")),
            "config.version is missing",
        ),
        (
            |d| d["config"]["version"] = json!("three"),
            "config.version 'three'",
        ),
        (
            |d| {
                drop(
                    d["config"]
                        .as_object_mut()
                        .unwrap()
                        .remove("default_vocab_size"),
                )
            },
            "config.default_vocab_size is missing",
        ),
        (
            |d| d["config"]["default_vocab_size"] = json!(-1),
            "config.default_vocab_size is missing or not a whole number",
        ),
        (
            |d| d["config"]["default_vocab_size"] = json!(1e300),
            "config.default_vocab_size is missing or not a whole number",
        ),
        (
            |d| d["config"]["default_vocab_size"] = json!(u64::MAX),
            "config.default_vocab_size: id",
        ),
        (
            |d| d["config"]["default_vocab_size"] = json!(0),
            "config.default_vocab_size is 0",
        ),
        (
            |d| d["config"]["default_vocab_size"] = json!(262),
            "needs 259 ordinary tokens after the 3 special ones, but vocab has 258",
        ),
        (
            |d| d["config"]["default_num_special_tokens"] = json!(4_000_000),
            "more than config.default_vocab_size",
        ),
        (
            |d| {
                d["config"]["default_num_special_tokens"] = json!(1);
                d["config"]["default_vocab_size"] = json!(259);
            },
            "special_tokens has 2 tokens, more than config.default_num_special_tokens 1",
        ),
    ]
}

/// Damage to `vocab` and `special_tokens`, with what the error must say.
fn list_damage() -> Vec<(Break, &'static str)> {
    vec![
        (|d| d["vocab"] = json!({}), "vocab is not a list"),
        (
            |d| d["vocab"][7]["token_bytes"] = json!("not base64!"),
            "vocab[7].token_bytes: bad base64",
        ),
        (
            |d| d["vocab"][257]["token_bytes"] = json!(""),
            "vocab[257].token_bytes is empty",
        ),
        (
            |d| drop(d["vocab"][9].as_object_mut().unwrap().remove("token_bytes")),
            "vocab[9].token_bytes is missing",
        ),
        (
            |d| d["vocab"][256]["rank"] = json!(257),
            "vocab[256].rank is 257",
        ),
        (
            |d| d["vocab"][5]["rank"] = json!("5"),
            "vocab[5].rank is missing or not a whole number",
        ),
        (
            |d| d["vocab"][65]["token_bytes"] = json!(b64(b"B")),
            "vocab[65]: the first 256 tokens must be the bytes 0-255",
        ),
        (
            |d| d["vocab"][257]["token_bytes"] = json!(b64(b"ab")),
            "appears twice",
        ),
        (
            |d| d["vocab"][257]["token_bytes"] = json!(b64(&[b'a'; 5000])),
            "vocab[257]: the token would have 5000 bytes",
        ),
        (
            |d| d["special_tokens"][1]["rank"] = json!(5),
            "special_tokens[1].rank is 5",
        ),
        (
            |d| d["special_tokens"][1]["token_str"] = json!("<unk>"),
            "'<unk>' is given twice",
        ),
        (
            |d| d["special_tokens"][1]["token_str"] = json!("<SPECIAL_2>"),
            "'<SPECIAL_2>' is given twice",
        ),
        (
            |d| d["special_tokens"][0]["token_str"] = json!(7),
            "special_tokens[0].token_str is missing",
        ),
        (
            |d| d["special_tokens"] = json!("<s>"),
            "special_tokens is not a list",
        ),
        (
            |d| drop(d.as_object_mut().unwrap().remove("special_tokens")),
            "special_tokens is missing: a file of version v13",
        ),
    ]
}

#[test]
fn each_broken_field_is_named() {
    let dir = scratch::Scratch::new("tekken-broken");
    let mut cases = config_damage();
    cases.extend(list_damage());
    for (i, (damage, want)) in cases.into_iter().enumerate() {
        let mut doc = small_file();
        damage(&mut doc);
        match load_doc(&dir, &doc) {
            Ok(_) => panic!("case {i}: the damaged file loaded (wanted {want:?})"),
            Err(e) => {
                assert!(e.contains(want), "case {i}: {e:?} does not say {want:?}");
                assert!(
                    e.contains("tekken.json"),
                    "case {i}: {e:?} does not name the file"
                );
            }
        }
    }
}

#[test]
fn an_old_file_without_special_tokens_has_mistral_commons_twenty() {
    let dir = scratch::Scratch::new("tekken-old");
    let mut doc = small_file();
    doc.as_object_mut().unwrap().remove("special_tokens");
    doc["config"]["version"] = json!("v3");
    doc["config"]["default_num_special_tokens"] = json!(20);
    doc["config"]["default_vocab_size"] = json!(278);
    let tok = load_doc(&dir, &doc).unwrap();
    assert_eq!(tok.encode("[INST]x[/INST]", true), vec![3, 20 + 120, 4]);
    // Too few special ids for the twenty is refused.
    doc["config"]["default_num_special_tokens"] = json!(19);
    doc["config"]["default_vocab_size"] = json!(277);
    let e = load_doc(&dir, &doc).err().unwrap();
    assert!(e.contains("special_tokens has 20 tokens"), "{e}");
}

/// Values that replace a field at random.
fn junk(rng: &mut u64) -> Value {
    *rng = rng
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    match (*rng >> 33) % 9 {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(1.5),
        4 => json!("=="),
        5 => json!([]),
        6 => json!({}),
        7 => json!(*rng >> 40),
        _ => json!(300),
    }
}

#[test]
fn random_damage_gives_an_error_or_a_tokenizer_never_a_panic() {
    let dir = scratch::Scratch::new("tekken-fuzz");
    let mut rng = 0x7e44_u64;
    let paths: [&[&str]; 9] = [
        &["config", "default_vocab_size"],
        &["config", "default_num_special_tokens"],
        &["config", "version"],
        &["config", "pattern"],
        &["vocab", "100", "rank"],
        &["vocab", "257", "token_bytes"],
        &["special_tokens", "0", "rank"],
        &["special_tokens", "1"],
        &["vocab"],
    ];
    for round in 0..300 {
        let mut doc = small_file();
        for _ in 0..1 + round % 3 {
            let value = junk(&mut rng);
            let path = paths[(rng >> 20) as usize % paths.len()];
            // A path through a value replaced before is left alone.
            let mut at = Some(&mut doc);
            for key in path {
                at = at.and_then(|v| match key.parse::<usize>() {
                    Ok(i) => v.get_mut(i),
                    Err(_) => v.get_mut(*key),
                });
            }
            if let Some(at) = at {
                *at = value;
            }
        }
        if let Ok(tok) = load_doc(&dir, &doc) {
            // Whatever loaded encodes and decodes its own ids.
            let ids = tok.encode("abc <s> ab\n", true);
            tok.decode_bytes(&ids).unwrap();
        }
    }
}
