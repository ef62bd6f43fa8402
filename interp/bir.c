/* bir.c: the buffer program printed, one instruction a line with the
 * decision behind it and the .yaml line it comes from. */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"

typedef struct Out {
	char *s;
	size_t n, cap;
	bool oom;
} Out;

static void
put(Out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(o->s + o->n, o->cap - o->n, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < o->cap - o->n)
			break;
		size_t nc = (o->cap + (size_t)k + 1) * 2;
		char *ns = mem_realloc(o->s, nc);
		if (!ns) {
			o->oom = true;
			return;
		}
		o->s = ns;
		o->cap = nc;
	}
	o->n += (size_t)k;
}

const char *
dec_str(const Value *v, const Decision *d, char *buf, size_t n)
{
	switch (d->kind) {
	case DEC_INPLACE:
		snprintf(buf, n, "%s:%s", v->name, d->into->name);
		break;
	case DEC_NEW:
		snprintf(buf, n, "%s:new", v->name);
		break;
	case DEC_VIEW:
		snprintf(buf, n, "%s:view", v->name);
		break;
	default:
		snprintf(buf, n, "%s", v->name);
	}
	return buf;
}

static void
operand(Out *o, const Operand *a)
{
	if (a->v)
		put(o, "%%%s", a->v->name);
	else if (a->isfloat)
		put(o, a->f == (double)(int64_t)a->f ? "%.1f" : "%.17g", a->f);
	else
		put(o, "%lld", (long long)a->i);
}

static void
operands(Out *o, const Operand *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			put(o, ", ");
		operand(o, &a[i]);
	}
}

static void
results(Out *o, const Op *op)
{
	for (int i = 0; i < op->nres; i++)
		put(o, "%s%%%s", i ? ", " : "", op->res[i]->name);
	if (op->nres)
		put(o, " = ");
}

static void
slice(Out *o, const Op *op)
{
	put(o, "[");
	operands(o, op->offs, op->noffs);
	put(o, "]");
	if (op_info[op->kind].form == F_EXTRACT || op_info[op->kind].form == F_INSERT)
		return;
	put(o, " [");
	for (int i = 0; i < op->noffs; i++)
		put(o, "%s%lld", i ? ", " : "", (long long)op->sizes[i]);
	put(o, "] [");
	for (int i = 0; i < op->noffs; i++)
		put(o, "%s%lld", i ? ", " : "", (long long)op->strides[i]);
	put(o, "]");
}

/* The op a compute instruction runs, written over buffers. */
static void
compute_text(Out *o, const Op *op)
{
	Form f = op_info[op->kind].form;

	results(o, op);
	put(o, "%s ", op_info[op->kind].name);
	switch (f) {
	case F_EXTRACT_SLICE:
	case F_EXTRACT:
		operand(o, &op->args[0]);
		slice(o, op);
		return;
	case F_INSERT_SLICE:
	case F_INSERT:
		operand(o, &op->args[0]);
		put(o, " into ");
		operand(o, &op->dest);
		slice(o, op);
		return;
	default:
		operands(o, op->args, op->nargs);
	}
	if (f == F_TRANSPOSE || f == F_REDUCE) {
		put(o, " [");
		for (int i = 0; i < op->nperm; i++)
			put(o, "%s%d", i ? ", " : "", op->perm[i]);
		put(o, "]");
	}
	if (op->hasdest) {
		put(o, " into ");
		operand(o, &op->dest);
	}
}

static void block(Out *o, const BProg *bp, const BBlock *b, int depth);

/* Pad to the comment column, then the decision and the line. */
static void
note(Out *o, size_t linestart, const BInst *in)
{
	char dec[160];
	size_t col = o->n - linestart;

	if (o->oom)
		return;
	put(o, "%*s// ", col < 44 ? (int)(44 - col) : 1, "");
	if (in->v && in->dec.kind != DEC_NONE &&
	    (in->kind == BI_ALLOC || in->kind == BI_ALIAS || in->kind == BI_VIEW))
		put(o, "%s  ", dec_str(in->v, &in->dec, dec, sizeof dec));
	if (in->dec.reason && (in->kind == BI_ALLOC || in->kind == BI_ALIAS))
		put(o, "(%s)  ", in->dec.reason);
	if (in->why)
		put(o, "%s  ", in->why);
	if (in->op)
		put(o, "line %d", in->op->loc.line);
	put(o, "\n");
}

