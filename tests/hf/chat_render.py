"""Chat templates rendered as `transformers` renders them, then encoded as
`apply_chat_template(tokenize=True)` encodes them.

Reads on stdin {"tokenizer": PATH, "jobs": [{"template", "tokens",
"messages", "add_generation_prompt"}]}; writes a JSON list with, per job,
{"rendered", "ids"} or {"error"}.

The environment is the one `transformers` builds for chat templates: a
sandbox, trim_blocks and lstrip_blocks, loop controls, `tojson` as
`json.dumps(ensure_ascii=False)`, `raise_exception`, `strftime_now`; the
template sees `messages`, `tools` and `documents` (None),
`add_generation_prompt` and the special tokens' texts. The rendered text
is encoded with special tokens parsed and none added around it.
"""

import json
import sys
from datetime import datetime, timezone

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment
from tokenizers import Tokenizer


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(
        x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def strftime_now(fmt):
    return datetime.now(timezone.utc).strftime(fmt)


def environment():
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def main():
    request = json.load(sys.stdin)
    tok = Tokenizer.from_file(request["tokenizer"])
    env = environment()
    out = []
    for job in request["jobs"]:
        try:
            template = env.from_string(job["template"])
            rendered = template.render(
                messages=job["messages"],
                tools=None,
                documents=None,
                add_generation_prompt=job["add_generation_prompt"],
                **job["tokens"],
            )
        except Exception as e:  # the template refused or failed
            out.append({"error": f"{type(e).__name__}: {e}"})
            continue
        ids = tok.encode(rendered, add_special_tokens=False).ids
        out.append({"rendered": rendered, "ids": ids})
    json.dump(out, sys.stdout)


main()
