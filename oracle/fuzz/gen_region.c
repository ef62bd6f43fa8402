/*
 * gen_region.c: the op mix (gen_op) and the regions it nests: if, for,
 * forall, while, launches and their awaits, asserts, helpers and calls.
 */
#include <stdio.h>

#include "gen_impl.h"

/* ---- regions */

/* %a, %b = await %f (no results: `await %f`) */
void
gen_emit_await(G *g, const Fut *f)
{
	char names[48] = "", res[2][16];
	size_t k = 0;

	for (int i = 0; i < f->nres; i++) {
		/* (its name kept: at MAXV the next one takes its slot) */
		GV *v = gen_new_value(g, &f->res[i], "v");
		memcpy(res[i], v->name, sizeof res[i]);
		if (!g->sh->notext)
			k += (size_t)fmt_snprintf(names + k, sizeof names - k,
						  "%s%%%s", i ? ", " : "", v->name);
	}
	if (f->nres)
		gen_line(g, "%s = await %%%s", names, f->name);
	else
		gen_line(g, "await %%%s", f->name);
	if (GEN_BUILD(g))
		gb_await(g, f->name, res, f->nres);
	++g->sh->ops;
}

void
gen_await_pending(G *g, int scope)
{
	while (g->nfuts && g->futs[g->nfuts - 1].scope >= scope) {
		Fut *f = &g->futs[--g->nfuts];
		gen_emit_await(g, f);
		if (g->nagain < 16 && gen_chance(g, 40))
			g->again[g->nagain++] = *f;
	}
}

/* A future awaited before, awaited again (the results are the same). */
static void
await_again(G *g)
{
	Fut f = g->again[gen_pick(g, g->nagain)];

	gen_emit_await(g, &f);
	gen_count(g, GC_AWAIT_AGAIN);
}

/* Run body ops at a deeper scope; values made there die with it. */
int
gen_enter(G *g)
{
	g->depth++;
	return g->nv;
}

void
gen_leave(G *g, int mark)
{
	gen_await_pending(g, g->depth);
	for (int i = 0; i < g->nagain; i++)
		if (g->again[i].scope >= g->depth)
			g->again[i--] = g->again[--g->nagain];
	g->nv = mark;
	g->depth--;
}

/* The block ops went into before a region was entered (building). */
static GBlock
enter_region(G *g, Block *b)
{
	GBlock was = {NULL, 0};

	return GEN_BUILD(g) ? gb_enter(g, b) : was;
}

static void
back(G *g, GBlock was)
{
	if (GEN_BUILD(g))
		gb_back(g, was);
}

/* The value to yield: something of type t made in the region if any. */
static const char *
yield_of(G *g, const GV *t, int mark)
{
	for (int i = g->nv - 1; i >= mark; i--)
		if (gen_same_type(&g->v[i], t))
			return g->v[i].name;
	return gen_name_of(gen_find(g, t, NULL));
}

/* "yield %a, %b" of values of types t[0..n) */
static void
emit_yield(G *g, const GV *t, int n, int mark)
{
	char buf[80] = "yield";
	size_t k = strlen(buf);
	const char *ys[4];

	for (int i = 0; i < n; i++) {
		ys[i] = yield_of(g, &t[i], mark);
		if (!g->sh->notext)
			k += (size_t)fmt_snprintf(buf + k, sizeof buf - k, "%s %%%s",
						  i ? "," : "", ys[i]);
	}
	gen_line(g, "%s", buf);
	if (GEN_BUILD(g))
		gb_term(g, OP_YIELD, ys, n);
}

/* End a region: await its launches, yield values of types t, leave. */
void
gen_close_region(G *g, const GV *t, int n, int mark)
{
	gen_await_pending(g, g->depth);
	emit_yield(g, t, n, mark);
	gen_leave(g, mark);
}

/* "(T1, T2)" */
const char *
gen_types_text(const GV *t, int n, char *buf, size_t size)
{
	char s[64];
	int k = fmt_snprintf(buf, size, "(");

	for (int i = 0; i < n; i++)
		k += fmt_snprintf(buf + k, size - (size_t)k, "%s%s", i ? ", " : "",
			      gen_ty(&t[i], s, sizeof s));
	fmt_snprintf(buf + k, size - (size_t)k, ")");
	return buf;
}

/* An i1 condition: on a loop's iv (the branches alternate between trips),
 * on a computed i1 in scope, or on %n; its name into cond. */
static void
condition(G *g, bool on_iv, char *cond, size_t n)
{
	GV *c = !on_iv && gen_chance(g, 25) ? gen_any_scalar(g, DT_I1) : NULL;
	const char *on;
	char lit[12];
	OpKind op;

	if (c) {
		fmt_snprintf(cond, n, "%s", c->name);
		return;
	}
	on = g->nloops && (on_iv || gen_chance(g, 60))
		     ? g->loops[gen_pick(g, g->nloops)].iv : "n";
	op = gen_draw_ew(g, F_CMP, G_SCALAR, DT_INDEX);
	fmt_snprintf(cond, n, "c%d", g->sh->names++);
	fmt_snprintf(lit, sizeof lit, "%d", gen_pick(g, 4));
	gen_line(g, "%%%s = %s %%%s, %s : index", cond, op_info[op].name, on, lit);
	if (GEN_BUILD(g))
		gb_index_cmp(g, op, cond, on, lit);
	++g->sh->ops;
}

/* if without results: its values die with it, but it may write (a fill
 * into an outer value without reading it) and launch and await. */
