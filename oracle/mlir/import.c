/*
 * import.c: tensor-level MLIR in the generic op form (mlir_read.c) -> TIR
 * text (docs/import.md).  The inverse of export.c: every form the exporter
 * writes comes back as the TIR op it came from; anything else outside the
 * subset is an error at the op's location, never a guess.
 *
 * This file keeps errors, types, values, text and attributes, the table of
 * ops, functions and the module; the ops are in import_ops.c,
 * import_linalg.c and import_regions.c, what they share in import_impl.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "import_impl.h"

/* ---------------------------------------------------------------- errors */

static Loc
op_loc(Imp *I, const MOp *op, const char **file)
{
	if (op->loc.file && op->loc.line > 0) {
		*file = op->loc.file;
		return (Loc){op->loc.line, op->loc.col};
	}
	*file = I->file;
	return op->at;
}

void __attribute__((noreturn, format(printf, 3, 4)))
imp_fail(Imp *I, const MOp *op, const char *fmt, ...)
{
	va_list ap;
	const char *f = I->file;
	Loc l = op ? op_loc(I, op, &f) : (Loc){0, 0};

	va_start(ap, fmt);
	fmt_vsnprintf(I->d->msg, sizeof I->d->msg, fmt, ap);
	va_end(ap);
	I->d->loc = l;
	*I->dfile = f;
	longjmp(I->jb, 1);
}

bool
imp_same_loc(Imp *I, const MOp *x, const MOp *y)
{
	const char *fx, *fy;
	Loc a = op_loc(I, x, &fx), b = op_loc(I, y, &fy);

	return x->loc.file && y->loc.file && !strcmp(fx, fy) &&
	       a.line == b.line && a.col == b.col;
}

/* ----------------------------------------------------------------- types */

static bool
dtype_ok(const char *s, size_t n)
{
	for (int k = 0; k < DT_COUNT; k++)
		if (strlen(dtype_names[k]) == n && !strncmp(s, dtype_names[k], n))
			return true;
	return false;
}

/* A type TIR can hold: the scalar dtypes and tensor<DIMSxDT>, dims static
 * or `?`, within the element limit.  Returns rank (-1 a scalar). */
int
imp_type_check(Imp *I, const MOp *op, const char *t)
{
	const char *p;
	int rank = 0;
	double elems = 1;

	if (dtype_ok(t, strlen(t)))
		return -1;
	if (strncmp(t, "tensor<", 7))
		imp_fail(I, op, "unsupported type '%s'", t);
	p = t + 7;
	for (;;) {
		const char *q = p;
		if (*p == '?') {
			q = p + 1;
		} else {
			while (*q >= '0' && *q <= '9')
				q++;
			if (q == p || *q != 'x')
				break;
			elems *= strtod(p, NULL);
		}
		if (*q != 'x')
			imp_fail(I, op, "unsupported type '%s'", t);
		if (++rank > MAXRANK)
			imp_fail(I, op, "rank over %d in type '%s'", MAXRANK, t);
		p = q + 1;
	}
	size_t n = strlen(p);
	if (n < 2 || p[n - 1] != '>' || !dtype_ok(p, n - 1))
		imp_fail(I, op, "unsupported type '%s'", t);
	if (elems > (double)default_limits.max_elems)
		imp_fail(I, op, "shape too large in type '%s' (limit %" PRId64
			 " elements)", t, default_limits.max_elems);
	return rank;
}

/* ---------------------------------------------------------------- values */

IVal *
imp_val_find(Imp *I, const char *mlir)
{
	for (int i = I->nvals - 1; i >= 0; i--)
		if (!strcmp(I->vals[i].mlir, mlir))
			return &I->vals[i];
	return NULL;
}

IVal *
imp_val_add(Imp *I, const MOp *op, const char *mlir, const char *tir,
	const char *type)
{
	IVal v = {mlir, tir, type, NULL, -1, NULL, 0};

	if (strcmp(type, "!async.token") && strncmp(type, "!async.value<", 13))
		imp_type_check(I, op, type);
	if (I->nvals == I->cap) {
		int nc = I->cap ? 2 * I->cap : 64;
		IVal *nv = arena_alloc(I->a, nc * sizeof *nv);
		if (I->nvals)
			memcpy(nv, I->vals, I->nvals * sizeof *nv);
		I->vals = nv;
		I->cap = nc;
	}
	I->vals[I->nvals] = v;
	return &I->vals[I->nvals++];
}

