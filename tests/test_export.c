/* test_export.c: TIR -> MLIR (oracle/mlir/export*.c): exact text of small
 * programs per version, the op map back to TIR values, names, floats,
 * errors with their locations, out of memory; and, when mlir-opt-16/19/22
 * are installed, that they parse a program holding every op. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

static const char *seed_tir =
	"func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"  %y = add %x, 10 : tensor<3xi32>\n"
	"  %z = add %x, %y : tensor<3xi32>\n"
	"  return %z\n"
	"}\n";

static const char *seed_mlir =
	"func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"  %_1 = arith.constant 10 : i32 loc(\"t.yaml\":2:3)\n"
	"  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%x, %_1 : tensor<3xi32>, i32) outs(%x : tensor<3xi32>) {\n"
	"  ^bb0(%_2: i32, %_3: i32, %_4: i32):\n"
	"    %_5 = arith.addi %_2, %_3 : i32 loc(\"t.yaml\":2:3)\n"
	"    linalg.yield %_5 : i32 loc(\"t.yaml\":2:3)\n"
	"  } -> tensor<3xi32> loc(\"t.yaml\":2:3)\n"
	"  %z = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%x, %y : tensor<3xi32>, tensor<3xi32>) outs(%x : tensor<3xi32>) {\n"
	"  ^bb0(%_6: i32, %_7: i32, %_8: i32):\n"
	"    %_9 = arith.addi %_6, %_7 : i32 loc(\"t.yaml\":3:3)\n"
	"    linalg.yield %_9 : i32 loc(\"t.yaml\":3:3)\n"
	"  } -> tensor<3xi32> loc(\"t.yaml\":3:3)\n"
	"  func.return %z : tensor<3xi32> loc(\"t.yaml\":4:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

static const char *ver_tir =
	"func @main(%w: tensor<2xf32> {readonly}, %d: tensor<2xf32>) -> tensor<2xf32> {\n"
	"  %m = max %w, 0.5 : tensor<2xf32>\n"
	"  %c = copy %m into %d : tensor<2xf32>\n"
	"  return %c\n"
	"}\n";

static const char *ver16_mlir =
	"func.func @main(%w: tensor<2xf32> {bufferization.writable = false}, %d: tensor<2xf32>) -> tensor<2xf32> {\n"
	"  %_1 = arith.constant 5.0e-01 : f32 loc(\"t.yaml\":2:3)\n"
	"  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%w, %_1 : tensor<2xf32>, f32) outs(%w : tensor<2xf32>) {\n"
	"  ^bb0(%_2: f32, %_3: f32, %_4: f32):\n"
	"    %_5 = arith.maxf %_2, %_3 : f32 loc(\"t.yaml\":2:3)\n"
	"    linalg.yield %_5 : f32 loc(\"t.yaml\":2:3)\n"
	"  } -> tensor<2xf32> loc(\"t.yaml\":2:3)\n"
	"  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%m : tensor<2xf32>) outs(%d : tensor<2xf32>) {\n"
	"  ^bb0(%_6: f32, %_7: f32):\n"
	"    linalg.yield %_6 : f32 loc(\"t.yaml\":3:3)\n"
	"  } -> tensor<2xf32> loc(\"t.yaml\":3:3)\n"
	"  func.return %c : tensor<2xf32> loc(\"t.yaml\":4:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

static const char *ver22_mlir =
	"func.func @main(%w: tensor<2xf32> {bufferization.writable = false}, %d: tensor<2xf32>) -> tensor<2xf32> {\n"
	"  %_1 = arith.constant 5.0e-01 : f32 loc(\"t.yaml\":2:3)\n"
	"  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%w, %_1 : tensor<2xf32>, f32) outs(%w : tensor<2xf32>) {\n"
	"  ^bb0(%_2: f32, %_3: f32, %_4: f32):\n"
	"    %_5 = arith.maximumf %_2, %_3 : f32 loc(\"t.yaml\":2:3)\n"
	"    linalg.yield %_5 : f32 loc(\"t.yaml\":2:3)\n"
	"  } -> tensor<2xf32> loc(\"t.yaml\":2:3)\n"
	"  %c = bufferization.materialize_in_destination %m in %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc(\"t.yaml\":3:3)\n"
	"  func.return %c : tensor<2xf32> loc(\"t.yaml\":4:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

static const char *names_tir =
	"func @main(%0a: f64, %_1: f32, %x.y: i1) -> (f64, f32, i1) {\n"
	"  %a = add %0a, -0.5 : f64\n"
	"  %b = mul %_1, 1e30 : f32\n"
	"  %c = const dense<[nan, -inf, 0.1]> : tensor<3xf32>\n"
	"  %d = const nan : f64\n"
	"  %e = neg %x.y : i1\n"
	"  return %a, %b, %e\n"
	"}\n";

static const char *names_mlir =
	"func.func @main(%__v0a: f64, %_1: f32, %x.y: i1) -> (f64, f32, i1) {\n"
	"  %__1 = arith.constant -5.0e-01 : f64 loc(\"t.yaml\":2:3)\n"
	"  %a = arith.addf %__v0a, %__1 : f64 loc(\"t.yaml\":2:3)\n"
	"  %__2 = arith.constant 1.0e+30 : f32 loc(\"t.yaml\":3:3)\n"
	"  %b = arith.mulf %_1, %__2 : f32 loc(\"t.yaml\":3:3)\n"
	"  %c = arith.constant dense<[0x7FC00000, 0xFF800000, 1.0e-01]> : tensor<3xf32> loc(\"t.yaml\":4:3)\n"
	"  %d = arith.constant 0x7FF8000000000000 : f64 loc(\"t.yaml\":5:3)\n"
	"  %__3 = arith.constant false loc(\"t.yaml\":6:3)\n"
	"  %e = arith.subi %__3, %x.y : i1 loc(\"t.yaml\":6:3)\n"
	"  func.return %a, %b, %e : f64, f32, i1 loc(\"t.yaml\":7:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

/* reduce, literal loop bounds, regions, async with and without values */
static const char *regions_tir =
	"func @main(%x: tensor<2x3xi32>, %c: i1, %n: index) -> (tensor<2xi32>, tensor<2x3xi32>) {\n"
	"  %z = const dense<0> : tensor<2xi32>\n"
	"  %s = reduce.sum %x [1] into %z : tensor<2xi32>\n"
	"  %l = for %i = 0 to %n step 2 iter(%a = %x) -> (tensor<2x3xi32>) {\n"
	"    %r = if %c -> (tensor<2x3xi32>) {\n"
	"      %b = relu %a : tensor<2x3xi32>\n"
	"      yield %b\n"
	"    } else {\n"
	"      yield %a\n"
	"    }\n"
	"    yield %r\n"
	"  }\n"
	"  %f = async stream 2 -> (tensor<2x3xi32>) {\n"
	"    yield %l\n"
	"  }\n"
	"  %t = async stream 3 -> () {\n"
	"  }\n"
	"  %w = await %f\n"
	"  await %t\n"
	"  return %s, %w\n"
	"}\n";

