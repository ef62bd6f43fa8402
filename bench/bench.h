/* bench.h: what the benches share (bench.c): clocks, CPU time, min and
 * median of repetitions, a tool on PATH.  Figures are printed, never
 * checked. */
#ifndef BUFDIFF_BENCH_H
#define BUFDIFF_BENCH_H

#include <stdbool.h>
#include <time.h>

double bench_clock(clockid_t id);    /* seconds on clock id */
/* User + system CPU seconds of this process (RUSAGE_SELF) or of its waited
 * children (RUSAGE_CHILDREN). */
double bench_cpu(int who);
int bench_cmp_double(const void *a, const void *b);  /* for qsort */
/* Min and median of v[0..n) (sorted in place). */
double bench_min(double *v, int n);
double bench_median(double *v, int n);
bool bench_on_path(const char *name); /* an executable `name` on PATH */
/* The *.yaml files under dir, sorted, cases/errors left out (*paths
 * mem_alloc'ed; bench_cases_free); their number. */
int bench_cases(const char *dir, char ***paths);
void bench_cases_free(char **paths, int n);

/* Fuzz throughput of one configuration (bench_mlir, bench_pipeline):
 * BENCH_REPS runs of `count` programs from seed 10^6 with strategy s,
 * `batch` programs per tool call (0: the default), the answer cache
 * emptied before each so that every run asks the tool. */
enum { BENCH_REPS = 5 };

typedef struct BenchFuzz {
	double wall[BENCH_REPS], cpu[BENCH_REPS], tool[BENCH_REPS],
	       share[BENCH_REPS]; /* share: of wall time, inside the tool */
	/* of cpu, the tool's processes' (reaped children, the live
	 * in-process worker): cpu - tool_cpu is bufdiff's own */
	double tool_cpu[BENCH_REPS];
	/* of tool_cpu, MLIR's own in the in-process answers (inproc_phases):
	 * the parse (and verifier), the pass pipeline, the print */
	double phase[3][BENCH_REPS];
	long programs, failures, tool_errors, calls;
} BenchFuzz;

struct Strategy;
struct GenOpts;
struct FuzzOpts;
struct RunConfig;
/* A quiet campaign of `count` programs from seed 10^6, strategy s. */
void bench_fuzz_opts(struct FuzzOpts *o, const struct Strategy *s,
		     const struct RunConfig *cfg, const struct GenOpts *g,
		     long count);
void bench_fuzz_reps(const struct Strategy *s, const struct GenOpts *g,
		     long count, int batch, BenchFuzz *f);

#endif
