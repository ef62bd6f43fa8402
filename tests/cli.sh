#!/bin/bash
# The command line (oracle/cli/cli.c, docs/cli.md): every bad value is a usage
# error with its exact message and exit 2, nothing on stdout; --opt=value,
# `--`, `-` for stdin, help from the flag table, "did you mean".
# $1: the bufdiff binary, $2: the source tree.
B=$1 S=$2
. "$S/tests/expect.sh"
seed=$S/cases/seed/old-input-still-needed.yaml

# usage CMD MESSAGE args...: exit 2, exactly these two lines on stderr
usage() {
	local cmd=$1 msg=$2
	shift 2
	expect 2 "$B" "$@"
	printf 'bufdiff %s: %s\n(see bufdiff help %s)\n' "$cmd" "$msg" "$cmd" >"$tmp/want"
	cmp -s "$tmp/want" "$err" || fail "stderr of $*: want $(cat "$tmp/want")"
	[ ! -s "$out" ] || fail "stdout of $*"
}

# ---- OpenBLAS is loaded by the first matmul it computes, not by every
# command (interp/blas_lazy.c): not a library bufdiff links, a command
# whose products are all small (at most 512 multiplies: summed by the
# kernels, interp/kernels.c) does not load it, and one past that does
# (LD_DEBUG=files lists what the loader opens)
! ldd "$B" | grep -q openblas || fail "bufdiff links OpenBLAS"
LD_DEBUG=files "$B" run "$seed" >/dev/null 2>"$tmp/ld" || fail "run $seed"
! grep -q "libopenblas" "$tmp/ld" || fail "run without a matmul loaded OpenBLAS"
LD_DEBUG=files "$B" run "$S/cases/ops/matmul-f32.yaml" >/dev/null 2>"$tmp/ld" ||
	fail "run of a small matmul"
! grep -q "libopenblas" "$tmp/ld" || fail "a 2x2x2 matmul loaded OpenBLAS"
LD_DEBUG=files "$B" run "$S/cases/ops/matmul-f32-16x16.yaml" >/dev/null \
	2>"$tmp/ld" || fail "run of a 16x16x16 matmul"
grep -q "libopenblas" "$tmp/ld" || fail "a 16x16x16 matmul did not load OpenBLAS"

# ---- several cases: each header one line, whatever the file's name
nl="$tmp/$(printf 'a\nb').yaml"
cp "$seed" "$nl"
expect 0 "$B" export "$seed" "$nl"
[ "$(grep -c '^// -----$' "$out")" = 1 ] || fail "export: not two sections"
has "// bufdiff export: $tmp/a\nb.yaml"
expect 0 "$B" print "$seed" "$nl"
has "// ----- $tmp/a\nb.yaml"
[ "$(grep -c '^// ----- ' "$out")" = 2 ] || fail "print: not two cases"

# ---- fuzz --count, --time, --seed, --strategy
usage fuzz "--count wants a whole number in 1..1000000000, got '0'" fuzz --strategy one-shot --count 0
usage fuzz "--count wants a whole number in 1..1000000000, got '-5'" fuzz --strategy one-shot --count -5
usage fuzz "--count wants a whole number in 1..1000000000, got '-1'" fuzz --strategy one-shot --count -1
usage fuzz "--count wants a whole number in 1..1000000000, got '4294967298'" fuzz --strategy one-shot --count 4294967298
usage fuzz "--count wants a whole number in 1..1000000000, got '99999999999999999999'" fuzz --strategy one-shot --count 99999999999999999999
usage fuzz "--count wants a whole number in 1..1000000000, got '10x'" fuzz --strategy one-shot --count 10x
usage fuzz "--count and --time exclude each other: give one" fuzz --strategy one-shot --count 10 --time 1
# --out naming a file: refused before the campaign (every repro was lost,
# and the campaign exited as if it had found nothing to keep)
: > notadir
expect 2 "$B" fuzz --strategy mutant-no-call-copy --count 50 --out notadir --quiet
has "bufdiff: cannot write repros into notadir: it is not a directory"
[ ! -s notadir ] || fail "fuzz wrote into the file --out names"
usage fuzz "--time wants seconds in (0, 31536000], got '0'" fuzz --strategy one-shot --time 0
usage fuzz "--time wants seconds in (0, 31536000], got 'inf'" fuzz --strategy one-shot --time inf
usage fuzz "--strategy plan forces a case's plan: a generated program has none, so there is nothing to fuzz" fuzz --strategy plan --count 1
usage fuzz "--strategy S is required" fuzz --count 5
usage fuzz "--seed wants a whole number in 0..18446744073709551615, got '18446744073709551616'" fuzz --strategy one-shot --seed 18446744073709551616
usage fuzz "--seed wants a whole number in 0..18446744073709551615, got '-1'" fuzz --strategy one-shot --seed -1
usage fuzz "--seed wants a whole number in 0..18446744073709551615, got ' 1'" fuzz --strategy one-shot --seed " 1"
usage fuzz "--shard wants I/N with 0 <= I < N <= 2147483647, got '2/2'" fuzz --strategy one-shot --shard 2/2
usage fuzz "--shard wants I/N with 0 <= I < N <= 2147483647, got '0/4294967297'" fuzz --strategy one-shot --shard 0/4294967297
usage fuzz "--shard wants I/N with 0 <= I < N <= 2147483647, got '1/2x'" fuzz --strategy one-shot --shard 1/2x
usage fuzz "--max-ops wants a whole number in 1..100000, got '0'" fuzz --strategy one-shot --max-ops 0
usage fuzz "--tool-batch wants a whole number in 1..4096, got '4097'" fuzz --strategy one-shot --tool-batch 4097
usage fuzz "--mix wants a list of slices, matmul, loops, branches, async, calls, forall, cfg, generate (or a number), got 'bogus'" fuzz --strategy one-shot --mix bogus
usage fuzz "unknown strategy 'one-shto' (did you mean 'one-shot'? see bufdiff strategies)" fuzz --strategy one-shto
usage fuzz "unknown strategy 'xyzzy' (see bufdiff strategies)" fuzz --strategy xyzzy
usage fuzz "unexpected argument 'cases' (FILE... only with --merge)" fuzz --strategy one-shot cases

