#!/usr/bin/env bash
# Unigram training speed of bpeek beside sentencepiece's and Hugging Face
# tokenizers' Unigram trainers, one thread each, in one run on this
# machine.
#
#   benches/unigram_vs_peers.sh [CORPUS] [--megabytes N] [--vocab-size V]
#
# Without CORPUS it builds one from the system's man pages (N MB, 10 by
# default). Prints a Markdown table; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=""
megabytes=10
rest=()
while [ $# -gt 0 ]; do
    case "$1" in
        --megabytes) megabytes="$2"; shift 2 ;;
        --vocab-size) rest+=("$1" "$2"); shift 2 ;;
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
for module in sentencepiece tokenizers; do
    if ! python3 -c "import $module" 2>/dev/null; then
        echo "Python $module is needed: python3 -m pip install $module" >&2
        exit 2
    fi
done
cargo build --release --quiet
exec python3 benches/unigram_vs_peers.py "$corpus" "${rest[@]}"
