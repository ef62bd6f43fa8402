/*
 * gen.c: the program generator.  Deterministic from a seed (splitmix64,
 * no other source of randomness), it builds programs forward: each op's
 * shape rule picks operands that already exist with legal shapes, so every
 * program verifies without a solver.  It covers every op, views of views
 * with strides and dynamic offsets, insert_slice into live tensors, if/else,
 * loops (zero trips too) that read outer values on every trip, foralls
 * writing disjoint rows of their shared outputs, calls to
 * helpers with readonly params, launches on several streams awaited late,
 * several outputs, and values that stay live to be read late.  `empty` is
 * always filled at once, so no output depends on undefined data.
 */
#include <stdarg.h>
#include <stdio.h>

#include "oracle.h"

#define MAXV 512

typedef struct GV {
	char name[16];
	DType dt;
	int rank;
	int dims[2];
	bool scalar;
} GV;

typedef struct Fut {
	char name[16];
	GV res;
	int scope;       /* scope depth it was made at */
} Fut;

typedef struct Loop {
	char iv[16];
	int ub;          /* iv < ub (a bound on %n's value too) */
} Loop;

typedef struct G {
	uint64_t *rng;
	const GenOpts *o;
	Str *out;
	GV v[MAXV];
	int nv;
	int *ops;        /* ops emitted, all functions */
	int *names;      /* value counter, shared by all functions */
	int depth;       /* indentation level */
	Fut futs[32];
	int nfuts;
	Loop loops[8];
	int nloops;
	DType dt;        /* the program's main dtype */
	Str *helpers;    /* helper functions' text */
	int *nhelpers;
	bool helper;     /* generating a helper: no calls, no launches */
	int in_async;    /* inside launch regions or forall bodies: no asserts */
} G;

/* ---- text */

static void
line(G *g, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	str_printf(g->out, "%*s%s\n", 2 * g->depth + 2, "", buf);
}

/* ---- random choices */

static uint64_t
rnd(G *g)
{
	return rng_next(g->rng);
}

static int
pick(G *g, int n)
{
	return n > 0 ? (int)(rnd(g) % (uint64_t)n) : 0;
}

static bool
chance(G *g, int percent)
{
	return pick(g, 100) < percent;
}

static const char *
ty(const GV *v, char *buf, size_t n)
{
	if (v->scalar)
		snprintf(buf, n, "%s", dtype_names[v->dt]);
	else if (v->rank == 1)
		snprintf(buf, n, "tensor<%dx%s>", v->dims[0], dtype_names[v->dt]);
	else
		snprintf(buf, n, "tensor<%dx%dx%s>", v->dims[0], v->dims[1],
			 dtype_names[v->dt]);
	return buf;
}

static bool
same_type(const GV *a, const GV *b)
{
	return a->dt == b->dt && a->scalar == b->scalar && a->rank == b->rank &&
	       (a->scalar || (a->dims[0] == b->dims[0] &&
			      (a->rank < 2 || a->dims[1] == b->dims[1])));
}

static GV *
new_value(G *g, const GV *like, const char *prefix)
{
	GV *v;

	if (g->nv == MAXV)
		g->nv--; /* forget the newest: still valid, never picked */
	v = &g->v[g->nv++];
	*v = *like;
	snprintf(v->name, sizeof v->name, "%s%d", prefix, (*g->names)++);
	return v;
}

/* A random tensor in scope: now and then an old one (a long-lived value
 * read late), mostly a recent one. */
static GV *
any_tensor(G *g)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (!g->v[i].scalar)
			idx[n++] = i;
	if (!n)
		return NULL;
	if (chance(g, 30))
		return &g->v[idx[pick(g, n < 3 ? n : 3)]];
	return &g->v[idx[n - 1 - pick(g, n < 6 ? n : 6)]];
}

static GV *
find(G *g, const GV *like, const GV *not)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (same_type(&g->v[i], like) && &g->v[i] != not)
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - pick(g, n)]] : NULL;
}

static const char *
literal(G *g, DType dt, char *buf, size_t n)
{
	int k = pick(g, 9) - 4;

	if (dtype_is_float(dt))
		snprintf(buf, n, "%d.%d", k, pick(g, 2) * 5);
	else
		snprintf(buf, n, "%d", k);
	return buf;
}

