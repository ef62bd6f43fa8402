/*
 * gen_tensor.c: the straight-line ops of a generated program (elementwise,
 * scalar, matmul, transpose/reduce, slices, elements, copies, from_elements,
 * reshapes), and the filled tensors they make when no operand fits.
 */
#include <stdio.h>

#include "gen_impl.h"

static int
numel(const GV *v)
{
	int n = 1;

	for (int d = 0; d < v->rank; d++)
		n *= v->dims[d];
	return n;
}

/* ---- making values of a wanted type */

/* %e = empty ; %v = fill LIT into %e (or a splat constant): a defined
 * tensor of type t.  Dynamic dims are sized by index constants. */
static GV *
make_filled(G *g, const GV *t)
{
	char tb[64], lb[32], sizes[64] = "";
	int e = g->sh->names++;
	GV *v, en;

	if (!t->dyn && gen_chance(g, 25)) {
		v = gen_new_value(g, t, "v");
		gen_literal(g, t->dt, lb, sizeof lb);
		gen_line(g, "%%%s = const dense<%s> : %s", v->name, lb,
			 gen_ty(t, tb, sizeof tb));
		if (GEN_BUILD(g))
			gb_const(g, v, lb);
		++g->sh->ops;
		return v;
	}
	for (int d = 0; d < t->rank; d++)
		if (t->dyn >> d & 1) {
			size_t k = strlen(sizes);
			char kn[16];
			fmt_snprintf(kn, sizeof kn, "k%d_%d", e, d);
			gen_line(g, "%%%s = const %d : index", kn, t->dims[d]);
			if (GEN_BUILD(g))
				gb_const_index(g, kn, t->dims[d]);
			fmt_snprintf(sizes + k, sizeof sizes - k, "%s%%%s",
				 k ? ", " : "(", kn);
			++g->sh->ops;
		}
	if (t->dyn)
		strcat(sizes, ")");
	en = *t;
	gen_name_int(en.name, sizeof en.name, "e", e);
	gen_line(g, "%%%s = empty%s : %s", en.name, sizes, gen_ty(t, tb, sizeof tb));
	if (GEN_BUILD(g)) {
		Op *op = gb_basic(g, OP_EMPTY, &en, t, NULL, 0, NULL);
		if (t->dyn) {
			sizes[strlen(sizes) - 1] = 0;
			op->nargs = gb_list(g, sizes + 1, &op->args);
		}
	}
	v = gen_new_value(g, t, "v");
	gen_scalar_operand(g, t->dt, 20, lb, sizeof lb);
	gen_line(g, "%%%s = fill %s into %%%s : %s", v->name, lb, en.name, tb);
	if (GEN_BUILD(g))
		gb_basic(g, OP_FILL, v, t, (const char *[]){lb}, 1, en.name);
	g->sh->ops += 2;
	return v;
}

static GV *
get_or_make(G *g, const GV *t, const GV *not)
{
	GV *v = gen_chance(g, 85) ? gen_find(g, t, not) : NULL;

	return v ? v : make_filled(g, t);
}

/* ---- ops */

/* An elementwise op of form `form` drawn for a tensor (where = G_TENSOR)
 * or a scalar (G_SCALAR) of dtype dt: from the EW rows of ops.h with that
 * gen flag, in slot order; integers skip G_NOINT rows and those whose
 * rule wants floats. */
OpKind
gen_draw_ew(G *g, Form form, int where, DType dt)
{
	OpKind c[OP_COUNT];
	int n = 0;

	for (int k = 0; k < OP_COUNT; k++) {
		const EwInfo *w = &ew_info[k];
		int j = n;

		if (op_info[k].form != form || !(w->gen & where) ||
		    !ew_allows((OpKind)k, dt) ||
		    ((w->gen & G_NOINT) && !dtype_is_float(dt)))
			continue;
		for (; j > 0 && ew_info[c[j - 1]].slot > w->slot; j--)
			c[j] = c[j - 1];
		c[j] = (OpKind)k;
		n++;
	}
	if (!n)
		ir_bug("no %s op to draw on %s", where == G_TENSOR ? "tensor" :
		       "scalar", dtype_names[dt]);
	return c[gen_pick(g, n)];
}

