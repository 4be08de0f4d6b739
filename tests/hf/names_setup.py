"""Tokenizers and their references for the name tests.

stdin: {"dir": folder, "texts": [...]}
Writes in dir: chat.json (a byte-level BPE with turn markers, by
`tokenizers`), spm.model (a SentencePiece unigram, by `sentencepiece`);
prints {"chat_ids", "chat_vocab", "spm_ids_bos_eos", "spm_vocab"}: each
text's ids (SentencePiece's with BOS and EOS, as `add_bos_token` and
`add_eos_token` ask) and the vocabulary sizes.
"""
import json
import os
import sys

import sentencepiece as spm
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

job = json.load(sys.stdin)
d = job["dir"]
specials = ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
tok.decoder = decoders.ByteLevel()
trainer = trainers.BpeTrainer(
    vocab_size=600, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
)
tok.train_from_iterator(job["texts"] * 20, trainer)
tok.save(os.path.join(d, "chat.json"))

corpus = os.path.join(d, "corpus.txt")
with open(corpus, "w") as f:
    f.write("\n".join(job["texts"] * 20))
spm.SentencePieceTrainer.train(
    input=corpus, model_prefix=os.path.join(d, "spm"), vocab_size=120, hard_vocab_limit=False, minloglevel=2
)
sp = spm.SentencePieceProcessor(model_file=os.path.join(d, "spm.model"))

json.dump(
    {
        "chat_ids": [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]],
        "chat_vocab": tok.get_vocab_size(),
        "spm_ids_bos_eos": [sp.encode(t, add_bos=True, add_eos=True) for t in job["texts"]],
        "spm_vocab": sp.get_piece_size(),
    },
    sys.stdout,
)