static void
gen_if_bare(G *g, const char *cond)
{
	GV *t = gen_any_tensor(g, 0);
	char s[64], lb[32];
	int mark;
	Op *op = NULL;
	GBlock was;

	gen_line(g, "if %%%s {", cond);
	if (GEN_BUILD(g)) {
		op = gb_basic(g, OP_IF, NULL, NULL, &cond, 1, NULL);
		op->body = gb_region(g, op);
	}
	was = enter_region(g, op ? op->body : NULL);
	mark = gen_enter(g);
	if (t && gen_chance(g, 50)) {
		GV tt = *t, *w = gen_new_value(g, &tt, "v");
		gen_literal(g, tt.dt, lb, sizeof lb);
		gen_line(g, "%%%s = fill %s into %%%s : %s", w->name, lb,
			 tt.name, gen_ty(&tt, s, sizeof s));
		if (op)
			gb_basic(g, OP_FILL, w, &tt, (const char *[]){lb}, 1,
				 tt.name);
		++g->sh->ops;
	}
	gen_ops(g, 1 + gen_pick(g, 3));
	gen_leave(g, mark);
	if (op)
		gb_implicit_yield(g);
	if (gen_chance(g, 50)) {
		gen_line(g, "} else {");
		if (op)
			gb_enter(g, op->orelse = gb_region(g, op));
		mark = gen_enter(g);
		gen_ops(g, 1 + gen_pick(g, 2));
		gen_leave(g, mark);
		if (op)
			gb_implicit_yield(g);
	}
	back(g, was);
	gen_line(g, "}");
	gen_count(g, GC_IF_BARE);
	g->sh->ops += 2;
}

/* After an if whose branch awaited a launch made before it (the await
 * does not dominate what follows: on the other path the launch may still
 * run), a write into a tensor the launch reads: a conflict the
 * bufferizer must see (a copy, or the write waits).  No draw unless that
 * happened (other programs stay the same). */
static void
write_after_branch_await(G *g, int nfuts)
{
	char s[64], lb[32];

	for (int i = g->nfuts; i < nfuts; i++) {
		const Fut *f = &g->futs[i];
		if (f->scope > g->depth || !f->read[0])
			continue; /* (its slot reused by a launch in the branch) */
		for (int j = 0; j < g->nv; j++) {
			GV x = g->v[j], *w;
			if (x.scalar || strcmp(x.name, f->read))
				continue;
			w = gen_new_value(g, &x, "v");
			gen_literal(g, x.dt, lb, sizeof lb);
			gen_line(g, "%%%s = fill %s into %%%s : %s", w->name,
				 lb, x.name, gen_ty(&x, s, sizeof s));
			if (GEN_BUILD(g))
				gb_basic(g, OP_FILL, w, &x, (const char *[]){lb},
					 1, x.name);
			gen_count(g, GC_WRITE_AFTER_BRANCH_AWAIT);
			++g->sh->ops;
			return;
		}
	}
}

static void
gen_if(G *g)
{
	GV *t = gen_any_tensor(g, 0), *v, tt;
	char s[64], cond[16], lb[32], rn[16];
	int mark, r, nfuts;
	bool pair;
	Op *op = NULL;
	GBlock was;

	if (!t || g->in_forall)
		return;
	nfuts = g->nfuts;
	tt = *t;
	/* now and then, in a loop, one branch writes an outer value without
	 * reading it while the other reads it: exclusive in one trip, not
	 * across the trips (the condition is on an iv) */
	pair = g->nloops && gen_chance(g, 40) && (t = gen_outer_tensor(g));
	if (pair)
		tt = *t;
	condition(g, pair, cond, sizeof cond);
	if (g->helper)
		gen_count(g, GC_HELPER_BRANCH);
	if (!pair && gen_chance(g, 30)) {
		gen_if_bare(g, cond);
		return;
	}
	r = g->sh->names++;
	gen_name_int(rn, sizeof rn, "r", r);
	gen_line(g, "%%%s = if %%%s -> (%s) {", rn, cond,
		 gen_ty(&tt, s, sizeof s));
	if (GEN_BUILD(g)) {
		Type **rt = gb_types(g, &tt, 1);
		const char *name = rn;
		op = gb_op(g, OP_IF, 1, &name, rt, 1);
		op->args[0] = gb_opnd(g, cond);
		op->rtypes = rt;
		op->nrtypes = 1;
		op->body = gb_region(g, op);
	}
	was = enter_region(g, op ? op->body : NULL);
	mark = gen_enter(g);
	if (pair) {
		GV *w = gen_new_value(g, &tt, "v");
		gen_literal(g, tt.dt, lb, sizeof lb);
		gen_line(g, "%%%s = fill %s into %%%s : %s", w->name, lb,
			 tt.name, s);
		if (op)
			gb_basic(g, OP_FILL, w, &tt, (const char *[]){lb}, 1,
				 tt.name);
		++g->sh->ops;
	}
	gen_ops(g, 1 + gen_pick(g, 3));
	gen_close_region(g, &tt, 1, mark);
	gen_line(g, "} else {");
	if (op)
		gb_enter(g, op->orelse = gb_region(g, op));
	mark = gen_enter(g);
	if (pair) {
		GV *u = gen_new_value(g, &tt, "v");
		gen_literal(g, tt.dt, lb, sizeof lb);
		gen_line(g, "%%%s = add %%%s, %s : %s", u->name, tt.name, lb, s);
		if (op)
			gb_basic(g, OP_ADD, u, &tt,
				 (const char *[]){tt.name, lb}, 2, NULL);
		++g->sh->ops;
	}
	gen_ops(g, gen_pick(g, 3));
	gen_close_region(g, &tt, 1, mark);
	back(g, was);
	gen_line(g, "}");
	v = gen_new_value(g, &tt, "r");
	fmt_snprintf(v->name, sizeof v->name, "r%d", r);
	gen_count(g, GC_IF);
	g->sh->ops += 2;
	write_after_branch_await(g, nfuts);
}

