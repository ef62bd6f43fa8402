/* test_case.c: the YAML case loader, data forms, runs, the checker and
 * the JSON report (oracle/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

/* FORMAT.md §2's example, verbatim. */
static const char *format_example =
	"case: seed/old-input-still-needed     # required, unique in a corpus\n"
	"about: y = x + 10 may not overwrite x while z = x + y still reads x.\n"
	"program: |\n"
	"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"    %y = add %x, 10 : tensor<3xi32>\n"
	"    %z = add %x, %y : tensor<3xi32>\n"
	"    return %z\n"
	"  }\n"
	"entry: main                           # optional\n"
	"inputs:                               # by param name, without %\n"
	"  x: [1, 2, 3]                        # nested or flat row-major list; scalars as numbers\n"
	"  # w: {splat: 0.5}   v: {random: 7, min: -1, max: 1}   (seeded; ints inclusive)\n"
	"expect:                               # optional; checked against the reference interpreter\n"
	"  outputs:\n"
	"    - [12, 14, 16]\n"
	"  # error: {line: 5, message: \"undefined value %q\"}   for cases that must be rejected;\n"
	"  #        line is the line in the .yaml file, message a substring of the error\n"
	"runs:                                 # optional; each bufferized run and what it must show\n"
	"  - strategy: one-shot\n"
	"    verdict: agree\n"
	"  - plan: {y: x}                      # forced decisions: result y computed into x's buffer\n"
	"    verdict: diverge\n"
	"    outputs: [[22, 24, 26]]\n"
	"    blame:\n"
	"      - {writer: y, victim: x, reader: z}\n"
	"    memory: {peak_bytes: 24}\n";

/* Lines 1-6 of most test cases below. */
#define HEAD                                                     \
	"case: t\n"                                              \
	"program: |\n"                                           \
	"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"   \
	"    %y = add %x, 10 : tensor<3xi32>\n"                  \
	"    return %y\n"                                        \
	"  }\n"

static Case *
load_ok(const char *text)
{
	Case *c = NULL;
	Diag d;

	if (case_parse("t.yaml", text, strlen(text), 0, &c, &d))
		ck_abort_msg("load failed: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	return c;
}

#define LOAD_ERR(text, line, col, msg) load_err(text, line, col, msg, __LINE__)

static void
load_err(const char *text, int line, int col, const char *msg, int at)
{
	Case *c = NULL;
	Diag d;
	int rc = case_parse("t.yaml", text, strlen(text), 0, &c, &d);

	ck_assert_msg(rc == -1, "test line %d: loaded", at);
	ck_assert_msg(d.loc.line == line && d.loc.col == col && !strcmp(d.msg, msg),
		      "test line %d: got %d:%d: %s", at, d.loc.line, d.loc.col,
		      d.msg);
	case_free(c);
}

/* ------------------------------------------------------------ loading */

START_TEST(loads_format_example)
{
	Case *c = load_ok(format_example);
	Run *r;

	ck_assert_str_eq(c->name, "seed/old-input-still-needed");
	ck_assert_str_eq(c->about, "y = x + 10 may not overwrite x while z = x + y still reads x.");
	ck_assert_str_eq(c->entry->name, "main");
	ck_assert_int_eq(c->ninputs, 1);
	ck_assert_int_eq(c->inputs[0]->n, 3);
	ck_assert_int_eq(tensor_geti(c->inputs[0], 2), 3);
	ck_assert(c->has_outputs && !c->has_error);
	ck_assert_int_eq(c->nwant, 1);
	ck_assert_int_eq(tensor_geti(c->want[0], 0), 12);
	ck_assert_int_eq(tensor_geti(c->want[0], 2), 16);
	/* program locations point into the .yaml file */
	ck_assert_int_eq(c->entry->body->ops[0]->loc.line, 5);
	ck_assert_int_eq(c->entry->body->ops[0]->loc.col, 5);
	ck_assert_int_eq(c->nruns, 2);
	r = &c->runs[0];
	ck_assert_str_eq(r->strategy->name, "one-shot");
	ck_assert_int_eq(r->verdict, VERDICT_AGREE);
	ck_assert_int_eq(r->nplan, 0);
	ck_assert(!r->has_schedule && !r->outputs && !r->has_blame);
	ck_assert_int_eq(r->memory[MS_PEAK_BYTES], -1);
	r = &c->runs[1];
	ck_assert_int_eq(r->loc.line, 21);
	ck_assert_ptr_null(r->strategy);
	ck_assert_int_eq(r->nplan, 1);
	ck_assert_str_eq(r->plan[0].result->name, "y");
	ck_assert_str_eq(r->plan[0].operand->name, "x");
	ck_assert_int_eq(r->verdict, VERDICT_DIVERGE);
	ck_assert_int_eq(r->noutputs, 1);
	ck_assert_int_eq(tensor_geti(r->outputs[0], 1), 24);
	ck_assert_int_eq(r->nblame, 1);
	ck_assert_str_eq(r->blame[0].writer->name, "y");
	ck_assert_str_eq(r->blame[0].victim->name, "x");
	ck_assert_str_eq(r->blame[0].reader->name, "z");
	ck_assert_int_eq(r->blame[0].kind, -1);
	ck_assert_int_eq(r->memory[MS_PEAK_BYTES], 24);
	ck_assert_int_eq(r->memory[MS_COPIES], -1);
	case_free(c);
}
END_TEST

START_TEST(yaml_errors)
{
	LOAD_ERR("case: t\nprogram: [1, 2\n", 3, 1,
		 "did not find expected ',' or ']' (while parsing a flow sequence)");
	LOAD_ERR("case: t\n  bad: 1\n", 2, 6,
		 "mapping values are not allowed in this context");
	LOAD_ERR("", 1, 1, "empty case file");
	LOAD_ERR("- 1\n", 1, 1, "a case file must be a mapping (case:, program:, ...)");
	LOAD_ERR("case: a\n---\ncase: b\n", 3, 1, "a case file holds one YAML document");
}
END_TEST

START_TEST(key_errors)
{
	LOAD_ERR("case: t\nabout: x\n", 1, 1, "missing required key 'program'");
	LOAD_ERR("program: x\n", 1, 1, "missing required key 'case'");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3]}\nfoo: 1\n", 8, 1,
		 "unknown key 'foo' (expected one of: case, about, program, "
		 "entry, inputs, expect, runs, limits, source)");
	LOAD_ERR(HEAD "case: u\n", 7, 1, "duplicate key 'case'");
	LOAD_ERR(HEAD "expect:\n  output: []\n", 8, 3,
		 "unknown key 'output' in expect (expected one of: outputs, error, "
		 "failure)");
	LOAD_ERR(HEAD "expect: {error: {line: 1}}\n", 7, 17,
		 "expect.error needs 'line' and 'message'");
	LOAD_ERR(HEAD "expect: {error: {line: x, message: m}}\n", 7, 24,
		 "expect.error: 'line' must be an integer >= 1");
	LOAD_ERR(HEAD "inputs: [1]\n", 7, 9, "'inputs' must be a mapping");
	LOAD_ERR("case: [a]\nprogram: x\n", 1, 7, "'case' must be a string");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3]}\nruns:\n  - strategy: copy-all\n    verdit: agree\n",
		 10, 5, "unknown key 'verdit' in run (expected one of: strategy, "
		 "plan, free, schedule, verdict, outputs, blame, memory, "
		 "culprits, decisions, anchor, hoist, args, blockargs, yields, pipeline, race, workdir, limit)");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3]}\nruns:\n  - blame: [{writer: y, who: x}]\n",
		 9, 25, "unknown key 'who' in blame record (expected one of: "
		 "writer, victim, reader, kind)");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3]}\nruns:\n  - memory: {peak: 1}\n",
		 9, 14, "unknown key 'peak' in memory (expected one of: "
		 "peak_bytes, allocations, alloc_bytes, copies, copy_bytes, views)");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3]}\nruns: {a: 1}\n", 8, 7,
		 "'runs' must be a list");
}
END_TEST

