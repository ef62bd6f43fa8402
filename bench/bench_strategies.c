/*
 * bench_strategies.c: memory and copies per strategy over the corpus.
 *
 * For every loadable case under the given directories (default: cases/),
 * runs the reference and then each strategy under every schedule, and
 * adds up the peak bytes, allocations, copies and copy bytes of the runs
 * that agree, and counts the runs that diverge or fault.  copy-all is the
 * baseline: the ratio column is peak bytes against copy-all's on the same
 * cases.  A mutant's failures are the oracle catching it.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"

typedef struct Row {
	int agree, diverge, fault;
	int64_t peak, allocs, copies, copy_bytes, base_peak;
} Row;

static const char **paths;
static int npaths, cappaths;

static int
visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	size_t n = strlen(path);

	(void)st;
	(void)f;
	if (type == FTW_F && n > 5 && !strcmp(path + n - 5, ".yaml")) {
		if (npaths == cappaths) {
			cappaths = cappaths ? 2 * cappaths : 256;
			paths = realloc(paths, (size_t)cappaths * sizeof *paths);
		}
		paths[npaths++] = strdup(path);
	}
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	int nstrat = 0, ncases = 0;
	Row *rows;

	trust_all(); /* the project's own corpus (docs/trust.md) */
	for (int i = 1; i < argc || (i == 1 && argc == 1); i++)
		nftw(argc > 1 ? argv[i] : "cases", visit, 16, FTW_PHYS);
	qsort(paths, (size_t)npaths, sizeof *paths, cmp);
	while (strategy_at(nstrat))
		nstrat++;
	rows = calloc((size_t)nstrat, sizeof *rows);
	for (int p = 0; p < npaths; p++) {
		Case *c = NULL;
		Diag d;
		Tensor **ref;
		int nref;
		RunOut base;

		if (case_load(paths[p], 0, &c, &d) || c->has_error ||
		    ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref, &d)) {
			case_free(c);
			continue;
		}
		ncases++;
		diff_run(NULL, c, NULL, strategy_find("copy-all"), ref, nref, &base);
		for (int s = 0; s < nstrat; s++) {
			const Strategy *st = strategy_at(s);
			RunOut r;
			Row *w = &rows[s];
			diff_run(NULL, c, NULL, st, ref, nref, &r);
			if (r.verdict == VERDICT_AGREE) {
				w->agree++;
				w->peak += r.ex.mem.peak_bytes;
				w->base_peak += base.ex.mem.peak_bytes;
				w->allocs += r.ex.mem.allocations;
				w->copies += r.ex.mem.copies;
				w->copy_bytes += r.ex.mem.copy_bytes;
			} else if (r.verdict == VERDICT_DIVERGE) {
				w->diverge++;
			} else if (r.verdict == VERDICT_FAULT) {
				w->fault++;
			}
			runout_clear(&r);
		}
		runout_clear(&base);
		for (int k = 0; k < nref; k++)
			tensor_free(ref[k]);
		mem_free(ref);
		case_free(c);
	}
	printf("%d cases; sums over the runs that agree (all schedules)\n", ncases);
	printf("%-34s %6s %7s %5s %10s %7s %7s %10s %6s\n", "strategy", "agree",
	       "diverge", "fault", "peak", "allocs", "copies", "copy bytes",
	       "peak/c");
	for (int s = 0; s < nstrat; s++) {
		const Row *w = &rows[s];
		printf("%-34s %6d %7d %5d %10lld %7lld %7lld %10lld %6.3f\n",
		       strategy_at(s)->name, w->agree, w->diverge, w->fault,
		       (long long)w->peak, (long long)w->allocs,
		       (long long)w->copies, (long long)w->copy_bytes,
		       w->base_peak ? (double)w->peak / (double)w->base_peak : 0);
	}
	for (int p = 0; p < npaths; p++)
		free((void *)paths[p]);
	free(paths);
	free(rows);
	return 0;
}
