/*
 * export_regions.c: the exporter's ops with regions or calls: func.call,
 * scf.if/for/forall/while, async.execute/await, cf.assert, terminators,
 * and a function body's blocks with their cf.br/cf.cond_br.
 */
#include <stdio.h>
#include <stdlib.h>

#include "export_impl.h"

/* ------------------------------------------------ calls and regions */

/* A TIR future is a token plus values: it cannot cross a call, the
 * results of an if, while or async, or a function boundary as one MLIR
 * value (a for and a branch carry it as its parts: ex_slots). */
void
ex_no_future(Exporter *e, const char *what, Loc loc, Type *const *t, int n)
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
	Arg *a = ex_args_new(e, n);

	for (int i = 0; i < n; i++)
		a[i] = ex_lit(e, op, &op->args[i], ty[i]->dt);
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
	c = ex_aux_new(e);
	c.src = a.v;
	ex_ind(e);
	ex_put_arg(e, c);
	str_puts(e->out, " = tensor.cast ");
	ex_put_arg(e, a);
	str_puts(e->out, " : ");
	ex_put_type(e, a.v->type);
	str_puts(e->out, " to ");
	ex_put_type(e, want);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.cast", &a, 1, NULL, NULL, 1);
	if (e->map)
		e->map->ops[e->map->nops - 1].arg = arg;
	return c;
}

void
ex_call(Exporter *e, const Op *op)
{
	const Func *f = op->fn;
	Arg *a;

	if (!f)
		ex_fail(e, op->loc, "cannot export call: unknown function "
			"@%s", op->callee);
	ex_no_future(e, "call", op->loc, f->rtypes, f->nrtypes);
	a = ex_args_new(e, op->nargs);
	for (int i = 0; i < op->nargs && i < f->nparams; i++)
		a[i] = cast(e, op, ex_lit(e, op, &op->args[i],
					  f->params[i]->type->dt),
			    f->params[i]->type, i);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "func.call ");
	ex_put_sym(e, f->name);
	str_puts(e->out, "(");
	ex_put_args(e, a, op->nargs);
	str_puts(e->out, ") : (");
	for (int i = 0; i < f->nparams; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_type(e, f->params[i]->type);
	}
	str_puts(e->out, ") -> ");
	if (f->nrtypes != 1)
		str_puts(e->out, "(");
	ex_put_types(e, f->rtypes, f->nrtypes);
	if (f->nrtypes != 1)
		str_puts(e->out, ")");
	ex_end_line(e, op);
	ex_rec(e, op, "func.call", a, op->nargs, NULL, op->res, op->nres);
}

void
ex_if(Exporter *e, const Op *op)
{
	Operand c = op->args[0];
	Arg a = ex_lit(e, op, &c, DT_I1);

	ex_no_future(e, "if", op->loc, op->rtypes, op->nrtypes);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "scf.if ");
	ex_put_arg(e, a);
	ex_put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, op->body);
	if (op->orelse) {
		ex_ind(e);
		str_puts(e->out, "} else {\n");
		ex_block(e, op->orelse);
	}
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, "scf.if", &a, 1, NULL, op->res, op->nres);
}

/* scf.for; a carried future is its token and values, side by side in
 * iter_args, results and yield (`%f = %f0, %_2 = %_1`). */
void
ex_for(Exporter *e, const Op *op)
{
	int n = op->nargs, m, *tied;
	Arg *a = ex_args_new(e, n), *s;
	Value **res;
	int nres = 0;

	for (int i = 0; i < n; i++)
		a[i] = ex_carried(e, op, &op->args[i],
				  i < 3 ? DT_INDEX : op->rtypes[i - 3]->dt);
	s = ex_slots(e, a, n, &m);
	tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(m + 1));
	res = arena_alloc(e->tmp, sizeof *res * (size_t)(m + 1));
	for (int j = 0; j < op->nres; j++)
		for (int k = 0; k < ex_width(e, op->res[j]->type); k++)
			res[nres++] = op->res[j];
	for (int j = 0; j < nres; j++)
		tied[j] = 3 + j;
	for (int i = 3; i < n; i++)
		ex_carry_names(e, op->body->args[i - 2]);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "scf.for ");
	ex_put_name(e, op->body->args[0]);
	str_puts(e->out, " = ");
	ex_put_arg(e, s[0]);
	str_puts(e->out, " to ");
	ex_put_arg(e, s[1]);
	str_puts(e->out, " step ");
	ex_put_arg(e, s[2]);
	for (int i = 3, k = 3; i < n; i++) {
		const Value *ia = op->body->args[i - 2];
		for (int j = 0; j < ex_width(e, ia->type); j++, k++) {
			str_puts(e->out, k == 3 ? " iter_args(" : ", ");
			ex_put_arg(e, (Arg){.v = ia, .fj = ia->type->kind == TY_FUTURE
					    ? ex_slot_fj(e, j) : j});
			str_puts(e->out, " = ");
			ex_put_arg(e, s[k]);
		}
		str_puts(e->out, i == n - 1 ? ")" : "");
	}
	ex_put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, op->body);
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, "scf.for", s, m, tied, res, nres);
}

