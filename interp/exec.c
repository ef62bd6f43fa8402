/*
 * exec.c: the instrumented executor.  It runs the buffer program on real
 * shared storage: an in-place write really overwrites the bytes an older
 * version lived in.  Every read checks the version shadow; every free,
 * write and view checks the buffer table.  Wrong plans become violations.
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"

static void run_block(Exec *X, Frame *F, const BBlock *b, Reg *out);
static bool whole_of(const Exec *X, const Reg *r);

void
exec_block(Exec *X, Frame *F, const BBlock *b, Reg *out)
{
	run_block(X, F, b, out);
}

void
abort_run(Exec *X, const Op *op, const char *fmt, const char *a, long long n)
{
	if (X->stop)
		return;
	X->stop = true;
	X->res->aborted_at = op ? op->loc : (Loc){0};
	snprintf(X->res->aborted, sizeof X->res->aborted, fmt, a, n);
}

bool
exec_charge(Exec *X, const Op *op, int64_t n)
{
	char why[160];

	if (!budget_charge(&X->budget, n, why, sizeof why))
		return true;
	abort_run(X, op, "%s", why, 0);
	return false;
}

/* ---- registers */

static Reg *
reg(Frame *F, const Value *v)
{
	return &F->regs[v->id];
}

void
reg_assign(Reg *dst, const Reg *src)
{
	*dst = *src;
	if (dst->buf < 0)
		dst->view.base = &dst->s;
}

static View
scalar_view(Reg *r, DType dt)
{
	View v = {0};

	v.base = &r->s;
	v.dt = dt;
	return v;
}

/* The register's view with a live base pointer. */
static View
tview(Exec *X, const Reg *r)
{
	View v = r->view;

	v.base = buf_data(X, r->buf);
	return v;
}

static void
lit_store(const Operand *o, DType dt, Reg *r)
{
	memset(&r->s, 0, sizeof r->s);
	r->buf = -1;
	switch (dt) {
	case DT_F32:
		r->s.f32 = (float)(o->isfloat ? o->f : (double)o->i);
		break;
	case DT_F64:
		r->s.f = o->isfloat ? o->f : (double)o->i;
		break;
	case DT_I1:
		r->s.b = (uint8_t)(o->i & 1);
		break;
	case DT_I32:
		r->s.i32 = (int32_t)(uint32_t)(uint64_t)o->i;
		break;
	default:
		r->s.i = o->i;
	}
}

static int64_t
scalar_int(const Reg *r, DType dt)
{
	switch (dt) {
	case DT_I1:
		return r->s.b & 1;
	case DT_I32:
		return r->s.i32;
	case DT_I64:
	case DT_INDEX:
		return r->s.i;
	default:
		return 0;
	}
}

/* An integer operand (bound, offset, index): a literal or an index value. */
static int64_t
int_operand(Frame *F, const Operand *o)
{
	if (!o->v)
		return o->i;
	return scalar_int(reg(F, o->v), o->v->type->dt);
}

/* ---- checked access */

/* A read of `part` of r (its whole view, a slice, an element), except
 * the elements of `skip` (the slice an insert replaces), expecting r's
 * version: records use-after-free, races with pending launches, and
 * uninitialized and stale reads. */
static void
check_part(Exec *X, const BInst *at, const Value *victim, const Reg *r,
	   const View *part, const View *skip)
{
	const Buf *b;
	uint32_t found = 0;
	int64_t li;

	if (r->bad || r->buf < 0)
		return;
	b = &X->bufs[r->buf];
	if (b->freed)
		violate(X, VK_USE_AFTER_FREE, at, victim, b->freed_by, r->buf,
			NULL, 0, "read");
	if (b->pins)
		launch_check(X, at, victim, r->buf, part, false);
	if (r->ver == VER_ANY)
		return;
	if (!r->ver) { /* allocated, never written (an insert's fresh
			* destination has nothing outside its slice to read) */
		if (!skip)
			violate(X, VK_UNINIT_READ, at, victim, b->made, r->buf,
				NULL, 0, NULL);
		return;
	}
	li = skip ? shadow_mismatch_except(X, r->buf, part, skip, r->ver, &found)
		  : shadow_mismatch(X, r->buf, part, r->ver, &found);
	if (li >= 0) {
		Violation *nv = violate(X, VK_STALE_READ, at, victim,
					X->vers[found].in, r->buf, part, li, NULL);
		if (nv && found < X->nvers) {
			nv->wctx = X->vers[found].ctx;
			nv->has_wctx = true;
		}
	}
}

/* May the op read r (expected to hold victim's version)?  false when r
 * cannot be used at all (an out-of-bounds view). */
static bool
check_read(Exec *X, const BInst *at, const Value *victim, const Reg *r)
{
	if (r->bad)
		return false;
	check_part(X, at, victim, r, &r->view, NULL);
	return true;
}

/* Before writing through r: read-only and freed buffers. */
static bool
check_write(Exec *X, const BInst *at, const Value *val, const Reg *r)
{
	const Buf *b;

	if (r->bad || r->buf < 0)
		return !r->bad;
	buf_own(X, r->buf); /* a borrowed input: copied before it changes */
	b = &X->bufs[r->buf];
	if (r->ro || b->kind == BUF_CONST)
		violate(X, VK_READONLY_WRITE, at, b->owner, at, r->buf, NULL, 0,
			NULL);
	if (b->freed)
		violate(X, VK_USE_AFTER_FREE, at, b->owner, b->freed_by, r->buf,
			NULL, 0, "write");
	if (b->pins)
		launch_check(X, at, val, r->buf, &r->view, true);
	return true;
}

