/*
 * verify.c: everything the parser leaves unchecked (docs/tir.md).
 *
 * The parser resolves names and calls and types every value; here we check
 * dominance and scoping, terminators, types and shapes per op form, literal
 * ranges, static slice bounds, that futures only reach `await`, and the
 * static shape limits.  The walk is in source order and stops at the first
 * error, which carries the location of the offending token: the operand for
 * a bad operand, the type for a bad type, the op otherwise.
 *
 * Nothing here allocates: messages are built in the Diag and small buffers.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ir.h"

#define TBUF 320

typedef struct Verifier {
	const Program *p;
	const Limits *lim;
	Diag *d;
	const Func *fn;           /* function being verified */
	char tb[3][TBUF];         /* type_str buffers for one message */
} Verifier;

/* One type as text in buffer `slot` (0..2) of the verifier. */
static const char *
ts(Verifier *v, int slot, const Type *t)
{
	if (!t)
		return "<no type>";
	return type_str(t, v->tb[slot], TBUF);
}

static const char *
opname(const Op *op)
{
	return op_info[op->kind].name;
}

static Form
form_of(const Op *op)
{
	return op_info[op->kind].form;
}

/* The position of op in its block (op->index, or a scan if stale). */
static int
op_pos(const Op *op)
{
	const Block *b = op->parent;

	if (op->index >= 0 && op->index < b->nops && b->ops[op->index] == op)
		return op->index;
	for (int i = 0; i < b->nops; i++)
		if (b->ops[i] == op)
			return i;
	return -1;
}

/* ------------------------------------------------------------ limits */

/* A static tensor type (or any inside a future) within lim->max_elems. */
static int
check_limit(Verifier *v, const Type *t)
{
	int64_t n = 1;
	bool over = false;

	if (t->kind == TY_FUTURE) {
		for (int i = 0; i < t->nelems; i++)
			if (check_limit(v, t->elems[i]))
				return -1;
		return 0;
	}
	if (t->kind != TY_TENSOR || !type_is_static(t))
		return 0;
	for (int i = 0; i < t->rank; i++) {
		if (t->dims[i] && n > INT64_MAX / t->dims[i])
			over = true;
		else
			n *= t->dims[i];
	}
	if (over)
		return diag_set(v->d, t->loc,
				"%s has more than %" PRId64
				" elements, over the limit of %" PRId64,
				ts(v, 0, t), INT64_MAX, v->lim->max_elems);
	if (n > v->lim->max_elems ||
	    n > INT64_MAX / (int64_t)dtype_size(t->dt))
		return diag_set(v->d, t->loc,
				"%s has %" PRId64
				" elements, over the limit of %" PRId64,
				ts(v, 0, t), n, v->lim->max_elems);
	return 0;
}

/* ------------------------------------------------- operands and scopes */

/* The block that encloses block b (through its parent op), or NULL. */
static const Block *
outer_block(const Block *b)
{
	return b->parent ? b->parent->parent : NULL;
}

/*
 * Is value x visible at op u?  Params: anywhere in their function.  Block
 * args: inside their block.  Op results: after the defining op, in its
 * block or any block nested in it.  A definition in an enclosing block
 * after the use is "before its definition"; anything else "not visible".
 */
static int
check_visible(Verifier *v, const Op *u, const Operand *o)
{
	const Value *x = o->v;
	const Op *cur = u;
	const Block *b = u->parent;

	if (x->isparam) {
		if (x->func == b->func)
			return 0;
	} else if (x->owner && !x->owner->parent) {
		/* a block argument: in the blocks its block dominates */
		if (x->func == b->func && block_dominates(x->owner, top_block(u)))
			return 0;
		if (x->func == b->func)
			return diag_set(v->d, o->loc, "%%%s is not visible here: "
					"its block ^%s does not dominate this "
					"use", x->name, x->owner->label);
	} else if (x->owner) {
		for (; b; b = outer_block(b))
			if (b == x->owner || (b->parent &&
					      b->parent->kind == OP_WHILE &&
					      b == b->parent->orelse &&
					      b->parent->body == x->owner))
				return 0; /* a while's do region shares the args */
	} else if (x->def) {
		const Block *db = x->def->parent;

		while (b && b != db) {
			cur = b->parent;
			b = cur ? cur->parent : NULL;
		}
		if (b && op_pos(cur) > op_pos(x->def))
			return 0;
		if (b)
			return diag_set(v->d, o->loc,
					"use of %%%s before its definition",
					x->name);
		/* defined in another block of the body: that block must
		 * dominate the use's */
		if (!db->parent && x->func == u->parent->func) {
			if (block_dominates(db, top_block(u)))
				return 0;
			return diag_set(v->d, o->loc, "%%%s is not visible "
					"here: its block %s%s does not dominate "
					"this use", x->name, db->label ? "^" : "",
					db->label ? db->label : "(the entry)");
		}
	}
	return diag_set(v->d, o->loc, "%%%s is not visible here", x->name);
}

/* Where a future may go: to an await, and carried: a for's init or its
 * body's yield (an iter arg), or a branch's argument (a block argument).
 * Anything else (if, while, select, call, return) would need a future
 * to have a buffer of its own. */
static bool
future_may_go(const Op *u, const Operand *o)
{
	const Op *r = u->parent ? u->parent->parent : NULL;

	switch (form_of(u)) {
	case F_AWAIT: case F_BR: case F_COND_BR:
		return true; /* (a cond_br's condition is an i1) */
	case F_FOR:
		return o >= &u->args[3] && o < u->args + u->nargs;
	case F_YIELD:
		return r && r->kind == OP_FOR;
	default:
		return false;
	}
}