/* MLIR's `%1#0` as a TIR name: `%1_0`. */
const char *
imp_tir_name(Imp *I, const char *mlir)
{
	const char *user = imp_src_name(I, mlir);
	char *s, *h;

	if (user) { /* the user's name, `%acc`; else the tool's, `%3` */
		s = arena_alloc(I->a, strlen(user) + 2);
		s[0] = '%';
		strcpy(s + 1, user);
		mlir = s;
	}
	s = arena_strdup(I->a, mlir);
	if ((h = strchr(s, '#')))
		*h = '_';
	/* mlir-opt-16 numbers the values of sibling regions alike: TIR
	 * wants one definition per name in a function */
	for (int k = 1; ; k++) {
		bool taken = false;
		for (int i = 0; i < I->nused && !taken; i++)
			taken = !strcmp(I->used[i], s);
		if (!taken)
			break;
		char buf[200];
		fmt_snprintf(buf, sizeof buf, "%s_%d", mlir, k);
		if ((h = strchr(buf, '#')))
			*h = '_';
		s = arena_strdup(I->a, buf);
	}
	VEC_PUSH(I->a, I->used, I->nused, I->capused, (const char *)s);
	return s;
}

IVal *
imp_operand(Imp *I, const MOp *op, int i)
{
	IVal *v;

	if (i < 0 || i >= op->noperands) /* i < 0: a crafted segment size */
		imp_fail(I, op, "'%s' needs more operands", op->name);
	if (!(v = imp_val_find(I, op->operands[i])))
		imp_fail(I, op, "use of undefined value %s", op->operands[i]);
	return v;
}

/* Operand i as TIR text: a literal only where the caller takes one. */
const char *
imp_arg(Imp *I, const MOp *op, int i, bool lit_ok)
{
	IVal *v = imp_operand(I, op, i);

	if (v->fut >= 0)
		imp_fail(I, op, "an async value used other than by async.await");
	if (v->cst && !lit_ok)
		imp_fail(I, op, "internal: literal %s not taken", v->tir);
	return v->tir;
}

static void
def(Imp *I, const MOp *op, int j)
{
	if (j >= op->nresults)
		imp_fail(I, op, "'%s' has too few results", op->name);
	imp_val_add(I, op, op->results[j], imp_tir_name(I, op->results[j]),
		op->restypes[j]);
}

/* ----------------------------------------------------------------- text */

void
imp_ind(Imp *I, int depth)
{
	for (int i = 0; i < depth; i++)
		str_puts(I->out, "  ");
}

/* `%r0, %r1 = ` for op's results (defining them). */
void
imp_put_results(Imp *I, const MOp *op, int depth)
{
	imp_ind(I, depth);
	for (int j = 0; j < op->nresults; j++) {
		def(I, op, j);
		str_printf(I->out, "%s%s", j ? ", " : "", I->vals[I->nvals - 1].tir);
	}
	if (op->nresults)
		str_puts(I->out, " = ");
}

void
imp_put_list(Imp *I, const MOp *op, int from, int to, bool lit_ok)
{
	for (int i = from; i < to; i++)
		str_printf(I->out, "%s%s", i > from ? ", " : "",
			   imp_arg(I, op, i, lit_ok));
}

const char *
imp_restype(Imp *I, const MOp *op)
{
	if (op->nresults < 1)
		imp_fail(I, op, "'%s' has too few results", op->name);
	return op->restypes[0];
}

void
imp_put_type_end(Imp *I, const MOp *op)
{
	str_printf(I->out, " : %s\n", imp_restype(I, op));
}

/* ----------------------------------------------------------- attributes */

int
imp_segments(Imp *I, const MOp *op, int64_t *seg, int n)
{
	const MAttr *a = mop_attr(op, "operandSegmentSizes");
	int k;

	if (!a)
		a = mop_attr(op, "operand_segment_sizes");
	if (!a || (k = mattr_ints(a, seg, n)) != n)
		imp_fail(I, op, "'%s' without its operand segments", op->name);
	return k;
}

