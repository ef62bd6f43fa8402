/*
 * data.c: tensor data in case files -> Tensor.
 *
 * Forms (FORMAT.md §2 plus our extensions, docs/cases.md):
 *   5                      one element (scalars, rank-0 tensors)
 *   [1, 2, 3, 4]           flat, row-major
 *   [[1, 2], [3, 4]]       nested: the nesting gives the shape
 *   {splat: V}             every element V
 *   {random: SEED, min: A, max: B}
 *   {data: LIST}           a list, with `shape:`
 * and `shape: [..]` in the mapping forms for `?` dimensions.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "cases.h"

/* One number as read for a dtype: ints exact, floats in the dtype. */
typedef struct Num {
	int64_t i;
	double f;
	bool undef;
} Num;

static bool
is_one_of(const char *s, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* nan / inf spellings of YAML and C; returns true and sets *f. */
static bool
special_float(const char *s, double *f)
{
	static const char *const nans[] = {"nan", ".nan", "NaN", ".NaN",
					   ".NAN", "NAN", NULL};
	static const char *const infs[] = {"inf", ".inf", "Inf", ".Inf", "INF",
					   ".INF", "infinity", NULL};
	bool neg = *s == '-';

	if (is_one_of(s, nans)) {
		*f = NAN;
		return true;
	}
	if (*s == '-' || *s == '+')
		s++;
	if (is_one_of(s, infs)) {
		*f = neg ? -INFINITY : INFINITY;
		return true;
	}
	return false;
}

/* A decimal or 0x integer; 0 ok, -1 not an integer, -2 out of int64. */
static int
parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	char *end;
	int base = 10;

	if (*p == '-' || *p == '+')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!*p || !(base == 16 || (*p >= '0' && *p <= '9')))
		return -1;
	errno = 0;
	*out = strtoll(s, &end, base);
	if (*end || end == s)
		return -1;
	return errno == ERANGE ? -2 : 0;
}

static bool
parse_float(const char *s, DType dt, double *out, bool *range)
{
	char *end;

	*range = false;
	if (special_float(s, out))
		return true;
	if (!*s)
		return false;
	errno = 0;
	if (dt == DT_F32)
		*out = strtof(s, &end);
	else
		*out = strtod(s, &end);
	if (*end || end == s)
		return false;
	*range = errno == ERANGE && isinf(*out);
	return true;
}

static void
int_range(DType dt, int64_t *lo, int64_t *hi)
{
	switch (dt) {
	case DT_I1:
		*lo = 0, *hi = 1;
		break;
	case DT_I32:
		*lo = INT32_MIN, *hi = INT32_MAX;
		break;
	default:
		*lo = INT64_MIN, *hi = INT64_MAX;
	}
}

/* A scalar node as a number of dtype dt. */
static Num
read_num(Loader *L, const yaml_node_t *n, DType dt, bool allow_undef,
	 const char *label)
{
	static const char *const trues[] = {"true", "True", "TRUE", NULL};
	static const char *const falses[] = {"false", "False", "FALSE", NULL};
	const char *s;
	Num v = {0, 0, false};
	int64_t lo, hi;
	bool range;
	int rc;

	if (n->type != YAML_SCALAR_NODE)
		yl_fail(L, yl_loc(n), "%s: expected a number, got a %s", label,
			yl_kind(n));
	s = yl_text(n);
	if (yl_is_null(n) || (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
			      !strcmp(s, "undef"))) {
		if (!allow_undef)
			yl_fail(L, yl_loc(n), "%s: 'undef' is only allowed in "
				"expected outputs", label);
		v.undef = true;
		return v;
	}
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		yl_fail(L, yl_loc(n), "%s: '%s' is a quoted string, not a number",
			label, s);
	if (dt == DT_I1 && (is_one_of(s, trues) || is_one_of(s, falses))) {
		v.i = is_one_of(s, trues);
		return v;
	}
	if (dtype_is_float(dt)) {
		if (!parse_float(s, dt, &v.f, &range))
			yl_fail(L, yl_loc(n), "%s: '%s' is not a number", label, s);
		if (range)
			yl_fail(L, yl_loc(n), "%s: %s is out of range for %s", label,
				s, dtype_names[dt]);
		return v;
	}
	rc = parse_int(s, &v.i);
	if (rc == -1) {
		if (parse_float(s, DT_F64, &v.f, &range))
			yl_fail(L, yl_loc(n), "%s: %s is not an integer (dtype %s)",
				label, s, dtype_names[dt]);
		yl_fail(L, yl_loc(n), "%s: '%s' is not a number", label, s);
	}
	int_range(dt, &lo, &hi);
	if (rc == -2 || v.i < lo || v.i > hi)
		yl_fail(L, yl_loc(n), "%s: %s is out of range for %s", label, s,
			dtype_names[dt]);
	return v;
}

