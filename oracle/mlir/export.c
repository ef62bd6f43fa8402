/*
 * export.c: a Program as MLIR text (func, arith, math, tensor, linalg,
 * scf, async, bufferization) for mlir-opt 16, 19 and 22, with a side table
 * (ExportMap) from each emitted op's operands and results back to TIR
 * values.  docs/mlir.md has the mapping op by op.
 *
 * One exporter; what differs between versions is a row of `versions`.
 * Every op, the constants made for literals too, carries
 * loc("FILE":LINE:COL) of its TIR op.  TIR value names are kept when MLIR
 * accepts them; names the exporter makes up start with a prefix no TIR
 * name of the program starts with, so they never clash.
 *
 * This file keeps the exporter's text and map helpers, functions and the
 * driver; the ops are in export_ops.c and export_regions.c, what the three
 * share in export_impl.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "export_impl.h"

static const MlirVersion versions[] = {
	/* 16: no materialize_in_destination (copy is a linalg.generic);
	 * returning a new tensor needs allow-return-allocs */
	{16, false, "allow-return-allocs", false},
	{19, true, "allow-return-allocs-from-loops", true},
	{22, true, "allow-return-allocs-from-loops", true},
};

const MlirVersion *
mlir_version(int n)
{
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
		if (versions[i].version == n)
			return &versions[i];
	return NULL;
}

static const Loc noloc = {0, 0}; /* out of memory has no place */

_Noreturn void
ex_fail(Exporter *e, Loc loc, const char *fmt, ...)
{
	va_list ap;

	e->d->loc = loc;
	va_start(ap, fmt);
	fmt_vsnprintf(e->d->msg, sizeof e->d->msg, fmt, ap);
	va_end(ap);
	longjmp(e->jb, EX_FAIL);
}

/* ------------------------------------------------------------ text */

void
ex_ind(Exporter *e)
{
	str_printf(e->out, "%*s", 2 * e->depth, "");
}

/* The file name as an MLIR string literal body. */
static void
put_file(Exporter *e)
{
	for (const unsigned char *s = (const unsigned char *)e->file; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_printf(e->out, "\\%c", *s);
		else if (*s < 0x20 || *s >= 0x7f)
			str_printf(e->out, "\\%02X", *s);
		else
			str_put(e->out, (const char *)s, 1);
	}
}

static void
put_loc(Exporter *e, Loc l)
{
	str_puts(e->out, " loc(\"");
	put_file(e);
	str_printf(e->out, "\":%d:%d)", l.line, l.col);
}

/* ` loc(...)` and the end of the line */
void
ex_end_line(Exporter *e, const Op *op)
{
	put_loc(e, op->loc);
	str_puts(e->out, "\n");
}

/* MLIR's suffix-id: all digits, or [a-zA-Z$._-][a-zA-Z$._0-9-]*; TIR
 * allows more (a digit followed by letters). */
static bool
mlir_name_ok(const char *s)
{
	bool digits = true;

	for (const char *c = s; *c; c++)
		digits &= *c >= '0' && *c <= '9';
	return *s && (digits || !(*s >= '0' && *s <= '9'));
}

void
ex_put_name(Exporter *e, const Value *v)
{
	if (mlir_name_ok(v->name))
		str_printf(e->out, "%%%s", v->name);
	else
		str_printf(e->out, "%%%sv%s", e->aux, v->name);
}

/* `^label` of a function body's block (labels take the same suffix-ids
 * as values; a TIR label MLIR refuses gets the made-up prefix and `b`) */
void
ex_put_label(Exporter *e, const Block *b)
{
	if (mlir_name_ok(b->label))
		str_printf(e->out, "^%s", b->label);
	else
		str_printf(e->out, "^%sb%s", e->aux, b->label);
}

/* `@name`, or `@"name"` when it is no MLIR bare-id ([a-zA-Z_][a-zA-Z0-9_$.]*) */
void
ex_put_sym(Exporter *e, const char *name)
{
	bool bare = (*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z') || *name == '_';

	for (const char *c = name; *c; c++)
		bare &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_$.", *c);
	str_printf(e->out, bare ? "@%s" : "@\"%s\"", name);
}

void
ex_put_arg(Exporter *e, Arg a)
{
	if (a.v && a.fj)
		ex_put_futval(e, a.v, a.fj - 1);
	else if (a.v)
		ex_put_name(e, a.v);
	else
		str_printf(e->out, "%%%s%d", e->aux, a.aux);
}

void
ex_put_args(Exporter *e, const Arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_arg(e, a[i]);
	}
}