static const char *regions_mlir =
	"func.func @main(%x: tensor<2x3xi32>, %c: i1, %n: index) -> (tensor<2xi32>, tensor<2x3xi32>) {\n"
	"  %z = arith.constant dense<0> : tensor<2xi32> loc(\"t.yaml\":2:3)\n"
	"  %s = linalg.reduce ins(%x : tensor<2x3xi32>) outs(%z : tensor<2xi32>) dimensions = [1]\n"
	"    (%_1: i32, %_2: i32) {\n"
	"      %_3 = arith.addi %_1, %_2 : i32 loc(\"t.yaml\":3:3)\n"
	"      linalg.yield %_3 : i32 loc(\"t.yaml\":3:3)\n"
	"    } loc(\"t.yaml\":3:3)\n"
	"  %_4 = arith.constant 0 : index loc(\"t.yaml\":4:3)\n"
	"  %_5 = arith.constant 2 : index loc(\"t.yaml\":4:3)\n"
	"  %l = scf.for %i = %_4 to %n step %_5 iter_args(%a = %x) -> tensor<2x3xi32> {\n"
	"    %r = scf.if %c -> tensor<2x3xi32> {\n"
	"      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%a : tensor<2x3xi32>) outs(%a : tensor<2x3xi32>) {\n"
	"      ^bb0(%_6: i32, %_7: i32):\n"
	"        %_8 = arith.constant 0 : i32 loc(\"t.yaml\":6:7)\n"
	"        %_9 = arith.maxsi %_6, %_8 : i32 loc(\"t.yaml\":6:7)\n"
	"        linalg.yield %_9 : i32 loc(\"t.yaml\":6:7)\n"
	"      } -> tensor<2x3xi32> loc(\"t.yaml\":6:7)\n"
	"      scf.yield %b : tensor<2x3xi32> loc(\"t.yaml\":7:7)\n"
	"    } else {\n"
	"      scf.yield %a : tensor<2x3xi32> loc(\"t.yaml\":9:7)\n"
	"    } loc(\"t.yaml\":5:5)\n"
	"    scf.yield %r : tensor<2x3xi32> loc(\"t.yaml\":11:5)\n"
	"  } loc(\"t.yaml\":4:3)\n"
	"  %f, %_10 = async.execute -> !async.value<tensor<2x3xi32>> attributes {bufdiff.stream = 2 : i64} {\n"
	"    async.yield %l : tensor<2x3xi32> loc(\"t.yaml\":14:5)\n"
	"  } loc(\"t.yaml\":13:3)\n"
	"  %t = async.execute attributes {bufdiff.stream = 3 : i64} {\n"
	"    async.yield loc(\"t.yaml\":17:3)\n"
	"  } loc(\"t.yaml\":16:3)\n"
	"  %w = async.await %_10 : !async.value<tensor<2x3xi32>> loc(\"t.yaml\":18:3)\n"
	"  async.await %t : !async.token loc(\"t.yaml\":19:3)\n"
	"  func.return %s, %w : tensor<2xi32>, tensor<2x3xi32> loc(\"t.yaml\":20:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

