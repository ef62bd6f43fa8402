/*
 * export.c: a Program as MLIR text (func, arith, math, tensor, linalg,
 * scf, async, bufferization) for mlir-opt 16, 19 and 22, with a side table
 * (ExportMap) from each emitted op's operands and results back to TIR
 * values.  docs/mlir.md has the mapping op by op.
 *
 * One exporter; what differs between versions is a row of `versions`.
 * Every op, the constants made for literals too, carries
 * loc("FILE":LINE:COL) of its TIR op.  TIR value names are kept when MLIR
 * accepts them; names the exporter makes up start with a prefix no TIR
 * name of the program starts with, so they never clash.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"

static const MlirVersion versions[] = {
	/* 16: no materialize_in_destination (copy is a linalg.generic);
	 * returning a new tensor needs allow-return-allocs */
	{16, false, "allow-return-allocs", false},
	{19, true, "allow-return-allocs-from-loops", true},
	{22, true, "allow-return-allocs-from-loops", true},
};

const MlirVersion *
mlir_version(int n)
{
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
		if (versions[i].version == n)
			return &versions[i];
	return NULL;
}

/* An MLIR operand: a TIR value, or a name the exporter made (aux; src is
 * the TIR value it stands for, if any, e.g. the source of a cast). */
typedef struct Arg {
	const Value *v;
	int aux;
	const Value *src;
} Arg;

typedef struct Exporter {
	const Program *p;
	const char *file;
	const MlirVersion *ver;
	Str *out;
	Arena *tmp;             /* scratch, freed at the end */
	Arena *a;               /* the map's arena, or NULL */
	ExportMap *map;
	int mapcap;
	Diag *d;
	jmp_buf jb;
	const char *aux;        /* prefix of made-up names */
	int naux;
	int depth;
	int *futvals;           /* by value id: aux name of a future's values */
} Exporter;

enum { EX_OOM = 1, EX_FAIL = 2 };

static const Loc noloc = {0, 0}; /* out of memory has no place */

static _Noreturn void
ex_fail(Exporter *e, Loc loc, const char *fmt, ...)
{
	va_list ap;

	e->d->loc = loc;
	va_start(ap, fmt);
	vsnprintf(e->d->msg, sizeof e->d->msg, fmt, ap);
	va_end(ap);
	longjmp(e->jb, EX_FAIL);
}

/* ------------------------------------------------------------ text */

static void
ind(Exporter *e)
{
	str_printf(e->out, "%*s", 2 * e->depth, "");
}

/* The file name as an MLIR string literal body. */
static void
put_file(Exporter *e)
{
	for (const unsigned char *s = (const unsigned char *)e->file; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_printf(e->out, "\\%c", *s);
		else if (*s < 0x20 || *s >= 0x7f)
			str_printf(e->out, "\\%02X", *s);
		else
			str_put(e->out, (const char *)s, 1);
	}
}

static void
put_loc(Exporter *e, Loc l)
{
	str_puts(e->out, " loc(\"");
	put_file(e);
	str_printf(e->out, "\":%d:%d)", l.line, l.col);
}

/* ` loc(...)` and the end of the line */
static void
end_line(Exporter *e, const Op *op)
{
	put_loc(e, op->loc);
	str_puts(e->out, "\n");
}

/* MLIR's suffix-id: all digits, or [a-zA-Z$._-][a-zA-Z$._0-9-]*; TIR
 * allows more (a digit followed by letters). */
static bool
mlir_name_ok(const char *s)
{
	bool digits = true;

	for (const char *c = s; *c; c++)
		digits &= *c >= '0' && *c <= '9';
	return *s && (digits || !(*s >= '0' && *s <= '9'));
}

static void
put_name(Exporter *e, const Value *v)
{
	if (mlir_name_ok(v->name))
		str_printf(e->out, "%%%s", v->name);
	else
		str_printf(e->out, "%%%sv%s", e->aux, v->name);
}

/* `@name`, or `@"name"` when it is no MLIR bare-id ([a-zA-Z_][a-zA-Z0-9_$.]*) */
static void
put_sym(Exporter *e, const char *name)
{
	bool bare = (*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z') || *name == '_';

	for (const char *c = name; *c; c++)
		bare &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_$.", *c);
	str_printf(e->out, bare ? "@%s" : "@\"%s\"", name);
}

static void
put_arg(Exporter *e, Arg a)
{
	if (a.v)
		put_name(e, a.v);
	else
		str_printf(e->out, "%%%s%d", e->aux, a.aux);
}

static void
put_args(Exporter *e, const Arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_arg(e, a[i]);
	}
}

static void
put_type(Exporter *e, const Type *t)
{
	char buf[1024];

	str_puts(e->out, type_str(t, buf, sizeof buf));
}

static void
put_types(Exporter *e, Type *const *t, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_type(e, t[i]);
	}
}

static void
put_ints64(Exporter *e, const int64_t *v, int n)
{
	str_puts(e->out, "[");
	for (int i = 0; i < n; i++)
		str_printf(e->out, i ? ", %lld" : "%lld", (long long)v[i]);
	str_puts(e->out, "]");
}

/* `-> T`, `-> (T, U)`, or nothing for no types. */
static void
put_arrow(Exporter *e, Type *const *t, int n)
{
	if (!n)
		return;
	str_puts(e->out, n == 1 ? " -> " : " -> (");
	put_types(e, t, n);
	if (n > 1)
		str_puts(e->out, ")");
}

/* `%a, %b = ` for op's results (nothing when it has none) */
static void
put_results(Exporter *e, const Op *op)
{
	for (int i = 0; i < op->nres; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_name(e, op->res[i]);
	}
	if (op->nres)
		str_puts(e->out, " = ");
}

/* A float as MLIR reads it: the shortest `D.DDDe+XX` that reads back to
 * the same value in the dtype; NaN and infinities as hex bits. */
static void
put_float(Exporter *e, double f, DType dt)
{
	char buf[64];
	int prec;

	if (!isfinite(f)) {
		if (dt == DT_F32) {
			float x = (float)f;
			uint32_t u;
			memcpy(&u, &x, 4);
			str_printf(e->out, "0x%08X", u);
		} else {
			uint64_t u;
			memcpy(&u, &f, 8);
			str_printf(e->out, "0x%016llX", (unsigned long long)u);
		}
		return;
	}
	for (prec = 2; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, f);
		if (dt == DT_F32 ? (float)strtod(buf, NULL) == (float)f
				 : strtod(buf, NULL) == f)
			break;
	}
	str_puts(e->out, buf);
}

