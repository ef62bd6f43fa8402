/*
 * export_native.c: launches as `bufdiff native` and --confirm give them to
 * mlir-opt (docs/native.md, "Launches natively").
 *
 * One-Shot Bufferize refuses an `!async.value<tensor>` (its await is "not
 * bufferized") but bufferizes the ops inside an async.execute region and
 * the tensors the region captures.  So each tensor value of a launch goes
 * through a memref allocated before the launch; scalar values stay async
 * values:
 *
 *   %__m1 = memref.alloc() : memref<4xf32>
 *   %__g2 = async.runtime.create : !async.token          (late only)
 *   %f = async.execute [%__g2] { ...
 *     bufferization.materialize_in_destination %v in restrict writable %__m1
 *     async.yield }
 *   async.runtime.set_available %__g2 : !async.token     (late only)
 *   async.await %f : !async.token
 *   %a = bufferization.to_tensor %__m1 restrict : memref<4xf32> ...
 *
 * A future carried by a loop or a block is awaited where it is carried
 * (a legal point: before its await) and carried as its values, tensors as
 * their memrefs (`iter_args(%__3 = %__1) -> (memref<4xf32>)`): an await
 * of a carried future reads them (to_tensor), no token crosses a block
 * boundary (convert-async-to-llvm leaves async block arguments
 * unconverted); a token alone (`future<>`) is carried as an i1.
 *
 * The schedule is forced, so a native run is deterministic: `late` holds
 * each launch at a gate token made available just before the first op of
 * the launching block that uses its future (the await, or the op whose
 * region awaits), else before the block's terminator, where a launch
 * nobody awaits is drained; `sync` awaits each launch right after it is
 * made.  Both are legal executions of the exported program (a launch may
 * start at any time before it is awaited), so an output that differs from
 * the reference is MLIR's code, not the schedule.  The gates and the extra
 * awaits touch no tensor, so One-Shot's decisions on the host ops are the
 * ones it takes without them.
 */
#include <string.h>

#include "export_impl.h"

/* `memref<4x?xf32>` for tensor type t. */
static void
put_memref_type(Exporter *e, const Type *t)
{
	char buf[1024];
	const char *s = type_str(t, buf, sizeof buf);

	str_printf(e->out, "memref%s", strchr(s, '<'));
}

static bool
is_tensor(const Type *t)
{
	return t->kind == TY_TENSOR;
}

/* Is a launch value of type t passed through a memref allocated before
 * the launch (a tensor of static shape)?  Else it is an async value: a
 * scalar, or the memref of a dynamic tensor, allocated inside the launch
 * once its sizes are known. */
static bool
via_alloc(const Type *t)
{
	return is_tensor(t) && type_is_static(t);
}

/* The number of async values before value j of future type t (their
 * index among async.execute's !async.value results). */
static int
scalar_index(const Type *t, int j)
{
	int k = 0;

	for (int i = 0; i < j; i++)
		k += !via_alloc(t->elems[i]);
	return k;
}

/* `async.await %__N#k : !async.value<T>` of launch future f's async value
 * j (k: its index among them; a dynamic tensor's is its memref). */
static void
put_value_await(Exporter *e, const Value *f, int j)
{
	const Type *t = f->type;

	str_printf(e->out, "async.await %%%s%d", e->aux, e->futvals[f->id]);
	if (scalar_index(t, t->nelems) > 1)
		str_printf(e->out, "#%d", scalar_index(t, j));
	str_puts(e->out, " : !async.value<");
	ex_native_value_type(e, t->elems[j]);
	str_puts(e->out, ">");
}

/* `async.await %f : !async.token` at op's place. */
static void
put_token_await(Exporter *e, const Value *f, const Op *op)
{
	ex_ind(e);
	str_puts(e->out, "async.await ");
	ex_put_name(e, f);
	str_puts(e->out, " : !async.token");
	ex_end_line(e, op);
}

/* The MLIR type a carried future's value j of type t is: a memref for a
 * tensor, else t. */
void
ex_native_value_type(Exporter *e, const Type *t)
{
	if (is_tensor(t))
		put_memref_type(e, t);
	else
		ex_put_type(e, t);
}

/* The type of slot j of carried future type ft: its value's, or the i1
 * that stands for a token alone. */
void
ex_native_slot_type(Exporter *e, const Type *ft, int j)
{
	if (!ft->nelems)
		str_puts(e->out, "i1");
	else
		ex_native_value_type(e, ft->elems[j]);
}

/* Value j of launch future f where it is carried: its memref, or the
 * scalar awaited just before (ex_native_gates; a token alone: the i1
 * made there). */
