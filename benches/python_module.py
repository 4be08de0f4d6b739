#!/usr/bin/env python3
"""bpeek's Python module against quicktok and tiktoken, called from Python
the same way, on six kinds of text from this machine.

    python3 benches/python_module.py [--rounds N] [--megabytes N] [--texts WORD] [--threads N] [--cpu]

Needs the module (`pip install ./crates/bpeek-py`), `quicktok-v1` and
`tiktoken` (`python3 -m pip install quicktok-v1 tiktoken`); tiktoken's
cl100k and o200k ranks are read from the `tiktoken-rs` crate in Cargo's
registry (tiktoken would fetch them from the network).

For cl100k and o200k and each text: one call on the whole text as one
string (bpeek `encode`, quicktok and tiktoken `encode_ordinary`), and one
call on its lines (bpeek `encode_batch`, quicktok `encode_batch`, tiktoken
`encode_ordinary_batch` on every core), best of N, in MB/s; the ratio
bpeek / quicktok; and whether every id list equals quicktok's and
tiktoken's. bpeek and tiktoken return lists of ints; quicktok's batch
returns one array of ids and the offsets where each line starts, which are
cut into lists before they are compared (not timed). A third call is the
batch in quicktok's shape on both sides: bpeek `encode_batch(lines,
flat=True)` (two `array.array`s) against quicktok `encode_batch` (two numpy
arrays), its ids and offsets compared with quicktok's as they are
(tiktoken has no such call: its column is blank).
"""

import argparse
import gzip
import json
import os
import random
import sys
import time

import bpeek
import quicktok

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "crates", "bpeek-py", "tests"))
from reference import tiktoken_encoding  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from gettext_strings import gettext_strings  # noqa: E402


def first_bytes(paths, limit, read):
    """The files' texts joined, up to `limit` bytes (whole files)."""
    parts, size = [], 0
    for path in paths:
        try:
            text = read(path)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        parts.append(text)
        size += len(text.encode())
        if size >= limit:
            break
    return "".join(parts)


def walk(top, suffix):
    found = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(suffix))
    return found


def plain(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def json_log(limit, seed=7):
    """A service's JSON log: one event a line, generated."""
    rng = random.Random(seed)
    levels = ["DEBUG", "INFO", "INFO", "INFO", "WARN", "ERROR"]
    paths = ["/api/v2/users", "/api/v2/orders", "/healthz", "/static/app.js", "/login"]
    messages = ["request served", "cache miss", "retrying upstream", "slow query", "token refreshed"]
    lines, size, t = [], 0, 1_764_000_000.0
    while size < limit:
        t += rng.random() * 3
        event = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{rng.randrange(1000):03d}Z",
            "level": rng.choice(levels),
            "msg": rng.choice(messages),
            "path": rng.choice(paths),
            "status": rng.choice([200, 200, 200, 304, 404, 500]),
            "ms": round(rng.expovariate(1 / 40), 2),
            "request_id": "%032x" % rng.getrandbits(128),
            "user": rng.randrange(10**6),
        }
        line = json.dumps(event)
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def long_digits(limit, seed=11):
    """Numbers of 10 to 80 digits, a few to a line."""
    rng = random.Random(seed)
    out, size = [], 0
    while size < limit:
        line = " ".join("".join(rng.choice("0123456789") for _ in range(rng.randint(10, 80))) for _ in range(rng.randint(1, 6)))
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def texts(megabytes):
    limit = int(megabytes * 1_000_000)
    stdlib = os.path.dirname(os.__file__)
    man = [os.path.join("/usr/share/man/man1", f) for f in sorted(os.listdir("/usr/share/man/man1")) if f.endswith(".gz")]
    return [
        ("C headers (/usr/include)", first_bytes(walk("/usr/include", ".h"), limit, plain)),
        ("Python sources (the standard library)", first_bytes(walk(stdlib, ".py"), limit, plain)),
        ("man pages (roff, man1)", first_bytes(man, limit, lambda p: gzip.open(p, "rt", encoding="utf-8").read())),
        ("UI strings (gettext .mo)", gettext_strings(limit, one_line=True)),
        ("JSON log (generated)", json_log(limit)),
        ("long digit strings (generated)", long_digits(limit // 2)),
    ]


CLOCK = time.perf_counter


def best(rounds, call):
    spent, out = None, None
    for _ in range(rounds):
        start = CLOCK()
        out = call()
        d = CLOCK() - start
        spent = d if spent is None else min(spent, d)
    return spent, out


def quicktok_lists(answer):
    tokens, offsets = answer
    tokens = tokens.tolist()
    return [tokens[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


def row(label, size, times, same):
    ours, qt, tik = (None if t is None else size / 1e6 / t for t in times)
    tik = "" if tik is None else f"{tik:.1f}"
    return f"| {label} | {ours:.1f} | {qt:.1f} | {tik} | {ours / qt:.2f} | {same} |"


def same_arrays(ours, theirs):
    """Whether bpeek's (ids, offsets) arrays hold quicktok's numbers."""
    return list(ours[0]) == theirs[0].tolist() and list(ours[1]) == theirs[1].tolist()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=2)
    parser.add_argument("--texts", default="")
    parser.add_argument("--threads", type=int, default=None, help="bpeek's threads (every core's by default)")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by the CPU time of all the process's threads, not the clock: the work done, whatever else the machine runs",
    )
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    cores = os.cpu_count() or 1
    inputs = [(n, t) for n, t in texts(args.megabytes) if args.texts.lower() in n.lower()]
    print(f"bpeek {bpeek.__version__}, quicktok {quicktok.__version__}; {cores} cores; best of {args.rounds}; MB/s\n")
    print("| text | tokenizer | call | bpeek | quicktok | tiktoken | bpeek / quicktok | ids equal |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for ours_name, theirs_name in [("cl100k", "cl100k_base"), ("o200k", "o200k_base")]:
        ours = bpeek.Tokenizer(ours_name)
        qt = quicktok.get_encoding(theirs_name)
        tik = tiktoken_encoding(theirs_name)
        for name, text in inputs:
            size = len(text.encode())
            lines = text.split("\n")
            one = [
                best(args.rounds, lambda: ours.encode(text, threads=args.threads)),
                best(args.rounds, lambda: qt.encode_ordinary(text)),
                best(args.rounds, lambda: tik.encode_ordinary(text)),
            ]
            same = "yes" if one[0][1] == one[1][1] == one[2][1] else "NO"
            print(row(f"{name}, {size / 1e6:.1f} MB | {ours_name} | one string", size, [t for t, _ in one], same))
            batch = [
                best(args.rounds, lambda: ours.encode_batch(lines, threads=args.threads)),
                best(args.rounds, lambda: qt.encode_batch(lines)),
                best(args.rounds, lambda: tik.encode_ordinary_batch(lines, num_threads=cores)),
            ]
            same = "yes" if batch[0][1] == quicktok_lists(batch[1][1]) == batch[2][1] else "NO"
            print(row(f"{name}, {len(lines)} lines | {ours_name} | batch of lines", size, [t for t, _ in batch], same))
            flat = [
                best(args.rounds, lambda: ours.encode_batch(lines, threads=args.threads, flat=True)),
                best(args.rounds, lambda: qt.encode_batch(lines)),
            ]
            same = "yes" if same_arrays(flat[0][1], flat[1][1]) else "NO"
            label = f"{name}, {len(lines)} lines | {ours_name} | batch of lines, flat"
            print(row(label, size, [flat[0][0], flat[1][0], None], same))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
