/*
 * memref.c: the memref program an outside tool's bufferization pipeline
 * prints (`--strategy mlir-pipeline`, FORMAT.md §5), read in the generic
 * form with locations, as a buffer program the instrumented executor runs.
 *
 * The memref program's values are registers of their own.  The tensor
 * program's values are registers too, but they only carry versions: each
 * memref op whose location is a TIR op's and which implements it (the
 * linalg op of an elementwise op, the memref.copy into a subview of an
 * insert_slice, the store of an insert) first binds the TIR op's operands
 * to the memref operands it really reads (`bind`), then runs the TIR op's
 * own kernel there.  So every read is checked against the version of the
 * TIR value it should see, and every write tags the TIR result's version.
 * Copies carry their elements' versions; the memref program's own buffers
 * (ownership flags, pointer lists, clones) expect nothing.  Versions cross
 * loops, branches and calls through `expect` at their edges.
 *
 * This file keeps types, values, instructions, attributes, the table of
 * ops, functions and the module; the ops are in memref_ops.c and
 * memref_control.c, what the three share in memref_impl.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "memref_impl.h"

void __attribute__((noreturn, format(printf, 3, 4)))
mx_fail(MX *M, const MOp *m, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (m)
		diag_set(M->d, m->at, "%s", msg);
	else
		diag_set(M->d, (Loc){0, 0}, "%s", msg);
	longjmp(M->fail, 1);
}

void __attribute__((noreturn))
mx_unsupported(MX *M, const MOp *m)
{
	mx_fail(M, m, "unsupported op '%s' in the memref program", m->name);
}

/* ---- types: memref<4x?xf32, strided<...>> and scalars */

static int
dtype_of(const char *s, size_t n)
{
	for (int k = 0; k < DT_COUNT; k++)
		if (strlen(dtype_names[k]) == n && !strncmp(s, dtype_names[k], n))
			return k;
	return -1;
}

Type *
mx_type(MX *M, const MOp *m, const char *t)
{
	Type *ty = arena_alloc(M->a, sizeof *ty);
	const char *p = t;
	int dt;

	if (!strncmp(p, "memref<", 7) || !strncmp(p, "tensor<", 7)) {
		p += 7;
		ty->kind = TY_TENSOR;
		for (;;) {
			char *e;
			if (*p == '?') {
				if (ty->rank == MAXRANK)
					mx_fail(M, m, "type '%s' has too many dims", t);
				ty->dims[ty->rank++] = DIM_DYN;
				p++;
			} else if (*p >= '0' && *p <= '9') {
				long long d = strtoll(p, &e, 10);
				if (*e != 'x')
					break;
				if (ty->rank == MAXRANK || d < 0)
					mx_fail(M, m, "type '%s' has too many dims", t);
				ty->dims[ty->rank++] = d;
				p = e;
			} else {
				break;
			}
			if (*p++ != 'x')
				mx_fail(M, m, "unsupported type '%s'", t);
		}
		dt = dtype_of(p, strcspn(p, ",>"));
		if (dt < 0 || (p[strcspn(p, ",>")] == ',' &&
			       strncmp(p + strcspn(p, ",>"), ", strided<", 10)))
			mx_fail(M, m, "unsupported type '%s'", t);
		ty->dt = (DType)dt;
		return ty;
	}
	if (!strcmp(p, "!async.token") || !strncmp(p, "!async.value<", 13)) {
		ty->kind = TY_FUTURE;
		return ty;
	}
	if ((dt = dtype_of(p, strlen(p))) < 0)
		mx_fail(M, m, "unsupported type '%s'", t);
	ty->kind = TY_SCALAR;
	ty->dt = (DType)dt;
	return ty;
}

/* ---- values */

/* The latest binding of name (a block argument may rebind it). */
Sym *
mx_sym_find(MX *M, const char *name)
{
	int i = strmap_get(&M->symidx, name);

	return i < 0 ? NULL : &M->syms[i];
}

static void
sym_push(MX *M, Sym s)
{
	VEC_PUSH(M->a, M->syms, M->nsyms, M->capsyms, s);
	strmap_set(&M->symidx, s.name, M->nsyms - 1);
}

