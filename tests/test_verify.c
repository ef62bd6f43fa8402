/* test_verify.c: tir_verify, one test per rule, plus valid programs. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* Parse (must succeed) and verify; the Diag of the verifier in *d. */
static int
verify_text(const char *text, Diag *d)
{
	Diag pd = {{0, 0}, ""};
	Program *p = tu_parse(text, &pd);
	int rc;

	ck_assert_msg(p != NULL, "parse failed at %d:%d: %s", pd.loc.line,
		      pd.loc.col, pd.msg);
	rc = tir_verify(p, &default_limits, d);
	prog_free(p);
	return rc;
}

static void
expect_ok(const char *text)
{
	Diag d = {{0, 0}, ""};

	ck_assert_msg(verify_text(text, &d) == 0, "unexpected %d:%d: %s",
		      d.loc.line, d.loc.col, d.msg);
}

static void
expect_err(const char *text, int line, int col, const char *msg)
{
	Diag d = {{0, 0}, ""};

	ck_assert_int_eq(verify_text(text, &d), -1);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
}

/* ------------------------------------------------------------ valid */

START_TEST(ok_elementwise)
{
	expect_ok("func @main(%x: tensor<3xi32>, %s: i32) -> (tensor<3xi32>, i1) {\n"
		  "  %y = add %x, 10 : tensor<3xi32>\n"
		  "  %z = mul %s, %y : tensor<3xi32>\n"
		  "  %d = empty : tensor<3xi32>\n"
		  "  %w = sub %z, %x into %d : tensor<3xi32>\n"
		  "  %n = neg %w : tensor<3xi32>\n"
		  "  %a = abs %n into %d : tensor<3xi32>\n"
		  "  %r = relu %a : tensor<3xi32>\n"
		  "  %t = add %s, -1 : i32\n"
		  "  %c = lt %t, 4 : i32\n"
		  "  %m = max %r, %t : tensor<3xi32>\n"
		  "  return %m, %c\n"
		  "}\n");
}
END_TEST

START_TEST(ok_tensor_ops)
{
	expect_ok("func @main(%a: tensor<2x3xf32> {readonly}, %b: tensor<3x4xf32>, %i: index) -> (tensor<2x4xf32>, f32) {\n"
		  "  %e = exp %a : tensor<2x3xf32>\n"
		  "  %c0 = const dense<0.0> : tensor<2x4xf32>\n"
		  "  %m = matmul %e, %b into %c0 : tensor<2x4xf32>\n"
		  "  %d = empty : tensor<4x2xf32>\n"
		  "  %t = transpose %m [1, 0] into %d : tensor<4x2xf32>\n"
		  "  %z = const dense<[1.0, 2.0]> : tensor<2xf32>\n"
		  "  %s = reduce.sum %m [1] into %z : tensor<2xf32>\n"
		  "  %zz = const dense<0.0> : tensor<f32>\n"
		  "  %all = reduce.max %m [0, 1] into %zz : tensor<f32>\n"
		  "  %sl = extract_slice %m[%i, 1] [1, 2] [1, 2] : tensor<1x2xf32>\n"
		  "  %f = fill 0.5 into %sl : tensor<1x2xf32>\n"
		  "  %ins = insert_slice %f into %m[1, 0] [1, 2] [1, 3] : tensor<2x4xf32>\n"
		  "  %v = extract %ins[%i, 3] : f32\n"
		  "  %ins2 = insert %v into %ins[0, 0] : tensor<2x4xf32>\n"
		  "  %cp = copy %ins2 into %c0 : tensor<2x4xf32>\n"
		  "  %cl = clone %cp : tensor<2x4xf32>\n"
		  "  %k = const 3 : i32\n"
		  "  %tr = const true : i1\n"
		  "  %ci = const dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
		  "  return %cl, %v\n"
		  "}\n");
}
END_TEST

START_TEST(ok_regions)
{
	expect_ok("func @main(%x: tensor<4xf32>, %n: index, %c: i1) -> tensor<4xf32> {\n"
		  "  %r = for %i = 0 to %n step 2 iter(%acc = %x) -> (tensor<4xf32>) {\n"
		  "    %one = const 1.0 : f32\n"
		  "    %q = if %c -> (tensor<4xf32>) {\n"
		  "      %a = add %acc, %one : tensor<4xf32>\n"
		  "      yield %a\n"
		  "    } else {\n"
		  "      yield %x\n"
		  "    }\n"
		  "    %j = add %i, 1 : index\n"
		  "    %v = extract %q[%j] : f32\n"
		  "    %u = insert %v into %q[0] : tensor<4xf32>\n"
		  "    yield %u\n"
		  "  }\n"
		  "  if %c {\n"
		  "    %w = add %r, 1.0 : tensor<4xf32>\n"
		  "  }\n"
		  "  for %k = %n to 10 {\n"
		  "  }\n"
		  "  return %r\n"
		  "}\n");
}
END_TEST

