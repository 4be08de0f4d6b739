//! What goes to stdout and stderr when output is not a terminal: the
//! streamed JSON of `encode` is byte for byte the JSON value it stands for,
//! and `train` shows no progress bar on a pipe.

use bpeek::bpe::display::token_text;
use bpeek::bpe::formats::builtin;
use serde_json::json;

mod run;
mod scratch;

fn bpeek(args: &[&str], stdin: &[u8]) -> std::process::Output {
    run::bpeek_with_stdin(args, stdin)
}

#[test]
fn streamed_encode_json_is_the_json_value_byte_for_byte() {
    // Quotes, backslashes, control characters, a special token, a lone
    // continuation byte and a character cut across tokens.
    let mut text =
        b"He said \"hi\\there\"\t\x01<|endoftext|> caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac ".to_vec();
    text.push(0x80);
    text.extend_from_slice("\n  end 12345".as_bytes());
    let out = bpeek(
        &[
            "encode",
            "--tokenizer",
            "gpt2",
            "-",
            "--allow-special",
            "--format",
            "json",
            "--tokens",
        ],
        &text,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let tokenizer = builtin::load("gpt2").unwrap();
    let tokens = tokenizer.encode_detailed(&text, true).unwrap();
    assert!(tokens.iter().any(|t| t.special));
    let ids: Vec<u32> = tokens.iter().map(|t| t.id).collect();
    let list: Vec<_> = tokens
        .iter()
        .map(|t| json!({"id": t.id, "bytes": t.bytes, "text": token_text(&t.bytes), "special": t.special}))
        .collect();
    let want = json!({
        "ids": ids,
        "tokens": list,
        "bytes": text.len(),
        "token_count": tokens.len(),
        "mode": "byte",
    });
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{want}\n"));
}

#[test]
fn encode_json_without_tokens_is_the_ids_and_their_count() {
    let text = "Les naïfs ægithales hâtifs pondant à Noël 2024".as_bytes();
    let out = bpeek(
        &["encode", "--tokenizer", "o200k", "-", "--format", "json"],
        text,
    );
    assert!(out.status.success());
    let ids = builtin::load("o200k")
        .unwrap()
        .encode_bytes(text, false)
        .unwrap();
    let want = json!({"bytes": text.len(), "ids": ids, "mode": "byte", "token_count": ids.len()});
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{want}\n"));
}

#[test]
fn encode_tokens_is_refused_where_it_describes_nothing() {
    for extra in [
        &["--format", "ids", "--tokens"][..],
        &["--tokens"][..],
        &["--format", "json", "--lines", "--tokens"][..],
    ] {
        let mut args = vec!["encode", "--tokenizer", "gpt2", "hi"];
        args.extend_from_slice(extra);
        let out = bpeek(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--tokens"));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn train_shows_no_progress_bar_when_stderr_is_not_a_terminal() {
    for quiet in [false, true] {
        let mut args = vec!["train", "--merges", "30"];
        if quiet {
            args.push("--quiet");
        }
        let out = bpeek(&args, b"");
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("stopped after 30 merges"));
    }
}
