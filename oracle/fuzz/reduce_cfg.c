/*
 * reduce_cfg.c: the pass that removes blocks and edges of a function body
 * with several blocks (docs/reduce.md, "Blocks and branches").  Each
 * candidate is one edit of the graph, written back as text:
 *
 *   merge     a block whose only predecessor ends with `br` to it joins
 *             that block (its arguments replaced by the values passed);
 *   cond_br   -> `br` to one of its successors;
 *   argument  a block argument replaced by a value passed for it that
 *             dominates the block (the only one, when the block has one
 *             predecessor), and dropped from the label and every branch;
 *   retarget  an edge sent to another block taking values of the types
 *             it passes (or fewer of them): a back edge to the loop's
 *             exit runs the loop once.
 *
 * Blocks no longer reachable go with the edit (a value they define is used
 * only where they dominate, so nothing left uses it).  The verifier judges
 * the rest (dominance, a loop left without an exit).
 */
#include <stdio.h>

#include "reduce_impl.h"

typedef enum CfgKind { CE_MERGE, CE_COND, CE_ARG, CE_RETARGET } CfgKind;

typedef struct CfgEdit {
	CfgKind kind;
	const Func *f;
	int fi;                 /* f's index in the program */
	const Block *b;         /* merge: the block merged; cond_br, retarget:
				 * the block whose branch changes; argument:
				 * the block losing it */
	int k;                  /* cond_br: the successor kept; retarget: the
				 * edge; argument: the argument */
	const Block *to;        /* retarget: the new successor */
	const Value *v;         /* argument: its replacement */
	bool merge;             /* then merge the blocks it allows */
	const Block *only;      /* ... only this one (NULL: all) */
	int merged;             /* set by cfg_try: blocks merged */
} CfgEdit;

static const Op *
term(const Block *b)
{
	return b->nops ? b->ops[b->nops - 1] : NULL;
}

static bool
branches(const Op *t)
{
	return t && (t->kind == OP_BR || t->kind == OP_COND_BR);
}

/* ---- lines of a block */

/* The label line of a block after the entry (its first op's line is the
 * next), or -1 when the text does not have it there. */
static int
label_line(const Red *r, const Block *b)
{
	int l = b->nops ? r->opline[b->ops[0]->seq] - 1 : -1;

	return l >= 0 && r->lines[l][0] == '^' ? l : -1;
}

/* One past the block's last line (its terminator's). */
static int
block_end(const Red *r, const Block *b)
{
	return r->opend[term(b)->seq];
}

/* ---- the graph after the edit */

/* Successor k of b after the edit (NULL: none). */
static const Block *
succ_after(const CfgEdit *ce, const Block *b, int k)
{
	const Op *t = term(b);

	if (!branches(t) || k >= t->nsucc)
		return NULL;
	if (ce->b == b && ce->kind == CE_COND)
		return k == 0 ? t->succ[ce->k] : NULL;
	if (ce->b == b && ce->kind == CE_RETARGET && k == ce->k)
		return ce->to;
	return t->succ[k];
}

static void
reach_after(const CfgEdit *ce, bool *seen, const Block **stack)
{
	const Func *f = ce->f;
	int top = 0;

	memset(seen, 0, (size_t)f->nblocks * sizeof *seen);
	seen[0] = true;
	stack[top++] = f->blocks[0];
	while (top > 0) {
		const Block *b = stack[--top];
		for (int k = 0; k < 2; k++) {
			const Block *s = succ_after(ce, b, k);
			if (s && !seen[s->bindex]) {
				seen[s->bindex] = true;
				stack[top++] = s;
			}
		}
	}
}

/* ---- text */

/* The operands edge k of t passes to `to` after the edit, into out (64
 * at most); their count.  Retargeted: those of the edge's values that
 * `to`'s arguments take, in order, each once; to the block losing an
 * argument: all but that one. */
static int
edge_operands(const CfgEdit *ce, const Op *t, int k, const Block *to,
	      const Operand **out)
{
	const Operand *a = succ_args(t, k);
	bool used[64] = {0};
	int n = 0;

	if (to != t->succ[k]) { /* retargeted */
		for (int i = 0; i < to->nargs; i++)
			for (int j = 0; j < t->nsarg[k] && j < 64; j++) {
				if (used[j] || !type_equal(a[j].v->type,
							   to->args[i]->type))
					continue;
				used[j] = true;
				out[n++] = &a[j];
				break;
			}
		return n;
	}
	for (int j = 0; j < t->nsarg[k] && n < 64; j++)
		if (!(ce->kind == CE_ARG && to == ce->b && j == ce->k))
			out[n++] = &a[j];
	return n;
}

