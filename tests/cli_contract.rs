//! The command-line contract that scripts rely on: JSON fields, exit codes,
//! one-line errors, and files that are whole or absent.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod run;
mod scratch;
use run::{bpeek, bpeek_with_stdin, s};

fn scratch(name: &str) -> scratch::Scratch {
    run::scratch("cli", name)
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// A failed run: its exit code and its single stderr line.
fn failure(out: &Output) -> (i32, String) {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line on stderr: {err}"
    );
    (out.status.code().unwrap_or(-1), err.trim_end().to_string())
}

/// Train on the bundled `play` corpus and save the tokenizer to `path`.
fn save_play_tokenizer(path: &Path, merges: usize) {
    let merges = merges.to_string();
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--merges",
        &merges,
        "--out",
        s(path),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn train_json_lists_merges_with_counts_and_bytes() {
    let v = json_of(&bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--pretok",
        "whitespace",
        "--merges",
        "20",
        "--format",
        "json",
    ]));
    assert_eq!(v["mode"], "byte");
    assert_eq!(v["pretok"], "whitespace");
    assert_eq!(v["tie"], "first");
    assert_eq!(v["stop"], "budget");
    let merges = v["merges"].as_array().unwrap();
    assert_eq!(merges.len(), 20);
    assert_eq!(merges[10]["rank"], 10);
    assert_eq!(merges[10]["id"], 266);
    assert_eq!(merges[10]["text"], " played");
    assert_eq!(merges[0]["pair"], serde_json::json!([112, 108]));
    assert_eq!(merges[0]["bytes"], serde_json::json!([112, 108]));
    assert_eq!(merges[0]["count"], 10);
    assert_eq!(merges[0]["replacements"], 10);
}

#[test]
fn char_mode_pairs_are_symbol_strings() {
    let v = json_of(&bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--mode",
        "char",
        "--merges",
        "5",
        "--format",
        "json",
    ]));
    assert_eq!(v["merges"][4]["pair"], serde_json::json!(["he", "</w>"]));
    assert_eq!(v["merges"][4]["text"], "he</w>");
}

#[test]
fn train_save_encode_decode_round_trip() {
    let dir = scratch("roundtrip");
    let tok = dir.join("tok.json");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--pretok",
        "whitespace",
        "--merges",
        "20",
        "--out",
        s(&tok),
    ]);
    assert!(out.status.success());
    let v = json_of(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&tok),
        " replayed café",
        "--format",
        "json",
        "--tokens",
    ]));
    assert_eq!(
        v["ids"],
        serde_json::json!([271, 101, 100, 32, 99, 97, 102, 195, 169])
    );
    assert_eq!(v["tokens"][0]["text"], " replay");
    assert_eq!(v["tokens"][0]["id"], 271);
    assert_eq!(
        v["tokens"][8]["text"], "<A9>",
        "half a character shows as hex"
    );
    let text = bpeek(&[
        "decode",
        "--tokenizer",
        s(&tok),
        "271",
        "101",
        "100",
        "32",
        "99",
        "97",
        "102",
        "195",
        "169",
    ]);
    assert_eq!(String::from_utf8_lossy(&text.stdout), " replayed café\n");
    // Stdin and --file give the same ids as the argument.
    let piped = json_of(&bpeek_with_stdin(
        &["encode", "--tokenizer", s(&tok), "-", "--format", "json"],
        " replayed café".as_bytes(),
    ));
    assert_eq!(piped["ids"], v["ids"]);
    std::fs::write(dir.join("in.txt"), " replayed café").unwrap();
    let filed = json_of(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&tok),
        "--file",
        s(&dir.join("in.txt")),
        "--format",
        "json",
    ]));
    assert_eq!(filed["ids"], v["ids"]);
}

#[test]
fn special_tokens_need_the_flag() {
    let dir = scratch("special");
    let tok = dir.join("tok.json");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--merges",
        "5",
        "--special",
        "<|endoftext|>",
        "--out",
        s(&tok),
    ]);
    assert!(out.status.success());
    let literal = json_of(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&tok),
        "<|endoftext|>",
        "--format",
        "json",
    ]));
    assert!(literal["ids"].as_array().unwrap().len() > 1);
    let special = json_of(&bpeek(&[
        "encode",
        "--tokenizer",
        s(&tok),
        "<|endoftext|>",
        "--allow-special",
        "--format",
        "json",
        "--tokens",
    ]));
    assert_eq!(special["ids"], serde_json::json!([261]));
    assert_eq!(special["tokens"][0]["special"], true);
}

