/*
 * race.c: racy read or miscompile (issue 23 item 4).
 *
 * In MLIR a forall trip that reads its shared output beyond its own slice
 * races with the trips that insert there: the program has no single
 * meaning, while TIR pins the read as the init's (FORMAT section 5).  So a
 * divergence of an MLIR strategy on a program with a forall is a "racy
 * read" when some in-order visibility of the trips gives the outputs (the
 * trips one after another in some order, each seeing what the earlier ones
 * inserted: the reference interpreter's RefStats.order), and a miscompile
 * when none does.
 */
#include "harness.h"

/* Orders tried: first to last, last to first, then every permutation of
 * up to 5 trips (120; more trips: affine permutations). */
enum { RACE_ORDERS = 2 + 120 };

/* The distinct orders for foralls of at most n trips (RefStats.order
 * numbers them): 1 for one trip, then first to last, last to first and
 * the n! permutations (the first of which is first to last again). */
static int
orders_of(int64_t n)
{
	int64_t fact = 1;

	if (n <= 1)
		return 1;
	if (n > 5)
		return RACE_ORDERS;
	for (int64_t k = 2; k <= n; k++)
		fact *= k;
	return 2 + (int)fact;
}

/* Do outs hold got's bits (or close, native) wherever want is defined? */
static bool
outputs_match(Tensor *const *want, int nwant, Tensor *const *got, int ngot,
	      bool native)
{
	if (nwant != ngot)
		return false;
	for (int k = 0; k < nwant; k++) {
		const Tensor *a = want[k], *b = got[k];
		if (!b || a->n != b->n || a->rank != b->rank || a->dt != b->dt)
			return false;
		for (int64_t i = 0; i < a->n; i++)
			if (tensor_defined(a, i) &&
			    !(native ? native_elem_close(a, b, i)
				     : tensor_elem_same(a, b, i)))
				return false;
	}
	return true;
}

int
race_order(const Case *c, Tensor *const *outs, int nouts, bool native)
{
	if (!prog_has_op(c->prog, OP_FORALL) || c->ref_failed)
		return 0;
	for (int k = 1, last = RACE_ORDERS; k <= last; k++) {
		RefStats st = {.order = k};
		Tensor **ref = NULL;
		int nref = 0;
		Diag d;
		bool same = false;

		if (ref_run_stats(c->prog, c->entry, c->inputs, &c->lim, &ref,
				  &nref, &d, &st) == 0)
			same = outputs_match(ref, nref, outs, nouts, native);
		if (k == 1)
			last = orders_of(st.forall_trips);
		for (int i = 0; i < nref; i++)
			tensor_free(ref[i]);
		mem_free(ref);
		if (same)
			return k;
	}
	return -1;
}

const char *
race_order_text(int order, char *buf, size_t n)
{
	if (order == 1)
		fmt_snprintf(buf, n, "first to last");
	else if (order == 2)
		fmt_snprintf(buf, n, "last to first");
	else
		fmt_snprintf(buf, n, "permutation %d", order - 2);
	return buf;
}
