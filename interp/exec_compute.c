/*
 * exec_compute.c: a tensor op's kernel run over registers, with the
 * checks of what it reads and writes and the version it leaves.
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"

/* ---- compute: the tensor op's kernel over registers */

/* Operand o as a view shaped like out: a tensor register (read-checked),
 * or a scalar register or literal broadcast over out. */
static bool
operand_view(Exec *X, Frame *F, const BInst *in, const Operand *o, DType dt,
	     const View *out, Reg *tmp, View *v)
{
	if (o->v && o->v->type->kind == TY_TENSOR) {
		Reg *r = reg(F, o->v);
		if (!r->set || !check_read(X, in, o->v, r))
			return false;
		*v = tview(X, r);
		return true;
	}
	if (o->v) {
		*v = scalar_view(reg(F, o->v), dt);
	} else {
		lit_store(o, dt, tmp);
		*v = scalar_view(tmp, dt);
	}
	if (out) {
		v->rank = out->rank;
		for (int d = 0; d < out->rank; d++) {
			v->sizes[d] = out->sizes[d];
			v->strides[d] = 0;
		}
	}
	return true;
}

static bool
shape_ok(Exec *X, const BInst *in, const Value *victim, const View *a,
	 const View *b)
{
	if (same_sizes(a, b))
		return true;
	violate(X, VK_OUT_OF_BOUNDS, in, victim, NULL, -1, NULL, 0,
		"operand shapes differ at run time");
	return false;
}

/* Does input a share the buffer out writes, other than index by index (a
 * transpose, a reduce, or an elementwise op between shifted views)?  Then
 * the op runs one element at a time (overlap.c). */
static bool
self_overlap(Exec *X, const BInst *in, const Value *a, Frame *F,
	     const Reg *out)
{
	const Reg *r;
	int f;

	if (!a || a->type->kind != TY_TENSOR)
		return false;
	r = reg(F, a);
	if (r->buf < 0 || r->buf != out->buf || !views_overlap(&r->view, &out->view))
		return false;
	if (version_undef(X, r->ver))
		return false; /* it reads undefined elements: any value will do */
	f = op_info[in->op->kind].form;
	return (f != F_BINARY && f != F_UNARY) || r->view.off != out->view.off ||
	       memcmp(r->view.strides, out->view.strides, sizeof r->view.strides);
}

/* Only an element read after this op overwrote it is a violation. */
static void
blame_stale(Exec *X, const BInst *in, const Stale *s, const View *v,
	    const Reg *out)
{
	if (s->input >= 0)
		violate(X, VK_STALE_READ, in, in->op->args[s->input].v, in,
			out->buf, v, s->li, "reads an element it overwrote");
}

/* Elementwise (binary, cmp, unary): in the kernels' order, or one
 * element at a time when an input shares the output's buffer. */
static bool
kernel_ew(Exec *X, Frame *F, const BInst *in, Reg *out, View *vo)
{
	const Op *op = in->op;
	const OpInfo *oi = &op_info[op->kind];
	DType dt = vo->dt;
	Reg ta, tb;
	View va, vb;

	if (oi->form == F_UNARY) {
		if (!operand_view(X, F, in, &op->args[0], dt, vo, &ta, &va) ||
		    !shape_ok(X, in, op->args[0].v, &va, vo))
			return false;
		if (self_overlap(X, in, op->args[0].v, F, out)) {
			Stale st;
			serial_ew(X, oi->ew, vo, &va, NULL, &st);
			blame_stale(X, in, &st, &va, out);
		} else {
			k_unary(oi->ew, vo, &va);
		}
		return true;
	}
	if (oi->form == F_CMP)
		dt = op->type->dt;
	if (!operand_view(X, F, in, &op->args[0], dt, vo, &ta, &va) ||
	    !operand_view(X, F, in, &op->args[1], dt, vo, &tb, &vb) ||
	    !shape_ok(X, in, op->args[0].v, &va, vo) ||
	    !shape_ok(X, in, op->args[1].v, &vb, vo))
		return false;
	if (oi->form == F_CMP) {
		k_cmp(oi->ew, vo, &va, &vb);
		return true;
	}
	if (self_overlap(X, in, op->args[0].v, F, out) ||
	    self_overlap(X, in, op->args[1].v, F, out)) {
		Stale st;
		serial_ew(X, oi->ew, vo, &va, &vb, &st);
		blame_stale(X, in, &st, st.input ? &vb : &va, out);
	} else {
		k_binary(oi->ew, vo, &va, &vb);
	}
	return true;
}

