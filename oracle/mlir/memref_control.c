/*
 * memref_control.c: the memref program's control flow as buffer program
 * instructions: regions and yields, scf.for/if/while/forall, async, calls
 * and asserts, a function body's blocks with cf.br/cf.cond_br (BI_BR), with
 * the versions that cross their edges.
 */
#include <stdio.h>
#include <stdlib.h>

#include "memref_impl.h"

/* ---- control flow */

static void region_ops(MX *M, const MBlock *mb, BBlock *b, const Block *blk);

static BBlock *
region_block(MX *M, const MOp *m, int r, Value **args, int nargs,
	     const Block *blk)
{
	BBlock *b = arena_alloc(M->a, sizeof *b);
	const MBlock *mb;

	if (r >= m->nregions || !m->regions[r].nblocks)
		return b;
	if (m->regions[r].nblocks != 1)
		mx_fail(M, m, "%s: a region of several blocks", m->name);
	mb = m->regions[r].blocks[0];
	if (args) {
		if (mb->nargs != nargs)
			mx_fail(M, m, "%s: %d block arguments, expected %d",
				m->name, mb->nargs, nargs);
		for (int i = 0; i < nargs; i++) {
			mx_sym_bind(M, mb->args[i], args[i]);
		}
	}
	region_ops(M, mb, b, blk);
	return b;
}

static Value **
block_values(MX *M, const MOp *m, int r, int from)
{
	const MBlock *mb;
	Value **v;

	if (r >= m->nregions || m->regions[r].nblocks != 1)
		mx_fail(M, m, "%s: expected one block in region %d", m->name, r);
	mb = m->regions[r].blocks[0];
	v = arena_alloc(M->a, (size_t)(mb->nargs + 1) * sizeof *v);
	for (int i = from; i < mb->nargs; i++)
		v[i] = mx_new_value(M, mb->args[i], mx_type(M, m, mb->argtypes[i]));
	return v;
}

static bool
is_term(const Op *t)
{
	return t && (t->kind == OP_YIELD || t->kind == OP_RETURN ||
		     t->kind == OP_CONDITION);
}

/* The last op of a TIR block when it is a terminator, else NULL. */
static const Op *
tir_term(const Block *blk)
{
	const Op *t = blk && blk->nops ? blk->ops[blk->nops - 1] : NULL;

	return is_term(t) ? t : NULL;
}

/* Read mb into b as the region whose TIR block is blk (NULL: none). */
static void
region_ops(MX *M, const MBlock *mb, BBlock *b, const Block *blk)
{
	const Op *saved = M->term;

	M->term = tir_term(blk);
	mx_block_ops(M, mb, b);
	M->term = saved;
}

/* The yield's operands expect the versions of the TIR yield's: the one
 * at its location, else its region's (the deallocation pipeline rebuilds
 * a yield that passes ownership at the region op's location, its first
 * operands the old ones). */
static void
yield_versions(MX *M, const MOp *m, BBlock *b, Value **v, int n)
{
	const Op *t = mx_tir_of(M, m);

	if (!is_term(t))
		t = M->term;
	/* an scf.condition stands for a TIR condition, a yield for a yield */
	if (!t || (t->kind == OP_CONDITION) != !strcmp(m->name, "scf.condition"))
		return;
	for (int k = 0; k < n && k + (t->kind == OP_CONDITION) < t->nargs; k++)
		mx_emit_ver(M, b, v[k], t->args[k + (t->kind == OP_CONDITION)].v, m);
}

void
mx_yield(MX *M, const MOp *m, BBlock *b, BKind k)
{
	Value **v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	Op *op = mx_syn_op(M, k == BI_RETURN ? OP_RETURN : OP_YIELD, m,
			m->noperands);
	BInst *in;

	for (int i = 0; i < m->noperands; i++) {
		v[i] = mx_val(M, m, i);
		op->args[i] = mx_opnd(v[i]);
	}
	yield_versions(M, m, b, v, m->noperands);
	in = mx_inst(M, b, k, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	if (k == BI_RETURN) {
		const Op *t = mx_tir_of(M, m);
		if (t && t->kind == OP_RETURN)
			in->top = t;
	}
}

/* Results start as the inits (loop buffers are the memref program's). */
static void
results_from(MX *M, const MOp *m, BBlock *b, Value **res, Value **init,
	     int n)
{
	for (int k = 0; k < n; k++)
		if (res[k]->type->kind == TY_TENSOR)
			mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), res[k],
				m)->src = init[k];
}

