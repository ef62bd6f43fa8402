/*
 * memref_ops.c: the memref program's straight-line ops as buffer program
 * instructions: constants, arith, alloc/dealloc, views, copies, loads and
 * stores, and the linalg ops that run a TIR op's kernel.
 */
#include <stdio.h>
#include <stdlib.h>

#include "memref_impl.h"

void
mx_constant(MX *M, const MOp *m, BBlock *b)
{
	const MAttr *a = mop_attr(m, "value");
	Op *op = mx_syn_op(M, OP_CONST, m, 0);
	Value *v;
	Sym *s;
	const char *t;

	if (m->nresults != 1 || !a)
		mx_unsupported(M, m);
	s = mx_def(M, m->results[0], mx_type(M, m, m->restypes[0]));
	v = s->v;
	if (v->type->kind != TY_SCALAR)
		mx_fail(M, m, "arith.constant of type %s (only scalars)",
			m->restypes[0]);
	t = a->text;
	op->cdata.n = 1;
	op->cdata.splat = true;
	op->cdata.f = arena_alloc(M->a, sizeof(double));
	op->cdata.i = arena_alloc(M->a, sizeof(int64_t));
	if (!strncmp(t, "true", 4) || !strncmp(t, "false", 5)) {
		op->cdata.i[0] = t[0] == 't';
	} else if (dtype_is_float(v->type->dt) && !strncmp(t, "0x", 2)) {
		/* the bits of a float that has no decimal spelling */
		uint64_t bits = strtoull(t, NULL, 16);
		if (v->type->dt == DT_F32) {
			uint32_t b32 = (uint32_t)bits;
			float f;
			memcpy(&f, &b32, sizeof f);
			op->cdata.f[0] = f;
		} else {
			memcpy(&op->cdata.f[0], &bits, sizeof(double));
		}
	} else if (dtype_is_float(v->type->dt)) {
		op->cdata.f[0] = strtod(t, NULL);
	} else {
		op->cdata.i[0] = strtoll(t, NULL, 10);
		s->isconst = true;
		s->k = op->cdata.i[0];
	}
	op->type = v->type;
	mx_inst(M, b, BI_CONST, op, v, m);
}

/* An arith/math op of ops.h's EW rows (i1only: read as an i1 logic op). */
void
mx_arith(MX *M, const MOp *m, BBlock *b, OpKind k, bool i1only)
{
	Op *op = mx_syn_op(M, k, m, m->noperands);
	Value *r;

	if (m->nresults != 1 || m->noperands < 1 || m->noperands > 2)
		mx_unsupported(M, m);
	for (int j = 0; j < m->noperands; j++)
		op->args[j] = mx_opnd(mx_val(M, m, j));
	if (op->args[0].v->type->kind != TY_SCALAR ||
	    (i1only && op->args[0].v->type->dt != DT_I1))
		mx_fail(M, m, "%s on %s (scalars only%s)", m->name,
			m->optypes[0], i1only ? ", of type i1" : "");
	r = mx_res(M, m, 0);
	op->type = k == OP_NE ? op->args[0].v->type : r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	mx_inst(M, b, BI_COMPUTE, op, r, m);
}

/* arith.cmpi/cmpf predicates, as numbered in MLIR's enums; cmpi's
 * unsigned ones as the signed (fake addresses are positive). */
static OpKind
cmp_kind(MX *M, const MOp *m)
{
	int64_t p;
	bool f;
	const char *name;
	OpKind k = OP_NONE;

	if (mattr_int(mop_attr(m, "predicate"), &p) < 0)
		mx_fail(M, m, "%s: no readable predicate", m->name);
	f = !(!strcmp(m->name, "arith.cmpi") && p >= 0 && p < 10);
	name = mlir_cmp_pred(f, p);
	if (name && !f && name[0] == 'u') {
		char s[4] = {'s', name[1], name[2], 0};
		k = ew_of_pred(s, 3, false);
	} else if (name) {
		k = ew_of_pred(name, strlen(name), f);
	}
	if (k == OP_NONE)
		mx_fail(M, m, "%s: predicate %lld is not executed", m->name,
			(long long)p);
	return k;
}

