/*
 * reduce_cli.c: `bufdiff reduce CASE [--run I] [--plan FILE] [--out FILE]`
 * (FORMAT.md §4, docs/reduce.md); with --plan the run reduced is the
 * document's (unless --run names another).  The reduced case goes to FILE or stdout, the
 * statistics to stderr.  Exit: 0 reduced, 1 the run does not fail, 2 bad
 * input or usage.
 */
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cases.h"
#include "fuzz.h"
#include "stop.h"

typedef struct ReduceOpts {
	const char *path, *out, *plan;
	int run;                /* 1-based; 0: the first, or the plan's */
} ReduceOpts;

/* The --plan document's run, appended to c; o->run defaults to it. */
static int
add_plan_run(ReduceOpts *o, Case *c)
{
	size_t len = 0;
	char *text;
	bool found = false;
	Diag d;
	int rc = 0;

	if (!(text = plandoc_read(o->plan, &len, &d))) {
		fprintf(stderr, "bufdiff reduce: %s\n", d.msg);
		return STATUS_BAD;
	}
	if (plandoc_add_run(o->plan, text, len, c, NULL, false, &found, &d)) {
		if (d.loc.line > 0)
			diag_print(stderr, o->plan, text, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o->plan, d.msg);
		rc = STATUS_BAD;
	} else if (!found) {
		term_fprintf(stderr, "%s: error: no entry for case '%s' under "
			"'cases'\n", o->plan, c->name);
		rc = STATUS_BAD;
	} else if (!o->run) {
		o->run = c->nruns;
	}
	mem_free(text);
	return rc;
}

static int
write_out(const char *path, const char *yaml, const Strategy *s)
{
	if (!trust_write_repro(path, yaml, s))
		return 0;
	fprintf(stderr, "bufdiff reduce: cannot write %s: %s\n",
		path ? path : "stdout", strerror(errno));
	return STATUS_BAD;
}

int
cmd_reduce(const Args *a, const RunConfig *cfg)
{
	ReduceOpts o = {a->paths[0], a->out, a->plan, a->run};
	ReduceStats st;
	Case *c = NULL;
	char *yaml = NULL;
	Diag d;
	int rc;

	if (case_load(o.path, 0, &c, &d)) {
		if (d.loc.line > 0)
			diag_print(stderr, o.path, c ? c->text : NULL, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o.path, d.msg);
		case_free(c);
		return STATUS_BAD;
	}
	if (o.plan && (rc = add_plan_run(&o, c))) {
		case_free(c);
		return rc;
	}
	if (!o.run)
		o.run = 1;
	if (o.run > c->nruns) {
		term_fprintf(stderr, "%s: error: the case has %d run%s, no run %d\n",
			o.path, c->nruns, c->nruns == 1 ? "" : "s", o.run);
		case_free(c);
		return STATUS_BAD;
	}
	rc = reduce_case(cfg, c, o.run - 1, NULL, NULL, &yaml, &st, &d);
	if (rc < 0) {
		if (d.loc.line > 0)
			diag_print(stderr, o.path, c->text, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o.path, d.msg);
		rc = STATUS_BAD;
	} else if (rc == 2) { /* a signal: the smallest so far, written */
		rc = write_out(o.out, yaml, c->runs[o.run - 1].strategy);
		fprintf(stderr, "reduce: interrupted by %s: %d -> %d ops so far "
			"(the case has no results), %d candidates, %.2f s\n",
			stop_signal_name(stop_signal()), st.ops_before,
			st.ops_after, st.candidates, st.seconds);
	} else if (rc == 1) {
		fprintf(stderr, "%s: run %d does not fail (agrees with the "
			"reference): nothing to reduce\n", o.path, o.run);
		rc = STATUS_FAIL;
	} else {
		rc = write_out(o.out, yaml, c->runs[o.run - 1].strategy);
		fprintf(stderr, "reduce: %d -> %d ops, %d candidates, %d cache "
			"hits, %.2f s\n", st.ops_before, st.ops_after,
			st.candidates, st.cache_hits, st.seconds);
	}
	mem_free(yaml);
	case_free(c);
	return rc;
}
