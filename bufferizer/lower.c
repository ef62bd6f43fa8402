/*
 * lower.c: tensor program + decisions -> buffer program.
 *
 * Ownership, the rule every strategy gets for free:
 * - an allocation (a `new` result, a loop buffer, a call/if/await result)
 *   is owned by the block of the op that makes it; params and constants
 *   are owned by nobody here;
 * - it is freed in that block right after the last use of any value whose
 *   buffer lies in it (a use inside a nested region counts at the op that
 *   holds the region; a use inside an async region lasts until the last
 *   await of its future, or the end of the block);
 * - a region or function passes out only whole buffers it owns: anything
 *   else it yields or returns is copied into a fresh buffer first, and the
 *   receiver (the if/await/call result) owns what it gets;
 * - a loop keeps each iter arg in one loop buffer: the init's (in place) or
 *   a copy of it (`new`); a yield of another buffer copies into it.
 * - a carried future (a for's iter arg or result, a block argument, or
 *   a launch's future passed to one) is a root of its own: each holder
 *   owns a reference (a yield or an edge retains what it passes on, a for
 *   retains its init), released after the last use of the future or of
 *   an await result (which lies in the launch's result buffers); the last
 *   release completes the launch and frees them.  Its launch may outlive
 *   the block that made it, so in such a function the lowering's frees
 *   and its copies into loop buffers first complete the pending launches
 *   that use the buffer (BInst.settle);
 * A plan's `free` replaces the rule for the buffer it names.  A plan's
 * `anchor` makes an empty a view of the slice its insert_slice overwrites;
 * a `hoist` allocates a loop body's buffer once, before the outermost loop,
 * owned (and freed) by the block that holds that loop.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>

#include "bufferize.h"

typedef struct AwaitRef AwaitRef;
struct AwaitRef {
	const Op *op;
	AwaitRef *next;
};

typedef struct Lower {
	Arena *a;
	const Program *p;
	const Decisions *ds;
	BProg *bp;
	int capregs, capinsts;
	/* by register id */
	Value **root;      /* the value that made the allocation v lies in */
	bool *whole;       /* v's view is the whole of that allocation */
	Block **owner;     /* for roots: the block that frees it, or NULL */
	bool *moved;       /* for roots: passed out of its block */
	int *hint;         /* synthetic roots: index in their block of the op
			    * that uses them last, or -1 */
	Value **hoisted;   /* by value id: the hoisted buffer it lives in */
	AwaitRef **awaits; /* by future value id: the ops awaiting it */
	Value ***futres;   /* by future value id: its `%f.k` registers */
	int *last;         /* by root id: last use in the block being placed */
	int *touched;      /* ... the ids set, to reset */
	int ntouched, captouched;
	Value **synths;    /* synthetic roots of the blocks being lowered */
	int nsynth, capsynth;
	struct Cfg *cfg;   /* the body with branches being lowered, or NULL */
	Value *(*lend)[2]; /* by register id: an if/select result sharing a
			    * buffer: the values it may take it from (kept
			    * alive while it is used) */
	bool *borrowing;   /* by register id: may hold a buffer it does not
			    * own (its free reads the ownership) */
	bool *handle;      /* by value id: a carried future (a root) */
	bool settle;       /* the function being lowered has carried launches */
	Diag *d;
	jmp_buf fail;
} Lower;

static BInst *
inst_new(Lower *L, BKind kind, const Op *op, Value *v)
{
	BInst *in = arena_alloc(L->a, sizeof *in);
	BProg *bp = L->bp;

	in->kind = kind;
	in->op = op;
	in->v = v;
	if (v && v->id < L->p->nvalues)
		in->dec = L->ds->d[v->id];
	in->id = bp->ninsts;
	VEC_PUSH(L->a, bp->insts, bp->ninsts, L->capinsts, in);
	return in;
}

static void
emit(Lower *L, BBlock *b, BInst *in)
{
	VEC_PUSH(L->a, b->insts, b->n, b->cap, in);
}

static void
set_root(Lower *L, Value *v, Value *root, bool whole, Block *owner)
{
	L->root[v->id] = root;
	L->whole[v->id] = whole;
	if (root == v)
		L->owner[v->id] = owner;
}

/* A synthetic register (escape copies, loop temporaries). */
static Value *
synth(Lower *L, const Value *like, const char *suffix)
{
	Value *v = arena_alloc(L->a, sizeof *v);
	char name[128];
	BProg *bp = L->bp;

	fmt_snprintf(name, sizeof name, "%s.%s", like->name, suffix);
	v->name = arena_strdup(L->a, name);
	v->type = like->type;
	v->func = like->func;
	v->loc = like->loc;
	if (bp->nregs == L->capregs)
		longjmp(L->fail, 2); /* sized in bufferize_lower: a bug */
	v->id = bp->nregs;
	bp->regs[bp->nregs++] = v;
	VEC_PUSH(L->a, L->synths, L->nsynth, L->capsynth, v);
	return v;
}

/* An allocation for v; `shape` is a value of the same shape, read at run
 * time when v's type has `?` dims. */
static BInst *
emit_alloc(Lower *L, BBlock *b, const Op *op, Value *v, Value *shape,
	   Block *owner, const char *why)
{
	BInst *in = inst_new(L, BI_ALLOC, op, v);

	in->why = why;
	in->src = shape;
	emit(L, b, in);
	set_root(L, v, v, true, owner);
	return in;
}

static BInst *
emit_copy(Lower *L, BBlock *b, const Op *op, Value *dst, Value *src,
	  const char *why)
{
	BInst *in = inst_new(L, BI_COPY, op, dst);

	in->src = src;
	in->why = why;
	emit(L, b, in);
	return in;
}

static bool
is_tensor(const Value *v)
{
	return v && v->type->kind == TY_TENSOR;
}

/* A root the frees follow: a tensor's buffer or a carried future. */
static bool
is_buf(const Lower *L, const Value *v)
{
	return is_tensor(v) ||
	       (v && v->id < L->p->nvalues && L->handle[v->id]);
}

static BBlock *lower_block(Lower *L, const Block *blk);

static const char *
why_str(Lower *L, const char *fmt, const char *a, const char *b)
{
	char buf[256];

	fmt_snprintf(buf, sizeof buf, fmt, a, b);
	return arena_strdup(L->a, buf);
}

/* A value with the shape of result v, for allocations of dynamic shape. */
static Value *
shape_source(const Op *op, const Value *v)
{
	if (op->hasdest)
		return op->dest.v;
	for (int i = 0; i < op->nargs; i++)
		if (op->args[i].v && type_equal(op->args[i].v->type, v->type))
			return op->args[i].v;
	return NULL;
}

/* Does an insert_slice overwrite all of its (static) destination?  Then
 * an out-of-place insert keeps nothing of it: no copy. */
static bool
covers_dest(const Op *op)
{
	const Type *t = op->dest.v->type;

	if (op->kind != OP_INSERT_SLICE || !type_is_static(t))
		return false;
	for (int d = 0; d < op->noffs; d++)
		if (op->offs[d].v || op->offs[d].i != 0 ||
		    op->sizes[d] != t->dims[d] || op->strides[d] != 1)
			return false;
	return true;
}

/* A fresh buffer for v: allocated here, or its hoisted one. */
static void
fresh(Lower *L, BBlock *out, const Op *op, Value *v, Value *shape)
{
	BInst *in;

	if (!L->hoisted[v->id]) {
		emit_alloc(L, out, op, v, shape, op->parent, NULL);
		return;
	}
	in = inst_new(L, BI_ALIAS, op, v);
	in->src = L->hoisted[v->id];
	emit(L, out, in);
	set_root(L, v, in->src, true, NULL);
}

