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
. "$S/tests/expect.sh"
need_native_22

expect 0 "$B" native --allow-exec "$S/cases/seed/old-input-still-needed.yaml"
has "native outputs (mlir-opt-22, One-Shot Bufferize):"
has "  0: [12, 14, 16]"
has "native: agree"

# MLIR's later-block conflict (cases/mlir/cf-insert-in-later-block.yaml)
expect 1 "$B" native --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml"
has "native: differ"
has "    differs at element 0: reference 101, native 200"

# a tensor.generate whose body inserts into a captured tensor
expect 1 "$B" native --allow-exec "$S/cases/mlir/generate-insert-captured.yaml"
has "native: differ"

# i1 is unsigned in TIR: max, min, relu and compares on i1 exported as
# MLIR's logic ops and unsigned predicates agree natively
expect 0 "$B" native --allow-exec "$S/cases/ops/i1-max-min-relu.yaml"
has "native: agree"

# floats bit for bit (f32, f64), i1 tensors, dynamic shapes
for c in ops/exp ops/f64 ops/compare ops/dynamic-shapes ops/inputs-random; do
	expect 0 "$B" native --allow-exec "$S/cases/$c.yaml" --mlir-version 22
	has "native: agree"
done

# MLIR refuses to bufferize: a tool failure, exit 2, with the command
expect 2 "$B" native --allow-exec "$S/cases/mlir/materialize-into-loop-result.yaml"
grep -q "error: the native run failed (exit 1): .*not bufferizable" "$err" ||
	fail "no tool failure"
grep -q "^  command: mlir-opt-22 " "$err" || fail "no command"

# --out: the program and driver as a file; the printed command runs it
expect 1 "$B" native --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml" --out prog.mlir
cmd=$(sed -n 's/^command: //p' "$out")
case "$cmd" in *prog.mlir*) ;; *) fail "the command does not read prog.mlir: $cmd";; esac
[ "$(sh -c "$cmd")" = "200" ] || fail "the printed command does not print 200"

# --confirm: each mlir / mlir-pipeline run judged by MLIR's own output
expect 1 "$B" run --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml" --strategy mlir --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 101, native 200"
# (before issue 23 the mlir run was `missed` here: the lowering of an
# out-of-place forall hid the dead write)
expect 1 "$B" run --allow-exec "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 1.5, native -1.5"
expect 1 "$B" run --allow-exec "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir-pipeline --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 1.5, native -1.5"
expect 0 "$B" run --allow-exec "$S/cases/mlir/write-after-select.yaml" --strategy mlir --confirm --json
field runs.0.native.verdict agree
expect 1 "$B" run --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml" --strategy mlir --confirm --json
field runs.0.native.verdict confirmed
field runs.0.native.reference 101.0
field runs.0.native.native 200.0
python3 "$S/tests/schema.py" "$S/docs/report.schema.json" "$out"
v=$?
[ $v = 0 ] || [ $v = 77 ] || fail "the JSON does not match docs/report.schema.json"
# other strategies: nothing to confirm
expect 0 "$B" run --allow-exec "$S/cases/seed/old-input-still-needed.yaml" --strategy one-shot --confirm
hasnt "native"

