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
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"

typedef struct Sym {
	const char *name;       /* "%26", "%30#0", "%arg15" */
	Value *v;
	bool isconst;           /* an arith.constant of an integer type */
	int64_t k;
	const Op *view;         /* a memref.subview: its slice */
	const MOp *viewm;
	const Value *viewsrc;
	const MOp *defm;        /* the op that defined it; NULL: a block arg */
	Value *fut;             /* an !async.value: its launch's future */
	int futk;               /* ... and which result it is */
} Sym;

typedef struct MFn {
	const char *name;
	const MOp *m;
	Func *f;                /* synthetic */
	const Func *tf;         /* the TIR function of that name, or NULL */
} MFn;

typedef struct MX {
	Arena *a;
	const Case *c;
	const Program *p;
	const ExportMap *map;
	const MOp *top;
	BProg *bp;
	int capregs, capinsts;
	Sym *syms;
	int nsyms, capsyms;
	MFn *fns;
	int nfns, capfns;
	const MFn *cur;
	const Op *term;         /* the TIR terminator of the region being read */
	Diag *d;
	jmp_buf fail;
} MX;

static void __attribute__((noreturn, format(printf, 3, 4)))
mx_fail(MX *M, const MOp *m, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (m)
		diag_set(M->d, m->at, "%s", msg);
	else
		diag_set(M->d, (Loc){0, 0}, "%s", msg);
	longjmp(M->fail, 1);
}

static void __attribute__((noreturn))
unsupported(MX *M, const MOp *m)
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

static Type *
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

static Sym *
sym_find(MX *M, const char *name)
{
	for (int i = M->nsyms - 1; i >= 0; i--)
		if (!strcmp(M->syms[i].name, name))
			return &M->syms[i];
	return NULL;
}

/* name (a block argument) stands for v */
static void
sym_bind(MX *M, const char *name, Value *v)
{
	Sym s = {0};

	s.name = name;
	s.v = v;
	VEC_PUSH(M->a, M->syms, M->nsyms, M->capsyms, s);
}

static Value *
val(MX *M, const MOp *m, int i)
{
	Sym *s;

	if (i >= m->noperands)
		mx_fail(M, m, "%s: %d operands, too few for its attributes",
			m->name, m->noperands);
	s = sym_find(M, m->operands[i]);

	if (!s)
		mx_fail(M, m, "%s: undefined value %s", m->name, m->operands[i]);
	return s->v;
}

static Value *
new_value(MX *M, const char *name, Type *t)
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

static Sym *
def(MX *M, const char *name, Type *t)
{
	Sym s = {0};

	s.name = name;
	s.v = new_value(M, name, t);
	VEC_PUSH(M->a, M->syms, M->nsyms, M->capsyms, s);
	return &M->syms[M->nsyms - 1];
}

static Value *
res(MX *M, const MOp *m, int j)
{
	Sym *s;

	if (j >= m->nresults)
		mx_fail(M, m, "%s: %d results, too few", m->name, m->nresults);
	s = def(M, m->results[j], mx_type(M, m, m->restypes[j]));
	s->defm = m;
	return s->v;
}

/* ---- instructions */

/* The TIR op at m's location, or NULL. */
static const Op *
tir_of(MX *M, const MOp *m)
{
	if (!m->loc.file || strcmp(m->loc.file, M->c->file))
		return NULL;
	return prog_op_at(M->p, OP_COUNT, (Loc){m->loc.line, m->loc.col});
}

static Op *
syn_op(MX *M, OpKind k, const MOp *m, int nargs)
{
	Op *op = arena_alloc(M->a, sizeof *op);
	const Op *t = tir_of(M, m);

	op->kind = k;
	op->loc = t ? t->loc : (Loc){0, 0};
	op->nargs = nargs;
	op->args = arena_alloc(M->a, (size_t)(nargs + 1) * sizeof *op->args);
	return op;
}

static BInst *
inst(MX *M, BBlock *b, BKind k, const Op *op, Value *v, const MOp *m)
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

static void
emit_bind(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m)
{
	BInst *in = inst(M, b, BI_BIND, NULL, tv, m);

	in->src = src;
}

/* The TIR result tv is computed into src: a write of src's buffer (what
 * a launch that does it pins as written). */
static void
emit_bind_out(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m)
{
	emit_bind(M, b, tv, src, m);
	b->insts[b->n - 1]->carry = true;
}

/* v must hold the version src holds (NULL: anything).  Only tensors. */
static void
emit_ver(MX *M, BBlock *b, Value *v, Value *src, const MOp *m)
{
	BInst *in;

	if (!v || v->type->kind != TY_TENSOR)
		return;
	in = inst(M, b, BI_VER, NULL, v, m);
	in->src = src;
}

static Operand
opnd(Value *v)
{
	Operand o = {0};

	o.v = v;
	return o;
}

static Operand
lit(int64_t i)
{
	Operand o = {0};

	o.i = i;
	o.f = (double)i;
	return o;
}

/* ---- attributes */

static int
ints(MX *M, const MOp *m, const char *name, int64_t *out, int n)
{
	int k = mattr_ints(mop_attr(m, name), out, n);

	if (k < 0 || k > n)
		mx_fail(M, m, "%s: no readable '%s'", m->name, name);
	return k;
}

/* operandSegmentSizes, or -1 when absent */
static int
segments(MX *M, const MOp *m, int64_t *seg, int n)
{
	const MAttr *a = mop_attr(m, "operandSegmentSizes");

	if (!a)
		return -1;
	return ints(M, m, "operandSegmentSizes", seg, n);
}

/* ---- ops */

