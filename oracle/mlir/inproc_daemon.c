/*
 * inproc_daemon.c: the MLIR worker across commands (BUFDIFF_MLIR_DAEMON=1,
 * docs/external.md "A worker across commands").
 *
 * Loading libMLIR costs a command ~150 ms of CPU, as an mlir-opt-22 start
 * does: `run --strategy mlir` on one case is mostly that.  With the
 * daemon, the first command starts `bufdiff-mlir --daemon`, which loads
 * the module once and listens on a socket of the user's own; every
 * command then connects and the daemon forks it a session: the same
 * server loop as a private worker's (inproc_worker.c), on the
 * connection, with the command's stderr pipe (passed over the socket) as
 * its stderr, in its own process group (the command kills it past a time
 * limit, as a private worker).  Only connections of the daemon's own uid
 * are served (SO_PEERCRED), in a directory only that user can enter.  The
 * daemon ends after IDLE seconds without a connection, or when its socket
 * file goes; a daemon whose worker or module changed has another name (a
 * hash of their paths, inodes, sizes and times).
 */
#define _GNU_SOURCE /* SO_PEERCRED, close_range, accept4 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inproc_daemon.h"
#include "inproc_proto.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A client's hello, its stderr fd and hooks; false: not one. */
static bool
recv_hello(int c, int *err, char *crash, char *hang, size_t size)
{
	Hello h;
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&h, sizeof h};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
			   .msg_control = ctl, .msg_controllen = sizeof ctl};
	struct cmsghdr *cm;
	ssize_t k;

	*err = -1;
	do
		k = recvmsg(c, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL);
	while (k < 0 && errno == EINTR);
	cm = k > 0 ? CMSG_FIRSTHDR(&m) : NULL;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(err, CMSG_DATA(cm), sizeof(int));
	if (k != (ssize_t)sizeof h || *err < 0 || memcmp(h.magic, "BDMH", 4) ||
	    h.version != HELLO_VERSION || h.ncrash >= size || h.nhang >= size ||
	    !read_all(c, crash, h.ncrash) || !read_all(c, hang, h.nhang)) {
		if (*err >= 0)
			close(*err);
		return false;
	}
	crash[h.ncrash] = hang[h.nhang] = 0;
	return true;
}

/* The warm server: one process serving the commands in turn (no fork a
 * command: a fork of the loaded daemon re-faults what it touches of
 * libMLIR, ~10 ms), while a busy one sends the next command to a session
 * of its own.  Its connection's copies are kept here: when it dies of a
 * signal (MLIR crashed) the command gets "BDMX" with the pid of the
 * replacement (its process group, for the time limit), which goes on
 * with the same connection, as a session's next server would. */
static struct {
	pid_t pid;              /* 0: none */
	int ctl;                /* our end of its control socket */
	int conn, err;          /* the command it serves (-1: idle) */
	char crash[4096], hang[4096];
} warm = {0, -1, -1, -1, "", ""};
static int sigpipe_r = -1, sigpipe_w = -1;

/* In a fork that serves: none of the daemon's wake-ups. */
static void
child_of_daemon(int s, int lock)
{
	signal(SIGCHLD, SIG_DFL);
	close(sigpipe_r);
	close(sigpipe_w);
	close(s);
	close(lock);
}

static void
on_child(int sig)
{
	int e = errno;

	(void)sig;
	(void)!write(sigpipe_w, "c", 1);
	errno = e;
}

/* Start the warm server (false: it could not be). */
static bool
warm_start(int s, int lock, DaemonWarm fn)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return false;
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (!pid) {
		child_of_daemon(s, lock);
		close(sv[0]);
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, O_NONBLOCK); /* our reads never wait */
	warm.pid = pid;
	warm.ctl = sv[0];
	return true;
}

/* Hand connection c (the client's stderr err, its hooks) to the warm
 * server; false: not handed (the caller keeps c and err). */
static bool
warm_hand(int c, int err)
{
	int fds[2] = {c, err};
	char ctl[CMSG_SPACE(sizeof fds)] = {0};
	size_t nc = strlen(warm.crash), nh = strlen(warm.hang);
	char msg[2 * 4096 + 2];
	struct iovec iov = {msg, nc + nh + 2};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
			   .msg_control = ctl, .msg_controllen = sizeof ctl};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	memcpy(msg, warm.crash, nc + 1);
	memcpy(msg + nc + 1, warm.hang, nh + 1);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof fds);
	memcpy(CMSG_DATA(cm), fds, sizeof fds);
	if (sendmsg(warm.ctl, &m, MSG_NOSIGNAL) != (ssize_t)iov.iov_len)
		return false;
	warm.conn = c;
	warm.err = err;
	return true;
}

bool
daemon_take(int ctl, int *conn, int *err, char *crash, char *hang,
	    size_t size)
{
	int fds[2];
	char buf[2 * 4096 + 2], cbuf[CMSG_SPACE(sizeof fds)];
	struct iovec iov = {buf, sizeof buf};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
			   .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	struct cmsghdr *cm;
	ssize_t k;

	do
		k = recvmsg(ctl, &m, MSG_CMSG_CLOEXEC);
	while (k < 0 && errno == EINTR);
	cm = k > 0 ? CMSG_FIRSTHDR(&m) : NULL;
	if (!cm || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(sizeof fds))
		return false;
	memcpy(fds, CMSG_DATA(cm), sizeof fds);
	*conn = fds[0];
	*err = fds[1];
	size_t nc = strnlen(buf, (size_t)k);
	size_t nh = nc < (size_t)k ? strnlen(buf + nc + 1, (size_t)k - nc - 1) : 0;
	if (nc >= size || nh >= size || nc + 1 + nh >= (size_t)k) {
		close(*conn);
		close(*err);
		return false;
	}
	memcpy(crash, buf, nc + 1);
	memcpy(hang, buf + nc + 1, nh);
	hang[nh] = 0;
	return true;
}

