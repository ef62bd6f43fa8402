/* plan.c: decisions and frees forced by a case's run, checked for legality. */
#include "bufferize.h"

static int
plan_one(Decisions *ds, const PlanItem *it, Diag *d)
{
	Decision *dec = &ds->d[it->res->id];
	Value *cand[16];
	const Op *op = it->res->def;
	int n;

	if (!op || it->res->type->kind != TY_TENSOR ||
	    (dec->kind == DEC_NONE && op_info[op->kind].form != F_CONST))
		return diag_set(d, it->loc, "plan: %%%s has no buffer of its own "
				"to place", it->res->name);
	if (!it->into) {
		if (op_info[op->kind].form == F_CONST)
			return diag_set(d, it->loc, "plan: %%%s is a constant",
					it->res->name);
		*dec = (Decision){DEC_NEW, NULL, "forced by the plan", true};
		return 0;
	}
	n = inplace_candidates(op, it->res->resno, cand, 16);
	for (int i = 0; i < n; i++)
		if (cand[i] == it->into) {
			*dec = (Decision){DEC_INPLACE, it->into, NULL, true};
			return 0;
		}
	for (int i = 0; i < op->nargs; i++)
		if (op->args[i].v == it->into && it->into->type->kind == TY_TENSOR &&
		    !type_equal(it->into->type, it->res->type)) {
			char a[64], b[64];
			return diag_set(d, it->loc, "plan: %%%s cannot live in the "
					"buffer of %%%s: %s is not %s",
					it->res->name, it->into->name,
					type_str(it->into->type, a, sizeof a),
					type_str(it->res->type, b, sizeof b));
		}
	return diag_set(d, it->loc, "plan: %s cannot write into %%%s: not an "
			"operand whose buffer it may use", op_info[op->kind].name,
			it->into->name);
}

int
plan_apply(Decisions *ds, const PlanItem *items, int n, const PlanFree *frees,
	   int nfrees, Diag *d)
{
	for (int i = 0; i < n; i++)
		if (plan_one(ds, &items[i], d) < 0)
			return -1;
	for (int i = 0; i < nfrees; i++) {
		const PlanFree *f = &frees[i];
		if (f->v->type->kind != TY_TENSOR)
			return diag_set(d, f->loc, "free: %%%s is not a tensor",
					f->v->name);
		if (ds->d[f->v->id].kind == DEC_VIEW)
			return diag_set(d, f->loc, "free: %%%s is a view, not an "
					"allocation", f->v->name);
	}
	if (nfrees) {
		ds->frees = mem_alloc((size_t)nfrees * sizeof *frees);
		if (!ds->frees)
			return diag_set(d, (Loc){0, 0}, "out of memory");
		memcpy(ds->frees, frees, (size_t)nfrees * sizeof *frees);
		ds->nfrees = nfrees;
	}
	return 0;
}
