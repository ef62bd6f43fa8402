/*
 * walk.c: the one region walker, over tensor programs and buffer
 * programs, and the use lists (QBE's filluse) computed once after parsing.
 *
 * Which regions a form has is said here and nowhere else: an analysis
 * that visits every op of a region calls walk_block with a callback, and
 * the next form with regions (or blocks and branches) is added in
 * op_regions and binst_regions.  Walkers that need their own order (the
 * interpreters, the printers, the verifier's scopes, one-shot's
 * decisions, the lowering) read the regions themselves.
 */
#include "ir.h"

int
op_regions(const Op *op, Block *out[MAXREGIONS])
{
	int n = 0;

	switch (op_info[op->kind].form) {
	case F_IF:              /* then, else (absent: no else) */
	case F_WHILE:           /* the condition region, then the do region */
	case F_FOR:             /* the body (args: iv, iter args) */
	case F_FORALL:          /* the body (args: iv, shared args) */
	case F_GENERATE:        /* the body (args: one index per dim) */
	case F_ASYNC:           /* the launched region */
	default:                /* ops built outside the parser (memref.c)
				 * keep what they were given */
		if (op->body)
			out[n++] = op->body;
		if (op->orelse)
			out[n++] = op->orelse;
		return n;
	}
}

static WalkAct walk_one(Op *op, WalkFn pre, WalkFn post, void *ctx);

static WalkAct
walk_in(const Block *b, WalkFn pre, WalkFn post, void *ctx)
{
	for (int i = 0; b && i < b->nops; i++)
		if (walk_one(b->ops[i], pre, post, ctx) == WALK_STOP)
			return WALK_STOP;
	return WALK_GO;
}

static WalkAct
walk_inside(const Op *op, WalkFn pre, WalkFn post, void *ctx)
{
	Block *r[MAXREGIONS];
	int n = op_regions(op, r);

	for (int k = 0; k < n; k++)
		if (walk_in(r[k], pre, post, ctx) == WALK_STOP)
			return WALK_STOP;
	return WALK_GO;
}

static WalkAct
walk_one(Op *op, WalkFn pre, WalkFn post, void *ctx)
{
	WalkAct a = pre ? pre(op, ctx) : WALK_GO;

	if (a == WALK_STOP)
		return WALK_STOP;
	if (a == WALK_GO && walk_inside(op, pre, post, ctx) == WALK_STOP)
		return WALK_STOP;
	return post && post(op, ctx) == WALK_STOP ? WALK_STOP : WALK_GO;
}

bool
walk_block(const Block *b, WalkFn fn, void *ctx)
{
	return walk_in(b, fn, NULL, ctx) == WALK_STOP;
}

bool
walk_block_post(const Block *b, WalkFn pre, WalkFn post, void *ctx)
{
	return walk_in(b, pre, post, ctx) == WALK_STOP;
}

bool
walk_op(Op *op, WalkFn fn, void *ctx)
{
	return walk_one(op, fn, NULL, ctx) == WALK_STOP;
}

bool
walk_regions(const Op *op, WalkFn fn, void *ctx)
{
	return walk_inside(op, fn, NULL, ctx) == WALK_STOP;
}

bool
walk_func(const Func *f, WalkFn fn, void *ctx)
{
	if (!f->blocks) /* built or read without the block list */
		return walk_block(f->body, fn, ctx);
	for (int b = 0; b < f->nblocks; b++)
		if (walk_block(f->blocks[b], fn, ctx))
			return true;
	return false;
}

/* walk_prog through the regions (before number_ops lists the ops) */
static void
walk_prog_tree(const Program *p, WalkFn fn, void *ctx)
{
	for (int i = 0; i < p->nfuncs; i++)
		walk_func(p->funcs[i], fn, ctx);
}

bool
walk_prog(const Program *p, WalkFn fn, void *ctx)
{
	if (p->ops) { /* numbered: the same order, flat (WALK_SKIP: past
		       * the op's regions, which hold seq + 1 .. last) */
		for (int i = 0; i < p->nops;) {
			Op *op = p->ops[i];
			WalkAct a = fn(op, ctx);
			if (a == WALK_STOP)
				return true;
			i = a == WALK_SKIP ? op->last + 1 : i + 1;
		}
		return false;
	}
	for (int i = 0; i < p->nfuncs; i++)
		if (walk_func(p->funcs[i], fn, ctx))
			return true;
	return false;
}