void
mx_cmp(MX *M, const MOp *m, BBlock *b)
{
	Op *op = mx_syn_op(M, cmp_kind(M, m), m, 2);
	Value *r;

	if (m->noperands != 2 || m->nresults != 1)
		mx_unsupported(M, m);
	op->args[0] = mx_opnd(mx_val(M, m, 0));
	op->args[1] = mx_opnd(mx_val(M, m, 1));
	if (op->args[0].v->type->kind != TY_SCALAR)
		mx_fail(M, m, "%s on %s (scalars only)", m->name, m->optypes[0]);
	op->type = op->args[0].v->type;
	r = mx_res(M, m, 0);
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	mx_inst(M, b, BI_COMPUTE, op, r, m);
}

void
mx_select(MX *M, const MOp *m, BBlock *b)
{
	BInst *in;
	Value **v = arena_alloc(M->a, 3 * sizeof *v);

	if (m->noperands != 3 || m->nresults != 1)
		mx_unsupported(M, m);
	for (int i = 0; i < 3; i++)
		v[i] = mx_val(M, m, i);
	in = mx_inst(M, b, BI_SELECT, mx_syn_op(M, OP_CONST, m, 0), mx_res(M, m, 0),
		     m);
	in->vals = v;
	in->nvals = 3;
}

/* index_cast between index and i64 (the same register) */
void
mx_alias(MX *M, const MOp *m, BBlock *b)
{
	Value *src = mx_val(M, m, 0), *r = mx_res(M, m, 0);
	BInst *in;

	if (src->type->kind != r->type->kind ||
	    (src->type->kind == TY_SCALAR && src->type->dt != r->type->dt &&
	     !((src->type->dt == DT_INDEX && r->type->dt == DT_I64) ||
	       (src->type->dt == DT_I64 && r->type->dt == DT_INDEX))))
		mx_fail(M, m, "%s from %s to %s is not executed", m->name,
			m->optypes[0], m->restypes[0]);
	in = mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), r, m);
	in->src = src;
}

void
mx_alloc(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[2] = {0, 0};
	Op *op;
	Value *v;
	BInst *in;

	if (m->nresults != 1)
		mx_unsupported(M, m);
	if (mx_segments(M, m, seg, 2) >= 0 && seg[1])
		mx_fail(M, m, "%s with symbol operands", m->name);
	op = mx_syn_op(M, OP_EMPTY, m, (int)seg[0]);
	for (int i = 0; i < seg[0]; i++)
		op->args[i] = mx_opnd(mx_val(M, m, i));
	v = mx_res(M, m, 0);
	if (v->type->kind != TY_TENSOR)
		mx_unsupported(M, m);
	op->type = v->type;
	in = mx_inst(M, b, BI_ALLOC, op, v, m);
	in->why = strcmp(m->name, "memref.alloca") ? "memref.alloc"
						   : "memref.alloca";
}

void
mx_dealloc(MX *M, const MOp *m, BBlock *b)
{
	if (m->noperands != 1)
		mx_unsupported(M, m);
	mx_inst(M, b, BI_FREE, mx_syn_op(M, OP_EMPTY, m, 0), mx_val(M, m, 0), m);
}

/* One entry of a view's offsets, sizes or strides: the static value, or
 * the next dynamic operand (*k, in operand order). */
static Operand
entry(MX *M, const MOp *m, int64_t st, int *k)
{
	if (st != DYN)
		return mx_lit(st);
	if (*k >= m->noperands)
		mx_fail(M, m, "%s: fewer operands than dynamic entries", m->name);
	return mx_opnd(mx_val(M, m, (*k)++));
}

/* The entries of static_offsets, static_sizes and static_strides (k: the
 * first dynamic operand).  Returns how many each holds. */