/* ---- making values of a wanted type */

/* %e = empty ; %v = fill LIT into %e (or a splat constant): a defined
 * tensor of type t. */
static GV *
make_filled(G *g, const GV *t)
{
	char tb[64], lb[32];
	int e = (*g->names)++;
	GV *v;

	if (chance(g, 25)) {
		v = new_value(g, t, "v");
		line(g, "%%%s = const dense<%s> : %s", v->name,
		     literal(g, t->dt, lb, sizeof lb), ty(t, tb, sizeof tb));
		++*g->ops;
		return v;
	}
	line(g, "%%e%d = empty : %s", e, ty(t, tb, sizeof tb));
	v = new_value(g, t, "v");
	line(g, "%%%s = fill %s into %%e%d : %s", v->name,
	     literal(g, t->dt, lb, sizeof lb), e, tb);
	*g->ops += 2;
	return v;
}

static GV *
get_or_make(G *g, const GV *t, const GV *not)
{
	GV *v = chance(g, 85) ? find(g, t, not) : NULL;

	return v ? v : make_filled(g, t);
}

static GV
tensor_type(DType dt, int rank, int d0, int d1)
{
	GV t = {"", dt, rank, {d0, d1}, false};

	return t;
}

/* ---- ops */

static void
gen_elementwise(G *g)
{
	static const char *const bin[] = {"add", "sub", "mul", "max", "min", "div"};
	static const char *const un[] = {"neg", "abs", "relu", "exp"};
	GV *a = any_tensor(g), *v, *b, *d = NULL;
	char tb[64], lb[32], second[32];

	if (!a)
		return;
	a = &g->v[a - g->v];
	if (chance(g, 20))
		d = find(g, a, NULL);
	if (chance(g, 25)) {
		int k = pick(g, dtype_is_float(a->dt) ? 4 : 3);
		v = new_value(g, a, "v");
		line(g, "%%%s = %s %%%s%s%s : %s", v->name, un[k], a[0].name,
		     d ? " into %" : "", d ? d->name : "", ty(a, tb, sizeof tb));
		++*g->ops;
		return;
	}
	b = chance(g, 60) ? find(g, a, NULL) : NULL;
	if (b)
		snprintf(second, sizeof second, "%%%s", b->name);
	else
		snprintf(second, sizeof second, "%s", literal(g, a->dt, lb, sizeof lb));
	{
		int k = pick(g, dtype_is_float(a->dt) ? 6 : 5);
		const char *an = a->name;
		char dn[24] = "";
		GV at = *a;
		if (d)
			snprintf(dn, sizeof dn, " into %%%s", d->name);
		v = new_value(g, &at, "v");
		line(g, "%%%s = %s %%%s, %s%s : %s", v->name, bin[k], an, second, dn,
		     ty(&at, tb, sizeof tb));
	}
	++*g->ops;
}

static void
gen_matmul(G *g)
{
	int m = 2 << pick(g, 2), k = 2 << pick(g, 2), n = 2 << pick(g, 2);
	GV ta = tensor_type(g->dt, 2, m, k), tb = tensor_type(g->dt, 2, k, n);
	GV tc = tensor_type(g->dt, 2, m, n);
	GV *a = get_or_make(g, &ta, NULL), *b = get_or_make(g, &tb, a);
	GV *c = get_or_make(g, &tc, NULL), *v;
	char s[64];

	v = new_value(g, &tc, "v");
	line(g, "%%%s = matmul %%%s, %%%s into %%%s : %s", v->name, a->name,
	     b->name, c->name, ty(&tc, s, sizeof s));
	++*g->ops;
}

static void
gen_transpose_reduce(G *g)
{
	GV *a = any_tensor(g), *d, *v, t;
	char s[64];

	if (!a || a->rank != 2)
		return;
	a = &g->v[a - g->v];
	if (chance(g, 50)) {
		t = tensor_type(a->dt, 2, a->dims[1], a->dims[0]);
		d = get_or_make(g, &t, NULL);
		v = new_value(g, &t, "v");
		line(g, "%%%s = transpose %%%s [1, 0] into %%%s : %s", v->name,
		     a->name, d->name, ty(&t, s, sizeof s));
	} else {
		int dim = pick(g, 2);
		t = tensor_type(a->dt, 1, a->dims[1 - dim], 0);
		d = get_or_make(g, &t, NULL);
		v = new_value(g, &t, "v");
		line(g, "%%%s = reduce.%s %%%s [%d] into %%%s : %s", v->name,
		     chance(g, 50) ? "sum" : "max", a->name, dim, d->name,
		     ty(&t, s, sizeof s));
	}
	++*g->ops;
}