/* for %i = LB to UB step S with one or two iter args (the second a
 * tensor or a scalar); zero trips when LB >= UB. */
static void
gen_for(G *g)
{
	GV *init = gen_any_tensor(g, 0), *x, tt[2];
	char s[128], ub[16], hdr[400], res[32], lbs[12], sts[12];
	int mark, r, k, bound, lb = 0, step = 1, n = 1;
	GBlock was = {NULL, 0};

	if (!init || g->nloops == 8)
		return;
	tt[0] = *init;
	k = g->sh->names++;
	r = g->sh->names++;
	if (gen_chance(g, 30)) {
		x = gen_chance(g, 40) ? gen_any_scalar(g, DT_COUNT) : NULL;
		if (!x)
			x = gen_any_tensor(g, 0);
		tt[n++] = *x;
	}
	if (gen_chance(g, 30))
		lb = 1 + gen_pick(g, 2);
	if (gen_chance(g, 30))
		step = 2 + gen_pick(g, 2);
	if (gen_chance(g, 50)) {
		fmt_snprintf(ub, sizeof ub, "%%n");
		bound = 4;
	} else {
		bound = gen_pick(g, 5);
		fmt_snprintf(ub, sizeof ub, "%d", bound);
	}
	fmt_snprintf(lbs, sizeof lbs, "%d", lb);
	fmt_snprintf(sts, sizeof sts, "%d", step);
	if (n == 2)
		fmt_snprintf(res, sizeof res, "%%r%d, %%r%db", r, r);
	else
		fmt_snprintf(res, sizeof res, "%%r%d", r);
	if (!g->sh->notext) {
		fmt_snprintf(hdr, sizeof hdr, "%s = for %%i%d = %d to %s step %d "
			     "iter(%%acc%d = %%%s", res, k, lb, ub, step, k,
			     tt[0].name);
		if (n == 2)
			fmt_snprintf(hdr + strlen(hdr), sizeof hdr - strlen(hdr),
				     ", %%acc%db = %%%s", k, tt[1].name);
	}
	gen_line(g, "%s) -> %s {", hdr, gen_types_text(tt, n, s, sizeof s));
	if (GEN_BUILD(g)) {
		char iv[16], rs[2][16], accs[2][16];
		fmt_snprintf(iv, sizeof iv, "i%d", k);
		for (int i = 0; i < n; i++) {
			fmt_snprintf(rs[i], 16, i ? "r%db" : "r%d", r);
			fmt_snprintf(accs[i], 16, i ? "acc%db" : "acc%d", k);
		}
		gb_for(g, (const char *[]){rs[0], rs[1]}, iv,
		       (const char *[]){accs[0], accs[1]},
		       (const char *[]){tt[0].name, tt[1].name}, gb_types(g, tt, n),
		       n, (const char *[]){lbs, ub, sts}, &was);
	}
	mark = gen_enter(g);
	for (int i = 0; i < n; i++) {
		GV *acc = gen_new_value(g, &tt[i], "acc");
		fmt_snprintf(acc->name, sizeof acc->name, i ? "acc%db" : "acc%d", k);
	}
	fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops].mark = mark;
	g->loops[g->nloops++].ub = bound;
	gen_ops(g, 1 + gen_pick(g, 3));
	g->nloops--;
	gen_close_region(g, tt, n, mark);
	back(g, was);
	gen_line(g, "}");
	for (int i = 0; i < n; i++) {
		GV *v = gen_new_value(g, &tt[i], "r");
		fmt_snprintf(v->name, sizeof v->name, i ? "r%db" : "r%d", r);
	}
	gen_count(g, GC_FOR);
	if (n > 1)
		gen_count(g, GC_FOR_MULTI);
	if (lb)
		gen_count(g, GC_FOR_START);
	if (step > 1)
		gen_count(g, GC_FOR_STEP);
	g->sh->ops += 2;
}

/* A forall whose trip i writes row i (element i) of its shared output:
 * disjoint slices indexed by the iv.  Its body may read anything in scope,
 * the shared output too (its init's value); no launches or calls in it. */
