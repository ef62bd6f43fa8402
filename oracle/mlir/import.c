/*
 * import.c: tensor-level MLIR in the generic op form (mlir_read.c) -> TIR
 * text (docs/import.md).  The inverse of export.c: every form the exporter
 * writes comes back as the TIR op it came from; anything else outside the
 * subset is an error at the op's location, never a guess.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"

/* One MLIR value: its TIR spelling ("%x", or a literal "10" for a constant
 * inlined where TIR takes literals), its type text, a future's values. */
typedef struct IVal {
	const char *mlir, *tir, *type;
	const MOp *cst;          /* a scalar arith.constant that may be inlined */
	int fut;                 /* async value j of future tir (>= 1), 0 token, -1 */
	const char **awaited;    /* future: the TIR names of its awaited values */
	int nvals;               /* future: its values */
} IVal;

typedef struct Imp {
	Arena *a;
	const char *file;
	Str *out;
	Diag *d;
	const char **dfile;
	jmp_buf jb;
	MOp *top;
	IVal *vals;
	int nvals, cap;
	const MOp *func;
	const MOp *prev;         /* the op before the current one in its block */
	const char **used;       /* TIR names defined in the function */
	int nused, capused;
	const char **todo;       /* functions to emit, in order */
	int ntodo, captodo;
} Imp;

static void imp_ops(Imp *I, const MBlock *b, int depth);

/* ---------------------------------------------------------------- errors */

static Loc
op_loc(Imp *I, const MOp *op, const char **file)
{
	if (op->loc.file && op->loc.line > 0) {
		*file = op->loc.file;
		return (Loc){op->loc.line, op->loc.col};
	}
	*file = I->file;
	return op->at;
}

static void __attribute__((noreturn, format(printf, 3, 4)))
imp_fail(Imp *I, const MOp *op, const char *fmt, ...)
{
	va_list ap;
	const char *f = I->file;
	Loc l = op ? op_loc(I, op, &f) : (Loc){0, 0};

	va_start(ap, fmt);
	vsnprintf(I->d->msg, sizeof I->d->msg, fmt, ap);
	va_end(ap);
	I->d->loc = l;
	*I->dfile = f;
	longjmp(I->jb, 1);
}

static bool
same_loc(Imp *I, const MOp *x, const MOp *y)
{
	const char *fx, *fy;
	Loc a = op_loc(I, x, &fx), b = op_loc(I, y, &fy);

	return x->loc.file && y->loc.file && !strcmp(fx, fy) &&
	       a.line == b.line && a.col == b.col;
}

/* ----------------------------------------------------------------- types */

static bool
dtype_ok(const char *s, size_t n)
{
	for (int k = 0; k < DT_COUNT; k++)
		if (strlen(dtype_names[k]) == n && !strncmp(s, dtype_names[k], n))
			return true;
	return false;
}

/* A type TIR can hold: the scalar dtypes and tensor<DIMSxDT>, dims static
 * or `?`, within the element limit.  Returns rank (-1 a scalar). */
static int
type_check(Imp *I, const MOp *op, const char *t)
{
	const char *p;
	int rank = 0;
	double elems = 1;

	if (dtype_ok(t, strlen(t)))
		return -1;
	if (strncmp(t, "tensor<", 7))
		imp_fail(I, op, "unsupported type '%s'", t);
	p = t + 7;
	for (;;) {
		const char *q = p;
		if (*p == '?') {
			q = p + 1;
		} else {
			while (*q >= '0' && *q <= '9')
				q++;
			if (q == p || *q != 'x')
				break;
			elems *= strtod(p, NULL);
		}
		if (*q != 'x')
			imp_fail(I, op, "unsupported type '%s'", t);
		if (++rank > MAXRANK)
			imp_fail(I, op, "rank over %d in type '%s'", MAXRANK, t);
		p = q + 1;
	}
	size_t n = strlen(p);
	if (n < 2 || p[n - 1] != '>' || !dtype_ok(p, n - 1))
		imp_fail(I, op, "unsupported type '%s'", t);
	if (elems > (double)default_limits.max_elems)
		imp_fail(I, op, "shape too large in type '%s' (limit %" PRId64
			 " elements)", t, default_limits.max_elems);
	return rank;
}

/* ---------------------------------------------------------------- values */

static IVal *
val_find(Imp *I, const char *mlir)
{
	for (int i = I->nvals - 1; i >= 0; i--)
		if (!strcmp(I->vals[i].mlir, mlir))
			return &I->vals[i];
	return NULL;
}

static IVal *
val_add(Imp *I, const MOp *op, const char *mlir, const char *tir,
	const char *type)
{
	IVal v = {mlir, tir, type, NULL, -1, NULL, 0};

	if (strcmp(type, "!async.token") && strncmp(type, "!async.value<", 13))
		type_check(I, op, type);
	if (I->nvals == I->cap) {
		int nc = I->cap ? 2 * I->cap : 64;
		IVal *nv = arena_alloc(I->a, nc * sizeof *nv);
		if (I->nvals)
			memcpy(nv, I->vals, I->nvals * sizeof *nv);
		I->vals = nv;
		I->cap = nc;
	}
	I->vals[I->nvals] = v;
	return &I->vals[I->nvals++];
}

/* MLIR's `%1#0` as a TIR name: `%1_0`. */
static const char *
tir_name(Imp *I, const char *mlir)
{
	char *s = arena_strdup(I->a, mlir), *h = strchr(s, '#');

	if (h)
		*h = '_';
	/* mlir-opt-16 numbers the values of sibling regions alike: TIR
	 * wants one definition per name in a function */
	for (int k = 1; ; k++) {
		bool taken = false;
		for (int i = 0; i < I->nused && !taken; i++)
			taken = !strcmp(I->used[i], s);
		if (!taken)
			break;
		char buf[200];
		snprintf(buf, sizeof buf, "%s_%d", mlir, k);
		if ((h = strchr(buf, '#')))
			*h = '_';
		s = arena_strdup(I->a, buf);
	}
	VEC_PUSH(I->a, I->used, I->nused, I->capused, (const char *)s);
	return s;
}

static IVal *
operand(Imp *I, const MOp *op, int i)
{
	IVal *v;

	if (i >= op->noperands)
		imp_fail(I, op, "'%s' needs more operands", op->name);
	if (!(v = val_find(I, op->operands[i])))
		imp_fail(I, op, "use of undefined value %s", op->operands[i]);
	return v;
}

/* Operand i as TIR text: a literal only where the caller takes one. */
static const char *
arg(Imp *I, const MOp *op, int i, bool lit_ok)
{
	IVal *v = operand(I, op, i);

	if (v->fut >= 0)
		imp_fail(I, op, "an async value used other than by async.await");
	if (v->cst && !lit_ok)
		imp_fail(I, op, "internal: literal %s not taken", v->tir);
	return v->tir;
}

static void
def(Imp *I, const MOp *op, int j)
{
	if (j >= op->nresults)
		imp_fail(I, op, "'%s' has too few results", op->name);
	val_add(I, op, op->results[j], tir_name(I, op->results[j]),
		op->restypes[j]);
}

/* ----------------------------------------------------------------- text */

static void
ind(Imp *I, int depth)
{
	for (int i = 0; i < depth; i++)
		str_puts(I->out, "  ");
}

/* `%r0, %r1 = ` for op's results (defining them). */
static void
put_results(Imp *I, const MOp *op, int depth)
{
	ind(I, depth);
	for (int j = 0; j < op->nresults; j++) {
		def(I, op, j);
		str_printf(I->out, "%s%s", j ? ", " : "", I->vals[I->nvals - 1].tir);
	}
	if (op->nresults)
		str_puts(I->out, " = ");
}

