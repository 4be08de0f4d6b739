//! `bpeek decode --keep-special`: special tokens written as their text, as
//! the library's `decode(ids, skip_special_tokens=False)` writes them
//! (`tests/hf_decode_added.rs` holds the engine to the library on every
//! kind of file); the text output and `--format json` give the bytes the
//! engine gives, and a SentencePiece `.model` file, whose reference never
//! keeps control pieces, is refused by name.

mod scratch;

use bpeek::bpe::formats::load::load;
use scratch::Scratch;
use serde_json::Value;
use std::process::{Command, Output};

fn bpeek(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_command_keeps_what_the_engine_keeps() {
    let dir = Scratch::new("decode-keep-special");
    let file = dir.join("tok.json");
    let file = file.to_string_lossy();
    // A trained byte-level file, written as Hugging Face's tokenizer.json,
    // and given a special token as the library's add_special_tokens does.
    let out = bpeek(&[
        "train",
        "--merges",
        "40",
        "--out",
        &file,
        "--out-format",
        "hf",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&*file).unwrap()).unwrap();
    let next = doc["model"]["vocab"].as_object().unwrap().len();
    doc["added_tokens"] = serde_json::json!([{"id": next, "content": "<|end|>", "special": true,
        "single_word": false, "lstrip": false, "rstrip": false, "normalized": false}]);
    std::fs::write(&*file, doc.to_string()).unwrap();
    let tok = load(&file).unwrap();
    let mut ids = tok.encode("the end", false);
    ids.insert(1, next as u32);
    ids.push(next as u32);
    let args: Vec<String> = ids.iter().map(u32::to_string).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = |extra: &[&str]| {
        let out = bpeek(&[&["decode", "--tokenizer", &file], extra, &args[..]].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let kept = tok.decode_bytes_with(&ids, false).unwrap();
    let skipped = tok.decode_bytes(&ids).unwrap();
    // A naive reference: each token's bytes, the special one's its text.
    let naive: Vec<u8> = ids
        .iter()
        .flat_map(|&id| match id as usize == next {
            true => b"<|end|>".to_vec(),
            false => tok.describe(id).bytes,
        })
        .collect();
    assert_eq!(kept, naive);
    assert_eq!(skipped, b"the end");
    assert_eq!(run(&["--keep-special"]), [&kept[..], b"\n"].concat());
    assert_eq!(run(&[]), [&skipped[..], b"\n"].concat());
    let json: Value =
        serde_json::from_slice(&run(&["--keep-special", "--format", "json"])).unwrap();
    assert_eq!(json["text"].as_str().unwrap().as_bytes(), kept);
    assert_eq!(json["bytes"].as_array().unwrap().len(), kept.len());
}

#[test]
fn a_sentencepiece_model_file_refuses_by_name() {
    let dir = Scratch::new("decode-keep-special-spm");
    let file = dir.join("tok.model");
    let file = file.to_string_lossy();
    let out = bpeek(&[
        "train",
        "--model",
        "unigram",
        "--vocab-size",
        "120",
        "--out",
        &file,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bpeek(&["decode", "--tokenizer", &file, "--keep-special", "1", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--keep-special") && err.contains("SentencePiece .model"),
        "{err}"
    );
    // Without the flag the same ids decode.
    assert!(
        bpeek(&["decode", "--tokenizer", &file, "1", "5"])
            .status
            .success()
    );
}