/* The new version of r (just written) keeps the undefined elements it
 * carried over: dest_ver's outside `slice`, src's inside it. */
static void
carry_undef(Exec *X, Reg *r, uint32_t dest_ver, const View *slice,
	    const Reg *src)
{
	bool s = src && src->buf >= 0 && !src->bad;
	VerInfo *vi = &X->vers[r->ver];

	if (r->buf < 0 || r->bad || vi->undef)
		return;
	vi->undef_at = undef_carry(X, r->buf, &r->view, dest_ver, slice,
				   s ? src->ver : 0, s ? src->buf : -1,
				   s ? &src->view : slice);
	vi->undef_buf = r->buf;
}

/* After a write of value val through r: a new version over r's view. */
static void
tag_write(Exec *X, const BInst *at, const Value *val, Reg *r)
{
	uint32_t ver = version_new(X, val, at);

	if (r->buf >= 0 && !r->bad) {
		View v = r->view;
		shadow_write(X, r->buf, &v, ver);
	}
	r->ver = ver;
}

static int64_t
view_numel(const View *v)
{
	int64_t n = 1;

	for (int d = 0; d < v->rank; d++)
		n *= v->sizes[d];
	return n;
}

static bool
same_sizes(const View *a, const View *b)
{
	if (a->rank != b->rank)
		return false;
	for (int d = 0; d < a->rank; d++)
		if (a->sizes[d] != b->sizes[d])
			return false;
	return true;
}

/* k_copy that tolerates overlapping views of one buffer (via a temp). */
static void
copy_views(Exec *X, const View *dst, const View *src)
{
	View t;
	char *tmp;

	if (dst->base != src->base || (dst->off == src->off &&
	    !memcmp(dst->strides, src->strides, sizeof dst->strides))) {
		if (dst->base != src->base || dst->off != src->off)
			k_copy(dst, src);
		return;
	}
	t = *src;
	tmp = xalloc(X, (size_t)(view_numel(src) + 1) * dtype_size(src->dt));
	t.base = tmp;
	t.off = 0;
	for (int64_t d = src->rank - 1, s = 1; d >= 0; d--) {
		t.strides[d] = s;
		s *= src->sizes[d];
	}
	k_copy(&t, src);
	k_copy(dst, &t);
	mem_free(tmp);
}

/* A subview of r: offsets from operands, sizes/strides from the op.
 * Out of bounds is a violation; the result is then unusable. */
static bool
slice_of(Frame *F, const Op *op, const Reg *r, View *out, bool element,
	 char *detail, size_t n)
{
	View v = r->view;

	for (int d = 0; d < v.rank; d++) {
		int64_t off = int_operand(F, &op->offs[d]);
		int64_t size = element ? 1 : op->sizes[d];
		int64_t step = element ? 1 : op->strides[d];
		if (off < 0 || (size > 0 && off + (size - 1) * step >= v.sizes[d])) {
			if (detail)
				snprintf(detail, n, "offset %lld size %lld "
					 "stride %lld in dim %d of size %lld",
					 (long long)off, (long long)size,
					 (long long)step, d, (long long)v.sizes[d]);
			return false;
		}
		v.off += off * v.strides[d];
		v.sizes[d] = size;
		v.strides[d] *= step;
	}
	if (element)
		v.rank = 0;
	*out = v;
	return true;
}

static bool
sub_view(Exec *X, Frame *F, const BInst *at, const Op *op, const Reg *r,
	 const Value *of, View *out, bool element)
{
	char detail[96];

	if (slice_of(F, op, r, out, element, detail, sizeof detail))
		return true;
	violate(X, VK_OUT_OF_BOUNDS, at, of, NULL, r->buf, NULL, 0, detail);
	return false;
}

/* ---- allocation, views, copies, frees, constants */

/* r views a whole contiguous buffer of the given shape. */
static void
contiguous(Reg *r, DType dt, int rank, const int64_t *dims)
{
	int64_t s = 1;

	r->view.dt = dt;
	r->view.rank = rank;
	r->view.off = 0;
	for (int d = rank - 1; d >= 0; d--) {
		r->view.sizes[d] = dims[d];
		r->view.strides[d] = s;
		s *= dims[d];
	}
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
		if (op && op_info[op->kind].form == F_EMPTY) {
			dims[d] = int_operand(F, &op->args[k++]);
		} else if (in->src) {
			dims[d] = reg(F, in->src)->view.sizes[d];
		} else {
			dims[d] = 0;
		}
	}
}

