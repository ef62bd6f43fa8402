#!/bin/bash
# signals.sh BUFDIFF SRC: SIGTERM, SIGINT on run, check, fuzz and reduce
# while an outside tool hangs (issue 24 item 5).  The tool's session ends
# first, then the command prints its summary (JUnit, JSON, repros) and
# exits 128 + the signal (docs/cli.md, Signals), within a second or two,
# and no process of the tool is left.  The hanging tools are written here
# and ignore SIGTERM; they are given on the command line (--strategy
# exec:...), except where reduce reads the command from fuzz's repro.
set -u
B=$1 S=$2
seed=$S/cases/seed/old-input-still-needed.yaml
. "$S/tests/expect.sh"
# Should a test fail (bufdiff killed), no session of a tool it logged
# survives it.
trap 'rc=$?; [ $rc = 0 ] || cat "$tmp"/*.log 2>/dev/null | while read -r p g; do
	pkill -KILL -s "$g"; done; rm -rf "$tmp"' EXIT

# A case file that names a command runs it only when allowed (issue 24's
# trust model), where bufdiff has the flag.
allow=()
"$B" reduce --help 2>&1 | grep -q -- --allow-exec && allow=(--allow-exec)

# hang.sh WORD LOG: `{}` unless the program on stdin holds WORD; then it
# logs "PID SID" and hangs, deaf to SIGTERM, SIGINT and SIGHUP.
cat >hang.sh <<'EOF'
#!/bin/sh
in=$(cat)
case $in in
*"$1"*)
	trap '' TERM INT HUP
	echo "$$ $(ps -o sid= -p $$ | tr -d ' ')" >>"$2"
	sleep 300 ;;
esac
echo '{}'
EOF
mkdir cases
for n in a b c; do
	op=add
	[ $n = c ] && op=mul
	cat >cases/$n.yaml <<EOF
case: sig/$n
program: |
  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %y = $op %x, 10 : tensor<3xi32>
    return %y
  }
inputs:
  x: [1, 2, 3]
EOF
done

