/*
 * gen_impl.h: what the generator's files share (not the room's face): the
 * generator's state G, the values it tracks, and the draws and emitters one
 * file calls in another.  gen.c -> gen_region.c -> gen_tensor.c ->
 * gen_scope.c, no call back, except gen_region.c <-> gen_cfg.c and
 * gen_region.c <-> gen_carry.c (the op mix, the blocks and the loops
 * that carry futures nest in each other; gen_cfg.c -> gen_carry.c for
 * the launches its blocks pass along).
 */
#ifndef BUFDIFF_GEN_IMPL_H
#define BUFDIFF_GEN_IMPL_H

#include <setjmp.h>

#include "fuzz.h"
#include "cases.h"
#include "harness.h"
#include "strmap.h"

#define MAXV 512
#define MAXR 3          /* ranks 0..3 */
#define MAXFN 4         /* helper functions per program */

typedef struct GV {
	char name[16];
	DType dt;
	int rank;
	int dims[MAXR];  /* the real dims, dynamic ones too */
	unsigned dyn;    /* bit d: dim d is written `?` */
	bool scalar;
} GV;

typedef struct Fut {
	char name[16];
	GV res[2];
	int nres;
	int scope;       /* scope depth it was made at */
	char read[16];   /* an outer tensor its body reads, or "" */
} Fut;

typedef struct Loop {
	char iv[16];
	int ub;          /* iv < ub (a bound on %n's value too) */
	int mark;        /* values before it: defined outside the loop */
} Loop;

typedef struct Helper {
	char name[8];
	GV params[2];    /* tensor params, then `%n: index` */
	int nparams;
	bool asserts;    /* it (or a callee) asserts: not from a launch */
	Func *fn;        /* built (gen_build.c), or NULL */
} Helper;

/* The program built in memory (gen_build.c). */
typedef struct GenBuild {
	Builder B;
	Func *done[MAXFN];  /* the helpers, in the order they were completed
			     * (their text's order after main) */
	int ndone;
	int nlocs;          /* places given out */
	Type *types[32];    /* the types made, each once (gb_type) */
	int ntypes;
	bool broken;        /* not what the text parses to: not built */
	Value none;         /* gb_val's stand-in for a name it lacks */
} GenBuild;

/* What main and its helpers share. */
typedef struct Shared {
	int ops;         /* ops emitted, all functions */
	int names;       /* value counter, shared by all functions */
	Str helpers;     /* helper functions' text */
	Helper fns[MAXFN];
	int nfns;        /* finished helpers (callable) */
	int started;     /* helpers begun (their names) */
	GenStats *st;
	GenBuild *gb;    /* the program built as it is drawn, or NULL */
	struct {         /* helpers being made (nested at most MAXFN) */
		struct G *g;
		Str *body;
	} live[MAXFN];
	int nlive;
	bool oom;        /* a helper's G could not be had */
	bool notext;     /* no text: gen_line writes nothing */
} Shared;

typedef struct GLabel {
	int k;           /* ^bbK */
	Block *b;
} GLabel;

typedef struct G {
	uint64_t *rng;
	const GenOpts *o;
	Shared *sh;
	Str *out;
	int nv;          /* values in scope: v[0, nv) */
	int depth;       /* indentation level */
	Fut futs[32];
	int nfuts;
	Fut again[16];   /* awaited futures that may be awaited again */
	int nagain;
	Loop loops[8];
	int nloops;
	DType dt;        /* the program's main dtype */
	int helper;      /* helper nesting: 0 in main */
	bool *asserted;  /* set when the function being made asserts */
	bool in_forall;  /* a forall body: no branches, launches, calls */
	int in_async;    /* inside launch regions or forall bodies: no asserts */
	int cfgdepth;    /* arms of blocks open (gen_cfg.c): at block level
			  * when depth == 1 + cfgdepth */
	int async_mark;  /* in a launch body: values before it are outer */
	char async_read[16]; /* ... the last outer tensor its body picked */
	/* building (sh->gb): the function, the block ops go into (its ops'
	 * capacity), the values by name, the blocks by label number */
	Func *fn;
	Block *blk;
	int blkcap;
	StrMap vals;
	GLabel *labels;
	int nlabels, labelcap;
	GV v[MAXV];      /* last: gen_new zeroes only what is before it */
} G;

