/*
 * bench_exec.c: the instrumented executor against the reference
 * interpreter, on a 64-op elementwise chain over 2^20 f32 elements,
 * bufferized with copy-all (a fresh buffer per op, frees after last use).
 * Both run the same kernels; the ratio is what the buffer table, the
 * version shadow and the accounting cost.  Best of REPS runs after a
 * warm-up.  Prints figures, never fails on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bufferize.h"

#define N (1 << 20)
#define OPS 64
#define REPS 7

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void
die(const char *what, const Diag *d)
{
	fprintf(stderr, "bench_exec: %s: %d:%d: %s\n", what, d->loc.line,
		d->loc.col, d->msg);
	exit(1);
}

/* %v1 = add %v0, 0.5 ; %v2 = mul %v1, %x ; ... 64 ops, then return. */
static char *
chain_program(void)
{
	static const char *const ops[] = {"add", "mul", "sub", "max"};
	size_t cap = 128 * OPS + 256, n = 0;
	char *s = malloc(cap);

	n += (size_t)snprintf(s + n, cap - n, "func @main(%%x: tensor<%dxf32>) -> "
			      "tensor<%dxf32> {\n", N, N);
	for (int i = 1; i <= OPS; i++) {
		char prev[16];
		snprintf(prev, sizeof prev, i == 1 ? "x" : "v%d", i - 1);
		n += (size_t)snprintf(s + n, cap - n, "  %%v%d = %s %%%s, %s : "
				      "tensor<%dxf32>\n", i, ops[i % 4], prev,
				      i % 2 ? "0.5" : "%x", N);
	}
	snprintf(s + n, cap - n, "  return %%v%d\n}\n", OPS);
	return s;
}

int
main(void)
{
	char *text = chain_program();
	SrcMap map = {1, 0};
	Diag d;
	Program *p = tir_parse(text, strlen(text), map, &d);
	Decisions ds;
	BProg *bp;
	Tensor *x, **outs;
	int64_t dims[1] = {N};
	double tref = 1e30, texe = 1e30;
	int nouts;

	if (!p || tir_verify(p, &default_limits, &d))
		die("program", &d);
	if (decisions_make(p, strategy_find("copy-all"), &ds) ||
	    !(bp = bufferize_lower(p, &ds, &d)))
		die("lowering", &d);
	x = tensor_new(DT_F32, 1, dims);
	for (int64_t i = 0; i < N; i++)
		tensor_setf(x, i, (double)(i % 97) / 7.0);
	for (int r = 0; r <= REPS; r++) {
		double t0 = now(), t1;
		ExecOpts eo = {.lim = &default_limits};
		ExecResult ex;

		if (ref_run(p, p->funcs[0], &x, &default_limits, &outs, &nouts, &d))
			die("reference", &d);
		t1 = now();
		if (r && t1 - t0 < tref)
			tref = t1 - t0;
		if (exec_run(bp, p->funcs[0], &x, &eo, &ex, &d))
			die("executor", &d);
		if (r && now() - t1 < texe)
			texe = now() - t1;
		if (ex.nviols || memcmp(ex.outs[0]->data, outs[0]->data, 4 * (size_t)N)) {
			fprintf(stderr, "bench_exec: the runs disagree\n");
			return 1;
		}
		exec_result_free(&ex);
		tensor_free(outs[0]);
		mem_free(outs);
	}
	printf("64-op f32 chain over 2^20 elements, copy-all, best of %d:\n", REPS);
	printf("  reference interpreter   %8.2f ms\n", 1e3 * tref);
	printf("  instrumented executor   %8.2f ms\n", 1e3 * texe);
	printf("  ratio executor/reference %7.3f  (aim: at most 1.25)\n", texe / tref);
	tensor_free(x);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
	free(text);
	return 0;
}
