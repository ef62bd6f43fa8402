/*
 * carried.c: futures a loop or a branch passes on (FORMAT §1, "carried
 * futures").  A future is carried when it is a for's iter arg or result,
 * a block argument, or passed to one (a for's init, a for body's yield, a
 * branch's argument).  The futures that may hold the same launch form a
 * group (union-find over the values): an await of any of them may get
 * the results of any launch of its group.
 */
#include "bufferize.h"

static int
group_find(int *up, int x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

static void
group_join(Carried *c, const Value *a, const Value *b)
{
	int x, y;

	if (!a || !b || a->type->kind != TY_FUTURE)
		return;
	c->carried[a->id] = c->carried[b->id] = true;
	x = group_find(c->group, a->id);
	y = group_find(c->group, b->id);
	if (x != y)
		c->group[y] = x;
}

static WalkAct
join_op(Op *op, void *ctx)
{
	Carried *c = ctx;
	const Op *r = op->parent ? op->parent->parent : NULL;

	if (op->kind == OP_FOR)
		for (int k = 0; k < op->nres; k++) {
			group_join(c, op->res[k], op->body->args[1 + k]);
			group_join(c, op->res[k], op->args[3 + k].v);
		}
	if (op->kind == OP_YIELD && r && r->kind == OP_FOR)
		for (int k = 0; k < op->nargs; k++)
			group_join(c, r->res[k], op->args[k].v);
	if (op->kind == OP_BR || op->kind == OP_COND_BR)
		for (int k = 0; k < op->nsucc; k++)
			for (int i = 0; i < op->nsarg[k]; i++)
				group_join(c, op->succ[k]->args[i],
					   succ_args(op, k)[i].v);
	return WALK_GO;
}

static WalkAct
list_launch(Op *op, void *ctx)
{
	Carried *c = ctx;

	if (op->kind == OP_ASYNC) {
		int g = group_find(c->group, op->res[0]->id);
		c->nextl[op->res[0]->id] = c->firstl[g];
		c->firstl[g] = op->res[0]->id;
	}
	return WALK_GO;
}

void
carried_find(const Program *p, Arena *a, Carried *c)
{
	size_t n = (size_t)p->nvalues + 1;

	c->p = p;
	c->carried = arena_alloc(a, n * sizeof *c->carried);
	c->group = arena_alloc(a, n * sizeof *c->group);
	c->firstl = arena_alloc(a, n * sizeof *c->firstl);
	c->nextl = arena_alloc(a, n * sizeof *c->nextl);
	for (int i = 0; i < p->nvalues; i++) {
		c->group[i] = i;
		c->firstl[i] = c->nextl[i] = -1;
	}
	walk_prog(p, join_op, c);
	walk_prog(p, list_launch, c);
}

const Op *
carried_launch(const Carried *c, const Value *f, int *it)
{
	int v = *it < 0 ? c->firstl[group_find(c->group, f->id)]
		       : c->nextl[*it];

	*it = v;
	return v >= 0 ? c->p->values[v]->def : NULL;
}

bool
launch_carried(const Carried *c, const Op *launch)
{
	return c->carried[launch->res[0]->id];
}
