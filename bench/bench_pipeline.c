/*
 * bench_pipeline.c: the mlir-pipeline strategy (the memref program that
 * mlir-opt-22's one-shot-bufferize + buffer-deallocation-pipeline emits,
 * executed by the instrumented executor).
 *
 * 1. The executor on large tensors: for each program below, exec_run of
 *    the memref program against exec_run of bufdiff's own lowering of the
 *    same case under copy-all and one-shot.  CPU time of this process
 *    (CLOCK_PROCESS_CPUTIME_ID) around exec_run alone, min and median of
 *    REPS repetitions after a warm-up; the tool is asked once (cached) and
 *    its translation (memref_program) is timed apart.  Ratios memref /
 *    copy-all and memref / one-shot.
 * 2. Fuzz throughput: COUNT programs (default 512) from a fixed seed with
 *    no async and no `copy ... into` (one-shot cannot bufferize an
 *    async.execute on tensors), batched (64 programs per tool call, nested
 *    modules) against unbatched (a call per program, the first COUNT/4):
 *    programs/s of wall time, per CPU second (bufdiff + tool: per core),
 *    the share of wall time inside mlir-opt, and the ratio.
 * Without mlir-opt-22 on PATH it says so and exits 0.  Never fails on a
 * figure.  Usage: bench_pipeline [COUNT]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"

#define REPS 5
#define TOOL "mlir-opt-22"

/* ---- 1. the executor on large tensors */

static const struct {
	const char *name;
	const char *program;
	const char *inputs;
} programs[] = {
	{"chain: 16 elementwise ops, 512x512 f32",
	 "  func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {\n"
	 "    %v1 = add %x, 0.5 : tensor<512x512xf32>\n"
	 "    %v2 = mul %v1, %x : tensor<512x512xf32>\n"
	 "    %v3 = sub %v2, 0.5 : tensor<512x512xf32>\n"
	 "    %v4 = max %v3, %x : tensor<512x512xf32>\n"
	 "    %v5 = add %v4, 0.5 : tensor<512x512xf32>\n"
	 "    %v6 = mul %v5, %x : tensor<512x512xf32>\n"
	 "    %v7 = sub %v6, 0.5 : tensor<512x512xf32>\n"
	 "    %v8 = max %v7, %x : tensor<512x512xf32>\n"
	 "    %v9 = add %v8, 0.5 : tensor<512x512xf32>\n"
	 "    %v10 = mul %v9, %x : tensor<512x512xf32>\n"
	 "    %v11 = sub %v10, 0.5 : tensor<512x512xf32>\n"
	 "    %v12 = max %v11, %x : tensor<512x512xf32>\n"
	 "    %v13 = add %v12, 0.5 : tensor<512x512xf32>\n"
	 "    %v14 = mul %v13, %x : tensor<512x512xf32>\n"
	 "    %v15 = sub %v14, 0.5 : tensor<512x512xf32>\n"
	 "    %v16 = max %v15, %x : tensor<512x512xf32>\n"
	 "    return %v16\n"
	 "  }\n",
	 "  x: {random: 1, min: -2, max: 2}\n"},
	{"loop: 8 trips reading the init, 512x512 f32",
	 "  func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {\n"
	 "    %r = for %i = 0 to 8 step 1 iter(%acc = %x) -> (tensor<512x512xf32>) {\n"
	 "      %a = add %acc, %x : tensor<512x512xf32>\n"
	 "      %b = mul %a, 0.5 : tensor<512x512xf32>\n"
	 "      yield %b\n"
	 "    }\n"
	 "    return %r\n"
	 "  }\n",
	 "  x: {random: 2, min: -2, max: 2}\n"},
	{"rows: 256 trips, extract/add/insert a row, 256x512 f32",
	 "  func @main(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {\n"
	 "    %r = for %i = 0 to 256 step 1 iter(%acc = %x) -> (tensor<256x512xf32>) {\n"
	 "      %s = extract_slice %acc[%i, 0] [1, 512] [1, 1] : tensor<1x512xf32>\n"
	 "      %t = add %s, 1.0 : tensor<1x512xf32>\n"
	 "      %u = insert_slice %t into %acc[%i, 0] [1, 512] [1, 1] : tensor<256x512xf32>\n"
	 "      yield %u\n"
	 "    }\n"
	 "    return %r\n"
	 "  }\n",
	 "  x: {random: 3, min: -2, max: 2}\n"},
	{"matmul: 128x128 f32 into a fill",
	 "  func @main(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n"
	 "    %e = empty : tensor<128x128xf32>\n"
	 "    %z = fill 0.0 into %e : tensor<128x128xf32>\n"
	 "    %m = matmul %a, %b into %z : tensor<128x128xf32>\n"
	 "    %n = add %m, %a : tensor<128x128xf32>\n"
	 "    return %n\n"
	 "  }\n",
	 "  a: {random: 4, min: -1, max: 1}\n  b: {random: 5, min: -1, max: 1}\n"},
};