void
ex_native_futval(Exporter *e, const Value *f, int j)
{
	if (f->type->nelems && via_alloc(f->type->elems[j]))
		str_printf(e->out, "%%%s%d", e->aux, e->futmem[f->id] + j);
	else if (e->futscal[f->id])
		str_printf(e->out, "%%%s%d", e->aux, e->futscal[f->id] + j);
	else
		ir_bug("native export: scalar %d of %%%s carried unawaited", j,
		       f->name);
}


static void
put_memref(Exporter *e, const Value *f, int j)
{
	str_printf(e->out, "%%%s%d", e->aux, e->futmem[f->id] + j);
}

void
ex_native_async(Exporter *e, const Op *op)
{
	const Value *f = op->res[0];
	int n = op->nrtypes, ns = scalar_index(f->type, n);
	Arg vals = ex_aux_new(e);

	ex_no_future(e, "async", op->loc, op->rtypes, n);
	e->futvals[f->id] = vals.aux;
	e->futmem[f->id] = e->naux + 1;
	e->naux += n;
	for (int j = 0; j < n; j++) {
		if (!via_alloc(op->rtypes[j]))
			continue;
		ex_ind(e);
		put_memref(e, f, j);
		str_puts(e->out, " = memref.alloc() : ");
		put_memref_type(e, op->rtypes[j]);
		ex_end_line(e, op);
	}
	if (e->native == NATIVE_LATE) {
		e->futgate[f->id] = ++e->naux;
		e->gateblk[f->id] = op->parent;
		e->launches[e->nlaunches++] = f;
		ex_ind(e);
		str_printf(e->out, "%%%s%d = async.runtime.create : !async.token",
			   e->aux, e->futgate[f->id]);
		ex_end_line(e, op);
	}
	ex_put_execute(e, f, vals, ns);
	if (e->native == NATIVE_LATE)
		str_printf(e->out, " [%%%s%d]", e->aux, e->futgate[f->id]);
	for (int j = 0, k = 0; j < n; j++) {
		if (via_alloc(op->rtypes[j]))
			continue;
		str_puts(e->out, k ? ", " : ns > 1 ? " -> (" : " -> ");
		str_puts(e->out, "!async.value<");
		ex_native_value_type(e, op->rtypes[j]);
		str_puts(e->out, ">");
		k++;
	}
	if (ns > 1)
		str_puts(e->out, ")");
	str_printf(e->out, " attributes {bufdiff.stream = %d : i64} {\n",
		   op->stream);
	ex_block(e, op->body);
	ex_ind(e);
	str_puts(e->out, "}");
	ex_end_line(e, op);
	if (e->native == NATIVE_SYNC)
		put_token_await(e, f, op);
}

/* `%__K = memref.alloc(%__d...) : memref<?x4xf32>` for the value a of
 * dynamic tensor type t, its sizes read by tensor.dim; K returned. */
static int
alloc_like(Exporter *e, const Op *op, Arg a, const Type *t)
{
	int dims[MAXRANK], m = 0, k;

	for (int d = 0; d < t->rank; d++) {
		if (t->dims[d] != DIM_DYN)
			continue;
		k = ++e->naux;
		ex_ind(e);
		str_printf(e->out, "%%%s%d = arith.constant %d : index", e->aux,
			   k, d);
		ex_end_line(e, op);
		dims[m] = ++e->naux;
		ex_ind(e);
		str_printf(e->out, "%%%s%d = tensor.dim ", e->aux, dims[m++]);
		ex_put_arg(e, a);
		str_printf(e->out, ", %%%s%d : ", e->aux, k);
		ex_put_type(e, t);
		ex_end_line(e, op);
	}
	k = ++e->naux;
	ex_ind(e);
	str_printf(e->out, "%%%s%d = memref.alloc(", e->aux, k);
	for (int i = 0; i < m; i++)
		str_printf(e->out, i ? ", %%%s%d" : "%%%s%d", e->aux, dims[i]);
	str_puts(e->out, ") : ");
	put_memref_type(e, t);
	ex_end_line(e, op);
	return k;
}

/* The launch's yield: each tensor into its memref (a dynamic one's made
 * here and yielded), the scalars yielded. */