Value **
mx_results(MX *M, const MOp *m)
{
	Value **r = arena_alloc(M->a, (size_t)(m->nresults + 1) * sizeof *r);

	for (int j = 0; j < m->nresults; j++)
		r[j] = mx_res(M, m, j);
	return r;
}

/* After a region op: its TIR results hold the memref results' versions. */
static void
result_versions(MX *M, const MOp *m, BBlock *b, const Op *t, Value **r, int n)
{
	for (int k = 0; t && k < n && k < t->nres; k++)
		mx_emit_ver(M, b, t->res[k], r[k], m);
}

/*
 * A TIR for whose iter args the tool dropped altogether (canonicalized to
 * an scf.for without iter_args: they live in buffers the body writes):
 * the iter args' versions follow the TIR yields trip by trip, and the
 * results take the last trip's (the inits' after zero trips).  Else its
 * reads of an iter arg would expect nothing.  `at` 0: before the loop,
 * 1: at the end of the body (before its scf.yield), 2: after the loop.
 */
static void
dropped_iters(MX *M, const MOp *m, BBlock *b, const Op *t, int at)
{
	const Op *y = tir_term(t->body);
	int from = b->n;

	for (int k = 0; k < t->nres; k++) {
		Value *a = t->body->args[1 + k];
		if (at == 0)
			mx_emit_ver(M, b, a, t->args[3 + k].v, m);
		else if (at == 1 && y && k < y->nargs)
			mx_emit_ver(M, b, a, y->args[k].v, m);
		else if (at == 2)
			mx_emit_ver(M, b, t->res[k], a, m);
	}
	if (at == 1 && from > 0 && b->n > from &&
	    b->insts[from - 1]->kind == BI_YIELD) { /* the yield last */
		BInst *yi = b->insts[from - 1];
		memmove(&b->insts[from - 1], &b->insts[from],
			(size_t)(b->n - from) * sizeof *b->insts);
		b->insts[b->n - 1] = yi;
	}
}

void
mx_for(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	int n = m->noperands - 3;
	Op *op = mx_syn_op(M, OP_FOR, m, m->noperands);
	Value **init = arena_alloc(M->a, (size_t)(n + 1) * sizeof *init);
	BInst *in;

	if (n < 0 || m->nresults != n)
		mx_unsupported(M, m);
	if (t && t->kind != OP_FOR)
		t = NULL;
	for (int i = 0; i < m->noperands; i++)
		op->args[i] = mx_opnd(mx_val(M, m, i));
	for (int k = 0; k < n; k++)
		init[k] = op->args[3 + k].v;
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = n + 1;
	op->res = mx_results(M, m);
	op->nres = n;
	results_from(M, m, b, op->res, init, n);
	for (int k = 0; t && k < n && k < t->nres; k++)
		mx_emit_ver(M, b, op->res[k], t->args[3 + k].v, m);
	if (t && n == 0 && t->nres)
		dropped_iters(M, m, b, t, 0);
	in = mx_inst(M, b, BI_FOR, op, NULL, m);
	{
		BBlock *body = arena_alloc(M->a, sizeof *body);
		for (int k = 0; t && k < n && k < t->nres; k++)
			mx_emit_ver(M, body, t->body->args[1 + k], op->body->args[1 + k], m);
		const MBlock *mb = m->regions[0].blocks[0];
		for (int i = 0; i < mb->nargs; i++) {
			mx_sym_bind(M, mb->args[i], op->body->args[i]);
		}
		region_ops(M, mb, body, t ? t->body : NULL);
		if (t && n == 0 && t->nres)
			dropped_iters(M, m, body, t, 1);
		in->body = body;
	}
	result_versions(M, m, b, t, op->res, n);
	if (t && n == 0 && t->nres)
		dropped_iters(M, m, b, t, 2);
}

