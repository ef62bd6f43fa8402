/*
 * bench_kernels.c: each kernel path against the yardstick that does the
 * same work, measured in the same run.
 *
 *   memory-bound ops (add: contiguous, stride-2 inputs, a transposed
 *   input; copy of a transposed view): k_* against memcpy of out's bytes
 *   (GB/s ratio, bytes = every element read and written once; and the
 *   ratio of out's bytes per second, i.e. of the times), against a
 *   plain C loop over the same views, and for the strided adds against
 *   the best loop written for the pattern (b_add_s2, b_add_t: what a
 *   kernel could reach at most), itself also against memcpy;
 *   compute-bound ops (exp, div): k_* against a plain libm loop over the
 *   same data (time ratio; memcpy says nothing about them);
 *   matmul: k_matmul on dense and transposed views, at the sizes the
 *   fuzzer makes (n = 4, 16) and at 256 and 1024, against cblas_sgemm
 *   called directly with the transpose flags on the same operands.
 *
 * Each pair runs A B A B ... (REPS pairs after a warm-up), timed in CPU
 * seconds of this process (the machine is shared: wall time counts the
 * neighbours), OpenBLAS on one thread (as one fuzzing core); the ratio
 * printed is the median of the pairs' ratios, with the min and max, so
 * a slow moment of the shared machine moves one pair, not the figure.  A ratio is "yardstick time / kernel time": 1.00 is as fast
 * as the yardstick, higher is faster.  Prints figures, never fails on
 * them.  `bench_kernels matmul` or `bench_kernels ew` runs one half.
 */
#include <cblas.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ir.h"
#include "kernels.h"

#define REPS 15

/* A 64-byte-aligned block of n bytes (the raw pointer in *raw). */
static void *
aligned(size_t n, void **raw)
{
	*raw = mem_alloc(n + 63);
	if (!*raw) {
		fprintf(stderr, "bench_kernels: out of memory\n");
		exit(1);
	}
	return (void *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63);
}

static View
view2(float *p, int64_t rows, int64_t cols, int64_t s0, int64_t s1)
{
	View v;

	memset(&v, 0, sizeof v);
	v.base = p;
	v.dt = DT_F32;
	v.rank = 2;
	v.sizes[0] = rows;
	v.sizes[1] = cols;
	v.strides[0] = s0;
	v.strides[1] = s1;
	return v;
}

/* ---------------------------------------------------- the pair timer */

typedef void Job(void *ctx);

typedef struct Pair {
	double ta, tb;     /* best seconds of A (kernel) and B (yardstick) */
	double rmin, rmed, rmax; /* tb / ta over the pairs */
} Pair;

static double
timed(Job *f, void *ctx, int inner)
{
	double t0 = bench_clock(CLOCK_PROCESS_CPUTIME_ID);

	for (int i = 0; i < inner; i++)
		f(ctx);
	return (bench_clock(CLOCK_PROCESS_CPUTIME_ID) - t0) / inner;
}

static Pair
pair(Job *a, Job *b, void *ctx, int inner)
{
	double ta[REPS], tb[REPS], r[REPS];
	Pair p;

	a(ctx);
	b(ctx);
	for (int i = 0; i < REPS; i++) {
		ta[i] = timed(a, ctx, inner);
		tb[i] = timed(b, ctx, inner);
		r[i] = tb[i] / ta[i];
	}
	p.ta = bench_min(ta, REPS);
	p.tb = bench_min(tb, REPS);
	p.rmed = bench_median(r, REPS);
	p.rmin = r[0];
	p.rmax = r[REPS - 1];
	return p;
}

static void
show(const char *what, const char *yard, Pair p, double bytes)
{
	printf("  %-34s %8.3f ms", what, p.ta * 1e3);
	if (bytes > 0)
		printf(" %6.2f GB/s", bytes / p.ta / 1e9);
	else
		printf("            ");
	printf("  vs %-22s %5.2f  (%.2f-%.2f)\n", yard, p.rmed, p.rmin, p.rmax);
}

/*
 * A memory-bound path against memcpy of out's bytes, two ways: the GB/s
 * ratio (every element read or written once counts: an add moves 1.5
 * times memcpy's bytes, so `f` = 1.5) and the ratio of out's bytes per
 * second (the time ratio: what the same bytes of result cost).
 */
