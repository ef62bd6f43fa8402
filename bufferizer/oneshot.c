/*
 * oneshot.c: the one-shot strategy (read-after-write conflict analysis in
 * the manner of MLIR One-Shot Bufferize, made async-aware) and the plain
 * last-use strategy.
 *
 * Times are Op.seq numbers (pre-order).  Every read of a tensor value gets
 * an effective span [start, end]: the op itself, widened to a whole loop
 * when the loop runs it again for a value defined outside the loop (the
 * cross-iteration read), and to the last await of a launch when it sits in
 * an async region (a launch may run any time until its await).  A read of
 * a view, of an if result or of an await result is also a read of what it
 * aliases.  Returned values are read by the caller: span end = infinity.
 *
 * Alias classes (union-find over values) hold the values that may share a
 * buffer.  A result may be computed into operand o's buffer only if no
 * older value of o's class is read after the write: for every read R of a
 * class member, R.end <= W.start, except a read by W itself (same-index
 * access; not when a loop repeats it: llvm#90019) and a read in the other
 * branch of an if W is in (not when a loop repeats it).  A write inside an
 * async region may happen as early as the launch.  Read-only buffers
 * (readonly params, constants) are never written.  Calls: a callee may
 * write its params in place; a caller that still needs an argument passes
 * a copy.  Frees come from the lowering's ownership rule.
 *
 * The analysis is greedy in program order.  Per class it keeps the latest
 * read end, so an unconflicted decision costs O(1); only a possible
 * conflict scans the class.  In a body with branches a read's place is a
 * question of paths (cfg_follows), and classes keep growing after a
 * decision (block arguments, views in later blocks): each in-place write
 * there is checked again against the final classes (recheck), and one
 * that now conflicts is forbidden and the program decided again.
 *
 * Carried futures (a for's iter arg, a block argument): an await may get
 * any launch of the future's group, and such a launch may run on any
 * later trip, until the function returns.  So its reads last to the end,
 * it writes no buffer from outside it, and (checked on the final classes,
 * like the recheck) nothing writes in place a buffer it reads or the
 * results it gives, which another trip may await again.
 */
#include <limits.h>
#include <stdio.h>

#include "bufferize.h"

typedef struct Read Read;
struct Read {
	const Op *op;         /* the reading op */
	int start, end;       /* when it may happen (Op.seq) */
	bool loop;            /* a loop repeats it */
	const Op *launch;     /* it lasts until this launch's await */
	bool dest;            /* the op's read of its destination */
	bool cfg;             /* in a body with branches: start/end span the
			       * function; send is the span within its block */
	int send;
	Read *next;
};

/* A launch that writes a class's buffer, and until when it may run. */
typedef struct AsyncW AsyncW;
struct AsyncW {
	const Op *launch;
	int end;
	AsyncW *next;
};

/* An in-place write decided in a body with branches. */
typedef struct CfgW CfgW;
struct CfgW {
	const Op *w;
	const Value *into, *v; /* w computes v into into's buffer */
	CfgW *next;
	CfgW *all;             /* every one, for the recheck */
};

typedef struct AwaitList AwaitList;
struct AwaitList {
	const Op *op;
	AwaitList *next;
};

typedef struct Kid Kid;   /* an alias-through child: view, if/await result */
struct Kid {
	int v;
	Kid *next;
};

typedef struct OS {
	const Program *p;
	Decisions *ds;
	unsigned breaks;
	Arena *a;
	Read **reads;         /* by value id: its own reads, by start (a
			       * scan stops at the first conflict); dead
			       * ones are unlinked as the floor rises */
	Read **rtail;         /* by value id: the last of them (while
			       * collecting) */
	Kid **kids;
	int *rend;            /* by value id: latest read end, kids included */
	int *up;              /* union-find */
	int *next;            /* class members: a circular list per class */
	int *maxend;          /* by class root */
	bool *ro;             /* by class root: read-only */
	bool *written;        /* by class root: something writes it in place */
	bool *param;          /* by class root: holds a param's buffer */
	int *awaitend;        /* by launch Op.seq: its last await (memo) */
	AwaitList **awaits;   /* by launch Op.seq: the ops awaiting it */
	int *asyncw;          /* by class root: a pending launch may still
			       * write it until this seq (-1: none) */
	AsyncW **asyncws;     /* by class root: the launches writing it */
	CfgW **cfgws;         /* by class root: writes into it in bodies
			       * with branches */
	CfgW *allw;           /* all of them */
	Reason **forbid;      /* by value id: why it may not be in place (a
			       * recheck found a conflict; NULL: it may) */
	int *viewof;          /* by value id: where its buffer comes from (a
			       * view's source, an await result's future) */
	int floor;            /* no later write starts before this seq: a
			       * member whose reads all end by then is dead */
	int async_depth;      /* inside launches: the floor stays put */
	const Op *skip;       /* reads by this op are not named in a reason */
	const bool *pw;       /* pass 2: params the callee writes (pass 1) */
	const Func *rfn;      /* the body with branches reach is about */
	bool *reach;          /* [a * nblocks + b]: control may go a -> b */
	Carried car;          /* carried futures and their launches */
} OS;

static bool
broken(const OS *S, unsigned rule)
{
	return S->breaks & rule;
}

static bool
is_tensor(const Value *v)
{
	return v && v->type->kind == TY_TENSOR;
}

/* ---- alias classes */

static int
find(OS *S, int v)
{
	while (S->up[v] != v) {
		S->up[v] = S->up[S->up[v]];
		v = S->up[v];
	}
	return v;
}

static void
unite(OS *S, const Value *a, const Value *b)
{
	int x, y, t;

	if (!is_tensor(a) || !is_tensor(b))
		return;
	x = find(S, a->id);
	y = find(S, b->id);
	if (x == y)
		return;
	S->up[y] = x;
	if (S->maxend[y] > S->maxend[x])
		S->maxend[x] = S->maxend[y];
	S->ro[x] |= S->ro[y];
	S->written[x] |= S->written[y];
	S->param[x] |= S->param[y];
	if (S->asyncw[y] > S->asyncw[x])
		S->asyncw[x] = S->asyncw[y];
	if (S->asyncws[y]) { /* append y's writers to x's */
		AsyncW **tail = &S->asyncws[x];
		while (*tail)
			tail = &(*tail)->next;
		*tail = S->asyncws[y];
		S->asyncws[y] = NULL;
	}
	if (S->cfgws[y]) {
		CfgW **tail = &S->cfgws[x];
		while (*tail)
			tail = &(*tail)->next;
		*tail = S->cfgws[y];
		S->cfgws[y] = NULL;
	}
	t = S->next[x]; /* splice the two member rings */
	S->next[x] = S->next[y];
	S->next[y] = t;
}

/* ---- effective reads */

static const Block *
scope_of(const Value *v)
{
	if (v->def)
		return v->def->parent;
	if (v->owner)
		return v->owner;
	return v->func->body;
}

static int await_end(OS *S, const Op *launch);

/* Is b the scope block, or the do region of the while whose condition
 * region is the scope (both see the same iter args)? */
static bool
at_scope(const Block *b, const Block *scope)
{
	return b == scope || (scope->parent && scope->parent->kind == OP_WHILE &&
			      scope == scope->parent->body &&
			      b == scope->parent->orelse);
}

/* The block a value's buffer comes from: a view's (or an await result's)
 * is its source's. */
static const Block *
buffer_scope(const OS *S, const Value *v)
{
	while (S->viewof[v->id] >= 0)
		v = S->p->values[S->viewof[v->id]];
	return scope_of(v);
}

/* Until when an await may happen: its own place, or, inside another launch
 * (one that does not hold `launch`), until that one's await. */
static int
await_reach(OS *S, const Op *w, const Op *launch)
{
	int end = w->last;

	/* an await in a branch or a loop body may not run: the launch may
	 * stay pending until the function returns */
	if (op_conditional(launch->parent, w))
		return INT_MAX - 1;
	/* in a body with branches, a launch another block awaits lasts to
	 * its own block's end (the lowering drains it there): any write in
	 * that block after it races */
	if (block_in_cfg(top_block(launch)) &&
	    top_block(w) != top_block(launch))
		return INT_MAX - 1;

	for (const Op *a = w; a->parent->parent; a = a->parent->parent) {
		const Op *A = a->parent->parent;
		if (A->kind == OP_ASYNC &&
		    !(launch->seq >= A->seq && launch->seq <= A->last)) {
			int e = await_end(S, A);
			end = e > end ? e : end;
		}
	}
	return end;
}

/* The last moment launch's results may still be awaited (memoized; a
 * launch never awaited lasts to the end). */
static int
await_end(OS *S, const Op *launch)
{
	int *memo = &S->awaitend[launch->seq], end = -1;

	if (*memo != INT_MIN)
		return *memo;
	*memo = INT_MAX - 1; /* a cycle cannot happen: awaits follow launches */
	if (launch_carried(&S->car, launch) && !broken(S, ONESHOT_CARRIED))
		return *memo; /* a later trip may await it, or nobody */
	for (AwaitList *w = S->awaits[launch->seq]; w; w = w->next) {
		int e = await_reach(S, w->op, launch);
		end = e > end ? e : end;
	}
	return *memo = end >= 0 ? end : INT_MAX - 1;
}

/* The launches await op w may complete: its future's, or for a carried
 * future any of its group (*it = -1 first; NULL at the end). */
