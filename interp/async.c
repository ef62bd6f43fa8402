/*
 * async.c: launches on streams, schedules, and buffer lifetime through
 * completion.
 *
 * A launch captures the registers its region uses (a snapshot: a loop may
 * change them before the region runs) and waits on its stream.  Launches on
 * one stream complete in launch order; different streams are unordered.
 * When a pending launch runs is the schedule's choice: at once (sync), as
 * late as legal: at its await or when its function returns (late), or at
 * seeded random instruction boundaries (random:SEED).
 *
 * While pending, a launch pins every buffer it will read or write: a host
 * write into such a buffer is an async-race, a host read of a buffer the
 * launch will write is an early-await-read, and a free of it is reported as
 * a use-after-free when the launch runs.  A pinned buffer stays in M(t)
 * until the launch completes, even if the host freed it.
 */
#include <stdio.h>
#include <string.h>

#include "exec.h"

enum { PENDING, RUNNING, DONE };

typedef struct Pin {
	int buf;
	View view;            /* the part it uses (element offsets) */
	bool write;           /* the region writes it in place */
	const Value *v;       /* the captured value */
} Pin;

struct Launch {
	const BInst *in;
	const Launch *parent; /* the launch whose body launched it, or NULL */
	const int *runs;      /* the slots its file can hold (launch_runs) */
	const Frame *home;    /* the frame that launched it (drained at its
			       * return) */
	const Func *fn;
	int state, stream;
	Reg *regs;            /* private register file, captured values */
	Fut *fut;
	Pin *pins;
	int npins;
	DynCtx ctx;           /* the trips and branches it was launched in */
	const BInst **freed;  /* by result: the host's free of `%f.k` before
			       * the launch ran, or NULL */
};

/* ---- what a launch captures and writes, from its region */

/* Is v defined inside the region of op (at any depth)? */
static bool
defined_inside(const Value *v, const Op *op)
{
	const Op *d = v->def;

	if (!d && v->owner)
		d = v->owner->parent;
	for (; d; d = d->parent ? d->parent->parent : NULL)
		if (d == op)
			return true;
	return false;
}

typedef struct Captures {
	const Op *launch;
	int *ids, n;
} Captures;

static void
note_use(Captures *c, const Value *v)
{
	if (!v || defined_inside(v, c->launch))
		return;
	for (int i = 0; i < c->n; i++)
		if (c->ids[i] == v->id)
			return;
	c->ids[c->n++] = v->id;
}

static WalkAct
uses_from_outside(Op *op, void *ctx)
{
	Captures *c = ctx;

	for (int k = 0; k < op->nargs; k++)
		note_use(c, op->args[k].v);
	for (int k = 0; k < op->noffs; k++)
		note_use(c, op->offs[k].v);
	if (op->hasdest)
		note_use(c, op->dest.v);
	return WALK_GO;
}

static WalkAct
count_operands(Op *op, void *ctx)
{
	*(int *)ctx += op->nargs + op->noffs + 1;
	return WALK_GO;
}

/* A memref program's launch captures every register (its region is no
 * TIR region to read the uses from); only the memref program's own are
 * pinned (the TIR values' registers say which version a read expects). */
static const int *
captured_all(Exec *X, const BInst *in)
{
	int *ids = arena_alloc(X->sarena, (size_t)(X->bp->nregs + 1) * sizeof *ids);

	for (int i = 0; i < X->bp->nregs; i++)
		ids[i] = i;
	ids[X->bp->nregs] = -1;
	X->captured[in->id] = ids;
	return ids;
}

/* The value ids a launch's region uses from outside, -1 terminated;
 * computed once per launch instruction. */
static const int *
captured(Exec *X, const BInst *in)
{
	Captures c = {in->op, NULL, 0};
	int n = 0;

	if (X->captured[in->id])
		return X->captured[in->id];
	if (X->bp->memref)
		return captured_all(X, in);
	walk_regions(in->op, count_operands, &n);
	c.ids = arena_alloc(X->sarena, (size_t)(n + 1) * sizeof *c.ids);
	walk_regions(in->op, uses_from_outside, &c);
	c.ids[c.n] = -1;
	/* (zeroes: nothing known yet of each) */
	X->capflags[in->id] = arena_alloc(X->sarena, (size_t)c.n + 1);
	X->captured[in->id] = c.ids;
	return c.ids;
}

