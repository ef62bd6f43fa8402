/* exec.h: private to the instrumented executor (exec.c, exec_access.c,
 * exec_buffers.c, exec_compute.c, shadow.c, overlap.c, async.c). */
#ifndef BUFDIFF_EXEC_H
#define BUFDIFF_EXEC_H

#include "budget.h"

enum { BUF_INPUT, BUF_CONST, BUF_ALLOC };

typedef struct Buf {
	char *data;           /* NULL once freed (until touched again) */
	DType dt;
	int64_t n, bytes;
	int kind;             /* BUF_* */
	bool freed;
	bool lazy;            /* data not zeroed yet: buf_data zeroes it,
			       * unless buf_whole_write says a kernel is
			       * about to write all of it */
	bool borrowed;        /* data is the caller's input tensor, read in
			       * place: check_write copies it first (buf_own) */
	int pins;             /* pending launches using it (async.c) */
	const BInst *made, *freed_by;
	const Value *owner;   /* the value it was made for */
	int64_t id;           /* allocation number: what reports name (the
			       * slot, the handle, is reused once unreferenced) */
	bool slot_free;       /* on the free list (tables_collect) */
	int stack;            /* a memref.alloca's: call depth + 1 (freed
			       * when that call returns); 0 otherwise */
	/* version shadow: while uniform, one tag (ver) under at most
	 * SHADOW_PATCHES partial writes (later ones win); else one tag per
	 * element (vers) */
	bool uniform;
	uint32_t ver;
	uint32_t *vers;
	struct Patch *patch;  /* SHADOW_PATCHES of them, once needed */
	int npatch;
} Buf;

enum { SHADOW_PATCHES = 4 };
typedef struct Patch {
	View v;               /* base unused */
	uint32_t ver;
} Patch;

/* Which value a dynamic version holds, and the instruction that wrote it
 * (NULL for inputs).  Elements undefined in the reference are refined by
 * any contents, so a read expecting them never finds them stale: `undef`
 * when all are (an `empty`, a copy of one), else `undef_at` (NULL: none)
 * flags them by flat position in the one buffer the version was written
 * into (an insert into an empty keeps the rest undefined). */
typedef struct VerInfo {
	const Value *v;
	const BInst *in;
	bool undef;
	uint8_t *undef_at;
	int undef_buf;        /* the buffer undef_at is about */
	bool dead;            /* on the free list (tables_collect) */
	DynCtx ctx;           /* the trips and branches it was written in */
} VerInfo;

/* A register that expects no particular version: memref programs' own
 * buffers (ownership flags, pointer lists), read without version checks. */
#define VER_ANY UINT32_MAX

typedef struct Reg Reg;
typedef struct Launch Launch;
typedef struct Fut {
	Reg *regs;
	int n;
	int refs;   /* holders of a carried future (BInst.retain): the last
		     * released completes the launch and frees its results */
} Fut;

/* A register: where a value lives now.  Tensors: a buffer handle and a view
 * into it (its base is refreshed from the table at each use); scalars: the
 * scalar itself. */
struct Reg {
	int buf;              /* -1: none */
	uint32_t ver;         /* the version its elements must hold */
	int futk;             /* `%f.k`: stands for result k of fut (buf < 0) */
	bool set, ro, bad;    /* bad: an out-of-bounds view, unusable */
	bool owned;           /* made by an alloc, or took one over (a block
			       * argument): what BI_FREE ifowned reads */
	View view;
	union {
		double f;
		float f32;
		int64_t i;
		int32_t i32;
		uint8_t b;
	} s;
	Fut *fut;
	Launch *launch;       /* a future's launch */
};
/* (the small fields first: 192 bytes, not 208; a run zeroes and copies
 * whole register files) */

typedef struct Frame {
	Reg *regs;            /* by register id */
	const Func *fn;
} Frame;