static void block_ops(MX *M, const MBlock *mb, BBlock *b);
static Value **results(MX *M, const MOp *m);
static void one_op(MX *M, const MOp *m, BBlock *b);

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
			sym_bind(M, mb->args[i], args[i]);
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
		v[i] = new_value(M, mb->args[i], mx_type(M, m, mb->argtypes[i]));
	return v;
}

static void
op_constant(MX *M, const MOp *m, BBlock *b)
{
	const MAttr *a = mop_attr(m, "value");
	Op *op = syn_op(M, OP_CONST, m, 0);
	Value *v;
	Sym *s;
	const char *t;

	if (m->nresults != 1 || !a)
		unsupported(M, m);
	s = def(M, m->results[0], mx_type(M, m, m->restypes[0]));
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
	inst(M, b, BI_CONST, op, v, m);
}

/* An arith/math op of ops.h's EW rows (i1only: read as an i1 logic op). */
static void
op_arith(MX *M, const MOp *m, BBlock *b, OpKind k, bool i1only)
{
	Op *op = syn_op(M, k, m, m->noperands);
	Value *r;

	if (m->nresults != 1 || m->noperands < 1 || m->noperands > 2)
		unsupported(M, m);
	for (int j = 0; j < m->noperands; j++)
		op->args[j] = opnd(val(M, m, j));
	if (op->args[0].v->type->kind != TY_SCALAR ||
	    (i1only && op->args[0].v->type->dt != DT_I1))
		mx_fail(M, m, "%s on %s (scalars only%s)", m->name,
			m->optypes[0], i1only ? ", of type i1" : "");
	r = res(M, m, 0);
	op->type = k == OP_NE ? op->args[0].v->type : r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	inst(M, b, BI_COMPUTE, op, r, m);
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

static void
op_cmp(MX *M, const MOp *m, BBlock *b)
{
	Op *op = syn_op(M, cmp_kind(M, m), m, 2);
	Value *r;

	if (m->noperands != 2 || m->nresults != 1)
		unsupported(M, m);
	op->args[0] = opnd(val(M, m, 0));
	op->args[1] = opnd(val(M, m, 1));
	if (op->args[0].v->type->kind != TY_SCALAR)
		mx_fail(M, m, "%s on %s (scalars only)", m->name, m->optypes[0]);
	op->type = op->args[0].v->type;
	r = res(M, m, 0);
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	inst(M, b, BI_COMPUTE, op, r, m);
}

static void
op_select(MX *M, const MOp *m, BBlock *b)
{
	BInst *in;
	Value **v = arena_alloc(M->a, 3 * sizeof *v);

	if (m->noperands != 3 || m->nresults != 1)
		unsupported(M, m);
	for (int i = 0; i < 3; i++)
		v[i] = val(M, m, i);
	in = inst(M, b, BI_SELECT, syn_op(M, OP_CONST, m, 0), res(M, m, 0), m);
	in->vals = v;
	in->nvals = 3;
}

/* index_cast between index and i64 (the same register) */
static void
op_alias(MX *M, const MOp *m, BBlock *b)
{
	Value *src = val(M, m, 0), *r = res(M, m, 0);
	BInst *in;

	if (src->type->kind != r->type->kind ||
	    (src->type->kind == TY_SCALAR && src->type->dt != r->type->dt &&
	     !((src->type->dt == DT_INDEX && r->type->dt == DT_I64) ||
	       (src->type->dt == DT_I64 && r->type->dt == DT_INDEX))))
		mx_fail(M, m, "%s from %s to %s is not executed", m->name,
			m->optypes[0], m->restypes[0]);
	in = inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), r, m);
	in->src = src;
}

static void
op_alloc(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[2] = {0, 0};
	Op *op;
	Value *v;
	BInst *in;

	if (m->nresults != 1)
		unsupported(M, m);
	if (segments(M, m, seg, 2) >= 0 && seg[1])
		mx_fail(M, m, "%s with symbol operands", m->name);
	op = syn_op(M, OP_EMPTY, m, (int)seg[0]);
	for (int i = 0; i < seg[0]; i++)
		op->args[i] = opnd(val(M, m, i));
	v = res(M, m, 0);
	if (v->type->kind != TY_TENSOR)
		unsupported(M, m);
	op->type = v->type;
	in = inst(M, b, BI_ALLOC, op, v, m);
	in->why = strcmp(m->name, "memref.alloca") ? "memref.alloc"
						   : "memref.alloca";
}

static void
op_dealloc(MX *M, const MOp *m, BBlock *b)
{
	if (m->noperands != 1)
		unsupported(M, m);
	inst(M, b, BI_FREE, syn_op(M, OP_EMPTY, m, 0), val(M, m, 0), m);
}

enum { DYN = INT64_MIN }; /* a dynamic entry of static_offsets etc. */

/* One entry of a view's offsets, sizes or strides: the static value, or
 * the next dynamic operand (*k, in operand order). */
static Operand
entry(MX *M, const MOp *m, int64_t st, int *k)
{
	if (st != DYN)
		return lit(st);
	if (*k >= m->noperands)
		mx_fail(M, m, "%s: fewer operands than dynamic entries", m->name);
	return opnd(val(M, m, (*k)++));
}

/* The entries of static_offsets, static_sizes and static_strides (k: the
 * first dynamic operand).  Returns how many each holds. */
