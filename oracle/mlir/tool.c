/* tool.c: run an outside tool (/bin/sh -c CMD) with its stdin fed and its
 * stdout/stderr captured, under a time limit and size caps, as the leader
 * of a session of its own.
 *
 * One poll() loop over non-blocking pipes feeds stdin while it drains
 * stdout and stderr, so a tool that writes a lot before reading its input,
 * or never reads it, cannot deadlock us.  The deadline is on the monotonic
 * clock.  The call ends (mlir.h says when: the tool exited and its stdout
 * is at EOF, or it exited TOOL_GRACE ago and only descendants hold stdout;
 * a timeout; a stream over its cap; a signal) and then every process of
 * its session and every descendant is killed (session.c: a background
 * grandchild, even one that called setsid, must not outlive the call), the
 * pipes are read to their end, and the tool is reaped: no zombie, no fd
 * left behind.
 */
#define _GNU_SOURCE /* POSIX_SPAWN_SETSID (glibc >= 2.26) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mlir.h"
#include "stop.h"

extern char **environ;

#ifndef BUFDIFF_UNWIND
#define BUFDIFF_UNWIND ""
#endif
#define UNWIND_INSTALLED "lib/bufdiff/bufdiff_unwind.so"

enum { TOOL_CHUNK = 64 * 1024, TOOL_PIPE = 1 << 20 };

