/*
 * eval.c: the reference interpreter.
 *
 * Value semantics, literally: every op makes a fresh tensor whose data the
 * kernels (kernels.c) compute and whose definedness (Tensor.def) this file
 * computes, form by form.  A tensor is never written once it is bound to a
 * value, so several values that are the same value (yield, await, iter
 * args, call args and results, copy) share one tensor through a
 * refcounted Box.  Scalars are rank-0 tensors; a future is a Box holding
 * the boxes its region yielded, and an async region simply runs at its
 * launch (value semantics ignores streams).
 *
 * Each call has a Frame: an environment of boxes indexed by a per-function
 * slot number (Run.slot[Value.id]).  A value is unbound right after the
 * last op of its block that uses it (that op's regions included: a value
 * read inside a loop body lives until the loop ends), computed once per
 * run (dead_fill); an unused one right after the op that made it (a block
 * arg: after the block's first op); what a terminator yields stays until
 * the block finishes.  A tensor goes when its last box does.  A tensor
 * that an op's kernel writes entirely is not zeroed first.  Live payload
 * bytes are counted as tensors are made and freed and checked against
 * Limits.max_bytes; inputs count too, for the whole run (the caller owns
 * them); the peak is RefStats.peak_bytes.
 *
 * Errors: an eval function frees whatever it made and returns -1 with the
 * Diag set at the op (or operand) location; frames release their
 * environments on the way out, so nothing leaks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "budget.h"

typedef struct Box Box;
struct Box {
	int refs;
	bool borrowed;  /* an input tensor: the caller owns it */
	Tensor *t;      /* a tensor or scalar; NULL for a future */
	Box **elems;    /* a future: the values its region yielded */
	int nelems;
};

typedef struct Run {
	const Program *p;
	const Limits *lim;
	Diag *d;
	int *slot;       /* Value.id -> slot in its function's frame */
	int *nslots;     /* slots per function, indexed like p->funcs */
	int64_t bytes;   /* live payload bytes */
	int64_t trips;   /* loop iterations so far, all loops */
	int64_t peak;    /* max of bytes */
	int depth;       /* active calls, the entry function included */
	const Op *failed; /* the assert that failed: the run ends, rc 1 */
	/* last uses: the values to unbind after op (by Op.seq), as a list
	 * through dead_next (by Value.id); -1 ends it */
	int *dead_head, *dead_next, *last;
	Budget budget;   /* work and wall clock (budget.h) */
} Run;

/* A running forall: the results its parallel_insert_slices fill, and
 * which trip (1-based) wrote each element, to find overlaps. */
typedef struct Gather Gather;
struct Gather {
	const Op *op;
	Tensor **outs;
	uint64_t **owner;
	uint64_t trip;
	Gather *up;
};

typedef struct Frame {
	Run *run;
	Box **env;
	int nslots;
	Gather *par;     /* innermost running forall, or NULL */
} Frame;

/* A literal operand as a rank-0 tensor on the stack (no allocation). */
typedef struct Lit {
	Tensor t;
	union {
		double f;
		int64_t i;
	} u;
} Lit;

typedef int (*EvalFn)(Frame *f, const Op *op);
static int exec_block(Frame *f, const Block *b, Type *const *types,
		      Box **outs, int nouts);
static int run_func(Frame *f, const Func *fn, Box **outs);

/* ------------------------------------------------ tensors and boxes */

static int
oom(Run *r, Loc loc)
{
	return diag_set(r->d, loc, "out of memory");
}

static int64_t
t_bytes(const Tensor *t)
{
	return t->n * (int64_t)dtype_size(t->dt);
}

/* Charge n units of work at loc (budget.h): 0, or -1 past a limit. */
static int
charge(Run *r, Loc loc, int64_t n)
{
	char why[160];

	if (!budget_charge(&r->budget, n, why, sizeof why))
		return 0;
	return diag_set(r->d, loc, "%s", why);
}

/* A new tensor, within the element and live-byte limits: zeroed, or
 * (t_new_raw) not, for a kernel that writes every element. */
static Tensor *
t_alloc(Run *r, Loc loc, DType dt, int rank, const int64_t *dims, bool zero)
{
	int64_t n = 1, bytes;
	Tensor *t;

	for (int i = 0; i < rank; i++)
		n = dims[i] && n > INT64_MAX / dims[i] ? INT64_MAX
						       : n * dims[i];
	if (n > r->lim->max_elems) {
		diag_set(r->d, loc,
			 "tensor of %lld elements is over the limit of %lld",
			 (long long)n, (long long)r->lim->max_elems);
		return NULL;
	}
	bytes = n > INT64_MAX / 8 ? INT64_MAX : n * (int64_t)dtype_size(dt);
	if (bytes > r->lim->max_bytes - r->bytes) {
		diag_set(r->d, loc,
			 "live tensors need %lld bytes, over the limit of %lld",
			 (long long)(r->bytes + bytes),
			 (long long)r->lim->max_bytes);
		return NULL;
	}
	if (charge(r, loc, n) < 0) /* every value is made here */
		return NULL;
	if (!(t = tensor_alloc(dt, rank, dims, zero))) {
		oom(r, loc);
		return NULL;
	}
	r->bytes += bytes;
	if (r->bytes > r->peak)
		r->peak = r->bytes;
	return t;
}

static Tensor *
t_new(Run *r, Loc loc, DType dt, int rank, const int64_t *dims)
{
	return t_alloc(r, loc, dt, rank, dims, true);
}

static Tensor *
t_new_raw(Run *r, Loc loc, DType dt, int rank, const int64_t *dims)
{
	return t_alloc(r, loc, dt, rank, dims, false);
}

static void
t_free(Run *r, Tensor *t)
{
	if (!t)
		return;
	r->bytes -= t_bytes(t);
	tensor_free(t);
}

/* Give t a def array filled with v, unless it has one already. */
static int
def_ensure(Run *r, Loc loc, Tensor *t, uint8_t v)
{
	if (t->def)
		return 0;
	if (!(t->def = mem_alloc((size_t)(t->n ? t->n : 1))))
		return oom(r, loc);
	memset(t->def, v, (size_t)t->n);
	return 0;
}

/* Drop a def array that says every element is defined. */
static void
def_settle(Tensor *t)
{
	if (!t->def)
		return;
	for (int64_t i = 0; i < t->n; i++)
		if (!t->def[i])
			return;
	mem_free(t->def);
	t->def = NULL;
}

/* The whole of t's data, or of its def bytes as an i1 view. */
static View
whole_view(const Tensor *t, bool def)
{
	View v = view_of(t);

	if (def) {
		v.base = t->def;
		v.dt = DT_I1;
	}
	return v;
}

/* A strided window of t (data or def): offs, sizes and steps per dim. */
static View
sub_view(const Tensor *t, bool def, const int64_t *offs,
	 const int64_t *sizes, const int64_t *steps)
{
	View v = whole_view(t, def);

	v.off = 0;
	for (int i = 0; i < t->rank; i++) {
		v.off += offs[i] * v.strides[i];
		v.sizes[i] = sizes[i];
		v.strides[i] *= steps[i];
	}
	return v;
}

/* Element li of t (data or def) as a rank-0 view. */
static View
elem_view(const Tensor *t, bool def, int64_t li)
{
	View v = whole_view(t, def);

	v.rank = 0;
	v.off = li;
	return v;
}

/* t as an operand of a result shaped like out: a rank-0 operand of a
 * ranked result is broadcast (all strides 0). */
static View
bcast_view(const Tensor *t, const Tensor *out)
{
	View v = view_of(t);

	if (t->rank == out->rank)
		return v;
	v.rank = out->rank;
	for (int i = 0; i < out->rank; i++) {
		v.sizes[i] = out->dims[i];
		v.strides[i] = 0;
	}
	return v;
}