/* Results of ops that compute into a buffer: alloc or alias, then compute. */
static void
lower_compute(Lower *L, const Op *op, BBlock *out)
{
	const OpInfo *oi = &op_info[op->kind];

	for (int k = 0; k < op->nres; k++) {
		Value *v = op->res[k];
		const Decision *dec = &L->ds->d[v->id];
		if (!is_tensor(v))
			continue;
		if (dec->kind == DEC_INPLACE) {
			BInst *in = inst_new(L, BI_ALIAS, op, v);
			in->src = dec->into;
			emit(L, out, in);
			set_root(L, v, L->root[dec->into->id],
				 L->whole[dec->into->id], NULL);
			continue;
		}
		fresh(L, out, op, v, shape_source(op, v));
		if (oi->readsdest && op->hasdest && op->dest.v &&
		    !covers_dest(op))
			emit_copy(L, out, op, v, op->dest.v,
				  why_str(L, "%s reads the old contents of %%%s",
					  oi->name, op->dest.v->name));
	}
	emit(L, out, inst_new(L, BI_COMPUTE, op, op->nres ? op->res[0] : NULL));
}

/* The init of iter arg k is never observed: the loop runs at least once
 * (literal bounds) and its body does not read the iter arg, so the first
 * yield overwrites the loop buffer before anyone reads it.  A copy of the
 * init would read it for nothing (and blame a stale init that no run of
 * the program can see). */
static bool
init_unobserved(const Op *op, int k)
{
	const Operand *lb = &op->args[0], *ub = &op->args[1], *st = &op->args[2];

	return !lb->v && !ub->v && !st->v && st->i > 0 && ub->i > lb->i &&
	       !used_inside(op->body->args[1 + k], op);
}

/* The buffer of a loop's result r (for, while, forall): its init's when
 * in place, else a fresh one that starts as a copy of the init when
 * `copy` (the loop may read it).  Returns whether it is the init's. */
static bool
loop_buffer(Lower *L, BBlock *out, const Op *op, Value *r, Value *init,
	    bool copy, const char *why)
{
	if (L->ds->d[r->id].kind == DEC_INPLACE && init) {
		BInst *a = inst_new(L, BI_ALIAS, op, r);
		a->src = init;
		emit(L, out, a);
		set_root(L, r, L->root[init->id], L->whole[init->id], NULL);
		return true;
	}
	fresh(L, out, op, r, init);
	if (init && copy)
		emit_copy(L, out, op, r, init, why);
	return false;
}

static void
lower_for(Lower *L, const Op *op, BBlock *out)
{
	BInst *in;

	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[3 + k].v;
		Value *arg = op->body->args[1 + k];
		if (L->handle[r->id]) {
			/* each trip's body holds a reference, then the result */
			set_root(L, arg, arg, true, op->body);
			L->hint[arg->id] = 0;
			set_root(L, r, r, true, op->parent);
			continue;
		}
		if (!is_tensor(r))
			continue;
		loop_buffer(L, out, op, r, init,
			    !(L->ds->lower & LOWER_NO_INIT_COPY) &&
				    !init_unobserved(op, k),
			    "the loop buffer starts as a copy of its init");
		set_root(L, arg, L->root[r->id], L->whole[r->id], NULL);
	}
	in = inst_new(L, BI_FOR, op, NULL);
	in->body = lower_block(L, op->body);
	emit(L, out, in);
}

/* forall: each result lives in its init's buffer (in place) or in a copy
 * of it; the trips' parallel_insert_slices write into it.  A shared arg
 * reads the init: in place that is the result's buffer, which the other
 * trips write (the conflict a strategy must see); else the init's own.
 * MLIR's out-of-place forall makes the shared arg the copy: reads beyond
 * a trip's slice see the other trips' inserts (a race), and a write into
 * a view of it lands in the result (LOWER_SHARED_IS_RESULT). */
static void
lower_forall(Lower *L, const Op *op, BBlock *out)
{
	BInst *in = inst_new(L, BI_FORALL, op, NULL);

	in->nvals = op->nres;
	in->vals = arena_alloc(L->a, (size_t)(op->nres + 1) * sizeof *in->vals);
	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[2 + k].v;
		Value *arg = op->body->args[1 + k];
		if (loop_buffer(L, out, op, r, init, true, "the shared output "
				"starts as a copy of its init") ||
		    (L->ds->lower & LOWER_SHARED_IS_RESULT))
			in->vals[k] = r;
		else
			in->vals[k] = init ? init : r;
		set_root(L, arg, L->root[in->vals[k]->id],
			 L->whole[in->vals[k]->id], NULL);
	}
	in->body = lower_block(L, op->body);
	emit(L, out, in);
}

/* parallel_insert_slice: the slice of the forall's result buffer. */
static void
lower_pinsert(Lower *L, const Op *op, BBlock *out)
{
	const Block *b = op->parent;
	Value *r = NULL;
	BInst *in;

	for (int k = 1; k < b->nargs; k++)
		if (b->args[k] == op->dest.v)
			r = b->parent->res[k - 1];
	in = inst_new(L, BI_PINSERT, op, r);
	in->src = op->args[0].v;
	emit(L, out, in);
}

/* A while keeps each tensor iter arg in one loop buffer, like a for; both
 * regions see it through the shared block args. */
static void
lower_while(Lower *L, const Op *op, BBlock *out)
{
	BInst *in;

	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[k].v;
		if (!is_tensor(r))
			continue;
		loop_buffer(L, out, op, r, init,
			    !(L->ds->lower & LOWER_NO_INIT_COPY),
			    "the loop buffer starts as a copy of its init");
		set_root(L, op->body->args[k], L->root[r->id], L->whole[r->id],
			 NULL);
	}
	in = inst_new(L, BI_WHILE, op, NULL);
	in->body = lower_block(L, op->body);
	in->orelse = lower_block(L, op->orelse);
	emit(L, out, in);
}

/* A call passes its arguments' registers, or copies where the strategy
 * says the callee writes a param whose old value the caller still needs. */
static void
lower_call(Lower *L, const Op *op, BBlock *out)
{
	BInst *in = inst_new(L, BI_CALL, op, NULL);

	in->orelse = arena_alloc(L->a, sizeof(BBlock)); /* failure path */
	in->nvals = op->nargs;
	in->vals = arena_alloc(L->a, (size_t)(op->nargs + 1) * sizeof *in->vals);
	for (int i = 0; i < op->nargs; i++)
		in->vals[i] = op->args[i].v;
	for (int k = 0; k < L->ds->nargcopies; k++) {
		const ArgCopy *ac = &L->ds->argcopies[k];
		Value *a, *t;
		if (ac->call != op || !(a = op->args[ac->arg].v))
			continue;
		t = synth(L, a, "arg");
		emit_alloc(L, out, op, t, a, op->parent, ac->reason);
		emit_copy(L, out, op, t, a, "pass a copy: the callee writes it");
		L->hint[t->id] = op->index;
		in->vals[ac->arg] = t;
	}
	emit(L, out, in);
}

/*
 * A launch's results belong to the block that launches it, whatever block
 * awaits them (an await may sit in a loop or a branch, run many times or
 * never): one register `%f.k` per tensor result stands for that buffer,
 * every await result lies in it, and the block frees it after the last
 * use of any of them (completing the launch first if nobody awaited it).
 */
static void
lower_async(Lower *L, const Op *op, BBlock *out)
{
	const Type *ft = op->res[0]->type;
	BInst *in = inst_new(L, BI_LAUNCH, op, op->res[0]);
	Value **res = arena_alloc(L->a, (size_t)(ft->nelems + 1) * sizeof *res);

	in->vals = res;
	in->nvals = ft->nelems;
	if (L->handle[op->res[0]->id])
		set_root(L, op->res[0], op->res[0], true, op->parent);
	for (int k = 0; k < ft->nelems && L->awaits[op->res[0]->id] &&
			!L->handle[op->res[0]->id]; k++) {
		Value like = *op->res[0];
		char suffix[16];
		if (ft->elems[k]->kind != TY_TENSOR)
			continue;
		like.type = ft->elems[k];
		fmt_snprintf(suffix, sizeof suffix, "%d", k);
		res[k] = synth(L, &like, suffix);
		set_root(L, res[k], res[k], true, op->parent);
		L->hint[res[k]->id] = op->index; /* made at the launch */
	}
	L->futres[op->res[0]->id] = res;
	in->body = lower_block(L, op->body);
	emit(L, out, in);
}

