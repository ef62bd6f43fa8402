"""For tests/doctest.py: the bufdiff command lines a doc names without
running them (in backticks in the prose, in ```text synopses, in blocks
marked skip) must name a command bufdiff has and flags that command takes,
as `bufdiff --help` and `bufdiff help CMD` list them."""
import re
import subprocess

SPAN = re.compile(r"`([^`]+)`")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# Where one command of a shell line ends and another program's begins.
END = re.compile(r"\s(?:\||;|&&|\|\||>|<)\s|[|;)]|\s#")


class Flags:
    """The commands and flags of one bufdiff binary, read from its help."""

    def __init__(self, bufdiff):
        self.bufdiff, self.flags = bufdiff, {}
        text = self.help("--help")
        part = text.split("commands:", 1)[-1]
        self.commands = set(re.findall(r"^  ([a-z][a-z-]*) ", part, re.M))
        self.global_flags = set(FLAG.findall(text))

    def help(self, *args):
        p = subprocess.run([self.bufdiff] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        return p.stdout.decode("utf-8", "replace")

    def of(self, command):
        if command not in self.flags:
            flags = set(FLAG.findall(self.help("help", command)))
            self.flags[command] = flags | {"--help"}
        return self.flags[command]

    def problem(self, line):
        """What is wrong with the bufdiff command at the start of line (the
        rest of the shell line ignored), or None."""
        line = re.sub(r"\[[^]]*\]", lambda m: m.group(0).replace("|", " "), line)
        words = END.split(line, 1)[0].split()
        if len(words) < 2 or not re.fullmatch(r"[a-z][a-z-]*", words[1]):
            return None  # `bufdiff --version`, `bufdiff CMD ...`: a pattern
        cmd = words[1]
        if cmd not in self.commands:
            return "bufdiff has no command %s" % cmd
        if cmd == "help":
            return None
        known = self.of(cmd)
        for flag in FLAG.findall(" ".join(words[2:])):
            if flag not in known:
                return "bufdiff %s takes no %s" % (cmd, flag)
        return None


def commands_in(lines, fenced, blocks, body):
    """(line index, text) of every bufdiff command the doc names without
    running it: backtick spans of the prose that start with `bufdiff `, and
    the lines that start with it (or `$ bufdiff `) in ```text blocks and
    in blocks marked skip."""
    for n, line in enumerate(lines):
        if n not in fenced:
            for m in SPAN.finditer(line):
                if m.group(1).startswith("bufdiff "):
                    yield n, m.group(1)
    for b in blocks:
        if b.info == "text" or (b.info == "console" and b.skip is not None):
            yield from block_commands(body(lines, b), b.start)


def block_commands(text, start):
    """The bufdiff lines of a block, each with the indented lines after it
    (a synopsis's continuation) or its backslash continuations."""
    cur = None
    for k, line in enumerate(text + [""]):
        line = line[2:] if line.startswith("$ ") else line
        if cur and (line[:1].isspace() or cur[1].endswith("\\")):
            cur = (cur[0], cur[1].rstrip("\\") + " " + line.strip())
            continue
        if cur:
            yield cur
        cur = (start + k, line) if line.startswith("bufdiff ") else None