static void
gen_forall(G *g)
{
	GV *t = gen_any_tensor(g, T_RANKED), *x, *o, row, *e, *u, tt;
	char s[64], rs[64], lit[32], off[48], sz[64], tail[32], offs[MAXR][24];
	int mark, k, r, ub, lb, sizes[MAXR], strides[MAXR] = {1, 1, 1};
	bool in_forall = g->in_forall;
	Op *op = NULL;
	GBlock was = {NULL, 0};

	if (!t || g->nloops == 8)
		return;
	tt = *t;
	k = g->sh->names++;
	r = g->sh->names++;
	ub = gen_pick(g, tt.dims[0] + 1);
	lb = gen_chance(g, 20) ? 1 : 0;
	gen_line(g, "%%r%d = forall %%i%d = %d to %d shared(%%o%d = %%%s) -> (%s) {",
		 r, k, lb, ub, k, tt.name, gen_ty(&tt, s, sizeof s));
	if (GEN_BUILD(g)) {
		Type **rt = gb_types(g, &tt, 1);
		char rn[16], iv[16], on[16];
		const char *name = rn;
		fmt_snprintf(rn, sizeof rn, "r%d", r);
		fmt_snprintf(iv, sizeof iv, "i%d", k);
		fmt_snprintf(on, sizeof on, "o%d", k);
		op = gb_op(g, OP_FORALL, 1, &name, rt, 3);
		op->args[0].i = lb;
		op->args[0].f = lb;
		op->args[1].i = ub;
		op->args[1].f = ub;
		op->args[2] = gb_opnd(g, tt.name);
		op->rtypes = rt;
		op->nrtypes = 1;
		op->body = gb_region(g, op);
		gb_arg(g, op->body, iv, gb_scalar(g, DT_INDEX));
		gb_arg(g, op->body, on, rt[0]);
		was = gb_enter(g, op->body);
	}
	mark = gen_enter(g);
	o = gen_new_value(g, &tt, "o");
	fmt_snprintf(o->name, sizeof o->name, "o%d", k);
	fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", k);
	g->loops[g->nloops].mark = mark;
	g->loops[g->nloops++].ub = tt.dims[0];
	g->in_forall = true;
	g->in_async++; /* no asserts in a forall body either */
	if (gen_chance(g, 35) && !g->o->no_races) { /* an element other
						    * trips may write */
		char idx[64];
		GV sc = tt;
		sc.scalar = true;
		gen_element_index(g, &tt, idx, sizeof idx);
		e = gen_new_value(g, &sc, "s");
		gen_line(g, "%%%s = extract %%%s[%s] : %s", e->name, o->name, idx,
			 dtype_names[tt.dt]);
		if (op)
			gb_extract(g, e, o->name, idx);
		++g->sh->ops;
	}
	gen_ops(g, gen_pick(g, 3));
	g->in_async--;
	g->in_forall = in_forall;
	g->nloops--;
	x = gen_find(g, &tt, NULL);
	row = tt;
	row.dims[0] = 1;
	row.dyn = 0; /* slice sizes are literals */
	{
		char a[32], b[32];
		tail[0] = 0;
		for (int d = 0; d < tt.rank; d++)
			sizes[d] = row.dims[d];
		for (int d = 1; d < tt.rank; d++)
			strcat(tail, ", 0");
		fmt_snprintf(off, sizeof off, "%%i%d%s", k, tail);
		fmt_snprintf(sz, sizeof sz, "[%s] [%s]", gen_int_list(sizes, tt.rank, a, sizeof a),
			 gen_int_list(strides, tt.rank, b, sizeof b));
		fmt_snprintf(offs[0], sizeof offs[0], "i%d", k);
		for (int d = 1; d < tt.rank; d++)
			fmt_snprintf(offs[d], sizeof offs[d], "0");
	}
	e = gen_new_value(g, &row, "v");
	gen_line(g, "%%%s = extract_slice %%%s[%s] %s : %s", e->name, x->name,
		 off, sz, gen_ty(&row, rs, sizeof rs));
	if (op)
		gb_slice(g, gb_basic(g, OP_EXTRACT_SLICE, e, &row,
				     (const char *[]){x->name}, 1, NULL),
			 offs, sizes, strides, tt.rank);
	u = gen_new_value(g, &row, "v");
	gen_literal(g, row.dt, lit, sizeof lit);
	gen_line(g, "%%%s = add %%%s, %s : %s", u->name, e->name, lit, rs);
	if (op)
		gb_basic(g, OP_ADD, u, &row, (const char *[]){e->name, lit}, 2,
			 NULL);
	gen_line(g, "parallel_insert_slice %%%s into %%o%d[%s] %s", u->name, k,
		 off, sz);
	if (op) {
		char on[16];
		fmt_snprintf(on, sizeof on, "o%d", k);
		gb_slice(g, gb_basic(g, OP_PARALLEL_INSERT_SLICE, NULL, NULL,
				     (const char *[]){u->name}, 1, on),
			 offs, sizes, strides, tt.rank);
	}
	gen_leave(g, mark);
	if (op) {
		gb_implicit_yield(g);
		gb_back(g, was);
	}
	gen_line(g, "}");
	t = gen_new_value(g, &tt, "r");
	fmt_snprintf(t->name, sizeof t->name, "r%d", r);
	gen_count(g, GC_FORALL);
	g->sh->ops += 5;
}

/* A while counting %c up to a bound (%n or a literal, so it ends), its
 * tensor iter arg rewritten in the do region; the condition region may
 * read the iter arg or an outer value on every trip. */
