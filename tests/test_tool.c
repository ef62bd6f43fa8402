/* test_tool.c: tool_run on real shells: captured bytes, statuses, time
 * limits that kill grandchildren, tools that never read their input, big
 * outputs; after each run no zombie and no new fd. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "stop.h"
#include "testutil.h"

static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Call, then check nothing is left behind: no child, no fd, no block. */
static void
call(const ToolCall *c, ToolResult *r)
{
	int fds = count_fds();
	long blocks = mem_live_blocks();

	ck_assert_int_eq(tool_call(c, r), 0);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	ck_assert_int_eq(count_fds(), fds);
	ck_assert_int_eq(mem_live_blocks(), blocks + 2);
	ck_assert_ptr_nonnull(r->out);
	ck_assert_ptr_nonnull(r->err);
	ck_assert_int_eq(r->out[r->nout], 0);
	ck_assert_int_eq(r->err[r->nerr], 0);
}

/* The same with the default output cap. */
static void
run(const char *cmd, const char *in, size_t nin, double timeout,
    ToolResult *r)
{
	call(&(ToolCall){cmd, in, nin, timeout, 0, false}, r);
}

static const char *
status(const ToolResult *r)
{
	static char buf[128];

	return tool_status_str(r, buf, sizeof buf);
}

START_TEST(cat_echoes_stdin)
{
	ToolResult r;

	run("cat", "a\nb", 3, 5, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_int_eq(r.code, 0);
	ck_assert_uint_eq(r.nout, 3);
	ck_assert_str_eq(r.out, "a\nb");
	ck_assert_uint_eq(r.nerr, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(status(&r), "exit 0");
	tool_result_free(&r);
}
END_TEST

START_TEST(stderr_apart)
{
	ToolResult r;
	char head[64];

	run("echo x >&2; echo y; printf 'l2\\nl3\\n' >&2", NULL, 0, 5, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "y\n");
	ck_assert_str_eq(r.err, "x\nl2\nl3\n");
	ck_assert_uint_eq(r.nerr, 8);
	ck_assert_str_eq(tool_stderr_head(&r, 1, head, sizeof head), "x");
	ck_assert_str_eq(tool_stderr_head(&r, 2, head, sizeof head), "x\nl2");
	ck_assert_str_eq(tool_stderr_head(&r, 9, head, sizeof head),
			 "x\nl2\nl3");
	ck_assert_str_eq(tool_stderr_head(&r, 0, head, sizeof head), "");
	ck_assert_str_eq(tool_stderr_head(&r, 9, head, 4), "x\nl");
	tool_result_free(&r);
}
END_TEST

START_TEST(exit_codes)
{
	ToolResult r;

	run("exit 1", NULL, 0, 5, &r);
	ck_assert_int_eq(r.status, TOOL_EXIT);
	ck_assert_int_eq(r.code, 1);
	ck_assert_str_eq(status(&r), "exit 1");
	tool_result_free(&r);
	run("echo out; echo err >&2; exit 42", NULL, 0, 5, &r);
	ck_assert_int_eq(r.status, TOOL_EXIT);
	ck_assert_int_eq(r.code, 42);
	ck_assert_str_eq(r.out, "out\n");
	ck_assert_str_eq(r.err, "err\n");
	ck_assert_str_eq(status(&r), "exit 42");
	tool_result_free(&r);
}
END_TEST

START_TEST(crash)
{
	ToolResult r;

	run("echo before; kill -SEGV $$", NULL, 0, 5, &r);
	ck_assert_int_eq(r.status, TOOL_SIGNAL);
	ck_assert_int_eq(r.code, SIGSEGV);
	ck_assert_str_eq(r.out, "before\n");
	ck_assert_str_eq(status(&r), "killed by signal 11 (SIGSEGV)");
	tool_result_free(&r);
	run("kill -ABRT $$", NULL, 0, 5, &r);
	ck_assert_str_eq(status(&r), "killed by signal 6 (SIGABRT)");
	tool_result_free(&r);
}
END_TEST

/* An LLVM tool's call (ToolCall.llvm) runs with bufdiff_unwind.so
 * preloaded, ahead of a preload of the caller's: in the tool's own
 * process its constructor has loaded libgcc_s's unwinder (an LLVM crash
 * handler's backtrace() then needs no dlopen, no malloc), and with
 * LLVM_DISABLE_SYMBOLIZATION=1 unless the caller set it (the handler's
 * search for llvm-symbolizer mallocs).  ASan's check of the library
 * order is off unless the caller set it.  Another tool's environment is
 * untouched. */
START_TEST(llvm_tool_preloads_unwinder)
{
	const char *cmd = "grep -c -e bufdiff_unwind -e libgcc_s /proc/self/maps; "
			  "echo \"$LD_PRELOAD\"";
	const char *u = tool_unwind_preload(), *asan = getenv("ASAN_OPTIONS");
	char want[4096], *keep = asan ? strdup(asan) : NULL;
	ToolResult r;

	ck_assert_ptr_nonnull(u); /* built beside bufdiff */
	call(&(ToolCall){cmd, NULL, 0, 10, 0, true}, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_int_ge(atoi(r.out), 2); /* both mapped */
	snprintf(want, sizeof want, "\n%s\n", u);
	ck_assert_ptr_nonnull(strstr(r.out, want));
	tool_result_free(&r);
	setenv("LD_PRELOAD", "libc.so.6", 1); /* the caller's stays, after */
	call(&(ToolCall){cmd, NULL, 0, 10, 0, true}, &r);
	snprintf(want, sizeof want, "\n%s libc.so.6\n", u);
	ck_assert_ptr_nonnull(strstr(r.out, want));
	tool_result_free(&r);
	unsetenv("LD_PRELOAD");
	/* ASan's options: the caller's, then the order check off */
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
	call(&(ToolCall){"echo \"$ASAN_OPTIONS\"", NULL, 0, 10, 0, true}, &r);
	ck_assert_str_eq(r.out, "detect_leaks=0:verify_asan_link_order=0\n");
	tool_result_free(&r);
	setenv("ASAN_OPTIONS", "verify_asan_link_order=1", 1);
	call(&(ToolCall){"echo \"$ASAN_OPTIONS\"", NULL, 0, 10, 0, true}, &r);
	ck_assert_str_eq(r.out, "verify_asan_link_order=1\n");
	tool_result_free(&r);
	unsetenv("ASAN_OPTIONS");
	call(&(ToolCall){"echo \"$ASAN_OPTIONS\"", NULL, 0, 10, 0, true}, &r);
	ck_assert_str_eq(r.out, "verify_asan_link_order=0\n");
	tool_result_free(&r);
	call(&(ToolCall){"echo \"$ASAN_OPTIONS\"", NULL, 0, 10, 0, false}, &r);
	ck_assert_str_eq(r.out, "\n");
	tool_result_free(&r);
	/* no symbolization in LLVM's crash handler (it mallocs: a crash in
	 * malloc hung there), unless the caller says */
	unsetenv("LLVM_DISABLE_SYMBOLIZATION");
	call(&(ToolCall){"echo \"$LLVM_DISABLE_SYMBOLIZATION\"", NULL, 0, 10, 0,
			 true}, &r);
	ck_assert_str_eq(r.out, "1\n");
	tool_result_free(&r);
	call(&(ToolCall){"echo \"$LLVM_DISABLE_SYMBOLIZATION\"", NULL, 0, 10, 0,
			 false}, &r);
	ck_assert_str_eq(r.out, "\n");
	tool_result_free(&r);
	setenv("LLVM_DISABLE_SYMBOLIZATION", "", 1);
	call(&(ToolCall){"echo \"${LLVM_DISABLE_SYMBOLIZATION-unset}\"", NULL, 0,
			 10, 0, true}, &r);
	ck_assert_str_eq(r.out, "\n");
	tool_result_free(&r);
	unsetenv("LLVM_DISABLE_SYMBOLIZATION");
	/* a tool built with ASan starts behind the preload (gcc's runtime,
	 * libasan.so, refused to: "ASan runtime does not come first") */
	if (*ASAN_HELLO) {
		call(&(ToolCall){ASAN_HELLO, NULL, 0, 10, 0, true}, &r);
		ck_assert_int_eq(r.status, TOOL_OK);
		ck_assert_int_eq(r.code, 0);
		ck_assert_str_eq(r.out, "asan ok\n");
		tool_result_free(&r);
	} else {
		fprintf(stderr, "test_tool: no ASan runtime: a tool built "
			"with ASan not tried\n");
	}
	if (keep) {
		setenv("ASAN_OPTIONS", keep, 1);
		free(keep);
	}
	call(&(ToolCall){cmd, NULL, 0, 10, 0, false}, &r);
	ck_assert_str_eq(r.out, "0\n\n"); /* nothing preloaded */
	tool_result_free(&r);
	setenv("BUFDIFF_UNWIND_PRELOAD", "", 1); /* none wanted */
	ck_assert_ptr_null(tool_unwind_preload());
	call(&(ToolCall){cmd, NULL, 0, 10, 0, true}, &r);
	ck_assert_str_eq(r.out, "0\n\n");
	tool_result_free(&r);
	unsetenv("BUFDIFF_UNWIND_PRELOAD");
}
END_TEST

/* Any mlir-opt can batch native runs. */
START_TEST(mlir_opt_named)
{
	ck_assert(tool_is_mlir_opt(NULL));
	ck_assert(tool_is_mlir_opt("mlir-opt-19"));
	ck_assert(tool_is_mlir_opt("/usr/bin/mlir-opt-22 --foo"));
	ck_assert(tool_is_mlir_opt("mlir-opt"));
	ck_assert(!tool_is_mlir_opt("my-opt"));
	ck_assert(!tool_is_mlir_opt("sh tests/tools/mlir-fake.sh"));
	ck_assert(!tool_is_mlir_opt("mlir-op"));
}
END_TEST

/* Gone, or a zombie not yet reaped by init. */
static bool
dead(long pid)
{
	char path[64], line[256];
	FILE *f;
	bool z = true;

	fmt_snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return true;
	if (fgets(line, sizeof line, f)) {
		char *p = strrchr(line, ')');
		z = p && p[1] == ' ' && p[2] == 'Z';
	}
	fclose(f);
	return z;
}

START_TEST(timeout_kills_the_group)
{
	ToolResult r;
	long bg = 0;

	run("sleep 100 & echo $!; sleep 100", NULL, 0, 0.3, &r);
	ck_assert_int_eq(r.status, TOOL_TIMEOUT);
	ck_assert_double_ge(r.seconds, 0.3);
	ck_assert_double_lt(r.seconds, 2.0);
	ck_assert_str_eq(status(&r), "timed out after 0.3 s");
	ck_assert_int_eq(sscanf(r.out, "%ld", &bg), 1);
	ck_assert_int_gt(bg, 1);
	for (int i = 0; i < 100 && !dead(bg); i++)
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	ck_assert(dead(bg));
	tool_result_free(&r);
}
END_TEST

/* The tool ends but its background child keeps the pipes open: the call
 * returns at once and the child does not survive it. */
START_TEST(straggler_killed_when_tool_ends)
{
	ToolResult r;
	long bg = 0;

	run("sleep 100 & echo $!", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_double_lt(r.seconds, 2.0);
	ck_assert_int_eq(sscanf(r.out, "%ld", &bg), 1);
	for (int i = 0; i < 100 && !dead(bg); i++)
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	ck_assert(dead(bg));
	tool_result_free(&r);
}
END_TEST

static char *
big(size_t n)
{
	char *p = malloc(n);

	for (size_t i = 0; i < n; i++)
		p[i] = 'a' + i % 26;
	return p;
}

START_TEST(never_reads_stdin)
{
	enum { N = 1 << 20 };
	char *in = big(N);
	ToolResult r;

	run("echo done", in, N, 5, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "done\n");
	tool_result_free(&r);
	run("head -c 5; exit 3", in, N, 5, &r);
	ck_assert_int_eq(r.status, TOOL_EXIT);
	ck_assert_int_eq(r.code, 3);
	ck_assert_str_eq(r.out, "abcde");
	tool_result_free(&r);
	run("exec 0<&-; sleep 0.1; echo closed", in, N, 5, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "closed\n");
	tool_result_free(&r);
	free(in);
}
END_TEST

START_TEST(big_output)
{
	enum { N = 5 << 20 };
	char *in = big(N);
	ToolResult r;

	run("head -c 5242880 /dev/zero", NULL, 0, 20, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_uint_eq(r.nout, N);
	ck_assert_int_eq(r.out[N - 1], 0);
	tool_result_free(&r);
	/* writes all it reads before reading more, on both streams */
	run("tee /dev/stderr", in, N, 20, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_uint_eq(r.nout, N);
	ck_assert_uint_eq(r.nerr, N);
	ck_assert(!memcmp(r.out, in, N));
	ck_assert(!memcmp(r.err, in, N));
	tool_result_free(&r);
	free(in);
}
END_TEST

START_TEST(output_cap)
{
	ToolResult r;

	call(&(ToolCall){"yes", NULL, 0, 10, .out_cap = 1000}, &r);
	ck_assert_int_eq(r.status, TOOL_OOM);
	ck_assert_uint_gt(r.nout, 1000);
	ck_assert_double_lt(r.seconds, 5.0);
	ck_assert_str_eq(status(&r), "killed: stdout over 1000 bytes");
	tool_result_free(&r);
	call(&(ToolCall){"yes >&2", NULL, 0, 10, .out_cap = 1000}, &r);
	ck_assert_int_eq(r.status, TOOL_OOM);
	ck_assert_str_eq(status(&r), "killed: stderr over 1000 bytes");
	tool_result_free(&r);
	/* the default caps */
	r = (ToolResult){.status = TOOL_OOM, .out_cap = TOOL_OUT_CAP,
			 .err_cap = TOOL_ERR_CAP};
	ck_assert_str_eq(status(&r), "killed: stdout over 67108864 bytes");
	r.over_err = true;
	ck_assert_str_eq(status(&r), "killed: stderr over 16777216 bytes");
}
END_TEST

/* The numbers at the start of text's lines, up to the first line that
 * is not one, at most max. */
static int
pids(const char *text, long *v, int max)
{
	int n = 0;
	char *end;

	while (*text && n < max) {
		long x = strtol(text, &end, 10);
		if (end == text)
			break;
		v[n++] = x;
		text = end + (*end == '\n');
	}
	return n;
}

/* A grandchild that leaves the session (setsid) and keeps stdout open:
 * the call is the answer, TOOL_GRACE after the tool exits, and the
 * grandchild is dead. */
START_TEST(setsid_grandchild_killed)
{
	ToolResult r;
	long v[4];

	run("(setsid sh -c 'echo $$; exec sleep 100' &); sleep 0.1; echo done",
	    NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_double_lt(r.seconds, 1.5);
	ck_assert_int_eq(pids(r.out, v, 4), 1);
	ck_assert(strstr(r.out, "done\n"));
	ck_assert(dead(v[0]));
	tool_result_free(&r);
	/* many, each in a session of its own, stdout closed */
	run("for i in 1 2 3 4 5; do (setsid sh -c 'echo $$; exec sleep 100' "
	    "</dev/null 2>&1 | cat &); done; sleep 0.2", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_int_eq(pids(r.out, v, 4), 4);
	for (int i = 0; i < 4; i++)
		ck_assert(dead(v[i]));
	tool_result_free(&r);
}
END_TEST

/* The tool exited: what a descendant writes within the grace is the
 * answer; after it, the call has ended without it. */
START_TEST(grace_after_exit)
{
	ToolResult r;

	run("(sleep 0.05; echo late) & echo early", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "early\nlate\n");
	tool_result_free(&r);
	run("(sleep 2; echo late) & echo early; exit 4", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_EXIT);
	ck_assert_int_eq(r.code, 4);
	ck_assert_str_eq(r.out, "early\n");
	ck_assert_double_lt(r.seconds, 1.5);
	tool_result_free(&r);
}
END_TEST

/* A signal (here the tool sends it to us) ends the call at once; a call
 * made after it does not start the tool. */
START_TEST(interrupted)
{
	ToolResult r;

	stop_on_signals();
	run("kill -TERM $PPID; trap '' TERM; sleep 100", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_INTERRUPTED);
	ck_assert_int_eq(r.code, SIGTERM);
	ck_assert_double_lt(r.seconds, 2.0);
	ck_assert_str_eq(status(&r), "interrupted by SIGTERM");
	tool_result_free(&r);
	run("echo never", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_INTERRUPTED);
	ck_assert_str_eq(r.out, "");
	tool_result_free(&r);
	stop_clear();
	run("echo again", NULL, 0, 10, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "again\n");
	tool_result_free(&r);
}
END_TEST

/* The reading deadline (stop.h): a walk of a YAML document past it gives
 * up; restored, it reads. */
START_TEST(reading_deadline)
{
	ck_assert(!stop_late());
	double old = stop_deadline(tool_now() - 1);
	ck_assert(stop_late());
	ck_assert(stop_reading());
	stop_deadline(old);
	ck_assert(!stop_late());
	ck_assert(!stop_reading());
}
END_TEST

START_TEST(missing_command)
{
	ToolResult r;
	char head[256];

	run("bufdiff-no-such-tool --x", NULL, 0, 5, &r);
	ck_assert_int_eq(r.status, TOOL_EXIT);
	ck_assert_int_eq(r.code, 127);
	ck_assert_str_eq(status(&r), "exit 127");
	ck_assert_str_eq(tool_stderr_head(&r, 1, head, sizeof head),
			 "sh: 1: bufdiff-no-such-tool: not found");
	tool_result_free(&r);
}
END_TEST

/* No fd left for the pipes: a clean TOOL_SPAWN, nothing left behind. */
START_TEST(spawn_fails)
{
	struct rlimit old, lim;
	ToolResult r;
	int fds = count_fds();
	char buf[128];

	getrlimit(RLIMIT_NOFILE, &old);
	lim = old;
	lim.rlim_cur = 4;       /* fds 0-2 and at most one more */
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	ck_assert_int_eq(tool_run("echo x", NULL, 0, 5, &r), 0);
	setrlimit(RLIMIT_NOFILE, &old);
	ck_assert_int_eq(r.status, TOOL_SPAWN);
	ck_assert_int_eq(r.code, EMFILE);
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "could not start: Too many open files");
	ck_assert_str_eq(r.out, "");
	ck_assert_int_eq(count_fds(), fds);
	tool_result_free(&r);
}
END_TEST

START_TEST(status_strings)
{
	ToolResult r = {.status = TOOL_SPAWN, .code = ENOENT};
	char buf[64];

	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "could not start: No such file or directory");
	r = (ToolResult){.status = TOOL_SIGNAL, .code = 9};
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "killed by signal 9 (SIGKILL)");
	r = (ToolResult){.status = TOOL_SIGNAL, .code = 40};
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "killed by signal 40");
	r = (ToolResult){.status = TOOL_TIMEOUT, .timeout = 2};
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "timed out after 2 s");
	r = (ToolResult){.status = TOOL_EXIT, .code = 1};
	ck_assert_str_eq(tool_status_str(&r, buf, 5), "exit");
}
END_TEST

/* The caller's SIGPIPE disposition and mask are what they were. */
START_TEST(sigpipe_untouched)
{
	struct sigaction sa;
	sigset_t mask, pend;
	ToolResult r;
	char *in = big(1 << 20);

	run("exit 0", in, 1 << 20, 5, &r);
	tool_result_free(&r);
	free(in);
	sigaction(SIGPIPE, NULL, &sa);
	ck_assert(sa.sa_handler == SIG_DFL);
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	ck_assert(!sigismember(&mask, SIGPIPE));
	sigpending(&pend);
	ck_assert(!sigismember(&pend, SIGPIPE));
}
END_TEST

START_TEST(out_of_memory)
{
	ToolResult r;
	long blocks = mem_live_blocks();

	mem_fail_after(0);
	ck_assert_int_eq(tool_run("echo x", NULL, 0, 5, &r), -1);
	mem_fail_after(1);
	ck_assert_int_eq(tool_run("echo x", NULL, 0, 5, &r), -1);
	mem_fail_after(-1);
	ck_assert_int_eq(mem_live_blocks(), blocks);
	/* growing the buffer fails mid-run: the tool is still reaped */
	mem_fail_after(2);
	ck_assert_int_eq(tool_run("head -c 200000 /dev/zero", NULL, 0, 5, &r),
			 -1);
	mem_fail_after(-1);
	ck_assert_int_eq(mem_live_blocks(), blocks);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
}
END_TEST

/* A crash handler that never ends (LLVM's, waiting for malloc's lock
 * when the crash was inside malloc): with the preload, the crash it is
 * (its signal, in the watchdog's 3 s); without, a hang to the time
 * limit.  A handler that returns is left alone (the watchdog disarmed:
 * the tool sleeps past it and goes on). */
START_TEST(crash_handler_hang_is_a_crash)
{
	ToolResult r;

	call(&(ToolCall){CRASH_HANG, NULL, 0, 60, 0, true}, &r);
	ck_assert_int_eq(r.status, TOOL_SIGNAL);
	ck_assert_int_eq(r.code, SIGSEGV);
	ck_assert_str_eq(r.out, "crashing\n");
	tool_result_free(&r);
	call(&(ToolCall){CRASH_HANG, NULL, 0, 1, 0, false}, &r);
	ck_assert_int_eq(r.status, TOOL_TIMEOUT);
	tool_result_free(&r);
	call(&(ToolCall){CRASH_HANG " returns", NULL, 0, 60, 0, true}, &r);
	ck_assert_int_eq(r.status, TOOL_OK);
	ck_assert_str_eq(r.out, "crashing\nwent on\n");
	tool_result_free(&r);
}
END_TEST

static Suite *
tool_suite(void)
{
	Suite *s = suite_create("tool");
	TCase *tc = tcase_create("run");

	tcase_add_test(tc, cat_echoes_stdin);
	tcase_add_test(tc, stderr_apart);
	tcase_add_test(tc, exit_codes);
	tcase_add_test(tc, crash);
	tcase_add_test(tc, llvm_tool_preloads_unwinder);
	tcase_add_test(tc, crash_handler_hang_is_a_crash);
	tcase_add_test(tc, mlir_opt_named);
	tcase_add_test(tc, timeout_kills_the_group);
	tcase_add_test(tc, straggler_killed_when_tool_ends);
	tcase_add_test(tc, never_reads_stdin);
	tcase_add_test(tc, big_output);
	tcase_add_test(tc, output_cap);
	tcase_add_test(tc, setsid_grandchild_killed);
	tcase_add_test(tc, grace_after_exit);
	tcase_add_test(tc, interrupted);
	tcase_add_test(tc, reading_deadline);
	tcase_add_test(tc, missing_command);
	tcase_add_test(tc, spawn_fails);
	tcase_add_test(tc, status_strings);
	tcase_add_test(tc, sigpipe_untouched);
	tcase_add_test(tc, out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){tool_suite(), NULL});
}
