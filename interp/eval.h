/* eval.h: private to the reference interpreter (eval.c, eval_values.c,
 * eval_data.c, eval_control.c). */
#ifndef BUFDIFF_EVAL_H
#define BUFDIFF_EVAL_H

#include <stdlib.h>

#include "budget.h"

typedef struct Box Box;
struct Box {
	int refs;
	bool borrowed;  /* an input tensor: the caller owns it */
	Tensor *t;      /* a tensor or scalar; NULL for a future */
	Box **elems;    /* a future: the values its region yielded */
	int nelems;
};

typedef struct Run {
	const Program *p;
	const Limits *lim;
	Diag *d;
	int *slot;       /* Value.id -> slot in its function's frame */
	int *nslots;     /* slots per function, indexed like p->funcs */
	int64_t bytes;   /* live payload bytes */
	int64_t trips;   /* loop iterations so far, all loops */
	int64_t peak;    /* max of bytes */
	int depth;       /* active calls, the entry function included */
	const Op *failed; /* the assert that failed: the run ends, rc 1 */
	/* last uses: the values to unbind after op (by Op.seq), as a list
	 * through dead_next (by Value.id); -1 ends it */
	int *dead_head, *dead_next, *last;
	Budget budget;   /* work and wall clock (budget.h) */
	int order;       /* RefStats.order: foralls' trips in that order,
			  * each seeing the earlier ones' inserts */
	int64_t forall_trips; /* RefStats.forall_trips */
} Run;

/* A running forall: the results its parallel_insert_slices fill, and
 * which trip (1-based) wrote each element, to find overlaps. */
typedef struct Gather Gather;
struct Gather {
	const Op *op;
	Tensor **outs;
	uint64_t **owner;
	uint64_t trip;
	Gather *up;
};

typedef struct Frame {
	Run *run;
	Box **env;
	int nslots;
	Gather *par;     /* innermost running forall, or NULL */
} Frame;

/* A literal operand as a rank-0 tensor on the stack (no allocation). */
typedef struct Lit {
	Tensor t;
	union {
		double f;
		int64_t i;
	} u;
} Lit;


typedef int (*EvalFn)(Frame *f, const Op *op);

/* eval_values.c: tensors, boxes, operands, shape messages */
int oom(Run *r, Loc loc);
int64_t t_bytes(const Tensor *t);
/* Charge n units of work at loc (budget.h): 0, or -1 past a limit. */
int charge(Run *r, Loc loc, int64_t n);
/* A new tensor, within the element and live-byte limits: zeroed, or
 * (t_new_raw) not, for a kernel that writes every element. */
Tensor *t_new(Run *r, Loc loc, DType dt, int rank, const int64_t *dims);
Tensor *t_new_raw(Run *r, Loc loc, DType dt, int rank, const int64_t *dims);
void t_free(Run *r, Tensor *t);
int def_ensure(Run *r, Loc loc, Tensor *t, uint8_t v);
void def_settle(Tensor *t);
View whole_view(const Tensor *t, bool def);
View sub_view(const Tensor *t, bool def, const int64_t *offs,
	      const int64_t *sizes, const int64_t *steps);
View elem_view(const Tensor *t, bool def, int64_t li);
View bcast_view(const Tensor *t, const Tensor *out);
Tensor *t_dup(Run *r, Loc loc, const Tensor *a);
Box *box_new(Run *r, Loc loc, Tensor *t);
/* Bind result k of op to the new tensor t (freed on failure). */
int bind_new(Frame *f, const Op *op, int k, Tensor *t);
void box_unref(Run *r, Box *b);
Box **boxes_new(Run *r, Loc loc, int n);
void boxes_free(Run *r, Box **bs, int n);
Loc oploc(const Operand *o, const Op *op);
const char *oname(const Operand *o);
int type_rank(const Type *t);
void lit_init(Lit *l, DType dt);
/* Element k of a constant's payload into element at of t. */
void const_put(Tensor *t, int64_t at, const ConstData *c, int64_t k);
/* An operand as a tensor: a value's, or a literal of dtype dt in l. */
const Tensor *operand(Frame *f, const Operand *o, DType dt, Lit *l);
/* An operand as a new box reference (literals get a tensor of dtype dt). */
Box *operand_box(Frame *f, const Op *op, const Operand *o, DType dt);
/* A defined integer scalar operand (bound, step, offset, index, dim). */
int read_int(Frame *f, const Op *op, const Operand *o, const char *what,
	     int64_t *out);
