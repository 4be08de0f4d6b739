//! WordPiece tokenizers made by the real Hugging Face `tokenizers` library
//! (Python) in the test: `WordPieceTrainer` on the bundled samples with
//! BERT's normalizer (lowercase on and off, accents stripped or kept) and
//! BERT's or the `Whitespace` pre-tokenizer. Loaded by bpeek from the
//! saved `tokenizer.json`, each gives the ids HF's `encode` gives (without
//! the template's special tokens) on every sample, every line of every
//! sample and random text of many scripts; the vocabulary written out as a
//! BERT `vocab.txt` gives the ids of `BertWordPieceTokenizer` reading it.

mod hf;
mod python;
mod spm;

use bpeek::bpe::formats::load::load;
use hf::texts::Rng;
use serde_json::{Value, json};
use std::process::Command;

/// Text of many kinds (see [`hf::texts::random_texts`]), with the marks
/// of Unicode 14 too: BERT's normalizer strips marks by its own table.
fn random_texts(n: usize) -> Vec<String> {
    hf::texts::random_texts_from(n, 0x5eed_0020, true)
}

fn models() -> Value {
    json!({
        "uncased": {"lowercase": true, "strip_accents": null, "vocab_size": 1500},
        "cased": {"lowercase": false, "strip_accents": null, "vocab_size": 1500},
        "cased_accents_stripped_words": {"lowercase": false, "strip_accents": true,
                                          "pre_tokenizer": "whitespace", "vocab_size": 1200},
    })
}

/// Train, encode with HF, and the texts encoded.
fn with_hf(tag: &str, texts: &[String]) -> Option<(spm::TempDir, Value)> {
    let python = hf::python()?;
    let dir = spm::TempDir::new(tag);
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, text).unwrap();
    let answer = hf::run(
        &python,
        "wordpiece.py",
        &json!({"corpus": corpus, "dir": dir.0, "models": models(), "texts": texts}),
    );
    Some((dir, answer))
}

fn all_texts() -> Vec<String> {
    let mut texts: Vec<String> = spm::samples().into_iter().map(|(_, t)| t).collect();
    let lines: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines().map(String::from).collect::<Vec<_>>())
        .collect();
    texts.extend(lines);
    texts.extend(random_texts(500));
    texts
}