static void
lower_await(Lower *L, const Op *op, BBlock *out)
{
	BInst *in = inst_new(L, BI_AWAIT, op, NULL);
	const Value *f = op->args[0].v;
	Value **res = L->futres[f->id];

	in->vals = res;
	in->nvals = res ? op->nres : 0; /* (a carried future has no `%f.k`) */
	emit(L, out, in);
	for (int k = 0; k < op->nres; k++)
		if (is_tensor(op->res[k]) && L->handle[f->id])
			/* in the launch's result buffers, which the future's
			 * holders own: kept alive through it, never passed on */
			set_root(L, op->res[k], L->root[f->id], false, NULL);
		else if (is_tensor(op->res[k]) && res && res[k])
			set_root(L, op->res[k], res[k], true, NULL);
}

/* `anchor`: the empty is a view of the slice its insert_slice replaces;
 * nothing is written until an op computes into it. */
static void
lower_anchored(Lower *L, const Op *op, const PlanAnchor *a, BBlock *out)
{
	const Op *ins = a->r->def;
	BInst *in = inst_new(L, BI_VIEW, ins, op->res[0]);

	in->src = ins->dest.v;
	in->why = "anchored: the slice its insert_slice overwrites";
	emit(L, out, in);
	set_root(L, op->res[0], L->root[ins->dest.v->id], false, NULL);
}

/* `hoist`: before the outermost loop of each hoisted value, its buffer. */
static void
lower_hoists(Lower *L, const Op *loop, BBlock *out)
{
	for (int i = 0; i < L->ds->nhoists; i++) {
		Value *v = L->ds->hoists[i].v, *h;
		if (op_outer_loop(v->def) != loop)
			continue;
		h = synth(L, v, "hoist");
		emit_alloc(L, out, loop, h, NULL, loop->parent,
			   "hoisted out of the loop (forced by the plan)");
		L->hint[h->id] = loop->index;
		L->hoisted[v->id] = h;
	}
}

/* select: the result is the register picked (sharing: it borrows the
 * buffer, whose owner keeps it while the result is used), or a copy of
 * it in a buffer of its own. */
static void
lower_select(Lower *L, const Op *op, BBlock *out)
{
	Value *r = op->res[0], *s = r;
	BInst *in;

	if (is_tensor(r) && !(L->ds->eshare && L->ds->eshare[r->id] & 1))
		s = synth(L, r, "pick");
	in = inst_new(L, BI_SELECT, op, s);
	in->nvals = 3;
	in->vals = arena_alloc(L->a, 3 * sizeof *in->vals);
	for (int k = 0; k < 3; k++)
		in->vals[k] = op->args[k].v;
	emit(L, out, in);
	if (!is_tensor(r))
		return;
	if (s == r) {
		in->borrow = true;
		set_root(L, r, r, true, op->parent);
		L->lend[r->id][0] = op->args[1].v;
		L->lend[r->id][1] = op->args[2].v;
		L->borrowing[r->id] = true;
		return;
	}
	emit_alloc(L, out, op, r, op->args[1].v, op->parent,
		   why_str(L, "%%%s is a copy of the value select picks (r:copy)",
			   r->name, ""));
	emit_copy(L, out, op, r, s, "the value select picks");
}

/* generate: a fresh buffer (its `?` sizes are the op's operands), which
 * the body's runs fill one element each; what the body writes in place
 * stays written for the next element. */
static void
lower_generate(Lower *L, const Op *op, BBlock *out)
{
	Value *r = op->res[0];
	BInst *in;

	fresh(L, out, op, r, NULL);
	in = inst_new(L, BI_GENERATE, op, r);
	in->body = lower_block(L, op->body);
	emit(L, out, in);
}

static void
lower_op(Lower *L, const Op *op, BBlock *out)
{
	const PlanAnchor *a;
	BInst *in;

	if ((op->kind == OP_FOR || op->kind == OP_FORALL ||
	     op->kind == OP_GENERATE) && L->ds->nhoists)
		lower_hoists(L, op, out);
	if (op_info[op->kind].form == F_EMPTY &&
	    (a = plan_anchor(L->ds, op->res[0]))) {
		lower_anchored(L, op, a, out);
		return;
	}

	switch (op_info[op->kind].form) {
	case F_IF:
		in = inst_new(L, BI_IF, op, NULL);
		in->body = lower_block(L, op->body);
		in->orelse = op->orelse ? lower_block(L, op->orelse)
					: arena_alloc(L->a, sizeof(BBlock));
		emit(L, out, in);
		break;
	case F_FOR:
		lower_for(L, op, out);
		return;
	case F_FORALL:
		lower_forall(L, op, out);
		return;
	case F_PARALLEL_INSERT:
		lower_pinsert(L, op, out);
		return;
	case F_WHILE:
		lower_while(L, op, out);
		return;
	case F_ASSERT:
		in = inst_new(L, BI_ASSERT, op, NULL);
		in->body = arena_alloc(L->a, sizeof(BBlock));
		emit(L, out, in);
		return;
	case F_ASYNC:
		lower_async(L, op, out);
		return;
	case F_SELECT:
		lower_select(L, op, out);
		return;
	case F_GENERATE:
		lower_generate(L, op, out);
		return;
	case F_AWAIT:
		lower_await(L, op, out);
		return;
	case F_CALL:
		lower_call(L, op, out);
		break;
	case F_CONST:
		emit(L, out, inst_new(L, BI_CONST, op, op->res[0]));
		if (is_tensor(op->res[0]))
			set_root(L, op->res[0], op->res[0], true, NULL);
		return;
	case F_EXTRACT_SLICE:
	case F_RESHAPE:
		if (L->ds->d[op->res[0]->id].kind == DEC_VIEW) {
			Value *src = op->args[0].v;
			in = inst_new(L, BI_VIEW, op, op->res[0]);
			in->src = src;
			emit(L, out, in);
			set_root(L, op->res[0], L->root[src->id], false, NULL);
			return;
		}
		lower_compute(L, op, out);
		return;
	default:
		lower_compute(L, op, out);
		return;
	}
	/* if, await, call: each tensor result owns the buffer it receives */
	for (int k = 0; k < op->nres; k++)
		if (is_tensor(op->res[k]))
			set_root(L, op->res[k], op->res[k], true, op->parent);
}

/* ---- the terminator: what leaves the block, copied where it must be */

static bool
plan_frees_root(Lower *L, const Value *root)
{
	for (int i = 0; i < L->ds->nfrees; i++) {
		Value *v = L->ds->frees[i].v;
		if (L->root[v->id] == root)
			return true;
	}
	return false;
}

/* An allocation an op of a body with branches made (not a block argument,
 * which may hold a borrowed buffer): the function owns it wherever it
 * goes. */
static bool
cfg_made_root(Lower *L, const Value *r)
{
	const Block *o = L->owner[r->id];

	(void)L;
	return o && block_in_cfg(o) && !(r->owner && !r->owner->parent);
}

/* Does t pass root r out already, before value k? */
static bool
passed_before(Lower *L, const BInst *t, int k, const Value *r)
{
	for (int j = 0; j < k; j++)
		if (t->vals[j] && is_tensor(t->vals[j]) &&
		    L->root[t->vals[j]->id] == r)
			return true;
	return false;
}

/* Yield/return out of an if, async region or function: only whole buffers
 * this block owns pass out; the rest is copied first.  What a launch yields
 * that nobody awaits goes nowhere: the region frees it itself. */
