"""Train Unigram tokenizers with Hugging Face `tokenizers` and encode.

stdin: {"corpus": path, "dir": folder, "models": {name: {"prepend_scheme":
        "first" | "always" | "never", "split": bool, "normalizers": [names
        of NFC, NFD, NFKC, NFKD or Lowercase, alone or as a Sequence],
        "vocab_size": n, "specials": [tokens; "<unk>" when missing]}},
        "texts": [...]}
or, for any pipeline, {name: {"steps": {"normalizer": JSON, "pre_tokenizer":
JSON, "decoder": JSON}, "vocab_size": n}}: the steps as a tokenizer.json
holds them.
Trains each model (Metaspace pre-tokenizer and decoder, UnigramTrainer with
`<unk>` as its unknown piece and `specials` as its special tokens) on the
corpus, saves dir/name.json and prints
{name: {"json": path, "ids": [encode(text, add_special_tokens=False).ids
...], "decoded": [decode(ids) of the first encodings]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
out = {}
for name, o in job["models"].items():
    tok = Tokenizer(models.Unigram())
    scheme = o.get("prepend_scheme", "always")
    split = o.get("split", True)
    steps = {
        "nfc": normalizers.NFC,
        "nfd": normalizers.NFD,
        "nfkc": normalizers.NFKC,
        "nfkd": normalizers.NFKD,
        "lowercase": normalizers.Lowercase,
    }
    norm = [steps[n]() for n in o.get("normalizers", [])]
    if len(norm) == 1:
        tok.normalizer = norm[0]
    elif norm:
        tok.normalizer = normalizers.Sequence(norm)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=scheme, split=split)
    tok.decoder = decoders.Metaspace(prepend_scheme=scheme, split=split)
    if "steps" in o:
        doc = json.loads(tok.to_str())
        for part in ("normalizer", "pre_tokenizer", "decoder"):
            doc[part] = o["steps"].get(part)
        tok = Tokenizer.from_str(json.dumps(doc))
    trainer = trainers.UnigramTrainer(
        vocab_size=o["vocab_size"],
        special_tokens=o.get("specials", ["<unk>"]),
        unk_token="<unk>",
    )
    tok.train([job["corpus"]], trainer)
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    # Encode with the file as saved, as bpeek reads it.
    tok = Tokenizer.from_file(path)
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    out[name] = {
        "json": path,
        "ids": ids,
        "decoded": [tok.decode(i) for i in ids[:200]],
    }
json.dump(out, sys.stdout)
