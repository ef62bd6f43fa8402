/*
 * diff.c: one bufferized run against the reference.
 *
 * decisions (strategy + the run's plan) -> lowering -> instrumented
 * execution -> bit-exact comparison with the reference -> verdict; for a
 * failing run, delta debugging over its in-place decisions finds the
 * smallest set that keeps it failing (the culprits); then the run's own
 * expectations (verdict, outputs, blame, memory, culprits, decisions).
 */
#include <inttypes.h>
#include <stdio.h>

#include "harness.h"
#include "cases.h"

const RunConfig run_config_default = {.nrandom = 8};

/* --memory-trace's run column: the process's runs counted (a counter, not
 * a setting). */
static int trace_run;

/* What one execution's steps go to: the CSV and/or a series. */
typedef struct Rec {
	const RunConfig *cfg;   /* its trace and record */
	MemSeries s;
	char tail[4200];        /* the CSV row's last three fields, "\n" */
} Rec;

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void
csv_field(Str *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		str_puts(b, s);
		return;
	}
	str_puts(b, "\"");
	for (; *s; s++) {
		if (*s == '"')
			str_puts(b, "\"");     /* doubled */
		str_put(b, s, 1);
	}
	str_puts(b, "\"");
}

/* ",RUN,STRATEGY,SCHEDULE\n" into r->tail (cut to fit). */
static void
rec_tail(Rec *r, int run, const char *strategy, const char *sched)
{
	Str b = {0};

	str_printf(&b, ",%d,", run);
	csv_field(&b, strategy);
	str_puts(&b, ",");
	csv_field(&b, sched);
	str_puts(&b, "\n");
	fmt_snprintf(r->tail, sizeof r->tail, "%s", b.oom ? "\n" : b.s);
	str_free(&b);
}

static void
series_add(MemSeries *s, int64_t step, int64_t live, const BInst *in,
	   int stream)
{
	if (s->n == s->cap) {
		int nc = s->cap ? 2 * s->cap : 256;
		MemPoint *np = nc <= MEMSERIES_MAX ?
			       mem_realloc(s->p, sizeof *np * (size_t)nc) : NULL;
		if (!np) {
			s->truncated = true;
			return;
		}
		s->p = np;
		s->cap = nc;
	}
	s->p[s->n++] = (MemPoint){step, live, in,
				  in->op ? in->op->loc.line :
				  in->top ? in->top->loc.line : 0, stream};
}

/* --memory-trace: one row per step, at most TRACE_ROWS a run (a run may
 * take 10^9 steps: tens of GB of CSV), then one line saying so. */
enum { TRACE_ROWS = 1 << 20 };

static void
on_step(void *ctx, int64_t step, int64_t live, const BInst *in, int stream)
{
	Rec *r = ctx;
	FILE *trace = r->cfg->trace;

	if (trace && step <= TRACE_ROWS) {
		fprintf(trace, "%lld,%lld,%d", (long long)step,
			(long long)live, in->op ? in->op->loc.line : 0);
		fputs(r->tail, trace);
	} else if (trace && step == TRACE_ROWS + 1) {
		fprintf(trace, "# truncated: this run has more than %d "
			"steps\n", TRACE_ROWS);
	}
	if (r->cfg->record)
		series_add(&r->s, step, live, in, stream);
}

void
runout_clear(RunOut *o)
{
	decisions_free(&o->ds);
	exec_result_free(&o->ex);
	bprog_free(o->bp);
	mem_free(o->first_diff);
	mem_free(o->culprits);
	mem_free(o->lculprits);
	mem_free(o->culprit_sets);
	mem_free(o->setstart);
	decisions_free(&o->oneshot);
	mem_free(o->tool.decisions);
	mem_free(o->tool.memref);
	mem_free(o->series.p);
	mem_free(o->native.command);
	memset(o, 0, sizeof *o);
}

const char *const native_verdict_names[] = {
	"none", "confirmed", "latent", "missed", "agree", "failed"};

/* mlir-native: MLIR's own output is the verdict; the instrumented run's
 * violations stay in the report as what explains it (or, when the output
 * agrees, as latent). */
static void
native_verdict(RunOut *o)
{
	const NativeJudge *j = &o->native;

	switch (j->verdict) {
	case NATIVE_CONFIRMED:
	case NATIVE_MISSED:
		o->verdict = VERDICT_DIVERGE;
		break;
	case NATIVE_FAILED:
		o->verdict = VERDICT_TOOL_ERROR;
		fmt_snprintf(o->tool.status, sizeof o->tool.status,
			     "native: %s", j->msg);
		break;
	default:
		o->verdict = VERDICT_AGREE;
	}
}

/* The reference fails at an assert, so its "output" is that failure:
 * natively cf.assert aborts, which matches; a run that returns has gone
 * past it, which differs; anything else (it never ran, an LLVM crash, a
 * timeout) is a failure of the judge. */
static void
judge_abort(const Case *c, const Native *nr, const Diag *d, bool failed,
	    NativeJudge *j)
{
	NativeEnd end = native_end(nr);

	if (end == NATIVE_END_ABORT) {
		j->verdict = failed ? NATIVE_LATENT : NATIVE_AGREE;
		fmt_snprintf(j->msg, sizeof j->msg, "MLIR's code aborts, as the "
			     "reference fails at the assert of line %d",
			     c->ref_failed->loc.line);
	} else if (end == NATIVE_END_RAN) {
		j->verdict = failed ? NATIVE_CONFIRMED : NATIVE_MISSED;
		fmt_snprintf(j->msg, sizeof j->msg, "MLIR's code runs past the "
			     "assert of line %d, where the reference fails",
			     c->ref_failed->loc.line);
	} else {
		j->verdict = NATIVE_FAILED;
		fmt_snprintf(j->msg, sizeof j->msg, "%s", d->msg);
	}
}

