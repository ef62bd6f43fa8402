/* bir.c: the buffer program printed, one instruction a line with the
 * decision behind it and the FILE:LINE:COL it comes from; the lowering's
 * registers named in words of the program; explain. */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"

const char *
dec_str(const Value *v, const Decision *d, char *buf, size_t n)
{
	switch (d->kind) {
	case DEC_INPLACE:
		fmt_snprintf(buf, n, "%s:%s", v->name, d->into->name);
		break;
	case DEC_NEW:
		fmt_snprintf(buf, n, "%s:new", v->name);
		break;
	case DEC_VIEW:
		fmt_snprintf(buf, n, "%s:view", v->name);
		break;
	default:
		fmt_snprintf(buf, n, "%s", v->name);
	}
	return buf;
}

static bool
in_program(const BProg *bp, const Value *v)
{
	return v->id < bp->p->nvalues && bp->p->values[v->id] == v;
}

/* The lowering's own registers are named VALUE.SUFFIX (lower.c synth);
 * a launch's result buffers VALUE.K. */
static void
synthetic_text(Str *o, const Value *v)
{
	static const struct { const char *suffix, *fmt; } kinds[] = {
		{"out", "the copy of %%%.*s passed out"},
		{"arg", "the copy of %%%.*s passed to the callee"},
		{"tmp", "the loop's copy of %%%.*s"},
		{"hoist", "the hoisted buffer of %%%.*s"},
	};
	const char *dot = strrchr(v->name, '.');
	int n = dot ? (int)(dot - v->name) : (int)strlen(v->name);

	for (size_t k = 0; dot && k < sizeof kinds / sizeof *kinds; k++)
		if (!strcmp(dot + 1, kinds[k].suffix)) {
			str_printf(o, kinds[k].fmt, n, v->name);
			return;
		}
	if (dot && dot[1] >= '0' && dot[1] <= '9')
		str_printf(o, "result %s of the launch of %%%.*s", dot + 1, n,
			   v->name);
	else
		str_printf(o, "a copy of %%%.*s", n, v->name);
}

void
bir_value_text(Str *o, const BProg *bp, const Value *v, const Op *op)
{
	if (in_program(bp, v)) {
		str_printf(o, "%%%s", v->name);
	} else if (bp->memref) {
		str_printf(o, "%%%s of the memref program", v->name);
	} else {
		synthetic_text(o, v);
		if (op && (op->kind == OP_RETURN || op->kind == OP_CALL ||
			   op->kind == OP_YIELD))
			str_printf(o, " by the %s", op_info[op->kind].name);
	}
}

static void
operands(Str *o, const Operand *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_printf(o, ", ");
		tir_put_operand(o, &a[i]);
	}
}

static void
results(Str *o, const Op *op)
{
	for (int i = 0; i < op->nres; i++)
		str_printf(o, "%s%%%s", i ? ", " : "", op->res[i]->name);
	if (op->nres)
		str_printf(o, " = ");
}

static void
slice(Str *o, const Op *op)
{
	str_printf(o, "[");
	operands(o, op->offs, op->noffs);
	str_printf(o, "]");
	if (op_info[op->kind].form == F_EXTRACT || op_info[op->kind].form == F_INSERT)
		return;
	str_printf(o, " [");
	for (int i = 0; i < op->noffs; i++)
		str_printf(o, "%s%lld", i ? ", " : "", (long long)op->sizes[i]);
	str_printf(o, "] [");
	for (int i = 0; i < op->noffs; i++)
		str_printf(o, "%s%lld", i ? ", " : "", (long long)op->strides[i]);
	str_printf(o, "]");
}

/* A memref view computed at run time: `[o] [s] [t]` (a subview's, with
 * the dropped dims), `base[o] [s] [t]` (a reinterpret_cast's) or `as T`
 * (a checked cast). */
