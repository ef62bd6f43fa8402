/* test_inproc.c: the in-process route of mlir-opt-22 (oracle/mlir/
 * inproc.c): its answer is the process's, a worker that crashes or hangs
 * mid-call is the tool's crash or timeout with the mlir-opt-22 command
 * that reproduces it, and the next call gets a fresh worker.  The crash
 * and the hang are the worker's test hooks (BUFDIFF_INPROC_CRASH, _HANG:
 * a program holding that text).  Skipped (passes, says so) when bufdiff
 * was built without libmlir-22-dev or mlir-opt-22 is not installed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "mlir.h"
#include "testutil.h"

static const char text[] =
	"case: inproc\n"
	"program: |\n"
	"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"    %y = add %x, %x : tensor<3xi32>\n"
	"    %z = add %y, %x : tensor<3xi32>\n"
	"    return %z\n"
	"  }\n"
	"inputs:\n"
	"  x: [1, 2, 3]\n";

static bool
have_route(void)
{
	if (!inproc_available() || system("command -v mlir-opt-22 >/dev/null")) {
		fprintf(stderr, "test_inproc: SKIP (no bufdiff_mlir.so or no "
			"mlir-opt-22)\n");
		return false;
	}
	return true;
}

/* The case named FILE (its export's locations name it: the hooks' text). */
static Case *
load(const char *file)
{
	Case *c = NULL;
	Diag d;

	if (case_parse(file, text, strlen(text), 0, &c, &d))
		ck_abort_msg("case: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	return c;
}

/* external_decide on the case named file through route r: rc, report t. */
static int
decide(MlirRoute r, const char *file, const ExternalOpts *o, ToolReport *t)
{
	const Strategy *s = strategy_parse("mlir");
	Case *c = load(file);
	Decisions ds = {0};
	Diag err;
	int rc;

	inproc_set_route(r);
	external_forget();
	memset(t, 0, sizeof *t);
	rc = external_decide(o, s, c, &ds, t, &err);
	mem_free(t->decisions);
	t->decisions = NULL;
	decisions_free(&ds);
	case_free(c);
	return rc;
}

/* The answer text for the case, through route r. */
static char *
answer(MlirRoute r, const char *file)
{
	const Strategy *s = strategy_parse("mlir");
	Case *c = load(file);
	Arena *a = arena_new();
	ExportMap map = {0};
	Str b = {0}, cmd = {0};
	ToolResult res;
	Diag d;
	char *in, *c1, *out;
	int rc;

	ck_assert_int_eq(mlir_export(c->prog, c->file, mlir_version(22), &b, a,
				     &map, &d), 0);
	in = str_take(&b);
	external_command(NULL, s, &cmd);
	c1 = str_take(&cmd);
	if (r == ROUTE_INPROC)
		rc = inproc_call(&(ToolCall){c1, in, strlen(in), 60, 0, false},
				 "builtin.module(one-shot-bufferize{bufferize-"
				 "function-boundaries test-analysis-only "
				 "allow-return-allocs-from-loops})", NULL, &res);
	else
		rc = tool_run(c1, in, strlen(in), 60, &res);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(res.status, TOOL_OK);
	out = mem_strdup(res.out);
	tool_result_free(&res);
	mem_free(in);
	mem_free(c1);
	arena_free(a);
	case_free(c);
	return out;
}

START_TEST(same_answer)
{
	char *p, *q;

	if (!have_route())
		return;
	p = answer(ROUTE_PROCESS, "same.yaml");
	q = answer(ROUTE_INPROC, "same.yaml");
	ck_assert_str_eq(p, q);
	ck_assert_ptr_nonnull(strstr(q, "__inplace_operands_attr__"));
	mem_free(p);
	mem_free(q);
	inproc_end();
}
END_TEST

/* The worker times MLIR's parse, pass and print of each call it
 * answers (bench_mlir_inproc's split): an answer counts all three, a
 * parse error the parse alone, a crash nothing. */
START_TEST(phases_timed)
{
	InprocPhases p0, p1, p2, p3;
	ToolReport t;
	ToolResult res;
	char *q;

	if (!have_route())
		return;
	inproc_end();
	setenv("BUFDIFF_INPROC_CRASH", "crash-here", 1);
	inproc_phases(&p0);
	q = answer(ROUTE_INPROC, "phases.yaml");
	mem_free(q);
	inproc_phases(&p1);
	ck_assert_int_eq(p1.answers, p0.answers + 1);
	for (int i = 0; i < 3; i++)
		ck_assert(p1.s[i] > p0.s[i]);
	ck_assert_int_eq(inproc_call(&(ToolCall){"mlir-opt-22", "func.func @f(",
						 13, 60, 0, false},
				     "builtin.module(canonicalize)", NULL, &res),
			 0);
	ck_assert_int_eq(res.status, TOOL_EXIT);
	tool_result_free(&res);
	inproc_phases(&p2);
	ck_assert_int_eq(p2.answers, p1.answers + 1);
	ck_assert(p2.s[0] > p1.s[0]);
	ck_assert(p2.s[1] == p1.s[1] && p2.s[2] == p1.s[2]);
	ck_assert_int_eq(decide(ROUTE_INPROC, "crash-here.yaml", NULL, &t), 1);
	ck_assert_str_eq(t.status, "killed by signal 11 (SIGSEGV)");
	inproc_phases(&p3);
	ck_assert_int_eq(p3.answers, p2.answers);
	ck_assert(memcmp(p3.s, p2.s, sizeof p3.s) == 0);
	unsetenv("BUFDIFF_INPROC_CRASH");
	inproc_end();
}
END_TEST

/* A worker killed mid-call: the tool's crash, its command mlir-opt-22's;
 * then a fresh worker answers. */
START_TEST(crash_then_fresh_worker)
{
	ToolReport t;

	if (!have_route())
		return;
	inproc_end(); /* the hooks are read by a worker forked after this */
	setenv("BUFDIFF_INPROC_CRASH", "crash-here", 1);
	ck_assert_int_eq(decide(ROUTE_INPROC, "ok-first.yaml", NULL, &t), 0);
	ck_assert_str_eq(t.status, "");
	ck_assert_int_eq(decide(ROUTE_INPROC, "crash-here.yaml", NULL, &t), 1);
	ck_assert_str_eq(t.status, "killed by signal 11 (SIGSEGV)");
	ck_assert_str_eq(t.cmd, "bufdiff export crash-here.yaml --mlir-version "
			 "22 | mlir-opt-22 '--one-shot-bufferize=bufferize-"
			 "function-boundaries test-analysis-only allow-return-"
			 "allocs-from-loops' --mlir-print-op-generic "
			 "--mlir-print-debuginfo --mlir-print-local-scope");
	ck_assert_int_eq(decide(ROUTE_INPROC, "ok-after.yaml", NULL, &t), 0);
	ck_assert_str_eq(t.status, "");
	unsetenv("BUFDIFF_INPROC_CRASH");
	inproc_end();
}
END_TEST

/* A worker that never answers: killed at --tool-timeout, then a fresh
 * one answers. */
START_TEST(hang_then_fresh_worker)
{
	ExternalOpts o = external_opts_default;
	ToolReport t;

	if (!have_route())
		return;
	o.timeout = 1.5;
	inproc_end();
	setenv("BUFDIFF_INPROC_HANG", "hang-here", 1);
	ck_assert_int_eq(decide(ROUTE_INPROC, "hang-here.yaml", &o, &t), 1);
	ck_assert_str_eq(t.status, "timed out after 1.5 s");
	ck_assert_int_eq(decide(ROUTE_INPROC, "ok-later.yaml", &o, &t), 0);
	ck_assert_str_eq(t.status, "");
	unsetenv("BUFDIFF_INPROC_HANG");
	inproc_end();
}
END_TEST

/* The process route is taken when asked, and for another tool. */
START_TEST(routes)
{
	MlirRoute r;

	ck_assert_int_eq(inproc_route_parse("in-process", &r), 0);
	ck_assert_int_eq(r, ROUTE_INPROC);
	ck_assert_int_eq(inproc_route_parse("process", &r), 0);
	ck_assert_int_eq(r, ROUTE_PROCESS);
	ck_assert_int_eq(inproc_route_parse("auto", &r), 0);
	ck_assert_int_eq(r, ROUTE_AUTO);
	ck_assert_int_eq(inproc_route_parse("inprocess", &r), -1);
	inproc_set_route(ROUTE_PROCESS);
	ck_assert(!inproc_wanted("mlir-opt-22"));
	inproc_set_route(ROUTE_INPROC);
	ck_assert(inproc_wanted("mlir-opt-22"));
	ck_assert(!inproc_wanted("mlir-opt-19"));
	ck_assert(!inproc_wanted("mlir-opt-22 --x"));
	inproc_set_route(ROUTE_AUTO);
	/* sanitizer builds too: the worker is never built with them */
	ck_assert(inproc_wanted("mlir-opt-22") == inproc_available());
}
END_TEST

/* A batch (inproc_batch): each program answered as its own call, a
 * failing one (exit 1, its own diagnostics) costing the others nothing,
 * the request ending at a program the server dies on or that hangs. */
static const char pipe1[] = "builtin.module(one-shot-bufferize{bufferize-"
			    "function-boundaries test-analysis-only})";

static ToolCall
call_of(const char *in, double timeout)
{
	return (ToolCall){"mlir-opt-22", in, strlen(in), timeout, 0, false};
}

START_TEST(batch_answers_each)
{
	const char *in[] = {
		"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  return %x : tensor<4xf32>\n}\n",
		"func.func @g() {\n  %0 = nosuch.op : i32\n  return\n}\n",
		"func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  return %x : tensor<4xf32> // crash-here\n}\n",
		"func.func @k() {\n  return\n}\n",
		"func.func @m() {\n  return // hang-here\n}\n",
	};
	ToolCall c[5];
	ToolResult r[5], one;
	int k;

	if (!have_route())
		return;
	inproc_end();
	setenv("BUFDIFF_INPROC_CRASH", "crash-here", 1);
	setenv("BUFDIFF_INPROC_HANG", "hang-here", 1);
	for (int i = 0; i < 5; i++)
		c[i] = call_of(in[i], i == 4 ? 1.5 : 60);
	ck_assert_int_eq(inproc_batch(c, NULL, 5, pipe1, NULL, r, &k), 0);
	ck_assert_int_eq(k, 3); /* the crash is the third's own result */
	ck_assert_int_eq(r[0].status, TOOL_OK);
	ck_assert_int_eq(r[1].status, TOOL_EXIT);
	ck_assert_int_eq(r[1].code, 1);
	ck_assert_int_eq(r[2].status, TOOL_SIGNAL);
	ck_assert_int_eq(r[2].code, SIGSEGV);
	/* the same answers as each program's own call, the crash's too */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(inproc_call(&c[i], pipe1, NULL, &one), 0);
		ck_assert_int_eq(one.status, r[i].status);
		ck_assert_str_eq(one.out, r[i].out);
		ck_assert_str_eq(one.err, r[i].err);
		tool_result_free(&one);
	}
	ck_assert_ptr_nonnull(strstr(r[1].err, "<stdin>:2:"));
	for (int i = 0; i < 3; i++)
		tool_result_free(&r[i]);
	/* the rest in the next request: the hang times out, alone */
	ck_assert_int_eq(inproc_batch(c + 3, NULL, 2, pipe1, NULL, r + 3, &k), 0);
	ck_assert_int_eq(k, 2);
	ck_assert_int_eq(r[3].status, TOOL_OK);
	ck_assert_int_eq(r[4].status, TOOL_TIMEOUT);
	tool_result_free(&r[3]);
	tool_result_free(&r[4]);
	ck_assert_int_eq(inproc_batch(c, NULL, 1, pipe1, NULL, r, &k), 0);
	ck_assert_int_eq(k, 1);
	ck_assert_int_eq(r[0].status, TOOL_OK);
	tool_result_free(&r[0]);
	unsetenv("BUFDIFF_INPROC_CRASH");
	unsetenv("BUFDIFF_INPROC_HANG");
	inproc_end();
}
END_TEST

