/*
 * exec.c: the instrumented executor.  It runs the buffer program on real
 * shared storage: an in-place write really overwrites the bytes an older
 * version lived in.  Every read checks the version shadow; every free,
 * write and view checks the buffer table.  Wrong plans become violations.
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"

static void run_block(Exec *X, Frame *F, const BBlock *b, Reg *out);

void
exec_block(Exec *X, Frame *F, const BBlock *b, Reg *out)
{
	run_block(X, F, b, out);
}

void
abort_run(Exec *X, const Op *op, const char *fmt, const char *a, long long n)
{
	if (X->stop)
		return;
	X->stop = true;
	X->res->aborted_at = op ? op->loc : (Loc){0};
	fmt_snprintf(X->res->aborted, sizeof X->res->aborted, fmt, a, n);
}

/* A stop at a resource limit (work, time, a signal, the payload): a
 * copying plan needs more than the reference, so it is no verdict. */
void
abort_limit(Exec *X, const Op *op, const char *fmt, const char *a, long long n)
{
	if (X->stop)
		return;
	abort_run(X, op, fmt, a, n);
	X->res->limited = true;
}

bool
exec_charge(Exec *X, const Op *op, int64_t n)
{
	char why[160];

	if (!budget_charge(&X->budget, n, why, sizeof why))
		return true;
	abort_limit(X, op, "%s", why, 0);
	return false;
}

/* ---- control flow */

/* Per-instruction room for the registers a region yields: safe to reuse,
 * since a yield writes it just before its block returns. */
static Reg *
scratch(Exec *X, const BInst *in, int n)
{
	if (!X->scratch[in->id]) {
		X->scratch[in->id] = arena_alloc(X->arena, (size_t)(n + 1) * sizeof(Reg));
		X->scratchn[in->id] = n + 1;
	}
	return X->scratch[in->id];
}

/* Every register file that can name a buffer or a version between two
 * instructions (tables_collect): the frames by depth, the regions'
 * scratch areas, the entry's results; launches are async.c's. */
void
exec_roots(Exec *X, RegVisit *visit, void *ctx)
{
	for (int d = 0; d <= X->o->lim->max_depth; d++)
		if (X->frames[d])
			visit(X, X->frames[d], (size_t)X->bp->nregs, ctx);
	for (int i = 0; i <= X->bp->ninsts; i++)
		if (X->scratch[i])
			visit(X, X->scratch[i], (size_t)X->scratchn[i], ctx);
	if (X->outs)
		visit(X, X->outs, (size_t)X->nouts, ctx);
}

static void
run_if(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *y = scratch(X, in, op->nres);
	bool then = int_operand(F, &op->args[0]);
	DynCtx saved = ctx_enter(X, op, !then);

	run_block(X, F, then ? in->body : in->orelse, y);
	ctx_leave(X, &saved);
	for (int k = 0; k < op->nres && !X->stop; k++)
		reg_assign(reg(F, op->res[k]), &y[k]);
}

static void
set_scalar(Reg *r, const Operand *o, Frame *F, DType dt)
{
	if (o->v) {
		reg_assign(r, reg(F, o->v));
		return;
	}
	memset(r, 0, sizeof *r);
	lit_store(o, dt, r);
	r->set = true;
	r->view = scalar_view(r, dt);
}

static void
run_for(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	int64_t lb = int_operand(F, &op->args[0]), ub = int_operand(F, &op->args[1]);
	int64_t step = int_operand(F, &op->args[2]);
	Reg *y = scratch(X, in, op->nres);
	DynCtx saved;
	int64_t trip = 0;

	if (step <= 0) {
		abort_run(X, op, "%sloop step %lld is not positive", "",
			  (long long)step);
		return;
	}
	for (int k = 0; k < op->nres; k++)
		if (op->res[k]->type->kind != TY_TENSOR) {
			set_scalar(reg(F, op->res[k]), &op->args[3 + k], F,
				   op->res[k]->type->dt);
			/* a carried future: the loop holds the init too */
			if (op->res[k]->type->kind == TY_FUTURE)
				launch_retain(X, in, reg(F, op->res[k]));
		}
	for (int64_t i = lb; i < ub; i = i > INT64_MAX - step ? ub : i + step) {
		Reg *iv = reg(F, op->body->args[0]);
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			return;
		}
		if (!exec_charge(X, op, WORK_STEP))
			return;
		memset(iv, 0, sizeof *iv);
		iv->buf = -1;
		iv->set = true;
		iv->s.i = i;
		iv->view = scalar_view(iv, DT_INDEX);
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->body->args[1 + k]), reg(F, op->res[k]));
		saved = ctx_enter(X, op, trip++);
		run_block(X, F, in->body, y);
		ctx_leave(X, &saved);
		if (X->stop)
			return;
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->res[k]), &y[k]);
	}
}