/* The native options of a run of strategy s whose pipeline is `pipeline`
 * (run_tool_opts); false when the run is not judged natively. */
static bool
confirm_opts(const RunConfig *cfg, const Strategy *s, const char *pipeline,
	     NativeOpts *no)
{
	const ExternalOpts *eo = cfg->tool ? cfg->tool : &external_opts_default;

	*no = (NativeOpts){.v = mlir_version(external_mlir_version(cfg->tool, s)),
			   .tool = s->arg, .options = eo->mlir_options,
			   .timeout = eo->timeout};
	if ((!cfg->confirm && s->kind != STRAT_NATIVE) ||
	    (s->kind != STRAT_MLIR && s->kind != STRAT_PIPELINE &&
	     s->kind != STRAT_NATIVE) || !no->v)
		return false;
	if (s->kind == STRAT_PIPELINE)
		no->pipeline = pipeline ? pipeline
			       : eo->mlir_pipeline && *eo->mlir_pipeline
			       ? eo->mlir_pipeline : MLIR_PIPELINE;
	return true;
}

/* --confirm: the program as the run's MLIR tool bufferizes it, run
 * natively on the case's inputs and compared with the reference. */
static void
confirm(const RunConfig *cfg, const Case *c, const Strategy *s,
	Tensor *const *ref, int nref, RunOut *o)
{
	NativeOpts no;
	NativeJudge *j = &o->native;
	Native nr;
	Diag d;
	bool failed = o->verdict == VERDICT_DIVERGE || o->verdict == VERDICT_FAULT;

	if (!confirm_opts(cfg, s, o->pipeline, &no) ||
	    o->verdict == VERDICT_TOOL_ERROR || o->status == STATUS_BAD)
		return;
	/* (a run pinned to one schedule is judged under that one) */
	if (!o->all && o->sched.kind == SCHED_SYNC)
		no.only = NATIVE_SYNC;
	else if (!o->all && o->sched.kind == SCHED_LATE)
		no.only = NATIVE_LATE;
	j->output = -1;
	if (c->ref_failed) {
		/* (the reference fails at an assert: natively it aborts) */
		no.end_only = true;
		native_run(c->prog, c->file, c->entry, c->inputs, ref, 0, &no,
			   &nr, &d);
		judge_abort(c, &nr, &d, failed, j);
	} else if (native_run(c->prog, c->file, c->entry, c->inputs, ref, nref,
			      &no, &nr, &d)) {
		j->verdict = NATIVE_FAILED;
		fmt_snprintf(j->msg, sizeof j->msg, "%s", d.msg);
	} else {
		for (int k = 0; k < nref && j->output < 0; k++)
			for (int64_t i = 0; i < ref[k]->n && j->output < 0; i++)
				if (tensor_defined(ref[k], i) &&
				    !native_elem_close(ref[k], nr.outs[k], i)) {
					j->output = k;
					j->elem = i;
					j->ref = tensor_getf(ref[k], i);
					j->got = tensor_getf(nr.outs[k], i);
				}
		j->verdict = j->output >= 0 ? failed ? NATIVE_CONFIRMED : NATIVE_MISSED
			     : failed ? NATIVE_LATENT : NATIVE_AGREE;
		if (j->output >= 0)
			j->race = race_order(c, nr.outs, nr.nouts, true);
	}
	j->sched = nr.sched;
	j->carried = nr.carried;
	j->command = nr.command;
	nr.command = NULL;
	native_free(&nr);
	if (s->kind == STRAT_NATIVE)
		native_verdict(o);
}

/* Strategies whose answers mean MLIR's semantics (a read beyond a forall
 * trip's slice is a race there, not the init's value). */
static bool
mlir_meaning(const Strategy *s)
{
	return s->kind == STRAT_MLIR || s->kind == STRAT_PIPELINE ||
	       s->kind == STRAT_EXEC_MLIR || s->kind == STRAT_NATIVE;
}

/* Item 4 of issue 23: outputs that differ, racy read or miscompile. */
static void
judge_race(const Case *c, const Strategy *s, int nref, RunOut *o)
{
	bool differ = false;

	for (int k = 0; k < nref; k++)
		differ = differ || o->first_diff[k] >= 0;
	if (mlir_meaning(s) && o->verdict == VERDICT_DIVERGE && differ &&
	    !o->ex.aborted[0] && !o->ex.failed)
		o->race = race_order(c, o->ex.outs, o->ex.nouts, false);
}

/* Lower and execute decisions ds; -1 with err only when out of memory.
 * The violations point into the buffer program: *keep receives it (the
 * caller frees it after the report), or it is freed here when keep is
 * NULL. */
static int kept(BProg *bp, BProg **keep, int rc);

/* What run_schedules' runs of one buffer program share: the random
 * schedules run so far, each with its tape and verdict (a later seed
 * whose draws decide what one of theirs did makes the same run:
 * sched_tape_same; it is counted without running it), the tape of the
 * run now (rec, NULL: none), and what the executor computes once of the
 * program (share, NULL: out of memory). */
typedef struct Tapes {
	SchedTape t[64];
	Verdict v[64];
	int n;
	SchedTape *rec;
	ExecShare *share;
} Tapes;

/* Execute a buffer program (run_schedules runs one for every
 * schedule). */
static int
execute_lowered(const RunConfig *cfg, const Case *c, const BProg *bp,
		const Func *entry, Schedule sched, Rec *rec, Tapes *ts,
		ExecResult *ex, Diag *err)
{
	ExecOpts eo = {.lim = &c->lim, .sched = sched,
		       .alloc_overhead = cfg->alloc_overhead,
		       .on_step = rec ? on_step : NULL, .step_ctx = rec,
		       .tape = ts ? ts->rec : NULL,
		       .share = ts ? ts->share : NULL};

	memset(ex, 0, sizeof *ex);
	return exec_run(bp, entry, c->inputs, &eo, ex, err);
}