/* Scoping and the future rule for one operand. */
static int
check_operand(Verifier *v, const Op *u, const Operand *o)
{
	if (!o->v)
		return 0;
	if (check_visible(v, u, o))
		return -1;
	if (o->v->type->kind == TY_FUTURE && !future_may_go(u, o))
		return diag_set(v->d, o->loc,
				"future %%%s may only be used by await, a for's "
				"iter arg or yield, or a branch", o->v->name);
	return 0;
}

/* All operands in source order: args, destination, offsets/indices. */
static int
check_operands(Verifier *v, const Op *op)
{
	for (int i = 0; i < op->nargs; i++)
		if (check_operand(v, op, &op->args[i]))
			return -1;
	if (op->hasdest && check_operand(v, op, &op->dest))
		return -1;
	for (int i = 0; i < op->noffs; i++)
		if (check_operand(v, op, &op->offs[i]))
			return -1;
	return 0;
}

/* ------------------------------------------------ literals and values */

static bool
int_fits(int64_t x, DType dt)
{
	switch (dt) {
	case DT_I1:
		return x == 0 || x == 1;
	case DT_I32:
		return x >= INT32_MIN && x <= INT32_MAX;
	default:
		return true;
	}
}

/* A literal operand usable as an element of dtype dt. */
static int
check_literal(Verifier *v, const Operand *o, DType dt)
{
	if (dtype_is_float(dt))
		return 0;
	if (o->isfloat)
		return diag_set(v->d, o->loc,
				"float literal %g for integer dtype %s", o->f,
				dtype_names[dt]);
	if (!int_fits(o->i, dt))
		return diag_set(v->d, o->loc,
				"integer literal %" PRId64 " out of range for %s",
				o->i, dtype_names[dt]);
	return 0;
}

static bool
is_scalar_of(const Type *t, DType dt)
{
	return t->kind == TY_SCALAR && t->dt == dt;
}

/* An operand that must be a value (no literal) of exactly type t. */
static int
want_type(Verifier *v, const Operand *o, const Type *t)
{
	if (!o->v)
		return diag_set(v->d, o->loc,
				"expected a value of type %s, got a literal",
				ts(v, 0, t));
	if (!type_equal(o->v->type, t))
		return diag_set(v->d, o->loc, "%%%s has type %s, expected %s",
				o->v->name, ts(v, 0, o->v->type),
				ts(v, 1, t));
	return 0;
}

/* An element operand: a literal or a scalar value of dtype dt. */
static int
want_elem(Verifier *v, const Operand *o, DType dt)
{
	if (!o->v)
		return check_literal(v, o, dt);
	if (!is_scalar_of(o->v->type, dt))
		return diag_set(v->d, o->loc, "%%%s has type %s, expected %s",
				o->v->name, ts(v, 0, o->v->type),
				dtype_names[dt]);
	return 0;
}

/* An index operand: an `index` value or a non-negative integer literal. */
static int
want_index(Verifier *v, const Operand *o)
{
	if (!o->v) {
		if (o->isfloat)
			return diag_set(v->d, o->loc,
					"float literal %g where an index is "
					"expected", o->f);
		return 0;
	}
	if (!is_scalar_of(o->v->type, DT_INDEX))
		return diag_set(v->d, o->loc,
				"%%%s has type %s, expected index", o->v->name,
				ts(v, 0, o->v->type));
	return 0;
}

/* An operand that must be a tensor value (any shape). */
static int
want_tensor(Verifier *v, const Op *op, const Operand *o)
{
	if (!o->v)
		return diag_set(v->d, o->loc,
				"%s expects a tensor value, got a literal",
				opname(op));
	if (o->v->type->kind != TY_TENSOR)
		return diag_set(v->d, o->loc,
				"%s expects a tensor, %%%s has type %s",
				opname(op), o->v->name, ts(v, 0, o->v->type));
	return 0;
}

/* The op's type T must be a tensor. */
static int
type_tensor(Verifier *v, const Op *op)
{
	if (op->type->kind != TY_TENSOR)
		return diag_set(v->d, op->type->loc,
				"%s needs a tensor type, got %s", opname(op),
				ts(v, 0, op->type));
	return 0;
}

/* T must equal the type `want` computed from the operands. */
static int
type_gives(Verifier *v, const Op *op, const Type *want, const char *what)
{
	if (type_equal(op->type, want))
		return 0;
	return diag_set(v->d, op->type->loc, "%s gives %s, not %s", what,
			ts(v, 0, want), ts(v, 1, op->type));
}

static Type
tensor_type(DType dt, int rank, const int64_t *dims)
{
	Type t = {.kind = TY_TENSOR, .dt = dt, .rank = rank};

	for (int i = 0; i < rank; i++)
		t.dims[i] = dims[i];
	return t;
}

/* ------------------------------------------------------ per-form checks */

static int
check_const(Verifier *v, const Op *op)
{
	const Type *t = op->type;
	const ConstData *c = &op->cdata;
	int64_t n = type_numel(t);

	if (t->kind == TY_FUTURE || !type_is_static(t))
		return diag_set(v->d, t->loc,
				"const needs a scalar or static tensor type, "
				"got %s", ts(v, 0, t));
	if (n >= 0 && n <= v->lim->max_elems && c->n != n &&
	    !(c->splat && c->n == 1))
		return diag_set(v->d, op->loc,
				"const has %" PRId64 " elements, %s needs %"
				PRId64, c->n, ts(v, 0, t), n);
	if (dtype_is_float(t->dt) || !c->i)
		return 0;
	for (int64_t i = 0; i < c->n; i++)
		if (!int_fits(c->i[i], t->dt))
			return diag_set(v->d, op->loc,
					"integer literal %" PRId64
					" out of range for %s",
					c->i[i], dtype_names[t->dt]);
	return 0;
}