static void
put_scalar(Exporter *e, DType dt, bool isfloat, double f, int64_t i)
{
	if (dtype_is_float(dt))
		put_float(e, isfloat ? f : (double)i, dt);
	else if (dt == DT_I1)
		str_puts(e->out, i ? "true" : "false");
	else
		str_printf(e->out, "%lld", (long long)i);
}

/* --------------------------------------------------------- the map */

/* Record one emitted op: its MLIR operands (in MLIR's order), which
 * operand each result may reuse, and its results as TIR values. */
static void
rec(Exporter *e, const Op *op, const char *mlir, const Arg *ops, int nops,
    const int *tied, Value *const *res, int nres)
{
	ExportOp *x;

	if (!e->map)
		return;
	if (e->map->nops == e->mapcap) {
		int nc = e->mapcap ? 2 * e->mapcap : 16;
		ExportOp *n = arena_alloc(e->a, sizeof *n * (size_t)nc);
		if (e->map->nops)
			memcpy(n, e->map->ops, sizeof *n * (size_t)e->map->nops);
		e->map->ops = n;
		e->mapcap = nc;
	}
	x = &e->map->ops[e->map->nops++];
	x->op = op;
	x->mlir = mlir;
	x->noperands = nops;
	x->operands = arena_alloc(e->a, sizeof *x->operands * (size_t)(nops + 1));
	for (int i = 0; i < nops; i++)
		x->operands[i] = (Value *)(ops[i].v ? ops[i].v : ops[i].src);
	x->nresults = nres;
	x->arg = -1;
	x->tied = arena_alloc(e->a, sizeof *x->tied * (size_t)(nres + 1));
	x->results = arena_alloc(e->a, sizeof *x->results * (size_t)(nres + 1));
	for (int j = 0; j < nres; j++) {
		x->tied[j] = tied ? tied[j] : -1;
		x->results[j] = res ? res[j] : NULL;
	}
}

const ExportOp *
export_find(const ExportMap *m, const Op *op, const char *mlir)
{
	for (int i = 0; m && i < m->nops; i++)
		if (m->ops[i].op == op && !strcmp(m->ops[i].mlir, mlir))
			return &m->ops[i];
	return NULL;
}

/* ------------------------------------------------------- operands */

static Arg
arg_of(const Value *v)
{
	Arg a = {v, 0, NULL};

	return a;
}

static Arg
aux_new(Exporter *e)
{
	Arg a = {NULL, ++e->naux, NULL};

	return a;
}

/* `%_N = arith.constant LIT : T` for a literal (the op's loc), or the
 * value itself. */
static Arg
lit(Exporter *e, const Op *op, const Operand *o, DType dt)
{
	Arg a;

	if (o->v) {
		if (o->v->type->kind == TY_FUTURE)
			ex_fail(e, o->loc, "cannot export %s: future %%%s used "
				"other than by await", op_info[op->kind].name,
				o->v->name);
		return arg_of(o->v);
	}
	a = aux_new(e);
	ind(e);
	put_arg(e, a);
	str_puts(e->out, " = arith.constant ");
	put_scalar(e, dt, o->isfloat, o->f, o->i);
	if (dt != DT_I1) /* `true` and `false` are typed already */
		str_printf(e->out, " : %s", dtype_names[dt]);
	end_line(e, op);
	return a;
}

static Arg *
args_new(Exporter *e, int n)
{
	return arena_alloc(e->tmp, sizeof(Arg) * (size_t)(n + 1));
}

/* The MLIR type of an operand: its value's type, or the literal's dtype. */
static void
put_arg_type(Exporter *e, const Operand *o, DType dt)
{
	if (o->v)
		put_type(e, o->v->type);
	else
		str_puts(e->out, dtype_names[dt]);
}

/* --------------------------------------------------- scalar bodies */

/* The arith/math op of elementwise op ew for dtype dt (ops.h). */
static const char *
ew_opname(Exporter *e, OpKind ew, DType dt)
{
	const char *name = ew_mlir_op(ew, dt, e->ver->version);

	if (!name)
		ir_bug("no MLIR spelling for %s on %s",
		       ew >= 0 && ew < OP_COUNT ? op_info[ew].name : "(none)",
		       dtype_names[dt]);
	return name;
}

/* `0` of dtype dt as a constant, for relu and integer neg. */
static Arg
zero(Exporter *e, const Op *op, DType dt)
{
	Operand z;

	memset(&z, 0, sizeof z);
	z.isfloat = dtype_is_float(dt);
	return lit(e, op, &z, dt);
}

/* *res = ew(a, b) on scalars of dtype dt (b unused for unary ops; *res
 * with neither value nor aux gets a new aux name, after any constant the
 * op needs); returns the MLIR op name, and its operands in mo[0..*nmo)
 * when mo is not NULL. */
static const char *
ew_scalar(Exporter *e, const Op *op, OpKind ew, DType dt, Arg a, Arg b,
	  Arg *res, Arg *mo, int *nmo)
{
	const char *name = ew_opname(e, ew, dt);
	ExportForm xf = ew_info[ew].xf;
	bool fl = dtype_is_float(dt);
	bool unary = op_info[ew].form == F_UNARY &&
		     !(xf == X_RELU || (xf == X_NEG && !fl));

	if (xf == X_RELU) {
		b = zero(e, op, dt);
	} else if (xf == X_NEG && !fl) {
		b = a;
		a = zero(e, op, dt);
	}
	if (!res->v && !res->aux)
		*res = aux_new(e);
	ind(e);
	put_arg(e, *res);
	str_printf(e->out, " = %s ", name);
	if (xf == X_CMP)
		str_printf(e->out, "%s, ",
			   fl ? ew_info[ew].cmpf : ew_info[ew].cmpi);
	put_arg(e, a);
	if (!unary) {
		str_puts(e->out, ", ");
		put_arg(e, b);
	}
	str_printf(e->out, " : %s", dtype_names[dt]);
	end_line(e, op);
	if (mo) {
		mo[0] = a;
		mo[1] = b;
		*nmo = unary ? 1 : 2;
	}
	return name;
}

/* ------------------------------------------------------ elementwise */

static void
put_map(Exporter *e, int rank, bool scalar)
{
	str_puts(e->out, "affine_map<(");
	for (int i = 0; i < rank; i++)
		str_printf(e->out, i ? ", d%d" : "d%d", i);
	str_puts(e->out, ") -> (");
	for (int i = 0; !scalar && i < rank; i++)
		str_printf(e->out, i ? ", d%d" : "d%d", i);
	str_puts(e->out, ")>");
}

