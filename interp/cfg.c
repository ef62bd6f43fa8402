/*
 * cfg.c: the blocks of a function body as a graph: predecessors,
 * reachability, dominators (docs/tir.md, "Blocks and branches").
 *
 * Bodies are small (a handful of blocks), so dominators are the plain
 * iterative intersection over reverse postorder (Cooper, Harvey and
 * Kennedy), and reachability a depth-first search per question.
 */
#include "ir.h"

bool
prog_has_cfg(const Program *p)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i]->nblocks > 1)
			return true;
	return false;
}

int
pred_edge(const Block *S, int p)
{
	const Op *t = S->preds[p];
	int seen = 0;

	for (int q = 0; q < p; q++)
		seen += S->preds[q] == t;
	for (int k = 0; k < t->nsucc; k++)
		if (t->succ[k] == S && seen-- == 0)
			return k;
	return 0;
}

int
pred_index(const Block *S, const Op *t, int k)
{
	for (int p = 0; p < S->npreds; p++)
		if (S->preds[p] == t && pred_edge(S, p) == k)
			return p;
	return -1;
}

Block *
top_block(const Op *op)
{
	while (op->parent->parent)
		op = op->parent->parent;
	return op->parent;
}

bool
block_dominates(const Block *a, const Block *b)
{
	for (; b; b = b->idom)
		if (a == b)
			return true;
	return false;
}

static const Op *
terminator(const Block *b)
{
	return b->nops ? b->ops[b->nops - 1] : NULL;
}

/* Successors of b: its terminator's, when it branches. */
static int
succs(const Block *b, Block *out[2])
{
	const Op *t = terminator(b);
	int n = 0;

	if (!t || (t->kind != OP_BR && t->kind != OP_COND_BR))
		return 0;
	for (int k = 0; k < t->nsucc; k++)
		if (t->succ[k])
			out[n++] = t->succ[k];
	return n;
}

/* Depth-first from b: postorder numbers into post[] (by bindex). */
static void
dfs(const Block *b, bool *seen, Block **order, int *n)
{
	Block *s[2];
	int ns = succs(b, s);

	seen[b->bindex] = true;
	for (int k = 0; k < ns; k++)
		if (!seen[s[k]->bindex])
			dfs(s[k], seen, order, n);
	order[(*n)++] = (Block *)b;
}

void
cfg_reach(const Func *f, const Block *from, bool *reach)
{
	Block *stack[MAX_BLOCKS + 1], *s[2];
	int top = 0;

	for (int i = 0; i < f->nblocks; i++)
		reach[i] = false;
	stack[top++] = (Block *)from;
	while (top > 0) {
		const Block *b = stack[--top];
		int ns = succs(b, s);
		for (int k = 0; k < ns; k++)
			if (!reach[s[k]->bindex]) {
				reach[s[k]->bindex] = true;
				stack[top++] = s[k]; /* once each: <= nblocks */
			}
	}
}

static Block *
intersect(Block *a, Block *b, const int *rpo)
{
	while (a != b) {
		while (rpo[a->bindex] > rpo[b->bindex])
			a = a->idom ? a->idom : a;
		while (rpo[b->bindex] > rpo[a->bindex])
			b = b->idom ? b->idom : b;
	}
	return a;
}

static void
fill_func(Arena *A, Func *f)
{
	int n = f->nblocks, norder = 0;
	bool *seen = arena_alloc(A, (size_t)n);
	Block **order = arena_alloc(A, (size_t)n * sizeof *order);
	int *rpo = arena_alloc(A, (size_t)n * sizeof *rpo);
	int *cnt = arena_alloc(A, (size_t)n * sizeof *cnt);
	bool changed = true;

	for (int i = 0; i < n; i++) {
		Block *b = f->blocks[i];
		const Op *t = terminator(b);
		b->npreds = 0;
		b->idom = NULL;
		b->exits = t && t->kind == OP_RETURN;
		for (int k = 0; t && (t->kind == OP_BR || t->kind == OP_COND_BR) &&
				k < t->nsucc; k++)
			if (t->succ[k])
				cnt[t->succ[k]->bindex]++;
	}
	for (int i = 0; i < n; i++) {
		f->blocks[i]->preds = arena_alloc(A, (size_t)(cnt[i] + 1) *
						  sizeof(Op *));
	}
	for (int i = 0; i < n; i++) {
		Block *b = f->blocks[i];
		Op *t = (Op *)terminator(b);
		for (int k = 0; t && (t->kind == OP_BR || t->kind == OP_COND_BR) &&
				k < t->nsucc; k++)
			if (t->succ[k])
				t->succ[k]->preds[t->succ[k]->npreds++] = t;
	}
	dfs(f->blocks[0], seen, order, &norder);
	for (int i = 0; i < n; i++) {
		f->blocks[i]->reachable = seen[i];
		rpo[i] = n; /* unreachable: after everything */
	}
	for (int i = 0; i < norder; i++)
		rpo[order[i]->bindex] = norder - 1 - i;
	/* dominators over the reachable blocks, in reverse postorder */
	f->blocks[0]->idom = f->blocks[0];
	while (changed) {
		changed = false;
		for (int i = norder - 2; i >= 0; i--) {
			Block *b = order[i], *nd = NULL;
			for (int k = 0; k < b->npreds; k++) {
				Block *p = b->preds[k]->parent;
				if (!p->reachable || !p->idom)
					continue;
				nd = nd ? intersect(p, nd, rpo) : p;
			}
			if (nd && b->idom != nd) {
				b->idom = nd;
				changed = true;
			}
		}
	}
	f->blocks[0]->idom = NULL;
	/* which blocks reach a return: backwards to a fixed point */
	changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < n; i++) {
			Block *b = f->blocks[i], *s[2];
			int ns = succs(b, s);
			for (int k = 0; k < ns && !b->exits; k++)
				if (s[k]->exits) {
					b->exits = true;
					changed = true;
				}
		}
	}
}

void
cfg_fill(Program *p)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i]->blocks)
			fill_func(p->arena, p->funcs[i]);
}
