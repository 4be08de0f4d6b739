"""Every code point whose full case folding (Python's str.casefold, from
Unicode's CaseFolding.txt, statuses C and F) has more than one character.

stdout: a JSON object {"CODE POINT": folding}.
"""
import json
import sys

folds = {}
for c in range(0x110000):
    if 0xD800 <= c < 0xE000:
        continue
    f = chr(c).casefold()
    if len(f) > 1:
        folds[str(c)] = f
json.dump(folds, sys.stdout, ensure_ascii=False)
