#!/usr/bin/env bash
# Numbers chosen to overflow (issue 24): a dimension past the limit, and
# fuzz summaries whose counts add up beyond a long (release printed
# "-2 programs", UBSan a signed overflow).  Each is one located error.
B=$1 S=$2
. "$S/tests/expect.sh"
cat >huge.yaml <<'YAML'
case: huge
program: |
  func @main(%a: tensor<0x4611686018427387904xf32>) -> tensor<0x4611686018427387904xf32> {
    return %a
  }
inputs: {a: []}
YAML
expect 2 "$B" run huge.yaml
has "huge.yaml:3:27: error: tensor dimension '4611686018427387904' too large (at most 2147483647)"
sum='"failures": 0, "skipped": 0, "tool_errors": 0, "tool_calls": 0, "tool_seconds": 0, "seconds": 1, "programs_per_s": 1, "repros": [], "buckets": []'
{
	echo "{\"programs\": 9223372036854775807, $sum}"
	echo "{\"programs\": 1, $sum}"
} >m.json
expect 2 "$B" fuzz --merge m.json
has "m.json:2:1: error: the summaries' counts add up beyond what bufdiff counts: programs"
echo "{\"programs\": -1, $sum}" >neg.json
expect 2 "$B" fuzz --merge neg.json
echo "numbers: ok"