/* An offset for a slice of `size` with `stride` in a dim of `dim`: a loop
 * iv when every trip stays in bounds, else a literal. */
static void
slice_offset(G *g, int dim, int size, int stride, char *buf, size_t n)
{
	int room = dim - 1 - (size - 1) * stride;

	if (g->nloops && chance(g, 40)) {
		Loop *l = &g->loops[pick(g, g->nloops)];
		if (l->ub - 1 <= room) {
			snprintf(buf, n, "%%%s", l->iv);
			return;
		}
	}
	snprintf(buf, n, "%d", room > 0 ? pick(g, room + 1) : 0);
}

static void
gen_extract_slice(G *g)
{
	GV *a = any_tensor(g), *v, t;
	char offs[2][24], s[64];
	int size[2], stride[2];

	if (!a)
		return;
	a = &g->v[a - g->v];
	t = *a;
	for (int d = 0; d < a->rank; d++) {
		stride[d] = chance(g, 30) && a->dims[d] >= 3 ? 2 : 1;
		size[d] = 1 + pick(g, (a->dims[d] - 1) / stride[d] + 1);
		slice_offset(g, a->dims[d], size[d], stride[d], offs[d], sizeof offs[d]);
		t.dims[d] = size[d];
	}
	v = new_value(g, &t, "v");
	if (a->rank == 1)
		line(g, "%%%s = extract_slice %%%s[%s] [%d] [%d] : %s", v->name,
		     a->name, offs[0], size[0], stride[0], ty(&t, s, sizeof s));
	else
		line(g, "%%%s = extract_slice %%%s[%s, %s] [%d, %d] [%d, %d] : %s",
		     v->name, a->name, offs[0], offs[1], size[0], size[1],
		     stride[0], stride[1], ty(&t, s, sizeof s));
	++*g->ops;
}

static void
gen_insert_slice(G *g)
{
	GV *d = any_tensor(g), *src = NULL, *v;
	char offs[2][24], s[64];
	int idx[MAXV], n = 0;

	if (!d)
		return;
	d = &g->v[d - g->v];
	for (int i = 0; i < g->nv; i++) {
		GV *c = &g->v[i];
		if (c->scalar || c->rank != d->rank || c->dt != d->dt || c == d ||
		    c->dims[0] > d->dims[0] || (d->rank == 2 && c->dims[1] > d->dims[1]))
			continue;
		idx[n++] = i;
	}
	if (!n)
		return;
	src = &g->v[idx[n - 1 - pick(g, n)]];
	for (int k = 0; k < d->rank; k++)
		slice_offset(g, d->dims[k], src->dims[k], 1, offs[k], sizeof offs[k]);
	v = new_value(g, d, "v");
	if (d->rank == 1)
		line(g, "%%%s = insert_slice %%%s into %%%s[%s] [%d] [1] : %s",
		     v->name, src->name, d->name, offs[0], src->dims[0],
		     ty(d, s, sizeof s));
	else
		line(g, "%%%s = insert_slice %%%s into %%%s[%s, %s] [%d, %d] [1, 1] : %s",
		     v->name, src->name, d->name, offs[0], offs[1], src->dims[0],
		     src->dims[1], ty(d, s, sizeof s));
	++*g->ops;
}

static void
gen_element(G *g)
{
	GV *a = any_tensor(g), *v, sc;
	char idx[48], s[64], lb[32];

	if (!a)
		return;
	a = &g->v[a - g->v];
	if (a->rank == 1)
		snprintf(idx, sizeof idx, "%d", pick(g, a->dims[0]));
	else { /* one pick per statement: argument order is unspecified */
		int i0 = pick(g, a->dims[0]), i1 = pick(g, a->dims[1]);
		snprintf(idx, sizeof idx, "%d, %d", i0, i1);
	}
	if (chance(g, 50)) {
		sc = *a;
		sc.scalar = true;
		v = new_value(g, &sc, "s");
		line(g, "%%%s = extract %%%s[%s] : %s", v->name, a->name, idx,
		     dtype_names[a->dt]);
	} else {
		GV like = *a, *x;
		char val[32];
		like.scalar = true;
		x = find(g, &like, NULL);
		snprintf(val, sizeof val, "%s%s", x ? "%" : "",
			 x ? x->name : literal(g, a->dt, lb, sizeof lb));
		v = new_value(g, a, "v");
		line(g, "%%%s = insert %s into %%%s[%s] : %s", v->name, val,
		     a->name, idx, ty(a, s, sizeof s));
	}
	++*g->ops;
}

