/* ir.c: dtypes, types, the op table expanded, program lookups. */
#include "ir.h"

const char *const dtype_names[DT_COUNT] = {
	[DT_F32] = "f32", [DT_F64] = "f64", [DT_I1] = "i1",
	[DT_I32] = "i32", [DT_I64] = "i64", [DT_INDEX] = "index",
};

const OpInfo op_info[OP_COUNT] = {
#define OP(e, name, form, ew, write, rd)                                     \
	[OP_##e] = {name, form, OP_##ew, write, rd},
#include "ops.h"
#undef OP
};

const EwInfo ew_info[OP_COUNT] = {
#define OP(e, name, form, ew, write, rd)
#define EW(e, fn, form, rule, gen, slot, xf, iop, fop, pre19, extra, i1,    \
	   cmpi, cmpf, named, fun)                                           \
	[OP_##e] = {true, rule, gen, slot, xf, iop, fop, pre19, extra, i1,    \
		    cmpi, cmpf, named, fun},
#include "ops.h"
#undef EW
#undef OP
};

bool
ew_allows(OpKind k, DType dt)
{
	if (k < 0 || k >= OP_COUNT || !ew_info[k].ew)
		return false;
	switch (ew_info[k].rule) {
	case R_FLOAT:
		return dtype_is_float(dt);
	case R_INT:
		return !dtype_is_float(dt);
	default:
		return true;
	}
}

const char *
ew_mlir_op(OpKind k, DType dt, int version)
{
	const EwInfo *w;

	if (!ew_allows(k, dt))
		return NULL;
	w = &ew_info[k];
	/* i1 is unsigned in TIR (0 < 1): MLIR's signed ops read true as -1
	 * (maxsi(1, 0) is 0), so max, min and relu take the i1 logic ops
	 * (relu = max(x, 0): ori) */
	if (dt == DT_I1 && k == OP_RELU)
		return ew_info[OP_MAX].i1;
	if (dt == DT_I1 && w->i1 && w->xf == X_PLAIN)
		return w->i1;
	if (!dtype_is_float(dt))
		return w->iop;
	return version < 19 && w->pre19 ? w->pre19 : w->fop;
}

const char *
ew_mlir_pred(OpKind k, DType dt)
{
	static const char *const u[] = {"ult", "ule", "ugt", "uge"};
	const char *p;

	if (k < 0 || k >= OP_COUNT || ew_info[k].xf != X_CMP)
		return NULL;
	p = dtype_is_float(dt) ? ew_info[k].cmpf : ew_info[k].cmpi;
	for (size_t i = 0; dt == DT_I1 && p && p[0] == 's' &&
	     i < sizeof u / sizeof *u; i++)
		if (!strcmp(u[i] + 1, p + 1))
			return u[i];
	return p;
}

static bool
same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

OpKind
ew_of_mlir(const char *name, unsigned how, bool *i1)
{
	if (i1)
		*i1 = false;
	for (int k = 0; k < OP_COUNT; k++) {
		const EwInfo *w = &ew_info[k];

		if (!w->ew || w->xf == X_CMP || w->xf == X_RELU)
			continue;
		if ((w->xf == X_PLAIN && same(w->iop, name)) ||
		    same(w->fop, name) || same(w->pre19, name) ||
		    ((how & EWM_EXTRA) && same(w->extra, name)))
			return (OpKind)k;
	}
	for (int k = 0; (how & EWM_I1) && k < OP_COUNT; k++)
		if (ew_info[k].ew && same(ew_info[k].i1, name)) {
			if (i1)
				*i1 = true;
			return (OpKind)k;
		}
	return OP_NONE;
}

OpKind
ew_of_pred(const char *pred, size_t len, bool isfloat)
{
	for (int k = 0; k < OP_COUNT; k++) {
		const char *p = isfloat ? ew_info[k].cmpf : ew_info[k].cmpi;

		if (ew_info[k].xf == X_CMP && p && strlen(p) == len &&
		    !memcmp(p, pred, len))
			return (OpKind)k;
	}
	return OP_NONE;
}

OpKind
ew_of_linalg(const char *name, size_t len, bool fun)
{
	for (int k = 0; k < OP_COUNT; k++) {
		const char *p = fun ? ew_info[k].fun : ew_info[k].named;

		if (p && strlen(p) == len && !memcmp(p, name, len))
			return (OpKind)k;
	}
	return OP_NONE;
}

const char *
mlir_cmp_pred(bool isfloat, int64_t code)
{
	static const char *const cmpi[] = {"eq", "ne", "slt", "sle", "sgt",
					   "sge", "ult", "ule", "ugt", "uge"};
	static const char *const cmpf[] = {
		"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
		"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"};

	if (!isfloat)
		return code >= 0 && code < 10 ? cmpi[code] : NULL;
	return code >= 0 && code < 16 ? cmpf[code] : NULL;
}

const Limits default_limits = {
	.max_elems = (int64_t)1 << 26,
	.max_bytes = (int64_t)1 << 30,
	.max_trips = 10000000,
	.max_depth = 64,
	.max_work = (int64_t)1 << 32,
};