static int
check_empty(Verifier *v, const Op *op)
{
	int ndyn = 0;

	if (type_tensor(v, op))
		return -1;
	for (int i = 0; i < op->type->rank; i++)
		ndyn += op->type->dims[i] == DIM_DYN;
	for (int i = 0; i < op->nargs; i++)
		if (want_index(v, &op->args[i]))
			return -1;
	if (op->nargs != ndyn)
		return diag_set(v->d, op->loc,
				"empty needs %d dynamic sizes for %s, got %d",
				ndyn, ts(v, 0, op->type), op->nargs);
	return 0;
}

/* Elementwise: a value of type T, a scalar of T's dtype, or a literal. */
static int
ew_operand(Verifier *v, const Op *op, const Operand *o)
{
	const Type *t = op->type;

	if (!o->v)
		return check_literal(v, o, t->dt);
	if (type_equal(o->v->type, t) || is_scalar_of(o->v->type, t->dt))
		return 0;
	if (t->kind == TY_SCALAR)
		return diag_set(v->d, o->loc, "%%%s has type %s, expected %s",
				o->v->name, ts(v, 0, o->v->type),
				ts(v, 1, t));
	return diag_set(v->d, o->loc, "%%%s has type %s, expected %s or %s",
			o->v->name, ts(v, 0, o->v->type), ts(v, 1, t),
			dtype_names[t->dt]);
}

/* The dtype rule of the op's EW row (ops.h). */
static int
check_rule(Verifier *v, const Op *op)
{
	DtRule r = ew_info[op->kind].rule;
	const Type *t = op->type;

	if (r == R_FLOAT && !dtype_is_float(t->dt))
		return diag_set(v->d, t->loc, "%s needs a float dtype, got %s",
				opname(op), ts(v, 0, t));
	if (r == R_INT && dtype_is_float(t->dt))
		return diag_set(v->d, t->loc,
				"%s needs an integer dtype, got %s",
				opname(op), ts(v, 0, t));
	return 0;
}

static int
check_binary(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0], *b = &op->args[1];

	if (ew_operand(v, op, a) || ew_operand(v, op, b))
		return -1;
	if (op->hasdest && want_type(v, &op->dest, op->type))
		return -1;
	if ((a->v && type_equal(a->v->type, op->type)) ||
	    (b->v && type_equal(b->v->type, op->type)))
		return check_rule(v, op);
	return diag_set(v->d, op->loc,
			"%s needs at least one operand of type %s",
			opname(op), ts(v, 0, op->type));
}

static int
check_unary(Verifier *v, const Op *op)
{
	if (want_type(v, &op->args[0], op->type))
		return -1;
	if (op->hasdest && want_type(v, &op->dest, op->type))
		return -1;
	return check_rule(v, op);
}

static int
check_cmp(Verifier *v, const Op *op)
{
	if (op->type->kind != TY_SCALAR)
		return diag_set(v->d, op->type->loc,
				"%s compares scalars, got %s", opname(op),
				ts(v, 0, op->type));
	for (int i = 0; i < 2; i++) {
		const Operand *o = &op->args[i];

		if (o->v ? want_type(v, o, op->type)
			 : check_literal(v, o, op->type->dt))
			return -1;
	}
	return check_rule(v, op);
}

static int
check_fill(Verifier *v, const Op *op)
{
	if (want_elem(v, &op->args[0], op->type->dt))
		return -1;
	return want_type(v, &op->dest, op->type);
}

static int
check_matmul(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0], *b = &op->args[1];
	const Type *ta, *tb;
	int64_t dims[2];
	Type want;

	if (want_tensor(v, op, a) || want_tensor(v, op, b))
		return -1;
	ta = a->v->type;
	tb = b->v->type;
	if (ta->rank != 2)
		return diag_set(v->d, a->loc,
				"matmul needs rank-2 tensors, %%%s has type %s",
				a->v->name, ts(v, 0, ta));
	if (tb->rank != 2)
		return diag_set(v->d, b->loc,
				"matmul needs rank-2 tensors, %%%s has type %s",
				b->v->name, ts(v, 0, tb));
	if (ta->dt != tb->dt || ta->dims[1] != tb->dims[0])
		return diag_set(v->d, b->loc,
				"matmul of %s and %s: %%%s does not match %%%s",
				ts(v, 0, ta), ts(v, 1, tb), b->v->name,
				a->v->name);
	if (want_type(v, &op->dest, op->type))
		return -1;
	dims[0] = ta->dims[0];
	dims[1] = tb->dims[1];
	want = tensor_type(ta->dt, 2, dims);
	return type_gives(v, op, &want, "matmul");
}

/* p[0..n) is a permutation of 0..n-1. */
static bool
is_perm(const int *p, int n)
{
	bool seen[MAXRANK] = {false};

	for (int i = 0; i < n; i++) {
		if (p[i] < 0 || p[i] >= n || seen[p[i]])
			return false;
		seen[p[i]] = true;
	}
	return true;
}

/* "[1, 0]" into buf. */
static const char *
list_str(const int *p, int n, char *buf, size_t size)
{
	size_t k = 0;

	k += (size_t)fmt_snprintf(buf, size, "[");
	for (int i = 0; i < n && k < size; i++)
		k += (size_t)fmt_snprintf(buf + k, size - k, "%s%d", i ? ", " : "",
				      p[i]);
	if (k < size)
		fmt_snprintf(buf + k, size - k, "]");
	return buf;
}

