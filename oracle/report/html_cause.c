/*
 * html_cause.c: the cause of a case, on its page and in the index
 * (docs/html.md): which decisions are culprits (html.c marks them in the
 * program and the decisions table, graph.c in the graph), and per run
 * that did not agree its violations with the loop trips and branch arms
 * of each, its culprits and the fix lines.  The words are the text
 * report's (report.c's pieces, written into a memory stream), so a page
 * says what `bufdiff run` says; they are HTML-escaped like everything
 * else on the page.
 */
#include <jansson.h>
#include <stdlib.h>

#include "report.h"

enum { CAUSE_VIOLS = 8 };       /* violations per run on the page */

/* ---- the text report's words, captured */

typedef struct Cap {
	FILE *f;
	char *s;
	size_t n;
} Cap;

static FILE *
cap_open(Cap *c)
{
	c->s = NULL;
	c->n = 0;
	return c->f = open_memstream(&c->s, &c->n);
}

/* What was written ("" when the stream could not be made); cap_free. */
static const char *
cap_text(Cap *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
	return c->s ? c->s : "";
}

static void
cap_free(Cap *c)
{
	free(c->s);
	c->s = NULL;
}

/* Line s of a captured text (up to its newline), without its indent. */
static size_t
line_of(const char **s)
{
	const char *e;

	while (**s == ' ')
		++*s;
	e = strchr(*s, '\n');
	return e ? (size_t)(e - *s) : strlen(*s);
}

/* Each line of a captured text as <p class="cls">, escaped. */
static void
put_lines(Str *b, const char *s, const char *cls)
{
	while (*s) {
		size_t n = line_of(&s);
		if (n) {
			str_printf(b, "<p class=\"%s\">", cls);
			xml_escape(b, s, n);
			str_puts(b, "</p>\n");
		}
		s += n;
		s += *s == '\n';
	}
}

const char *
html_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ---- culprits */

bool
html_is_culprit(const RunOut *r, const Value *v)
{
	Value *const *vs = r->nsets ? r->culprit_sets : r->culprits;
	int n = r->nsets ? r->ncsets : r->nculprits;

	for (int i = 0; v && i < n; i++)
		if (vs[i] == v)
			return true;
	return false;
}

int
html_culprit_label(char *buf, size_t n, const Outcome *o, const Value *v)
{
	char d[256];
	size_t k = 0;
	int runs = 0;

	buf[0] = 0;
	for (int r = 0; o && r < o->nruns; r++) {
		if (!html_is_culprit(&o->runs[r], v))
			continue;
		if (!runs++)
			k = (size_t)fmt_snprintf(buf, n, "culprit %s (run %d",
					 choice_str(&o->runs[r].ds, v, d, sizeof d),
					 r + 1);
		else if (k < n)
			k += (size_t)fmt_snprintf(buf + k, n - k, ", %d", r + 1);
	}
	if (runs && k < n)
		fmt_snprintf(buf + k, n - k, ")");
	return runs;
}

void
html_violation_trips(char *buf, size_t n, const char *file, const Program *p,
		     const RunOut *r, const Violation *v)
{
	const char *s;
	size_t len;
	Cap k;

	if (cap_open(&k))
		report_violation_context(k.f, file, p, r, v);
	s = cap_text(&k);
	len = line_of(&s);
	fmt_snprintf(buf, n, "%.*s", (int)len, s);
	cap_free(&k);
}

/* ---- the cause panel */

/* A run that did not agree: its verdict, its first violations (where,
 * and on which trips and arms), its culprits and what to change. */
static void
cause_run(Str *b, const Case *c, const RunOut *r, int i)
{
	char lab[96];
	Cap k;

	str_printf(b, "<div class=\"run\" data-run=\"%d\"><h3>", i + 1);
	html_put(b, html_run_label(r, i, lab, sizeof lab));
	str_printf(b, ": <span class=\"bad\">%s</span></h3>\n",
		   verdict_names[r->verdict]);
	if (r->verdict == VERDICT_TOOL_ERROR) {
		str_puts(b, "<p class=\"viol\">");
		html_put(b, r->tool.status);
		str_puts(b, "</p></div>\n");
		return;
	}
	for (int j = 0; j < r->ex.nviols && j < CAUSE_VIOLS; j++) {
		const Violation *v = &r->ex.viols[j];
		str_printf(b, "<p class=\"viol\"><b>%s</b> in ", vkind_names[v->kind]);
		if (cap_open(&k))
			report_violation_at(k.f, c->file, c->prog, r, v);
		html_put(b, cap_text(&k));
		cap_free(&k);
		str_puts(b, "</p>\n");
		if (cap_open(&k))
			report_violation_context(k.f, c->file, c->prog, r, v);
		put_lines(b, cap_text(&k), "trips");
		cap_free(&k);
	}
	if (r->ex.nviols > CAUSE_VIOLS)
		str_printf(b, "<p class=\"note\">and %d more violations (the text "
			   "report has them all)</p>\n", r->ex.nviols - CAUSE_VIOLS);
	str_puts(b, "<p class=\"culprits\">culprits: ");
	if (cap_open(&k))
		report_culprits(k.f, r);
	html_put(b, cap_text(&k));
	cap_free(&k);
	str_puts(b, "</p>\n");
	if (cap_open(&k))
		report_fixes(k.f, r);
	put_lines(b, cap_text(&k), "fix");
	cap_free(&k);
	str_puts(b, "</div>\n");
}

