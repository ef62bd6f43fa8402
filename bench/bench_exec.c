/*
 * bench_exec.c: the instrumented executor against the reference
 * interpreter, shape by shape: whole-buffer chains (copy-all, and one-shot
 * computing in place), partial writes into shared storage (per-element
 * shadow), escape copies (an insert into a tensor read again later),
 * strided views, a loop with an iter arg and a row loop that inserts
 * each row back in place.  Both run the same kernels; the ratio is what
 * the buffer table, the version shadow and the accounting cost.
 *
 * CPU time of each run (the process's clock), REPS repetitions after a
 * warm-up, reference and executor alternating in one run; min and median.
 * Prints figures, never fails on them (it exits 1 only if the runs
 * disagree or report a violation: then the figures mean nothing).
 * `bench_exec N` scales the large shapes to N elements (default 2^22).
 *
 * `bench_exec malloc [NOPS]`: the heap's settings (mem.c) as bufdiff
 * sets them against the old ones, each repetition a fresh process (a
 * `bufdiff run`): the 16-op chain, copy-all, on 16 MiB tensors (parse,
 * lowering, the reference and the run), and one-shot's analysis of a
 * straight chain of NOPS ops (default 10^6; parse and decisions).  CPU
 * time (user + system: page faults are system time) of each child, the
 * policies alternating within a repetition; the ratio is the old
 * setting's time over each policy's, min and median.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bufferize.h"

#define REPS 7

typedef struct Shape {
	const char *name, *strategy;
	char *(*text)(long n);
	long n;            /* elements of the input (its dims: rows x cols) */
	long rows;         /* 1: rank 1 */
} Shape;

static void
die(const char *what, const Diag *d)
{
	fprintf(stderr, "bench_exec: %s: %d:%d: %s\n", what, d->loc.line,
		d->loc.col, d->msg);
	exit(1);
}

/* A growing string. */
typedef struct Buf {
	char *s;
	size_t n, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
put(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = fmt_vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if ((size_t)k < b->cap - b->n)
			break;
		b->cap = 2 * b->cap + (size_t)k + 256;
		b->s = realloc(b->s, b->cap);
	}
	b->n += (size_t)k;
}

static Buf
start(long n, bool ro)
{
	Buf b = {malloc(256), 0, 256};

	put(&b, "func @main(%%x: tensor<%ldxf32>%s) -> tensor<%ldxf32> {\n", n,
	    ro ? " {readonly}" : "", n);
	return b;
}

/* %v1 = add %x, 0.5 ; %v2 = mul %v1, %x ; ... 16 ops. */
static char *
chain(long n)
{
	static const char *const ops[] = {"add", "mul", "sub", "max"};
	Buf b = start(n, false);

	for (int i = 1; i <= 16; i++) {
		char prev[16];
		fmt_snprintf(prev, sizeof prev, i == 1 ? "x" : "v%d", i - 1);
		put(&b, "  %%v%d = %s %%%s, %s : tensor<%ldxf32>\n", i,
		    ops[i % 4], prev, i % 2 ? "0.5" : "%x", n);
	}
	put(&b, "  return %%v16\n}\n");
	return b.s;
}

/* Eight quarters-of-an-eighth inserted one by one into the running
 * result, in place, then a whole-tensor op reads every element: the
 * shadow is per element from the first insert on. */
static char *
partial(long n)
{
	Buf b = start(n, false);
	long q = n / 8;

	put(&b, "  %%y0 = add %%x, 1.0 : tensor<%ldxf32>\n", n);
	for (int k = 0; k < 8; k++) {
		put(&b, "  %%s%d = extract_slice %%y%d[%ld] [%ld] [1] : "
		    "tensor<%ldxf32>\n", k, k, k * q, q, q);
		put(&b, "  %%t%d = mul %%s%d, 0.5 : tensor<%ldxf32>\n", k, k, q);
		put(&b, "  %%y%d = insert_slice %%t%d into %%y%d[%ld] [%ld] [1] "
		    ": tensor<%ldxf32>\n", k + 1, k, k, k * q, q, n);
	}
	put(&b, "  %%z = add %%y8, %%x : tensor<%ldxf32>\n", n);
	put(&b, "  return %%z\n}\n");
	return b.s;
}

/* Each insert goes into %x, which later ops read again: one-shot copies
 * %x before each insert (an escape copy) and the copies then meet. */