static int
check_transpose(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0];
	const Type *ta;
	int64_t dims[MAXRANK];
	char what[TBUF + 64], pb[64];
	Type want;

	if (want_tensor(v, op, a))
		return -1;
	ta = a->v->type;
	list_str(op->perm, op->nperm, pb, sizeof pb);
	if (op->nperm != ta->rank || !is_perm(op->perm, op->nperm))
		return diag_set(v->d, op->loc,
				"transpose %s is not a permutation of the %d "
				"dims of %s", pb, ta->rank, ts(v, 0, ta));
	if (want_type(v, &op->dest, op->type))
		return -1;
	for (int j = 0; j < ta->rank; j++)
		dims[j] = ta->dims[op->perm[j]];
	want = tensor_type(ta->dt, ta->rank, dims);
	fmt_snprintf(what, sizeof what, "transpose of %s by %s", ts(v, 2, ta), pb);
	return type_gives(v, op, &want, what);
}

static int
check_reduce(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0];
	const Type *ta;
	int64_t dims[MAXRANK];
	int n = 0, k = 0;
	char what[TBUF + 64], pb[64];
	Type want;

	if (want_tensor(v, op, a))
		return -1;
	ta = a->v->type;
	list_str(op->perm, op->nperm, pb, sizeof pb);
	for (int i = 0; i < op->nperm; i++)
		if (op->perm[i] < 0 || op->perm[i] >= ta->rank ||
		    (i && op->perm[i] <= op->perm[i - 1]))
			return diag_set(v->d, op->loc,
					"%s dims %s must be distinct, "
					"ascending and below the rank %d of %s",
					opname(op), pb, ta->rank,
					ts(v, 0, ta));
	if (want_type(v, &op->dest, op->type))
		return -1;
	for (int j = 0; j < ta->rank; j++) {
		if (k < op->nperm && op->perm[k] == j)
			k++;
		else
			dims[n++] = ta->dims[j];
	}
	want = tensor_type(ta->dt, n, dims);
	fmt_snprintf(what, sizeof what, "%s of %s over %s", opname(op),
		 ts(v, 2, ta), pb);
	return type_gives(v, op, &want, what);
}

/* o + (s-1)*t < dim without overflow; an empty slice needs o <= dim. */
static bool
slice_fits(int64_t o, int64_t s, int64_t t, int64_t dim)
{
	if (s == 0)
		return o <= dim;
	return o < dim && s - 1 <= (dim - 1 - o) / t;
}

/*
 * Offsets, sizes and strides of a slice of a tensor of type `base`, and
 * its static bounds.  Dynamic offsets are checked at run time, but the
 * slice must fit even at offset 0.
 */
static int
check_slice(Verifier *v, const Op *op, const Type *base)
{
	if (op->noffs != base->rank)
		return diag_set(v->d, op->loc,
				"%s needs %d offsets for %s, got %d",
				opname(op), base->rank, ts(v, 0, base),
				op->noffs);
	for (int i = 0; i < op->noffs; i++) {
		const Operand *o = &op->offs[i];
		int64_t s = op->sizes[i], t = op->strides[i];
		int64_t dim = base->dims[i], off = o->v ? 0 : o->i;

		if (want_index(v, o))
			return -1;
		if (!o->v && o->i < 0)
			return diag_set(v->d, o->loc,
					"offset %" PRId64 " is negative", o->i);
		if (s < 0)
			return diag_set(v->d, op->loc,
					"%s size %" PRId64 " of dim %d is "
					"negative", opname(op), s, i);
		if (t < 1)
			return diag_set(v->d, op->loc,
					"%s stride %" PRId64 " of dim %d must "
					"be at least 1", opname(op), t, i);
		if (dim == DIM_DYN || slice_fits(off, s, t, dim))
			continue;
		if (o->v)
			return diag_set(v->d, o->loc,
					"slice of dim %d is out of bounds: "
					"size %" PRId64 ", stride %" PRId64
					" in a dim of %" PRId64,
					i, s, t, dim);
		return diag_set(v->d, o->loc,
				"slice of dim %d is out of bounds: offset %"
				PRId64 ", size %" PRId64 ", stride %" PRId64
				" in a dim of %" PRId64, i, off, s, t, dim);
	}
	return 0;
}

static int
check_extract_slice(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0];
	Type want;

	if (want_tensor(v, op, a) || check_slice(v, op, a->v->type))
		return -1;
	want = tensor_type(a->v->type->dt, op->noffs, op->sizes);
	return type_gives(v, op, &want, "extract_slice");
}

static int
check_insert_slice(Verifier *v, const Op *op)
{
	Type want;

	if (want_tensor(v, op, &op->args[0]) ||
	    want_type(v, &op->dest, op->type) || type_tensor(v, op) ||
	    check_slice(v, op, op->type))
		return -1;
	want = tensor_type(op->type->dt, op->noffs, op->sizes);
	return want_type(v, &op->args[0], &want);
}

/* Element indices into a tensor of type `base`. */
static int
check_indices(Verifier *v, const Op *op, const Type *base)
{
	if (op->noffs != base->rank)
		return diag_set(v->d, op->loc,
				"%s needs %d indices for %s, got %d",
				opname(op), base->rank, ts(v, 0, base),
				op->noffs);
	for (int i = 0; i < op->noffs; i++) {
		const Operand *o = &op->offs[i];
		int64_t dim = base->dims[i];

		if (want_index(v, o))
			return -1;
		if (!o->v && (o->i < 0 || (dim != DIM_DYN && o->i >= dim)))
			return diag_set(v->d, o->loc,
					"index %" PRId64 " is out of bounds "
					"for dim %d of %s", o->i, i,
					ts(v, 0, base));
	}
	return 0;
}