int
imp_ints_attr(Imp *I, const MOp *op, const char *name, int64_t *out, int n)
{
	int k = mattr_ints(mop_attr(op, name), out, n);

	if (k < 0 || k > n)
		imp_fail(I, op, "'%s' needs a list attribute '%s'", op->name, name);
	return k;
}

/* Reject attributes the subset does not hold. */
void
imp_no_attr(Imp *I, const MOp *op, const char *name)
{
	if (mop_attr(op, name))
		imp_fail(I, op, "unsupported attribute '%s' on '%s'", name,
			 op->name);
}

/* ------------------------------------------------------------ functions */

static const MOp *
func_find(Imp *I, const char *name)
{
	const MBlock *b = I->top->nregions ? I->top->regions[0].blocks[0] : NULL;

	for (int i = 0; b && i < b->nops; i++) {
		const MOp *f = b->ops[i];
		const char *s = mattr_str(mop_attr(f, "sym_name"), I->a);
		if (!strcmp(f->name, "func.func") && s && !strcmp(s, name))
			return f;
	}
	return NULL;
}

static void
im_call(Imp *I, const MOp *op, int depth)
{
	const MAttr *c = mop_attr(op, "callee");

	if (!c || c->text[0] != '@' || !func_find(I, c->text + 1))
		imp_fail(I, op, "call of an unknown function");
	imp_put_results(I, op, depth);
	str_printf(I->out, "call %s(", c->text);
	imp_put_list(I, op, 0, op->noperands, false);
	str_puts(I->out, ")\n");
}

/* arith.select %c, %a, %b (an i1 condition): TIR has no select; it is the
 * `if` that yields one of the two, the same value.  One-Shot analyses both
 * alike (the result may alias either operand); what bufdiff decides for
 * the select is what it decides for the if. */
static void
im_select(Imp *I, const MOp *op, int depth)
{
	const char *t = imp_operand(I, op, 0)->type, *c, *a, *b;

	if (strcmp(t, "i1") || op->nresults != 1)
		imp_fail(I, op, "'arith.select' with a condition of type '%s'",
			 t);
	c = imp_arg(I, op, 0, false);
	a = imp_arg(I, op, 1, false);
	b = imp_arg(I, op, 2, false);
	imp_put_results(I, op, depth);
	str_printf(I->out, "if %s -> (%s) {\n", c, op->restypes[0]);
	imp_ind(I, depth + 1);
	str_printf(I->out, "yield %s\n", a);
	imp_ind(I, depth);
	str_puts(I->out, "} else {\n");
	imp_ind(I, depth + 1);
	str_printf(I->out, "yield %s\n", b);
	imp_ind(I, depth);
	str_puts(I->out, "}\n");
}

/* vector.print of a scalar: TIR's only outputs are the results, so the
 * print is dropped.  The reads that computed its operand stay (the
 * tensor.extract), and the oracle checks every read, also one of a value
 * nothing uses: a decision that makes it stale is still a fault. */
static void
im_print(Imp *I, const MOp *op, int depth)
{
	(void)depth;
	if (op->noperands > 1)
		imp_fail(I, op, "'vector.print' with %d operands", op->noperands);
	if (op->noperands)
		(void)imp_operand(I, op, 0);
}

typedef void (*ImFn)(Imp *, const MOp *, int);

