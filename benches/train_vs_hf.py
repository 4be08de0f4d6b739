"""Drive benches/train_vs_hf.sh: time each trainer in its own process and
read its peak memory and CPU time from the operating system's accounting.

    train_vs_hf.py CORPUS [--merges M | --vocab-size V] [--tie T ...]
                   [--score S ...] [--pretok gpt2|none] [--by-line] [--tail]

Every bpeek row (each tie rule with each score) is timed beside the same
Hugging Face BpeTrainer runs, in one run. Hugging Face's trainer reads a
file a line at a time, as bpeek does with --by-line; its byte-level
pre-tokenizer splits as gpt2 does (`--pretok none`: ByteLevel without its
regex, a whole line a word). With --tail each bpeek row is also timed to
0, 10,000, M - 10,000 and M merges: the first 10,000 merges against the
last 10,000."""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HF_TRAIN = """
import sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
corpus, vocab, regex = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "gpt2"
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=regex)
trainer = trainers.BpeTrainer(
    vocab_size=vocab,
    min_frequency=0,
    show_progress=False,
    initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
)
tok.train([corpus], trainer)
print(tok.get_vocab_size())
"""

TAIL = 10_000


def run(cmd, env=None, out=subprocess.DEVNULL):
    """Wall seconds, CPU seconds (user + system) and peak resident MiB of
    one command."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=out)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best_cpu(cmd, times=3):
    """The least CPU seconds of a few runs (the machine may be shared)."""
    return min(run(cmd)[1] for _ in range(times))


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


def bpeek_cmd(args, merges, tie, score):
    cmd = ["target/release/bpeek", "train", args.corpus, "--merges", str(merges),
           "--tie", tie, "--score", score, "--pretok", args.pretok, "--quiet",
           "--format", "json"]
    if args.by_line:
        cmd.append("--by-line")
    return cmd


def merges_in(path):
    with open(path) as f:
        return len(json.load(f)["merges"])


def tail_times(args, tie, score, made):
    """CPU seconds of the first and of the last 10,000 merges made (each
    point the best of three runs)."""
    if made < 2 * TAIL:
        return None
    cpu = {}
    for m in sorted({0, TAIL, made - TAIL, made}):
        cpu[m] = best_cpu(bpeek_cmd(args, m, tie, score))
    return cpu[TAIL] - cpu[0], cpu[made] - cpu[made - TAIL]


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("--merges", type=int)
    p.add_argument("--vocab-size", type=int, default=32000)
    p.add_argument("--tie", nargs="+", default=["hf"])
    p.add_argument("--score", nargs="+", default=["count"])
    p.add_argument("--pretok", choices=["gpt2", "none"], default="gpt2")
    p.add_argument("--by-line", action="store_true")
    p.add_argument("--tail", action="store_true")
    args = p.parse_args()
    if args.merges is None:
        args.merges = args.vocab_size - 256
    return args


def main():
    args = parse()
    size = os.path.getsize(args.corpus)
    cores = os.cpu_count() or 1
    lines = " --by-line" if args.by_line else ""
    print(f"# Training to {args.merges} merges on {args.corpus} ({size / 1e6:.1f} MB), "
          f"bpeek --pretok {args.pretok}{lines}, {machine()}, {cores} cores, "
          f"{time.strftime('%Y-%m-%d')}\n")
    hf = [sys.executable, "-c", HF_TRAIN, args.corpus, str(256 + args.merges), args.pretok]
    one = dict(os.environ, RAYON_NUM_THREADS="1")
    hf_rows = [("HF BpeTrainer, 1 thread",) + run(hf, one),
               (f"HF BpeTrainer, {cores} threads",) + run(hf)]
    hf_wall = min(r[1] for r in hf_rows)
    out = f"target/bench-bpeek-merges-{os.getpid()}.json"
    print("| trainer | merges made | wall s | CPU s | peak MiB | wall / HF's best |"
          + (" first 10k CPU s | last 10k CPU s | last / first |" if args.tail else ""))
    print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|---:|" if args.tail else ""))
    for name, wall, cpu, peak in hf_rows:
        print(f"| {name} | | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {wall / hf_wall:.2f} |"
              + (" | | |" if args.tail else ""))
    for score in args.score:
        for tie in args.tie:
            with open(out, "wb") as f:
                wall, cpu, peak = run(bpeek_cmd(args, args.merges, tie, score), out=f)
            made = merges_in(out)
            row = (f"| bpeek --tie {tie} --score {score} | {made} | {wall:.2f} | {cpu:.2f} "
                   f"| {peak:.0f} | {wall / hf_wall:.3f} |")
            if args.tail:
                tail = tail_times(args, tie, score, made)
                if tail:
                    first, last = tail
                    row += f" {first:.2f} | {last:.2f} | {last / max(first, 1e-3):.2f} |"
                else:
                    row += " | | |"
            print(row, flush=True)
    os.remove(out)


if __name__ == "__main__":
    main()