static void
gen_copy(G *g)
{
	GV *a = any_tensor(g), *d, *v;
	char s[64];

	if (!a)
		return;
	a = &g->v[a - g->v];
	d = chance(g, 50) ? find(g, a, a) : NULL;
	v = new_value(g, a, "v");
	if (d)
		line(g, "%%%s = copy %%%s into %%%s : %s", v->name, a->name, d->name,
		     ty(a, s, sizeof s));
	else if (chance(g, 50))
		line(g, "%%%s = clone %%%s : %s", v->name, a->name, ty(a, s, sizeof s));
	else
		line(g, "%%%s = fill %s into %%%s : %s", v->name,
		     literal(g, a->dt, s, sizeof s), a->name,
		     ty(a, s + 32, sizeof s - 32));
	++*g->ops;
}

/* from_elements of scalars in scope and literals; collapse_shape of a
 * 2-D tensor, expand_shape of a 1-D one of even size (views of views,
 * of strided slices too). */
static void
gen_data(G *g)
{
	GV *a = any_tensor(g), *v, t;
	char s[64], lb[32];
	int n;

	if (!a)
		return;
	a = &g->v[a - g->v];
	t = *a;
	if (chance(g, 30)) {
		GV like = *a, *x;
		like.scalar = true;
		n = a->rank == 1 ? a->dims[0] : a->dims[0] * a->dims[1];
		if (n > 8)
			return;
		v = new_value(g, a, "v");
		str_printf(g->out, "%*s%%%s = from_elements ", 2 * g->depth + 2, "",
			   v->name);
		for (int i = 0; i < n; i++) {
			x = chance(g, 50) ? find(g, &like, NULL) : NULL;
			str_printf(g->out, "%s%s%s", i ? ", " : "", x ? "%" : "",
				   x ? x->name : literal(g, a->dt, lb, sizeof lb));
		}
		str_printf(g->out, " : %s\n", ty(a, s, sizeof s));
	} else if (a->rank == 2) {
		t = tensor_type(a->dt, 1, a->dims[0] * a->dims[1], 0);
		v = new_value(g, &t, "v");
		line(g, "%%%s = collapse_shape %%%s [[0, 1]] : %s", v->name,
		     a->name, ty(&t, s, sizeof s));
	} else if (a->dims[0] % 2 == 0) {
		int d0 = chance(g, 50) ? 2 : a->dims[0] / 2;
		t = tensor_type(a->dt, 2, d0, a->dims[0] / d0);
		v = new_value(g, &t, "v");
		line(g, "%%%s = expand_shape %%%s [[0, 1]] : %s", v->name,
		     a->name, ty(&t, s, sizeof s));
	} else {
		return;
	}
	++*g->ops;
}

/* ---- regions */

static void gen_ops(G *g, int n);

static void
await_pending(G *g, int scope)
{
	while (g->nfuts && g->futs[g->nfuts - 1].scope >= scope) {
		Fut *f = &g->futs[--g->nfuts];
		GV *v = new_value(g, &f->res, "v");
		line(g, "%%%s = await %%%s", v->name, f->name);
		++*g->ops;
	}
}

/* Run body ops at a deeper scope; values made there die with it. */
static int
enter(G *g)
{
	g->depth++;
	return g->nv;
}

static void
leave(G *g, int mark)
{
	await_pending(g, g->depth);
	g->nv = mark;
	g->depth--;
}

/* The value to yield: something of type t made in the region if any. */
static const char *
yield_of(G *g, const GV *t, int mark)
{
	for (int i = g->nv - 1; i >= mark; i--)
		if (same_type(&g->v[i], t))
			return g->v[i].name;
	return find(g, t, NULL)->name;
}

