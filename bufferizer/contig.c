/*
 * contig.c: which buffers are known to be contiguous, for the reshapes
 * one-shot makes views.  Conservative: a value whose buffer comes from a
 * region, a callee or a loop is not known; an in-place result is known
 * when every buffer it may be placed in is, a param when every call
 * passes a known one (a copied argument is fresh, so that is safe too).
 */
#include "bufferize.h"

#define CONTIG_DEPTH 8

static bool contig(const Program *p, const Decisions *ds, const Value *v,
		   int depth);

/* Every call to v's function passes a contiguous buffer for v (its
 * param k). */
typedef struct CallsPass {
	const Program *p;
	const Decisions *ds;
	const Value *v;
	int k, depth;
} CallsPass;

static WalkAct
call_passes(Op *op, void *ctx)
{
	CallsPass *c = ctx;

	if (op->kind == OP_CALL && op->fn == c->v->func &&
	    (c->k >= op->nargs || !op->args[c->k].v ||
	     !contig(c->p, c->ds, op->args[c->k].v, c->depth + 1)))
		return WALK_STOP;
	return WALK_GO;
}

/* A param is a whole input, or whatever its callers pass (shared, or a
 * fresh copy). */
static bool
param_contiguous(const Program *p, const Decisions *ds, const Value *v,
		 int depth)
{
	int k = 0;

	while (k < v->func->nparams && v->func->params[k] != v)
		k++;
	return !walk_prog(p, call_passes,
			  &(CallsPass){p, ds, v, k, depth});
}

static bool
contig(const Program *p, const Decisions *ds, const Value *v, int depth)
{
	const Op *op = v->def;
	const Value *src;
	Value *cand[16];
	int n;

	if (depth > CONTIG_DEPTH || v->type->kind != TY_TENSOR)
		return false;
	if (!op)
		return v->isparam && param_contiguous(p, ds, v, depth);
	switch (op_info[op->kind].form) {
	case F_CONST:
		return true;
	case F_EXTRACT_SLICE:
		src = op->args[0].v;
		if (ds->d[v->id].kind != DEC_VIEW)
			return true;
		return type_is_static(src->type) &&
		       slice_contiguous(op->noffs, src->type->dims, op->sizes,
					op->strides) &&
		       contig(p, ds, src, depth + 1);
	case F_RESHAPE:
		return ds->d[v->id].kind != DEC_VIEW ||
		       contig(p, ds, op->args[0].v, depth + 1);
	case F_IF: case F_FOR: case F_CALL: case F_ASYNC: case F_AWAIT:
		return false;
	case F_SELECT: /* sharing, it is whichever it picks */
		return !(ds->eshare && ds->eshare[v->id] & 1) ||
		       (contig(p, ds, op->args[1].v, depth + 1) &&
			contig(p, ds, op->args[2].v, depth + 1));
	default:
		n = inplace_candidates(op, v->resno, cand, 16);
		for (int i = 0; i < n; i++)
			if (!contig(p, ds, cand[i], depth + 1))
				return false;
		return n < 16;
	}
}

bool
buf_contiguous(const Program *p, const Decisions *ds, const Value *v)
{
	return contig(p, ds, v, 0);
}