typedef struct Exec {
	const BProg *bp;
	const ExecOpts *o;
	ExecResult *res;
	Buf *bufs;
	int nbufs, capbufs;
	VerInfo *vers;
	uint32_t nvers, capvers;
	/* reuse (tables_collect): free slots and version ids, and when to
	 * collect next (entries in use) */
	uint32_t *freebufs, nfreebufs, capfreebufs;
	uint32_t *freevers, nfreevers, capfreevers;
	int64_t nextbuf;      /* Buf.id of the next allocation */
	int64_t gc_bufs, gc_vers;
	uint8_t *markbuf, *markver; /* tables_collect's marks, kept */
	size_t capmarkbuf, capmarkver;
	int unrooted;         /* busy register files tables_collect cannot see */
	int *scratchn;        /* by instruction id: registers in scratch[id] */
	Reg *outs;            /* the entry's results (nouts) */
	int nouts;
	int64_t undef_bytes;  /* held by VerInfo.undef_at (a budget) */
	int64_t live, trips, step;
	int depth, capviols;
	int nstack;           /* memref.alloca buffers not yet released */
	int *constbuf;        /* by instruction id: cached constant buffer */
	uint32_t *constver;
	Reg **scratch;        /* by instruction id: yielded registers */
	Reg **frames;         /* register files by call depth */
	const int **frame_runs; /* ... the runs their code writes (exec_files.c) */
	Arena *arena;         /* frames, scratch, futures */
	bool stop;            /* the run was aborted (res->aborted says why) */
	const Op *at;         /* the last op an instruction ran for: where an
			       * out-of-memory exit is reported */
	Budget budget;        /* work and wall clock (budget.h) */
	DynCtx ctx;           /* the loops' trips and branches now (reports) */
	/* async (async.c) */
	Launch **launches;    /* every launch of the run, in launch order */
	int nlaunches, caplaunches;
	Reg *lfiles[8];    /* launch register files done with, zeroed */
	int nlfiles;
	Launch **pend;        /* the launches not done, in launch order (and
			       * done ones not dropped yet: pend_done) */
	int npend, cappend, pend_done;
	int scans;            /* loops over pend running: do not compact */
	bool sync_ran;        /* sync, taped: a launch ran at its start
			       * since the last boundary */
	Launch *cur;          /* the launch whose body runs now, or NULL */
	const BInst *cur_in;  /* ... its instruction */
	uint64_t rng;         /* random:SEED schedule state */
	int **captured;       /* by launch instruction id: captured value ids */
	uint8_t **capflags;   /* ... and per captured id, once known:
			       * CAP_KNOWN, CAP_TOUCHED, CAP_WRITTEN */
	const int **fruns;    /* by function index: file_runs, once known */
	const int **lruns;    /* by launch instruction id: launch_runs */
	uint8_t *marks;       /* file_marks */
	Arena *sarena;        /* where those are (the share's, else arena) */
	jmp_buf oom;
} Exec;

enum { CAP_KNOWN = 1, CAP_TOUCHED = 2, CAP_WRITTEN = 4 };

struct ExecShare {
	const BProg *bp;      /* whose runs these are */
	Arena *arena;
	int **captured;       /* Exec's, by launch instruction id */
	uint8_t **capflags;
	const int **fruns, **lruns;
};

/* shadow.c */
void *xalloc(Exec *X, size_t n);
uint32_t version_new(Exec *X, const Value *v, const BInst *in);
int buf_new(Exec *X, DType dt, int64_t n, int kind, const BInst *made,
	    const Value *owner);
/* An input buffer over t's payload, borrowed (no copy until a write). */
int buf_input(Exec *X, const Tensor *t, const Value *owner);
/* Before a write into h: a borrowed payload becomes the run's own copy. */
void buf_own(Exec *X, int h);
void buf_release(Exec *X, int h, const BInst *by);
char *buf_data(Exec *X, int h);
/* Buffer h is about to be written whole (no zeroing needed first). */
void buf_whole_write(Exec *X, int h);
void bufs_free(Exec *X);
/* Record a violation; the new record, or NULL when folded into an equal
 * one (its count). */
Violation *violate(Exec *X, VKind kind, const BInst *at, const Value *victim,
		   const BInst *writer, int buffer, const View *v, int64_t li,
		   const char *detail);
/* Enter a loop trip or a branch (ctx_enter returns what ctx_leave
 * restores). */
DynCtx ctx_enter(Exec *X, const Op *op, int64_t k);
void ctx_leave(Exec *X, const DynCtx *saved);
typedef bool (*VerOk)(const Exec *X, uint32_t ver, const void *arg);
int64_t shadow_mismatch_but(Exec *X, int h, const View *v, uint32_t want,
			    VerOk ok, const void *arg, uint32_t *found);
int64_t shadow_mismatch(Exec *X, int h, const View *v, uint32_t want,
			uint32_t *found);