/* Element li of view v (row-major), as a rank-0 view. */
static View
elem_at(const View *v, int64_t li)
{
	View e = *v;

	e.rank = 0;
	for (int d = v->rank - 1; d >= 0; d--) {
		e.off += li % v->sizes[d] * v->strides[d];
		li /= v->sizes[d];
	}
	return e;
}

/* generate: the body once per element of the result's buffer, row-major,
 * each run a trip (reports name the element); the scalar it yields goes
 * straight into the buffer, and a write in place into a captured buffer
 * is what the next element reads.  The whole buffer then takes the
 * result's version. */
static void
run_generate(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *r = reg(F, in->v), *y = scratch(X, in, 1);
	int64_t n = view_numel(&r->view), idx[MAXRANK] = {0};

	if (!check_write(X, in, in->v, r) || r->bad || r->buf < 0)
		return;
	for (int64_t li = 0; li < n; li++) {
		DynCtx saved;
		View out, sv;
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached "
				  "(generate elements count as trips)", "",
				  (long long)X->o->lim->max_trips);
			return;
		}
		if (!exec_charge(X, op, WORK_STEP))
			return;
		for (int d = 0; d < op->body->nargs; d++) {
			Reg *iv = reg(F, op->body->args[d]);
			memset(iv, 0, sizeof *iv);
			iv->buf = -1;
			iv->set = true;
			iv->s.i = idx[d];
			iv->view = scalar_view(iv, DT_INDEX);
		}
		saved = ctx_enter(X, op, li);
		run_block(X, F, in->body, y);
		ctx_leave(X, &saved);
		if (X->stop)
			return;
		r = reg(F, in->v);
		out = tview(X, r);
		out = elem_at(&out, li);
		sv = scalar_view(&y[0], in->v->type->dt);
		copy_views(X, &out, &sv);
		for (int d = r->view.rank - 1; d >= 0 && ++idx[d] == r->view.sizes[d]; d--)
			idx[d] = 0;
	}
	tag_write(X, in, in->v, r);
}

/* A while: the condition block yields the i1, the do block the next
 * iter values (already in their loop buffers); trips count like for's. */
static void
run_while(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *y = scratch(X, in, op->nres);

	for (int k = 0; k < op->nres; k++)
		if (op->res[k]->type->kind != TY_TENSOR)
			set_scalar(reg(F, op->res[k]), &op->args[k], F,
				   op->res[k]->type->dt);
	for (int64_t trip = 0;; trip++) {
		DynCtx saved = ctx_enter(X, op, trip);
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->body->args[k]), reg(F, op->res[k]));
		run_block(X, F, in->body, y);
		if (X->stop || !scalar_int(&y[0], DT_I1)) {
			ctx_leave(X, &saved);
			return;
		}
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			ctx_leave(X, &saved);
			return;
		}
		if (!exec_charge(X, op, WORK_STEP))
			return;
		run_block(X, F, in->orelse, y);
		ctx_leave(X, &saved);
		if (X->stop)
			return;
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->res[k]), &y[k]);
	}
}

/* The failure path of an assert or of a call that failed in its callee:
 * the lowering's drains and frees, then the run stops. */
static void
run_failure(Exec *X, Frame *F, const BBlock *b)
{
	X->stop = false;
	if (b)
		run_block(X, F, b, NULL);
	X->stop = true;
}

