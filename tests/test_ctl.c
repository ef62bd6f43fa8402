/* test_ctl.c: while/condition and assert through the tool: text round
 * trip, the verifier's messages, the reference (results, trip limit, the
 * failure), the lowering's failure path and the executor on it. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"
#include "harness.h"
#include "testutil.h"

static const char *const count_prog =
	"func @main(%x: tensor<3xi32>, %m: index) -> (tensor<3xi32>, index) {\n"
	"  %z = const 0 : index\n"
	"  %r, %k = while iter(%a = %x, %n = %z) -> (tensor<3xi32>, index) {\n"
	"    %c = lt %n, %m : index\n"
	"    condition %c\n"
	"  } do {\n"
	"    %a2 = add %a, %a : tensor<3xi32>\n"
	"    %n2 = add %n, 1 : index\n"
	"    yield %a2, %n2\n"
	"  }\n"
	"  %ok = lt %k, 3 : index\n"
	"  assert %ok, \"k \\\"small\\\"\\t\\\\ \\n\"\n"
	"  return %r, %k\n"
	"}\n";

static Program *
parse_verified(const char *text)
{
	Diag d = {{0, 0}, ""};
	Program *p = tu_parse(text, &d);

	ck_assert_msg(p != NULL, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_msg(!tir_verify(p, &default_limits, &d), "%d:%d: %s",
		      d.loc.line, d.loc.col, d.msg);
	return p;
}

static Tensor *
ints(int n, const int64_t *v)
{
	int64_t dims[1] = {n};
	Tensor *t = tensor_new(DT_I32, 1, dims);

	for (int i = 0; i < n; i++)
		tensor_seti(t, i, v[i]);
	return t;
}

static Tensor *
index_of(int64_t v)
{
	Tensor *t = tensor_new(DT_INDEX, 0, NULL);

	tensor_seti(t, 0, v);
	return t;
}

/* print(parse(print(p))) == print(p), and the message keeps its escapes. */
START_TEST(round_trip)
{
	Program *p = parse_verified(count_prog), *q;
	char *a = tir_print(p), *b;
	Diag d;

	ck_assert_ptr_nonnull(strstr(a, "  } do {\n"));
	ck_assert_ptr_nonnull(strstr(a, "    condition %c\n"));
	ck_assert_ptr_nonnull(strstr(a,
		"  assert %ok, \"k \\\"small\\\"\\t\\\\ \\n\"\n"));
	q = tu_parse(a, &d);
	ck_assert_ptr_nonnull(q);
	b = tir_print(q);
	ck_assert_str_eq(a, b);
	mem_free(a);
	mem_free(b);
	prog_free(p);
	prog_free(q);
}
END_TEST

static void
verify_err(const char *text, int line, int col, const char *msg)
{
	Diag d = {{0, 0}, ""};
	Program *p = tu_parse(text, &d);

	if (p) {
		ck_assert_int_eq(tir_verify(p, &default_limits, &d), -1);
		prog_free(p);
	}
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
}

START_TEST(verifier)
{
	verify_err("func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
		   "  %r = while iter(%a = %x) -> (tensor<2xi32>) {\n"
		   "    yield %a\n"
		   "  } do {\n"
		   "    yield %a\n"
		   "  }\n"
		   "  return %r\n}\n", 3, 5,
		   "the condition region of while ends with `condition`, "
		   "not yield");
	verify_err("func @main(%x: tensor<2xi32>, %b: i1) {\n"
		   "  while {\n"
		   "  } do {\n"
		   "  }\n"
		   "}\n", 2, 3,
		   "missing condition at the end of the while's condition "
		   "region");
	verify_err("func @main(%x: tensor<2xi32>, %n: index) {\n"
		   "  while {\n"
		   "    condition %n\n"
		   "  } do {\n"
		   "  }\n"
		   "}\n", 3, 15, "%n has type index, expected i1");
	verify_err("func @main(%x: tensor<2xi32>, %b: i1) {\n"
		   "  while {\n"
		   "    %y = add %x, 1 : tensor<2xi32>\n"
		   "    condition %b\n"
		   "  } do {\n"
		   "    %z = add %y, 1 : tensor<2xi32>\n"
		   "  }\n"
		   "}\n", 6, 14, "%y is not visible here");
	verify_err("func @main(%b: i1) {\n"
		   "  condition %b\n"
		   "}\n", 2, 3,
		   "condition is only allowed at the end of a while's "
		   "condition region");
	verify_err("func @main(%n: index) {\n"
		   "  assert %n, \"m\"\n"
		   "}\n", 2, 10, "%n has type index, expected i1");
	verify_err("func @main(%b: i1) {\n"
		   "  %f = async stream 0 {\n"
		   "    assert %b, \"m\"\n"
		   "  }\n"
		   "  await %f\n"
		   "}\n", 3, 5, "assert inside an async region is not supported");
	verify_err("func @main(%b: i1) {\n"
		   "  assert %b, \"a\\qb\"\n"
		   "}\n", 2, 16,
		   "unknown escape in string (use \\\" \\\\ \\n \\t)");
	verify_err("func @main(%b: i1) {\n"
		   "  assert %b, \"ab\n"
		   "}\n", 2, 17,
		   "unterminated string: newline in string");
	verify_err("func @main(%b: i1) {\n"
		   "  assert %b, 3\n"
		   "}\n", 2, 14, "expected message string, found '3'");
}
END_TEST

