/*
 * kernels_mem.c: the memory moves of the elementwise driver (kernels.h).
 * SSE2 where the target has it (every x86-64), plain C elsewhere; they
 * move bits and compute nothing.
 */
#include "kernels.h" /* and <emmintrin.h> where the target has SSE2 */

/* The plain tile load: one element at a time, down the columns. */
#define TILE_LOAD(T)                                                         \
	do {                                                                 \
		const T *s_ = (const T *)(const void *)p;                    \
		T *d_ = (T *)(void *)t;                                      \
		for (int64_t j = j0; j < nj; j++)                            \
			for (int64_t i = 0; i < ni; i++)                     \
				d_[i * ts + j] = s_[i * sr + j * sc];        \
		for (int64_t j = 0; j < j0; j++)                             \
			for (int64_t i = i0; i < ni; i++)                    \
				d_[i * ts + j] = s_[i * sr + j * sc];        \
	} while (0)

/*
 * Blocks of 4x4 (4-byte elements) or 2x2 (8-byte) go through registers
 * and are stored a row at a time; the rest of the tile (the columns from
 * j0, the rows from i0) element by element.
 */
void
kmem_tile_load(char *t, int64_t ts, const char *p, int64_t sr, int64_t sc,
	       int64_t esz, int64_t ni, int64_t nj)
{
	int64_t i0 = 0, j0 = 0;

#ifdef __SSE2__
	if (sr == 1 && esz == 4) {
		const float *s = (const float *)(const void *)p;
		float *d = (float *)(void *)t;

		i0 = ni & ~(int64_t)3;
		j0 = nj & ~(int64_t)3;
		for (int64_t j = 0; j < j0; j += 4)
			for (int64_t i = 0; i < i0; i += 4) {
				const float *q = s + j * sc + i;
				__m128 r0 = _mm_loadu_ps(q);
				__m128 r1 = _mm_loadu_ps(q + sc);
				__m128 r2 = _mm_loadu_ps(q + 2 * sc);
				__m128 r3 = _mm_loadu_ps(q + 3 * sc);

				_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
				_mm_storeu_ps(d + i * ts + j, r0);
				_mm_storeu_ps(d + (i + 1) * ts + j, r1);
				_mm_storeu_ps(d + (i + 2) * ts + j, r2);
				_mm_storeu_ps(d + (i + 3) * ts + j, r3);
			}
	} else if (sr == 1 && esz == 8) {
		const double *s = (const double *)(const void *)p;
		double *d = (double *)(void *)t;

		i0 = ni & ~(int64_t)1;
		j0 = nj & ~(int64_t)1;
		for (int64_t j = 0; j < j0; j += 2)
			for (int64_t i = 0; i < i0; i += 2) {
				const double *q = s + j * sc + i;
				__m128d r0 = _mm_loadu_pd(q);
				__m128d r1 = _mm_loadu_pd(q + sc);

				_mm_storeu_pd(d + i * ts + j,
					      _mm_unpacklo_pd(r0, r1));
				_mm_storeu_pd(d + (i + 1) * ts + j,
					      _mm_unpackhi_pd(r0, r1));
			}
	}
#endif
	/* the blocks covered [0, i0) x [0, j0); the rest one by one */
	if (esz == 1)
		TILE_LOAD(uint8_t);
	else if (esz == 4)
		TILE_LOAD(uint32_t);
	else
		TILE_LOAD(uint64_t);
}

void
kmem_fence(void)
{
#ifdef __SSE2__
	_mm_sfence();
#endif
}