/* A forall bound: a literal stays static (19, 22), a value is an operand. */
static void
forall_bound(Exporter *e, const Op *op, int i, Arg *a, int *n)
{
	if (!op->args[i].v && e->ver->version > 16) {
		str_printf(e->out, "%lld", (long long)op->args[i].i);
		return;
	}
	a[*n] = ex_lit(e, op, &op->args[i], DT_INDEX);
	ex_put_arg(e, a[(*n)++]);
}

/* parallel_insert_slice, inside the forall's in_parallel region. */
void
ex_pinsert(Exporter *e, const Op *op)
{
	Arg *ops = ex_args_new(e, op->noffs + 2);
	const Type *dt = op->dest.v->type;
	int n;

	ops[0] = ex_arg_of(op->args[0].v);
	ops[1] = ex_arg_of(op->dest.v);
	n = ex_slice_operands(e, op, ops, 2);
	ex_ind(e);
	str_puts(e->out, "tensor.parallel_insert_slice ");
	ex_put_arg(e, ops[0]);
	str_puts(e->out, " into ");
	ex_put_arg(e, ops[1]);
	ex_put_slice(e, op);
	str_puts(e->out, " : ");
	ex_put_type(e, op->args[0].v->type);
	str_puts(e->out, " into ");
	ex_put_type(e, dt);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.parallel_insert_slice", ops, n, NULL, NULL, 0);
}

/* scf.forall (scf.foreach_thread in 16, from 0 only) with shared_outs;
 * the parallel_insert_slices go into its in_parallel terminator. */
void
ex_forall(Exporter *e, const Op *op)
{
	bool v16 = e->ver->version == 16;
	int n = 0, *tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(op->nres + 1));
	Arg *a = ex_args_new(e, op->nargs);
	const Block *b = op->body;
	int first = b->nops - 1;

	if (v16 && (op->args[0].v || op->args[0].i != 0))
		ex_fail(e, op->loc, "cannot export forall: mlir-opt-16's "
			"scf.foreach_thread starts at 0");
	if (v16) /* its bound is an operand: the constant comes first */
		a[n++] = ex_lit(e, op, &op->args[1], DT_INDEX);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, v16 ? "scf.foreach_thread (" : "scf.forall (");
	ex_put_name(e, b->args[0]);
	if (v16) {
		str_puts(e->out, ") in (");
		ex_put_arg(e, a[0]);
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
		ex_put_name(e, b->args[1 + k]);
		str_puts(e->out, " = ");
		tied[k] = n;
		a[n] = ex_arg_of(op->args[2 + k].v);
		ex_put_arg(e, a[n++]);
		str_puts(e->out, k == op->nres - 1 ? ")" : "");
	}
	ex_put_arrow(e, op->rtypes, op->nrtypes);
	str_puts(e->out, " {\n");
	while (first > 0 && b->ops[first - 1]->kind == OP_PARALLEL_INSERT_SLICE)
		first--;
	e->depth++;
	for (int i = 0; i < first; i++)
		ex_op(e, b->ops[i]);
	ex_ind(e);
	str_puts(e->out, v16 ? "scf.foreach_thread.perform_concurrently {\n"
			     : "scf.forall.in_parallel {\n");
	e->depth++;
	for (int i = first; i < b->nops - 1; i++)
		ex_pinsert(e, b->ops[i]);
	e->depth--;
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, b->ops[b->nops - 1]);
	e->depth--;
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, v16 ? "scf.foreach_thread" : "scf.forall", a, n, tied,
	       op->res, op->nres);
}

/* `scf.while (%a = %x) : (T) -> (T) { ... scf.condition(%c) %a : T }
 * do { ^bb0(%a: T): ... scf.yield ... }`: the do block's args reuse the
 * iter args' names (sibling regions scope their names apart). */