static const struct {
	const char *name;
	ImFn fn;
} im_table[] = {
	{"arith.constant", im_const},
	{"arith.cmpi", im_cmp}, {"arith.cmpf", im_cmp},
	{"tensor.empty", im_empty}, {"bufferization.alloc_tensor", im_empty},
	{"tensor.extract", im_extract}, {"tensor.insert", im_extract},
	{"tensor.extract_slice", im_slice}, {"tensor.insert_slice", im_slice},
	{"tensor.cast", im_cast},
	{"tensor.from_elements", im_from_elements},
	{"tensor.collapse_shape", im_reshape},
	{"tensor.expand_shape", im_reshape},
	{"linalg.generic", im_generic}, {"linalg.map", im_map},
	{"linalg.transpose", im_transpose}, {"linalg.reduce", im_reduce},
	{"bufferization.materialize_in_destination", im_copy},
	{"scf.if", im_if}, {"scf.for", im_for},
	{"tensor.generate", im_generate}, {"tensor.yield", im_yield},
	{"arith.select", im_select}, {"vector.print", im_print},
	{"scf.yield", im_yield}, {"async.yield", im_yield},
	{"func.return", im_yield},
	{"func.call", im_call},
	{"cf.assert", im_assert},
	{"cf.br", im_branch}, {"cf.cond_br", im_branch},
	{"scf.while", im_while}, {"scf.condition", im_condition},
	{"scf.forall", im_forall},
	{"scf.forall.in_parallel", im_in_parallel},
	{"scf.foreach_thread", im_foreach_thread},
	{"scf.foreach_thread.perform_concurrently", im_in_parallel},
	{"tensor.parallel_insert_slice", im_parallel_insert},
	{"async.execute", im_async}, {"async.await", im_await},
};

static void
imp_op(Imp *I, const MOp *op, int depth)
{
	for (size_t i = 0; i < sizeof im_table / sizeof *im_table; i++)
		if (!strcmp(op->name, im_table[i].name))
			return im_table[i].fn(I, op, depth);
	if (imp_scalar_tir(op))
		return im_scalar(I, op, depth);
	if (!strncmp(op->name, "linalg.", 7) && strcmp(op->name, "linalg.yield"))
		return im_named(I, op, depth);
	imp_fail(I, op, "unsupported op '%s'", op->name);
}

void
imp_ops(Imp *I, const MBlock *b, int depth)
{
	for (int i = 0; i < b->nops; i++) {
		size_t start;

		I->prev = i ? b->ops[i - 1] : NULL;
		imp_src_comments(I, b->ops[i], depth);
		start = I->out->len;
		imp_op(I, b->ops[i], depth);
		imp_src_tag(I, b->ops[i], start);
	}
}

/* `(A, B) -> (C, D)` or `(A) -> C`: the result types, split at the top
 * level, into out (arena). */
static int
func_results(Imp *I, const MOp *f, const char **out, int max)
{
	const MAttr *a = mop_attr(f, "function_type");
	const char *p = a ? strstr(a->text, ") -> ") : NULL;
	int n = 0, nest = 0;

	if (!p)
		imp_fail(I, f, "'func.func' without a function_type");
	p += 5;
	if (*p == '(')
		p++;
	for (const char *s = p; ; p++) {
		if (*p == '<' || *p == '(')
			nest++;
		else if (*p == '>' || (*p == ')' && nest))
			nest--;
		else if ((*p == ',' && !nest) || *p == ')' || !*p) {
			while (*s == ' ')
				s++;
			if (p > s) {
				if (n == max)
					imp_fail(I, f, "too many results");
				out[n++] = arena_strndup(I->a, s, p - s);
			}
			if (*p != ',')
				break;
			s = p + 1;
		}
	}
	return n;
}

/* Arg i's attribute dictionary says bufferization.writable = false. */
static bool
arg_readonly(const MOp *f, int i)
{
	const MAttr *a = mop_attr(f, "arg_attrs");
	const char *p = a ? a->text : "";

	for (int k = 0; (p = strchr(p, '{')); k++, p++) {
		const char *e = strchr(p, '}');
		if (k == i)
			return e && strstr(p, "bufferization.writable = false") &&
			       strstr(p, "bufferization.writable = false") < e;
	}
	return false;
}

/* Argument i of block b (of function f) as a TIR value; a bad type is
 * an error at the argument's loc when it has one. */
static IVal *
func_block_arg(Imp *I, const MOp *f, const MBlock *b, int i)
{
	MOp at = *f;

	if (b->arglocs && b->arglocs[i].file)
		at.loc = b->arglocs[i];
	return imp_val_add(I, &at, b->args[i], imp_tir_name(I, b->args[i]),
			   b->argtypes[i]);
}

