"""Make tokenizer.json files with Hugging Face `tokenizers` itself.

stdin: a JSON list of jobs {out, corpus, vocab_size, pattern (a Split
regex, or null for ByteLevel's own), normalizer (null or "NFC"), added:
[{content, special, single_word, lstrip, rstrip, normalized}], and
optionally steps: {normalizer, pre_tokenizer} as a tokenizer.json holds
them, in place of pattern and normalizer}. Each job
trains byte-level BPE on the corpus, adds the tokens and saves the file.
stdout: the JSON list of the files written.
"""
import json
import sys

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers
from tokenizers import pre_tokenizers, trainers

written = []
for job in json.load(sys.stdin):
    tok = Tokenizer(models.BPE())
    if job["pattern"] is None:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(job["pattern"]), "isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    if job["normalizer"] == "NFC":
        tok.normalizer = normalizers.NFC()
    tok.decoder = decoders.ByteLevel()
    if job.get("steps"):
        doc = json.loads(tok.to_str())
        doc["normalizer"] = job["steps"].get("normalizer")
        doc["pre_tokenizer"] = job["steps"].get("pre_tokenizer")
        tok = Tokenizer.from_str(json.dumps(doc))
    trainer = trainers.BpeTrainer(
        vocab_size=job["vocab_size"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    with open(job["corpus"], encoding="utf-8") as f:
        text = f.read()
    tok.train_from_iterator([text], trainer=trainer)
    for a in job["added"]:
        token = AddedToken(
            a["content"],
            single_word=a["single_word"],
            lstrip=a["lstrip"],
            rstrip=a["rstrip"],
            normalized=a["normalized"],
            special=a["special"],
        )
        if a["special"]:
            tok.add_special_tokens([token])
        else:
            tok.add_tokens([token])
    tok.save(job["out"])
    written.append(job["out"])
json.dump(written, sys.stdout)