static bool
kernel_matmul(Exec *X, Frame *F, const BInst *in, View *vo)
{
	const Op *op = in->op;
	Reg ta, tb;
	View va, vb;

	if (!operand_view(X, F, in, &op->args[0], vo->dt, NULL, &ta, &va) ||
	    !operand_view(X, F, in, &op->args[1], vo->dt, NULL, &tb, &vb))
		return false;
	if (va.sizes[0] != vo->sizes[0] || vb.sizes[1] != vo->sizes[1] ||
	    va.sizes[1] != vb.sizes[0]) {
		violate(X, VK_OUT_OF_BOUNDS, in, op->args[0].v, NULL, -1,
			NULL, 0, "matmul shapes differ at run time");
		return false;
	}
	if (!exec_charge(X, op, work_mul(view_numel(vo), va.sizes[1])))
		return false;
	if (k_matmul(vo, &va, &vb) < 0)
		longjmp(X->oom, 1);
	return true;
}

/* Transpose and reduce: in the kernels' order, or one element at a time
 * when the input shares the output's buffer. */
static bool
kernel_permute(Exec *X, Frame *F, const BInst *in, Reg *out, View *vo)
{
	const Op *op = in->op;
	const OpInfo *oi = &op_info[op->kind];
	Reg ta;
	View va;
	Stale st;

	if (!operand_view(X, F, in, &op->args[0], vo->dt, NULL, &ta, &va))
		return false;
	if (oi->form == F_TRANSPOSE) {
		for (int d = 0; d < vo->rank; d++)
			if (vo->sizes[d] != va.sizes[op->perm[d]])
				return shape_ok(X, in, op->args[0].v, &va, vo);
		if (!self_overlap(X, in, op->args[0].v, F, out)) {
			k_transpose(vo, &va, op->perm);
			return true;
		}
		serial_transpose(X, vo, &va, op->perm, &st);
	} else {
		if (!exec_charge(X, op, view_numel(&va)))
			return false;
		if (!self_overlap(X, in, op->args[0].v, F, out)) {
			k_reduce(oi->ew, vo, &va, op->perm, op->nperm);
			return true;
		}
		serial_reduce(X, oi->ew, vo, &va, op->perm, op->nperm, &st);
	}
	blame_stale(X, in, &st, &va, out);
	return true;
}

/* extract_slice/extract, insert_slice/insert: a checked slice copied out
 * of the source or into the destination. */
static bool
kernel_slice(Exec *X, Frame *F, const BInst *in, Reg *out, View *vo)
{
	const Op *op = in->op;
	int form = op_info[op->kind].form;
	bool elem = form == F_EXTRACT || form == F_INSERT;
	Reg ta;
	View va, part;

	if (form == F_EXTRACT_SLICE || form == F_EXTRACT) {
		Reg *a = reg(F, op->args[0].v);
		if (a->bad || !reg_slice(X, F, in, op, a, op->args[0].v, &part, elem))
			return false;
		check_part(X, in, op->args[0].v, a, &part, NULL);
		part.base = buf_data(X, a->buf);
		if (!shape_ok(X, in, op->args[0].v, &part, vo))
			return false;
		copy_views(X, vo, &part);
		return true;
	}
	if (!operand_view(X, F, in, &op->args[0], vo->dt, NULL, &ta, &va) ||
	    !reg_slice(X, F, in, op, out, op->dest.v, &part, elem))
		return false;
	part.base = vo->base;
	if (!shape_ok(X, in, op->args[0].v, &va, &part))
		return false;
	copy_views(X, &part, &va);
	return true;
}

