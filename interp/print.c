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

/* ------------------------------------------------------------- types */

static size_t
type_put(const Type *t, char *buf, size_t n, size_t pos)
{
#define APPEND(...)                                                         \
	do {                                                                \
		int k_ = fmt_snprintf(buf + (pos < n ? pos : n),                \
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
		fmt_snprintf(buf, n, "<no type>");
		return buf;
	}
	type_put(t, buf, n, 0);
	return buf;
}

static void
put_type(Str *b, const Type *t)
{
	char buf[1024];

	str_puts(b, type_str(t, buf, sizeof buf));
}

/* ---------------------------------------------------------- literals */

/* Shortest text that strtod reads back to f, always marked as a float. */
static void
put_float(Str *b, double f)
{
	char buf[400];

	if (isnan(f)) {
		str_puts(b, "nan");
		return;
	}
	if (isinf(f)) {
		str_puts(b, f > 0 ? "inf" : "-inf");
		return;
	}
	int prec, exp;

	for (prec = 1; prec < 17; prec++) {
		fmt_snprintf(buf, sizeof buf, "%.*e", prec - 1, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	/* fixed notation for moderate exponents, like Python's repr */
	exp = atoi(strchr(buf, 'e') + 1);
	if (exp >= -4 && exp < 16)
		fmt_snprintf(buf, sizeof buf, "%.*f",
			 prec - 1 - exp > 0 ? prec - 1 - exp : 0, f);
	else
		fmt_snprintf(buf, sizeof buf, "%.*g", prec, f);
	if (!strpbrk(buf, ".e"))
		strcat(buf, ".0");
	str_puts(b, buf);
}

void
tir_put_operand(Str *b, const Operand *o)
{
	if (o->v)
		str_printf(b, "%%%s", o->v->name);
	else if (o->isfloat)
		put_float(b, o->f);
	else
		str_printf(b, "%lld", (long long)o->i);
}

static void
put_operands(Str *b, const Operand *o, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(b, ", ");
		tir_put_operand(b, &o[i]);
	}
}

static void
put_ints(Str *b, const int64_t *v, int n)
{
	str_puts(b, "[");
	for (int i = 0; i < n; i++)
		str_printf(b, i ? ", %lld" : "%lld", (long long)v[i]);
	str_puts(b, "]");
}

static void
put_elem(Str *b, const ConstData *c, DType dt, int64_t k)
{
	if (k >= c->n)
		k = c->n - 1; /* malformed data: keep the text parseable */
	if (k < 0)
		str_puts(b, "0");
	else if (dtype_is_float(dt))
		put_float(b, c->f[k]);
	else if (dt == DT_I1)
		str_puts(b, c->i[k] ? "true" : "false");
	else
		str_printf(b, "%lld", (long long)c->i[k]);
}

/* Elements [*k, ...) nested by dims[level..rank). */
static void
put_nested(Str *b, const ConstData *c, const Type *t, int level, int64_t *k)
{
	if (level == t->rank) {
		put_elem(b, c, t->dt, (*k)++);
		return;
	}
	str_puts(b, "[");
	for (int64_t i = 0; i < t->dims[level]; i++) {
		if (i)
			str_puts(b, ", ");
		put_nested(b, c, t, level + 1, k);
	}
	str_puts(b, "]");
}

static void
put_const(Str *b, const Op *op)
{
	const Type *t = op->type;
	const ConstData *c = &op->cdata;
	int64_t k = 0;

	if (t->kind != TY_TENSOR) {
		put_elem(b, c, t->dt, 0);
		return;
	}
	str_puts(b, "dense<");
	if (c->splat) {
		put_elem(b, c, t->dt, 0);
	} else if (type_is_static(t)) {
		put_nested(b, c, t, 0, &k);
	} else {
		str_puts(b, "[");
		for (k = 0; k < c->n; k++) {
			if (k)
				str_puts(b, ", ");
			put_elem(b, c, t->dt, k);
		}
		str_puts(b, "]");
	}
	str_puts(b, ">");
}

/* ------------------------------------------------------------- ops */

static void put_block(Str *b, const Block *blk, int depth);

static void
indent(Str *b, int depth)
{
	for (int i = 0; i < depth; i++)
		str_puts(b, "  ");
}

static void
put_rtypes(Str *b, Type *const *t, int n)
{
	if (!n)
		return;
	str_puts(b, " -> (");
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(b, ", ");
		put_type(b, t[i]);
	}
	str_puts(b, ")");
}

static void
put_into(Str *b, const Op *op)
{
	if (op->hasdest) {
		str_puts(b, " into ");
		tir_put_operand(b, &op->dest);
	}
}

static void
put_index(Str *b, const Op *op)
{
	str_puts(b, "[");
	put_operands(b, op->offs, op->noffs);
	str_puts(b, "]");
}

static void
put_slice(Str *b, const Op *op)
{
	put_index(b, op);
	str_puts(b, " ");
	put_ints(b, op->sizes, op->noffs);
	str_puts(b, " ");
	put_ints(b, op->strides, op->noffs);
}

static void
put_perm(Str *b, const Op *op)
{
	str_puts(b, " [");
	for (int i = 0; i < op->nperm; i++)
		str_printf(b, i ? ", %d" : "%d", op->perm[i]);
	str_puts(b, "]");
}

/* ` KW(%a = %x, ...)` for op's operands from `from` on, named by body's
 * args from `arg` on; nothing when there are none. */
static void
put_bindings(Str *b, const char *kw, const Op *op, int from, int arg)
{
	if (op->nargs <= from)
		return;
	str_printf(b, " %s(", kw);
	for (int i = from; i < op->nargs; i++) {
		if (i > from)
			str_puts(b, ", ");
		str_printf(b, "%%%s = ", op->body->args[arg + i - from]->name);
		tir_put_operand(b, &op->args[i]);
	}
	str_puts(b, ")");
}

/* A loop's `-> (T, ...) { body }`. */
static void
put_loop_body(Str *b, const Op *op, int depth)
{
	put_rtypes(b, op->rtypes, op->nrtypes);
	str_puts(b, " {\n");
	put_block(b, op->body, depth + 1);
	indent(b, depth);
}

static void
put_for(Str *b, const Op *op, int depth)
{
	const Block *body = op->body;

	str_printf(b, " %%%s = ", body->args[0]->name);
	tir_put_operand(b, &op->args[0]);
	str_puts(b, " to ");
	tir_put_operand(b, &op->args[1]);
	str_puts(b, " step ");
	tir_put_operand(b, &op->args[2]);
	put_bindings(b, "iter", op, 3, 1);
	put_loop_body(b, op, depth);
	str_puts(b, "}");
}

static void
put_forall(Str *b, const Op *op, int depth)
{
	const Block *body = op->body;

	str_printf(b, " %%%s = ", body->args[0]->name);
	tir_put_operand(b, &op->args[0]);
	str_puts(b, " to ");
	tir_put_operand(b, &op->args[1]);
	put_bindings(b, "shared", op, 2, 1);
	put_loop_body(b, op, depth);
	str_puts(b, "}");
}

static void
put_while(Str *b, const Op *op, int depth)
{
	put_bindings(b, "iter", op, 0, 0);
	put_loop_body(b, op, depth);
	str_puts(b, "} do {\n");
	put_block(b, op->orelse, depth + 1);
	indent(b, depth);
	str_puts(b, "}");
}

/* `(%n) [%i, %j] : T { ... }` (index args written without their type) */
static void
put_generate(Str *b, const Op *op, int depth)
{
	const Block *body = op->body;

	if (op->nargs) {
		str_puts(b, "(");
		put_operands(b, op->args, op->nargs);
		str_puts(b, ")");
	}
	str_puts(b, " [");
	for (int i = 0; body && i < body->nargs; i++) {
		const Value *a = body->args[i];
		str_printf(b, i ? ", %%%s" : "%%%s", a->name);
		if (a->type->kind != TY_SCALAR || a->type->dt != DT_INDEX) {
			str_puts(b, ": ");
			put_type(b, a->type);
		}
	}
	str_puts(b, "] : ");
	put_type(b, op->type);
	str_puts(b, " {\n");
	if (body)
		put_block(b, body, depth + 1);
	indent(b, depth);
	str_puts(b, "}");
}

/* The message re-escaped, so it parses back to the same text. */
static void
put_string(Str *b, const char *s)
{
	str_puts(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_printf(b, "\\%c", *s);
		else if (*s == '\n' || *s == '\t')
			str_puts(b, *s == '\n' ? "\\n" : "\\t");
		else
			str_put(b, s, 1);
	}
	str_puts(b, "\"");
}

static void
put_region_op(Str *b, const Op *op, int depth)
{
	switch (op_info[op->kind].form) {
	case F_IF:
		str_puts(b, " ");
		tir_put_operand(b, &op->args[0]);
		break;
	case F_FOR:
		put_for(b, op, depth);
		return;
	case F_FORALL:
		put_forall(b, op, depth);
		return;
	default: /* async */
		str_printf(b, " stream %d", op->stream);
		break;
	}
	put_rtypes(b, op->rtypes, op->nrtypes);
	str_puts(b, " {\n");
	put_block(b, op->body, depth + 1);
	indent(b, depth);
	str_puts(b, "}");
	if (op->orelse) {
		str_puts(b, " else {\n");
		put_block(b, op->orelse, depth + 1);
		indent(b, depth);
		str_puts(b, "}");
	}
}

/* ` [[0, 1], [2]]` from the group sizes. */
static void
put_reassoc(Str *b, const Op *op)
{
	int d = 0;

	str_puts(b, " [");
	for (int g = 0; g < op->nreassoc; g++) {
		str_puts(b, g ? ", [" : "[");
		for (int i = 0; i < op->reassoc[g]; i++)
			str_printf(b, i ? ", %d" : "%d", d++);
		str_puts(b, "]");
	}
	str_puts(b, "]");
}

/* The forms on one source operand: the source, then what says how it is
 * read or written (perm, destination, slice, index, groups). */
static void
put_source_op(Str *b, const Op *op, Form form)
{
	str_puts(b, " ");
	tir_put_operand(b, &op->args[0]);
	switch (form) {
	case F_TRANSPOSE:
	case F_REDUCE:
		put_perm(b, op);
		put_into(b, op);
		break;
	case F_EXTRACT_SLICE:
		put_slice(b, op);
		break;
	case F_INSERT_SLICE:
	case F_PARALLEL_INSERT:
		put_into(b, op);
		put_slice(b, op);
		break;
	case F_EXTRACT:
		put_index(b, op);
		break;
	case F_INSERT:
		put_into(b, op);
		put_index(b, op);
		break;
	default: /* F_RESHAPE */
		put_reassoc(b, op);
		break;
	}
}

/* Everything after the op name. */
/* ` %c, ^a(%x), ^b` / ` ^a(%x, %y)` */
static void
put_branch(Str *b, const Op *op)
{
	if (op->kind == OP_COND_BR) {
		str_puts(b, " ");
		tir_put_operand(b, &op->args[0]);
		str_puts(b, ",");
	}
	for (int k = 0; k < op->nsucc; k++) {
		str_printf(b, "%s ^%s", k ? "," : "",
			   op->succ[k] ? op->succ[k]->label : "?");
		if (op->nsarg[k]) {
			str_puts(b, "(");
			put_operands(b, succ_args(op, k), op->nsarg[k]);
			str_puts(b, ")");
		}
	}
}

static void
put_body(Str *b, const Op *op, int depth)
{
	Form form = op_info[op->kind].form;

	switch (form) {
	case F_CONST:
		str_puts(b, " ");
		put_const(b, op);
		break;
	case F_EMPTY:
		if (op->nargs) {
			str_puts(b, "(");
			put_operands(b, op->args, op->nargs);
			str_puts(b, ")");
		}
		break;
	case F_TRANSPOSE:
	case F_REDUCE:
	case F_EXTRACT_SLICE:
	case F_INSERT_SLICE:
	case F_PARALLEL_INSERT:
	case F_EXTRACT:
	case F_INSERT:
	case F_RESHAPE:
		put_source_op(b, op, form);
		break;
	case F_CALL:
		str_printf(b, " @%s(", op->callee);
		put_operands(b, op->args, op->nargs);
		str_puts(b, ")");
		return;
	case F_IF:
	case F_FOR:
	case F_FORALL:
	case F_ASYNC:
		put_region_op(b, op, depth);
		return;
	case F_WHILE:
		put_while(b, op, depth);
		return;
	case F_GENERATE:
		put_generate(b, op, depth);
		return;
	case F_ASSERT:
		str_puts(b, " ");
		tir_put_operand(b, &op->args[0]);
		str_puts(b, ", ");
		put_string(b, op->msg ? op->msg : "");
		return;
	case F_BR:
	case F_COND_BR:
		put_branch(b, op);
		return;
	case F_CONDITION:
	case F_AWAIT:
	case F_YIELD:
	case F_RETURN:
		if (op->nargs)
			str_puts(b, " ");
		put_operands(b, op->args, op->nargs);
		return;
	default: /* binary, unary, cmp, fill, matmul, copy, clone,
		  * from_elements */
		str_puts(b, " ");
		put_operands(b, op->args, op->nargs);
		put_into(b, op);
		break;
	}
	if (op->type) {
		str_puts(b, " : ");
		put_type(b, op->type);
	}
}

static void
put_op(Str *b, const Op *op, int depth)
{
	indent(b, depth);
	for (int i = 0; i < op->nres; i++)
		str_printf(b, i ? ", %%%s" : "%%%s", op->res[i]->name);
	if (op->nres)
		str_puts(b, " = ");
	str_puts(b, op_info[op->kind].name);
	put_body(b, op, depth);
	str_puts(b, "\n");
}

/* Not walk_block: each form prints its own braces around its regions. */
static void
put_block(Str *b, const Block *blk, int depth)
{
	int n = blk->nops;

	if (n && blk->parent && (blk->parent->nrtypes == 0 ||
				 blk->parent->kind == OP_FORALL)) {
		const Op *last = blk->ops[n - 1];
		if (last->kind == OP_YIELD && last->nargs == 0)
			n--; /* implicit */
	}
	for (int i = 0; i < n; i++)
		put_op(b, blk->ops[i], depth);
}

static void
put_func(Str *b, const Func *f)
{
	str_printf(b, "func @%s(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (i)
			str_puts(b, ", ");
		str_printf(b, "%%%s: ", v->name);
		put_type(b, v->type);
		if (v->readonly)
			str_puts(b, " {readonly}");
	}
	str_puts(b, ")");
	if (f->nrtypes == 1) {
		str_puts(b, " -> ");
		put_type(b, f->rtypes[0]);
	} else {
		put_rtypes(b, f->rtypes, f->nrtypes);
	}
	str_puts(b, " {\n");
	put_block(b, f->body, 1);
	for (int k = 1; f->blocks && k < f->nblocks; k++) {
		const Block *blk = f->blocks[k];
		str_printf(b, "^%s", blk->label);
		for (int i = 0; i < blk->nargs; i++) {
			str_printf(b, "%s%%%s: ", i ? ", " : "(",
				   blk->args[i]->name);
			put_type(b, blk->args[i]->type);
		}
		str_puts(b, blk->nargs ? "):\n" : ":\n");
		put_block(b, blk, 1);
	}
	str_puts(b, "}\n");
}

char *
tir_print(const Program *p)
{
	Str b = {0};

	for (int i = 0; i < p->nfuncs; i++) {
		if (i)
			str_puts(&b, "\n");
		put_func(&b, p->funcs[i]);
	}
	return str_take(&b);
}
