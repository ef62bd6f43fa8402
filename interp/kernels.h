/*
 * kernels.h: the memory moves of kernels.c's elementwise driver
 * (kernels_mem.c): the transposing tile load, stores that bypass the
 * cache, prefetch of the next runs.  Only data moves: no element is
 * computed here, so no result depends on which of them ran.
 */
#ifndef BUFDIFF_KERNELS_H
#define BUFDIFF_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/*
 * t[i * ts + j] = p[i * sr + j * sc] for i < ni, j < nj, elements of esz
 * bytes (1, 4 or 8), strides in elements, ts in elements: a tile of an
 * input read across its rows, made row-major.  Read down the columns
 * (sr is +-1): each p + j * sc is a run of ni elements.
 */
void kmem_tile_load(char *t, int64_t ts, const char *p, int64_t sr,
		    int64_t sc, int64_t esz, int64_t ni, int64_t nj);
/* Copy n bytes to d with stores that bypass the cache (non-temporal)
 * where the target has them; kmem_fence() orders them before what
 * follows.  Plain memcpy elsewhere. */
void kmem_stream(char *d, const char *s, size_t n);
void kmem_fence(void);

/* Ask for the cache lines of [p, p + n) (n may be negative: the run
 * goes down from p). */
static inline void
kmem_prefetch(const char *p, int64_t n)
{
	if (n < 0) {
		p += n;
		n = -n;
	}
	for (int64_t o = 0; o < n; o += 64)
		__builtin_prefetch(p + o);
}

#endif
