//! `bpeek train --model unigram`: the report (the course's numbers in
//! JSON), the files it writes (a Hugging Face `tokenizer.json` and a
//! SentencePiece `.model`) loaded by the real libraries and encoding with
//! the ids `bpeek encode` gives, and the options it refuses.

mod common;
mod course;
mod python;
mod reference;
mod scratch;

use common::{bpeek, json_of};
use reference::Rng;
use scratch::Scratch;
use serde_json::{Value, json};
use std::path::Path;

#[test]
fn the_json_report_holds_the_course_numbers_at_the_seeding_and_the_first_scoring() {
    let dir = Scratch::new("unigram-course");
    let corpus = dir.file("course.txt", course::text());
    let out = bpeek(&[
        "train",
        corpus.to_str().unwrap(),
        "--model",
        "unigram",
        "--mode",
        "char",
        "--em-iterations",
        "0",
        "--vocab-size",
        "12",
        "--scores",
        "--format",
        "json",
    ]);
    let report = json_of(&out);
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps[0]["phase"], "seeded");
    assert_eq!(steps[0]["pieces"], 15);
    assert_eq!(
        format!("{:.1}", steps[0]["loss"].as_f64().unwrap()),
        "169.8"
    );
    assert_eq!(steps[1]["phase"], "scored");
    let hug = steps[1]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["piece"] == "hug")
        .unwrap();
    assert_eq!(format!("{:.1}", hug["score"].as_f64().unwrap()), "23.5");
    assert_eq!(hug["uses"], 10);
    // The prune: 15 pieces down to 11; its loss is reported too.
    assert_eq!(steps[2]["phase"], "pruned");
    assert_eq!(steps[2]["removed"].as_array().unwrap().len(), 4);
    assert!(steps[2]["loss"].as_f64().is_some());
    assert_eq!(report["stop"], "vocab_size");
    assert_eq!(report["vocab_size"], 12);
}

/// Words of several scripts, some letters with accents, and digits.
fn multi_script(rng: &mut Rng, words: usize) -> String {
    let alphabets: [&[&str]; 5] = [
        &["a", "e", "n", "t", "s", "r", "é", "ü"],
        &["д", "о", "м", "а", "р", "к"],
        &["東", "京", "大", "学", "生"],
        &["α", "β", "λ", "ό", "ς"],
        &["1", "2", "0"],
    ];
    let stems: Vec<String> = (0..40)
        .map(|_| {
            let a = alphabets[rng.below(alphabets.len())];
            (0..1 + rng.below(7))
                .map(|_| a[rng.below(a.len())])
                .collect()
        })
        .collect();
    let mut out = String::new();
    for i in 0..words {
        if i > 0 {
            out.push_str([" ", " ", " ", "  ", "\n", "\t"][rng.below(6)]);
        }
        out.push_str(&stems[rng.below(stems.len())]);
    }
    out
}

/// bpeek's ids for each text with the tokenizer in `file`.
fn bpeek_ids(file: &Path, texts: &[String]) -> Vec<Vec<u64>> {
    texts
        .iter()
        .map(|t| {
            let out = bpeek(&[
                "encode",
                "--tokenizer",
                file.to_str().unwrap(),
                "--format",
                "ids",
                t,
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout)
                .unwrap()
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn written_files_load_in_the_libraries_and_encode_with_bpeeks_ids() {
    let Some(python) = python::with_module("sentencepiece", "sentencepiece") else {
        return;
    };
    if python::with_module("tokenizers", "tokenizers").is_none() {
        return;
    }
    let dir = Scratch::new("unigram-files");
    let mut rng = Rng(0x0044_f11e);
    let held_out: Vec<String> = (0..6)
        .map(|_| multi_script(&mut rng, 12))
        .chain([
            "  two  spaces and unseen ÿ 字 Ω 9 ".to_string(),
            String::new(),
            "x".to_string(),
        ])
        .map(|t| t.replace(['\n', '\t'], " "))
        .collect();
    let mut jobs = Vec::new();
    let mut files = Vec::new();
    for case in 0..6 {
        let words = 400 + rng.below(1200);
        let corpus = dir.file(&format!("c{case}.txt"), multi_script(&mut rng, words));
        let mode = if case % 3 == 2 { "char" } else { "byte" };
        let vocab = (60 + rng.below(300)).to_string();
        let mut args = vec![
            "train",
            corpus.to_str().unwrap(),
            "--model",
            "unigram",
            "--mode",
            mode,
            "--vocab-size",
            &vocab,
            "-q",
        ];
        if case % 2 == 1 {
            args.push("--byte-fallback");
        }
        let exts: &[&str] = if mode == "char" {
            &["json"]
        } else {
            &["json", "model"]
        };
        for ext in exts {
            let file = dir.path().join(format!("c{case}.{ext}"));
            let mut a = args.clone();
            if case % 2 == 1 {
                // The vocabulary must hold the byte pieces too.
                a[7] = "700";
            }
            let path = file.to_str().unwrap().to_string();
            a.extend(["--out", &path]);
            let out = bpeek(&a);
            assert!(
                out.status.success(),
                "case {case}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let kind = if *ext == "json" { "hf" } else { "spm" };
            jobs.push(json!({"kind": kind, "file": path, "texts": held_out}));
            files.push(file);
        }
    }
    let theirs = python::run_json(
        &python,
        Path::new("tests/unigram/encode.py"),
        &Value::from(jobs),
    );
    for (i, file) in files.iter().enumerate() {
        let ours = bpeek_ids(file, &held_out);
        let theirs: Vec<Vec<u64>> = serde_json::from_value(theirs[i].clone()).unwrap();
        for (t, (o, w)) in held_out.iter().zip(ours.iter().zip(&theirs)) {
            assert_eq!(o, w, "{}: {t:?}", file.display());
        }
    }
}

#[test]
fn unigram_refuses_what_it_cannot_do_by_name() {
    let dir = Scratch::new("unigram-refusals");
    let corpus = dir.file("c.txt", course::text());
    let c = corpus.to_str().unwrap();
    let model = dir.path().join("x.model");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--mode", "char", "--out", model.to_str().unwrap()],
            "--mode char",
        ),
        (vec!["--merges", "5"], "--merges"),
        (vec!["--pretok", "gpt2"], "--pretok"),
        (vec!["--shrinking-factor", "1.5"], "--shrinking-factor"),
        (vec!["--vocab-size", "1"], "--vocab-size"),
        (
            vec!["--out-format", "tiktoken", "--out", "x.tiktoken"],
            "tiktoken",
        ),
    ];
    for (extra, named) in cases {
        let mut args = vec!["train", c, "--model", "unigram"];
        args.extend(extra);
        let out = bpeek(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!model.exists());
    let out = bpeek(&["train", c, "--seed-size", "5"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model unigram"));
    let empty = dir.file("empty.txt", "  \n");
    let out = bpeek(&[
        "train",
        empty.to_str().unwrap(),
        "--model",
        "unigram",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no piece to write"));
    assert!(!model.exists());
    let bad = dir.file("bad.txt", "ab \u{0}");
    std::fs::write(&bad, b"ab \xff cd").unwrap();
    let out = bpeek(&["train", bad.to_str().unwrap(), "--model", "unigram"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8 at byte 3"));
}