/* The edge k of b's branch after the edit (the successor it keeps, for
 * a cond_br made a br): the original successor index, or -1. */
static int
edge_src(const CfgEdit *ce, const Block *b, int k)
{
	if (ce->kind == CE_COND && ce->b == b)
		return k == 0 ? ce->k : -1;
	return k < term(b)->nsucc ? k : -1;
}

/* The branch ending b, after the edit. */
static char *
branch_text(const CfgEdit *ce, const Block *b)
{
	const Op *t = term(b);
	bool cond = t->kind == OP_COND_BR &&
		    !(ce->kind == CE_COND && ce->b == b);
	const Operand *ops[64];
	Str o = {0};

	str_puts(&o, cond ? "  cond_br " : "  br ");
	if (cond) {
		tir_put_operand(&o, &t->args[0]);
		str_puts(&o, ", ");
	}
	for (int k = 0; k < 2; k++) {
		const Block *to = succ_after(ce, b, k);
		int n;
		if (!to)
			continue;
		n = edge_operands(ce, t, edge_src(ce, b, k), to, ops);
		str_printf(&o, "%s^%s", k ? ", " : "", to->label);
		for (int i = 0; i < n; i++) {
			str_puts(&o, i ? ", " : "(");
			tir_put_operand(&o, ops[i]);
		}
		if (n)
			str_puts(&o, ")");
	}
	return str_take(&o);
}

/* b's label without argument `skip` (-1: all of them). */
static char *
label_text(const Block *b, int skip)
{
	char ty[160];
	Str o = {0};
	int n = 0;

	str_printf(&o, "^%s", b->label);
	for (int i = 0; i < b->nargs; i++) {
		if (i == skip)
			continue;
		str_printf(&o, "%s%%%s: %s", n++ ? ", " : "(", b->args[i]->name,
			   type_str(b->args[i]->type, ty, sizeof ty));
	}
	str_puts(&o, n ? "):" : ":");
	return str_take(&o);
}

/* `%from` -> `to` on the lines of function fi only (names are per
 * function), after the edit's other replacements. */
static void
sub_in_func(const Red *r, Edit *e, int fi, const char *from, const char *to)
{
	Sub s = {(char *)from, (char *)to};

	for (int l = r->fline[fi]; l < r->fend[fi]; l++) {
		const char *was = e->repl[l] ? e->repl[l] : r->lines[l];
		Str o = {0};
		edit_put_subst(&o, was, &s, 1);
		if (o.len != strlen(was) || strcmp(o.s ? o.s : "", was))
			edit_repl(e, l, str_take(&o));
		else
			str_free(&o);
	}
}

/* The lines of block b after its label, as the edit has them, as one
 * text (for the line of its only predecessor's br). */
static char *
body_text(const Red *r, const Edit *e, const Block *b)
{
	Str o = {0};
	int n = 0;

	for (int l = label_line(r, b) + 1; l < block_end(r, b); l++) {
		if (e->drop[l])
			continue;
		if (n++)
			str_puts(&o, "\n");
		str_puts(&o, e->repl[l] ? e->repl[l] : r->lines[l]);
	}
	return str_take(&o);
}

/* ---- merges: a block whose only predecessor ends with a br to it */

typedef struct Merge {
	const Block **pred;     /* by bindex: the only predecessor, or NULL */
	int *edge;              /* ... and its edge (after the edit) */
	int *npreds;
	Sub *subs;              /* argument -> value passed, innermost first */
	int nsubs;
} Merge;

/* Predecessors after the edit, over the reachable blocks. */
static void
merge_preds(const CfgEdit *ce, const bool *seen, Merge *m)
{
	const Func *f = ce->f;

	for (int i = 0; i < f->nblocks; i++)
		for (int k = 0; seen[i] && k < 2; k++) {
			const Block *s = succ_after(ce, f->blocks[i], k);
			if (!s)
				continue;
			m->npreds[s->bindex]++;
			m->pred[s->bindex] = f->blocks[i];
			m->edge[s->bindex] = k;
		}
}

/* Does b join its only predecessor, a br to it after the edit? */
static bool
mergeable(const CfgEdit *ce, const Merge *m, const Block *b)
{
	const Block *p = m->pred[b->bindex];

	return ce->merge && (!ce->only || ce->only == b) && b->bindex > 0 &&
	       m->npreds[b->bindex] == 1 && p != b && !succ_after(ce, p, 1);
}

/* b's lines in place of its predecessor's br (a block merged into b
 * first), b's arguments -> the values passed. */