/* ---- buffer programs */

int
binst_regions(const BInst *in, BBlock *out[MAXREGIONS])
{
	int n = 0;

	/* if: then, else; for, forall, launch: the body; while: the
	 * condition block, then do; assert: the failure path (body); call:
	 * the failure path (orelse) */
	if (in->body)
		out[n++] = in->body;
	if (in->orelse)
		out[n++] = in->orelse;
	return n;
}

static WalkAct
bwalk_in(const BBlock *b, BWalkFn fn, void *ctx)
{
	for (int i = 0; b && i < b->n; i++) {
		BInst *in = b->insts[i];
		BBlock *r[MAXREGIONS];
		WalkAct a = fn(in, ctx);
		int n;

		if (a == WALK_STOP)
			return WALK_STOP;
		if (a == WALK_SKIP)
			continue;
		n = binst_regions(in, r);
		for (int k = 0; k < n; k++)
			if (bwalk_in(r[k], fn, ctx) == WALK_STOP)
				return WALK_STOP;
	}
	return WALK_GO;
}

bool
walk_bblock(const BBlock *b, BWalkFn fn, void *ctx)
{
	return bwalk_in(b, fn, ctx) == WALK_STOP;
}

/* ---- numbering */

static WalkAct
number_op(Op *op, void *ctx)
{
	Program *p = ctx;

	op->seq = p->nops++;
	p->kinds |= 1ull << op->kind;
	return WALK_GO;
}

static WalkAct
list_op(Op *op, void *ctx)
{
	((Program *)ctx)->ops[op->seq] = op;
	return WALK_GO;
}

static WalkAct
number_last(Op *op, void *ctx)
{
	op->last = ((Program *)ctx)->nops - 1;
	return WALK_GO;
}

_Static_assert(OP_COUNT <= 64, "Program.kinds has a bit per op kind");

void
number_ops(Program *p)
{
	p->nops = 0;
	p->kinds = 0;
	p->ops = NULL;
	for (int i = 0; i < p->nfuncs; i++) {
		const Func *f = p->funcs[i];
		for (int b = 0; b < (f->blocks ? f->nblocks : 1); b++)
			walk_block_post(f->blocks ? f->blocks[b] : f->body,
					number_op, number_last, p);
	}
	/* (out of memory: the arena's oom, as for the program itself) */
	p->ops = arena_alloc(p->arena, (size_t)(p->nops + 1) * sizeof *p->ops);
	if (p->ops)
		walk_prog_tree(p, list_op, p);
}

/* ---- use lists */

typedef struct UseFill {
	Program *p;
	int *n;          /* per value: uses counted, then filled */
	bool fill;
} UseFill;

static void
use_note(UseFill *u, Op *op, Value *v)
{
	if (!v)
		return;
	if (!u->fill) {
		u->n[v->id]++;
		return;
	}
	if (v->nuses && v->uses[v->nuses - 1] == op)
		return; /* an op using v twice is one use */
	v->uses[v->nuses++] = op;
}

static WalkAct
use_op(Op *op, void *ctx)
{
	UseFill *u = ctx;

	for (int i = 0; i < op->nargs; i++)
		use_note(u, op, op->args[i].v);
	for (int i = 0; i < op->noffs; i++)
		use_note(u, op, op->offs[i].v);
	if (op->hasdest)
		use_note(u, op, op->dest.v);
	return WALK_GO;
}

void
fill_uses(Program *p)
{
	UseFill u = {p, NULL, false};
	size_t total = 0;
	Op **pool;

	u.n = arena_alloc(p->arena, (size_t)(p->nvalues + 1) * sizeof *u.n);
	walk_prog(p, use_op, &u);
	for (int i = 0; i < p->nvalues; i++)
		total += (size_t)u.n[i];
	/* every value's uses in one block: no rounding per value */
	pool = arena_alloc(p->arena, (total + 1) * sizeof *pool);
	for (int i = 0; i < p->nvalues; i++) {
		Value *v = p->values[i];
		v->uses = u.n[i] ? pool : NULL;
		v->nuses = 0;
		pool += u.n[i];
	}
	u.fill = true;
	walk_prog(p, use_op, &u);
}

bool
used_inside(const Value *v, const Op *op)
{
	for (int i = 0; i < v->nuses; i++)
		if (v->uses[i]->seq > op->seq && v->uses[i]->seq <= op->last)
			return true;
	return false;
}
