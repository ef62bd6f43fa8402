/*
 * input.c: reading one input file whole, bounded (issue 24).  Case files,
 * plan documents, fuzz summaries and MLIR files come from other people:
 * only a regular file is read (a FIFO would block for ever, /dev/zero
 * never ends, a socket or a device is no document), and never more than
 * the caller's limit.  The file is opened non-blocking so that a FIFO is
 * refused, not waited on; `-` is stdin, bounded too.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"
#include "stop.h"

static const char *
file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : "not a regular file";
}

/* fd's bytes, at most max of them, into a NUL-terminated buffer. */
static char *
read_bounded(int fd, const char *name, size_t max, const char *what,
	     size_t *len, Diag *d)
{
	size_t cap = 65536, n = 0;
	char *buf = mem_alloc(cap + 1), *nb;
	ssize_t got;

	while (buf) {
		if (n == cap) {
			if (cap > max) /* read one byte past max: over the limit */
				break;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			if (!(nb = mem_realloc(buf, cap + 1))) {
				mem_free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n);
		/* a signal (stop.h) ends a read of stdin that waits on a
		 * terminal or a pipe: the command stops as asked */
		if (got < 0 && errno == EINTR && !stop_signal())
			continue;
		if (got < 0) {
			diag_set(d, (Loc){0, 0}, "cannot read %s: %s", name,
				 strerror(errno));
			mem_free(buf);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (!buf) {
		diag_set(d, (Loc){0, 0}, "out of memory reading %s", name);
		return NULL;
	}
	if (n > max) {
		diag_set(d, (Loc){0, 0}, "%s is larger than %zu bytes, the limit "
			 "for %s", name, max, what);
		mem_free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

char *
input_read(const char *path, size_t max, const char *what, size_t *len,
	   Diag *d)
{
	struct stat st;
	char *text;
	int fd, err;

	if (!strcmp(path, "-"))
		return read_bounded(0, "stdin", max, what, len, d);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	err = errno;
	/* a socket does not open (ENXIO): say what it is all the same */
	if ((fd < 0 && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    (fd >= 0 && !fstat(fd, &st) && !S_ISREG(st.st_mode))) {
		diag_set(d, (Loc){0, 0}, "%s is %s: bufdiff reads %s only from "
			 "a regular file (or `-`, stdin)", path,
			 file_kind(st.st_mode), what);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (fd < 0) {
		diag_set(d, (Loc){0, 0}, "cannot open %s: %s", path,
			 strerror(err));
		return NULL;
	}
	/* a regular file never blocks; the flag only mattered for open */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	text = read_bounded(fd, path, max, what, len, d);
	close(fd);
	return text;
}
