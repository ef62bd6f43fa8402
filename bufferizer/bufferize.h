/*
 * bufferize.h: the bufferizer/ component, table of contents in data-flow
 * order.
 *
 *   strategy.c  the strategies: decisions for every op result
 *   plan.c      forced decisions and frees from a case's run (`plan`, `free`)
 *   alias.c     buffer roots: which allocation each value's buffer lies in
 *   lower.c     tensor program + decisions -> buffer program (BIR)
 *
 * A strategy fills Decisions; the lowering reads them, places the frees
 * (after the last use of any alias, unless a plan says otherwise) and builds
 * the BIR that interp/exec.c runs.
 */
#ifndef BUFDIFF_BUFFERIZE_H
#define BUFDIFF_BUFFERIZE_H

#include "ir.h"

/* A free forced by a plan: release the buffer holding `v` after `after`. */
typedef struct PlanFree {
	Value *v;
	Op *after;
	Loc loc;
} PlanFree;

typedef struct Decisions {
	const Program *p;
	Decision *d;       /* by Value.id, p->nvalues entries */
	PlanFree *frees;     /* plan frees (replace the strategy's for v's buffer) */
	int nfrees;
} Decisions;

/* ---------------------------------------------------------- strategy.c */

typedef struct Strategy {
	const char *name;
	const char *about;  /* one line for `bufdiff strategies` */
	void (*decide)(const Program *p, Decision *d);
} Strategy;

const Strategy *strategy_find(const char *name);  /* NULL if unknown */
const Strategy *strategy_at(int i);               /* NULL past the end */
/* Decisions of strategy s for every op result (mem_alloc'ed d array). */
int decisions_make(const Program *p, const Strategy *s, Decisions *out);
void decisions_free(Decisions *ds);
/* Result values that may live in an operand's buffer: the candidates for
 * DEC_INPLACE (dest, same-typed operands of W_ANY ops, loop inits). */
int inplace_candidates(const Op *op, int resno, Value **out, int max);
/* The names of the in-place decisions, for reports and bisection. */
int decisions_inplace(const Decisions *ds, Value **out, int max);

/* -------------------------------------------------------------- plan.c */

/* One forced decision: `RESULT: OPERAND` (into NULL = `new`). */
typedef struct PlanItem {
	Value *res;
	Value *into;
	Loc loc;
} PlanItem;

/* Apply forced decisions and frees; an illegal plan (into an operand the op
 * cannot write, of another type, a free of a view) is an input error. */
int plan_apply(Decisions *ds, const PlanItem *items, int n,
	       const PlanFree *frees, int nfrees, Diag *d);

/* ------------------------------------------------------------- lower.c */

BProg *bufferize_lower(const Program *p, const Decisions *ds, Diag *d);
void bprog_free(BProg *bp);

#endif