void
ex_while(Exporter *e, const Op *op)
{
	int n = op->nargs, *tied = arena_alloc(e->tmp, sizeof(int) * (size_t)(n + 1));
	Arg *a = typed_args(e, op, op->rtypes, n);

	ex_no_future(e, "while", op->loc, op->rtypes, op->nrtypes);
	for (int j = 0; j < op->nres; j++)
		tied[j] = j;
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "scf.while (");
	for (int i = 0; i < n; i++) {
		str_puts(e->out, i ? ", " : "");
		ex_put_name(e, op->body->args[i]);
		str_puts(e->out, " = ");
		ex_put_arg(e, a[i]);
	}
	str_puts(e->out, ") : (");
	ex_put_types(e, op->rtypes, n);
	str_puts(e->out, ") -> (");
	ex_put_types(e, op->rtypes, n);
	str_puts(e->out, ") {\n");
	ex_block(e, op->body);
	ex_ind(e);
	str_puts(e->out, "} do {\n");
	if (n) {
		ex_ind(e);
		str_puts(e->out, "^bb0(");
		for (int i = 0; i < n; i++) {
			str_puts(e->out, i ? ", " : "");
			ex_put_name(e, op->body->args[i]);
			str_puts(e->out, ": ");
			ex_put_type(e, op->rtypes[i]);
		}
		str_puts(e->out, "):\n");
	}
	ex_block(e, op->orelse);
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, "scf.while", a, n, tied, op->res, op->nres);
}

/* `scf.condition(%c) %a, ... : T, ...`: the iter values go on unchanged. */
void
ex_condition(Exporter *e, const Op *op)
{
	const Op *w = op->parent->parent;
	int n = w->nrtypes;
	Arg *a = ex_args_new(e, n + 1);

	a[0] = ex_lit(e, op, &op->args[0], DT_I1);
	for (int i = 0; i < n; i++)
		a[1 + i] = (Arg){.v = w->body->args[i]};
	ex_ind(e);
	str_puts(e->out, "scf.condition(");
	ex_put_arg(e, a[0]);
	str_puts(e->out, ")");
	if (n) {
		str_puts(e->out, " ");
		ex_put_args(e, a + 1, n);
		str_puts(e->out, " : ");
		ex_put_types(e, w->rtypes, n);
	}
	ex_end_line(e, op);
	ex_rec(e, op, "scf.condition", a, n + 1, NULL, NULL, 0);
}

/* `cf.assert %c, "message"` (MLIR's string escapes are ours). */
void
ex_assert(Exporter *e, const Op *op)
{
	Arg a = ex_lit(e, op, &op->args[0], DT_I1);

	ex_ind(e);
	str_puts(e->out, "cf.assert ");
	ex_put_arg(e, a);
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
	ex_end_line(e, op);
	ex_rec(e, op, "cf.assert", &a, 1, NULL, NULL, 0);
}

/* `%f, %_N:k = async.execute` (k async values; `%f = ...` for none). */
void
ex_put_execute(Exporter *e, const Value *f, Arg vals, int k)
{
	ex_ind(e);
	ex_put_name(e, f);
	if (k) {
		str_puts(e->out, ", ");
		ex_put_arg(e, vals);
		if (k > 1)
			str_printf(e->out, ":%d", k);
	}
	str_puts(e->out, " = async.execute");
}

/* `%f, %_N:k = async.execute -> (!async.value<T>...)`: %f is the token,
 * %_N the values that `await` takes apart. */
void
ex_async(Exporter *e, const Op *op)
{
	const Value *f = op->res[0];
	int n = op->nrtypes;
	Value **res;
	Arg vals;

	if (e->native) {
		ex_native_async(e, op);
		return;
	}
	res = arena_alloc(e->tmp, sizeof *res * (size_t)(n + 1));
	vals = ex_aux_new(e);
	ex_no_future(e, "async", op->loc, op->rtypes, n);
	e->futvals[f->id] = vals.aux;
	for (int j = 0; j <= n; j++)
		res[j] = (Value *)f;
	ex_put_execute(e, f, vals, n);
	for (int j = 0; j < n; j++) {
		str_puts(e->out, j ? ", " : n > 1 ? " -> (" : " -> ");
		str_puts(e->out, "!async.value<");
		ex_put_type(e, op->rtypes[j]);
		str_puts(e->out, ">");
	}
	if (n > 1)
		str_puts(e->out, ")");
	str_printf(e->out, " attributes {bufdiff.stream = %d : i64} {\n",
		   op->stream);
	ex_block(e, op->body);
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	ex_rec(e, op, "async.execute", NULL, 0, NULL, res, n + 1);
}

