"""A batch is its texts encoded one by one; decoding gives the text back
(or, cut inside a character, what `bpeek decode` gives)."""

import random
import subprocess

import pytest
from conftest import FILE_KINDS, dump, need

import bpeek


@pytest.mark.parametrize("name", ["bytes", "gpt2", "cl100k", "o200k"])
@pytest.mark.parametrize("threads", [None, 1, 2, 5])
def test_a_batch_is_its_texts_one_by_one(name, threads, random_texts):
    tok = bpeek.Tokenizer(name)
    texts = random_texts(700, seed=21, longest=300)
    assert tok.encode_batch(texts, threads=threads) == [tok.encode(t) for t in texts]
    assert tok.encode_batch([]) == []


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_a_batch_of_a_files_tokenizer_is_its_texts_one_by_one(kind, trained, random_texts):
    path, _, _ = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    texts = random_texts(300, seed=22)
    assert tok.encode_batch(texts, threads=3) == [tok.encode(t) for t in texts]


def test_bytes_are_encoded_as_they_are_and_as_the_same_text():
    tok = bpeek.Tokenizer("cl100k")
    rng = random.Random(4)
    raw = [bytes(rng.randrange(256) for _ in range(rng.randint(0, 50))) for _ in range(200)]
    for b in raw:
        assert tok.decode_bytes(tok.encode(b)) == b
    assert tok.encode_batch(raw) == [tok.encode(b) for b in raw]
    assert tok.encode("héllo".encode()) == tok.encode("héllo")
    assert tok.encode(bytearray(b"abc")) == tok.encode("abc")


@pytest.mark.parametrize("name", ["bytes", "gpt2", "cl100k", "o200k"])
def test_decode_gives_the_text_back(name, random_texts, samples):
    tok = bpeek.Tokenizer(name)
    for text in random_texts(500, seed=8, longest=200) + samples:
        assert tok.decode(tok.encode(text)) == text
        assert tok.count(text) == len(tok.encode(text))


def test_decode_of_a_byte_level_files_ids_gives_the_text_back(trained, samples, random_texts):
    path, _, _ = trained("hf-byte-level-bpe")
    tok = bpeek.Tokenizer(str(path))
    for text in samples + random_texts(300, seed=9):
        assert tok.decode(tok.encode(text)) == text


def test_ids_cut_inside_a_character_decode_as_the_command_line_decodes(bpeek_program):
    tok = bpeek.Tokenizer("cl100k")
    ids = tok.encode("a 😀🚀 ünï")
    cut = [i for i in ids if not valid_utf8(tok.decode_bytes([i]))][:1] + ids[:1]
    assert len(cut) == 2, dump(ids)
    args = [bpeek_program, "decode", "--tokenizer", "cl100k", *map(str, cut)]
    raw = subprocess.run(args, capture_output=True, check=True).stdout
    assert tok.decode_bytes(cut) + b"\n" == raw
    import json

    as_json = json.loads(subprocess.run([*args, "--format", "json"], capture_output=True, check=True).stdout)
    assert tok.decode(cut) == as_json["text"]
    assert "<" in tok.decode(cut)


def valid_utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def test_python_threads_encoding_at_once_get_each_texts_ids(random_texts):
    from concurrent.futures import ThreadPoolExecutor

    tok = bpeek.Tokenizer("o200k")
    texts = random_texts(2000, seed=41, longest=100)
    alone = tok.encode_batch(texts, threads=1)
    # Four threads share the tokenizer: the lock is released while each
    # encodes, and a call that finds the kept chunks in use goes without.
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(tok.encode, texts))
    assert together == alone


@pytest.mark.parametrize("kind", ["hf-byte-level-bpe", "hf-wordpiece", "hf-unigram"])
def test_decode_keeps_special_tokens_as_the_library_does(kind, trained, random_texts):
    tk = need("tokenizers")
    path, _, with_specials = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    reference = tk.Tokenizer.from_file(str(path))
    rng = random.Random(51)
    size = reference.get_vocab_size()
    # The library's ids with its template's special tokens, and random ids
    # (the special tokens are the first ids).
    lists = with_specials(random_texts(100, seed=52)) if with_specials else []
    lists += [[rng.randrange(size) if rng.random() < 0.7 else rng.randrange(4) for _ in range(rng.randint(1, 12))] for _ in range(200)]
    for ids in lists:
        for skip in (True, False):
            want = reference.decode(ids, skip_special_tokens=skip)
            got = tok.decode_bytes(ids, skip_special_tokens=skip).decode("utf-8", errors="replace")
            assert got == want, dump([ids, skip])
        assert tok.decode(ids) == tok.decode(ids, skip_special_tokens=True)


@pytest.mark.parametrize("model_type", ["bpe", "unigram"])
def test_a_sentencepiece_file_refuses_to_keep_control_pieces(model_type, trained):
    path, _, _ = trained(f"spm-{model_type}")
    tok = bpeek.Tokenizer(str(path))
    with pytest.raises(ValueError, match="SentencePiece .model"):
        tok.decode([1, 5], skip_special_tokens=False)
    tok.decode([1, 5])