/* The operand an elementwise op without `into` computes into: the first
 * one with the result's type (the seed's "can y = x + 10 overwrite x?"). */
static const Value *
ew_outs(Exporter *e, const Op *op, int nin)
{
	if (op->hasdest && op->dest.v)
		return op->dest.v;
	for (int i = 0; i < nin; i++)
		if (op->args[i].v && type_equal(op->args[i].v->type, op->type))
			return op->args[i].v;
	char buf[256];

	ex_fail(e, op->loc, "cannot export %s: no operand of type %s to "
		"compute into", op_info[op->kind].name,
		type_str(op->type, buf, sizeof buf));
}

/* `%_iN: dt` block arguments of a linalg body, first one's number */
static int
body_args(Exporter *e, int n, DType dt)
{
	int first = e->naux + 1;

	ind(e);
	str_puts(e->out, "^bb0(");
	for (int i = 0; i < n; i++) {
		Arg a = aux_new(e);
		if (i)
			str_puts(e->out, ", ");
		put_arg(e, a);
		str_printf(e->out, ": %s", dtype_names[dt]);
	}
	str_puts(e->out, "):\n");
	return first;
}

static void
linalg_yield(Exporter *e, const Op *op, Arg v, DType dt)
{
	ind(e);
	str_puts(e->out, "linalg.yield ");
	put_arg(e, v);
	str_printf(e->out, " : %s", dtype_names[dt]);
	end_line(e, op);
}

/* linalg.generic, parallel over the result, ins = the TIR operands (a
 * scalar broadcast with `() -> ()`), outs = dest; body = ew. */
static void
ew_generic(Exporter *e, const Op *op, const Arg *in, int nin, OpKind ew,
	   const Value *outs)
{
	const Type *t = op->type;
	Arg *ops = args_new(e, nin + 1);
	int tied = nin, first;

	memcpy(ops, in, sizeof *in * (size_t)nin);
	ops[nin] = arg_of(outs);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "linalg.generic {");
	/* `into` its own first operand looks like no `into` at all: say it,
	 * so that import gives back the same program */
	if (op->hasdest && op->dest.v) {
		int k = 0;
		while (k < nin && !(in[k].v && type_equal(in[k].v->type, t)))
			k++;
		if (k < nin && in[k].v == op->dest.v)
			str_puts(e->out, "bufdiff.into, ");
	}
	str_puts(e->out, "indexing_maps = [");
	for (int i = 0; i <= nin; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_map(e, t->rank, i < nin && !(in[i].v &&
				   in[i].v->type->kind == TY_TENSOR));
	}
	str_puts(e->out, "], iterator_types = [");
	for (int i = 0; i < t->rank; i++)
		str_puts(e->out, i ? ", \"parallel\"" : "\"parallel\"");
	str_puts(e->out, "]} ins(");
	put_args(e, in, nin);
	str_puts(e->out, " : ");
	for (int i = 0; i < nin; i++) {
		if (i)
			str_puts(e->out, ", ");
		if (in[i].v)
			put_type(e, in[i].v->type);
		else
			str_puts(e->out, dtype_names[t->dt]);
	}
	str_puts(e->out, ") outs(");
	put_arg(e, ops[nin]);
	str_puts(e->out, " : ");
	put_type(e, t);
	str_puts(e->out, ") {\n");
	first = body_args(e, nin + 1, t->dt);
	e->depth++;
	{
		Arg a = {NULL, first, NULL}, b = {NULL, first + 1, NULL};
		Arg r = {NULL, 0, NULL};
		if (ew != OP_NONE)
			ew_scalar(e, op, ew, t->dt, a, b, &r, NULL, NULL);
		linalg_yield(e, op, ew != OP_NONE ? r : a, t->dt);
	}
	e->depth--;
	ind(e);
	str_puts(e->out, "} -> ");
	put_type(e, t);
	end_line(e, op);
	rec(e, op, "linalg.generic", ops, nin + 1, &tied, op->res, op->nres);
}

static void
ex_elementwise(Exporter *e, const Op *op)
{
	int n = op_info[op->kind].form == F_BINARY ? 2 : 1;
	OpKind ew = op_info[op->kind].ew;
	DType dt = op->type->dt;
	Arg in[2] = {{0}, {0}}, mo[2], res;
	const char *name;

	for (int i = 0; i < n; i++)
		in[i] = lit(e, op, &op->args[i], dt);
	if (op->type->kind == TY_TENSOR) {
		ew_generic(e, op, in, n, ew, ew_outs(e, op, n));
		return;
	}
	res = arg_of(op->res[0]);
	name = ew_scalar(e, op, ew, dt, in[0], in[1], &res, mo, &n);
	rec(e, op, name, mo, n, NULL, op->res, 1);
}

static void
ex_cmp(Exporter *e, const Op *op)
{
	DType dt = op->type->dt;
	Arg in[2], res = arg_of(op->res[0]);

	for (int i = 0; i < 2; i++)
		in[i] = lit(e, op, &op->args[i], dt);
	rec(e, op, ew_scalar(e, op, op_info[op->kind].ew, dt, in[0], in[1],
			     &res, NULL, NULL), in, 2, NULL, op->res, 1);
}

/* ------------------------------------------------- tensors, linalg */

static void
put_elem(Exporter *e, const ConstData *c, DType dt, int64_t k)
{
	if (k >= c->n)
		k = c->n - 1;
	if (k < 0)
		str_puts(e->out, "0");
	else if (dtype_is_float(dt))
		put_float(e, c->f[k], dt);
	else
		put_scalar(e, dt, false, 0, c->i[k]);
}

static void
put_nested(Exporter *e, const ConstData *c, const Type *t, int level,
	   int64_t *k)
{
	if (level == t->rank) {
		put_elem(e, c, t->dt, (*k)++);
		return;
	}
	str_puts(e->out, "[");
	for (int64_t i = 0; i < t->dims[level]; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_nested(e, c, t, level + 1, k);
	}
	str_puts(e->out, "]");
}