/*
 * A linalg.map (22, 19) or linalg.generic at a TIR generate: its body runs
 * once per element of its out memref, `linalg.index d` standing for the
 * d-th index, and the scalar its linalg.yield gives is written there
 * (BI_GENERATE, the TIR result bound to the out buffer, so the body's
 * reads and writes are checked against the TIR values' versions and a
 * write in place into a captured buffer is what the next element reads).
 */
void
mx_generate(MX *M, const MOp *m, BBlock *b, const Op *t)
{
	Value *out, **saved = M->gidx;
	int rank, nsaved = M->ngidx;
	Op *op = mx_syn_op(M, OP_GENERATE, m, 0);
	const MBlock *mb;
	BInst *in;

	if (m->noperands != 1 || m->nresults || m->nregions != 1 ||
	    m->regions[0].nblocks != 1)
		mx_fail(M, m, "%s at a generate: expected one out memref and "
			"one block", m->name);
	out = mx_val(M, m, 0);
	rank = out->type->rank;
	if (out->type->kind != TY_TENSOR || rank != t->type->rank)
		mx_fail(M, m, "%s at a generate of another rank", m->name);
	op->type = t->type;
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = arena_alloc(M->a, (size_t)(rank + 1) * sizeof(Value *));
	op->body->nargs = rank;
	for (int d = 0; d < rank; d++) {
		char name[32];
		Type *it = arena_alloc(M->a, sizeof *it);
		it->kind = TY_SCALAR;
		it->dt = DT_INDEX;
		fmt_snprintf(name, sizeof name, "index.%d", d);
		op->body->args[d] = mx_new_value(M, name, it);
	}
	mx_emit_bind_out(M, b, t->res[0], out, m);
	in = mx_inst(M, b, BI_GENERATE, op, t->res[0], m);
	in->top = t;
	in->body = arena_alloc(M->a, sizeof *in->body);
	mb = m->regions[0].blocks[0];
	for (int i = 0; i < mb->nargs; i++) /* the out element: unused */
		mx_sym_bind(M, mb->args[i], mx_new_value(M, mb->args[i],
				mx_type(M, m, mb->argtypes[i])));
	M->gidx = op->body->args;
	M->ngidx = rank;
	region_ops(M, mb, in->body, t->body);
	M->gidx = saved;
	M->ngidx = nsaved;
}

/* `linalg.index d` in a generate's body: the d-th index register. */
void
mx_linalg_index(MX *M, const MOp *m, BBlock *b)
{
	const MAttr *a = mop_attr(m, "dim");
	long long d = a ? strtoll(a->text, NULL, 10) : -1;

	(void)b;
	if (!M->gidx || m->nresults != 1 || d < 0 || d >= M->ngidx)
		mx_fail(M, m, "linalg.index outside a generate's body or of "
			"no dim of it");
	mx_sym_bind(M, m->results[0], M->gidx[d]);
}

/* Does the scf.if test the TIR if's own condition?  The canonicalizer
 * may rebuild an if at the old one's location on the inverted condition
 * (`%c' = cmpi le` where TIR has `%c = gt`), its regions swapped: then
 * its yields are not the TIR branches' in order. */
static bool
same_condition(MX *M, const MOp *m, const Op *t)
{
	const Sym *s = mx_sym_find(M, m->operands[0]);
	const Value *c = t->nargs ? t->args[0].v : NULL;

	if (!s || !c)
		return false;
	if (!c->def)
		return !s->defm;
	return s->defm && mx_tir_of(M, s->defm) == c->def;
}

void
mx_if(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	Op *op = mx_syn_op(M, OP_IF, m, 1);
	BInst *in;
	bool direct;

	if (m->noperands != 1)
		mx_unsupported(M, m);
	op->args[0] = mx_opnd(mx_val(M, m, 0));
	if (t && t->kind != OP_IF)
		t = NULL;
	direct = t && same_condition(M, m, t);
	in = mx_inst(M, b, BI_IF, op, NULL, m);
	in->body = region_block(M, m, 0, NULL, 0, direct ? t->body : NULL);
	in->orelse = region_block(M, m, 1, NULL, 0, direct ? t->orelse : NULL);
	op->res = mx_results(M, m);
	op->nres = m->nresults;
	if (direct) {
		result_versions(M, m, b, t, op->res, op->nres);
		return;
	}
	/* a rebuilt if (often after an arith.select of the old yields'
	 * buffers, taken before the branch computed into one of them): its
	 * results' registers carry no TIR branch's version, so the TIR
	 * results expect what their buffers hold */
	for (int k = 0; t && k < op->nres && k < t->nres; k++)
		mx_emit_ver(M, b, t->res[k], NULL, m);
}