static const Op *
await_launch(const OS *S, const Op *w, int *it)
{
	const Value *f = w->args[0].v;

	if (!S->car.carried[f->id]) {
		if (*it >= 0)
			return NULL;
		*it = 0;
		return f->def;
	}
	return carried_launch(&S->car, f, it);
}

/* awaits[launch seq]: the ops awaiting it. */
static WalkAct
find_await(Op *op, void *ctx)
{
	OS *S = ctx;

	if (op->kind == OP_AWAIT) {
		int it = -1;
		for (const Op *l; (l = await_launch(S, op, &it));) {
			AwaitList *w = arena_alloc(S->a, sizeof *w);
			w->op = op;
			w->next = S->awaits[l->seq];
			S->awaits[l->seq] = w;
		}
	}
	return WALK_GO;
}

/* Keep v's reads in order of start: reads come in program order, so
 * almost always at the end. */
static void
read_insert(OS *S, int v, Read *r)
{
	Read **pp = &S->reads[v];

	if (S->rtail[v] && S->rtail[v]->start <= r->start)
		pp = &S->rtail[v]->next;
	else
		while (*pp && (*pp)->start <= r->start)
			pp = &(*pp)->next;
	r->next = *pp;
	*pp = r;
	if (!r->next)
		S->rtail[v] = r;
}

static Read *
add_read(OS *S, const Value *v, const Op *u)
{
	Read *r;
	const Block *scope;
	const Op *cur = u;
	bool carried = false;

	if (!is_tensor(v) || (u->kind == OP_RETURN && broken(S, ONESHOT_RETURNS)))
		return NULL;
	r = arena_alloc(S->a, sizeof *r);
	r->op = u;
	r->start = r->end = u->seq;
	if (u->kind == OP_RETURN)
		r->end = INT_MAX; /* the caller reads it */
	/* reading a view reads its source: loops between them repeat it */
	scope = buffer_scope(S, v);
	while (!at_scope(cur->parent, scope) && cur->parent->parent) {
		const Op *P = cur->parent->parent;
		if (((P->kind == OP_FOR || P->kind == OP_FORALL ||
		      P->kind == OP_WHILE) &&
		     !broken(S, ONESHOT_CROSS_ITER)) ||
		    (P->kind == OP_GENERATE && !broken(S, ONESHOT_GENERATE))) {
			/* a generate body runs once per element */
			r->start = P->seq < r->start ? P->seq : r->start;
			r->end = P->last > r->end ? P->last : r->end;
			r->loop = true;
		} else if (P->kind == OP_ASYNC && !broken(S, ONESHOT_ASYNC)) {
			int e = await_end(S, P);
			r->start = P->seq < r->start ? P->seq : r->start;
			r->end = e > r->end ? e : r->end;
			r->launch = P;
			/* on any later trip or block: no path question */
			carried |= launch_carried(&S->car, P) &&
				   !broken(S, ONESHOT_CARRIED);
		}
		cur = P;
	}
	if (block_in_cfg(top_block(u)) && !carried) {
		/* when it happens is a question of paths: cfg_follows */
		r->cfg = true;
		r->send = r->end;
		r->start = u->parent->func->blocks[0]->ops[0]->seq;
		if (r->end != INT_MAX)
			r->end = INT_MAX - 1;
	}
	read_insert(S, v->id, r);
	return r;
}

static void
add_kid(OS *S, const Value *parent, const Value *kid)
{
	Kid *k;

	if (!is_tensor(parent) || !is_tensor(kid))
		return;
	k = arena_alloc(S->a, sizeof *k);
	k->v = kid->id;
	k->next = S->kids[parent->id];
	S->kids[parent->id] = k;
}


/* An expand_shape (it only splits dims: any strides express it) or a
 * collapse_shape of a contiguous buffer is a view that aliases its
 * source, like extract_slice (the mutant forgets the alias, not the
 * view); a collapse of any other source is copied. */
static bool
reshape_as_view(OS *S, const Op *op)
{
	Value *src = op->args[0].v, *res = op->res[0];

	if (op->kind == OP_COLLAPSE_SHAPE &&
	    !buf_contiguous(S->p, S->ds, src))
		return false;
	S->ds->d[res->id].kind = DEC_VIEW;
	if (broken(S, ONESHOT_VIEWS)) {
		add_read(S, src, op);
	} else {
		add_kid(S, src, res);
		S->viewof[res->id] = src->id;
	}
	return true;
}

/* The reads an op makes, and the aliases its results make (a walk
 * callback: the ops inside come next). */
static WalkAct
collect_op(Op *op, void *ctx)
{
	OS *S = ctx;
	const OpInfo *oi = &op_info[op->kind];

	switch (oi->form) {
	case F_EXTRACT_SLICE:
		/* a view: its readers read the source */
		if (broken(S, ONESHOT_VIEWS)) {
			add_read(S, op->args[0].v, op);
		} else {
			add_kid(S, op->args[0].v, op->res[0]);
			S->viewof[op->res[0]->id] = op->args[0].v->id;
		}
		break;
	case F_RESHAPE:
		if (reshape_as_view(S, op))
			break;
		add_read(S, op->args[0].v, op);
		break;
	case F_YIELD:
		for (int i = 0; i < op->nargs; i++) {
			const Op *P = op->parent->parent;
			add_read(S, op->args[i].v, op);
			if (P && P->kind == OP_IF)
				add_kid(S, op->args[i].v, P->res[i]);
		}
		break;
	case F_SELECT:
		/* its result shares the buffer it picks: reading it reads
		 * both (decide_selects makes them one class) */
		if (is_tensor(op->res[0])) {
			add_kid(S, op->args[1].v, op->res[0]);
			add_kid(S, op->args[2].v, op->res[0]);
		}
		/* and the executor counts the pick as a use of both (in a
		 * launch: until its await) */
		add_read(S, op->args[1].v, op);
		add_read(S, op->args[2].v, op);
		break;
	case F_PARALLEL_INSERT:
		/* it writes the shared arg's slice: no read of it */
		add_read(S, op->args[0].v, op);
		break;
	case F_AWAIT: {
		int it = -1;
		/* a carried future's launch may come later in the body: no kid
		 * (ids must grow), and no write outside such a launch reaches
		 * its results (held_recheck) */
		bool carried = S->car.carried[op->args[0].v->id];
		for (const Op *launch; (launch = await_launch(S, op, &it));) {
			const Op *y = launch->body->ops[launch->body->nops - 1];
			for (int k = 0; k < op->nres && k < y->nargs; k++) {
				if (!carried)
					add_kid(S, y->args[k].v, op->res[k]);
				/* its buffer is the launch's, made where the
				 * launch is: an await in a loop reads it
				 * again each trip */
				S->viewof[op->res[k]->id] = op->args[0].v->id;
			}
		}
		break;
	}
	default:
		for (int i = 0; i < op->nargs; i++)
			add_read(S, op->args[i].v, op);
		if (op->hasdest && oi->readsdest) {
			Read *r = add_read(S, op->dest.v, op);
			if (r)
				r->dest = true;
		}
	}
	return WALK_GO;
}

/* Latest read end of v and everything that aliases it (kids are defined
 * later, so ids only grow: memoized, no cycles). */
static int
read_end(OS *S, int v)
{
	int end = -1;

	if (S->rend[v] != INT_MIN)
		return S->rend[v];
	for (Read *r = S->reads[v]; r; r = r->next)
		end = r->end > end ? r->end : end;
	for (Kid *k = S->kids[v]; k; k = k->next) {
		int e = read_end(S, k->v);
		end = e > end ? e : end;
	}
	return S->rend[v] = end;
}

/* ---- conflicts */

/* Are a and b in different branches of one if, with the read span inside
 * that if (a loop around the if may run both branches)? */
static bool
exclusive(const OS *S, const Op *w, const Read *r)
{
	for (const Op *a = w; a->parent->parent; a = a->parent->parent) {
		const Op *I = a->parent->parent;
		const Op *b = r->op;
		if (I->kind != OP_IF)
			continue;
		/* r->op inside I, in the other branch? */
		while (b->parent->parent && b->parent->parent != I)
			b = b->parent->parent;
		if (b->parent->parent != I || b->parent == a->parent)
			continue;
		if (broken(S, ONESHOT_BRANCHES))
			return true;
		return r->start >= I->seq && r->end <= I->last;
	}
	return false;
}

typedef struct Conflict {
	const Read *read;
	const Value *victim;  /* the older value read */
	const Op *launch;     /* or: a pending launch that writes it */
	const Op *w;          /* an earlier write into `into` (NULL: the
			       * write being decided) that joining `joined`'s
			       * class would make clobber the victim */
	const Value *into, *joined;
} Conflict;

static bool
same_operand(const Operand *a, const Operand *b)
{
	return a->v ? a->v == b->v : !b->v && a->i == b->i;
}

/* insert_slice r reads its destination except the slice it replaces; a
 * write into a view of exactly that slice (the extract_slice/insert_slice
 * pair) is not read by it. */
static bool
matching_pair(const Op *r, const Value *into)
{
	const Op *x = into->def;

	if (r->kind != OP_INSERT_SLICE || !x || x->kind != OP_EXTRACT_SLICE ||
	    x->args[0].v != r->dest.v || x->noffs != r->noffs)
		return false;
	for (int d = 0; d < r->noffs; d++)
		if (!same_operand(&x->offs[d], &r->offs[d]) ||
		    x->sizes[d] != r->sizes[d] || x->strides[d] != r->strides[d])
			return false;
	return true;
}