/* a function name MLIR only takes quoted */
static const char *sym_tir =
	"func @main(%x: i32) -> i32 {\n"
	"  %r = call @1-f(%x)\n"
	"  return %r\n"
	"}\n"
	"func @1-f(%a: i32) -> i32 {\n"
	"  return %a\n"
	"}\n";

static const char *sym_mlir =
	"func.func @main(%x: i32) -> i32 {\n"
	"  %r = func.call @\"1-f\"(%x) : (i32) -> i32 loc(\"t.yaml\":2:3)\n"
	"  func.return %r : i32 loc(\"t.yaml\":3:3)\n"
	"} loc(\"t.yaml\":1:1)\n"
	"\n"
	"func.func @\"1-f\"(%a: i32) -> i32 {\n"
	"  func.return %a : i32 loc(\"t.yaml\":6:3)\n"
	"} loc(\"t.yaml\":5:1)\n";

/* a body of several blocks: labels (one MLIR takes only with the
 * made-up prefix), block arguments, cf.cond_br and cf.br with their locs */
static const char *cfg_tir =
	"func @main(%t: tensor<2xi32>, %c: i1) -> (tensor<2xi32>, i32) {\n"
	"  cond_br %c, ^1w, ^join(%t)\n"
	"^1w:\n"
	"  %r = insert 100 into %t[0] : tensor<2xi32>\n"
	"  br ^join(%r)\n"
	"^join(%a: tensor<2xi32>):\n"
	"  %e = extract %t[0] : i32\n"
	"  return %a, %e\n"
	"}\n";

static const char *cfg_mlir =
	"func.func @main(%t: tensor<2xi32>, %c: i1) -> (tensor<2xi32>, i32) {\n"
	"  cf.cond_br %c, ^_b1w, ^join(%t : tensor<2xi32>) loc(\"t.yaml\":2:3)\n"
	"^_b1w:\n"
	"  %_1 = arith.constant 100 : i32 loc(\"t.yaml\":4:3)\n"
	"  %_2 = arith.constant 0 : index loc(\"t.yaml\":4:3)\n"
	"  %r = tensor.insert %_1 into %t[%_2] : tensor<2xi32> loc(\"t.yaml\":4:3)\n"
	"  cf.br ^join(%r : tensor<2xi32>) loc(\"t.yaml\":5:3)\n"
	"^join(%a: tensor<2xi32>):\n"
	"  %_3 = arith.constant 0 : index loc(\"t.yaml\":7:3)\n"
	"  %e = tensor.extract %t[%_3] : tensor<2xi32> loc(\"t.yaml\":7:3)\n"
	"  func.return %a, %e : tensor<2xi32>, i32 loc(\"t.yaml\":8:3)\n"
	"} loc(\"t.yaml\":1:1)\n";

/* a loop of blocks: a back edge, two arguments, a cond_br passing values
 * on both edges */
static const char *cfg_loop_tir =
	"func @main(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
	"  %i0 = const 0 : index\n"
	"  br ^head(%i0, %t)\n"
	"^head(%i: index, %acc: tensor<4xf32>):\n"
	"  %more = lt %i, %n : index\n"
	"  %i2 = add %i, 1 : index\n"
	"  %b = add %acc, 1.0 : tensor<4xf32>\n"
	"  cond_br %more, ^head(%i2, %b), ^exit(%acc)\n"
	"^exit(%r: tensor<4xf32>):\n"
	"  return %r\n"
	"}\n";

/* futures carried by a for (two values; a bare future<>) and by block
 * arguments: each is its token and values side by side */
static const char *carried_tir =
	"func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
	"  %f0 = async stream 1 -> (tensor<2xf32>, f32) {\n"
	"    %c = const 1.0 : f32\n"
	"    yield %x, %c\n"
	"  }\n"
	"  %t0 = async stream 2 -> () {\n"
	"    yield\n"
	"  }\n"
	"  %rf, %rt = for %i = 0 to 2 step 1 iter(%f = %f0, %t = %t0) -> "
	"(future<tensor<2xf32>, f32>, future<>) {\n"
	"    await %t\n"
	"    %a, %s = await %f\n"
	"    %g = async stream 1 -> (tensor<2xf32>, f32) {\n"
	"      %b = add %a, %s : tensor<2xf32>\n"
	"      yield %b, %s\n"
	"    }\n"
	"    yield %g, %t\n"
	"  }\n"
	"  br ^join(%rf)\n"
	"^join(%h: future<tensor<2xf32>, f32>):\n"
	"  await %rt\n"
	"  %r, %q = await %h\n"
	"  return %r\n"
	"}\n";

