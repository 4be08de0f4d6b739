//! What `train --out` and `--trace` do to the files they write: devices stay
//! devices, links stay links, inputs are never overwritten, modes are kept,
//! bad paths are found before the work, and a stopped run leaves nothing.

mod run;
mod scratch;
mod wait;

use run::{names_in, stderr};
use scratch::Scratch;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

fn bpeek(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> Scratch {
    Scratch::named(&format!("bpeek-files-{}-{name}", std::process::id()))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A character device like `/dev/null` (minor 3) or `/dev/full` (minor 7):
/// as root a private node in `dir`, so that a wrong rename cannot break the
/// machine's own; otherwise the system's (which then cannot be replaced).
fn device(dir: &Path, name: &str, minor: u32) -> PathBuf {
    let private = dir.join(name);
    let made = Command::new("mknod")
        .arg(&private)
        .args(["c", "1", &minor.to_string()])
        .stderr(Stdio::null())
        .status();
    if made.is_ok_and(|s| s.success()) {
        private
    } else {
        PathBuf::from(format!("/dev/{name}"))
    }
}

fn is_device(p: &Path) -> bool {
    std::fs::metadata(p).unwrap().file_type().is_char_device()
}

#[test]
fn out_dev_null_leaves_the_device_a_device() {
    let dir = scratch("null");
    let null = device(&dir, "null", 3);
    let out = bpeek(&["train", "--merges", "2", "--out", s(&null)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(is_device(&null));
}

#[test]
fn out_dash_and_dev_stdout_write_the_tokenizer_to_stdout() {
    for target in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let out = bpeek(&["train", "--merges", "2", "--out", target]);
        assert!(out.status.success(), "{target}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{target}: stdout is the tokenizer alone: {e}"));
        assert_eq!(v["format"], "bpeek-tokenizer");
        assert_eq!(v["merges"].as_array().unwrap().len(), 2);
        // The report is still given, beside the file rather than inside it.
        assert!(stderr(&out).contains("stopped after 2 merges"));
    }
}

#[test]
fn a_full_device_is_a_write_error_not_a_replaced_node() {
    let dir = scratch("full");
    let full = device(&dir, "full", 7);
    let out = bpeek(&["train", "--merges", "2", "--out", s(&full)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("full: cannot write"),
        "{}",
        stderr(&out)
    );
    assert!(is_device(&full));
}

#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut reader = Command::new("cat")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = bpeek(&["train", "--merges", "3", "--out", s(&fifo)]);
    // Had bpeek not opened the FIFO, `cat` would still wait for a writer.
    let opened = wait::until(wait::PATIENCE, || reader.try_wait().unwrap().is_some());
    if !opened {
        reader.kill().unwrap();
    }
    let read = reader.wait_with_output().unwrap().stdout;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(opened, "nothing was written into the FIFO");
    let v: serde_json::Value = serde_json::from_slice(&read).unwrap();
    assert_eq!(v["merges"].as_array().unwrap().len(), 3);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_symlink_is_kept_and_the_file_it_points_to_is_replaced() {
    let dir = scratch("link");
    let real = dir.join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let out = bpeek(&["train", "--merges", "2", "--out", s(&link)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(v["format"], "bpeek-tokenizer");

    // A link to a file that does not exist yet creates that file.
    let dangling = dir.join("later.json");
    std::os::unix::fs::symlink("made-later.json", &dangling).unwrap();
    let out = bpeek(&["train", "--merges", "2", "--out", s(&dangling)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert!(dir.join("made-later.json").is_file());
    assert_eq!(
        names_in(&dir),
        ["later.json", "link.json", "made-later.json", "real.json"]
    );
}

#[test]
fn the_corpus_is_never_the_output() {
    let dir = scratch("same");
    let corpus = dir.join("sm.txt");
    std::fs::write(&corpus, "low lower lowest low low").unwrap();
    let alias = dir.join("alias.txt");
    std::os::unix::fs::symlink("sm.txt", &alias).unwrap();
    for out_path in [&corpus, &alias] {
        let out = bpeek(&["train", s(&corpus), "--out", s(out_path)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("the corpus and --out"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read_to_string(&corpus).unwrap(),
            "low lower lowest low low"
        );
    }
    let out = bpeek(&["train", s(&corpus), "--trace", s(&corpus)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("the corpus and --trace"));
}

#[test]
fn out_and_trace_must_be_two_files() {
    let dir = scratch("outtrace");
    let x = dir.join("x.json");
    let dotted = format!("{}/./x.json", s(&dir));
    for (a, b) in [
        (s(&x), s(&x)),
        (s(&x), dotted.as_str()),
        ("-", "/dev/stdout"),
    ] {
        let out = bpeek(&["train", "--merges", "2", "--out", a, "--trace", b]);
        assert_eq!(out.status.code(), Some(2), "{a} {b}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("--out and --trace"),
            "{}",
            stderr(&out)
        );
    }
    assert!(names_in(&dir).is_empty());
    // Both to /dev/null is fine: nothing is lost there.
    let devices = scratch("outtrace-null");
    let null = device(&devices, "null", 3);
    let out = bpeek(&[
        "train",
        "--merges",
        "2",
        "--out",
        s(&null),
        "--trace",
        s(&null),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_replaced_file_keeps_its_mode() {
    let dir = scratch("mode");
    let tok = dir.join("private.json");
    std::fs::write(&tok, "old").unwrap();
    std::fs::set_permissions(&tok, std::fs::Permissions::from_mode(0o600)).unwrap();
    let trace = dir.join("shared.json");
    std::fs::write(&trace, "old").unwrap();
    std::fs::set_permissions(&trace, std::fs::Permissions::from_mode(0o664)).unwrap();
    let out = bpeek(&[
        "train",
        "--merges",
        "2",
        "--out",
        s(&tok),
        "--trace",
        s(&trace),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&tok), 0o600);
    assert_eq!(mode(&trace), 0o664);
    assert_ne!(std::fs::read_to_string(&tok).unwrap(), "old");
}

#[test]
fn an_output_that_cannot_be_written_is_found_before_the_corpus_is_read() {
    let dir = scratch("nodir");
    let missing_corpus = dir.join("missing.txt");
    let bad_out = dir.join("nodir").join("o.json");
    // The corpus is not there either: the output is checked first.
    let out = bpeek(&["train", s(&missing_corpus), "--out", s(&bad_out)]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("o.json") && err.contains("no such directory"),
        "{err}"
    );

    let out = bpeek(&[
        "train",
        s(&missing_corpus),
        "--out",
        s(&dir.join("fine.json")),
        "--trace",
        s(&bad_out),
    ]);
    assert!(
        stderr(&out).contains("no such directory"),
        "{}",
        stderr(&out)
    );
    assert!(names_in(&dir).is_empty(), "{:?}", names_in(&dir));

    // A missing corpus is still named as the thing that cannot be read.
    let nowhere = dir.join("nodir").join("corpus.txt");
    let out = bpeek(&["train", s(&nowhere), "--out", s(&dir.join("o.json"))]);
    assert!(
        stderr(&out).contains("corpus.txt: cannot read"),
        "{}",
        stderr(&out)
    );
    assert!(names_in(&dir).is_empty(), "{:?}", names_in(&dir));
}

/// Start `train` reading its corpus from a stdin that stays open, so it
/// waits with its temporary files made.
fn waiting_train(dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args([
            "train",
            "-",
            "--out",
            s(&dir.join("t.json")),
            "--trace",
            s(&dir.join("trace.json")),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn a_signal_during_train_removes_the_temporary_files() {
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let dir = scratch(&format!("signal-{name}"));
        let mut child = waiting_train(&dir);
        // Both temporary files exist before the corpus is read.
        wait::until(wait::PATIENCE, || names_in(&dir).len() >= 2);
        assert_eq!(names_in(&dir).len(), 2, "{:?}", names_in(&dir));
        assert!(names_in(&dir).iter().all(|n| n.ends_with(".tmp")));
        let killed = Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + number), "SIG{name}");
        assert!(names_in(&dir).is_empty(), "SIG{name}: {:?}", names_in(&dir));
    }
}

#[test]
fn a_trace_too_large_to_write_needs_trace_top() {
    // 30,000 distinct-ish bytes of text with no pre-tokenizer: every round
    // would list tens of thousands of pairs.
    let mut text = Vec::new();
    let mut x: u32 = 7;
    for _ in 0..60_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        text.push(b'!' + ((x >> 16) % 90) as u8);
    }
    let dir = scratch("bigtrace");
    let corpus = dir.join("noise.txt");
    std::fs::write(&corpus, &text).unwrap();
    let trace = dir.join("trace.json");
    // The estimate counts every round the corpus allows: a minimum count may
    // end the run sooner, but that cannot be known before it runs.
    let out = bpeek(&[
        "train",
        s(&corpus),
        "--pretok",
        "none",
        "--min-count",
        "1000000",
        "--trace",
        s(&trace),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("GB") && err.contains("--trace-top"), "{err}");
    assert_eq!(names_in(&dir), ["noise.txt"]);

    let out = bpeek(&[
        "train",
        s(&corpus),
        "--pretok",
        "none",
        "--merges",
        "3",
        "--trace",
        s(&trace),
        "--trace-top",
        "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    assert_eq!(v["rounds"].as_array().unwrap().len(), 3);
}

#[test]
fn trace_and_tokenizer_are_replaced_together_or_not_at_all() {
    let dir = scratch("together");
    let devices = scratch("together-devices");
    let full = device(&devices, "full", 7);
    let trace = dir.join("trace.json");
    std::fs::write(&trace, "old trace").unwrap();
    // The tokenizer cannot be written: the finished trace is not put in place.
    let out = bpeek(&[
        "train",
        "--merges",
        "2",
        "--trace",
        s(&trace),
        "--out",
        s(&full),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), "old trace");
    assert_eq!(names_in(&dir), ["trace.json"]);

    // When both can be written, the trace's winners are the tokenizer's merges.
    let tok = dir.join("tok.json");
    let out = bpeek(&[
        "train",
        "--merges",
        "4",
        "--trace",
        s(&trace),
        "--out",
        s(&tok),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let t: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    let k: serde_json::Value = serde_json::from_slice(&std::fs::read(&tok).unwrap()).unwrap();
    let winners: Vec<_> = t["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["winner"]["pair"].clone())
        .collect();
    let merges: Vec<_> = k["merges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pair"].clone())
        .collect();
    assert_eq!(winners, merges);
}