/* assert: a false operand ends the run here, through the failure path. */
static void
run_assert(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;

	if (int_operand(F, &op->args[0]))
		return;
	X->res->failed = in->top ? in->top : op;
	run_failure(X, F, in->body);
}

/* The frame at depth for fn's code: zero (the last code there cleared
 * from it). */
static Reg *
frame_regs(Exec *X, int depth, const Func *fn)
{
	Reg *r = X->frames[depth];

	if (!r) /* (arena_alloc zeroes it) */
		r = X->frames[depth] = arena_alloc(X->arena,
					(size_t)X->bp->nregs * sizeof(Reg));
	else
		file_clear(X, r, X->frame_runs[depth]);
	X->frame_runs[depth] = file_runs(X, fn);
	return r;
}

static const BInst *run_body(Exec *X, Frame *F, const BFunc *bf, Reg *out);

static void
run_call(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	const Func *fn = op->fn;
	Reg *y = scratch(X, in, op->nres);
	Frame G = {NULL, fn};
	int fi = 0;

	if (X->depth + 1 >= X->o->lim->max_depth) {
		abort_run(X, op, "%scall depth limit of %lld reached", "",
			  (long long)X->o->lim->max_depth);
		return;
	}
	if (!exec_charge(X, op, WORK_CALL))
		return;
	while (X->bp->funcs[fi].f != fn)
		fi++;
	G.regs = frame_regs(X, X->depth + 1, fn);
	for (int i = 0; i < fn->nparams; i++) {
		Reg *p = &G.regs[fn->params[i]->id];
		if (in->vals && in->vals[i])
			reg_assign(p, reg(F, in->vals[i]));
		else
			set_scalar(p, &op->args[i], F, fn->params[i]->type->dt);
		if (fn->params[i]->readonly)
			p->ro = true;
	}
	X->depth++;
	run_body(X, &G, &X->bp->funcs[fi], y);
	X->depth--;
	/* the callee stopped at a failed assert: now the caller's part */
	if (X->stop && X->res->failed && !X->res->aborted[0])
		run_failure(X, F, in->orelse);
	for (int k = 0; k < op->nres && !X->stop; k++)
		reg_assign(reg(F, op->res[k]), &y[k]);
}


static void
trace_step(Exec *X, const BInst *in)
{
	X->step++;
	if (X->o->on_step)
		X->o->on_step(X->o->step_ctx, X->step, X->live, in,
			      launch_stream(X));
}

static void run_forall(Exec *X, Frame *F, const BInst *in);
static void run_pinsert(Exec *X, Frame *F, const BInst *in);

static void
yield_out(Frame *F, const BInst *in, Reg *out)
{
	for (int k = 0; k < in->nvals; k++)
		if (in->vals[k])
			reg_assign(&out[k], reg(F, in->vals[k]));
}

