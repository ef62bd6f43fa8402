# hostile/escape.sh BUFDIFF SRCDIR: everything bufdiff writes is escaped for
# where it goes (issue 24; docs/format.md §3, "Escaping").  A directory, a
# case name, an MLIR file's name and an exec:CMD hold `$(touch PWNED)`,
# backticks, `;`, quotes, spaces, ESC sequences and newlines.  Every
# command line bufdiff prints (a tool-error's `command:`, `bufferize`'s,
# `native command:`, `native`'s `command:`, `upstream`'s RUN line, a fuzz
# repro's `about:` and its .sh) parses with `sh -n` and, run with
# bufdiff or the tool, does what it says; the text reports hold no raw
# control byte and one line per line; the YAML bufdiff writes reads back
# with the same strings and no other key; the JUnit file parses with the
# exact names; fuzz's repros stay in --out.  PWNED never appears.
bufdiff=$1 src=$2
. "$src/tests/expect.sh"
B=$bufdiff S=$src
ESC=$(printf '\033')

# realbin/bufdiff: the one under test, for the printed commands to call
mkdir realbin
ln -s "$B" realbin/bufdiff
nopwned() {
	if [ -n "$(find "$tmp" -name PWNED)" ]; then
		fail "PWNED exists: a printed command ran what a name held ($1)"
	fi
}
noraw() { # file what: no ESC, CR, BS or DEL in it
	if LC_ALL=C grep -q "[$ESC$(printf '\r\b\177')]" "$1"; then
		fail "$2: a raw control byte reached the terminal"
	fi
}
# py CODE ARGS...: python3 with the args in sys.argv[1:]
py() { code=$1; shift; python3 -c "$code" "$@"; }
# setname IN OUT SCALAR: case IN with its `case:` line `case: SCALAR`
setname() {
	py 'import re, sys
t = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"(?m)^case: .*$", lambda m: "case: " + sys.argv[3], t, count=1))' "$@"
}

dir=$(printf 'h $(touch PWNED);`touch PWNED`'"'"'q"\t\033[31m\nx')
mkdir "$dir"
# a YAML double-quoted name holding the same
name='evil/a\nb: c \e[2J $(touch PWNED) `touch PWNED`; \"q\" '"'q'"' #x'
setname "$S/cases/seed/old-input-still-needed.yaml" "$dir/c.yaml" "\"$name\""
case=$dir/c.yaml
realname=$(printf 'evil/a\nb: c \033[2J $(touch PWNED) `touch PWNED`; "q" '"'q'"' #x')

# --- run --strategy exec:cat: a tool-error report with its command
expect 1 "$B" run "$case" --strategy exec:cat
noraw "$out" "run"
[ "$(grep -c '^case ' "$out")" = 1 ] || fail "run: the case line is not one line"
contains 'case evil/a\nb: c \x1b[2J $(touch PWNED) `touch PWNED`; "q" '"'q'"' #x (h $(touch PWNED);`touch PWNED`'"'"'q"\t\x1b[31m'
expect 1 "$B" run "$case" --strategy exec:cat --json
cmd=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["tool"]["command"])' "$out") ||
	fail "run --json: no tool.command"
# the text report prints the same command (its lines kept)
expect 1 "$B" run "$case" --strategy exec:cat
text=$(sed -n '/^  command: /,/^SUMMARY/p' "$out" | sed '$d' | sed '1s/^  command: //')
[ "$text" = "$cmd" ] || fail "run: the text's command differs from the JSON's: $text"
sh -n -c "$cmd" || fail "run: the command does not parse: $cmd"
got=$(PATH=$tmp/realbin:$PATH sh -c "$cmd") || fail "run: the command fails: $cmd"
case $got in "func @main("*) ;; *) fail "run: the command printed: $got" ;; esac
nopwned "run's command"

# --- bufferize's tool-error (main.c): the same command on stderr
expect 1 "$B" bufferize "$case" --strategy exec:cat
noraw "$err" "bufferize"
cmd2=$(sed -n '/^  command: /,$p' "$err" | sed -n '1,2p' | sed '1s/^  command: //')
[ "$cmd2" = "$cmd" ] || fail "bufferize: command $cmd2, expected $cmd"
nopwned "bufferize"

# --- check: one [ok]/[FAIL] line per case, JUnit with the exact names
setname "$case" "$dir/d.yaml" '"other/<t a=\"\">&amp;]]> \x01"'
printf 'case: "broken\\e[2J"\nprogram: |\n  func @main( {\n' >"$dir/e.yaml"
expect 2 "$B" check "$dir" --junit j.xml
noraw "$out" "check"
noraw "$err" "check's diagnostics"
[ "$(grep -c '^\[ok\] \|^\[FAIL\] ' "$out")" = 3 ] || fail "check: not 3 case lines"
[ "$(wc -l <"$out")" = 4 ] || fail "check: a name or path broke a line"
py '
import sys, xml.etree.ElementTree as ET
root = ET.parse("j.xml").getroot()
got = sorted((t.get("classname"), t.get("name"), t.get("file"))
             for t in root.iter("testcase"))
