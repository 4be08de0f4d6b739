//! The tokens a model's post-processor puts around a text: counts leave
//! them out unless `--add-special-tokens` asks, and then they are the ones
//! Hugging Face's `encode(text, add_special_tokens=True)` gives, for
//! TemplateProcessing, BertProcessing, RobertaProcessing and a Sequence
//! with ByteLevel (Llama 3's layout), on byte-level BPE and WordPiece files
//! the real library trains and saves in the test.

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use serde_json::json;
use std::process::Command;

#[test]
fn with_add_special_tokens_the_ids_are_what_hugging_face_gives() {
    let Some(python) = hf::python() else { return };
    let dir = spm::TempDir::new("hf-templates");
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, &text).unwrap();
    let mut texts: Vec<String> = text.lines().map(String::from).collect();
    texts.extend(["", " ", "hello <s> world"].map(String::from));
    let answer = hf::run(
        &python,
        "templates.py",
        &json!({"corpus": corpus, "dir": dir.0, "texts": texts}),
    );
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (text, want) in texts.iter().zip(a["ids"].as_array().unwrap()) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode_for_model(text.as_bytes(), true, true).unwrap();
            assert_eq!(got, want, "{name}: {text:?}");
            // Without the flag, the text's own tokens only.
            let plain = tok.encode_for_model(text.as_bytes(), true, false).unwrap();
            assert_eq!(plain, tok.encode(text, true), "{name}: {text:?}");
            assert!(got.len() > plain.len(), "{name}: {text:?}");
            compared += 1;
        }
    }
    assert!(compared > 150, "{compared}");

    // The commands: encode and fertility say the model's own count.
    let bin = env!("CARGO_BIN_EXE_bpeek");
    let bert = answer["bert"]["json"].as_str().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = run(&["encode", "--tokenizer", bert, "--format", "json", "hello"]);
    let with = run(&[
        "encode",
        "--tokenizer",
        bert,
        "--format",
        "json",
        "--add-special-tokens",
        "hello",
    ]);
    let count = |s: &str| {
        serde_json::from_str::<serde_json::Value>(s).unwrap()["ids"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count(&with), count(&plain) + 2);
    let f = |extra: &[&str]| {
        let mut args = vec![
            "fertility",
            "--tokenizer",
            bert,
            "--format",
            "json",
            "hello world",
        ];
        args.extend(extra);
        let doc: serde_json::Value = serde_json::from_str(&run(&args)).unwrap();
        doc["rows"][0]["tokens"].as_u64().unwrap()
    };
    assert_eq!(f(&["--add-special-tokens"]), f(&[]) + 2);
}

#[test]
fn a_post_processor_bpeek_cannot_read_is_said_only_when_asked_for() {
    let dir = spm::TempDir::new("hf-templates-unknown");
    let vocab: serde_json::Map<String, serde_json::Value> = (0u32..256)
        .map(|b| (hf::byte_level(&[b as u8]), json!(b)))
        .collect();
    let doc = json!({
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "post_processor": {"type": "SomethingNew"},
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": vocab, "merges": []},
    });
    let path = dir.path("new.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let tok = load(path.to_str().unwrap()).unwrap();
    assert_eq!(tok.encode_for_model(b"ab", false, false).unwrap().len(), 2);
    let err = tok
        .encode_for_model(b"ab", false, true)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("post_processor: type \"SomethingNew\" is not supported"),
        "{err}"
    );
}
