/*
 * reduce_pass.c: the passes, each a source of candidate edits: expose an
 * intermediate, structural inlining (for, if, async, call; a generate
 * replaced by its captured input or a constant), ddmin over ops
 * with use-repair, unused params, halving a static dim size.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reduce_impl.h"

/* An operand as program text: "%a", "3", "0.5". */
static const char *
operand_text(const Operand *o, char *buf, size_t n)
{
	if (o->v)
		fmt_snprintf(buf, n, "%%%s", o->v->name);
	else if (!o->isfloat)
		fmt_snprintf(buf, n, "%lld", (long long)o->i);
	else if (o->f != o->f)
		fmt_snprintf(buf, n, "nan");
	else {
		fmt_snprintf(buf, n, "%.17g", o->f);
		if (!strpbrk(buf, ".eni"))
			strncat(buf, ".0", n - strlen(buf) - 1);
	}
	return buf;
}

/* Substitute each result of op by the matching operand of ops[]. */
static void
sub_results(Edit *e, const Op *op, const Operand *to, int n)
{
	char buf[96];

	for (int i = 0; i < op->nres && i < n; i++)
		edit_sub(e, op->res[i]->name, operand_text(&to[i], buf, sizeof buf));
}

static const Op *
terminator(const Block *b)
{
	return b->ops[b->nops - 1];
}

/* ------------------------------------------------ structural candidates */

/* `for` -> its inits. */
static int
try_for_inits(Red *r, const Op *op)
{
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], r->opend[op->seq]);
	sub_results(&e, op, op->args + 3, op->nargs - 3);
	return edit_try(r, &e);
}

/* Keep the ops of block b in place of the region op (its first line to
 * its last); results -> b's yielded values; iv/iter args -> `args`. */
static int
try_keep_block(Red *r, const Op *op, const Block *b, const Operand *args,
	       int nargs)
{
	const Op *y = terminator(b);
	int first = b->nops > 1 ? r->opline[b->ops[0]->seq] : r->opline[y->seq];
	char buf[96];
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], first);
	edit_drop(&e, r->opline[y->seq], r->opend[op->seq]);
	sub_results(&e, op, y->args, y->nargs);
	for (int i = 0; i < b->nargs && i < nargs; i++)
		edit_sub(&e, b->args[i]->name,
			 operand_text(&args[i], buf, sizeof buf));
	return edit_try(r, &e);
}

/* `for` -> one trip of its body (iv = lb, iter args = inits). */
static int
try_for_once(Red *r, const Op *op)
{
	Operand a[1 + 64];
	int n = 0;

	a[n++] = op->args[0];
	for (int i = 3; i < op->nargs && n < 65; i++)
		a[n++] = op->args[i];
	return try_keep_block(r, op, op->body, a, n);
}

/* `async` -> its ops in place; its awaits' results -> the yielded values. */
static int
try_async(Red *r, const Op *op)
{
	const Op *y = terminator(op->body);
	int first = op->body->nops > 1 ? r->opline[op->body->ops[0]->seq]
				       : r->opline[y->seq];
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], first);
	edit_drop(&e, r->opline[y->seq], r->opend[op->seq]);
	for (int k = 0; k < r->c->prog->nops; k++) {
		const Op *w = r->ops[k];
		if (w->kind != OP_AWAIT || w->args[0].v != op->res[0])
			continue;
		edit_drop(&e, r->opline[k], r->opend[k]);
		sub_results(&e, w, y->args, y->nargs);
	}
	return edit_try(r, &e);
}

static int
func_index(const Program *p, const Func *f)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] == f)
			return i;
	return -1;
}

static int
ncalls(const Red *r, const Func *f)
{
	int n = 0;

	for (int k = 0; k < r->c->prog->nops; k++)
		n += r->ops[k]->kind == OP_CALL && r->ops[k]->fn == f;
	return n;
}

/* A name not used in the program: "q.3". */
static void
fresh_name(Red *r, const char *base, char *buf, size_t n)
{
	do
		fmt_snprintf(buf, n, "%s.%d", base, ++r->fresh);
	while (prog_value(r->c->prog, NULL, buf));
}

