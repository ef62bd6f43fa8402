/*
 * gen.c: the program generator.  Deterministic from a seed (mixed by
 * splitmix64 before use, no other source of randomness), it builds
 * programs forward: each op's shape rule picks operands that already exist
 * with legal shapes, so every program verifies without a solver.  Tensors
 * of rank 0 to 3, some dims dynamic (`?`), f32/f64/i32/i64 and i1/index
 * tensors; scalar arithmetic, compares and broadcasts; views of views with
 * strides and dynamic offsets, strided insert_slice, extract/insert at
 * dynamic indices; if/else with or without results (conditions on %n, a
 * loop's iv or a computed i1); for loops with several iter args, nonzero
 * starts and steps, zero trips; while loops; foralls writing disjoint rows
 * of their shared outputs; helpers (with readonly and dynamic params, their
 * own branches, launches and calls) called once or several times; launches
 * on several streams with zero, one or two results, awaited late, in
 * branches and loops, and now and then awaited again; several outputs and
 * values that stay live to be read late.  `empty` is always filled at once,
 * so no output depends on undefined data.
 *
 * One random draw per full expression: the order in which a call's
 * arguments are evaluated is unspecified, so two draws in one argument list
 * give different programs under gcc and clang (tests/test_fuzz.c pins a
 * digest of the programs).
 */
#include <stdarg.h>
#include <stdio.h>

#include "fuzz.h"
#include "cases.h"
#include "harness.h"

#define MAXV 512
#define MAXR 3          /* ranks 0..3 */
#define MAXFN 4         /* helper functions per program */

const char *const gen_construct_names[GC_COUNT] = {
#define GC(e, name) name,
	GEN_CONSTRUCTS(GC)
#undef GC
};

typedef struct GV {
	char name[16];
	DType dt;
	int rank;
	int dims[MAXR];  /* the real dims, dynamic ones too */
	unsigned dyn;    /* bit d: dim d is written `?` */
	bool scalar;
} GV;

typedef struct Fut {
	char name[16];
	GV res[2];
	int nres;
	int scope;       /* scope depth it was made at */
} Fut;

typedef struct Loop {
	char iv[16];
	int ub;          /* iv < ub (a bound on %n's value too) */
	int mark;        /* values before it: defined outside the loop */
} Loop;

typedef struct Helper {
	char name[8];
	GV params[2];    /* tensor params, then `%n: index` */
	int nparams;
	bool asserts;    /* it (or a callee) asserts: not from a launch */
} Helper;

/* What main and its helpers share. */
typedef struct Shared {
	int ops;         /* ops emitted, all functions */
	int names;       /* value counter, shared by all functions */
	Str helpers;     /* helper functions' text */
	Helper fns[MAXFN];
	int nfns;        /* finished helpers (callable) */
	int started;     /* helpers begun (their names) */
	GenStats *st;
} Shared;

typedef struct G {
	uint64_t *rng;
	const GenOpts *o;
	Shared *sh;
	Str *out;
	GV v[MAXV];
	int nv;
	int depth;       /* indentation level */
	Fut futs[32];
	int nfuts;
	Fut again[16];   /* awaited futures that may be awaited again */
	int nagain;
	Loop loops[8];
	int nloops;
	DType dt;        /* the program's main dtype */
	int helper;      /* helper nesting: 0 in main */
	bool *asserted;  /* set when the function being made asserts */
	bool in_forall;  /* a forall body: no branches, launches, calls */
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

static void
count(G *g, GenConstruct c)
{
	if (g->sh->st)
		g->sh->st->n[c]++;
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
	int k;

	if (v->scalar) {
		snprintf(buf, n, "%s", dtype_names[v->dt]);
		return buf;
	}
	k = snprintf(buf, n, "tensor<");
	for (int d = 0; d < v->rank; d++)
		k += v->dyn >> d & 1 ? snprintf(buf + k, n - (size_t)k, "?x")
				     : snprintf(buf + k, n - (size_t)k, "%dx", v->dims[d]);
	snprintf(buf + k, n - (size_t)k, "%s>", dtype_names[v->dt]);
	return buf;
}

static bool
same_type(const GV *a, const GV *b)
{
	if (a->dt != b->dt || a->scalar != b->scalar)
		return false;
	if (a->scalar)
		return true;
	if (a->rank != b->rank || a->dyn != b->dyn)
		return false;
	for (int d = 0; d < a->rank; d++)
		if (a->dims[d] != b->dims[d])
			return false;
	return true;
}

static int
numel(const GV *v)
{
	int n = 1;

	for (int d = 0; d < v->rank; d++)
		n *= v->dims[d];
	return n;
}

/* Statistics of tensor types, counted where values are made. */
static void
count_type(G *g, const GV *v)
{
	if (v->scalar)
		return;
	if (v->rank == 0)
		count(g, GC_RANK0);
	if (v->rank >= 3)
		count(g, GC_RANK3);
	if (v->dyn)
		count(g, GC_DYNAMIC);
	if (v->dt == DT_I1)
		count(g, GC_I1_TENSOR);
	if (v->dt == DT_INDEX)
		count(g, GC_INDEX_TENSOR);
}

static GV *
new_value(G *g, const GV *like, const char *prefix)
{
	GV *v;

	if (g->nv == MAXV)
		g->nv--; /* forget the newest: still valid, never picked */
	v = &g->v[g->nv++];
	*v = *like;
	snprintf(v->name, sizeof v->name, "%s%d", prefix, g->sh->names++);
	count_type(g, v);
	return v;
}

enum { T_RANKED = 1, T_STATIC = 2 };

static bool
fits(const GV *v, int want)
{
	return !v->scalar && (!(want & T_RANKED) || v->rank > 0) &&
	       (!(want & T_STATIC) || !v->dyn);
}

/* A random tensor in scope: now and then an old one (a long-lived value
 * read late), mostly a recent one. */
static GV *
any_tensor(G *g, int want)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (fits(&g->v[i], want))
			idx[n++] = i;
	if (!n)
		return NULL;
	if (chance(g, 30))
		return &g->v[idx[pick(g, n < 3 ? n : 3)]];
	return &g->v[idx[n - 1 - pick(g, n < 6 ? n : 6)]];
}