void
gen_elementwise(G *g)
{
	GV *a = gen_any_tensor(g, 0), *v, *b, *d = NULL, at;
	char tb[64], second[32], dn[24] = "";
	const char *name;
	OpKind k;
	int r;

	if (!a)
		return;
	at = *a;
	if (gen_chance(g, 20))
		d = gen_find(g, a, NULL);
	if (d)
		fmt_snprintf(dn, sizeof dn, " into %%%s", d->name);
	if (gen_chance(g, 25)) {
		k = gen_draw_ew(g, F_UNARY, G_TENSOR, at.dt);
		v = gen_new_value(g, &at, "v");
		gen_line(g, "%%%s = %s %%%s%s : %s", v->name, op_info[k].name,
			 at.name, dn, gen_ty(&at, tb, sizeof tb));
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){at.name}, 1,
				 d ? d->name : NULL);
		++g->sh->ops;
		return;
	}
	r = gen_pick(g, 100);
	b = r < 50 ? gen_find(g, &at, NULL) : NULL;
	if (b)
		fmt_snprintf(second, sizeof second, "%%%s", b->name);
	else
		gen_scalar_operand(g, at.dt, r < 80 ? 100 : 0, second, sizeof second);
	if (second[0] == '%' && !b)
		gen_count(g, GC_BROADCAST);
	k = gen_draw_ew(g, F_BINARY, G_TENSOR, at.dt);
	name = op_info[k].name;
	v = gen_new_value(g, &at, "v");
	if (!b && gen_chance(g, 30)) { /* the scalar or literal first */
		gen_line(g, "%%%s = %s %s, %%%s%s : %s", v->name, name, second,
			 at.name, dn, gen_ty(&at, tb, sizeof tb));
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){second, at.name},
				 2, d ? d->name : NULL);
	} else {
		gen_line(g, "%%%s = %s %%%s, %s%s : %s", v->name, name, at.name,
			 second, dn, gen_ty(&at, tb, sizeof tb));
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){at.name, second},
				 2, d ? d->name : NULL);
	}
	++g->sh->ops;
}

/* Arithmetic and compares on scalars (extracted elements). */
void
gen_scalar(G *g)
{
	GV *a = gen_any_scalar(g, DT_COUNT), *v, at, i1;
	char second[32];
	int r = gen_pick(g, 100);

	if (!a) {
		gen_element(g); /* an extract now and then */
		return;
	}
	at = *a;
	if (r < 25) {
		OpKind k = gen_draw_ew(g, F_CMP, G_SCALAR, at.dt);
		gen_scalar_operand(g, at.dt, 50, second, sizeof second);
		i1 = at;
		i1.dt = DT_I1;
		v = gen_new_value(g, &i1, "s");
		gen_line(g, "%%%s = %s %%%s, %s : %s", v->name, op_info[k].name,
			 at.name, second, dtype_names[at.dt]);
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){at.name, second},
				 2, NULL);
	} else if (r < 40) {
		OpKind k = gen_draw_ew(g, F_UNARY, G_SCALAR, at.dt);
		v = gen_new_value(g, &at, "s");
		gen_line(g, "%%%s = %s %%%s : %s", v->name, op_info[k].name,
			 at.name, dtype_names[at.dt]);
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){at.name}, 1, NULL);
	} else {
		OpKind k = gen_draw_ew(g, F_BINARY, G_SCALAR, at.dt);
		gen_scalar_operand(g, at.dt, 50, second, sizeof second);
		v = gen_new_value(g, &at, "s");
		gen_line(g, "%%%s = %s %%%s, %s : %s", v->name, op_info[k].name,
			 at.name, second, dtype_names[at.dt]);
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &at, (const char *[]){at.name, second},
				 2, NULL);
	}
	gen_count(g, GC_SCALAR_ARITH);
	++g->sh->ops;
}

