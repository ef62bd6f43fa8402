#!/bin/sh
# --plan FILE on run, check and reduce: exit codes and the lines that
# matter, exactly.  $1: the bufdiff binary, $2: the source tree.
B=$1 S=$2
. "$S/tests/expect.sh"

expect 1 "$B" run "$S/cases/plans/anchor-dest-read.yaml" --plan "$S/tests/plans/anchor-wrong.json"
has "SUMMARY: bufdiff: diverge, stale-read in %g at $S/cases/plans/anchor-dest-read.yaml:10:5; culprits anchor e:r"
has "  forced: anchor e:r"
has "  expectation failed: verdict diverge, expected agree"
expect 0 "$B" check "$S/cases/plans" --plan "$S/tests/plans/corpus.yaml"
has "6 passed, 0 failed"
expect 0 "$B" run "$S/cases/plans/hoist-loop-temps.yaml" --plan "$S/tests/plans/corpus.yaml" --json
fieldj runs.0.decisions '["r:new", "t:new", "u:new", "hoist t", "hoist u"]'
expect 2 "$B" check "$S/cases/plans" --plan "$S/tests/plans/unknown-case.yaml"
has "$S/tests/plans/unknown-case.yaml:3:3: error: no case named 'plans/no-such-case' under the checked paths"
expect 2 "$B" run "$S/cases/plans/anchor-dest-read.yaml" --plan "$S/tests/plans/unknown-value.yaml"
has "$S/tests/plans/unknown-value.yaml:1:14: error: unknown value %zz"
expect 2 "$B" run "$S/cases/plans/hoist-loop-temps.yaml" --plan "$S/tests/plans/hoist-inplace.json"
has "$S/tests/plans/hoist-inplace.json:1:34: error: hoist: %t lives in the buffer of %acc, not one of its own"
expect 2 "$B" run "$S/cases/plans/anchor-dest-read.yaml" --plan "$S/tests/plans/corpus.yaml"
has "$S/tests/plans/corpus.yaml: error: no entry for case 'plans/anchor-dest-read' under 'cases'"
expect 2 "$B" run "$S/cases/plans/anchor-dest-read.yaml" --plan /nonexistent.json
expect 0 "$B" reduce "$S/cases/plans/anchor-dest-read.yaml" --plan "$S/tests/plans/anchor-wrong.json"
has "    anchor: {e: r}"
has "    culprits: ['anchor e:r']"
# a run that is illegal (a plan for a scalar) is an error with its
# location, and the other runs' results still come out (issue 12 item 15)
cat >"$tmp/illegal.yaml" <<'EOF'
case: illegal
program: |
  func @main(%x: tensor<3xi32>, %n: index) -> tensor<3xi32> {
    %m = add %n, 1 : index
    %y = add %x, 10 : tensor<3xi32>
    return %y
  }
inputs:
  x: [1, 2, 3]
  n: 1
runs:
  - plan: {m: n}
  - plan: {y: x}
    verdict: agree
EOF
expect 2 "$B" run "$tmp/illegal.yaml"
has "$tmp/illegal.yaml:12:12: error: plan: %m has no buffer of its own to place"
has "run 1: plan, schedule sync: error: 12:12: plan: %m has no buffer of its own to place"
has "run 2: plan, schedule sync: agree (as expected)"
echo ok