/* A tensor defined before the innermost loop (read on every trip). */
static GV *
outer_tensor(G *g)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->loops[g->nloops - 1].mark; i++)
		if (!g->v[i].scalar)
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - pick(g, n)]] : NULL;
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

/* A scalar in scope, of dtype dt (DT_COUNT: any). */
static GV *
any_scalar(G *g, DType dt)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (g->v[i].scalar && (dt == DT_COUNT || g->v[i].dt == dt))
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - pick(g, n)]] : NULL;
}

static const char *
literal(G *g, DType dt, char *buf, size_t n)
{
	int k = dt == DT_I1 ? pick(g, 2) : pick(g, 9) - 4;

	if (dtype_is_float(dt))
		snprintf(buf, n, "%d.%d", k, pick(g, 2) * 5);
	else
		snprintf(buf, n, "%d", k);
	return buf;
}

/* A scalar of dtype dt: a value in scope now and then, else a literal. */
static const char *
scalar_operand(G *g, DType dt, int percent, char *buf, size_t n)
{
	GV *x = chance(g, percent) ? any_scalar(g, dt) : NULL;

	if (x)
		snprintf(buf, n, "%%%s", x->name);
	else
		literal(g, dt, buf, n);
	return buf;
}

static GV
tensor_type(DType dt, int rank, const int *dims)
{
	GV t = {"", dt, rank, {0}, 0, false};

	for (int d = 0; d < rank; d++)
		t.dims[d] = dims[d];
	return t;
}

/* "a, b, c" of n ints */
static const char *
int_list(const int *x, int n, char *buf, size_t size)
{
	int k = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++)
		k += snprintf(buf + k, size - (size_t)k, "%s%d", i ? ", " : "", x[i]);
	return buf;
}

/* The innermost loop whose iv stays below bound, or NULL. */
static const Loop *
loop_below(G *g, int bound)
{
	const Loop *l = g->nloops ? &g->loops[pick(g, g->nloops)] : NULL;

	return l && l->ub <= bound ? l : NULL;
}

/* ---- making values of a wanted type */

/* %e = empty ; %v = fill LIT into %e (or a splat constant): a defined
 * tensor of type t.  Dynamic dims are sized by index constants. */
static GV *
make_filled(G *g, const GV *t)
{
	char tb[64], lb[32], sizes[64] = "";
	int e = g->sh->names++;
	GV *v;

	if (!t->dyn && chance(g, 25)) {
		v = new_value(g, t, "v");
		line(g, "%%%s = const dense<%s> : %s", v->name,
		     literal(g, t->dt, lb, sizeof lb), ty(t, tb, sizeof tb));
		++g->sh->ops;
		return v;
	}
	for (int d = 0; d < t->rank; d++)
		if (t->dyn >> d & 1) {
			size_t k = strlen(sizes);
			line(g, "%%k%d_%d = const %d : index", e, d, t->dims[d]);
			snprintf(sizes + k, sizeof sizes - k, "%s%%k%d_%d",
				 k ? ", " : "(", e, d);
			++g->sh->ops;
		}
	if (t->dyn)
		strcat(sizes, ")");
	line(g, "%%e%d = empty%s : %s", e, sizes, ty(t, tb, sizeof tb));
	v = new_value(g, t, "v");
	line(g, "%%%s = fill %s into %%e%d : %s", v->name,
	     scalar_operand(g, t->dt, 20, lb, sizeof lb), e, tb);
	g->sh->ops += 2;
	return v;
}

static GV *
get_or_make(G *g, const GV *t, const GV *not)
{
	GV *v = chance(g, 85) ? find(g, t, not) : NULL;

	return v ? v : make_filled(g, t);
}

/* ---- ops */

/* An elementwise op of form `form` drawn for a tensor (where = G_TENSOR)
 * or a scalar (G_SCALAR) of dtype dt: from the EW rows of ops.h with that
 * gen flag, in slot order; integers skip G_NOINT rows and those whose
 * rule wants floats. */
static const char *
draw_ew(G *g, Form form, int where, DType dt)
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
	return op_info[c[pick(g, n)]].name;
}

static void
gen_elementwise(G *g)
{
	GV *a = any_tensor(g, 0), *v, *b, *d = NULL, at;
	char tb[64], second[32], dn[24] = "";
	const char *name;
	int r;

	if (!a)
		return;
	at = *a;
	if (chance(g, 20))
		d = find(g, a, NULL);
	if (d)
		snprintf(dn, sizeof dn, " into %%%s", d->name);
	if (chance(g, 25)) {
		name = draw_ew(g, F_UNARY, G_TENSOR, at.dt);
		v = new_value(g, &at, "v");
		line(g, "%%%s = %s %%%s%s : %s", v->name, name, at.name, dn,
		     ty(&at, tb, sizeof tb));
		++g->sh->ops;
		return;
	}
	r = pick(g, 100);
	b = r < 50 ? find(g, &at, NULL) : NULL;
	if (b)
		snprintf(second, sizeof second, "%%%s", b->name);
	else
		scalar_operand(g, at.dt, r < 80 ? 100 : 0, second, sizeof second);
	if (second[0] == '%' && !b)
		count(g, GC_BROADCAST);
	name = draw_ew(g, F_BINARY, G_TENSOR, at.dt);
	v = new_value(g, &at, "v");
	if (!b && chance(g, 30)) /* the scalar or literal first */
		line(g, "%%%s = %s %s, %%%s%s : %s", v->name, name, second,
		     at.name, dn, ty(&at, tb, sizeof tb));
	else
		line(g, "%%%s = %s %%%s, %s%s : %s", v->name, name, at.name,
		     second, dn, ty(&at, tb, sizeof tb));
	++g->sh->ops;
}

static void gen_element(G *g);

