/*
 * shadow.c: the executor's storage: a table of buffers (payload, owner,
 * state), the version shadow of each, violations, and memory accounting.
 *
 * A buffer's shadow says which dynamic version each element holds.  While
 * every write covers the whole buffer (the common case: elementwise chains)
 * the shadow is one tag, so checks and writes are O(1).  A partial write
 * (into a view, a row of a loop) adds a patch: a view and its tag, over
 * the base tag; a check answers from the patches when it can (a read
 * inside one patch, an insert's read outside the patch it replaces) and a
 * whole write drops them, so a loop that writes a row and inserts it back
 * costs O(1) a trip.  Past SHADOW_PATCHES patches, or when a check cannot
 * decide from them (a mismatch to locate, an overlap to untangle), the
 * shadow expands to one tag per element (4 bytes an element) until the
 * next whole write.
 */
#include <stdio.h>

#include "exec.h"

const char *const vkind_names[VK_COUNT] = {
	[VK_STALE_READ] = "stale-read",
	[VK_USE_AFTER_FREE] = "use-after-free",
	[VK_DOUBLE_FREE] = "double-free",
	[VK_LEAK] = "leak",
	[VK_READONLY_WRITE] = "readonly-write",
	[VK_ASYNC_RACE] = "async-race",
	[VK_EARLY_AWAIT_READ] = "early-await-read",
	[VK_OUT_OF_BOUNDS] = "out-of-bounds",
	[VK_INVALID_FREE] = "invalid-free",
	[VK_UNINIT_READ] = "uninitialized-read",
};

/* What a freed buffer reads as when it is used again (a constant). */
static const unsigned char poison[4] = {0xDE, 0xAD, 0xBE, 0xEF};

void *
xalloc(Exec *X, size_t n)
{
	void *p = mem_alloc(n);

	if (!p)
		longjmp(X->oom, 1);
	return p;
}

static void
fill_poison(char *p, int64_t bytes)
{
	for (int64_t i = 0; i < bytes; i++)
		p[i] = (char)poison[i & 3];
}

uint32_t
version_new(Exec *X, const Value *v, const BInst *in)
{
	uint32_t id;

	if (X->nfreevers) {
		id = X->freevers[--X->nfreevers];
		X->vers[id] = (VerInfo){v, in, v && v->def &&
					op_info[v->def->kind].form == F_EMPTY,
					NULL, -1, false, X->ctx};
		return id;
	}
	if (X->nvers == X->capvers) {
		uint32_t nc = X->capvers ? 2 * X->capvers : 256;
		VerInfo *nv = mem_realloc(X->vers, nc * sizeof *nv);
		if (!nv)
			longjmp(X->oom, 1);
		X->vers = nv;
		X->capvers = nc;
	}
	X->vers[X->nvers] = (VerInfo){v, in, v && v->def &&
				      op_info[v->def->kind].form == F_EMPTY,
				      NULL, -1, false, X->ctx};
	if (X->nvers + 1 > X->res->mem.table_vers)
		X->res->mem.table_vers = X->nvers + 1;
	return X->nvers++;
}

/* Does version ver stand for undefined contents (an `empty`'s)?  Version
 * 0 (never written) does not: reading it is an uninitialized read. */
bool
version_undef(const Exec *X, uint32_t ver)
{
	return ver && ver < X->nvers && X->vers[ver].undef;
}

/* The undefined elements of version ver as held in buffer h, or NULL
 * (a version lives in one buffer; a register that pairs it with another is
 * already wrong, and its reads stay strict). */
static const uint8_t *
undef_map(const Exec *X, uint32_t ver, int h)
{
	if (!ver || ver >= X->nvers || X->vers[ver].undef_buf != h)
		return NULL;
	return X->vers[ver].undef_at;
}

/* Is element `pos` (flat, in buffer h) of version ver undefined? */
bool
version_undef_at(const Exec *X, uint32_t ver, int h, int64_t pos)
{
	const uint8_t *m = undef_map(X, ver, h);

	return version_undef(X, ver) || (m && m[pos]);
}

static bool
version_partly_undef(const Exec *X, uint32_t ver)
{
	return ver && ver < X->nvers &&
	       (X->vers[ver].undef || X->vers[ver].undef_at);
}