static void
lower_escape(Lower *L, const Block *blk, const Op *term, BInst *t,
	     BBlock *out)
{
	const Op *parent = blk->parent;

	if (parent && parent->kind == OP_ASYNC && !L->awaits[parent->res[0]->id] &&
	    !L->handle[parent->res[0]->id]) {
		for (int k = 0; k < term->nargs; k++)
			t->vals[k] = term->args[k].v;
		return;
	}
	/* (a return of a body with branches; the regions inside its blocks
	 * pass out what they own as any region does) */
	bool cfgret = L->cfg && block_in_cfg(blk);

	for (int k = 0; k < term->nargs; k++) {
		Value *y = term->args[k].v, *r, *s;
		t->vals[k] = y;
		if (!is_tensor(y))
			continue;
		r = L->root[y->id];
		if (cfgret && r && L->whole[y->id] && cfg_made_root(L, r) &&
		    !L->borrowing[r->id] &&
		    !passed_before(L, t, k, r) && !plan_frees_root(L, r))
			continue; /* the return passes it out (cfg_frees) */
		if (!cfgret && r && L->whole[y->id] && L->owner[r->id] == blk &&
		    !L->moved[r->id] && !plan_frees_root(L, r) &&
		    !L->borrowing[r->id]) {
			L->moved[r->id] = true;
			continue;
		}
		if (parent && parent->kind == OP_IF && L->ds->eshare &&
		    L->ds->eshare[parent->res[k]->id] & 1) {
			/* the result shares it: borrowed, kept alive by its
			 * owner while the result is used */
			Value *res = parent->res[k];
			BInst *al;
			s = synth(L, y, "lend");
			al = inst_new(L, BI_ALIAS, term, s);
			al->src = y;
			al->borrow = true;
			al->why = why_str(L, "%%%s shares the buffer of %%%s (yields: "
					  "share)", res->name, y->name);
			emit(L, out, al);
			L->lend[res->id][blk == parent->orelse] = y;
			L->borrowing[res->id] = true;
			t->vals[k] = s;
			continue;
		}
		s = synth(L, y, "out");
		emit_alloc(L, out, term, s, y, NULL,
			   why_str(L, "%%%s leaves its region but is not a "
				   "buffer the region owns%s", y->name, ""));
		emit_copy(L, out, term, s, y, "pass out a buffer of its own");
		t->vals[k] = s;
	}
}

/* The roots whose buffer v may be in: its root, or for a select or if
 * result sharing (borrowing) a buffer, those of what it may pick. */
static int
buffer_roots(const Lower *L, const Value *v, const Value **out, int n, int cap)
{
	const Value *r = L->root[v->id];

	if (!r || n >= cap)
		return n;
	out[n++] = r;
	for (int k = 0; k < 2 && !(L->ds->lower & LOWER_NO_LEND); k++)
		if (L->lend[r->id][k] && L->lend[r->id][k] != v)
			n = buffer_roots(L, L->lend[r->id][k], out, n, cap);
	return n;
}

/* May a and b be in one buffer? */
static bool
may_share(const Lower *L, const Value *a, const Value *b)
{
	const Value *ra[32], *rb[32];
	int na = buffer_roots(L, a, ra, 0, 32), nb = buffer_roots(L, b, rb, 0, 32);

	if (na == 32 || nb == 32)
		return true; /* too many to tell */
	for (int i = 0; i < na; i++)
		for (int k = 0; k < nb; k++)
			if (ra[i] == rb[k])
				return true;
	return false;
}

/* Yield of a loop body: each value lands in its loop buffer. */
static void
lower_loop_yield(Lower *L, const Op *loop, const Op *term, BInst *t,
		 BBlock *out)
{
	Value *src[64];
	int n = term->nargs < 64 ? term->nargs : 64;

	/* values that live in another loop buffer are saved first, so the
	 * copies below cannot clobber each other (a swap of iter args) */
	for (int k = 0; k < n; k++) {
		Value *y = term->args[k].v;
		src[k] = y;
		if (!is_tensor(y))
			continue;
		for (int j = 0; j < loop->nres; j++) {
			if (j == k || !is_tensor(loop->res[j]) ||
			    !may_share(L, y, loop->res[j]))
				continue;
			src[k] = synth(L, y, "tmp");
			emit_alloc(L, out, term, src[k], y, term->parent,
				   "iter args swap buffers");
			emit_copy(L, out, term, src[k], y,
				  "save a value another iter arg overwrites");
			break;
		}
	}
	for (int k = 0; k < n; k++) {
		Value *y = src[k], *r = loop->res[k];
		t->vals[k] = y;
		if (L->handle[r->id]) {
			/* the next trip (or the result) holds it too */
			BInst *al;
			t->vals[k] = synth(L, y, "ref");
			al = inst_new(L, BI_ALIAS, term, t->vals[k]);
			al->src = y;
			al->retain = true;
			emit(L, out, al);
			continue;
		}
		if (!is_tensor(y))
			continue;
		if (L->root[y->id] == L->root[r->id] && L->whole[y->id] &&
		    L->whole[r->id])
			continue;
		emit_copy(L, out, term, r, y, "the yield lands in the loop "
			  "buffer")->settle = L->settle;
		t->vals[k] = r;
	}
}

static BInst *
lower_terminator(Lower *L, const Block *blk, const Op *term, BBlock *out)
{
	BInst *t = inst_new(L, term->kind == OP_RETURN ? BI_RETURN : BI_YIELD,
			    term, NULL);

	t->nvals = term->nargs;
	t->vals = arena_alloc(L->a, (size_t)(t->nvals + 1) * sizeof *t->vals);
	if (term->kind == OP_CONDITION)
		t->vals[0] = term->args[0].v; /* the scalar: no buffer */
	else if (blk->parent && (blk->parent->kind == OP_FOR ||
				 blk->parent->kind == OP_WHILE))
		lower_loop_yield(L, blk->parent, term, t, out);
	else
		lower_escape(L, blk, term, t, out);
	return t;
}

/* ---- frees: after the last use of any alias of each owned allocation */

/* The op of `blk` that holds `op` (op itself when it is in blk). */
static int
index_in(const Block *blk, const Op *op)
{
	while (op && op->parent != blk)
		op = op->parent ? op->parent->parent : NULL;
	return op ? op->index : -1;
}

static int last_await(Lower *L, const Block *blk, const Value *f);

/* Until when, in blk's op indices, op may still run: its index, or for an
 * op inside a launch of blk, until that launch's last await (the block's
 * end when nobody awaits it). */
static int
runs_until(Lower *L, const Block *blk, const Op *op)
{
	int at = index_in(blk, op);
	const Op *holder = at >= 0 ? blk->ops[at] : NULL;

	if (holder && op->kind == OP_AWAIT && op_conditional(blk, op))
		return blk->nops - 1; /* may not run: drained at the end */
	if (holder && holder != op && holder->kind == OP_ASYNC) {
		int w = last_await(L, blk, holder->res[0]);
		return w > at ? w : blk->nops - 1;
	}
	return at;
}

/* Index in blk of the last op that awaits the future `f`; -1 if none. */
static int
last_await(Lower *L, const Block *blk, const Value *f)
{
	int last = -1;

	for (AwaitRef *a = L->awaits[f->id]; a; a = a->next) {
		int at = runs_until(L, blk, a->op);
		if (at > last)
			last = at;
	}
	return last;
}

/* last[root] = the latest use seen in the block being placed; every root
 * touched is remembered so the array is reset in time proportional to the
 * block, not to the program. */
static void
use_at(Lower *L, const Value *v, int at)
{
	const Value *r;

	if (!is_buf(L, v) || !(r = L->root[v->id]))
		return;
	if ((L->ds->lower & LOWER_TEXTUAL_FREES) && r != v)
		return; /* the mutant forgets aliases */
	if (L->last[r->id] < 0)
		VEC_PUSH(L->a, L->touched, L->ntouched, L->captouched, r->id);
	if (at > L->last[r->id])
		L->last[r->id] = at;
	for (int k = 0; k < 2 && !(L->ds->lower & LOWER_NO_LEND); k++)
		if (L->lend[r->id][k] && L->lend[r->id][k] != v)
			use_at(L, L->lend[r->id][k], at); /* keeps the lender */
}

typedef struct UseAt {
	Lower *L;
	int at;
} UseAt;

static WalkAct
use_op_at(Op *op, void *ctx)
{
	UseAt *u = ctx;

	for (int i = 0; i < op->nargs; i++)
		use_at(u->L, op->args[i].v, u->at);
	if (op->hasdest)
		use_at(u->L, op->dest.v, u->at);
	return WALK_GO;
}

/* The uses of op and of every op inside it count as uses at `at`. */
static void
uses_of_op(Lower *L, Op *op, int at)
{
	walk_op(op, use_op_at, &(UseAt){L, at});
}

/* L->last[root] = index in blk of the last use of any alias (nops - 1 for
 * the terminator), -1 when unused. */
