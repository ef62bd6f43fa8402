/* test_external.c: outside strategies (oracle/mlir/external.c): every spec form
 * of strategy_parse and the bad ones, the commands they run, the shared
 * options, the answer cache (one call per program text, failures cached
 * too, pre-filled answers, forgetting), the tool report of a failure, and
 * crashes that /bin/sh reports as exit 128+N. */
#include <stdio.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "testutil.h"

#define TOOLS SRCDIR "/tests/tools/"

static const char *seed_text =
	"case: ext/seed\n"
	"program: |\n"
	"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"    %y = add %x, 10 : tensor<3xi32>\n"
	"    %z = add %x, %y : tensor<3xi32>\n"
	"    return %z\n"
	"  }\n"
	"inputs:\n"
	"  x: [1, 2, 3]\n";

static Case *
load(const char *text)
{
	Case *c = NULL;
	Diag d;

	if (case_parse("p.yaml", text, strlen(text), 0, &c, &d))
		ck_abort_msg("case: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	return c;
}

static const Strategy *
parse(const char *spec)
{
	const Strategy *s = strategy_parse(spec);

	ck_assert_msg(s != NULL, "'%s' not parsed", spec);
	return s;
}

/* The command s runs under options o, as a static string. */
static const char *
command_with(const ExternalOpts *o, const Strategy *s)
{
	static char buf[4096];
	Str b = {0};
	char *t;

	external_command(o, s, &b);
	t = str_take(&b);
	ck_assert_ptr_nonnull(t);
	fmt_snprintf(buf, sizeof buf, "%s", t);
	mem_free(t);
	return buf;
}

/* ... under the default options. */
static const char *
command(const Strategy *s)
{
	return command_with(NULL, s);
}

START_TEST(parse_builtin)
{
	const Strategy *s = parse("one-shot");

	ck_assert_ptr_eq(s, strategy_find("one-shot"));
	ck_assert_ptr_null(s->arg);
	ck_assert_str_eq(strategy_label(s), "one-shot");
}
END_TEST

START_TEST(parse_exec)
{
	const Strategy *s = parse("exec:python3 my.py --x 'a b'");

	ck_assert_str_eq(s->name, "exec:python3 my.py --x 'a b'");
	ck_assert_int_eq(s->kind, STRAT_EXEC);
	ck_assert_str_eq(s->arg, "python3 my.py --x 'a b'");
	ck_assert_int_eq(s->version, 0);
	ck_assert_str_eq(strategy_label(s), "exec");
	ck_assert_str_eq(command(s), "python3 my.py --x 'a b'");
	/* the same spec is the same strategy */
	ck_assert_ptr_eq(parse("exec:python3 my.py --x 'a b'"), s);
	s = parse("exec-mlir:cat");
	ck_assert_int_eq(s->kind, STRAT_EXEC_MLIR);
	ck_assert_str_eq(s->arg, "cat");
	ck_assert_str_eq(strategy_label(s), "exec-mlir");
	ck_assert_str_eq(command(s), "cat");
	/* the prefix is exec's, the rest is the command: "exec:exec:x" runs
	 * `exec:x` */
	ck_assert_str_eq(parse("exec:exec:x")->arg, "exec:x");
}
END_TEST

/* The command as one stage of a pipeline. */
static const char *
stage(const Strategy *s)
{
	static char buf[4096];
	Str b = {0};
	char *t;

	external_stage(NULL, s, &b);
	t = str_take(&b);
	ck_assert_ptr_nonnull(t);
	fmt_snprintf(buf, sizeof buf, "%s", t);
	mem_free(t);
	return buf;
}

START_TEST(stages)
{
	ck_assert_str_eq(stage(parse("exec:python3 x.py --a 'b c'")),
			 "python3 x.py --a 'b c'");
	ck_assert_str_eq(stage(parse("exec:a; b")), "sh -c 'a; b'");
	ck_assert_str_eq(stage(parse("exec:a && echo 'x'")),
			 "sh -c 'a && echo '\\''x'\\'''");
	ck_assert_str_eq(stage(parse("exec-mlir:a | b")), "sh -c 'a | b'");
	ck_assert_str_eq(stage(parse("exec:a\nb")), "sh -c 'a\nb'");
	ck_assert_str_eq(stage(parse("exec:a # note")), "sh -c 'a # note'");
	ck_assert_str_eq(stage(parse("mlir")), command(parse("mlir")));
}
END_TEST

START_TEST(parse_mlir)
{
	const Strategy *s = parse("mlir");

	ck_assert_int_eq(s->kind, STRAT_MLIR);
	ck_assert_str_eq(s->arg, "mlir-opt-22");
	ck_assert_int_eq(s->version, 22);
	ck_assert_str_eq(strategy_label(s), "mlir");
	ck_assert_int_eq(external_mlir_version(NULL, s), 22);
	ck_assert_str_eq(command(s), "mlir-opt-22 '--one-shot-bufferize="
			 "bufferize-function-boundaries test-analysis-only "
			 "allow-return-allocs-from-loops' --mlir-print-op-generic "
			 "--mlir-print-debuginfo --mlir-print-local-scope");
	s = parse("mlir:mlir-opt-16");
	ck_assert_int_eq(s->version, 16);
	ck_assert_int_eq(external_mlir_version(NULL, s), 16);
	ck_assert_str_eq(command(s), "mlir-opt-16 '--one-shot-bufferize="
			 "bufferize-function-boundaries test-analysis-only "
			 "allow-return-allocs' --mlir-print-op-generic "
			 "--mlir-print-debuginfo --mlir-print-local-scope");
	ck_assert_int_eq(parse("mlir:/usr/bin/mlir-opt-19")->version, 19);
	/* not a version bufdiff exports for, not an mlir-opt: 22 */
	s = parse("mlir:mlir-opt-17");
	ck_assert_int_eq(s->version, 0);
	ck_assert_int_eq(external_mlir_version(NULL, s), 22);
	s = parse("mlir:my-opt --my-flag");
	ck_assert_int_eq(s->version, 0);
	ck_assert_str_eq(s->arg, "my-opt --my-flag");
	ck_assert_int_eq(external_mlir_version(NULL, s), 22);
	s = parse("mlir-pipeline");
	ck_assert_int_eq(s->kind, STRAT_PIPELINE);
	ck_assert_str_eq(s->arg, "mlir-opt-22");
	ck_assert_str_eq(strategy_label(s), "mlir-pipeline");
	ck_assert_int_eq(parse("mlir-pipeline:mlir-opt-19")->version, 19);
}
END_TEST

START_TEST(parse_bad)
{
	static const char *const bad[] = {
		"", "exec", "exec:", "exec-mlir", "exec-mlir:", "mlir:",
		"mlir-pipeline:", "execx:cat", "mlirx", "mlir-opt-22",
		"Exec:cat", " exec:cat", "no-such-strategy",
	};
	char longspec[2100];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(strategy_parse(bad[i]) == NULL, "'%s' parsed",
			      bad[i]);
	memset(longspec, 'a', sizeof longspec - 1);
	longspec[sizeof longspec - 1] = 0;
	memcpy(longspec, "exec:", 5);
	ck_assert_ptr_null(strategy_parse(longspec));
}
END_TEST

/* The options come from cli.c's flag table (cli.sh pins their parsing);
 * here what they do. */
START_TEST(options)
{
	const Strategy *s = parse("mlir:mlir-opt-19");

	const ExternalOpts v16 = {.timeout = 60.0, .mlir_options = "",
				  .mlir_version = 16};
	const ExternalOpts quoted = {.timeout = 60.0, .mlir_options = "a='b c'",
				     .mlir_version = 16};

	/* --mlir-version beats the tool's name */
	ck_assert_int_eq(external_mlir_version(NULL, s), 19);
	ck_assert_int_eq(external_mlir_version(&v16, s), 16);
	ck_assert_int_eq(external_mlir_version(&v16, parse("exec-mlir:cat")),
			 16);
	/* options go into the pass, shell-quoted */
	ck_assert_str_eq(command_with(&quoted, s),
			 "mlir-opt-19 '--one-shot-bufferize="
			 "bufferize-function-boundaries test-analysis-only "
			 "allow-return-allocs a='\\''b c'\\''' "
			 "--mlir-print-op-generic --mlir-print-debuginfo "
			 "--mlir-print-local-scope");
}
END_TEST

/* ---- the answer cache */

/* external_decide on c under options o: its rc, the report in *t
 * (decisions freed). */
static int
decide_with(const ExternalOpts *o, const Strategy *s, const Case *c,
	    ToolReport *t, Decisions *ds)
{
	Diag err;
	int rc = external_decide(o, s, c, ds, t, &err);

	ck_assert_int_ge(rc, 0);
	mem_free(t->decisions);
	t->decisions = NULL;
	return rc;
}

/* ... under the default options. */
static int
decide(const Strategy *s, const Case *c, ToolReport *t, Decisions *ds)
{
	return decide_with(NULL, s, c, t, ds);
}

static Value *
val(const Case *c, const char *name)
{
	Value *v = prog_value(c->prog, NULL, name);

	ck_assert_ptr_nonnull(v);
	return v;
}

START_TEST(cache_one_call_per_program)
{
	const Strategy *s = parse("exec:sh " TOOLS "answer.sh seed-wrong.json");
	Case *c = load(seed_text), *c2;
	long calls = external_stats()->calls;
	Decisions ds = {0};
	ToolReport t;
	char *other;

	external_forget();
	ck_assert_int_eq(decide(s, c, &t, &ds), 0);
	ck_assert_int_eq(ds.d[val(c, "y")->id].kind, DEC_INPLACE);
	ck_assert_ptr_eq(ds.d[val(c, "y")->id].into, val(c, "x"));
	ck_assert_int_eq(ds.d[val(c, "z")->id].kind, DEC_NEW);
	ck_assert_str_eq(t.cmd, "bufdiff print p.yaml | sh " TOOLS
			 "answer.sh seed-wrong.json");
	ck_assert_str_eq(t.status, "");
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 1);
	/* the same program text again, even from another case: cached */
	c2 = load(seed_text);
	ck_assert_int_eq(decide(s, c2, &t, &ds), 0);
	ck_assert_int_eq(ds.d[val(c2, "y")->id].kind, DEC_INPLACE);
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 1);
	/* another program (x + 11): asked */
	other = mem_strdup(seed_text);
	strstr(other, "10")[1] = '1';
	case_free(c2);
	c2 = load(other);
	ck_assert_int_eq(decide(s, c2, &t, &ds), 0);
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 2);
	/* forgotten: asked again */
	external_forget();
	ck_assert_int_eq(decide(s, c, &t, &ds), 0);
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 3);
	mem_free(other);
	case_free(c);
	case_free(c2);
	external_forget();
}
END_TEST

