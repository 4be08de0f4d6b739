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
megabytes=10
bench_option() {
    case "$1" in
        --vocab-size) rest+=("$1" "$2"); taken=2 ;;
    esac
}
source benches/man_corpus.sh "$@"
for module in sentencepiece tokenizers; do
    if ! python3 -c "import $module" 2>/dev/null; then
        echo "Python $module is needed: python3 -m pip install $module" >&2
        exit 2
    fi
done
cargo build --release --quiet
exec python3 benches/unigram_vs_peers.py "$corpus" "${rest[@]}"
