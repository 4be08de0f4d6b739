//! The Ray and Spark examples on their local modes: each counts the shards
//! of a corpus through `bpeek count`, and `bpeek train --counts` on what
//! they leave learns the merges of `bpeek train` on the whole text. Spark
//! also sums the counts itself (`--reduce`) and writes its own Parquet.
//!
//! Each runs when python3 can import `ray` or `pyspark` (with a Java
//! runtime for Spark), and says it was skipped otherwise, except under CI
//! (`CI=true`), where `.ci/run` installs them and a missing one is a
//! failure.

mod scratch;

use std::path::{Path, PathBuf};
use std::process::Command;

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the tests run under CI, where every tool they need is there.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-engines-{}-{name}", std::process::id()))
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn merges_of(args: &[&str]) -> Vec<String> {
    run(Command::new(env!("CARGO_BIN_EXE_bpeek")).args(args))
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// The bundled corpora as four shards cut at line breaks.
fn shards(dir: &Path) -> (String, Vec<String>) {
    let text: String = bpeek::corpora::BUNDLED
        .iter()
        .map(|c| c.text)
        .collect::<Vec<_>>()
        .join("\n");
    let whole = dir.join("whole.txt");
    std::fs::write(&whole, &text).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    for (i, part) in lines.chunks(lines.len().div_ceil(4)).enumerate() {
        let p = dir.join(format!("shard-{i}.txt"));
        std::fs::write(&p, part.concat()).unwrap();
        out.push(p.display().to_string());
    }
    (whole.display().to_string(), out)
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

#[test]
fn ray_tasks_count_shards_that_train_the_whole_texts_merges() {
    if !python_has("ray") {
        assert!(!in_ci(), "CI must have ray (.ci/run installs it)");
        eprintln!("skipped: python3 has no ray");
        return;
    }
    let dir = scratch("ray");
    // Ray's session folder (sockets, logs) in a folder of the test's, not
    // in the temporary directory where it would stay; a short path, since
    // a Unix socket's path may not pass 107 bytes.
    let ray_tmp = scratch::Scratch::new("ray");
    let (whole, shards) = shards(&dir);
    let parts = dir.join("parts").display().to_string();
    run(Command::new("python3")
        .arg(example("ray_count.py"))
        .args([
            "--workers",
            "2",
            "--bpeek",
            env!("CARGO_BIN_EXE_bpeek"),
            "--out",
            &parts,
        ])
        .args(&shards)
        .args(["--", "--by-line"])
        .env("RAY_TMPDIR", ray_tmp.path()));
    let want = merges_of(&["train", &whole, "--by-line", "--merges", "300"]);
    assert_eq!(
        merges_of(&["train", "--counts", &parts, "--merges", "300"]),
        want
    );
}

#[test]
fn spark_pipes_shards_through_bpeek_count_and_its_parquet_trains_the_same() {
    let java = Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !python_has("pyspark") || !java {
        assert!(
            !in_ci(),
            "CI must have pyspark and a Java runtime (.ci/run installs them); pyspark: {}, java: {java}",
            python_has("pyspark")
        );
        eprintln!("skipped: python3 has no pyspark, or there is no java");
        return;
    }
    let dir = scratch("spark");
    let (whole, _) = shards(&dir);
    let glob = format!("{}/shard-*.txt", dir.display());
    let bin = Path::new(env!("CARGO_BIN_EXE_bpeek"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let want = merges_of(&["train", &whole, "--by-line", "--merges", "300"]);
    for reduce in [false, true] {
        let out = dir.join(format!("spark-{reduce}")).display().to_string();
        let mut cmd = Command::new("python3");
        cmd.arg(example("spark_count.py"))
            .args(["--out", &out, &glob]);
        if reduce {
            cmd.arg("--reduce");
        }
        run(cmd.args(["--", "--by-line"]).env("PATH", &path));
        let got = merges_of(&["train", "--counts", &out, "--merges", "300"]);
        assert_eq!(got, want, "reduce in Spark: {reduce}");
    }
}
