/*
 * gen.c: the program generator.  Deterministic from a seed (mixed by
 * splitmix64 before use, no other source of randomness), it builds
 * programs forward: each op's shape rule picks operands that already exist
 * with legal shapes, so every program verifies without a solver.  Tensors
 * of rank 0 to 3, some dims dynamic (`?`), f32/f64/i32/i64 and i1/index
 * tensors; scalar arithmetic, compares and broadcasts; views of views with
 * strides and dynamic offsets, strided insert_slice, extract/insert at
 * dynamic indices; if/else with or without results (conditions on %n, a
 * loop's iv or a computed i1); for loops with several iter args, nonzero
 * starts and steps, zero trips; while loops; foralls writing disjoint rows
 * of their shared outputs; helpers (with readonly and dynamic params, their
 * own branches, launches and calls) called once or several times; launches
 * on several streams with zero, one or two results, awaited late, in
 * branches and loops, and now and then awaited again; futures carried by
 * a for's iter args (prefetch loops) and by block arguments (gen_carry.c);
 * several outputs and values that stay live to be read late; function
 * bodies of several blocks (gen_cfg.c).  `empty` is always filled at once, so no output
 * depends on undefined data.
 *
 * One random draw per full expression: the order in which a call's
 * arguments are evaluated is unspecified, so two draws in one argument list
 * give different programs under gcc and clang (tests/test_fuzz.c pins a
 * digest of the programs).
 *
 * This file is the driver: main's params, its ops, its outputs, the
 * inputs and the run; the ops come from gen_region.c.
 */
#include <stdio.h>

#include "escape.h"
#include "gen_impl.h"

const char *const gen_construct_names[GC_COUNT] = {
#define GC(e, name) name,
	GEN_CONSTRUCTS(GC)
#undef GC
};

/* ---- the whole case */

/* A param's type: ranks 0 to 3, now and then a dynamic dim, mostly the
 * program's dtype, else f32, i1, index or i64. */
static GV
param_type(G *g)
{
	static const int shapes[][4] = {{1, 4}, {1, 8}, {2, 2, 4}, {2, 4, 2},
					{2, 4, 4}, {2, 2, 2}, {0}, {3, 2, 2, 2},
					{3, 2, 4, 2}};
	static const DType other[] = {DT_F32, DT_I1, DT_INDEX, DT_I64};
	const int *sh = shapes[gen_pick(g, 9)];
	DType dt = gen_chance(g, 80) ? g->dt : other[gen_pick(g, 4)];
	GV t = gen_tensor_type(dt, sh[0], sh + 1);

	if (t.rank && gen_chance(g, 15))
		t.dyn = 1u << gen_pick(g, t.rank);
	return t;
}

/* `{random: S, min, max}`, with the shape of a dynamic param, into y
 * (NULL: no text); into *in too. */
static void
param_input(Str *y, const GV *p, int i, uint64_t seed, GenInput *in)
{
	char sh[32];
	int lo = p->dt == DT_I1 ? 0 : -4, hi = p->dt == DT_I1 ? 1 : 4;

	uint64_t x = seed * 4 + (uint64_t)i;

	/* mixed, so that params of one program get different data; below
	 * 2^62, which the loader reads */
	*in = (GenInput){rng_next(&x) >> 2, lo, hi, p->rank, {0}};
	memcpy(in->dims, p->dims, sizeof in->dims);
	if (!y)
		return;
	str_printf(y, "  p%d: {random: %llu, min: %d, max: %d", i,
		   (unsigned long long)in->seed, lo, hi);
	if (p->dyn)
		str_printf(y, ", shape: [%s]", gen_int_list(p->dims, p->rank, sh, sizeof sh));
	str_puts(y, "}\n");
}

/* The line (1-based) of byte off of text. */
static int
line_of(const char *text, size_t off)
{
	int line = 1;

	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + off - p)));
	     p++)
		line++;
	return line;
}

char *
gen_case_stats(uint64_t seed, const GenOpts *o, const char *strategy,
	       GenStats *st)
{
	GenCase gc;

	return gen_case_parts(seed, o, strategy, st, &gc) ? NULL : gc.yaml;
}

int
gen_case_parts(uint64_t seed, const GenOpts *o, const char *strategy,
	       GenStats *st, GenCase *gc)
{
	return gen_case_build(seed, o, strategy, st, gc, NULL, true);
}

/* main's `%n: index` */
static const GV index_param = {"n", DT_INDEX, 0, {0}, 0, true};

/* main's result types and `return %a, %b`, built (g->sh->gb) */
static void
build_return(G *g, const int *outs, int nouts)
{
	Type **rt = arena_alloc(g->sh->gb->B.p->arena,
				(size_t)(nouts + 1) * sizeof *rt);
	Op *r;

	for (int i = 0; i < nouts; i++)
		rt[i] = gb_type(g, &g->v[outs[i]]);
	g->fn->rtypes = rt;
	g->fn->nrtypes = nouts;
	r = gb_op(g, OP_RETURN, 0, NULL, NULL, nouts);
	for (int i = 0; i < nouts; i++)
		r->args[i].v = gb_val(g, g->v[outs[i]].name);
}

