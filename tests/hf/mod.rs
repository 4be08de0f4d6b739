//! Running Hugging Face `tokenizers` (Python) beside bpeek.
//!
//! The scripts beside this file read a JSON job list on stdin and write
//! their answers as JSON on stdout. Where Python or its `tokenizers`
//! package is missing the tests that need it say so and pass, except under
//! CI (`CI=true`), where `.ci/run` installs the package and a missing one
//! is a failure.

#![allow(dead_code)]

use crate::python;
pub mod texts;

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The Python interpreter that has `tokenizers`, or `None` (after saying
/// why) where a test may be skipped.
pub fn python() -> Option<String> {
    python::with_module("tokenizers", "tokenizers")
}

/// The path of a script kept beside this file.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("hf")
        .join(name)
}

/// Run `script` with `jobs` on stdin and return what it printed, as JSON.
pub fn run(python: &str, script_name: &str, jobs: &Value) -> Value {
    python::run_json(python, &script(script_name), jobs)
}

/// A merge list as HF writes it: either `["a", "b"]` or `"a b"`.
pub fn hf_merges(model: &Value) -> Vec<(String, String)> {
    model["merges"]
        .as_array()
        .expect("merges")
        .iter()
        .map(|m| match m {
            Value::Array(pair) => (
                pair[0].as_str().unwrap().to_string(),
                pair[1].as_str().unwrap().to_string(),
            ),
            Value::String(s) => {
                let (a, b) = s.split_once(' ').expect("a merge 'a b'");
                (a.to_string(), b.to_string())
            }
            other => panic!("unexpected merge {other}"),
        })
        .collect()
}

/// Bytes as HF's byte-level vocabulary writes them (space is `Ġ`).
pub fn byte_level(bytes: &[u8]) -> String {
    let table = bpeek::bpe::formats::byte_unicode::byte_chars();
    bytes.iter().map(|&b| table[b as usize]).collect()
}

/// A temporary directory for one test, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("bpeek-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The pieces bpeek cuts `text` into, as `unicode_sweep.py` writes the
/// library's: character offsets, and the piece where it is not the text
/// at its offsets.
pub fn pieces_by_char(steps: &bpeek::bpe::pretokenize::hf_text::HfText, text: &str) -> Vec<Value> {
    let mut char_at = vec![0usize; text.len() + 1];
    let mut n = 0;
    for (i, c) in text.char_indices() {
        for k in 0..c.len_utf8() {
            char_at[i + k] = n;
        }
        n += 1;
    }
    char_at[text.len()] = n;
    steps
        .words(text, true)
        .iter()
        .map(|w| {
            let from = &w.text.from;
            let (start, end) = (
                from.first().map_or(0, |r| r.start),
                from.last().map_or(0, |r| r.end),
            );
            let piece = &w.text.text;
            let own = (&text[start..end] != piece.as_str()).then(|| piece.clone());
            serde_json::json!([char_at[start], char_at[end], own])
        })
        .collect()
}
