//! A `tokenizer.json`'s `truncation` and `padding`, made by the real Hugging
//! Face `tokenizers` library (`enable_truncation`, `enable_padding`) in the
//! test: `encode` gives each text the ids the library's `encode` gives,
//! with and without the template's tokens, cut on either side to every
//! length around the template's, padded to a fixed length, to a multiple,
//! or both, on either side; a strategy the library encodes no single text
//! with is refused, named.

mod hf;
mod python;

use bpeek::bpe::formats::load::load;
use serde_json::{Value, json};

fn settings() -> Value {
    let mut s = serde_json::Map::new();
    for max in [0, 1, 2, 3, 5, 8] {
        for side in ["right", "left"] {
            s.insert(
                format!("cut{max}{side}"),
                json!({"truncation": {"max_length": max, "direction": side}, "template": true}),
            );
        }
    }
    s.insert(
        "cut4_stride".into(),
        json!({"truncation": {"max_length": 4, "stride": 2}}),
    );
    s.insert(
        "only_second".into(),
        json!({"truncation": {"max_length": 4, "strategy": "only_second"}}),
    );
    s.insert(
        "pad12".into(),
        json!({"padding": {"length": 12}, "template": true}),
    );
    s.insert(
        "pad12left".into(),
        json!({"padding": {"length": 12, "direction": "left"}}),
    );
    s.insert("longest".into(), json!({"padding": {}}));
    s.insert(
        "multiple4".into(),
        json!({"padding": {"pad_to_multiple_of": 4}, "template": true}),
    );
    s.insert(
        "pad5multiple4".into(),
        json!({"padding": {"length": 5, "pad_to_multiple_of": 4}}),
    );
    s.insert(
        "cut6pad8".into(),
        json!({"truncation": {"max_length": 6}, "padding": {"length": 8, "direction": "left"},
               "template": true}),
    );
    Value::Object(s)
}

fn texts() -> Vec<String> {
    [
        "",
        "a",
        "hello world",
        "The quick brown fox jumps over the lazy dog, twice; then naps.",
        "numbers 12345 and symbols $%^ in a long line that goes on and on",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn ids_are_cut_and_padded_as_the_library_encodes() {
    let Some(python) = hf::python() else {
        return;
    };
    let dir = hf::TempDir::new("hf-lengths");
    let corpus: Vec<String> = texts().iter().cycle().take(200).cloned().collect();
    let answer = hf::run(
        &python,
        "lengths.py",
        &json!({"dir": dir.0, "corpus": corpus, "texts": texts(), "settings": settings()}),
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        let tok = load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (add, key) in [(false, "plain"), (true, "added")] {
            for (text, want) in texts().iter().zip(a[key].as_array().unwrap()) {
                let got = tok.as_file_encodes(tok.encode(text, true), add);
                compared += 1;
                match (want, got) {
                    (Value::String(_), Err(e)) => {
                        assert!(e.to_string().contains("truncation.strategy"), "{e}")
                    }
                    (Value::Array(_), Ok(got)) => {
                        let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
                        if got != want {
                            failures.push(format!(
                                "{name} {key}: {text:?}\n  tokenizers {want:?}\n  bpeek      {got:?}"
                            ));
                        }
                    }
                    (want, got) => {
                        failures.push(format!("{name} {key}: {text:?}: {want} / {got:?}"))
                    }
                }
            }
        }
    }
    assert!(compared > 200, "{compared}");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// The command gives the library's ids, whole text and line by line.
#[test]
fn the_encode_command_applies_them() {
    let Some(python) = hf::python() else {
        return;
    };
    let dir = hf::TempDir::new("hf-lengths-cli");
    let settings = json!({"cut6pad8": settings()["cut6pad8"].clone()});
    let text = texts()[3].clone();
    let answer = hf::run(
        &python,
        "lengths.py",
        &json!({"dir": dir.0, "corpus": [text.clone()], "texts": [text.clone()], "settings": settings}),
    );
    for (name, a) in answer.as_object().unwrap() {
        let path = a["json"].as_str().unwrap();
        for (flag, key) in [(None, "plain"), (Some("--add-special-tokens"), "added")] {
            for lines in [false, true] {
                let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"));
                cmd.args(["encode", "--tokenizer", path, "--format", "ids"]);
                cmd.args(flag).args(lines.then_some("--lines")).arg(&text);
                let out = cmd.output().unwrap();
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let got: Vec<u32> = String::from_utf8(out.stdout)
                    .unwrap()
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
                let want: Vec<u32> = serde_json::from_value(a[key][0].clone()).unwrap();
                assert_eq!(got, want, "{name} {key} lines={lines}");
            }
        }
    }
}

/// Fields the library would not load are refused, named.
#[test]
fn bad_fields_are_named() {
    let dir = hf::TempDir::new("hf-lengths-bad");
    let base = json!({"model": {"type": "WordLevel", "vocab": {"a": 0, "[UNK]": 1}, "unk_token": "[UNK]"},
                      "pre_tokenizer": {"type": "Whitespace"}});
    for (field, value, named) in [
        (
            "truncation",
            json!({"max_length": -1}),
            "truncation.max_length",
        ),
        (
            "truncation",
            json!({"max_length": 3, "strategy": "Middle"}),
            "truncation.strategy",
        ),
        (
            "truncation",
            json!({"max_length": 3, "direction": "Up"}),
            "truncation.direction",
        ),
        (
            "padding",
            json!({"strategy": "Longest", "pad_id": 0}),
            "padding.strategy",
        ),
        (
            "padding",
            json!({"strategy": {"Fixed": 4}}),
            "padding.pad_id",
        ),
        (
            "padding",
            json!({"strategy": {"Fixed": 4}, "pad_id": 0, "pad_to_multiple_of": "x"}),
            "padding.pad_to_multiple_of",
        ),
        // Padding every text to billions of ids would take gigabytes each.
        (
            "padding",
            json!({"strategy": {"Fixed": 3_000_000_000u64}, "pad_id": 0}),
            "padding.strategy.Fixed: 3000000000 is not a length (0..=16777216)",
        ),
        (
            "padding",
            json!({"strategy": "BatchLongest", "pad_id": 0, "pad_to_multiple_of": 1u64 << 30}),
            "padding.pad_to_multiple_of",
        ),
    ] {
        let mut doc = base.clone();
        doc[field] = value;
        let path = dir.file("t.json", doc.to_string().as_bytes());
        let Err(err) = load(path.to_str().unwrap()) else {
            panic!("{named}: loaded");
        };
        let err = err.to_string();
        assert!(err.contains(named), "{named}: {err}");
    }
}
