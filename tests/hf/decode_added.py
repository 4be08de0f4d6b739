"""Train small tokenizers of each kind with added tokens of every flag and
decode as the library does, leaving special tokens out and keeping them.

stdin: {"dir": folder, "corpus": [lines], "texts": [...], "id_lists":
[[f, ...]]} (ids as fractions of the vocabulary, 0 to 1). Trains byte-level
BPE (plain, behind Lowercase, with no decoder, with a decoder Sequence),
BPE on characters with byte fallback, BPE with an end-of-word suffix
`</w>` (BPEDecoder), WordPiece behind a lowercasing BertNormalizer,
WordLevel and Unigram (Metaspace), each with the special tokens `<s>`,
`<0x41>` (a special token that is also a byte piece's name) and `[Mask]`
(matched normalized, so behind Lowercase it decodes as `[mask]`), the added
tokens `Hello` (normalized), `World` (not normalized), `naïve` and `ĠzzĀ q`
(characters inside and outside the byte-level alphabet); saves
dir/kind.json and prints {kind: {"json": path, "ids": [encode(text).ids
...], "decoded": [decode(ids) ...], "kept": [decode(ids,
skip_special_tokens=False) ...], "random": [[ids, decode(ids), decode(ids,
skip_special_tokens=False)] ...]}}, a decoding where the library panics
as null.
"""
import json
import os
import sys

from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
corpus = job["corpus"]


def byte_level(lowercase, decoder=decoders.ByteLevel()):
    tok = Tokenizer(models.BPE())
    if lowercase:
        tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    if decoder is not None:
        tok.decoder = decoder
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


def end_of_word():
    tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.decoder = decoders.BPEDecoder(suffix="</w>")
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<s>"], end_of_word_suffix="</w>", show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    return tok


def unigram():
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=200, special_tokens=["<unk>", "<s>"], unk_token="<unk>", show_progress=False)
    tok.train_from_iterator(corpus, trainer)
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
    "byte_level_no_decoder": byte_level(False, None),
    "byte_level_sequence": byte_level(True, decoders.Sequence([decoders.ByteLevel(), decoders.Strip(" ", 1, 1)])),
    "end_of_word": end_of_word(),
    "unigram": unigram(),
    "char_bpe": char_bpe(),
    "word_piece": word_piece(),
    "word_level": word_level(),
}
def decode(tok, ids, skip=True):
    """The library's decode, or None where it panics (its Strip decoder
    indexes an empty token: a list of left-out special tokens only)."""
    try:
        return tok.decode(ids, skip_special_tokens=skip)
    except BaseException as e:
        if type(e).__name__ != "PanicException":
            raise
        return None


out = {}
for kind, tok in kinds.items():
    tok.add_special_tokens([AddedToken("<0x41>", special=True), AddedToken("[Mask]", special=True, normalized=True)])
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
    size = tok.get_vocab_size()
    lists = [[min(int(f * size), size - 1) for f in l] for l in job["id_lists"]]
    out[kind] = {
        "random": [[l, decode(tok, l), decode(tok, l, False)] for l in lists],
        "json": path,
        "ids": ids,
        "decoded": [decode(tok, i) for i in ids],
        "kept": [decode(tok, i, False) for i in ids],
    }
print(json.dumps(out))
