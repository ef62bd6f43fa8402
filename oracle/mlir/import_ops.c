/*
 * import_ops.c: the importer's scalar and tensor ops: arith and math ops,
 * constants (inlined as TIR literals where TIR takes them), and the tensor
 * dialect's ops -> their TIR lines.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "import_impl.h"

/* ---------------------------------------------------------- ops: scalars */

static bool
on_i1(const MOp *op)
{
	return op->noperands > 0 && op->optypes && op->optypes[0] &&
	       !strcmp(op->optypes[0], "i1");
}

/* The TIR op of an arith/math op on its operands as they are (ops.h's
 * spellings, with the import-only ones; on i1 also the logic ops the
 * exporter writes for max and min), or NULL.  TIR's i1 is unsigned:
 * MLIR's maxsi on i1 is TIR's min (true is -1), minsi its max. */
const char *
imp_scalar_tir(const MOp *op)
{
	bool i1 = on_i1(op);
	OpKind k = ew_of_mlir(op->name, EWM_EXTRA | (i1 ? EWM_I1 : 0), NULL);

	if (i1 && k == OP_MAX && !strcmp(op->name, "arith.maxsi"))
		k = OP_MIN;
	else if (i1 && k == OP_MIN && !strcmp(op->name, "arith.minsi"))
		k = OP_MAX;
	return k == OP_NONE ? NULL : op_info[k].name;
}

static bool
is_zero_lit(const IVal *v)
{
	return v->cst && strtod(v->tir, NULL) == 0 && !strchr(v->tir, '-');
}

void
im_scalar(Imp *I, const MOp *op, int depth)
{
	const char *t = imp_scalar_tir(op);

	/* the exporter's integer neg: subi 0, x with the 0 at the op's loc */
	if (!strcmp(op->name, "arith.subi") && op->noperands == 2 &&
	    is_zero_lit(imp_operand(I, op, 0))) {
		imp_put_results(I, op, depth);
		str_printf(I->out, "neg %s", imp_arg(I, op, 1, false));
		imp_put_type_end(I, op);
		return;
	}
	if (op->nresults != 1)
		imp_fail(I, op, "'%s' needs one result", op->name);
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s ", t);
	imp_put_list(I, op, 0, op->noperands, true);
	imp_put_type_end(I, op);
}

/* The TIR compare of cmpi predicate p (len bytes) on i1, where TIR is
 * unsigned: ult is lt; slt reads true as -1, so it is gt (sle ge, sgt
 * lt, sge le). */
static OpKind
i1_pred(const char *p, size_t len)
{
	static const char *const swap[][2] = {
		{"slt", "sgt"}, {"sle", "sge"}, {"sgt", "slt"}, {"sge", "sle"},
	};
	char s[4];

	if (len != 3 || (p[0] != 'u' && p[0] != 's'))
		return ew_of_pred(p, len, false);
	for (size_t i = 0; p[0] == 's' && i < sizeof swap / sizeof *swap; i++)
		if (!memcmp(p, swap[i][0], 3))
			return ew_of_pred(swap[i][1], 3, false);
	s[0] = 's', s[1] = p[1], s[2] = p[2], s[3] = 0;
	return ew_of_pred(s, 3, false);
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
	const char *p = NULL;
	size_t len = 0;

	if (!a)
		imp_fail(I, op, "'%s' without a predicate", op->name);
	if (mattr_int(a, &k) < 0) {
		const char *w = strrchr(a->text, ' ');
		const char *gt;

		w = w ? w + 1 : a->text;
		gt = strchr(w, '>');
		if (gt)
			p = w, len = (size_t)(gt - w);
	} else if (mlir_cmp_pred(f, k)) {
		p = mlir_cmp_pred(f, k);
		len = strlen(p);
	}
	if (p)
		c = !f && on_i1(op) ? i1_pred(p, len) : ew_of_pred(p, len, f);
	if (c == OP_NONE)
		imp_fail(I, op, "unsupported predicate '%s'", a->text);
	return op_info[c].name;
}

