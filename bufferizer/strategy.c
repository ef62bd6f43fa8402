/* strategy.c: the strategies, each a rule that decides every op result. */
#include <stdio.h>
#include <stdlib.h>

#include "bufferize.h"

int
inplace_candidates(const Op *op, int resno, Value **out, int max)
{
	const Type *rt = op->res[resno]->type;
	int n = 0;

	if (rt->kind != TY_TENSOR)
		return 0;
	switch (op_info[op->kind].write) {
	case W_NONE:
		return 0;
	case W_INIT: { /* for: lb, ub, step, inits; forall: lb, ub, inits;
			* while: the inits alone */
		int a = (op->kind == OP_FORALL ? 2 : op->kind == OP_WHILE ? 0 : 3) +
			resno;
		if (a < op->nargs && op->args[a].v && max > 0)
			out[n++] = op->args[a].v;
		return n;
	}
	case W_DEST:
	case W_ANY:
		if (op->hasdest) {
			if (op->dest.v && max > 0)
				out[n++] = op->dest.v;
			return n;
		}
		if (op_info[op->kind].write == W_DEST)
			return 0;
		for (int i = 0; i < op->nargs && n < max; i++) {
			Value *a = op->args[i].v;
			bool dup = false;
			if (!a || !type_equal(a->type, rt))
				continue;
			for (int j = 0; j < n; j++)
				dup |= out[j] == a;
			if (!dup)
				out[n++] = a;
		}
		return n;
	}
	return 0;
}

/* The decision every strategy starts from: views for extract_slice, no
 * buffer for scalars and for results that get theirs from a region or a
 * callee, a fresh buffer for everything else that is written. */
Decision
base_decision(const Value *v)
{
	Decision d = {.kind = DEC_NONE};
	const Op *op = v->def;

	if (!op || v->type->kind != TY_TENSOR)
		return d;
	switch (op_info[op->kind].form) {
	case F_EXTRACT_SLICE:
		d.kind = DEC_VIEW;
		break;
	case F_CONST: case F_CALL: case F_IF: case F_ASYNC: case F_AWAIT:
		break;
	default:
		d.kind = DEC_NEW;
	}
	return d;
}

static int
decide_copy_all(const Program *p, Decisions *ds, unsigned breaks)
{
	for (int i = 0; i < p->nvalues; i++)
		ds->d[i] = base_decision(p->values[i]);
	return 0;
}

static int
decide_inplace_all(const Program *p, Decisions *ds, unsigned breaks)
{
	for (int i = 0; i < p->nvalues; i++) {
		Value *v = p->values[i], *cand[8];
		ds->d[i] = base_decision(v);
		if (ds->d[i].kind == DEC_NEW &&
		    inplace_candidates(v->def, v->resno, cand, 8) > 0) {
			ds->d[i].kind = DEC_INPLACE;
			ds->d[i].into = cand[0];
		}
	}
	return 0;
}

/* A built-in: its rule, and the one-shot rule a mutant breaks. */
#define BUILTIN(name, about, decide, breaks) \
	{STRAT_BUILTIN, 0, name, about, NULL, 0, decide, breaks, builtin_answer}

static int builtin_answer(const Strategy *s, const StratCtx *ctx,
			  Answer *out);

