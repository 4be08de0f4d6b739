"""Train Hugging Face BpeTrainer as bpeek's `--tie hf` reproduces it.

stdin: a JSON list of jobs {path, pretok ("gpt2", "none", or another name
with its pattern in "split"), vocab_size, min_frequency, specials, by_line}. by_line trains with `train([path])`
(HF reads the file line by line), otherwise with
`train_from_iterator([whole text])`. stdout: a JSON list of
{merges, vocab_size}, one per job.
"""
import json
import sys

from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

answers = []
for job in json.load(sys.stdin):
    tok = Tokenizer(models.BPE())
    if job.get("split"):
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(job["split"]), "isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    else:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(
            add_prefix_space=False, use_regex=job["pretok"] == "gpt2"
        )
    trainer = trainers.BpeTrainer(
        vocab_size=job["vocab_size"],
        min_frequency=job["min_frequency"],
        special_tokens=job["specials"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    if job["by_line"]:
        tok.train([job["path"]], trainer=trainer)
    else:
        with open(job["path"], encoding="utf-8", newline="") as f:
            text = f.read()
        tok.train_from_iterator([text], trainer=trainer)
    model = json.loads(tok.to_str())["model"]
    answers.append({"merges": model["merges"], "vocab_size": tok.get_vocab_size()})
json.dump(answers, sys.stdout)