static char *
escape(long n)
{
	Buf b = start(n, false);
	long q = n / 4;

	for (int k = 0; k < 4; k++) {
		put(&b, "  %%s%d = extract_slice %%x[%ld] [%ld] [1] : "
		    "tensor<%ldxf32>\n", k, ((k + 1) % 4) * q, q, q);
		put(&b, "  %%t%d = add %%s%d, 1.0 : tensor<%ldxf32>\n", k, k, q);
		put(&b, "  %%y%d = insert_slice %%t%d into %%x[%ld] [%ld] [1] : "
		    "tensor<%ldxf32>\n", k, k, k * q, q, n);
	}
	put(&b, "  %%a = add %%y0, %%y1 : tensor<%ldxf32>\n", n);
	put(&b, "  %%c = add %%y2, %%y3 : tensor<%ldxf32>\n", n);
	put(&b, "  %%d = sub %%a, %%c : tensor<%ldxf32>\n", n);
	put(&b, "  %%e = add %%d, %%x : tensor<%ldxf32>\n", n);
	put(&b, "  return %%e\n}\n");
	return b.s;
}

/* Strided and shifted views of %x read by elementwise ops, the results
 * inserted into a fresh tensor. */
static char *
views(long n)
{
	Buf b = start(n, true);
	long h = n / 2;

	put(&b, "  %%ev = extract_slice %%x[0] [%ld] [2] : tensor<%ldxf32>\n", h, h);
	put(&b, "  %%od = extract_slice %%x[1] [%ld] [2] : tensor<%ldxf32>\n", h, h);
	put(&b, "  %%lo = extract_slice %%x[0] [%ld] [1] : tensor<%ldxf32>\n", h, h);
	put(&b, "  %%hi = extract_slice %%x[%ld] [%ld] [1] : tensor<%ldxf32>\n", h, h, h);
	put(&b, "  %%a = add %%ev, %%od : tensor<%ldxf32>\n", h);
	put(&b, "  %%c = mul %%lo, %%hi : tensor<%ldxf32>\n", h);
	put(&b, "  %%d = sub %%a, %%c : tensor<%ldxf32>\n", h);
	put(&b, "  %%e = empty : tensor<%ldxf32>\n", n);
	put(&b, "  %%f = insert_slice %%d into %%e[0] [%ld] [1] : tensor<%ldxf32>\n", h, n);
	put(&b, "  %%g = insert_slice %%a into %%f[%ld] [%ld] [1] : tensor<%ldxf32>\n", h, h, n);
	put(&b, "  return %%g\n}\n");
	return b.s;
}

/* 16 trips of an iter arg over the whole tensor. */
static char *
loop(long n)
{
	Buf b = start(n, false);

	put(&b, "  %%r = for %%i = 0 to 16 step 1 iter(%%acc = %%x) -> "
	    "(tensor<%ldxf32>) {\n", n);
	put(&b, "    %%a = add %%acc, %%x : tensor<%ldxf32>\n", n);
	put(&b, "    %%b = mul %%a, 0.5 : tensor<%ldxf32>\n", n);
	put(&b, "    yield %%b\n  }\n  return %%r\n}\n");
	return b.s;
}

/* A row loop: extract row i, add, insert it back in place (256x512). */
static char *
rows(long n)
{
	Buf b = {malloc(256), 0, 256};
	long r = 256, c = n / 256;

	put(&b, "func @main(%%x: tensor<%ldx%ldxf32>) -> tensor<%ldx%ldxf32> {\n",
	    r, c, r, c);
	put(&b, "  %%r = for %%i = 0 to %ld step 1 iter(%%acc = %%x) -> "
	    "(tensor<%ldx%ldxf32>) {\n", r, r, c);
	put(&b, "    %%s = extract_slice %%acc[%%i, 0] [1, %ld] [1, 1] : "
	    "tensor<1x%ldxf32>\n", c, c);
	put(&b, "    %%t = add %%s, 1.0 : tensor<1x%ldxf32>\n", c);
	put(&b, "    %%u = insert_slice %%t into %%acc[%%i, 0] [1, %ld] [1, 1] : "
	    "tensor<%ldx%ldxf32>\n", c, r, c);
	put(&b, "    yield %%u\n  }\n  return %%r\n}\n");
	return b.s;
}

static double
cpu_now(void)
{
	return bench_clock(CLOCK_PROCESS_CPUTIME_ID);
}

/* text parsed, verified and lowered by strategy; its input x (rank 1
 * or rows x n/rows). */
