/* test_limits.c: hostile input that is too big or too long rather than
 * malformed (issue 12 items 13, 14, 16): the work budget and the wall
 * clock of a run, launches in flight, what the process holds and its
 * memory limit, what the loader refuses before it builds anything.  The big inputs are generated here, not committed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

/* Each call of @t calls itself twice, `depth` deep: 2^40 calls. */
static const char calltree[] =
	"case: limits/call-tree\n"
	"program: |\n"
	"  func @main(%x: i64) -> i64 {\n"
	"    %n = const 40 : index\n"
	"    %r = call @t(%x, %n)\n"
	"    return %r\n"
	"  }\n"
	"  func @t(%a: i64, %d: index) -> i64 {\n"
	"    %z = eq %d, 0 : index\n"
	"    %r = if %z -> (i64) {\n"
	"      yield %a\n"
	"    } else {\n"
	"      %e = sub %d, 1 : index\n"
	"      %b = call @t(%a, %e)\n"
	"      %c = call @t(%b, %e)\n"
	"      yield %c\n"
	"    }\n"
	"    return %r\n"
	"  }\n"
	"inputs: {x: 1}\n";

/* A loop of 10^6 trips whose body adds a 2^20-element tensor. */
static const char bigloop[] =
	"case: limits/big-loop\n"
	"program: |\n"
	"  func @main(%x: tensor<1048576xi32>) -> tensor<1048576xi32> {\n"
	"    %r = for %i = 0 to 1000000 iter(%a = %x) -> (tensor<1048576xi32>) {\n"
	"      %b = add %a, 1 : tensor<1048576xi32>\n"
	"      yield %b\n"
	"    }\n"
	"    return %r\n"
	"  }\n"
	"inputs: {x: {splat: 0}}\n";

/* check_case on text under --max-work/--timeout (and cfg, NULL: the
 * defaults); the outcome in *o. */
