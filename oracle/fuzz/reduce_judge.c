/*
 * reduce_judge.c: a candidate judged: the original failure's signature,
 * a candidate's run, "the same failure", "smaller"; an accepted candidate
 * becomes the current case.  Verdicts are cached by candidate text.
 */
#include <stdio.h>
#include <time.h>

#include "reduce_impl.h"
#include "stop.h"

/* A rejected candidate (0), unless the reason was out of memory (-1). */
int
red_reject(Red *r, const Diag *why)
{
	return strstr(why->msg, "out of memory") ? red_oom(r) : 0;
}

Metric
red_metric(const Program *p, size_t len)
{
	Metric m = {p->nops, 0, len};

	for (int i = 0; i < p->nvalues; i++) {
		const Type *t = p->values[i]->type;
		if (t->kind == TY_TENSOR && type_is_static(t))
			m.elems += type_numel(t);
	}
	return m;
}

static bool
smaller(Metric a, Metric b)
{
	if (a.nops != b.nops)
		return a.nops < b.nops;
	if (a.elems != b.elems)
		return a.elems < b.elems;
	return a.len < b.len;
}

/* ------------------------------------------------------ runs and judging */

/* Reference + run `run` of c: 0 with *o filled (runout_clear it), 1 when
 * the reference or the run cannot execute (why), -1 out of memory. */
int
red_evaluate(Red *r, const Case *c, int run, RunOut *o, Diag *why)
{
	Tensor **ref = NULL;
	int nref = 0;

	memset(o, 0, sizeof *o);
	int rr = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref,
			 why);

	if (rr < 0)
		return red_reject(r, why) ? -1 : 1;
	((Case *)c)->ref_failed = rr == 1 ? prog_op_at(c->prog, OP_ASSERT, why->loc)
				: NULL;
	diff_run(r->cfg, c, &c->runs[run], NULL, ref, nref, o);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	if (o->status == STATUS_BAD || o->skipped) {
		*why = o->err;
		if (o->skipped)
			fmt_snprintf(why->msg, sizeof why->msg, "%.400s", o->why);
		runout_clear(o);
		return red_reject(r, why) ? -1 : 1;
	}
	return 0;
}

bool
red_failing(const RunOut *o)
{
	return o->verdict == VERDICT_DIVERGE || o->verdict == VERDICT_FAULT ||
	       o->verdict == VERDICT_TOOL_ERROR;
}

/* A tool-error's kind: its status up to the first ':' (line numbers in an
 * answer's message change as the program shrinks). */
static size_t
tool_kind_len(const RunOut *o)
{
	return strcspn(o->tool.status, ":");
}

/* A name of v's function qualified by it ("@f/x"; a culprit: "@f/y:x",
 * "@f/args y:share"), so that two helpers' %q0 are told apart. */
static const char *
qualified(const Value *v, const char *name, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "@%s/%s", v->func ? v->func->name : "", name);
	return buf;
}

static const char *
culprit_name(const RunOut *o, const Value *v, char *buf, size_t n)
{
	char dec[512];

	return qualified(v, choice_str(&o->ds, v, dec, sizeof dec), buf, n);
}

static const char *
victim_name(const RunOut *o, char *buf, size_t n)
{
	const Value *v = o->ex.nviols ? o->ex.viols[0].victim : NULL;

	return v ? qualified(v, v->name, buf, n) : NULL;
}

/* The kind of the op at which o's first violation was seen, or -1. */
static int
reader_kind(const RunOut *o)
{
	const BInst *at = o->ex.nviols ? o->ex.viols[0].at : NULL;

	return at && at->op ? (int)at->op->kind : -1;
}

