/*
 * fuzz_plandoc.c: the libFuzzer entry point on decisions documents (what
 * `--plan FILE` and an exec: tool's answer go through, plandoc.c).  The
 * input bytes are a document: its `cases:` names are listed, then it is
 * read against the fixed case (fuzz_fixed.h) as a plan over copy-all and,
 * when it loads, that run is executed (small limits) and compared with
 * the reference.  A crash, sanitizer report, leak or hang is the finding.
 *
 * Run: B/bufdiff_fuzz_plandoc -dict=tests/fuzz-seeds/plandoc.dict
 *      NEW_DIR tests/fuzz-seeds/plandoc   (ctest: fuzz-plandoc)
 */
#include "fuzz.h"
#include "fuzz_fixed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const Strategy *copyall;
	char *text = malloc(size + 1);
	Case *c = fuzz_fixed_load();
	Arena *a = arena_new();
	const char **names;
	Loc *locs;
	int n;
	bool found;
	Diag d;

	if (!copyall && !(copyall = strategy_find("copy-all")))
		abort();
	if (!text || !a)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	plandoc_cases(text, size, a, &names, &locs, &n, &d);
	fuzz_small_limits(&c->lim);
	if (plandoc_add_run("fuzz.plan", text, size, c, copyall, true, &found,
			    &d) == 0 && found) {
		Outcome o;
		check_case(&(RunConfig){.nrandom = 2,
					.max_work = (int64_t)1 << 18},
			   c, NULL, true, &o);
		outcome_clear(&o);
	}
	arena_free(a);
	case_free(c);
	free(text);
	return 0;
}