static void
ex_const(Exporter *e, const Op *op)
{
	const Type *t = op->type;
	int64_t k = 0;

	ind(e);
	put_results(e, op);
	str_puts(e->out, "arith.constant ");
	if (t->kind == TY_SCALAR) {
		put_elem(e, &op->cdata, t->dt, 0);
		if (t->dt == DT_I1) {
			end_line(e, op);
			rec(e, op, "arith.constant", NULL, 0, NULL, op->res, 1);
			return;
		}
	} else {
		if (!type_is_static(t))
			ex_fail(e, op->loc, "cannot export const: a dense "
				"constant needs a static type");
		str_puts(e->out, "dense<");
		if (op->cdata.splat)
			put_elem(e, &op->cdata, t->dt, 0);
		else
			put_nested(e, &op->cdata, t, 0, &k);
		str_puts(e->out, ">");
	}
	str_puts(e->out, " : ");
	put_type(e, t);
	end_line(e, op);
	rec(e, op, "arith.constant", NULL, 0, NULL, op->res, 1);
}

/* Values or index constants for op->args[from..from+n) */
static Arg *
index_args(Exporter *e, const Op *op, const Operand *o, int n)
{
	Arg *a = args_new(e, n);

	for (int i = 0; i < n; i++)
		a[i] = lit(e, op, &o[i], DT_INDEX);
	return a;
}

static void
ex_empty(Exporter *e, const Op *op)
{
	Arg *a = index_args(e, op, op->args, op->nargs);

	ind(e);
	put_results(e, op);
	str_puts(e->out, "tensor.empty(");
	put_args(e, a, op->nargs);
	str_puts(e->out, ") : ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "tensor.empty", a, op->nargs, NULL, op->res, 1);
}

/* ` ins(%a, %b : Ta, Tb) outs(%d : Td)` with ops[0..n) = ins, ops[n] = d */
static void
put_ins_outs(Exporter *e, const Op *op, const Arg *ops, const Operand *in,
	     int n)
{
	str_puts(e->out, " ins(");
	put_args(e, ops, n);
	str_puts(e->out, " : ");
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_arg_type(e, &in[i], op->type->dt);
	}
	str_puts(e->out, ") outs(");
	put_arg(e, ops[n]);
	str_puts(e->out, " : ");
	put_type(e, op->dest.v ? op->dest.v->type : op->type);
	str_puts(e->out, ")");
}

/* linalg.fill and linalg.matmul: ins(args) outs(dest) -> T */
static void
ex_dps(Exporter *e, const Op *op, const char *name, int n)
{
	Arg *ops = args_new(e, n + 1);
	int tied = n;

	for (int i = 0; i < n; i++)
		ops[i] = lit(e, op, &op->args[i], op->type->dt);
	ops[n] = lit(e, op, &op->dest, op->type->dt);
	ind(e);
	put_results(e, op);
	str_puts(e->out, name);
	put_ins_outs(e, op, ops, op->args, n);
	str_puts(e->out, " -> ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, name, ops, n + 1, &tied, op->res, 1);
}

static void
put_perm(Exporter *e, const int *p, int n)
{
	str_puts(e->out, "[");
	for (int i = 0; i < n; i++)
		str_printf(e->out, i ? ", %d" : "%d", p[i]);
	str_puts(e->out, "]");
}

static void
ex_transpose(Exporter *e, const Op *op)
{
	Arg ops[2] = {lit(e, op, &op->args[0], op->type->dt),
		      lit(e, op, &op->dest, op->type->dt)};
	int tied = 1;

	ind(e);
	put_results(e, op);
	str_puts(e->out, "linalg.transpose");
	put_ins_outs(e, op, ops, op->args, 1);
	str_puts(e->out, " permutation = ");
	put_perm(e, op->perm, op->nperm);
	end_line(e, op);
	rec(e, op, "linalg.transpose", ops, 2, &tied, op->res, 1);
}

/* linalg.reduce ins(a) outs(d) dimensions = [...] (%in, %acc) {...} */
static void
ex_reduce(Exporter *e, const Op *op)
{
	DType dt = op->type->dt;
	Arg ops[2] = {lit(e, op, &op->args[0], dt), lit(e, op, &op->dest, dt)};
	int tied = 1, first;

	if (op->type->kind != TY_TENSOR)
		ex_fail(e, op->loc, "cannot export %s into a scalar (linalg.reduce "
			"needs a tensor<%s>)", op_info[op->kind].name,
			dtype_names[dt]);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "linalg.reduce");
	put_ins_outs(e, op, ops, op->args, 1);
	str_puts(e->out, " dimensions = ");
	put_perm(e, op->perm, op->nperm);
	str_puts(e->out, "\n");
	e->depth++;
	first = e->naux + 1;
	ind(e);
	for (int i = 0; i < 2; i++) {
		str_puts(e->out, i ? ", " : "(");
		put_arg(e, aux_new(e));
		str_printf(e->out, ": %s", dtype_names[dt]);
	}
	str_puts(e->out, ") {\n");
	e->depth++;
	{
		Arg a = {NULL, first, NULL}, b = {NULL, first + 1, NULL};
		Arg r = {NULL, 0, NULL};
		ew_scalar(e, op, op_info[op->kind].ew, dt, a, b, &r, NULL, NULL);
		linalg_yield(e, op, r, dt);
	}
	e->depth--;
	ind(e);
	e->depth--;
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, "linalg.reduce", ops, 2, &tied, op->res, 1);
}

/* `[%i, 0] [2, 4] [1, 1]`: value offsets are dynamic, literals static */
static void
put_slice(Exporter *e, const Op *op)
{
	str_puts(e->out, "[");
	for (int i = 0; i < op->noffs; i++) {
		if (i)
			str_puts(e->out, ", ");
		if (op->offs[i].v)
			put_name(e, op->offs[i].v);
		else
			str_printf(e->out, "%lld", (long long)op->offs[i].i);
	}
	str_puts(e->out, "] ");
	put_ints64(e, op->sizes, op->noffs);
	str_puts(e->out, " ");
	put_ints64(e, op->strides, op->noffs);
}

/* ops[from..) = the value offsets; returns the count */
static int
slice_operands(Exporter *e, const Op *op, Arg *ops, int from)
{
	int n = from;

	for (int i = 0; i < op->noffs; i++)
		if (op->offs[i].v)
			ops[n++] = lit(e, op, &op->offs[i], DT_INDEX);
	return n;
}

static void
ex_extract_slice(Exporter *e, const Op *op)
{
	Arg *ops = args_new(e, op->noffs + 1);
	int n, tied = 0; /* a view of its source */

	ops[0] = lit(e, op, &op->args[0], op->type->dt);
	n = slice_operands(e, op, ops, 1);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "tensor.extract_slice ");
	put_arg(e, ops[0]);
	put_slice(e, op);
	str_puts(e->out, " : ");
	put_type(e, op->args[0].v->type);
	str_puts(e->out, " to ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "tensor.extract_slice", ops, n, &tied, op->res, 1);
}

