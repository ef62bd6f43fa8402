#!/bin/bash
# mlir-tests.sh DIR [TOOL]: bufdiff against MLIR's own One-Shot Bufferize
# analysis tests (docs/import.md).  DIR holds their .mlir files (kept out
# of the repo).  For every function of every `// -----` split: import it
# (counting what is outside the subset, by reason), run the `mlir`
# strategy on the case (TOOL, default mlir-opt-22: its decisions on our
# re-export executed as a plan under the oracle), and compare those
# decisions with the ones TOOL makes on the original function under the
# test's own analysis RUN line (what its CHECK lines annotate): the same
# __inplace_operands_attr__ per op, in order, over the functions the case
# holds (the entry and what it calls), means the test's expected decisions
# were the plan run; a difference is listed for explanation.
set -u
dir=$1 tool=${2:-mlir-opt-22}
here=$(cd "$(dirname "$0")/.." && pwd)
bufdiff=${BUFDIFF:-$here/build/bufdiff}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts="bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops"
# the decisions of an analysed module, one "op [attrs]" per line, in order,
# of the functions named in $tmp/funcs (in the module's order)
decisions() {
	awk -v list="$tmp/funcs" 'BEGIN { while ((getline n < list) > 0) want[n] = 1 }
		/"func\.func"\(\)/ { p = 0
			if (match($0, /sym_name = "[^"]*"/))
				p = (substr($0, RSTART + 12, RLENGTH - 13) in want) }
		p' "$1" |
		grep '__inplace_operands_attr__' |
		sed -E 's/^ *(%[^=]*= )?("([a-z_.]+)"|\}\)).*__inplace_operands_attr__ = (\[[^]]*\]).*/\3 \4/' |
		grep -v '^func.return\|^scf.yield\|^async.yield'
}
# the test's analysis RUN line (continuations joined): the first with
# test-analysis-only that is not a fuzzer or alias-set run
run_line() {
	sed -n 's|^// RUN: *||p' "$1" | awk '{ if (sub(/\\$/, "")) { l = l $0; next }
		print l $0; l = "" }' |
		grep 'test-analysis-only' | grep -v 'fuzzer\|dump-alias-sets' | head -1
}
funcs=0 imported=0 agree=0 diverge=0 fault=0 other=0 same=0 differ=0
: >"$tmp/reasons"
for f in "$dir"/*.mlir; do
	base=$(basename "$f" .mlir)
	rl=$(run_line "$f")
	# its One-Shot options (16's allow-return-allocs spelled as 19/22's)
	# and the passes before it (e.g. -eliminate-empty-tensors)
	topts=$(grep -o 'one-shot-bufferize="[^"]*"' <<<"$rl" | sed 's/^one-shot-bufferize="//; s/"$//')
	topts=$(sed -E "s/allow-return-allocs( |$)/allow-return-allocs-from-loops\1/" <<<"$topts")
	pre=$(sed -E 's/^mlir-opt %s//; s/ -one-shot-bufferize=.*//; s/-(allow-unregistered-dialect|split-input-file)//g' <<<"$rl")
	f0=$funcs i0=$imported a0=$agree s0=$same
	awk -v out="$tmp/split" 'BEGIN { n = 0; f = out "-0.mlir" }
		/^\/\/ -----/ { n++; f = out "-" n ".mlir"; next }
		{ print > f }' "$f"
	for s in "$tmp"/split-*.mlir; do
		for fn in $(grep -o 'func.func @[A-Za-z0-9_.$-]*(' "$s" | sed 's/func.func @//; s/($//'); do
			grep -q "func.func private @$fn\b" "$s" && continue
			funcs=$((funcs + 1))
			label="$base:$fn"
			# seeded random inputs: the first of 8 seeds the reference
			# runs on (an index input may be a zero loop step)
			for seed in 1 2 3 4 5 6 7 8; do
				"$bufdiff" import "$s" --func "$fn" --tool "$tool" --seed $seed \
					--out "$tmp/c.yaml" 2>"$tmp/err" || break
				grep -q 'warning: the reference fails' "$tmp/err" || break
			done
			if grep -q 'error:' "$tmp/err"; then
				r=$(grep -m1 -o 'error: .*' "$tmp/err" | sed -E "s/^error: //; s/ \(program line [0-9]+\)//; s/ '%[^']*'//g")
				echo "$r" >>"$tmp/reasons"
				echo "OUTSIDE $label: $r"
				continue
			fi
			imported=$((imported + 1))
			"$bufdiff" run "$tmp/c.yaml" --strategy "mlir:$tool" >"$tmp/run" 2>&1
			v=$(grep -m1 -o 'run 1: .*' "$tmp/run")
			case $v in
			*": agree"*) agree=$((agree + 1)) ;;
			*": diverge"*) diverge=$((diverge + 1)) ;;
			*": fault"*) fault=$((fault + 1)) ;;
			*)
				other=$((other + 1))
				v="not run: $(grep -m1 -o 'error: .*' "$tmp/run")" ;;
			esac
			# the test's decisions (the original) against those run,
			# over the functions the case holds
			sed -n 's/^ *func @\([^(]*\)(.*/\1/p' "$tmp/c.yaml" >"$tmp/funcs"
			# shellcheck disable=SC2086  # $pre is a list of passes
			"$tool" "$s" $pre --one-shot-bufferize="$topts" --mlir-print-op-generic \
				--allow-unregistered-dialect >"$tmp/orig.txt" 2>/dev/null
			"$bufdiff" export "$tmp/c.yaml" --out "$tmp/x.mlir" 2>/dev/null
			"$tool" "$tmp/x.mlir" --one-shot-bufferize="$opts" --mlir-print-op-generic \
				>"$tmp/ours.txt" 2>/dev/null
			if cmp -s <(decisions "$tmp/orig.txt") <(decisions "$tmp/ours.txt"); then
				same=$((same + 1))
				echo "IMPORTED $label: $v; decisions as in the test"
			else
				differ=$((differ + 1))
				echo "IMPORTED $label: $v; decisions differ:"
				diff <(decisions "$tmp/orig.txt") <(decisions "$tmp/ours.txt") | head -8
			fi
		done
	done
	rm -f "$tmp"/split-*.mlir
	echo "FILE $base: functions $((funcs - f0)), imported $((imported - i0))," \
		"agree $((agree - a0)), decisions as in the test $((same - s0))"
done
echo "functions $funcs, imported $imported, agree $agree, diverge $diverge," \
	"fault $fault, not run or tool-error $other," \
	"decisions as in the test $same, differ $differ"
echo "outside the subset, by reason:"
sed -E "s/'[^']*'//2g" "$tmp/reasons" | sort | uniq -c | sort -rn