static void
run_alloc(Exec *X, Frame *F, const BInst *in)
{
	Reg *r = reg(F, in->v);
	int64_t dims[MAXRANK], n = 1;
	const Type *t = in->v->type;

	shape_of(X, F, in, dims);
	for (int d = 0; d < t->rank; d++) {
		if (dims[d] < 0 || (dims[d] && n > X->o->lim->max_elems / dims[d])) {
			abort_run(X, in->op, "%s allocation is over the element "
				  "limit (%lld)", "", (long long)X->o->lim->max_elems);
			return;
		}
		n *= dims[d];
	}
	if (n > X->o->lim->max_elems || X->live + n * 8 > X->o->lim->max_bytes) {
		abort_run(X, in->op, "%sallocation over the limits (%lld "
			  "elements)", "", (long long)n);
		return;
	}
	memset(r, 0, sizeof *r);
	r->buf = buf_new(X, t->dt, n, BUF_ALLOC, in, in->v);
	r->set = true;
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
		return snprintf(detail, n, "a subview of rank %d of a view of "
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
			return snprintf(detail, n, "offset %lld size %lld stride "
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
			return snprintf(detail, n, "dim %d of size %lld dropped "
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
		return snprintf(detail, dn, "a view of elements [%lld, %lld] of "
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
		return snprintf(detail, n, "a view of rank %d for a type of rank "
				"%d", v->rank, t->rank), false;
	for (int d = 0; d < t->rank; d++)
		if (t->dims[d] != DIM_DYN && t->dims[d] != v->sizes[d])
			return snprintf(detail, n, "size %lld in dim %d where the "
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

static void
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
	if (src->bad || !sub_view(X, F, in, in->op, src, in->src, &v, false)) {
		r->bad = true;
		return;
	}
	r->view = v;
}

static void check_dest_outside(Exec *X, Frame *F, const BInst *in,
			       const Reg *out);

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

static void
run_copy(Exec *X, Frame *F, const BInst *in)
{
	Reg *src = reg(F, in->src), *dst = reg(F, in->v);
	View vd, vs;

	if (src->bad)
		return;
	if (in->carry) {
		carry_copy(X, in, src, dst);
		return;
	}
	if (insert_dest_copy(in))
		check_dest_outside(X, F, in, src);
	else if (!check_read(X, in, in->src, src))
		return;
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
		copy_views(X, &vd, &vs);
		X->res->mem.copies++;
		X->res->mem.copy_bytes += view_numel(&vs) * (int64_t)dtype_size(vs.dt);
	}
	tag_write(X, in, in->src, dst);
	carry_undef(X, dst, 0, &dst->view, src);
}

/* Free the allocation under r (named v in reports): double frees,
 * inputs, constants and a memref program's stack buffers are violations. */
static void
free_reg(Exec *X, const BInst *in, Reg *r, const Value *v)
{
	Buf *b;

	if (r->set && r->buf < 0 && r->fut)
		launch_resolve(X, r);
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

static void
run_free(Exec *X, Frame *F, const BInst *in)
{
	free_reg(X, in, reg(F, in->v), in->v);
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

static void
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

/* Run the kernel of in->op with output view vo; false when it could not
 * run (an unusable operand). */
static bool
compute_kernel(Exec *X, Frame *F, const BInst *in, Reg *out, View *vo)
{
	const Op *op = in->op;
	const OpInfo *oi = &op_info[op->kind];
	DType dt = vo->dt;
	Reg ta, tb;
	View va, vb, part;

	if (!exec_charge(X, op, view_numel(vo)))
		return false;
	switch (oi->form) {
	case F_EMPTY:
		return true;
	case F_BINARY:
	case F_CMP:
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
	case F_UNARY:
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
	case F_FILL:
		operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va);
		k_fill(vo, &va);
		return true;
	case F_MATMUL:
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va) ||
		    !operand_view(X, F, in, &op->args[1], dt, NULL, &tb, &vb))
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
	case F_TRANSPOSE:
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va))
			return false;
		for (int d = 0; d < vo->rank; d++)
			if (vo->sizes[d] != va.sizes[op->perm[d]])
				return shape_ok(X, in, op->args[0].v, &va, vo);
		if (self_overlap(X, in, op->args[0].v, F, out)) {
			Stale st;
			serial_transpose(X, vo, &va, op->perm, &st);
			blame_stale(X, in, &st, &va, out);
		} else {
			k_transpose(vo, &va, op->perm);
		}
		return true;
	case F_REDUCE:
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va))
			return false;
		if (!exec_charge(X, op, view_numel(&va)))
			return false;
		if (self_overlap(X, in, op->args[0].v, F, out)) {
			Stale st;
			serial_reduce(X, oi->ew, vo, &va, op->perm, op->nperm, &st);
			blame_stale(X, in, &st, &va, out);
		} else {
			k_reduce(oi->ew, vo, &va, op->perm, op->nperm);
		}
		return true;
	case F_EXTRACT_SLICE:
	case F_EXTRACT: {
		Reg *a = reg(F, op->args[0].v);
		bool elem = oi->form == F_EXTRACT;
		if (a->bad || !sub_view(X, F, in, op, a, op->args[0].v, &part, elem))
			return false;
		check_part(X, in, op->args[0].v, a, &part, NULL);
		part.base = buf_data(X, a->buf);
		if (!shape_ok(X, in, op->args[0].v, &part, vo))
			return false;
		copy_views(X, vo, &part);
		return true;
	}
	case F_INSERT_SLICE:
	case F_INSERT: {
		bool elem = oi->form == F_INSERT;
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va) ||
		    !sub_view(X, F, in, op, out, op->dest.v, &part, elem))
			return false;
		part.base = vo->base;
		if (!shape_ok(X, in, op->args[0].v, &va, &part))
			return false;
		copy_views(X, &part, &va);
		return true;
	}
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
	case F_COPY:
	case F_CLONE:
		if (!operand_view(X, F, in, &op->args[0], dt, NULL, &ta, &va) ||
		    !shape_ok(X, in, op->args[0].v, &va, vo))
			return false;
		copy_views(X, vo, &va);
		return true;
	default: /* the lowering makes BI_COMPUTE of the forms above only */
		ir_bug("no kernel for %s (form %d)", oi->name, (int)oi->form);
	}
}