/* Does the condition forward the before block's own arguments, in order? */
static bool
forwards_own(const MOp *cond, const MBlock *before, int nres)
{
	if (cond->noperands != nres + 1 || before->nargs != nres)
		return false;
	for (int k = 0; k < nres; k++)
		if (strcmp(cond->operands[1 + k], before->args[k]))
			return false;
	return true;
}

/* The before block of a while whose condition forwards other values:
 * they become the do block's arguments and, when the loop ends there,
 * its mx_results (r).  Both are set before the condition yields. */
static void
before_forwarding(MX *M, const MOp *m, BBlock *body, Value **r)
{
	const MBlock *before = m->regions[0].blocks[0];
	const MBlock *after = m->regions[1].blocks[0];
	const MOp *cond = before->ops[before->nops - 1];

	for (int i = 0; i + 1 < before->nops; i++)
		mx_one_op(M, before->ops[i], body);
	for (int k = 0; k < after->nargs; k++) {
		Value *fwd = mx_val(M, cond, 1 + k);
		Value *a = mx_new_value(M, after->args[k],
					mx_type(M, m, after->argtypes[k]));
		mx_inst(M, body, BI_ALIAS, mx_syn_op(M, OP_CLONE, cond, 0), a,
			cond)->src = fwd;
		mx_inst(M, body, BI_ALIAS, mx_syn_op(M, OP_CLONE, cond, 0), r[k],
			cond)->src = fwd;
		mx_sym_bind(M, after->args[k], a);
	}
	mx_condition(M, cond, body);
}

/* scf.while: TIR's while when the condition forwards its own arguments
 * (the do block's are the same registers); otherwise the loop carries
 * the before block's arguments in registers of its own and the
 * condition's values reach the do block and the results by alias. */
void
mx_while(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	int n = m->noperands;
	Op *op = mx_syn_op(M, OP_WHILE, m, n);
	const MBlock *before, *after;
	const MOp *cond;
	BInst *in;
	Value **init = arena_alloc(M->a, (size_t)(n + 1) * sizeof *init), **r;
	bool own;

	if (m->nregions != 2 || m->regions[0].nblocks != 1 ||
	    m->regions[1].nblocks != 1)
		mx_unsupported(M, m);
	before = m->regions[0].blocks[0];
	after = m->regions[1].blocks[0];
	cond = before->nops ? before->ops[before->nops - 1] : NULL;
	if (!cond || strcmp(cond->name, "scf.condition") ||
	    cond->noperands != m->nresults + 1 ||
	    after->nargs != m->nresults || before->nargs != n)
		mx_fail(M, m, "scf.while: its condition, do block and results "
			"do not match");
	own = forwards_own(cond, before, m->nresults);
	if (t && t->kind != OP_WHILE)
		t = NULL;
	for (int i = 0; i < n; i++) {
		op->args[i] = mx_opnd(mx_val(M, m, i));
		init[i] = op->args[i].v;
	}
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = n;
	r = mx_results(M, m);
	op->res = own ? r : block_values(M, m, 0, 0); /* the carried state */
	op->nres = n;
	results_from(M, m, b, op->res, init, n);
	for (int k = 0; t && k < n && k < t->nres; k++)
		mx_emit_ver(M, b, op->res[k], t->args[k].v, m);
	in = mx_inst(M, b, BI_WHILE, op, NULL, m);
	in->body = arena_alloc(M->a, sizeof *in->body);
	for (int k = 0; t && k < n && k < t->nres; k++)
		mx_emit_ver(M, in->body, t->body->args[k], op->body->args[k], m);
	for (int i = 0; i < n; i++) {
		mx_sym_bind(M, before->args[i], op->body->args[i]);
	}
	in->orelse = arena_alloc(M->a, sizeof *in->orelse);
	if (own) {
		region_ops(M, before, in->body, t ? t->body : NULL);
		for (int i = 0; i < n; i++) /* the do block's are the same */
			mx_sym_bind(M, after->args[i], op->body->args[i]);
	} else {
		const Op *saved = M->term;
		M->term = NULL; /* its condition forwards other values */
		before_forwarding(M, m, in->body, r);
		M->term = saved;
	}
	region_ops(M, after, in->orelse, t ? t->orelse : NULL);
	result_versions(M, m, b, t, r, m->nresults);
}

