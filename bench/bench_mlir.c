/*
 * bench_mlir.c: the `mlir` strategy (One-Shot Bufferize's analysis in
 * mlir-opt-22) as a fuzz target and as a round trip over the corpus.
 *
 * Every figure is a ratio against a baseline measured in the same run,
 * over REPS repetitions (min and median; the machine is shared).  The
 * tool is a separate process: its wall time is what external_stats()
 * and tool_run measure, its CPU time getrusage(RUSAGE_CHILDREN).
 *
 * 1. fuzz_run, COUNT programs (default 1024) from a fixed seed, two mixes
 *    (no async with no `copy ... into`, and the full mix): the built-in
 *    one-shot (baseline: bufdiff alone), mlir batched (64 programs per
 *    call, the default) and mlir unbatched (ExternalOpts.batch = 1).
 *    Prints programs/s of wall time and per CPU second (bufdiff + tool:
 *    per core), the share of wall time inside mlir-opt, and the ratios.
 *    Aim of issue 9: >= 300 programs/s per core batched.
 * 2. Every case under CASES (default cases/) that loads and exports,
 *    cases/errors skipped: external_decide with a cold cache (export +
 *    tool + read back + mapping) against tool_run of the same command on
 *    the same exported text (mlir-opt's own time).  bufdiff's part is the
 *    decide time minus the time inside the tool.
 * Without mlir-opt-22 on PATH it says so and exits 0.  Never fails on a
 * figure.  Usage: bench_mlir [CASES [COUNT]]
 */
#define _XOPEN_SOURCE 700
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

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- 1. fuzzing */

static void
fuzz_row(const char *name, BenchFuzz *f)
{
	double n = (double)f->programs;

	printf("  %-22s %7.0f %7.0f %9.0f %7.1f%% %6ld %6ld %5ld\n", name,
	       n / bench_min(f->wall, REPS), n / bench_median(f->wall, REPS), n / bench_median(f->cpu, REPS),
	       100 * bench_median(f->share, REPS), f->calls, f->failures, f->tool_errors);
}

static void
fuzz_mix(const char *title, const GenOpts *g, long count, long ucount)
{
	const Strategy *mlir = strategy_parse("mlir");
	BenchFuzz base, bat, unb;

	bench_fuzz_reps(strategy_find("one-shot"), g, count, 0, &base);
	bench_fuzz_reps(mlir, g, count, 0, &bat);
	bench_fuzz_reps(mlir, g, ucount, 1, &unb);
	printf("\n%s: %ld programs (unbatched: the first %ld), %d reps\n",
	       title, count, ucount, REPS);
	printf("  %-22s %7s %7s %9s %8s %6s %6s %5s\n", "", "best/s", "med/s",
	       "per CPU-s", "in tool", "calls", "fail", "t-err");
	fuzz_row("one-shot (built-in)", &base);
	fuzz_row("mlir, batch of 64", &bat);
	fuzz_row("mlir, unbatched", &unb);
	printf("  batched / unbatched: %.1fx (median wall), %.1fx (CPU)\n",
	       ((double)bat.programs / bench_median(bat.wall, REPS)) /
	       ((double)unb.programs / bench_median(unb.wall, REPS)),
	       ((double)bat.programs / bench_median(bat.cpu, REPS)) /
	       ((double)unb.programs / bench_median(unb.cpu, REPS)));
	printf("  one-shot / mlir batched: %.1fx (median wall), %.1fx (CPU)\n",
	       ((double)base.programs / bench_median(base.wall, REPS)) /
	       ((double)bat.programs / bench_median(bat.wall, REPS)),
	       ((double)base.programs / bench_median(base.cpu, REPS)) /
	       ((double)bat.programs / bench_median(bat.cpu, REPS)));
	printf("  mlir batched, per core: %.0f programs/CPU-s (aim: 300)\n",
	       (double)bat.programs / bench_median(bat.cpu, REPS));
}