/* insert/insert_slice read their destination except the part they
 * replace (in place, or through the copy made for them out of place). */
static void
check_dest_outside(Exec *X, Frame *F, const BInst *in, const Reg *out)
{
	const Op *op = in->op;
	View part;

	if (out->buf < 0 || !sub_view(X, F, in, op, out, op->dest.v, &part,
				      op->kind == OP_INSERT))
		return; /* the kernel reports the bad slice */
	check_part(X, in, op->dest.v, out, &out->view, &part);
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
 * not stale.  MLIR's analysis relies on this for in-place pairs. */
static bool
identity_write(Frame *F, const BInst *in, const Reg *out)
{
	const Op *op = in->op;
	const Reg *src;
	View part;

	if ((op->kind != OP_INSERT_SLICE && op->kind != OP_COPY) ||
	    !op->args[0].v)
		return false;
	src = reg(F, op->args[0].v);
	if (src->bad || src->buf < 0 || src->buf != out->buf ||
	    src->ver != out->ver)
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

/* Does r view all of its buffer, contiguously? */
static bool
whole_of(const Exec *X, const Reg *r)
{
	int64_t s = 1;

	if (r->bad || r->buf < 0 || r->view.off)
		return false;
	for (int d = r->view.rank - 1; d >= 0; d--) {
		if (r->view.sizes[d] != 1 && r->view.strides[d] != s)
			return false;
		s *= r->view.sizes[d];
	}
	return s == X->bufs[r->buf].n;
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

static void
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
	if (identity_write(F, in, out)) {
		compute_kernel(X, F, in, out, &vo); /* its reads are checked */
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

/* ---- control flow */

/* Per-instruction room for the registers a region yields: safe to reuse,
 * since a yield writes it just before its block returns. */
static Reg *
scratch(Exec *X, const BInst *in, int n)
{
	if (!X->scratch[in->id]) {
		X->scratch[in->id] = arena_alloc(X->arena, (size_t)(n + 1) * sizeof(Reg));
		X->scratchn[in->id] = n + 1;
	}
	return X->scratch[in->id];
}

/* Every register file that can name a buffer or a version between two
 * instructions (tables_collect): the frames by depth, the regions'
 * scratch areas, the entry's results; launches are async.c's. */
void
exec_roots(Exec *X, RegVisit *visit, void *ctx)
{
	for (int d = 0; d <= X->o->lim->max_depth; d++)
		if (X->frames[d])
			visit(X, X->frames[d], (size_t)X->bp->nregs, ctx);
	for (int i = 0; i <= X->bp->ninsts; i++)
		if (X->scratch[i])
			visit(X, X->scratch[i], (size_t)X->scratchn[i], ctx);
	if (X->outs)
		visit(X, X->outs, (size_t)X->nouts, ctx);
}

static void
run_if(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *y = scratch(X, in, op->nres);
	bool then = int_operand(F, &op->args[0]);
	DynCtx saved = ctx_enter(X, op, !then);

	run_block(X, F, then ? in->body : in->orelse, y);
	ctx_leave(X, &saved);
	for (int k = 0; k < op->nres && !X->stop; k++)
		reg_assign(reg(F, op->res[k]), &y[k]);
}

static void
set_scalar(Reg *r, const Operand *o, Frame *F, DType dt)
{
	if (o->v) {
		reg_assign(r, reg(F, o->v));
		return;
	}
	memset(r, 0, sizeof *r);
	lit_store(o, dt, r);
	r->set = true;
	r->view = scalar_view(r, dt);
}

static void
run_for(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	int64_t lb = int_operand(F, &op->args[0]), ub = int_operand(F, &op->args[1]);
	int64_t step = int_operand(F, &op->args[2]);
	Reg *y = scratch(X, in, op->nres);
	DynCtx saved;
	int64_t trip = 0;

	if (step <= 0) {
		abort_run(X, op, "%sloop step %lld is not positive", "",
			  (long long)step);
		return;
	}
	for (int k = 0; k < op->nres; k++)
		if (op->res[k]->type->kind != TY_TENSOR)
			set_scalar(reg(F, op->res[k]), &op->args[3 + k], F,
				   op->res[k]->type->dt);
	for (int64_t i = lb; i < ub; i = i > INT64_MAX - step ? ub : i + step) {
		Reg *iv = reg(F, op->body->args[0]);
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			return;
		}
		if (!exec_charge(X, op, WORK_STEP))
			return;
		memset(iv, 0, sizeof *iv);
		iv->buf = -1;
		iv->set = true;
		iv->s.i = i;
		iv->view = scalar_view(iv, DT_INDEX);
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->body->args[1 + k]), reg(F, op->res[k]));
		saved = ctx_enter(X, op, trip++);
		run_block(X, F, in->body, y);
		ctx_leave(X, &saved);
		if (X->stop)
			return;
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->res[k]), &y[k]);
	}
}

