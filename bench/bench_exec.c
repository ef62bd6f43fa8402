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
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

static void
run_shape(const Shape *s)
{
	char *text = s->text(s->n);
	SrcMap map = {1, 0};
	Diag d;
	Program *p = tir_parse(text, strlen(text), map, &d);
	Decisions ds;
	BProg *bp;
	Tensor *x, **outs;
	int64_t dims[2] = {s->rows, s->n / s->rows};
	double tref[REPS], texe[REPS], peak = 0;
	int nouts;

	if (s->rows == 1)
		dims[0] = s->n;
	if (!p || tir_verify(p, &default_limits, &d))
		die(s->name, &d);
	if (decisions_make(p, strategy_find(s->strategy), &ds) ||
	    !(bp = bufferize_lower(p, &ds, &d)))
		die("lowering", &d);
	x = tensor_new(DT_F32, s->rows == 1 ? 1 : 2, dims);
	for (int64_t i = 0; i < x->n; i++)
		tensor_setf(x, i, (double)(i % 97) / 7.0);
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

int
main(int argc, char **argv)
{
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
