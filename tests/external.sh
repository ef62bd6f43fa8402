#!/bin/bash
# external.sh BUFDIFF SRC: outside strategies (exec:, mlir:) end to end,
# with the fake tools of tests/tools/ that each misbehave in one way:
# exit codes, the exact report lines, the JSON tool object, timeouts that
# kill the whole process group, fuzz's tool_errors and kept programs, and
# reduce asking the tool once per distinct program.  It runs from a
# scratch directory: every path it passes is absolute.
set -u
B=$1 S=$2
T=$S/tests/tools seed=$S/cases/seed/old-input-still-needed.yaml
anchor=$S/cases/plans/anchor-dest-read.yaml args=$S/cases/plans/args-copy-share.yaml
. "$S/tests/expect.sh"

# tool_error CASE STRATEGY STATUS [KEY=JSON...]: run exits 1 with the
# status line and the SUMMARY; --json has verdict tool-error and the tool
# object (with these fields); check exits 1 too.  Leaves the text run in $out.
xmlq() { # text as it appears escaped in the JUnit XML
	printf %s "$1" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' \
		-e "s/\"/\\&quot;/g; s/'/\\&#39;/g"
}
tool_error() {
	local c=$1 st=$2 status=$3
	expect 1 "$B" check --allow-exec "$c" --strategy "$st" --junit "$tmp/junit.xml"
	has "0 passed, 1 failed"
	# the [FAIL] reason carries the status (and the first stderr line)
	grep -qF "verdict tool-error ($(xmlq "$status")" "$tmp/junit.xml" ||
		fail "JUnit: no failure for $st"
	expect 1 "$B" run --allow-exec "$c" --strategy "$st" --json
	field runs.0.verdict tool-error
	hasfield runs.0.tool.command
	field runs.0.tool.status "$status"
	shift 3
	[ $# = 0 ] || fields runs.0.tool "$@"
	expect 1 "$B" run --allow-exec "$c" --strategy "$st"
	has "run 1: $st, schedule sync: tool-error"
	has "  $status"
	has "SUMMARY: bufdiff: tool-error: $status"
	grep -qF "  expectation failed: verdict tool-error ($status" "$out" ||
		fail "no expectation line with the status $status"
}

# ---- exec: the tool itself fails
tool_error "$seed" "exec:no-such-tool-xyz" "exit 127" \
	"command=\"bufdiff print $seed | no-such-tool-xyz\"" 'stderr="sh: 1: no-such-tool-xyz: not found"'
has "  command: bufdiff print $seed | no-such-tool-xyz"
tool_error "$seed" "exec:sh $T/fail.sh" "exit 3" \
	'stderr="fake-tool: cannot bufferize this program\nfake-tool: giving up"'
expect 1 "$B" run --allow-exec "$seed" --strategy "exec:sh $T/fail.sh"
has "  stderr:"
has "fake-tool: cannot bufferize this program"
has "fake-tool: giving up"
tool_error "$seed" "exec:sh $T/crash.sh" "killed by signal 11 (SIGSEGV)"
has "fake-tool: about to crash"
# a shell that is itself killed (no /bin/sh in between to report 139)
tool_error "$seed" "exec:kill -SEGV \$\$" "killed by signal 11 (SIGSEGV)"

# a hang: timed out after 0.5 s, fast, and its child (same process group)
# is gone too
start=$(date +%s%N)
expect 1 "$B" run --allow-exec "$seed" --strategy "exec:sh $T/hang.sh $tmp/pid" --tool-timeout 0.5
ms=$((($(date +%s%N) - start) / 1000000))
has "  timed out after 0.5 s"
has "SUMMARY: bufdiff: tool-error: timed out after 0.5 s"
[ "$ms" -lt 3000 ] || fail "the hang took $ms ms"
pid=$(cat "$tmp/pid") || fail "hang.sh's child wrote no pid"
for i in 1 2 3 4 5 6 7 8 9 10; do # a killed orphan may linger as a zombie
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] && break
	sleep 0.1
