//! What a careless user or an attacker gives bpeek: outputs that are its
//! own inputs, write-protected files, streams read once, endless inputs,
//! counts that would wrap, values made to mislead, a standard error that
//! cannot be written, a bench asked for billions of students. Each is
//! refused by name with a non-zero exit, and nothing is lost.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bpeek_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpeek"));
    command.args(args).stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("the binary runs")
}

fn bpeek(args: &[&str]) -> Output {
    bpeek_with(args, &[])
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The message of a refused run, checked to exit with 2 and no panic.
fn refused(args: &[&str]) -> String {
    let out = bpeek(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "bpeek {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A folder of its own for a test, removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("bpeek-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A folder something else makes at `path`, removed when the test ends.
    fn adopt(path: PathBuf) -> Scratch {
        Scratch(path)
    }

    fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, content).unwrap();
        p
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const TEXT: &[u8] = b"the cat sat on the mat\nthe dog sat on the log\n";

#[test]
fn an_output_that_is_one_of_the_inputs_is_refused_and_the_input_kept() {
    let dir = Scratch::new("same");
    let shard = dir.file("shard.txt", TEXT);
    let link = dir.path("link.txt");
    std::os::unix::fs::symlink(&shard, &link).unwrap();
    let counts = dir.path("counts.parquet");
    assert!(
        bpeek(&["count", "-q", s(&shard), "--out", s(&counts)])
            .status
            .success()
    );
    let counted = std::fs::read(&counts).unwrap();
    for args in [
        vec!["count", s(&shard), "--out", s(&shard)],
        vec!["count", s(&shard), "--out", s(&link)],
        vec!["count", s(&shard), "--out", s(&link), "--format", "tsv"],
        vec!["count", "--counts", s(&counts), "--out", s(&counts)],
        vec!["train", s(&shard), "--out", s(&link)],
        vec!["train", "--counts", s(&counts), "--trace", s(&counts)],
        vec!["tui", s(&shard), "--record", s(&link)],
    ] {
        let err = refused(&args);
        assert!(
            err.contains("writing one would destroy the other"),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read(&shard).unwrap(), TEXT, "{args:?}");
        assert_eq!(std::fs::read(&counts).unwrap(), counted, "{args:?}");
    }
    // The glob and folder forms of --counts find the same file.
    let err = refused(&["count", "--counts", s(&dir.0), "--out", s(&counts)]);
    assert!(err.contains("a count file and --out"), "{err}");
}

#[test]
fn a_write_protected_output_is_refused_as_cp_would() {
    let dir = Scratch::new("protected");
    let shard = dir.file("shard.txt", TEXT);
    let out = dir.file("kept.tsv", b"precious\n");
    std::fs::set_permissions(&out, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    // The folder is writable by anyone, so only the file's own mode stands
    // in the way; root may write anything, so the run is made as nobody.
    std::fs::set_permissions(&dir.0, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    std::fs::set_permissions(&shard, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let exe = env!("CARGO_BIN_EXE_bpeek");
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut command = if as_root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", exe]);
        c
    } else {
        Command::new(exe)
    };
    let run = command
        .args(["count", s(&shard), "--out", s(&out)])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("kept.tsv: cannot write: permission denied"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&out).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o444);
}

/// Run `bpeek args` with `fifo` fed `content` once by a writer that then
/// closes it: a second open of the FIFO would wait for ever, so the run
/// is given a deadline and killed past it.
fn with_fifo_fed(fifo: &Path, content: Vec<u8>, args: &[&str]) -> Output {
    let status = Command::new("mkfifo").arg(fifo).status().unwrap();
    assert!(status.success());
    let path = fifo.to_path_buf();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let _ = f.write_all(&content);
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("bpeek {args:?} waits on the FIFO for ever (it opened it twice)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    writer.join().unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_fifo_or_process_substitution_is_read_once() {
    let dir = Scratch::new("fifo");
    let shard = dir.file("shard.txt", &TEXT.repeat(20));
    let tok = dir.path("tok.json");
    let counts = dir.path("c.parquet");
    assert!(
        bpeek(&[
            "train",
            "-q",
            s(&shard),
            "--merges",
            "20",
            "--out",
            s(&tok),
            "--out-format",
            "hf"
        ])
        .status
        .success()
    );
    assert!(
        bpeek(&["count", "-q", s(&shard), "--out", s(&counts)])
            .status
            .success()
    );
    let from_file = bpeek(&["encode", "--tokenizer", s(&tok), "the cat sat"]);
    assert!(from_file.status.success());
    let trained = bpeek(&["train", "--counts", s(&counts), "--merges", "10"]);
    assert!(trained.status.success());

    let fifo = dir.path("tok.fifo");
    let got = with_fifo_fed(
        &fifo,
        std::fs::read(&tok).unwrap(),
        &["encode", "--tokenizer", s(&fifo), "the cat sat"],
    );
    assert!(got.status.success(), "{}", stderr(&got));
    assert_eq!(got.stdout, from_file.stdout);

    let fifo = dir.path("counts.fifo");
    let got = with_fifo_fed(
        &fifo,
        std::fs::read(&counts).unwrap(),
        &["train", "--counts", s(&fifo), "--merges", "10"],
    );
    assert!(got.status.success(), "{}", stderr(&got));
    let merges = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(merges(&got), merges(&trained));

    // Process substitution, as a shell user writes it.
    let line = format!(
        "{} encode --tokenizer <(cat {}) 'the cat sat'",
        env!("CARGO_BIN_EXE_bpeek"),
        s(&tok)
    );
    let got = Command::new("bash").args(["-c", &line]).output().unwrap();
    assert!(got.status.success(), "{}", stderr(&got));
    assert_eq!(got.stdout, from_file.stdout);
}

#[test]
fn endless_inputs_end_with_a_message_and_leave_no_file() {
    let dir = Scratch::new("endless");
    let out = dir.path("zero.parquet");
    // Nowhere to cut /dev/zero into chunks: refused at what a chunk holds.
    for args in [
        vec!["train", "/dev/zero", "-q"],
        vec!["count", "/dev/zero", "--out", s(&out)],
        vec!["encode", "--tokenizer", "gpt2", "--file", "/dev/zero"],
    ] {
        let err = refused(&args);
        assert!(
            err.contains("/dev/zero: more than 4 GiB"),
            "{args:?}: {err}"
        );
    }
    // Random bytes cut into ever more distinct chunks: the memory budget
    // ends the run.
    let out = dir.path("random.parquet");
    for args in [
        vec!["train", "/dev/urandom", "-q"],
        vec!["count", "/dev/urandom", "--out", s(&out)],
    ] {
        let run = bpeek_with(&args, &[("BPEEK_MAX_MEMORY", "200MB")]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("would pass the memory budget of 190 MB"),
            "{args:?}: {err}"
        );
    }
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(&dir.0).unwrap().count(),
        0,
        "no temporary file is left"
    );
    let bad = bpeek_with(&["train", "-q"], &[("BPEEK_MAX_MEMORY", "lots")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("BPEEK_MAX_MEMORY"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn count_totals_are_checked_never_wrapped() {
    let dir = Scratch::new("wrap");
    let header =
        "# bpeek counts 1: mode=byte pretok=gpt2 digits=keep by-line=no; source-bytes 6; sorted\n";
    let max = u64::MAX;
    // The most a count may be (what a Parquet int64 holds); times a
    // chunk's length it passes 2^64 - 1.
    let most = i64::MAX;
    let big = dir.file(
        "big.tsv",
        format!("{header} cd\t{most}\t0\t2\nab\t{most}\t0\t0\n").as_bytes(),
    );
    let one = dir.file("one.tsv", format!("{header}ab\t1\t0\t0\n").as_bytes());
    let err = refused(&["train", "--counts", s(&big), "--merges", "3"]);
    assert!(err.contains("pass 2^64 - 1"), "{err}");
    assert!(err.contains("big.tsv"), "{err}");
    let err = refused(&["count", "--counts", s(&big), "--out", "-"]);
    assert!(err.contains("pass 2^64 - 1"), "{err}");
    let err = refused(&["count", "--counts", s(&big), s(&one), "--out", "-"]);
    assert!(
        err.contains("2^63 - 1") || err.contains("2^64 - 1"),
        "{err}"
    );
    let past = dir.file(
        "past.tsv",
        format!("{header}ab\t{}\t0\t0\n", most as u64 + 1).as_bytes(),
    );
    let err = refused(&["train", "--counts", s(&past)]);
    assert!(
        err.contains("past.tsv: line 2: count") && err.contains("2^63 - 1"),
        "{err}"
    );
    // A shard number past 2^64 - 1 is refused, not wrapped to 0.
    let shard = dir.file("s.txt", TEXT);
    let err = refused(&[
        "count",
        s(&shard),
        s(&shard),
        "--shard",
        &max.to_string(),
        "--out",
        "-",
    ]);
    assert!(err.contains("passes 2^64 - 1"), "{err}");
}

#[test]
fn a_value_quoted_from_a_file_is_cut_with_its_length_and_cannot_reorder_the_line() {
    let dir = Scratch::new("quoted");
    let long = "x".repeat(3000);
    let listed_twice = format!(
        r#"{{"version":"1.0","added_tokens":[{{"id":0,"content":"{long}","special":true}},{{"id":1,"content":"{long}","special":true}}],"model":{{"type":"BPE","vocab":{{"a":0,"b":1}},"merges":[]}}}}"#
    );
    let file = dir.file("twice.json", listed_twice.as_bytes());
    let err = refused(&["encode", "--tokenizer", s(&file), "ab"]);
    assert!(err.contains("(3000 characters)"), "{err}");
    assert!(err.len() < 600, "{} bytes: {err}", err.len());
    // A direction override in a value is shown as its code point.
    let evil = "abc\u{202E}fdp.exe";
    let twice = format!(
        r#"{{"version":"1.0","added_tokens":[{{"id":0,"content":"{evil}","special":true}},{{"id":1,"content":"{evil}","special":true}}],"model":{{"type":"BPE","vocab":{{"a":0,"b":1}},"merges":[]}}}}"#
    );
    let file = dir.file("override.json", twice.as_bytes());
    let err = refused(&["encode", "--tokenizer", s(&file), "ab"]);
    assert!(!err.contains('\u{202E}'), "{err}");
    // And in a file's name, which messages give as it is.
    let named = dir.file(&format!("{evil}.json"), b"{not json");
    let err = refused(&["encode", "--tokenizer", s(&named), "ab"]);
    assert!(!err.contains('\u{202E}'), "{err}");
    assert!(err.contains("abc<U+202E>fdp.exe.json"), "{err}");
}

#[test]
fn a_full_disk_names_the_file_and_a_full_stderr_is_no_panic() {
    let dir = Scratch::new("full");
    let shard = dir.file("s.txt", TEXT);
    for format in ["parquet", "tsv"] {
        let err = stderr(&bpeek(&[
            "count",
            s(&shard),
            "--out",
            "/dev/full",
            "--format",
            format,
        ]));
        assert!(err.starts_with("bpeek: /dev/full: "), "{format}: {err}");
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["train", s(&dir.path("missing.txt"))])
        .stdin(Stdio::null())
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(2),
        "an input error, told or not, is exit 2, never a panic's 101"
    );
}

#[test]
fn a_bench_asked_for_too_many_students_starts_nothing() {
    for n in ["4294967296", "18446744073709551615"] {
        let err = refused(&["bench", "--serve", n]);
        assert!(err.contains("at most 2000 students"), "{err}");
    }
}

/// The process whose parent is `parent` and whose command line holds
/// `word`, waited for up to a minute.
fn child_of(parent: u32, word: &str) -> u32 {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The parent is the second field after the command's `)`.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if ppid == Some(parent) && String::from_utf8_lossy(&cmdline).contains(word) {
                return pid;
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no child of {parent} running {word}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Whether process `pid` is gone (or a zombie nobody waits for), waited
/// for up to a minute.
fn ends(pid: u32) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_string));
        if stat.is_empty() || state.as_deref() == Some("Z") {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

#[test]
fn the_bench_s_server_never_outlives_the_bench() {
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let mut bench = Command::new(env!("CARGO_BIN_EXE_bpeek"))
            .args(["bench", "--serve", "2"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = child_of(bench.id(), "serve");
        // The bench's own folder; removed here too, if the bench left it.
        let folder =
            Scratch::adopt(std::env::temp_dir().join(format!("bpeek-bench-serve-{}", bench.id())));
        unsafe { libc::kill(bench.id() as i32, signal) };
        bench.wait().unwrap();
        assert!(
            ends(server),
            "signal {signal}: the server {server} outlives the bench"
        );
        if signal == libc::SIGTERM {
            assert!(!folder.0.exists(), "the server's folder is removed");
        }
    }
}
