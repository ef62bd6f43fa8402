/*
 * bench_fuzz.c: how fast fuzzing catches broken strategies, and its
 * throughput.
 *
 * For inplace-all, last-use and every mutant of one-shot: fuzz from a
 * fixed seed (small programs: at most 12 ops, at most 16 elements per
 * tensor, every schedule) until the first failure, at most 10 seconds;
 * print the programs and seconds it took, and the size of the failure
 * reduced (ops before -> after).  Aim: each caught within 10 s, reduced to
 * at most 10 ops.  Then one-shot's throughput: programs per CPU-second on
 * one core, the full pipeline (generate, verify, reference, bufferize,
 * run under every schedule, compare; a program is built in memory, its
 * text made only for a failure).  Aim: at least 20,000/s
 * (issue 26).  Its same-run baseline: the reference interpreter alone on
 * the same programs (fuzz/reference: the loop's cost in reference runs).
 * Prints figures, never fails on them.  `bench_fuzz SEED` sets the first
 * part's seed; `bench_fuzz --throughput` runs only the second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"

/*
 * One-shot throughput without reducing: BENCH_REPS runs of THRU_COUNT
 * programs from seed 10^6 (bench_fuzz_reps), in CPU seconds of this
 * process (wall time on a shared machine counts the neighbours too); min
 * and median, as programs per CPU-second.
 */
enum { THRU_COUNT = 5000 };

/* The same-run baseline, and where the loop's CPU goes: CPU seconds of
 * generating the programs (built in memory, as the loop makes them), of
 * loading them (verify, inputs), and of the reference interpreter alone
 * on them, into cpu[PART_*]. */
enum { PART_GEN, PART_LOAD, PART_REF, PARTS };

static void
parts_only(const GenOpts *g, long count, double *cpu)
{
	memset(cpu, 0, PARTS * sizeof *cpu);
	for (long k = 0; k < count; k++) {
		GenCase gc;
		Program *p;
		Case *c = NULL;
		Tensor **ref = NULL;
		int nref = 0, bad;
		Diag d;
		double t = bench_cpu(RUSAGE_SELF), t2;
		bad = gen_case_build(1000000 + (uint64_t)k, g, "one-shot", NULL,
				     &gc, &p, false);
		t2 = bench_cpu(RUSAGE_SELF);
		cpu[PART_GEN] += t2 - t;
		if (bad || !p)
			continue;
		bad = gen_load_built(&gc, p, "seed.yaml", "one-shot", &c, &d);
		t = bench_cpu(RUSAGE_SELF);
		cpu[PART_LOAD] += t - t2;
		if (!bad) {
			(void)ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref,
				      &nref, &d);
			cpu[PART_REF] += bench_cpu(RUSAGE_SELF) - t;
		}
		for (int i = 0; i < nref; i++)
			tensor_free(ref[i]);
		mem_free(ref);
		case_free(c);
	}
}

static void
throughput(void)
{
	GenOpts g = {0};
	BenchFuzz f;
	double cpu[BENCH_REPS], wall[BENCH_REPS], ref[BENCH_REPS];
	double gen[BENCH_REPS], load[BENCH_REPS], part[PARTS];

	g.max_ops = 12;
	g.mix = GEN_ALL;
	bench_fuzz_reps(strategy_find("one-shot"), &g, THRU_COUNT, 0, &f);
	memcpy(cpu, f.cpu, sizeof cpu);
	memcpy(wall, f.wall, sizeof wall);
	for (int r = 0; r < BENCH_REPS; r++) {
		parts_only(&g, THRU_COUNT, part);
		gen[r] = part[PART_GEN];
		load[r] = part[PART_LOAD];
		ref[r] = part[PART_REF];
	}
	printf("one-shot throughput, %d x %ld programs from seed 1000000 "
	       "(%ld failures):\n", BENCH_REPS, f.programs, f.failures);
	printf("    CPU   best %.0f  median %.0f programs/s (aim: 20000)\n",
	       (double)f.programs / bench_min(cpu, BENCH_REPS),
	       (double)f.programs / bench_median(cpu, BENCH_REPS));
	printf("    wall  best %.0f  median %.0f programs/s\n",
	       (double)f.programs / bench_min(wall, BENCH_REPS),
	       (double)f.programs / bench_median(wall, BENCH_REPS));
	/* the ratio: the loop costs this many reference runs a program */
	printf("    the reference interpreter alone on the same programs: best "
	       "%.0f  median %.0f programs/s; fuzz/reference CPU %.2f "
	       "(median)\n", (double)THRU_COUNT / bench_min(ref, BENCH_REPS),
	       (double)THRU_COUNT / bench_median(ref, BENCH_REPS),
	       bench_median(cpu, BENCH_REPS) / bench_median(ref, BENCH_REPS));
	/* (each timed alone, so the shares are of the median whole) */
	printf("    of the loop's CPU (medians): generating (in memory) %.0f%%, "
	       "loading (verify, inputs) %.0f%%, the reference %.0f%%, the rest "
	       "(bufferize, runs under every schedule, compare) %.0f%%\n",
	       100 * bench_median(gen, BENCH_REPS) / bench_median(cpu, BENCH_REPS),
	       100 * bench_median(load, BENCH_REPS) / bench_median(cpu, BENCH_REPS),
	       100 * bench_median(ref, BENCH_REPS) / bench_median(cpu, BENCH_REPS),
	       100 * (1 - (bench_median(gen, BENCH_REPS) +
			   bench_median(load, BENCH_REPS) +
			   bench_median(ref, BENCH_REPS)) /
		      bench_median(cpu, BENCH_REPS)));
}

int
main(int argc, char **argv)
{
	FuzzOpts o = {0};
	FuzzStats st;
	bool thru = argc > 1 && !strcmp(argv[1], "--throughput");
	uint64_t seed = argc > 1 && !thru ? strtoull(argv[1], NULL, 10) : 1;
	int caught = 0, total = 0;

#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 64 << 20); /* as bufdiff's main does */
	mallopt(M_TOP_PAD, 16 << 20);
#endif
	if (thru) {
		throughput();
		return 0;
	}
	o.nshards = 1;
	o.quiet = true;
	o.gen.max_ops = 12;
	o.gen.mix = GEN_ALL;
	printf("time to the first failure from seed %llu (limit 10 s):\n",
	       (unsigned long long)seed);
	printf("%-34s %9s %9s %12s\n", "strategy", "programs", "seconds",
	       "reduced ops");
	for (int i = 0; strategy_at(i); i++) {
		const Strategy *s = strategy_at(i);
		if (strcmp(s->name, "inplace-all") && strcmp(s->name, "last-use") &&
		    strncmp(s->name, "mutant-", 7))
			continue;
		o.strategy = s;
		o.seed = seed;
		o.count = 0;
		o.seconds = 10;
		o.first = true;
		o.reduce = true;
		fuzz_run(&o, &st);
		total++;
		if (st.failures) {
			caught++;
			printf("%-34s %9ld %9.3f %5d -> %-4d\n", s->name,
			       st.programs, st.first_seconds,
			       st.first_reduce.ops_before, st.first_reduce.ops_after);
		} else {
			printf("%-34s %9ld %9.3f %12s\n", s->name, st.programs,
			       st.seconds, "not caught");
		}
		fuzz_stats_free(&st);
	}
	printf("caught %d of %d\n\n", caught, total);
	throughput();
	return 0;
}