bool
type_equal(const Type *a, const Type *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TY_SCALAR:
		return a->dt == b->dt;
	case TY_TENSOR:
		if (a->dt != b->dt || a->rank != b->rank)
			return false;
		for (int i = 0; i < a->rank; i++)
			if (a->dims[i] != b->dims[i])
				return false;
		return true;
	case TY_FUTURE:
		if (a->nelems != b->nelems)
			return false;
		for (int i = 0; i < a->nelems; i++)
			if (!type_equal(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	return false;
}

bool
type_is_static(const Type *t)
{
	if (t->kind == TY_TENSOR) {
		for (int i = 0; i < t->rank; i++)
			if (t->dims[i] == DIM_DYN)
				return false;
	} else if (t->kind == TY_FUTURE) {
		for (int i = 0; i < t->nelems; i++)
			if (!type_is_static(t->elems[i]))
				return false;
	}
	return true;
}

int64_t
type_numel(const Type *t)
{
	int64_t n = 1;

	if (t->kind == TY_SCALAR)
		return 1;
	if (t->kind != TY_TENSOR)
		return -1;
	for (int i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0)
			return -1;
		if (t->dims[i] && n > INT64_MAX / t->dims[i])
			return -1;
		n *= t->dims[i];
	}
	return n;
}

int
op_lookup(const char *name, size_t len)
{
	for (int k = 0; k < OP_COUNT; k++)
		if (strlen(op_info[k].name) == len &&
		    !memcmp(op_info[k].name, name, len))
			return k;
	return -1;
}

Func *
prog_func(const Program *p, const char *name)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i]->name, name))
			return p->funcs[i];
	return NULL;
}

Value *
prog_value(const Program *p, const Func *f, const char *name)
{
	for (int i = 0; i < p->nvalues; i++) {
		Value *v = p->values[i];
		if ((!f || v->func == f) && !strcmp(v->name, name))
			return v;
	}
	return NULL;
}

void
prog_free(Program *p)
{
	if (p)
		arena_free(p->arena);
}

bool
op_uses(const Op *op, const Value *v)
{
	for (int i = 0; i < op->nargs; i++)
		if (op->args[i].v == v)
			return true;
	for (int i = 0; i < op->noffs; i++)
		if (op->offs[i].v == v)
			return true;
	return op->hasdest && op->dest.v == v;
}

bool
op_conditional(const Block *blk, const Op *op)
{
	for (const Op *a = op; a && a->parent != blk;
	     a = a->parent ? a->parent->parent : NULL)
		if (a->parent && a->parent->parent &&
		    (a->parent->parent->kind == OP_IF ||
		     a->parent->parent->kind == OP_FOR ||
		     a->parent->parent->kind == OP_FORALL ||
		     a->parent->parent->kind == OP_WHILE ||
		     a->parent->parent->kind == OP_GENERATE))
			return true;
	return false;
}

typedef struct OpAt {
	OpKind k;
	Loc loc;
	const Op *found;
} OpAt;

static WalkAct
op_at(Op *op, void *ctx)
{
	OpAt *a = ctx;

	if ((a->k == OP_COUNT || op->kind == a->k) &&
	    op->loc.line == a->loc.line && op->loc.col == a->loc.col) {
		a->found = op;
		return WALK_STOP;
	}
	return WALK_GO;
}

const Op *
prog_op_at(const Program *p, OpKind k, Loc loc)
{
	OpAt a = {k, loc, NULL};

	walk_prog(p, op_at, &a);
	return a.found;
}

static WalkAct
op_of_kind(Op *op, void *arg)
{
	OpAt *a = arg;

	if (op->kind != a->k)
		return WALK_GO;
	a->found = op;
	return WALK_STOP;
}

bool
prog_has_op(const Program *p, OpKind k)
{
	OpAt a = {k, {0, 0}, NULL};

	if (p->ops) /* numbered */
		return p->kinds >> k & 1;
	walk_prog(p, op_of_kind, &a);
	return a.found != NULL;
}

const char *
prog_loc(const Program *p, Loc loc, char *buf, size_t n)
{
	Loc s = p && p->srclocs && loc.line > 0 && loc.line < p->nsrclocs ?
		p->srclocs[loc.line] : (Loc){0, 0};

	if (s.line && (p->srconly || !p->file))
		fmt_snprintf(buf, n, "%s:%d:%d", p->srcfiles[loc.line], s.line,
			     s.col);
	else if (s.line)
		fmt_snprintf(buf, n, "%s:%d:%d (%s:%d:%d)", p->srcfiles[loc.line],
			     s.line, s.col, p->file, loc.line, loc.col);
	else if (p && p->file)
		fmt_snprintf(buf, n, "%s:%d:%d", p->file, loc.line, loc.col);
	else
		fmt_snprintf(buf, n, "%d:%d", loc.line, loc.col);
	return buf;
}

const char *
decision_reason(const Decision *d)
{
	Reason *r = d->lazy;

	if (d->reason || !r)
		return d->reason;
	if (!r->text)
		r->text = r->format(r, r->arena);
	return r->text;
}
