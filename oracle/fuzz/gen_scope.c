/*
 * gen_scope.c: what the generator draws from: random choices, the values
 * in scope (picked by type), their text and their statistics.
 */
#include <stdarg.h>
#include <stdio.h>

#include "gen_impl.h"

/* A G is tens of KB: the ones freed are kept for the next programs (a
 * block that big, allocated and freed a few times a program, made glibc
 * consolidate its fast bins each time). */
static G *kept[4];
static int nkept;

G *
gen_new(void)
{
	G *g;

	if (!nkept)
		g = mem_alloc(sizeof *g);
	else if ((g = mem_unpark(kept[nkept - 1], sizeof *g)))
		nkept--;
	if (g)
		memset(g, 0, offsetof(G, v));
	return g;
}

void
gen_free(G *g)
{
	if (g && nkept < (int)(sizeof kept / sizeof *kept) && mem_park(g))
		kept[nkept++] = g;
	else
		mem_free(g);
}

/* ---- text */

void
gen_line_text(G *g, const char *fmt, ...)
{
	static const char spaces[] = "                                ";
	char buf[512];
	va_list ap;
	int k, ind = 2 * (g->depth - g->cfgdepth) + 2;

	va_start(ap, fmt);
	k = fmt_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* a function body's blocks all sit at its indentation (formatted
	 * once: this is most of the program's text) */
	for (; ind > 0; ind -= (int)sizeof spaces - 1)
		str_put(g->out, spaces, (size_t)(ind < (int)sizeof spaces - 1 ?
					 ind : (int)sizeof spaces - 1));
	str_put(g->out, buf, k < 0 ? 0 : k < (int)sizeof buf ? (size_t)k
							 : sizeof buf - 1);
	str_put(g->out, "\n", 1);
}

void
gen_count(G *g, GenConstruct c)
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

int
gen_pick(G *g, int n)
{
	return n > 0 ? (int)(rnd(g) % (uint64_t)n) : 0;
}

bool
gen_chance(G *g, int percent)
{
	return gen_pick(g, 100) < percent;
}

const char *
gen_ty(const GV *v, char *buf, size_t n)
{
	/* by hand: the generator types every value it makes */
	char t[64], *p = t;
	const char *dt = dtype_names[v->dt];
	size_t len;

	if (!v->scalar) {
		memcpy(p, "tensor<", 7), p += 7;
		for (int d = 0; d < v->rank; d++) {
			if (v->dyn >> d & 1)
				*p++ = '?';
			else if (v->dims[d] >= 0 && v->dims[d] < 10)
				*p++ = (char)('0' + v->dims[d]);
			else
				p += fmt_snprintf(p, 12, "%d", v->dims[d]);
			*p++ = 'x';
		}
	}
	len = strlen(dt);
	memcpy(p, dt, len), p += len;
	if (!v->scalar)
		*p++ = '>';
	len = (size_t)(p - t);
	if (n) {
		len = len < n ? len : n - 1;
		memcpy(buf, t, len);
		buf[len] = 0;
	}
	return buf;
}

bool
gen_same_type(const GV *a, const GV *b)
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

/* Statistics of tensor types, counted where values are made. */
void
gen_count_type(G *g, const GV *v)
{
	if (v->scalar)
		return;
	if (v->rank == 0)
		gen_count(g, GC_RANK0);
	if (v->rank >= 3)
		gen_count(g, GC_RANK3);
	if (v->dyn)
		gen_count(g, GC_DYNAMIC);
	if (v->dt == DT_I1)
		gen_count(g, GC_I1_TENSOR);
	if (v->dt == DT_INDEX)
		gen_count(g, GC_INDEX_TENSOR);
}

/* "%s%d" by hand (a name for every value made). */
void
gen_name_int(char *buf, size_t n, const char *prefix, int k)
{
	char d[12], *p = d + sizeof d;
	size_t lp = strlen(prefix), ld;

	do
		*--p = (char)('0' + k % 10);
	while ((k /= 10));
	ld = (size_t)(d + sizeof d - p);
	if (lp + ld >= n) { /* (never: names are short) */
		fmt_snprintf(buf, n, "%s%.*s", prefix, (int)ld, p);
		return;
	}
	memcpy(buf, prefix, lp);
	memcpy(buf + lp, p, ld);
	buf[lp + ld] = 0;
}

