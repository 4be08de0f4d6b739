//! `encode`'s outputs for programs: the ids alone, binary arrays, the
//! count, and a line per text with `--lines`, each holding exactly the ids
//! the library gives (and a long text encoded on every core holding the
//! ids of one pass).

use bpeek::bpe::formats::builtin;

mod run;
mod scratch;

fn bpeek(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = run::bpeek_with_stdin(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Lines of words, digits, spaces, punctuation and several scripts.
fn random_lines(seed: u64, lines: usize) -> Vec<u8> {
    let pieces = [
        "the",
        " baker",
        "  ",
        "12345",
        " 7",
        "!?",
        "é",
        "日本語",
        "👍🏽",
        "\t",
        "'s",
        "ா",
        "<|endoftext|>",
        " Zebra",
        "...",
    ];
    let mut s = seed;
    let mut next = move |n: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as usize
    };
    let mut text = Vec::new();
    for _ in 0..lines {
        for _ in 0..next(12) {
            text.extend_from_slice(pieces[next(pieces.len())].as_bytes());
        }
        text.extend_from_slice(if next(5) == 0 { b"\r\n" } else { b"\n" });
    }
    text
}

/// The `ids` of a JSON report.
fn ids_of(report: &serde_json::Value) -> Vec<u32> {
    let ids = report["ids"].as_array().expect("an ids array");
    ids.iter().map(|n| n.as_u64().unwrap() as u32).collect()
}

fn numbers(text: &[u8]) -> Vec<u32> {
    String::from_utf8_lossy(text)
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn ids_u32_npy_and_count_hold_the_ids_the_library_gives() {
    let text = random_lines(3, 40);
    for name in ["gpt2", "cl100k", "o200k"] {
        let tok = builtin::load(name).unwrap();
        let want = tok.encode_bytes(&text, false).unwrap();
        let args = |format: &str| {
            ["encode", "--tokenizer", name, "-", "--format", format].map(String::from)
        };
        let run = |format: &str, extra: &[&str]| {
            let mut a: Vec<String> = args(format).to_vec();
            a.extend(extra.iter().map(|s| s.to_string()));
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            bpeek(&a, &text)
        };
        assert_eq!(numbers(&run("ids", &[])), want, "{name} ids");
        let u32s: Vec<u32> = run("u32", &[])
            .chunks(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(u32s, want, "{name} u32");
        let npy = run("npy", &[]);
        let header = 10 + u16::from_le_bytes([npy[8], npy[9]]) as usize;
        assert_eq!(header % 64, 0);
        let dict = String::from_utf8_lossy(&npy[10..header]);
        assert!(dict.contains("'descr': '<u4'"), "{dict}");
        assert!(
            dict.contains(&format!("'shape': ({},)", want.len())),
            "{dict}"
        );
        assert_eq!(&npy[header..], &run("u32", &[])[..], "{name} npy data");
        assert_eq!(
            String::from_utf8(run("ids", &["--count"])).unwrap(),
            format!("{}\n", want.len())
        );
        let json: serde_json::Value = serde_json::from_slice(&run("json", &["--count"])).unwrap();
        assert_eq!(json["token_count"], want.len());
        assert_eq!(json["bytes"], text.len());
    }
}

#[test]
fn each_line_is_its_own_text_in_order() {
    // Enough lines that every core gets a block of its own.
    let text = random_lines(11, 3000);
    let tok = builtin::load("cl100k").unwrap();
    let lines: Vec<&[u8]> = {
        let mut l: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        l.pop();
        l.into_iter()
            .map(|x| x.strip_suffix(b"\r").unwrap_or(x))
            .collect()
    };
    let by_line = |extra: &[&str]| {
        let mut args = vec!["encode", "--tokenizer", "cl100k", "-", "--lines"];
        args.extend(extra);
        bpeek(&args, &text)
    };
    let ids = by_line(&["--format", "ids"]);
    let out: Vec<&str> = std::str::from_utf8(&ids).unwrap().lines().collect();
    assert_eq!(out.len(), lines.len());
    let jsonl = by_line(&["--format", "json"]);
    let counts = by_line(&["--count"]);
    let counts: Vec<usize> = numbers(&counts).into_iter().map(|n| n as usize).collect();
    for (k, (line, json)) in lines
        .iter()
        .zip(std::str::from_utf8(&jsonl).unwrap().lines())
        .enumerate()
    {
        let want = tok.encode_bytes(line, false).unwrap();
        assert_eq!(numbers(out[k].as_bytes()), want, "line {}", k + 1);
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(ids_of(&v), want, "line {}", k + 1);
        assert_eq!(v["bytes"], line.len());
        assert_eq!(counts[k], want.len());
    }
}

/// A text long enough to be cut into parts on every core: the ids of one
/// pass, for each built-in byte-level tokenizer.
#[test]
fn a_long_text_encoded_on_every_core_has_the_ids_of_one_pass() {
    let mut text = random_lines(5, 60_000);
    text.retain(|&b| b != b'<'); // no special-token text: plain ids
    assert!(text.len() > 1 << 20, "{}", text.len());
    for name in ["gpt2", "cl100k", "o200k"] {
        let tok = builtin::load(name).unwrap();
        let want = tok.encode_bytes(&text, false).unwrap();
        let got = bpeek(
            &["encode", "--tokenizer", name, "-", "--format", "ids"],
            &text,
        );
        assert_eq!(numbers(&got), want, "{name}");
        let json = bpeek(
            &["encode", "--tokenizer", name, "-", "--format", "json"],
            &text,
        );
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(ids_of(&v), want, "{name}, json");
        assert_eq!(v["token_count"], want.len(), "{name}, json");
        let count = bpeek(&["encode", "--tokenizer", name, "-", "--count"], &text);
        assert_eq!(numbers(&count), [want.len() as u32], "{name}, --count");
    }
}

#[test]
fn binary_output_with_lines_or_count_is_refused() {
    for extra in [["--lines"], ["--count"]] {
        let mut args = vec!["encode", "--tokenizer", "gpt2", "hi", "--format", "u32"];
        args.extend(extra);
        let out = run::bpeek_with_stdin(&args, b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(!out.stderr.is_empty());
    }
}
