//! The cluster path with a real engine: a local Dask cluster of two workers
//! counts eight shards through `bpeek count` (examples/dask_count.py), and
//! `bpeek train --counts` on the part files learns the merges of `bpeek
//! train` on the whole text. pyarrow reads the files bpeek writes, and a
//! reduce done by Dask itself (read, group, write) trains the same too.
//!
//! Needs Python with `dask[distributed]` and `pyarrow`: skipped when they
//! are missing, except under CI (`CI` set), where `.ci/run` installs them.

mod scratch;

use std::path::{Path, PathBuf};
use std::process::Command;

fn python_has(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-dask-{}-{name}", std::process::id()))
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

fn bpeek(args: &[&str]) -> String {
    run(Command::new(env!("CARGO_BIN_EXE_bpeek")).args(args))
}

fn merges(report: &str) -> Vec<String> {
    report.lines().skip(1).map(str::to_string).collect()
}

/// Every bundled corpus and sample, several times over with the lines in
/// another order each time, cut into `n` shards at random bytes (inside
/// lines, words and characters).
fn corpus_in_shards(dir: &Path, n: usize) -> (PathBuf, Vec<String>) {
    let mut lines: Vec<&str> = Vec::new();
    for c in bpeek::corpora::BUNDLED {
        lines.extend(c.text.lines().filter(|l| !l.trim().is_empty()));
    }
    let mut text = String::new();
    let mut seed = 7u64;
    for _ in 0..6 {
        for _ in 0..lines.len() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(lines[(seed >> 33) as usize % lines.len()]);
            text.push('\n');
        }
    }
    let whole = dir.join("whole.txt");
    std::fs::write(&whole, &text).unwrap();
    let bytes = text.as_bytes();
    let mut cuts: Vec<usize> = (1..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % bytes.len()
        })
        .collect();
    cuts.sort_unstable();
    cuts.insert(0, 0);
    cuts.push(bytes.len());
    let mut shards = Vec::new();
    for (i, w) in cuts.windows(2).enumerate() {
        let p = dir.join(format!("shard-{i}.txt"));
        std::fs::write(&p, &bytes[w[0]..w[1]]).unwrap();
        shards.push(p.display().to_string());
    }
    (whole, shards)
}

#[test]
fn a_dask_cluster_counts_shards_and_train_learns_the_whole_texts_merges() {
    if !python_has("dask.distributed, dask.dataframe, pyarrow") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have dask[distributed,dataframe] and pyarrow (.ci/run installs them)"
        );
        eprintln!("skipped: python3 has no dask.distributed, dask.dataframe or pyarrow");
        return;
    }
    let dir = scratch("cluster");
    let (whole, shards) = corpus_in_shards(&dir, 8);
    assert_eq!(shards.len(), 8);
    let parts = dir.join("parts");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dask_count.py");
    // Dask's own scratch space (dask-scratch-space) goes in the test's
    // folder, not in the temporary directory where it would stay.
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script)
        .env("TMPDIR", &tmp)
        .args(["--workers", "2", "--bpeek", env!("CARGO_BIN_EXE_bpeek")])
        .arg("--out")
        .arg(&parts)
        .args(&shards)
        .args(["--", "--pretok", "o200k"]);
    run(&mut cmd);
    let parts_s = parts.display().to_string();
    for tie in ["first", "hf"] {
        let want = bpeek(&[
            "train",
            whole.to_str().unwrap(),
            "--pretok",
            "o200k",
            "--tie",
            tie,
            "--merges",
            "500",
        ]);
        let got = bpeek(&[
            "train", "--counts", &parts_s, "--tie", tie, "--merges", "500",
        ]);
        assert_eq!(merges(&got), merges(&want), "tie {tie}");
    }

    // pyarrow reads what bpeek wrote, with the documented schema; Dask
    // reads the parts, does the reduce itself and writes its own Parquet
    // (losing bpeek's metadata, keeping the options column), and `bpeek
    // count --edges-only` keeps the shards' edges it lost beside it.
    let reduced = dir.join("reduced");
    let check = format!(
        r#"
import pyarrow.parquet as pq, dask.dataframe as dd, glob
files = sorted(glob.glob("{parts}/*.parquet"))
assert len(files) == 8, files
t = pq.read_table(files[0])
assert [f.name for f in t.schema] == ["chunk", "count", "first_shard", "first_offset", "options"], t.schema
assert str(t.schema.field("chunk").type) == "binary" and str(t.schema.field("count").type) == "int64"
meta = pq.read_metadata(files[0]).metadata
assert meta[b"bpeek.options"] == b"mode=byte pretok=o200k digits=keep by-line=no", meta
total = sum(pq.read_metadata(f).metadata[b"bpeek.source_bytes"] and int(pq.read_metadata(f).metadata[b"bpeek.source_bytes"]) for f in files)
assert total == {whole_len}, total
df = dd.read_parquet("{parts}")
df = df.compute().sort_values(["first_shard", "first_offset"])
out = df.groupby("chunk", sort=False).agg(count=("count", "sum"), first_shard=("first_shard", "first"), first_offset=("first_offset", "first"), options=("options", "first")).reset_index()
dd.from_pandas(out, npartitions=3).to_parquet("{reduced}", write_index=False)
print(len(out))
"#,
        parts = parts_s,
        reduced = reduced.display(),
        whole_len = std::fs::metadata(&whole).unwrap().len(),
    );
    let distinct: usize = run(Command::new("python3")
        .args(["-c", &check])
        .env("TMPDIR", &tmp))
    .trim()
    .parse()
    .expect("the number of distinct chunks");
    assert!(distinct > 100, "{distinct}");
    let edges = reduced.join("edges.parquet");
    bpeek(&[
        "count",
        "-q",
        "--counts",
        &parts_s,
        "--edges-only",
        "--out",
        edges.to_str().unwrap(),
    ]);
    let want = bpeek(&[
        "train",
        whole.to_str().unwrap(),
        "--pretok",
        "o200k",
        "--merges",
        "500",
    ]);
    let got = bpeek(&[
        "train",
        "--counts",
        &reduced.display().to_string(),
        "--merges",
        "500",
    ]);
    assert_eq!(merges(&got), merges(&want), "after Dask's own reduce");
}