static void
put_list(Imp *I, const MOp *op, int from, int to, bool lit_ok)
{
	for (int i = from; i < to; i++)
		str_printf(I->out, "%s%s", i > from ? ", " : "",
			   arg(I, op, i, lit_ok));
}

static void
put_type_end(Imp *I, const MOp *op)
{
	str_printf(I->out, " : %s\n", op->restypes[0]);
}

/* ----------------------------------------------------------- attributes */

static int
segments(Imp *I, const MOp *op, int64_t *seg, int n)
{
	const MAttr *a = mop_attr(op, "operandSegmentSizes");
	int k;

	if (!a)
		a = mop_attr(op, "operand_segment_sizes");
	if (!a || (k = mattr_ints(a, seg, n)) != n)
		imp_fail(I, op, "'%s' without its operand segments", op->name);
	return k;
}

static int
ints_attr(Imp *I, const MOp *op, const char *name, int64_t *out, int n)
{
	int k = mattr_ints(mop_attr(op, name), out, n);

	if (k < 0 || k > n)
		imp_fail(I, op, "'%s' needs a list attribute '%s'", op->name, name);
	return k;
}

/* Reject attributes the subset does not hold. */
static void
no_attr(Imp *I, const MOp *op, const char *name)
{
	if (mop_attr(op, name))
		imp_fail(I, op, "unsupported attribute '%s' on '%s'", name,
			 op->name);
}

/* ---------------------------------------------------------- ops: scalars */

/* The TIR op of an arith/math op on its operands as they are (ops.h's
 * spellings, with the import-only ones), or NULL. */
static const char *
scalar_tir(const char *name)
{
	OpKind k = ew_of_mlir(name, EWM_EXTRA, NULL);

	return k == OP_NONE ? NULL : op_info[k].name;
}

static bool
is_zero_lit(const IVal *v)
{
	return v->cst && strtod(v->tir, NULL) == 0 && !strchr(v->tir, '-');
}

static void
im_scalar(Imp *I, const MOp *op, int depth)
{
	const char *t = scalar_tir(op->name);

	/* the exporter's integer neg: subi 0, x with the 0 at the op's loc */
	if (!strcmp(op->name, "arith.subi") && op->noperands == 2 &&
	    is_zero_lit(operand(I, op, 0))) {
		put_results(I, op, depth);
		str_printf(I->out, "neg %s", arg(I, op, 1, false));
		put_type_end(I, op);
		return;
	}
	if (op->nresults != 1)
		imp_fail(I, op, "'%s' needs one result", op->name);
	put_results(I, op, depth);
	str_printf(I->out, "%s ", t);
	put_list(I, op, 0, op->noperands, true);
	put_type_end(I, op);
}

/* The TIR compare of an arith.cmpi/cmpf: its predicate by name
 * (`#arith<cmpi_predicate slt>`) or by MLIR's number. */
static const char *
cmp_pred(Imp *I, const MOp *op)
{
	const MAttr *a = mop_attr(op, "predicate");
	bool f = !strcmp(op->name, "arith.cmpf");
	int64_t k = -1;
	OpKind c = OP_NONE;

	if (!a)
		imp_fail(I, op, "'%s' without a predicate", op->name);
	if (mattr_int(a, &k) < 0) {
		const char *w = strrchr(a->text, ' ');
		const char *gt;

		w = w ? w + 1 : a->text;
		gt = strchr(w, '>');
		if (gt)
			c = ew_of_pred(w, (size_t)(gt - w), f);
	} else if (mlir_cmp_pred(f, k)) {
		const char *p = mlir_cmp_pred(f, k);

		c = ew_of_pred(p, strlen(p), f);
	}
	if (c == OP_NONE)
		imp_fail(I, op, "unsupported predicate '%s'", a->text);
	return op_info[c].name;
}

static void
im_cmp(Imp *I, const MOp *op, int depth)
{
	const char *p = cmp_pred(I, op);

	IVal *a = operand(I, op, 0);

	if (a->cst)
		a = operand(I, op, 1);
	put_results(I, op, depth);
	str_printf(I->out, "%s ", p);
	put_list(I, op, 0, 2, true);
	str_printf(I->out, " : %s\n", a->type);
}

/* ------------------------------------------------------------ constants */

/* Users of `name` in the current function that are not `self`. */
typedef struct Uses {
	const char *name;
	const MOp *self;
	const MOp **users;
	int n, cap;
	Arena *a;
} Uses;

static void
uses_fn(MOp *op, void *ctx)
{
	Uses *u = ctx;

	for (int i = 0; i < op->noperands; i++)
		if (!strcmp(op->operands[i], u->name)) {
			VEC_PUSH(u->a, u->users, u->n, u->cap, (const MOp *)op);
			return;
		}
}

