/*
 * html.c: `--html`: one self-contained page per case (docs/html.md).
 *
 * Panels, in page order: the cause of each failing run (html_cause.c);
 * the program with the reader, writer and victim lines of every violation
 * highlighted, the culprits' lines badged, and each line's decisions on
 * hover; the def-use graph (graph.c, laid out by Graphviz); a lane-per-
 * stream timeline of each run; M(t) of every run on one chart; the
 * decisions table per run with its memory figures and culprits.  The
 * charts are as wide as the page, and every label in them is placed by
 * its estimated extent inside the SVG.  Everything that comes from the
 * case goes through html_put (xml_escape; control characters shown as
 * \xNN).  Many cases and their index: html_index.c.
 * No network at view time: the CSS, the SVG and the few lines of script
 * are inline.
 */
#include <stdlib.h>

#include "escape.h"
#include "report.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"

/* ---- escaping */

/* The one escaping of page text and attribute values: xml_escape
 * (interp/escape.c): markup characters as entities, line breaks and tabs
 * as character references, control bytes and bytes that are not UTF-8
 * shown as \xNN. */
void
html_put(Str *b, const char *s)
{
	if (s)
		xml_escape(b, s, strlen(s));
}

/* html_put of the first n bytes of s. */
static void
html_putn(Str *b, const char *s, size_t n)
{
	xml_escape(b, s, n);
}

static const char style[] =
	"body{font:14px/1.4 sans-serif;margin:1em 2em;color:#222}"
	"h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}"
	"section{margin-bottom:1em}"
	".code{font:13px/1.35 monospace;white-space:pre;border:1px solid #ccc;"
	"padding:.3em 0;overflow-x:auto}"
	".ln{padding:0 .5em}.ln .no{color:#999;display:inline-block;"
	"width:3.5em}.ln[title]{cursor:help;border-left:3px solid #88a}"
	".reader{background:#ffe08a}.writer{background:#ffb3b3}"
	".victim{background:#b3d4ff}.hot{outline:2px solid #333}"
	".tag{font-size:11px;border-radius:3px;padding:0 .3em;margin-left:1em}"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	"padding:.15em .5em;font:13px monospace}th{background:#f3f3f3}"
	"td.inplace{background:#ffe9c7}td.view{background:#e8f0ff}"
	".ok{color:#070}.bad{color:#b00}.note{color:#555;font-size:13px}"
	/* the charts scale with the page (their viewBox); Graphviz's SVG
	 * keeps its own fonts and shrinks only when wider than the page */
	"#mt text,svg.lanes text{font:11px sans-serif}"
	"svg#mt,svg.lanes{display:block;width:100%;height:auto}"
	"#defuse svg{max-width:100%;height:auto}"
	/* the culprit: outlined, and a badge that says it in words */
	".culprit{outline:2px solid #d62728;outline-offset:-2px}"
	".badge{font:bold 11px sans-serif;color:#fff;background:#d62728;"
	"border-radius:3px;padding:0 .4em;margin-left:.8em;white-space:nowrap}"
	"#cause .run{border-left:4px solid #d62728;padding-left:.6em;"
	"margin:.6em 0}#cause h3{font-size:1em;margin:.2em 0}#cause p{margin:.15em 0}"
	"#cause .trips{color:#555;margin-left:1.5em}"
	"#cause .fix{font-family:monospace}"
	"tr.failed td{background:#fdecec}td.status.bad{font-weight:bold}"
	"#index td{vertical-align:top}"
	"table.sortable th{cursor:pointer}"
	"th[aria-sort=ascending]::after{content:' \\25B2'}"
	"th[aria-sort=descending]::after{content:' \\25BC'}";

/* The error hook first, so that a failing script leaves its message in
 * the page (the browser test reads #errors). */
static const char head_script[] =
	"<script>window.onerror=function(m,s,l){var e=document.getElementById("
	"'errors');if(e)e.textContent+=m+' (line '+l+')\\n';};</script>\n";

void
html_begin(Str *b, const char *title)
{
	str_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		 "<meta charset=\"utf-8\"><title>");
	html_put(b, title);
	str_printf(b, "</title><style>%s</style>\n%s</head><body>\n", style,
		   head_script);
}

/* The page's last lines: #errors (empty when no script failed), then
 * the script, whose last line marks the body data-ready="1" (a test
 * waits on it; nothing shows). */
void
html_end(Str *b, const char *script)
{
	str_puts(b, "<pre id=\"errors\"></pre>\n<script>\n");
	str_puts(b, script ? script : "");
	str_puts(b, "\ndocument.body.setAttribute('data-ready','1');"
		 "\n</script>\n</body></html>\n");
}

int
html_write(const char *path, Str *b)
{
	size_t n = b->len;
	char *s = str_take(b);
	int rc;

	if (!s)
		return -1;
	rc = output_write(path, s, n); /* checked, renamed into place */
	mem_free(s);
	return rc;
}