/* name (a block argument) stands for v */
void
mx_sym_bind(MX *M, const char *name, Value *v)
{
	Sym s = {0};

	s.name = name;
	s.v = v;
	sym_push(M, s);
}

Value *
mx_val(MX *M, const MOp *m, int i)
{
	Sym *s;

	if (i >= m->noperands)
		mx_fail(M, m, "%s: %d operands, too few for its attributes",
			m->name, m->noperands);
	s = mx_sym_find(M, m->operands[i]);

	if (!s)
		mx_fail(M, m, "%s: undefined value %s", m->name, m->operands[i]);
	return s->v;
}

Value *
mx_new_value(MX *M, const char *name, Type *t)
{
	Value *v = arena_alloc(M->a, sizeof *v);
	BProg *bp = M->bp;

	v->name = arena_strdup(M->a, name[0] == '%' ? name + 1 : name);
	v->type = t;
	v->id = bp->nregs;
	v->func = M->cur ? M->cur->f : NULL;
	VEC_PUSH(M->a, bp->regs, bp->nregs, M->capregs, v);
	return v;
}

Sym *
mx_def(MX *M, const char *name, Type *t)
{
	Sym s = {0};

	s.name = name;
	s.v = mx_new_value(M, name, t);
	sym_push(M, s);
	return &M->syms[M->nsyms - 1];
}

Value *
mx_res(MX *M, const MOp *m, int j)
{
	Sym *s;

	if (j >= m->nresults)
		mx_fail(M, m, "%s: %d results, too few", m->name, m->nresults);
	s = mx_def(M, m->results[j], mx_type(M, m, m->restypes[j]));
	s->defm = m;
	return s->v;
}

/* ---- instructions */

static WalkAct
tir_index(Op *op, void *ctx)
{
	MX *M = ctx;
	char key[32];
	char *k;

	fmt_snprintf(key, sizeof key, "%d:%d", op->loc.line, op->loc.col);
	k = arena_strdup(M->a, key);
	if (strmap_add(&M->tirat, k, M->ntirops) == STRMAP_NONE)
		VEC_PUSH(M->a, M->tirops, M->ntirops, M->captirops, op);
	return WALK_GO;
}

/* The TIR op at m's location, or NULL: the first in walk order
 * (prog_op_at's), from an index made on the first call. */
const Op *
mx_tir_of(MX *M, const MOp *m)
{
	char key[32];
	int i;

	if (!m->loc.file || strcmp(m->loc.file, M->c->file))
		return NULL;
	if (!M->tirops) {
		M->tirops = arena_alloc(M->a, sizeof *M->tirops);
		walk_prog(M->p, tir_index, M);
	}
	fmt_snprintf(key, sizeof key, "%d:%d", m->loc.line, m->loc.col);
	i = strmap_get(&M->tirat, key);
	return i < 0 ? NULL : M->tirops[i];
}

const MFn *
mx_fn_find(MX *M, const char *name)
{
	int i = strmap_get(&M->fnidx, name);

	return i < 0 ? NULL : &M->fns[i];
}

Op *
mx_syn_op(MX *M, OpKind k, const MOp *m, int nargs)
{
	Op *op = arena_alloc(M->a, sizeof *op);
	const Op *t = mx_tir_of(M, m);

	op->kind = k;
	op->loc = t ? t->loc : (Loc){0, 0};
	op->nargs = nargs;
	op->args = arena_alloc(M->a, (size_t)(nargs + 1) * sizeof *op->args);
	return op;
}

BInst *
mx_inst(MX *M, BBlock *b, BKind k, const Op *op, Value *v, const MOp *m)
{
	BInst *in = arena_alloc(M->a, sizeof *in);
	BProg *bp = M->bp;

	in->kind = k;
	in->op = op;
	in->v = v;
	in->mloc = m ? m->at : (Loc){0, 0};
	in->mname = m ? m->name : NULL;
	in->id = bp->ninsts;
	VEC_PUSH(M->a, bp->insts, bp->ninsts, M->capinsts, in);
	VEC_PUSH(M->a, b->insts, b->n, b->cap, in);
	return in;
}