/* Does op w read v index by index with what it writes (elementwise ops,
 * and the destination an op accumulates into)?  Then w itself may
 * overwrite v. */
static bool
same_index(const Op *w, const Value *v)
{
	Form f = op_info[w->kind].form;
	bool ew = f == F_BINARY || f == F_UNARY || f == F_COPY;

	if (f == F_FOR || f == F_FORALL || f == F_WHILE)
		return true; /* the init is the value the loop carries on */
	if (f == F_INSERT_SLICE || f == F_INSERT)
		return true; /* a copy reads its source whole before writing */
	for (int i = 0; i < w->nargs; i++)
		if (w->args[i].v == v &&
		    (!ew || !type_equal(v->type, w->res[0]->type)))
			return false; /* a transpose, a matmul operand, a broadcast */
	return ew || (w->hasdest && w->dest.v == v);
}

/* control may go from block a to block b of the body S->rfn (filled
 * for w's function on first use). */
static bool
cfg_reaches(OS *S, const Block *a, const Block *b)
{
	const Func *f = a->func;
	int n = f->nblocks;

	if (S->rfn != f) {
		S->reach = arena_alloc(S->a, (size_t)n * (size_t)n);
		for (int i = 0; i < n; i++)
			cfg_reach(f, f->blocks[i], S->reach + (size_t)i * n);
		S->rfn = f;
	}
	return S->reach[(size_t)a->bindex * n + b->bindex];
}

/* Is w in a block a loop of blocks runs again? */
static bool
cfg_cycle(OS *S, const Op *w)
{
	const Block *b = top_block(w);

	return block_in_cfg(b) && cfg_reaches(S, b, b);
}

/* The top op of op's function-level block holding it (op itself at the
 * top). */
static const Op *
top_op(const Op *op)
{
	while (op->parent->parent)
		op = op->parent->parent;
	return op;
}

/* Can control go from the end of block a to block b without entering
 * block d (NULL: none), in a body with branches? */
static bool
reach_avoiding(const Block *a, const Block *b, const Block *d)
{
	const Block *stack[MAX_BLOCKS + 1];
	bool seen[MAX_BLOCKS] = {false};
	int top = 0;

	stack[top++] = a;
	while (top > 0) {
		const Block *x = stack[--top];
		const Op *t = x->ops[x->nops - 1];
		for (int k = 0; (t->kind == OP_BR || t->kind == OP_COND_BR) &&
				k < t->nsucc; k++) {
			const Block *s = t->succ[k];
			if (s == d || seen[s->bindex])
				continue;
			if (s == b)
				return true;
			seen[s->bindex] = true;
			stack[top++] = s;
		}
	}
	return false;
}

/*
 * May read r of member m see the write of w (at wstart) clobber m's
 * version, in a body with branches?  m must be older than w (defined
 * before it, where it dominates w: a param, a block argument of a block
 * dominating w's, a result of an earlier op), and r must be reachable
 * after w without passing m's definition again (a loop that comes back
 * round to it reads a newer m: the back edge rebinds a block argument).
 */
static bool
cfg_follows(OS *S, const Op *w, int wstart, const Read *r, const Value *m)
{
	const Block *wb = top_block(w), *rb = top_block(r->op), *d = NULL;
	const Op *wt = top_op(w), *rt = top_op(r->op);
	int dpos = -1;

	(void)S;
	if (m->def) {
		const Op *mt = top_op(m->def);
		if (m->def == w || (mt == wt && m->def->seq > w->seq))
			return false; /* w's result, or made after it */
		d = mt->parent;
		dpos = mt->index;
	} else if (m->owner) {
		d = m->owner->parent ? top_op(m->owner->parent)->parent : m->owner;
		dpos = m->owner->parent ? top_op(m->owner->parent)->index : -1;
	}
	if (d && d != wb && !block_dominates(d, wb))
		return false; /* not there when w writes */
	if (d == wb && dpos > wt->index)
		return false;
	if (wb == rb && rt->index > wt->index)
		return true;
	if (wb == rb && rt->index <= wt->index && r->send > wstart)
		return true; /* a read lasting past w: a pending launch, a
			      * loop around both */
	return reach_avoiding(wb, rb, d);
}

/* Is read r of v (m itself, or m's alias: a view, a select or an if
 * result of it) clobbered by w's write at wstart? */
static bool
read_conflicts(OS *S, const Op *w, const Value *into, int wstart,
	       const Read *r, const Value *v, const Value *m)
{
	if (r->end <= wstart && r->op != w)
		return false; /* over before the write (w's own read: below) */
	if (r->dest && matching_pair(r->op, into) && !r->loop && !r->launch &&
	    wstart == w->seq && !(r->cfg && cfg_cycle(S, w)))
		return false; /* the insert's read of its destination only (in a
			       * launch its copy may race with the write; a
			       * write in a launch may still be running when an
			       * out-of-place insert copies the whole
			       * destination, slice included) */
	bool own = r->op == w && (v == into || ((w->kind == OP_INSERT_SLICE ||
		   w->kind == OP_INSERT) && v == w->args[0].v)) &&
		   same_index(w, v);
	if (own && (!r->loop || broken(S, ONESHOT_SAME_OP_LOOP)) &&
	    !(r->cfg && cfg_cycle(S, w)))
		return false; /* the op reads what it overwrites, index by index
			       * (an insert copies its source before writing) */
	if (r->cfg && r->op == w && !own)
		return true; /* it reads what it has overwritten */
	/* an alias made after w still holds m's version: m's definition
	 * orders it */
	if (r->cfg && !cfg_follows(S, w, wstart, r, m))
		return false;
	return !exclusive(S, w, r);
}

/* Find the conflicting read of v (or of what aliases it) that may come
 * first: the one a report should name. */
static bool
scan_value(OS *S, const Op *w, const Value *into, int wstart, int v,
	   const Value *m, Conflict *c)
{
	bool found = false;
	Read **pp = &S->reads[v], *r;

	/* by start: the first conflict is the earliest of v's; reads over
	 * before the floor conflict with no later write (a value read by
	 * every op of a long chain costs O(1) per write, not O(reads)) */
	while ((r = *pp)) {
		if (r->end < S->floor) {
			*pp = r->next;
			continue;
		}
		if (r->op != S->skip &&
		    read_conflicts(S, w, into, wstart, r, S->p->values[v], m)) {
			if (!c->read || r->start < c->read->start) {
				c->read = r;
				c->victim = S->p->values[v];
			}
			found = true;
			break;
		}
		pp = &r->next;
	}
	for (Kid *k = S->kids[v]; k; k = k->next)
		if (S->rend[k->v] >= wstart)
			found |= scan_value(S, w, into, wstart, k->v, m, c);
	return found;
}

/* When the write of op w may happen first: a write in an async region may
 * run as early as the launch (unless the buffer is the region's own). */
static int
write_start(const OS *S, const Op *w, const Value *into)
{
	int start = w->seq;
	const Block *scope = buffer_scope(S, into);

	if (broken(S, ONESHOT_ASYNC))
		return start;
	for (const Op *cur = w; !at_scope(cur->parent, scope) && cur->parent->parent;
	     cur = cur->parent->parent)
		if (cur->parent->parent->kind == OP_ASYNC)
			start = cur->parent->parent->seq;
	return start;
}

/* Are ops a and b in different branches of one if? */
static bool
other_branch(const Op *a, const Op *b)
{
	for (const Op *x = a; x->parent->parent; x = x->parent->parent) {
		const Op *I = x->parent->parent, *y = b;
		if (I->kind != OP_IF)
			continue;
		while (y->parent->parent && y->parent->parent != I)
			y = y->parent->parent;
		if (y->parent->parent == I)
			return y->parent != x->parent;
	}
	return false;
}

/* Does writing `into`'s buffer at op w clobber something of cls's class
 * read later (cls: into's own, or the class of the value w computes, once
 * it joins)?  A member made in the other branch of an if around w never
 * coexists with the write. */
static bool
conflicts_in(OS *S, const Op *w, const Value *into, const Value *cls,
	     Conflict *c)
{
	int root = find(S, cls->id), wstart = write_start(S, w, into), m;
	bool found = false;

	int prev = root;

	c->read = NULL;
	c->launch = NULL;
	c->w = NULL;
	/* a launch writing this buffer may do so until its await: any other
	 * write meanwhile races with it */
	for (AsyncW *a = S->asyncw[root] > wstart && !broken(S, ONESHOT_ASYNC)
			 ? S->asyncws[root] : NULL; a; a = a->next)
		if (a->end > wstart &&
		    !(w->seq > a->launch->seq && w->seq <= a->launch->last)) {
			c->launch = a->launch;
			c->victim = into;
			return true;
		}
	if (S->maxend[root] < wstart)
		return false;
	m = S->next[root];
	for (;;) {
		const Op *d = S->p->values[m]->def;
		int nx = S->next[m];
		if (S->rend[m] < S->floor && m != root) {
			/* dead for every later write: drop it from the ring */
			S->next[prev] = nx;
			S->next[m] = m;
		} else {
			if (S->rend[m] >= wstart && !(d && other_branch(w, d)))
				found |= scan_value(S, w, into, wstart, m,
						    S->p->values[m], c);
			prev = m;
		}
		if (m == root)
			break;
		m = nx;
	}
	return found;
}