START_TEST(program_errors)
{
	/* parser errors point into the block scalar */
	LOAD_ERR("case: t\nprogram: |\n  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		 "    %y = add %x, %q : tensor<3xi32>\n    return %y\n  }\n"
		 "inputs: {x: [1, 2, 3]}\n", 4, 18, "undefined value %q");
	/* explicit indentation indicator */
	LOAD_ERR("case: t\nprogram: |2\n    func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
		 "      %y = add %x, %q : tensor<3xi32>\n      return %y\n    }\n"
		 "inputs: {x: [1, 2, 3]}\n", 4, 20, "undefined value %q");
	LOAD_ERR(HEAD "entry: g\n", 7, 8, "no function @g in the program");
	LOAD_ERR("case: t\nprogram: |\n  func @f() {\n    return\n  }\n", 2, 10,
		 "no function @main in the program (name the entry function "
		 "with 'entry:')");
	LOAD_ERR("case: t\nprogram: 5\n", 2, 10, "expected 'func', found '5'");
}
END_TEST

/* -------------------------------------------------------------- inputs */

/* A one-param program of type `type` with input `data` (line 7). */
static char *
one_param(const char *type, const char *data)
{
	static char buf[1024];

	fmt_snprintf(buf, sizeof buf,
		 "case: t\nprogram: |\n  func @main(%%x: %s) -> %s {\n"
		 "    %%y = clone %%x : %s\n    return %%y\n  }\n"
		 "inputs:\n  x: %s\n", type, type, type, data);
	return buf;
}

static char *
one_scalar(const char *type, const char *data)
{
	static char buf[1024];

	fmt_snprintf(buf, sizeof buf,
		 "case: t\nprogram: |\n  func @main(%%x: %s) -> %s {\n"
		 "    return %%x\n  }\n"
		 "inputs:\n  x: %s\n", type, type, data);
	return buf;
}

