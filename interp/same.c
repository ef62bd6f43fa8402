/*
 * same.c: are two programs the same, field by field?  print.c's text
 * says what a reader sees; this says what every pass sees: the values'
 * ids, names, types and definitions, each op's operands (a value by its
 * id, a literal by its bits), its attributes and regions, the blocks'
 * arguments and branches, the pre-order numbers.  Locations only when
 * asked: a program built in memory has its own.  Tests hold the parser
 * to it (parse(print(p)) is p) and whatever else makes programs.
 */
#include <math.h>
#include <stdio.h>

#include "ir.h"

typedef struct Cmp {
	bool locs;
	char *buf;
	size_t n;
	bool differ;
} Cmp;

static bool
differ(Cmp *c, const char *what, const char *where)
{
	if (!c->differ)
		fmt_snprintf(c->buf, c->n, "%s differs (%s)", what, where);
	c->differ = true;
	return false;
}

static bool
same_loc(Cmp *c, Loc a, Loc b, const char *where)
{
	return !c->locs || (a.line == b.line && a.col == b.col) ||
	       differ(c, "location", where);
}

static bool
same_type(Cmp *c, const Type *a, const Type *b, const char *where)
{
	if (!type_equal(a, b))
		return differ(c, "type", where);
	return !a || same_loc(c, a->loc, b->loc, where);
}

/* Values are compared where they are defined (same_value); a use by id. */
static bool
same_use(Cmp *c, const Value *a, const Value *b, const char *where)
{
	if (!a || !b)
		return a == b || differ(c, "value presence", where);
	return a->id == b->id || differ(c, "value used", where);
}

static bool
same_value(Cmp *c, const Value *a, const Value *b)
{
	const char *w = a->name;

	if (a->id != b->id || strcmp(a->name, b->name))
		return differ(c, "value id or name", w);
	if (a->resno != b->resno || a->readonly != b->readonly ||
	    a->isparam != b->isparam || !a->def != !b->def ||
	    !a->owner != !b->owner || (a->def && a->def->seq != b->def->seq) ||
	    a->nuses != b->nuses || strcmp(a->func->name, b->func->name))
		return differ(c, "value's definition or uses", w);
	for (int i = 0; i < a->nuses; i++)
		if (a->uses[i]->seq != b->uses[i]->seq)
			return differ(c, "value's use list", w);
	return same_type(c, a->type, b->type, w) &&
	       same_loc(c, a->loc, b->loc, w);
}

/* Floats by value and sign; any NaN is any other (text keeps no payload). */
static bool
same_float(double a, double b)
{
	return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static bool
same_literal(const Operand *a, const Operand *b)
{
	return a->isfloat == b->isfloat &&
	       (a->isfloat ? same_float(a->f, b->f) : a->i == b->i);
}

static bool
same_operands(Cmp *c, const Operand *a, const Operand *b, int n,
	      const char *where)
{
	for (int i = 0; i < n; i++) {
		if (!same_use(c, a[i].v, b[i].v, where))
			return false;
		if (!a[i].v && !same_literal(&a[i], &b[i]))
			return differ(c, "literal", where);
		if (!same_loc(c, a[i].loc, b[i].loc, where))
			return false;
	}
	return true;
}

static bool
same_ints(Cmp *c, const int64_t *a, const int64_t *b, int n, const char *where)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return differ(c, "static list", where);
	return true;
}

static bool same_block(Cmp *c, const Block *a, const Block *b);

/* The fields a form reads (ir.h, "Operand layout per form"). */
static bool
same_attrs(Cmp *c, const Op *a, const Op *b, const char *w)
{
	Form f = op_info[a->kind].form;

	if (a->noffs != b->noffs || a->nperm != b->nperm ||
	    a->nreassoc != b->nreassoc || a->stream != b->stream ||
	    a->nrtypes != b->nrtypes || !a->callee != !b->callee ||
	    (a->callee && strcmp(a->callee, b->callee)) || !a->msg != !b->msg ||
	    (a->msg && strcmp(a->msg, b->msg)))
		return differ(c, "op's attributes", w);
	if (!same_operands(c, a->offs, b->offs, a->noffs, w))
		return false;
	if ((f == F_EXTRACT_SLICE || f == F_INSERT_SLICE ||
	     f == F_PARALLEL_INSERT) &&
	    (!same_ints(c, a->sizes, b->sizes, a->noffs, w) ||
	     !same_ints(c, a->strides, b->strides, a->noffs, w)))
		return false;
	for (int i = 0; i < a->nperm; i++)
		if (a->perm[i] != b->perm[i])
			return differ(c, "dims", w);
	for (int i = 0; i < a->nreassoc; i++)
		if (a->reassoc[i] != b->reassoc[i])
			return differ(c, "reassociation", w);
	if (f == F_CONST) {
		const ConstData *x = &a->cdata, *y = &b->cdata;
		if (x->n != y->n || x->splat != y->splat || !x->f != !y->f ||
		    !x->i != !y->i)
			return differ(c, "constant", w);
		for (int64_t i = 0; i < x->n; i++)
			if ((x->f && !same_float(x->f[i], y->f[i])) ||
			    (x->i && x->i[i] != y->i[i]))
				return differ(c, "constant", w);
	}
	if (!a->fn != !b->fn || (a->fn && strcmp(a->fn->name, b->fn->name)))
		return differ(c, "callee", w);
	for (int i = 0; i < a->nrtypes; i++)
		if (!same_type(c, a->rtypes[i], b->rtypes[i], w))
			return false;
	if (a->nsucc != b->nsucc)
		return differ(c, "successors", w);
	for (int k = 0; k < a->nsucc; k++)
		if (a->sarg[k] != b->sarg[k] || a->nsarg[k] != b->nsarg[k] ||
		    a->succ[k]->bindex != b->succ[k]->bindex ||
		    !same_loc(c, a->sloc[k], b->sloc[k], w))
			return differ(c, "successor", w);
	return true;
}

