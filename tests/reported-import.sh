#!/bin/bash
# reported-import.sh BUFDIFF DIR: every NAME.mlir beside a case NAME.yaml in
# DIR imports (bufdiff import, through the newest mlir-opt installed) into
# the same program: the case's own program, run on the inputs import drew,
# must give the outputs the imported program gave (bufdiff check), and its
# ops must be the same ops in the same order (constants aside).  The
# imported text itself differs in spelling: mlir-opt numbers values (%x is
# %arg0) and a literal is an arith.constant of its own.  Exit 77 (ctest
# skip) when no mlir-opt is installed.
set -u
bufdiff=$1 dir=$2
command -v mlir-opt-22 >/dev/null || command -v mlir-opt-19 >/dev/null ||
	command -v mlir-opt-16 >/dev/null || { echo "SKIP: no mlir-opt"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the parameter names of @main in a program text on stdin, one per line
params() {
	perl -ne 'if (/func \@main\((.*)\)\s*->/) { my $s = $1; print "$_\n" for $s =~ /%([A-Za-z0-9_.\$-]+):/g; exit }'
}
# the op names of a program text on stdin, in order, without constants (an
# imported literal is an op of its own)
opnames() {
	perl -ne 'print "$2\n" if /^\s*(%[^=]*=\s*)?([a-z_.]+)/ && $2 ne "const"'
}
n=0 bad=0
for m in "$dir"/*.mlir; do
	y=${m%.mlir}.yaml
	[ -f "$y" ] || continue
	n=$((n + 1))
	if ! "$bufdiff" import "$m" --seed 7 --out "$tmp/imp.yaml" 2>"$tmp/err"; then
		echo "FAIL: import $m: $(head -1 "$tmp/err")"
		bad=$((bad + 1))
		continue
	fi
	if ! cmp -s <("$bufdiff" print "$y" | opnames) \
		    <("$bufdiff" print "$tmp/imp.yaml" | opnames); then
		echo "FAIL: $m does not have the ops of $y:"
		diff <("$bufdiff" print "$y" | opnames) \
		     <("$bufdiff" print "$tmp/imp.yaml" | opnames) | head -5
		bad=$((bad + 1))
		continue
	fi
	mapfile -t mine < <("$bufdiff" print "$y" | params)
	mapfile -t theirs < <("$bufdiff" print "$tmp/imp.yaml" | params)
	if [ ${#mine[@]} -ne ${#theirs[@]} ]; then
		echo "FAIL: $m: @main has ${#theirs[@]} params, the case ${#mine[@]}"
		bad=$((bad + 1))
		continue
	fi
	# the case's program + the imported inputs (renamed) and outputs
	export THEIRS="${theirs[*]}" MINE="${mine[*]}"
	{
		echo "case: reported-import"
		awk '/^program:/ {p = 1; print; next} p && /^[^ ]/ {p = 0} p' "$y"
		awk '/^inputs:/ {p = 1} p' "$tmp/imp.yaml" | perl -pe '
			BEGIN { @t = split / /, $ENV{THEIRS}; @m = split / /, $ENV{MINE};
				%r = map { $t[$_] => $m[$_] } 0..$#t }
			s/^  ([A-Za-z0-9_.\$-]+):/"  " . ($r{$1} \/\/ $1) . ":"/e'
	} > "$tmp/same.yaml"
	if ! out=$("$bufdiff" check "$tmp/same.yaml" 2>&1); then
		echo "FAIL: $m is not the program of $y:"
		echo "$out" | head -5
		bad=$((bad + 1))
	fi
done
echo "$n MLIR files imported, $bad not the same program"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