/* A while: the condition block yields the i1, the do block the next
 * iter values (already in their loop buffers); trips count like for's. */
static void
run_while(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *y = scratch(X, in, op->nres);

	for (int k = 0; k < op->nres; k++)
		if (op->res[k]->type->kind != TY_TENSOR)
			set_scalar(reg(F, op->res[k]), &op->args[k], F,
				   op->res[k]->type->dt);
	for (int64_t trip = 0;; trip++) {
		DynCtx saved = ctx_enter(X, op, trip);
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->body->args[k]), reg(F, op->res[k]));
		run_block(X, F, in->body, y);
		if (X->stop || !scalar_int(&y[0], DT_I1)) {
			ctx_leave(X, &saved);
			return;
		}
		if (++X->trips > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			ctx_leave(X, &saved);
			return;
		}
		if (!exec_charge(X, op, WORK_STEP))
			return;
		run_block(X, F, in->orelse, y);
		ctx_leave(X, &saved);
		if (X->stop)
			return;
		for (int k = 0; k < op->nres; k++)
			reg_assign(reg(F, op->res[k]), &y[k]);
	}
}

/* The failure path of an assert or of a call that failed in its callee:
 * the lowering's drains and frees, then the run stops. */
static void
run_failure(Exec *X, Frame *F, const BBlock *b)
{
	X->stop = false;
	if (b)
		run_block(X, F, b, NULL);
	X->stop = true;
}

/* assert: a false operand ends the run here, through the failure path. */
static void
run_assert(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;

	if (int_operand(F, &op->args[0]))
		return;
	X->res->failed = in->top ? in->top : op;
	run_failure(X, F, in->body);
}

static Reg *
frame_regs(Exec *X, int depth)
{
	if (!X->frames[depth])
		X->frames[depth] = arena_alloc(X->arena,
					       (size_t)X->bp->nregs * sizeof(Reg));
	memset(X->frames[depth], 0, (size_t)X->bp->nregs * sizeof(Reg));
	return X->frames[depth];
}

static void
run_call(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	const Func *fn = op->fn;
	Reg *y = scratch(X, in, op->nres);
	Frame G = {NULL, fn};
	int fi = 0;

	if (X->depth + 1 >= X->o->lim->max_depth) {
		abort_run(X, op, "%scall depth limit of %lld reached", "",
			  (long long)X->o->lim->max_depth);
		return;
	}
	if (!exec_charge(X, op, WORK_CALL))
		return;
	while (X->bp->funcs[fi].f != fn)
		fi++;
	G.regs = frame_regs(X, X->depth + 1);
	for (int i = 0; i < fn->nparams; i++) {
		Reg *p = &G.regs[fn->params[i]->id];
		if (in->vals && in->vals[i])
			reg_assign(p, reg(F, in->vals[i]));
		else
			set_scalar(p, &op->args[i], F, fn->params[i]->type->dt);
		if (fn->params[i]->readonly)
			p->ro = true;
	}
	X->depth++;
	run_block(X, &G, X->bp->funcs[fi].body, y);
	X->depth--;
	/* the callee stopped at a failed assert: now the caller's part */
	if (X->stop && X->res->failed && !X->res->aborted[0])
		run_failure(X, F, in->orelse);
	for (int k = 0; k < op->nres && !X->stop; k++)
		reg_assign(reg(F, op->res[k]), &y[k]);
}


static void
trace_step(Exec *X, const BInst *in)
{
	X->step++;
	if (X->o->on_step)
		X->o->on_step(X->o->step_ctx, X->step, X->live, in,
			      launch_stream(X));
}

static void run_forall(Exec *X, Frame *F, const BInst *in);
static void run_pinsert(Exec *X, Frame *F, const BInst *in);

/* ---- memref programs */

/* v (a TIR value) lives where src lives; it keeps the version it must
 * hold, which says what its readers expect. */
static void
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

static void
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

static void
yield_out(Frame *F, const BInst *in, Reg *out)
{
	for (int k = 0; k < in->nvals; k++)
		if (in->vals[k])
			reg_assign(&out[k], reg(F, in->vals[k]));
}

/* A return ends its call's memref.alloca buffers (the stack frame): a
 * returned one is then used after free, and none is a leak. */
static void
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
static void
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

