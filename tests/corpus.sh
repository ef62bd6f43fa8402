#!/bin/sh
# The corpus: `bufdiff check CORPUS... --json`, each case must pass its
# own expectations, and every JSON object it prints (every case, run,
# violation, tool error) must hold to docs/report.schema.json; so must a
# small `fuzz --json` summary.  One check of the corpus serves both.
# $1: the bufdiff binary, $2: the source tree, then the corpus paths.
B=$1 S=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the project's own corpus: its cases may run the tools of tests/tools/
"$B" check "$@" --trust "$S/cases" --json >"$tmp/corpus.json"
rc=$?
# the cases that did not pass, as `check` says them without --json
python3 - "$tmp/corpus.json" <<'PY' || rc=1
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["status"] != "ok":
        print(f"[FAIL] {j['file']}: {j.get('message', '')}")
PY
"$B" fuzz --strategy inplace-all --count 20 --max-ops 6 --no-reduce --json \
	--out "$tmp/repros" >"$tmp/fuzz.json"
[ $? -le 1 ] || rc=1
python3 "$S/tests/schema.py" "$S/docs/report.schema.json" "$tmp/corpus.json"
v=$?
if [ $v = 77 ]; then
	echo "NOTE: the JSON was not validated (scripts/install-deps installs python3-jsonschema)"
elif [ $v != 0 ]; then
	rc=1
elif ! python3 "$S/tests/schema.py" "$S/docs/report.schema.json" --def fuzz_summary "$tmp/fuzz.json"; then
	rc=1
fi
exit $rc
