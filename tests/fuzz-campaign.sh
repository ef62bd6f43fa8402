#!/usr/bin/env bash
# fuzz campaigns: buckets (exact counts and what each counts, from
# mutant-zero-trip, seed 1, 120 programs), --max-failures, repros as files even without --out, the
# summary on SIGINT, no progress line off a terminal, a repro kept in the
# "must agree" form, and shards merged back to the unsharded figures:
# by hand, by the Slurm script's body (SLURM_ARRAY_TASK_ID set here) and,
# with `parallel` mode, by GNU parallel on localhost (`--sshlogin :`).
#   fuzz-campaign.sh BUFDIFF SRCDIR [parallel]
set -u
B=$1
SRC=$2
MODE=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the mix before blocks (GEN_CFG): the figures below are the campaign
# machinery's, pinned on those programs
MIX=slices,matmul,loops,branches,async,calls,forall
F=(fuzz --strategy mutant-zero-trip --seed 1 --no-reduce --mix $MIX)
# jf FILE PATH JSON: the summary's field at PATH equals JSON, parsed
# (tests/tools/jfield.py); jf FILE PATH: its value
jf() {
	local m
	m=$(python3 "$SRC/tests/tools/jfield.py" "$@" 2>&1) || { fail "$m"; return 1; }
	[ $# = 3 ] || echo "$m"
}

# The figures of one summary, as "failures buckets counts... | seeds...".
figures() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    j = json.loads(line)
    b = j["buckets"]
    print(j["programs"], j["failures"], len(b),
          [(k["signature"], k["count"], k["seeds"], k["constructs"],
            k["verdicts"], k["violations"], k["culprits"]) for k in b])
' "$1"
}

if [ "$MODE" = parallel ]; then
	command -v parallel >/dev/null ||
		{ echo "SKIP: GNU parallel is not installed (apt-get install parallel)"; exit 77; }
	command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
	mkdir whole
	"$B" "${F[@]}" --count 120 --out whole --json >whole.json
	# every job's summary on parallel's stdout, one a line, merged from
	# stdin; each shard's repros in its own directory
	parallel --will-cite --sshlogin : "'$B' ${F[*]} --count 30 --shard {}/4 --out p{} --json" \
		::: 0 1 2 3 >par.jsonl
	[ "$(wc -l <par.jsonl)" = 4 ] || fail "parallel gave $(wc -l <par.jsonl) summaries"
	"$B" fuzz --merge - --json <par.jsonl >merged.json
	[ $? = 1 ] || fail "merge of failing shards exits 1"
	[ "$(figures merged.json)" = "$(figures whole.json)" ] ||
		fail "parallel shards merged: $(figures merged.json) vs $(figures whole.json)"
	for f in $(python3 -c 'import json,sys; print(" ".join(k["repro"] for k in json.load(open(sys.argv[1]))["buckets"]))' merged.json); do
		[ -f "$f" ] || fail "merged repro $f missing"
	done
	[ $fails = 0 ] && echo "fuzz-campaign parallel: ok"
	exit $((fails > 0))
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

# ---- buckets, exact: 20 failures in 1 bucket, one repro (one flaw, one
# bucket, issue 23: the constructs, verdicts and violation kinds around it
# are counted inside the bucket, not part of its signature)
mkdir whole
"$B" "${F[@]}" --count 120 --out whole --json >whole.json 2>whole.err
[ $? = 1 ] || fail "failures exit 1"
want="120 20 1 [('uninitialized-read culprit=-', 20, [1, 8, 10, 11, 25, 32, 33, 35, 50, 53, 55, 57, 62, 66, 78, 80, 107, 109, 115, 120], {'loop': 12, 'branch': 1, 'async': 4, 'call': 2}, {'diverge': 14, 'fault': 6}, {'uninitialized-read': 20}, {})]"
[ "$(figures whole.json)" = "$want" ] || fail "buckets: $(figures whole.json)"
[ "$(ls whole | wc -l)" = 1 ] || fail "$(ls whole | wc -l) repros for 1 bucket"
jf whole.json buckets.0.repro '"whole/mutant-zero-trip-1.yaml"'
grep -q $'\r' whole.err && fail "a progress line on stderr that is not a terminal"

