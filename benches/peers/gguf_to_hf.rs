//! kitoken reads no GGUF file, so a byte-level GGUF vocabulary is given to
//! it (and to `tokenizers`) as the `tokenizer.json` that holds the same
//! tokens, merges and split pattern; the comparison checks that the ids are
//! the ones bpeek reads from the GGUF file itself.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Python that writes the `tokenizer.json` of a byte-level GGUF
/// vocabulary: argv = GGUF file, output file, split pattern, whether whole
/// words in the vocabulary skip the merges (Llama 3's `ignore_merges`).
/// Reads the GGUF header's metadata only.
const CONVERT: &str = r#"
import sys, struct, json
path, out, pattern, whole = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
f = open(path, "rb")
def read(fmt):
    return struct.unpack("<" + fmt, f.read(struct.calcsize("<" + fmt)))[0]
def string():
    return f.read(read("Q")).decode("utf-8")
SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
def value(kind):
    if kind == 8:
        return string()
    if kind == 9:
        item, n = read("I"), read("Q")
        return [value(item) for _ in range(n)]
    return read(SCALARS[kind])
assert f.read(4) == b"GGUF", "not a GGUF file"
version, tensors, pairs = read("I"), read("Q"), read("Q")
meta = {}
for _ in range(pairs):
    key = string()
    meta[key] = value(read("I"))
tokens = meta["tokenizer.ggml.tokens"]
kinds = meta.get("tokenizer.ggml.token_type", [1] * len(tokens))
vocab, added = {}, []
for i, (t, k) in enumerate(zip(tokens, kinds)):
    if k in (3, 4):  # control and user-defined tokens are added tokens
        added.append({"id": i, "content": t, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False, "special": k == 3})
    vocab[t] = i
byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
json.dump({
    "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
    "normalizer": None,
    "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
        byte_level]},
    "post_processor": None, "decoder": byte_level,
    "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
              "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
              "ignore_merges": whole, "vocab": vocab, "merges": meta["tokenizer.ggml.merges"]},
}, open(out, "w", encoding="utf-8"), ensure_ascii=False)
"#;

/// Llama 3's split pattern, as its `tokenizer.json` writes it.
const LLAMA3: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Qwen2's: Llama 3's with every digit a piece of its own.
const QWEN2: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The GGUF vocabularies compared: name, split pattern, `ignore_merges`.
pub const VOCABULARIES: [(&str, &str, bool); 2] =
    [("qwen2", QWEN2, false), ("llama-bpe", LLAMA3, true)];

/// The folder of llama.cpp's test vocabularies, as the tests find it
/// (`$BPEEK_TEST_DATA`, or `~/.cache/bpeek-test-data`).
pub fn models_dir() -> Option<PathBuf> {
    let root = std::env::var_os("BPEEK_TEST_DATA")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/bpeek-test-data"))
        })?;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("vendor/llama.cpp/models")))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.pop()
}

/// `gguf` written as `out` (a `tokenizer.json`), or why not.
pub fn convert(gguf: &Path, out: &Path, pattern: &str, whole: bool) -> Result<(), String> {
    let done = Command::new("python3")
        .args(["-c", CONVERT])
        .arg(gguf)
        .arg(out)
        .arg(pattern)
        .arg(if whole { "1" } else { "0" })
        .output()
        .map_err(|e| e.to_string())?;
    if done.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&done.stderr).trim().to_string())
    }
}
