#!/usr/bin/env bash
# Training on a corpus counted in shards, against one process on the whole
# text: wall time and peak memory of each step, and the merges compared.
#
#   bash benches/scale.sh            # corpora of 1, 2 and 5 GB
#   bash benches/scale.sh 1 2        # sizes in GB
#
# The corpus is built from this machine's text (manual pages in every
# language installed, /usr/share/doc, the Rust and Python sources on disk,
# bpeek's multilingual samples), taken whole once; each further pass over
# it shifts the letters (a to b, ...) so that no pass repeats another.
# Shards of 128 MB are cut at line breaks and counted with --by-line, so
# the merges must equal those of one process on the whole text.
#
# Steps timed (/usr/bin/time: wall seconds, peak resident memory):
#   single   bpeek train WHOLE --by-line --vocab-size 32000
#   map      examples/dask_count.py: a local Dask cluster of 2 workers
#            runs bpeek count on each shard (one part file per shard)
#   reduce   bpeek count --counts PARTS --out merged.parquet
#   train    bpeek train --counts merged.parquet --vocab-size 32000
# and one `bpeek count` of a single shard, for a worker's own memory.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 2 5)
work="${BPEEK_SCALE_DIR:-target/scale}"
mkdir -p "$work"
cargo build --release --quiet
bpeek="$PWD/target/release/bpeek"

pool="$work/pool.txt"
if [ ! -s "$pool" ]; then
    echo "gathering the machine's text into $pool" >&2
    {
        find /usr/share/man -name '*.gz' -size -2M -print0 | sort -z | xargs -0 zcat -f 2>/dev/null || true
        find /usr/share/doc -type f \( -name '*.txt' -o -name 'README*' -o -name '*.md' \) -size -2M -print0 |
            sort -z | xargs -0 cat 2>/dev/null || true
        find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -type f \( -name '*.rs' -o -name '*.md' \) -size -2M -print0 |
            sort -z | xargs -0 cat 2>/dev/null || true
        find "$(python3 -c 'import sys; print(sys.prefix)')" -type f -name '*.py' -size -2M -print0 |
            sort -z | xargs -0 cat 2>/dev/null || true
        cat corpora/samples/* corpora/*.txt
    } | tr -d '\000' >"$pool"
fi
pool_bytes=$(stat -c %s "$pool")
echo "pool: $pool_bytes bytes of distinct text" >&2

# Letters shifted by k places (k = 0: the text as it is).
shift_letters() {
    local k=$1 lower=abcdefghijklmnopqrstuvwxyz upper=ABCDEFGHIJKLMNOPQRSTUVWXYZ
    local l2="${lower:k}${lower:0:k}" u2="${upper:k}${upper:0:k}"
    tr "a-zA-Z" "$l2$u2"
}

timed() { # label, then the command; appends "label wall_s peak_kB" to $times
    local label=$1
    shift
    /usr/bin/time -f "$label %e %M" -a -o "$times" "$@"
}

printf '%-6s %-8s %8s %10s\n' size step wall_s peak_MB
for gb in "${sizes[@]}"; do
    dir="$work/${gb}gb"
    want=$((gb * 1000 * 1000 * 1000))
    mkdir -p "$dir"
    if [ ! -s "$dir/whole.txt" ] || [ "$(stat -c %s "$dir/whole.txt")" -lt "$want" ]; then
        echo "building a corpus of $gb GB" >&2
        k=0
        : >"$dir/whole.txt"
        while [ "$(stat -c %s "$dir/whole.txt")" -lt "$want" ]; do
            shift_letters $((k % 26)) <"$pool" >>"$dir/whole.txt"
            k=$((k + 1))
        done
        truncate -s "$want" "$dir/whole.txt"
        # Whole lines only at the end.
        tail -c 1 "$dir/whole.txt" | od -c | grep -q '\\n' || echo >>"$dir/whole.txt"
        rm -rf "$dir/shards"
        mkdir -p "$dir/shards"
        split -C 128M -d -a 4 --additional-suffix=.txt "$dir/whole.txt" "$dir/shards/shard-"
    fi
    times="$dir/times"
    : >"$times"
    rm -rf "$dir/parts"
    timed single "$bpeek" train "$dir/whole.txt" --by-line --vocab-size 32000 -q \
        --out "$dir/single.json" >"$dir/single.txt"
    timed map python3 examples/dask_count.py --workers 2 --bpeek "$bpeek" \
        --out "$dir/parts" "$dir"/shards/shard-*.txt -- --by-line 2>/dev/null
    timed reduce "$bpeek" count --counts "$dir/parts" --out "$dir/merged.parquet" \
        --report json >"$dir/reduce.json"
    timed train "$bpeek" train --counts "$dir/merged.parquet" --vocab-size 32000 -q \
        --out "$dir/counted.json" >"$dir/counted.txt"
    timed worker "$bpeek" count --by-line "$dir/shards/shard-0000.txt" --out "$dir/one.parquet" -q
    while read -r label wall kb; do
        printf '%-6s %-8s %8.1f %10.0f\n' "${gb}GB" "$label" "$wall" "$((kb / 1024))"
    done <"$times"
    if cmp -s "$dir/single.json" "$dir/counted.json"; then
        same="identical"
    else
        same="DIFFERENT"
    fi
    python3 - "$dir" "$same" <<'EOF'
import json, os, sys
d, same = sys.argv[1], sys.argv[2]
r = json.load(open(os.path.join(d, "reduce.json")))
t = {}
for line in open(os.path.join(d, "times")):
    label, wall, kb = line.split()
    t[label] = (float(wall), int(kb) * 1024)
dask = t["map"][0] + t["reduce"][0] + t["train"][0]
parts = sum(os.path.getsize(os.path.join(d, "parts", f)) for f in os.listdir(os.path.join(d, "parts")))
print(f"  merges {same}; source {r['source_bytes']} bytes; {r['distinct_chunks']} distinct chunks, "
      f"{r['distinct_chunk_bytes']} bytes; part files {parts} bytes; merged file "
      f"{os.path.getsize(os.path.join(d, 'merged.parquet'))} bytes")
print(f"  Dask path {dask:.1f} s = {dask / t['single'][0]:.2f}x one process ({t['single'][0]:.1f} s); "
      f"reduce peak {t['reduce'][1] / max(r['distinct_chunk_bytes'], 1):.1f}x the distinct chunks' bytes")
EOF
done
