"""mistral-common's Tekkenizer beside bpeek: reads a JSON job on stdin and
prints the answers as JSON.

{"files": true}: the Tekken files mistral-common ships, as a list of paths.

{"file": PATH, "texts": [...], "special_texts": [...], "id_lists": [[...]]}:
- "ids": `encode(text, bos=False, eos=False)` of each text;
- "special_ids": each special text cut at the special tokens in it, the
  parts encoded so and each special token given its own id;
- "decoded": for each id list, the bytes of its tokens (hex, special tokens
  as their text) and `decode` with special tokens kept;
- "num_special", "n_words".
"""

import glob
import json
import logging
import os
import re
import sys

import mistral_common
from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy
from mistral_common.tokens.tokenizers.tekken import Tekkenizer

logging.disable(logging.CRITICAL)


def shipped():
    data = os.path.join(os.path.dirname(mistral_common.__file__), "data")
    return sorted(glob.glob(os.path.join(data, "tekken*.json")))


def with_specials(tok, text):
    names = sorted(tok._special_tokens_reverse_vocab, key=len, reverse=True)
    cut = re.compile("(" + "|".join(re.escape(n) for n in names) + ")")
    ids = []
    for i, part in enumerate(cut.split(text)):
        if i % 2:
            ids.append(tok.get_special_token(part))
        elif part:
            ids.extend(tok.encode(part, bos=False, eos=False))
    return ids


def decoded(tok, ids):
    keep = SpecialTokenPolicy.KEEP
    raw = b"".join(tok.id_to_byte_piece(i, special_token_policy=keep) for i in ids)
    return {"hex": raw.hex(), "keep": tok.decode(ids, special_token_policy=keep)}


def main():
    job = json.load(sys.stdin)
    if job.get("files"):
        print(json.dumps(shipped()))
        return
    tok = Tekkenizer.from_file(job["file"])
    print(json.dumps({
        "ids": [tok.encode(t, bos=False, eos=False) for t in job["texts"]],
        "special_ids": [with_specials(tok, t) for t in job["special_texts"]],
        "decoded": [decoded(tok, ids) for ids in job["id_lists"]],
        "num_special": tok.num_special_tokens,
        "n_words": tok.n_words,
    }))


main()