/* A future is its token and one !async.value per value, in that order
 * (as async.execute's results): `!async.token, !async.value<T>`. */
void
ex_put_type(Exporter *e, const Type *t)
{
	char buf[1024];

	if (t->kind != TY_FUTURE) {
		str_puts(e->out, type_str(t, buf, sizeof buf));
		return;
	}
	if (e->native) { /* carried: its values, tensors as memrefs */
		for (int j = 0; j < ex_nvals(e, t); j++) {
			str_puts(e->out, j ? ", " : "");
			ex_native_slot_type(e, t, j);
		}
		return;
	}
	str_puts(e->out, "!async.token");
	for (int j = 0; j < t->nelems; j++) {
		str_puts(e->out, ", !async.value<");
		ex_put_type(e, t->elems[j]);
		str_puts(e->out, ">");
	}
}

/* How many MLIR values stand for one of type t (natively a carried
 * future is its values alone, export_native.c). */
int
ex_width(const Exporter *e, const Type *t)
{
	return t->kind != TY_FUTURE ? 1 : e->native ? ex_nvals(e, t) : 1 + t->nelems;
}

/* The values future type t is carried as: its own, natively one i1 for a
 * token alone (a stand-in: the token is awaited where it is carried). */
int
ex_nvals(const Exporter *e, const Type *t)
{
	return e->native && !t->nelems ? 1 : t->nelems;
}

/* The Arg.fj of slot j of a future: natively there is no token slot. */
int
ex_slot_fj(const Exporter *e, int j)
{
	return e->native ? j + 1 : j;
}

void
ex_put_types(Exporter *e, Type *const *t, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_type(e, t[i]);
	}
}

void
ex_put_ints64(Exporter *e, const int64_t *v, int n)
{
	str_puts(e->out, "[");
	for (int i = 0; i < n; i++)
		str_printf(e->out, i ? ", %lld" : "%lld", (long long)v[i]);
	str_puts(e->out, "]");
}

/* `-> T`, `-> (T, U)`, or nothing for no types. */
void
ex_put_arrow(Exporter *e, Type *const *t, int n)
{
	int w = 0;

	for (int i = 0; i < n; i++)
		w += ex_width(e, t[i]);
	if (!n)
		return;
	str_puts(e->out, w == 1 ? " -> " : " -> (");
	ex_put_types(e, t, n);
	if (w > 1)
		str_puts(e->out, ")");
}

/* `%a, %b = ` for op's results (nothing when it has none) */
void
ex_put_results(Exporter *e, const Op *op)
{
	for (int i = 0; i < op->nres; i++) {
		if (i)
			str_puts(e->out, ", ");
		ex_put_slots(e, op->res[i]);
	}
	if (op->nres)
		str_puts(e->out, " = ");
}

/* A float as MLIR reads it: the shortest `D.DDDe+XX` that reads back to
 * the same value in the dtype; NaN and infinities as hex bits. */
void
ex_put_float(Exporter *e, double f, DType dt)
{
	char buf[64];
	int prec;

	if (!isfinite(f)) {
		if (dt == DT_F32) {
			float x = (float)f;
			uint32_t u;
			memcpy(&u, &x, 4);
			str_printf(e->out, "0x%08X", u);
		} else {
			uint64_t u;
			memcpy(&u, &f, 8);
			str_printf(e->out, "0x%016llX", (unsigned long long)u);
		}
		return;
	}
	for (prec = 2; prec < 17; prec++) {
		fmt_snprintf(buf, sizeof buf, "%.*e", prec - 1, f);
		if (dt == DT_F32 ? (float)strtod(buf, NULL) == (float)f
				 : strtod(buf, NULL) == f)
			break;
	}
	str_puts(e->out, buf);
}

void
ex_put_scalar(Exporter *e, DType dt, bool isfloat, double f, int64_t i)
{
	if (dtype_is_float(dt))
		ex_put_float(e, isfloat ? f : (double)i, dt);
	else if (dt == DT_I1)
		str_puts(e->out, i ? "true" : "false");
	else
		str_printf(e->out, "%lld", (long long)i);
}

/* --------------------------------------------------------- the map */

/* "OP-ADDRESS MLIR-NAME": export_find's key (an answer names 10^5 ops). */
static bool
op_key(const Op *op, const char *mlir, char *buf, size_t n)
{
	return fmt_snprintf(buf, n, "%lx %s", (unsigned long)(uintptr_t)op,
			    mlir) < (int)n;
}

