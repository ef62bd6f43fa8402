/*
 * gen_carry.c: futures carried (GEN_ASYNC with GEN_LOOPS): prefetch
 * loops, `for`s whose iter args are futures, and the launches they (and
 * gen_cfg.c's blocks) carry.
 *
 *     %f0 = async stream S -> (T) { ... }
 *     %rf, %r = for %i = LB to UB step ST iter(%fc = %f0, %acc = %init)
 *               -> (future<T>, T) {
 *       %w = await %fc                  (85%; now and then twice)
 *       ops
 *       %g = async stream S -> (T) {    (15%: none, %fc yielded unchanged)
 *         %m = OP %acc, LIT : T         (or a value the body made)
 *         %d = OP %x, LIT into %y : T   (now and then)
 *         ops  yield ...
 *       }
 *       %a2 = OP %acc, %w : T           (a host write %acc's buffer may
 *       yield %g, %a2                    take while %g reads it)
 *     }
 *     %l = await %rf                    (now, later, or never)
 *
 * A second carried future now and then (a launch without results too),
 * and launches without results.  A carried iter arg not awaited in a trip
 * is dropped when the trip yields a new launch: a launch never awaited.
 * Launches a region leaves pending are awaited before its yield, as
 * everywhere; the carried ones are not in g->futs until the loop is done.
 * One random draw per full expression, as everywhere in the generator.
 */
#include <stdio.h>

#include "gen_impl.h"

/* In percent: a for of the mix that carries futures; a second future;
 * a carried future yielded unchanged; awaited in a trip; twice; a new
 * launch that reads the tensor iter arg (else a value the body made);
 * that computes into a value. */
enum { CARRY_FOR = 30, CARRY_TWO = 25, CARRY_SAME = 15, CARRY_AWAIT = 85,
       CARRY_TWICE = 10, CARRY_READ_ACC = 60, CARRY_INTO = 30 };

const char *
gen_future_ty(const Fut *f, char *buf, size_t n)
{
	char s[64];
	int k = fmt_snprintf(buf, n, "future<");

	for (int i = 0; i < f->nres; i++)
		k += fmt_snprintf(buf + k, n - (size_t)k, "%s%s", i ? ", " : "",
				  gen_ty(&f->res[i], s, sizeof s));
	fmt_snprintf(buf + k, n - (size_t)k, ">");
	return buf;
}

void
gen_carried_types(G *g, Fut *f, const GV *first)
{
	const GV *t = first;

	f->nres = 0;
	if (gen_chance(g, 20))
		return;
	if (!t)
		t = gen_any_tensor(g, 0);
	if (t && !GEN_TARGET(g, no_tensor_launch))
		f->res[f->nres++] = *t;
}

/* In a launch region: `%m = OP %src, LIT : T` of the value read. */
static void
read_value(G *g, const GV *src)
{
	GV t = *src, *v;
	char ty[64], lit[32];
	OpKind k = gen_draw_ew(g, F_BINARY, G_TENSOR, t.dt);

	gen_literal(g, t.dt, lit, sizeof lit);
	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = %s %%%s, %s : %s", v->name, op_info[k].name, t.name,
		 lit, gen_ty(&t, ty, sizeof ty));
	if (GEN_BUILD(g))
		gb_basic(g, k, v, &t, (const char *[]){t.name, lit}, 2, NULL);
	++g->sh->ops;
	gen_count(g, GC_CARRY_READS);
}

/* In a launch region: `%d = OP %x, LIT into %y : T`, y a value of type
 * t in scope (outside the launch: a write of its buffer when in place). */
static void
compute_into(G *g, const GV *t)
{
	GV tt = *t, *x, *y, *v;
	char ty[64], lit[32], xn[16];
	OpKind k;

	if (!(y = gen_find(g, &tt, NULL)))
		return;
	fmt_snprintf(xn, sizeof xn, "%s", y->name);
	x = gen_find(g, &tt, NULL);
	k = gen_draw_ew(g, F_BINARY, G_TENSOR, tt.dt);
	gen_literal(g, tt.dt, lit, sizeof lit);
	v = gen_new_value(g, &tt, "v");
	gen_line(g, "%%%s = %s %%%s, %s into %%%s : %s", v->name, op_info[k].name,
		 x->name, lit, xn, gen_ty(&tt, ty, sizeof ty));
	if (GEN_BUILD(g))
		gb_basic(g, k, v, &tt, (const char *[]){x->name, lit}, 2, xn);
	++g->sh->ops;
	gen_count(g, GC_CARRY_INTO);
}

