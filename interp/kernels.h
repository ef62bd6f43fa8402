/*
 * kernels.h: the memory moves of kernels.c's elementwise driver
 * (kernels_mem.c): the transposing tile load, the even elements of a
 * stride-2 run, stores that bypass the cache, prefetch of the next runs.
 * Only data moves: no element is computed here, so no result depends on
 * which of them ran.
 */
#ifndef BUFDIFF_KERNELS_H
#define BUFDIFF_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * t[i * ts + j] = p[i * sr + j * sc] for i < ni, j < nj, elements of esz
 * bytes (1, 4 or 8), strides in elements, ts in elements: a tile of an
 * input read across its rows, made row-major.  Read down the columns
 * (sr is +-1): each p + j * sc is a run of ni elements.
 */
void kmem_tile_load(char *t, int64_t ts, const char *p, int64_t sr,
		    int64_t sc, int64_t esz, int64_t ni, int64_t nj);
/* Orders the stores that bypass the cache (kmem_stream_block) before
 * what follows. */
void kmem_fence(void);

/* The bytes of out from which elementwise kernels store past the cache
 * (8 MiB; tests lower it to reach those paths on small views). */
extern int64_t k_stream_min;

/* d[i] = s[2 * i] for i < n, elements of esz bytes (1, 4 or 8). */
static inline void
kmem_even(void *d, const void *s, size_t n, size_t esz)
{
#ifdef __SSE2__
	if (esz == 4 && n % 4 == 0) {
		for (size_t i = 0; i < n; i += 4) {
			const float *q = (const float *)s + 2 * i;
			__m128 x = _mm_loadu_ps(q), y = _mm_loadu_ps(q + 4);

			_mm_storeu_ps((float *)d + i,
				      _mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0)));
		}
		return;
	}
	if (esz == 8 && n % 2 == 0) {
		for (size_t i = 0; i < n; i += 2) {
			const double *q = (const double *)s + 2 * i;

			_mm_storeu_pd((double *)d + i,
				      _mm_unpacklo_pd(_mm_loadu_pd(q),
						      _mm_loadu_pd(q + 2)));
		}
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		memcpy((char *)d + i * esz, (const char *)s + 2 * i * esz, esz);
}

/* Store the n bytes of s (a multiple of 16) to d past the cache (non-
 * temporal stores) when d is 16-byte aligned and the target has such
 * stores (kmem_fence after the last); a plain copy otherwise. */
static inline void
kmem_stream_block(void *d, const void *s, size_t n)
{
#ifdef __SSE2__
	if (!((uintptr_t)d & 15)) {
		const char *q = s;
		char *o = d;

		for (size_t i = 0; i + 16 <= n; i += 16)
			_mm_stream_si128((__m128i *)(void *)(o + i),
					 _mm_loadu_si128((const void *)(q + i)));
		return;
	}
#endif
	memcpy(d, s, n);
}

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
