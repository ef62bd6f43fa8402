/*
 * eval_control.c: the reference interpreter's forms that run regions or
 * functions: call, if, for, forall (and its parallel_insert_slice),
 * while, generate, assert, async and await.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eval.h"

int
eval_call(Frame *f, const Op *op)
{
	Run *r = f->run;
	const Func *fn = op->fn;
	Frame callee = {0};
	Box **outs = NULL;
	int rc = -1;

	if (r->depth >= r->lim->max_depth)
		return diag_set(r->d, op->loc, "call depth limit of %d reached",
				r->lim->max_depth);
	if (charge(r, op->loc, WORK_CALL) < 0)
		return -1;
	if (frame_init(r, &callee, fn, op->loc) < 0)
		goto out;
	for (int k = 0; k < fn->nparams && k < op->nargs; k++) {
		const Value *pv = fn->params[k];
		const Operand *o = &op->args[k];
		Box *b = operand_box(f, op, o, pv->type->dt);

		if (!b)
			goto out;
		bind(&callee, pv, b);
		if (b->t && check_fits(r, oploc(o, op), b->t, pv->type,
				       "argument %%%s of @%s", oname(o),
				       fn->name) < 0)
			goto out;
	}
	if (!(outs = boxes_new(r, op->loc, fn->nrtypes)))
		goto out;
	r->depth++;
	rc = eval_func(&callee, fn, outs);
	r->depth--;
	if (rc == 0)
		bind_results(f, op, outs);
out:
	frame_free(&callee);
	boxes_free(r, outs, fn->nrtypes);
	return rc;
}

int
eval_if(Frame *f, const Op *op)
{
	const Operand *c = &op->args[0];
	Lit l;
	const Tensor *ct = operand(f, c, DT_I1, &l);
	const Block *b;
	Box **outs;
	int rc;

	if (!tensor_defined(ct, 0))
		return diag_set(f->run->d, oploc(c, op),
				"branch on undefined value %%%s", oname(c));
	b = tensor_geti(ct, 0) ? op->body : op->orelse;
	if (!b)
		return 0;
	if (!(outs = boxes_new(f->run, op->loc, op->nres)))
		return -1;
	rc = eval_block(f, b, op->rtypes, outs, op->nres);
	clear_block(f, b);
	if (rc == 0)
		bind_results(f, op, outs);
	boxes_free(f->run, outs, op->nres);
	return rc;
}

/* Bounds of a for: trips = ceil((ub - lb) / step), no overflow. */
static int
for_bounds(Frame *f, const Op *op, int64_t *lb, int64_t *step,
	   uint64_t *trips)
{
	int64_t ub;

	if (read_int(f, op, &op->args[0], "loop bound", lb) < 0 ||
	    read_int(f, op, &op->args[1], "loop bound", &ub) < 0 ||
	    read_int(f, op, &op->args[2], "loop step", step) < 0)
		return -1;
	if (*step <= 0)
		return diag_set(f->run->d, oploc(&op->args[2], op),
				"loop step must be > 0, got %lld",
				(long long)*step);
	*trips = ub <= *lb ? 0
			   : ((uint64_t)ub - (uint64_t)*lb - 1) /
				     (uint64_t)*step + 1;
	return 0;
}

/* One trip of a for or forall body: iv and iter (shared) args in, the
 * yields out into next[0..nnext) (a forall's trip yields nothing).  A for
 * hands cur over to the body (its last use may free it); a forall keeps
 * its shared args for the next trip. */
