/*
 * exec_buffers.c: the executor's buffer instructions: allocation, views
 * (memref views computed at run time too), copies, frees, constants, and
 * the memref programs' own (ownership flags, metadata, dealloc).
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"

/* ---- allocation, views, copies, frees, constants */

/* r views a whole contiguous buffer of the given shape. */
void
contiguous(Reg *r, DType dt, int rank, const int64_t *dims)
{
	r->view.dt = dt;
	r->view.rank = rank;
	r->view.off = 0;
	for (int d = 0; d < rank; d++)
		r->view.sizes[d] = dims[d];
	shape_strides(rank, dims, r->view.strides);
}

static void
shape_of(Exec *X, Frame *F, const BInst *in, int64_t *dims)
{
	const Type *t = in->v->type;
	const Op *op = in->op;
	int k = 0;

	for (int d = 0; d < t->rank; d++) {
		dims[d] = t->dims[d];
		if (dims[d] != DIM_DYN)
			continue;
		if (op && (op_info[op->kind].form == F_EMPTY ||
			   op_info[op->kind].form == F_GENERATE)) {
			dims[d] = int_operand(F, &op->args[k++]);
		} else if (in->src) {
			dims[d] = reg(F, in->src)->view.sizes[d];
		} else {
			dims[d] = 0;
		}
	}
}

void
run_alloc(Exec *X, Frame *F, const BInst *in)
{
	Reg *r = reg(F, in->v);
	int64_t dims[MAXRANK], n = 1, bytes;
	const Type *t = in->v->type;

	shape_of(X, F, in, dims);
	/* the reference made a tensor of this shape: over the element limit
	 * (or negative), the shape differs, a verdict; over the payload, a
	 * plan that holds more at once than the reference, a limit */
	for (int d = 0; d < t->rank; d++) {
		if (dims[d] < 0 || (dims[d] && n > X->o->lim->max_elems / dims[d])) {
			abort_run(X, in->op, "%s allocation is over the element "
				  "limit (%lld)", "", (long long)X->o->lim->max_elems);
			return;
		}
		n *= dims[d];
	}
	if (n > X->o->lim->max_elems) {
		abort_run(X, in->op, "%sallocation over the limits (%lld "
			  "elements)", "", (long long)n);
		return;
	}
	bytes = n * (int64_t)dtype_size(t->dt);
	if (X->live + bytes > X->o->lim->max_bytes) {
		char why[160];

		fmt_snprintf(why, sizeof why, "live buffers need %lld bytes, "
			     "over the limit of %lld", (long long)(X->live + bytes),
			     (long long)X->o->lim->max_bytes);
		abort_limit(X, in->op, "%s", why, 0);
		return;
	}
	memset(r, 0, sizeof *r);
	r->buf = buf_new(X, t->dt, n, BUF_ALLOC, in, in->v);
	r->set = true;
	r->owned = true;
	if (X->bp->memref)
		r->ver = VER_ANY; /* a memref program's own buffer */
	if (X->bp->memref && in->why && !strcmp(in->why, "memref.alloca")) {
		X->bufs[r->buf].stack = X->depth + 1;
		X->nstack++;
	}
	contiguous(r, t->dt, t->rank, dims);
}

/* A reshape view: the source's elements under the result's dims; a
 * source whose strides cannot express them (a strided slice) needs a
 * copy, so the plan is wrong. */
static void
reshape_view_of(Exec *X, const BInst *in, const Reg *src, Reg *r)
{
	const Type *t = in->v->type;
	View v;

	if (src->bad || !view_reshape(&src->view, t->rank, t->dims, &v)) {
		if (!src->bad)
			violate(X, VK_OUT_OF_BOUNDS, in, in->src, NULL,
				src->buf, NULL, 0, "reshape of a view whose "
				"strides cannot express it");
		r->bad = true;
		return;
	}
	r->view = v;
}

/* ---- memref views computed at run time (MView) */

/* a + b * c, false on overflow (operands come from the memref program) */
static bool
mad(int64_t a, int64_t b, int64_t c, int64_t *out)
{
	int64_t p;

	return !__builtin_mul_overflow(b, c, &p) &&
	       !__builtin_add_overflow(a, p, out);
}

/* A subview of the source's view: offsets, sizes and strides in the
 * source's dims, then the dropped unit dims leave.  false + detail. */