static const Strategy strategies[] = {
	BUILTIN("copy-all", "a fresh buffer for every written result (copy before "
		     "write); always correct, the most memory",
	 decide_copy_all, 0),
	BUILTIN("inplace-all", "every result that can reuse an operand's buffer "
			"does, live or not; wrong on purpose",
	 decide_inplace_all, 0),
	BUILTIN("plan", "the run's forced decisions (plan, free); copy-all for the "
		 "rest", decide_copy_all, 0),
	BUILTIN("last-use", "in place when the operand has no later textual use "
		     "(ggml's rule); wrong with views, loops, branches, calls, "
		     "launches", lastuse_decide, 0),
	BUILTIN("one-shot", "read-after-write conflict analysis (views, loops, "
		     "branches, calls, launches until their await), "
		     "ownership-based frees", oneshot_decide, 0),
	/* one-shot with one rule broken each: the oracle must catch them */
	BUILTIN("mutant-no-view-alias", "mutant: a view does not alias its source",
	 oneshot_decide, ONESHOT_VIEWS),
	BUILTIN("mutant-no-cross-iteration", "mutant: a read inside a loop is not "
	 "repeated on the next trip", oneshot_decide, ONESHOT_CROSS_ITER),
	BUILTIN("mutant-elementwise-in-loops", "mutant: same-index access is safe "
	 "even when a loop repeats it (llvm#90019)", oneshot_decide,
	 ONESHOT_SAME_OP_LOOP),
	BUILTIN("mutant-zero-trip", "mutant: a new loop buffer is not initialized "
	 "from the init (wrong when the loop runs zero times)", oneshot_decide,
	 ONESHOT_ZERO_TRIP),
	BUILTIN("mutant-async-reads-end-at-launch", "mutant: a launch's reads end at "
	 "the launch, not at its await", oneshot_decide, ONESHOT_ASYNC),
	BUILTIN("mutant-readonly-writable", "mutant: readonly params and constants "
	 "are writable", oneshot_decide, ONESHOT_READONLY),
	BUILTIN("mutant-textual-frees", "mutant: frees at the buffer's own last "
	 "textual use, ignoring aliases and launches", oneshot_decide,
	 ONESHOT_FREES),
	BUILTIN("mutant-branches-always-exclusive", "mutant: if branches exclude "
	 "each other even inside a loop", oneshot_decide, ONESHOT_BRANCHES),
	BUILTIN("mutant-no-call-copy", "mutant: an argument the callee writes is "
	 "passed without a copy", oneshot_decide, ONESHOT_CALLS),
	BUILTIN("mutant-failure-leaks", "mutant: a failed assert frees nothing on "
	 "the failure path", oneshot_decide, ONESHOT_FAIL_FREES),
	BUILTIN("mutant-failure-frees-early", "mutant: the failure path frees "
	 "without waiting for pending launches", oneshot_decide,
	 ONESHOT_FAIL_DRAIN),
	BUILTIN("mutant-returns-not-read", "mutant: returned values do not count as "
	 "read after the function", oneshot_decide, ONESHOT_RETURNS),
	BUILTIN("mutant-forall-no-cross-trip", "mutant: a forall body's read of its "
	 "shared arg ignores the other trips' writes", oneshot_decide,
	 ONESHOT_FORALL),
	BUILTIN("mutant-lender-freed", "mutant: a buffer an if or select result "
		"shares is freed after its own last use", oneshot_decide,
		ONESHOT_LEND),
	BUILTIN("mutant-generate-once", "mutant: a generate body is analysed "
		"as if it ran once (its reads do not recur, it may write a "
		"captured buffer in place)", oneshot_decide, ONESHOT_GENERATE),
	BUILTIN("mutant-blockarg-equivalent", "mutant: a block argument shares "
		"what every branch passes, as a buffer of its own (no alias)",
		oneshot_decide, ONESHOT_BLOCKARGS),
	BUILTIN("mutant-carried-launch-ends", "mutant: a launch whose future "
		"a loop or a branch carries is analysed as if it completed at "
		"its own awaits (a later trip's writes do not race with it)",
		oneshot_decide, ONESHOT_CARRIED),
};

const Strategy *
strategy_at(int i)
{
	if (i < 0 || i >= (int)(sizeof strategies / sizeof strategies[0]))
		return NULL;
	return &strategies[i];
}

const Strategy *
strategy_find(const char *name)
{
	for (int i = 0; strategy_at(i); i++)
		if (!strcmp(strategy_at(i)->name, name))
			return strategy_at(i);
	return NULL;
}

/* ---- outside strategies: parsed here, run by a registered entry */

/* One slot per distinct spec of the process: a corpus may name many
 * commands (16 was too few for a directory of cases from several tools).
 * A cache of parsed specs, not a setting: no heap, nothing to free. */
enum { MAX_OUTSIDE = 256, SPEC_MAX = 2048 };