/* ---- facts the panels share */

static int
inst_line(const BInst *in)
{
	if (!in)
		return 0;
	if (in->op)
		return in->op->loc.line;
	return in->top ? in->top->loc.line : 0;
}

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
	"#e377c2", "#17becf"
};
#define NPAL (int)(sizeof palette / sizeof *palette)

const char *
html_run_label(const RunOut *r, int i, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "run %d: %s, %s", i + 1, r->strategy ? r->strategy : "?",
		 r->schedule);
	return buf;
}

/* ---- the program panel */

typedef struct Lines {
	const char **at;        /* start of each line of c->text (1-based) */
	int n;
	Str *title;             /* hover text per line */
	Str *badge;             /* "culprit y:x (run 2)" per line */
	unsigned *mark;         /* M_* per line */
} Lines;

enum { M_READER = 1, M_WRITER = 2, M_VICTIM = 4, M_CULPRIT = 8 };

static int
lines_split(Lines *L, const Case *c)
{
	int n = 1;

	for (size_t i = 0; i < c->len; i++)
		n += c->text[i] == '\n';
	L->at = mem_calloc((size_t)n + 2, sizeof *L->at);
	L->title = mem_calloc((size_t)n + 2, sizeof *L->title);
	L->badge = mem_calloc((size_t)n + 2, sizeof *L->badge);
	L->mark = mem_calloc((size_t)n + 2, sizeof *L->mark);
	if (!L->at || !L->title || !L->badge || !L->mark)
		return -1;
	L->n = 0;
	L->at[++L->n] = c->text;
	for (size_t i = 0; i < c->len; i++)
		if (c->text[i] == '\n' && i + 1 < c->len)
			L->at[++L->n] = c->text + i + 1;
	return 0;
}

static void
lines_free(Lines *L)
{
	for (int i = 0; L->title && i <= L->n + 1; i++)
		str_free(&L->title[i]);
	for (int i = 0; L->badge && i <= L->n + 1; i++)
		str_free(&L->badge[i]);
	mem_free(L->at);
	mem_free(L->title);
	mem_free(L->badge);
	mem_free(L->mark);
}

static size_t
line_len(const Lines *L, int i)
{
	const char *e = strchr(L->at[i], '\n');

	return e ? (size_t)(e - L->at[i]) : strlen(L->at[i]);
}

static void
mark(Lines *L, int line, unsigned m)
{
	if (line >= 1 && line <= L->n)
		L->mark[line] |= m;
}

/* The first and last line of the program: from the first `func` to the
 * closing braces after the last op. */
static void
program_range(const Case *c, const Lines *L, int *lo, int *hi)
{
	const Program *p = c->prog;

	*lo = L->n;
	*hi = 1;
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i]->loc.line < *lo)
			*lo = p->funcs[i]->loc.line;
	for (int i = 0; i < p->nvalues; i++) {
		const Value *v = p->values[i];
		int l = v->def ? v->def->loc.line : v->loc.line;
		if (l > *hi)
			*hi = l;
	}
	for (int i = 0; i < p->nfuncs; i++) {
		const Block *b = p->funcs[i]->body;
		if (b->nops && b->ops[b->nops - 1]->loc.line > *hi)
			*hi = b->ops[b->nops - 1]->loc.line;
	}
	while (*hi < L->n) {
		const char *s = L->at[*hi + 1];
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '}')
			break;
		++*hi;
	}
	if (*lo > *hi)
		*lo = 1, *hi = L->n;
}

static void
title_add(Lines *L, int line, const char *s)
{
	if (line < 1 || line > L->n)
		return;
	if (L->title[line].len)
		str_puts(&L->title[line], "\n");
	str_puts(&L->title[line], s);
}

/* mlir-pipeline runs execute the tool's memref program: their Decisions
 * are only copy-all's placeholders, not what ran. */
static bool
has_decisions(const RunOut *ro)
{
	return ro->ds.d && !ro->tool.memref;
}

/* Each run's decision for each result, on the line of its op. */
static void
decision_titles(Lines *L, const Case *c, const Outcome *o)
{
	const Program *p = c->prog;
	char d[160], t[512], lab[96];

	for (int r = 0; r < o->nruns; r++) {
		const RunOut *ro = &o->runs[r];
		if (!has_decisions(ro))
			continue;
		for (int i = 0; i < p->nvalues; i++) {
			const Value *v = p->values[i];
			const Decision *dc = &ro->ds.d[i];
			if (!v->def || dc->kind == DEC_NONE)
				continue;
			fmt_snprintf(t, sizeof t, "%s: %s%s%s%s",
				 html_run_label(ro, r, lab, sizeof lab),
				 dec_str(v, dc, d, sizeof d),
				 decision_reason(dc) ? " (" : "",
				 decision_reason(dc) ? decision_reason(dc) : "",
				 decision_reason(dc) ? ")" : "");
			title_add(L, v->def->loc.line, t);
		}
	}
}

