/*
 * bench_exec_batch.c: outside tools asked in batches (issue 26).
 *
 * Every figure is a ratio against a baseline measured in the same run, over
 * REPS repetitions (min and median; the machine is shared), in CPU time:
 * bufdiff's own and its waited children's (getrusage), the answer cache
 * emptied before each repetition.
 *
 * 1. fuzz_run with bufferizer/external/single-use.py, a Python strategy:
 *    `exec:` (a process per program, COUNT/16 programs) against
 *    `exec-batch:` and `exec-stream:` (64 programs per process, COUNT
 *    programs).  Programs per CPU-second; aim of issue 26: >= 20x.
 * 2. `check --strategy mlir` over the first NCASES cases under CASES
 *    (cases/errors skipped): one mlir-opt-22 per case (--tool-batch 1, as
 *    before issue 26) against check_prefill's batches.  Cases per
 *    CPU-second.  Skipped without mlir-opt-22 on PATH.
 * Without python3 on PATH part 1 says so.  Never fails on a figure.
 * Usage: bench_exec_batch SRC [COUNT [NCASES]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench.h"
#include "cases.h"
#include "fuzz.h"
#include "harness.h"
#include "mlir.h"

#define REPS BENCH_REPS

static double
cpu(void)
{
	return bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN);
}

/* n per CPU-second: best (min CPU) and median. */
static void
rate_row(const char *name, double n, double *cpus, long calls)
{
	printf("  %-28s %10.1f %10.1f %7ld\n", name, n / bench_min(cpus, REPS),
	       n / bench_median(cpus, REPS), calls);
}

/* a / b of the per-CPU-second rates: best against best, median against
 * median. */
static void
ratio_row(const char *name, double na, double *a, double nb, double *b)
{
	printf("  %-28s %9.1fx %9.1fx\n", name,
	       (na / bench_min(a, REPS)) / (nb / bench_min(b, REPS)),
	       (na / bench_median(a, REPS)) / (nb / bench_median(b, REPS)));
}

/* ---- 1. a Python exec: strategy in fuzz */

static void
python_fuzz(const char *src, long count)
{
	char spec[3][1024];
	const char *kind[3] = {"exec", "exec-batch", "exec-stream"};
	long n[3] = {count / 16 > 0 ? count / 16 : 1, count, count};
	GenOpts g = {.max_ops = 8, .mix = GEN_ALL};
	BenchFuzz f[3];

	if (!bench_on_path("python3")) {
		printf("python3 is not on PATH: no exec: figures\n");
		return;
	}
	for (int k = 0; k < 3; k++) {
		snprintf(spec[k], sizeof spec[k], "%s:python3 %s/bufferizer/"
			 "external/single-use.py", kind[k], src);
		bench_fuzz_reps(strategy_parse(spec[k]), &g, n[k], 0, &f[k]);
	}
	printf("\nfuzz with single-use.py (Python), programs per CPU-second "
	       "(bufdiff + children), %d reps\n", REPS);
	printf("  %-28s %10s %10s %7s\n", "", "best", "median", "calls");
	for (int k = 0; k < 3; k++) {
		char name[64];
		snprintf(name, sizeof name, "%s: (%ld programs)", kind[k],
			 f[k].programs);
		rate_row(name, (double)f[k].programs, f[k].cpu, f[k].calls);
	}
	printf("  (failures %ld, %ld, %ld; tool errors %ld, %ld, %ld)\n",
	       f[0].failures, f[1].failures, f[2].failures, f[0].tool_errors,
	       f[1].tool_errors, f[2].tool_errors);
	printf("  ratios (aim >= 20x):\n");
	ratio_row("exec-batch: / exec:", (double)f[1].programs, f[1].cpu,
		  (double)f[0].programs, f[0].cpu);
	ratio_row("exec-stream: / exec:", (double)f[2].programs, f[2].cpu,
		  (double)f[0].programs, f[0].cpu);
}

/* ---- 2. check --strategy mlir over the corpus */

static char **paths;
static int npaths;

/* One check of paths[0..n) with strategy s, `batch` cases per call (1:
 * each alone): CPU seconds; *calls the tool calls, *bad the cases that
 * did not pass. */
static double
check_once(const Strategy *s, int n, int batch, long *calls, int *bad)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;
	long k0 = external_stats()->calls;
	double c0 = cpu();

	xo.batch = batch;
	cfg.tool = &xo;
	external_forget();
	check_prefill(&cfg, paths, n, s);
	*bad = 0;
	for (int i = 0; i < n; i++) {
		Case *c = NULL;
		Outcome o;
		check_file(&cfg, paths[i], s, false, &c, &o);
		*bad += o.status != STATUS_OK;
		outcome_clear(&o);
		case_free(c);
	}
	*calls = external_stats()->calls - k0;
	return cpu() - c0;
}

static void
check_mlir(const char *dir, int ncases)
{
	const Strategy *s = strategy_parse("mlir");
	double alone[REPS], batched[REPS];
	long ca = 0, cb = 0;
	int ba = 0, bb = 0, n;

	if (!bench_on_path("mlir-opt-22")) {
		printf("\nmlir-opt-22 is not on PATH: no check --strategy mlir "
		       "figures\n");
		return;
	}
	npaths = bench_cases(dir, &paths);
	n = ncases < npaths ? ncases : npaths;
	for (int r = 0; r < REPS; r++) {
		alone[r] = check_once(s, n, 1, &ca, &ba);
		batched[r] = check_once(s, n, 0, &cb, &bb);
	}
	printf("\ncheck --strategy mlir, the first %d cases of %s, cases per "
	       "CPU-second (bufdiff + mlir-opt-22), %d reps\n", n, dir, REPS);
	printf("  %-28s %10s %10s %7s\n", "", "best", "median", "calls");
	rate_row("one call per case (before)", n, alone, ca);
	rate_row("batches of 64", n, batched, cb);
	printf("  (cases not passing: %d alone, %d batched)\n", ba, bb);
	ratio_row("batched / before", n, batched, n, alone);
	bench_cases_free(paths, npaths);
}

int
main(int argc, char **argv)
{
	const char *src = argc > 1 ? argv[1] : ".";
	long count = argc > 2 ? atol(argv[2]) : 512;
	int ncases = argc > 3 ? atoi(argv[3]) : 64;
	char cases[4096];

	external_register();
	python_fuzz(src, count > 0 ? count : 512);
	snprintf(cases, sizeof cases, "%s/cases", src);
	check_mlir(cases, ncases > 0 ? ncases : 64);
	return 0;
}
