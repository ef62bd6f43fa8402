/*
 * overlap.c: an op whose input shares the buffer it writes, other than
 * index by index (an in-place transpose, a reduce into a view of its
 * input, an elementwise op between shifted views).
 *
 * Such an op is judged by what it actually reads: it runs one element at a
 * time, in the row-major order of its iteration (the output's shape; a
 * reduce's input's), each step reading its inputs before writing its one
 * output element, and only a read of an element that an earlier step of
 * the same op overwrote is a violation.  A 1x1 in-place transpose, or a
 * shifted op whose reads all precede the writes of what they read, is no
 * fault.  The kernels themselves work in blocks and rows, so their order
 * is not the one judged: here the op runs in the judged order, which makes
 * the bits it leaves the bits the verdict is about.
 */
#include "exec.h"

/* Up to three views walked over one iteration shape (out, then inputs). */
typedef struct Walk {
	int kind;           /* 0 copy, 1 unary, 2 binary */
	OpKind ew;
	View v[3];          /* out, in[0], in[1]: iteration rank and sizes */
	int nin;
	unsigned judged;    /* bit k: reads of in[k] count */
} Walk;

/* View v narrowed to its element at multi-index idx (rank 0). */
static View
elem(const View *v, const int64_t *idx, int rank)
{
	View e = *v;

	for (int d = 0; d < rank; d++)
		e.off += idx[d] * v->strides[d];
	e.rank = 0;
	return e;
}

/* The span of flat offsets view v touches. */
static void
span(const View *v, int64_t *lo, int64_t *hi)
{
	*lo = *hi = v->off;
	for (int d = 0; d < v->rank; d++) {
		int64_t e = (v->sizes[d] - 1) * v->strides[d];
		if (e < 0)
			*lo += e;
		else
			*hi += e;
	}
}

static void
step(const Walk *w, const View *e)
{
	if (w->kind == 0)
		k_copy(&e[0], &e[1]);
	else if (w->kind == 1)
		k_unary(w->ew, &e[0], &e[1]);
	else
		k_binary(w->ew, &e[0], &e[1], &e[2]);
}

/* Run w one element at a time; the input (or -1) that first read an
 * element an earlier step wrote, and that step's index in *at. */
static int
walk(Exec *X, const Walk *w, int64_t *at)
{
	const View *o = &w->v[0];
	int64_t idx[MAXRANK] = {0}, lo, hi;
	uint8_t *written;
	int stale = -1;

	for (int d = 0; d < o->rank; d++)
		if (o->sizes[d] == 0)
			return -1;
	span(o, &lo, &hi);
	written = xalloc(X, (size_t)((hi - lo) / 8 + 1));
	memset(written, 0, (size_t)((hi - lo) / 8 + 1));
	for (;;) {
		View e[3];
		for (int k = 0; k <= w->nin; k++)
			e[k] = elem(&w->v[k], idx, o->rank);
		for (int k = 0; k < w->nin && stale < 0; k++) {
			int64_t p = e[k + 1].off - lo;
			if ((w->judged >> k & 1) && e[k + 1].base == o->base &&
			    p >= 0 && e[k + 1].off <= hi &&
			    (written[p / 8] >> (p % 8) & 1)) {
				stale = k;
				memcpy(at, idx, sizeof idx);
			}
		}
		step(w, e);
		written[(e[0].off - lo) / 8] |= (uint8_t)(1u << ((e[0].off - lo) % 8));
		int d = o->rank - 1;
		while (d >= 0 && ++idx[d] == o->sizes[d])
			idx[d--] = 0;
		if (d < 0)
			break;
	}
	mem_free(written);
	return stale;
}

/* Multi-index idx over sizes, row-major, as a flat index. */
static int64_t
flat(const int64_t *idx, const int64_t *sizes, int rank)
{
	int64_t li = 0;

	for (int d = 0; d < rank; d++)
		li = li * sizes[d] + idx[d];
	return li;
}

void
serial_ew(Exec *X, OpKind ew, const View *out, const View *a,
	  const View *b, Stale *s)
{
	Walk w = {b ? 2 : 1, ew, {*out, *a}, b ? 2 : 1, 3};
	int64_t at[MAXRANK];

	if (b)
		w.v[2] = *b;
	s->input = walk(X, &w, at);
	s->li = s->input < 0 ? 0 : flat(at, out->sizes, out->rank);
}

void
serial_transpose(Exec *X, const View *out, const View *a, const int *perm,
		 Stale *s)
{
	Walk w = {0, OP_NONE, {*out, *a}, 1, 1};
	int64_t at[MAXRANK], ai[MAXRANK];

	for (int j = 0; j < a->rank; j++) {
		w.v[1].sizes[j] = a->sizes[perm[j]];
		w.v[1].strides[j] = a->strides[perm[j]];
	}
	s->input = walk(X, &w, at);
	for (int j = 0; s->input >= 0 && j < a->rank; j++)
		ai[perm[j]] = at[j];
	s->li = s->input < 0 ? 0 : flat(ai, a->sizes, a->rank);
}

/* out at a's rank with stride 0 on the folded dims, then
 * out' = out' (op) a over a's shape: only the reads of a are judged (the
 * accumulator is read on purpose). */
void
serial_reduce(Exec *X, OpKind ew, const View *out, const View *a,
	      const int *dims, int ndims, Stale *s)
{
	Walk w = {2, ew, {*out, *out, *a}, 2, 2};
	int64_t at[MAXRANK];

	w.v[0].rank = a->rank;
	for (int d = 0, j = 0, k = 0; d < a->rank; d++) {
		w.v[0].sizes[d] = a->sizes[d];
		if (k < ndims && dims[k] == d) {
			w.v[0].strides[d] = 0;
			k++;
		} else {
			w.v[0].strides[d] = out->strides[j++];
		}
	}
	w.v[1] = w.v[0];
	s->input = walk(X, &w, at) < 0 ? -1 : 0;
	s->li = s->input < 0 ? 0 : flat(at, a->sizes, a->rank);
}