START_TEST(input_errors)
{
	LOAD_ERR(HEAD "inputs: {}\n", 7, 9, "missing input for param %x of @main");
	LOAD_ERR(HEAD "about: a\n", 1, 1, "missing input for param %x of @main");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3], w: 1}\n", 7, 24,
		 "input 'w' names no param of @main");
	LOAD_ERR(HEAD "inputs: {x: [1, 2, 3, 4]}\n", 7, 13,
		 "input x has 4 elements, expected 3");
	LOAD_ERR(one_param("tensor<2x2xi32>", "[[1, 2], [3]]"), 8, 15,
		 "ragged nested list in input x");
	LOAD_ERR(one_param("tensor<2x2xi32>", "[[1, 2], 3]"), 8, 15,
		 "ragged nested list in input x");
	LOAD_ERR(one_param("tensor<4xi32>", "[1, [2], 3, 4]"), 8, 10,
		 "ragged nested list in input x");
	LOAD_ERR(one_param("tensor<2x2xi32>", "[[1, 2, 3], [4, 5, 6]]"), 8, 6,
		 "input x has shape 2x3, expected tensor<2x2xi32>");
	LOAD_ERR(one_param("tensor<3xi32>", "[1, 2.5, 3]"), 8, 10,
		 "input x: 2.5 is not an integer (dtype i32)");
	LOAD_ERR(one_param("tensor<3xi32>", "[1, 2, 3000000000]"), 8, 13,
		 "input x: 3000000000 is out of range for i32");
	LOAD_ERR(one_param("tensor<3xi1>", "[1, 0, 2]"), 8, 13,
		 "input x: 2 is out of range for i1");
	LOAD_ERR(one_param("tensor<3xf32>", "[1, 1e39, 3]"), 8, 10,
		 "input x: 1e39 is out of range for f32");
	LOAD_ERR(one_param("tensor<3xf32>", "[1, x, 3]"), 8, 10,
		 "input x: 'x' is not a number");
	LOAD_ERR(one_param("tensor<3xf32>", "[1, \"2\", 3]"), 8, 10,
		 "input x: '2' is a quoted string, not a number");
	LOAD_ERR(one_param("tensor<3xf32>", "[1, undef, 3]"), 8, 10,
		 "input x: 'undef' is only allowed in expected outputs");
	LOAD_ERR(one_param("tensor<?x?xf32>", "[1, 2, 3, 4]"), 8, 6,
		 "input x: cannot infer the shape of tensor<?x?xf32> from the "
		 "data (give a nested list or 'shape:')");
	LOAD_ERR(one_param("tensor<?xf32>", "{splat: 1}"), 8, 6,
		 "input x: cannot infer the shape of tensor<?xf32> from the "
		 "data (give a nested list or 'shape:')");
	LOAD_ERR(one_param("tensor<?xf32>", "{splat: 1, shape: [100000000]}"), 8, 24,
		 "input x has 100000000 elements, over the limit of 67108864");
	LOAD_ERR(one_param("tensor<3xf32>", "{splat: 1, shape: [4]}"), 8, 24,
		 "input x has shape 4, expected tensor<3xf32>");
	LOAD_ERR(one_param("tensor<3xf32>", "{splat: 1, random: 2}"), 8, 6,
		 "input x: give exactly one of 'splat', 'random' or 'data'");
	LOAD_ERR(one_param("tensor<3xf32>", "{splat: 1, seed: 2}"), 8, 17,
		 "unknown key 'seed' in input x (expected one of: splat, random, "
		 "data, shape, min, max)");
	LOAD_ERR(one_param("tensor<3xi32>", "{random: 1, min: 5, max: 2}"), 8, 23,
		 "input x: random needs min <= max");
	LOAD_ERR(one_param("tensor<3xi32>", "{random: -1}"), 8, 15,
		 "input x: the random seed must be an integer >= 0");
	LOAD_ERR(one_scalar("i32", "[1, 2]"), 7, 6, "input x has 2 elements, expected 1");
}
END_TEST

static Tensor *
input_of(const char *text, Case **c)
{
	*c = load_ok(text);
	return (*c)->inputs[0];
}

