//! Running mistral-common's `Tekkenizer` (Python) beside bpeek. Where
//! Python or its `mistral-common` package is missing the tests that need it
//! say so and pass, except under CI (`CI=true`), where `.ci/run` installs
//! the package and a missing one is a failure.

#![allow(dead_code)]

use crate::python;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The Python interpreter that has `mistral_common`, or `None` (after
/// saying why) where a test may be skipped.
pub fn python() -> Option<String> {
    python::with_module("mistral_common", "mistral-common")
}

/// Run the script beside this file with `job` on stdin; what it printed.
pub fn run(python: &str, job: &Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tekken/mistral.py");
    python::run_json(python, &script, job)
}

/// The Tekken files the installed mistral-common ships; there must be
/// some, or the tests would compare nothing.
pub fn shipped_files(python: &str) -> Vec<PathBuf> {
    let files: Vec<PathBuf> =
        serde_json::from_value(run(python, &json!({"files": true}))).expect("a list of paths");
    assert!(!files.is_empty(), "mistral-common ships no tekken*.json");
    files
}