static bool
same_op(Cmp *c, const Op *a, const Op *b)
{
	const char *w = op_info[a->kind].name;
	Block *ra[MAXREGIONS], *rb[MAXREGIONS];
	int n;

	if (a->kind != b->kind)
		return differ(c, "op kind", w);
	if (a->nres != b->nres || a->nargs != b->nargs ||
	    a->hasdest != b->hasdest || a->index != b->index ||
	    a->seq != b->seq || a->last != b->last)
		return differ(c, "op's shape or numbering", w);
	for (int i = 0; i < a->nres; i++)
		if (!same_value(c, a->res[i], b->res[i]))
			return false;
	if (!same_operands(c, a->args, b->args, a->nargs, w) ||
	    (a->hasdest && !same_operands(c, &a->dest, &b->dest, 1, w)) ||
	    !same_type(c, a->type, b->type, w) || !same_attrs(c, a, b, w) ||
	    !same_loc(c, a->loc, b->loc, w))
		return false;
	n = op_regions(a, ra);
	if (n != op_regions(b, rb))
		return differ(c, "regions", w);
	for (int i = 0; i < n; i++)
		if (!same_block(c, ra[i], rb[i]))
			return false;
	return true;
}

static bool
same_block(Cmp *c, const Block *a, const Block *b)
{
	const char *w = a->label ? a->label : "a block";

	if (a->nargs != b->nargs || a->nops != b->nops ||
	    a->bindex != b->bindex || !a->label != !b->label ||
	    (a->label && strcmp(a->label, b->label)) ||
	    a->npreds != b->npreds || a->reachable != b->reachable ||
	    a->exits != b->exits || !a->idom != !b->idom ||
	    (a->idom && a->idom->bindex != b->idom->bindex))
		return differ(c, "block", w);
	for (int i = 0; i < a->nargs; i++) {
		bool own = a->args[i]->owner == a;
		if (own != (b->args[i]->owner == b))
			return differ(c, "block argument's owner", w);
		if (own ? !same_value(c, a->args[i], b->args[i])
			: !same_use(c, a->args[i], b->args[i], w))
			return false;
	}
	for (int i = 0; i < a->npreds; i++)
		if (a->preds[i]->seq != b->preds[i]->seq)
			return differ(c, "block's predecessors", w);
	for (int i = 0; i < a->nops; i++)
		if (!same_op(c, a->ops[i], b->ops[i]))
			return false;
	return same_loc(c, a->loc, b->loc, w);
}

static bool
same_func(Cmp *c, const Func *a, const Func *b)
{
	if (strcmp(a->name, b->name) || a->nparams != b->nparams ||
	    a->nrtypes != b->nrtypes || a->nblocks != b->nblocks)
		return differ(c, "function", a->name);
	for (int i = 0; i < a->nparams; i++)
		if (!same_value(c, a->params[i], b->params[i]))
			return false;
	for (int i = 0; i < a->nrtypes; i++)
		if (!same_type(c, a->rtypes[i], b->rtypes[i], a->name))
			return false;
	for (int i = 0; i < a->nblocks; i++)
		if (!same_block(c, a->blocks[i], b->blocks[i]))
			return false;
	return same_loc(c, a->loc, b->loc, a->name);
}

const char *
prog_diff(const Program *a, const Program *b, bool locs, char *buf, size_t n)
{
	Cmp c = {locs, buf, n, false};

	if (a->nfuncs != b->nfuncs || a->nvalues != b->nvalues ||
	    a->nops != b->nops) {
		fmt_snprintf(buf, n, "counts differ: %d/%d functions, %d/%d "
			     "values, %d/%d ops", a->nfuncs, b->nfuncs,
			     a->nvalues, b->nvalues, a->nops, b->nops);
		return buf;
	}
	for (int i = 0; i < a->nfuncs && !c.differ; i++)
		same_func(&c, a->funcs[i], b->funcs[i]);
	/* every value is where its id says */
	for (int i = 0; i < a->nvalues && !c.differ; i++)
		if (a->values[i]->id != i || b->values[i]->id != i)
			differ(&c, "values[] order", a->values[i]->name);
	return c.differ ? buf : NULL;
}
