"""Encode and decode with Hugging Face `tokenizers`.

stdin: a JSON list of jobs {tokenizer: path of a tokenizer.json, texts:
[...]}. stdout: a JSON list of {ids: [[...]], decoded: [...]}, one per job:
the ids of each text (`encode(text).ids`, special tokens matched as HF
always matches them) and `decode(ids)` of those ids.
"""
import json
import sys

from tokenizers import Tokenizer

answers = []
for job in json.load(sys.stdin):
    tok = Tokenizer.from_file(job["tokenizer"])
    ids = [tok.encode(t).ids for t in job["texts"]]
    decoded = [tok.decode(i, skip_special_tokens=False) for i in ids]
    answers.append({"ids": ids, "decoded": decoded})
json.dump(answers, sys.stdout)