/* A new tensor equal to a, data and poison. */
static Tensor *
t_dup(Run *r, Loc loc, const Tensor *a)
{
	Tensor *t = t_new_raw(r, loc, a->dt, a->rank, a->dims);
	View vo, va;

	if (!t)
		return NULL;
	vo = view_of(t);
	va = view_of(a);
	k_copy(&vo, &va);
	if (a->def) {
		if (def_ensure(r, loc, t, 1) < 0) {
			t_free(r, t);
			return NULL;
		}
		memcpy(t->def, a->def, (size_t)a->n);
	}
	return t;
}

/* A box holding t (freed on failure). */
static Box *
box_new(Run *r, Loc loc, Tensor *t)
{
	Box *b = mem_calloc(1, sizeof *b);

	if (!b) {
		t_free(r, t);
		oom(r, loc);
		return NULL;
	}
	b->refs = 1;
	b->t = t;
	return b;
}

static Box *
box_ref(Box *b)
{
	b->refs++;
	return b;
}

static void
box_unref(Run *r, Box *b)
{
	if (!b || --b->refs > 0)
		return;
	if (!b->borrowed)
		t_free(r, b->t);
	for (int k = 0; k < b->nelems; k++)
		box_unref(r, b->elems[k]);
	mem_free(b->elems);
	mem_free(b);
}

static Box **
boxes_new(Run *r, Loc loc, int n)
{
	Box **bs = mem_calloc((size_t)(n ? n : 1), sizeof *bs);

	if (!bs)
		oom(r, loc);
	return bs;
}

static void
boxes_free(Run *r, Box **bs, int n)
{
	if (!bs)
		return;
	for (int k = 0; k < n; k++)
		box_unref(r, bs[k]);
	mem_free(bs);
}

/* ------------------------------------------------------ environment */

static Box **
slotp(Frame *f, const Value *v)
{
	int s = f->run->slot[v->id];

	if (s < 0 || s >= f->nslots)
		abort(); /* a value of another function: the verifier rejects it */
	return &f->env[s];
}

/* Bind v to b, taking over b's reference (b NULL unbinds). */
static void
bind(Frame *f, const Value *v, Box *b)
{
	Box **s = slotp(f, v);

	box_unref(f->run, *s);
	*s = b;
}

static Box *
lookup(Frame *f, const Value *v)
{
	Box *b = *slotp(f, v);

	if (!b)
		abort(); /* use before definition: the verifier rejects it */
	return b;
}

/* Bind result k of op to the new tensor t (freed on failure). */
static int
bind_new(Frame *f, const Op *op, int k, Tensor *t)
{
	Box *b = box_new(f->run, op->loc, t);

	if (!b)
		return -1;
	bind(f, op->res[k], b);
	return 0;
}

/* Bind op's results to outs[] (their references move to the env). */
static void
bind_results(Frame *f, const Op *op, Box **outs)
{
	for (int k = 0; k < op->nres; k++) {
		bind(f, op->res[k], outs[k]);
		outs[k] = NULL;
	}
}

/* Unbind the values a block defined (its args and its ops' results). */
static void
clear_block(Frame *f, const Block *b)
{
	for (int k = 0; k < b->nargs; k++)
		bind(f, b->args[k], NULL);
	for (int i = 0; i < b->nops; i++)
		for (int k = 0; k < b->ops[i]->nres; k++)
			bind(f, b->ops[i]->res[k], NULL);
}

static int
func_index(const Program *p, const Func *fn)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] == fn)
			return i;
	return -1;
}

/* Number every value within its function: frames are that small. */
static int
slots_init(Run *r, Loc loc)
{
	const Program *p = r->p;
	const Func *last = NULL;
	int fi = -1;

	r->slot = mem_alloc((size_t)(p->nvalues ? p->nvalues : 1) * sizeof(int));
	r->nslots = mem_calloc((size_t)(p->nfuncs ? p->nfuncs : 1), sizeof(int));
	if (!r->slot || !r->nslots)
		return oom(r, loc);
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];

		if (v->func != last) {
			last = v->func;
			fi = func_index(p, last);
		}
		r->slot[id] = fi < 0 ? -1 : r->nslots[fi]++;
	}
	return 0;
}

/* ------------------------------------------------------- last uses */

/* The block a value is defined in (a param: its function's body). */
static const Block *
def_block(const Value *v)
{
	if (v->def)
		return v->def->parent;
	if (v->owner)
		return v->owner;
	return v->func ? v->func->body : NULL;
}

/* u is used by the op of v's block that is u or holds u in a region. */
static void
dead_use(Run *r, const Op *u, const Value *v)
{
	const Block *b;

	if (!v)
		return;
	b = def_block(v);
	while (u && u->parent != b)
		u = u->parent ? u->parent->parent : NULL;
	if (u && u->index > r->last[v->id])
		r->last[v->id] = u->index;
}

/* After which op each value can go: its last use in its own block; what
 * the block's terminator uses stays until clear_block. */
static int
dead_fill(Run *r, Loc loc)
{
	const Program *p = r->p;
	int nv = p->nvalues ? p->nvalues : 1;

	r->last = mem_alloc((size_t)nv * sizeof *r->last);
	r->dead_next = mem_alloc((size_t)nv * sizeof *r->dead_next);
	r->dead_head = mem_alloc((size_t)(p->nops ? p->nops : 1) *
				 sizeof *r->dead_head);
	if (!r->last || !r->dead_next || !r->dead_head)
		return oom(r, loc);
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		r->last[id] = v->def ? v->def->index : 0;
	}
	for (int i = 0; i < p->nops; i++)
		r->dead_head[i] = -1;
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		for (int k = 0; k < v->nuses; k++)
			dead_use(r, v->uses[k], v);
	}
	for (int id = 0; id < p->nvalues; id++) {
		const Value *v = p->values[id];
		const Block *b = def_block(v);
		const Op *at;

		if (!b || r->last[id] >= b->nops)
			continue;
		at = b->ops[r->last[id]];
		if (op_info[at->kind].form >= F_YIELD)
			continue; /* a terminator's operand, or an empty block */
		r->dead_next[id] = r->dead_head[at->seq];
		r->dead_head[at->seq] = id;
	}
	return 0;
}

/* Unbind the values whose last use was op. */
static void
dead_drop(Frame *f, const Op *op)
{
	Run *r = f->run;

	for (int id = r->dead_head[op->seq]; id >= 0; id = r->dead_next[id])
		bind(f, r->p->values[id], NULL);
}

static int
frame_init(Run *r, Frame *f, const Func *fn, Loc loc)
{
	int fi = func_index(r->p, fn);

	f->run = r;
	f->nslots = fi < 0 ? 0 : r->nslots[fi];
	f->env = mem_calloc((size_t)(f->nslots ? f->nslots : 1), sizeof(Box *));
	return f->env ? 0 : oom(r, loc);
}

static void
frame_free(Frame *f)
{
	if (!f->env)
		return;
	for (int s = 0; s < f->nslots; s++)
		box_unref(f->run, f->env[s]);
	mem_free(f->env);
	f->env = NULL;
}

/* ---------------------------------------------------------- operands */

static Loc
oploc(const Operand *o, const Op *op)
{
	return o->loc.line ? o->loc : op->loc;
}

static const char *
oname(const Operand *o)
{
	return o->v ? o->v->name : "?";
}

static int
type_rank(const Type *t)
{
	return t->kind == TY_TENSOR ? t->rank : 0;
}

static void
lit_init(Lit *l, DType dt)
{
	memset(l, 0, sizeof *l);
	l->t.dt = dt;
	l->t.n = 1;
	l->t.data = &l->u;
}

