//! `bpeek fertility` and `--tokenizer` names on the command line.

mod scratch;

use scratch::Scratch;
use serde_json::Value;
use std::process::{Command, Output};

fn bpeek(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn row<'a>(v: &'a Value, tokenizer: &str, text: &str) -> &'a Value {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tokenizer"] == tokenizer && r["text"] == text)
        .unwrap_or_else(|| panic!("no row {tokenizer} {text}"))
}

#[test]
fn rows_carry_every_documented_field() {
    let v = json_of(&bpeek(&[
        "fertility",
        "--tokenizer",
        "bytes",
        "--tokenizer",
        "cl100k",
        "héllo wörld",
        "--format",
        "json",
    ]));
    let bytes = row(&v, "bytes", "text");
    // 13 bytes, 11 characters, 2 words; the byte baseline has one token per byte.
    assert_eq!(
        (
            bytes["bytes"].as_u64(),
            bytes["chars"].as_u64(),
            bytes["words"].as_u64()
        ),
        (Some(13), Some(11), Some(2))
    );
    assert_eq!(bytes["tokens"], 13);
    assert_eq!(bytes["bytes_per_token"], 1.0);
    assert_eq!(bytes["tokens_per_word"], 6.5);
    assert!(bytes["premium"].is_null(), "no English version given");
    assert_eq!(bytes["dropped_bytes"], 0, "every byte has a token");
    let cl = row(&v, "cl100k", "text");
    for field in [
        "tokenizer",
        "text",
        "bytes",
        "chars",
        "words",
        "tokens",
        "unknown",
        "dropped_bytes",
        "bytes_per_token",
        "chars_per_token",
        "tokens_per_word",
        "premium",
    ] {
        assert!(cl.get(field).is_some(), "{field}");
    }
    let tokens = cl["tokens"].as_f64().unwrap();
    assert_eq!(
        cl["bytes_per_token"].as_f64().unwrap(),
        (13.0 / tokens * 10000.0).round() / 10000.0
    );
}

#[test]
fn samples_have_premiums_against_english() {
    let v = json_of(&bpeek(&["fertility", "--samples", "--format", "json"]));
    for tok in ["bytes", "gpt2", "cl100k", "o200k"] {
        assert_eq!(row(&v, tok, "en")["premium"], 1.0);
        let en = row(&v, tok, "en")["tokens"].as_f64().unwrap();
        let hi = row(&v, tok, "hi");
        assert_eq!(
            hi["premium"].as_f64().unwrap(),
            (hi["tokens"].as_f64().unwrap() / en * 10000.0).round() / 10000.0
        );
        assert!(
            row(&v, tok, "code")["premium"].is_null(),
            "code is not a translation"
        );
    }
    // A class should see that Hindi costs GPT-2 more than it costs o200k.
    assert!(row(&v, "gpt2", "hi")["premium"].as_f64() > row(&v, "o200k", "hi")["premium"].as_f64());
}

#[test]
fn an_english_file_gives_the_premium_of_any_text() {
    let dir = Scratch::new("fert");
    let en = dir.join("en.txt");
    std::fs::write(&en, "abcd").unwrap();
    let v = json_of(&bpeek(&[
        "fertility",
        "--tokenizer",
        "bytes",
        "--english",
        en.to_str().unwrap(),
        "日本",
        "--format",
        "json",
    ]));
    assert_eq!(row(&v, "bytes", "text")["premium"], 1.5);
}