d = sys.argv[1]
want = sorted([
    ("bufdiff.evil", sys.argv[2].replace("\x1b", "\\x1b"), d + "/c.yaml"),
    ("bufdiff.other", "other/<t a=\"\">&amp;]]> \\x01", d + "/d.yaml"),
    ("bufdiff", "broken\\x1b[2J", d + "/e.yaml"),
])
# the file attribute: the path, ESC shown as \x1b
want = [(c, n, f.replace("\x1b", "\\x1b")) for c, n, f in want]
if got != want:
    print("junit:", got, "\nwant: ", want)
    sys.exit(1)
' "$dir" "$realname" || fail "check --junit: names differ"
rm "$dir/d.yaml" "$dir/e.yaml"
nopwned "check"

# --- an error without a place: one line, whatever the path holds
expect 2 "$B" run "$dir/no such.yaml"
noraw "$err" "run's error"
[ "$(wc -l <"$err")" = 1 ] || fail "run: the error line is not one line"

# --- import: the MLIR file's name becomes a case name, never a key
mlir=$(printf '%s/x\nkey: injected $(touch PWNED) "q" %s #c' "$dir" "'q'")
cat >"$mlir.mlir" <<'EOF'
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xi32>) -> tensor<2xi32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xi32>):
    %0 = "linalg.generic"(%arg0, %arg0, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: i32, %arg2: i32, %arg3: i32):
      %1 = "arith.addi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "linalg.yield"(%1) : (i32) -> ()
    }) : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    "func.return"(%0) : (tensor<2xi32>) -> ()
  }) : () -> ()
}) : () -> ()
EOF
expect 0 "$B" import "$mlir.mlir" --no-tool --out imported.yaml
py '
import sys, yaml
c = yaml.safe_load(open("imported.yaml"))
want = "import/" + sys.argv[1].rsplit("/", 1)[1]
if sorted(c) != ["about", "case", "expect", "inputs", "program"] or c["case"] != want:
    print(sorted(c), repr(c["case"]), repr(want))
    sys.exit(1)
' "$mlir" || fail "import: the case name was not one YAML string"
expect 0 "$B" run imported.yaml
nopwned "import"

# --- fuzz: the repro's about: is a command that runs the same campaign;
# the repros stay in --out
strat="exec:sh $S/tests/tools/fail.sh '\$(touch PWNED)' ';' '\`touch PWNED\`' 'a\"b'"
mkdir fz
expect 1 "$B" fuzz --strategy "$strat" --count 1 --out fz/out
[ "$(cd fz && find . -type f ! -name '.fuzz-stats*')" = "./out/exec-0.yaml" ] ||
	fail "fuzz: files $(cd fz && find . -type f)"
about=$(py '
import sys, yaml
a = yaml.safe_load(open("fz/out/exec-0.yaml"))["about"]
print(a[len("found by "):a.index(". Reduced from ")])' ) || fail "fuzz: no about"
sh -n -c "$about" || fail "fuzz: about: does not parse: $about"
mkdir echobin
printf '#!/bin/sh\nprintf "%%s\\n" "$@"\n' >echobin/bufdiff
chmod +x echobin/bufdiff
args=$(PATH=$tmp/echobin:$PATH sh -c "$about")
[ "$args" = "$(printf 'fuzz\n--strategy\n%s\n--seed\n0\n--count\n1\n--mix\n%s\n--max-ops\n12' \
	"$strat" slices,matmul,loops,branches,async,calls,forall,cfg,generate)" ] ||
	fail "fuzz: about: runs bufdiff with $args"
# exec-mlir: the repro's .sh (a comment line, then the tool on the .mlir)
mstrat="exec-mlir:sh $S/tests/tools/fail.sh '\$(touch PWNED)' ';'"
expect 1 "$B" fuzz --strategy "$mstrat" --count 1 --out fz/m
[ "$(wc -l <fz/m/exec-mlir-0.sh)" = 3 ] || fail "fuzz: the .sh is not 3 lines"
sh -n fz/m/exec-mlir-0.sh || fail "fuzz: the .sh does not parse"
sh fz/m/exec-mlir-0.sh 2>fz/m/err && fail "fuzz: the .sh succeeded (fail.sh exits 3)"
grep -q "fake-tool: giving up" fz/m/err || fail "fuzz: the .sh did not run the tool"
nopwned "fuzz"

# --- native and upstream (mlir-opt-22: skipped without it)
if command -v mlir-opt-22 >/dev/null && command -v mlir-runner-22 >/dev/null; then
	up=$dir/up.yaml
	setname "$S/cases/mlir/cf-insert-in-later-block.yaml" "$up" \
		"\"$name\\n// RUN: touch PWNED\""
	expect 0 "$B" upstream "$up" --out "$dir/up.mlir"
	[ "$(grep -c '^// RUN:' "$dir/up.mlir")" = 1 ] || fail "upstream: RUN lines"
	noraw "$dir/up.mlir" "upstream"
	expect 0 "$B" native "$case" --out "$dir/n.mlir"
	noraw "$out" "native"
	ncmd=$(sed -n '/^command: /,$p' "$out" | sed '1s/^command: //')
	sh -n -c "$ncmd" || fail "native: the command does not parse: $ncmd"
	sh -c "$ncmd" >n.out 2>&1 || fail "native: the command fails: $(cat n.out)"
	nopwned "native"
else
	echo "native, upstream: skipped (no mlir-opt-22, mlir-runner-22)"
fi
nopwned "the end"
echo "ok: escape"