static void
show_memcpy(const char *what, Pair m, double f, double bytes)
{
	show(what, "memcpy (GB/s)", (Pair){m.ta, m.tb, m.rmin * f, m.rmed * f,
					   m.rmax * f}, bytes);
	if (f != 1)
		show(what, "memcpy (out bytes/s)", m, bytes);
}

/* ------------------------------------------------ elementwise and copy */

enum { EW_N = 2048 }; /* 2048 x 2048 f32: 16 MiB an operand */

typedef struct EwCtx {
	float *a, *b, *o;         /* EW_N^2 each; a and b hold 2 * EW_N^2 */
	View va, vb, vo;
	int64_t n;                /* elements of the result */
	int64_t sa;               /* stride of the inputs (1-D cases) */
	size_t bytes;             /* for memcpy: the result's bytes */
} EwCtx;

static void j_memcpy(void *c) { EwCtx *x = c; memcpy(x->o, x->a, x->bytes); }
static void j_add(void *c) { EwCtx *x = c; k_binary(OP_ADD, &x->vo, &x->va, &x->vb); }
static void j_copy(void *c) { EwCtx *x = c; k_copy(&x->vo, &x->va); }
static void j_exp(void *c) { EwCtx *x = c; k_unary(OP_EXP, &x->vo, &x->va); }
static void j_div(void *c) { EwCtx *x = c; k_binary(OP_DIV, &x->vo, &x->va, &x->vb); }

/* the plain loops: what a C programmer writes first */
static void
l_add(void *c)
{
	EwCtx *x = c;

	for (int64_t i = 0; i < x->n; i++)
		x->o[i] = x->a[i * x->sa] + x->b[i * x->sa];
}

static void
l_add_t(void *c) /* o = a^T + b, row by row */
{
	EwCtx *x = c;

	for (int64_t i = 0; i < EW_N; i++)
		for (int64_t j = 0; j < EW_N; j++)
			x->o[i * EW_N + j] = x->a[j * EW_N + i] + x->b[i * EW_N + j];
}

static void
l_copy_t(void *c)
{
	EwCtx *x = c;

	for (int64_t i = 0; i < EW_N; i++)
		for (int64_t j = 0; j < EW_N; j++)
			x->o[i * EW_N + j] = x->a[j * EW_N + i];
}

/*
 * The best loops I could write for the two strided patterns, the
 * ceiling a kernel could reach (SSE2, one op, no generality): they show
 * whether a goal against memcpy is reachable on this machine at all.
 */
#ifdef __SSE2__
/* o = a^T + b: tiles of 128 rows of 64, a read down its columns in 4x4
 * blocks transposed in registers (the kernels' kmem_tile_load), the next
 * tile's runs of a and b prefetched, o stored past the cache (movntps). */
static void
b_add_t(void *c)
{
	EwCtx *x = c;
	enum { TR = 128, TC = 64, LD = TC + 16 };
	_Alignas(16) static float t[TR * LD];
	const float *a = x->a, *b = x->b;
	float *o = x->o;

	for (int64_t i0 = 0; i0 < EW_N; i0 += TR)
		for (int64_t j0 = 0; j0 < EW_N; j0 += TC) {
			int64_t ni = j0 + TC < EW_N ? i0 : i0 + TR;
			int64_t nj = j0 + TC < EW_N ? j0 + TC : 0;

			for (int64_t j = 0; ni < EW_N && j < TC; j++)
				for (int64_t i = 0; i < TR; i += 16)
					__builtin_prefetch(a + (nj + j) * EW_N + ni + i);
			for (int64_t i = 0; ni < EW_N && i < TR; i++)
				for (int64_t j = 0; j < TC; j += 16)
					__builtin_prefetch(b + (ni + i) * EW_N + nj + j);
			kmem_tile_load((char *)t, LD,
				       (const char *)(a + j0 * EW_N + i0), 1,
				       EW_N, 4, TR, TC);
			for (int64_t i = 0; i < TR; i++) {
				const float *pb = b + (i0 + i) * EW_N + j0;
				float *po = o + (i0 + i) * EW_N + j0;

				for (int64_t j = 0; j < TC; j += 4)
					_mm_stream_ps(po + j,
						      _mm_add_ps(_mm_load_ps(t + i * LD + j),
								 _mm_load_ps(pb + j)));
			}
		}
	_mm_sfence();
}