static void
put(Loader *L, Tensor *t, int64_t i, Num v)
{
	if (v.undef) {
		if (!t->def) {
			t->def = arena_alloc(L->arena, (size_t)t->n);
			memset(t->def, 1, (size_t)t->n);
		}
		t->def[i] = 0;
	} else if (dtype_is_float(t->dt)) {
		tensor_setf(t, i, v.f);
	} else {
		tensor_seti(t, i, v.i);
	}
}

/* ------------------------------------------------------------ shapes */

/* How a node describes its data. */
typedef struct Shape {
	int rank;               /* nested depth, -1: no shape of its own */
	int64_t dims[MAXRANK];
	int64_t count;          /* elements written, -1 for splat/random */
} Shape;

static char *
dims_str(const int64_t *dims, int rank, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < rank && len < n; i++)
		len += (size_t)fmt_snprintf(buf + len, n - len, i ? "x%" PRId64 : "%" PRId64,
					dims[i]);
	if (!rank)
		fmt_snprintf(buf, n, "()");
	return buf;
}

/* The shape along the first item of each nesting level. */
static void
nested_shape(Loader *L, const yaml_node_t *n, const char *label, Shape *s)
{
	const yaml_node_t *top = n;

	s->rank = 0;
	while (n->type == YAML_SEQUENCE_NODE) {
		if (s->rank == MAXRANK)
			yl_fail(L, yl_loc(n), "%s: nested deeper than rank %d",
				label, MAXRANK);
		s->dims[s->rank++] = yl_nitems(n);
		if (!yl_nitems(n))
			break;
		n = yl_item(L, n, 0);
	}
	s->count = s->rank ? s->dims[0] : 1;
	if (s->rank <= 1)
		s->rank = -1; /* flat: the type decides the shape */
	else
		for (int i = 1; i < s->rank; i++) {
			/* YAML aliases make huge nests from a small file */
			if (s->dims[i] && s->count > INT64_MAX / s->dims[i])
				yl_fail(L, yl_loc(top), "%s: nested list is too "
					"large", label);
			s->count *= s->dims[i];
		}
}

static void
shape_key(Loader *L, const yaml_node_t *n, const char *label, Shape *s)
{
	int64_t v;

	if (n->type != YAML_SEQUENCE_NODE)
		yl_fail(L, yl_loc(n), "%s: 'shape' must be a list", label);
	if (yl_nitems(n) > MAXRANK)
		yl_fail(L, yl_loc(n), "%s: shape has rank %d, over %d", label,
			yl_nitems(n), MAXRANK);
	s->rank = yl_nitems(n);
	for (int i = 0; i < s->rank; i++) {
		yaml_node_t *d = yl_item(L, n, i);

		if (d->type != YAML_SCALAR_NODE || parse_int(yl_text(d), &v) ||
		    v < 0)
			yl_fail(L, yl_loc(d), "%s: shape dimensions must be "
				"integers >= 0", label);
		s->dims[i] = v;
	}
}