static void
mview(Str *o, const MView *mv, const Type *t)
{
	char ty[128];
	const Operand *e[3] = {mv->off, mv->size, mv->stride};

	if (mv->kind == MV_CAST) {
		str_printf(o, " as %s", type_str(t, ty, sizeof ty));
		return;
	}
	str_printf(o, mv->kind == MV_REINTERPRET ? " base" : " ");
	for (int k = 0; k < 3; k++) {
		int n = k == 0 && mv->kind == MV_REINTERPRET ? 1 : mv->rank;
		str_printf(o, "%s[", k ? " " : "");
		operands(o, e[k], n);
		str_printf(o, "]");
	}
	if (mv->drop)
		str_printf(o, " as %s", type_str(t, ty, sizeof ty));
}

/* `%o0 = dealloc %m if %c retain %r` */
static void
dealloc_text(Str *o, const BInst *in)
{
	int n = in->nmem;

	results(o, in->op);
	str_printf(o, "dealloc");
	for (int i = 0; i < n; i++)
		str_printf(o, "%s%%%s", i ? ", " : " ", in->vals[i]->name);
	str_printf(o, " if");
	for (int i = 0; i < n; i++)
		str_printf(o, "%s%%%s", i ? ", " : " ", in->vals[n + i]->name);
	str_printf(o, " retain");
	for (int i = 2 * n; i < in->nvals; i++)
		str_printf(o, "%s%%%s", i > 2 * n ? ", " : " ", in->vals[i]->name);
}

/* The op a compute instruction runs, written over buffers. */
static void
compute_text(Str *o, const Op *op)
{
	Form f = op_info[op->kind].form;

	results(o, op);
	str_printf(o, "%s ", op_info[op->kind].name);
	switch (f) {
	case F_EXTRACT_SLICE:
	case F_EXTRACT:
		tir_put_operand(o, &op->args[0]);
		slice(o, op);
		return;
	case F_INSERT_SLICE:
	case F_INSERT:
		tir_put_operand(o, &op->args[0]);
		str_printf(o, " into ");
		tir_put_operand(o, &op->dest);
		slice(o, op);
		return;
	default:
		operands(o, op->args, op->nargs);
	}
	if (f == F_TRANSPOSE || f == F_REDUCE) {
		str_printf(o, " [");
		for (int i = 0; i < op->nperm; i++)
			str_printf(o, "%s%d", i ? ", " : "", op->perm[i]);
		str_printf(o, "]");
	}
	if (op->hasdest) {
		str_printf(o, " into ");
		tir_put_operand(o, &op->dest);
	}
}

static void block(Str *o, const BProg *bp, const BBlock *b, int depth);
static void note(Str *o, const BProg *bp, size_t linestart, const BInst *in);

/* Pad to the comment column, then the decision and the line. */
static void
note(Str *o, const BProg *bp, size_t linestart, const BInst *in)
{
	char dec[160], at[4200];
	size_t col = o->len - linestart;

	if (o->oom)
		return;
	str_printf(o, "%*s// ", col < 44 ? (int)(44 - col) : 1, "");
	if (in->v && in->dec.kind != DEC_NONE &&
	    (in->kind == BI_ALLOC || in->kind == BI_ALIAS || in->kind == BI_VIEW))
		str_printf(o, "%s  ", dec_str(in->v, &in->dec, dec, sizeof dec));
	if ((in->kind == BI_ALLOC || in->kind == BI_ALIAS) &&
	    decision_reason(&in->dec))
		str_printf(o, "(%s)  ", decision_reason(&in->dec));
	if (in->why)
		str_printf(o, "%s  ", in->why);
	if (in->mloc.line) /* a memref program's: its line in the tool's output */
		str_printf(o, "memref line %d  ", in->mloc.line);
	if (in->op && in->op->loc.line)
		str_puts(o, prog_loc(bp->p, in->op->loc, at, sizeof at));
	str_printf(o, "\n");
}

/* A memref program's metadata read: `%v = size 0 of %m`. */
static void
meta_text(Str *o, const BInst *in)
{
	static const char *const what[] = {"base", "offset", "size", "stride",
					   "address"};

	str_printf(o, "%%%s = %s", in->v->name, what[in->meta]);
	if (in->meta == META_SIZE || in->meta == META_STRIDE)
		str_printf(o, " %d", in->meta_dim);
	str_printf(o, " of %%%s", in->src->name);
}

