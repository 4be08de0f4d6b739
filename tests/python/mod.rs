//! Python beside bpeek: the interpreter that has a reference library, and
//! a script run with a JSON job on stdin and its JSON answer on stdout.
//! Where Python or the library is missing the tests that need it say so
//! and pass, except under CI (`CI=true`), where `.ci/run` installs the
//! library and a missing one is a failure.

#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The Python interpreter (`$PYTHON`, else `python3`) that can import
/// `module`, or `None` (after saying why) where a test may be skipped;
/// `package` is what pip installs it as.
pub fn with_module(module: &str, package: &str) -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let found = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output();
    match found {
        Ok(out) if out.status.success() => Some(python),
        other => {
            let why = match other {
                Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
                Err(e) => format!("{python}: {e}"),
            };
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("Python {package} is needed under CI and cannot be imported: {why}");
            }
            eprintln!(
                "SKIPPED: Python `{module}` cannot be imported ({why}); install it with `python3 -m pip install {package}`"
            );
            None
        }
    }
}

/// Run `script` with `job` on stdin and return what it printed, as JSON.
pub fn run_json(python: &str, script: &Path, job: &Value) -> Value {
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let input = serde_json::to_vec(job).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread of its own: a script that answers as it reads
    // would otherwise fill its output pipe while the job is still going in.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("python runs");
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.file_name().unwrap_or_default().to_string_lossy(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}
