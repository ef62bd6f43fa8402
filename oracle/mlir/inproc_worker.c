/*
 * inproc_worker.c: bufdiff-mlir, the in-process route's worker (inproc.c
 * starts it; docs/external.md "Routes").  Its own small executable, built
 * without the sanitizers whatever bufdiff's build: libMLIR then runs on
 * glibc's malloc as in mlir-opt-22 (under ASan's, MLIR's own memory bugs
 * did something else: a SIGSEGV of mlir-opt-22 became a refusal), so a
 * sanitizer build takes the same route, with the same answers, as a
 * release one.
 *
 *   usage: bufdiff-mlir MODULE   (the socket on fd 3, stderr bufdiff's)
 *          bufdiff-mlir --daemon SOCKET MODULE READY-FD IDLE-SECONDS
 *                                (BUFDIFF_MLIR_DAEMON: inproc_daemon.c)
 */
#define _GNU_SOURCE /* prctl's PR_SET_PDEATHSIG */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inproc_proto.h"
#include "inproc_daemon.h"

typedef int (*InitFn)(void);
typedef int (*RunFn)(const char *, const char *, size_t, const char *,
		     char **, size_t *, char **, size_t *);
typedef void (*PhasesFn)(uint64_t ns[3]);

/* The module's timing of its last call (Ans.phase_ns), when it has one */
static PhasesFn phases;

/* Test hooks (tests/test_inproc.c): a program holding the text of
 * BUFDIFF_INPROC_CRASH kills the worker with SIGSEGV, one holding
 * BUFDIFF_INPROC_HANG makes it sleep (a tool that never answers). */
static void
test_hooks(const char *in)
{
	const char *c = getenv("BUFDIFF_INPROC_CRASH");
	const char *h = getenv("BUFDIFF_INPROC_HANG");

	if (c && *c && strstr(in, c)) {
		signal(SIGSEGV, SIG_DFL); /* not LLVM's, nor a sanitizer's */
		raise(SIGSEGV);
	}
	if (h && *h && strstr(in, h))
		for (;;)
			pause();
}

static void
answer(int fd, int status, const char *out, size_t nout, const char *err,
       size_t nerr)
{
	Ans a = {{'B', 'D', 'M', 'A'}, status, nout, nerr, {0}};

	if (phases && status >= 0)
		phases(a.phase_ns);
	if (!write_all(fd, &a, sizeof a) || !write_all(fd, out, nout) ||
	    !write_all(fd, err, nerr))
		_exit(0);
}

/* One program's call: run it, answer. */
static void
serve_one(int fd, RunFn run, const char *pipe, const char *dir,
	  const char *in, size_t nin)
{
	char *out, *err;
	size_t nout, nerr;
	int st;

	test_hooks(in);
	st = run(pipe, in, nin, dir, &out, &nout, &err, &nerr);
	answer(fd, st, out, nout, err, nerr); /* the module's buffers */
}

/* A "BDMB" request's programs in[0..n), each answered; false when they
 * are not as the protocol says. */
static bool
serve_many(int fd, RunFn run, const char *pipe, const char *dir,
	   const char *in, size_t n)
{
	for (size_t off = 0; off < n;) {
		uint64_t len;
		if (n - off < sizeof len)
			return false;
		memcpy(&len, in + off, sizeof len);
		off += sizeof len;
		if (len >= n - off || in[off + len])
			return false;
		serve_one(fd, run, pipe, dir, in + off, (size_t)len);
		off += (size_t)len + 1;
	}
	return true;
}

/* Answer requests until the socket closes (ok: the module loaded; else
 * say why once and end the process); false when a request is not as the
 * protocol says. */
static bool
serve_conn(int fd, bool ok, RunFn run)
{
	for (;;) {
		Req q;
		char *buf;
		bool many, good = true;
		if (!read_all(fd, &q, sizeof q))
			return true; /* closed */
		if ((memcmp(q.magic, "BDMQ", 4) && memcmp(q.magic, "BDMB", 4)) ||
		    !(buf = malloc(q.npipe + q.ndir + q.nin + 3)))
			return false;
		many = !memcmp(q.magic, "BDMB", 4);
		char *pipe = buf, *dir = pipe + q.npipe + 1,
		     *in = dir + q.ndir + 1;
		if (!read_all(fd, pipe, q.npipe) || !read_all(fd, dir, q.ndir) ||
		    !read_all(fd, in, q.nin)) {
			free(buf);
			return false;
		}
		pipe[q.npipe] = dir[q.ndir] = in[q.nin] = 0;
		if (!ok) {
			const char *why = dlerror();
			answer(fd, -1, "", 0, why ? why : "", why ? strlen(why) : 0);
			_exit(0);
		}
		if (!many)
			serve_one(fd, run, pipe, q.ndir ? dir : NULL, in, q.nin);
		else
			good = serve_many(fd, run, pipe, q.ndir ? dir : NULL, in,
					  q.nin);
		free(buf);
		if (!good)
			return false;
	}
}

