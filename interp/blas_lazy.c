/*
 * blas_lazy.c: OpenBLAS, loaded on the first call (docs/kernels.md
 * "OpenBLAS, loaded when needed").
 *
 * Linked at start-up, libopenblas (36 MB) costs every bufdiff process its
 * relocations and starts its thread pool, whose threads spin (sched_yield)
 * for their first ~0.1 s: a command that waits for an outside tool burnt
 * a core meanwhile (`run --strategy mlir` with the daemon: 58 ms of CPU
 * against 10 without them).  Most commands never multiply a matrix, so
 * the few functions bufdiff calls are defined here and forward to the
 * library's, dlopen()ed the first time one is called.  The gemm calls
 * are the same calls with the same arguments: the same bits.
 *
 * Its threads match the work: loaded, OpenBLAS starts a thread per core
 * that spins ~0.1 s (again after each threaded gemm), though it computes
 * a gemm under BLAS_WIDE flops (m*n*k) on one thread anyway, and
 * bufdiff's tensors are mostly small (a campaign's at most 8 a dim: 4%
 * of its CPU was that spin, 0.1 s per core on bigger machines).  So,
 * unless the environment says how many (OPENBLAS_NUM_THREADS,
 * GOTO_NUM_THREADS, OMP_NUM_THREADS: then as it says), it is loaded with
 * one and widened to the cores at the first gemm of BLAS_WIDE flops or
 * more, which OpenBLAS splits by rows and columns of out: each element
 * summed in the same order, the same bits.  blas_threads_cap bounds it
 * (fuzz: one).
 */
#define _GNU_SOURCE /* sched_getaffinity's CPU_COUNT */
#include <cblas.h>
#include <dlfcn.h>
#include <sched.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "blas.h"

#ifndef BUFDIFF_BLAS_LIB
#define BUFDIFF_BLAS_LIB "libopenblas.so.0"
#endif

typedef void (*SgemmFn)(OPENBLAS_CONST enum CBLAS_ORDER,
			OPENBLAS_CONST enum CBLAS_TRANSPOSE,
			OPENBLAS_CONST enum CBLAS_TRANSPOSE, OPENBLAS_CONST blasint,
			OPENBLAS_CONST blasint, OPENBLAS_CONST blasint,
			OPENBLAS_CONST float, OPENBLAS_CONST float *,
			OPENBLAS_CONST blasint, OPENBLAS_CONST float *,
			OPENBLAS_CONST blasint, OPENBLAS_CONST float, float *,
			OPENBLAS_CONST blasint);
typedef void (*DgemmFn)(OPENBLAS_CONST enum CBLAS_ORDER,
			OPENBLAS_CONST enum CBLAS_TRANSPOSE,
			OPENBLAS_CONST enum CBLAS_TRANSPOSE, OPENBLAS_CONST blasint,
			OPENBLAS_CONST blasint, OPENBLAS_CONST blasint,
			OPENBLAS_CONST double, OPENBLAS_CONST double *,
			OPENBLAS_CONST blasint, OPENBLAS_CONST double *,
			OPENBLAS_CONST blasint, OPENBLAS_CONST double, double *,
			OPENBLAS_CONST blasint);
typedef void (*SetFn)(int);
typedef int (*GetFn)(void);

/* OpenBLAS's own threshold for a threaded gemm (interface/gemm.c:
 * SMP_THRESHOLD_MIN 65536 x GEMM_MULTITHREAD_THRESHOLD 4) */
enum { BLAS_WIDE = 1 << 18 };

static struct {
	SgemmFn sgemm;
	DgemmFn dgemm;
	SetFn set;
	GetFn get;
	bool loaded;
	bool env;       /* the environment set the count: never widened */
	int want;       /* the count for the work so far (env: its count) */
	int now;        /* the count set: want, at most cap */
	int cores;      /* this process may run on */
	int cap;        /* blas_threads_cap; 0: none */
} blas;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *
sym(void *h, const char *name)
{
	void *p = h ? dlsym(h, name) : NULL;

	if (!p) {
		/* an installation without OpenBLAS: nothing to compute with */
		fprintf(stderr, "bufdiff: cannot load OpenBLAS's %s from %s: %s\n",
			name, BUFDIFF_BLAS_LIB, dlerror());
		exit(2);
	}
	return p;
}

