/*
 * fuzz_memref.c: the libFuzzer entry point on the memref translator (what
 * an mlir-pipeline tool's answer goes through: mlir_read, then memref.c).
 * The input bytes are the answer for the fixed case (fuzz_fixed.h); when
 * it translates, the buffer program runs on the instrumented executor
 * (small limits, one sync schedule).  Every error or violation is fine; a
 * crash, sanitizer report, leak or hang is the finding.
 *
 * Run: B/bufdiff_fuzz_memref -dict=tests/fuzz-seeds/mlir.dict
 *      NEW_DIR tests/fuzz-seeds/memref   (ctest: fuzz-memref)
 */
#include "fuzz.h"
#include "fuzz_fixed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static Case *c;
	char *text = malloc(size + 1);
	const Func *entry;
	BProg *bp = NULL;
	Diag d;

	if (!c) { /* read-only here: one for the whole run */
		c = fuzz_fixed_load();
		fuzz_small_limits(&c->lim);
	}
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	if (!memchr(data, 0, size) &&
	    memref_program(c, text, NULL, &bp, &entry, &d) == 0) {
		ExecOpts eo = {.lim = &c->lim};
		ExecResult ex;
		memset(&ex, 0, sizeof ex);
		if (exec_run(bp, entry, c->inputs, &eo, &ex, &d) == 0)
			exec_result_free(&ex);
		bprog_free(bp);
	}
	free(text);
	return 0;
}
