#!/usr/bin/env bash
# Training on a corpus counted in shards cut at random bytes, against one
# process on the whole text: wall time and peak memory of each step, and
# the merges compared.
#
#   bash benches/scale.sh            # corpora of 1, 2 and 5 GB
#   bash benches/scale.sh 1 2        # sizes in GB
#
# The corpus is a prefix of this machine's distinct text in shuffled order
# (benches/scale_pool.py: manual pages in every language installed,
# documentation, headers, Rust and Python sources, each file once). A size
# the machine has not that much distinct text for is skipped, said so:
# text is never repeated to make up the size. Shards of about 128 MB are
# cut at random bytes (inside lines, words and characters) and counted
# with the default options (byte mode, gpt2): their edges meet in the
# reduce, so the merges must equal those of one process on the whole text.
#
# Steps timed (/usr/bin/time: wall seconds, peak resident memory):
#   single   bpeek train WHOLE --vocab-size 32000
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

pool="${BPEEK_SCALE_POOL:-$work/shuffled-pool.txt}"
if [ ! -s "$pool" ]; then
    echo "gathering the machine's distinct text into $pool" >&2
    python3 benches/scale_pool.py "$pool"
fi
pool_bytes=$(stat -c %s "$pool")
echo "pool: $pool_bytes bytes of distinct text" >&2

timed() { # label, then the command; appends "label wall_s peak_kB" to $times
    local label=$1
    shift
    /usr/bin/time -f "$label %e %M" -a -o "$times" "$@"
}

# Cut FILE into shards of about N bytes into DIR, each cut at a random byte
# (seeded) within a quarter shard of a multiple of N.
cut_at_random_bytes() {
    python3 - "$1" "$2" "$3" <<'EOF'
import os, random, sys
path, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
total = os.path.getsize(path)
rng = random.Random(17)
cuts = [k * size + rng.randrange(-size // 4, size // 4) for k in range(1, total // size)]
with open(path, "rb") as f:
    at = 0
    for i, end in enumerate(cuts + [total]):
        with open(os.path.join(out, f"shard-{i:04d}.txt"), "wb") as o:
            o.write(f.read(end - at))
        at = end
EOF
}

printf '%-6s %-8s %8s %10s\n' size step wall_s peak_MB
for gb in "${sizes[@]}"; do
    dir="$work/${gb}gb"
    want=$((gb * 1000 * 1000 * 1000))
    mkdir -p "$dir"
    if [ "$pool_bytes" -lt "$want" ]; then
        echo "skipped ${gb} GB: this machine has $pool_bytes bytes of distinct text" >&2
        continue
    fi
    if [ ! -s "$dir/whole.txt" ] || [ "$(stat -c %s "$dir/whole.txt")" -ne "$want" ]; then
        echo "building a corpus of $gb GB" >&2
        head -c "$want" "$pool" >"$dir/whole.txt"
        rm -rf "$dir/shards"
        mkdir -p "$dir/shards"
        cut_at_random_bytes "$dir/whole.txt" $((128 << 20)) "$dir/shards"
    fi
    times="$dir/times"
    : >"$times"
    rm -rf "$dir/parts"
    timed single "$bpeek" train "$dir/whole.txt" --vocab-size 32000 -q \
        --out "$dir/single.json" >"$dir/single.txt"
    timed map python3 examples/dask_count.py --workers 2 --bpeek "$bpeek" \
        --out "$dir/parts" "$dir"/shards/shard-*.txt 2>/dev/null
    timed reduce "$bpeek" count --counts "$dir/parts" --out "$dir/merged.parquet" \
        --report json >"$dir/reduce.json"
    timed train "$bpeek" train --counts "$dir/merged.parquet" --vocab-size 32000 -q \
        --out "$dir/counted.json" >"$dir/counted.txt"
    timed worker "$bpeek" count "$dir/shards/shard-0001.txt" --shard 1 --out "$dir/one.parquet" -q
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