/* every op (test_print.c's program, made valid) */
static const char *all_tir =
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
	"  %x2 = const dense<[7, 8]> : tensor<2xi32>\n"
	"  %r = reduce.sum %d [1] into %x2 : tensor<2xi32>\n"
	"  %c0 = const dense<0> : tensor<i32>\n"
	"  %r2 = reduce.max %d [0, 1] into %c0 : tensor<i32>\n"
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
	"    %acc2 = add %acc, 1 : tensor<3xi32>\n"
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
	"}\n";

static const char *future_call_tir =
	"func @main(%x: f32) -> f32 {\n"
	"  %f = async stream 0 -> (f32) {\n"
	"    yield %x\n"
	"  }\n"
	"  %r = call @g(%f)\n"
	"  return %r\n"
	"}\n"
	"func @g(%f: future<f32>) -> f32 {\n"
	"  %a = await %f\n"
	"  return %a\n"
	"}\n";

static const char *reduce_scalar_tir =
	"func @main(%d: tensor<2xi32>, %c: i32) -> i32 {\n"
	"  %r = reduce.sum %d [0] into %c : i32\n"
	"  return %r\n"
	"}\n";

static const char *if_future_tir =
	"func @main(%c: i1, %x: f32) -> f32 {\n"
	"  %r = if %c -> (future<f32>) {\n"
	"    %f = async stream 0 -> (f32) {\n"
	"      yield %x\n"
	"    }\n"
	"    yield %f\n"
	"  } else {\n"
	"    %g = async stream 0 -> (f32) {\n"
	"      yield %x\n"
	"    }\n"
	"    yield %g\n"
	"  }\n"
	"  %a = await %r\n"
	"  return %a\n"
	"}\n";

/* p's MLIR for version n (mem_alloc'ed); NULL with d on error. */
static char *
export(const char *tir, int n, Arena *a, ExportMap *m, Diag *d)
{
	Program *p = tu_parse(tir, d);
	Str b = {0};
	char *s = NULL;

	ck_assert_msg(p, "%d:%d: %s", d->loc.line, d->loc.col, d->msg);
	if (!mlir_export(p, "t.yaml", mlir_version(n), &b, a, m, d))
		s = str_take(&b);
	str_free(&b);
	prog_free(p);
	return s;
}

static void
check_text(const char *tir, int n, const char *want)
{
	Diag d;
	char *s = export(tir, n, NULL, NULL, &d);

	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_str_eq(s, want);
	mem_free(s);
}

START_TEST(seed_text)
{
	check_text(seed_tir, 22, seed_mlir);
	check_text(seed_tir, 19, seed_mlir); /* nothing version-specific */
}
END_TEST

START_TEST(regions_text)
{
	check_text(regions_tir, 19, regions_mlir);
	check_text(regions_tir, 22, regions_mlir);
}
END_TEST

START_TEST(generate_text)
{
	static const char *tir =
		"func @main(%t: tensor<4xi32>, %n: index) -> tensor<?x4xi32> {\n"
		"  %g = generate(%n) [%i, %j] : tensor<?x4xi32> {\n"
		"    %e = extract %t[%j] : i32\n"
		"    yield %e\n"
		"  }\n"
		"  return %g\n"
		"}\n";
	static const char *mlir =
		"func.func @main(%t: tensor<4xi32>, %n: index) -> tensor<?x4xi32> {\n"
		"  %g = tensor.generate %n {\n"
		"  ^bb0(%i: index, %j: index):\n"
		"    %e = tensor.extract %t[%j] : tensor<4xi32> loc(\"t.yaml\":3:5)\n"
		"    tensor.yield %e : i32 loc(\"t.yaml\":4:5)\n"
		"  } : tensor<?x4xi32> loc(\"t.yaml\":2:3)\n"
		"  func.return %g : tensor<?x4xi32> loc(\"t.yaml\":6:3)\n"
		"} loc(\"t.yaml\":1:1)\n";

	check_text(tir, 16, mlir);
	check_text(tir, 19, mlir);
	check_text(tir, 22, mlir);
}
END_TEST

START_TEST(versions_differ)
{
	check_text(ver_tir, 16, ver16_mlir);
	check_text(ver_tir, 19, ver22_mlir);
	check_text(ver_tir, 22, ver22_mlir);
	ck_assert_ptr_null(mlir_version(17));
	ck_assert_str_eq(mlir_version(16)->analysis_options, "allow-return-allocs");
	ck_assert_str_eq(mlir_version(22)->analysis_options,
			 "allow-return-allocs-from-loops");
}
END_TEST

/* One text for every version: cf is the same in 16, 19 and 22. */
START_TEST(cfg_text)
{
	check_text(cfg_tir, 16, cfg_mlir);
	check_text(cfg_tir, 19, cfg_mlir);
	check_text(cfg_tir, 22, cfg_mlir);
}
END_TEST

START_TEST(names_and_floats)
{
	check_text(names_tir, 22, names_mlir);
	check_text(sym_tir, 16, sym_mlir);
}
END_TEST

