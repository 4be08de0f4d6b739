"""Errors are Python exceptions with the command line's message."""

import pytest

import bpeek


def test_a_missing_file_is_file_not_found_naming_it(tmp_path):
    missing = tmp_path / "no-such-tokenizer.json"
    with pytest.raises(FileNotFoundError, match="no-such-tokenizer.json"):
        bpeek.Tokenizer(str(missing))
    with pytest.raises(OSError):
        bpeek.Tokenizer("no-such-name")


@pytest.mark.parametrize(
    "name, content, says",
    [
        ("broken.json", b"{ not json", "malformed JSON"),
        ("empty.model", b"", ""),
        ("garbage.gguf", b"GGUF\x03\x00\x00\x00" + b"\xff" * 40, ""),
        ("words.txt", b"\xff\xfe not a vocabulary \x00", ""),
        ("rank.tiktoken", b"not base64 ranks\n", ""),
    ],
)
def test_a_bad_file_is_a_value_error_naming_it(tmp_path, name, content, says):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError) as caught:
        bpeek.Tokenizer(str(path))
    message = str(caught.value)
    assert name in message
    assert says in message


def test_a_folder_without_a_tokenizer_says_what_it_looked_for(tmp_path):
    with pytest.raises(ValueError, match="tokenizer.json"):
        bpeek.Tokenizer(str(tmp_path))


@pytest.mark.parametrize(
    "ids, says",
    [
        ([-1], "item 1: -1 is not a token id"),
        ([1, 2, 10**6], "item 3: id 1000000 is too large"),
        ([2**40], "too large"),
    ],
)
def test_bad_ids_are_value_errors_saying_which(ids, says):
    tok = bpeek.Tokenizer("cl100k")
    with pytest.raises(ValueError, match=says):
        tok.decode(ids)
    with pytest.raises(ValueError, match=says):
        tok.decode_bytes(ids)


def test_an_unused_id_in_a_gap_is_named():
    tok = bpeek.Tokenizer("cl100k")
    # cl100k's ids 100261 and 100262 are not used (its specials skip them).
    with pytest.raises(ValueError, match="unused"):
        tok.decode([100261])


def test_what_is_not_text_is_a_type_error():
    tok = bpeek.Tokenizer("gpt2")
    for bad in [3, None, ["a"]]:
        with pytest.raises(TypeError, match="str or bytes"):
            tok.encode(bad)
    with pytest.raises(TypeError):
        tok.encode_batch("one string")
    with pytest.raises(TypeError, match="str or bytes"):
        tok.encode_batch(["a", 4])
