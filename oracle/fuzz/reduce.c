/*
 * reduce.c: a failing run -> the smallest case that still fails the same
 * way (docs/reduce.md).
 *
 * Text-level, like C-Reduce: every candidate is an edit of the current
 * program's canonical text (one op a line, regions spanning lines), written
 * out as a whole case file and loaded back through case_parse, so the plan,
 * the inputs and the names are checked exactly as a user's case would be.
 * A candidate is accepted when it verifies, its reference run succeeds, it
 * is smaller (ops, then tensor elements, then text), and the same run still
 * fails the same way: the same verdict, the same first violation kind seen
 * by the same kind of op, every original culprit decision ("@f/y:x")
 * among its culprits, or, without culprits, the same victim.  Verdicts are
 * cached by candidate text.
 *
 * Passes, repeated to a fixpoint within a candidate budget: expose an
 * intermediate as the entry's only result (dropping dead ops); structural
 * inlining (for, if, async, call); blocks and edges removed (merges,
 * cond_br -> br, block arguments, retargeted edges: reduce_cfg.c); ddmin
 * over ops with use-repair; halving a static dim size.
 *
 * This file is the driver: the original failure and its starting point,
 * the passes to a fixpoint, the written case (which must pass check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "reduce_impl.h"
#include "stop.h"

/* A candidate whose while no longer ends would spin to the case's trip
 * limit (10^7, seconds a run): candidates get this one instead when the
 * original run stays within it. */
#define REDUCE_TRIP_CAP 100000

/* Whether allocations fail now: a failure deep in the oracle (its culprit
 * bisection) may show only as a different verdict. */
static bool
allocs_fail(void)
{
	void *p = mem_alloc(1);

	mem_free(p);
	return !p;
}

/* ------------------------------------------------------------ driver */

static int
reduce_loop(Red *r)
{
	int (*const passes[])(Red *) = {
		red_pass_expose, red_pass_structural, red_pass_cfg,
		red_pass_ddmin, red_pass_params, red_pass_shapes};
	int progress = 1, rc;

	while (progress && r->st->candidates < r->budget && !stop_signal() &&
	       !red_late(r)) {
		progress = 0;
		for (size_t i = 0; i < sizeof passes / sizeof *passes; i++) {
			if ((rc = passes[i](r)) < 0)
				return -1;
			progress |= rc;
		}
	}
	return 0;
}

/* Does c's reference run (to its end or its failure) within `cap` trips? */
static bool
trips_within(const Case *c, int64_t cap)
{
	Limits lim = c->lim;
	Tensor **ref = NULL;
	int nref = 0, rc;
	Diag d;

	if (lim.max_trips <= cap)
		return false;
	lim.max_trips = cap;
	rc = ref_run(c->prog, c->entry, c->inputs, &lim, &ref, &nref, &d);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	return rc >= 0;
}

/* The original run: 1 when it does not fail; else its signature and the
 * starting point (the case re-written, which must fail the same way). */
static int
reduce_start(Red *r, int run)
{
	const Case *c = r->orig;
	char *text = NULL, *yaml = NULL;
	Str in = {0};
	Case *cc = NULL;
	RunOut o;
	Diag why;
	int rc = red_evaluate(r, c, run, &o, &why);

	if (rc)
		return rc < 0 ? -1 : (*r->d = why, -1);
	if (!red_failing(&o)) {
		runout_clear(&o);
		return 1;
	}
	rc = red_set_signature(r, &o);
	runout_clear(&o);
	if (rc)
		return -1;
	r->trip_cap = trips_within(c, REDUCE_TRIP_CAP) ? REDUCE_TRIP_CAP : 0;
	emit_inputs(&in, c->entry, c->inputs);
	if (!(r->inputs = str_take(&in)) || !(text = tir_print(c->prog)) ||
	    !(yaml = red_case_text(r, "reduce/start", NULL, text, r->inputs, c->prog,
				   NULL, 0))) {
		mem_free(text);
		return red_oom(r);
	}
	rc = red_judge(r, yaml, &cc);
	mem_free(yaml);
	if (rc <= 0) {
		mem_free(text);
		return rc < 0 || allocs_fail() ? red_oom(r) : diag_set(r->d, r->run->loc, "reduce: the "
			"failure does not reproduce from the re-written case");
	}
	return red_adopt(r, cc, text, r->inputs,
			 red_metric(cc->prog, strlen(text)));
}

/* Does the written case pass `bufdiff check`? */
static int
self_check(Red *r, const char *yaml, bool *ok)
{
	Case *c = NULL;
	Outcome o;
	Diag d;
	int rc = 0;

	memset(&o, 0, sizeof o);
	*ok = false;
	if (case_parse("reduced.yaml", yaml, strlen(yaml), CASE_TRUSTED, &c,
		       &d)) {
		rc = red_reject(r, &d);
	} else {
		check_case(r->cfg, c, NULL, true, &o);
		*ok = o.status == STATUS_OK;
		if (o.errored && strstr(o.err.msg, "out of memory"))
			rc = red_oom(r);
		if (strstr(o.why, "out of memory"))
			rc = red_oom(r);
	}
	outcome_clear(&o);
	case_free(c);
	return rc;
}