static void
violation_marks(Lines *L, const Outcome *o)
{
	char t[512], lab[96];

	for (int r = 0; r < o->nruns; r++) {
		const RunOut *ro = &o->runs[r];
		for (int k = 0; k < ro->ex.nviols; k++) {
			const Violation *v = &ro->ex.viols[k];
			int rl = inst_line(v->at), wl = inst_line(v->writer);
			int vl = v->victim ? (v->victim->def ?
					      v->victim->def->loc.line :
					      v->victim->loc.line) : 0;
			mark(L, rl, M_READER);
			mark(L, wl, M_WRITER);
			mark(L, vl, M_VICTIM);
			fmt_snprintf(t, sizeof t, "%s: %s here (victim %%%s, "
				 "written at line %d)",
				 html_run_label(ro, r, lab, sizeof lab),
				 vkind_names[v->kind],
				 v->victim ? v->victim->name : "?", wl);
			title_add(L, rl, t);
		}
	}
}

/* The culprit decisions of every run, on the line of their op: a badge
 * that names the decision and the runs. */
static void
culprit_marks(Lines *L, const Case *c, const Outcome *o)
{
	const Program *p = c->prog;
	char lab[512];

	for (int i = 0; i < p->nvalues; i++) {
		const Value *v = p->values[i];
		int l = v->def ? v->def->loc.line : 0;
		if (l < 1 || l > L->n || !html_culprit_label(lab, sizeof lab, o, v))
			continue;
		L->mark[l] |= M_CULPRIT;
		str_puts(&L->badge[l], "<span class=\"badge\">");
		html_put(&L->badge[l], lab);
		str_puts(&L->badge[l], "</span>");
	}
}

static void
program_panel(Str *b, const Case *c, const Outcome *o)
{
	Lines L = {0};
	int lo, hi;

	str_puts(b, "<section id=\"program\"><h2>Program</h2>\n<p class=\"note\">"
		 "Lines of the .yaml file. <span class=\"reader\">reader</span> "
		 "<span class=\"writer\">writer</span> <span class=\"victim\">"
		 "victim</span> of each violation; <span class=\"culprit\">culprit"
		 "</span> (badge): the in-place decision that, flipped, removes the "
		 "failure; hover a line for each run's decision and its reason.</p>"
		 "\n<div class=\"code\">");
	if (lines_split(&L, c)) {
		b->oom = true;
		lines_free(&L);
		return;
	}
	decision_titles(&L, c, o);
	violation_marks(&L, o);
	culprit_marks(&L, c, o);
	program_range(c, &L, &lo, &hi);
	for (int i = lo; i <= hi; i++) {
		str_printf(b, "<div class=\"ln%s%s%s%s\" id=\"line-%d\" "
			   "data-line=\"%d\"", L.mark[i] & M_READER ? " reader" : "",
			   L.mark[i] & M_WRITER ? " writer" : "",
			   L.mark[i] & M_VICTIM ? " victim" : "",
			   L.mark[i] & M_CULPRIT ? " culprit" : "", i, i);
		if (L.title[i].len) {
			str_puts(b, " title=\"");
			html_putn(b, L.title[i].s, L.title[i].len);
			str_puts(b, "\"");
		}
		str_printf(b, "><span class=\"no\">%d</span>", i);
		html_putn(b, L.at[i], line_len(&L, i));
		if (L.badge[i].len)
			str_put(b, L.badge[i].s, L.badge[i].len);
		str_puts(b, "</div>");
		b->oom |= L.title[i].oom || L.badge[i].oom;
	}
	str_puts(b, "</div></section>\n");
	lines_free(&L);
}

/* ---- M(t): every run on one chart */

enum { MARKS_MAX = 1000 };      /* ticks or timeline marks per run */

/* The charts' SVG units: 1000 wide, scaled to the page's width (the
 * viewBox, width 100%); their text is 11 units high, and a label's width
 * is estimated as 0.6 of that per character (monospace's advance, wider
 * than sans-serif's average) to keep it inside. */
enum { CHART_W = 1000, FONT = 11 };
#define TEXT_W(len) (0.6 * FONT * (double)(len))

typedef struct Chart {
	int w, h, l, r, t, bot;
	int64_t maxs, maxb;
} Chart;

static double
cx(const Chart *ch, int64_t s)
{
	return ch->l + (double)(ch->w - ch->l - ch->r) *
		       (double)s / (double)(ch->maxs ? ch->maxs : 1);
}