static bool
conflicts(OS *S, const Op *w, const Value *into, Conflict *c)
{
	return conflicts_in(S, w, into, into, c);
}

/* ---- reasons: what a refusal names, made a sentence only when asked */

/* The refusals a sentence is made of (why_text). */
enum {
	WHY_NONE, WHY_LAUNCH_WRITE, WHY_CALL_RW, WHY_READ, WHY_READONLY,
	WHY_ESCAPE, WHY_CARRIED_OUTSIDE, WHY_CARRIED_READ, WHY_CARRIED_AWAIT,
	WHY_GENERATE, WHY_SHARED, WHY_SIBLING, WHY_FORALL
};
enum { WF_RETURNED = 1, WF_NEXT_TRIP = 2 };

/* A refusal as it was found (Reason first: decision_reason formats it).
 * Each kind's ops and values are listed at its case in why_format. */
typedef struct Why {
	Reason r;
	unsigned char kind, flags;
	const Program *p;
	const Op *op[3];
	const Value *v[3];
} Why;

/* " at FILE:LINE:COL" of op. */
static void
put_op_at(Str *b, const Program *p, const Op *op)
{
	char at[4200];

	str_printf(b, " at %s", prog_loc(p, op->loc, at, sizeof at));
}

/* An op in a reason: "%y" (its result), "the call to @f" or "the
 * return", and where it is. */
static void
put_op(Str *b, const Program *p, const Op *op)
{
	if (op->kind == OP_CALL)
		str_printf(b, "the call to @%s", op->callee);
	else if (op->nres)
		str_printf(b, "%%%s", op->res[0]->name);
	else
		str_printf(b, "the %s", op_info[op->kind].name);
	put_op_at(b, p, op);
}

/* b's text in arena a (NULL when out of memory). */
static const char *
reason_take(Arena *a, Str *b)
{
	const char *r = b->oom ? NULL : arena_strdup(a, b->s);

	str_free(b);
	return r;
}

/* A read after the write of op[1] (a conflict): op[0] reads v[0] (in the
 * launch op[2], when not NULL) after op[1] writes into the buffer of
 * v[1]; v[2] (not NULL): once it shares that buffer. */
static void
read_text(const Why *y, Str *b)
{
	const Program *p = y->p;
	const Value *v = y->v[0];
	char at[4200];

	if (y->op[2]) {
		str_puts(b, "read by a pending launch: ");
		put_op(b, p, y->op[0]);
		str_puts(b, " in the launch of ");
		put_op(b, p, y->op[2]);
		str_printf(b, " reads %%%s until its await; ", v->name);
	} else {
		str_puts(b, "conflict: ");
	}
	str_printf(b, "read of %%%s by ", v->name);
	put_op(b, p, y->op[0]);
	str_printf(b, "%s after the write of ", y->flags & WF_RETURNED ?
		   " (returned)" : y->flags & WF_NEXT_TRIP ? " (next trip)" : "");
	put_op(b, p, y->op[1]);
	str_printf(b, " into the buffer of %%%s; %%%s defined at %s",
		   y->v[1]->name, v->name, prog_loc(p, v->loc, at, sizeof at));
	if (y->v[2])
		str_printf(b, " (once %%%s shares that buffer)", y->v[2]->name);
}

/* "the buffer of %c WHAT %g at ..., whose future is carried: TAIL" */
static void
carried_text(const Why *y, Str *b)
{
	static const char *const what[] = {"comes from outside the launch of",
					   "is read by the launch of",
					   "holds the launch results awaited as"};

	str_printf(b, "the buffer of %%%s %s %%%s", y->v[0]->name,
		   what[y->kind - WHY_CARRIED_OUTSIDE], y->op[0]->res[0]->name);
	put_op_at(b, y->p, y->op[0]);
	str_printf(b, ", whose future is carried: %s", y->kind == WHY_CARRIED_AWAIT
		   ? "another trip may await them again"
		   : "it may still run on a later trip");
}

/* The sentences of the short refusals (at most 199 bytes, as always). */
static void
short_text(const Why *y, Str *b)
{
	const Value *v = y->v[0];
	char buf[200];

	switch (y->kind) {
	case WHY_READONLY:
		fmt_snprintf(buf, sizeof buf, "read-only buffer: %%%s is %s",
			     v->name, v->readonly ? "a {readonly} param"
			     : "a constant");
		break;
	case WHY_ESCAPE:
		fmt_snprintf(buf, sizeof buf, "%%%s leaves its region, and the "
			     "buffer of %%%s is not one the region owns: reusing "
			     "it would cost a copy", v->name, y->v[1]->name);
		break;
	case WHY_SHARED:
		fmt_snprintf(buf, sizeof buf, "the buffer of %%%s comes from "
			     "outside the forall: the other trips use it "
			     "meanwhile", v->name);
		break;
	default: /* WHY_SIBLING */
		fmt_snprintf(buf, sizeof buf, "the buffer of %%%s already holds "
			     "%%%s, another result of the loop", v->name,
			     y->v[1]->name);
	}
	str_puts(b, buf);
}

static const char *
why_format(const Reason *r, Arena *a)
{
	const Why *y = (const Why *)r;
	const Program *p = y->p;
	Str b = {0};

	switch (y->kind) {
	case WHY_LAUNCH_WRITE: /* op[0] the launch, op[1] the write, v[0] */
		str_puts(&b, "written by a pending launch: the launch of ");
		put_op(&b, p, y->op[0]);
		str_printf(&b, " writes the buffer of %%%s until its await; the "
			   "write of ", y->v[0]->name);
		put_op(&b, p, y->op[1]);
		str_puts(&b, " would race with it");
		break;
	case WHY_CALL_RW: /* op[0] the call, v[0] what it reads and writes */
		str_puts(&b, "conflict: ");
		put_op(&b, p, y->op[0]);
		str_printf(&b, " reads %%%s and writes it (@%s writes its param in "
			   "place): one-shot does not order a callee's reads and "
			   "writes of one buffer", y->v[0]->name, y->op[0]->callee);
		break;
	case WHY_READ:
		read_text(y, &b);
		break;
	case WHY_CARRIED_OUTSIDE: case WHY_CARRIED_READ:
	case WHY_CARRIED_AWAIT: /* v[0] the buffer, op[0] the launch or await */
		carried_text(y, &b);
		break;
	case WHY_GENERATE: /* v[0] the buffer, op[0] the generate */
		str_printf(&b, "the buffer of %%%s comes from outside the "
			   "generate", y->v[0]->name);
		put_op_at(&b, p, y->op[0]);
		str_puts(&b, ": the body runs again for the next element, which "
			 "must see it unchanged");
		break;
	case WHY_FORALL: /* op[0] reads v[0] while the forall op[1] writes */
		str_printf(&b, "conflict: read of %%%s by ", y->v[0]->name);
		put_op(&b, p, y->op[0]);
		str_puts(&b, " while other trips of the forall");
		put_op_at(&b, p, y->op[1]);
		str_puts(&b, " write it");
		break;
	default:
		short_text(y, &b);
	}
	return reason_take(a, &b);
}

/* y, kept for the decisions (in their arena): a Reason to format later. */
static Reason *
why_keep(OS *S, const Why *y)
{
	Why *k = arena_alloc(S->ds->arena, sizeof *k);

	*k = *y;
	k->r = (Reason){why_format, S->ds->arena, NULL};
	k->p = S->p;
	return &k->r;
}

/* y's sentence now (an argument copy's reason is a string). */
static const char *
why_text(OS *S, Why *y)
{
	y->p = S->p;
	return why_format(&y->r, S->ds->arena);
}

static void
conflict_reason(OS *S, const Op *w, const Value *into, const Conflict *c,
		Why *y)
{
	const Read *r = c->read;

	if (c->w) {
		w = c->w;
		into = c->into;
	}
	*y = (Why){.v = {c->victim}};
	if (c->launch) {
		y->kind = WHY_LAUNCH_WRITE;
		y->op[0] = c->launch;
		y->op[1] = w;
	} else if (r->op == w && w->kind == OP_CALL) {
		y->kind = WHY_CALL_RW;
		y->op[0] = w;
	} else {
		y->kind = WHY_READ;
		y->op[0] = r->op;
		y->op[1] = w;
		y->op[2] = r->launch;
		y->v[1] = into;
		y->v[2] = c->w ? c->joined : NULL;
		y->flags = r->end == INT_MAX ? WF_RETURNED :
			   r->loop ? WF_NEXT_TRIP : 0;
	}
}

/* The read-only member of into's class the sentence names. */
static void
readonly_reason(OS *S, const Value *into, Why *y)
{
	int root = find(S, into->id);
	const Value *v = S->p->values[root];

	for (int m = root;;) {
		const Value *x = S->p->values[m];
		if (x->readonly || (x->def && x->def->kind == OP_CONST)) {
			v = x;
			break;
		}
		if ((m = S->next[m]) == root)
			break;
	}
	*y = (Why){.kind = WHY_READONLY, .v = {v}};
}

/* ---- decisions */

static void
escape_reason(const Value *v, const Value *c, Why *y)
{
	*y = (Why){.kind = WHY_ESCAPE, .v = {v, c}};
}

static bool
is_param_class(OS *S, const Value *v)
{
	return S->param[find(S, v->id)];
}

/* Does v leave its block (returned, or yielded out of an if or a launch)?
 * The lowering then copies it unless it is a whole buffer the block owns. */