void
versions_free(Exec *X)
{
	for (uint32_t i = 0; i < X->nvers; i++)
		mem_free(X->vers[i].undef_at);
	mem_free(X->vers);
	mem_free(X->freevers);
	mem_free(X->markver);
	X->vers = NULL;
	X->freevers = NULL;
	X->markver = NULL;
	X->capmarkver = 0;
	X->nvers = X->capvers = X->nfreevers = X->capfreevers = 0;
}

static void
mem_step(Exec *X)
{
	if (X->live > X->res->mem.peak_bytes)
		X->res->mem.peak_bytes = X->live;
}

/* A table slot for a new buffer, its payload not set. */
static int
buf_slot(Exec *X, DType dt, int64_t n, int kind, const BInst *made,
	 const Value *owner)
{
	Buf *b;
	int h;

	if (X->nfreebufs) {
		h = (int)X->freebufs[--X->nfreebufs];
	} else {
		if (X->nbufs == X->capbufs) {
			int nc = X->capbufs ? 2 * X->capbufs : 64;
			Buf *nb = mem_realloc(X->bufs, (size_t)nc * sizeof *nb);
			if (!nb)
				longjmp(X->oom, 1);
			X->bufs = nb;
			X->capbufs = nc;
		}
		h = X->nbufs++;
		if (X->nbufs > X->res->mem.table_bufs)
			X->res->mem.table_bufs = X->nbufs;
	}
	b = &X->bufs[h];
	memset(b, 0, sizeof *b);
	b->id = X->nextbuf++;
	b->dt = dt;
	b->n = n;
	b->bytes = n * (int64_t)dtype_size(dt);
	b->kind = kind;
	b->made = made;
	b->owner = owner;
	b->uniform = true;
	return h;
}

int
buf_new(Exec *X, DType dt, int64_t n, int kind, const BInst *made,
	const Value *owner)
{
	int h = buf_slot(X, dt, n, kind, made, owner);
	Buf *b = &X->bufs[h];

	b->data = mem_alloc((size_t)(b->bytes ? b->bytes : 1));
	if (!b->data)
		longjmp(X->oom, 1);
	b->lazy = true;
	X->live += b->bytes;
	if (kind == BUF_ALLOC) {
		X->live += X->o->alloc_overhead;
		X->res->mem.allocations++;
		X->res->mem.alloc_bytes += b->bytes;
	}
	mem_step(X);
	return h;
}

/* The run reads its inputs where the caller keeps them: a run that only
 * reads an input holds no second copy of it (issue 12 item 14).  It
 * still counts in the live bytes, as if copied. */
int
buf_input(Exec *X, const Tensor *t, const Value *owner)
{
	int h = buf_slot(X, t->dt, t->n, BUF_INPUT, NULL, owner);
	Buf *b = &X->bufs[h];

	b->data = t->data;
	b->borrowed = b->data != NULL;
	X->live += b->bytes;
	mem_step(X);
	return h;
}

void
buf_own(Exec *X, int h)
{
	Buf *b = &X->bufs[h];
	char *p;

	if (!b->borrowed)
		return;
	p = xalloc(X, (size_t)(b->bytes ? b->bytes : 1));
	memcpy(p, b->data, (size_t)b->bytes);
	b->data = p;
	b->borrowed = false;
}

void
buf_release(Exec *X, int h, const BInst *by)
{
	Buf *b = &X->bufs[h];

	/* the payload goes back now; a use after free gets fresh poison
	 * (buf_data), so stale data cannot look right by luck */
	b->freed = true;
	b->freed_by = by;
	if (!b->borrowed)
		mem_free(b->data);
	b->data = NULL;
	b->borrowed = false;
	if (b->pins)
		return; /* a pending launch still uses it: live until it ends */
	X->live -= b->bytes;
	if (b->kind == BUF_ALLOC)
		X->live -= X->o->alloc_overhead;
}

char *
buf_data(Exec *X, int h)
{
	Buf *b = &X->bufs[h];

	if (!b->data) { /* freed: fresh poison */
		b->data = xalloc(X, (size_t)(b->bytes ? b->bytes : 1));
		fill_poison(b->data, b->bytes);
		b->lazy = false;
	} else if (b->lazy) { /* an allocation reads as zeros */
		memset(b->data, 0, (size_t)b->bytes);
		b->lazy = false;
	}
	return b->data;
}