/* Ops whose operands are values in TIR, never literals. */
static bool
takes_literals(const MOp *op)
{
	static const char *const no[] = {
		"func.return", "func.call", "scf.yield", "async.yield",
		"scf.condition", "scf.if", "cf.assert", "arith.select",
		"vector.print",
		"tensor.empty", "bufferization.alloc_tensor", "tensor.cast",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (!strcmp(op->name, no[i]))
			return false;
	return true;
}

/* The block op is in (names are unique there, nested regions included). */
static const MBlock *
const_block(const MOp *op)
{
	const MOp *p = op->parent;

	for (int r = 0; p && r < p->nregions; r++)
		for (int k = 0; k < p->regions[r].nblocks; k++) {
			const MBlock *b = p->regions[r].blocks[k];
			for (int i = 0; i < b->nops; i++)
				if (b->ops[i] == op)
					return b;
		}
	return NULL;
}

/* A scalar constant the exporter made for a literal: it carries the loc
 * of every op that uses it, and they all take literals. */
static bool
inlinable(Imp *I, const MOp *op)
{
	Uses u = {op->results[0], op, NULL, 0, 0, I->a};
	const MBlock *b = const_block(op);

	for (int i = 0; b && i < b->nops; i++)
		mop_walk(b->ops[i], uses_fn, &u);
	if (!u.n)
		return false;
	for (int i = 0; i < u.n; i++)
		if (!same_loc(I, op, u.users[i]) || !takes_literals(u.users[i]))
			return false;
	return true;
}

/* `10 : i32`, `1.5e+00 : f32`, `0x7FC00000 : f32`, `true` -> TIR text. */
static const char *
scalar_text(Imp *I, const MOp *op, const char *v, const char *type)
{
	char buf[64];
	size_t n = strcspn(v, " :");
	char *s = arena_strndup(I->a, v, n);

	if (!strcmp(s, "true") || !strcmp(s, "false"))
		return !strcmp(s, "true") ? "1" : "0";
	if (!strncmp(s, "0x", 2) && (!strcmp(type, "f32") || !strcmp(type, "f64"))) {
		uint64_t bits = strtoull(s, NULL, 16);
		double f;
		if (!strcmp(type, "f32")) {
			uint32_t b32 = (uint32_t)bits;
			float g;
			memcpy(&g, &b32, 4);
			f = g;
		} else {
			memcpy(&f, &bits, 8);
		}
		if (isnan(f))
			return "nan";
		if (isinf(f))
			return f > 0 ? "inf" : "-inf";
		snprintf(buf, sizeof buf, "%.17g", f);
		return arena_strdup(I->a, buf);
	}
	char *end;
	strtod(s, &end);
	if (end == s || *end)
		imp_fail(I, op, "unsupported constant '%s'", v);
	return s;
}

/* `dense<[1.5, 0x7FC00000]>` with the hex bits as TIR floats. */
static void
dense_text(Imp *I, const MOp *op, const char *p, const char *end,
	   const char *type)
{
	const char *dt = strrchr(type, 'x') ? strrchr(type, 'x') + 1 : type + 7;
	char *et = arena_strndup(I->a, dt, strcspn(dt, ">"));

	while (p < end) {
		if (p[0] == '0' && p[1] == 'x') {
			size_t n = strspn(p + 2, "0123456789abcdefABCDEF") + 2;
			str_puts(I->out, scalar_text(I, op, arena_strndup(I->a, p, n),
						     et));
			p += n;
		} else {
			str_put(I->out, p++, 1);
		}
	}
}

static void
im_const(Imp *I, const MOp *op, int depth)
{
	const MAttr *a = mop_attr(op, "value");
	const char *type = op->nresults == 1 ? op->restypes[0] : "";
	int rank;

	if (!a || op->nresults != 1)
		imp_fail(I, op, "'arith.constant' without a value");
	rank = type_check(I, op, type);
	if (rank < 0) {
		const char *t = scalar_text(I, op, a->text, type);
		if (inlinable(I, op)) {
			IVal *v = val_add(I, op, op->results[0], t, type);
			v->cst = op;
			return;
		}
		put_results(I, op, depth);
		str_printf(I->out, "const %s : %s\n", t, type);
		return;
	}
	/* dense<...> : tensor<...>, spelled the same in TIR */
	size_t n = strlen(a->text);
	const char *colon = strstr(a->text, "> : ");
	if (strncmp(a->text, "dense<", 6) || !colon || strstr(a->text, "dense<\"") ||
	    strcmp(colon + 4, type))
		imp_fail(I, op, "unsupported constant '%.60s'", a->text);
	for (const char *p = a->text; p < a->text + n; p++)
		if (*p == '(' || *p == '"')
			imp_fail(I, op, "unsupported constant '%.60s'", a->text);
	put_results(I, op, depth);
	str_puts(I->out, "const ");
	dense_text(I, op, a->text, colon + 1, type);
	str_printf(I->out, " : %s\n", type);
}

/* --------------------------------------------------------------- tensor */

static void
im_empty(Imp *I, const MOp *op, int depth)
{
	int ndyn = op->noperands;

	if (!strcmp(op->name, "bufferization.alloc_tensor")) {
		int64_t seg[3];
		segments(I, op, seg, 3);
		no_attr(I, op, "memory_space");
		if (seg[2])
			imp_fail(I, op, "unsupported operand 'size_hint'");
		if (seg[1]) {
			put_results(I, op, depth);
			str_printf(I->out, "clone %s", arg(I, op, (int)seg[0], false));
			put_type_end(I, op);
			return;
		}
		ndyn = (int)seg[0];
	}
	put_results(I, op, depth);
	str_puts(I->out, "empty");
	if (ndyn) {
		str_puts(I->out, "(");
		put_list(I, op, 0, ndyn, false);
		str_puts(I->out, ")");
	}
	put_type_end(I, op);
}

static void
im_extract(Imp *I, const MOp *op, int depth)
{
	bool ins = !strcmp(op->name, "tensor.insert");

	put_results(I, op, depth);
	if (ins)
		str_printf(I->out, "insert %s into %s[", arg(I, op, 0, true),
			   arg(I, op, 1, false));
	else
		str_printf(I->out, "extract %s[", arg(I, op, 0, false));
	put_list(I, op, ins ? 2 : 1, op->noperands, true);
	str_puts(I->out, "]");
	put_type_end(I, op);
}

/* `[offs] [sizes] [strides]` from static_* with dynamic offsets from the
 * operands at `from`; dynamic sizes and strides are outside the subset. */
static void
put_slice(Imp *I, const MOp *op, int from, int nseg)
{
	int64_t seg[5], offs[MAXRANK], sizes[MAXRANK], strides[MAXRANK];
	int n = ints_attr(I, op, "static_offsets", offs, MAXRANK);
	int k = from;

	segments(I, op, seg, nseg);
	if (seg[nseg - 2] || seg[nseg - 1] ||
	    ints_attr(I, op, "static_sizes", sizes, MAXRANK) != n ||
	    ints_attr(I, op, "static_strides", strides, MAXRANK) != n)
		imp_fail(I, op, "dynamic sizes or strides in '%s'", op->name);
	str_puts(I->out, "[");
	for (int i = 0; i < n; i++) {
		str_puts(I->out, i ? ", " : "");
		if (offs[i] == INT64_MIN)
			str_puts(I->out, arg(I, op, k++, true));
		else
			str_printf(I->out, "%" PRId64, offs[i]);
	}
	str_puts(I->out, "] [");
	for (int i = 0; i < n; i++)
		str_printf(I->out, "%s%" PRId64, i ? ", " : "", sizes[i]);
	str_puts(I->out, "] [");
	for (int i = 0; i < n; i++)
		str_printf(I->out, "%s%" PRId64, i ? ", " : "", strides[i]);
	str_puts(I->out, "]");
}

static int
rank_of(Imp *I, const MOp *op, const char *type)
{
	int r = type_check(I, op, type);

	return r < 0 ? 0 : r;
}

static void
im_slice(Imp *I, const MOp *op, int depth)
{
	bool ins = !strcmp(op->name, "tensor.insert_slice");
	IVal *src = operand(I, op, 0);

	if (rank_of(I, op, src->type) != rank_of(I, op, ins ?
			operand(I, op, 1)->type : op->restypes[0]))
		imp_fail(I, op, "rank-reducing '%s'", op->name);
	put_results(I, op, depth);
	if (ins)
		str_printf(I->out, "insert_slice %s into %s", arg(I, op, 0, false),
			   arg(I, op, 1, false));
	else
		str_printf(I->out, "extract_slice %s", arg(I, op, 0, false));
	put_slice(I, op, ins ? 2 : 1, ins ? 5 : 4);
	put_type_end(I, op);
}

/* A cast only renames (the exporter's cast of a call argument). */
static void
im_cast(Imp *I, const MOp *op, int depth)
{
	IVal *v = operand(I, op, 0);

	(void)depth;
	if (op->nresults != 1 || v->cst || v->fut >= 0)
		imp_fail(I, op, "unsupported 'tensor.cast'");
	type_check(I, op, op->restypes[0]);
	val_add(I, op, op->results[0], v->tir, v->type);
}

static void
im_from_elements(Imp *I, const MOp *op, int depth)
{
	put_results(I, op, depth);
	str_puts(I->out, "from_elements ");
	put_list(I, op, 0, op->noperands, true);
	put_type_end(I, op);
}

static void
im_reshape(Imp *I, const MOp *op, int depth)
{
	const MAttr *a = mop_attr(op, "reassociation");

	if (!a || op->noperands != 1)
		imp_fail(I, op, "unsupported '%s'", op->name);
	for (const char *p = a->text; *p; p++)
		if (!strchr("[], 0123456789", *p))
			imp_fail(I, op, "unsupported reassociation '%s'", a->text);
	put_results(I, op, depth);
	str_printf(I->out, "%s %s %s", strchr(op->name, '.') + 1,
		   arg(I, op, 0, false), a->text);
	put_type_end(I, op);
}

/* --------------------------------------------------------------- linalg */

/* ins and outs of a DPS op: the first ins, then outs; -1 if no segments */
static void
ins_outs(Imp *I, const MOp *op, int *nin, int *nout)
{
	int64_t seg[2];

	segments(I, op, seg, 2);
	*nin = (int)seg[0];
	*nout = (int)seg[1];
	if (*nout != 1 || op->nresults != 1)
		imp_fail(I, op, "'%s' with %d outs and %d results", op->name,
			 *nout, op->nresults);
}

static void
im_dps(Imp *I, const MOp *op, const char *tir, int want_in, int depth)
{
	int nin, nout;

	ins_outs(I, op, &nin, &nout);
	if (nin != want_in)
		imp_fail(I, op, "'%s' with %d inputs", op->name, nin);
	put_results(I, op, depth);
	str_printf(I->out, "%s ", tir);
	put_list(I, op, 0, nin, !strcmp(tir, "fill"));
	str_printf(I->out, " into %s", arg(I, op, nin, false));
	put_type_end(I, op);
}

/* linalg.elemwise_binary/unary's `fun = #linalg.binary_fn<add>` (19):
 * the funs of ops.h's EW rows. */
static const char *
elemwise_fun(Imp *I, const MOp *op)
{
	const MAttr *a = mop_attr(op, "fun");
	const char *lt = a ? strchr(a->text, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;
	OpKind k = gt ? ew_of_linalg(lt + 1, (size_t)(gt - lt - 1), true)
		      : OP_NONE;

	if (k == OP_NONE)
		imp_fail(I, op, "unsupported attribute 'fun' on '%s'", op->name);
	return op_info[k].name;
}

static void
im_named(Imp *I, const MOp *op, int depth)
{
	const char *n = op->name + 7;
	OpKind k = ew_of_linalg(n, strlen(n), false);

	no_attr(I, op, "cast");
	if (!strcmp(n, "fill") || !strcmp(n, "copy"))
		return im_dps(I, op, n, 1, depth);
	if (!strcmp(n, "matmul")) {
		const MAttr *m = mop_attr(op, "indexing_maps");
		if (m && !strstr(m->text, "(d0, d1, d2) -> (d0, d2)>, affine_map<"
				 "(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, "
				 "d2) -> (d0, d1)>"))
			imp_fail(I, op, "unsupported attribute 'indexing_maps' on "
				 "'linalg.matmul'");
		return im_dps(I, op, n, 2, depth);
	}
	if (k != OP_NONE) /* linalg.add, linalg.negf, ... (ops.h) */
		return im_dps(I, op, op_info[k].name,
			      op_info[k].form == F_BINARY ? 2 : 1, depth);
	if (!strcmp(n, "elemwise_binary") || !strcmp(n, "elemwise_unary"))
		return im_dps(I, op, elemwise_fun(I, op), n[9] == 'b' ? 2 : 1,
			      depth);
	imp_fail(I, op, "unsupported op '%s'", op->name);
}

static void
put_ints(Imp *I, const int64_t *v, int n)
{
	str_puts(I->out, " [");
	for (int i = 0; i < n; i++)
		str_printf(I->out, "%s%" PRId64, i ? ", " : "", v[i]);
	str_puts(I->out, "]");
}

static void
im_transpose(Imp *I, const MOp *op, int depth)
{
	int64_t p[MAXRANK];
	int n = ints_attr(I, op, "permutation", p, MAXRANK);

	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "unsupported 'linalg.transpose'");
	put_results(I, op, depth);
	str_printf(I->out, "transpose %s", arg(I, op, 0, false));
	put_ints(I, p, n);
	str_printf(I->out, " into %s", arg(I, op, 1, false));
	put_type_end(I, op);
}

/* The single op of a linalg body before its yield, or NULL when the body
 * yields a block argument directly. */
static const MOp *
body_op(Imp *I, const MOp *op, int *nops)
{
	const MBlock *b;

	if (op->nregions != 1 || op->regions[0].nblocks != 1)
		imp_fail(I, op, "'%s' without a body", op->name);
	b = op->regions[0].blocks[0];
	*nops = b->nops;
	return b->nops >= 2 ? b->ops[b->nops - 2] : NULL;
}

static const char *
reduce_kind(Imp *I, const MOp *op)
{
	int n;
	const MOp *b = body_op(I, op, &n);
	const char *t = b && n == 2 ? scalar_tir(b->name) : NULL;

	if (t && !strcmp(t, "add"))
		return "reduce.sum";
	if (t && !strcmp(t, "max"))
		return "reduce.max";
	imp_fail(I, op, "unsupported reduction body in '%s'", op->name);
}

static void
im_reduce(Imp *I, const MOp *op, int depth)
{
	int64_t dims[MAXRANK];
	int n = ints_attr(I, op, "dimensions", dims, MAXRANK);
	const char *k = reduce_kind(I, op);

	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "'linalg.reduce' of several tensors");
	put_results(I, op, depth);
	str_printf(I->out, "%s %s", k, arg(I, op, 0, false));
	put_ints(I, dims, n);
	str_printf(I->out, " into %s", arg(I, op, 1, false));
	put_type_end(I, op);
}

