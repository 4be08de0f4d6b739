#!/usr/bin/env python3
"""`bpeek encode` as a command against quicktok called from Python.

    python3 benches/encode_cli.py TEXT_FILE...

For cl100k and o200k and each text: quicktok's `encode_ordinary` on the
text as one string and `encode_batch` on its lines (every core), timed
inside Python with the tokenizer loaded beforehand, so the anchor is the
call alone; and whole `bpeek encode` processes (`--format text`, `json`,
`json --tokens`, `ids`, `--count`, `--lines --format ids`), median of 5,
output to /dev/null. The last columns are the ratios quicktok / bpeek (above
1: the bpeek process is faster). Before each tokenizer's rows, the process
that only starts and loads it (`--count hello`), median of 21. BPEEK names
the binary (default target/release/bpeek). Needs `pip install quicktok-v1`.
"""

import os
import statistics
import subprocess
import sys
import time

import quicktok


def median_time(run, times=5):
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def check_ids(bpeek, name, path, text):
    """The bpeek process's ids are quicktok's, or the figures mean nothing."""
    out = subprocess.run(
        [bpeek, "encode", "--tokenizer", name, "--file", path, "--format", "ids"],
        stdout=subprocess.PIPE,
        check=True,
    ).stdout
    ids = [int(i) for i in out.split()]
    return ids == quicktok.get_encoding(f"{name}_base").encode_ordinary(text)


def main():
    bpeek = os.environ.get("BPEEK", "target/release/bpeek")
    print(
        "tokenizer text | quicktok one, batch | bpeek text json json+tokens ids count lines "
        "| ids vs one, lines vs batch (seconds; ratios above 1: bpeek faster) | ids equal"
    )
    for name in ["cl100k", "o200k"]:
        enc = quicktok.get_encoding(f"{name}_base")
        start = [bpeek, "encode", "--tokenizer", name, "--count", "hello"]
        started = median_time(
            lambda: subprocess.run(start, stdout=subprocess.DEVNULL, check=True), times=21
        )
        print(f"{name}: the process that starts and loads it, {started * 1000:.1f} ms", flush=True)
        for path in sys.argv[1:]:
            # newline="": the text as it is, carriage returns too.
            text = open(path, encoding="utf-8", newline="").read()
            lines = text.split("\n")
            one = median_time(lambda: enc.encode_ordinary(text))
            batch = median_time(lambda: enc.encode_batch(lines))

            def command(*extra):
                args = [bpeek, "encode", "--tokenizer", name, "--file", path, *extra]
                return median_time(
                    lambda: subprocess.run(args, stdout=subprocess.DEVNULL, check=True)
                )

            report = command()
            json = command("--format", "json")
            tokens = command("--format", "json", "--tokens")
            ids = command("--format", "ids")
            count = command("--count")
            by_line = command("--lines", "--format", "ids")
            equal = check_ids(bpeek, name, path, text)
            print(
                f"{name} {os.path.basename(path)} | {one:.3f} {batch:.3f} | {report:.3f} "
                f"{json:.3f} {tokens:.3f} {ids:.3f} {count:.3f} {by_line:.3f} "
                f"| {one / ids:.2f}x {batch / by_line:.2f}x | {equal}",
                flush=True,
            )


if __name__ == "__main__":
    main()