#[test]
fn vocab_size_sets_the_budget_and_min_count_stops_early() {
    let v = json_of(&bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--vocab-size",
        "266",
        "--format",
        "json",
    ]));
    assert_eq!(v["merges"].as_array().unwrap().len(), 10);
    assert_eq!(v["vocab_size"], 266);
    let v = json_of(&bpeek(&[
        "train",
        "--corpus-name",
        "low",
        "--pretok",
        "lines",
        "--tie",
        "lex",
        "--min-count",
        "2",
        "--merges",
        "12",
        "--format",
        "json",
    ]));
    assert_eq!(v["stop"], "min_count");
    assert_eq!(v["merges"].as_array().unwrap().len(), 7);
}

#[test]
fn a_budget_larger_than_possible_stops_early_and_says_why() {
    let out = bpeek_with_stdin(&["train", "-", "--merges", "1000"], b"abc abc");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("no pairs left"), "{text}");
}

#[test]
fn an_empty_corpus_gives_zero_merges() {
    let v = json_of(&bpeek_with_stdin(&["train", "-", "--format", "json"], b""));
    assert_eq!(v["merges"].as_array().unwrap().len(), 0);
    assert_eq!(v["stop"], "no_pairs");
}

#[test]
fn invalid_utf8_is_fine_in_byte_mode_and_an_error_in_char_mode() {
    let v = json_of(&bpeek_with_stdin(
        &["train", "-", "--format", "json", "--merges", "1"],
        b"ab\xffab\xff",
    ));
    assert_eq!(v["merges"].as_array().unwrap().len(), 1);
    let (code, err) = failure(&bpeek_with_stdin(
        &["train", "-", "--mode", "char"],
        b"ok ab\xffab",
    ));
    assert_eq!(code, 2);
    assert!(err.contains("byte offset 5"), "{err}");
}

#[test]
fn trace_records_every_round() {
    let dir = scratch("trace");
    let trace = dir.join("trace.json");
    let out = bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--pretok",
        "whitespace",
        "--merges",
        "3",
        "--trace",
        s(&trace),
        "--trace-top",
        "4",
    ]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    assert_eq!(v["format"], "bpeek-trace");
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    assert_eq!(rounds[0]["candidates"].as_array().unwrap().len(), 4);
    assert_eq!(rounds[0]["winner"]["pair"], serde_json::json!([112, 108]));
    assert_eq!(rounds[0]["winner"]["count"], 10);
    // `pl`, `la` and `ay` all occur 10 times: the rivals of the first round.
    assert_eq!(rounds[0]["tied_total"], 2);
    assert_eq!(rounds[0]["replacements"], 10);
    assert_eq!(v["stop"], "budget");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left: {leftovers:?}");
}

#[test]
fn bad_input_gets_one_clear_line_and_exit_code_2() {
    let dir = scratch("bad");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["train".into(), s(&dir.join("missing.txt")).into()],
            "missing.txt: cannot read: no such file",
        ),
        (vec!["train".into(), s(&dir).into()], "is a directory"),
        (
            vec!["train".into(), "--pretok".into(), "bert".into()],
            "valid: none, lines, whitespace, spaces, gpt2, cl100k, o200k",
        ),
        (
            vec!["train".into(), "--tie".into(), "max".into()],
            "valid: first, lex",
        ),
        (
            vec!["train".into(), "--mode".into(), "word".into()],
            "valid: byte, char",
        ),
        (
            vec!["train".into(), "--corpus-name".into(), "nope".into()],
            "valid: bakery, play, tokens, low",
        ),
        (
            vec!["train".into(), "--vocab-size".into(), "100".into()],
            "smaller than the base vocabulary",
        ),
        (
            vec![
                "train".into(),
                "--mode".into(),
                "char".into(),
                "--pretok".into(),
                "gpt2".into(),
            ],
            "byte mode only",
        ),
    ];
    for (args, expect) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, err) = failure(&bpeek(&args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn unreadable_corpus_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("unreadable");
    let file = dir.join("secret.txt");
    std::fs::write(&file, "abc").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&file).is_ok() {
        eprintln!("note: running with privileges that read any file; permission check skipped");
        return;
    }
    let (code, err) = failure(&bpeek(&["train", s(&file)]));
    assert_eq!(code, 2);
    assert!(
        err.contains("secret.txt: cannot read: permission denied"),
        "{err}"
    );
}