/* An affine map `(d0, d1) -> (d1, d0)` as result dims; -1 for anything
 * but a plain dim.  Returns the result count; *ndims the domain's. */
static int
affine(Imp *I, const MOp *op, const char *p, int *res, int *ndims)
{
	const char *arrow = strstr(p, "->"), *q;
	int n = 0;

	*ndims = 0;
	if (!arrow)
		imp_fail(I, op, "unsupported indexing map");
	for (q = p; q < arrow; q++)
		*ndims += *q == 'd';
	if (strchr(p, '[') && strchr(p, '[') < arrow)
		imp_fail(I, op, "unsupported indexing map with symbols");
	for (q = strchr(arrow, '(') + 1; *q && *q != ')'; ) {
		char *e;
		while (*q == ' ' || *q == ',')
			q++;
		if (*q == ')')
			break;
		if (*q != 'd' || n == MAXRANK)
			imp_fail(I, op, "unsupported indexing map");
		res[n++] = (int)strtol(q + 1, &e, 10);
		q = e;
		if (*q != ',' && *q != ')')
			imp_fail(I, op, "unsupported indexing map");
	}
	return n;
}

typedef struct Maps {
	int n, ndims;
	int nres[8];
	int res[8][MAXRANK];
} Maps;

static void
maps_read(Imp *I, const MOp *op, Maps *m)
{
	const MAttr *a = mop_attr(op, "indexing_maps");
	const char *p = a ? a->text : "";

	m->n = 0;
	while ((p = strstr(p, "affine_map<"))) {
		int nd;
		if (m->n == 8)
			imp_fail(I, op, "too many operands in '%s'", op->name);
		m->nres[m->n] = affine(I, op, p, m->res[m->n], &nd);
		if (m->n && nd != m->ndims)
			imp_fail(I, op, "unsupported indexing maps");
		m->ndims = nd;
		m->n++;
		p += 11;
	}
	if (!a || m->n != op->noperands)
		imp_fail(I, op, "unsupported indexing maps (aliases need "
			 "--mlir-print-local-scope)");
}

static bool
map_identity(const Maps *m, int k)
{
	if (m->nres[k] != m->ndims)
		return false;
	for (int i = 0; i < m->nres[k]; i++)
		if (m->res[k][i] != i)
			return false;
	return true;
}

/* The block argument index of body value `name`, or -1. */
static int
barg(const MBlock *b, const char *name)
{
	for (int i = 0; i < b->nargs; i++)
		if (!strcmp(b->args[i], name))
			return i;
	return -1;
}

/* The elementwise op a linalg body computes: "add", "relu", "copy"
 * (yields its first input); the body args it reads into which[]. */
