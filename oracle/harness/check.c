/*
 * check.c: a case against the reference interpreter.
 * Outputs compare as check_outputs (interp/tensor.c) says.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "cases.h"
#include "stop.h"

void
outcome_clear(Outcome *o)
{
	for (int i = 0; i < o->nouts; i++)
		tensor_free(o->outs[i]);
	mem_free(o->outs);
	for (int i = 0; i < o->nruns; i++)
		runout_clear(&o->runs[i]);
	mem_free(o->runs);
	memset(o, 0, sizeof *o);
}

/* A failure (o->err) against the case's expected error, if any. */
static void
judge_error(const Case *c, Outcome *o)
{
	const ExpectError *x = c && c->has_error ? &c->error : NULL;
	const Diag *e = &o->err;

	o->errored = true;
	if (!x) {
		o->status = STATUS_BAD;
		if (e->loc.line > 0)
			fmt_snprintf(o->why, sizeof o->why, "%d:%d: error: %s",
				 e->loc.line, e->loc.col, e->msg);
		else /* an unreadable file: no position */
			fmt_snprintf(o->why, sizeof o->why, "error: %s", e->msg);
	} else if (e->loc.line == x->line && (!x->col || e->loc.col == x->col) &&
		   strstr(e->msg, x->msg)) {
		o->status = STATUS_OK;
		o->why[0] = 0;
	} else {
		o->status = STATUS_FAIL;
		fmt_snprintf(o->why, sizeof o->why, "expected an error at line %d%s"
			 "%.0d containing \"%s\", got %d:%d: %s", x->line,
			 x->col ? ":" : "", x->col, x->msg, e->loc.line,
			 e->loc.col, e->msg);
	}
}

/* The bufferized runs: the case's own (unless only `s` is wanted) and
 * `s` (which must agree).  The worst status wins; a run's failure is the
 * case's `why` unless an earlier one is. */
static void
check_runs(const RunConfig *cfg, Case *c, const Strategy *s, bool case_runs,
	   Outcome *o)
{
	int n = (case_runs ? c->nruns : 0) + (s != NULL);

	o->runs = mem_calloc((size_t)n + 1, sizeof *o->runs);
	if (!o->runs) {
		o->status = STATUS_BAD;
		fmt_snprintf(o->why, sizeof o->why, "out of memory");
		return;
	}
	for (int i = 0; i < n; i++) {
		RunOut *r = &o->runs[i];
		bool extra = !case_runs || i == c->nruns;
		diff_run(cfg, c, extra ? NULL : &c->runs[i], s, o->outs,
			 o->nouts, r);
		o->nruns = i + 1;
		if (r->status <= o->status)
			continue;
		if (o->status == STATUS_OK)
			fmt_snprintf(o->why, sizeof o->why, "run %d (%s): %.500s", i + 1,
				 r->strategy, r->status == STATUS_BAD ? r->err.msg
								     : r->why);
		o->status = r->status;
	}
}

/* The reference failed at an assert (o->err): expected or not, the
 * bufferized runs must fail at the same one. */
static void
judge_failure(const RunConfig *cfg, Case *c, const Strategy *s,
	      bool case_runs, Outcome *o)
{
	const Diag *e = &o->err;

	c->ref_failed = prog_op_at(c->prog, OP_ASSERT, e->loc);
	o->status = STATUS_OK;
	if (c->has_error)
		fmt_snprintf(o->why, sizeof o->why, "expected an error at line %d "
			 "containing \"%s\", got a failure at line %d: %s",
			 c->error.line, c->error.msg, e->loc.line, e->msg);
	else if (!c->has_failure && c->has_outputs)
		fmt_snprintf(o->why, sizeof o->why, "the reference failed at the "
			 "assert of line %d: %s", e->loc.line, e->msg);
	else if (c->has_failure && (c->failure.line != e->loc.line ||
				    strcmp(c->failure.msg, e->msg)))
		fmt_snprintf(o->why, sizeof o->why, "expected a failure at line "
			 "%d \"%s\", got a failure at line %d \"%s\"",
			 c->failure.line, c->failure.msg, e->loc.line, e->msg);
	if (o->why[0])
		o->status = STATUS_FAIL;
	check_runs(cfg, c, s, case_runs, o);
}

void
check_case(const RunConfig *cfg, Case *c, const Strategy *s, bool case_runs,
	   Outcome *o)
{
	int rc;

	memset(o, 0, sizeof *o);
	c->ref_failed = NULL;
	if (cfg && cfg->max_work > 0)
		c->lim.max_work = cfg->max_work;
	if (cfg)
		c->lim.timeout = cfg->timeout;
	rc = ref_run(c->prog, c->entry, c->inputs, &c->lim, &o->outs,
		     &o->nouts, &o->err);
	if (rc == 1) {
		o->failed = true;
		judge_failure(cfg, c, s, case_runs, o);
		return;
	}
	if (rc) {
		o->outs = NULL;
		o->nouts = 0;
		judge_error(c, o);
		return;
	}
	o->status = STATUS_OK;
	if (c->has_failure) {
		o->status = STATUS_FAIL;
		fmt_snprintf(o->why, sizeof o->why, "expected a failure at line %d "
			 "\"%s\", but the case ran without one",
			 c->failure.line, c->failure.msg);
	} else if (c->has_error) {
		o->status = STATUS_FAIL;
		fmt_snprintf(o->why, sizeof o->why, "expected an error at line %d "
			 "containing \"%s\", but the case ran without one",
			 c->error.line, c->error.msg);
	} else if (c->has_outputs &&
		   check_outputs(c->want, c->nwant, o->outs, o->nouts,
				 "reference", o->why, sizeof o->why)) {
		o->status = STATUS_FAIL;
		o->outputs_differ = true;
	}
	if (!c->has_error)
		check_runs(cfg, c, s, case_runs, o);
}

void
check_file(const RunConfig *cfg, const char *path, const Strategy *s,
	   bool case_runs, Case **c, Outcome *o)
{
	Diag d;

	memset(o, 0, sizeof *o);
	if (case_load(path, 0, c, &d)) {
		o->err = d;
		judge_error(*c, o);
		return;
	}
	check_case(cfg, *c, s, case_runs, o);
}

void
check_confirm_prefill(const RunConfig *cfg, char *const *paths, int n,
		      const Strategy *s)
{
	enum { CHUNK = 64 };
	Case *cs[CHUNK];

	if (!cfg || !cfg->confirm || (cfg->tool && cfg->tool->batch == 1))
		return; /* (--tool-batch 1: each program alone) */
	for (int i = 0; i < n && !stop_signal(); i += CHUNK) {
		int m = 0;
		for (int j = i; j < n && j < i + CHUNK; j++) {
			Case *c = NULL;
			Diag d;
			if (case_load(paths[j], 0, &c, &d) || c->has_error)
				case_free(c); /* (no native run) */
			else
				cs[m++] = c;
		}
		diff_confirm_prefill(cfg, s, cs, m, true);
		for (int j = 0; j < m; j++)
			case_free(cs[j]);
	}
	native_batch_stats_report();
}
