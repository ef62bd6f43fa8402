/* test_eval.c: the reference interpreter, op by op, errors, limits, OOM. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* ---------------------------------------------------------- helpers */

/* A new input tensor with values vals (read as doubles, converted). */
static Tensor *
mk(DType dt, int rank, const int64_t *dims, const double *vals)
{
	Tensor *t = tensor_new(dt, rank, dims);

	ck_assert_ptr_nonnull(t);
	for (int64_t i = 0; i < t->n; i++)
		if (dtype_is_float(dt))
			tensor_setf(t, i, vals[i]);
		else
			tensor_seti(t, i, (int64_t)vals[i]);
	return t;
}

static Tensor *
mk1(DType dt, int64_t n, const double *vals)
{
	return mk(dt, 1, &n, vals);
}

static Tensor *
scalar(DType dt, double v)
{
	return mk(dt, 0, NULL, &v);
}

/* "3x2xf32: 1 2 undef ...", or "i32: 5" for rank 0. */
static void
fmt(const Tensor *t, char *buf, size_t n)
{
	size_t len = 0;

	for (int i = 0; i < t->rank; i++)
		len += (size_t)fmt_snprintf(buf + len, n - len, "%lldx",
					(long long)t->dims[i]);
	len += (size_t)fmt_snprintf(buf + len, n - len, "%s:", dtype_names[t->dt]);
	for (int64_t i = 0; i < t->n && len + 32 < n; i++) {
		buf[len++] = ' ';
		len += (size_t)tensor_elem_str(t, i, buf + len, n - len);
	}
}

static Program *
parse_ok(const char *text, bool verify)
{
	Diag d = {{0, 0}, ""};
	Program *p = tu_parse(text, &d);

	ck_assert_msg(p != NULL, "parse failed at %d:%d: %s", d.loc.line,
		      d.loc.col, d.msg);
	if (verify)
		ck_assert_msg(tir_verify(p, &default_limits, &d) == 0,
			      "verify failed at %d:%d: %s", d.loc.line,
			      d.loc.col, d.msg);
	return p;
}

static void
free_all(Tensor **ts, int n)
{
	for (int i = 0; i < n; i++)
		tensor_free(ts[i]);
}

/*
 * Run @main of text on ins (NULL-terminated, freed here) and compare the
 * outputs, formatted by fmt(), with want (NULL-terminated).  Checks that
 * no output shares payload with an input and that nothing leaks.
 */