/* The callee's values renamed fresh and its params -> the call's args. */
static void
callee_subs(Red *r, Edit *ce, const Op *call, const Func *f)
{
	char buf[128], name[96];

	for (int i = 0; i < f->nparams && i < call->nargs; i++)
		edit_sub(ce, f->params[i]->name,
			 operand_text(&call->args[i], buf, sizeof buf));
	for (int i = 0; i < r->c->prog->nvalues; i++) {
		const Value *v = r->c->prog->values[i];
		if (v->func != f || v->isparam)
			continue;
		fresh_name(r, v->name, name, sizeof name);
		fmt_snprintf(buf, sizeof buf, "%%%s", name);
		edit_sub(ce, v->name, buf);
	}
}

/* `call` -> the callee's body; the callee goes when this was its only
 * call. */
static int
try_call(Red *r, const Op *op)
{
	const Func *f = op->fn;
	int fi = func_index(r->c->prog, f);
	const Op *ret;
	Edit e, ce;
	Str b = {0};

	if (!f || fi < 0 || f == r->c->entry || f->nblocks > 1)
		return 0; /* a body of several blocks has no one place to go */
	if (edit_init(r, &e))
		return -1;
	ret = terminator(f->body);
	memset(&ce, 0, sizeof ce);
	callee_subs(r, &ce, op, f);
	for (int l = r->fline[fi] + 1; l < r->opline[ret->seq]; l++) {
		edit_put_subst(&b, r->lines[l], ce.subs, ce.nsubs);
		str_puts(&b, "\n");
	}
	for (int i = 0; i < op->nres && i < ret->nargs; i++) {
		Str t = {0};
		char buf[96], *to;
		edit_put_subst(&t, operand_text(&ret->args[i], buf, sizeof buf),
			       ce.subs, ce.nsubs);
		if (!(to = str_take(&t)))
			e.oom = true;
		else
			edit_sub(&e, op->res[i]->name, to);
		mem_free(to);
	}
	e.oom |= ce.oom;
	for (int i = 0; i < ce.nsubs; i++) {
		mem_free(ce.subs[i].from);
		mem_free(ce.subs[i].to);
	}
	mem_free(ce.subs);
	if (b.len && b.s[b.len - 1] == '\n')
		b.s[--b.len] = 0; /* edit_apply ends the line */
	edit_repl(&e, r->opline[op->seq], str_take(&b));
	if (ncalls(r, f) == 1)
		edit_drop(&e, r->fline[fi] > 0 && !*r->lines[r->fline[fi] - 1]
				      ? r->fline[fi] - 1 : r->fline[fi],
			  r->fend[fi]);
	return edit_try(r, &e);
}

/* Drop every function (but the entry) that nothing calls. */
static int
try_uncalled(Red *r)
{
	const Program *p = r->c->prog;
	int n = 0;
	Edit e;

	for (int i = 0; i < p->nfuncs; i++)
		n += p->funcs[i] != r->c->entry && !ncalls(r, p->funcs[i]);
	if (!n)
		return 0;
	if (edit_init(r, &e))
		return -1;
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] != r->c->entry && !ncalls(r, p->funcs[i]))
			edit_drop(&e, r->fline[i] > 0 && !*r->lines[r->fline[i] - 1]
					      ? r->fline[i] - 1 : r->fline[i],
				  r->fend[i]);
	return edit_try(r, &e);
}

/* A tensor of the generate's type it reads from outside its body (its
 * captured input), or NULL. */
static const Value *
captured_like(const Op *op)
{
	for (int i = 0; op->body && i < op->body->nops; i++) {
		const Op *u = op->body->ops[i];
		for (int a = -1; a < u->nargs; a++) {
			const Operand *x = a < 0 ? (u->hasdest ? &u->dest : NULL)
						 : &u->args[a];
			const Value *v = x ? x->v : NULL;
			if (v && type_equal(v->type, op->type) && !v->owner &&
			    (!v->def || v->def->seq < op->seq))
				return v;
		}
	}
	return NULL;
}

/* `generate` -> its captured input of its type, else (a static type) a
 * constant tensor of zeros in its place. */