/* One instruction, then the launches' chance to run. */
static void
run_inst(Exec *X, Frame *F, const BInst *in, Reg *out)
{
	if (in->op)
		X->at = in->op;
	if (!exec_charge(X, in->op, WORK_STEP))
		return;
	{
		switch (in->kind) {
		case BI_ALLOC: run_alloc(X, F, in); break;
		case BI_ALIAS:
			reg_assign(reg(F, in->v), reg(F, in->src));
			if (in->borrow)
				reg(F, in->v)->owned = false;
			if (in->retain)
				launch_retain(X, in, reg(F, in->v));
			break;
		case BI_BR: break; /* run_body takes the edge */
		case BI_VIEW: run_view(X, F, in); break;
		case BI_COPY: run_copy(X, F, in); break;
		case BI_COMPUTE: run_compute(X, F, in); break;
		case BI_CONST: run_const(X, F, in); break;
		case BI_FREE: run_free(X, F, in); break;
		case BI_IF: run_if(X, F, in); break;
		case BI_FOR: run_for(X, F, in); break;
		case BI_WHILE: run_while(X, F, in); break;
		case BI_ASSERT: run_assert(X, F, in); break;
		case BI_CALL: run_call(X, F, in); break;
		case BI_LAUNCH: launch_start(X, F, in); break;
		case BI_AWAIT: launch_await(X, F, in); break;
		case BI_DRAIN:
			for (int k = 0; k < in->nvals; k++)
				launch_finish(X, reg(F, in->vals[k]));
			break;
		case BI_RETURN:
			launch_drain(X, F);
			yield_out(F, in, out);
			if (X->nstack)
				stack_release(X, in);
			break;
		case BI_YIELD:
			yield_out(F, in, out);
			break;
		case BI_FORALL: run_forall(X, F, in); break;
		case BI_GENERATE: run_generate(X, F, in); break;
		case BI_PINSERT: run_pinsert(X, F, in); break;
		case BI_BIND: run_bind(X, F, in); break;
		case BI_VER:
			reg(F, in->v)->ver = in->src ? reg(F, in->src)->ver : VER_ANY;
			if (!reg(F, in->v)->ver)
				reg(F, in->v)->ver = VER_ANY; /* never written here */
			break;
		case BI_META: run_meta(X, F, in); break;
		case BI_DEALLOC: run_dealloc(X, F, in); break;
		case BI_SELECT:
			reg_assign(reg(F, in->v),
				   reg(F, in->vals[scalar_int(reg(F, in->vals[0]),
							      DT_I1) ? 1 : 2]));
			if (in->borrow)
				reg(F, in->v)->owned = false;
			break;
		}
		trace_step(X, in);
		/* not after a terminator: it has written the enclosing op's
		 * results into that op's scratch registers, which a launch
		 * running the same op in another activation (a helper called
		 * in a launch and by the host) would overwrite; the tick after
		 * the enclosing op is the same point */
		if (X->nlaunches && in->kind != BI_RETURN && in->kind != BI_YIELD)
			launch_tick(X);
		tables_maybe_collect(X);
	}
}

/* Not walk_bblock: execution picks the regions and their trips. */
static void
run_block(Exec *X, Frame *F, const BBlock *b, Reg *out)
{
	for (int i = 0; i < b->n && !X->stop; i++)
		run_inst(X, F, b->insts[i], out);
}

/* A function body: its one block, or its blocks along the branches (each
 * branch a trip, as for loops).  Returns the return that ended it, or
 * NULL when the run stopped. */
static const BInst *
run_body(Exec *X, Frame *F, const BFunc *bf, Reg *out)
{
	const BBlock *b = bf->body;
	DynCtx base = X->ctx;
	int64_t nbr = 0;

	for (;;) {
		const BInst *t = b->n ? b->insts[b->n - 1] : NULL;
		int k = 0;

		if (!t || t->kind != BI_BR) {
			run_block(X, F, b, out);
			X->ctx = base;
			return X->stop ? NULL : t;
		}
		for (int i = 0; i < b->n && !X->stop; i++)
			run_inst(X, F, b->insts[i], out);
		if (X->stop)
			return NULL;
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, t->op, "%sloop trip limit of %lld reached "
				  "(branches count as trips)", "",
				  (long long)X->o->lim->max_trips);
			return NULL;
		}
		if (t->src)
			k = scalar_int(reg(F, t->src), DT_I1) ? 0 : 1;
		/* reports say which edge led into the block: the branch and
		 * its arm in the low bit, how many branches came before */
		X->ctx = base;
		ctx_enter(X, t->op, nbr++ << 1 | k);
		run_block(X, F, k ? t->orelse : t->body, out);
		if (X->stop)
			return NULL;
		b = t->to[k];
	}
}

/* ---- forall: trips interleaved at instruction granularity */

enum { FORALL_WINDOW = 8 }; /* trips in flight at once (register files) */

/* parallel_insert_slice: the source into the trip's slice of the result
 * buffer. */
