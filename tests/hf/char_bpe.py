"""Make Hugging Face BPE tokenizers on characters and encode with them.

stdin: {"corpus": path, "dir": folder, "models": {name: {"style": "legacy"
        | "metaspace", "prepend_scheme": ..., "split": bool, "byte_fallback":
        bool, "fuse_unk": bool, "normalizers": ["nfkc" | "lowercase"],
        "ignore_merges": bool, "vocab_size": n}}, "texts": [...]}

Each model is trained with BpeTrainer on the corpus (`<unk>`, `<s>`, `</s>`
special), then rebuilt with the 256 byte tokens `<0x00>`..`<0xFF>` added to
its vocabulary (as Llama 2's has them) and the flags asked for:

- "legacy": Llama 2's file: normalizer Sequence[Prepend("▁"), Replace(" ",
  "▁")], no pre-tokenizer, decoder Sequence[Replace("▁", " "),
  ByteFallback, Fuse, Strip(" ", 1, 0)];
- "metaspace": a Metaspace pre-tokenizer and decoder with the scheme and
  split asked for (Mistral's newer files);
- "custom": the "normalizer", "pre_tokenizer" and "decoder" given as the
  JSON a tokenizer.json holds, and "prefix" / "suffix" as the model's
  continuing_subword_prefix and end_of_word_suffix (trained with them).

Saves dir/name.json and prints {name: {"json": path, "ids": [encode(text,
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
    style = o.get("style", "legacy")
    steps = {"nfkc": normalizers.NFKC, "lowercase": normalizers.Lowercase, "strip": normalizers.Strip}
    extra = [steps[n]() for n in o.get("normalizers", [])]

    def dress(tok):
        if style == "custom":
            doc = json.loads(tok.to_str())
            for part in ("normalizer", "pre_tokenizer", "decoder"):
                doc[part] = o.get(part)
            return Tokenizer.from_str(json.dumps(doc))
        if style == "legacy":
            tok.normalizer = normalizers.Sequence(
                extra + [normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")]
            )
            tok.decoder = decoders.Sequence(
                [
                    decoders.Replace("\u2581", " "),
                    decoders.ByteFallback(),
                    decoders.Fuse(),
                    decoders.Strip(" ", 1, 0),
                ]
            )
        elif style == "metaspace":
            if extra:
                tok.normalizer = normalizers.Sequence(extra) if len(extra) > 1 else extra[0]
            scheme = o.get("prepend_scheme", "first")
            split = o.get("split", False)
            tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=scheme, split=split)
            tok.decoder = decoders.Sequence(
                [decoders.ByteFallback(), decoders.Metaspace(prepend_scheme=scheme, split=split)]
            )

    affixes = {}
    if o.get("prefix"):
        affixes["continuing_subword_prefix"] = o["prefix"]
    if o.get("suffix"):
        affixes["end_of_word_suffix"] = o["suffix"]
    base = Tokenizer(models.BPE(unk_token="<unk>", **affixes))
    base = dress(base) or base
    if style == "legacy":
        # Training splits on nothing: words are lines, which the trainer
        # takes whole; cut them at spaces for training only.
        base.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="never", split=True)
    trainer = trainers.BpeTrainer(
        vocab_size=o["vocab_size"],
        special_tokens=["<unk>", "<s>", "</s>"],
        show_progress=False,
        **affixes,
    )
    base.train([job["corpus"]], trainer)
    trained = json.loads(base.to_str())["model"]
    vocab = dict(trained["vocab"])
    for b in range(256):
        piece = "<0x%02X>" % b
        if piece not in vocab:
            vocab[piece] = len(vocab)
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in trained["merges"]]
    tok = Tokenizer(
        models.BPE(
            vocab=vocab,
            merges=merges,
            unk_token="<unk>",
            byte_fallback=o.get("byte_fallback", True),
            fuse_unk=o.get("fuse_unk", True),
            ignore_merges=o.get("ignore_merges", False),
            **affixes,
        )
    )
    tok = dress(tok) or tok
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    tok = Tokenizer.from_file(path)
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    out[name] = {"json": path, "ids": ids, "decoded": [tok.decode(i) for i in ids[:200]]}
json.dump(out, sys.stdout)
