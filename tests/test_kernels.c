/*
 * test_kernels.c: every kernel, every dtype, over contiguous, offset,
 * padded, transposed and broadcast views, against plain reference loops
 * written here; results must be bit-identical (memcmp) and nothing outside
 * the output view may change.
 */
#include <math.h>
#include <stdlib.h>

#include "testutil.h"
#include "kernels.h"

#define BUFELEMS 8192 /* every view below fits in a buffer this long */

static const DType all_dts[] = {DT_F32, DT_F64, DT_I1, DT_I32, DT_I64, DT_INDEX};
#define NDTS ((int)(sizeof all_dts / sizeof all_dts[0]))

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	return rng_xorshift(&rng_state);
}

static void
put(DType dt, void *p, int64_t i, double f, int64_t n)
{
	switch (dt) {
	case DT_F32:
		((float *)p)[i] = (float)f;
		break;
	case DT_F64:
		((double *)p)[i] = f;
		break;
	case DT_I1:
		((uint8_t *)p)[i] = (uint8_t)(n & 1);
		break;
	case DT_I32:
		((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)n;
		break;
	default:
		((int64_t *)p)[i] = n;
	}
}

/* n values with the edge cases mixed in: NaN, inf, -0, INT_MIN, -1, 0. */
static void
fill_vals(DType dt, void *p, int64_t n)
{
	static const double fs[] = {0.0, -0.0, 1.0, -1.0, 0.5, NAN, INFINITY,
				    -INFINITY, 1e-40, 3e38, -2.5};
	static const int64_t is[] = {0, 1, -1, 2, -2, INT32_MIN, INT32_MAX,
				     INT64_MIN, INT64_MAX, 7};

	for (int64_t i = 0; i < n; i++) {
		uint64_t r = rng();
		bool special = r % 4 == 0;
		double f = special ? fs[(r >> 8) % 11]
				   : (double)((int64_t)(r >> 20) % 20001 - 10000) / 64.0;
		int64_t k = special ? is[(r >> 8) % 10] : (int64_t)(r >> 3);

		if (dt == DT_I32 && special && (r >> 8) % 10 >= 7)
			k = (r >> 12) % 2 ? INT32_MIN : -1;
		put(dt, p, i, f, k);
	}
}

/* Random bits (floats: any NaN payload, signalling ones included). */
static void
fill_bits(DType dt, void *p, int64_t n)
{
	size_t esz = dtype_size(dt);

	for (int64_t i = 0; i < n; i++) {
		uint64_t r = rng();

		if (dt == DT_I1)
			r &= 1;
		memcpy((char *)p + i * (int64_t)esz, &r, esz);
	}
}

enum { L_CONTIG, L_OFFSET, L_PADDED, L_REVERSED, L_BCAST, NLAYOUTS };

/* A view of logical shape sizes into buf, laid out as `layout`. */
static View
mk_view(void *buf, DType dt, int rank, const int64_t *sizes, int layout)
{
	View v;
	int64_t s = 1;

	memset(&v, 0, sizeof v);
	v.base = buf;
	v.dt = dt;
	v.rank = rank;
	for (int d = 0; d < rank; d++)
		v.sizes[d] = sizes[d];
	switch (layout) {
	case L_CONTIG:
	case L_OFFSET:
		for (int d = rank - 1; d >= 0; d--, s *= sizes[d + 1])
			v.strides[d] = s;
		v.off = layout == L_OFFSET ? 5 : 0;
		break;
	case L_PADDED: /* inner stride 2, every dim padded by one */
		s = 2;
		for (int d = rank - 1; d >= 0; d--) {
			v.strides[d] = s;
			s *= sizes[d] + 1;
		}
		v.off = 3;
		break;
	case L_REVERSED: /* column-major: dim 0 fastest */
		for (int d = 0; d < rank; d++) {
			v.strides[d] = s;
			s *= sizes[d];
		}
		v.off = 1;
		break;
	default: /* broadcast: every element at offset 2 */
		v.off = 2;
	}
	return v;
}

static int64_t
numel(int rank, const int64_t *sizes)
{
	int64_t n = 1;

	for (int d = 0; d < rank; d++)
		n *= sizes[d];
	return n;
}

static bool
next_idx(int rank, const int64_t *sizes, int64_t *idx)
{
	for (int d = rank - 1; d >= 0; d--) {
		if (++idx[d] < sizes[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

static char *
elem(const View *v, const int64_t *idx)
{
	int64_t e = v->off;

	for (int d = 0; d < v->rank; d++)
		e += idx[d] * v->strides[d];
	return (char *)v->base + e * (int64_t)dtype_size(v->dt);
}

/* Contiguous src -> view, and view -> contiguous dst, row-major. */
static void
scatter(const View *v, const void *src)
{
	int64_t idx[MAXRANK] = {0}, i = 0;
	size_t esz = dtype_size(v->dt);

	if (numel(v->rank, v->sizes) == 0)
		return;
	do
		memcpy(elem(v, idx), (const char *)src + i++ * (int64_t)esz, esz);
	while (next_idx(v->rank, v->sizes, idx));
}

static void
gather(const View *v, void *dst)
{
	int64_t idx[MAXRANK] = {0}, i = 0;
	size_t esz = dtype_size(v->dt);

	if (numel(v->rank, v->sizes) == 0)
		return;
	do
		memcpy((char *)dst + i++ * (int64_t)esz, elem(v, idx), esz);
	while (next_idx(v->rank, v->sizes, idx));
}

/* True when every byte of buf outside view v equals the snapshot. */
static bool
outside_untouched(const View *v, const char *buf, const char *snap)
{
	static bool mask[BUFELEMS * 8];
	int64_t idx[MAXRANK] = {0};
	size_t esz = dtype_size(v->dt);

	memset(mask, 0, sizeof mask);
	if (numel(v->rank, v->sizes) > 0)
		do
			memset(mask + (elem(v, idx) - buf), 1, esz);
		while (next_idx(v->rank, v->sizes, idx));
	for (size_t i = 0; i < sizeof mask; i++)
		if (!mask[i] && buf[i] != snap[i])
			return false;
	return true;
}

/* Three test buffers of BUFELEMS 8-byte elements, prefilled with junk. */
static char *bufs[4];
static char snap[BUFELEMS * 8];

static void
setup(void)
{
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 4; i++) {
		bufs[i] = malloc(BUFELEMS * 8);
		memset(bufs[i], 0xA5, BUFELEMS * 8);
	}
}

static void
teardown(void)
{
	for (int i = 0; i < 4; i++)
		free(bufs[i]);
}

/* ------------------------------------------------- reference scalars */

static int64_t
ld(DType dt, const void *p)
{
	switch (dt) {
	case DT_I1:
		return *(const uint8_t *)p & 1;
	case DT_I32:
		return *(const int32_t *)p;
	default:
		return *(const int64_t *)p;
	}
}

static int64_t
int_min(DType dt)
{
	return dt == DT_I32 ? INT32_MIN : dt == DT_I1 ? 0 : INT64_MIN;
}

/* Integer result of ew on x, y (computed in uint64, no UB). */
static uint64_t
ref_int(OpKind ew, DType dt, int64_t x, int64_t y)
{
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;

	switch (ew) {
	case OP_ADD: return ux + uy;
	case OP_SUB: return ux - uy;
	case OP_MUL: return ux * uy;
	case OP_DIV:
		if (y == 0)
			return 0;
		if (y == -1 && x == int_min(dt))
			return ux;
		return (uint64_t)(y == -1 ? 0 - ux : (uint64_t)(x / y));
	case OP_MAX: return x > y ? ux : uy;
	case OP_MIN: return x < y ? ux : uy;
	case OP_NEG: return 0 - ux;
	case OP_ABS: return x < 0 ? 0 - ux : ux;
	case OP_RELU: return x > 0 ? ux : 0;
	case OP_LT: return x < y;
	case OP_LE: return x <= y;
	case OP_EQ: return x == y;
	case OP_NE: return x != y;
	case OP_GT: return x > y;
	case OP_GE: return x >= y;
	default: ck_abort_msg("no reference for %s", op_info[ew].name);
	}
}

#define REF_FLOAT(NAME, T, EXP, FABS)                                        \
	static T NAME##_mx(T x, T y)                                         \
	{                                                                    \
		if (isnan(x))                                                \
			return x;                                            \
		if (isnan(y))                                                \
			return y;                                            \
		return x > y ? x : y;                                        \
	}                                                                    \
	static T NAME##_mn(T x, T y)                                         \
	{                                                                    \
		if (isnan(x))                                                \
			return x;                                            \
		if (isnan(y))                                                \
			return y;                                            \
		return x < y ? x : y;                                        \
	}                                                                    \
	static T NAME(OpKind ew, T x, T y, uint8_t *c)                           \
	{                                                                    \
		switch (ew) {                                                \
		case OP_ADD: return x + y;                                   \
		case OP_SUB: return x - y;                                   \
		case OP_MUL: return x * y;                                   \
		case OP_DIV: return x / y;                                   \
		case OP_MAX: return NAME##_mx(x, y);                         \
		case OP_MIN: return NAME##_mn(x, y);                         \
		case OP_NEG: return -x;                                      \
		case OP_ABS: return FABS(x);                                 \
		case OP_EXP: return EXP(x);                                  \
		case OP_RELU: return NAME##_mx(x, (T)0);                     \
		case OP_LT: *c = x < y; return 0;                            \
		case OP_LE: *c = x <= y; return 0;                           \
		case OP_EQ: *c = x == y; return 0;                           \
		case OP_NE: *c = x != y; return 0;                           \
		case OP_GT: *c = x > y; return 0;                            \
		case OP_GE: *c = x >= y; return 0;                           \
		default: ck_abort_msg("no reference for %s",                 \
				      op_info[ew].name);                     \
		}                                                            \
	}
REF_FLOAT(ref_f32, float, expf, fabsf)
REF_FLOAT(ref_f64, double, exp, fabs)

/* r = x ew y for element pointers of dtype dt (r is i1 for compares). */
static void
ref_ew(OpKind ew, DType dt, const void *x, const void *y, void *r)
{
	bool cmp = op_info[ew].form == F_CMP;
	uint8_t c = 0;

	if (!y)
		y = x;
	if (dt == DT_F32) {
		float v = ref_f32(ew, *(const float *)x, *(const float *)y, &c);
		if (!cmp)
			memcpy(r, &v, 4);
	} else if (dt == DT_F64) {
		double v = ref_f64(ew, *(const double *)x, *(const double *)y, &c);
		if (!cmp)
			memcpy(r, &v, 8);
	} else {
		uint64_t v = ref_int(ew, dt, ld(dt, x), ld(dt, y));
		if (cmp)
			c = (uint8_t)v;
		else
			put(dt, r, 0, 0, (int64_t)v);
	}
	if (cmp)
		*(uint8_t *)r = c;
}

/* ------------------------------------------------------- elementwise */

/* Logical shapes: rank 3 crossing the 16-element blocks, long rank 1,
 * (last: 33x40, where a transposed input is walked in 32x32 tiles, the
 * last tile of each way partial),
 * rank 0, and one with size-1 dims. */
static const int ranks[] = {3, 1, 0, 4, 2};
static const int64_t shapes[][MAXRANK] = {{3, 5, 7}, {1000}, {0}, {2, 1, 9, 1},
					  {33, 40}};
#define NSHAPES 5

/* (out, a, b) layouts tried for every op and dtype. */
static const int combos[][3] = {
	{L_CONTIG, L_CONTIG, L_CONTIG},   {L_OFFSET, L_OFFSET, L_OFFSET},
	{L_OFFSET, L_PADDED, L_REVERSED}, {L_PADDED, L_REVERSED, L_OFFSET},
	{L_REVERSED, L_CONTIG, L_PADDED}, {L_CONTIG, L_CONTIG, L_BCAST},
	{L_OFFSET, L_BCAST, L_OFFSET},    {L_PADDED, L_PADDED, L_BCAST},
	{L_REVERSED, L_BCAST, L_REVERSED}, {L_CONTIG, L_PADDED, L_BCAST},
	{L_CONTIG, L_BCAST, L_REVERSED},  {L_OFFSET, L_BCAST, L_BCAST},
	{L_CONTIG, L_REVERSED, L_CONTIG},
	/* stride-2 inputs (inner stride 2) into a contiguous out: the
	 * constant-stride row paths */
	{L_CONTIG, L_PADDED, L_PADDED},   {L_OFFSET, L_PADDED, L_CONTIG},
	{L_CONTIG, L_OFFSET, L_PADDED},
	/* both inputs stride 2, out not 16-byte aligned: stored through a
	 * plain copy when it would go past the cache */
	{L_OFFSET, L_PADDED, L_PADDED},
};
#define NCOMBOS ((int)(sizeof combos / sizeof combos[0]))

/*
 * One elementwise case: random inputs (splat when broadcast), reference
 * loop, then the kernel over the layouts; in place when inplace (out is
 * a's view).  ncmp: the op is a compare (out i1).
 */
static void
ew_case(OpKind ew, DType dt, int sh, const int *lay, bool inplace)
{
	static char A[BUFELEMS * 8], B[BUFELEMS * 8], R[BUFELEMS * 8],
		O[BUFELEMS * 8];
	int rank = ranks[sh];
	const int64_t *sizes = shapes[sh];
	int64_t n = numel(rank, sizes);
	bool unary = op_info[ew].form == F_UNARY;
	bool cmp = op_info[ew].form == F_CMP;
	DType odt = cmp ? DT_I1 : dt;
	size_t esz = dtype_size(dt), osz = dtype_size(odt);
	View vo, va, vb;

	fill_vals(dt, A, n);
	fill_vals(dt, B, n);
	for (int64_t i = 1; i < n; i++) { /* broadcast inputs are splats */
		if (lay[1] == L_BCAST)
			memcpy(A + i * (int64_t)esz, A, esz);
		if (lay[2] == L_BCAST)
			memcpy(B + i * (int64_t)esz, B, esz);
	}
	for (int64_t i = 0; i < n; i++)
		ref_ew(ew, dt, A + i * (int64_t)esz,
		       unary ? NULL : B + i * (int64_t)esz, R + i * (int64_t)osz);

	va = mk_view(bufs[1], dt, rank, sizes, lay[1]);
	vb = mk_view(bufs[2], dt, rank, sizes, lay[2]);
	scatter(&va, A);
	scatter(&vb, B);
	vo = inplace ? va : mk_view(bufs[0], odt, rank, sizes, lay[0]);
	memcpy(snap, vo.base, sizeof snap);
	if (cmp)
		k_cmp(ew, &vo, &va, &vb);
	else if (unary)
		k_unary(ew, &vo, &va);
	else
		k_binary(ew, &vo, &va, &vb);
	gather(&vo, O);
	ck_assert_msg(!memcmp(O, R, (size_t)n * osz),
		      "%s dt %s shape %d layouts %d %d %d inplace %d",
		      op_info[ew].name,
		      dtype_names[dt], sh, lay[0], lay[1], lay[2], inplace);
	ck_assert_msg(outside_untouched(&vo, vo.base, snap),
		      "%s dt %s wrote outside its view", op_info[ew].name,
		      dtype_names[dt]);
}

/* Every EW row of ops.h of form `form`, on every dtype its rule allows;
 * the number of (op, dtype) pairs tried. */
static int
ew_all(Form form)
{
	int n = 0;

	for (int t = 0; t < NDTS; t++) {
		DType dt = all_dts[t];

		for (int k = 0; k < OP_COUNT; k++) {
			OpKind ew = (OpKind)k;

			if (op_info[k].form != form || !ew_allows(ew, dt))
				continue;
			n++;
			for (int sh = 0; sh < NSHAPES; sh++)
				for (int c = 0; c < NCOMBOS; c++) {
					ew_case(ew, dt, sh, combos[c], false);
					if (combos[c][1] != L_BCAST && form != F_CMP)
						ew_case(ew, dt, sh, combos[c], true);
				}
		}
	}
	return n;
}

/*
 * The loop tests below run twice: _i 1 with k_stream_min 0, so every out
 * takes the paths of an out larger than the cache (stride-2 inputs: even
 * elements by shuffles, out stored past the cache) on these small views.
 */
static void
stream_all(int on)
{
	k_stream_min = on ? 0 : 8 << 20;
}

START_TEST(binary_all)
{
	stream_all(_i);
	ck_assert_int_gt(ew_all(F_BINARY), 0);
	stream_all(0);
}
END_TEST

START_TEST(unary_all)
{
	ck_assert_int_gt(ew_all(F_UNARY), 0);
}
END_TEST

START_TEST(cmp_all)
{
	stream_all(_i);
	ck_assert_int_gt(ew_all(F_CMP), 0);
	stream_all(0);
}
END_TEST

/* Scalar views of one element at byte address p. */
static View
sv(DType dt, void *p)
{
	View v;

	memset(&v, 0, sizeof v);
	v.base = p;
	v.dt = dt;
	return v;
}

static int32_t
bin32(OpKind ew, int32_t x, int32_t y)
{
	int32_t r;
	View vo = sv(DT_I32, &r), va = sv(DT_I32, &x), vb = sv(DT_I32, &y);

	k_binary(ew, &vo, &va, &vb);
	return r;
}

static int64_t
bin64(OpKind ew, int64_t x, int64_t y)
{
	int64_t r;
	View vo = sv(DT_I64, &r), va = sv(DT_I64, &x), vb = sv(DT_I64, &y);

	k_binary(ew, &vo, &va, &vb);
	return r;
}

static int64_t
un64(OpKind ew, DType dt, int64_t x)
{
	char bx[8] = {0}, br[8] = {0};
	View vo = sv(dt, br), va = sv(dt, bx);

	put(dt, bx, 0, 0, x);
	k_unary(ew, &vo, &va);
	return ld(dt, br);
}

static uint8_t
bin1(OpKind ew, uint8_t x, uint8_t y)
{
	uint8_t r = 0xFF;
	View vo = sv(DT_I1, &r), va = sv(DT_I1, &x), vb = sv(DT_I1, &y);

	k_binary(ew, &vo, &va, &vb);
	return r;
}

START_TEST(int_edges)
{
	ck_assert_int_eq(bin32(OP_ADD, INT32_MAX, 1), INT32_MIN);
	ck_assert_int_eq(bin32(OP_SUB, INT32_MIN, 1), INT32_MAX);
	ck_assert_int_eq(bin32(OP_MUL, 65536, 65536), 0);
	ck_assert_int_eq(bin32(OP_MUL, INT32_MAX, 2), -2);
	ck_assert_int_eq(bin32(OP_DIV, 7, 0), 0);
	ck_assert_int_eq(bin32(OP_DIV, INT32_MIN, -1), INT32_MIN);
	ck_assert_int_eq(bin32(OP_DIV, -7, 2), -3);
	ck_assert_int_eq(bin32(OP_DIV, 7, -1), -7);
	ck_assert_int_eq(bin32(OP_MAX, -5, 3), 3);
	ck_assert_int_eq(bin32(OP_MIN, -5, 3), -5);
	ck_assert(bin64(OP_ADD, INT64_MAX, 1) == INT64_MIN);
	ck_assert(bin64(OP_MUL, INT64_MIN, -1) == INT64_MIN);
	ck_assert(bin64(OP_DIV, INT64_MIN, -1) == INT64_MIN);
	ck_assert(bin64(OP_DIV, 5, 0) == 0);
	ck_assert(un64(OP_ABS, DT_I64, INT64_MIN) == INT64_MIN);
	ck_assert(un64(OP_NEG, DT_I64, INT64_MIN) == INT64_MIN);
	ck_assert(un64(OP_ABS, DT_I32, INT32_MIN) == INT32_MIN);
	ck_assert(un64(OP_ABS, DT_I32, -4) == 4);
	ck_assert(un64(OP_RELU, DT_INDEX, -4) == 0);
	ck_assert(un64(OP_RELU, DT_I32, 9) == 9);
	/* i1 keeps bit 0 */
	ck_assert_int_eq(bin1(OP_ADD, 1, 1), 0);
	ck_assert_int_eq(bin1(OP_SUB, 0, 1), 1);
	ck_assert_int_eq(bin1(OP_MUL, 1, 1), 1);
	ck_assert_int_eq(bin1(OP_DIV, 1, 0), 0);
	ck_assert_int_eq(bin1(OP_MAX, 0, 1), 1);
	ck_assert_int_eq(bin1(OP_MIN, 0, 1), 0);
	ck_assert(un64(OP_NEG, DT_I1, 1) == 1);
}
END_TEST

static float
bf(OpKind ew, float x, float y)
{
	float r;
	View vo = sv(DT_F32, &r), va = sv(DT_F32, &x), vb = sv(DT_F32, &y);

	if (op_info[ew].form == F_UNARY)
		k_unary(ew, &vo, &va);
	else
		k_binary(ew, &vo, &va, &vb);
	return r;
}

static uint8_t
cmpd(OpKind ew, double x, double y)
{
	uint8_t r = 0xFF;
	View vo = sv(DT_I1, &r), va = sv(DT_F64, &x), vb = sv(DT_F64, &y);

	k_cmp(ew, &vo, &va, &vb);
	return r;
}

START_TEST(nan_rules)
{
	float nan = NAN, z;

	ck_assert(isnan(bf(OP_MAX, nan, 1)));
	ck_assert(isnan(bf(OP_MAX, 1, nan)));
	ck_assert(isnan(bf(OP_MIN, nan, -INFINITY)));
	ck_assert(isnan(bf(OP_MIN, -INFINITY, nan)));
	ck_assert(isnan(bf(OP_RELU, nan, 0)));
	ck_assert(bf(OP_RELU, -3, 0) == 0);
	z = bf(OP_RELU, -0.0f, 0);
	ck_assert(z == 0 && !signbit(z));
	ck_assert(bf(OP_MAX, 2, 3) == 3);
	ck_assert(bf(OP_ABS, -2, 0) == 2);
	z = bf(OP_EXP, 1, 0);
	ck_assert(!memcmp(&z, &(float){expf(1.0f)}, 4));
	ck_assert(isinf(bf(OP_DIV, 1, 0)));
	for (int k = 0; k < OP_COUNT; k++)
		if (op_info[k].form == F_CMP)
			ck_assert_int_eq(cmpd((OpKind)k, NAN, 1), k == OP_NE);
	ck_assert_int_eq(cmpd(OP_EQ, NAN, NAN), 0);
	ck_assert_int_eq(cmpd(OP_NE, NAN, NAN), 1);
	ck_assert_int_eq(cmpd(OP_LT, 1, 2), 1);
	ck_assert_int_eq(cmpd(OP_GE, 1, 2), 0);
	ck_assert_int_eq(cmpd(OP_LE, -0.0, 0.0), 1);
}
END_TEST

/* ------------------------------------------------- copy, fill, transpose */

/* A shape with no element whose other dimensions are huge: the product
 * of its trailing dimensions does not fit in 64 bits (UBSan reported the
 * signed overflow in view_of and the executor's views, issue 24); its
 * strides are all 0 and its views touch nothing. */
START_TEST(zero_element_huge_dims)
{
	const int64_t big = 2147483647;
	int64_t dims[] = {0, big, big, big}, st[4];
	Tensor *t = tensor_new(DT_F32, 4, dims);
	View v;

	ck_assert(t);
	ck_assert_int_eq(t->n, 0);
	v = view_of(t);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(v.sizes[i], dims[i]);
		ck_assert_int_eq(v.strides[i], 0);
	}
	k_copy(&v, &v);
	shape_strides(4, dims, st);
	ck_assert_int_eq(st[0], 0);
	dims[0] = 3; /* with elements: row-major */
	dims[1] = 4;
	dims[2] = 5;
	dims[3] = 6;
	shape_strides(4, dims, st);
	ck_assert_int_eq(st[0], 120);
	ck_assert_int_eq(st[1], 30);
	ck_assert_int_eq(st[2], 6);
	ck_assert_int_eq(st[3], 1);
	tensor_free(t);
}
END_TEST

START_TEST(copy_all)
{
	static char A[BUFELEMS * 8], O[BUFELEMS * 8];

	for (int t = 0; t < NDTS; t++)
		for (int sh = 0; sh < NSHAPES; sh++)
			for (int c = 0; c < NCOMBOS; c++) {
				DType dt = all_dts[t];
				int rank = ranks[sh];
				int64_t n = numel(rank, shapes[sh]);
				size_t esz = dtype_size(dt);
				View vo, va;

				if (combos[c][1] == L_BCAST)
					continue;
				fill_bits(dt, A, n);
				va = mk_view(bufs[1], dt, rank, shapes[sh], combos[c][1]);
				vo = mk_view(bufs[0], dt, rank, shapes[sh], combos[c][0]);
				scatter(&va, A);
				memcpy(snap, bufs[0], sizeof snap);
				k_copy(&vo, &va);
				gather(&vo, O);
				ck_assert_msg(!memcmp(O, A, (size_t)n * esz),
					      "copy %s shape %d combo %d",
					      dtype_names[dt], sh, c);
				ck_assert(outside_untouched(&vo, bufs[0], snap));
			}
}
END_TEST

START_TEST(fill_all)
{
	static char O[BUFELEMS * 8];

	for (int t = 0; t < NDTS; t++)
		for (int sh = 0; sh < NSHAPES; sh++)
			for (int l = 0; l < L_BCAST; l++) {
				DType dt = all_dts[t];
				int rank = ranks[sh];
				int64_t n = numel(rank, shapes[sh]);
				size_t esz = dtype_size(dt);
				View vo = mk_view(bufs[0], dt, rank, shapes[sh], l);
				View vs = mk_view(bufs[1], dt, 0, NULL, L_OFFSET);

				fill_bits(dt, bufs[1] + 5 * esz, 1);
				memcpy(snap, bufs[0], sizeof snap);
				k_fill(&vo, &vs);
				gather(&vo, O);
				for (int64_t i = 0; i < n; i++)
					ck_assert(!memcmp(O + i * (int64_t)esz,
							  bufs[1] + 5 * esz, esz));
				ck_assert(outside_untouched(&vo, bufs[0], snap));
			}
}
END_TEST

/* Fills and copies across dtypes convert; float -> int saturates. */
START_TEST(fill_convert)
{
	int32_t o32[3];
	int64_t o64;
	uint8_t o1;
	float f;
	View vo = sv(DT_I32, o32), vs;

	vo.rank = 1;
	vo.sizes[0] = 3;
	vo.strides[0] = 1;
	f = NAN;
	vs = sv(DT_F32, &f);
	k_fill(&vo, &vs);
	ck_assert(o32[0] == 0 && o32[2] == 0);
	f = 1e20f;
	k_fill(&vo, &vs);
	ck_assert(o32[1] == INT32_MAX);
	f = -1e20f;
	k_fill(&vo, &vs);
	ck_assert(o32[1] == INT32_MIN);
	f = -2.75f;
	k_fill(&vo, &vs);
	ck_assert(o32[2] == -2);
	vo = sv(DT_I64, &o64);
	f = INFINITY;
	k_copy(&vo, &vs);
	ck_assert(o64 == INT64_MAX);
	vo = sv(DT_I1, &o1);
	f = 3.0f;
	k_copy(&vo, &vs);
	ck_assert_int_eq(o1, 1);
}
END_TEST

START_TEST(transpose_rank3)
{
	static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
					{1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	static char A[BUFELEMS * 8], O[BUFELEMS * 8], R[BUFELEMS * 8];
	const int64_t *sz = shapes[0];

	for (int t = 0; t < NDTS; t++)
		for (int p = 0; p < 6; p++)
			for (int c = 0; c < 5; c++) {
				DType dt = all_dts[t];
				size_t esz = dtype_size(dt);
				const int *pm = perms[p];
				int64_t osz[3] = {sz[pm[0]], sz[pm[1]], sz[pm[2]]};
				int64_t i[3] = {0}, n = 0;
				View va = mk_view(bufs[1], dt, 3, sz, combos[c][1]);
				View vo = mk_view(bufs[0], dt, 3, osz, combos[c][0]);
				View ro = mk_view(R, dt, 3, osz, L_CONTIG);

				fill_bits(dt, A, 105);
				scatter(&va, A);
				do { /* out[i[p0], i[p1], i[p2]] = a[i] */
					int64_t j[3] = {i[pm[0]], i[pm[1]], i[pm[2]]};
					memcpy(elem(&ro, j), A + n++ * (int64_t)esz, esz);
				} while (next_idx(3, sz, i));
				memcpy(snap, bufs[0], sizeof snap);
				k_transpose(&vo, &va, pm);
				gather(&vo, O);
				ck_assert_msg(!memcmp(O, R, 105 * esz),
					      "transpose %s perm %d combo %d",
					      dtype_names[dt], p, c);
				ck_assert(outside_untouched(&vo, bufs[0], snap));
			}
}
END_TEST

/*
 * A strided input that shares elements with out (a wrong plan can make
 * one) is read element by element in order: out[i] = x[i] <- x[63 - 2i] +
 * 1 reads, from i = 22 on, elements written earlier in the same call.  A
 * transposed input over out's own buffer is not tiled: the copy below
 * reads elements it wrote before, in row-major order.
 */
START_TEST(strided_overlap_order)
{
	float x[64], want[64];
	int64_t n32[1] = {32}, sq[2] = {32, 32};
	View vo, va, one;
	static float y[32 * 32 + 32], ywant[32 * 32 + 32];

	for (int i = 0; i < 64; i++)
		x[i] = want[i] = (float)i;
	for (int i = 0; i < 32; i++)
		want[i] = want[63 - 2 * i] + 1;
	vo = mk_view(x, DT_F32, 1, n32, L_CONTIG);
	va = vo;
	va.off = 63;
	va.strides[0] = -2;
	one = mk_view(x, DT_F32, 0, n32, L_CONTIG);
	one.base = &(float){1};
	k_binary(OP_ADD, &vo, &va, &one);
	ck_assert(!memcmp(x, want, sizeof x));
	/* out rows = the input's columns, shifted by one row: in order */
	for (int i = 0; i < 32 * 32 + 32; i++)
		y[i] = ywant[i] = (float)(i % 97);
	for (int i = 0; i < 32; i++)
		for (int j = 0; j < 32; j++)
			ywant[32 + i * 32 + j] = ywant[j * 32 + i];
	vo = mk_view(y, DT_F32, 2, sq, L_CONTIG);
	vo.off = 32;
	va = mk_view(y, DT_F32, 2, sq, L_REVERSED);
	va.off = 0;
	k_copy(&vo, &va);
	ck_assert(!memcmp(y, ywant, sizeof y));
}
END_TEST

/* A stride-2 input overlapping a contiguous out ahead of it: out[i] =
 * x[16 + i] reads x[2i], which out wrote at i - 16 + ... for 8 <= i <
 * 16: the element-by-element order, never the blocks' (which read 16
 * inputs before writing). */
START_TEST(stride2_overlap_order)
{
	float x[80], want[80], ones[32];
	int64_t n32[1] = {32};
	View vo, va, one;

	stream_all(_i);
	for (int i = 0; i < 32; i++)
		ones[i] = 1;
	for (int i = 0; i < 80; i++)
		x[i] = want[i] = (float)i;
	for (int i = 0; i < 32; i++)
		want[16 + i] = want[2 * i] + 1;
	vo = mk_view(x, DT_F32, 1, n32, L_CONTIG);
	vo.off = 16;
	va = mk_view(x, DT_F32, 1, n32, L_CONTIG);
	va.strides[0] = 2;
	one = mk_view(ones, DT_F32, 1, n32, L_CONTIG); /* stride 1, apart */
	k_binary(OP_ADD, &vo, &va, &one);
	ck_assert(!memcmp(x, want, sizeof x));
	/* both inputs stride 2, one of them overlapping out */
	for (int i = 0; i < 80; i++)
		x[i] = want[i] = (float)i;
	for (int i = 0; i < 32; i++)
		want[16 + i] = want[2 * i] + want[2 * i + 1];
	one = va;
	one.off = 1;
	k_binary(OP_ADD, &vo, &va, &one);
	ck_assert(!memcmp(x, want, sizeof x));
	stream_all(0);
}
END_TEST

/* Odd sizes through the stride-2 paths: every n up to 70 (blocks of 16
 * and the tails), against the plain loop, bits compared. */
START_TEST(stride2_odd_sizes)
{
	static float a[160], b[160], o[80], w[80];

	stream_all(_i);
	for (int i = 0; i < 160; i++) {
		a[i] = (float)(i % 13) * 0.37f - 1.5f;
		b[i] = (float)(i % 7) * 1.25f + 0.1f;
	}
	for (int64_t n = 1; n <= 70; n++) {
		for (int k = 0; k < 3; k++) {
			int64_t sa = k == 1 ? 1 : 2, sb = k == 2 ? 1 : 2;
			View vo = mk_view(o, DT_F32, 1, &n, L_CONTIG);
			View va = vo, vb = vo;

			va.base = a;
			va.strides[0] = sa;
			vb.base = b;
			vb.strides[0] = sb;
			memset(o, 0, sizeof o);
			for (int64_t i = 0; i < n; i++)
				w[i] = a[i * sa] * b[i * sb];
			k_binary(OP_MUL, &vo, &va, &vb);
			ck_assert_msg(!memcmp(o, w, (size_t)n * 4), "n %d k %d",
				      (int)n, k);
			ck_assert(o[n] == 0);
		}
	}
	stream_all(0);
}
END_TEST

/* The stride-2 block path loads pairs of elements: on a view that ends at
 * its buffer's last byte (2n - 1 elements, a block's worth or more), no
 * load past it (ASan), every dtype class. */
START_TEST(stride2_buffer_end)
{
	stream_all(1);
	for (int t = 0; t < NDTS; t++)
		for (int64_t n = 15; n <= 49; n++) {
			DType dt = all_dts[t];
			size_t esz = dtype_size(dt);
			char *a = malloc((size_t)(2 * n - 1) * esz);
			char *b = malloc((size_t)(2 * n - 1) * esz);
			char *o = malloc((size_t)n * esz), *w = malloc((size_t)n * esz);
			View vo = mk_view(o, dt, 1, &n, L_CONTIG), va = vo, vb = vo;

			if (!ew_allows(OP_SUB, dt))
				goto next;
			fill_vals(dt, a, 2 * n - 1);
			fill_vals(dt, b, 2 * n - 1);
			va.base = a;
			va.strides[0] = 2;
			vb.base = b;
			vb.strides[0] = 2;
			for (int64_t i = 0; i < n; i++)
				ref_ew(OP_SUB, dt, a + 2 * i * (int64_t)esz,
				       b + 2 * i * (int64_t)esz, w + i * (int64_t)esz);
			k_binary(OP_SUB, &vo, &va, &vb);
			ck_assert_msg(!memcmp(o, w, (size_t)n * esz), "%s n %d",
				      dtype_names[dt], (int)n);
		next:
			free(a), free(b), free(o), free(w);
		}
	stream_all(0);
}
END_TEST

/* ------------------------------------------------- transposed tiles */

/*
 * A view of logical shape sizes whose last two dims are transposed in
 * memory (the input's rows are out's columns); neg: the second-to-last
 * dim runs backwards (stride -1).
 */
static View
mk_tview(void *buf, DType dt, int rank, const int64_t *sizes, bool neg)
{
	View v = mk_view(buf, dt, rank, sizes, L_CONTIG); /* outer dims */
	int64_t r = sizes[rank - 2];

	v.strides[rank - 2] = neg ? -1 : 1;
	v.strides[rank - 1] = r;
	v.off = neg ? r - 1 : 0;
	return v;
}

/*
 * op (binary, unary, compare or copy when ew is OP_COUNT) over out, a, b
 * (b NULL: unary or copy) against the reference applied element by
 * element in row-major order, bits compared; nothing outside out
 * written (out spans n dense elements from its base, 4 guard elements
 * either side).  The buffers behind the views are filled with values
 * first; a may be out's own view (in place).
 */
static void
tiled_case(OpKind ew, const View *vo, const View *va, const View *vb,
	   const char *what)
{
	int rank = vo->rank;
	int64_t n = numel(rank, vo->sizes), idx[MAXRANK] = {0}, i = 0;
	size_t esz = dtype_size(va->dt), osz = dtype_size(vo->dt);
	char *A = malloc((size_t)n * esz), *B = malloc((size_t)n * esz);
	char *R = malloc((size_t)n * osz), *O = malloc((size_t)n * osz);
	size_t obytes = (size_t)(n + 8) * osz;
	char *before = malloc(obytes);

	fill_vals(va->dt, A, n);
	fill_vals(va->dt, B, n);
	if (vb)
		scatter(vb, B);
	scatter(va, A); /* a may be out itself */
	/* reread: a broadcast b holds one value */
	gather(va, A);
	if (vb)
		gather(vb, B);
	do {
		const char *x = A + i * (int64_t)esz;
		const char *y = vb ? B + i * (int64_t)esz : NULL;

		if (ew == OP_COUNT)
			memcpy(R + i * (int64_t)osz, x, osz);
		else
			ref_ew(ew, va->dt, x, y, R + i * (int64_t)osz);
		i++;
	} while (next_idx(rank, vo->sizes, idx));
	memcpy(before, (char *)vo->base - 4 * osz, obytes);
	if (ew == OP_COUNT)
		k_copy(vo, va);
	else if (op_info[ew].form == F_CMP)
		k_cmp(ew, vo, va, vb);
	else if (op_info[ew].form == F_UNARY)
		k_unary(ew, vo, va);
	else
		k_binary(ew, vo, va, vb);
	gather(vo, O);
	ck_assert_msg(!memcmp(O, R, (size_t)n * osz), "%s: %s on %s", what,
		      ew == OP_COUNT ? "copy" : op_info[ew].name,
		      dtype_names[va->dt]);
	/* the guard elements either side of a dense out */
	ck_assert(!memcmp(before, (char *)vo->base - 4 * osz, 4 * osz));
	ck_assert(!memcmp(before + (size_t)(n + 4) * osz,
			  (char *)vo->base + n * (int64_t)osz, 4 * osz));
	free(A), free(B), free(R), free(O), free(before);
}

/*
 * The tiled walk: shapes crossing several tiles both ways with partial
 * last tiles (tiles are 128 rows of 512 bytes: 128 x 128 for 4-byte
 * elements, 128 x 64 for 8-byte, 128 x 512 for i1; 200 x 150 is 2 x 2
 * tiles of 4-byte elements, 2 x 3 of 8-byte; 130 x 520, for i1 only,
 * 2 x 2 of i1; 9 x 300 is one row of tiles, partial), rank 3 and 4 (a tiled
 * plane per outer index), size-1 dims, a backwards input, both inputs
 * transposed, a broadcast or row-major second input, in place, every
 * dtype class, for binary, unary, compare and copy.
 */
START_TEST(tiled_transposed)
{
	static const int64_t shp[][4] = {{67, 133}, {130, 70}, {3, 70, 20},
					 {2, 1, 33, 140}, {9, 300}, {200, 150},
					 {130, 520}};
	static const int rk[] = {2, 2, 3, 4, 2, 2, 2};
	static const OpKind ops[] = {OP_ADD, OP_NEG, OP_LT, OP_COUNT};

	for (int t = 0; t < NDTS; t++)
		for (int s = 0; s < 7; s++)
			for (int o = 0; o < 4; o++)
				for (int m = 0; m < 5; m++) {
					DType dt = all_dts[t];
					OpKind ew = ops[o];
					bool cmp = ew != OP_COUNT &&
						   op_info[ew].form == F_CMP;
					bool un = ew == OP_COUNT ||
						  op_info[ew].form == F_UNARY;
					int64_t n = numel(rk[s], shp[s]);
					size_t esz = dtype_size(dt);
					DType odt = cmp ? DT_I1 : dt;
					char *ba = calloc((size_t)n + 16, esz);
					char *bb = calloc((size_t)n + 16, esz);
					char *bo = calloc((size_t)n + 16, 8);
					View va, vb, vo, *pb = un ? NULL : &vb;
					char what[64];

					if ((ew != OP_COUNT && !ew_allows(ew, dt)) ||
					    (s == 6 && dt != DT_I1))
						goto next;
					vo = mk_view(bo + 32, odt, rk[s], shp[s], L_CONTIG);
					va = mk_tview(ba, dt, rk[s], shp[s], m == 1);
					vb = mk_view(bb, dt, rk[s], shp[s], L_CONTIG);
					if (m == 2) /* both transposed */
						vb = mk_tview(bb, dt, rk[s], shp[s], m == 2 && s % 2);
					if (m == 3) /* b broadcast */
						vb = mk_view(bb, dt, rk[s], shp[s], L_BCAST);
					if (m == 4 && !cmp) { /* in place: out is a */
						vo = mk_tview(bo + 32, dt, rk[s], shp[s], false);
						va = vo;
					}
					fmt_snprintf(what, sizeof what, "shape %d mode %d",
						     s, m);
					tiled_case(ew, &vo, &va, pb, what);
				next:
					free(ba), free(bb), free(bo);
				}
}
END_TEST

/*
 * A transposed input sharing out's buffer over several tiles (a wrong
 * plan can make one) keeps the row-major walk: out[i][j] = a[i][j] + 1
 * reads, further on, elements the same call wrote before.  The reference
 * is that loop on a copy of the buffer.
 */
START_TEST(tiled_overlap_order)
{
	enum { R = 67, C = 133, N = R * C + 200 };
	static float y[N], want[N], one = 1;
	int64_t sz[2] = {R, C};
	View vo = mk_view(y, DT_F32, 2, sz, L_CONTIG);
	View va = mk_tview(y, DT_F32, 2, sz, false);
	View vone = mk_view(&one, DT_F32, 0, sz, L_CONTIG);

	vo.off = 150;
	for (int i = 0; i < N; i++)
		y[i] = want[i] = (float)(i % 1009) * 0.5f;
	for (int64_t i = 0; i < R; i++)
		for (int64_t j = 0; j < C; j++)
			want[150 + i * C + j] = want[i + j * R] + 1;
	k_binary(OP_ADD, &vo, &va, &vone);
	ck_assert(!memcmp(y, want, sizeof y));
}
END_TEST

/* ------------------------------------------------------------- reduce */

START_TEST(reduce_all_dimsets)
{
	static char A[BUFELEMS * 8], X[BUFELEMS * 8], O[BUFELEMS * 8];
	static const int lays[][2] = {{L_CONTIG, L_CONTIG}, {L_OFFSET, L_PADDED},
				      {L_PADDED, L_REVERSED}, {L_REVERSED, L_OFFSET}};
	const int64_t *sz = shapes[0];

	stream_all(_i); /* out is an input: never stored past the cache */

	for (int t = 0; t < NDTS; t++)
		for (int r = 0; r < OP_COUNT; r++)
			for (int mask = 0; op_info[r].form == F_REDUCE &&
					   mask < 8; mask++)
				for (int l = 0; l < 4; l++) {
					OpKind ew = op_info[r].ew;
					DType dt = all_dts[t];
					size_t esz = dtype_size(dt);
					int dims[3], nd = 0, orank = 0;
					int64_t osz[3], i[3] = {0}, n = 0, on;
					View va, vo, rx;

					for (int d = 0; d < 3; d++) {
						if (mask >> d & 1)
							dims[nd++] = d;
						else
							osz[orank++] = sz[d];
					}
					on = numel(orank, osz);
					fill_vals(dt, A, 105);
					fill_vals(dt, X, on);
					va = mk_view(bufs[1], dt, 3, sz, lays[l][1]);
					vo = mk_view(bufs[0], dt, orank, osz, lays[l][0]);
					scatter(&va, A);
					scatter(&vo, X);
					/* reference: fold a in row-major order into X */
					rx = mk_view(X, dt, orank, osz, L_CONTIG);
					do {
						int64_t j[3], k = 0;

						for (int d = 0; d < 3; d++)
							if (!(mask >> d & 1))
								j[k++] = i[d];
						char *x = elem(&rx, j);
						ref_ew(ew, dt, x, A + n++ * (int64_t)esz, x);
					} while (next_idx(3, sz, i));
					memcpy(snap, bufs[0], sizeof snap);
					k_reduce(ew, &vo, &va, dims, nd);
					gather(&vo, O);
					ck_assert_msg(!memcmp(O, X, (size_t)on * esz),
						      "reduce %s %s mask %d lay %d", op_info[r].name,
						      dtype_names[dt], mask, l);
					ck_assert(outside_untouched(&vo, bufs[0], snap));
				}
	stream_all(0);
}
END_TEST

/* Sum order is a's row-major order: 1e8 + 1 + ... cancels the same way. */
START_TEST(reduce_order)
{
	float a[4] = {1e8f, 1.0f, 1.0f, -1e8f}, out = 0;
	View va = sv(DT_F32, a), vo = sv(DT_F32, &out);
	int dims[1] = {0};

	va.rank = 1;
	va.sizes[0] = 4;
	va.strides[0] = 1;
	k_reduce(OP_ADD, &vo, &va, dims, 1);
	ck_assert(out == 0.0f); /* ((1e8 + 1) + 1) - 1e8 in float */
}
END_TEST

/* ------------------------------------------------------------- matmul */

/* Reference: out = c + a b in plain loops, exact for the values used. */
static void
ref_matmul(DType dt, int64_t M, int64_t K, int64_t N, const char *a,
	   const char *b, char *c)
{
	size_t esz = dtype_size(dt);

	for (int64_t i = 0; i < M; i++)
		for (int64_t j = 0; j < N; j++) {
			char *o = c + (i * N + j) * (int64_t)esz;
			double f = 0;
			uint64_t u = 0;

			if (dtype_is_float(dt))
				f = dt == DT_F32 ? *(float *)o : *(double *)o;
			else
				u = (uint64_t)ld(dt, o);
			for (int64_t k = 0; k < K; k++) {
				const char *x = a + (i * K + k) * (int64_t)esz;
				const char *y = b + (k * N + j) * (int64_t)esz;

				if (dt == DT_F32)
					f += (double)*(const float *)x * *(const float *)y;
				else if (dt == DT_F64)
					f += *(const double *)x * *(const double *)y;
				else
					u += (uint64_t)ld(dt, x) * (uint64_t)ld(dt, y);
			}
			put(dt, o, 0, f, (int64_t)u);
		}
}

/* Small integers (exact in any order) for floats; any value for ints. */
static void
fill_mm(DType dt, void *p, int64_t n, bool exact)
{
	if (!dtype_is_float(dt)) {
		fill_vals(dt, p, n);
		return;
	}
	for (int64_t i = 0; i < n; i++) {
		uint64_t r = rng();
		double v = exact ? (double)((int64_t)(r % 9) - 4)
				 : (double)((int64_t)(r >> 11) % 100001) / 997.0;
		put(dt, p, i, v, 0);
	}
}

static const int64_t mm_shapes[][3] = {{1, 1, 1}, {5, 7, 3}, {16, 9, 33},
				       {33, 40, 17}, {2, 40, 70}};
#define NMM ((int)(sizeof mm_shapes / sizeof mm_shapes[0]))

/* matmul over layouts (out, a, b) into R; inputs contiguous in A, B, C. */
static void
mm_run(DType dt, const int64_t *s, const int *lay, const char *A,
       const char *B, const char *C, char *R)
{
	int64_t so[2] = {s[0], s[2]}, sa[2] = {s[0], s[1]}, sb[2] = {s[1], s[2]};
	View vo = mk_view(bufs[0], dt, 2, so, lay[0]);
	View va = mk_view(bufs[1], dt, 2, sa, lay[1]);
	View vb = mk_view(bufs[2], dt, 2, sb, lay[2]);

	scatter(&vo, C);
	scatter(&va, A);
	scatter(&vb, B);
	memcpy(snap, bufs[0], sizeof snap);
	ck_assert_int_eq(k_matmul(&vo, &va, &vb), 0);
	gather(&vo, R);
	ck_assert(outside_untouched(&vo, bufs[0], snap));
}

START_TEST(matmul_all)
{
	static char A[BUFELEMS * 8], B[BUFELEMS * 8], C[BUFELEMS * 8],
		R0[BUFELEMS * 8], R[BUFELEMS * 8], E[BUFELEMS * 8];

	for (int t = 0; t < NDTS; t++)
		for (int m = 0; m < NMM; m++)
			for (int exact = 0; exact < 2; exact++) {
				DType dt = all_dts[t];
				const int64_t *s = mm_shapes[m];
				size_t osz = (size_t)(s[0] * s[2]) * dtype_size(dt);

				fill_mm(dt, A, s[0] * s[1], exact);
				fill_mm(dt, B, s[1] * s[2], exact);
				fill_mm(dt, C, s[0] * s[2], exact);
				mm_run(dt, s, combos[0], A, B, C, R0);
				if (exact || !dtype_is_float(dt)) {
					memcpy(E, C, osz);
					ref_matmul(dt, s[0], s[1], s[2], A, B, E);
					ck_assert_msg(!memcmp(R0, E, osz),
						      "matmul %s shape %d vs reference",
						      dtype_names[dt], m);
				}
				for (int c = 1; c < 5; c++) {
					mm_run(dt, s, combos[c], A, B, C, R);
					ck_assert_msg(!memcmp(R0, R, osz),
						      "matmul %s shape %d combo %d",
						      dtype_names[dt], m, c);
				}
			}
}
END_TEST

/* 64-byte-aligned (C11 wants the size a multiple of the alignment). */
static char *
alloc64(size_t n)
{
	return aligned_alloc(64, (n + 63) & ~(size_t)63);
}

/* Dense operands go to gemm in place at any alignment: every element
 * offset mod 64 bytes, sizes large enough for OpenBLAS's blocking and threads,
 * must give the bits of the 64-byte-aligned run and of the packed run. */
START_TEST(matmul_alignment)
{
	static const int64_t sz[][3] = {{7, 300, 9}, {130, 257, 131}, {256, 256, 256}};

	for (int dti = 0; dti < 2; dti++)
		for (int m = 0; m < 3; m++) {
			DType dt = dti ? DT_F64 : DT_F32;
			size_t esz = dtype_size(dt);
			int64_t M = sz[m][0], K = sz[m][1], N = sz[m][2];
			size_t na = (size_t)(M * K) * esz, nb = (size_t)(K * N) * esz,
			       nc = (size_t)(M * N) * esz;
			char *A = malloc(na), *B = malloc(nb), *C = malloc(nc),
			     *R0 = malloc(nc), *R = malloc(nc);
			char *ba = alloc64(na + 128), *bb = alloc64(nb + 128),
			     *bc = alloc64(4 * nc + 256);

			fill_mm(dt, A, M * K, false);
			fill_mm(dt, B, K * N, false);
			fill_mm(dt, C, M * N, false);
			for (int off = 0; off <= 64; off += (int)esz) {
				int64_t oa[2] = {M, K}, ob[2] = {K, N}, oc[2] = {M, N};
				View va = mk_view(ba + off, dt, 2, oa, L_CONTIG);
				View vb = mk_view(bb + (off * 3) % 64, dt, 2, ob, L_CONTIG);
				View vc = mk_view(bc + (off * 7) % 64, dt, 2, oc, L_CONTIG);

				if (off == 64) { /* packed: a seen column-major */
					va = mk_view(ba, dt, 2, oa, L_REVERSED);
					vc = mk_view(bc + esz, dt, 2, oc, L_PADDED);
				}
				scatter(&va, A);
				scatter(&vb, B);
				scatter(&vc, C);
				ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
				gather(&vc, off ? R : R0);
				ck_assert_msg(!off || !memcmp(R, R0, nc),
					      "matmul %s %lldx%lldx%lld offset %d",
					      dtype_names[dt], (long long)M,
					      (long long)K, (long long)N, off);
			}
			free(A), free(B), free(C), free(R0), free(R);
			free(ba), free(bb), free(bc);
		}
}
END_TEST

/*
 * gemm takes row-major views with a leading dimension (a block of a wider
 * matrix) and column-major ones (transposed views, through the transpose
 * flag) without packing them: at the fuzzer's sizes (4, 16) and at sizes
 * where OpenBLAS blocks, every layout of a, b and out must give the bits
 * of the dense run.  Layouts: 0 dense, 1 rows padded (ld = cols + 3),
 * 2 transposed, 3 transposed with ld = rows + 5, 4 inner stride 2
 * (packed); out: 0, 1 and 2 (packed, copied back).
 */
static View
mm_view(char *buf, DType dt, int64_t r, int64_t c, int lay)
{
	int64_t sz[2] = {r, c};
	View v = mk_view(buf, dt, 2, sz, L_CONTIG);

	switch (lay) {
	case 1: v.strides[0] = c + 3; break;
	case 2: v.strides[0] = 1, v.strides[1] = r; break;
	case 3: v.strides[0] = 1, v.strides[1] = r + 5; break;
	case 4: v.strides[0] = 2 * c, v.strides[1] = 2; break;
	default: break;
	}
	v.off = lay ? 1 : 0;
	return v;
}

START_TEST(matmul_views)
{
	static const int64_t sz[][3] = {{4, 4, 4}, {16, 16, 16}, {4, 16, 4},
					{16, 4, 16}, {1, 16, 4}, {4, 1, 16},
					{16, 16, 1}, {37, 70, 29}, {130, 257, 131}};

	for (int dti = 0; dti < 2; dti++)
		for (int m = 0; m < 9; m++) {
			DType dt = dti ? DT_F64 : DT_F32;
			size_t esz = dtype_size(dt);
			int64_t M = sz[m][0], K = sz[m][1], N = sz[m][2];
			size_t big = (size_t)((M + 6) * (K + 6) + (K + 6) * (N + 6) +
					      (M + 6) * (N + 6)) * 2 * esz;
			char *A = malloc(big), *B = malloc(big), *C = malloc(big),
			     *R0 = malloc(big), *R = malloc(big);
			char *ba = malloc(big), *bb = malloc(big), *bc = malloc(big);
			size_t nc = (size_t)(M * N) * esz;

			fill_mm(dt, A, M * K, false);
			fill_mm(dt, B, K * N, false);
			fill_mm(dt, C, M * N, false);
			for (int la = 0; la < 5; la++)
				for (int lb = 0; lb < 5; lb++)
					for (int lc = 0; lc < 3; lc++) {
						View va = mm_view(ba, dt, M, K, la);
						View vb = mm_view(bb, dt, K, N, lb);
						View vc = mm_view(bc, dt, M, N, lc);

						scatter(&va, A);
						scatter(&vb, B);
						scatter(&vc, C);
						ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
						gather(&vc, la || lb || lc ? R : R0);
						ck_assert_msg(!memcmp(la || lb || lc ? R : R0,
								      R0, nc),
							      "matmul %s %lldx%lldx%lld "
							      "layouts %d %d %d",
							      dtype_names[dt], (long long)M,
							      (long long)K, (long long)N,
							      la, lb, lc);
					}
			free(A), free(B), free(C), free(R0), free(R);
			free(ba), free(bb), free(bc);
		}
}
END_TEST

/* Products of at most 512 multiplies (kernels.c MM_SMALL) are summed
 * in k order from zero, then added to out, in the element type: the
 * bits of that loop, whatever the layouts (row- and column-major,
 * padded, stride 2, size-1 dims through the general path). */
#define SMALL_REF(T)                                                         \
	for (int64_t i = 0; i < M; i++)                                      \
		for (int64_t j = 0; j < N; j++) {                            \
			T acc = 0;                                           \
			for (int64_t k = 0; k < K; k++)                      \
				acc += ((const T *)(const void *)A)[i * K + k] * \
				       ((const T *)(const void *)B)[k * N + j]; \
			((T *)(void *)E)[i * N + j] =                        \
				((const T *)(const void *)C)[i * N + j] + acc; \
		}

START_TEST(matmul_small_order)
{
	static const int64_t sz[][3] = {{4, 4, 4}, {8, 8, 8}, {3, 5, 7},
					{2, 16, 16}, {1, 32, 16}, {7, 1, 9},
					{16, 2, 16}, {5, 9, 1}};

	for (int dti = 0; dti < 2; dti++)
		for (int m = 0; m < 8; m++) {
			DType dt = dti ? DT_F64 : DT_F32;
			int64_t M = sz[m][0], K = sz[m][1], N = sz[m][2];
			size_t esz = dtype_size(dt), nc = (size_t)(M * N) * esz;
			size_t big = (size_t)((M + 6) * (K + 6) + (K + 6) * (N + 6) +
					      (M + 6) * (N + 6)) * 2 * esz;
			char *A = malloc(big), *B = malloc(big), *C = malloc(big),
			     *E = malloc(big), *R = malloc(big);
			char *ba = malloc(big), *bb = malloc(big), *bc = malloc(big);

			ck_assert(M * K * N <= 512);
			fill_mm(dt, A, M * K, false);
			fill_mm(dt, B, K * N, false);
			fill_mm(dt, C, M * N, false);
			if (dti)
				SMALL_REF(double)
			else
				SMALL_REF(float)
			for (int la = 0; la < 5; la++)
				for (int lb = 0; lb < 5; lb++) {
					View va = mm_view(ba, dt, M, K, la);
					View vb = mm_view(bb, dt, K, N, lb);
					View vc = mm_view(bc, dt, M, N, (la + lb) % 3);

					scatter(&va, A);
					scatter(&vb, B);
					scatter(&vc, C);
					ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
					gather(&vc, R);
					ck_assert_msg(!memcmp(R, E, nc),
						      "matmul %s %lldx%lldx%lld layouts "
						      "%d %d: not the k-order sum",
						      dtype_names[dt], (long long)M,
						      (long long)K, (long long)N, la, lb);
				}
			free(A), free(B), free(C), free(E), free(R);
			free(ba), free(bb), free(bc);
		}
}
END_TEST

/* out may share memory with an input: the input is read as it was. */
START_TEST(matmul_alias_and_edges)
{
	float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
	int32_t ia[4] = {1, 2, 3, 4}, ib[4] = {5, 6, 7, 8};
	int64_t s2[2] = {2, 2}, s0[2] = {2, 0}, s0t[2] = {0, 2};
	View va = mk_view(a, DT_F32, 2, s2, L_CONTIG);
	View vb = mk_view(b, DT_F32, 2, s2, L_CONTIG);
	View via = mk_view(ia, DT_I32, 2, s2, L_CONTIG);
	View vib = mk_view(ib, DT_I32, 2, s2, L_CONTIG);

	/* a = a + a b: [[1+19, 2+22], [3+43, 4+50]] */
	ck_assert_int_eq(k_matmul(&va, &va, &vb), 0);
	ck_assert(a[0] == 20 && a[1] == 24 && a[2] == 46 && a[3] == 54);
	ck_assert_int_eq(k_matmul(&via, &via, &vib), 0);
	ck_assert(ia[0] == 20 && ia[1] == 24 && ia[2] == 46 && ia[3] == 54);
	/* K = 0: out unchanged */
	va = mk_view(a, DT_F32, 2, s0, L_CONTIG);
	vb = mk_view(b, DT_F32, 2, s0t, L_CONTIG);
	View vo = mk_view(b, DT_F32, 2, s2, L_CONTIG);
	ck_assert_int_eq(k_matmul(&vo, &va, &vb), 0);
	ck_assert(b[0] == 5 && b[3] == 8);
	/* i32 wraps */
	ia[0] = INT32_MAX, ia[1] = 0, ia[2] = 0, ia[3] = 0;
	ib[0] = 2, ib[1] = 0, ib[2] = 0, ib[3] = 0;
	int32_t ic[4] = {1, 0, 0, 0};
	View vic = mk_view(ic, DT_I32, 2, s2, L_CONTIG);
	via = mk_view(ia, DT_I32, 2, s2, L_CONTIG);
	ck_assert_int_eq(k_matmul(&vic, &via, &vib), 0);
	ck_assert_int_eq(ic[0], -1); /* 1 + 2 * INT32_MAX wraps to -1 */
}
END_TEST

START_TEST(matmul_oom)
{
	/* (b: 7, the column-major view of it at offset 1 ends at b[6]) */
	float a[24] = {1, 2, 3, 4, 5, 6}, b[7] = {1, 1, 1, 1, 1, 1, 1};
	float c[4] = {0};
	int64_t sa[2] = {2, 3}, sb[2] = {3, 2}, sc[2] = {2, 2};
	/* inner stride 2: packed (a transposed view goes to gemm as it is) */
	View va = mk_view(a, DT_F32, 2, sa, L_PADDED);
	View vb = mk_view(b, DT_F32, 2, sb, L_CONTIG);
	View vc = mk_view(c, DT_F32, 2, sc, L_CONTIG);
	long live = mem_live_blocks();

	va.off = 0;
	for (int n = 0; n < 3; n++) {
		mem_fail_after(n);
		int rv = k_matmul(&vc, &va, &vb);
		mem_fail_after(-1);
		ck_assert_int_eq(rv, n < 1 ? -1 : 0);
		ck_assert_int_eq(mem_live_blocks(), live);
	}
	/* dense operands need no memory, nor transposed ones, nor blocks of
	 * rows and columns of a wider matrix */
	va = mk_view(a, DT_F32, 2, sa, L_CONTIG);
	mem_fail_after(0);
	ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
	va = mk_view(a, DT_F32, 2, sa, L_REVERSED);
	ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
	va.strides[0] = 5; /* rows of 3 out of 5 */
	va.strides[1] = 1;
	ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
	vb = mk_view(b, DT_F32, 2, sb, L_REVERSED);
	ck_assert_int_eq(k_matmul(&vc, &va, &vb), 0);
	mem_fail_after(-1);
}
END_TEST

/* ------------------------------------------------------------- suites */

static Suite *
ew_suite(void)
{
	Suite *s = suite_create("kernels_elementwise");
	TCase *tc = tcase_create("ew");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, binary_all, 0, 2);
	tcase_add_test(tc, unary_all);
	tcase_add_loop_test(tc, cmp_all, 0, 2);
	tcase_add_test(tc, int_edges);
	tcase_add_test(tc, nan_rules);
	tcase_add_test(tc, copy_all);
	tcase_add_test(tc, zero_element_huge_dims);
	tcase_add_test(tc, fill_all);
	tcase_add_test(tc, fill_convert);
	tcase_add_test(tc, transpose_rank3);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
fold_suite(void)
{
	Suite *s = suite_create("kernels_reduce_matmul");
	TCase *tc = tcase_create("fold");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, reduce_all_dimsets, 0, 2);
	tcase_add_test(tc, reduce_order);
	tcase_add_test(tc, matmul_all);
	tcase_add_test(tc, matmul_alignment);
	tcase_add_test(tc, matmul_views);
	tcase_add_test(tc, matmul_small_order);
	tcase_add_test(tc, strided_overlap_order);
	tcase_add_loop_test(tc, stride2_overlap_order, 0, 2);
	tcase_add_loop_test(tc, stride2_odd_sizes, 0, 2);
	tcase_add_test(tc, stride2_buffer_end);
	tcase_add_test(tc, tiled_transposed);
	tcase_add_test(tc, tiled_overlap_order);
	tcase_add_test(tc, matmul_alias_and_edges);
	tcase_add_test(tc, matmul_oom);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){ew_suite(), fold_suite(), NULL});
}
