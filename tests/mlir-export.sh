#!/bin/bash
# mlir-export.sh BUFDIFF CASES N: export every case under CASES that loads
# (cases/errors/ holds bad programs: a case whose program does not parse
# and verify is skipped) for mlir-opt-N, which must parse and verify each one; then run
# One-Shot Bufferize's analysis on it and count.  Analysis failures are
# allowed (async is not bufferizable) and listed with their first error
# line; a parse failure or an export error fails the test.  Exit 77 (ctest
# skip) when mlir-opt-N is not installed.
set -u
bufdiff=$1 cases=$2 n=$3
tool=mlir-opt-$n
# the CLI: exit 2 and the error line for usage and bad programs
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
seed=$cases/seed/old-input-still-needed.yaml
expect2 "unknown MLIR version '17' (16, 19 or 22)" export "$seed" --mlir-version 17
expect2 "export needs at least one CASE" export
expect2 "use-before-def.yaml:5:14: error: use of %b before its definition" \
	export "$cases/errors/use-before-def.yaml"
# several cases: a section each; one that does not load has its error
# and no section, the others are written
expect2 "use-before-def.yaml:5:14: error: use of %b before its definition" \
	export "$seed" "$cases/errors/use-before-def.yaml" "$seed"
if [ "$("$bufdiff" export "$seed" "$cases/errors/use-before-def.yaml" "$seed" 2>/dev/null |
	grep -c -e '^// -----$' -e "^// bufdiff export: $seed\$")" != 3 ]; then
	echo "FAIL: export of three cases, one bad, is not two sections"
	exit 1
fi
expect2 "option '--strategy' is not valid here" export "$seed" --strategy copy-all
if ! command -v "$tool" >/dev/null; then
	echo "SKIP: $tool not installed"
	exit 77
fi
case $n in
16) opts="allow-return-allocs" ;;
*) opts="allow-return-allocs-from-loops" ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
analysis="--one-shot-bufferize=bufferize-function-boundaries test-analysis-only $opts"
parsed=0 ok=0 failed=0 bad=0
. "$(dirname "$0")/export-all.sh"
export_all "$bufdiff" "$cases" "$n" "$tmp"
exported=${#files[@]} skipped=$export_skipped
for e in "${export_bad[@]}"; do
	echo "EXPORT FAILED $e"
	bad=$((bad + 1))
done
# Every program in one mlir-opt call per question (split_ask): a section
# the call printed nothing for failed, and only those are asked again
# alone, for the verdict and the message.
# mlir-opt runs as bufdiff runs it (oracle/mlir/tool.c llvm_environ)
unwind_so=$(dirname "$bufdiff")/bufdiff_unwind.so
pre=(env LLVM_DISABLE_SYMBOLIZATION=1)
[ -f "$unwind_so" ] && pre+=("LD_PRELOAD=$unwind_so")
split_ask "$tool" "$exported" "$tmp"
parse_ok=("${asked[@]}")
split_ask "$tool" "$exported" "$tmp" "$analysis"
analysis_ok=("${asked[@]}")
for ((k = 0; k < exported; k++)); do
	f=${files[$k]}
	if [ "${parse_ok[$k]}" != 1 ] &&
	   ! timeout 60 "${pre[@]}" "$tool" "$tmp/$k.mlir" -o /dev/null 2>"$tmp/err"; then
		echo "PARSE FAILED $f: $(grep -m1 error "$tmp/err")"
		bad=$((bad + 1))
		continue
	fi
	parsed=$((parsed + 1))
	if [ "${analysis_ok[$k]}" = 1 ]; then
		ok=$((ok + 1))
		continue
	fi
	# (bash's "Segmentation fault" line for a crash goes to /dev/null too)
	{ timeout 60 "${pre[@]}" "$tool" "$tmp/$k.mlir" -o /dev/null "$analysis" 2>"$tmp/err"; } 2>/dev/null
	rc=$?
	if [ $rc -eq 0 ]; then
		ok=$((ok + 1))
	elif [ $rc -ge 124 ]; then
		failed=$((failed + 1))
		echo "analysis crashed $f (exit $rc): $(grep -m1 -i -e error -e 'stack dump' "$tmp/err")"
	else
		failed=$((failed + 1))
		echo "analysis failed $f: $(grep -m1 error "$tmp/err" | sed "s|$tmp/$k.mlir|x.mlir|")"
	fi
done
echo "$tool: $exported exported ($skipped not loadable, skipped), $parsed parsed, analysis ok $ok, analysis failed $failed, broken $bad"
[ "$bad" -eq 0 ]
