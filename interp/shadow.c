/*
 * shadow.c: the executor's storage: a table of buffers (payload, owner,
 * state), the version shadow of each, violations, and memory accounting.
 *
 * A buffer's shadow says which dynamic version each element holds.  While
 * every write covers the whole buffer (the common case: elementwise chains)
 * the shadow is one tag, so checks and writes are O(1); the first partial
 * write (a view, an insert_slice) expands it to one tag per element.
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
				      NULL, -1, X->ctx};
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
	X->vers = NULL;
	X->nvers = X->capvers = 0;
}

static void
mem_step(Exec *X)
{
	if (X->live > X->res->mem.peak_bytes)
		X->res->mem.peak_bytes = X->live;
}

int
buf_new(Exec *X, DType dt, int64_t n, int kind, const BInst *made,
	const Value *owner)
{
	Buf *b;

	if (X->nbufs == X->capbufs) {
		int nc = X->capbufs ? 2 * X->capbufs : 64;
		Buf *nb = mem_realloc(X->bufs, (size_t)nc * sizeof *nb);
		if (!nb)
			longjmp(X->oom, 1);
		X->bufs = nb;
		X->capbufs = nc;
	}
	b = &X->bufs[X->nbufs];
	memset(b, 0, sizeof *b);
	b->dt = dt;
	b->n = n;
	b->bytes = n * (int64_t)dtype_size(dt);
	b->kind = kind;
	b->made = made;
	b->owner = owner;
	b->uniform = true;
	b->data = mem_calloc((size_t)(b->bytes ? b->bytes : 1), 1);
	if (!b->data)
		longjmp(X->oom, 1);
	X->nbufs++;
	X->live += b->bytes;
	if (kind == BUF_ALLOC) {
		X->live += X->o->alloc_overhead;
		X->res->mem.allocations++;
		X->res->mem.alloc_bytes += b->bytes;
	}
	mem_step(X);
	return X->nbufs - 1;
}

void
buf_release(Exec *X, int h, const BInst *by)
{
	Buf *b = &X->bufs[h];

	/* the payload goes back now; a use after free gets fresh poison
	 * (buf_data), so stale data cannot look right by luck */
	b->freed = true;
	b->freed_by = by;
	mem_free(b->data);
	b->data = NULL;
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
	}
	return b->data;
}

void
bufs_free(Exec *X)
{
	for (int i = 0; i < X->nbufs; i++) {
		mem_free(X->bufs[i].data);
		mem_free(X->bufs[i].vers);
	}
	mem_free(X->bufs);
	X->bufs = NULL;
	X->nbufs = 0;
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
	nv->buffer = buffer;
	nv->launch = X->cur_in;
	nv->count = 1;
	if (v) { /* element li of the view, row-major, as an index */
		nv->rank = v->rank;
		for (int d = v->rank - 1; d >= 0; d--) {
			int64_t s = v->sizes[d] ? v->sizes[d] : 1;
			nv->elem[d] = li % s;
			li /= s;
		}
	}
	if (detail)
		snprintf(nv->detail, sizeof nv->detail, "%s", detail);
	nv->bufkind = -1;
	if (buffer >= 0 && buffer < X->nbufs) {
		const Buf *b = &X->bufs[buffer];
		nv->bufkind = b->kind == BUF_INPUT ? 0 : b->kind == BUF_CONST ? 1 : 2;
		nv->made = b->made;
		nv->owner = b->owner;
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

uint8_t *
undef_carry(Exec *X, int h, const View *v, uint32_t dest_ver,
	    const View *slice, uint32_t src_ver, int hs, const View *vs)
{
	Buf *b = &X->bufs[h];
	uint8_t *map;
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
	if (version_partly_undef(X, dest_ver))
		VIEW_WALK(v, pos, li, {
			map[pos] = version_undef_at(X, dest_ver, h, pos);
			(void)li;
		});
	VIEW_WALK(slice, pos, li, {
		map[pos] = version_undef_at(X, src_ver, hs, view_pos(vs, li));
	});
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

int64_t
shadow_mismatch(Exec *X, int h, const View *v, uint32_t want, uint32_t *found)
{
	Buf *b = &X->bufs[h];
	const uint8_t *undef = undef_map(X, want, h);
	int64_t bad = -1;

	if (version_undef(X, want))
		return -1; /* any version refines an undefined element */
	if (b->uniform && !undef) {
		int64_t tot = 1;
		for (int d = 0; d < v->rank; d++)
			tot *= v->sizes[d];
		if (b->ver != want && tot > 0) {
			*found = b->ver;
			return 0;
		}
		return -1;
	}
	VIEW_WALK(v, pos, li, {
		uint32_t have = b->uniform ? b->ver : b->vers[pos];
		if (stale_at(have, want, undef, pos)) {
			*found = have;
			bad = li;
			break;
		}
	});
	return bad;
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

	if ((b->uniform && b->ver == want) || version_undef(X, want))
		return -1;
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

/* One tag per element from now on. */
static void
shadow_expand(Exec *X, Buf *b)
{
	if (!b->vers)
		b->vers = xalloc(X, (size_t)(b->n ? b->n : 1) * sizeof *b->vers);
	for (int64_t i = 0; i < b->n; i++)
		b->vers[i] = b->ver;
	b->uniform = false;
}

void
shadow_write(Exec *X, int h, const View *v, uint32_t ver)
{
	Buf *b = &X->bufs[h];

	if (covers_whole(b, v)) {
		b->uniform = true;
		b->ver = ver;
		return;
	}
	if (b->uniform)
		shadow_expand(X, b);
	VIEW_WALK(v, pos, li, { b->vers[pos] = ver; (void)li; });
}

void
shadow_copy(Exec *X, int hd, const View *vd, int hs, const View *vs)
{
	Buf *s = &X->bufs[hs];
	uint32_t *tags;
	int64_t n = 1;

	if (s->uniform) {
		shadow_write(X, hd, vd, s->ver);
		return;
	}
	for (int d = 0; d < vs->rank; d++)
		n *= vs->sizes[d];
	/* through a buffer of tags: source and destination may overlap */
	tags = xalloc(X, (size_t)(n ? n : 1) * sizeof *tags);
	VIEW_WALK(vs, pos, li, { tags[li] = s->vers[pos]; });
	if (X->bufs[hd].uniform)
		shadow_expand(X, &X->bufs[hd]);
	VIEW_WALK(vd, pos, li, { X->bufs[hd].vers[pos] = tags[li]; });
	mem_free(tags);
}
