/* diag.c: errors as values, printed chibicc-style with the source line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "ir.h"

int
diag_set(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return -1;
	d->loc = loc;
	va_start(ap, fmt);
	fmt_vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	if (!strcmp(d->msg, "out of memory") && mem_refused())
		fmt_snprintf(d->msg, sizeof d->msg, "memory limit of %lld bytes "
			 "reached (all the process holds: data, tensors, "
			 "shadows, reports; --max-memory)",
			 (long long)mem_limit_bytes());
	return -1;
}

void
ir_bug(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("bufdiff: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The 1-based line `line` of text, as pointer + length. */
static const char *
find_line(const char *text, int line, int *len)
{
	const char *p = text, *e;

	for (int l = 1; l < line && *p; l++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	e = strchr(p, '\n');
	*len = e ? (int)(e - p) : (int)strlen(p);
	return p;
}

/* At most DIAG_WIDTH columns of the line around col, "..." where cut (a
 * 10 MB line is not repeated whole); control characters other than tab
 * and DEL print as '?' so a file cannot send escapes to the terminal (one
 * byte for one, so that the caret stays under its column). */
enum { DIAG_WIDTH = 160 };

static void
put_window(FILE *out, const char *src, int len, int col)
{
	int from = 0, to = len;

	if (len > DIAG_WIDTH) {
		from = col - 1 - DIAG_WIDTH / 2;
		from = from < 0 ? 0 : from > len - DIAG_WIDTH ? len - DIAG_WIDTH : from;
		to = from + DIAG_WIDTH;
	}
	fputs(from ? "..." : "", out);
	for (int i = from; i < to; i++)
		fputc(((unsigned char)src[i] < 0x20 && src[i] != '\t') ||
		      src[i] == 0x7f ? '?' : src[i], out);
	fputs(to < len ? "...\n" : "\n", out);
	if (from)
		fputs("   ", out);
	for (int c = from + 1; c < col && c <= to; c++)
		fputc(src[c - 1] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

void
diag_print(void *outp, const char *file, const char *text, const Diag *d)
{
	FILE *out = outp;
	const char *src = NULL;
	int len = 0;

	/* the file's name and the message may quote anything: escaped */
	if (d->loc.line <= 0) { /* the file as a whole: no line to show */
		term_fprintf(out, "%s: error: %s\n", file ? file : "<input>",
			     d->msg);
		return;
	}
	term_fprintf(out, "%s:%d:%d: error: %s\n", file ? file : "<input>",
		     d->loc.line, d->loc.col, d->msg);
	if (text && d->loc.line > 0)
		src = find_line(text, d->loc.line, &len);
	if (!src)
		return;
	if (len > 0 && src[len - 1] == '\r')
		len--;
	put_window(out, src, len, d->loc.col);
}