static int
cores(void)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set);
	return n > 0 ? (int)n : 1;
}

/* dlopen with OpenBLAS's thread count one, unless the environment sets
 * it (read by its constructor, so set around the dlopen only: our
 * children see the environment they had).  bufdiff starts no threads. */
static void *
open_narrow(const char *lib)
{
	void *h;

	blas.env = getenv("OPENBLAS_NUM_THREADS") ||
		   getenv("GOTO_NUM_THREADS") || getenv("OMP_NUM_THREADS");
	if (!blas.env)
		setenv("OPENBLAS_NUM_THREADS", "1", 1);
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!blas.env)
		unsetenv("OPENBLAS_NUM_THREADS");
	return h;
}

/* OpenBLAS's count to want, at most the cap. */
static void
apply(void)
{
	int n = blas.cap && blas.want > blas.cap ? blas.cap : blas.want;

	if (n != blas.now) {
		blas.set(n);
		blas.now = n;
	}
}

static void
load(void)
{
	void *h = open_narrow(BUFDIFF_BLAS_LIB);

	if (!h)
		h = open_narrow("libopenblas.so");
	blas.sgemm = (SgemmFn)(uintptr_t)sym(h, "cblas_sgemm");
	blas.dgemm = (DgemmFn)(uintptr_t)sym(h, "cblas_dgemm");
	blas.set = (SetFn)(uintptr_t)sym(h, "openblas_set_num_threads");
	blas.get = (GetFn)(uintptr_t)sym(h, "openblas_get_num_threads");
	blas.now = blas.want = blas.env ? blas.get() : 1;
	blas.cores = cores();
	blas.loaded = true;
	apply();
}

#define LOADED() ((void)pthread_once(&once, load)) /* an atomic load once done */

/* A gemm of m*n*k flops is next: the cores for a big one, once. */
static inline void
widen(OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n,
      OPENBLAS_CONST blasint k)
{
	if (blas.want == 1 && blas.cores > 1 && !blas.env &&
	    (double)m * n * k >= BLAS_WIDE) {
		blas.want = blas.cores;
		apply();
	}
}

void
blas_threads_cap(int n)
{
	blas.cap = n > 0 ? n : 0;
	if (blas.loaded) /* else load() applies it */
		apply();
}

void
cblas_sgemm(OPENBLAS_CONST enum CBLAS_ORDER order,
	    OPENBLAS_CONST enum CBLAS_TRANSPOSE ta,
	    OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m,
	    OPENBLAS_CONST blasint n, OPENBLAS_CONST blasint k,
	    OPENBLAS_CONST float alpha, OPENBLAS_CONST float *a,
	    OPENBLAS_CONST blasint lda, OPENBLAS_CONST float *b,
	    OPENBLAS_CONST blasint ldb, OPENBLAS_CONST float beta, float *c,
	    OPENBLAS_CONST blasint ldc)
{
	LOADED();
	widen(m, n, k);
	blas.sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void
cblas_dgemm(OPENBLAS_CONST enum CBLAS_ORDER order,
	    OPENBLAS_CONST enum CBLAS_TRANSPOSE ta,
	    OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m,
	    OPENBLAS_CONST blasint n, OPENBLAS_CONST blasint k,
	    OPENBLAS_CONST double alpha, OPENBLAS_CONST double *a,
	    OPENBLAS_CONST blasint lda, OPENBLAS_CONST double *b,
	    OPENBLAS_CONST blasint ldb, OPENBLAS_CONST double beta, double *c,
	    OPENBLAS_CONST blasint ldc)
{
	LOADED();
	widen(m, n, k);
	blas.dgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void
openblas_set_num_threads(int n)
{
	LOADED();
	blas.env = true; /* the caller's count, never widened */
	blas.want = n;
	apply();
}

int
openblas_get_num_threads(void)
{
	LOADED();
	return blas.get();
}
