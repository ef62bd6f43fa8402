/*
 * eval_values.c: what the reference interpreter's ops read and make:
 * tensors within the limits, refcounted boxes, operands (literals too),
 * and the shape checks and messages of run-time mismatches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eval.h"

/* ------------------------------------------------ tensors and boxes */

int
oom(Run *r, Loc loc)
{
	return diag_set(r->d, loc, "out of memory");
}

int64_t
t_bytes(const Tensor *t)
{
	return t->n * (int64_t)dtype_size(t->dt);
}

/* Charge n units of work at loc (budget.h): 0, or -1 past a limit. */
int
charge(Run *r, Loc loc, int64_t n)
{
	char why[160];

	if (!budget_charge(&r->budget, n, why, sizeof why))
		return 0;
	return diag_set(r->d, loc, "%s", why);
}

/* A new tensor, within the element and live-byte limits: zeroed, or
 * (t_new_raw) not, for a kernel that writes every element. */
static Tensor *
t_alloc(Run *r, Loc loc, DType dt, int rank, const int64_t *dims, bool zero)
{
	int64_t n = 1, bytes;
	Tensor *t;

	for (int i = 0; i < rank; i++)
		n = dims[i] && n > INT64_MAX / dims[i] ? INT64_MAX
						       : n * dims[i];
	if (n > r->lim->max_elems) {
		diag_set(r->d, loc,
			 "tensor of %lld elements is over the limit of %lld",
			 (long long)n, (long long)r->lim->max_elems);
		return NULL;
	}
	bytes = n > INT64_MAX / 8 ? INT64_MAX : n * (int64_t)dtype_size(dt);
	if (bytes > r->lim->max_bytes - r->bytes) {
		diag_set(r->d, loc,
			 "live tensors need %lld bytes, over the limit of %lld",
			 (long long)(r->bytes + bytes),
			 (long long)r->lim->max_bytes);
		return NULL;
	}
	if (charge(r, loc, n) < 0) /* every value is made here */
		return NULL;
	if (!(t = tensor_alloc(dt, rank, dims, zero))) {
		oom(r, loc);
		return NULL;
	}
	r->bytes += bytes;
	if (r->bytes > r->peak)
		r->peak = r->bytes;
	return t;
}

Tensor *
t_new(Run *r, Loc loc, DType dt, int rank, const int64_t *dims)
{
	return t_alloc(r, loc, dt, rank, dims, true);
}

Tensor *
t_new_raw(Run *r, Loc loc, DType dt, int rank, const int64_t *dims)
{
	return t_alloc(r, loc, dt, rank, dims, false);
}

void
t_free(Run *r, Tensor *t)
{
	if (!t)
		return;
	r->bytes -= t_bytes(t);
	tensor_free(t);
}

/* Give t a def array filled with v, unless it has one already. */
int
def_ensure(Run *r, Loc loc, Tensor *t, uint8_t v)
{
	if (t->def)
		return 0;
	if (!(t->def = mem_alloc((size_t)(t->n ? t->n : 1))))
		return oom(r, loc);
	memset(t->def, v, (size_t)t->n);
	return 0;
}

/* Drop a def array that says every element is defined. */
void
def_settle(Tensor *t)
{
	if (!t->def)
		return;
	for (int64_t i = 0; i < t->n; i++)
		if (!t->def[i])
			return;
	mem_free(t->def);
	t->def = NULL;
}

/* The whole of t's data, or of its def bytes as an i1 view. */
View
whole_view(const Tensor *t, bool def)
{
	View v = view_of(t);

	if (def) {
		v.base = t->def;
		v.dt = DT_I1;
	}
	return v;
}

/* A strided window of t (data or def): offs, sizes and steps per dim. */
View
sub_view(const Tensor *t, bool def, const int64_t *offs,
	 const int64_t *sizes, const int64_t *steps)
{
	View v = whole_view(t, def);

	v.off = 0;
	for (int i = 0; i < t->rank; i++) {
		v.off += offs[i] * v.strides[i];
		v.sizes[i] = sizes[i];
		v.strides[i] *= steps[i];
	}
	return v;
}

/* Element li of t (data or def) as a rank-0 view. */
View
elem_view(const Tensor *t, bool def, int64_t li)
{
	View v = whole_view(t, def);

	v.rank = 0;
	v.off = li;
	return v;
}