static int
check_extract(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0];
	Type want = {.kind = TY_SCALAR};

	if (want_tensor(v, op, a) || check_indices(v, op, a->v->type))
		return -1;
	want.dt = a->v->type->dt;
	return type_gives(v, op, &want, "extract");
}

static int
check_insert(Verifier *v, const Op *op)
{
	if (type_tensor(v, op) || want_elem(v, &op->args[0], op->type->dt) ||
	    want_type(v, &op->dest, op->type))
		return -1;
	return check_indices(v, op, op->type);
}

static int
check_copy(Verifier *v, const Op *op)
{
	if (want_type(v, &op->args[0], op->type))
		return -1;
	return op->hasdest ? want_type(v, &op->dest, op->type) : 0;
}

/* select %c, %a, %b : T: an i1, and two values of type T. */
static int
check_select(Verifier *v, const Op *op)
{
	static const Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};

	if (want_type(v, &op->args[0], &i1) ||
	    want_type(v, &op->args[1], op->type))
		return -1;
	return want_type(v, &op->args[2], op->type);
}

/* One element per position of a static tensor type, each a scalar of
 * its dtype (or a literal). */
static int
check_from_elements(Verifier *v, const Op *op)
{
	int64_t n;

	if (type_tensor(v, op))
		return -1;
	if (!type_is_static(op->type))
		return diag_set(v->d, op->type->loc,
				"from_elements needs a static type, got %s",
				ts(v, 0, op->type));
	if (check_limit(v, op->type))
		return -1;
	n = type_numel(op->type);
	if (n != op->nargs)
		return diag_set(v->d, op->type->loc,
				"%s has %" PRId64 " elements, from_elements "
				"gives %d", ts(v, 0, op->type), n, op->nargs);
	for (int i = 0; i < op->nargs; i++)
		if (want_elem(v, &op->args[i], op->type->dt))
			return -1;
	return 0;
}

static int
check_reshape(Verifier *v, const Op *op)
{
	const Operand *a = &op->args[0];
	char msg[200];

	if (want_tensor(v, op, a) || type_tensor(v, op))
		return -1;
	if (!type_is_static(a->v->type))
		return diag_set(v->d, a->loc, "%s needs a static source, %%%s "
				"has type %s", opname(op), a->v->name,
				ts(v, 0, a->v->type));
	if (!type_is_static(op->type))
		return diag_set(v->d, op->type->loc, "%s needs a static type, "
				"got %s", opname(op), ts(v, 0, op->type));
	if (check_limit(v, op->type))
		return -1;
	if (reshape_check(op, a->v->type, op->type, msg, sizeof msg))
		return diag_set(v->d, op->type->loc, "%s %s to %s: %s",
				opname(op), ts(v, 0, a->v->type),
				ts(v, 1, op->type), msg);
	return 0;
}

/* A static argument may be passed for a `?` parameter dim. */
static bool
arg_fits(const Type *arg, const Type *par)
{
	if (type_equal(arg, par))
		return true;
	if (arg->kind != TY_TENSOR || par->kind != TY_TENSOR ||
	    arg->dt != par->dt || arg->rank != par->rank)
		return false;
	for (int i = 0; i < par->rank; i++)
		if (par->dims[i] != DIM_DYN && par->dims[i] != arg->dims[i])
			return false;
	return true;
}

static int
check_call(Verifier *v, const Op *op)
{
	const Func *f = op->fn;

	for (int i = 0; i < op->nargs && i < f->nparams; i++) {
		const Operand *o = &op->args[i];
		const Value *par = f->params[i];

		if (!o->v)
			return diag_set(v->d, o->loc,
					"call arguments must be values");
		if (!arg_fits(o->v->type, par->type))
			return diag_set(v->d, o->loc,
					"%%%s has type %s, expected %s "
					"(parameter %%%s of @%s)",
					o->v->name, ts(v, 0, o->v->type),
					ts(v, 1, par->type), par->name,
					f->name);
	}
	return 0;
}

static int
check_if(Verifier *v, const Op *op)
{
	static const Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};

	if (want_type(v, &op->args[0], &i1))
		return -1;
	if (op->nrtypes > 0 && !op->orelse)
		return diag_set(v->d, op->loc,
				"if with results needs an else region");
	return 0;
}

static int
check_for(Verifier *v, const Op *op)
{
	const Operand *step = &op->args[2];
	int ninit = op->nargs - 3;

	for (int i = 0; i < 3; i++)
		if (want_index(v, &op->args[i]))
			return -1;
	if (!step->v && step->i <= 0)
		return diag_set(v->d, step->loc,
				"for step must be positive, got %" PRId64,
				step->i);
	if (ninit != op->nrtypes)
		return diag_set(v->d, op->loc,
				"for has %d iter args but %d result types",
				ninit, op->nrtypes);
	for (int i = 0; i < ninit; i++)
		if (want_type(v, &op->args[3 + i], op->rtypes[i]))
			return -1;
	if (!op->body || op->body->nargs != 1 + ninit)
		return diag_set(v->d, op->loc, "malformed for region");
	return 0;
}

/* forall: index bounds; shared args are tensors initialized by values
 * of their result types. */