static void
last_uses(Lower *L, const Block *blk)
{
	for (int i = 0; i < blk->nops; i++) {
		Op *op = blk->ops[i];
		int at = i;
		if (op->kind == OP_ASYNC && !(L->ds->lower & LOWER_TEXTUAL_FREES)) {
			int w = last_await(L, blk, op->res[0]);
			Value **res = L->futres[op->res[0]->id];
			at = w > i ? w : blk->nops - 1;
			/* a result nobody reads lives until the await that
			 * binds it: freed at the launch, its drain there would
			 * end the launch at once (a race window closed) */
			for (int k = 0; res && w > i &&
			     k < op->res[0]->type->nelems; k++)
				if (res[k])
					use_at(L, res[k], w);
		}
		uses_of_op(L, op, at);
	}
}

static BInst *
emit_free(Lower *L, BBlock *b, const Op *op, Value *v, const char *why)
{
	BInst *in = inst_new(L, BI_FREE, op, v);

	in->why = why;
	in->ifowned = (v->owner && !v->owner->parent) || L->borrowing[v->id];
	in->settle = L->settle && is_tensor(v);
	emit(L, b, in);
	return in;
}

/* Is op inside a launch of blk whose future is carried (it completes
 * at its last release: maybe after blk's end)? */
static bool
in_carried_launch(Lower *L, const Block *blk, const Op *op)
{
	for (const Op *o = op; o->parent && o->parent != blk &&
	     o->parent->parent; o = o->parent->parent) {
		const Op *A = o->parent->parent;
		if (A->kind == OP_ASYNC && L->handle[A->res[0]->id])
			return true;
	}
	return false;
}

/* Is future f awaited in blk on every path (an await not in a branch or
 * a loop body, nor in a launch that is carried on: that one may still be
 * pending at blk's end, and with it f)? */
static bool
surely_awaited(Lower *L, const Block *blk, const Value *f)
{
	for (AwaitRef *a = L->awaits[f->id]; a; a = a->next)
		if (index_in(blk, a->op) >= 0 && !op_conditional(blk, a->op) &&
		    !in_carried_launch(L, blk, a->op))
			return true;
	return false;
}

/* Is op a launch of blk that the block's end drains: not awaited on
 * every path?  (A carried launch completes at its last release, or when
 * a buffer it uses is freed.) */
static bool
drained(Lower *L, const Block *blk, const Op *op)
{
	return op->kind == OP_ASYNC && !surely_awaited(L, blk, op->res[0]) &&
	       !L->handle[op->res[0]->id];
}

/* The launch of blk whose result buffer `%f.k` v is, or NULL. */
static const Op *
result_launch(Lower *L, const Block *blk, const Value *v)
{
	int h = L->owner[v->id] == blk ? L->hint[v->id] : -1; /* made there */
	const Op *op = h >= 0 && h < blk->nops ? blk->ops[h] : NULL;
	Value **res;

	if (!op || op->kind != OP_ASYNC || !(res = L->futres[op->res[0]->id]))
		return NULL;
	for (int k = 0; k < op->res[0]->type->nelems; k++)
		if (res[k] == v)
			return op;
	return NULL;
}

/* Is f awaited by blk itself (not in a branch, a loop or a launch) by
 * its op `at`? */
static bool
host_awaited(Lower *L, const Block *blk, const Value *f, const Op *at)
{
	for (AwaitRef *a = L->awaits[f->id]; a; a = a->next)
		if (a->op->parent == blk && a->op->index <= at->index)
			return true;
	return false;
}

/* A free of `%f.k` does not complete its launch (the launch would then
 * write its result into a freed buffer), so the lowering frees it only
 * once the launch is done: after the block's drain when the block drains
 * it (the free goes there), else after a drain of its own when blk has
 * not awaited it itself by then (another launch's body does, or a later
 * await). */
static bool
drained_result(Lower *L, const Block *blk, const Value *v)
{
	const Op *op = result_launch(L, blk, v);

	return op && drained(L, blk, op);
}

static void
emit_result_drain(Lower *L, const Block *blk, BBlock *out, const Op *at,
		  const Value *v)
{
	const Op *op = result_launch(L, blk, v);
	BInst *in;

	if (!op || drained(L, blk, op) || host_awaited(L, blk, op->res[0], at))
		return;
	in = inst_new(L, BI_DRAIN, at, NULL);
	in->vals = arena_alloc(L->a, 2 * sizeof *in->vals);
	in->vals[in->nvals++] = op->res[0];
	emit(L, out, in);
}

/* Launches of this block that may not be awaited complete before the
 * block's frees: what they use is freed only after they ran. */
static void
emit_drain(Lower *L, const Block *blk, BBlock *out)
{
	BInst *in = NULL;

	for (int i = 0; i < blk->nops; i++) {
		const Op *op = blk->ops[i];
		if (!drained(L, blk, op))
			continue;
		if (!in) {
			in = inst_new(L, BI_DRAIN, blk->ops[blk->nops - 1], NULL);
			in->vals = arena_alloc(L->a, (size_t)(blk->nops + 1) *
					       sizeof *in->vals);
		}
		in->vals[in->nvals++] = op->res[0];
	}
	if (in)
		emit(L, out, in);
}

/* The allocations blk owns and frees: roots made by its ops, and the
 * synthetic ones made while lowering it (from `mark` on the stack). */
static int
owned_roots(Lower *L, const Block *blk, int mark, Value **out)
{
	int n = 0;

	for (int i = 0; i < blk->nargs; i++) /* a carried future's trip */
		if (L->owner[blk->args[i]->id] == blk &&
		    L->root[blk->args[i]->id] == blk->args[i])
			out[n++] = blk->args[i];
	for (int i = 0; i < blk->nops; i++)
		for (int k = 0; k < blk->ops[i]->nres; k++) {
			Value *v = blk->ops[i]->res[k];
			if (L->root[v->id] == v && L->owner[v->id] == blk)
				out[n++] = v;
		}
	for (int i = mark; i < L->nsynth; i++)
		if (L->owner[L->synths[i]->id] == blk)
			out[n++] = L->synths[i];
	return n;
}

/* The failure blocks of the asserts and calls in b (a call's: orelse), not
 * inside launches: an assert there is refused by the verifier. */
typedef struct FailBlocks {
	BBlock **out;
	int n, cap;
} FailBlocks;

static WalkAct
fail_block(BInst *in, void *ctx)
{
	FailBlocks *f = ctx;

	if (f->n >= f->cap)
		return WALK_STOP;
	if (in->kind == BI_ASSERT || in->kind == BI_CALL) {
		f->out[f->n++] = in->kind == BI_ASSERT ? in->body : in->orelse;
		return WALK_SKIP;
	}
	return in->kind == BI_LAUNCH ? WALK_SKIP : WALK_GO;
}

static int
fail_blocks(const BBlock *b, BBlock **out, int cap)
{
	FailBlocks f = {out, 0, cap};

	walk_bblock(b, fail_block, &f);
	return f.n;
}

/* The failure path through op i of blk: its launches so far complete,
 * then what blk owns and has made but not freed yet is freed (at[k]: the
 * op after which root k is freed, -1 when blk never frees it). */
static void
fail_frees(Lower *L, const Block *blk, int i, const BBlock *chunk,
	   Value **roots, const int *at, int nroots)
{
	BBlock *fb[64];
	int nfb = 0;

	nfb = fail_blocks(chunk, fb, 64);
	for (int j = 0; j < nfb; j++) {
		BInst *dr = NULL;
		for (int o = 0; o < i && !(L->ds->lower & LOWER_FAIL_NO_DRAIN); o++) {
			if (blk->ops[o]->kind != OP_ASYNC)
				continue;
			if (!dr) {
				dr = inst_new(L, BI_DRAIN, blk->ops[i], NULL);
				dr->vals = arena_alloc(L->a, (size_t)(i + 1) *
						       sizeof *dr->vals);
				emit(L, fb[j], dr);
			}
			dr->vals[dr->nvals++] = blk->ops[o]->res[0];
		}
		for (int k = 0; k < nroots && !(L->ds->lower & LOWER_FAIL_NO_FREES); k++) {
			Value *v = roots[k];
			int made = v->def ? index_in(blk, v->def)
				   : L->owner[v->id] == blk ? L->hint[v->id] : -1;
			/* in a body with branches, a root made elsewhere (or
			 * a block argument) is there from the block's start */
			if ((made < 0 && !(L->cfg && block_in_cfg(blk))) || made > i ||
			    (at[k] >= 0 && at[k] < i))
				continue;
			if (made == i && v->def && ((v->def->kind != OP_FOR &&
			    v->def->kind != OP_WHILE) || L->handle[v->id]))
				continue; /* made when op i completes: not yet
					   * (a future's trip holds it) */
			if (at[k] < 0 && !L->moved[v->id])
				continue; /* the plan frees it */
			emit_free(L, fb[j], blk->ops[i], v, "on the failure path");
		}
	}
}

