#!/bin/bash
# external-mlir.sh BUFDIFF SRC: the mlir strategy with the real mlir-opt-22:
# its decisions on the seed, its rejection of a copy into a buffer read
# before the await, fuzz batches (one call for many programs, 0 failures),
# and fuzz with a tool that fails on some programs: tool_errors exactly
# those, each kept with its .mlir and .sh.  Exit 77 (ctest skip) without
# mlir-opt-22.
set -u
B=$1 S=$2
if ! command -v mlir-opt-22 >/dev/null; then
	echo "SKIP: mlir-opt-22 not installed"
	exit 77
fi
T=$S/tests/tools seed=$S/cases/seed/old-input-still-needed.yaml
raw=$S/cases/external/mlir/copy-into-raw.yaml
. "$S/tests/expect.sh"
cmd22="mlir-opt-22 '--one-shot-bufferize=bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"

expect 0 "$B" run --allow-exec "$seed" --strategy mlir
has "run 1: mlir, schedule sync: agree (as expected)"
has "  command: bufdiff export $seed --mlir-version 22 | $cmd22"
has "  %y:new at $seed:5:5 <- linalg.generic (export line 3, answer line 5): operand 2 \"false\""
has "  %z:x at $seed:6:5 <- linalg.generic (export line 8, answer line 10): operand 2 \"true\""
has "  memory: peak 24 bytes, 2 allocations (24 bytes), 1 copies (12 bytes), 0 views"
expect 0 "$B" run --allow-exec "$seed" --strategy mlir --mlir-options analysis-heuristic=bottom-up-from-terminators --json
field runs.0.verdict agree
fieldj runs.0.decisions '["y:new", "z:x"]'

# mlir-opt-22 rejects the copy into %w: a tool-error with its diagnostic
expect 1 "$B" run --allow-exec "$raw" --strategy mlir
has "run 1: mlir, schedule sync: tool-error"
has "  exit 1"
has "$raw:10:7: error: 'bufferization.materialize_in_destination' op not bufferizable under the given constraints: cannot avoid RaW conflict"
has "SUMMARY: bufdiff: tool-error: exit 1"
expect 1 "$B" run --allow-exec "$raw" --strategy mlir --json
field runs.0.verdict tool-error
hasfield runs.0.tool.command
field runs.0.tool.status "exit 1"
fieldstart runs.0.tool.stderr "$raw:10:7: error: "
expect 1 "$B" bufferize "$raw" --strategy mlir
has "bufdiff: tool-error: exit 1"
# an unknown pass option is mlir-opt's error, not ours
expect 1 "$B" run --allow-exec "$seed" --strategy mlir --mlir-options no-such-option=1
has "<unknown>:0: error: <Pass-Options-Parser>: no such option no-such-option"

# fuzz batches: 64 programs in fewer calls, and mlir-opt-22 agrees on all
expect 0 "$B" fuzz --strategy mlir --count 64 --no-copies \
	--mix slices,matmul,loops,branches,calls --json --quiet
fields '' programs=64 failures=0 skipped=0 tool_errors=0
calls=$(python3 "$jfield" "$out" tool_calls) || fail "no tool_calls"
[ "$calls" -lt 64 ] || fail "fuzz made $calls tool calls for 64 programs"

# fuzz with a tool that fails on matmul: each failing program is asked
# alone once (batches are halved), counted as a tool error and kept
log=$tmp/fuzz.log
expect 1 "$B" fuzz --strategy "mlir:sh $T/mlir-fail-on.sh linalg.matmul $log" \
	--count 16 --no-copies --mix slices,matmul,loops,branches,calls \
	--no-reduce --out "$tmp/repros" --json --quiet
nfail=$(grep -c '^single fail$' "$log")
[ "$nfail" -gt 0 ] && [ "$nfail" -lt 16 ] || fail "$nfail of 16 programs fail: pick other seeds"
fields '' programs=16 failures=$nfail skipped=0 tool_errors=$nfail
kept=$(ls "$tmp"/repros/*.yaml | wc -l)
[ "$kept" = "$nfail" ] || fail "fuzz kept $kept programs for $nfail tool errors"
for f in "$tmp"/repros/*.yaml; do
	b=${f%.yaml}
	[ -s "$b.mlir" ] && [ -s "$b.sh" ] || fail "no $b.mlir and $b.sh"
	grep -q linalg.matmul "$b.mlir" || fail "$b.mlir has no linalg.matmul"
	expect 1 sh "$b.sh"
	has "fake-tool: I do not do linalg.matmul"
done
# reduce a run of mlir: the race of MLIR's in-place h:x with the launch
# (still a divergence: the await stays, docs/reduce.md)
expect 0 "$B" reduce --allow-exec "$S/cases/external/mlir/async-race.yaml" --run 1 --out "$tmp/race.yaml"
grep -q '^reduce: 6 -> 5 ops, ' "$err" || fail "reduce summary"
expect 0 "$B" print "$tmp/race.yaml"
[ "$(cat "$out")" = 'func @main(%x: tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>) {
  %f = async stream 1 -> (tensor<1xi32>) {
    yield %x
  }
  %h = add %x, 1 : tensor<1xi32>
  %a2 = await %f
  return %a2, %h
}' ] || fail "reduced program"
grep -qxF "      - {kind: async-race, writer: f, victim: x, reader: h}" "$tmp/race.yaml" || fail "reduced blame"
grep -qxF "    culprits: ['h:x']" "$tmp/race.yaml" || fail "reduced culprits"
expect 0 "$B" run --allow-exec "$tmp/race.yaml"
has "SUMMARY: bufdiff: diverge, async-race in %h at $tmp/race.yaml:8:5; culprits h:x"
echo ok