static int
check_forall(Verifier *v, const Op *op)
{
	int ninit = op->nargs - 2;

	for (int i = 0; i < 2; i++)
		if (want_index(v, &op->args[i]))
			return -1;
	if (ninit != op->nrtypes)
		return diag_set(v->d, op->loc,
				"forall has %d shared args but %d result types",
				ninit, op->nrtypes);
	for (int i = 0; i < ninit; i++) {
		if (op->rtypes[i]->kind != TY_TENSOR)
			return diag_set(v->d, op->rtypes[i]->loc,
					"forall shared arg %d must be a tensor, "
					"got %s", i, ts(v, 0, op->rtypes[i]));
		if (want_type(v, &op->args[2 + i], op->rtypes[i]))
			return -1;
	}
	if (!op->body || op->body->nargs != 1 + ninit)
		return diag_set(v->d, op->loc, "malformed forall region");
	return 0;
}

/* parallel_insert_slice: in a forall body, after every other op, into
 * one of that forall's shared args. */
static int
check_parallel_insert(Verifier *v, const Op *op)
{
	const Block *b = op->parent;
	const Value *d = op->dest.v;
	Type want;

	if (!b->parent || b->parent->kind != OP_FORALL)
		return diag_set(v->d, op->loc, "parallel_insert_slice is only "
				"allowed in a forall body");
	for (int i = op_pos(op) + 1; i < b->nops; i++) {
		Form f = form_of(b->ops[i]);
		if (f != F_PARALLEL_INSERT && f != F_YIELD)
			return diag_set(v->d, b->ops[i]->loc,
					"%s after parallel_insert_slice: the "
					"inserts end the forall body",
					opname(b->ops[i]));
	}
	if (!d || d->owner != b || d == b->args[0])
		return diag_set(v->d, op->dest.loc, "parallel_insert_slice "
				"must insert into a shared arg of its forall");
	if (want_tensor(v, op, &op->args[0]) ||
	    check_slice(v, op, d->type))
		return -1;
	want = tensor_type(d->type->dt, op->noffs, op->sizes);
	return want_type(v, &op->args[0], &want);
}

/* generate: a tensor type, one index operand per `?`, one index arg per
 * dim (the body's yield is check_yield's). */
static int
check_generate(Verifier *v, const Op *op)
{
	const Type *t = op->type;
	int ndyn = 0;

	if (type_tensor(v, op))
		return -1;
	for (int i = 0; i < t->rank; i++)
		ndyn += t->dims[i] == DIM_DYN;
	for (int i = 0; i < op->nargs; i++)
		if (want_index(v, &op->args[i]))
			return -1;
	if (op->nargs != ndyn)
		return diag_set(v->d, op->loc, "generate needs %d dynamic "
				"size%s for %s, got %d", ndyn,
				ndyn == 1 ? "" : "s", ts(v, 0, t), op->nargs);
	if (!op->body)
		return diag_set(v->d, op->loc, "malformed generate region");
	if (op->body->nargs != t->rank)
		return diag_set(v->d, op->loc, "generate of %s takes %d index "
				"arg%s (one per dim), got %d", ts(v, 0, t),
				t->rank, t->rank == 1 ? "" : "s",
				op->body->nargs);
	for (int i = 0; i < op->body->nargs; i++) {
		const Value *a = op->body->args[i];
		if (a->type->kind != TY_SCALAR || a->type->dt != DT_INDEX)
			return diag_set(v->d, a->type->loc, "generate index arg "
					"%%%s must be index, got %s", a->name,
					ts(v, 0, a->type));
	}
	return 0;
}

static bool is_last(const Op *op);

static int
check_while(Verifier *v, const Op *op)
{
	if (op->nargs != op->nrtypes)
		return diag_set(v->d, op->loc,
				"while has %d iter args but %d result types",
				op->nargs, op->nrtypes);
	for (int i = 0; i < op->nargs; i++)
		if (want_type(v, &op->args[i], op->rtypes[i]))
			return -1;
	if (!op->body || !op->orelse || op->body->nargs != op->nargs)
		return diag_set(v->d, op->loc, "malformed while region");
	return 0;
}

static int
check_condition(Verifier *v, const Op *op)
{
	static const Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};
	const Op *w = op->parent->parent;

	if (!w || w->kind != OP_WHILE || w->body != op->parent ||
	    !is_last(op))
		return diag_set(v->d, op->loc,
				"condition is only allowed at the end of a "
				"while's condition region");
	return want_type(v, &op->args[0], &i1);
}

static int
check_assert(Verifier *v, const Op *op)
{
	static const Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};

	/* the failure path of a launch, of one forall trip among others
	 * running or of one element of a generate is not modelled */
	for (const Block *b = op->parent; b; b = outer_block(b))
		if (b->parent && (b->parent->kind == OP_ASYNC ||
				  b->parent->kind == OP_FORALL ||
				  b->parent->kind == OP_GENERATE))
			return diag_set(v->d, op->loc,
					"assert inside %s is not supported",
					b->parent->kind == OP_ASYNC
						? "an async region"
					: b->parent->kind == OP_FORALL
						? "a forall body"
						: "a generate body");
	return want_type(v, &op->args[0], &i1);
}

static int
check_async(Verifier *v, const Op *op)
{
	if (op->stream < 0)
		return diag_set(v->d, op->loc,
				"async stream %d is negative", op->stream);
	/* a launch per element, pending across elements: not modelled */
	for (const Block *b = op->parent; b; b = outer_block(b))
		if (b->parent && b->parent->kind == OP_GENERATE)
			return diag_set(v->d, op->loc, "async inside a "
					"generate body is not supported");
	return 0;
}

/* br/cond_br: at the end of a function body's block, to blocks taking
 * as many values of the same types as it passes. */