static int
try_generate(Red *r, const Op *op)
{
	const Value *c = captured_like(op);
	const char *line = r->lines[r->opline[op->seq]];
	char ty[128], to[96];
	Edit e;
	Str t = {0};
	int rc;

	if (c) {
		if (edit_init(r, &e))
			return -1;
		edit_drop(&e, r->opline[op->seq], r->opend[op->seq]);
		fmt_snprintf(to, sizeof to, "%%%s", c->name);
		edit_sub(&e, op->res[0]->name, to);
		if ((rc = edit_try(r, &e)) != 0)
			return rc;
	}
	if (!type_is_static(op->type))
		return 0;
	if (edit_init(r, &e))
		return -1;
	str_put(&t, line, strspn(line, " \t"));
	str_printf(&t, "%%%s = const dense<%s> : %s", op->res[0]->name,
		   dtype_is_float(op->type->dt) ? "0.0" : "0",
		   type_str(op->type, ty, sizeof ty));
	edit_repl(&e, r->opline[op->seq], str_take(&t));
	edit_drop(&e, r->opline[op->seq] + 1, r->opend[op->seq]);
	return edit_try(r, &e);
}

/* The structural candidates for op k, until one is accepted. */
static int
try_structural(Red *r, const Op *op)
{
	int rc = 0;

	switch (op->kind) {
	case OP_FOR:
		if (!(rc = try_for_inits(r, op)))
			rc = try_for_once(r, op);
		break;
	case OP_IF:
		if (!(rc = try_keep_block(r, op, op->body, NULL, 0)) && op->orelse)
			rc = try_keep_block(r, op, op->orelse, NULL, 0);
		break;
	case OP_ASYNC:
		rc = try_async(r, op);
		break;
	case OP_CALL:
		rc = try_call(r, op);
		break;
	case OP_GENERATE:
		rc = try_generate(r, op);
		break;
	default:
		break;
	}
	return rc;
}

/* A batching tool is asked about the structural candidates of ops k on
 * in one call (red_collect_begin). */
static void
structural_ahead(Red *r, int k)
{
	if (!red_collect_begin(r))
		return;
	for (; k < r->c->prog->nops; k++)
		if (try_structural(r, r->ops[k]) < 0)
			break;
	red_collect_end(r);
}

int
red_pass_structural(Red *r)
{
	int progress = 0, rc;

	structural_ahead(r, 0);
	for (int k = 0; k < r->c->prog->nops; k++) {
		if ((rc = try_structural(r, r->ops[k])) < 0)
			return -1;
		if (rc) {
			progress = 1;
			k--; /* op k is now another op: look again */
			structural_ahead(r, k + 1);
		}
	}
	if ((rc = try_uncalled(r)) < 0)
		return -1;
	return progress || rc;
}

/* ------------------------------------------- expose an intermediate */

static void mark_live(bool *live, Op *op);

static void
mark_value(bool *live, const Value *v)
{
	if (!v)
		return;
	if (v->def)
		mark_live(live, v->def);
	if (v->owner && v->owner->parent)
		mark_live(live, v->owner->parent);
}

/* op is needed: its operands' definitions, its enclosing op, and (the
 * walk goes on inside) its regions, all of them: ddmin thins them later.
 * An op already live is done, or its walk is under way. */
static WalkAct
mark_one(Op *op, void *ctx)
{
	bool *live = ctx;

	if (live[op->seq])
		return WALK_SKIP;
	live[op->seq] = true;
	for (int i = 0; i < op->nargs; i++)
		mark_value(live, op->args[i].v);
	for (int i = 0; i < op->noffs; i++)
		mark_value(live, op->offs[i].v);
	if (op->hasdest)
		mark_value(live, op->dest.v);
	if (op->parent)
		mark_live(live, op->parent->parent);
	return WALK_GO;
}

static void
mark_live(bool *live, Op *op)
{
	if (op)
		walk_op(op, mark_one, live);
}

/* f's signature line without the params in `drop` (NULL: none), and
 * returning only `ret` (NULL: f's own results). */