static bool
mview_sub(Frame *F, const MView *mv, const View *src, View *out,
	  char *detail, size_t n)
{
	View v = *src;
	int r = 0;

	if (mv->rank != v.rank)
		return fmt_snprintf(detail, n, "a subview of rank %d of a view of "
				"rank %d", mv->rank, v.rank), false;
	for (int d = 0; d < v.rank; d++) {
		int64_t off = int_operand(F, &mv->off[d]), last = off;
		int64_t size = int_operand(F, &mv->size[d]);
		int64_t step = int_operand(F, &mv->stride[d]);
		if (off < 0 || size < 0 || step < 0 ||
		    (size > 0 && (!mad(off, size - 1, step, &last) ||
				  last >= v.sizes[d])) ||
		    !mad(v.off, off, v.strides[d], &v.off) ||
		    __builtin_mul_overflow(v.strides[d], step, &v.strides[d]))
			return fmt_snprintf(detail, n, "offset %lld size %lld stride "
					"%lld in dim %d of size %lld", (long long)off,
					(long long)size, (long long)step, d,
					(long long)src->sizes[d]), false;
		v.sizes[d] = size;
	}
	for (int d = 0; d < v.rank; d++) {
		if (!(mv->drop >> d & 1)) {
			v.sizes[r] = v.sizes[d];
			v.strides[r++] = v.strides[d];
		} else if (v.sizes[d] != 1) {
			return fmt_snprintf(detail, n, "dim %d of size %lld dropped "
					"(a rank-reducing subview drops unit dims)",
					d, (long long)v.sizes[d]), false;
		}
	}
	v.rank = r;
	*out = v;
	return true;
}

/* A view at an offset of the allocation itself (reinterpret_cast): every
 * element it reaches must lie inside the allocation's n elements. */
static bool
mview_base(Frame *F, const MView *mv, const View *src, int64_t n, View *out,
	   char *detail, size_t dn)
{
	View v = *src;
	int64_t lo, hi;
	bool empty = false, ok = true;

	v.rank = mv->rank;
	lo = hi = v.off = int_operand(F, &mv->off[0]);
	for (int d = 0; d < v.rank; d++) {
		v.sizes[d] = int_operand(F, &mv->size[d]);
		v.strides[d] = int_operand(F, &mv->stride[d]);
		empty |= v.sizes[d] == 0;
		ok &= v.sizes[d] >= 0;
		if (ok && v.sizes[d] > 0)
			ok &= mad(v.strides[d] < 0 ? lo : hi, v.sizes[d] - 1,
				  v.strides[d], v.strides[d] < 0 ? &lo : &hi);
	}
	if (!ok || (!empty && (lo < 0 || hi >= n)) || v.off < 0 || v.off > n)
		return fmt_snprintf(detail, dn, "a view of elements [%lld, %lld] of "
				"an allocation of %lld", (long long)lo,
				(long long)hi, (long long)n), false;
	*out = v;
	return true;
}

/* The sizes a view has at run time against its type's static dims. */
static bool
mview_type(const View *v, const Type *t, char *detail, size_t n)
{
	if (v->rank != t->rank)
		return fmt_snprintf(detail, n, "a view of rank %d for a type of rank "
				"%d", v->rank, t->rank), false;
	for (int d = 0; d < t->rank; d++)
		if (t->dims[d] != DIM_DYN && t->dims[d] != v->sizes[d])
			return fmt_snprintf(detail, n, "size %lld in dim %d where the "
					"type says %lld", (long long)v->sizes[d],
					d, (long long)t->dims[d]), false;
	return true;
}

/* A subview, reinterpret_cast or checked cast; a view that leaves its
 * buffer or disagrees with its type is out of bounds, and unusable. */
static void
run_mview(Exec *X, Frame *F, const BInst *in, const Reg *src, Reg *r)
{
	char detail[96] = "";
	View v = src->view;
	bool ok;

	if (src->bad || src->buf < 0) {
		r->bad = true;
		return;
	}
	if (in->mv->kind != MV_CAST)
		X->res->mem.views++;
	if (in->mv->kind == MV_SUBVIEW)
		ok = mview_sub(F, in->mv, &src->view, &v, detail, sizeof detail);
	else if (in->mv->kind == MV_REINTERPRET)
		ok = mview_base(F, in->mv, &src->view, X->bufs[src->buf].n, &v,
				detail, sizeof detail);
	else
		ok = true;
	if (ok)
		ok = mview_type(&v, in->v->type, detail, sizeof detail);
	if (!ok) {
		violate(X, VK_OUT_OF_BOUNDS, in, in->src, NULL, src->buf, NULL,
			0, detail);
		r->bad = true;
		return;
	}
	r->view = v;
}

