"""Save tokenizers with truncation and padding set, and encode one text at
a time as the library does.

stdin: {"dir": folder, "corpus": [lines], "texts": [...], "settings":
{name: {"truncation": kwargs of enable_truncation or null, "padding":
kwargs of enable_padding or null, "template": bool}}}. Trains one WordPiece
tokenizer (BertNormalizer, BertPreTokenizer, `[CLS]`/`[SEP]` template when
"template" is set) and one byte-level BPE tokenizer, saves each setting as
dir/kind-name.json and prints {"kind-name": {"json": path, "plain":
[encode(text, add_special_tokens=False).ids ...], "added":
[encode(text).ids ...] or an error's text}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

job = json.load(sys.stdin)
corpus = job["corpus"]


def word_piece():
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    specials = ["[UNK]", "[CLS]", "[SEP]", "[PAD]"]
    tok.train_from_iterator(corpus, trainers.WordPieceTrainer(vocab_size=400, special_tokens=specials, show_progress=False))
    return tok


def byte_level():
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<pad>", "<s>"], initial_alphabet=alphabet, show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    return tok


def encode_all(tok, add):
    out = []
    for t in job["texts"]:
        try:
            out.append(tok.encode(t, add_special_tokens=add).ids)
        except Exception as e:  # the library refuses some settings
            out.append(str(e))
    return out


out = {}
for kind, make in (("wordpiece", word_piece), ("bytelevel", byte_level)):
    base = make()
    for name, s in job["settings"].items():
        tok = Tokenizer.from_str(base.to_str())
        if s.get("template"):
            first, second = ("[CLS]", "[SEP]") if kind == "wordpiece" else ("<s>", "<s>")
            tok.post_processor = processors.TemplateProcessing(
                single=f"{first} $A {second}",
                special_tokens=[(first, tok.token_to_id(first)), (second, tok.token_to_id(second))],
            )
        if s.get("truncation") is not None:
            tok.enable_truncation(**s["truncation"])
        if s.get("padding") is not None:
            pad = dict(s["padding"])
            pad.setdefault("pad_id", 3 if kind == "wordpiece" else 0)
            tok.enable_padding(**pad)
        path = os.path.join(job["dir"], f"{kind}-{name}.json")
        tok.save(path)
        tok = Tokenizer.from_file(path)
        out[f"{kind}-{name}"] = {"json": path, "plain": encode_all(tok, False), "added": encode_all(tok, True)}
json.dump(out, sys.stdout)