static int
view_entries(MX *M, const MOp *m, MView *mv, int *k)
{
	int64_t off[MAXRANK], size[MAXRANK], stride[MAXRANK];
	int n = ints(M, m, "static_offsets", off, MAXRANK);
	int ns = ints(M, m, "static_sizes", size, MAXRANK);

	if (ints(M, m, "static_strides", stride, MAXRANK) != ns)
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
	in = inst(M, b, BI_VIEW, syn_op(M, OP_EXTRACT_SLICE, m, 0), v, m);
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

static void
op_subview(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[4], off[MAXRANK], size[MAXRANK], stride[MAXRANK];
	Value *src = val(M, m, 0), *v;
	Op *op;
	Sym *s;
	int k, n;

	if (segments(M, m, seg, 4) != 4 || m->nresults != 1)
		unsupported(M, m);
	n = ints(M, m, "static_offsets", off, MAXRANK);
	if (ints(M, m, "static_sizes", size, MAXRANK) != n ||
	    ints(M, m, "static_strides", stride, MAXRANK) != n ||
	    n != src->type->rank)
		mx_fail(M, m, "memref.subview: offsets, sizes and strides do "
			"not match the source's rank");
	s = def(M, m->results[0], mx_type(M, m, m->restypes[0]));
	v = s->v;
	if (v->type->rank != n || !all_static(size, n) || !all_static(stride, n)) {
		/* not an extract_slice's shape: no insert_slice copies into it */
		subview_dynamic(M, m, b, src, v);
		return;
	}
	op = syn_op(M, OP_EXTRACT_SLICE, m, 1);
	op->args[0] = opnd(src);
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	k = 1;
	for (int d = 0; d < n; d++) {
		if (off[d] == DYN)
			op->offs[d] = opnd(val(M, m, k++));
		else
			op->offs[d] = lit(off[d]);
		op->sizes[d] = size[d];
		op->strides[d] = stride[d];
	}
	op->type = v->type;
	inst(M, b, BI_VIEW, op, v, m)->src = src;
	s = sym_find(M, m->results[0]);
	s->view = op;
	s->viewm = m;
	s->viewsrc = src;
}

/* memref.reinterpret_cast: a view at an offset of the source's allocation
 * (not of its view), checked against the allocation when it runs. */
static void
op_reinterpret(MX *M, const MOp *m, BBlock *b)
{
	MView *mv = arena_alloc(M->a, sizeof *mv);
	Value *src, *v;
	BInst *in;
	int k = 1;

	if (m->noperands < 1 || m->nresults != 1)
		unsupported(M, m);
	src = val(M, m, 0);
	v = res(M, m, 0);
	mv->kind = MV_REINTERPRET;
	if (view_entries(M, m, mv, &k) != 1 || mv->rank != v->type->rank ||
	    src->type->kind != TY_TENSOR || src->type->dt != v->type->dt)
		mx_fail(M, m, "memref.reinterpret_cast from %s to %s: one offset, "
			"and sizes and strides of the result's rank",
			m->optypes[0], m->restypes[0]);
	in = inst(M, b, BI_VIEW, syn_op(M, OP_EXTRACT_SLICE, m, 0), v, m);
	in->src = src;
	in->mv = mv;
}

static void
op_reshape(MX *M, const MOp *m, BBlock *b)
{
	Value *src = val(M, m, 0), *v = res(M, m, 0);
	Op *op = syn_op(M, strcmp(m->name, "memref.collapse_shape") ?
			OP_EXPAND_SHAPE : OP_COLLAPSE_SHAPE, m, 1);

	if (!type_is_static(v->type))
		mx_fail(M, m, "%s to %s: dynamic result dims are not executed",
			m->name, m->restypes[0]);
	op->args[0] = opnd(src);
	op->type = v->type;
	inst(M, b, BI_VIEW, op, v, m)->src = src;
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

static void
op_cast(MX *M, const MOp *m, BBlock *b)
{
	Value *src, *v;

	if (m->noperands != 1 || m->nresults != 1)
		unsupported(M, m);
	src = val(M, m, 0);
	v = res(M, m, 0);
	if (src->type->rank != v->type->rank || src->type->dt != v->type->dt)
		mx_fail(M, m, "%s from %s to %s changes rank or type", m->name,
			m->optypes[0], m->restypes[0]);
	if (cast_checks(src->type, v->type)) {
		BInst *in = inst(M, b, BI_VIEW, syn_op(M, OP_CLONE, m, 0), v, m);
		in->src = src;
		in->mv = arena_alloc(M->a, sizeof *in->mv);
		((MView *)in->mv)->kind = MV_CAST;
		return;
	}
	inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), v, m)->src = src;
}

static void
op_meta(MX *M, const MOp *m, BBlock *b, MetaKind k, int dim)
{
	BInst *in = inst(M, b, BI_META, syn_op(M, OP_CONST, m, 0), NULL, m);

	in->src = val(M, m, 0);
	in->meta = k;
	in->meta_dim = dim;
}

static void
op_strided_metadata(MX *M, const MOp *m, BBlock *b)
{
	int r = val(M, m, 0)->type->rank;

	if (m->nresults != 2 + 2 * r)
		unsupported(M, m);
	for (int j = 0; j < m->nresults; j++) {
		MetaKind k = j == 0 ? META_BASE : j == 1 ? META_OFFSET
				     : j < 2 + r ? META_SIZE : META_STRIDE;
		int d = j < 2 ? 0 : j < 2 + r ? j - 2 : j - 2 - r;
		op_meta(M, m, b, k, d);
		b->insts[b->n - 1]->v = res(M, m, j);
	}
}

static void
op_dim(MX *M, const MOp *m, BBlock *b)
{
	Sym *k = m->noperands == 2 ? sym_find(M, m->operands[1]) : NULL;

	if (!k || !k->isconst)
		mx_fail(M, m, "memref.dim: only a constant dim is executed");
	op_meta(M, m, b, META_SIZE, (int)k->k);
	b->insts[b->n - 1]->v = res(M, m, 0);
}