/* One async.await per value of the future; a bare future awaits its
 * token. */
void
ex_await(Exporter *e, const Op *op)
{
	const Value *f = op->args[0].v;
	const Type *t = f ? f->type : NULL;
	Arg tok = ex_arg_of(f);

	if (!t || t->kind != TY_FUTURE || (t->nelems && !e->futvals[f->id]))
		ex_fail(e, op->loc, "cannot export await: not the future of "
			"an async in scope");
	if (e->native) {
		ex_native_await(e, op);
		return;
	}
	if (!t->nelems) {
		ex_ind(e);
		str_puts(e->out, "async.await ");
		ex_put_name(e, f);
		str_puts(e->out, " : !async.token");
		ex_end_line(e, op);
		ex_rec(e, op, "async.await", &tok, 1, NULL, NULL, 0);
		return;
	}
	for (int j = 0; j < op->nres && j < t->nelems; j++) {
		ex_ind(e);
		ex_put_name(e, op->res[j]);
		str_puts(e->out, " = async.await ");
		ex_put_futval(e, f, j);
		str_puts(e->out, " : !async.value<");
		ex_put_type(e, t->elems[j]);
		str_puts(e->out, ">");
		ex_end_line(e, op);
		ex_rec(e, op, "async.await", &tok, 1, NULL, &op->res[j], 1);
	}
}

/* yield (scf or async, by the region's op) and return */
/* tensor.generate: `tensor.generate %n {` then `^bb0(%i: index, ...):`
 * (the block's arguments named as the index args, all versions alike),
 * the body, `} : T`. */
void
ex_generate(Exporter *e, const Op *op)
{
	const Block *b = op->body;
	Arg *a = ex_args_new(e, op->nargs);

	for (int i = 0; i < op->nargs; i++)
		a[i] = ex_lit(e, op, &op->args[i], DT_INDEX);
	ex_ind(e);
	ex_put_results(e, op);
	str_puts(e->out, "tensor.generate");
	if (op->nargs) {
		str_puts(e->out, " ");
		ex_put_args(e, a, op->nargs);
	}
	str_puts(e->out, " {\n");
	ex_ind(e);
	str_puts(e->out, "^bb0");
	for (int i = 0; i < b->nargs; i++) {
		str_puts(e->out, i ? ", " : "(");
		ex_put_name(e, b->args[i]);
		str_puts(e->out, ": index");
	}
	str_puts(e->out, b->nargs ? "):\n" : ":\n");
	ex_block(e, b);
	ex_ind(e);
	str_puts(e->out, "} : ");
	ex_put_type(e, op->type);
	ex_end_line(e, op);
	ex_rec(e, op, "tensor.generate", a, op->nargs, NULL, op->res, 1);
}

void
ex_term(Exporter *e, const Op *op)
{
	const Op *parent = op->parent->parent;
	Type **ty = parent ? parent->rtypes : op->parent->func->rtypes;
	int nty = parent ? parent->nrtypes : op->parent->func->nrtypes;
	const char *name = !parent ? "func.return"
			   : parent->kind == OP_ASYNC ? "async.yield"
			   : parent->kind == OP_GENERATE ? "tensor.yield"
			   : "scf.yield";
	Arg *a;
	int na;

	if (parent && parent->kind == OP_GENERATE) {
		/* one scalar of the element type */
		ty = arena_alloc(e->tmp, sizeof *ty);
		ty[0] = arena_alloc(e->tmp, sizeof **ty);
		ty[0]->kind = TY_SCALAR;
		ty[0]->dt = parent->type->dt;
		nty = 1;
	}

	if (e->native && parent && parent->kind == OP_ASYNC) {
		ex_native_yield(e, op);
		return;
	}
	if (op->nargs != nty)
		ex_fail(e, op->loc, "cannot export %s: %d values for %d "
			"results", op_info[op->kind].name, op->nargs, nty);
	if (parent && parent->kind == OP_FOR) {
		/* a for may carry futures: each is its token and values */
		a = ex_args_new(e, nty);
		for (int i = 0; i < nty; i++)
			a[i] = ex_carried(e, op, &op->args[i], ty[i]->dt);
		a = ex_slots(e, a, nty, &na);
	} else {
		a = typed_args(e, op, ty, nty);
		na = nty;
	}
	ex_ind(e);
	str_printf(e->out, "%s", name);
	if (nty) {
		str_puts(e->out, " ");
		ex_put_args(e, a, na);
		str_puts(e->out, " : ");
		ex_put_types(e, ty, nty);
	}
	ex_end_line(e, op);
	ex_rec(e, op, name, a, na, NULL, NULL, 0);
}

