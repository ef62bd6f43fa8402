#!/bin/sh
# check_cli.sh BUFDIFF SRC: `check` as a CI step (issue 13): the reason on
# each [FAIL] line, JUnit with the report, times and classnames per
# folder, a missing path and an empty selection as errors, -j N with the
# output of -j 1, --filter by name.
B=$1 S=$2
. "$S/tests/expect.sh"
mkdir -p "$tmp/c/seed" "$tmp/c/reports" "$tmp/empty"
cp "$S"/cases/seed/*.yaml "$tmp/c/seed/"
cp "$S/tests/reports/decisions-taken.yaml" "$S/tests/reports/trip-branch.yaml" "$tmp/c/reports/"
printf 'case: reports/bad\nprogram: |\n  func @main() {\n    return %%q\n  }\n' >"$tmp/c/reports/bad.yaml"
d=$tmp/c

expect 2 "$B" check "$d" --junit "$tmp/j.xml"
has "[ok] $d/reports/trip-branch.yaml"
has "[FAIL] $d/reports/decisions-taken.yaml: run 1 (inplace-all): decisions: y:new was not taken (y:x was): stale-read in %z at $d/reports/decisions-taken.yaml:6:5; culprits y:x (fix: y:x -> y:new)"
has "[FAIL] $d/reports/bad.yaml: 4:12: error: undefined value %q"
has "4 passed, 2 failed"
cp "$out" "$tmp/serial.out"
cp "$err" "$tmp/serial.err"
j=$tmp/j.xml
grep -qF '<testsuite name="bufdiff check" tests="6" failures="1" errors="1" time="' "$j" || fail "JUnit suite line"
grep -qF '<testcase classname="bufdiff.seed" name="seed/old-input-still-needed" file="'"$d"'/seed/old-input-still-needed.yaml" time="' "$j" || fail "JUnit classname per folder"
grep -qF '<testcase classname="bufdiff.reports" name="reports/decisions-taken"' "$j" || fail "JUnit classname"
grep -qF '<failure message="run 1 (inplace-all): decisions: y:new was not taken (y:x was): stale-read in %z at' "$j" || fail "JUnit failure message"
grep -qF 'decisions: y:new was not taken (y:x was)&#10;&#10;case reports/decisions-taken (' "$j" || fail "JUnit report in <failure>"
grep -qF '<system-out>case seed/old-input-still-needed (' "$j" || fail "JUnit <system-out>"
grep -qF '<error message="4:12: error: undefined value %q" type="error">4:12: error: undefined value %q&#10;&#10;' "$j" || fail "JUnit error with its diagnostic"

# -j 2: the same output, byte for byte, in path order
expect 2 "$B" check "$d" -j 2 --junit "$tmp/j2.xml"
cmp -s "$out" "$tmp/serial.out" || fail "-j 2 stdout differs from -j 1"
cmp -s "$err" "$tmp/serial.err" || fail "-j 2 stderr differs from -j 1"
sed 's/time="[^"]*"//g' "$tmp/j.xml" >"$tmp/j1.notime"
sed 's/time="[^"]*"//g' "$tmp/j2.xml" >"$tmp/j2.notime"
cmp -s "$tmp/j1.notime" "$tmp/j2.notime" || fail "-j 2 JUnit differs from -j 1"
expect 2 "$B" check "$d" -j 0
has "bufdiff check: --jobs wants a whole number in 1..256, got '0'"
expect 2 "$B" check "$d" -j
has "bufdiff check: option --jobs (-j) needs a value"

# a path that does not exist fails the run and is an error in the JUnit file
expect 2 "$B" check "$d/seed" "$tmp/no-such.yaml" --junit "$tmp/j3.xml"
has "[FAIL] $tmp/no-such.yaml: error: cannot open $tmp/no-such.yaml: No such file or directory"
has "3 passed, 1 failed"
grep -qF 'errors="1"' "$tmp/j3.xml" || fail "missing path not an error in JUnit"
# nothing to check is an error, not success
expect 2 "$B" check "$tmp/empty"
has "bufdiff: no case under the paths"
hasnt "0 passed, 0 failed"

# --filter: a glob or a substring of the case name or the path
expect 0 "$B" check "$d" --filter 'seed/*1024*'
has "[ok] $d/seed/old-input-1024-random.yaml"
has "[ok] $d/seed/old-input-1024.yaml"
has "2 passed, 0 failed"
expect 0 "$B" check "$d" --filter trip
has "[ok] $d/reports/trip-branch.yaml"
has "1 passed, 0 failed"
expect 2 "$B" check "$d" --filter nothing-is-called-this
has "bufdiff: no case under the paths matches 'nothing-is-called-this'"
expect 2 "$B" run "$d/seed/old-input-1024.yaml" --filter x
has "bufdiff run: option '--filter' is not valid here"
echo ok
