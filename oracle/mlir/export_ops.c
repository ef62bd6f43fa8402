/*
 * export_ops.c: the exporter's straight-line ops: elementwise ops as arith,
 * math and linalg.generic, constants, and the tensor and linalg ops.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "export_impl.h"

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
	return ex_lit(e, op, &z, dt);
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
		*res = ex_aux_new(e);
	ex_ind(e);
	ex_put_arg(e, *res);
	str_printf(e->out, " = %s ", name);
	if (xf == X_CMP)
		str_printf(e->out, "%s, ", ew_mlir_pred(ew, dt));
	ex_put_arg(e, a);
	if (!unary) {
		str_puts(e->out, ", ");
		ex_put_arg(e, b);
	}
	str_printf(e->out, " : %s", dtype_names[dt]);
	ex_end_line(e, op);
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

	ex_ind(e);
	str_puts(e->out, "^bb0(");
	for (int i = 0; i < n; i++) {
		Arg a = ex_aux_new(e);
		if (i)
			str_puts(e->out, ", ");
		ex_put_arg(e, a);
		str_printf(e->out, ": %s", dtype_names[dt]);
	}
	str_puts(e->out, "):\n");
	return first;
}

static void
linalg_yield(Exporter *e, const Op *op, Arg v, DType dt)
{
	ex_ind(e);
	str_puts(e->out, "linalg.yield ");
	ex_put_arg(e, v);
	str_printf(e->out, " : %s", dtype_names[dt]);
	ex_end_line(e, op);
}

/* linalg.generic, parallel over the result, ins = the TIR operands (a
 * scalar broadcast with `() -> ()`), outs = dest; body = ew. */
static void
ew_generic(Exporter *e, const Op *op, const Arg *in, int nin, OpKind ew,
	   const Value *outs)
{
	const Type *t = op->type;
	Arg *ops = ex_args_new(e, nin + 1);
	int tied = nin, first;

	memcpy(ops, in, sizeof *in * (size_t)nin);
	ops[nin] = ex_arg_of(outs);
	ex_ind(e);
	ex_put_results(e, op);
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
	ex_put_args(e, in, nin);
	str_puts(e->out, " : ");
	for (int i = 0; i < nin; i++) {
		if (i)
			str_puts(e->out, ", ");
		if (in[i].v)
			ex_put_type(e, in[i].v->type);
		else
			str_puts(e->out, dtype_names[t->dt]);
	}
	str_puts(e->out, ") outs(");
	ex_put_arg(e, ops[nin]);
	str_puts(e->out, " : ");
	ex_put_type(e, t);
	str_puts(e->out, ") {\n");
	first = body_args(e, nin + 1, t->dt);
	e->depth++;
	{
		Arg a = {NULL, first, NULL, 0}, b = {NULL, first + 1, NULL, 0};
		Arg r = {NULL, 0, NULL, 0};
		if (ew != OP_NONE)
			ew_scalar(e, op, ew, t->dt, a, b, &r, NULL, NULL);
		linalg_yield(e, op, ew != OP_NONE ? r : a, t->dt);
	}
	e->depth--;
	ex_ind(e);
	str_puts(e->out, "} -> ");
	ex_put_type(e, t);
	ex_end_line(e, op);
	ex_rec(e, op, "linalg.generic", ops, nin + 1, &tied, op->res, op->nres);
}

void
ex_elementwise(Exporter *e, const Op *op)
{
	int n = op_info[op->kind].form == F_BINARY ? 2 : 1;
	OpKind ew = op_info[op->kind].ew;
	DType dt = op->type->dt;
	Arg in[2] = {{0}, {0}}, mo[2], res;
	const char *name;

	for (int i = 0; i < n; i++)
		in[i] = ex_lit(e, op, &op->args[i], dt);
	if (op->type->kind == TY_TENSOR) {
		ew_generic(e, op, in, n, ew, ew_outs(e, op, n));
		return;
	}
	res = ex_arg_of(op->res[0]);
	name = ew_scalar(e, op, ew, dt, in[0], in[1], &res, mo, &n);
	ex_rec(e, op, name, mo, n, NULL, op->res, 1);
}