# ---- --run, --schedules, --schedule
usage bufferize "--run wants a whole number in 1..1000000, got '0'" bufferize "$seed" --run 0
usage bufferize "--run wants a whole number in 1..1000000, got '2147483648'" bufferize "$seed" --run 2147483648
usage explain "--run wants a whole number in 1..1000000, got '4294967298'" explain "$seed" --run 4294967298
usage reduce "--run wants a whole number in 1..1000000, got '-1'" reduce "$seed" --run -1
expect 2 "$B" bufferize "$seed" --run 9
has "$seed: error: the case has 4 runs, no run 9"
usage run "--schedules wants a whole number in 0..64, got '1000'" run "$seed" --schedules 1000
usage run "unknown schedule 'random:99999999999999999999' (random:SEED wants a seed in 0..18446744073709551615)" run "$seed" --schedule random:99999999999999999999
usage run "unknown schedule 'random:-1' (random:SEED wants a seed in 0..18446744073709551615)" run "$seed" --schedule random:-1
usage check "unknown schedule 'snyc' (did you mean 'sync'? sync, late, all or random:SEED)" check "$seed" --schedule snyc
usage run "--alloc-overhead wants a whole number in 0..1099511627776, got '-8'" run "$seed" --alloc-overhead -8
# the same seed in a case file: out of range is an error there too
cat >"$tmp/sched.yaml" <<YAML
case: sched
program: |
  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    return %x
  }
inputs:
  x: [1, 2, 3]
runs:
  - strategy: copy-all
    schedule: random:99999999999999999999
YAML
expect 2 "$B" run "$tmp/sched.yaml"