static void
merge_block(const Red *r, CfgEdit *ce, Edit *e, Merge *m, const Block *b)
{
	const Block *p = m->pred[b->bindex], *s = succ_after(ce, b, 0);
	const Operand *ops[64];
	int k = m->edge[b->bindex],
	    n = edge_operands(ce, term(p), edge_src(ce, p, k), b, ops);

	if (s && !succ_after(ce, b, 1) && mergeable(ce, m, s))
		merge_block(r, ce, e, m, s);
	edit_repl(e, r->opline[term(p)->seq], body_text(r, e, b));
	edit_drop(e, label_line(r, b), block_end(r, b));
	ce->merged++;
	for (int i = 0; i < b->nargs && i < n; i++) {
		Str o = {0};
		tir_put_operand(&o, ops[i]);
		m->subs[m->nsubs].from = (char *)b->args[i]->name;
		m->subs[m->nsubs++].to = str_take(&o);
	}
}

/* Every mergeable block merged, each chain from its innermost block. */
static void
merge_all(const Red *r, CfgEdit *ce, Edit *e, Merge *m, const bool *seen)
{
	const Func *f = ce->f;

	for (int i = 1; i < f->nblocks; i++) {
		const Block *b = f->blocks[i], *p = m->pred[i];
		/* the head of a chain: its predecessor does not merge */
		if (!seen[i] || !mergeable(ce, m, b) ||
		    (p->bindex > 0 && mergeable(ce, m, p)))
			continue;
		merge_block(r, ce, e, m, b);
	}
	for (int i = 0; i < m->nsubs; i++) {
		if (!m->subs[i].to)
			e->oom = true;
		else
			sub_in_func(r, e, ce->fi, m->subs[i].from, m->subs[i].to);
	}
}

/* Apply the edit to the text (then the merges it allows) and try it. */
static int
cfg_try(Red *r, CfgEdit *ce)
{
	const Func *f = ce->f;
	size_t nb = (size_t)f->nblocks + 1, nargs = 1;
	bool *seen = mem_calloc(nb, sizeof *seen);
	const Block **stack = mem_calloc(nb, sizeof *stack);
	Merge m = {mem_calloc(nb, sizeof *m.pred), mem_calloc(nb, sizeof *m.edge),
		   mem_calloc(nb, sizeof *m.npreds), NULL, 0};
	char buf[96];
	Edit e;
	int rc = 0, lab;

	for (int i = 0; i < f->nblocks; i++)
		nargs += (size_t)f->blocks[i]->nargs;
	m.subs = mem_calloc(nargs, sizeof *m.subs);
	ce->merged = 0;

	if (!seen || !stack || !m.pred || !m.edge || !m.npreds || !m.subs ||
	    edit_init(r, &e)) {
		rc = red_oom(r);
		goto out;
	}
	reach_after(ce, seen, stack);
	for (int i = 1; i < f->nblocks && rc == 0; i++) {
		const Block *b = f->blocks[i];
		if ((lab = label_line(r, b)) < 0)
			rc = 1; /* not the canonical text: no edit */
		else if (!seen[i])
			edit_drop(&e, lab, block_end(r, b));
	}
	for (int i = 0; i < f->nblocks && rc == 0; i++) {
		const Block *b = f->blocks[i];
		const Op *t = term(b);
		bool touched = ce->b == b && (ce->kind == CE_COND ||
					      ce->kind == CE_RETARGET);
		for (int k = 0; branches(t) && k < t->nsucc; k++)
			touched |= ce->kind == CE_ARG && t->succ[k] == ce->b;
		if (seen[i] && touched)
			edit_repl(&e, r->opline[t->seq], branch_text(ce, b));
	}
	if (rc == 0 && ce->kind == CE_ARG) {
		edit_repl(&e, label_line(r, ce->b), label_text(ce->b, ce->k));
		fmt_snprintf(buf, sizeof buf, "%%%s", ce->v->name);
		sub_in_func(r, &e, ce->fi, ce->b->args[ce->k]->name, buf);
	} else if (rc == 0) {
		merge_preds(ce, seen, &m);
		merge_all(r, ce, &e, &m, seen);
	}
	if (rc == 0 && ce->merge && !ce->merged) {
		edit_free(r, &e); /* nothing to merge: tried without */
	} else if (rc == 0) {
		rc = edit_try(r, &e);
	} else {
		edit_free(r, &e);
		rc = rc < 0 ? -1 : 0;
	}
out:
	for (int i = 0; i < m.nsubs; i++)
		mem_free(m.subs[i].to);
	mem_free(m.pred);
	mem_free(m.edge);
	mem_free(m.npreds);
	mem_free(m.subs);
	mem_free(seen);
	mem_free(stack);
	return rc;
}

/* ---- the candidates */

