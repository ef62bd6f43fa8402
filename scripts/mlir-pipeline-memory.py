#!/usr/bin/env python3
"""mlir-pipeline-memory.py BUFDIFF [TOOL]: memory of the memref program
TOOL's pipeline emits (mlir-pipeline) against bufdiff's one-shot and
copy-all, case by case over cases/, with the cause of each difference read
off the memref program (docs/mlir-pipeline.md).  Prints a Markdown table of
the cases where all three agree and the peaks differ, then the totals."""
import json, re, subprocess, sys

bufdiff = sys.argv[1]
tool = sys.argv[2] if len(sys.argv) > 2 else "mlir-opt-22"


def runs(strategy):
    out = subprocess.run([bufdiff, "check", "cases", "--strategy", strategy,
                          "--json"], capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        c = json.loads(line)
        r = (c.get("runs") or [None])[-1]
        if r and r.get("verdict") == "agree" and "memory" in r:
            got[c["file"]] = r
    return got


def causes(memref, m, o):
    """Why the pipeline's peak differs from one-shot's, from its ops."""
    why = []
    clones = memref.count('"bufferization.clone"')
    lists = len(re.findall(r'"memref.alloc"\(\)[^\n]*-> memref<\d+x(index|i1)>',
                           memref))
    if clones:
        why.append(f"{clones} clone(s) of results returned from a buffer "
                   "the function does not own")
    if lists:
        why.append(f"{lists} ownership list(s) for dealloc_helper")
    more = m["copies"] - clones - o["copies"]
    if more > 0:
        why.append(f"{more} copies one-shot does not make")
    if m["peak_bytes"] < o["peak_bytes"]:
        why.append("in place where one-shot allocates (it frees earlier "
                   "or reuses a writable parameter)")
    return "; ".join(why) or "allocation order"


P, O, C = runs(f"mlir-pipeline:{tool}"), runs("one-shot"), runs("copy-all")
common = sorted(f for f in P if f in O and f in C)
tot = {k: [0, 0, 0] for k in ("peak_bytes", "allocations", "copies",
                              "copy_bytes")}
rows = []
for f in common:
    m, o, c = P[f]["memory"], O[f]["memory"], C[f]["memory"]
    for k in tot:
        tot[k][0] += m[k]
        tot[k][1] += o[k]
        tot[k][2] += c[k]
    if m["peak_bytes"] != o["peak_bytes"]:
        rows.append((f, m, o, c, causes(P[f]["tool"].get("memref", ""), m, o)))
print("| case | peak: pipeline / one-shot / copy-all | allocations | "
      "copies | why |")
print("|---|---|---|---|---|")
for f, m, o, c, why in rows:
    print(f"| {f[6:]} | {m['peak_bytes']} / {o['peak_bytes']} / "
          f"{c['peak_bytes']} | {m['allocations']} / {o['allocations']} / "
          f"{c['allocations']} | {m['copies']} / {o['copies']} / "
          f"{c['copies']} | {why} |")
print()
print(f"{len(common)} cases agree under all three; peaks differ on "
      f"{len(rows)} ({sum(r[1]['peak_bytes'] > r[2]['peak_bytes'] for r in rows)}"
      " higher, "
      f"{sum(r[1]['peak_bytes'] < r[2]['peak_bytes'] for r in rows)} lower).")
for k, (a, b, c) in tot.items():
    print(f"- {k}: pipeline {a}, one-shot {b}, copy-all {c}")