static char *
signature(const Func *f, const bool *drop, const Type *ret)
{
	char ty[160];
	Str b = {0};
	int n = 0;

	str_printf(&b, "func @%s(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (drop && drop[i])
			continue;
		str_printf(&b, "%s%%%s: %s%s", n++ ? ", " : "", v->name,
			   type_str(v->type, ty, sizeof ty),
			   v->readonly ? " {readonly}" : "");
	}
	str_puts(&b, ")");
	for (int i = 0; i < (ret ? 1 : f->nrtypes); i++)
		str_printf(&b, "%s%s", i ? ", " : " -> (",
			   type_str(ret ? ret : f->rtypes[i], ty, sizeof ty));
	if (ret || f->nrtypes)
		str_puts(&b, ")");
	str_puts(&b, " {");
	return str_take(&b);
}

/* The blocks of f's body (a program built without the list has one). */
static int
nblocks(const Func *f)
{
	return f->blocks ? f->nblocks : 1;
}

static const Block *
block_at(const Func *f, int i)
{
	return f->blocks ? f->blocks[i] : f->body;
}

/* The entry returns only v; ops of the entry that v does not need go.
 * In a body of several blocks every return becomes `return %v` (v's
 * block dominates them all), and the branches stay with what they pass. */
static int
try_expose(Red *r, const Value *v)
{
	const Func *f = r->c->entry;
	int fi = func_index(r->c->prog, f);
	bool *live = mem_calloc((size_t)r->c->prog->nops + 1, sizeof *live);
	char buf[128], *sig;
	Edit e;

	if (!live || edit_init(r, &e)) {
		mem_free(live);
		return red_oom(r);
	}
	for (int b = 0; b < nblocks(f); b++) {
		Op *t = (Op *)terminator(block_at(f, b));
		if (t->kind == OP_RETURN)
			live[t->seq] = true;
		else
			mark_live(live, t);
	}
	mark_value(live, v);
	fmt_snprintf(buf, sizeof buf, "  return %%%s", v->name);
	for (int b = 0; b < nblocks(f); b++) {
		const Block *blk = block_at(f, b);
		const Op *t = terminator(blk);
		for (int i = 0; i < blk->nops; i++)
			if (!live[blk->ops[i]->seq])
				edit_drop(&e, r->opline[blk->ops[i]->seq],
					  r->opend[blk->ops[i]->seq]);
		if (t->kind == OP_RETURN)
			edit_repl(&e, r->opline[t->seq], mem_strdup(buf));
	}
	mem_free(live);
	if (!(sig = signature(f, NULL, v->type))) {
		edit_free(r, &e);
		return red_oom(r);
	}
	edit_repl(&e, r->fline[fi], sig);
	return edit_try(r, &e);
}

/* Does block b dominate every block of f that returns? */
static bool
dominates_returns(const Func *f, const Block *b)
{
	for (int i = 0; i < nblocks(f); i++) {
		const Block *x = block_at(f, i);
		if (terminator(x)->kind == OP_RETURN && !block_dominates(b, x))
			return false;
	}
	return true;
}

/* The tensor values made at the top level of the entry's block b (its
 * arguments, then its ops' results), each tried as the only result. */
static int
expose_block(Red *r, const Block *b)
{
	int rc;

	if (nblocks(r->c->entry) > 1 && !dominates_returns(r->c->entry, b))
		return 0;
	for (int i = 0; i < b->nargs; i++)
		if (b->args[i]->type->kind == TY_TENSOR &&
		    (rc = try_expose(r, b->args[i])))
			return rc;
	for (int i = 0; i < b->nops; i++) {
		const Op *op = b->ops[i];
		for (int k = 0; k < op->nres; k++)
			if (op->res[k]->type->kind == TY_TENSOR &&
			    (rc = try_expose(r, op->res[k])))
				return rc;
	}
	return 0;
}