void
ex_cmp(Exporter *e, const Op *op)
{
	DType dt = op->type->dt;
	Arg in[2], res = ex_arg_of(op->res[0]);

	for (int i = 0; i < 2; i++)
		in[i] = ex_lit(e, op, &op->args[i], dt);
	ex_rec(e, op, ew_scalar(e, op, op_info[op->kind].ew, dt, in[0], in[1],
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
		ex_put_float(e, c->f[k], dt);
	else
		ex_put_scalar(e, dt, false, 0, c->i[k]);
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

void
ex_const(Exporter *e, const Op *op)
{
	const Type *t = op->type;
	int64_t k = 0;

	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "arith.constant ");
	if (t->kind == TY_SCALAR) {
		put_elem(e, &op->cdata, t->dt, 0);
		if (t->dt == DT_I1) {
			ex_end_line(e, op);
			ex_rec(e, op, "arith.constant", NULL, 0, NULL, op->res, 1);
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
	ex_put_type(e, t);
	ex_end_line(e, op);
	ex_rec(e, op, "arith.constant", NULL, 0, NULL, op->res, 1);
}

/* Values or index constants for op->args[from..from+n) */
static Arg *
index_args(Exporter *e, const Op *op, const Operand *o, int n)
{
	Arg *a = ex_args_new(e, n);

	for (int i = 0; i < n; i++)
		a[i] = ex_lit(e, op, &o[i], DT_INDEX);
	return a;
}

void
ex_empty(Exporter *e, const Op *op)
{
	Arg *a = index_args(e, op, op->args, op->nargs);

	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "tensor.empty(");
	ex_put_args(e, a, op->nargs);
	str_puts(e->out, ") : ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.empty", a, op->nargs, NULL, op->res, 1);
}

/* ` ins(%a, %b : Ta, Tb) outs(%d : Td)` with ops[0..n) = ins, ops[n] = d */
static void
put_ins_outs(Exporter *e, const Op *op, const Arg *ops, const Operand *in,
	     int n)
{
	str_puts(e->out, " ins(");
	ex_put_args(e, ops, n);
	str_puts(e->out, " : ");
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_arg_type(e, &in[i], op->type->dt);
	}
	str_puts(e->out, ") outs(");
	ex_put_arg(e, ops[n]);
	str_puts(e->out, " : ");
	ex_put_type(e, op->dest.v ? op->dest.v->type : op->type);
	str_puts(e->out, ")");
}

/* linalg.fill and linalg.matmul: ins(args) outs(dest) -> T */
void
ex_dps(Exporter *e, const Op *op, const char *name, int n)
{
	Arg *ops = ex_args_new(e, n + 1);
	int tied = n;

	for (int i = 0; i < n; i++)
		ops[i] = ex_lit(e, op, &op->args[i], op->type->dt);
	ops[n] = ex_lit(e, op, &op->dest, op->type->dt);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, name);
	put_ins_outs(e, op, ops, op->args, n);
	str_puts(e->out, " -> ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, name, ops, n + 1, &tied, op->res, 1);
}

static void
put_perm(Exporter *e, const int *p, int n)
{
	str_puts(e->out, "[");
	for (int i = 0; i < n; i++)
		str_printf(e->out, i ? ", %d" : "%d", p[i]);
	str_puts(e->out, "]");
}

void
ex_transpose(Exporter *e, const Op *op)
{
	Arg ops[2] = {ex_lit(e, op, &op->args[0], op->type->dt),
		      ex_lit(e, op, &op->dest, op->type->dt)};
	int tied = 1;

	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "linalg.transpose");
	put_ins_outs(e, op, ops, op->args, 1);
	str_puts(e->out, " permutation = ");
	put_perm(e, op->perm, op->nperm);
	ex_end_line(e, op);
	ex_rec(e, op, "linalg.transpose", ops, 2, &tied, op->res, 1);
}

/* linalg.reduce ins(a) outs(d) dimensions = [...] (%in, %acc) {...} */
void
ex_reduce(Exporter *e, const Op *op)
{
	DType dt = op->type->dt;
	Arg ops[2] = {ex_lit(e, op, &op->args[0], dt), ex_lit(e, op, &op->dest, dt)};
	int tied = 1, first;

	if (op->type->kind != TY_TENSOR)
		ex_fail(e, op->loc, "cannot export %s into a scalar (linalg.reduce "
			"needs a tensor<%s>)", op_info[op->kind].name,
			dtype_names[dt]);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "linalg.reduce");
	put_ins_outs(e, op, ops, op->args, 1);
	str_puts(e->out, " dimensions = ");
	put_perm(e, op->perm, op->nperm);
	str_puts(e->out, "\n");
	e->depth++;
	first = e->naux + 1;
	ex_ind(e);
	for (int i = 0; i < 2; i++) {
		str_puts(e->out, i ? ", " : "(");
		ex_put_arg(e, ex_aux_new(e));
		str_printf(e->out, ": %s", dtype_names[dt]);
	}
	str_puts(e->out, ") {\n");
	e->depth++;
	{
		Arg a = {NULL, first, NULL, 0}, b = {NULL, first + 1, NULL, 0};
		Arg r = {NULL, 0, NULL, 0};
		ew_scalar(e, op, op_info[op->kind].ew, dt, a, b, &r, NULL, NULL);
		linalg_yield(e, op, r, dt);
	}
	e->depth--;
	ex_ind(e);
	e->depth--;
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, "linalg.reduce", ops, 2, &tied, op->res, 1);
}

