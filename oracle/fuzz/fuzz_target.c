/*
 * fuzz_target.c: the libFuzzer entry point.  The input bytes choose the
 * generator's seed and options; the program then runs one-shot (or the
 * strategy in $BUFDIFF_STRATEGY) under every schedule against the
 * reference.  A failure aborts, so libFuzzer, AFL++ (via its libFuzzer
 * driver) and ClusterFuzz/OSS-Fuzz record it; replay one with
 * `bufdiff fuzz --strategy S --seed N --count 1` (the seed is printed).
 *
 * Build: CC=clang cmake -B build-libfuzzer -DBUFDIFF_LIBFUZZER=ON
 *        cmake --build build-libfuzzer --target bufdiff_fuzz_target
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const Strategy *s;
	uint64_t seed = 1469598103934665603ull; /* FNV-1a over the bytes */
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL};
	FuzzOpts o = {0};
	FuzzStats st;

	if (!s) {
		const char *name = getenv("BUFDIFF_STRATEGY");
		s = strategy_find(name ? name : "one-shot");
		if (!s || !s->decide)
			abort();
	}
	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 1099511628211ull;
	if (size > 0)
		g.max_ops = 1 + data[0] % 24;
	if (size > 1) {
		unsigned mix = GEN_ALL & ~(unsigned)data[1];
		g.mix = mix ? mix : GEN_ALL;
	}
	o.strategy = s;
	o.seed = seed;
	o.count = 1;
	o.nshards = 1;
	o.quiet = true;
	o.gen = g;
	if (fuzz_run(&o, &st)) {
		fprintf(stderr, "bufdiff: %s fails; replay: bufdiff fuzz --strategy "
			"%s --seed %llu --count 1 --max-ops %d --mix %u\n", s->name,
			s->name, (unsigned long long)seed, g.max_ops, g.mix);
		abort();
	}
	fuzz_stats_free(&st);
	return 0;
}
