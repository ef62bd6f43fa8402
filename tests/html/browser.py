#!/usr/bin/env python3
"""The --html pages in a real browser (docs/html.md): headless Chromium,
started here and stopped here, driven over --remote-debugging-pipe (the
DevTools protocol on fds 3 and 4; python3's standard library only).

It loads the pages of the seed case, an async case, a loop case, a case
whose name holds '<' and control characters, a case whose name and
directory hold `"><img onerror=...>` and `<script>` (no script runs, no
element appears, the title is the name as text), a `check --html` index and
the cache lab; checks the panels are in the DOM after the script ran
(#ready), that no script error or console error happened (the pages'
window.onerror hook writes into #errors; Runtime.exceptionThrown and
console errors are caught here too), and that each renders (a screenshot
of the window's size, not blank: several times the bytes of an empty
page's screenshot); clicks the lab's step button and checks
the hit rate against `bufdiff lab cache`.

usage: browser.py BUFDIFF SRCDIR.  Fails (exit 1) when chromium is
missing: scripts/install-deps installs it.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

W, H = 1000, 1400
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


class Browser:
    def __init__(self, tmp):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            print("FAIL: chromium not installed (scripts/install-deps)")
            sys.exit(1)
        to_b, self.w = os.pipe()      # we write commands: its fd 3
        self.r, from_b = os.pipe()    # it writes answers: its fd 4

        def fds():  # its fds 3 and 4 (first out of the way of both)
            a = fcntl.fcntl(to_b, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_b, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.p = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run",
             "--user-data-dir=" + os.path.join(tmp, "profile"),
             "--window-size=%d,%d" % (W, H), "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_b)
        os.close(from_b)
        self.buf = b""
        self.n = 0
        self.events = []
        self.session = None
        t = self.call("Target.createTarget", {"url": "about:blank"})
        s = self.call("Target.attachToTarget",
                      {"targetId": t["targetId"], "flatten": True})
        self.session = s["sessionId"]
        for dom in ("Page", "Runtime", "Log"):
            self.call(dom + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": W, "height": H, "deviceScaleFactor": 1,
                   "mobile": False})
        self.load("about:blank")
        self.blank = len(self.screenshot())

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=20):
        self.n += 1
        m = {"id": self.n, "method": method, "params": params or {}}
        if self.session:
            m["sessionId"] = self.session
        os.write(self.w, json.dumps(m).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            a = self.read(deadline)
            if a.get("id") == self.n:
                if "error" in a:
                    raise RuntimeError("%s: %s" % (method, a["error"]))
                return a.get("result", {})
            self.events.append(a)

    def wait_event(self, method, timeout=20):
        deadline = time.time() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[i]
                    return e
            self.events.append(self.read(deadline))

    def load(self, url):
        self.events = []
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, js):
        r = self.call("Runtime.evaluate",
                      {"expression": js, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate %s: %s" % (js, r["exceptionDetails"]))
        return r["result"].get("value")

    def errors(self):
        """Script exceptions and console errors since the last load."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
                out.append("console.error")
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(p["entry"].get("text", "log error"))
        return out

    def screenshot(self):
        r = self.call("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(r["data"])

    def close(self):
        try:
            self.session = None
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        os.close(self.w)
        os.close(self.r)


def png_size(data):
    """(width, height) of a PNG, (0, 0) if it is none."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return 0, 0
    return (int.from_bytes(data[16:20], "big"),
            int.from_bytes(data[20:24], "big"))


def dom_ids(br):
    return br.eval("Array.from(document.querySelectorAll('[id]'))"
                   ".map(function(e){return e.id;})")


def check_page(br, name, url, ids, shot=True):
    br.load(url)
    got = dom_ids(br)
    for i in ids + ["errors"]:
        if i not in got:
            fail("%s: no #%s in the DOM" % (name, i))
    if br.eval("document.body.getAttribute('data-ready')") != "1":
        fail("%s: the page's script did not finish (no body[data-ready])"
             % name)
    if br.eval("/(^|\\n)ready(\\n|$)/.test(document.body.innerText)"):
        fail("%s: the word ready shows on the page" % name)
    outside = br.eval(TEXT_OUTSIDE)
    if outside:
        fail("%s: SVG text outside its SVG: %s" % (name, outside))
    errs = br.eval("document.getElementById('errors').textContent")
    if errs:
        fail("%s: script errors: %s" % (name, errs))
    if br.errors():
        fail("%s: console errors: %s" % (name, br.errors()))
    if shot:
        png = br.screenshot()
        w, h = png_size(png)
        if (w, h) != (W, H):
            fail("%s: screenshot %dx%d, expected %dx%d" % (name, w, h, W, H))
        elif len(png) < 4 * br.blank:
            # a page of text and pictures compresses far worse than an
            # empty one of the same size, measured in this run
            fail("%s: screenshot looks blank (%d bytes, an empty page %d)" %
                 (name, len(png), br.blank))


# Every SVG <text> as drawn (its box on the screen) inside its <svg>'s
# box, which is the viewBox scaled to the page: half a pixel of slack.
TEXT_OUTSIDE = """Array.from(document.querySelectorAll('svg text')).filter(
function(t){var s=t.ownerSVGElement.getBoundingClientRect(),
r=t.getBoundingClientRect();
return r.width&&(r.left<s.left-0.5||r.right>s.right+0.5||
r.top<s.top-0.5||r.bottom>s.bottom+0.5);}).map(function(t){
return t.textContent;})"""


def bufdiff(exe, args, want=0):
    p = subprocess.run([exe] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != want:
        fail("bufdiff %s: exit %d, expected %d\n%s" %
             (" ".join(args), p.returncode, want, p.stderr))
    return p.stdout


def lab_rate(text):
    for line in text.splitlines():
        if line.startswith("hits "):
            return line.split(",")[0] if "," in line else line
    return None


CASE_PANELS = ["cause", "program", "graph", "defuse", "timeline", "memory",
               "mt", "decisions", "dtable", "summary"]

ODD = """case: "odd/<b id=\\"injected\\">x</b>\\u0001\\ttab"
about: "a <script>window.bad=1</script> name & \\u0007 bell"
program: |
  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %y = add %x, 10 : tensor<3xi32>
    %z = add %x, %y : tensor<3xi32>
    return %z
  }
