/*
 * bufferize.h: the bufferizer/ component, table of contents in data-flow
 * order.
 *
 *   strategy.c  the strategies, each one value with one entry
 *               (strategy_answer): a spec ("one-shot", "exec:CMD",
 *               "mlir:TOOL") parsed to {kind, name, arg}; decisions for
 *               every op result, or an outside runner's answer
 *   oneshot.c   the one-shot strategy (read-after-write conflicts, async-
 *               aware; its mutants) and last-use
 *   contig.c    which buffers are known contiguous (the reshapes one-shot
 *               makes views)
 *   plan.c      forced decisions from a case's run or a decisions document
 *               (`plan`, `free`, `anchor`, `hoist`, `args`)
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

/* `anchor: {E: R}`: the empty %E lives in the slice of %R's destination
 * that the insert_slice defining %R overwrites. */
typedef struct PlanAnchor {
	Value *e;
	Value *r;
	Loc loc;
} PlanAnchor;

/* `hoist: [V]`: %V's buffer is allocated before its outermost loop. */
typedef struct PlanHoist {
	Value *v;
	Loc loc;
} PlanHoist;

/* `args: {R: [copy, share]}`: bit i of `copy` set = the i-th tensor
 * operand of the call defining %R is passed as a fresh copy. */
typedef struct PlanArgs {
	Value *r;
	int n;                  /* tensor operands (at most 64) */
	uint64_t copy;
	Loc loc;
} PlanArgs;

/* `blockargs: {A: [share, copy]}`: bit p of `share` set = block argument
 * %A shares the buffer of what its p-th incoming branch passes (the
 * branches into its block in the order of the text). */
typedef struct PlanEdges {
	Value *a;
	int n;                  /* incoming branches (at most 64) */
	uint64_t share;
	Loc loc;
} PlanEdges;

/* A call argument passed as a copy: the callee writes its param in place
 * and the caller still needs the old value. */
typedef struct ArgCopy {
	const Op *call;
	int arg;
	const char *reason;
} ArgCopy;

/* Lowering rules a strategy may switch: mutants switch rules off; MLIR's
 * answers mean another forall lowering. */
enum {
	LOWER_NO_INIT_COPY = 1,   /* a `new` loop buffer starts uninitialized */
	LOWER_TEXTUAL_FREES = 2,  /* free at the root's own last textual use,
				   * ignoring aliases and pending launches */
	LOWER_FAIL_NO_FREES = 4,  /* the failure path frees nothing */
	LOWER_FAIL_NO_DRAIN = 8,  /* the failure path frees without waiting
				   * for pending launches */
	LOWER_NO_LEND = 16,       /* an if/select result sharing a buffer does
				   * not keep it alive (its lender is freed
				   * at the lender's own last use) */
	LOWER_SHARED_IS_RESULT = 32 /* an out-of-place forall's shared args
				   * are its result's buffer (the copy), as
				   * in MLIR, not the init's: set for the
				   * mlir strategy's answers */
};

typedef struct Decisions {
	const Program *p;
	Decision *d;       /* by Value.id, p->nvalues entries */
	PlanFree *frees;     /* plan frees (replace the strategy's for v's buffer) */
	int nfrees;
	PlanAnchor *anchors; /* plan anchors, hoists and args (for the lowering */
	int nanchors;        /* and the reports) */
	PlanHoist *hoists;
	int nhoists;
	PlanArgs *args;
	int nargs;
	ArgCopy *argcopies;
	int nargcopies, capargcopies;
	unsigned lower;    /* LOWER_* */
	Arena *arena;      /* reasons and the like, freed with the decisions */
	/* by Value.id of a block argument: bit p set = it shares the buffer
	 * of what its p-th incoming branch (Block.preds order) passes, else
	 * it gets a copy on that edge (plan key `blockargs`); of an if or a
	 * select result: bit 0 = it shares what it takes (`yields`) */
	uint64_t *eshare;
} Decisions;

/* ---------------------------------------------------------- strategy.c */

/*
 * A strategy is one value with one entry: a case in; decisions and/or a
 * buffer program out, or a structured error (a tool's status, stderr and
 * the command that reproduces it).  The built-ins decide here; an outside
 * one (`exec:CMD`, `exec-mlir:CMD`, `mlir[:TOOL]`, `mlir-pipeline[:TOOL]`)
 * is parsed here to {kind, name, arg} and run by the entry its runner
 * registers at start-up (oracle/mlir/external.c's external_register), so that
 * naming one (a case file does) does not link the tool runner.
 */
