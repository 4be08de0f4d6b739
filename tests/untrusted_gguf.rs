//! GGUF files are untrusted: a damaged or hostile file is refused with an
//! error that names the file and the key, never a panic, never memory or
//! time out of proportion; and a model file of gigabytes opens by its
//! header and metadata alone.

mod common;
mod scratch;

use bpeek::bpe::formats::gguf;
use bpeek::bpe::formats::load::load;
use common::Rng;
use scratch::Scratch;
use std::process::Command;
use std::time::Instant;

fn string(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn key(name: &str, kind: u32, out: &mut Vec<u8>) {
    string(name, out);
    out.extend_from_slice(&kind.to_le_bytes());
}

fn array_header(elem: u32, n: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&elem.to_le_bytes());
    out.extend_from_slice(&(n as u64).to_le_bytes());
}

/// A small llama-style (SentencePiece BPE) GGUF file: `<unk>`, `<s>`,
/// `</s>`, the 256 byte pieces and a few merged pieces with scores.
fn llama_file() -> Vec<u8> {
    let mut tokens: Vec<(String, f32, i32)> = vec![
        ("<unk>".into(), 0.0, 2),
        ("<s>".into(), 0.0, 3),
        ("</s>".into(), 0.0, 3),
    ];
    for b in 0..=255u8 {
        tokens.push((format!("<0x{b:02X}>"), 0.0, 6));
    }
    for (i, t) in [
        "▁", "h", "e", "l", "o", "▁h", "he", "ll", "▁he", "llo", "▁hello",
    ]
    .iter()
    .enumerate()
    {
        tokens.push((t.to_string(), -(i as f32), 1));
    }
    let mut f = b"GGUF".to_vec();
    f.extend_from_slice(&3u32.to_le_bytes());
    f.extend_from_slice(&0u64.to_le_bytes());
    f.extend_from_slice(&5u64.to_le_bytes());
    key("general.architecture", 8, &mut f);
    string("llama", &mut f);
    key("tokenizer.ggml.model", 8, &mut f);
    string("llama", &mut f);
    key("tokenizer.ggml.tokens", 9, &mut f);
    array_header(8, tokens.len(), &mut f);
    for (t, _, _) in &tokens {
        string(t, &mut f);
    }
    key("tokenizer.ggml.scores", 9, &mut f);
    array_header(6, tokens.len(), &mut f);
    for (_, s, _) in &tokens {
        f.extend_from_slice(&s.to_le_bytes());
    }
    key("tokenizer.ggml.token_type", 9, &mut f);
    array_header(5, tokens.len(), &mut f);
    for (_, _, k) in &tokens {
        f.extend_from_slice(&k.to_le_bytes());
    }
    f
}

#[test]
fn a_small_file_reads_and_encodes() {
    let dir = Scratch::new("gguf-small");
    let path = dir.join("small.gguf");
    std::fs::write(&path, llama_file()).unwrap();
    let tok = load(&path.to_string_lossy()).unwrap();
    assert_eq!(tok.kind(), "sentencepiece bpe");
    let ids = tok.encode("hello é", false);
    assert_eq!(tok.decode(&ids).unwrap(), "hello é");
    assert_eq!(tok.bytes_of(ids[0]), "▁hello".as_bytes());
}

/// A small gpt2-style (byte-level BPE) GGUF file: the 256 bytes as GPT-2
/// spells them, the merge `h i`, and a control token `<|end|>`.
fn gpt2_file() -> Vec<u8> {
    let mut tokens: Vec<(String, i32)> = bpeek::bpe::formats::byte_unicode::byte_chars()
        .iter()
        .map(|c| (c.to_string(), 1))
        .collect();
    tokens.push(("hi".into(), 1));
    tokens.push(("<|end|>".into(), 3));
    let mut f = b"GGUF".to_vec();
    f.extend_from_slice(&3u32.to_le_bytes());
    f.extend_from_slice(&0u64.to_le_bytes());
    f.extend_from_slice(&5u64.to_le_bytes());
    key("general.architecture", 8, &mut f);
    string("gpt2", &mut f);
    key("tokenizer.ggml.model", 8, &mut f);
    string("gpt2", &mut f);
    key("tokenizer.ggml.tokens", 9, &mut f);
    array_header(8, tokens.len(), &mut f);
    for (t, _) in &tokens {
        string(t, &mut f);
    }
    key("tokenizer.ggml.token_type", 9, &mut f);
    array_header(5, tokens.len(), &mut f);
    for (_, k) in &tokens {
        f.extend_from_slice(&k.to_le_bytes());
    }
    key("tokenizer.ggml.merges", 9, &mut f);
    array_header(8, 1, &mut f);
    string("h i", &mut f);
    f
}

