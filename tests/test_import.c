/* import.c: the generic form without a tool, and every error class. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"
#include "harness.h"
#include "testutil.h"

/* TIR text of `mlir` (generic form), or the error as "FILE:L:C: msg". */
static char *
imp(const char *mlir, const char *func)
{
	Str out = {0};
	Diag d;
	const char *dfile;
	char buf[700];

	if (mlir_import(mlir, strlen(mlir), "in.mlir", func, &out, &d, &dfile)) {
		str_free(&out);
		fmt_snprintf(buf, sizeof buf, "%s:%d:%d: %s", dfile, d.loc.line,
			 d.loc.col, d.msg);
		return strdup(buf);
	}
	char *s = str_take(&out), *r = strdup(s);
	mem_free(s);
	return r;
}

/* FUNC with the argument types `types` and one result of type `rt` */
#define FUNC1(body, args, types, rt) \
	"\"builtin.module\"() ({\n" \
	"  \"func.func\"() <{function_type = (" types ") -> " rt \
	", sym_name = \"main\"}> ({\n" \
	"  ^bb0(" args "):\n" body \
	"  }) : () -> ()\n" \
	"}) : () -> ()\n"

#define FUNC(body, args, types) \
	"\"builtin.module\"() ({\n" \
	"  \"func.func\"() <{function_type = (" types ") -> " types \
	", sym_name = \"main\"}> ({\n" \
	"  ^bb0(" args "):\n" body \
	"  }) : () -> ()\n" \
	"}) : () -> ()\n"

START_TEST(test_generic_no_tool)
{
	char *s = imp(FUNC(
		"    %0 = \"arith.constant\"() <{value = 10 : i32}> : () -> i32\n"
		"    %1 = \"linalg.generic\"(%arg0, %0, %arg0) <{indexing_maps = "
		"[affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<"
		"(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>],"
		" operandSegmentSizes = array<i32: 2, 1>}> ({\n"
		"    ^bb0(%a: i32, %b: i32, %c: i32):\n"
		"      %2 = \"arith.addi\"(%a, %b) : (i32, i32) -> i32\n"
		"      \"linalg.yield\"(%2) : (i32) -> ()\n"
		"    }) : (tensor<3xi32>, i32, tensor<3xi32>) -> tensor<3xi32>\n"
		"    \"func.return\"(%1) : (tensor<3xi32>) -> ()\n",
		"%arg0: tensor<3xi32>", "tensor<3xi32>"), NULL);

	/* no locations: the constant is a value of its own */
	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<3xi32>) -> (tensor<3xi32>) {\n"
		"  %0 = const 10 : i32\n"
		"  %1 = add %arg0, %0 : tensor<3xi32>\n"
		"  return %1\n"
		"}\n");
	free(s);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *mlir, *want;
	} t[] = {
		{FUNC("    %0 = \"tensor.pad\"(%arg0) : (tensor<3xi32>) -> "
		      "tensor<5xi32> loc(\"u.mlir\":4:10)\n"
		      "    \"func.return\"(%0) : (tensor<5xi32>) -> ()\n",
		      "%arg0: tensor<3xi32>", "tensor<3xi32>"),
		 "u.mlir:4:10: unsupported op 'tensor.pad'"},
		{FUNC("    \"func.return\"(%arg0) : (memref<3xi32>) -> ()\n",
		      "%arg0: memref<3xi32>", "memref<3xi32>"),
		 "in.mlir:2:3: unsupported type 'memref<3xi32>'"},
		{FUNC("    \"func.return\"(%arg0) : (vector<4xf32>) -> ()\n",
		      "%arg0: vector<4xf32>", "vector<4xf32>"),
		 "in.mlir:2:3: unsupported type 'vector<4xf32>'"},
		{FUNC("    \"func.return\"(%arg0) : (tensor<100000x100000xf32>) -> ()\n",
		      "%arg0: tensor<100000x100000xf32>", "tensor<100000x100000xf32>"),
		 "in.mlir:2:3: shape too large in type 'tensor<100000x100000xf32>' "
		 "(limit 67108864 elements)"},
		{FUNC("    \"func.return\"(%arg0) : (f16) -> ()\n",
		      "%arg0: f16", "f16"),
		 "in.mlir:2:3: unsupported type 'f16'"},
		{"\"builtin.module\"() ({\n  %0 = \n",
		 "in.mlir:3:1: expected '\"' to start an op name"},
		/* ops written without their result (found by the fuzz-mlir
		 * target: the importer read the missing result's type) */
		{FUNC("    %0 = \"arith.constant\"() <{value = 1.0 : f32}> : () -> f32\n"
		      "    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
		      "    \"tensor.insert\"(%0, %arg0, %1) : (f32, tensor<4xf32>, index) -> ()\n"
		      "    \"func.return\"(%arg0) : (tensor<4xf32>) -> ()\n",
		      "%arg0: tensor<4xf32>", "tensor<4xf32>"),
		 "in.mlir:6:5: 'tensor.insert' has too few results"},
		{FUNC("    \"tensor.extract_slice\"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (tensor<4xf32>) -> ()\n"
		      "    \"func.return\"(%arg0) : (tensor<4xf32>) -> ()\n",
		      "%arg0: tensor<4xf32>", "tensor<4xf32>"),
		 "in.mlir:4:5: 'tensor.extract_slice' has too few results"},
		{FUNC("    \"tensor.empty\"() : () -> ()\n"
		      "    \"func.return\"(%arg0) : (tensor<4xf32>) -> ()\n",
		      "%arg0: tensor<4xf32>", "tensor<4xf32>"),
		 "in.mlir:4:5: 'tensor.empty' has too few results"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char *s = imp(t[i].mlir, NULL);
		ck_assert_msg(!strncmp(s, t[i].want, strlen(t[i].want)),
			      "case %zu: got '%s'", i, s);
		free(s);
	}
	char *s = imp(FUNC("    \"func.return\"(%arg0) : (i32) -> ()\n",
			   "%arg0: i32", "i32"), "nope");
	ck_assert_str_eq(s, "in.mlir:0:0: no function @nope");
	free(s);
	ck_assert_int_eq(mem_live_blocks(), 0);
}
END_TEST

