/*
 * checkrun.c: the cases of `check`, in this process or in N worker
 * processes (`check -j N`), results handed back in path order.
 *
 * A worker is a fork that checks one case and writes its JEntry to a
 * temporary file (status, seconds, then each string as length and bytes);
 * the parent reads it back when the worker ends.  Results are passed to
 * `done` strictly in path order, so the output is the same whatever the
 * order the workers finish in.  A worker that dies (a signal) is an error
 * entry that says so, not a lost case.
 *
 * A signal that asks us to stop (stop.h) ends the loop: no case is
 * started after it, the case it cut short is no result (its entry is
 * cleared), and the workers still running are asked to stop (SIGTERM,
 * then SIGKILL after STOP_WAIT seconds) and their cases dropped; the
 * results in hand are passed to `done`.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "mlir.h"
#include "stop.h"

void
jentry_clear(JEntry *e)
{
	mem_free(e->name);
	mem_free(e->file);
	mem_free(e->msg);
	mem_free(e->reason);
	mem_free(e->report);
	mem_free(e->json);
	mem_free(e->diag);
	mem_free(e->cause);
	memset(e, 0, sizeof *e);
}

/* ---- a JEntry through a file */

static void
put_str(FILE *f, const char *s)
{
	long n = s ? (long)strlen(s) : -1;

	fprintf(f, "%ld\n", n);
	if (s)
		fwrite(s, 1, (size_t)n, f);
}

static bool
get_str(FILE *f, char **out)
{
	long n;

	*out = NULL;
	if (fscanf(f, "%ld", &n) != 1 || fgetc(f) != '\n' || n < -1)
		return false;
	if (n < 0)
		return true;
	if (!(*out = mem_alloc((size_t)n + 1)))
		return false;
	if (fread(*out, 1, (size_t)n, f) != (size_t)n)
		return false;
	(*out)[n] = 0;
	return true;
}

static void
entry_write(FILE *f, const JEntry *e)
{
	fprintf(f, "%d %.9g\n", (int)e->status, e->seconds);
	put_str(f, e->name);
	put_str(f, e->file);
	put_str(f, e->msg);
	put_str(f, e->reason);
	put_str(f, e->report);
	put_str(f, e->json);
	put_str(f, e->diag);
	put_str(f, e->cause);
}

static bool
entry_read(FILE *f, JEntry *e)
{
	int st;

	if (fscanf(f, "%d %lf", &st, &e->seconds) != 2 || fgetc(f) != '\n' ||
	    st < STATUS_OK || st > STATUS_BAD)
		return false;
	e->status = (Status)st;
	return get_str(f, &e->name) && get_str(f, &e->file) &&
	       get_str(f, &e->msg) && get_str(f, &e->reason) &&
	       get_str(f, &e->report) && get_str(f, &e->json) &&
	       get_str(f, &e->diag) && get_str(f, &e->cause);
}

/* A worker that left no readable entry. */
static void
entry_lost(JEntry *e, const char *path, int wstatus)
{
	char why[128];

	jentry_clear(e);
	if (WIFSIGNALED(wstatus))
		fmt_snprintf(why, sizeof why, "the worker checking it was killed by "
			 "signal %d", WTERMSIG(wstatus));
	else
		fmt_snprintf(why, sizeof why, "the worker checking it exited with "
			 "status %d and no result", WEXITSTATUS(wstatus));
	e->file = mem_strdup(path);
	e->msg = mem_strdup(why);
	e->status = STATUS_BAD;
}

/* ---- the pool */

typedef struct Slot {
	pid_t pid;
	int idx;
	FILE *tmp;
} Slot;

static int
spawn(Slot *s, int idx, const char *path, CheckFn fn, void *ctx)
{
	fflush(stdout);
	fflush(stderr);
	if (!(s->tmp = tmpfile()))
		return -1;
	s->idx = idx;
	if ((s->pid = fork()) < 0) {
		fclose(s->tmp);
		return -1;
	}
	if (!s->pid) { /* the worker */
		JEntry e = {0};
		double t0 = tool_now();
		fn(ctx, path, idx, &e);
		e.seconds = tool_now() - t0;
		entry_write(s->tmp, &e);
		_exit(fflush(s->tmp) ? 3 : 0);
	}
	return 0;
}