static bool
escapes(const Value *v)
{
	const Block *b = v->def->parent;
	const Op *t = b->ops[b->nops - 1];

	if (b->parent && (b->parent->kind == OP_FOR ||
			  b->parent->kind == OP_WHILE))
		return false; /* a loop yield copies into the loop buffer anyway */
	if (t->kind == OP_BR || t->kind == OP_COND_BR)
		return false; /* a block argument takes it over, or a copy */
	for (int i = 0; i < t->nargs; i++)
		if (t->args[i].v == v)
			return true;
	return false;
}

/* Is c (through its in-place chain) a whole buffer made in block b? */
static bool
owned_by(const OS *S, const Value *c, const Block *b)
{
	Form f;

	while (c->def && S->ds->d[c->id].kind == DEC_INPLACE)
		c = S->ds->d[c->id].into;
	if (!c->def)
		return false;
	f = op_info[c->def->kind].form;
	/* call, if and await results own what they receive */
	if (S->ds->d[c->id].kind != DEC_NEW && f != F_CALL && f != F_IF &&
	    f != F_AWAIT)
		return false;
	return c->def->parent == b;
}

/* A write inside a launch into a buffer from outside it may happen until
 * the launch's await: remember it on the class. */
static void
note_async_write(OS *S, const Op *w, const Value *into)
{
	const Block *scope = buffer_scope(S, into);
	const Op *launch = NULL;
	int root = find(S, into->id), end;

	end = -1;
	/* the innermost launch is the context the write is ordered in; it
	 * may run until the latest await of any launch around it */
	for (const Op *cur = w; !at_scope(cur->parent, scope) && cur->parent->parent;
	     cur = cur->parent->parent) {
		const Op *A = cur->parent->parent;
		int e;
		if (A->kind != OP_ASYNC)
			continue;
		if (!launch)
			launch = A;
		e = await_end(S, A);
		end = e > end ? e : end;
	}
	if (!launch)
		return;
	{
		AsyncW *a = arena_alloc(S->a, sizeof *a);
		a->launch = launch;
		a->end = end;
		a->next = S->asyncws[root];
		S->asyncws[root] = a;
	}
	if (end > S->asyncw[root])
		S->asyncw[root] = end;
}

/* ---- forall: trips run in any order, interleaved */

/* Is extract_slice x of shared arg o exactly the slice a
 * parallel_insert_slice of the body writes into o (its own trip's)? */
static bool
own_slice(const Op *x, const Value *o)
{
	const Block *b = o->owner;

	for (int i = 0; i < b->nops; i++) {
		const Op *p = b->ops[i];
		bool same = p->kind == OP_PARALLEL_INSERT_SLICE &&
			    p->dest.v == o && p->noffs == x->noffs;
		for (int d = 0; same && d < p->noffs; d++)
			same = same_operand(&x->offs[d], &p->offs[d]) &&
			       x->sizes[d] == p->sizes[d] &&
			       x->strides[d] == p->strides[d];
		if (same)
			return true;
	}
	return false;
}

typedef struct CrossRead {
	const Value *o;
	const Op *found;
} CrossRead;

static WalkAct
cross_read_op(Op *op, void *ctx)
{
	CrossRead *c = ctx;

	if (op->kind == OP_PARALLEL_INSERT_SLICE && op->args[0].v != c->o)
		return WALK_SKIP;
	if (op->kind == OP_EXTRACT_SLICE && op->args[0].v == c->o &&
	    own_slice(op, c->o))
		return WALK_SKIP;
	if (op_uses(op, c->o)) {
		c->found = op;
		return WALK_STOP;
	}
	return WALK_GO;
}

/* A read of shared arg o that another trip may overwrite first: any
 * use but its own slice and the parallel_insert_slice writes; the first
 * in pre-order inside forall F. */
static const Op *
cross_read(const Op *F, const Value *o)
{
	CrossRead c = {o, NULL};

	walk_regions(F, cross_read_op, &c);
	return c.found;
}

/* Is value x made inside op F's region? */
static bool
inside(const Value *x, const Op *F)
{
	const Op *d = x->def ? x->def : x->owner ? x->owner->parent : NULL;

	if (x->owner && d == F)
		return true; /* a block arg of F's body (the iv, a shared arg) */
	return d && d->seq > F->seq && d->seq <= F->last;
}

/* Does c's buffer come from outside a forall around w?  The other trips
 * use it meanwhile (a shared arg lives in its init's buffer): a trip may
 * write it only through parallel_insert_slice. */
static bool
in_shared(OS *S, const Op *w, const Value *c)
{
	int root = find(S, c->id);

	for (const Op *F = w; F->parent->parent; F = F->parent->parent) {
		const Op *P = F->parent->parent;
		int m = root;
		if (P->kind != OP_FORALL)
			continue;
		do {
			if (!inside(S->p->values[m], P) || (S->p->values[m]->owner == P->body &&
			    S->p->values[m] != P->body->args[0]))
				return true;
			m = S->next[m];
		} while (m != root);
	}
	return false;
}

static bool
is_generate(const OS *S, const Op *P)
{
	(void)S;
	return P->kind == OP_GENERATE;
}

static bool
is_carried_launch(const OS *S, const Op *P)
{
	return P->kind == OP_ASYNC && launch_carried(&S->car, P);
}

/* The op around w (one `is` holds for) whose region c's buffer comes from
 * outside of (a member of c's class defined outside it), or NULL. */
static const Op *
from_outside(OS *S, const Op *w, const Value *c,
	     bool (*is)(const OS *, const Op *))
{
	int root = find(S, c->id);

	for (const Op *F = w; F->parent->parent; F = F->parent->parent) {
		const Op *P = F->parent->parent;
		int m = root;
		if (!is(S, P))
			continue;
		do {
			if (!inside(S->p->values[m], P))
				return P;
			m = S->next[m];
		} while (m != root);
	}
	return NULL;
}

/* Does c's buffer come from outside a generate around w?  Each element's
 * run of the body must see it as it was (value semantics); the body runs
 * again after the write.  The generate around w that holds it, or NULL. */
static const Op *
in_generate(OS *S, const Op *w, const Value *c)
{
	return broken(S, ONESHOT_GENERATE) ? NULL
	       : from_outside(S, w, c, is_generate);
}

/* Does c's buffer come from outside a carried launch around w?  The
 * launch may run on a later trip, while the host uses it. */
static const Op *
in_carried_launch(OS *S, const Op *w, const Value *c)
{
	return broken(S, ONESHOT_CARRIED) ? NULL
	       : from_outside(S, w, c, is_carried_launch);
}

/* c's buffer and g, the launch or await a carried future is of */
static void
carried_reason(int kind, const Value *c, const Op *g, Why *y)
{
	*y = (Why){.kind = (unsigned char)kind, .op = {g}, .v = {c}};
}

static void
generate_reason(const Value *c, const Op *g, Why *y)
{
	*y = (Why){.kind = WHY_GENERATE, .op = {g}, .v = {c}};
}

static void
shared_reason(const Value *c, Why *y)
{
	*y = (Why){.kind = WHY_SHARED, .v = {c}};
}

static void decide_result(OS *S, const Op *w, Value *v, Value **cand, int n,
			  bool join);
static void decide_block(OS *S, const Block *b);

/* A result in place shares its init's buffer with every trip: only when
 * no trip reads of the shared arg what another trip writes. */
static void
decide_forall(OS *S, const Op *op)
{
	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[2 + k].v;
		Value *o = op->body->args[1 + k];
		const Op *x;
		if (!is_tensor(r) || !init)
			continue;
		if (!broken(S, ONESHOT_FORALL) && (x = cross_read(op, o))) {
			Why y = {.kind = WHY_FORALL, .op = {x, op}, .v = {o}};
			S->ds->d[r->id].lazy = why_keep(S, &y);
		} else {
			decide_result(S, op, r, &init, 1, false);
		}
		unite(S, init, o); /* o reads the init's buffer either way */
	}
	decide_block(S, op->body);
	for (int k = 0; k < op->nres; k++)
		if (is_tensor(op->res[k]) &&
		    S->ds->d[op->res[k]->id].kind == DEC_INPLACE)
			unite(S, op->body->args[1 + k], op->res[k]);
}

/* An earlier result of loop w that went in place into c's class: two
 * iter args (or shared args) started from one tensor, or from a view of
 * it, cannot both live in its buffer (found by fuzzing: `iter(%a = %p,
 * %b = %p)` with `yield %b, %b` returned %b's value for %a). */
static const Value *
sibling_in(OS *S, const Op *w, const Value *v, const Value *c)
{
	for (int j = 0; j < w->nres && w->res[j] != v; j++) {
		const Decision *d = &S->ds->d[w->res[j]->id];
		if (d->kind == DEC_INPLACE && find(S, d->into->id) == find(S, c->id))
			return w->res[j];
	}
	return NULL;
}

static void
sibling_reason(const Value *r, const Value *c, Why *y)
{
	*y = (Why){.kind = WHY_SIBLING, .v = {c, r}};
}

/* Would w's write into `into` clobber a read of a member of class y? */
static bool
ring_conflicts(OS *S, const Op *w, const Value *into, int y, Conflict *c)
{
	int wstart = write_start(S, w, into), m = y;
	bool found = false;

	do {
		if (S->rend[m] >= wstart)
			found |= scan_value(S, w, into, wstart, m,
					    S->p->values[m], c);
		m = S->next[m];
	} while (m != y && !found);
	return found;
}