void
run_view(Exec *X, Frame *F, const BInst *in)
{
	Reg *src = reg(F, in->src), *r = reg(F, in->v);
	View v;

	reg_assign(r, src);
	if (in->mv) {
		run_mview(X, F, in, src, r);
		return;
	}
	X->res->mem.views++;
	if (op_info[in->op->kind].form == F_RESHAPE) {
		reshape_view_of(X, in, src, r);
		return;
	}
	if (src->bad || !reg_slice(X, F, in, in->op, src, in->src, &v, false)) {
		r->bad = true;
		return;
	}
	r->view = v;
}

/* The copy an out-of-place insert makes of its destination. */
static bool
insert_dest_copy(const BInst *in)
{
	const Op *op = in->op;

	return op && (op->kind == OP_INSERT_SLICE || op->kind == OP_INSERT) &&
	       in->src == op->dest.v && op->nres && in->v == op->res[0];
}

/* A memref program's copy: the elements keep their versions (a copy of
 * a stale version is stale where it is read, not here). */
static void
carry_copy(Exec *X, const BInst *in, const Reg *src, Reg *dst)
{
	Reg any = *src;
	View vd, vs;

	any.ver = VER_ANY;
	if (!check_read(X, in, in->src, &any) || !check_write(X, in, in->v, dst) ||
	    src->buf < 0 || dst->buf < 0)
		return;
	vd = tview(X, dst);
	vs = tview(X, src);
	if (!same_sizes(&vd, &vs)) {
		violate(X, VK_OUT_OF_BOUNDS, in, in->v, NULL, dst->buf, NULL, 0,
			"copy between different shapes");
		return;
	}
	copy_views(X, &vd, &vs);
	shadow_copy(X, dst->buf, &vd, src->buf, &vs);
	X->res->mem.copies++;
	X->res->mem.copy_bytes += view_numel(&vs) * (int64_t)dtype_size(vs.dt);
}

void
run_copy(Exec *X, Frame *F, const BInst *in)
{
	Reg *src = reg(F, in->src), *dst = reg(F, in->v);
	View vd = {0}, vs = {0};
	bool stale_src = false;
	const uint32_t *stale = NULL;

	if (src->bad)
		return;
	if (in->carry) {
		carry_copy(X, in, src, dst);
		return;
	}
	if (in->settle && dst->set && dst->buf >= 0)
		launch_settle(X, dst->buf);
	if (insert_dest_copy(in)) {
		check_dest_outside(X, F, in, src);
	} else {
		/* (its version is checked where the copy is read: stale_src) */
		Reg any = *src;
		any.ver = src->ver ? VER_ANY : 0;
		if (!check_read(X, in, in->src, &any))
			return;
		stale_src = src->ver && src->ver != VER_ANY && src->buf >= 0;
	}
	if (!check_write(X, in, in->v, dst))
		return;
	if (src->buf >= 0) {
		if (!same_sizes(&dst->view, &src->view)) {
			violate(X, VK_OUT_OF_BOUNDS, in, in->v, NULL, dst->buf,
				NULL, 0, "copy between different shapes");
			return;
		}
		if (dst->buf >= 0 && dst->buf != src->buf && whole_of(X, dst))
			buf_whole_write(X, dst->buf);
		vd = tview(X, dst);
		vs = tview(X, src);
		if (!exec_charge(X, in->op, view_numel(&vs)))
			return;
		/* (read before the destination is tagged: they may overlap) */
		if (stale_src && dst->buf >= 0 && !dst->bad)
			stale = shadow_stale_tags(X, src->buf, &vs, src->ver);
		copy_views(X, &vd, &vs);
		X->res->mem.copies++;
		X->res->mem.copy_bytes += view_numel(&vs) * (int64_t)dtype_size(vs.dt);
	}
	tag_write(X, in, in->src, dst);
	carry_undef(X, dst, 0, &dst->view, src);
	if (stale)
		shadow_put_stale(X, dst->buf, &vd, stale);
}

