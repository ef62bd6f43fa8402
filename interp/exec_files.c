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

/* The runs of the slots marked (file_marks), -1 terminated, in the
 * share's arena; the marks cleared.  More than MAX_RUNS runs are the
 * whole file, one run: a big program's launches each keep a few ints,
 * not one a slot (a file is cleared in one call then, as before). */
enum { MAX_RUNS = 64 };

const int *
file_runs_of(Exec *X, uint8_t *mark)
{
	int n = X->bp->nregs, k = 0, *runs, nruns = 0;

	for (int i = 0; i < n; i++)
		nruns += mark[i] && (i == 0 || !mark[i - 1]);
	if (nruns > MAX_RUNS) {
		memset(mark, 0, (size_t)n);
		runs = arena_alloc(X->sarena, 3 * sizeof *runs);
		runs[0] = 0;
		runs[1] = n;
		runs[2] = -1;
		return runs;
	}
	runs = arena_alloc(X->sarena, (2 * (size_t)nruns + 1) * sizeof *runs);
	for (int i = 0; i < n; i++) {
		if (!mark[i])
			continue;
		if (i == 0 || !mark[i - 1])
			runs[k++] = i;
		if (i + 1 == n || !mark[i + 1])
			runs[k++] = i + 1;
	}
	runs[k] = -1;
	memset(mark, 0, (size_t)n);
	return runs;
}

/* A mark per slot, all clear (the run's: marks left set are cleared by
 * file_runs_of). */
uint8_t *
file_marks(Exec *X)
{
	if (!X->marks)
		X->marks = arena_alloc(X->arena, (size_t)X->bp->nregs + 1);
	return X->marks;
}

/* Can fn's code write slot i?  A value of no function: any code. */
bool
file_mine(const BProg *bp, int i, const Func *fn)
{
	const Value *v = bp->regs[i];

	return !v || !v->func || v->func == fn;
}

const int *
file_runs(Exec *X, const Func *fn)
{
	const BProg *bp = X->bp;
	int fi = 0;
	uint8_t *mark;

	if (bp->memref || bp->nfuncs == 1) /* (one function: every slot) */
		return NULL;
	while (fi < bp->nfuncs && bp->funcs[fi].f != fn)
		fi++;
	if (fi == bp->nfuncs)
		return NULL;
	if (X->fruns[fi])
		return X->fruns[fi];
	mark = file_marks(X);
	for (int i = 0; i < bp->nregs; i++)
		mark[i] = file_mine(bp, i, fn);
	return X->fruns[fi] = file_runs_of(X, mark);
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
