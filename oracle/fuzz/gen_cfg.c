/*
 * gen_cfg.c: function bodies of several blocks (the `cfg` mix, GEN_CFG):
 * diamonds (a cond_br to two blocks that join at a block whose arguments
 * carry tensors, or one arm straight to the join), loops of blocks (a
 * header with an index counter and tensor arguments, a body, an exit; the
 * counter bounded by a literal or %n, so the trip limit is never near),
 * early exits from a loop's body to its exit, and values of a dominating
 * block written by in-place candidates (insert, elementwise ops, fill) in
 * a later block and read again after the join: the shape MLIR's One-Shot
 * Bufferize gets wrong (issue 22).  With launches in the mix, a quarter
 * of them carry a future instead: a diamond whose join takes a launch as
 * its argument, a loop of blocks that passes the next launch on its back
 * edge (gen_carry.c makes the launches).  And selects (`select %c, %a, %b`,
 * anywhere): a join of two values without blocks, whose result may share
 * the buffer it picks, now and then with an operand written after it.
 *
 * Blocks nest like regions: an arm's or a loop body's values die with it
 * (they do not dominate the join), what was made before the construct
 * stays in scope, and so do a loop header's values after the exit (the
 * header dominates it).  Branches end only a function body's blocks, so a
 * construct starts only at block level (not inside an if, a loop, a
 * launch or a forall), and at most two deep.  An arm's launches are
 * awaited before it branches away, like a region's before its yield.
 *
 * gen_region.c's gen_ops asks gen_cfg at every step; the two recurse into
 * each other (an arm's ops are the mix's).  One random draw per full
 * expression, as everywhere in the generator.
 */
#include <stdio.h>

#include "gen_impl.h"

/* Per step at block level, in percent: outermost, inside blocks; and
 * per step anywhere (after those), a select. */
enum { CFG_TOP = 5, CFG_NESTED = 4, CFG_MAXNEST = 2, CFG_SELECT = 2 };
/* Of those constructs, with launches in the mix: one that carries a
 * future through a block argument (gen_future_diamond, gen_future_loop). */
enum { CFG_CARRY = 25 };

/* ---- text */

/* `^bbK(%a: T, %b: U):` at the function's indentation. */
static void
emit_label(G *g, int k, GV *const *args, int n)
{
	char s[64];

	if (GEN_BUILD(g)) {
		Block *b = gb_start_label(g, k);
		for (int i = 0; i < n; i++)
			gb_arg(g, b, args[i]->name, gb_type(g, args[i]));
	}
	if (g->sh->notext)
		return;
	str_printf(g->out, "  ^bb%d", k);
	for (int i = 0; i < n; i++)
		str_printf(g->out, "%s%%%s: %s", i ? ", " : "(", args[i]->name,
			   gen_ty(args[i], s, sizeof s));
	str_puts(g->out, n ? "):\n" : ":\n");
}

/* A branch's successor: ^bbK and the names it passes. */
typedef struct Succ {
	int k;
	char names[3][16];
	int n;
} Succ;

static Succ
succ(int k, char names[][16], int n)
{
	Succ t = {k, {""}, n};

	for (int i = 0; i < n; i++)
		memcpy(t.names[i], names[i], 16);
	return t;
}

/* "^bbK(%a, %b)" into buf. */
static const char *
succ_text(const Succ *t, char *buf, size_t size)
{
	int w = fmt_snprintf(buf, size, "^bb%d", t->k);

	for (int i = 0; i < t->n; i++)
		w += fmt_snprintf(buf + w, size - (size_t)w, "%s%%%s",
				  i ? ", " : "(", t->names[i]);
	if (t->n)
		fmt_snprintf(buf + w, size - (size_t)w, ")");
	return buf;
}

/* `br ^bbK(...)` */
static void
emit_br(G *g, Succ t)
{
	char s[96];

	gen_line(g, "br %s", succ_text(&t, s, sizeof s));
	if (GEN_BUILD(g)) {
		Op *op = gb_op(g, OP_BR, 0, NULL, NULL, t.n);
		int at = 0;
		if (!t.n)
			op->args = NULL;
		gb_succ(g, op, 0, t.k, t.names, t.n, &at);
	}
}

