#!/bin/bash
# paths.sh BUFDIFF SRC: one outside answer, every path.  Two flawed
# bufferizers of tests/tools/ (free-in-branch.sh frees in one branch only,
# hoist-from-forall.sh hoists a temporary out of a forall) must give the
# same finding whether their strategy is named by `run --strategy`, in a
# case's `runs:` (run, check), in fuzz (and the repro it writes) or in
# reduce: a run's own empty keys apply over the tool's answer, never in
# place of it (they once dropped every free, hoist, anchor and args of
# it, so fuzz found nothing).
set -u
B=$1 S=$2
T=$S/tests/tools
. "$S/tests/expect.sh"

# summary: the SUMMARY lines of the last command, sorted, deduplicated
summary() { grep '^SUMMARY: ' "$out" | sort -u; }

# same_finding CASE STRATEGY FINDING [RC]: the case's runs: (exit RC,
# default 0: as it expects; 1 for a fuzz repro, which must agree) and
# --strategy (exit 1: it must agree) give the same SUMMARY, which must
# start with FINDING.
same_finding() {
	local c=$1 st=$2 finding=$3 runs
	expect "${4:-0}" "$B" run --allow-exec "$c"
	runs=$(summary)
	case $runs in
	"SUMMARY: bufdiff: $finding"*) ;;
	*) fail "runs: of $c: '$runs', expected '$finding...'" ;;
	esac
	expect 1 "$B" run --allow-exec "$c" --strategy "$st"
	[ "$(summary)" = "$runs" ] || fail "--strategy on $c: '$(summary)', runs: '$runs'"
}

# paths NAME SCRIPT RUN FINDING FUZZ-SIGNATURE KIND FUZZ-ARGS...: the
# case cases/external/exec/NAME.yaml (its tool called by absolute path)
# and a fuzz campaign that fails exactly once, with that bucket (its
# culprit the tool's decision, its violation KIND).
paths() {
	local name=$1 st="exec:sh $T/$2" run=$3 finding=$4 sig=$5 kind=$6 c
	shift 6
	c=$tmp/$name.yaml
	sed "s|exec:sh tests/tools/|exec:sh $T/|" "$S/cases/external/exec/$name.yaml" >"$c"
	# check: the case's runs: state the verdict, the blame, the outputs
	expect 0 "$B" check --allow-exec "$c"
	has "1 passed, 0 failed"
	same_finding "$c" "$st" "$finding in %u at $c:"
	# reduce: smaller, the same finding
	expect 0 "$B" reduce --allow-exec "$c" --run "$run" --out "$tmp/$name-reduced.yaml"
	grep -qxF "  - strategy: \"$st\"" "$tmp/$name-reduced.yaml" || fail "reduced strategy line"
	same_finding "$tmp/$name-reduced.yaml" "$st" "$finding in "
	# fuzz: the finding on a generated program, its repro the same
	expect 1 "$B" fuzz --strategy "$st" "$@" --out "$tmp/$name-fuzz" --json --quiet
	fields '' failures=1 tool_errors=0
	field buckets.0.signature "$sig"
	fieldj buckets.0.violations "{\"$kind\": 1}"
	same_finding "$(python3 "$jfield" "$out" buckets.0.repro)" "$st" "$finding in " 1
}

paths free-in-one-branch free-in-branch.sh 1 "diverge, use-after-free" \
	"lifetime culprit=free" use-after-free --mix branches --seed 6 --count 1
paths hoist-out-of-forall hoist-from-forall.sh 2 "diverge, stale-read" \
	"conflict culprit=hoist" stale-read --mix forall,async --seed 10 --count 5
echo ok