/* A G of zeroes but for v (not read above nv: 24 KB not cleared for
 * every program and helper); NULL out of memory. */
G *gen_new(void);
void gen_free(G *g); /* NULL ok */


/* The target profile's flag (GenTarget; false without a profile): a
 * choice point it applies to leaves out what the tool refuses. */
#define GEN_TARGET(g, flag) ((g)->o->target && (g)->o->target->flag)

/* -------------------------------------------------------- gen_build.c */

typedef struct GBlock {
	Block *blk;
	int cap;
} GBlock;

/* Is the program built as it is drawn? */
#define GEN_BUILD(g) ((g)->sh->gb != NULL)

int gb_init(GenBuild *gb, jmp_buf *oom);   /* 0, -1 out of memory */
Program *gb_finish(GenBuild *gb);          /* the program, numbered */
Type *gb_type(G *g, const GV *t);
Type *gb_scalar(G *g, DType dt);
Value *gb_val(G *g, const char *name);
Operand gb_opnd(G *g, const char *text);   /* `%name` or a literal */
int gb_list(G *g, const char *list, Operand **out); /* "a, b, c" */
Op *gb_op(G *g, OpKind k, int nres, const char *const *names,
	  Type *const *types, int nargs);
Op *gb_basic(G *g, OpKind k, const GV *res, const GV *type,
	     const char *const *args, int nargs, const char *dest);
Op *gb_term(G *g, OpKind k, const char *const *args, int n);
Op *gb_const(G *g, const GV *res, const char *lit);
Op *gb_const_index(G *g, const char *name, int k);
Op *gb_index_cmp(G *g, OpKind k, const char *res, const char *a,
		 const char *b);
void gb_implicit_yield(G *g);
void gb_dims(G *g, Op *op, const int *dims, int n);
void gb_slice(G *g, Op *op, char offs[][24], const int *size,
	      const int *stride, int rank);
Op *gb_extract(G *g, const GV *res, const char *src, const char *idx);
Op *gb_insert(G *g, const GV *res, const char *val, const char *dest,
	      const char *idx);
void gb_reassoc(G *g, Op *op, const char *grp);
Type **gb_types(G *g, const GV *t, int n);
Type *gb_future(G *g, const GV *t, int n);
Op *gb_await(G *g, const char *fut, char res[][16], int n);
Op *gb_async(G *g, const char *name, int stream, const GV *res, int n,
	     GBlock *was);
Op *gb_for(G *g, const char *const *rs, const char *iv,
	  const char *const *accs, const char *const *inits, Type **rt, int n,
	  const char *const *bounds, GBlock *was);
Value *gb_arg(G *g, Block *b, const char *name, Type *t);
Block *gb_region(G *g, Op *op);
GBlock gb_enter(G *g, Block *b);
void gb_back(G *g, GBlock was);
Block *gb_label(G *g, int k);
Block *gb_start_label(G *g, int k);
void gb_succ(G *g, Op *op, int k, int label, char names[][16], int n,
	     int *at);
Func *gb_func(G *g, const char *name);
Value *gb_param(G *g, const GV *t, bool readonly);
void gb_func_done(G *g, bool helper);

/* -------------------------------------------------------- gen_scope.c */

/* prefix and k >= 0 ("%s%d") into buf. */
void gen_name_int(char *buf, size_t n, const char *prefix, int k);

/* One line of program text at g's indentation; nothing, its arguments
 * not even formatted, when the program has no text (sh->notext). */