/* t as an operand of a result shaped like out: a rank-0 operand of a
 * ranked result is broadcast (all strides 0). */
View
bcast_view(const Tensor *t, const Tensor *out)
{
	View v = view_of(t);

	if (t->rank == out->rank)
		return v;
	v.rank = out->rank;
	for (int i = 0; i < out->rank; i++) {
		v.sizes[i] = out->dims[i];
		v.strides[i] = 0;
	}
	return v;
}

/* A new tensor equal to a, data and poison. */
Tensor *
t_dup(Run *r, Loc loc, const Tensor *a)
{
	Tensor *t = t_new_raw(r, loc, a->dt, a->rank, a->dims);
	View vo, va;

	if (!t)
		return NULL;
	vo = view_of(t);
	va = view_of(a);
	k_copy(&vo, &va);
	if (a->def) {
		if (def_ensure(r, loc, t, 1) < 0) {
			t_free(r, t);
			return NULL;
		}
		memcpy(t->def, a->def, (size_t)a->n);
	}
	return t;
}

/* Boxes freed, kept for the next ones (mem_park: they count as freed):
 * the reference boxes every value it makes, scalars too. */
static Box *spare[64];
static int nspare;

/* A box holding t (freed on failure). */
Box *
box_new(Run *r, Loc loc, Tensor *t)
{
	Box *b = NULL;

	if (nspare && (b = mem_unpark(spare[nspare - 1], sizeof *b))) {
		nspare--;
		memset(b, 0, sizeof *b);
	} else if (!nspare) {
		b = mem_calloc(1, sizeof *b);
	}

	if (!b) {
		t_free(r, t);
		oom(r, loc);
		return NULL;
	}
	b->refs = 1;
	b->t = t;
	return b;
}

/* Bind result k of op to the new tensor t (freed on failure). */
int
bind_new(Frame *f, const Op *op, int k, Tensor *t)
{
	Box *b = box_new(f->run, op->loc, t);

	if (!b)
		return -1;
	bind(f, op->res[k], b);
	return 0;
}

void
box_unref(Run *r, Box *b)
{
	if (!b || --b->refs > 0)
		return;
	if (!b->borrowed)
		t_free(r, b->t);
	for (int k = 0; k < b->nelems; k++)
		box_unref(r, b->elems[k]);
	mem_free(b->elems);
	if (nspare < (int)(sizeof spare / sizeof *spare) && mem_park(b))
		spare[nspare++] = b;
	else
		mem_free(b);
}

Box **
boxes_new(Run *r, Loc loc, int n)
{
	Box **bs = mem_calloc((size_t)(n ? n : 1), sizeof *bs);

	if (!bs)
		oom(r, loc);
	return bs;
}

void
boxes_free(Run *r, Box **bs, int n)
{
	if (!bs)
		return;
	for (int k = 0; k < n; k++)
		box_unref(r, bs[k]);
	mem_free(bs);
}

/* ---------------------------------------------------------- operands */

Loc
oploc(const Operand *o, const Op *op)
{
	return o->loc.line ? o->loc : op->loc;
}

const char *
oname(const Operand *o)
{
	return o->v ? o->v->name : "?";
}

int
type_rank(const Type *t)
{
	return t->kind == TY_TENSOR ? t->rank : 0;
}

void
lit_init(Lit *l, DType dt)
{
	memset(l, 0, sizeof *l);
	l->t.dt = dt;
	l->t.n = 1;
	l->t.data = &l->u;
}

/* Element k of a constant's payload into element at of t. */
void
const_put(Tensor *t, int64_t at, const ConstData *c, int64_t k)
{
	if (dtype_is_float(t->dt) ? c->f != NULL : c->i == NULL)
		tensor_setf(t, at, c->f ? c->f[k] : 0);
	else
		tensor_seti(t, at, c->i[k]);
}

/* An operand as a tensor: a value's, or a literal of dtype dt in l. */
const Tensor *
operand(Frame *f, const Operand *o, DType dt, Lit *l)
{
	if (o->v)
		return lookup(f, o->v)->t;
	lit_init(l, dt);
	if (dtype_is_float(dt))
		tensor_setf(&l->t, 0, o->isfloat ? o->f : (double)o->i);
	else
		tensor_seti(&l->t, 0, o->i);
	return &l->t;
}