#[test]
fn ids_are_the_ids_hugging_face_gives() {
    let texts = all_texts();
    let Some((_dir, answer)) = with_hf("wp-ids", &texts) else {
        return;
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        for (file, key) in [("json", "ids"), ("vocab_txt", "vocab_txt_ids")] {
            let path = a[file].as_str().unwrap();
            let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(tok.kind(), "wordpiece");
            for (text, want) in texts.iter().zip(a[key].as_array().unwrap()) {
                let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
                // HF matches its special tokens whole in any text.
                let got = tok.encode(text, true);
                compared += 1;
                if got != want {
                    failures.push(format!(
                        "{name} ({file}): {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                    ));
                }
            }
        }
    }
    assert!(compared > 3_000, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn decoding_gives_the_text_hugging_face_gives() {
    let texts = all_texts();
    let Some((_dir, answer)) = with_hf("wp-decode", &texts) else {
        return;
    };
    let mut failures = Vec::new();
    for (name, a) in answer.as_object().unwrap() {
        let tok = load(a["json"].as_str().unwrap()).unwrap();
        for (ids, want) in a["ids"]
            .as_array()
            .unwrap()
            .iter()
            .zip(a["decoded"].as_array().unwrap())
        {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            let got = tok.decode(&ids).unwrap();
            if got != want.as_str().unwrap() {
                failures.push(format!("{name}: {ids:?}: {want} / {got:?}"));
            }
        }
        // BERT's vocab.txt read as BertWordPieceTokenizer reads it: its
        // [CLS] and [SEP] left out by default and kept on request.
        let tok = load(a["vocab_txt"].as_str().unwrap()).unwrap();
        for row in a["vocab_txt_decoded"].as_array().unwrap() {
            let ids: Vec<u32> = serde_json::from_value(row[0].clone()).unwrap();
            for (skip, want) in [(true, &row[1]), (false, &row[2])] {
                let got = tok.decode_with(&ids, skip).unwrap();
                if got != want.as_str().unwrap() {
                    failures.push(format!(
                        "{name} (vocab.txt, skip_special_tokens={skip}): {ids:?}: {want} / {got:?}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} decodings differ (ids: tokenizers / bpeek); the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

fn bpeek(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn the_commands_take_a_wordpiece_file_and_name_its_kind() {
    let Some((dir, answer)) = with_hf("wp-cli", &["unaffable".to_string()]) else {
        return;
    };
    let json_file = answer["uncased"]["json"].as_str().unwrap();
    let vocab_txt = answer["cased"]["vocab_txt"].as_str().unwrap();

    let out = bpeek(&[
        "encode",
        "--tokenizer",
        json_file,
        "--format",
        "json",
        "Hello, world",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<String> = doc["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.to_string())
        .collect();
    let mut args = vec!["decode", "--tokenizer", json_file];
    args.extend(ids.iter().map(String::as_str));
    let out = bpeek(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        "hello, world"
    );

    // A folder with a vocab.txt in it is read as that file.
    let folder = dir.path("bert");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(vocab_txt, folder.join("vocab.txt")).unwrap();
    let folder = folder.to_string_lossy().into_owned();
    let out = bpeek(&[
        "fertility",
        "--tokenizer",
        json_file,
        "--tokenizer",
        &folder,
        "--samples",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("wordpiece, uncased"), "{text}");
    assert!(text.contains("wordpiece, cased"), "{text}");

    // A vocabulary with no [UNK] is refused by name, exit 2.
    let bad = dir.path("vocab.txt");
    std::fs::write(&bad, "[CLS]\nhello\n##lo\n").unwrap();
    let out = bpeek(&["encode", "--tokenizer", &bad.to_string_lossy(), "x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("vocab.txt"), "{err}");
}

/// WordPiece files are untrusted too: `vocab.txt` and `tokenizer.json`
/// mutated at random are read or refused, never a panic, and whatever is
/// read encodes and decodes any text.
#[test]
fn mutated_wordpiece_files_are_read_or_refused_never_a_panic() {
    let dir = spm::TempDir::new("wp-mutated");
    let vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nun\n##aff\n##able\n##s\na\nb\n##b\n.\n";
    let json = json!({
        "added_tokens": [{"id": 1, "content": "[UNK]", "special": true}],
        "normalizer": {"type": "BertNormalizer", "lowercase": true, "strip_accents": null,
                        "clean_text": true, "handle_chinese_chars": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100,
                  "vocab": {"[PAD]": 0, "[UNK]": 1, "the": 2, "un": 3, "##aff": 4, "##able": 5}}
    })
    .to_string();
    let mut rng = Rng(0x77);
    let mut read = 0;
    for (name, valid) in [("vocab.txt", vocab.to_string()), ("tokenizer.json", json)] {
        let path = dir.path(name);
        for case in 0..400 {
            let mut bytes = valid.clone().into_bytes();
            for _ in 0..1 + rng.below(3) {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.below(bytes.len());
                let pick = b"\n #[]{}\":,09";
                match rng.below(4) {
                    0 => bytes[at] = pick[rng.below(pick.len())],
                    1 => {
                        bytes.remove(at);
                    }
                    2 => bytes.insert(at, b"\n9\"#\xff"[rng.below(5)]),
                    _ => bytes.truncate(at),
                }
            }
            std::fs::write(&path, &bytes).unwrap();
            let spec = path.to_string_lossy().into_owned();
            let result = std::panic::catch_unwind(|| load(&spec));
            let Ok(loaded) = result else {
                panic!(
                    "{name} case {case} panicked on {:?}",
                    String::from_utf8_lossy(&bytes)
                );
            };
            if let Ok(tok) = loaded {
                read += 1;
                for text in [
                    "Unaffable the THE. ",
                    "",
                    "\u{0}é中文 [UNK]",
                    &"x".repeat(150),
                ] {
                    let ids = tok.encode(text, true);
                    tok.decode(&ids).unwrap();
                }
            }
        }
    }
    assert!(read > 0, "no mutated file was read at all");
}
