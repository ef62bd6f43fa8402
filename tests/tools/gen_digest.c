/* gen_digest.c: the FNV-1a hash of the text of N generated programs
 * (seeds 1..N, 12 ops, every construct, strategy one-shot: the options
 * test_fuzz.c uses), printed as 0x%016llx.  tests/gen-digest.sh builds it
 * with gcc and with clang and compares: same seed, same program on every
 * compiler, so a generator that evaluates two random picks in one
 * argument list (an order C leaves unspecified: gcc and clang differ)
 * fails there.
 *   usage: gen_digest [N]   (N defaults to 500) */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int
main(int argc, char **argv)
{
	static const GenOpts opts = {.max_ops = 12, .mix = GEN_ALL, .no_copies = false};
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 500;
	uint64_t h = 1469598103934665603ull;

	if (argc > 2 || n < 1) {
		fprintf(stderr, "usage: gen_digest [N]\n");
		return 2;
	}
	for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
		char *t = gen_case(seed, &opts, "one-shot");

		if (!t) {
			fprintf(stderr, "gen_digest: seed %llu: no program\n",
				(unsigned long long)seed);
			return 1;
		}
		for (const char *p = t; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		mem_free(t);
	}
	printf("0x%016llx\n", (unsigned long long)h);
	return 0;
}
