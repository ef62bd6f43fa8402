#!/bin/bash
# tools.sh BUFDIFF SRC: outside tools that misbehave against their
# containment (issue 24 item 3): a setsid grandchild that outlives its tool,
# a descendant that keeps stdout open, answers over the size cap, an answer
# that is slow to read, a tool that ignores SIGTERM.  The tools are shell
# scripts written here, given on the command line (--strategy exec:..., the
# user's own: no case file names a command).  Each writes the ids of its
# processes to files, and after each call none of them may be left.
set -u
B=$1 S=$2
seed=$S/cases/seed/old-input-still-needed.yaml
. "$S/tests/expect.sh"
# Should a test fail, no session a tool logged survives it (the setsid
# ones lead their own: their pid is their session's id).
trap 'rc=$?; [ $rc = 0 ] || for f in "$tmp"/*.pid "$tmp"/*.sid; do
	[ -s "$f" ] && pkill -KILL -s "$(cat "$f")"; done; rm -rf "$tmp"' EXIT

ms() { echo $((($(date +%s%N) - start) / 1000000)); }
# gone PID...: each process is gone (or a zombie, about to be reaped)
gone() {
	local p st k
	for p; do
		for k in 1 2 3 4 5 6 7 8 9 10; do
			st=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$p/stat" 2>/dev/null)
			[ -z "$st" ] || [ "$st" = Z ] && break
			sleep 0.1
		done
		[ -z "$st" ] || [ "$st" = Z ] || fail "process $p survived ($st)"
	done
}
# session_empty SID: no live process has session id SID
session_empty() {
	local left
	left=$(ps -e -o sid=,stat=,pid=,args= | awk -v s="$1" '$1 == s && $2 !~ /^Z/')
	[ -z "$left" ] || fail "processes left in session $1: $left"
}

# ---- a setsid grandchild: the tool answers after 0.3 s; its grandchild
# leaves the session, keeps stdout open, and would touch a file 5 s later.
# The call is an answer in about 0.5 s (well under 4 s, let alone the
# 10 s limit); the grandchild is dead when bufdiff exits, so the file
# never appears.
cat >setsid.sh <<'EOF'
#!/bin/sh
ps -o sid= -p $$ | tr -d ' ' >"$1.sid"
(setsid sh -c 'echo $$ >"$1.pid"; sleep 5; touch "$1"' sh "$1" &)
sleep 0.3
echo '{}'
EOF
start=$(date +%s%N)
expect 0 "$B" run "$seed" --strategy "exec:sh $tmp/setsid.sh $tmp/late" --tool-timeout 10
t=$(ms)
[ "$t" -lt 4000 ] || fail "the setsid tool's call took $t ms"
echo "a setsid grandchild holding stdout: the run took $t ms"
has "run 1: exec:sh $tmp/setsid.sh $tmp/late, schedule sync: agree (as expected)"
has "  {}"
[ -s late.pid ] && [ -s late.sid ] || fail "the tool wrote no ids"
[ "$(cat late.pid)" != "$(cat late.sid)" ] || fail "the grandchild did not leave the session"
gone "$(cat late.pid)"
session_empty "$(cat late.sid)"
session_empty "$(cat late.pid)"
[ ! -e late ] || fail "the setsid grandchild outlived the call and wrote"
# the same in check, with --json: the tool object's status
expect 0 "$B" check "$seed" --strategy "exec:sh $tmp/setsid.sh $tmp/late2" --json
field runs.4.verdict agree
gone "$(cat late2.pid)"

# ---- the answer comes from a descendant after the tool exited, which then
# keeps stdout open: what it wrote within the grace (0.2 s) is the answer
cat >daemon.sh <<'EOF'
#!/bin/sh
(echo $$ >"$1"; sleep 0.05; echo '{"plan": {"y": "new"}}'; exec sleep 30) &
EOF
start=$(date +%s%N)
expect 0 "$B" run "$seed" --strategy "exec:sh $tmp/daemon.sh $tmp/daemon.pid"
t=$(ms)
[ "$t" -lt 3000 ] || fail "the daemon's call took $t ms"
has '  {"plan": {"y": "new"}}'
gone "$(cat daemon.pid)"

# ---- a double fork that closes stdout and lingers: killed with the call
cat >linger.sh <<'EOF'
#!/bin/sh
(setsid sh -c 'echo $$ >"$1"; exec sleep 30' sh "$1" >/dev/null 2>&1 </dev/null &)
while [ ! -s "$1" ]; do sleep 0.01; done
echo '{}'
EOF
expect 0 "$B" run "$seed" --strategy "exec:sh $tmp/linger.sh $tmp/linger.pid"
gone "$(cat linger.pid)"

# ---- answers over the caps: tool-errors with the cap in the status
start=$(date +%s%N)
expect 1 "$B" run "$seed" --strategy "exec:yes '{}'"
has "run 1: exec:yes '{}', schedule sync: tool-error"
has "  killed: stdout over 67108864 bytes"
has "SUMMARY: bufdiff: tool-error: killed: stdout over 67108864 bytes"
expect 1 "$B" run "$seed" --strategy "exec:yes 'fake-tool: error' >&2" --json
field runs.0.verdict tool-error
field runs.0.tool.status "killed: stderr over 16777216 bytes"
echo "64 MiB of stdout and 16 MiB of stderr, cut: $(ms) ms"

# ---- an answer slow to read: 300,000 plan keys under --tool-timeout 2.
# The time limit covers reading it: a tool-error within the limit (plus
# the YAML scan), never the minutes a quadratic key check took.  (With a
# linear reader the first unknown name ends it sooner.)
awk 'BEGIN { printf "{\"plan\": {"; for (i = 0; i < 300000; i++)
	printf "%s\"k%d\": \"new\"", i ? ", " : "", i; print "}}" }' >keys.json
start=$(date +%s%N)
expect 1 "$B" run "$seed" --strategy "exec:cat $tmp/keys.json" --tool-timeout 2
t=$(ms)
[ "$t" -lt 10000 ] || fail "reading 300,000 keys took $t ms"
echo "300,000 plan keys under --tool-timeout 2: the run took $t ms"
grep -qxF "  timed out after 2 s" "$out" || grep -qxF "  answer: 1:11: unknown value %k0" "$out" ||
	fail "300,000 keys: no timeout, no answer error"

# ---- a tool that ignores SIGTERM and hangs: timed out, and gone
cat >stubborn.sh <<'EOF'
#!/bin/sh
trap '' TERM HUP INT
ps -o sid= -p $$ | tr -d ' ' >"$1.sid"
sh -c 'trap "" TERM; echo $$ >"$1"; exec sleep 30' sh "$1" &
sleep 30
EOF
start=$(date +%s%N)
expect 1 "$B" run "$seed" --strategy "exec:sh $tmp/stubborn.sh $tmp/stubborn.pid" --tool-timeout 0.5
t=$(ms)
[ "$t" -lt 3000 ] || fail "the stubborn tool took $t ms"
has "  timed out after 0.5 s"
gone "$(cat stubborn.pid)"
session_empty "$(cat stubborn.pid.sid)"
exit 0
