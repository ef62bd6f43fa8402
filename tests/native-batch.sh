#!/bin/bash
# native-batch.sh BUFDIFF SRC: --confirm's native runs in batches
# (oracle/mlir/native_batch.c, docs/native.md "Batches") give exactly the
# verdicts and outputs of each program run alone (--tool-batch 1): check
# on cases that agree, differ, fail to compile, crash natively (SIGFPE),
# abort at an assert, launch (late and sync) in one batch; fuzz on
# generated programs (native verdicts, buckets, failures).  Exit 77 (ctest
# skip) without mlir-opt-22, mlir-runner-22 and the runtime libraries.
set -u
B=$1 S=$2
. "$S/tests/expect.sh"
need_native_22

mkdir set
for c in mlir/cf-insert-in-later-block mlir/generate-insert-captured \
	 mlir/materialize-into-loop-result ops/div-zero \
	 async/host-write-while-launch-reads async/carried-assert-in-loop \
	 async/prefetch-next-chunk async/failure-pending-launch \
	 seed/old-input-still-needed ops/exp ops/dynamic-shapes \
	 loops/forall-reads-shared; do
	cp "$S/cases/$c.yaml" "set/${c//\//-}.yaml"
done

BUFDIFF_NATIVE_STATS=1 expect 1 "$B" check --allow-exec set --strategy mlir:mlir-opt-22 --confirm --json
cp "$out" batch.json
grep -v '^native batches: ' "$err" >batch.err
# (the cases' mlir and mlir-pipeline runs, launches under late and sync:
# 22 programs in 3 batches (3 commands); 19 ran to their end there or
# aborted at an assert the reference fails at; the others (a compile
# failure, SIGFPE, ...) run alone)
grep -qx 'native batches: 3, programs in them 22, answered there 19, compiles halved 0, past their limit 0' "$err" ||
	fail "not batched as expected: $(grep '^native batches' "$err")"
# (the SIGFPE one is MLIR's crash, run alone: its command and signal)
grep -q '"verdict": "failed".*SIGFPE' batch.json || fail "no SIGFPE verdict"
expect 1 "$B" check --allow-exec set --strategy mlir:mlir-opt-22 --confirm --json --tool-batch 1
cmp -s "$out" batch.json || { diff batch.json "$out" | head -20; fail "check: batched and alone differ"; }
cmp -s "$err" batch.err || fail "check: stderr differs"

# generated programs: every field but the clocks
fz() {
	"$B" fuzz --strategy mlir:mlir-opt-22 --confirm --count 40 \
		--seed 26000000 --no-reduce --json --quiet "$@" >"$out" 2>"$err"
	python3 - "$out" <<'PY' || fail "fuzz: no JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("seconds", "programs_per_s", "tool_calls", "tool_seconds"):
    d.pop(k, None)
json.dump(d, open(sys.argv[1], "w"), sort_keys=True, indent=1)
PY
}
fz
cp "$out" fuzz-batch.json
python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["native"]; sys.exit(sum(n.values()) < 10)' fuzz-batch.json ||
	fail "fuzz: fewer than 10 native verdicts"
fz --tool-batch 1
cmp -s "$out" fuzz-batch.json || { diff fuzz-batch.json "$out" | head -20; fail "fuzz: batched and alone differ"; }
# a compile that crashes (mlir-opt-22's One-Shot Bufferize on seed
# 1000033's program: SIGSEGV, a runaway recursion) is tried in halves:
# the two programs of the half without it are answered in their batch,
# the crash and its neighbour run alone; the same JSON as each alone.
# (Where the stack runs out varies from run to run; when it was inside
# malloc, LLVM's crash handler deadlocked taking its stack trace, in about
# one run in four, and the compile ended at its limit: the unwinder
# preloaded into mlir-opt, bufdiff_unwind.so, prevents that.)
fz2() {
	"$B" fuzz --strategy mlir:mlir-opt-22 --confirm --count 4 \
		--seed 1000030 --mix slices,matmul,loops,branches,calls,forall,cfg,generate \
		--no-reduce --json --quiet "$@" >"$out" 2>"$err"
	python3 - "$out" <<'PY' || fail "fuzz: no JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("seconds", "programs_per_s", "tool_calls", "tool_seconds"):
    d.pop(k, None)
json.dump(d, open(sys.argv[1], "w"), sort_keys=True, indent=1)
PY
}
BUFDIFF_NATIVE_STATS=1 fz2
cp "$out" halved.json
grep -q '^native batches: .*, compiles halved 1, past their limit 0$' "$err" ||
	fail "the crashing compile was not halved: $(grep '^native batches' "$err")"
fz2 --tool-batch 1
cmp -s "$out" halved.json || { diff halved.json "$out" | head -20; fail "fuzz: halved and alone differ"; }
echo ok