static void
gen_while(G *g)
{
	GV *init = gen_any_tensor(g, 0), tt;
	char s[64], ub[16], zn[16], cn[16], tn[16];
	const char *y;
	int mark, r, k;
	Op *op = NULL;
	GBlock was = {NULL, 0};

	if (!init || g->nloops == 8)
		return;
	tt = *init;
	k = g->sh->names++;
	r = g->sh->names++;
	if (gen_chance(g, 50))
		fmt_snprintf(ub, sizeof ub, "%%n");
	else
		fmt_snprintf(ub, sizeof ub, "%d", gen_pick(g, 4));
	fmt_snprintf(zn, sizeof zn, "z%d", k);
	fmt_snprintf(cn, sizeof cn, "c%d", k);
	fmt_snprintf(tn, sizeof tn, "t%d", k);
	gen_line(g, "%%%s = const 0 : index", zn);
	gen_line(g, "%%r%d, %%w%d = while iter(%%acc%d = %%%s, %%c%d = %%z%d) "
		 "-> (%s, index) {", r, r, k, tt.name, k, k,
		 gen_ty(&tt, s, sizeof s));
	if (GEN_BUILD(g)) {
		char rn[16], wn[16], an[16];
		const char *names[2] = {rn, wn};
		Type **rt = arena_alloc(g->sh->gb->B.p->arena, 2 * sizeof *rt);
		gb_const_index(g, zn, 0);
		fmt_snprintf(rn, sizeof rn, "r%d", r);
		fmt_snprintf(wn, sizeof wn, "w%d", r);
		fmt_snprintf(an, sizeof an, "acc%d", k);
		rt[0] = gb_type(g, &tt);
		rt[1] = gb_scalar(g, DT_INDEX);
		op = gb_op(g, OP_WHILE, 2, names, rt, 2);
		op->args[0] = gb_opnd(g, tt.name);
		op->args[1] = gb_opnd(g, zn);
		op->rtypes = rt;
		op->nrtypes = 2;
		op->body = gb_region(g, op);
		op->orelse = gb_region(g, op);
		gb_arg(g, op->body, an, rt[0]);
		gb_arg(g, op->body, cn, rt[1]);
		op->orelse->args = op->body->args;
		op->orelse->nargs = op->body->nargs;
		was = gb_enter(g, op->body);
	}
	g->depth++;
	if (gen_chance(g, 50)) {
		char idx[64] = "", an[16];
		const GV *src = gen_chance(g, 50) ? gen_any_tensor(g, 0) : NULL;
		fmt_snprintf(an, sizeof an, "acc%d", k);
		if (!src)
			src = &tt;
		for (int d = 0; d < src->rank; d++)
			strcat(idx, d ? ", 0" : "0");
		gen_line(g, "%%e%d = extract %%%s[%s] : %s", k,
			 src == &tt ? an : src->name, idx,
			 dtype_names[src->dt]);
		if (op) {
			GV sc = *src;
			sc.scalar = true;
			gen_name_int(sc.name, sizeof sc.name, "e", k);
			gb_extract(g, &sc, src == &tt ? an : src->name, idx);
		}
	}
	gen_line(g, "%%t%d = lt %%c%d, %s : index", k, k, ub);
	gen_line(g, "condition %%t%d", k);
	if (op) {
		const char *t = tn;
		gb_index_cmp(g, OP_LT, tn, cn, ub);
		gb_term(g, OP_CONDITION, &t, 1);
	}
	g->depth--;
	gen_line(g, "} do {");
	if (op)
		gb_enter(g, op->orelse);
	mark = gen_enter(g);
	{
		GV *acc = gen_new_value(g, &tt, "acc");
		fmt_snprintf(acc->name, sizeof acc->name, "acc%d", k);
	}
	gen_ops(g, 1 + gen_pick(g, 3));
	gen_await_pending(g, g->depth);
	gen_line(g, "%%c%dn = add %%c%d, 1 : index", k, k);
	y = yield_of(g, &tt, mark);
	gen_line(g, "yield %%%s, %%c%dn", y, k);
	if (op) {
		GV ci = {"", DT_INDEX, 0, {0}, 0, true};
		fmt_snprintf(ci.name, sizeof ci.name, "c%dn", k);
		gb_basic(g, OP_ADD, &ci, &ci, (const char *[]){cn, "1"}, 2, NULL);
		gb_term(g, OP_YIELD, (const char *[]){y, ci.name}, 2);
	}
	gen_leave(g, mark);
	if (op)
		gb_back(g, was);
	gen_line(g, "}");
	{
		GV *v = gen_new_value(g, &tt, "r");
		fmt_snprintf(v->name, sizeof v->name, "r%d", r);
	}
	gen_count(g, GC_WHILE);
	g->sh->ops += 3;
}

/* An assert that fails for some inputs (%n is 0..3, a loop's iv grows):
 * the failure path runs with whatever is live and pending then. */
void
gen_assert(G *g)
{
	const char *on = g->nloops && gen_chance(g, 50)
				 ? g->loops[g->nloops - 1].iv : "n";
	int k = g->sh->names++;
	char lit[12];

	if (g->in_async)
		return;
	fmt_snprintf(lit, sizeof lit, "%d", 1 + gen_pick(g, 4));
	gen_line(g, "%%ok%d = lt %%%s, %s : index", k, on, lit);
	gen_line(g, "assert %%ok%d, \"%s stays small\"", k, on);
	if (GEN_BUILD(g)) {
		char ok[16], *msg = arena_alloc(g->sh->gb->B.p->arena, 32);
		const char *okp = ok;
		gen_name_int(ok, sizeof ok, "ok", k);
		gb_index_cmp(g, OP_LT, ok, on, lit);
		fmt_snprintf(msg, 32, "%s stays small", on);
		gb_basic(g, OP_ASSERT, NULL, NULL, &okp, 1, NULL)->msg = msg;
	}
	*g->asserted = true;
	gen_count(g, GC_ASSERT);
	g->sh->ops += 2;
}

/* A target that bufferizes no launch of tensors: f's results become one
 * scalar in scope (its second result when that was one), or none. */
static void
scalar_results(G *g, Fut *f)
{
	const GV *x = f->nres == 2 && f->res[1].scalar ? &f->res[1] :
		      f->nres ? gen_any_scalar(g, DT_COUNT) : NULL;

	f->nres = x ? 1 : 0;
	if (x)
		f->res[0] = *x;
}

/* A launch with zero, one or two results (the second a tensor or a
 * scalar in scope), awaited later. */