/* CPU seconds of one exec_run of bp (-1 on a failure or a violation). */
static double
exec_once(const Case *c, const BProg *bp, const Func *entry)
{
	ExecOpts eo = {.lim = &c->lim};
	ExecResult ex;
	Diag d;
	double t0 = bench_clock(CLOCK_PROCESS_CPUTIME_ID), t;
	int rc = exec_run(bp, entry, c->inputs, &eo, &ex, &d);

	t = bench_clock(CLOCK_PROCESS_CPUTIME_ID) - t0;
	if (rc || ex.nviols || ex.aborted[0])
		t = -1;
	if (!rc)
		exec_result_free(&ex);
	return t;
}

/* REPS timed runs after a warm-up; false when a run failed. */
static bool
exec_reps(const Case *c, const BProg *bp, const Func *entry, double *v)
{
	if (exec_once(c, bp, entry) < 0)
		return false;
	for (int r = 0; r < REPS; r++)
		if ((v[r] = exec_once(c, bp, entry)) < 0)
			return false;
	return true;
}

/* bufdiff's lowering of c under a built-in strategy, or NULL. */
static BProg *
lowered(const Case *c, const char *strategy, Decisions *ds)
{
	Diag d;

	if (decisions_make(c->prog, strategy_find(strategy), ds))
		return NULL;
	return bufferize_lower(c->prog, ds, &d);
}

static void
exec_program(int k)
{
	const Strategy *s = strategy_parse("mlir-pipeline");
	Str y = {0};
	char *text;
	Case *c = NULL;
	BProg *mp = NULL, *ca = NULL, *os = NULL;
	const Func *entry;
	Decisions dca = {0}, dos = {0};
	ToolReport t;
	Diag d;
	double vm[REPS], vc[REPS], vo[REPS], tr[REPS];

	str_printf(&y, "case: bench/%d\nprogram: |\n%sinputs:\n%s", k,
		   programs[k].program, programs[k].inputs);
	text = str_take(&y);
	printf("\n%s\n", programs[k].name);
	if (!text || case_parse("bench.yaml", text, strlen(text), 0, &c, &d)) {
		printf("  does not load: %d:%d: %s\n", d.loc.line, d.loc.col, d.msg);
		goto out;
	}
	if (external_memref(NULL, s, c, &mp, &entry, &t, &d)) {
		printf("  no memref program: %s%s\n", t.status, d.msg);
		goto out;
	}
	for (int r = 0; r < REPS; r++) { /* the translation, answer cached */
		BProg *again = NULL;
		const Func *e2;
		double t0 = bench_clock(CLOCK_PROCESS_CPUTIME_ID);
		external_memref(NULL, s, c, &again, &e2, &t, &d);
		tr[r] = bench_clock(CLOCK_PROCESS_CPUTIME_ID) - t0;
		bprog_free(again);
		mem_free(t.decisions);
	}
	if (!(ca = lowered(c, "copy-all", &dca)) ||
	    !(os = lowered(c, "one-shot", &dos))) {
		printf("  bufdiff's lowering failed\n");
		goto out;
	}
	if (!exec_reps(c, mp, entry, vm) || !exec_reps(c, ca, c->entry, vc) ||
	    !exec_reps(c, os, c->entry, vo)) {
		printf("  a run failed or reported a violation: not measured\n");
		goto out;
	}
	printf("  %-30s %9s %9s\n", "exec_run, CPU ms", "min", "median");
	printf("  %-30s %9.2f %9.2f\n", "memref program (mlir-opt-22)",
	       1e3 * bench_min(vm, REPS), 1e3 * bench_median(vm, REPS));
	printf("  %-30s %9.2f %9.2f\n", "copy-all lowering", 1e3 * bench_min(vc, REPS),
	       1e3 * bench_median(vc, REPS));
	printf("  %-30s %9.2f %9.2f\n", "one-shot lowering", 1e3 * bench_min(vo, REPS),
	       1e3 * bench_median(vo, REPS));
	printf("  %-30s %9.2f %9.2f\n", "(translation, memref_program)",
	       1e3 * bench_min(tr, REPS), 1e3 * bench_median(tr, REPS));
	printf("  memref / copy-all: %.2fx (min), %.2fx (median); memref / "
	       "one-shot: %.2fx (min), %.2fx (median)\n", bench_min(vm, REPS) / bench_min(vc, REPS),
	       bench_median(vm, REPS) / bench_median(vc, REPS), bench_min(vm, REPS) / bench_min(vo, REPS), bench_median(vm, REPS) / bench_median(vo, REPS));
out:
	bprog_free(mp);
	bprog_free(ca);
	bprog_free(os);
	decisions_free(&dca);
	decisions_free(&dos);
	case_free(c);
	mem_free(text);
}

