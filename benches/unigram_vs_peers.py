"""Drive benches/unigram_vs_peers.sh: Unigram training to a vocabulary size
by bpeek, sentencepiece and Hugging Face `tokenizers`, each in its own
process on one thread, timed side by side; bpeek's slowest EM iteration
and prune are read from its own report (each step's seconds).

    unigram_vs_peers.py CORPUS [--vocab-size V]

sentencepiece is asked for what bpeek does: identity normalization,
every character kept (character_coverage 1), every line read, one
thread. Hugging Face's UnigramTrainer runs under RAYON_NUM_THREADS=1 with
a Metaspace pre-tokenizer. Prints a Markdown table; asserts nothing."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SPM = """
import sys, sentencepiece as spm
spm.SentencePieceTrainer.train(input=sys.argv[1], model_prefix=sys.argv[2],
    vocab_size=int(sys.argv[3]), model_type="unigram", num_threads=1,
    character_coverage=1.0, normalization_rule_name="identity",
    input_sentence_size=0, max_sentence_length=1 << 20, minloglevel=2)
"""

HF = """
import sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
tok = Tokenizer(models.Unigram())
tok.pre_tokenizer = pre_tokenizers.Metaspace()
trainer = trainers.UnigramTrainer(vocab_size=int(sys.argv[2]), unk_token="<unk>",
    show_progress=False)
tok.train([sys.argv[1]], trainer)
tok.save(sys.argv[3])
"""


def timed(cmd, env=None):
    """Wall seconds and peak resident MB of one child process (GNU time)."""
    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, env=env)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"{cmd[0]} failed: {out.stderr.decode(errors='replace')[:400]}")
    peak_kb = int(out.stderr.decode().strip().splitlines()[-1])
    return wall, peak_kb / 1024, out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--vocab-size", type=int, default=8000)
    a = ap.parse_args()
    env = dict(os.environ, RAYON_NUM_THREADS="1", OMP_NUM_THREADS="1")
    tmp = tempfile.mkdtemp()
    size = os.path.getsize(a.corpus)
    rows = []
    wall, mb, out = timed(["target/release/bpeek", "train", a.corpus, "--model", "unigram",
                           "--vocab-size", str(a.vocab_size), "--format", "json", "-q"], env)
    report = json.loads(out)
    steps = report["steps"]
    em = [s["seconds"] for s in steps if s["phase"] == "estimated"]
    prune = [s["seconds"] for s in steps if s["phase"] == "pruned"]
    score = [s["seconds"] for s in steps if s["phase"] == "scored"]
    rows.append(("bpeek", wall, mb))
    w, m, _ = timed([sys.executable, "-c", SPM, a.corpus, os.path.join(tmp, "spm"),
                     str(a.vocab_size)], env)
    rows.append(("sentencepiece", w, m))
    w, m, _ = timed([sys.executable, "-c", HF, a.corpus, str(a.vocab_size),
                     os.path.join(tmp, "hf.json")], env)
    rows.append(("tokenizers", w, m))
    print(f"corpus {a.corpus} ({size / 1e6:.1f} MB), vocabulary {a.vocab_size}, one thread")
    print(f"bpeek: {report['seeds']} seeds, {len(steps) - 1} steps; seeding {steps[0]['seconds']:.2f} s; "
          f"EM iteration median {sorted(em)[len(em) // 2]:.3f} s, slowest {max(em):.3f} s; "
          f"scoring slowest {max(score):.3f} s; prune slowest {max(prune):.3f} s")
    print("| trainer | seconds | peak MB | bpeek's time / theirs |")
    print("|---|---|---|---|")
    for name, w, m in rows:
        print(f"| {name} | {w:.2f} | {m:.0f} | {rows[0][1] / w:.2f} |")


if __name__ == "__main__":
    main()