static void
index_op(Exporter *e, const ExportOp *x, int i)
{
	char key[128];

	if (!e->map->index.cap)
		strmap_init(&e->map->index, e->a);
	if (op_key(x->op, x->mlir, key, sizeof key))
		strmap_add(&e->map->index, arena_strdup(e->a, key), i);
}

/* Record one emitted op: its MLIR operands (in MLIR's order), which
 * operand each result may reuse, and its results as TIR values. */
void
ex_rec(Exporter *e, const Op *op, const char *mlir, const Arg *ops, int nops,
    const int *tied, Value *const *res, int nres)
{
	ExportOp *x;

	if (!e->map)
		return;
	if (e->map->nops == e->mapcap) {
		int nc = e->mapcap ? 2 * e->mapcap : 16;
		ExportOp *n = arena_alloc(e->a, sizeof *n * (size_t)nc);
		if (e->map->nops)
			memcpy(n, e->map->ops, sizeof *n * (size_t)e->map->nops);
		e->map->ops = n;
		e->mapcap = nc;
	}
	x = &e->map->ops[e->map->nops++];
	x->op = op;
	x->mlir = mlir;
	index_op(e, x, e->map->nops - 1);
	x->noperands = nops;
	x->operands = arena_alloc(e->a, sizeof *x->operands * (size_t)(nops + 1));
	for (int i = 0; i < nops; i++)
		x->operands[i] = (Value *)(ops[i].v ? ops[i].v : ops[i].src);
	x->nresults = nres;
	x->arg = -1;
	x->tied = arena_alloc(e->a, sizeof *x->tied * (size_t)(nres + 1));
	x->results = arena_alloc(e->a, sizeof *x->results * (size_t)(nres + 1));
	for (int j = 0; j < nres; j++) {
		x->tied[j] = tied ? tied[j] : -1;
		x->results[j] = res ? res[j] : NULL;
	}
}

const ExportOp *
export_find(const ExportMap *m, const Op *op, const char *mlir)
{
	char key[128];

	if (m && m->index.n && op_key(op, mlir, key, sizeof key)) {
		int i = strmap_get(&m->index, key);
		return i < 0 ? NULL : &m->ops[i];
	}
	for (int i = 0; m && i < m->nops; i++)
		if (m->ops[i].op == op && !strcmp(m->ops[i].mlir, mlir))
			return &m->ops[i];
	return NULL;
}

/* ------------------------------------------------------- operands */

Arg
ex_arg_of(const Value *v)
{
	Arg a = {v, 0, NULL, 0};

	return a;
}

/* ------------------------------------------------ carried futures */

/* Value j of future f: `%_N#j` of its async.execute, or `%_N+j` when it
 * is carried (an iter arg, a loop result, a block argument). */
void
ex_put_futval(Exporter *e, const Value *f, int j)
{
	int n = f->type->nelems;

	if (e->native && !e->futsep[f->id]) {
		ex_native_futval(e, f, j);
		return;
	}
	if (e->futsep[f->id])
		str_printf(e->out, "%%%s%d", e->aux, e->futvals[f->id] + j);
	else if (n > 1)
		str_printf(e->out, "%%%s%d#%d", e->aux, e->futvals[f->id], j);
	else
		str_printf(e->out, "%%%s%d", e->aux, e->futvals[f->id]);
}

/* Names for the values of carried future f: one each (block arguments
 * and results of scf.for are named one by one). */
void
ex_carry_names(Exporter *e, const Value *f)
{
	if (f->type->kind != TY_FUTURE || e->futvals[f->id])
		return;
	e->futvals[f->id] = e->naux + 1;
	e->futsep[f->id] = true;
	e->naux += ex_nvals(e, f->type);
}

/* `%f, %_N` for a future (its token and values; natively its values),
 * else `%v`. */
void
ex_put_slots(Exporter *e, const Value *v)
{
	if (v->type->kind != TY_FUTURE) {
		ex_put_name(e, v);
		return;
	}
	ex_carry_names(e, v);
	if (!e->native)
		ex_put_name(e, v);
	for (int j = 0; j < ex_nvals(e, v->type); j++) {
		str_puts(e->out, j || !e->native ? ", " : "");
		ex_put_futval(e, v, j);
	}
}

/* An operand that may be a carried future (for's inits and yield, a
 * branch's successor operands): the future itself, else ex_lit. */