/* `cond_br %cond, ^bbA(...), ^bbB(...)` */
static void
emit_cond_br(G *g, const char *cond, Succ a, Succ b)
{
	char sa[96], sb[96];

	gen_line(g, "cond_br %%%s, %s, %s", cond, succ_text(&a, sa, sizeof sa),
		 succ_text(&b, sb, sizeof sb));
	if (GEN_BUILD(g)) {
		Op *op = gb_op(g, OP_COND_BR, 0, NULL, NULL, 1 + a.n + b.n);
		int at = 1;
		op->args[0] = gb_opnd(g, cond);
		gb_succ(g, op, 0, a.k, a.names, a.n, &at);
		gb_succ(g, op, 1, b.k, b.names, b.n, &at);
	}
}

/* ---- scopes */

/* An arm or a loop body: a block (or blocks) at one level deeper, whose
 * values die at its end. */
static int
arm_enter(G *g)
{
	g->depth++;
	g->cfgdepth++;
	return g->nv;
}

static void
arm_leave(G *g, int mark)
{
	for (int i = 0; i < g->nagain; i++)
		if (g->again[i].scope >= g->depth)
			g->again[i--] = g->again[--g->nagain];
	g->nv = mark;
	g->depth--;
	g->cfgdepth--;
}

/* The value passed for a block argument of type t: the newest made since
 * mark, else any in scope (the construct's types come from values in
 * scope, so there is one). */
static const char *
pass_of(G *g, const GV *t, int mark)
{
	for (int i = g->nv - 1; i >= mark; i--)
		if (gen_same_type(&g->v[i], t))
			return g->v[i].name;
	return gen_name_of(gen_find(g, t, NULL));
}

/* The values passed for types t[0..n), into names. */
static void
pass_all(G *g, const GV *t, int n, int mark, char names[][16])
{
	for (int i = 0; i < n; i++)
		fmt_snprintf(names[i], 16, "%s", pass_of(g, &t[i], mark));
}

/* New block arguments of types t[0..n), named prefix + a number. */
static void
new_args(G *g, const GV *t, int n, const char *prefix, GV **out)
{
	for (int i = 0; i < n; i++) {
		out[i] = gen_new_value(g, &t[i], prefix);
		if (!t[i].scalar)
			gen_count(g, GC_CFG_ARG);
	}
}

/* An i1 condition on a loop's counter or iv (alternating between trips),
 * an i1 in scope, or %n; its name into cond. */
static void
cfg_condition(G *g, char *cond, size_t n)
{
	GV *c = gen_chance(g, 20) ? gen_any_scalar(g, DT_I1) : NULL;
	const char *on;
	char lit[12];
	OpKind op;

	if (c) {
		fmt_snprintf(cond, n, "%s", c->name);
		return;
	}
	on = g->nloops && gen_chance(g, 60)
		     ? g->loops[gen_pick(g, g->nloops)].iv : "n";
	op = gen_draw_ew(g, F_CMP, G_SCALAR, DT_INDEX);
	fmt_snprintf(lit, sizeof lit, "%d", gen_pick(g, 4));
	fmt_snprintf(cond, n, "c%d", g->sh->names++);
	gen_line(g, "%%%s = %s %%%s, %s : index", cond, op_info[op].name, on, lit);
	if (GEN_BUILD(g))
		gb_index_cmp(g, op, cond, on, lit);
	++g->sh->ops;
}

/* ---- values of a dominating block, written later and read again */

/* A tensor made before index mark: now and then one of the first (the
 * params), else any. */
static GV *
pick_outer(G *g, int mark)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < mark && i < g->nv; i++)
		if (!g->v[i].scalar)
			idx[n++] = i;
	if (!n)
		return NULL;
	if (gen_chance(g, 40))
		return &g->v[idx[gen_pick(g, n < 3 ? n : 3)]];
	return &g->v[idx[gen_pick(g, n)]];
}

/* o written by an op that may run in its buffer: insert, an elementwise
 * op of o and a literal, a fill into it, an elementwise op into it. */