void
buf_whole_write(Exec *X, int h)
{
	X->bufs[h].lazy = false;
}

void
bufs_free(Exec *X)
{
	for (int i = 0; i < X->nbufs; i++) {
		if (!X->bufs[i].borrowed)
			mem_free(X->bufs[i].data);
		mem_free(X->bufs[i].vers);
		mem_free(X->bufs[i].patch);
	}
	mem_free(X->bufs);
	mem_free(X->freebufs);
	mem_free(X->markbuf);
	X->bufs = NULL;
	X->freebufs = NULL;
	X->markbuf = NULL;
	X->capmarkbuf = 0;
	X->nbufs = X->nfreebufs = X->capfreebufs = 0;
}

/* ---- violations, folded when they repeat (compute-sanitizer style) */

DynCtx
ctx_enter(Exec *X, const Op *op, int64_t k)
{
	DynCtx saved = X->ctx, *c = &X->ctx;

	if (c->n == CTX_DEPTH) { /* keep the innermost */
		memmove(&c->at[0], &c->at[1], sizeof c->at[0] * (CTX_DEPTH - 1));
		c->n--;
		c->deeper++;
	}
	c->at[c->n].op = op;
	c->at[c->n].k = k;
	c->n++;
	return saved;
}

void
ctx_leave(Exec *X, const DynCtx *saved)
{
	X->ctx = *saved;
}

Violation *
violate(Exec *X, VKind kind, const BInst *at, const Value *victim,
	const BInst *writer, int buffer, const View *v, int64_t li,
	const char *detail)
{
	ExecResult *r = X->res;
	Violation *nv;

	for (int i = 0; i < r->nviols; i++) {
		Violation *o = &r->viols[i];
		if (o->kind == kind && o->at == at && o->victim == victim &&
		    o->writer == writer) {
			o->count++;
			if (kind == VK_LEAK && buffer >= 0 && buffer < X->nbufs)
				o->bytes += X->bufs[buffer].bytes;
			return NULL;
		}
	}
	if (r->nviols == X->capviols) {
		int nc = X->capviols ? 2 * X->capviols : 8;
		Violation *na = mem_realloc(r->viols, (size_t)nc * sizeof *na);
		if (!na)
			longjmp(X->oom, 1);
		r->viols = na;
		X->capviols = nc;
	}
	nv = &r->viols[r->nviols++];
	memset(nv, 0, sizeof *nv);
	nv->kind = kind;
	nv->at = at;
	nv->victim = victim;
	nv->writer = writer;
	nv->buffer = buffer >= 0 && buffer < X->nbufs ? (int)X->bufs[buffer].id
						      : buffer;
	nv->launch = X->cur_in;
	nv->count = 1;
	if (v) { /* element li of the view, row-major, as an index */
		int64_t n = 1, stride = 1;
		bool dense = v->off == 0;
		nv->has_elem = true;
		nv->rank = v->rank;
		nv->flat = v->off;
		for (int d = v->rank - 1; d >= 0; d--) {
			int64_t s = v->sizes[d] ? v->sizes[d] : 1;
			nv->elem[d] = li % s;
			li /= s;
			nv->flat += nv->elem[d] * v->strides[d];
			dense = dense && (v->sizes[d] == 1 || v->strides[d] == stride);
			stride *= v->sizes[d];
			n *= v->sizes[d];
		}
		/* a view of part of the buffer: say where in the buffer too */
		nv->part = buffer >= 0 && buffer < X->nbufs &&
			   !(dense && n == X->bufs[buffer].n);
	}
	if (detail)
		fmt_snprintf(nv->detail, sizeof nv->detail, "%s", detail);
	nv->bufkind = -1;
	if (buffer >= 0 && buffer < X->nbufs) {
		const Buf *b = &X->bufs[buffer];
		nv->bufkind = b->kind == BUF_INPUT ? 0 : b->kind == BUF_CONST ? 1 : 2;
		nv->made = b->made;
		nv->owner = b->owner;
		if (kind == VK_LEAK)
			nv->bytes = b->bytes;
	}
	nv->rctx = X->ctx;
	nv->step = X->step;
	return nv;
}

/* ---- the version shadow */