double
tool_now(void)
{
	return stop_clock(); /* the deadline's clock (stop.h) */
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A pipe whose ends do not leak into other children (the child's ends
 * are dup2'ed onto 0-2, which clears the flag there). */
static int
pipe_cloexec(int fd[2])
{
	if (pipe(fd) < 0)
		return -1;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void
set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

const char *
tool_unwind_preload(void)
{
	static char path[PATH_MAX];
	static const char *found;
	static bool looked;
	const char *e = getenv("BUFDIFF_UNWIND_PRELOAD");

	if (e)
		return *e && !access(e, R_OK) ? e : NULL;
	if (!looked) {
		looked = true;
		found = lib_path(BUFDIFF_UNWIND, UNWIND_INSTALLED, R_OK, path,
				 sizeof path);
	}
	return found;
}

/* The first word of command t: *w its start, *base its last part (after
 * the last '/'), the end returned. */
static const char *
first_word(const char *t, const char **w, const char **base)
{
	const char *sp, *sl;

	*w = t + strspn(t, " \t");
	sp = *w + strcspn(*w, " \t");
	for (sl = sp; sl > *w && sl[-1] != '/'; sl--)
		;
	*base = sl;
	return sp;
}

bool
tool_is_mlir_opt(const char *t)
{
	const char *w, *b, *end;

	if (!t)
		return true;
	end = first_word(t, &w, &b);
	return end - b >= 8 && !strncmp(b, "mlir-opt", 8);
}

/* The environment of an LLVM tool: ours, with the unwinder first in
 * LD_PRELOAD (a path without blanks: the loader splits there; none
 * found: the caller's LD_PRELOAD as it is), LLVM_DISABLE_SYMBOLIZATION=1
 * unless the caller set it, and, unless the caller says otherwise,
 * ASan's check that its runtime comes first off: a tool built with gcc's
 * -fsanitize=address (libasan.so) would refuse to start behind a preload
 * ("ASan runtime does not come first in initial library list").  The
 * crash handler's symbolization looks for llvm-symbolizer
 * (findProgramByName: a malloc), which hangs the handler when the crash
 * was inside malloc, as the unwinder's loading did; without it the stack
 * dump still names the functions (dladdr), and no llvm-symbolizer
 * process is started (0.36 s a crash).  NULL out of memory. */
static char **
llvm_environ(char **hold)
{
	const char *u = tool_unwind_preload(), *old = getenv("LD_PRELOAD"),
		   *asan = getenv("ASAN_OPTIONS");
	bool own = asan && strstr(asan, "verify_asan_link_order");
	bool sym = getenv("LLVM_DISABLE_SYMBOLIZATION") != NULL;
	size_t n = 0, k = 0, len, at = 0;
	char **env;

	if (u && strpbrk(u, " \t:"))
		u = NULL;
	while (environ[n])
		n++;
	/* "LD_PRELOAD=U OLD\0ASAN_OPTIONS=ASAN:verify_asan_link_order=0\0" */
	len = (u ? strlen(u) : 0) + (old ? strlen(old) : 0) +
	      (asan ? strlen(asan) : 0) + 80;
	env = mem_calloc(n + 4, sizeof *env);
	*hold = mem_alloc(len);
	if (!env || !*hold) {
		mem_free(env);
		mem_free(*hold);
		*hold = NULL;
		return NULL;
	}
	if (u) {
		env[k] = *hold + at;
		at += (size_t)fmt_snprintf(env[k++], len - at, "LD_PRELOAD=%s%s%s",
					   u, old && *old ? " " : "",
					   old ? old : "") + 1;
	}
	if (!own) {
		env[k] = *hold + at;
		at += (size_t)fmt_snprintf(env[k++], len - at,
				 "ASAN_OPTIONS=%s%sverify_asan_link_order=0",
				 asan ? asan : "", asan && *asan ? ":" : "") + 1;
	}
	if (!sym)
		env[k++] = (char *)"LLVM_DISABLE_SYMBOLIZATION=1";
	for (size_t i = 0; i < n; i++)
		if ((!u || strncmp(environ[i], "LD_PRELOAD=", 11)) &&
		    (own || strncmp(environ[i], "ASAN_OPTIONS=", 13)))
			env[k++] = environ[i];
	env[k] = NULL;
	return env;
}

/* posix_spawn (vfork-like in glibc: cheap in a big, ASan'ed process): the
 * child gets the pipes on 0-2, a new session (so its session, its process
 * group and its pid are one number, and no terminal signal reaches it),
 * the caller's signal mask (we block SIGPIPE meanwhile) and SIGPIPE at
 * its default.  0 or an errno value. */
static int
tool_spawn(const char *cmd, const int fds[3], const sigset_t *mask,
	   char **env, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t def;
	char *argv[] = {"sh", "-c", (char *)cmd, NULL};
	int rc;

	if ((rc = posix_spawn_file_actions_init(&fa)))
		return rc;
	if ((rc = posix_spawnattr_init(&at))) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	for (int i = 0; i < 3 && !rc; i++)
		rc = posix_spawn_file_actions_adddup2(&fa, fds[i], i);
	if (!rc)
		rc = posix_spawnattr_setsigmask(&at, mask);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &def);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	if (!rc)
		rc = posix_spawn(pid, "/bin/sh", &fa, &at, argv,
				 env ? env : environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* One captured stream. */
typedef struct Sink {
	int fd;
	char *buf;
	size_t n, cap;
	size_t max;             /* the cap: more and the tool dies */
} Sink;

static int
sink_init(Sink *s, size_t max)
{
	s->fd = -1;
	s->max = max;
	s->n = 0;
	s->cap = 1;
	s->buf = mem_alloc(1);
	if (s->buf)
		s->buf[0] = 0;
	return s->buf ? 0 : -1;
}

enum { SINK_MORE, SINK_AGAIN, SINK_EOF, SINK_OOM, SINK_OVER };

/* Read what is there (the fd is non-blocking).  The buffer doubles, but
 * never beyond what the cap needs. */
static int
sink_read(Sink *s)
{
	if (s->cap - s->n < TOOL_CHUNK + 1) {
		size_t need = s->n + TOOL_CHUNK + 1, most = s->max + TOOL_CHUNK + 1;
		size_t cap = s->cap * 2 < most ? s->cap * 2 : most;
		char *b;

		if (cap < need)
			cap = need;
		if (!(b = mem_realloc(s->buf, cap)))
			return SINK_OOM;
		s->buf = b;
		s->cap = cap;
	}
	ssize_t k = read(s->fd, s->buf + s->n, TOOL_CHUNK);
	if (k < 0)
		return errno == EAGAIN || errno == EINTR ? SINK_AGAIN : SINK_EOF;
	if (k == 0)
		return SINK_EOF;
	s->n += k;
	s->buf[s->n] = 0;
	return s->n > s->max ? SINK_OVER : SINK_MORE;
}

/* The state of one run. */
typedef struct Run1 {
	pid_t pid;
	int in;                 /* our end of the tool's stdin, -1 closed */
	const char *data;
	size_t ndata, off;
	Sink out, err;
	bool exited;            /* the tool (sh) is a zombie, not reaped */
	double exited_at;
	ToolStatus why;         /* TOOL_OK, or why we ended the call */
	bool over_err;          /* TOOL_OOM: stderr went over */
	int sig;                /* TOOL_INTERRUPTED: the signal */
	bool oom;
} Run1;

/* Feed stdin.  SIGPIPE is blocked here, so a tool that exited or closed
 * its stdin gives EPIPE, and we stop feeding it. */
static void
run_feed(Run1 *t)
{
	size_t k = t->ndata - t->off < TOOL_CHUNK ? t->ndata - t->off :
		   TOOL_CHUNK;
	ssize_t w = write(t->in, t->data + t->off, k);

	if (w > 0)
		t->off += w;
	else if (w < 0 && errno != EAGAIN && errno != EINTR)
		close_fd(&t->in);
	if (t->off == t->ndata)
		close_fd(&t->in);
}

/* Has the tool ended?  WNOWAIT keeps it a zombie, so its pid (= its
 * session and group id) cannot be reused before we kill what is left of
 * them. */
static bool
run_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == pid;
}

static int
run_drain(Run1 *t, Sink *s)
{
	int k = sink_read(s);

	if (k == SINK_EOF)
		close_fd(&s->fd);
	else if (k == SINK_OOM)
		t->oom = true;
	else if (k == SINK_OVER && t->why == TOOL_OK)
		t->why = TOOL_OOM, t->over_err = s == &t->err;
	return k;
}

/* One poll and what it found; false when nothing happened (a signal
 * too: poll returns EINTR at once). */
static bool
run_poll(Run1 *t, int ms)
{
	struct pollfd p[3];
	int np = 0, ii = -1, io = -1, ie = -1;

	if (t->in >= 0)
		ii = np, p[np++] = (struct pollfd){t->in, POLLOUT, 0};
	if (t->out.fd >= 0)
		io = np, p[np++] = (struct pollfd){t->out.fd, POLLIN, 0};
	if (t->err.fd >= 0)
		ie = np, p[np++] = (struct pollfd){t->err.fd, POLLIN, 0};
	if (poll(p, np, ms) <= 0)
		return false;
	if (ii >= 0 && p[ii].revents)
		run_feed(t);
	/* what the pipe holds, up to its size */
	for (int k = 0; io >= 0 && p[io].revents && k < TOOL_PIPE / TOOL_CHUNK &&
			run_drain(t, &t->out) == SINK_MORE; k++)
		;
	if (ie >= 0 && p[ie].revents)
		run_drain(t, &t->err);
	return true;
}

/* Until the call ends (mlir.h).  Nothing wakes poll when the tool ends
 * while a straggler keeps its pipes open (or after it closed them), so
 * each wait is bounded by a tick that grows from 1 to 50 ms while nothing
 * happens; a signal wakes it at once. */
static void
run_loop(Run1 *t, double deadline)
{
	int tick = 1;

	while (!t->oom && t->why == TOOL_OK) {
		if (stop_signal()) {
			t->why = TOOL_INTERRUPTED;
			t->sig = stop_signal();
			break;
		}
		if (!t->exited && run_ended(t->pid)) {
			t->exited = true;
			t->exited_at = tool_now();
			close_fd(&t->in);
		}
		double end = t->exited ? fmin(deadline, t->exited_at + TOOL_GRACE)
				       : deadline;
		if (t->exited && t->out.fd < 0)
			break; /* stderr: what the pipe holds is read below */
		double left = (end - tool_now()) * 1000;
		if (!(left > 0)) {      /* NaN too */
			if (!t->exited)
				t->why = TOOL_TIMEOUT;
			break;          /* else: the grace is over */
		}
		if (run_poll(t, left < tick ? (int)ceil(left) : tick))
			tick = 1;
		else
			tick = tick < 50 ? tick * 2 : 50;
	}
}

static const char *signal_name(int sig);

/* End the session, read what the pipes still hold (everything that could
 * write them is dead: EOF, or EAGAIN if something escaped), reap the tool,
 * close everything, fill r.  /bin/sh -c reports a command that a signal
 * killed as exit 128+N (dash does not exec the last command): that is a
 * crash too. */
static void
run_finish(Run1 *t, Session *ss, ToolResult *r)
{
	int st = 0;

	close_fd(&t->in);
	session_end(ss);
	while (t->out.fd >= 0 && !t->oom && run_drain(t, &t->out) == SINK_MORE)
		;
	while (t->err.fd >= 0 && !t->oom && run_drain(t, &t->err) == SINK_MORE)
		;
	stop_tool(0); /* before the reap: its pid may be reused after */
	while (waitpid(t->pid, &st, 0) < 0 && errno == EINTR)
		;
	close_fd(&t->out.fd);
	close_fd(&t->err.fd);
	r->status = t->why;
	r->over_err = t->over_err;
	if (t->why == TOOL_INTERRUPTED)
		r->code = t->sig;
	else if (t->why != TOOL_OK)
		r->code = 0;
	else if (WIFSIGNALED(st))
		r->status = TOOL_SIGNAL, r->code = WTERMSIG(st);
	else if (WEXITSTATUS(st) > 128 && signal_name(WEXITSTATUS(st) - 128))
		r->status = TOOL_SIGNAL, r->code = WEXITSTATUS(st) - 128;
	else if (WEXITSTATUS(st))
		r->status = TOOL_EXIT, r->code = WEXITSTATUS(st);
}

/* Make the pipes and start the tool: 0, or an errno value (everything
 * closed). */
static int
run_start(Run1 *t, const char *cmd, char **env, const sigset_t *mask)
{
	int pi[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1}, rc = 0;

	if (pipe_cloexec(pi) < 0 || pipe_cloexec(po) < 0 ||
	    pipe_cloexec(pe) < 0)
		rc = errno;
	if (!rc)
		rc = tool_spawn(cmd, (int[3]){pi[0], po[1], pe[1]}, mask, env,
				&t->pid);
	close_fd(&pi[0]);
	close_fd(&po[1]);
	close_fd(&pe[1]);
	t->in = pi[1];
	t->out.fd = po[0];
	t->err.fd = pe[0];
	if (rc) {
		close_fd(&t->in);
		close_fd(&t->out.fd);
		close_fd(&t->err.fd);
		return rc;
	}
	set_nonblock(t->in);
	set_nonblock(t->out.fd);
	set_nonblock(t->err.fd);
	/* a wider pipe: a big answer in fewer wakeups (64 KiB each took
	 * 2.4 s for 64 MiB on a loaded machine); the limit may refuse */
	fcntl(t->out.fd, F_SETPIPE_SZ, TOOL_PIPE);
	if (!t->ndata)
		close_fd(&t->in);
	return 0;
}

/*
 * SIGPIPE: a write to a pipe whose reader is gone raises it, and its
 * default kills us.  We neither ignore it process-wide (the caller's
 * disposition is theirs) nor install a handler: it is blocked in this
 * thread for the call, so a write gives EPIPE instead, and a SIGPIPE that
 * became pending meanwhile is consumed before the old mask comes back.
 * The tool gets the caller's mask and SIGPIPE at its default.
 */
static void
sigpipe_block(sigset_t *old, bool *was_pending)
{
	sigset_t s, pend;

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &s, old);
	sigpending(&pend);
	*was_pending = sigismember(&pend, SIGPIPE);
}

static void
sigpipe_restore(const sigset_t *old, bool was_pending)
{
	sigset_t s, pend;
	struct timespec zero = {0, 0};

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	sigpending(&pend);
	if (!was_pending && sigismember(&pend, SIGPIPE))
		while (sigtimedwait(&s, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int
tool_call(const ToolCall *c, ToolResult *r)
{
	Run1 t = {.in = -1, .data = c->in, .ndata = c->in ? c->nin : 0};
	size_t cap = c->out_cap ? c->out_cap : TOOL_OUT_CAP;
	size_t ecap = cap < TOOL_ERR_CAP ? cap : TOOL_ERR_CAP;
	double start = tool_now();
	Session ss;
	sigset_t old;
	bool pending;
	int rc;

	memset(r, 0, sizeof *r);
	r->timeout = c->timeout;
	r->out_cap = cap;
	r->err_cap = ecap;
	if (sink_init(&t.out, cap) < 0 || sink_init(&t.err, ecap) < 0) {
		mem_free(t.out.buf);
		mem_free(t.err.buf);
		return -1;
	}
	sigpipe_block(&old, &pending);
	if (stop_signal()) { /* no new tool once asked to stop */
		r->status = TOOL_INTERRUPTED;
		r->code = stop_signal();
	} else {
		char *hold = NULL, **env = c->llvm ? llvm_environ(&hold) : NULL;
		session_begin(&ss);
		rc = run_start(&t, c->cmd, env, &old);
		mem_free(env);
		mem_free(hold);
		if (rc) {
			r->status = TOOL_SPAWN;
			r->code = rc;
		} else {
			ss.leader = t.pid;
			stop_tool(t.pid);
			run_loop(&t, start + c->timeout);
			run_finish(&t, &ss, r);
		}
	}
	sigpipe_restore(&old, pending);
	r->out = t.out.buf, r->nout = t.out.n;
	r->err = t.err.buf, r->nerr = t.err.n;
	r->seconds = tool_now() - start;
	if (t.oom) {
		tool_result_free(r);
		return -1;
	}
	tool_keep(c, r);
	return 0;
}

int
tool_run(const char *cmd, const char *in, size_t nin, double timeout,
	 ToolResult *r)
{
	return tool_call(&(ToolCall){cmd, in, nin, timeout, 0, false}, r);
}

void
tool_result_free(ToolResult *r)
{
	mem_free(r->out);
	mem_free(r->err);
	r->out = r->err = NULL;
	r->nout = r->nerr = 0;
}

static const char *
signal_name(int sig)
{
	static const struct { int sig; const char *name; } tab[] = {
		{SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"},
		{SIGILL, "SIGILL"}, {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
		{SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"},
		{SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"},
		{SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"},
		{SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
		{SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
		{SIGSYS, "SIGSYS"},
	};

	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (tab[i].sig == sig)
			return tab[i].name;
	return NULL;
}

const char *
tool_status_str(const ToolResult *r, char *buf, size_t n)
{
	const char *name;

	switch (r->status) {
	case TOOL_OK:
	case TOOL_EXIT:
		fmt_snprintf(buf, n, "exit %d", r->code);
		break;
	case TOOL_SIGNAL:
		name = signal_name(r->code);
		if (name)
			fmt_snprintf(buf, n, "killed by signal %d (%s)", r->code,
				 name);
		else
			fmt_snprintf(buf, n, "killed by signal %d", r->code);
		break;
	case TOOL_TIMEOUT:
		fmt_snprintf(buf, n, "timed out after %g s", r->timeout);
		break;
	case TOOL_SPAWN:
		fmt_snprintf(buf, n, "could not start: %s", strerror(r->code));
		break;
	case TOOL_OOM:
		fmt_snprintf(buf, n, "killed: %s over %zu bytes",
			     r->over_err ? "stderr" : "stdout",
			     r->over_err ? r->err_cap : r->out_cap);
		break;
	case TOOL_INTERRUPTED:
		fmt_snprintf(buf, n, "interrupted by %s",
			     stop_signal_name(r->code));
		break;
	}
	return buf;
}

const char *
tool_stderr_head(const ToolResult *r, int lines, char *buf, size_t n)
{
	size_t k = 0;
	int seen = 0;

	if (!n)
		return buf;
	while (k < r->nerr && seen < lines) {
		if (r->err[k] == '\n' && ++seen == lines)
			break;
		k++;
	}
	if (k && r->err[k - 1] == '\n' && k == r->nerr)
		k--;  /* no final newline */
	if (k > n - 1)
		k = n - 1;
	memcpy(buf, r->err, k);
	buf[k] = 0;
	return buf;
}

void
tool_sh_quote(Str *b, const char *s)
{
	sh_word(b, s); /* interp/escape.c: the one shell quoting */
}
