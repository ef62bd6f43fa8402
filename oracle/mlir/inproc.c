/*
 * inproc.c: mlir-opt-22 in-process (docs/external.md "Routes").
 *
 * The mlir and mlir-pipeline strategies ask mlir-opt-22 to parse a
 * program, run a pass pipeline and print the result; as a process that is
 * mostly start-up (loading libMLIR, registering every dialect and pass).
 * Here the same work is done by a worker process that holds one
 * long-lived MLIR context: started lazily on the first call (one per
 * bufdiff process, so one per -j worker) as its own executable,
 * bufdiff-mlir (inproc_worker.c, never built with the sanitizers), it
 * dlopen()s bufdiff_mlir.so (inproc_mlir.c, libMLIR's C API) and its
 * server (a fork) answers requests over a socket:
 *
 *   request   "BDMQ", u32 pipeline bytes, u32 dir bytes, u64 program
 *             bytes, then the three texts
 *   answer    "BDMA", i32 exit status (-1: the module would not load),
 *             u64 stdout bytes, u64 stderr bytes, 3 u64 ns of CPU (the
 *             parse, the pipeline, the print), then the two texts;
 *             or "BDMX", the signal that killed the server (below), 0, 0
 *   batch     "BDMB", as "BDMQ" but its program bytes hold many programs,
 *             each a u64 length, the text and a NUL; each is answered in
 *             order ("BDMA") as its own "BDMQ" would be
 *
 * The answer is what mlir-opt-22 prints (inproc_mlir.c).  A batch is many
 * calls in one request (inproc_batch): no program's answer depends on the
 * others', a program the server dies on ends the request there (its
 * "BDMX" says which: the first unanswered), and a program that fails
 * costs nothing to the rest (mlir-opt's --split-input-file-like batches
 * of nested modules stop at the first failure).  A call runs
 * under the tool's time limit: past it, the worker is killed (and the
 * next call forks a fresh one); a worker killed by a signal is the tool
 * killed by it.  Its process group is the running tool's for stop.h, so
 * SIGINT/SIGTERM to bufdiff kill it during a call; between calls it dies
 * with bufdiff (atexit, and PR_SET_PDEATHSIG when bufdiff is killed) or
 * when its socket closes.  The worker's own stderr (a crash's message)
 * is the call's stderr.
 */
#define _GNU_SOURCE /* close_range */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mlir.h"
#include "stop.h"
#include "inproc_proto.h"
#include "inproc_daemon.h"

#ifndef BUFDIFF_MLIR_MODULE
#define BUFDIFF_MLIR_MODULE ""  /* built without libmlir-22-dev */
#endif
#ifndef BUFDIFF_MLIR_WORKER
#define BUFDIFF_MLIR_WORKER ""
#endif
#ifndef BUFDIFF_MLIR_INSTALLED
#define BUFDIFF_MLIR_INSTALLED "lib/bufdiff/bufdiff_mlir.so"
#endif

/* ---- the route: a setting of the process (--mlir-route, else
 * BUFDIFF_MLIR_ROUTE, else auto) */

static MlirRoute route_set = ROUTE_UNSET;

int
inproc_route_parse(const char *s, MlirRoute *r)
{
	if (!strcmp(s, "auto"))
		*r = ROUTE_AUTO;
	else if (!strcmp(s, "process"))
		*r = ROUTE_PROCESS;
	else if (!strcmp(s, "in-process"))
		*r = ROUTE_INPROC;
	else
		return -1;
	return 0;
}

void
inproc_set_route(MlirRoute r)
{
	route_set = r;
}

MlirRoute
inproc_route(void)
{
	const char *e;
	MlirRoute r = ROUTE_AUTO;

	if (route_set != ROUTE_UNSET)
		return route_set;
	if ((e = getenv("BUFDIFF_MLIR_ROUTE")) && *e)
		inproc_route_parse(e, &r);
	return r;
}

/* The module's path: BUFDIFF_MLIR_MODULE in the environment, the build
 * tree's, or the installed one beside bufdiff (BINDIR/../LIBDIR/bufdiff);
 * NULL when none is there. */
static const char *
module_path(void)
{
	static char path[PATH_MAX];
	static const char *found;
	static bool looked;
	const char *e = getenv("BUFDIFF_MLIR_MODULE");

	if (e && *e)
		return access(e, R_OK) ? NULL : e;
	if (!looked) {
		looked = true;
		found = lib_path(BUFDIFF_MLIR_MODULE, BUFDIFF_MLIR_INSTALLED,
				 R_OK, path, sizeof path);
	}
	return found;
}

