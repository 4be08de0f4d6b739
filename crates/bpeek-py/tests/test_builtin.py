"""The built-in tokenizers: the module's ids are the command line's and
tiktoken's (its own patterns and special tokens on the rank data bpeek's
built-ins are made from)."""

import pytest
from conftest import dump, need, random_text

import bpeek

BUILT_IN = ["bytes", "gpt2", "cl100k", "o200k"]
TIKTOKEN = {"gpt2": "gpt2", "cl100k": "cl100k_base", "o200k": "o200k_base"}


def test_the_module_names_every_built_in():
    assert bpeek.BUILT_IN == BUILT_IN


@pytest.mark.parametrize("name", BUILT_IN)
def test_ids_are_the_command_lines(name, cli_ids, samples, random_texts):
    tok = bpeek.Tokenizer(name)
    texts = samples + random_texts(300, seed=len(name))
    ours = [tok.encode(t) for t in texts]
    theirs = cli_ids(name, texts)
    wrong = [(t, a, b) for t, a, b in zip(texts, ours, theirs) if a != b]
    assert not wrong, dump(wrong[:3])


@pytest.mark.parametrize("name", list(TIKTOKEN))
def test_ids_are_tiktokens(name, samples, random_texts):
    need("tiktoken")
    from reference import tiktoken_encoding

    enc = tiktoken_encoding(TIKTOKEN[name])
    tok = bpeek.Tokenizer(name)
    texts = samples + random_texts(500, seed=7 + len(name), longest=200)
    texts.append("\n".join(samples))
    wrong = [t for t in texts if tok.encode(t) != enc.encode_ordinary(t)]
    assert not wrong, dump(wrong[:3])
    special = "say <|endoftext|> twice<|endoftext|>"
    assert tok.encode(special, allow_special=True) == enc.encode(special, allowed_special="all")
    assert tok.encode(special) == enc.encode_ordinary(special)


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_a_long_text_encoded_on_every_core_is_one_pass(name, samples, cli_ids, tmp_path, bpeek_program):
    import random
    import subprocess

    rng = random.Random(3)
    # Over 1 MB, so that it is cut and encoded a part per core.
    parts = []
    while sum(map(len, parts)) < 1_200_000:
        parts.append(rng.choice(samples) if rng.random() < 0.7 else random_text(rng))
    text = "\n".join(parts)
    tok = bpeek.Tokenizer(name)
    every_core = tok.encode(text)
    assert every_core == tok.encode(text, threads=1)
    assert tok.count(text) == len(every_core)
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [bpeek_program, "encode", "--tokenizer", name, "--format", "ids", "--file", path], capture_output=True, check=True
    )
    assert every_core == [int(i) for i in out.stdout.split()]


def test_properties_say_what_the_tokenizer_is():
    tok = bpeek.Tokenizer("cl100k")
    assert tok.name == "cl100k"
    assert tok.vocab_size == 100_261
    assert "BPE" in tok.kind
    assert repr(tok) == "bpeek.Tokenizer('cl100k', 100261 ids)"
    assert bpeek.Tokenizer("bytes").vocab_size == 256
    labelled = bpeek.Tokenizer("mine=o200k")
    assert labelled.name == "mine"


@pytest.mark.parametrize("name", list(TIKTOKEN))
def test_a_large_batch_is_tiktokens_text_by_text(name, samples, random_texts):
    need("tiktoken")
    from reference import tiktoken_encoding

    enc = tiktoken_encoding(TIKTOKEN[name])
    tok = bpeek.Tokenizer(name)
    # Over 64 KB a block, so that each block keeps the chunks of its texts
    # for the texts after them.
    texts = samples * 4 + random_texts(2000, seed=31, longest=120)
    for threads in [1, 2]:
        ours = tok.encode_batch(texts, threads=threads)
        wrong = [(t, a) for t, a in zip(texts, ours) if a != enc.encode_ordinary(t)]
        assert not wrong, dump(wrong[:3])