static struct {
	char spec[SPEC_MAX];    /* as given: "exec:python3 x.py", "mlir" */
	char arg[SPEC_MAX];     /* the command, or the tool (mlir-opt-22) */
} slots[MAX_OUTSIDE];
static Strategy outside[MAX_OUTSIDE];
static int nslots;
/* The runners' entries, registered at start-up (a table, not a setting). */
static StratEntry runners[STRAT_NKINDS];

static const struct {
	const char *prefix;
	StratKind kind;
	unsigned flags;
	const char *dflt;       /* when no `:ARG` is given; NULL: required */
	const char *about;
} kinds[] = {
	/* the batch forms of the exec protocol (docs/external.md) */
	{"exec-mlir-batch", STRAT_EXEC_MLIR,
	 STRAT_TOOL | STRAT_READS_MLIR | STRAT_BATCH, NULL,
	 "exec-mlir:, many programs in one JSON document per call"},
	{"exec-mlir-stream", STRAT_EXEC_MLIR,
	 STRAT_TOOL | STRAT_READS_MLIR | STRAT_BATCH | STRAT_STREAM, NULL,
	 "exec-mlir:, a JSON line per program, an answer line each"},
	{"exec-batch", STRAT_EXEC, STRAT_TOOL | STRAT_BATCH, NULL,
	 "exec:, many programs in one JSON document per call"},
	{"exec-stream", STRAT_EXEC, STRAT_TOOL | STRAT_BATCH | STRAT_STREAM,
	 NULL, "exec:, a JSON line per program, an answer line each"},
	{"exec-mlir", STRAT_EXEC_MLIR, STRAT_TOOL | STRAT_READS_MLIR, NULL,
	 "outside bufferizer: exported MLIR on CMD's stdin, decisions back"},
	{"exec", STRAT_EXEC, STRAT_TOOL, NULL,
	 "outside bufferizer: canonical TIR on CMD's stdin, decisions back"},
	{"mlir-pipeline", STRAT_PIPELINE,
	 STRAT_TOOL | STRAT_READS_MLIR | STRAT_MEMREF | STRAT_BATCH,
	 "mlir-opt-22", "the memref program TOOL's bufferization pipeline emits"},
	{"mlir", STRAT_MLIR, STRAT_TOOL | STRAT_READS_MLIR | STRAT_BATCH,
	 "mlir-opt-22",
	 "One-Shot Bufferize's analysis in TOOL (test-analysis-only)"},
	{"mlir-native", STRAT_NATIVE, STRAT_TOOL | STRAT_READS_MLIR | STRAT_BATCH,
	 "mlir-opt-22",
	 "mlir's decisions, judged by TOOL's One-Shot Bufferize lowered to "
	 "LLVM and run natively (mlir-runner): MLIR's own output is the "
	 "verdict"},
};

/* "mlir-opt-19" -> 19 (a version MLIR's export knows), else 0. */
static int
tool_version(const char *tool)
{
	const char *dash = strrchr(tool, '-');
	char *end;
	long n;

	if (!dash || !strstr(tool, "mlir-opt"))
		return 0;
	n = strtol(dash + 1, &end, 10);
	return *end || (n != 16 && n != 19 && n != 22) ? 0 : (int)n;
}

const Strategy *
strategy_parse(const char *spec)
{
	const Strategy *s = strategy_find(spec);

	if (s)
		return s;
	for (int i = 0; i < nslots; i++)
		if (!strcmp(slots[i].spec, spec))
			return &outside[i];
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t n = strlen(kinds[k].prefix);
		const char *arg;

		if (strncmp(spec, kinds[k].prefix, n) ||
		    (spec[n] && spec[n] != ':'))
			continue;
		arg = spec[n] == ':' ? spec + n + 1 : kinds[k].dflt;
		if (!arg || !*arg || nslots == MAX_OUTSIDE ||
		    strlen(spec) >= SPEC_MAX)
			return NULL;
		fmt_snprintf(slots[nslots].spec, SPEC_MAX, "%s", spec);
		fmt_snprintf(slots[nslots].arg, SPEC_MAX, "%s", arg);
		outside[nslots] = (Strategy){kinds[k].kind, kinds[k].flags,
					     slots[nslots].spec, kinds[k].about,
					     slots[nslots].arg, tool_version(arg),
					     NULL, 0, NULL};
		return &outside[nslots++];
	}
	return NULL;
}