/* from_elements, reshape, copy, clone: operands copied into the result. */
static bool
kernel_copy(Exec *X, Frame *F, const BInst *in, View *vo)
{
	const Op *op = in->op;
	DType dt = vo->dt;
	Reg ta;
	View va, part;

	switch (op_info[op->kind].form) {
	case F_FROM_ELEMENTS:
		for (int i = 0; i < op->nargs; i++) {
			operand_view(X, F, in, &op->args[i], dt, NULL, &ta,
				     &va);
			part = *vo;
			part.rank = 0;
			for (int d = vo->rank - 1, k = i; d >= 0; d--) {
				part.off += k % vo->sizes[d] * vo->strides[d];
				k /= (int)vo->sizes[d];
			}
			copy_views(X, &part, &va);
		}
		return true;
	case F_RESHAPE:
		/* a copy: the fresh result seen under the source's dims */
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va) ||
		    !view_reshape(vo, va.rank, va.sizes, &part) ||
		    !shape_ok(X, in, op->args[0].v, &va, &part))
			return false;
		copy_views(X, &part, &va);
		return true;
	default: /* copy, clone */
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va) ||
		    !shape_ok(X, in, op->args[0].v, &va, vo))
			return false;
		copy_views(X, vo, &va);
		return true;
	}
}

/* Run the kernel of in->op with output view vo; false when it could not
 * run (an unusable operand). */
static bool
compute_kernel(Exec *X, Frame *F, const BInst *in, Reg *out, View *vo)
{
	const Op *op = in->op;
	const OpInfo *oi = &op_info[op->kind];
	Reg ta;
	View va;

	if (!exec_charge(X, op, view_numel(vo)))
		return false;
	switch (oi->form) {
	case F_EMPTY:
		return true;
	case F_BINARY:
	case F_CMP:
	case F_UNARY:
		return kernel_ew(X, F, in, out, vo);
	case F_FILL:
		operand_view(X, F, in, &op->args[0], vo->dt, NULL, &ta, &va);
		k_fill(vo, &va);
		return true;
	case F_MATMUL:
		return kernel_matmul(X, F, in, vo);
	case F_TRANSPOSE:
	case F_REDUCE:
		return kernel_permute(X, F, in, out, vo);
	case F_EXTRACT_SLICE:
	case F_EXTRACT:
	case F_INSERT_SLICE:
	case F_INSERT:
		return kernel_slice(X, F, in, out, vo);
	case F_FROM_ELEMENTS:
	case F_RESHAPE:
	case F_COPY:
	case F_CLONE:
		return kernel_copy(X, F, in, vo);
	default: /* the lowering makes BI_COMPUTE of the forms above only */
		ir_bug("no kernel for %s (form %d)", oi->name, (int)oi->form);
	}
}

/* An insert keeps its destination's undefined elements outside the slice
 * (an insert_slice also its source's inside it; insert's scalar counts as
 * defined). */
static void
insert_undef(Exec *X, Frame *F, const BInst *in, Reg *out, uint32_t dest_ver)
{
	const Op *op = in->op;
	const Reg *src = NULL;
	View part;

	if (!slice_of(F, op, out, &part, op->kind == OP_INSERT, NULL, 0))
		return; /* reported by the kernel */
	if (op->kind == OP_INSERT_SLICE)
		src = reg(F, op->args[0].v);
	carry_undef(X, out, dest_ver, &part, src);
}

