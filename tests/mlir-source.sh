#!/bin/bash
# mlir-source.sh BUFDIFF REPO: MLIR in, MLIR back (docs/import.md "Names,
# comments and places"; issue 25).  A .mlir with the user's names and
# comments imports into a case that keeps them and cites FILE.mlir:L:C in
# its reports (text and JSON); run/check take the .mlir itself, a
# -split-input-file's sections as cases FILE.mlir#N; import --strategy
# writes the run; reduce --strategy with --emit-mlir gives MLIR that
# mlir-opt-22 parses; explain on mlir says MLIR's word; --keep-tool-io
# keeps calls that replay; exec: tools get BUFDIFF_ENTRY.  Exit 77 (ctest
# skip) without mlir-opt-22.
set -u
B=$1 repo=$2
if ! command -v mlir-opt-22 >/dev/null; then
	echo "SKIP: mlir-opt-22 not installed"
	exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fail() {
	echo "FAIL: $*"
	exit 1
}
# has FILE LINE: FILE holds LINE exactly (a whole line)
has() {
	grep -qxF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no line '$2' in $1"; }
}
# expect RC CMD...: run CMD (stdout to out, stderr to err), want exit RC
expect() {
	local want=$1
	shift
	"$@" >out 2>err
	local rc=$?
	[ $rc -eq "$want" ] || { cat out err; fail "$* exited $rc, want $want"; }
}

cat >stale.mlir <<'EOF'
// The old %init is still needed after %sum is computed.
func.func @main(%init: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // %sum may not overwrite %init: %twice reads it
  %sum = arith.addf %init, %x : tensor<4xf32>
  %twice = arith.addf %init, %sum : tensor<4xf32>
  return %sum, %twice : tensor<4xf32>, tensor<4xf32>
}
EOF

# 1. import keeps names and comments, and every op's place
expect 0 "$B" import stale.mlir --out stale.yaml
has stale.yaml "source: stale.mlir"
has stale.yaml "  // The old %init is still needed after %sum is computed."
has stale.yaml "  func @main(%init: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {  // loc(2:1)"
has stale.yaml "    // %sum may not overwrite %init: %twice reads it"
has stale.yaml "    %sum = add %init, %x : tensor<4xf32>  // loc(4:10)"
has stale.yaml "    %twice = add %init, %sum : tensor<4xf32>  // loc(5:12)"
has stale.yaml "    return %sum, %twice  // loc(6:3)"
# ... and the report cites stale.mlir (then the case line)
expect 1 "$B" run stale.yaml --strategy inplace-all
has out "==bufdiff== stale-read: %twice at stale.mlir:5:12 (stale.yaml:9:5) reads %init, but its buffer now holds %sum"
has out "    overwritten by %sum at stale.mlir:4:10 (stale.yaml:8:5), decision sum:init"
has out "SUMMARY: bufdiff: diverge, stale-read in %twice at stale.mlir:5:12 (stale.yaml:9:5); culprits sum:init"
expect 1 "$B" run stale.yaml --strategy inplace-all --json
python3 - out <<'EOF' || fail "JSON source"
import json, sys
v = json.load(open(sys.argv[1]))["runs"][0]["violations"][0]
assert v["reader"]["source"] == {"file": "stale.mlir", "line": 5, "col": 12}, v
assert v["reader"]["line"] == 9, v
assert v["writer"]["source"] == {"file": "stale.mlir", "line": 4, "col": 10}, v
EOF
python3 "$repo/tests/schema.py" "$repo/docs/report.schema.json" out >/dev/null 2>&1 ||
	{ [ $? -eq 77 ] || fail "the JSON report is not valid against the schema"; }
# run the .mlir itself: the places are the .mlir's alone
expect 1 "$B" run stale.mlir --strategy inplace-all
has out "==bufdiff== stale-read: %twice at stale.mlir:5:12 reads %init, but its buffer now holds %sum"
has out "SUMMARY: bufdiff: diverge, stale-read in %twice at stale.mlir:5:12; culprits sum:init"

# 2. a -split-input-file of 3 sections: 3 cases
{
	printf '%s\n' '// RUN: mlir-opt %s -split-input-file' \
		'func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {' \
		'  %s = arith.addf %a, %b : tensor<4xf32>' '  return %s : tensor<4xf32>' '}' \
		'' '// -----' ''
	sed -n '2,$p' stale.mlir
	printf '%s\n' '' '// -----' '' '// a product' \
		'func.func @main(%m: tensor<4xi32>) -> tensor<4xi32> {' \
		'  %p = arith.muli %m, %m : tensor<4xi32>' '  return %p : tensor<4xi32>' '}'
} >three.mlir
expect 0 "$B" check three.mlir
has out "[ok] three.mlir#1"
has out "[ok] three.mlir#2"
has out "[ok] three.mlir#3"
has out "3 passed, 0 failed"
expect 1 "$B" check three.mlir --strategy inplace-all
has out "[FAIL] three.mlir#2: run 1 (inplace-all): verdict diverge, expected agree: stale-read in %twice at three.mlir:12:12; culprits sum:init (fix: sum:init -> sum:new)"
has out "2 passed, 1 failed"
expect 2 "$B" run three.mlir
has err "three.mlir: error: 3 sections (\`// -----\`, mlir-opt's -split-input-file): name one as three.mlir#N, N = 1..3"
expect 1 "$B" run 'three.mlir#2' --strategy inplace-all
has out "SUMMARY: bufdiff: diverge, stale-read in %twice at three.mlir:12:12; culprits sum:init"
# an error in a section: its line in the whole file, with the caret
sed 's/%init, %x : tensor/%init, %y : tensor/' three.mlir >bad.mlir
expect 2 "$B" run 'bad.mlir#2'
has err "bad.mlir#2:11:28: error: use of undeclared SSA value name"
has err "  %sum = arith.addf %init, %y : tensor<4xf32>"
has err "                           ^"
# import takes a section too
expect 0 "$B" import 'three.mlir#3'
has out "case: \"import/three#3\""
has out "    %p = mul %m, %m : tensor<4xi32>  // loc(20:8)"