/* `[%i, 0] [2, 4] [1, 1]`: value offsets are dynamic, literals static */
void
ex_put_slice(Exporter *e, const Op *op)
{
	str_puts(e->out, "[");
	for (int i = 0; i < op->noffs; i++) {
		if (i)
			str_puts(e->out, ", ");
		if (op->offs[i].v)
			ex_put_name(e, op->offs[i].v);
		else
			str_printf(e->out, "%lld", (long long)op->offs[i].i);
	}
	str_puts(e->out, "] ");
	ex_put_ints64(e, op->sizes, op->noffs);
	str_puts(e->out, " ");
	ex_put_ints64(e, op->strides, op->noffs);
}

/* ops[from..) = the value offsets; returns the count */
int
ex_slice_operands(Exporter *e, const Op *op, Arg *ops, int from)
{
	int n = from;

	for (int i = 0; i < op->noffs; i++)
		if (op->offs[i].v)
			ops[n++] = ex_lit(e, op, &op->offs[i], DT_INDEX);
	return n;
}

void
ex_extract_slice(Exporter *e, const Op *op)
{
	Arg *ops = ex_args_new(e, op->noffs + 1);
	int n, tied = 0; /* a view of its source */

	ops[0] = ex_lit(e, op, &op->args[0], op->type->dt);
	n = ex_slice_operands(e, op, ops, 1);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "tensor.extract_slice ");
	ex_put_arg(e, ops[0]);
	ex_put_slice(e, op);
	str_puts(e->out, " : ");
	ex_put_type(e, op->args[0].v->type);
	str_puts(e->out, " to ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.extract_slice", ops, n, &tied, op->res, 1);
}

void
ex_insert_slice(Exporter *e, const Op *op)
{
	Arg *ops = ex_args_new(e, op->noffs + 2);
	int n, tied = 1;

	ops[0] = ex_lit(e, op, &op->args[0], op->type->dt);
	ops[1] = ex_lit(e, op, &op->dest, op->type->dt);
	n = ex_slice_operands(e, op, ops, 2);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "tensor.insert_slice ");
	ex_put_arg(e, ops[0]);
	str_puts(e->out, " into ");
	ex_put_arg(e, ops[1]);
	ex_put_slice(e, op);
	str_puts(e->out, " : ");
	ex_put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.insert_slice", ops, n, &tied, op->res, 1);
}

