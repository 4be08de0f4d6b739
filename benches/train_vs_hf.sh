#!/usr/bin/env bash
# Training speed and memory of bpeek beside Hugging Face tokenizers'
# BpeTrainer, in one run on this machine. Installs `tokenizers` from PyPI
# into target/hf-venv the first time.
#
#   benches/train_vs_hf.sh [CORPUS] [--megabytes N] [--vocab-size V]
#
# Without CORPUS it builds one from the system's man pages (N MB, 100 by
# default). Prints a Markdown table; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=""
megabytes=100
vocab=32000
while [ $# -gt 0 ]; do
    case "$1" in
        --megabytes) megabytes="$2"; shift 2 ;;
        --vocab-size) vocab="$2"; shift 2 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) corpus="$1"; shift ;;
    esac
done
if [ -z "$corpus" ]; then
    corpus=target/bench-corpus-${megabytes}mb.txt
    if [ ! -s "$corpus" ]; then
        zcat /usr/share/man/man*/*.gz 2>/dev/null | head -c $((megabytes * 1000000)) > "$corpus" || true
    fi
    if [ ! -s "$corpus" ]; then
        echo "no man pages here to build a corpus from: give a CORPUS file" >&2
        exit 2
    fi
fi
if [ ! -x target/hf-venv/bin/python ]; then
    python3 -m venv target/hf-venv
    target/hf-venv/bin/pip install --quiet tokenizers
fi
cargo build --release --quiet
exec target/hf-venv/bin/python benches/train_vs_hf.py "$corpus" "$vocab"