const char *
strategy_label(const Strategy *s)
{
	static const char *const names[] = {
		[STRAT_EXEC] = "exec", [STRAT_EXEC_MLIR] = "exec-mlir",
		[STRAT_MLIR] = "mlir", [STRAT_PIPELINE] = "mlir-pipeline",
		[STRAT_NATIVE] = "mlir-native"};

	return s->kind == STRAT_BUILTIN ? s->name : names[s->kind];
}

const char *
strategy_command(const Strategy *s)
{
	static const char *const debian[] = {"mlir-opt-16", "mlir-opt-19",
					     "mlir-opt-22"};

	if (s->kind == STRAT_BUILTIN || !s->arg)
		return NULL;
	if (s->kind != STRAT_EXEC && s->kind != STRAT_EXEC_MLIR)
		for (size_t i = 0; i < sizeof debian / sizeof *debian; i++)
			if (!strcmp(s->arg, debian[i]))
				return NULL;
	return s->arg;
}

void
strategy_register(StratKind k, StratEntry e)
{
	runners[k] = e;
}

static int
builtin_answer(const Strategy *s, const StratCtx *ctx, Answer *out)
{
	out->err.msg[0] = 0;
	return decisions_make(ctx->p, s, out->ds);
}

int
strategy_answer(const Strategy *s, const StratCtx *ctx, Answer *out)
{
	StratEntry e = s->entry ? s->entry : runners[s->kind];

	memset(&out->tool, 0, sizeof out->tool);
	out->bp = NULL;
	out->entry = NULL;
	out->err.msg[0] = 0;
	if (e)
		return e(s, ctx, out);
	fmt_snprintf(out->tool.status, sizeof out->tool.status, "no runner for "
		 "strategy '%s' in this program", s->name);
	return 1;
}

/* A named reason for every `new` the strategy left without one: no
 * operand to reuse, or (copy-all, plan) the strategy's own rule. */
static int
fill_reasons(const Program *p, const Strategy *s, Decisions *ds)
{
	for (int i = 0; i < p->nvalues; i++) {
		Value *v = p->values[i], *cand[8];
		Decision *d = &ds->d[i];
		char buf[160];
		int n;
		if (d->kind != DEC_NEW || d->reason || d->lazy || !v->def)
			continue;
		n = inplace_candidates(v->def, v->resno, cand, 8);
		if (!n) {
			d->reason = "no operand of its type it may be computed into";
			continue;
		}
		if (s->decide != decide_copy_all)
			continue;
		fmt_snprintf(buf, sizeof buf, "%scopy-all gives every written result "
			 "a fresh buffer (in place, it could reuse %%%s)",
			 strcmp(s->name, "plan") ? "" : "not in the plan, and ",
			 cand[0]->name);
		if (!(d->reason = arena_strdup(ds->arena, buf)))
			return -1;
	}
	return 0;
}

int
decisions_make(const Program *p, const Strategy *s, Decisions *out)
{
	memset(out, 0, sizeof *out);
	out->p = p;
	out->d = mem_calloc((size_t)p->nvalues + 1, sizeof *out->d);
	out->eshare = mem_calloc((size_t)p->nvalues + 1, sizeof *out->eshare);
	if (!out->d || !out->eshare)
		return -1;
	if (!(out->arena = arena_new()))
		return -1;
	if (s->decide(p, out, s->breaks))
		return -1;
	return fill_reasons(p, s, out);
}

void
decisions_free(Decisions *ds)
{
	mem_free(ds->d);
	mem_free(ds->frees);
	mem_free(ds->anchors);
	mem_free(ds->hoists);
	mem_free(ds->args);
	mem_free(ds->argcopies);
	mem_free(ds->eshare);
	arena_free(ds->arena);
	memset(ds, 0, sizeof *ds);
}

int
decisions_argcopy(Decisions *ds, const Op *call, int arg, const char *reason)
{
	if (ds->nargcopies == ds->capargcopies) {
		int nc = ds->capargcopies ? 2 * ds->capargcopies : 8;
		ArgCopy *na = mem_realloc(ds->argcopies, (size_t)nc * sizeof *na);
		if (!na)
			return -1;
		ds->argcopies = na;
		ds->capargcopies = nc;
	}
	ds->argcopies[ds->nargcopies++] = (ArgCopy){call, arg, reason};
	return 0;
}