static int
execute(const RunConfig *cfg, const Case *c, const Decisions *ds,
	Schedule sched, Rec *rec, ExecResult *ex, BProg **keep, Diag *err)
{
	BProg *bp = bufferize_lower(c->prog, ds, err);

	memset(ex, 0, sizeof *ex);
	if (!bp)
		return -1;
	return kept(bp, keep, execute_lowered(cfg, c, bp, c->entry, sched, rec,
						 NULL, ex, err));
}

/* The buffer program goes to *keep after a run, else it is freed. */
static int
kept(BProg *bp, BProg **keep, int rc)
{
	if (keep && !rc)
		*keep = bp;
	else
		bprog_free(bp);
	return rc;
}

/* First differing element of each output (bit for bit but any NaN is any
 * NaN, where the reference is defined); first[k] = -1 when output k
 * agrees. */
static Verdict
judge(const ExecResult *ex, Tensor *const *ref, int nref, int64_t *first,
      const Op *rfail)
{
	bool differs = ex->aborted[0] || ex->nouts != nref;

	if (rfail || ex->failed) {
		/* the failure path: the same assert, or a divergence */
		for (int k = 0; k < nref; k++)
			first[k] = -1;
		if (ex->failed != rfail || ex->aborted[0])
			return VERDICT_DIVERGE;
		return ex->nviols ? VERDICT_FAULT : VERDICT_AGREE;
	}
	for (int k = 0; k < nref; k++) {
		const Tensor *a = ref[k], *b = k < ex->nouts ? ex->outs[k] : NULL;
		first[k] = -1;
		if (!b || a->n != b->n || a->rank != b->rank || a->dt != b->dt) {
			first[k] = 0;
			differs = true;
			continue;
		}
		for (int64_t i = 0; i < a->n; i++)
			if (tensor_defined(a, i) && !tensor_elem_same(a, b, i)) {
				first[k] = i;
				differs = true;
				break;
			}
	}
	if (differs)
		return VERDICT_DIVERGE;
	return ex->nviols ? VERDICT_FAULT : VERDICT_AGREE;
}

/* Are a and b the same bits (shape, dtype, payload, definedness)? */
static bool
same_bits(const Tensor *a, const Tensor *b)
{
	if (a->dt != b->dt || a->rank != b->rank || a->n != b->n ||
	    memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank) ||
	    !a->def != !b->def)
		return false;
	return !memcmp(a->data, b->data, (size_t)a->n * dtype_size(a->dt)) &&
	       (!a->def || !memcmp(a->def, b->def, (size_t)a->n));
}

/* A run's output equal to the reference's bit for bit is not kept twice:
 * ex points at the reference's (issue 12 item 14: 256 runs that agree
 * hold one copy of the outputs, not 257). */
static void
share_outputs(ExecResult *ex, Tensor *const *ref, int nref)
{
	for (int k = 0; k < ex->nouts && k < nref; k++) {
		if (!same_bits(ex->outs[k], ref[k]))
			continue;
		if (!ex->shared &&
		    !(ex->shared = mem_calloc((size_t)ex->nouts, sizeof *ex->shared)))
			return; /* out of memory: keep the copies */
		tensor_free(ex->outs[k]);
		ex->outs[k] = ref[k];
		ex->shared[k] = true;
	}
}

/* ---- culprit bisection: ddmin over the in-place decisions and the
 * calls' argument sharing, or over the plan's frees, hoists and anchors
 *
 * A choice is an index: below Bisect.n one of `all` (a decision), from n
 * on a lifetime choice (plan_lifetimes' numbering + n). */

typedef struct Bisect {
	const Case *c;
	const Decisions *ds;
	Schedule sched;
	Tensor *const *ref;
	int nref;
	Value **all;           /* the decisions bisection may flip */
	int n;
	int nl;                /* the lifetime choices */
	bool life;             /* bisecting those (the decisions all kept) */
	int64_t *first;
	bool oom;
	/* the failure to keep: the run's verdict and its first violation */
	Verdict verdict;
	const Violation *viol;
	bool any;              /* more_culprits: any failure will do */
	const RunConfig *cfg;
} Bisect;

/* The same value, or one the lowering made alike (`%x.out`: made anew in
 * every lowering). */
static bool
same_value(const Value *a, const Value *b)
{
	return a == b || (a && b && a->func == b->func && !strcmp(a->name, b->name));
}

/* Is ex's failure the one bisection keeps: the same verdict and, when the
 * run had violations, one of the same kind seen by the same reader as its
 * first?  (Any failure would do otherwise: a subset that trades a
 * use-after-free for an unrelated stale read is not this failure's
 * culprit.  The victim is not compared: which value's buffer a freed read
 * names depends on the decisions.) */
static bool
same_failure(const Bisect *b, const ExecResult *ex, Verdict v)
{
	if (ex->limited) /* a limit is not this failure, nor any */
		return false;
	if (b->any)
		return v != VERDICT_AGREE;
	if (v != b->verdict)
		return false;
	if (!b->viol)
		return true;
	for (int i = 0; i < ex->nviols; i++) {
		const Violation *w = &ex->viols[i];
		if (w->kind == b->viol->kind &&
		    same_value(inst_value(w->at), inst_value(b->viol->at)))
			return true;
	}
	return false;
}

/* The decisions of the run with the choices outside keep flipped (those
 * of the kind not bisected stay), into t (arrays of its own). */