void
gen_matmul(G *g)
{
	int m = 2 << gen_pick(g, 2), k = 2 << gen_pick(g, 2),
	    n = 2 << gen_pick(g, 2);
	GV ta = gen_tensor_type(g->dt, 2, (int[]){m, k});
	GV tb = gen_tensor_type(g->dt, 2, (int[]){k, n});
	GV tc = gen_tensor_type(g->dt, 2, (int[]){m, n});
	GV *a = get_or_make(g, &ta, NULL), *b = get_or_make(g, &tb, a);
	GV *c = get_or_make(g, &tc, NULL), *v;
	char s[64];

	v = gen_new_value(g, &tc, "v");
	gen_line(g, "%%%s = matmul %%%s, %%%s into %%%s : %s", v->name, a->name,
		 b->name, c->name, gen_ty(&tc, s, sizeof s));
	if (GEN_BUILD(g))
		gb_basic(g, OP_MATMUL, v, &tc, (const char *[]){a->name, b->name},
			 2, c->name);
	++g->sh->ops;
}

static void
gen_transpose(G *g, const GV *a)
{
	static const int perms3[5][3] = {{0, 2, 1}, {1, 0, 2}, {1, 2, 0},
					 {2, 0, 1}, {2, 1, 0}};
	int p[MAXR] = {1, 0, 0};
	GV t = *a, *d, *v;
	char s[64], ps[32];

	if (a->rank == 3)
		for (int j = 0, k = gen_pick(g, 5); j < 3; j++)
			p[j] = perms3[k][j];
	t.dyn = 0;
	for (int j = 0; j < a->rank; j++) {
		t.dims[j] = a->dims[p[j]];
		t.dyn |= (a->dyn >> p[j] & 1u) << j;
	}
	d = get_or_make(g, &t, NULL);
	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = transpose %%%s [%s] into %%%s : %s", v->name,
		 a->name, gen_int_list(p, a->rank, ps, sizeof ps), d->name,
		 gen_ty(&t, s, sizeof s));
	if (GEN_BUILD(g))
		gb_dims(g, gb_basic(g, OP_TRANSPOSE, v, &t,
				    (const char *[]){a->name}, 1, d->name),
			p, a->rank);
}

/* reduce over a nonempty set of dims: rank 0 when all are listed. */
static void
gen_reduce(G *g, const GV *a)
{
	int mask = 1 + gen_pick(g, (1 << a->rank) - 1), ds[MAXR], nd = 0;
	GV t = gen_tensor_type(a->dt, 0, NULL), *d, *v;
	char s[64], dl[32];
	bool sum;

	for (int j = 0; j < a->rank; j++) {
		if (mask >> j & 1) {
			ds[nd++] = j;
			continue;
		}
		t.dyn |= (a->dyn >> j & 1u) << t.rank;
		t.dims[t.rank++] = a->dims[j];
	}
	d = get_or_make(g, &t, NULL);
	v = gen_new_value(g, &t, "v");
	sum = gen_chance(g, 50);
	gen_line(g, "%%%s = reduce.%s %%%s [%s] into %%%s : %s", v->name,
		 sum ? "sum" : "max", a->name, gen_int_list(ds, nd, dl, sizeof dl),
		 d->name, gen_ty(&t, s, sizeof s));
	if (GEN_BUILD(g))
		gb_dims(g, gb_basic(g, sum ? OP_REDUCE_SUM : OP_REDUCE_MAX, v,
				    &t, (const char *[]){a->name}, 1, d->name),
			ds, nd);
}

void
gen_transpose_reduce(G *g)
{
	GV *a = gen_any_tensor(g, T_RANKED), at;

	if (!a)
		return;
	at = *a;
	if (at.rank >= 2 && gen_chance(g, 50))
		gen_transpose(g, &at);
	else
		gen_reduce(g, &at);
	++g->sh->ops;
}

/* An offset for a slice of `size` with `stride` in a dim of `dim`: a loop
 * iv when every trip stays in bounds, else a literal. */
static void
slice_offset(G *g, int dim, int size, int stride, char *buf, size_t n)
{
	int room = dim - 1 - (size - 1) * stride;

	if (g->nloops && gen_chance(g, 40)) {
		const Loop *l = gen_loop_below(g, room + 1);
		if (l) {
			fmt_snprintf(buf, n, "%%%s", l->iv);
			return;
		}
	}
	fmt_snprintf(buf, n, "%d", room > 0 ? gen_pick(g, room + 1) : 0);
}

