/*
 * import_impl.h: what import.c, import_ops.c, import_linalg.c and
 * import_regions.c share: the importer's state, its error, value, text and
 * attribute helpers, and each file's entries the others call.  Internal to
 * oracle/mlir/'s importer.
 */
#ifndef BUFDIFF_IMPORT_IMPL_H
#define BUFDIFF_IMPORT_IMPL_H

#include "mlir.h"
#include "strmap.h"

/* One MLIR value: its TIR spelling ("%x", or a literal "10" for a constant
 * inlined where TIR takes literals), its type text, a future's values. */
typedef struct IVal {
	const char *mlir, *tir, *type;
	const MOp *cst;          /* a scalar arith.constant that may be inlined */
	int fut;                 /* async value j of future tir (>= 1), 0 token, -1 */
	const char **awaited;    /* future: the TIR names of its awaited values */
	int nvals;               /* future: its values */
} IVal;

typedef struct Imp {
	Arena *a;
	const char *file;
	Str *out;
	Diag *d;
	const char **dfile;
	jmp_buf jb;
	MOp *top;
	IVal *vals;
	int nvals, cap;
	const MOp *func;
	const MOp *prev;         /* the op before the current one in its block */
	const char **used;       /* TIR names defined in the function */
	int nused, capused;
	const char **todo;       /* functions to emit, in order */
	int ntodo, captodo;
	Str *parts;              /* a function body's blocks' text, read in
				  * reverse postorder, written in source
				  * order (freed by mlir_import) */
	int nparts;
	/* the user's text (import_src.c); src NULL: none */
	const ImportSrc *src;
	const char **srclines;   /* where each line starts */
	int nsrclines, capsrclines;
	StrMap hints;            /* an MLIR value's string (its address) ->
				  * index in hintv: the user's name for it */
	const char **hintv;
	int nhintv, caphintv;
	int argno;               /* block arguments named argK so far */
	int cline;               /* the last source line whose comments are out */
} Imp;

/* import.c */
void __attribute__((noreturn, format(printf, 3, 4)))
imp_fail(Imp *I, const MOp *op, const char *fmt, ...);
bool imp_same_loc(Imp *I, const MOp *x, const MOp *y);
int imp_type_check(Imp *I, const MOp *op, const char *t);
IVal *imp_val_find(Imp *I, const char *mlir);
IVal *imp_val_add(Imp *I, const MOp *op, const char *mlir, const char *tir,
	const char *type);
const char *imp_tir_name(Imp *I, const char *mlir);
IVal *imp_operand(Imp *I, const MOp *op, int i);
const char *imp_arg(Imp *I, const MOp *op, int i, bool lit_ok);
void imp_ind(Imp *I, int depth);
void imp_put_results(Imp *I, const MOp *op, int depth);
void imp_put_list(Imp *I, const MOp *op, int from, int to, bool lit_ok);
void imp_put_type_end(Imp *I, const MOp *op);
/* The type of op's first result; an op written without one (a crafted
 * `tensor.insert` with no result) fails as too few results. */
const char *imp_restype(Imp *I, const MOp *op);
int imp_segments(Imp *I, const MOp *op, int64_t *seg, int n);
int imp_ints_attr(Imp *I, const MOp *op, const char *name, int64_t *out, int n);
void imp_no_attr(Imp *I, const MOp *op, const char *name);
void imp_ops(Imp *I, const MBlock *b, int depth);

/* import_src.c */
void imp_src_init(Imp *I, const ImportSrc *s);
void imp_src_func(Imp *I, const MOp *f);
const char *imp_src_name(Imp *I, const char *mlir);
void imp_src_comments(Imp *I, const MOp *op, int depth);
void imp_src_tag(Imp *I, const MOp *op, size_t start);

/* import_ops.c */
const char *imp_scalar_tir(const MOp *op);
void im_scalar(Imp *I, const MOp *op, int depth);
void im_cmp(Imp *I, const MOp *op, int depth);
void im_const(Imp *I, const MOp *op, int depth);
void im_empty(Imp *I, const MOp *op, int depth);
void im_extract(Imp *I, const MOp *op, int depth);
void imp_put_slice(Imp *I, const MOp *op, int from, int nseg);
int imp_rank_of(Imp *I, const MOp *op, const char *type);
void im_slice(Imp *I, const MOp *op, int depth);
void im_cast(Imp *I, const MOp *op, int depth);
void im_from_elements(Imp *I, const MOp *op, int depth);
void im_reshape(Imp *I, const MOp *op, int depth);
void im_copy(Imp *I, const MOp *op, int depth);

/* import_linalg.c */
void im_named(Imp *I, const MOp *op, int depth);
void im_transpose(Imp *I, const MOp *op, int depth);
void im_reduce(Imp *I, const MOp *op, int depth);
void im_generic(Imp *I, const MOp *op, int depth);
void im_map(Imp *I, const MOp *op, int depth);

/* import_regions.c */
int imp_carried_width(Imp *I, const MOp *op, const char **types, int i, int n);
const char *imp_carried_type(Imp *I, const char **types, int i, int w);
const char *imp_carried_def(Imp *I, const MOp *at, const char **names,
	const char **types, int i, int w);
void imp_put_carried(Imp *I, const MOp *op, int from, int to);
void im_if(Imp *I, const MOp *op, int depth);
void im_for(Imp *I, const MOp *op, int depth);
void im_generate(Imp *I, const MOp *op, int depth);
void im_yield(Imp *I, const MOp *op, int depth);
void im_assert(Imp *I, const MOp *op, int depth);
void im_branch(Imp *I, const MOp *op, int depth);
void im_async(Imp *I, const MOp *op, int depth);
void im_await(Imp *I, const MOp *op, int depth);
void im_while(Imp *I, const MOp *op, int depth);
void im_condition(Imp *I, const MOp *op, int depth);
void im_forall(Imp *I, const MOp *op, int depth);
void im_foreach_thread(Imp *I, const MOp *op, int depth);
void im_in_parallel(Imp *I, const MOp *op, int depth);
void im_parallel_insert(Imp *I, const MOp *op, int depth);

#endif