static int
check_branch(Verifier *v, const Op *op)
{
	static const Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};

	if (op->parent->parent || !is_last(op))
		return diag_set(v->d, op->loc, "%s is only allowed at the end "
				"of a function body's block", opname(op));
	if (op->kind == OP_COND_BR && want_type(v, &op->args[0], &i1))
		return -1;
	for (int k = 0; k < op->nsucc; k++) {
		const Block *t = op->succ[k];
		const Operand *a = succ_args(op, k);

		if (!t || t->func != op->parent->func)
			return diag_set(v->d, op->sloc[k], "unresolved block");
		if (op->nsarg[k] != t->nargs)
			return diag_set(v->d, op->sloc[k], "^%s takes %d "
					"argument%s, the branch passes %d",
					t->label, t->nargs,
					t->nargs == 1 ? "" : "s", op->nsarg[k]);
		for (int i = 0; i < op->nsarg[k]; i++)
			if (!type_equal(a[i].v->type, t->args[i]->type))
				return diag_set(v->d, a[i].loc, "%%%s has type "
						"%s, but ^%s's argument %%%s is "
						"%s", a[i].v->name,
						ts(v, 0, a[i].v->type), t->label,
						t->args[i]->name,
						ts(v, 1, t->args[i]->type));
	}
	return 0;
}

/* Values yielded or returned, against the expected types. */
static int
check_results(Verifier *v, const Op *op, Type *const *want, int nwant)
{
	const char *what = opname(op);

	if (op->nargs != nwant)
		return diag_set(v->d, op->loc, "%s expects %d value%s, got %d",
				what, nwant, nwant == 1 ? "" : "s",
				op->nargs);
	for (int i = 0; i < nwant; i++) {
		const Operand *o = &op->args[i];

		if (!o->v)
			return diag_set(v->d, o->loc,
					"%s value %d must be a value, not a "
					"literal", what, i);
		if (!type_equal(o->v->type, want[i]))
			return diag_set(v->d, o->loc,
					"%s value %d has type %s, expected %s",
					what, i, ts(v, 0, o->v->type),
					ts(v, 1, want[i]));
	}
	return 0;
}

/* True when op is the last op of its block. */
static bool
is_last(const Op *op)
{
	return op_pos(op) == op->parent->nops - 1;
}

static int
check_yield(Verifier *v, const Op *op)
{
	const Op *r = op->parent->parent;

	if (!r || !is_last(op))
		return diag_set(v->d, op->loc,
				"yield is only allowed at the end of a region");
	if (r->kind == OP_WHILE && op->parent == r->body)
		return diag_set(v->d, op->loc,
				"the condition region of while ends with "
				"`condition`, not yield");
	if (r->kind == OP_FORALL)
		return check_results(v, op, NULL, 0);
	if (r->kind == OP_GENERATE) {
		Type el = {.kind = TY_SCALAR, .dt = r->type->dt};
		Type *want = &el;
		return check_results(v, op, &want, 1);
	}
	return check_results(v, op, r->rtypes, r->nrtypes);
}

static int
check_return(Verifier *v, const Op *op)
{
	if (op->parent->parent || !is_last(op))
		return diag_set(v->d, op->loc,
				"return is only allowed at the end of a "
				"function body");
	return check_results(v, op, v->fn->rtypes, v->fn->nrtypes);
}

/*
 * The form table: operand count (-1: any), destination (0 none, 1
 * required, 2 optional), whether the op needs a type after ':', and the
 * check.
 */
typedef struct FormRule {
	int nargs;
	int dest;
	bool typed;
	int (*check)(Verifier *, const Op *);
} FormRule;

static const FormRule form_rules[] = {
	[F_CONST] = {0, 0, true, check_const},
	[F_EMPTY] = {-1, 0, true, check_empty},
	[F_BINARY] = {2, 2, true, check_binary},
	[F_UNARY] = {1, 2, true, check_unary},
	[F_CMP] = {2, 0, true, check_cmp},
	[F_FILL] = {1, 1, true, check_fill},
	[F_MATMUL] = {2, 1, true, check_matmul},
	[F_TRANSPOSE] = {1, 1, true, check_transpose},
	[F_REDUCE] = {1, 1, true, check_reduce},
	[F_EXTRACT_SLICE] = {1, 0, true, check_extract_slice},
	[F_INSERT_SLICE] = {1, 1, true, check_insert_slice},
	[F_EXTRACT] = {1, 0, true, check_extract},
	[F_INSERT] = {1, 1, true, check_insert},
	[F_COPY] = {1, 1, true, check_copy},
	[F_CLONE] = {1, 0, true, check_copy},
	[F_CALL] = {-1, 0, false, check_call},
	[F_IF] = {1, 0, false, check_if},
	[F_FOR] = {-1, 0, false, check_for},
	[F_ASYNC] = {0, 0, false, check_async},
	[F_AWAIT] = {1, 0, false, NULL},
	[F_FORALL] = {-1, 0, false, check_forall},
	[F_PARALLEL_INSERT] = {1, 1, false, check_parallel_insert},
	[F_FROM_ELEMENTS] = {-1, 0, true, check_from_elements},
	[F_RESHAPE] = {1, 0, true, check_reshape},
	[F_YIELD] = {-1, 0, false, check_yield},
	[F_RETURN] = {-1, 0, false, check_return},
	[F_WHILE] = {-1, 0, false, check_while},
	[F_ASSERT] = {1, 0, false, check_assert},
	[F_CONDITION] = {1, 0, false, check_condition},
	[F_SELECT] = {3, 0, true, check_select},
	[F_GENERATE] = {-1, 0, true, check_generate},
	[F_BR] = {-1, 0, false, check_branch},
	[F_COND_BR] = {-1, 0, false, check_branch},
};

/* What the parser should already guarantee, checked so a malformed op is
 * an error rather than a crash. */
