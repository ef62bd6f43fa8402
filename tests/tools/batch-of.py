#!/usr/bin/env python3
"""batch-of.py LOG CMD...: the batch forms of the exec protocol
(docs/external.md, "Many programs per call") around a one-program tool
CMD (run by /bin/sh, in this directory): a batch call runs CMD once per
program (BUFDIFF_ENTRY set to its entry) and answers with what it
printed, or `"error"` when it failed; a one-program call is CMD's own.
LOG gets a line per call: `one`, `document N` or `stream N`.  For the
tests of check, fuzz and reduce with batching tools (tests/exec-batch.sh).
"""
import json
import os
import subprocess
import sys

log, cmd = sys.argv[1], " ".join(sys.argv[2:])


def note(line):
    with open(log, "a") as f:
        f.write(line + "\n")


def answer(req):
    env = dict(os.environ, BUFDIFF_ENTRY=req["entry"])
    env.pop("BUFDIFF_BATCH", None)
    r = subprocess.run(["/bin/sh", "-c", cmd], input=req["program"].encode(),
                       stdout=subprocess.PIPE, env=env)
    if r.returncode:
        return {"bufdiff-batch": 1, "id": req["id"], "error": "exit %d" % r.returncode}
    return {"bufdiff-batch": 1, "id": req["id"], "answer": r.stdout.decode()}


mode = os.environ.get("BUFDIFF_BATCH")
if mode == "document":
    progs = json.load(sys.stdin)["programs"]
    note("document %d" % len(progs))
    json.dump({"bufdiff-batch": 1, "answers": [answer(p) for p in progs]},
              sys.stdout)
    print()
elif mode == "stream":
    n = 0
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
        n += 1
    note("stream %d" % n)
else:
    note("one")
    sys.stdout.flush()
    os.execv("/bin/sh", ["/bin/sh", "-c", cmd])
