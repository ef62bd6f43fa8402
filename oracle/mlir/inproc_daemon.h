/*
 * inproc_daemon.h: the MLIR worker living across bufdiff commands
 * (BUFDIFF_MLIR_DAEMON=1; docs/external.md "A worker across commands").
 * The daemon's side (inproc_daemon.c, in bufdiff-mlir) and the client's
 * (inproc_connect.c, in bufdiff).
 */
#ifndef BUFDIFF_INPROC_DAEMON_H
#define BUFDIFF_INPROC_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A session for one accepted connection, in a fork of the daemon: conn,
 * the client's stderr pipe, its test hooks ("" when unset). */
typedef void (*DaemonSession)(int conn, int err, const char *crash,
			      const char *hang);

/* The warm server, forked by the daemon: serves the connections the
 * daemon hands it on ctl, one after the other (daemon_take), and writes
 * "d" on ctl when one ends. */
typedef void (*DaemonWarm)(int ctl);

/* The daemon (bufdiff-mlir --daemon): listen on socket path (a lock
 * beside it: one daemon per path), write a byte on fd ready once
 * listening (or when another daemon holds the path), fork a session per
 * connection of our own user, and end after idle seconds without one,
 * or when the socket file is removed or replaced.  Returns the exit
 * status. */
int daemon_main(const char *path, int ready, int idle, DaemonSession fn,
		DaemonWarm warm);
/* The warm server's side: the next connection handed over on ctl (its
 * socket, the client's stderr, its hooks); false when ctl closed. */
bool daemon_take(int ctl, int *conn, int *err, char *crash, char *hang,
		 size_t size);

/* The client (inproc.c): connected to the daemon for worker and module,
 * started when none answers: *fd the session's socket, *pid its process
 * (group), err_w the write end of our stderr pipe for it.  False: no
 * daemon (the caller starts a private worker). */
bool daemon_connect(const char *worker, const char *module, int err_w,
		    int *fd, pid_t *pid);

#endif