/* Arithmetic and compares on scalars (extracted elements). */
static void
gen_scalar(G *g)
{
	GV *a = any_scalar(g, DT_COUNT), *v, at, i1;
	char second[32];
	int r = pick(g, 100);

	if (!a) {
		gen_element(g); /* an extract now and then */
		return;
	}
	at = *a;
	if (r < 25) {
		const char *k = draw_ew(g, F_CMP, G_SCALAR, at.dt);
		scalar_operand(g, at.dt, 50, second, sizeof second);
		i1 = at;
		i1.dt = DT_I1;
		v = new_value(g, &i1, "s");
		line(g, "%%%s = %s %%%s, %s : %s", v->name, k, at.name,
		     second, dtype_names[at.dt]);
	} else if (r < 40) {
		const char *k = draw_ew(g, F_UNARY, G_SCALAR, at.dt);
		v = new_value(g, &at, "s");
		line(g, "%%%s = %s %%%s : %s", v->name, k, at.name,
		     dtype_names[at.dt]);
	} else {
		const char *k = draw_ew(g, F_BINARY, G_SCALAR, at.dt);
		scalar_operand(g, at.dt, 50, second, sizeof second);
		v = new_value(g, &at, "s");
		line(g, "%%%s = %s %%%s, %s : %s", v->name, k, at.name,
		     second, dtype_names[at.dt]);
	}
	count(g, GC_SCALAR_ARITH);
	++g->sh->ops;
}

static void
gen_matmul(G *g)
{
	int m = 2 << pick(g, 2), k = 2 << pick(g, 2), n = 2 << pick(g, 2);
	GV ta = tensor_type(g->dt, 2, (int[]){m, k});
	GV tb = tensor_type(g->dt, 2, (int[]){k, n});
	GV tc = tensor_type(g->dt, 2, (int[]){m, n});
	GV *a = get_or_make(g, &ta, NULL), *b = get_or_make(g, &tb, a);
	GV *c = get_or_make(g, &tc, NULL), *v;
	char s[64];

	v = new_value(g, &tc, "v");
	line(g, "%%%s = matmul %%%s, %%%s into %%%s : %s", v->name, a->name,
	     b->name, c->name, ty(&tc, s, sizeof s));
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
		for (int j = 0, k = pick(g, 5); j < 3; j++)
			p[j] = perms3[k][j];
	t.dyn = 0;
	for (int j = 0; j < a->rank; j++) {
		t.dims[j] = a->dims[p[j]];
		t.dyn |= (a->dyn >> p[j] & 1u) << j;
	}
	d = get_or_make(g, &t, NULL);
	v = new_value(g, &t, "v");
	line(g, "%%%s = transpose %%%s [%s] into %%%s : %s", v->name, a->name,
	     int_list(p, a->rank, ps, sizeof ps), d->name, ty(&t, s, sizeof s));
}

/* reduce over a nonempty set of dims: rank 0 when all are listed. */
static void
gen_reduce(G *g, const GV *a)
{
	int mask = 1 + pick(g, (1 << a->rank) - 1), ds[MAXR], nd = 0;
	GV t = tensor_type(a->dt, 0, NULL), *d, *v;
	char s[64], dl[32];

	for (int j = 0; j < a->rank; j++) {
		if (mask >> j & 1) {
			ds[nd++] = j;
			continue;
		}
		t.dyn |= (a->dyn >> j & 1u) << t.rank;
		t.dims[t.rank++] = a->dims[j];
	}
	d = get_or_make(g, &t, NULL);
	v = new_value(g, &t, "v");
	line(g, "%%%s = reduce.%s %%%s [%s] into %%%s : %s", v->name,
	     chance(g, 50) ? "sum" : "max", a->name, int_list(ds, nd, dl, sizeof dl),
	     d->name, ty(&t, s, sizeof s));
}

static void
gen_transpose_reduce(G *g)
{
	GV *a = any_tensor(g, T_RANKED), at;

	if (!a)
		return;
	at = *a;
	if (at.rank >= 2 && chance(g, 50))
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

	if (g->nloops && chance(g, 40)) {
		const Loop *l = loop_below(g, room + 1);
		if (l) {
			snprintf(buf, n, "%%%s", l->iv);
			return;
		}
	}
	snprintf(buf, n, "%d", room > 0 ? pick(g, room + 1) : 0);
}

/* "[o...] [s...] [t...]" */
static void
slice_text(char offs[][24], const int *size, const int *stride, int rank,
	   char *buf, size_t n)
{
	char sz[32], st[32];
	int k = snprintf(buf, n, "[");

	for (int d = 0; d < rank; d++)
		k += snprintf(buf + k, n - (size_t)k, "%s%s", d ? ", " : "", offs[d]);
	snprintf(buf + k, n - (size_t)k, "] [%s] [%s]", int_list(size, rank, sz, sizeof sz),
		 int_list(stride, rank, st, sizeof st));
}

static void
gen_extract_slice(G *g)
{
	GV *a = any_tensor(g, T_RANKED), *v, t, at;
	char offs[MAXR][24], s[64], sl[128];
	int size[MAXR], stride[MAXR];

	if (!a)
		return;
	at = *a;
	t = at;
	t.dyn = 0;
	for (int d = 0; d < at.rank; d++) {
		stride[d] = chance(g, 30) && at.dims[d] >= 3 ? 2 : 1;
		size[d] = 1 + pick(g, (at.dims[d] - 1) / stride[d] + 1);
		slice_offset(g, at.dims[d], size[d], stride[d], offs[d], sizeof offs[d]);
		t.dims[d] = size[d];
	}
	slice_text(offs, size, stride, at.rank, sl, sizeof sl);
	v = new_value(g, &t, "v");
	line(g, "%%%s = extract_slice %%%s%s : %s", v->name, at.name, sl,
	     ty(&t, s, sizeof s));
	++g->sh->ops;
}