const char *shape_str(const Tensor *t, char *buf, size_t n);
bool same_shape(const Tensor *a, const Tensor *b);
int shape_mismatch(Run *r, Loc loc, const Operand *a, const Tensor *ta,
		   const Operand *b, const Tensor *tb);
int check_fits(Run *r, Loc loc, const Tensor *t, const Type *ty,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int ew_shape(Frame *f, const Op *op, const Tensor *const *ts,
	     const Operand *const *os, int n, int rank, int64_t *dims);

static inline Box *
box_ref(Box *b)
{
	b->refs++;
	return b;
}

/* eval.c: the environment, last uses, frames, blocks and calls */
static inline Box **
slotp(Frame *f, const Value *v)
{
	int s = f->run->slot[v->id];

	if (s < 0 || s >= f->nslots)
		abort(); /* a value of another function: the verifier rejects it */
	return &f->env[s];
}

/* Bind v to b, taking over b's reference (b NULL unbinds). */
static inline void
bind(Frame *f, const Value *v, Box *b)
{
	Box **s = slotp(f, v);

	box_unref(f->run, *s);
	*s = b;
}

static inline Box *
lookup(Frame *f, const Value *v)
{
	Box *b = *slotp(f, v);

	if (!b)
		abort(); /* use before definition: the verifier rejects it */
	return b;
}

/* Bind op's results to outs[] (their references move to the env). */
void bind_results(Frame *f, const Op *op, Box **outs);
/* Unbind the values a block defined (its args and its ops' results). */
void clear_block(Frame *f, const Block *b);
int frame_init(Run *r, Frame *f, const Func *fn, Loc loc);
void frame_free(Frame *f);
/* Run b's ops; the terminator's operands go to outs[0..nouts) as new
 * references (a literal gets the dtype of types[k]). */
int eval_block(Frame *f, const Block *b, Type *const *types, Box **outs,
	       int nouts);
int eval_func(Frame *f, const Func *fn, Box **outs);

/* eval_data.c: one function per data form, and its poison rule */
int eval_const(Frame *f, const Op *op);
/* The sizes of op's type, its `?` dims read from its operands (empty,
 * generate). */
int op_dims(Frame *f, const Op *op, int64_t *dims);
int eval_empty(Frame *f, const Op *op);
int eval_binary(Frame *f, const Op *op);
int eval_unary(Frame *f, const Op *op);
int eval_cmp(Frame *f, const Op *op);
int eval_fill(Frame *f, const Op *op);
int eval_matmul(Frame *f, const Op *op);
int eval_transpose(Frame *f, const Op *op);
int eval_reduce(Frame *f, const Op *op);
int eval_extract_slice(Frame *f, const Op *op);
int eval_insert_slice(Frame *f, const Op *op);
int eval_extract(Frame *f, const Op *op);
int eval_insert(Frame *f, const Op *op);
int eval_copy(Frame *f, const Op *op);
int eval_clone(Frame *f, const Op *op);
int eval_from_elements(Frame *f, const Op *op);
int eval_reshape(Frame *f, const Op *op);
int eval_select(Frame *f, const Op *op);
/* (for parallel_insert_slice) */
int slice_offsets(Frame *f, const Op *op, const Tensor *t, const Operand *of,
		  int64_t *offs);
int def_insert_slice(Run *r, Loc loc, Tensor *t, const Tensor *s,
		     const int64_t *offs, const Op *op);

/* eval_control.c: the forms that run regions or functions */
int eval_call(Frame *f, const Op *op);
int eval_if(Frame *f, const Op *op);
int eval_for(Frame *f, const Op *op);
int eval_forall(Frame *f, const Op *op);
int eval_parallel_insert(Frame *f, const Op *op);
int eval_while(Frame *f, const Op *op);
int eval_generate(Frame *f, const Op *op);
int eval_assert(Frame *f, const Op *op);
int eval_async(Frame *f, const Op *op);
int eval_await(Frame *f, const Op *op);

#endif
