/*
 * gen_build.c: the generated program built in memory, op by op, as the
 * generator draws it (GenBuild: the fuzz loop's programs go to the
 * harness without being written and parsed back).  Each site that writes
 * a line of text also builds its op here, from the same fragments: the
 * result names, the operand texts (`%name` or a literal), the types.  The
 * program is what tir_parse makes of the text, field by field (ids in the
 * text's definition order, the functions in the text's order, implicit
 * yields where the text has none), but for its places: an op's is a line
 * of its own, so an assert a run fails at is still found by its place.
 * tests/test_fuzz.c holds the two to prog_diff.
 */
#include <stdlib.h>

#include "gen_impl.h"

/* The builder, building g's function. */
static Builder *
bld(G *g)
{
	Builder *B = &g->sh->gb->B;

	B->fn = g->fn;
	return B;
}

/* ---- values and operands */

/* A place of its own for each op (prog_op_at finds an assert by it). */
static Loc
next_loc(G *g)
{
	return (Loc){++g->sh->gb->nlocs, 1};
}

/* A type of the program: one Type for each (a program has a few dozen;
 * nothing writes into a Type once it is made). */
static Type *
type_of(G *g, TypeKind kind, DType dt, int rank, const int64_t *dims)
{
	GenBuild *gb = g->sh->gb;
	Type *t;

	for (int i = 0; i < gb->ntypes; i++) {
		t = gb->types[i];
		if (t->kind == kind && t->dt == dt && t->rank == rank &&
		    (!rank || !memcmp(t->dims, dims, (size_t)rank * sizeof *dims)))
			return t;
	}
	t = build_type(bld(g), kind, dt, rank, dims);
	if (gb->ntypes < (int)(sizeof gb->types / sizeof *gb->types))
		gb->types[gb->ntypes++] = t;
	return t;
}

Type *
gb_type(G *g, const GV *t)
{
	int64_t dims[MAXRANK];

	if (t->scalar)
		return type_of(g, TY_SCALAR, t->dt, 0, NULL);
	for (int d = 0; d < t->rank; d++)
		dims[d] = t->dyn >> d & 1 ? DIM_DYN : t->dims[d];
	return type_of(g, TY_TENSOR, t->dt, t->rank, dims);
}

Type *
gb_scalar(G *g, DType dt)
{
	return type_of(g, TY_SCALAR, dt, 0, NULL);
}

/* What the text would not parse to (a slip of the generator's: a value's
 * slot taken by the next one at MAXV, say): the program is not built,
 * and the fuzz loop makes it from its text, whose parse reports it. */
static void
broken(G *g)
{
	g->sh->gb->broken = true;
}

/* A value of the function being made, by name (none: a stand-in of no
 * type, the program broken). */
Value *
gb_val(G *g, const char *name)
{
	int id = strmap_get(&g->vals, name);

	if (id >= 0)
		return g->sh->gb->B.p->values[id];
	broken(g);
	return &g->sh->gb->none;
}

static void
named(G *g, Value *v)
{
	if (strmap_add(&g->vals, v->name, v->id) != STRMAP_NONE)
		broken(g); /* defined twice */
}

/* `%name` or `name` (names start with a letter), or a literal as the
 * lexer reads it. */
Operand
gb_opnd(G *g, const char *s)
{
	Operand o;

	memset(&o, 0, sizeof o);
	if (!s || !*s) { /* (a name the generator could not find) */
		broken(g);
		return o;
	}
	if (*s == '%' || (*s >= 'a' && *s <= 'z')) {
		o.v = gb_val(g, s + (*s == '%'));
		return o;
	}
	/* -D or -D.D, as the generator writes them */
	if (strspn(s + (*s == '-'), "0123456789") == 0 ||
	    strspn(s, "-.0123456789") != strlen(s))
		broken(g);
	if (strchr(s, '.')) {
		o.isfloat = true;
		o.f = strtod(s, NULL);
		o.i = (int64_t)o.f;
		return o;
	}
	/* the generator's integers are small: by hand */
	for (const char *p = s + (*s == '-'); *p; p++)
		o.i = o.i * 10 + (*p - '0');
	if (*s == '-')
		o.i = -o.i;
	o.f = (double)o.i;
	return o;
}