static int
flipped_decisions(Bisect *b, const int *keep, int nkeep, Decisions *t)
{
	bool *kept = mem_calloc((size_t)(b->n + b->nl + 1), sizeof *kept);
	int rc = -1;

	*t = *b->ds;
	t->frees = NULL; /* plan_lifetimes_keep makes t's own */
	t->hoists = NULL;
	t->anchors = NULL;
	t->d = mem_alloc((size_t)(b->c->prog->nvalues + 1) * sizeof *t->d);
	t->eshare = mem_calloc((size_t)(b->c->prog->nvalues + 1), sizeof *t->eshare);
	t->argcopies = mem_alloc((size_t)(t->nargcopies + 1) * sizeof *t->argcopies);
	t->capargcopies = t->nargcopies + 1;
	if (!kept || !t->d || !t->argcopies || !t->eshare)
		goto out;
	for (int i = 0; i < b->n + b->nl; i++)
		kept[i] = b->life != (i >= b->n); /* not bisected: stays */
	for (int j = 0; j < nkeep; j++)
		kept[keep[j]] = true;
	memcpy(t->d, b->ds->d, (size_t)b->c->prog->nvalues * sizeof *t->d);
	if (b->ds->eshare)
		memcpy(t->eshare, b->ds->eshare, (size_t)b->c->prog->nvalues *
		       sizeof *t->eshare);
	if (t->nargcopies)
		memcpy(t->argcopies, b->ds->argcopies, (size_t)t->nargcopies *
		       sizeof *t->argcopies);
	if (plan_lifetimes_keep(b->ds, kept + b->n, t))
		goto out;
	for (int i = 0; i < b->n; i++) {
		if (kept[i])
			continue;
		if (is_block_arg(b->all[i]) || is_share_result(b->all[i]))
			t->eshare[b->all[i]->id] = 0; /* copies on every edge */
		else if (!decision_is_call(b->all[i]))
			t->d[b->all[i]->id] = (Decision){.kind = DEC_NEW,
							  .forced = true};
		else if (decisions_copy_args(t, b->all[i]->def, "flipped by "
					     "the culprit bisection"))
			goto out;
	}
	rc = 0;
out:
	mem_free(kept);
	return rc;
}

static void
flipped_free(Decisions *t)
{
	mem_free(t->d);
	mem_free(t->argcopies);
	mem_free(t->eshare);
	mem_free(t->frees);
	mem_free(t->hoists);
	mem_free(t->anchors);
}

/* Does the run still fail with only `keep` in place (the rest flipped)? */
static bool
still_fails(Bisect *b, const int *keep, int nkeep)
{
	Decisions t;
	ExecResult ex;
	Diag err;
	Verdict v;
	BProg *bp = NULL;
	bool same;

	if (flipped_decisions(b, keep, nkeep, &t) ||
	    execute(b->cfg, b->c, &t, b->sched, NULL, &ex, &bp, &err)) {
		b->oom = true;
		flipped_free(&t);
		return false;
	}
	v = judge(&ex, b->ref, b->nref, b->first, b->c->ref_failed);
	same = same_failure(b, &ex, v); /* its violations point into bp */
	exec_result_free(&ex);
	bprog_free(bp);
	flipped_free(&t);
	return same;
}

/* Zeller's ddmin: shrink set[0..*n) to a 1-minimal failing subset. */
static void
ddmin(Bisect *b, int *set, int *n)
{
	int *tmp = mem_alloc((size_t)(*n + 1) * sizeof *tmp);
	int gran = 2;

	if (!tmp) {
		b->oom = true;
		return;
	}
	if (still_fails(b, NULL, 0))
		*n = 0; /* fails with nothing in place: no culprit */
	while (*n >= 2 && !b->oom) {
		int chunk = (*n + gran - 1) / gran, found = 0;
		for (int s = 0; s < *n && !found; s += chunk) {
			int len = s + chunk > *n ? *n - s : chunk, m = 0;
			if (still_fails(b, set + s, len)) {
				memmove(set, set + s, (size_t)len * sizeof *set);
				*n = len;
				gran = 2;
				found = 1;
				break;
			}
			for (int i = 0; i < *n; i++)
				if (i < s || i >= s + len)
					tmp[m++] = set[i];
			if (gran > 2 && still_fails(b, tmp, m)) {
				memcpy(set, tmp, (size_t)m * sizeof *set);
				*n = m;
				gran = gran - 1 > 2 ? gran - 1 : 2;
				found = 1;
			}
		}
		if (!found) {
			if (gran >= *n)
				break;
			gran = 2 * gran < *n ? 2 * gran : *n;
		}
	}
	mem_free(tmp);
}

/* Independent culprits: with every set found so far flipped to `new`,
 * does the run still fail, in any way (another culprit's failure need not
 * look like the first)?  Then ddmin over the rest finds the next set.
 * At most MAX_SETS sets. */
enum { MAX_SETS = 8 };

static void
more_culprits(Bisect *b, RunOut *o)
{
	int *rest = mem_alloc((size_t)(b->n + 1) * sizeof *rest);
	int nrest = 0;

	o->culprit_sets = mem_alloc((size_t)(b->n + 1) * sizeof *o->culprit_sets);
	o->setstart = mem_alloc((MAX_SETS + 1) * sizeof *o->setstart);
	if (!rest || !o->culprit_sets || !o->setstart) {
		mem_free(rest);
		return;
	}
	memcpy(o->culprit_sets, o->culprits, (size_t)o->nculprits *
	       sizeof *o->culprits);
	o->setstart[0] = 0;
	o->nsets = o->nculprits ? 1 : 0;
	o->ncsets = o->nculprits;
	b->any = true;
	while (o->nsets && o->nsets < MAX_SETS && !b->oom) {
		int n;
		nrest = 0;
		for (int i = 0; i < b->n; i++) {
			bool taken = false;
			for (int j = 0; j < o->ncsets && !taken; j++)
				taken = o->culprit_sets[j] == b->all[i];
			if (!taken)
				rest[nrest++] = i;
		}
		if (!nrest || !still_fails(b, rest, nrest))
			break;
		n = nrest;
		ddmin(b, rest, &n);
		if (!n || b->oom)
			break; /* fails with the rest flipped too: no culprit */
		o->setstart[o->nsets++] = o->ncsets;
		for (int i = 0; i < n; i++)
			o->culprit_sets[o->ncsets++] = b->all[rest[i]];
	}
	mem_free(rest);
}

