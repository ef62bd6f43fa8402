#!/usr/bin/env python3
"""jfield.py FILE PATH [WANT]: one field of a JSON document, for the
end-to-end tests (tests/expect.sh: field, fieldj).

FILE holds one JSON value (or, with a line number as PATH's first part
written `@N`, JSON Lines: line N, from 0).  PATH is the field's place,
parts joined by '.': an object's key, a list's index (negative from the
end), or `KEY=VALUE`: the first element of a list whose KEY is VALUE
(compared as text; VALUE holds no '.').  An empty PATH is the whole document.

Without WANT the value is printed: a string as its text, anything else
as compact JSON (", " and ": " separators, keys in document order).
With WANT (JSON text) the exit status says whether the value equals it,
parsed, so neither key order nor spacing matters; a mismatch prints both.
Exit 1: the value differs or PATH is not there; 2: usage or bad JSON.
"""
import json
import sys


def text(v):
    return v if isinstance(v, str) else json.dumps(v)


def walk(doc, path):
    v = doc
    for part in path.split(".") if path else []:
        if isinstance(v, dict):
            if part not in v:
                raise KeyError(part)
            v = v[part]
        elif isinstance(v, list):
            if "=" in part:
                key, want = part.split("=", 1)
                hit = [e for e in v if isinstance(e, dict) and key in e
                       and text(e[key]) == want]
                if not hit:
                    raise KeyError(part)
                v = hit[0]
            else:
                try:
                    v = v[int(part)]
                except (ValueError, IndexError):
                    raise KeyError(part)
        else:
            raise KeyError(part)
    return v


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    path = argv[2]
    try:
        with open(argv[1]) as f:
            if path.startswith("@"):
                line, _, path = path[1:].partition(".")
                rows = [x for x in f if x.strip()]
                doc = json.loads(rows[int(line)])
            else:
                doc = json.load(f)
    except (OSError, ValueError, IndexError) as e:
        print("jfield: %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    try:
        v = walk(doc, path)
    except KeyError as e:
        print("jfield: %s: no %s (at %s)" % (argv[1], argv[2], e),
              file=sys.stderr)
        return 1
    if len(argv) == 3:
        print(text(v))
        return 0
    try:
        want = json.loads(argv[3])
    except ValueError as e:
        print("jfield: expected value is not JSON: %s: %s" % (argv[3], e),
              file=sys.stderr)
        return 2
    # as text, keys sorted: 1, 1.0 and true differ, -0.0 is not 0
    if json.dumps(v, sort_keys=True) == json.dumps(want, sort_keys=True):
        return 0
    print("jfield: %s: %s is %s, expected %s" % (argv[1], argv[2],
          json.dumps(v), json.dumps(want)), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