void
mx_condition(MX *M, const MOp *m, BBlock *b)
{
	Value **v = arena_alloc(M->a, sizeof *v);
	BInst *in;

	v[0] = mx_val(M, m, 0);
	in = mx_inst(M, b, BI_YIELD, mx_syn_op(M, OP_CONDITION, m, 0), NULL, m);
	in->vals = v;
	in->nvals = 1;
}

/* mlir-opt-16's scf.foreach_thread (scf.forall's old name): trips 0 to
 * its one num_threads operand, step 1; no shared outs left on memrefs
 * (operand_segment_sizes [1, 0]) and no results. */
static void
foreach_thread_bounds(MX *M, const MOp *m, Op *op)
{
	int64_t seg[2];

	if (m->nresults || mx_segments(M, m, seg, 2) != 2 || seg[0] != 1 ||
	    seg[1])
		mx_fail(M, m, "scf.foreach_thread: only a 1-D foreach_thread "
			"without shared outs or results is executed");
	op->args[0] = mx_lit(0);
	op->args[1] = mx_opnd(mx_val(M, m, 0));
	op->args[2] = mx_lit(1);
}

/* scf.forall on memrefs (no shared outs left): its trips interleaved
 * under the schedule, as TIR's forall (exec.c's run_forall).  Also
 * mlir-opt-16's scf.foreach_thread. */
void
mx_forall(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	int64_t lb[2], ub[2], st[2];
	Op *op = mx_syn_op(M, OP_FORALL, m, 3);
	BInst *in;
	int k = 0;

	if (!strcmp(m->name, "scf.foreach_thread")) {
		foreach_thread_bounds(M, m, op);
	} else {
		if (m->nresults ||
		    mx_ints(M, m, "staticLowerBound", lb, 2) != 1 ||
		    mx_ints(M, m, "staticUpperBound", ub, 2) != 1 ||
		    mx_ints(M, m, "staticStep", st, 2) != 1)
			mx_fail(M, m, "scf.forall: only a 1-D forall without "
				"results is executed");
		op->args[0] = lb[0] == DYN ? mx_opnd(mx_val(M, m, k++))
					   : mx_lit(lb[0]);
		op->args[1] = ub[0] == DYN ? mx_opnd(mx_val(M, m, k++))
					   : mx_lit(ub[0]);
		op->args[2] = st[0] == DYN ? mx_opnd(mx_val(M, m, k++))
					   : mx_lit(st[0]);
		if (op->args[2].v || op->args[2].i != 1)
			mx_fail(M, m, "scf.forall: only step 1 is executed");
	}
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = 1;
	if (t && t->kind != OP_FORALL)
		t = NULL;
	in = mx_inst(M, b, BI_FORALL, op, NULL, m);
	in->body = arena_alloc(M->a, sizeof *in->body);
	/* a read of a shared arg expects the init's version; another trip's
	 * insert into the part it reads is then stale */
	for (int j = 0; t && j < t->nres; j++)
		mx_emit_ver(M, in->body, t->body->args[1 + j], t->args[2 + j].v, m);
	{
		const MBlock *mb = m->regions[0].blocks[0];
		mx_sym_bind(M, mb->args[0], op->body->args[0]);
		region_ops(M, mb, in->body, NULL);
	}
	for (int j = 0; t && j < t->nres; j++) /* its slices' versions */
		mx_emit_ver(M, b, t->res[j], NULL, m);
}

/* async.execute: a launch on its stream (bufdiff.stream, else 0).  Its
 * token and each !async.value stand for the future; an await of value k
 * takes the launch's result k. */