/* The worker of slot s ended with wait status ws: its entry into e. */
static void
finish(Slot *s, const char *path, int ws, JEntry *e)
{
	rewind(s->tmp);
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) || !entry_read(s->tmp, e))
		entry_lost(e, path, ws);
	fclose(s->tmp);
	s->pid = 0;
}

static void
reap(Slot *s, const char *path, JEntry *e)
{
	int ws = 0;

	while (waitpid(s->pid, &ws, 0) < 0 && errno == EINTR)
		;
	finish(s, path, ws, e);
}

/* Seconds a worker gets to end its tool's session and exit after SIGTERM. */
#define STOP_WAIT 1.0

/* A signal asked us to stop: the workers still running too; their cases
 * are no results. */
static void
stop_workers(Slot *slots, int jobs, JEntry *out)
{
	double until = tool_now() + STOP_WAIT;
	int left = 0;

	for (int k = 0; k < jobs; k++)
		if (slots[k].pid)
			kill(slots[k].pid, SIGTERM), left++;
	while (left && tool_now() < until) {
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		left = 0;
		for (int k = 0; k < jobs; k++)
			if (slots[k].pid && waitpid(slots[k].pid, NULL, WNOHANG) ==
						    slots[k].pid) {
				fclose(slots[k].tmp);
				slots[k].pid = 0;
			} else if (slots[k].pid) {
				left++;
			}
	}
	for (int k = 0; k < jobs; k++)
		if (slots[k].pid) {
			kill(slots[k].pid, SIGKILL);
			while (waitpid(slots[k].pid, NULL, 0) < 0 && errno == EINTR)
				;
			fclose(slots[k].tmp);
			slots[k].pid = 0;
			jentry_clear(&out[slots[k].idx]);
		}
}

int
checkrun(char *const *paths, int n, int jobs, CheckFn fn, CheckDone done,
	 void *ctx, JEntry *out)
{
	Slot *slots;
	int next = 0, emitted = 0, running = 0, rc = 0;
	bool *ready;

	if (jobs <= 1) {
		for (int i = 0; i < n && !stop_signal(); i++) {
			double t0 = tool_now();
			fn(ctx, paths[i], i, &out[i]);
			out[i].seconds = tool_now() - t0;
			if (stop_signal()) { /* cut short: no result */
				jentry_clear(&out[i]);
				break;
			}
			done(ctx, out, i);
		}
		return 0;
	}
	slots = mem_calloc((size_t)jobs, sizeof *slots);
	ready = mem_calloc((size_t)n + 1, sizeof *ready);
	if (!slots || !ready) {
		mem_free(slots);
		mem_free(ready);
		return -1;
	}
	while (emitted < n && !stop_signal()) {
		for (int k = 0; k < jobs && next < n && !rc; k++)
			if (!slots[k].pid) {
				if (spawn(&slots[k], next, paths[next], fn, ctx))
					rc = -1;
				else
					next++, running++;
			}
		if (rc && !running)
			break;
		/* wait for whichever worker ends first (a tick at a time: a
		 * blocking wait would miss a signal that came just before) */
		int ws;
		pid_t pid = waitpid(-1, &ws, WNOHANG);
		if (pid == 0) {
			nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
			continue;
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (int k = 0; k < jobs; k++)
			if (slots[k].pid == pid) {
				int i = slots[k].idx;
				finish(&slots[k], paths[i], ws, &out[i]);
				ready[i] = true;
				running--;
			}
		while (emitted < n && ready[emitted])
			done(ctx, out, emitted++);
	}
	if (stop_signal()) {
		stop_workers(slots, jobs, out);
		for (int i = emitted; i < n; i++)
			if (ready[i])
				done(ctx, out, i);
	}
	for (int k = 0; k < jobs; k++) /* after a failed fork */
		if (slots[k].pid)
			reap(&slots[k], paths[slots[k].idx], &out[slots[k].idx]);
	mem_free(slots);
	mem_free(ready);
	return rc;
}
