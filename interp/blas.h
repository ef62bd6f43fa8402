/*
 * blas.h: OpenBLAS as bufdiff uses it (interp/blas_lazy.c): cblas.h's
 * functions, loaded on the first call, and how many threads it may run.
 */
#ifndef BUFDIFF_BLAS_H
#define BUFDIFF_BLAS_H

#include <cblas.h>

/* At most n threads for OpenBLAS from now on (0: no bound); a campaign of
 * small matmuls runs on one.  Loads nothing: applied when it loads. */
void blas_threads_cap(int n);

#endif