inputs:
  x: [1, 2, 3]
runs:
  - plan: {y: x}
    verdict: diverge
"""


# A case whose name and whose directory try to end the attribute or the
# text they are written into and run a script (issue 24): every one must
# show as text, set no global, add no element.
HOSTILE_NAME = ('evil/"><img src=x onerror="window.pwned=1">'
                '<script>window.pwned=2</script>\'\x1b[31m')
HOSTILE_DIR = '"><img src=x onerror=window.pwned=3><svg onload=window.pwned=4>'


def hostile_case(tmp):
    d = os.path.join(tmp, HOSTILE_DIR)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "c.yaml")
    name = json.dumps(HOSTILE_NAME)  # a YAML double-quoted scalar
    with open(path, "w") as f:
        f.write(ODD.replace('"odd/<b id=\\"injected\\">x</b>\\u0001\\ttab"',
                            name, 1))
    return d, path


def check_hostile(br, name, url):
    check_page(br, name, url, ["summary"] if name != "hostile-index"
               else ["index"], shot=False)
    if br.eval("typeof window.pwned") != "undefined":
        fail("%s: a script from the case's name or path ran" % name)
    n = br.eval("document.querySelectorAll('img, svg[onload], "
                "[onerror]').length")
    if n:
        fail("%s: %s elements from the case's name or path" % (name, n))


def main():
    exe, src = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="bufdiff-html-")
    br = None
    try:
        pages = [("seed", "seed/old-input-still-needed.yaml"),
                 ("async", "async/two-streams-race.yaml"),
                 ("loop", "loops/cross-iteration-read.yaml")]
        for name, case in pages:
            bufdiff(exe, ["run", os.path.join(src, "cases", case), "--html",
                          os.path.join(tmp, name + ".html")])
        odd = os.path.join(tmp, "odd.yaml")
        with open(odd, "w") as f:
            f.write(ODD)
        bufdiff(exe, ["run", odd, "--html", os.path.join(tmp, "odd.html")])
        bufdiff(exe, ["check", os.path.join(src, "cases", "seed"), "--html",
                      os.path.join(tmp, "check")])
        # an index with a failing case (run 1 must agree, it diverges)
        fdir = os.path.join(tmp, "fails")
        os.makedirs(fdir)
        shutil.copy(os.path.join(src, "cases", pages[0][1]), fdir)
        with open(os.path.join(fdir, "z-fails.yaml"), "w") as f:
            f.write(ODD.replace("verdict: diverge", "verdict: agree"))
        bufdiff(exe, ["check", fdir, "--html", os.path.join(tmp, "fcheck")],
                want=1)
        hdir, hpath = hostile_case(tmp)
        bufdiff(exe, ["run", hpath, "--html", os.path.join(tmp, "hostile.html")])
        bufdiff(exe, ["check", hdir, "--html", os.path.join(tmp, "hcheck")])
        text = bufdiff(exe, ["lab", "cache", "--html",
                             os.path.join(tmp, "lab.html")])
        other = bufdiff(exe, ["lab", "cache", "--capacity", "3", "--stride",
                              "6", "--requests", "20"])
        br = Browser(tmp)
        url = "file://" + tmp + "/"
        for name, _ in pages:
            check_page(br, name, url + name + ".html", CASE_PANELS)
        # the seed's blamed edge and highlighted lines
        br.load(url + "seed.html")
        if not br.eval("document.querySelectorAll('#defuse .blame').length"):
            fail("seed: no blamed edge in the graph")
        hl = br.eval("['reader','writer','victim'].map(function(c){return "
                     "document.querySelectorAll('#program .ln.'+c).length;})")
        if hl != [1, 1, 1]:
            fail("seed: reader/writer/victim lines %s, expected [1, 1, 1]" % hl)
        # the culprit y:x (runs 2 and 4): its line, node and cells, in words
        got = br.eval("[(document.querySelector('#program .ln.culprit "
                      ".badge')||{}).textContent, document.querySelectorAll("
                      "'#defuse .node.culprit').length, ((document."
                      "querySelector('#defuse .node.culprit')||{}).textContent"
                      "||'').indexOf('culprit y:x (run 2, 4)') >= 0, document."
                      "querySelectorAll('#dtable td.culprit').length]")
        if got != ["culprit y:x (run 2, 4)", 1, True, 2]:
            fail("seed: culprit marks %s" % got)
        fixes = br.eval("Array.from(document.querySelectorAll('#cause .fix'))"
                        ".map(function(p){return p.textContent;})")
        if len(fixes) != 2 or not all(f.startswith(
                "fix: y:x -> y:new (one-shot takes y:new: conflict:")
                for f in fixes):
            fail("seed: fix lines %s" % fixes)
        # the async case: a lane per stream and a racing access on them
        br.load(url + "async.html")
        lanes = br.eval("Array.from(document.querySelectorAll('svg.lanes')[0]"
                        ".querySelectorAll('text')).map(function(t){return "
                        "t.textContent;}).filter(function(s){return "
                        "s.indexOf('stream')==0;}).length")
        if lanes < 2:
            fail("async: %s stream lanes, expected 2" % lanes)
        if not br.eval("document.querySelectorAll('#timeline .race').length"):
            fail("async: no racing access in the timeline")
        # a loop: the back edge
        br.load(url + "loop.html")
        graph = br.eval("document.getElementById('defuse').textContent")
        if "next trip" not in graph:
            fail("loop: no back edge in the graph")
        for trip in ("written on trip 0 of the for at "
                     "cross-iteration-read.yaml:8:5",
                     "read on trip 1 of the for at "
                     "cross-iteration-read.yaml:8:5"):
            if trip not in graph:
                fail("loop: the blamed edge lacks %r" % trip)
        # escaping: the name shows as text, nothing it holds ran
        check_page(br, "odd", url + "odd.html", CASE_PANELS, shot=False)
        if br.eval("!!document.getElementById('injected') || !!window.bad"):
            fail("odd: markup from the case was not escaped")
        h1 = br.eval("document.querySelector('h1').textContent")
        if h1 != 'case odd/<b id="injected">x</b>\\x01\ttab':
            fail("odd: heading %r" % h1)
        check_hostile(br, "hostile", url + "hostile.html")
        title = br.eval("document.title")
        want = "bufdiff: " + HOSTILE_NAME.replace("\x1b", "\\x1b")
        if title != want:
            fail("hostile: title %r, expected %r" % (title, want))
        h1 = br.eval("document.querySelector('h1').textContent")
        if h1 != "case " + HOSTILE_NAME.replace("\x1b", "\\x1b"):
            fail("hostile: heading %r" % h1)
        summary = br.eval("document.getElementById('summary').textContent")
        if not summary.startswith(hpath + ": ok"):
            fail("hostile: summary %r, expected the path as text" % summary)
        check_hostile(br, "hostile-index", url + "hcheck/index.html")
        cells = br.eval("Array.from(document.querySelectorAll('#index td'))"
                        ".map(function(t){return t.textContent;})")
        if HOSTILE_NAME.replace("\x1b", "\\x1b") not in cells or \
                hpath not in cells:
            fail("hostile-index: cells %r lack the name or the path" % cells)
        check_page(br, "index", url + "check/index.html", ["index"],
                   shot=False)
        n = br.eval("document.querySelectorAll('#index a').length")
        if n != 3:
            fail("index: %s links, expected 3" % n)
        totals = br.eval("(document.getElementById('totals')||{}).textContent||''")
        if not totals.startswith("3 cases: 3 passed, 0 failed, 0 in error; "
                                 "by verdict: agree 0, diverge 3,"):
            fail("index: totals %r" % totals)
        # the failing case: red, its cause in the cells; a click on a
        # heading sorts by that column, a second click the other way
        check_page(br, "fail-index", url + "fcheck/index.html", ["index"],
                   shot=False)
        totals = br.eval("(document.getElementById('totals')||{}).textContent||''")
        if not totals.startswith("2 cases: 1 passed, 1 failed, 0 in error"):
            fail("fail-index: totals %r" % totals)
        rows = "Array.from(document.querySelectorAll('#index tbody tr'))" \
               ".map(function(r){return r.cells[3].textContent+' '+" \
               "r.cells[5].textContent+' '+r.cells[7].textContent+' '+" \
               "getComputedStyle(r.cells[0]).backgroundColor;})"
        want = ["ok stale-read y:x rgba(0, 0, 0, 0)",
                "FAIL stale-read y:x rgb(253, 236, 236)"]
        if br.eval(rows) != want:
            fail("fail-index: rows %s, expected %s" % (br.eval(rows), want))
        status = "document.querySelectorAll('#index th')[3].click();"
        if br.eval(status + rows) != want:
            fail("fail-index: sorted by status up %s" % br.eval(rows))
        if br.eval(status + rows) != want[::-1]:
            fail("fail-index: sorted by status down %s" % br.eval(rows))
        # the lab: its figures, the step button, and the CLI's twin
        check_page(br, "lab", url + "lab.html",
                   ["controls", "C", "s", "reset", "step", "play", "order",
                    "rate", "trace", "lacks"])
        rate = br.eval("document.getElementById('rate').textContent")
        if rate != "hits 12 of 16 (75.0%)" or lab_rate(text) != "hits 12 of 16 (75.0%)":
            fail("lab: %r / %r, expected hits 12 of 16 (75.0%%)" %
                 (rate, lab_rate(text)))
        rate = br.eval("document.getElementById('step').click();"
                       "document.getElementById('rate').textContent")
        if rate != "hits 13 of 17 (76.5%)":
            fail("lab: after one step %r, expected hits 13 of 17" % rate)
        order = br.eval("document.getElementById('order').textContent")
        if order != "[4 8 12 0]":
            fail("lab: order after one step %r" % order)
        br.load(url + "lab.html?C=3&s=6&n=20")
        rate = br.eval("document.getElementById('rate').textContent")
        if rate != lab_rate(other):
            fail("lab C=3 s=6 n=20: page %r, bufdiff %r" % (rate, lab_rate(other)))
    finally:
        if br:
            br.close()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        sys.exit(1)
    print("ok: seed, async, loop, odd, hostile, index and lab pages")


main()