/* Element k of a constant's payload into element at of t. */
static void
const_put(Tensor *t, int64_t at, const ConstData *c, int64_t k)
{
	if (dtype_is_float(t->dt) ? c->f != NULL : c->i == NULL)
		tensor_setf(t, at, c->f ? c->f[k] : 0);
	else
		tensor_seti(t, at, c->i[k]);
}

/* An operand as a tensor: a value's, or a literal of dtype dt in l. */
static const Tensor *
operand(Frame *f, const Operand *o, DType dt, Lit *l)
{
	if (o->v)
		return lookup(f, o->v)->t;
	lit_init(l, dt);
	if (dtype_is_float(dt))
		tensor_setf(&l->t, 0, o->isfloat ? o->f : (double)o->i);
	else
		tensor_seti(&l->t, 0, o->i);
	return &l->t;
}

/* An operand as a new box reference (literals get a tensor of dtype dt). */
static Box *
operand_box(Frame *f, const Op *op, const Operand *o, DType dt)
{
	Lit l;
	Tensor *t;

	if (o->v)
		return box_ref(lookup(f, o->v));
	if (!(t = t_dup(f->run, op->loc, operand(f, o, dt, &l))))
		return NULL;
	return box_new(f->run, op->loc, t);
}

/* A defined integer scalar operand (bound, step, offset, index, dim). */
static int
read_int(Frame *f, const Op *op, const Operand *o, const char *what,
	 int64_t *out)
{
	Lit l;
	const Tensor *t = operand(f, o, DT_INDEX, &l);

	if (!tensor_defined(t, 0))
		return diag_set(f->run->d, oploc(o, op), "%s %%%s is undefined",
				what, oname(o));
	*out = tensor_geti(t, 0);
	return 0;
}

/* ---------------------------------------------------- shape messages */

static const char *
shape_str(const Tensor *t, char *buf, size_t n)
{
	size_t len = 0;

	if (t->rank == 0)
		snprintf(buf, n, "scalar");
	for (int i = 0; i < t->rank && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%lld",
					i ? "x" : "", (long long)t->dims[i]);
	return buf;
}

/* t as a type, e.g. "tensor<5x4xf32>", or "f32" for a scalar. */
static const char *
tensor_type_str(const Tensor *t, bool scalar, char *buf, size_t n)
{
	char s[256];

	if (scalar && t->rank == 0)
		snprintf(buf, n, "%s", dtype_names[t->dt]);
	else if (t->rank == 0)
		snprintf(buf, n, "tensor<%s>", dtype_names[t->dt]);
	else
		snprintf(buf, n, "tensor<%sx%s>", shape_str(t, s, sizeof s),
			 dtype_names[t->dt]);
	return buf;
}