/* A block of the body after the entry: `^bb1(%0: T, ...):` and its ops. */
static void
imp_cfg_block(Imp *I, const MOp *f, const MBlock *b)
{
	if (!b->label)
		imp_fail(I, f, "a block without a label after the entry");
	str_printf(I->out, "%s", b->label);
	for (int i = 0, w; i < b->nargs; i += w) {
		/* a token and its values: one carried TIR future */
		w = imp_carried_width(I, f, b->argtypes, i, b->nargs);
		if (w == 1 && strcmp(b->argtypes[i], "!async.token")) {
			IVal *v = func_block_arg(I, f, b, i);
			str_printf(I->out, "%s%s: %s", i ? ", " : "(", v->tir,
				   v->type);
			continue;
		}
		str_printf(I->out, "%s%s: %s", i ? ", " : "(",
			   imp_carried_def(I, f, b->args, b->argtypes, i, w),
			   imp_carried_type(I, b->argtypes, i, w));
	}
	str_puts(I->out, b->nargs ? "):\n" : ":\n");
	imp_ops(I, b, 1);
}

/* The blocks of a function body in reverse postorder from the entry: a
 * block comes after every block that dominates it, so each value is
 * read before its uses (MLIR asks dominance, not source order).  A block
 * the entry cannot reach is an error: TIR refuses them. */
static int *
rpo(Imp *I, const MOp *f)
{
	const MRegion *r = &f->regions[0];
	int *order = arena_alloc(I->a, sizeof(int) * (size_t)r->nblocks);
	bool *seen = arena_alloc(I->a, sizeof(bool) * (size_t)r->nblocks);
	const MOp *bad;
	int n = mregion_rpo(r, I->a, order, &bad);

	if (n < 0)
		imp_fail(I, bad, "'%s' to a block that is not in the function "
			 "body", bad ? bad->name : "?");
	for (int k = 0; k < n; k++)
		seen[order[k]] = true;
	for (int k = 0; k < r->nblocks; k++)
		if (!seen[k])
			imp_fail(I, r->blocks[k]->nops ? r->blocks[k]->ops[0] : f,
				 "block %s cannot be reached from the entry "
				 "(TIR refuses unreachable blocks)",
				 r->blocks[k]->label ? r->blocks[k]->label : "?");
	return order;
}

/* A body of several blocks: each read in reverse postorder into its own
 * text, written in source order (so a round trip keeps the order). */
static void
imp_blocks(Imp *I, const MOp *f)
{
	const MRegion *r = &f->regions[0];
	int *order = rpo(I, f);
	Str *saved = I->out;

	I->parts = mem_calloc((size_t)r->nblocks, sizeof *I->parts);
	if (!I->parts)
		imp_fail(I, NULL, "out of memory");
	I->nparts = r->nblocks;
	for (int k = 0; k < r->nblocks; k++) {
		const MBlock *b = r->blocks[order[k]];
		I->out = &I->parts[order[k]];
		if (order[k])
			imp_cfg_block(I, f, b);
		else
			imp_ops(I, b, 1);
	}
	I->out = saved;
	for (int k = 0; k < r->nblocks; k++) {
		if (I->parts[k].oom)
			saved->oom = true;
		str_put(saved, I->parts[k].s ? I->parts[k].s : "", I->parts[k].len);
		str_free(&I->parts[k]);
	}
	mem_free(I->parts);
	I->parts = NULL;
	I->nparts = 0;
}

static void
imp_func(Imp *I, const MOp *f)
{
	const char *name = mattr_str(mop_attr(f, "sym_name"), I->a);
	const char *rt[64];
	int nr = func_results(I, f, rt, 64);
	const MBlock *b;
	size_t start;

	if (f->nregions != 1 || f->regions[0].nblocks == 0)
		imp_fail(I, f, "function @%s has no body", name);
	b = f->regions[0].blocks[0];
	I->func = f;
	I->nvals = 0;
	I->nused = 0;
	imp_src_func(I, f);
	imp_src_comments(I, f, 0);
	start = I->out->len;
	str_printf(I->out, "func @%s(", name);
	for (int i = 0; i < b->nargs; i++) {
		IVal *v = func_block_arg(I, f, b, i);
		str_printf(I->out, "%s%s: %s%s", i ? ", " : "", v->tir, v->type,
			   arg_readonly(f, i) ? " {readonly}" : "");
	}
	str_puts(I->out, ")");
	for (int j = 0; j < nr; j++) {
		imp_type_check(I, f, rt[j]);
		str_printf(I->out, "%s%s", j ? ", " : " -> (", rt[j]);
	}
	str_puts(I->out, nr ? ") {\n" : " {\n");
	imp_src_tag(I, f, start);
	if (f->regions[0].nblocks > 1)
		imp_blocks(I, f);
	else
		imp_ops(I, b, 1);
	str_puts(I->out, "}\n");
}

