//! Errors a user can act on: each names what is wrong and where, starts
//! with `bpeek:`, is a few lines at most and exits with code 2.

use std::process::Output;

mod run;
mod scratch;
use run::{bpeek, bpeek_with_stdin, s};

fn scratch(name: &str) -> scratch::Scratch {
    run::scratch("errors", name)
}

/// A failed run's stderr, checked to be short, to start with `bpeek:` and
/// to come with exit code 2.
fn refused(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("bpeek: "), "{err}");
    assert!(err.lines().count() <= 4, "{err}");
    err
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn decode_reads_ids_from_stdin() {
    let ids: Vec<String> = std::iter::repeat_n(["15496", "995"], 50_000)
        .flatten()
        .map(String::from)
        .collect();
    let input = ids.join(" ");
    let out = bpeek_with_stdin(&["decode", "--tokenizer", "gpt2", "-"], input.as_bytes());
    assert_eq!(stdout(&out), format!("{}\n", "Hello world".repeat(50_000)));
    // The ids list of `encode --format json` can be piped as it is.
    let out = bpeek_with_stdin(&["decode", "--tokenizer", "gpt2", "-"], b"[15496, 995]\n");
    assert_eq!(stdout(&out), "Hello world\n");
    let out = bpeek_with_stdin(&["decode", "--tokenizer", "gpt2", "-"], b"15496 x 995");
    assert!(refused(&out).contains("stdin item 2 'x' is not a token id"));
}

#[test]
fn decode_says_whether_an_id_is_unused_or_too_large() {
    let err = refused(&bpeek(&["decode", "--tokenizer", "cl100k", "100256"]));
    assert!(err.contains("id 100256 is unused"), "{err}");
    let err = refused(&bpeek(&["decode", "--tokenizer", "cl100k", "100277"]));
    assert!(
        err.contains("id 100277 is too large") && err.contains("up to 100276"),
        "{err}"
    );
    let err = refused(&bpeek(&[
        "decode",
        "--tokenizer",
        "cl100k",
        "99999999999999999999999",
    ]));
    assert!(err.contains("is too large"), "{err}");
}

