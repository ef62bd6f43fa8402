/* import.c: the generic form without a tool, and every error class. */
#include <stdlib.h>

#include "oracle.h"
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
		snprintf(buf, sizeof buf, "%s:%d:%d: %s", dfile, d.loc.line,
			 d.loc.col, d.msg);
		return strdup(buf);
	}
	char *s = str_take(&out), *r = strdup(s);
	mem_free(s);
	return r;
}

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

static Suite *
import_suite(void)
{
	Suite *s = suite_create("import");
	TCase *tc = tcase_create("generic");

	tcase_add_test(tc, test_generic_no_tool);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){import_suite(), NULL});
}