static const char *
ew_body(Imp *I, const MOp *op, int *which, int *nwhich)
{
	const MBlock *b;
	int nops;
	const MOp *e = body_op(I, op, &nops), *y;

	b = op->regions[0].blocks[0];
	y = b->ops[b->nops - 1];
	*nwhich = 0;
	if (y->noperands != 1)
		imp_fail(I, op, "unsupported body in '%s'", op->name);
	if (nops == 1 && (which[0] = barg(b, y->operands[0])) >= 0) {
		*nwhich = 1;
		return "copy";
	}
	if (nops == 3 && !strcmp(b->ops[0]->name, "arith.constant") && e &&
	    mop_attr(b->ops[0], "value") &&
	    strtod(mop_attr(b->ops[0], "value")->text, NULL) == 0) {
		/* relu = max(x, 0); the exporter's integer neg = subi 0, x */
		const char *c = b->ops[0]->results[0];
		bool relu = !strcmp(e->name, "arith.maxsi") ||
			    (scalar_tir(e->name) && !strcmp(scalar_tir(e->name), "max"));
		bool neg = !strcmp(e->name, "arith.subi");
		if (e->noperands == 2 && ((relu && !strcmp(e->operands[1], c)) ||
		    (neg && !strcmp(e->operands[0], c))) &&
		    (which[0] = barg(b, e->operands[relu ? 0 : 1])) >= 0) {
			*nwhich = 1;
			return relu ? "relu" : "neg";
		}
	}
	if (nops != 2 || !scalar_tir(e->name) || strcmp(y->operands[0],
							e->results[0]))
		imp_fail(I, op, "unsupported body in '%s'", op->name);
	for (int i = 0; i < e->noperands && i < 2; i++)
		if ((which[(*nwhich)++] = barg(b, e->operands[i])) < 0)
			imp_fail(I, op, "unsupported body in '%s'", op->name);
	return scalar_tir(e->name);
}

/* `add %a, %b [into %d]`: without into when the outs is the first input
 * of the result's type (the exporter's choice). */
static void
put_ew(Imp *I, const MOp *op, const char *t, const int *which, int nw,
       int nin, int depth)
{
	const char *d = op->operands[nin];
	int first = -1;

	for (int i = 0; i < nw; i++)
		if (which[i] >= nin)
			imp_fail(I, op, "'%s' reads its output", op->name);
	for (int i = 0; i < nin && first < 0; i++)
		if (!strcmp(operand(I, op, i)->type, op->restypes[0]))
			first = i;
	put_results(I, op, depth);
	str_printf(I->out, "%s ", t);
	for (int i = 0; i < nw; i++)
		str_printf(I->out, "%s%s", i ? ", " : "",
			   arg(I, op, which[i], true));
	if (!strcmp(t, "copy") || first < 0 || strcmp(op->operands[first], d) ||
	    mop_attr(op, "bufdiff.into"))
		str_printf(I->out, " into %s", arg(I, op, nin, false));
	put_type_end(I, op);
}

/* A reduction generic: one input read whole (identity map), the output
 * indexed by the kept dims in order, body add or max of the two. */
static void
im_generic_red(Imp *I, const MOp *op, const Maps *m, int depth)
{
	int64_t dims[MAXRANK];
	int nd = 0, k = 0;
	const char *kind = reduce_kind(I, op);

	if (op->noperands != 2 || !map_identity(m, 0))
		imp_fail(I, op, "unsupported indexing maps in '%s'", op->name);
	for (int d = 0; d < m->ndims; d++) {
		if (k < m->nres[1] && m->res[1][k] == d)
			k++;
		else
			dims[nd++] = d;
	}
	if (k != m->nres[1])
		imp_fail(I, op, "unsupported indexing maps in '%s'", op->name);
	put_results(I, op, depth);
	str_printf(I->out, "%s %s", kind, arg(I, op, 0, false));
	put_ints(I, dims, nd);
	str_printf(I->out, " into %s", arg(I, op, 1, false));
	put_type_end(I, op);
}

static void
im_generic(Imp *I, const MOp *op, int depth)
{
	Maps m;
	int nin, nout, which[4], nw, rank = rank_of(I, op, op->restypes[0]);
	const MAttr *it = mop_attr(op, "iterator_types");
	const char *t;

	ins_outs(I, op, &nin, &nout);
	maps_read(I, op, &m);
	if (!it || strstr(it->text, "reduction"))
		return im_generic_red(I, op, &m, depth);
	t = ew_body(I, op, which, &nw);
	if (!strcmp(t, "copy") && nin == 1 && map_identity(&m, 1) &&
	    !map_identity(&m, 0) && m.nres[0] == m.ndims) {
		int64_t p[MAXRANK];
		for (int k = 0; k < m.ndims; k++)
			p[m.res[0][k]] = k;
		put_results(I, op, depth);
		str_printf(I->out, "transpose %s", arg(I, op, 0, false));
		put_ints(I, p, m.ndims);
		str_printf(I->out, " into %s", arg(I, op, 1, false));
		return put_type_end(I, op);
	}
	for (int k = 0; k <= nin; k++)
		if (!map_identity(&m, k) && !(m.nres[k] == 0 && k < nin &&
		    rank_of(I, op, operand(I, op, k)->type) == 0))
			imp_fail(I, op, "unsupported indexing maps in '%s'",
				 op->name);
	if (m.ndims != rank)
		imp_fail(I, op, "unsupported indexing maps in '%s'", op->name);
	put_ew(I, op, t, which, nw, nin, depth);
}

static void
im_map(Imp *I, const MOp *op, int depth)
{
	int which[4], nw, nin = op->noperands - 1;
	const char *t = ew_body(I, op, which, &nw);

	if (op->nresults != 1 || nin < 1)
		imp_fail(I, op, "unsupported 'linalg.map'");
	put_ew(I, op, t, which, nw, nin, depth);
}

/* ------------------------------------------------------ regions, async */

static void
im_copy(Imp *I, const MOp *op, int depth)
{
	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "unsupported '%s' (not on tensors)", op->name);
	put_results(I, op, depth);
	str_printf(I->out, "copy %s into %s", arg(I, op, 0, false),
		   arg(I, op, 1, false));
	put_type_end(I, op);
}

static void
put_rtypes(Imp *I, const MOp *op, int from)
{
	if (op->nresults <= from)
		return;
	str_puts(I->out, " -> (");
	for (int j = from; j < op->nresults; j++) {
		const char *t = op->restypes[j];
		size_t n = strlen(t);
		if (!strncmp(t, "!async.value<", 13))
			str_printf(I->out, "%s%.*s", j > from ? ", " : "",
				   (int)(n - 14), t + 13);
		else
			str_printf(I->out, "%s%s", j > from ? ", " : "", t);
	}
	str_puts(I->out, ")");
}

static void
region(Imp *I, const MOp *op, int k, int depth)
{
	if (k >= op->nregions || op->regions[k].nblocks != 1)
		imp_fail(I, op, "'%s' needs a region of one block", op->name);
	int n = I->nvals;

	/* what the region defines is out of scope after it (mlir-opt-16
	 * reuses the numbers in the next region) */
	imp_ops(I, op->regions[k].blocks[0], depth + 1);
	I->nvals = n;
	ind(I, depth);
	str_puts(I->out, "}");
}

static void
im_if(Imp *I, const MOp *op, int depth)
{
	const char *c = arg(I, op, 0, false);

	put_results(I, op, depth);
	str_printf(I->out, "if %s", c);
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	if (op->nregions > 1 && op->regions[1].nblocks) {
		str_puts(I->out, " else {\n");
		region(I, op, 1, depth);
	}
	str_puts(I->out, "\n");
}