static void
write_outer(G *g, const GV *o)
{
	GV t = *o, *w, *src;
	char ty[64], lit[32], idx[64];
	OpKind k;
	int r = gen_pick(g, 100);
	bool b = GEN_BUILD(g);

	gen_ty(&t, ty, sizeof ty);
	if (r < 40) {
		gen_element_index(g, &t, idx, sizeof idx);
		gen_literal(g, t.dt, lit, sizeof lit);
		w = gen_new_value(g, &t, "v");
		gen_line(g, "%%%s = insert %s into %%%s[%s] : %s", w->name, lit,
			 t.name, idx, ty);
		if (b)
			gb_insert(g, w, lit, t.name, idx);
	} else if (r < 70) {
		k = gen_draw_ew(g, F_BINARY, G_TENSOR, t.dt);
		gen_literal(g, t.dt, lit, sizeof lit);
		w = gen_new_value(g, &t, "v");
		gen_line(g, "%%%s = %s %%%s, %s : %s", w->name, op_info[k].name,
			 t.name, lit, ty);
		if (b)
			gb_basic(g, k, w, &t, (const char *[]){t.name, lit}, 2,
				 NULL);
	} else if (r < 85) {
		gen_literal(g, t.dt, lit, sizeof lit);
		w = gen_new_value(g, &t, "v");
		gen_line(g, "%%%s = fill %s into %%%s : %s", w->name, lit,
			 t.name, ty);
		if (b)
			gb_basic(g, OP_FILL, w, &t, (const char *[]){lit}, 1,
				 t.name);
	} else {
		src = gen_find(g, &t, NULL);
		k = gen_draw_ew(g, F_UNARY, G_TENSOR, t.dt);
		w = gen_new_value(g, &t, "v");
		gen_line(g, "%%%s = %s %%%s into %%%s : %s", w->name,
			 op_info[k].name, src->name, t.name, ty);
		if (b)
			gb_basic(g, k, w, &t, (const char *[]){src->name}, 1,
				 t.name);
	}
	++g->sh->ops;
}

/* o read again: an element of it, or an elementwise op of it and the
 * newest value of its type made since mark (a join's argument, say). */
static void
read_outer(G *g, const GV *o, int mark)
{
	GV t = *o, sc = *o, *v;
	char ty[64], idx[64];
	OpKind k;

	if (gen_chance(g, 40)) {
		gen_element_index(g, &t, idx, sizeof idx);
		sc.scalar = true;
		v = gen_new_value(g, &sc, "s");
		gen_line(g, "%%%s = extract %%%s[%s] : %s", v->name, t.name,
			 idx, dtype_names[t.dt]);
		if (GEN_BUILD(g))
			gb_extract(g, v, t.name, idx);
	} else {
		const char *with = pass_of(g, &t, mark);
		k = gen_draw_ew(g, F_BINARY, G_TENSOR, t.dt);
		v = gen_new_value(g, &t, "v");
		gen_line(g, "%%%s = %s %%%s, %%%s : %s", v->name, op_info[k].name,
			 t.name, with, gen_ty(&t, ty, sizeof ty));
		if (GEN_BUILD(g))
			gb_basic(g, k, v, &t, (const char *[]){t.name, with}, 2,
				 NULL);
	}
	++g->sh->ops;
}

/* The types of a join's (or an exit's) arguments: first, then now and
 * then a second (a scalar or a tensor in scope). */
static int
edge_types(G *g, const GV *first, GV *t)
{
	GV *x;

	t[0] = *first;
	if (!gen_chance(g, 30))
		return 1;
	x = gen_chance(g, 40) ? gen_any_scalar(g, DT_COUNT) : NULL;
	if (!x)
		x = gen_any_tensor(g, 0);
	t[1] = *x;
	return 2;
}

/* ---- constructs */

/*
 *     cond_br %c, ^a, ^b            (or ^a and the join itself: a triangle)
 *   ^a:  [write o] ops  br ^j(%x)
 *   ^b:  [read o]  ops  br ^j(%y)
 *   ^j(%m: T):  [read o]
 */
