//! `bpeek count` and `bpeek train --counts` as a cluster job uses them:
//! shards counted apart, count files summed in a reduce step, globs and
//! folders of part files, and every wrong or damaged file refused by name.

mod scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bpeek(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = bpeek(args);
    assert!(
        out.status.success(),
        "bpeek {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The message of a refused run, checked to exit with 2.
fn refused(args: &[&str]) -> String {
    let out = bpeek(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "bpeek {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-counts-{}-{name}", std::process::id()))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The bundled corpora one after another, cut into `n` shards at bytes
/// that fall anywhere (inside lines and words).
fn shards(dir: &Path, n: usize) -> (PathBuf, Vec<PathBuf>) {
    let mut text = String::new();
    for c in bpeek::corpora::BUNDLED {
        text.push_str(c.text);
        text.push_str("\nEnd.\n");
    }
    let whole = dir.join("whole.txt");
    std::fs::write(&whole, &text).unwrap();
    let bytes = text.as_bytes();
    let mut cuts: Vec<usize> = (1..n).map(|k| k * bytes.len() / n + 7).collect();
    cuts.insert(0, 0);
    cuts.push(bytes.len());
    let mut paths = Vec::new();
    for (i, w) in cuts.windows(2).enumerate() {
        let p = dir.join(format!("shard-{i}.txt"));
        std::fs::write(&p, &bytes[w[0]..w[1]]).unwrap();
        paths.push(p);
    }
    (whole, paths)
}

/// Every line of a train report but the first (which names the corpus).
fn merges(report: &str) -> Vec<&str> {
    report.lines().skip(1).collect()
}

#[test]
fn shards_counted_by_two_workers_and_reduced_train_the_whole_texts_merges() {
    let dir = scratch("map-reduce");
    let (whole, parts) = shards(&dir, 6);
    for tie in ["first", "lex", "hf"] {
        let want = ok(&[
            "train",
            s(&whole),
            "--pretok",
            "cl100k",
            "--tie",
            tie,
            "--merges",
            "400",
        ]);
        // Two workers, three shards each, numbered by where they sit.
        let w0 = dir.join("w0.parquet");
        let w1 = dir.join("w1.tsv");
        let mut a = vec!["count", "--pretok", "cl100k", "-q", "--out", s(&w0)];
        a.extend(parts[..3].iter().map(|p| s(p)));
        ok(&a);
        let mut b = vec![
            "count",
            "--pretok",
            "cl100k",
            "-q",
            "--shard",
            "3",
            "--out",
            s(&w1),
        ];
        b.extend(parts[3..].iter().map(|p| s(p)));
        ok(&b);
        // The reduce step, then training from its one file.
        let reduced = dir.join("all.parquet");
        ok(&[
            "count",
            "-q",
            "--counts",
            s(&w0),
            s(&w1),
            "--out",
            s(&reduced),
        ]);
        let got = ok(&[
            "train",
            "--counts",
            s(&reduced),
            "--tie",
            tie,
            "--merges",
            "400",
        ]);
        assert_eq!(merges(&got), merges(&want), "tie {tie}");
        // Straight from the two worker files too.
        let got = ok(&[
            "train",
            "--counts",
            s(&w0),
            s(&w1),
            "--tie",
            tie,
            "--merges",
            "400",
        ]);
        assert_eq!(merges(&got), merges(&want), "tie {tie}");
    }
}

#[test]
fn a_folder_or_a_glob_of_part_files_is_read_like_the_files() {
    let dir = scratch("folder");
    let (whole, parts) = shards(&dir, 4);
    let out = dir.join("counts");
    std::fs::create_dir_all(out.join("year=2026")).unwrap();
    for (i, p) in parts.iter().enumerate() {
        let name = out.join("year=2026").join(format!("part-{i:05}.parquet"));
        ok(&[
            "count",
            "-q",
            "--shard",
            &i.to_string(),
            s(p),
            "--out",
            s(&name),
        ]);
    }
    // What Spark and Dask leave beside the parts is skipped.
    std::fs::write(out.join("_SUCCESS"), "").unwrap();
    std::fs::write(out.join("year=2026").join(".part-00000.parquet.crc"), "x").unwrap();
    let want = ok(&["train", s(&whole), "--merges", "300"]);
    let from_folder = ok(&["train", "--counts", s(&out), "--merges", "300"]);
    assert_eq!(merges(&from_folder), merges(&want));
    let glob = format!("{}/*/part-*.parquet", s(&out));
    let from_glob = ok(&["train", "--counts", &glob, "--merges", "300"]);
    assert_eq!(merges(&from_glob), merges(&want));
    let nothing = format!("{}/*.nothing", s(&out));
    let err = refused(&["train", "--counts", &nothing]);
    assert!(err.contains("no count files there"), "{err}");
}

#[test]
fn a_count_file_streams_through_a_pipe_as_tab_separated_text() {
    let dir = scratch("stream");
    let (whole, _) = shards(&dir, 1);
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["count", "-", "--out", "-", "--by-line"])
        .stdin(std::fs::File::open(&whole).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success());
    let tsv = String::from_utf8(out.stdout).unwrap();
    assert!(
        tsv.starts_with(
            "# bpeek counts 2: mode=byte pretok=gpt2 digits=keep by-line=yes; source-bytes "
        ),
        "{}",
        &tsv[..80]
    );
    // The report goes to stderr when the counts take stdout.
    assert!(String::from_utf8_lossy(&out.stderr).contains("distinct chunks"));
    let file = dir.join("piped.tsv");
    std::fs::write(&file, &tsv).unwrap();
    let want = ok(&["train", s(&whole), "--by-line", "--merges", "200"]);
    let got = ok(&["train", "--counts", s(&file), "--merges", "200"]);
    assert_eq!(merges(&got), merges(&want));
}

#[test]
fn the_report_says_what_dropping_rare_chunks_kept() {
    let dir = scratch("min");
    let (whole, _) = shards(&dir, 1);
    let file = dir.join("kept.parquet");
    let report = ok(&[
        "count",
        s(&whole),
        "--min-chunk-count",
        "3",
        "--out",
        s(&file),
        "--report",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&report).unwrap();
    let distinct = doc["distinct_chunks"].as_u64().unwrap();
    let kept = doc["kept_chunks"].as_u64().unwrap();
    assert!(kept > 0 && kept < distinct, "{doc}");
    assert_eq!(
        doc["kept_chunks"].as_u64().unwrap() + doc["dropped_chunks"].as_u64().unwrap(),
        distinct
    );
    let share = doc["kept_share_of_corpus"].as_f64().unwrap();
    assert!(share > 0.5 && share < 1.0, "{doc}");
    // Training from it works, and says its merges are those of the kept chunks.
    let trained = ok(&["train", "--counts", s(&file), "--merges", "50"]);
    assert!(trained.contains("stopped after 50 merges"), "{trained}");
    assert!(
        trained
            .lines()
            .next()
            .unwrap()
            .contains("(chunks seen fewer than 3 times dropped)"),
        "{trained}"
    );
}

#[test]
fn counts_cut_differently_are_not_summed_and_both_files_are_named() {
    let dir = scratch("mismatch");
    let (_, parts) = shards(&dir, 2);
    let a = dir.join("a.parquet");
    let b = dir.join("b.parquet");
    ok(&["count", "-q", s(&parts[0]), "--out", s(&a)]);
    ok(&[
        "count",
        "-q",
        "--pretok",
        "o200k",
        "--shard",
        "1",
        s(&parts[1]),
        "--out",
        s(&b),
    ]);
    for cmd in ["train", "count"] {
        let mut args = vec![cmd, "--counts", s(&a), s(&b)];
        if cmd == "count" {
            args.extend(["--out", "-"]);
        }
        let err = refused(&args);
        assert!(
            err.contains("b.parquet") && err.contains("a.parquet"),
            "{err}"
        );
        assert!(
            err.contains("pretok=o200k") && err.contains("pretok=gpt2"),
            "{err}"
        );
    }
    // Options given to train must agree with the files'.
    let err = refused(&["train", "--counts", s(&a), "--pretok", "cl100k"]);
    assert!(err.contains("pretok=gpt2"), "{err}");
    // Shards that cannot be counted apart are refused before any work.
    let err = refused(&["count", "--pretok", "none", s(&parts[0]), "--out", "-"]);
    assert!(err.contains("--by-line"), "{err}");
}

#[test]
fn damaged_count_files_are_refused_by_name_never_a_panic() {
    let dir = scratch("damaged");
    let (_, parts) = shards(&dir, 1);
    let good = dir.join("good.parquet");
    ok(&["count", "-q", s(&parts[0]), "--out", s(&good)]);
    let bytes = std::fs::read(&good).unwrap();
    let mut rng = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for trial in 0..240 {
        let bad = damaged(&bytes, trial, &mut next);
        let path = dir.join(format!("bad-{trial}.parquet"));
        std::fs::write(&path, &bad).unwrap();
        assert_read_or_refused_by_name(&dir, &path, trial);
    }
    lying_page_header_is_refused_in_one_line(&dir);
    wrong_text_count_files_are_refused_by_line(&dir);
}

/// `bytes` damaged in one of four ways, chosen by `trial`, at places
/// `next` draws.
fn damaged(bytes: &[u8], trial: usize, next: &mut impl FnMut() -> u64) -> Vec<u8> {
    let mut bad = bytes.to_vec();
    match trial % 4 {
        0 => bad.truncate(next() as usize % bad.len()),
        3 => {
            // Whole bytes overwritten anywhere: page headers whose
            // dictionary or lengths lie (the decoder's own panics).
            for _ in 0..1 + next() % 3 {
                let at = next() as usize % bad.len();
                bad[at] = next() as u8;
            }
        }
        1 => {
            for _ in 0..1 + next() % 8 {
                let at = next() as usize % bad.len();
                bad[at] ^= 1 << (next() % 8);
            }
        }
        _ => {
            // The footer, where the schema and sizes are.
            let at = bad.len() - 8 - (next() as usize % 200).min(bad.len() - 9);
            bad[at] = next() as u8;
        }
    }
    bad
}

/// The damaged count file `path` is either read, or refused in one line
/// that names it, by train and by count alike.
fn assert_read_or_refused_by_name(dir: &Path, path: &Path, trial: usize) {
    let summed = dir.join("summed.tsv");
    for args in [
        vec!["train", "--counts", s(path), "--merges", "10"],
        vec!["count", "--counts", s(path), "--out", s(&summed)],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
            .args(&args)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        // No panic text of any dependency reaches the user, whether or
        // not the damage is found (a changed byte may land in chunk
        // bytes and still be a valid file).
        assert!(!err.contains("panicked"), "trial {trial} {args:?}: {err}");
        if !out.status.success() {
            assert_eq!(out.status.code(), Some(2), "trial {trial}: {err}");
            assert!(
                err.contains(&format!("bad-{trial}.parquet")),
                "trial {trial}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "trial {trial}: {err}");
        }
    }
}

/// One byte of a page header changed (which would make the decoder read
/// past a buffer and panic inside the parquet crate): refused in one line.
fn lying_page_header_is_refused_in_one_line(dir: &Path) {
    let text = dir.join("repeated.txt");
    std::fs::write(
        &text,
        "the cat sat on the mat\nhello world of words\n".repeat(50),
    )
    .unwrap();
    let counted = dir.join("repeated.parquet");
    ok(&["count", "-q", s(&text), "--out", s(&counted)]);
    let mut bad = std::fs::read(&counted).unwrap();
    assert_eq!(bad[328], 2, "the page header this case damages moved");
    bad[328] = 56;
    let lying = dir.join("lying-header.parquet");
    std::fs::write(&lying, &bad).unwrap();
    for args in [
        vec!["train", "--counts", s(&lying)],
        vec!["count", "--counts", s(&lying), "--out", "-"],
    ] {
        // The checksum bpeek wrote finds the change before any decoder
        // reads the page.
        let err = refused(&args);
        assert!(
            err.trim_end()
                .starts_with(&format!("bpeek: {}: damaged: its checksum is ", s(&lying))),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Text count files: each wrong field named with its line, a file that
/// says it is in chunk order and is not, another format, and no header.
fn wrong_text_count_files_are_refused_by_line(dir: &Path) {
    let header = "# bpeek counts 1: mode=byte pretok=gpt2 digits=keep by-line=no; source-bytes 9\n";
    for (body, says) in [
        ("the\t-1\t0\t0\n", "line 2: count: not a whole number"),
        ("the\t0\t0\t0\n", "line 2: count: 0"),
        ("the\t1\t0\n", "line 2: 3 fields"),
        ("t\\qe\t1\t0\t0\n", "line 2: chunk: unknown escape"),
        (
            "the\t1\t0\t0\nhe\t2\tx\t0\n",
            "line 3: first_shard: not a whole number",
        ),
    ] {
        let path = dir.join("bad.tsv");
        std::fs::write(&path, format!("{header}{body}")).unwrap();
        let err = refused(&["train", "--counts", s(&path)]);
        assert!(err.contains("bad.tsv") && err.contains(says), "{err}");
    }
    // A file that says it is in chunk order must be.
    let path = dir.join("unsorted.tsv");
    let sorted = header.replace("source-bytes 9", "source-bytes 9; sorted");
    std::fs::write(&path, format!("{sorted}the\t1\t0\t0\nhe\t1\t0\t3\n")).unwrap();
    let err = refused(&["count", "--counts", s(&path), "--out", "-"]);
    assert!(
        err.contains("unsorted.tsv") && err.contains("chunk order"),
        "{err}"
    );
    let path = dir.join("other.tsv");
    std::fs::write(&path, "# bpeek counts 9: mode=byte\n").unwrap();
    let err = refused(&["train", "--counts", s(&path)]);
    assert!(err.contains("format \"9\""), "{err}");
    std::fs::write(&path, "hello\n").unwrap();
    let err = refused(&["train", "--counts", s(&path)]);
    assert!(err.contains("not a count file"), "{err}");
}

/// Numbering a user can get wrong: two parts that both left out --shard,
/// a part missing from the folder. Each is refused, naming the shards.
#[test]
fn shards_counted_twice_or_missing_are_refused_naming_them() {
    let dir = scratch("numbering");
    let (_, parts) = shards(&dir, 3);
    let out = |n: usize| dir.join(format!("part-{n}.parquet"));
    for (n, p) in parts.iter().enumerate() {
        ok(&["count", "-q", s(p), "--out", s(&out(n))]);
    }
    // Every part says shard 0.
    let err = refused(&["train", "--counts", s(&out(0)), s(&out(1))]);
    assert!(err.contains("shard 0 counted twice"), "{err}");
    assert!(err.contains("--shard"), "{err}");
    let err = refused(&["count", "--counts", s(&out(0)), s(&out(2)), "--out", "-"]);
    assert!(err.contains("shard 0 counted twice"), "{err}");
    // Numbered, with the middle part missing.
    for (n, p) in parts.iter().enumerate() {
        let shard = n.to_string();
        ok(&["count", "-q", s(p), "--shard", &shard, "--out", s(&out(n))]);
    }
    let err = refused(&["train", "--counts", s(&out(0)), s(&out(2))]);
    assert!(
        err.contains("shard 1 is missing: the counts hold shard 0, shard 2"),
        "{err}"
    );
    let report = ok(&[
        "count",
        "--counts",
        s(&out(2)),
        s(&out(1)),
        "--out",
        s(&dir.join("r.parquet")),
    ]);
    assert!(report.contains("shards 1-2;"), "{report}");
}

/// Numbers no count file may say: a count past 2^63 - 1 (what Parquet's
/// int64 holds), counts that sum past it, more bytes covered than the
/// file says it counted, and a threshold that keeps nothing.
#[test]
fn counts_and_sizes_a_count_file_cannot_hold_are_refused() {
    let dir = scratch("numbers");
    let header = "# bpeek counts 1: mode=byte pretok=gpt2 digits=keep by-line=no";
    let big = i64::MAX as u64;
    let path = dir.join("huge.tsv");
    std::fs::write(&path, format!("{header}\nthe\t{}\t0\t0\n", big + 1)).unwrap();
    let err = refused(&["train", "--counts", s(&path)]);
    assert!(
        err.contains("huge.tsv") && err.contains("2^63 - 1"),
        "{err}"
    );
    let (half, other) = (dir.join("half.tsv"), dir.join("other-half.tsv"));
    for p in [&half, &other] {
        std::fs::write(p, format!("{header}\nthe\t{}\t0\t0\n", big / 2 + 1)).unwrap();
    }
    let err = refused(&["count", "--counts", s(&half), s(&other), "--out", "-"]);
    assert!(err.contains("2^63 - 1"), "{err}");
    let err = refused(&[
        "count",
        "--counts",
        s(&half),
        s(&other),
        "--out",
        s(&dir.join("x.parquet")),
    ]);
    assert!(err.contains("2^63 - 1"), "{err}");
    let lying = dir.join("lying.tsv");
    std::fs::write(&lying, format!("{header}; source-bytes 5\nthe\t3\t0\t0\n")).unwrap();
    let err = refused(&["train", "--counts", s(&lying)]);
    assert!(
        err.contains("lying.tsv")
            && err.contains("counted 5 bytes of text, but its chunks cover 9"),
        "{err}"
    );
    let fine = dir.join("fine.tsv");
    std::fs::write(&fine, format!("{header}; source-bytes 9\nthe\t3\t0\t0\n")).unwrap();
    let kept = dir.join("kept.parquet");
    let err = refused(&[
        "count",
        "--counts",
        s(&fine),
        "--min-chunk-count",
        "4",
        "--out",
        s(&kept),
    ]);
    assert!(err.contains("keeps none of the 1 distinct chunks"), "{err}");
    assert!(err.contains("the most any chunk is counted is 3"), "{err}");
    assert!(!kept.exists(), "nothing is written");
    let empty = dir.join("empty.tsv");
    std::fs::write(&empty, format!("{header}; source-bytes 0\n")).unwrap();
    let err = refused(&["train", "--counts", s(&empty)]);
    assert!(
        err.contains("no chunk, so there is nothing to train on"),
        "{err}"
    );
}
