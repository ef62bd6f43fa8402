/*
 * import_linalg.c: the importer's linalg ops: named ops, transpose, reduce,
 * and linalg.generic/map bodies read back as the TIR elementwise or
 * reduction op the exporter wrote them for.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "import_impl.h"

/* --------------------------------------------------------------- linalg */

/* ins and outs of a DPS op: the first ins, then outs; -1 if no segments */
static void
ins_outs(Imp *I, const MOp *op, int *nin, int *nout)
{
	int64_t seg[2];

	imp_segments(I, op, seg, 2);
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
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s ", tir);
	imp_put_list(I, op, 0, nin, !strcmp(tir, "fill"));
	str_printf(I->out, " into %s", imp_arg(I, op, nin, false));
	imp_put_type_end(I, op);
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

void
im_named(Imp *I, const MOp *op, int depth)
{
	const char *n = op->name + 7;
	OpKind k = ew_of_linalg(n, strlen(n), false);

	imp_no_attr(I, op, "cast");
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

void
im_transpose(Imp *I, const MOp *op, int depth)
{
	int64_t p[MAXRANK];
	int n = imp_ints_attr(I, op, "permutation", p, MAXRANK);

	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "unsupported 'linalg.transpose'");
	imp_put_results(I, op, depth);
	str_printf(I->out, "transpose %s", imp_arg(I, op, 0, false));
	put_ints(I, p, n);
	str_printf(I->out, " into %s", imp_arg(I, op, 1, false));
	imp_put_type_end(I, op);
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
	const char *t = b && n == 2 ? imp_scalar_tir(b) : NULL;

	if (t && !strcmp(t, "add"))
		return "reduce.sum";
	if (t && !strcmp(t, "max"))
		return "reduce.max";
	imp_fail(I, op, "unsupported reduction body in '%s'", op->name);
}

void
im_reduce(Imp *I, const MOp *op, int depth)
{
	int64_t dims[MAXRANK];
	int n = imp_ints_attr(I, op, "dimensions", dims, MAXRANK);
	const char *k = reduce_kind(I, op);

	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "'linalg.reduce' of several tensors");
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s %s", k, imp_arg(I, op, 0, false));
	put_ints(I, dims, n);
	str_printf(I->out, " into %s", imp_arg(I, op, 1, false));
	imp_put_type_end(I, op);
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
	if (!(q = strchr(arrow, '('))) /* `-> d0`: no result list (UBSan:
					* NULL + 1, then a read at 0x1) */
		imp_fail(I, op, "unsupported indexing map");
	for (q++; *q && *q != ')'; ) {
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
		bool relu = imp_scalar_tir(e) && !strcmp(imp_scalar_tir(e), "max");
		bool neg = !strcmp(e->name, "arith.subi");
		if (e->noperands == 2 && ((relu && !strcmp(e->operands[1], c)) ||
		    (neg && !strcmp(e->operands[0], c))) &&
		    (which[0] = barg(b, e->operands[relu ? 0 : 1])) >= 0) {
			*nwhich = 1;
			return relu ? "relu" : "neg";
		}
	}
	if (nops != 2 || !imp_scalar_tir(e) || strcmp(y->operands[0],
							e->results[0]))
		imp_fail(I, op, "unsupported body in '%s'", op->name);
	for (int i = 0; i < e->noperands && i < 2; i++)
		if ((which[(*nwhich)++] = barg(b, e->operands[i])) < 0)
			imp_fail(I, op, "unsupported body in '%s'", op->name);
	return imp_scalar_tir(e);
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
		if (!strcmp(imp_operand(I, op, i)->type, op->restypes[0]))
			first = i;
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s ", t);
	for (int i = 0; i < nw; i++)
		str_printf(I->out, "%s%s", i ? ", " : "",
			   imp_arg(I, op, which[i], true));
	if (!strcmp(t, "copy") || first < 0 || strcmp(op->operands[first], d) ||
	    mop_attr(op, "bufdiff.into"))
		str_printf(I->out, " into %s", imp_arg(I, op, nin, false));
	imp_put_type_end(I, op);
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
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s %s", kind, imp_arg(I, op, 0, false));
	put_ints(I, dims, nd);
	str_printf(I->out, " into %s", imp_arg(I, op, 1, false));
	imp_put_type_end(I, op);
}

void
im_generic(Imp *I, const MOp *op, int depth)
{
	Maps m;
	int nin, nout, which[4], nw, rank;
	const MAttr *it = mop_attr(op, "iterator_types");
	const char *t;

	ins_outs(I, op, &nin, &nout); /* one result: restypes[0] is there */
	rank = imp_rank_of(I, op, op->restypes[0]);
	maps_read(I, op, &m);
	if (!it || strstr(it->text, "reduction"))
		return im_generic_red(I, op, &m, depth);
	t = ew_body(I, op, which, &nw);
	if (!strcmp(t, "copy") && nin == 1 && map_identity(&m, 1) &&
	    !map_identity(&m, 0) && m.nres[0] == m.ndims) {
		int64_t p[MAXRANK];
		for (int k = 0; k < m.ndims; k++)
			p[m.res[0][k]] = k;
		imp_put_results(I, op, depth);
		str_printf(I->out, "transpose %s", imp_arg(I, op, 0, false));
		put_ints(I, p, m.ndims);
		str_printf(I->out, " into %s", imp_arg(I, op, 1, false));
		return imp_put_type_end(I, op);
	}
	for (int k = 0; k <= nin; k++)
		if (!map_identity(&m, k) && !(m.nres[k] == 0 && k < nin &&
		    imp_rank_of(I, op, imp_operand(I, op, k)->type) == 0))
			imp_fail(I, op, "unsupported indexing maps in '%s'",
				 op->name);
	if (m.ndims != rank)
		imp_fail(I, op, "unsupported indexing maps in '%s'", op->name);
	put_ew(I, op, t, which, nw, nin, depth);
}

void
im_map(Imp *I, const MOp *op, int depth)
{
	int which[4], nw, nin = op->noperands - 1;
	const char *t = ew_body(I, op, which, &nw);

	if (op->nresults != 1 || nin < 1)
		imp_fail(I, op, "unsupported 'linalg.map'");
	put_ew(I, op, t, which, nw, nin, depth);
}