/* ---- 2. fuzz throughput */

static void
fuzz_row(const char *name, BenchFuzz *f)
{
	double n = (double)f->programs;

	printf("  %-24s %7.0f %7.0f %9.0f %7.1f%% %6ld %6ld %5ld\n", name,
	       n / bench_min(f->wall, REPS), n / bench_median(f->wall, REPS), n / bench_median(f->cpu, REPS),
	       100 * bench_median(f->share, REPS), f->calls, f->failures, f->tool_errors);
}

static void
fuzz_throughput(long count)
{
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC, .no_copies = true};
	BenchFuzz bat, unb;

	bench_fuzz_reps(strategy_parse("mlir-pipeline"), &g, count, 0, &bat);
	bench_fuzz_reps(strategy_parse("mlir-pipeline"), &g, count / 4, 1, &unb);
	printf("\nfuzz, no async, no copies: %ld programs from seed 1000000 "
	       "(unbatched: the first %ld), %d reps\n", count, count / 4, REPS);
	printf("  %-24s %7s %7s %9s %8s %6s %6s %5s\n", "", "best/s", "med/s",
	       "per CPU-s", "in tool", "calls", "fail", "t-err");
	fuzz_row("batch of 64", &bat);
	fuzz_row("unbatched", &unb);
	printf("  batched / unbatched: %.1fx (median wall), %.1fx (CPU)\n",
	       ((double)bat.programs / bench_median(bat.wall, REPS)) /
	       ((double)unb.programs / bench_median(unb.wall, REPS)),
	       ((double)bat.programs / bench_median(bat.cpu, REPS)) /
	       ((double)unb.programs / bench_median(unb.cpu, REPS)));
}

int
main(int argc, char **argv)
{
	long count = argc > 1 ? strtol(argv[1], NULL, 10) : 512;
	time_t t = time(NULL);
	char day[32];

#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 64 << 20); /* as bufdiff's main does */
	mallopt(M_TOP_PAD, 16 << 20);
#endif
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!bench_on_path(TOOL)) {
		printf("bench_pipeline: %s is not installed: nothing measured\n",
		       TOOL);
		return 0;
	}
	if (count < 64)
		count = 64;
	strftime(day, sizeof day, "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("bench_pipeline, %s, %s (min and median of %d reps)\n", day,
	       TOOL, REPS);
	for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++)
		exec_program((int)k);
	fuzz_throughput(count);
	return 0;
}