/* A for's or a forall's line up to its `{`: bounds, then the iter args
 * (for) or the shared outputs (forall). */
static void
loop_head(Str *o, const BInst *in)
{
	const Op *op = in->op;
	bool forall = in->kind == BI_FORALL;

	results(o, op);
	str_printf(o, "%s %%%s = ", forall ? "forall" : "for",
		   op->body->args[0]->name);
	operands(o, op->args, 1);
	str_printf(o, " to ");
	operands(o, op->args + 1, 1);
	if (!forall) {
		str_printf(o, " step ");
		operands(o, op->args + 2, 1);
	}
	for (int k = 0; k < op->nres; k++)
		str_printf(o, "%s%%%s = %%%s",
			   k ? ", " : forall ? " shared(" : " iter(",
			   op->body->args[1 + k]->name,
			   forall ? in->vals[k]->name : op->res[k]->name);
	str_printf(o, op->nres ? ") {" : " {");
}

/* The instructions on buffers: true when in is one (printed). */
static bool
buffer_text(Str *o, const BInst *in)
{
	char ty[128];
	const Op *op = in->op;

	switch (in->kind) {
	case BI_ALLOC:
		str_printf(o, "%%%s = alloc %s", in->v->name,
		    type_str(in->v->type, ty, sizeof ty));
		break;
	case BI_ALIAS:
		str_printf(o, in->retain ? "%%%s = retain %%%s" : "%%%s = alias %%%s",
			   in->v->name, in->src->name);
		break;
	case BI_VIEW:
		str_printf(o, "%%%s = view %%%s", in->v->name, in->src->name);
		if (in->mv)
			mview(o, in->mv, in->v->type);
		else if (op_info[op->kind].form == F_RESHAPE)
			str_printf(o, " as %s", type_str(in->v->type, ty,
							 sizeof ty));
		else
			slice(o, op);
		break;
	case BI_COPY:
		str_printf(o, "copy %%%s -> %%%s", in->src->name, in->v->name);
		if (in->settle)
			str_printf(o, " after its launches");
		break;
	case BI_BIND:
		str_printf(o, "bind %%%s = %%%s", in->v->name, in->src->name);
		break;
	case BI_VER:
		str_printf(o, "expect %%%s holds %%%s", in->v->name,
			   in->src ? in->src->name : "anything");
		break;
	case BI_META:
		meta_text(o, in);
		break;
	case BI_DEALLOC:
		dealloc_text(o, in);
		break;
	case BI_SELECT:
		str_printf(o, "%%%s = select %%%s, %%%s, %%%s", in->v->name,
			   in->vals[0]->name, in->vals[1]->name, in->vals[2]->name);
		break;
	case BI_CONST:
		str_printf(o, "%%%s = const %s", in->v->name,
		    type_str(in->v->type, ty, sizeof ty));
		break;
	case BI_FREE:
		str_printf(o, in->v->type->kind == TY_FUTURE ? "release %%%s"
			   : in->ifowned ? "free %%%s if owned" : "free %%%s",
			   in->v->name);
		if (in->settle)
			str_printf(o, " after its launches");
		break;
	case BI_PINSERT:
		str_printf(o, "parallel_insert_slice %%%s into %%%s",
		    in->src->name, in->v ? in->v->name : "?");
		slice(o, op);
		break;
	default:
		return false;
	}
	return true;
}

/* The instructions of ops without regions: compute, call, drain, await,
 * yield and return. */