int
gen_case_build(uint64_t seed, const GenOpts *o, const char *strategy,
	       GenStats *st, GenCase *gc, Program **prog, bool text)
{
	uint64_t rng = seed;
	Str prog_text = {0}, yaml = {0};
	Shared sh = {0};
	static const DType dts[] = {DT_F32, DT_I32, DT_F32, DT_I32, DT_F64, DT_I64};
	G *g = gen_new();
	GV params[3];
	char s[64];
	int outs[3], nouts, nparams;
	bool asserted = false;
	size_t run;
	GenBuild gb;
	jmp_buf oom;

	memset(gc, 0, sizeof *gc);
	if (prog)
		*prog = NULL;
	if (!g)
		return -1;
	if (prog) {
		if (gb_init(&gb, &oom)) {
			gen_free(g);
			return -1;
		}
		if (setjmp(oom)) { /* (the arena's, from anywhere below) */
			for (int i = 0; i < sh.nlive; i++) {
				str_free(sh.live[i].body);
				gen_free(sh.live[i].g);
			}
			prog_free(gb.B.p);
			str_free(&prog_text);
			str_free(&yaml);
			str_free(&sh.helpers);
			gen_free(g);
			return -1;
		}
		sh.gb = &gb;
	}
	sh.notext = !text;
	/* mixed first: seeds N and N+1 would otherwise be one stream shifted
	 * by one draw (3268 and 3271 gave the same program) */
	rng = rng_next(&rng);
	sh.st = st;
	g->rng = &rng;
	g->o = o;
	g->sh = &sh;
	g->out = &prog_text;
	g->asserted = &asserted;
	g->depth = 1;
	g->dt = dts[gen_pick(g, 6)];
	nparams = 1 + gen_pick(g, 3);
	if (prog)
		gb_func(g, "main");
	/* outside strategies (exec:CMD) are named by their kind */
	if (text) {
		str_printf(&yaml, "case: fuzz/%.*s-%llu\nabout: generated by bufdiff fuzz "
			"--seed %llu\nprogram: |\n",
			(int)strcspn(strategy, ":"), strategy, (unsigned long long)seed,
			(unsigned long long)seed);
		gc->prog = yaml.len;
		str_puts(&yaml, "  func @main(");
	}
	for (int i = 0; i < nparams; i++) {
		GV *p = &g->v[g->nv++];
		bool ro;
		*p = params[i] = param_type(g);
		fmt_snprintf(p->name, sizeof p->name, "p%d", i);
		gen_count_type(g, p);
		ro = gen_chance(g, 25);
		if (text)
			str_printf(&yaml, "%%p%d: %s%s, ", i, gen_ty(p, s, sizeof s),
				   ro ? " {readonly}" : "");
		if (prog)
			gb_param(g, p, ro);
	}
	if (text)
		str_printf(&yaml, "%%n: index) -> (");
	if (prog)
		gb_param(g, &index_param, false);
	gen_ops(g, o->max_ops);
	/* an assert at the end finds the most live and pending: the failure
	 * path's frees and drains are exercised there */
	if ((o->mix & GEN_BRANCHES) && gen_chance(g, 35))
		gen_assert(g);
	gen_await_pending(g, 1);
	/* outputs: the newest value and up to two long-lived ones */
	nouts = 0;
	for (int i = g->nv - 1; i >= 0 && nouts < 3; i--) {
		if (g->v[i].scalar ||
		    (nouts && !gen_chance(g, 30 + 20 * (i < 3))))
			continue;
		outs[nouts++] = i;
	}
	if (prog) {
		build_return(g, outs, nouts);
		gb_func_done(g, false);
	}
	if (text) {
		for (int i = 0; i < nouts; i++)
			str_printf(&yaml, "%s%s", i ? ", " : "", gen_ty(&g->v[outs[i]], s, sizeof s));
		str_puts(&yaml, ") {\n");
		if (prog_text.s)
			str_puts(&yaml, prog_text.s);
		str_puts(&yaml, "    return");
		for (int i = 0; i < nouts; i++)
			str_printf(&yaml, "%s %%%s", i ? "," : "", g->v[outs[i]].name);
		str_printf(&yaml, "\n  }\n");
		if (sh.helpers.s)
			str_puts(&yaml, sh.helpers.s);
		gc->nprog = yaml.len - gc->prog;
		str_printf(&yaml, "inputs:\n");
	}
	gc->ninputs = nparams;
	for (int i = 0; i < nparams; i++)
		param_input(text ? &yaml : NULL, &params[i], i, seed, &gc->in[i]);
	gc->n = gen_pick(g, 4);
	str_free(&prog_text);
	str_free(&sh.helpers);
	gen_free(g);
	if (sh.oom) {
		if (prog)
			prog_free(gb.B.p);
		str_free(&yaml);
		return -1;
	}
	if (prog) /* (NULL: not what the text parses to) */
		*prog = gb_finish(&gb);
	if (!text)
		return 0;
	str_printf(&yaml, "  n: %d\nruns:\n", gc->n);
	run = yaml.len;
	str_puts(&yaml, "  - strategy: ");
	yaml_quoted(&yaml, strategy, strlen(strategy)); /* (always: gen-digest) */
	str_puts(&yaml, "\n");
	/* a command runs where the campaign does, also from a repro kept
	 * elsewhere (nothing for the built-ins: gen-digest's hash) */
	emit_workdir(&yaml, strategy_parse(strategy), NULL);
	if (!(gc->yaml = str_take(&yaml))) {
		if (prog) {
			prog_free(*prog);
			*prog = NULL;
		}
		return -1;
	}
	gc->prog_line = 4; /* after case:, about: and program: | */
	gc->run_line = line_of(gc->yaml, run);
	return 0;
}

char *
gen_case(uint64_t seed, const GenOpts *o, const char *strategy)
{
	return gen_case_stats(seed, o, strategy, NULL);
}