static void
ex_insert_slice(Exporter *e, const Op *op)
{
	Arg *ops = args_new(e, op->noffs + 2);
	int n, tied = 1;

	ops[0] = lit(e, op, &op->args[0], op->type->dt);
	ops[1] = lit(e, op, &op->dest, op->type->dt);
	n = slice_operands(e, op, ops, 2);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "tensor.insert_slice ");
	put_arg(e, ops[0]);
	str_puts(e->out, " into ");
	put_arg(e, ops[1]);
	put_slice(e, op);
	str_puts(e->out, " : ");
	put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "tensor.insert_slice", ops, n, &tied, op->res, 1);
}

/* tensor.extract %a[idx] / tensor.insert %v into %a[idx] */
static void
ex_element(Exporter *e, const Op *op, bool insert)
{
	int k = insert ? 2 : 1, tied = 1;
	Arg *ops = args_new(e, op->noffs + 2);
	const Operand *t = insert ? &op->dest : &op->args[0];

	if (insert)
		ops[0] = lit(e, op, &op->args[0], op->type->dt);
	ops[k - 1] = lit(e, op, t, op->type->dt);
	for (int i = 0; i < op->noffs; i++)
		ops[k + i] = lit(e, op, &op->offs[i], DT_INDEX);
	ind(e);
	put_results(e, op);
	str_puts(e->out, insert ? "tensor.insert " : "tensor.extract ");
	if (insert) {
		put_arg(e, ops[0]);
		str_puts(e->out, " into ");
	}
	put_arg(e, ops[k - 1]);
	str_puts(e->out, "[");
	put_args(e, ops + k, op->noffs);
	str_puts(e->out, "] : ");
	put_type(e, t->v->type);
	end_line(e, op);
	rec(e, op, insert ? "tensor.insert" : "tensor.extract", ops,
	    k + op->noffs, insert ? &tied : NULL, op->res, 1);
}

/* copy: materialize_in_destination where it exists, else (16) the
 * identity linalg.generic, which has the same destination-passing
 * meaning: the result lives in %d's buffer when in place. */
static void
ex_copy(Exporter *e, const Op *op)
{
	Arg ops[2] = {lit(e, op, &op->args[0], op->type->dt),
		      lit(e, op, &op->dest, op->type->dt)};
	int tied = 1;

	if (!e->ver->has_materialize) {
		ew_generic(e, op, ops, 1, OP_NONE, op->dest.v);
		return;
	}
	ind(e);
	put_results(e, op);
	str_puts(e->out, "bufferization.materialize_in_destination ");
	put_arg(e, ops[0]);
	str_puts(e->out, " in ");
	put_arg(e, ops[1]);
	str_puts(e->out, " : (");
	put_type(e, op->args[0].v->type);
	str_puts(e->out, ", ");
	put_type(e, op->dest.v->type);
	str_puts(e->out, ") -> ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "bufferization.materialize_in_destination", ops, 2, &tied,
	    op->res, 1);
}

static void
ex_clone(Exporter *e, const Op *op)
{
	Arg a = lit(e, op, &op->args[0], op->type->dt);

	ind(e);
	put_results(e, op);
	str_puts(e->out, "bufferization.alloc_tensor() copy(");
	put_arg(e, a);
	str_puts(e->out, ") : ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "bufferization.alloc_tensor", &a, 1, NULL, op->res, 1);
}

static void
ex_from_elements(Exporter *e, const Op *op)
{
	Arg *a = args_new(e, op->nargs);

	for (int i = 0; i < op->nargs; i++)
		a[i] = lit(e, op, &op->args[i], op->type->dt);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "tensor.from_elements ");
	put_args(e, a, op->nargs);
	str_puts(e->out, " : ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, "tensor.from_elements", a, op->nargs, NULL, op->res, 1);
}

/* collapse_shape/expand_shape; 19 on, expand_shape lists its result
 * dims in output_shape. */
static void
ex_reshape(Exporter *e, const Op *op)
{
	const char *name = op->kind == OP_COLLAPSE_SHAPE
				   ? "tensor.collapse_shape"
				   : "tensor.expand_shape";
	Arg a = lit(e, op, &op->args[0], op->type->dt);
	int d = 0, tied = 0; /* "true": a view of its source */

	ind(e);
	put_results(e, op);
	str_printf(e->out, "%s ", name);
	put_arg(e, a);
	str_puts(e->out, " [");
	for (int g = 0; g < op->nreassoc; g++) {
		str_puts(e->out, g ? ", [" : "[");
		for (int i = 0; i < op->reassoc[g]; i++)
			str_printf(e->out, i ? ", %d" : "%d", d++);
		str_puts(e->out, "]");
	}
	str_puts(e->out, "]");
	if (op->kind == OP_EXPAND_SHAPE && e->ver->expand_output_shape) {
		str_puts(e->out, " output_shape [");
		for (int i = 0; i < op->type->rank; i++)
			str_printf(e->out, i ? ", %lld" : "%lld",
				   (long long)op->type->dims[i]);
		str_puts(e->out, "]");
	}
	str_puts(e->out, " : ");
	put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	put_type(e, op->type);
	end_line(e, op);
	rec(e, op, name, &a, 1, &tied, op->res, 1);
}

/* ------------------------------------------------ calls and regions */

/* A TIR future is a token plus values: it cannot cross a call, a
 * region's results or a function boundary as one MLIR value. */
static void
no_future(Exporter *e, const char *what, Loc loc, Type *const *t, int n)
{
	for (int i = 0; i < n; i++)
		if (t[i]->kind == TY_FUTURE)
			ex_fail(e, loc, "cannot export %s: a future as a "
				"value of %s", what, what);
}

/* Operands for op->args against types ty (literals get ty's dtype). */
static Arg *
typed_args(Exporter *e, const Op *op, Type *const *ty, int n)
{
	Arg *a = args_new(e, n);

	for (int i = 0; i < n; i++)
		a[i] = lit(e, op, &op->args[i], ty[i]->dt);
	return a;
}

/* A static tensor passed for a `?` parameter: tensor.cast to the
 * parameter's type (func.call wants the types exactly). */
static Arg
cast(Exporter *e, const Op *op, Arg a, const Type *want, int arg)
{
	Arg c;

	if (!a.v || type_equal(a.v->type, want))
		return a;
	c = aux_new(e);
	c.src = a.v;
	ind(e);
	put_arg(e, c);
	str_puts(e->out, " = tensor.cast ");
	put_arg(e, a);
	str_puts(e->out, " : ");
	put_type(e, a.v->type);
	str_puts(e->out, " to ");
	put_type(e, want);
	end_line(e, op);
	rec(e, op, "tensor.cast", &a, 1, NULL, NULL, 1);
	if (e->map)
		e->map->ops[e->map->nops - 1].arg = arg;
	return c;
}

static void
ex_call(Exporter *e, const Op *op)
{
	const Func *f = op->fn;
	Arg *a;

	if (!f)
		ex_fail(e, op->loc, "cannot export call: unknown function "
			"@%s", op->callee);
	no_future(e, "call", op->loc, f->rtypes, f->nrtypes);
	a = args_new(e, op->nargs);
	for (int i = 0; i < op->nargs && i < f->nparams; i++)
		a[i] = cast(e, op, lit(e, op, &op->args[i],
				       f->params[i]->type->dt),
			    f->params[i]->type, i);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "func.call ");
	put_sym(e, f->name);
	str_puts(e->out, "(");
	put_args(e, a, op->nargs);
	str_puts(e->out, ") : (");
	for (int i = 0; i < f->nparams; i++) {
		if (i)
			str_puts(e->out, ", ");
		put_type(e, f->params[i]->type);
	}
	str_puts(e->out, ") -> ");
	if (f->nrtypes != 1)
		str_puts(e->out, "(");
	put_types(e, f->rtypes, f->nrtypes);
	if (f->nrtypes != 1)
		str_puts(e->out, ")");
	end_line(e, op);
	rec(e, op, "func.call", a, op->nargs, NULL, op->res, op->nres);
}