void
mx_emit_bind(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m)
{
	BInst *in = mx_inst(M, b, BI_BIND, NULL, tv, m);

	in->src = src;
}

/* The TIR result tv is computed into src: a write of src's buffer (what
 * a launch that does it pins as written). */
void
mx_emit_bind_out(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m)
{
	mx_emit_bind(M, b, tv, src, m);
	b->insts[b->n - 1]->carry = true;
}

/* v must hold the version src holds (NULL: anything).  Only tensors. */
void
mx_emit_ver(MX *M, BBlock *b, Value *v, Value *src, const MOp *m)
{
	BInst *in;

	if (!v || v->type->kind != TY_TENSOR)
		return;
	in = mx_inst(M, b, BI_VER, NULL, v, m);
	in->src = src;
}

Operand
mx_opnd(Value *v)
{
	Operand o = {0};

	o.v = v;
	return o;
}

Operand
mx_lit(int64_t i)
{
	Operand o = {0};

	o.i = i;
	o.f = (double)i;
	return o;
}

/* ---- attributes */

int
mx_ints(MX *M, const MOp *m, const char *name, int64_t *out, int n)
{
	int k = mattr_ints(mop_attr(m, name), out, n);

	if (k < 0 || k > n)
		mx_fail(M, m, "%s: no readable '%s'", m->name, name);
	return k;
}

/* operandSegmentSizes (mlir-opt-16: operand_segment_sizes), or -1 when
 * absent */
int
mx_segments(MX *M, const MOp *m, int64_t *seg, int n)
{
	const char *name = "operandSegmentSizes";

	if (!mop_attr(m, name))
		name = "operand_segment_sizes";
	if (!mop_attr(m, name))
		return -1;
	return mx_ints(M, m, name, seg, n);
}

/* ---- ops: which function reads each (memref_ops.c, memref_control.c) */

typedef void (*OpFn)(MX *, const MOp *, BBlock *);

static const struct {
	const char *name;
	OpFn fn;
} op_table[] = {
	{"arith.constant", mx_constant},
	{"arith.cmpi", mx_cmp},
	{"arith.cmpf", mx_cmp},
	{"arith.select", mx_select},
	{"arith.index_cast", mx_alias},
	{"memref.alloc", mx_alloc},
	{"memref.alloca", mx_alloc},
	{"memref.dealloc", mx_dealloc},
	{"memref.subview", mx_subview},
	{"memref.copy", mx_copy},
	{"memref.load", mx_load},
	/* mlir-opt-16 leaves cf ops on tensors (to_tensor of the memref), and
	 * the reads of their block arguments with them */
	{"tensor.extract", mx_load},
	{"memref.store", mx_store},
	{"memref.cast", mx_cast},
	{"memref.collapse_shape", mx_reshape},
	{"memref.expand_shape", mx_reshape},
	{"memref.extract_strided_metadata", mx_strided_metadata},
	{"memref.extract_aligned_pointer_as_index", mx_addr},
	{"memref.dim", mx_dim},
	{"memref.get_global", mx_get_global},
	{"bufferization.clone", mx_clone},
	{"bufferization.dealloc", mx_bdealloc},
	{"memref.reinterpret_cast", mx_reinterpret},
	{"bufferization.to_tensor", mx_cast},
	{"bufferization.to_memref", mx_cast},
	{"bufferization.to_buffer", mx_cast},
	{"scf.for", mx_for},
	{"scf.if", mx_if},
	{"scf.while", mx_while},
	{"scf.condition", mx_condition},
	{"scf.forall", mx_forall},
	{"scf.foreach_thread", mx_forall},
	{"async.execute", mx_async},
	{"async.await", mx_await},
	{"func.call", mx_call},
	{"cf.assert", mx_assert},
	{"cf.br", mx_branch},
	{"cf.cond_br", mx_branch},
};