static void
expect_run(const char *text, Tensor **ins, const char *const *want)
{
	long base = mem_live_blocks();
	Program *p = parse_ok(text, true);
	Diag d = {{0, 0}, ""};
	Tensor **outs = NULL;
	int nouts = 0, nwant = 0, nins = 0;
	char got[1024];

	while (want[nwant])
		nwant++;
	while (ins && ins[nins])
		nins++;
	ck_assert_msg(ref_run(p, prog_func(p, "main"), ins, NULL, &outs,
			      &nouts, &d) == 0,
		      "run failed at %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_int_eq(nouts, nwant);
	for (int i = 0; i < nouts; i++) {
		fmt(outs[i], got, sizeof got);
		ck_assert_str_eq(got, want[i]);
		for (int k = 0; k < nins; k++)
			ck_assert_ptr_ne(outs[i]->data, ins[k]->data);
		for (int k = 0; k < i; k++)
			ck_assert_ptr_ne(outs[i]->data, outs[k]->data);
	}
	free_all(outs, nouts);
	mem_free(outs);
	prog_free(p);
	ck_assert_int_eq(mem_live_blocks(), base);
	free_all(ins, nins);
}

/* Run and expect an error at line:col with exactly msg; no leak. */
static void
expect_err_lim(const char *text, bool verify, Tensor **ins,
	       const Limits *lim, int line, int col, const char *msg)
{
	long base = mem_live_blocks();
	Program *p = parse_ok(text, verify);
	Diag d = {{0, 0}, ""};
	Tensor **outs = NULL;
	int nouts = 0, nins = 0;

	while (ins && ins[nins])
		nins++;
	ck_assert_int_eq(ref_run(p, prog_func(p, "main"), ins, lim, &outs,
				 &nouts, &d), -1);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
	ck_assert_ptr_null(outs);
	ck_assert_int_eq(nouts, 0);
	prog_free(p);
	ck_assert_int_eq(mem_live_blocks(), base);
	free_all(ins, nins);
}

static void
expect_err(const char *text, Tensor **ins, int line, int col,
	   const char *msg)
{
	expect_err_lim(text, true, ins, NULL, line, col, msg);
}

#define INS(...) ((Tensor *[]){__VA_ARGS__, NULL})
#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})
#define V(...) ((const double[]){__VA_ARGS__})

/* ------------------------------------------------------------ ops */

START_TEST(seed)
{
	expect_run("func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		   "  %y = add %x, 10 : tensor<3xi32>\n"
		   "  %z = add %x, %y : tensor<3xi32>\n"
		   "  return %z\n"
		   "}\n",
		   INS(mk1(DT_I32, 3, V(1, 2, 3))), WANT("3xi32: 12 14 16"));
}
END_TEST

START_TEST(binary_int)
{
	expect_run("func @main(%x: tensor<4xi32>, %s: i32) -> (tensor<4xi32>,"
		   " tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,"
		   " tensor<4xi32>, tensor<4xi32>, i32) {\n"
		   "  %a = add %x, 2147483647 : tensor<4xi32>\n"
		   "  %b = div %x, %s : tensor<4xi32>\n"
		   "  %b0 = div %x, 0 : tensor<4xi32>\n"
		   "  %c = max %x, 0 : tensor<4xi32>\n"
		   "  %d = min %s, %x : tensor<4xi32>\n"
		   "  %e = mul %x, %x : tensor<4xi32>\n"
		   "  %f = sub %s, 1 : i32\n"
		   "  return %a, %b, %b0, %c, %d, %e, %f\n"
		   "}\n",
		   INS(mk1(DT_I32, 4, V(1, -1, 0, -2147483648.0)),
		       scalar(DT_I32, -1)),
		   WANT("4xi32: -2147483648 2147483646 2147483647 -1",
			"4xi32: -1 1 0 -2147483648", "4xi32: 0 0 0 0",
			"4xi32: 1 0 0 0", "4xi32: -1 -1 -1 -2147483648",
			"4xi32: 1 1 0 0", "i32: -2"));
}
END_TEST

START_TEST(binary_dest_and_i64)
{
	expect_run("func @main(%x: tensor<2xi64>) -> tensor<2xi64> {\n"
		   "  %d = empty : tensor<2xi64>\n"
		   "  %a = sub %x, 1 into %d : tensor<2xi64>\n"
		   "  return %a\n"
		   "}\n",
		   INS(mk1(DT_I64, 2, V(5, -9.2233720368547758e18))),
		   WANT("2xi64: 4 9223372036854775807"));
}
END_TEST

START_TEST(binary_f32_rounding)
{
	expect_run("func @main(%x: tensor<3xf32>) -> (tensor<3xf32>,"
		   " tensor<3xf32>, f64) {\n"
		   "  %a = add %x, 1.0 : tensor<3xf32>\n"
		   "  %b = div %x, 3 : tensor<3xf32>\n"
		   "  %c = const 0.1 : f64\n"
		   "  %d = add %c, 0.2 : f64\n"
		   "  return %a, %b, %d\n"
		   "}\n",
		   INS(mk1(DT_F32, 3, V(16777216, 1, -0.5))),
		   WANT("3xf32: 16777216 2 0.5",
			"3xf32: 5592405.5 0.33333334 -0.16666667",
			"f64: 0.30000000000000004"));
}
END_TEST

START_TEST(unary)
{
	expect_run("func @main(%x: tensor<4xi32>, %y: tensor<2xf32>) ->"
		   " (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,"
		   " tensor<2xf32>) {\n"
		   "  %n = neg %x : tensor<4xi32>\n"
		   "  %a = abs %x : tensor<4xi32>\n"
		   "  %r = relu %x : tensor<4xi32>\n"
		   "  %e = exp %y : tensor<2xf32>\n"
		   "  return %n, %a, %r, %e\n"
		   "}\n",
		   INS(mk1(DT_I32, 4, V(3, -5, 0, -2147483648.0)),
		       mk1(DT_F32, 2, V(0, 1))),
		   WANT("4xi32: -3 5 0 -2147483648",
			"4xi32: 3 5 0 -2147483648", "4xi32: 3 0 0 0",
			"2xf32: 1 2.7182817"));
}
END_TEST

START_TEST(compare)
{
	expect_run("func @main(%i: index) -> (i1, i1, i1, i1, i1, i1) {\n"
		   "  %a = lt %i, 3 : index\n"
		   "  %b = le %i, 2 : index\n"
		   "  %c = eq %i, 2 : index\n"
		   "  %d = ne %i, 2 : index\n"
		   "  %e = gt 3, %i : index\n"
		   "  %f = ge %i, 3 : index\n"
		   "  return %a, %b, %c, %d, %e, %f\n"
		   "}\n",
		   INS(scalar(DT_INDEX, 2)),
		   WANT("i1: 1", "i1: 1", "i1: 1", "i1: 0", "i1: 1", "i1: 0"));
}
END_TEST

START_TEST(const_dense_and_splat)
{
	expect_run("func @main() -> (tensor<2x2xi32>, tensor<3xf32>, i1) {\n"
		   "  %a = const dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
		   "  %b = const dense<0.5> : tensor<3xf32>\n"
		   "  %c = const true : i1\n"
		   "  return %a, %b, %c\n"
		   "}\n",
		   NULL, WANT("2x2xi32: 1 2 3 4", "3xf32: 0.5 0.5 0.5", "i1: 1"));
}
END_TEST

START_TEST(fill_matmul_transpose_reduce)
{
	expect_run("func @main(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) ->"
		   " (tensor<2x2xf32>, tensor<3x2xf32>, tensor<2xf32>,"
		   " tensor<f32>) {\n"
		   "  %e = empty : tensor<2x2xf32>\n"
		   "  %c = fill 1.0 into %e : tensor<2x2xf32>\n"
		   "  %m = matmul %a, %b into %c : tensor<2x2xf32>\n"
		   "  %d = empty : tensor<3x2xf32>\n"
		   "  %t = transpose %a [1, 0] into %d : tensor<3x2xf32>\n"
		   "  %z0 = empty : tensor<2xf32>\n"
		   "  %z = fill 0.5 into %z0 : tensor<2xf32>\n"
		   "  %s = reduce.sum %a [1] into %z : tensor<2xf32>\n"
		   "  %w0 = empty : tensor<f32>\n"
		   "  %w = fill -100.0 into %w0 : tensor<f32>\n"
		   "  %x = reduce.max %a [0, 1] into %w : tensor<f32>\n"
		   "  return %m, %t, %s, %x\n"
		   "}\n",
		   INS(mk(DT_F32, 2, (int64_t[]){2, 3}, V(1, 2, 3, 4, 5, 6)),
		       mk(DT_F32, 2, (int64_t[]){3, 2}, V(1, 0, 0, 1, 1, 1))),
		   WANT("2x2xf32: 5 6 11 12", "3x2xf32: 1 4 2 5 3 6",
			"2xf32: 6.5 15.5", "f32: 6"));
}
END_TEST

START_TEST(matmul_int)
{
	expect_run("func @main(%a: tensor<1x2xi32>, %b: tensor<2x1xi32>,"
		   " %c: tensor<1x1xi32>) -> tensor<1x1xi32> {\n"
		   "  %m = matmul %a, %b into %c : tensor<1x1xi32>\n"
		   "  return %m\n"
		   "}\n",
		   INS(mk(DT_I32, 2, (int64_t[]){1, 2}, V(65536, 3)),
		       mk(DT_I32, 2, (int64_t[]){2, 1}, V(65536, 4)),
		       mk(DT_I32, 2, (int64_t[]){1, 1}, V(1))),
		   WANT("1x1xi32: 13"));
}
END_TEST

START_TEST(slices_and_elements)
{
	double v[16];

	for (int i = 0; i < 16; i++)
		v[i] = i;
	expect_run("func @main(%a: tensor<4x4xi32> {readonly}) ->"
		   " (tensor<2x2xi32>, tensor<4x4xi32>, i32, tensor<4x4xi32>,"
		   " tensor<4x4xi32>, tensor<4x4xi32>) {\n"
		   "  %s = extract_slice %a[0, 1] [2, 2] [2, 2] :"
		   " tensor<2x2xi32>\n"
		   "  %r = insert_slice %s into %a[1, 0] [2, 2] [1, 3] :"
		   " tensor<4x4xi32>\n"
		   "  %v = extract %a[3, 2] : i32\n"
		   "  %i = insert 99 into %a[0, 0] : tensor<4x4xi32>\n"
		   "  %c = clone %a : tensor<4x4xi32>\n"
		   "  %d = empty : tensor<4x4xi32>\n"
		   "  %p = copy %a into %d : tensor<4x4xi32>\n"
		   "  return %s, %r, %v, %i, %c, %p\n"
		   "}\n",
		   INS(mk(DT_I32, 2, (int64_t[]){4, 4}, v)),
		   WANT("2x2xi32: 1 3 9 11",
			"4x4xi32: 0 1 2 3 1 5 6 3 9 9 10 11 12 13 14 15",
			"i32: 14",
			"4x4xi32: 99 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
			"4x4xi32: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
			"4x4xi32: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"));
}
END_TEST

/* The same value returned twice gives two distinct tensors. */
START_TEST(shared_results)
{
	expect_run("func @main(%x: tensor<2xi32>) -> (tensor<2xi32>,"
		   " tensor<2xi32>, tensor<2xi32>) {\n"
		   "  %y = add %x, 1 : tensor<2xi32>\n"
		   "  return %y, %y, %x\n"
		   "}\n",
		   INS(mk1(DT_I32, 2, V(1, 2))),
		   WANT("2xi32: 2 3", "2xi32: 2 3", "2xi32: 1 2"));
}
END_TEST

/* ------------------------------------------------------------ poison */

START_TEST(poison_elementwise)
{
	expect_run("func @main(%x: tensor<3xf32>) -> (tensor<3xf32>,"
		   " tensor<3xf32>, tensor<3xf32>, f32, f32, tensor<3xf32>,"
		   " tensor<3xf32>) {\n"
		   "  %e = empty : tensor<3xf32>\n"
		   "  %a = add %x, %e : tensor<3xf32>\n"
		   "  %f = fill 2.0 into %e : tensor<3xf32>\n"
		   "  %p = insert 7.0 into %e[1] : tensor<3xf32>\n"
		   "  %q = mul %p, 2.0 : tensor<3xf32>\n"
		   "  %v = extract %q[1] : f32\n"
		   "  %u = extract %q[0] : f32\n"
		   "  %g = add %x, %u : tensor<3xf32>\n"
		   "  %s = extract_slice %q[1] [2] [1] : tensor<2xf32>\n"
		   "  %t = insert_slice %s into %f[0] [2] [1] : tensor<3xf32>\n"
		   "  return %a, %f, %q, %v, %u, %g, %t\n"
		   "}\n",
		   INS(mk1(DT_F32, 3, V(1, 2, 3))),
		   WANT("3xf32: undef undef undef", "3xf32: 2 2 2",
			"3xf32: undef 14 undef", "f32: 14", "f32: undef",
			"3xf32: undef undef undef", "3xf32: 14 undef 2"));
}
END_TEST

START_TEST(poison_matmul_reduce_transpose)
{
	expect_run("func @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>,"
		   " tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>,"
		   " tensor<2x2xf32>) {\n"
		   "  %b0 = empty : tensor<2x2xf32>\n"
		   "  %b1 = insert 1.0 into %b0[0, 0] : tensor<2x2xf32>\n"
		   "  %b = insert 2.0 into %b1[1, 0] : tensor<2x2xf32>\n"
		   "  %z = fill 0.0 into %b0 : tensor<2x2xf32>\n"
		   "  %m = matmul %a, %b into %z : tensor<2x2xf32>\n"
		   "  %bt = transpose %b [1, 0] into %b0 : tensor<2x2xf32>\n"
		   "  %n = matmul %bt, %a into %z : tensor<2x2xf32>\n"
		   "  %y0 = empty : tensor<2xf32>\n"
		   "  %y = fill 0.0 into %y0 : tensor<2xf32>\n"
		   "  %r0 = reduce.sum %b [0] into %y : tensor<2xf32>\n"
		   "  %r1 = reduce.max %b [1] into %y : tensor<2xf32>\n"
		   "  return %m, %n, %r0, %r1, %bt\n"
		   "}\n",
		   INS(mk(DT_F32, 2, (int64_t[]){2, 2}, V(1, 2, 3, 4))),
		   WANT("2x2xf32: 5 undef 11 undef", "2x2xf32: 7 10 undef undef",
			"2xf32: 3 undef", "2xf32: undef undef",
			"2x2xf32: 1 2 undef undef"));
}
END_TEST

/* ------------------------------------------------------- control */

START_TEST(loop_dynamic_slices)
{
	expect_run("func @main(%a: tensor<8xi32>) -> tensor<8xi32> {\n"
		   "  %e = empty : tensor<8xi32>\n"
		   "  %r = for %i = 0 to 4 step 1 iter(%acc = %e) ->"
		   " (tensor<8xi32>) {\n"
		   "    %j = mul %i, 2 : index\n"
		   "    %s = extract_slice %a[%i] [2] [4] : tensor<2xi32>\n"
		   "    %t = mul %s, 10 : tensor<2xi32>\n"
		   "    %u = insert_slice %t into %acc[%j] [2] [1] :"
		   " tensor<8xi32>\n"
		   "    yield %u\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   INS(mk1(DT_I32, 8, V(1, 2, 3, 4, 5, 6, 7, 8))),
		   WANT("8xi32: 10 50 20 60 30 70 40 80"));
}
END_TEST

static const char *loop_src =
	"func @main(%x: tensor<2xi32>, %n: index) -> (tensor<2xi32>, index) {\n"
	"  %r, %c = for %i = 5 to %n step 2 iter(%a = %x, %k = %n) ->"
	" (tensor<2xi32>, index) {\n"
	"    %b = add %a, 1 : tensor<2xi32>\n"
	"    %m = add %k, %i : index\n"
	"    yield %b, %m\n"
	"  }\n"
	"  return %r, %c\n"
	"}\n";

START_TEST(loop_zero_trips)
{
	expect_run(loop_src,
		   INS(mk1(DT_I32, 2, V(4, 5)), scalar(DT_INDEX, 3)),
		   WANT("2xi32: 4 5", "index: 3"));
	expect_run(loop_src,
		   INS(mk1(DT_I32, 2, V(4, 5)), scalar(DT_INDEX, 5)),
		   WANT("2xi32: 4 5", "index: 5"));
}
END_TEST

START_TEST(loop_step_two)
{
	/* trips at 5, 7, 9 */
	expect_run(loop_src,
		   INS(mk1(DT_I32, 2, V(4, 5)), scalar(DT_INDEX, 10)),
		   WANT("2xi32: 7 8", "index: 31"));
}
END_TEST

START_TEST(if_inside_for)
{
	expect_run("func @main(%n: index) -> i32 {\n"
		   "  %z = const 0 : i32\n"
		   "  %r = for %i = 0 to %n iter(%s = %z) -> (i32) {\n"
		   "    %c = lt %i, 3 : index\n"
		   "    %t = if %c -> (i32) {\n"
		   "      %a = add %s, 1 : i32\n"
		   "      yield %a\n"
		   "    } else {\n"
		   "      %b = add %s, 100 : i32\n"
		   "      yield %b\n"
		   "    }\n"
		   "    yield %t\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   INS(scalar(DT_INDEX, 5)), WANT("i32: 203"));
}
END_TEST

static const char *fact_src =
	"func @fact(%n: i64) -> i64 {\n"
	"  %c = le %n, 1 : i64\n"
	"  %r = if %c -> (i64) {\n"
	"    %one = const 1 : i64\n"
	"    yield %one\n"
	"  } else {\n"
	"    %m = sub %n, 1 : i64\n"
	"    %f = call @fact(%m)\n"
	"    %p = mul %n, %f : i64\n"
	"    yield %p\n"
	"  }\n"
	"  return %r\n"
	"}\n"
	"func @main(%n: i64) -> i64 {\n"
	"  %r = call @fact(%n)\n"
	"  return %r\n"
	"}\n";

START_TEST(recursion)
{
	expect_run(fact_src, INS(scalar(DT_I64, 10)), WANT("i64: 3628800"));
}
END_TEST

START_TEST(call_dynamic_param)
{
	expect_run("func @f(%x: tensor<?xi32>, %y: tensor<?xi32>) ->"
		   " tensor<?xi32> {\n"
		   "  %z = add %x, %y : tensor<?xi32>\n"
		   "  return %z\n"
		   "}\n"
		   "func @main(%a: tensor<3xi32>, %n: index) -> (tensor<?xi32>,"
		   " tensor<?xi32>) {\n"
		   "  %r = call @f(%a, %a)\n"
		   "  %e = empty(%n) : tensor<?xi32>\n"
		   "  %f = fill 1 into %e : tensor<?xi32>\n"
		   "  return %r, %f\n"
		   "}\n",
		   INS(mk1(DT_I32, 3, V(1, 2, 3)), scalar(DT_INDEX, 2)),
		   WANT("3xi32: 2 4 6", "2xi32: 1 1"));
}
END_TEST

START_TEST(async_two_streams)
{
	expect_run("func @main(%x: tensor<2xf32>) -> (tensor<2xf32>,"
		   " tensor<2xf32>, f32) {\n"
		   "  %f1 = async stream 1 -> (tensor<2xf32>) {\n"
		   "    %a = mul %x, 2.0 : tensor<2xf32>\n"
		   "    yield %a\n"
		   "  }\n"
		   "  %f2 = async stream 2 -> (tensor<2xf32>, f32) {\n"
		   "    %b = add %x, 1.0 : tensor<2xf32>\n"
		   "    %s = const 3.5 : f32\n"
		   "    yield %b, %s\n"
		   "  }\n"
		   "  %r2, %s2 = await %f2\n"
		   "  %r1 = await %f1\n"
		   "  %r3 = await %f1\n"
		   "  %sum = add %r1, %r3 : tensor<2xf32>\n"
		   "  return %sum, %r2, %s2\n"
		   "}\n",
		   INS(mk1(DT_F32, 2, V(1, 2))),
		   WANT("2xf32: 4 8", "2xf32: 2 3", "f32: 3.5"));
}
END_TEST

/* ------------------------------------------------------ run-time errors */

START_TEST(err_elementwise_shape)
{
	expect_err("func @main(%a: tensor<?xi32>, %b: tensor<?xi32>) ->"
		   " tensor<?xi32> {\n"
		   "  %c = add %a, %b : tensor<?xi32>\n"
		   "  return %c\n"
		   "}\n",
		   INS(mk1(DT_I32, 3, V(1, 2, 3)),
		       mk1(DT_I32, 4, V(1, 2, 3, 4))),
		   2, 3, "shape mismatch: %a is 3 but %b is 4");
}
END_TEST

START_TEST(err_matmul_shape)
{
	expect_err("func @main(%a: tensor<2x?xf32>, %b: tensor<?x2xf32>,"
		   " %c: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
		   "  %m = matmul %a, %b into %c : tensor<2x2xf32>\n"
		   "  return %m\n"
		   "}\n",
		   INS(mk(DT_F32, 2, (int64_t[]){2, 3}, V(1, 2, 3, 4, 5, 6)),
		       mk(DT_F32, 2, (int64_t[]){2, 2}, V(1, 2, 3, 4)),
		       mk(DT_F32, 2, (int64_t[]){2, 2}, V(1, 2, 3, 4))),
		   2, 3, "matmul shape mismatch: %a is 2x3, %b is 2x2, %c is 2x2");
}
END_TEST

static const char *slice_src =
	"func @main(%a: tensor<4xi32>, %i: index) -> tensor<2xi32> {\n"
	"  %s = extract_slice %a[%i] [2] [1] : tensor<2xi32>\n"
	"  return %s\n"
	"}\n";

START_TEST(err_extract_slice_bounds)
{
	expect_err(slice_src,
		   INS(mk1(DT_I32, 4, V(1, 2, 3, 4)), scalar(DT_INDEX, 3)),
		   2, 25,
		   "extract_slice out of bounds: offset 3 + (size 2 - 1) * "
		   "stride 1 exceeds dim 4 of %a");
	expect_err(slice_src,
		   INS(mk1(DT_I32, 4, V(1, 2, 3, 4)), scalar(DT_INDEX, -1)),
		   2, 25,
		   "extract_slice out of bounds: offset -1 is negative in dim "
		   "0 of %a");
}
END_TEST

START_TEST(err_insert_slice_bounds)
{
	expect_err("func @main(%a: tensor<2xi32>, %d: tensor<5xi32>, %i:"
		   " index) -> tensor<5xi32> {\n"
		   "  %s = insert_slice %a into %d[%i] [2] [3] : tensor<5xi32>\n"
		   "  return %s\n"
		   "}\n",
		   INS(mk1(DT_I32, 2, V(1, 2)),
		       mk1(DT_I32, 5, V(1, 2, 3, 4, 5)), scalar(DT_INDEX, 2)),
		   2, 32,
		   "insert_slice out of bounds: offset 2 + (size 2 - 1) * "
		   "stride 3 exceeds dim 5 of %d");
}
END_TEST

START_TEST(err_dynamic_dim_slice)
{
	expect_err("func @main(%a: tensor<?xi32>) -> tensor<2xi32> {\n"
		   "  %s = extract_slice %a[1] [2] [1] : tensor<2xi32>\n"
		   "  return %s\n"
		   "}\n",
		   INS(mk1(DT_I32, 2, V(1, 2))), 2, 25,
		   "extract_slice out of bounds: offset 1 + (size 2 - 1) * "
		   "stride 1 exceeds dim 2 of %a");
}
END_TEST

START_TEST(err_index_bounds)
{
	expect_err("func @main(%a: tensor<4xi32>, %i: index) -> i32 {\n"
		   "  %v = extract %a[%i] : i32\n"
		   "  return %v\n"
		   "}\n",
		   INS(mk1(DT_I32, 4, V(1, 2, 3, 4)), scalar(DT_INDEX, 5)),
		   2, 19, "index 5 out of bounds for dim 0 of size 4");
	expect_err("func @main(%a: tensor<2x4xi32>, %i: index) ->"
		   " tensor<2x4xi32> {\n"
		   "  %r = insert 7 into %a[1, %i] : tensor<2x4xi32>\n"
		   "  return %r\n"
		   "}\n",
		   INS(mk(DT_I32, 2, (int64_t[]){2, 4}, V(1, 2, 3, 4, 5, 6, 7, 8)),
		       scalar(DT_INDEX, -1)),
		   2, 28, "index -1 out of bounds for dim 1 of size 4");
}
END_TEST

START_TEST(err_call_arg_shape)
{
	/* the verifier rejects this; the interpreter still checks */
	expect_err_lim("func @f(%x: tensor<4xi32>) -> tensor<4xi32> {\n"
		       "  return %x\n"
		       "}\n"
		       "func @main(%a: tensor<?xi32>) -> tensor<4xi32> {\n"
		       "  %r = call @f(%a)\n"
		       "  return %r\n"
		       "}\n",
		       false, INS(mk1(DT_I32, 3, V(1, 2, 3))), NULL, 5, 16,
		       "argument %a of @f is tensor<3xi32>, expected "
		       "tensor<4xi32>");
}
END_TEST

START_TEST(err_input_type)
{
	expect_err("func @main(%x: tensor<3xi32>, %s: f32) -> tensor<3xi32> {\n"
		   "  return %x\n"
		   "}\n",
		   INS(mk1(DT_I32, 4, V(1, 2, 3, 4)), scalar(DT_F32, 1)), 1,
		   12, "input %x is tensor<4xi32>, expected tensor<3xi32>");
	expect_err("func @main(%x: tensor<3xi32>, %s: f32) -> tensor<3xi32> {\n"
		   "  return %x\n"
		   "}\n",
		   INS(mk1(DT_I32, 3, V(1, 2, 3)), scalar(DT_F64, 1)), 1, 31,
		   "input %s is f64, expected f32");
}
END_TEST

START_TEST(err_undefined_control)
{
	expect_err("func @main() -> i32 {\n"
		   "  %e = empty : tensor<1xi1>\n"
		   "  %c = extract %e[0] : i1\n"
		   "  %r = if %c -> (i32) {\n"
		   "    %a = const 1 : i32\n"
		   "    yield %a\n"
		   "  } else {\n"
		   "    %b = const 2 : i32\n"
		   "    yield %b\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   NULL, 4, 11, "branch on undefined value %c");
	expect_err("func @main() -> i32 {\n"
		   "  %e = empty : tensor<1xindex>\n"
		   "  %n = extract %e[0] : index\n"
		   "  %z = const 0 : i32\n"
		   "  %r = for %i = 0 to %n iter(%s = %z) -> (i32) {\n"
		   "    yield %s\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   NULL, 5, 22, "loop bound %n is undefined");
	expect_err("func @main(%a: tensor<4xi32>) -> tensor<2xi32> {\n"
		   "  %e = empty : tensor<1xindex>\n"
		   "  %i = extract %e[0] : index\n"
		   "  %s = extract_slice %a[%i] [2] [1] : tensor<2xi32>\n"
		   "  return %s\n"
		   "}\n",
		   INS(mk1(DT_I32, 4, V(1, 2, 3, 4))), 4, 25,
		   "offset %i is undefined");
}
END_TEST

START_TEST(err_step)
{
	expect_err("func @main(%s: index) -> index {\n"
		   "  %r = for %i = 0 to 4 step %s iter(%a = %s) -> (index) {\n"
		   "    yield %a\n"
		   "  }\n"
		   "  return %r\n"
		   "}\n",
		   INS(scalar(DT_INDEX, 0)), 2, 29,
		   "loop step must be > 0, got 0");
}
END_TEST

START_TEST(err_empty_dim)
{
	expect_err("func @main(%n: index) -> tensor<?xf32> {\n"
		   "  %e = empty(%n) : tensor<?xf32>\n"
		   "  return %e\n"
		   "}\n",
		   INS(scalar(DT_INDEX, -2)), 2, 14,
		   "dimension %n is -2, must be >= 0");
}
END_TEST

/* ------------------------------------------------------------ limits */

static const Limits small = {
	.max_elems = 16, .max_bytes = 256, .max_trips = 10, .max_depth = 3,
};

START_TEST(limit_elems)
{
	expect_err_lim("func @main(%n: index) -> tensor<?xf32> {\n"
		       "  %e = empty(%n) : tensor<?xf32>\n"
		       "  return %e\n"
		       "}\n",
		       true, INS(scalar(DT_INDEX, 17)), &small, 2, 3,
		       "tensor of 17 elements is over the limit of 16");
}
END_TEST

START_TEST(limit_bytes)
{
	double v[16] = {0};

	/* input 64 + 64 + 64 + 64 = 256 is fine; one more is not (%a, %b
	 * and %c are all live at %d) */
	expect_err_lim("func @main(%x: tensor<16xi32>) -> tensor<16xi32> {\n"
		       "  %a = add %x, 1 : tensor<16xi32>\n"
		       "  %b = add %x, 2 : tensor<16xi32>\n"
		       "  %c = add %x, 3 : tensor<16xi32>\n"
		       "  %d = add %a, %b : tensor<16xi32>\n"
		       "  %e = add %d, %c : tensor<16xi32>\n"
		       "  return %e\n"
		       "}\n",
		       true, INS(mk1(DT_I32, 16, v)), &small, 5, 3,
		       "live tensors need 320 bytes, over the limit of 256");
}
END_TEST

/* The peak of live payload bytes of @main on ins (freed here), and its
 * first output's element k. */
static int64_t
peak_of(const char *text, Tensor **ins, const Limits *lim, int64_t k,
	double *elem)
{
	long base = mem_live_blocks();
	Program *p = parse_ok(text, true);
	Diag d = {{0, 0}, ""};
	Tensor **outs = NULL;
	RefStats st = {0};
	int nouts = 0, nins = 0;

	while (ins && ins[nins])
		nins++;
	ck_assert_msg(ref_run_stats(p, prog_func(p, "main"), ins, lim, &outs,
				    &nouts, &d, &st) == 0,
		      "run failed at %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	*elem = tensor_getf(outs[0], k);
	free_all(outs, nouts);
	mem_free(outs);
	prog_free(p);
	ck_assert_int_eq(mem_live_blocks(), base);
	free_all(ins, nins);
	return st.peak_bytes;
}

/* RefStats.order: each trip of the forall reads element 0 of the shared
 * output, which trip 0 inserts.  First to last every later trip sees trip
 * 0's insert; last to first none does (the reference's answer); the 24
 * permutations of 4 trips give every subset of trips 1-3 seeing it: 8
 * distinct outputs. */
START_TEST(forall_orders)
{
	static const char text[] =
		"func @main(%y: tensor<4xi32>) -> tensor<4xi32> {\n"
		"  %r = forall %i = 0 to 4 shared(%o = %y) -> (tensor<4xi32>) {\n"
		"    %h = extract_slice %o[0] [1] [1] : tensor<1xi32>\n"
		"    %s = extract_slice %o[%i] [1] [1] : tensor<1xi32>\n"
		"    %t = add %s, %h : tensor<1xi32>\n"
		"    %u = mul %t, 10 : tensor<1xi32>\n"
		"    parallel_insert_slice %u into %o[%i] [1] [1]\n"
		"  }\n"
		"  return %r\n"
		"}\n";
	long base = mem_live_blocks();
	Program *p = parse_ok(text, true);
	Tensor *in = mk1(DT_I32, 4, V(1, 2, 3, 4));
	int64_t seen[27] = {0}, nseen = 0;

	for (int order = 1; order <= 26; order++) {
		RefStats st = {.order = order};
		Tensor **outs = NULL;
		Diag d = {{0, 0}, ""};
		int nouts = 0;
		int64_t key = 0;
		bool dup = false;

		ck_assert_int_eq(ref_run_stats(p, prog_func(p, "main"),
					       INS(in), NULL, &outs, &nouts,
					       &d, &st), 0);
		for (int64_t k = 0; k < 4; k++)
			key = key * 1000 + (int64_t)tensor_getf(outs[0], k);
		ck_assert_int_eq(st.forall_trips, 4);
		if (order == 1)
			ck_assert_int_eq(key, 20220230240LL);
		if (order == 2)
			ck_assert_int_eq(key, 20030040050LL);
		for (int64_t j = 0; j < nseen && order > 2; j++)
			dup = dup || seen[j] == key;
		if (order > 2 && !dup)
			seen[nseen++] = key;
		free_all(outs, nouts);
		mem_free(outs);
	}
	ck_assert_int_eq(nseen, 8);
	tensor_free(in);
	prog_free(p);
	ck_assert_int_eq(mem_live_blocks(), base);
}
END_TEST

/* Values go after their last use: a chain holds the input and two
 * tensors (192 bytes, not 320); a loop body's values go within the trip
 * (the iter arg after its last read, the unused iv after the first op);
 * a value read inside a loop body lives until the loop ends. */
START_TEST(peak_last_use)
{
	double v[16] = {0}, one[16] = {1}, e;

	ck_assert_int_eq(peak_of("func @main(%x: tensor<16xi32>) -> tensor<16xi32> {\n"
				 "  %a = add %x, 1 : tensor<16xi32>\n"
				 "  %b = add %a, 1 : tensor<16xi32>\n"
				 "  %c = add %b, 1 : tensor<16xi32>\n"
				 "  %d = add %c, 1 : tensor<16xi32>\n"
				 "  return %d\n"
				 "}\n", INS(mk1(DT_I32, 16, v)), &small, 3, &e),
			 192);
	ck_assert(e == 4);
	/* x 64 + acc 64 + iv 8 + a 64 at the first op of a trip */
	ck_assert_int_eq(peak_of("func @main(%x: tensor<16xi32>) -> tensor<16xi32> {\n"
				 "  %r = for %i = 0 to 10 iter(%acc = %x) -> (tensor<16xi32>) {\n"
				 "    %a = add %acc, %x : tensor<16xi32>\n"
				 "    %b = add %a, 1 : tensor<16xi32>\n"
				 "    yield %b\n"
				 "  }\n"
				 "  return %r\n"
				 "}\n", INS(mk1(DT_I32, 16, one)), &small, 0, &e),
			 200);
	ck_assert(e == 21);
	/* %y is read in the then-branch and the loop: live until the loop
	 * ends, %z (the init) too; %c (an i1) after the if */
	ck_assert_int_eq(peak_of("func @main(%x: tensor<8xi32>) -> tensor<8xi32> {\n"
				 "  %y = add %x, 1 : tensor<8xi32>\n"
				 "  %c = lt 0, 1 : index\n"
				 "  %z = if %c -> (tensor<8xi32>) {\n"
				 "    %t = add %y, %y : tensor<8xi32>\n"
				 "    yield %t\n"
				 "  } else {\n"
				 "    yield %x\n"
				 "  }\n"
				 "  %r = for %i = 0 to 3 iter(%acc = %z) -> (tensor<8xi32>) {\n"
				 "    %a = add %acc, %y : tensor<8xi32>\n"
				 "    yield %a\n"
				 "  }\n"
				 "  return %r\n"
				 "}\n", INS(mk1(DT_I32, 8, one)), &small, 0, &e),
			 5 * 32 + 8);
	ck_assert(e == 10);
}
END_TEST

/* A 6-op chain on 2^20 f32 (4 MiB a tensor) under a 16 MiB limit: held to
 * the end of the block it needed 28 MiB and failed; now 12 MiB. */
START_TEST(limit_bytes_chain)
{
	const Limits lim = {.max_elems = 1 << 20, .max_bytes = 16 << 20,
			    .max_trips = 10, .max_depth = 3};
	int64_t n = 1 << 20;
	Tensor *x = tensor_new(DT_F32, 1, &n);
	double e;

	for (int64_t i = 0; i < n; i++)
		tensor_setf(x, i, (double)(i % 7));
	ck_assert_int_eq(peak_of("func @main(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {\n"
				 "  %a = add %x, 1.0 : tensor<1048576xf32>\n"
				 "  %b = mul %a, 2.0 : tensor<1048576xf32>\n"
				 "  %c = sub %b, %x : tensor<1048576xf32>\n"
				 "  %d = mul %c, %c : tensor<1048576xf32>\n"
				 "  %e = add %d, 0.5 : tensor<1048576xf32>\n"
				 "  %f = neg %e : tensor<1048576xf32>\n"
				 "  return %f\n"
				 "}\n", INS(x), &lim, 1048574, &e),
			 3 * (4 << 20));
	/* element 1048574 holds 1048574 % 7 = 2: -(((2 + 1) * 2 - 2)^2 + 0.5) */
	ck_assert(e == -16.5);
}
END_TEST

START_TEST(limit_trips)
{
	/* 6 + 5 trips: the 11th trip fails, in the second loop */
	expect_err_lim("func @main(%x: index) -> (index, index) {\n"
		       "  %r = for %i = 0 to 6 iter(%a = %x) -> (index) {\n"
		       "    %b = add %a, 1 : index\n"
		       "    yield %b\n"
		       "  }\n"
		       "  %s = for %j = 0 to 5 iter(%c = %r) -> (index) {\n"
		       "    yield %c\n"
		       "  }\n"
		       "  return %r, %s\n"
		       "}\n",
		       true, INS(scalar(DT_INDEX, 0)), &small, 6, 3,
		       "loop trip limit of 10 reached");
}
END_TEST

/* generate: the body once per element, row-major; an insert into a
 * captured tensor makes a new tensor each element (value semantics);
 * dynamic sizes; each element counts as a trip. */
START_TEST(generate_elements)
{
	expect_run("func @main(%t: tensor<3xi32>, %n: index) -> (tensor<2x3xi32>, tensor<?xi32>) {\n"
		   "  %g = generate [%i, %j] : tensor<2x3xi32> {\n"
		   "    %u = insert 100 into %t[%j] : tensor<3xi32>\n"
		   "    %a = extract %u[0] : i32\n"
		   "    %b = extract %t[%j] : i32\n"
		   "    %s = add %a, %b : i32\n"
		   "    yield %s\n"
		   "  }\n"
		   "  %h = generate(%n) [%k] : tensor<?xi32> {\n"
		   "    %c = extract %t[%k] : i32\n"
		   "    yield %c\n"
		   "  }\n"
		   "  return %g, %h\n"
		   "}\n",
		   INS(mk1(DT_I32, 3, V(1, 2, 3)), scalar(DT_INDEX, 2)),
		   WANT("2x3xi32: 101 3 4 101 3 4", "2xi32: 1 2"));
}
END_TEST

START_TEST(generate_trips)
{
	/* 4 elements, 2 trips, 5 elements: the 11th trip is the last
	 * element of the second generate */
	expect_err_lim("func @main(%x: index) -> (tensor<4xindex>, tensor<5xindex>) {\n"
		       "  %g = generate [%i] : tensor<4xindex> {\n"
		       "    yield %x\n"
		       "  }\n"
		       "  %r = for %k = 0 to 2 iter(%a = %x) -> (index) {\n"
		       "    yield %a\n"
		       "  }\n"
		       "  %h = generate [%j] : tensor<5xindex> {\n"
		       "    yield %r\n"
		       "  }\n"
		       "  return %g, %h\n"
		       "}\n",
		       true, INS(scalar(DT_INDEX, 0)), &small, 8, 3,
		       "loop trip limit of 10 reached (generate elements count "
		       "as trips)");
}
END_TEST

START_TEST(limit_depth)
{
	expect_err_lim(fact_src, true, INS(scalar(DT_I64, 5)), &small, 8, 5,
		       "call depth limit of 3 reached");
	expect_err_lim(fact_src, true, INS(scalar(DT_I64, 70)), NULL, 8, 5,
		       "call depth limit of 64 reached");
}
END_TEST

/* ------------------------------------------------- allocation failure */

static const char *oom_src =
	"func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
	"  %y = neg %x : tensor<4xf32>\n"
	"  return %y\n"
	"}\n"
	"func @main(%x: tensor<4xf32>, %w: tensor<2x2xf32>) -> (tensor<4xf32>,"
	" tensor<2x2xf32>, tensor<f32>) {\n"
	"  %e = empty : tensor<4xf32>\n"
	"  %r = for %i = 0 to 3 iter(%acc = %e) -> (tensor<4xf32>) {\n"
	"    %c = lt %i, 1 : index\n"
	"    %t = if %c -> (tensor<4xf32>) {\n"
	"      %s = extract_slice %x[%i] [2] [2] : tensor<2xf32>\n"
	"      %u = insert_slice %s into %acc[%i] [2] [1] : tensor<4xf32>\n"
	"      yield %u\n"
	"    } else {\n"
	"      %v = call @g(%acc)\n"
	"      %k = insert 1.5 into %v[3] : tensor<4xf32>\n"
	"      yield %k\n"
	"    }\n"
	"    yield %t\n"
	"  }\n"
	"  %f = async stream 1 -> (tensor<2x2xf32>) {\n"
	"    %z = empty : tensor<2x2xf32>\n"
	"    %zf = fill 0.0 into %z : tensor<2x2xf32>\n"
	"    %m = matmul %w, %w into %zf : tensor<2x2xf32>\n"
	"    %tt = transpose %m [1, 0] into %z : tensor<2x2xf32>\n"
	"    yield %tt\n"
	"  }\n"
	"  %q = await %f\n"
	"  %z0 = const 0.0 : f32\n"
	"  %e0 = empty : tensor<f32>\n"
	"  %zz = fill %z0 into %e0 : tensor<f32>\n"
	"  %sm = reduce.sum %x [0] into %zz : tensor<f32>\n"
		"  %cl = clone %q : tensor<2x2xf32>\n"
	"  return %r, %cl, %sm\n"
	"}\n";

START_TEST(alloc_failure)
{
	Tensor *x = mk1(DT_F32, 4, V(1, 2, 3, 4));
	Tensor *w = mk(DT_F32, 2, (int64_t[]){2, 2}, V(1, 2, 3, 4));
	Tensor *ins[] = {x, w};
	Program *p = parse_ok(oom_src, true);
	const Func *mainf = prog_func(p, "main");
	long base = mem_live_blocks();
	int fails = 0;

	for (long n = 0;; n++) {
		Diag d = {{0, 0}, ""};
		Tensor **outs = NULL;
		int nouts = 0, rc;
		char got[256];

		mem_fail_after(n);
		rc = ref_run(p, mainf, ins, NULL, &outs, &nouts, &d);
		mem_fail_after(-1);
		if (rc == 0) {
			ck_assert_int_eq(nouts, 3);
			fmt(outs[0], got, sizeof got);
			ck_assert_str_eq(got, "4xf32: 1 3 undef 1.5");
			fmt(outs[1], got, sizeof got);
			ck_assert_str_eq(got, "2x2xf32: 7 15 10 22");
			fmt(outs[2], got, sizeof got);
			ck_assert_str_eq(got, "f32: 10");
			free_all(outs, nouts);
			mem_free(outs);
			ck_assert_int_eq(mem_live_blocks(), base);
			break;
		}
		fails++;
		ck_assert_str_eq(d.msg, "out of memory");
		ck_assert_int_gt(d.loc.line, 0);
		ck_assert_ptr_null(outs);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert_int_gt(fails, 20);
	prog_free(p);
	tensor_free(x);
	tensor_free(w);
}
END_TEST

/* ------------------------------------------------------------ suites */

static Suite *
ops_suite(void)
{
	Suite *s = suite_create("eval-ops");
	TCase *tc = tcase_create("ops");

	tcase_add_test(tc, seed);
	tcase_add_test(tc, binary_int);
	tcase_add_test(tc, binary_dest_and_i64);
	tcase_add_test(tc, binary_f32_rounding);
	tcase_add_test(tc, unary);
	tcase_add_test(tc, compare);
	tcase_add_test(tc, const_dense_and_splat);
	tcase_add_test(tc, fill_matmul_transpose_reduce);
	tcase_add_test(tc, matmul_int);
	tcase_add_test(tc, slices_and_elements);
	tcase_add_test(tc, shared_results);
	tcase_add_test(tc, poison_elementwise);
	tcase_add_test(tc, poison_matmul_reduce_transpose);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
control_suite(void)
{
	Suite *s = suite_create("eval-control");
	TCase *tc = tcase_create("control");

	tcase_add_test(tc, loop_dynamic_slices);
	tcase_add_test(tc, loop_zero_trips);
	tcase_add_test(tc, loop_step_two);
	tcase_add_test(tc, if_inside_for);
	tcase_add_test(tc, recursion);
	tcase_add_test(tc, call_dynamic_param);
	tcase_add_test(tc, async_two_streams);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
errors_suite(void)
{
	Suite *s = suite_create("eval-errors");
	TCase *tc = tcase_create("errors");

	tcase_add_test(tc, err_elementwise_shape);
	tcase_add_test(tc, err_matmul_shape);
	tcase_add_test(tc, err_extract_slice_bounds);
	tcase_add_test(tc, err_insert_slice_bounds);
	tcase_add_test(tc, err_dynamic_dim_slice);
	tcase_add_test(tc, err_index_bounds);
	tcase_add_test(tc, err_call_arg_shape);
	tcase_add_test(tc, err_input_type);
	tcase_add_test(tc, err_undefined_control);
	tcase_add_test(tc, err_step);
	tcase_add_test(tc, err_empty_dim);
	tcase_add_test(tc, limit_elems);
	tcase_add_test(tc, limit_bytes);
	tcase_add_test(tc, peak_last_use);
	tcase_add_test(tc, limit_bytes_chain);
	tcase_add_test(tc, limit_trips);
	tcase_add_test(tc, limit_depth);
	tcase_add_test(tc, generate_elements);
	tcase_add_test(tc, generate_trips);
	tcase_add_test(tc, alloc_failure);
	tcase_add_test(tc, forall_orders);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){ops_suite(), control_suite(), errors_suite(),
				  NULL});
}
