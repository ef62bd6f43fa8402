/*
 * print.c: Program -> canonical TIR text.
 *
 * Canonical means: one op per line, two spaces per nesting level, single
 * spaces after commas, `step` always written, empty yields of regions that
 * yield nothing omitted, `return` always written, floats in the shortest
 * form that reads back to the same double (always with '.', 'e', nan or
 * inf), dense constants nested by shape or as one splat literal.  The
 * parser reads it back to the same program, so printing is idempotent.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

typedef struct Buf {
	char *s;
	size_t n, cap;
	bool oom;
} Buf;

static void
put(Buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *ns;
		while (cap < b->n + n + 1)
			cap *= 2;
		ns = mem_realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void
puts_(Buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void putf(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
putf(Buf *b, const char *fmt, ...)
{
	char tmp[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		put(b, tmp, (size_t)n);
		return;
	}
	big = mem_alloc((size_t)n + 1); /* a long name */
	if (!big) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	put(b, big, (size_t)n);
	mem_free(big);
}

/* ------------------------------------------------------------- types */

static size_t
type_put(const Type *t, char *buf, size_t n, size_t pos)
{
#define APPEND(...)                                                         \
	do {                                                                \
		int k_ = snprintf(buf + (pos < n ? pos : n),                \
				  pos < n ? n - pos : 0, __VA_ARGS__);      \
		if (k_ > 0)                                                 \
			pos += (size_t)k_;                                  \
	} while (0)
	switch (t->kind) {
	case TY_SCALAR:
		APPEND("%s", dtype_names[t->dt]);
		break;
	case TY_TENSOR:
		APPEND("tensor<");
		for (int i = 0; i < t->rank; i++) {
			if (t->dims[i] == DIM_DYN)
				APPEND("?x");
			else
				APPEND("%lldx", (long long)t->dims[i]);
		}
		APPEND("%s>", dtype_names[t->dt]);
		break;
	case TY_FUTURE:
		APPEND("future<");
		for (int i = 0; i < t->nelems; i++) {
			if (i)
				APPEND(", ");
			pos = type_put(t->elems[i], buf, n, pos);
		}
		APPEND(">");
		break;
	}
	return pos;
#undef APPEND
}

char *
type_str(const Type *t, char *buf, size_t n)
{
	if (!n)
		return buf;
	buf[0] = 0;
	if (!t) {
		snprintf(buf, n, "<no type>");
		return buf;
	}
	type_put(t, buf, n, 0);
	return buf;
}

static void
put_type(Buf *b, const Type *t)
{
	char buf[1024];

	puts_(b, type_str(t, buf, sizeof buf));
}

/* ---------------------------------------------------------- literals */

/* Shortest text that strtod reads back to f, always marked as a float. */
static void
put_float(Buf *b, double f)
{
	char buf[400];

	if (isnan(f)) {
		puts_(b, "nan");
		return;
	}
	if (isinf(f)) {
		puts_(b, f > 0 ? "inf" : "-inf");
		return;
	}
	int prec, exp;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	/* fixed notation for moderate exponents, like Python's repr */
	exp = atoi(strchr(buf, 'e') + 1);
	if (exp >= -4 && exp < 16)
		snprintf(buf, sizeof buf, "%.*f",
			 prec - 1 - exp > 0 ? prec - 1 - exp : 0, f);
	else
		snprintf(buf, sizeof buf, "%.*g", prec, f);
	if (!strpbrk(buf, ".e"))
		strcat(buf, ".0");
	puts_(b, buf);
}

static void
put_operand(Buf *b, const Operand *o)
{
	if (o->v)
		putf(b, "%%%s", o->v->name);
	else if (o->isfloat)
		put_float(b, o->f);
	else
		putf(b, "%lld", (long long)o->i);
}

static void
put_operands(Buf *b, const Operand *o, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			puts_(b, ", ");
		put_operand(b, &o[i]);
	}
}

static void
put_ints(Buf *b, const int64_t *v, int n)
{
	puts_(b, "[");
	for (int i = 0; i < n; i++)
		putf(b, i ? ", %lld" : "%lld", (long long)v[i]);
	puts_(b, "]");
}

