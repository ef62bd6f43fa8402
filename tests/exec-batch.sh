#!/bin/bash
# exec-batch.sh BUFDIFF SRC: the batch forms of the exec protocol
# (docs/external.md, "Many programs per call"), exec-batch: (one document)
# and exec-stream: (a line per program), with tests/tools/batch-fake.py:
# the exact calls made (its log), and each program's verdict, status and
# reproducing command when the batch went wrong (a crash, a death
# mid-stream, the wrong count, a per-program error): the unbatched
# route's.  Then single-use.py on part of the corpus: the same JSON
# batched as one call per case; fuzz the same; --keep-tool-io.
set -u
B=$1 S=$2
T=$S/tests/tools ex=$S/bufferizer/external/single-use.py
. "$S/tests/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

# three programs; the second holds WORD (", 7 :")
for n in 10 7 5; do
	cat >add$n.yaml <<YAML
case: batch/add-$n
program: |
  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %y = add %x, $n : tensor<3xi32>
    %z = add %x, %y : tensor<3xi32>
    return %z
  }
entry: main
inputs:
  x: [1, 2, 3]
runs:
  - strategy: copy-all
YAML
done
word=', 7 :'

# verdicts WANT...: each case's (last run's) verdict and tool status, in
# order, as "FILE VERDICT [STATUS]"
verdicts() {
	got=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    r = j["runs"][-1]
    print(j["file"], r["verdict"], r.get("tool", {}).get("status", ""))' "$out" |
		sed 's/ $//')
	want=$(printf '%s\n' "$@")
	[ "$got" = "$want" ] || fail "verdicts: got
$got
expected
$want"
}
# calls WANT: the tool's log, one line per call, joined by ' '
calls() {
	got=$(tr '\n' ' ' <log | sed 's/ $//')
	[ "$got" = "$1" ] || fail "calls: got '$got', expected '$1'"
}
# run MODE KIND [WANT-EXIT] [FLAGS...]: check the three cases
run() {
	local m=$1 k=$2 x=${3:-0}
	shift 3
	rm -f log
	expect "$x" "$B" check --allow-exec add10.yaml add7.yaml add5.yaml \
		--strategy "exec-$m:python3 $T/batch-fake.py $k '$word' log" --json "$@"
}
ok="add10.yaml agree
add7.yaml agree
add5.yaml agree"
crashed=("add10.yaml agree" "add7.yaml tool-error killed by signal 11 (SIGSEGV)" "add5.yaml agree")

# ---- a tool that answers: one call for the three
run batch ok 0
calls "document 3"
verdicts "$ok"
run stream ok 0
calls "stream answered 3"
verdicts "$ok"
# --tool-batch 1: each alone (the one-program protocol)
run batch ok 0 --tool-batch 1
calls "one one one"

# ---- a batch that crashes on one program: that program a tool-error
# (asked alone, it crashes again), the others their verdicts
run batch crash 1
calls "document 3 one one one"
verdicts "${crashed[@]}"
# the report's command stays the program's own call
field @1.runs.-1.tool.command "bufdiff print add7.yaml | python3 $T/batch-fake.py crash '$word' log"
# ... in a worker of check -j too (the answers were asked before the fork)
run batch crash 1 -j 2
calls "document 3 one one one"
verdicts "${crashed[@]}"
# a long-lived tool that dies mid-stream: the answer it wrote is kept,
# the program it died on and those after it are asked alone
run stream crash 1
calls "stream answered 1 one one"
verdicts "${crashed[@]}"

# ---- the wrong count (one answer too few; a line too many): none is
# taken, each program is asked alone
run batch count 0
calls "document 3 one one one"
verdicts "$ok"
run stream count 0
calls "stream answered 3 one one one"
verdicts "$ok"

# ---- "error" for one program: that one asked alone (its verdict is its
# own call's: exit 1 and its stderr), the others answered by the batch
run batch error 1
calls "document 3 one"
verdicts "add10.yaml agree" "add7.yaml tool-error exit 1" "add5.yaml agree"
field @1.runs.-1.tool.stderr "fake-tool: not mine"
run stream error 1
calls "stream answered 3 one"

# ---- --keep-tool-io: the batch call's four files (its script sets
# BUFDIFF_BATCH and replays it), then each program's own
run batch crash 1 --keep-tool-io kept
ls kept >files
[ "$(tr '\n' ' ' <files)" = "0001-batch.err 0001-batch.in 0001-batch.out 0001-batch.sh 0002-batch_add-10.err 0002-batch_add-10.in 0002-batch_add-10.out 0002-batch_add-10.sh 0003-batch_add-7.err 0003-batch_add-7.in 0003-batch_add-7.out 0003-batch_add-7.sh 0004-batch_add-5.err 0004-batch_add-5.in 0004-batch_add-5.out 0004-batch_add-5.sh " ] ||
	fail "kept files: $(cat files)"
