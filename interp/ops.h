/*
 * ops.h: the op table. One row per TIR op; included with different
 * definitions of OP() and EW() to build the enum, the name table, the
 * traits, the kernel rows (kernels.c), the verifier's dtype rule
 * (verify.c), the fuzzer's draw lists (oracle/fuzz/gen_*.c) and the MLIR
 * spellings (oracle/mlir/: export_ops.c, import_ops.c, memref.c).  A new
 * op is added by adding one row here and, if its form is new, one case
 * per form; a new elementwise op is one EW row plus its scalar functions
 * in kernels.c (docs/kernels.md, "Adding an elementwise op").
 *
 * OP(ENUM, "name", form, ew, write, readsdest)
 *   form       how the op is written, typed and executed (enum Form in ir.h)
 *   ew         the elementwise op whose scalar function it applies
 *              (reduce.sum folds with ADD), NONE otherwise
 *   write      which operand's buffer the result may live in:
 *                W_NONE  never (fresh value or pure metadata)
 *                W_DEST  the destination (`into %d`, insert's destination,
 *                        insert_slice's destination)
 *                W_ANY   any same-typed operand (ops without `into`), or
 *                        the destination when `into` is given
 *                W_INIT  the for loop's inits (iter_args)
 *   readsdest  1 when the op reads its destination's old contents
 *              (matmul accumulates, reduce folds into, insert keeps the
 *              rest); an out-of-place write must copy them first.
 *
 * EW(ENUM, fn, form, rule, gen, slot, xf, int, float, pre19, extra, i1, cmpi,
 *    cmpf, named, fun)
 *   an elementwise op (F_BINARY, F_UNARY or F_CMP): OP(ENUM, "fn", form,
 *   ENUM, W_ANY, 0), W_NONE for compares, and:
 *   fn         its TIR name, and the suffix of its scalar functions in
 *              kernels.c: f32_fn, f64_fn (rule R_ANY, R_FLOAT) and i1_fn,
 *              i32_fn, i64_fn (R_ANY, R_INT); index runs as i64
 *   rule       the dtypes the verifier accepts: R_ANY, R_FLOAT, R_INT
 *   gen        where the fuzzer's generator draws it (oracle/fuzz/): G_TENSOR
 *              on tensors, G_SCALAR on scalars, G_NOINT never on integers
 *              (even when the rule allows them), 0 never
 *   slot       its place in the generator's list of its form (0, 1, ...):
 *              the lists keep their order when rows are added
 *   xf         how export writes it: X_PLAIN `int/float %a[, %b]`, X_CMP
 *              `cmpi/cmpf PRED, %a, %b`, X_RELU `max %a, 0`, X_NEG float
 *              `negf %a`, integer `subi 0, %a`
 *   int, float the MLIR op for integer and float dtypes (NULL: none)
 *   pre19      the float op's spelling before MLIR 19 where it differs
 *   extra      another float spelling `bufdiff import` reads as this op
 *   i1         an i1 logic op the memref translation reads as this op
 *   cmpi, cmpf arith.cmpi/arith.cmpf predicates (compares only)
 *   named      the linalg named op `bufdiff import` reads as this op
 *              (linalg.NAMED), NULL: none
 *   fun        the fun of linalg.elemwise_binary/unary import reads as it
 */