/* Joining the classes of a and b, in a body with branches: may a write
 * already decided into one clobber a member of the other?  (A block
 * argument a back edge binds to b holds an older trip's version, which
 * an earlier write into a's buffer overwrites on the next trip.) */
static bool
join_conflicts(OS *S, const Value *a, const Value *b, Conflict *c)
{
	int x = find(S, a->id), y = find(S, b->id);

	c->read = NULL;
	c->launch = NULL;
	for (int pass = 0; pass < 2 && x != y; pass++) {
		for (CfgW *k = S->cfgws[pass ? y : x]; k; k = k->next)
			if (ring_conflicts(S, k->w, k->into, pass ? x : y, c)) {
				c->w = k->w;
				c->into = k->into;
				c->joined = pass ? a : b;
				return true;
			}
	}
	return false;
}

/* Place result v of op w: the first conflict-free candidate (temps before
 * params), or `new` with the reason the first candidate was refused.  With
 * join false (a loop result) v joins the class later. */
static void
decide_result(OS *S, const Op *w, Value *v, Value **cand, int n, bool join)
{
	Decision *d = &S->ds->d[v->id];
	Why why = {0};         /* the first refusal (kind WHY_NONE: none) */
	const Value *r;
	const Op *g;
	Conflict c;

	if (S->forbid && S->forbid[v->id])
		n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			if (is_param_class(S, cand[i]) != (pass == 1))
				continue;
			if (!join && (r = sibling_in(S, w, v, cand[i]))) {
				if (!why.kind)
					sibling_reason(r, cand[i], &why);
				continue;
			}
			if (in_shared(S, w, cand[i])) {
				if (!why.kind)
					shared_reason(cand[i], &why);
				continue;
			}
			if ((g = in_generate(S, w, cand[i]))) {
				if (!why.kind)
					generate_reason(cand[i], g, &why);
				continue;
			}
			if ((g = in_carried_launch(S, w, cand[i]))) {
				if (!why.kind)
					carried_reason(WHY_CARRIED_OUTSIDE,
						       cand[i], g, &why);
				continue;
			}
			if (S->ro[find(S, cand[i]->id)] && !broken(S, ONESHOT_READONLY)) {
				if (!why.kind)
					readonly_reason(S, cand[i], &why);
				continue;
			}
			/* in a body with branches v's class may already hold
			 * block arguments a back edge binds to v: older trips'
			 * versions of it, clobbered by this write too */
			if (conflicts(S, w, cand[i], &c) ||
			    (join && block_in_cfg(top_block(w)) &&
			     (conflicts_in(S, w, cand[i], v, &c) ||
			      join_conflicts(S, cand[i], v, &c)))) {
				if (!why.kind)
					conflict_reason(S, w, cand[i], &c, &why);
				continue;
			}
			/* (not for an insert: its pair above assumed it in place) */
			if (join && escapes(v) && !owned_by(S, cand[i], w->parent) &&
			    w->kind != OP_INSERT_SLICE && w->kind != OP_INSERT) {
				if (!why.kind)
					escape_reason(v, cand[i], &why);
				continue;
			}
			d->kind = DEC_INPLACE;
			d->into = cand[i];
			d->reason = NULL;
			d->lazy = NULL;
			S->written[find(S, cand[i]->id)] = true;
			note_async_write(S, w, cand[i]);
			if (block_in_cfg(top_block(w))) {
				CfgW *k = arena_alloc(S->a, sizeof *k);
				k->w = w;
				k->into = cand[i];
				k->v = v;
				k->all = S->allw;
				S->allw = k;
				k->next = S->cfgws[find(S, cand[i]->id)];
				S->cfgws[find(S, cand[i]->id)] = k;
			}
			if (join)
				unite(S, cand[i], v);
			return;
		}
	/* (the sentence only when asked: decision_reason) */
	d->lazy = S->forbid && S->forbid[v->id] ? S->forbid[v->id] :
		  why.kind ? why_keep(S, &why) : NULL;
	d->reason = d->lazy ? NULL : n ? "no operand to reuse"
		    : "no operand of its type to reuse";
}

static void decide_block(OS *S, const Block *b);
static void call_op_copies(OS *S, const Op *op);

static void
decide_for(OS *S, const Op *op)
{
	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[3 + k].v;
		if (!is_tensor(r))
			continue;
		if (init)
			decide_result(S, op, r, &init, 1, false);
		/* the iter arg lives in the loop buffer: the init's or r's */
		if (S->ds->d[r->id].kind == DEC_INPLACE)
			unite(S, init, op->body->args[1 + k]);
	}
	decide_block(S, op->body);
	for (int k = 0; k < op->nres; k++)
		unite(S, op->body->args[1 + k], op->res[k]);
}

/* A while is a loop like for (MLIR's scf.while): each tensor iter arg
 * lives in one loop buffer, the init's when no read conflicts; both
 * regions see it. */
static void
decide_while(OS *S, const Op *op)
{
	for (int k = 0; k < op->nres; k++) {
		Value *r = op->res[k], *init = op->args[k].v;
		if (!is_tensor(r))
			continue;
		if (init)
			decide_result(S, op, r, &init, 1, false);
		if (S->ds->d[r->id].kind == DEC_INPLACE)
			unite(S, init, op->body->args[k]);
	}
	decide_block(S, op->body);
	decide_block(S, op->orelse);
	for (int k = 0; k < op->nres; k++)
		unite(S, op->body->args[k], op->res[k]);
}

static void
decide_op(OS *S, const Op *op)
{
	Value *cand[16];

	switch (op_info[op->kind].form) {
	case F_FOR:
		decide_for(S, op);
		return;
	case F_FORALL:
		decide_forall(S, op);
		return;
	case F_WHILE:
		decide_while(S, op);
		return;
	case F_IF:
		decide_block(S, op->body);
		if (op->orelse)
			decide_block(S, op->orelse);
		for (int k = 0; k < op->nres; k++) {
			const Op *t = op->body->ops[op->body->nops - 1];
			unite(S, op->res[k], t->args[k].v);
			if (op->orelse) {
				t = op->orelse->ops[op->orelse->nops - 1];
				unite(S, op->res[k], t->args[k].v);
			}
		}
		return;
	case F_ASYNC:
		decide_block(S, op->body);
		return;
	case F_GENERATE:
		decide_block(S, op->body);
		break; /* the result: a fresh buffer */
	case F_AWAIT: {
		int it = -1;
		for (const Op *l; (l = await_launch(S, op, &it));) {
			const Op *y = l->body->ops[l->body->nops - 1];
			for (int k = 0; k < op->nres && k < y->nargs; k++)
				unite(S, op->res[k], y->args[k].v);
		}
		return;
	}
	case F_EXTRACT_SLICE:
		if (!broken(S, ONESHOT_VIEWS))
			unite(S, op->args[0].v, op->res[0]);
		return;
	case F_RESHAPE:
		if (S->ds->d[op->res[0]->id].kind == DEC_VIEW) {
			if (!broken(S, ONESHOT_VIEWS))
				unite(S, op->args[0].v, op->res[0]);
			return;
		}
		break;
	case F_CALL:
		/* at the call's place, while the classes still hold every
		 * value whose reads may follow it */
		if (S->pw && !broken(S, ONESHOT_CALLS))
			call_op_copies(S, op);
		return;
	default:
		break;
	}
	for (int k = 0; k < op->nres; k++) {
		Value *v = op->res[k];
		if (S->ds->d[v->id].kind != DEC_NEW)
			continue;
		decide_result(S, op, v, cand, inplace_candidates(op, k, cand, 16),
			      true);
	}
}

/* Not walk_block: each form unites its block args and results before
 * and after deciding its regions (decide_for, decide_while, ...). */
static void
decide_block(OS *S, const Block *b)
{
	for (int i = 0; i < b->nops; i++) {
		/* writes inside a launch may start at the launch */
		const Op *op = b->ops[i];
		int floor = S->floor;
		if (S->async_depth == 0)
			S->floor = op->seq;
		if (op->kind == OP_ASYNC)
			S->async_depth++;
		decide_op(S, op);
		if (op->kind == OP_ASYNC)
			S->async_depth--;
		if (S->floor < floor)
			S->floor = floor;
	}
}

/* ---- calls: written params, copies for arguments still needed */

/* In the second pass the answer comes from the first (S->pw). */
static bool
param_written(OS *S, const Value *p)
{
	return S->pw ? S->pw[p->id] : S->written[find(S, p->id)];
}

/* A callee that writes a param writes the caller's argument too. */
static void
propagate_writes(OS *S)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (int i = 0; i < S->p->nvalues; i++) {
			const Op *op = S->p->values[i]->def;
			if (!op || op->kind != OP_CALL || S->p->values[i]->resno)
				continue;
			for (int a = 0; a < op->nargs && a < op->fn->nparams; a++) {
				Value *x = op->args[a].v;
				if (is_tensor(x) && param_written(S, op->fn->params[a]) &&
				    !S->written[find(S, x->id)]) {
					S->written[find(S, x->id)] = true;
					changed = true;
				}
			}
		}
	}
}

static void
add_argcopy(OS *S, const Op *call, int arg, const char *reason)
{
	/* out of memory: the lowering then passes the buffer itself */
	(void)decisions_argcopy(S->ds, call, arg, reason);
}

/* The same, for the refusal y (made a sentence now). */
static void
add_argcopy_why(OS *S, const Op *call, int arg, Why *y)
{
	add_argcopy(S, call, arg, why_text(S, y));
}