/* Can views a and b of one buffer share an element?  (Their spans of flat
 * offsets intersect: exact for the slices programs make.) */
bool
views_overlap(const View *a, const View *b)
{
	int64_t alo = a->off, ahi = a->off, blo = b->off, bhi = b->off;

	for (int d = 0; d < a->rank; d++) {
		int64_t e = (a->sizes[d] - 1) * a->strides[d];
		if (a->sizes[d] == 0)
			return false;
		if (e < 0)
			alo += e;
		else
			ahi += e;
	}
	for (int d = 0; d < b->rank; d++) {
		int64_t e = (b->sizes[d] - 1) * b->strides[d];
		if (b->sizes[d] == 0)
			return false;
		if (e < 0)
			blo += e;
		else
			bhi += e;
	}
	return alo <= bhi && blo <= ahi;
}



static bool
covers_whole(const Buf *b, const View *v)
{
	int64_t n = 1, stride = 1;

	if (v->off != 0)
		return false;
	for (int d = v->rank - 1; d >= 0; d--) {
		if (v->sizes[d] != 1 && v->strides[d] != stride)
			return false;
		stride *= v->sizes[d];
		n *= v->sizes[d];
	}
	return n == b->n;
}

/* Visit the flat positions of view v in row-major order; stop when fn
 * returns true and give back the logical index of that element. */
#define VIEW_WALK(v, pos, li, body)                                          \
	do {                                                                 \
		int64_t idx_[MAXRANK] = {0}, pos = (v)->off, li = 0, tot_ = 1; \
		for (int d_ = 0; d_ < (v)->rank; d_++)                       \
			tot_ *= (v)->sizes[d_];                              \
		for (; li < tot_; li++) {                                    \
			body;                                                \
			for (int d_ = (v)->rank - 1; d_ >= 0; d_--) {        \
				pos += (v)->strides[d_];                     \
				if (++idx_[d_] < (v)->sizes[d_])             \
					break;                               \
				pos -= idx_[d_] * (v)->strides[d_];          \
				idx_[d_] = 0;                                \
			}                                                    \
		}                                                            \
	} while (0)

/* Flat position of element li (row-major) of view v. */
static int64_t
view_pos(const View *v, int64_t li)
{
	int64_t pos = v->off;

	for (int d = v->rank - 1; d >= 0; d--) {
		int64_t s = v->sizes[d] ? v->sizes[d] : 1;
		pos += li % s * v->strides[d];
		li /= s;
	}
	return pos;
}

enum { UNDEF_BUDGET = 64 << 20 }; /* bytes of undef_at maps, then strict */

/* Is v a dense row-major run of flat positions [*off, *off + *n)? */
static bool
dense_run(const View *v, int64_t *off, int64_t *n)
{
	int64_t s = 1;

	for (int d = v->rank - 1; d >= 0; d--) {
		if (v->sizes[d] != 1 && v->strides[d] != s)
			return false;
		s *= v->sizes[d];
	}
	*off = v->off;
	*n = s;
	return true;
}

/* map[pos] = x for the positions of view v. */
static void
map_fill(uint8_t *map, const View *v, uint8_t x)
{
	int64_t off, n;

	if (dense_run(v, &off, &n)) {
		memset(map + off, x, (size_t)n);
		return;
	}
	VIEW_WALK(v, pos, li, { map[pos] = x; (void)li; });
}