static void
op_addr(MX *M, const MOp *m, BBlock *b)
{
	op_meta(M, m, b, META_ADDR, 0);
	b->insts[b->n - 1]->v = res(M, m, 0);
}

/* The version each result of a TIR op that only passes its source on
 * holds (a view, a reshape, a copy materialized, a clone): the source's. */
static void
same_version(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);

	if (!t || !t->nres || !t->nargs)
		return;
	switch (t->kind) {
	case OP_EXTRACT_SLICE:
	case OP_COLLAPSE_SHAPE:
	case OP_EXPAND_SHAPE:
	case OP_COPY:
	case OP_CLONE:
		emit_ver(M, b, t->res[0], t->args[0].v, m);
		break;
	default:
		break;
	}
}

static void
op_copy(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Value *src, *dst;
	Sym *ds;

	if (m->noperands != 2)
		unsupported(M, m);
	src = val(M, m, 0);
	dst = val(M, m, 1);
	ds = sym_find(M, m->operands[1]);
	if (t && t->kind == OP_INSERT_SLICE && ds->view &&
	    tir_of(M, ds->viewm) == t) {
		/* the insert itself: the source into the slice of the
		 * destination, which then holds the insert's result */
		Op *op = syn_op(M, OP_INSERT_SLICE, m, 1);
		Value *r = t->res[0], *s = t->args[0].v;
		BInst *in;
		*op = *ds->view;
		op->kind = OP_INSERT_SLICE;
		op->loc = t->loc;
		op->nargs = 1;
		op->args = arena_alloc(M->a, sizeof *op->args);
		op->args[0] = opnd(s);
		op->dest = opnd(r);
		op->hasdest = true;
		op->res = arena_alloc(M->a, sizeof *op->res);
		op->res[0] = r;
		op->nres = 1;
		op->type = r->type;
		emit_bind(M, b, s, src, m);
		emit_bind_out(M, b, r, (Value *)ds->viewsrc, m);
		emit_ver(M, b, r, t->dest.v, m);
		in = inst(M, b, BI_COMPUTE, op, NULL, m);
		in->top = t;
		return;
	}
	BInst *in = inst(M, b, BI_COPY, syn_op(M, OP_COPY, m, 0), dst, m);
	in->src = src;
	in->carry = true;
	in->why = "memref.copy";
	same_version(M, m, b);
}

static void
op_clone(MX *M, const MOp *m, BBlock *b)
{
	Value *src = val(M, m, 0), *v = res(M, m, 0);
	BInst *in = inst(M, b, BI_ALLOC, syn_op(M, OP_CLONE, m, 0), v, m);

	in->src = src;
	in->why = "bufferization.clone";
	in = inst(M, b, BI_COPY, syn_op(M, OP_COPY, m, 0), v, m);
	in->src = src;
	in->carry = true;
	in->why = "bufferization.clone";
	same_version(M, m, b);
}

/* bufferization.dealloc left unlowered: memrefs, their conditions, the
 * retained memrefs (operandSegmentSizes); one i1 result per retained. */
static void
op_bdealloc(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[3];
	Op *op = syn_op(M, OP_EMPTY, m, 0);
	BInst *in;
	Value **v;

	if (segments(M, m, seg, 3) != 3 || seg[0] != seg[1] || seg[0] < 0 ||
	    seg[2] < 0 || seg[0] + seg[1] + seg[2] != m->noperands ||
	    m->nresults != seg[2])
		mx_fail(M, m, "bufferization.dealloc: memrefs, conditions, "
			"retained memrefs and results do not match");
	v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	for (int i = 0; i < m->noperands; i++) {
		v[i] = val(M, m, i);
		if ((v[i]->type->kind == TY_TENSOR) != (i < seg[0] ||
							 i >= 2 * seg[0]) ||
		    (i >= seg[0] && i < 2 * seg[0] && v[i]->type->dt != DT_I1))
			mx_fail(M, m, "bufferization.dealloc: operand %d has type %s",
				i, m->optypes[i]);
	}
	op->res = results(M, m);
	op->nres = m->nresults;
	in = inst(M, b, BI_DEALLOC, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	in->nmem = (int)seg[0];
}

static void
op_load(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Value *mem = val(M, m, 0), *r;
	Op *op = syn_op(M, OP_EXTRACT, m, 1);
	int n = m->noperands - 1;
	BInst *in;

	if (n != mem->type->rank || m->nresults != 1)
		unsupported(M, m);
	if (t && t->kind == OP_EXTRACT) {
		emit_bind(M, b, t->args[0].v, mem, m);
		mem = t->args[0].v; /* the read expects the tensor's version */
	}
	op->args[0] = opnd(mem);
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	for (int d = 0; d < n; d++)
		op->offs[d] = opnd(val(M, m, 1 + d));
	r = res(M, m, 0);
	op->type = r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	in = inst(M, b, BI_COMPUTE, op, r, m);
	if (t && t->kind == OP_EXTRACT)
		in->top = t;
}

static void
op_store(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Value *mem = val(M, m, 1), *r;
	Op *op = syn_op(M, OP_INSERT, m, 1);
	int n = m->noperands - 2;
	BInst *in;
	bool mine = t && (t->kind == OP_INSERT || t->kind == OP_FROM_ELEMENTS);

	if (n != mem->type->rank)
		unsupported(M, m);
	if (mine) {
		r = t->res[0];
		emit_bind_out(M, b, r, mem, m);
		emit_ver(M, b, r, t->kind == OP_INSERT ? t->dest.v : NULL, m);
	} else {
		r = new_value(M, m->operands[1], mem->type);
		inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), r, m)->src = mem;
	}
	op->args[0] = opnd(val(M, m, 0));
	op->dest = opnd(r);
	op->hasdest = true;
	op->offs = arena_alloc(M->a, (size_t)(n + 1) * sizeof *op->offs);
	op->noffs = n;
	for (int d = 0; d < n; d++)
		op->offs[d] = opnd(val(M, m, 2 + d));
	op->type = r->type;
	op->res = arena_alloc(M->a, sizeof *op->res);
	op->res[0] = r;
	op->nres = 1;
	in = inst(M, b, BI_COMPUTE, op, NULL, m);
	if (mine)
		in->top = t;
}

