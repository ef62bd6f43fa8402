/*
 * output.c: writing one output file whole, checked and atomic (issue 24).
 * A failed write (a full disk, a file size limit) is an error the caller
 * reports with the path and errno, never exit 0 with an empty file; and a
 * regular file is written under a temporary name in its directory and
 * renamed over the path only once complete, so a reader (or a crash, or a
 * full disk) never sees half of a repro, a page or a report.  A path that
 * exists and is not a regular file (/dev/null, /dev/stdout, a FIFO) is
 * written in place: renaming over a device would replace it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"

FILE *
output_open(Output *o, const char *path)
{
	struct stat st;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof *o);
	o->path = path;
	if (!path)
		return o->f = stdout;
	if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    fmt_snprintf(o->tmp, sizeof o->tmp, "%s.tmp-XXXXXX", path) >=
	    (int)sizeof o->tmp)
		return o->f = fopen(path, "w");
	if ((fd = mkstemp(o->tmp)) < 0) {
		o->tmp[0] = 0;
		return NULL;
	}
	/* mkstemp makes 0600; an output is as readable as fopen's would be */
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		errno = e;
	}
	return o->f;
}

int
output_close(Output *o)
{
	int err = 0;

	if (!o->f)
		return 0;
	if (fflush(o->f))
		err = errno;
	else if (ferror(o->f))
		err = EIO;
	if (o->f != stdout && fclose(o->f) && !err)
		err = errno;
	if (o->f == stdout && err)
		clearerr(stdout); /* the caller says it: main need not again */
	o->f = NULL;
	if (o->tmp[0]) {
		if (!err && rename(o->tmp, o->path))
			err = errno;
		if (err)
			unlink(o->tmp);
	}
	errno = err;
	return err ? -1 : 0;
}

int
output_write(const char *path, const char *text, size_t len)
{
	Output o;
	FILE *f = output_open(&o, path);

	if (!f)
		return -1;
	if (len && fwrite(text, 1, len, f) != len) {
		int e = errno;
		(void)output_close(&o);
		errno = e ? e : EIO;
		/* output_close removed the temporary; the error is the write's */
		return -1;
	}
	return output_close(&o);
}
