/*
 * gen_load.c: a generated case loaded from what the generator knows of
 * it, not from its text: the program is parsed from its lines in the
 * text (with the places case_parse gives them), or taken as the
 * generator built it in memory (gen_load_built: the fuzz loop's first
 * run of a built-in's program, no text at all); the inputs are filled as
 * `{random: S, min, max}` fills them (data.c), the run is made directly.
 * Reading the YAML back cost a third of a fuzz campaign's time, parsing
 * the program text back most of what was left of loading.  The text is
 * the case's all the same (a repro, a report, --keep write it), so the
 * Case is the one case_parse makes of it; tests/test_fuzz.c compares
 * them (loaded_in_memory, built_in_memory).
 */
#include "fuzz.h"
#include "gen_impl.h"

/* A plain one-line scalar `KEY: VALUE` at text's start (NULL: none). */
static const char *
line_value(Arena *a, const char *text, const char *key)
{
	size_t k = strlen(key);

	if (strncmp(text, key, k))
		return NULL;
	return arena_strndup(a, text + k, strcspn(text + k, "\n"));
}

/* The input of type t as data.c's `{random: S, min, max}` fills it. */
static Tensor *
random_input(Arena *a, const Type *t, const GenInput *in)
{
	Tensor *x = arena_alloc(a, sizeof *x);
	uint64_t state = in->seed;
	double span = (double)in->hi - (double)in->lo;
	uint64_t ispan = (uint64_t)((int64_t)in->hi - in->lo + 1);

	if (!x)
		return NULL;
	x->dt = t->dt;
	x->rank = t->rank;
	x->n = 1;
	for (int i = 0; i < x->rank; i++)
		x->n *= x->dims[i] = in->dims[i];
	if (!(x->data = arena_alloc(a, (size_t)x->n * dtype_size(x->dt))))
		return NULL;
	for (int64_t i = 0; i < x->n; i++) {
		uint64_t r = rng_next(&state);
		if (dtype_is_float(x->dt))
			tensor_setf(x, i, in->lo + (double)(r >> 11) * 0x1p-53 * span);
		else
			tensor_seti(x, i, (int64_t)((uint64_t)(int64_t)in->lo +
						    r % ispan));
	}
	return x;
}

/* `n: N`, the index param. */
static Tensor *
index_input(Arena *a, int n)
{
	Tensor *x = arena_alloc(a, sizeof *x);

	if (!x)
		return NULL;
	x->dt = DT_INDEX;
	x->n = 1;
	if (!(x->data = arena_alloc(a, dtype_size(DT_INDEX))))
		return NULL;
	tensor_seti(x, 0, n);
	return x;
}

static int
oom(Diag *d)
{
	diag_set(d, (Loc){0, 0}, "out of memory");
	return -1;
}

/* The program (c->prog, its arena's), checked; the entry, the inputs and
 * the run, from gc: 0, -1 out of memory (d), 1 rejected (d), 2 not a
 * case gen_load makes. */
static int
load_rest(const GenCase *gc, const char *strategy, Case *c, Diag *d)
{
	Arena *a = c->arena;
	Func *f;
	Run *r;

	if (!(c->prog->file = arena_strdup(c->prog->arena, c->file)))
		return oom(d);
	if (tir_verify(c->prog, &c->lim, d))
		return 1;
	if (!(f = c->entry = prog_func(c->prog, "main")) ||
	    f->nparams != gc->ninputs + 1)
		return 2;
	c->ninputs = f->nparams;
	if (!(c->inputs = arena_alloc(a, sizeof *c->inputs *
				      (size_t)(f->nparams + 1))))
		return oom(d);
	for (int i = 0; i <= gc->ninputs; i++) {
		const Type *t = f->params[i]->type;
		if (i < gc->ninputs ? t->kind != TY_TENSOR ||
		    t->rank != gc->in[i].rank : t->kind == TY_TENSOR ||
		    t->dt != DT_INDEX)
			return 2;
		c->inputs[i] = i < gc->ninputs ? random_input(a, t, &gc->in[i])
			       : index_input(a, gc->n);
		if (!c->inputs[i])
			return oom(d);
	}
	if (!(c->runs = r = arena_alloc(a, 2 * sizeof *r)))
		return oom(d);
	c->nruns = 1;
	r->loc = (Loc){gc->run_line, 5}; /* `  - strategy:`'s mapping */
	for (int k = 0; k < MS_COUNT; k++)
		r->memory[k] = -1;
	r->strategy = strategy_parse(strategy);
	return r->strategy && r->strategy->kind == STRAT_BUILTIN ? 0 : 2;
}

/* A new Case of its own arena under the name file; NULL out of memory. */
static Case *
case_new(const char *file)
{
	Arena *a = arena_new();
	Case *c = a ? arena_alloc(a, sizeof *c) : NULL;

	if (!c) {
		arena_free(a);
		return NULL;
	}
	c->arena = a;
	c->lim = default_limits;
	if (!(c->file = arena_strdup(a, file))) {
		arena_free(a);
		return NULL;
	}
	return c;
}

int
gen_load(const GenCase *gc, const char *file, const char *strategy, Case **out,
	 Diag *d)
{
	Case *c = case_new(file);
	const char *y = gc->yaml;
	const char *about;

	if (!(*out = c))
		return oom(d);
	c->len = strlen(y);
	c->text = arena_strndup(c->arena, y, c->len);
	c->name = line_value(c->arena, y, "case: ");
	about = y + strcspn(y, "\n") + 1;
	c->about = line_value(c->arena, about, "about: ");
	if (!c->text || !c->name || !c->about)
		return oom(d);
	c->prog = tir_parse(y + gc->prog, gc->nprog,
			    (SrcMap){gc->prog_line, 0}, d);
	if (!c->prog)
		return 1; /* (or out of memory: d says which) */
	return load_rest(gc, strategy, c, d);
}

int
gen_load_built(const GenCase *gc, Program *prog, const char *file,
	       const char *strategy, Case **out, Diag *d)
{
	Case *c = case_new(file);

	if (!(*out = c)) {
		prog_free(prog);
		return oom(d);
	}
	c->prog = prog;
	c->name = c->about = c->text = "";
	return load_rest(gc, strategy, c, d);
}