static void
op_get_global(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Value *v;

	if (!t || t->kind != OP_CONST || !t->nres)
		mx_fail(M, m, "memref.get_global at no constant of the case");
	v = res(M, m, 0);
	if (!type_equal(v->type, t->res[0]->type))
		mx_fail(M, m, "memref.get_global of type %s for a constant of "
			"another shape", m->restypes[0]);
	inst(M, b, BI_CONST, t, t->res[0], m)->top = t;
	inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), v, m)->src = t->res[0];
}

/* A linalg op on memrefs: the TIR op at its location, whose kernel runs
 * on the memrefs it names (ins read-checked, outs tagged). */
static void
op_linalg(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
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
			emit_bind(M, b, eo->operands[i], val(M, m, i), m);
	emit_bind_out(M, b, t->res[0], val(M, m, nin), m);
	if (op_info[t->kind].readsdest && t->hasdest)
		emit_ver(M, b, t->res[0], t->dest.v, m);
	in = inst(M, b, BI_COMPUTE, t, NULL, m);
	in->top = t;
}

/* ---- control flow */

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
	block_ops(M, mb, b);
	M->term = saved;
}

/* The yield's operands expect the versions of the TIR yield's: the one
 * at its location, else its region's (the deallocation pipeline rebuilds
 * a yield that passes ownership at the region op's location, its first
 * operands the old ones). */
static void
yield_versions(MX *M, const MOp *m, BBlock *b, Value **v, int n)
{
	const Op *t = tir_of(M, m);

	if (!is_term(t))
		t = M->term;
	/* an scf.condition stands for a TIR condition, a yield for a yield */
	if (!t || (t->kind == OP_CONDITION) != !strcmp(m->name, "scf.condition"))
		return;
	for (int k = 0; k < n && k + (t->kind == OP_CONDITION) < t->nargs; k++)
		emit_ver(M, b, v[k], t->args[k + (t->kind == OP_CONDITION)].v, m);
}

static void
op_yield(MX *M, const MOp *m, BBlock *b, BKind k)
{
	Value **v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	Op *op = syn_op(M, k == BI_RETURN ? OP_RETURN : OP_YIELD, m,
			m->noperands);
	BInst *in;

	for (int i = 0; i < m->noperands; i++) {
		v[i] = val(M, m, i);
		op->args[i] = opnd(v[i]);
	}
	yield_versions(M, m, b, v, m->noperands);
	in = inst(M, b, k, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	if (k == BI_RETURN) {
		const Op *t = tir_of(M, m);
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
			inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), res[k],
			     m)->src = init[k];
}

static Value **
results(MX *M, const MOp *m)
{
	Value **r = arena_alloc(M->a, (size_t)(m->nresults + 1) * sizeof *r);

	for (int j = 0; j < m->nresults; j++)
		r[j] = res(M, m, j);
	return r;
}

/* After a region op: its TIR results hold the memref results' versions. */
static void
result_versions(MX *M, const MOp *m, BBlock *b, const Op *t, Value **r, int n)
{
	for (int k = 0; t && k < n && k < t->nres; k++)
		emit_ver(M, b, t->res[k], r[k], m);
}

static void
op_for(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	int n = m->noperands - 3;
	Op *op = syn_op(M, OP_FOR, m, m->noperands);
	Value **init = arena_alloc(M->a, (size_t)(n + 1) * sizeof *init);
	BInst *in;

	if (n < 0 || m->nresults != n)
		unsupported(M, m);
	if (t && t->kind != OP_FOR)
		t = NULL;
	for (int i = 0; i < m->noperands; i++)
		op->args[i] = opnd(val(M, m, i));
	for (int k = 0; k < n; k++)
		init[k] = op->args[3 + k].v;
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = n + 1;
	op->res = results(M, m);
	op->nres = n;
	results_from(M, m, b, op->res, init, n);
	for (int k = 0; t && k < n && k < t->nres; k++)
		emit_ver(M, b, op->res[k], t->args[3 + k].v, m);
	in = inst(M, b, BI_FOR, op, NULL, m);
	{
		BBlock *body = arena_alloc(M->a, sizeof *body);
		for (int k = 0; t && k < n && k < t->nres; k++)
			emit_ver(M, body, t->body->args[1 + k], op->body->args[1 + k], m);
		const MBlock *mb = m->regions[0].blocks[0];
		for (int i = 0; i < mb->nargs; i++) {
			sym_bind(M, mb->args[i], op->body->args[i]);
		}
		region_ops(M, mb, body, t ? t->body : NULL);
		in->body = body;
	}
	result_versions(M, m, b, t, op->res, n);
}

/* Does the scf.if test the TIR if's own condition?  The canonicalizer
 * may rebuild an if at the old one's location on the inverted condition
 * (`%c' = cmpi le` where TIR has `%c = gt`), its regions swapped: then
 * its yields are not the TIR branches' in order. */