int
decisions_inplace(const Decisions *ds, Value **out, int max)
{
	int n = 0;

	for (int i = 0; i < ds->p->nvalues; i++)
		if (ds->d[i].kind == DEC_INPLACE) {
			if (n < max)
				out[n] = ds->p->values[i];
			n++;
		}
	return n;
}

/* ---- a call's argument passing as a decision */

static bool
tensor_arg(const Op *call, int k)
{
	const Value *a = call->args[k].v;

	return a && a->type->kind == TY_TENSOR;
}

bool
arg_copied(const Decisions *ds, const Op *call, int k)
{
	for (int i = 0; i < ds->nargcopies; i++)
		if (ds->argcopies[i].call == call && ds->argcopies[i].arg == k)
			return true;
	return false;
}

bool
decision_is_call(const Value *v)
{
	return v->def && v->def->kind == OP_CALL && v->def->res[0] == v;
}

/* What decisions_choices knows of each param: 0 unknown, 1 touched
 * (or being looked at: a recursive call errs towards yes), 2 not. */
typedef struct Touch {
	const Decisions *ds;
	unsigned char *memo;    /* by value id */
} Touch;

static bool param_touched(Touch *T, const Func *f, int k);

static bool
yields_one(const Block *b, const bool *S)
{
	const Op *y = b && b->nops ? b->ops[b->nops - 1] : NULL;

	for (int i = 0; y && i < y->nargs; i++)
		if (y->args[i].v && S[y->args[i].v->id])
			return true;
	return false;
}

/* Does v share a buffer with a member of S: a view, a result with no
 * buffer of its own (if, loop, launch), a block arg of an op using one? */
static bool
joins(const Decisions *ds, const bool *S, const Value *v)
{
	const Op *op = v->def ? v->def : v->owner ? v->owner->parent : NULL;
	DecKind k = v->def ? ds->d[v->id].kind : DEC_NONE;

	if (!op || (k != DEC_VIEW && k != DEC_NONE) || op->kind == OP_CALL)
		return false;
	for (int i = 0; i < op->nargs; i++)
		if (op->args[i].v && S[op->args[i].v->id])
			return true;
	if (v->def && (yields_one(op->body, S) || yields_one(op->orelse, S)))
		return true; /* an if's or a launch's result */
	return op->hasdest && op->dest.v && S[op->dest.v->id];
}

/* Does the call share tensor argument k with a callee that may touch
 * it? */
static bool
shares_touched(Touch *T, const Op *call, int k)
{
	const Value *a = call->args[k].v;

	return a && a->type->kind == TY_TENSOR && k < call->fn->nparams &&
	       !arg_copied(T->ds, call, k) && param_touched(T, call->fn, k);
}

/* Does an op of f write or free (under ds) what f holds of S: an in-place
 * result into it, a plan free of it, a call passing it to a param its
 * callee touches? */
static bool
touches(Touch *T, const Func *f, const bool *S)
{
	const Decisions *ds = T->ds;

	for (int i = 0; i < ds->p->nvalues; i++) {
		const Value *v = ds->p->values[i];
		const Decision *d = &ds->d[i];
		if (v->func != f)
			continue;
		if (d->kind == DEC_INPLACE && S[d->into->id])
			return true;
		for (int a = 0; decision_is_call(v) && a < v->def->nargs; a++)
			if (v->def->args[a].v && S[v->def->args[a].v->id] &&
			    shares_touched(T, v->def, a))
				return true;
	}
	for (int i = 0; i < ds->nfrees; i++)
		if (S[ds->frees[i].v->id])
			return true;
	return false;
}

/* May the callee f write or free the buffer passed as its param k?  (A
 * copy at the call changes nothing otherwise.)  Errs towards yes. */
