"""Unigram files and characters no piece covers: files trained without an
unknown piece (`unk_id: null`, which the library loads and then fails to
encode a character no piece covers with), with and without byte fallback,
on SentencePiece's own pipeline, behind Lowercase and behind a pipeline of
other steps; and files with `<unk>` and byte fallback, where a run of
unknown cuts (the `<unk>` piece made from its own text among them) is
looked up whole and given as its bytes (behind Lowercase, `<UNK>` is no
special token but makes the `<unk>` piece).

stdin: {"dir": folder, "corpus": [lines], "texts": [...]}. Saves
dir/name.json and prints {name: {"json": path, "ids": [ids, or null where
the library's encode(text, add_special_tokens=False) fails ...]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
corpus = job["corpus"]


def unigram(unk, normalizer=None, general=False):
    tok = Tokenizer(models.Unigram())
    if normalizer:
        tok.normalizer = normalizer
    if general:
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()])
    else:
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    specials = ["<unk>", "<s>"] if unk else ["<s>"]
    trainer = trainers.UnigramTrainer(vocab_size=250, special_tokens=specials, unk_token="<unk>" if unk else None,
                                      show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    tok.add_tokens(["qqq"])
    return tok


def with_bytes(tok):
    """The same file with a piece for each byte and byte_fallback on, as a
    file converted from a SentencePiece model with byte fallback has."""
    d = json.loads(tok.to_str())
    have = {p for p, _ in d["model"]["vocab"]}
    d["model"]["vocab"] += [[f"<0x{b:02X}>", -30.0] for b in range(256) if f"<0x{b:02X}>" not in have]
    d["model"]["byte_fallback"] = True
    return Tokenizer.from_str(json.dumps(d))


def hand_made():
    """`x` scores higher than the unknown character `y` costs: the library
    fails on `xy` although the piece `xy` covers it (its search would keep
    `x` and an unknown `y` as the best path to the end of `y`)."""
    vocab = [["\u2581", -1.0], ["a", -2.0], ["x", 20.0], ["xy", -0.5], ["zw", -1.0], ["z", -1.0]]
    vocab += [[c, -3.0] for c in "bcdefghijklmnopqrstuv"]
    tok = Tokenizer(models.Unigram([tuple(v) for v in vocab], None, False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    return tok


files = {
    "unk_null_hand_made": hand_made(),
    "unk_null": unigram(False),
    "unk_null_lowercase": unigram(False, normalizers.Lowercase()),
    "unk_null_bytes": with_bytes(unigram(False)),
    "unk_null_general": unigram(False, general=True),
    "unk_bytes": with_bytes(unigram(True)),
    "unk_bytes_general": with_bytes(unigram(True, general=True)),
    "unk_bytes_lowercase": with_bytes(unigram(True, normalizers.Lowercase())),
    "unk_bytes_lowercase_general": with_bytes(unigram(True, normalizers.Lowercase(), general=True)),
    "unk_no_bytes": unigram(True),
}
out = {}
for name, tok in files.items():
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    tok = Tokenizer.from_file(path)
    ids = []
    for t in job["texts"]:
        try:
            ids.append(tok.encode(t, add_special_tokens=False).ids)
        except Exception as e:
            if "unk_id" not in str(e):
                raise
            ids.append(None)
    out[name] = {"json": path, "ids": ids}
json.dump(out, sys.stdout)
