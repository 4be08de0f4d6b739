"""Train WordLevel tokenizers with Hugging Face `tokenizers` and encode.

stdin: {"corpus": path, "dir": folder, "models": {name: {"pre_tokenizer":
        "Whitespace" | "WhitespaceSplit" | "BertPreTokenizer", "lowercase":
        bool (a BertNormalizer) , "vocab_size": n}}, "texts": [...]}
Trains each (WordLevelTrainer, `<unk>` and `[CLS]` special), saves
dir/name.json and prints {name: {"json": path, "ids": [encode(text,
add_special_tokens=False).ids ...], "decoded": [decode(ids) of the first
200]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
out = {}
for name, o in job["models"].items():
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = getattr(pre_tokenizers, o["pre_tokenizer"])()
    if "lowercase" in o:
        tok.normalizer = normalizers.BertNormalizer(lowercase=o["lowercase"])
    trainer = trainers.WordLevelTrainer(
        vocab_size=o["vocab_size"], special_tokens=["<unk>", "[CLS]"], show_progress=False
    )
    tok.train([job["corpus"]], trainer)
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    tok = Tokenizer.from_file(path)
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    out[name] = {"json": path, "ids": ids, "decoded": [tok.decode(i) for i in ids[:200]]}
json.dump(out, sys.stdout)