static void
inst(Out *o, const BProg *bp, const BInst *in, int depth)
{
	size_t start = o->n;
	char ty[128];
	const Op *op = in->op;

	put(o, "%*s", 2 * depth, "");
	switch (in->kind) {
	case BI_ALLOC:
		put(o, "%%%s = alloc %s", in->v->name,
		    type_str(in->v->type, ty, sizeof ty));
		break;
	case BI_ALIAS:
		put(o, "%%%s = alias %%%s", in->v->name, in->src->name);
		break;
	case BI_VIEW:
		put(o, "%%%s = view %%%s", in->v->name, in->src->name);
		slice(o, op);
		break;
	case BI_COPY:
		put(o, "copy %%%s -> %%%s", in->src->name, in->v->name);
		break;
	case BI_COMPUTE:
		compute_text(o, op);
		break;
	case BI_CONST:
		put(o, "%%%s = const %s", in->v->name,
		    type_str(in->v->type, ty, sizeof ty));
		break;
	case BI_FREE:
		put(o, "free %%%s", in->v->name);
		break;
	case BI_CALL:
		results(o, op);
		put(o, "call @%s(", op->callee);
		for (int i = 0; i < op->nargs; i++) {
			if (i)
				put(o, ", ");
			if (in->vals && in->vals[i])
				put(o, "%%%s", in->vals[i]->name);
			else
				operand(o, &op->args[i]);
		}
		put(o, ")");
		break;
	case BI_DRAIN:
		put(o, "drain");
		for (int i = 0; i < in->nvals; i++)
			put(o, "%s%%%s", i ? ", " : " ", in->vals[i]->name);
		break;
	case BI_AWAIT:
		results(o, op);
		put(o, "await ");
		operand(o, &op->args[0]);
		break;
	case BI_YIELD:
	case BI_RETURN:
		put(o, in->kind == BI_YIELD ? "yield" : "return");
		for (int i = 0; i < in->nvals; i++)
			put(o, "%s%%%s", i ? ", " : " ", in->vals[i]->name);
		break;
	case BI_IF:
		results(o, op);
		put(o, "if ");
		operand(o, &op->args[0]);
		put(o, " {");
		note(o, start, in);
		block(o, bp, in->body, depth + 1);
		put(o, "%*s} else {\n", 2 * depth, "");
		block(o, bp, in->orelse, depth + 1);
		put(o, "%*s}\n", 2 * depth, "");
		return;
	case BI_FOR:
		results(o, op);
		put(o, "for %%%s = ", op->body->args[0]->name);
		operands(o, op->args, 1);
		put(o, " to ");
		operands(o, op->args + 1, 1);
		put(o, " step ");
		operands(o, op->args + 2, 1);
		for (int k = 0; k < op->nres; k++)
			put(o, "%s%%%s = %%%s", k ? ", " : " iter(",
			    op->body->args[1 + k]->name, op->res[k]->name);
		put(o, op->nres ? ") {" : " {");
		note(o, start, in);
		block(o, bp, in->body, depth + 1);
		put(o, "%*s}\n", 2 * depth, "");
		return;
	case BI_LAUNCH:
		put(o, "%%%s = launch stream %d {", in->v->name, op->stream);
		note(o, start, in);
		block(o, bp, in->body, depth + 1);
		put(o, "%*s}\n", 2 * depth, "");
		return;
	}
	note(o, start, in);
}

static void
block(Out *o, const BProg *bp, const BBlock *b, int depth)
{
	for (int i = 0; i < b->n; i++)
		inst(o, bp, b->insts[i], depth);
}

char *
bir_print(const BProg *bp)
{
	Out o = {0};
	char ty[128];

	for (int i = 0; i < bp->nfuncs; i++) {
		const Func *f = bp->funcs[i].f;
		put(&o, "%sfunc @%s(", i ? "\n" : "", f->name);
		for (int j = 0; j < f->nparams; j++)
			put(&o, "%s%%%s: %s%s", j ? ", " : "", f->params[j]->name,
			    type_str(f->params[j]->type, ty, sizeof ty),
			    f->params[j]->readonly ? " {readonly}" : "");
		put(&o, ")");
		for (int j = 0; j < f->nrtypes; j++)
			put(&o, "%s%s", j ? ", " : " -> (", type_str(f->rtypes[j], ty, sizeof ty));
		put(&o, "%s {\n", f->nrtypes ? ")" : "");
		block(&o, bp, bp->funcs[i].body, 1);
		put(&o, "}\n");
	}
	if (o.oom) {
		mem_free(o.s);
		return NULL;
	}
	return o.s ? o.s : mem_strdup("");
}

/* ---- explain: why each allocation and copy is there */

static void
explain_block(Out *o, const BBlock *b)
{
	char dec[160], ty[128];

	for (int i = 0; i < b->n; i++) {
		const BInst *in = b->insts[i];
		int line = in->op ? in->op->loc.line : 0;
		if (in->kind == BI_ALLOC) {
			const char *why = in->why ? in->why : in->dec.reason;
			put(o, "line %d: alloc %%%s %s", line, in->v->name,
			    type_str(in->v->type, ty, sizeof ty));
			if (in->dec.kind != DEC_NONE)
				put(o, " [%s]", dec_str(in->v, &in->dec, dec, sizeof dec));
			put(o, ": %s\n", why ? why : in->op && in->op->kind == OP_FOR
				? "the loop buffer" : "a result with no operand to reuse");
		} else if (in->kind == BI_COPY) {
			put(o, "line %d: copy %%%s -> %%%s: %s\n", line,
			    in->src->name, in->v->name, in->why ? in->why : "");
		}
		if (in->body)
			explain_block(o, in->body);
		if (in->orelse)
			explain_block(o, in->orelse);
	}
}

char *
bir_explain(const BProg *bp)
{
	Out o = {0};

	for (int i = 0; i < bp->nfuncs; i++) {
		put(&o, "@%s:\n", bp->funcs[i].f->name);
		explain_block(&o, bp->funcs[i].body);
	}
	if (o.oom) {
		mem_free(o.s);
		return NULL;
	}
	return o.s ? o.s : mem_strdup("");
}