# ---- options, commands: unknown, misplaced, missing values, positionals
usage run "unknown option '--stratgy' (did you mean '--strategy'?)" run "$seed" --stratgy one-shot
usage run "unknown option '--frobnicate'" run "$seed" --frobnicate
usage run "unknown option '-x'" run "$seed" -x
usage run "option --json takes no value" run "$seed" --json=yes
usage run "option --strategy needs a value" run "$seed" --strategy
usage run "option '--junit' is not valid here" run "$seed" --junit j.xml
usage export "option '--strategy' is not valid here" export "$seed" --strategy copy-all
usage run "run takes exactly one CASE" run
usage run "run takes exactly one CASE, got 'b' too" run a b
usage check "check needs at least one PATH" check
usage strategies "strategies takes no arguments, got 'x'" strategies x
expect 2 "$B" fuz --strategy one-shot
[ "$(cat "$err")" = "bufdiff: unknown command 'fuz' (did you mean 'fuzz'?)
(see bufdiff --help)" ] || fail "unknown command"
expect 2 "$B" help chek
has "bufdiff: unknown command 'chek' (did you mean 'check'?)"
expect 2 "$B"
has "usage: bufdiff COMMAND [options] [ARGS]"

# ---- what is accepted: --opt=value, --opt value, `--`, `-`
expect 0 "$B" run "$seed" --strategy=copy-all --schedule=sync
has "run 1: copy-all, schedule sync: agree (as expected)"
expect 0 "$B" run --strategy copy-all -- "$seed"
has "run 1: copy-all, schedule sync: agree (as expected)"
expect 0 "$B" fuzz --strategy=copy-all --count=3 --seed=18446744073709551614 --quiet
grep -q '^3 programs, 0 failures (0 tool errors), ' "$out" || fail "fuzz --count=3"
# without blocks (cfg, 128) until copy-all is clean on them with asserts,
# launches and ifs around (docs/fuzz.md)
expect 0 "$B" fuzz --strategy copy-all --time 0.2 --max-ops 3 --quiet
expect 0 "$B" run - --strategy one-shot <"$seed"
has "case seed/old-input-still-needed (-)"
has "run 1: one-shot, schedule sync: agree (as expected)"
expect 0 "$B" check - <"$seed"
has "[ok] -"
printf 'case: bad\nprogram: |\n  func @main() -> i32 {\n    return %%q\n  }\n' >"$tmp/bad.yaml"
expect 2 "$B" print - <"$tmp/bad.yaml"
has "-:4:12: error: undefined value %q"
# several cases: each after `// ----- CASE`; a bad one says so, exit 2,
# the others still print
expect 2 "$B" print "$seed" "$tmp/bad.yaml" "$seed"
[ "$(grep -c '^// ----- ' "$out")" = 3 ] || fail "print: three sections"
[ "$(grep -c '^func @main' "$out")" = 2 ] || fail "print: the two good cases"
has "// ----- $tmp/bad.yaml"
has "$tmp/bad.yaml:4:12: error: undefined value %q"
expect 0 "$B" print "$seed" "$seed"
[ "$(sed -n 1p "$out")" = "// ----- $seed" ] || fail "print: the first section's line"
expect 0 "$B" export - --mlir-version=19 <"$seed"
contains "%_1 = arith.constant 10 : i32 loc(\"-\":5:5)"

# ---- JSON fields per docs/format.md (schema: tests/corpus.sh): a leak has
# no writer and no element; a read by `return` names its op; an access
# whose buffer no decision placed has decision null, never "-"
expect 1 "$B" run "$S/cases/async/failure-pending-launch.yaml" --strategy mutant-failure-leaks --schedule sync --json
fields runs.0.violations.0 'kind="leak"' 'reader={"value": "a", "op": "add", "line": 8}' \
	'victim="a"' writer=null 'decision="a:new"' buffer=1 first_element=null count=1
expect 0 "$B" run "$S/cases/mutants/zero-trip.yaml" --json
fields runs.0.violations.1 'kind="uninitialized-read"' \
	'reader={"value": null, "op": "return", "line": 13}' 'victim="r"' \
	'writer={"value": "r", "op": "for", "line": 8}' 'decision="r:new"' buffer=1 \
	first_element=null count=1
expect 0 "$B" run "$S/cases/async/host-write-while-launch-reads.yaml" --json
fields runs.1.violations.0 'writer={"value": "f", "op": "async", "line": 9}' \
	decision=null buffer=0 first_element=null
expect 0 "$B" run "$S/cases/alias/collapse-view-source-written.yaml" --json
fields runs.0.violations.0 'decision="y:x"' buffer=0 'first_element=[0]' count=1
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(any(v["decision"] == "-" for r in d["runs"] for v in r.get("violations", [])))' "$out" ||
	fail 'a violation with decision "-"'
# -0.0 keeps its sign (as -0 it reads back as the integer 0)
cat >"$tmp/negzero.yaml" <<YAML
case: negzero
program: |
  func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
    %b = neg %a : tensor<3xf32>
    return %b
  }
inputs:
  a: [0.0, -0.0, 1.5]
YAML
expect 0 "$B" run "$tmp/negzero.yaml" --json
fieldj reference '{"outputs": [[-0.0, 0, -1.5]]}'

# ---- --max-memory: a usage error below 2^20; past the limit, one error
# naming it and exit 2 (here the --json report of a 2^18-element output)
usage run "--max-memory wants a whole number in 1048576..70368744177664, got '5'" run "$seed" --max-memory 5
cat >"$tmp/big.yaml" <<'EOF2'
case: cli/json-big
program: |
  func @main(%x: tensor<262144xf32>) -> tensor<262144xf32> {
    %a = add %x, 1.0 : tensor<262144xf32>
    return %a
  }
inputs: {x: {random: 1}}
EOF2
expect 2 "$B" run --json "$tmp/big.yaml" --max-memory 8000000
grep -qx "bufdiff: $tmp/big.yaml: error: memory limit of 8000000 bytes reached (all the process holds: data, tensors, shadows, reports; --max-memory)" "$err" ||
	fail "run --json past --max-memory: $(cat "$err")"

# ---- help: every flag of the command, from the table
expect 0 "$B" help fuzz
has "usage: bufdiff fuzz --strategy S [options]"
for f in strategy json out seed count time shard max-ops mix no-copies no-reduce quiet tool-batch tool-timeout mlir-options mlir-pipeline mlir-version help; do
	grep -q -- "^  .*--$f\b" "$out" || fail "help fuzz lacks --$f"
done
cp "$out" "$tmp/help-fuzz"
expect 0 "$B" fuzz --help
cmp -s "$out" "$tmp/help-fuzz" || fail "fuzz --help differs from help fuzz"
expect 0 "$B" run -h
has "usage: bufdiff run CASE [options]"
hasnt "--junit"
expect 0 "$B" import --help
has "  --no-tool             FILE is in the generic op form already"
expect 0 "$B" --help
for c in run check print bufferize explain fuzz reduce export import strategies help; do
	grep -q "^  $c " "$out" || fail "--help lacks $c"
done
expect 0 "$B" --version
grep -qx "bufdiff [0-9a-z.+-]*" "$out" || fail "--version: $(cat "$out")"
echo "cli: ok"
