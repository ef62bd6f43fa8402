/* diag.c: errors as values, printed chibicc-style with the source line. */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"

int
diag_set(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return -1;
	d->loc = loc;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	return -1;
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

void
diag_print(void *outp, const char *file, const char *text, const Diag *d)
{
	FILE *out = outp;
	const char *src = NULL;
	int len = 0;

	fprintf(out, "%s:%d:%d: error: %s\n", file ? file : "<input>",
		d->loc.line, d->loc.col, d->msg);
	if (text && d->loc.line > 0)
		src = find_line(text, d->loc.line, &len);
	if (!src)
		return;
	if (len > 0 && src[len - 1] == '\r')
		len--;
	fprintf(out, "%.*s\n", len, src);
	for (int c = 1; c < d->loc.col && c <= len; c++)
		fputc(src[c - 1] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}