/* End a region: await its launches, yield a value of type t, leave. */
static void
close_region(G *g, const GV *t, int mark)
{
	await_pending(g, g->depth);
	line(g, "yield %%%s", yield_of(g, t, mark));
	leave(g, mark);
}

static void
gen_if(G *g)
{
	GV *t = any_tensor(g), *v;
	char s[64], cond[16];
	int mark;

	if (!t || g->helper) /* conditions read main's %n */
		return;
	t = &g->v[t - g->v];
	GV tt = *t;
	snprintf(cond, sizeof cond, "c%d", (*g->names)++);
	{
		static const char *const cmp[] = {"lt", "le", "eq", "ne", "gt", "ge"};
		/* in a loop, on its iv: the branches alternate between trips */
		const char *on = g->nloops && chance(g, 60)
				 ? g->loops[pick(g, g->nloops)].iv : "n";
		const char *op = cmp[pick(g, 6)];
		line(g, "%%%s = %s %%%s, %d : index", cond, op, on, pick(g, 4));
	}
	v = &tt;
	line(g, "%%r%d = if %%%s -> (%s) {", *g->names, cond, ty(&tt, s, sizeof s));
	{
		int r = (*g->names)++;
		/* now and then one branch writes an outer value without
		 * reading it while the other reads it: exclusive in one trip,
		 * not across a loop's trips */
		bool pair = g->nloops && chance(g, 40);
		char lb[32];
		mark = enter(g);
		if (pair) {
			GV *w = new_value(g, &tt, "v");
			line(g, "%%%s = fill %s into %%%s : %s", w->name,
			     literal(g, tt.dt, lb, sizeof lb), t->name, s);
			++*g->ops;
		}
		gen_ops(g, 1 + pick(g, 3));
		close_region(g, &tt, mark);
		line(g, "} else {");
		mark = enter(g);
		if (pair) {
			GV *u = new_value(g, &tt, "v");
			line(g, "%%%s = add %%%s, %s : %s", u->name, t->name,
			     literal(g, tt.dt, lb, sizeof lb), s);
			++*g->ops;
		}
		gen_ops(g, pick(g, 3));
		close_region(g, &tt, mark);
		line(g, "}");
		v = new_value(g, &tt, "r");
		snprintf(v->name, sizeof v->name, "r%d", r);
	}
	*g->ops += 3;
}

static void
gen_for(G *g)
{
	GV *init = any_tensor(g), *acc, *v;
	char s[64], ub[16];
	int mark, r, k, bound;

	if (!init || g->nloops == 8)
		return;
	init = &g->v[init - g->v];
	GV tt = *init;
	k = (*g->names)++;
	r = (*g->names)++;
	if (chance(g, 50) && !g->helper) {
		snprintf(ub, sizeof ub, "%%n");
		bound = 4;
	} else {
		bound = pick(g, 4);
		snprintf(ub, sizeof ub, "%d", bound);
	}
	line(g, "%%r%d = for %%i%d = 0 to %s step 1 iter(%%acc%d = %%%s) -> (%s) {",
	     r, k, ub, k, init->name, ty(&tt, s, sizeof s));
	mark = enter(g);
	acc = new_value(g, &tt, "acc");
	snprintf(acc->name, sizeof acc->name, "acc%d", k);
	snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops++].ub = bound;
	gen_ops(g, 1 + pick(g, 3));
	g->nloops--;
	close_region(g, &tt, mark);
	line(g, "}");
	v = new_value(g, &tt, "r");
	snprintf(v->name, sizeof v->name, "r%d", r);
	*g->ops += 2;
}

/* A forall whose trip i writes row i (element i) of its shared output:
 * disjoint slices indexed by the iv.  Its body may read anything in scope,
 * the shared output too (its init's value); no launches or calls in it. */