static void
flow_text(Str *o, const BInst *in)
{
	const Op *op = in->op;

	switch (in->kind) {
	case BI_COMPUTE:
		compute_text(o, op);
		break;
	case BI_CALL:
		results(o, op);
		str_printf(o, "call @%s(", op->callee);
		for (int i = 0; i < op->nargs; i++) {
			if (i)
				str_printf(o, ", ");
			if (in->vals && in->vals[i])
				str_printf(o, "%%%s", in->vals[i]->name);
			else
				tir_put_operand(o, &op->args[i]);
		}
		str_printf(o, ")");
		break;
	case BI_DRAIN:
		str_printf(o, "drain");
		for (int i = 0; i < in->nvals; i++)
			str_printf(o, "%s%%%s", i ? ", " : " ", in->vals[i]->name);
		break;
	case BI_AWAIT:
		results(o, op);
		str_printf(o, "await ");
		tir_put_operand(o, &op->args[0]);
		break;
	case BI_YIELD:
	case BI_RETURN:
		str_printf(o, in->kind == BI_RETURN ? "return"
			      : op && op->kind == OP_CONDITION ? "condition"
							       : "yield");
		for (int i = 0; i < in->nvals; i++)
			str_printf(o, "%s%%%s", i ? ", " : " ", in->vals[i]->name);
		break;
	default:
		break;
	}
}

/* `br ^b` / `cond_br %c`, then each edge's code under `-> ^b {`. */
static void
branch_text(Str *o, const BProg *bp, const BInst *in, int depth,
	    size_t start)
{
	const Op *op = in->op;

	str_printf(o, "%s", op->kind == OP_COND_BR ? "cond_br " : "br");
	if (op->kind == OP_COND_BR)
		tir_put_operand(o, &op->args[0]);
	note(o, bp, start, in);
	for (int k = 0; k < op->nsucc; k++) {
		str_printf(o, "%*s-> ^%s {\n", 2 * depth, "", op->succ[k]->label);
		block(o, bp, k ? in->orelse : in->body, depth + 1);
		str_printf(o, "%*s}\n", 2 * depth, "");
	}
}

/* The instructions with regions, their note and their blocks: true when
 * printed whole (an assert without a failure path only starts its line). */
static bool
region_text(Str *o, const BProg *bp, const BInst *in, int depth,
	    size_t start)
{
	const Op *op = in->op;

	switch (in->kind) {
	case BI_IF:
		results(o, op);
		str_printf(o, "if ");
		tir_put_operand(o, &op->args[0]);
		str_printf(o, " {");
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		str_printf(o, "%*s} else {\n", 2 * depth, "");
		block(o, bp, in->orelse, depth + 1);
		break;
	case BI_FOR:
	case BI_FORALL:
		loop_head(o, in);
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		break;
	case BI_WHILE:
		results(o, op);
		str_printf(o, "while");
		for (int k = 0; k < op->nres; k++)
			str_printf(o, "%s%%%s = %%%s", k ? ", " : " iter(",
			    op->body->args[k]->name, op->res[k]->name);
		str_printf(o, op->nres ? ") {" : " {");
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		str_printf(o, "%*s} do {\n", 2 * depth, "");
		block(o, bp, in->orelse, depth + 1);
		break;
	case BI_ASSERT:
		str_printf(o, "assert ");
		tir_put_operand(o, &op->args[0]);
		if (!in->body || !in->body->n)
			return false;
		str_printf(o, " else fail {");
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		break;
	case BI_GENERATE:
		str_printf(o, "generate %%%s [", in->v->name);
		for (int d = 0; d < op->body->nargs; d++)
			str_printf(o, d ? ", %%%s" : "%%%s",
				   op->body->args[d]->name);
		str_printf(o, "] {");
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		break;
	case BI_LAUNCH:
		str_printf(o, "%%%s = launch stream %d {", in->v->name, op->stream);
		note(o, bp, start, in);
		block(o, bp, in->body, depth + 1);
		break;
	case BI_BR:
		branch_text(o, bp, in, depth, start);
		return true;
	default:
		return false;
	}
	str_printf(o, "%*s}\n", 2 * depth, "");
	return true;
}

static void
inst(Str *o, const BProg *bp, const BInst *in, int depth)
{
	size_t start = o->len;

	str_printf(o, "%*s", 2 * depth, "");
	if (region_text(o, bp, in, depth, start))
		return;
	if (!buffer_text(o, in))
		flow_text(o, in);
	note(o, bp, start, in);
}

static void
block(Str *o, const BProg *bp, const BBlock *b, int depth)
{
	for (int i = 0; i < b->n; i++)
		inst(o, bp, b->insts[i], depth);
}