/* Resolve t's dims from an explicit shape (`shape:` or nesting) and the
 * element count; fail at `at` when they disagree or stay unknown. */
static int64_t
resolve(Loader *L, const yaml_node_t *at, const Type *t, const Shape *given,
	int64_t count, const Limits *lim, const char *label, int64_t *dims)
{
	char b1[128], b2[128];
	int rank = t->kind == TY_TENSOR ? t->rank : 0, ndyn = 0, dyn = -1;
	int64_t n = 1, known = 1;

	for (int i = 0; i < rank; i++)
		dims[i] = t->dims[i];
	if (given && given->rank >= 0) {
		if (given->rank != rank)
			yl_fail(L, yl_loc(at), "%s: data has rank %d, expected %d",
				label, given->rank, rank);
		for (int i = 0; i < rank; i++)
			if (dims[i] != DIM_DYN && dims[i] != given->dims[i])
				yl_fail(L, yl_loc(at), "%s has shape %s, expected %s",
					label, dims_str(given->dims, rank, b1, sizeof b1),
					type_str(t, b2, sizeof b2));
		memcpy(dims, given->dims, sizeof(int64_t) * (size_t)rank);
	}
	for (int i = 0; i < rank; i++) {
		if (dims[i] == DIM_DYN) {
			ndyn++;
			dyn = i;
		} else if (dims[i] && known > INT64_MAX / dims[i]) {
			yl_fail(L, yl_loc(at), "%s: shape is too large", label);
		} else {
			known *= dims[i];
		}
	}
	if (ndyn) {
		if (ndyn > 1 || count < 0 || known == 0 || count % known)
			yl_fail(L, yl_loc(at), "%s: cannot infer the shape of %s "
				"from the data (give a nested list or 'shape:')",
				label, type_str(t, b1, sizeof b1));
		dims[dyn] = count / known;
	}
	n = known * (ndyn ? dims[dyn] : 1);
	if (n > lim->max_elems)
		yl_fail(L, yl_loc(at), "%s has %" PRId64 " elements, over the "
			"limit of %" PRId64, label, n, lim->max_elems);
	if (count >= 0 && count != n)
		yl_fail(L, yl_loc(at), "%s has %" PRId64 " element%s, expected %"
			PRId64, label, count, count == 1 ? "" : "s", n);
	return n;
}

/* All data of one case file together (inputs, expected outputs, every
 * run's outputs): YAML aliases let a small file name one big list many
 * times, and each use is a tensor of its own. */
#define MAX_DATA_BYTES ((int64_t)1 << 30)

static Tensor *
new_tensor(Loader *L, const yaml_node_t *at, const Type *t,
	   const int64_t *dims, int64_t n)
{
	int64_t bytes = n * (int64_t)(dtype_size(t->dt) + 1);
	Tensor *x;

	if (bytes > MAX_DATA_BYTES - L->data_bytes)
		yl_fail(L, yl_loc(at), "the case's data needs more than %" PRId64
			" bytes (inputs and expected outputs together; YAML "
			"aliases count at each use)", MAX_DATA_BYTES);
	L->data_bytes += bytes;
	x = arena_alloc(L->arena, sizeof *x);

	x->dt = t->dt;
	x->rank = t->kind == TY_TENSOR ? t->rank : 0;
	memcpy(x->dims, dims, sizeof(int64_t) * (size_t)x->rank);
	x->n = n;
	x->data = arena_alloc(L->arena, (size_t)n * dtype_size(t->dt));
	return x;
}

/* ------------------------------------------------------------- forms */

typedef struct Fill {
	Loader *L;
	Tensor *t;
	bool allow_undef;
	const char *label;
	int64_t pos;
} Fill;