static void
gen_forall(G *g)
{
	GV *t = any_tensor(g), *x, *o, row, *e, *u;
	char s[64], rs[64], lit[32], off[32], sz[32];
	int mark, k, r, ub;
	bool helper = g->helper;

	if (!t || g->nloops == 8)
		return;
	t = &g->v[t - g->v];
	GV tt = *t;
	k = (*g->names)++;
	r = (*g->names)++;
	ub = pick(g, tt.dims[0] + 1);
	line(g, "%%r%d = forall %%i%d = 0 to %d shared(%%o%d = %%%s) -> (%s) {",
	     r, k, ub, k, t->name, ty(&tt, s, sizeof s));
	mark = enter(g);
	o = new_value(g, &tt, "o");
	snprintf(o->name, sizeof o->name, "o%d", k);
	snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops++].ub = tt.dims[0];
	g->helper = true;
	g->in_async++; /* no asserts in a forall body either */
	gen_ops(g, pick(g, 3));
	g->in_async--;
	g->helper = helper;
	g->nloops--;
	x = find(g, &tt, NULL);
	row = tt;
	row.dims[0] = 1;
	snprintf(off, sizeof off, tt.rank == 1 ? "%%i%d" : "%%i%d, 0", k);
	if (tt.rank == 1)
		snprintf(sz, sizeof sz, "[1] [1]");
	else
		snprintf(sz, sizeof sz, "[1, %d] [1, 1]", tt.dims[1]);
	e = new_value(g, &row, "v");
	line(g, "%%%s = extract_slice %%%s[%s] %s : %s", e->name, x->name, off,
	     sz, ty(&row, rs, sizeof rs));
	u = new_value(g, &row, "v");
	line(g, "%%%s = add %%%s, %s : %s", u->name, e->name,
	     literal(g, row.dt, lit, sizeof lit), rs);
	line(g, "parallel_insert_slice %%%s into %%o%d[%s] %s", u->name, k, off,
	     sz);
	leave(g, mark);
	line(g, "}");
	t = new_value(g, &tt, "r");
	snprintf(t->name, sizeof t->name, "r%d", r);
	*g->ops += 5;
}

/* A while counting %c up to a bound (%n or a literal, so it ends), its
 * tensor iter arg rewritten in the do region; the condition region may
 * read the iter arg or an outer value on every trip. */
static void
gen_while(G *g)
{
	GV *init = any_tensor(g), *acc, *v, *o;
	char s[64], ub[16];
	int mark, r, k;

	if (!init || g->nloops == 8)
		return;
	init = &g->v[init - g->v];
	GV tt = *init;
	k = (*g->names)++;
	r = (*g->names)++;
	if (chance(g, 50) && !g->helper)
		snprintf(ub, sizeof ub, "%%n");
	else
		snprintf(ub, sizeof ub, "%d", pick(g, 4));
	line(g, "%%z%d = const 0 : index", k);
	line(g, "%%r%d, %%w%d = while iter(%%acc%d = %%%s, %%c%d = %%z%d) -> "
	     "(%s, index) {", r, r, k, init->name, k, k, ty(&tt, s, sizeof s));
	g->depth++;
	if (chance(g, 50)) {
		char idx[64] = "", an[16];
		const GV *src = chance(g, 50) ? (o = any_tensor(g)) : NULL;
		snprintf(an, sizeof an, "acc%d", k);
		if (!src)
			src = &tt;
		for (int d = 0; d < src->rank; d++)
			strcat(idx, d ? ", 0" : "0");
		line(g, "%%e%d = extract %%%s[%s] : %s", k,
		     src == &tt ? an : src->name, idx, dtype_names[src->dt]);
	}
	line(g, "%%t%d = lt %%c%d, %s : index", k, k, ub);
	line(g, "condition %%t%d", k);
	g->depth--;
	line(g, "} do {");
	mark = enter(g);
	acc = new_value(g, &tt, "acc");
	snprintf(acc->name, sizeof acc->name, "acc%d", k);
	gen_ops(g, 1 + pick(g, 3));
	await_pending(g, g->depth);
	line(g, "%%c%dn = add %%c%d, 1 : index", k, k);
	line(g, "yield %%%s, %%c%dn", yield_of(g, &tt, mark), k);
	leave(g, mark);
	line(g, "}");
	v = new_value(g, &tt, "r");
	snprintf(v->name, sizeof v->name, "r%d", r);
	*g->ops += 3;
}

/* An assert that fails for some inputs (%n is 0..3, a loop's iv grows):
 * the failure path runs with whatever is live and pending then. */
