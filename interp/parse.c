/*
 * parse.c: TIR text -> Program.
 *
 * Recursive descent over the tokens of lex.c.  Errors and out-of-memory
 * longjmp to the one protected entry, tir_parse (Lua style), which frees
 * the program's arena and returns NULL with the Diag filled.
 *
 * A use of a value defined earlier in its function is resolved at once
 * (the function's names are in a map while it is read); a use before its
 * definition is parsed as a placeholder (id -1) and replaced by the
 * function's value of that name once the function is read, so a use may
 * precede its definition here; dominance is the verifier's business.
 * Errors of names (a redefinition, an undefined value) are reported once
 * the whole text is read, function by function.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"
#include "strmap.h"

typedef struct CallRef {
	Op *op;
	Loc loc; /* the `@callee` token */
} CallRef;

/* What resolve() reports of a function's names: its first redefined
 * value, whether a use is left undefined. */
typedef struct NameCheck {
	Value *redef;
	bool undef;
} NameCheck;

/* A branch's `^label`, resolved when its function's body is whole. */
typedef struct SuccRef {
	Op *op;
	int k;
	const char *name;
} SuccRef;

typedef struct Parser {
	Lexer lx;
	Token tok;          /* the current token; the lexer is just past it */
	Loc prev_end;       /* just past the previous token */
	Arena *a;
	Program *prog;
	Func *fn;           /* function being parsed */
	int vcap, fcap;
	CallRef *calls;
	int ncalls, ccap;
	Op **awaits;
	int nawaits, acap;
	SuccRef *succs;     /* the current function's branch targets */
	int nsuccs, scap;
	StrMap labels;      /* ... its block labels: index in f->blocks */
	StrMap funcs;       /* function names: index in prog->funcs */
	StrMap names;       /* the current function's values by name: index
			     * in prog->values (mem_alloc'ed) */
	int nfwd;           /* ... its uses parsed as placeholders */
	Value *redef;       /* ... its first value whose name was taken */
	NameCheck *checks;  /* per function read so far */
	int nchecks, chkcap;
	Diag *d;
	Diag dummy;         /* when the caller passes no Diag */
	bool failed;        /* d is filled (else a longjmp means OOM) */
	int depth;          /* regions open now */
	int ddepth;         /* dense lists open now */
	jmp_buf jb;
} Parser;

/* Deepest nesting of regions the parser takes: every pass after it
 * recurses over regions, so this bounds their stacks too (24,000 nested
 * ifs overflowed the parser's stack). */
enum { MAX_NEST = 256 };

/* Dense literals are parsed before their type is known. */
typedef struct DNode DNode;
struct DNode {
	Loc loc;
	bool islist;
	int n;
	DNode **kids;
	Token lit;
};

/* ------------------------------------------------------------ errors */

