/*
 * memref_impl.h: what memref.c, memref_ops.c and memref_control.c share:
 * the reader's state, its type, value, instruction and attribute helpers,
 * and each file's entries the others call.  Internal to oracle/mlir/'s
 * memref reader.
 */
#ifndef BUFDIFF_MEMREF_IMPL_H
#define BUFDIFF_MEMREF_IMPL_H

#include "mlir.h"
#include "strmap.h"

typedef struct Sym {
	const char *name;       /* "%26", "%30#0", "%arg15" */
	Value *v;
	bool isconst;           /* an arith.constant of an integer type */
	int64_t k;
	const Op *view;         /* a memref.subview: its slice */
	const MOp *viewm;
	const Value *viewsrc;
	const MOp *defm;        /* the op that defined it; NULL: a block arg */
	Value *fut;             /* an !async.value: its launch's future */
	int futk;               /* ... and which result it is */
} Sym;

typedef struct MFn {
	const char *name;
	const MOp *m;
	Func *f;                /* synthetic */
	const Func *tf;         /* the TIR function of that name, or NULL */
} MFn;

typedef struct MX {
	Arena *a;
	const Case *c;
	const Program *p;
	const ExportMap *map;
	const MOp *top;
	BProg *bp;
	int capregs, capinsts;
	Sym *syms;
	int nsyms, capsyms;
	StrMap symidx;          /* name -> its latest entry in syms */
	MFn *fns;
	int nfns, capfns;
	StrMap fnidx;           /* name -> index in fns (the first) */
	StrMap tirfns;          /* the TIR program's functions: index */
	StrMap tirat;           /* "LINE:COL" -> index in tirops (the first) */
	const Op **tirops;      /* ... the TIR ops by location, made once */
	int ntirops, captirops;
	const MFn *cur;
	const Op *term;         /* the TIR terminator of the region being read */
	/* the function body being read, when it has several blocks: its
	 * MLIR region, and per block its buffer block and a block standing
	 * for it (label, arguments: what BI_BR and bir_print name) */
	const MRegion *cfg;
	BBlock **cfgbb;
	Block **cfgblk;
	/* the generate whose linalg.map (generic) body is being read: the
	 * index registers linalg.index stands for */
	Value **gidx;
	int ngidx;
	Diag *d;
	jmp_buf fail;
} MX;

enum { DYN = INT64_MIN }; /* a dynamic entry of static_offsets etc. */

/* memref.c */
void __attribute__((noreturn, format(printf, 3, 4)))
mx_fail(MX *M, const MOp *m, const char *fmt, ...);
void __attribute__((noreturn)) mx_unsupported(MX *M, const MOp *m);
Type *mx_type(MX *M, const MOp *m, const char *t);
Sym *mx_sym_find(MX *M, const char *name);
void mx_sym_bind(MX *M, const char *name, Value *v);
Value *mx_val(MX *M, const MOp *m, int i);
Value *mx_new_value(MX *M, const char *name, Type *t);
Sym *mx_def(MX *M, const char *name, Type *t);
Value *mx_res(MX *M, const MOp *m, int j);
const Op *mx_tir_of(MX *M, const MOp *m);
const MFn *mx_fn_find(MX *M, const char *name);
Op *mx_syn_op(MX *M, OpKind k, const MOp *m, int nargs);
BInst *mx_inst(MX *M, BBlock *b, BKind k, const Op *op, Value *v, const MOp *m);
void mx_emit_bind(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m);
void mx_emit_bind_out(MX *M, BBlock *b, Value *tv, Value *src, const MOp *m);
void mx_emit_ver(MX *M, BBlock *b, Value *v, Value *src, const MOp *m);
Operand mx_opnd(Value *v);
Operand mx_lit(int64_t i);
int mx_ints(MX *M, const MOp *m, const char *name, int64_t *out, int n);
int mx_segments(MX *M, const MOp *m, int64_t *seg, int n);
void mx_one_op(MX *M, const MOp *m, BBlock *b);
void mx_block_ops(MX *M, const MBlock *mb, BBlock *b);

/* memref_ops.c */
void mx_constant(MX *M, const MOp *m, BBlock *b);
void mx_arith(MX *M, const MOp *m, BBlock *b, OpKind k, bool i1only);
void mx_cmp(MX *M, const MOp *m, BBlock *b);
void mx_select(MX *M, const MOp *m, BBlock *b);
void mx_alias(MX *M, const MOp *m, BBlock *b);
void mx_alloc(MX *M, const MOp *m, BBlock *b);
void mx_dealloc(MX *M, const MOp *m, BBlock *b);
void mx_subview(MX *M, const MOp *m, BBlock *b);
void mx_reinterpret(MX *M, const MOp *m, BBlock *b);
void mx_reshape(MX *M, const MOp *m, BBlock *b);
void mx_cast(MX *M, const MOp *m, BBlock *b);
void mx_strided_metadata(MX *M, const MOp *m, BBlock *b);
void mx_dim(MX *M, const MOp *m, BBlock *b);
void mx_addr(MX *M, const MOp *m, BBlock *b);
void mx_copy(MX *M, const MOp *m, BBlock *b);
void mx_clone(MX *M, const MOp *m, BBlock *b);
void mx_bdealloc(MX *M, const MOp *m, BBlock *b);
void mx_load(MX *M, const MOp *m, BBlock *b);
void mx_store(MX *M, const MOp *m, BBlock *b);
void mx_get_global(MX *M, const MOp *m, BBlock *b);
void mx_linalg(MX *M, const MOp *m, BBlock *b);

/* memref_control.c */
void mx_yield(MX *M, const MOp *m, BBlock *b, BKind k);
Value **mx_results(MX *M, const MOp *m);
void mx_for(MX *M, const MOp *m, BBlock *b);
/* linalg.map/linalg.generic at a TIR generate, and linalg.index in it */
void mx_generate(MX *M, const MOp *m, BBlock *b, const Op *t);
void mx_linalg_index(MX *M, const MOp *m, BBlock *b);
void mx_if(MX *M, const MOp *m, BBlock *b);
void mx_while(MX *M, const MOp *m, BBlock *b);
void mx_condition(MX *M, const MOp *m, BBlock *b);
void mx_forall(MX *M, const MOp *m, BBlock *b);
void mx_async(MX *M, const MOp *m, BBlock *b);
void mx_await(MX *M, const MOp *m, BBlock *b);
void mx_call(MX *M, const MOp *m, BBlock *b);
void mx_assert(MX *M, const MOp *m, BBlock *b);
void mx_branch(MX *M, const MOp *m, BBlock *b);
void mx_cfg_body(MX *M, const MFn *fn, BFunc *bf);

#endif