static void
run_pinsert(Exec *X, Frame *F, const BInst *in)
{
	Reg *out, *src = reg(F, in->src), whole;
	View vo, vs;

	if (!in->v)
		return;
	out = reg(F, in->v);
	if (!out->set || out->bad || !check_write(X, in, in->v, out) ||
	    !check_read(X, in, in->src, src))
		return;
	whole = *out;
	whole.view = tview(X, out);
	if (!reg_slice(X, F, in, in->op, &whole, in->v, &vo, false))
		return;
	vs = tview(X, src);
	if (!same_sizes(&vo, &vs)) {
		violate(X, VK_OUT_OF_BOUNDS, in, in->v, NULL, out->buf, NULL, 0,
			"parallel_insert_slice of a different shape");
		return;
	}
	copy_views(X, &vo, &vs);
	/* its own version, so a trip reading what it overwrote blames it;
	 * run_forall gives the whole result one version at the end */
	shadow_write(X, out->buf, &vo, version_new(X, in->v, in));
}

/* Which trip of [0, n) runs its next instruction: sync finishes them in
 * order, late steps them in lockstep from the last, random:SEED picks
 * (rng_next). */
static int
forall_pick(Exec *X, const int *pc, int n, int len, int *turn)
{
	int live = 0, k;

	for (k = 0; k < n; k++)
		live += pc[k] < len;
	if (!live)
		return -1;
	switch (X->o->sched.kind) {
	case SCHED_LATE:
		for (;; (*turn)--) {
			if (*turn < 0)
				*turn = n - 1;
			if (pc[*turn] < len)
				break;
		}
		if (X->o->tape) { /* the draw that would pick it: its rank */
			k = 0;
			for (int t = 0; t < *turn; t++)
				k += pc[t] < len;
			tape_put(X, live > 1 ? (uint32_t)live : 0, (uint32_t)k);
		}
		return (*turn)--;
	case SCHED_RANDOM:
		k = (int)(rng_next(&X->rng) % (uint64_t)live);
		tape_put(X, live > 1 ? (uint32_t)live : 0, (uint32_t)k);
		for (int t = 0; t < n; t++)
			if (pc[t] < len && k-- == 0)
				return t;
		return -1;
	default:
		if (X->o->tape) /* sync: the first live trip, rank 0 */
			tape_put(X, live > 1 ? (uint32_t)live : 0, 0);
		for (k = 0; pc[k] >= len; k++)
			;
		return k;
	}
}

/* Room for the trips' register files, the results' new versions and
 * their versions before the trips, kept per forall instruction in the
 * run's arena (a recursive run of the same forall, while it is busy, gets
 * its own). */
static Reg *
forall_room(Exec *X, const BInst *in, int nres)
{
	size_t n = (size_t)FORALL_WINDOW * (size_t)X->bp->nregs;
	Reg *r = X->scratch[in->id];

	if (!r || r[n].set) {
		r = arena_alloc(X->arena, (n + 2 + 2 * (size_t)nres) * sizeof *r);
		if (!X->scratch[in->id]) {
			X->scratch[in->id] = r;
			X->scratchn[in->id] = (int)(n + 2 + 2 * (size_t)nres);
		} else {
			X->unrooted++; /* a recursive run's: no collection now */
		}
	}
	r[n].set = true; /* busy */
	return r;
}

/* Trips lo..lo+n-1, each with a private register file. */
static void
forall_window(Exec *X, Frame *F, const BInst *in, Reg *files,
	      const Reg *vr, int64_t lo, int n)
{
	const Op *op = in->op;
	const int *runs = file_runs(X, F->fn);
	Reg y[1];
	int pc[FORALL_WINDOW] = {0}, turn = n - 1, t;

	for (t = 0; t < n; t++) {
		Reg *r = files + (size_t)t * X->bp->nregs, *iv;
		file_copy(X, r, F->regs, runs);
		iv = &r[op->body->args[0]->id];
		memset(iv, 0, sizeof *iv);
		iv->buf = -1;
		iv->set = true;
		iv->s.i = lo + t;
		iv->view = scalar_view(iv, DT_INDEX);
		for (int k = 0; k < op->nres; k++) {
			reg_assign(&r[op->body->args[1 + k]->id],
				   reg(F, in->vals[k]));
			r[op->res[k]->id].ver = vr[k].ver;
		}
	}
	while (!X->stop && (t = forall_pick(X, pc, n, in->body->n, &turn)) >= 0) {
		Frame G = {files + (size_t)t * X->bp->nregs, F->fn};
		run_inst(X, &G, in->body->insts[pc[t]++], y);
	}
}

