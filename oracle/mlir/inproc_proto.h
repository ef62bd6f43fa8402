/*
 * inproc_proto.h: the in-process route's protocol (inproc.c's header
 * comment), shared by bufdiff's side (inproc.c) and the worker
 * (inproc_worker.c): the request and answer headers, and whole reads and
 * writes on the socket.
 */
#ifndef BUFDIFF_INPROC_PROTO_H
#define BUFDIFF_INPROC_PROTO_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

/* All n bytes read into p (out false) or written from it (send: no
 * SIGPIPE), EINTR retried; false at EOF or an error. */
static inline bool
io_all(int fd, void *p, size_t n, bool out)
{
	char *c = p;

	while (n) {
		ssize_t k = out ? send(fd, c, n, MSG_NOSIGNAL) : read(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k, n -= (size_t)k;
	}
	return true;
}

static inline bool
read_all(int fd, void *p, size_t n)
{
	return io_all(fd, p, n, false);
}

static inline bool
write_all(int fd, const void *p, size_t n)
{
	return io_all(fd, (void *)p, n, true);
}

typedef struct Req {
	char magic[4];
	uint32_t npipe, ndir;
	uint64_t nin;
} Req;

typedef struct Ans {
	char magic[4];
	int32_t status;
	uint64_t nout, nerr;
	/* the module's CPU time (its thread's clock) in the parse (and the
	 * verifier after it), the pipeline and the print: 0 when not run,
	 * and in "BDMX" (benches: what MLIR itself costs) */
	uint64_t phase_ns[3];
} Ans;

/* The daemon's (inproc_daemon.c): a client's first message, its stderr
 * pipe's write end passed with it (SCM_RIGHTS), then the two hooks'
 * texts; the answer names the session's process. */
typedef struct Hello {
	char magic[4];          /* "BDMH" */
	uint32_t version;       /* HELLO_VERSION */
	uint32_t ncrash, nhang; /* BUFDIFF_INPROC_CRASH/HANG's bytes */
} Hello;
enum { HELLO_VERSION = 2 }; /* 2: Ans.phase_ns */

typedef struct HelloAns {
	char magic[4];          /* "BDMW" */
	int32_t pid;            /* the session's (its own process group) */
} HelloAns;

#endif
