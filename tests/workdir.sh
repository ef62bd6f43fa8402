#!/bin/bash
# workdir.sh BUFDIFF SRC: a command a case file names runs in the case
# file's directory, or in its run's `workdir:` taken from there (issue 25),
# so `check` finds a case's tools from any directory; the command line
# that reproduces the call says where it ran; a tool-error's [FAIL] line
# says why.  Runs from a scratch directory (expect.sh).
set -u
B=$1 S=$2
. "$S/tests/expect.sh"

# the corpus's outside-tool cases, checked from elsewhere (before: 20
# reasonless tool-errors)
expect 0 "$B" check --allow-exec "$S/cases/external/exec" "$S/cases/external/mlir"
hasnt "[FAIL]"

# a tool next to its case, no workdir: key
mkdir -p "$tmp/corpus/sub"
cat >"$tmp/corpus/sub/tool.sh" <<'TOOL'
cat >/dev/null
pwd >&2
echo '{"plan": {"y": "x"}}'
TOOL
sed -e 's/^case: .*/case: sub\/near/' -e '/^runs:/,$d' "$S/cases/seed/old-input-still-needed.yaml" >"$tmp/corpus/sub/near.yaml"
cat >>"$tmp/corpus/sub/near.yaml" <<'RUNS'
runs:
  - strategy: "exec:sh tool.sh"
    verdict: diverge
RUNS
expect 0 "$B" check --allow-exec "$tmp/corpus"
has "1 passed, 0 failed"
expect 0 "$B" run --allow-exec corpus/sub/near.yaml
has "  command: bufdiff print corpus/sub/near.yaml | sh -c 'cd corpus/sub && sh tool.sh'"
# the printed command reproduces the call from here
bash -c "\"$B\" print corpus/sub/near.yaml | sh -c 'cd corpus/sub && sh tool.sh'" >"$out" 2>"$err" ||
	fail "the printed command does not run"
has '{"plan": {"y": "x"}}'
has "$tmp/corpus/sub"

# workdir: from the case's directory (relative) or absolute
mkdir -p "$tmp/corpus/tools"
mv "$tmp/corpus/sub/tool.sh" "$tmp/corpus/tools/tool.sh"
expect 1 "$B" check --allow-exec "$tmp/corpus"
has "[FAIL] $tmp/corpus/sub/near.yaml: run 1 (exec:sh tool.sh): verdict tool-error (exit 2: sh: 0: cannot open tool.sh: No such file), expected diverge"
sed -i 's|^    verdict: diverge|    workdir: ../tools\n    verdict: diverge|' "$tmp/corpus/sub/near.yaml"
expect 0 "$B" check --allow-exec "$tmp/corpus"
has "1 passed, 0 failed"
sed -i "s|^    workdir: .*|    workdir: $tmp/corpus/tools|" "$tmp/corpus/sub/near.yaml"
expect 0 "$B" check --allow-exec "$tmp/corpus"
has "1 passed, 0 failed"

# a --strategy typed on the command line runs where the user is
cp "$tmp/corpus/tools/tool.sh" "$tmp/tool.sh"
expect 1 "$B" run --allow-exec corpus/sub/near.yaml --strategy "exec:sh tool.sh"
has "  command: bufdiff print corpus/sub/near.yaml | sh tool.sh"

# workdir: on a run without a command is an error at the key
cat >"$tmp/bad.yaml" <<'BAD'
case: bad
program: |
  func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
    return %x
  }
inputs:
  x: [1, 2]
runs:
  - strategy: one-shot
    workdir: tools
BAD
expect 2 "$B" run bad.yaml
has "bad.yaml:10:5: error: workdir: only for a run whose strategy runs a command (exec:CMD, exec-mlir:CMD, mlir:TOOL, mlir-pipeline:TOOL)"
echo ok
