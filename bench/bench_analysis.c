/*
 * bench_analysis.c: one-shot's analysis time as programs grow.
 *
 * Two generated shapes, 10^2 .. 10^5 ops: a straight-line chain where
 * every op also reads a value 7 ops back (so some writes conflict and some
 * do not), and the same chain split into loops nested three deep.  Prints
 * microseconds per op at each size: flat means no quadratic blow-up.  The
 * baseline is the parser on the same text (time per op of tir_parse).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bufferize.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct Buf {
	char *s;
	size_t n, cap;
} Buf;

static void
put(Buf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->cap - b->n < 256) {
		b->cap = 2 * b->cap + 4096;
		b->s = realloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	b->n += (size_t)vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
}

/* %v<i> = add %v<i-1>, %v<i-7> (a literal near the block's start) */
static void
chain(Buf *b, int from, int to, int depth)
{
	for (int i = from; i < to; i++) {
		put(b, "%*s%%v%d = add %%v%d, ", 2 * depth, "", i, i - 1);
		if (i - 7 >= from)
			put(b, "%%v%d : tensor<16xf32>\n", i - 7);
		else
			put(b, "1.0 : tensor<16xf32>\n");
	}
}

static char *
program(int nops, bool loops)
{
	Buf b = {0};
	int i = 1;

	put(&b, "func @main(%%v0: tensor<16xf32>) -> tensor<16xf32> {\n");
	if (!loops) {
		chain(&b, 1, nops, 1);
		i = nops;
	} else {
		/* blocks of 30 ops: 10 outside, 10 in a loop, 10 in a nested one */
		int k = 0;
		while (i + 30 <= nops) {
			chain(&b, i, i + 10, 1);
			i += 10;
			put(&b, "  %%l%d = for %%i%d = 0 to 2 step 1 iter(%%a%d = ", k, k, k);
			put(&b, "%%v%d) -> (tensor<16xf32>) {\n", i - 1, 0);
			put(&b, "    %%v%d = add %%a%d, 1.0 : tensor<16xf32>\n", i, k);
			chain(&b, i + 1, i + 10, 2);
			i += 10;
			put(&b, "    %%m%d = for %%j%d = 0 to 2 step 1 iter(%%b%d = ", k, k, k);
			put(&b, "%%v%d) -> (tensor<16xf32>) {\n", i - 1, 0);
			put(&b, "      %%v%d = add %%b%d, %%v%d : tensor<16xf32>\n", i, k, i - 2);
			chain(&b, i + 1, i + 10, 3);
			put(&b, "      yield %%v%d\n    }\n", i + 9, 0);
			put(&b, "    yield %%m%d\n  }\n", k);
			i += 10;
			put(&b, "  %%v%d = add %%l%d, 1.0 : tensor<16xf32>\n", i, k);
			i++;
			k++;
		}
	}
	put(&b, "  return %%v%d\n}\n", i - 1, 0);
	return b.s;
}

int
main(void)
{
	static const int sizes[] = {100, 1000, 10000, 100000};

	printf("one-shot analysis time per op (us), parse as baseline:\n");
	printf("%-12s %8s %10s %10s %10s %8s\n", "shape", "ops", "parse/op",
	       "oneshot/op", "lower/op", "ratio");
	for (int shape = 0; shape < 2; shape++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
			char *text = program(sizes[s], shape == 1);
			SrcMap map = {1, 0};
			Diag d;
			double t0 = now(), t1, t2, t3;
			Program *p = tir_parse(text, strlen(text), map, &d);
			Decisions ds;
			BProg *bp;

			t1 = now();
			if (!p || tir_verify(p, &default_limits, &d)) {
				fprintf(stderr, "bench_analysis: %d:%d: %s\n",
					d.loc.line, d.loc.col, d.msg);
				return 1;
			}
			t1 = now();
			if (decisions_make(p, strategy_find("one-shot"), &ds))
				return 1;
			t2 = now();
			bp = bufferize_lower(p, &ds, &d);
			t3 = now();
			printf("%-12s %8d %10.3f %10.3f %10.3f %8.2f\n",
			       shape ? "loop-nested" : "straight", p->nops,
			       1e6 * (t1 - t0) / p->nops, 1e6 * (t2 - t1) / p->nops,
			       1e6 * (t3 - t2) / p->nops, (t2 - t1) / (t1 - t0));
			bprog_free(bp);
			decisions_free(&ds);
			prog_free(p);
			free(text);
		}
	return 0;
}