/* The worker executable (inproc_worker.c): BUFDIFF_MLIR_WORKER in the
 * environment, the build tree's, or the one beside the installed module;
 * NULL when none is there. */
static const char *
worker_path(void)
{
	static char path[PATH_MAX];
	const char *e = getenv("BUFDIFF_MLIR_WORKER"), *m;
	char *slash;

	if (e && *e)
		return access(e, X_OK) ? NULL : e;
	if (*BUFDIFF_MLIR_WORKER && !access(BUFDIFF_MLIR_WORKER, X_OK))
		return BUFDIFF_MLIR_WORKER;
	if (!(m = module_path()))
		return NULL;
	fmt_snprintf(path, sizeof path, "%s", m);
	if (!(slash = strrchr(path, '/')))
		return NULL;
	fmt_snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path),
		     "bufdiff-mlir");
	return access(path, X_OK) ? NULL : path;
}

bool
inproc_available(void)
{
	return module_path() != NULL && worker_path() != NULL;
}

/* cmd's path: itself with a '/', else found in PATH; realpath'ed.  False
 * when not found. */
static bool
resolve(const char *cmd, char *out)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(cmd, '/'))
		return realpath(cmd, out) != NULL;
	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (fmt_snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path,
				 cmd) < (int)sizeof buf &&
		    !access(buf, X_OK) && realpath(buf, out))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* Is the tool mlir-opt-22: that name, or a spelling of the same binary
 * (a path to it, a link)?  One word only: a command line is not. */
static bool
is_mlir_opt_22(const char *tool)
{
	static char last[PATH_MAX];
	static bool last_is;
	char a[PATH_MAX], b[PATH_MAX];

	if (!strcmp(tool, "mlir-opt-22"))
		return true;
	if (strpbrk(tool, " \t\n;&|<>()$`\\\"'*?[#~=%"))
		return false;
	if (!strcmp(tool, last))
		return last_is;
	fmt_snprintf(last, sizeof last, "%s", tool);
	last_is = resolve(tool, a) && resolve("mlir-opt-22", b) &&
		  !strcmp(a, b);
	return last_is;
}

bool
inproc_wanted(const char *tool)
{
	MlirRoute r = inproc_route();

	if (r == ROUTE_PROCESS || !is_mlir_opt_22(tool))
		return false;
	return r == ROUTE_INPROC || inproc_available();
}

/* ---- bufdiff's side */

/* The worker of this process (owner: a forked bufdiff inherits the
 * parent's, and must not use it). */
static struct {
	pid_t pid, owner;
	int fd;                 /* our end of the socket */
	int err;                /* the worker's stderr */
	bool broken;            /* the module would not load: process route */
	bool daemon;            /* a daemon's server: not ours to end at exit */
} w = {0, 0, -1, -1, false, false};

static void
worker_forget(void)
{
	if (w.fd >= 0)
		close(w.fd);
	if (w.err >= 0)
		close(w.err);
	w.fd = w.err = -1;
	w.pid = 0;
	w.daemon = false;
}

/* Kill the worker and reap it; its wait status into *ws when asked. */
static void
worker_kill(int *ws)
{
	int st = 0;

	if (w.pid > 0 && w.owner == getpid()) {
		int k;
		kill(-w.pid, SIGKILL); /* the worker and its server */
		kill(w.pid, SIGKILL);
		while ((k = waitpid(w.pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (k < 0) /* a daemon's session, not our child: it is gone */
			st = SIGKILL; /* the wait status of a SIGKILL */
	}
	if (ws)
		*ws = st;
	worker_forget();
}

/* CPU seconds of process pid (its CPU clock), 0 when gone. */
static double
cpu_of(pid_t pid)
{
	clockid_t id;
	struct timespec ts;

	if (clock_getcpuclockid(pid, &id) || clock_gettime(id, &ts))
		return 0;
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The worker's, its live server's, and its dead servers' (reaped by the
 * worker: cutime and cstime of /proc/PID/stat). */
double
inproc_worker_cpu(pid_t *pid)
{
	char path[64], buf[1024], *q;
	unsigned long long cu = 0, cs = 0;
	double cpu;
	long server;
	FILE *f;

	*pid = 0;
	if (w.pid <= 0 || w.owner != getpid())
		return 0;
	*pid = w.pid;
	cpu = cpu_of(w.pid);
	fmt_snprintf(path, sizeof path, "/proc/%d/stat", (int)w.pid);
	if ((f = fopen(path, "re"))) {
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = 0;
		/* after "(comm) ": state ppid pgrp session tty tpgid flags
		 * minflt cminflt majflt cmajflt utime stime cutime cstime */
		if ((q = strrchr(buf, ')')))
			sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			       "%*u %*u %*u %llu %llu", &cu, &cs);
		fclose(f);
	}
	cpu += (double)(cu + cs) / (double)sysconf(_SC_CLK_TCK);
	fmt_snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)w.pid,
		     (int)w.pid);
	if ((f = fopen(path, "re"))) {
		while (fscanf(f, "%ld", &server) == 1)
			cpu += cpu_of((pid_t)server);
		fclose(f);
	}
	return cpu;
}

