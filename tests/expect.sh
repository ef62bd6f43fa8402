# expect.sh: helpers the end-to-end test scripts source.  Each runs in a
# scratch directory of its own; $out and $err hold the last command's
# stdout and stderr.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
out=$tmp/out err=$tmp/err
fail() { echo "FAIL: $*"; cat "$out" "$err"; exit 1; }
expect() { # want-exit cmd...
	local want=$1
	shift
	"$@" >"$out" 2>"$err"
	got=$?
	[ "$got" = "$want" ] || fail "exit $got, expected $want: $*"
}
has() { grep -qxF -- "$1" "$out" "$err" || fail "missing line: $1"; }
hasnt() { ! grep -qF -- "$1" "$out" "$err" || fail "unexpected: $1"; }
json() { grep -qF -- "$1" "$out" || fail "missing in JSON: $1"; }
