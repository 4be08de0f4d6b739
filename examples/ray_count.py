#!/usr/bin/env python3
"""Count corpus shards with Ray tasks running `bpeek count`, then train once.

Each task runs `bpeek count SHARD --shard N` on one shard and writes one
Parquet part file; `bpeek train --counts FOLDER` sums the parts and learns
the merges that `bpeek train` learns on the whole corpus (shards numbered
in corpus order, cut anywhere: see docs/scale.md).

    python3 examples/ray_count.py --out counts/ shards/*.txt -- --pretok cl100k
    bpeek train --counts counts/ --vocab-size 32000 --out tokenizer.json

Options after `--` go to every `bpeek count`. `--address ADDRESS` joins a
running Ray cluster; without it Ray starts locally with `--workers` CPUs.
The shards must be readable by the workers at the same paths.
"""

import argparse
import os
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
    p.add_argument("shards", nargs="+", help="corpus shards, in corpus order")
    p.add_argument("--out", required=True, help="folder for the part files")
    p.add_argument("--bpeek", default=shutil.which("bpeek") or "bpeek")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--address", help="address of a running Ray cluster")
    args = p.parse_args(argv)

    import ray

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    bpeek = os.path.abspath(args.bpeek) if os.path.exists(args.bpeek) else args.bpeek
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)

    @ray.remote
    def count_shard(shard, number):
        part = os.path.join(out, f"part-{number:06d}.parquet")
        subprocess.run(
            [bpeek, "count", "-q", "--shard", str(number), shard, "--out", part, *options],
            check=True,
        )
        return part

    parts = ray.get(
        [count_shard.remote(os.path.abspath(s), i) for i, s in enumerate(args.shards)]
    )
    ray.shutdown()
    print(f"{len(parts)} part files in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
