#!/usr/bin/env python3
"""Count corpus shards in Spark by streaming each through `bpeek count -`.

The driver lists the shard files and numbers them; Spark distributes only
the (number, path) pairs, one task per shard. Each task opens its shard
in Python and streams it in blocks into `bpeek count - --shard N --out -`,
reading the tab-separated rows back line by line, so neither the JVM nor
the Python worker ever holds a whole shard (`binaryFiles` would). The rows
become a DataFrame, which Spark writes as Parquet; the text at the shards'
edges goes to `edges.tsv` beside the part files. `bpeek train --counts
FOLDER` sums them and learns the merges that `bpeek train` learns on the
whole corpus (shards numbered in corpus order, cut anywhere: see
docs/scale.md).

    spark-submit examples/spark_count.py --out counts/ 'shards/*.txt' -- --pretok cl100k
    bpeek train --counts counts/ --vocab-size 32000 --out tokenizer.json

`--reduce` sums the counts in Spark too (one row per distinct chunk).
Options after `--` go to every `bpeek count`; `bpeek` must be on the
workers' PATH (or give `--bpeek`). Local shards are read with `open`,
others (hdfs://, s3://, ...) through pyarrow's file systems.
"""

import argparse
import codecs
import shutil
import subprocess
import sys
import threading

try:
    from pyspark.accumulators import AccumulatorParam
except ImportError:  # --help without pyspark
    AccumulatorParam = object

BLOCK = 1 << 20  # bytes handed to bpeek per write


def list_shards(sc, pattern):
    """The shard files a path, folder or glob names, as Hadoop sees them.

    Hadoop's own listing keeps the paths `binaryFiles` read (hdfs://, s3a://,
    folders, hidden `_`/`.` files skipped) without reading any file.
    """
    hadoop = sc._jvm.org.apache.hadoop.fs
    path = hadoop.Path(pattern)
    fs = path.getFileSystem(sc._jsc.hadoopConfiguration())
    found = []
    for status in fs.globStatus(path) or []:
        inside = fs.listStatus(status.getPath()) if status.isDirectory() else [status]
        for s in inside:
            name = s.getPath().getName()
            if s.isFile() and not name.startswith(("_", ".")):
                found.append(s.getPath().toString())
    return sorted(found)


def open_shard(path):
    """A binary stream of the shard: local files directly, others via pyarrow."""
    if path.startswith("file:"):
        from urllib.parse import unquote, urlparse

        return open(unquote(urlparse(path).path), "rb")
    from pyarrow import fs

    filesystem, inner = fs.FileSystem.from_uri(path)
    return filesystem.open_input_stream(inner)


def feed(path, stdin, failed):
    """Copy the shard into bpeek's stdin block by block (runs in a thread).

    A read error is kept in `failed`: bpeek would otherwise count the part
    it got and exit 0, and the shard's counts would be silently short.
    """
    try:
        with open_shard(path) as src:
            while block := src.read(BLOCK):
                stdin.write(block)
    except BrokenPipeError:
        pass  # bpeek stopped early; its exit status says why
    except Exception as e:
        failed.append(e)
    finally:
        try:
            stdin.close()
        except BrokenPipeError:
            pass


def count_shard(bpeek, options, number, path, edges):
    """One shard's rows (chunk, count, first_shard, first_offset, options).

    The text at the shard's two edges, which bpeek keeps apart until its
    neighbours join it, comes as `# run/head/tail` lines after the header;
    they go to `edges` (an accumulator), not into the rows.
    """
    cmd = [bpeek, "count", "-", "--shard", str(number), "--out", "-", "-q", *options]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    # Feeding from another thread: bpeek may write rows before it has read all.
    failed = []
    writer = threading.Thread(target=feed, args=(path, proc.stdin, failed), daemon=True)
    writer.start()
    opts = None
    header, edge_lines = None, []
    for line in proc.stdout:
        line = line.rstrip(b"\n")
        if line.startswith(b"#"):
            # The header ("# bpeek counts 2: OPTIONS; ..."), then the edge
            # lines. bpeek escapes a leading '#' in a chunk, so no row
            # starts with one.
            if header is None:
                header = line.decode()
                opts = header.split(": ", 1)[1].split("; ")[0]
            else:
                edge_lines.append(line.decode())
            continue
        if not line:
            continue
        chunk, count, shard, offset = line.split(b"\t")
        yield (codecs.escape_decode(chunk)[0], int(count), int(shard), int(offset), opts)
    writer.join()
    if failed:
        proc.wait()
        raise failed[0]
    if proc.wait() != 0:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    edges.add({number: (header, edge_lines)})