/* FORMAT §5's ops are emitted now; they load once the parser has them. */
static const char sec5_mlir[] =
		"\"builtin.module\"() ({\n"
		"  \"func.func\"() <{function_type = (tensor<8xf32>, tensor<1xf32>, index) -> (tensor<8xf32>, index), sym_name = \"main\"}> ({\n"
		"  ^bb0(%arg0: tensor<8xf32>, %arg1: tensor<1xf32>, %arg2: index):\n"
		"    %0 = \"scf.forall\"(%arg0) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 8>}> ({\n"
		"    ^bb0(%arg7: index, %arg8: tensor<8xf32>):\n"
		"      \"scf.forall.in_parallel\"() ({\n"
		"        \"tensor.parallel_insert_slice\"(%arg1, %arg8, %arg7) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 1>, static_strides = array<i64: 1>}> : (tensor<1xf32>, tensor<8xf32>, index) -> ()\n"
		"      }) : () -> ()\n"
		"    }) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
		"    %2:2 = \"scf.while\"(%0, %1) ({\n"
		"    ^bb0(%arg5: tensor<8xf32>, %arg6: index):\n"
		"      %8 = \"arith.cmpi\"(%arg6, %arg2) <{predicate = 2 : i64}> : (index, index) -> i1\n"
		"      \"scf.condition\"(%8, %arg5, %arg6) : (i1, tensor<8xf32>, index) -> ()\n"
		"    }, {\n"
		"    ^bb0(%arg3: tensor<8xf32>, %arg4: index):\n"
		"      %6 = \"arith.constant\"() <{value = 1 : index}> : () -> index\n"
		"      %7 = \"arith.addi\"(%arg4, %6) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n"
		"      \"scf.yield\"(%arg3, %7) : (tensor<8xf32>, index) -> ()\n"
		"    }) : (tensor<8xf32>, index) -> (tensor<8xf32>, index)\n"
		"    %3 = \"tensor.from_elements\"(%1, %1) : (index, index) -> tensor<2xindex>\n"
		"    %4 = \"tensor.expand_shape\"(%arg0) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 4>}> : (tensor<8xf32>) -> tensor<2x4xf32>\n"
		"    %5 = \"arith.constant\"() <{value = true}> : () -> i1\n"
		"    \"cf.assert\"(%5) <{msg = \"never\"}> : (i1) -> ()\n"
		"    \"func.return\"(%2#0, %2#1) : (tensor<8xf32>, index) -> ()\n"
		"  }) : () -> ()\n"
		"}) : () -> ()\n";