static void ex_block(Exporter *e, const Block *b);

static void
ex_if(Exporter *e, const Op *op)
{
	Operand c = op->args[0];
	Arg a = lit(e, op, &c, DT_I1);

	no_future(e, "if", op->loc, op->rtypes, op->nrtypes);
	ind(e);
	put_results(e, op);
	str_puts(e->out, "scf.if ");
	put_arg(e, a);
	put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, op->body);
	if (op->orelse) {
		ind(e);
		str_puts(e->out, "} else {\n");
		ex_block(e, op->orelse);
	}
	ind(e);
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, "scf.if", &a, 1, NULL, op->res, op->nres);
}

static void
ex_for(Exporter *e, const Op *op)
{
	int n = op->nargs, *tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(n + 1));
	Arg *a = args_new(e, n);

	no_future(e, "for", op->loc, op->rtypes, op->nrtypes);
	for (int i = 0; i < n; i++)
		a[i] = lit(e, op, &op->args[i],
			   i < 3 ? DT_INDEX : op->rtypes[i - 3]->dt);
	for (int j = 0; j < op->nres; j++)
		tied[j] = 3 + j;
	ind(e);
	put_results(e, op);
	str_puts(e->out, "scf.for ");
	put_name(e, op->body->args[0]);
	str_puts(e->out, " = ");
	put_arg(e, a[0]);
	str_puts(e->out, " to ");
	put_arg(e, a[1]);
	str_puts(e->out, " step ");
	put_arg(e, a[2]);
	for (int i = 3; i < n; i++) {
		str_puts(e->out, i == 3 ? " iter_args(" : ", ");
		put_name(e, op->body->args[i - 2]);
		str_puts(e->out, " = ");
		put_arg(e, a[i]);
		str_puts(e->out, i == n - 1 ? ")" : "");
	}
	put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, op->body);
	ind(e);
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, "scf.for", a, n, tied, op->res, op->nres);
}

static void ex_op(Exporter *e, const Op *op);

/* A forall bound: a literal stays static (19, 22), a value is an operand. */
static void
forall_bound(Exporter *e, const Op *op, int i, Arg *a, int *n)
{
	if (!op->args[i].v && e->ver->version > 16) {
		str_printf(e->out, "%lld", (long long)op->args[i].i);
		return;
	}
	a[*n] = lit(e, op, &op->args[i], DT_INDEX);
	put_arg(e, a[(*n)++]);
}

/* parallel_insert_slice, inside the forall's in_parallel region. */
static void
ex_pinsert(Exporter *e, const Op *op)
{
	Arg *ops = args_new(e, op->noffs + 2);
	const Type *dt = op->dest.v->type;
	int n;

	ops[0] = arg_of(op->args[0].v);
	ops[1] = arg_of(op->dest.v);
	n = slice_operands(e, op, ops, 2);
	ind(e);
	str_puts(e->out, "tensor.parallel_insert_slice ");
	put_arg(e, ops[0]);
	str_puts(e->out, " into ");
	put_arg(e, ops[1]);
	put_slice(e, op);
	str_puts(e->out, " : ");
	put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	put_type(e, dt);
	end_line(e, op);
	rec(e, op, "tensor.parallel_insert_slice", ops, n, NULL, NULL, 0);
}

/* scf.forall (scf.foreach_thread in 16, from 0 only) with shared_outs;
 * the parallel_insert_slices go into its in_parallel terminator. */
static void
ex_forall(Exporter *e, const Op *op)
{
	bool v16 = e->ver->version == 16;
	int n = 0, *tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(op->nres + 1));
	Arg *a = args_new(e, op->nargs);
	const Block *b = op->body;
	int first = b->nops - 1;

	if (v16 && (op->args[0].v || op->args[0].i != 0))
		ex_fail(e, op->loc, "cannot export forall: mlir-opt-16's "
			"scf.foreach_thread starts at 0");
	if (v16) /* its bound is an operand: the constant comes first */
		a[n++] = lit(e, op, &op->args[1], DT_INDEX);
	ind(e);
	put_results(e, op);
	str_puts(e->out, v16 ? "scf.foreach_thread (" : "scf.forall (");
	put_name(e, b->args[0]);
	if (v16) {
		str_puts(e->out, ") in (");
		put_arg(e, a[0]);
	} else {
		str_puts(e->out, ") = (");
		forall_bound(e, op, 0, a, &n);
		str_puts(e->out, ") to (");
		forall_bound(e, op, 1, a, &n);
		str_puts(e->out, ") step (1");
	}
	str_puts(e->out, ")");
	for (int k = 0; k < op->nres; k++) {
		str_puts(e->out, k ? ", " : " shared_outs(");
		put_name(e, b->args[1 + k]);
		str_puts(e->out, " = ");
		tied[k] = n;
		a[n] = arg_of(op->args[2 + k].v);
		put_arg(e, a[n++]);
		str_puts(e->out, k == op->nres - 1 ? ")" : "");
	}
	put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	while (first > 0 && b->ops[first - 1]->kind == OP_PARALLEL_INSERT_SLICE)
		first--;
	e->depth++;
	for (int i = 0; i < first; i++)
		ex_op(e, b->ops[i]);
	ind(e);
	str_puts(e->out, v16 ? "scf.foreach_thread.perform_concurrently {\n"
			     : "scf.forall.in_parallel {\n");
	e->depth++;
	for (int i = first; i < b->nops - 1; i++)
		ex_pinsert(e, b->ops[i]);
	e->depth--;
	ind(e);
	str_puts(e->out, "}");
	end_line(e, b->ops[b->nops - 1]);
	e->depth--;
	ind(e);
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, v16 ? "scf.foreach_thread" : "scf.forall", a, n, tied,
	    op->res, op->nres);
}

