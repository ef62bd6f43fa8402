#!/bin/bash
# mlir-import.sh BUFDIFF CASES N: the round trip export -> import through
# mlir-opt-N for every case under CASES whose program loads: the canonical
# TIR of the imported case (bufdiff print) must be the case's own, value
# names compared by their order of first appearance (mlir-opt numbers
# values: %x comes back as %arg0).  Exit 77 (ctest skip) when mlir-opt-N
# is not installed.  MIN_EXACT and MAX_FAILED pin the figures of
# docs/import.md (the known differences are listed there).
set -u
bufdiff=$1 cases=$2 n=$3 min_exact=$4 max_failed=$5
tool=mlir-opt-$n
if ! command -v "$tool" >/dev/null; then
	echo "SKIP: $tool not installed"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the CLI: exit 2 and one diagnostic at the user's line
expect2() {
	local want=$1
	shift
	out=$("$bufdiff" "$@" 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "$want" <<<"$out"; then
		echo "FAIL: bufdiff $* exited $rc, want 2 and '$want':"
		echo "$out"
		exit 1
	fi
}
printf '%s\n' 'func.func @main(%a: tensor<4xf32>) -> tensor<6xf32> {' \
	'  %c = arith.constant 0.0 : f32' \
	'  %p = tensor.pad %a low[1] high[1] {' '  ^bb0(%i: index):' \
	'    tensor.yield %c : f32' '  } : tensor<4xf32> to tensor<6xf32>' \
	'  return %p : tensor<6xf32>' '}' >"$tmp/pad.mlir"
expect2 "pad.mlir:3:8: error: unsupported op 'tensor.pad'" import "$tmp/pad.mlir" --tool "$tool"
printf '%s\n' 'func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {' \
	'  %b = arith.addf %a, %zz : tensor<4xf32>' '  return %b : tensor<4xf32>' '}' >"$tmp/bad.mlir"
expect2 "bad.mlir:2:23: error: use of undeclared SSA value name" import "$tmp/bad.mlir" --tool "$tool"
printf '%s\n' 'func.func @main(%a: memref<4xf32>) {' '  return' '}' >"$tmp/mem.mlir"
expect2 "mem.mlir:1:17: error: unsupported type 'memref<4xf32>'" import "$tmp/mem.mlir" --tool "$tool"
expect2 "pad.mlir:1:1: error: expected an operation" import "$tmp/pad.mlir" --no-tool
expect2 "bufdiff import: cannot open $tmp/none.mlir: No such file or directory" import "$tmp/none.mlir"
expect2 "unknown strategy 'x'" import "$tmp/pad.mlir" --strategy x
expect2 "option '--plan' is not valid here" import "$tmp/pad.mlir" --plan x
# a function without results imports into a case that runs (outputs: [])
printf '%s\n' 'func.func @main(%t: tensor<4xf32>, %i: index) {' \
	'  %e = tensor.extract %t[%i] : tensor<4xf32>' '  vector.print %e : f32' \
	'  return' '}' >"$tmp/nores.mlir"
"$bufdiff" import "$tmp/nores.mlir" --tool "$tool" --out "$tmp/nores.yaml"
# several FILEs: --out DIR/, each file's case (or sections) DIR/STEM[-N].yaml
expect2 "several FILEs want --out DIR" import "$tmp/nores.mlir" "$tmp/pad.mlir"
expect2 "$tmp/d/nores.yaml is written already (by $tmp/nores.mlir)" \
	import "$tmp/nores.mlir" "$tmp/pad.mlir" "$tmp/nores.mlir" --tool "$tool" --out "$tmp/d/"
# (a stem made a file name that stays in DIR)
cp "$tmp/nores.mlir" "$tmp/n o\$.mlir"
"$bufdiff" import "$tmp/n o\$.mlir" --tool "$tool" --out "$tmp/d2/" ||
	{ echo "FAIL: import of 'n o\$.mlir' --out DIR/"; exit 1; }
[ -s "$tmp/d2/n_o_.yaml" ] || { echo "FAIL: no d2/n_o_.yaml:"; ls "$tmp/d2"; exit 1; }
if ! cmp -s "$tmp/nores.yaml" "$tmp/d/nores.yaml" || [ -e "$tmp/d/pad.yaml" ]; then
	echo "FAIL: import --out DIR/ wrote other cases than one at a time:"
	ls -l "$tmp/d"
	exit 1
fi
if ! out=$("$bufdiff" run "$tmp/nores.yaml" --strategy one-shot 2>&1); then
	echo "FAIL: the case of a function without results does not run:"
	echo "$out"
	exit 1
fi
# a function of several blocks (cf.cond_br, cf.br, a block argument)
# imports into a case with TIR blocks that runs: the write in ^bb1 and the
# read of %t after the join (value semantics: 100 + t[0] when %c)
printf '%s\n' 'func.func @main(%t: tensor<2xi32>, %c: i1) -> i32 {' \
	'  cf.cond_br %c, ^write, ^join(%t : tensor<2xi32>)' '^write:' \
	'  %v = arith.constant 100 : i32' '  %i = arith.constant 0 : index' \
	'  %r = tensor.insert %v into %t[%i] : tensor<2xi32>' \
	'  cf.br ^join(%r : tensor<2xi32>)' '^join(%a: tensor<2xi32>):' \
	'  %j = arith.constant 0 : index' '  %x = tensor.extract %a[%j] : tensor<2xi32>' \
	'  %e = tensor.extract %t[%j] : tensor<2xi32>' '  %s = arith.addi %x, %e : i32' \
	'  return %s : i32' '}' >"$tmp/cf.mlir"
"$bufdiff" import "$tmp/cf.mlir" --tool "$tool" --seed 3 --out "$tmp/cf.yaml"
# --max-work bounds the reference run: past it, no expect.outputs, a warning
"$bufdiff" import "$tmp/cf.mlir" --tool "$tool" --seed 3 --max-work 1 --out "$tmp/mw.yaml" 2>"$tmp/mw.err"
if ! grep -q "warning: the reference fails on the imported program with these inputs (no expect.outputs): work limit of 1 reached" "$tmp/mw.err" ||
   grep -q "^expect:" "$tmp/mw.yaml" || ! grep -q "^expect:" "$tmp/cf.yaml"; then
	echo "FAIL: import --max-work 1:"
	cat "$tmp/mw.err" "$tmp/mw.yaml"
	exit 1
fi
# (the user's names, and each op's place in cf.mlir)
for want in '    cond_br %c, ^bb1, ^bb2(%t)  // loc(2:3)' '  ^bb2(%a: tensor<2xi32>):' \
	'    br ^bb2(%r)  // loc(7:3)' 'source: "'"$tmp/cf.mlir"'"'; do
	if ! grep -qxF -- "$want" "$tmp/cf.yaml"; then
		echo "FAIL: the imported blocks lack '$want':"
		cat "$tmp/cf.yaml"
		exit 1
	fi
done
if ! out=$("$bufdiff" run "$tmp/cf.yaml" --strategy one-shot 2>&1); then
	echo "FAIL: the case of a function of several blocks does not run:"
	echo "$out"
	exit 1
fi
printf '%s\n' 'func.func @main(%t: tensor<2xi32>, %i: i32) -> tensor<2xi32> {' \
	'  cf.switch %i : i32, [' '    default: ^a(%t : tensor<2xi32>)' '  ]' \
	'^a(%x: tensor<2xi32>):' '  return %x : tensor<2xi32>' '}' >"$tmp/sw.mlir"
expect2 "sw.mlir:2:3: error: unsupported op 'cf.switch'" import "$tmp/sw.mlir" --tool "$tool"
# %names -> %v1, %v2 ... and ^labels -> ^b1, ^b2 ... (mlir-opt numbers
# blocks: ^join comes back as ^bb2) in order of first appearance
canon() {
	perl -pe 'BEGIN { our (%m, %l); our ($k, $j) = (0, 0) }
		if (/^func /) { %m = (); %l = (); $k = 0; $j = 0 }
		s/%([A-Za-z0-9_.\$-]+)/"%v" . ($m{$1} \/\/= ++$k)/ge;
		s/\^([A-Za-z0-9_.\$-]+)/"^b" . ($l{$1} \/\/= ++$j)/ge;
		s/\b(\d+)\.0\b/$1/g'
}
# the generic form without a tool gives the same case, but for the names
# (the tool's run reads the user's `%x` at each block argument's place in
# the custom form; the generic form has only `%arg0`)
seed=$cases/seed/old-input-still-needed.yaml
"$bufdiff" export "$seed" --mlir-version "$n" --out "$tmp/s.mlir"
"$tool" "$tmp/s.mlir" --mlir-print-op-generic --mlir-print-debuginfo \
	--mlir-print-local-scope >"$tmp/g.mlir"
"$bufdiff" import "$tmp/g.mlir" --no-tool --seed 5 --out "$tmp/g.yaml"
"$bufdiff" import "$tmp/s.mlir" --tool "$tool" --seed 5 --out "$tmp/s.yaml"
if ! cmp -s <("$bufdiff" print "$tmp/g.yaml" | canon) <("$bufdiff" print "$tmp/s.yaml" | canon) ||
   ! cmp -s <(sed -n '/^expect:/,$p' "$tmp/g.yaml") <(sed -n '/^expect:/,$p' "$tmp/s.yaml"); then
	echo "FAIL: --no-tool on the generic form differs:"
	diff "$tmp/g.yaml" "$tmp/s.yaml"
	exit 1
fi
same=0 differ=0 failed=0
# every case that exports, in one bufdiff call: TMP/all.mlir, a section
# each (and TMP/K.mlir alone)
. "$(dirname "$0")/export-all.sh"
export_all "$bufdiff" "$cases" "$n" "$tmp"
total=${#files[@]}
# The generic form of every program from one mlir-opt call (sections of a
# -split-input-file, on stdout: -o keeps nothing when a section fails),
# each section imported without the tool (the same case but for the
# names, shown above); a section the call did not print is imported alone
# through the tool, which says why.
timeout 600 "$tool" --split-input-file "$tmp/all.mlir" --mlir-print-op-generic \
	--mlir-print-debuginfo --mlir-print-local-scope >"$tmp/generic.mlir" 2>/dev/null
mapfile -t printed < <(awk -v n="$total" 'BEGIN { s = 1 }
	/^\/\/ -----$/ { s++; next }
	NF { full[s] = 1 }
	END { for (i = 1; i <= n; i++) print full[i] ? 1 : 0 }' "$tmp/generic.mlir")
# each case imported into its own file (the printed sections by one
# `bufdiff import ... --out DIR/`, the rest alone through the tool), then
# every original and every import printed by one `bufdiff print` each (a
# process per case costs the sanitizer builds a start-up each), compared
# section by section
orig=() back=() names=() batch=()
for ((k = 0; k < total; k++)); do
	[ "${printed[$k]}" = 1 ] && batch+=("$tmp/generic.mlir#$((k + 1))")
done
if [ ${#batch[@]} -gt 0 ]; then
	# (only the programs are compared: a reference run that would take
	# seconds, cases/errors/cfg-trip-limit without its trips limit, stops
	# at a work limit and leaves the case without expect.outputs)
	"$bufdiff" import "${batch[@]}" --no-tool --max-work 1000000 \
		--out "$tmp/x/" 2>"$tmp/batch.err"
fi
for ((k = 0; k < total; k++)); do
	f=${files[$k]}
	x=$tmp/x/generic-$((k + 1)).yaml
	if [ "${printed[$k]}" = 1 ]; then
		if [ ! -s "$x" ]; then
			echo "IMPORT FAILED $f: $(grep -m1 -F "generic.mlir#$((k + 1))" "$tmp/batch.err")"
			failed=$((failed + 1))
			continue
		fi
	elif ! "$bufdiff" import "$tmp/$k.mlir" --tool "$tool" --out "$x" 2>"$tmp/err"; then
		echo "IMPORT FAILED $f: $(head -1 "$tmp/err")"
		failed=$((failed + 1))
		continue
	fi
	orig+=("$f") back+=("$x")
done
# sections of `print CASE...`, canonical, one file each: DIR/1, DIR/2, ...
sections() {
	mkdir -p "$2"
	canon <"$1" | awk -v d="$2" '/^\/\/ ----- / { k++; next } { print > (d "/" k) }'
}
if [ ${#orig[@]} -gt 0 ]; then
	"$bufdiff" print "${orig[@]}" >"$tmp/a.txt"
	"$bufdiff" print "${back[@]}" >"$tmp/b.txt"
	[ ${#orig[@]} -eq 1 ] && { sed -i '1i // ----- one' "$tmp/a.txt" "$tmp/b.txt"; }
	sections "$tmp/a.txt" "$tmp/a" && sections "$tmp/b.txt" "$tmp/b"
fi
for ((i = 0; i < ${#orig[@]}; i++)); do
	if cmp -s "$tmp/a/$((i + 1))" "$tmp/b/$((i + 1))"; then
		same=$((same + 1))
	else
		echo "DIFFERS ${orig[$i]}:"
		diff "$tmp/a/$((i + 1))" "$tmp/b/$((i + 1))" | head -6
		differ=$((differ + 1))
	fi
done
echo "$tool: $total exported, $same round trips exact, $differ differ, $failed import failures"
[ "$same" -ge "$min_exact" ] && [ "$failed" -le "$max_failed" ]
