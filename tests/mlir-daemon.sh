#!/bin/bash
# mlir-daemon.sh BUFDIFF SRCDIR: BUFDIFF_MLIR_DAEMON=1 (the MLIR worker
# across commands, docs/external.md) answers as a private worker does:
# the same output for run, check -j 2, a crash of MLIR and a call past its
# time limit; one daemon for many commands; none in a directory others may
# enter; it ends when its socket goes.  Skipped (77) without the
# in-process route (libmlir-22-dev at build time) or mlir-opt-22.
set -u
bufdiff=$1 S=$2
. "$S/tests/expect.sh"
command -v mlir-opt-22 >/dev/null || { echo "SKIP: no mlir-opt-22"; exit 77; }
c=$S/cases/seed/old-input-still-needed.yaml
export BUFDIFF_MLIR_ROUTE=in-process
if ! "$bufdiff" run "$c" --strategy mlir >/dev/null 2>"$tmp/e" ||
   grep -q "in-process" "$tmp/e"; then
	echo "SKIP: no in-process route in this build"
	exit 77
fi
dir=$tmp/daemon
export BUFDIFF_MLIR_DAEMON_DIR=$dir
# the daemons (not their forks: a fork's parent is a daemon)
daemons() {
	local all p
	all=$(pgrep -f -- "bufdiff-mlir --daemon $dir/")
	for p in $all; do
		grep -qx -- "$(ps -o ppid= -p "$p" | tr -d ' ')" <<<"$all" || echo "$p"
	done
}
# the same bytes through a private worker and through the daemon
same() { # label, then the command's arguments
	local what=$1
	shift
	BUFDIFF_MLIR_DAEMON= "$bufdiff" "$@" >"$tmp/a" 2>&1
	local ra=$?
	BUFDIFF_MLIR_DAEMON=1 "$bufdiff" "$@" >"$tmp/b" 2>&1
	local rb=$?
	if [ $ra != $rb ] || ! cmp -s "$tmp/a" "$tmp/b"; then
		echo "FAIL: $what: exit $ra without the daemon, $rb with it:"
		diff "$tmp/a" "$tmp/b" | head -20
		exit 1
	fi
}
same "run" run "$c" --strategy mlir
[ -S "$(ls "$dir"/mlir-*.sock)" ] || fail "no socket in $dir"
first=$(daemons)
[ -n "$first" ] && [ "$(echo "$first" | wc -l)" = 1 ] || fail "not one daemon: $first"
same "run --json" run "$c" --strategy mlir --json
same "check -j 2" check "$S/cases/seed" "$S/cases/ops" --trust "$S/cases" \
	--strategy mlir -j 2
same "pipeline" run "$c" --strategy mlir-pipeline
[ "$(daemons)" = "$first" ] || fail "another daemon started: $(daemons)"
# MLIR crashing on the program: the same tool-error, and the daemon lives
export BUFDIFF_INPROC_CRASH="arith.constant 10"
same "a crash" run "$c" --strategy mlir
grep -q "SIGSEGV" "$tmp/b" || { cat "$tmp/b"; fail "the crash is not reported"; }
unset BUFDIFF_INPROC_CRASH
# past the time limit: the session is killed, the next command still served
export BUFDIFF_INPROC_HANG="arith.constant 10"
same "a hang" run "$c" --strategy mlir --tool-timeout 1
grep -q "timed out\|timeout" "$tmp/b" || { cat "$tmp/b"; fail "the timeout is not reported"; }
# (and it is the daemon's server that hangs: the command has no worker
# of its own meanwhile)
BUFDIFF_MLIR_DAEMON=1 "$bufdiff" run "$c" --strategy mlir --tool-timeout 3 \
	>/dev/null 2>&1 &
bg=$!
sleep 1.5
[ -z "$(pgrep -P "$bg")" ] || fail "the command started a worker of its own"
wait
unset BUFDIFF_INPROC_HANG
same "run after a hang" run "$c" --strategy mlir
[ "$(daemons)" = "$first" ] || fail "the daemon did not survive: $(daemons)"
# no server left behind: the hung one was killed, only the warm one serves
sleep 1.5
[ "$(pgrep -P "$first" | wc -l)" -le 1 ] || fail "servers left: $(pgrep -P "$first")"
# the socket removed: the daemon ends (it looks every second)
rm -rf "$dir"
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -z "$(daemons)" ] && break
	sleep 0.5
done
[ -z "$(daemons)" ] || fail "the daemon outlived its socket"
# a directory others may enter is not used: a private worker answers
mkdir -m 0755 "$dir"
same "an open directory" run "$c" --strategy mlir
[ -z "$(ls -A "$dir")" ] && [ -z "$(daemons)" ] || fail "a daemon in an open directory"
rmdir "$dir"
echo "mlir-daemon: ok"
