/* str.c: a growing string for every writer of text (printers, reports,
 * case files).  An append that runs out of memory sets `oom` and later
 * appends do nothing, so a writer checks once at the end. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

void
str_put(Str *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *ns;
		while (cap < b->len + n + 1)
			cap *= 2;
		if (!(ns = mem_realloc(b->s, cap))) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void
str_puts(Str *b, const char *s)
{
	str_put(b, s, strlen(s));
}

/* Any length: a long result is formatted a second time into the heap. */
void
str_printf(Str *b, const char *fmt, ...)
{
	char buf[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof buf) {
		str_put(b, buf, (size_t)n);
		return;
	}
	if (!(big = mem_alloc((size_t)n + 1))) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	str_put(b, big, (size_t)n);
	mem_free(big);
}

/* The text (caller owns it), or NULL when an append ran out of memory. */
char *
str_take(Str *b)
{
	char *s;

	if (b->oom || !b->s) {
		if (!b->oom && (s = mem_strdup("")))
			return s;
		str_free(b);
		return NULL;
	}
	s = b->s;
	memset(b, 0, sizeof *b);
	return s;
}

void
str_free(Str *b)
{
	mem_free(b->s);
	memset(b, 0, sizeof *b);
}

bool
u64_parse(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false; /* strtoull takes "-1" and " 1" */
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*end && errno != ERANGE;
}
