//! Running Python `sentencepiece` beside bpeek: training `.model` files and
//! encoding with them. Where Python or its `sentencepiece` package is
//! missing, the tests that need it say so and pass, except under CI
//! (`CI=true`), where `.ci/run` installs the package and a missing one is a
//! failure.

#![allow(dead_code)]

use crate::python;

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The Python interpreter that has `sentencepiece`, or `None` (after
/// saying why) where a test may be skipped.
pub fn python() -> Option<String> {
    python::with_module("sentencepiece", "sentencepiece")
}

/// Run the script beside this file with `job` on stdin; what it printed.
pub fn run(python: &str, job: &Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spm/sp.py");
    python::run_json(python, &script, job)
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