uint8_t *
undef_carry(Exec *X, int h, const View *v, uint32_t dest_ver,
	    const View *slice, uint32_t src_ver, int hs, const View *vs)
{
	Buf *b = &X->bufs[h];
	uint8_t *map;
	const uint8_t *dm;
	int64_t off, n;
	bool any = false;

	if (vs->rank != slice->rank ||
	    memcmp(vs->sizes, slice->sizes, sizeof *vs->sizes * vs->rank))
		src_ver = 0;  /* shapes differ: reported, the kernel did not run */
	if (!version_partly_undef(X, dest_ver) &&
	    !version_partly_undef(X, src_ver))
		return NULL;
	if (X->undef_bytes + b->n > UNDEF_BUDGET)
		return NULL;
	map = mem_calloc((size_t)(b->n ? b->n : 1), 1);
	if (!map)
		longjmp(X->oom, 1);
	if (version_undef(X, dest_ver)) {
		map_fill(map, v, 1);
	} else if ((dm = undef_map(X, dest_ver, h))) {
		if (dense_run(v, &off, &n))
			memcpy(map + off, dm + off, (size_t)n);
		else
			VIEW_WALK(v, pos, li, { map[pos] = dm[pos]; (void)li; });
	}
	if (version_undef(X, src_ver) || !undef_map(X, src_ver, hs))
		map_fill(map, slice, version_undef(X, src_ver));
	else
		VIEW_WALK(slice, pos, li, {
			map[pos] = version_undef_at(X, src_ver, hs,
						    view_pos(vs, li));
		});
	if (dense_run(v, &off, &n))
		any = memchr(map + off, 1, (size_t)n) != NULL;
	else
		VIEW_WALK(v, pos, li, { any |= map[pos]; (void)li; });
	if (!any) {
		mem_free(map);
		return NULL;
	}
	X->undef_bytes += b->n;
	return map;
}

/* Element pos holds `have` where `want` is expected: stale unless want's
 * element there is undefined (any version refines it). */
static bool
stale_at(uint32_t have, uint32_t want, const uint8_t *undef, int64_t pos)
{
	return have != want && !(undef && undef[pos]);
}

/* The span of flat offsets view v reaches; false when it is empty. */
static bool
view_span(const View *v, int64_t *lo, int64_t *hi)
{
	*lo = *hi = v->off;
	for (int d = 0; d < v->rank; d++) {
		int64_t e = (v->sizes[d] - 1) * v->strides[d];
		if (v->sizes[d] == 0)
			return false;
		if (e < 0)
			*lo += e;
		else
			*hi += e;
	}
	return true;
}

static bool
same_view(const View *a, const View *b)
{
	if (a->rank != b->rank || a->off != b->off)
		return false;
	for (int d = 0; d < a->rank; d++)
		if (a->sizes[d] != b->sizes[d] ||
		    (a->sizes[d] != 1 && a->strides[d] != b->strides[d]))
			return false;
	return true;
}

/* Is every element of a an element of b?  (Exact when true: the same
 * view, or b dense row-major and a's span inside b's.) */
static bool
view_within(const View *a, const View *b)
{
	int64_t alo, ahi, blo = b->off, stride = 1;

	if (!view_span(a, &alo, &ahi) || same_view(a, b))
		return true;
	for (int d = b->rank - 1; d >= 0; d--) {
		if (b->sizes[d] != 1 && b->strides[d] != stride)
			return false;
		stride *= b->sizes[d];
	}
	return stride > 0 && alo >= blo && ahi < blo + stride;
}

/* One tag per element from now on: the base, then the patches in order. */
static void
shadow_expand(Exec *X, Buf *b)
{
	if (!b->vers)
		b->vers = xalloc(X, (size_t)(b->n ? b->n : 1) * sizeof *b->vers);
	for (int64_t i = 0; i < b->n; i++)
		b->vers[i] = b->ver;
	for (int k = 0; k < b->npatch; k++) {
		const Patch *p = &b->patch[k];
		VIEW_WALK(&p->v, pos, li, { b->vers[pos] = p->ver; (void)li; });
	}
	b->npatch = 0;
	b->uniform = false;
}

/* From the patches alone: do all elements of v hold want?  1 yes, 0 no
 * or cannot tell (expand and look). */
static bool
patches_hold(const Buf *b, const View *v, uint32_t want)
{
	for (int k = b->npatch - 1; k >= 0; k--) {
		const Patch *p = &b->patch[k];
		if (!views_overlap(&p->v, v))
			continue;
		if (p->ver != want)
			return false;
		if (view_within(v, &p->v))
			return true;
	}
	return b->ver == want;
}

/* Likewise for the elements of v outside except: a patch of another
 * version is fine inside except. */
static bool
patches_hold_except(const Buf *b, const View *v, const View *except,
		    uint32_t want)
{
	if (b->ver != want)
		return false;
	for (int k = b->npatch - 1; k >= 0; k--) {
		const Patch *p = &b->patch[k];
		if (p->ver != want && views_overlap(&p->v, v) &&
		    !view_within(&p->v, except))
			return false;
	}
	return true;
}