static Status
check_limited_cfg(const RunConfig *cfg, const char *text, int64_t work,
		  double timeout, Outcome *o)
{
	RunConfig lim = cfg ? *cfg : run_config_default;
	Case *c = NULL;
	Diag d;
	Status st;

	lim.max_work = work;
	lim.timeout = timeout;
	if (case_parse("t.yaml", text, strlen(text), 0, &c, &d))
		ck_abort_msg("load failed: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	check_case(&lim, c, NULL, true, o);
	st = o->status;
	case_free(c);
	return st;
}

static Status
check_limited(const char *text, int64_t work, double timeout, Outcome *o)
{
	return check_limited_cfg(NULL, text, work, timeout, o);
}

/* The case checks out (every run as expected), with n runs. */
static void
check_ok(const char *text, int n)
{
	Outcome o;

	ck_assert_int_eq(check_limited(text, 0, 0, &o), STATUS_OK);
	ck_assert_int_eq(o.nruns, n);
	outcome_clear(&o);
}

static void
expect_error(const Outcome *o, int line, int col, const char *msg)
{
	ck_assert_msg(o->errored, "no error");
	ck_assert_msg(!strcmp(o->err.msg, msg), "got %d:%d: %s", o->err.loc.line,
		      o->err.loc.col, o->err.msg);
	if (line) {
		ck_assert_int_eq(o->err.loc.line, line);
		ck_assert_int_eq(o->err.loc.col, col);
	}
}

/* The case stops with msg at line:col (line 0: anywhere). */
static void
limited_error(const char *text, int64_t work, double timeout, int line,
	      int col, const char *msg)
{
	Outcome o;

	ck_assert_int_eq(check_limited(text, work, timeout, &o), STATUS_BAD);
	expect_error(&o, line, col, msg);
	outcome_clear(&o);
}

#define WORK_MSG(n) "work limit of " #n " reached (elements processed, " \
		    "loop trips, calls and launches)"

/* An exponential call tree stops at the work limit, at a call. */
START_TEST(work_call_tree)
{
	limited_error(calltree, 1 << 20, 0, 14, 7, WORK_MSG(1048576));
}
END_TEST

/* Each trip's 2^20 elements count: 2^24 units last 15 trips. */
START_TEST(work_loop_body)
{
	limited_error(bigloop, 1 << 24, 0, 5, 7, WORK_MSG(16777216));
}
END_TEST

/* A matmul is m*n*k: refused before it starts, at the default limit too
 * (cases/errors/matmul-4096-i64.yaml); here a small one under a small
 * limit. */
START_TEST(work_matmul)
{
	static const char text[] =
		"case: limits/matmul\n"
		"program: |\n"
		"  func @main(%a: tensor<64x64xi64>) -> tensor<64x64xi64> {\n"
		"    %m = matmul %a, %a into %a : tensor<64x64xi64>\n"
		"    return %m\n"
		"  }\n"
		"inputs: {a: {splat: 1}}\n";
	Outcome o;

	/* 64^3 = 262144 multiply-adds */
	ck_assert_int_eq(check_limited(text, 270000, 0, &o), STATUS_OK);
	outcome_clear(&o);
	limited_error(text, 260000, 0, 4, 5, WORK_MSG(260000));
}
END_TEST

/* The bufferized run has its own budget: past it the run stops early,
 * named like the reference's: here at the copy the yield makes.  A
 * limit, not a verdict (issue 26): copy-all does more work than the
 * reference, so the run's error, never `diverge`. */
START_TEST(work_bufferized_run)
{
	static const char text[] =
		"case: limits/exec\n"
		"program: |\n"
		"  func @main(%x: tensor<4096xi32>) -> tensor<4096xi32> {\n"
		"    %r = for %i = 0 to 100 iter(%a = %x) -> (tensor<4096xi32>) {\n"
		"      %b = add %a, 1 : tensor<4096xi32>\n"
		"      yield %b\n"
		"    }\n"
		"    return %r\n"
		"  }\n"
		"inputs: {x: {splat: 0}}\n";
	Case *c = NULL;
	Tensor **ref = NULL;
	int nref = 0;
	RunOut r;
	Diag d;

	ck_assert_int_eq(case_parse("t.yaml", text, strlen(text), 0, &c, &d), 0);
	ck_assert_int_eq(ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref,
				 &nref, &d), 0);
	c->lim.max_work = 100000;
	diff_run(NULL, c, NULL, strategy_find("copy-all"), ref, nref, &r);
	ck_assert_str_eq(r.err.msg, WORK_MSG(100000));
	ck_assert_int_eq(r.err.loc.line, 6);
	ck_assert(r.limited);
	ck_assert_int_eq(r.status, STATUS_BAD);
	ck_assert_int_ne(r.verdict, VERDICT_DIVERGE);
	runout_clear(&r);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	case_free(c);
}
END_TEST

/* --timeout: the same call tree stops at the wall clock (where it is
 * then is not fixed). */
START_TEST(timeout_call_tree)
{
	limited_error(calltree, 0, 0.001, 0, 0, "time limit of 0.001 s reached");
}
END_TEST

/* 20,000 launches in a loop, none awaited, under every schedule: the
 * executor walks the launches in flight, not every launch made so far
 * (it was quadratic, cubic under random schedules: 34 s of CPU for this
 * case, now a fraction of a second). */
START_TEST(launches_unawaited)
{
	static const char text[] =
		"case: limits/launches\n"
		"program: |\n"
		"  func @main(%x: tensor<4xi32>) -> tensor<4xi32> {\n"
		"    %r = for %i = 0 to 20000 iter(%a = %x) -> (tensor<4xi32>) {\n"
		"      %f = async stream 1 -> (tensor<4xi32>) {\n"
		"        %b = add %a, 1 : tensor<4xi32>\n"
		"        yield %b\n"
		"      }\n"
		"      %c = add %a, 1 : tensor<4xi32>\n"
		"      yield %c\n"
		"    }\n"
		"    return %r\n"
		"  }\n"
		"inputs: {x: [1, 2, 3, 4]}\n"
		"expect: {outputs: [[20001, 20002, 20003, 20004]]}\n"
		"runs:\n"
		"  - {strategy: one-shot, verdict: agree}\n"
		"  - {strategy: copy-all, schedule: \"random:3\", verdict: agree}\n";

	check_ok(text, 2);
}
END_TEST