static double
cy(const Chart *ch, int64_t v)
{
	return ch->t + (double)(ch->h - ch->t - ch->bot) *
		       (1.0 - (double)v / (double)(ch->maxb ? ch->maxb : 1));
}

/* The step curve of s as polyline points, a pixel column at a time: in
 * each column the bytes before it, its highest and lowest, and the bytes
 * after it.  That is the step function when a column holds one change,
 * and at most four points per column when a loop allocates on every trip
 * (the page stays small whatever the trip count). */
static void
curve(Str *b, const Chart *ch, const MemSeries *s)
{
	int64_t before = 0, lo = 0, hi = 0, last = 0;
	int col = -1;

	for (int i = 0; i <= s->n; i++) {
		const MemPoint *p = i < s->n ? &s->p[i] : NULL;
		int c = p ? (int)cx(ch, p->step) : -2;
		if (p && p->live == last && i != s->n - 1)
			continue;       /* nothing changes here */
		if (c != col && col >= 0)
			str_printf(b, " %d,%.1f %d,%.1f %d,%.1f %d,%.1f", col,
				   cy(ch, before), col, cy(ch, hi), col, cy(ch, lo),
				   col, cy(ch, last));
		if (!p)
			break;
		if (c != col) {
			before = last;
			lo = hi = p->live;
			col = c;
		}
		lo = p->live < lo ? p->live : lo;
		hi = p->live > hi ? p->live : hi;
		last = p->live;
	}
	str_printf(b, " %.1f,%.1f", cx(ch, s->n ? s->p[s->n - 1].step : 0),
		   cy(ch, last));
}

static double
clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Series k's peak: its dot, and a label beside it that stays inside the
 * chart whatever the peak's place: above the dot, a line higher per
 * series so that equal peaks do not overprint; below it when that would
 * leave the top; moved left of the right edge by its width. */
static void
peak_label(Str *b, const Chart *ch, int64_t peak, int64_t step, int k,
	   const char *col)
{
	char text[48];
	double px = cx(ch, step), py = cy(ch, peak), x, y;
	int len = fmt_snprintf(text, sizeof text, "peak %lld B", (long long)peak);

	x = clamp(px + 5, 2, ch->w - 2 - TEXT_W(len));
	y = py - 5 - (FONT + 1) * k;
	if (y - 0.8 * FONT < 2)
		y = py + 5 + FONT + (FONT + 1) * k;
	y = clamp(y, 2 + 0.8 * FONT, ch->h - 2 - 0.2 * FONT);
	str_printf(b, "<circle class=\"peak\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		   "fill=\"%s\"><title>peak %lld bytes at step %lld</title>"
		   "</circle><text class=\"peak\" x=\"%.1f\" y=\"%.1f\" "
		   "fill=\"%s\">%s</text>\n", px, py, col, (long long)peak,
		   (long long)step, x, y, col, text);
}

/* The step curve of one series (its change points only: a loop that
 * allocates nothing adds nothing to the page), its peak, and its ticks:
 * allocation (up), release (down), a free that released nothing yet (a
 * pending launch keeps the buffer live: hollow), a view (+0 bytes). */
static void
chart_series(Str *b, const Chart *ch, const MemSeries *s, int k,
	     const char *label)
{
	const char *col = palette[k % NPAL];
	int64_t prev, peak = -1, peaks = 0;
	double band = ch->h - ch->bot + 14 + 12 * k;
	int nticks = 0;

	str_printf(b, "<g class=\"series\" data-run=\"%d\"><title>", k + 1);
	html_put(b, label);
	str_printf(b, "</title><polyline fill=\"none\" stroke=\"%s\" "
		   "stroke-width=\"1.5\" points=\"%.1f,%.1f", col, cx(ch, 0),
		   cy(ch, 0));
	for (int i = 0; i < s->n; i++) {
		if (s->p[i].live > peak)
			peak = s->p[i].live, peaks = s->p[i].step;
	}
	curve(b, ch, s);
	str_puts(b, "\"/>\n");
	peak_label(b, ch, peak < 0 ? 0 : peak, peaks, k, col);
	str_printf(b, "<text x=\"2\" y=\"%.1f\" fill=\"%s\">run %d</text>\n",
		   band + 3, col, k + 1);
	prev = 0;
	for (int i = 0; i < s->n && nticks < MARKS_MAX; i++) {
		const MemPoint *p = &s->p[i];
		double x = cx(ch, p->step);
		const char *what = NULL, *cls = NULL;
		int dv = 0;     /* the tick's length and direction; 0: a ring */
		if (p->live > prev)
			what = cls = "alloc", dv = -8;
		else if (p->live < prev)
			what = cls = "release", dv = 8;
		else if (p->in && p->in->kind == BI_FREE)
			what = "free, still live (pending launch)", cls = "pending";
		else if (p->in && p->in->kind == BI_VIEW)
			what = "view, +0 bytes", cls = "view", dv = 2;
		if (what) {
			nticks++;
			str_printf(b, "<g class=\"tick %s\"><title>step %lld, line "
				   "%d: %s, %lld bytes live</title>", cls,
				   (long long)p->step, p->line, what,
				   (long long)p->live);
			if (dv == 2) {
				str_printf(b, "<path stroke=\"%s\" d=\"M%.1f %.1fv2\"/>",
					   col, x, band - 1);
			} else if (dv) {      /* a triangle pointing up or down */
				str_printf(b, "<path fill=\"%s\" d=\"M%.1f %.1fl-3 %d h6z\"/>",
					   col, x, band + dv / 2.0, -dv);
			} else {
				str_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
					   "fill=\"none\" stroke=\"%s\"/>", x, band, col);
			}
			str_puts(b, "</g>");
		}
		prev = p->live;
	}
	str_puts(b, "</g>\n");
}