void
inproc_end(void)
{
	if (w.owner == getpid() && w.daemon)
		worker_forget(); /* the server sees EOF and serves the next */
	else if (w.owner == getpid())
		worker_kill(NULL);
}

/* BUFDIFF_MLIR_DAEMON=1: the worker is a session of the daemon
 * (inproc_daemon.c), which outlives the command. */
static bool
daemon_wanted(void)
{
	const char *e = getenv("BUFDIFF_MLIR_DAEMON");

	return e && !strcmp(e, "1");
}

/* The worker pid (its process group) answers on fd, its stderr on err. */
static int
worker_started(pid_t pid, int fd, int err)
{
	static pid_t registered;

	fcntl(err, F_SETFD, FD_CLOEXEC);
	fcntl(err, F_SETFL, O_NONBLOCK);
	w.pid = pid;
	w.owner = getpid();
	w.fd = fd;
	w.err = err;
	if (registered != getpid()) {
		atexit(inproc_end);
		registered = getpid();
	}
	return 0;
}

static int
worker_start(void)
{
	const char *module = module_path(), *worker = worker_path();
	int sv[2], pe[2];
	pid_t pid;

	if (!module || !worker)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	if (pipe(pe) < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (daemon_wanted() &&
	    daemon_connect(worker, module, pe[1], &w.fd, &pid)) {
		close(sv[0]);
		close(sv[1]);
		close(pe[1]);
		w.daemon = true;
		return worker_started(pid, w.fd, pe[0]);
	}
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		close(pe[0]);
		close(pe[1]);
		return -1;
	}
	if (!pid) {
		sigset_t none;
		int null = open("/dev/null", O_RDWR);
		/* its own group (stop.h kills it), dies with us; 0-2:
		 * nothing in, nothing out, stderr to us; no other fd of
		 * ours (a pipe it held open would never see EOF) */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* kept across exec */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(null, 0);
		dup2(null, 1);
		dup2(pe[1], 2);
		dup2(sv[1], 3);
		close_range(4, ~0U, 0);
		if (getppid() == 1)
			_exit(0);
		execl(worker, "bufdiff-mlir", module, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	close(pe[1]);
	setpgid(pid, pid); /* both sides: no race with a signal */
	return worker_started(pid, sv[0], pe[0]);
}

/* Append what the worker's stderr holds. */
static void
drain_err(Str *e)
{
	char buf[65536];
	ssize_t k;

	while (w.err >= 0 && (k = read(w.err, buf, sizeof buf)) > 0)
		if (e->len < TOOL_ERR_CAP)
			str_put(e, buf, (size_t)k);
}

/* Read n bytes by the deadline: 0, or a ToolStatus (TOOL_SIGNAL: the
 * worker closed the socket; TOOL_TIMEOUT; TOOL_INTERRUPTED). */
static int
recv_by(void *p, size_t n, double deadline, Str *e)
{
	char *c = p;

	while (n) {
		struct pollfd pf[2] = {{w.fd, POLLIN, 0}, {w.err, POLLIN, 0}};
		double left;
		if (stop_signal())
			return TOOL_INTERRUPTED;
		left = (deadline - tool_now()) * 1000;
		if (!(left > 0))
			return TOOL_TIMEOUT;
		if (poll(pf, 2, left > 50 ? 50 : (int)left + 1) <= 0)
			continue;
		if (pf[1].revents)
			drain_err(e);
		if (!pf[0].revents)
			continue;
		ssize_t k = recv(w.fd, c, n, MSG_DONTWAIT);
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k <= 0)
			return TOOL_SIGNAL;
		c += k, n -= (size_t)k;
	}
	return 0;
}

/* Send the request (magic "BDMQ" or "BDMB"); false when the worker is
 * gone. */
static bool
send_request(const char *magic, const char *pipeline, const char *dir,
	     const char *in, size_t nin)
{
	Req q = {{magic[0], magic[1], magic[2], magic[3]},
		 (uint32_t)strlen(pipeline), (uint32_t)strlen(dir), nin};

	return write_all(w.fd, &q, sizeof q) &&
	       write_all(w.fd, pipeline, q.npipe) &&
	       write_all(w.fd, dir, q.ndir) && write_all(w.fd, in, nin);
}

/* MLIR's own CPU in the answers so far (inproc_phases) */
static InprocPhases phases;

void
inproc_phases(InprocPhases *p)
{
	*p = phases;
}

/* The next answer as the worker gave it, or why none (st: the request
 * could not be sent): fills r.  True when r is the program's own, as
 * its own call would end: an answer, the server dying on it ("BDMX"),
 * its time running out while it was served; false when the worker was
 * lost before it or bufdiff was interrupted. */
static bool
recv_answer(int st, double deadline, ToolResult *r, Str *out, Str *err)
{
	bool sent = !st;
	Ans a;
	int ws;

	if (!st)
		st = recv_by(&a, sizeof a, deadline, err);
	if (!st && !memcmp(a.magic, "BDMX", 4)) {
		/* the server died of a signal; the worker forks another (its
		 * stderr, the backtrace, was written before it died); a
		 * daemon's warm server is replaced by another process (its
		 * pid in place of the stdout bytes): the one to kill now */
		if (a.nout > 1 && a.nout < (uint64_t)INT32_MAX)
			w.pid = (pid_t)a.nout;
		r->status = TOOL_SIGNAL;
		r->code = a.status;
		drain_err(err);
		return true;
	}
	if (!st && memcmp(a.magic, "BDMA", 4))
		st = TOOL_SIGNAL;
	if (!st && a.nout <= (uint64_t)r->out_cap &&
	    a.nerr <= (uint64_t)r->err_cap) {
		char *o = mem_alloc(a.nout + 1), *e = mem_alloc(a.nerr + 1);
		if (o && e && !(st = recv_by(o, a.nout, deadline, err)) &&
		    !(st = recv_by(e, a.nerr, deadline, err))) {
			str_put(out, o, a.nout);
			str_put(err, e, a.nerr);
		}
		mem_free(o);
		mem_free(e);
	} else if (!st) {
		r->status = TOOL_OOM;
		r->over_err = a.nout <= (uint64_t)r->out_cap;
		worker_kill(NULL);
		return true;
	}
	if (!st) {
		phases.answers++;
		for (int i = 0; i < 3; i++)
			phases.s[i] += 1e-9 * (double)a.phase_ns[i];
		r->status = a.status ? TOOL_EXIT : TOOL_OK;
		r->code = a.status;
		return true;
	}
	r->status = st;
	if (st == TOOL_INTERRUPTED)
		r->code = stop_signal();
	worker_kill(&ws);
	drain_err(err);
	if (st == TOOL_SIGNAL) {
		if (WIFSIGNALED(ws))
			r->code = WTERMSIG(ws);
		else /* it exited: mlir-opt's exit status */
			r->status = TOOL_EXIT, r->code = WEXITSTATUS(ws);
	}
	return sent && st == TOOL_TIMEOUT;
}

/* r as a call of c fills it, before its answer. */
static void
result_init(const ToolCall *c, ToolResult *r)
{
	memset(r, 0, sizeof *r);
	r->timeout = c->timeout;
	r->out_cap = c->out_cap ? c->out_cap : TOOL_OUT_CAP;
	r->err_cap = r->out_cap < TOOL_ERR_CAP ? r->out_cap : TOOL_ERR_CAP;
}

/* A live worker for a call: 0; 1 when the route cannot run (the module
 * would not load: then never again in this process); TOOL_INTERRUPTED
 * when a signal came. */
static int
worker_ready(void)
{
	if (w.owner != getpid()) {
		worker_forget(); /* a fork's copy of the parent's worker */
		w.owner = getpid();
	}
	if (w.broken)
		return 1;
	if (stop_signal())
		return TOOL_INTERRUPTED;
	if (!w.pid && worker_start()) {
		w.broken = true;
		return 1;
	}
	return 0;
}

/* The module did not load (its answer says -1): the process route from
 * now on.  True then. */
static bool
module_broken(const ToolResult *r)
{
	if (r->status != TOOL_EXIT || r->code != -1)
		return false;
	w.broken = true;
	worker_kill(NULL);
	return true;
}

/* r's texts from out and err, its time since start, kept (--keep-tool-io)
 * as c's: 0, -1 out of memory. */
static int
result_finish(const ToolCall *c, ToolResult *r, Str *out, Str *err,
	      double start)
{
	r->seconds = tool_now() - start;
	r->nout = out->len;
	r->nerr = err->len;
	r->out = str_take(out);
	r->err = str_take(err);
	if (!r->out || !r->err) {
		tool_result_free(r);
		return -1;
	}
	tool_keep(c, r);
	return 0;
}

int
inproc_call(const ToolCall *c, const char *pipeline, const char *dir,
	    ToolResult *r)
{
	Str out = {0}, err = {0};
	double start = tool_now();
	int ready;

	result_init(c, r);
	if ((ready = worker_ready()) == 1)
		return 1;
	if (ready) {
		r->status = TOOL_INTERRUPTED;
		r->code = stop_signal();
	} else {
		bool sent;
		stop_tool(w.pid);
		sent = send_request("BDMQ", pipeline, dir ? dir : "", c->in,
				    c->nin);
		recv_answer(sent ? 0 : TOOL_SIGNAL, start + c->timeout, r,
			    &out, &err);
		stop_tool(0);
		if (module_broken(r)) {
			str_free(&out);
			str_free(&err);
			return 1;
		}
	}
	return result_finish(c, r, &out, &err, start);
}

/* The "BDMB" request's program bytes for c[0..n): NULL out of memory. */
static char *
batch_text(const ToolCall *c, int n, size_t *len)
{
	Str b = {0};

	for (int i = 0; i < n; i++) {
		uint64_t k = c[i].nin;
		str_put(&b, (const char *)&k, sizeof k);
		str_put(&b, c[i].in ? c[i].in : "", c[i].nin);
		str_put(&b, "", 1);
	}
	*len = b.len;
	return str_take(&b);
}

int
inproc_batch(const ToolCall *c, const char *const *labels, int n,
	     const char *pipeline, const char *dir, ToolResult *r,
	     int *answered)
{
	double start = tool_now();
	char *text;
	size_t len;
	bool sent;
	int ready, rc = 0;

	*answered = 0;
	if (n <= 0)
		return 0;
	if ((ready = worker_ready()) == 1)
		return 1;
	if (ready) {
		Str out = {0}, err = {0};
		result_init(&c[0], &r[0]);
		r[0].status = TOOL_INTERRUPTED;
		r[0].code = stop_signal();
		if (labels)
			tool_keep_label(labels[0]);
		return result_finish(&c[0], &r[0], &out, &err, start);
	}
	if (!(text = batch_text(c, n, &len)))
		return -1;
	stop_tool(w.pid);
	sent = send_request("BDMB", pipeline, dir ? dir : "", text, len);
	mem_free(text);
	for (int i = 0; i < n && !rc; i++) {
		Str out = {0}, err = {0};
		result_init(&c[i], &r[i]);
		/* each program has the time of its own call, from the
		 * answer before it */
		bool own = recv_answer(sent ? 0 : TOOL_SIGNAL,
				       start + c[i].timeout, &r[i], &out, &err);
		if (!i && module_broken(&r[0])) {
			str_free(&out);
			str_free(&err);
			rc = 1;
			break;
		}
		if (labels) /* --keep-tool-io names the call */
			tool_keep_label(labels[i]);
		if ((rc = result_finish(&c[i], &r[i], &out, &err, start)))
			break;
		start = tool_now();
		if (r[i].status != TOOL_OK && r[i].status != TOOL_EXIT) {
			/* the request ends there; a crash on the program
			 * or its time out is what its own call would say
			 * (asking it again would crash or wait again) */
			*answered += own;
			break;
		}
		++*answered;
	}
	stop_tool(0);
	return rc;
}