/* Assemble the ops' chunks with the frees that follow each op; frees of
 * buffers last used by the terminator's copies go between those copies
 * and the terminator itself. */
typedef struct Given {
	Value **roots;     /* the roots to free in the block, then nkeep that
			    * stay live after it (freed on failure paths) */
	int n, nkeep;
} Given;

static void
place_frees(Lower *L, const Block *blk, BBlock *chunks, BInst *t, BBlock *out,
	    int mark, const Given *g)
{
	int n = blk->nops, nroots = L->nsynth - mark + blk->nargs + 1;
	Value **roots;

	for (int i = 0; i < n; i++)
		nroots += blk->ops[i]->nres;
	if (g)
		nroots = g->n + g->nkeep + 1;
	roots = arena_alloc(L->a, (size_t)nroots * sizeof *roots);
	int *first, *next, *fat;

	if (g) {
		nroots = g->n + g->nkeep;
		memcpy(roots, g->roots, (size_t)nroots * sizeof *roots);
	} else {
		nroots = owned_roots(L, blk, mark, roots);
	}
	first = arena_alloc(L->a, (size_t)(n + 1) * sizeof *first);
	next = arena_alloc(L->a, (size_t)(nroots + 1) * sizeof *next);
	fat = arena_alloc(L->a, (size_t)(nroots + 1) * sizeof *fat);
	for (int i = 0; i < n; i++)
		first[i] = -1;
	last_uses(L, blk);
	/* bucket the frees by the op they follow (roots in reverse, so each
	 * bucket lists them in program order) */
	for (int k = nroots - 1; k >= 0; k--) {
		Value *v = roots[k];
		/* (a hint is an index in the block that made it) */
		int hint = L->owner[v->id] == blk ? L->hint[v->id] : -1;
		int last = L->last[v->id] > hint ? L->last[v->id] : hint;
		/* unused: free where it was made (synthetic ones are made
		 * and used by the terminator's copies) */
		int at = last >= 0 ? last : v->def ? index_in(blk, v->def) : n - 1;
		if (drained_result(L, blk, v))
			at = n - 1;
		fat[k] = -1;
		if (g && k >= g->n) {
			fat[k] = INT_MAX; /* live after the block */
			continue;
		}
		if (L->moved[v->id] || plan_frees_root(L, v) || at < 0)
			continue;
		fat[k] = at;
		next[k] = first[at];
		first[at] = k;
	}
	for (int i = 0; i < n - 1; i++)
		fail_frees(L, blk, i, &chunks[i], roots, fat, nroots);
	for (int i = 0; i < n; i++) {
		const Op *op = blk->ops[i];
		/* launches that may still run complete before the terminator's
		 * copies (a loop yield overwrites the loop buffer they read)
		 * and before the frees */
		if (i == n - 1)
			emit_drain(L, blk, out);
		for (int j = 0; j < chunks[i].n; j++)
			emit(L, out, chunks[i].insts[j]);
		for (int k = first[i]; k >= 0; k = next[k]) {
			emit_result_drain(L, blk, out, op, roots[k]);
			emit_free(L, out, op, roots[k],
				  L->last[roots[k]->id] >= 0 || !roots[k]->def
				  ? "after its last use" : "never used");
		}
		for (int f = 0; f < L->ds->nfrees; f++)
			if (L->ds->frees[f].after->parent == blk &&
			    L->ds->frees[f].after->index == i)
				emit_free(L, out, op, L->ds->frees[f].v,
					  "forced by the plan")->settle = false;
	}
	emit(L, out, t);
	for (int k = 0; k < L->ntouched; k++)
		L->last[L->touched[k]] = -1;
	L->ntouched = 0;
}

/* Not walk_block: each region becomes a BBlock of its own, lowered
 * between what its op emits before and after it. */
static BBlock *
lower_block(Lower *L, const Block *blk)
{
	BBlock *out = arena_alloc(L->a, sizeof *out);
	BBlock *chunks = arena_alloc(L->a, (size_t)blk->nops * sizeof *chunks);
	int n = blk->nops, mark = L->nsynth;
	BInst *t;

	for (int i = 0; i < n - 1; i++)
		lower_op(L, blk->ops[i], &chunks[i]);
	t = lower_terminator(L, blk, blk->ops[n - 1], &chunks[n - 1]);
	place_frees(L, blk, chunks, t, out, mark, NULL);
	L->nsynth = mark;
	return out;
}

/* ---- a body with branches (docs/strategies.md, "Blocks and branches")
 *
 * Each block is lowered as above; what crosses blocks follows liveness
 * over the branches.  Roots are the allocations the body's ops make and
 * the block arguments (each owns the buffer it holds: a copy made on the
 * edge, or one taken over from a value that dies there; one borrowed
 * from a param or a constant is marked so, and freed only if owned).  A
 * root is freed in a block after its last use there when it is not live
 * after the block, else on each edge into a block where it is dead. */

typedef struct Cfg {
	const Func *f;
	int nb, words;
	uint64_t *in, *out, *use, *def, *brk; /* per block: bitsets of roots */
	BBlock **chunks;    /* per block: its ops' chunks */
	BInst **term;       /* per block: its terminator's instruction */
	BBlock **bb;        /* per block: what it becomes */
	int *mark, *markend; /* per block: its synthetic roots */
} Cfg;

static uint64_t *
cset(Cfg *C, uint64_t *base, int b)
{
	return base + (size_t)b * (size_t)C->words;
}

static bool
cbit(const uint64_t *set, int id)
{
	return set[id >> 6] >> (id & 63) & 1;
}

static void
cput(uint64_t *set, int id)
{
	set[id >> 6] |= (uint64_t)1 << (id & 63);
}

/* A root this body owns: made by its ops or a block argument. */
static bool
cfg_root(Lower *L, const Value *r)
{
	const Block *o = L->owner[r->id];

	return o && block_in_cfg(o) && o->func == L->cfg->f &&
	       L->root[r->id] == r;
}

typedef struct CfgUse {
	Lower *L;
	uint64_t *use;
	const uint64_t *def;
} CfgUse;

static void
cfg_note(CfgUse *u, const Value *v)
{
	const Value *r;

	if (!v || !is_buf(u->L, v) || !(r = u->L->root[v->id]))
		return;
	for (int k = 0; k < 2 && !(u->L->ds->lower & LOWER_NO_LEND); k++)
		if (u->L->lend[r->id][k] && u->L->lend[r->id][k] != v)
			cfg_note(u, u->L->lend[r->id][k]);
	if (!cfg_root(u->L, r) || cbit(u->def, r->id))
		return;
	cput(u->use, r->id);
}

static WalkAct
cfg_use_op(Op *op, void *ctx)
{
	CfgUse *u = ctx;

	for (int i = 0; i < op->nargs; i++)
		cfg_note(u, op->args[i].v);
	if (op->hasdest)
		cfg_note(u, op->dest.v);
	return WALK_GO;
}

/* v is passed by a branch: its root, and the lenders of a select or if
 * result sharing their buffers, live until the edge's copies. */
static void
cfg_passed(Lower *L, uint64_t *brk, const Value *v)
{
	const Value *r = is_buf(L, v) ? L->root[v->id] : NULL;

	if (!r)
		return;
	if (cfg_root(L, r))
		cput(brk, r->id);
	for (int k = 0; k < 2 && !(L->ds->lower & LOWER_NO_LEND); k++)
		if (L->lend[r->id][k] && L->lend[r->id][k] != v)
			cfg_passed(L, brk, L->lend[r->id][k]);
}