static void __attribute__((noreturn))
serve(int fd, bool ok, RunFn run)
{
	serve_conn(fd, ok, run);
	_exit(0);
}

/* Load the module and make the context once (false: it would not load;
 * the first request is then answered with dlerror's reason). */
static bool
load(const char *module, RunFn *run)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				    SIGTRAP, SIGSYS};
	void *h;
	InitFn init;

	/* A crash ends the server as it ends mlir-opt: LLVM's handlers
	 * (installed by the module) chain to these defaults, whatever
	 * bufdiff's were (an ignored signal stays ignored across exec). */
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
		signal(fatal[i], SIG_DFL);
	h = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	init = h ? (InitFn)(uintptr_t)dlsym(h, "bufdiff_mlir_init") : NULL;
	*run = h ? (RunFn)(uintptr_t)dlsym(h, "bufdiff_mlir_run") : NULL;
	phases = h ? (PhasesFn)(uintptr_t)dlsym(h, "bufdiff_mlir_phases") : NULL;
	return init && *run && !init();
}

/*
 * A session on socket fd, the module loaded: fork the server that
 * answers.  A server that dies of a signal (MLIR crashed on a program) is
 * replaced by a fork of this loaded process, which costs a fork, not a
 * dlopen and a registration (a crash in a batch is asked about again
 * alone, for its own report): the session sends "BDMX" and the signal as
 * the answer of the program it died on.  A server that ends (the socket
 * closed) ends the session.
 */
static void __attribute__((noreturn))
session(int fd, bool ok, RunFn run)
{
	if (!ok)
		serve(fd, false, NULL);
	for (;;) {
		pid_t pid = fork();
		int st = 0;
		if (pid < 0)
			_exit(1);
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(0);
			serve(fd, true, run);
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFSIGNALED(st))
			_exit(0);
		Ans a = {{'B', 'D', 'M', 'X'}, WTERMSIG(st), 0, 0, {0}};
		if (!write_all(fd, &a, sizeof a))
			_exit(0);
	}
}

/* ---- the daemon's side (BUFDIFF_MLIR_DAEMON: inproc_daemon.c) */

static bool daemon_ok;
static RunFn daemon_run_fn;

/* The command's test hooks ("" unset) in our environment. */
static void
hooks_set(const char *crash, const char *hang)
{
	if (*crash)
		setenv("BUFDIFF_INPROC_CRASH", crash, 1);
	else
		unsetenv("BUFDIFF_INPROC_CRASH");
	if (*hang)
		setenv("BUFDIFF_INPROC_HANG", hang, 1);
	else
		unsetenv("BUFDIFF_INPROC_HANG");
}

/* A connection the daemon accepted (its own fork): the client's stderr
 * pipe as ours, its test hooks, our pid in the answer (the client kills
 * our group past a time limit), then the session. */
static void __attribute__((noreturn))
daemon_session(int conn, int err, const char *crash, const char *hang)
{
	HelloAns a = {{'B', 'D', 'M', 'W'}, (int32_t)getpid()};

	setpgid(0, 0);
	if (dup2(err, 2) < 0)
		_exit(1);
	if (err != 2)
		close(err);
	hooks_set(crash, hang);
	if (!write_all(conn, &a, sizeof a))
		_exit(0);
	session(conn, daemon_ok, daemon_run_fn);
}

/* The daemon's warm server (inproc_daemon.c): connection after
 * connection handed over on ctl, each served as a session's server
 * serves, with the command's stderr and hooks; "d" on ctl when one
 * ends.  It lives across commands, so a command pays no fork. */
static void __attribute__((noreturn))
daemon_warm(int ctl)
{
	int null = open("/dev/null", O_WRONLY);
	char crash[4096], hang[4096];
	int conn, err;

	while (daemon_take(ctl, &conn, &err, crash, hang, sizeof crash)) {
		if (dup2(err, 2) < 0)
			_exit(1);
		close(err);
		hooks_set(crash, hang);
		bool good = serve_conn(conn, daemon_ok, daemon_run_fn);
		close(conn);
		dup2(null, 2);
		if (!good || !write_all(ctl, "d", 1))
			_exit(0);
	}
	_exit(0);
}

int
main(int argc, char **argv)
{
	RunFn run = NULL;
	bool ok;

	if (argc == 6 && !strcmp(argv[1], "--daemon")) {
		/* bufdiff-mlir --daemon SOCKET MODULE READY-FD IDLE-SECONDS */
		daemon_ok = load(argv[3], &daemon_run_fn);
		return daemon_main(argv[2], atoi(argv[4]), atoi(argv[5]),
				   daemon_session, daemon_warm);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: bufdiff-mlir MODULE (started by bufdiff, "
			"the socket on fd 3)\n");
		return 2;
	}
	ok = load(argv[1], &run);
	session(3, ok, run);
}