/* A call's own read of its argument conflicts with the callee's write:
 * the reason names the read after the call instead, when there is one. */
static void
call_conflict_reason(OS *S, const Op *call, const Value *x, Conflict *c,
		     Why *y)
{
	Conflict later;

	if (c->read && c->read->op == call) {
		S->skip = call;
		if (conflicts(S, call, x, &later) && later.read)
			*c = later;
		S->skip = NULL;
	}
	conflict_reason(S, call, x, c, y);
}

/* Does another argument of the call share arg a's buffer? */
static bool
passed_twice(OS *S, const Op *op, int a)
{
	int root = find(S, op->args[a].v->id);

	for (int b = 0; b < op->nargs; b++)
		if (b != a && is_tensor(op->args[b].v) &&
		    find(S, op->args[b].v->id) == root)
			return true;
	return false;
}

static void
call_op_copies(OS *S, const Op *op)
{
	for (int a = 0; a < op->nargs && a < op->fn->nparams; a++) {
		Value *x = op->args[a].v;
		Conflict c;
		Why y;
		if (!is_tensor(x) || !param_written(S, op->fn->params[a]))
			continue;
		if (S->ro[find(S, x->id)] && !broken(S, ONESHOT_READONLY)) {
			readonly_reason(S, x, &y);
			add_argcopy_why(S, op, a, &y);
		} else if (conflicts(S, op, x, &c)) {
			call_conflict_reason(S, op, x, &c, &y);
			add_argcopy_why(S, op, a, &y);
		} else if (passed_twice(S, op, a))
			add_argcopy(S, op, a, arena_strdup(S->ds->arena, "the "
				    "callee writes this param while another "
				    "param holds the same buffer"));
	}
}


/* ---- entry points */

static int
os_init(OS *S, const Program *p, Decisions *ds, unsigned breaks)
{
	int n = p->nvalues + 1;

	memset(S, 0, sizeof *S);
	S->p = p;
	S->ds = ds;
	S->breaks = breaks;
	if (!(S->a = arena_new()))
		return -1;
	carried_find(p, S->a, &S->car);
	/* (in the arena: one block each, freed with it, zeroed) */
	S->reads = arena_alloc(S->a, (size_t)n * sizeof *S->reads);
	S->rtail = arena_alloc(S->a, (size_t)n * sizeof *S->rtail);
	S->kids = arena_alloc(S->a, (size_t)n * sizeof *S->kids);
	S->rend = arena_alloc(S->a, (size_t)n * sizeof *S->rend);
	S->up = arena_alloc(S->a, (size_t)n * sizeof *S->up);
	S->next = arena_alloc(S->a, (size_t)n * sizeof *S->next);
	S->maxend = arena_alloc(S->a, (size_t)n * sizeof *S->maxend);
	S->ro = arena_alloc(S->a, (size_t)n * sizeof *S->ro);
	S->written = arena_alloc(S->a, (size_t)n * sizeof *S->written);
	S->param = arena_alloc(S->a, (size_t)n * sizeof *S->param);
	S->awaitend = arena_alloc(S->a, (size_t)(p->nops + 1) * sizeof *S->awaitend);
	S->awaits = arena_alloc(S->a, (size_t)(p->nops + 1) * sizeof *S->awaits);
	S->viewof = arena_alloc(S->a, (size_t)n * sizeof *S->viewof);
	S->asyncw = arena_alloc(S->a, (size_t)n * sizeof *S->asyncw);
	S->asyncws = arena_alloc(S->a, (size_t)n * sizeof *S->asyncws);
	S->cfgws = arena_alloc(S->a, (size_t)n * sizeof *S->cfgws);
	if (!S->reads || !S->rtail || !S->kids || !S->rend || !S->up || !S->next ||
	    !S->maxend || !S->ro || !S->written || !S->param || !S->awaitend ||
	    !S->awaits || !S->viewof || !S->asyncw || !S->asyncws || !S->cfgws)
		return -1;
	for (int i = 0; i <= p->nops; i++)
		S->awaitend[i] = INT_MIN;
	for (int i = 0; i < p->nvalues; i++) {
		const Value *v = p->values[i];
		S->up[i] = S->next[i] = i;
		S->viewof[i] = -1;
		S->asyncw[i] = -1;
		S->rend[i] = INT_MIN;
		S->ro[i] = v->readonly || (v->def && v->def->kind == OP_CONST);
		S->param[i] = v->isparam;
		ds->d[i] = base_decision(v);
	}
	return 0;
}

static void
os_free(OS *S)
{
	arena_free(S->a);
}

/* Does branch t pass x once, and use it nowhere else (x dies there)? */
static bool
dies_at(const Value *x, const Op *t)
{
	int n = 0;

	for (int i = 0; i < t->nargs; i++)
		n += t->args[i].v == x;
	return n == 1 && x->nuses == 1 && x->uses[0] == t;
}

/*
 * Block arguments: one shares the buffer of what a branch passes when it
 * dies there (the mutant: on every edge), and a select's result the
 * buffer it picks (MLIR's arith.select on buffers): Decisions.eshare.
 * Set once, before the first pass (they depend on the program alone): a
 * collapse_shape is a view only when its source is contiguous, which a
 * sharing select is when both its picks are (contig.c), and collect_op
 * decides the collapse before the classes below are united.
 */
static WalkAct
mark_select(Op *op, void *ctx)
{
	Decisions *ds = ctx;

	if (op->kind == OP_SELECT && is_tensor(op->res[0]))
		ds->eshare[op->res[0]->id] = 1;
	return WALK_GO;
}

static void
mark_shares(const Program *p, Decisions *ds, unsigned breaks)
{
	for (int i = 0; i < p->nfuncs; i++) {
		const Func *f = p->funcs[i];
		for (int b = 1; b < f->nblocks; b++) {
			const Block *blk = f->blocks[b];
			for (int k = 0; k < blk->nargs; k++) {
				Value *a = blk->args[k];
				uint64_t bits = 0;
				if (!is_tensor(a))
					continue;
				for (int e = 0; e < blk->npreds && e < 64; e++) {
					const Op *t = blk->preds[e];
					Value *x = succ_args(t, pred_edge(blk, e))[k].v;
					if ((breaks & ONESHOT_BLOCKARGS) ||
					    dies_at(x, t))
						bits |= (uint64_t)1 << e;
				}
				ds->eshare[a->id] = bits;
			}
		}
	}
	walk_prog(p, mark_select, ds);
}

/* A block argument that shares an edge's buffer aliases it (its class);
 * the mutant forgets the alias. */
static void
decide_edges(OS *S, const Func *f)
{
	if (broken(S, ONESHOT_BLOCKARGS))
		return;
	for (int b = 1; b < f->nblocks; b++) {
		const Block *blk = f->blocks[b];
		for (int i = 0; i < blk->nargs; i++) {
			Value *a = blk->args[i];
			if (!is_tensor(a))
				continue;
			for (int p = 0; p < blk->npreds && p < 64; p++) {
				const Op *t = blk->preds[p];
				if (S->ds->eshare[a->id] >> p & 1)
					unite(S, a, succ_args(t, pred_edge(blk, p))[i].v);
			}
		}
	}
}

/* A sharing select: one class with both picks. */
static WalkAct
decide_select(Op *op, void *ctx)
{
	OS *S = ctx;

	if (op->kind == OP_SELECT && is_tensor(op->res[0])) {
		unite(S, op->res[0], op->args[1].v);
		unite(S, op->res[0], op->args[2].v);
	}
	return WALK_GO;
}

/*
 * In a body with branches the classes keep growing after a decision (a
 * view or a block argument joins a class later, through a block decided
 * later): check each in-place write again against the final classes, and
 * forbid the ones that now conflict (the caller decides again).  Returns
 * how many were forbidden.
 */
static int
recheck(OS *S)
{
	int n = 0;
	Conflict c;

	S->floor = INT_MIN;
	S->skip = NULL;
	for (CfgW *k = S->allw; k; k = k->all) {
		Why why = {0};
		const Op *g;
		if (S->forbid[k->v->id])
			continue;
		if (in_shared(S, k->w, k->into))
			shared_reason(k->into, &why);
		else if ((g = in_generate(S, k->w, k->into)))
			generate_reason(k->into, g, &why);
		else if (S->ro[find(S, k->into->id)] && !broken(S, ONESHOT_READONLY))
			readonly_reason(S, k->into, &why);
		else if (conflicts(S, k->w, k->into, &c))
			conflict_reason(S, k->w, k->into, &c, &why);
		if (why.kind) {
			S->forbid[k->v->id] = why_keep(S, &why);
			n++;
		}
	}
	return n;
}

/* One pass over the whole program: collect reads, decide.  With pw set
 * (pass 2) calls also decide their argument copies. */
/* ---- carried launches, on the final classes */

typedef struct Held {
	OS *S;
	const Op *launch;
	bool *read;      /* by class root: a carried launch reads it */
	bool *given;     /* by class root: a carried future's results */
	const Op **reader; /* by class root: that launch */
	const Op **await;  /* by class root: an await giving them */
	bool any;
} Held;

static WalkAct
held_reads(Op *op, void *ctx)
{
	Held *h = ctx;

	for (int k = 0; k < op->nargs + 1; k++) {
		const Value *v = k < op->nargs ? op->args[k].v
				 : op->hasdest ? op->dest.v : NULL;
		if (is_tensor(v) && !inside(v, h->launch)) {
			int r = find(h->S, v->id);
			h->read[r] = true;
			h->reader[r] = h->launch;
		}
	}
	return WALK_GO;
}