class ByShard(AccumulatorParam):
    """Edges gathered from the tasks, one entry per shard (a task run
    again gives the same lines)."""

    def zero(self, value):
        return {}

    def addInPlace(self, a, b):
        a.update(b)
        return a


def write_edges(sc, out, edges):
    """The shards' edges as one TSV count file in the output folder, beside
    Spark's part files: `bpeek train --counts` joins them and counts the
    chunks where the shards meet."""
    if not edges:
        return
    options = next(iter(edges.values()))[0].split(": ", 1)[1].split("; ")[0]
    total = 0
    for header, _ in edges.values():
        for field in header.split("; ")[1:]:
            if field.startswith("source-bytes "):
                total += int(field.split(" ")[1])
    lines = [f"# bpeek counts 2: {options}; source-bytes {total}"]
    for number in sorted(edges):
        lines.extend(edges[number][1])
    hadoop = sc._jvm.org.apache.hadoop.fs
    path = hadoop.Path(out.rstrip("/") + "/edges.tsv")
    stream = path.getFileSystem(sc._jsc.hadoopConfiguration()).create(path, True)
    stream.write(bytearray(("\n".join(lines) + "\n").encode()))
    stream.close()


def main():
    argv = sys.argv[1:]
    options = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1 :]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("shards", help="a path or glob Spark reads the shards from")
    p.add_argument("--out", required=True, help="folder Spark writes Parquet to")
    p.add_argument("--bpeek", default=shutil.which("bpeek") or "bpeek")
    p.add_argument("--reduce", action="store_true", help="sum the counts in Spark")
    args = p.parse_args(argv)

    from pyspark.sql import SparkSession, functions as F
    from pyspark.sql.types import BinaryType, LongType, StringType, StructField, StructType

    spark = SparkSession.builder.appName("bpeek count").getOrCreate()
    sc = spark.sparkContext
    # Shards are numbered in name order: name them in corpus order.
    shards = list(enumerate(list_shards(sc, args.shards)))
    if not shards:
        sys.exit(f"no shard files match {args.shards}")
    bpeek = args.bpeek
    edges = sc.accumulator({}, ByShard())

    def count_partition(pairs):
        for number, path in pairs:
            yield from count_shard(bpeek, options, number, path, edges)

    schema = StructType(
        [
            StructField("chunk", BinaryType(), False),
            StructField("count", LongType(), False),
            StructField("first_shard", LongType(), False),
            StructField("first_offset", LongType(), False),
            StructField("options", StringType(), False),
        ]
    )
    # One partition per shard: only the (number, path) pairs travel.
    pairs = sc.parallelize(shards, len(shards))
    df = spark.createDataFrame(pairs.mapPartitions(count_partition), schema)
    if args.reduce:
        first = F.min(F.struct("first_shard", "first_offset")).alias("first")
        df = (
            df.groupBy("chunk")
            .agg(F.sum("count").alias("count"), first, F.first("options").alias("options"))
            .select("chunk", "count", "first.first_shard", "first.first_offset", "options")
        )
    df.write.mode("overwrite").parquet(args.out)
    write_edges(sc, args.out, edges.value)
    spark.stop()


if __name__ == "__main__":
    main()
