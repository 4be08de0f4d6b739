"""Encode with the libraries that read bpeek's Unigram files.

stdin: a JSON list of jobs {kind: "hf" (a tokenizer.json, read by
`tokenizers`) or "spm" (a .model, read by `sentencepiece`), file, texts}.
stdout: a JSON list of lists of ids, one list per text of each job.
"""
import json
import sys

answers = []
for job in json.load(sys.stdin):
    if job["kind"] == "hf":
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(job["file"])
        answers.append([tok.encode(t).ids for t in job["texts"]])
    else:
        import sentencepiece

        sp = sentencepiece.SentencePieceProcessor(model_file=job["file"])
        answers.append([sp.encode(t) for t in job["texts"]])
json.dump(answers, sys.stdout)
