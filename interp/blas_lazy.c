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
 */
#include <cblas.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

static struct {
	SgemmFn sgemm;
	DgemmFn dgemm;
	SetFn set;
	GetFn get;
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

static void
load(void)
{
	void *h = dlopen(BUFDIFF_BLAS_LIB, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		h = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
	blas.sgemm = (SgemmFn)(uintptr_t)sym(h, "cblas_sgemm");
	blas.dgemm = (DgemmFn)(uintptr_t)sym(h, "cblas_dgemm");
	blas.set = (SetFn)(uintptr_t)sym(h, "openblas_set_num_threads");
	blas.get = (GetFn)(uintptr_t)sym(h, "openblas_get_num_threads");
}

#define LOADED() ((void)pthread_once(&once, load)) /* an atomic load once done */

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
	blas.dgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void
openblas_set_num_threads(int n)
{
	LOADED();
	blas.set(n);
}

int
openblas_get_num_threads(void)
{
	LOADED();
	return blas.get();
}