/* use/def/brk of every block, then liveness to a fixed point. */
static void
cfg_live(Lower *L, Cfg *C)
{
	const Func *f = C->f;
	bool changed = true;

	for (int b = 0; b < C->nb; b++) {
		const Block *blk = f->blocks[b];
		uint64_t *def = cset(C, C->def, b), *brk = cset(C, C->brk, b);
		const Op *t = blk->ops[blk->nops - 1];
		CfgUse u = {L, cset(C, C->use, b), def};

		for (int i = 0; i < blk->nargs; i++)
			if (is_buf(L, blk->args[i]))
				cput(def, blk->args[i]->id);
		for (int i = 0; i < blk->nops; i++)
			for (int k = 0; k < blk->ops[i]->nres; k++) {
				Value *v = blk->ops[i]->res[k];
				if (is_buf(L, v) && cfg_root(L, v))
					cput(def, v->id);
			}
		for (int i = C->mark[b]; i < C->markend[b]; i++)
			if (cfg_root(L, L->synths[i]))
				cput(def, L->synths[i]->id);
		walk_block(blk, cfg_use_op, &u);
		if (t->kind == OP_BR || t->kind == OP_COND_BR)
			for (int k = 0; k < t->nsucc; k++)
				for (int i = 0; i < t->nsarg[k]; i++)
					cfg_passed(L, brk, succ_args(t, k)[i].v);
	}
	while (changed) {
		changed = false;
		for (int b = C->nb - 1; b >= 0; b--) {
			const Op *t = f->blocks[b]->ops[f->blocks[b]->nops - 1];
			uint64_t *in = cset(C, C->in, b), *out = cset(C, C->out, b);
			uint64_t *use = cset(C, C->use, b), *def = cset(C, C->def, b);
			for (int k = 0; (t->kind == OP_BR || t->kind == OP_COND_BR) &&
					k < t->nsucc; k++) {
				const uint64_t *sin = cset(C, C->in, t->succ[k]->bindex);
				for (int w = 0; w < C->words; w++)
					out[w] |= sin[w];
			}
			for (int w = 0; w < C->words; w++) {
				uint64_t x = use[w] | (out[w] & ~def[w]);
				if (x != in[w]) {
					in[w] = x;
					changed = true;
				}
			}
		}
	}
}

/* Is edge k of branch t (into block S) share for S's argument i?  The
 * strategy's or the plan's word, by S's predecessor index. */
static bool
edge_share(Lower *L, const Op *t, int k, int i)
{
	const Block *S = t->succ[k];
	int p = pred_index(S, t, k);

	return L->ds->eshare && p >= 0 && p < 64 &&
	       (L->ds->eshare[S->args[i]->id] >> p & 1);
}

/* Edge k of the branch ending block b: the values passed land in the
 * target's arguments (a copy, or the same buffer), the roots that die on
 * the edge are freed, then the arguments are bound. */
static BBlock *
cfg_edge(Lower *L, Cfg *C, const Block *blk, const Op *t, int k)
{
	const Block *S = t->succ[k];
	BBlock *e = arena_alloc(L->a, sizeof *e);
	const uint64_t *sin = cset(C, C->in, S->bindex);
	const uint64_t *def = cset(C, C->def, blk->bindex);
	const uint64_t *in = cset(C, C->in, blk->bindex);
	const uint64_t *out = cset(C, C->out, blk->bindex);
	const uint64_t *brk = cset(C, C->brk, blk->bindex);
	Value **tmp = arena_alloc(L->a, (size_t)(S->nargs + 1) * sizeof *tmp);
	const Value **moved = arena_alloc(L->a, (size_t)(S->nargs + 1) *
					  sizeof *moved);
	const Operand *a = succ_args(t, k);
	int nmoved = 0;
	char why[256];

	for (int i = 0; i < S->nargs; i++) {
		Value *x = a[i].v, *arg = S->args[i], *r;
		BInst *in_;
		bool dup = false;

		tmp[i] = synth(L, arg, k ? "in1" : "in");
		if (!is_tensor(arg)) {
			in_ = inst_new(L, BI_ALIAS, t, tmp[i]);
			in_->src = x;
			in_->retain = L->handle[arg->id]; /* one more holder */
			emit(L, e, in_);
			continue;
		}
		L->root[tmp[i]->id] = arg;
		L->whole[tmp[i]->id] = true;
		r = L->root[x->id];
		for (int j = 0; j < nmoved; j++)
			dup |= moved[j] == r;
		if (edge_share(L, t, k, i) && r && !cfg_root(L, r)) {
			in_ = inst_new(L, BI_ALIAS, t, tmp[i]);
			in_->src = x;
			in_->borrow = true;
			in_->why = why_str(L, "%%%s shares the buffer of %%%s "
					   "(borrowed: not the body's to free)",
					   arg->name, x->name);
			emit(L, e, in_);
			continue;
		}
		if (edge_share(L, t, k, i) && r && L->whole[x->id] &&
		    !cbit(sin, r->id) && !dup && !plan_frees_root(L, r) &&
		    !L->borrowing[r->id]) {
			in_ = inst_new(L, BI_ALIAS, t, tmp[i]);
			in_->src = x;
			in_->why = why_str(L, "%%%s takes over the buffer of "
					   "%%%s", arg->name, x->name);
			emit(L, e, in_);
			moved[nmoved++] = r;
			continue;
		}
		if (edge_share(L, t, k, i))
			fmt_snprintf(why, sizeof why, "%%%s cannot share the "
				     "buffer of %%%s: %s", arg->name, x->name,
				     !L->whole[x->id] ? "it is a view"
				     : dup ? "another argument takes it"
				     : r && L->borrowing[r->id]
				     ? "it may hold a buffer it does not own"
				     : "it is still used after the edge");
		else
			fmt_snprintf(why, sizeof why, "%%%s gets a copy of %%%s "
				     "on the edge ^%s <- %s%s", arg->name,
				     x->name, S->label, blk->label ? "^" : "",
				     blk->label ? blk->label : "the entry");
		emit_alloc(L, e, t, tmp[i], x, NULL, arena_strdup(L->a, why));
		L->root[tmp[i]->id] = arg;
		emit_copy(L, e, t, tmp[i], x, "the value passed to a block "
			  "argument");
	}
	/* what dies on this edge */
	for (int w = 0; w < C->words; w++) {
		uint64_t live = (def[w] | in[w]) & (out[w] | brk[w]) & ~sin[w];
		for (; live; live &= live - 1) {
			int id = w * 64 + __builtin_ctzll(live);
			Value *r = L->bp->regs[id];
			bool was_moved = false;
			for (int j = 0; j < nmoved; j++)
				was_moved |= moved[j] == r;
			if (was_moved || plan_frees_root(L, r))
				continue;
			fmt_snprintf(why, sizeof why, "dead after the edge ^%s "
				     "<- %s%s", S->label, blk->label ? "^" : "",
				     blk->label ? blk->label : "the entry");
			emit_free(L, e, t, r, arena_strdup(L->a, why));
		}
	}
	for (int i = 0; i < S->nargs; i++) {
		BInst *in_ = inst_new(L, BI_ALIAS, t, S->args[i]);
		in_->src = tmp[i];
		emit(L, e, in_);
	}
	return e;
}

/* The roots freed in block b (not live after it, not passed by its
 * branch), then those that stay live after it. */