/* The slots a launch's register file can hold (file_runs_of): what it
 * captures (ids), the values its region defines, and the lowering's
 * registers of its function (which name no region); computed once per
 * launch instruction.  A launch's file is cleared by them, not whole. */
static WalkAct
mark_defs(Op *op, void *ctx)
{
	uint8_t *mark = ctx;
	Block *r[MAXREGIONS];
	int n = op_regions(op, r);

	for (int k = 0; k < op->nres; k++)
		mark[op->res[k]->id] = 1;
	for (int j = 0; j < n; j++)
		for (int k = 0; k < r[j]->nargs; k++)
			mark[r[j]->args[k]->id] = 1;
	return WALK_GO;
}

static const int *
launch_runs(Exec *X, const BInst *in, const Func *fn, const int *ids)
{
	const BProg *bp = X->bp;
	uint8_t *mark;

	if (bp->memref)
		return NULL;
	if (X->lruns[in->id])
		return X->lruns[in->id];
	mark = file_marks(X);
	for (; *ids >= 0; ids++)
		mark[*ids] = 1;
	mark_defs((Op *)in->op, mark); /* (its future too: no harm) */
	walk_regions(in->op, mark_defs, mark);
	for (int i = bp->p->nvalues; i < bp->nregs; i++)
		mark[i] |= file_mine(bp, i, fn);
	return X->lruns[in->id] = file_runs_of(X, mark);
}

/* Does the region touch v's buffer: read it (an operand that is read, a
 * copy source, a value passed out or on) or alias it?  Making a view is
 * no access: using the view is. */
typedef struct Touch {
	const BBlock *region;
	const Value *v;
	bool found;
} Touch;

static bool touches(const BBlock *region, const Value *v);

static bool
touch_inst(const BInst *in, const BBlock *region, const Value *v)
{
	const Op *op = in->op;

	if (in->src == v && in->kind == BI_VIEW) {
		if (touches(region, in->v))
			return true;
	} else if (in->src == v && in->kind != BI_ALLOC) {
		return true; /* an alloc's src is only its shape */
	}
	for (int k = 0; k < in->nvals; k++)
		if (in->vals[k] == v)
			return true;
	if (op && (in->kind == BI_COMPUTE || in->kind == BI_FOR)) {
		for (int k = 0; k < op->nargs; k++)
			if (op->args[k].v == v)
				return true;
		if (op->hasdest && op->dest.v == v &&
		    op_info[op->kind].readsdest)
			return true;
	}
	return false;
}

static WalkAct
touch_walk(BInst *in, void *ctx)
{
	Touch *t = ctx;

	if (touch_inst(in, t->region, t->v)) {
		t->found = true;
		return WALK_STOP;
	}
	return WALK_GO;
}

/* (a view of v: whether the region touches the view, from the top) */
static bool
touches(const BBlock *region, const Value *v)
{
	Touch t = {region, v, false};

	walk_bblock(region, touch_walk, &t);
	return t.found;
}

static bool
in_set(const Value **set, int n, const Value *v)
{
	for (int k = 0; k < n; k++)
		if (set[k] == v)
			return true;
	return false;
}

typedef struct Writes {
	const Value **alias;
	int *nalias;
	bool w;
} Writes;

static WalkAct
write_inst(BInst *in, void *ctx)
{
	Writes *r = ctx;
	const Value **alias = r->alias;
	int *nalias = r->nalias;

	if (in->kind == BI_ALIAS && in_set(alias, *nalias, in->src)) {
		alias[(*nalias)++] = in->v; /* computed in place */
		r->w = true;
	} else if (in->kind == BI_VIEW && in_set(alias, *nalias, in->src)) {
		alias[(*nalias)++] = in->v;
	} else if (in->kind == BI_COPY && in_set(alias, *nalias, in->v)) {
		r->w = true; /* copied into */
	} else if (in->kind == BI_BIND && in->carry &&
		   in_set(alias, *nalias, in->src)) {
		r->w = true; /* a memref program's op computes into it */
	}
	return WALK_GO;
}

