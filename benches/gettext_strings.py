"""The translated strings of the machine's gettext catalogs, the text the
benchmarks call "UI strings": imported by `python_module.py`, and run as
`python3 gettext_strings.py OUT LIMIT [--one-line]` by the Rust benches.
"""
import glob
import gettext
import sys


def gettext_strings(limit, one_line=False):
    """Up to about `limit` bytes of strings, one after another, each on a
    line; with `one_line`, a string's own line breaks become spaces."""
    parts, size = [], 0
    for path in sorted(glob.glob("/usr/share/locale/*/LC_MESSAGES/*.mo")):
        try:
            with open(path, "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
        except Exception:
            continue
        for key, value in catalog.items():
            if key and isinstance(value, str) and value.strip():
                parts.append(value.replace("\n", " ") if one_line else value)
                size += len(value.encode()) + 1
                if size >= limit:
                    break
        if size >= limit:
            break
    return "\n".join(parts)


if __name__ == "__main__":
    out, limit = sys.argv[1], int(sys.argv[2])
    text = gettext_strings(limit, one_line="--one-line" in sys.argv[3:])
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