#[test]
fn decoding_keeping_control_tokens_is_refused_by_name() {
    // No reference here renders llama.cpp's control tokens: the command
    // says so, names the format, and writes nothing.
    let dir = Scratch::new("gguf-keep-special");
    let path = dir.join("small.gguf");
    std::fs::write(&path, llama_file()).unwrap();
    let tok = load(&path.to_string_lossy()).unwrap();
    let ids = tok.encode("hello", false);
    let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["decode", "--keep-special", "--tokenizer"])
        .arg(&path)
        .args(&ids)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--keep-special") && err.contains("GGUF"),
        "{err}"
    );
    assert!(tok.decode_bytes_with(&[0], false).is_err());

    // A byte-level GGUF file leaves its control tokens out too.
    let path = dir.join("gpt2.gguf");
    std::fs::write(&path, gpt2_file()).unwrap();
    let tok = load(&path.to_string_lossy()).unwrap();
    let ids = tok.encode("hi hi", false);
    assert_eq!(ids, [256, 32, 256]);
    let with_end = [256, 257, 32, 256, 257];
    assert_eq!(tok.decode_bytes(&with_end).unwrap(), b"hi hi");
    assert!(tok.decode_bytes_with(&with_end, false).is_err());
}

#[test]
fn a_file_of_gigabytes_opens_by_its_metadata_alone() {
    let dir = Scratch::new("gguf-big");
    let path = dir.join("big.gguf");
    let file = std::fs::File::create(&path).unwrap();
    use std::io::Write;
    (&file).write_all(&llama_file()).unwrap();
    // Tensor data the reader must never touch: 8 GB, sparse on disk.
    file.set_len(8 << 30).unwrap();
    drop(file);
    let started = Instant::now();
    let tok = load(&path.to_string_lossy()).unwrap();
    let took = started.elapsed();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(tok.kind(), "sentencepiece bpe");
    assert!(took.as_millis() < 1000, "{took:?}");
}

#[test]
fn mutated_files_are_refused_or_read_never_a_panic() {
    let valid = llama_file();
    let mut rng = Rng(0x6_6u64 << 40 | 0x19);
    let mut read = 0;
    for case in 0..3000 {
        let mut f = valid.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(f.len());
            match rng.below(4) {
                0 => f[at] ^= 1 << rng.below(8),
                1 => f[at] = [0x00, 0xFF, 0x7F, 0x80][rng.below(4)],
                2 => f.truncate(at),
                _ => {
                    // A length or count replaced by a boundary value.
                    let v = [u64::MAX, u64::MAX / 2, 1 << 40, 0][rng.below(4)];
                    let end = (at + 8).min(f.len());
                    f[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
                }
            }
        }
        let result = std::panic::catch_unwind(|| {
            let meta = gguf::read_from(std::io::Cursor::new(&f), f.len() as u64)?;
            bpeek::bpe::formats::gguf_tokenizer::tokenizer("case", &meta)
        });
        match result {
            Err(_) => panic!("case {case} panicked"),
            Ok(Ok(tok)) => {
                read += 1;
                let ids = tok.encode("hello hé", false);
                let _ = tok.decode(&ids);
            }
            Ok(Err(e)) => assert!(!e.to_string().is_empty()),
        }
    }
    assert!(read > 0 && read < 3000, "{read}");
}

#[test]
fn the_commands_name_the_file_and_the_key_and_exit_2() {
    let mut bad = llama_file();
    // tokenizer.ggml.model "llama" becomes "llamb".
    let at = bad.windows(5).rposition(|w| w == b"llama").unwrap();
    bad[at + 4] = b'b';
    let dir = Scratch::new("gguf-bad-model");
    let path = dir.join("bad-model.gguf");
    std::fs::write(&path, &bad).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["encode", "--tokenizer", &path.to_string_lossy(), "hello"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad-model.gguf"), "{err}");
    assert!(
        err.contains("tokenizer.ggml.model: 'llamb' is not supported"),
        "{err}"
    );

    let mut short = llama_file();
    short.truncate(short.len() - 10);
    let dir = Scratch::new("gguf-short");
    let path = dir.join("short.gguf");
    std::fs::write(&path, &short).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args([
            "fertility",
            "--tokenizer",
            &path.to_string_lossy(),
            "--samples",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("short.gguf") && err.contains("tokenizer.ggml.token_type"),
        "{err}"
    );
}