static int
view_entries(MX *M, const MOp *m, MView *mv, int *k)
{
	int64_t off[MAXRANK], size[MAXRANK], stride[MAXRANK];
	int n = mx_ints(M, m, "static_offsets", off, MAXRANK);
	int ns = mx_ints(M, m, "static_sizes", size, MAXRANK);

	if (mx_ints(M, m, "static_strides", stride, MAXRANK) != ns)
		mx_fail(M, m, "%s: sizes and strides disagree in number", m->name);
	for (int d = 0; d < n; d++)
		mv->off[d] = entry(M, m, off[d], k);
	for (int d = 0; d < ns; d++)
		mv->size[d] = entry(M, m, size[d], k);
	for (int d = 0; d < ns; d++)
		mv->stride[d] = entry(M, m, stride[d], k);
	if (*k != m->noperands)
		mx_fail(M, m, "%s: more operands than dynamic entries", m->name);
	mv->rank = ns;
	return n;
}

/* Which unit dims a rank-reducing subview drops: the static 1s the
 * result's dims do not match, in order (a unit dim kept or dropped
 * addresses the same elements). */
static uint32_t
drop_mask(MX *M, const MOp *m, const MView *mv, const Type *res)
{
	int need = mv->rank - res->rank, r = 0;
	uint32_t drop = 0;

	for (int d = 0; d < mv->rank; d++) {
		bool unit = !mv->size[d].v && mv->size[d].i == 1, later = false;
		for (int e = d + 1; e < mv->rank; e++)
			later |= !mv->size[e].v && mv->size[e].i == 1;
		if (need > 0 && unit && (r >= res->rank || res->dims[r] != 1 ||
					 !later)) {
			drop |= 1u << d;
			need--;
		} else {
			r++;
		}
	}
	if (need || r != res->rank)
		mx_fail(M, m, "memref.subview from %s to %s: no unit dims to "
			"drop", m->optypes[0], m->restypes[0]);
	return drop;
}

/* A subview the executor computes at run time: dynamic sizes or strides,
 * dropped unit dims. */
static void
subview_dynamic(MX *M, const MOp *m, BBlock *b, Value *src, Value *v)
{
	MView *mv = arena_alloc(M->a, sizeof *mv);
	int k = 1;
	BInst *in;

	mv->kind = MV_SUBVIEW;
	if (view_entries(M, m, mv, &k) != mv->rank || mv->rank != src->type->rank)
		mx_fail(M, m, "memref.subview: offsets, sizes and strides do "
			"not match the source's rank");
	if (v->type->rank > mv->rank)
		mx_fail(M, m, "memref.subview from %s to %s adds dims",
			m->optypes[0], m->restypes[0]);
	mv->drop = v->type->rank < mv->rank ? drop_mask(M, m, mv, v->type) : 0;
	in = mx_inst(M, b, BI_VIEW, mx_syn_op(M, OP_EXTRACT_SLICE, m, 0), v, m);
	in->src = src;
	in->mv = mv;
}

static bool
all_static(const int64_t *a, int n)
{
	for (int d = 0; d < n; d++)
		if (a[d] == DYN)
			return false;
	return true;
}