# upstream: a lit test whose RUN line gives MLIR's wrong output today and
# whose CHECK lines hold the reference's
expect 0 "$B" upstream --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml" --out up.mlir
grep -qxF "// CHECK: {{^}}101{{\$}}" up.mlir || fail "no CHECK line of the reference"
grep -qxF "//   output 0: 200  (expected 101)" up.mlir || fail "no line of MLIR's output"
grep -q 'loc("' up.mlir && fail "bufdiff's locations left in the test"
run=$(grep '^// RUN: ' up.mlir | sed -e 's#^// RUN: ##' -e 's# | FileCheck %s$##')
[ "$(sh -c "${run//%s/up.mlir}")" = "200" ] || fail "the RUN line does not give 200"
expect 0 "$B" upstream --allow-exec "$S/cases/mlir/forall-dead-write-into-shared.yaml"
contains "// CHECK-NEXT: {{^}}3223322624{{\$}}  (-2.5)"
# MLIR is right there: nothing to report
expect 1 "$B" upstream --allow-exec "$S/cases/mlir/write-after-select.yaml"
grep -q "agrees with the reference: nothing to report upstream" "$err" || fail "no reason"

# mlir-opt-19 (scripts/install-deps --all-mlir unpacks its runtime
# libraries): the same miscompile, natively
if command -v mlir-opt-19 >/dev/null &&
   ls /usr/local/lib/bufdiff/llvm-19/lib/libmlir_c_runner_utils.so* >/dev/null 2>&1; then
	expect 1 "$B" native --allow-exec "$S/cases/mlir/cf-insert-in-later-block.yaml" --mlir-version 19
	has "native outputs (mlir-opt-19, One-Shot Bufferize):"
	has "    differs at element 0: reference 101, native 200"
	grep -q "mlir-cpu-runner-19 -e bufdiff_native_driver" "$out" || fail "not mlir-cpu-runner-19"
else
	echo "NOTE: mlir-opt-19 or its runtime libraries missing: the 19 part skipped"
fi

# a runner that crashes, hangs, prints garbage or too little: a tool
# failure with its status and the command, never a crash or a hang of bufdiff
mkdir fake
seed=$S/cases/seed/old-input-still-needed.yaml
for kind in crash hang garbage short long; do
	case $kind in
	crash) body='cat >/dev/null; kill -SEGV $$' ;;
	hang) body='cat >/dev/null; sleep 30' ;;
	garbage) body='cat >/dev/null; echo "12 fourteen 16"' ;;
	short) body='cat >/dev/null; echo 12' ;;
	long) body='cat >/dev/null; printf "12\n14\n16\n18\n"' ;;
	esac
	printf '#!/bin/sh\n%s\n' "$body" > fake/mlir-runner-22
	chmod +x fake/mlir-runner-22
	PATH=$PWD/fake:$PATH expect 2 "$B" native --allow-exec "$seed" --tool-timeout 2
	case $kind in
	crash) grep -q "error: the native run failed (killed by signal 11 (SIGSEGV))" "$err" || fail "$kind" ;;
	hang) grep -q "error: the native run failed (timed out after 2 s)" "$err" || fail "$kind" ;;
	garbage) grep -q "error: the native run printed text where element 1 of output 0 was due" "$err" || fail "$kind" ;;
	short) grep -q "error: the native run printed nothing where element 1 of output 0 was due" "$err" || fail "$kind" ;;
	long) grep -q "error: the native run printed more than the outputs" "$err" || fail "$kind" ;;
	esac
	grep -q "^  command: mlir-opt-22 " "$err" || fail "$kind: no command"
done
rm -rf fake

# --confirm on run: a racy read and a miscompile (issue 23 item 4), each
# confirmed natively
expect 1 "$B" run --allow-exec "$S/cases/loops/forall-reads-shared.yaml" --strategy mlir:mlir-opt-22 --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 1: reference 30, native 220"
has "    native output: racy read: the forall's trips one after another (first to last), each seeing what the earlier ones inserted, give these outputs; MLIR leaves a read beyond a trip's slice undefined (a race, not a miscompile)"
has "  racy read: the forall's trips one after another (first to last), each seeing what the earlier ones inserted, give these outputs; MLIR leaves a read beyond a trip's slice undefined (a race, not a miscompile)"
expect 1 "$B" run --allow-exec "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir:mlir-opt-22 --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 1.5, native -1.5"
has "  miscompile: no order of the forall's trips, each seeing what the earlier ones inserted, gives these outputs (not a race)"

# a reference that fails at an assert: natively cf.assert aborts, which
# matches (before, no native verdict: such fuzz programs had none)
expect 0 "$B" run --allow-exec "$S/cases/ops/assert-fail.yaml" --strategy mlir:mlir-opt-22 --confirm
has "  native: agree: MLIR's own output agrees with the reference: MLIR's code aborts, as the reference fails at the assert of line 9"

expect 0 "$B" native --allow-exec "$S/cases/ops/assert-fail.yaml"
has "native (mlir-opt-22, One-Shot Bufferize): aborts at an assert too"
has "native: agree"
# ... also with a launch value of dynamic shape (its memref made in the
# launch and passed out as an async value; before, it could not run
# natively, and that was taken for a run past the assert: `missed`, 24
# programs of two --confirm campaigns)
printf '%s\n' 'case: t/assert-dyn' 'program: |' \
	'  func @main(%p: tensor<?xi32>, %n: index) -> tensor<?xi32> {' \
	'    %f = async stream 0 -> (tensor<?xi32>) {' '      yield %p' '    }' \
	'    %ok = lt %n, 1 : index' '    assert %ok, "n stays small"' \
	'    %q = await %f' '    return %q' '  }' 'inputs:' \
	'  p: {random: 1, min: 0, max: 3, shape: [4]}' '  n: 2' > assert-dyn.yaml
expect 0 "$B" run --allow-exec assert-dyn.yaml --strategy mlir:mlir-opt-22 --confirm
has "  native: agree: MLIR's own output agrees with the reference: MLIR's code aborts, as the reference fails at the assert of line 8; launches late (each launch held until its first await)"

# --strategy mlir-native: MLIR's own output is the verdict
expect 1 "$B" run --allow-exec "$S/cases/mlir/forall-dead-write-into-shared.yaml" --strategy mlir-native:mlir-opt-22
has "run 1: mlir-native:mlir-opt-22, schedule sync: diverge"
expect 0 "$B" run --allow-exec "$S/cases/mlir/write-after-select.yaml" --strategy mlir-native:mlir-opt-22
has "run 1: mlir-native:mlir-opt-22, schedule sync: agree (as expected)"