void
html_chart(Str *b, const MemSeries *const *s, const char *const *labels,
	   int n)
{
	Chart ch = {CHART_W, 0, 70, 20, 24, 0, 1, 1};

	for (int i = 0; i < n; i++) {
		if (!s[i]->n)
			continue;
		if (s[i]->p[s[i]->n - 1].step > ch.maxs)
			ch.maxs = s[i]->p[s[i]->n - 1].step;
		for (int k = 0; k < s[i]->n; k++)
			if (s[i]->p[k].live > ch.maxb)
				ch.maxb = s[i]->p[k].live;
	}
	ch.bot = 34 + 12 * n;
	ch.h = 220 + ch.bot;
	str_printf(b, "<svg id=\"mt\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"100%%\" viewBox=\"0 0 %d %d\">\n", ch.w, ch.h);
	str_printf(b, "<path stroke=\"#888\" fill=\"none\" d=\"M%d %d V%.1f H%d\"/>"
		   "<text x=\"2\" y=\"%d\">%lld B</text><text x=\"2\" y=\"%.1f\">0"
		   "</text><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">step %lld"
		   "</text>\n", ch.l, ch.t, cy(&ch, 0), ch.w - ch.r, ch.t + 4,
		   (long long)ch.maxb, cy(&ch, 0), ch.w - ch.r, cy(&ch, 0) + 12,
		   (long long)ch.maxs);
	for (int i = 0; i < n; i++)
		if (s[i]->n)
			chart_series(b, &ch, s[i], i, labels[i]);
	str_puts(b, "</svg>\n<p class=\"note\">");
	for (int i = 0; i < n; i++) {
		str_printf(b, "<span style=\"color:%s\">&#9632; ", palette[i % NPAL]);
		html_put(b, labels[i]);
		str_printf(b, "%s</span> ", s[i]->truncated ? " (first steps only)" :
			   "");
	}
	str_puts(b, "</p>\n");
}

static void
memory_panel(Str *b, const Outcome *o)
{
	const MemSeries **s = mem_calloc((size_t)o->nruns + 1, sizeof *s);
	char (*lab)[96] = mem_calloc((size_t)o->nruns + 1, sizeof *lab);
	const char **labels = mem_calloc((size_t)o->nruns + 1, sizeof *labels);
	int nruns = 0;

	str_puts(b, "<section id=\"memory\"><h2>Memory over time, M(t)</h2>\n"
		 "<p class=\"note\">Payload bytes of all live buffers after each "
		 "executed buffer instruction (x: steps), one curve per run (its "
		 "reported schedule); the dot is the peak. Ticks under the axis: "
		 "allocation (up), release (down), view (short: views count "
		 "nothing), hollow circle: a free after which the buffer stays live "
		 "because a pending launch uses it (it is released when the launch "
		 "completes).</p>\n");
	for (int i = 0; s && lab && labels && i < o->nruns; i++) {
		s[i] = &o->runs[i].series;
		labels[i] = html_run_label(&o->runs[i], i, lab[i], sizeof lab[i]);
		nruns += s[i]->n > 0;
	}
	if (!s || !lab || !labels)
		b->oom = true;
	else if (!nruns)
		str_puts(b, "<p>No bufferized run was executed.</p>\n");
	else
		html_chart(b, s, labels, o->nruns);
	str_puts(b, "</section>\n");
	mem_free(s);
	mem_free(lab);
	mem_free(labels);
}

/* ---- timeline: a lane per stream */

/* The step at which instruction `in` first ran, and its stream; -1. */
static int64_t
first_step(const MemSeries *s, const BInst *in, int *stream)
{
	for (int i = 0; i < s->n; i++)
		if (s->p[i].in == in) {
			*stream = s->p[i].stream;
			return s->p[i].step;
		}
	return -1;
}

/* Where launch point i is drawn: under sync a launch runs at once and is
 * recorded after its body, so at the body's first step (under the other
 * schedules the steps before it may be another launch's). */
