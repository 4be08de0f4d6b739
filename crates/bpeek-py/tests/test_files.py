"""Files trained here with Hugging Face `tokenizers` and `sentencepiece`:
the module's ids are the library's and the command line's."""

import pytest
from conftest import FILE_KINDS, dump

import bpeek


def texts_for(samples, random_texts):
    return samples + random_texts(200, seed=5, longest=40)


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_ids_are_the_librarys_and_the_command_lines(kind, trained, cli_ids, samples, random_texts):
    path, library, _ = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    texts = texts_for(samples, random_texts)
    ours = tok.encode_batch(texts)
    theirs = library(texts)
    wrong = [(t, a, b) for t, a, b in zip(texts, ours, theirs) if a != b]
    assert not wrong, dump(wrong[:3])
    assert ours == cli_ids(path, texts)


@pytest.mark.parametrize("kind", ["hf-byte-level-bpe", "hf-wordpiece"])
def test_special_tokens_are_added_as_the_librarys_post_processor_adds_them(kind, trained, cli_ids, samples):
    path, _, library_with_specials = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    texts = samples[:40]
    ours = [tok.encode(t, add_special_tokens=True) for t in texts]
    assert ours == library_with_specials(texts)
    assert ours == tok.encode_batch(texts, add_special_tokens=True)
    assert ours == cli_ids(path, texts, "--add-special-tokens")
    assert all(tok.count(t, add_special_tokens=True) == len(i) for t, i in zip(texts, ours))


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_the_name_is_the_files(kind, trained):
    path, _, _ = trained(kind)
    tok = bpeek.Tokenizer(str(path))
    assert tok.vocab_size > 0
    assert repr(tok).startswith("bpeek.Tokenizer(")
