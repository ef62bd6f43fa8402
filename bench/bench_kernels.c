/*
 * bench_kernels.c: kernel throughput against the machine's own ceilings.
 *
 *   (a) k_binary add over 2^24 f32 vs memcpy on the same buffers.  Bytes
 *       moved: add reads two arrays and writes one, 3 * 4 * 2^24; memcpy
 *       reads one and writes one, 2 * 4 * 2^24.  GB/s = bytes / s / 1e9.
 *   (b) 1024x1024x1024 f32 matmul through k_matmul vs cblas_sgemm called
 *       directly on the same buffers; GFLOP/s = 2 * M * N * K / s / 1e9.
 *
 * Best of REPS timed runs after one warm-up.  Prints figures, never fails
 * on them.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ir.h"

#define REPS 25

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
view2(float *p, int64_t rows, int64_t cols)
{
	View v;

	memset(&v, 0, sizeof v);
	v.base = p;
	v.dt = DT_F32;
	v.rank = 2;
	v.sizes[0] = rows;
	v.sizes[1] = cols;
	v.strides[0] = cols;
	v.strides[1] = 1;
	return v;
}

static void
bench_add(void)
{
	int64_t n = (int64_t)1 << 24;
	size_t bytes = (size_t)n * sizeof(float);
	void *ra, *rb, *ro;
	float *a = aligned(bytes, &ra), *b = aligned(bytes, &rb);
	float *o = aligned(bytes, &ro);
	View va = view2(a, 1, n), vb = view2(b, 1, n), vo = view2(o, 1, n);
	double tcpy = 1e30, tadd = 1e30;

	for (int64_t i = 0; i < n; i++) {
		a[i] = (float)(i % 1000) * 0.5f;
		b[i] = (float)(i % 777) * 0.25f;
		o[i] = 0;
	}
	memcpy(o, a, bytes); /* warm-up */
	k_binary(EW_ADD, &vo, &va, &vb);
	for (int r = 0; r < REPS; r++) {
		double t0 = now(), t1;

		memcpy(o, a, bytes);
		t1 = now();
		k_binary(EW_ADD, &vo, &va, &vb);
		tadd = tadd < now() - t1 ? tadd : now() - t1;
		tcpy = tcpy < t1 - t0 ? tcpy : t1 - t0;
	}
	double gcpy = 2.0 * (double)bytes / tcpy / 1e9;
	double gadd = 3.0 * (double)bytes / tadd / 1e9;
	printf("(a) 2^24 f32, bytes moved: memcpy 2*4*2^24, add 3*4*2^24\n");
	printf("    memcpy          %7.2f GB/s  (%.3f ms)\n", gcpy, tcpy * 1e3);
	printf("    k_binary add    %7.2f GB/s  (%.3f ms)\n", gadd, tadd * 1e3);
	printf("    ratio add/memcpy %.2f\n", gadd / gcpy);
	mem_free(ra);
	mem_free(rb);
	mem_free(ro);
}

static void
bench_matmul(void)
{
	const int n = 1024;
	size_t bytes = (size_t)n * n * sizeof(float);
	void *ra, *rb, *rc;
	float *a = aligned(bytes, &ra), *b = aligned(bytes, &rb);
	float *c = aligned(bytes, &rc);
	View va = view2(a, n, n), vb = view2(b, n, n), vc = view2(c, n, n);
	double tk = 1e30, tb = 1e30, flop = 2.0 * n * n * n;

	for (int64_t i = 0; i < (int64_t)n * n; i++) {
		a[i] = (float)(i % 17) * 0.125f;
		b[i] = (float)(i % 13) * 0.25f;
		c[i] = 0;
	}
	if (k_matmul(&vc, &va, &vb) < 0) { /* warm-up */
		fprintf(stderr, "bench_kernels: out of memory\n");
		exit(1);
	}
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
		    a, n, b, n, 1.0f, c, n);
	for (int r = 0; r < REPS; r++) {
		double t0 = now(), t1, t2;

		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
			    1.0f, a, n, b, n, 1.0f, c, n);
		t1 = now();
		(void)k_matmul(&vc, &va, &vb);
		t2 = now();
		tb = tb < t1 - t0 ? tb : t1 - t0;
		tk = tk < t2 - t1 ? tk : t2 - t1;
	}
	printf("(b) 1024x1024x1024 f32 matmul, 2*n^3 flop\n");
	printf("    cblas_sgemm     %7.2f GFLOP/s  (%.3f ms)\n",
	       flop / tb / 1e9, tb * 1e3);
	printf("    k_matmul        %7.2f GFLOP/s  (%.3f ms)\n",
	       flop / tk / 1e9, tk * 1e3);
	printf("    ratio k_matmul/cblas %.2f\n", tb / tk);
	mem_free(ra);
	mem_free(rb);
	mem_free(rc);
}

int
main(void)
{
#ifndef __OPTIMIZE__
	printf("note: unoptimized build, figures are not meaningful\n");
#endif
	printf("bench_kernels: best of %d after a warm-up\n", REPS);
	bench_add();
	bench_matmul();
	return 0;
}