/* "[o...] [s...] [t...]" */
static void
slice_text(char offs[][24], const int *size, const int *stride, int rank,
	   char *buf, size_t n)
{
	char sz[32], st[32];
	int k = fmt_snprintf(buf, n, "[");

	for (int d = 0; d < rank; d++)
		k += fmt_snprintf(buf + k, n - (size_t)k, "%s%s", d ? ", " : "", offs[d]);
	fmt_snprintf(buf + k, n - (size_t)k, "] [%s] [%s]", gen_int_list(size, rank, sz, sizeof sz),
		 gen_int_list(stride, rank, st, sizeof st));
}

void
gen_extract_slice(G *g)
{
	GV *a = gen_any_tensor(g, T_RANKED), *v, t, at;
	char offs[MAXR][24], s[64], sl[128];
	int size[MAXR], stride[MAXR];

	if (!a)
		return;
	at = *a;
	t = at;
	t.dyn = 0;
	for (int d = 0; d < at.rank; d++) {
		stride[d] = gen_chance(g, 30) && at.dims[d] >= 3 ? 2 : 1;
		size[d] = 1 + gen_pick(g, (at.dims[d] - 1) / stride[d] + 1);
		slice_offset(g, at.dims[d], size[d], stride[d], offs[d], sizeof offs[d]);
		t.dims[d] = size[d];
	}
	if (!g->sh->notext)
		slice_text(offs, size, stride, at.rank, sl, sizeof sl);
	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = extract_slice %%%s%s : %s", v->name, at.name, sl,
		 gen_ty(&t, s, sizeof s));
	if (GEN_BUILD(g))
		gb_slice(g, gb_basic(g, OP_EXTRACT_SLICE, v, &t,
				     (const char *[]){at.name}, 1, NULL),
			 offs, size, stride, at.rank);
	++g->sh->ops;
}

void
gen_insert_slice(G *g)
{
	GV *d = gen_any_tensor(g, T_RANKED), *src, *v, dt;
	char offs[MAXR][24], s[64], sl[128];
	int idx[MAXV], n = 0, size[MAXR], stride[MAXR];
	bool strided = false;

	if (!d)
		return;
	dt = *d;
	for (int i = 0; i < g->nv; i++) {
		GV *c = &g->v[i];
		bool ok = !c->scalar && !c->dyn && c->rank == dt.rank &&
			  c->dt == dt.dt && c != d;
		for (int k = 0; ok && k < dt.rank; k++)
			ok = c->dims[k] <= dt.dims[k];
		if (ok)
			idx[n++] = i;
	}
	if (!n)
		return;
	src = &g->v[idx[n - 1 - gen_pick(g, n)]];
	for (int k = 0; k < dt.rank; k++) {
		size[k] = src->dims[k];
		stride[k] = 2 * size[k] - 1 <= dt.dims[k] && size[k] > 1 &&
			    gen_chance(g, 50) ? 2 : 1;
		strided |= stride[k] > 1;
		slice_offset(g, dt.dims[k], size[k], stride[k], offs[k], sizeof offs[k]);
	}
	if (strided)
		gen_count(g, GC_STRIDED_INSERT);
	if (!g->sh->notext)
		slice_text(offs, size, stride, dt.rank, sl, sizeof sl);
	v = gen_new_value(g, &dt, "v");
	gen_line(g, "%%%s = insert_slice %%%s into %%%s%s : %s", v->name,
		 src->name, dt.name, sl, gen_ty(&dt, s, sizeof s));
	if (GEN_BUILD(g))
		gb_slice(g, gb_basic(g, OP_INSERT_SLICE, v, &dt,
				     (const char *[]){src->name}, 1, dt.name),
			 offs, size, stride, dt.rank);
	++g->sh->ops;
}

/* One index per dim, now and then a dynamic one (%n or a loop's iv) that
 * stays in bounds: "i, j, k". */
