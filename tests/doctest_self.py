#!/usr/bin/env python3
"""Check tests/doctest.py on small docs whose verdict is known: each must
give exactly its failures (by message), and --update must write exactly
the doc it should.

usage: doctest_self.py BUFDIFF REPO   (REPO is unused: the docs here live in
a temporary repository of their own)."""
import contextlib
import io
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doctest  # noqa: E402  (tests/doctest.py, not the standard module)

F = "```"

# (name, doc, the failure messages expected, in order, by their start)
CASES = [
    ("match", F + "console\n$ echo hello\nhello\n" + F + "\n", []),
    ("differs", F + "console\n$ echo hello\nhullo\n" + F + "\n",
     ["the output differs: $ echo hello"]),
    ("exit shown", F + "console\n$ echo x; exit 3\nx\n[exit 3]\n" + F + "\n", []),
    ("exit hidden", F + "console\n$ echo x; exit 3\nx\n" + F + "\n",
     ["the output differs"]),
    ("two commands share the directory",
     F + "console\n$ echo a >f\n$ cat f\na\n" + F + "\n", []),
    ("continued line", F + "console\n$ echo a \\\n  b\na b\n" + F + "\n", []),
    ("elision", F + "console\n$ printf '1\\n2\\n3\\n4\\n'\n1\n...\n4\n" + F + "\n", []),
    ("elision of nothing", F + "console\n$ printf '1\\n4\\n'\n1\n...\n4\n" + F + "\n", []),
    ("elision is no wildcard at the end",
     F + "console\n$ printf '1\\n2\\n3\\n'\n1\n...\n2\n" + F + "\n",
     ["the output differs"]),
    ("numbers", F + "console\n$ echo '0.25 s (4,000/s)'\n<N> s (<N>/s)\n" + F + "\n", []),
    ("a number is not a word", F + "console\n$ echo 'x s'\n<N> s\n" + F + "\n",
     ["the output differs"]),
    ("any text", F + "console\n$ echo 'abc def'\nabc <...>\n" + F + "\n", []),
    ("the directory", F + "console\n$ pwd\n<TMP>\n" + F + "\n", []),
    ("the repository", F + "console\n$ realpath cases\n<REPO>/cases\n" + F + "\n", []),
    ("one bad block, the next still runs", F + "console\nhello\n" + F + "\n"
     + F + "console\n$ echo a\nb\n" + F + "\n",
     ["output before the first `$ ` command", "the output differs"]),
    ("skip", "<!-- doctest: skip (slow) -->\n" + F + "console\n$ false\n" + F + "\n", []),
    ("skip without a reason", "<!-- doctest: skip () -->\n" + F + "console\n$ false\n"
     + F + "\n", ["a skip without a reason"]),
    ("needs a missing program", "<!-- doctest: needs no-such-program-25 -->\n"
     + F + "console\n$ no-such-program-25\n" + F + "\n", []),
    ("needs a present program", "<!-- doctest: needs sh -->\n"
     + F + "console\n$ echo a\nb\n" + F + "\n", ["the output differs"]),
    ("sh block", F + "sh\nbufdiff run x\n" + F + "\n", ["a ```sh block"]),
    ("no language", F + "\nbufdiff run x\n" + F + "\n", ["a fence without a language"]),
    ("command in text", F + "text\n$ bufdiff run x\n" + F + "\n",
     ["a command in a ```text block"]),
    ("output before a command", F + "console\nhello\n" + F + "\n",
     ["output before the first `$ ` command"]),
    ("paths", "See `cases/here.yaml`, cases/here, `cases/*.yaml`, "
     "`tests/test_NAME.c`, [it](../cases/here.yaml).\n", []),
    ("missing path", "See `cases/gone.yaml`.\n",
     ["names cases/gone.yaml, which does not exist"]),
    ("missing path in a file", F + "yaml\n# from cases/gone.yaml\n" + F + "\n",
     ["names cases/gone.yaml, which does not exist"]),
    ("a path a command writes", F + "console\n$ echo > /dev/null cases/new.yaml\n" + F + "\n", []),
    ("missing link", "See [it](gone.md).\n", ["links to gone.md, which does not exist"]),
    ("flags", "Run `bufdiff run CASE --strategy S --json | jq .`, `bufdiff help fuzz`, "
     "`bufdiff CMD --help`.\n" + F + "text\nbufdiff fuzz --strategy S [--count K | --time SEC]\n"
     "             [--out DIR]\n" + F + "\n", []),
    ("no such flag", "Run `bufdiff run CASE --no-such-flag`.\n",
     ["bufdiff run takes no --no-such-flag"]),
    ("no such command", "Run `bufdiff frobnicate CASE`.\n",
     ["bufdiff has no command frobnicate"]),
    ("a synopsis continued", F + "text\nbufdiff fuzz --strategy S\n     [--no-such]\n" + F + "\n",
     ["bufdiff fuzz takes no --no-such"]),
    ("a skipped command", "<!-- doctest: skip (slow) -->\n" + F
     + "console\n$ bufdiff check cases/ --strategy one-shot \\\n    --no-such 2\n" + F + "\n",
     ["bufdiff check takes no --no-such"]),
    ("indented block", "Run\n\n    bufdiff run x\n", ["an indented code block"]),
    ("indented in a list", "- Run\n\n    more of the item\n", []),
]