# stop_when LOG LINES SIGNAL CMD...: run CMD (stdout, stderr: $out, $err),
# send SIGNAL once LOG has LINES lines (and 0.3 s more); $rc its exit
# code, $t the milliseconds from the signal to its exit (at most 10 s:
# then it is killed and the test fails).
stop_when() {
	local log=$1 n=$2 sig=$3 pid k=0 t0
	shift 3
	"$@" >"$out" 2>"$err" &
	pid=$!
	while [ "$(cat "$log" 2>/dev/null | wc -l)" -lt "$n" ] && [ $k -lt 300 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	if [ $k -ge 300 ]; then
		kill -KILL $pid
		wait $pid
		fail "no $n lines in $log after 30 s: $*"
	fi
	sleep 0.3
	t0=$(date +%s%N)
	kill -"$sig" $pid
	k=0
	while kill -0 $pid 2>/dev/null && [ $k -lt 200 ]; do
		sleep 0.05
		k=$((k + 1))
	done
	t=$((($(date +%s%N) - t0) / 1000000))
	if [ $k -ge 200 ]; then
		kill -KILL $pid
		wait $pid
		fail "still running 10 s after SIG$sig: $*"
	fi
	wait $pid
	rc=$?
}
# no_tool_left LOG: no process of the tools logged, nor of their sessions
no_tool_left() {
	local pid sid left k
	while read -r pid sid; do
		for k in 1 2 3 4 5 6 7 8 9 10; do
			left=$(ps -e -o sid=,stat=,pid=,args= |
				awk -v s="$sid" -v p="$pid" '($1 == s || $3 == p) && $2 !~ /^Z/')
			[ -z "$left" ] && break
			sleep 0.1
		done
		[ -z "$left" ] || fail "tool processes left: $left"
	done <"$1"
}
# within MS WHAT: the exit came within MS ms of the signal
within() {
	[ "$t" -lt "$1" ] || fail "$2: $t ms from the signal to the exit"
	echo "$2: $t ms from the signal to the exit"
}

# ---- check, sequential: a and b pass, c's tool hangs; SIGTERM
stop_when c.log 1 TERM "$B" check "$tmp/cases" --strategy "exec:sh $tmp/hang.sh mul $tmp/c.log" \
	--junit junit.xml
[ $rc = 143 ] || fail "check, SIGTERM: exit $rc"
within 2000 "check, SIGTERM"
has "[ok] $tmp/cases/a.yaml"
has "[ok] $tmp/cases/b.yaml"
hasnt "cases/c.yaml"
has "2 passed, 0 failed (interrupted by SIGTERM: 1 of 3 cases not checked)"
grep -q '^<testsuites name="bufdiff" tests="2" failures="0" errors="0" ' junit.xml ||
	fail "JUnit: $(head -2 junit.xml)"
grep -qF 'name="sig/b"' junit.xml || fail "JUnit: no sig/b"
no_tool_left c.log

# ---- the same with SIGINT (Ctrl-C), and --json: the summary on stderr
stop_when int.log 1 INT "$B" check "$tmp/cases" --strategy "exec:sh $tmp/hang.sh mul $tmp/int.log" \
	--junit junit2.xml --json
[ $rc = 130 ] || fail "check, SIGINT: exit $rc"
within 2000 "check, SIGINT"
grep -qxF "2 passed, 0 failed (interrupted by SIGINT: 1 of 3 cases not checked)" "$err" ||
	fail "check --json, SIGINT: no summary on stderr"
[ "$(grep -c '"verdict"' "$out")" = 2 ] || fail "check --json: not 2 cases"
grep -q ' tests="2" ' junit2.xml || fail "JUnit after SIGINT"
no_tool_left int.log

# ---- check -j 2: the workers end their tools too
stop_when j.log 1 TERM "$B" check "$tmp/cases" -j 2 \
	--strategy "exec:sh $tmp/hang.sh mul $tmp/j.log" --junit junit3.xml
[ $rc = 143 ] || fail "check -j 2, SIGTERM: exit $rc"
within 3000 "check -j 2, SIGTERM"
has "2 passed, 0 failed (interrupted by SIGTERM: 1 of 3 cases not checked)"
grep -q ' tests="2" ' junit3.xml || fail "JUnit after check -j 2"
no_tool_left j.log

# ---- run: the report with the interrupted call, then the signal
stop_when run.log 1 TERM "$B" run "$seed" --strategy "exec:sh $tmp/hang.sh add $tmp/run.log"
[ $rc = 143 ] || fail "run, SIGTERM: exit $rc"
within 2000 "run, SIGTERM"
has "  interrupted by SIGTERM"
has "SUMMARY: bufdiff: tool-error: interrupted by SIGTERM"
has "bufdiff: interrupted by SIGTERM"
no_tool_left run.log

# ---- fuzz: every program's tool hangs (timed out after 1 s) and each is
# reduced; SIGTERM mid-reduction (the log's second call is a candidate's).
# The smallest case so far is the repro; the summary comes out.
F=(fuzz --strategy "exec:sh $tmp/hang.sh @main $tmp/fz.log" --tool-timeout 1 --time 60)
stop_when fz.log 2 TERM "$B" "${F[@]}" --out fz
[ $rc = 143 ] || fail "fuzz, SIGTERM: exit $rc"
within 2000 "fuzz, SIGTERM mid-reduction"
has "seed 0: tool-error: timed out after 1 s"
grep -qx "seed 0: reduce: interrupted by SIGTERM at [0-9]* -> [0-9]* ops" "$err" ||
	fail "fuzz: no interrupted reduction"
has "seed 0: new bucket, repro written to fz/exec-0.yaml"
has "bufdiff fuzz: interrupted (SIGTERM) after 1 programs"
grep -q "^1 programs, 1 failures (1 tool errors), " "$out" || fail "fuzz: no summary"
grep -qxF '  - strategy: "exec:sh '"$tmp"'/hang.sh @main '"$tmp"'/fz.log"' fz/exec-0.yaml ||
	fail "fuzz: the repro has not the run"
no_tool_left fz.log
# with --json: the summary as JSON, interrupted
stop_when fzj.log 2 TERM "$B" fuzz --strategy "exec:sh $tmp/hang.sh @main $tmp/fzj.log" \
	--tool-timeout 1 --time 60 --out fzj --json
[ $rc = 143 ] || fail "fuzz --json, SIGTERM: exit $rc"
within 2000 "fuzz --json, SIGTERM"
field interrupted true
field programs 1
fieldj repros '["fzj/exec-0.yaml"]'
no_tool_left fzj.log

# ---- reduce: fuzz's repro names the tool (its run); SIGTERM after the
# original's call and one candidate's: the smallest so far is written
cp fz/exec-0.yaml repro.yaml
sed -i "s|$tmp/fz.log|$tmp/red.log|" repro.yaml
stop_when red.log 2 TERM "$B" reduce repro.yaml --tool-timeout 1 --out reduced.yaml "${allow[@]}"
[ $rc = 143 ] || fail "reduce, SIGTERM: exit $rc"
within 2000 "reduce, SIGTERM"
grep -qx "reduce: interrupted by SIGTERM: [0-9]* -> [0-9]* ops so far (the case has no results), [0-9]* candidates, [0-9.]* s" "$err" ||
	fail "reduce: no interrupted line"
grep -q "^case: " reduced.yaml || fail "reduce: nothing written"
no_tool_left red.log
exit 0
