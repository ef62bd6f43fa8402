/* test_parse.c: the TIR lexer and parser (interp/lex.c, interp/parse.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* Every op form, and the IR fields each one fills. */
static const char *all_ops =
	"// every op form\n"
	"func @main(%x: tensor<3xi32>, %w: tensor<4xf32> {readonly}, %n: index) -> (tensor<3xi32>, f32) {\n"
	"  %c = const 10 : i32\n"
	"  %t = const true : i1\n"
	"  %d = const dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
	"  %s = const dense<0.5> : tensor<8xf32>\n"
	"  %e = empty : tensor<4xf32>\n"
	"  %e2 = empty(%n) : tensor<?xf32>\n"
	"  %y = add %x, 10 : tensor<3xi32>\n"
	"  %y2 = sub %x, %y into %x : tensor<3xi32>\n"
	"  %y3 = neg %w : tensor<4xf32>\n"
	"  %j = sub %n, 1 : index\n"
	"  %b = lt %j, %n : index\n"
	"  %f = fill 1.5 into %e : tensor<4xf32>\n"
	"  %m = matmul %d, %d into %d : tensor<2x2xi32>\n"
	"  %tr = transpose %d [1, 0] into %d : tensor<2x2xi32>\n"
	"  %r = reduce.sum %d [1] into %x : tensor<2xi32>\n"
	"  %sl = extract_slice %d[%j, 0] [1, 2] [1, 1] : tensor<1x2xi32>\n"
	"  %is = insert_slice %sl into %d[0, %j] [1, 2] [1, 1] : tensor<2x2xi32>\n"
	"  %v = extract %w[2] : f32\n"
	"  %ins = insert %v into %w[%j] : tensor<4xf32>\n"
	"  %cp = copy %w into %e : tensor<4xf32>\n"
	"  %cl = clone %w : tensor<4xf32>\n"
	"  %a0, %a1 = call @g(%x)\n"
	"  %i1 = if %b -> (f32) { yield %v } else {\n"
	"    %q = exp %v : f32\n"
	"    yield %q\n"
	"  }\n"
	"  if %b { %zz = abs %v : f32 }\n"
	"  %lp = for %i = 0 to %n step 2 iter(%acc = %x) -> (tensor<3xi32>) {\n"
	"    %acc2 = add %acc, %i : tensor<3xi32>\n"
	"    yield %acc2\n"
	"  }\n"
	"  for %k = 0 to 4 { %u = relu %w : tensor<4xf32> }\n"
	"  %fu = async stream 1 -> (tensor<4xf32>, f32) { yield %w, %v }\n"
	"  %o0, %o1 = await %fu\n"
	"  %mx = reduce.max %d [0, 1] into %c : i32\n"
	"  %mn = min %v, -inf : f32\n"
	"  %ff = const dense<[1.0, 2, -0.0, 1e-3]> : tensor<4xf64>\n"
	"  return %lp, %o1\n"
	"}\n"
	"\n"
	"func @g(%a: tensor<3xi32>) -> (i32, tensor<?x8xf32>) {\n"
	"  %c = const 1 : index\n"
	"  %z = empty(%c) : tensor<?x8xf32>\n"
	"  %cc = const 2 : i32\n"
	"  return %cc, %z\n"
	"}\n";

static Op *
find_op(const Program *p, const char *fn, const char *res)
{
	Value *v = prog_value(p, prog_func(p, fn), res);

	ck_assert_msg(v && v->def, "no op defines %%%s", res);
	return v->def;
}

