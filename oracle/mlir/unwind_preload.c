/*
 * unwind_preload.c: bufdiff_unwind.so, preloaded (LD_PRELOAD) into the
 * LLVM tools bufdiff runs as processes: the mlir strategies' mlir-opt
 * (Debian's or the user's TOOL) and mlir-runner-N (ToolCall.llvm;
 * docs/external.md "When mlir-opt crashes").
 *
 * LLVM's crash handler allocates: when the crash was inside malloc (a
 * runaway recursion runs out of stack anywhere), malloc's lock is held
 * and the handler waits for it forever, and the crash becomes a hang
 * until bufdiff's time limit: "timed out" instead of "killed by signal
 * 11".  Three ways were seen in gdb, each on a hung mlir-opt:
 * backtrace()'s first call dlopen()s libgcc_s's unwinder (mlir-opt-22,
 * 5 of 20 runs of one crashing call); looking for llvm-symbolizer
 * (findProgramByName -> operator new; closed by the environment's
 * LLVM_DISABLE_SYMBOLIZATION=1, oracle/mlir/tool.c); demangling each
 * frame's name (PrintStackTrace -> itaniumDemangle -> malloc;
 * mlir-opt-19, 1 in 8 runs of tests/mlir-export.sh's one call over the
 * corpus).  So:
 * - one backtrace() at start-up loads the unwinder before any crash;
 * - a watchdog for whatever else the handler may wait on: the fatal
 *   signals' handlers the tool installs (sigaction) are entered through
 *   a trampoline that arms a timer first (WATCHDOG_S; a POSIX timer made
 *   at start-up, not alarm(): LLVM's handler runs its own sys::Watchdog
 *   on alarm() around a part of its work and cancels it with alarm(0),
 *   seen in strace on the same hang); if the handler has not ended the
 *   process by then, the signal's default action does (the same
 *   "killed by signal N", the stack dump cut where it hung).
 * Nothing else: the tool computes what it computes without it.  Built
 * without the sanitizers in every build.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* LLVM's handler prints a trace of at most 256 frames and ends the
 * process: milliseconds.  Past this (wall time) it is waiting on
 * something; a watchdog too soon on a loaded machine would only cut
 * the stack dump short: the signal is the same.  (tests/tools/
 * crash_hang.c sleeps past it.) */
enum { WATCHDOG_S = 3 };

typedef int (*SigactionFn)(int, const struct sigaction *, struct sigaction *);

static SigactionFn real_sigaction;
/* the tool's own action of each fatal signal, entered by trampoline() */
static struct sigaction theirs[NSIG];
static volatile sig_atomic_t fatal; /* the signal being handled, 0: none */
static timer_t watchdog;
static bool have_watchdog;

static bool
is_fatal(int sig)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT:
	case SIGTRAP: case SIGSYS: case SIGQUIT: case SIGXCPU: case SIGXFSZ:
		return true;
	default:
		return false;
	}
}

static void
watchdog_set(time_t seconds)
{
	struct itimerspec t;

	memset(&t, 0, sizeof t);
	t.it_value.tv_sec = seconds;
	if (have_watchdog)
		timer_settime(watchdog, 0, &t, NULL);
}

/* The handler hung: the fatal signal's default action, now (SIGALRM:
 * our timer's, or LLVM's own alarm()). */
static void
expire(int alarm_sig)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t s;
	int sig = fatal;

	(void)alarm_sig;
	real_sigaction(sig, &dfl, NULL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig); /* (not reached: the default action ends it) */
}

/* The tool's handler, under the watchdog; a handler that returns (the
 * fault is retried under the default action, or the tool goes on)
 * disarms it. */
static void
trampoline(int sig, siginfo_t *info, void *ctx)
{
	const struct sigaction *a = &theirs[sig];
	struct sigaction w = {.sa_handler = expire}, was;
	bool armed = !fatal;

	if (armed) {
		fatal = sig;
		real_sigaction(SIGALRM, &w, &was);
		watchdog_set(WATCHDOG_S);
	}
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, info, ctx);
	else if (a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN)
		a->sa_handler(sig);
	if (armed) {
		watchdog_set(0);
		real_sigaction(SIGALRM, &was, NULL);
		fatal = 0;
	}
}

int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	bool ours = sig > 0 && sig < NSIG && is_fatal(sig);
	struct sigaction mine, prev = {.sa_flags = 0};
	int rc;

	if (!real_sigaction &&
	    !(real_sigaction = (SigactionFn)dlsym(RTLD_NEXT, "sigaction")))
		return -1;
	if (ours)
		prev = theirs[sig];
	if (ours && act && act->sa_handler != SIG_DFL &&
	    act->sa_handler != SIG_IGN) {
		theirs[sig] = *act; /* before the trampoline can run */
		mine = *act;
		mine.sa_flags |= SA_SIGINFO;
		mine.sa_sigaction = trampoline;
		rc = real_sigaction(sig, &mine, old);
		if (rc)
			theirs[sig] = prev;
	} else {
		rc = real_sigaction(sig, act, old);
	}
	/* the tool sees its own action, not the trampoline */
	if (!rc && ours && old && (old->sa_flags & SA_SIGINFO) &&
	    old->sa_sigaction == trampoline)
		*old = prev;
	return rc;
}

__attribute__((constructor)) static void
unwind_ready(void)
{
	struct sigevent ev;
	void *frame[1];

	backtrace(frame, 1);
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGALRM;
	have_watchdog = !timer_create(CLOCK_MONOTONIC, &ev, &watchdog);
}