static void
calls_fn(MOp *op, void *ctx)
{
	Imp *I = ctx;
	const MAttr *c = mop_attr(op, "callee");
	const char *n;

	if (strcmp(op->name, "func.call") || !c || c->text[0] != '@')
		return;
	n = arena_strdup(I->a, c->text + 1);
	for (int i = 0; i < I->ntodo; i++)
		if (!strcmp(I->todo[i], n))
			return;
	VEC_PUSH(I->a, I->todo, I->ntodo, I->captodo, n);
}

static bool
wanted(Imp *I, const char *name)
{
	for (int i = 0; i < I->ntodo; i++)
		if (!strcmp(I->todo[i], name))
			return true;
	return false;
}

/* The functions to import: with `entry`, it and what it calls; else all. */
static void
imp_module(Imp *I, const char *entry)
{
	const MBlock *b = I->top->nregions && I->top->regions[0].nblocks ?
			  I->top->regions[0].blocks[0] : NULL;

	if (entry) {
		if (!func_find(I, entry))
			imp_fail(I, NULL, "no function @%s", entry);
		VEC_PUSH(I->a, I->todo, I->ntodo, I->captodo, entry);
		for (int i = 0; i < I->ntodo; i++) {
			const MOp *f = func_find(I, I->todo[i]);
			if (f)
				mop_walk((MOp *)f, calls_fn, I);
		}
	}
	for (int i = 0; b && i < b->nops; i++) {
		const MOp *f = b->ops[i];
		const char *s;
		if (strcmp(f->name, "func.func"))
			imp_fail(I, f, "unsupported op '%s'", f->name);
		s = mattr_str(mop_attr(f, "sym_name"), I->a);
		if (!entry || wanted(I, s))
			imp_func(I, f);
	}
}

/* a location no compound literal has to survive the longjmp for */
static const Loc noloc;

int
mlir_import(const char *text, size_t len, const char *file, const char *func,
	    Str *out, Diag *d, const char **dfile)
{
	return mlir_import_src(text, len, file, func, NULL, out, d, dfile);
}

int
mlir_import_src(const char *text, size_t len, const char *file,
		const char *func, const ImportSrc *src, Str *out, Diag *d,
		const char **dfile)
{
	Imp I = {0};
	volatile int rc = 0;

	*dfile = file;
	if (!(I.a = arena_new()))
		return diag_set(d, noloc, "out of memory");
	I.file = file;
	I.out = out;
	I.d = d;
	I.dfile = dfile;
	if (mlir_read(text, len, I.a, &I.top, d) < 0) {
		arena_free(I.a);
		return -1;
	}
	d->msg[0] = 0;
	d->loc = noloc;
	if (setjmp(I.jb)) {
		if (!d->msg[0])
			diag_set(d, noloc, "out of memory");
		rc = -1;
	} else {
		I.a->oom = &I.jb;
		imp_src_init(&I, src);
		imp_module(&I, func);
		if (out->oom)
			rc = diag_set(d, noloc, "out of memory");
	}
	for (int k = 0; k < I.nparts; k++) /* an error inside imp_blocks */
		str_free(&I.parts[k]);
	mem_free(I.parts);
	/* dfile may point into the arena: keep it alive with a copy */
	if (rc && *dfile != file) {
		static char keep[1024];
		fmt_snprintf(keep, sizeof keep, "%s", *dfile);
		*dfile = keep;
	}
	arena_free(I.a);
	return rc;
}