void
mx_subview(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[4], off[MAXRANK], size[MAXRANK], stride[MAXRANK];
	Value *src = mx_val(M, m, 0), *v;
	const Op *t;
	Op *op;
	Sym *s;
	int k, n;

	if (mx_segments(M, m, seg, 4) != 4 || m->nresults != 1)
		mx_unsupported(M, m);
	n = mx_ints(M, m, "static_offsets", off, MAXRANK);
	if (mx_ints(M, m, "static_sizes", size, MAXRANK) != n ||
	    mx_ints(M, m, "static_strides", stride, MAXRANK) != n ||
	    n != src->type->rank)
		mx_fail(M, m, "memref.subview: offsets, sizes and strides do "
			"not match the source's rank");
	s = mx_def(M, m->results[0], mx_type(M, m, m->restypes[0]));
	v = s->v;
	if (v->type->rank != n || !all_static(size, n) || !all_static(stride, n)) {
		/* not an extract_slice's shape: no insert_slice copies into it */
		subview_dynamic(M, m, b, src, v);
		return;
	}
	op = mx_syn_op(M, OP_EXTRACT_SLICE, m, 1);
	op->args[0] = mx_opnd(src);
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	op->sizes = arena_alloc(M->a, 2 * MAXRANK * sizeof *op->sizes);
	op->strides = op->sizes + MAXRANK;
	k = 1;
	for (int d = 0; d < n; d++) {
		if (off[d] == DYN)
			op->offs[d] = mx_opnd(mx_val(M, m, k++));
		else
			op->offs[d] = mx_lit(off[d]);
		op->sizes[d] = size[d];
		op->strides[d] = stride[d];
	}
	op->type = v->type;
	mx_inst(M, b, BI_VIEW, op, v, m)->src = src;
	/* the TIR slice's reads expect what its source holds now (a source
	 * whose version changes at run time: a block argument, an iter
	 * arg) */
	if ((t = mx_tir_of(M, m)) && t->kind == OP_EXTRACT_SLICE && t->nres)
		mx_emit_ver(M, b, t->res[0], t->args[0].v, m);
	s = mx_sym_find(M, m->results[0]);
	s->view = op;
	s->viewm = m;
	s->viewsrc = src;
}

/* memref.reinterpret_cast: a view at an offset of the source's allocation
 * (not of its view), checked against the allocation when it runs. */
void
mx_reinterpret(MX *M, const MOp *m, BBlock *b)
{
	MView *mv = arena_alloc(M->a, sizeof *mv);
	Value *src, *v;
	BInst *in;
	int k = 1;

	if (m->noperands < 1 || m->nresults != 1)
		mx_unsupported(M, m);
	src = mx_val(M, m, 0);
	v = mx_res(M, m, 0);
	mv->kind = MV_REINTERPRET;
	if (view_entries(M, m, mv, &k) != 1 || mv->rank != v->type->rank ||
	    src->type->kind != TY_TENSOR || src->type->dt != v->type->dt)
		mx_fail(M, m, "memref.reinterpret_cast from %s to %s: one offset, "
			"and sizes and strides of the result's rank",
			m->optypes[0], m->restypes[0]);
	in = mx_inst(M, b, BI_VIEW, mx_syn_op(M, OP_EXTRACT_SLICE, m, 0), v, m);
	in->src = src;
	in->mv = mv;
}

void
mx_reshape(MX *M, const MOp *m, BBlock *b)
{
	Value *src = mx_val(M, m, 0), *v = mx_res(M, m, 0);
	Op *op = mx_syn_op(M, strcmp(m->name, "memref.collapse_shape") ?
			OP_EXPAND_SHAPE : OP_COLLAPSE_SHAPE, m, 1);

	if (!type_is_static(v->type))
		mx_fail(M, m, "%s to %s: dynamic result dims are not executed",
			m->name, m->restypes[0]);
	op->args[0] = mx_opnd(src);
	op->type = v->type;
	mx_inst(M, b, BI_VIEW, op, v, m)->src = src;
}

/* A cast to a static dim the source's type leaves dynamic: the sizes must
 * agree when it runs (MLIR leaves a disagreement undefined). */
static bool
cast_checks(const Type *src, const Type *res)
{
	for (int d = 0; d < res->rank; d++)
		if (res->dims[d] != DIM_DYN && src->dims[d] == DIM_DYN)
			return true;
	return false;
}