/* ------------------------------------------------- blocks, branches */

/* A block of a function body after the entry: `^join(%a: T, ...):`, then
 * its ops (the block's arguments carry no loc: MLIR gives them the
 * block's, and nothing maps back through them). */
void
ex_cfg_block(Exporter *e, const Block *b)
{
	ex_put_label(e, b);
	for (int i = 0; i < b->nargs; i++) {
		const Value *v = b->args[i];
		str_puts(e->out, i ? ", " : "(");
		if (v->type->kind == TY_FUTURE && e->native) {
			/* `%_3: memref<4xf32>, %_4: f32` */
			for (int j = 0; j < ex_nvals(e, v->type); j++) {
				str_puts(e->out, j ? ", " : "");
				ex_put_futval(e, v, j);
				str_puts(e->out, ": ");
				ex_native_slot_type(e, v->type, j);
			}
			continue;
		}
		ex_put_name(e, v);
		if (v->type->kind == TY_FUTURE) {
			/* `%g: !async.token, %_3: !async.value<T>` */
			str_puts(e->out, ": !async.token");
			for (int j = 0; j < v->type->nelems; j++) {
				str_puts(e->out, ", ");
				ex_put_futval(e, v, j);
				str_puts(e->out, ": !async.value<");
				ex_put_type(e, v->type->elems[j]);
				str_puts(e->out, ">");
			}
			continue;
		}
		str_puts(e->out, ": ");
		ex_put_type(e, v->type);
	}
	str_puts(e->out, b->nargs ? "):\n" : ":\n");
	ex_block(e, b);
}

/* Successor k: `^join(%x, %y : T, U)` or `^join`; a future passes its
 * token and values (`^b(%f, %_1 : !async.token, !async.value<T>)`). */
static void
put_succ(Exporter *e, const Op *op, int k, const Arg *a)
{
	const Block *to = op->succ[k];
	int n = op->nsarg[k], m;
	Arg *s = ex_slots(e, a, n, &m);

	ex_put_label(e, to);
	if (!n)
		return;
	str_puts(e->out, "(");
	ex_put_args(e, s, m);
	str_puts(e->out, " : ");
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_type(e, to->args[i]->type);
	}
	str_puts(e->out, ")");
}

/* `cf.br ^b(%x : T)`, `cf.cond_br %c, ^a(%x : T), ^b`: operands in TIR's
 * order (the condition, then each successor's), literals as constants of
 * the block argument's dtype; the map records them all, so the
 * `__inplace_operands_attr__` One-Shot puts on a branch reads back per
 * edge. */
void
ex_branch(Exporter *e, const Op *op)
{
	Arg *a = ex_args_new(e, op->nargs);
	bool cond = op->kind == OP_COND_BR;
	int m;

	for (int k = 0; k < op->nsucc; k++)
		if (!op->succ[k] || op->nsarg[k] != op->succ[k]->nargs)
			ex_fail(e, op->sloc[k], "cannot export %s: a successor "
				"that does not take its arguments",
				op_info[op->kind].name);
	if (cond)
		a[0] = ex_lit(e, op, &op->args[0], DT_I1);
	for (int k = 0; k < op->nsucc; k++)
		for (int i = 0; i < op->nsarg[k]; i++) {
			const Value *ba = op->succ[k]->args[i];
			a[op->sarg[k] + i] = ex_carried(e, op,
				&op->args[op->sarg[k] + i], ba->type->dt);
		}
	ex_ind(e);
	str_puts(e->out, cond ? "cf.cond_br " : "cf.br ");
	if (cond) {
		ex_put_arg(e, a[0]);
		str_puts(e->out, ", ");
	}
	for (int k = 0; k < op->nsucc; k++) {
		if (k)
			str_puts(e->out, ", ");
		put_succ(e, op, k, a + op->sarg[k]);
	}
	ex_end_line(e, op);
	/* the map's operands are MLIR's: a future's token and values all
	 * stand for it (external.c folds the words back per TIR operand) */
	a = ex_slots(e, a, op->nargs, &m);
	ex_rec(e, op, cond ? "cf.cond_br" : "cf.br", a, m, NULL, NULL, 0);
}
