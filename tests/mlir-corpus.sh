#!/usr/bin/env bash
# What mlir-opt-N's One-Shot Bufferize decides on the corpus, pinned case by
# case: `bufdiff check CASES --strategy mlir:mlir-opt-N`, one line per case
# ("FILE VERDICT [first violation | tool-error kind]"), compared with
# tests/mlir/corpus-N.txt.  docs/mlir-corpus.md explains every line that is
# not `agree`.  Skipped (77) when mlir-opt-N is not installed.
# With PIPELINE=1 the same for `--strategy mlir-pipeline:mlir-opt-N` (the
# memref program the tool's bufferization pipeline emits, executed),
# against tests/mlir/pipeline-N.txt (docs/mlir-pipeline.md).
#   usage: [PIPELINE=1] mlir-corpus.sh BUFDIFF SRCDIR N [--update]
set -euo pipefail
bufdiff=$1 src=$2 n=$3
kind=mlir table=corpus
if [ -n "${PIPELINE:-}" ]; then kind=mlir-pipeline table=pipeline; fi
want="$src/tests/mlir/$table-$n.txt"
if ! command -v "mlir-opt-$n" >/dev/null; then
	echo "SKIP: mlir-opt-$n is not installed (apt-get install mlir-$n-tools)"
	exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
cd "$src"
got=$(mktemp)
trap 'rm -f "$got" "$got.json"' EXIT
# exit 1 is expected: every case that does not agree fails the check;
# anything else (2: an error, a signal) fails here
rc=0
"$bufdiff" check cases --trust cases --strategy "$kind:mlir-opt-$n" --json 2>/dev/null >"$got.json" || rc=$?
if [ $rc != 0 ] && [ $rc != 1 ]; then
	echo "FAIL: bufdiff check --strategy $kind:mlir-opt-$n exited $rc"
	exit 1
fi
python3 -c '
import json, sys
for line in sys.stdin:
    c = json.loads(line)
    runs = c.get("runs") or []
    if not runs or not runs[-1]["strategy"].startswith(sys.argv[1]):
        continue   # a case that did not load or run: not the bridge
    r = runs[-1]
    v = r.get("verdict", r.get("status"))
    why = ""
    if v == "tool-error":
        why = r["tool"]["status"].split(":")[0]
        if why == "answer":
            why = ":".join(r["tool"]["status"].split(":")[:2])
    elif v in ("diverge", "fault") and r.get("violations"):
        why = r["violations"][0]["kind"]
    elif v == "error":
        why = r["message"].split("): ")[-1]
    print(c["file"], v, why)
' "$kind" <"$got.json" | sort >"$got"
if [ "${4:-}" = "--update" ]; then
	cp "$got" "$want"
	echo "wrote $want"
	exit 0
fi
if ! diff -u "$want" "$got"; then
	echo "FAIL: mlir-opt-$n's $kind verdicts on the corpus changed (see"
	echo "      above; docs/mlir-corpus.md or docs/mlir-pipeline.md explains"
	echo "      the expected lines)"
	exit 1
fi
awk '{print $2}' "$got" | sort | uniq -c