/* The cost of a tool call that does nothing: an empty module. */
static void
empty_call(const Strategy *s)
{
	double w[REPS], c[REPS];
	Str b = {0};
	char *cmd;

	external_command(NULL, s, &b);
	if (!(cmd = str_take(&b)))
		return;
	for (int r = 0; r < REPS; r++) {
		ToolResult t;
		double c0 = bench_cpu(RUSAGE_CHILDREN);
		w[r] = c[r] = 0;
		if (tool_run(cmd, "module {}\n", 10, 60, &t))
			continue;
		w[r] = t.seconds;
		c[r] = bench_cpu(RUSAGE_CHILDREN) - c0;
		tool_result_free(&t);
	}
	printf("baseline: %s on an empty module: %.1f ms min, %.1f ms median "
	       "wall, %.1f ms CPU (median of %d)\n", TOOL, 1e3 * bench_min(w, REPS),
	       1e3 * bench_median(w, REPS), 1e3 * bench_median(c, REPS), REPS);
	mem_free(cmd);
}

/* ---- 2. the corpus round trip */

static char **paths;
static int npaths;

/* Per repetition, sums over the cases. */
typedef struct Trip {
	double export[REPS];    /* mlir_export alone */
	double decide[REPS];    /* external_decide, cold cache */
	double in_tool[REPS];   /* of which inside the tool */
	double ours_cpu[REPS];  /* bufdiff's CPU during decide */
	double tool_cpu[REPS];  /* the tool's CPU during decide */
	double alone[REPS];     /* tool_run of the same command and text */
	double alone_cpu[REPS];
} Trip;

/* The exported text of c, or NULL (not expressible in MLIR). */
static char *
export_text(const Strategy *s, const Case *c)
{
	Arena *a = arena_new();
	ExportMap map = {0};
	Str b = {0};
	Diag d;
	int rc = a ? mlir_export(c->prog, c->file, mlir_version(
			external_mlir_version(NULL, s)), &b, a, &map, &d) : -1;

	arena_free(a);
	if (rc) {
		str_free(&b);
		return NULL;
	}
	return str_take(&b);
}

/* One case, repetition r: 1 measured (tool-error counted in *terr), 0 not
 * exportable. */
static int
trip_case(const Strategy *s, const char *cmd, const Case *c, Trip *t, int r,
	  int *terr)
{
	double w = now();
	char *text = export_text(s, c);
	double x0, c0, k0;
	Decisions ds;
	ToolReport tr;
	ToolResult res;
	Diag err;
	int rc;

	if (!text)
		return 0;
	t->export[r] += now() - w;
	external_forget();
	x0 = external_stats()->seconds;
	c0 = bench_cpu(RUSAGE_SELF);
	k0 = bench_cpu(RUSAGE_CHILDREN);
	w = now();
	rc = external_decide(NULL, s, c, &ds, &tr, &err);
	t->decide[r] += now() - w;
	t->in_tool[r] += external_stats()->seconds - x0;
	t->ours_cpu[r] += bench_cpu(RUSAGE_SELF) - c0;
	t->tool_cpu[r] += bench_cpu(RUSAGE_CHILDREN) - k0;
	*terr += rc == 1;
	if (rc >= 0)
		decisions_free(&ds);
	mem_free(tr.decisions);
	k0 = bench_cpu(RUSAGE_CHILDREN);
	if (!tool_run(cmd, text, strlen(text), 60, &res)) {
		t->alone[r] += res.seconds;
		t->alone_cpu[r] += bench_cpu(RUSAGE_CHILDREN) - k0;
		tool_result_free(&res);
	}
	mem_free(text);
	return 1;
}

static void
trip_row(const char *name, double *v)
{
	printf("  %-34s %9.1f %9.1f\n", name, 1e3 * bench_min(v, REPS), 1e3 * bench_median(v, REPS));
}

