//! On the command line, what the explorer shows beside its charts: the
//! vocabulary's cost for a model width (`bpeek train --d-model N`, as text
//! and as JSON), and tokenizers given a label with `--tokenizer
//! LABEL=FILE`.

mod run;
mod scratch;
use run::{bpeek, stderr};
use serde_json::Value;

fn json_of(args: &[&str]) -> Value {
    let out = bpeek(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn train_reports_what_the_vocabulary_costs_a_model_of_a_width() {
    // 256 bytes and 30 merges: 286 tokens; 2 x 286 x 4096 = 2,342,912.
    let v = json_of(&[
        "train",
        "--merges",
        "30",
        "--d-model",
        "4096",
        "--format",
        "json",
    ]);
    assert_eq!(v["vocab_size"], 286);
    assert_eq!(
        v["embedding_params"],
        serde_json::json!({"vocab_size": 286, "d_model": 4096, "tied": false, "params": 2_342_912})
    );
    let out = bpeek(&["train", "--merges", "30", "--d-model", "4096"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "embedding table + output head (untied): vocab 286 x d 4,096 x 2 = 2.3M params"
        ),
        "{text}"
    );
    // Without it, neither.
    let v = json_of(&["train", "--merges", "3", "--format", "json"]);
    assert!(v.get("embedding_params").is_none());
}

#[test]
fn a_model_width_is_a_whole_number_within_reason() {
    for (command, bad) in [
        ("train", "0"),
        ("train", "-5"),
        ("train", "4k"),
        ("tui", "65537"),
        ("tui", "99999999999999999999"),
    ] {
        let out = bpeek(&[command, "--d-model", bad]);
        assert_eq!(out.status.code(), Some(2), "{command} {bad}");
        let err = stderr(&out);
        assert!(
            err.contains("--d-model") && err.contains("from 1 to 65536"),
            "{command} {bad}: {err}"
        );
    }
}

#[test]
fn a_labelled_tokenizer_is_reported_under_its_label() {
    let dir = run::scratch("labels", "fertility");
    let file = dir.path().join("tok.json");
    let out = bpeek(&["train", "--merges", "20", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = format!("twenty merges={}", file.display());
    let v = json_of(&[
        "fertility",
        "--tokenizer",
        &spec,
        "--tokenizer",
        "o200k=gpt2",
        "--format",
        "json",
        "a text",
    ]);
    let names: Vec<&str> = v["tokenizers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // A built-in name after `=` is loaded too: `o200k=gpt2` is gpt2.
    assert_eq!(names, ["twenty merges", "o200k"]);
    assert_eq!(v["tokenizers"][1]["ids"], 50257);
    // A path with `=` in a folder name is a path, not a label.
    let folder = dir.path().join("run=1");
    std::fs::create_dir_all(&folder).unwrap();
    let inner = folder.join("tok.json");
    std::fs::copy(&file, &inner).unwrap();
    let v = json_of(&[
        "fertility",
        "--tokenizer",
        inner.to_str().unwrap(),
        "--format",
        "json",
        "a text",
    ]);
    assert_eq!(v["tokenizers"][0]["name"], "tok.json");
    // A label with nothing to load says which file is missing.
    let out = bpeek(&["fertility", "--tokenizer", "mine=no-such-file.json", "x"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("no-such-file.json"),
        "{}",
        stderr(&out)
    );
}