void
mx_cast(MX *M, const MOp *m, BBlock *b)
{
	Value *src, *v;

	if (m->noperands != 1 || m->nresults != 1)
		mx_unsupported(M, m);
	src = mx_val(M, m, 0);
	v = mx_res(M, m, 0);
	if (src->type->rank != v->type->rank || src->type->dt != v->type->dt)
		mx_fail(M, m, "%s from %s to %s changes rank or type", m->name,
			m->optypes[0], m->restypes[0]);
	if (cast_checks(src->type, v->type)) {
		BInst *in = mx_inst(M, b, BI_VIEW, mx_syn_op(M, OP_CLONE, m, 0), v, m);
		in->src = src;
		in->mv = arena_alloc(M->a, sizeof *in->mv);
		((MView *)in->mv)->kind = MV_CAST;
		return;
	}
	mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), v, m)->src = src;
}

static void
mx_meta(MX *M, const MOp *m, BBlock *b, MetaKind k, int dim)
{
	BInst *in = mx_inst(M, b, BI_META, mx_syn_op(M, OP_CONST, m, 0), NULL, m);

	in->src = mx_val(M, m, 0);
	in->meta = k;
	in->meta_dim = dim;
}

void
mx_strided_metadata(MX *M, const MOp *m, BBlock *b)
{
	int r = mx_val(M, m, 0)->type->rank;

	if (m->nresults != 2 + 2 * r)
		mx_unsupported(M, m);
	for (int j = 0; j < m->nresults; j++) {
		MetaKind k = j == 0 ? META_BASE : j == 1 ? META_OFFSET
				     : j < 2 + r ? META_SIZE : META_STRIDE;
		int d = j < 2 ? 0 : j < 2 + r ? j - 2 : j - 2 - r;
		mx_meta(M, m, b, k, d);
		b->insts[b->n - 1]->v = mx_res(M, m, j);
	}
}

void
mx_dim(MX *M, const MOp *m, BBlock *b)
{
	Sym *k = m->noperands == 2 ? mx_sym_find(M, m->operands[1]) : NULL;

	if (!k || !k->isconst)
		mx_fail(M, m, "memref.dim: only a constant dim is executed");
	mx_meta(M, m, b, META_SIZE, (int)k->k);
	b->insts[b->n - 1]->v = mx_res(M, m, 0);
}

void
mx_addr(MX *M, const MOp *m, BBlock *b)
{
	mx_meta(M, m, b, META_ADDR, 0);
	b->insts[b->n - 1]->v = mx_res(M, m, 0);
}

/* The version each result of a TIR op that only passes its source on
 * holds (a view, a reshape, a copy materialized, a clone): the source's. */
static void
same_version(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);

	if (!t || !t->nres || !t->nargs)
		return;
	switch (t->kind) {
	case OP_EXTRACT_SLICE:
	case OP_COLLAPSE_SHAPE:
	case OP_EXPAND_SHAPE:
	case OP_COPY:
	case OP_CLONE:
		mx_emit_ver(M, b, t->res[0], t->args[0].v, m);
		break;
	default:
		break;
	}
}

void
mx_copy(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	Value *src, *dst;
	Sym *ds;

	if (m->noperands != 2)
		mx_unsupported(M, m);
	src = mx_val(M, m, 0);
	dst = mx_val(M, m, 1);
	ds = mx_sym_find(M, m->operands[1]);
	if (t && t->kind == OP_INSERT_SLICE && ds->view &&
	    mx_tir_of(M, ds->viewm) == t) {
		/* the insert itself: the source into the slice of the
		 * destination, which then holds the insert's result */
		Op *op = mx_syn_op(M, OP_INSERT_SLICE, m, 1);
		Value *r = t->res[0], *s = t->args[0].v;
		BInst *in;
		*op = *ds->view;
		op->kind = OP_INSERT_SLICE;
		op->loc = t->loc;
		op->nargs = 1;
		op->args = arena_alloc(M->a, sizeof *op->args);
		op->args[0] = mx_opnd(s);
		op->dest = mx_opnd(r);
		op->hasdest = true;
		op->res = arena_alloc(M->a, sizeof *op->res);
		op->res[0] = r;
		op->nres = 1;
		op->type = r->type;
		mx_emit_bind(M, b, s, src, m);
		mx_emit_bind_out(M, b, r, (Value *)ds->viewsrc, m);
		mx_emit_ver(M, b, r, t->dest.v, m);
		in = mx_inst(M, b, BI_COMPUTE, op, NULL, m);
		in->top = t;
		return;
	}
	BInst *in = mx_inst(M, b, BI_COPY, mx_syn_op(M, OP_COPY, m, 0), dst, m);
	in->src = src;
	in->carry = true;
	in->why = "memref.copy";
	same_version(M, m, b);
}