static void
warm_release(void)
{
	if (warm.conn >= 0)
		close(warm.conn);
	if (warm.err >= 0)
		close(warm.err);
	warm.conn = warm.err = -1;
}

/* The warm server ended (wait status st): its command, if any, is told
 * and goes on with a replacement when it died of a signal. */
static void
warm_died(int st, int s, int lock, DaemonWarm fn)
{
	close(warm.ctl);
	warm.ctl = -1;
	warm.pid = 0;
	if (warm.conn < 0)
		return;
	int c = warm.conn, err = warm.err;
	warm.conn = warm.err = -1;
	if (WIFSIGNALED(st) && warm_start(s, lock, fn)) {
		Ans a = {{'B', 'D', 'M', 'X'}, WTERMSIG(st), (uint64_t)warm.pid, 0,
			 {0}};
		if (write_all(c, &a, sizeof a) && warm_hand(c, err))
			return;
	}
	close(c);
	close(err);
}

/* Serve connection c: a command of our own user, given to the warm
 * server when it is idle, else to a session of its own (forked). */
static void
accept_one(int c, int s, int lock, DaemonSession fn, DaemonWarm wfn)
{
	struct ucred cr;
	socklen_t n = sizeof cr;
	char crash[4096], hang[4096];
	int err;
	pid_t pid;

	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &n) || cr.uid != getuid())
		goto done;
	/* a client that says nothing must not stop the others */
	struct timeval tv = {5, 0};
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (!recv_hello(c, &err, crash, hang, sizeof crash))
		goto done;
	tv.tv_sec = 0;
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (warm.conn < 0 && (warm.pid || warm_start(s, lock, wfn))) {
		HelloAns a = {{'B', 'D', 'M', 'W'}, (int32_t)warm.pid};
		memcpy(warm.crash, crash, sizeof crash);
		memcpy(warm.hang, hang, sizeof hang);
		if (write_all(c, &a, sizeof a) && warm_hand(c, err))
			return; /* c and err kept until it is done */
		close(err);
		goto done;
	}
	if ((pid = fork()) == 0) {
		child_of_daemon(s, lock);
		if (warm.ctl >= 0)
			close(warm.ctl);
		fn(c, err, crash, hang);
		_exit(0);
	}
	close(err);
done:
	close(c);
}

/* The socket file is still ours (ino): removed or replaced ends us. */
static bool
still_ours(const char *path, ino_t ino)
{
	struct stat st;

	return !lstat(path, &st) && st.st_ino == ino;
}

int
daemon_main(const char *path, int ready, int idle, DaemonSession fn,
	    DaemonWarm wfn)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char lockpath[PATH_MAX];
	struct stat st;
	double last;
	int s, lock, sp[2];

	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (strlen(path) >= sizeof a.sun_path ||
	    snprintf(lockpath, sizeof lockpath, "%s.lock", path) >=
	    (int)sizeof lockpath || pipe2(sp, O_CLOEXEC | O_NONBLOCK))
		return 2;
	sigpipe_r = sp[0];
	sigpipe_w = sp[1];
	signal(SIGCHLD, on_child);
	memcpy(a.sun_path, path, strlen(path) + 1);
	lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB)) {
		/* another daemon has the path: the client connects to it */
		(void)!write(ready, "b", 1);
		return 0;
	}
	unlink(path); /* a dead daemon's */
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) ||
	    listen(s, 64) || lstat(path, &st)) {
		(void)!write(ready, "e", 1);
		return 1;
	}
	(void)!write(ready, "r", 1);
	close(ready);
	last = now_s();
	while (still_ours(path, st.st_ino) &&
	       (warm.conn >= 0 || now_s() - last < idle)) {
		struct pollfd p[3] = {{s, POLLIN, 0}, {sp[0], POLLIN, 0},
				      {warm.ctl, POLLIN, 0}};
		char b[64];
		int ws;
		pid_t pid;
		if (poll(p, warm.ctl >= 0 ? 3 : 2, 1000) < 0 && errno != EINTR)
			break;
		while (read(sp[0], b, sizeof b) > 0)
			;
		while ((pid = waitpid(-1, &ws, WNOHANG)) > 0)
			if (pid == warm.pid) /* else a session that ended */
				warm_died(ws, s, lock, wfn);
		if (warm.ctl >= 0 && warm.ctl == p[2].fd &&
		    (p[2].revents & POLLIN) && read(warm.ctl, b, 1) == 1)
			warm_release(); /* its command ended */
		if (p[0].revents & POLLIN) {
			int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
			if (c >= 0)
				accept_one(c, s, lock, fn, wfn);
			last = now_s();
		}
	}
	if (still_ours(path, st.st_ino))
		unlink(path);
	if (warm.pid)
		kill(warm.pid, SIGKILL);
	return 0;
}
