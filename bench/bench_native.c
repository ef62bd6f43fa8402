/*
 * bench_native.c: what `fuzz --strategy mlir --confirm` costs a program
 * beyond the pass (One-Shot's analysis in mlir-opt-22, in-process), with
 * the native runs as main made them before 2026-12-06's second part of
 * issue 26 (32 programs a batch, a bufferizing and a lowering mlir-opt,
 * mlir-runner's default code generation) and as they are now
 * (native_batch_tune: 128 a batch, one mlir-opt for both when the tool is
 * mlir-opt-22 itself, quick code generation).
 *
 * fuzz_run over COUNT programs (default 32) from a fixed seed, the full
 * mix, REPS repetitions (the configurations in turn), CPU time of
 * bufdiff, its children and the in-process worker (getrusage RUSAGE_SELF
 * + RUSAGE_CHILDREN + inproc_worker_cpu):
 *   pass        mlir, batches of 64, no --confirm
 *   before      mlir --confirm, native runs as they were
 *   after       mlir --confirm, native runs as they are
 *   and with `alone` (slow: about 1 s of CPU a program):
 *   pass/1      mlir, ExternalOpts.batch = 1 (each program alone)
 *   confirm/1   mlir --confirm, batch 1: every native run alone
 * --confirm's cost a program is confirm - pass, printed as a multiple of
 * the pass's cost a program (min and median over the repetitions) and
 * before / after.  The native verdicts of each are printed: they must be
 * the same.  Without mlir-opt-22 and mlir-runner-22 it says so and exits
 * 0.  Never fails on a figure.  Usage: bench_native [COUNT [REPS [alone]]]
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
	NativeBatchTune tune;    /* the native batches' (size 0: today's) */
	double cpu[MAXREPS];     /* per program */
	long native[NATIVE_FAILED + 1];
	long programs;
	NativeBatchStats x;      /* the last repetition's */
} Cfg;

/* Every CPU second spent for us so far: ours, our reaped children's,
 * the live worker's (a worker that dies later is reaped: its CPU in
 * RUSAGE_CHILDREN, its part before in k0 of inproc_worker_cpu). */
static double
cpu_all(void)
{
	pid_t w;

	return bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN) +
	       inproc_worker_cpu(&w);
}

/* Repetition r of configuration c. */
static void
measure(const Strategy *s, const GenOpts *g, long count, int r, Cfg *c)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;
	NativeBatchTune today = *native_batch_tune();
	NativeBatchStats x0 = *native_batch_stats(), *x;
	FuzzOpts o;
	FuzzStats st;
	double c0;

	xo.batch = c->batch;
	cfg.tool = &xo;
	cfg.confirm = c->confirm;
	if (c->tune.size)
		*native_batch_tune() = c->tune;
	c0 = cpu_all();
	external_forget(); /* every repetition asks the tool again */
	native_forget();
	bench_fuzz_opts(&o, s, &cfg, g, count); /* (no reduction) */
	fuzz_run(&o, &st);
	c->cpu[r] = (cpu_all() - c0) / (double)(st.programs ? st.programs : 1);
	c->programs = st.programs;
	memcpy(c->native, st.native, sizeof c->native);
	x = native_batch_stats();
	c->x = (NativeBatchStats){x->batches - x0.batches,
				  x->batched - x0.batched,
				  x->answered - x0.answered, x->taken - x0.taken,
				  x->alone - x0.alone, x->halved - x0.halved,
				  x->hung - x0.hung};
	fuzz_stats_free(&st);
	*native_batch_tune() = today;
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
	bool alone = argc > 3 && !strcmp(argv[3], "alone");
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL};
	Cfg c[5] = {{.name = "pass (mlir, batch of 64)"},
		    {.name = "confirm, before (main's)", .confirm = true,
		     .tune = {32, false, false}},
		    {.name = "confirm, after (today's batches)", .confirm = true},
		    {.name = "pass, each program alone", .batch = 1},
		    {.name = "confirm, each program alone", .confirm = true,
		     .batch = 1}};
	int nc = alone ? 5 : 3;
	double after[MAXREPS], before[MAXREPS], pass, ratio[MAXREPS];

	if (!bench_on_path("mlir-opt-22") || !bench_on_path("mlir-runner-22")) {
		printf("bench_native: mlir-opt-22 or mlir-runner-22 not on PATH: "
		       "skipped\n");
		return 0;
	}
	if (reps < 1 || reps > MAXREPS || count < 1)
		return fprintf(stderr, "usage: bench_native [COUNT [REPS 1..%d "
			       "[alone]]]\n", MAXREPS), 2;
	external_register();
	/* (the configurations interleaved, one repetition of each in turn:
	 * a machine's load changes alike for all) */
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < nc; i++)
			measure(strategy_parse("mlir:mlir-opt-22"), &g, count, r,
				&c[i]);
	printf("fuzz --strategy mlir:mlir-opt-22 --confirm, %ld programs from "
	       "seed 10^6 (full mix), %d reps; CPU of bufdiff + children + "
	       "worker a program\n", c[0].programs, reps);
	printf("  %-34s %8s %8s\n", "", "min ms", "med ms");
	for (int i = 0; i < nc; i++)
		printf("  %-34s %8.1f %8.1f\n", c[i].name, 1e3 * bench_min(c[i].cpu, reps),
		       1e3 * bench_median(c[i].cpu, reps));
	pass = bench_median(c[0].cpu, reps);
	extra(&c[1], &c[0], reps, before);
	extra(&c[2], &c[0], reps, after);
	printf("\n--confirm's cost a program (confirm - pass), as a multiple of "
	       "the pass's (median %.1f ms):\n", 1e3 * pass);
	printf("  %-34s %8s %8s %8s %8s\n", "", "min ms", "med ms", "min x",
	       "med x");
	if (alone) {
		double one[MAXREPS];
		extra(&c[4], &c[3], reps, one);
		row("each native run alone", one, reps, pass);
	}
	row("before: main's batches", before, reps, pass);
	row("after: today's batches", after, reps, pass);
	for (int r = 0; r < reps; r++)
		ratio[r] = after[r] > 0 ? before[r] / after[r] : 0;
	printf("  before / after: %.2fx min, %.2fx median (each repetition's "
	       "ratio)\n", bench_min(ratio, reps), bench_median(ratio, reps));
	for (int i = 1; i < nc; i++) {
		if (!c[i].confirm)
			continue;
		printf("  %s: batches %ld, programs in them %ld, answered there "
		       "%ld, run alone %ld; native verdicts:", c[i].name,
		       c[i].x.batches, c[i].x.batched, c[i].x.answered,
		       c[i].x.alone);
		for (int v = NATIVE_CONFIRMED; v <= NATIVE_FAILED; v++)
			printf(" %s %ld", native_verdict_names[v], c[i].native[v]);
		printf("\n");
	}
	return 0;
}
