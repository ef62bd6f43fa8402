/*
 * eval.c: the reference interpreter.
 *
 * Value semantics, literally: every op makes a fresh tensor whose data the
 * kernels (kernels.c) compute and whose definedness (Tensor.def)
 * eval_data.c computes, form by form.  A tensor is never written once it
 * is bound to a value, so several values that are the same value (yield,
 * await, iter args, call args and results, copy) share one tensor through
 * a refcounted Box.  Scalars are rank-0 tensors; a future is a Box holding
 * the boxes its region yielded, and an async region simply runs at its
 * launch (value semantics ignores streams).
 *
 * Each call has a Frame: an environment of boxes indexed by a per-function
 * slot number (Run.slot[Value.id]).  A value is unbound right after the
 * last op of its block that uses it (that op's regions included: a value
 * read inside a loop body lives until the loop ends), computed once per
 * run (dead_fill); an unused one right after the op that made it (a block
 * arg: after the block's first op); what a terminator yields stays until
 * the block finishes.  A tensor goes when its last box does.  A tensor
 * that an op's kernel writes entirely is not zeroed first.  Live payload
 * bytes are counted as tensors are made and freed and checked against
 * Limits.max_bytes; inputs count too, for the whole run (the caller owns
 * them); the peak is RefStats.peak_bytes.
 *
 * Errors: an eval function frees whatever it made and returns -1 with the
 * Diag set at the op (or operand) location; frames release their
 * environments on the way out, so nothing leaks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eval.h"

/* ------------------------------------------------------ environment */

/* Bind op's results to outs[] (their references move to the env). */
void
bind_results(Frame *f, const Op *op, Box **outs)
{
	for (int k = 0; k < op->nres; k++) {
		bind(f, op->res[k], outs[k]);
		outs[k] = NULL;
	}
}

/* Unbind the values a block defined (its args and its ops' results). */
void
clear_block(Frame *f, const Block *b)
{
	for (int k = 0; k < b->nargs; k++)
		bind(f, b->args[k], NULL);
	for (int i = 0; i < b->nops; i++)
		for (int k = 0; k < b->ops[i]->nres; k++)
			bind(f, b->ops[i]->res[k], NULL);
}

static int
func_index(const Program *p, const Func *fn)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] == fn)
			return i;
	return -1;
}

/* Number every value within its function: frames are that small. */
static int
slots_init(Run *r, Loc loc)
{
	const Program *p = r->p;
	const Func *last = NULL;
	int fi = -1;

	r->slot = mem_alloc((size_t)(p->nvalues ? p->nvalues : 1) * sizeof(int));
	r->nslots = mem_calloc((size_t)(p->nfuncs ? p->nfuncs : 1), sizeof(int));
	if (!r->slot || !r->nslots)
		return oom(r, loc);
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];

		if (v->func != last) {
			last = v->func;
			fi = func_index(p, last);
		}
		r->slot[id] = fi < 0 ? -1 : r->nslots[fi]++;
	}
	return 0;
}

/* ------------------------------------------------------- last uses */

/* The block a value is defined in (a param: its function's body). */
static const Block *
def_block(const Value *v)
{
	if (v->def)
		return v->def->parent;
	if (v->owner)
		return v->owner;
	return v->func ? v->func->body : NULL;
}

/* u is used by the op of v's block that is u or holds u in a region. */
static void
dead_use(Run *r, const Op *u, const Value *v)
{
	const Block *b;

	if (!v)
		return;
	b = def_block(v);
	while (u && u->parent != b)
		u = u->parent ? u->parent->parent : NULL;
	if (u && u->index > r->last[v->id])
		r->last[v->id] = u->index;
}

/* After which op each value can go: its last use in its own block; what
 * the block's terminator uses stays until clear_block. */