static Program *
lowered(const char *text, const char *name, const char *strategy, long n,
	long rows, Decisions *ds, BProg **bp, Tensor **x)
{
	SrcMap map = {1, 0};
	Diag d;
	Program *p = tir_parse(text, strlen(text), map, &d);
	int64_t dims[2] = {rows, n / rows};

	if (rows == 1)
		dims[0] = n;
	if (!p || tir_verify(p, &default_limits, &d))
		die(name, &d);
	if (decisions_make(p, strategy_find(strategy), ds) ||
	    !(*bp = bufferize_lower(p, ds, &d)))
		die("lowering", &d);
	*x = tensor_new(DT_F32, rows == 1 ? 1 : 2, dims);
	for (int64_t i = 0; i < (*x)->n; i++)
		tensor_setf(*x, i, (double)(i % 97) / 7.0);
	return p;
}

static void
run_shape(const Shape *s)
{
	char *text = s->text(s->n);
	Diag d;
	Decisions ds;
	BProg *bp;
	Tensor *x, **outs;
	double tref[REPS], texe[REPS], peak = 0;
	int nouts;
	Program *p = lowered(text, s->name, s->strategy, s->n, s->rows, &ds,
			     &bp, &x);

	for (int r = -1; r < REPS; r++) { /* r = -1: the warm-up */
		ExecOpts eo = {.lim = &default_limits};
		ExecResult ex;
		double t0 = cpu_now(), t1, t2;

		if (ref_run(p, p->funcs[0], &x, &default_limits, &outs, &nouts, &d))
			die("reference", &d);
		t1 = cpu_now();
		if (exec_run(bp, p->funcs[0], &x, &eo, &ex, &d))
			die("executor", &d);
		t2 = cpu_now();
		if (r >= 0) {
			tref[r] = t1 - t0;
			texe[r] = t2 - t1;
		}
		if (ex.nviols || ex.aborted[0] ||
		    memcmp(ex.outs[0]->data, outs[0]->data, 4 * (size_t)x->n)) {
			fprintf(stderr, "bench_exec: %s: the runs disagree\n",
				s->name);
			exit(1);
		}
		peak = (double)ex.mem.peak_bytes;
		exec_result_free(&ex);
		tensor_free(outs[0]);
		mem_free(outs);
	}
	{
		double rmin = bench_min(tref, REPS), rmed = bench_median(tref, REPS);
		double emin = bench_min(texe, REPS), emed = bench_median(texe, REPS);
		printf("| %s | %s | %.2f / %.2f | %.2f / %.2f | **%.3f** / %.3f | %.0f |\n",
		       s->name, s->strategy, 1e3 * rmin, 1e3 * rmed, 1e3 * emin,
		       1e3 * emed, emin / rmin, emed / rmed, peak / (1 << 20));
	}
	tensor_free(x);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
	free(text);
}

/* ------------------------------------------------ the heap's settings */

enum { MREPS = 5, NPOLICY = 3 };

static const struct Policy {
	const char *name;
	size_t mmap_threshold;
	bool huge;
} policies[NPOLICY] = {
	{"before: trim threshold + top pad (mmap at 128 KiB)", 0, false},
	{"mmap threshold 32 MiB", MEM_MMAP_THRESHOLD, false},
	{"mmap threshold 32 MiB + huge pages (bufdiff's)", MEM_MMAP_THRESHOLD, true},
};

/* `run` of the 16-op chain on n f32 elements, copy-all: what a `bufdiff
 * run` of it allocates, in the order it does. */
static void
work_run(long n)
{
	char *text = chain(n);
	Diag d;
	Decisions ds;
	BProg *bp;
	Tensor *x, **outs;
	ExecOpts eo = {.lim = &default_limits};
	ExecResult ex;
	int nouts;
	Program *p = lowered(text, "chain", "copy-all", n, 1, &ds, &bp, &x);

	if (ref_run(p, p->funcs[0], &x, &default_limits, &outs, &nouts, &d))
		die("reference", &d);
	if (exec_run(bp, p->funcs[0], &x, &eo, &ex, &d))
		die("executor", &d);
	exec_result_free(&ex);
	tensor_free(outs[0]);
	mem_free(outs);
	tensor_free(x);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
	free(text);
}

/* One-shot's analysis of a straight chain of nops ops, each also reading
 * the value 7 ops back (bench_analysis's straight shape). */
