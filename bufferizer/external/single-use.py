#!/usr/bin/env python3
"""An example outside bufferizer for `bufdiff --strategy exec:CMD`.

Protocol (docs/external.md): the program arrives on stdin in canonical TIR;
the answer is a decisions document on stdout (JSON here), e.g.
    {"plan": {"y": "x", "z": "new"}}
Results the answer does not name get copy-all's decision (a fresh buffer).

The rule, a prototype a compiler engineer might write first: an
elementwise op without `into` may overwrite its first operand of the same
type when that operand
  - is used exactly once in the whole program (by this op),
  - is defined by an elementwise op or a clone in the same block, and
  - neither op sits inside a region (loop, branch, launch), and both sit
    in one block of the body (a `^label` starts another).
Views, params, constants, calls and regions are left alone, so the rule
is conservative; bufdiff checks that it is also right.

It speaks the batch forms too (docs/external.md, "Many programs per
call"): run as `exec-batch:` (BUFDIFF_BATCH=document) it reads one JSON
document of programs and answers one document; as `exec-stream:`
(BUFDIFF_BATCH=stream) it answers each JSON line as it comes, until EOF.
Each answer is the text it would print for that program alone.
"""
import json
import os
import re
import sys

ELEMENTWISE = {"add", "sub", "mul", "div", "max", "min",
               "neg", "abs", "exp", "relu"}
DEFINERS = ELEMENTWISE | {"clone"}
OP = re.compile(r"^(\s*)%([\w.$-]+) = ([\w.]+) (.*) : (\S+)$")


def decide(text):
    """The decisions document for one program, as the text we print."""
    uses = {}
    for name in re.findall(r"%([\w.$-]+)", text):
        uses[name] = uses.get(name, 0) + 1
    defs = {}   # value -> (op, indent, type, block number)
    plan = {}
    block = 0
    for line in text.splitlines():
        if line.rstrip().endswith("{") or line.strip().startswith("}") \
                or line.startswith("^"):
            block += 1   # a new block or region starts: no reuse across it
        m = OP.match(line)
        if not m:
            continue
        indent, res, op, rest, ty = m.groups()
        defs[res] = (op, len(indent), ty, block)
        if op not in ELEMENTWISE or " into " in rest or len(indent) != 2 \
                or not ty.startswith("tensor<"):
            continue
        for name in re.findall(r"%([\w.$-]+)", rest):
            d = defs.get(name)
            if d is None or d[2] != ty:
                continue
            if d[0] in DEFINERS and d[1] == 2 and d[3] == block \
                    and uses.get(name) == 2:
                plan[res] = name
            break   # only the first operand of the result's type
    return json.dumps({"plan": plan}) + "\n"


def answer(req):
    """One program of a batch: its id and the answer we give it alone."""
    return {"bufdiff-batch": 1, "id": req["id"],
            "answer": decide(req["program"])}


def main():
    mode = os.environ.get("BUFDIFF_BATCH")
    if mode == "document":
        doc = json.load(sys.stdin)
        json.dump({"bufdiff-batch": 1,
                   "answers": [answer(p) for p in doc["programs"]]},
                  sys.stdout)
        sys.stdout.write("\n")
    elif mode == "stream":
        for line in sys.stdin:
            sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
            sys.stdout.flush()
    else:
        sys.stdout.write(decide(sys.stdin.read()))


if __name__ == "__main__":
    main()
