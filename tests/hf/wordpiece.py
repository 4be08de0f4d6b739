"""Train WordPiece tokenizers with Hugging Face `tokenizers` and encode.

stdin: {"corpus": path, "dir": folder, "models": {name: {"lowercase": bool,
        "strip_accents": bool or null, "pre_tokenizer": "bert" or
        "whitespace", "vocab_size": n}}, "texts": [...]}
Trains each model (BertNormalizer, the pre-tokenizer, WordPieceTrainer with
BERT's special tokens) on the corpus, saves dir/name.json and
dir/name-vocab.txt (the vocabulary, one token a line in id order), then
prints {name: {"json": path, "vocab_txt": path, "lowercase": bool,
"ids": [encode(text, add_special_tokens=False).ids ...],
"vocab_txt_ids": [the same with BertWordPieceTokenizer(vocab.txt)],
"decoded": [decode(ids) of the first encodings], "vocab_txt_decoded":
[[ids, decode(ids), decode(ids, skip_special_tokens=False)] ...], the
ids BertWordPieceTokenizer gives the first texts with its [CLS] and
[SEP]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from tokenizers.implementations import BertWordPieceTokenizer

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

job = json.load(sys.stdin)
out = {}
for name, o in job["models"].items():
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(
        lowercase=o["lowercase"], strip_accents=o.get("strip_accents")
    )
    if o.get("pre_tokenizer") == "whitespace":
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
    else:
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(
        vocab_size=o["vocab_size"], special_tokens=SPECIALS
    )
    tok.train([job["corpus"]], trainer)
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    vocab = tok.get_vocab()
    vocab_txt = os.path.join(job["dir"], name + "-vocab.txt")
    with open(vocab_txt, "w", encoding="utf-8") as f:
        for token, _ in sorted(vocab.items(), key=lambda kv: kv[1]):
            f.write(token + "\n")
    bert = BertWordPieceTokenizer(vocab_txt, lowercase=o["lowercase"])
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    out[name] = {
        "json": path,
        "vocab_txt": vocab_txt,
        "ids": ids,
        "vocab_txt_ids": [
            bert.encode(t, add_special_tokens=False).ids for t in job["texts"]
        ],
        "decoded": [tok.decode(i) for i in ids[:200]],
        "vocab_txt_decoded": [
            [i, bert.decode(i), bert.decode(i, skip_special_tokens=False)]
            for i in (bert.encode(t).ids for t in job["texts"][:200])
        ],
    }
json.dump(out, sys.stdout)
