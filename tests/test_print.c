/* test_print.c: canonical TIR text (interp/print.c) and the round trip
 * print(parse(print(p))) == print(p), parse(print(p)) == p. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* Programs already in canonical form: print(parse(text)) == text. */
static const char *canonical[] = {
	/* every op */
	"func @main(%x: tensor<3xi32>, %w: tensor<4xf32> {readonly}, %n: index) -> (tensor<3xi32>, f32) {\n"
	"  %c = const 10 : i32\n"
	"  %t = const true : i1\n"
	"  %d = const dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
	"  %s = const dense<0.5> : tensor<8xf32>\n"
	"  %e = empty : tensor<4xf32>\n"
	"  %e2 = empty(%n) : tensor<?xf32>\n"
	"  %y = add %x, 10 : tensor<3xi32>\n"
	"  %y2 = sub %x, %y into %x : tensor<3xi32>\n"
	"  %y3 = mul %w, %w : tensor<4xf32>\n"
	"  %y4 = div %w, 2.0 into %e : tensor<4xf32>\n"
	"  %y5 = max %w, %y3 : tensor<4xf32>\n"
	"  %y6 = min -1.5, %w : tensor<4xf32>\n"
	"  %u1 = neg %w : tensor<4xf32>\n"
	"  %u2 = abs %w into %e : tensor<4xf32>\n"
	"  %u3 = exp %w : tensor<4xf32>\n"
	"  %u4 = relu %w : tensor<4xf32>\n"
	"  %j = sub %n, 1 : index\n"
	"  %b0 = lt %j, %n : index\n"
	"  %b1 = le %j, 3 : index\n"
	"  %b2 = eq %j, %n : index\n"
	"  %b3 = ne %j, %n : index\n"
	"  %b4 = gt %j, %n : index\n"
	"  %b5 = ge %j, %n : index\n"
	"  %f = fill 1.5 into %e : tensor<4xf32>\n"
	"  %m = matmul %d, %d into %d : tensor<2x2xi32>\n"
	"  %tr = transpose %d [1, 0] into %d : tensor<2x2xi32>\n"
	"  %r = reduce.sum %d [1] into %x : tensor<2xi32>\n"
	"  %r2 = reduce.max %d [0, 1] into %c : i32\n"
	"  %sl = extract_slice %d[%j, 0] [1, 2] [1, 1] : tensor<1x2xi32>\n"
	"  %is = insert_slice %sl into %d[0, %j] [1, 2] [1, 1] : tensor<2x2xi32>\n"
	"  %v = extract %w[2] : f32\n"
	"  %ins = insert %v into %w[%j] : tensor<4xf32>\n"
	"  %cp = copy %w into %e : tensor<4xf32>\n"
	"  %cl = clone %w : tensor<4xf32>\n"
	"  %a0, %a1 = call @g(%x)\n"
	"  %i1 = if %b0 -> (f32) {\n"
	"    yield %v\n"
	"  } else {\n"
	"    %q = exp %v : f32\n"
	"    yield %q\n"
	"  }\n"
	"  %lp = for %i = 0 to %n step 1 iter(%acc = %x) -> (tensor<3xi32>) {\n"
	"    %acc2 = add %acc, %i : tensor<3xi32>\n"
	"    yield %acc2\n"
	"  }\n"
	"  %fu = async stream 1 -> (tensor<4xf32>, f32) {\n"
	"    yield %w, %v\n"
	"  }\n"
	"  %o0, %o1 = await %fu\n"
	"  return %lp, %o1\n"
	"}\n"
	"\n"
	"func @g(%a: tensor<3xi32>) -> (i32, tensor<?x8xf32>) {\n"
	"  %c = const 1 : index\n"
	"  %z = empty(%c) : tensor<?x8xf32>\n"
	"  %cc = const 2 : i32\n"
	"  return %cc, %z\n"
	"}\n",
	/* regions nested 3 deep, regions without results */
	"func @main(%x: tensor<4xf32>, %n: index, %c: i1) -> tensor<4xf32> {\n"
	"  %f = async stream 0 -> (tensor<4xf32>) {\n"
	"    %r = if %c -> (tensor<4xf32>) {\n"
	"      %l = for %i = 0 to %n step 2 iter(%a = %x) -> (tensor<4xf32>) {\n"
	"        %b = add %a, 1.0 : tensor<4xf32>\n"
	"        if %c {\n"
	"          %z = neg %b : tensor<4xf32>\n"
	"        }\n"
	"        yield %b\n"
	"      }\n"
	"      yield %l\n"
	"    } else {\n"
	"      yield %x\n"
	"    }\n"
	"    yield %r\n"
	"  }\n"
	"  %t = async stream 2 {\n"
	"    for %k = %n to 10 step %n {\n"
	"    }\n"
	"  }\n"
	"  await %t\n"
	"  %y = await %f\n"
	"  return %y\n"
	"}\n",
	/* forall: two shared outs, a nested one, dynamic bound, no inserts */
	"func @main(%x: tensor<4x2xf32>, %y: tensor<4xf32>, %n: index) -> (tensor<4x2xf32>, tensor<4xf32>) {\n"
	"  %p, %q = forall %i = 0 to %n shared(%a = %x, %b = %y) -> (tensor<4x2xf32>, tensor<4xf32>) {\n"
	"    %r = extract_slice %a[%i, 0] [1, 2] [1, 1] : tensor<1x2xf32>\n"
	"    %e = extract_slice %b[%i] [1] [1] : tensor<1xf32>\n"
	"    %w = forall %j = 1 to 3 shared(%c = %r) -> (tensor<1x2xf32>) {\n"
	"      forall %k = %j to 2 {\n"
	"      }\n"
	"      %z = extract_slice %c[0, %j] [1, 1] [1, 1] : tensor<1x1xf32>\n"
	"      parallel_insert_slice %z into %c[0, %j] [1, 1] [1, 1]\n"
	"    }\n"
	"    parallel_insert_slice %w into %a[%i, 0] [1, 2] [1, 1]\n"
	"    parallel_insert_slice %e into %b[%i] [1] [1]\n"
	"  }\n"
	"  return %p, %q\n"
	"}\n",
	/* floats */
	"func @main(%x: f64) -> f64 {\n"
	"  %a = add %x, 0.1 : f64\n"
	"  %b = add %a, 1e-07 : f64\n"
	"  %c = add %b, 0.3333333333333333 : f64\n"
	"  %d = add %c, 1.7976931348623157e+308 : f64\n"
	"  %e = add %d, -0.0 : f64\n"
	"  %f = add %e, nan : f64\n"
	"  %g = add %f, -inf : f64\n"
	"  %h = add %g, inf : f64\n"
	"  %i = add %h, 5e-324 : f64\n"
	"  %j = add %i, 100.0 : f64\n"
	"  %j2 = add %j, 123456789.0 : f64\n"
	"  %j3 = add %j2, 0.0001 : f64\n"
	"  %j4 = add %j3, 1e-05 : f64\n"
	"  %j5 = add %j4, 1e+16 : f64\n"
	"  %j6 = add %j5, 1234567890123456.0 : f64\n"
	"  %k = add %j6, 1e+22 : f64\n"
	"  %l = const dense<[0.1, -2.5, 3.0, 4e+100]> : tensor<4xf64>\n"
	"  %m = const 3.4028234663852886e+38 : f32\n"
	"  return %k\n"
	"}\n",
	/* splats, rank 0, i1 and integer constants */
	"func @main() -> (tensor<8xf32>, tensor<2x3xi32>, tensor<f32>, tensor<2xi1>, i64) {\n"
	"  %a = const dense<0.5> : tensor<8xf32>\n"
	"  %b = const dense<-7> : tensor<2x3xi32>\n"
	"  %c = const dense<2.0> : tensor<f32>\n"
	"  %d = const dense<[true, false]> : tensor<2xi1>\n"
	"  %e = const -9223372036854775808 : i64\n"
	"  %f = const dense<[[[1], [2]], [[3], [4]]]> : tensor<2x2x1xi64>\n"
	"  %g = const dense<[]> : tensor<0xf32>\n"
	"  return %a, %b, %c, %d, %e\n"
	"}\n",
	/* dynamic types */
	"func @main(%x: tensor<?x?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {\n"
	"  %e = empty(%n, %m) : tensor<?x?xf32>\n"
	"  %r = add %x, %e into %e : tensor<?x?xf32>\n"
	"  %s = extract_slice %r[%n, %m] [1, 1] [1, 1] : tensor<1x1xf32>\n"
	"  %t = insert_slice %s into %r[0, 0] [1, 1] [2, 3] : tensor<?x?xf32>\n"
	"  return %t\n"
	"}\n",
	/* readonly params, several functions, recursion, no-result functions */
	"func @main(%x: tensor<4xf32> {readonly}, %y: tensor<4xf32>, %z: f32 {readonly}) -> tensor<4xf32> {\n"
	"  %a = call @helper(%x, %y)\n"
	"  call @nothing()\n"
	"  return %a\n"
	"}\n"
	"\n"
	"func @helper(%p: tensor<4xf32> {readonly}, %q: tensor<4xf32>) -> tensor<4xf32> {\n"
	"  %r = add %p, %q into %q : tensor<4xf32>\n"
	"  %s = call @helper(%r, %q)\n"
	"  return %s\n"
	"}\n"
	"\n"
	"func @nothing() {\n"
	"  return\n"
	"}\n",
	/* futures as types, awaits of tokens, names with odd characters */
	"func @main(%f: future<tensor<4xf32>, f32>, %t: future<>) -> f32 {\n"
	"  %a.0, %b$1 = await %f\n"
	"  await %t\n"
		"  %c-2 = neg %b$1 : f32\n"
	"  return %c-2\n"
	"}\n",
	/* if without results, with an else; extract and insert of scalars */
	"func @main(%x: tensor<2x3xi64>, %c: i1, %i: index) -> tensor<2x3xi64> {\n"
	"  if %c {\n"
	"    %e = extract %x[%i, 2] : i64\n"
	"  } else {\n"
	"    %e2 = extract %x[0, 0] : i64\n"
	"  }\n"
	"  %r = insert 5 into %x[1, %i] : tensor<2x3xi64>\n"
	"  %r0 = insert -1 into %r[0, 0] : tensor<2x3xi64>\n"
	"  return %r0\n"
	"}\n",
	/* rank 0 tensors and reductions to them */
	"func @main(%x: tensor<3x4xf32>) -> tensor<f32> {\n"
	"  %z = const dense<0.0> : tensor<f32>\n"
	"  %s = reduce.sum %x [0, 1] into %z : tensor<f32>\n"
	"  %v = extract %s[] : f32\n"
	"  %t = transpose %z [] into %z : tensor<f32>\n"
	"  return %s\n"
	"}\n",
	/* an empty program */
	"",
};