static void
gen_diamond(G *g)
{
	GV *t = gen_any_tensor(g, 0), *o = NULL, ov, jt[2], *args[2];
	char cond[16], names[2][16];
	int mark, nj = 0, a, b, j, form = gen_pick(g, 100);
	bool swap;
	Succ sa, sb;

	if (!t)
		return;
	if (gen_chance(g, 55) && (o = pick_outer(g, g->nv))) {
		ov = *o; /* g->v moves on: a copy */
		o = &ov;
	}
	if (form >= 12)
		nj = edge_types(g, o ? o : t, jt);
	cfg_condition(g, cond, sizeof cond);
	a = g->sh->names++;
	b = g->sh->names++;
	j = g->sh->names++;
	swap = gen_chance(g, 50);
	if (form < 70) { /* a diamond (12%: a join without arguments) */
		sa = succ(a, NULL, 0);
		sb = succ(b, NULL, 0);
	} else {         /* a triangle: one arm goes straight to the join */
		pass_all(g, jt, nj, g->nv, names);
		sa = succ(a, NULL, 0);
		sb = succ(j, names, nj);
	}
	emit_cond_br(g, cond, swap ? sb : sa, swap ? sa : sb);
	++g->sh->ops;
	/* the arm that writes o */
	emit_label(g, a, NULL, 0);
	mark = arm_enter(g);
	if (o)
		write_outer(g, o);
	gen_ops(g, 1 + gen_pick(g, 3));
	gen_await_pending(g, g->depth);
	pass_all(g, jt, nj, mark, names);
	emit_br(g, succ(j, names, nj));
	++g->sh->ops;
	arm_leave(g, mark);
	if (form < 70) { /* the other arm, reading o now and then */
		emit_label(g, b, NULL, 0);
		mark = arm_enter(g);
		if (o && gen_chance(g, 50))
			read_outer(g, o, mark);
		gen_ops(g, gen_pick(g, 3));
		gen_await_pending(g, g->depth);
		pass_all(g, jt, nj, mark, names);
		emit_br(g, succ(j, names, nj));
		++g->sh->ops;
		arm_leave(g, mark);
	}
	mark = g->nv;
	new_args(g, jt, nj, "m", args);
	emit_label(g, j, args, nj);
	if (o && gen_chance(g, 70)) {
		read_outer(g, o, mark);
		gen_count(g, GC_CFG_OUTER);
	}
	gen_count(g, GC_CFG_DIAMOND);
}

/* The header's own ops (they stay in scope after the exit): an
 * elementwise op, an element, or a write of a value made before the
 * loop. */
static void
header_ops(G *g, const GV *o)
{
	int r = gen_pick(g, 100);

	if (o && r < 50)
		write_outer(g, o);
	else if (r < 75)
		gen_elementwise(g);
	else
		gen_element(g);
}

/*
 *     %z = const LB : index
 *     br ^h(%z, %init)
 *   ^h(%i: index, %acc: T):    [ops]
 *     %c = lt %i, UB : index
 *     cond_br %c, ^b, ^x(%acc)
 *   ^b:  [write o] ops  [cond_br %e, ^x(%v), ^k  ^k:]
 *     %i2 = add %i, STEP : index
 *     br ^h(%i2, %acc2)
 *   ^x(%r: T):  [read o]
 */
/* A loop of blocks' names (its number, header, body and exit blocks) and
 * bounds: start 0 or 1, step 1 or 2, %n or a literal (bound: its trips at
 * most, for the loops' table). */
static void
loop_head(G *g, int *k, int *h, int *body, int *x, int *lb, int *step,
	  int *bound, char *ub, size_t nub)
{
	*k = g->sh->names++;
	*h = g->sh->names++;
	*body = g->sh->names++;
	*x = g->sh->names++;
	*lb = gen_chance(g, 25) ? 1 : 0;
	*step = gen_chance(g, 25) ? 2 : 1;
	if (gen_chance(g, 50)) {
		fmt_snprintf(ub, nub, "%%n");
		*bound = 4;
	} else {
		*bound = gen_pick(g, 4);
		fmt_snprintf(ub, nub, "%d", *bound);
	}
}

/* `%iKn = add %iK, STEP : index` */
static void
step_index(G *g, int k, int step)
{
	GV t = {"", DT_INDEX, 0, {0}, 0, true};
	char iv[16], st[12];

	fmt_snprintf(t.name, sizeof t.name, "i%dn", k);
	fmt_snprintf(iv, sizeof iv, "i%d", k);
	fmt_snprintf(st, sizeof st, "%d", step);
	gen_line(g, "%%%s = add %%%s, %s : index", t.name, iv, st);
	if (GEN_BUILD(g))
		gb_basic(g, OP_ADD, &t, &t, (const char *[]){iv, st}, 2, NULL);
}