START_TEST(test_section5_ops)
{
	char *s = imp(sec5_mlir, NULL);
	static const char *const ops[] = {"while", "forall", "from_elements",
					  "expand_shape", "assert"};

	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<8xf32>, %arg1: tensor<1xf32>, %arg2: index) -> (tensor<8xf32>, index) {\n"
		"  %0 = forall %arg3 = 0 to 8 shared(%arg4 = %arg0) -> (tensor<8xf32>) {\n"
		"    parallel_insert_slice %arg1 into %arg4[%arg3] [1] [1]\n"
		"  }\n"
		"  %1 = const 0 : index\n"
		"  %2_0, %2_1 = while iter(%arg5 = %0, %arg6 = %1) -> (tensor<8xf32>, index) {\n"
		"    %8 = lt %arg6, %arg2 : index\n"
		"    condition %8\n"
		"  } do {\n"
		"    %6 = const 1 : index\n"
		"    %7 = add %arg6, %6 : index\n"
		"    yield %arg5, %7\n"
		"  }\n"
		"  %3 = from_elements %1, %1 : tensor<2xindex>\n"
		"  %4 = expand_shape %arg0 [[0, 1]] : tensor<2x4xf32>\n"
		"  %5 = const 1 : i1\n"
		"  assert %5, \"never\"\n"
		"  return %2_0, %2_1\n"
		"}\n");
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (op_lookup(ops[i], strlen(ops[i])) < 0) {
			printf("test_section5_ops: loading skipped: the parser "
			       "has no '%s' yet\n", ops[i]);
			free(s);
			return;
		}
	Diag d;
	Program *p = tu_parse(s, &d);
	ck_assert_msg(p != NULL, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	prog_free(p);
	free(s);
}
END_TEST

/* A body of several blocks, as mlir-opt-22 prints the export of
 * cases/mlir/cf-insert-in-later-block.yaml: ^bb1 comes after the entry
 * in the text but ^bb2 uses nothing of it; the blocks keep their order. */
static const char cfg_mlir[] =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (tensor<2xi32>, i1) -> i32, sym_name = \"main\"}> ({\n"
	"  ^bb0(%arg0: tensor<2xi32> loc(\"<stdin>\":1:17), %arg1: i1 loc(\"<stdin>\":1:36)):\n"
	"    \"cf.cond_br\"(%arg1, %arg0)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, tensor<2xi32>) -> () loc(\"c.yaml\":15:5)\n"
	"  ^bb1:  // pred: ^bb0\n"
	"    %0 = \"arith.constant\"() <{value = 100 : i32}> : () -> i32 loc(\"c.yaml\":17:5)\n"
	"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index loc(\"c.yaml\":17:5)\n"
	"    %2 = \"tensor.insert\"(%0, %arg0, %1) : (i32, tensor<2xi32>, index) -> tensor<2xi32> loc(\"c.yaml\":17:5)\n"
	"    \"cf.br\"(%2)[^bb2] : (tensor<2xi32>) -> () loc(\"c.yaml\":18:5)\n"
	"  ^bb2(%3: tensor<2xi32> loc(\"<stdin>\":8:7)):  // 2 preds: ^bb0, ^bb1\n"
	"    %4 = \"arith.constant\"() <{value = 0 : index}> : () -> index loc(\"c.yaml\":20:5)\n"
	"    %5 = \"tensor.extract\"(%3, %4) : (tensor<2xi32>, index) -> i32 loc(\"c.yaml\":20:5)\n"
	"    %6 = \"arith.constant\"() <{value = 0 : index}> : () -> index loc(\"c.yaml\":21:5)\n"
	"    %7 = \"tensor.extract\"(%arg0, %6) : (tensor<2xi32>, index) -> i32 loc(\"c.yaml\":21:5)\n"
	"    %8 = \"arith.addi\"(%5, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(\"c.yaml\":22:5)\n"
	"    \"func.return\"(%8) : (i32) -> () loc(\"c.yaml\":23:5)\n"
	"  }) : () -> () loc(\"c.yaml\":14:3)\n"
	"}) : () -> () loc(\"<stdin>\":0:0)\n";

