"""Byte-level BPE files trained as BpeTrainer trains by default (no
initial_alphabet: only the bytes of the corpus have tokens), with no
normalizer, behind NFKC and behind Lowercase; the library drops a byte
with no token when encoding.

stdin: {"dir": folder, "corpus": [lines], "texts": [...]}. Saves
dir/name.json and prints {name: {"json": path, "dropped": [n ...]}}, n being
the bytes of the normalized text (what the model is given) less the bytes
of the tokens encode gives.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
# GPT-2's alphabet: the printable bytes stand for themselves, the rest
# follow from U+0100 in byte order.
order = [b for b in range(256) if b in set(
    list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100)))]
byte_of = {chr(b): b for b in order}
n = 0
for b in range(256):
    if b not in order:
        byte_of[chr(256 + n)] = b
        n += 1


def token_bytes(token):
    return bytes(byte_of[c] for c in token)


def byte_level(normalizer):
    tok = Tokenizer(models.BPE())
    if normalizer is not None:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(job["corpus"], trainers.BpeTrainer(vocab_size=400, show_progress=False))
    return tok


files = {
    "plain": byte_level(None),
    "nfkc": byte_level(normalizers.NFKC()),
    "lowercase": byte_level(normalizers.Lowercase()),
}
out = {}
for name, tok in files.items():
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    dropped = []
    for text in job["texts"]:
        given = tok.normalizer.normalize_str(text) if tok.normalizer else text
        tokens = tok.encode(text, add_special_tokens=False).tokens
        dropped.append(len(given.encode()) - sum(len(token_bytes(t)) for t in tokens))
    out[name] = {"json": path, "dropped": dropped}
json.dump(out, sys.stdout)