/* One instruction, then the launches' chance to run. */
static void
run_inst(Exec *X, Frame *F, const BInst *in, Reg *out)
{
	if (in->op)
		X->at = in->op;
	if (!exec_charge(X, in->op, WORK_STEP))
		return;
	{
		switch (in->kind) {
		case BI_ALLOC: run_alloc(X, F, in); break;
		case BI_ALIAS: reg_assign(reg(F, in->v), reg(F, in->src)); break;
		case BI_VIEW: run_view(X, F, in); break;
		case BI_COPY: run_copy(X, F, in); break;
		case BI_COMPUTE: run_compute(X, F, in); break;
		case BI_CONST: run_const(X, F, in); break;
		case BI_FREE: run_free(X, F, in); break;
		case BI_IF: run_if(X, F, in); break;
		case BI_FOR: run_for(X, F, in); break;
		case BI_WHILE: run_while(X, F, in); break;
		case BI_ASSERT: run_assert(X, F, in); break;
		case BI_CALL: run_call(X, F, in); break;
		case BI_LAUNCH: launch_start(X, F, in); break;
		case BI_AWAIT: launch_await(X, F, in); break;
		case BI_DRAIN:
			for (int k = 0; k < in->nvals; k++)
				launch_finish(X, reg(F, in->vals[k]));
			break;
		case BI_RETURN:
			launch_drain(X, F);
			yield_out(F, in, out);
			if (X->nstack)
				stack_release(X, in);
			break;
		case BI_YIELD:
			yield_out(F, in, out);
			break;
		case BI_FORALL: run_forall(X, F, in); break;
		case BI_PINSERT: run_pinsert(X, F, in); break;
		case BI_BIND: run_bind(X, F, in); break;
		case BI_VER:
			reg(F, in->v)->ver = in->src ? reg(F, in->src)->ver : VER_ANY;
			if (!reg(F, in->v)->ver)
				reg(F, in->v)->ver = VER_ANY; /* never written here */
			break;
		case BI_META: run_meta(X, F, in); break;
		case BI_DEALLOC: run_dealloc(X, F, in); break;
		case BI_SELECT:
			reg_assign(reg(F, in->v),
				   reg(F, in->vals[scalar_int(reg(F, in->vals[0]),
							      DT_I1) ? 1 : 2]));
			break;
		}
		trace_step(X, in);
		/* not after a terminator: it has written the enclosing op's
		 * results into that op's scratch registers, which a launch
		 * running the same op in another activation (a helper called
		 * in a launch and by the host) would overwrite; the tick after
		 * the enclosing op is the same point */
		if (X->nlaunches && in->kind != BI_RETURN && in->kind != BI_YIELD)
			launch_tick(X);
		tables_maybe_collect(X);
	}
}

/* Not walk_bblock: execution picks the regions and their trips. */
static void
run_block(Exec *X, Frame *F, const BBlock *b, Reg *out)
{
	for (int i = 0; i < b->n && !X->stop; i++)
		run_inst(X, F, b->insts[i], out);
}

/* ---- forall: trips interleaved at instruction granularity */

enum { FORALL_WINDOW = 8 }; /* trips in flight at once (register files) */

/* parallel_insert_slice: the source into the trip's slice of the result
 * buffer. */
static void
run_pinsert(Exec *X, Frame *F, const BInst *in)
{
	Reg *out, *src = reg(F, in->src), whole;
	View vo, vs;

	if (!in->v)
		return;
	out = reg(F, in->v);
	if (!out->set || out->bad || !check_write(X, in, in->v, out) ||
	    !check_read(X, in, in->src, src))
		return;
	whole = *out;
	whole.view = tview(X, out);
	if (!sub_view(X, F, in, in->op, &whole, in->v, &vo, false))
		return;
	vs = tview(X, src);
	if (!same_sizes(&vo, &vs)) {
		violate(X, VK_OUT_OF_BOUNDS, in, in->v, NULL, out->buf, NULL, 0,
			"parallel_insert_slice of a different shape");
		return;
	}
	copy_views(X, &vo, &vs);
	/* its own version, so a trip reading what it overwrote blames it;
	 * run_forall gives the whole result one version at the end */
	shadow_write(X, out->buf, &vo, version_new(X, in->v, in));
}

/* Which trip of [0, n) runs its next instruction: sync finishes them in
 * order, late steps them in lockstep from the last, random:SEED picks
 * (rng_next). */
static int
forall_pick(Exec *X, const int *pc, int n, int len, int *turn)
{
	int live = 0, k;

	for (k = 0; k < n; k++)
		live += pc[k] < len;
	if (!live)
		return -1;
	switch (X->o->sched.kind) {
	case SCHED_LATE:
		for (;; (*turn)--) {
			if (*turn < 0)
				*turn = n - 1;
			if (pc[*turn] < len)
				return (*turn)--;
		}
	case SCHED_RANDOM:
		k = (int)(rng_next(&X->rng) % (uint64_t)live);
		for (int t = 0; t < n; t++)
			if (pc[t] < len && k-- == 0)
				return t;
		return -1;
	default:
		for (k = 0; pc[k] >= len; k++)
			;
		return k;
	}
}

/* Room for the trips' register files and the results' versions, kept
 * per forall instruction in the run's arena (a recursive run of the same
 * forall, while it is busy, gets its own). */
static Reg *
forall_room(Exec *X, const BInst *in, int nres)
{
	size_t n = (size_t)FORALL_WINDOW * (size_t)X->bp->nregs;
	Reg *r = X->scratch[in->id];

	if (!r || r[n].set) {
		r = arena_alloc(X->arena, (n + 2 + (size_t)nres) * sizeof *r);
		if (!X->scratch[in->id]) {
			X->scratch[in->id] = r;
			X->scratchn[in->id] = (int)(n + 2 + (size_t)nres);
		} else {
			X->unrooted++; /* a recursive run's: no collection now */
		}
	}
	r[n].set = true; /* busy */
	return r;
}