GV *
gen_new_value(G *g, const GV *like, const char *prefix)
{
	GV *v;

	if (g->nv == MAXV) {
		g->nv--; /* forget the newest: still valid, never picked */
		/* (a GV pointer held across this, to the slot it takes, now
		 * names another value: the text is what it is, but the
		 * program is not built; gen_build.c) */
		if (GEN_BUILD(g))
			g->sh->gb->broken = true;
	}
	v = &g->v[g->nv++];
	*v = *like;
	gen_name_int(v->name, sizeof v->name, prefix, g->sh->names++);
	gen_count_type(g, v);
	return v;
}


static bool
fits(const GV *v, int want)
{
	return !v->scalar && (!(want & T_RANKED) || v->rank > 0) &&
	       (!(want & T_STATIC) || !v->dyn);
}

/* A random tensor in scope: now and then an old one (a long-lived value
 * read late), mostly a recent one. */
/* Value i, picked: in a launch body, a tensor from outside it is what
 * the launch reads (no draw: the programs stay the same). */
static GV *
outer_read(G *g, int i)
{
	if (g->in_async && i < g->async_mark)
		fmt_snprintf(g->async_read, sizeof g->async_read, "%s",
			     g->v[i].name);
	return &g->v[i];
}

GV *
gen_any_tensor(G *g, int want)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (fits(&g->v[i], want))
			idx[n++] = i;
	if (!n)
		return NULL;
	if (gen_chance(g, 30))
		return outer_read(g, idx[gen_pick(g, n < 3 ? n : 3)]);
	return outer_read(g, idx[n - 1 - gen_pick(g, n < 6 ? n : 6)]);
}

/* A tensor defined before the innermost loop (read on every trip). */
GV *
gen_outer_tensor(G *g)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->loops[g->nloops - 1].mark; i++)
		if (!g->v[i].scalar)
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - gen_pick(g, n)]] : NULL;
}

GV *
gen_find(G *g, const GV *like, const GV *not)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (gen_same_type(&g->v[i], like) && &g->v[i] != not)
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - gen_pick(g, n)]] : NULL;
}

const char *
gen_name_of(const GV *v)
{
	/* none (only past MAXV, where a slot was reused): the text printf
	 * wrote for a NULL name, rejected as before */
	return v ? v->name : "(null)";
}

/* A scalar in scope, of dtype dt (DT_COUNT: any). */
GV *
gen_any_scalar(G *g, DType dt)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++)
		if (g->v[i].scalar && (dt == DT_COUNT || g->v[i].dt == dt))
			idx[n++] = i;
	return n ? &g->v[idx[n - 1 - gen_pick(g, n)]] : NULL;
}

const char *
gen_literal(G *g, DType dt, char *buf, size_t n)
{
	int k = dt == DT_I1 ? gen_pick(g, 2) : gen_pick(g, 9) - 4;

	if (dtype_is_float(dt))
		fmt_snprintf(buf, n, "%d.%d", k, gen_pick(g, 2) * 5);
	else
		fmt_snprintf(buf, n, "%d", k);
	return buf;
}

/* A scalar of dtype dt: a value in scope now and then, else a literal. */
const char *
gen_scalar_operand(G *g, DType dt, int percent, char *buf, size_t n)
{
	GV *x = gen_chance(g, percent) ? gen_any_scalar(g, dt) : NULL;

	if (x)
		fmt_snprintf(buf, n, "%%%s", x->name);
	else
		gen_literal(g, dt, buf, n);
	return buf;
}

GV
gen_tensor_type(DType dt, int rank, const int *dims)
{
	GV t = {"", dt, rank, {0}, 0, false};

	for (int d = 0; d < rank; d++)
		t.dims[d] = dims[d];
	return t;
}

/* "a, b, c" of n ints */
const char *
gen_int_list(const int *x, int n, char *buf, size_t size)
{
	int k = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++)
		k += fmt_snprintf(buf + k, size - (size_t)k, "%s%d", i ? ", " : "", x[i]);
	return buf;
}

/* The innermost loop whose iv stays below bound, or NULL. */
const Loop *
gen_loop_below(G *g, int bound)
{
	const Loop *l = g->nloops ? &g->loops[gen_pick(g, g->nloops)] : NULL;

	return l && l->ub <= bound ? l : NULL;
}
