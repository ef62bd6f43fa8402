/* test_html.c: the --html page writers (oracle/report/html*.c, graph.c) and the
 * steps RunConfig.record keeps: escaping, the panels, the blamed edge and the
 * loop's back edge in the DOT text, M(t)'s peak equal to the reported
 * peak_bytes on every run of a set of cases, the culprit marks, fix
 * lines and trips, peak labels inside the chart, the index's cells of a
 * case, and out of memory anywhere in a page or the cells: no crash, no
 * leak. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "testutil.h"

static char *
escaped(const char *s)
{
	Str b = {0};

	html_put(&b, s);
	return str_take(&b);
}

START_TEST(escapes_markup_and_control_characters)
{
	char *s = escaped("a<b>&\"'\x01\x7f\tz\n");

	ck_assert_str_eq(s, "a&lt;b&gt;&amp;&quot;&#39;\\x01\\x7f&#9;z&#10;");
	mem_free(s);
}
END_TEST

/* Load and check a corpus case with the steps kept. */
static Case *
checked(const char *rel, Outcome *o)
{
	char path[512];
	Case *c = NULL;

	fmt_snprintf(path, sizeof path, "%s/cases/%s", SRCDIR, rel);
	check_file(&(RunConfig){.nrandom = 8, .record = true, .report = true},
		   path, NULL, true, &c, o);
	ck_assert_msg(o->status == STATUS_OK, "%s: %s", rel, o->why);
	return c;
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static char *
page(const Case *c, const Outcome *o)
{
	Str b = {0};

	html_case(&b, c, o, "x.yaml");
	return str_take(&b);
}

START_TEST(seed_page_has_every_panel_and_the_blame)
{
	Outcome o;
	Case *c = checked("seed/old-input-still-needed.yaml", &o);
	char *s = page(c, &o);
	Str dot = {0};
	static const char *const ids[] = {
		"summary", "cause", "program", "graph", "timeline", "memory", "mt",
		"decisions", "dtable", "errors", NULL
	};

	for (int i = 0; ids[i]; i++) {
		char want[64];
		fmt_snprintf(want, sizeof want, "id=\"%s\"", ids[i]);
		ck_assert_msg(strstr(s, want), "no %s", want);
	}
	/* reader z (line 6), writer y (line 5), victim x (its func, line 4) */
	ck_assert(strstr(s, "<div class=\"ln reader\" id=\"line-6\""));
	ck_assert(strstr(s, "<div class=\"ln writer culprit\" id=\"line-5\""));
	ck_assert(strstr(s, "<div class=\"ln victim\" id=\"line-4\""));
	/* the culprit y:x of runs 2 and 4: a badge on its line, its cells in
	 * the decisions table; the fix line of each failing run; no visible
	 * `ready` (the body's attribute) */
	ck_assert(strstr(s, "<span class=\"badge\">culprit y:x (run 2, 4)</span>"
			 "</div>"));
	ck_assert_int_eq(count(s, "<td class=\"inplace culprit\">y:x<span "
			       "class=\"badge\">culprit</span></td>"), 2);
	ck_assert_int_eq(count(s, "<p class=\"fix\">fix: y:x -&gt; y:new "
			       "(one-shot takes y:new: conflict: read of %x by %z at "), 2);
	ck_assert_int_eq(count(s, "<p class=\"viol\"><b>stale-read</b> in %z at "), 2);
	ck_assert(!strstr(s, ">ready<"));
	ck_assert(strstr(s, "document.body.setAttribute('data-ready','1');"));
	graph_dot(&dot, c, &o);
	ck_assert(!dot.oom);
	ck_assert_msg(strstr(dot.s, "class=\"blame\", label=\"stale-read of %x "
			     "(run 2, 4)\""), "%s", dot.s);
	ck_assert_msg(strstr(dot.s, "\\nline 5\\nculprit y:x (run 2, 4)\", "
			     "class=\"culprit\""), "%s", dot.s);
	ck_assert_int_eq(count(dot.s, "class=\"culprit\""), 1);
	str_free(&dot);
	mem_free(s);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

START_TEST(loop_graph_has_its_back_edge)
{
	Outcome o;
	Case *c = checked("loops/cross-iteration-read.yaml", &o);
	Str dot = {0};

	graph_dot(&dot, c, &o);
	/* the yield (line 10) feeds %acc of the next trip */
	ck_assert_msg(strstr(dot.s, "label=\"next trip\""), "%s", dot.s);
	ck_assert_msg(strstr(dot.s, "label=\"init\""), "%s", dot.s);
	/* the blamed edge says on which trips: written on trip 0, read on 1 */
	ck_assert_msg(strstr(dot.s, "stale-read of %x (run 1)\\nwritten on trip 0 "
			     "of the for at cross-iteration-read.yaml:8:5\\nread on "
			     "trip 1 of the for at cross-iteration-read.yaml:8:5\""),
		      "%s", dot.s);
	str_free(&dot);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* The chart's peak is the reported one: the highest live bytes of the
 * kept steps equals memory.peak_bytes, run by run. */
START_TEST(series_peak_is_peak_bytes)
{
	static const char *const cases[] = {
		"seed/old-input-still-needed.yaml",
		"async/quiz-free-before-async-reader.yaml",
		"async/two-streams-race.yaml",
		"loops/cross-iteration-read.yaml",
		"calls/callee-writes-param.yaml",
		NULL
	};

	for (int k = 0; cases[k]; k++) {
		Outcome o;
		Case *c = checked(cases[k], &o);
		for (int r = 0; r < o.nruns; r++) {
			const MemSeries *s = &o.runs[r].series;
			int64_t peak = 0;
			ck_assert_msg(s->n > 0 && !s->truncated, "%s run %d", cases[k],
				      r + 1);
			for (int i = 0; i < s->n; i++) {
				peak = s->p[i].live > peak ? s->p[i].live : peak;
				ck_assert(s->p[i].step == i + 1);
			}
			ck_assert_msg(peak == o.runs[r].ex.mem.peak_bytes,
				      "%s run %d: %lld, reported %lld", cases[k],
				      r + 1, (long long)peak,
				      (long long)o.runs[r].ex.mem.peak_bytes);
		}
		outcome_clear(&o);
		case_free(c);
	}
}
END_TEST

/* A pending launch keeps a freed buffer live: under `late` the free of
 * the quiz case releases nothing (the page's hollow ring). */
START_TEST(free_under_pending_launch_releases_nothing)
{
	Outcome o;
	Case *c = checked("async/quiz-free-before-async-reader.yaml", &o);
	const MemSeries *s = &o.runs[1].series;         /* plan, late */
	int pending = 0;

	ck_assert_str_eq(o.runs[1].schedule, "late");
	for (int i = 1; i < s->n; i++)
		pending += s->p[i].in->kind == BI_FREE &&
			   s->p[i].live == s->p[i - 1].live;
	ck_assert_int_eq(pending, 1);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* Six runs whose peaks all sit at the chart's top right corner (the
 * last step, the most bytes): every peak label stays inside the viewBox
 * by its estimated extent (0.6 of the 11-unit font per character), and
 * the labels do not overprint (main drew them at y=-3.0 and beyond the
 * right edge). */
START_TEST(peak_labels_stay_inside_the_chart)
{
	MemPoint pts[2] = {{1, 10, NULL, 3, -1}, {2, 123456789, NULL, 4, -1}};
	MemSeries one = {.p = pts, .n = 2, .cap = 2};
	const MemSeries *s[6] = {&one, &one, &one, &one, &one, &one};
	const char *labels[6] = {"a", "b", "c", "d", "e", "f"};
	Str b = {0};
	const char *t;
	double w, h, last = -1;
	int n = 0;

	html_chart(&b, s, labels, 6);
	ck_assert(!b.oom);
	ck_assert(strstr(b.s, "<svg id=\"mt\" xmlns=\"http://www.w3.org/2000/svg\" "
			 "width=\"100%\" viewBox=\"0 0 "));
	ck_assert_int_eq(sscanf(strstr(b.s, "viewBox=\"0 0 ") + 13, "%lf %lf", &w,
				&h), 2);
	ck_assert(w == 1000);
	for (t = b.s; (t = strstr(t, "<text class=\"peak\" x=\"")); t++, n++) {
		double x, y;
		ck_assert_int_eq(sscanf(t, "<text class=\"peak\" x=\"%lf\" y=\"%lf\"",
					&x, &y), 2);
		ck_assert(strstr(t, ">peak 123456789 B</text>"));
		ck_assert_msg(x >= 0 && x + 0.6 * 11 * 16 <= w, "x %g", x);
		ck_assert_msg(y - 0.8 * 11 >= 0 && y + 0.2 * 11 <= h, "y %g", y);
		ck_assert_msg(y - last >= 11, "y %g after %g", y, last);
		last = y;
	}
	ck_assert_int_eq(n, 6);
	str_free(&b);
}
END_TEST

/* The index's cells of the seed case: run 2 explains it (the first that
 * did not agree), in the text report's words, the file by its base name. */
START_TEST(seed_cause_cells)
{
	Outcome o;
	Case *c = checked("seed/old-input-still-needed.yaml", &o);
	char *s = html_cause(c, &o);
	json_t *j = s ? json_loads(s, 0, NULL) : NULL;

	ck_assert_msg(j, "%s", s ? s : "NULL");
	ck_assert_int_eq(json_object_size(j), 6);
	ck_assert_str_eq(json_string_value(json_object_get(j, "verdict")),
			 "diverge");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "run")), 2);
	ck_assert_str_eq(json_string_value(json_object_get(j, "violation")),
			 "stale-read");
	ck_assert_str_eq(json_string_value(json_object_get(j, "at")),
			 "%z at old-input-still-needed.yaml:6:5");
	ck_assert_str_eq(json_string_value(json_object_get(j, "culprits")), "y:x");
	ck_assert(!strncmp(json_string_value(json_object_get(j, "fix")),
			   "y:x -> y:new (one-shot takes y:new: conflict: ", 46));
	json_decref(j);
	mem_free(s);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* Out of memory at each allocation in turn while make() writes from
 * case rel: never a leak, and no answer or the whole one, or one holding
 * `partial` (NULL: none may), until the whole one comes. */
static void
whole_or_nothing(const char *rel, char *(*make)(const Case *, const Outcome *),
		 const char *partial)
{
	Outcome o;
	Case *c = checked(rel, &o);
	char *want = make(c, &o);

	ck_assert(want);
	for (long n = 0;; n++) {
		long start = mem_live_blocks();
		char *s;
		mem_fail_after(n);
		s = make(c, &o);
		mem_fail_after(-1);
		ck_assert_msg(mem_live_blocks() == start + (s != NULL),
			      "n=%ld: leak", n);
		if (s && !strcmp(s, want)) {
			mem_free(s);
			break;
		}
		ck_assert_msg(!s || (partial && strstr(s, partial)), "n=%ld: %s",
			      n, s);
		mem_free(s);
	}
	mem_free(want);
	outcome_clear(&o);
	case_free(c);
}

/* The index's cells (Jansson's allocations too). */
START_TEST(cause_under_oom)
{
	whole_or_nothing("loops/cross-iteration-read.yaml", html_cause, NULL);
}
END_TEST

/* A page: a failure anywhere is no page (or, where only `dot` could not
 * start, a page that says so). */
START_TEST(page_under_oom)
{
	whole_or_nothing("async/two-streams-race.yaml", page, "id=\"nograph\"");
}
END_TEST

static Suite *
html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *t = tcase_create("pages");

	tcase_add_test(t, escapes_markup_and_control_characters);
	tcase_add_test(t, seed_page_has_every_panel_and_the_blame);
	tcase_add_test(t, loop_graph_has_its_back_edge);
	tcase_add_test(t, series_peak_is_peak_bytes);
	tcase_add_test(t, free_under_pending_launch_releases_nothing);
	tcase_add_test(t, peak_labels_stay_inside_the_chart);
	tcase_add_test(t, seed_cause_cells);
	tcase_add_test(t, cause_under_oom);
	tcase_add_test(t, page_under_oom);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	report_json_init(); /* Jansson's allocations through mem_alloc */
	return tu_run((Suite *[]){html_suite(), NULL});
}
