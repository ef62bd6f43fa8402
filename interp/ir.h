/*
 * ir.h: the interp/ component, table of contents in data-flow order.
 *
 *   mem.c      allocation hook (tests can fail the Nth allocation), arenas
 *   str.c      growing strings for everything that writes text
 *   fmt.c      fmt_snprintf: glibc's snprintf bytes without its slow path
 *   strmap.c   the one hash table of strings (strmap.h): every lookup by
 *              name a file can make numerous
 *   diag.c     diagnostics: an error is a value (Diag), never an exit
 *   ops.h      the op table: one row per op, expanded where needed
 *   ir.c       types, values, ops, functions; op table lookups
 *   walk.c     the one region walker (tensor and buffer programs), use
 *              lists filled once after parsing
 *   build.c    programs built in memory (then printed by print.c)
 *   rng.h      the one random number generator (splitmix64)
 *   lex.c      TIR tokens with locations in the .yaml file
 *   parse.c    TIR text -> Program
 *   print.c    Program -> canonical TIR text (parses back to the same text)
 *   same.c     two programs compared field by field (the round trip's
 *              and any other maker's check)
 *   verify.c   single definition, dominance, types and shapes, slices, ...
 *   tensor.c   runtime tensors (payload + per-element definedness)
 *   kernels.c  one kernel per op form over strided views; OpenBLAS matmul
 *   reshape.c  collapse_shape/expand_shape: the groups' check, views
 *   eval.c     the reference interpreter (value semantics, poison, limits):
 *              environments, last uses, blocks and calls (eval.h, private)
 *   eval_values.c   its tensors, boxes, operands and shape messages
 *   eval_data.c     its data forms, one function each, with their poison
 *   eval_control.c  its forms that run regions or functions
 *   budget.c   the work budget and wall clock of one run (budget.h)
 *   stop.c     when work must end early: a signal (SIGINT, SIGTERM,
 *              SIGHUP), or the deadline of a tool call's answer (stop.h)
 *   bir.c      the buffer program (BIR, its types below) printed with the
 *              decision behind each instruction; explain
 *   shadow.c   the instrumented executor's buffer table, version shadow,
 *              violations and memory accounting (exec.h, private)
 *   exec.c     the instrumented executor: instructions, blocks, control
 *              flow, forall trips, the entry's inputs, outputs and leaks
 *   exec_access.c   its registers and checked reads and writes
 *   exec_buffers.c  its buffer instructions (alloc, view, copy, free,
 *                   constants, memref programs' own)
 *   exec_compute.c  its tensor ops' kernels over registers
 *   overlap.c  an op reading the buffer it writes, one element at a time
 *   async.c    launches, streams, schedules; lifetime through completion
 *
 * Layout convention, everywhere: row-major, the last dimension is fastest.
 * A view is (root payload, element offset, sizes, strides in elements).
 */
#ifndef BUFDIFF_IR_H
#define BUFDIFF_IR_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rng.h"

#define MAXRANK 8

/* ---------------------------------------------------------------- mem.c */

/*
 * Every allocation of bufdiff goes through mem_alloc/mem_realloc/mem_free,
 * so a test can make the Nth one fail (Lua's ltests.c idea).  They return
 * NULL on failure; they never abort.
 */
void *mem_alloc(size_t n);
void *mem_calloc(size_t n, size_t size);
void *mem_realloc(void *p, size_t n);
void mem_free(void *p);
char *mem_strdup(const char *s);
/* Test knob: fail every allocation after `n` more succeed (n < 0: never). */
void mem_fail_after(long n);
long mem_live_blocks(void); /* allocations not yet freed, for leak tests */
/*
 * What the process holds is bounded (issue 12 item 14): the bytes
 * mem_alloc has handed out and not taken back (malloc_usable_size) stay
 * within a limit, MEM_LIMIT_DEFAULT unless mem_limit (--max-memory) says
 * otherwise; an allocation past it fails like any other, and diag_set
 * then says "memory limit of N bytes reached ..." instead of "out of
 * memory".  The peak is kept for tests and benches.
 */
#define MEM_LIMIT_DEFAULT ((int64_t)3 << 30)   /* 3 GiB: 3x the payload */
void mem_limit(int64_t bytes);           /* 0: the default */
int64_t mem_limit_bytes(void);
int64_t mem_held(void);                  /* bytes held now */
int64_t mem_peak(void);                  /* ... at most, since mem_peak_reset */
void mem_peak_reset(void);
/* Was the last failed allocation refused by the limit (not by malloc)? */
bool mem_refused(void);
/* A block kept for reuse by its owner counts as freed: mem_park (false:
 * not kept, free it: under AddressSanitizer), and again when reused:
 * mem_unpark (NULL when the limit refuses n bytes; p stays parked). */
bool mem_park(void *p);
void *mem_unpark(void *p, size_t n);
/* The heap's settings (mem.c says why; main calls it first): kept
 * rather than trimmed, blocks under mmap_threshold from the heap (0:
 * glibc's 128 KiB), huge pages advised for the heap and large blocks. */
#define MEM_MMAP_THRESHOLD ((size_t)32 << 20)
void mem_heap_setup(size_t mmap_threshold, bool huge_pages);

/*
 * An arena owns a whole program (IR, names, types) and is freed in one call.
 * When an allocation fails the arena longjmps to `oom` if set (the parser and
 * loader set it at their protected entry), else returns NULL.
 */
typedef struct ArenaChunk ArenaChunk;
struct ArenaChunk {
	ArenaChunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};
typedef struct Arena {
	ArenaChunk *head;
	jmp_buf *oom;
} Arena;

Arena *arena_new(void);                  /* NULL when out of memory */
void *arena_alloc_slow(Arena *a, size_t n); /* a new chunk (mem.c) */
/* n bytes, zeroed, 16-byte aligned.  Inline while the current chunk has
 * room (most blocks are a struct of a known size: the zeroing is a few
 * stores, not a call). */
static inline void *
arena_alloc(Arena *a, size_t n)
{
	ArenaChunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (c && c->cap - c->used >= n) {
		void *p = c->data + c->used;
		c->used += n;
		return memset(p, 0, n);
	}
	return arena_alloc_slow(a, n);
}
/* p's first `old` bytes (p: from arena_alloc or arena_grow of old bytes)
 * in a block of n > old bytes, the rest zeroed.  p is given back when it
 * is big (a chunk of its own), abandoned otherwise: nobody may keep a
 * pointer into it. */
void *arena_grow(Arena *a, void *p, size_t old, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);               /* frees everything, NULL ok */

/* Growable array of pointers kept in an arena (old storage is abandoned). */
#define VEC_PUSH(arena, arr, n, cap, x)                                     \
	do {                                                                \
		if ((n) == (cap)) {                                         \
			int nc_ = (cap) ? 2 * (cap) : 4;                    \
			void *na_ = arena_alloc((arena), nc_ * sizeof *(arr)); \
			if ((n))                                            \
				memcpy(na_, (arr), (n) * sizeof *(arr));    \
			(arr) = na_;                                        \
			(cap) = nc_;                                        \
		}                                                           \
		(arr)[(n)++] = (x);                                         \
	} while (0)
/* The same for an array nobody else points into while it grows (a
 * program's values, a block's ops as they are parsed): arena_grow gives
 * a big one's old storage back. */