/* o = a[2i] + b[2i]: two loads and a shuffle of the even lanes per four
 * elements, o stored past the cache. */
static void
b_add_s2(void *c)
{
	EwCtx *x = c;
	const float *a = x->a, *b = x->b;

	for (int64_t i = 0; i < x->n; i += 4) {
		__m128 a0 = _mm_load_ps(a + 2 * i), a1 = _mm_load_ps(a + 2 * i + 4);
		__m128 b0 = _mm_load_ps(b + 2 * i), b1 = _mm_load_ps(b + 2 * i + 4);

		_mm_stream_ps(x->o + i,
			      _mm_add_ps(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0)),
					 _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0))));
	}
	_mm_sfence();
}

/* The add (row `what`) against the best loop, and that loop (row
 * `bwhat`) against memcpy. */
static void
show_best(const char *what, const char *bwhat, Job *best, EwCtx *x,
	  double bytes)
{
	show(what, "best loop", pair(j_add, best, x, 1), bytes);
	show_memcpy(bwhat, pair(best, j_memcpy, x, 1), 1.5, bytes);
}
#else
static void
show_best(const char *what, const char *bwhat, Job *best, EwCtx *x,
	  double bytes)
{
	(void)what, (void)bwhat, (void)best, (void)x, (void)bytes; /* none */
}
#endif

static void
l_exp(void *c)
{
	EwCtx *x = c;

	for (int64_t i = 0; i < x->n; i++)
		x->o[i] = expf(x->a[i]);
}

static void
l_div(void *c)
{
	EwCtx *x = c;

	for (int64_t i = 0; i < x->n; i++)
		x->o[i] = x->a[i] / x->b[i];
}

static void
bench_ew(void)
{
	int64_t n = (int64_t)EW_N * EW_N;
	void *ra, *rb, *ro;
	EwCtx x;
	double f4 = 4.0 * (double)n;

	x.a = aligned(2 * (size_t)n * 4, &ra);
	x.b = aligned(2 * (size_t)n * 4, &rb);
	x.o = aligned((size_t)n * 4, &ro);
	for (int64_t i = 0; i < 2 * n; i++) {
		x.a[i] = (float)(i % 1000) * 0.005f - 2.0f;
		x.b[i] = (float)(i % 777) * 0.25f + 1.0f;
	}
	memset(x.o, 0, (size_t)n * 4);
	x.n = n;
	x.bytes = (size_t)n * 4;
	printf("elementwise, %dx%d f32 (GB/s: every element read or written "
	       "once)\n", EW_N, EW_N);

	x.sa = 1;
	x.va = view2(x.a, 1, n, n, 1);
	x.vb = view2(x.b, 1, n, n, 1);
	x.vo = view2(x.o, 1, n, n, 1);
	Pair m = pair(j_add, j_memcpy, &x, 1);
	show_memcpy("add, contiguous", m, 1.5, 3 * f4);
	show("add, contiguous", "plain loop", pair(j_add, l_add, &x, 1), 3 * f4);

	x.sa = 2;
	x.va = view2(x.a, 1, n, 2 * n, 2);
	x.vb = view2(x.b, 1, n, 2 * n, 2);
	m = pair(j_add, j_memcpy, &x, 1);
	show_memcpy("add, stride-2 inputs", m, 1.5, 3 * f4);
	show("add, stride-2 inputs", "plain loop", pair(j_add, l_add, &x, 1),
	     3 * f4);
	show_best("add, stride-2 inputs", "add, stride-2: best loop", b_add_s2,
		  &x, 3 * f4);

	x.va = view2(x.a, EW_N, EW_N, 1, EW_N); /* a^T */
	x.vb = view2(x.b, EW_N, EW_N, EW_N, 1);
	x.vo = view2(x.o, EW_N, EW_N, EW_N, 1);
	m = pair(j_add, j_memcpy, &x, 1);
	show_memcpy("add, transposed input", m, 1.5, 3 * f4);
	show("add, transposed input", "plain loop", pair(j_add, l_add_t, &x, 1),
	     3 * f4);
	show_best("add, transposed input", "add, transposed: best loop",
		  b_add_t, &x, 3 * f4);
	m = pair(j_copy, j_memcpy, &x, 1);
	show_memcpy("copy of a transposed view", m, 1, 2 * f4);
	show("copy of a transposed view", "plain loop",
	     pair(j_copy, l_copy_t, &x, 1), 2 * f4);

	x.sa = 1;
	x.va = view2(x.a, EW_N, EW_N, EW_N, 1);
	x.vb = view2(x.b, EW_N, EW_N, EW_N, 1);
	m = pair(j_exp, j_memcpy, &x, 1);
	show("exp", "memcpy (GB/s)", m, 2 * f4);
	show("exp", "plain expf loop", pair(j_exp, l_exp, &x, 1), 2 * f4);
	show("div", "plain loop", pair(j_div, l_div, &x, 1), 3 * f4);
	mem_free(ra);
	mem_free(rb);
	mem_free(ro);
}