static int
dead_fill(Run *r, Loc loc)
{
	const Program *p = r->p;
	int nv = p->nvalues ? p->nvalues : 1;

	r->last = mem_alloc((size_t)nv * sizeof *r->last);
	r->dead_next = mem_alloc((size_t)nv * sizeof *r->dead_next);
	r->dead_head = mem_alloc((size_t)(p->nops ? p->nops : 1) *
				 sizeof *r->dead_head);
	if (!r->last || !r->dead_next || !r->dead_head)
		return oom(r, loc);
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		r->last[id] = v->def ? v->def->index : 0;
	}
	for (int i = 0; i < p->nops; i++)
		r->dead_head[i] = -1;
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		for (int k = 0; k < v->nuses; k++)
			dead_use(r, v->uses[k], v);
	}
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		const Block *b = def_block(v);
		const Op *at;

		if (!b || r->last[id] >= b->nops || block_in_cfg(b))
			continue; /* in a body with branches: kept to the end */
		at = b->ops[r->last[id]];
		if (op_info[at->kind].form >= F_YIELD)
			continue; /* a terminator's operand, or an empty block */
		r->dead_next[id] = r->dead_head[at->seq];
		r->dead_head[at->seq] = id;
	}
	return 0;
}

/* Unbind the values whose last use was op. */
static void
dead_drop(Frame *f, const Op *op)
{
	Run *r = f->run;

	for (int id = r->dead_head[op->seq]; id >= 0; id = r->dead_next[id])
		bind(f, r->p->values[id], NULL);
}

int
frame_init(Run *r, Frame *f, const Func *fn, Loc loc)
{
	int fi = func_index(r->p, fn);

	f->run = r;
	f->nslots = fi < 0 ? 0 : r->nslots[fi];
	f->env = mem_calloc((size_t)(f->nslots ? f->nslots : 1), sizeof(Box *));
	return f->env ? 0 : oom(r, loc);
}

void
frame_free(Frame *f)
{
	if (!f->env)
		return;
	for (int s = 0; s < f->nslots; s++)
		box_unref(f->run, f->env[s]);
	mem_free(f->env);
	f->env = NULL;
}

static const EvalFn eval_form[] = {
	[F_CONST] = eval_const,
	[F_EMPTY] = eval_empty,
	[F_BINARY] = eval_binary,
	[F_UNARY] = eval_unary,
	[F_CMP] = eval_cmp,
	[F_FILL] = eval_fill,
	[F_MATMUL] = eval_matmul,
	[F_TRANSPOSE] = eval_transpose,
	[F_REDUCE] = eval_reduce,
	[F_EXTRACT_SLICE] = eval_extract_slice,
	[F_INSERT_SLICE] = eval_insert_slice,
	[F_EXTRACT] = eval_extract,
	[F_INSERT] = eval_insert,
	[F_COPY] = eval_copy,
	[F_CLONE] = eval_clone,
	[F_CALL] = eval_call,
	[F_IF] = eval_if,
	[F_FOR] = eval_for,
	[F_ASYNC] = eval_async,
	[F_AWAIT] = eval_await,
	[F_WHILE] = eval_while,
	[F_ASSERT] = eval_assert,
	[F_FORALL] = eval_forall,
	[F_PARALLEL_INSERT] = eval_parallel_insert,
	[F_FROM_ELEMENTS] = eval_from_elements,
	[F_RESHAPE] = eval_reshape,
	[F_SELECT] = eval_select,
	[F_GENERATE] = eval_generate,
};

/* ------------------------------------------------- blocks and calls */

/* Run b's ops; the terminator's operands go to outs[0..nouts) as new
 * references (a literal gets the dtype of types[k]).  On error outs[] is
 * left empty.  Not walk_block: evaluation picks which region runs and how
 * often (an if's branch, a loop's trips) and binds values around it. */