/* The blocks of a body, in another block order than dominance: a block
 * read before the block that defines what it uses. */
#define CFG2(first, second) \
	"\"builtin.module\"() ({\n" \
	"  \"func.func\"() <{function_type = (tensor<2xi32>) -> tensor<2xi32>, sym_name = \"main\"}> ({\n" \
	"  ^bb0(%arg0: tensor<2xi32>):\n" \
	"    \"cf.br\"()[^bb2] : () -> ()\n" \
	"  ^bb1(%0: tensor<2xi32>):\n" first \
	"  ^bb2:\n" second \
	"  }) : () -> ()\n" \
	"}) : () -> ()\n"

START_TEST(test_cfg)
{
	static const struct {
		const char *mlir, *want;
	} bad[] = {
		/* unreachable: TIR refuses it */
		{CFG2("    \"func.return\"(%0) : (tensor<2xi32>) -> ()\n",
		      "    \"func.return\"(%arg0) : (tensor<2xi32>) -> ()\n"),
		 "in.mlir:6:5: block ^bb1 cannot be reached from the entry "
		 "(TIR refuses unreachable blocks)"},
		/* cf.switch is outside the subset */
		{CFG2("    \"func.return\"(%0) : (tensor<2xi32>) -> ()\n",
		      "    %1 = \"arith.constant\"() <{value = 0 : i32}> : () -> i32\n"
		      "    \"cf.switch\"(%1, %arg0, %arg0)[^bb1, ^bb1] <{case_operand_segments = array<i32: 1>, case_values = dense<1> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, tensor<2xi32>, tensor<2xi32>) -> ()\n"),
		 "in.mlir:9:5: unsupported op 'cf.switch'"},
		/* the wrong number of values for a block */
		{CFG2("    \"func.return\"(%0) : (tensor<2xi32>) -> ()\n",
		      "    \"cf.br\"()[^bb1] : () -> ()\n"),
		 "in.mlir:8:5: 'cf.br' passes 0 values to ^bb1, which takes 1"},
		/* a branch inside a region (an scf.if's region of several
		 * blocks, which only --no-tool lets through) */
		{FUNC1("    %0 = \"scf.if\"(%arg1) ({\n"
		       "      \"cf.br\"()[^bb1] : () -> ()\n"
		       "    ^bb1:\n"
		       "      \"scf.yield\"(%arg0) : (tensor<2xi32>) -> ()\n"
		       "    }, {\n"
		       "      \"scf.yield\"(%arg0) : (tensor<2xi32>) -> ()\n"
		       "    }) : (i1) -> tensor<2xi32>\n"
		       "    \"func.return\"(%0) : (tensor<2xi32>) -> ()\n",
		       "%arg0: tensor<2xi32>, %arg1: i1", "tensor<2xi32>, i1",
		       "tensor<2xi32>"),
		 "in.mlir:4:5: 'scf.if' needs a region of one block"},
	};
	char *s = imp(cfg_mlir, NULL);

	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<2xi32>, %arg1: i1) -> (i32) {\n"
		"  cond_br %arg1, ^bb1, ^bb2(%arg0)\n"
		"^bb1:\n"
		"  %2 = insert 100 into %arg0[0] : tensor<2xi32>\n"
		"  br ^bb2(%2)\n"
		"^bb2(%3: tensor<2xi32>):\n"
		"  %5 = extract %3[0] : i32\n"
		"  %7 = extract %arg0[0] : i32\n"
		"  %8 = add %5, %7 : i32\n"
		"  return %8\n"
		"}\n");
	free(s);
	/* ^bb1 uses %1 of ^bb2, which dominates it: read in reverse
	 * postorder, written in source order */
	s = imp(CFG2("    \"func.return\"(%1) : (tensor<2xi32>) -> ()\n",
		     "    %1 = \"tensor.empty\"() : () -> tensor<2xi32>\n"
		     "    \"cf.br\"(%1)[^bb1] : (tensor<2xi32>) -> ()\n"), NULL);
	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<2xi32>) -> (tensor<2xi32>) {\n"
		"  br ^bb2\n"
		"^bb1(%0: tensor<2xi32>):\n"
		"  return %1\n"
		"^bb2:\n"
		"  %1 = empty : tensor<2xi32>\n"
		"  br ^bb1(%1)\n"
		"}\n");
	free(s);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		s = imp(bad[i].mlir, NULL);
		ck_assert_msg(!strcmp(s, bad[i].want), "case %zu: got '%s'", i, s);
		free(s);
	}
	ck_assert_int_eq(mem_live_blocks(), 0);
}
END_TEST