START_TEST(cache_failures_too)
{
	const Strategy *s = parse("exec:sh " TOOLS "fail.sh");
	Case *c = load(seed_text);
	long calls = external_stats()->calls;
	Decisions ds = {0};
	ToolReport t;

	external_forget();
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(decide(s, c, &t, &ds), 1);
		ck_assert_str_eq(t.status, "exit 3");
		ck_assert_str_eq(t.err, "fake-tool: cannot bufferize this "
				 "program\nfake-tool: giving up");
		ck_assert_str_eq(t.cmd, "bufdiff print p.yaml | sh " TOOLS
				 "fail.sh");
		decisions_free(&ds);
	}
	ck_assert_int_eq(external_stats()->calls, calls + 1);
	case_free(c);
	external_forget();
}
END_TEST

START_TEST(cache_prefilled)
{
	const Strategy *s = parse("exec:sh " TOOLS "fail.sh");
	Case *c = load(seed_text);
	long calls = external_stats()->calls;
	char *in = tir_print(c->prog);
	Decisions ds = {0};
	ToolReport t;

	external_forget();
	external_remember(NULL, s, in, "{\"plan\": {\"y\": \"new\", \"z\": \"y\"}}");
	ck_assert_int_eq(decide(s, c, &t, &ds), 0);
	ck_assert_int_eq(external_stats()->calls, calls);
	ck_assert_ptr_eq(ds.d[val(c, "z")->id].into, val(c, "y"));
	decisions_free(&ds);
	/* the first answer stays */
	external_remember(NULL, s, in, "{}");
	ck_assert_int_eq(decide(s, c, &t, &ds), 0);
	ck_assert_ptr_eq(ds.d[val(c, "z")->id].into, val(c, "y"));
	decisions_free(&ds);
	/* a pre-filled answer is read like any: a bad one is a tool-error */
	external_forget();
	external_remember(NULL, s, in, "{\"plan\": {\"q\": \"new\"}}");
	ck_assert_int_eq(decide(s, c, &t, &ds), 1);
	ck_assert_str_eq(t.status, "answer: 1:11: unknown value %q");
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls);
	mem_free(in);
	case_free(c);
	external_forget();
}
END_TEST

