"""mlir-routes.py TMP WHAT: tests/mlir-routes.sh's comparison.  Every call
kept in TMP/in-process (--keep-tool-io) against the same call as a process:
the call in TMP/process with the same command and input when there is one
(in-process batches are the programs' own calls; a program the batch
crashed on is asked again alone, so a call may be there twice), else (fuzz,
or a program only a batch asks about) its .sh run again (mlir-opt-22 on the
.in; fuzz: every crash and one call in 16, and the campaign's summary,
every program's verdict, against the process route's).  Same status, same
stdout bytes, same stderr unless it crashed; for
the corpus also every process call made in-process too, and
TMP/in-process.json against TMP/process.json, crashes' stderr blanked."""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

tmp, what = sys.argv[1], sys.argv[2]
ind = os.path.join(tmp, "in-process")
prd = os.path.join(tmp, "process")


def read(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def status(sh):
    """The call's status from its .sh's first comment line."""
    m = re.search(rb"\): (.*) after [0-9.]+ s\n", sh)
    s = m.group(1).decode() if m else "?"
    m = re.match(r"killed by signal (\d+)", s)
    return "signal " + m.group(1) if m else s


def key(d, n):
    """A call's command (its .sh without the comments and file names) and
    its input."""
    sh = read(d, n + ".sh").split(b"\n")
    cmd = b"\n".join(l for l in sh if not l.startswith(b"#"))
    cmd = re.sub(rb" <\S+$", b"", cmd.strip())
    return cmd, read(d, n + ".in")


by_key = {}
if what != "fuzz":
    for f in sorted(os.listdir(prd)):
        if f.endswith(".sh"):
            by_key.setdefault(key(prd, f[:-3]), f[:-3])


def compare(n):
    want = status(read(ind, n + ".sh"))
    m = by_key.get(key(ind, n))
    if m is None:
        # fuzz, or a program the process route never asked about (a
        # batch asks about every case's program; alone, a case whose
        # reference run fails asks nothing): its .sh replayed
        p = subprocess.run(["sh", os.path.join(ind, n + ".sh")],
                           capture_output=True)
        rc = p.returncode
        got = ("signal %d" % -rc if rc < 0 else
               "signal %d" % (rc - 128) if rc > 128 else "exit %d" % rc)
        out, err = p.stdout, p.stderr
    else:
        got = status(read(prd, m + ".sh"))
        out, err = read(prd, m + ".out"), read(prd, m + ".err")
    bad = []
    if got != want:
        bad.append("%s in-process, %s as a process" % (want, got))
    if out != read(ind, n + ".out"):
        bad.append("stdout differs (%d bytes in-process, %d as a process)"
                   % (len(read(ind, n + ".out")), len(out)))
    if not got.startswith("signal") and err != read(ind, n + ".err"):
        bad.append("stderr differs")
    return n, bad


names = sorted(f[:-3] for f in os.listdir(ind) if f.endswith(".sh"))
if not names:
    sys.exit("FAIL: no tool call kept")
if what == "fuzz":
    # each program's own call, replayed as a process: every crash, and
    # one call in 16 (10,000 processes would take half an hour)
    names = [n for i, n in enumerate(names)
             if i % 16 == 0 or status(read(ind, n + ".sh")).startswith("signal")]
with ThreadPoolExecutor(2 if what == "fuzz" else 1) as ex:
    diffs = [(n, b) for n, b in ex.map(compare, names) if b]
for n, b in diffs[:20]:
    print("DIFF %s: %s" % (n, "; ".join(b)))
print("%d calls compared, %d differ" % (len(names), len(diffs)))
if what != "fuzz":
    # the calls of mlir-opt-22 (a case's run of mlir-opt-19 is a
    # process both ways, batched as nested modules in the first)
    missing = set(k for k in by_key
                  if re.search(rb"^exec /bin/sh -c 'mlir-opt-22 ", k[0], re.M)) - \
        set(key(ind, n) for n in names)
    if missing:
        print("%d calls of the process route not made in-process, e.g. %s"
              % (len(missing), ", ".join(sorted(by_key[k] for k in
                                                 missing)[:5])))
        diffs.append(("calls", []))


def reports(f):
    out = []
    for line in open(f):
        c = json.loads(line)
        for r in c.get("runs") or []:
            t = r.get("tool") or {}
            if t.get("status", "").startswith("killed by signal"):
                t["stderr"] = ""
        out.append(json.dumps(c, sort_keys=True))
    return out


if what == "fuzz":
    def summary(f):
        d = json.load(open(f))
        # times, and the repro files only the in-process run wrote
        for k in ("seconds", "programs_per_s", "tool_calls", "tool_seconds",
                  "reduce_seconds", "stats", "repros"):
            d.pop(k, None)
        for bk in d.get("buckets") or []:
            bk.pop("repro", None)
        for m in d.get("failure_messages") or []:
            t = m.get("tool") or {}
            if t.get("status", "").startswith("killed by signal"):
                t["stderr"] = ""
        return d
    a = summary(os.path.join(tmp, "in-process.json"))
    b = summary(os.path.join(tmp, "process.json"))
    bad = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    print("%d programs, %d failures; the summaries %s" %
          (a.get("programs", 0), a.get("failures", 0),
           "differ in " + ", ".join(bad) if bad else "are the same"))
    if bad:
        diffs.append(("summary", []))
else:
    a = reports(os.path.join(tmp, "in-process.json"))
    b = reports(os.path.join(tmp, "process.json"))
    n = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
    print("%d cases, %d reports differ between the routes" % (len(a), n))
    if n:
        diffs.append(("reports", []))
sys.exit(1 if diffs else 0)