Arg
ex_carried(Exporter *e, const Op *op, const Operand *o, DType dt)
{
	if (o->v && o->v->type->kind == TY_FUTURE) {
		if (o->v->type->nelems && !e->futvals[o->v->id])
			ex_fail(e, o->loc, "cannot export %s: future %%%s of "
				"no async in scope", op_info[op->kind].name,
				o->v->name);
		return ex_arg_of(o->v);
	}
	return ex_lit(e, op, o, dt);
}

/* MLIR operands of n args: a future is its token then its values. */
Arg *
ex_slots(Exporter *e, const Arg *a, int n, int *nout)
{
	int w = 0, k = 0;
	Arg *s;

	for (int i = 0; i < n; i++)
		w += a[i].v ? ex_width(e, a[i].v->type) : 1;
	s = ex_args_new(e, w);
	for (int i = 0; i < n; i++) {
		int wi = a[i].v ? ex_width(e, a[i].v->type) : 1;
		for (int j = 0; j < wi; j++) {
			s[k] = a[i];
			s[k++].fj = a[i].v && a[i].v->type->kind == TY_FUTURE
				    ? ex_slot_fj(e, j) : j;
		}
	}
	*nout = w;
	return s;
}

Arg
ex_aux_new(Exporter *e)
{
	Arg a = {NULL, ++e->naux, NULL, 0};

	return a;
}

/* `%_N = arith.constant LIT : T` for a literal (the op's loc), or the
 * value itself. */
Arg
ex_lit(Exporter *e, const Op *op, const Operand *o, DType dt)
{
	Arg a;

	if (o->v) {
		if (o->v->type->kind == TY_FUTURE)
			ex_fail(e, o->loc, "cannot export %s: future %%%s used "
				"other than by await", op_info[op->kind].name,
				o->v->name);
		return ex_arg_of(o->v);
	}
	a = ex_aux_new(e);
	ex_ind(e);
	ex_put_arg(e, a);
	str_puts(e->out, " = arith.constant ");
	ex_put_scalar(e, dt, o->isfloat, o->f, o->i);
	if (dt != DT_I1) /* `true` and `false` are typed already */
		str_printf(e->out, " : %s", dtype_names[dt]);
	ex_end_line(e, op);
	return a;
}

Arg *
ex_args_new(Exporter *e, int n)
{
	return arena_alloc(e->tmp, sizeof(Arg) * (size_t)(n + 1));
}

/* The MLIR type of an operand: its value's type, or the literal's dtype. */
void
ex_put_arg_type(Exporter *e, const Operand *o, DType dt)
{
	if (o->v)
		ex_put_type(e, o->v->type);
	else
		str_puts(e->out, dtype_names[dt]);
}

/* ----------------------------------------------- functions, driver */

void
ex_op(Exporter *e, const Op *op)
{
	switch (op_info[op->kind].form) {
	case F_CONST: ex_const(e, op); break;
	case F_EMPTY: ex_empty(e, op); break;
	case F_BINARY: case F_UNARY: ex_elementwise(e, op); break;
	case F_CMP: ex_cmp(e, op); break;
	case F_FILL: ex_dps(e, op, "linalg.fill", 1); break;
	case F_MATMUL: ex_dps(e, op, "linalg.matmul", 2); break;
	case F_TRANSPOSE: ex_transpose(e, op); break;
	case F_REDUCE: ex_reduce(e, op); break;
	case F_EXTRACT_SLICE: ex_extract_slice(e, op); break;
	case F_INSERT_SLICE: ex_insert_slice(e, op); break;
	case F_EXTRACT: ex_element(e, op, false); break;
	case F_INSERT: ex_element(e, op, true); break;
	case F_COPY: ex_copy(e, op); break;
	case F_CLONE: ex_clone(e, op); break;
	case F_CALL: ex_call(e, op); break;
	case F_IF: ex_if(e, op); break;
	case F_FOR: ex_for(e, op); break;
	case F_ASYNC: ex_async(e, op); break;
	case F_AWAIT: ex_await(e, op); break;
	case F_FROM_ELEMENTS: ex_from_elements(e, op); break;
	case F_WHILE: ex_while(e, op); break;
	case F_CONDITION: ex_condition(e, op); break;
	case F_ASSERT: ex_assert(e, op); break;
	case F_RESHAPE: ex_reshape(e, op); break;
	case F_YIELD: case F_RETURN: ex_term(e, op); break;
	case F_FORALL: ex_forall(e, op); break;
	case F_PARALLEL_INSERT: ex_pinsert(e, op); break;
	case F_BR: case F_COND_BR: ex_branch(e, op); break;
	case F_SELECT: ex_select(e, op); break;
	case F_GENERATE: ex_generate(e, op); break;
	}
}