START_TEST(input_forms)
{
	Case *c;
	Tensor *t;

	t = input_of(one_param("tensor<2x3xi32>", "[[1, 2, 3], [4, 5, 6]]"), &c);
	ck_assert_int_eq(t->rank, 2);
	ck_assert_int_eq(t->dims[1], 3);
	ck_assert_int_eq(tensor_geti(t, 5), 6);
	case_free(c);
	t = input_of(one_param("tensor<2x3xi32>", "[1, 2, 3, 4, 5, -6]"), &c);
	ck_assert_int_eq(tensor_geti(t, 5), -6);
	case_free(c);
	t = input_of(one_param("tensor<2x2xi64>", "{splat: -9223372036854775808}"), &c);
	ck_assert_int_eq(t->n, 4);
	ck_assert(tensor_geti(t, 3) == INT64_MIN);
	case_free(c);
	t = input_of(one_param("tensor<4xf32>", "[nan, .inf, -inf, 0.1]"), &c);
	ck_assert(isnan(tensor_getf(t, 0)));
	ck_assert(tensor_getf(t, 1) == INFINITY && tensor_getf(t, 2) == -INFINITY);
	ck_assert(((float *)t->data)[3] == 0.1f);
	case_free(c);
	t = input_of(one_param("tensor<3xi1>", "[true, false, 1]"), &c);
	ck_assert_int_eq(tensor_geti(t, 0), 1);
	ck_assert_int_eq(tensor_geti(t, 1), 0);
	case_free(c);
	t = input_of(one_scalar("f64", "2.5"), &c);
	ck_assert_int_eq(t->rank, 0);
	ck_assert(tensor_getf(t, 0) == 2.5);
	case_free(c);
	t = input_of(one_scalar("tensor<index>", "[7]"), &c);
	ck_assert_int_eq(tensor_geti(t, 0), 7);
	case_free(c);
	/* dynamic dims: from nesting, from a flat list, from `shape:` */
	t = input_of(one_param("tensor<?x?xi32>", "[[1, 2, 3], [4, 5, 6]]"), &c);
	ck_assert(t->dims[0] == 2 && t->dims[1] == 3);
	case_free(c);
	t = input_of(one_param("tensor<?x2xi32>", "[1, 2, 3, 4, 5, 6]"), &c);
	ck_assert(t->dims[0] == 3 && t->dims[1] == 2);
	case_free(c);
	t = input_of(one_param("tensor<?x?xf64>", "{splat: 0.5, shape: [2, 5]}"), &c);
	ck_assert(t->dims[0] == 2 && t->dims[1] == 5 && tensor_getf(t, 9) == 0.5);
	case_free(c);
	t = input_of(one_param("tensor<?x?xi32>", "{data: [1, 2, 3, 4, 5, 6], shape: [3, 2]}"), &c);
	ck_assert(t->dims[0] == 3 && t->dims[1] == 2 && tensor_geti(t, 5) == 6);
	case_free(c);
	t = input_of(one_param("tensor<0x3xi32>", "[]"), &c);
	ck_assert_int_eq(t->n, 0);
	case_free(c);
}
END_TEST

START_TEST(random_is_deterministic)
{
	uint64_t s = 0;
	Case *c;
	Tensor *t;

	/* splitmix64's published first output for seed 0 */
	ck_assert(rng_next(&s) == 0xe220a8397b1dcdafull);
	t = input_of(one_param("tensor<4xf64>", "{random: 7, min: -1, max: 1}"), &c);
	ck_assert_msg(tensor_getf(t, 0) == -0x1.c341e1ba6cdf8p-3 &&
		      tensor_getf(t, 1) == -0x1.eecf0ca02f0e8p-1,
		      "got %a %a", tensor_getf(t, 0), tensor_getf(t, 1));
	for (int i = 0; i < 4; i++)
		ck_assert(tensor_getf(t, i) >= -1 && tensor_getf(t, i) <= 1);
	case_free(c);
	t = input_of(one_param("tensor<6xi32>", "{random: 7, min: -3, max: 3}"), &c);
	ck_assert_msg(tensor_geti(t, 0) == -1 && tensor_geti(t, 1) == 0 &&
		      tensor_geti(t, 2) == -3 && tensor_geti(t, 5) == 3,
		      "got %lld %lld %lld", (long long)tensor_geti(t, 0),
		      (long long)tensor_geti(t, 1), (long long)tensor_geti(t, 2));
	case_free(c);
	t = input_of(one_param("tensor<3xf32>", "{random: 7}"), &c);
	ck_assert_msg(((float *)t->data)[0] == 0x1.8f2f88p-2f, "got %a",
		      (double)((float *)t->data)[0]);
	case_free(c);
}
END_TEST

/* ---------------------------------------------------------------- runs */

#define RUNS HEAD "inputs: {x: [1, 2, 3]}\nruns:\n"