static bool
same_condition(MX *M, const MOp *m, const Op *t)
{
	const Sym *s = sym_find(M, m->operands[0]);
	const Value *c = t->nargs ? t->args[0].v : NULL;

	if (!s || !c)
		return false;
	if (!c->def)
		return !s->defm;
	return s->defm && tir_of(M, s->defm) == c->def;
}

static void
op_if(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Op *op = syn_op(M, OP_IF, m, 1);
	BInst *in;
	bool direct;

	if (m->noperands != 1)
		unsupported(M, m);
	op->args[0] = opnd(val(M, m, 0));
	if (t && t->kind != OP_IF)
		t = NULL;
	direct = t && same_condition(M, m, t);
	in = inst(M, b, BI_IF, op, NULL, m);
	in->body = region_block(M, m, 0, NULL, 0, direct ? t->body : NULL);
	in->orelse = region_block(M, m, 1, NULL, 0, direct ? t->orelse : NULL);
	op->res = results(M, m);
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
		emit_ver(M, b, t->res[k], NULL, m);
}

static void op_condition(MX *M, const MOp *m, BBlock *b);

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
 * its results (r).  Both are set before the condition yields. */
static void
before_forwarding(MX *M, const MOp *m, BBlock *body, Value **r)
{
	const MBlock *before = m->regions[0].blocks[0];
	const MBlock *after = m->regions[1].blocks[0];
	const MOp *cond = before->ops[before->nops - 1];

	for (int i = 0; i + 1 < before->nops; i++)
		one_op(M, before->ops[i], body);
	for (int k = 0; k < after->nargs; k++) {
		Value *fwd = val(M, cond, 1 + k);
		Value *a = new_value(M, after->args[k],
				     mx_type(M, m, after->argtypes[k]));
		inst(M, body, BI_ALIAS, syn_op(M, OP_CLONE, cond, 0), a,
		     cond)->src = fwd;
		inst(M, body, BI_ALIAS, syn_op(M, OP_CLONE, cond, 0), r[k],
		     cond)->src = fwd;
		sym_bind(M, after->args[k], a);
	}
	op_condition(M, cond, body);
}

/* scf.while: TIR's while when the condition forwards its own arguments
 * (the do block's are the same registers); otherwise the loop carries
 * the before block's arguments in registers of its own and the
 * condition's values reach the do block and the results by alias. */
static void
op_while(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	int n = m->noperands;
	Op *op = syn_op(M, OP_WHILE, m, n);
	const MBlock *before, *after;
	const MOp *cond;
	BInst *in;
	Value **init = arena_alloc(M->a, (size_t)(n + 1) * sizeof *init), **r;
	bool own;

	if (m->nregions != 2 || m->regions[0].nblocks != 1 ||
	    m->regions[1].nblocks != 1)
		unsupported(M, m);
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
		op->args[i] = opnd(val(M, m, i));
		init[i] = op->args[i].v;
	}
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = n;
	r = results(M, m);
	op->res = own ? r : block_values(M, m, 0, 0); /* the carried state */
	op->nres = n;
	results_from(M, m, b, op->res, init, n);
	for (int k = 0; t && k < n && k < t->nres; k++)
		emit_ver(M, b, op->res[k], t->args[k].v, m);
	in = inst(M, b, BI_WHILE, op, NULL, m);
	in->body = arena_alloc(M->a, sizeof *in->body);
	for (int k = 0; t && k < n && k < t->nres; k++)
		emit_ver(M, in->body, t->body->args[k], op->body->args[k], m);
	for (int i = 0; i < n; i++) {
		sym_bind(M, before->args[i], op->body->args[i]);
	}
	in->orelse = arena_alloc(M->a, sizeof *in->orelse);
	if (own) {
		region_ops(M, before, in->body, t ? t->body : NULL);
		for (int i = 0; i < n; i++) /* the do block's are the same */
			sym_bind(M, after->args[i], op->body->args[i]);
	} else {
		const Op *saved = M->term;
		M->term = NULL; /* its condition forwards other values */
		before_forwarding(M, m, in->body, r);
		M->term = saved;
	}
	region_ops(M, after, in->orelse, t ? t->orelse : NULL);
	result_versions(M, m, b, t, r, m->nresults);
}

static void
op_condition(MX *M, const MOp *m, BBlock *b)
{
	Value **v = arena_alloc(M->a, sizeof *v);
	BInst *in;

	v[0] = val(M, m, 0);
	in = inst(M, b, BI_YIELD, syn_op(M, OP_CONDITION, m, 0), NULL, m);
	in->vals = v;
	in->nvals = 1;
}

/* scf.forall on memrefs (no shared outs left): its trips interleaved
 * under the schedule, as TIR's forall (exec.c's run_forall). */
