//! Running Hugging Face `tokenizers` (Python) beside bpeek.
//!
//! The scripts beside this file read a JSON job list on stdin and write
//! their answers as JSON on stdout. Where Python or its `tokenizers`
//! package is missing the tests that need it say so and pass, except under
//! CI (`CI=true`), where `.ci/run` installs the package and a missing one
//! is a failure.

#![allow(dead_code)]

pub mod texts;

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python interpreter that has `tokenizers`, or `None` (after saying
/// why) where a test may be skipped.
pub fn python() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let found = Command::new(&python)
        .args(["-c", "import tokenizers; print(tokenizers.__version__)"])
        .output();
    match found {
        Ok(out) if out.status.success() => Some(python),
        other => {
            let why = match other {
                Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
                Err(e) => format!("{python}: {e}"),
            };
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("Python tokenizers is needed under CI and cannot be imported: {why}");
            }
            eprintln!(
                "SKIPPED: Python `tokenizers` cannot be imported ({why}); install it with `python3 -m pip install tokenizers`"
            );
            None
        }
    }
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
    let mut child = Command::new(python)
        .arg(script(script_name))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let input = serde_json::to_vec(jobs).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("python runs");
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "{script_name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
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