/* The original failure's signature, from its run. */
int
red_set_signature(Red *r, const RunOut *o)
{
	char buf[200];
	const char *vn = victim_name(o, buf, sizeof buf);

	r->verdict = o->verdict;
	r->vkind = o->ex.nviols ? (int)o->ex.viols[0].kind : -1;
	r->reader = reader_kind(o);
	if (vn && !(r->victim = mem_strdup(vn)))
		return red_oom(r);
	r->culprits = mem_calloc((size_t)o->nculprits + 1, sizeof *r->culprits);
	if (!r->culprits)
		return red_oom(r);
	for (int i = 0; i < o->nculprits; i++, r->nculprits++) {
		culprit_name(o, o->culprits[i], buf, sizeof buf);
		if (!(r->culprits[i] = mem_strdup(buf)))
			return red_oom(r);
	}
	if (o->verdict == VERDICT_TOOL_ERROR) {
		size_t n = tool_kind_len(o);
		if (!(r->tool = mem_alloc(n + 1)))
			return red_oom(r);
		memcpy(r->tool, o->tool.status, n);
		r->tool[n] = 0;
	}
	return 0;
}

static bool
has_culprit(const RunOut *o, const char *name)
{
	char buf[200];

	for (int j = 0; j < o->nculprits; j++)
		if (!strcmp(culprit_name(o, o->culprits[j], buf, sizeof buf), name))
			return true;
	return false;
}

/* The failure kept: the same verdict, the same first violation's kind
 * seen by the same kind of op, every original culprit decision among the
 * candidate's; without culprits, the same victim.  (Shrinking a
 * transpose's dims until it no longer diverges but still faults is not
 * the same failure.) */
static bool
same_failure(const Red *r, const RunOut *o)
{
	char buf[200];
	const char *vn;

	if (!red_failing(o) || o->verdict != r->verdict)
		return false;
	if (r->tool || o->verdict == VERDICT_TOOL_ERROR)
		return r->tool && o->verdict == VERDICT_TOOL_ERROR &&
		       strlen(r->tool) == tool_kind_len(o) &&
		       !strncmp(r->tool, o->tool.status, tool_kind_len(o));
	if ((o->ex.nviols ? (int)o->ex.viols[0].kind : -1) != r->vkind ||
	    reader_kind(o) != r->reader)
		return false;
	for (int i = 0; i < r->nculprits; i++)
		if (!has_culprit(o, r->culprits[i]))
			return false;
	if (r->nculprits || r->vkind < 0)
		return true;
	vn = victim_name(o, buf, sizeof buf);
	return vn && r->victim ? !strcmp(vn, r->victim) : vn == r->victim;
}

/* Make the candidate (text, inputs, its case, metric) the current one. */
int
red_adopt(Red *r, Case *c, char *text, const char *inputs, Metric m)
{
	char *in = mem_strdup(inputs);

	if (!in) {
		case_free(c);
		mem_free(text);
		return red_oom(r);
	}
	case_free(r->c);
	mem_free(r->text);
	mem_free(r->inputs);
	r->c = c;
	r->text = text;
	r->inputs = in;
	r->m = m;
	return red_index_lines(r);
}

/* Load a candidate case: 1 when it fails the same way (then *out holds
 * it), 0 when not, -1 out of memory. */
int
red_judge(Red *r, const char *yaml, Case **out)
{
	Case *c = NULL;
	RunOut o;
	Diag why;
	int rc;

	*out = NULL;
	/* a candidate keeps the runs of a case already allowed to run them */
	if (case_parse("candidate.yaml", yaml, strlen(yaml), CASE_TRUSTED, &c,
		       &why)) {
		case_free(c);
		return red_reject(r, &why);
	}
	if (r->trip_cap && r->trip_cap < c->lim.max_trips)
		c->lim.max_trips = r->trip_cap;
	rc = red_evaluate(r, c, 0, &o, &why);
	if (rc) {
		case_free(c);
		return rc < 0 ? -1 : 0;
	}
	rc = same_failure(r, &o);
	runout_clear(&o);
	if (rc)
		*out = c;
	else
		case_free(c);
	return rc;
}

bool
red_late(Red *r)
{
	struct timespec ts;

	if (r->late || r->deadline <= 0)
		return r->late;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->late = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec >= r->deadline;
	return r->late;
}