/* An operand as a new box reference (literals get a tensor of dtype dt). */
Box *
operand_box(Frame *f, const Op *op, const Operand *o, DType dt)
{
	Lit l;
	Tensor *t;

	if (o->v)
		return box_ref(lookup(f, o->v));
	if (!(t = t_dup(f->run, op->loc, operand(f, o, dt, &l))))
		return NULL;
	return box_new(f->run, op->loc, t);
}

/* A defined integer scalar operand (bound, step, offset, index, dim). */
int
read_int(Frame *f, const Op *op, const Operand *o, const char *what,
	 int64_t *out)
{
	Lit l;
	const Tensor *t = operand(f, o, DT_INDEX, &l);

	if (!tensor_defined(t, 0))
		return diag_set(f->run->d, oploc(o, op), "%s %%%s is undefined",
				what, oname(o));
	*out = tensor_geti(t, 0);
	return 0;
}

/* ---------------------------------------------------- shape messages */

const char *
shape_str(const Tensor *t, char *buf, size_t n)
{
	size_t len = 0;

	if (t->rank == 0)
		fmt_snprintf(buf, n, "scalar");
	for (int i = 0; i < t->rank && len < n; i++)
		len += (size_t)fmt_snprintf(buf + len, n - len, "%s%lld",
					i ? "x" : "", (long long)t->dims[i]);
	return buf;
}

/* t as a type, e.g. "tensor<5x4xf32>", or "f32" for a scalar. */
static const char *
tensor_type_str(const Tensor *t, bool scalar, char *buf, size_t n)
{
	char s[256];

	if (scalar && t->rank == 0)
		fmt_snprintf(buf, n, "%s", dtype_names[t->dt]);
	else if (t->rank == 0)
		fmt_snprintf(buf, n, "tensor<%s>", dtype_names[t->dt]);
	else
		fmt_snprintf(buf, n, "tensor<%sx%s>", shape_str(t, s, sizeof s),
			 dtype_names[t->dt]);
	return buf;
}

bool
same_shape(const Tensor *a, const Tensor *b)
{
	if (a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

int
shape_mismatch(Run *r, Loc loc, const Operand *a, const Tensor *ta,
	       const Operand *b, const Tensor *tb)
{
	char sa[256], sb[256];

	return diag_set(r->d, loc, "shape mismatch: %%%s is %s but %%%s is %s",
			oname(a), shape_str(ta, sa, sizeof sa), oname(b),
			shape_str(tb, sb, sizeof sb));
}

/* Does a run-time tensor fit a declared type (`?` takes any size)? */
static bool
fits(const Tensor *t, const Type *ty)
{
	if (ty->kind == TY_FUTURE || t->dt != ty->dt ||
	    t->rank != type_rank(ty))
		return false;
	for (int i = 0; i < t->rank; i++)
		if (ty->dims[i] != DIM_DYN && ty->dims[i] != t->dims[i])
			return false;
	return true;
}

/* "WHAT is TYPE, expected TYPE" unless t fits ty (WHAT formatted only
 * then: every call checks its arguments and results). */
int
check_fits(Run *r, Loc loc, const Tensor *t, const Type *ty,
	   const char *fmt, ...)
{
	char got[300], want[300], what[300];
	va_list ap;

	if (fits(t, ty))
		return 0;
	va_start(ap, fmt);
	fmt_vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return diag_set(r->d, loc, "%s is %s, expected %s", what,
			tensor_type_str(t, ty->kind == TY_SCALAR, got, sizeof got),
			type_str(ty, want, sizeof want));
}

/*
 * The shape of an elementwise result of rank `rank`: every operand of
 * that rank must have the same shape; rank-0 operands broadcast.
 */
int
ew_shape(Frame *f, const Op *op, const Tensor *const *ts,
	 const Operand *const *os, int n, int rank, int64_t *dims)
{
	int first = -1;

	for (int k = 0; k < n; k++) {
		if (!ts[k] || (ts[k]->rank == 0 && rank > 0))
			continue;
		if (first < 0)
			first = k;
		if (ts[k]->rank != rank || !same_shape(ts[k], ts[first]))
			return shape_mismatch(f->run, op->loc, os[first],
					      ts[first], os[k], ts[k]);
	}
	for (int i = 0; i < rank; i++) {
		dims[i] = first < 0 ? op->type->dims[i] : ts[first]->dims[i];
		if (dims[i] < 0)
			return diag_set(f->run->d, op->loc,
					"the result shape is unknown");
	}
	return 0;
}

