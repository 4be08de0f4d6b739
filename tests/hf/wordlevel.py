"""Train WordLevel tokenizers with Hugging Face `tokenizers` and encode.

stdin: {"corpus": path, "dir": folder, "models": {name: {"pre_tokenizer":
        "Whitespace" | "WhitespaceSplit" | "BertPreTokenizer", "lowercase":
        bool (a BertNormalizer) , "vocab_size": n}}, "texts": [...]}
or, for any pipeline, {name: {"steps": {"normalizer": JSON, "pre_tokenizer":
JSON}, "wordpiece": bool, "vocab_size": n}}: the steps as a tokenizer.json
holds them, and a WordPiece model (with its decoder) in place of WordLevel.
Trains each (WordLevelTrainer or WordPieceTrainer, `<unk>` and `[CLS]`
special), saves
dir/name.json and prints {name: {"json": path, "ids": [encode(text,
add_special_tokens=False).ids ...], "decoded": [decode(ids) of the first
200]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
out = {}
for name, o in job["models"].items():
    special = ["<unk>", "[CLS]"]
    if o.get("wordpiece"):
        tok = Tokenizer(models.WordPiece(unk_token="<unk>"))
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(
            vocab_size=o["vocab_size"], special_tokens=special, show_progress=False
        )
    else:
        tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
        trainer = trainers.WordLevelTrainer(
            vocab_size=o["vocab_size"], special_tokens=special, show_progress=False
        )
    if "steps" in o:
        doc = json.loads(tok.to_str())
        doc["normalizer"] = o["steps"].get("normalizer")
        doc["pre_tokenizer"] = o["steps"].get("pre_tokenizer")
        tok = Tokenizer.from_str(json.dumps(doc))
    else:
        tok.pre_tokenizer = getattr(pre_tokenizers, o["pre_tokenizer"])()
        if "lowercase" in o:
            tok.normalizer = normalizers.BertNormalizer(lowercase=o["lowercase"])
    tok.train([job["corpus"]], trainer)
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    tok = Tokenizer.from_file(path)
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    out[name] = {"json": path, "ids": ids, "decoded": [tok.decode(i) for i in ids[:200]]}
json.dump(out, sys.stdout)