static const char *
vname(const Value *v)
{
	return v ? v->name : "-";
}

/* "linalg.generic [x,-,x] -> y(2)" */
static void
check_xop(const ExportOp *x, const char *want)
{
	char buf[256];
	int n = fmt_snprintf(buf, sizeof buf, "%s [", x->mlir);

	for (int i = 0; i < x->noperands; i++)
		n += fmt_snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
			      vname(x->operands[i]));
	n += fmt_snprintf(buf + n, sizeof buf - n, "] ->");
	for (int j = 0; j < x->nresults; j++)
		n += fmt_snprintf(buf + n, sizeof buf - n, " %s(%d)",
			      vname(x->results[j]), x->tied[j]);
	ck_assert_str_eq(buf, want);
}

START_TEST(seed_map)
{
	Arena *a = arena_new();
	ExportMap m;
	Diag d;
	Program *p = tu_parse(seed_tir, &d);
	Str b = {0};
	const Op *y = p->funcs[0]->body->ops[0];

	ck_assert_int_eq(mlir_export(p, "t.yaml", mlir_version(22), &b, a, &m,
				     &d), 0);
	ck_assert_int_eq(m.nops, 3);
	check_xop(&m.ops[0], "linalg.generic [x,-,x] -> y(2)");
	check_xop(&m.ops[1], "linalg.generic [x,y,x] -> z(2)");
	check_xop(&m.ops[2], "func.return [z] ->");
	ck_assert_ptr_eq(export_find(&m, y, "linalg.generic"), &m.ops[0]);
	ck_assert_ptr_null(export_find(&m, y, "linalg.add"));
	str_free(&b);
	prog_free(p);
	arena_free(a);
}
END_TEST

/* Branches in the map: the condition, then each successor's operands
 * (One-Shot's words on a cf.br read back per edge). */
START_TEST(cfg_map)
{
	Arena *a = arena_new();
	ExportMap m;
	Diag d;
	Program *p = tu_parse(cfg_loop_tir, &d);
	Str b = {0};
	const Func *f = p->funcs[0];

	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	ck_assert_int_eq(mlir_export(p, "t.yaml", mlir_version(22), &b, a, &m,
				     &d), 0);
	check_xop(export_find(&m, f->blocks[0]->ops[1], "cf.br"),
		  "cf.br [i0,t] ->");
	check_xop(export_find(&m, f->blocks[1]->ops[3], "cf.cond_br"),
		  "cf.cond_br [more,i2,b,acc] ->");
	ck_assert_ptr_nonnull(strstr(b.s, "cf.cond_br %more, ^head(%i2, %b : "
				     "index, tensor<4xf32>), ^exit(%acc : "
				     "tensor<4xf32>) loc(\"t.yaml\":8:3)\n"));
	ck_assert_ptr_nonnull(strstr(b.s, "\n^head(%i: index, %acc: "
				     "tensor<4xf32>):\n"));
	str_free(&b);
	prog_free(p);
	arena_free(a);
}
END_TEST

/* A carried future in the text and the map: the token and each value
 * are MLIR operands and results of their own, all standing for the TIR
 * future; its values get one name each (`%_8`, `%_9`; a block
 * argument's are named before the body, `%_1`), an async.execute's keep
 * `%_3#0`. */
START_TEST(carried_map)
{
	Arena *a = arena_new();
	ExportMap m;
	Diag d;
	Program *p = tu_parse(carried_tir, &d);
	Str b = {0};
	const Func *f = p->funcs[0];
	const Op *loop = f->body->ops[2];

	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	ck_assert_int_eq(mlir_export(p, "t.yaml", mlir_version(22), &b, a, &m,
				     &d), 0);
	check_xop(export_find(&m, loop, "scf.for"),
		  "scf.for [-,-,-,f0,f0,f0,t0] -> rf(3) rf(4) rf(5) rt(6)");
	check_xop(export_find(&m, loop->body->ops[3], "scf.yield"),
		  "scf.yield [g,g,g,t] ->");
	check_xop(export_find(&m, f->body->ops[3], "cf.br"),
		  "cf.br [rf,rf,rf] ->");
	ck_assert_ptr_nonnull(strstr(b.s, "  %rf, %_10, %_11, %rt = scf.for %i = "
		"%_5 to %_6 step %_7 iter_args(%f = %f0, %_8 = %_3#0, %_9 = "
		"%_3#1, %t = %t0) -> (!async.token, !async.value<tensor<2xf32>>, "
		"!async.value<f32>, !async.token) {\n"));
	ck_assert_ptr_nonnull(strstr(b.s, "    %a = async.await %_8 : "
				     "!async.value<tensor<2xf32>>"));
	ck_assert_ptr_nonnull(strstr(b.s, "    scf.yield %g, %_12#0, %_12#1, "
		"%t : !async.token, !async.value<tensor<2xf32>>, "
		"!async.value<f32>, !async.token loc"));
	ck_assert_ptr_nonnull(strstr(b.s, "  cf.br ^join(%rf, %_10, %_11 : "
		"!async.token, !async.value<tensor<2xf32>>, !async.value<f32>) "
		"loc"));
	ck_assert_ptr_nonnull(strstr(b.s, "\n^join(%h: !async.token, %_1: "
		"!async.value<tensor<2xf32>>, %_2: !async.value<f32>):\n"));
	ck_assert_ptr_nonnull(strstr(b.s, "  %q = async.await %_2 : "
				     "!async.value<f32>"));
	str_free(&b);
	prog_free(p);
	arena_free(a);
}
END_TEST