static void
gen_async(G *g)
{
	GV *t = gen_any_tensor(g, 0), *x;
	char s[128];
	int mark, k, r = gen_pick(g, 100), stream, outer_mark;
	Fut f = {0};
	GBlock was = {NULL, 0};

	if (!t || g->in_forall || g->nfuts == 32)
		return;
	f.nres = r < 15 ? 0 : r < 80 ? 1 : 2;
	f.res[0] = *t;
	if (f.nres == 2) {
		x = gen_chance(g, 40) ? gen_any_scalar(g, DT_COUNT) : NULL;
		f.res[1] = x ? *x : *gen_any_tensor(g, 0);
	}
	if (GEN_TARGET(g, no_tensor_launch))
		scalar_results(g, &f);
	k = g->sh->names++;
	stream = gen_pick(g, 3);
	fmt_snprintf(f.name, sizeof f.name, "f%d", k);
	if (f.nres)
		gen_line(g, "%%f%d = async stream %d -> %s {", k, stream,
			 gen_types_text(f.res, f.nres, s, sizeof s));
	else
		gen_line(g, "%%f%d = async stream %d {", k, stream);
	if (GEN_BUILD(g))
		gb_async(g, f.name, stream, f.res, f.nres, &was);
	mark = gen_enter(g);
	g->in_async++;
	outer_mark = g->async_mark;
	g->async_mark = mark;
	g->async_read[0] = 0;
	gen_ops(g, 1 + gen_pick(g, 3));
	memcpy(f.read, g->async_read, sizeof f.read);
	g->async_mark = outer_mark;
	g->in_async--;
	gen_close_region(g, f.res, f.nres, mark);
	back(g, was);
	gen_line(g, "}");
	f.scope = g->depth;
	g->futs[g->nfuts++] = f;
	gen_count(g, GC_ASYNC);
	if (f.nres != 1)
		gen_count(g, f.nres ? GC_FUT2 : GC_FUT0);
	if (g->helper)
		gen_count(g, GC_HELPER_ASYNC);
	g->sh->ops += 2;
}

/* A param of a new helper: typed like its argument, now and then with
 * one dim dynamic (a static argument fits a dynamic param). */
static GV
param_like(G *g, const GV *a)
{
	GV p = *a;

	if (p.rank && gen_chance(g, 25))
		p.dyn |= 1u << gen_pick(g, p.rank);
	return p;
}

/* An argument for param p: same dtype, rank and real dims, static where p
 * is (the helper's body was made for those dims). */
static GV *
arg_for(G *g, const GV *p)
{
	int idx[MAXV], n = 0;

	for (int i = 0; i < g->nv; i++) {
		const GV *c = &g->v[i];
		bool ok = !c->scalar && c->dt == p->dt && c->rank == p->rank &&
			  !(c->dyn & ~p->dyn);
		for (int d = 0; ok && d < p->rank; d++)
			ok = c->dims[d] == p->dims[d];
		if (ok)
			idx[n++] = i;
	}
	return n ? &g->v[idx[n - 1 - gen_pick(g, n)]] : NULL;
}

/* %v = call @gK(%a, %b, IDX): the index is %n or a loop's iv below 4
 * (helpers assume %n < 4). */
static void
emit_call(G *g, const Helper *fn, GV *const *args)
{
	char buf[160];
	const Loop *l = gen_chance(g, 30) ? gen_loop_below(g, 4) : NULL;
	int k = 0;
	GV res = fn->params[0], *v;

	for (int d = 0; d < res.rank; d++)
		res.dims[d] = args[0]->dims[d];
	v = gen_new_value(g, &res, "v");
	if (!g->sh->notext) {
		k = fmt_snprintf(buf, sizeof buf, "%%%s = call @%s(", v->name, fn->name);
		for (int i = 0; i < fn->nparams; i++)
			k += fmt_snprintf(buf + k, sizeof buf - (size_t)k, "%%%s, ",
					  args[i]->name);
		fmt_snprintf(buf + k, sizeof buf - (size_t)k, "%%%s)", l ? l->iv : "n");
		gen_line(g, "%s", buf);
	}
	if (GEN_BUILD(g)) {
		const char *name = v->name;
		Op *op = gb_op(g, OP_CALL, 1, &name, fn->fn->rtypes,
			       fn->nparams + 1);
		for (int i = 0; i < fn->nparams; i++)
			op->args[i] = gb_opnd(g, args[i]->name);
		op->args[fn->nparams] = gb_opnd(g, l ? l->iv : "n");
		op->callee = fn->fn->name;
		op->fn = fn->fn;
	}
	gen_count(g, GC_CALL);
	if (fn->asserts)
		*g->asserted = true;
	if (g->helper)
		gen_count(g, GC_HELPER_CALL);
	++g->sh->ops;
}

/* After a second call site of a helper, a read of its first argument:
 * if the helper writes its param, this site needs a copy of the argument
 * and the first (whose argument may be dead by then) may not: two call
 * sites of one helper that need different copies. */
static void
read_after_call(G *g, const GV *a)
{
	GV x = *a, *v = gen_new_value(g, &x, "v");
	char s[64];

	gen_line(g, "%%%s = clone %%%s : %s", v->name, x.name,
		 gen_ty(&x, s, sizeof s));
	if (GEN_BUILD(g))
		gb_basic(g, OP_CLONE, v, &x, (const char *[]){x.name}, 1, NULL);
	++g->sh->ops;
}

/* Call a helper made before again, with arguments that fit it. */
static void
call_again(G *g)
{
	const Helper *fn = &g->sh->fns[gen_pick(g, g->sh->nfns)];
	GV *args[2];

	if (fn->asserts && g->in_async)
		return;
	for (int i = 0; i < fn->nparams; i++)
		if (!(args[i] = arg_for(g, &fn->params[i])))
			return;
	emit_call(g, fn, args);
	gen_count(g, GC_CALL_AGAIN);
	read_after_call(g, args[0]);
}

/* A helper function: params typed like values in scope (some readonly,
 * some dynamic) and `%n: index`, a few ops (branches, launches and calls
 * too), one result; then a call to it. */