void
gen_carried_launch(G *g, Fut *f, const GV *reads, bool into)
{
	GV r;
	char s[160];
	int mark, k = g->sh->names++, stream = gen_pick(g, 3);
	GBlock was = {NULL, 0};

	if (reads)
		r = *reads;

	fmt_snprintf(f->name, sizeof f->name, "f%d", k);
	if (f->nres)
		gen_line(g, "%%f%d = async stream %d -> %s {", k, stream,
			 gen_types_text(f->res, f->nres, s, sizeof s));
	else
		gen_line(g, "%%f%d = async stream %d {", k, stream);
	if (GEN_BUILD(g))
		gb_async(g, f->name, stream, f->res, f->nres, &was);
	mark = gen_enter(g);
	g->in_async++;
	if (reads)
		read_value(g, &r);
	if (into && f->nres)
		compute_into(g, &f->res[0]);
	gen_ops(g, gen_pick(g, 3));
	g->in_async--;
	gen_close_region(g, f->res, f->nres, mark);
	if (GEN_BUILD(g))
		gb_back(g, was);
	gen_line(g, "}");
	f->scope = g->depth;
	gen_count(g, GC_ASYNC);
	if (!f->nres)
		gen_count(g, GC_FUT0);
	if (g->helper)
		gen_count(g, GC_HELPER_ASYNC);
	g->sh->ops += 2;
}

void
gen_carried_out(G *g, const Fut *f)
{
	int r = gen_pick(g, 100);

	if (r < 45) {
		gen_emit_await(g, f);
	} else if (r < 85 && g->nfuts < 32) {
		g->futs[g->nfuts] = *f;
		g->futs[g->nfuts++].scope = g->depth;
	} else {
		gen_count(g, GC_CARRY_NEVER);
	}
}

/* ---- the prefetch loop */

typedef struct Prefetch {
	int k, r;                /* names: %i<k>, %fc<k>..; %r<r>, %rf<r>.. */
	int nf;                  /* carried futures, then the tensor */
	Fut init[2], out[2];     /* what each iter arg starts and ends as */
	int same;                /* the one yielded unchanged, or -1 */
	GV acc;
	int at;                  /* the tensor iter arg's index in g->v */
	int lb, step, bound;
	char ub[16];
} Prefetch;

static const char *const carried[2] = {"fc", "fd"}; /* iter args' names */

/* "%rf<r>, %rg<r>, %r<r> = for %i<k> = ... iter(...) -> (...) {" */
static void
emit_header(G *g, const Prefetch *p)
{
	char res[64], iter[160], tys[320], s[128];
	size_t a = 0, b = 0, c = 0;

	for (int j = 0; j < p->nf; j++) {
		a += (size_t)fmt_snprintf(res + a, sizeof res - a, "%%r%c%d, ",
					  "fg"[j], p->r);
		b += (size_t)fmt_snprintf(iter + b, sizeof iter - b,
					  "%%%s%d = %%%s, ", carried[j], p->k,
					  p->init[j].name);
		c += (size_t)fmt_snprintf(tys + c, sizeof tys - c, "%s, ",
					  gen_future_ty(&p->init[j], s, sizeof s));
	}
	fmt_snprintf(res + a, sizeof res - a, "%%r%d", p->r);
	fmt_snprintf(iter + b, sizeof iter - b, "%%acc%d = %%%s", p->k,
		     p->acc.name);
	fmt_snprintf(tys + c, sizeof tys - c, "%s", gen_ty(&p->acc, s, sizeof s));
	gen_line(g, "%s = for %%i%d = %d to %s step %d iter(%s) -> (%s) {", res,
		 p->k, p->lb, p->ub, p->step, iter, tys);
}