/* Is lifetime choice i the free the run's double free faulted at (the
 * extra one: named first)? */
static bool
extra_free(const Bisect *b, int i)
{
	return b->viol && b->viol->kind == VK_DOUBLE_FREE && i < b->ds->nfrees &&
	       same_value(b->ds->frees[i].v, inst_value(b->viol->at));
}

/* The lifetime choices that must stay for the failure to remain, the
 * decisions all kept (a double free is the extra free's, not the legal
 * in-place decision that made two names share the buffer); none when
 * the run still fails with every one flipped. */
static void
lifetime_culprits(Bisect *b, RunOut *o)
{
	if (!b->nl || !(o->lculprits = mem_alloc((size_t)b->nl *
						 sizeof *o->lculprits))) {
		b->oom |= b->nl > 0;
		return;
	}
	b->life = true;
	for (int i = 0; i < b->nl; i++)
		o->lculprits[i] = b->n + i;
	o->nlculprits = b->nl;
	ddmin(b, o->lculprits, &o->nlculprits);
	for (int i = 0; i < o->nlculprits; i++) {
		o->lculprits[i] -= b->n;
		if (i && extra_free(b, o->lculprits[i])) {
			int t = o->lculprits[0];
			o->lculprits[0] = o->lculprits[i];
			o->lculprits[i] = t;
		}
	}
	b->life = false;
}

static void
bisect(const RunConfig *cfg, const Case *c, Schedule sched,
       Tensor *const *ref, int nref, RunOut *o)
{
	Bisect b = {c, &o->ds, sched, ref, nref, NULL, 0, plan_lifetimes(&o->ds),
		    false, NULL, false, o->verdict,
		    o->ex.nviols ? &o->ex.viols[0] : NULL, false, cfg};
	int n = decisions_choices(&o->ds, NULL, 0);
	int *set = mem_alloc((size_t)(n + 1) * sizeof *set);

	b.all = mem_alloc((size_t)(n + 1) * sizeof *b.all);
	o->culprits = mem_alloc((size_t)(n + 1) * sizeof *o->culprits);
	b.first = mem_alloc((size_t)(nref + 1) * sizeof *b.first);
	if (!b.all || !o->culprits || !b.first || !set)
		goto out;
	b.n = decisions_choices(&o->ds, b.all, n);
	lifetime_culprits(&b, o);
	if (o->nlculprits || b.oom)
		goto out;
	for (int i = 0; i < n; i++)
		set[i] = i;
	o->nculprits = n;
	ddmin(&b, set, &o->nculprits);
	for (int i = 0; i < o->nculprits; i++)
		o->culprits[i] = b.all[set[i]];
	if (cfg->report && !b.oom)
		more_culprits(&b, o);
out:
	mem_free(set);
	mem_free(b.all);
	mem_free(b.first);
}

/* ---- the run's expectations */

static bool
blame_matches(const Blame *b, const Violation *v)
{
	if (b->kind >= 0 && (int)v->kind != b->kind)
		return false;
	if (b->writer && inst_value(v->writer) != b->writer)
		return false;
	if (b->victim && v->victim != b->victim)
		return false;
	return !b->reader || inst_value(v->at) == b->reader;
}

static const char *
decision_name(const Forced *f, char *buf, size_t n)
{
	if (f->barg)
		fmt_snprintf(buf, n, "%s:%s", f->result->name, f->words);
	else if (f->words)
		fmt_snprintf(buf, n, "args %s:%s", f->result->name, f->words);
	else
		fmt_snprintf(buf, n, "%s:%s", f->result->name,
			 f->operand ? f->operand->name : "new");
	return buf;
}

/* Did ds take f (f->result's placement, or a call's argument passing)? */
static bool
same_decision(const Decisions *ds, const Forced *f)
{
	const Decision *d = &ds->d[f->result->id];
	char buf[512];

	if (f->barg)
		return !strcmp(strchr(block_arg_str(ds, f->result, buf,
						    sizeof buf), ':') + 1, f->words);
	if (f->words)
		return !strcmp(strchr(call_args_str(ds, f->result, false, buf,
						    sizeof buf), ':') + 1, f->words);
	if (!f->operand)
		return d->kind == DEC_NEW;
	return d->kind == DEC_INPLACE && d->into == f->operand;
}

static int
expect_fail(RunOut *o, const char *fmt, const char *a, const char *b)
{
	o->status = STATUS_FAIL;
	fmt_snprintf(o->why, sizeof o->why, fmt, a, b);
	return -1;
}

static int
check_blame(const Run *r, RunOut *o)
{
	for (int i = 0; r->has_blame && i < r->nblame; i++) {
		const Blame *b = &r->blame[i];
		bool found = false;
		for (int j = 0; j < o->ex.nviols && !found; j++)
			found = blame_matches(b, &o->ex.viols[j]);
		if (!found) {
			char line[16];
			fmt_snprintf(line, sizeof line, "%d", b->loc.line);
			return expect_fail(o, "no violation matches the blame "
					   "record at line %s%s", line, "");
		}
	}
	return 0;
}

static int
check_memory(const Run *r, RunOut *o)
{
	const MemStats *m = &o->ex.mem;
	int64_t got[MS_COUNT] = {m->peak_bytes, m->allocations, m->alloc_bytes,
				 m->copies, m->copy_bytes, m->views};
	char a[48], b[48];

	for (int k = 0; k < MS_COUNT; k++) {
		if (r->memory[k] < 0 || r->memory[k] == got[k])
			continue;
		fmt_snprintf(a, sizeof a, "%s %" PRId64, memstat_names[k], got[k]);
		fmt_snprintf(b, sizeof b, "%" PRId64, r->memory[k]);
		return expect_fail(o, "memory: %s, expected %s", a, b);
	}
	return 0;
}