static int
check_shape(Verifier *v, const Op *op)
{
	const FormRule *r = &form_rules[form_of(op)];

	if (r->nargs >= 0 && op->nargs != r->nargs)
		return diag_set(v->d, op->loc, "%s expects %d operands, got %d",
				opname(op), r->nargs, op->nargs);
	if (form_of(op) == F_FOR && op->nargs < 3)
		return diag_set(v->d, op->loc, "for needs bounds and a step");
	if (form_of(op) == F_FORALL && op->nargs < 2)
		return diag_set(v->d, op->loc, "forall needs bounds");
	if (form_of(op) == F_CALL && !op->fn)
		return diag_set(v->d, op->loc, "unresolved call");
	if (r->dest == 1 && !op->hasdest)
		return diag_set(v->d, op->loc, "%s needs `into %%d`",
				opname(op));
	if (r->dest == 0 && op->hasdest)
		return diag_set(v->d, op->dest.loc,
				"%s takes no `into` destination", opname(op));
	if (r->typed && !op->type)
		return diag_set(v->d, op->loc, "%s needs a type", opname(op));
	if (r->typed && op->type->kind == TY_FUTURE)
		return diag_set(v->d, op->type->loc, "%s cannot have type %s",
				opname(op), ts(v, 0, op->type));
	return 0;
}

/* ------------------------------------------------------------- the walk */

static int verify_block(Verifier *v, const Block *b);

static int
verify_op(Verifier *v, const Op *op)
{
	const FormRule *r = &form_rules[form_of(op)];

	if (check_shape(v, op) || check_operands(v, op))
		return -1;
	if (r->check && r->check(v, op))
		return -1;
	if (op->type && check_limit(v, op->type))
		return -1;
	for (int i = 0; i < op->nrtypes; i++)
		if (check_limit(v, op->rtypes[i]))
			return -1;
	if (op->body && verify_block(v, op->body))
		return -1;
	if (op->orelse && verify_block(v, op->orelse))
		return -1;
	return 0;
}

/* Every op, then the terminator: a region ends with yield, a function
 * body with return (misplaced ones are reported at the op itself).  Not
 * walk_block: scopes open and close around each region. */
static int
verify_block(Verifier *v, const Block *b)
{
	bool cond = b->parent && b->parent->kind == OP_WHILE &&
		    b == b->parent->body;
	Form want = cond ? F_CONDITION : b->parent ? F_YIELD : F_RETURN;
	Form last = b->nops > 0 ? form_of(b->ops[b->nops - 1]) : F_CONST;

	for (int i = 0; i < b->nops; i++)
		if (verify_op(v, b->ops[i]))
			return -1;
	if (last == want || (!b->parent && (last == F_BR || last == F_COND_BR)))
		return 0;
	if (cond)
		return diag_set(v->d, b->parent->loc,
				"missing condition at the end of the while's "
				"condition region");
	if (b->parent)
		return diag_set(v->d, b->parent->loc,
				"missing yield at the end of the %s region",
				opname(b->parent));
	if (b->label)
		return diag_set(v->d, b->loc, "block ^%s does not end with "
				"return, br or cond_br", b->label);
	return diag_set(v->d, v->fn->loc, "missing return at the end of @%s",
			v->fn->name);
}

/* The blocks of a body: arguments within the limits, each block
 * reached from the entry (before the ops), and (exits: after them) a way
 * out of every loop. */
static int
verify_cfg(Verifier *v, const Func *f, bool exits)
{
	for (int i = 1; i < f->nblocks && !exits; i++) {
		const Block *b = f->blocks[i];
		for (int k = 0; k < b->nargs; k++) {
			const Value *a = b->args[k];
			if (check_limit(v, a->type))
				return -1;
		}
		if (!b->reachable)
			return diag_set(v->d, b->loc, "block ^%s is unreachable: "
					"no branch from the entry leads to it",
					b->label);
	}
	for (int i = 0; i < f->nblocks && exits; i++) {
		const Block *b = f->blocks[i];
		const Op *t = b->nops ? b->ops[b->nops - 1] : NULL;
		if (!b->exits && t && (t->kind == OP_BR || t->kind == OP_COND_BR))
			return diag_set(v->d, t->loc, "a loop without exit: no "
					"path from %s%s reaches a return",
					b->label ? "^" : "the entry block",
					b->label ? b->label : "");
	}
	return 0;
}

/* Params and results: no futures, static shapes within the limits. */
static int
verify_signature(Verifier *v, const Func *f)
{
	for (int i = 0; i < f->nparams; i++) {
		const Value *x = f->params[i];

		if (x->type->kind == TY_FUTURE)
			return diag_set(v->d, x->type->loc,
					"parameter %%%s may not be a future",
					x->name);
		if (check_limit(v, x->type))
			return -1;
	}
	for (int i = 0; i < f->nrtypes; i++) {
		if (f->rtypes[i]->kind == TY_FUTURE)
			return diag_set(v->d, f->rtypes[i]->loc,
					"result %d of @%s may not be a future",
					i, f->name);
		if (check_limit(v, f->rtypes[i]))
			return -1;
	}
	return 0;
}

int
tir_verify(const Program *p, const Limits *lim, Diag *d)
{
	Verifier v = {.p = p, .lim = lim ? lim : &default_limits, .d = d};

	for (int i = 0; i < p->nfuncs; i++) {
		v.fn = p->funcs[i];
		if (verify_signature(&v, v.fn) || verify_cfg(&v, v.fn, false))
			return -1;
		for (int b = 0; b < v.fn->nblocks; b++)
			if (verify_block(&v, v.fn->blocks[b]))
				return -1;
		if (verify_cfg(&v, v.fn, true))
			return -1;
	}
	return 0;
}
