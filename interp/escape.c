/*
 * escape.c: the one place where text bound for a YAML file, a shell line,
 * a terminal, an XML or HTML page or a file name is escaped for it
 * (escape.h; docs/format.md §3, "Escaping").  Names, paths, strategy
 * specs, messages and a tool's stderr come from outside: a case file, a
 * directory listing, a tool; none of them may add a YAML key, run a
 * command, move the cursor, open a tag or leave the output directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

/* ---------------------------------------------------------------- UTF-8 */

/* The length of the UTF-8 sequence at s (n bytes left) with its code
 * point in *cp, or 0 when the bytes there are not UTF-8 (overlong forms
 * and surrogates included). */
static int
utf8_dec(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	uint32_t v, min;
	int len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, v = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, v = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, v = c & 0x07, min = 0x10000;
	else
		return 0;
	if ((size_t)len > n)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* A code point a terminal acts on or a reader misreads: C0 and C1
 * controls, DEL, the bidi embeddings, overrides and isolates (text shown
 * in another order than it is), line and paragraph separators, the byte
 * order mark and the noncharacters U+FFFE, U+FFFF. */
static bool
cp_hostile(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029 || cp == 0xfeff || cp == 0xfffe ||
	       cp == 0xffff;
}

/* `\n` `\r` `\t`, else `\xNN` (ASCII) or `\uNNNN` (a byte that is not
 * UTF-8 is `\xNN` with NN above 7f). */
static void
put_c_escape(Str *b, uint32_t cp)
{
	if (cp == '\n')
		str_puts(b, "\\n");
	else if (cp == '\r')
		str_puts(b, "\\r");
	else if (cp == '\t')
		str_puts(b, "\\t");
	else if (cp < 0x80)
		str_printf(b, "\\x%02x", (unsigned)cp);
	else
		str_printf(b, "\\u%04x", (unsigned)cp);
}

/* ----------------------------------------------------------------- YAML */

void
yaml_quoted(Str *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	str_puts(b, "\"");
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_dec(u + i, n - i, &cp);
		const char *e = NULL;

		if (!k) { /* not UTF-8: a YAML string holds none; \xNN is U+00NN */
			str_printf(b, "\\x%02x", u[i++]);
			continue;
		}
		switch (cp) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case 0: e = "\\0"; break;
		case '\a': e = "\\a"; break;
		case '\b': e = "\\b"; break;
		case '\t': e = "\\t"; break;
		case '\n': e = "\\n"; break;
		case '\v': e = "\\v"; break;
		case '\f': e = "\\f"; break;
		case '\r': e = "\\r"; break;
		case 0x1b: e = "\\e"; break;
		case 0x85: e = "\\N"; break;
		case 0x2028: e = "\\L"; break;
		case 0x2029: e = "\\P"; break;
		}
		if (e)
			str_puts(b, e);
		else if (cp_hostile(cp))
			str_printf(b, cp < 0x100 ? "\\x%02x" : "\\u%04x",
				   (unsigned)cp);
		else
			str_put(b, s + i, (size_t)k);
		i += (size_t)k;
	}
	str_puts(b, "\"");
}

bool
yaml_plain_ok(const char *s, size_t n)
{
	/* YAML 1.1 and 1.2 read these plain scalars as booleans and nulls */
	static const char *const words[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null",
	};
	char low[8];

	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
		    s[0] == '_'))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/' ||
		      c == '-'))
			return false;
	}
	if (n >= sizeof low)
		return true;
	for (size_t i = 0; i < n; i++)
		low[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
	low[n] = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcmp(low, words[i]))
			return false;
	return true;
}

void
yaml_scalar_n(Str *b, const char *s, size_t n)
{
	if (yaml_plain_ok(s, n))
		str_put(b, s, n);
	else
		yaml_quoted(b, s, n);
}

void
yaml_scalar(Str *b, const char *s)
{
	yaml_scalar_n(b, s ? s : "", s ? strlen(s) : 0);
}

/* ---------------------------------------------------------------- shell */

static bool
sh_safe(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c);
}

/* Single quotes keep every byte but `'` as it is; `'` is written '\'',
 * a newline stays in the quotes (sh reads it back), and what a terminal
 * would act on is made by printf at run time, "$(printf '\033')", so
 * that the printed line shows no raw control byte. */