START_TEST(ok_calls_async)
{
	expect_ok("func @main(%x: tensor<4xf32>) -> tensor<?xf32> {\n"
		  "  %f = async stream 1 -> (tensor<?xf32>, f32) {\n"
		  "    %y = call @g(%x)\n"
		  "    %s = const 2.0 : f32\n"
		  "    yield %y, %s\n"
		  "  }\n"
		  "  %t = async stream 0 {\n"
		  "  }\n"
		  "  %a, %b = await %f\n"
		  "  await %t\n"
		  "  %c, %d = await %f\n"
		  "  %r = mul %a, %d : tensor<?xf32>\n"
		  "  return %r\n"
		  "}\n"
		  "func @g(%v: tensor<?xf32> {readonly}) -> tensor<?xf32> {\n"
		  "  %n = const 0 : index\n"
		  "  %e = empty(%n) : tensor<?xf32>\n"
		  "  call @h()\n"
		  "  return %v\n"
		  "}\n"
		  "func @h() {\n"
		  "}\n");
}
END_TEST

/* ------------------------------------------------- dominance, scoping */

START_TEST(use_before_def)
{
	expect_err("func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		   "  %y = add %z, 1 : tensor<3xi32>\n"
		   "  %z = add %x, 1 : tensor<3xi32>\n"
		   "  return %y\n"
		   "}\n",
		   2, 12, "use of %z before its definition");
}
END_TEST

