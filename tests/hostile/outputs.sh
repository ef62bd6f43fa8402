#!/usr/bin/env bash
# Lost outputs (docs/trust.md): a write that fails is exit 2 with the path
# and errno, never exit 0 with an empty file; a file is written under a
# temporary name and renamed, so a failure leaves the old file whole and
# no temporary behind.  /dev/full fails every write with ENOSPC; a file
# size limit (ulimit -f, SIGXFSZ ignored) fails a regular file's writes
# with EFBIG.
B=$1 S=$2
. "$S/tests/expect.sh"
seed=$S/cases/seed/old-input-still-needed.yaml
enospc="No space left on device"

# stdout on a full disk
: >"$out"
"$B" print "$seed" >/dev/full 2>"$err"; [ $? = 2 ] || fail "print > /dev/full: exit $?"
has "bufdiff: error: cannot write stdout: $enospc"
"$B" export "$seed" >/dev/full 2>"$err"; [ $? = 2 ] || fail "export > /dev/full"
has "bufdiff export: cannot write stdout: $enospc"
[ "$(wc -l <"$err")" = 1 ] || fail "more than one error line"
# (a write that failed inside an earlier flush leaves no errno to show)
"$B" check "$seed" --json >/dev/full 2>"$err"; [ $? = 2 ] || fail "check --json > /dev/full"
grep -qE "^bufdiff: error: cannot write stdout: ($enospc|a write to it failed)$" "$err" || fail "check --json > /dev/full: $(cat "$err")"
"$B" run "$seed" --json >/dev/full 2>"$err"; [ $? = 2 ] || fail "run --json > /dev/full"
grep -qE "^bufdiff: error: cannot write stdout: ($enospc|a write to it failed)$" "$err" || fail "run --json > /dev/full: $(cat "$err")"
# files named on the command line
expect 2 "$B" export "$seed" --out /dev/full
has "bufdiff export: cannot write /dev/full: $enospc"
expect 2 "$B" check "$seed" --junit /dev/full
has "bufdiff: cannot write /dev/full: $enospc"
expect 2 "$B" run "$seed" --memory-trace /dev/full
has "bufdiff: cannot write /dev/full: $enospc"
# a device is written in place, never replaced by a rename
expect 0 "$B" export "$seed" --out /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# a regular file over the size limit: the old file stays whole
limited() { (trap '' XFSZ; ulimit -f 1; exec "$@") >"$out" 2>"$err"; }
echo old >x.mlir
limited "$B" export "$seed" --out x.mlir
rc=$?
[ $rc = 2 ] || fail "export over the size limit: exit $rc"
has "bufdiff export: cannot write x.mlir: File too large"
[ "$(cat x.mlir)" = old ] || fail "x.mlir was changed by a failed write"
[ -z "$(ls | grep tmp-)" ] || fail "temporaries left: $(ls)"
limited "$B" check "$seed" --junit j.xml
[ $? = 2 ] || fail "junit over the size limit"
has "bufdiff: cannot write j.xml: File too large"
[ ! -e j.xml ] || fail "a short j.xml was left"
[ -z "$(ls | grep tmp-)" ] || fail "temporaries left: $(ls)"
# and a write that succeeds replaces the file, readable as fopen's would be
expect 0 "$B" export "$seed" --out x.mlir
grep -q "func.func" x.mlir || fail "x.mlir was not written"
[ "$(stat -c %a x.mlir)" = "$(umask -S >/dev/null; printf '%o' $((0666 & ~$(umask))))" ] ||
	fail "x.mlir has mode $(stat -c %a x.mlir)"
echo "outputs: ok"