/* Does the region write alias[0..nalias) or what aliases them (added to
 * alias as they are made)? */
static bool
region_writes(const BBlock *b, const Value **alias, int *nalias)
{
	Writes r = {alias, nalias, false};

	walk_bblock(b, write_inst, &r);
	return r.w;
}

static WalkAct
count_inst(BInst *in, void *ctx)
{
	(void)in;
	(*(int *)ctx)++;
	return WALK_GO;
}

static int
count_insts(const BBlock *b)
{
	int n = 0;

	walk_bblock(b, count_inst, &n);
	return n;
}

/* Does L's region touch v (its i-th capture), and write it?  Known
 * once per launch instruction (the region is the same every time); set
 * whole (an out-of-memory exit leaves it unknown). */
static uint8_t
capture_flags(Exec *X, Launch *L, const Value *v, int i)
{
	uint8_t *f = &X->capflags[L->in->id][i];
	const Value **alias;
	int nalias = 1;
	bool w;

	if (*f)
		return *f;
	if (!touches(L->in->body, v))
		return *f = CAP_KNOWN;
	alias = xalloc(X, (size_t)(count_insts(L->in->body) + 2) * sizeof *alias);
	alias[0] = v;
	w = region_writes(L->in->body, alias, &nalias);
	mem_free(alias);
	return *f = CAP_KNOWN | CAP_TOUCHED | (w ? CAP_WRITTEN : 0);
}

/* L's capture number ci, v in r, pinned if the region touches it. */
static void
pin(Exec *X, Launch *L, const Value *v, const Reg *r, int ci)
{
	const Value **alias;
	int nalias = 1;
	Pin *p;
	uint8_t f;

	if (v->type->kind != TY_TENSOR || r->buf < 0 || r->bad)
		return;
	if (!X->bp->memref) {
		if (!((f = capture_flags(X, L, v, ci)) & CAP_TOUCHED))
			return;
		p = &L->pins[L->npins++];
		p->buf = r->buf;
		p->view = r->view;
		p->v = v;
		p->write = f & CAP_WRITTEN;
		X->bufs[r->buf].pins++;
		return;
	}
	if (v->id < X->bp->p->nvalues || !r->set || !touches(L->in->body, v))
		return;
	alias = xalloc(X, (size_t)(count_insts(L->in->body) + 2) * sizeof *alias);
	alias[0] = v;
	for (int i = 0; X->bp->memref && i < L->npins; i++)
		if (L->pins[i].buf == r->buf &&
		    !memcmp(&L->pins[i].view, &r->view, sizeof r->view)) {
			/* a cast or clone of what is pinned: one pin, written
			 * if the region writes through either */
			L->pins[i].write |= region_writes(L->in->body, alias, &nalias);
			mem_free(alias);
			return;
		}
	p = &L->pins[L->npins++];
	p->buf = r->buf;
	p->view = r->view;
	p->v = v;
	p->write = region_writes(L->in->body, alias, &nalias);
	mem_free(alias);
	X->bufs[r->buf].pins++;
}

static void
unpin(Exec *X, Launch *L)
{
	for (int i = 0; i < L->npins; i++) {
		Buf *b = &X->bufs[L->pins[i].buf];
		/* a buffer freed while in use leaves M(t) only now */
		if (--b->pins == 0 && b->freed) {
			X->live -= b->bytes;
			if (b->kind == BUF_ALLOC)
				X->live -= X->o->alloc_overhead;
		}
	}
	L->npins = 0;
}

/* ---- running launches */

static void run_launch(Exec *X, Launch *L);

/* Every scan below walks X->pend, the launches not done yet, never the
 * run's whole history: each access, await and drain cost the launches in
 * flight, not every launch made so far (un-awaited launches in a loop
 * were quadratic, cubic under random schedules).  Done launches leave
 * pend when no scan is running and they are over half of it. */
static void
pend_push(Exec *X, Launch *L)
{
	if (!X->scans && X->pend_done > X->npend / 2) {
		int n = 0;
		for (int i = 0; i < X->npend; i++)
			if (X->pend[i]->state != DONE)
				X->pend[n++] = X->pend[i];
		X->npend = n;
		X->pend_done = 0;
	}
	VEC_PUSH(X->arena, X->pend, X->npend, X->cappend, L);
}

