#!/usr/bin/env bash
# mlir-opt-22 in-process and as a process give the same answers
# (docs/external.md "Routes"): every call of a run through the in-process
# route, kept with --keep-tool-io, against the same call as a process
# (fuzz: its .sh replayed, mlir-opt-22 with the .in on its stdin; the
# corpus: the process route's own run, kept too): stdout the same bytes,
# the same status, stderr the same but for a crash's (a backtrace).  For
# the corpus, the JSON reports of both routes must be the same too (but
# for crashes' stderr).
#   usage: mlir-routes.sh BUFDIFF SRCDIR corpus|pipeline|fuzz [COUNT]
# corpus: `check cases --strategy mlir:mlir-opt-22` (in-process in
# batches of 64: each program's own call in one request; the process route
# each program alone, the same calls); pipeline: the same with
# mlir-pipeline; fuzz: `fuzz --strategy mlir` on COUNT (10000) programs,
# each program's own call in-process, a sample replayed as a process
# (mlir-routes.py), and the campaign's summary (every program's verdict)
# against the same campaign through the process route.  Skipped (77) without mlir-opt-22, python3, or the in-process
# route (a build without libmlir-22-dev).
set -euo pipefail
bufdiff=$1 src=$2 what=$3 count=${4:-10000}
command -v mlir-opt-22 >/dev/null || { echo "SKIP: no mlir-opt-22"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUFDIFF_MLIR_ROUTE=in-process
# the module CMake builds beside bufdiff when it finds libmlir-22-dev
if [ ! -e "$(dirname "$bufdiff")/bufdiff_mlir.so" ]; then
	echo "SKIP: no in-process route (built without libmlir-22-dev)"; exit 77
fi
rc=0
case $what in
corpus|pipeline)
	kind=mlir; [ "$what" = pipeline ] && kind=mlir-pipeline
	for route in in-process process; do
		rc=0 batch=64
		[ $route = process ] && batch=1 # each program's own call
		BUFDIFF_MLIR_ROUTE=$route "$bufdiff" check cases --trust cases \
			--strategy "$kind:mlir-opt-22" --json --tool-batch $batch \
			--keep-tool-io "$tmp/$route" >"$tmp/$route.json" 2>/dev/null || rc=$?
		[ $rc -le 1 ] || { echo "FAIL: check ($route) exited $rc"; exit 1; }
	done
	;;
fuzz)
	"$bufdiff" fuzz --strategy mlir --seed 1 --count "$count" --no-reduce \
		--quiet --out "$tmp/repros" --keep-tool-io "$tmp/in-process" \
		--json >"$tmp/in-process.json" 2>/dev/null || rc=$?
	[ $rc -le 1 ] || { echo "FAIL: fuzz exited $rc"; exit 1; }
	# every program's verdict: the same campaign as processes (nested
	# batches), its summary against the in-process one
	rc=0
	BUFDIFF_MLIR_ROUTE=process "$bufdiff" fuzz --strategy mlir --seed 1 \
		--count "$count" --no-reduce --quiet --json \
		>"$tmp/process.json" 2>/dev/null || rc=$?
	[ $rc -le 1 ] || { echo "FAIL: fuzz (process) exited $rc"; exit 1; }
	;;
*)
	echo "usage: mlir-routes.sh BUFDIFF SRCDIR corpus|pipeline|fuzz [COUNT]"
	exit 2
	;;
esac
python3 "$src/tests/mlir-routes.py" "$tmp" "$what"
echo "PASS: $what: the in-process route answers as mlir-opt-22 does"
