/*
 * bench_analysis.c: one-shot's analysis time as programs grow.
 *
 * Three generated shapes, 10^2 .. 10^6 ops: a straight-line chain where
 * every op also reads a value 7 ops back (so some writes conflict and some
 * do not); the same chain split into loops nested three deep; and a chain
 * where every third op reads one shared value %b first (`add %b, %prev`,
 * MLIR's `linalg.add ins(%b, %prev) outs(%b)`: an in-place write into %b
 * is considered there, and conflicts with %b's later reads).  Prints
 * microseconds per op at each size, CPU time, min and median of 5
 * repetitions: flat means no quadratic blow-up.  The baseline is the
 * parser on the same text (time per op of tir_parse).  When mlir-opt-22 is
 * installed, the same programs written as MLIR (func/arith/linalg/scf;
 * `linalg.add ... outs(%a)` where TIR may reuse a's buffer) go through its
 * One-Shot Bufferize analysis (bufferize-function-boundaries
 * test-analysis-only allow-return-allocs-from-loops): the figure to beat,
 * per op, the pass's own time from --mlir-timing (parsing apart).
 * `--memory`: bytes per op and decisions_make's time (memory() below).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bufferize.h"

/* CPU time: the machines are shared, wall time is disturbed. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { SHAPE_STRAIGHT, SHAPE_LOOPS, SHAPE_SHARED, NSHAPES };
static const char *const shape_names[NSHAPES] = {"straight", "loop-nested",
						 "shared-read"};

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
		fmt_snprintf(r, sizeof r, "v%d", i);
		fmt_snprintf(a, sizeof a, "v%d", i - 1);
		fmt_snprintf(c, sizeof c, "v%d", i - 7);
		add(g, depth, r, a, i - 7 >= from ? c : NULL);
	}
}

/* every third op reads %b first: the write into %b it considers */
static void
shared_chain(Gen *g, int nops)
{
	char r[32], a[32];

	for (int i = 1; i < nops; i++) {
		fmt_snprintf(r, sizeof r, "v%d", i);
		fmt_snprintf(a, sizeof a, "v%d", i - 1);
		if (i % 3)
			add(g, 1, r, a, NULL);
		else
			add(g, 1, r, "b", a);
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
program(int nops, int shape, bool mlir)
{
	Gen g = {{0}, mlir};
	char r[32], a[32], c[32];
	bool loops = shape == SHAPE_LOOPS;
	int i = 1;

	if (mlir)
		str_printf(&g.b, "func.func @main(%%v0: " T ", %%b: " T ") -> " T
			   " {\n"
			   "  %%one = arith.constant dense<1.0> : " T "\n"
			   "  %%c0 = arith.constant 0 : index\n"
			   "  %%c1 = arith.constant 1 : index\n"
			   "  %%c2 = arith.constant 2 : index\n");
	else
		str_printf(&g.b, "func @main(%%v0: " T ", %%b: " T ") -> " T " {\n");
	if (shape == SHAPE_SHARED) {
		shared_chain(&g, nops);
		i = nops;
	} else if (!loops) {
		chain(&g, 1, nops, 1);
		i = nops;
	}
	/* loops: blocks of 30 ops, 10 outside, 10 in a loop, 10 in a nested one */
	for (int k = 0; loops && i + 30 <= nops; k++) {
		chain(&g, i, i + 10, 1);
		i += 10;
		fmt_snprintf(r, sizeof r, "l%d", k);
		fmt_snprintf(a, sizeof a, "i%d", k);
		fmt_snprintf(c, sizeof c, "a%d", k);
		loop_open(&g, 1, r, a, c, i - 1);
		fmt_snprintf(r, sizeof r, "v%d", i);
		add(&g, 2, r, c, NULL);
		chain(&g, i + 1, i + 10, 2);
		i += 10;
		fmt_snprintf(r, sizeof r, "m%d", k);
		fmt_snprintf(a, sizeof a, "j%d", k);
		fmt_snprintf(c, sizeof c, "b%d", k);
		loop_open(&g, 2, r, a, c, i - 1);
		fmt_snprintf(r, sizeof r, "v%d", i);
		fmt_snprintf(a, sizeof a, "v%d", i - 2);
		add(&g, 3, r, c, a);
		chain(&g, i + 1, i + 10, 3);
		fmt_snprintf(r, sizeof r, "v%d", i + 9);
		yield(&g, 3, r);
		fmt_snprintf(r, sizeof r, "m%d", k);
		yield(&g, 2, r);
		i += 10;
		fmt_snprintf(r, sizeof r, "v%d", i);
		fmt_snprintf(a, sizeof a, "l%d", k);
		add(&g, 1, r, a, NULL);
		i++;
	}
	str_printf(&g.b, "  %s %%v%d%s\n}\n", mlir ? "func.return" : "return",
		   i - 1, mlir ? " : " T : "");
	return str_take(&g.b);
}

#define MLIR_CAP 60 /* seconds */

/* Seconds One-Shot Bufferize's pass takes in mlir-opt-22 on the program
 * (--mlir-timing's OneShotBufferizePass line); -2 over the cap, -1 when it
 * cannot run. */
static double
mlir_seconds(int nops, int shape)
{
	char *text = program(nops, shape, true);
	char path[] = "/tmp/bench-analysis-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *p;
	char cmd[512], line[256];
	double t = -1;
	int rc;

	if (!f || fputs(text, f) < 0) {
		mem_free(text);
		return -1;
	}
	fclose(f);
	mem_free(text);
	/* capped: mlir-opt grows faster than linearly on long chains */
	fmt_snprintf(cmd, sizeof cmd, "timeout %d mlir-opt-22 --one-shot-bufferize="
		 "\"bufferize-function-boundaries test-analysis-only "
		 "allow-return-allocs-from-loops\" --mlir-timing %s "
		 "-o /dev/null 2>&1", MLIR_CAP, path);
	if (!(p = popen(cmd, "r"))) {
		unlink(path);
		return -1;
	}
	while (fgets(line, sizeof line, p))
		if (strstr(line, "OneShotBufferizePass"))
			t = strtod(line, NULL);
	rc = pclose(p);
	if (WIFEXITED(rc) && WEXITSTATUS(rc) == 124)
		t = -2;
	else if (rc != 0)
		t = -1;
	unlink(path);
	return t;
}

enum { REPS = 5 };

typedef struct Fig {
	double parse, oneshot, lower; /* seconds */
} Fig;

/* One repetition: parse + verify, one-shot, lowering; -1 on an error. */
static int
measure(const char *text, Fig *f, int *nops)
{
	SrcMap map = {1, 0};
	Diag d;
	double t0 = now(), t1, t2, t3;
	Program *p = tir_parse(text, strlen(text), map, &d);
	Decisions ds;
	BProg *bp;

	if (!p || tir_verify(p, &default_limits, &d)) {
		fprintf(stderr, "bench_analysis: %d:%d: %s\n", d.loc.line,
			d.loc.col, d.msg);
		prog_free(p);
		return -1;
	}
	t1 = now();
	if (decisions_make(p, strategy_find("one-shot"), &ds)) {
		prog_free(p);
		return -1;
	}
	t2 = now();
	bp = bufferize_lower(p, &ds, &d);
	t3 = now();
	*f = (Fig){t1 - t0, t2 - t1, t3 - t2};
	*nops = p->nops;
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
	return 0;
}

/*
 * `bench_analysis --memory`: the straight chain at 10^5 and 10^6 ops,
 * the bytes per op a loaded program holds (mem_held after parse and
 * verify), its decisions (decisions_make: the array, the reasons) and
 * its buffer program, and decisions_make's CPU time per op, min/median
 * of REPS; then the sizes of the structs a parsed op is made of (the
 * chain's op: an Op, its result Value and name, two Operands, a Type,
 * its places in the block's ops, the program's values and the uses).
 */
static int
memory(void)
{
	static const int sizes[] = {100000, 1000000};

	printf("straight chain, bytes per op held (program, decisions, buffer "
	       "program) and decisions_make CPU per op (us), min/median of "
	       "%d:\n", REPS);
	printf("%8s %10s %10s %10s %10s %15s\n", "ops", "program", "decisions",
	       "lowered", "total", "decide/op");
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		char *text = program(sizes[s], SHAPE_STRAIGHT, false);
		double dv[REPS];
		int64_t held[3] = {0, 0, 0};
		int nops = 0;
		for (int r = 0; r < REPS; r++) {
			int64_t h0 = mem_held(), h1, h2, h3;
			SrcMap map = {1, 0};
			Diag d;
			Program *p = tir_parse(text, strlen(text), map, &d);
			Decisions ds;
			BProg *bp;
			double t;
			if (!p || tir_verify(p, &default_limits, &d))
				return 1;
			h1 = mem_held();
			t = now();
			if (decisions_make(p, strategy_find("one-shot"), &ds))
				return 1;
			dv[r] = now() - t;
			h2 = mem_held();
			bp = bufferize_lower(p, &ds, &d);
			h3 = mem_held();
			held[0] = h1 - h0;
			held[1] = h2 - h1;
			held[2] = h3 - h2;
			nops = p->nops;
			bprog_free(bp);
			decisions_free(&ds);
			prog_free(p);
		}
		printf("%8d %10.0f %10.0f %10.0f %10.0f %7.3f/%-7.3f\n", nops,
		       (double)held[0] / nops, (double)held[1] / nops,
		       (double)held[2] / nops,
		       (double)(held[0] + held[1] + held[2]) / nops,
		       1e6 * bench_min(dv, REPS) / nops,
		       1e6 * bench_median(dv, REPS) / nops);
		fflush(stdout);
		mem_free(text);
	}
	printf("struct bytes: Op %zu, Value %zu, Operand %zu, Type %zu, "
	       "Block %zu\n", sizeof(Op), sizeof(Value), sizeof(Operand),
	       sizeof(Type), sizeof(Block));
	return 0;
}

int
main(int argc, char **argv)
{
	static const int sizes[] = {100, 1000, 10000, 100000, 1000000};
	bool mlir, over[NSHAPES] = {false}; /* past the cap: skip larger sizes */

	if (argc > 1 && !strcmp(argv[1], "--memory"))
		return memory();
	mlir = system("mlir-opt-22 --version >/dev/null 2>&1") == 0;

	printf("one-shot analysis CPU time per op (us), min/median of %d; parse "
	       "as baseline; mlir-opt-22's OneShotBufferizePass (test-analysis-"
	       "only, --mlir-timing) on the same programs%s:\n", REPS,
	       mlir ? "" : " (not installed: skipped)");
	printf("%-12s %8s %15s %15s %15s %8s %10s\n", "shape", "ops",
	       "parse/op", "oneshot/op", "lower/op", "os/parse", "mlir/op");
	for (int shape = 0; shape < NSHAPES; shape++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
			char *text = program(sizes[s], shape, false);
			double pv[REPS], ov[REPS], lv[REPS], pm, pd, om, od, lm, ld;
			int nops = 0;
			for (int r = 0; r < REPS; r++) {
				Fig f;
				if (measure(text, &f, &nops))
					return 1;
				pv[r] = f.parse;
				ov[r] = f.oneshot;
				lv[r] = f.lower;
			}
			pm = bench_min(pv, REPS);
			pd = bench_median(pv, REPS);
			om = bench_min(ov, REPS);
			od = bench_median(ov, REPS);
			lm = bench_min(lv, REPS);
			ld = bench_median(lv, REPS);
			double tm = !mlir ? -1 : over[shape] ? -2
				    : mlir_seconds(sizes[s], shape);
			over[shape] |= tm == -2;
			printf("%-12s %8d %7.3f/%-7.3f %7.3f/%-7.3f %7.3f/%-7.3f "
			       "%8.2f", shape_names[shape], nops, 1e6 * pm / nops,
			       1e6 * pd / nops, 1e6 * om / nops, 1e6 * od / nops,
			       1e6 * lm / nops, 1e6 * ld / nops, od / pd);
			if (tm >= 0)
				printf(" %10.3f\n", 1e6 * tm / nops);
			else
				printf(" %10s\n", tm < -1 ? "> 60 s" : "error");
			fflush(stdout);
			mem_free(text);
		}
	return 0;
}
