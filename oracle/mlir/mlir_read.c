/*
 * mlir_read.c: MLIR's generic op form -> a tree of MOps.
 *
 * Reads what `*-opt --mlir-print-op-generic --mlir-print-debuginfo` prints
 * (any version, any dialect): no op is known by name.  An op is
 *   results = "name"(operands) [succs] <{props}> (regions) {attrs} : type loc
 * and everything inside attributes and types is taken as balanced raw text
 * (brackets, `<...>` with `->` inside, strings with escapes), never
 * interpreted.  Locations are kept as text while reading and resolved at the
 * end, because mlir-opt prints most `#locN = loc(...)` aliases after the
 * module.
 *
 * Errors and out-of-memory longjmp to the one protected entry, mlir_read.
 * Nesting (regions in ops, brackets in values, location aliases) is bounded
 * by MR_MAX_DEPTH so that no input can exhaust the stack.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"
#include "stop.h"

#define MR_MAX_DEPTH 256

/* A `loc(...)` seen while reading, resolved into *dst at the end. */
typedef struct Fixup {
	MLoc *dst;
	const char *p;          /* inside the parentheses */
	size_t n;
} Fixup;

/* A `#name = loc(...)` alias; state 0 unresolved, 1 resolving, 2 done. */
typedef struct LocAlias {
	const char *name;       /* into the text, with the '#' */
	size_t nlen;
	const char *p;
	size_t n;
	int state;
	MLoc loc;
} LocAlias;

typedef struct Rd {
	const char *text, *p, *end;
	const char *mark;       /* line/col counted up to here */
	int line;
	const char *lstart;
	Arena *a;
	Diag *d;
	Diag dummy;             /* when the caller passes no Diag */
	bool failed;
	int depth;
	Fixup *fix;             /* mem_alloc'ed */
	size_t nfix, fixcap;
	LocAlias *al;           /* in definition order, mem_alloc'ed */
	size_t nal, alcap;
	StrMap alias;           /* name -> index in al (mem_alloc'ed) */
	const char *lastfile;   /* the last file name, shared by the next locs */
	jmp_buf jb;
} Rd;

/* ------------------------------------------------------------ errors */

/* Line/col of p, counted from the start (error paths only). */
static Loc
rd_loc_slow(const Rd *R, const char *p)
{
	Loc l = {1, 1};
	const char *ls = R->text;

	for (const char *q = R->text; q < p; q++)
		if (*q == '\n') {
			l.line++;
			ls = q + 1;
		}
	l.col = (int)(p - ls) + 1;
	return l;
}

/* Line/col of p >= the last position asked for (op starts, in order). */
static Loc
rd_loc(Rd *R, const char *p)
{
	Loc l;
	const char *q = R->mark;

	if (p < q)
		return rd_loc_slow(R, p);
	while ((q = memchr(q, '\n', (size_t)(p - q)))) {
		R->line++;
		R->lstart = ++q;
	}
	R->mark = p;
	l.line = R->line;
	l.col = (int)(p - R->lstart) + 1;
	return l;
}