/* MLIR operand order, per op: ins then outs, the source before the
 * destination, offsets last; scalar neg is 0 - x. */
START_TEST(every_op_map)
{
	static const char *const want[][2] = {
		{"18", "arith.subi [n,-] -> j(-1)"},
		{"25", "linalg.fill [-,e] -> f(1)"},
		{"26", "linalg.matmul [d,d,d] -> m(2)"},
		{"27", "linalg.transpose [d,d] -> tr(1)"},
		{"29", "linalg.reduce [d,x2] -> r(1)"},
		{"31", "linalg.reduce [d,c0] -> r2(1)"},
		{"32", "tensor.extract_slice [d,j] -> sl(0)"},
		{"33", "tensor.insert_slice [sl,d,j] -> is(1)"},
		{"34", "tensor.extract [w,-] -> v(-1)"},
		{"35", "tensor.insert [v,w,j] -> ins(1)"},
		{"36", "bufferization.materialize_in_destination [w,e] -> cp(1)"},
		{"37", "bufferization.alloc_tensor [w] -> cl(-1)"},
		{"38", "func.call [x] -> a0(-1) a1(-1)"},
		{"39", "scf.if [b0] -> i1(-1)"},
		{"45", "scf.for [-,n,-,x] -> lp(3)"},
		{"49", "async.execute [] -> fu(-1) fu(-1) fu(-1)"},
		{"52", "async.await [fu] -> o0(-1)"},
	};
	Arena *a = arena_new();
	ExportMap m;
	Diag d;
	Program *p = tu_parse(all_tir, &d);
	Str b = {0};

	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	ck_assert_int_eq(mlir_export(p, "t.yaml", mlir_version(22), &b, a, &m,
				     &d), 0);
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		const ExportOp *x = NULL;
		const char *name = strchr(want[k][1], ' ');
		char mlir[64];

		fmt_snprintf(mlir, sizeof mlir, "%.*s", (int)(name - want[k][1]),
			 want[k][1]);
		for (int i = 0; i < m.nops && !x; i++)
			if (m.ops[i].op->loc.line == atoi(want[k][0]))
				x = export_find(&m, m.ops[i].op, mlir);
		ck_assert_msg(x, "line %s: no %s", want[k][0], mlir);
		check_xop(x, want[k][1]);
	}
	str_free(&b);
	prog_free(p);
	arena_free(a);
}
END_TEST

static void
check_error(const char *tir, int line, int col, const char *msg)
{
	Arena *a = arena_new();
	ExportMap m = {(ExportOp *)1, 7, {0}};
	Diag d;
	char *s = export(tir, 22, a, &m, &d);

	ck_assert_ptr_null(s);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(m.nops, 0);
	arena_free(a);
}

/* Programs the verifier would reject still export or fail cleanly. */
START_TEST(errors)
{
	check_error(future_call_tir, 5, 16,
		    "cannot export call: future %f used other than by await");
	check_error(if_future_tir, 2, 3,
		    "cannot export if: a future as a value of if");
	check_error(reduce_scalar_tir, 2, 3, "cannot export reduce.sum into a "
		    "scalar (linalg.reduce needs a tensor<i32>)");
}
END_TEST

START_TEST(out_of_memory)
{
	Diag d;
	Program *p = tu_parse(_i == 2 ? carried_tir : _i ? cfg_loop_tir
						     : all_tir, &d);
	int failures = 0;

	for (long n = 0;; n++) {
		long start = mem_live_blocks();
		Arena *a = arena_new();
		ExportMap m;
		Str b = {0};
		int rc;

		ck_assert(a);
		mem_fail_after(n);
		rc = mlir_export(p, "t.yaml", mlir_version(16), &b, a, &m, &d);
		mem_fail_after(-1);
		str_free(&b);
		arena_free(a);
		ck_assert_msg(mem_live_blocks() == start, "n=%ld: leak", n);
		if (!rc)
			break;
		ck_assert_str_eq(d.msg, "out of memory");
		ck_assert_int_eq(d.loc.line, 0);
		failures++;
		ck_assert(n < 100000);
	}
	ck_assert_int_gt(failures, _i ? 2 : 3);
	prog_free(p);
}
END_TEST

/* mlir-opt-N parses and verifies the every-op program (skipped, said so,
 * when it is not installed). */