static bool
disagrees(const RunOut *r)
{
	return !r->skipped && r->status != STATUS_BAD &&
	       r->verdict != VERDICT_AGREE && r->verdict != VERDICT_NONE;
}

void
html_cause_panel(Str *b, const Case *c, const Outcome *o)
{
	int n = 0;

	str_puts(b, "<section id=\"cause\"><h2>Cause</h2>\n");
	for (int i = 0; i < o->nruns; i++)
		if (disagrees(&o->runs[i])) {
			cause_run(b, c, &o->runs[i], i);
			n++;
		}
	if (!n)
		str_printf(b, "<p class=\"note\">%s</p>\n", o->nruns ? "Every "
			   "bufferized run agrees with the reference." :
			   "No bufferized run.");
	str_puts(b, "</section>\n");
}

/* ---- the index's cells */

/* The run that explains the case: the first whose expectation failed
 * and that did not agree, else the first that did not agree; -1. */
static int
cause_of(const Outcome *o)
{
	for (int i = 0; i < o->nruns; i++)
		if (o->runs[i].status == STATUS_FAIL && disagrees(&o->runs[i]))
			return i;
	for (int i = 0; i < o->nruns; i++)
		if (disagrees(&o->runs[i]))
			return i;
	return -1;
}

/* key: the lines captured in k, each without its indent and the leading
 * `skip`, joined by "\n"; no key when there are none.  k is closed and
 * freed whatever happens. */
static bool
set_captured(json_t *j, const char *key, Cap *k, const char *skip)
{
	const char *text = cap_text(k);
	size_t sk = strlen(skip);
	Str v = {0};
	bool ok = true;

	while (*text) {
		size_t n = line_of(&text);
		const char *s = text;
		if (n >= sk && !strncmp(s, skip, sk))
			s += sk;
		if (s < text + n) {
			str_puts(&v, v.len ? "\n" : "");
			str_put(&v, s, (size_t)(text + n - s));
		}
		text += n;
		text += *text == '\n';
	}
	if (v.oom)
		ok = false;
	else if (v.len)
		ok = !json_object_set_new(j, key, json_string(v.s));
	str_free(&v);
	cap_free(k);
	return ok;
}

/* The cause run's violation, where, culprits and fix into j.  (Each
 * stream is closed by set_captured whatever happened before it: no &&
 * may skip one.) */
static bool
cause_fields(json_t *j, const Case *c, const RunOut *r)
{
	const Violation *v = r->ex.nviols ? &r->ex.viols[0] : NULL;
	Cap k;

	if (v) {
		if (json_object_set_new(j, "violation",
					json_string(vkind_names[v->kind])))
			return false;
		if (cap_open(&k))
			report_violation_at(k.f, html_base_name(c->file), c->prog,
					    r, v);
		if (!set_captured(j, "at", &k, ""))
			return false;
	}
	if (cap_open(&k))
		report_culprits(k.f, r);
	if (!set_captured(j, "culprits", &k, ""))
		return false;
	if (cap_open(&k))
		report_fixes(k.f, r);
	return set_captured(j, "fix", &k, "fix: ");
}

char *
html_cause(const Case *c, const Outcome *o)
{
	int i = c && c->prog ? cause_of(o) : -1;
	json_t *j = json_object();
	json_free_t jfree;
	char *s = NULL, *out = NULL;
	bool ok = j != NULL;

	if (ok && i >= 0) {
		ok = !json_object_set_new(j, "verdict", json_string(
				  verdict_names[o->runs[i].verdict])) &&
		     !json_object_set_new(j, "run", json_integer(i + 1)) &&
		     cause_fields(j, c, &o->runs[i]);
	} else if (ok && c && c->prog && o->nruns) {
		ok = !json_object_set_new(j, "verdict",
					  json_string(verdict_names[VERDICT_AGREE]));
	}
	if (ok)
		s = json_dumps(j, JSON_COMPACT);
	if (s)
		out = mem_strdup(s);
	json_get_alloc_funcs(NULL, &jfree);
	jfree(s);
	json_decref(j);
	return out;
}