int64_t shadow_mismatch_except(Exec *X, int h, const View *v,
			       const View *except, uint32_t want,
			       uint32_t *found);
void shadow_write(Exec *X, int h, const View *v, uint32_t ver);
void shadow_write_where(Exec *X, int h, const View *v, uint32_t ver,
			uint32_t was, VerOk ok, const void *arg);
/* A copy's tags: each element of view vd of buffer hd takes the version
 * its source element (view vs of hs, same sizes) holds. */
void shadow_copy(Exec *X, int hd, const View *vd, int hs, const View *vs);
/* A copy of a stale element is stale where it is read, not where it is
 * copied (an unread stale copy is no failure): before the copy, the
 * versions of the elements of vs of hs that hold another than want (0 for
 * the others), row-major, or NULL when none does; after the copy has
 * tagged its destination, those elements of vd of hd take them. */
const uint32_t *shadow_stale_tags(Exec *X, int hs, const View *vs,
				  uint32_t want);
void shadow_put_stale(Exec *X, int hd, const View *vd, const uint32_t *tags);
bool version_undef(const Exec *X, uint32_t ver);
bool version_undef_at(const Exec *X, uint32_t ver, int h, int64_t pos);
/* Which elements of view v of buffer h a new version leaves undefined:
 * those of dest_ver (in h) outside `slice`, and inside it those of src_ver
 * (0: none) in view vs of buffer hs.  An insert passes its slice, a copy
 * its whole destination view and no dest_ver.  NULL when all are defined
 * (or when the maps are over their budget: then reads stay strict). */
uint8_t *undef_carry(Exec *X, int h, const View *v, uint32_t dest_ver,
		     const View *slice, uint32_t src_ver, int hs,
		     const View *vs);
void versions_free(Exec *X);
bool views_overlap(const View *a, const View *b);
/* Make unreferenced freed buffer slots and version ids reusable, when
 * enough were made since the last time: memory follows the live buffers,
 * not the trips.  Called between instructions (every register that can
 * refer to a buffer or a version is then in a frame, a scratch area, a
 * launch or the outputs). */
void tables_maybe_collect(Exec *X);
void tables_collect(Exec *X);
/* The visitor of register files, for tables_collect. */
typedef void RegVisit(Exec *X, const Reg *r, size_t n, void *ctx);
void exec_roots(Exec *X, RegVisit *visit, void *ctx);     /* exec.c */
void launches_roots(Exec *X, RegVisit *visit, void *ctx); /* async.c */

/* overlap.c: an op reading the buffer it writes, one element at a time */
typedef struct Stale {
	int input;            /* the operand that read an element this op had
			       * already overwritten, or -1 */
	int64_t li;           /* that element in its view, row-major */
} Stale;
void serial_ew(Exec *X, OpKind ew, const View *out, const View *a,
	       const View *b, Stale *s);
void serial_transpose(Exec *X, const View *out, const View *a, const int *perm,
		      Stale *s);
void serial_reduce(Exec *X, OpKind ew, const View *out, const View *a,
		   const int *dims, int ndims, Stale *s);

/* exec.c: the driver (instructions, blocks, control flow, forall, the
 * entry's inputs and outputs, leaks) */
void exec_block(Exec *X, Frame *F, const BBlock *b, Reg *out);
void abort_run(Exec *X, const Op *op, const char *fmt, const char *a,
	       long long n);
/* abort_run at a resource limit (ExecResult.limited) */
void abort_limit(Exec *X, const Op *op, const char *fmt, const char *a,
		 long long n);
/* Charge n units of work (budget.h) for op; false: the run is aborted. */
bool exec_charge(Exec *X, const Op *op, int64_t n);

/* exec_access.c: registers, checked reads and writes */
static inline Reg *
reg(Frame *F, const Value *v)
{
	return &F->regs[v->id];
}

static inline void
reg_assign(Reg *dst, const Reg *src)
{
	*dst = *src;
	if (dst->buf < 0)
		dst->view.base = &dst->s;
}

/* (inline: a View is 152 bytes, built in place where it is used) */
static inline View
scalar_view(Reg *r, DType dt)
{
	View v = {0};

	v.base = &r->s;
	v.dt = dt;
	return v;
}

