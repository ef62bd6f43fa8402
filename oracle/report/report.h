/*
 * report.h: oracle/report/, what a checked case looks like to people and
 * tools.  Table of contents in data-flow order:
 *
 *   report.c   text, JSON (--json) and JUnit (--junit) reports
 *   graph.c    the def-use graph as DOT (html.c's graph panel lays it
 *              out as SVG by `dot -Tsvg`)
 *   html.c     --html: one self-contained page per case (cause, program,
 *              graph, timeline, M(t), decisions) (docs/html.md)
 *   html_cause.c  the cause on a page and in the index: culprits, each
 *              violation's trips and arms, the fix lines (report.c's words)
 *   html_index.c  many cases: a directory of pages and the index (totals,
 *              a sortable row per case with its cause)
 *   plot.c     a --memory-trace file drawn as M(t), a curve per run and
 *              schedule (`bufdiff plot`)
 *
 * Uses harness.h (Outcome, RunOut, JEntry).
 */
#ifndef BUFDIFF_REPORT_H
#define BUFDIFF_REPORT_H

#include "harness.h"

/* ------------------------------------------------------------ report.c */

/* `run`'s text report: reference outputs nested like the data. */
void report_text(FILE *out, const Case *c, const Outcome *o);
/* Bufferized run i of o, ASan-style: violations with reader, victim,
 * writer and decision; differing outputs; culprits; memory; SUMMARY. */
void report_run_text(FILE *out, const Case *c, const Outcome *o, int i);
/* One tensor as nested text, e.g. [[1, 2], [3, undef]]. */
void report_tensor(FILE *out, const Tensor *t);
/* Route Jansson's allocations through mem_alloc (call once). */
void report_json_init(void);
/* The JSON object of FORMAT.md §3 for one case, printed on one line.
 * Floats print shortest round-trip for their dtype.  -1 out of memory. */
int report_json(FILE *out, const Case *c, const Outcome *o);

/* Why a failing case failed, for check's [FAIL] line: the first failing
 * run's first violation and culprits ("stale-read in %z at F:6:5;
 * culprits y:x"); nothing when no run failed with a violation or culprit. */
void report_fail_reason(FILE *out, const Case *c, const Outcome *o);

/* Pieces of report_run_text for run r of program p, for the pages, its
 * locations in `file`: the instruction of violation v in words ("%z at
 * F:6:5"); the loop trips and branch arms of its write and read ("
 * written on trip 0 of the for at F:8:5; read on trip 1 ...\n"; nothing
 * when both were straight-line); the culprits ("y:x"); the "  fix: ...\n"
 * lines. */
void report_violation_at(FILE *out, const char *file, const Program *p,
			 const RunOut *r, const Violation *v);
void report_violation_context(FILE *out, const char *file,
			      const Program *p, const RunOut *r,
			      const Violation *v);
void report_culprits(FILE *out, const RunOut *r);
void report_fixes(FILE *out, const RunOut *r);

/* JUnit XML, one testcase per entry, classname the case's folder, the
 * report in <failure>/<error> and <system-out>.  0 or -1 (cannot write). */
int report_junit(const char *path, const JEntry *e, int n);

/* ------------------------------------------------------------- graph.c */

/* The def-use graph of c's program as DOT, o's violations as red edges
 * with their trips and arms, its culprits as red nodes (o may be NULL). */
void graph_dot(Str *b, const Case *c, const Outcome *o);

/* -------------------------------------------------------------- html.c */

/* s HTML-escaped (& < > " '), control characters shown as \xNN. */
void html_put(Str *b, const char *s);
/* A page's head (inline CSS, the window.onerror hook that fills #errors)
 * and its end (#errors, #ready, then `script`, which may be NULL). */
void html_begin(Str *b, const char *title);
void html_end(Str *b, const char *script);
/* Write b's text to path (b is emptied): 0 or -1. */
int html_write(const char *path, Str *b);
/* The page of one case checked with RunConfig.record on (o->runs[].series);
 * c may be NULL (unreadable), path labels it. */
void html_case(Str *b, const Case *c, const Outcome *o, const char *path);
int html_case_file(const char *file, const Case *c, const Outcome *o,
		   const char *path);
/* "run 2: plan, sync" (buf). */
const char *html_run_label(const RunOut *r, int i, char *buf, size_t n);
/* M(t) of n series on one chart (svg#mt, scaled to the page's width) and
 * its legend; a point's `in` may be NULL (then no free or view ticks). */
void html_chart(Str *b, const MemSeries *const *s, const char *const *labels,
		int n);
/* --------------------------------------------------------- html_cause.c */

/* The last component of path ("F" in the pages' labels). */
const char *html_base_name(const char *path);
/* Is v's decision a culprit of run r (in any independent set)? */
bool html_is_culprit(const RunOut *r, const Value *v);
/* "culprit y:x (run 2, 4)" into buf: v's decision in the first run where
 * it is a culprit, and every such run; returns how many (0: buf ""). */
int html_culprit_label(char *buf, size_t n, const Outcome *o,
		       const Value *v);
/* The trips and arms of violation v of run r, one line, located in file
 * ("written on trip 0 of the for at F:8:5; read on trip 1 ..."; ""). */
void html_violation_trips(char *buf, size_t n, const char *file,
			  const Program *p, const RunOut *r,
			  const Violation *v);
/* A page's #cause: per run that did not agree, its verdict, violations
 * with their trips and arms, culprits and fix lines, as `run` says them. */
void html_cause_panel(Str *b, const Case *c, const Outcome *o);
/* The index's cells of a case as JSON text (mem_alloc'd; NULL out of
 * memory): verdict (of the run that explains it: the first failing one
 * that did not agree, else the first that did not agree; "agree"; none
 * without a run), run, violation, at, culprits, fix. */
char *html_cause(const Case *c, const Outcome *o);

/* --------------------------------------------------------- html_index.c */

/* Many cases: page i of a directory is "case-%04d.html" (i + 1). */
const char *html_page_name(int i, char *buf, size_t n);
int html_dir(const char *dir);          /* make it if needed: 0 or -1 */
/* DIR/index.html linking the pages of e[0..n): totals, and a row per
 * case with its cause (e[i].cause, html_cause's). */
int html_index(const char *dir, const char *title, const JEntry *e, int n);
/* Check each of paths (strategy s as check_file) and write its page and
 * the index into dir: 0 or -1 (cannot write). */
int html_check_files(const RunConfig *cfg, const char *dir,
		     const char *title, char *const *paths, int n,
		     const Strategy *s);

/* -------------------------------------------------------------- plot.c */

/* The --memory-trace file `trace` drawn as M(t) into the page `html`: 0,
 * or STATUS_BAD with a diagnostic on stderr (unreadable, a row that does
 * not read: TRACE:LINE:COL with the line and a caret; cannot write). */
int plot_page(const char *trace, const char *html);

#endif
