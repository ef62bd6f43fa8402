/*
 * fmt.c: snprintf for the common conversions, byte for byte what glibc
 * prints, without glibc's slow path.
 *
 * Linking OpenBLAS loads libgfortran and with it libquadmath, whose
 * constructor registers printf hooks (the Q modifier for __float128).
 * From then on glibc sends every printf-family call through
 * printf_positional, about 3x slower; fuzzing, which formats names, types
 * and reasons for every program, spent a fifth of its time there.
 * bufdiff calls fmt_snprintf and fmt_vsnprintf (declared in ir.h)
 * instead, which handle %d %i %u %x %X %c %s %p-free formats with the
 * flags - 0 + space, a width (or *) and,
 * for %s, a precision (or .*), with the length modifiers hh h l ll z j t.
 * Any other format (floats, %n, positional arguments, '#', an integer
 * precision) goes to the C library's vsnprintf whole, so every output byte
 * is the C library's.  tests/test_fmt.c compares the two.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir.h"

typedef struct Out {
	char *s;
	size_t cap, len; /* len counts what would be written */
} Out;

/* (most pieces are a few bytes: a loop beats a call of memcpy; the
 * fields in locals, as a char store may alias them) */
static inline void
put(Out *o, const char *p, size_t n)
{
	size_t len = o->len;

	if (len < o->cap) {
		size_t room = o->cap - len, m = n < room ? n : room;
		char *d = o->s + len;
		if (m > 16)
			memcpy(d, p, m);
		else
			for (size_t i = 0; i < m; i++)
				d[i] = p[i];
	}
	o->len = len + n;
}

/* A NUL-terminated string, copied as it is scanned (no strlen first:
 * most are a name or a few words). */
static void
put_str(Out *o, const char *s)
{
	size_t i = 0;

	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		char *d = o->s + o->len;
		for (; s[i] && i < room; i++)
			d[i] = s[i];
	}
	if (s[i])
		i += strlen(s + i);
	o->len += i;
}

static void
pad(Out *o, char c, long n)
{
	char b[32];

	memset(b, c, sizeof b);
	for (; n > 0; n -= (long)sizeof b)
		put(o, b, n < (long)sizeof b ? (size_t)n : sizeof b);
}

/* One conversion's spec. */
typedef struct Spec {
	bool left, zero, plus, space;
	long width;
	long prec;  /* -1: none */
	int len;    /* 0 int, 1 char (hh), 2 short, 3 long, 4 long long,
		       5 size_t, 6 intmax_t, 7 ptrdiff_t */
	char conv;
} Spec;

static void
put_padded(Out *o, const Spec *sp, const char *sign, const char *p, size_t n)
{
	size_t ns = *sign != 0; /* "" or one of "-", "+", " " */
	long fill = sp->width - (long)(n + ns);

	if (!sp->width) { /* the common case: no padding */
		put(o, sign, ns);
		put(o, p, n);
		return;
	}
	if (!sp->left && !sp->zero)
		pad(o, ' ', fill);
	put(o, sign, ns);
	if (!sp->left && sp->zero)
		pad(o, '0', fill);
	put(o, p, n);
	if (sp->left)
		pad(o, ' ', fill);
}

static void
put_int(Out *o, const Spec *sp, bool neg, uintmax_t u)
{
	static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
	const char *dig = sp->conv == 'X' ? up : lo;
	unsigned base = sp->conv == 'x' || sp->conv == 'X' ? 16 : 10;
	char b[32], *e = b + sizeof b, *p = e;
	const char *sign = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";

	do
		*--p = dig[u % base];
	while ((u /= base));
	put_padded(o, sp, sign, p, (size_t)(e - p));
}

/* A signed argument of the spec's length, as sign and magnitude. */
static uintmax_t
arg_signed(va_list *ap, int len, bool *neg)
{
	intmax_t v;

	switch (len) {
	case 1: v = (signed char)va_arg(*ap, int); break;
	case 2: v = (short)va_arg(*ap, int); break;
	case 3: v = va_arg(*ap, long); break;
	case 4: v = va_arg(*ap, long long); break;
	case 5: v = (intmax_t)va_arg(*ap, size_t); break; /* %zd */
	case 6: v = va_arg(*ap, intmax_t); break;
	case 7: v = va_arg(*ap, ptrdiff_t); break;
	default: v = va_arg(*ap, int);
	}
	*neg = v < 0;
	return v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
}

static uintmax_t
arg_unsigned(va_list *ap, int len)
{
	switch (len) {
	case 1: return (unsigned char)va_arg(*ap, unsigned);
	case 2: return (unsigned short)va_arg(*ap, unsigned);
	case 3: return va_arg(*ap, unsigned long);
	case 4: return va_arg(*ap, unsigned long long);
	case 5: return va_arg(*ap, size_t);
	case 6: return va_arg(*ap, uintmax_t);
	case 7: return (uintmax_t)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned);
	}
}

/* Parse the spec after '%' at *f; false when it is one we leave to the C
 * library.  A '*' width or precision takes its int from ap. */
