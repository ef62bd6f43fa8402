/*
 * kernels.c: one kernel per op form over strided views; OpenBLAS matmul.
 *
 * Elementwise kernels (binary, unary, compare, copy, fill, transpose,
 * reduce) share one driver: the operands' dims are collapsed (size-1 dims
 * dropped, dims merged where every operand is contiguous across them) and
 * the last remaining dim is handed to a row function chosen once per call
 * from a table indexed by (ew, dtype).  A row function has a flat path per
 * contiguity pattern (all stride 1, or one operand a broadcast scalar) that
 * the compiler vectorizes, one for two stride-2 inputs into an out larger
 * than the cache, and a plain strided loop otherwise.  An input
 * read across its rows (a transposed view) is walked in tiles copied to a
 * local row-major block first.  Every path applies the same scalar
 * function to every element, so the bits never depend on strides, offsets
 * or alignment.  See docs/kernels.md.
 */
#include <cblas.h>
#include <math.h>
#include <stdint.h>

#include "ir.h"
#include "kernels.h"

void
shape_strides(int rank, const int64_t *dims, int64_t *strides)
{
	int64_t s = 1;
	bool empty = false;

	for (int i = 0; i < rank; i++)
		empty |= dims[i] == 0;
	for (int i = rank - 1; i >= 0; i--) {
		strides[i] = empty ? 0 : s;
		if (!empty)
			s *= dims[i];
	}
}

View
view_of(const Tensor *t)
{
	View v;

	memset(&v, 0, sizeof v);
	v.base = t->data;
	v.dt = t->dt;
	v.rank = t->rank;
	for (int i = 0; i < t->rank; i++)
		v.sizes[i] = t->dims[i];
	shape_strides(t->rank, t->dims, v.strides);
	return v;
}

/* ------------------------------------------------ scalar functions */