static void
fill_nested(Fill *F, const yaml_node_t *n, int depth)
{
	Loader *L = F->L;

	if (depth == F->t->rank) {
		if (n->type == YAML_SEQUENCE_NODE)
			yl_fail(L, yl_loc(n), "ragged nested list in %s", F->label);
		put(L, F->t, F->pos++, read_num(L, n, F->t->dt, F->allow_undef,
						F->label));
		return;
	}
	if (n->type != YAML_SEQUENCE_NODE || yl_nitems(n) != F->t->dims[depth])
		yl_fail(L, yl_loc(n), "ragged nested list in %s", F->label);
	for (int i = 0; i < yl_nitems(n); i++)
		fill_nested(F, yl_item(L, n, i), depth + 1);
}

static void
fill_flat(Fill *F, const yaml_node_t *n)
{
	Loader *L = F->L;

	if (n->type != YAML_SEQUENCE_NODE) {
		put(L, F->t, 0, read_num(L, n, F->t->dt, F->allow_undef, F->label));
		return;
	}
	for (int i = 0; i < yl_nitems(n); i++) {
		yaml_node_t *e = yl_item(L, n, i);

		if (e->type == YAML_SEQUENCE_NODE)
			yl_fail(L, yl_loc(e), "ragged nested list in %s", F->label);
		put(L, F->t, i, read_num(L, e, F->t->dt, F->allow_undef, F->label));
	}
}

/* A list or scalar, with an optional explicit shape. */
static Tensor *
from_list(Fill *F, const yaml_node_t *n, const Type *t, const Shape *given,
	  const Limits *lim)
{
	Shape s = {-1, {0}, 1};
	int64_t dims[MAXRANK], cnt;

	if (n->type == YAML_SEQUENCE_NODE)
		nested_shape(F->L, n, F->label, &s);
	if (s.rank >= 0 && given && given->rank >= 0) {
		/* nested data and `shape:`: both must agree with the type */
		cnt = resolve(F->L, n, t, given, -1, lim, F->label, dims);
		if (s.rank != given->rank ||
		    memcmp(s.dims, dims, sizeof(int64_t) * (size_t)s.rank))
			yl_fail(F->L, yl_loc(n), "%s: nested list does not match "
				"'shape'", F->label);
	}
	cnt = resolve(F->L, n, t, s.rank >= 0 ? &s : given, s.count, lim,
		      F->label, dims);
	F->t = new_tensor(F->L, n, t, dims, cnt);
	if (s.rank >= 0)
		fill_nested(F, n, 0);
	else
		fill_flat(F, n);
	return F->t;
}

static void
fill_random(Fill *F, const yaml_node_t *seed, const yaml_node_t *mn,
	    const yaml_node_t *mx)
{
	Loader *L = F->L;
	Tensor *t = F->t;
	Num lo = {0, 0, false}, hi = {1, 1, false};
	uint64_t state;
	int64_t s;

	if (seed->type != YAML_SCALAR_NODE || parse_int(yl_text(seed), &s) ||
	    s < 0)
		yl_fail(L, yl_loc(seed), "%s: the random seed must be an "
			"integer >= 0", F->label);
	state = (uint64_t)s;
	if (mn)
		lo = read_num(L, mn, t->dt, false, F->label);
	if (mx)
		hi = read_num(L, mx, t->dt, false, F->label);
	if (dtype_is_float(t->dt) ? !(lo.f <= hi.f) : lo.i > hi.i)
		yl_fail(L, yl_loc(mn ? mn : mx), "%s: random needs min <= max",
			F->label);
	/* an infinite bound or span would give infinities and NaN */
	if (dtype_is_float(t->dt) && !isfinite(hi.f - lo.f))
		yl_fail(L, yl_loc(!isfinite(lo.f) ? mn : mx), "%s: random needs "
			"finite min and max (max - min finite too)", F->label);
	for (int64_t i = 0; i < t->n; i++) {
		uint64_t x = rng_next(&state);

		if (dtype_is_float(t->dt)) {
			double u = (double)(x >> 11) * 0x1p-53;
			tensor_setf(t, i, lo.f + u * (hi.f - lo.f));
		} else {
			uint64_t span = (uint64_t)hi.i - (uint64_t)lo.i + 1;
			uint64_t off = span ? x % span : x;
			tensor_seti(t, i, (int64_t)((uint64_t)lo.i + off));
		}
	}
}

