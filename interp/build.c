/*
 * build.c: programs built in memory, op by op, then printed by print.c.
 * The generator and the importer spell TIR by hand today; this is what
 * they would build with instead.  The builder keeps what the parser
 * makes: dense value ids in definition order, each op's parent block and
 * index, each block's parent op and function; build_finish numbers the
 * ops and fills the use lists, as tir_parse does.
 */
#include "ir.h"

int
build_init(Builder *B)
{
	Arena *a = arena_new();

	memset(B, 0, sizeof *B);
	if (!a)
		return -1;
	B->p = arena_alloc(a, sizeof *B->p);
	if (!B->p) {
		arena_free(a);
		return -1;
	}
	B->p->arena = a;
	return 0;
}

Type *
build_type(Builder *B, TypeKind kind, DType dt, int rank,
	   const int64_t *dims)
{
	Type *t = arena_alloc(B->p->arena, sizeof *t);

	t->kind = kind;
	t->dt = dt;
	t->rank = rank;
	for (int i = 0; i < rank; i++)
		t->dims[i] = dims[i];
	return t;
}

Value *
build_value(Builder *B, const char *name, Type *t)
{
	Program *p = B->p;
	Value *v = arena_alloc(p->arena, sizeof *v);

	v->name = arena_strdup(p->arena, name);
	v->type = t;
	v->func = B->fn;
	v->id = p->nvalues;
	VEC_PUSH(p->arena, p->values, p->nvalues, B->vcap, v);
	return v;
}

Block *
build_block(Builder *B, Op *parent)
{
	Block *b = arena_alloc(B->p->arena, sizeof *b);

	b->parent = parent;
	b->func = B->fn;
	return b;
}

Func *
build_func(Builder *B, const char *name, Type **rtypes, int nrtypes)
{
	Program *p = B->p;
	Func *f = arena_alloc(p->arena, sizeof *f);

	f->name = arena_strdup(p->arena, name);
	f->rtypes = rtypes;
	f->nrtypes = nrtypes;
	B->fn = f;
	f->body = build_block(B, NULL);
	f->blocks = arena_alloc(B->p->arena, sizeof *f->blocks);
	f->blocks[0] = f->body;
	f->nblocks = 1;
	VEC_PUSH(p->arena, p->funcs, p->nfuncs, B->fcap, f);
	return f;
}

Value *
build_param(Builder *B, const char *name, Type *t)
{
	Func *f = B->fn;
	Value *v = build_value(B, name, t), **np;

	v->isparam = true;
	np = arena_alloc(B->p->arena, (size_t)(f->nparams + 1) * sizeof *np);
	if (f->nparams)
		memcpy(np, f->params, (size_t)f->nparams * sizeof *np);
	np[f->nparams++] = v;
	f->params = np;
	return v;
}

Value *
build_arg(Builder *B, Block *b, const char *name, Type *t)
{
	Value *v = build_value(B, name, t), **na;

	v->owner = b;
	na = arena_alloc(B->p->arena, (size_t)(b->nargs + 1) * sizeof *na);
	if (b->nargs)
		memcpy(na, b->args, (size_t)b->nargs * sizeof *na);
	na[b->nargs++] = v;
	b->args = na;
	return v;
}

Op *
build_op(Builder *B, Block *b, OpKind k, int nargs, const char *const *names,
	 Type *const *types, int nres)
{
	Arena *a = B->p->arena;
	Op *op = arena_alloc(a, sizeof *op);
	Op **ops;

	op->kind = k;
	op->parent = b;
	op->index = b->nops;
	op->nargs = nargs;
	op->args = arena_alloc(a, (size_t)(nargs + 1) * sizeof *op->args);
	op->nres = nres;
	op->res = arena_alloc(a, (size_t)(nres + 1) * sizeof *op->res);
	for (int i = 0; i < nres; i++) {
		op->res[i] = build_value(B, names[i], types[i]);
		op->res[i]->def = op;
		op->res[i]->resno = i;
	}
	ops = arena_alloc(a, (size_t)(b->nops + 1) * sizeof *ops);
	if (b->nops)
		memcpy(ops, b->ops, (size_t)b->nops * sizeof *ops);
	ops[b->nops++] = op;
	b->ops = ops;
	return op;
}

Program *
build_finish(Builder *B)
{
	cfg_fill(B->p);
	number_ops(B->p);
	fill_uses(B->p);
	return B->p;
}