/* "a, b, c" of operand texts into a new array; how many. */
int
gb_list(G *g, const char *list, Operand **out)
{
	Operand ops[MAXRANK + 8];
	char one[32];
	int n = 0;

	*out = NULL;
	while (*list) {
		size_t k = strcspn(list, ",");
		if (k >= sizeof one || n == (int)(sizeof ops / sizeof *ops)) {
			broken(g);
			break;
		}
		memcpy(one, list, k);
		one[k] = 0;
		ops[n++] = gb_opnd(g, one);
		list += k;
		while (*list == ',' || *list == ' ')
			list++;
	}
	if (n) {
		*out = arena_alloc(bld(g)->p->arena, (size_t)n * sizeof **out);
		memcpy(*out, ops, (size_t)n * sizeof **out);
	}
	return n;
}

/* ---- ops and blocks */

Op *
gb_op(G *g, OpKind k, int nres, const char *const *names,
      Type *const *types, int nargs)
{
	Builder *B = bld(g);
	Arena *a = B->p->arena;
	Op *op = arena_alloc(a, sizeof *op);
	Block *b = g->blk;

	op->kind = k;
	op->loc = next_loc(g);
	op->parent = b;
	op->index = b->nops;
	op->nargs = nargs;
	if (nargs)
		op->args = arena_alloc(a, (size_t)nargs * sizeof *op->args);
	op->nres = nres;
	if (nres)
		op->res = arena_alloc(a, (size_t)nres * sizeof *op->res);
	for (int i = 0; i < nres; i++) {
		Value *v = build_value(B, names[i], types[i]);
		v->def = op;
		v->resno = i;
		v->loc = op->loc;
		op->res[i] = v;
		named(g, v);
	}
	VEC_PUSH(a, b->ops, b->nops, g->blkcap, op);
	return op;
}

/* `%res = KIND args... [into %dest] : type` (res NULL: no result; a
 * compare's result is an i1). */
Op *
gb_basic(G *g, OpKind k, const GV *res, const GV *type,
	 const char *const *args, int nargs, const char *dest)
{
	Type *t = type ? gb_type(g, type) : NULL;
	Type *rt = op_info[k].form == F_CMP ? gb_scalar(g, DT_I1) : t;
	const char *name = res ? res->name : NULL;
	Op *op = gb_op(g, k, res ? 1 : 0, &name, &rt, nargs);

	op->type = t;
	for (int i = 0; i < nargs; i++)
		op->args[i] = gb_opnd(g, args[i]);
	if (dest) {
		op->hasdest = true;
		op->dest = gb_opnd(g, dest);
	}
	return op;
}

/* `%res = const LIT : T` or `const dense<LIT> : T` (T res's type). */
Op *
gb_const(G *g, const GV *res, const char *lit)
{
	Op *op = gb_basic(g, OP_CONST, res, res, NULL, 0, NULL);
	Operand o = gb_opnd(g, lit);
	Arena *a = bld(g)->p->arena;

	op->cdata.n = 1;
	op->cdata.splat = !res->scalar && res->rank > 0;
	if (dtype_is_float(res->dt)) {
		op->cdata.f = arena_alloc(a, sizeof *op->cdata.f);
		op->cdata.f[0] = o.isfloat ? o.f : (double)o.i;
	} else {
		op->cdata.i = arena_alloc(a, sizeof *op->cdata.i);
		op->cdata.i[0] = o.i;
	}
	return op;
}

/* `%name = const K : index` */
Op *
gb_const_index(G *g, const char *name, int k)
{
	GV t = {"", DT_INDEX, 0, {0}, 0, true};
	char lit[16];

	fmt_snprintf(t.name, sizeof t.name, "%s", name);
	fmt_snprintf(lit, sizeof lit, "%d", k);
	return gb_const(g, &t, lit);
}

