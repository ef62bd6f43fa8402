/*
 * lex.c: TIR tokens with locations in the .yaml file.
 *
 * Newlines are plain whitespace: ops are delimited by the grammar.  A
 * tensor shape (`4x?xf32`) is one lexeme read by lex_shape, because `x`
 * would otherwise glue the dims and the dtype into one identifier.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

#define MAXDIM 2147483647 /* larger dims are typos, not tensors */

void
lex_init(Lexer *lx, const char *text, size_t len, SrcMap map)
{
	lx->p = text;
	lx->end = text + len;
	lx->linestart = text;
	lx->line = 0;
	lx->map = map;
}

static Loc
loc_at(const Lexer *lx, const char *p)
{
	Loc l = {lx->map.line0 + lx->line,
		 lx->map.col0 + (int)(p - lx->linestart) + 1};
	return l;
}

/* Character classes, one table lookup each (the lexer looks at every
 * byte of every case file and generated program). */
enum { C_SPACE = 1, C_DIGIT = 2, C_ISTART = 4, C_ICHAR = 8, C_NAME = 16 };

static const unsigned char cls[256] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE,
	['_'] = C_ISTART | C_ICHAR | C_NAME, ['.'] = C_ICHAR | C_NAME,
	['$'] = C_NAME, ['-'] = C_NAME,
#define D(c) [c] = C_DIGIT | C_ICHAR | C_NAME
	D('0'), D('1'), D('2'), D('3'), D('4'), D('5'), D('6'), D('7'),
	D('8'), D('9'),
#undef D
#define L(c) [c] = C_ISTART | C_ICHAR | C_NAME, [c - 32] = C_ISTART | C_ICHAR | C_NAME
	L('a'), L('b'), L('c'), L('d'), L('e'), L('f'), L('g'), L('h'),
	L('i'), L('j'), L('k'), L('l'), L('m'), L('n'), L('o'), L('p'),
	L('q'), L('r'), L('s'), L('t'), L('u'), L('v'), L('w'), L('x'),
	L('y'), L('z'),
#undef L
};

static bool
is_name_char(int c)
{
	return cls[(unsigned char)c] & C_NAME;
}

static bool
is_ident_start(int c)
{
	return cls[(unsigned char)c] & C_ISTART;
}

static bool
is_ident_char(int c)
{
	return cls[(unsigned char)c] & C_ICHAR;
}

static bool
is_digit(int c)
{
	return cls[(unsigned char)c] & C_DIGIT;
}

static void
skip_space(Lexer *lx)
{
	const char *p = lx->p, *end = lx->end;

	while (p < end) {
		char c = *p;
		if (cls[(unsigned char)c] & C_SPACE) {
			p++;
		} else if (c == '\n') {
			lx->line++;
			lx->linestart = ++p;
		} else if (c == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else {
			break;
		}
	}
	lx->p = p;
}

/* Integer or float literal at lx->p (optional leading '-'). */
static int
lex_number(Lexer *lx, Token *t, Diag *d)
{
	const char *s = lx->p, *q = s;
	bool isfloat = false;
	char buf[512];
	size_t n;

	if (*q == '-')
		q++;
	while (q < lx->end && is_digit(*q))
		q++;
	/* most literals: a few digits, nothing after them that the slow
	 * path would read (18 digits cannot overflow) */
	if (q - s - (*s == '-') <= 18 &&
	    (q == lx->end || !(cls[(unsigned char)*q] & C_ICHAR))) {
		uint64_t v = 0;
		for (const char *c = s + (*s == '-'); c < q; c++)
			v = v * 10 + (uint64_t)(*c - '0');
		t->kind = TK_INT;
		t->s = s;
		t->len = (size_t)(q - s);
		t->i = *s == '-' ? -(int64_t)v : (int64_t)v;
		lx->p = q;
		return 0;
	}
	if (q < lx->end && *q == '.') {
		isfloat = true;
		q++;
		while (q < lx->end && is_digit(*q))
			q++;
	}
	if (q < lx->end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < lx->end && (*e == '+' || *e == '-'))
			e++;
		if (e < lx->end && is_digit(*e)) {
			isfloat = true;
			q = e;
			while (q < lx->end && is_digit(*q))
				q++;
		}
	}
	n = (size_t)(q - s);
	t->s = s;
	t->len = n;
	if (q < lx->end && is_ident_char(*q))
		return diag_set(d, t->loc, "malformed number '%.*s'",
				(int)(n + 1 > 40 ? 40 : n + 1), s);
	if (n >= sizeof buf)
		return diag_set(d, t->loc, "numeric literal too long");
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	if (isfloat) {
		t->kind = TK_FLOAT;
		t->f = strtod(buf, NULL);
		if (errno == ERANGE && (t->f > 1 || t->f < -1))
			return diag_set(d, t->loc,
					"float literal '%s' out of range", buf);
	} else {
		t->kind = TK_INT;
		t->i = strtoll(buf, NULL, 10);
		if (errno == ERANGE)
			return diag_set(d, t->loc,
					"integer literal '%.40s' out of range",
					buf);
	}
	lx->p = q;
	return 0;
}