static void
put_elem(Buf *b, const ConstData *c, DType dt, int64_t k)
{
	if (k >= c->n)
		k = c->n - 1; /* malformed data: keep the text parseable */
	if (k < 0)
		puts_(b, "0");
	else if (dtype_is_float(dt))
		put_float(b, c->f[k]);
	else if (dt == DT_I1)
		puts_(b, c->i[k] ? "true" : "false");
	else
		putf(b, "%lld", (long long)c->i[k]);
}

/* Elements [*k, ...) nested by dims[level..rank). */
static void
put_nested(Buf *b, const ConstData *c, const Type *t, int level, int64_t *k)
{
	if (level == t->rank) {
		put_elem(b, c, t->dt, (*k)++);
		return;
	}
	puts_(b, "[");
	for (int64_t i = 0; i < t->dims[level]; i++) {
		if (i)
			puts_(b, ", ");
		put_nested(b, c, t, level + 1, k);
	}
	puts_(b, "]");
}

static void
put_const(Buf *b, const Op *op)
{
	const Type *t = op->type;
	const ConstData *c = &op->cdata;
	int64_t k = 0;

	if (t->kind != TY_TENSOR) {
		put_elem(b, c, t->dt, 0);
		return;
	}
	puts_(b, "dense<");
	if (c->splat) {
		put_elem(b, c, t->dt, 0);
	} else if (type_is_static(t)) {
		put_nested(b, c, t, 0, &k);
	} else {
		puts_(b, "[");
		for (k = 0; k < c->n; k++) {
			if (k)
				puts_(b, ", ");
			put_elem(b, c, t->dt, k);
		}
		puts_(b, "]");
	}
	puts_(b, ">");
}

/* ------------------------------------------------------------- ops */

static void put_block(Buf *b, const Block *blk, int depth);

static void
indent(Buf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		puts_(b, "  ");
}

static void
put_rtypes(Buf *b, Type *const *t, int n)
{
	if (!n)
		return;
	puts_(b, " -> (");
	for (int i = 0; i < n; i++) {
		if (i)
			puts_(b, ", ");
		put_type(b, t[i]);
	}
	puts_(b, ")");
}

static void
put_into(Buf *b, const Op *op)
{
	if (op->hasdest) {
		puts_(b, " into ");
		put_operand(b, &op->dest);
	}
}

static void
put_index(Buf *b, const Op *op)
{
	puts_(b, "[");
	put_operands(b, op->offs, op->noffs);
	puts_(b, "]");
}

static void
put_slice(Buf *b, const Op *op)
{
	put_index(b, op);
	puts_(b, " ");
	put_ints(b, op->sizes, op->noffs);
	puts_(b, " ");
	put_ints(b, op->strides, op->noffs);
}

static void
put_perm(Buf *b, const Op *op)
{
	puts_(b, " [");
	for (int i = 0; i < op->nperm; i++)
		putf(b, i ? ", %d" : "%d", op->perm[i]);
	puts_(b, "]");
}

static void
put_for(Buf *b, const Op *op, int depth)
{
	const Block *body = op->body;

	putf(b, " %%%s = ", body->args[0]->name);
	put_operand(b, &op->args[0]);
	puts_(b, " to ");
	put_operand(b, &op->args[1]);
	puts_(b, " step ");
	put_operand(b, &op->args[2]);
	if (op->nargs > 3) {
		puts_(b, " iter(");
		for (int i = 3; i < op->nargs; i++) {
			if (i > 3)
				puts_(b, ", ");
			putf(b, "%%%s = ", body->args[i - 2]->name);
			put_operand(b, &op->args[i]);
		}
		puts_(b, ")");
	}
	put_rtypes(b, op->rtypes, op->nrtypes);
	puts_(b, " {\n");
	put_block(b, body, depth + 1);
	indent(b, depth);
	puts_(b, "}");
}