static void
gen_block_loop(G *g)
{
	GV *init = gen_any_tensor(g, 0), *o = NULL, ov, ht[3], xt[2], *hargs[3],
	   *xargs[2], idx = gen_tensor_type(DT_INDEX, 0, NULL);
	char ub[16], cond[16], names[3][16], kn[16];
	int mark, outer, k, h, body, x, lb, step, bound, n, nx, where = 0;
	bool early, exit_args;

	if (!init || g->nloops == 8)
		return;
	idx.scalar = true;
	ht[0] = idx;
	n = 1 + edge_types(g, init, ht + 1);
	loop_head(g, &k, &h, &body, &x, &lb, &step, &bound, ub, sizeof ub);
	if (gen_chance(g, 45) && (o = pick_outer(g, g->nv))) {
		ov = *o;
		o = &ov;
		where = gen_pick(g, 3); /* 0: the body, 1: the header, 2: both */
	}
	early = gen_chance(g, 30);
	exit_args = early || gen_chance(g, 50);
	outer = g->nv;
	fmt_snprintf(names[0], 16, "z%d", k);
	gen_line(g, "%%%s = const %d : index", names[0], lb);
	if (GEN_BUILD(g))
		gb_const_index(g, names[0], lb);
	pass_all(g, ht + 1, n - 1, g->nv, names + 1);
	emit_br(g, succ(h, names, n));
	g->sh->ops += 2;
	/* the header: its arguments and ops dominate the body and the exit */
	new_args(g, ht, n, "acc", hargs);
	fmt_snprintf(hargs[0]->name, sizeof hargs[0]->name, "i%d", k);
	emit_label(g, h, hargs, n);
	if (o && where && gen_chance(g, 80))
		header_ops(g, o);
	else if (gen_chance(g, 30))
		header_ops(g, NULL);
	fmt_snprintf(cond, sizeof cond, "c%d", k);
	fmt_snprintf(kn, sizeof kn, "i%d", k);
	gen_line(g, "%%%s = lt %%%s, %s : index", cond, kn, ub);
	if (GEN_BUILD(g))
		gb_index_cmp(g, OP_LT, cond, kn, ub);
	nx = exit_args ? 1 : 0;
	xt[0] = ht[1];
	if (exit_args)
		fmt_snprintf(names[0], 16, "%s", hargs[1]->name);
	emit_cond_br(g, cond, succ(body, NULL, 0), succ(x, names, nx));
	g->sh->ops += 2;
	/* the body */
	emit_label(g, body, NULL, 0);
	mark = arm_enter(g);
	fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops].mark = outer;
	g->loops[g->nloops++].ub = bound;
	if (o && where != 1)
		write_outer(g, o);
	gen_ops(g, 1 + gen_pick(g, 3));
	if (early) { /* out of the loop from its body */
		int cont = g->sh->names++;
		gen_await_pending(g, g->depth);
		cfg_condition(g, cond, sizeof cond);
		pass_all(g, xt, nx, mark, names);
		emit_cond_br(g, cond, succ(x, names, nx), succ(cont, NULL, 0));
		++g->sh->ops;
		emit_label(g, cont, NULL, 0);
		gen_ops(g, gen_pick(g, 2));
		gen_count(g, GC_CFG_EXIT);
	}
	g->nloops--;
	gen_await_pending(g, g->depth);
	step_index(g, k, step);
	fmt_snprintf(names[0], 16, "i%dn", k);
	pass_all(g, ht + 1, n - 1, mark, names + 1);
	emit_br(g, succ(h, names, n));
	g->sh->ops += 2;
	arm_leave(g, mark);
	/* the exit: the header's values are in scope */
	mark = g->nv;
	new_args(g, xt, nx, "x", xargs);
	emit_label(g, x, xargs, nx);
	if (o && gen_chance(g, 70)) {
		read_outer(g, o, mark);
		gen_count(g, GC_CFG_OUTER);
	}
	gen_count(g, GC_CFG_LOOP);
}

/* ---- futures carried by block arguments (GEN_ASYNC) */

/* `^bbK(%iv: index, %a: future<T>):`, iv NULL: without it. */
static void
emit_future_label(G *g, int k, const char *iv, const char *a, const Fut *f)
{
	char s[160];

	if (GEN_BUILD(g)) {
		Block *b = gb_start_label(g, k);
		if (iv)
			gb_arg(g, b, iv, gb_scalar(g, DT_INDEX));
		gb_arg(g, b, a, gb_future(g, f->res, f->nres));
	}
	if (g->sh->notext)
		return;
	str_printf(g->out, "  ^bb%d(", k);
	if (iv)
		str_printf(g->out, "%%%s: index, ", iv);
	str_printf(g->out, "%%%s: %s):\n", a, gen_future_ty(f, s, sizeof s));
}