#ifndef EW
#define EW(e, fn, form, rule, gen, slot, xf, iop, fop, pre19, extra, i1,    \
	   cmpi, cmpf, named, fun)                                           \
	OP(e, #fn, form, e, form == F_CMP ? W_NONE : W_ANY, 0)
#define OPS_H_DEFAULT_EW
#endif
/*  enum         name            form          ew        write   readsdest */
OP(CONST,       "const",        F_CONST,      NONE,     W_NONE, 0)
OP(EMPTY,       "empty",        F_EMPTY,      NONE,     W_NONE, 0)
/* enum fn  form      rule     gen                        slot xf      int MLIR       float MLIR        pre-19 float  import-only       i1 logic      cmpi   cmpf   linalg  elemwise fun */
EW(ADD, add, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR,          0, X_PLAIN, "arith.addi",  "arith.addf",     NULL,         NULL,             NULL,         NULL,  NULL, "add",  "add")        /* x + y; ints wrap; i1 xor */
EW(SUB, sub, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR,          1, X_PLAIN, "arith.subi",  "arith.subf",     NULL,         NULL,             NULL,         NULL,  NULL, "sub",  "sub")        /* x - y; ints wrap; i1 xor */
EW(MUL, mul, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR,          2, X_PLAIN, "arith.muli",  "arith.mulf",     NULL,         NULL,             NULL,         NULL,  NULL, "mul",  "mul")        /* x * y; ints wrap; i1 and */
EW(DIV, div, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR|G_NOINT,  5, X_PLAIN, "arith.divsi", "arith.divf",     NULL,         NULL,             NULL,         NULL,  NULL, "div",  "div")        /* x / y; int x/0 = 0, MIN/-1 = MIN */
EW(MAX, max, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR,          3, X_PLAIN, "arith.maxsi", "arith.maximumf", "arith.maxf", "arith.maxnumf",  "arith.ori",  NULL,  NULL, "max",  "max_signed") /* larger; first NaN wins; i1 or */
EW(MIN, min, F_BINARY, R_ANY,  G_TENSOR|G_SCALAR,          4, X_PLAIN, "arith.minsi", "arith.minimumf", "arith.minf", "arith.minnumf",  "arith.andi", NULL,  NULL, "min",  "min_signed") /* smaller; first NaN wins; i1 and */
EW(NEG, neg, F_UNARY,  R_ANY,  G_TENSOR|G_SCALAR,          0, X_NEG,   "arith.subi",  "arith.negf",     NULL,         NULL,             NULL,         NULL,  NULL, "negf", "negf")       /* -x; ints wrap (neg MIN = MIN) */
EW(ABS, abs, F_UNARY,  R_ANY,  G_TENSOR|G_SCALAR,          1, X_PLAIN, "math.absi",   "math.absf",      NULL,         NULL,             NULL,         NULL,  NULL, "abs",  "abs")        /* |x|; abs MIN = MIN */
EW(EXP, exp, F_UNARY,  R_FLOAT,G_TENSOR|G_SCALAR,          3, X_PLAIN, NULL,          "math.exp",       NULL,         NULL,             NULL,         NULL,  NULL, "exp",  "exp")        /* e^x (expf for f32) */
EW(RELU,relu,F_UNARY,  R_ANY,  G_TENSOR,                   2, X_RELU,  "arith.maxsi", "arith.maximumf", "arith.maxf", NULL,             NULL,         NULL,  NULL, NULL,   NULL)         /* max(x, +0); relu(NaN) = NaN */
EW(LT,  lt,  F_CMP,    R_ANY,  G_SCALAR,                   0, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             NULL,         "slt", "olt", NULL,   NULL)        /* x < y as i1; NaN: 0 */
EW(LE,  le,  F_CMP,    R_ANY,  G_SCALAR,                   1, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             NULL,         "sle", "ole", NULL,   NULL)        /* x <= y as i1; NaN: 0 */
EW(EQ,  eq,  F_CMP,    R_ANY,  G_SCALAR,                   2, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             NULL,         "eq",  "oeq", NULL,   NULL)        /* x == y as i1; NaN: 0 */
EW(NE,  ne,  F_CMP,    R_ANY,  G_SCALAR,                   3, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             "arith.xori", "ne",  "une", NULL,   NULL)        /* x != y as i1; NaN: 1 */
EW(GT,  gt,  F_CMP,    R_ANY,  G_SCALAR,                   4, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             NULL,         "sgt", "ogt", NULL,   NULL)        /* x > y as i1; NaN: 0 */
EW(GE,  ge,  F_CMP,    R_ANY,  G_SCALAR,                   5, X_CMP,   "arith.cmpi",  "arith.cmpf",     NULL,         NULL,             NULL,         "sge", "oge", NULL,   NULL)        /* x >= y as i1; NaN: 0 */
/*  enum         name            form          ew        write   readsdest */
OP(FILL,        "fill",         F_FILL,       NONE,     W_DEST, 0)
OP(MATMUL,      "matmul",       F_MATMUL,     NONE,     W_DEST, 1)
OP(TRANSPOSE,   "transpose",    F_TRANSPOSE,  NONE,     W_DEST, 0)
OP(REDUCE_SUM,  "reduce.sum",   F_REDUCE,     ADD,      W_DEST, 1)
OP(REDUCE_MAX,  "reduce.max",   F_REDUCE,     MAX,      W_DEST, 1)
OP(EXTRACT_SLICE,"extract_slice",F_EXTRACT_SLICE,NONE,   W_NONE,0)
OP(INSERT_SLICE,"insert_slice", F_INSERT_SLICE,NONE,    W_DEST, 1)
OP(EXTRACT,     "extract",      F_EXTRACT,    NONE,     W_NONE, 0)
OP(INSERT,      "insert",       F_INSERT,     NONE,     W_DEST, 1)
OP(COPY,        "copy",         F_COPY,       NONE,     W_DEST, 0)
OP(CLONE,       "clone",        F_CLONE,      NONE,     W_NONE, 0)
OP(CALL,        "call",         F_CALL,       NONE,     W_NONE, 0)
OP(IF,          "if",           F_IF,         NONE,     W_NONE, 0)
OP(FOR,         "for",          F_FOR,        NONE,     W_INIT, 0)
OP(ASYNC,       "async",        F_ASYNC,      NONE,     W_NONE, 0)
OP(AWAIT,       "await",        F_AWAIT,      NONE,     W_NONE, 0)
OP(YIELD,       "yield",        F_YIELD,      NONE,     W_NONE, 0)
OP(RETURN,      "return",       F_RETURN,     NONE,     W_NONE, 0)
OP(WHILE,       "while",        F_WHILE,      NONE,     W_INIT, 0)
OP(CONDITION,   "condition",    F_CONDITION,  NONE,     W_NONE, 0)
OP(ASSERT,      "assert",       F_ASSERT,     NONE,     W_NONE, 0)
OP(FORALL,      "forall",       F_FORALL,     NONE,     W_INIT, 0)
OP(PARALLEL_INSERT_SLICE,"parallel_insert_slice",F_PARALLEL_INSERT,NONE,   W_DEST,1)
OP(FROM_ELEMENTS,"from_elements",F_FROM_ELEMENTS,NONE,   W_NONE,0)
OP(COLLAPSE_SHAPE,"collapse_shape",F_RESHAPE, NONE,     W_NONE, 0)
OP(EXPAND_SHAPE,"expand_shape", F_RESHAPE,    NONE,     W_NONE, 0)
OP(SELECT,      "select",       F_SELECT,     NONE,     W_NONE, 0)
OP(BR,          "br",           F_BR,         NONE,     W_NONE, 0)
OP(COND_BR,     "cond_br",      F_COND_BR,    NONE,     W_NONE, 0)
OP(GENERATE,    "generate",     F_GENERATE,   NONE,     W_NONE, 0)
#ifdef OPS_H_DEFAULT_EW
#undef EW
#undef OPS_H_DEFAULT_EW
#endif