/* Free the allocation under r (named v in reports): double frees,
 * inputs, constants and a memref program's stack buffers are violations. */
static void
free_reg(Exec *X, const BInst *in, Reg *r, const Value *v)
{
	Buf *b;

	if (r->set && r->buf < 0 && r->fut && !launch_resolve(X, in, r))
		return;
	if (!r->set || r->bad || r->buf < 0)
		return;
	b = &X->bufs[r->buf];
	if (b->freed) {
		violate(X, VK_DOUBLE_FREE, in, v, b->freed_by, r->buf, NULL,
			0, NULL);
		return;
	}
	if (b->kind != BUF_ALLOC || b->stack) {
		violate(X, VK_INVALID_FREE, in, v, NULL, r->buf, NULL, 0,
			b->stack ? "free of a stack allocation (memref.alloca)"
			: b->kind == BUF_INPUT ? "free of an input"
			: "free of a constant");
		return;
	}
	if (!X->bp->memref && (view_numel(&r->view) != b->n || r->view.off != 0)) {
		violate(X, VK_INVALID_FREE, in, v, NULL, r->buf, NULL, 0,
			"free of a view");
		return;
	}
	buf_release(X, r->buf, in);
}

/* A holder of a carried future lets go: the last one completes the
 * launch, then the pending launches that use its results, and frees the
 * buffers of its results. */
static void
release_future(Exec *X, const BInst *in, Reg *f)
{
	Fut *fut = f->fut;

	if (!fut)
		return;
	if (fut->refs <= 0) {
		abort_run(X, in->op, "%sa future is released twice (a bufdiff "
			  "lowering bug)", "", 0);
		return;
	}
	if (fut->refs == 1)
		launch_settle_future(X, fut);
	if (X->stop || --fut->refs > 0)
		return;
	launch_finish(X, f);
	/* (a pending launch may have captured an await result) */
	for (int k = 0; k < fut->n && !X->stop; k++)
		if (fut->regs[k].set && fut->regs[k].buf >= 0) {
			launch_settle(X, fut->regs[k].buf);
			free_reg(X, in, &fut->regs[k], in->v);
		}
}

void
run_free(Exec *X, Frame *F, const BInst *in)
{
	Reg *r = reg(F, in->v);

	if (in->v->type->kind == TY_FUTURE) {
		release_future(X, in, r);
		return;
	}
	if (in->ifowned && !r->owned)
		return; /* a block argument that borrowed its buffer */
	/* (a pending launch may await the future whose result this is: it
	 * runs first) */
	if (in->settle && r->set && r->fut)
		launch_settle_future(X, r->fut);
	if (in->settle && r->set && r->buf >= 0)
		launch_settle(X, r->buf);
	free_reg(X, in, r, in->v);
}

static void
const_fill(Exec *X, const Op *op, View *v, DType dt)
{
	const ConstData *c = &op->cdata;
	int64_t n = view_numel(v);
	Tensor t = {0};

	/* write through a Tensor header so tensor_set* converts per dtype */
	t.dt = dt;
	t.n = n;
	t.data = (char *)v->base + v->off * (int64_t)dtype_size(dt);
	for (int64_t i = 0; i < n; i++) {
		int64_t k = c->splat || c->n <= 1 ? 0 : i;
		if (dtype_is_float(dt))
			tensor_setf(&t, i, c->f ? c->f[k] : (double)(c->i ? c->i[k] : 0));
		else
			tensor_seti(&t, i, c->i ? c->i[k] : (int64_t)(c->f ? c->f[k] : 0));
	}
}

void
run_const(Exec *X, Frame *F, const BInst *in)
{
	const Type *t = in->v->type;
	Reg *r = reg(F, in->v);
	View v;

	memset(r, 0, sizeof *r);
	r->set = true;
	if (t->kind == TY_SCALAR) {
		r->buf = -1;
		v = scalar_view(r, t->dt);
		const_fill(X, in->op, &v, t->dt);
		r->view = v;
		return;
	}
	/* one read-only buffer per const instruction, made on first run */
	contiguous(r, t->dt, t->rank, t->dims);
	if (X->constbuf[in->id] < 0) {
		X->constbuf[in->id] = buf_new(X, t->dt, type_numel(t), BUF_CONST,
					      in, in->v);
		X->constver[in->id] = version_new(X, in->v, in);
		X->bufs[X->constbuf[in->id]].ver = X->constver[in->id];
		r->buf = X->constbuf[in->id];
		v = tview(X, r);
		const_fill(X, in->op, &v, t->dt);
	}
	r->buf = X->constbuf[in->id];
	r->ver = X->constver[in->id];
	r->ro = true;
}