/* A future carried by scf.for and by a block argument: an !async.token
 * and its !async.value side by side (the exporter's form) come back as
 * one TIR future; a value without its token, or a token passed without
 * its values, is refused. */
#define CARRY(loop_yield, br_ops, br_types) FUNC1( \
	"    %0:2 = \"async.execute\"() <{operandSegmentSizes = array<i32: 0, 0>}> ({\n" \
	"      \"async.yield\"(%arg0) : (f32) -> ()\n" \
	"    }) {bufdiff.stream = 1 : i64} : () -> (!async.token, !async.value<f32>)\n" \
	"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n" \
	"    %2 = \"arith.constant\"() <{value = 2 : index}> : () -> index\n" \
	"    %3 = \"arith.constant\"() <{value = 1 : index}> : () -> index\n" \
	"    %4:2 = \"scf.for\"(%1, %2, %3, %0#0, %0#1) ({\n" \
	"    ^bb0(%arg1: index, %arg2: !async.token, %arg3: !async.value<f32>):\n" \
	"      %9 = \"async.await\"(%arg3) : (!async.value<f32>) -> f32\n" \
	"      %10:2 = \"async.execute\"() <{operandSegmentSizes = array<i32: 0, 0>}> ({\n" \
	"        %12 = \"arith.addf\"(%9, %9) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32\n" \
	"        \"async.yield\"(%12) : (f32) -> ()\n" \
	"      }) {bufdiff.stream = 1 : i64} : () -> (!async.token, !async.value<f32>)\n" \
	"      \"scf.yield\"(" loop_yield ") : (!async.token, !async.value<f32>) -> ()\n" \
	"    }) : (index, index, index, !async.token, !async.value<f32>) -> (!async.token, !async.value<f32>)\n" \
	"    \"cf.br\"(" br_ops ")[^bb1] : (" br_types ") -> ()\n" \
	"  ^bb1(%6: !async.token, %7: !async.value<f32>):\n" \
	"    %8 = \"async.await\"(%7) : (!async.value<f32>) -> f32\n" \
	"    \"func.return\"(%8) : (f32) -> ()\n", \
	"%arg0: f32", "f32", "f32")