/* `scf.while (%a = %x) : (T) -> (T) { ... scf.condition(%c) %a : T }
 * do { ^bb0(%a: T): ... scf.yield ... }`: the do block's args reuse the
 * iter args' names (sibling regions scope their names apart). */
static void
ex_while(Exporter *e, const Op *op)
{
	int n = op->nargs, *tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(n + 1));
	Arg *a = typed_args(e, op, op->rtypes, n);

	no_future(e, "while", op->loc, op->rtypes, op->nrtypes);
	for (int j = 0; j < op->nres; j++)
		tied[j] = j;
	ind(e);
	put_results(e, op);
	str_puts(e->out, "scf.while (");
	for (int i = 0; i < n; i++) {
		str_puts(e->out, i ? ", " : "");
		put_name(e, op->body->args[i]);
		str_puts(e->out, " = ");
		put_arg(e, a[i]);
	}
	str_puts(e->out, ") : (");
	put_types(e, op->rtypes, n);
	str_puts(e->out, ") -> (");
	put_types(e, op->rtypes, n);
	str_puts(e->out, ") {\n");
	ex_block(e, op->body);
	ind(e);
	str_puts(e->out, "} do {\n");
	if (n) {
		ind(e);
		str_puts(e->out, "^bb0(");
		for (int i = 0; i < n; i++) {
			str_puts(e->out, i ? ", " : "");
			put_name(e, op->body->args[i]);
			str_puts(e->out, ": ");
			put_type(e, op->rtypes[i]);
		}
		str_puts(e->out, "):\n");
	}
	ex_block(e, op->orelse);
	ind(e);
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, "scf.while", a, n, tied, op->res, op->nres);
}

/* `scf.condition(%c) %a, ... : T, ...`: the iter values go on unchanged. */
static void
ex_condition(Exporter *e, const Op *op)
{
	const Op *w = op->parent->parent;
	int n = w->nrtypes;
	Arg *a = args_new(e, n + 1);

	a[0] = lit(e, op, &op->args[0], DT_I1);
	for (int i = 0; i < n; i++)
		a[1 + i] = (Arg){.v = w->body->args[i]};
	ind(e);
	str_puts(e->out, "scf.condition(");
	put_arg(e, a[0]);
	str_puts(e->out, ")");
	if (n) {
		str_puts(e->out, " ");
		put_args(e, a + 1, n);
		str_puts(e->out, " : ");
		put_types(e, w->rtypes, n);
	}
	end_line(e, op);
	rec(e, op, "scf.condition", a, n + 1, NULL, NULL, 0);
}

/* `cf.assert %c, "message"` (MLIR's string escapes are ours). */
static void
ex_assert(Exporter *e, const Op *op)
{
	Arg a = lit(e, op, &op->args[0], DT_I1);

	ind(e);
	str_puts(e->out, "cf.assert ");
	put_arg(e, a);
	str_puts(e->out, ", \"");
	for (const char *c = op->msg ? op->msg : ""; *c; c++) {
		if (*c == '"' || *c == '\\')
			str_printf(e->out, "\\%c", *c);
		else if (*c == '\n' || *c == '\t')
			str_puts(e->out, *c == '\n' ? "\\n" : "\\t");
		else
			str_put(e->out, c, 1);
	}
	str_puts(e->out, "\"");
	end_line(e, op);
	rec(e, op, "cf.assert", &a, 1, NULL, NULL, 0);
}

/* `%f, %_N:k = async.execute -> (!async.value<T>...)`: %f is the token,
 * %_N the values that `await` takes apart. */
static void
ex_async(Exporter *e, const Op *op)
{
	const Value *f = op->res[0];
	int n = op->nrtypes;
	Value **res = arena_alloc(e->tmp, sizeof *res * (size_t)(n + 1));
	Arg vals = aux_new(e);

	no_future(e, "async", op->loc, op->rtypes, n);
	e->futvals[f->id] = vals.aux;
	for (int j = 0; j <= n; j++)
		res[j] = (Value *)f;
	ind(e);
	put_name(e, f);
	if (n) {
		str_puts(e->out, ", ");
		put_arg(e, vals);
		if (n > 1)
			str_printf(e->out, ":%d", n);
	}
	str_puts(e->out, " = async.execute");
	for (int j = 0; j < n; j++) {
		str_puts(e->out, j ? ", " : n > 1 ? " -> (" : " -> ");
		str_puts(e->out, "!async.value<");
		put_type(e, op->rtypes[j]);
		str_puts(e->out, ">");
	}
	if (n > 1)
		str_puts(e->out, ")");
	str_printf(e->out, " attributes {bufdiff.stream = %d : i64} {\n",
		   op->stream);
	ex_block(e, op->body);
	ind(e);
	str_puts(e->out, "}");
	end_line(e, op);
	rec(e, op, "async.execute", NULL, 0, NULL, res, n + 1);
}

/* One async.await per value of the future; a bare future awaits its
 * token. */
