"""bpeek's Unigram vocabulary beside sentencepiece's, trained on the same
corpus to the same size: the share of pieces they have in common, and the
fertility (characters per token) of each on held-out text of each script.

    python3 benches/unigram_pieces_vs_spm.py [--vocab-size V] [--kb N]

The corpus is the system's translated man pages (/usr/share/man/LANG):
for each language the first N kB (default 300) are training text and the
next 30 kB held out. Both files are read by `sentencepiece` to encode.
Prints a Markdown table; asserts nothing."""

import argparse
import glob
import gzip
import os
import subprocess
import sys
import tempfile

import sentencepiece as spm

LANGS = ["de", "fr", "pl", "tr", "ru", "uk", "ja", "ko", "zh_CN"]
HELD = 30_000


def text_of(lang, limit):
    out = []
    size = 0
    for path in sorted(glob.glob(f"/usr/share/man/{lang}/man*/*.gz")):
        try:
            t = gzip.open(path).read().decode("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        out.append(t)
        size += len(t)
        if size > limit:
            break
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--kb", type=int, default=300)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    train, held = [], {}
    for lang in LANGS:
        t = text_of(lang, a.kb * 1000 + HELD)
        if len(t) < a.kb * 1000 + HELD:
            continue
        train.append(t[: a.kb * 1000])
        held[lang] = " ".join(t[a.kb * 1000 : a.kb * 1000 + HELD].split())
    corpus = os.path.join(tmp, "corpus.txt")
    with open(corpus, "w") as f:
        f.write("\n".join(train))
    ours = os.path.join(tmp, "bpeek.model")
    subprocess.run(["target/release/bpeek", "train", corpus, "--model", "unigram",
                    "--vocab-size", str(a.vocab_size), "--byte-fallback", "--out", ours, "-q"],
                   check=True, stdout=subprocess.DEVNULL)
    spm.SentencePieceTrainer.train(input=corpus, model_prefix=os.path.join(tmp, "spm"),
        vocab_size=a.vocab_size, model_type="unigram", num_threads=1, byte_fallback=True,
        character_coverage=1.0, normalization_rule_name="identity", bos_id=-1, eos_id=-1,
        input_sentence_size=0, max_sentence_length=1 << 20, minloglevel=2)
    a_sp = spm.SentencePieceProcessor(model_file=ours)
    b_sp = spm.SentencePieceProcessor(model_file=os.path.join(tmp, "spm.model"))

    def learned(sp):
        return {sp.id_to_piece(i) for i in range(sp.get_piece_size())
                if not (sp.is_unknown(i) or sp.is_control(i) or sp.is_byte(i))}

    x, y = learned(a_sp), learned(b_sp)
    print(f"corpus: {len(train)} languages x {a.kb} kB of man pages; vocabulary {a.vocab_size}")
    print(f"learned pieces: bpeek {len(x)}, sentencepiece {len(y)}, in common {len(x & y)} "
          f"({100 * len(x & y) / max(1, len(y)):.1f}% of sentencepiece's)")
    print("| held-out text | characters | bpeek chars/token | sentencepiece chars/token |")
    print("|---|---|---|---|")
    for lang, t in held.items():
        n = len(t)
        print(f"| {lang} | {n} | {n / len(a_sp.encode(t)):.2f} | {n / len(b_sp.encode(t)):.2f} |")


if __name__ == "__main__":
    sys.exit(main())