/* `%name`, `@name` or `^name`. */
static int
lex_name(Lexer *lx, Token *t, Diag *d)
{
	const char *q = lx->p + 1;

	t->kind = *lx->p == '%' ? TK_VALUE : *lx->p == '@' ? TK_FUNC : TK_BLOCK;
	while (q < lx->end && is_name_char(*q))
		q++;
	if (q == lx->p + 1)
		return diag_set(d, t->loc, "expected a name after '%c'", *lx->p);
	t->s = lx->p + 1;
	t->len = (size_t)(q - t->s);
	lx->p = q;
	return 0;
}

static int
lex_word(Lexer *lx, Token *t)
{
	const char *q = lx->p;

	while (q < lx->end && is_ident_char(*q))
		q++;
	t->kind = TK_IDENT;
	t->s = lx->p;
	t->len = (size_t)(q - lx->p);
	lx->p = q;
	if (t->len < 3 || t->len > 5 || !strchr("tfni", t->s[0])) {
		/* no literal word */
	} else if (word_is(t->s, t->len, "true") ||
		   word_is(t->s, t->len, "false")) {
		t->kind = TK_INT;
		t->i = t->s[0] == 't';
	} else if (word_is(t->s, t->len, "nan")) {
		t->kind = TK_FLOAT;
		t->f = NAN;
	} else if (word_is(t->s, t->len, "inf")) {
		t->kind = TK_FLOAT;
		t->f = INFINITY;
	}
	return 0;
}

static int
bad_char(Lexer *lx, Token *t, Diag *d)
{
	unsigned char c = (unsigned char)*lx->p;

	if (c >= 0x20 && c < 0x7f)
		return diag_set(d, t->loc, "unexpected character '%c'", c);
	return diag_set(d, t->loc, "unexpected character '\\x%02x'", c);
}

/* "text" with the escapes \" \\ \n \t, on one line; printable ASCII. */
static int
lex_string(Lexer *lx, Token *t, Diag *d)
{
	const char *q = lx->p + 1;

	for (; q < lx->end && *q != '"'; q++) {
		Loc loc = loc_at(lx, q);

		if (*q == '\\') {
			if (q + 1 >= lx->end || !strchr("\"\\nt", q[1]) || !q[1])
				return diag_set(d, loc, "unknown escape in string "
						"(use \\\" \\\\ \\n \\t)");
			q++;
		} else if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f) {
			return diag_set(d, loc, "%s in string",
					*q == '\n' ? "unterminated string: newline"
						   : "unprintable character");
		}
	}
	if (q >= lx->end)
		return diag_set(d, t->loc, "unterminated string");
	t->kind = TK_STRING;
	t->len = (size_t)(q + 1 - lx->p);
	lx->p = q + 1;
	return 0;
}

