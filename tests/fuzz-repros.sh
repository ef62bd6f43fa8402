#!/usr/bin/env bash
# fuzz repros and logs (issue 25): a reduced repro in the "must agree" form
# (check fails on it, the failure seen in comments; under one-shot it
# agrees; the --html index shows it failing), about:'s command makes the
# same repro byte for byte, tool errors bucketed by kind (two kinds, many
# names: 2 buckets), a log without blank lines with its stats lines, the
# stats file and --resume, --merge refusing what it would ignore, --json
# keeping each failure's messages, rates in significant digits, and the
# --time budget covering reduction (a failure found when it is up is
# written unreduced, and the summary says so).
#   fuzz-repros.sh BUFDIFF SRCDIR
set -u
B=$1
SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
# jf FILE PATH JSON: the summary's field at PATH equals JSON (parsed)
jf() {
	local m
	m=$(python3 "$SRC/tests/tools/jfield.py" "$@" 2>&1) || { fail "$m"; return 1; }
	[ $# = 3 ] || echo "$m"
}

# ---- a reduced repro: check fails until the strategy is fixed
F=(fuzz --strategy mutant-zero-trip --seed 1 --count 30)
"$B" "${F[@]}" --out red >red.out 2>red.err
[ $? = 1 ] || fail "a failing campaign exits 1"
r=red/mutant-zero-trip-12.yaml
[ -f "$r" ] || fail "no repro $r: $(ls red)"
grep -q "Reduced from fuzz/mutant-zero-trip-12" "$r" || fail "repro not reduced"
grep -q '^    verdict:\|^    blame:\|^    culprits:' "$r" && fail "repro pins the failure: $(cat "$r")"
grep -qx '    # verdict: diverge' "$r" || fail "the verdict seen is not in a comment"
grep -qx '    #   - {kind: uninitialized-read, writer: r12, victim: r12}' "$r" ||
	fail "the blame seen is not in a comment"
grep -qx '    # culprits: \[\]' "$r" || fail "the culprits seen are not in a comment"
"$B" check "$r" >check.out 2>&1
[ $? = 1 ] || fail "check passes on the repro of a broken strategy"
grep -qF "verdict diverge, expected agree" check.out || fail "check: $(cat check.out)"
sed 's/^  - strategy: mutant-zero-trip$/  - strategy: one-shot/' "$r" >fixed.yaml
"$B" check fixed.yaml >/dev/null 2>&1 || fail "the repro under one-shot does not agree"
# the pages: the index shows the failure as a failure
"$B" "${F[@]}" --html pages >/dev/null 2>&1
grep -q '>FAIL<' pages/index.html || fail "the index does not show the repro failing"
grep -q '>ok<' pages/index.html && fail "the index shows a failing repro ok"

# ---- about: the command makes the same repro, byte for byte (reduced,
# and whole with --no-reduce; every generator flag given)
G=(fuzz --strategy mutant-zero-trip --seed 100 --count 40 --mix loops,branches,async
   --max-ops 7 --no-copies)
for mode in reduce no-reduce; do
	extra=()
	[ $mode = no-reduce ] && extra=(--no-reduce)
	"$B" "${G[@]}" "${extra[@]}" --out a-$mode >/dev/null 2>&1
	f=$(ls a-$mode/*.yaml | head -1)
	cmd=$(sed -n 's/^about: "found by bufdiff \(fuzz [^"]*--max-ops 7[^".]*\)\..*/\1/p' "$f")
	case "$cmd" in
	*"--mix loops,branches,async --max-ops 7 --no-copies"*) ;;
	*) fail "$mode: about: has not every flag: $(grep ^about: "$f")" ;;
	esac
	mkdir again-$mode
	(cd again-$mode && eval "'$B' $cmd" >/dev/null 2>&1)
	cmp -s "$f" "again-$mode/bufdiff-fuzz/$(basename "$f")" ||
		fail "$mode: about:'s command made another repro than $f"
done

