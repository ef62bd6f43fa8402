#!/usr/bin/env bash
# The trust boundary (docs/trust.md): a command or tool a case file names
# runs only under --allow-exec or --trust DIR; every way in is refused
# without them (the file PWNED the command would make never appears), and
# allowed with them.  A strategy on the command line is the user's own.
B=$1 S=$2
. "$S/tests/expect.sh"

# case NAME STRATEGY: a one-run case whose run names STRATEGY (line 10)
mkcase() {
	cat >"$1" <<YAML
case: $(basename "$1" .yaml)
program: |
  func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %b = add %a, %a : tensor<4xf32>
    return %b
  }
inputs: {a: [1, 2, 3, 4]}
expect: {outputs: [[2, 4, 6, 8]]}
runs:
  - strategy: "$2"
YAML
}
mkdir corpus other
cmd="exec:touch $tmp/PWNED; echo {}"
mkcase corpus/exec.yaml "$cmd"
mkcase corpus/exec-mlir.yaml "exec-mlir:touch $tmp/PWNED; echo {}"
mkcase corpus/tool.yaml "mlir:sh -c 'touch $tmp/PWNED'"
mkcase corpus/pipeline.yaml "mlir-pipeline:./mlir-opt-22"
mkcase corpus/native.yaml "mlir-native:/usr/bin/env"
mkcase debian.yaml "mlir:mlir-opt-19"
refused="that the case file names; bufdiff runs a case file's commands only with --allow-exec, or --trust DIR for a directory that holds the file"
pwned() { [ ! -e "$tmp/PWNED" ] || fail "a case file's command ran: $*"; }

# every command that loads a case's runs refuses, at the strategy
for c in run check reduce bufferize explain native upstream; do
	expect 2 "$B" $c corpus/exec.yaml
	pwned "$c"
	has "corpus/exec.yaml:10:15: error: this run would run the command 'touch $tmp/PWNED; echo {}' $refused"
	has "              ^"
done
# also when another strategy was asked for: the case's runs are loaded
expect 2 "$B" run corpus/exec.yaml --strategy copy-all
expect 2 "$B" run corpus/exec-mlir.yaml
has "corpus/exec-mlir.yaml:10:15: error: this run would run the command 'touch $tmp/PWNED; echo {}' $refused"
expect 2 "$B" run corpus/tool.yaml
has "corpus/tool.yaml:10:15: error: this run would run the tool 'sh -c 'touch $tmp/PWNED'' $refused"
expect 2 "$B" run corpus/pipeline.yaml
has "corpus/pipeline.yaml:10:15: error: this run would run the tool './mlir-opt-22' $refused"
expect 2 "$B" run corpus/native.yaml
has "corpus/native.yaml:10:15: error: this run would run the tool '/usr/bin/env' $refused"
# check goes on with the other cases and counts the refused ones
expect 2 "$B" check corpus
pwned check corpus
has "[FAIL] corpus/exec.yaml: 10:15: error: this run would run the command 'touch $tmp/PWNED; echo {}' $refused"
has "0 passed, 5 failed"
# print and export read the program only
expect 0 "$B" print corpus/exec.yaml
expect 0 "$B" export corpus/exec.yaml
pwned print export
# Debian's tools by name are the user's installed tools: loading is fine
# (copy-all runs instead; mlir-opt-19 need not be installed)
expect 0 "$B" run debian.yaml --strategy copy-all

# --trust DIR: the files under DIR, by real path
expect 2 "$B" run corpus/exec.yaml --trust other
pwned trust other
mkdir corpusx && mkcase corpusx/exec.yaml "$cmd"
expect 2 "$B" run corpusx/exec.yaml --trust corpus  # corpus is no prefix of corpusx
pwned trust prefix
ln -s ../corpusx/exec.yaml corpus/link.yaml           # a symlink that leads out
expect 2 "$B" run corpus/link.yaml --trust corpus
pwned trust symlink
rm corpus/link.yaml
expect 2 "$B" run corpus/exec.yaml --trust nowhere
has "bufdiff run: --trust nowhere: No such file or directory"
expect 2 "$B" run corpus/exec.yaml --trust corpus/exec.yaml
has "bufdiff run: --trust corpus/exec.yaml: not a directory"
pwned trust errors
expect 0 "$B" run corpus/exec.yaml --trust ./corpus/
[ -e "$tmp/PWNED" ] || fail "--trust ./corpus/ did not run the case's command"
rm -f "$tmp/PWNED"
expect 0 "$B" run ../"$(basename "$tmp")"/corpus/exec.yaml --trust other --trust "$tmp/corpus"
[ -e "$tmp/PWNED" ] || fail "the second --trust did not count"
rm -f "$tmp/PWNED"
# check's workers (-j) hold the same boundary
expect 2 "$B" check corpus -j 2 --trust corpusx
pwned check -j
has "[FAIL] corpus/exec.yaml: 10:15: error: this run would run the command 'touch $tmp/PWNED; echo {}' $refused"
expect 0 "$B" check corpusx -j 2 --trust corpusx
[ -e "$tmp/PWNED" ] || fail "check -j --trust did not run the case's command"
rm -f "$tmp/PWNED"
# --allow-exec: any case file
expect 0 "$B" run corpusx/exec.yaml --allow-exec
[ -e "$tmp/PWNED" ] || fail "--allow-exec did not run the case's command"
rm -f "$tmp/PWNED"
# the flags belong to the commands that load runs
expect 2 "$B" print corpus/exec.yaml --allow-exec
has "bufdiff print: option '--allow-exec' is not valid here"

# a strategy on the command line is the user's own
mkcase plain.yaml copy-all
expect 0 "$B" run plain.yaml --strategy "$cmd"
[ -e "$tmp/PWNED" ] || fail "a command-line strategy did not run"
rm -f "$tmp/PWNED"
# and fuzz programs and their reduction candidates carry it without a flag
expect 0 "$B" fuzz --strategy "exec:touch $tmp/PWNED; cat >/dev/null; echo {}" --count 2 --max-ops 4 --no-reduce
[ -e "$tmp/PWNED" ] || fail "fuzz did not run its command-line strategy"
# a repro of a command-line strategy says how to allow it, and is refused
# without it like any other case file
expect 1 "$B" fuzz --strategy "exec:cat >/dev/null; echo garbage" --count 1 --no-reduce --out repros
[ "$(head -1 repros/exec-0.yaml)" = "# This case's run names a command or a tool (its strategy); bufdiff runs it" ] ||
	fail "the repro does not say it names a command: $(head -3 repros/exec-0.yaml)"
expect 2 "$B" check repros
has "[FAIL] repros/exec-0.yaml: 30:15: error: this run would run the command 'cat >/dev/null; echo garbage' $refused"
expect 1 "$B" check repros --trust repros
has "[FAIL] repros/exec-0.yaml: run 1 (exec:cat >/dev/null; echo garbage): verdict tool-error (answer: 1:1: 'decisions document' must be a mapping), expected agree"
# reduce's output says so too
mkcase tool-error.yaml "exec:cat >/dev/null; echo garbage"
expect 0 "$B" reduce tool-error.yaml --allow-exec --out r.yaml
[ "$(head -1 r.yaml)" = "# This case's run names a command or a tool (its strategy); bufdiff runs it" ] ||
	fail "the reduced case does not say it names a command: $(head -3 r.yaml)"
expect 2 "$B" reduce tool-error.yaml
echo "trust: ok"