static int64_t
launch_step(const RunOut *ro, int i)
{
	const MemSeries *s = &ro->series;
	int j = i, st = s->p[i].in->op ? s->p[i].in->op->stream : -2;

	while (ro->sched.kind == SCHED_SYNC && j > 0 &&
	       s->p[j - 1].stream == st && s->p[j - 1].stream != s->p[i].stream)
		j--;
	return s->p[j].step;
}

enum { MAXLANES = 16 };

static int
lane_of(int *lanes, int *n, int stream)
{
	for (int i = 0; i < *n; i++)
		if (lanes[i] == stream)
			return i;
	if (*n == MAXLANES)
		return *n - 1;
	lanes[*n] = stream;
	return (*n)++;
}

static void
timeline_run(Str *b, const RunOut *ro, int k)
{
	const MemSeries *s = &ro->series;
	int lanes[MAXLANES] = {-1}, nl = 1, nev = 0;
	Chart ch = {CHART_W, 0, 90, 20, 10, 20, 1, 1};
	char lab[96];

	for (int i = 0; i < s->n; i++) {
		lane_of(lanes, &nl, s->p[i].stream);
		if (s->p[i].in->kind == BI_LAUNCH && s->p[i].in->op)
			lane_of(lanes, &nl, s->p[i].in->op->stream);
	}
	ch.maxs = s->n ? s->p[s->n - 1].step : 1;
	ch.h = ch.t + 26 * nl + ch.bot;
	str_printf(b, "<h3 class=\"note\">");
	html_put(b, html_run_label(ro, k, lab, sizeof lab));
	str_printf(b, "</h3><svg class=\"lanes\" data-run=\"%d\" xmlns=\"http://"
		   "www.w3.org/2000/svg\" width=\"100%%\" viewBox=\"0 0 %d %d\">\n",
		   k + 1, ch.w, ch.h);
	for (int i = 0; i < nl; i++) {
		int y = ch.t + 26 * i + 13;
		if (lanes[i] < 0)
			str_printf(b, "<text x=\"2\" y=\"%d\">program</text>", y + 4);
		else
			str_printf(b, "<text x=\"2\" y=\"%d\">stream %d</text>", y + 4,
				   lanes[i]);
		str_printf(b, "<path stroke=\"#ddd\" d=\"M%d %d H%d\"/>\n", ch.l, y,
			   ch.w - ch.r);
	}
	for (int i = 0; i < s->n; i++) {
		const MemPoint *p = &s->p[i];
		int y = ch.t + 26 * lane_of(lanes, &nl, p->stream) + 13;
		double x = cx(&ch, p->step);
		const char *what = NULL;
		switch (p->in->kind) {
		case BI_LAUNCH: what = "launch"; break;
		case BI_AWAIT: what = "await"; break;
		case BI_FREE: what = "free"; break;
		case BI_DEALLOC: what = "free"; break;
		default:
			/* a stretch of one stream's steps: one bar */
			if (p->stream >= 0 && (!i || s->p[i - 1].stream != p->stream)) {
				int j = i;
				while (j + 1 < s->n && s->p[j + 1].stream == p->stream)
					j++;
				str_printf(b, "<rect class=\"busy\" x=\"%.1f\" y=\"%d\" "
					   "width=\"%.1f\" height=\"8\" fill=\"#9ab\"/>",
					   x - 1, y - 4, cx(&ch, s->p[j].step) - x + 3);
			}
		}
		if (!what || ++nev > MARKS_MAX) /* a page, not a log */
			continue;
		str_printf(b, "<g class=\"ev %s\"><title>step %lld, line %d: %s",
			   what, (long long)p->step, p->line, what);
		if (p->in->kind == BI_LAUNCH && p->in->op)
			str_printf(b, " on stream %d", p->in->op->stream);
		str_puts(b, "</title>");
		if (p->in->kind == BI_LAUNCH)
			str_printf(b, "<path fill=\"#2a7\" d=\"M%.1f %d l8 5 l-8 5z\"/>",
				   cx(&ch, launch_step(ro, i)), y - 5);
		else if (p->in->kind == BI_AWAIT)
			str_printf(b, "<path fill=\"#27a\" d=\"M%.1f %d l5 6 l-5 6 l-5 "
				   "-6z\"/>", x, y - 6);
		else
			str_printf(b, "<path stroke=\"#555\" stroke-width=\"2\" "
				   "d=\"M%.1f %d l6 6 m0 -6 l-6 6\"/>", x - 3, y - 3);
		str_puts(b, "</g>\n");
	}
	for (int k2 = 0; k2 < ro->ex.nviols; k2++) {
		const Violation *v = &ro->ex.viols[k2];
		int st = -1;
		int64_t at = first_step(s, v->at, &st);
		bool race = v->kind == VK_ASYNC_RACE || v->kind == VK_EARLY_AWAIT_READ;
		if (at < 0)
			continue;
		str_printf(b, "<g class=\"ev viol%s\"><title>step %lld, line %d: %s "
			   "of %%", race ? " race" : "", (long long)at,
			   inst_line(v->at), vkind_names[v->kind]);
		html_put(b, v->victim ? v->victim->name : "?");
		str_printf(b, "</title><circle cx=\"%.1f\" cy=\"%d\" r=\"5\" "
			   "fill=\"%s\" stroke=\"#d00\" stroke-width=\"2\"/></g>\n",
			   cx(&ch, at), ch.t + 26 * lane_of(lanes, &nl, st) + 13,
			   race ? "#f99" : "none");
	}
	str_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">step %lld"
		   "</text></svg>\n", ch.w - ch.r, ch.h - 4, (long long)ch.maxs);
}