int
eval_block(Frame *f, const Block *b, Type *const *types, Box **outs,
	   int nouts)
{
	const Op *term = b->nops ? b->ops[b->nops - 1] : NULL;
	int nbody = b->nops;

	if (term && op_info[term->kind].form >= F_YIELD)
		nbody--;
	else
		term = NULL;
	for (int i = 0; i < nbody; i++) {
		const Op *op = b->ops[i];
		EvalFn fn = op_info[op->kind].form < F_YIELD
				    ? eval_form[op_info[op->kind].form]
				    : NULL;

		if (!fn)
			return diag_set(f->run->d, op->loc,
					"%s in the middle of a block",
					op_info[op->kind].name);
		if (charge(f->run, op->loc, WORK_STEP) < 0 || fn(f, op) < 0)
			return -1;
		dead_drop(f, op);
	}
	for (int k = 0; term && k < nouts && k < term->nargs; k++) {
		outs[k] = operand_box(f, term, &term->args[k], types[k]->dt);
		if (!outs[k]) {
			for (int j = 0; j < k; j++) {
				box_unref(f->run, outs[j]);
				outs[j] = NULL;
			}
			return -1;
		}
	}
	return 0;
}

/* The branch at the end of b picks its successor: the block, with its
 * arguments bound to the values passed (all read before any is bound:
 * `br ^h(%b, %a)` swaps).  NULL on error. */
static const Block *
eval_branch(Frame *f, const Op *t)
{
	Run *r = f->run;
	int k = 0;
	const Block *to;
	const Operand *a;
	Box **boxes;

	if (t->kind == OP_COND_BR) {
		const Operand *c = &t->args[0];
		Lit l;
		const Tensor *ct = operand(f, c, DT_I1, &l);
		if (!tensor_defined(ct, 0)) {
			diag_set(r->d, oploc(c, t), "branch on undefined value "
				 "%%%s", oname(c));
			return NULL;
		}
		k = tensor_geti(ct, 0) ? 0 : 1;
	}
	/* every branch counts as a trip: a loop of blocks is bounded like
	 * a for */
	if (r->trips >= r->lim->max_trips) {
		diag_set(r->d, t->loc, "loop trip limit of %lld reached "
			 "(branches count as trips)",
			 (long long)r->lim->max_trips);
		return NULL;
	}
	r->trips++;
	to = t->succ[k];
	a = succ_args(t, k);
	if (!(boxes = boxes_new(r, t->loc, to->nargs)))
		return NULL;
	for (int i = 0; i < to->nargs; i++)
		if (!(boxes[i] = operand_box(f, t, &a[i],
					     to->args[i]->type->dt))) {
			boxes_free(r, boxes, to->nargs);
			return NULL;
		}
	for (int i = 0; i < to->nargs; i++) {
		bind(f, to->args[i], boxes[i]);
		boxes[i] = NULL;
	}
	boxes_free(r, boxes, to->nargs);
	return to;
}

/* Run fn's body in frame f (params bound); outs get its results.  Not
 * walk_func: control goes from block to block along the branches. */
int
eval_func(Frame *f, const Func *fn, Box **outs)
{
	const Block *b = fn->body;
	const Op *ret;
	Loc loc;
	int rc = 0;

	for (;;) {
		const Op *t = b->nops ? b->ops[b->nops - 1] : NULL;
		if (!t || (t->kind != OP_BR && t->kind != OP_COND_BR))
			break;
		if (eval_block(f, b, NULL, NULL, 0) < 0 ||
		    charge(f->run, t->loc, WORK_STEP) < 0 ||
		    !(b = eval_branch(f, t)))
			return -1;
	}
	ret = b->nops ? b->ops[b->nops - 1] : NULL;
	loc = ret ? ret->loc : fn->loc;
	if (eval_block(f, b, fn->rtypes, outs, fn->nrtypes) < 0)
		return -1;
	for (int k = 0; k < fn->nrtypes && rc == 0; k++) {
		char what[300];

		if (!outs[k] || !outs[k]->t) {
			fmt_snprintf(what, sizeof what, "result %d of @%s", k,
				     fn->name);
			rc = diag_set(f->run->d, loc, "%s is missing", what);
		} else
			rc = check_fits(f->run, loc, outs[k]->t, fn->rtypes[k],
					"result %d of @%s", k, fn->name);
	}
	for (int k = 0; k < fn->nrtypes && rc < 0; k++) {
		box_unref(f->run, outs[k]);
		outs[k] = NULL;
	}
	return rc;
}

