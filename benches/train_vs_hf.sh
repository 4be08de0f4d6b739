#!/usr/bin/env bash
# Training speed and memory of bpeek beside Hugging Face tokenizers'
# BpeTrainer, in one run on this machine. Where Python has no `tokenizers`,
# installs it from PyPI into target/hf-venv the first time.
#
#   benches/train_vs_hf.sh [CORPUS] [--megabytes N] [--vocab-size V | --merges M]
#       [--tie T ...] [--score S ...] [--pretok gpt2|none] [--by-line] [--tail]
#
# Without CORPUS it builds one from the system's man pages (N MB, 100 by
# default). Each tie rule with each score (`--tie first lex hf --score
# count wordpiece`) is a row beside the same Hugging Face runs; --tail
# also times the first and the last 10,000 merges of each. Prints a
# Markdown table; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes=100
bench_option() {
    case "$1" in
        --vocab-size|--merges|--pretok) rest+=("$1" "$2"); taken=2 ;;
        --tie|--score)
            rest+=("$1"); taken=1; shift
            while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do
                rest+=("$1"); taken=$((taken + 1)); shift
            done ;;
        --by-line|--tail) rest+=("$1"); taken=1 ;;
    esac
}
source benches/man_corpus.sh "$@"
python=python3
if ! python3 -c "import tokenizers" 2>/dev/null; then
    if [ ! -x target/hf-venv/bin/python ]; then
        python3 -m venv target/hf-venv
        target/hf-venv/bin/pip install --quiet tokenizers
    fi
    python=target/hf-venv/bin/python
fi
cargo build --release --quiet
exec "$python" benches/train_vs_hf.py "$corpus" "${rest[@]}"