/* tensor.extract %a[idx] / tensor.insert %v into %a[idx] */
void
ex_element(Exporter *e, const Op *op, bool insert)
{
	int k = insert ? 2 : 1, tied = 1;
	Arg *ops = ex_args_new(e, op->noffs + 2);
	const Operand *t = insert ? &op->dest : &op->args[0];

	if (insert)
		ops[0] = ex_lit(e, op, &op->args[0], op->type->dt);
	ops[k - 1] = ex_lit(e, op, t, op->type->dt);
	for (int i = 0; i < op->noffs; i++)
		ops[k + i] = ex_lit(e, op, &op->offs[i], DT_INDEX);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, insert ? "tensor.insert " : "tensor.extract ");
	if (insert) {
		ex_put_arg(e, ops[0]);
		str_puts(e->out, " into ");
	}
	ex_put_arg(e, ops[k - 1]);
	str_puts(e->out, "[");
	ex_put_args(e, ops + k, op->noffs);
	str_puts(e->out, "] : ");
	ex_put_type(e, t->v->type);
	ex_end_line(e, op);
	ex_rec(e, op, insert ? "tensor.insert" : "tensor.extract", ops,
	       k + op->noffs, insert ? &tied : NULL, op->res, 1);
}

/* copy: materialize_in_destination where it exists, else (16) the
 * identity linalg.generic, which has the same destination-passing
 * meaning: the result lives in %d's buffer when in place. */
void
ex_copy(Exporter *e, const Op *op)
{
	Arg ops[2] = {ex_lit(e, op, &op->args[0], op->type->dt),
		      ex_lit(e, op, &op->dest, op->type->dt)};
	int tied = 1;

	if (!e->ver->has_materialize) {
		ew_generic(e, op, ops, 1, OP_NONE, op->dest.v);
		return;
	}
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "bufferization.materialize_in_destination ");
	ex_put_arg(e, ops[0]);
	str_puts(e->out, " in ");
	ex_put_arg(e, ops[1]);
	str_puts(e->out, " : (");
	ex_put_type(e, op->args[0].v->type);
	str_puts(e->out, ", ");
	ex_put_type(e, op->dest.v->type);
	str_puts(e->out, ") -> ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "bufferization.materialize_in_destination", ops, 2, &tied,
	       op->res, 1);
}

void
ex_clone(Exporter *e, const Op *op)
{
	Arg a = ex_lit(e, op, &op->args[0], op->type->dt);

	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "bufferization.alloc_tensor() copy(");
	ex_put_arg(e, a);
	str_puts(e->out, ") : ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "bufferization.alloc_tensor", &a, 1, NULL, op->res, 1);
}

void
ex_from_elements(Exporter *e, const Op *op)
{
	Arg *a = ex_args_new(e, op->nargs);

	for (int i = 0; i < op->nargs; i++)
		a[i] = ex_lit(e, op, &op->args[i], op->type->dt);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "tensor.from_elements ");
	ex_put_args(e, a, op->nargs);
	str_puts(e->out, " : ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.from_elements", a, op->nargs, NULL, op->res, 1);
}

/* `%r = arith.select %c, %a, %b : T` (the same in 16, 19 and 22).  Its
 * result may alias either operand: no operand is tied (One-Shot's words
 * on it decide nothing bufdiff maps back). */
void
ex_select(Exporter *e, const Op *op)
{
	Arg a[3];

	a[0] = ex_lit(e, op, &op->args[0], DT_I1);
	for (int i = 1; i < 3; i++)
		a[i] = ex_lit(e, op, &op->args[i], op->type->dt);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "arith.select ");
	ex_put_args(e, a, 3);
	str_puts(e->out, " : ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "arith.select", a, 3, NULL, op->res, 1);
}

/* collapse_shape/expand_shape; 19 on, expand_shape lists its result
 * dims in output_shape. */
void
ex_reshape(Exporter *e, const Op *op)
{
	const char *name = op->kind == OP_COLLAPSE_SHAPE
				   ? "tensor.collapse_shape"
				   : "tensor.expand_shape";
	Arg a = ex_lit(e, op, &op->args[0], op->type->dt);
	int d = 0, tied = 0; /* "true": a view of its source */

	ex_ind(e);
	ex_put_results(e, op);
	str_printf(e->out, "%s ", name);
	ex_put_arg(e, a);
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
	ex_put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, name, &a, 1, &tied, op->res, 1);
}