/* A batch of cases (external_prefill) whose second crashes the server:
 * the crash is cached as its own call's, so deciding the three after it
 * asks nothing more (before, the crashing program was asked again alone:
 * a second crash).  Two requests: the one that ends at the crash, one for
 * the third. */
START_TEST(prefill_keeps_crash)
{
	const Strategy *s = strategy_parse("mlir");
	const char *files[] = {"a.yaml", "crash-here.yaml", "c.yaml"};
	Case *c[3];
	long calls;

	if (!have_route())
		return;
	inproc_end();
	inproc_set_route(ROUTE_INPROC);
	external_forget();
	setenv("BUFDIFF_INPROC_CRASH", "crash-here", 1);
	for (int i = 0; i < 3; i++)
		c[i] = load(files[i]);
	calls = external_stats()->calls;
	ck_assert_int_eq(external_prefill(NULL, s, c, 3), 3);
	ck_assert_int_eq(external_stats()->calls - calls, 2);
	for (int i = 0; i < 3; i++) {
		Decisions ds = {0};
		ToolReport t = {0};
		Diag err;
		int rc = external_decide(NULL, s, c[i], &ds, &t, &err);
		ck_assert_int_eq(rc, i == 1);
		if (i == 1)
			ck_assert_ptr_nonnull(strstr(t.status, "signal 11"));
		mem_free(t.decisions);
		decisions_free(&ds);
		case_free(c[i]);
	}
	ck_assert_int_eq(external_stats()->calls - calls, 2);
	unsetenv("BUFDIFF_INPROC_CRASH");
	inproc_end();
}
END_TEST

static Suite *
inproc_suite(void)
{
	Suite *s = suite_create("inproc");
	TCase *tc = tcase_create("inproc");

	tcase_add_test(tc, routes);
	tcase_add_test(tc, same_answer);
	tcase_add_test(tc, crash_then_fresh_worker);
	tcase_add_test(tc, prefill_keeps_crash);
	tcase_add_test(tc, hang_then_fresh_worker);
	tcase_add_test(tc, batch_answers_each);
	tcase_add_test(tc, phases_timed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	external_register();
	return tu_run((Suite *[]){inproc_suite(), NULL});
}