/* m = 2: two doublings, then the assert holds; m = 5: k = 5 fails it. */
START_TEST(reference)
{
	static const int64_t x[3] = {1, 2, 3};
	long base = mem_live_blocks();
	Program *p = parse_verified(count_prog);
	Tensor *ins[2] = {ints(3, x), index_of(2)}, **outs = NULL;
	int nouts = 0;
	Diag d = {{0, 0}, ""};
	Limits lim = default_limits;

	ck_assert_int_eq(ref_run(p, prog_func(p, "main"), ins, NULL, &outs,
				 &nouts, &d), 0);
	ck_assert_int_eq(nouts, 2);
	ck_assert_int_eq(tensor_geti(outs[0], 2), 12);
	ck_assert_int_eq(tensor_geti(outs[1], 0), 2);
	for (int i = 0; i < nouts; i++)
		tensor_free(outs[i]);
	mem_free(outs);
	tensor_seti(ins[1], 0, 5);
	ck_assert_int_eq(ref_run(p, prog_func(p, "main"), ins, NULL, &outs,
				 &nouts, &d), 1);
	ck_assert_ptr_null(outs);
	ck_assert_int_eq(d.loc.line, 12);
	ck_assert_int_eq(d.loc.col, 3);
	ck_assert_str_eq(d.msg, "k \"small\"\t\\ \n");
	/* four trips over a limit of three: a clean error at the while */
	lim.max_trips = 3;
	tensor_seti(ins[1], 0, 4);
	ck_assert_int_eq(ref_run(p, prog_func(p, "main"), ins, &lim, &outs,
				 &nouts, &d), -1);
	ck_assert_str_eq(d.msg, "loop trip limit of 3 reached");
	ck_assert_int_eq(d.loc.line, 3);
	tensor_free(ins[0]);
	tensor_free(ins[1]);
	prog_free(p);
	ck_assert_int_eq(mem_live_blocks(), base);
}
END_TEST

static const char *const fail_prog =
	"func @main(%x: tensor<4xi32> {readonly}, %b: i1) -> tensor<4xi32> {\n"
	"  %a = add %x, 1 : tensor<4xi32>\n"
	"  %f = async stream 1 -> (tensor<4xi32>) {\n"
	"    %c = mul %a, 2 : tensor<4xi32>\n"
	"    yield %c\n"
	"  }\n"
	"  assert %b, \"b\"\n"
	"  %r = await %f\n"
	"  return %r\n"
	"}\n";

/* The failure path: drain, then the frees, in the lowering's text. */
START_TEST(failure_path_lowered)
{
	Program *p = parse_verified(fail_prog);
	Decisions ds;
	Diag d;
	BProg *bp;
	char *text;

	ck_assert_int_eq(decisions_make(p, strategy_find("one-shot"), &ds), 0);
	bp = bufferize_lower(p, &ds, &d);
	ck_assert_ptr_nonnull(bp);
	text = bir_print(bp);
	ck_assert_msg(strstr(text,
		"  assert %b else fail {                     // 7:3\n"
		"    drain %f                                // 7:3\n"
		"    free %a                                 // on the failure path  7:3\n"
		"    free %f.0                               // on the failure path  7:3\n"
		"  }\n"), "%s", text);
	mem_free(text);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
}
END_TEST

/* Run fail_prog under strategy s and schedule k: the line of the assert
 * that failed (0: none) and the violations' kinds. */
static int
run_failing(const char *s, SchedKind k, VKind *kinds, int *n)
{
	static const int64_t x[4] = {1, 2, 3, 4};
	Program *p = parse_verified(fail_prog);
	Tensor *ins[2] = {ints(4, x), tensor_new(DT_I1, 0, NULL)};
	ExecOpts eo = {.lim = &default_limits, .sched = {k, 0}};
	ExecResult ex;
	Decisions ds;
	Diag d;
	BProg *bp;
	int failed;

	ck_assert_int_eq(decisions_make(p, strategy_find(s), &ds), 0);
	bp = bufferize_lower(p, &ds, &d);
	ck_assert_int_eq(exec_run(bp, prog_func(p, "main"), ins, &eo, &ex, &d), 0);
	failed = ex.failed && ex.failed->kind == OP_ASSERT ? ex.failed->loc.line
							     : 0;
	*n = ex.nviols;
	for (int i = 0; i < ex.nviols && i < 8; i++)
		kinds[i] = ex.viols[i].kind;
	ck_assert_int_eq(ex.nouts, 0);
	exec_result_free(&ex);
	bprog_free(bp);
	decisions_free(&ds);
	tensor_free(ins[0]);
	tensor_free(ins[1]);
	prog_free(p);
	return failed;
}

START_TEST(failure_path_executed)
{
	VKind k[8];
	int n;

	ck_assert_int_eq(run_failing("one-shot", SCHED_LATE, k, &n), 7);
	ck_assert_int_eq(n, 0);
	run_failing("copy-all", SCHED_SYNC, k, &n);
	ck_assert_int_eq(n, 0);
	run_failing("mutant-failure-leaks", SCHED_SYNC, k, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(k[0], VK_LEAK);
	ck_assert_int_eq(k[1], VK_LEAK);
	run_failing("mutant-failure-frees-early", SCHED_SYNC, k, &n);
	ck_assert_int_eq(n, 0); /* the launch already ran */
	/* the free of its result does not complete the launch: it still
	 * runs, reads the freed %a and writes its result into the freed
	 * %f.0 */
	run_failing("mutant-failure-frees-early", SCHED_LATE, k, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(k[0], VK_USE_AFTER_FREE);
	ck_assert_int_eq(k[1], VK_USE_AFTER_FREE);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ctl");
	TCase *t = tcase_create("while-assert");
	Suite *all[] = {s, NULL};

	tcase_add_test(t, round_trip);
	tcase_add_test(t, verifier);
	tcase_add_test(t, reference);
	tcase_add_test(t, failure_path_lowered);
	tcase_add_test(t, failure_path_executed);
	suite_add_tcase(s, t);
	return tu_run(all);
}