/* An insert_slice of a view of the very slice it replaces, or a copy of a
 * value into the buffer it already lives in, still holding the
 * destination's version (a matching extract/insert pair, `copy %x into
 * %x`, computed in place), writes every element onto itself: the value is
 * the destination's, so its version stays and readers of the source are
 * not stale.  MLIR's analysis relies on this for in-place pairs.  A copy
 * is one too when its destination is another name of that buffer whose
 * version the source has since replaced there (`copy %v into %p` with %v
 * computed into %p's buffer): the buffer already holds the source. */
static bool
identity_write(Exec *X, Frame *F, const BInst *in, const Reg *out)
{
	const Op *op = in->op;
	const Reg *src;
	View part;
	uint32_t found;

	if ((op->kind != OP_INSERT_SLICE && op->kind != OP_COPY) ||
	    !op->args[0].v)
		return false;
	src = reg(F, op->args[0].v);
	if (src->bad || src->buf < 0 || src->buf != out->buf)
		return false;
	if (src->ver != out->ver &&
	    (op->kind != OP_COPY || src->ver == VER_ANY ||
	     shadow_mismatch(X, src->buf, &src->view, src->ver, &found) >= 0))
		return false;
	if (op->kind == OP_COPY)
		part = out->view;
	else if (!slice_of(F, op, out, &part, false, NULL, 0))
		return false;
	if (part.rank != src->view.rank || part.off != src->view.off)
		return false;
	for (int d = 0; d < part.rank; d++)
		if (part.sizes[d] != src->view.sizes[d] ||
		    part.strides[d] != src->view.strides[d])
			return false;
	return true;
}

/* Will the kernel write every element of out's buffer without reading
 * any (its destination's or, through an operand, its own)? */
static bool
writes_whole(const Exec *X, Frame *F, const BInst *in, const Reg *out)
{
	const Op *op = in->op;
	int form = op_info[op->kind].form;

	if (op_info[op->kind].readsdest || form == F_EMPTY || !whole_of(X, out))
		return false;
	for (int k = 0; k < op->nargs; k++)
		if (op->args[k].v && op->args[k].v->type->kind == TY_TENSOR &&
		    reg(F, op->args[k].v)->buf == out->buf)
			return false;
	return true;
}

void
run_compute(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Value *res = op->res[0];
	Reg *out = reg(F, res);
	uint32_t dest_ver;
	View vo;
	bool whole;

	if (res->type->kind == TY_SCALAR) {
		memset(out, 0, sizeof *out);
		out->buf = -1;
		out->set = true;
		vo = scalar_view(out, res->type->dt);
		out->view = vo;
		compute_kernel(X, F, in, out, &vo);
		return;
	}
	if (!out->set || out->bad || !check_write(X, in, res, out))
		return;
	if (op->kind == OP_INSERT_SLICE || op->kind == OP_INSERT)
		check_dest_outside(X, F, in, out);
	else if (op_info[op->kind].readsdest && op->hasdest)
		check_read(X, in, op->dest.v, out);
	/* no zeroing of a fresh buffer the kernel writes whole (zeros after
	 * all if it could not run) */
	if ((whole = X->bufs[out->buf].lazy && writes_whole(X, F, in, out)))
		buf_whole_write(X, out->buf);
	vo = tview(X, out);
	if (identity_write(X, F, in, out)) {
		compute_kernel(X, F, in, out, &vo); /* its reads are checked */
		if (op->kind == OP_COPY) /* it holds the source's value */
			out->ver = reg(F, op->args[0].v)->ver;
		return;
	}
	if (!compute_kernel(X, F, in, out, &vo) && whole)
		memset(vo.base, 0, (size_t)X->bufs[out->buf].bytes);
	dest_ver = out->ver;
	tag_write(X, in, res, out);
	if (X->bp->memref && !in->top) {
		out->ver = VER_ANY; /* the memref program's own data */
		return;
	}
	if ((op->kind == OP_INSERT_SLICE || op->kind == OP_INSERT) &&
	    dest_ver != VER_ANY)
		insert_undef(X, F, in, out, dest_ver);
}

