"""`encode_batch(texts, flat=True)`: every text's ids in one array and
where each starts in another, holding exactly what the list form holds."""

import random
import sys

import pytest
from conftest import FILE_KINDS, dump, need

import bpeek

SPECIAL = ["<|endoftext|>", "say <|endoftext|> twice<|endoftext|>", "<|fim_prefix|>x<|fim_suffix|>", "<|endof"]


def cut(flat):
    """The flat form's ids cut into one list per text, its shape checked."""
    ids, offsets = flat
    assert (ids.typecode, ids.itemsize, offsets.typecode, offsets.itemsize) == ("I", 4, "q", 8)
    assert offsets[0] == 0 and offsets[-1] == len(ids)
    assert all(a <= b for a, b in zip(offsets, offsets[1:]))
    return [ids[a:b].tolist() for a, b in zip(offsets, offsets[1:])]


def mixed_texts(random_texts, samples, seed):
    """Random texts, the samples of every language, empty lines and
    special tokens' spellings, shuffled together."""
    texts = random_texts(400, seed=seed, longest=120) + samples + [""] * 30 + SPECIAL * 5
    random.Random(seed).shuffle(texts)
    return texts


@pytest.mark.parametrize("name", ["bytes", "gpt2", "cl100k", "o200k"])
@pytest.mark.parametrize("threads", [None, 1, 2, 5])
@pytest.mark.parametrize("allow_special", [False, True])
def test_the_flat_form_holds_the_lists(name, threads, allow_special, random_texts, samples):
    tok = bpeek.Tokenizer(name)
    texts = mixed_texts(random_texts, samples, seed=61)
    lists = tok.encode_batch(texts, allow_special=allow_special, threads=threads)
    flat = tok.encode_batch(texts, allow_special=allow_special, threads=threads, flat=True)
    assert len(flat[1]) == len(texts) + 1
    got = cut(flat)
    wrong = [(t, a, b) for t, a, b in zip(texts, got, lists) if a != b]
    assert not wrong, dump(wrong[:3])


@pytest.mark.parametrize("kind", FILE_KINDS)
@pytest.mark.parametrize("add", [False, True])
def test_the_flat_form_of_a_files_tokenizer_holds_the_lists(kind, add, trained, random_texts, samples):
    path, _, _ = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    texts = mixed_texts(random_texts, samples, seed=62)
    lists = tok.encode_batch(texts, add_special_tokens=add, threads=3)
    assert cut(tok.encode_batch(texts, add_special_tokens=add, threads=3, flat=True)) == lists


@pytest.mark.parametrize("name, theirs", [("cl100k", "cl100k_base"), ("o200k", "o200k_base")])
def test_the_flat_form_is_tiktokens_batch(name, theirs, random_texts, samples):
    need("tiktoken")
    from reference import tiktoken_encoding

    enc = tiktoken_encoding(theirs)
    texts = mixed_texts(random_texts, samples, seed=63)
    got = cut(bpeek.Tokenizer(name).encode_batch(texts, flat=True))
    assert got == enc.encode_ordinary_batch(texts)


def test_an_empty_batch_is_two_arrays_with_one_offset():
    ids, offsets = bpeek.Tokenizer("cl100k").encode_batch([], flat=True)
    assert (list(ids), list(offsets)) == ([], [0])


def test_bytes_and_a_tuple_are_taken_as_the_list_form_takes_them():
    tok = bpeek.Tokenizer("o200k")
    texts = ("plain", "héllo".encode(), bytearray(b"\xff\xfe raw"), "")
    assert cut(tok.encode_batch(texts, flat=True)) == tok.encode_batch(list(texts))


def test_numpy_reads_the_arrays_without_a_copy():
    np = pytest.importorskip("numpy")
    tok = bpeek.Tokenizer("cl100k")
    ids, offsets = tok.encode_batch(["hello world", "", "ünï"], flat=True)
    as_numpy = np.frombuffer(ids, dtype=np.uint32)
    assert as_numpy.tolist() == list(ids)
    # The same memory: a change through one is seen through the other.
    ids[0] += 1
    assert as_numpy[0] == ids[0]
    assert np.frombuffer(offsets, dtype=np.int64).tolist() == list(offsets)


@pytest.mark.parametrize("flat", [False, True])
@pytest.mark.parametrize(
    "texts, says",
    [
        ("one text", "not one str"),
        (b"one text", "not one bytes"),
        (5, "not int"),
        (["fine", None], r"texts\[1\]: a text is a str or bytes, not NoneType"),
        ([["nested"]], r"texts\[0\]: a text is a str or bytes, not list"),
    ],
)
def test_texts_of_the_wrong_type_are_a_type_error_saying_which(flat, texts, says):
    tok = bpeek.Tokenizer("cl100k")
    with pytest.raises(TypeError, match=says):
        tok.encode_batch(texts, flat=flat)


def test_flat_is_a_bool():
    tok = bpeek.Tokenizer("cl100k")
    with pytest.raises(TypeError, match="bool") as caught:
        tok.encode_batch(["a"], flat="yes")
    # The argument is named in a note, which Python has from 3.11 on.
    if sys.version_info >= (3, 11):
        assert "flat" in " ".join(caught.value.__notes__)