static _Noreturn void rd_fail(Rd *R, const char *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static _Noreturn void
rd_fail(Rd *R, const char *p, const char *fmt, ...)
{
	va_list ap;

	R->d->loc = rd_loc_slow(R, p);
	va_start(ap, fmt);
	fmt_vsnprintf(R->d->msg, sizeof R->d->msg, fmt, ap);
	va_end(ap);
	R->failed = true;
	longjmp(R->jb, 1);
}

/* What is at p, for "found ..." messages. */
static const char *
found(const Rd *R, const char *p, char *buf, size_t n)
{
	if (p >= R->end)
		return "end of input";
	if ((unsigned char)*p < 32 || (unsigned char)*p >= 127)
		fmt_snprintf(buf, n, "byte 0x%02x", (unsigned char)*p);
	else
		fmt_snprintf(buf, n, "'%c'", *p);
	return buf;
}

static _Noreturn void
expected(Rd *R, const char *what)
{
	char buf[16];

	rd_fail(R, R->p, "expected %s, found %s", what,
		found(R, R->p, buf, sizeof buf));
}

/* ------------------------------------------------------------ scanning */

bool
mlir_id_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
	       c == '-';
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Whitespace and `//` comments. */
static void
skip_ws(Rd *R)
{
	for (;;) {
		while (R->p < R->end && (*R->p == ' ' || *R->p == '\t' ||
					 *R->p == '\n' || *R->p == '\r'))
			R->p++;
		if (R->end - R->p >= 2 && R->p[0] == '/' && R->p[1] == '/') {
			const char *e = memchr(R->p, '\n', (size_t)(R->end - R->p));
			R->p = e ? e : R->end;
			continue;
		}
		return;
	}
}

static bool
peek(Rd *R, char c)
{
	skip_ws(R);
	return R->p < R->end && *R->p == c;
}

static bool
accept(Rd *R, char c)
{
	if (!peek(R, c))
		return false;
	R->p++;
	return true;
}

static void
expect(Rd *R, char c)
{
	char what[8];

	if (!accept(R, c)) {
		fmt_snprintf(what, sizeof what, "'%c'", c);
		expected(R, what);
	}
}

/* The keyword w at p, not followed by an identifier character. */
static bool
at_word(const Rd *R, const char *p, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(R->end - p) >= n && !memcmp(p, w, n) &&
	       (p + n == R->end || !mlir_id_char((unsigned char)p[n]));
}

/* Past the string literal starting at p (on the '"'). */
static const char *
skip_string(Rd *R, const char *p)
{
	const char *q = p + 1;

	while (q < R->end && *q != '"') {
		if (*q == '\n')
			break;
		q += (*q == '\\' && q + 1 < R->end) ? 2 : 1;
	}
	if (q >= R->end || *q != '"')
		rd_fail(R, p, "unterminated string");
	return q + 1;
}

/* How a balanced scan stops at depth 0. */
enum {
	STOP_COMMA = 1,         /* ',' */
	STOP_CLOSE = 2,         /* an unmatched ')', ']', '}' or '>' */
	STOP_SPACE = 4,         /* whitespace */
	STOP_NEWLINE = 8,       /* a line break */
	STOP_LOC = 16           /* the keyword `loc` */
};

/*
 * Past balanced text from R->p: brackets ( [ { < nest, strings are whole,
 * `->` is an arrow, and a '>' that closes nothing (`>=` in an integer set)
 * is a character.  Returns the end; R->p is not moved.
 */
static const char *
scan_balanced(Rd *R, unsigned stop)
{
	char stack[MR_MAX_DEPTH];
	const char *open[MR_MAX_DEPTH];
	int n = 0;
	const char *p = R->p;

	for (; p < R->end; p++) {
		int c = (unsigned char)*p;

		if (n == 0) {
			if (((stop & STOP_COMMA) && c == ',') ||
			    ((stop & STOP_SPACE) && (c == ' ' || c == '\t' ||
						     c == '\n' || c == '\r')) ||
			    ((stop & STOP_NEWLINE) && c == '\n') ||
			    ((stop & STOP_CLOSE) && (c == ')' || c == ']' ||
						     c == '}' || c == '>')) ||
			    ((stop & STOP_LOC) && c == 'l' &&
			     (p == R->p || !mlir_id_char((unsigned char)p[-1])) &&
			     at_word(R, p, "loc")))
				return p;
		}
		switch (c) {
		case '"':
			p = skip_string(R, p) - 1;
			break;
		case '(': case '[': case '{': case '<':
			if (n == MR_MAX_DEPTH)
				rd_fail(R, p, "nesting deeper than %d", MR_MAX_DEPTH);
			open[n] = p;
			stack[n++] = c == '(' ? ')' : c == '[' ? ']' :
				     c == '{' ? '}' : '>';
			break;
		case '-':
			if (p + 1 < R->end && p[1] == '>')
				p++;
			break;
		case '/':
			if (p + 1 < R->end && p[1] == '/') {
				const char *e = memchr(p, '\n', (size_t)(R->end - p));
				p = (e ? e : R->end) - 1;
			}
			break;
		case ')': case ']': case '}': case '>':
			if (n > 0 && stack[n - 1] == c)
				n--;
			else if (c != '>')
				rd_fail(R, p, "unbalanced '%c'", c);
			break;
		default:
			/* binary junk; UTF-8 (>= 0x80) may be in names */
			if ((c < 32 && c != '\t' && c != '\n' && c != '\r') ||
			    c == 127)
				rd_fail(R, p, "unexpected byte 0x%02x", c);
		}
	}
	if (n > 0)
		rd_fail(R, open[n - 1], "unbalanced '%c'", *open[n - 1]);
	return p;
}

/* Trimmed copy of [p, e) in the arena. */
static const char *
copy_trim(Rd *R, const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		e--;
	return arena_strndup(R->a, p, (size_t)(e - p));
}

/* Balanced text up to a stop, trimmed, non-empty. */
static const char *
take_balanced(Rd *R, unsigned stop, const char *what)
{
	const char *e, *s;

	skip_ws(R);
	e = scan_balanced(R, stop);
	if (e == R->p)
		expected(R, what);
	s = copy_trim(R, R->p, e);
	R->p = e;
	return s;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The contents of the string literal [p, e) (quotes included), unescaped:
 * \\ \" \n \t and \XX.  NULL if it is not one. */
static char *
unescape(Arena *a, const char *p, const char *e)
{
	char *s, *o;

	if (e - p < 2 || *p != '"' || e[-1] != '"')
		return NULL;
	s = o = arena_alloc(a, (size_t)(e - p));
	if (!s)
		return NULL;
	for (p++, e--; p < e; p++) {
		if (*p != '\\' || p + 1 >= e) {
			*o++ = *p;
			continue;
		}
		p++;
		if (*p == 'n')
			*o++ = '\n';
		else if (*p == 't')
			*o++ = '\t';
		else if (p + 1 < e && hexval(p[0]) >= 0 && hexval(p[1]) >= 0) {
			*o++ = (char)(hexval(p[0]) * 16 + hexval(p[1]));
			p++;
		} else
			*o++ = *p;
	}
	*o = '\0';
	return s;
}

/* A string literal at R->p, unescaped. */
static const char *
take_string(Rd *R, const char *what)
{
	const char *s, *e;

	if (!peek(R, '"'))
		expected(R, what);
	s = R->p;
	e = skip_string(R, s);
	R->p = e;
	return unescape(R->a, s, e);
}

/* `%name`, `%name#3` (with_index) or `^name`, as written. */
static const char *
take_name(Rd *R, char sigil, bool with_index, const char *what)
{
	const char *s;

	if (!peek(R, sigil))
		expected(R, what);
	s = R->p++;
	while (R->p < R->end && mlir_id_char((unsigned char)*R->p))
		R->p++;
	if (R->p == s + 1)
		expected(R, what);
	if (with_index && R->p < R->end && *R->p == '#') {
		R->p++;
		if (R->p >= R->end || !is_digit((unsigned char)*R->p))
			expected(R, "a result number after '#'");
		while (R->p < R->end && is_digit((unsigned char)*R->p))
			R->p++;
	}
	return arena_strndup(R->a, s, (size_t)(R->p - s));
}

/* A non-negative decimal at *pp (before e) that fits an int, *pp moved
 * past it; -1 if none. */
static int
read_num(Rd *R, const char **pp, const char *e)
{
	const char *p = *pp;
	long v = 0;

	if (p >= e || !is_digit((unsigned char)*p))
		return -1;
	for (; p < e && is_digit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			rd_fail(R, *pp, "number too large");
	}
	*pp = p;
	return (int)v;
}

static int
take_int(Rd *R)
{
	return read_num(R, &R->p, R->end);
}

/* ------------------------------------------------------------ locations */

static LocAlias *
alias_find(Rd *R, const char *s, size_t n)
{
	int i = strmap_getn(&R->alias, s, n);

	return i < 0 ? NULL : &R->al[i];
}

static void
alias_add(Rd *R, const char *name, size_t nlen, const char *p, size_t n)
{
	int at;

	if (R->nal == R->alcap) {
		size_t cap = R->alcap ? 2 * R->alcap : 64;
		LocAlias *al = cap <= INT_MAX ?
			mem_realloc(R->al, cap * sizeof *al) : NULL;
		if (!al)
			longjmp(R->jb, 1);
		R->al = al;
		R->alcap = cap;
	}
	if ((at = strmap_addn(&R->alias, name, nlen, (int)R->nal)) == STRMAP_OOM)
		longjmp(R->jb, 1);
	if (at != STRMAP_NONE)
		rd_fail(R, name, "redefinition of location alias '%.*s'",
			(int)nlen, name);
	R->al[R->nal++] = (LocAlias){name, nlen, p, n, 0, {NULL, 0, 0}};
}

static const char *
intern_file(Rd *R, const char *s, const char *e)
{
	char *f = unescape(R->a, s, e);

	if (R->lastfile && !strcmp(R->lastfile, f))
		return R->lastfile;
	return R->lastfile = f;
}

static bool loc_resolve(Rd *R, const char *p, size_t n, int depth, MLoc *out);

/* A `#alias` at p inside a location: its resolved location. */
static bool
loc_alias(Rd *R, const char *p, const char *e, int depth, MLoc *out)
{
	LocAlias *a = alias_find(R, p, (size_t)(e - p));

	if (!a)
		rd_fail(R, p, "undefined location alias '%.*s'", (int)(e - p), p);
	if (a->state == 1)
		rd_fail(R, p, "location alias '%.*s' refers to itself",
			(int)(e - p), p);
	if (a->state == 0) {
		a->state = 1;
		loc_resolve(R, a->p, a->n, depth + 1, &a->loc);
		a->state = 2;
	}
	*out = a->loc;
	return a->loc.file != NULL;
}

/* `:LINE:COL` at se, after the file name [s, se): a file location. */
static bool
loc_file(Rd *R, const char *s, const char *se, const char *e, MLoc *out)
{
	const char *p = se;
	int line, col;

	if (p >= e || *p++ != ':' || (line = read_num(R, &p, e)) < 0 ||
	    p >= e || *p++ != ':' || (col = read_num(R, &p, e)) < 0)
		return false;
	*out = (MLoc){intern_file(R, s, se), line, col};
	return true;
}

/*
 * The first file location in the text of a location (inside `loc(...)`):
 * name locs, callsites (the callee comes first), fused locs (metadata
 * skipped) and aliases are looked through in text order.  File ranges
 * (`"f":1:2 to 3:4`) give their start.  The text was checked balanced
 * when it was read.
 */
static bool
loc_resolve(Rd *R, const char *p, size_t n, int depth, MLoc *out)
{
	const char *e = p + n, *save = R->p;

	*out = (MLoc){NULL, 0, 0};
	if (depth > MR_MAX_DEPTH)
		rd_fail(R, p, "location aliases nested deeper than %d",
			MR_MAX_DEPTH);
	while (p < e) {
		const char *s = p;

		if (*p == '"') {
			p = skip_string(R, s);
			if (loc_file(R, s, p, e, out))
				return true;
		} else if (*p == '#') {
			for (p++; p < e && mlir_id_char((unsigned char)*p); p++)
				;
			if (loc_alias(R, s, p, depth, out))
				return true;
		} else if (*p == '<') {
			/* fused<metadata>: not a location */
			R->p = p + 1;
			p = scan_balanced(R, STOP_CLOSE) + 1;
			R->p = save;
		} else
			p++;
	}
	*out = (MLoc){NULL, 0, 0};
	return false;
}

/* An optional `loc(...)` at R->p: its inside as [*p, *p + *n). */
static bool
take_loc_span(Rd *R, const char **p, size_t *n)
{
	const char *e;

	skip_ws(R);
	if (!at_word(R, R->p, "loc"))
		return false;
	R->p += 3;
	expect(R, '(');
	e = scan_balanced(R, STOP_CLOSE);
	if (e >= R->end || *e != ')')
		rd_fail(R, e, "expected ')' to end the location");
	*p = R->p;
	*n = (size_t)(e - R->p);
	R->p = e + 1;
	return true;
}

static void
add_fixup(Rd *R, MLoc *dst, const char *p, size_t n)
{
	if (R->nfix == R->fixcap) {
		size_t cap = R->fixcap ? 2 * R->fixcap : 256;
		Fixup *f = mem_realloc(R->fix, cap * sizeof *f);

		if (!f)
			longjmp(R->jb, 1);
		R->fix = f;
		R->fixcap = cap;
	}
	R->fix[R->nfix++] = (Fixup){dst, p, n};
}

/* An optional `loc(...)`, resolved into dst at the end. */
static void
take_loc(Rd *R, MLoc *dst)
{
	const char *p;
	size_t n;

	if (take_loc_span(R, &p, &n))
		add_fixup(R, dst, p, n);
}

static void
resolve_all(Rd *R)
{
	for (size_t i = 0; i < R->nfix; i++)
		loc_resolve(R, R->fix[i].p, R->fix[i].n, 0, R->fix[i].dst);
}

/* ------------------------------------------------------------ ops */

/* `{name = value, unit_name, "quoted" = value}` after the '{'. */
static void
take_dict(Rd *R, MAttr **out, int *nout)
{
	MAttr *v = NULL;
	int n = 0, cap = 0;

	while (!accept(R, '}')) {
		MAttr at;

		if (n > 0)
			expect(R, ',');
		skip_ws(R);
		if (R->p < R->end && *R->p == '"')
			at.name = take_string(R, "an attribute name");
		else {
			const char *s = R->p;

			while (R->p < R->end && mlir_id_char((unsigned char)*R->p))
				R->p++;
			if (R->p == s)
				expected(R, "an attribute name");
			at.name = arena_strndup(R->a, s, (size_t)(R->p - s));
		}
		if (accept(R, '='))
			at.text = take_balanced(R, STOP_COMMA | STOP_CLOSE,
						"an attribute value");
		else
			at.text = "unit";
		VEC_PUSH(R->a, v, n, cap, at);
	}
	*out = v;
	*nout = n;
}

/* `(T, T)` after the '(': types split at top-level commas. */
static void
take_types(Rd *R, const char ***out, int *nout)
{
	const char **v = NULL;
	int n = 0, cap = 0;

	while (!accept(R, ')')) {
		if (n > 0)
			expect(R, ',');
		VEC_PUSH(R->a, v, n, cap,
			 take_balanced(R, STOP_COMMA | STOP_CLOSE, "a type"));
	}
	*out = v;
	*nout = n;
}

/* `: (operand types) -> result type(s)`, checked against the counts. */
static void
take_fntype(Rd *R, MOp *op)
{
	const char *at;
	int n;

	expect(R, ':');
	skip_ws(R);
	at = R->p;
	expect(R, '(');
	take_types(R, &op->optypes, &n);
	if (n != op->noperands)
		rd_fail(R, at, "%d operand types for %d operands", n,
			op->noperands);
	skip_ws(R);
	if (R->end - R->p < 2 || R->p[0] != '-' || R->p[1] != '>')
		expected(R, "'->'");
	R->p += 2;
	skip_ws(R);
	at = R->p;
	if (accept(R, '('))
		take_types(R, &op->restypes, &n);
	else {
		op->restypes = arena_alloc(R->a, sizeof *op->restypes);
		op->restypes[0] = take_balanced(R, STOP_COMMA | STOP_CLOSE |
						   STOP_SPACE, "a result type");
		n = 1;
	}
	if (n != op->nresults)
		rd_fail(R, at, "%d result types for %d results", n, op->nresults);
}

/* `%0, %1:2 =`: op->results gets one name per group, *counts its size
 * (0 for a plain name), op->nresults the total.  expand_results makes
 * the names once the types have confirmed the total. */
static int
take_results(Rd *R, MOp *op, int **counts)
{
	int ngroups = 0, cap = 0, ccap = 0, n = 0;
	long total = 0;

	do {
		const char *at;
		int k = 0;

		VEC_PUSH(R->a, op->results, ngroups, cap,
			 take_name(R, '%', false, "a result name"));
		if (R->p < R->end && *R->p == ':') {
			at = ++R->p;
			if ((k = take_int(R)) <= 0) {
				R->p = at;
				expected(R, "a result count");
			}
		}
		VEC_PUSH(R->a, *counts, n, ccap, k);
		if ((total += k ? k : 1) > INT_MAX)
			rd_fail(R, R->p, "too many results");
	} while (accept(R, ','));
	expect(R, '=');
	op->nresults = (int)total;
	return ngroups;
}

/* A group `%x:N` as %x#0..%x#N-1. */
static void
expand_results(Rd *R, MOp *op, const int *counts, int ngroups)
{
	const char **v;
	int n = 0;

	if (ngroups == op->nresults)
		return;
	v = arena_alloc(R->a, (size_t)op->nresults * sizeof *v);
	for (int g = 0; g < ngroups; g++) {
		size_t len = strlen(op->results[g]) + 16;

		if (!counts[g])
			v[n++] = op->results[g];
		for (int i = 0; i < counts[g]; i++) {
			char *r = arena_alloc(R->a, len);

			fmt_snprintf(r, len, "%s#%d", op->results[g], i);
			v[n++] = r;
		}
	}
	op->results = v;
}

static void take_region(Rd *R, MOp *parent, MRegion *rg);

static void
take_regions(Rd *R, MOp *op)
{
	int cap = 0;

	while (!accept(R, ')')) {
		MRegion rg = {NULL, 0, {0}};

		if (op->nregions > 0)
			expect(R, ',');
		take_region(R, op, &rg);
		VEC_PUSH(R->a, op->regions, op->nregions, cap, rg);
	}
}

/* `(%a, %b#1)` and an optional `[^bb1, ^bb2]`. */
static void
take_uses(Rd *R, MOp *op)
{
	int cap = 0;

	expect(R, '(');
	while (!accept(R, ')')) {
		if (op->noperands > 0)
			expect(R, ',');
		VEC_PUSH(R->a, op->operands, op->noperands, cap,
			 take_name(R, '%', true, "an operand"));
	}
	if (!accept(R, '['))
		return;
	cap = 0;
	do
		VEC_PUSH(R->a, op->succs, op->nsuccs, cap,
			 take_name(R, '^', false, "a successor"));
	while (accept(R, ','));
	expect(R, ']');
}

/* One op in generic form, starting at R->p. */
static MOp *
take_op(Rd *R, MOp *parent)
{
	MOp *op = arena_alloc(R->a, sizeof *op);
	int *counts = NULL, ngroups = 0;

	/* the call's time limit covers reading its answer (stop.h) */
	if (stop_reading())
		rd_fail(R, R->p, "past the time limit of the call");
	skip_ws(R);
	op->at = rd_loc(R, R->p);
	op->parent = parent;
	if (peek(R, '%'))
		ngroups = take_results(R, op, &counts);
	if (!peek(R, '"'))
		expected(R, "'\"' to start an op name (the generic form, "
			    "--mlir-print-op-generic)");
	op->name = take_string(R, "an op name");
	if (!op->name[0])
		rd_fail(R, R->p - 2, "empty op name");
	take_uses(R, op);
	if (accept(R, '<')) {
		expect(R, '{');
		take_dict(R, &op->props, &op->nprops);
		expect(R, '>');
	}
	if (accept(R, '('))
		take_regions(R, op);
	if (accept(R, '{'))
		take_dict(R, &op->attrs, &op->nattrs);
	take_fntype(R, op);
	expand_results(R, op, counts, ngroups);
	take_loc(R, &op->loc);
	return op;
}

/* `^bb0(%a: T loc(...), ...):` after the label. */
static void
take_block_args(Rd *R, MBlock *b)
{
	const char **locp = NULL;
	size_t *locn = NULL;
	int cap = 0, n = 0, tcap = 0, nt = 0, pcap = 0, np = 0, lcap = 0,
	    nl = 0;

	if (!accept(R, '('))
		return;
	while (!accept(R, ')')) {
		const char *p = NULL;
		size_t len = 0;

		if (n > 0)
			expect(R, ',');
		VEC_PUSH(R->a, b->args, n, cap,
			 take_name(R, '%', false, "a block argument"));
		expect(R, ':');
		VEC_PUSH(R->a, b->argtypes, nt, tcap,
			 take_balanced(R, STOP_COMMA | STOP_CLOSE | STOP_LOC,
				       "a type"));
		take_loc_span(R, &p, &len);
		VEC_PUSH(R->a, locp, np, pcap, p);
		VEC_PUSH(R->a, locn, nl, lcap, len);
	}
	/* the locations go in once the array stops moving */
	b->nargs = n;
	b->arglocs = arena_alloc(R->a, (size_t)n * sizeof *b->arglocs);
	for (int i = 0; i < n; i++)
		if (locp[i])
			add_fixup(R, &b->arglocs[i], locp[i], locn[i]);
}

/* A block: an optional label, then ops up to the next label or '}'. */
static MBlock *
take_block(Rd *R, MOp *parent)
{
	MBlock *b = arena_alloc(R->a, sizeof *b);
	int cap = 0;

	if (peek(R, '^')) {
		b->label = take_name(R, '^', false, "a block label");
		take_block_args(R, b);
		expect(R, ':');
	}
	while (!peek(R, '}') && !peek(R, '^')) {
		if (R->p >= R->end || (*R->p != '%' && *R->p != '"'))
			expected(R, "an operation");
		VEC_PUSH(R->a, b->ops, b->nops, cap, take_op(R, parent));
	}
	return b;
}

static void
take_region(Rd *R, MOp *parent, MRegion *rg)
{
	int cap = 0;

	expect(R, '{');
	if (++R->depth > MR_MAX_DEPTH)
		rd_fail(R, R->p - 1, "regions nested deeper than %d",
			MR_MAX_DEPTH);
	while (!accept(R, '}'))
		VEC_PUSH(R->a, rg->blocks, rg->nblocks, cap,
			 take_block(R, parent));
	R->depth--;
	/* branches name blocks (an answer may hold 10^5 in one region); a
	 * few are scanned (most regions hold one: no table to zero) */
	strmap_init(&rg->labels, R->a);
	for (int k = 0; rg->nblocks > 8 && k < rg->nblocks; k++)
		if (rg->blocks[k]->label)
			strmap_add(&rg->labels, rg->blocks[k]->label, k);
}

/* ------------------------------------------------------------ top level */

/* `#name = value` or `!name = type` (the sigil at R->p); loc aliases are
 * kept for resolution. */
static void
take_alias(Rd *R)
{
	const char *name = R->p, *e, *p;
	size_t n;

	R->p++;
	while (R->p < R->end && mlir_id_char((unsigned char)*R->p))
		R->p++;
	if (R->p == name + 1)
		expected(R, "an alias name");
	e = R->p;
	expect(R, '=');
	skip_ws(R);
	if (*name == '#' && take_loc_span(R, &p, &n)) {
		alias_add(R, name, (size_t)(e - name), p, n);
		return;
	}
	R->p = scan_balanced(R, STOP_NEWLINE);
}

/* `{-# dialect_resources: {...} #-}`: skipped whole (blobs are strings). */
static void
take_resources(Rd *R)
{
	const char *s = R->p;

	for (R->p += 3; R->p < R->end; R->p++) {
		if (*R->p == '"')
			R->p = skip_string(R, R->p) - 1;
		else if (R->end - R->p >= 3 && !memcmp(R->p, "#-}", 3)) {
			R->p += 3;
			return;
		}
	}
	rd_fail(R, s, "unterminated '{-#' block");
}

/* Top-level ops in *v; aliases and resource blocks are taken aside. */
static void
take_top(Rd *R, MOp ***v, int *n)
{
	int cap = 0;

	for (;;) {
		skip_ws(R);
		if (R->p >= R->end)
			return;
		if (*R->p == '#' || *R->p == '!')
			take_alias(R);
		else if (R->end - R->p >= 3 && !memcmp(R->p, "{-#", 3))
			take_resources(R);
		else if (*R->p == '%' || *R->p == '"')
			VEC_PUSH(R->a, *v, *n, cap, take_op(R, NULL));
		else
			expected(R, "an operation or an alias definition");
	}
}

/* The top op: a single "builtin.module", else a module around them all
 * (as MLIR wraps a file's top-level ops). */
static MOp *
top_op(Rd *R, MOp **ops, int n)
{
	MOp *m;
	MBlock *b;

	if (n == 1 && !strcmp(ops[0]->name, "builtin.module"))
		return ops[0];
	m = arena_alloc(R->a, sizeof *m);
	m->name = "builtin.module";
	m->optypes = m->restypes = arena_alloc(R->a, sizeof(char *));
	m->at = (Loc){1, 1};
	m->regions = arena_alloc(R->a, sizeof *m->regions);
	m->nregions = 1;
	m->regions[0].blocks = arena_alloc(R->a, sizeof(MBlock *));
	m->regions[0].nblocks = 1;
	b = m->regions[0].blocks[0] = arena_alloc(R->a, sizeof *b);
	b->ops = ops;
	b->nops = n;
	for (int i = 0; i < n; i++)
		ops[i]->parent = m;
	return m;
}

int
mlir_read(const char *text, size_t len, Arena *a, MOp **top, Diag *d)
{
	static const Loc noloc = {0, 0};
	jmp_buf *saved = a->oom;
	Rd *R = mem_calloc(1, sizeof *R);
	MOp **ops = NULL;
	int nops = 0, rc = 0;

	*top = NULL;
	if (!R)
		return diag_set(d, noloc, "out of memory");
	R->text = R->p = R->mark = R->lstart = text;
	R->end = text + len;
	R->line = 1;
	R->a = a;
	R->d = d ? d : &R->dummy;
	a->oom = &R->jb;
	if (setjmp(R->jb)) {
		if (!R->failed)
			diag_set(d, noloc, "out of memory");
		rc = -1;
	} else {
		take_top(R, &ops, &nops);
		resolve_all(R);
		*top = top_op(R, ops, nops);
	}
	a->oom = saved;
	mem_free(R->fix);
	mem_free(R->al);
	strmap_free(&R->alias);
	mem_free(R);
	return rc;
}

/* ------------------------------------------------------------ queries */

const MAttr *
mop_attr(const MOp *op, const char *name)
{
	for (int i = 0; i < op->nprops; i++)
		if (!strcmp(op->props[i].name, name))
			return &op->props[i];
	for (int i = 0; i < op->nattrs; i++)
		if (!strcmp(op->attrs[i].name, name))
			return &op->attrs[i];
	return NULL;
}

void
mop_walk(MOp *top, void (*fn)(MOp *op, void *ctx), void *ctx)
{
	fn(top, ctx);
	for (int r = 0; r < top->nregions; r++)
		for (int b = 0; b < top->regions[r].nblocks; b++) {
			MBlock *bl = top->regions[r].blocks[b];

			for (int i = 0; i < bl->nops; i++)
				mop_walk(bl->ops[i], fn, ctx);
		}
}

int
mregion_block(const MRegion *r, const char *label)
{
	if (r && r->labels.n)
		return strmap_get(&r->labels, label);
	for (int k = 0; r && k < r->nblocks; k++)
		if (r->blocks[k]->label && !strcmp(r->blocks[k]->label, label))
			return k;
	return -1;
}

int
mregion_rpo(const MRegion *r, Arena *a, int *order, const MOp **bad)
{
	int n = r->nblocks, np = 0, top = 0;
	int *stack, *next;
	bool *seen;

	*bad = NULL;
	if (!n)
		return 0;
	stack = arena_alloc(a, sizeof(int) * (size_t)n);
	next = arena_alloc(a, sizeof(int) * (size_t)n);
	seen = arena_alloc(a, sizeof(bool) * (size_t)n);
	if (!stack || !next || !seen)
		return -1;
	stack[top++] = 0;
	seen[0] = true;
	while (top) { /* each block pushed once: top <= n */
		const MBlock *b = r->blocks[stack[top - 1]];
		const MOp *t = b->nops ? b->ops[b->nops - 1] : NULL;
		int k = next[stack[top - 1]]++, s;
		if (!t || k >= t->nsuccs) {
			order[np++] = stack[--top];
			continue;
		}
		if ((s = mregion_block(r, t->succs[k])) < 0) {
			*bad = t;
			return -1;
		}
		if (!seen[s]) {
			seen[s] = true;
			stack[top++] = s;
		}
	}
	for (int i = 0; i < np / 2; i++) { /* postorder, reversed */
		int x = order[i];
		order[i] = order[np - 1 - i];
		order[np - 1 - i] = x;
	}
	return np;
}

/* ------------------------------------------------------------ attributes */

static const char *
skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A string literal at p: its end, or NULL. */
static const char *
string_end(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p == '"' ? p + 1 : NULL;
}

/* An integer at *pp (optionally `: type`, skipped up to `,` `]` `>`). */
static bool
take_i64(const char **pp, int64_t *v)
{
	const char *p = skip_sp(*pp);
	char *e;
	long long x;

	if (!(*p == '-' || is_digit((unsigned char)*p)))
		return false;
	x = strtoll(p, &e, p[0] == '0' && p[1] == 'x' ? 16 : 10);
	if (e == p || mlir_id_char((unsigned char)*e))
		return false;
	p = skip_sp(e);
	if (*p == ':') {
		p = skip_sp(p + 1);
		while (mlir_id_char((unsigned char)*p))
			p++;
	}
	*v = x;
	*pp = skip_sp(p);
	return true;
}

int
mattr_strings(const MAttr *a, Arena *ar, const char **out, int n)
{
	const char *p = a ? skip_sp(a->text) : "";
	int k = 0;

	if (*p++ != '[')
		return -1;
	for (p = skip_sp(p); *p != ']'; k++) {
		const char *e;

		if (k > 0) {
			if (*p != ',')
				return -1;
			p = skip_sp(p + 1);
		}
		if (!(e = string_end(p)))
			return -1;
		if (k < n && !(out[k] = unescape(ar, p, e)))
			return -1;
		p = skip_sp(e);
	}
	return *skip_sp(p + 1) ? -1 : k;
}

int
mattr_int(const MAttr *a, int64_t *v)
{
	const char *p = a ? a->text : "";

	return take_i64(&p, v) && !*p ? 0 : -1;
}

int
mattr_ints(const MAttr *a, int64_t *out, int n)
{
	const char *p = a ? skip_sp(a->text) : "";
	char close = ']';
	int k = 0;

	if (!strncmp(p, "array<", 6)) {
		for (p += 6; mlir_id_char((unsigned char)*p); p++)
			;
		p = skip_sp(p);
		if (*p == ':')
			p++;
		else if (*p != '>')
			return -1;
		close = '>';
	} else if (*p++ != '[')
		return -1;
	for (p = skip_sp(p); *p != close; k++) {
		int64_t v;

		if (k > 0) {
			if (*p != ',')
				return -1;
			p++;
		}
		if (!take_i64(&p, &v))
			return -1;
		if (k < n)
			out[k] = v;
	}
	return *skip_sp(p + 1) ? -1 : k;
}

const char *
mattr_str(const MAttr *a, Arena *ar)
{
	const char *p = a ? skip_sp(a->text) : "", *e = string_end(p);

	return e && !*skip_sp(e) ? unescape(ar, p, e) : NULL;
}