START_TEST(use_in_own_region)
{
	expect_err("func @main(%c: i1, %x: i32) -> i32 {\n"
		   "  %r = if %c -> (i32) {\n"
		   "    yield %r\n"
		   "  } else {\n"
		   "    yield %x\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   3, 11, "use of %r before its definition");
}
END_TEST

START_TEST(not_visible_after_region)
{
	expect_err("func @main(%n: index) -> index {\n"
		   "  for %i = 0 to %n {\n"
		   "    %a = add %i, 1 : index\n"
		   "  }\n"
		   "  %b = add %a, 1 : index\n"
		   "  return %b\n"
		   "}\n",
		   5, 12, "%a is not visible here");
}
END_TEST

START_TEST(block_arg_outside_region)
{
	expect_err("func @main(%n: index) -> index {\n"
		   "  for %i = 0 to %n {\n"
		   "  }\n"
		   "  return %i\n"
		   "}\n",
		   4, 10, "%i is not visible here");
}
END_TEST

START_TEST(sibling_region)
{
	expect_err("func @main(%c: i1) -> i32 {\n"
		   "  %r = if %c -> (i32) {\n"
		   "    %a = const 1 : i32\n"
		   "    yield %a\n"
		   "  } else {\n"
		   "    yield %a\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   6, 11, "%a is not visible here");
}
END_TEST

/* ------------------------------------------------------- terminators */

START_TEST(missing_yield)
{
	expect_err("func @main(%c: i1, %x: i32) -> i32 {\n"
		   "  %r = if %c -> (i32) {\n"
		   "    %a = add %x, 1 : i32\n"
		   "  } else {\n"
		   "    yield %x\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   2, 3, "missing yield at the end of the if region");
}
END_TEST

START_TEST(return_in_region)
{
	expect_err("func @main(%c: i1) {\n"
		   "  if %c {\n"
		   "    return\n"
		   "  }\n"
		   "  return\n"
		   "}\n",
		   3, 5, "return is only allowed at the end of a function body");
}
END_TEST

START_TEST(return_not_last)
{
	expect_err("func @main(%x: i32) -> i32 {\n"
		   "  return %x\n"
		   "  %y = add %x, 1 : i32\n"
		   "  return %y\n"
		   "}\n",
		   2, 3, "return is only allowed at the end of a function body");
}
END_TEST

START_TEST(yield_in_body)
{
	expect_err("func @main() {\n"
		   "  yield\n"
		   "}\n",
		   2, 3, "yield is only allowed at the end of a region");
}
END_TEST

START_TEST(return_arity)
{
	expect_err("func @main(%x: i32) -> (i32, i32) {\n"
		   "  return %x\n"
		   "}\n",
		   2, 3, "return expects 2 values, got 1");
}
END_TEST

START_TEST(return_type)
{
	expect_err("func @main(%x: tensor<3xi32>) -> (i32, tensor<4xi32>) {\n"
		   "  %c = const 1 : i32\n"
		   "  return %c, %x\n"
		   "}\n",
		   3, 14,
		   "return value 1 has type tensor<3xi32>, expected tensor<4xi32>");
}
END_TEST

START_TEST(yield_type)
{
	expect_err("func @main(%c: i1, %x: i32, %y: f32) -> i32 {\n"
		   "  %r = if %c -> (i32) {\n"
		   "    yield %x\n"
		   "  } else {\n"
		   "    yield %y\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   5, 11, "yield value 0 has type f32, expected i32");
}
END_TEST

START_TEST(yield_arity)
{
	expect_err("func @main(%x: i32) -> i32 {\n"
		   "  %r = for %i = 0 to 4 iter(%a = %x) -> (i32) {\n"
		   "    yield %a, %a\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   3, 5, "yield expects 1 value, got 2");
}
END_TEST

/* ------------------------------------------------------ types, shapes */

START_TEST(binary_operand_type)
{
	expect_err("func @main(%x: tensor<3xi32>, %y: tensor<4xi32>) -> tensor<3xi32> {\n"
		   "  %z = add %x, %y : tensor<3xi32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 16,
		   "%y has type tensor<4xi32>, expected tensor<3xi32> or i32");
}
END_TEST

START_TEST(binary_needs_tensor_operand)
{
	expect_err("func @main(%s: f32) -> tensor<3xf32> {\n"
		   "  %z = add %s, 1.0 : tensor<3xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 3, "add needs at least one operand of type tensor<3xf32>");
}
END_TEST

START_TEST(float_literal_int_dtype)
{
	expect_err("func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		   "  %z = add %x, 0.5 : tensor<3xi32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 16, "float literal 0.5 for integer dtype i32");
}
END_TEST

START_TEST(literal_range)
{
	expect_err("func @main(%x: i1) -> i1 {\n"
		   "  %z = add %x, 2 : i1\n"
		   "  return %z\n"
		   "}\n",
		   2, 16, "integer literal 2 out of range for i1");
}
END_TEST

START_TEST(binary_dest_type)
{
	expect_err("func @main(%x: tensor<3xi32>, %d: tensor<3xf32>) -> tensor<3xi32> {\n"
		   "  %z = add %x, 1 into %d : tensor<3xi32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 23, "%d has type tensor<3xf32>, expected tensor<3xi32>");
}
END_TEST

START_TEST(exp_needs_float)
{
	expect_err("func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		   "  %z = exp %x : tensor<3xi32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 17, "exp needs a float dtype, got tensor<3xi32>");
}
END_TEST

START_TEST(unary_type)
{
	expect_err("func @main(%x: tensor<3xf32>) -> tensor<4xf32> {\n"
		   "  %z = neg %x : tensor<4xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 12, "%x has type tensor<3xf32>, expected tensor<4xf32>");
}
END_TEST

START_TEST(cmp_scalars)
{
	expect_err("func @main(%x: tensor<3xf32>) -> i1 {\n"
		   "  %c = lt %x, %x : tensor<3xf32>\n"
		   "  return %c\n"
		   "}\n",
		   2, 20, "lt compares scalars, got tensor<3xf32>");
}
END_TEST

START_TEST(cmp_operand)
{
	expect_err("func @main(%i: index, %n: i32) -> i1 {\n"
		   "  %c = lt %i, %n : index\n"
		   "  return %c\n"
		   "}\n",
		   2, 15, "%n has type i32, expected index");
}
END_TEST

START_TEST(fill_value)
{
	expect_err("func @main(%d: tensor<3xf32>, %v: f64) -> tensor<3xf32> {\n"
		   "  %z = fill %v into %d : tensor<3xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 13, "%v has type f64, expected f32");
}
END_TEST

START_TEST(matmul_inner)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, %c: tensor<2x5xf32>) -> tensor<2x5xf32> {\n"
		   "  %z = matmul %a, %b into %c : tensor<2x5xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 19,
		   "matmul of tensor<2x3xf32> and tensor<4x5xf32>: %b does not match %a");
}
END_TEST

START_TEST(matmul_result)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
		   "  %z = matmul %a, %b into %c : tensor<2x4xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 32,
		   "matmul gives tensor<2x5xf32>, not tensor<2x4xf32>");
}
END_TEST

START_TEST(matmul_rank)
{
	expect_err("func @main(%a: tensor<3xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
		   "  %z = matmul %a, %a into %c : tensor<2x4xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 15,
		   "matmul needs rank-2 tensors, %a has type tensor<3xf32>");
}
END_TEST

START_TEST(transpose_perm)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %d: tensor<3x2xf32>) -> tensor<3x2xf32> {\n"
		   "  %z = transpose %a [1, 1] into %d : tensor<3x2xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 3,
		   "transpose [1, 1] is not a permutation of the 2 dims of tensor<2x3xf32>");
}
END_TEST

START_TEST(transpose_result)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %d: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
		   "  %z = transpose %a [1, 0] into %d : tensor<2x3xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 38,
		   "transpose of tensor<2x3xf32> by [1, 0] gives tensor<3x2xf32>, not tensor<2x3xf32>");
}
END_TEST

START_TEST(reduce_dims)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %d: tensor<f32>) -> tensor<f32> {\n"
		   "  %z = reduce.sum %a [1, 0] into %d : tensor<f32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 3,
		   "reduce.sum dims [1, 0] must be distinct, ascending and below the rank 2 of tensor<2x3xf32>");
}
END_TEST

