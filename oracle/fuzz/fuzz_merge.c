/*
 * fuzz_merge.c: the libFuzzer entry point on `fuzz --merge`'s
 * reader (fuzz_bucket.c): the input bytes are a file of shard summaries,
 * merged and printed (to /dev/null) as text, or as JSON when the input's
 * length is odd.  Errors are verdicts; a crash, sanitizer report (a
 * signed overflow in a count), leak or hang is the finding.
 *
 * Run: B/bufdiff_fuzz_merge -dict=tests/fuzz-seeds/merge.dict
 *      NEW_DIR tests/fuzz-seeds/merge   (ctest: fuzz-merge)
 */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	char *text = malloc(size + 1);

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	fuzz_merge_text("fuzz.jsonl", text, size & 1, null);
	free(text);
	return 0;
}