static void
gen_insert_slice(G *g)
{
	GV *d = any_tensor(g, T_RANKED), *src, *v, dt;
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
	src = &g->v[idx[n - 1 - pick(g, n)]];
	for (int k = 0; k < dt.rank; k++) {
		size[k] = src->dims[k];
		stride[k] = 2 * size[k] - 1 <= dt.dims[k] && size[k] > 1 &&
			    chance(g, 50) ? 2 : 1;
		strided |= stride[k] > 1;
		slice_offset(g, dt.dims[k], size[k], stride[k], offs[k], sizeof offs[k]);
	}
	if (strided)
		count(g, GC_STRIDED_INSERT);
	slice_text(offs, size, stride, dt.rank, sl, sizeof sl);
	v = new_value(g, &dt, "v");
	line(g, "%%%s = insert_slice %%%s into %%%s%s : %s", v->name, src->name,
	     dt.name, sl, ty(&dt, s, sizeof s));
	++g->sh->ops;
}

/* One index per dim, now and then a dynamic one (%n or a loop's iv) that
 * stays in bounds: "i, j, k". */
static void
element_index(G *g, const GV *a, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (int d = 0; d < a->rank; d++) {
		const Loop *l = NULL;
		bool use_n = false;
		if (chance(g, 25)) {
			l = loop_below(g, a->dims[d]);
			use_n = !l && a->dims[d] >= 4;
		}
		if (l || use_n)
			count(g, GC_DYN_INDEX);
		if (l)
			k += (size_t)snprintf(buf + k, n - k, "%s%%%s", d ? ", " : "", l->iv);
		else if (use_n)
			k += (size_t)snprintf(buf + k, n - k, "%s%%n", d ? ", " : "");
		else
			k += (size_t)snprintf(buf + k, n - k, "%s%d", d ? ", " : "",
					      pick(g, a->dims[d]));
	}
}

static void
gen_element(G *g)
{
	GV *a = any_tensor(g, 0), *v, sc, at;
	char idx[64], s[64], val[32];

	if (!a)
		return;
	at = *a;
	element_index(g, &at, idx, sizeof idx);
	if (chance(g, 50)) {
		sc = at;
		sc.scalar = true;
		v = new_value(g, &sc, "s");
		line(g, "%%%s = extract %%%s[%s] : %s", v->name, at.name, idx,
		     dtype_names[at.dt]);
	} else {
		scalar_operand(g, at.dt, 50, val, sizeof val);
		v = new_value(g, &at, "v");
		line(g, "%%%s = insert %s into %%%s[%s] : %s", v->name, val,
		     at.name, idx, ty(&at, s, sizeof s));
	}
	++g->sh->ops;
}

static void
gen_copy(G *g)
{
	GV *a = any_tensor(g, 0), *d, *v, at;
	char s[64], val[32];

	if (!a)
		return;
	at = *a;
	d = chance(g, 50) ? find(g, a, a) : NULL;
	v = new_value(g, &at, "v");
	if (d)
		line(g, "%%%s = copy %%%s into %%%s : %s", v->name, at.name, d->name,
		     ty(&at, s, sizeof s));
	else if (chance(g, 50))
		line(g, "%%%s = clone %%%s : %s", v->name, at.name, ty(&at, s, sizeof s));
	else
		line(g, "%%%s = fill %s into %%%s : %s", v->name,
		     scalar_operand(g, at.dt, 20, val, sizeof val), at.name,
		     ty(&at, s, sizeof s));
	++g->sh->ops;
}

static void
gen_from_elements(G *g, const GV *a)
{
	GV t = *a, *v;
	char s[64], val[32];
	int n = numel(a);

	if (n > 8)
		return;
	if (chance(g, 25)) /* of compares' results */
		t.dt = DT_I1;
	v = new_value(g, &t, "v");
	str_printf(g->out, "%*s%%%s = from_elements ", 2 * g->depth + 2, "", v->name);
	for (int i = 0; i < n; i++)
		str_printf(g->out, "%s%s", i ? ", " : "",
			   scalar_operand(g, t.dt, 50, val, sizeof val));
	str_printf(g->out, " : %s\n", ty(&t, s, sizeof s));
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

	if (a->rank >= 1 && numel(a) == 1 && chance(g, 30)) {
		t.rank = 0;
		grp = "[]";
	} else if (a->rank == 2) {
		t = tensor_type(a->dt, 1, (int[]){numel(a)});
		grp = "[[0, 1]]";
	} else if (a->rank == 3) {
		k = pick(g, 3);
		grp = groups3[k];
		t = k == 0 ? tensor_type(a->dt, 2, (int[]){a->dims[0] * a->dims[1], a->dims[2]})
		    : k == 1 ? tensor_type(a->dt, 2, (int[]){a->dims[0], a->dims[1] * a->dims[2]})
			     : tensor_type(a->dt, 1, (int[]){numel(a)});
	} else if (a->rank == 0) {
		op = "expand_shape";
		t = tensor_type(a->dt, 1, (int[]){1});
		grp = "[]";
	} else if (a->dims[0] % 2 == 0) {
		int d0 = chance(g, 50) ? 2 : a->dims[0] / 2;
		op = "expand_shape";
		if (a->rank == 1) {
			t = tensor_type(a->dt, 2, (int[]){d0, a->dims[0] / d0});
			grp = "[[0, 1]]";
		} else {
			return;
		}
	} else {
		return;
	}
	v = new_value(g, &t, "v");
	line(g, "%%%s = %s %%%s %s : %s", v->name, op, a->name, grp,
	     ty(&t, s, sizeof s));
	++g->sh->ops;
}

/* A 2-D tensor with an even dim 0 expanded to rank 3. */
static void
gen_expand3(G *g, const GV *a)
{
	GV t = tensor_type(a->dt, 3, (int[]){2, a->dims[0] / 2, a->dims[1]}), *v;
	char s[64];

	v = new_value(g, &t, "v");
	line(g, "%%%s = expand_shape %%%s [[0, 1], [2]] : %s", v->name, a->name,
	     ty(&t, s, sizeof s));
	++g->sh->ops;
}

/* from_elements of scalars in scope and literals; reshapes (static
 * types only). */
static void
gen_data(G *g)
{
	GV *a = any_tensor(g, T_STATIC), at;

	if (!a)
		return;
	at = *a;
	if (chance(g, 30))
		gen_from_elements(g, &at);
	else if (at.rank == 2 && at.dims[0] % 2 == 0 && chance(g, 40))
		gen_expand3(g, &at);
	else
		gen_reshape(g, &at);
}