#[test]
fn broken_tokenizer_files_are_rejected_with_the_field_named() {
    let dir = scratch("tokfiles");
    let good = dir.join("good.json");
    save_play_tokenizer(&good, 3);
    let text = std::fs::read_to_string(&good).unwrap();
    let mut forward: Value = serde_json::from_str(&text).unwrap();
    forward["merges"][1]["pair"] = serde_json::json!([300, 97]);
    let mut version: Value = serde_json::from_str(&text).unwrap();
    version["version"] = serde_json::json!(99);
    let mut pretok: Value = serde_json::from_str(&text).unwrap();
    pretok["pretok"] = serde_json::json!("bert");
    let cases = [
        (
            "truncated.json",
            text[..text.len() / 2].to_string(),
            "malformed JSON",
        ),
        ("garbage.json", "not json".to_string(), "malformed JSON"),
        (
            "forward.json",
            forward.to_string(),
            "merges[1].pair: left id 300 is not defined yet",
        ),
        (
            "version.json",
            version.to_string(),
            "unsupported version 99",
        ),
        (
            "pretok.json",
            pretok.to_string(),
            "field 'pretok': unknown pre-tokenizer 'bert'",
        ),
    ];
    for (name, body, expect) in cases {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let (code, err) = failure(&bpeek(&["encode", "--tokenizer", s(&path), "hello"]));
        assert_eq!(code, 2, "{name}");
        assert!(err.contains(name) && err.contains(expect), "{name}: {err}");
    }
}