done
[ -z "$state" ] || [ "$state" = Z ] || fail "hang.sh's child $pid survived ($state)"
expect 1 "$B" run --allow-exec "$seed" --strategy "exec:sh $T/hang.sh $tmp/pid2" --tool-timeout 0.5 --json
field runs.0.tool.status "timed out after 0.5 s"

# ---- exec: unreadable or impossible answers
tool_error "$seed" "exec:sh $T/empty.sh" "answer: 1:1: empty decisions document" \
	'stderr=""'
tool_error "$seed" "exec:sh $T/garbage.sh" \
	"answer: 2:1: did not find expected ',' or '}' (while parsing a flow mapping)"
tool_error "$seed" "exec:printf '{}\\n\\000x'" "answer: 2:1: NUL byte in the answer"
tool_error "$seed" "mlir:printf 'x\\000'" "answer: 1:2: NUL byte in the answer"
a="exec:sh $T/answer.sh"
tool_error "$seed" "$a not-mapping.json" "answer: 1:1: 'decisions document' must be a mapping"
tool_error "$seed" "$a unknown-key.json" \
	"answer: 1:24: unknown key 'colour' in decisions document (expected one of: plan, free, anchor, hoist, args, blockargs, yields, cases)"
tool_error "$seed" "$a unknown-value.json" "answer: 1:11: unknown value %nope"
tool_error "$seed" "$a non-operand.json" "answer: 1:16: %z is not an operand of the op defining %y"
tool_error "$anchor" "$a other-type.json" \
	"answer: plan: %r cannot live in the buffer of %g: tensor<2x4xf32> is not tensor<4x4xf32>"
tool_error "$anchor" "$a anchor-not-insert.json" "answer: 1:18: anchor: %g is not defined by insert_slice"
tool_error "$anchor" "$a hoist-no-loop.json" "answer: 1:12: hoist: %f is not defined inside a loop"
tool_error "$args" "$a args-count.json" \
	"answer: 1:16: args: the call defining %y has 1 tensor operand, the list has 2"
tool_error "$args" "$a args-not-call.json" "answer: 1:11: args: %z is not defined by a call"
tool_error "$args" "$a args-word.json" "answer: 1:17: args: unknown word 'lend' (expected copy or share)"

# ---- exec: answers that run (the tool does not even read its stdin)
expect 0 "$B" run --allow-exec "$seed" --strategy "$a seed-right.json"
has "run 1: $a seed-right.json, schedule sync: agree (as expected)"
has "  command: bufdiff print $seed | sh $T/answer.sh seed-right.json"
has '  {"plan": {"y": "new", "z": "y"}}'
has "  memory: peak 24 bytes, 1 allocations (12 bytes), 0 copies (0 bytes), 0 views"
# an answer without a final newline
expect 0 "$B" run --allow-exec "$seed" --strategy "exec:printf '{\"plan\": {\"y\": \"new\"}}'"
has '  {"plan": {"y": "new"}}'
has "  memory: peak 36 bytes, 2 allocations (24 bytes), 0 copies (0 bytes), 0 views"
expect 1 "$B" run --allow-exec "$seed" --strategy "$a seed-free.yaml"
has "    freed by \`free %y\` after %y = add at $seed:5:5 (forced by the plan)"
has "SUMMARY: bufdiff: diverge, use-after-free in %z at $seed:6:5; culprits free y:after y"
expect 1 "$B" run --allow-exec "$seed" --strategy "$a seed-wrong.json"
has "SUMMARY: bufdiff: diverge, stale-read in %z at $seed:6:5; culprits y:x"
has "==bufdiff== stale-read: %z at $seed:6:5 reads %x, but its buffer now holds %y"
has "  expectation failed: verdict diverge, expected agree"
expect 1 "$B" run --allow-exec "$seed" --strategy "$a seed-wrong.json" --json
field runs.0.verdict diverge
fieldj runs.0.culprits '["y:x"]'

