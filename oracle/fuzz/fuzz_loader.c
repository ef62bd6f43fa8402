/*
 * fuzz_loader.c: the libFuzzer entry point on the case loader.  The input
 * bytes are a case file: loaded (YAML, program, data, runs), then checked
 * with one-shot alone under small limits (fuzz_small_limits: 2^18 work
 * units, 2^12 elements a tensor), so a case that loads also runs the
 * reference and the instrumented executor, and no input costs more than
 * a few milliseconds (big matmuls in the corpus seeds made the campaign
 * run 63 inputs a second).  The
 * case's own runs are not executed: their strategies may name outside
 * commands (`exec:CMD`), which fuzzed bytes must never run.  A crash, a
 * sanitizer report or a leak is the finding; every verdict is fine.
 *
 * Build: CC=clang cmake -B B -DBUFDIFF_LIBFUZZER=ON -DBUFDIFF_SANITIZE=ON
 * Run:   B/bufdiff_fuzz_loader -max_total_time=60 NEW_DIR
 *        tests/fuzz-seeds/loader
 * (ctest runs it so in the clang sanitizer build: fuzz-loader.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "fuzz_fixed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const Strategy *s;
	Case *c = NULL;
	Outcome o;
	Diag d;

	if (!s && !(s = strategy_find("one-shot")))
		abort();
	if (case_parse("fuzz.yaml", (const char *)data, size, 0, &c, &d) == 0) {
		fuzz_small_limits(&c->lim);
		check_case(&(RunConfig){.nrandom = 2,
					.max_work = (int64_t)1 << 18},
			   c, s, false, &o);
		outcome_clear(&o);
	}
	case_free(c);
	return 0;
}
