#!/usr/bin/env python3
"""batch-fake.py KIND WORD LOG: a fake outside bufferizer that speaks the
batch forms of the exec protocol (docs/external.md, "Many programs per
call") and misbehaves in one way, KIND:

  ok     answers `{}` (copy-all) for every program, alone or in a batch
  crash  a program holding WORD kills it (SIGSEGV), alone or in a batch
         (BUFDIFF_BATCH=document: the whole call; =stream: when it
         reaches that line, after answering the lines before)
  count  in a batch, one answer too few (document) or one line too many
         (stream); alone, `{}`
  error  in a batch, `"error"` for the programs holding WORD; alone, those
         exit 1 with a line on stderr

Each call appends a line to LOG: `one`, `document N` (N programs read)
or `stream` then `answered K` as it goes (K answers written so far).
"""
import json
import os
import signal
import sys

kind, word, log = sys.argv[1], sys.argv[2], sys.argv[3]


def note(line):
    with open(log, "a") as f:
        f.write(line + "\n")


def crash():
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGSEGV)


def answer(req):
    if kind == "error" and word in req["program"]:
        return {"bufdiff-batch": 1, "id": req["id"], "error": "not mine"}
    return {"bufdiff-batch": 1, "id": req["id"], "answer": "{}\n"}


mode = os.environ.get("BUFDIFF_BATCH")
if mode == "document":
    progs = json.load(sys.stdin)["programs"]
    note("document %d" % len(progs))
    if kind == "crash" and any(word in p["program"] for p in progs):
        crash()
    answers = [answer(p) for p in progs]
    if kind == "count":
        answers.pop()
    json.dump({"bufdiff-batch": 1, "answers": answers}, sys.stdout)
    print()
elif mode == "stream":
    note("stream")
    k = 0
    for line in sys.stdin:
        req = json.loads(line)
        if kind == "crash" and word in req["program"]:
            note("answered %d" % k)
            crash()
        print(json.dumps(answer(req)), flush=True)
        k += 1
        if kind == "count" and k == 1:
            print(json.dumps(answer(req)), flush=True)
    note("answered %d" % k)
else:
    text = sys.stdin.read()
    note("one")
    if kind == "crash" and word in text:
        crash()
    if kind == "error" and word in text:
        sys.stderr.write("fake-tool: not mine\n")
        sys.exit(1)
    print("{}")
