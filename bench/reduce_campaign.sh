#!/usr/bin/env bash
# reduce_campaign.sh BUFDIFF STRATEGY SEED COUNT [FUZZ ARGS...]
#
# A fuzz campaign with reduction, judged: for every failure, does its
# reduced repro keep the failure's class (the verdict and the first
# violation's kind, as `bufdiff fuzz` prints it for the original)?  Prints
# one line:
#   STRATEGY: P programs, F failures: R reduced (K same class, C changed
#   class), U unreducible; ops A -> B (mean)
# where "unreducible" is a failure written out whole (the reducer gave up)
# and "changed class" lists its classes `before->after`.  Not a timed test:
# run it by hand (docs/reduce.md has the figures).
set -euo pipefail
bin=$1 strat=$2 seed=$3 count=$4
shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" fuzz --strategy "$strat" --seed "$seed" --count "$count" --out "$dir" "$@" \
	>/dev/null 2>"$dir/log" || true
label=${strat//:/_}
awk -v dir="$dir" -v label="$label" -v strat="$strat" -v count="$count" '
/^seed [0-9]+: (fault|diverge)/ {
	s = $2; sub(":", "", s)
	cls = $3; sub(":", "", cls)
	if ($4 != "" && $4 != "verdict") cls = cls ":" $4 # not "verdict ..., expected agree"
	orig[s] = cls; nf++
}
/^seed [0-9]+: reduced/ { s = $2; sub(":", "", s); red[s] = 1; ob += $4; oa += $6 }
END {
	for (s in orig) {
		if (!(s in red)) { nu++; continue }
		f = dir "/" label "-" s ".yaml"
		v = ""; k = ""
		while ((getline line < f) > 0) {
			# a fuzz repro keeps what it showed in comments (must agree)
			if (v == "" && line ~ /^    (# )?verdict: /) { v = line; sub(/^    (# )?verdict: /, "", v) }
			if (k == "" && line ~ /^    (# )?  - \{kind: /) { k = line; sub(/^    (# )?  - \{kind: /, "", k); sub(/[,}].*/, "", k) }
		}
		close(f)
		cls = v; if (k != "") cls = cls ":" k
		if (cls == orig[s]) ns++
		else { nc++; ch[orig[s] "->" cls]++ }
	}
	printf "%s: %d programs, %d failures: %d reduced (%d same class, %d changed class), %d unreducible; ops %.1f -> %.1f (mean)\n",
	       strat, count, nf, ns + nc, ns, nc, nu, ns + nc ? ob / (ns + nc) : 0, ns + nc ? oa / (ns + nc) : 0
	for (c in ch) printf "  changed %s: %d\n", c, ch[c]
}' "$dir/log"