grep -q "^BUFDIFF_BATCH=document exec /bin/sh -c " kept/0001-batch.sh || fail "no BUFDIFF_BATCH in $(cat kept/0001-batch.sh)"
python3 "$jfield" kept/0001-batch.in programs.1.name >got && [ "$(cat got)" = batch/add-7 ] ||
	fail "the batch's second program: $(cat got)"
grep -q BUFDIFF_BATCH kept/0002-batch_add-10.sh && fail "a one-program call with BUFDIFF_BATCH"
rm -rf kept
run stream ok 0 --keep-tool-io kept
[ "$(sh kept/0001-batch.sh)" = "$(cat kept/0001-batch.out)" ] || fail "the kept stream call does not replay"
[ "$(wc -l <kept/0001-batch.in)" = 3 ] || fail "a stream of $(wc -l <kept/0001-batch.in) lines"

# ---- single-use.py: batched == one call per case, on part of the corpus
# (the whole corpus runs batched in ctest exec-example), check and check -j
cd "$S" || exit 1
norm() { sed "s/exec-$1:python3/exec:python3/g" "$out"; }
part="cases/seed cases/lastuse cases/oneshot cases/plans"
expect 0 "$B" check $part --trust cases --strategy "exec:python3 $ex" --json
cp "$out" "$tmp/alone.json"
for m in batch stream; do
	expect 0 "$B" check $part --trust cases --strategy "exec-$m:python3 $ex" --json
	norm $m | cmp -s - "$tmp/alone.json" || { norm $m | diff "$tmp/alone.json" - | head; fail "exec-$m: not the one-program JSON"; }
done
expect 0 "$B" check $part --trust cases --strategy "exec-batch:python3 $ex" --json -j 2
norm batch | cmp -s - "$tmp/alone.json" || fail "exec-batch -j 2: not the one-program JSON"
# exec-mlir-batch: the export, in batches
expect 0 "$B" check cases/seed --trust cases --strategy "exec-mlir-batch:python3 $T/batch-fake.py ok none $tmp/mlog" --json
[ "$(cat "$tmp/mlog")" = "document 3" ] || fail "exec-mlir-batch calls: $(cat "$tmp/mlog")"

# ---- fuzz: the same summary batched and alone; one call for 20 programs
fz() {
	expect 0 "$B" fuzz --strategy "$1:python3 $ex" --count 20 --max-ops 6 \
		--no-reduce --json --seed 5 --out "$tmp/r-$1"
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["programs"], j["failures"], j["tool_errors"], j["buckets"], "calls", j["tool_calls"])' "$out"
}
a=$(fz exec) b=$(fz exec-batch) c=$(fz exec-stream)
[ "${a% calls *}" = "${b% calls *}" ] && [ "${a% calls *}" = "${c% calls *}" ] ||
	fail "fuzz: alone $a, batch $b, stream $c"
[ "${a##* calls }/${b##* calls }/${c##* calls }" = 20/1/1 ] ||
	fail "fuzz tool calls alone/batch/stream: ${a##* calls }/${b##* calls }/${c##* calls }"
# ---- reduce: a batching tool is asked about the candidates a pass will
# judge next in one call; the same reduced case as asked one at a time
# (tests/tools/batch-of.py: free-in-branch.sh in the batch forms)
c=$S/cases/external/exec/free-in-one-branch.yaml
sed -e "s|workdir: ../../..|workdir: $S|" -e '/^  # the run/,$d' "$c" >"$tmp/alone.yaml"
sed -e "s|\"exec:sh tests/tools/free-in-branch.sh\"|\"exec-batch:python3 tests/tools/batch-of.py $tmp/rlog sh tests/tools/free-in-branch.sh\"|" \
	"$tmp/alone.yaml" >"$tmp/batch.yaml"
expect 0 "$B" reduce --allow-exec "$tmp/alone.yaml" --run 1 --out "$tmp/ra.yaml" --keep-tool-io "$tmp/ka"
[ "$(ls "$tmp/ka" | grep -c '\.sh$')" = 22 ] || fail "reduce alone: $(ls "$tmp/ka" | grep -c '\.sh$') calls"
expect 0 "$B" reduce --allow-exec "$tmp/batch.yaml" --run 1 --out "$tmp/rb.yaml"
grep -q "^reduce: 9 -> 8 ops, 27 candidates, 2 cache hits, " "$out" "$err" || fail "reduce batched: not 27 candidates"
diff <(grep -v strategy "$tmp/ra.yaml") <(grep -v strategy "$tmp/rb.yaml") >/dev/null ||
	fail "reduce: batched, another case"
got=$(sort "$tmp/rlog" | uniq -c | tr -s ' ' | tr '\n' '/')
[ "$got" = " 7 document 2/ 1 document 5/ 4 one/" ] || fail "reduce batched calls: $got"

echo "PASS: exec-batch"
