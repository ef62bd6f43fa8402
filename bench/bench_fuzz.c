/*
 * bench_fuzz.c: how fast fuzzing catches broken strategies, and its
 * throughput.
 *
 * For inplace-all, last-use and every mutant of one-shot: fuzz from a
 * fixed seed (small programs: at most 12 ops, at most 16 elements per
 * tensor, every schedule) until the first failure, at most 10 seconds;
 * print the programs and seconds it took, and the size of the failure
 * reduced (ops before -> after).  Aim: each caught within 10 s, reduced to
 * at most 10 ops.  Then one-shot for 5 seconds: programs per second on one
 * core, the full pipeline (generate, parse, verify, reference, bufferize,
 * run under every schedule, compare).  Aim: at least 2000/s.  Prints
 * figures, never fails on them.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "oracle.h"

int
main(int argc, char **argv)
{
	FuzzOpts o = {0};
	FuzzStats st;
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
	int caught = 0, total = 0;

#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 64 << 20); /* as bufdiff's main does */
	mallopt(M_TOP_PAD, 16 << 20);
#endif
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
	o.strategy = strategy_find("one-shot");
	o.seed = 1000000;
	o.count = 0;
	o.seconds = 5;
	o.first = false;
	o.reduce = false;
	fuzz_run(&o, &st);
	printf("one-shot throughput: %ld programs in %.2f s = %.0f programs/s "
	       "(aim: 2000), %ld failures\n", st.programs, st.seconds,
	       (double)st.programs / st.seconds, st.failures);
	fuzz_stats_free(&st);
	return 0;
}
