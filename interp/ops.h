/*
 * ops.h: the op table. One row per TIR op; included with different
 * definitions of OP() to build the enum, the name table and the traits.
 * The parser, printer, verifier, both executors, the bufferizer and the
 * fuzzer read this table, so a new op is added by adding one row here and,
 * if its form is new, one case per form.
 *
 * OP(ENUM, "name", form, ew, write, readsdest)
 *   form       how the op is written, typed and executed (enum Form in ir.h)
 *   ew         elementwise scalar function (EW_*), EW_NONE otherwise
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
 */
/*  enum         name            form          ew        write   readsdest */
OP(CONST,       "const",        F_CONST,      EW_NONE,  W_NONE, 0)
OP(EMPTY,       "empty",        F_EMPTY,      EW_NONE,  W_NONE, 0)
OP(ADD,         "add",          F_BINARY,     EW_ADD,   W_ANY,  0)
OP(SUB,         "sub",          F_BINARY,     EW_SUB,   W_ANY,  0)
OP(MUL,         "mul",          F_BINARY,     EW_MUL,   W_ANY,  0)
OP(DIV,         "div",          F_BINARY,     EW_DIV,   W_ANY,  0)
OP(MAX,         "max",          F_BINARY,     EW_MAX,   W_ANY,  0)
OP(MIN,         "min",          F_BINARY,     EW_MIN,   W_ANY,  0)
OP(NEG,         "neg",          F_UNARY,      EW_NEG,   W_ANY,  0)
OP(ABS,         "abs",          F_UNARY,      EW_ABS,   W_ANY,  0)
OP(EXP,         "exp",          F_UNARY,      EW_EXP,   W_ANY,  0)
OP(RELU,        "relu",         F_UNARY,      EW_RELU,  W_ANY,  0)
OP(LT,          "lt",           F_CMP,        EW_LT,    W_NONE, 0)
OP(LE,          "le",           F_CMP,        EW_LE,    W_NONE, 0)
OP(EQ,          "eq",           F_CMP,        EW_EQ,    W_NONE, 0)
OP(NE,          "ne",           F_CMP,        EW_NE,    W_NONE, 0)
OP(GT,          "gt",           F_CMP,        EW_GT,    W_NONE, 0)
OP(GE,          "ge",           F_CMP,        EW_GE,    W_NONE, 0)
OP(FILL,        "fill",         F_FILL,       EW_NONE,  W_DEST, 0)
OP(MATMUL,      "matmul",       F_MATMUL,     EW_NONE,  W_DEST, 1)
OP(TRANSPOSE,   "transpose",    F_TRANSPOSE,  EW_NONE,  W_DEST, 0)
OP(REDUCE_SUM,  "reduce.sum",   F_REDUCE,     EW_ADD,   W_DEST, 1)
OP(REDUCE_MAX,  "reduce.max",   F_REDUCE,     EW_MAX,   W_DEST, 1)
OP(EXTRACT_SLICE,"extract_slice",F_EXTRACT_SLICE,EW_NONE,W_NONE,0)
OP(INSERT_SLICE,"insert_slice", F_INSERT_SLICE,EW_NONE, W_DEST, 1)
OP(EXTRACT,     "extract",      F_EXTRACT,    EW_NONE,  W_NONE, 0)
OP(INSERT,      "insert",       F_INSERT,     EW_NONE,  W_DEST, 1)
OP(COPY,        "copy",         F_COPY,       EW_NONE,  W_DEST, 0)
OP(CLONE,       "clone",        F_CLONE,      EW_NONE,  W_NONE, 0)
OP(CALL,        "call",         F_CALL,       EW_NONE,  W_NONE, 0)
OP(IF,          "if",           F_IF,         EW_NONE,  W_NONE, 0)
OP(FOR,         "for",          F_FOR,        EW_NONE,  W_INIT, 0)
OP(ASYNC,       "async",        F_ASYNC,      EW_NONE,  W_NONE, 0)
OP(AWAIT,       "await",        F_AWAIT,      EW_NONE,  W_NONE, 0)
OP(YIELD,       "yield",        F_YIELD,      EW_NONE,  W_NONE, 0)
OP(RETURN,      "return",       F_RETURN,     EW_NONE,  W_NONE, 0)
OP(WHILE,       "while",        F_WHILE,      EW_NONE,  W_INIT, 0)
OP(CONDITION,   "condition",    F_CONDITION,  EW_NONE,  W_NONE, 0)
OP(ASSERT,      "assert",       F_ASSERT,     EW_NONE,  W_NONE, 0)
OP(FORALL,      "forall",       F_FORALL,     EW_NONE,  W_INIT, 0)
OP(PARALLEL_INSERT_SLICE,"parallel_insert_slice",F_PARALLEL_INSERT,EW_NONE,W_DEST,1)
OP(FROM_ELEMENTS,"from_elements",F_FROM_ELEMENTS,EW_NONE,W_NONE,0)
OP(COLLAPSE_SHAPE,"collapse_shape",F_RESHAPE, EW_NONE,  W_NONE, 0)
OP(EXPAND_SHAPE,"expand_shape", F_RESHAPE,    EW_NONE,  W_NONE, 0)