START_TEST(reduce_result)
{
	expect_err("func @main(%a: tensor<2x3xf32>, %d: tensor<3xf32>) -> tensor<3xf32> {\n"
		   "  %z = reduce.max %a [1] into %d : tensor<3xf32>\n"
		   "  return %z\n"
		   "}\n",
		   2, 36,
		   "reduce.max of tensor<2x3xf32> over [1] gives tensor<2xf32>, not tensor<3xf32>");
}
END_TEST

START_TEST(slice_offsets_count)
{
	expect_err("func @main(%a: tensor<4x8xf32>) -> tensor<2x4xf32> {\n"
		   "  %s = extract_slice %a[0] [2] [1] : tensor<2x4xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 3, "extract_slice needs 2 offsets for tensor<4x8xf32>, got 1");
}
END_TEST

START_TEST(slice_static_bounds)
{
	expect_err("func @main(%a: tensor<4x8xf32>) -> tensor<2x4xf32> {\n"
		   "  %s = extract_slice %a[0, 5] [2, 4] [1, 1] : tensor<2x4xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 28,
		   "slice of dim 1 is out of bounds: offset 5, size 4, stride 1 in a dim of 8");
}
END_TEST

START_TEST(slice_strided_bounds)
{
	/* 0 + (3-1)*2 = 4 is outside a dim of 4 */
	expect_err("func @main(%a: tensor<4xf32>) -> tensor<3xf32> {\n"
		   "  %s = extract_slice %a[0] [3] [2] : tensor<3xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 25,
		   "slice of dim 0 is out of bounds: offset 0, size 3, stride 2 in a dim of 4");
}
END_TEST

START_TEST(slice_dynamic_bounds)
{
	expect_err("func @main(%a: tensor<4xf32>, %i: index) -> tensor<5xf32> {\n"
		   "  %s = extract_slice %a[%i] [5] [1] : tensor<5xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 25,
		   "slice of dim 0 is out of bounds: size 5, stride 1 in a dim of 4");
}
END_TEST

START_TEST(slice_stride)
{
	expect_err("func @main(%a: tensor<4xf32>) -> tensor<2xf32> {\n"
		   "  %s = extract_slice %a[0] [2] [0] : tensor<2xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 3, "extract_slice stride 0 of dim 0 must be at least 1");
}
END_TEST

START_TEST(slice_result)
{
	expect_err("func @main(%a: tensor<4x8xf32>) -> tensor<4x2xf32> {\n"
		   "  %s = extract_slice %a[0, 0] [2, 4] [1, 1] : tensor<4x2xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 47, "extract_slice gives tensor<2x4xf32>, not tensor<4x2xf32>");
}
END_TEST

START_TEST(slice_offset_type)
{
	expect_err("func @main(%a: tensor<4xf32>, %i: i32) -> tensor<2xf32> {\n"
		   "  %s = extract_slice %a[%i] [2] [1] : tensor<2xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 25, "%i has type i32, expected index");
}
END_TEST

START_TEST(insert_slice_source)
{
	expect_err("func @main(%s: tensor<3xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {\n"
		   "  %r = insert_slice %s into %d[0] [2] [1] : tensor<8xf32>\n"
		   "  return %r\n"
		   "}\n",
		   2, 21, "%s has type tensor<3xf32>, expected tensor<2xf32>");
}
END_TEST

START_TEST(insert_slice_bounds)
{
	expect_err("func @main(%s: tensor<2xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {\n"
		   "  %r = insert_slice %s into %d[7] [2] [1] : tensor<8xf32>\n"
		   "  return %r\n"
		   "}\n",
		   2, 32,
		   "slice of dim 0 is out of bounds: offset 7, size 2, stride 1 in a dim of 8");
}
END_TEST

START_TEST(extract_indices)
{
	expect_err("func @main(%a: tensor<4x8xf32>) -> f32 {\n"
		   "  %v = extract %a[1] : f32\n"
		   "  return %v\n"
		   "}\n",
		   2, 3, "extract needs 2 indices for tensor<4x8xf32>, got 1");
}
END_TEST

START_TEST(extract_bounds)
{
	expect_err("func @main(%a: tensor<4x8xf32>) -> f32 {\n"
		   "  %v = extract %a[1, 8] : f32\n"
		   "  return %v\n"
		   "}\n",
		   2, 22, "index 8 is out of bounds for dim 1 of tensor<4x8xf32>");
}
END_TEST

START_TEST(extract_result)
{
	expect_err("func @main(%a: tensor<4xf32>) -> f64 {\n"
		   "  %v = extract %a[1] : f64\n"
		   "  return %v\n"
		   "}\n",
		   2, 24, "extract gives f32, not f64");
}
END_TEST

START_TEST(insert_indices)
{
	expect_err("func @main(%a: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {\n"
		   "  %r = insert %v into %a[0, 1, 2] : tensor<4x8xf32>\n"
		   "  return %r\n"
		   "}\n",
		   2, 3, "insert needs 2 indices for tensor<4x8xf32>, got 3");
}
END_TEST

START_TEST(insert_value)
{
	expect_err("func @main(%a: tensor<4xi32>) -> tensor<4xi32> {\n"
		   "  %r = insert 1.5 into %a[0] : tensor<4xi32>\n"
		   "  return %r\n"
		   "}\n",
		   2, 15, "float literal 1.5 for integer dtype i32");
}
END_TEST

START_TEST(copy_clone_type)
{
	expect_err("func @main(%a: tensor<4xf32>, %d: tensor<4xf32>) -> tensor<4xf32> {\n"
		   "  %r = copy %a into %d : tensor<4xf32>\n"
		   "  %c = clone %r : tensor<4xf64>\n"
		   "  return %r\n"
		   "}\n",
		   3, 14, "%r has type tensor<4xf32>, expected tensor<4xf64>");
}
END_TEST

START_TEST(empty_dyn_count)
{
	expect_err("func @main(%n: index) -> tensor<?x?xf32> {\n"
		   "  %e = empty(%n) : tensor<?x?xf32>\n"
		   "  return %e\n"
		   "}\n",
		   2, 3, "empty needs 2 dynamic sizes for tensor<?x?xf32>, got 1");
}
END_TEST

START_TEST(empty_dim_type)
{
	expect_err("func @main(%n: i32) -> tensor<?xf32> {\n"
		   "  %e = empty(%n) : tensor<?xf32>\n"
		   "  return %e\n"
		   "}\n",
		   2, 14, "%n has type i32, expected index");
}
END_TEST

START_TEST(const_static)
{
	expect_err("func @main() -> tensor<?xi32> {\n"
		   "  %c = const dense<[1, 2]> : tensor<?xi32>\n"
		   "  return %c\n"
		   "}\n",
		   2, 30, "const needs a scalar or static tensor type, got tensor<?xi32>");
}
END_TEST

START_TEST(if_cond)
{
	expect_err("func @main(%c: i32) {\n"
		   "  if %c {\n"
		   "  }\n"
		   "  return\n"
		   "}\n",
		   2, 6, "%c has type i32, expected i1");
}
END_TEST

START_TEST(for_bound)
{
	expect_err("func @main(%n: i32) {\n"
		   "  for %i = 0 to %n {\n"
		   "  }\n"
		   "  return\n"
		   "}\n",
		   2, 17, "%n has type i32, expected index");
}
END_TEST

START_TEST(for_step)
{
	expect_err("func @main() {\n"
		   "  for %i = 0 to 4 step 0 {\n"
		   "  }\n"
		   "  return\n"
		   "}\n",
		   2, 24, "for step must be positive, got 0");
}
END_TEST

START_TEST(for_init)
{
	expect_err("func @main(%x: f32) -> i32 {\n"
		   "  %r = for %i = 0 to 4 iter(%a = %x) -> (i32) {\n"
		   "    yield %a\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   2, 34, "%x has type f32, expected i32");
}
END_TEST

START_TEST(call_arg)
{
	expect_err("func @main(%x: tensor<3xf32>) -> tensor<4xf32> {\n"
		   "  %y = call @g(%x)\n"
		   "  return %y\n"
		   "}\n"
		   "func @g(%v: tensor<4xf32>) -> tensor<4xf32> {\n"
		   "  return %v\n"
		   "}\n",
		   2, 16,
		   "%x has type tensor<3xf32>, expected tensor<4xf32> (parameter %v of @g)");
}
END_TEST

START_TEST(call_dynamic_param)
{
	/* static for `?` is fine; `?` for static is not */
	expect_ok("func @main(%x: tensor<3x4xf32>) -> tensor<?x4xf32> {\n"
		  "  %y = call @g(%x)\n"
		  "  return %y\n"
		  "}\n"
		  "func @g(%v: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
		  "  return %v\n"
		  "}\n");
	expect_err("func @main(%x: tensor<?x4xf32>) -> tensor<3x4xf32> {\n"
		   "  %y = call @g(%x)\n"
		   "  return %y\n"
		   "}\n"
		   "func @g(%v: tensor<3x4xf32>) -> tensor<3x4xf32> {\n"
		   "  return %v\n"
		   "}\n",
		   2, 16,
		   "%x has type tensor<?x4xf32>, expected tensor<3x4xf32> (parameter %v of @g)");
}
END_TEST

START_TEST(missing_return)
{
	expect_err("func @main(%x: i32) -> i32 {\n"
		   "  %y = add %x, 1 : i32\n"
		   "}\n",
		   1, 1, "missing return at the end of @main");
}
END_TEST

START_TEST(if_needs_else)
{
	expect_err("func @main(%c: i1, %x: i32) -> i32 {\n"
		   "  %r = if %c -> (i32) {\n"
		   "    yield %x\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   2, 3, "if with results needs an else region");
}
END_TEST

START_TEST(first_error_wins)
{
	/* three errors: the first in source order is reported */
	expect_err("func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		   "  %a = neg %x : tensor<3xf32>\n"
		   "  %b = exp %a : tensor<4xi32>\n"
		   "  return %b\n"
		   "}\n"
		   "func @g(%f: future<>) {\n"
		   "}\n",
		   2, 12, "%x has type tensor<4xf32>, expected tensor<3xf32>");
}
END_TEST

START_TEST(slice_size_offset_sign)
{
	expect_err("func @main(%a: tensor<4xf32>) -> tensor<2xf32> {\n"
		   "  %s = extract_slice %a[0] [-2] [1] : tensor<2xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 3, "extract_slice size -2 of dim 0 is negative");
	expect_err("func @main(%a: tensor<4xf32>) -> tensor<2xf32> {\n"
		   "  %s = extract_slice %a[-1] [2] [1] : tensor<2xf32>\n"
		   "  return %s\n"
		   "}\n",
		   2, 25, "offset -1 is negative");
}
END_TEST

START_TEST(limit_region_result)
{
	expect_err("func @main() {\n"
		   "  %f = async stream 0 -> (tensor<67108865xi1>) {\n"
		   "    %e = empty : tensor<67108865xi1>\n"
		   "    yield %e\n"
		   "  }\n"
		   "  return\n"
		   "}\n",
		   2, 27,
		   "tensor<67108865xi1> has 67108865 elements, over the limit of 67108864");
}
END_TEST

/* ----------------------------------------------------------- futures */

static const char *const fut_head =
	"func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
	"  %f = async stream 0 -> (tensor<4xf32>) {\n"
	"    yield %x\n"
	"  }\n";

static void
expect_future_err(const char *tail, int line, int col)
{
	char text[1024];

	fmt_snprintf(text, sizeof text, "%s%s", fut_head, tail);
	expect_err(text, line, col, "future %f may only be used by await, "
		   "a for's iter arg or yield, or a branch");
}

START_TEST(future_in_call)
{
	expect_future_err("  call @g(%f)\n"
			  "  return %x\n"
			  "}\n"
			  "func @g(%v: tensor<4xf32>) {\n"
			  "  return\n"
			  "}\n",
			  5, 11);
}
END_TEST

START_TEST(future_returned)
{
	expect_future_err("  return %f\n"
			  "}\n",
			  5, 10);
}
END_TEST

START_TEST(future_yielded)
{
	expect_future_err("  %c = const true : i1\n"
			  "  %r = if %c -> (tensor<4xf32>) {\n"
			  "    yield %f\n"
			  "  } else {\n"
			  "    yield %x\n"
			  "  }\n"
			  "  return %r\n"
			  "}\n",
			  7, 11);
}
END_TEST

START_TEST(future_arith)
{
	expect_future_err("  %y = add %f, 1.0 : tensor<4xf32>\n"
			  "  return %y\n"
			  "}\n",
			  5, 12);
}
END_TEST

/* Carried: a for's iter arg (init, yield, result) and a block argument. */
START_TEST(future_carried)
{
	char text[1024];

	fmt_snprintf(text, sizeof text, "%s%s", fut_head,
		     "  %r = for %i = 0 to 2 step 1 iter(%g = %f) "
		     "-> (future<tensor<4xf32>>) {\n"
		     "    %a = await %g\n"
		     "    %h = async stream 0 -> (tensor<4xf32>) {\n"
		     "      yield %a\n"
		     "    }\n"
		     "    yield %h\n"
		     "  }\n"
		     "  br ^b(%r)\n"
		     "^b(%k: future<tensor<4xf32>>):\n"
		     "  %y = await %k\n"
		     "  return %y\n"
		     "}\n");
	expect_ok(text);
}
END_TEST

START_TEST(future_in_while)
{
	expect_future_err("  %r = while iter(%g = %f) -> (future<tensor<4xf32>>) {\n"
			  "    %c = const false : i1\n"
			  "    condition %c\n"
			  "  } do {\n"
			  "    yield %g\n"
			  "  }\n"
			  "  %y = await %r\n"
			  "  return %y\n"
			  "}\n",
			  5, 24);
}
END_TEST

START_TEST(future_param)
{
	expect_err("func @main(%f: future<f32>) {\n"
		   "  return\n"
		   "}\n",
		   1, 16, "parameter %f may not be a future");
}
END_TEST

START_TEST(future_result)
{
	expect_err("func @main() -> future<> {\n"
		   "  %f = async stream 0 {\n"
		   "  }\n"
		   "  return %f\n"
		   "}\n",
		   1, 17, "result 0 of @main may not be a future");
}
END_TEST

/* ------------------------------------------------------------ limits */

START_TEST(limit_param)
{
	expect_err("func @main(%x: tensor<65536x1025xf32>) {\n"
		   "  return\n"
		   "}\n",
		   1, 16,
		   "tensor<65536x1025xf32> has 67174400 elements, over the limit of 67108864");
}
END_TEST

START_TEST(limit_empty)
{
	expect_err("func @main() {\n"
		   "  %e = empty : tensor<8192x8193xi1>\n"
		   "  return\n"
		   "}\n",
		   2, 16,
		   "tensor<8192x8193xi1> has 67117056 elements, over the limit of 67108864");
}
END_TEST

START_TEST(limit_const)
{
	expect_err("func @main() {\n"
		   "  %c = const dense<0> : tensor<67108865xi32>\n"
		   "  return\n"
		   "}\n",
		   2, 25,
		   "tensor<67108865xi32> has 67108865 elements, over the limit of 67108864");
}
END_TEST

START_TEST(limit_overflow)
{
	expect_err("func @main() -> tensor<2147483647x2147483647x2147483647xf32> {\n"
		   "  %e = empty : tensor<2147483647x2147483647x2147483647xf32>\n"
		   "  return %e\n"
		   "}\n",
		   1, 17,
		   "tensor<2147483647x2147483647x2147483647xf32> has more than "
		   "9223372036854775807 elements, over the limit of 67108864");
}
END_TEST

START_TEST(limit_ok_at_limit)
{
	expect_ok("func @main(%x: tensor<8192x8192xf32>) {\n"
		  "  return\n"
		  "}\n");
}
END_TEST

/* ----------------------------------------------------------- suites */

static Suite *
valid_suite(void)
{
	Suite *s = suite_create("verify-valid");
	TCase *tc = tcase_create("valid");

	tcase_add_test(tc, ok_elementwise);
	tcase_add_test(tc, ok_tensor_ops);
	tcase_add_test(tc, ok_regions);
	tcase_add_test(tc, ok_calls_async);
	tcase_add_test(tc, call_dynamic_param);
	tcase_add_test(tc, limit_ok_at_limit);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
structure_suite(void)
{
	Suite *s = suite_create("verify-structure");
	TCase *tc = tcase_create("scopes");

	tcase_add_test(tc, use_before_def);
	tcase_add_test(tc, use_in_own_region);
	tcase_add_test(tc, not_visible_after_region);
	tcase_add_test(tc, block_arg_outside_region);
	tcase_add_test(tc, sibling_region);
	suite_add_tcase(s, tc);
	tc = tcase_create("terminators");
	tcase_add_test(tc, missing_yield);
	tcase_add_test(tc, return_in_region);
	tcase_add_test(tc, return_not_last);
	tcase_add_test(tc, yield_in_body);
	tcase_add_test(tc, return_arity);
	tcase_add_test(tc, return_type);
	tcase_add_test(tc, yield_type);
	tcase_add_test(tc, yield_arity);
	tcase_add_test(tc, missing_return);
	tcase_add_test(tc, if_needs_else);
	tcase_add_test(tc, first_error_wins);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
types_suite(void)
{
	Suite *s = suite_create("verify-types");
	TCase *tc = tcase_create("elementwise");

	tcase_add_test(tc, binary_operand_type);
	tcase_add_test(tc, binary_needs_tensor_operand);
	tcase_add_test(tc, float_literal_int_dtype);
	tcase_add_test(tc, literal_range);
	tcase_add_test(tc, binary_dest_type);
	tcase_add_test(tc, exp_needs_float);
	tcase_add_test(tc, unary_type);
	tcase_add_test(tc, cmp_scalars);
	tcase_add_test(tc, cmp_operand);
	tcase_add_test(tc, fill_value);
	suite_add_tcase(s, tc);
	tc = tcase_create("tensor ops");
	tcase_add_test(tc, matmul_inner);
	tcase_add_test(tc, matmul_result);
	tcase_add_test(tc, matmul_rank);
	tcase_add_test(tc, transpose_perm);
	tcase_add_test(tc, transpose_result);
	tcase_add_test(tc, reduce_dims);
	tcase_add_test(tc, reduce_result);
	tcase_add_test(tc, copy_clone_type);
	tcase_add_test(tc, empty_dyn_count);
	tcase_add_test(tc, empty_dim_type);
	tcase_add_test(tc, const_static);
	suite_add_tcase(s, tc);
	tc = tcase_create("slices");
	tcase_add_test(tc, slice_offsets_count);
	tcase_add_test(tc, slice_static_bounds);
	tcase_add_test(tc, slice_strided_bounds);
	tcase_add_test(tc, slice_dynamic_bounds);
	tcase_add_test(tc, slice_stride);
	tcase_add_test(tc, slice_result);
	tcase_add_test(tc, slice_offset_type);
	tcase_add_test(tc, slice_size_offset_sign);
	tcase_add_test(tc, insert_slice_source);
	tcase_add_test(tc, insert_slice_bounds);
	tcase_add_test(tc, extract_indices);
	tcase_add_test(tc, extract_bounds);
	tcase_add_test(tc, extract_result);
	tcase_add_test(tc, insert_indices);
	tcase_add_test(tc, insert_value);
	suite_add_tcase(s, tc);
	tc = tcase_create("regions and calls");
	tcase_add_test(tc, if_cond);
	tcase_add_test(tc, for_bound);
	tcase_add_test(tc, for_step);
	tcase_add_test(tc, for_init);
	tcase_add_test(tc, call_arg);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
futures_limits_suite(void)
{
	Suite *s = suite_create("verify-futures-limits");
	TCase *tc = tcase_create("futures");

	tcase_add_test(tc, future_in_call);
	tcase_add_test(tc, future_returned);
	tcase_add_test(tc, future_yielded);
	tcase_add_test(tc, future_arith);
	tcase_add_test(tc, future_carried);
	tcase_add_test(tc, future_in_while);
	tcase_add_test(tc, future_param);
	tcase_add_test(tc, future_result);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, limit_param);
	tcase_add_test(tc, limit_empty);
	tcase_add_test(tc, limit_const);
	tcase_add_test(tc, limit_overflow);
	tcase_add_test(tc, limit_region_result);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){valid_suite(), structure_suite(),
				  types_suite(), futures_limits_suite(), NULL});
}