/* Non-canonical text and its canonical form. */
static const char *const rewrites[][2] = {
	{"func @f(%x: tensor<2xi32>) -> tensor<2xi32> { %r = forall %i = 0 to 2 "
	 "shared(%o = %x) -> (tensor<2xi32>) { yield } return %r }",
	 "func @f(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
	 "  %r = forall %i = 0 to 2 shared(%o = %x) -> (tensor<2xi32>) {\n"
	 "  }\n  return %r\n}\n"},
	{"// comment\nfunc @f(%x:f32)->(f32){%y=neg %x:f32 // c\n return %y}",
	 "func @f(%x: f32) -> f32 {\n  %y = neg %x : f32\n  return %y\n}\n"},
	{"func @f(%c: i1) { if %c { yield } else { } for %i = 0 to 4 { yield } }",
	 "func @f(%c: i1) {\n  if %c {\n  } else {\n  }\n"
	 "  for %i = 0 to 4 step 1 {\n  }\n  return\n}\n"},
	{"func @f() -> () { %a = async { } %b = const 1e3 : f32 %c = const 2 : f64\n"
	 " %d = const dense<[1, 2]> : tensor<2xf32>  %e = const 5 : tensor<3xi32> return }",
	 "func @f() {\n  %a = async stream 0 {\n  }\n  %b = const 1000.0 : f32\n"
	 "  %c = const 2.0 : f64\n  %d = const dense<[1.0, 2.0]> : tensor<2xf32>\n"
	 "  %e = const dense<5> : tensor<3xi32>\n  return\n}\n"},
	{"func @f(%n: index) -> index { %r = for %i = 0 to %n iter(%a = %n) -> index { yield %i } return %r }",
	 "func @f(%n: index) -> index {\n"
	 "  %r = for %i = 0 to %n step 1 iter(%a = %n) -> (index) {\n"
	 "    yield %i\n  }\n  return %r\n}\n"},
};