void
gen_element_index(G *g, const GV *a, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (int d = 0; d < a->rank; d++) {
		const Loop *l = NULL;
		bool use_n = false;
		if (gen_chance(g, 25)) {
			l = gen_loop_below(g, a->dims[d]);
			use_n = !l && a->dims[d] >= 4;
		}
		if (l || use_n)
			gen_count(g, GC_DYN_INDEX);
		if (l)
			k += (size_t)fmt_snprintf(buf + k, n - k, "%s%%%s", d ? ", " : "", l->iv);
		else if (use_n)
			k += (size_t)fmt_snprintf(buf + k, n - k, "%s%%n", d ? ", " : "");
		else
			k += (size_t)fmt_snprintf(buf + k, n - k, "%s%d", d ? ", " : "",
					      gen_pick(g, a->dims[d]));
	}
}

void
gen_element(G *g)
{
	GV *a = gen_any_tensor(g, 0), *v, sc, at;
	char idx[64], s[64], val[32];

	if (!a)
		return;
	at = *a;
	gen_element_index(g, &at, idx, sizeof idx);
	if (gen_chance(g, 50)) {
		sc = at;
		sc.scalar = true;
		v = gen_new_value(g, &sc, "s");
		gen_line(g, "%%%s = extract %%%s[%s] : %s", v->name, at.name,
			 idx, dtype_names[at.dt]);
		if (GEN_BUILD(g))
			gb_extract(g, v, at.name, idx);
	} else {
		gen_scalar_operand(g, at.dt, 50, val, sizeof val);
		v = gen_new_value(g, &at, "v");
		gen_line(g, "%%%s = insert %s into %%%s[%s] : %s", v->name, val,
			 at.name, idx, gen_ty(&at, s, sizeof s));
		if (GEN_BUILD(g))
			gb_insert(g, v, val, at.name, idx);
	}
	++g->sh->ops;
}

void
gen_copy(G *g)
{
	GV *a = gen_any_tensor(g, 0), *d, *v, at;
	char s[64], val[32];

	if (!a)
		return;
	at = *a;
	d = gen_chance(g, 50) && !GEN_TARGET(g, no_copy_into) ? gen_find(g, a, a)
							      : NULL;
	v = gen_new_value(g, &at, "v");
	if (d) {
		gen_line(g, "%%%s = copy %%%s into %%%s : %s", v->name, at.name, d->name,
			 gen_ty(&at, s, sizeof s));
		if (GEN_BUILD(g))
			gb_basic(g, OP_COPY, v, &at, (const char *[]){at.name}, 1,
				 d->name);
	} else if (gen_chance(g, 50)) {
		gen_line(g, "%%%s = clone %%%s : %s", v->name, at.name, gen_ty(&at, s, sizeof s));
		if (GEN_BUILD(g))
			gb_basic(g, OP_CLONE, v, &at, (const char *[]){at.name}, 1,
				 NULL);
	} else {
		gen_scalar_operand(g, at.dt, 20, val, sizeof val);
		gen_line(g, "%%%s = fill %s into %%%s : %s", v->name, val,
			 at.name, gen_ty(&at, s, sizeof s));
		if (GEN_BUILD(g))
			gb_basic(g, OP_FILL, v, &at, (const char *[]){val}, 1,
				 at.name);
	}
	++g->sh->ops;
}

static void
gen_from_elements(G *g, const GV *a)
{
	GV t = *a, *v;
	char s[64], val[32];
	int n = numel(a);
	Op *op = NULL;
	Operand ops[8];

	if (n > 8)
		return;
	if (gen_chance(g, 25)) /* of compares' results */
		t.dt = DT_I1;
	v = gen_new_value(g, &t, "v");
	if (GEN_BUILD(g))
		op = gb_basic(g, OP_FROM_ELEMENTS, v, &t, NULL, 0, NULL);
	if (!g->sh->notext)
		str_printf(g->out, "%*s%%%s = from_elements ", 2 * g->depth + 2, "",
			   v->name);
	for (int i = 0; i < n; i++) {
		gen_scalar_operand(g, t.dt, 50, val, sizeof val);
		if (!g->sh->notext)
			str_printf(g->out, "%s%s", i ? ", " : "", val);
		if (op)
			ops[i] = gb_opnd(g, val);
	}
	if (!g->sh->notext)
		str_printf(g->out, " : %s\n", gen_ty(&t, s, sizeof s));
	if (op) {
		op->args = arena_alloc(g->sh->gb->B.p->arena,
				       (size_t)n * sizeof *op->args);
		memcpy(op->args, ops, (size_t)n * sizeof *op->args);
		op->nargs = n;
	}
	++g->sh->ops;
}