static bool
parse_spec(const char **f, Spec *sp, va_list *ap)
{
	const char *p = *f;

	memset(sp, 0, sizeof *sp);
	sp->prec = -1;
	for (;; p++) {
		if (*p == '-')
			sp->left = true;
		else if (*p == '0')
			sp->zero = true;
		else if (*p == '+')
			sp->plus = true;
		else if (*p == ' ')
			sp->space = true;
		else
			break;
	}
	if (*p == '*') {
		int w = va_arg(*ap, int);
		if (w < 0) {
			sp->left = true;
			w = w == INT32_MIN ? INT32_MAX : -w;
		}
		sp->width = w;
		p++;
	} else {
		for (; *p >= '0' && *p <= '9'; p++) {
			if (sp->width > 100000)
				return false;
			sp->width = sp->width * 10 + (*p - '0');
		}
		if (*p == '$')
			return false; /* positional */
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			int pr = va_arg(*ap, int);
			sp->prec = pr < 0 ? -1 : pr;
			p++;
		} else {
			sp->prec = 0;
			for (; *p >= '0' && *p <= '9'; p++) {
				if (sp->prec > 100000)
					return false;
				sp->prec = sp->prec * 10 + (*p - '0');
			}
		}
	}
	switch (*p) {
	case 'h':
		sp->len = p[1] == 'h' ? 1 : 2;
		p += p[1] == 'h' ? 2 : 1;
		break;
	case 'l':
		sp->len = p[1] == 'l' ? 4 : 3;
		p += p[1] == 'l' ? 2 : 1;
		break;
	case 'z': sp->len = 5; p++; break;
	case 'j': sp->len = 6; p++; break;
	case 't': sp->len = 7; p++; break;
	default: break;
	}
	sp->conv = *p;
	*f = p + 1;
	switch (sp->conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X':
		/* an integer precision changes zero padding: the C library's */
		if (sp->prec >= 0)
			return false;
		return sp->conv == 'd' || sp->conv == 'i' ||
		       !(sp->plus || sp->space);
	case 'c':
		return sp->len == 0 && !sp->zero && !sp->plus && !sp->space;
	case 's':
		return sp->len == 0 && !sp->zero && !sp->plus && !sp->space;
	case '%':
		return !sp->left && !sp->zero && !sp->plus && !sp->space &&
		       !sp->width && sp->prec < 0 && !sp->len;
	default:
		return false;
	}
}

/* The fast path: false (nothing usable in o) when a spec is not ours. */
static bool
format(Out *o, const char *fmt, va_list ap0)
{
	va_list ap;
	bool ok = true;

	va_copy(ap, ap0);
	while (*fmt) {
		Spec sp;
		const char *lit = fmt;
		/* (formats are short: a loop beats strchr and strlen here) */
		while (*fmt && *fmt != '%')
			fmt++;
		put(o, lit, (size_t)(fmt - lit));
		if (!*fmt)
			break;
		fmt++;
		/* the plain %s, %d and %% (most of them): no spec to parse */
		if (*fmt == 's') {
			const char *str = va_arg(ap, const char *);
			put_str(o, str ? str : "(null)");
			fmt++;
			continue;
		}
		if (*fmt == 'd') {
			int v = va_arg(ap, int);
			char b[16], *e = b + sizeof b, *p = e;
			unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
			do
				*--p = (char)('0' + u % 10);
			while ((u /= 10));
			if (v < 0)
				*--p = '-';
			put(o, p, (size_t)(e - p));
			fmt++;
			continue;
		}
		if (*fmt == '%') {
			put(o, "%", 1);
			fmt++;
			continue;
		}
		if (!parse_spec(&fmt, &sp, &ap)) {
			ok = false;
			break;
		}
		if (sp.conv == '%') {
			put(o, "%", 1);
		} else if (sp.conv == 'c') {
			char ch = (char)va_arg(ap, int);
			put_padded(o, &sp, "", &ch, 1);
		} else if (sp.conv == 's') {
			const char *s = va_arg(ap, const char *);
			size_t n;
			if (!s)
				s = sp.prec < 0 || sp.prec >= 6 ? "(null)" : "";
			n = sp.prec < 0 ? strlen(s) : strnlen(s, (size_t)sp.prec);
			sp.zero = false;
			put_padded(o, &sp, "", s, n);
		} else if (sp.conv == 'd' || sp.conv == 'i') {
			bool neg;
			uintmax_t u = arg_signed(&ap, sp.len, &neg);
			if (sp.left)
				sp.zero = false;
			put_int(o, &sp, neg, u);
		} else {
			uintmax_t u = arg_unsigned(&ap, sp.len);
			if (sp.left)
				sp.zero = false;
			put_int(o, &sp, false, u);
		}
	}
	va_end(ap);
	return ok;
}

int
fmt_vsnprintf(char *s, size_t n, const char *fmt, va_list ap)
{
	Out o = {s, n ? n - 1 : 0, 0};

	if (!format(&o, fmt, ap) || o.len > INT32_MAX)
		return vsnprintf(s, n, fmt, ap);
	if (n)
		s[o.len < o.cap ? o.len : o.cap] = 0;
	return (int)o.len;
}

int
fmt_snprintf(char *s, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fmt_vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}