/* ---- regions */

static void gen_ops(G *g, int n);

/* %a, %b = await %f (no results: `await %f`) */
static void
emit_await(G *g, const Fut *f)
{
	char names[48] = "";
	size_t k = 0;

	for (int i = 0; i < f->nres; i++) {
		GV *v = new_value(g, &f->res[i], "v");
		k += (size_t)snprintf(names + k, sizeof names - k, "%s%%%s",
				      i ? ", " : "", v->name);
	}
	if (f->nres)
		line(g, "%s = await %%%s", names, f->name);
	else
		line(g, "await %%%s", f->name);
	++g->sh->ops;
}

static void
await_pending(G *g, int scope)
{
	while (g->nfuts && g->futs[g->nfuts - 1].scope >= scope) {
		Fut *f = &g->futs[--g->nfuts];
		emit_await(g, f);
		if (g->nagain < 16 && chance(g, 40))
			g->again[g->nagain++] = *f;
	}
}

/* A future awaited before, awaited again (the results are the same). */
static void
await_again(G *g)
{
	Fut f = g->again[pick(g, g->nagain)];

	emit_await(g, &f);
	count(g, GC_AWAIT_AGAIN);
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
	for (int i = 0; i < g->nagain; i++)
		if (g->again[i].scope >= g->depth)
			g->again[i--] = g->again[--g->nagain];
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

/* "yield %a, %b" of values of types t[0..n) */
static void
emit_yield(G *g, const GV *t, int n, int mark)
{
	char buf[80] = "yield";
	size_t k = strlen(buf);

	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(buf + k, sizeof buf - k, "%s %%%s", i ? "," : "",
				      yield_of(g, &t[i], mark));
	line(g, "%s", buf);
}

/* End a region: await its launches, yield values of types t, leave. */
static void
close_region(G *g, const GV *t, int n, int mark)
{
	await_pending(g, g->depth);
	emit_yield(g, t, n, mark);
	leave(g, mark);
}

/* "(T1, T2)" */
static const char *
types_text(const GV *t, int n, char *buf, size_t size)
{
	char s[64];
	int k = snprintf(buf, size, "(");

	for (int i = 0; i < n; i++)
		k += snprintf(buf + k, size - (size_t)k, "%s%s", i ? ", " : "",
			      ty(&t[i], s, sizeof s));
	snprintf(buf + k, size - (size_t)k, ")");
	return buf;
}

/* An i1 condition: on a loop's iv (the branches alternate between trips),
 * on a computed i1 in scope, or on %n; its name into cond. */
static void
condition(G *g, bool on_iv, char *cond, size_t n)
{
	GV *c = !on_iv && chance(g, 25) ? any_scalar(g, DT_I1) : NULL;
	const char *on, *op;

	if (c) {
		snprintf(cond, n, "%s", c->name);
		return;
	}
	on = g->nloops && (on_iv || chance(g, 60))
		     ? g->loops[pick(g, g->nloops)].iv : "n";
	op = draw_ew(g, F_CMP, G_SCALAR, DT_INDEX);
	snprintf(cond, n, "c%d", g->sh->names++);
	line(g, "%%%s = %s %%%s, %d : index", cond, op, on, pick(g, 4));
	++g->sh->ops;
}

/* if without results: its values die with it, but it may write (a fill
 * into an outer value without reading it) and launch and await. */
static void
gen_if_bare(G *g, const char *cond)
{
	GV *t = any_tensor(g, 0);
	char s[64], lb[32];
	int mark;

	line(g, "if %%%s {", cond);
	mark = enter(g);
	if (t && chance(g, 50)) {
		GV tt = *t, *w = new_value(g, &tt, "v");
		line(g, "%%%s = fill %s into %%%s : %s", w->name,
		     literal(g, tt.dt, lb, sizeof lb), tt.name, ty(&tt, s, sizeof s));
		++g->sh->ops;
	}
	gen_ops(g, 1 + pick(g, 3));
	leave(g, mark);
	if (chance(g, 50)) {
		line(g, "} else {");
		mark = enter(g);
		gen_ops(g, 1 + pick(g, 2));
		leave(g, mark);
	}
	line(g, "}");
	count(g, GC_IF_BARE);
	g->sh->ops += 2;
}

static void
gen_if(G *g)
{
	GV *t = any_tensor(g, 0), *v, tt;
	char s[64], cond[16], lb[32];
	int mark, r;
	bool pair;

	if (!t || g->in_forall)
		return;
	tt = *t;
	/* now and then, in a loop, one branch writes an outer value without
	 * reading it while the other reads it: exclusive in one trip, not
	 * across the trips (the condition is on an iv) */
	pair = g->nloops && chance(g, 40) && (t = outer_tensor(g));
	if (pair)
		tt = *t;
	condition(g, pair, cond, sizeof cond);
	if (g->helper)
		count(g, GC_HELPER_BRANCH);
	if (!pair && chance(g, 30)) {
		gen_if_bare(g, cond);
		return;
	}
	r = g->sh->names++;
	line(g, "%%r%d = if %%%s -> (%s) {", r, cond, ty(&tt, s, sizeof s));
	mark = enter(g);
	if (pair) {
		GV *w = new_value(g, &tt, "v");
		line(g, "%%%s = fill %s into %%%s : %s", w->name,
		     literal(g, tt.dt, lb, sizeof lb), tt.name, s);
		++g->sh->ops;
	}
	gen_ops(g, 1 + pick(g, 3));
	close_region(g, &tt, 1, mark);
	line(g, "} else {");
	mark = enter(g);
	if (pair) {
		GV *u = new_value(g, &tt, "v");
		line(g, "%%%s = add %%%s, %s : %s", u->name, tt.name,
		     literal(g, tt.dt, lb, sizeof lb), s);
		++g->sh->ops;
	}
	gen_ops(g, pick(g, 3));
	close_region(g, &tt, 1, mark);
	line(g, "}");
	v = new_value(g, &tt, "r");
	snprintf(v->name, sizeof v->name, "r%d", r);
	count(g, GC_IF);
	g->sh->ops += 2;
}

/* for %i = LB to UB step S with one or two iter args (the second a
 * tensor or a scalar); zero trips when LB >= UB. */
static void
gen_for(G *g)
{
	GV *init = any_tensor(g, 0), *x, tt[2];
	char s[128], ub[16], hdr[400], res[32];
	int mark, r, k, bound, lb = 0, step = 1, n = 1;

	if (!init || g->nloops == 8)
		return;
	tt[0] = *init;
	k = g->sh->names++;
	r = g->sh->names++;
	if (chance(g, 30)) {
		x = chance(g, 40) ? any_scalar(g, DT_COUNT) : NULL;
		if (!x)
			x = any_tensor(g, 0);
		tt[n++] = *x;
	}
	if (chance(g, 30))
		lb = 1 + pick(g, 2);
	if (chance(g, 30))
		step = 2 + pick(g, 2);
	if (chance(g, 50)) {
		snprintf(ub, sizeof ub, "%%n");
		bound = 4;
	} else {
		bound = pick(g, 5);
		snprintf(ub, sizeof ub, "%d", bound);
	}
	if (n == 2)
		snprintf(res, sizeof res, "%%r%d, %%r%db", r, r);
	else
		snprintf(res, sizeof res, "%%r%d", r);
	snprintf(hdr, sizeof hdr, "%s = for %%i%d = %d to %s step %d iter(%%acc%d = %%%s",
		 res, k, lb, ub, step, k, tt[0].name);
	if (n == 2)
		snprintf(hdr + strlen(hdr), sizeof hdr - strlen(hdr),
			 ", %%acc%db = %%%s", k, tt[1].name);
	line(g, "%s) -> %s {", hdr, types_text(tt, n, s, sizeof s));
	mark = enter(g);
	for (int i = 0; i < n; i++) {
		GV *acc = new_value(g, &tt[i], "acc");
		snprintf(acc->name, sizeof acc->name, i ? "acc%db" : "acc%d", k);
	}
	snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops].mark = mark;
	g->loops[g->nloops++].ub = bound;
	gen_ops(g, 1 + pick(g, 3));
	g->nloops--;
	close_region(g, tt, n, mark);
	line(g, "}");
	for (int i = 0; i < n; i++) {
		GV *v = new_value(g, &tt[i], "r");
		snprintf(v->name, sizeof v->name, i ? "r%db" : "r%d", r);
	}
	count(g, GC_FOR);
	if (n > 1)
		count(g, GC_FOR_MULTI);
	if (lb)
		count(g, GC_FOR_START);
	if (step > 1)
		count(g, GC_FOR_STEP);
	g->sh->ops += 2;
}

