#!/bin/bash
# mlir-pipeline.sh BUFDIFF SRC: the mlir-pipeline strategy's command line and
# its failures: the command it runs, a pipeline the tool rejects (a
# tool-error with the tool's message, exit 1), a memref program with an op
# outside the executed subset (exit 2, the op and its line in the tool's
# output; hand-written ones that misuse a view or a dealloc), a bad
# --mlir-pipeline (usage, exit 2), the JSON report's memref lines, and a
# case's `pipeline:` key (reports, a crash's status, its located errors).  Exit 77 (ctest skip) without mlir-opt-22.
set -u
B=$1 S=$2
if ! command -v mlir-opt-22 >/dev/null; then
	echo "SKIP: mlir-opt-22 not installed"
	exit 77
fi
seed=$S/cases/seed/old-input-still-needed.yaml
fake="mlir-pipeline:sh $S/tests/tools/memref-fake.sh"
. "$S/tests/expect.sh"

expect 0 "$B" run --allow-exec "$seed" --strategy mlir-pipeline
has "run 1: mlir-pipeline, schedule sync: agree (as expected)"
has "  command: bufdiff export $seed --mlir-version 22 | mlir-opt-22 '--pass-pipeline=builtin.module(one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline)' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"
has "  memory: peak 36 bytes, 2 allocations (24 bytes), 1 copies (12 bytes), 0 views"

# any pipeline: without deallocation y's buffer is never freed, by design:
# no leak (docs/mlir-pipeline.md)
expect 0 "$B" run --allow-exec "$seed" --strategy mlir-pipeline --mlir-pipeline 'one-shot-bufferize{bufferize-function-boundaries}'
has "run 1: mlir-pipeline, schedule sync: agree (as expected)"
has "  memory: peak 24 bytes, 1 allocations (12 bytes), 0 copies (0 bytes), 0 views"
grep -q "leak" "$out" && fail "a leak without a deallocation pass"
# a pass the tool does not know: its error, a tool-error
expect 1 "$B" run --allow-exec "$seed" --strategy mlir-pipeline --mlir-pipeline no-such-pass
has "run 1: mlir-pipeline, schedule sync: tool-error"
has "SUMMARY: bufdiff: tool-error: exit 1"
expect 2 "$B" run --allow-exec "$seed" --strategy mlir-pipeline --mlir-pipeline "a'b"
has "bufdiff run: --mlir-pipeline wants a pass pipeline (no quotes), got 'a'b'"

# an op outside the executed subset: named, with its line in the output
expect 2 "$B" run --allow-exec "$seed" --strategy "$fake unsupported"
has "$seed: error: run 1 ($fake unsupported): the memref program at 11:5 (mlir-pipeline): unsupported op 'memref.atomic_rmw' in the memref program"

# hand-written memref programs outside what the executor takes: the op
# and its line in the tool's output, exit 2 (tests/tools/memref/bad-*.mlir)
file="mlir-pipeline:sh $S/tests/tools/memref-file.sh $S/tests/tools/memref"
bad() { # case bad-file message
	expect 2 "$B" run --allow-exec "$S/cases/external/mlir/pipeline-file-$1.yaml" --strategy "$file/$2.mlir"
	has "$S/cases/external/mlir/pipeline-file-$1.yaml: error: run 1 ($file/$2.mlir): the memref program at $3"
}
bad reinterpret bad-reinterpret "8:5 (mlir-pipeline): memref.reinterpret_cast from memref<i32> to memref<2xi32, strided<[1], offset: ?>>: one offset, and sizes and strides of the result's rank"
bad subview bad-subview "7:5 (mlir-pipeline): memref.subview from memref<2x3xi32, strided<[?, ?], offset: ?>> to memref<3xi32, strided<[?], offset: ?>>: no unit dims to drop"
bad alloca bad-dealloc "17:5 (mlir-pipeline): bufferization.dealloc: operand 1 has type i32"

