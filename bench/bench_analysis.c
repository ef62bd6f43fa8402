/*
 * bench_analysis.c: one-shot's analysis time as programs grow.
 *
 * Two generated shapes, 10^2 .. 10^5 ops: a straight-line chain where
 * every op also reads a value 7 ops back (so some writes conflict and some
 * do not), and the same chain split into loops nested three deep.  Prints
 * microseconds per op at each size: flat means no quadratic blow-up.  The
 * baseline is the parser on the same text (time per op of tir_parse).
 * When mlir-opt-22 is installed, the same programs written as MLIR
 * (func/arith/linalg/scf; `linalg.add ... outs(%a)` where TIR may reuse
 * a's buffer) go through its One-Shot Bufferize analysis
 * (bufferize-function-boundaries test-analysis-only
 * allow-return-allocs-from-loops): the figure to beat,
 * per op, whole process included.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bufferize.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The same programs in TIR or in MLIR (func/arith/linalg/scf), so that
 * mlir-opt-22's One-Shot Bufferize analysis can run on them too. */
typedef struct Gen {
	Str b;
	bool mlir;
} Gen;

#define T "tensor<16xf32>"

/* %v<i> = add %a, %b (b NULL: the constant 1.0) at indentation depth */
static void
add(Gen *g, int depth, const char *res, const char *a, const char *b)
{
	if (!g->mlir) {
		str_printf(&g->b, "%*s%%%s = add %%%s, %s%s : " T "\n", 2 * depth, "",
			   res, a, b ? "%" : "", b ? b : "1.0");
		return;
	}
	/* outs(a): the result may reuse a's buffer, as TIR's add may */
	str_printf(&g->b, "%*s%%%s = linalg.add ins(%%%s, %%%s : " T ", " T ") "
		   "outs(%%%s : " T ") -> " T "\n", 2 * depth, "", res, a,
		   b ? b : "one", a);
}

static void
chain(Gen *g, int from, int to, int depth)
{
	char r[32], a[32], c[32];

	for (int i = from; i < to; i++) {
		snprintf(r, sizeof r, "v%d", i);
		snprintf(a, sizeof a, "v%d", i - 1);
		snprintf(c, sizeof c, "v%d", i - 7);
		add(g, depth, r, a, i - 7 >= from ? c : NULL);
	}
}

static void
loop_open(Gen *g, int depth, const char *res, const char *iv,
	  const char *acc, int init)
{
	if (g->mlir)
		str_printf(&g->b, "%*s%%%s = scf.for %%%s = %%c0 to %%c2 step %%c1 "
			   "iter_args(%%%s = %%v%d) -> (" T ") {\n", 2 * depth, "",
			   res, iv, acc, init);
	else
		str_printf(&g->b, "%*s%%%s = for %%%s = 0 to 2 step 1 iter(%%%s = "
			   "%%v%d) -> (" T ") {\n", 2 * depth, "", res, iv, acc, init);
}

static void
yield(Gen *g, int depth, const char *v)
{
	str_printf(&g->b, "%*s%s %%%s%s\n%*s}\n", 2 * depth, "",
		   g->mlir ? "scf.yield" : "yield", v, g->mlir ? " : " T : "",
		   2 * depth - 2, "");
}