/* The native variant (export_native.c): a launch's tensor value through
 * a memref, its scalar an async value; late: a gate token opened just
 * before the await; sync: awaited where it is made; a carried future as
 * its memref. */
static const char *native_tir =
	"func @main(%x: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32) {\n"
	"  %f = async stream 1 -> (tensor<4xf32>, f32) {\n"
	"    %a = add %x, %x : tensor<4xf32>\n"
	"    yield %a, %s\n"
	"  }\n"
	"  %h = mul %x, 3.0 : tensor<4xf32>\n"
	"  %a2, %s2 = await %f\n"
	"  return %a2, %s2\n"
	"}\n";

static char *
export_native(const char *tir, NativeSched sched, Diag *d)
{
	Program *p = tu_parse(tir, d);
	Str b = {0};
	char *s = NULL;

	ck_assert_msg(p, "%d:%d: %s", d->loc.line, d->loc.col, d->msg);
	if (!mlir_export_native(p, "t.yaml", mlir_version(22), sched, &b, d))
		s = str_take(&b);
	str_free(&b);
	prog_free(p);
	return s;
}

static void
has_lines(const char *s, const char *const *want)
{
	for (int i = 0; want[i]; i++)
		ck_assert_msg(strstr(s, want[i]), "no '%s' in\n%s", want[i], s);
}

START_TEST(native_text)
{
	static const char *const late[] = {
		"  %_2 = memref.alloc() : memref<4xf32> loc(\"t.yaml\":2:3)\n"
		"  %_4 = async.runtime.create : !async.token loc(\"t.yaml\":2:3)\n"
		"  %f, %_1 = async.execute [%_4] -> !async.value<f32> attributes "
		"{bufdiff.stream = 1 : i64} {\n",
		"    bufferization.materialize_in_destination %a in restrict "
		"writable %_2 : (tensor<4xf32>, memref<4xf32>) -> () "
		"loc(\"t.yaml\":4:5)\n"
		"    async.yield %s : f32 loc(\"t.yaml\":4:5)\n",
		"  async.runtime.set_available %_4 : !async.token loc(\"t.yaml\":7:3)\n"
		"  async.await %f : !async.token loc(\"t.yaml\":7:3)\n"
		"  %a2 = bufferization.to_tensor %_2 restrict : memref<4xf32> to "
		"tensor<4xf32> loc(\"t.yaml\":7:3)\n"
		"  %s2 = async.await %_1 : !async.value<f32> loc(\"t.yaml\":7:3)\n",
		NULL,
	};
	static const char *const sync[] = {
		"  } loc(\"t.yaml\":2:3)\n"
		"  async.await %f : !async.token loc(\"t.yaml\":2:3)\n",
		"  %a2 = bufferization.to_tensor %_2 restrict : memref<4xf32> to "
		"tensor<4xf32> loc(\"t.yaml\":7:3)\n",
		NULL,
	};
	static const char *const carried[] = {
		"iter_args(%_8 = %_2, %acc = %x) -> (memref<4xf32>, tensor<4xf32>)",
		"%a = bufferization.to_tensor %_8 restrict : memref<4xf32> to "
		"tensor<4xf32>",
		NULL,
	};
	static const char *const dynamic[] = {
		"  %f, %_1 = async.execute -> !async.value<memref<?xi32>> ",
		"    %_3 = arith.constant 0 : index loc(\"t.yaml\":3:5)\n"
		"    %_4 = tensor.dim %p, %_3 : tensor<?xi32> loc(\"t.yaml\":3:5)\n"
		"    %_5 = memref.alloc(%_4) : memref<?xi32> loc(\"t.yaml\":3:5)\n",
		"    async.yield %_5 : memref<?xi32> loc(\"t.yaml\":3:5)\n",
		"  %_6 = async.await %_1 : !async.value<memref<?xi32>> "
		"loc(\"t.yaml\":5:3)\n"
		"  %q = bufferization.to_tensor %_6 restrict : memref<?xi32> to "
		"tensor<?xi32> loc(\"t.yaml\":5:3)\n",
		NULL,
	};
	static const char *const token[] = {
		"  async.await %f0 : !async.token loc(\"t.yaml\":5:3)\n"
		"  %_3 = arith.constant true loc(\"t.yaml\":5:3)\n",
		"iter_args(%_7 = %_3) -> i1 {\n",
		"    scf.yield %_7 : i1 loc(\"t.yaml\":6:5)\n",
		NULL,
	};
	static const char *carried_loop =
		"func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  %f0 = async stream 0 -> (tensor<4xf32>) {\n"
		"    yield %x\n"
		"  }\n"
		"  %rf, %r = for %i = 0 to 2 step 1 iter(%g = %f0, %acc = %x) -> "
		"(future<tensor<4xf32>>, tensor<4xf32>) {\n"
		"    %a = await %g\n"
		"    %b = add %acc, %a : tensor<4xf32>\n"
		"    %g2 = async stream 0 -> (tensor<4xf32>) {\n"
		"      yield %b\n"
		"    }\n"
		"    yield %g2, %b\n"
		"  }\n"
		"  %c = await %rf\n"
		"  return %c\n"
		"}\n";
	Diag d;
	char *s = export_native(native_tir, NATIVE_LATE, &d);

	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	has_lines(s, late);
	mem_free(s);
	s = export_native(native_tir, NATIVE_SYNC, &d);
	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	has_lines(s, sync);
	ck_assert(!strstr(s, "async.runtime"));
	ck_assert(!strstr(s, "async.await %f : !async.token loc(\"t.yaml\":7:3)"));
	mem_free(s);
	s = export_native(carried_loop, NATIVE_LATE, &d);
	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	has_lines(s, carried);
	mem_free(s);
	/* a dynamic tensor: its memref made in the launch, an async value */
	s = export_native("func @main(%p: tensor<?xi32>) -> tensor<?xi32> {\n"
			  "  %f = async stream 0 -> (tensor<?xi32>) {\n"
			  "    yield %p\n"
			  "  }\n"
			  "  %q = await %f\n"
			  "  return %q\n"
			  "}\n", NATIVE_SYNC, &d);
	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	has_lines(s, dynamic);
	mem_free(s);
	/* a token alone is carried as an i1 stand-in */
	s = export_native("func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
			  "  %f0 = async stream 0 {\n"
			  "    yield\n"
			  "  }\n"
			  "  %rf = for %i = 0 to 2 step 1 iter(%g = %f0) -> "
			  "(future<>) {\n"
			  "    yield %g\n"
			  "  }\n"
			  "  await %rf\n"
			  "  return %x\n"
			  "}\n", NATIVE_LATE, &d);
	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	has_lines(s, token);
	mem_free(s);
}
END_TEST