/* print(text) once, then check the round trip; returns the first print. */
static char *
round_trip(const char *text)
{
	Diag d;
	Program *p = tu_parse(text, &d), *q;
	char *s1, *s2, why[256];

	ck_assert_msg(p != NULL, "%d:%d: %s\n%s", d.loc.line, d.loc.col,
		      d.msg, text);
	s1 = tir_print(p);
	ck_assert_ptr_nonnull(s1);
	q = tu_parse(s1, &d);
	ck_assert_msg(q != NULL, "reparse: %d:%d: %s\n%s", d.loc.line,
		      d.loc.col, d.msg, s1);
	s2 = tir_print(q);
	ck_assert_str_eq(s1, s2);
	ck_assert_msg(!prog_diff(p, q, false, why, sizeof why),
		      "not the same program: %s\n%s", why, s1);
	mem_free(s2);
	prog_free(p);
	prog_free(q);
	return s1;
}

START_TEST(test_canonical)
{
	char *s = round_trip(canonical[_i]);

	ck_assert_str_eq(s, canonical[_i]);
	mem_free(s);
}
END_TEST

START_TEST(test_rewrites)
{
	char *s = round_trip(rewrites[_i][0]);

	ck_assert_str_eq(s, rewrites[_i][1]);
	mem_free(s);
}
END_TEST

