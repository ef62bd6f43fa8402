/*
 * unwind_preload.c: bufdiff_unwind.so, preloaded (LD_PRELOAD) into the
 * LLVM tools bufdiff runs as processes: the mlir strategies' mlir-opt
 * (Debian's or the user's TOOL) and mlir-runner-N (ToolCall.llvm;
 * docs/external.md "When mlir-opt crashes").
 *
 * LLVM's crash handler prints a stack trace with glibc's backtrace(),
 * whose first call dlopen()s libgcc_s's unwinder, which calls malloc.
 * When the crash was inside malloc (a runaway recursion runs out of
 * stack anywhere), malloc's lock is held: the handler waits for it
 * forever (gdb: backtrace -> __libc_unwind_link_get -> dlopen ->
 * malloc -> __lll_lock_wait_private on main_arena), and the crash
 * becomes a hang until bufdiff's time limit: "timed out" instead of
 * "killed by signal 11" in 5 of 20 runs of one crashing mlir-opt-22
 * call.  One backtrace() at start-up loads the unwinder before any
 * crash.  Nothing else: the tool computes what it computes without it.
 * Built without the sanitizers in every build.
 */
#include <execinfo.h>

__attribute__((constructor)) static void
unwind_ready(void)
{
	void *frame[1];

	backtrace(frame, 1);
}