/* collapse_shape / expand_shape: rank 2 -> 1, 3 -> 2 or 1, all-1 -> 0;
 * 0 -> 1, 1 -> 2, 2 -> 3 (views of views, of strided slices too). */
static void
gen_reshape(G *g, const GV *a)
{
	static const char *const groups3[] = {"[[0, 1], [2]]", "[[0], [1, 2]]",
					      "[[0, 1, 2]]"};
	GV t = *a, *v;
	const char *grp, *op = "collapse_shape";
	char s[64];
	int k;

	if (a->rank >= 1 && numel(a) == 1 && gen_chance(g, 30)) {
		t.rank = 0;
		grp = "[]";
	} else if (a->rank == 2) {
		t = gen_tensor_type(a->dt, 1, (int[]){numel(a)});
		grp = "[[0, 1]]";
	} else if (a->rank == 3) {
		k = gen_pick(g, 3);
		grp = groups3[k];
		t = k == 0 ? gen_tensor_type(a->dt, 2, (int[]){a->dims[0] * a->dims[1], a->dims[2]})
		    : k == 1 ? gen_tensor_type(a->dt, 2, (int[]){a->dims[0], a->dims[1] * a->dims[2]})
			     : gen_tensor_type(a->dt, 1, (int[]){numel(a)});
	} else if (a->rank == 0) {
		op = "expand_shape";
		t = gen_tensor_type(a->dt, 1, (int[]){1});
		grp = "[]";
	} else if (a->dims[0] % 2 == 0) {
		int d0 = gen_chance(g, 50) ? 2 : a->dims[0] / 2;
		op = "expand_shape";
		if (a->rank == 1) {
			t = gen_tensor_type(a->dt, 2,
					    (int[]){d0, a->dims[0] / d0});
			grp = "[[0, 1]]";
		} else {
			return;
		}
	} else {
		return;
	}
	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = %s %%%s %s : %s", v->name, op, a->name, grp,
		 gen_ty(&t, s, sizeof s));
	if (GEN_BUILD(g))
		gb_reassoc(g, gb_basic(g, strcmp(op, "expand_shape") ?
				       OP_COLLAPSE_SHAPE : OP_EXPAND_SHAPE, v,
				       &t, (const char *[]){a->name}, 1, NULL),
			   grp);
	++g->sh->ops;
}

/* A 2-D tensor with an even dim 0 expanded to rank 3. */
static void
gen_expand3(G *g, const GV *a)
{
	GV t = gen_tensor_type(a->dt, 3, (int[]){2, a->dims[0] / 2, a->dims[1]}), *v;
	char s[64];

	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = expand_shape %%%s [[0, 1], [2]] : %s", v->name,
		 a->name, gen_ty(&t, s, sizeof s));
	if (GEN_BUILD(g))
		gb_reassoc(g, gb_basic(g, OP_EXPAND_SHAPE, v, &t,
				       (const char *[]){a->name}, 1, NULL),
			   "[[0, 1], [2]]");
	++g->sh->ops;
}

/* from_elements of scalars in scope and literals; reshapes (static
 * types only). */
void
gen_data(G *g)
{
	GV *a = gen_any_tensor(g, T_STATIC), at;

	if (!a)
		return;
	at = *a;
	if (gen_chance(g, 30))
		gen_from_elements(g, &at);
	else if (at.rank == 2 && at.dims[0] % 2 == 0 && gen_chance(g, 40))
		gen_expand3(g, &at);
	else
		gen_reshape(g, &at);
}
