/*
 * import_regions.c: the importer's ops with regions: scf.if/for/while/forall
 * (and foreach_thread), their terminators, cf.assert, cf.br/cf.cond_br
 * between a function body's blocks, and async.execute/await.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "import_impl.h"

/* ----------------------------------------------------- carried futures */

/* A TIR future carried by a for or a block argument is, in MLIR, an
 * `!async.token` followed by its `!async.value<T>`s (the exporter's form,
 * docs/mlir.md).  How many of types[i..n) make the value at i: 1 + the
 * values after a token, else 1; a value without its token is refused. */
int
imp_carried_width(Imp *I, const MOp *op, const char **types, int i, int n)
{
	int w = 1;

	if (!strncmp(types[i], "!async.value<", 13))
		imp_fail(I, op, "an '!async.value' carried without its "
			 "'!async.token' (a TIR future is both)");
	if (strcmp(types[i], "!async.token"))
		return 1;
	while (i + w < n && !strncmp(types[i + w], "!async.value<", 13))
		w++;
	return w;
}

/* The TIR type of types[i, i + w): `future<T, ...>` for a token and its
 * values, else the type itself. */
const char *
imp_carried_type(Imp *I, const char **types, int i, int w)
{
	Str t = {0};
	const char *r;

	if (strcmp(types[i], "!async.token"))
		return types[i];
	str_puts(&t, "future<");
	for (int j = 1; j < w; j++) {
		size_t n = strlen(types[i + j]);
		str_printf(&t, "%s%.*s", j > 1 ? ", " : "", (int)(n - 14),
			   types[i + j] + 13);
	}
	str_puts(&t, ">");
	r = arena_strdup(I->a, t.oom ? "future<>" : t.s);
	str_free(&t);
	return r;
}

/* Defines names[i, i + w) (types alike) as one TIR value: a future's
 * token and values share its TIR name (the token's) and one row of
 * awaited names, as async.execute's results do.  Returns the name. */
const char *
imp_carried_def(Imp *I, const MOp *at, const char **names,
	const char **types, int i, int w)
{
	const char *tir, **aw;

	if (w == 1 && strcmp(types[i], "!async.token")) {
		tir = imp_tir_name(I, names[i]);
		imp_val_add(I, at, names[i], tir, types[i]);
		return tir;
	}
	/* `%4#0` names the future `%4`, as async.execute's results do */
	tir = imp_tir_name(I, arena_strndup(I->a, names[i],
					    strcspn(names[i], "#")));
	aw = arena_alloc(I->a, (size_t)(w + 1) * sizeof *aw);
	for (int j = 0; j < w; j++) {
		IVal *v = imp_val_add(I, at, names[i + j], tir, types[i + j]);
		if (j)
			imp_type_check(I, at, arena_strndup(I->a, types[i + j] + 13,
					strlen(types[i + j]) - 14));
		v->fut = j;
		v->nvals = w - 1;
		v->awaited = aw;
	}
	return tir;
}

/* Operands [from, to) of a for's yield or a branch as TIR operands: a
 * token followed by every value of its future, in order, is the future;
 * any other use of an async value is refused. */
void
imp_put_carried(Imp *I, const MOp *op, int from, int to)
{
	for (int i = from; i < to; ) {
		IVal *v = imp_operand(I, op, i);
		int w = v->fut == 0 ? 1 + v->nvals : 1;

		if (v->fut > 0 || i + w > to)
			imp_fail(I, op, "an async value passed without its "
				 "token and the future's other values");
		for (int j = 1; j < w; j++) {
			IVal *x = imp_operand(I, op, i + j);
			if (x->awaited != v->awaited || x->fut != j)
				imp_fail(I, op, "an async token passed without "
					 "its future's values, in order");
		}
		str_printf(I->out, "%s%s", i > from ? ", " : "",
			   w > 1 || v->fut == 0 ? v->tir
			   : imp_arg(I, op, i, false));
		i += w;
	}
}

/* ------------------------------------------------------ regions, async */

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
	imp_ind(I, depth);
	str_puts(I->out, "}");
}

void
im_if(Imp *I, const MOp *op, int depth)
{
	const char *c = imp_arg(I, op, 0, false);

	imp_put_results(I, op, depth);
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
		imp_val_add(I, op, b->args[i], imp_tir_name(I, b->args[i]),
			b->argtypes[i]);
}

/* scf.for; iter args of async types (a token and its values, side by
 * side) are a carried TIR future. */