/* ---- speculation: candidates asked of the tool in a batch */

bool
red_collect_begin(Red *r)
{
	const RunConfig *cfg = r->cfg ? r->cfg : &run_config_default;

	/* a tool-error's candidates are as likely to fail the batch too
	 * (mlir's batches are then halved: more calls, not fewer) */
	if (!external_batches(r->run->strategy) || r->spec || r->tool ||
	    (cfg->tool && cfg->tool->batch == 1)) /* --tool-batch 1 */
		return false;
	r->nspec = r->capspec = 0;
	return (r->spec = mem_calloc(16, sizeof *r->spec)) &&
	       (r->capspec = 16);
}

/* Keep candidate yaml (freed) for the batch; 0 (not judged here). */
static int
red_gather(Red *r, char *yaml)
{
	Case *c = NULL;
	Diag why;

	if (r->nspec == r->capspec) {
		Case **n = mem_realloc(r->spec, 2 * (size_t)r->capspec *
				       sizeof *n);
		if (!n) {
			mem_free(yaml);
			return 0; /* asked alone, later */
		}
		r->spec = n;
		r->capspec *= 2;
	}
	if (!case_parse("candidate.yaml", yaml, strlen(yaml), CASE_TRUSTED,
			&c, &why) && c->nruns)
		r->spec[r->nspec++] = c;
	else
		case_free(c);
	mem_free(yaml);
	return 0;
}

void
red_collect_end(Red *r)
{
	Case **spec = r->spec;
	int n = r->nspec;

	if (!spec)
		return;
	r->spec = NULL; /* judging again */
	r->nspec = r->capspec = 0;
	if (n > 1) {
		ExternalOpts buf;
		const char *pl;
		const Run *run = &spec[0]->runs[0];
		external_prefill(run_tool_opts(r->cfg ? r->cfg :
					       &run_config_default, run,
					       run->strategy, &buf, &pl),
				 run->strategy, spec, n);
	}
	for (int i = 0; i < n; i++)
		case_free(spec[i]);
	mem_free(spec);
}

/* A candidate program text with inputs: 1 accepted (now current), 0
 * rejected, -1 out of memory. */
int
red_try_candidate(Red *r, const char *prog, const char *inputs)
{
	Program *p;
	char *canon = NULL, *yaml = NULL;
	Case *c;
	Metric m;
	Diag why;
	bool acc;
	int rc;

	if (r->st->candidates + r->nspec >= r->budget || stop_signal() ||
	    red_late(r))
		return 0;
	if (!r->spec)
		r->st->candidates++;
	if (!(p = tir_parse(prog, strlen(prog), (SrcMap){1, 0}, &why)))
		return red_reject(r, &why);
	if (tir_verify(p, &r->orig->lim, &why)) {
		prog_free(p);
		return red_reject(r, &why);
	}
	if (!(canon = tir_print(p))) {
		prog_free(p);
		return red_oom(r);
	}
	m = red_metric(p, strlen(canon));
	if (!smaller(m, r->m)) {
		prog_free(p);
		mem_free(canon);
		return 0;
	}
	yaml = red_case_text(r, "reduce/candidate", NULL, canon, inputs, p, NULL, 0);
	prog_free(p);
	if (!yaml) {
		mem_free(canon);
		return red_oom(r);
	}
	if (cache_get(&r->cache, yaml, &acc)) {
		r->st->cache_hits += !r->spec;
		mem_free(canon);
		mem_free(yaml);
		return 0; /* an accepted one is never smaller than the current */
	}
	if (r->spec) {
		mem_free(canon);
		return red_gather(r, yaml);
	}
	if ((rc = red_judge(r, yaml, &c)) < 0)
		mem_free(yaml);
	if (rc < 0 || cache_put(&r->cache, yaml, rc == 1)) {
		case_free(c);
		mem_free(canon);
		return red_oom(r);
	}
	if (rc == 1)
		return red_adopt(r, c, canon, inputs, m) ? -1 : 1;
	mem_free(canon);
	return 0;
}
