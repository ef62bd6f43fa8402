#!/bin/bash
# inproc.sh BUFDIFF SRC: mlir-opt-22's in-process worker (docs/external.md,
# "Routes") under SIGTERM and SIGINT: a call that hangs in the worker (its
# test hook BUFDIFF_INPROC_HANG: a program holding that text) ends when
# bufdiff is signalled, bufdiff exits 128 + the signal, and no worker is
# left; a worker that crashes mid-call is the tool's crash, and the next
# case's call gets a fresh worker.  Skipped (77) without mlir-opt-22 or a
# build with libmlir-22-dev.
set -u
B=$1 S=$2
[ -e "$(dirname "$B")/bufdiff_mlir.so" ] || { echo "SKIP: no bufdiff_mlir.so"; exit 77; }
command -v mlir-opt-22 >/dev/null || { echo "SKIP: no mlir-opt-22"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$S" || exit 1
case=cases/alias/copy-into-itself.yaml
fail=0
# the worker: bufdiff's child named bufdiff-mlir
worker() { pgrep -P "$1" -x bufdiff-mlir; }
for sig in TERM INT; do
	BUFDIFF_INPROC_HANG=copy-into-itself "$B" run "$case" --strategy mlir \
		--mlir-route in-process >"$tmp/out" 2>&1 &
	pid=$!
	w=
	for _ in $(seq 200); do
		w=$(worker $pid) && break
		sleep 0.05
	done
	[ -n "$w" ] || { echo "FAIL: SIG$sig: no worker started"; fail=1; }
	sleep 0.3
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc = $want ] || { echo "FAIL: SIG$sig: exit $rc, want $want"; fail=1; }
	grep -q "interrupted by SIG$sig" "$tmp/out" ||
		{ echo "FAIL: SIG$sig: no 'interrupted by SIG$sig'"; cat "$tmp/out"; fail=1; }
	sleep 0.2
	if [ -n "$w" ] && kill -0 "$w" 2>/dev/null; then
		echo "FAIL: SIG$sig: worker $w left"; kill -KILL "$w"; fail=1
	fi
done
# a crash, then the next case in the same bufdiff gets a fresh worker
out=$(BUFDIFF_INPROC_CRASH=copy-into-itself "$B" check "$case" \
	cases/alias/latent-equal-bytes.yaml --strategy mlir --mlir-route in-process 2>&1)
echo "$out" | grep -q "copy-into-itself.yaml: .*tool-error (killed by signal 11 (SIGSEGV)" ||
	{ echo "FAIL: the crash is not the tool's: $out"; fail=1; }
echo "$out" | grep -q "^\[ok\] cases/alias/latent-equal-bytes.yaml" ||
	{ echo "FAIL: the next case did not run: $out"; fail=1; }
[ $fail = 0 ] && echo "PASS: the in-process worker ends with bufdiff and restarts after a crash"
exit $fail