# 3. import --strategy S writes the run; check runs it
expect 0 "$B" import stale.mlir --strategy mlir:mlir-opt-22 --out s22.yaml
has s22.yaml "runs:"
has s22.yaml '  - strategy: "mlir:mlir-opt-22"'
expect 0 "$B" check s22.yaml
has out "[ok] s22.yaml"

# 4. reduce --strategy on the imported case, back as MLIR
expect 0 "$B" reduce stale.yaml --strategy inplace-all --out red.yaml --emit-mlir red.mlir
has red.yaml "  - strategy: inplace-all"
has red.yaml "      - {kind: stale-read, writer: sum, victim: init, reader: twice}"
mlir-opt-22 red.mlir >/dev/null 2>err || { cat red.mlir err; fail "mlir-opt-22 does not parse red.mlir"; }
grep -q 'loc("red.yaml":' red.mlir || fail "red.mlir has no loc of red.yaml"
expect 1 "$B" run red.mlir --strategy inplace-all
# its ops carry loc("red.yaml":L:C): the places MLIR would cite
has out "SUMMARY: bufdiff: diverge, stale-read in %1 at red.yaml:6:5; culprits 0:init"
"$B" help reduce >out 2>&1
grep -q -- "--strategy S" out || fail "bufdiff help reduce does not name --strategy"
grep -q -- "--emit-mlir FILE" out || fail "bufdiff help reduce does not name --emit-mlir"

# 5. explain on mlir: MLIR's own word, at the .mlir's line
expect 0 "$B" explain stale.mlir --strategy mlir:mlir-opt-22
has out 'stale.mlir:4:10: alloc tensor<4xf32> for %sum [sum:new]: MLIR: out of place, operand 2 (%init) "false": a new buffer (__inplace_operands_attr__ = ["true", "true", "false"] on linalg.generic at line 4 of its answer)'

# 6. --keep-tool-io DIR: the call's files, and its script replays it
expect 0 "$B" run stale.yaml --strategy mlir:mlir-opt-22 --keep-tool-io kept
for f in in sh out err; do
	[ -s "kept/0001-import_stale.$f" ] || [ "$f" = err ] ||
		fail "kept/0001-import_stale.$f missing or empty"
done
grep -q '__inplace_operands_attr__' kept/0001-import_stale.out || fail "kept stdout"
(cd / && sh "$T/kept/0001-import_stale.sh") >replayed 2>/dev/null ||
	fail "the kept command does not run"
cmp -s replayed kept/0001-import_stale.out || fail "the kept command replays to another stdout"
expect 0 "$B" import stale.mlir --keep-tool-io kept2 --out /dev/null
[ -s kept2/0001-stale.mlir.out ] || fail "import's call is not kept"
expect 2 "$B" run stale.yaml --keep-tool-io stale.yaml/x
grep -q -- "--keep-tool-io: cannot make stale.yaml/x" err || { cat err; fail "--keep-tool-io on a file"; }

# 7. the exec protocol: BUFDIFF_ENTRY names the entry
cat >entry.sh <<'EOF'
cat >/dev/null
[ "$BUFDIFF_ENTRY" = "$1" ] || { echo "entry '$BUFDIFF_ENTRY', want '$1'" >&2; exit 3; }
echo '{}'
EOF
expect 0 "$B" run stale.yaml --strategy "exec:sh $T/entry.sh main"
printf '%s\n' 'func.func @work(%a: tensor<4xf32>) -> tensor<4xf32> {' \
	'  %n = arith.negf %a : tensor<4xf32>' '  return %n : tensor<4xf32>' '}' >work.mlir
expect 0 "$B" import work.mlir --func work --out work.yaml
has work.yaml "entry: work"
expect 0 "$B" run work.yaml --strategy "exec:sh $T/entry.sh work"
expect 1 "$B" run work.yaml --strategy "exec:sh $T/entry.sh main"
has out "  command: bufdiff print work.yaml | BUFDIFF_ENTRY=work sh $T/entry.sh main"
echo "mlir-source: ok"
