#!/usr/bin/env python3
"""`bpeek encode` as a command against tiktoken's encoding call.

    python3 benches/encode_cli.py TEXT_FILE...

For each text: tiktoken's `encode_ordinary` on the text as one string and
`encode_ordinary_batch` on its lines (2 threads), timed inside Python with
the tokenizer loaded beforehand; and whole `bpeek encode` processes
(`--format text`, `json`, `ids`, `--count`, `--lines`), cl100k, median of
5. The cl100k ranks come from the `tiktoken-rs` crate in Cargo's registry
(tiktoken would fetch them from the network). BPEEK names the binary
(default target/release/bpeek). Needs `pip install tiktoken`.
"""

import glob
import os
import statistics
import subprocess
import sys
import time

import tiktoken
from tiktoken.load import load_tiktoken_bpe

# cl100k_base's published pattern.
PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)


def cl100k():
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    ranks = glob.glob(f"{home}/registry/src/*/tiktoken-rs-*/assets/cl100k_base.tiktoken")[0]
    return tiktoken.Encoding("cl100k_base", pat_str=PATTERN, mergeable_ranks=load_tiktoken_bpe(ranks), special_tokens={})


def median_time(run, times=5):
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def main():
    bpeek = os.environ.get("BPEEK", "target/release/bpeek")
    enc = cl100k()
    print("text  tiktoken batch | text json ids count lines | ids/tiktoken lines/batch (seconds)")
    for path in sys.argv[1:]:
        text = open(path, encoding="utf-8", errors="replace").read()
        lines = text.split("\n")
        one = median_time(lambda: enc.encode_ordinary(text))
        batch = median_time(lambda: enc.encode_ordinary_batch(lines, num_threads=2))

        def command(*extra):
            args = [bpeek, "encode", "--tokenizer", "cl100k", "--file", path, *extra]
            return median_time(lambda: subprocess.run(args, stdout=subprocess.DEVNULL, check=True))

        report = command()
        json = command("--format", "json")
        ids = command("--format", "ids")
        count = command("--count")
        by_line = command("--lines", "--format", "ids")
        print(
            f"{os.path.basename(path)} {one:.3f} {batch:.3f} | {report:.3f} {json:.3f} {ids:.3f} "
            f"{count:.3f} {by_line:.3f} | {one / ids:.2f}x {batch / by_line:.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