typedef enum StratKind {
	STRAT_BUILTIN, STRAT_EXEC, STRAT_EXEC_MLIR, STRAT_MLIR, STRAT_PIPELINE,
	STRAT_NATIVE,   /* mlir's answer, judged by MLIR's own code run
			 * natively (docs/native.md) */
	STRAT_NKINDS
} StratKind;

enum {
	STRAT_TOOL = 1,         /* asks an outside process */
	STRAT_READS_MLIR = 2,   /* ... about the exported MLIR (else TIR) */
	STRAT_MEMREF = 4,       /* answers a buffer program, not decisions */
	STRAT_BATCH = 8,        /* fuzz may ask about many programs in a call */
	STRAT_STREAM = 16       /* exec: the tool reads a program per line
				 * (exec-stream:); without: one document of
				 * programs (exec-batch:), docs/external.md */
};

/* What an outside strategy was asked and answered, or why it failed. */
typedef struct ToolReport {
	char cmd[1536];         /* the command line that reproduces the answer */
	char status[256];       /* tool-error: "exit 1", "timed out after 60 s",
				 * "answer: unknown value %q", ... */
	char err[1024];         /* tool-error: the first lines of its stderr */
	char *decisions;        /* mem_alloc'ed: the tool's own word for each
				 * decision it took, one per line, or NULL */
	char *memref;           /* mlir-pipeline: the memref program the
				 * tool printed (reports' memref lines are
				 * in it), mem_alloc'ed, or NULL */
} ToolReport;

/* A strategy's answer.  The entry returns 0 (ds made, and bp for
 * STRAT_MEMREF), 1 a tool-error (tool.status, tool.err, tool.cmd) or -1
 * (err; an empty message: out of memory). */
typedef struct Answer {
	Decisions *ds;          /* in: where the decisions go (made by the
				 * entry; copy-all's for STRAT_MEMREF) */
	BProg *bp;              /* STRAT_MEMREF: the buffer program, or NULL */
	const Func *entry;      /* ... and its entry function */
	ToolReport tool;        /* outside strategies: the call and its word */
	Diag err;
} Answer;

/* What the entry is asked about: the program, and for outside strategies
 * the oracle's case (its file names the export's locations) and the tool
 * options of the run configuration (the oracle's ExternalOpts; NULL: the
 * defaults). */
typedef struct StratCtx {
	const Program *p;
	const struct Case *c;
	const struct ExternalOpts *tool;
} StratCtx;

typedef struct Strategy Strategy;
typedef int (*StratEntry)(const Strategy *s, const StratCtx *ctx,
			  Answer *out);

struct Strategy {
	StratKind kind;
	unsigned flags;         /* STRAT_* */
	const char *name;       /* as given: "one-shot", "exec:python3 x.py" */
	const char *about;      /* one line for `bufdiff strategies` */
	const char *arg;        /* the command or the tool; NULL: built-in */
	int version;            /* the tool is mlir-opt-N: N, else 0 */
	/* built-ins: fills ds->d (and argcopies, lower); -1 out of memory */
	int (*decide)(const Program *p, Decisions *ds, unsigned breaks);
	unsigned breaks;        /* mutants: the one-shot rule they break */
	StratEntry entry;       /* NULL: the one registered for kind */
};

const Strategy *strategy_find(const char *name);  /* NULL if unknown */
/* A built-in strategy by name, or an outside one (`exec:CMD`,
 * `exec-mlir:CMD`, `mlir[:TOOL]`, `mlir-pipeline[:TOOL]`, alive for the
 * process); NULL if neither. */
const Strategy *strategy_parse(const char *spec);
/* A short name for files and tables: the built-in's name, or "exec",
 * "exec-mlir", "mlir", "mlir-pipeline". */
const char *strategy_label(const Strategy *s);
/* What s would run that a case file may not name without the user's
 * consent (docs/trust.md): the command of exec:/exec-mlir:, the tool of
 * mlir*: when it is not one of Debian's mlir-opt-16/19/22; NULL for the
 * built-ins and those tools. */
const char *strategy_command(const Strategy *s);
/* The entry outside strategies of kind k run by (their runner's, at
 * start-up). */