/* Is lifetime choice f (`free V:after R`, ...) among o's culprits? */
static bool
lifetime_blamed(const RunOut *o, const Forced *f)
{
	char buf[512];

	for (int j = 0; j < o->nlculprits; j++)
		if (!strcmp(plan_lifetime_str(&o->ds, o->lculprits[j], false, buf,
					      sizeof buf), f->life))
			return true;
	return false;
}

/* A `culprits:` list naming no call (`args R:...`) is FORMAT §3's: the
 * in-place culprits only, whatever calls bisection also blames; the
 * plan's frees, hoists and anchors it names like decisions. */
static int
check_culprits(const Run *r, RunOut *o)
{
	char a[96];
	bool calls = false;
	int n = o->nlculprits;

	if (!r->has_culprits)
		return 0;
	for (int i = 0; i < r->nculprits; i++)
		calls |= r->culprits[i].words != NULL && !r->culprits[i].barg;
	for (int j = 0; j < o->nculprits; j++)
		n += calls || !decision_is_call(o->culprits[j]);
	for (int i = 0; i < r->nculprits; i++) {
		const Forced *f = &r->culprits[i];
		bool found = f->life && lifetime_blamed(o, f);
		for (int j = 0; j < o->nculprits && !f->life; j++)
			found |= o->culprits[j] == f->result &&
				 same_decision(&o->ds, f);
		if (!found)
			return expect_fail(o, "culprits: %s is not among them",
					   f->life ? f->life : decision_name(f, a,
					   sizeof a), "");
	}
	if (n != r->nculprits) {
		fmt_snprintf(a, sizeof a, "%d", n);
		return expect_fail(o, "culprits: found %s, expected %s", a,
				   r->nculprits ? "fewer" : "none");
	}
	return 0;
}

static int
check_decisions(const Run *r, RunOut *o)
{
	char a[96], b[112], t[96];

	for (int i = 0; r->has_decisions && i < r->ndecisions; i++) {
		const Forced *f = &r->decisions[i];
		const Decision *d = &o->ds.d[f->result->id];
		if (same_decision(&o->ds, f))
			continue;
		if (f->words)
			fmt_snprintf(b, sizeof b, " (%s was)", choice_str(&o->ds,
				 f->result, t, sizeof t));
		else if (d->kind == DEC_NONE)
			fmt_snprintf(b, sizeof b, " (%%%s has no buffer of its own)",
				 f->result->name);
		else
			fmt_snprintf(b, sizeof b, " (%s was)",
				 dec_str(f->result, d, t, sizeof t));
		return expect_fail(o, "decisions: %s was not taken%s",
				   decision_name(f, a, sizeof a), b);
	}
	return 0;
}

/* `race:` against race_order's answer. */
static bool
check_race(const Run *r, RunOut *o)
{
	static const char *const names[] = {"miscompile", "not judged",
					    "racy-read"};
	int got = o->race > 0 ? 1 : o->race < 0 ? -1 : 0;

	if (!r->race || got == r->race)
		return false;
	expect_fail(o, "race: %s, expected %s", names[got + 1],
		    names[r->race + 1]);
	return true;
}

/* " (STATUS: the first line of its stderr)" after the verdict in got. */
static void
tool_error_why(const ToolReport *t, char *got, size_t n)
{
	size_t len = strlen(got), el = strcspn(t->err, "\n");

	if (!t->status[0])
		return;
	if (el)
		fmt_snprintf(got + len, n - len, " (%s: %.*s)", t->status,
			     (int)(el > 160 ? 160 : el), t->err);
	else
		fmt_snprintf(got + len, n - len, " (%s)", t->status);
}

/* A run that stopped at a limit (o->limited, o->err) has no verdict: as
 * its case expects (`limit: MESSAGE`), it is skipped; otherwise it is
 * the run's error, like any other it cannot be judged after. */
static void
limit_outcome(const Run *r, RunOut *o)
{
	o->status = STATUS_BAD;
	if (!o->limited || !r || !r->limit)
		return;
	fmt_snprintf(o->why, sizeof o->why, "stopped at a limit: %d:%d: %s",
		     o->err.loc.line, o->err.loc.col, o->err.msg);
	if (!strstr(o->err.msg, r->limit)) {
		o->status = STATUS_FAIL;
		fmt_snprintf(o->why, sizeof o->why, "expected a limit \"%s\", "
			     "the run stopped at %d:%d: %s", r->limit,
			     o->err.loc.line, o->err.loc.col, o->err.msg);
		return;
	}
	o->status = STATUS_OK;
	o->skipped = true;
}

static void
check_expectations(const Run *r, RunOut *o)
{
	Verdict want = r && r->verdict != VERDICT_NONE ? r->verdict : VERDICT_AGREE;

	o->status = STATUS_OK;
	if (r && r->limit) {
		expect_fail(o, "verdict %s, expected a limit \"%s\"",
			    verdict_names[o->verdict], r->limit);
		return;
	}
	if (o->verdict != want) {
		char got[400];
		fmt_snprintf(got, sizeof got, "%s", verdict_names[o->verdict]);
		if (o->verdict == VERDICT_TOOL_ERROR) /* and why: one line */
			tool_error_why(&o->tool, got, sizeof got);
		expect_fail(o, "verdict %s, expected %s", got, verdict_names[want]);
		return;
	}
	if (!r)
		return;
	if (r->outputs && check_outputs(r->outputs, r->noutputs, o->ex.outs,
					o->ex.nouts, "bufferized", o->why,
					sizeof o->why)) {
		o->status = STATUS_FAIL;
		return;
	}
	if (check_blame(r, o) || check_memory(r, o) || check_culprits(r, o) ||
	    check_race(r, o))
		return;
	check_decisions(r, o);
}