static void
gen_call(G *g)
{
	GV *a, *b, *args[2];
	Str body = {0};
	G *h;
	Helper fn = {0};
	char s[64];
	bool asserted = false;
	Value *params[2];
	const char *y;

	if (g->in_forall)
		return;
	if (g->sh->nfns && gen_chance(g, 35)) {
		call_again(g);
		return;
	}
	if (g->sh->started >= MAXFN || g->helper >= 2 || !(a = gen_any_tensor(g, 0)))
		return;
	b = gen_chance(g, 50) ? gen_any_tensor(g, 0) : NULL;
	fmt_snprintf(fn.name, sizeof fn.name, "g%d", g->sh->started++);
	args[0] = a;
	args[1] = b;
	fn.params[fn.nparams++] = param_like(g, a);
	if (b)
		fn.params[fn.nparams++] = param_like(g, b);
	if (!(h = gen_new())) { /* the case is lost: gen_case_build says so */
		g->sh->oom = true;
		return;
	}
	/* (freed by gen_case_build if building runs out of memory in it) */
	g->sh->live[g->sh->nlive].g = h;
	g->sh->live[g->sh->nlive++].body = &body;
	h->rng = g->rng;
	h->o = g->o;
	h->sh = g->sh;
	h->out = &body;
	h->depth = 1;
	h->dt = g->dt;
	h->helper = g->helper + 1;
	h->asserted = &asserted;
	h->in_async = g->in_async; /* a callee of a launch does not assert */
	if (GEN_BUILD(g))
		gb_func(h, fn.name);
	for (int i = 0; i < fn.nparams; i++) {
		h->v[h->nv] = fn.params[i];
		fmt_snprintf(h->v[h->nv++].name, sizeof h->v[0].name, "q%d", i);
		if (GEN_BUILD(g))
			params[i] = gb_param(h, &h->v[h->nv - 1], false);
	}
	if (GEN_BUILD(g)) {
		static const GV index_param = {"n", DT_INDEX, 0, {0}, 0, true};
		gb_param(h, &index_param, false);
		h->fn->rtypes = gb_types(h, &fn.params[0], 1);
		h->fn->nrtypes = 1;
	}
	gen_ops(h, 1 + gen_pick(g, 3));
	gen_await_pending(h, 1);
	fn.asserts = asserted;
	if (!g->sh->notext)
		str_printf(&g->sh->helpers, "  func @%s(", fn.name);
	for (int i = 0; i < fn.nparams; i++) {
		bool ro = gen_chance(g, 40);
		if (!g->sh->notext)
			str_printf(&g->sh->helpers, "%%q%d: %s%s, ", i,
				   gen_ty(&fn.params[i], s, sizeof s),
				   ro ? " {readonly}" : "");
		if (GEN_BUILD(g))
			params[i]->readonly = ro;
	}
	y = yield_of(h, &fn.params[0], 0);
	if (!g->sh->notext) {
		str_printf(&g->sh->helpers, "%%n: index) -> %s {\n",
			   gen_ty(&fn.params[0], s, sizeof s));
		if (body.s)
			str_puts(&g->sh->helpers, body.s);
		str_printf(&g->sh->helpers, "    return %%%s\n  }\n", y);
	}
	if (GEN_BUILD(g)) {
		gb_term(h, OP_RETURN, &y, 1);
		gb_func_done(h, true);
		fn.fn = h->fn;
	}
	g->sh->nlive--;
	str_free(&body);
	gen_free(h);
	g->sh->fns[g->sh->nfns++] = fn;
	emit_call(g, &fn, args);
}

/* The index of element access into c inside a generate of c's shape
 * (ivs "i<k>_<d>" over tt): each dim the generate's own index now and
 * then, where it fits (the
 * element it is computing: another element's run wrote there if the
 * write was in place), else a literal. */
static void
generate_index(G *g, const GV *c, const GV *tt, int k, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	for (int d = 0; d < c->rank; d++) {
		if (d < tt->rank && tt->dims[d] <= c->dims[d] && gen_chance(g, 60))
			at += (size_t)fmt_snprintf(buf + at, n - at, "%s%%i%d_%d",
						   d ? ", " : "", k, d);
		else
			at += (size_t)fmt_snprintf(buf + at, n - at, "%s%d",
						   d ? ", " : "",
						   gen_pick(g, c->dims[d]));
	}
}

/* The scalar a generate body yields: an element of a tensor of dtype dt
 * (preferably w, what it inserted into), else a constant; tt is the
 * generate's type. */
static const char *
generate_yield(G *g, const GV *w, const GV *tt, int k)
{
	GV *a = w && !w->scalar ? (GV *)w : NULL, sc;
	DType dt = tt->dt;
	char idx[64], s[64];

	for (int i = g->nv - 1; !a && i >= 0; i--)
		if (!g->v[i].scalar && g->v[i].dt == dt && g->v[i].rank > 0)
			a = &g->v[i];
	sc.dt = dt;
	sc.rank = 0;
	sc.dyn = 0;
	sc.scalar = true;
	if (!a) {
		GV *v = gen_new_value(g, &sc, "s");
		gen_literal(g, dt, s, sizeof s);
		gen_line(g, "%%%s = const %s : %s", v->name, s, dtype_names[dt]);
		if (GEN_BUILD(g))
			gb_const(g, v, s);
		return v->name;
	}
	sc = *a;
	sc.scalar = true;
	generate_index(g, a, tt, k, idx, sizeof idx);
	{
		GV at = *a, *v = gen_new_value(g, &sc, "s");
		gen_line(g, "%%%s = extract %%%s[%s] : %s", v->name, at.name,
			 idx, dtype_names[dt]);
		if (GEN_BUILD(g))
			gb_extract(g, v, at.name, idx);
		return v->name;
	}
}

/* Now and then (GEN_GENERATE): a generate of a captured tensor's shape
 * whose body inserts into the captured tensor at the element's index,
 * runs a few ops of the mix (no branches, launches or calls, as in a
 * forall body) and yields an element read back.  False when it made
 * none (without drawing anything when the mix has no generates). */
