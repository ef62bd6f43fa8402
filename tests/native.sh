#!/bin/bash
# native.sh BUFDIFF SRC: `bufdiff native` (docs/native.md): MLIR's own
# compiled output on the case's inputs, compared bit for bit with the
# reference.  It agrees where MLIR is right (floats, scalars, several
# outputs), differs where cases/mlir/ records an MLIR miscompile (the
# element, reference and native values), keeps MLIR's refusal a located
# tool failure with the command, and --out writes a program that the
# printed command runs by itself.  Exit 77 (ctest skip) without
# mlir-opt-22 and its runtime libraries.
set -u
B=$1 S=$2
if ! command -v mlir-opt-22 >/dev/null || ! command -v mlir-runner-22 >/dev/null ||
   ! ls /usr/lib/llvm-22/lib/libmlir_c_runner_utils.so* >/dev/null 2>&1; then
	echo "SKIP: mlir-opt-22, mlir-runner-22 or its runtime libraries not installed"
	exit 77
fi
. "$S/tests/expect.sh"

expect 0 "$B" native "$S/cases/seed/old-input-still-needed.yaml"
has "native outputs (mlir-opt-22, One-Shot Bufferize):"
has "  0: [12, 14, 16]"
has "native: agree"

# MLIR's later-block conflict (cases/mlir/cf-insert-in-later-block.yaml)
expect 1 "$B" native "$S/cases/mlir/cf-insert-in-later-block.yaml"
has "native: differ"
has "    differs at element 0: reference 101, native 200"

# a tensor.generate whose body inserts into a captured tensor
expect 1 "$B" native "$S/cases/mlir/generate-insert-captured.yaml"
has "native: differ"

# floats bit for bit (f32, f64), i1 tensors, dynamic shapes
for c in ops/exp ops/f64 ops/compare ops/dynamic-shapes ops/inputs-random; do
	expect 0 "$B" native "$S/cases/$c.yaml" --mlir-version 22
	has "native: agree"
done

# MLIR refuses to bufferize: a tool failure, exit 2, with the command
expect 2 "$B" native "$S/cases/mlir/materialize-into-loop-result.yaml"
grep -q "error: the native run failed (exit 1): .*not bufferizable" "$err" ||
	fail "no tool failure"
grep -q "^  command: mlir-opt-22 " "$err" || fail "no command"

# --out: the program and driver as a file; the printed command runs it
expect 1 "$B" native "$S/cases/mlir/cf-insert-in-later-block.yaml" --out prog.mlir
cmd=$(sed -n 's/^command: //p' "$out")
case "$cmd" in *prog.mlir*) ;; *) fail "the command does not read prog.mlir: $cmd";; esac
[ "$(sh -c "$cmd")" = "200" ] || fail "the printed command does not print 200"

# --confirm: each mlir / mlir-pipeline run judged by MLIR's own output
expect 1 "$B" run "$S/cases/mlir/cf-insert-in-later-block.yaml" --strategy mlir --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 101, native 200"
# the instrumented run misses what MLIR's output shows: class 7 of
# docs/mlir-corpus.md (bufdiff's lowering of an out-of-place forall)
expect 0 "$B" run "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir --confirm
has "  native: missed: MLIR's own output differs, but this run agreed (a bufdiff bug to report); output 0 element 0: reference 1.5, native -1.5"
expect 1 "$B" run "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir-pipeline --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 1.5, native -1.5"
expect 0 "$B" run "$S/cases/mlir/write-after-select.yaml" --strategy mlir --confirm --json
field runs.0.native.verdict agree
expect 1 "$B" run "$S/cases/mlir/cf-insert-in-later-block.yaml" --strategy mlir --confirm --json
field runs.0.native.verdict confirmed
field runs.0.native.reference 101.0
field runs.0.native.native 200.0
python3 "$S/tests/schema.py" "$S/docs/report.schema.json" "$out"
v=$?
[ $v = 0 ] || [ $v = 77 ] || fail "the JSON does not match docs/report.schema.json"
# other strategies: nothing to confirm
expect 0 "$B" run "$S/cases/seed/old-input-still-needed.yaml" --strategy one-shot --confirm
hasnt "native"

# bad input: a case that does not load
printf 'case: x\nprogram: |\n  func @main() {\n    %%a = nope\n  }\n' > bad.yaml
expect 2 "$B" native bad.yaml
grep -q "bad.yaml:4:" "$err" || fail "no located error"
echo "native: ok"