static void
op_forall(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	int64_t lb[2], ub[2], st[2];
	Op *op = syn_op(M, OP_FORALL, m, 3);
	BInst *in;
	int k = 0;

	if (m->nresults || ints(M, m, "staticLowerBound", lb, 2) != 1 ||
	    ints(M, m, "staticUpperBound", ub, 2) != 1 ||
	    ints(M, m, "staticStep", st, 2) != 1)
		mx_fail(M, m, "scf.forall: only a 1-D forall without results "
			"is executed");
	op->args[0] = lb[0] == DYN ? opnd(val(M, m, k++)) : lit(lb[0]);
	op->args[1] = ub[0] == DYN ? opnd(val(M, m, k++)) : lit(ub[0]);
	op->args[2] = st[0] == DYN ? opnd(val(M, m, k++)) : lit(st[0]);
	if (op->args[2].v || op->args[2].i != 1)
		mx_fail(M, m, "scf.forall: only step 1 is executed");
	op->body = arena_alloc(M->a, sizeof *op->body);
	op->body->args = block_values(M, m, 0, 0);
	op->body->nargs = 1;
	if (t && t->kind != OP_FORALL)
		t = NULL;
	in = inst(M, b, BI_FORALL, op, NULL, m);
	in->body = arena_alloc(M->a, sizeof *in->body);
	/* a read of a shared arg expects the init's version; another trip's
	 * insert into the part it reads is then stale */
	for (int j = 0; t && j < t->nres; j++)
		emit_ver(M, in->body, t->body->args[1 + j], t->args[2 + j].v, m);
	{
		const MBlock *mb = m->regions[0].blocks[0];
		sym_bind(M, mb->args[0], op->body->args[0]);
		region_ops(M, mb, in->body, NULL);
	}
	for (int j = 0; t && j < t->nres; j++) /* its slices' versions */
		emit_ver(M, b, t->res[j], NULL, m);
}

/* async.execute: a launch on its stream (bufdiff.stream, else 0).  Its
 * token and each !async.value stand for the future; an await of value k
 * takes the launch's result k. */
static void
op_async(MX *M, const MOp *m, BBlock *b)
{
	int64_t seg[2] = {0, 0}, stream = 0;
	Op *op = syn_op(M, OP_ASYNC, m, 0);
	Value *f;
	BInst *in;
	Sym *s;

	if (segments(M, m, seg, 2) >= 0 && (seg[0] || seg[1]))
		mx_fail(M, m, "async.execute with dependencies or operands is "
			"not executed");
	if (m->nresults < 1 || m->nregions != 1)
		unsupported(M, m);
	mattr_int(mop_attr(m, "bufdiff.stream"), &stream);
	op->stream = (int)stream;
	op->nrtypes = m->nresults - 1;
	f = res(M, m, 0);
	in = inst(M, b, BI_LAUNCH, op, f, m);
	in->top = tir_of(M, m);
	in->body = region_block(M, m, 0, NULL, 0, NULL);
	for (int k = 1; k < m->nresults; k++) {
		s = def(M, m->results[k], f->type);
		s->futk = k - 1;
		s->fut = f;
	}
}

static void
op_await(MX *M, const MOp *m, BBlock *b)
{
	Sym *s = m->noperands == 1 ? sym_find(M, m->operands[0]) : NULL;
	Op *op = syn_op(M, OP_AWAIT, m, 1);
	BInst *in;

	if (!s || s->v->type->kind != TY_FUTURE || m->nresults > 1)
		unsupported(M, m);
	op->args[0] = opnd(s->fut ? s->fut : s->v);
	op->res = results(M, m);
	op->nres = m->nresults;
	in = inst(M, b, BI_AWAIT, op, NULL, m);
	in->meta_dim = s->futk; /* which of the launch's results */
	result_versions(M, m, b, tir_of(M, m), op->res, op->nres);
}

static const MFn *
fn_find(MX *M, const char *name)
{
	for (int i = 0; i < M->nfns; i++)
		if (!strcmp(M->fns[i].name, name))
			return &M->fns[i];
	return NULL;
}

/* Is operand i's memref passed at another position of the call too? */
static bool
passed_twice(MX *M, const MOp *m, int i)
{
	for (int j = 0; j < m->noperands; j++)
		if (j != i && !strcmp(m->operands[j], m->operands[i]))
			return val(M, m, i)->type->kind == TY_TENSOR;
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

	snprintf(name, sizeof name, "%s.arg%d", src->name, i);
	r = new_value(M, name, src->type);
	in = inst(M, b, BI_ALIAS, syn_op(M, OP_CLONE, m, 0), r, m);
	in->src = src;
	return r;
}

static void
op_call(MX *M, const MOp *m, BBlock *b)
{
	const MAttr *a = mop_attr(m, "callee");
	const Op *t = tir_of(M, m);
	const MFn *fn;
	Op *op;
	BInst *in;
	Value **v;

	if (!a || a->text[0] != '@' || !(fn = fn_find(M, a->text + 1)))
		mx_fail(M, m, "func.call of a function with no body");
	if (t && t->kind != OP_CALL)
		t = NULL;
	op = syn_op(M, OP_CALL, m, m->noperands);
	v = arena_alloc(M->a, (size_t)(m->noperands + 1) * sizeof *v);
	for (int i = 0; i < m->noperands; i++) {
		v[i] = val(M, m, i);
		if (t && i < t->nargs && passed_twice(M, m, i))
			v[i] = call_alias(M, m, b, v[i], i);
		op->args[i] = opnd(v[i]);
		if (t && i < t->nargs)
			emit_ver(M, b, v[i], t->args[i].v, m);
	}
	if (m->noperands != fn->f->nparams)
		mx_fail(M, m, "func.call: %d arguments for %d parameters",
			m->noperands, fn->f->nparams);
	op->callee = fn->name;
	op->fn = fn->f;
	op->res = results(M, m);
	op->nres = m->nresults;
	in = inst(M, b, BI_CALL, op, NULL, m);
	in->vals = v;
	in->nvals = m->noperands;
	result_versions(M, m, b, t, op->res, op->nres);
}

static void
op_assert(MX *M, const MOp *m, BBlock *b)
{
	const Op *t = tir_of(M, m);
	Op *op = syn_op(M, OP_ASSERT, m, 1);
	BInst *in;

	if (m->noperands != 1)
		unsupported(M, m);
	op->args[0] = opnd(val(M, m, 0));
	op->msg = mattr_str(mop_attr(m, "msg"), M->a);
	in = inst(M, b, BI_ASSERT, op, NULL, m);
	if (t && t->kind == OP_ASSERT)
		in->top = t;
}