static void
cfg_given(Lower *L, Cfg *C, const Block *blk, Given *g)
{
	const uint64_t *def = cset(C, C->def, blk->bindex);
	const uint64_t *in = cset(C, C->in, blk->bindex);
	const uint64_t *out = cset(C, C->out, blk->bindex);
	const uint64_t *brk = cset(C, C->brk, blk->bindex);
	const BInst *t = C->term[blk->bindex];
	int cap = 8;

	int cnt = 0;

	g->roots = arena_alloc(L->a, (size_t)cap * sizeof *g->roots);
	for (int pass = 0; pass < 2; pass++) {
		for (int w = 0; w < C->words; w++) {
			uint64_t x = def[w] | in[w];
			for (; x; x &= x - 1) {
				Value *r = L->bp->regs[w * 64 + __builtin_ctzll(x)];
				bool keep = cbit(out, r->id) || cbit(brk, r->id);
				/* the return passes it out: freed only on the
				 * failure paths, like what stays live */
				for (int k = 0; t->kind == BI_RETURN && k < t->nvals; k++)
					keep |= t->vals[k] && is_tensor(t->vals[k]) &&
						L->root[t->vals[k]->id] == r &&
						t->vals[k]->id < L->p->nvalues;
				if (keep == (pass == 1))
					VEC_PUSH(L->a, g->roots, cnt, cap, r);
			}
		}
		if (!pass)
			g->n = cnt;
	}
	g->nkeep = cnt - g->n;
}

static void
lower_cfg(Lower *L, const Func *f, BFunc *bf)
{
	Cfg C = {0};
	int n = f->nblocks, mark = L->nsynth;
	size_t words;

	C.f = f;
	C.nb = n;
	C.words = (L->capregs + 63) / 64;
	words = (size_t)n * (size_t)C.words;
	C.in = arena_alloc(L->a, words * 8);
	C.out = arena_alloc(L->a, words * 8);
	C.use = arena_alloc(L->a, words * 8);
	C.def = arena_alloc(L->a, words * 8);
	C.brk = arena_alloc(L->a, words * 8);
	C.chunks = arena_alloc(L->a, (size_t)n * sizeof *C.chunks);
	C.term = arena_alloc(L->a, (size_t)n * sizeof *C.term);
	C.bb = arena_alloc(L->a, (size_t)n * sizeof *C.bb);
	C.mark = arena_alloc(L->a, (size_t)n * sizeof *C.mark);
	C.markend = arena_alloc(L->a, (size_t)n * sizeof *C.markend);
	L->cfg = &C;
	for (int b = 0; b < n; b++) {
		Block *blk = f->blocks[b];
		C.bb[b] = arena_alloc(L->a, sizeof(BBlock));
		C.bb[b]->blk = blk;
		for (int i = 0; i < blk->nargs; i++)
			if (is_buf(L, blk->args[i]))
				set_root(L, blk->args[i], blk->args[i], true, blk);
	}
	/* the ops of every block first: liveness needs every root */
	for (int b = 0; b < n; b++) {
		const Block *blk = f->blocks[b];
		const Op *t = blk->ops[blk->nops - 1];
		C.chunks[b] = arena_alloc(L->a, (size_t)blk->nops *
					  sizeof(BBlock));
		C.mark[b] = L->nsynth;
		for (int i = 0; i < blk->nops - 1; i++)
			lower_op(L, blk->ops[i], &C.chunks[b][i]);
		if (t->kind == OP_RETURN) {
			C.term[b] = lower_terminator(L, blk, t,
						     &C.chunks[b][blk->nops - 1]);
		} else {
			C.term[b] = inst_new(L, BI_BR, t, NULL);
			if (t->kind == OP_COND_BR)
				C.term[b]->src = t->args[0].v;
		}
		C.markend[b] = L->nsynth;
	}
	cfg_live(L, &C);
	for (int b = 0; b < n; b++) {
		const Block *blk = f->blocks[b];
		BInst *t = C.term[b];
		Given g;
		cfg_given(L, &C, blk, &g);
		place_frees(L, blk, C.chunks[b], t, C.bb[b], C.mark[b], &g);
		if (t->kind != BI_BR)
			continue;
		for (int k = 0; k < t->op->nsucc; k++) {
			BBlock *e = cfg_edge(L, &C, blk, t->op, k);
			t->to[k] = C.bb[t->op->succ[k]->bindex];
			if (k)
				t->orelse = e;
			else
				t->body = e;
		}
	}
	L->nsynth = mark;
	L->cfg = NULL;
	bf->body = C.bb[0];
	bf->blocks = C.bb;
	bf->nblocks = n;
}

static WalkAct
find_await(Op *op, void *ctx)
{
	Lower *L = ctx;

	if (op->kind == OP_AWAIT) {
		AwaitRef *a = arena_alloc(L->a, sizeof *a);
		a->op = op;
		a->next = L->awaits[op->args[0].v->id];
		L->awaits[op->args[0].v->id] = a;
	}
	return WALK_GO;
}

static bool
func_carries(const Lower *L, const Func *f)
{
	for (int i = 0; i < L->p->nvalues; i++)
		if (L->handle[i] && L->p->values[i]->func == f &&
		    L->p->values[i]->def && L->p->values[i]->def->kind == OP_ASYNC)
			return true;
	return false;
}

static WalkAct
count_terminator_args(Op *op, void *ctx)
{
	if (op->kind == OP_YIELD || op->kind == OP_RETURN ||
	    op->kind == OP_BR || op->kind == OP_COND_BR || op->kind == OP_SELECT)
		*(int *)ctx += op->nargs;
	return WALK_GO;
}

static void
lower_failed(Diag *d, int rc)
{
	Loc none = {0, 0};

	diag_set(d, none, "%s", rc == 1 ? "out of memory"
			     : "internal error: register table full");
}

BProg *
bufferize_lower(const Program *p, const Decisions *ds, Diag *d)
{
	Lower L = {0};
	volatile int extra = 0; /* changed after the setjmp */
	int nterm = 0;
	int rc;
	BProg *bp;

	L.a = arena_new();
	if (!L.a) {
		diag_set(d, (Loc){0, 0}, "out of memory");
		return NULL;
	}
	if ((rc = setjmp(L.fail)) != 0) {
		arena_free(L.a);
		lower_failed(d, rc);
		return NULL;
	}
	L.a->oom = &L.fail;
	L.p = p;
	L.ds = ds;
	L.d = d;
	walk_prog(p, count_terminator_args, &nterm);
	extra = nterm;
	for (int i = 0; i < p->nvalues; i++)
		if (p->values[i]->type->kind == TY_FUTURE)
			extra += p->values[i]->type->nelems;
	L.capregs = p->nvalues + 2 * extra + ds->nargcopies + ds->nhoists + 1;
	bp = L.bp = arena_alloc(L.a, sizeof *bp);
	bp->arena = L.a;
	bp->p = p;
	bp->regs = arena_alloc(L.a, (size_t)L.capregs * sizeof *bp->regs);
	bp->dec = ds->d;
	for (int i = 0; i < p->nvalues; i++)
		bp->regs[i] = p->values[i];
	bp->nregs = p->nvalues;
	L.root = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.root);
	L.whole = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.whole);
	L.owner = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.owner);
	L.moved = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.moved);
	L.hint = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.hint);
	L.last = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.last);
	for (int i = 0; i < L.capregs; i++)
		L.hint[i] = L.last[i] = -1;
	L.hoisted = arena_alloc(L.a, (size_t)(p->nvalues + 1) * sizeof *L.hoisted);
	L.lend = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.lend);
	L.borrowing = arena_alloc(L.a, (size_t)L.capregs * sizeof *L.borrowing);
	L.awaits = arena_alloc(L.a, (size_t)(p->nvalues + 1) * sizeof *L.awaits);
	L.futres = arena_alloc(L.a, (size_t)(p->nvalues + 1) * sizeof *L.futres);
	walk_prog(p, find_await, &L);
	{
		Carried c;
		carried_find(p, L.a, &c);
		L.handle = c.carried;
	}
	bp->nfuncs = p->nfuncs;
	bp->funcs = arena_alloc(L.a, (size_t)(p->nfuncs + 1) * sizeof *bp->funcs);
	for (int i = 0; i < p->nfuncs; i++) {
		const Func *f = p->funcs[i];
		for (int j = 0; j < f->nparams; j++)
			set_root(&L, f->params[j], f->params[j], true, NULL);
		bp->funcs[i].f = f;
		L.settle = func_carries(&L, f);
		if (f->nblocks > 1)
			lower_cfg(&L, f, &bp->funcs[i]);
		else
			bp->funcs[i].body = lower_block(&L, f->body);
	}
	L.a->oom = NULL;
	return bp;
}

void
bprog_free(BProg *bp)
{
	if (bp)
		arena_free(bp->arena);
}
