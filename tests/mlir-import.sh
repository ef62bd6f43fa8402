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
# %names -> %v1, %v2 ... in order of first appearance
canon() {
	perl -pe 'BEGIN { our %m; our $k = 0 } if (/^func /) { %m = (); $k = 0 }
		s/%([A-Za-z0-9_.\$-]+)/"%v" . ($m{$1} \/\/= ++$k)/ge; s/\b(\d+)\.0\b/$1/g'
}
total=0 same=0 differ=0 failed=0
while IFS= read -r f; do
	"$bufdiff" export "$f" --mlir-version "$n" --out "$tmp/x.mlir" 2>/dev/null || continue
	total=$((total + 1))
	if ! "$bufdiff" import "$tmp/x.mlir" --tool "$tool" --out "$tmp/x.yaml" 2>"$tmp/err"; then
		echo "IMPORT FAILED $f: $(head -1 "$tmp/err")"
		failed=$((failed + 1))
		continue
	fi
	"$bufdiff" print "$f" | canon >"$tmp/a"
	"$bufdiff" print "$tmp/x.yaml" | canon >"$tmp/b"
	if cmp -s "$tmp/a" "$tmp/b"; then
		same=$((same + 1))
	else
		echo "DIFFERS $f:"
		diff "$tmp/a" "$tmp/b" | head -6
		differ=$((differ + 1))
	fi
done < <(find "$cases" -name '*.yaml' | sort)
echo "$tool: $total exported, $same round trips exact, $differ differ, $failed import failures"
[ "$same" -ge "$min_exact" ] && [ "$failed" -le "$max_failed" ]