void
mx_clone(MX *M, const MOp *m, BBlock *b)
{
	Value *src = mx_val(M, m, 0), *v = mx_res(M, m, 0);
	BInst *in = mx_inst(M, b, BI_ALLOC, mx_syn_op(M, OP_CLONE, m, 0), v, m);

	in->src = src;
	in->why = "bufferization.clone";
	in = mx_inst(M, b, BI_COPY, mx_syn_op(M, OP_COPY, m, 0), v, m);
	in->src = src;
	in->carry = true;
	in->why = "bufferization.clone";
	same_version(M, m, b);
}

/* bufferization.dealloc left unlowered: memrefs, their conditions, the
 * retained memrefs (operandSegmentSizes); one i1 result per retained. */
void
mx_bdealloc(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[3];
	Op *op = mx_syn_op(M, OP_EMPTY, m, 0);
	BInst *in;
	Value **v;

	if (mx_segments(M, m, seg, 3) != 3 || seg[0] != seg[1] || seg[0] < 0 ||
	    seg[2] < 0 || seg[0] + seg[1] + seg[2] != m->noperands ||
	    m->nresults != seg[2])
		mx_fail(M, m, "bufferization.dealloc: memrefs, conditions, "
			"retained memrefs and results do not match");
	v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	for (int i = 0; i < m->noperands; i++) {
		v[i] = mx_val(M, m, i);
		if ((v[i]->type->kind == TY_TENSOR) != (i < seg[0] ||
							 i >= 2 * seg[0]) ||
		    (i >= seg[0] && i < 2 * seg[0] && v[i]->type->dt != DT_I1))
			mx_fail(M, m, "bufferization.dealloc: operand %d has type %s",
				i, m->optypes[i]);
	}
	op->res = mx_results(M, m);
	op->nres = m->nresults;
	in = mx_inst(M, b, BI_DEALLOC, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	in->nmem = (int)seg[0];
}

void
mx_load(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	Value *mem = mx_val(M, m, 0), *r;
	Op *op = mx_syn_op(M, OP_EXTRACT, m, 1);
	int n = m->noperands - 1;
	BInst *in;

	if (n != mem->type->rank || m->nresults != 1)
		mx_unsupported(M, m);
	if (t && t->kind == OP_EXTRACT) {
		mx_emit_bind(M, b, t->args[0].v, mem, m);
		mem = t->args[0].v; /* the read expects the tensor's version */
	}
	op->args[0] = mx_opnd(mem);
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	for (int d = 0; d < n; d++)
		op->offs[d] = mx_opnd(mx_val(M, m, 1 + d));
	r = mx_res(M, m, 0);
	op->type = r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	in = mx_inst(M, b, BI_COMPUTE, op, r, m);
	if (t && t->kind == OP_EXTRACT)
		in->top = t;
}

void
mx_store(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	Value *mem = mx_val(M, m, 1), *r;
	Op *op = mx_syn_op(M, OP_INSERT, m, 1);
	int n = m->noperands - 2;
	BInst *in;
	bool mine = t && (t->kind == OP_INSERT || t->kind == OP_FROM_ELEMENTS);

	if (n != mem->type->rank)
		mx_unsupported(M, m);
	if (mine) {
		r = t->res[0];
		mx_emit_bind_out(M, b, r, mem, m);
		mx_emit_ver(M, b, r, t->kind == OP_INSERT ? t->dest.v : NULL, m);
	} else {
		r = mx_new_value(M, m->operands[1], mem->type);
		mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), r, m)->src = mem;
	}
	op->args[0] = mx_opnd(mx_val(M, m, 0));
	op->dest = mx_opnd(r);
	op->hasdest = true;
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	for (int d = 0; d < n; d++)
		op->offs[d] = mx_opnd(mx_val(M, m, 2 + d));
	op->type = r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	in = mx_inst(M, b, BI_COMPUTE, op, NULL, m);
	if (mine)
		in->top = t;
}