/* The reduced case with the run's results; blame records only when the
 * case checks with them.  must_agree: once it checks, written again with
 * those results as comments (red_case_seen), the run expecting nothing. */
static int
reduce_finish(Red *r, const char *name, const char *about, bool must_agree,
	      char **yaml)
{
	RunOut o;
	Diag why;
	Str ab = {0};
	char *abt;
	bool ok = false;
	int rc = red_evaluate(r, r->c, 0, &o, &why);

	if (rc)
		return rc < 0 ? -1 : (*r->d = why, -1);
	if (about)
		str_printf(&ab, "%s ", about);
	str_printf(&ab, "Reduced from %s (run %d) by bufdiff reduce: %d -> %d "
		   "ops, %d candidates, %d cached.", r->orig->name,
		   (int)(r->run - r->orig->runs) + 1, r->orig->prog->nops,
		   r->c->prog->nops, r->st->candidates, r->st->cache_hits);
	if (!(abt = str_take(&ab))) {
		runout_clear(&o);
		return red_oom(r);
	}
	int nblame = 3;
	for (; nblame >= 0; nblame -= 3) {
		mem_free(*yaml);
		*yaml = red_case_text(r, name, abt, r->text, r->inputs,
				      r->c->prog, &o, nblame);
		if (!*yaml || self_check(r, *yaml, &ok)) {
			rc = red_oom(r);
			break;
		}
		if (ok)
			break;
	}
	if (!rc && ok && must_agree) {
		mem_free(*yaml);
		if (!(*yaml = red_case_seen(r, name, abt, &o, nblame)))
			rc = red_oom(r);
	}
	mem_free(abt);
	runout_clear(&o);
	if (!rc && !ok && allocs_fail())
		rc = red_oom(r);
	if (!rc && !ok)
		rc = diag_set(r->d, r->run->loc, "reduce: the reduced case "
			      "does not pass check");
	if (rc) {
		mem_free(*yaml);
		*yaml = NULL;
	}
	return rc;
}

/* A signal asked us to stop (stop.h): the smallest case that failed the
 * same way so far, without the run's results (running it again for them
 * would run the tool again), or none when the start was cut short. */
static int
reduce_stopped(Red *r, const char *name, const char *about, char **yaml)
{
	mem_free(*yaml);
	*yaml = NULL;
	diag_set(r->d, (Loc){0, 0}, "reduce: interrupted by %s",
		 stop_signal_name(stop_signal()));
	if (!r->c || !r->text || !r->inputs)
		return -1;
	if (!(*yaml = red_case_text(r, name, about, r->text, r->inputs,
				    r->c->prog, NULL, 0)))
		return -1;
	return 2;
}

static void
red_free(Red *r)
{
	for (int i = 0; i < r->nculprits; i++)
		mem_free(r->culprits[i]);
	mem_free(r->culprits);
	mem_free(r->victim);
	mem_free(r->tool);
	red_index_free(r);
	case_free(r->c);
	mem_free(r->text);
	mem_free(r->inputs);
	cache_free(&r->cache);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
reduce_case(const RunConfig *cfg, const Case *c, int run, const char *name,
	    const char *about, char **yaml, ReduceStats *st, Diag *d)
{
	ReduceAs as = {.name = name, .about = about};

	return reduce_case_as(cfg, c, run, &as, yaml, st, d);
}

int
reduce_case_as(const RunConfig *cfg, const Case *c, int run,
	       const ReduceAs *as, char **yaml, ReduceStats *st, Diag *d)
{
	Red r = {.cfg = cfg, .orig = c, .d = d, .st = st, .vkind = -1,
		 .reader = -1, .budget = cfg && cfg->reduce_budget > 0 ?
					 cfg->reduce_budget : 4000,
		 .deadline = as->deadline};
	const char *name = as->name, *about = as->about;
	double t0 = now();
	char *defname = NULL;
	int rc;

	*yaml = NULL;
	memset(st, 0, sizeof *st);
	if (!c || !c->prog || !c->entry || run < 0 || run >= c->nruns)
		return diag_set(d, (Loc){0, 0}, "the case has no run %d", run + 1);
	r.run = &c->runs[run];
	st->ops_before = st->ops_after = c->prog->nops;
	if (!name) {
		Str b = {0};
		str_printf(&b, "reduced/%s", c->name ? c->name : "case");
		if (!(name = defname = str_take(&b)))
			return red_oom(&r);
	}
	rc = reduce_start(&r, run);
	if (!rc)
		rc = reduce_loop(&r);
	if (!rc && r.late) /* out of time: the caller keeps it whole */
		rc = 3;
	if (!rc && !stop_signal())
		rc = reduce_finish(&r, name, about, as->must_agree, yaml);
	if (stop_signal())
		rc = reduce_stopped(&r, name, about, yaml);
	if (r.c)
		st->ops_after = r.c->prog->nops;
	red_free(&r);
	mem_free(defname);
	st->seconds = now() - t0;
	return rc;
}
