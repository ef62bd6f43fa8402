# expect.sh: helpers the end-to-end test scripts source.  Each runs in a
# scratch directory of its own; $out and $err hold the last command's
# stdout and stderr.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
out=$tmp/out err=$tmp/err
# need_native_22: exit 77 (ctest skip) without what `bufdiff native` runs
need_native_22() {
	if ! command -v mlir-opt-22 >/dev/null || ! command -v mlir-runner-22 >/dev/null ||
	   ! ls /usr/lib/llvm-22/lib/libmlir_c_runner_utils.so* >/dev/null 2>&1; then
		echo "SKIP: mlir-opt-22, mlir-runner-22 or its runtime libraries not installed"
		exit 77
	fi
}
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
contains() { grep -qF -- "$1" "$out" || fail "missing in stdout: $1"; }
# The JSON on stdout, by field (tests/tools/jfield.py: PATH is KEY.INDEX..,
# KEY=VALUE picks a list's element), never by substring of its text:
# field PATH WANT: the value's text (a string's own, else compact JSON) is WANT;
# fieldj PATH JSON: the value equals JSON, parsed (key order and spacing
# do not matter).
jfield=${S:-${src:-}}/tests/tools/jfield.py
field() {
	got=$(python3 "$jfield" "$out" "$1") || fail "no field $1 in the JSON"
	[ "$got" = "$2" ] || fail "field $1 is '$got', expected '$2'"
}
fieldj() {
	got=$(python3 "$jfield" "$out" "$1" "$2" 2>&1) || fail "$got"
}
# fields PATH KEY=JSON...: fieldj PATH.KEY JSON for each ('' for the top)
fields() {
	fpath=${1:+$1.}
	shift
	for kv; do fieldj "$fpath${kv%%=*}" "${kv#*=}"; done
}
# fieldstart PATH PREFIX: the value's text starts with PREFIX
fieldstart() {
	got=$(python3 "$jfield" "$out" "$1") || fail "no field $1 in the JSON"
	case $got in
	"$2"*) ;;
	*) fail "field $1 is '$got', expected it to start with '$2'" ;;
	esac
}
# hasfield PATH: the JSON has a value at PATH, whatever it is
hasfield() {
	python3 "$jfield" "$out" "$1" >/dev/null || fail "no field $1 in the JSON"
}