/* Float -> integer without UB: NaN is 0, out of range saturates. */
static int64_t
sat_i64(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775808.0)
		return INT64_MAX;
	if (v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static int32_t
sat_i32(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

/*
 * max/min: NaN when either operand is NaN (the first NaN operand is
 * returned, so the result does not depend on the evaluation path).
 */
#define FLOAT_FNS(P, T, EXP, FABS)                                           \
	static inline T P##_add(T x, T y) { return x + y; }                  \
	static inline T P##_sub(T x, T y) { return x - y; }                  \
	static inline T P##_mul(T x, T y) { return x * y; }                  \
	static inline T P##_div(T x, T y) { return x / y; }                  \
	static inline T P##_max(T x, T y)                                    \
	{                                                                    \
		return x != x ? x : y != y ? y : x > y ? x : y;              \
	}                                                                    \
	static inline T P##_min(T x, T y)                                    \
	{                                                                    \
		return x != x ? x : y != y ? y : x < y ? x : y;              \
	}                                                                    \
	static inline T P##_neg(T x) { return -x; }                          \
	static inline T P##_abs(T x) { return FABS(x); }                     \
	static inline T P##_exp(T x) { return EXP(x); }                      \
	static inline T P##_relu(T x) { return P##_max(x, (T)0); }

FLOAT_FNS(f32, float, expf, fabsf)
FLOAT_FNS(f64, double, exp, fabs)

/*
 * Integers: two's complement wrap, computed in the unsigned type U of the
 * same width (no signed overflow); x / 0 = 0, INT_MIN / -1 = INT_MIN.
 */
#define INT_FNS(P, T, U)                                                \
	static inline T P##_add(T x, T y) { return (T)((U)x + (U)y); }       \
	static inline T P##_sub(T x, T y) { return (T)((U)x - (U)y); }       \
	static inline T P##_mul(T x, T y) { return (T)((U)x * (U)y); }       \
	static inline T P##_div(T x, T y)                                    \
	{                                                                    \
		return y == 0 ? 0 : y == -1 ? (T)(0 - (U)x) : x / y;         \
	}                                                                    \
	static inline T P##_max(T x, T y) { return x > y ? x : y; }          \
	static inline T P##_min(T x, T y) { return x < y ? x : y; }          \
	static inline T P##_neg(T x) { return (T)(0 - (U)x); }               \
	static inline T P##_abs(T x) { return x < 0 ? (T)(0 - (U)x) : x; }   \
	static inline T P##_relu(T x) { return x > 0 ? x : 0; }

INT_FNS(i32, int32_t, uint32_t)
INT_FNS(i64, int64_t, uint64_t)

/* i1: the value is bit 0 (0 or 1, unsigned); results keep bit 0. */
static inline uint8_t i1_add(uint8_t x, uint8_t y) { return (x ^ y) & 1; }
static inline uint8_t i1_sub(uint8_t x, uint8_t y) { return (x ^ y) & 1; }
static inline uint8_t i1_mul(uint8_t x, uint8_t y) { return x & y & 1; }
static inline uint8_t i1_div(uint8_t x, uint8_t y) { return y & 1 ? x & 1 : 0; }
static inline uint8_t i1_max(uint8_t x, uint8_t y) { return (x | y) & 1; }
static inline uint8_t i1_min(uint8_t x, uint8_t y) { return x & y & 1; }
static inline uint8_t i1_neg(uint8_t x) { return x & 1; }
static inline uint8_t i1_abs(uint8_t x) { return x & 1; }
static inline uint8_t i1_relu(uint8_t x) { return x & 1; }

/* Comparisons give i1 0/1; NaN compares false except ne. */
#define CMP_FNS(P, T, V)                                                     \
	static inline uint8_t P##_lt(T x, T y) { return V(x) < V(y); }       \
	static inline uint8_t P##_le(T x, T y) { return V(x) <= V(y); }      \
	static inline uint8_t P##_eq(T x, T y) { return V(x) == V(y); }      \
	static inline uint8_t P##_ne(T x, T y) { return V(x) != V(y); }      \
	static inline uint8_t P##_gt(T x, T y) { return V(x) > V(y); }       \
	static inline uint8_t P##_ge(T x, T y) { return V(x) >= V(y); }

#define AS_IS(x) (x)
#define BIT0(x) ((x) & 1)
CMP_FNS(f32, float, AS_IS)
CMP_FNS(f64, double, AS_IS)
CMP_FNS(i1, uint8_t, BIT0)
CMP_FNS(i32, int32_t, AS_IS)
CMP_FNS(i64, int64_t, AS_IS)

/* Bit copies (copy, fill, transpose): through unsigned integers, so a
 * signalling NaN's bits are kept. */
static inline uint8_t u8_id(uint8_t x) { return x; }
static inline uint32_t u32_id(uint32_t x) { return x; }
static inline uint64_t u64_id(uint64_t x) { return x; }

/* ------------------------------------------------------ row functions */

/* One row: n elements, strides in elements (may be 0 or negative). */
typedef struct Row {
	int64_t n;
	char *o;
	const char *a, *b;
	int64_t so, sa, sb;
	bool stream;    /* out is larger than the cache: store past it */
} Row;

typedef void RowFn(const Row *r);

/*
 * Flat loops work in blocks: the block's inputs are loaded into locals
 * before any output is stored, which keeps in-place operation (out == a)
 * exact and lets gcc -O2 vectorize without alias checks.
 */
#define BLK 16

#define FLAT_BIN(TI, FN, XA, YB)                                             \
	do {                                                                 \
		int64_t i_ = 0;                                              \
		for (; i_ + BLK <= n; i_ += BLK) {                           \
			TI x_[BLK], y_[BLK];                                 \
			for (int j_ = 0; j_ < BLK; j_++)                     \
				x_[j_] = XA(i_ + j_);                        \
			for (int j_ = 0; j_ < BLK; j_++)                     \
				y_[j_] = YB(i_ + j_);                        \
			for (int j_ = 0; j_ < BLK; j_++)                     \
				po[i_ + j_] = FN(x_[j_], y_[j_]);            \
		}                                                            \
		for (; i_ < n; i_++)                                         \
			po[i_] = FN(XA(i_), YB(i_));                         \
	} while (0)

/*
 * Both inputs at stride 2, out contiguous and larger than the cache: in
 * blocks, each input's even elements picked out of contiguous loads
 * (kmem_even: two vector loads and a shuffle for four elements instead
 * of four scalar loads), the block computed into a local and stored past
 * the cache (kmem_stream_block), as memcpy stores an out this large: a
 * plain store reads each line of out before writing it.
 */
#define EVEN_BIN(TI, TO, FN)                                                 \
	do {                                                                 \
		int64_t i_ = 0;                                              \
		/* a block loads one element past its last: not the row's */ \
		for (; i_ + BLK < n; i_ += BLK) {                            \
			TI x_[BLK], y_[BLK];                                 \
			TO r_[BLK];                                          \
			kmem_even(x_, pa + 2 * i_, BLK, sizeof(TI));         \
			kmem_even(y_, pb + 2 * i_, BLK, sizeof(TI));         \
			for (int j_ = 0; j_ < BLK; j_++)                     \
				r_[j_] = FN(x_[j_], y_[j_]);                 \
			kmem_stream_block(po + i_, r_, sizeof r_);           \
		}                                                            \
		for (; i_ < n; i_++)                                         \
			po[i_] = FN(pa[2 * i_], pb[2 * i_]);                 \
	} while (0)

#define VEC_A(i) pa[i]
#define VEC_B(i) pb[i]
#define SCL_A(i) xa
#define SCL_B(i) yb

#define ROW_BIN(NAME, TO, TI, FN)                                            \
	static void NAME(const Row *r)                                       \
	{                                                                    \
		TO *po = (TO *)(void *)r->o;                                 \
		const TI *pa = (const TI *)(const void *)r->a;               \
		const TI *pb = (const TI *)(const void *)r->b;               \
		int64_t n = r->n, so = r->so, sa = r->sa, sb = r->sb;        \
                                                                             \
		if (so == 1 && sa == 1 && sb == 1) {                         \
			FLAT_BIN(TI, FN, VEC_A, VEC_B);                      \
		} else if (so == 1 && sa == 1 && sb == 0) {                  \
			TI yb = pb[0];                                       \
			FLAT_BIN(TI, FN, VEC_A, SCL_B);                      \
		} else if (so == 1 && sa == 0 && sb == 1) {                  \
			TI xa = pa[0];                                       \
			FLAT_BIN(TI, FN, SCL_A, VEC_B);                      \
		} else if (so == 1 && sa == 2 && sb == 2 && r->stream) {     \
			EVEN_BIN(TI, TO, FN);                                \
		} else {                                                     \
			for (int64_t i = 0; i < n; i++)                      \
				po[i * so] = FN(pa[i * sa], pb[i * sb]);     \
		}                                                            \
	}

#define ROW_UN(NAME, T, FN)                                                  \
	static void NAME(const Row *r)                                       \
	{                                                                    \
		T *po = (T *)(void *)r->o;                                   \
		const T *pa = (const T *)(const void *)r->a;                 \
		int64_t n = r->n, so = r->so, sa = r->sa;                    \
                                                                             \
		if (so == 1 && sa == 1) {                                    \
			int64_t i = 0;                                       \
			for (; i + BLK <= n; i += BLK) {                     \
				T x_[BLK];                                   \
				for (int j = 0; j < BLK; j++)                \
					x_[j] = pa[i + j];                   \
				for (int j = 0; j < BLK; j++)                \
					po[i + j] = FN(x_[j]);               \
			}                                                    \
			for (; i < n; i++)                                   \
				po[i] = FN(pa[i]);                           \
		} else if (so == 1 && sa == 0) {                             \
			T y = FN(pa[0]);                                     \
			for (int64_t i = 0; i < n; i++)                      \
				po[i] = y;                                   \
		} else {                                                     \
			for (int64_t i = 0; i < n; i++)                      \
				po[i * so] = FN(pa[i * sa]);                 \
		}                                                            \
	}

/*
 * The row functions of every EW row of ops.h, one per dtype class its rule
 * allows: row_f32_add from f32_add, row_i1_lt from i1_lt, ...  A missing
 * scalar function is a compile error here.
 */
#define SCALAR_FN(FN)                                                        \
	_Static_assert(sizeof(&FN) > 0, "scalar function " #FN);
#define ROW_F_BINARY(P, T, fn)                                               \
	SCALAR_FN(P##_##fn) ROW_BIN(row_##P##_##fn, T, T, P##_##fn)
#define ROW_F_UNARY(P, T, fn)                                                \
	SCALAR_FN(P##_##fn) ROW_UN(row_##P##_##fn, T, P##_##fn)
#define ROW_F_CMP(P, T, fn)                                                  \
	SCALAR_FN(P##_##fn) ROW_BIN(row_##P##_##fn, uint8_t, T, P##_##fn)
#define FLOAT_ROWS(form, fn)                                                 \
	ROW_##form(f32, float, fn) ROW_##form(f64, double, fn)
#define INT_ROWS(form, fn)                                                   \
	ROW_##form(i1, uint8_t, fn) ROW_##form(i32, int32_t, fn)             \
	ROW_##form(i64, int64_t, fn)
#define ROWS_R_ANY(form, fn) FLOAT_ROWS(form, fn) INT_ROWS(form, fn)
#define ROWS_R_FLOAT(form, fn) FLOAT_ROWS(form, fn)
#define ROWS_R_INT(form, fn) INT_ROWS(form, fn)

#define OP(e, name, form, ew, write, rd)
#define EW(e, fn, form, rule, ...) ROWS_##rule(form, fn)
#include "ops.h"
#undef EW
#undef OP

ROW_UN(row_copy8, uint8_t, u8_id)
ROW_UN(row_copy32, uint32_t, u32_id)
ROW_UN(row_copy64, uint64_t, u64_id)

/* Dtype classes: index behaves as i64. */
enum { C_F32, C_F64, C_I1, C_I32, C_I64, NCLASS };

static int
dt_class(DType dt)
{
	switch (dt) {
	case DT_F32:
		return C_F32;
	case DT_F64:
		return C_F64;
	case DT_I1:
		return C_I1;
	case DT_I32:
		return C_I32;
	default:
		return C_I64;
	}
}

/* Indexed by [op][class], from the EW rows of ops.h; NULL for the
 * classes a row's rule excludes and for the other ops. */
#define CLASS_ROWS_R_ANY(fn)                                                 \
	{row_f32_##fn, row_f64_##fn, row_i1_##fn, row_i32_##fn, row_i64_##fn}
#define CLASS_ROWS_R_FLOAT(fn) {row_f32_##fn, row_f64_##fn, NULL, NULL, NULL}
#define CLASS_ROWS_R_INT(fn) {NULL, NULL, row_i1_##fn, row_i32_##fn, row_i64_##fn}

static RowFn *const ew_rows[][NCLASS] = {
#define OP(e, name, form, ew, write, rd) [OP_##e] = {NULL},
#define EW(e, fn, form, rule, ...) [OP_##e] = CLASS_ROWS_##rule(fn),
#include "ops.h"
#undef EW
#undef OP
};
_Static_assert(sizeof ew_rows / sizeof *ew_rows == OP_COUNT,
	       "one kernel row per op of ops.h");

/* The row function of elementwise op ew (of form `form`) on dtype dt. */
static RowFn *
row_for(OpKind ew, Form form, DType dt)
{
	RowFn *fn = NULL;

	if (ew >= 0 && ew < OP_COUNT && op_info[ew].form == form)
		fn = ew_rows[ew][dt_class(dt)];
	if (!fn)
		ir_bug("no kernel row for %s on %s",
		       ew >= 0 && ew < OP_COUNT ? op_info[ew].name : "(none)",
		       dtype_names[dt]);
	return fn;
}

/* ------------------------------------------------------- overlaps */

static char *
first_elem(const View *v)
{
	return (char *)v->base + v->off * (int64_t)dtype_size(v->dt);
}

/* The byte range [lo, hi) a view touches (it is not empty). */
static void
byte_range(const View *v, uintptr_t *lo, uintptr_t *hi)
{
	int64_t min = 0, max = 0, esz = (int64_t)dtype_size(v->dt);

	for (int d = 0; d < v->rank; d++) {
		int64_t e = (v->sizes[d] - 1) * v->strides[d];

		if (e < 0)
			min += e;
		else
			max += e;
	}
	*lo = (uintptr_t)first_elem(v) + (uintptr_t)(min * esz);
	*hi = (uintptr_t)first_elem(v) + (uintptr_t)((max + 1) * esz);
}

static bool
overlaps(const View *x, const View *y)
{
	uintptr_t xl, xh, yl, yh;

	byte_range(x, &xl, &xh);
	byte_range(y, &yl, &yh);
	return xl < yh && yl < xh;
}

/* ----------------------------------------------------------- driver */

/* Up to three operands (out, a, b) walked over out's shape. */
typedef struct Iter {
	int nv;
	int rank;                    /* collapsed, >= 1; last dim is the row */
	int64_t sizes[MAXRANK];
	int64_t strides[3][MAXRANK]; /* elements */
	char *base[3];               /* element (0, ..., 0) */
	int64_t esz[3];
} Iter;

/*
 * Drop size-1 dims and merge dim d into the kept dim before it when every
 * operand steps across both as one: stride[p] == stride[d] * size[d].
 * An operand of rank 0 is broadcast (strides 0).  False when empty.
 */
static bool
iter_init(Iter *it, int nv, const View *const *v)
{
	const View *shape = v[0];

	it->nv = nv;
	it->rank = 0;
	for (int k = 0; k < nv; k++) {
		it->esz[k] = (int64_t)dtype_size(v[k]->dt);
		it->base[k] = (char *)v[k]->base + v[k]->off * it->esz[k];
	}
	for (int d = 0; d < shape->rank; d++) {
		int64_t n = shape->sizes[d], st[3];
		bool merge = it->rank > 0;

		if (n == 0)
			return false;
		if (n == 1)
			continue;
		for (int k = 0; k < nv; k++) {
			st[k] = v[k]->rank ? v[k]->strides[d] : 0;
			if (merge && it->strides[k][it->rank - 1] != st[k] * n)
				merge = false;
		}
		if (merge) {
			it->sizes[it->rank - 1] *= n;
		} else {
			it->sizes[it->rank] = n;
			it->rank++;
		}
		for (int k = 0; k < nv; k++)
			it->strides[k][it->rank - 1] = st[k];
	}
	if (it->rank == 0) {
		it->rank = 1;
		it->sizes[0] = 1;
		for (int k = 0; k < nv; k++)
			it->strides[k][0] = 0;
	}
	return true;
}

/* The element offsets of outer index idx[0..upto) for each operand. */
static void
iter_at(const Iter *it, const int64_t *idx, int upto, char **p)
{
	for (int k = 0; k < it->nv; k++) {
		int64_t e = 0;

		for (int d = 0; d < upto; d++)
			e += idx[d] * it->strides[k][d];
		p[k] = it->base[k] + e * it->esz[k];
	}
}

/* Call fn once per row, outer dims in row-major order; stream: out may
 * be stored past the cache. */
static void
iter_run(const Iter *it, RowFn *fn, bool stream)
{
	int64_t idx[MAXRANK] = {0};
	int outer = it->rank - 1;
	char *p[3] = {0};
	Row r;

	r.n = it->sizes[outer];
	r.stream = stream;
	r.so = it->strides[0][outer];
	r.sa = it->nv > 1 ? it->strides[1][outer] : 0;
	r.sb = it->nv > 2 ? it->strides[2][outer] : 0;
	for (;;) {
		iter_at(it, idx, outer, p);
		r.o = p[0];
		r.a = p[1];
		r.b = p[2];
		fn(&r);
		int d = outer - 1;
		while (d >= 0 && ++idx[d] == it->sizes[d])
			idx[d--] = 0;
		if (d < 0)
			break;
	}
}

/*
 * An input read across its rows (a transposed view: stride +-1 on the
 * second-to-last dim, a long stride on the last) touches a new cache line
 * per element, and at power-of-two strides every line falls in the same
 * cache set.  Such inputs are walked in tiles of the last two dims, up to
 * TROWS rows of RUN bytes: each tile is first read down its columns into
 * a local row-major copy (kmem_tile_load: 4x4 blocks through registers),
 * whose rows then go to the row function as contiguous rows.  The copy's
 * row stride is padded by a cache line, or its columns would fall in one
 * cache set.  Each run read (a column of a tiled input, a row of another)
 * is a few cache lines, too short for the hardware prefetcher to see
 * coming, and the next one is far away: so while a tile is read, the
 * same runs of the next tile are prefetched, one for one.  Only where
 * every element is independent: out writes each element once (no
 * broadcast, no reduce) and shares no element with an input.
 */
enum {
	RUN = 512,              /* bytes of a tile row, at most */
	TROWS = 128,            /* rows of a tile, at most */
	TPAD = 64,              /* bytes added to a copy's row */
	ACROSS_MIN = 16,        /* a longer inner stride is "across" */
};

/* Whether operand k is read across its rows. */
static bool
across(const Iter *it, int k)
{
	int64_t in = it->strides[k][it->rank - 1];
	int64_t acr = it->strides[k][it->rank - 2];

	return (in > ACROSS_MIN || in < -ACROSS_MIN) && (acr == 1 || acr == -1);
}

static bool
iter_tiles(const Iter *it)
{
	int d = it->rank - 1;
	bool any = false;

	if (it->rank < 2 || it->sizes[d] < 16 || it->sizes[d - 1] < 8 ||
	    it->strides[0][d] == 0 || it->strides[0][d - 1] == 0)
		return false;
	for (int k = 1; k < it->nv; k++)
		any |= across(it, k);
	return any;
}

/* A tile of the last two dims: ni rows of nj from (i0, j0) of a plane;
 * q[k] operand k's element (i0, j0). */
typedef struct Tile {
	int64_t i0, j0, ni, nj;
	char *q[3];
} Tile;

static void
tile_at(const Iter *it, char *const *p, int64_t tr, int64_t tc, int64_t i0,
	int64_t j0, Tile *t)
{
	int dr = it->rank - 2, dc = it->rank - 1;
	int64_t R = it->sizes[dr], C = it->sizes[dc];

	t->i0 = i0;
	t->j0 = j0;
	t->ni = R - i0 < tr ? R - i0 : tr;
	t->nj = C - j0 < tc ? C - j0 : tc;
	for (int k = 0; k < it->nv; k++)
		t->q[k] = p[k] + (i0 * it->strides[k][dr] +
				  j0 * it->strides[k][dc]) * it->esz[k];
}

static void
iter_run_tiled(const Iter *it, RowFn *fn)
{
	static _Thread_local _Alignas(64) char copy[2][TROWS * (RUN + TPAD)];
	int64_t idx[MAXRANK] = {0}, emax = 1, ts[3] = {0};
	int dr = it->rank - 2, dc = it->rank - 1;
	int64_t R = it->sizes[dr], C = it->sizes[dc], tr, tc;
	bool tiled[3] = {false, false, false}, rowrun[3] = {false};
	char *p[3] = {0};
	Row r;

	for (int k = 0; k < it->nv; k++)
		emax = it->esz[k] > emax ? it->esz[k] : emax;
	tc = RUN / emax;
	tr = TROWS;
	for (int k = 0; k < it->nv; k++) {
		int64_t s = it->strides[k][dc];

		tiled[k] = k > 0 && across(it, k);
		rowrun[k] = !tiled[k] && (s == 1 || s == -1);
		ts[k] = tc + TPAD / it->esz[k];
	}
	r.stream = false;
	r.so = it->strides[0][dc];
	r.sa = it->nv > 1 ? (tiled[1] ? 1 : it->strides[1][dc]) : 0;
	r.sb = it->nv > 2 ? (tiled[2] ? 1 : it->strides[2][dc]) : 0;
	for (;;) {
		Tile t, n;

		iter_at(it, idx, dr, p);
		tile_at(it, p, tr, tc, 0, 0, &t);
		for (;;) {
			bool right = t.j0 + tc < C, more = right || t.i0 + tr < R;

			if (more) /* the next tile: right, or the next row's first */
				tile_at(it, p, tr, tc, right ? t.i0 : t.i0 + tr,
					right ? t.j0 + tc : 0, &n);
			for (int k = 1; k < it->nv; k++) {
				const int64_t *st = it->strides[k];
				int64_t e = it->esz[k];

				if (!tiled[k])
					continue;
				for (int64_t j = 0; more && j < n.nj; j++)
					kmem_prefetch(n.q[k] + j * st[dc] * e,
						      n.ni * st[dr] * e);
				kmem_tile_load(copy[k - 1], ts[k], t.q[k], st[dr],
					       st[dc], e, t.ni, t.nj);
			}
			r.n = t.nj;
			for (int64_t i = 0; i < t.ni; i++) {
				char *row[3] = {0};

				for (int k = 0; k < it->nv; k++) {
					int64_t e = it->esz[k];
					int64_t o = i * it->strides[k][dr] * e;

					if (rowrun[k] && more && i < n.ni)
						kmem_prefetch(n.q[k] + o,
							      n.nj * it->strides[k][dc] * e);
					row[k] = tiled[k] ? copy[k - 1] + i * ts[k] * e
							  : t.q[k] + o;
				}
				r.o = row[0];
				r.a = it->nv > 1 ? row[1] : NULL;
				r.b = it->nv > 2 ? row[2] : NULL;
				fn(&r);
			}
			if (!more)
				break;
			t = n;
		}
		int d = dr - 1;
		while (d >= 0 && ++idx[d] == it->sizes[d])
			idx[d--] = 0;
		if (d < 0)
			break;
	}
}

/* out is the input itself (the same view), or shares no byte with it. */
static bool
apart(const View *out, const View *in)
{
	if (!in)
		return true;
	if (in->base == out->base && in->off == out->off &&
	    in->rank == out->rank &&
	    !memcmp(in->strides, out->strides,
		    sizeof(int64_t) * (size_t)in->rank) &&
	    !memcmp(in->sizes, out->sizes, sizeof(int64_t) * (size_t)in->rank))
		return true;
	return !overlaps(out, in);
}

/*
 * Whether out is stored past the cache: when it is k_stream_min bytes or
 * more (larger than a core's share of the caches: the next op finds
 * little of it there anyway), every element is written once (no
 * broadcast or reduce into out: no stride 0) and no input shares a byte
 * with it (the blocks read before they write: only the row-major order
 * is right for overlapping views, stride2_overlap_order).
 */
int64_t k_stream_min = 8 << 20;

static bool
ew_stream(const Iter *it, const View *out, const View *a, const View *b)
{
	int64_t n = it->esz[0];

	for (int d = 0; d < it->rank; d++) {
		if (it->strides[0][d] == 0)
			return false;
		n *= it->sizes[d];
	}
	return n >= k_stream_min && !overlaps(out, a) && !overlaps(out, b);
}

/*
 * Whether v is row-major and dense with out's shape (size-1 dims at any
 * stride): the elements of both in one run, in the same order.  *n the
 * elements.
 */
static inline bool
dense_as(const View *v, const View *out, int64_t *n)
{
	int64_t st = 1;

	if (v->rank != out->rank)
		return false;
	for (int d = v->rank - 1; d >= 0; d--) {
		int64_t s = out->sizes[d];
		if (v->sizes[d] != s ||
		    (s != 1 && (v->strides[d] != st || out->strides[d] != st)))
			return false;
		st *= s;
	}
	*n = st;
	return true;
}

static void
ew_run(RowFn *fn, const View *out, const View *a, const View *b)
{
	const View *v[3] = {out, a, b};
	Iter it;
	bool stream;
	int64_t n;

	/* the common small case (the fuzzer's): every view dense with
	 * out's shape, too small to stream: one row, as the iterator
	 * would merge it, without building the iterator */
	if (dense_as(a, out, &n) && (!b || dense_as(b, out, &n)) && n > 0 &&
	    n * (int64_t)dtype_size(out->dt) < k_stream_min) {
		fn(&(Row){.n = n, .o = first_elem(out), .a = first_elem(a),
			  .b = b ? first_elem(b) : NULL, .so = 1, .sa = 1,
			  .sb = b ? 1 : 0});
		return;
	}
	if (!iter_init(&it, b ? 3 : 2, v))
		return;
	/* the overlap check only where tiles are possible */
	if (iter_tiles(&it) && apart(out, a) && apart(out, b)) {
		iter_run_tiled(&it, fn);
		return;
	}
	stream = b && ew_stream(&it, out, a, b);
	iter_run(&it, fn, stream);
	if (stream)
		kmem_fence();
}

void
k_binary(OpKind ew, const View *out, const View *a, const View *b)
{
	ew_run(row_for(ew, F_BINARY, out->dt), out, a, b);
}

void
k_unary(OpKind ew, const View *out, const View *a)
{
	ew_run(row_for(ew, F_UNARY, out->dt), out, a, NULL);
}

void
k_cmp(OpKind ew, const View *out, const View *a, const View *b)
{
	ew_run(row_for(ew, F_CMP, a->dt), out, a, b);
}

/* ----------------------------------------------- copy, fill, transpose */

/* Element loads and stores for copies between dtypes (slow path). */
static double
load_f(DType dt, const char *p)
{
	if (dt == DT_F32)
		return *(const float *)(const void *)p;
	return *(const double *)(const void *)p;
}

static int64_t
load_i(DType dt, const char *p)
{
	switch (dt) {
	case DT_I1:
		return *(const uint8_t *)p & 1;
	case DT_I32:
		return *(const int32_t *)(const void *)p;
	default:
		return *(const int64_t *)(const void *)p;
	}
}

/* Float -> int saturates (NaN 0); int -> narrower int wraps; -> i1 keeps
 * bit 0. */
static void
convert(DType to, char *o, DType from, const char *a)
{
	int64_t i;

	if (dtype_is_float(to)) {
		double f = dtype_is_float(from) ? load_f(from, a)
						: (double)load_i(from, a);
		if (to == DT_F32)
			*(float *)(void *)o = (float)f;
		else
			*(double *)(void *)o = f;
		return;
	}
	if (!dtype_is_float(from))
		i = load_i(from, a);
	else if (to == DT_I32)
		i = sat_i32(load_f(from, a));
	else
		i = sat_i64(load_f(from, a));
	if (to == DT_I1)
		*(uint8_t *)o = (uint8_t)(i & 1);
	else if (to == DT_I32)
		*(int32_t *)(void *)o = (int32_t)(uint32_t)(uint64_t)i;
	else
		*(int64_t *)(void *)o = i;
}

static void
copy_convert(const View *out, const View *in)
{
	const View *v[2] = {out, in};
	int64_t idx[MAXRANK] = {0};
	Iter it;

	if (!iter_init(&it, 2, v))
		return;
	for (;;) {
		int64_t eo = 0, ea = 0;

		for (int d = 0; d < it.rank; d++) {
			eo += idx[d] * it.strides[0][d];
			ea += idx[d] * it.strides[1][d];
		}
		convert(out->dt, it.base[0] + eo * it.esz[0], in->dt,
			it.base[1] + ea * it.esz[1]);
		int d = it.rank - 1;
		while (d >= 0 && ++idx[d] == it.sizes[d])
			idx[d--] = 0;
		if (d < 0)
			break;
	}
}

void
k_copy(const View *out, const View *in)
{
	RowFn *fn;
	int64_t n;

	if (out->dt != in->dt) {
		copy_convert(out, in);
		return;
	}
	/* two dense views of one shape in different buffers (which never
	 * share a byte): the bytes at once */
	if (out->base != in->base && dense_as(in, out, &n)) {
		memcpy(first_elem(out), first_elem(in),
		       (size_t)n * dtype_size(out->dt));
		return;
	}
	switch (dtype_size(out->dt)) {
	case 1:
		fn = row_copy8;
		break;
	case 4:
		fn = row_copy32;
		break;
	default:
		fn = row_copy64;
	}
	ew_run(fn, out, in, NULL);
}

void
k_fill(const View *out, const View *scalar)
{
	View s = *scalar; /* its first element, broadcast */

	s.rank = 0;
	k_copy(out, &s);
}

void
k_transpose(const View *out, const View *a, const int *perm)
{
	View p = *a;

	for (int j = 0; j < a->rank; j++) {
		p.sizes[j] = a->sizes[perm[j]];
		p.strides[j] = a->strides[perm[j]];
	}
	k_copy(out, &p);
}

/* ------------------------------------------------------------- reduce */

/*
 * out is seen at a's rank with stride 0 on the folded dims; the fold is
 * then the in-place binary op out' = out' (op) a, walked in a's row-major
 * order, so the order of the additions is fixed.
 */
void
k_reduce(OpKind ew, const View *out, const View *a, const int *dims, int ndims)
{
	View o = *out;
	int j = 0, k = 0;

	o.rank = a->rank;
	for (int d = 0; d < a->rank; d++) {
		o.sizes[d] = a->sizes[d];
		if (k < ndims && dims[k] == d) {
			o.strides[d] = 0;
			k++;
		} else {
			o.strides[d] = out->strides[j++];
		}
	}
	ew_run(row_for(ew, F_BINARY, out->dt), &o, &o, a);
}

/* ------------------------------------------------------------- matmul */

/*
 * How gemm takes a 2-D view without copying it: row-major with a leading
 * dimension (strides {ld, 1}: a dense matrix or a block of rows and
 * columns of one) is NoTrans, column-major (strides {1, ld}: a transposed
 * view) is Trans.  Size-1 dims have no stride that matters.  False for
 * anything else (inner strides other than 1, broadcasts, negative
 * strides), which is packed.
 */
typedef struct Gm {
	const char *p;
	bool trans;
	int ld;
} Gm;

static bool
gemm_layout(const View *v, Gm *g)
{
	int64_t r = v->sizes[0], c = v->sizes[1];
	int64_t s0 = r > 1 ? v->strides[0] : c > 1 ? c : 1;
	int64_t s1 = c > 1 ? v->strides[1] : 1;

	g->p = first_elem(v);
	if (s1 == 1 && s0 >= (c > 1 ? c : 1) && s0 <= INT32_MAX) {
		g->trans = false;
		g->ld = (int)s0;
		return true;
	}
	s0 = r > 1 ? v->strides[0] : 1;
	s1 = c > 1 ? v->strides[1] : r > 1 ? r : 1;
	if (s0 == 1 && s1 >= (r > 1 ? r : 1) && s1 <= INT32_MAX) {
		g->trans = true;
		g->ld = (int)s1;
		return true;
	}
	return false;
}

/*
 * An operand for gemm: the view itself when gemm can take it (and it may
 * be used in place; an output must be row-major), else a copy packed
 * dense row-major into a 64-byte-aligned temporary (raw allocation in
 * *raw, to free; t the packed view).  -1 when out of memory.
 */
static int
operand(const View *v, bool mustpack, bool out, Gm *g, View *t, void **raw)
{
	size_t esz = dtype_size(v->dt);
	size_t n = (size_t)(v->sizes[0] * v->sizes[1]);
	uintptr_t p;

	*t = *v;
	*raw = NULL;
	if (!mustpack && gemm_layout(v, g) && !(out && g->trans))
		return 0;
	*raw = mem_alloc(n * esz + 63);
	if (!*raw)
		return -1;
	p = ((uintptr_t)*raw + 63) & ~(uintptr_t)63;
	t->base = (void *)p;
	t->off = 0;
	t->strides[0] = v->sizes[1];
	t->strides[1] = 1;
	k_copy(t, v);
	gemm_layout(t, g);
	return 0;
}

/* Integer matmul: wrapping sums in uint64, truncated to the dtype. */
static void
int_matmul(const View *out, const View *a, const View *b)
{
	int64_t M = a->sizes[0], K = a->sizes[1], N = b->sizes[1];
	int64_t eo = (int64_t)dtype_size(out->dt);
	char *po = first_elem(out);
	const char *pa = first_elem(a), *pb = first_elem(b);

	for (int64_t i = 0; i < M; i++) {
		for (int64_t j = 0; j < N; j++) {
			char *o = po + (i * out->strides[0] +
					j * out->strides[1]) * eo;
			uint64_t acc = (uint64_t)load_i(out->dt, o);

			for (int64_t k = 0; k < K; k++) {
				const char *x = pa + (i * a->strides[0] +
						      k * a->strides[1]) * eo;
				const char *y = pb + (k * b->strides[0] +
						      j * b->strides[1]) * eo;
				acc += (uint64_t)load_i(a->dt, x) *
				       (uint64_t)load_i(b->dt, y);
			}
			if (out->dt == DT_I1)
				*(uint8_t *)o = (uint8_t)(acc & 1);
			else if (out->dt == DT_I32)
				*(int32_t *)(void *)o = (int32_t)(uint32_t)acc;
			else
				*(int64_t *)(void *)o = (int64_t)acc;
		}
	}
}

/*
 * Small products (M*N*K <= MM_SMALL: the fuzzer's 4x4x4 to 8x8x8) cost
 * less than OpenBLAS's call around them (about 90 ns for 4x4x4: a mutex
 * around its buffers, the packing), so they are summed here: each element
 * of out as acc = the sum over k ascending of a(i,k) * b(k,j), then
 * out += acc, as gemm with alpha = beta = 1.  Which way a product goes
 * depends on M, N and K only, never on the layouts, so every layout of
 * the same operands gives the same bits (tests/test_kernels.c).  A row
 * of out is computed a vector of columns at a time (each lane its own
 * element's sum, in k order: the bits of the scalar loop, which does the
 * rest); a column-major b is first copied row-major.  No multiply is
 * fused into an add (ISO C mode for gcc, the pragma for clang, and no
 * FMA in the targets built for).
 */
enum { MM_SMALL = 512 };

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#ifdef __SSE2__
#define SMALL_VEC(T, V, W, ZERO, ADD, MUL, SET1, LOAD, STORE)                 \
	for (; j + W <= N; j += W) {                                         \
		V acc_ = ZERO();                                             \
		for (int k = 0; k < K; k++)                                  \
			acc_ = ADD(acc_, MUL(SET1(pa[i * ia + k * ka]),      \
					     LOAD(pb + (int64_t)k * ldb + j))); \
		STORE(o + j, ADD(LOAD(o + j), acc_));                        \
	}
#define SMALL_VEC_F32                                                        \
	SMALL_VEC(float, __m128, 4, _mm_setzero_ps, _mm_add_ps, _mm_mul_ps,  \
		  _mm_set1_ps, _mm_loadu_ps, _mm_storeu_ps)
#define SMALL_VEC_F64                                                        \
	SMALL_VEC(double, __m128d, 2, _mm_setzero_pd, _mm_add_pd, _mm_mul_pd, \
		  _mm_set1_pd, _mm_loadu_pd, _mm_storeu_pd)
#else
#define SMALL_VEC_F32
#define SMALL_VEC_F64
#endif

#define SMALL_GEMM(NAME, T, VEC)                                             \
	static void NAME(int M, int N, int K, const Gm *c, const Gm *a,      \
			 const Gm *b)                                        \
	{                                                                    \
		T packed[MM_SMALL];                                          \
		const T *pa = (const T *)(const void *)a->p;                 \
		const T *pb = (const T *)(const void *)b->p;                 \
		T *pc = (T *)(void *)c->p;                                   \
		int64_t ia = a->trans ? 1 : a->ld, ka = a->trans ? a->ld : 1; \
		int64_t ldb = b->ld;                                         \
                                                                             \
		if (b->trans) { /* b(k, j) at pb[j * ld + k]: row-major */   \
			for (int k = 0; k < K; k++)                          \
				for (int j = 0; j < N; j++)                  \
					packed[k * N + j] = pb[(int64_t)j * ldb + k]; \
			pb = packed;                                         \
			ldb = N;                                             \
		}                                                            \
		for (int i = 0; i < M; i++) {                                \
			T *o = pc + (int64_t)i * c->ld;                      \
			int j = 0;                                           \
			VEC                                                  \
			for (; j < N; j++) {                                 \
				T acc = 0;                                   \
				for (int k = 0; k < K; k++)                  \
					acc += pa[i * ia + k * ka] *         \
					       pb[(int64_t)k * ldb + j];     \
				o[j] += acc;                                 \
			}                                                    \
		}                                                            \
	}
SMALL_GEMM(small_sgemm, float, SMALL_VEC_F32)
SMALL_GEMM(small_dgemm, double, SMALL_VEC_F64)

static inline void
gemm(DType dt, int M, int N, int K, const Gm *c, const Gm *a, const Gm *b)
{
	CBLAS_TRANSPOSE ta, tb;

	if ((int64_t)M * N * K <= MM_SMALL) {
		if (dt == DT_F32)
			small_sgemm(M, N, K, c, a, b);
		else
			small_dgemm(M, N, K, c, a, b);
		return;
	}
	ta = a->trans ? CblasTrans : CblasNoTrans;
	tb = b->trans ? CblasTrans : CblasNoTrans;
	if (dt == DT_F32)
		cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, 1.0f,
			    (const float *)(const void *)a->p, a->ld,
			    (const float *)(const void *)b->p, b->ld, 1.0f,
			    (float *)(void *)c->p, c->ld);
	else
		cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, 1.0,
			    (const double *)(const void *)a->p, a->ld,
			    (const double *)(const void *)b->p, b->ld, 1.0,
			    (double *)(void *)c->p, c->ld);
}

/*
 * One operand in O(1): its leading dimension when it is row-major (*t
 * false) or column-major (*t true) with both dims over 1, else 0 (size-1
 * dims and the rest go the general way); [*lo, *hi) the bytes it spans.
 */
static inline int64_t
fast_ld(const View *v, int64_t esz, bool *t, uintptr_t *lo, uintptr_t *hi)
{
	int64_t r = v->sizes[0], c = v->sizes[1];
	int64_t s0 = v->strides[0], s1 = v->strides[1], ld, span;

	if (r < 2 || c < 2)
		return 0;
	if (s1 == 1 && s0 >= c) {
		*t = false;
		ld = s0;
		span = (r - 1) * s0 + c;
	} else if (s0 == 1 && s1 >= r) {
		*t = true;
		ld = s1;
		span = (c - 1) * s1 + r;
	} else {
		return 0;
	}
	*lo = (uintptr_t)v->base + (uintptr_t)(v->off * esz);
	*hi = *lo + (uintptr_t)(span * esz);
	return ld <= INT32_MAX ? ld : 0;
}

/*
 * The fuzzer's matmuls are 4x4 to 16x16, where a call costs about as
 * much as the arithmetic (the smallest are summed by gemm() itself, the
 * rest by OpenBLAS): the common case (floats, every operand
 * in a layout gemm reads, out row-major, no input sharing a byte with
 * out) is decided here in O(1) with no call; anything else goes the
 * general way below.  Both hand gemm the same operands.
 */
static inline bool
matmul_fast(const View *out, const View *a, const View *b)
{
	DType dt = out->dt;
	int64_t esz = dt == DT_F32 ? 4 : 8, la, lb, lc;
	uintptr_t al, ah, bl, bh, cl, ch;
	bool ta, tb, tc;

	if ((dt != DT_F32 && dt != DT_F64) | (a->dt != dt) | (b->dt != dt) |
	    (out->rank != 2) | (a->rank != 2) | (b->rank != 2))
		return false;
	if (!(lc = fast_ld(out, esz, &tc, &cl, &ch)) || tc ||
	    !(la = fast_ld(a, esz, &ta, &al, &ah)) ||
	    !(lb = fast_ld(b, esz, &tb, &bl, &bh)) || (al < ch && cl < ah) ||
	    (bl < ch && cl < bh))
		return false;
	gemm(dt, (int)a->sizes[0], (int)b->sizes[1], (int)a->sizes[1],
	     &(Gm){(const char *)cl, false, (int)lc},
	     &(Gm){(const char *)al, ta, (int)la},
	     &(Gm){(const char *)bl, tb, (int)lb});
	return true;
}

/*
 * Floats: every operand reaches gemm as it is when gemm can read it
 * (row-major with a leading dimension, or column-major through the
 * transpose flag), else packed dense row-major.  OpenBLAS copies A and B
 * into its own panels before it multiplies (and its small-matrix kernels
 * read them in the same order whatever the flags), and gemm()'s own sums
 * (small products) go in k order whatever the layout, so the bits do not
 * depend on the layout, the leading dimension or the alignment:
 * tests/test_kernels.c checks dense against padded, transposed and packed
 * operands at the fuzzer's sizes and beyond, and every element offset
 * modulo 64 bytes.  An input overlapping out is packed, since out is
 * written in place; an out gemm cannot write row-major is packed and
 * copied back.
 */
static __attribute__((noinline)) int
matmul_general(const View *out, const View *a, const View *b)
{
	View ta, tb, tc;
	Gm ga, gb, gc;
	void *ra = NULL, *rb = NULL, *rc = NULL;
	int rv = -1;

	if (a->sizes[0] == 0 || b->sizes[1] == 0 || a->sizes[1] == 0)
		return 0;
	if (!dtype_is_float(out->dt)) {
		bool pa = overlaps(out, a), pb = overlaps(out, b);

		if ((!pa || operand(a, true, false, &ga, &ta, &ra) == 0) &&
		    (!pb || operand(b, true, false, &gb, &tb, &rb) == 0)) {
			int_matmul(out, pa ? &ta : a, pb ? &tb : b);
			rv = 0;
		}
		goto done;
	}
	if (operand(a, overlaps(out, a), false, &ga, &ta, &ra) < 0 ||
	    operand(b, overlaps(out, b), false, &gb, &tb, &rb) < 0 ||
	    operand(out, false, true, &gc, &tc, &rc) < 0)
		goto done;
	gemm(out->dt, (int)a->sizes[0], (int)b->sizes[1], (int)a->sizes[1], &gc,
	     &ga, &gb);
	if (rc)
		k_copy(out, &tc);
	rv = 0;
done:
	mem_free(ra);
	mem_free(rb);
	mem_free(rc);
	return rv;
}

/* The fast path inline, the general one out of line: a call costs its
 * frame (the temporaries of the general path) and its zeroing. */
int
k_matmul(const View *out, const View *a, const View *b)
{
	if (matmul_fast(out, a, b)) /* no dim under 2: nothing empty */
		return 0;
	return matmul_general(out, a, b);
}