/* ---- memref programs */

/* v (a TIR value) lives where src lives; it keeps the version it must
 * hold, which says what its readers expect. */
void
run_bind(Exec *X, Frame *F, const BInst *in)
{
	Reg *r = reg(F, in->v), *s = reg(F, in->src);
	uint32_t ver = r->ver;

	(void)X;
	reg_assign(r, s);
	if (s->buf >= 0)
		r->ver = ver ? ver : VER_ANY;
}

static void
set_index(Reg *r, int64_t i)
{
	memset(r, 0, sizeof *r);
	r->buf = -1;
	r->set = true;
	r->s.i = i;
	r->view = scalar_view(r, DT_INDEX);
}

void
run_meta(Exec *X, Frame *F, const BInst *in)
{
	const Reg *s = reg(F, in->src);
	Reg *r = reg(F, in->v);
	int d = in->meta_dim;

	switch (in->meta) {
	case META_BASE:
		reg_assign(r, s);
		r->view.rank = 0;
		r->view.off = 0;
		r->ver = VER_ANY;
		break;
	case META_OFFSET:
		set_index(r, s->view.off);
		break;
	case META_SIZE:
		set_index(r, d < s->view.rank ? s->view.sizes[d] : 0);
		break;
	case META_STRIDE:
		set_index(r, d < s->view.rank ? s->view.strides[d] : 0);
		break;
	case META_ADDR:
		/* one fake address per allocation (its id: a handle whose
		 * buffer is gone and unreferenced is reused) */
		set_index(r, s->buf < 0 ? 0 : (X->bufs[s->buf].id + 1) << 24);
		break;
	}
	(void)X;
}

/* A return ends its call's memref.alloca buffers (the stack frame): a
 * returned one is then used after free, and none is a leak. */
void
stack_release(Exec *X, const BInst *in)
{
	for (int h = 0; h < X->nbufs && X->nstack; h++)
		if (X->bufs[h].stack == X->depth + 1 && !X->bufs[h].freed) {
			buf_release(X, h, in);
			X->bufs[h].stack = -1; /* released, still no heap buffer */
			X->nstack--;
		}
}

static bool
same_alloc(const Reg *a, const Reg *b)
{
	return a->buf >= 0 && a->buf == b->buf && !a->bad && !b->bad;
}

static void
set_i1(Reg *r, bool b)
{
	memset(r, 0, sizeof *r);
	r->buf = -1;
	r->set = true;
	r->s.b = b;
	r->view = scalar_view(r, DT_I1);
}

/* bufferization.dealloc (BufferizationOps.td): each retained memref's
 * ownership is the disjunction of the conditions of the memrefs that
 * alias it; each allocation whose condition holds and that no retained
 * memref aliases is freed, once however many of its memrefs are listed. */
void
run_dealloc(Exec *X, Frame *F, const BInst *in)
{
	int n = in->nmem, nr = in->nvals - 2 * n;
	Value **m = in->vals, **c = in->vals + n, **ret = in->vals + 2 * n;

	for (int j = 0; j < nr; j++) {
		bool own = false;
		for (int i = 0; i < n; i++)
			own |= same_alloc(reg(F, m[i]), reg(F, ret[j])) &&
			       scalar_int(reg(F, c[i]), DT_I1);
		set_i1(reg(F, in->op->res[j]), own);
	}
	for (int i = 0; i < n; i++) {
		bool keep = !scalar_int(reg(F, c[i]), DT_I1);
		for (int j = 0; j < nr && !keep; j++)
			keep = same_alloc(reg(F, m[i]), reg(F, ret[j]));
		for (int k = 0; k < i && !keep; k++) /* freed at k already */
			keep = same_alloc(reg(F, m[i]), reg(F, m[k])) &&
			       scalar_int(reg(F, c[k]), DT_I1);
		if (!keep)
			free_reg(X, in, reg(F, m[i]), m[i]);
	}
}

