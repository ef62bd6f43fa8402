/* plan.c: decisions and frees forced by a case's run, checked for legality. */
#include <stdio.h>

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
		*dec = (Decision){.kind = DEC_NEW,
				  .reason = "forced by the plan", .forced = true};
		return 0;
	}
	if (op_info[op->kind].form == F_RESHAPE && op->args[0].v == it->into) {
		/* `r: a`: the reshape is a view of its source's buffer */
		*dec = (Decision){.kind = DEC_VIEW, .forced = true};
		return 0;
	}
	n = inplace_candidates(op, it->res->resno, cand, 16);
	for (int i = 0; i < n; i++)
		if (cand[i] == it->into) {
			*dec = (Decision){.kind = DEC_INPLACE,
					  .into = it->into, .forced = true};
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

static int
check_frees(const Decisions *ds, const Plan *pl, Diag *d)
{
	for (int i = 0; i < pl->nfrees; i++) {
		const PlanFree *f = &pl->frees[i];
		if (f->v->type->kind != TY_TENSOR)
			return diag_set(d, f->loc, "free: %%%s is not a tensor",
					f->v->name);
		if (ds->d[f->v->id].kind == DEC_VIEW)
			return diag_set(d, f->loc, "free: %%%s is a view, not an "
					"allocation", f->v->name);
	}
	return 0;
}

/* A hoisted value needs a fresh buffer of a static shape (every hoist
 * in ds: the plan's and those of the answer it is applied over). */
static int
check_hoists(const Decisions *ds, Diag *d)
{
	for (int i = 0; i < ds->nhoists; i++) {
		const PlanHoist *h = &ds->hoists[i];
		const Decision *dec = &ds->d[h->v->id];
		if (dec->kind == DEC_VIEW)
			return diag_set(d, h->loc, "hoist: %%%s is a view, not "
					"an allocation", h->v->name);
		if (dec->kind == DEC_INPLACE)
			return diag_set(d, h->loc, "hoist: %%%s lives in the "
					"buffer of %%%s, not one of its own",
					h->v->name, dec->into->name);
		if (dec->kind != DEC_NEW)
			return diag_set(d, h->loc, "hoist: %%%s has no buffer "
					"of its own", h->v->name);
	}
	return 0;
}

/* Drop the strategy's copy of argument `arg` of `call`. */
static void
argcopy_drop(Decisions *ds, const Op *call, int arg)
{
	int n = 0;

	for (int i = 0; i < ds->nargcopies; i++)
		if (ds->argcopies[i].call != call || ds->argcopies[i].arg != arg)
			ds->argcopies[n++] = ds->argcopies[i];
	ds->nargcopies = n;
}

/* `args`: the words replace the strategy's argument copies. */
static int
apply_args(Decisions *ds, const Plan *pl, Diag *d)
{
	for (int i = 0; i < pl->nargs; i++) {
		const PlanArgs *pa = &pl->args[i];
		const Op *call = pa->r->def;
		int t = 0;
		for (int k = 0; k < call->nargs; k++) {
			const Value *a = call->args[k].v;
			if (!a || a->type->kind != TY_TENSOR)
				continue;
			argcopy_drop(ds, call, k);
			if (((pa->copy >> t++) & 1) &&
			    decisions_argcopy(ds, call, k, "forced by the plan "
					      "(args: copy)"))
				return diag_set(d, pa->loc, "out of memory");
		}
	}
	return 0;
}

/* The value an item of a plan list is about: PlanFree, PlanAnchor,
 * PlanHoist and PlanArgs all start with it (a pointer to a struct is a
 * pointer to its first member). */
static const Value *
item_key(const void *item)
{
	return *(Value *const *)item;
}

/* *list (n items of size sz) with add's items merged in: an item of add
 * replaces the one about the same value, the others stay.  A run's keys
 * apply over its strategy's answer (an outside tool's frees, hoists,
 * anchors, args), never in place of the whole of it. */
static int
merge(void *list, int *n, const void *add, int nadd, size_t sz)
{
	const char *old = *(char **)list, *in = add;
	char *p;
	int m = 0;

	if (!nadd)
		return 0;
	if (!(p = mem_alloc((size_t)(*n + nadd) * sz)))
		return -1;
	for (int i = 0; i < *n; i++) {
		bool replaced = false;
		for (int j = 0; j < nadd && !replaced; j++)
			replaced = item_key(old + (size_t)i * sz) ==
				   item_key(in + (size_t)j * sz);
		if (!replaced)
			memcpy(p + (size_t)m++ * sz, old + (size_t)i * sz, sz);
	}
	memcpy(p + (size_t)m * sz, add, (size_t)nadd * sz);
	mem_free(*(char **)list);
	*(char **)list = p;
	*n = m + nadd;
	return 0;
}

int
plan_apply(Decisions *ds, const Plan *pl, Diag *d)
{
	for (int i = 0; i < pl->nitems; i++)
		if (plan_one(ds, &pl->items[i], d) < 0)
			return -1;
	for (int i = 0; i < pl->nanchors; i++) /* no buffer of its own */
		ds->d[pl->anchors[i].e->id] = (Decision){
			.kind = DEC_VIEW, .forced = true, .reason =
			"anchored in the destination of an insert_slice"};
	if (check_frees(ds, pl, d))
		return -1;
	if (merge(&ds->frees, &ds->nfrees, pl->frees, pl->nfrees,
		  sizeof *pl->frees) ||
	    merge(&ds->anchors, &ds->nanchors, pl->anchors, pl->nanchors,
		  sizeof *pl->anchors) ||
	    merge(&ds->hoists, &ds->nhoists, pl->hoists, pl->nhoists,
		  sizeof *pl->hoists) ||
	    merge(&ds->args, &ds->nargs, pl->args, pl->nargs, sizeof *pl->args))
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if (check_hoists(ds, d))
		return -1;
	for (int i = 0; i < pl->nedges && ds->eshare; i++)
		ds->eshare[pl->edges[i].a->id] = pl->edges[i].share;
	return apply_args(ds, pl, d);
}

const PlanAnchor *
plan_anchor(const Decisions *ds, const Value *e)
{
	for (int i = 0; i < ds->nanchors; i++)
		if (ds->anchors[i].e == e)
			return &ds->anchors[i];
	return NULL;
}

bool
plan_hoisted(const Decisions *ds, const Value *v)
{
	for (int i = 0; i < ds->nhoists; i++)
		if (ds->hoists[i].v == v)
			return true;
	return false;
}

const char *
plan_extra_str(const Decisions *ds, int n, char *buf, size_t len)
{
	if (n < ds->nanchors) {
		fmt_snprintf(buf, len, "anchor %s:%s", ds->anchors[n].e->name,
			 ds->anchors[n].r->name);
		return buf;
	}
	if ((n -= ds->nanchors) < ds->nhoists) {
		fmt_snprintf(buf, len, "hoist %s", ds->hoists[n].v->name);
		return buf;
	}
	if ((n -= ds->nhoists) < ds->nargs)
		return call_args_str(ds, ds->args[n].r, false, buf, len);
	return NULL;
}

const Op *
op_outer_loop(const Op *op)
{
	const Op *loop = NULL;

	for (const Op *o = op->parent ? op->parent->parent : NULL; o;
	     o = o->parent ? o->parent->parent : NULL) {
		if (o->kind == OP_ASYNC)
			break; /* a launch's region allocates for itself */
		if (o->kind == OP_FOR || o->kind == OP_FORALL ||
		    o->kind == OP_GENERATE) /* a body run per element */
			loop = o;
	}
	return loop;
}

/* ------------------------------------------------- lifetime choices */

int
plan_lifetimes(const Decisions *ds)
{
	return ds->nfrees + ds->nhoists + ds->nanchors;
}

const char *
plan_lifetime_kind(const Decisions *ds, int i)
{
	return i < ds->nfrees ? "free" : i < ds->nfrees + ds->nhoists ? "hoist"
	       : "anchor";
}

const char *
plan_lifetime_str(const Decisions *ds, int i, bool flipped, char *buf,
		  size_t n)
{
	if (i < ds->nfrees) {
		const PlanFree *f = &ds->frees[i];
		fmt_snprintf(buf, n, "%sfree %s:after %s", flipped ? "no " : "",
			     f->v->name, f->after->nres ? f->after->res[0]->name
			     : op_info[f->after->kind].name);
	} else if ((i -= ds->nfrees) < ds->nhoists) {
		fmt_snprintf(buf, n, "%shoist %s", flipped ? "no " : "",
			     ds->hoists[i].v->name);
	} else {
		const PlanAnchor *a = &ds->anchors[i - ds->nhoists];
		if (flipped)
			fmt_snprintf(buf, n, "%s:new", a->e->name);
		else
			fmt_snprintf(buf, n, "anchor %s:%s", a->e->name,
				     a->r->name);
	}
	return buf;
}

int
plan_lifetimes_keep(const Decisions *ds, const bool *keep, Decisions *t)
{
	int nf = 0, nh = 0, na = 0, i = 0;

	t->frees = mem_alloc((size_t)(ds->nfrees + 1) * sizeof *t->frees);
	t->hoists = mem_alloc((size_t)(ds->nhoists + 1) * sizeof *t->hoists);
	t->anchors = mem_alloc((size_t)(ds->nanchors + 1) * sizeof *t->anchors);
	if (!t->frees || !t->hoists || !t->anchors)
		return -1;
	for (int k = 0; k < ds->nfrees; k++, i++)
		if (keep[i])
			t->frees[nf++] = ds->frees[k];
	for (int k = 0; k < ds->nhoists; k++, i++)
		if (keep[i])
			t->hoists[nh++] = ds->hoists[k];
	for (int k = 0; k < ds->nanchors; k++, i++) {
		if (keep[i])
			t->anchors[na++] = ds->anchors[k];
		else /* the empty gets a buffer of its own */
			t->d[ds->anchors[k].e->id] = (Decision){
				.kind = DEC_NEW, .forced = true, .reason =
				"flipped by the culprit bisection"};
	}
	t->nfrees = nf;
	t->nhoists = nh;
	t->nanchors = na;
	return 0;
}
