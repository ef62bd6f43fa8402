#!/bin/bash
# install.sh CMAKE BUILD: `cmake --install` into a scratch prefix (issue
# 25): bin/bufdiff runs from there; PREFIX/share/doc/bufdiff holds the
# README and docs/ with every relative link resolving inside it, the
# corpus, the example strategy and the tools the corpus's outside cases
# run; the installed corpus checks from another directory.
set -u
CMAKE=$1 BUILD=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$CMAKE" --install "$BUILD" --prefix "$t/p" >/dev/null || fail "cmake --install"
B=$t/p/bin/bufdiff D=$t/p/share/doc/bufdiff
"$B" --version | grep -q '^bufdiff ' || fail "bin/bufdiff --version"
"$B" help run | head -1 | grep -qx 'usage: bufdiff run CASE \[options\]' || fail "help run"
for f in README.md docs/cli.md docs/report.schema.json cases/seed/old-input-still-needed.yaml \
	bufferizer/external/single-use.py tests/tools/free-in-branch.sh; do
	[ -f "$D/$f" ] || fail "not installed: $f"
done
# the in-process route's module and its worker, beside each other
if [ -e "$BUILD/bufdiff_mlir.so" ]; then
	[ -f "$t/p/lib/bufdiff/bufdiff_mlir.so" ] || fail "not installed: lib/bufdiff/bufdiff_mlir.so"
	[ -x "$t/p/lib/bufdiff/bufdiff-mlir" ] || fail "not installed: lib/bufdiff/bufdiff-mlir"
fi
# the unwinder preloaded into the LLVM tools bufdiff runs (docs/external.md)
[ -f "$t/p/lib/bufdiff/bufdiff_unwind.so" ] || fail "not installed: lib/bufdiff/bufdiff_unwind.so"
# every relative link of the installed pages resolves in the install
python3 - "$D" <<'PY' || exit 1
import os, re, sys
root = sys.argv[1]
bad = []
pages = [os.path.join(root, "README.md")] + [
    os.path.join(d, f) for d, _, fs in os.walk(os.path.join(root, "docs"))
    for f in fs if f.endswith(".md")]
for page in pages:
    for link in re.findall(r"\]\(([^)\s]+)\)", open(page, encoding="utf-8").read()):
        if re.match(r"[a-z]+:", link) or link.startswith("#"):
            continue
        path = os.path.normpath(os.path.join(os.path.dirname(page), link.split("#")[0]))
        if not os.path.exists(path):
            bad.append(f"{os.path.relpath(page, root)}: {link}")
if bad:
    print("FAIL: broken links in the install:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"{len(pages)} pages, links resolve")
PY
# the installed corpus, from elsewhere: outside tools found (workdir:)
cd "$t" || exit 1
"$B" check "$D/cases/seed" "$D/cases/external/exec" --trust "$D/cases" >"$t/out" 2>&1 ||
	{ cat "$t/out"; fail "check of the installed corpus"; }
grep -q '^[0-9]* passed, 0 failed$' "$t/out" || { cat "$t/out"; fail "no summary"; }
echo installed
