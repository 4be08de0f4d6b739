//! The command line against a hostile user: traces that outgrow their
//! bound while being written, tokenizers training can make but files
//! refuse, escape codes and huge values in error messages, closed input and
//! files that nest too deep.

mod run;
mod scratch;
use run::{bpeek, bpeek_with_stdin, names_in, s, scratch, stderr};
use std::path::Path;

/// Words with `\r`, `\n` and `\r\n` between them, as a file made on several
/// systems has: with `--pretok none` the pairs grow with every round, so
/// round 0's count says little of how big the trace gets.
fn mixed_line_breaks(bytes: usize) -> Vec<u8> {
    let words = ["the", "baker", "bread", "oven", "morning", "flour", "sold"];
    let breaks = ["\r", "\n", "\r\n"];
    let mut out = Vec::new();
    let mut x = 7u32;
    while out.len() < bytes {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        out.extend_from_slice(words[(x >> 16) as usize % words.len()].as_bytes());
        out.extend_from_slice(breaks[(x >> 8) as usize % breaks.len()].as_bytes());
    }
    out
}

#[test]
fn a_trace_that_passes_its_bound_while_written_stops_and_leaves_nothing() {
    let dir = scratch("hardening", "trace-bound");
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, mixed_line_breaks(20_000)).unwrap();
    let trace = dir.join("trace.json");
    std::fs::write(&trace, "kept\n").unwrap();
    let args = [
        "train",
        s(&corpus),
        "--pretok",
        "none",
        "--merges",
        "300",
        "--trace",
        s(&trace),
        "--trace-max",
        "600kB",
    ];
    // The estimate from round 0 is below the bound: only writing finds it.
    let out = bpeek(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("--trace: the trace reached --trace-max 600 kB after"),
        "{err}"
    );
    assert!(err.contains("--trace-top"), "{err}");
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), "kept\n");
    assert_eq!(names_in(&dir), ["corpus.txt", "trace.json"]);

    // Under the bound the same run writes a whole trace.
    let mut roomy = args;
    roomy[9] = "1GB";
    let out = bpeek(&roomy);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    assert_eq!(v["rounds"].as_array().unwrap().len(), 300);
    assert!(std::fs::metadata(&trace).unwrap().len() > 600_000);
}