static WalkAct
held_op(Op *op, void *ctx)
{
	Held *h = ctx;

	if (op->kind == OP_ASYNC && launch_carried(&h->S->car, op)) {
		h->launch = op;
		h->any = true;
		walk_regions(op, held_reads, h);
	}
	if (op->kind == OP_AWAIT && h->S->car.carried[op->args[0].v->id])
		for (int k = 0; k < op->nres; k++)
			if (is_tensor(op->res[k])) {
				int r = find(h->S, op->res[k]->id);
				h->given[r] = true;
				h->await[r] = op;
			}
	return WALK_GO;
}

/* Does v's buffer come from an await of a carried future (through
 * views)? */
static bool
awaited_carried(const OS *S, const Value *v)
{
	while (S->viewof[v->id] >= 0)
		v = S->p->values[S->viewof[v->id]];
	return v->type->kind == TY_FUTURE && S->car.carried[v->id];
}

/* Is op inside a carried launch whose yield gives a value of class root
 * (a launch making the results, before anyone awaits them)? */
static bool
in_producer(OS *S, const Op *op, int root)
{
	for (; op; op = op->parent ? op->parent->parent : NULL) {
		const Op *y;
		if (op->kind != OP_ASYNC || !launch_carried(&S->car, op))
			continue;
		y = op->body->ops[op->body->nops - 1];
		for (int k = 0; k < y->nargs; k++)
			if (is_tensor(y->args[k].v) && find(S, y->args[k].v->id) == root)
				return true;
	}
	return false;
}

/* Forbid each in-place write into a buffer a carried launch reads, or
 * into a carried future's results (but by the launch making them): how
 * many. */
static int
held_recheck(OS *S)
{
	const Program *p = S->p;
	size_t n = (size_t)p->nvalues + 1;
	Held h = {S, NULL, arena_alloc(S->a, n), arena_alloc(S->a, n),
		  arena_alloc(S->a, n * sizeof(const Op *)),
		  arena_alloc(S->a, n * sizeof(const Op *)), false};
	int nf = 0;

	if (broken(S, ONESHOT_CARRIED))
		return 0;
	walk_prog(p, held_op, &h);
	for (int i = 0; i < p->nvalues && h.any; i++) {
		const Decision *d = &S->ds->d[i];
		const Value *v = p->values[i];
		Why y;
		int r;
		if (d->kind != DEC_INPLACE || d->forced || S->forbid[i])
			continue;
		r = find(S, d->into->id);
		if (h.read[r])
			carried_reason(WHY_CARRIED_READ, d->into, h.reader[r],
				       &y);
		else if (h.given[r] && (awaited_carried(S, d->into) ||
					!in_producer(S, v->def, r)))
			carried_reason(WHY_CARRIED_AWAIT, d->into, h.await[r],
				       &y);
		else
			continue;
		S->forbid[i] = why_keep(S, &y);
		nf++;
	}
	return nf;
}

static int
analyze(OS *S, const Program *p, Decisions *ds, unsigned breaks,
	const bool *pw, Reason **forbid, jmp_buf *oom)
{
	if (os_init(S, p, ds, breaks))
		return -1;
	S->pw = pw;
	S->forbid = forbid;
	S->a->oom = oom;
	walk_prog(p, find_await, S);
	walk_prog(p, collect_op, S);
	for (int i = 0; i < p->nvalues; i++)
		S->maxend[i] = read_end(S, i);
	for (int i = 0; i < p->nfuncs && ds->eshare; i++)
		decide_edges(S, p->funcs[i]);
	if (ds->eshare)
		walk_prog(p, decide_select, S);
	for (int i = 0; i < p->nfuncs; i++)
		for (int b = 0; b < p->funcs[i]->nblocks; b++)
			decide_block(S, p->funcs[i]->blocks[b]);
	return 0;
}

/*
 * Two passes: the first finds which params each callee writes in place
 * (callees may come after their callers, and recurse); the second decides
 * again, identically, and at each call whether an argument must be passed
 * as a copy.  Without a call the first pass is the answer: what it finds
 * is read at calls only (param_written, call_op_copies), so the second
 * would decide the same (half a fuzz campaign's programs call nothing).
 */
int
oneshot_decide(const Program *p, Decisions *ds, unsigned breaks)
{
	OS S;
	jmp_buf oom;
	bool *volatile pw = NULL; /* these change after the setjmp */
	Reason **volatile forbid = NULL;
	volatile int rc = -1;
	bool calls;

	memset(&S, 0, sizeof S);
	ds->arena->oom = &oom;
	if (setjmp(oom))
		goto out;
	if (!(forbid = mem_calloc((size_t)p->nvalues + 1, sizeof *forbid)))
		goto out;
	if (ds->eshare)
		mark_shares(p, ds, breaks);
	calls = prog_has_op(p, OP_CALL);
	/* each round forbids one more in-place write, or is the last */
	for (int round = 0; round <= p->nvalues; round++) {
		if (analyze(&S, p, ds, breaks, NULL, forbid, &oom))
			goto out;
		if (calls) {
			propagate_writes(&S);
			if (!(pw = mem_calloc((size_t)p->nvalues + 1,
					      sizeof *pw)))
				goto out;
			for (int i = 0; i < p->nvalues; i++)
				pw[i] = p->values[i]->isparam &&
					param_written(&S, p->values[i]);
			os_free(&S);
			if (analyze(&S, p, ds, breaks, pw, forbid, &oom))
				goto out;
		}
		int nf = S.allw ? recheck(&S) : 0;
		if (!nf && !held_recheck(&S))
			break;
		os_free(&S);
		mem_free(pw);
		pw = NULL;
	}
	if (broken(&S, ONESHOT_ZERO_TRIP))
		ds->lower |= LOWER_NO_INIT_COPY;
	if (broken(&S, ONESHOT_FAIL_FREES))
		ds->lower |= LOWER_FAIL_NO_FREES;
	if (broken(&S, ONESHOT_FAIL_DRAIN))
		ds->lower |= LOWER_FAIL_NO_DRAIN;
	if (broken(&S, ONESHOT_FREES))
		ds->lower |= LOWER_TEXTUAL_FREES;
	if (broken(&S, ONESHOT_LEND))
		ds->lower |= LOWER_NO_LEND;
	rc = 0;
out:
	ds->arena->oom = NULL;
	mem_free(pw);
	mem_free(forbid);
	os_free(&S);
	return rc;
}

/* ---- last-use: in place when the operand has no later textual use */

/* The first op after w (in program order) that uses v, or NULL.  Not
 * walk_block nor v's use list: its own order (each block's ops before the
 * blocks inside them, the last region first) picks which later use the
 * reason names, and the reasons must stay as they are. */
static const Op *
used_after(const Program *p, const Value *v, const Op *w)
{
	for (int f = 0; f < p->nfuncs; f++) {
		const Block *stack[64];
		int n = 0;
		stack[n++] = p->funcs[f]->body;
		while (n) {
			const Block *b = stack[--n];
			for (int i = 0; i < b->nops; i++) {
				const Op *op = b->ops[i];
				if (op->seq > w->seq && op_uses(op, v))
					return op;
				if (op->body && n < 64)
					stack[n++] = op->body;
				if (op->orelse && n < 64)
					stack[n++] = op->orelse;
			}
		}
	}
	return NULL;
}

/* Why last-use keeps v new: its first candidate's refusal. */
static const char *
lastuse_reason(const Program *p, Decisions *ds, const Value *c, const Op *w)
{
	const Op *u;
	Str b = {0};

	if (c->readonly)
		str_printf(&b, "read-only buffer: %%%s is a {readonly} param",
			   c->name);
	else if (c->def && c->def->kind == OP_CONST)
		str_printf(&b, "read-only buffer: %%%s is a constant", c->name);
	else if (block_in_cfg(top_block(w)))
		str_printf(&b, "last-use does not follow branches (a function "
			   "with blocks)");
	else if ((u = used_after(p, c, w))) {
		str_printf(&b, "%%%s has a later textual use (", c->name);
		if (u->nres)
			str_printf(&b, "%%%s = ", u->res[0]->name);
		else
			str_puts(&b, "the ");
		str_puts(&b, op_info[u->kind].name);
		put_op_at(&b, p, u);
		str_puts(&b, ")");
	} else
		return NULL;
	return reason_take(ds->arena, &b);
}

int
lastuse_decide(const Program *p, Decisions *ds, unsigned breaks)
{
	for (int i = 0; i < p->nvalues; i++) {
		Value *v = p->values[i], *cand[16];
		int n;
		ds->d[i] = base_decision(v);
		if (ds->d[i].kind != DEC_NEW)
			continue;
		n = inplace_candidates(v->def, v->resno, cand, 16);
		for (int k = 0; k < n && !block_in_cfg(top_block(v->def)); k++)
			if (!cand[k]->readonly &&
			    !(cand[k]->def && cand[k]->def->kind == OP_CONST) &&
			    !used_after(p, cand[k], v->def)) {
				ds->d[i].kind = DEC_INPLACE;
				ds->d[i].into = cand[k];
				break;
			}
		if (n && ds->d[i].kind == DEC_NEW)
			ds->d[i].reason = lastuse_reason(p, ds, cand[0], v->def);
	}
	return 0;
}