static bool
param_touched(Touch *T, const Func *f, int k)
{
	const Program *p = T->ds->p;
	unsigned char *m = &T->memo[f->params[k]->id];
	bool *S, grew = true;

	if (*m)
		return *m == 1;
	*m = 1;
	if (!(S = mem_calloc((size_t)p->nvalues + 1, 1)))
		return true;
	S[f->params[k]->id] = true;
	while (grew) {
		grew = false;
		for (int i = 0; i < p->nvalues; i++)
			if (!S[i] && p->values[i]->func == f &&
			    joins(T->ds, S, p->values[i]))
				S[i] = grew = true;
	}
	*m = touches(T, f, S) ? 1 : 2;
	mem_free(S);
	return *m == 1;
}

int
decisions_choices(const Decisions *ds, Value **out, int max)
{
	Touch T = {ds, mem_calloc((size_t)ds->p->nvalues + 1, 1)};
	int n = 0;

	for (int i = 0; i < ds->p->nvalues; i++) {
		Value *v = ds->p->values[i];
		bool call = false;
		for (int k = 0; decision_is_call(v) && k < v->def->nargs && !call;
		     k++)
			call = !T.memo || shares_touched(&T, v->def, k);
		if (ds->d[i].kind != DEC_INPLACE && !call &&
		    !((is_block_arg(v) || is_share_result(v)) && ds->eshare &&
		      ds->eshare[i]))
			continue;
		if (n < max)
			out[n] = v;
		n++;
	}
	mem_free(T.memo);
	return n;
}

const char *
call_args_str(const Decisions *ds, const Value *r, bool all_copy, char *buf,
	      size_t n)
{
	const Op *call = r->def;
	size_t k = (size_t)fmt_snprintf(buf, n, "args %s:", r->name);

	for (int a = 0, t = 0; a < call->nargs && k < n; a++)
		if (tensor_arg(call, a))
			k += (size_t)fmt_snprintf(buf + k, n - k, "%s%s", t++ ? "," : "",
					      all_copy || arg_copied(ds, call, a)
					      ? "copy" : "share");
	return buf;
}

bool
is_block_arg(const Value *v)
{
	return v->owner && !v->owner->parent && v->owner->bindex > 0;
}

bool
is_share_result(const Value *v)
{
	return v->def && v->type->kind == TY_TENSOR &&
	       (v->def->kind == OP_IF || v->def->kind == OP_SELECT);
}

const char *
block_arg_str(const Decisions *ds, const Value *a, char *buf, size_t n)
{
	const Block *b = a->owner;
	size_t at = (size_t)fmt_snprintf(buf, n, "%s:", a->name);
	uint64_t bits = ds->eshare ? ds->eshare[a->id] : 0;
	bool same = true;

	for (int p = 1; b && p < b->npreds && p < 64; p++)
		same &= (bits >> p & 1) == (bits & 1);
	for (int p = 0; p < (same ? 1 : b->npreds) && at < n; p++)
		at += (size_t)fmt_snprintf(buf + at, n - at, "%s%s", p ? "," : "",
					   p < 64 && bits >> p & 1 ? "share"
								   : "copy");
	return buf;
}

const char *
choice_str(const Decisions *ds, const Value *v, char *buf, size_t n)
{
	if (is_block_arg(v) || is_share_result(v))
		return block_arg_str(ds, v, buf, n);
	if (decision_is_call(v))
		return call_args_str(ds, v, false, buf, n);
	return dec_str(v, &ds->d[v->id], buf, n);
}

const char *
choice_flip_str(const Decisions *ds, const Value *v, char *buf, size_t n)
{
	if (decision_is_call(v))
		return call_args_str(ds, v, true, buf, n);
	fmt_snprintf(buf, n, is_block_arg(v) || is_share_result(v) ? "%s:copy"
			     : "%s:new", v->name);
	return buf;
}

int
decisions_copy_args(Decisions *ds, const Op *call, const char *reason)
{
	for (int k = 0; k < call->nargs; k++)
		if (tensor_arg(call, k) && !arg_copied(ds, call, k) &&
		    decisions_argcopy(ds, call, k, reason))
			return -1;
	return 0;
}

const char *
call_copy_reason(const Decisions *ds, const Op *call)
{
	for (int i = 0; i < ds->nargcopies; i++)
		if (ds->argcopies[i].call == call)
			return ds->argcopies[i].reason;
	return NULL;
}