/* Out of memory anywhere in the native variant: a diagnostic, no leak. */
START_TEST(native_out_of_memory)
{
	Diag d;
	Program *p = tu_parse(native_tir, &d);
	int failures = 0;

	for (long n = 0;; n++) {
		long start = mem_live_blocks();
		Str b = {0};
		int rc;

		mem_fail_after(n);
		rc = mlir_export_native(p, "t.yaml", mlir_version(22),
					NATIVE_LATE, &b, &d);
		mem_fail_after(-1);
		str_free(&b);
		ck_assert_msg(mem_live_blocks() == start, "n=%ld: leak", n);
		if (!rc)
			break;
		ck_assert_str_eq(d.msg, "out of memory");
		failures++;
		ck_assert(n < 100000);
	}
	ck_assert_int_gt(failures, 3);
	prog_free(p);
}
END_TEST

START_TEST(mlir_opt_parses)
{
	static const int vs[] = {16, 19, 22};
	int v = vs[_i];
	char cmd[256], path[] = "/tmp/test-export-XXXXXX";
	Diag d;
	char *s;
	int fd;
	FILE *f;

	fmt_snprintf(cmd, sizeof cmd, "mlir-opt-%d --version >/dev/null 2>&1", v);
	if (system(cmd)) {
		printf("test_export: SKIP mlir-opt-%d: not installed\n", v);
		return;
	}
	s = export(all_tir, v, NULL, NULL, &d);
	ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	fd = mkstemp(path);
	ck_assert(fd >= 0 && (f = fdopen(fd, "w")));
	fputs(s, f);
	mem_free(s);
	/* and the blocks and branches, and carried futures, as other
	 * modules' functions */
	for (int k = 0; k < 3; k++) {
		s = export(k == 2 ? carried_tir : k ? cfg_loop_tir : cfg_tir, v,
			   NULL, NULL, &d);
		ck_assert_msg(s, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
		fprintf(f, "module {\n%s}\n", s);
		mem_free(s);
	}
	fclose(f);
	fmt_snprintf(cmd, sizeof cmd, "mlir-opt-%d %s -o /dev/null", v, path);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	unlink(path);
}
END_TEST

static Suite *
export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *t = tcase_create("text");
	TCase *o = tcase_create("mlir-opt");

	tcase_add_test(t, seed_text);
	tcase_add_test(t, regions_text);
	tcase_add_test(t, generate_text);
	tcase_add_test(t, versions_differ);
	tcase_add_test(t, names_and_floats);
	tcase_add_test(t, cfg_text);
	tcase_add_test(t, cfg_map);
	tcase_add_test(t, carried_map);
	tcase_add_test(t, seed_map);
	tcase_add_test(t, every_op_map);
	tcase_add_test(t, errors);
	tcase_add_test(t, native_text);
	tcase_add_test(t, native_out_of_memory);
	tcase_add_loop_test(t, out_of_memory, 0, 3);
	suite_add_tcase(s, t);
	tcase_add_loop_test(o, mlir_opt_parses, 0, 3);
	suite_add_tcase(s, o);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){export_suite(), NULL});
}