/* `%res = KIND %a, B : index` (a compare on an index). */
Op *
gb_index_cmp(G *g, OpKind k, const char *res, const char *a, const char *b)
{
	GV t = {"", DT_INDEX, 0, {0}, 0, true};

	fmt_snprintf(t.name, sizeof t.name, "%s", res);
	return gb_basic(g, k, &t, &t, (const char *[]){a, b}, 2, NULL);
}

/* transpose's permutation, reduce's dims */
void
gb_dims(G *g, Op *op, const int *dims, int n)
{
	op->perm = arena_alloc(bld(g)->p->arena, MAXRANK * sizeof *op->perm);
	memcpy(op->perm, dims, (size_t)n * sizeof *dims);
	op->nperm = (int8_t)n;
}

/* `[offs] [sizes] [strides]` */
void
gb_slice(G *g, Op *op, char offs[][24], const int *size, const int *stride,
	 int rank)
{
	Arena *a = bld(g)->p->arena;

	op->offs = arena_alloc(a, (size_t)rank * sizeof *op->offs);
	for (int d = 0; d < rank; d++)
		op->offs[d] = gb_opnd(g, offs[d]);
	op->noffs = (int8_t)rank;
	op->sizes = arena_alloc(a, 2 * MAXRANK * sizeof *op->sizes);
	op->strides = op->sizes + MAXRANK;
	for (int d = 0; d < rank; d++) {
		op->sizes[d] = size[d];
		op->strides[d] = stride[d];
	}
}

/* `%res = extract %src[idx] : DT` */
Op *
gb_extract(G *g, const GV *res, const char *src, const char *idx)
{
	Op *op = gb_basic(g, OP_EXTRACT, res, res, &src, 1, NULL);

	op->noffs = (int8_t)gb_list(g, idx, &op->offs);
	return op;
}

/* `%res = insert VAL into %dest[idx] : T` */
Op *
gb_insert(G *g, const GV *res, const char *val, const char *dest,
	  const char *idx)
{
	Op *op = gb_basic(g, OP_INSERT, res, res, &val, 1, dest);

	op->noffs = (int8_t)gb_list(g, idx, &op->offs);
	return op;
}

/* A reshape's groups as written, "[[0, 1], [2]]", kept as group sizes. */
void
gb_reassoc(G *g, Op *op, const char *grp)
{
	int n = 0;

	op->reassoc = arena_alloc(bld(g)->p->arena, MAXRANK * sizeof *op->reassoc);
	for (const char *p = grp + 1; *p; p++) {
		if (*p == '[')
			n = 1;
		else if (*p == ',' && n)
			n++;
		else if (*p == ']' && n) {
			op->reassoc[op->nreassoc++] = n;
			n = 0;
		}
	}
}

/* The types of t[0..n), an array (the `-> (...)` of a region op). */
Type **
gb_types(G *g, const GV *t, int n)
{
	Type **ts = arena_alloc(bld(g)->p->arena, (size_t)(n + 1) * sizeof *ts);

	for (int i = 0; i < n; i++)
		ts[i] = gb_type(g, &t[i]);
	return ts;
}

/* `future<T, ...>` of t[0..n) */
Type *
gb_future(G *g, const GV *t, int n)
{
	Type *f = build_type(bld(g), TY_FUTURE, DT_F32, 0, NULL);

	f->dt = 0;
	f->elems = gb_types(g, t, n);
	f->nelems = n;
	return f;
}

/* `%a, %b = await %fut` (res[0..n): the results' names) */
Op *
gb_await(G *g, const char *fut, char res[][16], int n)
{
	Value *f = gb_val(g, fut);
	const char *names[4];
	Type *none[4] = {NULL};
	Op *op;

	for (int i = 0; i < n; i++)
		names[i] = res[i];
	if (!f->type || f->type->kind != TY_FUTURE || f->type->nelems != n)
		broken(g);
	op = gb_op(g, OP_AWAIT, n, names,
		   g->sh->gb->broken ? none : f->type->elems, 1);
	op->args[0].v = f;
	return op;
}