/* The first element of v (row-major index) that holds neither want nor a
 * version ok() accepts (ok may be NULL), its version in *found; -1 when
 * none. */
int64_t
shadow_mismatch_but(Exec *X, int h, const View *v, uint32_t want,
		    VerOk ok, const void *arg, uint32_t *found)
{
	Buf *b = &X->bufs[h];
	const uint8_t *undef = undef_map(X, want, h);
	int64_t bad = -1;

	if (version_undef(X, want))
		return -1; /* any version refines an undefined element */
	if (b->uniform && !undef && !b->npatch) {
		int64_t tot = 1;
		for (int d = 0; d < v->rank; d++)
			tot *= v->sizes[d];
		if (b->ver != want && tot > 0 && !(ok && ok(X, b->ver, arg))) {
			*found = b->ver;
			return 0;
		}
		return -1;
	}
	if (b->uniform && b->npatch) {
		if (!undef && patches_hold(b, v, want))
			return -1;
		shadow_expand(X, b);
	}
	VIEW_WALK(v, pos, li, {
		uint32_t have = b->uniform ? b->ver : b->vers[pos];
		if (stale_at(have, want, undef, pos) &&
		    !(ok && ok(X, have, arg))) {
			*found = have;
			bad = li;
			break;
		}
	});
	return bad;
}

int64_t
shadow_mismatch(Exec *X, int h, const View *v, uint32_t want, uint32_t *found)
{
	return shadow_mismatch_but(X, h, v, want, NULL, NULL, found);
}

/* Like shadow_mismatch, for the elements of v outside `except` (the slice
 * an insert replaces: the op does not read what it overwrites). */
int64_t
shadow_mismatch_except(Exec *X, int h, const View *v, const View *except,
		       uint32_t want, uint32_t *found)
{
	Buf *b = &X->bufs[h];
	const uint8_t *undef = undef_map(X, want, h);
	uint8_t *skip;
	int64_t bad = -1;

	if ((b->uniform && b->ver == want && !b->npatch) ||
	    version_undef(X, want))
		return -1;
	if (b->uniform && b->npatch) {
		if (!undef && patches_hold_except(b, v, except, want))
			return -1;
		shadow_expand(X, b);
	}
	skip = mem_calloc((size_t)(b->n ? b->n : 1), 1);
	if (!skip)
		longjmp(X->oom, 1);
	VIEW_WALK(except, pos, li, { skip[pos] = 1; (void)li; });
	VIEW_WALK(v, pos, li, {
		uint32_t have = b->uniform ? b->ver : b->vers[pos];
		if (!skip[pos] && stale_at(have, want, undef, pos)) {
			*found = have;
			bad = li;
			break;
		}
	});
	mem_free(skip);
	return bad;
}

/* The elements of v that hold was or a version ok() accepts take ver;
 * the others keep theirs (a later read expecting ver finds them). */
void
shadow_write_where(Exec *X, int h, const View *v, uint32_t ver, uint32_t was,
		   VerOk ok, const void *arg)
{
	Buf *b = &X->bufs[h];

	if (b->uniform)
		shadow_expand(X, b);
	VIEW_WALK(v, pos, li, {
		uint32_t have = b->vers[pos];
		if (have == was || ok(X, have, arg))
			b->vers[pos] = ver;
		(void)li;
	});
}

void
shadow_write(Exec *X, int h, const View *v, uint32_t ver)
{
	Buf *b = &X->bufs[h];

	if (covers_whole(b, v)) {
		b->uniform = true;
		b->ver = ver;
		b->npatch = 0;
		mem_free(b->vers); /* 4 bytes an element: only while needed */
		b->vers = NULL;
		return;
	}
	if (b->uniform && b->npatch < SHADOW_PATCHES) {
		if (!b->patch)
			b->patch = xalloc(X, SHADOW_PATCHES * sizeof *b->patch);
		b->patch[b->npatch].v = *v;
		b->patch[b->npatch].v.base = NULL;
		b->patch[b->npatch++].ver = ver;
		return;
	}
	if (b->uniform)
		shadow_expand(X, b);
	VIEW_WALK(v, pos, li, { b->vers[pos] = ver; (void)li; });
}

/* The one tag all of view v of b holds, from the base and the patches,
 * or false when they do not say. */