/* A forall whose trip i writes row i (element i) of its shared output:
 * disjoint slices indexed by the iv.  Its body may read anything in scope,
 * the shared output too (its init's value); no launches or calls in it. */
static void
gen_forall(G *g)
{
	GV *t = any_tensor(g, T_RANKED), *x, *o, row, *e, *u, tt;
	char s[64], rs[64], lit[32], off[48], sz[64], tail[32];
	int mark, k, r, ub, lb;
	bool in_forall = g->in_forall;

	if (!t || g->nloops == 8)
		return;
	tt = *t;
	k = g->sh->names++;
	r = g->sh->names++;
	ub = pick(g, tt.dims[0] + 1);
	lb = chance(g, 20) ? 1 : 0;
	line(g, "%%r%d = forall %%i%d = %d to %d shared(%%o%d = %%%s) -> (%s) {",
	     r, k, lb, ub, k, tt.name, ty(&tt, s, sizeof s));
	mark = enter(g);
	o = new_value(g, &tt, "o");
	snprintf(o->name, sizeof o->name, "o%d", k);
	snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops].mark = mark;
	g->loops[g->nloops++].ub = tt.dims[0];
	g->in_forall = true;
	g->in_async++; /* no asserts in a forall body either */
	if (chance(g, 35)) { /* an element other trips may write */
		char idx[64];
		GV sc = tt;
		sc.scalar = true;
		element_index(g, &tt, idx, sizeof idx);
		line(g, "%%%s = extract %%%s[%s] : %s",
		     new_value(g, &sc, "s")->name, o->name, idx, dtype_names[tt.dt]);
		++g->sh->ops;
	}
	gen_ops(g, pick(g, 3));
	g->in_async--;
	g->in_forall = in_forall;
	g->nloops--;
	x = find(g, &tt, NULL);
	row = tt;
	row.dims[0] = 1;
	row.dyn = 0; /* slice sizes are literals */
	{
		int sizes[MAXR], strides[MAXR] = {1, 1, 1};
		char a[32], b[32];
		tail[0] = 0;
		for (int d = 0; d < tt.rank; d++)
			sizes[d] = row.dims[d];
		for (int d = 1; d < tt.rank; d++)
			strcat(tail, ", 0");
		snprintf(off, sizeof off, "%%i%d%s", k, tail);
		snprintf(sz, sizeof sz, "[%s] [%s]", int_list(sizes, tt.rank, a, sizeof a),
			 int_list(strides, tt.rank, b, sizeof b));
	}
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
	count(g, GC_FORALL);
	g->sh->ops += 5;
}

/* A while counting %c up to a bound (%n or a literal, so it ends), its
 * tensor iter arg rewritten in the do region; the condition region may
 * read the iter arg or an outer value on every trip. */