START_TEST(test_type_str)
{
	Diag d;
	Program *p = tu_parse("func @f(%a: tensor<?x8x1xindex>, %b: future<tensor<f32>, i1>, %c: future<>) {\n}", &d);
	Func *f;
	char buf[64], small[8];

	ck_assert_ptr_nonnull(p);
	f = p->funcs[0];
	ck_assert_str_eq(type_str(f->params[0]->type, buf, sizeof buf),
			 "tensor<?x8x1xindex>");
	ck_assert_str_eq(type_str(f->params[1]->type, buf, sizeof buf),
			 "future<tensor<f32>, i1>");
	ck_assert_str_eq(type_str(f->params[2]->type, buf, sizeof buf),
			 "future<>");
	ck_assert_str_eq(type_str(f->params[0]->type, small, sizeof small),
			 "tensor<");
	prog_free(p);
}
END_TEST

/* Floats print short, read back exactly, and always look like floats. */
START_TEST(test_float_spelling)
{
	static const double vals[] = {1.0, -2.0, 0.1, 1e300, 1e-300,
				      123456789.0, 0.5, 1e16, 3.0e-5};
	char text[256];

	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		Diag d;
		Program *p;
		char *s;
		fmt_snprintf(text, sizeof text,
			 "func @f() {\n  %%a = const %.17g : f64\n}\n", vals[i]);
		p = tu_parse(text, &d);
		if (!p) { /* %.17g of an integral value has no '.' */
			fmt_snprintf(text, sizeof text,
				 "func @f() {\n  %%a = const %.17e : f64\n}\n",
				 vals[i]);
			p = tu_parse(text, &d);
		}
		ck_assert_ptr_nonnull(p);
		s = tir_print(p);
		ck_assert_ptr_nonnull(s);
		ck_assert_msg(strpbrk(strstr(s, "const ") + 6, ".e") != NULL,
			      "%s", s);
		prog_free(p);
		p = tu_parse(s, &d);
		ck_assert_ptr_nonnull(p);
		ck_assert(p->funcs[0]->body->ops[0]->cdata.f[0] == vals[i]);
		prog_free(p);
		mem_free(s);
	}
}
END_TEST

