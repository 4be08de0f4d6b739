//! `.tiktoken` rank files read as tiktoken's own loader reads them
//! (`tiktoken.load.load_tiktoken_bpe`, then `tiktoken.Encoding`): each
//! crafted file (an empty token as Whisper's last line, blank lines,
//! trailing spaces, CRLF and lone CR, tabs, a token or a rank given twice,
//! lenient base64, Python's spellings of numbers) is taken by bpeek exactly
//! when tiktoken takes it, with the same ranks and the same ids on a few
//! texts. Where Python or its `tiktoken` package is missing the test says
//! so and passes, except under CI (`CI=true`), where it is a failure.

mod python;
mod scratch;

use base64::Engine;
use bpeek::bpe::Pretok;
use bpeek::bpe::formats::import;
use bpeek::bpe::pretokenize::pretok::CL100K_PATTERN;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

/// Python that loads each file with tiktoken and encodes the texts:
/// prints, for each file, `{"error"}` or `{"ranks": [[rank, hex]], "ids"}`.
const LOAD: &str = r#"
import json, sys
import tiktoken
from tiktoken.load import load_tiktoken_bpe
job = json.load(sys.stdin)
out = []
for path in job["files"]:
    try:
        ranks = load_tiktoken_bpe(path)
        enc = tiktoken.Encoding("t", pat_str=job["pattern"], mergeable_ranks=ranks, special_tokens={})
        ids = [enc.encode_ordinary(t) for t in job["texts"]]
        out.append({"ranks": sorted([r, b.hex()] for b, r in ranks.items()), "ids": ids})
    # A duplicate rank panics in tiktoken's Rust core: not an Exception.
    except BaseException as e:
        out.append({"error": "%s: %s" % (type(e).__name__, e)})
print(json.dumps(out))
"#;