# ---- what the tools read: canonical TIR (exec), the export (exec-mlir)
expect 0 "$B" run --allow-exec "$seed" --strategy "exec:grep -qxF '  %y = add %x, 10 : tensor<3xi32>' && echo '{}'"
expect 1 "$B" run --allow-exec "$seed" --strategy "exec:grep -qF linalg && echo '{}'"
has "SUMMARY: bufdiff: tool-error: exit 1"
expect 0 "$B" run --allow-exec "$seed" --strategy "exec-mlir:grep -qF 'loc(\"$seed\":5:5)' && echo '{}'"
expect 0 "$B" run --allow-exec "$seed" --strategy "exec-mlir:sh $T/answer.sh seed-right.json" --mlir-version 19
has "  command: bufdiff export $seed --mlir-version 19 | sh $T/answer.sh seed-right.json"
has "  memory: peak 24 bytes, 1 allocations (12 bytes), 0 copies (0 bytes), 0 views"
tool_error "$seed" "exec-mlir:sh $T/fail.sh" "exit 3"

# a compound command reads the program as a whole, in the repro line too
expect 1 "$B" run --allow-exec "$seed" --strategy "exec:grep -q '^func @main' || exit 9; exit 6"
has "  exit 6"
has "  command: bufdiff print $seed | sh -c 'grep -q '\''^func @main'\'' || exit 9; exit 6'"
expect 1 "$B" fuzz --strategy "exec-mlir:grep -q func.func || exit 9; exit 5" --count 1 \
	--no-reduce --out "$tmp/compound" --quiet
grep -qF "1 programs, 1 failures (1 tool errors)" "$out" "$err" || fail "fuzz summary"
grep -qxF "cd \"\$(dirname \"\$0\")\" && sh -c 'grep -q func.func || exit 9; exit 5' < exec-mlir-0.mlir" \
	"$tmp/compound/exec-mlir-0.sh" || fail "fuzz's .sh for a compound command"
expect 5 sh "$tmp/compound/exec-mlir-0.sh" </dev/null

# ---- mlir: a fake mlir-opt printing crafted generic MLIR
m="mlir:sh $T/mlir-fake.sh"
tool_error "$seed" "$m garbage" \
	"answer: unreadable MLIR at 1:1: expected an operation or an alias definition, found 't'"
has "  command: bufdiff export $seed --mlir-version 22 | sh $T/mlir-fake.sh garbage '--one-shot-bufferize=bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"
tool_error "$seed" "$m noloc" "answer: linalg.generic at line 5 has no location of an op of the case"
tool_error "$seed" "$m words" "answer: linalg.generic at line 5: 2 in-place words for 3 operands"
tool_error "$seed" "$m maybe" "answer: linalg.generic at line 5: unknown in-place word 'maybe'"
expect 0 "$B" run --allow-exec "$seed" --strategy "$m ok"
has "  %y:new at $seed:5:5 <- linalg.generic (export line 3, answer line 5): operand 2 \"false\""
has "  %z:x at $seed:6:5 <- linalg.generic (export line 8, answer line 10): operand 2 \"true\""
expect 1 "$B" run --allow-exec "$seed" --strategy "$m diverge"
has "run 1: $m diverge, schedule sync: diverge"
has "  %y:x at $seed:5:5 <- linalg.generic (export line 3, answer line 5): operand 2 \"true\""
has "  %z:new at $seed:6:5 <- linalg.generic (export line 8, answer line 10): operand 2 \"false\""
has "    overwritten by %y at $seed:5:5, decision y:x"
has "SUMMARY: bufdiff: diverge, stale-read in %z at $seed:6:5; culprits y:x"
expect 1 "$B" run --allow-exec "$seed" --strategy "$m diverge" --json
field runs.0.verdict diverge
fieldj runs.0.decisions '["y:x", "z:new"]'
fieldj runs.0.culprits '["y:x"]'
expect 1 "$B" run --allow-exec "$seed" --strategy "$m diverge" --mlir-options "analysis-fuzzer-seed=3"
has "  command: bufdiff export $seed --mlir-version 22 | sh $T/mlir-fake.sh diverge '--one-shot-bufferize=bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops analysis-fuzzer-seed=3' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"
expect 1 "$B" run --allow-exec "$seed" --strategy "$m diverge" --mlir-version 16
has "  command: bufdiff export $seed --mlir-version 16 | sh $T/mlir-fake.sh diverge '--one-shot-bufferize=bufferize-function-boundaries test-analysis-only allow-return-allocs' --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"