int
red_pass_expose(Red *r)
{
	int progress = 0, rc;

	if (red_collect_begin(r)) { /* the candidates, asked in one batch */
		for (int b = 0; b < nblocks(r->c->entry); b++)
			if (expose_block(r, block_at(r->c->entry, b)) < 0)
				break;
		red_collect_end(r);
	}
	for (int b = 0; b < nblocks(r->c->entry); b++) {
		if ((rc = expose_block(r, block_at(r->c->entry, b))) < 0)
			return -1;
		if (rc) {
			progress = 1;
			b = -1; /* the body changed: start over */
		}
	}
	return progress;
}

/* ----------------------------------------- ddmin over ops, use-repair */

/* The op enclosing op, or NULL. */
static const Op *
enclosing(const Op *op)
{
	return op->parent ? op->parent->parent : NULL;
}

/* removed[k]: op k is selected or inside a selected op (seq is
 * pre-order, so enclosing ops come first). */
static void
removed_set(const Red *r, const bool *sel, bool *removed)
{
	for (int k = 0; k < r->c->prog->nops; k++) {
		const Op *up = enclosing(r->ops[k]);
		removed[k] = sel[k] || (up && removed[up->seq]);
	}
}

static bool
used_by_kept(const Red *r, const bool *removed, const Value *v)
{
	for (int k = 0; k < r->c->prog->nops; k++)
		if (!removed[k] && op_uses(r->ops[k], v))
			return true;
	return false;
}

/* A kept value of type t among the results of b's ops before op `end`
 * (the nearest first), then b's arguments; NULL if none. */
static const Value *
repair_in(const bool *removed, const Block *b, int end, const Type *t)
{
	for (int i = end - 1; i >= 0; i--) {
		const Op *o = b->ops[i];
		for (int j = 0; !removed[o->seq] && j < o->nres; j++)
			if (type_equal(o->res[j]->type, t))
				return o->res[j];
	}
	for (int i = b->nargs - 1; i >= 0; i--)
		if (type_equal(b->args[i]->type, t))
			return b->args[i];
	return NULL;
}

/* A kept value of type t in scope at op: the nearest earlier result at
 * op's level or an enclosing one, a block argument, one of a block of
 * the body that dominates op's, or a param. */
static const Value *
repair(const bool *removed, const Op *op, const Type *t)
{
	const Value *v;

	for (const Op *at = op; at; at = enclosing(at)) {
		const Block *b = at->parent;
		if ((v = repair_in(removed, b, at->index, t)))
			return v;
		if (enclosing(at))
			continue;
		for (const Block *d = b->idom; d; d = d->idom)
			if ((v = repair_in(removed, d, d->nops, t)))
				return v;
		for (int i = b->func->nparams - 1; i >= 0; i--)
			if (type_equal(b->func->params[i]->type, t))
				return b->func->params[i];
	}
	return NULL;
}

/* Substitutions for the used results of removed op k; false when one has
 * no repair (a scalar falls back to the literal 0). */
static bool
repair_op(const Red *r, const bool *removed, const Op *op, Edit *e)
{
	char buf[96];

	for (int i = 0; i < op->nres; i++) {
		const Value *v = op->res[i], *w;
		if (!used_by_kept(r, removed, v))
			continue;
		if ((w = repair(removed, op, v->type)))
			fmt_snprintf(buf, sizeof buf, "%%%s", w->name);
		else if (v->type->kind == TY_SCALAR)
			fmt_snprintf(buf, sizeof buf, dtype_is_float(v->type->dt)
					? "0.0" : "0");
		else
			return false;
		edit_sub(e, v->name, buf);
	}
	return true;
}

/* Remove the selected ops (with repairs); a selected op without repair is
 * kept.  sel is updated. */
static int
try_remove(Red *r, bool *sel, bool *removed)
{
	Edit e;
	bool again = true, any = false;

	while (again) {
		again = any = false;
		removed_set(r, sel, removed);
		if (edit_init(r, &e))
			return -1;
		for (int k = 0; k < r->c->prog->nops && !again; k++) {
			const Op *up = enclosing(r->ops[k]);
			if (!removed[k] || (up && removed[up->seq]))
				continue;
			if (!repair_op(r, removed, r->ops[k], &e)) {
				sel[k] = false;
				again = true;
				edit_free(r, &e);
				break;
			}
			edit_drop(&e, r->opline[k], r->opend[k]);
			any = true;
		}
	}
	if (!any) {
		edit_free(r, &e);
		return 0;
	}
	return edit_try(r, &e);
}