/// Parquet files pyarrow writes wrong in the ways a pipeline can: another
/// codec, nulls, a negative count, a missing column. Each is refused by
/// name with exit 2.
#[test]
fn parquet_files_another_engine_wrote_wrong_are_refused_by_name() {
    if !python_has("pyarrow") {
        assert!(std::env::var_os("CI").is_none(), "CI must have pyarrow");
        eprintln!("skipped: python3 has no pyarrow");
        return;
    }
    let dir = scratch("wrong");
    let make = format!(
        r#"
import pyarrow as pa, pyarrow.parquet as pq
opts = "mode=byte pretok=gpt2 digits=keep by-line=no"
def table(chunk=[b"a", b" b"], count=[2, 1], shard=[0, 0], offset=[0, 1], options=True):
    cols = {{"chunk": pa.array(chunk, pa.binary()), "count": pa.array(count, pa.int64()),
            "first_shard": pa.array(shard, pa.int64()), "first_offset": pa.array(offset, pa.int64())}}
    if options:
        cols["options"] = pa.array([opts] * len(chunk))
    return pa.table(cols)
d = "{dir}"
pq.write_table(table(), d + "/ok.parquet")
pq.write_table(table(), d + "/zstd.parquet", compression="zstd")
pq.write_table(table(count=[2, None]), d + "/null.parquet")
pq.write_table(table(count=[2, -1]), d + "/negative.parquet")
pq.write_table(table(options=False), d + "/no-options.parquet")
pq.write_table(table().drop(["first_shard"]), d + "/no-shard.parquet")
mixed = table()
mixed = mixed.set_column(4, "options", pa.array([opts, "mode=byte pretok=cl100k digits=keep by-line=no"]))
pq.write_table(mixed, d + "/mixed.parquet")
"#,
        dir = dir.display()
    );
    run(Command::new("python3").args(["-c", &make]));
    let ok = bpeek(&[
        "train",
        "--counts",
        &dir.join("ok.parquet").display().to_string(),
    ]);
    assert!(ok.contains("\"a\" + \" \"") || ok.contains("merge"), "{ok}");
    for (file, says) in [
        ("zstd.parquet", "compressed with ZSTD"),
        ("null.parquet", "1 of 2 rows are null"),
        ("negative.parquet", "row 1: count is -1"),
        ("no-options.parquet", "no options"),
        ("no-shard.parquet", "no column \"first_shard\""),
        (
            "mixed.parquet",
            "row 1: column \"options\" says mode=byte pretok=cl100k",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
            .args(["train", "--counts"])
            .arg(dir.join(file))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(file) && err.contains(says), "{file}: {err}");
    }
}
