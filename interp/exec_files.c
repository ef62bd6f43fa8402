/*
 * exec_files.c: register files cleared and copied by the runs of slots a
 * function can write, not whole.
 *
 * A register file has a slot for every value of the program (nregs, a
 * Reg of ~200 bytes each), but the code of one function only ever writes
 * its own values' slots (Value.func: its TIR values and the synthetic
 * ones lowered for it).  Each call zeroed its frame, each launch its file
 * and each forall trip copied its frame whole: 2.9% of a one-shot
 * campaign's CPU was that memset (perf).  A file is zero outside the runs
 * of the function whose code uses it (every file starts zeroed, and only
 * that code writes it), so clearing or copying those runs is clearing or
 * copying the whole file; the Debug build (the sanitizer runs) checks
 * it.  A memref program's files are cleared whole (its launches capture
 * every register).
 */
#include <assert.h>
#include <string.h>

#include "exec.h"

/* Can fn's code write slot i?  A value of no function: any code. */
static bool
mine(const BProg *bp, int i, const Func *fn)
{
	const Value *v = bp->regs[i];

	return !v || !v->func || v->func == fn;
}

const int *
file_runs(Exec *X, const Func *fn)
{
	const BProg *bp = X->bp;
	int fi = 0, n = 0, k = 0, *runs;

	if (bp->memref)
		return NULL;
	while (fi < bp->nfuncs && bp->funcs[fi].f != fn)
		fi++;
	if (fi == bp->nfuncs)
		return NULL;
	if (X->fruns[fi])
		return X->fruns[fi];
	for (int i = 0; i < bp->nregs; i++)
		n += mine(bp, i, fn) && (i == 0 || !mine(bp, i - 1, fn));
	runs = arena_alloc(X->sarena, (2 * (size_t)n + 1) * sizeof *runs);
	for (int i = 0; i < bp->nregs; i++) {
		if (!mine(bp, i, fn))
			continue;
		if (i == 0 || !mine(bp, i - 1, fn))
			runs[k++] = i;
		if (i + 1 == bp->nregs || !mine(bp, i + 1, fn))
			runs[k++] = i + 1;
	}
	runs[k] = -1;
	return X->fruns[fi] = runs;
}

#ifndef NDEBUG
static bool
all_zero(const Reg *r, size_t n)
{
	static const Reg zero;

	for (size_t i = 0; i < n; i++)
		if (memcmp(&r[i], &zero, sizeof zero))
			return false;
	return true;
}
#endif

void
file_clear(Exec *X, Reg *r, const int *runs)
{
	size_t n = (size_t)X->bp->nregs;

	if (!runs) {
		memset(r, 0, n * sizeof *r);
		return;
	}
	for (; *runs >= 0; runs += 2)
		memset(r + runs[0], 0, (size_t)(runs[1] - runs[0]) * sizeof *r);
	assert(all_zero(r, n));
}

void
file_copy(Exec *X, Reg *to, const Reg *from, const int *runs)
{
	size_t n = (size_t)X->bp->nregs;

	if (!runs) {
		memcpy(to, from, n * sizeof *to);
		return;
	}
	for (const int *p = runs; *p >= 0; p += 2)
		memcpy(to + p[0], from + p[0], (size_t)(p[1] - p[0]) * sizeof *to);
	assert(!memcmp(to, from, n * sizeof *to));
}
