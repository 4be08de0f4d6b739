//! What the name lookups read from disk is untrusted: Ollama manifests and
//! repositories' `tokenizer_config.json`, damaged at random, give an
//! error naming the file or the field, never a panic; a list of many
//! broken models still lists every one.

mod scratch;

use bpeek::bpe::formats::tokenizer_config;
use serde_json::{Value, json};

/// A small xorshift generator: the same damage on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A JSON value of a kind picked at random.
fn any_value(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!(1e300),
        4 => json!("x".repeat(rng.below(40))),
        5 => json!([]),
        6 => json!([{"name": "default"}, 3, {"template": "{{"}]),
        7 => json!({"content": 5}),
        _ => json!({"0": {"content": "<s>", "special": "yes"}, "x": {}}),
    }
}

fn real_config() -> Value {
    json!({
        "add_bos_token": true,
        "add_eos_token": false,
        "bos_token": "<s>",
        "eos_token": {"content": "</s>", "lstrip": false},
        "chat_template": [{"name": "default", "template": "{{ bos_token }}"}, {"name": "tool_use", "template": "x"}],
        "added_tokens_decoder": {"0": {"content": "<unk>", "special": true}, "1": {"content": "<s>", "special": true}},
    })
}

#[test]
fn damaged_configs_give_an_error_naming_the_field() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let fields = [
        "add_bos_token",
        "add_eos_token",
        "bos_token",
        "eos_token",
        "chat_template",
        "added_tokens_decoder",
    ];
    let mut refused = 0;
    for _ in 0..5000 {
        let mut doc = real_config();
        for _ in 0..1 + rng.below(3) {
            let field = fields[rng.below(fields.len())];
            doc[field] = any_value(&mut rng);
        }
        if let Err(e) = tokenizer_config::parse(&doc) {
            refused += 1;
            let said = e.to_string();
            assert_eq!(said.lines().count(), 1, "{said}");
            assert!(
                fields.iter().any(|f| said.contains(f)),
                "{said} names no field"
            );
        }
    }
    assert!(refused > 1000, "{refused} refused");
    for not_an_object in [json!([]), json!(3), json!("x"), Value::Null] {
        assert!(tokenizer_config::parse(&not_an_object).is_err());
    }
}

#[test]
fn a_store_of_broken_manifests_lists_each_with_why() {
    let dir = scratch::Scratch::new("untrusted-ollama");
    let store = dir.join("models");
    std::fs::create_dir_all(store.join("blobs")).unwrap();
    // A blob that is no GGUF file, and one that is empty.
    let junk = "a".repeat(64);
    std::fs::write(
        store.join("blobs").join(format!("sha256-{junk}")),
        b"not a gguf file",
    )
    .unwrap();
    let empty = "b".repeat(64);
    std::fs::write(store.join("blobs").join(format!("sha256-{empty}")), b"").unwrap();
    let good_layer = |hex: &str| json!({"mediaType": "application/vnd.ollama.image.model", "digest": format!("sha256:{hex}")});
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut manifests: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"{".to_vec(),
        b"\xff\xfe".to_vec(),
        json!({"layers": {}}).to_string().into_bytes(),
        json!({"layers": [good_layer(&junk)]})
            .to_string()
            .into_bytes(),
        json!({"layers": [good_layer(&empty)]})
            .to_string()
            .into_bytes(),
        json!({"layers": [{"mediaType": 3, "digest": null}]})
            .to_string()
            .into_bytes(),
        vec![b' '; 2 << 20],
    ];
    let base = json!({"schemaVersion": 2, "layers": [good_layer(&junk)]})
        .to_string()
        .into_bytes();
    for _ in 0..200 {
        let mut bytes = base.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] = rng.below(256) as u8,
                1 => bytes.truncate(at),
                _ => bytes.insert(at, b"{}[]\",:0"[rng.below(8)]),
            }
            if bytes.is_empty() {
                break;
            }
        }
        manifests.push(bytes);
    }
    for (k, bytes) in manifests.iter().enumerate() {
        let model = store
            .join("manifests/registry.ollama.ai/library")
            .join(format!("m{k:03}"));
        std::fs::create_dir_all(&model).unwrap();
        std::fs::write(model.join("latest"), bytes).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["tokenizers", "--format", "json"])
        .env("OLLAMA_MODELS", &store)
        .env("HF_HUB_CACHE", dir.join("no-cache"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<&Value> = doc["tokenizers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] == "ollama")
        .collect();
    assert_eq!(listed.len(), manifests.len());
    for entry in listed {
        let why = entry["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{entry} read"));
        assert_eq!(why.lines().count(), 1, "{why}");
    }
}