/* Complete L: first what its stream must finish before it. */
static void
complete(Exec *X, Launch *L)
{
	/* done, it may have left pend: the scan below would not find it and
	 * would run every launch of its stream, later ones too */
	if (L->state == DONE)
		return;
	/* a stream orders the launches made in one context (the host, or
	 * one launch's body): a nested launch does not queue behind the
	 * host's, which would deadlock on a late schedule */
	X->scans++;
	for (int i = 0; i < X->npend && X->pend[i] != L; i++) {
		Launch *P = X->pend[i];
		if (P->state == PENDING && P->stream == L->stream &&
		    P->parent == L->parent)
			run_launch(X, P);
	}
	X->scans--;
	if (L->state == PENDING)
		run_launch(X, L);
	else if (L->state == RUNNING)
		abort_run(X, L->in->op, "%sa launch awaits itself (stream %lld)",
			  "", (long long)L->stream);
}

/* The host freed result k of L before L ran (`free %f.k`): L still ran
 * and wrote its result into a buffer its owner had let go of, a use after
 * free; the buffer goes now (no leak on top). */
static void
results_freed_early(Exec *X, Launch *L)
{
	for (int k = 0; L->freed && k < L->fut->n && !X->stop; k++) {
		Reg *r = &L->fut->regs[k];
		if (!L->freed[k] || !r->set || r->buf < 0)
			continue;
		violate(X, VK_USE_AFTER_FREE, L->in, L->freed[k]->v, L->freed[k],
			r->buf, NULL, 0, "the launch writes its result after "
			"the host freed it");
		buf_release(X, r->buf, L->freed[k]);
	}
}

/* A launch's register file, done with: zeroed and kept for the run's
 * next launch (they all have nregs + 1), or freed. */
static void
file_done(Exec *X, const Launch *L, Reg *r)
{
	if (X->nlfiles == (int)(sizeof X->lfiles / sizeof *X->lfiles)) {
		mem_free(r);
		return;
	}
	file_clear(X, r, L->runs);
	memset(&r[X->bp->nregs], 0, sizeof *r);
	X->lfiles[X->nlfiles++] = r;
}

static void
run_launch(Exec *X, Launch *L)
{
	Frame G = {L->regs, L->fn};
	Launch *outer = X->cur;
	DynCtx host = X->ctx;

	L->state = RUNNING;
	X->cur = L;
	X->cur_in = L->in;
	X->ctx = L->ctx; /* its body runs where it was launched */
	exec_block(X, &G, L->in->body, L->fut->regs);
	results_freed_early(X, L);
	X->ctx = host;
	X->cur = outer;
	X->cur_in = outer ? outer->in : NULL;
	L->state = DONE;
	X->pend_done++;
	unpin(X, L);
	file_done(X, L, L->regs);
	L->regs = NULL;
}

void
launch_start(Exec *X, Frame *F, const BInst *in)
{
	const int *ids = captured(X, in);
	Launch *L = arena_alloc(X->arena, sizeof *L);
	Reg *r = &F->regs[in->v->id];
	int n = 0;

	if (!exec_charge(X, in->op, WORK_CALL))
		return;
	while (ids[n] >= 0)
		n++;
	L->in = in;
	L->parent = X->cur;
	L->home = F;
	L->fn = F->fn;
	L->runs = launch_runs(X, in, F->fn, ids);
	L->stream = in->op->stream;
	L->ctx = X->ctx;
	L->fut = arena_alloc(X->arena, sizeof *L->fut);
	L->fut->n = in->op->nrtypes;
	L->fut->refs = 1; /* the register it is launched into */
	L->fut->regs = arena_alloc(X->arena, (size_t)(L->fut->n + 1) * sizeof(Reg));
	L->pins = arena_alloc(X->arena, (size_t)(n + 1) * sizeof *L->pins);
	L->regs = X->nlfiles ? X->lfiles[--X->nlfiles]
			     : mem_calloc((size_t)X->bp->nregs + 1, sizeof(Reg));
	if (!L->regs)
		longjmp(X->oom, 1);
	VEC_PUSH(X->arena, X->launches, X->nlaunches, X->caplaunches, L);
	pend_push(X, L);
	for (int i = 0; i < n; i++) {
		reg_assign(&L->regs[ids[i]], &F->regs[ids[i]]);
		pin(X, L, X->bp->regs[ids[i]], &L->regs[ids[i]], i);
	}
	memset(r, 0, sizeof *r);
	r->buf = -1;
	r->set = true;
	r->fut = L->fut;
	r->launch = L;
	/* `%f.k`: the launch's result buffers, owned by this block */
	for (int k = 0; k < in->nvals; k++)
		if (in->vals[k]) {
			Reg *fk = &F->regs[in->vals[k]->id];
			*fk = *r;
			fk->futk = k;
		}
	if (X->o->sched.kind == SCHED_SYNC || X->o->sched.kind == SCHED_ALL) {
		/* taped: random draws run a host launch at the boundary
		 * right after it (launch_tick), never one launched inside a
		 * running launch: that run is no random run's */
		if (X->o->tape && X->cur)
			X->o->tape->over = true;
		X->sync_ran = X->o->tape && !X->cur;
		complete(X, L);
	}
}