START_TEST(test_carried_future)
{
	static const struct {
		const char *mlir, *want;
	} bad[] = {
		{CARRY("%10#1, %10#1", "%4#0, %4#1",
		       "!async.token, !async.value<f32>"),
		 "in.mlir:17:7: an async value passed without its token and "
		 "the future's other values"},
		{CARRY("%10#0, %10#1", "%4#0, %0#1",
		       "!async.token, !async.value<f32>"),
		 "in.mlir:19:5: an async token passed without its future's "
		 "values, in order"},
	};
	char *s = imp(CARRY("%10#0, %10#1", "%4#0, %4#1",
			    "!async.token, !async.value<f32>"), NULL);

	ck_assert_str_eq(s,
		"func @main(%arg0: f32) -> (f32) {\n"
		"  %0 = async stream 1 -> (f32) {\n"
		"    yield %arg0\n"
		"  }\n"
		"  %1 = const 0 : index\n"
		"  %2 = const 2 : index\n"
		"  %3 = const 1 : index\n"
		"  %4 = for %arg1 = %1 to %2 step %3 iter(%arg2 = %0) -> "
		"(future<f32>) {\n"
		"    %9 = await %arg2\n"
		"    %10 = async stream 1 -> (f32) {\n"
		"      %12 = add %9, %9 : f32\n"
		"      yield %12\n"
		"    }\n"
		"    yield %10\n"
		"  }\n"
		"  br ^bb1(%4)\n"
		"^bb1(%6: future<f32>):\n"
		"  %8 = await %6\n"
		"  return %8\n"
		"}\n");
	free(s);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		s = imp(bad[i].mlir, NULL);
		ck_assert_msg(!strcmp(s, bad[i].want), "case %zu: got '%s'", i, s);
		free(s);
	}
	/* an !async.value passed to a block without its token (the branch
	 * is read before the block) */
	s = imp(FUNC1(
		"    %0:2 = \"async.execute\"() <{operandSegmentSizes = array<i32: 0, 0>}> ({\n"
		"      \"async.yield\"(%arg0) : (f32) -> ()\n"
		"    }) {bufdiff.stream = 1 : i64} : () -> (!async.token, !async.value<f32>)\n"
		"    \"cf.br\"(%0#1)[^bb1] : (!async.value<f32>) -> ()\n"
		"  ^bb1(%7: !async.value<f32>):\n"
		"    %8 = \"async.await\"(%7) : (!async.value<f32>) -> f32\n"
		"    \"func.return\"(%8) : (f32) -> ()\n",
		"%arg0: f32", "f32", "f32"), NULL);
	ck_assert_str_eq(s, "in.mlir:7:5: an async value passed without its "
			 "token and the future's other values");
	free(s);
	/* an scf.for carrying an !async.value without its token */
	s = imp(FUNC1(
		"    %0:2 = \"async.execute\"() <{operandSegmentSizes = array<i32: 0, 0>}> ({\n"
		"      \"async.yield\"(%arg0) : (f32) -> ()\n"
		"    }) {bufdiff.stream = 1 : i64} : () -> (!async.token, !async.value<f32>)\n"
		"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
		"    %2 = \"scf.for\"(%1, %1, %1, %0#1) ({\n"
		"    ^bb0(%arg1: index, %arg2: !async.value<f32>):\n"
		"      \"scf.yield\"(%arg2) : (!async.value<f32>) -> ()\n"
		"    }) : (index, index, index, !async.value<f32>) -> !async.value<f32>\n"
		"    %3 = \"async.await\"(%2) : (!async.value<f32>) -> f32\n"
		"    \"func.return\"(%3) : (f32) -> ()\n",
		"%arg0: f32", "f32", "f32"), NULL);
	ck_assert_str_eq(s, "in.mlir:8:5: an '!async.value' carried without "
			 "its '!async.token' (a TIR future is both)");
	free(s);
	ck_assert_int_eq(mem_live_blocks(), 0);
}
END_TEST

/* Every failing allocation and every cut of the text: an error or the
 * text, never a crash or a leak. */