/* Is ver written by a parallel_insert_slice of the forall into its
 * result r? */
static bool
inserted_by(const Exec *X, uint32_t ver, const void *r)
{
	const BInst *w = ver < X->nvers ? X->vers[ver].in : NULL;

	return w && w->kind == BI_PINSERT && w->v == r;
}

/* Result k takes its new version ver where its buffer holds what it held
 * before the trips (version was, the init's contents) or what a trip
 * inserted.  Anything else there is a write no parallel_insert_slice made
 * (into a view of the shared arg), leaking into the result: it keeps its
 * writer's version, so a later read of the result finds it (a dead result
 * shows nothing). */
static void
forall_settle(Exec *X, Reg *r, const Value *res, uint32_t ver, uint32_t was)
{
	uint32_t found = 0;
	View v = r->view;

	if (!was || was == VER_ANY ||
	    shadow_mismatch_but(X, r->buf, &v, was, inserted_by, res,
				&found) < 0) {
		shadow_write(X, r->buf, &v, ver);
		return;
	}
	shadow_write_where(X, r->buf, &v, ver, was, inserted_by, res);
}

static void
run_forall(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	int64_t lb = int_operand(F, &op->args[0]), ub = int_operand(F, &op->args[1]);
	Reg *files = forall_room(X, in, op->nres);
	size_t busy = (size_t)FORALL_WINDOW * (size_t)X->bp->nregs;
	Reg *vr = files + busy + 1, *old = vr + op->nres;

	/* the trips write the result's new version; the shared args keep
	 * expecting the init's */
	for (int k = 0; k < op->nres; k++) {
		Reg *r = reg(F, op->res[k]);
		old[k].ver = vr[k].ver = r->ver;
		if (r->set && r->buf >= 0 && check_write(X, in, op->res[k], r))
			vr[k].ver = version_new(X, op->res[k], in);
	}
	for (int64_t i = lb; i < ub && !X->stop; i += FORALL_WINDOW) {
		int n = ub - i < FORALL_WINDOW ? (int)(ub - i) : FORALL_WINDOW;
		if ((X->trips += n) > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			break;
		}
		if (!exec_charge(X, op, work_mul(n, WORK_STEP)))
			break;
		forall_window(X, F, in, files, vr, i, n);
	}
	/* what no trip wrote holds the init, now the result's version */
	for (int k = 0; k < op->nres && !X->stop; k++) {
		Reg *r = reg(F, op->res[k]);
		if (!r->set || r->bad || r->buf < 0)
			continue;
		r->ver = vr[k].ver;
		forall_settle(X, r, op->res[k], r->ver, old[k].ver);
	}
	files[busy].set = false;
	if (files != X->scratch[in->id])
		X->unrooted--;
}

static void
bind_inputs(Exec *X, Frame *F, const Func *fn, Tensor *const *inputs)
{
	for (int i = 0; i < fn->nparams; i++) {
		const Value *p = fn->params[i];
		const Tensor *t = inputs[i];
		Reg *r = &F->regs[p->id];
		memset(r, 0, sizeof *r);
		r->set = true;
		if (p->type->kind != TY_TENSOR) {
			r->buf = -1;
			memcpy(&r->s, t->data, dtype_size(t->dt));
			r->view = scalar_view(r, t->dt);
			continue;
		}
		r->buf = buf_input(X, t, p);
		contiguous(r, t->dt, t->rank, t->dims);
		r->ver = version_new(X, p, NULL);
		X->bufs[r->buf].ver = r->ver;
		r->ro = p->readonly;
	}
}

/* May output r take its buffer's payload?  A whole allocation, written,
 * not freed, or an input the run wrote (its own copy), that no other
 * output names (outputs are taken in order, and a taken buffer has no
 * data left). */
static bool
stealable(Exec *X, const Reg *r)
{
	const Buf *b;

	if (!whole_of(X, r))
		return false;
	b = &X->bufs[r->buf];
	if ((b->kind != BUF_ALLOC && (b->kind != BUF_INPUT || b->borrowed)) ||
	    b->freed || b->pins || !b->data || b->lazy)
		return false;
	for (int k = 0; k + 1 < X->nouts; k++) /* the last is a spare */
		if (&X->outs[k] != r && X->outs[k].buf == r->buf)
			return false;
	return true;
}