#[test]
fn decode_rejects_bad_ids() {
    let dir = scratch("decode");
    let tok = dir.join("tok.json");
    save_play_tokenizer(&tok, 3);
    let (code, err) = failure(&bpeek(&["decode", "--tokenizer", s(&tok), "104", "x1"]));
    assert_eq!(code, 2);
    assert!(err.contains("argument 2 'x1' is not a token id"), "{err}");
    let (code, err) = failure(&bpeek(&["decode", "--tokenizer", s(&tok), "-1"]));
    assert_eq!(code, 2);
    assert!(err.contains("'-1' is not a token id"), "{err}");
    let (code, err) = failure(&bpeek(&["decode", "--tokenizer", s(&tok), "104", "259"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("argument 2: id 259 is too large") && err.contains("up to 258"),
        "{err}"
    );
}

#[test]
fn failed_runs_leave_no_file_and_never_touch_existing_ones() {
    let dir = scratch("atomic");
    let existing = dir.join("tok.json");
    std::fs::write(&existing, "precious").unwrap();
    // Training fails on a missing corpus: the old output stays as it was.
    let out = bpeek(&["train", s(&dir.join("missing.txt")), "--out", s(&existing)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "precious");
    // Writing into a folder that does not exist is bad input: code 2.
    let nowhere = dir.join("no-such-dir").join("tok.json");
    let (code, err) = failure(&bpeek(&[
        "train",
        "--corpus-name",
        "play",
        "--out",
        s(&nowhere),
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("cannot write"), "{err}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_closed_pipe_is_not_a_crash() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["train", "--corpus-name", "tokens", "--pretok", "spaces"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped here, closing the pipe.
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn corpora_lists_as_json_what_it_lists_as_text() {
    let text = bpeek(&["corpora"]);
    let json = bpeek(&["corpora", "--format", "json"]);
    assert!(text.status.success() && json.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let listed = String::from_utf8_lossy(&text.stdout);
    let names: Vec<&str> = ["corpora", "lessons"]
        .iter()
        .flat_map(|k| doc[*k].as_array().unwrap())
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"bakery") && names.contains(&"classic"),
        "{names:?}"
    );
    for (line, name) in listed.lines().zip(&names) {
        assert!(line.starts_with(name), "{line} / {name}");
    }
    assert_eq!(listed.lines().count(), names.len());
    assert_eq!(
        doc["corpora"][0]["bytes"],
        bpeek::corpora::BUNDLED[0].text.len()
    );
}

#[test]
fn bench_gives_its_figures_as_json_and_they_agree_with_each_other() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/default.txt");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args([
            "bench", "--corpus", corpus, "--merges", "40", "--format", "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    // The bundled story has more than 40 merges in it.
    assert_eq!(v["step"]["timed"], 40);
    assert_eq!(v["seek"]["to"], 40);
    assert_eq!(v["step_back"]["timed"], 40);
    let median = v["step"]["median_ms"].as_f64().unwrap();
    let slowest = v["step"]["slowest_ms"].as_f64().unwrap();
    assert!(median <= slowest, "{v}");
    assert_eq!(v["pretok"], "gpt2");
    let bytes = std::fs::metadata(corpus).unwrap().len() as f64;
    assert_eq!(
        v["corpus"]["megabytes"].as_f64().unwrap(),
        (bytes / 1e3).round() / 1e3
    );
}

/// Each row of `train`'s text report says what the JSON report says of the
/// same merge, laid out as `format!` lays it out: rank, id, count, places
/// replaced, the score where one is asked for, and the two tokens and the
/// new one shown as the explorer shows them. The corpus holds controls,
/// invisible characters, joiners and pieces of characters.
#[test]
fn the_text_report_rows_say_what_the_json_report_says() {
    use bpeek::bpe::display::token_visible;
    let dir = scratch("report-rows");
    let mut corpus = String::new();
    for line in [
        "the cat\tsat on the mat\r\n",
        "ça va\u{7}? naïve café \u{feff}bom dia\n",
        "👨\u{200d}👩 emoji \u{200d}joiner ❤\u{fe0f}\n",
        "日本語のテキスト 中文 русский текст\n",
    ] {
        corpus.push_str(&line.repeat(7));
    }
    let path = dir.file("corpus.txt", corpus.as_bytes());
    for extra in [&[][..], &["--score", "wordpiece"], &["--pretok", "none"]] {
        let run = |format: &str| {
            let mut args = vec!["train", s(&path), "--merges", "300", "--format", format];
            args.extend_from_slice(extra);
            bpeek(&args)
        };
        let report = json_of(&run("json"));
        let text = run("text");
        assert!(text.status.success());
        let rows: Vec<&str> = std::str::from_utf8(&text.stdout)
            .unwrap()
            .lines()
            .skip(2)
            .take_while(|l| !l.starts_with("stopped"))
            .collect();
        let merges = report["merges"].as_array().unwrap();
        assert_eq!(rows.len(), merges.len(), "{extra:?}");
        let mut bytes_of: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        for (row, m) in rows.iter().zip(merges) {
            let field = |k: &str| m[k].as_u64().unwrap();
            let bytes: Vec<u8> = m["bytes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap() as u8)
                .collect();
            bytes_of.push(bytes);
            let shown = |id: &Value| token_visible(&bytes_of[id.as_u64().unwrap() as usize]);
            let mut want = format!(
                "{:>5} {:>7} {:>9} {:>9}",
                field("rank"),
                field("id"),
                field("count"),
                field("replacements")
            );
            if !extra.is_empty() && extra[1] == "wordpiece" {
                want += &format!(" {:>9.4}", m["score"]["value"].as_f64().unwrap());
            }
            want += &format!(
                "  \"{}\" + \"{}\" -> \"{}\"",
                shown(&m["pair"][0]),
                shown(&m["pair"][1]),
                shown(&m["id"])
            );
            assert_eq!(*row, want, "{extra:?}");
        }
    }
}

/// `bpeek fertility notes.txt` measures the nine characters of the name:
/// the run says so on stderr, names the flag that reads the file, and
/// still does what it was asked. Text that names no file gets no note.
#[test]
fn a_text_that_names_a_file_is_measured_as_text_with_a_note() {
    let dir = scratch("text-names-a-file");
    let path = dir.file("notes.txt", "the file's own words, many more than the name");
    let name = s(&path);
    for (command, verb) in [("fertility", "measures"), ("encode", "encodes")] {
        let out = bpeek(&[command, "--tokenizer", "gpt2", name, "--format", "json"]);
        let v = json_of(&out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{verb} the text")),
            "{command}: {err}"
        );
        assert!(err.contains(&format!("--file {name}")), "{command}: {err}");
        let bytes = match command {
            "encode" => v["bytes"].as_u64(),
            _ => v["rows"][0]["bytes"].as_u64(),
        };
        assert_eq!(bytes, Some(name.len() as u64), "{command}: {v}");
        let plain = bpeek(&[command, "--tokenizer", "gpt2", "no such file here"]);
        assert!(plain.status.success());
        assert!(
            plain.stderr.is_empty(),
            "{command}: {}",
            String::from_utf8_lossy(&plain.stderr)
        );
    }
}
