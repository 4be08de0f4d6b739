"""Run one Hugging Face normalizer or pre-tokenizer over every code point.

stdin: a JSON list of jobs, each {"normalizer": JSON} or {"pre_tokenizer":
JSON} (a step as a tokenizer.json writes it), with "texts": [...].
A normalizer job also has every Unicode scalar value normalized on its own.
stdout: a JSON list, one answer per job:
  normalizer: {"changed": {"CODE POINT": output, ...} for each code point
  whose output is not itself, "texts": [output of each text]}
  pre_tokenizer: {"texts": [[[start, end, piece or null], ...] per text]},
  offsets in characters, the piece null where it is the text at its
  offsets.
"""
import json
import sys

from tokenizers import Tokenizer


def tokenizer(job):
    doc = {
        "version": "1.0",
        "model": {"type": "WordLevel", "vocab": {"<unk>": 0}, "unk_token": "<unk>"},
        "normalizer": job.get("normalizer"),
        "pre_tokenizer": job.get("pre_tokenizer"),
    }
    return Tokenizer.from_str(json.dumps(doc))


def every_code_point():
    for c in range(0x110000):
        if not 0xD800 <= c < 0xE000:
            yield chr(c)


def normalizer_answer(n, texts):
    changed = {}
    for c in every_code_point():
        out = n.normalize_str(c)
        if out != c:
            changed[str(ord(c))] = out
    return {"changed": changed, "texts": [n.normalize_str(t) for t in texts]}



def pieces(p, text):
    out = []
    for piece, (start, end) in p.pre_tokenize_str(text):
        out.append([start, end, None if text[start:end] == piece else piece])
    return out


answers = []
for job in json.load(sys.stdin):
    tok = tokenizer(job)
    if job.get("normalizer") is not None:
        answers.append(normalizer_answer(tok.normalizer, job["texts"]))
    else:
        answers.append({"texts": [pieces(tok.pre_tokenizer, t) for t in job["texts"]]})
json.dump(answers, sys.stdout, ensure_ascii=False)
