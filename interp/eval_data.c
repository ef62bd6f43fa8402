/*
 * eval_data.c: the reference interpreter's data forms, one function per
 * form (const, elementwise, matmul, slices, ...), and the poison
 * (definedness) rule of each.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eval.h"

/* ------------------------------------------------------------ poison */

/* Elementwise: out[i] is defined when every input element it reads is
 * (a rank-0 input is read by every element). */
static int
def_elementwise(Run *r, Loc loc, Tensor *t, const Tensor *a,
		const Tensor *b)
{
	const Tensor *in[2] = {a, b};

	if (!(a && a->def) && !(b && b->def))
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	for (int k = 0; k < 2; k++) {
		bool bc;

		if (!in[k] || !in[k]->def)
			continue;
		bc = in[k]->rank != t->rank;
		for (int64_t i = 0; i < t->n; i++)
			if (!in[k]->def[bc ? 0 : i])
				t->def[i] = 0;
	}
	def_settle(t);
	return 0;
}

/* matmul: r[i,j] is undefined when c[i,j], a[i,:] or b[:,j] is. */
static int
def_matmul(Run *r, Loc loc, Tensor *t, const Tensor *a, const Tensor *b)
{
	int64_t m = a->dims[0], k = a->dims[1], n = b->dims[1];
	uint8_t *bad;

	if (!a->def && !b->def)
		return 0;
	if (!(bad = mem_calloc((size_t)(m + n ? m + n : 1), 1)))
		return oom(r, loc);
	for (int64_t i = 0; i < m * k && a->def; i++)
		if (!a->def[i])
			bad[i / k] = 1;
	for (int64_t i = 0; i < k * n && b->def; i++)
		if (!b->def[i])
			bad[m + i % n] = 1;
	if (def_ensure(r, loc, t, 1) < 0) {
		mem_free(bad);
		return -1;
	}
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++)
			if (bad[i] || bad[m + j])
				t->def[i * n + j] = 0;
	mem_free(bad);
	def_settle(t);
	return 0;
}

/* reduce: out[j] is undefined when d[j] or any element folded into it is. */
static int
def_reduce(Run *r, Loc loc, Tensor *t, const Tensor *a, const int *dims,
	   int ndims)
{
	int64_t ost[MAXRANK], idx[MAXRANK] = {0}, s = 1;
	bool folded[MAXRANK] = {false};

	if (!a->def)
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	for (int k = 0; k < ndims; k++)
		folded[dims[k]] = true;
	/* ost[i]: the stride of a's dim i in the result (0 when folded) */
	for (int i = a->rank - 1; i >= 0; i--) {
		ost[i] = folded[i] || !a->n ? 0 : s;
		if (!folded[i] && a->n) /* (no element: the product may not fit) */
			s *= a->dims[i];
	}
	for (int64_t i = 0; i < a->n; i++) {
		if (!a->def[i]) {
			int64_t oi = 0;

			for (int j = 0; j < a->rank; j++)
				oi += idx[j] * ost[j];
			t->def[oi] = 0;
		}
		for (int j = a->rank - 1; j >= 0 && ++idx[j] == a->dims[j]; j--)
			idx[j] = 0;
	}
	def_settle(t);
	return 0;
}

/* --------------------------------------------------- one op per form */

int
eval_const(Frame *f, const Op *op)
{
	const ConstData *c = &op->cdata;
	const Type *ty = op->type;
	Tensor *t = t_new(f->run, op->loc, ty->dt, type_rank(ty), ty->dims);

	if (!t)
		return -1;
	if (c->splat || c->n == 1) {
		Lit l;
		View vo = view_of(t), vl;

		lit_init(&l, ty->dt);
		const_put(&l.t, 0, c, 0);
		vl = view_of(&l.t);
		k_fill(&vo, &vl);
	} else {
		for (int64_t i = 0; i < t->n && i < c->n; i++)
			const_put(t, i, c, i);
	}
	return bind_new(f, op, 0, t);
}