void
ex_block(Exporter *e, const Block *b)
{
	e->depth++;
	for (int i = 0; i < b->nops; i++) {
		ex_native_gates(e, b, i);
		ex_op(e, b->ops[i]);
	}
	e->depth--;
}

static void
ex_func(Exporter *e, const Func *f)
{
	for (int i = 0; i < f->nparams; i++)
		ex_no_future(e, "func", f->params[i]->loc, &f->params[i]->type, 1);
	ex_no_future(e, "func", f->loc, f->rtypes, f->nrtypes);
	e->naux = 0;
	e->curfn = f;
	/* a block argument's future may be awaited in a block printed
	 * before it: name them all first */
	for (int k = 1; f->blocks && k < f->nblocks; k++)
		for (int i = 0; i < f->blocks[k]->nargs; i++)
			ex_carry_names(e, f->blocks[k]->args[i]);
	str_puts(e->out, "func.func ");
	ex_put_sym(e, f->name);
	str_puts(e->out, "(");
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (i)
			str_puts(e->out, ", ");
		ex_put_name(e, v);
		str_puts(e->out, ": ");
		ex_put_type(e, v->type);
		if (v->readonly && v->type->kind == TY_TENSOR)
			str_puts(e->out, " {bufferization.writable = false}");
	}
	str_puts(e->out, ")");
	ex_put_arrow(e, f->rtypes, f->nrtypes);
	str_puts(e->out, " {\n");
	ex_block(e, f->body);
	for (int k = 1; f->blocks && k < f->nblocks; k++)
		ex_cfg_block(e, f->blocks[k]);
	str_puts(e->out, "}");
	put_loc(e, f->loc);
	str_puts(e->out, "\n");
}

/* The prefix of made-up names: "_", "__", ... the first that no TIR
 * value name starts with. */
static const char *
aux_prefix(Exporter *e)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < e->p->nvalues; i++) {
		const char *name = e->p->values[i]->name;
		size_t k = strspn(name, "_");
		if (k >= n)
			n = k + 1;
	}
	s = arena_alloc(e->tmp, n + 1);
	memset(s, '_', n);
	return s;
}

static int export_prog(const Program *p, const char *file,
		       const MlirVersion *v, NativeSched sched, Str *out,
		       Arena *a, ExportMap *map, Diag *d);

int
mlir_export(const Program *p, const char *file, const MlirVersion *v,
	    Str *out, Arena *a, ExportMap *map, Diag *d)
{
	return export_prog(p, file, v, NATIVE_PLAIN, out, a, map, d);
}

int
mlir_export_native(const Program *p, const char *file, const MlirVersion *v,
		   NativeSched sched, Str *out, Diag *d)
{
	return export_prog(p, file, v, sched, out, NULL, NULL, d);
}

static int
export_prog(const Program *p, const char *file, const MlirVersion *v,
	    NativeSched sched, Str *out, Arena *a, ExportMap *map, Diag *d)
{
	Exporter e;
	jmp_buf *saved = a ? a->oom : NULL;
	Arena *tmp = arena_new();
	volatile int rc = 0;

	memset(&e, 0, sizeof e);
	e.p = p;
	e.file = file;
	e.ver = v;
	e.out = out;
	e.a = a;
	e.map = map;
	e.d = d;
	e.native = sched;
	if (map)
		memset(map, 0, sizeof *map);
	if (!(e.tmp = tmp))
		return diag_set(d, noloc, "out of memory");
	switch (setjmp(e.jb)) {
	case 0:
		e.tmp->oom = &e.jb;
		if (a)
			a->oom = &e.jb;
		e.futvals = arena_alloc(e.tmp, sizeof(int) * (size_t)(p->nvalues + 1));
		e.futsep = arena_alloc(e.tmp, sizeof(bool) * (size_t)(p->nvalues + 1));
		e.aux = aux_prefix(&e);
		if (e.native)
			ex_native_init(&e);
		for (int i = 0; i < p->nfuncs; i++) {
			if (i)
				str_puts(out, "\n");
			ex_func(&e, p->funcs[i]);
		}
		break;
	case EX_OOM:
		rc = diag_set(d, noloc, "out of memory");
		break;
	default:
		rc = -1;
		break;
	}
	if (a)
		a->oom = saved;
	arena_free(tmp);
	if (!rc && out->oom)
		rc = diag_set(d, noloc, "out of memory");
	if (rc && map)
		memset(map, 0, sizeof *map);
	return rc;
}