void
mx_async(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[2] = {0, 0}, stream = 0;
	Op *op = mx_syn_op(M, OP_ASYNC, m, 0);
	Value *f;
	BInst *in;
	Sym *s;

	if (mx_segments(M, m, seg, 2) >= 0 && (seg[0] || seg[1]))
		mx_fail(M, m, "async.execute with dependencies or operands is "
			"not executed");
	if (m->nresults < 1 || m->nregions != 1)
		mx_unsupported(M, m);
	mattr_int(mop_attr(m, "bufdiff.stream"), &stream);
	op->stream = (int)stream;
	op->nrtypes = m->nresults - 1;
	f = mx_res(M, m, 0);
	in = mx_inst(M, b, BI_LAUNCH, op, f, m);
	in->top = mx_tir_of(M, m);
	in->body = region_block(M, m, 0, NULL, 0, NULL);
	for (int k = 1; k < m->nresults; k++) {
		s = mx_def(M, m->results[k], f->type);
		s->futk = k - 1;
		s->fut = f;
	}
}

void
mx_await(MX *M, const MOp *m, BBlock *b)
{
	Sym *s = m->noperands == 1 ? mx_sym_find(M, m->operands[0]) : NULL;
	Op *op = mx_syn_op(M, OP_AWAIT, m, 1);
	BInst *in;

	if (!s || s->v->type->kind != TY_FUTURE || m->nresults > 1)
		mx_unsupported(M, m);
	op->args[0] = mx_opnd(s->fut ? s->fut : s->v);
	op->res = mx_results(M, m);
	op->nres = m->nresults;
	in = mx_inst(M, b, BI_AWAIT, op, NULL, m);
	in->meta_dim = s->futk; /* which of the launch's results */
	result_versions(M, m, b, mx_tir_of(M, m), op->res, op->nres);
}

/* Is operand i's memref passed at another position of the call too? */
static bool
passed_twice(MX *M, const MOp *m, int i)
{
	for (int j = 0; j < m->noperands; j++)
		if (j != i && !strcmp(m->operands[j], m->operands[i]))
			return mx_val(M, m, i)->type->kind == TY_TENSOR;
	return false;
}

/* A register of its own for one argument of a call: each parameter
 * expects the version of its own TIR argument.  MLIR passes one buffer
 * for two arguments when one is dead in the callee (`call @g(%v, %p)`
 * after %v was computed in %p's buffer, and @g never reads its second
 * parameter); one register would make both parameters expect the last
 * argument's version, and the live one's read would look stale. */
static Value *
call_alias(MX *M, const MOp *m, BBlock *b, Value *src, int i)
{
	char name[160];
	Value *r;
	BInst *in;

	fmt_snprintf(name, sizeof name, "%s.arg%d", src->name, i);
	r = mx_new_value(M, name, src->type);
	in = mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), r, m);
	in->src = src;
	return r;
}

void
mx_call(MX *M, const MOp *m, BBlock *b)
{
	const MAttr *a = mop_attr(m, "callee");
	const Op *t = mx_tir_of(M, m);
	const MFn *fn;
	Op *op;
	BInst *in;
	Value **v;

	if (!a || a->text[0] != '@' || !(fn = mx_fn_find(M, a->text + 1)))
		mx_fail(M, m, "func.call of a function with no body");
	if (t && t->kind != OP_CALL)
		t = NULL;
	op = mx_syn_op(M, OP_CALL, m, m->noperands);
	v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	for (int i = 0; i < m->noperands; i++) {
		v[i] = mx_val(M, m, i);
		if (t && i < t->nargs && passed_twice(M, m, i))
			v[i] = call_alias(M, m, b, v[i], i);
		op->args[i] = mx_opnd(v[i]);
		if (t && i < t->nargs)
			mx_emit_ver(M, b, v[i], t->args[i].v, m);
	}
	if (m->noperands != fn->f->nparams)
		mx_fail(M, m, "func.call: %d arguments for %d parameters",
			m->noperands, fn->f->nparams);
	op->callee = fn->name;
	op->fn = fn->f;
	op->res = mx_results(M, m);
	op->nres = m->nresults;
	in = mx_inst(M, b, BI_CALL, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	result_versions(M, m, b, t, op->res, op->nres);
}

void
mx_assert(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	Op *op = mx_syn_op(M, OP_ASSERT, m, 1);
	BInst *in;

	if (m->noperands != 1)
		mx_unsupported(M, m);
	op->args[0] = mx_opnd(mx_val(M, m, 0));
	op->msg = mattr_str(mop_attr(m, "msg"), M->a);
	in = mx_inst(M, b, BI_ASSERT, op, NULL, m);
	if (t && t->kind == OP_ASSERT)
		in->top = t;
}

/* ---- a function body's blocks: cf.br, cf.cond_br */

/* v's register for one edge: a copy that survives the edge's other
 * assignments (a back edge passing a block's arguments in another
 * order). */
static Value *
edge_temp(MX *M, const MOp *m, BBlock *e, Value *v, bool version)
{
	char name[160];
	Value *t;

	fmt_snprintf(name, sizeof name, "%s.edge", v->name);
	t = mx_new_value(M, name, v->type);
	if (version)
		mx_emit_ver(M, e, t, v, m);
	else
		mx_inst(M, e, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), t, m)->src = v;
	return t;
}