static void
timeline_panel(Str *b, const Outcome *o)
{
	str_puts(b, "<section id=\"timeline\"><h2>Timeline</h2>\n<p class=\"note\">"
		 "One lane for the program's own order and one per stream, over "
		 "executed steps: launch (green triangle, on the lane that issued "
		 "it), the launch's body running (grey), await (blue diamond), free "
		 "(cross), violations (red ring; filled: a racing access, async-race "
		 "or early-await-read). Hover for the step and line.</p>\n");
	for (int i = 0; i < o->nruns; i++)
		if (o->runs[i].series.n)
			timeline_run(b, &o->runs[i], i);
	str_puts(b, "</section>\n");
}

/* ---- decisions per strategy */

static void
decision_cell(Str *b, const Value *v, const Decision *d, bool culprit)
{
	char s[160];
	const char *cls = d->kind == DEC_INPLACE ? "inplace" :
			  d->kind == DEC_VIEW ? "view" : "new";

	str_printf(b, "<td class=\"%s%s\"", cls, culprit ? " culprit" : "");
	if (decision_reason(d)) {
		str_puts(b, " title=\"");
		html_put(b, decision_reason(d));
		str_puts(b, "\"");
	}
	str_puts(b, ">");
	html_put(b, dec_str(v, d, s, sizeof s));
	str_puts(b, culprit ? "<span class=\"badge\">culprit</span></td>" :
		 "</td>");
}

static void
memory_row(Str *b, const Outcome *o, const char *name, int what)
{
	str_printf(b, "<tr><th>%s</th>", name);
	for (int r = 0; r < o->nruns; r++) {
		const MemStats *m = &o->runs[r].ex.mem;
		int64_t v = what == 0 ? m->peak_bytes : what == 1 ? m->copies :
			    what == 2 ? m->copy_bytes : what == 3 ? m->allocations :
			    what == 4 ? m->alloc_bytes : m->views;
		str_printf(b, "<td>%lld</td>", (long long)v);
	}
	str_puts(b, "</tr>\n");
}

static void
decisions_panel(Str *b, const Case *c, const Outcome *o)
{
	const Program *p = c->prog;
	char lab[96];

	str_puts(b, "<section id=\"decisions\"><h2>Decisions per run</h2>\n"
		 "<p class=\"note\">RESULT:OPERAND in place, RESULT:new a fresh "
		 "buffer, RESULT:view a view; <span class=\"badge\">culprit</span>: "
		 "the run's culprit decision. Hover a cell for the reason, a row to "
		 "find its line in the program.</p>\n<table id=\"dtable\">"
		 "<tr><th>result (line)</th>");
	for (int r = 0; r < o->nruns; r++) {
		str_puts(b, "<th>");
		html_put(b, html_run_label(&o->runs[r], r, lab, sizeof lab));
		str_puts(b, "</th>");
	}
	str_puts(b, "</tr>\n<tr><th>verdict</th>");
	for (int r = 0; r < o->nruns; r++)
		str_printf(b, "<td class=\"%s\">%s</td>",
			   o->runs[r].verdict == VERDICT_AGREE ? "ok" : "bad",
			   o->runs[r].skipped ? "skipped" :
			   verdict_names[o->runs[r].verdict]);
	str_puts(b, "</tr>\n");
	memory_row(b, o, "peak bytes", 0);
	memory_row(b, o, "copies", 1);
	memory_row(b, o, "copy bytes", 2);
	memory_row(b, o, "allocations", 3);
	memory_row(b, o, "alloc bytes", 4);
	memory_row(b, o, "views", 5);
	for (int i = 0; i < p->nvalues; i++) {
		const Value *v = p->values[i];
		bool any = false;
		for (int r = 0; r < o->nruns && !any; r++)
			any = has_decisions(&o->runs[r]) && v->def &&
			      o->runs[r].ds.d[i].kind != DEC_NONE;
		if (!any)
			continue;
		str_printf(b, "<tr class=\"dec\" data-line=\"%d\"><th>%%",
			   v->def->loc.line);
		html_put(b, v->name);
		str_printf(b, " (%d)</th>", v->def->loc.line);
		for (int r = 0; r < o->nruns; r++) {
			if (has_decisions(&o->runs[r]))
				decision_cell(b, v, &o->runs[r].ds.d[i],
					      html_is_culprit(&o->runs[r], v));
			else if (o->runs[r].tool.memref)
				str_puts(b, "<td title=\"the memref program the tool "
					 "printed places it\">memref</td>");
			else
				str_puts(b, "<td></td>");
		}
		str_puts(b, "</tr>\n");
	}
	str_puts(b, "</table></section>\n");
}