void
sh_word(Str *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i;

	for (i = 0; i < n && s[i] && sh_safe(s[i]); i++)
		;
	if (n && i == n) {
		str_put(b, s, n);
		return;
	}
	str_puts(b, "'");
	for (i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_dec(u + i, n - i, &cp);

		if (k && cp == '\'') {
			str_puts(b, "'\\''");
		} else if (k && (cp == '\n' || !cp_hostile(cp))) {
			str_put(b, s + i, (size_t)k);
		} else {
			k = k ? k : 1;
			str_puts(b, "'\"$(printf '");
			for (int j = 0; j < k; j++)
				str_printf(b, "\\%03o", u[i + (size_t)j]);
			str_puts(b, "')\"'");
		}
		i += (size_t)k;
	}
	str_puts(b, "'");
}

/* ------------------------------------------------------------- terminal */

void
term_escape(Str *b, const char *s, size_t n, bool lines)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, from = 0;

	while (i < n) {
		uint32_t cp;
		int k = utf8_dec(u + i, n - i, &cp);

		if (k && (!cp_hostile(cp) ||
			  (lines && (cp == '\n' || cp == '\t')))) {
			i += (size_t)k;
			continue;
		}
		str_put(b, s + from, i - from);
		if (k)
			put_c_escape(b, cp);
		else
			str_printf(b, "\\x%02x", u[i]);
		i += k ? (size_t)k : 1;
		from = i;
	}
	str_put(b, s + from, n - from);
}

static void
term_put(FILE *f, const char *s, bool lines)
{
	Str b = {0};

	s = s ? s : "";
	term_escape(&b, s, strlen(s), lines);
	if (b.s)
		fwrite(b.s, 1, b.len, f);
	str_free(&b);
}

void
term_fputs(FILE *f, const char *s)
{
	term_put(f, s, false);
}

void
term_fputs_lines(FILE *f, const char *s)
{
	term_put(f, s, true);
}

/* One conversion of a printf format: the spec rebuilt with `*` replaced
 * by its number, and the argument fetched by type; %s arguments are
 * term_escape'd (a precision cuts the input, a width pads the output). */
static void
term_vformat(Str *b, const char *fmt, va_list ap)
{
	const char *p = fmt;

	while (*p) {
		char spec[64], lenmod[3] = "";
		size_t sn = 0, k = strcspn(p, "%");
		long width = -1, prec = -1;
		bool left = false;
		char conv;

		str_put(b, p, k);
		p += k;
		if (!*p)
			break;
		spec[sn++] = *p++;
		while (*p && strchr("-+ #0", *p)) {
			left |= *p == '-';
			if (sn < 8)
				spec[sn++] = *p;
			p++;
		}
		if (*p == '*') {
			width = va_arg(ap, int);
			p++;
		} else if (*p >= '0' && *p <= '9') {
			width = 0;
			while (*p >= '0' && *p <= '9')
				width = width * 10 + (*p++ - '0');
		}
		if (width < 0 && width != -1)
			left = true, width = -width, spec[sn++] = '-';
		if (*p == '.') {
			p++;
			prec = 0;
			if (*p == '*') {
				int v = va_arg(ap, int);
				prec = v < 0 ? -1 : v;
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					prec = prec * 10 + (*p++ - '0');
			}
		}
		for (int i = 0; i < 2 && *p && strchr("hlzjtL", *p); i++)
			lenmod[i] = *p++;
		conv = *p ? *p++ : 0;
		if (width >= 0)
			sn += (size_t)fmt_snprintf(spec + sn, sizeof spec - sn,
						   "%ld", width);
		if (prec >= 0)
			sn += (size_t)fmt_snprintf(spec + sn, sizeof spec - sn,
						   ".%ld", prec);
		sn += (size_t)fmt_snprintf(spec + sn, sizeof spec - sn, "%s%c",
					   lenmod, conv);
		switch (conv) {
		case '%':
			str_puts(b, "%");
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			Str e = {0};
			size_t n;

			s = s ? s : "(null)";
			n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
			term_escape(&e, s, n, false);
			if (!left)
				for (long w = (long)e.len; w < width; w++)
					str_puts(b, " ");
			str_put(b, e.s ? e.s : "", e.len);
			if (left)
				for (long w = (long)e.len; w < width; w++)
					str_puts(b, " ");
			if (e.oom)
				b->oom = true;
			str_free(&e);
			break;
		}
		case 'd': case 'i': case 'c':
			if (!strcmp(lenmod, "l"))
				str_printf(b, spec, va_arg(ap, long));
			else if (!strcmp(lenmod, "ll"))
				str_printf(b, spec, va_arg(ap, long long));
			else if (lenmod[0] == 'z')
				str_printf(b, spec, va_arg(ap, size_t));
			else if (lenmod[0] == 'j')
				str_printf(b, spec, va_arg(ap, intmax_t));
			else if (lenmod[0] == 't')
				str_printf(b, spec, va_arg(ap, ptrdiff_t));
			else
				str_printf(b, spec, va_arg(ap, int));
			break;
		case 'u': case 'x': case 'X': case 'o':
			if (!strcmp(lenmod, "l"))
				str_printf(b, spec, va_arg(ap, unsigned long));
			else if (!strcmp(lenmod, "ll"))
				str_printf(b, spec, va_arg(ap, unsigned long long));
			else if (lenmod[0] == 'z')
				str_printf(b, spec, va_arg(ap, size_t));
			else if (lenmod[0] == 'j')
				str_printf(b, spec, va_arg(ap, uintmax_t));
			else if (lenmod[0] == 't')
				str_printf(b, spec, va_arg(ap, ptrdiff_t));
			else
				str_printf(b, spec, va_arg(ap, unsigned));
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
		case 'a': case 'A':
			if (lenmod[0] == 'L')
				str_printf(b, spec, va_arg(ap, long double));
			else
				str_printf(b, spec, va_arg(ap, double));
			break;
		case 'p':
			str_printf(b, spec, va_arg(ap, void *));
			break;
		default: /* %n and unknown ones (bufdiff uses none): as written */
			str_puts(b, spec);
		}
	}
}