int
lex_next(Lexer *lx, Token *t, Diag *d)
{
	const char *p;

	skip_space(lx);
	p = lx->p;
	t->kind = TK_EOF;
	t->len = 0;
	t->i = 0;
	t->f = 0;
	t->punct = 0;
	t->loc = loc_at(lx, p);
	t->s = p;
	if (p >= lx->end) {
		t->kind = TK_EOF;
		return 0;
	}
	if (*p == '%' || *p == '@' || *p == '^')
		return lex_name(lx, t, d);
	if (is_digit(*p))
		return lex_number(lx, t, d);
	if (*p == '-') {
		if (p + 1 < lx->end && p[1] == '>') {
			t->kind = TK_PUNCT;
			t->punct = 'A';
			t->len = 2;
			lx->p += 2;
			return 0;
		}
		if (p + 1 < lx->end && is_digit(p[1]))
			return lex_number(lx, t, d);
		if (lx->end - p >= 4 && !memcmp(p + 1, "inf", 3) &&
		    (lx->end - p == 4 || !is_ident_char(p[4]))) {
			t->kind = TK_FLOAT;
			t->f = -INFINITY;
			t->len = 4;
			lx->p += 4;
			return 0;
		}
		return bad_char(lx, t, d);
	}
	if (is_ident_start(*p))
		return lex_word(lx, t);
	if (*p == '"')
		return lex_string(lx, t, d);
	switch (*p) {
	case '(': case ')': case '{': case '}': case '[': case ']':
	case '<': case '>': case ',': case ':': case '=':
		t->kind = TK_PUNCT;
		t->punct = *p;
		t->len = 1;
		lx->p++;
		return 0;
	default:
		return bad_char(lx, t, d);
	}
}

static int
lookup_dtype(const char *s, size_t n)
{
	for (int k = 0; k < DT_COUNT; k++)
		if (word_is(s, n, dtype_names[k]))
			return k;
	return -1;
}

/* One dim of a shape at lx->p: digits or '?'.  Stops before 'x'. */
static int
lex_dim(Lexer *lx, int64_t *dim, Diag *d)
{
	const char *s = lx->p, *q = s;
	Loc loc = loc_at(lx, s);

	while (q < lx->end && *q != 'x' && *q != '>' && *q != ',' &&
	       *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r')
		q++;
	if (q - s == 1 && *s == '?') {
		*dim = DIM_DYN;
	} else {
		int64_t v = 0;
		for (const char *c = s; c < q; c++) {
			if (!is_digit(*c))
				return diag_set(d, loc,
						"tensor dimension must be an "
						"integer or '?', found '%.*s'",
						(int)(q - s > 40 ? 40 : q - s),
						s);
			if (v <= MAXDIM)
				v = v * 10 + (*c - '0');
		}
		if (v > MAXDIM)
			return diag_set(d, loc,
					"tensor dimension '%.*s' too large "
					"(at most %d)",
					(int)(q - s > 40 ? 40 : q - s), s,
					MAXDIM);
		*dim = v;
	}
	lx->p = q;
	return 0;
}

int
lex_shape(Lexer *lx, Type *t, Diag *d)
{
	const char *s;
	int k;

	t->kind = TY_TENSOR;
	t->rank = 0;
	skip_space(lx);
	while (lx->p < lx->end && !is_ident_start(*lx->p) && *lx->p != '>') {
		int64_t dim = 0;
		Loc loc = loc_at(lx, lx->p);
		if (t->rank == MAXRANK)
			return diag_set(d, loc, "tensor rank exceeds %d",
					MAXRANK);
		if (lex_dim(lx, &dim, d))
			return -1;
		if (lx->p >= lx->end || *lx->p != 'x') {
			Token tok;
			Lexer save = *lx;
			if (lex_next(&save, &tok, d))
				return -1;
			return diag_set(d, loc_at(lx, lx->p),
					"expected 'x' after tensor dimension, "
					"found '%.*s'",
					(int)(tok.len > 40 ? 40 : tok.len),
					tok.s);
		}
		lx->p++;
		t->dims[t->rank++] = dim;
	}
	s = lx->p;
	while (lx->p < lx->end && is_ident_char(*lx->p))
		lx->p++;
	if (lx->p == s)
		return diag_set(d, loc_at(lx, s),
				"expected element type in tensor type");
	k = lookup_dtype(s, (size_t)(lx->p - s));
	if (k < 0)
		return diag_set(d, loc_at(lx, s), "unknown type '%.*s'",
				(int)(lx->p - s > 40 ? 40 : lx->p - s), s);
	t->dt = (DType)k;
	return 0;
}