START_TEST(test_alloc_and_cuts)
{
	long base = mem_live_blocks();
	size_t len = strlen(sec5_mlir);

	for (long n = 0; n < 400; n++) {
		mem_fail_after(n);
		char *s = imp(sec5_mlir, NULL);
		mem_fail_after(-1);
		free(s);
		ck_assert_int_eq(mem_live_blocks(), base);
		mem_fail_after(n); /* the blocks' texts too */
		s = imp(cfg_mlir, NULL);
		mem_fail_after(-1);
		free(s);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	for (size_t cut = 0; cut < len; cut += 7) {
		char *t = strndup(sec5_mlir, cut);
		char *s = imp(t, NULL);
		free(s);
		free(t);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	for (size_t cut = 0; cut < sizeof cfg_mlir - 1; cut += 5) {
		char *t = strndup(cfg_mlir, cut);
		char *s = imp(t, NULL);
		free(s);
		free(t);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
}
END_TEST

/* arith.select is the `if` yielding one of its operands; vector.print is
 * dropped, the extract it prints stays (a read the oracle checks). */
START_TEST(test_select_and_print)
{
	char *s = imp(FUNC1(
		"    %0 = \"arith.select\"(%arg2, %arg0, %arg1) : (i1, "
		"tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
		"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
		"    %2 = \"tensor.extract\"(%0, %1) : (tensor<4xf32>, index) -> f32\n"
		"    \"vector.print\"(%2) : (f32) -> ()\n"
		"    \"func.return\"(%0) : (tensor<4xf32>) -> ()\n",
		"%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: i1",
		"tensor<4xf32>, tensor<4xf32>, i1", "tensor<4xf32>"), NULL);

	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: i1) -> (tensor<4xf32>) {\n"
		"  %0 = if %arg2 -> (tensor<4xf32>) {\n"
		"    yield %arg0\n"
		"  } else {\n"
		"    yield %arg1\n"
		"  }\n"
		"  %1 = const 0 : index\n"
		"  %2 = extract %0[%1] : f32\n"
		"  return %0\n"
		"}\n");
	free(s);
	/* a select of tensors by a tensor of conditions is no `if` */
	s = imp(FUNC1(
		"    %0 = \"arith.select\"(%arg1, %arg0, %arg0) : (tensor<4xi1>, "
		"tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(\"u.mlir\":3:8)\n"
		"    \"func.return\"(%0) : (tensor<4xf32>) -> ()\n",
		"%arg0: tensor<4xf32>, %arg1: tensor<4xi1>",
		"tensor<4xf32>, tensor<4xi1>", "tensor<4xf32>"), NULL);
	ck_assert_str_eq(s, "u.mlir:3:8: 'arith.select' with a condition of "
			 "type 'tensor<4xi1>'");
	free(s);
}
END_TEST

/* tensor.generate: dynamic sizes, index block args, tensor.yield */
START_TEST(test_generate)
{
	char *s = imp(FUNC1(
		"    %0 = \"tensor.generate\"(%arg1) ({\n"
		"    ^bb0(%arg2: index, %arg3: index):\n"
		"      %1 = \"tensor.extract\"(%arg0, %arg3) : (tensor<4xi32>, index) -> i32\n"
		"      \"tensor.yield\"(%1) : (i32) -> ()\n"
		"    }) : (index) -> tensor<?x4xi32>\n"
		"    \"func.return\"(%0) : (tensor<?x4xi32>) -> ()\n",
		"%arg0: tensor<4xi32>, %arg1: index",
		"tensor<4xi32>, index", "tensor<?x4xi32>"), NULL);

	ck_assert_str_eq(s,
		"func @main(%arg0: tensor<4xi32>, %arg1: index) -> (tensor<?x4xi32>) {\n"
		"  %0 = generate(%arg1) [%arg2, %arg3] : tensor<?x4xi32> {\n"
		"    %1 = extract %arg0[%arg3] : i32\n"
		"    yield %1\n"
		"  }\n"
		"  return %0\n"
		"}\n");
	free(s);
}
END_TEST

/* The user's text behind a tool's generic form (import_src.c): names at
 * each op's loc, `%p:2` as %p_0 and %p_1, a block argument without a
 * place numbered in its function (the tool's %arg2 is not ours), the
 * comments above, `// loc(L:C)` on every op line; a name written twice
 * gets a suffix. */
static const char user_src[] =
	"// pairs\n"
	"func.func @pair(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
	"  return %t, %t : tensor<4xf32>, tensor<4xf32>\n"
	"}\n"
	"// the entry\n"
	"func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
	"  // both halves\n"
	"  %p:2 = func.call @pair(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
	"  %s = arith.addf %p#0, %p#1 : tensor<4xf32>\n"
	"  return %s : tensor<4xf32>\n"
	"}\n";

static const char user_gen[] =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>), sym_name = \"pair\"}> ({\n"
	"  ^bb0(%arg0: tensor<4xf32> loc(\"<stdin>\":2:17)):\n"
	"    \"func.return\"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> () loc(\"<stdin>\":3:3)\n"
	"  }) : () -> () loc(\"<stdin>\":2:1)\n"
	"  \"func.func\"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = \"main\"}> ({\n"
	"  ^bb0(%arg1: tensor<4xf32> loc(\"<stdin>\":6:17), %arg2: tensor<4xf32>):\n"
	"    %0:2 = \"func.call\"(%arg1) <{callee = @pair}> : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) loc(\"<stdin>\":8:10)\n"
	"    %1 = \"arith.addf\"(%0#0, %0#1) <{fastmath = #arith.fastmath<none>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(\"<stdin>\":9:8)\n"
	"    \"func.return\"(%1) : (tensor<4xf32>) -> () loc(\"<stdin>\":10:3)\n"
	"  }) : () -> () loc(\"<stdin>\":6:1)\n"
	"}) : () -> () loc(\"<stdin>\":0:0)\n";

static char *
imp_src(const char *src)
{
	ImportSrc us = {src, strlen(src), "<stdin>"};
	Str out = {0};
	Diag d;
	const char *dfile;
	char *s, *r;

	ck_assert_msg(!mlir_import_src(user_gen, strlen(user_gen), "in.mlir",
				       NULL, &us, &out, &d, &dfile), "%s", d.msg);
	s = str_take(&out);
	r = strdup(s);
	mem_free(s);
	return r;
}

START_TEST(test_user_names)
{
	char *s = imp_src(user_src), *src2, *p;

	ck_assert_str_eq(s,
		"// pairs\n"
		"func @pair(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {  // loc(2:1)\n"
		"  return %t, %t  // loc(3:3)\n"
		"}\n"
		"// the entry\n"
		"func @main(%x: tensor<4xf32>, %arg0: tensor<4xf32>) -> (tensor<4xf32>) {  // loc(6:1)\n"
		"  // both halves\n"
		"  %p_0, %p_1 = call @pair(%x)  // loc(8:10)\n"
		"  %s = add %p_0, %p_1 : tensor<4xf32>  // loc(9:8)\n"
		"  return %s  // loc(10:3)\n"
		"}\n");
	free(s);
	/* %x written twice in @main: the second is %x_1 */
	src2 = strdup(user_src);
	p = strstr(src2, "%s = arith");
	p[1] = 'x';
	s = imp_src(src2);
	ck_assert_ptr_nonnull(strstr(s, "  %x_1 = add %p_0, %p_1 : tensor<4xf32>  // loc(9:8)\n"
					"  return %x_1  // loc(10:3)\n"));
	free(s);
	/* no user text: the tool's names, block arguments counted per
	 * function (%arg1 of the tool is %arg0 of @main) */
	s = imp(user_gen, NULL);
	ck_assert_ptr_nonnull(strstr(s, "func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)"));
	ck_assert_ptr_null(strstr(s, "// loc("));
	free(s);
	free(src2);
}
END_TEST

/* mlir-opt's -split-input-file: sections at `// -----` lines, each after
 * the lines before it (empty) and every line where it was. */
START_TEST(test_sections)
{
	static const char t[] = "a\n// -----\nbb\n  // ----- more\nc";
	size_t n;
	char *s;

	ck_assert_int_eq(mlir_sections(t, strlen(t)), 3);
	ck_assert_int_eq(mlir_sections("x\n", 2), 1);
	s = mlir_section(t, strlen(t), 1, &n);
	ck_assert_str_eq(s, "a\n");
	ck_assert_uint_eq(n, 2);
	mem_free(s);
	s = mlir_section(t, strlen(t), 2, &n);
	ck_assert_str_eq(s, "\n\nbb\n");
	ck_assert_uint_eq(n, 5);
	mem_free(s);
	s = mlir_section(t, strlen(t), 3, &n);
	ck_assert_str_eq(s, "\n\n\n\nc");
	mem_free(s);
	s = mlir_section("x\n// -----\n", 12, 2, &n); /* an empty last one */
	ck_assert_str_eq(s, "\n\n");
	mem_free(s);
}
END_TEST

static Suite *
import_suite(void)
{
	Suite *s = suite_create("import");
	TCase *tc = tcase_create("generic");

	tcase_add_test(tc, test_generic_no_tool);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_select_and_print);
	tcase_add_test(tc, test_generate);
	tcase_add_test(tc, test_section5_ops);
	tcase_add_test(tc, test_cfg);
	tcase_add_test(tc, test_carried_future);
	tcase_add_test(tc, test_alloc_and_cuts);
	tcase_add_test(tc, test_user_names);
	tcase_add_test(tc, test_sections);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){import_suite(), NULL});
}