fn python() -> Option<String> {
    python::with_module("tiktoken", "tiktoken")
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The 256 bytes as ranks 0-255, one a line, then `tail` as written.
fn with_bytes(tail: &str) -> String {
    let mut s: String = (0..=255u8)
        .map(|b| format!("{} {b}\n", b64(&[b])))
        .collect();
    s.push_str(tail);
    s
}

/// The crafted files, by name.
fn cases() -> Vec<(&'static str, String)> {
    let ab = b64(b"ab");
    let abc = b64(b"abc");
    vec![
        (
            "empty token last, as Whisper",
            with_bytes(&format!("{ab} 256\n= 257\n")),
        ),
        (
            "empty token in the middle",
            with_bytes(&format!("= 256\n{ab} 257\n")),
        ),
        (
            "blank lines",
            with_bytes(&format!("\n{ab} 256\n\n\n{abc} 257\n\n")),
        ),
        (
            "spaces alone on a line",
            with_bytes(&format!("{ab} 256\n   \n")),
        ),
        (
            "trailing spaces",
            with_bytes(&format!("{ab} 256   \n{abc} 257 \t\n")),
        ),
        ("leading spaces", with_bytes(&format!("  {ab} 256\n"))),
        (
            "CRLF",
            with_bytes(&format!("{ab} 256\r\n{abc} 257\r\n"))
                .replace('\n', "\r\n")
                .replace("\r\r", "\r"),
        ),
        ("lone CR", with_bytes(&format!("{ab} 256\r{abc} 257\r"))),
        (
            "tab, vertical tab, form feed",
            with_bytes(&format!("{ab}\t256\n{abc}\u{b}\u{c}257\n")),
        ),
        ("no break at the end", with_bytes(&format!("{ab} 256"))),
        (
            "a rank given twice",
            with_bytes(&format!("{ab} 256\n{abc} 256\n")),
        ),
        (
            "a token given twice",
            with_bytes(&format!("{ab} 256\n{abc} 257\n{ab} 258\n")),
        ),
        (
            "a token twice, its first rank taken again",
            with_bytes(&format!("{ab} 256\n{ab} 257\n{abc} 256\n")),
        ),
        ("three fields", with_bytes(&format!("{ab} 256 x\n"))),
        ("one field", with_bytes(&format!("{ab}\n"))),
        (
            "a no-break space between",
            with_bytes(&format!("{ab}\u{a0}256\n")),
        ),
        (
            "an information separator between",
            with_bytes(&format!("{ab}\u{1c}256\n")),
        ),
        (
            "ranks with sign and underscores",
            with_bytes(&format!("{ab} +2_56\n{abc} 0257\n")),
        ),
        ("a rank of -0", with_bytes(&format!("{ab} -0\n"))),
        ("a negative rank", with_bytes(&format!("{ab} -256\n"))),
        (
            "a rank of 2^64",
            with_bytes(&format!("{ab} 18446744073709551616\n")),
        ),
        (
            "a rank with two underscores",
            with_bytes(&format!("{ab} 2__56\n")),
        ),
        ("a hexadecimal rank", with_bytes(&format!("{ab} 0x100\n"))),
        (
            "gaps between ranks",
            with_bytes(&format!("{ab} 300\n{abc} 290\n")),
        ),
        ("base64 with junk inside", with_bytes("Y*W!I= 256\n")),
        ("base64 without padding", with_bytes("YWI 256\n")),
        ("base64 of 4n+1 characters", with_bytes("YWJjZ 256\n")),
        (
            "base64 going on after its padding",
            with_bytes("YWI=YWJj 256\n"),
        ),
        ("base64 with spare bits set", with_bytes("YWJ= 256\n")),
        ("base64 of padding alone", with_bytes("==== 256\n")),
        (
            "a byte order mark",
            format!("\u{feff}{}", with_bytes(&format!("{ab} 256\n"))),
        ),
        (
            "a byte order mark alone on a line",
            format!("\u{feff}\n{}", with_bytes("")),
        ),
        ("empty", String::new()),
        ("blank lines alone", "\n\n\r\n".to_string()),
    ]
}

/// What tiktoken made of each file.
fn tiktoken_answers(python: &str, files: &[String], texts: &[&str]) -> Vec<Value> {
    let mut child = Command::new(python)
        .args(["-c", LOAD])
        // Read each file afresh: tiktoken caches what it reads by path.
        .env("TIKTOKEN_CACHE_DIR", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let job = json!({"files": files, "pattern": CL100K_PATTERN, "texts": texts});
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

#[test]
fn rank_files_are_taken_exactly_when_tiktoken_takes_them() {
    let Some(python) = python() else {
        return;
    };
    let dir = scratch::Scratch::new("tiktoken-corners");
    let cases = cases();
    let files: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, text))| {
            dir.file(&format!("{i}.tiktoken"), text)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let texts = ["abc ab a", "ab\r\nabc  abcab", "héllo 123"];
    let answers = tiktoken_answers(&python, &files, &texts);
    // Both kinds are among the cases, or the comparison would be of one.
    let refused = answers.iter().filter(|a| a.get("error").is_some()).count();
    assert!(refused > 0 && refused < answers.len(), "{refused} refused");
    for ((name, text), theirs) in cases.iter().zip(&answers) {
        let ours = import::tiktoken("t.tiktoken", text, Pretok::Cl100k);
        match (ours, theirs.get("error")) {
            (Err(e), Some(_)) => {
                // Refused by both: bpeek says where.
                let e = e.to_string();
                assert!(e.contains("line ") || e.contains("no ranks"), "{name}: {e}");
            }
            (Err(e), None) => panic!("{name}: tiktoken takes the file, bpeek refuses it: {e}"),
            (Ok(_), Some(why)) => {
                panic!("{name}: bpeek takes the file, tiktoken refuses it: {why}")
            }
            (Ok(tok), None) => {
                for pair in theirs["ranks"].as_array().unwrap() {
                    let rank = pair[0].as_u64().unwrap() as u32;
                    let want = pair[1].as_str().unwrap();
                    let got: String = tok
                        .vocab()
                        .token_bytes(rank)
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect();
                    assert_eq!(got, want, "{name}: rank {rank}");
                }
                let count = theirs["ranks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p[1] != "")
                    .count();
                let ours = (0..tok.vocab().len() as u32)
                    .filter(|&id| tok.contains(id))
                    .count();
                assert_eq!(ours, count, "{name}: the number of tokens");
                for (t, want) in texts.iter().zip(theirs["ids"].as_array().unwrap()) {
                    let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
                    assert_eq!(tok.encode(t, false), want, "{name}: ids of {t:?}");
                }
            }
        }
    }
}

#[test]
fn a_byte_that_is_no_utf8_is_passed_over_in_a_token_and_refused_in_a_rank() {
    let Some(python) = python() else {
        return;
    };
    let dir = scratch::Scratch::new("tiktoken-bytes");
    let mut in_token = with_bytes("").into_bytes();
    in_token.extend_from_slice(b"YW\xffI= 256\n");
    let mut in_rank = with_bytes("").into_bytes();
    in_rank.extend_from_slice(b"YWI= 25\xff6\n");
    let files: Vec<String> = [in_token, in_rank]
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            dir.file(&format!("{i}.tiktoken"), bytes)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let answers = tiktoken_answers(&python, &files, &["ab abab"]);
    // tiktoken takes the first, with "ab" at rank 256, and refuses the second.
    let ranks = answers[0]["ranks"].as_array().unwrap();
    assert!(
        ranks.iter().any(|p| p[0] == 256 && p[1] == "6162"),
        "{}",
        answers[0]
    );
    assert!(answers[1].get("error").is_some(), "{}", answers[1]);
    let tok = bpeek::bpe::formats::load::load(&format!("{}:cl100k", files[0])).unwrap();
    assert_eq!(tok.vocab().token_bytes(256), b"ab");
    let want: Vec<u32> = serde_json::from_value(answers[0]["ids"][0].clone()).unwrap();
    assert_eq!(tok.encode("ab abab", false), want);
    let err = bpeek::bpe::formats::load::load(&format!("{}:cl100k", files[1])).unwrap_err();
    assert!(err.to_string().contains("line 257"), "{err}");
}
