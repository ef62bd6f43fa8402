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

static bool
is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
	       c == '-';
}

static bool
is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static void
skip_space(Lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;
		if (c == '\n') {
			lx->p++;
			lx->line++;
			lx->linestart = lx->p;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else {
			break;
		}
	}
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
	if (word_is(t->s, t->len, "true") || word_is(t->s, t->len, "false")) {
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
	memset(t, 0, sizeof *t);
	p = lx->p;
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