void
launch_finish(Exec *X, Reg *f)
{
	if (f->launch)
		complete(X, f->launch);
}

/* `%f.k` freed (by `in`) before any await ran.  A launch that ran: r
 * stands for its result buffer from now on (true: the caller frees it).
 * A pending one is not completed by it (that would end the race window
 * early): it runs when it would have, and its result then lands in a
 * freed buffer (results_freed_early).  A second free of it is a double
 * free. */
bool
launch_resolve(Exec *X, const BInst *in, Reg *r)
{
	Launch *L = r->launch;
	int k = r->futk;

	if (L && L->state != DONE && k < L->fut->n) {
		if (!L->freed)
			L->freed = arena_alloc(X->arena, (size_t)L->fut->n *
					       sizeof *L->freed);
		if (L->freed[k])
			violate(X, VK_DOUBLE_FREE, in, in->v, L->freed[k], -1,
				NULL, 0, NULL);
		else
			L->freed[k] = in;
		return false;
	}
	if (r->fut && k < r->fut->n)
		reg_assign(r, &r->fut->regs[k]);
	return true;
}

/* One more holder of a carried future. */
void
launch_retain(Exec *X, const BInst *in, Reg *f)
{
	if (!f->fut)
		return;
	if (f->fut->refs <= 0)
		abort_run(X, in->op, "%sa released future is passed on (a "
			  "bufdiff lowering bug)", "", 0);
	else
		f->fut->refs++;
}

/* The last holder of fut lets go: first the pending launches that
 * captured it (they await it when they run) complete. */
void
launch_settle_future(Exec *X, const Fut *fut)
{
	X->scans++;
	for (int i = 0; i < X->npend && !X->stop; i++) {
		Launch *L = X->pend[i];
		const int *ids = L->state == PENDING ? X->captured[L->in->id] : NULL;
		for (int k = 0; ids && ids[k] >= 0; k++)
			if (L->regs[ids[k]].fut == fut) {
				complete(X, L);
				break;
			}
	}
	X->scans--;
}

/* Does pending L use buffer h: pin it, or hold a future whose result
 * lies there (it awaits it when it runs)? */
static bool
launch_uses(Exec *X, const Launch *L, int h)
{
	const int *ids = X->captured[L->in->id];

	for (int p = 0; p < L->npins; p++)
		if (L->pins[p].buf == h)
			return true;
	for (int k = 0; ids && ids[k] >= 0; k++) {
		const Fut *f = L->regs[ids[k]].fut;
		for (int j = 0; f && j < f->n; j++)
			if (f->regs[j].set && f->regs[j].buf == h)
				return true;
	}
	return false;
}

void
launch_settle(Exec *X, int h)
{
	X->scans++;
	for (int i = 0; i < X->npend && !X->stop; i++) {
		Launch *L = X->pend[i];
		if (L->state == PENDING && launch_uses(X, L, h))
			complete(X, L);
	}
	X->scans--;
}