/* ------------------------------------------------------------- matmul */

typedef struct MmCtx {
	int n;
	bool ta, tb;              /* a (b) given as the transpose of a view */
	float *a, *b, *c;
	View va, vb, vc;
} MmCtx;

static void
j_matmul(void *p)
{
	MmCtx *m = p;

	if (k_matmul(&m->vc, &m->va, &m->vb) < 0) {
		fprintf(stderr, "bench_kernels: out of memory\n");
		exit(1);
	}
}

static void
j_sgemm(void *p)
{
	MmCtx *m = p;
	int n = m->n;

	cblas_sgemm(CblasRowMajor, m->ta ? CblasTrans : CblasNoTrans,
		    m->tb ? CblasTrans : CblasNoTrans, n, n, n, 1.0f, m->a, n,
		    m->b, n, 1.0f, m->c, n);
}

static void
bench_mm(int n, bool ta, bool tb)
{
	size_t bytes = (size_t)n * (size_t)n * sizeof(float);
	void *ra, *rb, *rc;
	MmCtx m = {n, ta, tb, aligned(bytes, &ra), aligned(bytes, &rb),
		   aligned(bytes, &rc), {0}, {0}, {0}};
	double flop = 2.0 * n * n * n;
	int inner = (int)(5e7 / flop) + 1;
	char what[64];

	for (int64_t i = 0; i < (int64_t)n * n; i++) {
		m.a[i] = (float)(i % 17) * 0.125f;
		m.b[i] = (float)(i % 13) * 0.25f;
		m.c[i] = 0;
	}
	/* the matrix a view shows is the transpose of the memory */
	m.va = ta ? view2(m.a, n, n, 1, n) : view2(m.a, n, n, n, 1);
	m.vb = tb ? view2(m.b, n, n, 1, n) : view2(m.b, n, n, n, 1);
	m.vc = view2(m.c, n, n, n, 1);
	Pair p = pair(j_matmul, j_sgemm, &m, inner);
	fmt_snprintf(what, sizeof what, "n=%d, %s", n,
		 ta && tb ? "a^T b^T views" : ta ? "a^T view" : tb ? "b^T view"
							 : "dense");
	printf("  %-26s %10.4f ms %7.2f GFLOP/s  vs cblas_sgemm%s %5.2f  "
	       "(%.2f-%.2f)\n", what, p.ta * 1e3, flop / p.ta / 1e9,
	       ta && tb ? "(T,T)" : ta ? "(T,N)" : tb ? "(N,T)" : "(N,N)",
	       p.rmed, p.rmin, p.rmax);
	mem_free(ra);
	mem_free(rb);
	mem_free(rc);
}

static void
bench_matmul(void)
{
	/* 8: the largest the kernels sum themselves (kernels.c MM_SMALL) */
	static const int sizes[] = {4, 8, 16, 256, 1024};

	printf("matmul f32, c += a.b, against cblas_sgemm with the transpose "
	       "flags on the same operands\n");
	for (int i = 0; i < 5; i++) {
		bench_mm(sizes[i], false, false);
		bench_mm(sizes[i], true, false);
		bench_mm(sizes[i], false, true);
	}
}

int
main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "";

#ifndef __OPTIMIZE__
	printf("note: unoptimized build, figures are not meaningful\n");
#endif
	printf("bench_kernels: %d pairs (kernel, yardstick) after a warm-up; "
	       "ratio = yardstick time / kernel time, median (min-max)\n",
	       REPS);
	openblas_set_num_threads(1);
	mem_heap_setup(MEM_MMAP_THRESHOLD, true); /* memory as bufdiff has it */
	if (strcmp(only, "matmul"))
		bench_ew();
	if (strcmp(only, "ew"))
		bench_matmul();
	return 0;
}