# (name, doc, the doc --update must write)
UPDATES = [
    ("a changed line", F + "console\n$ printf 'a\\nB\\nc\\n'\na\nb\nc\n" + F + "\n",
     F + "console\n$ printf 'a\\nB\\nc\\n'\na\nB\nc\n" + F + "\n"),
    ("placeholders stay", F + "console\n$ echo 'x 0.5 s'; echo new\nx <N> s\n" + F + "\n",
     F + "console\n$ echo 'x 0.5 s'; echo new\nx <N> s\nnew\n" + F + "\n"),
    ("the elision stays", F + "console\n$ printf '1\\n2\\n3\\n4\\n'\n1\n...\n5\n" + F + "\n",
     F + "console\n$ printf '1\\n2\\n3\\n4\\n'\n1\n...\n4\n" + F + "\n"),
    ("the tail grows", F + "console\n$ printf '1\\n2\\n3\\n4\\n'\n...\n2\n3\n" + F + "\n",
     F + "console\n$ printf '1\\n2\\n3\\n4\\n'\n...\n2\n3\n4\n" + F + "\n"),
    ("indented", "- a\n\n  " + F + "console\n  $ echo 1; exit 2\n  " + F + "\n",
     "- a\n\n  " + F + "console\n  $ echo 1; exit 2\n  1\n  [exit 2]\n  " + F + "\n"),
]


def check(bufdiff, repo, text, update=False):
    """doctest.py's failure messages on the doc (docs/t.md of repo), and
    the doc after it."""
    path = os.path.join(repo, "docs", "t.md")
    with open(path, "w") as f:
        f.write(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = ["doctest.py", bufdiff, repo, path] + (["--update"] if update else [])
        doctest.main(argv)
    fails = [l.split(": ", 1)[1] for l in out.getvalue().splitlines()
             if l.startswith("docs/t.md:") and ": skipped: " not in l]
    return fails, open(path).read()


def main(argv):
    bufdiff, bad = argv[1], 0
    repo = tempfile.mkdtemp(prefix="bufdiff-doctest-self-")
    try:
        os.makedirs(os.path.join(repo, "docs"))
        os.makedirs(os.path.join(repo, "cases"))
        open(os.path.join(repo, "cases", "here.yaml"), "w").close()
        for name, text, want in CASES:
            fails, _ = check(bufdiff, repo, text)
            if len(fails) != len(want) or \
                    any(not f.startswith(w) for f, w in zip(fails, want)):
                bad += 1
                print("[FAIL] %s: want %r, got %r" % (name, want, fails))
        bad += check_timeout(bufdiff, repo)
        for name, text, want in UPDATES:
            _, new = check(bufdiff, repo, text, update=True)
            again, _ = check(bufdiff, repo, new)
            if new != want or again:
                bad += 1
                print("[FAIL] update %s: wrote %r, then %r" % (name, new, again))
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    n = len(CASES) + len(UPDATES) + 1
    print("doctest-self: %d passed, %d failed" % (n - bad, bad))
    return 1 if bad else 0


def check_timeout(bufdiff, repo):
    """A command over the limit is a failure that says so."""
    saved, doctest.TIMEOUT = doctest.TIMEOUT, 1
    try:
        fails, _ = check(bufdiff, repo, F + "console\n$ sleep 5\n" + F + "\n")
    finally:
        doctest.TIMEOUT = saved
    if len(fails) == 1 and fails[0].startswith("over 1 s"):
        return 0
    print("[FAIL] timeout: got %r" % fails)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