char *
bir_print(const BProg *bp)
{
	Str o = {0};
	char ty[128];

	for (int i = 0; i < bp->nfuncs; i++) {
		const Func *f = bp->funcs[i].f;
		str_printf(&o, "%sfunc @%s(", i ? "\n" : "", f->name);
		for (int j = 0; j < f->nparams; j++)
			str_printf(&o, "%s%%%s: %s%s", j ? ", " : "", f->params[j]->name,
			    type_str(f->params[j]->type, ty, sizeof ty),
			    f->params[j]->readonly ? " {readonly}" : "");
		str_printf(&o, ")");
		for (int j = 0; j < f->nrtypes; j++)
			str_printf(&o, "%s%s", j ? ", " : " -> (", type_str(f->rtypes[j], ty, sizeof ty));
		str_printf(&o, "%s {\n", f->nrtypes ? ")" : "");
		block(&o, bp, bp->funcs[i].body, 1);
		for (int b = 1; b < bp->funcs[i].nblocks; b++) {
			const Block *blk = bp->funcs[i].blocks[b]->blk;
			str_printf(&o, "^%s", blk->label);
			for (int a = 0; a < blk->nargs; a++)
				str_printf(&o, "%s%%%s: %s", a ? ", " : "(",
					   blk->args[a]->name,
					   type_str(blk->args[a]->type, ty, sizeof ty));
			str_printf(&o, "%s:\n", blk->nargs ? ")" : "");
			block(&o, bp, bp->funcs[i].blocks[b], 1);
		}
		str_printf(&o, "}\n");
	}
	return str_take(&o);
}

/* ---- explain: why each allocation and copy is there */

/* "FILE:LINE:COL: " of the tensor op an instruction comes from. */
static void
explain_at(Str *o, const BProg *bp, const BInst *in)
{
	const Op *op = in->op ? in->op : in->top;
	char at[4200];

	if (op && op->loc.line)
		str_printf(o, "%s: ", prog_loc(bp->p, op->loc, at, sizeof at));
	else
		str_printf(o, "%s: ", bp->p->file ? bp->p->file : "-");
}

typedef struct Explain {
	Str *o;
	const BProg *bp;
} Explain;

static WalkAct
explain_inst(BInst *in, void *ctx)
{
	Str *o = ((Explain *)ctx)->o;
	const BProg *bp = ((Explain *)ctx)->bp;
	const Op *op = in->op ? in->op : in->top;
	char dec[160], ty[128];

	if (in->kind == BI_ALLOC) {
		const char *why = in->why ? in->why : decision_reason(&in->dec);
		explain_at(o, bp, in);
		str_printf(o, "alloc %s for ", type_str(in->v->type, ty,
							sizeof ty));
		bir_value_text(o, bp, in->v, op);
		if (in->dec.kind != DEC_NONE)
			str_printf(o, " [%s]", dec_str(in->v, &in->dec, dec, sizeof dec));
		str_printf(o, ": %s\n", why ? why : op && (op->kind == OP_FOR || op->kind == OP_WHILE)
			? "the loop buffer" : "a result with no operand to reuse");
	} else if (in->kind == BI_COPY) {
		explain_at(o, bp, in);
		str_puts(o, "copy ");
		bir_value_text(o, bp, in->src, op);
		str_puts(o, " into ");
		bir_value_text(o, bp, in->v, op);
		str_printf(o, ": %s\n", in->why ? in->why : "");
	}
	return WALK_GO;
}

char *
bir_explain(const BProg *bp)
{
	Str o = {0};

	for (int i = 0; i < bp->nfuncs; i++) {
		str_printf(&o, "@%s:\n", bp->funcs[i].f->name);
		walk_bblock(bp->funcs[i].body, explain_inst, &(Explain){&o, bp});
		for (int b = 1; b < bp->funcs[i].nblocks; b++)
			walk_bblock(bp->funcs[i].blocks[b], explain_inst,
				    &(Explain){&o, bp});
	}
	return str_take(&o);
}

const Value *
inst_value(const BInst *in)
{
	if (!in)
		return NULL;
	if (in->v)
		return in->v;
	return in->op && in->op->nres ? in->op->res[0] : NULL;
}