START_TEST(test_all_ops_accepted)
{
	Diag d;
	Program *p = tu_parse(all_ops, &d);

	ck_assert_msg(p != NULL, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_int_eq(p->nfuncs, 2);
	for (int i = 0; i < p->nvalues; i++) {
		ck_assert_int_eq(p->values[i]->id, i);
		ck_assert_ptr_nonnull(p->values[i]->type);
		ck_assert_ptr_nonnull(p->values[i]->func);
	}
	ck_assert_ptr_eq(prog_func(p, "main")->body->func, prog_func(p, "main"));
	prog_free(p);
}
END_TEST

START_TEST(test_fields)
{
	Diag d;
	Program *p = tu_parse(all_ops, &d);
	Func *f, *g;
	Op *op;
	Value *v;

	ck_assert_ptr_nonnull(p);
	f = prog_func(p, "main");
	g = prog_func(p, "g");
	ck_assert_int_eq(f->nparams, 3);
	ck_assert(f->params[1]->readonly && f->params[1]->isparam);
	ck_assert(!f->params[0]->readonly);
	ck_assert_int_eq(f->nrtypes, 2);
	ck_assert_int_eq(f->rtypes[1]->dt, DT_F32);
	/* locations: op = first token, value = its name, operand, type */
	op = find_op(p, "main", "y");
	ck_assert_int_eq(op->loc.line, 9);
	ck_assert_int_eq(op->loc.col, 3);
	ck_assert_int_eq(op->kind, OP_ADD);
	ck_assert_int_eq(op->nargs, 2);
	ck_assert_ptr_eq(op->args[0].v, f->params[0]);
	ck_assert_int_eq(op->args[0].loc.col, 12);
	ck_assert_ptr_null(op->args[1].v);
	ck_assert_int_eq(op->args[1].i, 10);
	ck_assert(!op->args[1].isfloat);
	ck_assert_int_eq(op->type->loc.col, 21);
	ck_assert_ptr_eq(op->res[0]->type, op->type);
	ck_assert_int_eq(op->parent->ops[op->index] == op, 1);
	op = find_op(p, "main", "y2");
	ck_assert(op->hasdest);
	ck_assert_ptr_eq(op->dest.v, f->params[0]);
	/* const */
	op = find_op(p, "main", "d");
	ck_assert_int_eq(op->cdata.n, 4);
	ck_assert(!op->cdata.splat);
	ck_assert_int_eq(op->cdata.i[3], 4);
	op = find_op(p, "main", "s");
	ck_assert(op->cdata.splat);
	ck_assert_int_eq(op->cdata.n, 1);
	ck_assert(op->cdata.f[0] == 0.5);
	op = find_op(p, "main", "t");
	ck_assert_int_eq(op->cdata.i[0], 1);
	op = find_op(p, "main", "ff");
	ck_assert(op->cdata.f[1] == 2.0 && signbit(op->cdata.f[2]));
	ck_assert(op->cdata.f[3] == 1e-3);
	/* comparison: result i1, op->type is the operand type */
	op = find_op(p, "main", "b");
	ck_assert_int_eq(op->res[0]->type->dt, DT_I1);
	ck_assert_int_eq(op->type->dt, DT_INDEX);
	/* slices, transpose, reduce */
	op = find_op(p, "main", "sl");
	ck_assert_int_eq(op->noffs, 2);
	ck_assert_str_eq(op->offs[0].v->name, "j");
	ck_assert_int_eq(op->offs[1].i, 0);
	ck_assert_int_eq(op->sizes[1], 2);
	ck_assert_int_eq(op->strides[0], 1);
	op = find_op(p, "main", "is");
	ck_assert_str_eq(op->args[0].v->name, "sl");
	ck_assert_str_eq(op->dest.v->name, "d");
	op = find_op(p, "main", "tr");
	ck_assert_int_eq(op->nperm, 2);
	ck_assert_int_eq(op->perm[0], 1);
	op = find_op(p, "main", "mx");
	ck_assert_int_eq(op->nperm, 2);
	ck_assert_int_eq(op->kind, OP_REDUCE_MAX);
	op = find_op(p, "main", "ins");
	ck_assert_ptr_eq(op->dest.v, f->params[1]);
	ck_assert_int_eq(op->noffs, 1);
	/* literals */
	op = find_op(p, "main", "mn");
	ck_assert(op->args[1].isfloat && isinf(op->args[1].f) &&
		  op->args[1].f < 0);
	/* empty with a dynamic dim */
	op = find_op(p, "main", "e2");
	ck_assert_int_eq(op->nargs, 1);
	ck_assert_int_eq(op->type->dims[0], DIM_DYN);
	/* call */
	op = find_op(p, "main", "a0");
	ck_assert_ptr_eq(op->fn, g);
	ck_assert_str_eq(op->callee, "g");
	ck_assert_ptr_eq(op->res[1]->type, g->rtypes[1]);
	ck_assert_int_eq(op->res[1]->resno, 1);
	/* if: then / else, results from `-> (...)` */
	op = find_op(p, "main", "i1");
	ck_assert_int_eq(op->nrtypes, 1);
	ck_assert_ptr_nonnull(op->orelse);
	ck_assert_int_eq(op->orelse->nops, 2);
	ck_assert_ptr_eq(op->orelse->parent, op);
	v = prog_value(p, f, "q");
	ck_assert_ptr_eq(v->def->parent, op->orelse);
	/* if without results: implicit yield at the `}` */
	op = prog_value(p, f, "zz")->def->parent->parent;
	ck_assert_int_eq(op->kind, OP_IF);
	ck_assert_ptr_null(op->orelse);
	ck_assert_int_eq(op->body->nops, 2);
	ck_assert_int_eq(op->body->ops[1]->kind, OP_YIELD);
	ck_assert_int_eq(op->body->ops[1]->loc.line, 29);
	ck_assert_int_eq(op->body->ops[1]->loc.col, 30);
	/* for: args lb, ub, step, inits; body args iv, iter args */
	op = find_op(p, "main", "lp");
	ck_assert_int_eq(op->nargs, 4);
	ck_assert_int_eq(op->args[2].i, 2);
	ck_assert_ptr_eq(op->args[3].v, f->params[0]);
	ck_assert_int_eq(op->body->nargs, 2);
	ck_assert_str_eq(op->body->args[0]->name, "i");
	ck_assert_int_eq(op->body->args[0]->type->dt, DT_INDEX);
	ck_assert_ptr_eq(op->body->args[0]->owner, op->body);
	ck_assert_ptr_eq(op->body->args[1]->type, op->rtypes[0]);
	ck_assert_int_eq(op->body->args[1]->loc.col, 38);
	/* for without step: step 1 */
	op = prog_value(p, f, "u")->def->parent->parent;
	ck_assert_int_eq(op->args[2].i, 1);
	ck_assert_int_eq(op->nres, 0);
	/* async / await */
	op = find_op(p, "main", "fu");
	ck_assert_int_eq(op->stream, 1);
	ck_assert_int_eq(op->res[0]->type->kind, TY_FUTURE);
	ck_assert_int_eq(op->res[0]->type->nelems, 2);
	op = find_op(p, "main", "o1");
	ck_assert_int_eq(op->kind, OP_AWAIT);
	ck_assert_int_eq(op->res[1]->type->dt, DT_F32);
	/* the function body ends with the return */
	op = f->body->ops[f->body->nops - 1];
	ck_assert_int_eq(op->kind, OP_RETURN);
	ck_assert_int_eq(op->nargs, 2);
	ck_assert_ptr_null(op->res);
	prog_free(p);
}
END_TEST

START_TEST(test_implicit_return)
{
	Diag d;
	Program *p = tu_parse("func @h() {\n}\nfunc @k(%x: f32) { %y = neg %x : f32 }", &d);
	Func *h, *k;

	ck_assert_ptr_nonnull(p);
	h = prog_func(p, "h");
	k = prog_func(p, "k");
	ck_assert_int_eq(h->body->nops, 1);
	ck_assert_int_eq(h->body->ops[0]->kind, OP_RETURN);
	ck_assert_int_eq(h->body->ops[0]->loc.line, 2);
	ck_assert_int_eq(h->body->ops[0]->loc.col, 1);
	ck_assert_int_eq(k->body->nops, 2);
	ck_assert_int_eq(k->body->ops[1]->kind, OP_RETURN);
	ck_assert_int_eq(k->body->ops[1]->index, 1);
	prog_free(p);
}
END_TEST

START_TEST(test_srcmap)
{
	const char *text = "func @f(%x: f32) -> f32 {\n  %y = neg %x : f32\n  return %y\n}\n";
	SrcMap map = {10, 4};
	Diag d;
	Program *p = tir_parse(text, strlen(text), map, &d);
	Op *op;

	ck_assert_ptr_nonnull(p);
	op = find_op(p, "f", "y");
	ck_assert_int_eq(op->loc.line, 11);
	ck_assert_int_eq(op->loc.col, 7);
	ck_assert_int_eq(op->args[0].loc.col, 4 + 12);
	ck_assert_int_eq(prog_func(p, "f")->params[0]->loc.line, 10);
	ck_assert_int_eq(prog_func(p, "f")->params[0]->loc.col, 4 + 9);
	prog_free(p);
	p = tir_parse("func @f() {\n  %y = bad\n}", 25, map, &d);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(d.loc.line, 11);
	ck_assert_int_eq(d.loc.col, 4 + 8);
	ck_assert_str_eq(d.msg, "unknown op 'bad'");
}
END_TEST

START_TEST(test_literals)
{
	Diag d;
	Program *p = tu_parse(
		"func @f(%x: f64) {\n"
		"  %a = add %x, 1e+20 : f64\n"
		"  %b = add %x, -3 : f64\n"
		"  %c = add %x, nan : f64\n"
		"  %e = add %x, 2.5e-3 : f64\n"
		"  %g = const -9223372036854775808 : i64\n"
		"  %h = const false : i1\n"
		"  %k = const dense<[true, false]> : tensor<2xi1>\n"
		"}", &d);

	ck_assert_msg(p != NULL, "%s", d.msg);
	ck_assert(find_op(p, "f", "a")->args[1].f == 1e20);
	ck_assert(find_op(p, "f", "a")->args[1].isfloat);
	ck_assert_int_eq(find_op(p, "f", "b")->args[1].i, -3);
	ck_assert(isnan(find_op(p, "f", "c")->args[1].f));
	ck_assert(find_op(p, "f", "e")->args[1].f == 2.5e-3);
	ck_assert(find_op(p, "f", "g")->cdata.i[0] == INT64_MIN);
	ck_assert_int_eq(find_op(p, "f", "h")->cdata.i[0], 0);
	ck_assert_int_eq(find_op(p, "f", "k")->cdata.i[0], 1);
	prog_free(p);
}
END_TEST

/* A value used before its definition resolves (the verifier rejects it);
 * names are per function. */
START_TEST(test_scoping_left_to_verifier)
{
	Diag d;
	Program *p = tu_parse(
		"func @f(%x: f32) -> f32 {\n"
		"  %a = add %b, 1.0 : f32\n"
		"  %b = neg %x : f32\n"
		"  return %a\n"
		"}\n"
		"func @g(%x: f32) -> f32 {\n"
		"  %a = neg %x : f32\n"
		"  return %a\n"
		"}\n", &d);

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(find_op(p, "f", "a")->args[0].v,
			 prog_value(p, prog_func(p, "f"), "b"));
	prog_free(p);
}
END_TEST

static void
check_error(const char *text, int line, int col, const char *msg)
{
	Diag d;
	Program *p = tu_parse(text, &d);

	ck_assert_msg(p == NULL, "accepted: %s", text);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_msg(d.loc.line == line && d.loc.col == col,
		      "%s: at %d:%d, expected %d:%d", msg, d.loc.line,
		      d.loc.col, line, col);
}

START_TEST(test_errors)
{
	check_error("func @f() {\n  %a = foo %x : f32\n}", 2, 8,
		    "unknown op 'foo'");
	check_error("func @f(%x: f32) -> f32 {\n  %a = add %x, %q : f32\n  return %a\n}",
		    2, 16, "undefined value %q");
	check_error("func @f(%x: f32) -> f32 {\n  %x = add %x, 1 : f32\n  return %x\n}",
		    2, 3, "redefinition of value %x");
	check_error("func @f() {\n  for %i = 0 to 2 { }\n  for %i = 0 to 2 { }\n}",
		    3, 7, "redefinition of value %i");
	/* names' errors: function by function once all is read, a
	 * redefinition before an undefined use */
	check_error("func @f(%x: f32) {\n  %y = neg %q : f32\n  return\n}\n"
		    "func @g(%x: f32) {\n  %x = neg %x : f32\n  return\n}\n",
		    2, 12, "undefined value %q");
	check_error("func @f(%x: f32) {\n  %x = neg %x : f32\n  return\n}\n"
		    "func @g(%x: f32) {\n  %y = neg %q : f32\n  return\n}\n",
		    2, 3, "redefinition of value %x");
	check_error("func @f(%x: f32) {\n  %a = neg %q : f32\n"
		    "  %x = neg %x : f32\n  return\n}\n",
		    3, 3, "redefinition of value %x");
	check_error("func @f(%x: f32) -> f32 {\n  %a = add %b, %x : f32\n"
		    "  %b = neg %x : f32\n  %b = neg %a : f32\n  return %a\n}\n",
		    4, 3, "redefinition of value %b");
	check_error("func @f(%c: i1) {\n  if %c {\n    %a = neg %z : f32\n"
		    "  }\n  %b = neg %w : f32\n  return\n}\n",
		    3, 14, "undefined value %z");
	check_error("func @f() {\n  %a = neg %q : f32\n}\nfunc @f() {\n}\n",
		    4, 1, "redefinition of function @f");
	check_error("func @f(%x: f16) {\n}", 1, 13, "unknown type 'f16'");
	check_error("func @f(%x: tensor<4x?xf16>) {\n}", 1, 24,
		    "unknown type 'f16'");
	check_error("func @f() {\n  %a = const 1 # : i32\n}", 2, 16,
		    "unexpected character '#'");
	check_error("func @f() {\n  %a = const 1 : i32\n", 1, 11,
		    "unterminated region: no matching '}'");
	check_error("func @f(%c: i1) {\n  if %c {\n}\nfunc @g() {\n}", 1, 17,
		    "unterminated region: no matching '}'");
	check_error("func @f() {\n  %a = const dense<[[1, 2], [3]]> : tensor<2x2xi32>\n}",
		    2, 29, "dense literal has 1 element in dimension 1, expected 2");
	check_error("func @f() {\n  %a = const dense<[[1, 2], 3]> : tensor<2x2xi32>\n}",
		    2, 29, "expected '[', found '3'");
	check_error("func @f() {\n  %a = const dense<[[1, 2.5], [3, 4]]> : tensor<2x2xi32>\n}",
		    2, 25, "expected integer literal for i32, found '2.5'");
	check_error("func @f() {\n  %a = const dense<[[[1]]]> : tensor<1x1xi32>\n}",
		    2, 22, "dense literal nested deeper than the rank of tensor<1x1xi32>");
	check_error("func @f() {\n  %a = const dense<[1, 2> : tensor<2xi32>\n}",
		    2, 25, "expected ']', found '>'");
	check_error("func @f() { %a = const 300 : i1 }", 1, 24,
		    "integer literal 300 out of range for i1");
	check_error("func @f(%x: tensor<99999999999999999999xf32>) {\n}", 1, 20,
		    "tensor dimension '99999999999999999999' too large (at most 2147483647)");
	check_error("func @f(%x: tensor<1x1x1x1x1x1x1x1x1xf32>) {\n}", 1, 36,
		    "tensor rank exceeds 8");
	check_error("func @f(%x: tensor<4.5xf32>) {\n}", 1, 20,
		    "tensor dimension must be an integer or '?', found '4.5'");
	check_error("func @f(%x: tensor<4>) {\n}", 1, 21,
		    "expected 'x' after tensor dimension, found '>'");
	check_error("func @f(%x: f32) {\n  %a = add %x, 99999999999999999999 : f32\n}",
		    2, 16, "integer literal '99999999999999999999' out of range");
	check_error("func @f(%x: f32) {\n  %a = add %x, 1e999 : f32\n}", 2, 16,
		    "float literal '1e999' out of range");
	check_error("func @f(%x: f32) {\n  %a = fill 1.0 %x : f32\n}", 2, 17,
		    "expected 'into', found '%x'");
	check_error("func @f(%x: f32) {\n  %a = call @g(%x)\n}", 2, 13,
		    "unknown function @g");
	check_error("func @f(%x: f32) {\n  %a = call @g(%x)\n}\n"
		    "func @g(%a: f32, %b: f32) -> f32 {\n  return %a\n}",
		    2, 3, "call to @g expects 2 arguments, got 1");
	check_error("func @f(%x: f32) {\n  %a, %b = call @g(%x, %x)\n}\n"
		    "func @g(%a: f32, %b: f32) -> f32 {\n  return %a\n}",
		    2, 3, "call to @g returns 1 result, got 2");
	check_error("func @f(%x: tensor<4xf32>) {\n  %a = await %x\n}", 2, 14,
		    "await needs a future, got tensor<4xf32>");
	check_error("func @f() {\n  %t = async stream 0 -> (f32, f32) { }\n  %a = await %t\n}",
		    3, 3, "await of future<f32, f32> produces 2 results, got 1");
	check_error("func @f(%x: f32) {\n  %a, %b = add %x, 1 : f32\n}", 2, 3,
		    "'add' produces 1 result, got 2");
	check_error("func @f() {\n}\nfunc @f() {\n}", 3, 1,
		    "redefinition of function @f");
	check_error("%a", 1, 1, "expected 'func', found '%a'");
	check_error("func @f(%x: f32 {foo}) {}", 1, 18,
		    "expected 'readonly', found 'foo'");
	check_error("func @f() { %a = 3 }", 1, 18, "expected op name, found '3'");
	check_error("func @f(%x: f32) { %a = add %x : f32 }", 1, 32,
		    "expected ',', found ':'");
	check_error("func @f(%x: f32) { %a = add %x, 1 }", 1, 35,
		    "expected ':', found '}'");
	check_error("func @f(%x: f32) { %a = neg 1.0 : f32 }", 1, 29,
		    "expected value, found '1.0'");
	check_error("func @f(%x: tensor<4xf32>) { %a = extract_slice %x[0] [1, 2] [1] : tensor<1xf32> }",
		    1, 55, "slice has 1 offset but 2 sizes");
	check_error("func @f() { for %i = 0 to 3 iter(%a = %b) { } }", 1, 13,
		    "'for' has 1 iter arg but 0 result types");
	/* something missing at a line's end: reported just past its last token */
	check_error("func @f(%x: f32) -> f32 {\n  %y = add %x, 1 :\n  return %y\n}",
		    2, 19, "expected type, found 'return'");
	check_error("func @f(%x: f32) -> f32 {\n  %y = add %x,\n  return %y\n}",
		    2, 15, "expected value or literal, found 'return'");
	check_error("func @f(%x: f32) { %a = const 1 : future<> }", 1, 35,
		    "const needs a scalar or tensor type, got future<>");
}
END_TEST

/* Fail the Nth allocation for every N until parsing succeeds: each failure
 * is a clean "out of memory" and leaks nothing. */
START_TEST(test_alloc_failures)
{
	long base = mem_live_blocks();
	long n;

	for (n = 0;; n++) {
		Diag d;
		Program *p;
		mem_fail_after(n);
		p = tu_parse(all_ops, &d);
		mem_fail_after(-1);
		if (p) {
			prog_free(p);
			break;
		}
		ck_assert_str_eq(d.msg, "out of memory");
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(mem_live_blocks(), base);
}
END_TEST

/* The same with a program large enough to need several arena chunks, so
 * failures also hit the middle of parsing and the resolution pass. */
START_TEST(test_alloc_failures_big)
{
	long base = mem_live_blocks();
	size_t cap = 64 * 2000 + 200, n = 0;
	char *text = malloc(cap);
	long k;

	n += (size_t)fmt_snprintf(text + n, cap - n,
			      "func @f(%%v0: tensor<4xf32>) -> tensor<4xf32> {\n");
	for (int i = 1; i < 2000; i++)
		n += (size_t)fmt_snprintf(text + n, cap - n,
				      "  %%v%d = add %%v%d, 1.0 : tensor<4xf32>\n",
				      i, i - 1);
	fmt_snprintf(text + n, cap - n, "  return %%v1999\n}\n");
	for (k = 0;; k++) {
		Diag d;
		Program *p;
		mem_fail_after(k);
		p = tu_parse(text, &d);
		mem_fail_after(-1);
		if (p) {
			ck_assert_int_eq(p->nvalues, 2000);
			prog_free(p);
			break;
		}
		ck_assert_str_eq(d.msg, "out of memory");
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert_int_gt(k, 5);
	free(text);
}
END_TEST

/* A program whose values and ops arrays outgrow an arena chunk (they are
 * then reallocated, not copied): every value and op in its place, and
 * failing each allocation in turn (a reallocation too) leaks nothing. */
START_TEST(test_big_arrays)
{
	Str b = {0};
	char *text;
	long base, k;

	str_printf(&b, "func @f(%%v0: f32) -> f32 {\n");
	for (int i = 1; i < 6000; i++)
		str_printf(&b, "  %%v%d = add %%v%d, %%v%d : f32\n", i, i - 1,
			   i > 3 ? i - 3 : 0);
	str_printf(&b, "  return %%v5999\n}\n");
	text = str_take(&b);
	ck_assert_ptr_nonnull(text);
	base = mem_live_blocks();
	for (k = 0;; k++) {
		Diag d;
		Program *p;
		const Block *body;
		mem_fail_after(k);
		p = tu_parse(text, &d);
		mem_fail_after(-1);
		if (!p) {
			ck_assert_str_eq(d.msg, "out of memory");
			ck_assert_int_eq(mem_live_blocks(), base);
			continue;
		}
		body = p->funcs[0]->body;
		ck_assert_int_eq(p->nvalues, 6000);
		ck_assert_int_eq(body->nops, 6000);
		for (int i = 0; i < 6000; i++) {
			char name[16];
			fmt_snprintf(name, sizeof name, "v%d", i);
			ck_assert_int_eq(p->values[i]->id, i);
			ck_assert_str_eq(p->values[i]->name, name);
			ck_assert_int_eq(body->ops[i]->index, i);
			if (i + 1 < 6000) {
				const Op *op = body->ops[i];
				ck_assert_ptr_eq(op->res[0], p->values[i + 1]);
				ck_assert_ptr_eq(op->args[0].v, p->values[i]);
				ck_assert_ptr_eq(op->args[1].v,
						 p->values[i > 2 ? i - 2 : 0]);
			}
		}
		ck_assert_int_eq(p->values[5990]->nuses, 2);
		prog_free(p);
		break;
	}
	ck_assert_int_gt(k, 50);
	ck_assert_int_eq(mem_live_blocks(), base);
	mem_free(text);
}
END_TEST

/* arena_grow: a small block is copied (the old one abandoned), a big one
 * (a chunk of its own) reallocated; the bytes kept, the rest zeroed. */
START_TEST(test_arena_grow)
{
	Arena *a = arena_new();
	int *v = NULL, n = 0, cap = 0;
	int64_t held;
	char *s;

	ck_assert_ptr_nonnull(a);
	s = arena_alloc(a, 8);
	memcpy(s, "abcdefg", 8);
	s = arena_grow(a, s, 8, 100);
	ck_assert_str_eq(s, "abcdefg");
	for (int i = 8; i < 100; i++)
		ck_assert_int_eq(s[i], 0);
	for (int i = 0; i < 100000; i++)
		VEC_PUSH_OWN(a, v, n, cap, i);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(v[i], i);
	for (int i = n; i < cap; i++)
		ck_assert_int_eq(v[i], 0);
	/* the last array and a few chunks, not every array it outgrew */
	held = mem_held();
	arena_free(a);
	ck_assert_int_lt(held - mem_held(), (int64_t)cap * 4 + 4 * 65536);
}
END_TEST

static Suite *
parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("accept");

	tcase_add_test(tc, test_all_ops_accepted);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_implicit_return);
	tcase_add_test(tc, test_srcmap);
	tcase_add_test(tc, test_literals);
	tcase_add_test(tc, test_scoping_left_to_verifier);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_alloc_failures);
	tcase_add_test(tc, test_alloc_failures_big);
	tcase_add_test(tc, test_big_arrays);
	tcase_add_test(tc, test_arena_grow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){parse_suite(), NULL});
}