static Tensor *
from_mapping(Fill *F, const yaml_node_t *n, const Type *t, const Limits *lim)
{
	static const char *const keys[] = {"splat", "random", "data", "shape",
					   "min", "max", NULL};
	enum { SPLAT, RANDOM, DATA, SHAPE, MIN, MAX };
	Loader *L = F->L;
	yaml_node_t *v[6];
	Shape s = {-1, {0}, -1};
	int64_t dims[MAXRANK], cnt;
	char where[128];

	fmt_snprintf(where, sizeof where, "%s", F->label);
	yl_keys(L, n, keys, where, v, NULL);
	if (!!v[SPLAT] + !!v[RANDOM] + !!v[DATA] != 1)
		yl_fail(L, yl_loc(n), "%s: give exactly one of 'splat', "
			"'random' or 'data'", F->label);
	if ((v[MIN] || v[MAX]) && !v[RANDOM])
		yl_fail(L, yl_loc(v[MIN] ? v[MIN] : v[MAX]), "%s: 'min' and "
			"'max' go with 'random'", F->label);
	if (v[SHAPE])
		shape_key(L, v[SHAPE], F->label, &s);
	if (v[DATA]) {
		if (v[DATA]->type == YAML_MAPPING_NODE)
			yl_fail(L, yl_loc(v[DATA]), "%s: 'data' must be a list",
				F->label);
		return from_list(F, v[DATA], t, &s, lim);
	}
	cnt = resolve(L, v[SHAPE] ? v[SHAPE] : n, t, &s, -1, lim, F->label, dims);
	F->t = new_tensor(L, n, t, dims, cnt);
	if (v[SPLAT]) {
		Num x = read_num(L, v[SPLAT], t->dt, F->allow_undef, F->label);
		for (int64_t i = 0; i < cnt; i++)
			put(L, F->t, i, x);
	} else {
		fill_random(F, v[RANDOM], v[MIN], v[MAX]);
	}
	return F->t;
}

Tensor *
data_tensor(Loader *L, const yaml_node_t *n, const Type *t, const Limits *lim,
	    bool allow_undef, const char *label)
{
	Fill F = {L, NULL, allow_undef, label, 0};
	char b[128];

	if (t->kind == TY_FUTURE)
		yl_fail(L, yl_loc(n), "%s: no data can be given for %s", label,
			type_str(t, b, sizeof b));
	if (n->type == YAML_MAPPING_NODE)
		return from_mapping(&F, n, t, lim);
	return from_list(&F, n, t, NULL, lim);
}

Tensor **
data_outputs(Loader *L, const yaml_node_t *n, Type *const *rtypes, int nrtypes,
	     const Limits *lim, const char *label)
{
	Tensor **outs;
	char lb[96];

	if (n->type != YAML_SEQUENCE_NODE)
		yl_fail(L, yl_loc(n), "'outputs' must be a list (one entry per "
			"result)");
	if (yl_nitems(n) != nrtypes)
		yl_fail(L, yl_loc(n), "'outputs' has %d entr%s, expected %d (one "
			"per result)", yl_nitems(n), yl_nitems(n) == 1 ? "y" : "ies",
			nrtypes);
	outs = arena_alloc(L->arena, sizeof *outs * (size_t)(nrtypes ? nrtypes : 1));
	for (int i = 0; i < nrtypes; i++) {
		fmt_snprintf(lb, sizeof lb, "%soutput %d", label, i);
		outs[i] = data_tensor(L, yl_item(L, n, i), rtypes[i], lim, true,
				      arena_strdup(L->arena, lb));
	}
	return outs;
}