void
im_for(Imp *I, const MOp *op, int depth)
{
	const MBlock *b;
	int n = op->noperands - 3;
	Str inits = {0};
	Str *out = I->out;

	if (op->nregions != 1 || op->regions[0].nblocks != 1 || n < 0 ||
	    op->regions[0].blocks[0]->nargs != n + 1 || op->nresults != n)
		imp_fail(I, op, "unsupported 'scf.for'");
	b = op->regions[0].blocks[0];
	const char *lb = imp_arg(I, op, 0, true), *ub = imp_arg(I, op, 1, true),
		   *st = imp_arg(I, op, 2, true), *init[64];
	int w[64], m = 0;
	if (n > 64)
		imp_fail(I, op, "too many iter args");
	/* inits, grouped: the text of each TIR init */
	for (int j = 0; j < n; j += w[m++]) {
		w[m] = imp_carried_width(I, op, op->restypes, j, n);
		inits.len = 0;
		I->out = &inits;
		imp_put_carried(I, op, 3 + j, 3 + j + w[m]);
		I->out = out;
		if (inits.oom)
			imp_fail(I, op, "out of memory");
		init[m] = arena_strndup(I->a, inits.s ? inits.s : "",
					inits.len);
	}
	str_free(&inits);
	imp_ind(I, depth);
	for (int j = 0, k = 0; k < m; j += w[k++])
		str_printf(I->out, "%s%s", k ? ", " : "",
			   imp_carried_def(I, op, op->results, op->restypes,
					   j, w[k]));
	if (m)
		str_puts(I->out, " = ");
	imp_val_add(I, op, b->args[0], imp_tir_name(I, b->args[0]),
		    b->argtypes[0]);
	str_printf(I->out, "for %s = %s to %s step %s",
		   imp_val_find(I, b->args[0])->tir, lb, ub, st);
	for (int j = 0, k = 0; k < m; j += w[k++])
		str_printf(I->out, "%s%s = %s", k ? ", " : " iter(",
			   imp_carried_def(I, op, b->args, b->argtypes, 1 + j,
					   w[k]), init[k]);
	if (m)
		str_puts(I->out, ")");
	for (int j = 0, k = 0; k < m; j += w[k++])
		str_printf(I->out, "%s%s", k ? ", " : " -> (",
			   imp_carried_type(I, op->restypes, j, w[k]));
	if (m)
		str_puts(I->out, ")");
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

/* tensor.generate %n { ^bb0(%i: index, ...): ... tensor.yield %s } : T
 * -> `generate(%n) [%i, ...] : T { ... yield %s }` */
void
im_generate(Imp *I, const MOp *op, int depth)
{
	const MBlock *b;
	const char **dyn;

	if (op->nregions != 1 || op->regions[0].nblocks != 1 ||
	    op->nresults != 1)
		imp_fail(I, op, "unsupported 'tensor.generate'");
	b = op->regions[0].blocks[0];
	imp_type_check(I, op, op->restypes[0]);
	dyn = arena_alloc(I->a, (size_t)(op->noperands + 1) * sizeof *dyn);
	for (int j = 0; j < op->noperands; j++)
		dyn[j] = imp_arg(I, op, j, false);
	imp_put_results(I, op, depth);
	block_args(I, op, b, 0);
	str_puts(I->out, "generate");
	for (int j = 0; j < op->noperands; j++)
		str_printf(I->out, "%s%s", j ? ", " : "(", dyn[j]);
	str_puts(I->out, op->noperands ? ") [" : " [");
	for (int i = 0; i < b->nargs; i++)
		str_printf(I->out, "%s%s", i ? ", " : "",
			   imp_val_find(I, b->args[i])->tir);
	str_printf(I->out, "] : %s {\n", op->restypes[0]);
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

void
im_yield(Imp *I, const MOp *op, int depth)
{
	imp_ind(I, depth);
	str_puts(I->out, !strcmp(op->name, "func.return") ? "return" :
		 !strcmp(op->name, "scf.condition") ? "condition" : "yield");
	if (op->noperands)
		str_puts(I->out, " ");
	if (op->parent && !strcmp(op->name, "scf.yield") &&
	    !strcmp(op->parent->name, "scf.for"))
		imp_put_carried(I, op, 0, op->noperands);
	else
		imp_put_list(I, op, 0, op->noperands, false);
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

void
im_assert(Imp *I, const MOp *op, int depth)
{
	const char *msg = mattr_str(mop_attr(op, "msg"), I->a);

	imp_ind(I, depth);
	str_printf(I->out, "assert %s, ", imp_arg(I, op, 0, false));
	put_tir_string(I, op, msg ? msg : "");
	str_puts(I->out, "\n");
}

void
im_async(Imp *I, const MOp *op, int depth)
{
	int64_t seg[2] = {0, 0}, s = 1;
	const MAttr *st = mop_attr(op, "bufdiff.stream");
	const char *f, **aw;
	IVal *v;

	imp_segments(I, op, seg, 2);
	if (seg[0] || seg[1] || op->nresults < 1)
		imp_fail(I, op, "'async.execute' with dependencies or operands");
	if (st && mattr_int(st, &s) < 0)
		imp_fail(I, op, "bad attribute 'bufdiff.stream'");
	f = imp_tir_name(I, arena_strndup(I->a, op->results[0],
					  strcspn(op->results[0], "#")));
	aw = arena_alloc(I->a, op->nresults * sizeof *aw);
	for (int j = 0; j < op->nresults; j++) {
		const char *t = op->restypes[j];
		if (j && strncmp(t, "!async.value<", 13))
			imp_fail(I, op, "unsupported type '%s'", t);
		if (j)
			imp_type_check(I, op, arena_strndup(I->a, t + 13,
							strlen(t) - 14));
		v = imp_val_add(I, op, op->results[j], f, t);
		v->fut = j;
		v->nvals = op->nresults - 1;
		v->awaited = aw;
	}
	imp_ind(I, depth);
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
void
im_await(Imp *I, const MOp *op, int depth)
{
	IVal *v = imp_operand(I, op, 0);
	const char **aw = v->awaited;
	int j = v->fut, n = v->nvals;
	const MOp *p = I->prev;
	bool cont = false;

	if (j < 0)
		imp_fail(I, op, "'async.await' of a value that is not async");
	if (j && op->nresults != 1)
		imp_fail(I, op, "unsupported 'async.await'");
	if (j > 1 && p && !strcmp(p->name, "async.await") && imp_same_loc(I, p, op)) {
		IVal *pv = imp_val_find(I, p->operands[0]);
		cont = pv && pv->awaited == aw && pv->fut == j - 1;
	}
	if (!cont) {
		imp_ind(I, depth);
		for (int k = 1; k <= n; k++) {
			if (k == j) {
				aw[k] = imp_tir_name(I, op->results[0]);
			} else {
				char buf[160];
				fmt_snprintf(buf, sizeof buf, "%s_%d", v->tir, k);
				aw[k] = imp_tir_name(I, buf);
			}
			str_printf(I->out, "%s%s", k > 1 ? ", " : "", aw[k]);
		}
		str_printf(I->out, "%sawait %s\n", n ? " = " : "", v->tir);
	}
	if (j)
		imp_val_add(I, op, op->results[0], aw[j], op->restypes[0]);
}

/* scf.while whose condition forwards the iter args unchanged (FORMAT §5:
 * `while iter(...) { ... condition %c } do { ... yield ... }`); the do
 * region's args are the same values. */
void
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
		init[j] = imp_arg(I, op, j, false);
	imp_put_results(I, op, depth);
	block_args(I, op, before, 0);
	for (int j = 0; j < n; j++)
		imp_val_add(I, op, after->args[j], imp_val_find(I, before->args[j])->tir,
			after->argtypes[j]);
	str_puts(I->out, n ? "while iter(" : "while");
	for (int j = 0; j < n; j++)
		str_printf(I->out, "%s%s = %s", j ? ", " : "",
			   imp_val_find(I, before->args[j])->tir, init[j]);
	str_puts(I->out, n ? ")" : "");
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, " do {\n");
	region(I, op, 1, depth);
	str_puts(I->out, "\n");
}

void
im_condition(Imp *I, const MOp *op, int depth)
{
	imp_ind(I, depth);
	str_printf(I->out, "condition %s\n", imp_arg(I, op, 0, false));
}

/* scf.forall, one dim from 0 step 1, its in_parallel's inserts inline. */
static void forall_emit(Imp *I, const MOp *op, int depth, const char *ubt,
			int k, int nout);

void
im_forall(Imp *I, const MOp *op, int depth)
{
	int64_t seg[4], lb[2], ub[2], st[2];
	int k = 0, nout;
	const char *ubt;

	imp_segments(I, op, seg, 4);
	if (imp_ints_attr(I, op, "staticLowerBound", lb, 2) != 1 ||
	    imp_ints_attr(I, op, "staticUpperBound", ub, 2) != 1 ||
	    imp_ints_attr(I, op, "staticStep", st, 2) != 1 || seg[0] || seg[2] ||
	    lb[0] != 0 || st[0] != 1 || mop_attr(op, "mapping"))
		imp_fail(I, op, "unsupported 'scf.forall' (one dim, from 0, "
			 "step 1, no mapping)");
	if (ub[0] == INT64_MIN) {
		ubt = imp_arg(I, op, k++, true);
	} else {
		char buf[32];
		fmt_snprintf(buf, sizeof buf, "%" PRId64, ub[0]);
		ubt = arena_strdup(I->a, buf);
	}
	nout = (int)seg[3];
	forall_emit(I, op, depth, ubt, k, nout);
}

/* mlir-opt-16's scf.foreach_thread: one thread count, then the outputs. */
void
im_foreach_thread(Imp *I, const MOp *op, int depth)
{
	int64_t seg[2];

	imp_segments(I, op, seg, 2);
	if (seg[0] != 1 || mop_attr(op, "mapping") ||
	    mop_attr(op, "thread_dim_mapping"))
		imp_fail(I, op, "unsupported 'scf.foreach_thread' (one dim, "
			 "no mapping)");
	forall_emit(I, op, depth, imp_arg(I, op, 0, true), 1, (int)seg[1]);
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
		init[j] = imp_arg(I, op, k + j, false);
	b = op->regions[0].blocks[0];
	imp_put_results(I, op, depth);
	block_args(I, op, b, 0);
	str_printf(I->out, "forall %s = 0 to %s", imp_val_find(I, b->args[0])->tir,
		   ubt);
	if (nout) {
		str_puts(I->out, " shared(");
		for (int j = 0; j < nout; j++)
			str_printf(I->out, "%s%s = %s", j ? ", " : "",
				   imp_val_find(I, b->args[j + 1])->tir, init[j]);
		str_puts(I->out, ")");
	}
	put_rtypes(I, op, 0);
	str_puts(I->out, " {\n");
	region(I, op, 0, depth);
	str_puts(I->out, "\n");
}

void
im_in_parallel(Imp *I, const MOp *op, int depth)
{
	int n = I->nvals;

	if (op->nregions != 1 || op->regions[0].nblocks > 1)
		imp_fail(I, op, "unsupported 'scf.forall.in_parallel'");
	if (op->regions[0].nblocks)
		imp_ops(I, op->regions[0].blocks[0], depth);
	I->nvals = n;
}

void
im_parallel_insert(Imp *I, const MOp *op, int depth)
{
	imp_ind(I, depth);
	str_printf(I->out, "parallel_insert_slice %s into %s",
		   imp_arg(I, op, 0, false), imp_arg(I, op, 1, false));
	imp_put_slice(I, op, 2, 5);
	str_puts(I->out, "\n");
}

/* ------------------------------------------------------------ branches */

/* The block of the function being imported that `label` names. */
static const MBlock *
succ_block(Imp *I, const MOp *op, const char *label)
{
	const MRegion *r = I->func && I->func->nregions ? &I->func->regions[0]
							: NULL;
	int k = mregion_block(r, label);

	if (k > 0)
		return r->blocks[k];
	imp_fail(I, op, "'%s' to %s, no block of the function body after "
		 "its entry", op->name, label);
}

/* ` ^bb1(%x, %y)`: successor k with operands [from, from + n). */
static void
put_succ(Imp *I, const MOp *op, int k, int from, int n)
{
	const MBlock *b;

	if (k >= op->nsuccs)
		imp_fail(I, op, "'%s' needs %d successors", op->name, k + 1);
	b = succ_block(I, op, op->succs[k]);
	if (b->nargs != n)
		imp_fail(I, op, "'%s' passes %d values to %s, which takes %d",
			 op->name, n, op->succs[k], b->nargs);
	str_printf(I->out, "%s%s", k ? ", " : " ", op->succs[k]);
	if (!n)
		return;
	str_puts(I->out, "(");
	imp_put_carried(I, op, from, from + n);
	str_puts(I->out, ")");
}

/* cf.br ^bb(%x) -> `br ^bb(%x)`; cf.cond_br %c, ^a(%x), ^b(%y) (operand
 * segments: the condition, then each successor's) -> `cond_br`.  Only
 * between the blocks of a function body: TIR's regions have one block,
 * and a region of several blocks is refused where it is read. */
void
im_branch(Imp *I, const MOp *op, int depth)
{
	bool cond = !strcmp(op->name, "cf.cond_br");

	if (!I->func || op->parent != I->func)
		imp_fail(I, op, "'%s' inside a region (only a function body "
			 "may have several blocks)", op->name);
	imp_ind(I, depth);
	if (!cond) {
		if (op->nsuccs != 1)
			imp_fail(I, op, "'cf.br' needs one successor");
		str_puts(I->out, "br");
		put_succ(I, op, 0, 0, op->noperands);
	} else {
		int64_t seg[3];
		imp_segments(I, op, seg, 3);
		if (seg[0] != 1 || op->nsuccs != 2 ||
		    1 + seg[1] + seg[2] != op->noperands)
			imp_fail(I, op, "'cf.cond_br' with operand segments that "
				 "do not match its successors");
		str_printf(I->out, "cond_br %s,", imp_arg(I, op, 0, false));
		put_succ(I, op, 0, 1, (int)seg[1]);
		put_succ(I, op, 1, 1 + (int)seg[1], (int)seg[2]);
	}
	str_puts(I->out, "\n");
}