/* ---- what the process holds (issue 12 item 14) */

/* x (2^20 f32, 4 MiB) through a chain; each op reads the one before, the
 * last reads x too; three runs that agree. */
#define MEM_T "tensor<1048576xf32>"
static const char memchain[] =
	"case: limits/memory-chain\n"
	"program: |\n"
	"  func @main(%x: " MEM_T ") -> " MEM_T " {\n"
	"    %a = add %x, 1.0 : " MEM_T "\n"
	"    %b = mul %a, 2.0 : " MEM_T "\n"
	"    %c = sub %b, 3.0 : " MEM_T "\n"
	"    %d = abs %c : " MEM_T "\n"
	"    %e = add %d, %x : " MEM_T "\n"
	"    return %e\n"
	"  }\n"
	"inputs: {x: {random: 1}}\n"
	"runs:\n"
	"  - {strategy: copy-all, schedule: sync}\n"
	"  - {strategy: one-shot, schedule: sync}\n"
	"  - {strategy: copy-all, schedule: late}\n";
enum { MEM_P = 4 << 20 };       /* bytes of one tensor */

/* The bytes mem_alloc held at most while the case was checked, beyond
 * what its loading left (the input among them). */
static int64_t
check_peak(const char *text, Outcome *o)
{
	Case *c = NULL;
	Diag d;
	int64_t base;

	if (case_parse("t.yaml", text, strlen(text), 0, &c, &d))
		ck_abort_msg("load failed: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	base = mem_held();
	mem_peak_reset();
	check_case(NULL, c, NULL, true, o);
	case_free(c);
	return mem_peak() - base;
}

/* Beyond the case's input, the process holds the reference's output and
 * one run's two live tensors: 3 tensors, not 6 (a copy of the input in
 * each run, each run's output kept beside the reference's). */
START_TEST(memory_runs)
{
	Outcome o;
	int64_t peak = check_peak(memchain, &o);

	ck_assert_int_eq(o.status, STATUS_OK);
	ck_assert_int_eq(o.nruns, 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(o.runs[i].verdict, VERDICT_AGREE);
		ck_assert_ptr_eq(o.runs[i].ex.outs[0], o.outs[0]); /* shared */
		ck_assert_ptr_null(o.runs[i].bp);       /* released */
	}
	outcome_clear(&o);
	ck_assert_msg(peak <= 3 * MEM_P + (1 << 20), "peak %lld bytes",
		      (long long)peak);
}
END_TEST

/* A run that writes its input in place gets its own copy of it; the case
 * keeps the original for the next run (whose verdict would change if the
 * first one had written the case's input). */
START_TEST(memory_input_copy_on_write)
{
	static const char text[] =
		"case: limits/input-cow\n"
		"program: |\n"
		"  func @main(%x: tensor<4xi32>) -> tensor<4xi32> {\n"
		"    %a = add %x, 1 : tensor<4xi32>\n"
		"    return %a\n"
		"  }\n"
		"inputs: {x: [1, 2, 3, 4]}\n"
		"expect: {outputs: [[2, 3, 4, 5]]}\n"
		"runs:\n"
		"  - {strategy: inplace-all, verdict: agree}\n"
		"  - {strategy: inplace-all, verdict: agree}\n"
		"  - {strategy: copy-all, verdict: agree}\n";

	check_ok(text, 3);
}
END_TEST

/* The memory limit's message for a limit of lim bytes. */
static const char *
mem_msg(int64_t lim, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "memory limit of %lld bytes reached (all the process "
		 "holds: data, tensors, shadows, reports; --max-memory)",
		 (long long)lim);
	return buf;
}