# ---- the human summary lists the buckets
"$B" "${F[@]}" --count 120 --out human >human.out 2>/dev/null
grep -q "^120 programs, 20 failures (0 tool errors), " human.out ||
	fail "summary line: $(head -1 human.out)"
grep -qxF "1 bucket (count, signature, repro, seeds):" human.out || fail "bucket header"
grep -qxF "      20  uninitialized-read culprit=-" human.out || fail "bucket line"
grep -qxF "          seeds: 1 8 10 11 25 32 33 35 50 53 55 57 62 66 78 80 107 109 115 120" human.out ||
	fail "seeds line"
grep -qxF "          in: loop 12, branch 1, async 4, call 2" human.out || fail "constructs line"
grep -qxF "          verdicts: diverge 14, fault 6" human.out || fail "verdicts line"
grep -qxF "          violations: uninitialized-read 20" human.out || fail "violations line"

# ---- --max-failures: 1 stops at the first (seed 1), 3 at the third (10)
"$B" "${F[@]}" --count 120 --max-failures 1 --out m1 --json >m1.json
jf m1.json programs 1 && jf m1.json failures 1
"$B" "${F[@]}" --count 120 --max-failures 3 --out m3 --json >m3.json
jf m3.json programs 10 && jf m3.json failures 3
"$B" "${F[@]}" --max-failures 0 2>/dev/null
[ $? = 2 ] || fail "--max-failures 0 is a usage error"

# ---- without --out: files under bufdiff-fuzz/, listed by --json, not stdout
mkdir noout && (cd noout && "$B" "${F[@]}" --count 10 --json >s.json 2>/dev/null)
jf noout/s.json repros '["bufdiff-fuzz/mutant-zero-trip-1.yaml"]'
[ "$(wc -l <noout/s.json)" = 1 ] || fail "stdout is more than the summary"
(cd noout && "$B" "${F[@]}" --count 10 >h.out 2>/dev/null)
grep -q "^case:" noout/h.out && fail "a repro on stdout"
mkdir clean && (cd clean && "$B" fuzz --strategy one-shot --count 20 --mix $MIX >/dev/null 2>&1)
[ -e clean/bufdiff-fuzz ] && fail "bufdiff-fuzz/ made with nothing to keep"

# ---- a repro replays under check, and is the regression case once fixed
"$B" check whole/mutant-zero-trip-1.yaml >/dev/null 2>&1
[ $? = 1 ] || fail "repro does not fail under check"
grep -qx '  - strategy: "mutant-zero-trip"' whole/mutant-zero-trip-1.yaml || fail "repro's run"
sed 's/^  - strategy: "mutant-zero-trip"$/  - strategy: one-shot/' \
	whole/mutant-zero-trip-1.yaml >fixed.yaml
"$B" check fixed.yaml >/dev/null 2>&1 || fail "the repro under a fixed strategy does not agree"

# ---- SIGINT: the summary and the JSON still come out.  The signal is
# sent once --out exists: fuzz_run makes it after the handlers are set.
stopped() { # SIGNAL DIR: start a campaign, signal it, its exit code
	"$B" "${F[@]}" --time 120 --out "$2" --json >"$2.json" 2>"$2.err" &
	local pid=$! k=0
	while [ ! -d "$2" ] && [ $k -lt 600 ]; do sleep 0.1; k=$((k + 1)); done
	sleep 0.2
	kill -"$1" $pid
	wait $pid
}
stopped INT int
rc=$?
[ $rc = 130 ] || fail "interrupted campaign exit $rc (128 + SIGINT)"
jf int.json interrupted true
grep -q "^bufdiff fuzz: interrupted (SIGINT) after [0-9]* programs$" int.err || fail "interrupt message: $(cat int.err)"
stopped TERM term
jf term.json interrupted true