#define VEC_PUSH_OWN(arena, arr, n, cap, x)                                 \
	do {                                                                \
		if ((n) == (cap)) {                                         \
			int nc_ = (cap) ? 2 * (cap) : 4;                    \
			(arr) = arena_grow((arena), (arr),                  \
					   (size_t)(cap) * sizeof *(arr),   \
					   (size_t)nc_ * sizeof *(arr));    \
			(cap) = nc_;                                        \
		}                                                           \
		(arr)[(n)++] = (x);                                         \
	} while (0)

/* ---------------------------------------------------------------- str.c */

/* A growing mem_alloc'ed string; `oom` sticks after a failed append (the
 * later appends do nothing), so a writer checks once at the end. */
typedef struct Str {
	char *s;
	size_t len, cap;
	bool oom;
} Str;

void str_put(Str *b, const char *s, size_t n);
void str_puts(Str *b, const char *s);
void str_printf(Str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text ("" when empty; the caller frees it), NULL after an OOM.  The
 * Str is empty afterwards either way. */
char *str_take(Str *b);
void str_free(Str *b);
/* Decimal digits only (no sign, no blanks) that fit in 64 bits -> true. */
bool u64_parse(const char *s, uint64_t *out);

/* ---------------------------------------------------------------- fmt.c */

/* snprintf/vsnprintf, the same bytes as the C library's, without the slow
 * path that libquadmath's printf hooks (loaded with OpenBLAS) put every
 * call on; see fmt.c.  bufdiff calls them by these names: the C library's
 * snprintf keeps its meaning everywhere. */
#include <stdarg.h>
#include <stdio.h>
int fmt_snprintf(char *s, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int fmt_vsnprintf(char *s, size_t n, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* --------------------------------------------------------------- diag.c */

/*
 * A location in the .yaml file: 1-based line and column.  Every op, value,
 * type and operand carries one.  line 0 means "no location".
 */
typedef struct Loc {
	int line, col;
} Loc;

/* An error as a value.  The caller that owns the file text prints it as
 *   FILE:LINE:COL: error: MESSAGE
 *   <source line>
 *   <caret>
 */
typedef struct Diag {
	Loc loc;
	char msg[512];
} Diag;

/* Fill d (printf-style) and return -1, so `return diag_set(d, loc, ...)`. */
int diag_set(Diag *d, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Print d as above to `out`; `text` is the whole file (may be NULL). */
void diag_print(void *out /* FILE* */, const char *file, const char *text,
		const Diag *d);
/* An impossible state (a bug, not a bad program): prints
 * "bufdiff: internal error: MESSAGE" on stderr and aborts. */
_Noreturn void ir_bug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* ----------------------------------------------------------------- ir.c */

typedef enum DType {
	DT_F32,
	DT_F64,
	DT_I1,
	DT_I32,
	DT_I64,
	DT_INDEX, /* behaves as i64 */
	DT_COUNT
} DType;

extern const char *const dtype_names[DT_COUNT];
/* f32 4, f64 8, i1 1, i32 4, i64/index 8 (inline: every kernel call
 * and element access asks) */
static inline size_t
dtype_size(DType dt)
{
	return dt == DT_I1 ? 1 : dt == DT_F32 || dt == DT_I32 ? 4 : 8;
}
static inline bool
dtype_is_float(DType dt)
{
	return dt == DT_F32 || dt == DT_F64;
}

typedef enum TypeKind { TY_SCALAR, TY_TENSOR, TY_FUTURE } TypeKind;

#define DIM_DYN (-1) /* a `?` dimension */

typedef struct Type Type;
struct Type {
	TypeKind kind;
	DType dt;                 /* scalar and tensor */
	int rank;                 /* tensor: 0..MAXRANK */
	int nelems;               /* future: number of element types */
	Loc loc;
	Type **elems;             /* future: element types */
	int64_t dims[MAXRANK];    /* tensor: sizes, DIM_DYN for `?` */
};

bool type_equal(const Type *a, const Type *b);
bool type_is_static(const Type *t);    /* no `?` anywhere */
int64_t type_numel(const Type *t);     /* static tensor; -1 if dynamic or overflow */

/* The op table (ops.h) expanded. */
typedef enum OpKind {
	OP_NONE = -1, /* OpInfo.ew of an op that is not elementwise */
#define OP(e, name, form, ew, write, rd) OP_##e,
#include "ops.h"
#undef OP
	OP_COUNT
} OpKind;

typedef enum Form {
	F_CONST, F_EMPTY, F_BINARY, F_UNARY, F_CMP, F_FILL, F_MATMUL,
	F_TRANSPOSE, F_REDUCE, F_EXTRACT_SLICE, F_INSERT_SLICE, F_EXTRACT,
	F_INSERT, F_COPY, F_CLONE, F_CALL, F_IF, F_FOR, F_ASYNC, F_AWAIT,
	F_FORALL, F_PARALLEL_INSERT, /* before F_YIELD: run as ops */
	F_FROM_ELEMENTS, F_RESHAPE,
	F_WHILE, F_ASSERT,
	F_SELECT,
	F_GENERATE,     /* a tensor from its body run once per element */
	F_YIELD, F_RETURN, F_CONDITION, /* terminators: F_YIELD and after */
	F_BR, F_COND_BR                 /* ... branches: a function body's
					 * blocks end with them or return */
} Form;

typedef enum Write { W_NONE, W_DEST, W_ANY, W_INIT } Write;

typedef struct OpInfo {
	const char *name;
	Form form;
	OpKind ew;      /* elementwise op it applies (reduce.sum: OP_ADD) */
	Write write;
	bool readsdest;
} OpInfo;

extern const OpInfo op_info[OP_COUNT];
int op_lookup(const char *name, size_t len); /* OpKind or -1 */

/* The EW rows' columns (ops.h has what each means). */
typedef enum DtRule { R_ANY, R_FLOAT, R_INT } DtRule;
enum { G_TENSOR = 1, G_SCALAR = 2, G_NOINT = 4 }; /* EwInfo.gen */
typedef enum ExportForm { X_PLAIN, X_CMP, X_RELU, X_NEG } ExportForm;

typedef struct EwInfo {
	bool ew;                  /* an EW row (the rest is zero otherwise) */
	DtRule rule;
	int gen, slot;
	ExportForm xf;
	const char *iop, *fop;    /* MLIR op for integers, floats */
	const char *pre19;        /* float op before MLIR 19, when it differs */
	const char *extra;        /* another float spelling import reads */
	const char *i1;           /* an i1 logic op the memref translation reads */
	const char *cmpi, *cmpf;  /* compare predicates */
	const char *named;        /* linalg.NAMED import reads as it */
	const char *fun;          /* linalg.elemwise_*'s fun import reads */
} EwInfo;

extern const EwInfo ew_info[OP_COUNT];
/* op k is an EW row whose rule accepts dtype dt */
bool ew_allows(OpKind k, DType dt);
/* The MLIR op spelling op k is exported as for dtype dt in MLIR `version`
 * (16, 19, 22); NULL when it has none. */
const char *ew_mlir_op(OpKind k, DType dt, int version);
/* The op an MLIR arith/math op is read as when it applies to its operands
 * as they are (not relu's `max x, 0`, the integer neg's `subi 0, x`, nor
 * compares): an int, float or pre-19 spelling; with EWM_EXTRA also an
 * import-only one; with EWM_I1 also an i1 logic op (*i1 set).  OP_NONE
 * when none. */
enum { EWM_EXTRA = 1, EWM_I1 = 2 };
OpKind ew_of_mlir(const char *name, unsigned how, bool *i1);
/* The cmpi/cmpf predicate of compare k on dt: ops.h's, but on i1 (TIR's
 * i1 is unsigned) the unsigned one (ult for slt).  NULL for others. */
const char *ew_mlir_pred(OpKind k, DType dt);
/* The compare whose arith.cmpi (cmpf if isfloat) predicate is pred[0..len),
 * or OP_NONE. */
OpKind ew_of_pred(const char *pred, size_t len, bool isfloat);
/* The op whose linalg named op (fun: linalg.elemwise_*'s fun) is
 * name[0..len), or OP_NONE. */
OpKind ew_of_linalg(const char *name, size_t len, bool fun);
/* The name of MLIR's arith.cmpi (cmpf) predicate number code, or NULL. */
const char *mlir_cmp_pred(bool isfloat, int64_t code);

typedef struct Op Op;
typedef struct Block Block;
typedef struct Func Func;

/* An SSA value: op result, block argument (loop iv, iter arg) or param. */
typedef struct Value {
	const char *name; /* without '%' (the parser's: just past the Value) */
	Type *type;
	Op *def;          /* defining op, NULL for params and block args */
	Block *owner;     /* block whose args hold it (block args only) */
	Func *func;       /* function it belongs to */
	Op **uses;        /* the ops using it (operand, slice offset, dest),
			   * each once, in pre-order (fill_uses) */
	int id;           /* dense, unique in the program: 0..Program.nvalues-1 */
	int resno;        /* result index in def */
	int nuses;
	Loc loc;          /* where it is defined */
	bool readonly;    /* param marked {readonly} */
	bool isparam;
} Value;

/* An operand: a value or a literal (`add %x, 10`, slice offsets, bounds). */
typedef struct Operand {
	Value *v;       /* NULL for a literal */
	bool isfloat;   /* literal written with '.', 'e', nan or inf */
	int64_t i;      /* literal, integer reading */
	double f;       /* literal, float reading */
	Loc loc;
} Operand;

/* Constant payload: `dense<...>` or a scalar literal, row-major, dtype of
 * the result type.  `splat` when one element was written for many. */
typedef struct ConstData {
	int64_t n;      /* elements written */
	bool splat;
	double *f;      /* float dtypes */
	int64_t *i;     /* integer dtypes (i1 as 0/1) */
} ConstData;

struct Block {
	Value **args;   /* for: [iv, iter args...]; a function body's block
			 * after the entry: its block arguments; others: none */
	int nargs;
	Op **ops;       /* last one is the terminator (yield, return, br,
			 * cond_br) */
	int nops;
	Op *parent;     /* enclosing op, NULL for a function body's blocks */
	Func *func;
	/* blocks of a function body (docs/tir.md, "Blocks and branches") */
	const char *label; /* `^name` without '^'; NULL: the entry */
	Loc loc;           /* the label (the entry: the function's `{`) */
	int bindex;        /* index in func->blocks; 0 for regions */
	/* cfg.c, after parsing: the branches into it (a cond_br with both
	 * arms here counts twice), its immediate dominator (NULL: the
	 * entry, or unreachable) */
	Op **preds;
	int npreds;
	Block *idom;
	bool reachable;    /* from the entry */
	bool exits;        /* some path from it reaches a return */
};

/*
 * An op.  The arrays few ops have are pointers into the program's arena,
 * MAXRANK entries, set by the ops that have them only, and they share
 * their place with a const's data: read each for its forms only (a
 * program held 1.2 KB per op with them inline, bench_analysis --memory).
 */
struct Op {
	OpKind kind;
	Loc loc;          /* the op's first token (result name or op name) */
	int nres;
	Value **res;
	Operand *args;    /* value operands in source order, see below */
	int nargs;
	bool hasdest;
	/* the counts of offs[], perm[], reassoc[] below: at most MAXRANK */
	int8_t noffs, nperm, nreassoc;
	Operand dest;     /* `into %d` (dest.v NULL when absent) */
	Type *type;       /* type after ':' (F_CMP: the operand type), or NULL */
	/* slices and element access: offsets/indices are operands */
	Operand *offs;    /* extract_slice/insert_slice offsets; extract/insert indices */
	union {
		ConstData cdata;  /* const only */
		struct {
			/* extract_slice, insert_slice and
			 * parallel_insert_slice only */
			int64_t *sizes, *strides;
			int *perm;        /* transpose and reduce only: the
					   * permutation, the reduced dims */
			/* collapse_shape/expand_shape only: the number
			 * of dims in each group of the higher-rank side,
			 * in order (groups are consecutive dims) */
			int *reassoc;
		};
	};
	/* regions */
	Block *body;      /* for / async / generate body (generate: one
			   * index arg per dim), if's then */
	Block *orelse;    /* if's else, NULL when absent */
	Type **rtypes;    /* if/for/async result types `-> (...)` */
	int nrtypes;
	int stream;       /* async */
	const char *callee; /* call: name without '@' */
	Func *fn;         /* call: resolved callee */
	Block *parent;    /* block containing this op */
	const char *msg;  /* assert: the message, unescaped */
	int index;        /* position in parent->ops */
	int seq;          /* pre-order number in the program: an op's regions
			   * hold seq+1 .. last */
	int last;
	/* br: one successor, args[] are its block arguments; cond_br: two,
	 * args[0] is the condition, then the first successor's arguments
	 * (from sarg[0], nsarg[0] of them), then the second's */
	int nsucc;
	int sarg[2], nsarg[2];
	Loc sloc[2];      /* the `^label` tokens */
	Block *succ[2];
};
/*
 * Operand layout per form (args[]):
 *   F_CONST        none                F_EMPTY      dynamic dims, one per `?`
 *   F_BINARY       a, b                F_UNARY      a
 *   F_CMP          a, b (scalars)      F_FILL       value (dest = d)
 *   F_MATMUL       a, b (dest = c)     F_TRANSPOSE  a (dest = d, perm)
 *   F_REDUCE       a (dest, perm = dims)
 *   F_EXTRACT_SLICE a (offs/sizes/strides)
 *   F_INSERT_SLICE  s (dest = d, offs/sizes/strides)
 *   F_EXTRACT      a (offs = indices)  F_INSERT     v (dest = a, offs = indices)
 *   F_COPY         a (dest = d)        F_CLONE      a
 *   F_WHILE        inits...   (body = the condition region, orelse = the
 *                  do region; both have args = the iter args, the same
 *                  Values, owned by body)
 *   F_CONDITION    cond                F_ASSERT     cond (msg)
 *   F_CALL         call arguments      F_IF         cond
 *   F_FOR          lb, ub, step, inits...   (body->args = iv, iter args)
 *   F_ASYNC        none (captures by scope; result: one future)
 *   F_AWAIT        the future          F_YIELD/F_RETURN  returned values
 *   F_FORALL       lb, ub, inits...    (body->args = iv, shared args;
 *                  the body ends with its parallel_insert_slices, then an
 *                  implicit empty yield)
 *   F_PARALLEL_INSERT s (dest = a shared arg, offs/sizes/strides), no result
 *   F_FROM_ELEMENTS the elements, row-major
 *   F_RESHAPE      a (reassoc/nreassoc)
 *   F_SELECT       cond, a, b (tensors or scalars of the result type)
 *   F_GENERATE     dynamic dims, one per `?` (body->args = one index per
 *                  dim; the body yields one scalar of the element type)
 *   F_BR           the successor's block arguments (succ[0])
 *   F_COND_BR      cond, then each successor's arguments (sarg/nsarg)
 */

struct Func {
	const char *name;  /* without '@' */
	Loc loc;
	Value **params;
	int nparams;
	Type **rtypes;
	int nrtypes;
	Block *body;       /* the entry block, blocks[0] */
	Block **blocks;    /* the body's blocks in source order (one unless
			    * the body branches) */
	int nblocks;
};

typedef struct Program {
	Arena *arena;      /* owns everything below */
	Func **funcs;
	int nfuncs;
	int nvalues;       /* Value.id is < nvalues */
	Value **values;    /* values[id] */
	int nops;          /* Op.seq is < nops */
	/* number_ops: the ops in pre-order (ops[seq]; walk_prog walks it)
	 * and the kinds held (bit k: OpKind k; prog_has_op reads it);
	 * NULL and 0 until then */
	Op **ops;
	uint64_t kinds;
	const char *file;  /* the case file it was loaded from, as given on the
			    * command line (in the arena), or NULL */
	/* an imported case's places in its .mlir (`source:`, case.c):
	 * srclocs[LINE of the .yaml] in srcfiles[LINE], {0, 0} none;
	 * prog_loc cites them */
	const char *const *srcfiles; /* the file of each (never NULL when
				      * its srclocs entry is set) */
	const Loc *srclocs;
	int nsrclocs;
	bool srconly;      /* the .yaml is in no file: cite the .mlir alone */
} Program;

Func *prog_func(const Program *p, const char *name); /* NULL if none */
/* Look a value up by name (params, results, block args, any nesting depth)
 * in function f, or in any function when f is NULL.  NULL if none. */
Value *prog_value(const Program *p, const Func *f, const char *name);
void prog_free(Program *p); /* frees the arena; NULL ok */
/* The op of kind k at loc (an assert a run failed at; OP_COUNT: of any
 * kind), or NULL. */
const Op *prog_op_at(const Program *p, OpKind k, Loc loc);
/* Does p hold an op of kind k (in any region)? */
bool prog_has_op(const Program *p, OpKind k);
/* "FILE:LINE:COL" of loc in p's file ("LINE:COL" when p has none) into
 * buf: how every reason and explanation names a place. */
const char *prog_loc(const Program *p, Loc loc, char *buf, size_t n);
/* Is v an operand of op (args, slice offsets, destination)? */
bool op_uses(const Op *op, const Value *v);
/* Is op inside a branch or a loop body below block blk (it may not run
 * every time blk does)? */
bool op_conditional(const Block *blk, const Op *op);

/* -------------------------------------------------------------- walk.c */

/*
 * The regions of an op, in order: if: then, else (when present); for,
 * forall, async: the body; while: the condition region (body), then the
 * do region (orelse).  Every analysis that visits each op of a region
 * goes through walk_block, so a new form with regions is added in
 * op_regions only.
 */
enum { MAXREGIONS = 2 };
int op_regions(const Op *op, Block *out[MAXREGIONS]);

/* What a walk callback says: go on into this op's regions, skip them, or
 * stop the whole walk. */
typedef enum WalkAct { WALK_GO, WALK_SKIP, WALK_STOP } WalkAct;
typedef WalkAct (*WalkFn)(Op *op, void *ctx);

/* Pre-order: each op of b, then the ops of its regions, in order.  Each
 * returns true when a callback said WALK_STOP. */
bool walk_block(const Block *b, WalkFn fn, void *ctx);   /* b NULL: none */
bool walk_op(Op *op, WalkFn fn, void *ctx);              /* op, then inside */
bool walk_regions(const Op *op, WalkFn fn, void *ctx);   /* inside op only */
bool walk_prog(const Program *p, WalkFn fn, void *ctx);  /* every function */
bool walk_func(const Func *f, WalkFn fn, void *ctx);     /* all its blocks */
/* The values op passes to its successor k (br: 0; cond_br: 0, 1). */
static inline const Operand *
succ_args(const Op *op, int k)
{
	return op->args ? op->args + op->sarg[k] : NULL; /* none passed */
}
/* Is b one of several blocks of a function body (a CFG block)? */
static inline bool
block_in_cfg(const Block *b)
{
	return b && !b->parent && b->func && b->func->nblocks > 1;
}
/* walk_block with `post` called after an op's regions (either may be
 * NULL; post's WALK_SKIP is WALK_GO). */
bool walk_block_post(const Block *b, WalkFn pre, WalkFn post, void *ctx);

/* Op.seq/last of p's ops: pre-order numbers, so "after", "inside" and
 * "in the same loop" are integer comparisons for the analyses (and
 * Program.nops). */
void number_ops(Program *p);
/* Value.uses/nuses of every value of p (tir_parse calls it; a program
 * built in memory calls it once it is whole, again after a change). */
void fill_uses(Program *p);
/* Is v used by an op inside op's regions (use lists: no walk)? */
bool used_inside(const Value *v, const Op *op);

/* --------------------------------------------------------------- cfg.c */

/* Blocks in one function body at most (the parser's limit): the graph
 * walks recurse and keep their stacks on the C stack. */
enum { MAX_BLOCKS = 4096 };
/* Predecessors, dominators, reachability of every function's blocks
 * (tir_parse calls it; a program built in memory calls it when whole). */
void cfg_fill(Program *p);
/* The block of f's body that holds op (op's own block when op is not in
 * a region). */
Block *top_block(const Op *op);
/* Does block a dominate block b (a == b: true)?  Blocks of one body. */
bool block_dominates(const Block *a, const Block *b);
/* Can control go from block a to block b (a == b: only around a loop)?
 * reach[] of f->nblocks entries, filled by cfg_reach. */
void cfg_reach(const Func *f, const Block *from, bool *reach);
/* Block S's p-th incoming edge (S->preds[p]) is which successor of that
 * branch (0 or 1: a cond_br may go to S both ways)?  And back: the index
 * in S->preds of successor k of branch t (-1: none). */
int pred_edge(const Block *S, int p);
int pred_index(const Block *S, const Op *t, int k);
/* Does any function of p have several blocks? */
bool prog_has_cfg(const Program *p);

/* ------------------------------------------------------------- build.c */

/*
 * A program built in memory, then printed by tir_print (the generator
 * and the importer could build instead of spelling TIR).  Values get
 * dense ids in creation order; build_op appends an op to a block with its
 * results (names[i]: types[i]) and room for nargs operands, which the
 * caller fills (and dest, type, offsets, regions: build_block(B, op)).
 * Out of memory: the arena longjmps to B->p->arena->oom, which the
 * caller sets, as tir_parse does.
 */
typedef struct Builder {
	Program *p;
	Func *fn;          /* the function being built */
	int vcap, fcap;
} Builder;

int build_init(Builder *B);  /* 0, or -1 out of memory */
Type *build_type(Builder *B, TypeKind kind, DType dt, int rank,
		 const int64_t *dims);
Func *build_func(Builder *B, const char *name, Type **rtypes, int nrtypes);
Value *build_param(Builder *B, const char *name, Type *t);
Value *build_value(Builder *B, const char *name, Type *t);
Block *build_block(Builder *B, Op *parent);  /* NULL: a function body */
Value *build_arg(Builder *B, Block *b, const char *name, Type *t);
Op *build_op(Builder *B, Block *b, OpKind k, int nargs,
	     const char *const *names, Type *const *types, int nres);
/* Numbers the ops and fills the use lists; the program is the caller's
 * (prog_free). */
Program *build_finish(Builder *B);

/* ---------------------------------------------------------- lex/parse.c */

/*
 * Where the program text sits in the .yaml file: text line k (0-based)
 * is file line line0 + k, and text column c (1-based) is file column
 * col0 + c.  For a literal block scalar (`program: |`), line0 is the line
 * after the `|` and col0 the block's indentation.
 */
typedef struct SrcMap {
	int line0, col0;
} SrcMap;

/* The lexer (lex.c), driven by parse.c one token at a time.  Newlines are
 * plain whitespace; `//` comments run to the end of the line. */
typedef enum TokKind {
	TK_EOF, TK_IDENT, TK_VALUE /* %name */, TK_FUNC /* @name */,
	TK_INT, TK_FLOAT, TK_PUNCT /* ( ) { } [ ] < > , : = and -> as 'A' */,
	TK_STRING, /* "text": s/len span the quotes and the escapes */
	TK_BLOCK   /* ^name */
} TokKind;

typedef struct Token {
	TokKind kind;
	const char *s;  /* source text; names without the sigil */
	size_t len;
	int64_t i;      /* TK_INT (true/false are 1/0) */
	double f;       /* TK_FLOAT */
	char punct;     /* TK_PUNCT */
	Loc loc;
} Token;

typedef struct Lexer {
	const char *p, *end, *linestart;
	int line;       /* 0-based text line */
	SrcMap map;
} Lexer;

void lex_init(Lexer *lx, const char *text, size_t len, SrcMap map);
int lex_next(Lexer *lx, Token *t, Diag *d);    /* 0, or -1 + d */
/* Is the word s[0, n) (no NUL in it) w?  By hand, no strlen of w: most
 * words the lexer and the parser compare differ at once. */
static inline bool
word_is(const char *s, size_t n, const char *w)
{
	size_t i = 0;

	while (i < n && w[i] == s[i])
		i++;
	return i == n && !w[n];
}
/* After `tensor<`: the dims and dtype into t, stopping before `>`. */
int lex_shape(Lexer *lx, Type *t, Diag *d);

/* Parse TIR into a new Program (it owns a new arena).  Returns NULL and
 * fills d on a syntax error or out of memory.  Calls are resolved here;
 * everything else is checked by tir_verify. */
Program *tir_parse(const char *text, size_t len, SrcMap map, Diag *d);

/* ------------------------------------------------------------- print.c */

/* Canonical TIR text, mem_alloc'ed (caller frees).  NULL when out of memory.
 * print(parse(print(p))) == print(p). */
char *tir_print(const Program *p);
/* One operand as TIR writes it: %name, an integer, or a float that reads
 * back bit for bit (nan, inf and -0.0 included). */
void tir_put_operand(Str *b, const Operand *o);
/* One type as text into buf, e.g. "tensor<?x8xf32>".  Returns buf. */
char *type_str(const Type *t, char *buf, size_t n);

/* -------------------------------------------------------------- same.c */

/* NULL when a and b are the same program field by field (ids, names,
 * types, definitions and uses, operands, attributes, regions, blocks,
 * numbering; locations too when `locs`), else the first difference, in
 * buf. */
const char *prog_diff(const Program *a, const Program *b, bool locs,
		      char *buf, size_t n);

/* ------------------------------------------------------------ verify.c */

/* Limits checked statically (shapes) and at run time (eval.c). */
typedef struct Limits {
	int64_t max_elems;       /* per tensor */
	int64_t max_bytes;       /* all live tensor payload together */
	int64_t max_trips;       /* loop iterations in one run, all loops */
	int max_depth;           /* call depth */
	int64_t max_work;        /* work units in one run (budget.h) */
	double timeout;          /* wall-clock seconds of one run; 0: none */
} Limits;

/* 2^26 elems, 1 GiB, 10^7 trips, depth 64, 2^32 work units, no timeout */
extern const Limits default_limits;

/* Single definition, dominance and scoping, types and shapes, static slice
 * bounds, yields match region results, futures only through await, call
 * signatures, return arity, static shapes within `lim`.  0 or -1 + d. */
int tir_verify(const Program *p, const Limits *lim, Diag *d);

/* ------------------------------------------------------------ tensor.c */

/*
 * A runtime tensor: a contiguous row-major payload.  Scalars are rank-0
 * tensors (the IR type says whether it is `f32` or `tensor<f32>`).
 * `def` is NULL when every element is defined, else one byte per element
 * (1 defined, 0 poison from `empty`).
 */
typedef struct Tensor {
	DType dt;
	int rank;
	int64_t dims[MAXRANK];
	int64_t n;          /* number of elements */
	void *data;
	uint8_t *def;
	bool inline_data;   /* data is in this block (tensor_alloc, small) */
} Tensor;

Tensor *tensor_new(DType dt, int rank, const int64_t *dims); /* zeroed, all defined; NULL on OOM */
/* tensor_new, with the payload left unzeroed unless zero (for a writer of
 * every element). */
Tensor *tensor_alloc(DType dt, int rank, const int64_t *dims, bool zero);
/* A tensor over data (mem_alloc'ed, n elements), which it takes over. */
Tensor *tensor_adopt(DType dt, int rank, const int64_t *dims, int64_t n,
		     void *data);
void tensor_free(Tensor *t);                                /* NULL ok */
Tensor *tensor_clone(const Tensor *t);
/* Element i as double / int64 (converting). */
double tensor_getf(const Tensor *t, int64_t i);
int64_t tensor_geti(const Tensor *t, int64_t i);
void tensor_setf(Tensor *t, int64_t i, double v);
void tensor_seti(Tensor *t, int64_t i, int64_t v);
bool tensor_defined(const Tensor *t, int64_t i);
/* Bit-exact equality of element i of a and b (NaN == NaN of same bits). */
bool tensor_elem_equal(const Tensor *a, const Tensor *b, int64_t i);
/* The comparison outputs use: bit for bit, except that any NaN equals any
 * NaN (IEEE leaves the payload of NaN-in, NaN-out operations open). */
bool tensor_elem_same(const Tensor *a, const Tensor *b, int64_t i);
/* Append element i as text ("12", "0.5", "undef") to buf. */
int tensor_elem_str(const Tensor *t, int64_t i, char *buf, size_t n);
/* Outputs got[0..ngot) (of the WHAT run) against the expected
 * want[0..nwant): the same shapes and dtypes, elements the same as
 * tensor_elem_same says, undefined exactly where want is (def[i] == 0):
 * 0, or -1 with the first difference in why. */
int check_outputs(Tensor *const *want, int nwant, Tensor *const *got,
		  int ngot, const char *what, char *why, size_t n);

/* ----------------------------------------------------------- kernels.c */

/* A strided view into a payload: element (i0..ik) is at
 * base + (off + sum i_j*strides[j]) * dtype_size(dt).  A scalar operand
 * broadcast over a tensor is a view with all strides 0. */
typedef struct View {
	void *base;
	DType dt;
	int rank;
	int64_t off;
	int64_t sizes[MAXRANK];
	int64_t strides[MAXRANK];
} View;

View view_of(const Tensor *t);  /* the whole tensor, contiguous */
/* Row-major strides (in elements) of a shape; all 0 when it has no
 * element (the product of the other dimensions may not fit: a
 * 0x2^31x2^31x2^31 tensor). */
void shape_strides(int rank, const int64_t *dims, int64_t *strides);

/* Kernels: same bits whatever the strides and alignment.  Integer
 * arithmetic wraps (two's complement); integer division by zero gives 0
 * and INT_MIN / -1 gives INT_MIN; i1 results are 0/1.  Floats follow IEEE
 * in the dtype's precision.  out may alias an input only when identical
 * (same off and strides) — the in-place elementwise case. */
void k_binary(OpKind ew, const View *out, const View *a, const View *b);
void k_unary(OpKind ew, const View *out, const View *a);
void k_cmp(OpKind ew, const View *out /* i1 */, const View *a,
	   const View *b);
void k_fill(const View *out, const View *scalar);
void k_copy(const View *out, const View *in); /* same sizes; dtypes equal */
/* out (MxN) = out + a (MxK) · b (KxN).  f32/f64 through cblas_[sd]gemm
 * (strided operands are packed first), integers with plain loops. */
int k_matmul(const View *out, const View *a, const View *b);
/* out[i_perm[0]...] = a[i...]: out.sizes[j] == a.sizes[perm[j]] */
void k_transpose(const View *out, const View *a, const int *perm);
/* out = fold(out, a over dims[0..ndims)) with OP_ADD or OP_MAX; out has
 * a's rank minus ndims (remaining dims in order). */
void k_reduce(OpKind ew, const View *out, const View *a, const int *dims,
	      int ndims);

/* ------------------------------------------------------------ reshape.c */

/* collapse_shape/expand_shape between static types src and res: the
 * groups cover the higher-rank side's dims, each group's product is the
 * lower-rank side's dim.  0, or -1 with the reason in msg. */
int reshape_check(const Op *op, const Type *src, const Type *res, char *msg,
		  size_t n);
/* A view of v's elements in row-major order with the given dims, when
 * strides can express it (false: v is not contiguous enough, a copy is
 * needed).  dims must hold as many elements as v. */
bool view_reshape(const View *v, int rank, const int64_t *dims, View *out);
/* Is the slice (sizes, strides) of a contiguous tensor of `dims`
 * contiguous itself (offsets aside)? */
bool slice_contiguous(int rank, const int64_t *dims, const int64_t *sizes,
		      const int64_t *strides);

/* --------------------------------------------------------------- eval.c */

/* The reference interpreter: immutable value semantics, a fresh tensor per
 * value, per-element poison, async regions run as plain code at launch.
 * inputs[i] is borrowed (params of `entry`); on success *outs receives a
 * mem_alloc'ed array of nouts new tensors (caller frees each and the array).
 * Returns 0, or -1 with d set (limits exceeded, run-time shape mismatch,
 * dynamic slice out of bounds, out of memory), with the op's location,
 * or 1 when an `assert` failed: d holds its location and its message
 * (the failure path; no outputs). */
int ref_run(const Program *p, const Func *entry, Tensor *const *inputs,
	    const Limits *lim, Tensor ***outs, int *nouts, Diag *d);
/* What a reference run held: the peak of its live payload bytes (inputs,
 * values not yet past their last use, a forall's results being filled). */
typedef struct RefStats {
	int64_t peak_bytes;  /* out */
	/* in: 0, or k > 0: every forall runs its trips in the k-th order (1
	 * first to last, 2 the reverse, then the permutations) and a trip's
	 * shared args hold what the earlier trips inserted: the outputs of
	 * MLIR's meaning of a read beyond a trip's slice (docs/tir.md) */
	int order;
	int64_t forall_trips; /* out: the most trips any forall ran */
} RefStats;
int ref_run_stats(const Program *p, const Func *entry, Tensor *const *inputs,
		  const Limits *lim, Tensor ***outs, int *nouts, Diag *d,
		  RefStats *st);

/* ------------------------------------------------------------- bir.c */

/*
 * The buffer program (BIR).  It mirrors the tensor program's structure
 * (functions, blocks, regions) and says where every tensor value lives:
 * registers are indexed by Value.id, plus synthetic values the lowering
 * makes (copies on escape, loop buffers).  A register holds a buffer
 * handle, a view normalized to the root allocation, and the version its
 * elements must hold; scalar registers hold the scalar itself.
 *
 *   alloc  %v : T            reg[v] = a fresh allocation
 *   alias  %v = %o           reg[v] = reg[o]              (in place)
 *   view   %v = %s[o][s][t]  reg[v] = subview of reg[s]   (extract_slice)
 *   copy   %v <- %s          elements (and versions) of s into reg[v]
 *   compute OP               the tensor op's kernel, output in reg[result]
 *   free   %v                release the root allocation under reg[v]
 *   if / for / call / launch / await / yield / return   over registers
 *   drain  %f, ...           complete launches nobody awaits (before frees)
 *   const  %v                a read-only buffer holding the constant
 */

/* A bufferization decision for one op result, printed `RESULT:OPERAND`,
 * `RESULT:new` or `RESULT:view`. */
typedef enum DecKind {
	DEC_NONE,    /* no buffer of its own: scalar, if/call/await result */
	DEC_NEW,     /* a fresh allocation */
	DEC_INPLACE, /* in the buffer of operand `into` */
	DEC_VIEW     /* a view of its source (extract_slice) */
} DecKind;

/* Why a result is not in place, before it is a sentence: the analysis
 * keeps what the sentence names (a few ops and values, in a struct that
 * begins with this one) and format makes it only when explain, a report
 * or the JSON asks (decision_reason), once, into arena. */
typedef struct Reason Reason;
struct Reason {
	const char *(*format)(const Reason *r, Arena *a);
	Arena *arena;
	const char *text;     /* made by the first decision_reason */
};

typedef struct Decision {
	DecKind kind;
	bool forced;          /* set by a plan */
	Value *into;          /* DEC_INPLACE */
	const char *reason;   /* why not in place, or NULL (and see lazy) */
	Reason *lazy;         /* the same, not yet formatted (reason NULL) */
} Decision;

/* d's reason (formatted now when it is lazy), or NULL: none, or out of
 * memory. */
const char *decision_reason(const Decision *d);

typedef enum BKind {
	BI_ALLOC, BI_ALIAS, BI_VIEW, BI_COPY, BI_COMPUTE, BI_CONST, BI_FREE,
	BI_IF, BI_FOR, BI_CALL, BI_LAUNCH, BI_AWAIT, BI_DRAIN, BI_YIELD,
	BI_RETURN,
	BI_FORALL,   /* vals: where each shared arg lives (result or init) */
	BI_PINSERT,  /* parallel_insert_slice: src into v (the result) */
	BI_WHILE,    /* body: the condition block (yields the i1), orelse: do */
	BI_ASSERT,   /* a false operand ends the run through the failure path */
	BI_BR,       /* the end of a function body's block (br/cond_br): src
		      * the condition (NULL: br); edge k's code (block
		      * arguments' copies and aliases, frees) is body (k 0)
		      * or orelse (k 1), then control goes to to[k].  A
		      * memref program's cf.br/cf.cond_br is one too: its
		      * edge code assigns the successor's arguments (through
		      * temporaries when they are passed in another order)
		      * and sets the TIR block arguments' versions */
	BI_GENERATE, /* v (the result's buffer) element by element: body runs
		      * once per index (the op's body args), row-major, and
		      * its yielded scalar is written at that index; then v
		      * takes the result's version */
	/* memref programs (oracle/mlir/memref*.c), where registers are the memref
	 * program's values and the tensor program's values carry versions: */
	BI_BIND,     /* v (a TIR value) lives where src lives now; v keeps the
		      * version it must hold (scalars: v = src) */
	BI_VER,      /* v must hold the version src holds (src NULL: any) */
	BI_META,     /* v = a fact of src's buffer (MetaKind, index in meta_dim) */
	BI_SELECT,   /* v = vals[0] ? vals[1] : vals[2] */
	BI_DEALLOC   /* bufferization.dealloc: vals = nmem memrefs, their nmem
		      * conditions, then the retained memrefs; op->res: the
		      * retained memrefs' updated ownership (i1) */
} BKind;

/* What BI_META reads of a memref: its base buffer (the allocation, rank 0
 * at offset 0), offset, size or stride of a dim, or the aligned pointer
 * as an index (a stable fake address per allocation, never a real one). */
typedef enum MetaKind {
	META_BASE, META_OFFSET, META_SIZE, META_STRIDE, META_ADDR
} MetaKind;

/* A memref view computed at run time (oracle/mlir/memref*.c), on a BI_VIEW: a
 * subview of the source's view (dynamic sizes and strides, unit dims
 * dropped), a reinterpret_cast relative to the source's allocation, or a
 * cast that checks the source's sizes against the result type's static
 * dims.  Entries are literals or index registers. */
typedef enum MViewKind { MV_SUBVIEW, MV_REINTERPRET, MV_CAST } MViewKind;

typedef struct MView {
	MViewKind kind;
	int rank;            /* entries: the source's rank (subview) or the
			      * result's (reinterpret_cast) */
	Operand off[MAXRANK], size[MAXRANK], stride[MAXRANK];
			     /* reinterpret_cast: one offset, off[0] */
	uint32_t drop;       /* subview: bit d drops unit dim d */
} MView;

typedef struct BInst BInst;
typedef struct BBlock {
	BInst **insts;
	int n, cap;
	const Block *blk;    /* a function body's block it lowers, or NULL;
			      * a memref program's: a Block made for it (label
			      * "bb1", args its block argument registers) */
}  BBlock;

struct BInst {
	BKind kind;
	int id;              /* dense over the BProg */
	const Op *op;        /* provenance: the tensor op it implements */
	Value *v;            /* the register it defines or acts on */
	Value *src;          /* alias/view/copy source */
	Value **vals;        /* yield/return: the registers passed out; call:
			      * the registers passed (NULL: a literal);
			      * drain: the futures */
	int nvals;
	Decision dec;        /* the decision that placed v (copy of it) */
	const char *why;     /* alloc/copy: why it is there */
	BBlock *body;        /* if then / for body / launch body */
	BBlock *orelse;      /* if else */
	/* memref programs only */
	const Op *top;       /* the TIR op it came from (by location), or NULL */
	Loc mloc;            /* where the memref op is in the tool's output */
	const char *mname;   /* ... and its name ("linalg.generic") */
	bool carry;          /* BI_COPY: elements keep their versions;
			      * BI_BIND: the TIR result is computed there */
	MetaKind meta;       /* BI_META */
	int meta_dim;        /* BI_META: the dim; BI_AWAIT: the first of the
			      * launch's results it takes */
	const MView *mv;     /* BI_VIEW computed at run time, or NULL */
	int nmem;            /* BI_DEALLOC: how many memrefs it may free */
	/* blocks and branches */
	BBlock *to[2];       /* BI_BR: the successors */
	bool borrow;         /* BI_ALIAS: v does not own the buffer it gets
			      * (a block argument sharing a param's) */
	bool ifowned;        /* BI_FREE: only when v owns its buffer (a
			      * block argument that may have borrowed it) */
	/* carried futures (a future a loop or a branch passes on): each
	 * holder of one owns a reference to its launch; the last released
	 * completes the launch and frees its results */
	bool retain;         /* BI_ALIAS of a future: v is one more holder */
	bool settle;         /* BI_FREE, BI_COPY made by the lowering in a
			      * function with carried launches: first
			      * complete the pending launches that use the
			      * buffer (one may outlive the block it was
			      * made in) */
};

typedef struct BFunc {
	const Func *f;
	BBlock *body;
	BBlock **blocks;     /* a body with branches: its blocks (blocks[0]
			      * == body); NULL otherwise */
	int nblocks;
} BFunc;

typedef struct BProg {
	Arena *arena;
	const Program *p;
	BFunc *funcs;        /* parallel to p->funcs */
	int nfuncs;
	int nregs;           /* >= p->nvalues: synthetic values follow */
	Value **regs;        /* regs[id] */
	int ninsts;
	BInst **insts;       /* insts[id] */
	Decision *dec;       /* by value id (nregs entries) */
	/* a memref program (oracle/mlir/memref*.c): regs[0..p->nvalues) are the
	 * tensor program's values, which only say which version each read
	 * expects; the memref program's own values follow.  A free releases
	 * the allocation under any view of it; a failed assert aborts (no
	 * failure path, nothing is a leak then). */
	bool memref;
	bool frees_nothing;  /* a memref program of a pipeline without a
			      * deallocation pass: nothing is a leak */
	const char *mfile;   /* the memref program's file name, for reports */
} BProg;

/* Text of the buffer program, one instruction a line with its decision
 * and source line; mem_alloc'ed. */
char *bir_print(const BProg *bp);
/* One line per allocation and copy: why it is there (the decision's
 * reason: conflict triple, read-only buffer, pending launch; or the
 * lowering's: escape, loop buffer, destination read); mem_alloc'ed. */
char *bir_explain(const BProg *bp);
/* A register in words of the program: "%y" for the program's values,
 * "the copy of %x passed out by the return" for the lowering's (op: the
 * instruction's tensor op), "%1 of the memref program". */
void bir_value_text(Str *o, const BProg *bp, const Value *v, const Op *op);
/* "y:x", "y:new" into buf. */
const char *dec_str(const Value *v, const Decision *d, char *buf, size_t n);
/* The regions of a buffer instruction (walk.c), in order: if: then,
 * else; for, forall, launch: the body; while: condition, do; assert: the
 * failure path (body); call: the failure path (orelse). */
int binst_regions(const BInst *in, BBlock *out[MAXREGIONS]);
typedef WalkAct (*BWalkFn)(BInst *in, void *ctx);
/* Pre-order over b and the regions inside, as walk_block. */
bool walk_bblock(const BBlock *b, BWalkFn fn, void *ctx);
/* The value an instruction writes or reads for (for blame), or NULL. */
const Value *inst_value(const BInst *in);


/* ----------------------------------------------------- shadow.c, exec.c */

/*
 * The instrumented executor runs a BProg on real shared storage.  Buffers
 * are handles into a table; a wrong plan is recorded as a violation, never
 * a crash.  Every allocation has a version shadow: which dynamic version
 * (one per write of a tensor value) each element holds, kept as one tag
 * while whole-buffer writes keep it uniform, per element otherwise.
 */
typedef enum VKind {
	VK_STALE_READ, VK_USE_AFTER_FREE, VK_DOUBLE_FREE, VK_LEAK,
	VK_READONLY_WRITE, VK_ASYNC_RACE, VK_EARLY_AWAIT_READ,
	VK_OUT_OF_BOUNDS, VK_INVALID_FREE, VK_UNINIT_READ, VK_COUNT
} VKind;

extern const char *const vkind_names[VK_COUNT];

/* Where a dynamic event happened: the enclosing loops' trips (0-based,
 * counted from the loop's start) and the branches taken, outermost first;
 * the innermost CTX_DEPTH kept, `deeper` counts the ones dropped. */
enum { CTX_DEPTH = 4 };
typedef struct DynCtx {
	int n, deeper;
	struct {
		const Op *op;     /* a for/while (trip) or an if (0 then, 1 else) */
		int64_t k;
	} at[CTX_DEPTH];
} DynCtx;

typedef struct Violation {
	VKind kind;
	const BInst *at;      /* the access: reader, writer or free */
	const Value *victim;  /* the value it expected, or the buffer's value */
	const BInst *writer;  /* who overwrote (or freed) it; NULL if an input;
			       * for async-race/early-await-read: the launch */
	const BInst *launch;  /* the launch the access ran in, or NULL */
	int buffer;           /* handle */
	int rank;
	int64_t elem[MAXRANK]; /* first bad element, in the victim's view */
	bool has_elem;        /* elem is set (not: the buffer as a whole) */
	bool part;            /* the view is a part of the buffer, not all */
	int64_t flat;         /* with part: elem as an element of the buffer */
	int count;            /* repeats folded into this record */
	int64_t bytes;        /* leak: the bytes of the count buffers */
	char detail[96];      /* e.g. "slice [3:5] of dim 0 (size 4)" */
	/* for reports: the buffer's origin, where the access and the write
	 * happened, and (async) the launches at that point */
	int bufkind;          /* 0 input, 1 constant, 2 allocation; -1 unknown */
	const BInst *made;    /* the alloc or constant that made the buffer */
	const Value *owner;   /* the value it was made for (inputs: the param) */
	DynCtx rctx, wctx;    /* the access's and (stale-read) the write's */
	bool has_wctx;
	int64_t step;         /* instructions executed before the access */
	char launches[160];   /* async: "%f stream 1 pending, %g stream 2 done" */
} Violation;

typedef struct MemStats {
	int64_t peak_bytes, allocations, alloc_bytes, copies, copy_bytes, views;
	/* the executor's own tables at their largest: buffer slots and
	 * version entries (bounded by what is live, not by loop trips) */
	int64_t table_bufs, table_vers;
} MemStats;

/* When async launches run (FORMAT.md §2): SCHED_ALL is the harness's
 * business (it runs the others); the executor takes one of the rest. */
typedef enum SchedKind { SCHED_ALL, SCHED_SYNC, SCHED_LATE, SCHED_RANDOM } SchedKind;

typedef struct Schedule {
	SchedKind kind;
	uint64_t seed;          /* random:SEED */
} Schedule;

/* (async.c) "sync", "late", "all", "random:N" (N in 0..2^64-1) -> 0, else
 * -1; and back: "sync", "late", "random:7" into buf. */
int schedule_parse(const char *s, Schedule *out);
const char *schedule_name(Schedule s, char *buf, size_t n);

/* What a random:SEED run's draws decided, in order (async.c): a launch
 * run at a boundary or not, which one, which forall trip next.  The run
 * is a function of those decisions, so two seeds whose draws decide the
 * same make the same run, and the harness runs a program once per
 * different tape (sched_tape_same).  A late run keeps the tape a random
 * run would draw to make it: no launch run at any boundary, each forall
 * trip late's (a random run whose draws decide that is the late run).
 * So does a sync run: each launch run at the boundary right after it,
 * each forall trip in order (none matches when a launch was made inside
 * a running one: sync runs it at once, a random schedule never).
 * A draw: n == 0, k draws that decide nothing (no launch was ready, one
 * trip was left); n with TAPE_TICK, a boundary with n & ~TAPE_TICK
 * launches ready, k = 1 one of them ran; else one of n was picked, k. */
enum { TAPE_TICK = 1u << 31, TAPE_MAX = 1 << 16 };
typedef struct TapeDraw {
	uint32_t n, k;
} TapeDraw;
typedef struct SchedTape {
	TapeDraw *d;
	int len, cap;
	bool over;                /* longer than TAPE_MAX: matches nothing */
} SchedTape;
/* Does random:seed decide at each draw what t's run decided? */
bool sched_tape_same(const SchedTape *t, uint64_t seed);
void sched_tape_free(SchedTape *t);

typedef struct ExecOpts {
	const Limits *lim;
	Schedule sched;           /* sync, late or random:SEED */
	int64_t alloc_overhead;   /* bytes added to each allocation */
	/* called after every executed instruction (the oracle's M(t) and
	 * timelines): the step, the live bytes after it, the instruction,
	 * the stream of the launch it ran in (-1: the program's own order);
	 * NULL: none */
	void (*on_step)(void *ctx, int64_t step, int64_t live,
			const BInst *in, int stream);
	void *step_ctx;
	struct SchedTape *tape;   /* random:SEED, late, sync: what its draws
				   * decided (would have) is kept here
				   * (NULL: not kept) */
	struct ExecShare *share;  /* what the runs of one buffer program
				   * share (exec_share_new; NULL: none) */
} ExecOpts;

/* What runs of one buffer program under several schedules compute once
 * (exec.c): what each launch captures, touches and writes. */
typedef struct ExecShare ExecShare;
ExecShare *exec_share_new(void);       /* NULL out of memory */
void exec_share_free(ExecShare *s);

typedef struct ExecResult {
	Tensor **outs;            /* the entry's results, contiguous copies */
	int nouts;
	bool *shared;             /* per output (NULL: none): outs[k] is a
				   * tensor of the caller's, equal to the run's
				   * bit for bit (the reference's: one copy),
				   * not freed by exec_result_free */
	Violation *viols;
	int nviols;
	MemStats mem;
	char aborted[256];        /* non-empty: the run stopped early (why) */
	Loc aborted_at;           /* the op it stopped at (line 0: none) */
	bool limited;             /* it stopped at a resource limit (memory,
				   * work, time, a signal): not a verdict */
	const Op *failed;         /* the assert the run failed at, or NULL */
} ExecResult;

/* Run bp's function `entry` on inputs (read where they are, copied before
 * the run writes one: they are never changed).  Returns 0 (violations
 * and an early stop are results, not errors), or -1 + d when out of memory.
 * exec_result_free releases what it filled. */
int exec_run(const BProg *bp, const Func *entry, Tensor *const *inputs,
	     const ExecOpts *o, ExecResult *res, Diag *d);
void exec_result_free(ExecResult *res);

#endif
