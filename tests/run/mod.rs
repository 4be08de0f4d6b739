//! Running the built binary as a script would: arguments, standard input,
//! and a scratch folder of its own for each test.
#![allow(dead_code)] // each test file uses its own part of this

use crate::scratch::Scratch;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub fn bpeek(args: &[&str]) -> Output {
    bpeek_with_stdin(args, b"")
}

pub fn bpeek_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// An empty folder for one test, named by the test file's `kind` and
/// `name`, removed when the test ends (the test file declares `mod
/// scratch;` beside `mod run;`).
pub fn scratch(kind: &str, name: &str) -> Scratch {
    Scratch::named(&format!("bpeek-{kind}-{}-{name}", std::process::id()))
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What the binary said on stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names in `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