static void
gen_while(G *g)
{
	GV *init = any_tensor(g, 0), tt;
	char s[64], ub[16];
	int mark, r, k;

	if (!init || g->nloops == 8)
		return;
	tt = *init;
	k = g->sh->names++;
	r = g->sh->names++;
	if (chance(g, 50))
		snprintf(ub, sizeof ub, "%%n");
	else
		snprintf(ub, sizeof ub, "%d", pick(g, 4));
	line(g, "%%z%d = const 0 : index", k);
	line(g, "%%r%d, %%w%d = while iter(%%acc%d = %%%s, %%c%d = %%z%d) -> "
	     "(%s, index) {", r, r, k, tt.name, k, k, ty(&tt, s, sizeof s));
	g->depth++;
	if (chance(g, 50)) {
		char idx[64] = "", an[16];
		const GV *src = chance(g, 50) ? any_tensor(g, 0) : NULL;
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
	{
		GV *acc = new_value(g, &tt, "acc");
		snprintf(acc->name, sizeof acc->name, "acc%d", k);
	}
	gen_ops(g, 1 + pick(g, 3));
	await_pending(g, g->depth);
	line(g, "%%c%dn = add %%c%d, 1 : index", k, k);
	line(g, "yield %%%s, %%c%dn", yield_of(g, &tt, mark), k);
	leave(g, mark);
	line(g, "}");
	{
		GV *v = new_value(g, &tt, "r");
		snprintf(v->name, sizeof v->name, "r%d", r);
	}
	count(g, GC_WHILE);
	g->sh->ops += 3;
}

/* An assert that fails for some inputs (%n is 0..3, a loop's iv grows):
 * the failure path runs with whatever is live and pending then. */
static void
gen_assert(G *g)
{
	const char *on = g->nloops && chance(g, 50)
				 ? g->loops[g->nloops - 1].iv : "n";
	int k = g->sh->names++;

	if (g->in_async)
		return;
	line(g, "%%ok%d = lt %%%s, %d : index", k, on, 1 + pick(g, 4));
	line(g, "assert %%ok%d, \"%s stays small\"", k, on);
	*g->asserted = true;
	count(g, GC_ASSERT);
	g->sh->ops += 2;
}

/* A launch with zero, one or two results (the second a tensor or a
 * scalar in scope), awaited later. */
static void
gen_async(G *g)
{
	GV *t = any_tensor(g, 0), *x;
	char s[128];
	int mark, k, r = pick(g, 100), stream;
	Fut f = {0};

	if (!t || g->in_forall || g->nfuts == 32)
		return;
	f.nres = r < 15 ? 0 : r < 80 ? 1 : 2;
	f.res[0] = *t;
	if (f.nres == 2) {
		x = chance(g, 40) ? any_scalar(g, DT_COUNT) : NULL;
		f.res[1] = x ? *x : *any_tensor(g, 0);
	}
	k = g->sh->names++;
	stream = pick(g, 3);
	if (f.nres)
		line(g, "%%f%d = async stream %d -> %s {", k, stream,
		     types_text(f.res, f.nres, s, sizeof s));
	else
		line(g, "%%f%d = async stream %d {", k, stream);
	mark = enter(g);
	g->in_async++;
	gen_ops(g, 1 + pick(g, 3));
	g->in_async--;
	close_region(g, f.res, f.nres, mark);
	line(g, "}");
	snprintf(f.name, sizeof f.name, "f%d", k);
	f.scope = g->depth;
	g->futs[g->nfuts++] = f;
	count(g, GC_ASYNC);
	if (f.nres != 1)
		count(g, f.nres ? GC_FUT2 : GC_FUT0);
	if (g->helper)
		count(g, GC_HELPER_ASYNC);
	g->sh->ops += 2;
}

/* A param of a new helper: typed like its argument, now and then with
 * one dim dynamic (a static argument fits a dynamic param). */
static GV
param_like(G *g, const GV *a)
{
	GV p = *a;

	if (p.rank && chance(g, 25))
		p.dyn |= 1u << pick(g, p.rank);
	return p;
}

/* An argument for param p: same dtype, rank and real dims, static where p
 * is (the helper's body was made for those dims). */
static GV *
arg_for(G *g, const GV *p)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++) {
		const GV *c = &g->v[i];
		bool ok = !c->scalar && c->dt == p->dt && c->rank == p->rank &&
			  !(c->dyn & ~p->dyn);
		for (int d = 0; ok && d < p->rank; d++)
			ok = c->dims[d] == p->dims[d];
		if (ok)
			idx[n++] = i;
	}
	return n ? &g->v[idx[n - 1 - pick(g, n)]] : NULL;
}

/* %v = call @gK(%a, %b, IDX): the index is %n or a loop's iv below 4
 * (helpers assume %n < 4). */
static void
emit_call(G *g, const Helper *fn, GV *const *args)
{
	char buf[160];
	const Loop *l = chance(g, 30) ? loop_below(g, 4) : NULL;
	int k = 0;
	GV res = fn->params[0], *v;

	for (int d = 0; d < res.rank; d++)
		res.dims[d] = args[0]->dims[d];
	v = new_value(g, &res, "v");
	k = snprintf(buf, sizeof buf, "%%%s = call @%s(", v->name, fn->name);
	for (int i = 0; i < fn->nparams; i++)
		k += snprintf(buf + k, sizeof buf - (size_t)k, "%%%s, ", args[i]->name);
	snprintf(buf + k, sizeof buf - (size_t)k, "%%%s)", l ? l->iv : "n");
	line(g, "%s", buf);
	count(g, GC_CALL);
	if (fn->asserts)
		*g->asserted = true;
	if (g->helper)
		count(g, GC_HELPER_CALL);
	++g->sh->ops;
}

/* Call a helper made before again, with arguments that fit it. */
static void
call_again(G *g)
{
	const Helper *fn = &g->sh->fns[pick(g, g->sh->nfns)];
	GV *args[2];

	if (fn->asserts && g->in_async)
		return;
	for (int i = 0; i < fn->nparams; i++)
		if (!(args[i] = arg_for(g, &fn->params[i])))
			return;
	emit_call(g, fn, args);
	count(g, GC_CALL_AGAIN);
}

/* A helper function: params typed like values in scope (some readonly,
 * some dynamic) and `%n: index`, a few ops (branches, launches and calls
 * too), one result; then a call to it. */