void strategy_register(StratKind k, StratEntry e);
/* s's answer about ctx: its entry's (see Answer); 1 when an outside
 * strategy has no runner registered. */
int strategy_answer(const Strategy *s, const StratCtx *ctx, Answer *out);
const Strategy *strategy_at(int i);               /* NULL past the end */
/* The decision every strategy starts from: views for extract_slice, none
 * for scalars and region/callee/constant results, `new` for the rest. */
Decision base_decision(const Value *v);
/* Decisions of strategy s for every op result (mem_alloc'ed d array). */
int decisions_make(const Program *p, const Strategy *s, Decisions *out);
void decisions_free(Decisions *ds);
/* Result values that may live in an operand's buffer: the candidates for
 * DEC_INPLACE (dest, same-typed operands of W_ANY ops, loop inits). */
int inplace_candidates(const Op *op, int resno, Value **out, int max);
/* Pass argument `arg` of `call` as a fresh copy; -1 out of memory. */
int decisions_argcopy(Decisions *ds, const Op *call, int arg,
		      const char *reason);
/* The names of the in-place decisions, for reports and bisection. */
int decisions_inplace(const Decisions *ds, Value **out, int max);
/*
 * A call's argument passing is a decision too: sharing the caller's
 * buffer with the callee (`args R:share`) or passing a copy.  It is named
 * by the call's first result R, which has no buffer decision of its own
 * (DEC_NONE), so a Value names either kind without ambiguity.
 */
bool decision_is_call(const Value *v);   /* v is a call's first result */
bool arg_copied(const Decisions *ds, const Op *call, int k);
/* Is v a block argument of a body with branches? */
bool is_block_arg(const Value *v);
/* Is v a tensor result of an if or a select, which may share the buffer
 * of what it takes (plan key `yields`, Decisions.eshare bit 0)? */
bool is_share_result(const Value *v);
/* A share decision of a block argument (per incoming edge: "a:share",
 * "a:copy", "a:copy,share") or of an if/select result ("r:share",
 * "r:copy") into buf. */
const char *block_arg_str(const Decisions *ds, const Value *a, char *buf,
			  size_t n);
/* What bisection may flip, in program order (by value id): the in-place
 * decisions, the calls (with a result) that share a tensor argument and
 * the block arguments that share on some edge. */
int decisions_choices(const Decisions *ds, Value **out, int max);
/* "args R:share,copy": one word per tensor operand of the call defining
 * r (all_copy: what flipping it gives). */
const char *call_args_str(const Decisions *ds, const Value *r, bool all_copy,
			  char *buf, size_t n);
/* A choice as reports name it, "y:x" / "y:new" / "args R:share", and
 * flipped: "y:new" / "args R:copy". */
const char *choice_str(const Decisions *ds, const Value *v, char *buf,
			  size_t n);
const char *choice_flip_str(const Decisions *ds, const Value *v, char *buf,
			 size_t n);
/* Pass every tensor argument of call as a copy; -1 out of memory. */
int decisions_copy_args(Decisions *ds, const Op *call, const char *reason);
/* Why ds copies an argument of call (its first copy's reason), or NULL. */
const char *call_copy_reason(const Decisions *ds, const Op *call);

/* ----------------------------------------------------------- oneshot.c */

/* The rules of one-shot; a mutant breaks exactly one. */
enum {
	ONESHOT_VIEWS = 1 << 0,        /* views alias their source */
	ONESHOT_CROSS_ITER = 1 << 1,   /* reads in a loop recur every trip */
	ONESHOT_SAME_OP_LOOP = 1 << 2, /* same-op access is safe only outside loops */
	ONESHOT_ZERO_TRIP = 1 << 3,    /* a new loop buffer starts as the init */
	ONESHOT_ASYNC = 1 << 4,        /* a launch's reads last until its await */
	ONESHOT_READONLY = 1 << 5,     /* readonly params and constants */
	ONESHOT_FREES = 1 << 6,        /* frees after the last use of any alias */
	ONESHOT_BRANCHES = 1 << 7,     /* branches exclude each other only once */
	ONESHOT_CALLS = 1 << 8,        /* a written arg still read is copied */
	ONESHOT_RETURNS = 1 << 9,      /* returned values are read by the caller */
	ONESHOT_FORALL = 1 << 10,      /* another trip may overwrite what a
					* forall body reads of its shared arg */
	ONESHOT_FAIL_FREES = 1 << 11,  /* the failure path frees what it owns */
	ONESHOT_FAIL_DRAIN = 1 << 12,  /* ... after pending launches complete */
	ONESHOT_BLOCKARGS = 1 << 13,   /* a block argument sharing a buffer
					* aliases what it received */
	ONESHOT_LEND = 1 << 14,        /* a shared buffer lives as long as
					* the results that share it */
	ONESHOT_GENERATE = 1 << 15,    /* a generate body runs once per
					* element: reads recur, and a buffer
					* from outside is never written */
	ONESHOT_CARRIED = 1 << 16      /* a launch whose future is carried
					* may run on any later trip */
};

