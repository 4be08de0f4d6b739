#!/usr/bin/env python3
"""Gather this machine's distinct text into one pool, in shuffled order.

Text files under the roots (man pages of every language, documentation,
headers, Rust and Python sources, ...) of at most 2 MB (after gunzip),
each kept once (by the SHA-1 of its bytes), NUL bytes dropped, binary and
one-line data (mean line over 1000 bytes) left out, then written in an
order shuffled with a fixed seed: no kind of text comes first, so a
prefix of the pool grows as the whole does.

    python3 benches/scale_pool.py OUT [MAX_BYTES]
"""

import gzip
import hashlib
import os
import random
import sys

ROOTS = ["/usr", "/root", "/opt", "/etc", "/var/lib", "/home"]
SKIP = {"/proc", "/sys", "/dev", "/tmp"}
LIMIT = 2 << 20
TEXT = set(
    """rs py pyi c h hpp cc cpp go java js ts rb pl pm sh lua el hs scala kt cs swift r sql
    toml yaml yml cfg ini conf cmake mk txt md rst adoc org tex bib html htm xml css texi info
    po pot man 1 2 3 4 5 6 7 8 9 n awk vim""".split()
)
NAMES = {"readme", "license", "copying", "news", "changelog", "changes", "authors", "makefile"}


def wanted(path):
    name = os.path.basename(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    if name.endswith((".min.js", ".min.css")):
        return False
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    return ext in TEXT or name.split(".")[0] in NAMES or (not ext and "/man/" in path)


def text_of(path):
    """The file's bytes without NULs, or None when it is not text."""
    try:
        if os.path.getsize(path) > LIMIT:
            return None
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            data = f.read(LIMIT + 1)
    except Exception:  # unreadable, or a damaged archive
        return None
    if not data or len(data) > LIMIT or data.count(b"\0") > len(data) // 1000:
        return None
    data = data.replace(b"\0", b"")
    if data.decode("utf-8", "replace").count("\ufffd") > len(data) // 200:
        return None
    if len(data) / (data.count(b"\n") + 1) > 1000:
        return None
    return data


def main():
    out = sys.argv[1]
    cap = int(sys.argv[2]) if len(sys.argv) > 2 else 5 * 10**9
    seen = {}
    for root in ROOTS:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [s for s in subfolders if os.path.join(folder, s) not in SKIP]
            for name in files:
                path = os.path.join(folder, name)
                if os.path.islink(path) or not wanted(path):
                    continue
                data = text_of(path)
                if data is not None:
                    seen.setdefault(hashlib.sha1(data).digest(), path)
    paths = sorted(seen.values())
    random.Random(42).shuffle(paths)
    total = 0
    with open(out + ".part", "wb") as f:
        for path in paths:
            data = text_of(path)
            if data is None:
                continue
            data += b"" if data.endswith(b"\n") else b"\n"
            f.write(data)
            total += len(data)
            if total >= cap:
                break
    os.replace(out + ".part", out)
    print(f"{len(paths)} distinct files, {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
