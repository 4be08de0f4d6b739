"""What the module's tests share: the `bpeek` program to compare with,
random texts, the bundled samples, and tokenizer files trained here with
Hugging Face `tokenizers` and `sentencepiece`.

A reference library that cannot be imported skips the tests that need it,
except under CI (CI=true), where it fails them: CI installs every one.
"""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def need(module):
    """Import `module`, or skip (fail under CI) saying why."""
    try:
        return __import__(module)
    except ImportError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Python `{module}` is needed under CI and cannot be imported: {e}")
        pytest.skip(f"Python `{module}` cannot be imported: {e}")


@pytest.fixture(scope="session")
def bpeek_program():
    """The `bpeek` program: $BPEEK_BIN, else the release build."""
    path = Path(os.environ.get("BPEEK_BIN", REPO / "target" / "release" / "bpeek"))
    if not path.exists():
        pytest.fail(f"{path}: no bpeek program (cargo build --release, or set BPEEK_BIN)")
    return path


@pytest.fixture(scope="session")
def cli_ids(bpeek_program, tmp_path_factory):
    """`bpeek encode --lines --format ids` of texts without line breaks,
    each text's ids as the program prints them."""
    folder = tmp_path_factory.mktemp("cli")

    def run(tokenizer, texts, *extra):
        assert not any("\n" in t or "\r" in t for t in texts)
        path = folder / "texts.txt"
        path.write_bytes("\n".join(texts).encode() + b"\n")
        out = subprocess.run(
            [bpeek_program, "encode", "--tokenizer", str(tokenizer), "--format", "ids", "--lines", "--file", path, *extra],
            capture_output=True,
            check=True,
        )
        lines = out.stdout.decode().split("\n")[:-1]
        assert len(lines) == len(texts)
        return [[int(i) for i in line.split()] for line in lines]

    return run


# Characters random texts are made of: ASCII, accented Latin, Greek,
# Cyrillic, CJK, Hangul, marks, emoji, digits and whitespace of each kind.
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    " \t  .,;:!?'\"()[]{}<>-_/\\|@#$%^&*+=~`"
    "éèêëàâäçôöûüñßÉÀ" "αβγδεζηθΑΒΓ" "абвгдежзАБВ" "中文字符日本語" "한국어" "\u0301\u0308" "😀🚀👍🏽" "١٢٣"
)


def random_text(rng, longest=60):
    n = rng.randint(0, longest)
    return "".join(rng.choice(ALPHABET) for _ in range(n))


@pytest.fixture
def random_texts():
    """`n` random one-line texts from the seed."""

    def make(n, seed, longest=60):
        rng = random.Random(seed)
        return [random_text(rng, longest) for _ in range(n)]

    return make


@pytest.fixture(scope="session")
def samples():
    """The bundled samples' lines, every language."""
    lines = []
    for path in sorted((REPO / "corpora" / "samples").glob("*.txt")):
        lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return lines


@pytest.fixture(scope="session")
def corpus_file(samples, tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "samples.txt"
    path.write_text("\n".join(samples) + "\n", encoding="utf-8")
    return path


def train_hf(kind, corpus, out):
    """A tokenizer.json of `kind` trained by Hugging Face `tokenizers`."""
    tk = need("tokenizers")
    from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers

    if kind == "byte-level-bpe":
        tok = tk.Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=800, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<s>", "</s>"], show_progress=False
        )
        template = ("<s> $A </s>", ["<s>", "</s>"])
    elif kind == "wordpiece":
        tok = tk.Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.normalizer = normalizers.BertNormalizer(lowercase=True)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(vocab_size=700, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"], show_progress=False)
        template = ("[CLS] $A [SEP]", ["[CLS]", "[SEP]"])
    elif kind == "unigram":
        tok = tk.Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.decoder = decoders.Metaspace()
        trainer = trainers.UnigramTrainer(vocab_size=4000, unk_token="<unk>", special_tokens=["<unk>"], show_progress=False)
        template = None
    else:
        raise ValueError(kind)
    tok.train([str(corpus)], trainer)
    if template:
        single, specials = template
        tok.post_processor = processors.TemplateProcessing(
            single=single, special_tokens=[(s, tok.token_to_id(s)) for s in specials]
        )
    tok.save(str(out))
    return tok


def train_spm(model_type, corpus, folder):
    """A SentencePiece .model file trained by `sentencepiece`."""
    spm = need("sentencepiece")
    prefix = folder / f"spm-{model_type}"
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(prefix), model_type=model_type, vocab_size=1000, character_coverage=1.0, minloglevel=2
    )
    return spm.SentencePieceProcessor(model_file=f"{prefix}.model"), Path(f"{prefix}.model")


@pytest.fixture(scope="session")
def trained(corpus_file, tmp_path_factory):
    """Each kind of file (FILE_KINDS), trained here the first time it is
    asked for: (path, the library's ids of a list of texts, the same with
    the tokens its post-processor adds, or None)."""
    folder = tmp_path_factory.mktemp("trained")
    files = {}

    def hf(kind):
        path = folder / f"{kind}.json"
        tok = train_hf(kind, corpus_file, path)
        plain = lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
        special = lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=True)]
        return path, plain, special

    def spm(model_type):
        sp, path = train_spm(model_type, corpus_file, folder)
        return path, lambda texts: [sp.encode(t) for t in texts], None

    makers = {
        "hf-byte-level-bpe": lambda: hf("byte-level-bpe"),
        "hf-wordpiece": lambda: hf("wordpiece"),
        "hf-unigram": lambda: hf("unigram"),
        "spm-bpe": lambda: spm("bpe"),
        "spm-unigram": lambda: spm("unigram"),
    }

    def get(name):
        if name not in files:
            files[name] = makers[name]()
        return files[name]

    return get


FILE_KINDS = ["hf-byte-level-bpe", "hf-wordpiece", "hf-unigram", "spm-bpe", "spm-unigram"]


def dump(value):
    """A value short enough to read in a failure."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) < 400 else text[:400] + "…"