static bool
removable(const Op *op)
{
	return op_info[op->kind].form < F_YIELD; /* not a terminator */
}

/* The removable ops in seq order; their count. */
static int
units(const Red *r, int *u)
{
	int n = 0;

	for (int k = 0; k < r->c->prog->nops; k++)
		if (removable(r->ops[k]))
			u[n++] = k;
	return n;
}

/* The chunk of `size` units from unit i on, selected. */
static void
select_chunk(const Red *r, const int *u, int n, int i, int size, bool *sel)
{
	memset(sel, 0, ((size_t)r->c->prog->nops + 1) * sizeof *sel);
	for (int j = i; j < i + size && j < n; j++)
		sel[u[j]] = true;
}

/* A batching tool is asked about the round's candidates from unit i on
 * in one call (as if each were rejected: until one is accepted, those
 * are the candidates judged next). */
static void
ddmin_ahead(Red *r, const int *u, int n, int i, int size, bool *sel,
	    bool *removed)
{
	if (!red_collect_begin(r))
		return;
	for (; i < n; i += size) {
		select_chunk(r, u, n, i, size, sel);
		if (try_remove(r, sel, removed) < 0)
			break;
	}
	red_collect_end(r);
}

/* Remove chunks of `size` consecutive ops, halving size down to 1. */
int
red_pass_ddmin(Red *r)
{
	int progress = 0, n, rc = 0;
	size_t cap = (size_t)r->c->prog->nops + 1;
	int *u = mem_alloc(cap * sizeof *u);
	bool *sel = mem_alloc(cap * sizeof *sel);
	bool *removed = mem_alloc(cap * sizeof *removed);

	if (!u || !sel || !removed)
		rc = red_oom(r);
	n = rc ? 0 : units(r, u);
	for (int size = (n + 1) / 2; size >= 1 && rc >= 0; size /= 2) {
		ddmin_ahead(r, u, n, 0, size, sel, removed);
		for (int i = 0; i < n && rc >= 0;) {
			select_chunk(r, u, n, i, size, sel);
			if ((rc = try_remove(r, sel, removed)) > 0) {
				progress = 1;
				n = units(r, u); /* fewer ops now: same i */
				ddmin_ahead(r, u, n, i, size, sel, removed);
			} else {
				i += size;
			}
		}
	}
	mem_free(u);
	mem_free(sel);
	mem_free(removed);
	return rc < 0 ? -1 : progress;
}

/* ---------------------------------------------------- shrinking shapes */

