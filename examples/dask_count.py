#!/usr/bin/env python3
"""Count corpus shards on a Dask cluster with `bpeek count`, then train once.

Each worker runs `bpeek count SHARD --shard N` on its shards and writes one
Parquet part file; `bpeek train --counts FOLDER` sums the parts and learns
the merges that `bpeek train` learns on the whole corpus (shards numbered
in corpus order, cut anywhere: see docs/scale.md).

    python3 examples/dask_count.py --out counts/ shards/*.txt -- --pretok cl100k
    bpeek train --counts counts/ --vocab-size 32000 --out tokenizer.json

Options after `--` go to every `bpeek count` (they must be the options that
decide chunks: --mode, --pretok, --digits, --by-line). `--scheduler ADDRESS`
uses a running cluster; without it a local cluster of `--workers` processes
is started (its workers threads unless `--processes`: a task only runs
`bpeek count` and waits). The shards must be readable by the workers at the same paths.
"""

import argparse
import os
import shutil
import subprocess
import sys


def count_shard(bpeek, shard, number, out_dir, options):
    """One map task: the distinct chunks of one shard, as one part file."""
    part = os.path.join(out_dir, f"part-{number:06d}.parquet")
    subprocess.run(
        [bpeek, "count", "-q", "--shard", str(number), shard, "--out", part, *options],
        check=True,
    )
    return part


def main():
    argv = sys.argv[1:]
    options = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1 :]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("shards", nargs="+", help="corpus shards, in corpus order")
    p.add_argument("--out", required=True, help="folder for the part files")
    p.add_argument("--bpeek", default=shutil.which("bpeek") or "bpeek")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scheduler", help="address of a running Dask scheduler")
    p.add_argument(
        "--processes",
        action="store_true",
        help="local workers as processes (by default threads: each task only waits on bpeek)",
    )
    args = p.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    os.makedirs(args.out, exist_ok=True)
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=args.processes,
            dashboard_address=None,
        )
        client = Client(cluster)
    bpeek = os.path.abspath(args.bpeek) if os.path.exists(args.bpeek) else args.bpeek
    futures = [
        client.submit(count_shard, bpeek, os.path.abspath(s), i, args.out, options, pure=False)
        for i, s in enumerate(args.shards)
    ]
    parts = client.gather(futures)
    client.close()
    print(f"{len(parts)} part files in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