static void
gen_assert(G *g)
{
	const char *on = g->nloops && chance(g, 50)
				 ? g->loops[g->nloops - 1].iv : "n";
	int k = (*g->names)++;

	if (g->in_async || (g->helper && !strcmp(on, "n")))
		return;
	line(g, "%%ok%d = lt %%%s, %d : index", k, on, 1 + pick(g, 4));
	line(g, "assert %%ok%d, \"%s stays small\"", k, on);
	*g->ops += 2;
}

static void
gen_async(G *g)
{
	GV *t = any_tensor(g);
	char s[64];
	int mark, k;
	Fut *f;

	if (!t || g->helper || g->nfuts == 32)
		return;
	t = &g->v[t - g->v];
	GV tt = *t;
	k = (*g->names)++;
	line(g, "%%f%d = async stream %d -> (%s) {", k, pick(g, 3),
	     ty(&tt, s, sizeof s));
	mark = enter(g);
	g->in_async++;
	gen_ops(g, 1 + pick(g, 3));
	g->in_async--;
	close_region(g, &tt, mark);
	line(g, "}");
	f = &g->futs[g->nfuts++];
	snprintf(f->name, sizeof f->name, "f%d", k);
	f->res = tt;
	f->scope = g->depth;
	*g->ops += 2;
}

/* A helper function: params typed like values in scope (some readonly),
 * a few ops, one result; then a call to it. */
static void
gen_call(G *g)
{
	GV *a = any_tensor(g), *b;
	Str body = {0};
	G h;
	char s[64], s2[64];
	int fn;

	if (!a || g->helper || *g->nhelpers >= 4)
		return;
	a = &g->v[a - g->v];
	b = chance(g, 50) ? any_tensor(g) : NULL;
	fn = (*g->nhelpers)++;
	h = *g;
	h.out = &body;
	h.nv = 0;
	h.depth = 1;
	h.nfuts = 0;
	h.nloops = 0;
	h.helper = true;
	h.v[h.nv] = *a;
	snprintf(h.v[h.nv++].name, sizeof h.v[0].name, "q0");
	if (b) {
		h.v[h.nv] = *b;
		snprintf(h.v[h.nv++].name, sizeof h.v[0].name, "q1");
	}
	gen_ops(&h, 1 + pick(g, 3));
	str_printf(g->helpers, "  func @g%d(%%q0: %s%s", fn, ty(a, s, sizeof s),
		chance(g, 40) ? " {readonly}" : "");
	if (b)
		str_printf(g->helpers, ", %%q1: %s%s", ty(b, s2, sizeof s2),
			chance(g, 40) ? " {readonly}" : "");
	str_printf(g->helpers, ") -> %s {\n", s);
	if (body.s)
		str_puts(g->helpers, body.s);
	str_printf(g->helpers, "    return %%%s\n  }\n", yield_of(&h, a, 0));
	str_free(&body);
	{
		GV *v = new_value(g, a, "v");
		if (b)
			line(g, "%%%s = call @g%d(%%%s, %%%s)", v->name, fn, a->name,
			     b->name);
		else
			line(g, "%%%s = call @g%d(%%%s)", v->name, fn, a->name);
	}
	++*g->ops;
}

static void
gen_op(G *g)
{
	int k = pick(g, 100);
	const unsigned mix = g->o->mix;

	if (g->nfuts && chance(g, 25)) {
		await_pending(g, g->futs[g->nfuts - 1].scope);
		return;
	}
	if (k < 30 || !mix)
		gen_elementwise(g);
	else if (k < 38 && (mix & GEN_SLICES))
		gen_extract_slice(g);
	else if (k < 45 && (mix & GEN_SLICES))
		gen_insert_slice(g);
	else if (k < 50)
		gen_element(g);
	else if (k < 56 && !g->o->no_copies)
		gen_copy(g);
	else if (k < 61 && (mix & GEN_MATMUL))
		gen_matmul(g);
	else if (k < 66 && (mix & GEN_MATMUL))
		gen_transpose_reduce(g);
	else if (k < 71 && (mix & GEN_LOOPS) && g->depth < 3)
		gen_for(g);
	else if (k < 74 && (mix & GEN_LOOPS) && g->depth < 3) {
		if (k >= 72 && (mix & GEN_FORALL))
			gen_forall(g);
		else
			gen_while(g);
	}
	else if (k < 82 && (mix & GEN_BRANCHES) && g->depth < 3)
		gen_if(g);
	else if (k < 90 && (mix & GEN_ASYNC) && g->depth < 3)
		gen_async(g);
	else if (k < 96 && (mix & GEN_CALLS))
		gen_call(g);
	else if (k < 98 && (mix & GEN_BRANCHES))
		gen_assert(g);
	else if (k < 100 && (mix & GEN_SLICES))
		gen_data(g);
	else
		gen_elementwise(g);
}