START_TEST(runs_validation)
{
	Case *c = load_ok(RUNS "  - strategy: plan\n    plan: {y: new}\n"
			  "    free: {x: after y}\n    schedule: random:42\n"
			  "    verdict: fault\n"
			  "    blame: [{writer: y, kind: use-after-free}]\n"
			  "    culprits: ['y:x']\n    decisions: [y:new]\n"
			  "    memory: {copies: 0, views: 3}\n");
	Run *r = &c->runs[0];

	ck_assert_str_eq(r->strategy->name, "plan");
	ck_assert(r->nplan == 1 && !r->plan[0].operand);
	ck_assert(r->nfrees == 1 && !strcmp(r->frees[0].value->name, "x") &&
		  !strcmp(r->frees[0].after->name, "y"));
	ck_assert(r->has_schedule && r->schedule.kind == SCHED_RANDOM &&
		  r->schedule.seed == 42);
	ck_assert_int_eq(r->verdict, VERDICT_FAULT);
	ck_assert(r->blame[0].kind == VK_USE_AFTER_FREE && !r->blame[0].victim);
	ck_assert(r->nculprits == 1 && r->culprits[0].operand &&
		  !strcmp(r->culprits[0].operand->name, "x"));
	ck_assert(r->ndecisions == 1 && !r->decisions[0].operand);
	ck_assert(r->memory[MS_COPIES] == 0 && r->memory[MS_VIEWS] == 3 &&
		  r->memory[MS_PEAK_BYTES] == -1);
	case_free(c);

	LOAD_ERR(RUNS "  - strategy: greedy\n", 9, 15, "unknown strategy 'greedy' "
		 "(see bufdiff strategies)");
	LOAD_ERR(RUNS "  - plan: {q: x}\n", 9, 12, "unknown value %q");
	LOAD_ERR(RUNS "  - plan: {x: new}\n", 9, 12, "%x is not an op result");
	LOAD_ERR(RUNS "  - plan: {y: y}\n", 9, 15,
		 "%y is not an operand of the op defining %y");
	LOAD_ERR(RUNS "  - free: {x: y}\n", 9, 15,
		 "free: expected 'after RESULT', got 'y'");
	LOAD_ERR(RUNS "  - free: {x: after x}\n", 9, 15, "%x is not an op result");
	LOAD_ERR(RUNS "  - schedule: soon\n", 9, 15, "unknown schedule 'soon' "
		 "(expected sync, late, all or random:SEED)");
	LOAD_ERR(RUNS "  - verdict: same\n", 9, 14,
		 "unknown verdict 'same' (expected agree, diverge, fault or "
		 "tool-error)");
	LOAD_ERR(RUNS "  - blame: [{reader: w}]\n", 9, 22, "unknown value %w");
	LOAD_ERR(RUNS "  - blame: [{kind: stale}]\n", 9, 20,
		 "unknown violation kind 'stale' (expected one of: stale-read, "
		 "use-after-free, double-free, leak, readonly-write, async-race, "
		 "early-await-read, out-of-bounds, invalid-free)");
	LOAD_ERR(RUNS "  - culprits: [y]\n", 9, 16,
		 "culprits: expected 'RESULT:OPERAND', 'RESULT:new' or 'args "
		 "RESULT:share,...', got 'y'");
	LOAD_ERR(RUNS "  - culprits: ['args y:share']\n", 9, 16,
		 "args: %y is not defined by a call");
	/* the plan's frees, hoists and anchors as culprits (issue 23) */
	c = load_ok(RUNS "  - free: {x: after y}\n"
		    "    culprits: ['free x:after y', 'hoist y', 'anchor y:x']\n");
	r = &c->runs[0];
	ck_assert_int_eq(r->nculprits, 3);
	ck_assert_str_eq(r->culprits[0].life, "free x:after y");
	ck_assert_str_eq(r->culprits[0].result->name, "x");
	ck_assert_str_eq(r->culprits[1].life, "hoist y");
	ck_assert_str_eq(r->culprits[2].result->name, "y");
	case_free(c);
	LOAD_ERR(RUNS "  - culprits: ['free x']\n", 9, 16,
		 "culprits: expected 'free VALUE:after RESULT', got 'free x'");
	LOAD_ERR(RUNS "  - culprits: ['free x:before y']\n", 9, 16,
		 "culprits: expected 'free VALUE:after RESULT', got 'free x:before y'");
	LOAD_ERR(RUNS "  - culprits: ['hoist ']\n", 9, 16,
		 "culprits: expected 'hoist VALUE', got 'hoist '");
	LOAD_ERR(RUNS "  - culprits: ['hoist q']\n", 9, 16, "unknown value %q");
	LOAD_ERR(RUNS "  - culprits: ['anchor y']\n", 9, 16,
		 "culprits: expected 'anchor EMPTY:RESULT', got 'anchor y'");
	LOAD_ERR(RUNS "  - decisions: ['hoist y']\n", 9, 17,
		 "decisions: expected 'RESULT:OPERAND', 'RESULT:new' or 'args "
		 "RESULT:share,...', got 'hoist y'");
	LOAD_ERR(RUNS "  - decisions: ['y:z']\n", 9, 17, "unknown value %z");
	LOAD_ERR(RUNS "  - memory: {copies: -1}\n", 9, 22,
		 "memory: 'copies' must be an integer >= 0");
	LOAD_ERR(RUNS "  - outputs: [[1, 2]]\n", 9, 15,
		 "run 1 output 0 has 2 elements, expected 3");
	LOAD_ERR(RUNS "  - 5\n", 9, 5, "'runs entry' must be a mapping");
}
END_TEST

/* `pipeline:` in a run: a pass pipeline for an mlir-pipeline strategy,
 * checked when the case loads (docs/cases.md). */