static char *
program(int nops, bool loops, bool mlir)
{
	Gen g = {{0}, mlir};
	char r[32], a[32], c[32];
	int i = 1;

	if (mlir)
		str_printf(&g.b, "func.func @main(%%v0: " T ") -> " T " {\n"
			   "  %%one = arith.constant dense<1.0> : " T "\n"
			   "  %%c0 = arith.constant 0 : index\n"
			   "  %%c1 = arith.constant 1 : index\n"
			   "  %%c2 = arith.constant 2 : index\n");
	else
		str_printf(&g.b, "func @main(%%v0: " T ") -> " T " {\n");
	if (!loops) {
		chain(&g, 1, nops, 1);
		i = nops;
	}
	/* loops: blocks of 30 ops, 10 outside, 10 in a loop, 10 in a nested one */
	for (int k = 0; loops && i + 30 <= nops; k++) {
		chain(&g, i, i + 10, 1);
		i += 10;
		snprintf(r, sizeof r, "l%d", k);
		snprintf(a, sizeof a, "i%d", k);
		snprintf(c, sizeof c, "a%d", k);
		loop_open(&g, 1, r, a, c, i - 1);
		snprintf(r, sizeof r, "v%d", i);
		add(&g, 2, r, c, NULL);
		chain(&g, i + 1, i + 10, 2);
		i += 10;
		snprintf(r, sizeof r, "m%d", k);
		snprintf(a, sizeof a, "j%d", k);
		snprintf(c, sizeof c, "b%d", k);
		loop_open(&g, 2, r, a, c, i - 1);
		snprintf(r, sizeof r, "v%d", i);
		snprintf(a, sizeof a, "v%d", i - 2);
		add(&g, 3, r, c, a);
		chain(&g, i + 1, i + 10, 3);
		snprintf(r, sizeof r, "v%d", i + 9);
		yield(&g, 3, r);
		snprintf(r, sizeof r, "m%d", k);
		yield(&g, 2, r);
		i += 10;
		snprintf(r, sizeof r, "v%d", i);
		snprintf(a, sizeof a, "l%d", k);
		add(&g, 1, r, a, NULL);
		i++;
	}
	str_printf(&g.b, "  %s %%v%d%s\n}\n", mlir ? "func.return" : "return",
		   i - 1, mlir ? " : " T : "");
	return str_take(&g.b);
}

#define MLIR_CAP 60 /* seconds */

/* Seconds mlir-opt-22's analysis takes on the program; -2 over the cap,
 * -1 when it cannot run. */
static double
mlir_seconds(int nops, bool loops)
{
	char *text = program(nops, loops, true);
	char path[] = "/tmp/bench-analysis-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char cmd[512];
	double t0, t;
	int rc;

	if (!f || fputs(text, f) < 0) {
		mem_free(text);
		return -1;
	}
	fclose(f);
	mem_free(text);
	/* capped: mlir-opt grows faster than linearly on long chains */
	snprintf(cmd, sizeof cmd, "timeout %d mlir-opt-22 --one-shot-bufferize="
		 "\"bufferize-function-boundaries test-analysis-only "
		 "allow-return-allocs-from-loops\" %s "
		 "-o /dev/null 2>/dev/null", MLIR_CAP, path);
	t0 = now();
	rc = system(cmd);
	t = rc == 0 ? now() - t0 : WIFEXITED(rc) && WEXITSTATUS(rc) == 124 ? -2 : -1;
	unlink(path);
	return t;
}

int
main(void)
{
	static const int sizes[] = {100, 1000, 10000, 100000};

	bool mlir = system("mlir-opt-22 --version >/dev/null 2>&1") == 0;
	bool over[2] = {false, false}; /* past the cap: skip larger sizes */

	printf("one-shot analysis time per op (us), parse as baseline; "
	       "mlir-opt-22 --one-shot-bufferize test-analysis-only on the same "
	       "programs%s:\n", mlir ? "" : " (not installed: skipped)");
	printf("%-12s %8s %10s %10s %10s %8s %10s\n", "shape", "ops", "parse/op",
	       "oneshot/op", "lower/op", "ratio", "mlir/op");
	for (int shape = 0; shape < 2; shape++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
			char *text = program(sizes[s], shape == 1, false);
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
			double tm = !mlir ? -1 : over[shape] ? -2
				    : mlir_seconds(sizes[s], shape == 1);
			over[shape] |= tm == -2;
			printf("%-12s %8d %10.3f %10.3f %10.3f %8.2f", shape ?
			       "loop-nested" : "straight", p->nops,
			       1e6 * (t1 - t0) / p->nops, 1e6 * (t2 - t1) / p->nops,
			       1e6 * (t3 - t2) / p->nops, (t2 - t1) / (t1 - t0));
			if (tm >= 0)
				printf(" %10.3f\n", 1e6 * tm / p->nops);
			else
				printf(" %10s\n", tm < -1 ? "> 60 s" : "error");
			fflush(stdout);
			bprog_free(bp);
			decisions_free(&ds);
			prog_free(p);
			mem_free(text);
		}
	return 0;
}