/* The newest tensor made since mark, or NULL (what a launch reads). */
static const GV *
newest_tensor(G *g, int mark)
{
	for (int i = g->nv - 1; i >= mark; i--)
		if (!g->v[i].scalar)
			return &g->v[i];
	return NULL;
}

/*
 *     %fA = async ...                 (carried to the join)
 *     cond_br %c, ^a, ^b              (or ^a and ^j(%fA): a triangle)
 *   ^a:  [await %fA] ops [%fB = async ...]  br ^j(%fB or %fA)
 *   ^b:  [await %fA] ops  br ^j(%fA)
 *   ^j(%m: future<T>):  await %m now, later or never
 */
static void
gen_future_diamond(G *g)
{
	Fut f = {0}, nf;
	char cond[16], names[1][16];
	int mark, a, b, j, m;
	bool tri = gen_chance(g, 30), swap;
	Succ sa, sb;

	gen_carried_types(g, &f, NULL);
	gen_carried_launch(g, &f, NULL, false);
	cfg_condition(g, cond, sizeof cond);
	a = g->sh->names++;
	b = g->sh->names++;
	j = g->sh->names++;
	m = g->sh->names++;
	swap = gen_chance(g, 50);
	fmt_snprintf(names[0], 16, "%s", f.name);
	sa = succ(a, NULL, 0);
	sb = tri ? succ(j, names, 1) : succ(b, NULL, 0);
	emit_cond_br(g, cond, swap ? sb : sa, swap ? sa : sb);
	++g->sh->ops;
	for (int arm = 0; arm < 2 - tri; arm++) {
		emit_label(g, arm ? b : a, NULL, 0);
		mark = arm_enter(g);
		if (gen_chance(g, 35))
			gen_emit_await(g, &f);
		gen_ops(g, 1 + gen_pick(g, 3));
		nf = f;
		if (!arm && gen_chance(g, 70)) /* a new launch on this edge */
			gen_carried_launch(g, &nf, newest_tensor(g, mark),
					   gen_chance(g, 30));
		gen_await_pending(g, g->depth);
		fmt_snprintf(names[0], 16, "%s", nf.name);
		emit_br(g, succ(j, names, 1));
		++g->sh->ops;
		arm_leave(g, mark);
	}
	fmt_snprintf(f.name, sizeof f.name, "m%d", m);
	emit_future_label(g, j, NULL, f.name, &f);
	gen_carried_out(g, &f);
	gen_count(g, GC_CARRY_BLOCK);
	gen_count(g, GC_CFG_DIAMOND);
}

/*
 *     %fA = async ...
 *     %zK = const LB : index
 *     br ^h(%zK, %fA)
 *   ^h(%iK: index, %faK: future<T>):
 *     %cK = lt %iK, UB : index
 *     cond_br %cK, ^b, ^x           (or ^x(%faK))
 *   ^b:  [%w = await %faK] ops  %g = async ... (or %faK unchanged)
 *     %iKn = add %iK, STEP : index
 *     br ^h(%iKn, %g)
 *   ^x [(%xa: future<T>)]:  await %faK (or %xa) now, later or never
 */