void
launch_await(Exec *X, Frame *F, const BInst *in)
{
	const Op *op = in->op;
	Reg *f = &F->regs[op->args[0].v->id];

	if (!f->fut)
		return;
	if (f->launch)
		complete(X, f->launch);
	for (int k = 0; k < op->nres && !X->stop; k++)
		if (k + in->meta_dim < f->fut->n)
			reg_assign(&F->regs[op->res[k]->id],
				   &f->fut->regs[k + in->meta_dim]);
	for (int k = 0; k < in->nvals && in->vals && !X->stop; k++)
		if (in->vals[k])
			reg_assign(&F->regs[in->vals[k]->id], &f->fut->regs[k]);
}

void
launch_drain(Exec *X, const Frame *home)
{
	X->scans++;
	for (int i = 0; i < X->npend && !X->stop; i++) {
		Launch *L = X->pend[i];
		if (L->state == PENDING && (!home || L->home == home))
			complete(X, L);
	}
	X->scans--;
}

/* The launches that may run now (the oldest not-done launch of each
 * (stream, parent), when pending), at most 16: how many. */
static int
ready_launches(Exec *X, Launch **ready)
{
	int n = 0, nseen = 0;
	/* each one seen is ready or seen[] holds its queue, so seen[] stays
	 * within the 16 ready ones plus the running */
	const Launch *seen[32];

	for (int i = 0; i < X->npend && n < 16; i++) {
		Launch *L = X->pend[i];
		bool first = L->state != DONE;
		for (int j = 0; first && j < nseen; j++)
			first = seen[j]->stream != L->stream ||
				seen[j]->parent != L->parent;
		if (!first)
			continue;
		if (nseen < 32)
			seen[nseen++] = L;
		if (L->state == PENDING)
			ready[n++] = L;
	}
	return n;
}

/* One draw's decision onto the run's tape (ExecOpts.tape), if kept:
 * n == 0, a draw that decides nothing (runs of them are one entry). */
void
tape_put(Exec *X, uint32_t n, uint32_t k)
{
	SchedTape *t = X->o->tape;

	if (!t || t->over)
		return;
	if (!n && t->len && !t->d[t->len - 1].n &&
	    t->d[t->len - 1].k < UINT32_MAX) {
		t->d[t->len - 1].k++;
		return;
	}
	if (t->len == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		TapeDraw *d = cap <= TAPE_MAX ?
			mem_realloc(t->d, (size_t)cap * sizeof *d) : NULL;
		if (!d) {
			t->over = true;
			return;
		}
		t->d = d, t->cap = cap;
	}
	t->d[t->len++] = (TapeDraw){n, n ? k : 1};
}

/* random:SEED: at each instruction boundary, maybe run some launch that
 * may run now (the oldest pending one of its stream); rng_next draws.
 * (Which are ready is asked before the draw, so the tape says it of
 * every draw: the draw does not change it.) */
void
launch_tick(Exec *X)
{
	Launch *ready[16];

	/* launches run whole: a random point is between host instructions */
	if (X->cur)
		return;
	if (X->o->sched.kind == SCHED_LATE && X->o->tape) {
		/* the draw that would run none here (none when stopped) */
		int n;
		if (X->stop)
			return;
		n = ready_launches(X, ready);
		tape_put(X, n ? TAPE_TICK | (uint32_t)n : 0, 0);
		return;
	}
	if (X->o->sched.kind == SCHED_SYNC && X->o->tape) {
		/* the draws that would run here the launch sync ran at its
		 * start (the only one pending then), then none */
		if (X->sync_ran) {
			X->sync_ran = false;
			tape_put(X, TAPE_TICK | 1, 1);
			tape_put(X, 1, 0);
		}
		if (!X->stop) /* (the launch stopped the run: no more) */
			tape_put(X, 0, 0);
		return;
	}
	if (X->o->sched.kind != SCHED_RANDOM)
		return;
	while (!X->stop) {
		int n = ready_launches(X, ready), k;
		bool go = rng_next(&X->rng) % 3 == 0;
		tape_put(X, n ? TAPE_TICK | (uint32_t)n : 0, go);
		if (!go || !n)
			return;
		k = (int)(rng_next(&X->rng) % (uint64_t)n);
		tape_put(X, (uint32_t)n, (uint32_t)k);
		complete(X, ready[k]);
	}
}

/* splitmix64's state moves by this at each draw (rng.h) */
#define RNG_GAMMA 0x9e3779b97f4a7c15ull