/* The cache is keyed by strategy and MLIR version too. */
START_TEST(cache_keys)
{
	const Strategy *a = parse("exec:sh " TOOLS "answer.sh seed-right.json");
	const Strategy *b = parse("exec:sh " TOOLS "answer.sh seed-wrong.json");
	const Strategy *m = parse("exec-mlir:sh " TOOLS "answer.sh seed-right.json");
	Case *c = load(seed_text);
	long calls = external_stats()->calls;
	Decisions ds = {0};
	ToolReport t;

	external_forget();
	ck_assert_int_eq(decide(a, c, &t, &ds), 0);
	decisions_free(&ds);
	ck_assert_int_eq(decide(b, c, &t, &ds), 0);
	ck_assert_int_eq(ds.d[val(c, "y")->id].kind, DEC_INPLACE);
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 2);
	ck_assert_int_eq(decide(m, c, &t, &ds), 0);
	ck_assert_str_eq(t.cmd, "bufdiff export p.yaml --mlir-version 22 | sh "
			 TOOLS "answer.sh seed-right.json");
	decisions_free(&ds);
	ck_assert_int_eq(decide(m, c, &t, &ds), 0);
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 3);
	ck_assert_int_eq(decide_with(&(ExternalOpts){.timeout = 60.0, .mlir_options = "",
					     .mlir_version = 19}, m,
				     c, &t, &ds), 0);
	ck_assert_str_eq(t.cmd, "bufdiff export p.yaml --mlir-version 19 | sh "
			 TOOLS "answer.sh seed-right.json");
	decisions_free(&ds);
	ck_assert_int_eq(external_stats()->calls, calls + 4);
	case_free(c);
	external_forget();
}
END_TEST

