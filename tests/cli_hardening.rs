//! The command line against a hostile user: traces that outgrow their
//! bound while being written, tokenizers training can make but files
//! refuse, escape codes and huge values in error messages, closed input and
//! files that nest too deep.

mod run;
use run::{bpeek, bpeek_with_stdin, s, scratch};
use std::path::Path;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

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
    let _ = bpeek_with_stdin;
}