/* ---- one run */

static int
severity(Verdict v)
{
	return v == VERDICT_DIVERGE ? 2 : v == VERDICT_FAULT;
}

/* The schedules the run asks for (`all`: sync, late and cfg->nrandom
 * random seeds) into list, how many returned; *all: `all` tries more
 * than one.  Launches and forall trips are what a schedule orders; a
 * program with neither runs once (sync). */
static bool
has_orders(const Program *p)
{
	return prog_has_op(p, OP_ASYNC) || prog_has_op(p, OP_FORALL);
}

static int
schedule_list(const RunConfig *cfg, const Case *c, const Run *r,
	      Schedule *list, bool *all)
{
	Schedule want = cfg->sched ? *cfg->sched
			: r && r->has_schedule ? r->schedule
					       : (Schedule){SCHED_ALL, 0};
	int n = 0;

	if (want.kind != SCHED_ALL || !has_orders(c->prog)) {
		list[n++] = want.kind == SCHED_ALL ? (Schedule){SCHED_SYNC, 0} : want;
	} else {
		list[n++] = (Schedule){SCHED_SYNC, 0};
		list[n++] = (Schedule){SCHED_LATE, 0};
		for (int i = 1; i <= cfg->nrandom && i <= 64; i++)
			list[n++] = (Schedule){SCHED_RANDOM, (uint64_t)i};
	}
	*all = want.kind == SCHED_ALL && n > 1;
	return n;
}


/* The verdict of the run of random:seed already made, or -1. */
static int
tapes_find(const Tapes *ts, uint64_t seed)
{
	for (int j = 0; j < ts->n; j++)
		if (sched_tape_same(&ts->t[j], seed))
			return (int)ts->v[j];
	return -1;
}

static void
tapes_free(Tapes *ts)
{
	for (int j = 0; j < ts->n; j++)
		sched_tape_free(&ts->t[j]);
	ts->n = 0;
	exec_share_free(ts->share);
	ts->share = NULL;
}

/* Execute o->bp (the lowering of o->ds, or the strategy's own buffer
 * program, whose entry is entry) under each schedule of list and keep the
 * worst: its result and schedule.  One buffer program serves every
 * schedule (the executor does not change it); a random schedule that
 * would repeat an earlier one's run is counted, not run again. */
static int
run_schedules(const RunConfig *cfg, const Case *c, const Func *entry,
	      const Schedule *list, int n, bool all, Tensor *const *ref,
	      int nref, RunOut *o)
{
	int64_t *tmp = mem_alloc((size_t)(nref + 1) * sizeof *tmp);
	Tapes ts;
	int rc = 0;

	if (!tmp)
		return diag_set(&o->err, c->entry->loc, "out of memory");
	ts.n = 0;
	ts.share = n > 1 ? exec_share_new() : NULL;
	o->ntried = n;
	o->all = all;
	o->nfailing = 0;
	for (int i = 0; i < n; i++) {
		ExecResult ex;
		Verdict v;
		char sname[32];
		Rec rec = {cfg, {0}, ""};
		Rec *rp = cfg->trace || cfg->record ? &rec : NULL;
		/* (never the first: it is kept whatever it says) */
		bool taped = list[i].kind == SCHED_RANDOM && !rp && i;
		int seen;

		if (taped && (seen = tapes_find(&ts, list[i].seed)) >= 0) {
			o->nfailing += seen != VERDICT_AGREE;
			continue;
		}
		/* a sync or late run's tape: random seeds that would make it
		 * again */
		taped |= (list[i].kind == SCHED_LATE ||
			  list[i].kind == SCHED_SYNC) && !rp;
		ts.rec = taped && ts.n < 64 ?
			memset(&ts.t[ts.n], 0, sizeof *ts.rec) : NULL;
		if (cfg->trace)
			rec_tail(&rec, trace_run, o->strategy,
				 schedule_name(list[i], sname, sizeof sname));
		if (execute_lowered(cfg, c, o->bp, entry, list[i], rp, &ts,
				    &ex, &o->err)) {
			/* the process's memory limit (mem.c) */
			o->limited = mem_refused() &&
				     !strncmp(o->err.msg, "memory limit", 12);
			mem_free(rec.s.p);
			if (ts.rec)
				sched_tape_free(ts.rec);
			rc = -1;
			break;
		}
		if (ex.limited) { /* a limit, not a verdict: the run's error */
			o->limited = true;
			o->err.loc = ex.aborted_at;
			fmt_snprintf(o->err.msg, sizeof o->err.msg, "%s",
				     ex.aborted);
			o->sched = list[i];
			schedule_name(o->sched, o->schedule, sizeof o->schedule);
			exec_result_free(&ex);
			mem_free(rec.s.p);
			if (ts.rec)
				sched_tape_free(ts.rec);
			rc = -1;
			break;
		}
		v = judge(&ex, ref, nref, tmp, c->ref_failed);
		share_outputs(&ex, ref, nref);
		o->nfailing += v != VERDICT_AGREE;
		if (ts.rec)
			ts.v[ts.n++] = v;
		if (i && severity(v) <= severity(o->verdict)) {
			exec_result_free(&ex);
			mem_free(rec.s.p);
			continue;
		}
		exec_result_free(&o->ex);
		mem_free(o->series.p);
		o->series = rec.s;
		o->ex = ex;
		o->verdict = v;
		o->sched = list[i];
		memcpy(o->first_diff, tmp, (size_t)nref * sizeof *tmp);
	}
	tapes_free(&ts);
	mem_free(tmp);
	if (!rc)
		schedule_name(o->sched, o->schedule, sizeof o->schedule);
	return rc;
}

/* A run without violations or recorded steps needs its buffer program no
 * more (nothing of the report points into it): 256 runs of a program of
 * 20,000 ops held 3 GB of them (issue 12 item 14). */
