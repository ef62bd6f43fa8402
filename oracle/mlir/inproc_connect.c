/*
 * inproc_connect.c: bufdiff's side of the MLIR daemon (BUFDIFF_MLIR_DAEMON=1,
 * inproc_daemon.c, docs/external.md "A worker across commands"): the
 * socket's private directory and name, starting the daemon when none
 * answers, and the hello that hands it our stderr pipe and test hooks.
 */
#define _GNU_SOURCE /* close_range, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inproc_daemon.h"
#include "inproc_proto.h"

enum { DAEMON_IDLE = 600 }; /* seconds without a command before it ends */

/* The sockets' directory: BUFDIFF_MLIR_DAEMON_DIR, else
 * $XDG_RUNTIME_DIR/bufdiff, else /tmp/bufdiff-UID; made 0700, and used
 * only when it is a directory of ours that nobody else may enter. */
static bool
daemon_dir(char *out, size_t size)
{
	const char *e = getenv("BUFDIFF_MLIR_DAEMON_DIR"),
		   *x = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (e && *e)
		n = snprintf(out, size, "%s", e);
	else if (x && *x == '/')
		n = snprintf(out, size, "%s/bufdiff", x);
	else
		n = snprintf(out, size, "/tmp/bufdiff-%u", (unsigned)getuid());
	if (n < 0 || (size_t)n >= size)
		return false;
	if (mkdir(out, 0700) && errno != EEXIST)
		return false;
	return !lstat(out, &st) && S_ISDIR(st.st_mode) &&
	       st.st_uid == getuid() && !(st.st_mode & 077);
}

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* A daemon per worker and module as they are: their paths, inodes,
 * sizes and times in the name. */
static bool
socket_path(const char *worker, const char *module, char *out, size_t size)
{
	const char *f[2] = {worker, module};
	uint64_t h = 0xcbf29ce484222325ULL;
	char dir[PATH_MAX];
	struct stat st;

	for (int i = 0; i < 2; i++) {
		if (stat(f[i], &st))
			return false;
		h = fnv(h, f[i], strlen(f[i]) + 1);
		h = fnv(h, &st.st_ino, sizeof st.st_ino);
		h = fnv(h, &st.st_size, sizeof st.st_size);
		h = fnv(h, &st.st_mtim, sizeof st.st_mtim);
	}
	if (!daemon_dir(dir, sizeof dir))
		return false;
	int n = snprintf(out, size, "%s/mlir-%016llx.sock", dir,
			 (unsigned long long)h);
	return n > 0 && (size_t)n < size &&
	       (size_t)n < sizeof((struct sockaddr_un *)0)->sun_path;
}

static int
try_connect(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(a.sun_path, path, strlen(path) + 1);
	if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a)) {
		close(s);
		s = -1;
	}
	return s;
}

/* Start the daemon (detached: its own session, no fd of ours but the
 * ready pipe) and wait until it listens (or another one does). */
static void
spawn(const char *worker, const char *module, const char *path)
{
	int rp[2];
	pid_t pid;
	char c;

	if (pipe2(rp, O_CLOEXEC))
		return;
	if ((pid = fork()) == 0) {
		sigset_t none;
		int null = open("/dev/null", O_RDWR);
		char idle[16];
		setsid();
		if (fork())
			_exit(0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		dup2(rp[1], 3);
		close_range(4, ~0U, 0);
		umask(077);
		snprintf(idle, sizeof idle, "%d", DAEMON_IDLE);
		execl(worker, "bufdiff-mlir", "--daemon", path, module, "3", idle,
		      (char *)NULL);
		_exit(127);
	}
	close(rp[1]);
	if (pid > 0) {
		struct pollfd p = {rp[0], POLLIN, 0};
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		/* loading libMLIR: seconds on a busy machine */
		if (poll(&p, 1, 60000) > 0)
			(void)!read(rp[0], &c, 1);
	}
	close(rp[0]);
}

/* Our hello, with err_w and the test hooks; the session's pid back. */
static bool
hello(int s, int err_w, pid_t *pid)
{
	const char *crash = getenv("BUFDIFF_INPROC_CRASH"),
		   *hang = getenv("BUFDIFF_INPROC_HANG");
	Hello h = {{'B', 'D', 'M', 'H'}, HELLO_VERSION,
		   crash ? (uint32_t)strlen(crash) : 0,
		   hang ? (uint32_t)strlen(hang) : 0};
	char ctl[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec iov = {&h, sizeof h};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
			   .msg_control = ctl, .msg_controllen = sizeof ctl};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	struct pollfd p = {s, POLLIN, 0};
	HelloAns a;

	if (h.ncrash >= 4096 || h.nhang >= 4096)
		return false;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &err_w, sizeof(int));
	if (sendmsg(s, &m, MSG_NOSIGNAL) != (ssize_t)sizeof h ||
	    !write_all(s, crash ? crash : "", h.ncrash) ||
	    !write_all(s, hang ? hang : "", h.nhang))
		return false;
	if (poll(&p, 1, 30000) <= 0 || !read_all(s, &a, sizeof a) ||
	    memcmp(a.magic, "BDMW", 4) || a.pid <= 1)
		return false;
	*pid = a.pid;
	return true;
}

bool
daemon_connect(const char *worker, const char *module, int err_w, int *fd,
	       pid_t *pid)
{
	char path[PATH_MAX];
	int s;

	if (!socket_path(worker, module, path, sizeof path))
		return false;
	if ((s = try_connect(path)) < 0) {
		spawn(worker, module, path);
		s = try_connect(path);
	}
	if (s < 0)
		return false;
	if (!hello(s, err_w, pid)) {
		close(s);
		return false;
	}
	*fd = s;
	return true;
}