static bool
uniform_tag(const Buf *b, const View *v, uint32_t *tag)
{
	for (int k = b->npatch - 1; k >= 0; k--) {
		const Patch *p = &b->patch[k];
		if (!views_overlap(&p->v, v))
			continue;
		*tag = p->ver;
		return view_within(v, &p->v);
	}
	*tag = b->ver;
	return true;
}

void
shadow_copy(Exec *X, int hd, const View *vd, int hs, const View *vs)
{
	Buf *s = &X->bufs[hs];
	uint32_t *tags, tag;
	int64_t n = 1;

	if (s->uniform && uniform_tag(s, vs, &tag)) {
		shadow_write(X, hd, vd, tag);
		return;
	}
	if (s->uniform)
		shadow_expand(X, s);
	if (X->bufs[hd].uniform) /* (before tags is held) */
		shadow_expand(X, &X->bufs[hd]);
	for (int d = 0; d < vs->rank; d++)
		n *= vs->sizes[d];
	/* through a buffer of tags: source and destination may overlap */
	tags = xalloc(X, (size_t)(n ? n : 1) * sizeof *tags);
	VIEW_WALK(vs, pos, li, { tags[li] = s->vers[pos]; });
	VIEW_WALK(vd, pos, li, { X->bufs[hd].vers[pos] = tags[li]; });
	mem_free(tags);
}

const uint32_t *
shadow_stale_tags(Exec *X, int hs, const View *vs, uint32_t want)
{
	Buf *s = &X->bufs[hs];
	const uint8_t *undef = undef_map(X, want, hs);
	uint32_t *tags, found;
	int64_t n = 1;

	/* (most copies are of what they expect: no element-wise pass, which
	 * would expand the shadow) */
	if (version_undef(X, want) || shadow_mismatch(X, hs, vs, want, &found) < 0)
		return NULL;
	if (s->uniform)
		shadow_expand(X, s);
	for (int k = 0; k < vs->rank; k++)
		n *= vs->sizes[k];
	/* (in the run's arena: the caller may run out of memory before it
	 * applies them) */
	tags = arena_alloc(X->arena, (size_t)(n ? n : 1) * sizeof *tags);
	VIEW_WALK(vs, pos, li, {
		uint32_t have = s->vers[pos];
		tags[li] = stale_at(have, want, undef, pos) ? have : 0;
	});
	return tags;
}

void
shadow_put_stale(Exec *X, int hd, const View *vd, const uint32_t *tags)
{
	Buf *d = &X->bufs[hd];

	if (d->uniform)
		shadow_expand(X, d);
	VIEW_WALK(vd, pos, li, {
		if (tags[li])
			d->vers[pos] = tags[li];
	});
}

/* ---- reuse: the tables hold what live state can refer to
 *
 * A loop that allocates and frees a buffer a trip, or writes a version a
 * trip, would grow both tables by the trips.  Every so often (when the
 * entries in use have doubled since the last time, and at least 1024
 * versions or 64 buffers more) the live state is marked: each register
 * (frames, scratch areas, launches, outputs) marks its buffer and the
 * version it expects, each buffer that is not free, or that a register
 * still names, marks the versions its shadow holds (the writer of a
 * clobbered version is still named by the element that holds it).  What
 * is left is reusable.  A reused slot gets a new Buf.id, which is what
 * reports name, so they read as before.  The scan of per-element shadows
 * is paid for by waiting for an eighth of their elements in new versions. */

typedef struct Marks {
	uint8_t *buf, *ver;
} Marks;

static void
mark_regs(Exec *X, const Reg *r, size_t n, void *ctx)
{
	Marks *m = ctx;

	for (size_t i = 0; i < n; i++) {
		if (r[i].buf >= 0 && r[i].buf < X->nbufs)
			m->buf[r[i].buf] = 1;
		if (r[i].ver < X->nvers)
			m->ver[r[i].ver] = 1;
	}
}

/* The versions b's shadow holds; the elements it scanned. */
static int64_t
mark_shadow(const Exec *X, const Buf *b, uint8_t *ver)
{
	if (b->ver < X->nvers)
		ver[b->ver] = 1;
	for (int k = 0; k < b->npatch; k++)
		if (b->patch[k].ver < X->nvers)
			ver[b->patch[k].ver] = 1;
	if (b->uniform || !b->vers)
		return 0;
	for (int64_t i = 0; i < b->n; i++)
		if (b->vers[i] < X->nvers)
			ver[b->vers[i]] = 1;
	return b->n;
}