static _Noreturn void perr(Parser *P, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static _Noreturn void
perr(Parser *P, Loc loc, const char *fmt, ...)
{
	va_list ap;

	P->d->loc = loc;
	va_start(ap, fmt);
	fmt_vsnprintf(P->d->msg, sizeof P->d->msg, fmt, ap);
	va_end(ap);
	P->failed = true;
	longjmp(P->jb, 1);
}

/* A token as it reads in "found ..." messages. */
static const char *
desc(const Token *t, char *buf, size_t n)
{
	const char *s = t->s;
	size_t len = t->len;

	if (t->kind == TK_EOF)
		return "end of input";
	if (t->kind == TK_VALUE || t->kind == TK_FUNC || t->kind == TK_BLOCK) {
		s--;
		len++;
	}
	if (len > 40)
		len = 40;
	fmt_snprintf(buf, n, "'%.*s'", (int)len, s);
	return buf;
}

/* Something missing at the end of a line is reported on that line, just
 * past the last token, as a reader of the line expects. */
static _Noreturn void
expected(Parser *P, const char *what)
{
	char buf[64];
	Loc loc = P->tok.loc;

	if (P->prev_end.line && P->prev_end.line != loc.line)
		loc = P->prev_end;
	perr(P, loc, "expected %s, found %s", what,
	     desc(&P->tok, buf, sizeof buf));
}

/* ------------------------------------------------------------ tokens */

static void
next(Parser *P)
{
	const Token *t = &P->tok;

	if (t->kind != TK_EOF && t->loc.line) {
		P->prev_end.line = t->loc.line;
		P->prev_end.col = t->loc.col + (int)t->len +
				  (t->kind == TK_VALUE || t->kind == TK_FUNC);
	}
	if (lex_next(&P->lx, &P->tok, P->d)) {
		P->failed = true;
		longjmp(P->jb, 1);
	}
}

static bool
is_punct(Parser *P, char c)
{
	return P->tok.kind == TK_PUNCT && P->tok.punct == c;
}

static bool
is_kw(Parser *P, const char *kw)
{
	return P->tok.kind == TK_IDENT && word_is(P->tok.s, P->tok.len, kw);
}

/* op_lookup without a strlen of every name (an op per line), among the
 * ops whose name starts with s[0]: the kinds sorted by first letter,
 * built once (op k's letter's run is byfirst[at[c]] .. at[c + 1]). */
static int
op_kind(const char *s, size_t n)
{
	_Static_assert(OP_COUNT < 128, "op kinds fit a signed char");
	static unsigned char at[129];
	static signed char byfirst[OP_COUNT];
	unsigned c = (unsigned char)s[0];

	if (!at[128]) {
		for (int k = 0; k < OP_COUNT; k++)
			at[(unsigned char)op_info[k].name[0] + 1]++;
		for (int i = 1; i <= 128; i++)
			at[i] += at[i - 1];
		for (int k = 0, fill[128] = {0}; k < OP_COUNT; k++) {
			unsigned f = (unsigned char)op_info[k].name[0];
			byfirst[at[f] + fill[f]++] = (signed char)k;
		}
	}
	if (!n || c >= 128)
		return -1;
	for (int i = at[c]; i < at[c + 1]; i++)
		if (word_is(s, n, op_info[byfirst[i]].name))
			return byfirst[i];
	return -1;
}

static void
expect_punct(Parser *P, char c)
{
	char what[8];

	if (!is_punct(P, c)) {
		if (c == 'A')
			expected(P, "'->'");
		fmt_snprintf(what, sizeof what, "'%c'", c);
		expected(P, what);
	}
	next(P);
}

static void
expect_kw(Parser *P, const char *kw)
{
	char what[32];

	if (!is_kw(P, kw)) {
		fmt_snprintf(what, sizeof what, "'%s'", kw);
		expected(P, what);
	}
	next(P);
}

static bool
accept_punct(Parser *P, char c)
{
	if (!is_punct(P, c))
		return false;
	next(P);
	return true;
}

static char *
tok_str(Parser *P, const Token *t)
{
	return arena_strndup(P->a, t->s, t->len);
}

/* ------------------------------------------------------------- types */

static Type *
new_scalar(Parser *P, DType dt, Loc loc)
{
	Type *t = arena_alloc(P->a, sizeof *t);

	t->kind = TY_SCALAR;
	t->dt = dt;
	t->loc = loc;
	return t;
}

static Type *parse_type(Parser *P);

static void
parse_future(Parser *P, Type *t)
{
	int cap = 0;

	t->kind = TY_FUTURE;
	expect_punct(P, '<');
	if (accept_punct(P, '>'))
		return;
	for (;;) {
		Type *e = parse_type(P);
		VEC_PUSH(P->a, t->elems, t->nelems, cap, e);
		if (!accept_punct(P, ','))
			break;
	}
	expect_punct(P, '>');
}

static Type *
parse_type(Parser *P)
{
	Type *t;
	char buf[64];

	if (P->tok.kind != TK_IDENT)
		expected(P, "type");
	t = arena_alloc(P->a, sizeof *t);
	t->loc = P->tok.loc;
	if (is_kw(P, "tensor")) {
		next(P);
		if (!is_punct(P, '<'))
			expected(P, "'<'");
		if (lex_shape(&P->lx, t, P->d)) {
			P->failed = true;
			longjmp(P->jb, 1);
		}
		next(P);
		expect_punct(P, '>');
		return t;
	}
	if (is_kw(P, "future")) {
		next(P);
		parse_future(P, t);
		return t;
	}
	for (int k = 0; k < DT_COUNT; k++) {
		if (is_kw(P, dtype_names[k])) {
			t->kind = TY_SCALAR;
			t->dt = (DType)k;
			next(P);
			return t;
		}
	}
	/* a missing type, not a misspelt one */
	if (P->tok.loc.line != P->prev_end.line ||
	    op_lookup(P->tok.s, P->tok.len) >= 0 || is_kw(P, "func"))
		expected(P, "type");
	perr(P, P->tok.loc, "unknown type %s", desc(&P->tok, buf, sizeof buf));
}

/* `-> T`, `-> (T, ...)` or nothing. */
static void
parse_rtypes(Parser *P, Type ***types, int *n)
{
	int cap = 0;

	*types = NULL;
	*n = 0;
	if (!accept_punct(P, 'A'))
		return;
	if (!accept_punct(P, '(')) {
		Type *t = parse_type(P);
		VEC_PUSH(P->a, *types, *n, cap, t);
		return;
	}
	if (accept_punct(P, ')'))
		return;
	for (;;) {
		Type *t = parse_type(P);
		VEC_PUSH(P->a, *types, *n, cap, t);
		if (!accept_punct(P, ','))
			break;
	}
	expect_punct(P, ')');
}

/* ---------------------------------------------------- values, operands */

static Value *
new_value(Parser *P, const Token *t)
{
	/* the name in the same block: a short one fits in its rounding */
	Value *v = arena_alloc(P->a, sizeof *v + t->len + 1);
	Program *p = P->prog;

	v->name = memcpy(v + 1, t->s, t->len);
	v->loc = t->loc;
	v->func = P->fn;
	v->id = p->nvalues;
	VEC_PUSH_OWN(P->a, p->values, p->nvalues, P->vcap, v);
	switch (strmap_add(&P->names, v->name, v->id)) {
	case STRMAP_NONE:
		break;
	case STRMAP_OOM:
		longjmp(P->jb, 1);
	default:
		if (!P->redef)
			P->redef = v;
	}
	return v;
}

/* A use, resolved by name after the whole text is read. */
static Value *
use_value(Parser *P)
{
	Value *v = arena_alloc(P->a, sizeof *v);

	v->name = tok_str(P, &P->tok);
	v->loc = P->tok.loc;
	v->id = -1;
	next(P);
	return v;
}

static Operand
parse_operand(Parser *P, bool literal)
{
	Operand o;

	memset(&o, 0, sizeof o);
	o.loc = P->tok.loc;
	if (P->tok.kind == TK_VALUE) {
		int i = strmap_getn(&P->names, P->tok.s, P->tok.len);
		if (i >= 0) {
			o.v = P->prog->values[i];
			next(P);
		} else {
			o.v = use_value(P);
			P->nfwd++;
		}
	} else if (literal && P->tok.kind == TK_INT) {
		o.i = P->tok.i;
		o.f = (double)P->tok.i;
		next(P);
	} else if (literal && P->tok.kind == TK_FLOAT) {
		o.isfloat = true;
		o.f = P->tok.f;
		if (isfinite(o.f) && fabs(o.f) < 9.2e18)
			o.i = (int64_t)o.f;
		next(P);
	} else {
		expected(P, literal ? "value or literal" : "value");
	}
	return o;
}

/* `a, b, ...` until no comma; values only unless `literal`. */
static int
parse_operands(Parser *P, Operand **out, bool literal)
{
	int n = 0, cap = 0;

	*out = NULL;
	do {
		Operand o = parse_operand(P, literal);
		VEC_PUSH(P->a, *out, n, cap, o);
	} while (accept_punct(P, ','));
	return n;
}

/* `[a, b]` operand list (offsets, indices); may be empty. */
static int
parse_index_list(Parser *P, Operand **out)
{
	int n = 0;

	*out = NULL;
	expect_punct(P, '[');
	if (accept_punct(P, ']'))
		return 0;
	n = parse_operands(P, out, true);
	if (n > MAXRANK)
		perr(P, (*out)[MAXRANK].loc, "more than %d indices", MAXRANK);
	expect_punct(P, ']');
	return n;
}

static int64_t
parse_int(Parser *P)
{
	int64_t v;

	if (P->tok.kind != TK_INT)
		expected(P, "integer");
	v = P->tok.i;
	next(P);
	return v;
}

/* `[1, 0]`: static integers (sizes, strides, perm, dims); may be empty. */
static int
parse_int_list(Parser *P, int64_t *out, const char *what)
{
	int n = 0;

	expect_punct(P, '[');
	if (accept_punct(P, ']'))
		return 0;
	do {
		Loc loc = P->tok.loc;
		int64_t v = parse_int(P);
		if (n == MAXRANK)
			perr(P, loc, "more than %d %s", MAXRANK, what);
		out[n++] = v;
	} while (accept_punct(P, ','));
	expect_punct(P, ']');
	return n;
}

static void
parse_dims(Parser *P, Op *op)
{
	int64_t tmp[MAXRANK];
	Loc loc = P->tok.loc;

	op->perm = arena_alloc(P->a, MAXRANK * sizeof *op->perm);
	op->nperm = parse_int_list(P, tmp, "dimensions");
	for (int i = 0; i < op->nperm; i++) {
		if (tmp[i] < -1000 || tmp[i] > 1000)
			perr(P, loc, "dimension %lld out of range",
			     (long long)tmp[i]);
		op->perm[i] = (int)tmp[i];
	}
}

/* `[[0, 1], [2]]`: consecutive dims from 0, kept as group sizes. */
static void
parse_reassoc(Parser *P, Op *op)
{
	int next_dim = 0;

	op->reassoc = arena_alloc(P->a, MAXRANK * sizeof *op->reassoc);
	expect_punct(P, '[');
	if (accept_punct(P, ']'))
		return;
	do {
		Loc gloc = P->tok.loc;
		int n = 0;

		if (op->nreassoc == MAXRANK)
			perr(P, gloc, "more than %d reassociation groups",
			     MAXRANK);
		expect_punct(P, '[');
		if (is_punct(P, ']'))
			perr(P, gloc, "empty reassociation group");
		do {
			Loc loc = P->tok.loc;
			int64_t x = parse_int(P);
			if (x != next_dim + n)
				perr(P, loc, "reassociation groups must list "
				     "consecutive dims from 0: expected %d, "
				     "found %lld", next_dim + n, (long long)x);
			n++;
		} while (accept_punct(P, ','));
		expect_punct(P, ']');
		next_dim += n;
		op->reassoc[op->nreassoc++] = n;
	} while (accept_punct(P, ','));
	expect_punct(P, ']');
}

static void
parse_into(Parser *P, Op *op)
{
	expect_kw(P, "into");
	op->dest = parse_operand(P, false);
	op->hasdest = true;
}

static void
opt_into(Parser *P, Op *op)
{
	if (is_kw(P, "into"))
		parse_into(P, op);
}

static void
one_arg(Parser *P, Op *op, bool literal)
{
	op->args = arena_alloc(P->a, sizeof *op->args);
	op->args[0] = parse_operand(P, literal);
	op->nargs = 1;
}

static void
two_args(Parser *P, Op *op, bool literal)
{
	op->args = arena_alloc(P->a, 2 * sizeof *op->args);
	op->args[0] = parse_operand(P, literal);
	expect_punct(P, ',');
	op->args[1] = parse_operand(P, literal);
	op->nargs = 2;
}

/* `[offs] [sizes] [strides]` of the slice ops. */
static void
parse_slice(Parser *P, Op *op)
{
	Loc loc;
	int n;

	op->noffs = parse_index_list(P, &op->offs);
	op->sizes = arena_alloc(P->a, 2 * MAXRANK * sizeof *op->sizes);
	op->strides = op->sizes + MAXRANK;
	loc = P->tok.loc;
	n = parse_int_list(P, op->sizes, "sizes");
	if (n != op->noffs)
		perr(P, loc, "slice has %d offset%s but %d sizes", op->noffs,
		     op->noffs == 1 ? "" : "s", n);
	loc = P->tok.loc;
	n = parse_int_list(P, op->strides, "strides");
	if (n != op->noffs)
		perr(P, loc, "slice has %d offset%s but %d strides", op->noffs,
		     op->noffs == 1 ? "" : "s", n);
}

/* ----------------------------------------------------------- constants */

static DNode *
parse_dense(Parser *P)
{
	DNode *n = arena_alloc(P->a, sizeof *n);
	int cap = 0;

	n->loc = P->tok.loc;
	if (P->tok.kind == TK_INT || P->tok.kind == TK_FLOAT) {
		n->lit = P->tok;
		next(P);
		return n;
	}
	if (!is_punct(P, '['))
		expected(P, "literal or '['");
	if (++P->ddepth > MAXRANK)
		perr(P, n->loc, "dense literal nested deeper than %d", MAXRANK);
	next(P);
	n->islist = true;
	if (!accept_punct(P, ']')) {
		do {
			DNode *k = parse_dense(P);
			VEC_PUSH(P->a, n->kids, n->n, cap, k);
		} while (accept_punct(P, ','));
		expect_punct(P, ']');
	}
	P->ddepth--;
	return n;
}

static void
const_elem(Parser *P, Op *op, const DNode *n, int *cap)
{
	ConstData *c = &op->cdata;
	DType dt = op->type->dt;
	char buf[64];

	if (dtype_is_float(dt)) {
		double f = n->lit.kind == TK_FLOAT ? n->lit.f
						   : (double)n->lit.i;
		int64_t m = c->n;
		VEC_PUSH(P->a, c->f, m, *cap, f);
		c->n = m;
		return;
	}
	if (n->lit.kind == TK_FLOAT)
		perr(P, n->loc, "expected integer literal for %s, found %s",
		     dtype_names[dt], desc(&n->lit, buf, sizeof buf));
	if ((dt == DT_I1 && (n->lit.i < 0 || n->lit.i > 1)) ||
	    (dt == DT_I32 && (n->lit.i < INT32_MIN || n->lit.i > INT32_MAX)))
		perr(P, n->loc, "integer literal %lld out of range for %s",
		     (long long)n->lit.i, dtype_names[dt]);
	{
		int64_t m = c->n;
		VEC_PUSH(P->a, c->i, m, *cap, n->lit.i);
		c->n = m;
	}
}

/* Check a dense list against the shape (`seen` fixes `?` dims) and
 * flatten it row-major into cdata. */
static void
const_walk(Parser *P, Op *op, const DNode *n, int level, int64_t *seen,
	   int *cap)
{
	const Type *t = op->type;
	int rank = t->kind == TY_TENSOR ? t->rank : 0;
	char buf[64];

	if (level == rank) {
		if (n->islist)
			perr(P, n->loc, "dense literal nested deeper than "
			     "the rank of %s", type_str(t, buf, sizeof buf));
		const_elem(P, op, n, cap);
		return;
	}
	if (!n->islist)
		perr(P, n->loc, "expected '[', found %s",
		     desc(&n->lit, buf, sizeof buf));
	if (seen[level] < 0)
		seen[level] = t->dims[level] == DIM_DYN ? n->n : t->dims[level];
	if (n->n != seen[level])
		perr(P, n->loc, "dense literal has %d element%s in dimension "
		     "%d, expected %lld", n->n, n->n == 1 ? "" : "s", level,
		     (long long)seen[level]);
	for (int i = 0; i < n->n; i++)
		const_walk(P, op, n->kids[i], level + 1, seen, cap);
}

static void
fill_const(Parser *P, Op *op, const DNode *n)
{
	int64_t seen[MAXRANK];
	char buf[128];
	int cap = 0;

	if (op->type->kind == TY_FUTURE)
		perr(P, op->type->loc, "const needs a scalar or tensor type, "
		     "got %s", type_str(op->type, buf, sizeof buf));
	if (!n->islist) {
		const_elem(P, op, n, &cap);
		op->cdata.splat = op->type->kind == TY_TENSOR &&
				  op->type->rank > 0;
		return;
	}
	for (int i = 0; i < MAXRANK; i++)
		seen[i] = -1;
	const_walk(P, op, n, 0, seen, &cap);
}

/* ------------------------------------------------------------ ops */

static Block *parse_region(Parser *P, Op *parent, Block *b);

static Block *
new_block(Parser *P, Op *parent)
{
	Block *b = arena_alloc(P->a, sizeof *b);

	b->parent = parent;
	b->func = P->fn;
	return b;
}

static void
parse_const(Parser *P, Op *op)
{
	DNode *n;

	if (is_kw(P, "dense")) {
		next(P);
		expect_punct(P, '<');
		n = parse_dense(P);
		expect_punct(P, '>');
	} else if (P->tok.kind == TK_INT || P->tok.kind == TK_FLOAT) {
		n = arena_alloc(P->a, sizeof *n);
		n->loc = P->tok.loc;
		n->lit = P->tok;
		next(P);
	} else {
		expected(P, "literal or 'dense'");
	}
	expect_punct(P, ':');
	op->type = parse_type(P);
	fill_const(P, op, n);
}

/* `KW(%a = %x, ...)` when present: each %a a new arg of body, each %x the
 * next operand of op (op->args[0..*n), capacity *cap). */
static void
parse_bindings(Parser *P, const char *kw, const char *what, Op *op, int *n,
	       int *cap, Block *body, int *bcap)
{
	int nn = *n, cc = *cap, bc = *bcap;

	if (!is_kw(P, kw))
		return;
	next(P);
	expect_punct(P, '(');
	do {
		Value *a;
		Operand o;
		if (P->tok.kind != TK_VALUE)
			expected(P, what);
		a = new_value(P, &P->tok);
		a->owner = body;
		VEC_PUSH(P->a, body->args, body->nargs, bc, a);
		next(P);
		expect_punct(P, '=');
		o = parse_operand(P, false);
		VEC_PUSH(P->a, op->args, nn, cc, o);
	} while (accept_punct(P, ','));
	expect_punct(P, ')');
	*n = nn;
	*cap = cc;
	*bcap = bc;
}

/* A loop's `%i =`: the index-typed first arg of body. */
static void
parse_iv(Parser *P, Block *body, int *bcap)
{
	Value *iv;

	if (P->tok.kind != TK_VALUE)
		expected(P, "loop variable");
	iv = new_value(P, &P->tok);
	iv->owner = body;
	iv->type = new_scalar(P, DT_INDEX, P->tok.loc);
	VEC_PUSH(P->a, body->args, body->nargs, *bcap, iv);
	next(P);
	expect_punct(P, '=');
}

static void
parse_for(Parser *P, Op *op)
{
	Block *body = new_block(P, op);
	int n = 3, cap = 0, bcap = 0;

	op->body = body;
	parse_iv(P, body, &bcap);
	op->args = arena_alloc(P->a, 4 * sizeof *op->args);
	cap = 4;
	op->args[0] = parse_operand(P, true);
	expect_kw(P, "to");
	op->args[1] = parse_operand(P, true);
	if (is_kw(P, "step")) {
		next(P);
		op->args[2] = parse_operand(P, true);
	} else {
		memset(&op->args[2], 0, sizeof op->args[2]);
		op->args[2].i = 1;
		op->args[2].f = 1;
		op->args[2].loc = op->loc;
	}
	parse_bindings(P, "iter", "iter argument", op, &n, &cap, body, &bcap);
	op->nargs = n;
	parse_rtypes(P, &op->rtypes, &op->nrtypes);
	if (op->nrtypes != body->nargs - 1)
		perr(P, op->loc, "'for' has %d iter arg%s but %d result types",
		     body->nargs - 1, body->nargs == 2 ? "" : "s",
		     op->nrtypes);
	for (int i = 1; i < body->nargs; i++)
		body->args[i]->type = op->rtypes[i - 1];
	parse_region(P, op, body);
}

/* `%i = lb to ub shared(%o = %init, ...) -> (T, ...) { ... }` */
static void
parse_forall(Parser *P, Op *op)
{
	Block *body = new_block(P, op);
	int n = 2, cap = 2, bcap = 0;

	op->body = body;
	parse_iv(P, body, &bcap);
	op->args = arena_alloc(P->a, 2 * sizeof *op->args);
	op->args[0] = parse_operand(P, true);
	expect_kw(P, "to");
	op->args[1] = parse_operand(P, true);
	parse_bindings(P, "shared", "shared argument", op, &n, &cap, body, &bcap);
	op->nargs = n;
	parse_rtypes(P, &op->rtypes, &op->nrtypes);
	if (op->nrtypes != body->nargs - 1)
		perr(P, op->loc, "'forall' has %d shared arg%s but %d result "
		     "types", body->nargs - 1, body->nargs == 2 ? "" : "s",
		     op->nrtypes);
	for (int i = 1; i < body->nargs; i++)
		body->args[i]->type = op->rtypes[i - 1];
	parse_region(P, op, body);
}

/* `while iter(%a = %x, ...) -> (T, ...) { ... condition %c } do { ... }`:
 * both regions see the iter args (one set of Values, owned by body). */
static void
parse_while(Parser *P, Op *op)
{
	Block *body = new_block(P, op), *orelse = new_block(P, op);
	int n = 0, cap = 0, acap = 0;

	op->body = body;
	op->orelse = orelse;
	parse_bindings(P, "iter", "iter argument", op, &n, &acap, body, &cap);
	op->nargs = n;
	parse_rtypes(P, &op->rtypes, &op->nrtypes);
	if (op->nrtypes != body->nargs)
		perr(P, op->loc, "'while' has %d iter arg%s but %d result types",
		     body->nargs, body->nargs == 1 ? "" : "s", op->nrtypes);
	for (int i = 0; i < body->nargs; i++)
		body->args[i]->type = op->rtypes[i];
	orelse->args = body->args;
	orelse->nargs = body->nargs;
	parse_region(P, op, body);
	if (!is_kw(P, "do"))
		expected(P, "'do' region");
	next(P);
	parse_region(P, op, orelse);
}

/* `generate(%n, ...) [%i, %j] : T { ... yield %s }`: the dynamic sizes,
 * one index arg per dim (typed index unless written `%i: T`, which the
 * verifier refuses when T is not index), the type, then the body. */
static void
parse_generate(Parser *P, Op *op)
{
	Block *body = new_block(P, op);
	int bcap = 0;

	op->body = body;
	if (accept_punct(P, '(')) {
		if (!is_punct(P, ')'))
			op->nargs = parse_operands(P, &op->args, false);
		expect_punct(P, ')');
	}
	expect_punct(P, '[');
	if (!is_punct(P, ']'))
		do {
			Value *a;
			if (P->tok.kind != TK_VALUE)
				expected(P, "index argument");
			a = new_value(P, &P->tok);
			a->owner = body;
			a->type = new_scalar(P, DT_INDEX, P->tok.loc);
			VEC_PUSH(P->a, body->args, body->nargs, bcap, a);
			next(P);
			if (accept_punct(P, ':'))
				a->type = parse_type(P);
		} while (accept_punct(P, ','));
	expect_punct(P, ']');
	expect_punct(P, ':');
	op->type = parse_type(P);
	parse_region(P, op, body);
}

/* `assert %c, "message"`: the message is kept unescaped. */
static void
parse_assert(Parser *P, Op *op)
{
	char *m;
	size_t n = 0;

	one_arg(P, op, false);
	expect_punct(P, ',');
	if (P->tok.kind != TK_STRING)
		expected(P, "message string");
	m = arena_alloc(P->a, P->tok.len);
	for (size_t i = 1; i + 1 < P->tok.len; i++) {
		char c = P->tok.s[i];
		if (c == '\\') {
			c = P->tok.s[++i];
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		}
		m[n++] = c;
	}
	m[n] = 0;
	op->msg = m;
	next(P);
}

static void
parse_if(Parser *P, Op *op)
{
	one_arg(P, op, false);
	parse_rtypes(P, &op->rtypes, &op->nrtypes);
	op->body = parse_region(P, op, NULL);
	if (is_kw(P, "else")) {
		next(P);
		op->orelse = parse_region(P, op, NULL);
	}
}

static void
parse_async(Parser *P, Op *op)
{
	if (is_kw(P, "stream")) {
		Loc loc;
		int64_t s;
		next(P);
		loc = P->tok.loc;
		s = parse_int(P);
		if (s < 0 || s > INT32_MAX)
			perr(P, loc, "stream must be a non-negative integer, "
			     "found %lld", (long long)s);
		op->stream = (int)s;
	}
	parse_rtypes(P, &op->rtypes, &op->nrtypes);
	op->body = parse_region(P, op, NULL);
}

static void
parse_call(Parser *P, Op *op)
{
	CallRef r;

	if (P->tok.kind != TK_FUNC)
		expected(P, "function name");
	op->callee = tok_str(P, &P->tok);
	r.op = op;
	r.loc = P->tok.loc;
	VEC_PUSH(P->a, P->calls, P->ncalls, P->ccap, r);
	next(P);
	expect_punct(P, '(');
	if (!is_punct(P, ')'))
		op->nargs = parse_operands(P, &op->args, false);
	expect_punct(P, ')');
}

/* Successor k of a branch: `^label` or `^label(%a, ...)`; its operands
 * are appended to op->args (*n of them so far, capacity *cap). */
static void
parse_succ(Parser *P, Op *op, int k, int *n, int *cap)
{
	SuccRef r = {op, k, NULL};

	if (P->tok.kind != TK_BLOCK)
		expected(P, "block label");
	r.name = tok_str(P, &P->tok);
	op->sloc[k] = P->tok.loc;
	VEC_PUSH(P->a, P->succs, P->nsuccs, P->scap, r);
	next(P);
	op->sarg[k] = *n;
	if (accept_punct(P, '(')) {
		if (!is_punct(P, ')'))
			do {
				Operand o = parse_operand(P, false);
				VEC_PUSH(P->a, op->args, *n, *cap, o);
			} while (accept_punct(P, ','));
		expect_punct(P, ')');
	}
	op->nsarg[k] = *n - op->sarg[k];
	op->nsucc = k + 1;
}

/* `br ^a(args)` or `cond_br %c, ^a(args), ^b(args)` */
static void
parse_branch(Parser *P, Op *op)
{
	int n = 0, cap = 0;

	if (op->kind == OP_COND_BR) {
		Operand c = parse_operand(P, false);
		VEC_PUSH(P->a, op->args, n, cap, c);
		expect_punct(P, ',');
		parse_succ(P, op, 0, &n, &cap);
		expect_punct(P, ',');
		parse_succ(P, op, 1, &n, &cap);
	} else {
		parse_succ(P, op, 0, &n, &cap);
	}
	op->nargs = n;
}

/* Operands of yield/return: values, unless the next value starts an op. */
static void
parse_term(Parser *P, Op *op)
{
	Lexer save;
	Token t;

	if (P->tok.kind != TK_VALUE)
		return;
	save = P->lx;
	if (!lex_next(&save, &t, P->d) && t.kind == TK_PUNCT &&
	    t.punct == '=')
		return;
	op->nargs = parse_operands(P, &op->args, false);
}

/* The operands of op, by form; `:` type where the form has one. */
static void
parse_body(Parser *P, Op *op)
{
	switch (op_info[op->kind].form) {
	case F_CONST:
		parse_const(P, op);
		return;
	case F_EMPTY:
		if (accept_punct(P, '(')) {
			if (!is_punct(P, ')'))
				op->nargs = parse_operands(P, &op->args, false);
			expect_punct(P, ')');
		}
		break;
	case F_BINARY:
		two_args(P, op, true);
		opt_into(P, op);
		break;
	case F_UNARY:
		one_arg(P, op, false);
		opt_into(P, op);
		break;
	case F_CMP:
		two_args(P, op, true);
		break;
	case F_FILL:
		one_arg(P, op, true);
		parse_into(P, op);
		break;
	case F_MATMUL:
		two_args(P, op, false);
		parse_into(P, op);
		break;
	case F_TRANSPOSE:
	case F_REDUCE:
		one_arg(P, op, false);
		parse_dims(P, op);
		parse_into(P, op);
		break;
	case F_EXTRACT_SLICE:
		one_arg(P, op, false);
		parse_slice(P, op);
		break;
	case F_INSERT_SLICE:
		one_arg(P, op, false);
		parse_into(P, op);
		parse_slice(P, op);
		break;
	case F_EXTRACT:
		one_arg(P, op, false);
		op->noffs = parse_index_list(P, &op->offs);
		break;
	case F_INSERT:
		one_arg(P, op, true);
		parse_into(P, op);
		op->noffs = parse_index_list(P, &op->offs);
		break;
	case F_COPY:
		one_arg(P, op, false);
		parse_into(P, op);
		break;
	case F_CLONE:
		one_arg(P, op, false);
		break;
	case F_FROM_ELEMENTS:
		op->nargs = parse_operands(P, &op->args, true);
		break;
	case F_SELECT:
		op->nargs = parse_operands(P, &op->args, false);
		break;
	case F_RESHAPE:
		one_arg(P, op, false);
		parse_reassoc(P, op);
		break;
	case F_CALL:
		parse_call(P, op);
		return;
	case F_IF:
		parse_if(P, op);
		return;
	case F_FOR:
		parse_for(P, op);
		return;
	case F_FORALL:
		parse_forall(P, op);
		return;
	case F_PARALLEL_INSERT:
		one_arg(P, op, false);
		parse_into(P, op);
		parse_slice(P, op);
		return;
	case F_ASYNC:
		parse_async(P, op);
		return;
	case F_AWAIT:
		one_arg(P, op, false);
		VEC_PUSH(P->a, P->awaits, P->nawaits, P->acap, op);
		return;
	case F_YIELD:
	case F_RETURN:
		parse_term(P, op);
		return;
	case F_WHILE:
		parse_while(P, op);
		return;
	case F_GENERATE:
		parse_generate(P, op);
		return;
	case F_ASSERT:
		parse_assert(P, op);
		return;
	case F_CONDITION:
		one_arg(P, op, false);
		return;
	case F_BR:
	case F_COND_BR:
		parse_branch(P, op);
		return;
	}
	expect_punct(P, ':');
	op->type = parse_type(P);
}

static void
check_nres(Parser *P, Op *op, int want)
{
	if (op->nres != want)
		perr(P, op->loc, "'%s' produces %d result%s, got %d",
		     op_info[op->kind].name, want, want == 1 ? "" : "s",
		     op->nres);
}

/* Result types known from the text (calls and awaits: resolve()). */
static void
type_results(Parser *P, Op *op)
{
	Type *t;

	switch (op_info[op->kind].form) {
	case F_CALL:
	case F_AWAIT:
		return;
	case F_YIELD:
	case F_RETURN:
	case F_PARALLEL_INSERT:
	case F_CONDITION:
	case F_ASSERT:
	case F_BR:
	case F_COND_BR:
		check_nres(P, op, 0);
		return;
	case F_IF:
	case F_FOR:
	case F_WHILE:
	case F_FORALL:
		check_nres(P, op, op->nrtypes);
		for (int i = 0; i < op->nres; i++)
			op->res[i]->type = op->rtypes[i];
		return;
	case F_ASYNC:
		/* `%f = async`: the future names the launch (one without it
		 * crashed the reference interpreter) */
		check_nres(P, op, 1);
		t = arena_alloc(P->a, sizeof *t);
		t->kind = TY_FUTURE;
		t->nelems = op->nrtypes;
		t->elems = op->rtypes;
		t->loc = op->loc;
		op->res[0]->type = t;
		return;
	case F_CMP:
		check_nres(P, op, 1);
		op->res[0]->type = new_scalar(P, DT_I1, op->type->loc);
		return;
	default:
		check_nres(P, op, 1);
		op->res[0]->type = op->type;
		return;
	}
}

static Op *
parse_op(Parser *P)
{
	Op *op = arena_alloc(P->a, sizeof *op);
	char buf[64];
	int cap = 0, k;

	op->loc = P->tok.loc;
	if (P->tok.kind == TK_VALUE) {
		/* room for one: most ops have one result */
		op->res = arena_alloc(P->a, sizeof *op->res);
		cap = 1;
		do {
			Value *v;
			if (P->tok.kind != TK_VALUE)
				expected(P, "result name");
			v = new_value(P, &P->tok);
			v->def = op;
			v->resno = op->nres;
			VEC_PUSH(P->a, op->res, op->nres, cap, v);
			next(P);
		} while (accept_punct(P, ','));
		expect_punct(P, '=');
	}
	if (P->tok.kind != TK_IDENT)
		expected(P, "op name");
	k = op_kind(P->tok.s, P->tok.len);
	if (k < 0)
		perr(P, P->tok.loc, "unknown op %s",
		     desc(&P->tok, buf, sizeof buf));
	op->kind = (OpKind)k;
	next(P);
	parse_body(P, op);
	type_results(P, op);
	return op;
}

static Op *
implicit_term(Parser *P, OpKind kind, Loc loc)
{
	Op *op = arena_alloc(P->a, sizeof *op);

	op->kind = kind;
	op->loc = loc;
	return op;
}

static void
push_op(Parser *P, Block *b, int *cap, Op *op)
{
	op->parent = b;
	op->index = b->nops;
	VEC_PUSH_OWN(P->a, b->ops, b->nops, *cap, op);
}

/* `{ ops }` of an op's region.  A region whose parent yields nothing may
 * omit its `yield`. */
static Block *
parse_region(Parser *P, Op *parent, Block *b)
{
	Loc open = P->tok.loc;
	int cap = 0;
	Op *last;

	if (!b)
		b = new_block(P, parent);
	if (++P->depth > MAX_NEST)
		perr(P, open, "regions nested deeper than %d", MAX_NEST);
	expect_punct(P, '{');
	while (!is_punct(P, '}')) {
		if (P->tok.kind == TK_EOF || is_kw(P, "func"))
			perr(P, open, "unterminated region: no matching '}'");
		if (P->tok.kind == TK_BLOCK)
			perr(P, P->tok.loc, "blocks are allowed only in a "
			     "function body, not inside a region");
		push_op(P, b, &cap, parse_op(P));
	}
	last = b->nops ? b->ops[b->nops - 1] : NULL;
	/* a forall body ends with its parallel_insert_slices: the yield
	 * after them is implicit, whatever the results */
	if (parent && (parent->nrtypes == 0 || parent->kind == OP_FORALL) &&
	    parent->kind != OP_GENERATE &&
	    (!last || last->kind != OP_YIELD) &&
	    !(parent->kind == OP_WHILE && b == parent->body))
		push_op(P, b, &cap, implicit_term(P, OP_YIELD, P->tok.loc));
	next(P);
	P->depth--;
	return b;
}

/* ---------------------------------------------------------- functions */

/* `%name: T`, a new value (a param or a block argument). */
static Value *
typed_value(Parser *P, const char *what)
{
	Value *v;

	if (P->tok.kind != TK_VALUE)
		expected(P, what);
	v = new_value(P, &P->tok);
	next(P);
	expect_punct(P, ':');
	v->type = parse_type(P);
	return v;
}

static void
parse_params(Parser *P, Func *f)
{
	int cap = 0;

	expect_punct(P, '(');
	if (accept_punct(P, ')'))
		return;
	do {
		Value *v = typed_value(P, "parameter");
		v->isparam = true;
		if (accept_punct(P, '{')) {
			expect_kw(P, "readonly");
			expect_punct(P, '}');
			v->readonly = true;
		}
		VEC_PUSH(P->a, f->params, f->nparams, cap, v);
	} while (accept_punct(P, ','));
	expect_punct(P, ')');
}

/* `^name:` or `^name(%a: T, ...):` starts block number f->nblocks. */
static Block *
parse_label(Parser *P, Func *f, int *fbcap)
{
	Block *b = new_block(P, NULL);
	int cap = 0;

	b->label = tok_str(P, &P->tok);
	b->loc = P->tok.loc;
	if (strmap_add(&P->labels, b->label, f->nblocks) != STRMAP_NONE)
		perr(P, b->loc, "redefinition of block ^%s", b->label);
	next(P);
	if (accept_punct(P, '(')) {
		do {
			Value *a = typed_value(P, "block argument");
			a->owner = b;
			VEC_PUSH(P->a, b->args, b->nargs, cap, a);
		} while (accept_punct(P, ','));
		expect_punct(P, ')');
	}
	expect_punct(P, ':');
	b->bindex = f->nblocks;
	VEC_PUSH(P->a, f->blocks, f->nblocks, *fbcap, b);
	return b;
}

static bool
is_terminator(const Op *op)
{
	return op && op_info[op->kind].form >= F_YIELD;
}

/* A function body: the entry block, then labelled blocks; the branches'
 * labels are resolved once all are read.  A function without results may
 * omit the last block's `return`. */
static void
parse_fbody(Parser *P, Func *f)
{
	Loc open = P->tok.loc;
	int cap = 0, fbcap = 0;
	Block *b = new_block(P, NULL);
	Op *last;

	b->loc = open;
	VEC_PUSH(P->a, f->blocks, f->nblocks, fbcap, b);
	f->body = b;
	P->nsuccs = 0;
	strmap_init(&P->labels, P->a);
	if (++P->depth > MAX_NEST)
		perr(P, open, "regions nested deeper than %d", MAX_NEST);
	expect_punct(P, '{');
	while (!is_punct(P, '}')) {
		if (P->tok.kind == TK_EOF || is_kw(P, "func"))
			perr(P, open, "unterminated region: no matching '}'");
		if (P->tok.kind == TK_BLOCK) {
			if (f->nblocks == 1 && b->nops == 0)
				perr(P, P->tok.loc, "the entry block has no "
				     "label: its ops follow the '{'");
			if (f->nblocks >= MAX_BLOCKS)
				perr(P, P->tok.loc, "more than %d blocks in "
				     "@%s", MAX_BLOCKS, f->name);
			b = parse_label(P, f, &fbcap);
			cap = 0;
			continue;
		}
		push_op(P, b, &cap, parse_op(P));
	}
	last = b->nops ? b->ops[b->nops - 1] : NULL;
	if (f->nrtypes == 0 && (f->nblocks == 1 ? !last || last->kind != OP_RETURN
						 : !is_terminator(last)))
		push_op(P, b, &cap, implicit_term(P, OP_RETURN, P->tok.loc));
	next(P);
	P->depth--;
	for (int i = 0; i < P->nsuccs; i++) {
		SuccRef *r = &P->succs[i];
		int j = strmap_get(&P->labels, r->name);
		if (j < 0)
			perr(P, r->op->sloc[r->k], "unknown block ^%s", r->name);
		r->op->succ[r->k] = f->blocks[j];
	}
}

static void resolve_names(Parser *P, Func *f);

static Func *
parse_func(Parser *P)
{
	Func *f = arena_alloc(P->a, sizeof *f);

	/* a map grown by a big function is not cleared for the next ones */
	if (P->names.cap > 4096)
		strmap_free(&P->names);
	strmap_clear(&P->names);
	P->nfwd = 0;
	P->redef = NULL;
	f->loc = P->tok.loc;
	expect_kw(P, "func");
	if (P->tok.kind != TK_FUNC)
		expected(P, "function name");
	f->name = tok_str(P, &P->tok);
	next(P);
	P->fn = f;
	parse_params(P, f);
	parse_rtypes(P, &f->rtypes, &f->nrtypes);
	parse_fbody(P, f);
	resolve_names(P, f);
	return f;
}

static void
parse_program(Parser *P)
{
	Program *p = P->prog;

	next(P);
	while (P->tok.kind != TK_EOF) {
		Func *f = parse_func(P);
		VEC_PUSH(P->a, p->funcs, p->nfuncs, P->fcap, f);
	}
}

/* --------------------------------------------------------- resolution */

typedef struct Resolve {
	Parser *P;
	bool undef;          /* a use left undefined */
	bool report;         /* ... is an error now */
} Resolve;

/* A placeholder use by the function's value of that name, when it has
 * one (P->names: the function's, while it is read). */
static void
resolve_operand(Resolve *r, Operand *o)
{
	int i;

	if (!o->v || o->v->id >= 0)
		return;
	if (r->report)
		perr(r->P, o->loc, "undefined value %%%s", o->v->name);
	if ((i = strmap_get(&r->P->names, o->v->name)) < 0)
		r->undef = true;
	else
		o->v = r->P->prog->values[i];
}

static WalkAct
resolve_op(Op *op, void *ctx)
{
	for (int j = 0; j < op->nargs; j++)
		resolve_operand(ctx, &op->args[j]);
	for (int j = 0; j < op->noffs; j++)
		resolve_operand(ctx, &op->offs[j]);
	if (op->hasdest)
		resolve_operand(ctx, &op->dest);
	return WALK_GO;
}

/* f is read: its uses before their definitions are resolved; what is
 * wrong with its names is kept for resolve(). */
static void
resolve_names(Parser *P, Func *f)
{
	Resolve r = {P, false, false};
	NameCheck c;

	if (P->nfwd)
		walk_func(f, resolve_op, &r);
	c.redef = P->redef;
	c.undef = r.undef;
	VEC_PUSH(P->a, P->checks, P->nchecks, P->chkcap, c);
}

/* The first error of f's names: a redefinition, else the first use of
 * an undefined value in walk order. */
static void
check_names(Parser *P, Func *f, const NameCheck *c)
{
	if (c->redef)
		perr(P, c->redef->loc, "redefinition of value %%%s",
		     c->redef->name);
	if (c->undef)
		walk_func(f, resolve_op, &(Resolve){P, false, true});
}

static void
resolve_call(Parser *P, const CallRef *r)
{
	Op *op = r->op;
	int fi = strmap_get(&P->funcs, op->callee);
	Func *f;

	if (fi < 0)
		perr(P, r->loc, "unknown function @%s", op->callee);
	f = P->prog->funcs[fi];
	op->fn = f;
	if (op->nargs != f->nparams)
		perr(P, op->loc, "call to @%s expects %d argument%s, got %d",
		     f->name, f->nparams, f->nparams == 1 ? "" : "s",
		     op->nargs);
	if (op->nres != f->nrtypes)
		perr(P, op->loc, "call to @%s returns %d result%s, got %d",
		     f->name, f->nrtypes, f->nrtypes == 1 ? "" : "s",
		     op->nres);
	for (int i = 0; i < op->nres; i++)
		op->res[i]->type = f->rtypes[i];
}

/* 1 when typed, 0 when its future's type is not known yet. */
static int
resolve_await(Parser *P, Op *op)
{
	Type *ft = op->args[0].v->type;
	char buf[256];

	if (!ft)
		return 0;
	if (ft->kind != TY_FUTURE)
		perr(P, op->args[0].loc, "await needs a future, got %s",
		     type_str(ft, buf, sizeof buf));
	if (op->nres != ft->nelems)
		perr(P, op->loc, "await of %s produces %d result%s, got %d",
		     type_str(ft, buf, sizeof buf), ft->nelems,
		     ft->nelems == 1 ? "" : "s", op->nres);
	for (int i = 0; i < op->nres; i++)
		op->res[i]->type = ft->elems[i];
	return 1;
}

/* Awaits of awaited futures are typed in dependency order. */
static void
resolve_awaits(Parser *P)
{
	bool *done = arena_alloc(P->a, (size_t)P->nawaits + 1);
	int left = P->nawaits;

	while (left > 0) {
		int before = left;
		for (int i = 0; i < P->nawaits; i++)
			if (!done[i] && resolve_await(P, P->awaits[i])) {
				done[i] = true;
				left--;
			}
		if (left == before)
			break;
	}
	for (int i = 0; i < P->nawaits; i++)
		if (!done[i])
			perr(P, P->awaits[i]->args[0].loc,
			     "cannot infer the type of %%%s",
			     P->awaits[i]->args[0].v->name);
}

static void
resolve(Parser *P)
{
	Program *p = P->prog;

	strmap_init(&P->funcs, P->a);
	for (int i = 0; i < p->nfuncs; i++)
		if (strmap_add(&P->funcs, p->funcs[i]->name, i) != STRMAP_NONE)
			perr(P, p->funcs[i]->loc, "redefinition of function @%s",
			     p->funcs[i]->name);
	for (int i = 0; i < p->nfuncs; i++)
		check_names(P, p->funcs[i], &P->checks[i]);
	for (int i = 0; i < P->ncalls; i++)
		resolve_call(P, &P->calls[i]);
	resolve_awaits(P);
}

/* ------------------------------------------------------------- entry */

static void
parse_all(Parser *P)
{
	P->prog = arena_alloc(P->a, sizeof *P->prog);
	P->prog->arena = P->a;
	parse_program(P);
	resolve(P);
	cfg_fill(P->prog);
	number_ops(P->prog);
	fill_uses(P->prog);
}

Program *
tir_parse(const char *text, size_t len, SrcMap map, Diag *d)
{
	static const Loc noloc = {0, 0};
	Arena *a = arena_new();
	Parser *P;
	Program *p;

	if (!a) {
		diag_set(d, noloc, "out of memory");
		return NULL;
	}
	P = mem_calloc(1, sizeof *P);
	if (!P) {
		arena_free(a);
		diag_set(d, noloc, "out of memory");
		return NULL;
	}
	P->a = a;
	strmap_init(&P->names, NULL);
	P->d = d ? d : &P->dummy;
	lex_init(&P->lx, text, len, map);
	a->oom = &P->jb;
	if (setjmp(P->jb)) {
		if (!P->failed)
			diag_set(P->d, noloc, "out of memory");
		strmap_free(&P->names);
		arena_free(a);
		mem_free(P);
		return NULL;
	}
	parse_all(P);
	a->oom = NULL; /* the jmp_buf dies with P */
	p = P->prog;
	strmap_free(&P->names);
	mem_free(P);
	return p;
}