static void
ex_await(Exporter *e, const Op *op)
{
	const Value *f = op->args[0].v;
	const Type *t = f ? f->type : NULL;
	Arg tok = arg_of(f), vals = {NULL, 0, NULL};

	if (!t || t->kind != TY_FUTURE || (t->nelems && !e->futvals[f->id]))
		ex_fail(e, op->loc, "cannot export await: not the future of "
			"an async in scope");
	vals.aux = e->futvals[f->id];
	if (!t->nelems) {
		ind(e);
		str_puts(e->out, "async.await ");
		put_name(e, f);
		str_puts(e->out, " : !async.token");
		end_line(e, op);
		rec(e, op, "async.await", &tok, 1, NULL, NULL, 0);
		return;
	}
	for (int j = 0; j < op->nres && j < t->nelems; j++) {
		ind(e);
		put_name(e, op->res[j]);
		str_puts(e->out, " = async.await ");
		put_arg(e, vals);
		if (t->nelems > 1)
			str_printf(e->out, "#%d", j);
		str_puts(e->out, " : !async.value<");
		put_type(e, t->elems[j]);
		str_puts(e->out, ">");
		end_line(e, op);
		rec(e, op, "async.await", &tok, 1, NULL, &op->res[j], 1);
	}
}

/* yield (scf or async, by the region's op) and return */
static void
ex_term(Exporter *e, const Op *op)
{
	const Op *parent = op->parent->parent;
	Type **ty = parent ? parent->rtypes : op->parent->func->rtypes;
	int nty = parent ? parent->nrtypes : op->parent->func->nrtypes;
	const char *name = !parent ? "func.return"
			   : parent->kind == OP_ASYNC ? "async.yield" : "scf.yield";
	Arg *a;

	if (op->nargs != nty)
		ex_fail(e, op->loc, "cannot export %s: %d values for %d "
			"results", op_info[op->kind].name, op->nargs, nty);
	a = typed_args(e, op, ty, nty);
	ind(e);
	str_printf(e->out, "%s", name);
	if (nty) {
		str_puts(e->out, " ");
		put_args(e, a, nty);
		str_puts(e->out, " : ");
		put_types(e, ty, nty);
	}
	end_line(e, op);
	rec(e, op, name, a, nty, NULL, NULL, 0);
}

/* ----------------------------------------------- functions, driver */

static void
ex_op(Exporter *e, const Op *op)
{
	switch (op_info[op->kind].form) {
	case F_CONST: ex_const(e, op); break;
	case F_EMPTY: ex_empty(e, op); break;
	case F_BINARY: case F_UNARY: ex_elementwise(e, op); break;
	case F_CMP: ex_cmp(e, op); break;
	case F_FILL: ex_dps(e, op, "linalg.fill", 1); break;
	case F_MATMUL: ex_dps(e, op, "linalg.matmul", 2); break;
	case F_TRANSPOSE: ex_transpose(e, op); break;
	case F_REDUCE: ex_reduce(e, op); break;
	case F_EXTRACT_SLICE: ex_extract_slice(e, op); break;
	case F_INSERT_SLICE: ex_insert_slice(e, op); break;
	case F_EXTRACT: ex_element(e, op, false); break;
	case F_INSERT: ex_element(e, op, true); break;
	case F_COPY: ex_copy(e, op); break;
	case F_CLONE: ex_clone(e, op); break;
	case F_CALL: ex_call(e, op); break;
	case F_IF: ex_if(e, op); break;
	case F_FOR: ex_for(e, op); break;
	case F_ASYNC: ex_async(e, op); break;
	case F_AWAIT: ex_await(e, op); break;
	case F_FROM_ELEMENTS: ex_from_elements(e, op); break;
	case F_WHILE: ex_while(e, op); break;
	case F_CONDITION: ex_condition(e, op); break;
	case F_ASSERT: ex_assert(e, op); break;
	case F_RESHAPE: ex_reshape(e, op); break;
	case F_YIELD: case F_RETURN: ex_term(e, op); break;
	case F_FORALL: ex_forall(e, op); break;
	case F_PARALLEL_INSERT: ex_pinsert(e, op); break;
	}
}

static void
ex_block(Exporter *e, const Block *b)
{
	e->depth++;
	for (int i = 0; i < b->nops; i++)
		ex_op(e, b->ops[i]);
	e->depth--;
}

static void
ex_func(Exporter *e, const Func *f)
{
	for (int i = 0; i < f->nparams; i++)
		no_future(e, "func", f->params[i]->loc, &f->params[i]->type, 1);
	no_future(e, "func", f->loc, f->rtypes, f->nrtypes);
	e->naux = 0;
	str_puts(e->out, "func.func ");
	put_sym(e, f->name);
	str_puts(e->out, "(");
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (i)
			str_puts(e->out, ", ");
		put_name(e, v);
		str_puts(e->out, ": ");
		put_type(e, v->type);
		if (v->readonly && v->type->kind == TY_TENSOR)
			str_puts(e->out, " {bufferization.writable = false}");
	}
	str_puts(e->out, ")");
	put_arrow(e, f->rtypes, f->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, f->body);
	str_puts(e->out, "}");
	put_loc(e, f->loc);
	str_puts(e->out, "\n");
}

/* The prefix of made-up names: "_", "__", ... the first that no TIR
 * value name starts with. */
static const char *
aux_prefix(Exporter *e)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < e->p->nvalues; i++) {
		const char *name = e->p->values[i]->name;
		size_t k = strspn(name, "_");
		if (k >= n)
			n = k + 1;
	}
	s = arena_alloc(e->tmp, n + 1);
	memset(s, '_', n);
	return s;
}

int
mlir_export(const Program *p, const char *file, const MlirVersion *v,
	    Str *out, Arena *a, ExportMap *map, Diag *d)
{
	Exporter e;
	jmp_buf *saved = a ? a->oom : NULL;
	Arena *tmp = arena_new();
	volatile int rc = 0;

	memset(&e, 0, sizeof e);
	e.p = p;
	e.file = file;
	e.ver = v;
	e.out = out;
	e.a = a;
	e.map = map;
	e.d = d;
	if (map)
		memset(map, 0, sizeof *map);
	if (!(e.tmp = tmp))
		return diag_set(d, noloc, "out of memory");
	switch (setjmp(e.jb)) {
	case 0:
		e.tmp->oom = &e.jb;
		if (a)
			a->oom = &e.jb;
		e.futvals = arena_alloc(e.tmp, sizeof(int) * (size_t)(p->nvalues + 1));
		e.aux = aux_prefix(&e);
		for (int i = 0; i < p->nfuncs; i++) {
			if (i)
				str_puts(out, "\n");
			ex_func(&e, p->funcs[i]);
		}
		break;
	case EX_OOM:
		rc = diag_set(d, noloc, "out of memory");
		break;
	default:
		rc = -1;
		break;
	}
	if (a)
		a->oom = saved;
	arena_free(tmp);
	if (!rc && out->oom)
		rc = diag_set(d, noloc, "out of memory");
	if (rc && map)
		memset(map, 0, sizeof *map);
	return rc;
}