#[test]
fn a_trace_bound_is_a_size_as_written() {
    let out = bpeek(&["train", "--trace", "t.json", "--trace-max", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("\"lots\" is not a size"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_trace_estimated_past_its_bound_is_refused_before_training() {
    let dir = scratch("hardening", "trace-estimate");
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, mixed_line_breaks(20_000)).unwrap();
    let trace = dir.join("trace.json");
    let out = bpeek(&[
        "train",
        s(&corpus),
        "--trace",
        s(&trace),
        "--trace-max",
        "1kB",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("above --trace-max 1 kB"),
        "{}",
        stderr(&out)
    );
    assert_eq!(names_in(&dir), ["corpus.txt"]);
}

/// A bpeek tokenizer file whose `pretok` is `value`.
fn tokenizer_with_pretok(dir: &Path, value: &str) -> String {
    let path = dir.join("tokenizer.json");
    let doc = serde_json::json!({"format": "bpeek-tokenizer", "version": 1, "mode": "byte",
        "pretok": value, "tie": "first", "merges": []});
    std::fs::write(&path, doc.to_string()).unwrap();
    s(&path).to_string()
}

#[test]
fn a_value_from_a_file_cannot_put_escape_codes_on_the_terminal() {
    let dir = scratch("hardening", "escapes");
    let evil = "\u{1b}]0;PWNED\u{7}\u{1b}[31mRED\u{1b}[0m\r\nfake line";
    let file = tokenizer_with_pretok(&dir, evil);
    let out = bpeek(&["encode", "--tokenizer", &file, "hi"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(
        err.contains(
            "unknown pre-tokenizer '\\u{1b}]0;PWNED\\u{7}\\u{1b}[31mRED\\u{1b}[0m\\r\\nfake line'"
        ),
        "{err}"
    );
    // The same for a field name, a mode and a tie rule.
    for (field, value) in [("mode", "\u{1b}[2J"), ("tie", "\u{7}\u{7}")] {
        let path = dir.join(format!("{field}.json"));
        let mut doc = serde_json::json!({"format": "bpeek-tokenizer", "version": 1, "mode": "byte",
            "pretok": "gpt2", "tie": "first", "merges": []});
        doc[field] = value.into();
        doc["\u{1b}[1mbold"] = 1.into();
        std::fs::write(&path, doc.to_string()).unwrap();
        let out = bpeek(&["encode", "--tokenizer", s(&path), "hi"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    }
}

#[test]
fn a_huge_value_is_quoted_in_part() {
    let dir = scratch("hardening", "huge-value");
    let file = tokenizer_with_pretok(&dir, &"x".repeat(1 << 20));
    let out = bpeek(&["encode", "--tokenizer", &file, "hi"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.len() < 600,
        "{} bytes: {}",
        err.len(),
        &err[..600.min(err.len())]
    );
    assert!(
        err.contains(&format!("'{}…' (1048576 characters)", "x".repeat(100))),
        "{err}"
    );
    assert!(err.contains("(valid: none, lines"), "{err}");
}

#[test]
fn a_file_that_nests_too_deep_says_so_and_the_bound() {
    let dir = scratch("hardening", "deep");
    let path = dir.join("deep.json");
    std::fs::write(&path, format!("{}{}", "[".repeat(200), "]".repeat(200))).unwrap();
    let out = bpeek(&["encode", "--tokenizer", s(&path), "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the JSON nests deeper than 128 levels"),
        "{}",
        stderr(&out)
    );
}

/// Training never makes a token its own files refuse: it stops first and
/// says why, and every file it writes loads back.
#[test]
fn training_stops_before_a_token_its_files_would_refuse() {
    let dir = scratch("hardening", "long-token");
    let corpus = dir.join("a.txt");
    std::fs::write(&corpus, format!("{}\n", "a".repeat(200_000))).unwrap();
    for (format, spec_suffix, bound) in [
        ("bpeek", "", 65_536),
        ("hf", "", 4_096),
        ("tiktoken", ":gpt2", 4_096),
    ] {
        let out_file = dir.join(format!("t.{format}"));
        let out = bpeek(&[
            "train",
            s(&corpus),
            "--out",
            s(&out_file),
            "--out-format",
            format,
            "--format",
            "json",
            "-q",
        ]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["stop"], "token_too_long", "{format}");
        let longest = report["merges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["bytes"].as_array().unwrap().len() as u64)
            .max()
            .unwrap();
        assert!(
            longest <= bound && longest * 2 > bound,
            "{format}: {longest}"
        );
        let spec = format!("{}{spec_suffix}", s(&out_file));
        let out = bpeek(&["encode", "--tokenizer", &spec, "aaaa"]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
    }
}

#[test]
fn a_closed_standard_input_is_an_error_not_an_empty_corpus() {
    for args in ["train -", "encode --tokenizer gpt2 -", "fertility -"] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} <&-"))
            .arg(env!("CARGO_BIN_EXE_bpeek"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("standard input is closed"),
            "{args}: {}",
            stderr(&out)
        );
    }
    // An empty one is still a corpus, of nothing.
    let out = bpeek_with_stdin(&["train", "-"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `bpeek ARGS` with its address space limited to `kb` kilobytes (the
/// shell's `ulimit -v`), as a small machine or a container has.
fn bpeek_in(kb: u64, args: &[&str]) -> std::process::Output {
    let mut line = format!("ulimit -v {kb} && exec '{}'", env!("CARGO_BIN_EXE_bpeek"));
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    std::process::Command::new("sh")
        .args(["-c", &line])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_corpus_too_big_for_memory_is_an_error_that_leaves_no_file() {
    let dir = scratch("hardening", "out-of-memory");
    let corpus = dir.join("one-line.txt");
    // One chunk of 100 MB with --pretok none: far past 250 MB of memory.
    std::fs::write(&corpus, vec![b'a'; 100_000_000]).unwrap();
    let out_file = dir.join("t.json");
    let train = [
        "train",
        s(&corpus),
        "--pretok",
        "none",
        "--merges",
        "5",
        "--out",
        s(&out_file),
    ];
    let encode = ["encode", "--tokenizer", "gpt2", "--file", s(&corpus)];
    for args in [&train[..], &encode[..]] {
        let out = bpeek_in(250_000, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.starts_with("bpeek: out of memory: ") && err.contains("MB more could not be had"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("memory allocation of"), "no abort: {err}");
    }
    assert_eq!(names_in(&dir), ["one-line.txt"], "no file left behind");
}
