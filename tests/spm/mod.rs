//! Running Python `sentencepiece` beside bpeek: training `.model` files and
//! encoding with them. Where Python or its `sentencepiece` package is
//! missing, the tests that need it say so and pass, except under CI
//! (`CI=true`), where `.ci/run` installs the package and a missing one is a
//! failure.

#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python interpreter that has `sentencepiece`, or `None` (after
/// saying why) where a test may be skipped.
pub fn python() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let found = Command::new(&python)
        .args([
            "-c",
            "import sentencepiece; print(sentencepiece.__version__)",
        ])
        .output();
    match found {
        Ok(out) if out.status.success() => Some(python),
        other => {
            let why = match other {
                Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
                Err(e) => format!("{python}: {e}"),
            };
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("Python sentencepiece is needed under CI and cannot be imported: {why}");
            }
            eprintln!(
                "SKIPPED: Python `sentencepiece` cannot be imported ({why}); install it with `python3 -m pip install sentencepiece`"
            );
            None
        }
    }
}

/// Run the script beside this file with `job` on stdin; what it printed.
pub fn run(python: &str, job: &Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spm/sp.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let input = serde_json::to_vec(job).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("python runs");
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "sp.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

/// The bundled samples, joined: the corpus the models are trained on.
pub fn samples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect()
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

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