static void
gen_ops(G *g, int n)
{
	for (int i = 0; i < n && *g->ops < g->o->max_ops; i++)
		gen_op(g);
}

/* ---- the whole case */

static GV
param_type(G *g)
{
	static const int shapes[][3] = {{1, 4, 0}, {1, 8, 0}, {2, 2, 4},
					{2, 4, 2}, {2, 4, 4}, {2, 2, 2}};
	const int *sh = shapes[pick(g, 6)];
	DType dt = chance(g, 85) ? g->dt : DT_F32;

	return tensor_type(dt, sh[0], sh[1], sh[2]);
}

char *
gen_case(uint64_t seed, const GenOpts *o, const char *strategy)
{
	uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 1;
	Str prog = {0}, helpers = {0}, yaml = {0};
	int ops = 0, names = 0, nhelpers = 0, nparams;
	static const DType dts[] = {DT_F32, DT_I32, DT_F32, DT_I32, DT_F64, DT_I64};
	G *g = mem_calloc(1, sizeof *g);
	char s[64];
	int outs[3], nouts;

	if (!g)
		return NULL;
	g->rng = &rng;
	g->o = o;
	g->out = &prog;
	g->ops = &ops;
	g->names = &names;
	g->helpers = &helpers;
	g->nhelpers = &nhelpers;
	g->depth = 1;
	g->dt = dts[pick(g, 6)];
	nparams = 1 + pick(g, 3);
	/* outside strategies (exec:CMD) are named by their kind */
	str_printf(&yaml, "case: fuzz/%.*s-%llu\nabout: generated by bufdiff fuzz "
		"--seed %llu\nprogram: |\n  func @main(",
		(int)strcspn(strategy, ":"), strategy, (unsigned long long)seed,
		(unsigned long long)seed);
	for (int i = 0; i < nparams; i++) {
		GV t = param_type(g), *p = &g->v[g->nv++];
		*p = t;
		snprintf(p->name, sizeof p->name, "p%d", i);
		str_printf(&yaml, "%%p%d: %s%s, ", i, ty(p, s, sizeof s),
			chance(g, 25) ? " {readonly}" : "");
	}
	str_printf(&yaml, "%%n: index) -> (");
	gen_ops(g, o->max_ops);
	/* an assert at the end finds the most live and pending: the failure
	 * path's frees and drains are exercised there */
	if ((o->mix & GEN_BRANCHES) && chance(g, 35))
		gen_assert(g);
	await_pending(g, 1);
	/* outputs: the newest value and up to two long-lived ones */
	nouts = 0;
	for (int i = g->nv - 1; i >= 0 && nouts < 3; i--) {
		if (g->v[i].scalar || (nouts && !chance(g, 30 + 20 * (i < 3))))
			continue;
		outs[nouts++] = i;
	}
	for (int i = 0; i < nouts; i++)
		str_printf(&yaml, "%s%s", i ? ", " : "", ty(&g->v[outs[i]], s, sizeof s));
	str_puts(&yaml, ") {\n");
	if (prog.s)
		str_puts(&yaml, prog.s);
	str_puts(&yaml, "    return");
	for (int i = 0; i < nouts; i++)
		str_printf(&yaml, "%s %%%s", i ? "," : "", g->v[outs[i]].name);
	str_printf(&yaml, "\n  }\n");
	if (helpers.s)
		str_puts(&yaml, helpers.s);
	str_printf(&yaml, "inputs:\n");
	for (int i = 0; i < nparams; i++)
		str_printf(&yaml, "  p%d: {random: %llu, min: -4, max: 4}\n", i,
			(unsigned long long)((seed * 31 + (uint64_t)i) >> 2));
	str_printf(&yaml, "  n: %d\nruns:\n  - strategy: ", pick(g, 4));
	emit_quoted(&yaml, strategy);
	str_puts(&yaml, "\n");
	str_free(&prog);
	str_free(&helpers);
	mem_free(g);
	return str_take(&yaml);
}