static void
work_analysis(long nops)
{
	Buf b = {malloc(256), 0, 256};
	SrcMap map = {1, 0};
	Diag d;
	Program *p;
	Decisions ds;

	put(&b, "func @main(%%v0: tensor<16xf32>) -> tensor<16xf32> {\n");
	for (long i = 1; i < nops; i++) {
		if (i >= 7)
			put(&b, "  %%v%ld = add %%v%ld, %%v%ld : tensor<16xf32>\n",
			    i, i - 1, i - 7);
		else
			put(&b, "  %%v%ld = add %%v%ld, 1.0 : tensor<16xf32>\n",
			    i, i - 1);
	}
	put(&b, "  return %%v%ld\n}\n", nops - 1);
	p = tir_parse(b.s, b.n, map, &d);
	if (!p || tir_verify(p, &default_limits, &d))
		die("analysis chain", &d);
	if (decisions_make(p, strategy_find("one-shot"), &ds))
		die("analysis", &(Diag){.msg = "out of memory"});
	decisions_free(&ds);
	prog_free(p);
	free(b.s);
}

/* CPU seconds of a fresh process doing work(n) under policy pol. */
static double
in_child(const struct Policy *pol, void (*work)(long), long n)
{
	int fd[2], st;
	double t = -1;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0) {
		perror("bench_exec");
		exit(1);
	}
	if (pid == 0) {
		double t0;

		close(fd[0]);
		mem_heap_setup(pol->mmap_threshold, pol->huge);
		t0 = bench_cpu(RUSAGE_SELF);
		work(n);
		t = bench_cpu(RUSAGE_SELF) - t0;
		if (write(fd[1], &t, sizeof t) != sizeof t)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &t, sizeof t) != sizeof t)
		t = -1;
	close(fd[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) || t < 0) {
		fprintf(stderr, "bench_exec: a child failed\n");
		exit(1);
	}
	return t;
}

static void
policy_row(const char *what, void (*work)(long), long n)
{
	double t[NPOLICY][MREPS], r[NPOLICY][MREPS];

	for (int k = 0; k < MREPS; k++)
		for (int i = 0; i < NPOLICY; i++)
			t[i][k] = in_child(&policies[i], work, n);
	for (int k = 0; k < MREPS; k++)
		for (int i = 0; i < NPOLICY; i++)
			r[i][k] = t[0][k] / t[i][k];
	printf("\n%s\n\n| policy | CPU s min / median | before / this, min / "
	       "median |\n|---|---|---|\n", what);
	for (int i = 0; i < NPOLICY; i++) {
		double rmin = bench_min(r[i], MREPS), rmed = bench_median(r[i], MREPS);
		double tmin = bench_min(t[i], MREPS), tmed = bench_median(t[i], MREPS);
		printf("| %s | %.3f / %.3f | %.2f / %.2f |\n", policies[i].name,
		       tmin, tmed, rmin, rmed);
	}
}

static int
bench_malloc(long nops)
{
	printf("the heap's settings, %d fresh processes a policy, alternating; "
	       "CPU s (user + system)\n", MREPS);
	policy_row("`run` of the 16-op chain on 16 MiB f32 tensors, copy-all",
		   work_run, 1L << 22);
	char what[128];
	fmt_snprintf(what, sizeof what, "one-shot's analysis, a straight "
		     "chain of %ld ops (parse and decisions)", nops);
	policy_row(what, work_analysis, nops);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "malloc"))
		return bench_malloc(argc > 2 ? atol(argv[2]) : 1000000);
	long n = argc > 1 ? atol(argv[1]) : 1L << 22;
	const Shape shapes[] = {
		{"16-op chain", "copy-all", chain, n, 1},
		{"16-op chain, in place", "one-shot", chain, n, 1},
		{"8 partial writes in place, then a whole op", "one-shot", partial, n, 1},
		{"4 inserts into a tensor read later (escape copies)", "one-shot", escape, n, 1},
		{"strided and shifted views, inserts into an empty", "one-shot", views, n, 1},
		{"loop: 16 trips of an iter arg", "one-shot", loop, n, 1},
		{"row loop: 256 trips, insert each row in place, 256x512", "one-shot", rows, 256 * 512, 256},
	};

	printf("executor against reference, %ld f32 elements, CPU ms, min / median "
	       "of %d (ratio: aim at most 1.25):\n\n", n, REPS);
	printf("| shape | strategy | reference ms | executor ms | executor/reference | "
	       "executor peak MiB |\n|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
		run_shape(&shapes[i]);
	return 0;
}