/* A from_elements of constants, which mlir-opt-16 folds into a
 * memref.global: a const op holding its elements (literals or scalar
 * consts), or NULL when one is computed. */
static const Op *
folded_elements(MX *M, const MOp *m, const Op *t)
{
	Op *op = mx_syn_op(M, OP_CONST, m, 0);
	ConstData *c = &op->cdata;

	c->n = t->nargs;
	c->f = arena_alloc(M->a, (size_t)(t->nargs + 1) * sizeof *c->f);
	c->i = arena_alloc(M->a, (size_t)(t->nargs + 1) * sizeof *c->i);
	for (int k = 0; k < t->nargs; k++) {
		const Operand *a = &t->args[k];
		const Op *d = a->v ? a->v->def : NULL;
		if (!a->v) {
			c->f[k] = a->isfloat ? a->f : (double)a->i;
			c->i[k] = a->isfloat ? (int64_t)a->f : a->i;
		} else if (d && d->kind == OP_CONST && d->cdata.n == 1) {
			c->f[k] = d->cdata.f ? d->cdata.f[0] : (double)d->cdata.i[0];
			c->i[k] = d->cdata.i ? d->cdata.i[0] : (int64_t)d->cdata.f[0];
		} else {
			return NULL;
		}
	}
	op->type = t->res[0]->type;
	return op;
}

void
mx_get_global(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m), *k = t;
	Value *v;

	if (t && t->kind == OP_FROM_ELEMENTS)
		k = folded_elements(M, m, t);
	if (!t || !k || k->kind != OP_CONST || !t->nres)
		mx_fail(M, m, "memref.get_global at no constant of the case");
	v = mx_res(M, m, 0);
	if (!type_equal(v->type, t->res[0]->type))
		mx_fail(M, m, "memref.get_global of type %s for a constant of "
			"another shape", m->restypes[0]);
	mx_inst(M, b, BI_CONST, k, t->res[0], m)->top = t;
	mx_inst(M, b, BI_ALIAS, mx_syn_op(M, OP_CLONE, m, 0), v, m)->src = t->res[0];
}

/* A linalg op on memrefs: the TIR op at its location, whose kernel runs
 * on the memrefs it names (ins read-checked, outs tagged). */
void
mx_linalg(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = mx_tir_of(M, m);
	const ExportOp *eo = t ? export_find(M->map, t, m->name) : NULL;
	int nin;
	BInst *in;

	if (!eo)
		mx_fail(M, m, "%s at no op of the case that exports as one",
			m->name);
	if (eo->noperands != m->noperands || eo->nresults != 1 ||
	    t->nres != 1)
		mx_fail(M, m, "%s: %d operands where the export has %d",
			m->name, m->noperands, eo->noperands);
	nin = m->noperands - 1;
	for (int i = 0; i < nin; i++)
		if (eo->operands[i])
			mx_emit_bind(M, b, eo->operands[i], mx_val(M, m, i), m);
	mx_emit_bind_out(M, b, t->res[0], mx_val(M, m, nin), m);
	if (op_info[t->kind].readsdest && t->hasdest)
		mx_emit_ver(M, b, t->res[0], t->dest.v, m);
	in = mx_inst(M, b, BI_COMPUTE, t, NULL, m);
	in->top = t;
}
