"""Train, encode and decode with Python `sentencepiece`.

stdin: a JSON object, one of
  {"train": {"input": corpus path, "dir": folder, "models": {name: options}}}
      trains each model with SentencePieceTrainer (options as keyword
      arguments) into dir/name.model; prints the list of paths;
  {"encode": [{"model": path, "texts": [...], "decode": [[ids], ...]}]}
      prints, per job, {ids: [sp.encode(text)...], decoded: [sp.decode(ids)
      of those ids...], decode: [sp.decode(ids) of the given id lists...]}.
"""
import json
import os
import sys

import sentencepiece as spm

job = json.load(sys.stdin)
if "train" in job:
    t = job["train"]
    paths = []
    for name, options in t["models"].items():
        prefix = os.path.join(t["dir"], name)
        spm.SentencePieceTrainer.train(
            input=t["input"], model_prefix=prefix, minloglevel=2, **options
        )
        paths.append(prefix + ".model")
    json.dump(paths, sys.stdout)
else:
    answers = []
    for j in job["encode"]:
        sp = spm.SentencePieceProcessor(model_file=j["model"])
        ids = [sp.encode(t) for t in j["texts"]]
        answers.append(
            {
                "ids": ids,
                "decoded": [sp.decode(i) for i in ids],
                "decode": [sp.decode(i) for i in j.get("decode", [])],
            }
        )
    json.dump(answers, sys.stdout)