# both programs' lines, and the memref program kept in the JSON report
expect 1 "$B" run --allow-exec "$seed" --strategy "$fake stale"
has "==bufdiff== stale-read: %z at $seed:6:5 reads %x, but its buffer now holds %y"
has "    in the memref program: line 12 (linalg.generic), written at line 6 (linalg.generic)"
# the input named as the case names it, not the memref program's %arg0
has "    first element [0] of the buffer of input %x"
expect 1 "$B" run --allow-exec "$seed" --strategy "$fake stale" --json
fields runs.0.violations.0 \
	'reader={"value": "z", "op": "add", "line": 6, "memref_line": 12}' 'victim="x"' \
	'writer={"value": "y", "op": "add", "line": 5, "memref_line": 6}' decision=null
fieldstart runs.0.tool.memref '"builtin.module"() ({
  "func.func"()'
# a memref program's free is a free (its memref.dealloc), after no op of
# the case's (issue 23: it was labelled `empty`, "after the empty")
expect 1 "$B" run --allow-exec "$seed" --strategy "$fake double-free"
has "==bufdiff== double-free: the free of %1 of the memref program frees the buffer of %1 of the memref program after it was freed"
has "    freed by the free of %1 of the memref program"
has "    in the memref program: line 19 (memref.dealloc), freed at line 18 (memref.dealloc)"
expect 1 "$B" run --allow-exec "$seed" --strategy "$fake double-free" --json
fields runs.0.violations.0 \
	'reader={"value": "1", "op": "free", "line": 0, "memref_line": 19}' \
	'writer={"value": "1", "op": "free", "line": 0, "memref_line": 18}'
# a case pins its run's pipeline (`pipeline:`, docs/cases.md): it reaches
# the command, the text report and the JSON; a crash of the tool is a
# tool-error with its signal
crash=$S/cases/external/mlir/pipeline-cf-await-dealloc-crash.yaml
P='one-shot-bufferize{bufferize-function-boundaries},func.func(convert-scf-to-cf),buffer-deallocation-pipeline'
expect 0 "$B" run --allow-exec "$crash"
has "run 2: mlir-pipeline:mlir-opt-22, schedule sync: tool-error (as expected)"
has "  pipeline: $P"
has "  command: bufdiff export $crash --mlir-version 22 | mlir-opt-22 '--pass-pipeline=builtin.module($P)' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"
has "SUMMARY: bufdiff: tool-error: killed by signal 11 (SIGSEGV)"
expect 0 "$B" run --allow-exec "$crash" --json
field runs.0.tool.status "exit 1"
field runs.1.pipeline "$P"
field runs.1.tool.status "killed by signal 11 (SIGSEGV)"
python3 "$jfield" "$out" runs.0.pipeline >/dev/null 2>&1 && fail "runs.0 has a pipeline"
# --mlir-pipeline on a run without the key; the key wins over it
expect 0 "$B" run --allow-exec "$seed" --strategy mlir-pipeline --mlir-pipeline 'one-shot-bufferize{bufferize-function-boundaries}' --json
field runs.0.pipeline 'one-shot-bufferize{bufferize-function-boundaries}'
# (with the flag's pipeline, the key's runs would peak higher and agree)
expect 0 "$B" check --allow-exec "$S/cases/external/mlir/pipeline-optimize-liveness.yaml" \
	--mlir-pipeline 'one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline'
# the key's errors: located, with the line and a caret, exit 2
printf '%s\n' 'case: k' 'program: |' '  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {' \
	'    return %x' '  }' 'inputs: {x: [1, 2, 3]}' 'runs:' '  - strategy: one-shot' \
	'    pipeline: canonicalize' >k.yaml
expect 2 "$B" run --allow-exec k.yaml
has "k.yaml:9:5: error: pipeline: only an mlir-pipeline strategy runs a pass pipeline (this run's strategy is one-shot)"
has "    pipeline: canonicalize"
has "    ^"
sed -i 's/one-shot/mlir-pipeline/; s/canonicalize/"a;b"/' k.yaml
expect 2 "$B" run --allow-exec k.yaml
has 'k.yaml:9:17: error: pipeline: '"';'"' cannot be part of a pass pipeline'
expect 2 "$B" run --allow-exec "$seed" --strategy mlir-pipeline --mlir-pipeline 'a;b'
has "bufdiff run: --mlir-pipeline: ';' cannot be part of a pass pipeline, got 'a;b'"

echo ok
