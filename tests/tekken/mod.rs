//! Running mistral-common's `Tekkenizer` (Python) beside bpeek. Where
//! Python or its `mistral-common` package is missing the tests that need it
//! say so and pass, except under CI (`CI=true`), where `.ci/run` installs
//! the package and a missing one is a failure.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python interpreter that has `mistral_common`, or `None` (after
/// saying why) where a test may be skipped.
pub fn python() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let found = Command::new(&python)
        .args([
            "-c",
            "import mistral_common; print(mistral_common.__version__)",
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
                panic!("Python mistral-common is needed under CI and cannot be imported: {why}");
            }
            eprintln!(
                "SKIPPED: Python `mistral_common` cannot be imported ({why}); install it with `python3 -m pip install mistral-common`"
            );
            None
        }
    }
}

/// Run the script beside this file with `job` on stdin; what it printed.
pub fn run(python: &str, job: &Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tekken/mistral.py");
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
        "mistral.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

/// The Tekken files the installed mistral-common ships; there must be
/// some, or the tests would compare nothing.
pub fn shipped_files(python: &str) -> Vec<PathBuf> {
    let files: Vec<PathBuf> =
        serde_json::from_value(run(python, &json!({"files": true}))).expect("a list of paths");
    assert!(!files.is_empty(), "mistral-common ships no tekken*.json");
    files
}