# ---- shards by hand and by the Slurm script's body: the unsharded figures
mkdir shards
for i in 0 1 2 3; do
	"$B" "${F[@]}" --count 30 --shard $i/4 --out shards --json >shards/$i.json
done
"$B" fuzz --merge shards/0.json shards/1.json shards/2.json shards/3.json --json >merged.json
[ $? = 1 ] || fail "merge exit"
[ "$(figures merged.json)" = "$want" ] || fail "merged: $(figures merged.json)"
"$B" fuzz --merge shards/3.json shards/1.json shards/0.json shards/2.json --json >merged2.json
[ "$(figures merged2.json)" = "$want" ] || fail "merge depends on the order of the files"
"$B" fuzz --merge shards/*.json >merged.txt
grep -qxF "4 shards: 120 programs, 20 failures (0 tool errors) in 1 bucket" merged.txt ||
	fail "merged summary: $(head -1 merged.txt)"
grep -qxF "          repro: shards/mutant-zero-trip-1.yaml" merged.txt || fail "merged repro"
grep -qxF "          verdicts: diverge 14, fault 6" merged.txt || fail "merged verdicts"
for i in 0 1 2 3; do
	SLURM_ARRAY_TASK_ID=$((i + 10)) SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=4 \
		STRATEGY=mutant-zero-trip SEED=1 COUNT=30 OUT=slurm BUFDIFF=$B MIX=$MIX \
		sh "$SRC/scripts/fuzz-slurm.sbatch"
	rc=$?
	# exit 1 exactly when the shard has failures (shard i by hand above)
	wantrc=0
	[ "$(jf shards/$i.json failures)" = 0 ] || wantrc=1
	[ $rc = $wantrc ] || fail "slurm task $i exit $rc, expected $wantrc"
	[ -s slurm/shard-$i.json ] || fail "slurm task $i wrote no summary"
done
"$B" fuzz --merge slurm/shard-*.json --json >slurm.json
[ "$(figures slurm.json)" = "$want" ] || fail "slurm shards merged: $(figures slurm.json)"
jf slurm/shard-2.json shard '"2/4"' || fail "slurm task 12 of 10..13 is not shard 2/4"

# ---- merge: bad input is one located error, exit 2
printf '{"programs": 3, "failures": 0}\n' >partial.json
"$B" fuzz --merge partial.json 2>merr.txt
[ $? = 2 ] || fail "partial summary exit"
grep -q "^partial.json:1:1: error: not a \`bufdiff fuzz --json\` summary: no count skipped$" merr.txt ||
	fail "partial summary message: $(cat merr.txt)"
printf '{"programs": 3,\n' >broken.json
"$B" fuzz --merge broken.json 2>merr.txt
[ $? = 2 ] || fail "broken JSON exit"
grep -q "^broken.json:1:[0-9]*: error: " merr.txt || fail "broken JSON message: $(cat merr.txt)"
# counts that add up beyond a long: an error, not "-2 programs" (a signed
# overflow, issue 24)
sed 's/"programs": [0-9]*/"programs": 9223372036854775806/' shards/0.json >big.json
"$B" fuzz --merge big.json big.json 2>merr.txt
[ $? = 2 ] || fail "overflowing summaries exit"
grep -q "^big.json:1:1: error: the summaries' counts add up beyond what bufdiff counts: programs$" merr.txt ||
	fail "overflowing summaries message: $(cat merr.txt)"
"$B" fuzz --merge 2>/dev/null
[ $? = 2 ] || fail "--merge without files"
"$B" fuzz --merge nonexistent.json 2>merr.txt
[ $? = 2 ] || fail "missing file exit"

[ $fails = 0 ] && echo "fuzz-campaign: ok"
exit $((fails > 0))
