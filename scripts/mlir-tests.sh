#!/bin/bash
# mlir-tests.sh DIR [TOOL]: bufdiff against MLIR's own One-Shot Bufferize
# analysis tests (docs/import.md).  DIR holds their .mlir files (kept out
# of the repo).  For every function of every `// -----` split: import it
# (counting what is outside the subset, by reason), run the `mlir`
# strategy on the case (TOOL, default mlir-opt-22: its decisions on our
# re-export executed as a plan under the oracle), and compare those
# decisions with the ones TOOL makes on the original function under the
# test's own RUN options (what its CHECK lines annotate): the same
# __inplace_operands_attr__ per op, in order, means the test's expected
# decisions were the plan run; a difference is listed for explanation.
set -u
dir=$1 tool=${2:-mlir-opt-22}
here=$(cd "$(dirname "$0")/.." && pwd)
bufdiff=${BUFDIFF:-$here/build/bufdiff}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts="bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops"
# the decisions of an analysed module, one "op [attrs]" per line, in order
decisions() {
	grep '__inplace_operands_attr__' "$1" |
		sed -E 's/^ *(%[^=]*= )?("([a-z_.]+)"|\}\)).*__inplace_operands_attr__ = (\[[^]]*\]).*/\3 \4/' |
		grep -v '^func.return\|^scf.yield\|^async.yield'
}
funcs=0 imported=0 agree=0 other=0 same=0 differ=0
: >"$tmp/reasons"
for f in "$dir"/*.mlir; do
	# the test's own analysis options, from its first RUN line
	topts=$(grep -m1 -o 'one-shot-bufferize="[^"]*"' "$f" | sed 's/^one-shot-bufferize="//; s/"$//')
	topts=$(sed -E "s/allow-return-allocs( |$)/allow-return-allocs-from-loops\1/" <<<"$topts")
	awk -v out="$tmp/split" 'BEGIN { n = 0; f = out "-0.mlir" }
		/^\/\/ -----/ { n++; f = out "-" n ".mlir"; next }
		{ print > f }' "$f"
	for s in "$tmp"/split-*.mlir; do
		for fn in $(grep -o 'func.func @[A-Za-z0-9_.$-]*(' "$s" | sed 's/func.func @//; s/($//'); do
			grep -q "func.func private @$fn\b" "$s" && continue
			funcs=$((funcs + 1))
			label="$(basename "$f" .mlir):$fn"
			if ! "$bufdiff" import "$s" --func "$fn" --tool "$tool" --out "$tmp/c.yaml" 2>"$tmp/err"; then
				r=$(grep -m1 -o 'error: .*' "$tmp/err" | sed -E "s/^error: //; s/ \(program line [0-9]+\)//; s/ '%[^']*'//g")
				echo "$r" >>"$tmp/reasons"
				echo "OUTSIDE $label: $r"
				continue
			fi
			imported=$((imported + 1))
			v=$("$bufdiff" run "$tmp/c.yaml" --strategy "mlir:$tool" 2>&1 | grep -m1 -o 'run 1: .*')
			case $v in
			*": agree"*) agree=$((agree + 1)) ;;
			*) other=$((other + 1)) ;;
			esac
			# the test's decisions (the original) against those run
			"$tool" "$s" --one-shot-bufferize="$topts" --mlir-print-op-generic \
				--allow-unregistered-dialect 2>/dev/null | awk -v fn="\"$fn\"" 'index($0, "sym_name = " fn) { p = 1 } p' >"$tmp/orig.txt"
			"$bufdiff" export "$tmp/c.yaml" --out "$tmp/x.mlir" 2>/dev/null
			"$tool" "$tmp/x.mlir" --one-shot-bufferize="$opts" --mlir-print-op-generic \
				>"$tmp/ours.txt" 2>/dev/null
			if cmp -s <(decisions "$tmp/orig.txt" | head -n "$(decisions "$tmp/ours.txt" | wc -l)") \
				  <(decisions "$tmp/ours.txt"); then
				same=$((same + 1))
				echo "IMPORTED $label: $v; decisions as in the test"
			else
				differ=$((differ + 1))
				echo "IMPORTED $label: $v; decisions differ:"
				diff <(decisions "$tmp/orig.txt") <(decisions "$tmp/ours.txt") | head -6
			fi
		done
	done
	rm -f "$tmp"/split-*.mlir
done
echo "functions $funcs, imported $imported, agree $agree, other verdicts $other," \
	"decisions as in the test $same, differ $differ"
echo "outside the subset, by reason:"
sed -E "s/'[^']*'//2g" "$tmp/reasons" | sort | uniq -c | sort -rn
