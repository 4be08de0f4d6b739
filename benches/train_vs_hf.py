"""Drive benches/train_vs_hf.sh: time each trainer in its own process and
read its peak memory from the operating system's accounting."""

import os
import platform
import subprocess
import sys
import time

HF_TRAIN = """
import sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
corpus, vocab = sys.argv[1], int(sys.argv[2])
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(
    vocab_size=vocab,
    min_frequency=0,
    show_progress=False,
    initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
)
tok.train([corpus], trainer)
print(tok.get_vocab_size())
"""


def run(cmd, env=None):
    """Wall seconds and peak resident MiB of one command."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024


def machine():
    """The CPU model, from /proc/cpuinfo where there is one."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def main():
    corpus, vocab = sys.argv[1], sys.argv[2]
    size = os.path.getsize(corpus)
    cores = os.cpu_count() or 1
    print(f"# Training to {vocab} tokens on {corpus} ({size / 1e6:.0f} MB), "
          f"{machine()}, {cores} cores, "
          f"{time.strftime('%Y-%m-%d')}\n")
    out = "target/bench-bpeek-tokenizer.json"
    rows = []
    bpeek = ["target/release/bpeek", "train", corpus, "--vocab-size", vocab,
             "--tie", "lex", "--quiet", "--out", out]
    rows.append(("bpeek (gpt2 pre-tokenizer, tie lex)",) + run(bpeek))
    hf = [sys.executable, "-c", HF_TRAIN, corpus, vocab]
    one = dict(os.environ, RAYON_NUM_THREADS="1")
    rows.append(("HF tokenizers BpeTrainer, 1 thread",) + run(hf, one))
    rows.append((f"HF tokenizers BpeTrainer, {cores} threads",) + run(hf))
    print("| trainer | wall s | peak MiB | peak / corpus |")
    print("|---|---:|---:|---:|")
    for name, wall, peak in rows:
        print(f"| {name} | {wall:.1f} | {peak:.0f} | {peak * 1048576 / size:.1f}x |")
    _, ours_wall, ours_peak = rows[0]
    for name, wall, peak in rows[1:]:
        print(f"\nbpeek / {name}: wall {ours_wall / wall:.2f}, peak memory {ours_peak / peak:.2f}")


if __name__ == "__main__":
    main()