/* The register's view with a live base pointer. */
static inline View
tview(Exec *X, const Reg *r)
{
	View v = r->view;

	v.base = buf_data(X, r->buf);
	return v;
}
void lit_store(const Operand *o, DType dt, Reg *r);
int64_t scalar_int(const Reg *r, DType dt);
int64_t int_operand(Frame *F, const Operand *o);
void check_part(Exec *X, const BInst *at, const Value *victim, const Reg *r,
		const View *part, const View *skip);
bool check_read(Exec *X, const BInst *at, const Value *victim, const Reg *r);
bool check_write(Exec *X, const BInst *at, const Value *val, const Reg *r);
void carry_undef(Exec *X, Reg *r, uint32_t dest_ver, const View *slice,
		 const Reg *src);
void tag_write(Exec *X, const BInst *at, const Value *val, Reg *r);
int64_t view_numel(const View *v);
bool same_sizes(const View *a, const View *b);
void copy_views(Exec *X, const View *dst, const View *src);
bool slice_of(Frame *F, const Op *op, const Reg *r, View *out, bool element,
	      char *detail, size_t n);
/* slice_of, an out-of-bounds one recorded as a violation (false). */
bool reg_slice(Exec *X, Frame *F, const BInst *at, const Op *op, const Reg *r,
	       const Value *of, View *out, bool element);
/* insert/insert_slice read their destination except the part they
 * replace. */
void check_dest_outside(Exec *X, Frame *F, const BInst *in, const Reg *out);
/* Does r view all of its buffer, contiguously? */
bool whole_of(const Exec *X, const Reg *r);

/* exec_buffers.c: allocation, views, copies, frees, constants, memref
 * programs' own instructions */
/* r views a whole contiguous buffer of the given shape. */
void contiguous(Reg *r, DType dt, int rank, const int64_t *dims);
void run_alloc(Exec *X, Frame *F, const BInst *in);
void run_view(Exec *X, Frame *F, const BInst *in);
void run_copy(Exec *X, Frame *F, const BInst *in);
void run_free(Exec *X, Frame *F, const BInst *in);
void run_const(Exec *X, Frame *F, const BInst *in);
void run_bind(Exec *X, Frame *F, const BInst *in);
void run_meta(Exec *X, Frame *F, const BInst *in);
/* A return ends its call's memref.alloca buffers (the stack frame). */
void stack_release(Exec *X, const BInst *in);
void run_dealloc(Exec *X, Frame *F, const BInst *in);

/* exec_compute.c: a tensor op's kernel over registers */
void run_compute(Exec *X, Frame *F, const BInst *in);

/* async.c: launches, streams, schedules, lifetime through completion */
void launch_start(Exec *X, Frame *F, const BInst *in);
void launch_await(Exec *X, Frame *F, const BInst *in);
void launch_finish(Exec *X, Reg *f);           /* complete a future's launch */
/* `%f.k` freed by in: true when r now holds its buffer (the launch ran) */
bool launch_resolve(Exec *X, const BInst *in, Reg *r);
void launch_retain(Exec *X, const BInst *in, Reg *f);
/* Complete the pending launches that use buffer h (BInst.settle). */
void launch_settle(Exec *X, int h);
void launch_settle_future(Exec *X, const Fut *fut);
void launch_drain(Exec *X, const Frame *home);  /* home NULL: all */

/* exec_files.c: a register file (nregs slots) is zero outside the runs
 * of slots its function's code writes: file_runs (NULL: all of them)
 * says which, file_clear zeroes them, file_copy copies a file of the
 * same function. */
const int *file_runs(Exec *X, const Func *fn);
uint8_t *file_marks(Exec *X);
bool file_mine(const BProg *bp, int i, const Func *fn);
const int *file_runs_of(Exec *X, uint8_t *mark);
void file_clear(Exec *X, Reg *r, const int *runs);
void file_copy(Exec *X, Reg *to, const Reg *from, const int *runs);
void launch_tick(Exec *X);                      /* a legal point */
/* A draw of the random schedule and what it decided (ExecOpts.tape) */
void tape_put(Exec *X, uint32_t n, uint32_t k);
/* An access to buffer h through view v: races with pending launches. */
void launch_check(Exec *X, const BInst *at, const Value *victim, int h,
		  const View *v, bool write);
void launches_free(Exec *X);
/* The stream of the launch whose body runs now, -1 outside launches. */
int launch_stream(const Exec *X);

#endif
