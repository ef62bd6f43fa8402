/*
 * session.c: every process of an outside tool, ended with its call.
 *
 * tool.c starts a tool as the leader of a new session (POSIX_SPAWN_SETSID):
 * its session and process group ids are its pid.  Killing that group is
 * not enough: a descendant may call setsid() itself (a daemon, `setsid cmd
 * &`) and leave both, and a double fork hands it to init.  Of the ways to
 * contain a tree of processes we chose tracking descendants through /proc,
 * as this process's child subreaper:
 *   - a cgroup (kill all, or cgroup.kill) would be exact, but a writable
 *     one is rare for an unprivileged user (containers, CI runners);
 *   - a PID namespace needs privileges or user namespaces, often disabled;
 *   - PR_SET_CHILD_SUBREAPER (Linux 3.4) and /proc need neither.  As a
 *     subreaper, this process adopts every orphaned descendant of its tools
 *     (the daemon's parent exits: the daemon becomes our child, not init's),
 *     so no descendant leaves the tree we can see.
 * session_end kills, scan after scan of /proc until a scan finds none, every
 * process that
 *   - is in the tool's session or process group, or
 *   - has for parent the tool or a process killed here, or
 *   - is a child of ours that was not one when the tool started (an
 *     orphan we adopted),
 * and reaps the adopted ones.  A process forking as fast as it can is
 * caught too: a killed parent's new children are adopted by us, and the
 * next scan kills them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mlir.h"

/* One process as /proc/PID/stat tells it. */
typedef struct Proc {
	pid_t pid, ppid, pgid, sid;
	char state;
} Proc;

/* Read /proc/PID/stat: false when it is gone.  The command name is in
 * parentheses and may hold anything, ')' too: the fields follow the last
 * ')'. */
static bool
proc_read(pid_t pid, Proc *p)
{
	char path[64], buf[512], *q;
	int fd, ppid, pgid, sid;
	ssize_t n;

	fmt_snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	if (!(q = strrchr(buf, ')')) ||
	    sscanf(q + 1, " %c %d %d %d", &p->state, &ppid, &pgid, &sid) != 4)
		return false;
	p->pid = pid;
	p->ppid = ppid;
	p->pgid = pgid;
	p->sid = sid;
	return true;
}

/* Our children now, from /proc/self/task/TID/children (each thread's),
 * up to `cap`; the number found. */
static int
children(pid_t *out, int cap)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300];
		FILE *f;
		long pid;
		if (e->d_name[0] == '.')
			continue;
		fmt_snprintf(path, sizeof path, "/proc/self/task/%s/children",
			     e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		while (n < cap && fscanf(f, "%ld", &pid) == 1)
			out[n++] = (pid_t)pid;
		fclose(f);
	}
	closedir(d);
	return n;
}

void
session_begin(Session *s)
{
	static pid_t subreaper; /* the process that is one (not a fork of it) */

	if (subreaper != getpid()) {
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
		subreaper = getpid();
	}
	s->leader = 0;
	s->nbefore = children(s->before, SESSION_BEFORE);
	s->killed = 0;
}

static bool
has(const pid_t *v, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* Is p one of the tool's?  `marked` are the pids killed so far. */
static bool
is_tools(const Session *s, const Proc *p, pid_t self, const pid_t *marked,
	 int nmarked)
{
	if (p->pid == self)
		return false;
	if (p->pid == s->leader || p->sid == s->leader || p->pgid == s->leader)
		return true;
	if (p->ppid == s->leader || has(marked, nmarked, p->ppid))
		return true;
	return p->ppid == self && !has(s->before, s->nbefore, p->pid);
}

/* One scan of /proc: kill the tool's live processes, reap the dead ones
 * adopted by us.  The number of processes it acted on. */
static int
sweep(Session *s, pid_t *marked, int *nmarked, int cap)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int acted = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		Proc p;
		if (*end || pid <= 0 || !proc_read((pid_t)pid, &p) ||
		    !is_tools(s, &p, self, marked, *nmarked))
			continue;
		if (p.pid == s->leader) {
			/* tool.c reaps it: until it is a zombie (its fds
			 * closed), kill it */
			if (p.state != 'Z' && p.state != 'X') {
				kill(p.pid, SIGKILL);
				acted++;
			}
			continue;
		}
		if (p.state == 'Z') {
			/* ours to reap; another's parent reaps it (or dies,
			 * and the next scan finds it ours) */
			if (p.ppid == self &&
			    waitpid(p.pid, NULL, WNOHANG) == p.pid)
				acted++;
			continue;
		}
		kill(p.pid, SIGKILL);
		s->killed++;
		acted++;
		if (*nmarked < cap && !has(marked, *nmarked, p.pid))
			marked[(*nmarked)++] = p.pid;
	}
	closedir(d);
	return acted;
}

/* Has the leader exited (a zombie, not reaped)? */
static bool
leader_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	return !waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == pid;
}

/* Is anything of the tool left, when its leader has exited?  Its live
 * descendants then hang from the orphans we adopted (a process's live
 * children are reparented before it becomes a zombie), and its session
 * holds only descendants: with no new child of ours but the leader,
 * nothing is left, and no scan of /proc is needed (the common case: a
 * scan costs milliseconds on a loaded machine). */
static bool
anything_left(const Session *s)
{
	pid_t now[SESSION_BEFORE];
	int n = children(now, SESSION_BEFORE);

	if (n == SESSION_BEFORE || s->nbefore == SESSION_BEFORE)
		return true; /* cut short: cannot tell */
	for (int i = 0; i < n; i++)
		if (now[i] != s->leader && !has(s->before, s->nbefore, now[i]))
			return true;
	return false;
}

void
session_end(Session *s)
{
	enum { MARKED = 4096 };
	pid_t marked[MARKED];
	int nmarked = 0;
	double give_up = tool_now() + SESSION_GIVE_UP;

	if (s->leader <= 0)
		return;
	kill(-s->leader, SIGKILL); /* most of it at once */
	if (leader_ended(s->leader) && !anything_left(s))
		return;
	/* until a scan finds nothing, or a process will not die (one stuck
	 * in the kernel): SIGKILL ends it when it leaves, it is never ours */
	while (sweep(s, marked, &nmarked, MARKED) && tool_now() < give_up)
		nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
}
