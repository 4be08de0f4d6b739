"""tiktoken's own encodings (their published patterns and special tokens,
from tiktoken itself) on the rank files the `tiktoken-rs` crate ships in
Cargo's registry, the data bpeek's built-ins are made from: tiktoken would
fetch the ranks from the network."""

import glob
import os


def rank_file(basename):
    """The path of `basename` (cl100k_base.tiktoken ...) in tiktoken-rs."""
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    found = sorted(glob.glob(f"{home}/registry/src/*/tiktoken-rs-*/assets/{basename}"))
    if not found:
        raise FileNotFoundError(f"{basename}: not in Cargo's registry (build bpeek first)")
    return found[-1]


def tiktoken_encoding(name):
    """tiktoken.Encoding `name` (gpt2, cl100k_base, o200k_base)."""
    import tiktoken
    import tiktoken.load
    from tiktoken_ext import openai_public

    def local(url, expected_hash=None):
        return tiktoken.load.load_tiktoken_bpe(rank_file(url.rsplit("/", 1)[-1]))

    if name == "gpt2":
        # tiktoken's gpt2 reads GPT-2's encoder.json and vocab.bpe; its
        # ranks are r50k_base's, which tiktoken-rs ships.
        name = "r50k_base"
    saved = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = local
    try:
        spec = getattr(openai_public, name)()
    finally:
        openai_public.load_tiktoken_bpe = saved
    return tiktoken.Encoding(**spec)