void
ex_native_yield(Exporter *e, const Op *op)
{
	const Op *launch = op->parent->parent;
	const Value *f = launch->res[0];
	int n = launch->nrtypes, ns = scalar_index(f->type, n), k = 0;
	Arg *a = ex_args_new(e, n);

	if (op->nargs != n)
		ex_fail(e, op->loc, "cannot export yield: %d values for %d "
			"results", op->nargs, n);
	for (int j = 0; j < n; j++)
		a[j] = ex_lit(e, op, &op->args[j], launch->rtypes[j]->dt);
	for (int j = 0; j < n; j++) {
		const Type *t = launch->rtypes[j];
		Arg src = a[j];
		if (!is_tensor(t))
			continue;
		if (!via_alloc(t)) /* (yielded as the memref made here) */
			a[j] = (Arg){.aux = alloc_like(e, op, src, t)};
		ex_ind(e);
		str_puts(e->out, "bufferization.materialize_in_destination ");
		ex_put_arg(e, src);
		str_puts(e->out, " in restrict writable ");
		if (via_alloc(t))
			put_memref(e, f, j);
		else
			ex_put_arg(e, a[j]);
		str_puts(e->out, " : (");
		ex_put_type(e, t);
		str_puts(e->out, ", ");
		put_memref_type(e, t);
		str_puts(e->out, ") -> ()");
		ex_end_line(e, op);
	}
	ex_ind(e);
	str_puts(e->out, "async.yield");
	for (int j = 0; j < n; j++) {
		if (via_alloc(launch->rtypes[j]))
			continue;
		str_puts(e->out, k++ ? ", " : " ");
		ex_put_arg(e, a[j]);
	}
	if (ns) {
		str_puts(e->out, " : ");
		for (int j = 0, m = 0; j < n; j++)
			if (!via_alloc(launch->rtypes[j])) {
				str_puts(e->out, m++ ? ", " : "");
				ex_native_value_type(e, launch->rtypes[j]);
			}
	}
	ex_end_line(e, op);
}

/* `%a = bufferization.to_tensor %m restrict` of memref name m (the aux
 * number) for tensor type t. */
static void
put_to_tensor(Exporter *e, const Op *op, int m, const Type *t)
{
	str_printf(e->out, " = bufferization.to_tensor %%%s%d restrict : ",
		   e->aux, m);
	put_memref_type(e, t);
	if (e->ver->version >= 20) {
		str_puts(e->out, " to ");
		ex_put_type(e, t);
	}
}

/* An await of a carried future: each tensor from its memref, each
 * scalar by an identity op (ori x, x; maximumf x, x) on its value. */
static void
await_carried(Exporter *e, const Op *op, const Value *f)
{
	const Type *t = f->type;

	for (int j = 0; j < op->nres && j < t->nelems; j++) {
		const Type *tj = t->elems[j];
		int v = e->futvals[f->id] + j;
		ex_ind(e);
		ex_put_name(e, op->res[j]);
		if (is_tensor(tj)) {
			put_to_tensor(e, op, v, tj);
		} else {
			str_printf(e->out, " = %s %%%s%d, %%%s%d : ",
				   dtype_is_float(tj->dt) ? "arith.maximumf"
				   : "arith.ori", e->aux, v, e->aux, v);
			ex_put_type(e, tj);
		}
		ex_end_line(e, op);
	}
}

/* Did an await of f run before op on every path to it (an await in op's
 * block or an enclosing one, before it)?  A token awaited twice in a
 * launch's coroutine never resumes, so the second await is left out. */
static bool
awaited_before(const Op *op, const Value *f)
{
	for (const Op *at = op; at && at->parent; at = at->parent->parent) {
		const Block *b = at->parent;
		for (int i = 0; i < at->index && i < b->nops; i++)
			if (b->ops[i]->kind == OP_AWAIT && b->ops[i]->nargs &&
			    b->ops[i]->args[0].v == f)
				return true;
	}
	return false;
}

/* The token's await (but under sync, or awaited before), then each
 * value: a tensor from its memref (read only: several awaits of one
 * future read the same memref), a scalar from its async value. */
void
ex_native_await(Exporter *e, const Op *op)
{
	const Value *f = op->args[0].v;
	const Type *t = f->type;

	if (e->futsep[f->id]) { /* carried: its values, awaited already */
		await_carried(e, op, f);
		return;
	}

	/* (under sync the launch was awaited where it was made) */
	if (e->native != NATIVE_SYNC && !awaited_before(op, f))
		put_token_await(e, f, op);
	for (int j = 0; j < op->nres && j < t->nelems; j++) {
		const Type *tj = t->elems[j];
		int m = e->futmem[f->id] + j;
		if (is_tensor(tj) && !via_alloc(tj)) { /* its memref first */
			m = ++e->naux;
			ex_ind(e);
			str_printf(e->out, "%%%s%d = ", e->aux, m);
			put_value_await(e, f, j);
			ex_end_line(e, op);
		}
		ex_ind(e);
		ex_put_name(e, op->res[j]);
		if (is_tensor(tj)) {
			put_to_tensor(e, op, m, tj);
		} else {
			str_puts(e->out, " = ");
			put_value_await(e, f, j);
		}
		ex_end_line(e, op);
	}
}

static void carry_awaits(Exporter *e, const Op *op);

/* ---- the late schedule's gates */

typedef struct Use {
	const Value *f;
	bool found;
} Use;