int
term_fprintf(FILE *f, const char *fmt, ...)
{
	Str b = {0};
	va_list ap;
	int rc = 0;

	va_start(ap, fmt);
	term_vformat(&b, fmt, ap);
	va_end(ap);
	if (b.len && fwrite(b.s, 1, b.len, f) != b.len)
		rc = -1;
	rc = rc ? rc : (int)b.len;
	str_free(&b);
	return rc;
}

void
term_printf(Str *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	term_vformat(b, fmt, ap);
	va_end(ap);
}

int
term_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	Str b = {0};
	va_list ap;
	int len;

	va_start(ap, fmt);
	term_vformat(&b, fmt, ap);
	va_end(ap);
	len = (int)b.len;
	if (n)
		fmt_snprintf(buf, n, "%s", b.s && !b.oom ? b.s : "");
	str_free(&b);
	return len;
}

/* ------------------------------------------------------------- XML/HTML */

void
xml_escape(Str *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_dec(u + i, n - i, &cp);
		const char *e = NULL;

		if (!k) { /* not UTF-8: no XML character */
			str_printf(b, "\\x%02x", u[i++]);
			continue;
		}
		switch (cp) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		case '\n': e = "&#10;"; break;
		case '\r': e = "&#13;"; break;
		case '\t': e = "&#9;"; break;
		}
		if (e)
			str_puts(b, e);
		else if (cp_hostile(cp)) /* XML 1.0 forbids most, shown */
			put_c_escape(b, cp);
		else
			str_put(b, s + i, (size_t)k);
		i += (size_t)k;
	}
}

void
xml_fputs(FILE *f, const char *s)
{
	Str b = {0};

	s = s ? s : "";
	xml_escape(&b, s, strlen(s));
	if (b.s)
		fwrite(b.s, 1, b.len, f);
	str_free(&b);
}

/* ----------------------------------------------------------- file names */

const char *
safe_file_name(const char *s, size_t n, char *buf, size_t cap)
{
	size_t k = 0, max = cap ? cap - 1 : 0;

	if (max > 200)
		max = 200;
	for (size_t i = 0; i < n && k < max; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '+' ||
			  ((c == '.' || c == '-') && k > 0);
		buf[k++] = ok ? c : '_';
	}
	if (!k && max)
		buf[k++] = '_';
	if (cap)
		buf[k] = 0;
	return buf;
}