void
mx_one_op(MX *M, const MOp *m, BBlock *b)
{
	OpKind ek;
	bool i1only;

	if (!strcmp(m->name, "linalg.index")) {
		mx_linalg_index(M, m, b);
		return;
	}
	if (!strcmp(m->name, "linalg.yield") && M->gidx) {
		mx_yield(M, m, b, BI_YIELD); /* a generate body's scalar */
		return;
	}
	if (!strncmp(m->name, "linalg.", 7) && strcmp(m->name, "linalg.yield")) {
		const Op *t = mx_tir_of(M, m);
		if (t && t->kind == OP_GENERATE)
			mx_generate(M, m, b, t);
		else
			mx_linalg(M, m, b);
		return;
	}
	if (!strcmp(m->name, "scf.yield") || !strcmp(m->name, "async.yield") ||
	    !strcmp(m->name, "scf.forall.in_parallel") ||
	    !strcmp(m->name, "scf.foreach_thread.perform_concurrently")) {
		mx_yield(M, m, b, BI_YIELD);
		return;
	}
	if (!strcmp(m->name, "func.return")) {
		mx_yield(M, m, b, BI_RETURN);
		return;
	}
	if ((ek = ew_of_mlir(m->name, EWM_I1, &i1only)) != OP_NONE) {
		mx_arith(M, m, b, ek, i1only);
		return;
	}
	for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
		if (!strcmp(op_table[k].name, m->name)) {
			op_table[k].fn(M, m, b);
			return;
		}
	mx_unsupported(M, m);
}

void
mx_block_ops(MX *M, const MBlock *mb, BBlock *b)
{
	for (int i = 0; i < mb->nops; i++)
		mx_one_op(M, mb->ops[i], b);
}

/* ---- functions and the module */

/* "(a, b) -> (c, d)" or "(a) -> c": the result types into f. */
static void
fn_results(MX *M, const MOp *m, const char *ft, Func *f)
{
	const char *p = strstr(ft, ") -> "), *start;
	int depth = 0;
	bool paren;

	if (!p)
		return;
	p += 5;
	paren = *p == '(';
	p += paren;
	f->rtypes = arena_alloc(M->a, sizeof *f->rtypes * (strlen(p) / 2 + 1));
	for (start = p;; p++) {
		bool end = !*p || (!depth && (*p == ',' || (paren && *p == ')')));
		if (end && p > start) {
			char *t = arena_strndup(M->a, start, (size_t)(p - start));
			f->rtypes[f->nrtypes++] = mx_type(M, m, t);
		}
		if (!*p || (end && *p == ')'))
			break;
		if (end) {
			start = p + 1;
			while (*start == ' ')
				start++;
		} else if (*p == '<' || *p == '(' || *p == '[') {
			depth++;
		} else if (*p == '>' || *p == ')' || *p == ']') {
			depth--;
		}
	}
}

static void
fn_declare(MX *M, const MOp *m)
{
	const MAttr *name = mop_attr(m, "sym_name");
	const MAttr *ft = mop_attr(m, "function_type");
	MFn fn = {0};
	Func *f;
	const MBlock *mb;
	int ti;

	if (!name || !ft || m->nregions != 1)
		mx_fail(M, m, "func.func without a name, type or body");
	if (!m->regions[0].nblocks)
		return; /* a declaration: calls of it are refused */
	fn.name = mattr_str(name, M->a);
	fn.m = m;
	fn.tf = NULL;
	if (fn.name && (ti = strmap_get(&M->tirfns, fn.name)) >= 0)
		fn.tf = M->p->funcs[ti];
	f = fn.f = arena_alloc(M->a, sizeof *f);
	f->name = fn.name;
	f->loc = fn.tf ? fn.tf->loc : M->c->entry->loc;
	mb = m->regions[0].blocks[0];
	f->nparams = mb->nargs;
	f->params = arena_alloc(M->a, (size_t)(mb->nargs + 1) * sizeof *f->params);
	fn_results(M, m, ft->text, f);
	M->cur = &fn;
	for (int i = 0; i < mb->nargs; i++) {
		Value *v = mx_new_value(M, mb->args[i], mx_type(M, m, mb->argtypes[i]));
		v->isparam = true;
		if (fn.tf && i < fn.tf->nparams) {
			v->readonly = fn.tf->params[i]->readonly;
			v->loc = fn.tf->params[i]->loc;
		}
		f->params[i] = v;
	}
	M->cur = NULL;
	if (fn.name)
		strmap_add(&M->fnidx, fn.name, M->nfns);
	VEC_PUSH(M->a, M->fns, M->nfns, M->capfns, fn);
}