/* Every static dim size > 1 in the text's tensor types, largest first. */
static int
dim_sizes(const char *text, int64_t *out, int max)
{
	int n = 0;

	for (const char *s = strstr(text, "tensor<"); s; s = strstr(s, "tensor<")) {
		s += 7;
		for (;;) {
			char *end;
			int64_t d = -1;
			bool seen = false;
			if (*s >= '0' && *s <= '9')
				d = strtoll(s, &end, 10);
			else if (*s == '?')
				end = (char *)s + 1;
			else
				break;
			for (int i = 0; i < n; i++)
				seen |= out[i] == d;
			if (d > 1 && !seen && n < max)
				out[n++] = d;
			s = end;
			if (*s != 'x')
				break;
			s++;
		}
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j] > out[j - 1]; j--) {
			int64_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* The text with every dim D in tensor types halved. */
static char *
halve_text(const char *text, int64_t D)
{
	Str b = {0};

	for (const char *s = text; *s;) {
		const char *t = strstr(s, "tensor<");
		if (!t) {
			str_puts(&b, s);
			break;
		}
		str_put(&b, s, (size_t)(t + 7 - s));
		s = t + 7;
		for (;;) {
			const char *q = s;
			while (*q >= '0' && *q <= '9')
				q++;
			if (q == s && *q == '?')
				q++;
			if (q == s || *q != 'x')
				break;
			if (*s != '?' && strtoll(s, NULL, 10) == D)
				str_printf(&b, "%lldx", (long long)(D / 2));
			else
				str_put(&b, s, (size_t)(q + 1 - s));
			s = q + 1;
		}
	}
	return str_take(&b);
}

/* The leading sub-block of t where its type ty has dim D: D/2 there. */
static Tensor *
sub_block(const Tensor *t, const Type *ty, int64_t D)
{
	int64_t nd[MAXRANK], idx[MAXRANK];
	size_t es = dtype_size(t->dt);
	Tensor *n;

	for (int k = 0; k < t->rank; k++)
		nd[k] = ty->dims[k] == D ? D / 2 : t->dims[k];
	if (!(n = tensor_new(t->dt, t->rank, nd)))
		return NULL;
	for (int64_t j = 0; j < n->n; j++) {
		int64_t rem = j, src = 0;
		for (int k = t->rank - 1; k >= 0; k--) {
			idx[k] = nd[k] ? rem % nd[k] : 0;
			rem = nd[k] ? rem / nd[k] : 0;
		}
		for (int k = 0; k < t->rank; k++)
			src = src * t->dims[k] + idx[k];
		memcpy((char *)n->data + j * es, (const char *)t->data + src * es, es);
	}
	return n;
}

/* The inputs with every param dim D halved (leading sub-blocks). */
static char *
halve_inputs(const Red *r, int64_t D)
{
	const Func *f = r->c->entry;
	Str b = {0};

	for (int i = 0; i < f->nparams; i++) {
		const Type *ty = f->params[i]->type;
		Tensor *t = ty->kind == TY_TENSOR
				? sub_block(r->c->inputs[i], ty, D) : NULL;
		if (ty->kind == TY_TENSOR && !t) {
			str_free(&b);
			return NULL;
		}
		str_printf(&b, "  %s: ", f->params[i]->name);
		emit_data(&b, t ? t : r->c->inputs[i], ty);
		str_puts(&b, "\n");
		tensor_free(t);
	}
	return str_take(&b);
}

int
red_pass_shapes(Red *r)
{
	int64_t dims[64];
	int n = dim_sizes(r->text, dims, 64), progress = 0, rc = 0;

	for (int i = 0; i < n && rc >= 0; i++) {
		char *text = halve_text(r->text, dims[i]);
		char *in = halve_inputs(r, dims[i]);
		rc = text && in ? red_try_candidate(r, text, in) : red_oom(r);
		mem_free(text);
		mem_free(in);
		if (rc > 0) {
			progress = 1;
			n = dim_sizes(r->text, dims, 64);
			i = -1;
		}
	}
	return rc < 0 ? -1 : progress;
}

/* ----------------------------------------------------- unused params */

static bool
param_used(const Red *r, const Value *v)
{
	for (int k = 0; k < r->c->prog->nops; k++)
		if (op_uses(r->ops[k], v))
			return true;
	return false;
}

/* Drop the entry's unused params (and their inputs), all at once. */
int
red_pass_params(Red *r)
{
	const Func *f = r->c->entry;
	bool *drop = mem_calloc((size_t)f->nparams + 1, sizeof *drop);
	int fi = func_index(r->c->prog, f), n = 0, rc;
	Str in = {0};
	char *inputs, *text;
	Edit e;

	if (!drop)
		return red_oom(r);
	for (int i = 0; i < f->nparams; i++) {
		n += drop[i] = !param_used(r, f->params[i]);
		if (drop[i])
			continue;
		str_printf(&in, "  %s: ", f->params[i]->name);
		emit_data(&in, r->c->inputs[i], f->params[i]->type);
		str_puts(&in, "\n");
	}
	inputs = str_take(&in);
	if (!n || !inputs || edit_init(r, &e)) {
		mem_free(drop);
		mem_free(inputs);
		return n && inputs ? -1 : n ? red_oom(r) : 0;
	}
	edit_repl(&e, r->fline[fi], signature(f, drop, NULL));
	mem_free(drop);
	text = e.oom ? NULL : edit_apply(r, &e);
	edit_free(r, &e);
	rc = text ? red_try_candidate(r, text, inputs) : red_oom(r);
	mem_free(text);
	mem_free(inputs);
	return rc;
}
