"""Files the library loads whose parts bpeek once refused: Unigram files
with added tokens the vocabulary lacks (special and not), WordPiece
files decoding through a decoder Sequence or CTC or cutting words with
FixedLength, byte-level files whose decoder Sequence runs steps after
ByteLevel or before it (on the tokens' byte-level spellings) or has no
ByteLevel at all, byte-level, Unigram and WordPiece files with no decoder
(tokens joined by spaces) or an empty Sequence (joined as they are), and byte-level files trained without initial_alphabet (bytes
with no token dropped).

stdin: {"dir": folder, "corpus": [lines], "texts": [...], "id_lists":
[[n, ...]]} (ids as fractions of the vocabulary, 0 to 1). Saves
dir/name.json and prints {name: {"json": path, "ids": [encode(text,
add_special_tokens=False).ids ...], "decoded": [[ids, decode(ids),
decode(ids, skip_special_tokens=False)] ...]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

job = json.load(sys.stdin)
corpus = job["corpus"]


def unigram(lowercase, decoder=decoders.Metaspace()):
    tok = Tokenizer(models.Unigram())
    if lowercase:
        tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    if decoder is not None:
        tok.decoder = decoder
    trainer = trainers.UnigramTrainer(vocab_size=300, special_tokens=["<unk>", "<s>"], unk_token="<unk>", show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    tok.add_tokens(["hello world", "qqq"])
    tok.add_special_tokens(["<extra>"])
    return tok


def byte_level(decoder, every_byte=True, normalizer=None, added=False):
    """Byte-level BPE; without `every_byte`, trained as BpeTrainer does by
    default (no initial_alphabet): only the bytes of the corpus have tokens."""
    tok = Tokenizer(models.BPE())
    if normalizer:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    if decoder is not None:
        tok.decoder = decoder
    alphabet = pre_tokenizers.ByteLevel.alphabet() if every_byte else []
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<s>"], initial_alphabet=alphabet, show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    if added:
        tok.add_tokens(["hello world", "na\u00efve"])
        tok.add_special_tokens(["<extra>"])
    return tok


def word_piece(decoder, pre_tokenizer=None):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizer or pre_tokenizers.BertPreTokenizer()
    if decoder is not None:
        tok.decoder = decoder
    specials = ["[UNK]", "[PAD]", "[CLS]"]
    tok.train_from_iterator(corpus, trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials, show_progress=False))
    # CTC's pad and delimiter as ordinary tokens too, so that they decode.
    tok.add_tokens(["|", "<pad>"])
    return tok


files = {
    "unigram_added": unigram(False),
    "unigram_added_lowercase": unigram(True),
    "wordpiece_strip": word_piece(decoders.Sequence([decoders.WordPiece(), decoders.Strip(" ", 1, 1)])),
    "wordpiece_metaspace": word_piece(decoders.Sequence([decoders.Metaspace(), decoders.WordPiece(cleanup=False)])),
    "wordpiece_replace_fuse": word_piece(decoders.Sequence([decoders.Replace("##", "+"), decoders.Fuse()])),
    "ctc": word_piece(decoders.CTC(pad_token="<pad>", word_delimiter_token="|", cleanup=True)),
    "wordpiece_fixed_length": word_piece(decoders.WordPiece(), pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.FixedLength(length=3)])),
    "wordpiece_no_decoder": word_piece(None),
    "bytelevel_strip": byte_level(decoders.Sequence([decoders.ByteLevel(), decoders.Strip(" ", 1, 1)])),
    "bytelevel_replace": byte_level(decoders.Sequence([decoders.ByteLevel(), decoders.Replace("e", "E"),
                                                        decoders.Metaspace()])),
    "bytelevel_replace_first": byte_level(decoders.Sequence([decoders.Replace("\u0120", "_"), decoders.ByteLevel()]), added=True),
    "bytelevel_strip_first": byte_level(decoders.Sequence([decoders.Strip("\u0120", 1, 0), decoders.ByteLevel(),
                                                           decoders.Strip(" ", 0, 1)]), added=True),
    "bytelevel_fuse_first": byte_level(decoders.Sequence([decoders.Fuse(), decoders.ByteLevel()]), added=True),
    "bytelevel_twice": byte_level(decoders.Sequence([decoders.ByteLevel(), decoders.Replace("a", "\u0120"),
                                                     decoders.ByteLevel()]), added=True),
    "bytelevel_some_bytes": byte_level(decoders.ByteLevel(), every_byte=False),
    "bytelevel_some_bytes_nfkc": byte_level(decoders.ByteLevel(), every_byte=False, normalizer=normalizers.NFKC()),
    "wordpiece_empty_decoder": word_piece(decoders.Sequence([])),
    "unigram_no_decoder": unigram(False, None),
    "unigram_empty_decoder": unigram(True, decoders.Sequence([])),
    "bytelevel_no_decoder": byte_level(None, added=True),
    "bytelevel_some_bytes_no_decoder": byte_level(None, every_byte=False),
    "bytelevel_strip_only": byte_level(decoders.Sequence([decoders.Strip("\u0120", 1, 0)]), added=True),
    "bytelevel_replace_fuse": byte_level(decoders.Sequence([decoders.Replace("\u0120", " "), decoders.Fuse()]), added=True),
    "bytelevel_metaspace": byte_level(decoders.Metaspace(), added=True),
    "bytelevel_empty_decoder": byte_level(decoders.Sequence([]), added=True),
    "ctc_no_cleanup": word_piece(decoders.CTC(pad_token="[PAD]", word_delimiter_token="|", cleanup=False)),
}
out = {}
for name, tok in files.items():
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    tok = Tokenizer.from_file(path)
    size = tok.get_vocab_size()
    ids = [tok.encode(t, add_special_tokens=False).ids for t in job["texts"]]
    lists = [[min(int(f * size), size - 1) for f in l] for l in job["id_lists"]] + ids[:50]
    out[name] = {
        "json": path,
        "ids": ids,
        "decoded": [[l, tok.decode(l), tok.decode(l, skip_special_tokens=False)] for l in lists],
    }
json.dump(out, sys.stdout)
