/* stop.c: the stop flag set by signals, and the reading deadline (stop.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "ir.h"
#include "stop.h"

static volatile sig_atomic_t got;       /* the first signal, 0: none */
static volatile sig_atomic_t tool;      /* the running tool's leader */
static double deadline;                 /* 0: none */
static bool late;                       /* it passed (sticky until reset) */
static unsigned ticks;

/* Async-signal-safe only: kill, sigaction, raise. */
static void
on_signal(int sig)
{
	int e = errno;
	pid_t t = tool;

	if (t > 0)
		kill(-t, SIGKILL);
	if (got) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		raise(sig); /* delivered when the handler returns */
	} else {
		got = sig;
	}
	errno = e;
}

void
stop_on_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocking wait returns EINTR */
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		sigaction(sigs[i], NULL, &old);
		if (sigs[i] == SIGHUP && old.sa_handler == SIG_IGN)
			continue; /* nohup */
		sigaction(sigs[i], &sa, NULL);
	}
}

int
stop_signal(void)
{
	return got;
}

void
stop_clear(void)
{
	got = 0;
}

int
stop_status(void)
{
	return 128 + got;
}

const char *
stop_signal_name(int sig)
{
	static char buf[32];

	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	fmt_snprintf(buf, sizeof buf, "signal %d", sig);
	return buf;
}

void
stop_tool(pid_t leader)
{
	tool = leader;
}

double
stop_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
stop_deadline(double at)
{
	double old = deadline;

	deadline = at;
	late = false;
	ticks = 0;
	return old;
}

bool
stop_late(void)
{
	if (!late && deadline > 0 && stop_clock() >= deadline)
		late = true;
	return late;
}

bool
stop_reading(void)
{
	return late || (deadline > 0 && (++ticks & 255) == 0 && stop_late());
}
