#!/bin/sh
# gen-digest.sh GEN_DIGEST CC SRC BUILD PINNED: the generator gives the
# same programs whatever compiles it.  GEN_DIGEST (tests/tools/gen_digest.c,
# built by the build's compiler CC) prints the hash of seeds 1..500's
# programs; the same tool built by the other compiler (clang when CC is
# gcc, gcc otherwise) in BUILD/gen-digest-other must print the same, and
# both must print PINNED: change PINNED (tests/CMakeLists.txt) only when
# the generator changes on purpose.  Skipped (77) without the other
# compiler.
set -u
digest=$1 cc=$2 src=$3 build=$4 pinned=$5
case $(basename "$cc") in
*clang*) other=gcc ;;
*) other=clang ;;
esac
mine=$("$digest") || { echo "FAIL: $digest exited $?"; exit 1; }
[ "$mine" = "$pinned" ] || {
	echo "FAIL: $cc's programs hash to $mine, pinned $pinned (a generator change?)"
	exit 1
}
if ! command -v "$other" >/dev/null; then
	echo "SKIP: $other is not installed: $cc's digest $mine is the pinned one, not compared across compilers"
	exit 77
fi
dir=$build/gen-digest-other
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_COMPILER="$other" >"$build/gen-digest-other.log" 2>&1 &&
	cmake --build "$dir" --target gen_digest >>"$build/gen-digest-other.log" 2>&1 || {
	echo "FAIL: building gen_digest with $other (see $build/gen-digest-other.log):"
	tail -20 "$build/gen-digest-other.log"
	exit 1
}
theirs=$("$dir/tests/gen_digest") || { echo "FAIL: $other's gen_digest exited $?"; exit 1; }
[ "$theirs" = "$mine" ] || {
	echo "FAIL: the same seeds give other programs: $cc $mine, $other $theirs"
	exit 1
}
echo "gen-digest: $cc and $other: $mine"