/* `%name = async stream S -> (T, ...) {`: the op, its body entered (the
 * block before into *was). */
Op *
gb_async(G *g, const char *name, int stream, const GV *res, int n,
	 GBlock *was)
{
	Type *t = gb_future(g, res, n);
	Op *op = gb_op(g, OP_ASYNC, 1, &name, &t, 0);

	op->stream = stream;
	op->rtypes = t->elems;
	op->nrtypes = n;
	op->body = gb_region(g, op);
	*was = gb_enter(g, op->body);
	return op;
}

/* `%rs... = for %iv = LB to UB step S iter(%accs = %inits, ...) -> (T...)
 * {` with n iter args of types rt (an array the op keeps), its body
 * entered (the block before into *was); bounds[3]: LB, UB, S. */
Op *
gb_for(G *g, const char *const *rs, const char *iv, const char *const *accs,
       const char *const *inits, Type **rt, int n, const char *const *bounds,
       GBlock *was)
{
	Op *op = gb_op(g, OP_FOR, n, rs, rt, 3 + n);

	for (int i = 0; i < 3; i++)
		op->args[i] = gb_opnd(g, bounds[i]);
	for (int i = 0; i < n; i++)
		op->args[3 + i] = gb_opnd(g, inits[i]);
	op->rtypes = rt;
	op->nrtypes = n;
	op->body = gb_region(g, op);
	gb_arg(g, op->body, iv, gb_scalar(g, DT_INDEX));
	for (int i = 0; i < n; i++)
		gb_arg(g, op->body, accs[i], rt[i]);
	*was = gb_enter(g, op->body);
	return op;
}

/* A block argument of b. */
Value *
gb_arg(G *g, Block *b, const char *name, Type *t)
{
	Value *v = build_arg(bld(g), b, name, t);

	v->loc = b->loc;
	named(g, v);
	return v;
}

/* Ops go into b from now on; the block before, to go back to. */
GBlock
gb_enter(G *g, Block *b)
{
	GBlock was = {g->blk, g->blkcap};

	g->blk = b;
	g->blkcap = b->nops;
	return was;
}

void
gb_back(G *g, GBlock was)
{
	g->blk = was.blk;
	g->blkcap = was.cap;
}

/* A region of op (NULL: op's body), entered. */
Block *
gb_region(G *g, Op *op)
{
	Block *b = build_block(bld(g), op);

	b->loc = op->loc;
	return b;
}

/* The yield the parser adds to a region that writes none. */
void
gb_implicit_yield(G *g)
{
	Op *op = gb_op(g, OP_YIELD, 0, NULL, NULL, 0);

	op->args = NULL;
}

/* `yield`/`return`/`condition` of operand texts. */
Op *
gb_term(G *g, OpKind k, const char *const *args, int n)
{
	Op *op = gb_op(g, k, 0, NULL, NULL, n);

	for (int i = 0; i < n; i++)
		op->args[i] = gb_opnd(g, args[i]);
	return op;
}

/* ---- blocks of a function body (gen_cfg.c): ^bbK by K */

Block *
gb_label(G *g, int k)
{
	Arena *a = bld(g)->p->arena;
	Block *b;
	char *label;

	for (int i = g->nlabels - 1; i >= 0; i--)
		if (g->labels[i].k == k)
			return g->labels[i].b;
	b = build_block(bld(g), NULL);
	label = arena_alloc(a, 16);
	gen_name_int(label, 16, "bb", k);
	b->label = label;
	VEC_PUSH(a, g->labels, g->nlabels, g->labelcap,
		 ((GLabel){k, b}));
	return b;
}

/* ^bbK starts here: the function's next block, ops go into it. */
Block *
gb_start_label(G *g, int k)
{
	Func *f = g->fn;
	Block *b = gb_label(g, k), **nb;

	b->loc = next_loc(g);
	b->bindex = f->nblocks;
	nb = arena_alloc(bld(g)->p->arena, (size_t)(f->nblocks + 1) * sizeof *nb);
	memcpy(nb, f->blocks, (size_t)f->nblocks * sizeof *nb);
	nb[f->nblocks++] = b;
	f->blocks = nb;
	gb_enter(g, b);
	return b;
}