# ---- bufferize and explain with an outside strategy
expect 0 "$B" bufferize "$seed" --strategy "$a seed-right.json"
has "  %z = alias %y                             // z:y  $seed:6:5"
expect 0 "$B" explain "$seed" --strategy "$m diverge"
[ "$(cat "$out")" = "@main:
$seed:6:5: alloc tensor<3xi32> for %z [z:new]: MLIR: out of place, operand 2 (%x) \"false\": a new buffer (__inplace_operands_attr__ = [\"true\", \"true\", \"false\"] on linalg.generic at line 10 of its answer)" ] || fail "explain"
expect 1 "$B" bufferize "$seed" --strategy "exec:sh $T/fail.sh"
[ "$(cat "$err")" = "bufdiff: tool-error: exit 3
  command: bufdiff print $seed | sh $T/fail.sh
fake-tool: cannot bufferize this program
fake-tool: giving up" ] || fail "bufferize tool-error"
[ ! -s "$out" ] || fail "bufferize printed a program"
expect 1 "$B" explain "$seed" --strategy "$m maybe"
has "bufdiff: tool-error: answer: linalg.generic at line 5: unknown in-place word 'maybe'"
expect 1 "$B" explain "$seed" --strategy "exec:no-such-tool-xyz"
has "sh: 1: no-such-tool-xyz: not found"

# ---- bad option values: exit 2 with the message
bad() { # message args...
	local msg=$1
	shift
	expect 2 "$B" "$@"
	has "bufdiff $1: $msg"
}
bad "--tool-timeout wants seconds in (0, 86400], got '0'" run "$seed" --strategy mlir --tool-timeout 0
bad "--tool-timeout wants seconds in (0, 86400], got '-1'" run "$seed" --strategy mlir --tool-timeout -1
bad "--tool-timeout wants seconds in (0, 86400], got 'abc'" check "$seed" --strategy mlir --tool-timeout abc
bad "--tool-timeout wants seconds in (0, 86400], got '86401'" run "$seed" --tool-timeout 86401
bad "--tool-timeout wants seconds in (0, 86400], got 'nan'" run "$seed" --tool-timeout nan
bad "option --tool-timeout needs a value" run "$seed" --tool-timeout
bad "unknown MLIR version '17' (16, 19 or 22)" run "$seed" --strategy mlir --mlir-version 17
bad "unknown MLIR version '22x' (16, 19 or 22)" bufferize "$seed" --strategy mlir --mlir-version 22x
bad "option --mlir-version needs a value" run "$seed" --mlir-version
bad "option --mlir-options needs a value" run "$seed" --strategy mlir --mlir-options
bad "option '--tool-timeout' is not valid here" export "$seed" --tool-timeout 1

# ---- fuzz: tool errors counted apart, exactly those the tool caused
expect 1 "$B" fuzz --strategy "exec:sh $T/fail-on.sh matmul $tmp/fuzz.log" --count 20 \
	--no-reduce --out "$tmp/repros" --json --quiet
nfail=$(grep -c ' fail$' "$tmp/fuzz.log")
nok=$(grep -c ' ok$' "$tmp/fuzz.log")
[ "$nfail" -gt 0 ] && [ "$nok" -gt 0 ] || fail "fuzz: $nfail failing and $nok good programs: pick other seeds"
[ $((nfail + nok)) = 20 ] || fail "fuzz asked $((nfail + nok)) times for 20 programs"
fields '' programs=20 failures=$nfail skipped=0 tool_errors=$nfail tool_calls=20
kept=$(ls "$tmp"/repros/*.yaml | wc -l)
[ "$kept" = "$nfail" ] || fail "fuzz kept $kept programs for $nfail tool errors"
for f in "$tmp"/repros/*.yaml; do
	"$B" print "$f" | grep -q matmul || fail "kept $f has no matmul"
	expect 1 "$B" run --allow-exec "$f"
	has "SUMMARY: bufdiff: tool-error: exit 1"
done
# ... and reduced: of the bucket's tool errors, in seed order, the 1st,
# 2nd, 4th and 8th are reduced, the others written whole (as above but
# for `about:`, the command that makes them again)
same() { cmp -s <(grep -v '^about: ' "$1") <(grep -v '^about: ' "$2"); }
expect 1 "$B" fuzz --strategy "exec:sh $T/fail-on.sh matmul $tmp/fuzz.log" \
	--count 20 --out "$tmp/sampled" --json --quiet
[ "$nfail" -ge 5 ] || fail "$nfail tool errors: pick other seeds"
k=0 whole=0
for seed in $(seq 0 19); do
	f=exec-$seed.yaml
	[ -f "$tmp/repros/$f" ] || continue
	k=$((k + 1))
	if [ $((k & (k - 1))) = 0 ]; then
		same "$tmp/repros/$f" "$tmp/sampled/$f" && fail "$f (tool error $k) not reduced"
		[ "$(wc -l <"$tmp/sampled/$f")" -lt "$(wc -l <"$tmp/repros/$f")" ] ||
			fail "$f (tool error $k) not smaller"
	else
		same "$tmp/repros/$f" "$tmp/sampled/$f" || fail "$f (tool error $k) not whole"
		whole=$((whole + 1))
	fi
done
[ "$k" = "$nfail" ] || fail "$k tool errors written, $nfail wanted"
fields '' tool_errors=$nfail kept_whole=$whole unreduced=0

# ---- reduce: still a tool-error, smaller, the tool asked once per program
cat >"$tmp/mul.yaml" <<EOF
case: external/tool-fails-on-mul
about: the tool fails on every program with a mul
program: |
  func @main(%x: tensor<4xi32>, %w: tensor<4xi32>) -> tensor<4xi32> {
    %a = add %x, %w : tensor<4xi32>
    %b = sub %a, 3 : tensor<4xi32>
    %c = mul %b, %x : tensor<4xi32>
    %d = add %c, %a : tensor<4xi32>
    %e = max %d, %w : tensor<4xi32>
    return %e
  }
inputs:
  x: [1, 2, 3, 4]
  w: [5, 6, 7, 8]
runs:
  - strategy: "exec:NOTE='a: b' sh $T/fail-on.sh mul $tmp/reduce.log"
    verdict: tool-error
EOF
expect 0 "$B" run --allow-exec "$tmp/mul.yaml"
rm -f "$tmp/reduce.log"
expect 0 "$B" reduce --allow-exec "$tmp/mul.yaml" --out "$tmp/reduced.yaml"
grep -q '^reduce: 6 -> 2 ops, 13 candidates, 3 cache hits, ' "$err" || fail "reduce summary"
calls=$(wc -l <"$tmp/reduce.log")
distinct=$(cut -d' ' -f1,2 "$tmp/reduce.log" | sort -u | wc -l)
[ "$calls" = "$distinct" ] || fail "reduce asked $calls times for $distinct programs"
[ "$calls" = 9 ] || fail "reduce asked $calls times, expected 9"
grep -qxF "  - strategy: \"exec:NOTE='a: b' sh $T/fail-on.sh mul $tmp/reduce.log\"" "$tmp/reduced.yaml" ||
	fail "reduced strategy line"
grep -qxF "    verdict: tool-error" "$tmp/reduced.yaml" || fail "reduced verdict"
expect 0 "$B" print "$tmp/reduced.yaml"
[ "$(cat "$out")" = 'func @main(%x: tensor<1xi32>, %w: tensor<1xi32>) -> tensor<1xi32> {
  %c = mul %w, %x : tensor<1xi32>
  return %c
}' ] || fail "reduced program"
expect 0 "$B" run --allow-exec "$tmp/reduced.yaml"
has "SUMMARY: bufdiff: tool-error: exit 1"
echo ok
