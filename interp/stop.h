/*
 * stop.h: when work must end before it is done (issue 24).
 *
 * A signal: SIGINT (Ctrl-C), SIGTERM (a batch scheduler's kill) or SIGHUP
 * asks the process to stop.  The handler stop_on_signals installs only
 * records the signal (and kills the process group of the outside tool
 * running then: kill() is async-signal-safe); SA_RESTART is off, so a
 * blocking poll or wait returns EINTR at once.  The loops that may run
 * long look at stop_signal() and end early, so that the command still
 * prints its summary: check between cases, fuzz between programs, the
 * reducer between candidates, a tool call every tick of its poll loop,
 * both interpreters at each look at their clock (budget.c).  A second
 * signal ends the process at once, as by default.
 *
 * A deadline: the time limit of an outside tool's call also bounds reading
 * its answer.  stop_reading() turns true once the deadline the caller set
 * has passed: readers that may loop long on a hostile answer (yaml.c's
 * node accessors) look at it and give up.  (Not at a signal: a repro and
 * its files are still written after one.)
 */
#ifndef BUFDIFF_STOP_H
#define BUFDIFF_STOP_H

#include <stdbool.h>
#include <sys/types.h>

/* Handlers for SIGINT, SIGTERM and SIGHUP (SIGHUP stays ignored when it
 * was, under nohup).  Forked workers inherit them. */
void stop_on_signals(void);
/* 0, or the first of those signals received. */
int stop_signal(void);
/* Forget it (tests, and the reducer's own unit tests). */
void stop_clear(void);
/* The exit status of a command a signal stopped: 128 + the signal
 * (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
int stop_status(void);
/* "SIGINT", "SIGTERM", "SIGHUP", or "signal N" (a static buffer). */
const char *stop_signal_name(int sig);

/* The leader of the outside tool's session running now (0: none): a
 * signal kills its process group at once.  tool.c sets it after the
 * spawn and clears it before the leader is reaped (a reaped pid may be
 * reused). */
void stop_tool(pid_t leader);

/* Monotonic seconds (CLOCK_MONOTONIC): the deadline's clock and the
 * run budget's (budget.c). */
double stop_clock(void);
/* Set the deadline (monotonic seconds, tool_now()'s clock; 0: none);
 * returns the previous one, to restore. */
double stop_deadline(double at);
/* The deadline set has passed (reads the clock). */
bool stop_late(void);
/* The same, reading the clock every 256 calls only: cheap enough for a
 * parser's inner loop. */
bool stop_reading(void);

#endif
