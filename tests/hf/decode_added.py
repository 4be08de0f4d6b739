"""Train small tokenizers of each kind with added tokens of every flag and
decode as the library does by default.

stdin: {"dir": folder, "corpus": [lines], "texts": [...]}. Trains byte-level
BPE (plain and behind Lowercase), BPE on characters with byte fallback, WordPiece
behind a lowercasing BertNormalizer and WordLevel, each with the special tokens `<s>` and `<0x41>` (a special token
that is also a byte piece's name), the added tokens `Hello` (normalized),
`World` (not normalized), `naïve` and `ĠzzĀ q` (characters inside and
outside the byte-level alphabet); saves dir/kind.json and prints {kind:
{"json": path, "ids": [encode(text).ids ...], "decoded": [decode(ids) ...],
"kept": [decode(ids, skip_special_tokens=False) ...]}}.
"""
import json
import os
import sys

from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
corpus = job["corpus"]


def byte_level(lowercase):
    tok = Tokenizer(models.BPE())
    if lowercase:
        tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    tok.train_from_iterator(
        corpus,
        trainers.BpeTrainer(vocab_size=320, special_tokens=["<s>"], initial_alphabet=alphabet, show_progress=False),
    )
    return tok


def char_bpe():
    tok = Tokenizer(models.BPE(byte_fallback=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    pieces = ["<s>"] + ["<0x%02X>" % b for b in range(256)]
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=340, special_tokens=pieces, show_progress=False))
    return tok


def word_piece():
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]", "<s>"], show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    return tok


def word_level():
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=["[UNK]", "<s>"], show_progress=False))
    return tok


kinds = {
    "byte_level": byte_level(False),
    "byte_level_lowercase": byte_level(True),
    "char_bpe": char_bpe(),
    "word_piece": word_piece(),
    "word_level": word_level(),
}
out = {}
for kind, tok in kinds.items():
    tok.add_special_tokens([AddedToken("<0x41>", special=True)])
    tok.add_tokens(
        [
            AddedToken("Hello", normalized=True),
            AddedToken("World", normalized=False),
            AddedToken("naïve", normalized=False),
            AddedToken("ĠzzĀ q", normalized=False),
        ]
    )
    path = os.path.join(job["dir"], kind + ".json")
    tok.save(path)
    ids = [tok.encode(t).ids for t in job["texts"]]
    out[kind] = {
        "json": path,
        "ids": ids,
        "decoded": [tok.decode(i) for i in ids],
        "kept": [tok.decode(i, skip_special_tokens=False) for i in ids],
    }
print(json.dumps(out))