static bool
among(const Value *v, Value *const *args, int n)
{
	for (int j = 0; v && j < n; j++)
		if (args[j] == v)
			return true;
	return false;
}

/* Edge k of branch op (the memref program's) into e: the successor's
 * arguments take the values passed (all at once, as MLIR's block
 * arguments do); when the branch is a TIR branch's (t), the TIR
 * successor's arguments expect the versions of what it passes: the
 * memref branch passes them first, and ownership flags after. */
static void
edge_code(MX *M, const MOp *m, BBlock *e, const Op *op, int k, const Op *t)
{
	const Block *to = op->succ[k];
	const Operand *a = succ_args(op, k);
	int n = op->nsarg[k];
	Value **src = arena_alloc(M->a, (size_t)(n + 1) * sizeof *src);
	bool clash = false;

	for (int i = 0; i < n; i++)
		clash |= among(a[i].v, to->args, to->nargs);
	for (int i = 0; i < n; i++)
		src[i] = clash ? edge_temp(M, m, e, a[i].v, false) : a[i].v;
	for (int i = 0; i < n; i++)
		mx_inst(M, e, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0),
			to->args[i], m)->src = src[i];
	if (!t || k >= t->nsucc || !t->succ[k] || t->nsarg[k] > n)
		return;
	const Block *tb = t->succ[k];
	const Operand *ta = succ_args(t, k);
	clash = false;
	for (int i = 0; i < t->nsarg[k]; i++)
		clash |= among(ta[i].v, tb->args, tb->nargs);
	for (int i = 0; i < t->nsarg[k]; i++)
		src[i] = clash && ta[i].v ? edge_temp(M, m, e, ta[i].v, true)
					  : ta[i].v;
	for (int i = 0; i < t->nsarg[k]; i++)
		mx_emit_ver(M, e, tb->args[i], src[i], m);
}

/* cf.br ^bb(%x) and cf.cond_br %c, ^a(%x), ^b(%y) between the blocks of
 * the function body being read: a BI_BR whose edges' code assigns the
 * successor's arguments, then control goes to its block. */
