//! Unigram files and characters no piece covers, held to the real
//! `tokenizers` library (Python), which makes the files in the test:
//!
//! - files trained without an unknown piece (`unk_id: null`), with and
//!   without byte fallback, on SentencePiece's own pipeline, behind
//!   Lowercase and behind other pre-tokenizer steps: where the library
//!   encodes a text bpeek gives its ids, and where it fails bpeek refuses
//!   the text, naming the character and the byte it starts at (a file made
//!   by hand has `x` score so high that the library fails on `xy` though a
//!   piece `xy` covers it: so does bpeek);
//! - files with `<unk>` and byte fallback: a run of unknown cuts is looked
//!   up whole, so `<unk>` made from its text (`<UNK>` behind Lowercase)
//!   and followed by `Ω` is given as the bytes of both, as the library
//!   gives it.

mod hf;
mod python;

use bpeek::bpe::formats::load::load;
use hf::texts::{Rng, random_texts};
use serde_json::json;
use std::process::Command;

/// Lines of the corpus, the same with unknown characters, `<unk>` and the
/// added token sprinkled in, and random texts in many scripts.
fn texts(corpus: &[String]) -> Vec<String> {
    const SPRINKLE: [&str; 10] = [
        "<unk>",
        "<unk><unk>",
        "é",
        "É",
        "Ω",
        "🙂",
        "<s>",
        "qqq",
        "\u{2581}",
        "<UNK>",
    ];
    let mut rng = Rng(0x5eed_0044);
    let mut out: Vec<String> = corpus.to_vec();
    for line in corpus.iter().chain(corpus) {
        let mut s = String::new();
        for (k, c) in line.chars().enumerate() {
            if k % 4 == 0 && rng.below(3) == 0 {
                s.push_str([" ", ""][rng.below(2)]);
                s.push_str(SPRINKLE[rng.below(SPRINKLE.len())]);
            }
            s.push(c);
        }
        out.push(s);
    }
    out.extend(SPRINKLE.iter().map(|s| s.to_string()));
    out.extend(["<unk>é", "é<unk>", "x<unk>Ωy", "a <unk> b", "<unk> é"].map(String::from));
    out.extend(["xy", "axy", "zw", "a zw xy", "x y", "w"].map(String::from));
    out.extend(["<UNK>Ω", "Ω<UNK>", "<UNK><UNK>", "x<UNK>Ωy", "<UNK> Ω"].map(String::from));
    out.extend(random_texts(60));
    out
}

/// The byte a refusal names and the character (by its code point).
fn named_place(message: &str) -> Option<(usize, char)> {
    let code = message.split("(U+").nth(1)?;
    let code = code.split(|c: char| !c.is_ascii_hexdigit()).next()?;
    let c = char::from_u32(u32::from_str_radix(code, 16).ok()?)?;
    let at = message.split("at byte ").nth(1)?;
    let at: usize = at.split(' ').next()?.parse().ok()?;
    Some((at, c))
}

#[test]
fn unknown_characters_as_the_library_meets_them() {
    let Some(python) = hf::python() else {
        return;
    };
    let dir = hf::TempDir::new("hf-unigram-unknowns");
    let corpus: Vec<String> = bpeek::bpe::corpora::default_corpus()
        .text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    let texts = texts(&corpus);
    let answer = hf::run(
        &python,
        "unigram_unknowns.py",
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts}),
    );
    let mut failures = Vec::new();
    let (mut compared, mut refused) = (0, 0);
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (text, want) in texts.iter().zip(a["ids"].as_array().unwrap()) {
            compared += 1;
            let want: Option<Vec<u32>> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.try_encode(text, true);
            match (want, got) {
                (Some(want), Ok(got)) if want == got => {}
                (None, Err(e)) => {
                    refused += 1;
                    let message = e.to_string();
                    // Text normalized around added tokens (behind Lowercase,
                    // with `qqq` matched in normalized text) has its own
                    // places: the character is named in it.
                    let around = message.contains("normalized around the added tokens");
                    let named = named_place(&message).filter(|&(at, c)| match around {
                        false => text.get(at..).is_some_and(|rest| rest.starts_with(c)),
                        true => text.to_lowercase().contains(c),
                    });
                    if named.is_none() || !message.contains("model.unk_id is null") {
                        failures.push(format!("{name}: {text:?}\n  refused as {message}"));
                    }
                }
                (want, got) => failures.push(format!(
                    "{name}: {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                )),
            }
        }
    }
    assert!(compared > 1_500, "{compared}");
    assert!(refused > 200, "only {refused} texts fail in the library");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
    let file = dir.0.join("unk_null.json");
    commands_refuse_the_text(&file, &dir);
}

/// `encode` and `fertility` on a file with no unknown piece: a character
/// no piece covers is refused in one line naming it, exit code 2.
fn commands_refuse_the_text(file: &std::path::Path, dir: &hf::TempDir) {
    let bin = env!("CARGO_BIN_EXE_bpeek");
    let text = "the \u{1F642} end";
    let run = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["encode", "--tokenizer", file.to_str().unwrap(), text]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("'\u{1F642}' (U+1F642) at byte 4"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let sample = dir.file("sample.txt", text.as_bytes());
    let (code, err) = run(&[
        "fertility",
        "--tokenizer",
        file.to_str().unwrap(),
        "--file",
        sample.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("U+1F642") && !err.contains("panick"), "{err}");
}