typedef void (*OpFn)(MX *, const MOp *, BBlock *);

static const struct {
	const char *name;
	OpFn fn;
} op_table[] = {
	{"arith.constant", op_constant},
	{"arith.cmpi", op_cmp},
	{"arith.cmpf", op_cmp},
	{"arith.select", op_select},
	{"arith.index_cast", op_alias},
	{"memref.alloc", op_alloc},
	{"memref.alloca", op_alloc},
	{"memref.dealloc", op_dealloc},
	{"memref.subview", op_subview},
	{"memref.copy", op_copy},
	{"memref.load", op_load},
	{"memref.store", op_store},
	{"memref.cast", op_cast},
	{"memref.collapse_shape", op_reshape},
	{"memref.expand_shape", op_reshape},
	{"memref.extract_strided_metadata", op_strided_metadata},
	{"memref.extract_aligned_pointer_as_index", op_addr},
	{"memref.dim", op_dim},
	{"memref.get_global", op_get_global},
	{"bufferization.clone", op_clone},
	{"bufferization.dealloc", op_bdealloc},
	{"memref.reinterpret_cast", op_reinterpret},
	{"bufferization.to_tensor", op_cast},
	{"bufferization.to_memref", op_cast},
	{"bufferization.to_buffer", op_cast},
	{"scf.for", op_for},
	{"scf.if", op_if},
	{"scf.while", op_while},
	{"scf.condition", op_condition},
	{"scf.forall", op_forall},
	{"async.execute", op_async},
	{"async.await", op_await},
	{"func.call", op_call},
	{"cf.assert", op_assert},
};

static void
one_op(MX *M, const MOp *m, BBlock *b)
{
	OpKind ek;
	bool i1only;

	if (!strncmp(m->name, "linalg.", 7) && strcmp(m->name, "linalg.yield")) {
		op_linalg(M, m, b);
		return;
	}
	if (!strcmp(m->name, "scf.yield") || !strcmp(m->name, "async.yield") ||
	    !strcmp(m->name, "scf.forall.in_parallel")) {
		op_yield(M, m, b, BI_YIELD);
		return;
	}
	if (!strcmp(m->name, "func.return")) {
		op_yield(M, m, b, BI_RETURN);
		return;
	}
	if ((ek = ew_of_mlir(m->name, EWM_I1, &i1only)) != OP_NONE) {
		op_arith(M, m, b, ek, i1only);
		return;
	}
	for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
		if (!strcmp(op_table[k].name, m->name)) {
			op_table[k].fn(M, m, b);
			return;
		}
	unsupported(M, m);
}

static void
block_ops(MX *M, const MBlock *mb, BBlock *b)
{
	for (int i = 0; i < mb->nops; i++)
		one_op(M, mb->ops[i], b);
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

	if (!name || !ft || m->nregions != 1)
		mx_fail(M, m, "func.func without a name, type or body");
	if (!m->regions[0].nblocks)
		return; /* a declaration: calls of it are refused */
	if (m->regions[0].nblocks != 1)
		mx_fail(M, m, "func.func with several blocks is not executed");
	fn.name = mattr_str(name, M->a);
	fn.m = m;
	fn.tf = fn.name ? prog_func(M->p, fn.name) : NULL;
	f = fn.f = arena_alloc(M->a, sizeof *f);
	f->name = fn.name;
	f->loc = fn.tf ? fn.tf->loc : M->c->entry->loc;
	mb = m->regions[0].blocks[0];
	f->nparams = mb->nargs;
	f->params = arena_alloc(M->a, (size_t)(mb->nargs + 1) * sizeof *f->params);
	fn_results(M, m, ft->text, f);
	M->cur = &fn;
	for (int i = 0; i < mb->nargs; i++) {
		Value *v = new_value(M, mb->args[i], mx_type(M, m, mb->argtypes[i]));
		v->isparam = true;
		if (fn.tf && i < fn.tf->nparams) {
			v->readonly = fn.tf->params[i]->readonly;
			v->loc = fn.tf->params[i]->loc;
		}
		f->params[i] = v;
	}
	M->cur = NULL;
	VEC_PUSH(M->a, M->fns, M->nfns, M->capfns, fn);
}

static BBlock *
fn_body(MX *M, const MFn *fn)
{
	BBlock *b = arena_alloc(M->a, sizeof *b);
	const MBlock *mb = fn->m->regions[0].blocks[0];

	M->nsyms = 0;
	M->cur = fn;
	for (int i = 0; i < mb->nargs; i++) {
		sym_bind(M, mb->args[i], fn->f->params[i]);
		if (fn->tf && i < fn->tf->nparams)
			emit_ver(M, b, fn->tf->params[i], fn->f->params[i], NULL);
	}
	block_ops(M, mb, b);
	if (!b->n || (b->insts[b->n - 1]->kind != BI_RETURN))
		mx_fail(M, fn->m, "func.func @%s does not end with func.return",
			fn->name);
	return b;
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
			unsupported(&M, mb->ops[i]);
	M.bp->nfuncs = M.nfns;
	M.bp->funcs = arena_alloc(M.a, (size_t)(M.nfns + 1) * sizeof *M.bp->funcs);
	*entry = NULL;
	for (int i = 0; i < M.nfns; i++) {
		M.bp->funcs[i].f = M.fns[i].f;
		M.bp->funcs[i].body = fn_body(&M, &M.fns[i]);
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