#[test]
fn decode_takes_options_after_the_ids_and_no_ids_at_all() {
    let out = bpeek(&[
        "decode",
        "--tokenizer",
        "gpt2",
        "15496",
        "995",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["text"], "Hello world");
    let out = bpeek(&["decode", "--tokenizer", "gpt2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["text"], "");
    assert_eq!(stdout(&bpeek(&["decode", "--tokenizer", "gpt2"])), "\n");
}

#[test]
fn every_string_round_trips_through_encode_and_decode() {
    for text in ["", " ", "Hello world", "日本語\n\ttabs"] {
        let out = bpeek(&["encode", "--tokenizer", "cl100k", text, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let ids: Vec<String> = v["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.to_string())
            .collect();
        let mut args = vec!["decode", "--tokenizer", "cl100k"];
        args.extend(ids.iter().map(String::as_str));
        args.extend(["--format", "json"]);
        let back: serde_json::Value = serde_json::from_str(&stdout(&bpeek(&args))).unwrap();
        assert_eq!(back["text"], *text);
    }
}

#[test]
fn an_unknown_tokenizer_name_lists_the_built_in_names() {
    for name in ["p50k", "", "llama"] {
        let err = refused(&bpeek(&["encode", "--tokenizer", name, "x"]));
        assert!(err.contains("bytes, gpt2, cl100k, o200k"), "{name}: {err}");
    }
    // Built-in names are taken whatever their case.
    for name in ["GPT2", "Cl100K", "O200K_BASE", "BYTES"] {
        assert!(
            bpeek(&["encode", "--tokenizer", name, "x"])
                .status
                .success()
        );
    }
}

#[test]
fn the_explorer_refuses_a_bad_tokenizer_before_it_starts() {
    // Same message as encode, exit code 2, and no terminal is touched.
    let encode = refused(&bpeek(&["encode", "--tokenizer", "p50k", "x"]));
    let tui = refused(&bpeek(&["tui", "--tokenizer", "p50k"]));
    assert_eq!(tui, encode);
    let dir = scratch("tui-bad");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"model\": 3").unwrap();
    let tui = refused(&bpeek(&["tui", "--tokenizer", s(&broken)]));
    assert!(tui.contains("broken.json: malformed JSON"), "{tui}");
}

#[test]
fn tokenizer_json_errors_name_the_field_and_the_merge() {
    let dir = scratch("json-fields");
    let tok = dir.join("tok.json");
    let mut merges: Vec<serde_json::Value> = (0..12)
        .map(|k| serde_json::json!({"pair": [97, 98 + k]}))
        .collect();
    merges.push(serde_json::json!({"pair": [97, 98, 99]}));
    let doc = serde_json::json!({"format": "bpeek-tokenizer", "version": 1, "mode": "byte",
        "pretok": "gpt2", "tie": "first", "merges": merges});
    std::fs::write(&tok, doc.to_string()).unwrap();
    let err = refused(&bpeek(&["encode", "--tokenizer", s(&tok), "x"]));
    assert!(err.contains("merges[12]: expected two ids, got 3"), "{err}");

    let mut doc = doc;
    doc["merges"] = serde_json::json!([{"pair": [97, "b"]}]);
    std::fs::write(&tok, doc.to_string()).unwrap();
    let err = refused(&bpeek(&["encode", "--tokenizer", s(&tok), "x"]));
    assert!(
        err.contains("merges[0].pair[1]: expected a whole number"),
        "{err}"
    );

    doc["merges"] = serde_json::json!([{"pair": [97, 98], "cuont": 3}]);
    std::fs::write(&tok, doc.to_string()).unwrap();
    let err = refused(&bpeek(&["encode", "--tokenizer", s(&tok), "x"]));
    assert!(err.contains("merges[0]: unknown field 'cuont'"), "{err}");
}

#[test]
fn a_byte_order_mark_before_a_tokenizer_file_is_accepted() {
    let dir = scratch("bom");
    let tok = dir.join("tok.json");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--merges",
        "3",
        "--out",
        s(&tok),
    ]);
    assert!(out.status.success());
    let mut with_bom = "\u{feff}".as_bytes().to_vec();
    with_bom.extend(std::fs::read(&tok).unwrap());
    std::fs::write(&tok, with_bom).unwrap();
    let out = bpeek(&["encode", "--tokenizer", s(&tok), "play"]);
    assert!(
        stdout(&out).contains("bytes -> 1 token"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn char_mode_encode_names_the_file_it_cannot_read() {
    let dir = scratch("char-file");
    let tok = dir.join("char.json");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--mode",
        "char",
        "--merges",
        "3",
        "--out",
        s(&tok),
    ]);
    assert!(out.status.success());
    let latin1 = dir.join("latin1.txt");
    std::fs::write(&latin1, b"caf\xe9").unwrap();
    let err = refused(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&tok),
        "--file",
        s(&latin1),
    ]));
    assert!(
        err.contains("latin1.txt: invalid UTF-8 at byte offset 3"),
        "{err}"
    );
}

#[test]
fn usage_errors_are_short_and_start_with_bpeek() {
    let err = refused(&bpeek(&["train", "--merges", "-1"]));
    assert!(!err.contains("-- -1"), "{err}");
    assert!(
        err.contains("'-1'") && err.contains("whole number"),
        "{err}"
    );
    let err = refused(&bpeek(&["train", "--bogus"]));
    assert!(err.contains("unexpected argument '--bogus'"), "{err}");
    assert!(!err.contains("tip"), "{err}");
    let err = refused(&bpeek(&["encode"]));
    assert!(err.contains("--tokenizer"), "{err}");
    let err = refused(&bpeek(&["trian"]));
    assert!(err.contains("'train'"), "{err}");
    // Help is not an error.
    assert!(bpeek(&["train", "--help"]).status.success());
}

#[test]
fn an_empty_special_token_is_refused_and_a_repeated_one_counts_once() {
    let err = refused(&bpeek(&["train", "--special", ""]));
    assert!(err.contains("cannot be empty"), "{err}");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--vocab-size",
        "259",
        "--special",
        "<|x|>",
        "--special",
        "<|x|>",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["merges"].as_array().unwrap().len(), 2);
    assert_eq!(v["vocab_size"], 259);
}