void
im_cmp(Imp *I, const MOp *op, int depth)
{
	const char *p = cmp_pred(I, op);

	IVal *a = imp_operand(I, op, 0);

	if (a->cst)
		a = imp_operand(I, op, 1);
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s ", p);
	imp_put_list(I, op, 0, 2, true);
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
		"vector.print", "cf.br", "cf.cond_br",
		"tensor.empty", "bufferization.alloc_tensor", "tensor.cast",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (!strcmp(op->name, no[i]))
			return false;
	return true;
}

/* The region op is in: its blocks hold every use (names are unique
 * there, nested regions included; a function body's blocks see the
 * values of the blocks that dominate them). */
static const MRegion *
const_region(const MOp *op)
{
	const MOp *p = op->parent;

	for (int r = 0; p && r < p->nregions; r++)
		for (int k = 0; k < p->regions[r].nblocks; k++) {
			const MBlock *b = p->regions[r].blocks[k];
			for (int i = 0; i < b->nops; i++)
				if (b->ops[i] == op)
					return &p->regions[r];
		}
	return NULL;
}

/* A scalar constant the exporter made for a literal: it carries the loc
 * of every op that uses it, and they all take literals. */
static bool
inlinable(Imp *I, const MOp *op)
{
	Uses u = {op->results[0], op, NULL, 0, 0, I->a};
	const MRegion *r = const_region(op);

	for (int k = 0; r && k < r->nblocks; k++)
		for (int i = 0; i < r->blocks[k]->nops; i++)
			mop_walk(r->blocks[k]->ops[i], uses_fn, &u);
	if (!u.n)
		return false;
	for (int i = 0; i < u.n; i++)
		if (!imp_same_loc(I, op, u.users[i]) || !takes_literals(u.users[i]))
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
		fmt_snprintf(buf, sizeof buf, "%.17g", f);
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

void
im_const(Imp *I, const MOp *op, int depth)
{
	const MAttr *a = mop_attr(op, "value");
	const char *type = op->nresults == 1 ? op->restypes[0] : "";
	int rank;

	if (!a || op->nresults != 1)
		imp_fail(I, op, "'arith.constant' without a value");
	rank = imp_type_check(I, op, type);
	if (rank < 0) {
		const char *t = scalar_text(I, op, a->text, type);
		if (inlinable(I, op)) {
			IVal *v = imp_val_add(I, op, op->results[0], t, type);
			v->cst = op;
			return;
		}
		imp_put_results(I, op, depth);
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
	imp_put_results(I, op, depth);
	str_puts(I->out, "const ");
	dense_text(I, op, a->text, colon + 1, type);
	str_printf(I->out, " : %s\n", type);
}

/* --------------------------------------------------------------- tensor */

void
im_empty(Imp *I, const MOp *op, int depth)
{
	int ndyn = op->noperands;

	if (!strcmp(op->name, "bufferization.alloc_tensor")) {
		int64_t seg[3];
		imp_segments(I, op, seg, 3);
		imp_no_attr(I, op, "memory_space");
		if (seg[2])
			imp_fail(I, op, "unsupported operand 'size_hint'");
		if (seg[1]) {
			imp_put_results(I, op, depth);
			str_printf(I->out, "clone %s", imp_arg(I, op, (int)seg[0], false));
			imp_put_type_end(I, op);
			return;
		}
		ndyn = (int)seg[0];
	}
	imp_put_results(I, op, depth);
	str_puts(I->out, "empty");
	if (ndyn) {
		str_puts(I->out, "(");
		imp_put_list(I, op, 0, ndyn, false);
		str_puts(I->out, ")");
	}
	imp_put_type_end(I, op);
}

void
im_extract(Imp *I, const MOp *op, int depth)
{
	bool ins = !strcmp(op->name, "tensor.insert");

	imp_put_results(I, op, depth);
	if (ins)
		str_printf(I->out, "insert %s into %s[", imp_arg(I, op, 0, true),
			   imp_arg(I, op, 1, false));
	else
		str_printf(I->out, "extract %s[", imp_arg(I, op, 0, false));
	imp_put_list(I, op, ins ? 2 : 1, op->noperands, true);
	str_puts(I->out, "]");
	imp_put_type_end(I, op);
}

/* `[offs] [sizes] [strides]` from static_* with dynamic offsets from the
 * operands at `from`; dynamic sizes and strides are outside the subset. */
void
imp_put_slice(Imp *I, const MOp *op, int from, int nseg)
{
	int64_t seg[5], offs[MAXRANK], sizes[MAXRANK], strides[MAXRANK];
	int n = imp_ints_attr(I, op, "static_offsets", offs, MAXRANK);
	int k = from;

	imp_segments(I, op, seg, nseg);
	if (seg[nseg - 2] || seg[nseg - 1] ||
	    imp_ints_attr(I, op, "static_sizes", sizes, MAXRANK) != n ||
	    imp_ints_attr(I, op, "static_strides", strides, MAXRANK) != n)
		imp_fail(I, op, "dynamic sizes or strides in '%s'", op->name);
	str_puts(I->out, "[");
	for (int i = 0; i < n; i++) {
		str_puts(I->out, i ? ", " : "");
		if (offs[i] == INT64_MIN)
			str_puts(I->out, imp_arg(I, op, k++, true));
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

int
imp_rank_of(Imp *I, const MOp *op, const char *type)
{
	int r = imp_type_check(I, op, type);

	return r < 0 ? 0 : r;
}

void
im_slice(Imp *I, const MOp *op, int depth)
{
	bool ins = !strcmp(op->name, "tensor.insert_slice");
	IVal *src = imp_operand(I, op, 0);

	if (imp_rank_of(I, op, src->type) != imp_rank_of(I, op, ins ?
			imp_operand(I, op, 1)->type : imp_restype(I, op)))
		imp_fail(I, op, "rank-reducing '%s'", op->name);
	imp_put_results(I, op, depth);
	if (ins)
		str_printf(I->out, "insert_slice %s into %s", imp_arg(I, op, 0, false),
			   imp_arg(I, op, 1, false));
	else
		str_printf(I->out, "extract_slice %s", imp_arg(I, op, 0, false));
	imp_put_slice(I, op, ins ? 2 : 1, ins ? 5 : 4);
	imp_put_type_end(I, op);
}

/* A cast only renames (the exporter's cast of a call argument). */
void
im_cast(Imp *I, const MOp *op, int depth)
{
	IVal *v = imp_operand(I, op, 0);

	(void)depth;
	if (op->nresults != 1 || v->cst || v->fut >= 0)
		imp_fail(I, op, "unsupported 'tensor.cast'");
	imp_type_check(I, op, op->restypes[0]);
	imp_val_add(I, op, op->results[0], v->tir, v->type);
}

void
im_from_elements(Imp *I, const MOp *op, int depth)
{
	imp_put_results(I, op, depth);
	str_puts(I->out, "from_elements ");
	imp_put_list(I, op, 0, op->noperands, true);
	imp_put_type_end(I, op);
}

void
im_reshape(Imp *I, const MOp *op, int depth)
{
	const MAttr *a = mop_attr(op, "reassociation");

	if (!a || op->noperands != 1)
		imp_fail(I, op, "unsupported '%s'", op->name);
	for (const char *p = a->text; *p; p++)
		if (!strchr("[], 0123456789", *p))
			imp_fail(I, op, "unsupported reassociation '%s'", a->text);
	imp_put_results(I, op, depth);
	str_printf(I->out, "%s %s %s", strchr(op->name, '.') + 1,
		   imp_arg(I, op, 0, false), a->text);
	imp_put_type_end(I, op);
}

/* bufferization.materialize_in_destination: TIR's copy */
void
im_copy(Imp *I, const MOp *op, int depth)
{
	if (op->noperands != 2 || op->nresults != 1)
		imp_fail(I, op, "unsupported '%s' (not on tensors)", op->name);
	imp_put_results(I, op, depth);
	str_printf(I->out, "copy %s into %s", imp_arg(I, op, 0, false),
		   imp_arg(I, op, 1, false));
	imp_put_type_end(I, op);
}
