/*
 * export_impl.h: what export.c, export_ops.c and export_regions.c share:
 * the exporter's state, its text and map helpers, and each file's entries
 * the others call.  Internal to oracle/mlir/'s exporter.
 */
#ifndef BUFDIFF_EXPORT_IMPL_H
#define BUFDIFF_EXPORT_IMPL_H

#include "mlir.h"

/* An MLIR operand: a TIR value, or a name the exporter made (aux; src is
 * the TIR value it stands for, if any, e.g. the source of a cast). */
typedef struct Arg {
	const Value *v;
	int aux;
	const Value *src;
	int fj;                 /* v a future: 0 its token, j value j-1 */
} Arg;

typedef struct Exporter {
	const Program *p;
	const char *file;
	const MlirVersion *ver;
	Str *out;
	Arena *tmp;             /* scratch, freed at the end */
	Arena *a;               /* the map's arena, or NULL */
	ExportMap *map;
	int mapcap;
	Diag *d;
	jmp_buf jb;
	const char *aux;        /* prefix of made-up names */
	int naux;
	int depth;
	int *futvals;           /* by value id: aux name of a future's values */
	bool *futsep;           /* ... one name per value (a carried future:
				 * %_N, %_N+1, ...), else %_N#j of async.execute */
	const Func *curfn;      /* the function being exported */
	/* export_native.c (native: a NATIVE_* schedule, 0 for the plain
	 * export): by future value id, the aux name of value 0's memref
	 * (value j's is +j), of the launch's gate token (0 once opened) and
	 * the block that launched it; the launches in order */
	int native;
	int *futmem, *futgate, *futscal;
	const Block **gateblk;
	const Value **launches;
	int nlaunches;
} Exporter;

enum { EX_OOM = 1, EX_FAIL = 2 };

/* export.c */
_Noreturn void ex_fail(Exporter *e, Loc loc, const char *fmt, ...);
void ex_ind(Exporter *e);
void ex_end_line(Exporter *e, const Op *op);
void ex_put_name(Exporter *e, const Value *v);
void ex_put_sym(Exporter *e, const char *name);
void ex_put_arg(Exporter *e, Arg a);
void ex_put_args(Exporter *e, const Arg *a, int n);
void ex_put_type(Exporter *e, const Type *t);
void ex_put_types(Exporter *e, Type *const *t, int n);
void ex_put_ints64(Exporter *e, const int64_t *v, int n);
void ex_put_arrow(Exporter *e, Type *const *t, int n);
void ex_put_results(Exporter *e, const Op *op);
void ex_put_float(Exporter *e, double f, DType dt);
void ex_put_scalar(Exporter *e, DType dt, bool isfloat, double f, int64_t i);
void ex_rec(Exporter *e, const Op *op, const char *mlir, const Arg *ops,
	int nops, const int *tied, Value *const *res, int nres);
Arg ex_arg_of(const Value *v);
int ex_width(const Exporter *e, const Type *t);
int ex_slot_fj(const Exporter *e, int j);
int ex_nvals(const Exporter *e, const Type *t);
void ex_put_futval(Exporter *e, const Value *f, int j);
void ex_carry_names(Exporter *e, const Value *f);
void ex_put_slots(Exporter *e, const Value *v);
Arg ex_carried(Exporter *e, const Op *op, const Operand *o, DType dt);
Arg *ex_slots(Exporter *e, const Arg *a, int n, int *nout);
Arg ex_aux_new(Exporter *e);
Arg ex_lit(Exporter *e, const Op *op, const Operand *o, DType dt);
Arg *ex_args_new(Exporter *e, int n);
void ex_put_arg_type(Exporter *e, const Operand *o, DType dt);
void ex_op(Exporter *e, const Op *op);
void ex_block(Exporter *e, const Block *b);

/* export_ops.c */
void ex_elementwise(Exporter *e, const Op *op);
void ex_cmp(Exporter *e, const Op *op);
void ex_const(Exporter *e, const Op *op);
void ex_empty(Exporter *e, const Op *op);
void ex_dps(Exporter *e, const Op *op, const char *name, int n);
void ex_transpose(Exporter *e, const Op *op);
void ex_reduce(Exporter *e, const Op *op);
void ex_put_slice(Exporter *e, const Op *op);
int ex_slice_operands(Exporter *e, const Op *op, Arg *ops, int from);
void ex_extract_slice(Exporter *e, const Op *op);
void ex_insert_slice(Exporter *e, const Op *op);
void ex_element(Exporter *e, const Op *op, bool insert);
void ex_copy(Exporter *e, const Op *op);
void ex_clone(Exporter *e, const Op *op);
void ex_from_elements(Exporter *e, const Op *op);
void ex_reshape(Exporter *e, const Op *op);
void ex_select(Exporter *e, const Op *op);

/* export_regions.c */
void ex_no_future(Exporter *e, const char *what, Loc loc, Type *const *t,
	int n);
void ex_call(Exporter *e, const Op *op);
void ex_if(Exporter *e, const Op *op);
void ex_for(Exporter *e, const Op *op);
void ex_pinsert(Exporter *e, const Op *op);
void ex_forall(Exporter *e, const Op *op);
void ex_while(Exporter *e, const Op *op);
void ex_condition(Exporter *e, const Op *op);
void ex_assert(Exporter *e, const Op *op);
void ex_put_execute(Exporter *e, const Value *f, Arg vals, int k);
void ex_async(Exporter *e, const Op *op);
void ex_await(Exporter *e, const Op *op);
void ex_term(Exporter *e, const Op *op);
void ex_generate(Exporter *e, const Op *op);
void ex_put_label(Exporter *e, const Block *b);
void ex_cfg_block(Exporter *e, const Block *b);
void ex_branch(Exporter *e, const Op *op);

/* export_native.c */
void ex_native_init(Exporter *e);
void ex_native_async(Exporter *e, const Op *op);
void ex_native_yield(Exporter *e, const Op *op);
void ex_native_await(Exporter *e, const Op *op);
void ex_native_gates(Exporter *e, const Block *b, int i);
void ex_native_value_type(Exporter *e, const Type *t);
void ex_native_slot_type(Exporter *e, const Type *ft, int j);
void ex_native_futval(Exporter *e, const Value *f, int j);

#endif