/* Trips lo..lo+n-1, each with a private register file. */
static void
forall_window(Exec *X, Frame *F, const BInst *in, Reg *files,
	      const Reg *vr, int64_t lo, int n)
{
	const Op *op = in->op;
	size_t sz = (size_t)X->bp->nregs * sizeof(Reg);
	Reg y[1];
	int pc[FORALL_WINDOW] = {0}, turn = n - 1, t;

	for (t = 0; t < n; t++) {
		Reg *r = files + (size_t)t * X->bp->nregs, *iv;
		memcpy(r, F->regs, sz);
		iv = &r[op->body->args[0]->id];
		memset(iv, 0, sizeof *iv);
		iv->buf = -1;
		iv->set = true;
		iv->s.i = lo + t;
		iv->view = scalar_view(iv, DT_INDEX);
		for (int k = 0; k < op->nres; k++) {
			reg_assign(&r[op->body->args[1 + k]->id],
				   reg(F, in->vals[k]));
			r[op->res[k]->id].ver = vr[k].ver;
		}
	}
	while (!X->stop && (t = forall_pick(X, pc, n, in->body->n, &turn)) >= 0) {
		Frame G = {files + (size_t)t * X->bp->nregs, F->fn};
		run_inst(X, &G, in->body->insts[pc[t]++], y);
	}
}

static void
run_forall(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	int64_t lb = int_operand(F, &op->args[0]), ub = int_operand(F, &op->args[1]);
	Reg *files = forall_room(X, in, op->nres);
	size_t busy = (size_t)FORALL_WINDOW * (size_t)X->bp->nregs;
	Reg *vr = files + busy + 1;

	/* the trips write the result's new version; the shared args keep
	 * expecting the init's */
	for (int k = 0; k < op->nres; k++) {
		Reg *r = reg(F, op->res[k]);
		vr[k].ver = r->ver;
		if (r->set && r->buf >= 0 && check_write(X, in, op->res[k], r))
			vr[k].ver = version_new(X, op->res[k], in);
	}
	for (int64_t i = lb; i < ub && !X->stop; i += FORALL_WINDOW) {
		int n = ub - i < FORALL_WINDOW ? (int)(ub - i) : FORALL_WINDOW;
		if ((X->trips += n) > X->o->lim->max_trips) {
			abort_run(X, op, "%sloop trip limit of %lld reached", "",
				  (long long)X->o->lim->max_trips);
			break;
		}
		if (!exec_charge(X, op, work_mul(n, WORK_STEP)))
			break;
		forall_window(X, F, in, files, vr, i, n);
	}
	/* what no trip wrote holds the init, now the result's version */
	for (int k = 0; k < op->nres && !X->stop; k++) {
		Reg *r = reg(F, op->res[k]);
		View v;
		if (!r->set || r->bad || r->buf < 0)
			continue;
		r->ver = vr[k].ver;
		v = r->view;
		shadow_write(X, r->buf, &v, r->ver);
	}
	files[busy].set = false;
	if (files != X->scratch[in->id])
		X->unrooted--;
}

static void
bind_inputs(Exec *X, Frame *F, const Func *fn, Tensor *const *inputs)
{
	for (int i = 0; i < fn->nparams; i++) {
		const Value *p = fn->params[i];
		const Tensor *t = inputs[i];
		Reg *r = &F->regs[p->id];
		memset(r, 0, sizeof *r);
		r->set = true;
		if (p->type->kind != TY_TENSOR) {
			r->buf = -1;
			memcpy(&r->s, t->data, dtype_size(t->dt));
			r->view = scalar_view(r, t->dt);
			continue;
		}
		r->buf = buf_input(X, t, p);
		contiguous(r, t->dt, t->rank, t->dims);
		r->ver = version_new(X, p, NULL);
		X->bufs[r->buf].ver = r->ver;
		r->ro = p->readonly;
	}
}

/* May output r take its buffer's payload?  A whole allocation, written,
 * not freed, or an input the run wrote (its own copy), that no other
 * output names (outputs are taken in order, and a taken buffer has no
 * data left). */
static bool
stealable(Exec *X, const Reg *r)
{
	const Buf *b;

	if (!whole_of(X, r))
		return false;
	b = &X->bufs[r->buf];
	if ((b->kind != BUF_ALLOC && (b->kind != BUF_INPUT || b->borrowed)) ||
	    b->freed || b->pins || !b->data || b->lazy)
		return false;
	for (int k = 0; k + 1 < X->nouts; k++) /* the last is a spare */
		if (&X->outs[k] != r && X->outs[k].buf == r->buf)
			return false;
	return true;
}

static Tensor *
output_tensor(Exec *X, const Value *v, Reg *r)
{
	Tensor *t;
	View vt, vr;

	if (v->type->kind != TY_TENSOR) {
		t = tensor_new(v->type->dt, 0, NULL);
		if (!t)
			longjmp(X->oom, 1);
		memcpy(t->data, &r->s, dtype_size(t->dt));
		return t;
	}
	if (stealable(X, r)) { /* the run is over: its payload, no copy */
		Buf *b = &X->bufs[r->buf];
		t = tensor_alloc(r->view.dt, 0, NULL, false);
		if (!t)
			longjmp(X->oom, 1);
		mem_free(t->data);
		t->data = b->data;
		b->data = NULL;
		b->lazy = false;
		t->rank = r->view.rank;
		memcpy(t->dims, r->view.sizes, sizeof t->dims);
		t->n = b->n;
		return t;
	}
	t = tensor_new(r->view.dt, r->view.rank, r->view.sizes);
	if (!t)
		longjmp(X->oom, 1);
	if (r->bad || r->buf < 0)
		return t;
	vt = view_of(t);
	vr = tview(X, r);
	k_copy(&vt, &vr);
	return t;
}

