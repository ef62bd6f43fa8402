/*
 * plot.c: a --memory-trace file drawn as M(t), one curve per run and
 * schedule, on the chart of the --html pages (docs/html.md); `bufdiff plot
 * TRACE.csv --html FILE` (cli/main.c).  A file of the old three columns
 * (step,bytes,line) is one curve.  A row that does not read is
 * `TRACE:LINE:COL: error: ...` with the line and a caret, exit 2.
 */
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "report.h"
#include "cases.h"

enum { PLOT_MAX = 64 };         /* curves */

typedef struct Curve {
	char key[160];          /* "run 2: plan, late" */
	MemSeries s;
} Curve;

typedef struct Plot {
	Curve c[PLOT_MAX];
	int n;
	const char *text;
	Diag d;
} Plot;

/* One CSV field from *p (quoted or not) into out; *p after its comma. */
static int
field(const char **p, char *out, size_t n, bool *quoted)
{
	const char *s = *p;
	size_t k = 0;

	*quoted = *s == '"';
	if (*quoted) {
		for (s++; *s && *s != '\n' && !(*s == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			if (k + 1 < n)
				out[k++] = *s;
		}
		if (*s != '"')
			return -1;
		s++;
	} else {
		for (; *s && *s != ',' && *s != '\n' && *s != '\r'; s++)
			if (k + 1 < n)
				out[k++] = *s;
	}
	out[k] = 0;
	if (*s == ',')
		s++;
	*p = s;
	return 0;
}

static bool
number(const char *s, long long *v)
{
	char *end;

	*v = strtoll(s, &end, 10);
	return *s && !*end;
}

static Curve *
curve_of(Plot *P, const char *key)
{
	for (int i = 0; i < P->n; i++)
		if (!strcmp(P->c[i].key, key))
			return &P->c[i];
	if (P->n == PLOT_MAX)
		return NULL;
	fmt_snprintf(P->c[P->n].key, sizeof P->c[P->n].key, "%s", key);
	return &P->c[P->n++];
}

/* Row `line` at s: 0, or -1 with P->d. */
static int
row(Plot *P, const char *s, int line)
{
	static const char *const names[] = {"step", "bytes", "line", "run",
					    "strategy", "schedule"};
	char f[6][128], key[160];
	const char *p = s;
	long long v[4] = {0, 0, 0, 1};
	int nf = 0;
	Curve *c;

	for (; nf < 6 && *p && *p != '\n' && *p != '\r'; nf++) {
		bool q;
		const char *at = p;
		if (field(&p, f[nf], sizeof f[nf], &q))
			return diag_set(&P->d, (Loc){line, (int)(at - s) + 1},
					"unterminated quoted field");
		if (nf < 4 && !number(f[nf], &v[nf]))
			return diag_set(&P->d, (Loc){line, (int)(at - s) + 1},
					"%s must be an integer", names[nf]);
	}
	if (nf != 3 && nf != 6)
		return diag_set(&P->d, (Loc){line, 1}, "%d fields, expected 3 "
				"(step,bytes,line) or 6 (...,run,strategy,"
				"schedule)", nf);
	if (nf == 6)
		fmt_snprintf(key, sizeof key, "run %lld: %.60s, %.60s", v[3], f[4], f[5]);
	else
		fmt_snprintf(key, sizeof key, "run 1");
	if (!(c = curve_of(P, key)))
		return diag_set(&P->d, (Loc){line, 1}, "more than %d runs and "
				"schedules", PLOT_MAX);
	if (c->s.n == c->s.cap) {
		int nc = c->s.cap ? 2 * c->s.cap : 256;
		MemPoint *np = mem_realloc(c->s.p, sizeof *np * (size_t)nc);
		if (!np)
			return diag_set(&P->d, (Loc){0, 0}, "out of memory");
		c->s.p = np;
		c->s.cap = nc;
	}
	c->s.p[c->s.n++] = (MemPoint){v[0], v[1], NULL, (int)v[2], -1};
	return 0;
}

static int
plot_read(Plot *P)
{
	const char *s = P->text;
	int line = 1;

	if (strncmp(s, "step,bytes,line", 15))
		return diag_set(&P->d, (Loc){1, 1}, "not a --memory-trace file "
				"(its header starts step,bytes,line)");
	for (s = strchr(s, '\n'); s && s[1]; s = strchr(s, '\n')) {
		s++;
		line++;
		if (*s != '\n' && *s != '\r' && row(P, s, line))
			return -1;
	}
	return 0;
}

int
plot_page(const char *in, const char *out)
{
	static Plot P;
	const MemSeries *s[PLOT_MAX];
	const char *labels[PLOT_MAX];
	char *text;
	size_t len;
	Str b = {0};
	int rc = 0;

	memset(&P, 0, sizeof P);
	if (!(text = input_read(in, MAX_PLAN_BYTES, "a memory trace", &len,
				 &P.d))) {
		fprintf(stderr, "bufdiff: %s\n", P.d.msg);
		return STATUS_BAD;
	}
	P.text = text;
	if (plot_read(&P)) {
		diag_print(stderr, in, text, &P.d);
		rc = STATUS_BAD;
	} else {
		for (int i = 0; i < P.n; i++) {
			s[i] = &P.c[i].s;
			labels[i] = P.c[i].key;
		}
		html_begin(&b, "bufdiff plot");
		str_puts(&b, "<h1>M(t) of ");
		html_put(&b, in);
		str_puts(&b, "</h1>\n<section id=\"memory\">");
		if (P.n)
			html_chart(&b, s, labels, P.n);
		else
			str_puts(&b, "<p>No rows.</p>");
		str_puts(&b, "</section>\n");
		html_end(&b, NULL);
		if (html_write(out, &b)) {
			fprintf(stderr, "bufdiff: cannot write %s: %s\n", out,
				strerror(errno));
			rc = STATUS_BAD;
		}
	}
	for (int i = 0; i < P.n; i++)
		mem_free(P.c[i].s.p);
	mem_free(text);
	return rc;
}
