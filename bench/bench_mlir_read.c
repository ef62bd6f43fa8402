/*
 * bench_mlir_read.c: the generic-form MLIR reader on a module of OPS ops
 * shaped like test-analysis-only output (a loop of tensor ops carrying
 * __inplace_operands_attr__, properties, one `#locN` alias per op defined
 * after the module, as mlir-opt prints them).  Best of REPS after a warm-up;
 * prints MB/s and ops/s, never fails on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mlir.h"
#include "harness.h"

#define OPS 100000
#define REPS 5

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* OPS ops: four per trip of a loop body, each with its own loc alias. */
static char *
big_module(size_t *len)
{
	Str b = {0};
	int v = 2;

	str_puts(&b, "\"builtin.module\"() ({\n"
		     "  \"func.func\"() <{function_type = (tensor<64xf32>) -> tensor<64xf32>, "
		     "sym_name = \"main\"}> ({\n"
		     "  ^bb0(%arg0: tensor<64xf32> loc(\"big.mlir\":1:17)):\n"
		     "    %0 = \"arith.constant\"() <{value = 1.000000e+00 : f32}> : () -> f32 loc(#loc1)\n"
		     "    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index loc(#loc1)\n");
	for (int i = 2; i + 4 <= OPS - 4; i += 4, v += 3) {
		str_printf(&b, "    %%%d = \"tensor.extract\"(%%arg0, %%1) {__inplace_operands_attr__ = "
			   "[\"true\", \"none\"]} : (tensor<64xf32>, index) -> f32 loc(#loc%d)\n",
			   v, i);
		str_printf(&b, "    %%%d = \"arith.addf\"(%%%d, %%0) <{fastmath = #arith.fastmath<none>}> : "
			   "(f32, f32) -> f32 loc(#loc%d)\n", v + 1, v, i + 1);
		str_printf(&b, "    %%%d = \"tensor.insert\"(%%%d, %%arg0, %%1) {__inplace_operands_attr__ = "
			   "[\"none\", \"false\", \"none\"]} : (f32, tensor<64xf32>, index) -> "
			   "tensor<64xf32> loc(#loc%d)\n", v + 2, v + 1, i + 2);
		str_printf(&b, "    \"test.use\"(%%%d) {__inplace_operands_attr__ = [\"true\"]} : "
			   "(tensor<64xf32>) -> () loc(fused[#loc%d, \"other.mlir\":%d:1])\n",
			   v + 2, i + 3, i);
	}
	str_puts(&b, "    \"func.return\"(%arg0) : (tensor<64xf32>) -> () loc(#loc1)\n"
		     "  }) : () -> () loc(#loc1)\n}) : () -> () loc(#loc1)\n"
		     "#loc1 = loc(\"big.mlir\":1:1)\n");
	for (int i = 2; i < OPS; i++)
		str_printf(&b, "#loc%d = loc(\"big.mlir\":%d:%d)\n", i, i, 1 + i % 80);
	*len = b.len;
	return str_take(&b);
}

static int nops;

static void
count(MOp *op, void *ctx)
{
	nops++;
}

int
main(void)
{
	size_t len;
	char *text = big_module(&len);
	double best = 1e30;

	if (!text)
		return 1;
	for (int r = 0; r <= REPS; r++) {
		Arena *a = arena_new();
		MOp *top;
		Diag d;
		double t = now();

		if (mlir_read(text, len, a, &top, &d)) {
			fprintf(stderr, "bench_mlir_read: %d:%d: %s\n", d.loc.line,
				d.loc.col, d.msg);
			return 1;
		}
		t = now() - t;
		if (r > 0 && t < best)
			best = t;
		nops = 0;
		mop_walk(top, count, NULL);
		arena_free(a);
	}
	printf("mlir_read: %d ops, %.1f MB in %.1f ms: %.0f MB/s, %.2f M ops/s\n",
	       nops, (double)len / 1e6, best * 1e3, (double)len / 1e6 / best,
	       nops / best / 1e6);
	mem_free(text);
	return 0;
}
