/*
 * crash_hang.c: a tool whose crash handler never ends, as LLVM's waits
 * forever for malloc's lock when the crash was inside malloc (tests/
 * test_tool.c `crash_handler_hang_is_a_crash`).  Installs its SIGSEGV
 * handler as LLVM's RegisterHandlers does (SA_NODEFER | SA_RESETHAND |
 * SA_ONSTACK), says so, and crashes.  With argument "returns", the
 * handler returns instead and the tool goes on: exit 0.
 */
#define _GNU_SOURCE /* SA_ONSTACK */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t returns;

static void
handler(int sig)
{
	(void)sig;
	while (!returns)
		pause();
}

int
main(int argc, char **argv)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_NODEFER | SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	returns = argc > 1 && !strcmp(argv[1], "returns");
	if (sigaction(SIGSEGV, &sa, NULL))
		return 1;
	fputs("crashing\n", stdout);
	fflush(stdout);
	raise(SIGSEGV);
	sleep(WATCHDOG_WAIT); /* a handler that returned: past the watchdog */
	fputs("went on\n", stdout);
	return 0;
}