void
mx_branch(MX *M, const MOp *m, BBlock *b)
{
	bool cond = !strcmp(m->name, "cf.cond_br");
	int nsucc = cond ? 2 : 1, from[2] = {0, 0}, cnt[2] = {m->noperands, 0};
	const Op *t = mx_tir_of(M, m);
	Op *op;
	BInst *in;

	if (!M->cfg || !M->cur || m->parent != M->cur->m)
		mx_fail(M, m, "%s inside a region is not executed", m->name);
	if (m->nsuccs != nsucc)
		mx_fail(M, m, "%s with %d successors", m->name, m->nsuccs);
	if (cond) {
		int64_t seg[3];
		if (mx_segments(M, m, seg, 3) != 3 || seg[0] != 1 ||
		    1 + seg[1] + seg[2] != m->noperands)
			mx_fail(M, m, "cf.cond_br: operand segments that do "
				"not match its successors");
		from[0] = 1;
		cnt[0] = (int)seg[1];
		from[1] = 1 + (int)seg[1];
		cnt[1] = (int)seg[2];
	}
	if (t && t->kind != (cond ? OP_COND_BR : OP_BR))
		t = NULL;
	op = mx_syn_op(M, cond ? OP_COND_BR : OP_BR, m, m->noperands);
	for (int i = 0; i < m->noperands; i++)
		op->args[i] = mx_opnd(mx_val(M, m, i));
	op->nsucc = nsucc;
	op->parent = (Block *)b->blk; /* reports name the edge ^b <- ^a */
	in = mx_inst(M, b, BI_BR, op, NULL, m);
	in->src = cond ? op->args[0].v : NULL;
	in->top = t;
	for (int k = 0; k < nsucc; k++) {
		int s = mregion_block(M->cfg, m->succs[k]);
		BBlock *e = arena_alloc(M->a, sizeof *e);
		if (s <= 0)
			mx_fail(M, m, "%s to %s, not a block of the function "
				"after its entry", m->name, m->succs[k]);
		if (M->cfgblk[s]->nargs != cnt[k])
			mx_fail(M, m, "%s passes %d values to %s, which takes %d",
				m->name, cnt[k], m->succs[k],
				M->cfgblk[s]->nargs);
		op->succ[k] = M->cfgblk[s];
		op->sarg[k] = from[k];
		op->nsarg[k] = cnt[k];
		in->to[k] = M->cfgbb[s];
		edge_code(M, m, e, op, k, t);
		if (k)
			in->orelse = e;
		else
			in->body = e;
	}
}

/* A body of several blocks into bf: a buffer block per block (blocks[0]
 * is the body, with the parameters' versions already), each read in
 * reverse postorder so that values are defined before their uses; a
 * block the entry cannot reach stays empty (it never runs). */
void
mx_cfg_body(MX *M, const MFn *fn, BFunc *bf)
{
	const MRegion *r = &fn->m->regions[0];
	int n = r->nblocks, *order = arena_alloc(M->a, sizeof(int) * (size_t)n);
	const MOp *bad;
	int nr = mregion_rpo(r, M->a, order, &bad);

	if (nr < 0)
		mx_fail(M, bad, "%s to a block that is not in the function",
			bad ? bad->name : "a branch");
	M->cfg = r;
	M->cfgbb = arena_alloc(M->a, sizeof *M->cfgbb * (size_t)n);
	M->cfgblk = arena_alloc(M->a, sizeof *M->cfgblk * (size_t)n);
	for (int k = 0; k < n; k++) {
		const MBlock *mb = r->blocks[k];
		Block *blk = arena_alloc(M->a, sizeof *blk);
		blk->label = mb->label ? mb->label + 1 : "bb0";
		blk->bindex = k;
		blk->func = fn->f;
		if (k) {
			blk->nargs = mb->nargs;
			blk->args = arena_alloc(M->a, sizeof *blk->args *
						(size_t)(mb->nargs + 1));
			for (int i = 0; i < mb->nargs; i++)
				blk->args[i] = mx_new_value(M, mb->args[i],
					mx_type(M, fn->m, mb->argtypes[i]));
		} else {
			blk->args = fn->f->params;
			blk->nargs = fn->f->nparams;
		}
		M->cfgblk[k] = blk;
		M->cfgbb[k] = k ? arena_alloc(M->a, sizeof *M->cfgbb[k]) : bf->body;
		M->cfgbb[k]->blk = blk;
	}
	for (int j = 0; j < nr; j++) {
		const MBlock *mb = r->blocks[order[j]];
		BBlock *b = M->cfgbb[order[j]];
		for (int i = 0; order[j] && i < mb->nargs; i++)
			mx_sym_bind(M, mb->args[i], M->cfgblk[order[j]]->args[i]);
		mx_block_ops(M, mb, b);
		if (!b->n || (b->insts[b->n - 1]->kind != BI_RETURN &&
			      b->insts[b->n - 1]->kind != BI_BR))
			mx_fail(M, mb->nops ? mb->ops[mb->nops - 1] : fn->m,
				"func.func @%s: block %s does not end with "
				"cf.br, cf.cond_br or func.return", fn->name,
				mb->label ? mb->label : "^bb0");
	}
	bf->blocks = M->cfgbb;
	bf->nblocks = n;
	M->cfg = NULL;
	M->cfgbb = NULL;
	M->cfgblk = NULL;
}