bool
sched_tape_same(const SchedTape *t, uint64_t seed)
{
	uint64_t s = seed;

	if (t->over)
		return false;
	for (int i = 0; i < t->len; i++) {
		const TapeDraw *e = &t->d[i];
		uint64_t d;
		if (!e->n) {
			s += (uint64_t)e->k * RNG_GAMMA;
			continue;
		}
		d = rng_next(&s);
		if (e->n & TAPE_TICK ? (d % 3 == 0) != (e->k != 0)
				     : d % e->n != e->k)
			return false;
	}
	return true;
}

void
sched_tape_free(SchedTape *t)
{
	mem_free(t->d);
	memset(t, 0, sizeof *t);
}

/* ---- races with pending launches */

/* The launches so far and their state at a race, in launch order. */
static void
launches_note(Exec *X, Violation *nv)
{
	static const char *const states[] = {"pending", "running", "done"};
	size_t n = 0;

	for (int i = 0; nv && i < X->nlaunches; i++) {
		const Launch *L = X->launches[i];
		int k = fmt_snprintf(nv->launches + n, sizeof nv->launches - n,
				 "%s%%%s on stream %d %s", i ? ", " : "",
				 L->in->v ? L->in->v->name : "?", L->stream,
				 states[L->state < 3 ? L->state : 2]);
		if (k < 0 || (size_t)k >= sizeof nv->launches - n) {
			nv->launches[n] = 0; /* cut at a whole entry */
			break;
		}
		n += (size_t)k;
	}
}

void
launch_check(Exec *X, const BInst *at, const Value *victim, int h,
	     const View *v, bool write)
{
	for (int i = 0; i < X->npend; i++) {
		Launch *L = X->pend[i];
		if (L->state != PENDING || L == X->cur)
			continue;
		/* the same stream orders them: no race */
		if (X->cur && X->cur->stream == L->stream &&
		    X->cur->parent == L->parent)
			continue;
		for (int p = 0; p < L->npins; p++) {
			const Pin *pn = &L->pins[p];
			VKind k;
			if (pn->buf != h || !views_overlap(&pn->view, v))
				continue;
			if (write)
				k = VK_ASYNC_RACE;
			else if (pn->write)
				k = X->cur ? VK_ASYNC_RACE : VK_EARLY_AWAIT_READ;
			else
				continue;
			/* the victim is what the launch uses */
			launches_note(X, violate(X, k, at, pn->v, L->in, h,
						 NULL, 0, NULL));
			(void)victim;
		}
	}
}

void
launches_roots(Exec *X, RegVisit *visit, void *ctx)
{
	for (int i = 0; i < X->nlaunches; i++) {
		const Launch *L = X->launches[i];
		if (L->regs)
			visit(X, L->regs, (size_t)X->bp->nregs + 1, ctx);
		visit(X, L->fut->regs, (size_t)L->fut->n + 1, ctx);
	}
}

void
launches_free(Exec *X)
{
	for (int i = 0; i < X->nlaunches; i++)
		mem_free(X->launches[i]->regs);
	while (X->nlfiles)
		mem_free(X->lfiles[--X->nlfiles]);
	X->nlaunches = 0;
	X->npend = 0;
}

int
launch_stream(const Exec *X)
{
	return X->cur ? X->cur->stream : -1;
}

const char *
schedule_name(Schedule s, char *buf, size_t n)
{
	static const char *const names[] = {"all", "sync", "late", "random"};

	if (s.kind == SCHED_RANDOM)
		fmt_snprintf(buf, n, "random:%llu", (unsigned long long)s.seed);
	else
		fmt_snprintf(buf, n, "%s", names[s.kind]);
	return buf;
}


int
schedule_parse(const char *s, Schedule *out)
{
	out->seed = 0;
	if (!strcmp(s, "all"))
		out->kind = SCHED_ALL;
	else if (!strcmp(s, "sync"))
		out->kind = SCHED_SYNC;
	else if (!strcmp(s, "late"))
		out->kind = SCHED_LATE;
	else if (!strncmp(s, "random:", 7) && u64_parse(s + 7, &out->seed))
		out->kind = SCHED_RANDOM;
	else
		return -1;
	return 0;
}