/* A function's body into bf: its one block, or its blocks along their
 * cf.br/cf.cond_br (memref_control.c). */
static void
fn_body(MX *M, const MFn *fn, BFunc *bf)
{
	BBlock *b = arena_alloc(M->a, sizeof *b);
	const MBlock *mb = fn->m->regions[0].blocks[0];

	M->nsyms = 0;
	strmap_clear(&M->symidx);
	M->cur = fn;
	bf->f = fn->f;
	bf->body = b;
	for (int i = 0; i < mb->nargs; i++) {
		mx_sym_bind(M, mb->args[i], fn->f->params[i]);
		if (fn->tf && i < fn->tf->nparams)
			mx_emit_ver(M, b, fn->tf->params[i], fn->f->params[i], NULL);
	}
	if (fn->m->regions[0].nblocks > 1) {
		mx_cfg_body(M, fn, bf);
		return;
	}
	mx_block_ops(M, mb, b);
	if (!b->n || (b->insts[b->n - 1]->kind != BI_RETURN))
		mx_fail(M, fn->m, "func.func @%s does not end with func.return",
			fn->name);
}

static const MOp *
module_of(MX *M, const MOp *top)
{
	if (strcmp(top->name, "builtin.module") || top->nregions != 1 ||
	    top->regions[0].nblocks != 1)
		mx_fail(M, top, "the answer is not one module");
	return top;
}

int
memref_program(const Case *c, const char *text, const ExportMap *map,
	       BProg **out, const Func **entry, Diag *d)
{
	MX M = {0};
	volatile int rc;
	const MBlock *mb;
	MOp *top;

	*out = NULL;
	if (!(M.a = arena_new()))
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if ((rc = setjmp(M.fail)) != 0) {
		arena_free(M.a);
		return -1;
	}
	M.a->oom = &M.fail;
	M.c = c;
	M.p = c->prog;
	M.map = map;
	M.d = d;
	strmap_init(&M.symidx, M.a);
	strmap_init(&M.fnidx, M.a);
	strmap_init(&M.tirfns, M.a);
	strmap_init(&M.tirat, M.a);
	for (int i = 0; i < M.p->nfuncs; i++)
		strmap_add(&M.tirfns, M.p->funcs[i]->name, i);
	if (mlir_read(text, strlen(text), M.a, &top, d))
		longjmp(M.fail, 1);
	M.bp = arena_alloc(M.a, sizeof *M.bp);
	M.bp->arena = M.a;
	M.bp->p = M.p;
	M.bp->memref = true;
	for (int i = 0; i < M.p->nvalues; i++)
		VEC_PUSH(M.a, M.bp->regs, M.bp->nregs, M.capregs, M.p->values[i]);
	mb = module_of(&M, top)->regions[0].blocks[0];
	for (int i = 0; i < mb->nops; i++)
		if (!strcmp(mb->ops[i]->name, "func.func"))
			fn_declare(&M, mb->ops[i]);
		else if (strcmp(mb->ops[i]->name, "memref.global"))
			mx_unsupported(&M, mb->ops[i]);
	M.bp->nfuncs = M.nfns;
	M.bp->funcs = arena_alloc(M.a, (size_t)(M.nfns + 1) * sizeof *M.bp->funcs);
	*entry = NULL;
	for (int i = 0; i < M.nfns; i++) {
		fn_body(&M, &M.fns[i], &M.bp->funcs[i]);
		if (M.fns[i].tf == c->entry)
			*entry = M.fns[i].f;
	}
	if (!*entry)
		mx_fail(&M, top, "the memref program has no function @%s",
			c->entry->name);
	if ((*entry)->nparams != c->entry->nparams)
		mx_fail(&M, top, "@%s takes %d arguments in the memref program, "
			"%d in the case", c->entry->name, (*entry)->nparams,
			c->entry->nparams);
	M.bp->dec = arena_alloc(M.a, (size_t)(M.bp->nregs + 1) * sizeof *M.bp->dec);
	M.a->oom = NULL;
	*out = M.bp;
	return 0;
}