static void
put_region_op(Buf *b, const Op *op, int depth)
{
	switch (op_info[op->kind].form) {
	case F_IF:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		break;
	case F_FOR:
		put_for(b, op, depth);
		return;
	default: /* async */
		putf(b, " stream %d", op->stream);
		break;
	}
	put_rtypes(b, op->rtypes, op->nrtypes);
	puts_(b, " {\n");
	put_block(b, op->body, depth + 1);
	indent(b, depth);
	puts_(b, "}");
	if (op->orelse) {
		puts_(b, " else {\n");
		put_block(b, op->orelse, depth + 1);
		indent(b, depth);
		puts_(b, "}");
	}
}

/* Everything after the op name. */
static void
put_body(Buf *b, const Op *op, int depth)
{
	Form form = op_info[op->kind].form;

	switch (form) {
	case F_CONST:
		puts_(b, " ");
		put_const(b, op);
		break;
	case F_EMPTY:
		if (op->nargs) {
			puts_(b, "(");
			put_operands(b, op->args, op->nargs);
			puts_(b, ")");
		}
		break;
	case F_TRANSPOSE:
	case F_REDUCE:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		put_perm(b, op);
		put_into(b, op);
		break;
	case F_EXTRACT_SLICE:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		put_slice(b, op);
		break;
	case F_INSERT_SLICE:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		put_into(b, op);
		put_slice(b, op);
		break;
	case F_EXTRACT:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		put_index(b, op);
		break;
	case F_INSERT:
		puts_(b, " ");
		put_operand(b, &op->args[0]);
		put_into(b, op);
		put_index(b, op);
		break;
	case F_CALL:
		putf(b, " @%s(", op->callee);
		put_operands(b, op->args, op->nargs);
		puts_(b, ")");
		return;
	case F_IF:
	case F_FOR:
	case F_ASYNC:
		put_region_op(b, op, depth);
		return;
	case F_AWAIT:
	case F_YIELD:
	case F_RETURN:
		if (op->nargs)
			puts_(b, " ");
		put_operands(b, op->args, op->nargs);
		return;
	default: /* binary, unary, cmp, fill, matmul, copy, clone */
		puts_(b, " ");
		put_operands(b, op->args, op->nargs);
		put_into(b, op);
		break;
	}
	if (op->type) {
		puts_(b, " : ");
		put_type(b, op->type);
	}
}

static void
put_op(Buf *b, const Op *op, int depth)
{
	indent(b, depth);
	for (int i = 0; i < op->nres; i++)
		putf(b, i ? ", %%%s" : "%%%s", op->res[i]->name);
	if (op->nres)
		puts_(b, " = ");
	puts_(b, op_info[op->kind].name);
	put_body(b, op, depth);
	puts_(b, "\n");
}

static void
put_block(Buf *b, const Block *blk, int depth)
{
	int n = blk->nops;

	if (n && blk->parent && blk->parent->nrtypes == 0) {
		const Op *last = blk->ops[n - 1];
		if (last->kind == OP_YIELD && last->nargs == 0)
			n--; /* implicit */
	}
	for (int i = 0; i < n; i++)
		put_op(b, blk->ops[i], depth);
}

static void
put_func(Buf *b, const Func *f)
{
	putf(b, "func @%s(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (i)
			puts_(b, ", ");
		putf(b, "%%%s: ", v->name);
		put_type(b, v->type);
		if (v->readonly)
			puts_(b, " {readonly}");
	}
	puts_(b, ")");
	if (f->nrtypes == 1) {
		puts_(b, " -> ");
		put_type(b, f->rtypes[0]);
	} else {
		put_rtypes(b, f->rtypes, f->nrtypes);
	}
	puts_(b, " {\n");
	put_block(b, f->body, 1);
	puts_(b, "}\n");
}

char *
tir_print(const Program *p)
{
	Buf b = {NULL, 0, 0, false};

	put(&b, "", 0);
	for (int i = 0; i < p->nfuncs; i++) {
		if (i)
			puts_(&b, "\n");
		put_func(&b, p->funcs[i]);
	}
	if (b.oom) {
		mem_free(b.s);
		return NULL;
	}
	return b.s;
}
