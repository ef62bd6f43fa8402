/*
 * reshape.c: collapse_shape/expand_shape.  The groups in Op.reassoc
 * split the higher-rank side into consecutive dims; a reshape keeps the
 * row-major order of the elements, so it is a view when the source's
 * strides can express the new dims (always for a contiguous source) and
 * a copy otherwise (a strided slice).
 */
#include <inttypes.h>
#include <stdio.h>

#include "ir.h"

/* Each group's product of hi's dims equals lo's dim; no groups: every
 * dim of hi is 1 and lo is rank 0. */
static int
groups_fit(const Op *op, const Type *hi, const Type *lo, char *msg, size_t n)
{
	int sum = 0, d = 0;

	for (int g = 0; g < op->nreassoc; g++)
		sum += op->reassoc[g];
	if (op->nreassoc && sum != hi->rank) {
		fmt_snprintf(msg, n, "the groups cover %d of the %d dims of rank "
			 "%d", sum, hi->rank, hi->rank);
		return -1;
	}
	if (op->nreassoc != lo->rank) {
		fmt_snprintf(msg, n, "%d groups for rank %d", op->nreassoc,
			 lo->rank);
		return -1;
	}
	for (int g = 0; g < op->nreassoc || (g == 0 && d < hi->rank); g++) {
		int k = op->nreassoc ? op->reassoc[g] : hi->rank;
		int64_t p = 1, want = op->nreassoc ? lo->dims[g] : 1;
		for (int i = 0; i < k; i++, d++)
			p *= hi->dims[d]; /* within the element limit */
		if (p != want) {
			fmt_snprintf(msg, n, "group %d has %" PRId64 " elements, "
				 "dim %d has %" PRId64, g, p, g, want);
			return -1;
		}
	}
	return 0;
}

int
reshape_check(const Op *op, const Type *src, const Type *res, char *msg,
	      size_t n)
{
	bool collapse = op->kind == OP_COLLAPSE_SHAPE;

	if (src->dt != res->dt) {
		fmt_snprintf(msg, n, "element type %s differs from the source's %s",
			 dtype_names[res->dt], dtype_names[src->dt]);
		return -1;
	}
	if (collapse && res->rank > src->rank) {
		fmt_snprintf(msg, n, "cannot raise rank %d to %d",
			 src->rank, res->rank);
		return -1;
	}
	if (!collapse && res->rank < src->rank) {
		fmt_snprintf(msg, n, "cannot lower rank %d to %d",
			 src->rank, res->rank);
		return -1;
	}
	return collapse ? groups_fit(op, src, res, msg, n)
			: groups_fit(op, res, src, msg, n);
}

/* v without its size-1 dims (they take any stride). */
static int
squeeze(const View *v, int64_t *dims, int64_t *strides)
{
	int k = 0;

	for (int d = 0; d < v->rank; d++)
		if (v->sizes[d] != 1) {
			dims[k] = v->sizes[d];
			strides[k++] = v->strides[d];
		}
	return k;
}

/* numpy's no-copy reshape: walk both shapes in runs of equal products;
 * each run of the old dims must be contiguous in itself. */
bool
view_reshape(const View *v, int rank, const int64_t *dims, View *out)
{
	int64_t od[MAXRANK], os[MAXRANK], ns[MAXRANK], n = 1;
	int no = squeeze(v, od, os), oi = 0, oj = 0;

	for (int d = 0; d < v->rank; d++)
		n *= v->sizes[d];
	*out = *v;
	out->rank = rank;
	for (int d = 0; d < rank; d++) {
		out->sizes[d] = dims[d];
		ns[d] = 1;
	}
	if (n == 0)
		goto done;
	while (oi < no && oj < rank) {
		int oe = oi + 1, ne = oj + 1;
		int64_t np = dims[oj], op = od[oi];
		while (np != op) {
			if (np < op && ne < rank)
				np *= dims[ne++];
			else if (np > op && oe < no)
				op *= od[oe++];
			else
				return false; /* different element counts */
		}
		for (int k = oi; k < oe - 1; k++)
			if (os[k] != od[k + 1] * os[k + 1])
				return false;
		ns[ne - 1] = os[oe - 1];
		for (int k = ne - 1; k > oj; k--)
			ns[k - 1] = ns[k] * dims[k];
		oi = oe;
		oj = ne;
	}
done:
	for (int d = 0; d < rank; d++)
		out->strides[d] = ns[d];
	return true;
}

bool
slice_contiguous(int rank, const int64_t *dims, const int64_t *sizes,
		 const int64_t *strides)
{
	View v = {.rank = rank}, r;
	int64_t s = 1, n = 1;

	for (int d = rank - 1; d >= 0; d--) {
		v.sizes[d] = sizes[d];
		v.strides[d] = s * strides[d];
		s *= dims[d];
		n *= sizes[d];
	}
	/* contiguous: it flattens to one dim with stride 1 */
	return n <= 1 || (view_reshape(&v, 1, &n, &r) && r.strides[0] == 1);
}
