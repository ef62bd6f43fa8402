/*
 * exec_access.c: the executor's registers and its checked accesses: every
 * read checks the version shadow, every write the buffer table, and a
 * write tags the elements it wrote with their new version.
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"

/* ---- registers */

void
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

int64_t
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
int64_t
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
void
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
bool
check_read(Exec *X, const BInst *at, const Value *victim, const Reg *r)
{
	if (r->bad)
		return false;
	check_part(X, at, victim, r, &r->view, NULL);
	return true;
}

/* Before writing through r: read-only and freed buffers. */
bool
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
void
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
void
tag_write(Exec *X, const BInst *at, const Value *val, Reg *r)
{
	uint32_t ver = version_new(X, val, at);

	if (r->buf >= 0 && !r->bad) {
		View v = r->view;
		shadow_write(X, r->buf, &v, ver);
	}
	r->ver = ver;
}

int64_t
view_numel(const View *v)
{
	int64_t n = 1;

	for (int d = 0; d < v->rank; d++)
		n *= v->sizes[d];
	return n;
}

bool
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
void
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
	shape_strides(src->rank, src->sizes, t.strides);
	k_copy(&t, src);
	k_copy(dst, &t);
	mem_free(tmp);
}

/* A subview of r: offsets from operands, sizes/strides from the op.
 * Out of bounds is a violation; the result is then unusable. */
bool
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
				fmt_snprintf(detail, n, "offset %lld size %lld "
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

bool
reg_slice(Exec *X, Frame *F, const BInst *at, const Op *op, const Reg *r,
	  const Value *of, View *out, bool element)
{
	char detail[96];

	if (slice_of(F, op, r, out, element, detail, sizeof detail))
		return true;
	violate(X, VK_OUT_OF_BOUNDS, at, of, NULL, r->buf, NULL, 0, detail);
	return false;
}

/* insert/insert_slice read their destination except the part they
 * replace (in place, or through the copy made for them out of place). */
void
check_dest_outside(Exec *X, Frame *F, const BInst *in, const Reg *out)
{
	const Op *op = in->op;
	View part;

	if (out->buf < 0 || !reg_slice(X, F, in, op, out, op->dest.v, &part,
				       op->kind == OP_INSERT))
		return; /* the kernel reports the bad slice */
	check_part(X, in, op->dest.v, out, &out->view, &part);
}

/* Does r view all of its buffer, contiguously? */
bool
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