/* Successor k of branch op: ^bbK(names...), its operands from op->args
 * slot *at on. */
void
gb_succ(G *g, Op *op, int k, int label, char names[][16], int n, int *at)
{
	op->succ[k] = gb_label(g, label);
	op->sloc[k] = op->loc;
	op->sarg[k] = *at;
	op->nsarg[k] = n;
	for (int i = 0; i < n; i++)
		op->args[(*at)++].v = gb_val(g, names[i]);
	op->nsucc = k + 1;
}

/* ---- functions */

/* A function of g's (main or a helper), its body entered; params and
 * result types come after. */
Func *
gb_func(G *g, const char *name)
{
	Builder *B = &g->sh->gb->B;
	Func *f = build_func(B, name, NULL, 0);

	f->loc = next_loc(g);
	f->body->loc = f->loc;
	g->fn = f;
	strmap_init(&g->vals, B->p->arena);
	gb_enter(g, f->body);
	return f;
}

Value *
gb_param(G *g, const GV *t, bool readonly)
{
	Builder *B = bld(g);
	Value *v = build_param(B, t->name, gb_type(g, t));

	v->readonly = readonly;
	v->loc = g->fn->loc;
	named(g, v);
	return v;
}

/* The function g made is complete (a helper: it comes after those
 * completed before it in the text); a branch to a block never started
 * breaks it. */
void
gb_func_done(G *g, bool helper)
{
	GenBuild *gb = g->sh->gb;

	for (int i = 0; i < g->nlabels; i++)
		if (!g->labels[i].b->bindex)
			broken(g);
	if (!helper)
		return;
	if (gb->ndone == (int)(sizeof gb->done / sizeof *gb->done))
		broken(g);
	else
		gb->done[gb->ndone++] = g->fn;
}

/* ---- the whole program */

/* Value ids in the text's order of definition: params; per block its
 * arguments (a function body's first block has none), then per op its
 * results, then its regions' arguments and ops (a while's do region
 * shares its arguments). */
static void
number(Program *p, Value *v, int *n)
{
	v->id = *n;
	p->values[(*n)++] = v;
}

static void
number_block(Program *p, const Block *b, bool args, int *n)
{
	if (args)
		for (int i = 0; i < b->nargs; i++)
			number(p, b->args[i], n);
	for (int i = 0; i < b->nops; i++) {
		const Op *op = b->ops[i];
		for (int r = 0; r < op->nres; r++)
			number(p, op->res[r], n);
		if (op->body)
			number_block(p, op->body, true, n);
		if (op->orelse)
			number_block(p, op->orelse,
				     op->orelse->args != op->body->args, n);
	}
}

int
gb_init(GenBuild *gb, jmp_buf *oom)
{
	memset(gb, 0, sizeof *gb);
	if (build_init(&gb->B))
		return -1;
	gb->B.p->arena->oom = oom;
	return 0;
}

Program *
gb_finish(GenBuild *gb)
{
	Program *p = gb->B.p;
	Value **vals;
	int n = 0;

	if (gb->broken || p->nfuncs != gb->ndone + 1) {
		prog_free(p);
		return NULL;
	}
	vals = arena_alloc(p->arena, (size_t)(p->nvalues + 1) * sizeof *vals);
	/* main first, then the helpers as their text follows it */
	for (int i = 0; i < gb->ndone; i++)
		p->funcs[i + 1] = gb->done[i];
	p->values = vals;
	for (int i = 0; i < p->nfuncs; i++) {
		const Func *f = p->funcs[i];
		for (int k = 0; k < f->nparams; k++)
			number(p, f->params[k], &n);
		for (int k = 0; k < f->nblocks; k++)
			number_block(p, f->blocks[k], k > 0, &n);
	}
	if (n != p->nvalues) { /* a value outside every block */
		prog_free(p);
		return NULL;
	}
	p->arena->oom = NULL;
	return build_finish(&gb->B);
}