/* Bind the entry's params to the (borrowed) inputs, checked and counted. */
static int
bind_inputs(Frame *f, const Func *fn, Tensor *const *inputs)
{
	Run *r = f->run;

	for (int k = 0; k < fn->nparams; k++) {
		const Value *pv = fn->params[k];
		Tensor *in = inputs ? inputs[k] : NULL;
		Box *b;

		if (!in)
			return diag_set(r->d, pv->loc, "missing input %%%s",
					pv->name);
		if (check_fits(r, pv->loc, in, pv->type, "input %%%s",
			       pv->name) < 0)
			return -1;
		if (t_bytes(in) > r->lim->max_bytes - r->bytes)
			return diag_set(r->d, pv->loc,
					"live tensors need %lld bytes, over the "
					"limit of %lld",
					(long long)(r->bytes + t_bytes(in)),
					(long long)r->lim->max_bytes);
		if (!(b = mem_calloc(1, sizeof *b)))
			return oom(r, pv->loc);
		r->bytes += t_bytes(in);
		if (r->bytes > r->peak)
			r->peak = r->bytes;
		b->refs = 1;
		b->borrowed = true;
		b->t = in;
		bind(f, pv, b);
	}
	return 0;
}

/* Results to caller-owned tensors: a box only this run holds gives up its
 * tensor; inputs and shared tensors are copied. */
static int
take_outputs(Run *r, const Func *fn, Box **res, Tensor ***outs,
	     int *nouts)
{
	int n = fn->nrtypes;
	Tensor **ts = mem_calloc((size_t)(n ? n : 1), sizeof *ts);

	if (!ts)
		return oom(r, fn->loc);
	for (int k = 0; k < n; k++) {
		Box *b = res[k];

		if (b->borrowed || b->refs > 1) {
			ts[k] = t_dup(r, fn->loc, b->t);
		} else {
			ts[k] = b->t;
			b->t = NULL;
		}
		if (!ts[k]) {
			for (int j = 0; j < k; j++)
				tensor_free(ts[j]);
			mem_free(ts);
			return -1;
		}
		box_unref(r, b);
		res[k] = NULL;
	}
	*outs = ts;
	*nouts = n;
	return 0;
}

int
ref_run(const Program *p, const Func *entry, Tensor *const *inputs,
	const Limits *lim, Tensor ***outs, int *nouts, Diag *d)
{
	return ref_run_stats(p, entry, inputs, lim, outs, nouts, d, NULL);
}

int
ref_run_stats(const Program *p, const Func *entry, Tensor *const *inputs,
	      const Limits *lim, Tensor ***outs, int *nouts, Diag *d,
	      RefStats *st)
{
	Run r = {.p = p, .lim = lim ? lim : &default_limits, .d = d,
		 .depth = 1, .order = st ? st->order : 0};
	Frame f = {0};
	Box **res = NULL;
	int n = entry->nrtypes, rc = -1;

	budget_start(&r.budget, r.lim);
	*outs = NULL;
	*nouts = 0;
	if (slots_init(&r, entry->loc) < 0 || dead_fill(&r, entry->loc) < 0 ||
	    frame_init(&r, &f, entry, entry->loc) < 0 ||
	    bind_inputs(&f, entry, inputs) < 0 ||
	    !(res = boxes_new(&r, entry->loc, n)) ||
	    eval_func(&f, entry, res) < 0)
		goto out;
	frame_free(&f); /* drop the env's references: results can be taken */
	rc = take_outputs(&r, entry, res, outs, nouts);
out:
	if (rc < 0 && r.failed)
		rc = 1;
	frame_free(&f);
	boxes_free(&r, res, n);
	mem_free(r.slot);
	mem_free(r.nslots);
	mem_free(r.last);
	mem_free(r.dead_head);
	mem_free(r.dead_next);
	if (st) {
		st->peak_bytes = r.peak;
		st->forall_trips = r.forall_trips;
	}
	return rc;
}