#[test]
fn scripts_and_numbers_are_available_headless() {
    let v = json_of(&bpeek(&[
        "fertility",
        "--tokenizer",
        "gpt2",
        "--tokenizer",
        "cl100k",
        "Hi мир 1234567",
        "--scripts",
        "--numbers",
        "--format",
        "json",
    ]));
    let scripts: Vec<&str> = v["scripts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["tokenizer"] == "gpt2")
        .map(|s| s["script"].as_str().unwrap())
        .collect();
    assert_eq!(scripts, ["Latin", "whitespace", "Cyrillic", "digits"]);
    let numbers = v["numbers"].as_array().unwrap();
    let cut = |tok: &str, n: &str| -> Vec<String> {
        let entry = numbers
            .iter()
            .find(|e| e["tokenizer"] == tok && e["number"] == n)
            .unwrap();
        entry["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        cut("cl100k", "1234567"),
        ["123", "456", "7"],
        "cl100k groups digits by three"
    );
    assert_eq!(
        cut("gpt2", "832408345770928764"),
        ["83", "24", "08", "345", "7", "709", "287", "64"]
    );
}

#[test]
fn real_tokenizers_work_everywhere_a_tokenizer_is_taken() {
    let v = json_of(&bpeek(&[
        "encode",
        "--tokenizer",
        "gpt2",
        "Hello world",
        "--format",
        "json",
    ]));
    assert_eq!(v["ids"], serde_json::json!([15496, 995]));
    let out = bpeek(&["decode", "--tokenizer", "cl100k", "9906", "1917"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Hello world\n");
    let out = bpeek(&["encode", "--tokenizer", "llama9", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("llama9: no such file") && err.contains("gpt2, cl100k, o200k"),
        "{err}"
    );
}

#[test]
fn a_trained_tokenizer_can_split_digits() {
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "bakery",
        "--digits",
        "single",
        "--merges",
        "200",
        "--format",
        "json",
    ]);
    let v = json_of(&out);
    let multi_digit = v["merges"].as_array().unwrap().iter().any(|m| {
        let bytes = m["bytes"].as_array().unwrap();
        bytes
            .iter()
            .filter(|b| (b.as_u64().unwrap() as u8).is_ascii_digit())
            .count()
            > 1
    });
    assert!(
        !multi_digit,
        "with --digits single no token holds two digits"
    );
    let keep = json_of(&bpeek(&[
        "train",
        "--corpus-name",
        "bakery",
        "--merges",
        "200",
        "--format",
        "json",
    ]));
    assert_eq!(keep["merges"].as_array().unwrap().len(), 200);
}

#[test]
fn a_file_is_named_whole_in_the_table() {
    let dir = Scratch::new("fertility-names");
    let deep = dir
        .join("a folder with a long name")
        .join("and another one");
    std::fs::create_dir_all(&deep).unwrap();
    let file = deep.join("english.txt");
    std::fs::write(&file, "The baker bakes bread every morning.").unwrap();
    let out = bpeek(&[
        "fertility",
        "--tokenizer",
        "gpt2",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(file.to_str().unwrap()), "{text}");
}

#[test]
fn words_are_counted_by_one_rule_and_each_script_gets_its_own() {
    let v = json_of(&bpeek(&[
        "fertility",
        "--tokenizer",
        "bytes",
        "--scripts",
        "使用GNOME和KDE 東京・大阪 → ← ©",
        "--format",
        "json",
    ]));
    // 使 用 GNOME 和 KDE, 東 京 大 阪; the arrows and © are no words.
    assert_eq!(row(&v, "bytes", "text")["words"], 9);
    let words = |script: &str| {
        v["scripts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["script"] == script)
            .unwrap_or_else(|| panic!("no {script} row"))["words"]
            .clone()
    };
    assert_eq!(words("Han"), 7);
    assert_eq!(words("Latin"), 2);
    assert_eq!(words("emoji and symbols"), 0);
    let text = bpeek(&[
        "fertility",
        "--tokenizer",
        "bytes",
        "--scripts",
        "東京・大阪",
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("holds a letter or a number (Unicode L or N)"),
        "{text}"
    );
}

#[test]
fn a_char_mode_tokenizer_says_how_many_of_its_tokens_are_unknown() {
    let dir = Scratch::new("unk");
    let corpus = dir.join("cats.txt");
    std::fs::write(&corpus, "the cat sat on the mat the cat").unwrap();
    let tok = dir.join("cats.json");
    let out = bpeek(&[
        "train",
        corpus.to_str().unwrap(),
        "--mode",
        "char",
        "--merges",
        "5",
        "--out",
        tok.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = "The Cat مرحبا";
    let v = json_of(&bpeek(&[
        "fertility",
        "--tokenizer",
        tok.to_str().unwrap(),
        text,
        "--format",
        "json",
    ]));
    let row = &v["rows"][0];
    // T, C and the five Arabic letters were never seen in training.
    assert_eq!(row["unknown"], 7, "{v}");
    assert!(row["tokens"].as_u64().unwrap() > 7);
    let plain = bpeek(&["fertility", "--tokenizer", tok.to_str().unwrap(), text]);
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.contains("are unknown ("), "{plain}");
}