void gen_line_text(G *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define gen_line(g, ...) \
	((g)->sh->notext ? (void)0 : gen_line_text((g), __VA_ARGS__))
void gen_count(G *g, GenConstruct c);
int gen_pick(G *g, int n);              /* 0..n-1 (0 when n <= 0) */
bool gen_chance(G *g, int percent);
const char *gen_ty(const GV *v, char *buf, size_t n);  /* its type's text */
bool gen_same_type(const GV *a, const GV *b);
void gen_count_type(G *g, const GV *v);
/* A new value typed like `like`, named prefix + a fresh number. */
GV *gen_new_value(G *g, const GV *like, const char *prefix);

enum { T_RANKED = 1, T_STATIC = 2 };   /* gen_any_tensor's `want` */

GV *gen_any_tensor(G *g, int want);
GV *gen_outer_tensor(G *g);
GV *gen_find(G *g, const GV *like, const GV *not);
/* v's name; for none, "(null)" (a text that is rejected) */
const char *gen_name_of(const GV *v);
GV *gen_any_scalar(G *g, DType dt);
const char *gen_literal(G *g, DType dt, char *buf, size_t n);
const char *gen_scalar_operand(G *g, DType dt, int percent, char *buf,
			       size_t n);
GV gen_tensor_type(DType dt, int rank, const int *dims);
const char *gen_int_list(const int *x, int n, char *buf, size_t size);
const Loop *gen_loop_below(G *g, int bound);

/* ------------------------------------------------------- gen_tensor.c */

OpKind gen_draw_ew(G *g, Form form, int where, DType dt);
void gen_element_index(G *g, const GV *a, char *buf, size_t n);
void gen_elementwise(G *g);
void gen_scalar(G *g);
void gen_matmul(G *g);
void gen_transpose_reduce(G *g);
void gen_extract_slice(G *g);
void gen_insert_slice(G *g);
void gen_element(G *g);
void gen_copy(G *g);
void gen_data(G *g);

/* ------------------------------------------------------- gen_region.c */

/* Regions: enter one a level deeper (the mark: values before it), leave
 * it (its launches awaited, its values gone). */
int gen_enter(G *g);
void gen_leave(G *g, int mark);
/* Await the region's launches, yield values of types t[0..n), leave. */
void gen_close_region(G *g, const GV *t, int n, int mark);
const char *gen_types_text(const GV *t, int n, char *buf, size_t size);
/* `%a, %b = await %f`: new values of f's result types in scope. */
void gen_emit_await(G *g, const Fut *f);
void gen_await_pending(G *g, int scope);
void gen_assert(G *g);
void gen_ops(G *g, int n);      /* up to n ops of the mix, within max_ops */

/* -------------------------------------------------------- gen_carry.c */

/* `future<T, U>` of f's result types. */
const char *gen_future_ty(const Fut *f, char *buf, size_t n);
/* A launch of f's result types (f->nres, f->res set; its name and scope
 * are filled in), whose region first reads `reads` (a tensor iter arg or
 * a value a loop body made; NULL: nothing chosen) and, with `into`,
 * computes an op into a value of its first result type. */
void gen_carried_launch(G *g, Fut *f, const GV *reads, bool into);
/* f's result types: none (20%), or one tensor, `first` when given. */
void gen_carried_types(G *g, Fut *f, const GV *first);
/* A for carrying futures (GEN_ASYNC): a prefetch loop; false when it
 * made none. */
bool gen_prefetch(G *g);
/* After a construct that carried f out: await it now, leave it pending
 * (awaited later) or never await it. */
void gen_carried_out(G *g, const Fut *f);

/* ---------------------------------------------------------- gen_cfg.c */

/* Now and then (GEN_CFG): at block level a diamond or a loop of blocks
 * ending in a new block, the current one; anywhere a select; false when
 * it made none. */
bool gen_cfg(G *g);

#endif