/* The same, built: its body entered (the block before into *was). */
static void
build_header(G *g, const Prefetch *p, GBlock *was)
{
	char rs[3][16], iv[16], args[3][16], lb[12], st[12];
	const char *r[3], *a[3], *init[3];
	Type **rt;
	int n = p->nf + 1;

	rt = arena_alloc(g->sh->gb->B.p->arena, (size_t)n * sizeof *rt);
	for (int j = 0; j < n; j++) {
		bool fut = j < p->nf;
		if (fut)
			fmt_snprintf(rs[j], 16, "r%c%d", "fg"[j], p->r);
		else
			fmt_snprintf(rs[j], 16, "r%d", p->r);
		fmt_snprintf(args[j], 16, "%s%d", fut ? carried[j] : "acc", p->k);
		rt[j] = fut ? gb_future(g, p->init[j].res, p->init[j].nres)
			    : gb_type(g, &p->acc);
		init[j] = fut ? p->init[j].name : p->acc.name;
		r[j] = rs[j];
		a[j] = args[j];
	}
	fmt_snprintf(iv, sizeof iv, "i%d", p->k);
	fmt_snprintf(lb, sizeof lb, "%d", p->lb);
	fmt_snprintf(st, sizeof st, "%d", p->step);
	gb_for(g, r, iv, a, init, rt, n, (const char *[]){lb, p->ub, st}, was);
}

/* The bounds, as gen_for draws them. */
static void
draw_bounds(G *g, Prefetch *p)
{
	p->lb = gen_chance(g, 30) ? 1 + gen_pick(g, 2) : 0;
	p->step = gen_chance(g, 30) ? 2 + gen_pick(g, 2) : 1;
	if (gen_chance(g, 50)) {
		fmt_snprintf(p->ub, sizeof p->ub, "%%n");
		p->bound = 4;
	} else {
		p->bound = gen_pick(g, 5);
		fmt_snprintf(p->ub, sizeof p->ub, "%d", p->bound);
	}
}

/* A trip's awaits of the carried iter args: the first's first result
 * (of the tensor iter arg's type) into *w, or -1. */
static void
await_carried(G *g, const Prefetch *p, bool *awaited, int *w)
{
	*w = -1;
	for (int j = 0; j < p->nf; j++) {
		Fut f = p->init[j];
		awaited[j] = gen_chance(g, CARRY_AWAIT);
		if (!awaited[j])
			continue;
		fmt_snprintf(f.name, sizeof f.name, "%s%d", carried[j], p->k);
		/* (at MAXV the result takes the last slot: not v[MAXV]) */
		if (j == 0 && f.nres)
			*w = g->nv < MAXV ? g->nv : MAXV - 1;
		gen_emit_await(g, &f);
		if (gen_chance(g, CARRY_TWICE)) {
			gen_emit_await(g, &f);
			gen_count(g, GC_CARRY_TWICE);
		}
	}
}

/* A trip's launches, one per carried iter arg but the one yielded
 * unchanged, into p->out[j] (their names); each reads the tensor iter
 * arg or a tensor the trip made. */
static void
launch_next(G *g, Prefetch *p, const bool *awaited)
{
	for (int j = 0; j < p->nf; j++) {
		const GV *reads = NULL;
		bool into;
		p->out[j] = p->init[j];
		if (j == p->same) {
			fmt_snprintf(p->out[j].name, sizeof p->out[j].name,
				     "%s%d", carried[j], p->k);
			continue;
		}
		if (gen_chance(g, CARRY_READ_ACC)) {
			reads = &g->v[p->at];  /* the tensor iter arg */
		} else {
			for (int i = g->nv - 1; !reads && i > p->at; i--)
				if (!g->v[i].scalar)
					reads = &g->v[i];
		}
		into = gen_chance(g, CARRY_INTO);
		gen_carried_launch(g, &p->out[j], reads, into);
		if (!awaited[j])
			gen_count(g, GC_CARRY_DROP);
	}
}

/* The trip's host write of the tensor iter arg: `%a = OP %acc, %w`
 * (the awaited result) or a literal; its name into a. */
