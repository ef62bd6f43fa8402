/*
 * asan_hello.c: a tool built with -fsanitize=address (tests/test_tool.c
 * `llvm_tool_preloads_unwinder`): with gcc's runtime (libasan.so) it
 * refuses to start when a preload comes before that runtime, unless
 * ASAN_OPTIONS has verify_asan_link_order=0, as a self-built mlir-opt
 * with ASan would.
 */
#include <stdio.h>
#include <stdlib.h>

int
main(void)
{
	char *p = malloc(8);

	if (!p)
		return 1;
	snprintf(p, 8, "asan ok");
	puts(p);
	free(p);
	return 0;
}