START_TEST(pipeline_key)
{
	Case *c = load_ok(RUNS
			  "  - strategy: mlir-pipeline:mlir-opt-16\n"
			  "    pipeline: \"one-shot-bufferize{bufferize-function-"
			  "boundaries allow-return-allocs},func.func(buffer-"
			  "deallocation)\"\n"
			  "  - strategy: mlir-pipeline\n");
	Str b = {0};
	char *y;

	ck_assert_str_eq(c->runs[0].pipeline, "one-shot-bufferize{bufferize-"
			 "function-boundaries allow-return-allocs},func.func("
			 "buffer-deallocation)");
	ck_assert_ptr_null(c->runs[1].pipeline);
	/* written back as the reducer writes a run */
	emit_run_head(&b, &c->runs[0], c->prog, c->entry);
	ck_assert_str_eq(y = str_take(&b), "  - strategy: "
			 "\"mlir-pipeline:mlir-opt-16\"\n"
			 "    pipeline: \"one-shot-bufferize{bufferize-function-"
			 "boundaries allow-return-allocs},func.func(buffer-"
			 "deallocation)\"\n");
	mem_free(y);
	case_free(c);

	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: [a, b]\n",
		 10, 15, "'pipeline' must be a string");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: {a: b}\n",
		 10, 15, "'pipeline' must be a string");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline:\n", 10, 14,
		 "pipeline: empty pass pipeline");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: ''\n", 10, 15,
		 "pipeline: empty pass pipeline");
	LOAD_ERR(RUNS "  - strategy: one-shot\n    pipeline: canonicalize\n",
		 10, 5, "pipeline: only an mlir-pipeline strategy runs a pass "
		 "pipeline (this run's strategy is one-shot)");
	LOAD_ERR(RUNS "  - pipeline: canonicalize\n", 9, 5, "pipeline: only an "
		 "mlir-pipeline strategy runs a pass pipeline (this run's "
		 "strategy is copy-all)");
	LOAD_ERR(RUNS "  - strategy: mlir:mlir-opt-16\n    pipeline: canonicalize\n",
		 10, 5, "pipeline: only an mlir-pipeline strategy runs a pass "
		 "pipeline (this run's strategy is mlir:mlir-opt-16)");
	/* data, never shell text: what no pass pipeline holds is refused,
	 * located at the character when the file spells the value as is */
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: a;rm -rf x\n",
		 10, 16, "pipeline: ';' cannot be part of a pass pipeline");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: \"a,$(b)\"\n",
		 10, 18, "pipeline: '$' cannot be part of a pass pipeline");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: \"a'b\"\n",
		 10, 17, "pipeline: ''' cannot be part of a pass pipeline");
	LOAD_ERR(RUNS "  - strategy: mlir-pipeline\n    pipeline: \"a\\nb\"\n",
		 10, 15, "pipeline: byte 0x0a cannot be part of a pass pipeline");
	ck_assert_ptr_null(pipeline_bad_char("builtin.module(func.func(a{b=1 "
					     "c=\"d e\" f=[g]}),h-i_j:k+l/m@*)"));
	ck_assert_str_eq(pipeline_bad_char("a|b"), "|b");
}
END_TEST

/* ------------------------------------------------------------- checking */

/* Write text to a temp file and check it. */
static Status
check_text(const char *text, Outcome *o)
{
	char path[] = "/tmp/bufdiff_test_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	Case *c = NULL;
	Status st;

	fputs(text, f);
	fclose(f);
	check_file(NULL, path, NULL, true, &c, o);
	st = o->status;
	case_free(c);
	remove(path);
	return st;
}

START_TEST(checks_expectations)
{
	Outcome o;

	ck_assert_int_eq(check_text(format_example, &o), STATUS_OK);
	ck_assert_int_eq(o.nouts, 1);
	outcome_clear(&o);
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2, 3]}\n"
				    "expect: {outputs: [[11, 12, 14]]}\n", &o),
			 STATUS_FAIL);
	ck_assert_str_eq(o.why, "output 0 differs at [2]: reference 13, expected 14");
	outcome_clear(&o);
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2, 3]}\n"
				    "expect: {outputs: [[11, undef, 13]]}\n", &o),
			 STATUS_FAIL);
	ck_assert_str_eq(o.why, "output 0 differs at [1]: reference 12, expected undef");
	outcome_clear(&o);
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2, 3]}\n"
				    "expect: {error: {line: 4, message: add}}\n", &o),
			 STATUS_FAIL);
	ck_assert_str_eq(o.why, "expected an error at line 4 containing \"add\", "
			 "but the case ran without one");
	outcome_clear(&o);
	/* an unexpected bad input is status 2, an expected one passes */
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2]}\n", &o), STATUS_BAD);
	ck_assert(o.errored && o.err.loc.line == 7);
	outcome_clear(&o);
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2]}\n"
				    "expect: {error: {line: 7, col: 13, message: "
				    "\"has 2 elements\"}}\n", &o), STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text(HEAD "inputs: {x: [1, 2]}\n"
				    "expect: {error: {line: 7, col: 8, message: "
				    "\"has 2 elements\"}}\n", &o), STATUS_FAIL);
	ck_assert_str_eq(o.why, "expected an error at line 7:8 containing \"has 2 "
			 "elements\", got 7:13: input x has 2 elements, expected 3");
	outcome_clear(&o);
}
END_TEST