static Tensor *
output_tensor(Exec *X, const Value *v, Reg *r)
{
	Tensor *t;
	View vt, vr;

	if (v->type->kind != TY_TENSOR) {
		t = tensor_new(v->type->dt, 0, NULL);
		if (!t)
			longjmp(X->oom, 1);
		memcpy(t->data, &r->s, dtype_size(t->dt));
		return t;
	}
	if (stealable(X, r)) { /* the run is over: its payload, no copy */
		Buf *b = &X->bufs[r->buf];
		t = tensor_adopt(r->view.dt, r->view.rank, r->view.sizes, b->n,
				 b->data);
		if (!t)
			longjmp(X->oom, 1);
		b->data = NULL;
		b->lazy = false;
		return t;
	}
	t = tensor_new(r->view.dt, r->view.rank, r->view.sizes);
	if (!t)
		longjmp(X->oom, 1);
	if (r->bad || r->buf < 0)
		return t;
	vt = view_of(t);
	vr = tview(X, r);
	k_copy(&vt, &vr);
	return t;
}

static void check_leaks(Exec *X, const Reg *outs, int n);

static void
collect_outputs(Exec *X, const BInst *ret, Reg *outs)
{
	ExecResult *res = X->res;

	res->outs = xalloc(X, (size_t)(ret->nvals + 1) * sizeof *res->outs);
	for (int k = 0; k < ret->nvals; k++) {
		const Value *v = ret->op->args[k].v;
		const Value *want = ret->top && k < ret->top->nargs ?
				    ret->top->args[k].v : v;
		if (v->type->kind == TY_TENSOR)
			check_read(X, ret, want ? want : v, &outs[k]);
		res->outs[k] = output_tensor(X, v, &outs[k]);
		res->nouts = k + 1;
	}
	check_leaks(X, outs, ret->nvals);
}