int oneshot_decide(const Program *p, Decisions *ds, unsigned breaks);

/* carried.c: futures a for or a branch passes on, and the launches each
 * one may hold (its group's) */
typedef struct Carried {
	const Program *p;
	bool *carried;     /* by value id */
	int *group;        /* by value id: union-find over the futures */
	int *firstl, *nextl; /* the launches' futures of a group, a list */
} Carried;
void carried_find(const Program *p, Arena *a, Carried *c);
/* The launches future f may hold: *it = -1 first; NULL at the end. */
const Op *carried_launch(const Carried *c, const Value *f, int *it);
bool launch_carried(const Carried *c, const Op *launch);
/* Is v's buffer known to be contiguous under ds, whatever in-place
 * decisions follow (contig.c)?  Only such a source may be reshaped as a
 * view: a strided slice cannot be (MLIR's collapse_shape needs it). */
bool buf_contiguous(const Program *p, const Decisions *ds, const Value *v);
int lastuse_decide(const Program *p, Decisions *ds, unsigned breaks);

/* -------------------------------------------------------------- plan.c */

/* One forced decision: `RESULT: OPERAND` (into NULL = `new`). */
typedef struct PlanItem {
	Value *res;
	Value *into;
	Loc loc;
} PlanItem;

/* Every kind of forced decision a run or a decisions document holds. */
typedef struct Plan {
	PlanItem *items;
	int nitems;
	PlanFree *frees;
	int nfrees;
	PlanAnchor *anchors;
	int nanchors;
	PlanHoist *hoists;
	int nhoists;
	PlanArgs *args;
	int nargs;
	PlanEdges *edges;
	int nedges;
} Plan;

/* Apply forced decisions, frees, anchors, hoists and args; an illegal plan
 * (into an operand the op cannot write, of another type, a free of a view,
 * a hoist of a value without a fresh buffer) is an input error. */
int plan_apply(Decisions *ds, const Plan *pl, Diag *d);
/* The anchor of empty %e / the hoist of %v in ds, or NULL. */
const PlanAnchor *plan_anchor(const Decisions *ds, const Value *e);
bool plan_hoisted(const Decisions *ds, const Value *v);
/* `anchor E:R`, `hoist V`, `args R:copy,share` for reports: the n-th
 * forced decision of these kinds into buf, or NULL past the end. */
const char *plan_extra_str(const Decisions *ds, int n, char *buf, size_t len);
/*
 * The lifetime choices of ds: its plan's frees, hoists and anchors (a
 * plan's, or an outside strategy's answer's), which bisection flips like
 * decisions.  Numbered 0..plan_lifetimes()-1: frees, hoists, anchors.
 * Flipped, a free is dropped (the lowering frees the buffer after its
 * last use), a hoist is dropped (the buffer is allocated on every trip),
 * an anchor is dropped (the empty gets a buffer of its own).
 */
int plan_lifetimes(const Decisions *ds);
const char *plan_lifetime_kind(const Decisions *ds, int i); /* "free", ... */
/* "free y:after z", "hoist t", "anchor e:r"; flipped "no free y:after z",
 * "no hoist t", "e:new". */
const char *plan_lifetime_str(const Decisions *ds, int i, bool flipped,
			      char *buf, size_t n);
/* Into t (a copy of ds with its own d): ds's lifetime choices i with
 * keep[i], arrays of t's own (the caller frees them); -1 out of memory. */
int plan_lifetimes_keep(const Decisions *ds, const bool *keep, Decisions *t);
/* The outermost loop enclosing op, or NULL. */
const Op *op_outer_loop(const Op *op);

/* ------------------------------------------------------------- lower.c */

BProg *bufferize_lower(const Program *p, const Decisions *ds, Diag *d);
void bprog_free(BProg *bp);

#endif