static void check_leaks(Exec *X, const Reg *outs, int n);

static void
collect_outputs(Exec *X, const BFunc *bf, Reg *outs)
{
	const BBlock *b = bf->body;
	const BInst *ret = b->insts[b->n - 1];
	ExecResult *res = X->res;

	res->outs = xalloc(X, (size_t)(ret->nvals + 1) * sizeof *res->outs);
	for (int k = 0; k < ret->nvals; k++) {
		const Value *v = ret->op->args[k].v;
		const Value *want = ret->top && k < ret->top->nargs ?
				    ret->top->args[k].v : v;
		if (v->type->kind == TY_TENSOR)
			check_read(X, ret, want ? want : v, &outs[k]);
		res->outs[k] = output_tensor(X, v, &outs[k]);
		res->nouts = k + 1;
	}
	check_leaks(X, outs, ret->nvals);
}

static int
by_id(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Every allocation not freed and not among the n results is a leak,
 * reported in allocation order. */
static void
check_leaks(Exec *X, const Reg *outs, int n)
{
	/* in the arena: a violation may run out of memory midway */
	int64_t (*l)[2] = arena_alloc(X->arena, ((size_t)X->nbufs + 1) * sizeof *l);
	int nl = 0;

	for (int h = 0; h < X->nbufs; h++) {
		bool returned = false;
		if (X->bufs[h].kind != BUF_ALLOC || X->bufs[h].freed)
			continue;
		for (int k = 0; k < n; k++)
			returned |= outs[k].buf == h;
		if (!returned) {
			l[nl][0] = X->bufs[h].id;
			l[nl++][1] = h;
		}
	}
	qsort(l, (size_t)nl, sizeof *l, by_id);
	for (int i = 0; i < nl; i++) {
		const Buf *b = &X->bufs[l[i][1]];
		violate(X, VK_LEAK, b->made, b->owner, NULL, (int)l[i][1], NULL,
			0, NULL);
	}
}

int
exec_run(const BProg *bp, const Func *entry, Tensor *const *inputs,
	 const ExecOpts *o, ExecResult *res, Diag *d)
{
	Exec X;
	Frame F;
	const BFunc *volatile bf = NULL; /* set after the setjmp */
	Reg *outs;

	memset(&X, 0, sizeof X);
	memset(res, 0, sizeof *res);
	X.bp = bp;
	X.o = o;
	X.res = res;
	budget_start(&X.budget, o->lim);
	if (!(X.arena = arena_new()))
		return diag_set(d, entry->loc, "out of memory");
	if (setjmp(X.oom)) {
		launches_free(&X);
		bufs_free(&X);
		versions_free(&X);
		arena_free(X.arena);
		exec_result_free(res);
		return diag_set(d, X.at ? X.at->loc : entry->loc,
				"out of memory");
	}
	X.arena->oom = &X.oom;
	X.constbuf = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.constbuf);
	X.constver = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.constver);
	X.scratch = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.scratch);
	X.frames = arena_alloc(X.arena, (size_t)(o->lim->max_depth + 1) * sizeof *X.frames);
	X.captured = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.captured);
	X.scratchn = arena_alloc(X.arena, (size_t)(bp->ninsts + 1) * sizeof *X.scratchn);
	X.gc_vers = 1024;
	X.gc_bufs = 64;
	X.rng = o->sched.seed;
	for (int i = 0; i < bp->ninsts; i++)
		X.constbuf[i] = -1;
	for (int i = 0; i < bp->nfuncs; i++)
		if (bp->funcs[i].f == entry)
			bf = &bp->funcs[i];
	F.fn = entry;
	F.regs = frame_regs(&X, 0);
	version_new(&X, NULL, NULL); /* version 0: never written */
	bind_inputs(&X, &F, entry, inputs);
	outs = arena_alloc(X.arena, (size_t)(entry->nrtypes + 1) * sizeof *outs);
	X.outs = outs;
	X.nouts = entry->nrtypes + 1;
	run_block(&X, &F, bf->body, outs);
	if (res->failed && !res->aborted[0])
		X.stop = false; /* the failure path ran: launches, leaks */
	if (!X.stop)
		launch_drain(&X, NULL);
	if (!X.stop && res->failed) {
		if (!bp->memref) /* a memref program's assert aborts */
			check_leaks(&X, NULL, 0);
	} else if (!X.stop)
		collect_outputs(&X, bf, outs);
	launches_free(&X);
	bufs_free(&X);
	versions_free(&X);
	arena_free(X.arena);
	return 0;
}

void
exec_result_free(ExecResult *res)
{
	for (int i = 0; i < res->nouts; i++)
		if (!res->shared || !res->shared[i])
			tensor_free(res->outs[i]);
	mem_free(res->outs);
	mem_free(res->shared);
	mem_free(res->viols);
	memset(res, 0, sizeof *res);
}