static int
by_id(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Every allocation not freed and not among the n results is a leak,
 * reported in allocation order. */
static void
check_leaks(Exec *X, const Reg *outs, int n)
{
	/* in the arena: a violation may run out of memory midway */
	int64_t (*l)[2] = arena_alloc(X->arena, ((size_t)X->nbufs + 1) * sizeof *l);
	int nl = 0;

	if (X->bp->frees_nothing)
		return;
	for (int h = 0; h < X->nbufs; h++) {
		bool returned = false;
		if (X->bufs[h].kind != BUF_ALLOC || X->bufs[h].freed)
			continue;
		for (int k = 0; k < n; k++)
			returned |= outs[k].buf == h;
		if (!returned) {
			l[nl][0] = X->bufs[h].id;
			l[nl++][1] = h;
		}
	}
	qsort(l, (size_t)nl, sizeof *l, by_id);
	for (int i = 0; i < nl; i++) {
		const Buf *b = &X->bufs[l[i][1]];
		violate(X, VK_LEAK, b->made, b->owner, NULL, (int)l[i][1], NULL,
			0, NULL);
	}
}

ExecShare *
exec_share_new(void)
{
	return mem_calloc(1, sizeof(ExecShare));
}

void
exec_share_free(ExecShare *s)
{
	if (s)
		arena_free(s->arena);
	mem_free(s);
}

/* X's per-launch tables: the share's when it has them for X's program
 * (made there at its first run), else the run's own.  -1 out of memory. */
static int
share_open(Exec *X)
{
	ExecShare *s = X->o->share;
	size_t n = (size_t)X->bp->ninsts + 1, nf = (size_t)X->bp->nfuncs + 1;
	Arena *a;

	if (s && s->bp == X->bp) {
		X->sarena = s->arena;
	} else if (s && (a = arena_new())) {
		arena_free(s->arena);
		memset(s, 0, sizeof *s);
		if (!(s->captured = arena_alloc(a, n * sizeof *s->captured)) ||
		    !(s->capflags = arena_alloc(a, n * sizeof *s->capflags)) ||
		    !(s->fruns = arena_alloc(a, nf * sizeof *s->fruns)) ||
		    !(s->lruns = arena_alloc(a, n * sizeof *s->lruns))) {
			arena_free(a);
			return -1;
		}
		s->arena = a;
		s->bp = X->bp;
		X->sarena = a;
	} else {
		if (s)
			return -1;
		X->sarena = X->arena;
		X->sarena->oom = &X->oom;
		X->captured = arena_alloc(X->arena, n * sizeof *X->captured);
		X->capflags = arena_alloc(X->arena, n * sizeof *X->capflags);
		X->fruns = arena_alloc(X->arena, nf * sizeof *X->fruns);
		X->lruns = arena_alloc(X->arena, n * sizeof *X->lruns);
		return 0;
	}
	X->captured = s->captured;
	X->capflags = s->capflags;
	X->fruns = s->fruns;
	X->lruns = s->lruns;
	X->sarena->oom = &X->oom; /* (until the run returns) */
	return 0;
}

int
exec_run(const BProg *bp, const Func *entry, Tensor *const *inputs,
	 const ExecOpts *o, ExecResult *res, Diag *d)
{
	Exec X;
	Frame F;
	const BFunc *volatile bf = NULL; /* set after the setjmp */
	const BInst *ret;
	Reg *outs;

	memset(&X, 0, sizeof X);
	memset(res, 0, sizeof *res);
	X.bp = bp;
	X.o = o;
	X.res = res;
	budget_start(&X.budget, o->lim);
	if (!(X.arena = arena_new()))
		return diag_set(d, entry->loc, "out of memory");
	if (setjmp(X.oom)) {
		if (X.sarena)
			X.sarena->oom = NULL;
		launches_free(&X);
		bufs_free(&X);
		versions_free(&X);
		arena_free(X.arena);
		exec_result_free(res);
		return diag_set(d, X.at ? X.at->loc : entry->loc,
				"out of memory");
	}
	X.arena->oom = &X.oom;
	X.constbuf = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.constbuf);
	X.constver = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.constver);
	X.scratch = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.scratch);
	X.frames = arena_alloc(X.arena, (size_t)(o->lim->max_depth + 1) * sizeof *X.frames);
	X.frame_runs = arena_alloc(X.arena, (size_t)(o->lim->max_depth + 1) * sizeof *X.frame_runs);
	if (share_open(&X))
		longjmp(X.oom, 1);
	X.scratchn = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.scratchn);
	X.gc_vers = 1024;
	X.gc_bufs = 64;
	X.rng = o->sched.seed;
	for (int i = 0; i < bp->ninsts; i++)
		X.constbuf[i] = -1;
	for (int i = 0; i < bp->nfuncs; i++)
		if (bp->funcs[i].f == entry)
			bf = &bp->funcs[i];
	F.fn = entry;
	F.regs = frame_regs(&X, 0, entry);
	version_new(&X, NULL, NULL); /* version 0: never written */
	bind_inputs(&X, &F, entry, inputs);
	outs = arena_alloc(X.arena, (size_t)(entry->nrtypes + 1) * sizeof *outs);
	X.outs = outs;
	X.nouts = entry->nrtypes + 1;
	ret = run_body(&X, &F, bf, outs);
	if (res->failed && !res->aborted[0])
		X.stop = false; /* the failure path ran: launches, leaks */
	if (!X.stop)
		launch_drain(&X, NULL);
	if (!X.stop && res->failed) {
		if (!bp->memref) /* a memref program's assert aborts */
			check_leaks(&X, NULL, 0);
	} else if (!X.stop && ret)
		collect_outputs(&X, ret, outs);
	X.sarena->oom = NULL;
	launches_free(&X);
	bufs_free(&X);
	versions_free(&X);
	arena_free(X.arena);
	return 0;
}

void
exec_result_free(ExecResult *res)
{
	for (int i = 0; i < res->nouts; i++)
		if (!res->shared || !res->shared[i])
			tensor_free(res->outs[i]);
	mem_free(res->outs);
	mem_free(res->shared);
	mem_free(res->viols);
	memset(res, 0, sizeof *res);
}