START_TEST(expect_error_comment)
{
	Outcome o;

	/* malformed YAML cannot hold an expect block: the comment does */
	ck_assert_int_eq(check_text("# expect-error: 3: mapping values are not allowed\n"
				    "case: t\n  bad: 1\n", &o), STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n  bad: 1\n"
				    "# expect-error: 2:6: \"mapping values\"\n", &o),
			 STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n  bad: 1\n"
				    "# expect-error: 2:7: mapping values\n", &o),
			 STATUS_FAIL);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("# expect-error: x\ncase: t\n", &o), STATUS_BAD);
	ck_assert_int_eq(o.err.loc.line, 1);
	ck_assert_str_eq(o.err.msg, "malformed comment: expected '# expect-error: "
			 "LINE: MESSAGE' or '# expect-error: LINE:COL: MESSAGE'");
	outcome_clear(&o);
	/* relative to the comment (MLIR's expected-error@+1): lines added
	 * above keep it true; `//` inside the program, `#` anywhere */
	ck_assert_int_eq(check_text("case: t\n# expect-error@+1: did not find expected key\n"
				    "  bad: 1\n", &o), STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n\n\n# expect-error@+1:3: did not "
				    "find\n  bad: 1\n", &o), STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n  bad: 1\n# expect-error@-1: mapping "
				    "values\n", &o), STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n# expect-error@+2: did not find\n"
				    "  bad: 1\n", &o), STATUS_FAIL);
	ck_assert_str_eq(o.why, "expected an error at line 4 containing \"did not "
			 "find\", got 3:3: did not find expected key (while "
			 "parsing a block mapping)");
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\nprogram: |\n"
				    "  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
				    "    // expect-error@+1: undefined value %q\n"
				    "    %y = add %x, %q : tensor<3xi32>\n"
				    "    return %y\n  }\ninputs: {x: [1, 2, 3]}\n", &o),
			 STATUS_OK);
	outcome_clear(&o);
	ck_assert_int_eq(check_text("case: t\n  # expect-error@-5: x\n", &o),
			 STATUS_BAD);
	ck_assert_int_eq(o.err.loc.line, 2);
	ck_assert_int_eq(o.err.loc.col, 3);
	ck_assert_str_eq(o.err.msg, "malformed comment: expected 'expect-error@+N: "
			 "MESSAGE' or 'expect-error@+N:COL: MESSAGE' (N lines "
			 "below, '@-N' above, inside the file)");
	outcome_clear(&o);
}
END_TEST

START_TEST(compares_exactly)
{
	int64_t d3[1] = {3};
	Tensor *w = tensor_new(DT_F32, 1, d3), *g = tensor_new(DT_F32, 1, d3);
	char why[256];

	tensor_setf(w, 0, NAN);
	tensor_setf(g, 0, -NAN);
	tensor_setf(w, 1, 0.0);
	tensor_setf(g, 1, 0.0);
	/* an expected `undef` must be poison in the reference, and an
	 * expected value must not be */
	g->def = mem_calloc(3, 1);
	g->def[0] = g->def[1] = 1;
	w->def = mem_calloc(3, 1);
	w->def[0] = w->def[1] = 1;
	ck_assert_int_eq(check_outputs(&w, 1, &g, 1, "reference", why, sizeof why), 0);
	w->def[2] = 1;
	tensor_setf(w, 2, 5);
	ck_assert_int_eq(check_outputs(&w, 1, &g, 1, "reference", why, sizeof why), -1);
	ck_assert_str_eq(why, "output 0 differs at [2]: reference undef, expected 5");
	w->def[2] = 0;
	tensor_setf(g, 1, -0.0);
	ck_assert_int_eq(check_outputs(&w, 1, &g, 1, "reference", why, sizeof why), -1);
	ck_assert_str_eq(why, "output 0 differs at [1]: reference -0, expected 0");
	ck_assert_int_eq(check_outputs(&w, 1, &g, 0, "reference", why, sizeof why), -1);
	ck_assert_str_eq(why, "the reference run returned 0 outputs, expected 1");
	tensor_free(w);
	tensor_free(g);
}
END_TEST

/* ----------------------------------------------------------------- JSON */

static char *
json_of(const char *text)
{
	char path[] = "/tmp/bufdiff_test_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	Case *c = NULL;
	Outcome o;
	char *buf = NULL;
	size_t n = 0;

	fputs(text, f);
	fclose(f);
	check_file(NULL, path, NULL, true, &c, &o);
	f = open_memstream(&buf, &n);
	report_json(f, c, &o);
	fclose(f);
	outcome_clear(&o);
	case_free(c);
	remove(path);
	return buf;
}

START_TEST(json_floats_shortest)
{
	char *s;

	report_json_init();
	s = json_of("case: j\nprogram: |\n  func @main(%a: tensor<4xf32>, %b: f64) -> (tensor<4xf32>, f64) {\n"
		    "    return %a, %b\n  }\ninputs:\n  a: [0.1, nan, -inf, 3]\n  b: 0.1\n");
	ck_assert_ptr_nonnull(strstr(s, "\"reference\": {\"outputs\": "
				     "[[0.1, \"nan\", \"-inf\", 3], 0.1]}, \"runs\": []}"));
	free(s);
	s = json_of(HEAD "inputs: {x: [1, 2]}\n");
	ck_assert_ptr_nonnull(strstr(s, "\"status\": \"error\", \"reference\": null, "
				     "\"runs\": [], \"error\": {\"line\": 7, \"col\": 13, "
				     "\"message\": \"input x has 2 elements, expected 3\"}"));
	free(s);
}
END_TEST

