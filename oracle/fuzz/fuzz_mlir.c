/*
 * fuzz_mlir.c: the libFuzzer entry point on the MLIR reader (what every
 * mlir-opt answer and `bufdiff import` go through: mlir_read.c).  The
 * input bytes are read as a generic-form module and walked; then imported
 * as TIR (import.c), and the TIR it prints is parsed and verified (an
 * error there is a verdict too: the reader does not verify MLIR).  A crash, sanitizer report, leak or hang is the finding.
 *
 * Run: B/bufdiff_fuzz_mlir -dict=tests/fuzz-seeds/mlir.dict
 *      NEW_DIR tests/fuzz-seeds/mlir   (ctest: fuzz-mlir)
 */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
count(MOp *op, void *ctx)
{
	(*(long *)ctx)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	Arena *a = arena_new();
	const char *dfile;
	MOp *top;
	Str out = {0};
	long n = 0;
	Diag d;

	if (!text || !a)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	if (mlir_read(text, size, a, &top, &d) == 0)
		mop_walk(top, count, &n);
	arena_free(a);
	if (mlir_import(text, size, "fuzz.mlir", NULL, &out, &d, &dfile) == 0 &&
	    !out.oom) {
		Program *p = tir_parse(out.s ? out.s : "", out.len,
				       (SrcMap){0}, &d);
		if (p)
			tir_verify(p, &default_limits, &d);
		prog_free(p);
	}
	str_free(&out);
	free(text);
	return 0;
}
