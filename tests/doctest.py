#!/usr/bin/env python3
"""Run the command examples of README.md and docs/*.md and compare their
output with the doc (docs/testing.md, "Examples in the docs").

usage: doctest.py BUFDIFF REPO [--update] [DOC...]   (default: README.md and
every .md under docs/)

A ```console block holds commands (`$ CMD`, a trailing backslash continues
it on the next line) each followed by its output, stdout and stderr merged,
and `[exit N]` last when N is not 0.  In the output a line `...` matches any
lines, `<N>` any number, `<...>` any text within a line, and `<TMP>` and
`<REPO>` stand for the directory the commands run in and for REPO.  Each doc's commands run in order in
one temporary directory that links every top-level entry of REPO, with
BUFDIFF's directory first on PATH.  A block preceded by
`<!-- doctest: skip (REASON) -->` is counted, not run, and so is one after
`<!-- doctest: needs PROG... -->` when a PROG is not on PATH.  Every fence needs a
language (```text for output excerpts and synopses; ```sh is refused: use
```console), every repository path the doc names must exist, and every
bufdiff command line it names without running it must name a command and
flags that bufdiff has (tests/doctest_flags.py).

--update rewrites the outputs that differ with the real ones, keeping the
doc's lines that still match (elisions and placeholders).  Exit 0 when every
example matches, 1 otherwise."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from doctest_flags import Flags, commands_in

# Seconds a command may take (slower ones are marked skip); a sanitizer
# build's ctest raises it.
TIMEOUT = int(os.environ.get("BUFDIFF_DOCTEST_TIMEOUT", "30"))
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([^\s`]*)")
SKIP = re.compile(r"^\s*<!--\s*doctest:\s*skip\s*\((.*)\)\s*-->\s*$")
NEEDS = re.compile(r"^\s*<!--\s*doctest:\s*needs\s+([^>]+?)\s*-->\s*$")
SHELLS = {"sh", "bash", "shell", "shell-session", "zsh"}
TOP_DIRS = ("cases", "docs", "tests", "scripts", "interp", "oracle",
            "bufferizer", "bench", ".ci")
PATH_RE = re.compile(r"(?<![\w./-])((?:%s)/[\w./*+-]*)" % "|".join(
    re.escape(d) for d in TOP_DIRS))
LINK_RE = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


class Block:
    """One fenced block: its language, where its body lies in the file
    (0-based line indexes, end exclusive), its indentation, and the skip
    reason written before it (or None)."""

    def __init__(self, info, fence, start, end, indent, skip):
        self.info, self.fence = info, fence
        self.start, self.end, self.indent, self.skip = start, end, indent, skip


def read_blocks(lines):
    """The fenced blocks of a markdown file, in order."""
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, mark, info = m.group(1), m.group(2), m.group(3)
        j = i + 1
        while j < len(lines) and lines[j].strip() != mark:
            j += 1
        blocks.append(Block(info, i, i + 1, j, indent, skip_reason(lines, i)))
        i = j + 1
    return blocks


def skip_reason(lines, fence):
    """Why the block is not run: the reason of a `<!-- doctest: skip (...)
    -->` on the line before the fence (blank lines between allowed), or the
    first program of a `<!-- doctest: needs PROG... -->` there that is not
    on PATH; None to run it."""
    k = fence - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    line = lines[k] if k >= 0 else ""
    m = SKIP.match(line)
    if m:
        return m.group(1).strip()
    m = NEEDS.match(line)
    missing = [p for p in m.group(1).split() if not shutil.which(p)] if m else []
    return "%s is not installed" % missing[0] if missing else None


def body(lines, block):
    """The block's lines without the fence's indentation."""
    n = len(block.indent)
    return [l[n:] if l[:n].strip() == "" else l.lstrip()
            for l in lines[block.start:block.end]]


class Example:
    """One `$ CMD` of a console block and its expected output lines, with
    where that output lies in the file (0-based, end exclusive)."""

    def __init__(self, cmd, line, out, out_start, out_end):
        self.cmd, self.line, self.out = cmd, line, out
        self.out_start, self.out_end = out_start, out_end


def read_examples(lines, block):
    """Split a console block into its commands and their outputs."""
    text, examples, i = body(lines, block), [], 0
    while i < len(text):
        if not text[i].startswith("$ "):
            raise DocError(block.start + i, "output before the first `$ ` command")
        first, cmd = i, text[i][2:]
        while cmd.endswith("\\") and i + 1 < len(text):
            i += 1
            cmd = cmd + "\n" + text[i]
        i += 1
        out_start = i
        while i < len(text) and not text[i].startswith("$ "):
            i += 1
        examples.append(Example(cmd, block.start + first, text[out_start:i],
                                block.start + out_start, block.start + i))
    return examples


class DocError(Exception):
    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


# ---- Matching expected output (with elisions) against the real one.

def line_regex(pattern):
    """A doc output line as a regex: `<N>` a number, `<...>` any text."""
    parts = re.split(r"(<N>|<\.\.\.>)", pattern)
    rx = {"<N>": r"-?[0-9][0-9,]*(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?",
          "<...>": r".*"}
    return re.compile("".join(rx.get(p, re.escape(p)) for p in parts) + r"\Z")


def line_matches(pattern, actual):
    return line_regex(pattern).match(actual) is not None


def matches(expected, actual):
    """Whether the doc's lines match the real ones; a line `...` matches any
    number of lines (memoized over the two positions)."""
    memo = {}

    def at(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i].strip() == "...":
            r = any(at(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(expected[i], actual[j]) \
                and at(i + 1, j + 1)
        memo[i, j] = r
        return r
    return at(0, 0)


# ---- --update: the real output, keeping the doc's elisions that still fit.

def keep_line(pattern, actual):
    """The doc's line if it still matches (its placeholders stay), else the
    real one."""
    return pattern if line_matches(pattern, actual) else actual


def updated(expected, actual):
    """New doc lines for a mismatch: the segments between `...` lines are
    laid over the real output: the first at its start, the others where
    most of their lines match, the last from there to the end."""
    segs, cur = [], []
    for line in expected:
        if line.strip() == "...":
            segs.append(cur)
            cur = []
        else:
            cur.append(line)
    segs.append(cur)
    if len(segs) == 1:
        return [keep_line(p, a) for p, a in zip(expected, actual)] + \
            actual[len(expected):]
    return elided(segs, actual)


def elided(segs, actual):
    head, tail, mids = segs[0], segs[-1], segs[1:-1]
    out = [keep_line(p, a) for p, a in zip(head, actual)]
    lo = min(len(head), len(actual))
    for seg in mids:
        at = best_window(seg, actual, lo, len(actual) - len(seg))
        out.append("...")
        out += [keep_line(p, a) for p, a in zip(seg, actual[at:at + len(seg)])]
        lo = min(at + len(seg), len(actual))
    at = best_window(tail, actual, lo, len(actual) - len(tail), last=True) \
        if tail else len(actual)
    out.append("...")
    rest = actual[at:]
    return out + [keep_line(p, a) for p, a in zip(tail, rest)] + rest[len(tail):]


def best_window(seg, actual, lo, hi, last=False):
    """The start in lo..hi where the most lines of seg match in place (the
    last of equals for the tail, so that one matching nothing stays at the
    end)."""
    best, best_at = -1, lo
    for at in range(lo, max(hi, lo) + 1):
        score = sum(line_matches(p, a)
                    for p, a in zip(seg, actual[at:at + len(seg)]))
        if score > best or (last and score == best):
            best, best_at = score, at
    return best_at


# ---- Running.

def sandbox(repo):
    """A temporary directory that links each top-level entry of the repo,
    so relative paths resolve and new files land in the directory."""
    tmp = tempfile.mkdtemp(prefix="bufdiff-doctest-")
    for name in os.listdir(repo):
        if name != ".git":
            os.symlink(os.path.join(repo, name), os.path.join(tmp, name))
    return tmp


def run(cmd, dirs, env):
    """The command's merged output as lines (the sandbox's path written
    `<TMP>`, the repository's `<REPO>`), with `[exit N]` when N is not 0;
    None on a timeout."""
    cwd, repo = dirs
    try:
        p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    text = p.stdout.decode("utf-8", "replace").replace(cwd, "<TMP>")
    text = text.replace(repo, "<REPO>")
    out = text.split("\n")
    if out[-1] == "":
        out.pop()
    if p.returncode != 0:
        out.append("[exit %d]" % p.returncode)
    return out


def environment(bufdiff):
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(bufdiff)) + os.pathsep + \
        env.get("PATH", "")
    env.update(LC_ALL="C", TZ="UTC", COLUMNS="80")
    return env


# ---- Checking one doc.

class Tally:
    def __init__(self):
        self.ran = self.skipped = self.failed = 0


def check_doc(path, repo, env, update, tally, flags):
    """Check one doc's fences, commands and paths; with update, rewrite the
    outputs that differ.  Returns the lines to write back, or None."""
    rel = os.path.relpath(path, repo)
    lines = open(path, encoding="utf-8").read().split("\n")
    edits, tmp = [], None
    try:
        for block in read_blocks(lines):
            if not check_fence(rel, lines, block, tally):
                continue
            if block.skip is not None:
                print("%s:%d: skipped: %s" % (rel, block.fence + 1, block.skip))
                tally.skipped += sum(l.startswith("$ ") for l in body(lines, block))
                continue
            tmp = tmp or sandbox(repo)
            try:
                edits += run_block(rel, lines, block, (tmp, repo), env, tally)
            except DocError as e:
                fail(tally, rel, e.line, str(e))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    check_paths(rel, lines, repo, tally)
    check_indented(rel, lines, tally)
    for n, cmd in commands_in(lines, fenced_lines(lines), read_blocks(lines), body):
        problem = flags.problem(cmd)
        if problem:
            fail(tally, rel, n, "%s: %s" % (problem, cmd))
    return apply_edits(lines, edits) if update and edits else None


def check_fence(rel, lines, block, tally):
    """Whether the block is a console block to run; complains about a fence
    without a language, a shell block, or a command in a text block."""
    if block.info == "":
        fail(tally, rel, block.fence, "a fence without a language: "
             "```console to run it, ```text for output or a synopsis")
    elif block.info in SHELLS:
        fail(tally, rel, block.fence, "a ```%s block: write commands as "
             "```console with `$ ` (and a skip mark if it cannot run)" % block.info)
    elif block.info != "console":
        for k, line in enumerate(body(lines, block)):
            if line.startswith("$ "):
                fail(tally, rel, block.start + k, "a command in a ```%s block: "
                     "use ```console" % block.info)
    elif block.skip == "":
        fail(tally, rel, block.fence, "a skip without a reason")
    return block.info == "console"


def run_block(rel, lines, block, dirs, env, tally):
    """Run a console block's commands in dirs (the sandbox, the repo); the
    edits --update would make."""
    edits = []
    for ex in read_examples(lines, block):
        actual = run(ex.cmd, dirs, env)
        tally.ran += 1
        if actual is None:
            fail(tally, rel, ex.line, "over %d s: mark the block skip with a "
                 "reason, or show a smaller example: $ %s" % (TIMEOUT, ex.cmd))
        elif not matches(ex.out, actual):
            fail(tally, rel, ex.line, "the output differs: $ %s\n%s" %
                 (ex.cmd, diff(ex.out, actual)))
            new = [block.indent + l if l else l for l in updated(ex.out, actual)]
            edits.append((ex.out_start, ex.out_end, new))
    return edits


def diff(expected, actual):
    import difflib
    d = difflib.unified_diff(expected, actual, "doc", "real", lineterm="", n=2)
    return "\n".join("    " + l for l in d)


def apply_edits(lines, edits):
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = new
    return lines


def fail(tally, rel, line, message):
    tally.failed += 1
    print("%s:%d: %s" % (rel, line + 1, message))


def check_indented(rel, lines, tally):
    """An indented code block (four spaces after a paragraph, not in a
    list) hides its commands from this test: fences only."""
    in_fence = fenced_lines(lines)
    for n in range(2, len(lines)):
        para = lines[n - 2]
        if n in in_fence or lines[n - 1].strip() or not lines[n].startswith("    "):
            continue
        if para.strip() and not para[0].isspace() and \
                not re.match(r"([-*+|]|[0-9]+\.)\s", para):
            fail(tally, rel, n, "an indented code block: fence it "
                 "(```console or ```text)")


def fenced_lines(lines):
    """The indexes of every fence line and fenced line."""
    inside = set()
    for b in read_blocks(lines):
        inside.update(range(b.fence, b.end + 1))
    return inside


# ---- Paths the doc names.

def check_paths(rel, lines, repo, tally):
    """Every repository path named outside the console blocks (which run,
    and may name the files they write), and every relative link of the
    prose, exists; a path with a placeholder (`NAME`, `*`, `N`) is a
    pattern, not a file."""
    in_fence, consoles = fenced_lines(lines), set()
    for b in read_blocks(lines):
        if b.info == "console":
            consoles.update(range(b.fence, b.end + 1))
    base = os.path.dirname(os.path.join(repo, rel))
    for n, line in enumerate(lines):
        if n in consoles:
            continue
        for m in PATH_RE.finditer(line):
            if not exists(repo, m.group(1)) and not is_pattern(line, m):
                fail(tally, rel, n, "names %s, which does not exist" % m.group(1))
        for m in LINK_RE.finditer(line if n not in in_fence else ""):
            target = m.group(1)
            if "://" not in target and not target.startswith("mailto:") and \
                    not os.path.exists(os.path.join(base, target)):
                fail(tally, rel, n, "links to %s, which does not exist" % target)


def exists(repo, path):
    """The path, or the case it names without its .yaml."""
    full = os.path.join(repo, path.rstrip(".,-"))
    return os.path.exists(full) or os.path.exists(full + ".yaml")


def is_pattern(line, m):
    """A path written with a placeholder: a capitalized part (NAME, N,
    CLASS), or a glob or brace right after it."""
    path, after = m.group(1), line[m.end():m.end() + 1]
    if "*" in path or after in ("{", "<", "$", "?", "["):
        return True
    stems = re.split(r"[/._-]", path)
    return any(re.fullmatch(r"[A-Z]+", s) and s != "README" for s in stems)


def docs(repo, names):
    if names:
        return [os.path.abspath(n) for n in names]
    return [os.path.join(repo, "README.md")] + \
        sorted(glob.glob(os.path.join(repo, "docs", "**", "*.md"), recursive=True))


def main(argv):
    args = [a for a in argv[1:] if a != "--update"]
    update = len(args) != len(argv) - 1
    if len(args) < 2:
        print(__doc__)
        return 2
    bufdiff, repo = args[0], os.path.abspath(args[1])
    env, tally, flags = environment(bufdiff), Tally(), Flags(bufdiff)
    for path in docs(repo, args[2:]):
        new = check_doc(path, repo, env, update, tally, flags)
        if new is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(new))
            print("updated %s" % os.path.relpath(path, repo))
    print("doctest: %d commands ran, %d skipped (marked), %d failures" %
          (tally.ran, tally.skipped, tally.failed))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