/* Hostile nesting, generated (issue 12 item 12): each is one error at
 * the first level too deep, quickly, with no crash of the stack. */
static void
deep_error(const char *text, int line, int col, const char *msg)
{
	Case *c = NULL;
	Diag d;

	ck_assert_int_eq(case_parse("deep.yaml", text, strlen(text), 0, &c, &d),
			 -1);
	ck_assert_msg(strstr(d.msg, msg) != NULL, "%s", d.msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
	case_free(c);
}

START_TEST(hostile_nesting)
{
	enum { N = 30000 };
	Str b = {0};
	char *t;

	/* 30,000 nested ifs: the 257th region (the body is the first) is
	 * refused */
	str_puts(&b, "case: deep\nprogram: |\n  func @main(%c: i1) -> i32 {\n");
	for (int i = 0; i < N; i++)
		str_printf(&b, "    %%r%d = if %%c -> (i32) {\n", i);
	str_puts(&b, "  }\n");
	t = str_take(&b);
	deep_error(t, 4 + 255, 28, "regions nested deeper than 256");
	mem_free(t);
	/* a dense literal 200,000 lists deep: refused past rank 8 */
	str_puts(&b, "case: deep\nprogram: |\n  func @main() -> i32 {\n"
		 "    %c = const dense<");
	for (int i = 0; i < 200000; i++)
		str_puts(&b, "[");
	str_puts(&b, "\n");
	t = str_take(&b);
	deep_error(t, 4, 30, "dense literal nested deeper than 8");
	mem_free(t);
	/* input data 100,000 flow lists deep: refused before libyaml builds
	 * it (a minute in libyaml's scanner) */
	str_puts(&b, "case: deep\ninputs:\n  x: ");
	for (int i = 0; i < 100000; i++)
		str_puts(&b, "[");
	str_puts(&b, "1\n");
	t = str_take(&b);
	deep_error(t, 3, 4 + 64, "YAML collections nested deeper than 64");
	mem_free(t);
}
END_TEST

/* `source:` and `// loc(L:C)` (docs/format.md, an imported case): the
 * place of each op line, `// loc("FILE":L:C)` in another file, none on a
 * comment line or a line without a tag; the explanation's place cites it. */
START_TEST(source_places)
{
	Case *c = load_ok(
		"case: t\n"
		"source: k.mlir\n"
		"program: |\n"
		"  // a comment of the user's  // loc(1:1)\n"
		"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {  // loc(2:1)\n"
		"    %y = add %x, 10 : tensor<3xi32>  // loc(4:10)\n"
		"    %z = add %y, 1 : tensor<3xi32>  // loc(\"o.yaml\":7:5)\n"
		"    return %z\n"
		"  }\n"
		"inputs: {x: [1, 2, 3]}\n");
	const char *f = NULL;
	char buf[200];
	Loc l;

	ck_assert_str_eq(c->source, "k.mlir");
	l = case_source_loc(c, 4, &f);
	ck_assert_int_eq(l.line, 0);
	l = case_source_loc(c, 6, &f);
	ck_assert_int_eq(l.line, 4);
	ck_assert_int_eq(l.col, 10);
	ck_assert_str_eq(f, "k.mlir");
	l = case_source_loc(c, 7, &f);
	ck_assert_int_eq(l.line, 7);
	ck_assert_str_eq(f, "o.yaml");
	l = case_source_loc(c, 8, &f);
	ck_assert_int_eq(l.line, 0);
	ck_assert_str_eq(prog_loc(c->prog, (Loc){6, 5}, buf, sizeof buf),
			 "k.mlir:4:10 (t.yaml:6:5)");
	ck_assert_str_eq(prog_loc(c->prog, (Loc){8, 5}, buf, sizeof buf),
			 "t.yaml:8:5");
	case_free(c);
	/* without them: no places */
	c = load_ok(HEAD "inputs: {x: [1, 2, 3]}\n");
	ck_assert_ptr_null(c->srclocs);
	l = case_source_loc(c, 4, &f);
	ck_assert_int_eq(l.line, 0);
	case_free(c);
}
END_TEST

static Suite *
case_suite(void)
{
	Suite *s = suite_create("case");
	TCase *t = tcase_create("load");

	tcase_add_test(t, loads_format_example);
	tcase_add_test(t, yaml_errors);
	tcase_add_test(t, key_errors);
	tcase_add_test(t, program_errors);
	tcase_add_test(t, input_errors);
	tcase_add_test(t, input_forms);
	tcase_add_test(t, random_is_deterministic);
	tcase_add_test(t, runs_validation);
	tcase_add_test(t, pipeline_key);
	tcase_add_test(t, hostile_nesting);
	tcase_add_test(t, source_places);
	suite_add_tcase(s, t);
	t = tcase_create("check");
	tcase_add_test(t, checks_expectations);
	tcase_add_test(t, expect_error_comment);
	tcase_add_test(t, compares_exactly);
	tcase_add_test(t, json_floats_shortest);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){case_suite(), NULL});
}