/* Is v in scope at the start of block b (a param, or made in a block
 * that strictly dominates b)? */
static bool
visible_at(const Value *v, const Block *b)
{
	const Block *d;

	if (v->isparam)
		return true;
	d = v->def ? top_block(v->def) : v->owner;
	return d && d != b && !d->parent && block_dominates(d, b);
}

/* Does block `to` take values of the types edge k of t passes (a subset,
 * in order of its arguments)? */
static bool
takes(const Op *t, int k, const Block *to)
{
	const Operand *a = succ_args(t, k);
	bool used[64] = {0};

	if (t->nsarg[k] > 64)
		return false;
	for (int i = 0; i < to->nargs; i++) {
		int j = 0;
		while (j < t->nsarg[k] &&
		       (used[j] || !type_equal(a[j].v->type, to->args[i]->type)))
			j++;
		if (j == t->nsarg[k])
			return false;
		used[j] = true;
	}
	return true;
}

/* Was v passed to argument a of b by an edge before edge k of pred p? */
static bool
passed_before(const Block *b, int a, int p, int k, const Value *v)
{
	for (int q = 0; q <= p; q++) {
		const Op *br = b->preds[q];
		for (int j = 0; j < (q == p ? k : br->nsucc); j++)
			if (br->succ[j] == b && succ_args(br, j)[a].v == v)
				return true;
	}
	return false;
}

/* The edit with the merges it allows, then without them. */
static int
try_edit(Red *r, CfgEdit *ce)
{
	int rc;

	ce->merge = ce->kind != CE_ARG; /* an argument changes no edge */
	ce->only = NULL;
	if (!ce->merge || (rc = cfg_try(r, ce)) != 0)
		return ce->merge ? rc : cfg_try(r, ce);
	ce->merge = false;
	return cfg_try(r, ce);
}

/* The candidates of one kind in function fi, until one is accepted:
 * 1 accepted, 0 none, -1 error. */
static int
try_kind(Red *r, int fi, CfgKind kind)
{
	const Func *f = r->c->prog->funcs[fi];
	CfgEdit ce = {.kind = kind, .f = f, .fi = fi};
	int rc = 0, tried = 0;

	/* !rc first: an accepted candidate frees the program f is in */
	for (int i = 0; !rc && i < f->nblocks; i++) {
		const Block *b = f->blocks[i];
		const Op *t = term(b);
		ce.b = b;
		switch (kind) {
		case CE_MERGE: /* every block that can at once, then each */
			if (!i || b->npreds != 1 || b->preds[0]->kind != OP_BR ||
			    b->preds[0]->parent == b)
				break;
			ce.merge = true;
			if (!tried && (rc = cfg_try(r, &ce)) != 0)
				return rc;
			if (!tried++ && ce.merged == 1)
				return 0; /* that one was all there is */
			ce.only = b;
			rc = cfg_try(r, &ce);
			break;
		case CE_COND:
			for (int k = 0; !rc && t && t->kind == OP_COND_BR && k < 2; k++) {
				ce.k = k;
				rc = try_edit(r, &ce);
			}
			break;
		case CE_ARG:
			for (int a = 0; !rc && i && a < b->nargs; a++)
				for (int p = 0; !rc && p < b->npreds; p++) {
					const Op *br = b->preds[p];
					for (int k = 0; !rc && k < br->nsucc; k++) {
						const Value *v = succ_args(br, k)[a].v;
						if (br->succ[k] != b || !visible_at(v, b) ||
						    passed_before(b, a, p, k, v))
							continue;
						ce.k = a;
						ce.v = v;
						rc = try_edit(r, &ce);
					}
				}
			break;
		case CE_RETARGET:
			for (int k = 0; !rc && branches(t) && k < t->nsucc; k++)
				for (int j = 1; !rc && j < f->nblocks; j++) {
					const Block *to = f->blocks[j];
					if (to == t->succ[k] || !takes(t, k, to))
						continue;
					ce.k = k;
					ce.to = to;
					rc = try_edit(r, &ce);
				}
			break;
		}
	}
	return rc;
}

int
red_pass_cfg(Red *r)
{
	static const CfgKind kinds[] = {CE_MERGE, CE_COND, CE_ARG, CE_RETARGET};
	int progress = 0, rc;

	for (int fi = 0; fi < r->c->prog->nfuncs; fi++) {
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds;) {
			if (r->c->prog->funcs[fi]->nblocks < 2)
				break;
			if ((rc = try_kind(r, fi, kinds[k])) < 0)
				return -1;
			if (rc) {
				progress = 1;
				k = 0; /* another program now: from the top */
			} else {
				k++;
			}
		}
	}
	return progress;
}