static void
round_trip(const char *dir)
{
	const Strategy *s = strategy_parse("mlir");
	Case **cases;
	int n = 0, measured = 0, terr = 0;
	Trip t = {0};
	Str b = {0};
	char *cmd;
	double ours[REPS], ours_med;

	npaths = bench_cases(dir, &paths);
	external_command(NULL, s, &b);
	cases = mem_calloc((size_t)npaths + 1, sizeof *cases);
	if (!(cmd = str_take(&b)) || !cases)
		return;
	for (int p = 0; p < npaths; p++) {
		Diag d;
		if (case_load(paths[p], 0, &cases[n], &d) || cases[n]->has_error)
			case_free(cases[n]);
		else
			n++;
		cases[n] = NULL;
	}
	for (int r = -1; r < REPS; r++) { /* r = -1: warm-up, not counted */
		Trip w = {0};
		measured = terr = 0;
		for (int i = 0; i < n; i++)
			measured += trip_case(s, cmd, cases[i], r < 0 ? &w : &t,
					      r < 0 ? 0 : r, &terr);
	}
	for (int r = 0; r < REPS; r++)
		ours[r] = t.decide[r] - t.in_tool[r];
	printf("\nround trip of %s: %d cases load, %d export (%d tool-errors), "
	       "%d reps, cold cache\n", dir, n, measured, terr, REPS);
	printf("  %-34s %9s %9s\n", "totals over the cases, ms", "min",
	       "median");
	trip_row("export alone", t.export);
	trip_row("external_decide (all of it)", t.decide);
	trip_row("  inside the tool (wall)", t.in_tool);
	trip_row("  bufdiff's part (total - tool)", ours);
	trip_row("  bufdiff's CPU", t.ours_cpu);
	trip_row("  the tool's CPU", t.tool_cpu);
	trip_row("mlir-opt alone, same text (wall)", t.alone);
	trip_row("mlir-opt alone, same text (CPU)", t.alone_cpu);
	ours_med = bench_median(ours, REPS);
	printf("  external_decide / mlir-opt alone: %.3fx (median wall)\n",
	       bench_median(t.decide, REPS) / bench_median(t.alone, REPS));
	printf("  bufdiff's part / mlir-opt alone: %.3f (median wall), %.3f "
	       "(CPU)\n", ours_med / bench_median(t.alone, REPS),
	       bench_median(t.ours_cpu, REPS) / bench_median(t.alone_cpu, REPS));
	printf("  export / bufdiff's part: %.2f; read back + mapping: %.2f\n",
	       bench_median(t.export, REPS) / ours_med, 1 - bench_median(t.export, REPS) / ours_med);
	for (int i = 0; i < n; i++)
		case_free(cases[i]);
	mem_free(cases);
	mem_free(cmd);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "cases";
	long count = argc > 2 ? strtol(argv[2], NULL, 10) : 1024;
	GenOpts plain = {.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC, .no_copies = true}, full = {.max_ops = 12, .mix = GEN_ALL,
								   .no_copies = false};
	time_t t = time(NULL);

	/* the benches read the project's own corpus: its cases' tools may be
	 * named (docs/trust.md) */
	trust_all();
	char day[32];

#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 64 << 20); /* as bufdiff's main does */
	mallopt(M_TOP_PAD, 16 << 20);
#endif
	setvbuf(stdout, NULL, _IOLBF, 0); /* progress when piped to a file */
	if (!bench_on_path(TOOL)) {
		printf("bench_mlir: %s is not installed: nothing measured\n", TOOL);
		return 0;
	}
	if (count < 64)
		count = 64;
	strftime(day, sizeof day, "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("bench_mlir, %s, %s (wall: min and median of %d reps)\n", day,
	       TOOL, REPS);
	empty_call(strategy_parse("mlir"));
	fuzz_mix("fuzz, no async, no copies (gen.no_copies)", &plain, count,
		 count / 4);
	fuzz_mix("fuzz, the full mix", &full, count, count / 4);
	round_trip(dir);
	bench_cases_free(paths, npaths);
	return 0;
}