static WalkAct
uses_future(Op *op, void *ctx)
{
	Use *u = ctx;

	for (int i = 0; i < op->nargs; i++)
		if (op->args[i].v == u->f) {
			u->found = true;
			return WALK_STOP;
		}
	return WALK_GO;
}

/* Does op, or an op inside it, take f as an operand? */
static bool
takes_future(const Op *op, const Value *f)
{
	Use u = {f, false};

	walk_op((Op *)op, uses_future, &u);
	return u.found;
}

/* Before op (the i-th of block b): open the gate of each launch of b
 * whose future op uses, and at b's terminator every gate still shut,
 * draining the launches no op of the function awaits. */
void
ex_native_gates(Exporter *e, const Block *b, int i)
{
	const Op *op = b->ops[i];
	bool term = i == b->nops - 1;

	if (!e->native)
		return;
	for (int k = 0; e->native == NATIVE_LATE && k < e->nlaunches; k++) {
		const Value *f = e->launches[k];
		Use u = {f, false};
		bool used;
		if (e->gateblk[f->id] != b || !e->futgate[f->id])
			continue; /* (not this block's, or open already) */
		used = takes_future(op, f);
		if (!term && !used)
			continue;
		ex_ind(e);
		str_printf(e->out, "async.runtime.set_available %%%s%d : "
			   "!async.token", e->aux, e->futgate[f->id]);
		ex_end_line(e, op);
		e->futgate[f->id] = 0;
		if (used)
			continue;
		/* (a use in another block of the function awaits it there) */
		walk_func(e->curfn, uses_future, &u);
		if (u.found)
			continue;
		put_token_await(e, f, op);
	}
	carry_awaits(e, op);
}

/* ---- carry points */

/* Does op pass its operand i on to a block (a for's init, a for body's
 * yield, a branch's successor operand)? */
static bool
carries(const Op *op, int i)
{
	const Op *parent = op->parent ? op->parent->parent : NULL;

	return (op->kind == OP_FOR && i >= 3) || op->kind == OP_BR ||
	       (op->kind == OP_COND_BR && i > 0) ||
	       (op->kind == OP_YIELD && parent && parent->kind == OP_FOR);
}

/* Before op: each launch future it carries is awaited (its token, unless
 * under sync or awaited before) and its scalars are taken out, so only
 * memrefs and scalars cross the block boundary. */
static void
carry_awaits(Exporter *e, const Op *op)
{
	for (int i = 0; i < op->nargs; i++) {
		const Value *f = op->args[i].v;
		const Type *t = f ? f->type : NULL;
		bool again = false;
		if (!t || t->kind != TY_FUTURE || !carries(op, i) ||
		    e->futsep[f->id] || !e->futvals[f->id])
			continue;
		for (int k = 0; k < i && !again; k++) /* (carried twice) */
			again = op->args[k].v == f && carries(op, k);
		if (again)
			continue;
		if (e->native != NATIVE_SYNC && !awaited_before(op, f)) {
			put_token_await(e, f, op);
		}
		e->futscal[f->id] = e->naux + 1;
		e->naux += ex_nvals(e, t);
		if (!t->nelems) { /* (a token alone: its stand-in) */
			ex_ind(e);
			str_printf(e->out, "%%%s%d = arith.constant true",
				   e->aux, e->futscal[f->id]);
			ex_end_line(e, op);
		}
		for (int j = 0; j < t->nelems; j++) {
			if (via_alloc(t->elems[j]))
				continue;
			ex_ind(e);
			str_printf(e->out, "%%%s%d = ", e->aux,
				   e->futscal[f->id] + j);
			put_value_await(e, f, j);
			ex_end_line(e, op);
		}
	}
}

/* ---- the entry */

static WalkAct
count_launch(Op *op, void *ctx)
{
	*(int *)ctx += op->kind == OP_ASYNC;
	return WALK_GO;
}

void
ex_native_init(Exporter *e)
{
	int n = 0, nv = e->p->nvalues + 1;

	walk_prog(e->p, count_launch, &n);
	e->futmem = arena_alloc(e->tmp, sizeof(int) * (size_t)nv);
	e->futgate = arena_alloc(e->tmp, sizeof(int) * (size_t)nv);
	e->futscal = arena_alloc(e->tmp, sizeof(int) * (size_t)nv);
	memset(e->futscal, 0, sizeof(int) * (size_t)nv);
	e->gateblk = arena_alloc(e->tmp, sizeof(Block *) * (size_t)nv);
	e->launches = arena_alloc(e->tmp, sizeof(Value *) * (size_t)(n + 1));
	memset(e->futmem, 0, sizeof(int) * (size_t)nv);
	memset(e->futgate, 0, sizeof(int) * (size_t)nv);
	memset(e->gateblk, 0, sizeof(Block *) * (size_t)nv);
}