#[test]
fn a_gpt2_folder_without_vocab_bpe_says_so() {
    let dir = scratch("gpt2-half");
    std::fs::write(dir.join("encoder.json"), "{\"a\": 0}").unwrap();
    let err = refused(&bpeek(&["encode", "--tokenizer", s(&dir), "x"]));
    assert!(err.contains("vocab.bpe is missing"), "{err}");
    let err = refused(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&dir.join("encoder.json")),
        "x",
    ]));
    assert!(err.contains("vocab.bpe is missing"), "{err}");
}

#[test]
fn an_empty_corpus_says_it_is_empty() {
    let out = bpeek_with_stdin(&["train", "-"], b"");
    assert!(stdout(&out).contains("the corpus stdin is empty"));
}

#[test]
fn a_bench_larger_than_memory_is_refused() {
    let err = refused(&bpeek(&["bench", "--megabytes", "1000000000"]));
    assert!(err.contains("memory"), "{err}");
    let err = refused(&bpeek(&["bench", "--merges", "99999999999999999"]));
    assert!(err.contains("memory"), "{err}");
}

#[test]
fn invisible_tokens_are_named_in_merge_lists() {
    let corpus = "\u{feff}hello \u{feff}hello \u{feff}world".as_bytes();
    let out = bpeek_with_stdin(&["train", "-", "--merges", "2"], corpus);
    let text = stdout(&out);
    assert!(text.contains("\"<U+FEFF>\""), "{text}");
    assert!(!text.contains('\u{feff}'), "{text}");
}

#[test]
fn the_bare_command_takes_the_explorers_options() {
    // `bpeek` alone is the explorer, so it reads the explorer's options:
    // a mistake in one is told as the explorer tells it, not as an
    // unknown argument.
    let err = refused(&bpeek(&["--corpus-name", "nosuch", "--mode", "char"]));
    assert!(err.contains("unknown corpus name 'nosuch'"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
    let err = refused(&bpeek(&["--mode", "wide"]));
    assert!(err.contains("--mode"), "{err}");
    // Options of the explorer before a command are still a mistake.
    let err = refused(&bpeek(&["--mode", "char", "train"]));
    assert!(!err.is_empty());
}

#[test]
fn a_lesson_past_its_budget_or_on_a_corpus_that_is_not_there_is_refused_with_its_line() {
    let dir = scratch("lessons");
    let past = dir.join("past.lesson");
    std::fs::write(
        &past,
        "corpus play\noptions --mode char --merges 3\nstep 1 \"one\"\nstep 5 \"five\"\n",
    )
    .unwrap();
    let err = refused(&bpeek(&["tui", "--lesson", s(&past)]));
    assert!(
        err.contains("line 4: step 5 is past the 3 merges the options allow (--merges 3)"),
        "{err}"
    );
    let bytes = dir.join("bytes.lesson");
    std::fs::write(&bytes, "options --vocab-size 260\nstep 5\n").unwrap();
    let err = refused(&bpeek(&["tui", "--lesson", s(&bytes)]));
    assert!(err.contains("line 2: step 5 is past the 4 merges"), "{err}");
    let missing = dir.join("missing.lesson");
    std::fs::write(
        &missing,
        "# a corpus that is not there\ncorpus plya\nstep 2\n",
    )
    .unwrap();
    let err = refused(&bpeek(&["tui", "--lesson", s(&missing)]));
    assert!(
        err.contains("line 2: corpus 'plya': no bundled corpus has that name (bakery, play, tokens, low, echo)"),
        "{err}"
    );
}