static int
loop_trip(Frame *f, const Op *op, int64_t iv, Box **cur, Box **next,
	  int nnext)
{
	bool keep = op_info[op->kind].form == F_FORALL;
	Run *r = f->run;
	const Block *b = op->body;
	Tensor *t;
	Box *ivb;
	int rc;

	if (r->trips >= r->lim->max_trips)
		return diag_set(r->d, op->loc, "loop trip limit of %lld reached",
				(long long)r->lim->max_trips);
	if (charge(r, op->loc, WORK_STEP) < 0)
		return -1;
	r->trips++;
	if (!(t = t_new(r, op->loc, DT_INDEX, 0, NULL)))
		return -1;
	tensor_seti(t, 0, iv);
	if (!(ivb = box_new(r, op->loc, t)))
		return -1;
	bind(f, b->args[0], ivb);
	for (int k = 0; k < op->nres; k++) {
		bind(f, b->args[1 + k], keep ? box_ref(cur[k]) : cur[k]);
		if (!keep)
			cur[k] = NULL;
	}
	rc = eval_block(f, b, op->rtypes, next, nnext);
	clear_block(f, b);
	return rc;
}

int
eval_for(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1;
	int64_t lb = 0, step = 1;
	uint64_t trips = 0;
	Box **cur = NULL, **next = NULL;

	if (for_bounds(f, op, &lb, &step, &trips) < 0)
		return -1;
	if (!(cur = boxes_new(r, op->loc, n)) ||
	    !(next = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++)
		if (!(cur[k] = operand_box(f, op, &op->args[3 + k],
					   op->rtypes[k]->dt)))
			goto out;
	for (uint64_t i = 0; i < trips; i++) {
		Box **tmp;
		int64_t iv = (int64_t)((uint64_t)lb + i * (uint64_t)step);

		if (loop_trip(f, op, iv, cur, next, op->nres) < 0)
			goto out;
		for (int k = 0; k < n; k++) {
			box_unref(r, cur[k]);
			cur[k] = NULL;
		}
		tmp = cur, cur = next, next = tmp;
	}
	bind_results(f, op, cur);
	rc = 0;
out:
	boxes_free(r, cur, n);
	boxes_free(r, next, n);
	return rc;
}

/* Element positions of op's slice of t, row-major, into li[]. */
static void
slice_elems(const Tensor *t, const int64_t *offs, const Op *op, int64_t *li)
{
	int64_t idx[MAXRANK] = {0}, n = 1, k = 0;

	for (int d = 0; d < t->rank; d++)
		n *= op->sizes[d];
	for (; k < n; k++) {
		int64_t at = 0;
		for (int d = 0; d < t->rank; d++)
			at = at * t->dims[d] + offs[d] + idx[d] * op->strides[d];
		li[k] = at;
		for (int d = t->rank - 1; d >= 0 && ++idx[d] == op->sizes[d]; d--)
			idx[d] = 0;
	}
}

/* Mark the slice as written by g's trip; another trip's mark is a
 * program defect (the iterations' order would decide the result). */
static int
gather_claim(Frame *f, const Op *op, Gather *g, int k, const int64_t *offs)
{
	const Tensor *t = g->outs[k];
	int64_t n = 1, *li;
	int rc = 0;

	for (int d = 0; d < t->rank; d++)
		n *= op->sizes[d];
	if (!(li = mem_alloc((size_t)(n ? n : 1) * sizeof *li)))
		return oom(f->run, op->loc);
	slice_elems(t, offs, op, li);
	for (int64_t i = 0; i < n && !rc; i++) {
		uint64_t *w = &g->owner[k][li[i]];
		if (*w && *w != g->trip)
			rc = diag_set(f->run->d, op->loc, "program defect: "
				      "trips %llu and %llu of the forall write "
				      "overlapping slices of %%%s (element %lld)",
				      (unsigned long long)*w - 1,
				      (unsigned long long)g->trip - 1,
				      op->dest.v->name, (long long)li[i]);
		*w = g->trip;
	}
	mem_free(li);
	return rc;
}

int
eval_parallel_insert(Frame *f, const Op *op)
{
	const Tensor *s = lookup(f, op->args[0].v)->t;
	Gather *g = f->par;
	int64_t offs[MAXRANK];
	int k = -1;
	View vo, vs;

	while (g && g->op != op->parent->parent)
		g = g->up;
	for (int i = 1; g && i < op->parent->nargs; i++)
		if (op->parent->args[i] == op->dest.v)
			k = i - 1;
	if (k < 0)
		return diag_set(f->run->d, op->loc, "parallel_insert_slice "
				"outside its forall");
	if (slice_offsets(f, op, g->outs[k], &op->dest, offs) < 0 ||
	    gather_claim(f, op, g, k, offs) < 0)
		return -1;
	vo = sub_view(g->outs[k], false, offs, op->sizes, op->strides);
	vs = view_of(s);
	k_copy(&vo, &vs);
	return def_insert_slice(f->run, op->loc, g->outs[k], s, offs, op);
}


static void
gather_free(Run *r, Gather *g, int n)
{
	for (int k = 0; k < n; k++) {
		t_free(r, g->outs[k]);
		mem_free(g->owner[k]);
	}
	mem_free(g->outs);
	mem_free(g->owner);
}

static int64_t
gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Trip i of n in order `order` (Run.order > 0): 1 first to last, 2 last
 * to first, then every permutation of up to 5 trips in turn (Lehmer
 * codes), an affine one of more. */
static int64_t
trip_at(int order, int64_t n, int64_t i)
{
	int64_t fact = 1, code, left[5], a;

	if (order <= 1)
		return i;
	if (order == 2)
		return n - 1 - i;
	if (n > 5) {
		for (a = order; a > 1 && (n % a == 0 || gcd64(a, n) != 1); a++)
			;
		return (int64_t)(((uint64_t)a * (uint64_t)i + (uint64_t)order) %
				 (uint64_t)n);
	}
	for (int64_t k = 2; k <= n; k++)
		fact *= k;
	code = (order - 3) % fact;
	for (int64_t k = 0; k < n; k++)
		left[k] = k;
	for (int64_t k = 0, m = n; k <= i; k++, m--) {
		int64_t pick;
		fact /= m;
		pick = code / fact;
		code %= fact;
		if (k == i)
			return left[pick];
		for (int64_t j = pick; j + 1 < m; j++)
			left[j] = left[j + 1];
	}
	return i;
}

/* Run.order > 0: each trip's shared args are what the earlier trips (in
 * that order) inserted so far, MLIR's in-place meaning of a read beyond
 * the trip's own slice (a race there: one of the orders it may give). */
static int
visible_trip(Frame *f, const Op *op, Gather *g, int64_t iv)
{
	Run *r = f->run;
	int n = op->nres, rc = -1;
	Box **snap = boxes_new(r, op->loc, n);

	for (int k = 0; snap && k < n; k++) {
		Tensor *t = t_dup(r, op->loc, g->outs[k]);
		if (!t || !(snap[k] = box_new(r, op->loc, t)))
			goto out;
	}
	if (snap)
		rc = loop_trip(f, op, iv, snap, NULL, 0);
out:
	boxes_free(r, snap, n);
	return rc;
}

/* forall: trips in order (their slices are disjoint, so any order gives
 * the same result); each result starts as a copy of its init.  With
 * Run.order, trips in that order, each seeing the earlier ones' inserts. */
int
eval_forall(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1;
	int64_t lb, ub;
	Gather g = {.op = op, .up = f->par};
	Box **init = boxes_new(r, op->loc, n), **outs = NULL;

	if (!init || read_int(f, op, &op->args[0], "loop bound", &lb) < 0 ||
	    read_int(f, op, &op->args[1], "loop bound", &ub) < 0)
		goto out;
	g.outs = mem_calloc((size_t)n + 1, sizeof *g.outs);
	g.owner = mem_calloc((size_t)n + 1, sizeof *g.owner);
	if (!g.outs || !g.owner) {
		oom(r, op->loc);
		goto out;
	}
	for (int k = 0; k < n; k++) {
		if (!(init[k] = operand_box(f, op, &op->args[2 + k],
					    op->rtypes[k]->dt)) ||
		    !(g.outs[k] = t_dup(r, op->loc, init[k]->t)))
			goto out;
		g.owner[k] = mem_calloc((size_t)g.outs[k]->n + 1,
					sizeof *g.owner[k]);
		if (!g.owner[k]) {
			oom(r, op->loc);
			goto out;
		}
	}
	f->par = &g;
	if (ub - lb > r->forall_trips)
		r->forall_trips = ub - lb;
	for (int64_t i = 0; i < ub - lb; i++) {
		int64_t iv = lb + (r->order ? trip_at(r->order, ub - lb, i) : i);
		g.trip = (uint64_t)(iv - lb) + 1;
		if ((r->order ? visible_trip(f, op, &g, iv)
			      : loop_trip(f, op, iv, init, NULL, 0)) < 0)
			goto out;
	}
	if (!(outs = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++) {
		Tensor *t = g.outs[k];

		g.outs[k] = NULL; /* box_new owns it, even on failure */
		if (!(outs[k] = box_new(r, op->loc, t)))
			goto out;
	}
	bind_results(f, op, outs);
	rc = 0;
out:
	f->par = g.up;
	if (g.outs)
		gather_free(r, &g, n);
	else
		mem_free(g.owner);
	boxes_free(r, init, n);
	boxes_free(r, outs, n);
	return rc;
}

/* The condition region of a while on the iter values cur: 1 to go on,
 * 0 to stop, -1 on error (an undefined condition is a program defect). */
static int
while_cond(Frame *f, const Op *op, Box **cur)
{
	static Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};
	static Type *const types[1] = {&i1};
	const Op *c = op->body->ops[op->body->nops - 1];
	Box *out = NULL;
	int rc;

	for (int k = 0; k < op->nres; k++)
		bind(f, op->body->args[k], box_ref(cur[k]));
	rc = eval_block(f, op->body, types, &out, 1);
	clear_block(f, op->body);
	if (rc < 0)
		return -1;
	if (!tensor_defined(out->t, 0))
		rc = diag_set(f->run->d, oploc(&c->args[0], c),
			      "while condition on undefined value %%%s",
			      oname(&c->args[0]));
	else
		rc = tensor_geti(out->t, 0) != 0;
	box_unref(f->run, out);
	return rc;
}

/* One trip of the do region, counted against the trip limit. */
static int
while_trip(Frame *f, const Op *op, Box **cur, Box **next)
{
	Run *r = f->run;
	int rc;

	if (r->trips >= r->lim->max_trips)
		return diag_set(r->d, op->loc, "loop trip limit of %lld reached",
				(long long)r->lim->max_trips);
	if (charge(r, op->loc, WORK_STEP) < 0)
		return -1;
	r->trips++;
	for (int k = 0; k < op->nres; k++) { /* handed over, like for's */
		bind(f, op->orelse->args[k], cur[k]);
		cur[k] = NULL;
	}
	rc = eval_block(f, op->orelse, op->rtypes, next, op->nres);
	clear_block(f, op->orelse);
	return rc;
}

int
eval_while(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1, go;
	Box **cur = NULL, **next = NULL;

	if (!(cur = boxes_new(r, op->loc, n)) ||
	    !(next = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++)
		if (!(cur[k] = operand_box(f, op, &op->args[k],
					   op->rtypes[k]->dt)))
			goto out;
	while ((go = while_cond(f, op, cur)) > 0) {
		Box **tmp;

		if (while_trip(f, op, cur, next) < 0)
			goto out;
		for (int k = 0; k < n; k++) {
			box_unref(r, cur[k]);
			cur[k] = NULL;
		}
		tmp = cur, cur = next, next = tmp;
	}
	if (go < 0)
		goto out;
	bind_results(f, op, cur);
	rc = 0;
out:
	boxes_free(r, cur, n);
	boxes_free(r, next, n);
	return rc;
}

/* assert: a false condition ends the run through the failure path. */
int
eval_assert(Frame *f, const Op *op)
{
	const Operand *c = &op->args[0];
	Lit l;
	const Tensor *ct = operand(f, c, DT_I1, &l);

	if (!tensor_defined(ct, 0))
		return diag_set(f->run->d, oploc(c, op),
				"assert on undefined value %%%s", oname(c));
	if (tensor_geti(ct, 0))
		return 0;
	f->run->failed = op;
	return diag_set(f->run->d, op->loc, "%s", op->msg ? op->msg : "");
}

/* async: the region runs now; the future holds what it yielded. */
int
eval_async(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nrtypes;
	Box **outs = boxes_new(r, op->loc, n);
	Box *fut;
	int rc;

	if (!outs)
		return -1;
	rc = eval_block(f, op->body, op->rtypes, outs, n);
	clear_block(f, op->body);
	if (rc < 0 || !(fut = mem_calloc(1, sizeof *fut))) {
		boxes_free(r, outs, n);
		return rc < 0 ? -1 : oom(r, op->loc);
	}
	fut->refs = 1;
	fut->elems = outs;
	fut->nelems = n;
	bind(f, op->res[0], fut);
	return 0;
}

int
eval_await(Frame *f, const Op *op)
{
	Box *fut = lookup(f, op->args[0].v);

	for (int k = 0; k < op->nres && k < fut->nelems; k++)
		bind(f, op->res[k], box_ref(fut->elems[k]));
	return 0;
}


/* Bind generate's index args to the element index idx. */
static int
bind_index(Frame *f, const Op *op, const int64_t *idx)
{
	const Block *b = op->body;

	for (int d = 0; d < b->nargs; d++) {
		Tensor *t = t_new(f->run, op->loc, DT_INDEX, 0, NULL);
		Box *bx;
		if (!t)
			return -1;
		tensor_seti(t, 0, idx[d]);
		if (!(bx = box_new(f->run, op->loc, t)))
			return -1;
		bind(f, b->args[d], bx);
	}
	return 0;
}

/* One element of a generate: the body on index idx, its scalar into
 * element li of t (undefined when the scalar is). */
static int
generate_elem(Frame *f, const Op *op, const int64_t *idx, Tensor *t,
	      int64_t li)
{
	Run *r = f->run;
	Type el = {.kind = TY_SCALAR, .dt = op->type->dt};
	Type *elp = &el;
	Box *out = NULL;
	View vo, ve;
	int rc;

	if (r->trips >= r->lim->max_trips)
		return diag_set(r->d, op->loc, "loop trip limit of %lld reached "
				"(generate elements count as trips)",
				(long long)r->lim->max_trips);
	if (charge(r, op->loc, WORK_STEP) < 0)
		return -1;
	r->trips++;
	rc = bind_index(f, op, idx);
	if (rc == 0)
		rc = eval_block(f, op->body, &elp, &out, 1);
	clear_block(f, op->body);
	if (rc < 0 || !out || !out->t) {
		box_unref(r, out);
		return rc < 0 ? -1 : diag_set(r->d, op->loc, "generate body "
					      "yields no scalar");
	}
	vo = elem_view(t, false, li);
	ve = view_of(out->t);
	k_copy(&vo, &ve);
	if (!tensor_defined(out->t, 0)) {
		if (def_ensure(r, op->loc, t, 1) < 0) {
			box_unref(r, out);
			return -1;
		}
		t->def[li] = 0;
	}
	box_unref(r, out);
	return 0;
}

/* generate: the body once per element, in row-major order, each run on
 * the values in scope as they are (value semantics: an insert in the body
 * into a captured tensor makes a new tensor, never seen by the next
 * element).  Each element counts as a loop trip. */
int
eval_generate(Frame *f, const Op *op)
{
	int64_t dims[MAXRANK], idx[MAXRANK] = {0}, n = 1;
	int rank = op->type->rank;
	Tensor *t;

	if (op_dims(f, op, dims) < 0)
		return -1;
	if (!(t = t_new(f->run, op->loc, op->type->dt, rank, dims)))
		return -1;
	n = t->n; /* (not the product: a zero dimension may come last) */
	for (int64_t li = 0; li < n; li++) {
		if (generate_elem(f, op, idx, t, li) < 0) {
			t_free(f->run, t);
			return -1;
		}
		for (int d = rank - 1; d >= 0 && ++idx[d] == dims[d]; d--)
			idx[d] = 0;
	}
	return bind_new(f, op, 0, t);
}