int
op_dims(Frame *f, const Op *op, int64_t *dims)
{
	const Type *ty = op->type;
	int rank = type_rank(ty), k = 0;

	for (int i = 0; i < rank; i++) {
		dims[i] = ty->dims[i];
		if (dims[i] != DIM_DYN)
			continue;
		if (k >= op->nargs)
			return diag_set(f->run->d, op->loc,
					"%s needs a size for dim %d",
					op_info[op->kind].name, i);
		if (read_int(f, op, &op->args[k], "dimension", &dims[i]) < 0)
			return -1;
		if (dims[i] < 0)
			return diag_set(f->run->d, oploc(&op->args[k], op),
					"dimension %%%s is %lld, must be >= 0",
					oname(&op->args[k]), (long long)dims[i]);
		k++;
	}
	return 0;
}

int
eval_empty(Frame *f, const Op *op)
{
	const Type *ty = op->type;
	int64_t dims[MAXRANK];
	Tensor *t;

	if (op_dims(f, op, dims) < 0)
		return -1;
	if (!(t = t_new(f->run, op->loc, ty->dt, type_rank(ty), dims)))
		return -1;
	if (def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* binary and unary elementwise ops (b NULL for unary) */
static int
eval_elementwise(Frame *f, const Op *op, bool binary)
{
	DType dt = op->type->dt;
	Lit la, lb;
	const Tensor *a = operand(f, &op->args[0], dt, &la);
	const Tensor *b = binary ? operand(f, &op->args[1], dt, &lb) : NULL;
	const Tensor *d = op->hasdest ? lookup(f, op->dest.v)->t : NULL;
	const Tensor *ts[3] = {a, b, d};
	const Operand *os[3] = {&op->args[0], binary ? &op->args[1] : NULL,
				&op->dest};
	int64_t dims[MAXRANK];
	int rank = type_rank(op->type);
	Tensor *t;
	View vo, va, vb;

	if (ew_shape(f, op, ts, os, 3, rank, dims) < 0)
		return -1;
	if (!(t = t_new_raw(f->run, op->loc, dt, rank, dims)))
		return -1;
	vo = view_of(t);
	va = bcast_view(a, t);
	if (binary) {
		vb = bcast_view(b, t);
		k_binary(op_info[op->kind].ew, &vo, &va, &vb);
	} else {
		k_unary(op_info[op->kind].ew, &vo, &va);
	}
	if (def_elementwise(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

int
eval_binary(Frame *f, const Op *op)
{
	return eval_elementwise(f, op, true);
}

int
eval_unary(Frame *f, const Op *op)
{
	return eval_elementwise(f, op, false);
}

int
eval_cmp(Frame *f, const Op *op)
{
	DType dt = op->type->dt;
	Lit la, lb;
	const Tensor *a = operand(f, &op->args[0], dt, &la);
	const Tensor *b = operand(f, &op->args[1], dt, &lb);
	Tensor *t = t_new(f->run, op->loc, DT_I1, 0, NULL);
	View vo, va, vb;

	if (!t)
		return -1;
	vo = view_of(t);
	va = view_of(a);
	vb = view_of(b);
	k_cmp(op_info[op->kind].ew, &vo, &va, &vb);
	if (def_elementwise(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

int
eval_fill(Frame *f, const Op *op)
{
	Lit l;
	const Tensor *v = operand(f, &op->args[0], op->type->dt, &l);
	const Tensor *d = lookup(f, op->dest.v)->t;
	Tensor *t = t_new_raw(f->run, op->loc, op->type->dt, d->rank, d->dims);
	View vo, vv;

	if (!t)
		return -1;
	vo = view_of(t);
	vv = view_of(v);
	k_fill(&vo, &vv);
	if (!tensor_defined(v, 0) && def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

int
eval_matmul(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *b = lookup(f, op->args[1].v)->t;
	const Tensor *c = lookup(f, op->dest.v)->t;
	char sa[256], sb[256], sc[256];
	Tensor *t;
	View vo, va, vb;

	if (a->rank != 2 || b->rank != 2 || c->rank != 2 ||
	    a->dims[1] != b->dims[0] || c->dims[0] != a->dims[0] ||
	    c->dims[1] != b->dims[1])
		return diag_set(f->run->d, op->loc,
				"matmul shape mismatch: %%%s is %s, %%%s is %s, "
				"%%%s is %s", oname(&op->args[0]),
				shape_str(a, sa, sizeof sa), oname(&op->args[1]),
				shape_str(b, sb, sizeof sb), oname(&op->dest),
				shape_str(c, sc, sizeof sc));
	if (charge(f->run, op->loc, work_mul(work_mul(a->dims[0], a->dims[1]),
					     b->dims[1])) < 0 ||
	    !(t = t_dup(f->run, op->loc, c)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	vb = view_of(b);
	if (k_matmul(&vo, &va, &vb) != 0) {
		t_free(f->run, t);
		return oom(f->run, op->loc);
	}
	if (def_matmul(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

int
eval_transpose(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	Tensor *t;
	View vo, va;

	if (a->rank != d->rank || op->nperm != a->rank)
		return shape_mismatch(f->run, op->loc, &op->args[0], a,
				      &op->dest, d);
	for (int j = 0; j < a->rank; j++)
		if (a->dims[op->perm[j]] != d->dims[j])
			return shape_mismatch(f->run, op->loc, &op->args[0],
					      a, &op->dest, d);
	if (!(t = t_new_raw(f->run, op->loc, a->dt, d->rank, d->dims)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	k_transpose(&vo, &va, op->perm);
	if (a->def) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		vo = whole_view(t, true);
		va = whole_view(a, true);
		k_transpose(&vo, &va, op->perm);
	}
	return bind_new(f, op, 0, t);
}

int
eval_reduce(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	bool folded[MAXRANK] = {false};
	int j = 0;
	Tensor *t;
	View vo, va;

	for (int k = 0; k < op->nperm; k++)
		folded[op->perm[k]] = true;
	for (int i = 0; i < a->rank; i++) {
		if (folded[i])
			continue;
		if (j >= d->rank || a->dims[i] != d->dims[j])
			return shape_mismatch(f->run, op->loc, &op->args[0],
					      a, &op->dest, d);
		j++;
	}
	if (j != d->rank)
		return shape_mismatch(f->run, op->loc, &op->args[0], a,
				      &op->dest, d);
	if (charge(f->run, op->loc, a->n) < 0 ||
	    !(t = t_dup(f->run, op->loc, d)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	k_reduce(op_info[op->kind].ew, &vo, &va, op->perm, op->nperm);
	if (def_reduce(f->run, op->loc, t, a, op->perm, op->nperm) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* Read a slice's offsets and check that it lies inside t (the value of
 * operand of). */
int
slice_offsets(Frame *f, const Op *op, const Tensor *t, const Operand *of,
	      int64_t *offs)
{
	const char *name = op_info[op->kind].name;

	if (op->noffs != t->rank)
		return diag_set(f->run->d, op->loc,
				"%s has %d offsets for %%%s of rank %d", name,
				op->noffs, oname(of), t->rank);
	for (int i = 0; i < t->rank; i++) {
		const Operand *o = &op->offs[i];
		int64_t off, sz = op->sizes[i], st = op->strides[i];
		int64_t dim = t->dims[i];

		if (read_int(f, op, o, "offset", &off) < 0)
			return -1;
		if (st < 1)
			return diag_set(f->run->d, op->loc,
					"%s stride %lld must be >= 1", name,
					(long long)st);
		if (off < 0)
			return diag_set(f->run->d, oploc(o, op),
					"%s out of bounds: offset %lld is "
					"negative in dim %d of %%%s", name,
					(long long)off, i, oname(of));
		if (sz > 0 ? off >= dim || sz - 1 > (dim - 1 - off) / st
			   : off > dim)
			return diag_set(f->run->d, oploc(o, op),
					"%s out of bounds: offset %lld + (size "
					"%lld - 1) * stride %lld exceeds dim "
					"%lld of %%%s", name, (long long)off,
					(long long)sz, (long long)st,
					(long long)dim, oname(of));
		offs[i] = off;
	}
	return 0;
}

int
eval_extract_slice(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	int64_t offs[MAXRANK];
	Tensor *t;
	View vo, vs;

	if (slice_offsets(f, op, a, &op->args[0], offs) < 0)
		return -1;
	if (!(t = t_new_raw(f->run, op->loc, a->dt, a->rank, op->sizes)))
		return -1;
	vo = view_of(t);
	vs = sub_view(a, false, offs, op->sizes, op->strides);
	k_copy(&vo, &vs);
	if (a->def) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		vo = whole_view(t, true);
		vs = sub_view(a, true, offs, op->sizes, op->strides);
		k_copy(&vo, &vs);
		def_settle(t);
	}
	return bind_new(f, op, 0, t);
}

/* The slice's poison in t: s's def bytes, or all defined. */
int
def_insert_slice(Run *r, Loc loc, Tensor *t, const Tensor *s,
		 const int64_t *offs, const Op *op)
{
	View vd;

	if (!t->def && !s->def)
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	vd = sub_view(t, true, offs, op->sizes, op->strides);
	if (s->def) {
		View vs = whole_view(s, true);

		k_copy(&vd, &vs);
	} else {
		Lit one;
		View vl;

		lit_init(&one, DT_I1);
		tensor_seti(&one.t, 0, 1);
		vl = view_of(&one.t);
		k_fill(&vd, &vl);
	}
	def_settle(t);
	return 0;
}

int
eval_insert_slice(Frame *f, const Op *op)
{
	const Tensor *s = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	int64_t offs[MAXRANK];
	char ss[256], sz[256];
	Tensor *t;
	View vo, vs;

	if (slice_offsets(f, op, d, &op->dest, offs) < 0)
		return -1;
	for (int i = 0; i < s->rank || i < d->rank; i++)
		if (s->rank != d->rank || s->dims[i] != op->sizes[i]) {
			Tensor sl = {.rank = d->rank};

			memcpy(sl.dims, op->sizes, sizeof sl.dims);
			return diag_set(f->run->d, op->loc,
					"shape mismatch: %%%s is %s but the "
					"slice is %s", oname(&op->args[0]),
					shape_str(s, ss, sizeof ss),
					shape_str(&sl, sz, sizeof sz));
		}
	if (!(t = t_dup(f->run, op->loc, d)))
		return -1;
	vo = sub_view(t, false, offs, op->sizes, op->strides);
	vs = view_of(s);
	k_copy(&vo, &vs);
	if (def_insert_slice(f->run, op->loc, t, s, offs, op) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* The row-major position of the element op's indices name in t. */
static int
elem_index(Frame *f, const Op *op, const Tensor *t, const Operand *of,
	   int64_t *li)
{
	*li = 0;
	if (op->noffs != t->rank)
		return diag_set(f->run->d, op->loc,
				"%s has %d indices for %%%s of rank %d",
				op_info[op->kind].name, op->noffs, oname(of),
				t->rank);
	for (int i = 0; i < t->rank; i++) {
		const Operand *o = &op->offs[i];
		int64_t x;

		if (read_int(f, op, o, "index", &x) < 0)
			return -1;
		if (x < 0 || x >= t->dims[i])
			return diag_set(f->run->d, oploc(o, op),
					"index %lld out of bounds for dim %d of "
					"size %lld", (long long)x, i,
					(long long)t->dims[i]);
		*li = *li * t->dims[i] + x;
	}
	return 0;
}

int
eval_extract(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	int64_t li;
	Tensor *t;
	View vo, va;

	if (elem_index(f, op, a, &op->args[0], &li) < 0)
		return -1;
	if (!(t = t_new(f->run, op->loc, a->dt, 0, NULL)))
		return -1;
	vo = view_of(t);
	va = elem_view(a, false, li);
	k_copy(&vo, &va);
	if (!tensor_defined(a, li) && def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

int
eval_insert(Frame *f, const Op *op)
{
	Lit l;
	const Tensor *v = operand(f, &op->args[0], op->type->dt, &l);
	const Tensor *a = lookup(f, op->dest.v)->t;
	int64_t li;
	Tensor *t;
	View vo, vv;

	if (elem_index(f, op, a, &op->dest, &li) < 0)
		return -1;
	if (!(t = t_dup(f->run, op->loc, a)))
		return -1;
	vo = elem_view(t, false, li);
	vv = view_of(v);
	k_copy(&vo, &vv);
	if (!tensor_defined(v, 0)) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		t->def[li] = 0;
	} else if (t->def) {
		t->def[li] = 1;
		def_settle(t);
	}
	return bind_new(f, op, 0, t);
}

/* copy: the same value as %a, so the same tensor. */
int
eval_copy(Frame *f, const Op *op)
{
	Box *a = lookup(f, op->args[0].v);
	const Tensor *d = lookup(f, op->dest.v)->t;

	if (!same_shape(a->t, d))
		return shape_mismatch(f->run, op->loc, &op->args[0], a->t,
				      &op->dest, d);
	bind(f, op->res[0], box_ref(a));
	return 0;
}

/* clone: a real copy, as the op promises a fresh buffer. */
int
eval_clone(Frame *f, const Op *op)
{
	Tensor *t = t_dup(f->run, op->loc, lookup(f, op->args[0].v)->t);

	return t ? bind_new(f, op, 0, t) : -1;
}

/* select: the value chosen, the same tensor (value semantics); an
 * undefined condition stops the run, as a branch on it does. */
int
eval_select(Frame *f, const Op *op)
{
	const Operand *c = &op->args[0];
	Lit l;
	const Tensor *ct = operand(f, c, DT_I1, &l);

	if (!tensor_defined(ct, 0))
		return diag_set(f->run->d, oploc(c, op),
				"select on undefined value %%%s", oname(c));
	bind(f, op->res[0], box_ref(lookup(f, op->args[tensor_geti(ct, 0) ? 1
									  : 2].v)));
	return 0;
}

/* from_elements: element i from operand i, its poison with it. */
int
eval_from_elements(Frame *f, const Op *op)
{
	Tensor *t = t_new(f->run, op->loc, op->type->dt, op->type->rank,
			  op->type->dims);

	if (!t)
		return -1;
	for (int i = 0; i < op->nargs; i++) {
		Lit l;
		const Tensor *e = operand(f, &op->args[i], t->dt, &l);
		View vo = elem_view(t, false, i), ve = view_of(e);

		k_copy(&vo, &ve);
		if (!tensor_defined(e, 0)) {
			if (def_ensure(f->run, op->loc, t, 1) < 0) {
				t_free(f->run, t);
				return -1;
			}
			t->def[i] = 0;
		}
	}
	return bind_new(f, op, 0, t);
}

/* collapse_shape/expand_shape: the same row-major payload, new dims. */
int
eval_reshape(Frame *f, const Op *op)
{
	Tensor *t = t_dup(f->run, op->loc, lookup(f, op->args[0].v)->t);

	if (!t)
		return -1;
	t->rank = op->type->rank;
	for (int d = 0; d < t->rank; d++)
		t->dims[d] = op->type->dims[d];
	return bind_new(f, op, 0, t);
}

