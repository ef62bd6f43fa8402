/*
 * bench_native.c: what `fuzz --strategy mlir --confirm` costs a program
 * beyond the pass (One-Shot's analysis in mlir-opt-22), before (each
 * program's native run its own mlir-opt | mlir-opt | mlir-runner) and
 * after (native_batch.c: a compile and a runner a batch).
 *
 * fuzz_run over COUNT programs (default 32) from a fixed seed, the full
 * mix, REPS repetitions, CPU time of bufdiff and its children
 * (getrusage RUSAGE_SELF + RUSAGE_CHILDREN):
 *   pass        mlir, batches of 64, no --confirm
 *   confirm     mlir --confirm, batches of 64 (analysis and native runs)
 *   pass/1      mlir, ExternalOpts.batch = 1 (each program alone)
 *   confirm/1   mlir --confirm, batch 1: every native run alone (before)
 * --confirm's cost a program is confirm - pass (batched) and confirm/1 -
 * pass/1 (before), printed as ratios to the pass's cost a program (min
 * and median over the repetitions) and before / after.  The native
 * verdicts of both are printed: they must be the same.  Without
 * mlir-opt-22 and mlir-runner-22 it says so and exits 0.  Never fails on
 * a figure.  Usage: bench_native [COUNT [REPS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"

enum { MAXREPS = 9 };

typedef struct Cfg {
	const char *name;
	bool confirm;
	int batch;
	double cpu[MAXREPS];     /* per program */
	long native[NATIVE_FAILED + 1];
	long programs;
} Cfg;

static void
measure(const Strategy *s, const GenOpts *g, long count, int reps, Cfg *c)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;

	xo.batch = c->batch;
	cfg.tool = &xo;
	cfg.confirm = c->confirm;
	for (int r = 0; r < reps; r++) {
		FuzzOpts o;
		FuzzStats st;
		double c0 = bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN);

		external_forget(); /* every repetition asks the tool again */
		native_forget();
		bench_fuzz_opts(&o, s, &cfg, g, count); /* (no reduction) */
		fuzz_run(&o, &st);
		c->cpu[r] = (bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN) -
			     c0) / (double)(st.programs ? st.programs : 1);
		c->programs = st.programs;
		memcpy(c->native, st.native, sizeof c->native);
		fuzz_stats_free(&st);
	}
}

/* cost - base a program, each repetition, into d */
static void
extra(const Cfg *cost, const Cfg *base, int reps, double *d)
{
	for (int r = 0; r < reps; r++)
		d[r] = cost->cpu[r] - base->cpu[r];
}

static void
row(const char *name, double *v, int reps, double pass)
{
	double mn = bench_min(v, reps), md = bench_median(v, reps);

	printf("  %-34s %8.1f %8.1f %7.2fx %7.2fx\n", name, 1e3 * mn, 1e3 * md,
	       mn / pass, md / pass);
}

int
main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 32;
	int reps = argc > 2 ? atoi(argv[2]) : 3;
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL};
	Cfg c[4] = {{.name = "pass (mlir, batch of 64)"},
		    {.name = "confirm (batched)", .confirm = true},
		    {.name = "pass, each program alone", .batch = 1},
		    {.name = "confirm, each program alone", .confirm = true,
		     .batch = 1}};
	double after[MAXREPS], before[MAXREPS], pass, ratio[MAXREPS];
	const NativeBatchStats *x = native_batch_stats();

	if (!bench_on_path("mlir-opt-22") || !bench_on_path("mlir-runner-22")) {
		printf("bench_native: mlir-opt-22 or mlir-runner-22 not on PATH: "
		       "skipped\n");
		return 0;
	}
	if (reps < 1 || reps > MAXREPS || count < 1)
		return fprintf(stderr, "usage: bench_native [COUNT [REPS 1..%d]]\n",
			       MAXREPS), 2;
	external_register();
	for (int i = 0; i < 4; i++)
		measure(strategy_parse("mlir:mlir-opt-22"), &g, count, reps, &c[i]);
	printf("fuzz --strategy mlir:mlir-opt-22 --confirm, %ld programs from "
	       "seed 10^6 (full mix), %d reps; CPU of bufdiff + children a "
	       "program\n", c[0].programs, reps);
	printf("  %-34s %8s %8s\n", "", "min ms", "med ms");
	for (int i = 0; i < 4; i++)
		printf("  %-34s %8.1f %8.1f\n", c[i].name, 1e3 * bench_min(c[i].cpu, reps),
		       1e3 * bench_median(c[i].cpu, reps));
	pass = bench_median(c[0].cpu, reps);
	extra(&c[1], &c[0], reps, after);
	extra(&c[3], &c[2], reps, before);
	printf("\n--confirm's cost a program (confirm - pass), as a multiple of "
	       "the pass's (median %.1f ms):\n", 1e3 * pass);
	printf("  %-34s %8s %8s %8s %8s\n", "", "min ms", "med ms", "min x",
	       "med x");
	row("before: each native run alone", before, reps, pass);
	row("after: batched", after, reps, pass);
	for (int r = 0; r < reps; r++)
		ratio[r] = after[r] > 0 ? before[r] / after[r] : 0;
	printf("  before / after: %.1fx min, %.1fx median\n",
	       bench_min(ratio, reps), bench_median(ratio, reps));
	printf("  batches: %ld, programs in them %ld, answered there %ld, "
	       "taken by native_run %ld; native runs alone %ld (each "
	       "program alone included)\n", x->batches, x->batched,
	       x->answered, x->taken, x->alone);
	for (int i = 1; i < 4; i += 2) {
		printf("  native verdicts, %s:", c[i].name);
		for (int v = NATIVE_CONFIRMED; v <= NATIVE_FAILED; v++)
			printf(" %s %ld", native_verdict_names[v], c[i].native[v]);
		printf("\n");
	}
	return 0;
}
