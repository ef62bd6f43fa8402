/*
 * tool_keep.c: `--keep-tool-io DIR` (docs/external.md "Keeping a tool's
 * input and output").  Every tool_call leaves four files in DIR, named
 * NNNN-LABEL (a counter, then the case's name through safe_file_name):
 * .in what it read on stdin, .sh a shell script that replays the call
 * (the same directory, environment entry and command, the .in on its
 * stdin), .out and .err what it wrote.  `sh DIR/0001-x.sh` prints the
 * call's stdout again.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "cases.h"
#include "mlir.h"

/* A setting of the process, like the trust directories: given once by
 * the command line, read by every call. */
static char keep_dir[PATH_MAX];
static char keep_label[200] = "call";
static int keep_count;

int
tool_keep_dir(const char *dir, char *why, size_t n)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fmt_snprintf(why, n, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!realpath(dir, keep_dir)) {
		fmt_snprintf(why, n, "%s: %s", dir, strerror(errno));
		keep_dir[0] = 0;
		return -1;
	}
	return 0;
}

void
tool_keep_label(const char *label)
{
	char buf[sizeof keep_label];

	safe_file_name(label, strlen(label), buf, sizeof buf);
	fmt_snprintf(keep_label, sizeof keep_label, "%s", buf);
}

/* DIR/NNNN-LABEL.EXT into path; -1 when too long. */
static int
keep_path(char *path, size_t n, const char *ext)
{
	return fmt_snprintf(path, n, "%s/%04d-%s.%s", keep_dir, keep_count,
			    keep_label, ext) < (int)n ? 0 : -1;
}

static void
keep_file(const char *ext, const char *text, size_t len)
{
	char path[PATH_MAX + 256];

	if (keep_path(path, sizeof path, ext) ||
	    output_write(path, text ? text : "", text ? len : 0))
		term_fprintf(stderr, "bufdiff: --keep-tool-io: cannot write "
			     "%s: %s\n", path, strerror(errno));
}

/* The replay script: `cd CWD && [BUFDIFF_ENTRY=E] [BUFDIFF_BATCH=M] exec
 * /bin/sh -c CMD <IN`, every word from outside through sh_word. */
static void
keep_script(const ToolCall *c, const ToolResult *r)
{
	char in[PATH_MAX + 256], cwd[PATH_MAX], st[120];
	const char *entry = getenv("BUFDIFF_ENTRY");
	const char *batch = getenv("BUFDIFF_BATCH"); /* exec_batch.c's calls */
	Str b = {0};

	if (keep_path(in, sizeof in, "in") || !getcwd(cwd, sizeof cwd))
		return;
	str_printf(&b, "#!/bin/sh\n# bufdiff --keep-tool-io: call %d (%s): "
		   "%s after %.3f s\n# its stdout: %04d-%s.out, its stderr: "
		   "%04d-%s.err\ncd ", keep_count, keep_label,
		   tool_status_str(r, st, sizeof st), r->seconds, keep_count,
		   keep_label, keep_count, keep_label);
	sh_word(&b, cwd);
	str_puts(&b, " || exit\n");
	if (entry) {
		str_puts(&b, "BUFDIFF_ENTRY=");
		sh_word(&b, entry);
		str_puts(&b, " ");
	}
	if (batch) {
		str_puts(&b, "BUFDIFF_BATCH=");
		sh_word(&b, batch);
		str_puts(&b, " ");
	}
	str_puts(&b, "exec /bin/sh -c ");
	sh_word(&b, c->cmd);
	str_puts(&b, " <");
	sh_word(&b, in);
	str_puts(&b, "\n");
	keep_file("sh", b.s, b.oom ? 0 : b.len);
	str_free(&b);
}

void
tool_keep(const ToolCall *c, const ToolResult *r)
{
	if (!keep_dir[0])
		return;
	keep_count++;
	keep_file("in", c->in, c->in ? c->nin : 0);
	keep_script(c, r);
	keep_file("out", r->out, r->nout);
	keep_file("err", r->err, r->nerr);
}