static void
block_args(Imp *I, const MOp *op, const MBlock *b, int from)
{
	for (int i = from; i < b->nargs; i++)
		val_add(I, op, b->args[i], tir_name(I, b->args[i]),
			b->argtypes[i]);
}

static void
im_for(Imp *I, const MOp *op, int depth)
{
	const MBlock *b;
	int n = op->noperands - 3;

	if (op->nregions != 1 || op->regions[0].nblocks != 1 || n < 0 ||
	    op->regions[0].blocks[0]->nargs != n + 1)
		imp_fail(I, op, "unsupported 'scf.for'");
	b = op->regions[0].blocks[0];
	const char *lb = arg(I, op, 0, true), *ub = arg(I, op, 1, true),
		   *st = arg(I, op, 2, true), *init[64];
	if (n > 64)
		imp_fail(I, op, "too many iter args");
	for (int j = 0; j < n; j++)
		init[j] = arg(I, op, 3 + j, false);
	put_results(I, op, depth);
	block_args(I, op, b, 0);
	str_printf(I->out, "for %s = %s to %s step %s",
		   val_find(I, b->args[0])->tir, lb, ub, st);
	if (n) {
		str_puts(I->out, " iter(");
		for (int j = 0; j < n; j++)
			str_printf(I->out, "%s%s = %s", j ? ", " : "",
				   val_find(I, b->args[j + 1])->tir, init[j]);
		str_puts(I->out, ")");
	}
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

static void
im_yield(Imp *I, const MOp *op, int depth)
{
	ind(I, depth);
	str_puts(I->out, !strcmp(op->name, "func.return") ? "return" :
		 !strcmp(op->name, "scf.condition") ? "condition" : "yield");
	if (op->noperands)
		str_puts(I->out, " ");
	put_list(I, op, 0, op->noperands, false);
	str_puts(I->out, "\n");
}

/* A TIR string: the escapes TIR has are \" \\ \n \t; other control
 * characters cannot be written. */
static void
put_tir_string(Imp *I, const MOp *op, const char *s)
{
	str_puts(I->out, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_printf(I->out, "\\%c", *s);
		else if (*s == '\n' || *s == '\t')
			str_puts(I->out, *s == '\n' ? "\\n" : "\\t");
		else if ((unsigned char)*s < 0x20)
			imp_fail(I, op, "unsupported character 0x%02x in a "
				 "message", (unsigned char)*s);
		else
			str_put(I->out, s, 1);
	}
	str_puts(I->out, "\"");
}

static void
im_assert(Imp *I, const MOp *op, int depth)
{
	const char *msg = mattr_str(mop_attr(op, "msg"), I->a);

	ind(I, depth);
	str_printf(I->out, "assert %s, ", arg(I, op, 0, false));
	put_tir_string(I, op, msg ? msg : "");
	str_puts(I->out, "\n");
}

static void
im_async(Imp *I, const MOp *op, int depth)
{
	int64_t seg[2] = {0, 0}, s = 1;
	const MAttr *st = mop_attr(op, "bufdiff.stream");
	const char *f, **aw;
	IVal *v;

	segments(I, op, seg, 2);
	if (seg[0] || seg[1] || op->nresults < 1)
		imp_fail(I, op, "'async.execute' with dependencies or operands");
	if (st && mattr_int(st, &s) < 0)
		imp_fail(I, op, "bad attribute 'bufdiff.stream'");
	f = tir_name(I, arena_strndup(I->a, op->results[0],
				      strcspn(op->results[0], "#")));
	aw = arena_alloc(I->a, op->nresults * sizeof *aw);
	for (int j = 0; j < op->nresults; j++) {
		const char *t = op->restypes[j];
		if (j && strncmp(t, "!async.value<", 13))
			imp_fail(I, op, "unsupported type '%s'", t);
		if (j)
			type_check(I, op, arena_strndup(I->a, t + 13,
							strlen(t) - 14));
		v = val_add(I, op, op->results[j], f, t);
		v->fut = j;
		v->nvals = op->nresults - 1;
		v->awaited = aw;
	}
	ind(I, depth);
	str_printf(I->out, "%s = async stream %" PRId64, f, s);
	put_rtypes(I, op, 1);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

/* One TIR await takes every value of the future; the exporter writes it
 * as one async.await per value, in a row with one loc.  An await that
 * continues such a row reuses the names; any other starts a TIR await
 * (the values it does not name get `%F_J`). */
static void
im_await(Imp *I, const MOp *op, int depth)
{
	IVal *v = operand(I, op, 0);
	const char **aw = v->awaited;
	int j = v->fut, n = v->nvals;
	const MOp *p = I->prev;
	bool cont = false;

	if (j < 0)
		imp_fail(I, op, "'async.await' of a value that is not async");
	if (j && op->nresults != 1)
		imp_fail(I, op, "unsupported 'async.await'");
	if (j > 1 && p && !strcmp(p->name, "async.await") && same_loc(I, p, op)) {
		IVal *pv = val_find(I, p->operands[0]);
		cont = pv && pv->awaited == aw && pv->fut == j - 1;
	}
	if (!cont) {
		ind(I, depth);
		for (int k = 1; k <= n; k++) {
			if (k == j) {
				aw[k] = tir_name(I, op->results[0]);
			} else {
				char buf[160];
				snprintf(buf, sizeof buf, "%s_%d", v->tir, k);
				aw[k] = tir_name(I, buf);
			}
			str_printf(I->out, "%s%s", k > 1 ? ", " : "", aw[k]);
		}
		str_printf(I->out, "%sawait %s\n", n ? " = " : "", v->tir);
	}
	if (j)
		val_add(I, op, op->results[0], aw[j], op->restypes[0]);
}

/* scf.while whose condition forwards the iter args unchanged (FORMAT §5:
 * `while iter(...) { ... condition %c } do { ... yield ... }`); the do
 * region's args are the same values. */
static void
im_while(Imp *I, const MOp *op, int depth)
{
	const MBlock *before, *after;
	const MOp *cond;
	int n = op->noperands;

	if (op->nregions != 2 || op->regions[0].nblocks != 1 ||
	    op->regions[1].nblocks != 1)
		imp_fail(I, op, "unsupported 'scf.while'");
	before = op->regions[0].blocks[0];
	after = op->regions[1].blocks[0];
	cond = before->nops ? before->ops[before->nops - 1] : NULL;
	if (before->nargs != n || after->nargs != n || op->nresults != n ||
	    !cond || cond->noperands != n + 1)
		imp_fail(I, op, "unsupported 'scf.while' (the condition must "
			 "forward the iter args unchanged)");
	for (int j = 0; j < n; j++)
		if (strcmp(cond->operands[j + 1], before->args[j]) ||
		    strcmp(op->restypes[j], before->argtypes[j]))
			imp_fail(I, op, "unsupported 'scf.while' (the condition "
				 "must forward the iter args unchanged)");
	const char *init[64];
	if (n > 64)
		imp_fail(I, op, "too many iter args");
	for (int j = 0; j < n; j++)
		init[j] = arg(I, op, j, false);
	put_results(I, op, depth);
	block_args(I, op, before, 0);
	for (int j = 0; j < n; j++)
		val_add(I, op, after->args[j], val_find(I, before->args[j])->tir,
			after->argtypes[j]);
	str_puts(I->out, n ? "while iter(" : "while");
	for (int j = 0; j < n; j++)
		str_printf(I->out, "%s%s = %s", j ? ", " : "",
			   val_find(I, before->args[j])->tir, init[j]);
	str_puts(I->out, n ? ")" : "");
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, " do {\n");
	region(I, op, 1, depth);
	str_puts(I->out, "\n");
}

static void
im_condition(Imp *I, const MOp *op, int depth)
{
	ind(I, depth);
	str_printf(I->out, "condition %s\n", arg(I, op, 0, false));
}

/* scf.forall, one dim from 0 step 1, its in_parallel's inserts inline. */
static void forall_emit(Imp *I, const MOp *op, int depth, const char *ubt,
			int k, int nout);

static void
im_forall(Imp *I, const MOp *op, int depth)
{
	int64_t seg[4], lb[2], ub[2], st[2];
	int k = 0, nout;
	const char *ubt;

	segments(I, op, seg, 4);
	if (ints_attr(I, op, "staticLowerBound", lb, 2) != 1 ||
	    ints_attr(I, op, "staticUpperBound", ub, 2) != 1 ||
	    ints_attr(I, op, "staticStep", st, 2) != 1 || seg[0] || seg[2] ||
	    lb[0] != 0 || st[0] != 1 || mop_attr(op, "mapping"))
		imp_fail(I, op, "unsupported 'scf.forall' (one dim, from 0, "
			 "step 1, no mapping)");
	if (ub[0] == INT64_MIN) {
		ubt = arg(I, op, k++, true);
	} else {
		char buf[32];
		snprintf(buf, sizeof buf, "%" PRId64, ub[0]);
		ubt = arena_strdup(I->a, buf);
	}
	nout = (int)seg[3];
	forall_emit(I, op, depth, ubt, k, nout);
}

/* mlir-opt-16's scf.foreach_thread: one thread count, then the outputs. */
static void
im_foreach_thread(Imp *I, const MOp *op, int depth)
{
	int64_t seg[2];

	segments(I, op, seg, 2);
	if (seg[0] != 1 || mop_attr(op, "mapping") ||
	    mop_attr(op, "thread_dim_mapping"))
		imp_fail(I, op, "unsupported 'scf.foreach_thread' (one dim, "
			 "no mapping)");
	forall_emit(I, op, depth, arg(I, op, 0, true), 1, (int)seg[1]);
}

/* The forall of op with upper bound ubt, its nout inits from operand k. */
static void
forall_emit(Imp *I, const MOp *op, int depth, const char *ubt, int k,
	    int nout)
{
	const MBlock *b;
	const char *init[64];

	if (nout > 64 || op->nregions != 1 || op->regions[0].nblocks != 1 ||
	    op->regions[0].blocks[0]->nargs != 1 + nout)
		imp_fail(I, op, "unsupported '%s'", op->name);
	for (int j = 0; j < nout; j++)
		init[j] = arg(I, op, k + j, false);
	b = op->regions[0].blocks[0];
	put_results(I, op, depth);
	block_args(I, op, b, 0);
	str_printf(I->out, "forall %s = 0 to %s", val_find(I, b->args[0])->tir,
		   ubt);
	if (nout) {
		str_puts(I->out, " shared(");
		for (int j = 0; j < nout; j++)
			str_printf(I->out, "%s%s = %s", j ? ", " : "",
				   val_find(I, b->args[j + 1])->tir, init[j]);
		str_puts(I->out, ")");
	}
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

static void
im_in_parallel(Imp *I, const MOp *op, int depth)
{
	int n = I->nvals;

	if (op->nregions != 1 || op->regions[0].nblocks > 1)
		imp_fail(I, op, "unsupported 'scf.forall.in_parallel'");
	if (op->regions[0].nblocks)
		imp_ops(I, op->regions[0].blocks[0], depth);
	I->nvals = n;
}

static void
im_parallel_insert(Imp *I, const MOp *op, int depth)
{
	ind(I, depth);
	str_printf(I->out, "parallel_insert_slice %s into %s",
		   arg(I, op, 0, false), arg(I, op, 1, false));
	put_slice(I, op, 2, 5);
	str_puts(I->out, "\n");
}

/* ------------------------------------------------------------ functions */

static const MOp *
func_find(Imp *I, const char *name)
{
	const MBlock *b = I->top->nregions ? I->top->regions[0].blocks[0] : NULL;

	for (int i = 0; b && i < b->nops; i++) {
		const MOp *f = b->ops[i];
		const char *s = mattr_str(mop_attr(f, "sym_name"), I->a);
		if (!strcmp(f->name, "func.func") && s && !strcmp(s, name))
			return f;
	}
	return NULL;
}

static void
im_call(Imp *I, const MOp *op, int depth)
{
	const MAttr *c = mop_attr(op, "callee");

	if (!c || c->text[0] != '@' || !func_find(I, c->text + 1))
		imp_fail(I, op, "call of an unknown function");
	put_results(I, op, depth);
	str_printf(I->out, "call %s(", c->text);
	put_list(I, op, 0, op->noperands, false);
	str_puts(I->out, ")\n");
}

/* arith.select %c, %a, %b (an i1 condition): TIR has no select; it is the
 * `if` that yields one of the two, the same value.  One-Shot analyses both
 * alike (the result may alias either operand); what bufdiff decides for
 * the select is what it decides for the if. */
static void
im_select(Imp *I, const MOp *op, int depth)
{
	const char *t = operand(I, op, 0)->type, *c, *a, *b;

	if (strcmp(t, "i1") || op->nresults != 1)
		imp_fail(I, op, "'arith.select' with a condition of type '%s'",
			 t);
	c = arg(I, op, 0, false);
	a = arg(I, op, 1, false);
	b = arg(I, op, 2, false);
	put_results(I, op, depth);
	str_printf(I->out, "if %s -> (%s) {\n", c, op->restypes[0]);
	ind(I, depth + 1);
	str_printf(I->out, "yield %s\n", a);
	ind(I, depth);
	str_puts(I->out, "} else {\n");
	ind(I, depth + 1);
	str_printf(I->out, "yield %s\n", b);
	ind(I, depth);
	str_puts(I->out, "}\n");
}

/* vector.print of a scalar: TIR's only outputs are the results, so the
 * print is dropped.  The reads that computed its operand stay (the
 * tensor.extract), and the oracle checks every read, also one of a value
 * nothing uses: a decision that makes it stale is still a fault. */
static void
im_print(Imp *I, const MOp *op, int depth)
{
	(void)depth;
	if (op->noperands > 1)
		imp_fail(I, op, "'vector.print' with %d operands", op->noperands);
	if (op->noperands)
		(void)operand(I, op, 0);
}

typedef void (*ImFn)(Imp *, const MOp *, int);

static const struct {
	const char *name;
	ImFn fn;
} im_table[] = {
	{"arith.constant", im_const},
	{"arith.cmpi", im_cmp}, {"arith.cmpf", im_cmp},
	{"tensor.empty", im_empty}, {"bufferization.alloc_tensor", im_empty},
	{"tensor.extract", im_extract}, {"tensor.insert", im_extract},
	{"tensor.extract_slice", im_slice}, {"tensor.insert_slice", im_slice},
	{"tensor.cast", im_cast},
	{"tensor.from_elements", im_from_elements},
	{"tensor.collapse_shape", im_reshape},
	{"tensor.expand_shape", im_reshape},
	{"linalg.generic", im_generic}, {"linalg.map", im_map},
	{"linalg.transpose", im_transpose}, {"linalg.reduce", im_reduce},
	{"bufferization.materialize_in_destination", im_copy},
	{"scf.if", im_if}, {"scf.for", im_for},
	{"arith.select", im_select}, {"vector.print", im_print},
	{"scf.yield", im_yield}, {"async.yield", im_yield},
	{"func.return", im_yield},
	{"func.call", im_call},
	{"cf.assert", im_assert},
	{"scf.while", im_while}, {"scf.condition", im_condition},
	{"scf.forall", im_forall},
	{"scf.forall.in_parallel", im_in_parallel},
	{"scf.foreach_thread", im_foreach_thread},
	{"scf.foreach_thread.perform_concurrently", im_in_parallel},
	{"tensor.parallel_insert_slice", im_parallel_insert},
	{"async.execute", im_async}, {"async.await", im_await},
};

static void
imp_op(Imp *I, const MOp *op, int depth)
{
	for (size_t i = 0; i < sizeof im_table / sizeof *im_table; i++)
		if (!strcmp(op->name, im_table[i].name))
			return im_table[i].fn(I, op, depth);
	if (scalar_tir(op->name))
		return im_scalar(I, op, depth);
	if (!strncmp(op->name, "linalg.", 7) && strcmp(op->name, "linalg.yield"))
		return im_named(I, op, depth);
	imp_fail(I, op, "unsupported op '%s'", op->name);
}

static void
imp_ops(Imp *I, const MBlock *b, int depth)
{
	for (int i = 0; i < b->nops; i++) {
		I->prev = i ? b->ops[i - 1] : NULL;
		imp_op(I, b->ops[i], depth);
	}
}

/* `(A, B) -> (C, D)` or `(A) -> C`: the result types, split at the top
 * level, into out (arena). */
static int
func_results(Imp *I, const MOp *f, const char **out, int max)
{
	const MAttr *a = mop_attr(f, "function_type");
	const char *p = a ? strstr(a->text, ") -> ") : NULL;
	int n = 0, nest = 0;

	if (!p)
		imp_fail(I, f, "'func.func' without a function_type");
	p += 5;
	if (*p == '(')
		p++;
	for (const char *s = p; ; p++) {
		if (*p == '<' || *p == '(')
			nest++;
		else if (*p == '>' || (*p == ')' && nest))
			nest--;
		else if ((*p == ',' && !nest) || *p == ')' || !*p) {
			while (*s == ' ')
				s++;
			if (p > s) {
				if (n == max)
					imp_fail(I, f, "too many results");
				out[n++] = arena_strndup(I->a, s, p - s);
			}
			if (*p != ',')
				break;
			s = p + 1;
		}
	}
	return n;
}

/* Arg i's attribute dictionary says bufferization.writable = false. */
static bool
arg_readonly(const MOp *f, int i)
{
	const MAttr *a = mop_attr(f, "arg_attrs");
	const char *p = a ? a->text : "";

	for (int k = 0; (p = strchr(p, '{')); k++, p++) {
		const char *e = strchr(p, '}');
		if (k == i)
			return e && strstr(p, "bufferization.writable = false") &&
			       strstr(p, "bufferization.writable = false") < e;
	}
	return false;
}

static void
imp_func(Imp *I, const MOp *f)
{
	const char *name = mattr_str(mop_attr(f, "sym_name"), I->a);
	const char *rt[64];
	int nr = func_results(I, f, rt, 64);
	const MBlock *b;

	if (f->nregions != 1 || f->regions[0].nblocks == 0)
		imp_fail(I, f, "function @%s has no body", name);
	if (f->regions[0].nblocks != 1)
		imp_fail(I, f, "function @%s has several blocks", name);
	b = f->regions[0].blocks[0];
	I->func = f;
	I->nvals = 0;
	I->nused = 0;
	str_printf(I->out, "func @%s(", name);
	for (int i = 0; i < b->nargs; i++) {
		MOp at = *f;    /* a bad type is the argument's error */
		if (b->arglocs && b->arglocs[i].file)
			at.loc = b->arglocs[i];
		IVal *v = val_add(I, &at, b->args[i], tir_name(I, b->args[i]),
				  b->argtypes[i]);
		str_printf(I->out, "%s%s: %s%s", i ? ", " : "", v->tir, v->type,
			   arg_readonly(f, i) ? " {readonly}" : "");
	}
	str_puts(I->out, ")");
	for (int j = 0; j < nr; j++) {
		type_check(I, f, rt[j]);
		str_printf(I->out, "%s%s", j ? ", " : " -> (", rt[j]);
	}
	str_puts(I->out, nr ? ") {\n" : " {\n");
	imp_ops(I, b, 1);
	str_puts(I->out, "}\n");
}

static void
calls_fn(MOp *op, void *ctx)
{
	Imp *I = ctx;
	const MAttr *c = mop_attr(op, "callee");
	const char *n;

	if (strcmp(op->name, "func.call") || !c || c->text[0] != '@')
		return;
	n = arena_strdup(I->a, c->text + 1);
	for (int i = 0; i < I->ntodo; i++)
		if (!strcmp(I->todo[i], n))
			return;
	VEC_PUSH(I->a, I->todo, I->ntodo, I->captodo, n);
}

static bool
wanted(Imp *I, const char *name)
{
	for (int i = 0; i < I->ntodo; i++)
		if (!strcmp(I->todo[i], name))
			return true;
	return false;
}

/* The functions to import: with `entry`, it and what it calls; else all. */
static void
imp_module(Imp *I, const char *entry)
{
	const MBlock *b = I->top->nregions && I->top->regions[0].nblocks ?
			  I->top->regions[0].blocks[0] : NULL;

	if (entry) {
		if (!func_find(I, entry))
			imp_fail(I, NULL, "no function @%s", entry);
		VEC_PUSH(I->a, I->todo, I->ntodo, I->captodo, entry);
		for (int i = 0; i < I->ntodo; i++) {
			const MOp *f = func_find(I, I->todo[i]);
			if (f)
				mop_walk((MOp *)f, calls_fn, I);
		}
	}
	for (int i = 0; b && i < b->nops; i++) {
		const MOp *f = b->ops[i];
		const char *s;
		if (strcmp(f->name, "func.func"))
			imp_fail(I, f, "unsupported op '%s'", f->name);
		s = mattr_str(mop_attr(f, "sym_name"), I->a);
		if (!entry || wanted(I, s))
			imp_func(I, f);
	}
}

/* a location no compound literal has to survive the longjmp for */
static const Loc noloc;

int
mlir_import(const char *text, size_t len, const char *file, const char *func,
	    Str *out, Diag *d, const char **dfile)
{
	Imp I = {0};
	volatile int rc = 0;

	*dfile = file;
	if (!(I.a = arena_new()))
		return diag_set(d, noloc, "out of memory");
	I.file = file;
	I.out = out;
	I.d = d;
	I.dfile = dfile;
	if (mlir_read(text, len, I.a, &I.top, d) < 0) {
		arena_free(I.a);
		return -1;
	}
	d->msg[0] = 0;
	d->loc = noloc;
	if (setjmp(I.jb)) {
		if (!d->msg[0])
			diag_set(d, noloc, "out of memory");
		rc = -1;
	} else {
		I.a->oom = &I.jb;
		imp_module(&I, func);
		if (out->oom)
			rc = diag_set(d, noloc, "out of memory");
	}
	/* dfile may point into the arena: keep it alive with a copy */
	if (rc && *dfile != file) {
		static char keep[1024];
		snprintf(keep, sizeof keep, "%s", *dfile);
		*dfile = keep;
	}
	arena_free(I.a);
	return rc;
}
