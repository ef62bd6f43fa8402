/*
 * fuzz_fixed.h: the case the plan and memref libFuzzer targets read their
 * input against (fuzz_plandoc.c, fuzz_memref.c): a call, a loop with
 * iter args, a slice and an insert_slice, so plan keys, hoists, anchors,
 * args and the memref translator's loops and calls have names to find.
 * Its file name is "fuzz.yaml": the memref seeds' locations name it
 * (tests/fuzz-seeds/memref/ are mlir-opt's answers for this case).
 */
#ifndef BUFDIFF_FUZZ_FIXED_H
#define BUFDIFF_FUZZ_FIXED_H

#include <stdlib.h>

#include "cases.h"

static const char fuzz_fixed_case[] =
	"case: fuzz/fixed\n"
	"program: |\n"
	"  func @main(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {\n"
	"    %d0 = empty : tensor<4xf32>\n"
	"    %d = fill 0 into %d0 : tensor<4xf32>\n"
	"    %y = call @inc(%x)\n"
	"    %r = for %i = 0 to 2 step 1 iter(%acc = %y) -> (tensor<4xf32>) {\n"
	"      %t = add %acc, %w : tensor<4xf32>\n"
	"      %u = mul %t, 2 : tensor<4xf32>\n"
	"      yield %u\n"
	"    }\n"
	"    %e = extract_slice %r[0] [2] [1] : tensor<2xf32>\n"
	"    %f = add %e, 1 : tensor<2xf32>\n"
	"    %g = insert_slice %f into %d[1] [2] [1] : tensor<4xf32>\n"
	"    %s = add %g, %x : tensor<4xf32>\n"
	"    return %s\n"
	"  }\n"
	"  func @inc(%p: tensor<4xf32>) -> tensor<4xf32> {\n"
	"    %q = add %p, 1 : tensor<4xf32>\n"
	"    return %q\n"
	"  }\n"
	"inputs:\n"
	"  x: [1, 2, 3, 4]\n"
	"  w: [1, 1, 1, 1]\n";

/* The fixed case, loaded (abort: it must load). */
static inline Case *
fuzz_fixed_load(void)
{
	Case *c = NULL;
	Diag d;

	if (case_parse("fuzz.yaml", fuzz_fixed_case, sizeof fuzz_fixed_case - 1,
		       0, &c, &d))
		abort();
	return c;
}

/* What one input may cost once it loads: small tensors, little work. */
static inline void
fuzz_small_limits(Limits *l)
{
	l->max_elems = 1 << 12;
	l->max_bytes = 1 << 20;
	l->max_trips = 1 << 12;
	l->max_depth = 16;
	l->max_work = 1 << 18;
}

#endif