/* Past the process's limit: one error naming it, at the op reached (the
 * reference's), or the run's error; nothing leaks. */
START_TEST(memory_limit)
{
	Case *c = NULL;
	Diag d;
	Outcome o;
	char want[256];
	int64_t lim;

	if (case_parse("t.yaml", memchain, strlen(memchain), 0, &c, &d))
		ck_abort_msg("load failed: %s", d.msg);
	/* the reference holds a and b at %b: 2 tensors, one too many */
	lim = mem_held() + MEM_P + MEM_P / 2;
	mem_limit(lim);
	check_case(NULL, c, NULL, true, &o);
	mem_limit(0);
	ck_assert_int_eq(o.status, STATUS_BAD);
	ck_assert_str_eq(o.err.msg, mem_msg(lim, want, sizeof want));
	ck_assert_int_eq(o.err.loc.line, 5);
	ck_assert_int_eq(o.err.loc.col, 5);
	outcome_clear(&o);
	/* the runs: the reference's output and copy-all's 2 tensors do not
	 * fit in 2.5 tensors; each copy-all run says so, one-shot (1 tensor
	 * of its own) still runs */
	lim = mem_held() + 2 * MEM_P + MEM_P / 2;
	mem_limit(lim);
	check_case(NULL, c, NULL, true, &o);
	mem_limit(0);
	mem_msg(lim, want, sizeof want);
	ck_assert_int_eq(o.status, STATUS_BAD);
	ck_assert_int_eq(o.nruns, 3);
	for (int i = 0; i < 3; i += 2) {
		ck_assert_int_eq(o.runs[i].status, STATUS_BAD);
		ck_assert_str_eq(o.runs[i].err.msg, want);
	}
	ck_assert_int_eq(o.runs[1].verdict, VERDICT_AGREE); /* one-shot fits */
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* A correct plan holding more at once than the reference (a late free)
 * stops at the payload limit: without `limit:` the run's error, with it
 * skipped (as expected), with the wrong message a failed expectation;
 * never a verdict.  A run that expects a limit and does not stop at one
 * fails. */
static const char latefree[] =
	"case: limits/late-free\n"
	"limits: {bytes: 12288}\n"
	"program: |\n"
	"  func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {\n"
	"    %a = add %x, 1.0 : tensor<1024xf32>\n"
	"    %b = mul %a, 2.0 : tensor<1024xf32>\n"
	"    %c = sub %b, 1.0 : tensor<1024xf32>\n"
	"    %d = add %c, 1.0 : tensor<1024xf32>\n"
	"    return %d\n"
	"  }\n"
	"inputs: {x: {splat: 1.0}}\n"
	"runs:\n"
	"  - free: {a: after d}\n";

START_TEST(payload_limit_not_a_verdict)
{
	static const char want[] = "live buffers need 16384 bytes, over the "
				   "limit of 12288";
	char text[2048];
	Outcome o;

	ck_assert_int_eq(check_limited(latefree, 0, 0, &o), STATUS_BAD);
	ck_assert_int_eq(o.runs[0].status, STATUS_BAD);
	ck_assert(o.runs[0].limited);
	ck_assert_str_eq(o.runs[0].err.msg, want);
	ck_assert_int_eq(o.runs[0].err.loc.line, 7);
	outcome_clear(&o);
	fmt_snprintf(text, sizeof text, "%s    limit: \"over the limit of "
		     "12288\"\n", latefree);
	ck_assert_int_eq(check_limited(text, 0, 0, &o), STATUS_OK);
	ck_assert(o.runs[0].skipped);
	outcome_clear(&o);
	fmt_snprintf(text, sizeof text, "%s    limit: \"work limit\"\n",
		     latefree);
	ck_assert_int_eq(check_limited(text, 0, 0, &o), STATUS_FAIL);
	ck_assert_ptr_nonnull(strstr(o.why, "expected a limit"));
	outcome_clear(&o);
	/* copy-all frees at the last use: it fits, and `limit:` fails */
	fmt_snprintf(text, sizeof text, "%.*s  - strategy: copy-all\n"
		     "    limit: \"over the limit\"\n",
		     (int)(strstr(latefree, "  - free") - latefree), latefree);
	ck_assert_int_eq(check_limited(text, 0, 0, &o), STATUS_FAIL);
	ck_assert_ptr_nonnull(strstr(o.why, "verdict agree, expected a limit"));
	outcome_clear(&o);
}
END_TEST

/* 256 runs aliasing one run with a plan of 2000 decisions: parsed once
 * (it held 256 plans, and looked up 256 x 2000 names). */
START_TEST(loader_alias_runs)
{
	Str b = {0};
	char *s;
	Case *c = NULL;
	Diag d;
	int64_t before;

	str_puts(&b, "case: t\nprogram: |\n  func @main(%x: tensor<4xf32>) -> "
		 "tensor<4xf32> {\n");
	for (int i = 0; i < 2000; i++)
		if (i)
			str_printf(&b, "    %%v%d = add %%v%d, 1.0 : "
				   "tensor<4xf32>\n", i, i - 1);
		else
			str_puts(&b, "    %v0 = add %x, 1.0 : tensor<4xf32>\n");
	str_puts(&b, "    return %v1999\n  }\ninputs: {x: [1, 2, 3, 4]}\n"
		 "runs:\n  - &r {strategy: copy-all, plan: {");
	for (int i = 0; i < 2000; i++)
		str_printf(&b, "%sv%d: new", i ? ", " : "", i);
	str_puts(&b, "}}\n");
	for (int i = 1; i < MAX_RUNS; i++)
		str_puts(&b, "  - *r\n");
	s = str_take(&b);
	before = mem_held();
	if (case_parse("t.yaml", s, strlen(s), 0, &c, &d))
		ck_abort_msg("load failed: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_int_eq(c->nruns, MAX_RUNS);
	ck_assert_ptr_eq(c->runs[MAX_RUNS - 1].plan, c->runs[0].plan);
	ck_assert_int_eq(c->runs[MAX_RUNS - 1].nplan, 2000);
	/* the text, the program and one plan: well under 2000 x 256 Forced */
	ck_assert_msg(mem_held() - before < 4 << 20, "held %lld bytes",
		      (long long)(mem_held() - before));
	case_free(c);
	mem_free(s);
}
END_TEST

/* ---- what the loader refuses before it builds anything */

static void
load_error(const char *text, size_t len, int line, int col, const char *msg)
{
	Case *c = NULL;
	Diag d;

	ck_assert_int_eq(case_parse("t.yaml", text, len, 0, &c, &d), -1);
	ck_assert_msg(!strcmp(d.msg, msg), "got %d:%d: %s", d.loc.line,
		      d.loc.col, d.msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
	case_free(c);
}

#define PROG1 "program: |\n  func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n" \
	      "    return %x\n  }\n"

START_TEST(loader_caps)
{
	size_t n = MAX_CASE_BYTES + 1;
	char *t = malloc(n + 1);
	Str b = {0};
	char *s;

	/* a file over 64 MiB: refused before libyaml reads it */
	memset(t, 'a', n);
	memcpy(t, "about: ", 7);
	t[n] = 0;
	load_error(t, n, 1, 1, "the case file has 67108865 bytes, over the "
		   "limit of 67108864");
	free(t);
	/* 2^21 + 1 scalars in one list (4 MB): refused at the one too many */
	str_puts(&b, "about: [");
	for (int i = 0; i <= MAX_YAML_NODES; i++)
		str_puts(&b, "0,");
	str_puts(&b, "]\n");
	s = str_take(&b);
	load_error(s, strlen(s), 1, 9 + 2 * (MAX_YAML_NODES - 3),
		   "more than 2097152 YAML nodes (give big data as {splat:} "
		   "or {random:})");
	mem_free(s);
	/* "\0" in a quoted scalar would cut the name there */
	load_error("case: \"a\\0b\"\n", 13, 1, 7,
		   "NUL character in a YAML scalar");
	/* 50,000 runs aliasing one mapping (558 MB from a 350 KB file) */
	str_puts(&b, "case: t\n" PROG1 "inputs: {x: [1, 2, 3, 4]}\n"
		 "runs: [&r {strategy: copy-all}");
	for (int i = 1; i < 50000; i++)
		str_puts(&b, ", *r");
	str_puts(&b, "]\n");
	s = str_take(&b);
	load_error(s, strlen(s), 7, 7, "a case holds at most 256 runs, this "
		   "one 50000");
	mem_free(s);
	/* an infinite range gave all-NaN data without a word */
	s = "case: t\n" PROG1 "inputs: {x: {random: 1, min: -.inf, max: .inf}}\n";
	load_error(s, strlen(s), 6, 30, "input x: random needs finite min and "
		   "max (max - min finite too)");
}
END_TEST

/* One list named twice through an alias is two tensors: all data of a
 * case together is bounded (1 GiB), checked before it is made. */
START_TEST(loader_data_bytes)
{
	static const char text[] =
		"case: t\n"
		"program: |\n"
		"  func @main(%x: tensor<67108864xf64>) -> tensor<67108864xf64> {\n"
		"    return %x\n"
		"  }\n"
		"inputs: {x: &big {splat: 1}}\n"
		"expect: {outputs: [*big]}\n";

	load_error(text, strlen(text), 6, 13, "the case's data needs more than "
		   "1073741824 bytes (inputs and expected outputs together; "
		   "YAML aliases count at each use)");
}
END_TEST

/* --memory-trace: at most 2^20 rows a run, then a line that says so. */
START_TEST(memory_trace_cap)
{
	static const char text[] =
		"case: limits/trace\n"
		"program: |\n"
		"  func @main(%x: i32) -> i32 {\n"
		"    %r = for %i = 0 to 600000 iter(%a = %x) -> (i32) {\n"
		"      %b = add %a, 1 : i32\n"
		"      yield %b\n"
		"    }\n"
		"    return %r\n"
		"  }\n"
		"inputs: {x: 0}\n"
		"runs: [{strategy: copy-all, schedule: sync}]\n";
	FILE *f = tmpfile();
	char line[128], last[128] = "";
	long rows = 0;
	Outcome o;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(check_limited_cfg(&(RunConfig){.trace = f, .nrandom = 8},
					   text, 0, 0, &o), STATUS_OK);
	outcome_clear(&o);
	rewind(f);
	while (fgets(line, sizeof line, f)) {
		rows++;
		strcpy(last, line);
	}
	fclose(f);
	ck_assert_int_eq(rows, (1 << 20) + 1);
	ck_assert_str_eq(last, "# truncated: this run has more than 1048576 "
			 "steps\n");
}
END_TEST

static Suite *
limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *t = tcase_create("budget");

	tcase_add_test(t, work_call_tree);
	tcase_add_test(t, work_loop_body);
	tcase_add_test(t, work_matmul);
	tcase_add_test(t, work_bufferized_run);
	tcase_add_test(t, payload_limit_not_a_verdict);
	tcase_add_test(t, timeout_call_tree);
	tcase_add_test(t, launches_unawaited);
	suite_add_tcase(s, t);
	t = tcase_create("loader");
	tcase_add_test(t, loader_caps);
	tcase_add_test(t, loader_data_bytes);
	tcase_add_test(t, memory_trace_cap);
	tcase_add_test(t, loader_alias_runs);
	suite_add_tcase(s, t);
	t = tcase_create("memory");
	tcase_add_test(t, memory_runs);
	tcase_add_test(t, memory_input_copy_on_write);
	tcase_add_test(t, memory_limit);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){limits_suite(), NULL});
}