START_TEST(test_print_oom)
{
	Diag d;
	Program *p = tu_parse(canonical[0], &d);
	long base;
	char *s = NULL;

	ck_assert_ptr_nonnull(p);
	base = mem_live_blocks();
	for (long n = 0; !s; n++) {
		mem_fail_after(n);
		s = tir_print(p);
		mem_fail_after(-1);
		if (!s)
			ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert_str_eq(s, canonical[0]);
	mem_free(s);
	prog_free(p);
}
END_TEST

/* prog_diff tells programs apart by any one field, names the first
 * difference, and compares locations only when asked. */
START_TEST(test_prog_diff)
{
	static const char *const base =
		"func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
		"  %y = add %x, 1.5 : tensor<4xf32>\n"
		"  %r = for %i = 0 to %n step 1 iter(%a = %y) -> (tensor<4xf32>) {\n"
		"    %b = mul %a, %y : tensor<4xf32>\n"
		"    yield %b\n"
		"  }\n"
		"  return %r\n"
		"}\n";
	static const struct {
		const char *from, *to, *says;
	} edits[] = {
		{"1.5", "2.5", "literal differs"},
		{"1.5", "-0.0", "literal differs"},
		{"%x: tensor<4xf32>,", "%x: tensor<4xf32> {readonly},",
		 "value's definition or uses differs"},
		{"%b = mul", "%b = add", "op kind differs"},
		{"mul %a, %y", "mul %y, %a", "value used differs"},
		/* (%x is met first: one use more) */
		{"mul %a, %y", "mul %a, %x", "value's definition or uses differs (x)"},
		{"step 1", "step 2", "literal differs"},
		{"%b = mul", "%c = mul", "value id or name differs"},
		{"  return %r\n", "  %z = neg %r : tensor<4xf32>\n  return %z\n",
		 "counts differ"},
	};
	char why[256], text[1024];
	Diag d;
	Program *p = tu_parse(base, &d), *q;

	ck_assert_ptr_nonnull(p);
	for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
		const char *at = strstr(base, edits[k].from);
		ck_assert_ptr_nonnull(at);
		fmt_snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base),
			     base, edits[k].to, at + strlen(edits[k].from));
		/* the same names where an edit renames: %b -> %c */
		char *y = strstr(edits[k].to, "%c = ") ? strstr(text, "yield %b")
						       : NULL;
		if (y)
			y[7] = 'c';
		q = tu_parse(text, &d);
		ck_assert_msg(q != NULL, "%s: %s", text, d.msg);
		ck_assert_msg(prog_diff(p, q, false, why, sizeof why) != NULL,
			      "the same: %s", text);
		ck_assert_msg(strstr(why, edits[k].says), "%s: %s", text, why);
		prog_free(q);
	}
	/* a blank line more: the same program, not the same places */
	fmt_snprintf(text, sizeof text, "\n%s", base);
	q = tu_parse(text, &d);
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_null(prog_diff(p, q, false, why, sizeof why));
	ck_assert_ptr_nonnull(prog_diff(p, q, true, why, sizeof why));
	ck_assert_msg(strstr(why, "location differs"), "%s", why);
	prog_free(q);
	prog_free(p);

	/* a while's do region shares its condition region's arguments: one
	 * whose owner moved is told, not passed as the same */
	{
		static const char *const w =
			"func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
			"  %r = while iter(%a = %x) -> (tensor<3xf32>) {\n"
			"    %e = extract %a[0] : f32\n"
			"    %c = gt %e, 100.0 : f32\n"
			"    condition %c\n"
			"  } do {\n"
			"    %a2 = mul %a, 2.0 : tensor<3xf32>\n"
			"    yield %a2\n"
			"  }\n"
			"  return %r\n"
			"}\n";
		Op *op;

		p = tu_parse(w, &d);
		q = tu_parse(w, &d);
		ck_assert(p && q);
		ck_assert_ptr_null(prog_diff(p, q, true, why, sizeof why));
		op = q->funcs[0]->body->ops[0];
		ck_assert_int_eq(op->kind, OP_WHILE);
		op->body->args[0]->owner = op->orelse;
		ck_assert_ptr_nonnull(prog_diff(p, q, false, why, sizeof why));
		ck_assert_msg(strstr(why, "block argument's owner"), "%s", why);
		prog_free(q);
		prog_free(p);
	}
}
END_TEST

static Suite *
print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("round-trip");

	tcase_add_loop_test(tc, test_canonical, 0,
			    sizeof canonical / sizeof canonical[0]);
	tcase_add_loop_test(tc, test_rewrites, 0,
			    sizeof rewrites / sizeof rewrites[0]);
	tcase_add_test(tc, test_type_str);
	tcase_add_test(tc, test_float_spelling);
	tcase_add_test(tc, test_print_oom);
	tcase_add_test(tc, test_prog_diff);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){print_suite(), NULL});
}
