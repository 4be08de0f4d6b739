//! `train --out-format hf` writes a tokenizer.json that the real Hugging
//! Face `tokenizers` (Python) loads and that gives bpeek's ids, and decodes
//! them back to the text, on the bundled samples and 500 random strings, for
//! every pre-tokenizer and digit rule; `--out-format tiktoken` writes a rank
//! file that bpeek loads back to the same ids.

mod hf;
mod python;

use bpeek::bpe::formats::load::load;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn bpeek(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .unwrap()
}

/// Train on the bundled corpus with `options`, writing `out` as `format`.
fn train(options: &[&str], out: &Path, format: &str) {
    let out_s = out.to_str().unwrap();
    let mut args = vec!["train", "--merges", "400", "--quiet", "--out", out_s];
    args.extend(["--out-format", format]);
    args.extend(options);
    let done = bpeek(&args);
    assert!(
        done.status.success(),
        "train {options:?} --out-format {format}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
}

/// The samples, and 500 random strings over letters of several scripts,
/// digit runs, whitespace of every kind, punctuation, contractions,
/// combining marks, emoji and the special token's text.
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
    let pieces = [
        "the",
        " the",
        "The",
        "a",
        " ",
        "  ",
        "   ",
        "\n",
        "\n\n",
        "\r\n",
        "\t",
        "x=",
        "2000",
        "7",
        "12345678",
        "'s",
        "'LL",
        "'re",
        "don't",
        ",",
        ".",
        "!?",
        "(",
        ")",
        "-",
        "/",
        "é",
        "e\u{301}",
        "ß",
        "мир",
        "Ωμέγα",
        "日本語",
        "한국",
        "हिन्दी",
        "ไทย",
        "🙂",
        "👩\u{200d}💻",
        "\u{a0}",
        "\u{3000}",
        "\u{2028}",
        "\u{85}",
        "\u{b}",
        "\u{c}",
        "<|endoftext|>",
        "<|endof",
        "٣",
        "½",
        "_",
        "ǅ",
        "\u{1}",
    ];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..500 {
        let mut s = String::new();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = 1 + state % 30;
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            s.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        texts.push(s);
    }
    texts
}

/// The configurations HF can express: every pre-tokenizer, both digit
/// rules, with and without special tokens, both tie rules.
const CONFIGS: &[&[&str]] = &[
    &["--pretok", "none"],
    &["--pretok", "lines"],
    &["--pretok", "whitespace"],
    &["--pretok", "spaces", "--special", "<|endoftext|>"],
    &[
        "--pretok",
        "gpt2",
        "--tie",
        "hf",
        "--special",
        "<|endoftext|>",
        "--special",
        "<pad>",
    ],
    &["--pretok", "cl100k"],
    &["--pretok", "o200k", "--special", "<|endoftext|>"],
    &["--pretok", "gpt2", "--digits", "single"],
    &["--pretok", "cl100k", "--digits", "groups3", "--tie", "lex"],
    &["--pretok", "whitespace", "--digits", "groups3"],
];

#[test]
fn hugging_face_loads_the_export_and_gives_bpeeks_ids_and_text() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-export");
    let texts = texts();
    let mut jobs = Vec::new();
    let mut ours = Vec::new();
    for (i, options) in CONFIGS.iter().enumerate() {
        let hf_file = dir.0.join(format!("tok-{i}.json"));
        let bpeek_file = dir.0.join(format!("tok-{i}.bpeek.json"));
        train(options, &hf_file, "hf");
        train(options, &bpeek_file, "bpeek");
        let tok = load(bpeek_file.to_str().unwrap()).unwrap();
        // HF always matches added tokens in the text: bpeek does with
        // --allow-special.
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| tok.encode(t, true)).collect();
        // bpeek reads its own export back to the same ids.
        let back = load(hf_file.to_str().unwrap()).unwrap();
        for (t, want) in texts.iter().zip(&ids) {
            assert_eq!(&back.encode(t, true), want, "{options:?} read back: {t:?}");
        }
        ours.push(ids);
        jobs.push(json!({ "tokenizer": hf_file, "texts": texts }));
    }
    let answers = hf::run(&python, "encode.py", &Value::Array(jobs));
    for (i, answer) in answers.as_array().unwrap().iter().enumerate() {
        let theirs: Vec<Vec<u32>> = serde_json::from_value(answer["ids"].clone()).unwrap();
        let decoded: Vec<String> = serde_json::from_value(answer["decoded"].clone()).unwrap();
        for (k, text) in texts.iter().enumerate() {
            assert_eq!(
                theirs[k], ours[i][k],
                "{:?}: ids differ on {text:?}",
                CONFIGS[i]
            );
            assert_eq!(
                &decoded[k], text,
                "{:?}: HF decodes differently",
                CONFIGS[i]
            );
        }
    }
}

#[test]
fn what_hugging_face_cannot_express_is_refused_with_the_reason() {
    let dir = hf::TempDir::new("hf-refuse");
    let out = dir.0.join("tok.json");
    let done = bpeek(&[
        "train",
        "--mode",
        "char",
        "--out",
        out.to_str().unwrap(),
        "--out-format",
        "hf",
    ]);
    assert_eq!(done.status.code(), Some(2));
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(err.contains("end_of_word_suffix"), "{err}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_rank_file_export_loads_back_to_the_same_ids() {
    let dir = hf::TempDir::new("tiktoken-export");
    let texts = texts();
    for pretok in ["gpt2", "cl100k", "o200k", "whitespace", "none"] {
        let ranks = dir.0.join(format!("{pretok}.tiktoken"));
        let json = dir.0.join(format!("{pretok}.json"));
        let options = ["--pretok", pretok];
        let out = ranks.to_str().unwrap();
        let done = bpeek(&[
            "train",
            "--merges",
            "400",
            "--quiet",
            "--pretok",
            pretok,
            "--out",
            out,
            "--out-format",
            "tiktoken",
        ]);
        assert!(done.status.success());
        let said = String::from_utf8_lossy(&done.stderr);
        let spec = format!("{out}:{pretok}");
        assert!(said.contains(&spec), "stderr names the loader: {said}");
        train(&options, &json, "bpeek");
        let from_ranks = load(&spec).unwrap();
        let trained = load(json.to_str().unwrap()).unwrap();
        for text in &texts {
            assert_eq!(
                from_ranks.encode(text, false),
                trained.encode(text, false),
                "{pretok}: {text:?}"
            );
        }
    }
}

#[test]
fn a_rank_file_has_no_place_for_special_tokens_or_digit_rules() {
    let dir = hf::TempDir::new("tiktoken-refuse");
    let out = dir.0.join("t.tiktoken");
    let out = out.to_str().unwrap();
    for extra in [["--special", "<s>"], ["--digits", "single"]] {
        let mut args = vec!["train", "--out", out, "--out-format", "tiktoken"];
        args.extend(extra);
        let done = bpeek(&args);
        assert_eq!(done.status.code(), Some(2), "{extra:?}");
        assert!(!Path::new(out).exists());
    }
}