static bool
gen_generate(G *g)
{
	GV *c, tt, *u = NULL;
	char s[64], idx[64], val[32], ivs[96];
	const char *y;
	int k, r, mark, nloops = g->nloops;
	bool in_forall = g->in_forall;
	size_t at = 0;
	Op *op = NULL;
	GBlock was = {NULL, 0};

	if (!(g->o->mix & GEN_GENERATE) || g->depth >= 3 || !gen_chance(g, 5))
		return false;
	if (!(c = gen_any_tensor(g, T_RANKED)) || g->nloops + c->rank > 8)
		return false;
	tt = *c;
	tt.dyn = 0;
	k = g->sh->names++;
	r = g->sh->names++;
	ivs[0] = 0;
	for (int d = 0; d < tt.rank && !g->sh->notext; d++)
		at += (size_t)fmt_snprintf(ivs + at, sizeof ivs - at, "%s%%i%d_%d",
					   d ? ", " : "", k, d);
	gen_line(g, "%%r%d = generate [%s] : %s {", r, ivs,
		 gen_ty(&tt, s, sizeof s));
	if (GEN_BUILD(g)) {
		char rn[16], iv[16];
		GV rt = tt;
		gen_name_int(rn, sizeof rn, "r", r);
		memcpy(rt.name, rn, sizeof rn);
		op = gb_basic(g, OP_GENERATE, &rt, &tt, NULL, 0, NULL);
		op->body = gb_region(g, op);
		for (int d = 0; d < tt.rank; d++) {
			fmt_snprintf(iv, sizeof iv, "i%d_%d", k, d);
			gb_arg(g, op->body, iv, gb_scalar(g, DT_INDEX));
		}
		was = gb_enter(g, op->body);
	}
	mark = gen_enter(g);
	for (int d = 0; d < tt.rank; d++) {
		fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv,
			     "i%d_%d", k, d);
		g->loops[g->nloops].mark = mark;
		g->loops[g->nloops++].ub = tt.dims[d];
	}
	g->in_forall = true;
	g->in_async++; /* no asserts in a generate body */
	if (gen_chance(g, 60)) { /* the bug class: a write into c */
		GV ct = *c;
		generate_index(g, &ct, &tt, k, idx, sizeof idx);
		gen_scalar_operand(g, ct.dt, 30, val, sizeof val);
		u = gen_new_value(g, &ct, "v");
		gen_line(g, "%%%s = insert %s into %%%s[%s] : %s", u->name, val,
			 ct.name, idx, gen_ty(&ct, s, sizeof s));
		if (op)
			gb_insert(g, u, val, ct.name, idx);
		gen_count(g, GC_GENERATE_INSERT);
		++g->sh->ops;
	}
	gen_ops(g, gen_pick(g, 3));
	y = generate_yield(g, u, &tt, k);
	gen_line(g, "yield %%%s", y);
	if (op)
		gb_term(g, OP_YIELD, &y, 1);
	g->in_async--;
	g->in_forall = in_forall;
	g->nloops = nloops;
	gen_leave(g, mark);
	if (op)
		gb_back(g, was);
	gen_line(g, "}");
	c = gen_new_value(g, &tt, "r");
	fmt_snprintf(c->name, sizeof c->name, "r%d", r);
	gen_count(g, GC_GENERATE);
	g->sh->ops += 2;
	return true;
}

static void
gen_op(G *g)
{
	int k = gen_pick(g, 100);
	const unsigned mix = g->o->mix;

	if (g->nfuts && gen_chance(g, 25)) {
		gen_await_pending(g, g->futs[g->nfuts - 1].scope);
		return;
	}
	if (g->nagain && gen_chance(g, 15)) {
		await_again(g);
		return;
	}
	if (k < 24 || !mix)
		gen_elementwise(g);
	else if (k < 31)
		gen_scalar(g);
	else if (k < 38 && (mix & GEN_SLICES))
		gen_extract_slice(g);
	else if (k < 45 && (mix & GEN_SLICES))
		gen_insert_slice(g);
	else if (k < 50)
		gen_element(g);
	else if (k < 56 && !g->o->no_copies)
		gen_copy(g);
	else if (k < 61 && (mix & GEN_MATMUL))
		gen_matmul(g);
	else if (k < 66 && (mix & GEN_MATMUL))
		gen_transpose_reduce(g);
	else if (k < 71 && (mix & GEN_LOOPS) && g->depth < 3) {
		if (!gen_prefetch(g))
			gen_for(g);
	}
	else if (k < 74 && (mix & GEN_LOOPS) && g->depth < 3) {
		if (k >= 72 && (mix & GEN_FORALL))
			gen_forall(g);
		else
			gen_while(g);
	}
	else if (k < 74 && (mix & GEN_FORALL) && g->depth < 3)
		gen_forall(g); /* `--mix forall` alone (no loops): the same
				* draws as before for every mix with loops */
	else if (k < 82 && (mix & GEN_BRANCHES) && g->depth < 3)
		gen_if(g);
	else if (k < 90 && (mix & GEN_ASYNC) && g->depth < 3)
		gen_async(g);
	else if (k < 96 && (mix & GEN_CALLS))
		gen_call(g);
	else if (k < 98 && (mix & GEN_BRANCHES))
		gen_assert(g);
	else if (k < 100 && (mix & GEN_SLICES))
		gen_data(g);
	else
		gen_elementwise(g);
}

/* Values a step may add in scope at most, nested constructs and all: a
 * function stops taking ops short of MAXV by this much (at MAXV a value's
 * slot is reused while the generator may still hold it: the text named
 * values that were gone, and every program of --max-ops 2000 was
 * rejected). */
enum { GEN_ROOM = 128 };

void
gen_ops(G *g, int n)
{
	for (int i = 0; i < n && g->sh->ops < g->o->max_ops &&
	     g->nv < MAXV - GEN_ROOM; i++)
		if (!gen_cfg(g) && !gen_generate(g))
			gen_op(g);
}