static void
host_write(G *g, const Prefetch *p, int w, char *a, size_t n)
{
	GV t = p->acc, *v;
	char ty[64], second[32], acc[16];
	OpKind k = gen_draw_ew(g, F_BINARY, G_TENSOR, t.dt);

	if (w >= 0)
		fmt_snprintf(second, sizeof second, "%%%s", g->v[w].name);
	else
		gen_literal(g, t.dt, second, sizeof second);
	v = gen_new_value(g, &t, "v");
	gen_line(g, "%%%s = %s %%acc%d, %s : %s", v->name, op_info[k].name, p->k,
		 second, gen_ty(&t, ty, sizeof ty));
	if (GEN_BUILD(g)) {
		fmt_snprintf(acc, sizeof acc, "acc%d", p->k);
		gb_basic(g, k, v, &t, (const char *[]){acc, second}, 2, NULL);
	}
	++g->sh->ops;
	fmt_snprintf(a, n, "%s", v->name);
}

/* The body: awaits, ops, the next launches, the host write, yield. */
static void
prefetch_body(G *g, Prefetch *p)
{
	bool awaited[2];
	char a[16], ys[160];
	int mark = gen_enter(g), w;
	size_t k;

	fmt_snprintf(gen_new_value(g, &p->acc, "acc")->name, sizeof g->v[0].name,
		     "acc%d", p->k);
	p->at = g->nv - 1;
	fmt_snprintf(g->loops[g->nloops].iv, sizeof g->loops[0].iv, "i%d", p->k);
	g->loops[g->nloops].mark = mark;
	g->loops[g->nloops++].ub = p->bound;
	await_carried(g, p, awaited, &w);
	gen_ops(g, gen_pick(g, 3));
	launch_next(g, p, awaited);
	host_write(g, p, w, a, sizeof a);
	g->nloops--;
	gen_await_pending(g, g->depth);
	k = (size_t)fmt_snprintf(ys, sizeof ys, "yield");
	for (int j = 0; j < p->nf; j++)
		k += (size_t)fmt_snprintf(ys + k, sizeof ys - k, " %%%s,",
					  p->out[j].name);
	fmt_snprintf(ys + k, sizeof ys - k, " %%%s", a);
	gen_line(g, "%s", ys);
	if (GEN_BUILD(g)) {
		const char *yv[3];
		for (int j = 0; j < p->nf; j++)
			yv[j] = p->out[j].name;
		yv[p->nf] = a;
		gb_term(g, OP_YIELD, yv, p->nf + 1);
	}
	gen_leave(g, mark);
}

bool
gen_prefetch(G *g)
{
	GV *init;
	Prefetch p = {0};
	GBlock was = {NULL, 0};

	if (!(g->o->mix & GEN_ASYNC) || !gen_chance(g, CARRY_FOR))
		return false;
	if (g->in_forall || g->nloops == 8 || !(init = gen_any_tensor(g, 0)))
		return false;
	p.acc = *init;
	p.nf = gen_chance(g, CARRY_TWO) ? 2 : 1;
	p.same = gen_chance(g, CARRY_SAME) ? gen_pick(g, p.nf) : -1;
	draw_bounds(g, &p);
	for (int j = 0; j < p.nf; j++) {
		gen_carried_types(g, &p.init[j], j ? NULL : &p.acc);
		gen_carried_launch(g, &p.init[j], NULL, false);
		if (!p.init[j].nres)
			gen_count(g, GC_CARRY_FUT0);
	}
	p.k = g->sh->names++;
	p.r = g->sh->names++;
	if (!g->sh->notext)
		emit_header(g, &p);
	if (GEN_BUILD(g))
		build_header(g, &p, &was);
	prefetch_body(g, &p);
	if (GEN_BUILD(g))
		gb_back(g, was);
	gen_line(g, "}");
	fmt_snprintf(gen_new_value(g, &p.acc, "r")->name, sizeof g->v[0].name,
		     "r%d", p.r);
	for (int j = 0; j < p.nf; j++) {
		Fut f = p.init[j];
		fmt_snprintf(f.name, sizeof f.name, "r%c%d", "fg"[j], p.r);
		gen_carried_out(g, &f);
	}
	gen_count(g, GC_FOR);
	gen_count(g, GC_CARRY_FOR);
	if (p.nf > 1)
		gen_count(g, GC_CARRY_TWO);
	if (p.same >= 0)
		gen_count(g, GC_CARRY_SAME);
	if (p.lb)
		gen_count(g, GC_FOR_START);
	if (p.step > 1)
		gen_count(g, GC_FOR_STEP);
	g->sh->ops += 3;
	return true;
}