static bool
same_shape(const Tensor *a, const Tensor *b)
{
	if (a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

static int
shape_mismatch(Run *r, Loc loc, const Operand *a, const Tensor *ta,
	       const Operand *b, const Tensor *tb)
{
	char sa[256], sb[256];

	return diag_set(r->d, loc, "shape mismatch: %%%s is %s but %%%s is %s",
			oname(a), shape_str(ta, sa, sizeof sa), oname(b),
			shape_str(tb, sb, sizeof sb));
}

/* Does a run-time tensor fit a declared type (`?` takes any size)? */
static bool
fits(const Tensor *t, const Type *ty)
{
	if (ty->kind == TY_FUTURE || t->dt != ty->dt ||
	    t->rank != type_rank(ty))
		return false;
	for (int i = 0; i < t->rank; i++)
		if (ty->dims[i] != DIM_DYN && ty->dims[i] != t->dims[i])
			return false;
	return true;
}

/* "WHAT is TYPE, expected TYPE" unless t fits ty. */
static int
check_fits(Run *r, Loc loc, const Tensor *t, const Type *ty,
	   const char *what)
{
	char got[300], want[300];

	if (fits(t, ty))
		return 0;
	return diag_set(r->d, loc, "%s is %s, expected %s", what,
			tensor_type_str(t, ty->kind == TY_SCALAR, got, sizeof got),
			type_str(ty, want, sizeof want));
}

/*
 * The shape of an elementwise result of rank `rank`: every operand of
 * that rank must have the same shape; rank-0 operands broadcast.
 */
static int
ew_shape(Frame *f, const Op *op, const Tensor *const *ts,
	 const Operand *const *os, int n, int rank, int64_t *dims)
{
	int first = -1;

	for (int k = 0; k < n; k++) {
		if (!ts[k] || (ts[k]->rank == 0 && rank > 0))
			continue;
		if (first < 0)
			first = k;
		if (ts[k]->rank != rank || !same_shape(ts[k], ts[first]))
			return shape_mismatch(f->run, op->loc, os[first],
					      ts[first], os[k], ts[k]);
	}
	for (int i = 0; i < rank; i++) {
		dims[i] = first < 0 ? op->type->dims[i] : ts[first]->dims[i];
		if (dims[i] < 0)
			return diag_set(f->run->d, op->loc,
					"the result shape is unknown");
	}
	return 0;
}

/* ------------------------------------------------------------ poison */

/* Elementwise: out[i] is defined when every input element it reads is
 * (a rank-0 input is read by every element). */
static int
def_elementwise(Run *r, Loc loc, Tensor *t, const Tensor *a,
		const Tensor *b)
{
	const Tensor *in[2] = {a, b};

	if (!(a && a->def) && !(b && b->def))
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	for (int k = 0; k < 2; k++) {
		bool bc;

		if (!in[k] || !in[k]->def)
			continue;
		bc = in[k]->rank != t->rank;
		for (int64_t i = 0; i < t->n; i++)
			if (!in[k]->def[bc ? 0 : i])
				t->def[i] = 0;
	}
	def_settle(t);
	return 0;
}

/* matmul: r[i,j] is undefined when c[i,j], a[i,:] or b[:,j] is. */
static int
def_matmul(Run *r, Loc loc, Tensor *t, const Tensor *a, const Tensor *b)
{
	int64_t m = a->dims[0], k = a->dims[1], n = b->dims[1];
	uint8_t *bad;

	if (!a->def && !b->def)
		return 0;
	if (!(bad = mem_calloc((size_t)(m + n ? m + n : 1), 1)))
		return oom(r, loc);
	for (int64_t i = 0; i < m * k && a->def; i++)
		if (!a->def[i])
			bad[i / k] = 1;
	for (int64_t i = 0; i < k * n && b->def; i++)
		if (!b->def[i])
			bad[m + i % n] = 1;
	if (def_ensure(r, loc, t, 1) < 0) {
		mem_free(bad);
		return -1;
	}
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++)
			if (bad[i] || bad[m + j])
				t->def[i * n + j] = 0;
	mem_free(bad);
	def_settle(t);
	return 0;
}

/* reduce: out[j] is undefined when d[j] or any element folded into it is. */
static int
def_reduce(Run *r, Loc loc, Tensor *t, const Tensor *a, const int *dims,
	   int ndims)
{
	int64_t ost[MAXRANK], idx[MAXRANK] = {0}, s = 1;
	bool folded[MAXRANK] = {false};

	if (!a->def)
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	for (int k = 0; k < ndims; k++)
		folded[dims[k]] = true;
	/* ost[i]: the stride of a's dim i in the result (0 when folded) */
	for (int i = a->rank - 1; i >= 0; i--) {
		ost[i] = folded[i] ? 0 : s;
		if (!folded[i])
			s *= a->dims[i];
	}
	for (int64_t i = 0; i < a->n; i++) {
		if (!a->def[i]) {
			int64_t oi = 0;

			for (int j = 0; j < a->rank; j++)
				oi += idx[j] * ost[j];
			t->def[oi] = 0;
		}
		for (int j = a->rank - 1; j >= 0 && ++idx[j] == a->dims[j]; j--)
			idx[j] = 0;
	}
	def_settle(t);
	return 0;
}

/* --------------------------------------------------- one op per form */

static int
eval_const(Frame *f, const Op *op)
{
	const ConstData *c = &op->cdata;
	const Type *ty = op->type;
	Tensor *t = t_new(f->run, op->loc, ty->dt, type_rank(ty), ty->dims);

	if (!t)
		return -1;
	if (c->splat || c->n == 1) {
		Lit l;
		View vo = view_of(t), vl;

		lit_init(&l, ty->dt);
		const_put(&l.t, 0, c, 0);
		vl = view_of(&l.t);
		k_fill(&vo, &vl);
	} else {
		for (int64_t i = 0; i < t->n && i < c->n; i++)
			const_put(t, i, c, i);
	}
	return bind_new(f, op, 0, t);
}

static int
eval_empty(Frame *f, const Op *op)
{
	const Type *ty = op->type;
	int64_t dims[MAXRANK];
	int rank = type_rank(ty), k = 0;
	Tensor *t;

	for (int i = 0; i < rank; i++) {
		dims[i] = ty->dims[i];
		if (dims[i] != DIM_DYN)
			continue;
		if (k >= op->nargs)
			return diag_set(f->run->d, op->loc,
					"empty needs a size for dim %d", i);
		if (read_int(f, op, &op->args[k], "dimension", &dims[i]) < 0)
			return -1;
		if (dims[i] < 0)
			return diag_set(f->run->d, oploc(&op->args[k], op),
					"dimension %%%s is %lld, must be >= 0",
					oname(&op->args[k]), (long long)dims[i]);
		k++;
	}
	if (!(t = t_new(f->run, op->loc, ty->dt, rank, dims)))
		return -1;
	if (def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* binary and unary elementwise ops (b NULL for unary) */
static int
eval_elementwise(Frame *f, const Op *op, bool binary)
{
	DType dt = op->type->dt;
	Lit la, lb;
	const Tensor *a = operand(f, &op->args[0], dt, &la);
	const Tensor *b = binary ? operand(f, &op->args[1], dt, &lb) : NULL;
	const Tensor *d = op->hasdest ? lookup(f, op->dest.v)->t : NULL;
	const Tensor *ts[3] = {a, b, d};
	const Operand *os[3] = {&op->args[0], binary ? &op->args[1] : NULL,
				&op->dest};
	int64_t dims[MAXRANK];
	int rank = type_rank(op->type);
	Tensor *t;
	View vo, va, vb;

	if (ew_shape(f, op, ts, os, 3, rank, dims) < 0)
		return -1;
	if (!(t = t_new_raw(f->run, op->loc, dt, rank, dims)))
		return -1;
	vo = view_of(t);
	va = bcast_view(a, t);
	if (binary) {
		vb = bcast_view(b, t);
		k_binary(op_info[op->kind].ew, &vo, &va, &vb);
	} else {
		k_unary(op_info[op->kind].ew, &vo, &va);
	}
	if (def_elementwise(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

static int
eval_binary(Frame *f, const Op *op)
{
	return eval_elementwise(f, op, true);
}

static int
eval_unary(Frame *f, const Op *op)
{
	return eval_elementwise(f, op, false);
}

static int
eval_cmp(Frame *f, const Op *op)
{
	DType dt = op->type->dt;
	Lit la, lb;
	const Tensor *a = operand(f, &op->args[0], dt, &la);
	const Tensor *b = operand(f, &op->args[1], dt, &lb);
	Tensor *t = t_new(f->run, op->loc, DT_I1, 0, NULL);
	View vo, va, vb;

	if (!t)
		return -1;
	vo = view_of(t);
	va = view_of(a);
	vb = view_of(b);
	k_cmp(op_info[op->kind].ew, &vo, &va, &vb);
	if (def_elementwise(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

static int
eval_fill(Frame *f, const Op *op)
{
	Lit l;
	const Tensor *v = operand(f, &op->args[0], op->type->dt, &l);
	const Tensor *d = lookup(f, op->dest.v)->t;
	Tensor *t = t_new_raw(f->run, op->loc, op->type->dt, d->rank, d->dims);
	View vo, vv;

	if (!t)
		return -1;
	vo = view_of(t);
	vv = view_of(v);
	k_fill(&vo, &vv);
	if (!tensor_defined(v, 0) && def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

static int
eval_matmul(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *b = lookup(f, op->args[1].v)->t;
	const Tensor *c = lookup(f, op->dest.v)->t;
	char sa[256], sb[256], sc[256];
	Tensor *t;
	View vo, va, vb;

	if (a->rank != 2 || b->rank != 2 || c->rank != 2 ||
	    a->dims[1] != b->dims[0] || c->dims[0] != a->dims[0] ||
	    c->dims[1] != b->dims[1])
		return diag_set(f->run->d, op->loc,
				"matmul shape mismatch: %%%s is %s, %%%s is %s, "
				"%%%s is %s", oname(&op->args[0]),
				shape_str(a, sa, sizeof sa), oname(&op->args[1]),
				shape_str(b, sb, sizeof sb), oname(&op->dest),
				shape_str(c, sc, sizeof sc));
	if (charge(f->run, op->loc, work_mul(work_mul(a->dims[0], a->dims[1]),
					     b->dims[1])) < 0 ||
	    !(t = t_dup(f->run, op->loc, c)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	vb = view_of(b);
	if (k_matmul(&vo, &va, &vb) != 0) {
		t_free(f->run, t);
		return oom(f->run, op->loc);
	}
	if (def_matmul(f->run, op->loc, t, a, b) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

static int
eval_transpose(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	Tensor *t;
	View vo, va;

	if (a->rank != d->rank || op->nperm != a->rank)
		return shape_mismatch(f->run, op->loc, &op->args[0], a,
				      &op->dest, d);
	for (int j = 0; j < a->rank; j++)
		if (a->dims[op->perm[j]] != d->dims[j])
			return shape_mismatch(f->run, op->loc, &op->args[0],
					      a, &op->dest, d);
	if (!(t = t_new_raw(f->run, op->loc, a->dt, d->rank, d->dims)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	k_transpose(&vo, &va, op->perm);
	if (a->def) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		vo = whole_view(t, true);
		va = whole_view(a, true);
		k_transpose(&vo, &va, op->perm);
	}
	return bind_new(f, op, 0, t);
}

static int
eval_reduce(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	bool folded[MAXRANK] = {false};
	int j = 0;
	Tensor *t;
	View vo, va;

	for (int k = 0; k < op->nperm; k++)
		folded[op->perm[k]] = true;
	for (int i = 0; i < a->rank; i++) {
		if (folded[i])
			continue;
		if (j >= d->rank || a->dims[i] != d->dims[j])
			return shape_mismatch(f->run, op->loc, &op->args[0],
					      a, &op->dest, d);
		j++;
	}
	if (j != d->rank)
		return shape_mismatch(f->run, op->loc, &op->args[0], a,
				      &op->dest, d);
	if (charge(f->run, op->loc, a->n) < 0 ||
	    !(t = t_dup(f->run, op->loc, d)))
		return -1;
	vo = view_of(t);
	va = view_of(a);
	k_reduce(op_info[op->kind].ew, &vo, &va, op->perm, op->nperm);
	if (def_reduce(f->run, op->loc, t, a, op->perm, op->nperm) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* Read a slice's offsets and check that it lies inside t (the value of
 * operand of). */
static int
slice_offsets(Frame *f, const Op *op, const Tensor *t, const Operand *of,
	      int64_t *offs)
{
	const char *name = op_info[op->kind].name;

	if (op->noffs != t->rank)
		return diag_set(f->run->d, op->loc,
				"%s has %d offsets for %%%s of rank %d", name,
				op->noffs, oname(of), t->rank);
	for (int i = 0; i < t->rank; i++) {
		const Operand *o = &op->offs[i];
		int64_t off, sz = op->sizes[i], st = op->strides[i];
		int64_t dim = t->dims[i];

		if (read_int(f, op, o, "offset", &off) < 0)
			return -1;
		if (st < 1)
			return diag_set(f->run->d, op->loc,
					"%s stride %lld must be >= 1", name,
					(long long)st);
		if (off < 0)
			return diag_set(f->run->d, oploc(o, op),
					"%s out of bounds: offset %lld is "
					"negative in dim %d of %%%s", name,
					(long long)off, i, oname(of));
		if (sz > 0 ? off >= dim || sz - 1 > (dim - 1 - off) / st
			   : off > dim)
			return diag_set(f->run->d, oploc(o, op),
					"%s out of bounds: offset %lld + (size "
					"%lld - 1) * stride %lld exceeds dim "
					"%lld of %%%s", name, (long long)off,
					(long long)sz, (long long)st,
					(long long)dim, oname(of));
		offs[i] = off;
	}
	return 0;
}

static int
eval_extract_slice(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	int64_t offs[MAXRANK];
	Tensor *t;
	View vo, vs;

	if (slice_offsets(f, op, a, &op->args[0], offs) < 0)
		return -1;
	if (!(t = t_new_raw(f->run, op->loc, a->dt, a->rank, op->sizes)))
		return -1;
	vo = view_of(t);
	vs = sub_view(a, false, offs, op->sizes, op->strides);
	k_copy(&vo, &vs);
	if (a->def) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		vo = whole_view(t, true);
		vs = sub_view(a, true, offs, op->sizes, op->strides);
		k_copy(&vo, &vs);
		def_settle(t);
	}
	return bind_new(f, op, 0, t);
}

/* The slice's poison in t: s's def bytes, or all defined. */
static int
def_insert_slice(Run *r, Loc loc, Tensor *t, const Tensor *s,
		 const int64_t *offs, const Op *op)
{
	View vd;

	if (!t->def && !s->def)
		return 0;
	if (def_ensure(r, loc, t, 1) < 0)
		return -1;
	vd = sub_view(t, true, offs, op->sizes, op->strides);
	if (s->def) {
		View vs = whole_view(s, true);

		k_copy(&vd, &vs);
	} else {
		Lit one;
		View vl;

		lit_init(&one, DT_I1);
		tensor_seti(&one.t, 0, 1);
		vl = view_of(&one.t);
		k_fill(&vd, &vl);
	}
	def_settle(t);
	return 0;
}

static int
eval_insert_slice(Frame *f, const Op *op)
{
	const Tensor *s = lookup(f, op->args[0].v)->t;
	const Tensor *d = lookup(f, op->dest.v)->t;
	int64_t offs[MAXRANK];
	char ss[256], sz[256];
	Tensor *t;
	View vo, vs;

	if (slice_offsets(f, op, d, &op->dest, offs) < 0)
		return -1;
	for (int i = 0; i < s->rank || i < d->rank; i++)
		if (s->rank != d->rank || s->dims[i] != op->sizes[i]) {
			Tensor sl = {.rank = d->rank};

			memcpy(sl.dims, op->sizes, sizeof sl.dims);
			return diag_set(f->run->d, op->loc,
					"shape mismatch: %%%s is %s but the "
					"slice is %s", oname(&op->args[0]),
					shape_str(s, ss, sizeof ss),
					shape_str(&sl, sz, sizeof sz));
		}
	if (!(t = t_dup(f->run, op->loc, d)))
		return -1;
	vo = sub_view(t, false, offs, op->sizes, op->strides);
	vs = view_of(s);
	k_copy(&vo, &vs);
	if (def_insert_slice(f->run, op->loc, t, s, offs, op) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

/* The row-major position of the element op's indices name in t. */
static int
elem_index(Frame *f, const Op *op, const Tensor *t, const Operand *of,
	   int64_t *li)
{
	*li = 0;
	if (op->noffs != t->rank)
		return diag_set(f->run->d, op->loc,
				"%s has %d indices for %%%s of rank %d",
				op_info[op->kind].name, op->noffs, oname(of),
				t->rank);
	for (int i = 0; i < t->rank; i++) {
		const Operand *o = &op->offs[i];
		int64_t x;

		if (read_int(f, op, o, "index", &x) < 0)
			return -1;
		if (x < 0 || x >= t->dims[i])
			return diag_set(f->run->d, oploc(o, op),
					"index %lld out of bounds for dim %d of "
					"size %lld", (long long)x, i,
					(long long)t->dims[i]);
		*li = *li * t->dims[i] + x;
	}
	return 0;
}

static int
eval_extract(Frame *f, const Op *op)
{
	const Tensor *a = lookup(f, op->args[0].v)->t;
	int64_t li;
	Tensor *t;
	View vo, va;

	if (elem_index(f, op, a, &op->args[0], &li) < 0)
		return -1;
	if (!(t = t_new(f->run, op->loc, a->dt, 0, NULL)))
		return -1;
	vo = view_of(t);
	va = elem_view(a, false, li);
	k_copy(&vo, &va);
	if (!tensor_defined(a, li) && def_ensure(f->run, op->loc, t, 0) < 0) {
		t_free(f->run, t);
		return -1;
	}
	return bind_new(f, op, 0, t);
}

static int
eval_insert(Frame *f, const Op *op)
{
	Lit l;
	const Tensor *v = operand(f, &op->args[0], op->type->dt, &l);
	const Tensor *a = lookup(f, op->dest.v)->t;
	int64_t li;
	Tensor *t;
	View vo, vv;

	if (elem_index(f, op, a, &op->dest, &li) < 0)
		return -1;
	if (!(t = t_dup(f->run, op->loc, a)))
		return -1;
	vo = elem_view(t, false, li);
	vv = view_of(v);
	k_copy(&vo, &vv);
	if (!tensor_defined(v, 0)) {
		if (def_ensure(f->run, op->loc, t, 1) < 0) {
			t_free(f->run, t);
			return -1;
		}
		t->def[li] = 0;
	} else if (t->def) {
		t->def[li] = 1;
		def_settle(t);
	}
	return bind_new(f, op, 0, t);
}

/* copy: the same value as %a, so the same tensor. */
static int
eval_copy(Frame *f, const Op *op)
{
	Box *a = lookup(f, op->args[0].v);
	const Tensor *d = lookup(f, op->dest.v)->t;

	if (!same_shape(a->t, d))
		return shape_mismatch(f->run, op->loc, &op->args[0], a->t,
				      &op->dest, d);
	bind(f, op->res[0], box_ref(a));
	return 0;
}

/* clone: a real copy, as the op promises a fresh buffer. */
static int
eval_clone(Frame *f, const Op *op)
{
	Tensor *t = t_dup(f->run, op->loc, lookup(f, op->args[0].v)->t);

	return t ? bind_new(f, op, 0, t) : -1;
}

/* from_elements: element i from operand i, its poison with it. */
static int
eval_from_elements(Frame *f, const Op *op)
{
	Tensor *t = t_new(f->run, op->loc, op->type->dt, op->type->rank,
			  op->type->dims);

	if (!t)
		return -1;
	for (int i = 0; i < op->nargs; i++) {
		Lit l;
		const Tensor *e = operand(f, &op->args[i], t->dt, &l);
		View vo = elem_view(t, false, i), ve = view_of(e);

		k_copy(&vo, &ve);
		if (!tensor_defined(e, 0)) {
			if (def_ensure(f->run, op->loc, t, 1) < 0) {
				t_free(f->run, t);
				return -1;
			}
			t->def[i] = 0;
		}
	}
	return bind_new(f, op, 0, t);
}

/* collapse_shape/expand_shape: the same row-major payload, new dims. */
static int
eval_reshape(Frame *f, const Op *op)
{
	Tensor *t = t_dup(f->run, op->loc, lookup(f, op->args[0].v)->t);

	if (!t)
		return -1;
	t->rank = op->type->rank;
	for (int d = 0; d < t->rank; d++)
		t->dims[d] = op->type->dims[d];
	return bind_new(f, op, 0, t);
}

static int
eval_call(Frame *f, const Op *op)
{
	Run *r = f->run;
	const Func *fn = op->fn;
	Frame callee = {0};
	Box **outs = NULL;
	int rc = -1;

	if (r->depth >= r->lim->max_depth)
		return diag_set(r->d, op->loc, "call depth limit of %d reached",
				r->lim->max_depth);
	if (charge(r, op->loc, WORK_CALL) < 0)
		return -1;
	if (frame_init(r, &callee, fn, op->loc) < 0)
		goto out;
	for (int k = 0; k < fn->nparams && k < op->nargs; k++) {
		const Value *pv = fn->params[k];
		const Operand *o = &op->args[k];
		char what[300];
		Box *b = operand_box(f, op, o, pv->type->dt);

		if (!b)
			goto out;
		bind(&callee, pv, b);
		snprintf(what, sizeof what, "argument %%%s of @%s", oname(o),
			 fn->name);
		if (b->t && check_fits(r, oploc(o, op), b->t, pv->type, what) < 0)
			goto out;
	}
	if (!(outs = boxes_new(r, op->loc, fn->nrtypes)))
		goto out;
	r->depth++;
	rc = run_func(&callee, fn, outs);
	r->depth--;
	if (rc == 0)
		bind_results(f, op, outs);
out:
	frame_free(&callee);
	boxes_free(r, outs, fn->nrtypes);
	return rc;
}

static int
eval_if(Frame *f, const Op *op)
{
	const Operand *c = &op->args[0];
	Lit l;
	const Tensor *ct = operand(f, c, DT_I1, &l);
	const Block *b;
	Box **outs;
	int rc;

	if (!tensor_defined(ct, 0))
		return diag_set(f->run->d, oploc(c, op),
				"branch on undefined value %%%s", oname(c));
	b = tensor_geti(ct, 0) ? op->body : op->orelse;
	if (!b)
		return 0;
	if (!(outs = boxes_new(f->run, op->loc, op->nres)))
		return -1;
	rc = exec_block(f, b, op->rtypes, outs, op->nres);
	clear_block(f, b);
	if (rc == 0)
		bind_results(f, op, outs);
	boxes_free(f->run, outs, op->nres);
	return rc;
}

/* Bounds of a for: trips = ceil((ub - lb) / step), no overflow. */
static int
for_bounds(Frame *f, const Op *op, int64_t *lb, int64_t *step,
	   uint64_t *trips)
{
	int64_t ub;

	if (read_int(f, op, &op->args[0], "loop bound", lb) < 0 ||
	    read_int(f, op, &op->args[1], "loop bound", &ub) < 0 ||
	    read_int(f, op, &op->args[2], "loop step", step) < 0)
		return -1;
	if (*step <= 0)
		return diag_set(f->run->d, oploc(&op->args[2], op),
				"loop step must be > 0, got %lld",
				(long long)*step);
	*trips = ub <= *lb ? 0
			   : ((uint64_t)ub - (uint64_t)*lb - 1) /
				     (uint64_t)*step + 1;
	return 0;
}

/* One trip of a for or forall body: iv and iter (shared) args in, the
 * yields out into next[0..nnext) (a forall's trip yields nothing).  A for
 * hands cur over to the body (its last use may free it); a forall keeps
 * its shared args for the next trip. */
static int
loop_trip(Frame *f, const Op *op, int64_t iv, Box **cur, Box **next,
	  int nnext)
{
	bool keep = op_info[op->kind].form == F_FORALL;
	Run *r = f->run;
	const Block *b = op->body;
	Tensor *t;
	Box *ivb;
	int rc;

	if (r->trips >= r->lim->max_trips)
		return diag_set(r->d, op->loc, "loop trip limit of %lld reached",
				(long long)r->lim->max_trips);
	if (charge(r, op->loc, WORK_STEP) < 0)
		return -1;
	r->trips++;
	if (!(t = t_new(r, op->loc, DT_INDEX, 0, NULL)))
		return -1;
	tensor_seti(t, 0, iv);
	if (!(ivb = box_new(r, op->loc, t)))
		return -1;
	bind(f, b->args[0], ivb);
	for (int k = 0; k < op->nres; k++) {
		bind(f, b->args[1 + k], keep ? box_ref(cur[k]) : cur[k]);
		if (!keep)
			cur[k] = NULL;
	}
	rc = exec_block(f, b, op->rtypes, next, nnext);
	clear_block(f, b);
	return rc;
}

static int
eval_for(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1;
	int64_t lb = 0, step = 1;
	uint64_t trips = 0;
	Box **cur = NULL, **next = NULL;

	if (for_bounds(f, op, &lb, &step, &trips) < 0)
		return -1;
	if (!(cur = boxes_new(r, op->loc, n)) ||
	    !(next = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++)
		if (!(cur[k] = operand_box(f, op, &op->args[3 + k],
					   op->rtypes[k]->dt)))
			goto out;
	for (uint64_t i = 0; i < trips; i++) {
		Box **tmp;
		int64_t iv = (int64_t)((uint64_t)lb + i * (uint64_t)step);

		if (loop_trip(f, op, iv, cur, next, op->nres) < 0)
			goto out;
		for (int k = 0; k < n; k++) {
			box_unref(r, cur[k]);
			cur[k] = NULL;
		}
		tmp = cur, cur = next, next = tmp;
	}
	bind_results(f, op, cur);
	rc = 0;
out:
	boxes_free(r, cur, n);
	boxes_free(r, next, n);
	return rc;
}

/* Element positions of op's slice of t, row-major, into li[]. */
static void
slice_elems(const Tensor *t, const int64_t *offs, const Op *op, int64_t *li)
{
	int64_t idx[MAXRANK] = {0}, n = 1, k = 0;

	for (int d = 0; d < t->rank; d++)
		n *= op->sizes[d];
	for (; k < n; k++) {
		int64_t at = 0;
		for (int d = 0; d < t->rank; d++)
			at = at * t->dims[d] + offs[d] + idx[d] * op->strides[d];
		li[k] = at;
		for (int d = t->rank - 1; d >= 0 && ++idx[d] == op->sizes[d]; d--)
			idx[d] = 0;
	}
}

/* Mark the slice as written by g's trip; another trip's mark is a
 * program defect (the iterations' order would decide the result). */
static int
gather_claim(Frame *f, const Op *op, Gather *g, int k, const int64_t *offs)
{
	const Tensor *t = g->outs[k];
	int64_t n = 1, *li;
	int rc = 0;

	for (int d = 0; d < t->rank; d++)
		n *= op->sizes[d];
	if (!(li = mem_alloc((size_t)(n ? n : 1) * sizeof *li)))
		return oom(f->run, op->loc);
	slice_elems(t, offs, op, li);
	for (int64_t i = 0; i < n && !rc; i++) {
		uint64_t *w = &g->owner[k][li[i]];
		if (*w && *w != g->trip)
			rc = diag_set(f->run->d, op->loc, "program defect: "
				      "trips %llu and %llu of the forall write "
				      "overlapping slices of %%%s (element %lld)",
				      (unsigned long long)*w - 1,
				      (unsigned long long)g->trip - 1,
				      op->dest.v->name, (long long)li[i]);
		*w = g->trip;
	}
	mem_free(li);
	return rc;
}

static int
eval_parallel_insert(Frame *f, const Op *op)
{
	const Tensor *s = lookup(f, op->args[0].v)->t;
	Gather *g = f->par;
	int64_t offs[MAXRANK];
	int k = -1;
	View vo, vs;

	while (g && g->op != op->parent->parent)
		g = g->up;
	for (int i = 1; g && i < op->parent->nargs; i++)
		if (op->parent->args[i] == op->dest.v)
			k = i - 1;
	if (k < 0)
		return diag_set(f->run->d, op->loc, "parallel_insert_slice "
				"outside its forall");
	if (slice_offsets(f, op, g->outs[k], &op->dest, offs) < 0 ||
	    gather_claim(f, op, g, k, offs) < 0)
		return -1;
	vo = sub_view(g->outs[k], false, offs, op->sizes, op->strides);
	vs = view_of(s);
	k_copy(&vo, &vs);
	return def_insert_slice(f->run, op->loc, g->outs[k], s, offs, op);
}


static void
gather_free(Run *r, Gather *g, int n)
{
	for (int k = 0; k < n; k++) {
		t_free(r, g->outs[k]);
		mem_free(g->owner[k]);
	}
	mem_free(g->outs);
	mem_free(g->owner);
}

/* forall: trips in order (their slices are disjoint, so any order gives
 * the same result); each result starts as a copy of its init. */
static int
eval_forall(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1;
	int64_t lb, ub;
	Gather g = {.op = op, .up = f->par};
	Box **init = boxes_new(r, op->loc, n), **outs = NULL;

	if (!init || read_int(f, op, &op->args[0], "loop bound", &lb) < 0 ||
	    read_int(f, op, &op->args[1], "loop bound", &ub) < 0)
		goto out;
	g.outs = mem_calloc((size_t)n + 1, sizeof *g.outs);
	g.owner = mem_calloc((size_t)n + 1, sizeof *g.owner);
	if (!g.outs || !g.owner) {
		oom(r, op->loc);
		goto out;
	}
	for (int k = 0; k < n; k++) {
		if (!(init[k] = operand_box(f, op, &op->args[2 + k],
					    op->rtypes[k]->dt)) ||
		    !(g.outs[k] = t_dup(r, op->loc, init[k]->t)))
			goto out;
		g.owner[k] = mem_calloc((size_t)g.outs[k]->n + 1,
					sizeof *g.owner[k]);
		if (!g.owner[k]) {
			oom(r, op->loc);
			goto out;
		}
	}
	f->par = &g;
	for (int64_t iv = lb; iv < ub; iv++) {
		g.trip = (uint64_t)(iv - lb) + 1;
		if (loop_trip(f, op, iv, init, NULL, 0) < 0)
			goto out;
	}
	if (!(outs = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++) {
		Tensor *t = g.outs[k];

		g.outs[k] = NULL; /* box_new owns it, even on failure */
		if (!(outs[k] = box_new(r, op->loc, t)))
			goto out;
	}
	bind_results(f, op, outs);
	rc = 0;
out:
	f->par = g.up;
	if (g.outs)
		gather_free(r, &g, n);
	else
		mem_free(g.owner);
	boxes_free(r, init, n);
	boxes_free(r, outs, n);
	return rc;
}

/* The condition region of a while on the iter values cur: 1 to go on,
 * 0 to stop, -1 on error (an undefined condition is a program defect). */
static int
while_cond(Frame *f, const Op *op, Box **cur)
{
	static Type i1 = {.kind = TY_SCALAR, .dt = DT_I1};
	static Type *const types[1] = {&i1};
	const Op *c = op->body->ops[op->body->nops - 1];
	Box *out = NULL;
	int rc;

	for (int k = 0; k < op->nres; k++)
		bind(f, op->body->args[k], box_ref(cur[k]));
	rc = exec_block(f, op->body, types, &out, 1);
	clear_block(f, op->body);
	if (rc < 0)
		return -1;
	if (!tensor_defined(out->t, 0))
		rc = diag_set(f->run->d, oploc(&c->args[0], c),
			      "while condition on undefined value %%%s",
			      oname(&c->args[0]));
	else
		rc = tensor_geti(out->t, 0) != 0;
	box_unref(f->run, out);
	return rc;
}

/* One trip of the do region, counted against the trip limit. */
static int
while_trip(Frame *f, const Op *op, Box **cur, Box **next)
{
	Run *r = f->run;
	int rc;

	if (r->trips >= r->lim->max_trips)
		return diag_set(r->d, op->loc, "loop trip limit of %lld reached",
				(long long)r->lim->max_trips);
	if (charge(r, op->loc, WORK_STEP) < 0)
		return -1;
	r->trips++;
	for (int k = 0; k < op->nres; k++) { /* handed over, like for's */
		bind(f, op->orelse->args[k], cur[k]);
		cur[k] = NULL;
	}
	rc = exec_block(f, op->orelse, op->rtypes, next, op->nres);
	clear_block(f, op->orelse);
	return rc;
}

static int
eval_while(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nres, rc = -1, go;
	Box **cur = NULL, **next = NULL;

	if (!(cur = boxes_new(r, op->loc, n)) ||
	    !(next = boxes_new(r, op->loc, n)))
		goto out;
	for (int k = 0; k < n; k++)
		if (!(cur[k] = operand_box(f, op, &op->args[k],
					   op->rtypes[k]->dt)))
			goto out;
	while ((go = while_cond(f, op, cur)) > 0) {
		Box **tmp;

		if (while_trip(f, op, cur, next) < 0)
			goto out;
		for (int k = 0; k < n; k++) {
			box_unref(r, cur[k]);
			cur[k] = NULL;
		}
		tmp = cur, cur = next, next = tmp;
	}
	if (go < 0)
		goto out;
	bind_results(f, op, cur);
	rc = 0;
out:
	boxes_free(r, cur, n);
	boxes_free(r, next, n);
	return rc;
}

/* assert: a false condition ends the run through the failure path. */
static int
eval_assert(Frame *f, const Op *op)
{
	const Operand *c = &op->args[0];
	Lit l;
	const Tensor *ct = operand(f, c, DT_I1, &l);

	if (!tensor_defined(ct, 0))
		return diag_set(f->run->d, oploc(c, op),
				"assert on undefined value %%%s", oname(c));
	if (tensor_geti(ct, 0))
		return 0;
	f->run->failed = op;
	return diag_set(f->run->d, op->loc, "%s", op->msg ? op->msg : "");
}

/* async: the region runs now; the future holds what it yielded. */
static int
eval_async(Frame *f, const Op *op)
{
	Run *r = f->run;
	int n = op->nrtypes;
	Box **outs = boxes_new(r, op->loc, n);
	Box *fut;
	int rc;

	if (!outs)
		return -1;
	rc = exec_block(f, op->body, op->rtypes, outs, n);
	clear_block(f, op->body);
	if (rc < 0 || !(fut = mem_calloc(1, sizeof *fut))) {
		boxes_free(r, outs, n);
		return rc < 0 ? -1 : oom(r, op->loc);
	}
	fut->refs = 1;
	fut->elems = outs;
	fut->nelems = n;
	bind(f, op->res[0], fut);
	return 0;
}

static int
eval_await(Frame *f, const Op *op)
{
	Box *fut = lookup(f, op->args[0].v);

	for (int k = 0; k < op->nres && k < fut->nelems; k++)
		bind(f, op->res[k], box_ref(fut->elems[k]));
	return 0;
}

static const EvalFn eval_form[] = {
	[F_CONST] = eval_const,
	[F_EMPTY] = eval_empty,
	[F_BINARY] = eval_binary,
	[F_UNARY] = eval_unary,
	[F_CMP] = eval_cmp,
	[F_FILL] = eval_fill,
	[F_MATMUL] = eval_matmul,
	[F_TRANSPOSE] = eval_transpose,
	[F_REDUCE] = eval_reduce,
	[F_EXTRACT_SLICE] = eval_extract_slice,
	[F_INSERT_SLICE] = eval_insert_slice,
	[F_EXTRACT] = eval_extract,
	[F_INSERT] = eval_insert,
	[F_COPY] = eval_copy,
	[F_CLONE] = eval_clone,
	[F_CALL] = eval_call,
	[F_IF] = eval_if,
	[F_FOR] = eval_for,
	[F_ASYNC] = eval_async,
	[F_AWAIT] = eval_await,
	[F_WHILE] = eval_while,
	[F_ASSERT] = eval_assert,
	[F_FORALL] = eval_forall,
	[F_PARALLEL_INSERT] = eval_parallel_insert,
	[F_FROM_ELEMENTS] = eval_from_elements,
	[F_RESHAPE] = eval_reshape,
};

/* ------------------------------------------------- blocks and calls */

/* Run b's ops; the terminator's operands go to outs[0..nouts) as new
 * references (a literal gets the dtype of types[k]).  On error outs[] is
 * left empty.  Not walk_block: evaluation picks which region runs and how
 * often (an if's branch, a loop's trips) and binds values around it. */
static int
exec_block(Frame *f, const Block *b, Type *const *types, Box **outs,
	   int nouts)
{
	const Op *term = b->nops ? b->ops[b->nops - 1] : NULL;
	int nbody = b->nops;

	if (term && op_info[term->kind].form >= F_YIELD)
		nbody--;
	else
		term = NULL;
	for (int i = 0; i < nbody; i++) {
		const Op *op = b->ops[i];
		EvalFn fn = op_info[op->kind].form < F_YIELD
				    ? eval_form[op_info[op->kind].form]
				    : NULL;

		if (!fn)
			return diag_set(f->run->d, op->loc,
					"%s in the middle of a block",
					op_info[op->kind].name);
		if (charge(f->run, op->loc, WORK_STEP) < 0 || fn(f, op) < 0)
			return -1;
		dead_drop(f, op);
	}
	for (int k = 0; term && k < nouts && k < term->nargs; k++) {
		outs[k] = operand_box(f, term, &term->args[k], types[k]->dt);
		if (!outs[k]) {
			for (int j = 0; j < k; j++) {
				box_unref(f->run, outs[j]);
				outs[j] = NULL;
			}
			return -1;
		}
	}
	return 0;
}

/* Run fn's body in frame f (params bound); outs get its results. */
static int
run_func(Frame *f, const Func *fn, Box **outs)
{
	const Op *ret = fn->body->nops ? fn->body->ops[fn->body->nops - 1]
				       : NULL;
	Loc loc = ret ? ret->loc : fn->loc;
	int rc = 0;

	if (exec_block(f, fn->body, fn->rtypes, outs, fn->nrtypes) < 0)
		return -1;
	for (int k = 0; k < fn->nrtypes && rc == 0; k++) {
		char what[300];

		snprintf(what, sizeof what, "result %d of @%s", k, fn->name);
		if (!outs[k] || !outs[k]->t)
			rc = diag_set(f->run->d, loc, "%s is missing", what);
		else
			rc = check_fits(f->run, loc, outs[k]->t, fn->rtypes[k],
					what);
	}
	for (int k = 0; k < fn->nrtypes && rc < 0; k++) {
		box_unref(f->run, outs[k]);
		outs[k] = NULL;
	}
	return rc;
}

/* Bind the entry's params to the (borrowed) inputs, checked and counted. */
static int
bind_inputs(Frame *f, const Func *fn, Tensor *const *inputs)
{
	Run *r = f->run;

	for (int k = 0; k < fn->nparams; k++) {
		const Value *pv = fn->params[k];
		Tensor *in = inputs ? inputs[k] : NULL;
		char what[300];
		Box *b;

		if (!in)
			return diag_set(r->d, pv->loc, "missing input %%%s",
					pv->name);
		snprintf(what, sizeof what, "input %%%s", pv->name);
		if (check_fits(r, pv->loc, in, pv->type, what) < 0)
			return -1;
		if (t_bytes(in) > r->lim->max_bytes - r->bytes)
			return diag_set(r->d, pv->loc,
					"live tensors need %lld bytes, over the "
					"limit of %lld",
					(long long)(r->bytes + t_bytes(in)),
					(long long)r->lim->max_bytes);
		if (!(b = mem_calloc(1, sizeof *b)))
			return oom(r, pv->loc);
		r->bytes += t_bytes(in);
		if (r->bytes > r->peak)
			r->peak = r->bytes;
		b->refs = 1;
		b->borrowed = true;
		b->t = in;
		bind(f, pv, b);
	}
	return 0;
}

/* Results to caller-owned tensors: a box only this run holds gives up its
 * tensor; inputs and shared tensors are copied. */
static int
take_outputs(Run *r, const Func *fn, Box **res, Tensor ***outs,
	     int *nouts)
{
	int n = fn->nrtypes;
	Tensor **ts = mem_calloc((size_t)(n ? n : 1), sizeof *ts);

	if (!ts)
		return oom(r, fn->loc);
	for (int k = 0; k < n; k++) {
		Box *b = res[k];

		if (b->borrowed || b->refs > 1) {
			ts[k] = t_dup(r, fn->loc, b->t);
		} else {
			ts[k] = b->t;
			b->t = NULL;
		}
		if (!ts[k]) {
			for (int j = 0; j < k; j++)
				tensor_free(ts[j]);
			mem_free(ts);
			return -1;
		}
		box_unref(r, b);
		res[k] = NULL;
	}
	*outs = ts;
	*nouts = n;
	return 0;
}

int
ref_run(const Program *p, const Func *entry, Tensor *const *inputs,
	const Limits *lim, Tensor ***outs, int *nouts, Diag *d)
{
	return ref_run_stats(p, entry, inputs, lim, outs, nouts, d, NULL);
}

int
ref_run_stats(const Program *p, const Func *entry, Tensor *const *inputs,
	      const Limits *lim, Tensor ***outs, int *nouts, Diag *d,
	      RefStats *st)
{
	Run r = {.p = p, .lim = lim ? lim : &default_limits, .d = d,
		 .depth = 1};
	Frame f = {0};
	Box **res = NULL;
	int n = entry->nrtypes, rc = -1;

	budget_start(&r.budget, r.lim);
	*outs = NULL;
	*nouts = 0;
	if (slots_init(&r, entry->loc) < 0 || dead_fill(&r, entry->loc) < 0 ||
	    frame_init(&r, &f, entry, entry->loc) < 0 ||
	    bind_inputs(&f, entry, inputs) < 0 ||
	    !(res = boxes_new(&r, entry->loc, n)) ||
	    run_func(&f, entry, res) < 0)
		goto out;
	frame_free(&f); /* drop the env's references: results can be taken */
	rc = take_outputs(&r, entry, res, outs, nouts);
out:
	if (rc < 0 && r.failed)
		rc = 1;
	frame_free(&f);
	boxes_free(&r, res, n);
	mem_free(r.slot);
	mem_free(r.nslots);
	mem_free(r.last);
	mem_free(r.dead_head);
	mem_free(r.dead_next);
	if (st)
		st->peak_bytes = r.peak;
	return rc;
}
