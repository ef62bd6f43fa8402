/*
 * contig.c: which buffers are known to be contiguous, for the reshapes
 * one-shot makes views.  Conservative: a value whose buffer comes from a
 * region, a callee or a loop is not known; an in-place result is known
 * when every buffer it may be placed in is.
 */
#include "bufferize.h"

#define CONTIG_DEPTH 8

static bool
block_calls(const Block *b, const Func *f)
{
	for (int i = 0; i < b->nops; i++) {
		const Op *op = b->ops[i];
		if (op->kind == OP_CALL && op->fn == f)
			return true;
		if (op->body && block_calls(op->body, f))
			return true;
		if (op->orelse && block_calls(op->orelse, f))
			return true;
	}
	return false;
}

/* A param is a whole input unless a call may pass it a view. */
static bool
param_contiguous(const Program *p, const Value *v)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (block_calls(p->funcs[i]->body, v->func))
			return false;
	return true;
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
		return v->isparam && param_contiguous(p, v);
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
