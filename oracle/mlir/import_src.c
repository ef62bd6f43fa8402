/*
 * import_src.c: the user's own MLIR text behind an import (docs/import.md
 * "Names, comments and locations").  The tool prints the generic form,
 * which numbers values (`%3`, `%arg6`); the user wrote `%acc = ...`.  At
 * each op's loc("FILE":L:C) in the user's file the text before the op's
 * name holds its results' names, and a block argument's loc points at its
 * `%name`: those become the TIR names.  The comment lines above an op
 * come along, and every op's TIR line ends with `// loc(L:C)`, which the
 * case loader reads back (case.c) so that reports cite the .mlir.
 */
#include <stdio.h>
#include <stdlib.h>

#include "import_impl.h"

/* ------------------------------------------------------------ the text */

void
imp_src_init(Imp *I, const ImportSrc *s)
{
	const char *p, *e;

	if (!s || !s->text)
		return;
	I->src = s;
	e = s->text + s->len;
	VEC_PUSH(I->a, I->srclines, I->nsrclines, I->capsrclines, s->text);
	for (p = s->text; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		VEC_PUSH(I->a, I->srclines, I->nsrclines, I->capsrclines, p + 1);
}

/* Line l (1-based) of the user's text and its length, or NULL. */
static const char *
src_line(Imp *I, int l, size_t *n)
{
	const char *p, *e;

	if (!I->src || l < 1 || l > I->nsrclines)
		return NULL;
	p = I->srclines[l - 1];
	e = l < I->nsrclines ? I->srclines[l] - 1 : I->src->text + I->src->len;
	*n = (size_t)(e - p);
	return p;
}

/* Is l a place in the user's file? */
static bool
src_ours(Imp *I, const MLoc *l)
{
	return I->src && l->file && l->line > 0 && l->col > 0 &&
	       !strcmp(l->file, I->src->locfile);
}

/* `%name` at p (< e): its length without the %, or 0. */
static size_t
name_at(const char *p, const char *e)
{
	const char *q = p + 1;

	if (p >= e || *p != '%')
		return 0;
	while (q < e && mlir_id_char((unsigned char)*q))
		q++;
	return (size_t)(q - p - 1);
}

/* ------------------------------------------------------------ the names */

static void
hint(Imp *I, const char *mlir, const char *name)
{
	char key[32];

	fmt_snprintf(key, sizeof key, "%p", (const void *)mlir);
	if (strmap_set(&I->hints, arena_strdup(I->a, key), I->nhintv) < 0)
		imp_fail(I, NULL, "out of memory");
	VEC_PUSH(I->a, I->hintv, I->nhintv, I->caphintv, name);
}

/* The results' names in `%a, %b:2 = ` before the op's name on its line:
 * name j of n (`%b:2` gives b_0, b_1), or no hints when the text is not
 * that list. */
static void
result_hints(Imp *I, const MOp *op)
{
	size_t n, k;
	const char *l = src_line(I, op->loc.line, &n), *p, *e;
	int j = 0;

	if (!l || !op->nresults || (size_t)op->loc.col > n + 1)
		return;
	e = l + op->loc.col - 1;
	while (e > l && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == l || *--e != '=')
		return;
	for (p = l; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	while (p < e) {
		const char *nm = p + 1;
		long cnt = 1;

		if (!(k = name_at(p, e)))
			return;
		p += k + 1;
		if (p < e && *p == ':') {
			char *q;
			cnt = strtol(p + 1, &q, 10);
			if (q == p + 1 || cnt < 1 || cnt > op->nresults)
				return;
			p = q;
		}
		for (long m = 0; m < cnt && j < op->nresults; m++, j++) {
			char buf[300];
			if (cnt == 1)
				fmt_snprintf(buf, sizeof buf, "%.*s", (int)k, nm);
			else
				fmt_snprintf(buf, sizeof buf, "%.*s_%ld", (int)k,
					     nm, m);
			hint(I, op->results[j], arena_strdup(I->a, buf));
		}
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p < e && *p++ != ',')
			return;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
	}
}

/* Block b's arguments: the `%name` at each one's loc; else, for the
 * tool's `%argN` (numbered across the module), `argK` counted in the
 * function, so that no other function changes a name. */
static void
arg_hints(Imp *I, const MBlock *b)
{
	for (int i = 0; i < b->nargs; i++) {
		const MLoc *l = b->arglocs ? &b->arglocs[i] : NULL;
		const char *t;
		size_t n, k;

		if (l && src_ours(I, l) && (t = src_line(I, l->line, &n)) &&
		    (size_t)l->col <= n &&
		    (k = name_at(t + l->col - 1, t + n))) {
			hint(I, b->args[i], arena_strndup(I->a, t + l->col, k));
			continue;
		}
		if (!strncmp(b->args[i], "%arg", 4) &&
		    strspn(b->args[i] + 4, "0123456789") == strlen(b->args[i] + 4)) {
			char buf[32];
			fmt_snprintf(buf, sizeof buf, "arg%d", I->argno++);
			hint(I, b->args[i], arena_strdup(I->a, buf));
		}
	}
}

static void
hints_fn(MOp *op, void *ctx)
{
	Imp *I = ctx;

	if (src_ours(I, &op->loc))
		result_hints(I, op);
	for (int r = 0; r < op->nregions; r++)
		for (int b = 0; b < op->regions[r].nblocks; b++)
			arg_hints(I, op->regions[r].blocks[b]);
}

/* The names of function f's values, before it is imported. */
void
imp_src_func(Imp *I, const MOp *f)
{
	I->argno = 0;
	if (!I->hints.arena)
		strmap_init(&I->hints, I->a);
	strmap_clear(&I->hints);
	I->nhintv = 0;
	mop_walk((MOp *)f, hints_fn, I);
}

/* The user's name for the MLIR value `mlir` (its string in the op or
 * block), or NULL. */
const char *
imp_src_name(Imp *I, const char *mlir)
{
	char key[32];
	int k;

	if (!I->hintv)
		return NULL;
	fmt_snprintf(key, sizeof key, "%p", (const void *)mlir);
	k = strmap_get(&I->hints, key);
	return k >= 0 && k < I->nhintv ? I->hintv[k] : NULL;
}

/* ----------------------------------------------- comments and locations */

/* A comment line of the user's as a TIR comment: its bytes kept when
 * they are printable ASCII or UTF-8 sequences, others `?` (a YAML block
 * scalar holds no control byte). */
static void
put_comment(Imp *I, const char *p, size_t n, int depth)
{
	imp_ind(I, depth);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
			   (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = k == 1 ? (c >= 0x20 && c != 0x7f) || c == '\t' :
			  k > 1 && i + k <= n;
		for (size_t m = 1; ok && m < k; m++)
			ok = ((unsigned char)p[i + m] & 0xc0) == 0x80;
		if (!ok)
			k = 1;
		str_put(I->out, ok ? p + i : "?", ok ? k : 1);
		i += k - 1;
	}
	str_puts(I->out, "\n");
}

/* The user's `//` lines between the last op written and op. */
void
imp_src_comments(Imp *I, const MOp *op, int depth)
{
	if (!src_ours(I, &op->loc) || op->loc.line <= I->cline)
		return;
	for (int l = I->cline + 1; l < op->loc.line; l++) {
		size_t n = 0;
		const char *t = src_line(I, l, &n), *p = t;

		if (!t)
			break;
		while (p < t + n && (*p == ' ' || *p == '\t'))
			p++;
		while (n && (t[n - 1] == '\r' || t[n - 1] == ' '))
			n--;
		if (p + 1 < t + n && p[0] == '/' && p[1] == '/')
			put_comment(I, p, (size_t)(t + n - p), depth);
	}
	I->cline = op->loc.line;
}

/* A loc's file the tag can quote: no quote, backslash or control byte. */
static bool
quotable(const char *f)
{
	for (; *f; f++)
		if (*f == '"' || *f == '\\' || (unsigned char)*f < 0x20 ||
		    *f == 0x7f)
			return false;
	return true;
}

/* ` // loc(L:C)` at the end of the first line written from `start` on;
 * an op whose loc names another file (an exported program's .yaml)
 * keeps it, ` // loc("FILE":L:C)`, as MLIR would cite it. */
void
imp_src_tag(Imp *I, const MOp *op, size_t start)
{
	Str *o = I->out;
	char tag[600];
	const char *nl;
	int n;
	size_t at;
	bool ours = src_ours(I, &op->loc);

	if ((!ours && (!I->src || !op->loc.file || op->loc.line < 1 ||
		       op->loc.col < 1 || strlen(op->loc.file) > 500 ||
		       !quotable(op->loc.file))) ||
	    o->oom || o->len <= start ||
	    !(nl = memchr(o->s + start, '\n', o->len - start)))
		return;
	if (ours)
		n = fmt_snprintf(tag, sizeof tag, "  // loc(%d:%d)", op->loc.line,
				 op->loc.col);
	else
		n = fmt_snprintf(tag, sizeof tag, "  // loc(\"%s\":%d:%d)",
				 op->loc.file, op->loc.line, op->loc.col);
	at = (size_t)(nl - o->s);
	str_put(o, tag, (size_t)n);
	if (o->oom)
		return;
	memmove(o->s + at + n, o->s + at, o->len - (size_t)n - at);
	memcpy(o->s + at, tag, (size_t)n);
}

/* ------------------------------------------------------------ sections */

/* Is the line [p, e) mlir-opt's -split-input-file marker `// -----`? */
static bool
split_marker(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return e - p >= 8 && !memcmp(p, "// -----", 8);
}

int
mlir_sections(const char *text, size_t len)
{
	const char *p = text, *e = text + len;
	int n = 1;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		n += split_marker(p, le);
		p = le + 1;
	}
	return n;
}

char *
mlir_section(const char *text, size_t len, int n, size_t *outlen)
{
	char *s = mem_alloc(len + 1), *w = s;
	const char *p = text, *e = text + len;
	int k = 1;

	if (!s)
		return NULL;
	/* the lines before section n empty, its own as they are, nothing
	 * after it: every line and column of section n stays where it is,
	 * and a file of many sections is not read whole for each */
	while (p < e && k <= n) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		bool mark = split_marker(p, le);
		k += mark;
		if (k == n && !mark) {
			memcpy(w, p, (size_t)(le - p));
			w += le - p;
		}
		if (nl && k <= n)
			*w++ = '\n';
		p = le + 1;
	}
	*w = 0;
	*outlen = (size_t)(w - s);
	return s;
}