/* A run's `pipeline:` reaches the tool's command and the cache's key:
 * two pipelines on one program are two calls, the same one again none;
 * --mlir-pipeline is the default of the runs without the key. */
START_TEST(cache_keys_pipeline)
{
	static const char *runs =
		"runs:\n"
		"  - strategy: \"mlir-pipeline:sh " TOOLS "memref-fake.sh ok\"\n"
		"    pipeline: one-shot-bufferize,func.func(buffer-deallocation)\n"
		"  - strategy: \"mlir-pipeline:sh " TOOLS "memref-fake.sh ok\"\n"
		"    pipeline: \"one-shot-bufferize{bufferize-function-boundaries}\"\n"
		"  - strategy: \"mlir-pipeline:sh " TOOLS "memref-fake.sh ok\"\n"
		"    pipeline: one-shot-bufferize,func.func(buffer-deallocation)\n"
		"  - strategy: \"mlir-pipeline:sh " TOOLS "memref-fake.sh ok\"\n";
	ExternalOpts o = external_opts_default;
	RunConfig cfg = run_config_default;
	long calls = external_stats()->calls;
	Str b = {0};
	Outcome out;
	char *text;
	Case *c;

	str_puts(&b, seed_text);
	str_puts(&b, runs);
	c = load(text = str_take(&b));
	mem_free(text);
	external_forget();
	o.mlir_pipeline = "p-from-the-flag";
	cfg.tool = &o;
	check_case(&cfg, c, NULL, true, &out);
	ck_assert_int_eq(out.nruns, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(out.runs[i].verdict, VERDICT_AGREE);
	ck_assert_str_eq(c->runs[0].pipeline,
			 "one-shot-bufferize,func.func(buffer-deallocation)");
	ck_assert_str_eq(out.runs[0].pipeline, c->runs[0].pipeline);
	ck_assert_str_eq(out.runs[1].pipeline,
			 "one-shot-bufferize{bufferize-function-boundaries}");
	ck_assert_str_eq(out.runs[3].pipeline, "p-from-the-flag");
	ck_assert_str_eq(out.runs[0].tool.cmd, "bufdiff export p.yaml "
			 "--mlir-version 22 | sh " TOOLS "memref-fake.sh ok "
			 "'--pass-pipeline=builtin.module(one-shot-bufferize,"
			 "func.func(buffer-deallocation))' --mlir-print-op-generic "
			 "--mlir-print-debuginfo --mlir-print-local-scope");
	ck_assert_ptr_nonnull(strstr(out.runs[1].tool.cmd, "'--pass-pipeline="
			      "builtin.module(one-shot-bufferize{bufferize-"
			      "function-boundaries})'"));
	ck_assert_ptr_nonnull(strstr(out.runs[3].tool.cmd, "'--pass-pipeline="
			      "builtin.module(p-from-the-flag)'"));
	/* runs 1 and 3 ask the same: three calls for four runs */
	ck_assert_int_eq(external_stats()->calls, calls + 3);
	outcome_clear(&out);
	case_free(c);
	external_forget();
}
END_TEST

/* A tool's stderr may hold any bytes: reports get printable text. */
START_TEST(report_printable)
{
	const Strategy *s = parse("exec:printf 'bad \\001\\377 bytes\\n' >&2; "
				  "exit 4");
	Case *c = load(seed_text);
	Decisions ds = {0};
	ToolReport t;

	external_forget();
	ck_assert_int_eq(decide(s, c, &t, &ds), 1);
	ck_assert_str_eq(t.status, "exit 4");
	ck_assert_str_eq(t.err, "bad ?? bytes");
	decisions_free(&ds);
	case_free(c);
	external_forget();
}
END_TEST

/* No leak on any path: decisions and reports freed, the cache forgotten. */
START_TEST(no_leaks)
{
	static const char *const specs[] = {
		"exec:sh " TOOLS "answer.sh seed-right.json",
		"exec:sh " TOOLS "garbage.sh", "exec:sh " TOOLS "crash.sh",
		"mlir:sh " TOOLS "mlir-fake.sh ok",
		"mlir:sh " TOOLS "mlir-fake.sh maybe",
	};
	Case *c = load(seed_text);
	long blocks = mem_live_blocks();

	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		const Strategy *s = parse(specs[i]);
		Decisions ds = {0};
		ToolReport t;
		decide(s, c, &t, &ds);
		decisions_free(&ds);
	}
	external_forget();
	ck_assert_int_eq(mem_live_blocks(), blocks);
	case_free(c);
}
END_TEST

