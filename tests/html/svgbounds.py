#!/usr/bin/env python3
"""Every <text> of every SVG in the given HTML pages lies inside its
SVG's viewBox (docs/html.md, "How it is tested").

Each inline <svg>...</svg> of a page is parsed with xml.etree; a text's
anchor point is mapped through its ancestors' transforms (translate and
scale: what Graphviz and the pages write), and its extent is estimated
from its font size and length: width 0.6 em per character (monospace's
advance, wider than sans-serif's average), ascent 0.8 em above the
baseline, descent 0.2 em below, placed by its text-anchor.  An SVG
without a viewBox is a failure too (the charts scale with the page).

usage: svgbounds.py PAGE.html...   exit 0, or 1 with one line per text
outside (page, SVG number and id or class, the text, its box, the
viewBox).
"""
import re
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
DEFAULT_FONT = 11.0  # the pages' CSS for their own charts
EM_WIDTH, ASCENT, DESCENT = 0.6, 0.8, 0.2


def local(tag):
    return tag[len(SVG_NS):] if tag.startswith(SVG_NS) else tag


def numbers(s):
    return [float(x) for x in re.findall(r"-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?", s)]


def transform(t, s):
    """Compose the affine map t (a, d, e, f: x' = a x + e, y' = d y + f)
    with an SVG transform attribute s (translate, scale; rotate(0))."""
    a, d, e, f = t
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", s or ""):
        v = numbers(args)
        if name == "translate":
            tx, ty = v[0], v[1] if len(v) > 1 else 0.0
            e, f = e + a * tx, f + d * ty
        elif name == "scale":
            sx, sy = v[0], v[1] if len(v) > 1 else v[0]
            a, d = a * sx, d * sy
        elif name == "rotate" and v and v[0] != 0:
            raise ValueError("rotate(%s) not handled" % args)
        elif name not in ("rotate",):
            raise ValueError("transform %s not handled" % name)
    return a, d, e, f


def font_size(el, inherited):
    fs = el.get("font-size")
    m = re.search(r"font-size\s*:\s*([0-9.]+)", el.get("style") or "")
    if m:
        fs = m.group(1)
    return float(fs) if fs else inherited


def text_of(el):
    return "".join(el.itertext())


def check_svg(svg, where, out):
    vb = svg.get("viewBox")
    if not vb:
        out.append("%s: no viewBox" % where)
        return 0
    x0, y0, w, h = numbers(vb)
    n = 0

    def walk(el, t, fs):
        nonlocal n
        t = transform(t, el.get("transform"))
        fs = font_size(el, fs)
        if local(el.tag) == "text":
            n += 1
            s = text_of(el)
            a, d, e, f = t
            x, y = a * float(el.get("x", 0)) + e, d * float(el.get("y", 0)) + f
            width = EM_WIDTH * fs * len(s) * abs(a)
            anchor = el.get("text-anchor", "start")
            left = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
            top, bottom = y - ASCENT * fs * abs(d), y + DESCENT * fs * abs(d)
            eps = 0.05
            if (left < x0 - eps or left + width > x0 + w + eps or
                    top < y0 - eps or bottom > y0 + h + eps):
                out.append("%s: text %r at x %.1f..%.1f, y %.1f..%.1f is "
                           "outside the viewBox %s" %
                           (where, s, left, left + width, top, bottom, vb))
            return
        for c in el:
            walk(c, t, fs)

    walk(svg, (1.0, 1.0, 0.0, 0.0), DEFAULT_FONT)
    return n


def main():
    bad, svgs, texts = [], 0, 0
    for page in sys.argv[1:]:
        with open(page, encoding="utf-8") as fh:
            html = fh.read()
        for k, m in enumerate(re.finditer(r"<svg\b.*?</svg>", html, re.S)):
            try:
                svg = ET.fromstring(m.group(0))
            except ET.ParseError as e:
                bad.append("%s: SVG %d does not parse: %s" % (page, k + 1, e))
                continue
            name = svg.get("id") or svg.get("class") or ""
            svgs += 1
            texts += check_svg(svg, "%s: SVG %d %s" % (page, k + 1, name), bad)
    for line in bad:
        print("FAIL: " + line)
    if not svgs:
        print("FAIL: no SVG in %s" % " ".join(sys.argv[1:]))
        return 1
    print("svgbounds: %d SVGs, %d texts, %d outside" % (svgs, texts, len(bad)))
    return 1 if bad else 0


sys.exit(main())