static void
gen_call(G *g)
{
	GV *a, *b, *args[2];
	Str body = {0};
	G *h;
	Helper fn = {0};
	char s[64];
	bool asserted = false;

	if (g->in_forall)
		return;
	if (g->sh->nfns && chance(g, 35)) {
		call_again(g);
		return;
	}
	if (g->sh->started >= MAXFN || g->helper >= 2 || !(a = any_tensor(g, 0)))
		return;
	b = chance(g, 50) ? any_tensor(g, 0) : NULL;
	snprintf(fn.name, sizeof fn.name, "g%d", g->sh->started++);
	args[0] = a;
	args[1] = b;
	fn.params[fn.nparams++] = param_like(g, a);
	if (b)
		fn.params[fn.nparams++] = param_like(g, b);
	h = mem_calloc(1, sizeof *h);
	if (!h)
		abort();
	h->rng = g->rng;
	h->o = g->o;
	h->sh = g->sh;
	h->out = &body;
	h->depth = 1;
	h->dt = g->dt;
	h->helper = g->helper + 1;
	h->asserted = &asserted;
	h->in_async = g->in_async; /* a callee of a launch does not assert */
	for (int i = 0; i < fn.nparams; i++) {
		h->v[h->nv] = fn.params[i];
		snprintf(h->v[h->nv++].name, sizeof h->v[0].name, "q%d", i);
	}
	gen_ops(h, 1 + pick(g, 3));
	await_pending(h, 1);
	fn.asserts = asserted;
	str_printf(&g->sh->helpers, "  func @%s(", fn.name);
	for (int i = 0; i < fn.nparams; i++)
		str_printf(&g->sh->helpers, "%%q%d: %s%s, ", i,
			   ty(&fn.params[i], s, sizeof s),
			   chance(g, 40) ? " {readonly}" : "");
	str_printf(&g->sh->helpers, "%%n: index) -> %s {\n",
		   ty(&fn.params[0], s, sizeof s));
	if (body.s)
		str_puts(&g->sh->helpers, body.s);
	str_printf(&g->sh->helpers, "    return %%%s\n  }\n",
		   yield_of(h, &fn.params[0], 0));
	str_free(&body);
	mem_free(h);
	g->sh->fns[g->sh->nfns++] = fn;
	emit_call(g, &fn, args);
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
	if (g->nagain && chance(g, 15)) {
		await_again(g);
		return;
	}
	if (k < 24 || !mix)
		gen_elementwise(g);
	else if (k < 31)
		gen_scalar(g);
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
	for (int i = 0; i < n && g->sh->ops < g->o->max_ops; i++)
		gen_op(g);
}

/* ---- the whole case */

/* A param's type: ranks 0 to 3, now and then a dynamic dim, mostly the
 * program's dtype, else f32, i1, index or i64. */
static GV
param_type(G *g)
{
	static const int shapes[][4] = {{1, 4}, {1, 8}, {2, 2, 4}, {2, 4, 2},
					{2, 4, 4}, {2, 2, 2}, {0}, {3, 2, 2, 2},
					{3, 2, 4, 2}};
	static const DType other[] = {DT_F32, DT_I1, DT_INDEX, DT_I64};
	const int *sh = shapes[pick(g, 9)];
	DType dt = chance(g, 80) ? g->dt : other[pick(g, 4)];
	GV t = tensor_type(dt, sh[0], sh + 1);

	if (t.rank && chance(g, 15))
		t.dyn = 1u << pick(g, t.rank);
	return t;
}

/* `{random: S, min, max}`, with the shape of a dynamic param. */
static void
param_input(Str *y, const GV *p, int i, uint64_t seed)
{
	char sh[32];
	int lo = p->dt == DT_I1 ? 0 : -4, hi = p->dt == DT_I1 ? 1 : 4;

	uint64_t x = seed * 4 + (uint64_t)i;

	/* mixed, so that params of one program get different data; below
	 * 2^62, which the loader reads */
	str_printf(y, "  p%d: {random: %llu, min: %d, max: %d", i,
		   (unsigned long long)(rng_next(&x) >> 2), lo, hi);
	if (p->dyn)
		str_printf(y, ", shape: [%s]", int_list(p->dims, p->rank, sh, sizeof sh));
	str_puts(y, "}\n");
}

char *
gen_case_stats(uint64_t seed, const GenOpts *o, const char *strategy,
	       GenStats *st)
{
	uint64_t rng = seed;
	Str prog = {0}, yaml = {0};
	Shared sh = {0};
	static const DType dts[] = {DT_F32, DT_I32, DT_F32, DT_I32, DT_F64, DT_I64};
	G *g = mem_calloc(1, sizeof *g);
	GV params[3];
	char s[64];
	int outs[3], nouts, nparams;
	bool asserted = false;

	if (!g)
		return NULL;
	/* mixed first: seeds N and N+1 would otherwise be one stream shifted
	 * by one draw (3268 and 3271 gave the same program) */
	rng = rng_next(&rng);
	sh.st = st;
	g->rng = &rng;
	g->o = o;
	g->sh = &sh;
	g->out = &prog;
	g->asserted = &asserted;
	g->depth = 1;
	g->dt = dts[pick(g, 6)];
	nparams = 1 + pick(g, 3);
	/* outside strategies (exec:CMD) are named by their kind */
	str_printf(&yaml, "case: fuzz/%.*s-%llu\nabout: generated by bufdiff fuzz "
		"--seed %llu\nprogram: |\n  func @main(",
		(int)strcspn(strategy, ":"), strategy, (unsigned long long)seed,
		(unsigned long long)seed);
	for (int i = 0; i < nparams; i++) {
		GV *p = &g->v[g->nv++];
		*p = params[i] = param_type(g);
		snprintf(p->name, sizeof p->name, "p%d", i);
		count_type(g, p);
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
	if (sh.helpers.s)
		str_puts(&yaml, sh.helpers.s);
	str_printf(&yaml, "inputs:\n");
	for (int i = 0; i < nparams; i++)
		param_input(&yaml, &params[i], i, seed);
	str_printf(&yaml, "  n: %d\nruns:\n  - strategy: ", pick(g, 4));
	emit_quoted(&yaml, strategy);
	str_puts(&yaml, "\n");
	str_free(&prog);
	str_free(&sh.helpers);
	mem_free(g);
	return str_take(&yaml);
}

char *
gen_case(uint64_t seed, const GenOpts *o, const char *strategy)
{
	return gen_case_stats(seed, o, strategy, NULL);
}