# ---- tool errors by kind: a tool answering plans with a duplicate key
# (the program's first value named twice) or an unknown operand (named
# after that value): 2 kinds, 5 names, 2 buckets
cat >tool.sh <<'EOF'
v=$(grep -o '%[a-z0-9]* =' | head -1 | tr -d '% =')
case "$v" in
*[13579]) printf 'plan: {%s: nosuch%s}\n' "$v" "$v" ;;
*) printf 'plan: {%s: new, %s: new}\n' "$v" "$v" ;;
esac
EOF
"$B" fuzz --strategy "exec:sh $tmp/tool.sh" --count 12 --no-reduce --out tool \
	--json >tool.json 2>/dev/null
jf tool.json tool_errors 12
python3 - tool.json >kinds.txt <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for b in j["buckets"]:
    print(b["count"], b["signature"])
names = {m["tool"]["status"].split("'")[1] if "'" in m["tool"]["status"]
         else m["tool"]["status"].split("%")[1] for m in j["failure_messages"]}
print(len(names), "names")
EOF
[ "$(cat kinds.txt)" = "10 tool-error: answer: N:N: duplicate key 'N' in plan
2 tool-error: answer: N:N: unknown value %_
5 names" ] || fail "tool-error buckets: $(cat kinds.txt)"

# ---- --json: each failure's messages (line, blame, culprits, tool)
"$B" "${F[@]}" --no-reduce --out js --json >js.json 2>/dev/null
jf js.json failure_messages.0 '{"seed": 12, "signature": "uninitialized-read culprit=-",
  "message": "diverge: uninitialized-read", "culprits": [],
  "blame": [{"kind": "uninitialized-read", "writer": "r12", "victim": "r12", "reader": null}]}'
jf js.json failure_messages.3.seed 29
jf tool.json failure_messages.9.tool.status '"answer: 1:12: unknown value %nosuchv1"'
for j in js.json tool.json; do # the schema (skipped without python3-jsonschema)
	python3 "$SRC/tests/schema.py" "$SRC/docs/report.schema.json" --def fuzz_summary $j >/dev/null
	v=$?
	[ $v = 0 ] || [ $v = 77 ] || fail "$j does not follow docs/report.schema.json"
done

# ---- a log: no blank lines, no carriage returns, stats lines (every
# second here, and one at the end), the stats file and --resume
"$B" "${F[@]}" --out log --stats-every 1 >log.out 2>log.err
grep -q '^$' log.err && fail "blank lines in the log: $(grep -c '^$' log.err)"
grep -q $'\r' log.err && fail "a carriage return in the log"
grep -q "^stats: 30 programs, [0-9.]* programs/s, 4 failures in 1 buckets, 0 unreduced, next seed 31, [0-9]* s$" log.err ||
	fail "the last stats line: $(grep ^stats: log.err | tail -1)"
"$B" "${F[@]}" --out quiet --stats-every 0 >/dev/null 2>q.err
grep -q "^stats:" q.err && fail "--stats-every 0 prints stats lines"
python3 - log/.fuzz-stats.json >stats.txt <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print(sorted(j))
print(j["programs"], j["failures"], j["buckets"], j["next_seed"], j["first_seed"],
      j["done"], j["shard"], j["strategy"], j["max_ops"], j["unreduced"])