/* ---- the page */

/* Hovering a decisions row outlines its program line. */
static const char case_script[] =
	"document.querySelectorAll('tr.dec').forEach(function(r){\n"
	"  var l=document.getElementById('line-'+r.dataset.line);\n"
	"  if(!l)return;\n"
	"  r.onmouseenter=function(){l.classList.add('hot');};\n"
	"  r.onmouseleave=function(){l.classList.remove('hot');};\n"
	"});";

static void
summary(Str *b, const Case *c, const Outcome *o, const char *path)
{
	str_puts(b, "<p id=\"summary\">");
	html_put(b, path);
	str_printf(b, ": <b class=\"%s\">%s</b>", o->status == STATUS_OK ?
		   "ok" : "bad", o->status == STATUS_OK ? "ok" :
		   o->status == STATUS_FAIL ? "FAIL" : "error");
	if (o->why[0]) {
		str_puts(b, " &mdash; ");
		html_put(b, o->why);
	}
	str_puts(b, "</p>\n");
	if (c && c->about) {
		str_puts(b, "<p class=\"note\" id=\"about\">");
		html_put(b, c->about);
		str_puts(b, "</p>\n");
	}
	if (o->errored) {
		str_printf(b, "<p class=\"bad\" id=\"error\">%d:%d: error: ",
			   o->err.loc.line, o->err.loc.col);
		html_put(b, o->err.msg);
		str_puts(b, "</p>\n");
	}
}

/* The graph panel: the SVG Graphviz made of the DOT, or why there is none
 * (with the DOT text, which `dot -Tsvg` draws elsewhere). */
static void
graph_panel(Str *b, const Case *c, const Outcome *o)
{
	Str dot = {0};
	ToolResult r = {0};
	const char *svg = NULL;

	graph_dot(&dot, c, o);
	str_puts(b, "<section id=\"graph\"><h2>Def-use graph</h2>\n<p class=\"note\">"
		 "An edge from each definition to each use; clusters are regions. "
		 "Dashed blue: a loop's back edge (the yield to the next trip's iter "
		 "args); dotted: inits and yields. Red: the blamed write-to-read edge "
		 "of each violation (the writer clobbered the version the reader "
		 "expected), drawn across back edges and branches.</p>\n");
	if (!dot.oom && !tool_run("dot -Tsvg", dot.s, dot.len, 20, &r) &&
	    r.status == TOOL_OK)
		svg = strstr(r.out, "<svg");
	if (svg) {
		str_puts(b, "<div id=\"defuse\">");
		str_puts(b, svg);
		str_puts(b, "</div>\n");
	} else {
		char why[256];
		str_puts(b, "<p class=\"bad\" id=\"nograph\">not drawn: `dot -Tsvg` ");
		html_put(b, r.out || r.err ? tool_status_str(&r, why, sizeof why) :
			 "could not run");
		str_puts(b, " (Graphviz: scripts/install-deps)</p><pre>");
		html_put(b, dot.s);
		str_puts(b, "</pre>\n");
	}
	str_puts(b, "</section>\n");
	tool_result_free(&r);
	str_free(&dot);
}

void
html_case(Str *b, const Case *c, const Outcome *o, const char *path)
{
	char title[256];

	fmt_snprintf(title, sizeof title, "bufdiff: %s", c && c->name ? c->name : path);
	html_begin(b, title);
	str_puts(b, "<h1>case ");
	html_put(b, c && c->name ? c->name : "?");
	str_puts(b, "</h1>\n");
	summary(b, c, o, path);
	if (c && c->prog && c->text) {
		html_cause_panel(b, c, o);
		program_panel(b, c, o);
		graph_panel(b, c, o);
		timeline_panel(b, o);
		memory_panel(b, o);
		decisions_panel(b, c, o);
	}
	html_end(b, case_script);
}

int
html_case_file(const char *file, const Case *c, const Outcome *o,
	       const char *path)
{
	Str b = {0};

	html_case(&b, c, o, path);
	return html_write(file, &b);
}
