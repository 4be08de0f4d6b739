#!/usr/bin/env python3
"""Count corpus shards in Spark by piping each through `bpeek count -`.

Each shard file is one record (`binaryFiles`); a `mapPartitions` task
pipes each of its shards through `bpeek count - --shard N --out -` and
turns the tab-separated rows into a DataFrame, which Spark writes as
Parquet. `bpeek train --counts FOLDER` sums Spark's part files and learns
the merges that `bpeek train` learns on the whole corpus (shards numbered
in corpus order, cut between lines: see docs/scale.md).

    spark-submit examples/spark_count.py --out counts/ 'shards/*.txt' -- --pretok cl100k
    bpeek train --counts counts/ --vocab-size 32000 --out tokenizer.json

`--reduce` sums the counts in Spark too (one row per distinct chunk).
Options after `--` go to every `bpeek count`; `bpeek` must be on the
workers' PATH (or give `--bpeek`).
"""

import argparse
import codecs
import shutil
import subprocess
import sys


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
    files = sc.binaryFiles(args.shards)
    # Shards are numbered in name order: name them in corpus order.
    number = {path: i for i, path in enumerate(sorted(files.keys().collect()))}
    bpeek = args.bpeek

    def count_partition(shards):
        for path, text in shards:
            cmd = [bpeek, "count", "-", "--shard", str(number[path]), "--out", "-", "-q", *options]
            out = subprocess.run(cmd, input=text, stdout=subprocess.PIPE, check=True).stdout
            lines = out.split(b"\n")
            # The first line is the header: "# bpeek counts 1: OPTIONS; ...".
            header = lines[0].decode()
            opts = header.split(": ", 1)[1].split("; ")[0]
            for line in lines[1:]:
                if not line:
                    continue
                chunk, count, shard, offset = line.split(b"\t")
                yield (codecs.escape_decode(chunk)[0], int(count), int(shard), int(offset), opts)

    schema = StructType(
        [
            StructField("chunk", BinaryType(), False),
            StructField("count", LongType(), False),
            StructField("first_shard", LongType(), False),
            StructField("first_offset", LongType(), False),
            StructField("options", StringType(), False),
        ]
    )
    df = spark.createDataFrame(files.mapPartitions(count_partition), schema)
    if args.reduce:
        first = F.min(F.struct("first_shard", "first_offset")).alias("first")
        df = (
            df.groupBy("chunk")
            .agg(F.sum("count").alias("count"), first, F.first("options").alias("options"))
            .select("chunk", "count", "first.first_shard", "first.first_offset", "options")
        )
    df.write.mode("overwrite").parquet(args.out)
    spark.stop()


if __name__ == "__main__":
    main()