static void
gen_future_loop(G *g)
{
	Fut f = {0}, nf;
	char ub[16], iv[16], fa[16], names[2][16], cn[16];
	int mark, outer, k, h, body, x, lb, step, bound;
	bool exit_arg;

	if (g->nloops == 8)
		return;
	gen_carried_types(g, &f, NULL);
	gen_carried_launch(g, &f, NULL, false);
	loop_head(g, &k, &h, &body, &x, &lb, &step, &bound, ub, sizeof ub);
	exit_arg = gen_chance(g, 50);
	outer = g->nv;
	fmt_snprintf(iv, sizeof iv, "i%d", k);
	fmt_snprintf(fa, sizeof fa, "fa%d", k);
	fmt_snprintf(names[0], 16, "z%d", k);
	gen_line(g, "%%%s = const %d : index", names[0], lb);
	if (GEN_BUILD(g))
		gb_const_index(g, names[0], lb);
	fmt_snprintf(names[1], 16, "%s", f.name);
	emit_br(g, succ(h, names, 2));
	emit_future_label(g, h, iv, fa, &f);
	fmt_snprintf(cn, sizeof cn, "c%d", k);
	gen_line(g, "%%%s = lt %%%s, %s : index", cn, iv, ub);
	if (GEN_BUILD(g))
		gb_index_cmp(g, OP_LT, cn, iv, ub);
	fmt_snprintf(names[0], 16, "%s", fa);
	emit_cond_br(g, cn, succ(body, NULL, 0), succ(x, names, exit_arg));
	g->sh->ops += 4;
	/* the body */
	emit_label(g, body, NULL, 0);
	mark = arm_enter(g);
	fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "%s", iv);
	g->loops[g->nloops].mark = outer;
	g->loops[g->nloops++].ub = bound;
	nf = f;
	fmt_snprintf(nf.name, sizeof nf.name, "%s", fa);
	if (gen_chance(g, 85))
		gen_emit_await(g, &nf);
	gen_ops(g, 1 + gen_pick(g, 3));
	if (gen_chance(g, 85))
		gen_carried_launch(g, &nf, newest_tensor(g, mark),
				   gen_chance(g, 30));
	else
		gen_count(g, GC_CARRY_SAME);
	g->nloops--;
	gen_await_pending(g, g->depth);
	step_index(g, k, step);
	fmt_snprintf(names[0], 16, "i%dn", k);
	fmt_snprintf(names[1], 16, "%s", nf.name);
	emit_br(g, succ(h, names, 2));
	g->sh->ops += 2;
	arm_leave(g, mark);
	/* the exit: the header's %fa is in scope, and the exit's own */
	fmt_snprintf(f.name, sizeof f.name, "%s", fa);
	if (exit_arg) {
		fmt_snprintf(f.name, sizeof f.name, "xa%d", k);
		emit_future_label(g, x, NULL, f.name, &f);
	} else {
		emit_label(g, x, NULL, 0);
	}
	gen_carried_out(g, &f);
	gen_count(g, GC_CARRY_BLOCK);
	gen_count(g, GC_CARRY_BACK);
	gen_count(g, GC_CFG_LOOP);
}

/* ---- selects: a join of two values without blocks */

/*
 *   %s = select %c, %a, %b : T      (a tensor, 20% a scalar; %b may be %a)
 *   [%w = fill LIT into %a : T]     (an operand written while %s lives)
 */
static void
gen_select(G *g)
{
	GV *a = gen_chance(g, 20) ? gen_any_scalar(g, DT_COUNT) : NULL, at, *b, *s;
	char cond[16], ty[64], lit[32];

	if (!a)
		a = gen_any_tensor(g, 0);
	if (!a)
		return;
	at = *a;
	b = gen_find(g, &at, NULL);
	cfg_condition(g, cond, sizeof cond);
	s = gen_new_value(g, &at, "v");
	gen_line(g, "%%%s = select %%%s, %%%s, %%%s : %s", s->name, cond, at.name,
		 b->name, gen_ty(&at, ty, sizeof ty));
	if (GEN_BUILD(g))
		gb_basic(g, OP_SELECT, s, &at,
			 (const char *[]){cond, at.name, b->name}, 3, NULL);
	++g->sh->ops;
	gen_count(g, GC_SELECT);
	if (!at.scalar && gen_chance(g, 30)) {
		GV *w;
		gen_literal(g, at.dt, lit, sizeof lit);
		w = gen_new_value(g, &at, "v");
		gen_line(g, "%%%s = fill %s into %%%s : %s", w->name, lit, at.name,
			 ty);
		if (GEN_BUILD(g))
			gb_basic(g, OP_FILL, w, &at, (const char *[]){lit}, 1,
				 at.name);
		++g->sh->ops;
	}
}

bool
gen_cfg(G *g)
{
	int pct = g->cfgdepth ? CFG_NESTED : CFG_TOP;

	if (!(g->o->mix & GEN_CFG))
		return false;
	if (g->depth == 1 + g->cfgdepth && g->cfgdepth < CFG_MAXNEST &&
	    gen_chance(g, pct)) {
		if (g->cfgdepth)
			gen_count(g, GC_CFG_NESTED);
		if ((g->o->mix & GEN_ASYNC) && gen_chance(g, CFG_CARRY)) {
			if (gen_chance(g, 50))
				gen_future_diamond(g);
			else
				gen_future_loop(g);
		} else if (gen_chance(g, 60))
			gen_diamond(g);
		else
			gen_block_loop(g);
		return true;
	}
	if (!gen_chance(g, CFG_SELECT))
		return false;
	gen_select(g);
	return true;
}