# launches natively (docs/native.md, "Launches natively"): One-Shot's
# in-place host write under a pending launch, confirmed on 22 and 19 with
# the launch held until its await; a program whose launches MLIR gets
# right agrees under both schedules (a launch inside a launch: the sync
# run awaits each token once)
a=$S/cases/mlir/async-host-write-while-launch-reads.yaml
expect 1 "$B" native --allow-exec "$a"
has "native outputs (mlir-opt-22, One-Shot Bufferize; launches late (each launch held until its first await)):"
has "    differs at element 0: reference 2, native 6"
grep -q "mlir-runner-22 -O0 " "$out" || fail "no -O0 for the coroutines"
# (quick code generation in a native run's command, not in a lit test's)
grep -q -- "-entry-point-result=void --regalloc=fast --optimize-regalloc=false --enable-misched=false --enable-post-misched=false --disable-lsr --fast-isel -shared-libs=" "$out" ||
	fail "no quick code generation in the command"
grep -q -- "--regalloc" up.mlir && fail "quick code generation in upstream's RUN line"
expect 1 "$B" native --allow-exec "$a" --out async.mlir
grep -q "async.runtime.set_available" async.mlir || fail "no gate in the program"
expect 1 "$B" run --allow-exec "$a" --strategy mlir:mlir-opt-22 --confirm --json
field runs.0.native.verdict confirmed
field runs.0.native.schedule late
python3 "$S/tests/schema.py" "$S/docs/report.schema.json" "$out"
v=$?
[ $v = 0 ] || [ $v = 77 ] || fail "the JSON does not match docs/report.schema.json"
if command -v mlir-opt-19 >/dev/null &&
   ls /usr/local/lib/bufdiff/llvm-19/lib/libmlir_async_runtime.so* >/dev/null 2>&1; then
	expect 1 "$B" run --allow-exec "$a" --strategy mlir:mlir-opt-19 --confirm
	has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 2, native 6; launches late (each launch held until its first await)"
fi
expect 0 "$B" native --allow-exec "$S/cases/fuzz/one-shot-14202609370152969782.yaml" --tool-timeout 30
has "native outputs (mlir-opt-22, One-Shot Bufferize; launches sync (each launch awaited where it is made)):"
has "native: agree"
# a run pinned to one schedule is judged natively under that one (the
# late race of external/mlir/async-race is no `missed` of its sync run);
# a carried future's race across trips cannot show natively: said so
expect 0 "$B" run --allow-exec "$S/cases/external/mlir/async-race.yaml" --confirm
has "  native: confirmed: MLIR's own output differs too; output 0 element 0: reference 2, native 4; launches late (each launch held until its first await)"
has "  native: agree: MLIR's own output agrees with the reference; launches sync (each launch awaited where it is made)"
expect 1 "$B" run --allow-exec "$S/cases/mlir/async-carried-launch-reads-element.yaml" --strategy mlir:mlir-opt-22 --confirm
contains "; carried launches awaited where carried (a race across trips cannot show natively)"
expect 0 "$B" native --allow-exec "$S/cases/async/await-twice-in-launch.yaml" --tool-timeout 30
has "native: agree"
# a future carried by a loop: awaited where it is carried, its values in
# memrefs, a token alone as an i1
expect 0 "$B" native --allow-exec "$S/cases/mlir/async-prefetch-loop.yaml" --tool-timeout 30
has "native: agree"
expect 0 "$B" native --allow-exec "$S/cases/async/carried-token-and-swap.yaml" --tool-timeout 30
has "native: agree"

# --confirm on fuzz: every program judged natively, counted in the summary;
# seed 5041 is a cf miscompile MLIR's own code shows (a confirmed bucket)
expect 1 "$B" fuzz --strategy mlir:mlir-opt-22 --confirm --seed 5041 --count 1 --no-reduce --out fz --quiet
has "native (MLIR's own code run natively): 1 confirmed, 0 latent, 0 missed, 0 agree, 0 failed"
grep -qF "; native confirmed" "$out" || fail "no native verdict in the bucket"
rm -rf fz

# docs/upstream: one reproducer per MLIR bug, regenerated and compared
for f in "$S"/docs/upstream/*.mlir; do
	n=$(basename "$f" .mlir)
	c=$S/cases/mlir/$n.yaml
	[ -f "$c" ] || c=$S/cases/${n/-//}.yaml
	expect 0 "$B" upstream --allow-exec "$c" --out up.mlir
	cmp -s up.mlir "$f" || { diff up.mlir "$f"; fail "docs/upstream/$n.mlir is stale"; }
done

# bad input: a case that does not load
printf 'case: x\nprogram: |\n  func @main() {\n    %%a = nope\n  }\n' > bad.yaml
expect 2 "$B" native --allow-exec bad.yaml
grep -q "bad.yaml:4:" "$err" || fail "no located error"
echo "native: ok"