/* dash does not exec the last command of -c: a tool killed by a signal
 * comes back as the shell's exit 128+N, reported as the signal. */
START_TEST(crash_through_the_shell)
{
	ToolResult r;
	char buf[128];

	ck_assert_int_eq(tool_run("sh " TOOLS "crash.sh", "", 0, 10, &r), 0);
	ck_assert_int_eq(r.status, TOOL_SIGNAL);
	ck_assert_int_eq(r.code, 11);
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "killed by signal 11 (SIGSEGV)");
	tool_result_free(&r);
	ck_assert_int_eq(tool_run("sh -c 'kill -ABRT $$'", "", 0, 10, &r), 0);
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf),
			 "killed by signal 6 (SIGABRT)");
	tool_result_free(&r);
	/* no signal has number 200 - 128 = 72: an exit code */
	ck_assert_int_eq(tool_run("exit 200", "", 0, 10, &r), 0);
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf), "exit 200");
	tool_result_free(&r);
	ck_assert_int_eq(tool_run("exit 128", "", 0, 10, &r), 0);
	ck_assert_str_eq(tool_status_str(&r, buf, sizeof buf), "exit 128");
	tool_result_free(&r);
}
END_TEST

/* A corpus may name many commands: each distinct spec gets its slot. */
START_TEST(parse_many)
{
	const Strategy *s[100];
	char spec[64];

	for (int i = 0; i < 100; i++) {
		fmt_snprintf(spec, sizeof spec, "exec:true %d", i);
		s[i] = parse(spec);
		ck_assert_str_eq(s[i]->arg, spec + 5);
	}
	for (int i = 0; i < 100; i++) {
		fmt_snprintf(spec, sizeof spec, "exec:true %d", i);
		ck_assert_ptr_eq(parse(spec), s[i]);
	}
}
END_TEST

static Suite *
external_suite(void)
{
	Suite *s = suite_create("external");
	TCase *tc = tcase_create("parse");
	TCase *tk = tcase_create("cache");

	tcase_add_test(tc, parse_builtin);
	tcase_add_test(tc, parse_exec);
	tcase_add_test(tc, parse_mlir);
	tcase_add_test(tc, parse_bad);
	tcase_add_test(tc, options);
	tcase_add_test(tc, stages);
	suite_add_tcase(s, tc);
	tcase_add_test(tk, cache_one_call_per_program);
	tcase_add_test(tk, cache_failures_too);
	tcase_add_test(tk, cache_prefilled);
	tcase_add_test(tk, cache_keys);
	tcase_add_test(tk, cache_keys_pipeline);
	tcase_add_test(tk, report_printable);
	tcase_add_test(tk, no_leaks);
	tcase_add_test(tk, crash_through_the_shell);
	tcase_add_test(tk, parse_many);
	suite_add_tcase(s, tk);
	return s;
}

int
main(void)
{
	trust_all(); /* the project's own cases and texts run their tools */
	external_register();
	return tu_run((Suite *[]){external_suite(), NULL});
}