static void
release_program(RunOut *o)
{
	if (o->ex.nviols || o->series.p || !o->bp || o->bp->memref)
		return;
	bprog_free(o->bp);
	o->bp = NULL;
}

/* The tool options of run r of strategy s: the configuration's, with the
 * run's `pipeline:` in place of --mlir-pipeline and the directory its
 * command runs in (in *buf).  *pipeline:
 * the pipeline given, NULL for the default or another strategy. */
const ExternalOpts *
run_tool_opts(const RunConfig *cfg, const Run *r, const Strategy *s,
	      ExternalOpts *buf, const char **pipeline)
{
	const ExternalOpts *o = cfg->tool ? cfg->tool : &external_opts_default;
	bool own = r && (r->workdir || (s->kind == STRAT_PIPELINE && r->pipeline));

	*pipeline = NULL;
	if (s->kind == STRAT_PIPELINE)
		*pipeline = r && r->pipeline ? r->pipeline
			: o->mlir_pipeline && *o->mlir_pipeline ? o->mlir_pipeline
								: NULL;
	if (!own)
		return cfg->tool;
	*buf = *o; /* the run's own: its pipeline, where its command runs */
	if (s->kind == STRAT_PIPELINE && r->pipeline)
		buf->mlir_pipeline = r->pipeline;
	buf->workdir = r->workdir;
	return buf;
}

int
diff_confirm_prefill(const RunConfig *cfg, const Strategy *s,
		     Case *const *cases, int n, bool case_runs)
{
	NativeJob *jobs;
	int m = 0, k;

	if (!cfg || !cfg->confirm)
		return 0;
	for (int i = 0; i < n; i++)
		m += (case_runs ? cases[i]->nruns : 0) + (s != NULL);
	if (!(jobs = mem_calloc((size_t)m + 1, sizeof *jobs)))
		return 0;
	m = 0;
	for (int i = 0; i < n; i++) {
		const Case *c = cases[i];
		for (int j = case_runs ? 0 : c->nruns; j <= c->nruns; j++) {
			const Run *r = j < c->nruns ? &c->runs[j] : NULL;
			const Strategy *rs = r ? r->strategy : s;
			ExternalOpts buf;
			const char *pipeline;
			if (!rs)
				continue;
			run_tool_opts(cfg, r, rs, &buf, &pipeline);
			if (!confirm_opts(cfg, rs, pipeline, &jobs[m].o))
				continue;
			jobs[m].p = c->prog;
			jobs[m].file = c->file;
			jobs[m].entry = c->entry;
			jobs[m].inputs = c->inputs;
			m++;
		}
	}
	k = native_prefill(jobs, m);
	mem_free(jobs);
	return k;
}

void
diff_run(const RunConfig *cfg, const Case *c, const Run *r, const Strategy *s,
	 Tensor *const *ref, int nref, RunOut *o)
{
	Schedule list[2 + 64];
	ExternalOpts topts;
	Answer a = {.ds = &o->ds};
	bool all;
	int n, rc;

	memset(o, 0, sizeof *o);
	if (!cfg)
		cfg = &run_config_default;
	trace_run++;
	if (r) /* a case's run: its own strategy (plans: copy-all for the rest) */
		s = r->strategy;
	if (!s)
		s = strategy_find("copy-all");
	o->strategy = r && run_has_plan(r) ? "plan" : s->name;
	fmt_snprintf(o->schedule, sizeof o->schedule, "sync");
	o->status = STATUS_OK;
	if (!(o->first_diff = mem_calloc((size_t)nref + 1, sizeof *o->first_diff))) {
		diag_set(&o->err, c->entry->loc, "out of memory");
		o->status = STATUS_BAD;
		return;
	}
	n = schedule_list(cfg, c, r, list, &all);
	rc = strategy_answer(s, &(StratCtx){c->prog, c, run_tool_opts(cfg, r, s,
					    &topts, &o->pipeline)}, &a);
	o->tool = a.tool;
	o->bp = a.bp;
	if (rc > 0) { /* nothing to execute */
		/* reports say which schedules a buffer program's failure
		 * was met under (decisions fail before any is chosen) */
		if (s->flags & STRAT_MEMREF)
			o->ntried = n, o->all = all;
		o->verdict = VERDICT_TOOL_ERROR;
		check_expectations(r, o);
		return;
	}
	if (rc < 0) {
		if (!a.err.msg[0])
			diag_set(&a.err, c->entry->loc, "out of memory");
		o->err = a.err;
		o->status = STATUS_BAD;
		return;
	}
	if (a.bp) { /* the buffer program says everything: no decisions */
		if (run_schedules(cfg, c, a.entry, list, n, all, ref, nref, o)) {
			if (!o->err.msg[0])
				diag_set(&o->err, c->entry->loc, "out of memory");
			limit_outcome(r, o);
			return;
		}
		judge_race(c, s, nref, o);
		confirm(cfg, c, s, ref, nref, o);
		check_expectations(r, o);
		return;
	}
	/* one lowering serves every schedule; o->bp owns it from here */
	if ((r && run_plan_apply(r, &o->ds, &o->err)) ||
	    !(o->bp = bufferize_lower(c->prog, &o->ds, &o->err)) ||
	    run_schedules(cfg, c, c->entry, list, n, all, ref, nref, o)) {
		limit_outcome(r, o);
		return;
	}
	if (o->verdict != VERDICT_AGREE)
		bisect(cfg, c, o->sched, ref, nref, o);
	if (cfg->report && (o->nculprits || o->nlculprits) &&
	    decisions_make(c->prog, strategy_find("one-shot"), &o->oneshot))
		decisions_free(&o->oneshot); /* out of memory: no suggestion */
	judge_race(c, s, nref, o);
	confirm(cfg, c, s, ref, nref, o);
	check_expectations(r, o);
	release_program(o);
}