/* Push x onto a free list (of slots or version ids). */
static void
push_free(Exec *X, uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? 2 * *cap : 256;
		uint32_t *nv = mem_realloc(*v, (size_t)nc * sizeof *nv);
		if (!nv)
			longjmp(X->oom, 1);
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
}

/* A version's undefined-element map goes (its bytes back to the budget). */
static void
drop_undef(Exec *X, VerInfo *vi)
{
	if (vi->undef_at) {
		X->undef_bytes -= X->bufs[vi->undef_buf].n;
		mem_free(vi->undef_at);
	}
	vi->undef_at = NULL;
	vi->undef_buf = -1;
}

/* Which buffer slots stay: not freed, pinned, or named by a register;
 * marks the versions their shadows hold.  Returns the elements scanned. */
static int64_t
keep_bufs(Exec *X, Marks *m)
{
	int64_t elems = 0;

	for (int i = 0; i < X->bp->ninsts; i++)
		if (X->constbuf[i] >= 0) {
			m->buf[X->constbuf[i]] = 1;
			m->ver[X->constver[i]] = 1;
		}
	for (int h = 0; h < X->nbufs; h++) {
		Buf *b = &X->bufs[h];
		if (b->slot_free)
			continue;
		if (!b->freed || b->pins)
			m->buf[h] = 1;
		if (m->buf[h])
			elems += mark_shadow(X, b, m->ver);
	}
	return elems;
}

/* n zeroed marks, in an array kept in X (freed with the tables, so an
 * out-of-memory exit midway leaks nothing). */
static uint8_t *
marks_room(Exec *X, uint8_t **m, size_t *cap, size_t n)
{
	if (n > *cap) {
		uint8_t *nm = mem_realloc(*m, 2 * n);
		if (!nm)
			longjmp(X->oom, 1);
		*m = nm;
		*cap = 2 * n;
	}
	memset(*m, 0, n);
	return *m;
}

void
tables_collect(Exec *X)
{
	Marks m;
	int64_t elems;
	uint32_t used;

	if (X->unrooted)
		return;
	m.buf = marks_room(X, &X->markbuf, &X->capmarkbuf, (size_t)X->nbufs + 1);
	m.ver = marks_room(X, &X->markver, &X->capmarkver, (size_t)X->nvers + 1);
	exec_roots(X, mark_regs, &m);
	launches_roots(X, mark_regs, &m);
	elems = keep_bufs(X, &m);
	m.ver[0] = 1; /* never written */
	for (uint32_t v = 1; v < X->nvers; v++) {
		VerInfo *vi = &X->vers[v];
		if (vi->dead)
			continue;
		if (m.ver[v]) { /* its map is about a buffer that goes: unused */
			if (vi->undef_at && !m.buf[vi->undef_buf])
				drop_undef(X, vi);
			continue;
		}
		drop_undef(X, vi);
		vi->dead = true;
		vi->v = NULL;
		vi->in = NULL;
		push_free(X, &X->freevers, &X->nfreevers, &X->capfreevers, v);
	}
	for (int h = 0; h < X->nbufs; h++) {
		Buf *b = &X->bufs[h];
		if (m.buf[h] || b->slot_free)
			continue;
		mem_free(b->data); /* poison a use after free made */
		mem_free(b->vers);
		mem_free(b->patch);
		b->data = NULL;
		b->vers = NULL;
		b->patch = NULL;
		b->slot_free = true;
		push_free(X, &X->freebufs, &X->nfreebufs, &X->capfreebufs,
			  (uint32_t)h);
	}
	used = X->nvers - X->nfreevers;
	X->gc_vers = 2 * (int64_t)used + 1024 + elems / 8;
	X->gc_bufs = 2 * ((int64_t)X->nbufs - X->nfreebufs) + 64;
}

void
tables_maybe_collect(Exec *X)
{
	if ((int64_t)(X->nvers - X->nfreevers) >= X->gc_vers ||
	    (int64_t)X->nbufs - X->nfreebufs >= X->gc_bufs)
		tables_collect(X);
}