EOF
[ "$(cat stats.txt)" = "['buckets', 'done', 'failures', 'first_seed', 'max_ops', 'mix', 'next_seed', 'no_copies', 'no_races', 'programs', 'programs_per_s', 'seconds', 'shard', 'strategy', 'target', 'tool_errors', 'unreduced']
30 4 1 31 1 True 0/1 mutant-zero-trip 12 0" ] || fail "stats file: $(cat stats.txt)"
# resumed twice, sharded: the seeds of one run of 3 x 7 programs of
# shard 1/3 from seed 5, none twice
S=(fuzz --strategy mutant-zero-trip --shard 1/3 --no-reduce --json)
"$B" "${S[@]}" --seed 5 --count 21 --out whole >whole.json 2>/dev/null
"$B" "${S[@]}" --seed 5 --count 7 --out part >p1.json 2>/dev/null
"$B" "${S[@]}" --count 7 --out part --resume >p2.json 2>/dev/null
"$B" "${S[@]}" --count 7 --out part --resume >p3.json 2>/dev/null
seeds() { python3 -c 'import json,sys; print(*[m["seed"] for f in sys.argv[1:] for m in json.load(open(f))["failure_messages"]])' "$@"; }
[ "$(seeds p1.json p2.json p3.json)" = "$(seeds whole.json)" ] ||
	fail "resumed: $(seeds p1.json p2.json p3.json) vs $(seeds whole.json)"
jf p3.json next_seed 69
jf part/.fuzz-stats-1-of-3.json first_seed 5
"$B" "${S[@]}" --count 7 --out part --resume --mix loops 2>resume.err
[ $? = 2 ] || fail "--resume of another campaign is not refused"
grep -qx "part/.fuzz-stats-1-of-3.json:1:1: error: --resume: the campaign recorded here differs in mix" resume.err ||
	fail "resume error: $(cat resume.err)"
"$B" "${S[@]}" --count 7 --resume 2>/dev/null
[ $? = 2 ] || fail "--resume without --out"
"$B" "${S[@]}" --count 7 --out nothing --resume 2>/dev/null
[ $? = 2 ] || fail "--resume without a stats file"

# ---- --merge refuses the flags it would ignore
for flag in "--strategy one-shot" "--seed 3" "--count 5" "--out x" "--no-reduce" "--resume"; do
	"$B" fuzz --merge whole.json $flag >/dev/null 2>merge.err
	[ $? = 2 ] || fail "--merge with $flag is not refused"
	grep -q "^bufdiff fuzz: ${flag%% *} does nothing with --merge" merge.err ||
		fail "--merge $flag: $(cat merge.err)"
done
"$B" fuzz --merge whole.json --json >/dev/null
[ $? = 1 ] || fail "--merge --json is refused"
# counts that shards add up: failures they left unreduced (the time was
# up), tool errors they kept whole.  merged KEY LINE: two shards with 2
# each give 4 in --json and LINE in the human summary
merged() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j[sys.argv[2]]=2; print(json.dumps(j))' \
		whole.json "$1" >m1.json
	"$B" fuzz --merge m1.json m1.json --json >m2.json
	jf m2.json "$1" 4
	"$B" fuzz --merge m1.json m1.json | grep -qx "$2" || fail "merged $1 line"
}
merged unreduced "4 failures left unreduced: the time was up"
merged kept_whole "4 tool errors kept whole: a bucket's 1st, 2nd, 4th, 8th, ... are reduced"

# ---- rates: significant digits, never "0 programs/s"; the --time budget
# includes reduction: the tool takes 1 s on a program with a matmul (seed
# 0 has one), so with --time 1 the time is up when seed 0's failure is
# known: kept unreduced, and the campaign stops there
cat >slow.sh <<'EOF'
if grep -q matmul; then sleep 1; exit 3; fi
echo '{}'
EOF
"$B" fuzz --strategy "exec:sh $tmp/slow.sh" --time 1 --out slow >slow.out 2>slow.err
[ $? = 1 ] || fail "slow campaign exit"
grep -q "^1 programs, 1 failures (1 tool errors), [0-9.]* s (0\.[0-9][0-9]* programs/s)$" slow.out ||
	fail "slow summary: $(head -1 slow.out)"
grep -qx "1 failure left unreduced: the time was up" slow.out || fail "unreduced line: $(cat slow.out)"
grep -qx "seed 0: the time is up: kept unreduced" slow.err || fail "unreduced log: $(cat slow.err)"
grep -q "Reduced from" slow/exec-0.yaml && fail "a repro reduced after the time was up"
grep -q "^about: \"found by bufdiff fuzz --strategy 'exec:sh .*slow.sh' --seed 0 --count 1 --mix slices,matmul,loops,branches,async,calls,forall,cfg,generate --max-ops 12\.\"$" slow/exec-0.yaml ||
	fail "unreduced about: $(grep ^about: slow/exec-0.yaml)"
jf slow/.fuzz-stats.json unreduced 1

[ $fails = 0 ] && echo "fuzz-repros: ok"
exit $((fails > 0))
