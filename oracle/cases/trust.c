/*
 * trust.c: the trust boundary (docs/trust.md).  A case file, a plan
 * document or an imported file is data: the commands and tool names it
 * holds run only when the user allowed them on the command line, with
 * --allow-exec (any file) or --trust DIR (files under DIR).  The policy
 * is process-wide, set once while the command line is parsed, and inherited
 * by check's worker processes (fork, no exec).
 */
/* realpath is XSI */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cases.h"

enum { MAX_TRUSTED = 64 };

static bool trust_everything;
static char trusted[MAX_TRUSTED][PATH_MAX];
static int ntrusted;

void
trust_all(void)
{
	trust_everything = true;
}

int
trust_dir(const char *dir, char *why, size_t n)
{
	struct stat st;

	if (ntrusted == MAX_TRUSTED) {
		fmt_snprintf(why, n, "--trust: more than %d directories",
			     MAX_TRUSTED);
		return -1;
	}
	/* realpath: `cases`, `./cases/` and a symlink to it name one place,
	 * and a symlink inside it that leads out leads out of the trust */
	if (!realpath(dir, trusted[ntrusted]) || stat(trusted[ntrusted], &st)) {
		fmt_snprintf(why, n, "--trust %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fmt_snprintf(why, n, "--trust %s: not a directory", dir);
		return -1;
	}
	ntrusted++;
	return 0;
}

int
trust_write_repro(const char *path, const char *yaml, const Strategy *s)
{
	const char *cmd = s ? strategy_command(s) : NULL;
	Str b = {0};
	char *text;
	int rc;

	if (!cmd)
		return output_write(path, yaml, strlen(yaml));
	/* the command itself is not repeated here: a newline in it would end
	 * the comment (runs: holds it, quoted) */
	str_puts(&b, "# This case's run names a command or a tool (its strategy); "
		 "bufdiff runs it\n# only with --allow-exec, or --trust DIR for "
		 "a directory that holds this file\n# (docs/trust.md).\n");
	str_puts(&b, yaml);
	if (!(text = str_take(&b))) {
		errno = ENOMEM;
		return -1;
	}
	rc = output_write(path, text, strlen(text));
	mem_free(text);
	return rc;
}

bool
trust_file(const char *file)
{
	char real[PATH_MAX];

	if (trust_everything)
		return true;
	if (!ntrusted || !file || !realpath(file, real))
		return false;
	for (int i = 0; i < ntrusted; i++) {
		size_t n = strlen(trusted[i]);
		/* "/" trusts everything; "/a/b" trusts "/a/b/x", not "/a/bc" */
		if (!strncmp(real, trusted[i], n) &&
		    (real[n] == '/' || (n == 1 && trusted[i][0] == '/')))
			return true;
	}
	return false;
}
