#!/usr/bin/env python3
"""Validate JSON lines against docs/report.schema.json with jsonschema
(Debian: python3-jsonschema), many files in one process.

usage: schema.py SCHEMA [--def NAME] FILE...   (--def: validate against
$defs/NAME instead of the root).  Exit 0 valid, 1 invalid (the first 20
errors, with file, line and case), 77 without jsonschema."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)


def main(argv):
    schema = json.load(open(argv[1]))
    files = argv[2:]
    if files[:1] == ["--def"]:
        schema = {"$ref": "#/$defs/" + files[1], "$defs": schema["$defs"]}
        files = files[2:]
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    bad = objs = 0
    for f in files:
        for n, line in enumerate(open(f), 1):
            if not line.strip():
                continue
            objs += 1
            try:
                doc = json.loads(line)
            except ValueError as e:
                print(f"{f}:{n}: not JSON: {e}")
                bad += 1
                continue
            for e in v.iter_errors(doc):
                bad += 1
                if bad <= 20:
                    where = "/".join(str(p) for p in e.absolute_path)
                    name = doc.get("case") if isinstance(doc, dict) else None
                    print(f"{f}:{n}: {name}: /{where}: {e.message[:300]}")
    print(f"{objs} objects, {bad} schema violations")
    return 1 if bad or not objs else 0


sys.exit(main(sys.argv))
