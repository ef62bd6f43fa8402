/* test_reduce.c: the reducer (oracle/fuzz/reduce*.c): every mutant and last-use
 * case's failing run reduces to a small case that passes `bufdiff check`
 * and keeps its culprit decision; a bloated seed comes back to the seed;
 * an agreeing run is not reduced; out of memory anywhere is a clean error
 * with no leak. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"
#include "testutil.h"

static Case *
load(const char *path)
{
	Case *c = NULL;
	Diag d;

	ck_assert_msg(!case_load(path, 0, &c, &d), "%s:%d: %s", path, d.loc.line,
		      d.msg);
	return c;
}

/* The culprit names of run `run` of c, as the oracle finds them. */
static int
culprits_of(const Case *c, int run, char names[][96], int max)
{
	Tensor **ref = NULL;
	int nref = 0, n = 0;
	RunOut o;
	Diag d;

	int rc = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref, &d);

	ck_assert(rc == 0 || rc == 1); /* 1: the failure path */
	((Case *)c)->ref_failed = rc ? prog_op_at(c->prog, OP_ASSERT, d.loc) : NULL;
	diff_run(NULL, c, &c->runs[run], NULL, ref, nref, &o);
	for (int i = 0; i < o.nculprits && n < max; i++, n++)
		choice_str(&o.ds, o.culprits[i], names[n], 96);
	runout_clear(&o);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	return n;
}

static bool
has_culprit(const Run *r, const char *name)
{
	char buf[200];

	for (int i = 0; i < r->nculprits; i++) {
		const Forced *f = &r->culprits[i];
		if (f->barg)
			fmt_snprintf(buf, sizeof buf, "%s:%s", f->result->name,
				 f->words);
		else if (f->words)
			fmt_snprintf(buf, sizeof buf, "args %s:%s", f->result->name,
				 f->words);
		else
			fmt_snprintf(buf, sizeof buf, "%s:%s", f->result->name,
				 f->operand ? f->operand->name : "new");
		if (!strcmp(buf, name))
			return true;
	}
	return false;
}

/* Reduce run 0 of path; the result checks, is small, keeps the culprits.
 * Returns the reduced case (case_free it). */
static Case *
reduce_file(const char *path, int maxops)
{
	Case *c = load(path), *rc = NULL;
	char names[16][96], *yaml = NULL;
	int n = culprits_of(c, 0, names, 16);
	ReduceStats st;
	Outcome o;
	Diag d;

	ck_assert_msg(!reduce_case(NULL, c, 0, "reduced/test", NULL, &yaml, &st, &d),
		      "%s: %s", path, d.msg);
	ck_assert_int_eq(st.ops_before, c->prog->nops);
	ck_assert_msg(!case_parse("reduced.yaml", yaml, strlen(yaml), 0, &rc, &d),
		      "%s: reduced case does not load: %d: %s\n%s", path,
		      d.loc.line, d.msg, yaml);
	check_case(NULL, rc, NULL, true, &o);
	ck_assert_msg(o.status == STATUS_OK, "%s: reduced case fails check: %s\n%s",
		      path, o.why, yaml);
	outcome_clear(&o);
	ck_assert_msg(rc->prog->nops <= maxops, "%s: %d ops\n%s", path,
		      rc->prog->nops, yaml);
	ck_assert_int_eq(st.ops_after, rc->prog->nops);
	ck_assert_int_le(st.ops_after, st.ops_before);
	ck_assert_int_eq(rc->nruns, 1);
	for (int i = 0; i < n; i++)
		ck_assert_msg(has_culprit(&rc->runs[0], names[i]),
			      "%s: culprit %s lost\n%s", path, names[i], yaml);
	ck_assert_ptr_nonnull(strstr(yaml, "Reduced from "));
	fprintf(stderr, "reduce %-45s %2d -> %2d ops, %4d candidates, %3d "
		"cache hits\n", path + strlen(SRCDIR) + 1, st.ops_before,
		st.ops_after, st.candidates, st.cache_hits);
	mem_free(yaml);
	case_free(c);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.yaml in dir (sorted), reduced. */
static void
reduce_dir(const char *dir)
{
	char *names[64], path[1024];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	ck_assert_int_gt(n, 0);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	for (int i = 0; i < n; i++) {
		fmt_snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		case_free(reduce_file(path, 10));
		free(names[i]);
	}
}

START_TEST(reduces_mutants)
{
	reduce_dir(SRCDIR "/cases/mutants");
}
END_TEST

START_TEST(reduces_lastuse)
{
	reduce_dir(SRCDIR "/cases/lastuse");
}
END_TEST

/* 29 ops hiding the seed's conflict: back to the seed's y, z, return. */
START_TEST(reduces_bloated_seed)
{
	Case *c = reduce_file(SRCDIR "/cases/reduce/seed-bloated.yaml", 3);
	char *text = tir_print(c->prog);

	ck_assert_ptr_nonnull(strstr(text, "%y = add %x, 10"));
	ck_assert_ptr_nonnull(strstr(text, "%z = add %x, %y"));
	ck_assert_int_eq(c->entry->nparams, 1);
	ck_assert_int_eq(c->runs[0].nplan, 1);
	ck_assert_str_eq(c->runs[0].plan[0].result->name, "y");
	ck_assert_str_eq(c->runs[0].plan[0].operand->name, "x");
	mem_free(text);
	case_free(c);
}
END_TEST

/* A generate the failure does not need, whose result is read and has no
 * stand-in of its type, becomes a constant. */
START_TEST(reduces_generate)
{
	Case *c = reduce_file(SRCDIR "/cases/reduce/generate-feeds-conflict.yaml", 5);
	char *text = tir_print(c->prog);

	ck_assert_ptr_null(strstr(text, "generate"));
	ck_assert_ptr_nonnull(strstr(text, "%g = const dense<0> : tensor<1x1xi32>"));
	ck_assert_ptr_nonnull(strstr(text, "%z = add %a, %y"));
	mem_free(text);
	case_free(c);
}
END_TEST

/* Reduce run 0 of path: the reduced case loads, checks, has verdict v and
 * every text in `wants` (NULL-terminated).  Returns it (case_free it). */
static Case *
reduces_to(const char *path, Verdict v, const char *const *wants)
{
	Case *c = load(path), *rc = NULL;
	char *yaml = NULL;
	ReduceStats st;
	Outcome o;
	Diag d;

	ck_assert_msg(!reduce_case(NULL, c, 0, "reduced/test", NULL, &yaml, &st, &d),
		      "%s: %s", path, d.msg);
	ck_assert_msg(!case_parse("reduced.yaml", yaml, strlen(yaml), 0, &rc, &d),
		      "%s: %d: %s\n%s", path, d.loc.line, d.msg, yaml);
	check_case(NULL, rc, NULL, true, &o);
	ck_assert_msg(o.status == STATUS_OK, "%s: %s\n%s", path, o.why, yaml);
	outcome_clear(&o);
	ck_assert_msg(rc->runs[0].verdict == v, "%s", yaml);
	for (; *wants; wants++)
		ck_assert_msg(strstr(yaml, *wants), "no '%s' in\n%s", *wants, yaml);
	mem_free(yaml);
	case_free(c);
	return rc;
}

/* Seed 99999 of mutant-textual-frees: bisection blames v5:e4 (the
 * use-after-free the run reports), and the reduced case is still that
 * fault, not a divergence. */
START_TEST(keeps_fault_and_culprit)
{
	Case *c = load(SRCDIR "/cases/reduce/textual-frees-99999.yaml");
	char names[16][96];

	ck_assert_int_eq(culprits_of(c, 0, names, 16), 1);
	ck_assert_str_eq(names[0], "v5:e4");
	case_free(c);
	case_free(reduces_to(SRCDIR "/cases/reduce/textual-frees-99999.yaml",
			     VERDICT_FAULT, (const char *[]){
		"    blame:\n      - {kind: use-after-free, writer: e4, "
		"victim: v5, reader: v6}\n",
		"culprits: ['v5:e4']\n", "= matmul %v5, %p1 into %v5", NULL}));
}
END_TEST

/* An in-place transpose that diverges stays a divergence: its dims stop
 * at 2x2 (at 1x1 it reads only what it then writes: no failure at all). */
START_TEST(keeps_transpose_divergence)
{
	Case *rc = reduces_to(SRCDIR "/cases/reduce/inplace-transpose-63.yaml",
			      VERDICT_DIVERGE, (const char *[]){
		"= transpose %p0 [1, 0] into %p0 : tensor<2x2xi64>",
		"{kind: readonly-write, writer: v0, victim: p0, reader: v0}",
		"culprits: ['v0:p0']\n", NULL});

	ck_assert_int_eq(rc->prog->nops, 2);
	case_free(rc);
}
END_TEST

/* g1's %v2 into g1's %q0, while main has a %q0 and a %v2 and g0 a %q0:
 * the reduced case qualifies the culprit, and loads and checks. */
START_TEST(names_resolve_per_function)
{
	Case *rc = reduces_to(SRCDIR "/cases/reduce/helpers-share-names.yaml",
			      VERDICT_DIVERGE, (const char *[]){
		"culprits: ['args b:share', '@g1/v2:q0']\n",
		"writer: '@g1/v2', victim: q0, reader: v2}", NULL});

	ck_assert_str_eq(rc->runs[0].culprits[1].result->func->name, "g1");
	ck_assert_ptr_null(prog_func(rc->prog, "g0"));
	case_free(rc);
}
END_TEST

/* Floats read back to the same bits, NaN and infinities included. */
START_TEST(keeps_float_inputs)
{
	static const char *text =
		"case: reduce/floats\n"
		"program: |\n"
		"  func @main(%x: tensor<4xf32>, %s: f64) -> tensor<4xf32> {\n"
		"    %u = add %x, 1.0 : tensor<4xf32>\n"
		"    %y = mul %x, 2.0 : tensor<4xf32>\n"
		"    %z = add %x, %y : tensor<4xf32>\n"
		"    %q = add %u, %z : tensor<4xf32>\n"
		"    return %q\n"
		"  }\n"
		"inputs:\n"
		"  x: [0.1, .nan, -.inf, -0.0]\n"
		"  s: 0.30000000000000004\n"
		"runs:\n"
		"  - plan: {y: x}\n"
		"    schedule: sync\n";
	Case *c = NULL, *rc = NULL;
	char *yaml = NULL;
	ReduceStats st;
	Diag d;

	ck_assert(!case_parse("floats.yaml", text, strlen(text), 0, &c, &d));
	ck_assert_int_eq(reduce_case(NULL, c, 0, "reduced/floats", "About.", &yaml,
				     &st, &d), 0);
	ck_assert_msg(!case_parse("r.yaml", yaml, strlen(yaml), 0, &rc, &d),
		      "%s\n%s", d.msg, yaml);
	ck_assert_ptr_nonnull(strstr(yaml, "about: \"About. Reduced from "));
	ck_assert_ptr_nonnull(strstr(yaml, "schedule: sync"));
	ck_assert_ptr_nonnull(strstr(yaml, "[0.1"));
	ck_assert_ptr_nonnull(strstr(yaml, "y: x"));
	ck_assert_int_le(rc->prog->nops, 3);
	case_free(rc);
	case_free(c);
	mem_free(yaml);
}
END_TEST

/* A loop of blocks with a diamond in its body, the insert the tool
 * refuses in one arm: the blocks go (the back edge sent to the exit, the
 * diamond's cond_br made a br, merges, arguments replaced) down to one
 * block holding the insert. */
START_TEST(reduces_blocks)
{
	static const char *text =
		"case: reduce/blocks\n"
		"program: |\n"
		"  func @main(%p0: tensor<4xi32>, %p1: tensor<4xi32>, %n: index) -> (tensor<4xi32>, tensor<4xi32>) {\n"
		"    %a = add %p0, %p1 : tensor<4xi32>\n"
		"    %z = const 0 : index\n"
		"    br ^head(%z, %a)\n"
		"  ^head(%i: index, %acc: tensor<4xi32>):\n"
		"    %c = lt %i, %n : index\n"
		"    cond_br %c, ^body, ^exit(%acc)\n"
		"  ^body:\n"
		"    %b = mul %acc, 2 : tensor<4xi32>\n"
		"    %k = lt %i, 1 : index\n"
		"    cond_br %k, ^left, ^right\n"
		"  ^left:\n"
		"    %w = insert 7 into %p0[1] : tensor<4xi32>\n"
		"    br ^join(%w)\n"
		"  ^right:\n"
		"    %u = sub %b, %p1 : tensor<4xi32>\n"
		"    br ^join(%u)\n"
		"  ^join(%m: tensor<4xi32>):\n"
		"    %i2 = add %i, 1 : index\n"
		"    br ^head(%i2, %m)\n"
		"  ^exit(%r: tensor<4xi32>):\n"
		"    %x = add %r, %p0 : tensor<4xi32>\n"
		"    return %x, %p1\n"
		"  }\n"
		"inputs:\n"
		"  p0: [1, 2, 3, 4]\n"
		"  p1: [5, 6, 7, 8]\n"
		"  n: 2\n"
		"runs:\n"
		"  - strategy: \"exec:sh " SRCDIR "/tests/tools/fail-on.sh insert\"\n";
	Case *c = NULL, *rc = NULL;
	char *yaml = NULL, *prog;
	ReduceStats st;
	Diag d;

	external_register(); /* exec: strategies run here */
	ck_assert(!case_parse("blocks.yaml", text, strlen(text), 0, &c, &d));
	ck_assert_msg(!reduce_case(NULL, c, 0, "reduced/blocks", NULL, &yaml, &st,
				   &d), "%s", d.msg);
	ck_assert_msg(!case_parse("r.yaml", yaml, strlen(yaml), 0, &rc, &d),
		      "%s\n%s", d.msg, yaml);
	prog = tir_print(rc->prog);
	fprintf(stderr, "reduce blocks: %d -> %d ops, %d candidates\n",
		st.ops_before, st.ops_after, st.candidates);
	ck_assert_int_eq(rc->entry->nblocks, 1);
	ck_assert_ptr_nonnull(strstr(prog, "= insert 7 into %p0[1]"));
	ck_assert_int_le(rc->prog->nops, 2);
	mem_free(prog);
	case_free(rc);
	case_free(c);
	mem_free(yaml);
}
END_TEST

/* A fuzz repro's form (issue 25): the same reduction, the run with no
 * expectation (so `check` fails on it while the strategy is wrong) and
 * what it showed in comments; a deadline already past: 3, no case, no
 * candidate tried. */
START_TEST(must_agree_and_deadline)
{
	Case *c = load(SRCDIR "/cases/reduce/seed-bloated.yaml"), *r = NULL;
	ReduceAs as = {"fuzz/x", "About.", true, 0};
	char *yaml = NULL;
	ReduceStats st;
	Outcome o;
	Diag d;

	ck_assert_msg(!reduce_case_as(NULL, c, 0, &as, &yaml, &st, &d), "%s", d.msg);
	ck_assert_ptr_nonnull(strstr(yaml, "\n    # verdict: diverge\n"));
	ck_assert_ptr_nonnull(strstr(yaml, "\n    # culprits: ['y:x']\n"));
	ck_assert_ptr_null(strstr(yaml, "\n    verdict:"));
	ck_assert_ptr_null(strstr(yaml, "\n    blame:"));
	ck_assert_int_eq(case_parse("r.yaml", yaml, strlen(yaml), CASE_TRUSTED,
				    &r, &d), 0);
	memset(&o, 0, sizeof o);
	check_case(NULL, r, NULL, true, &o);
	ck_assert_int_ne(o.status, STATUS_OK);
	ck_assert_int_eq(r->prog->nops, 3);
	outcome_clear(&o);
	case_free(r);
	mem_free(yaml);
	yaml = NULL;
	as.deadline = 1e-9; /* CLOCK_MONOTONIC is past it */
	ck_assert_int_eq(reduce_case_as(NULL, c, 0, &as, &yaml, &st, &d), 3);
	ck_assert_ptr_null(yaml);
	ck_assert_int_eq(st.candidates, 0);
	case_free(c);
}
END_TEST

/* A run that agrees: nothing to reduce (1); a run that is not there: -1. */
START_TEST(agreeing_run_is_not_reduced)
{
	Case *c = load(SRCDIR "/cases/seed/old-input-still-needed.yaml");
	char *yaml = (char *)"x";
	ReduceStats st;
	Diag d;

	ck_assert_int_eq(reduce_case(NULL, c, 0, NULL, NULL, &yaml, &st, &d), 1);
	ck_assert_ptr_null(yaml);
	ck_assert_int_eq(reduce_case(NULL, c, 7, NULL, NULL, &yaml, &st, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "no run 8"));
	ck_assert_int_eq(reduce_case(NULL, c, 1, NULL, NULL, &yaml, &st, &d), 0);
	ck_assert_ptr_nonnull(strstr(yaml, "case: reduced/seed/old-input-still-needed\n"));
	mem_free(yaml);
	case_free(c);
}
END_TEST

/* Fail the Nth allocation of a whole reduction of run 0 of c: a clean
 * "out of memory", nothing leaked, until it succeeds; how many failed. */
static int
reduce_oom_loop(const Case *c)
{
	int failures = 0;

	for (long n = 0;; n += n < 300 ? 1 : n / 16) {
		long start = mem_live_blocks();
		char *yaml = NULL;
		ReduceStats st;
		Diag d;
		int rc;

		mem_fail_after(n);
		rc = reduce_case(NULL, c, 0, NULL, NULL, &yaml, &st, &d);
		mem_fail_after(-1);
		if (rc) {
			ck_assert_int_eq(rc, -1);
			ck_assert_msg(!strcmp(d.msg, "out of memory"), "n=%ld: %s", n,
				      d.msg);
			ck_assert_ptr_null(yaml);
			failures++;
		}
		mem_free(yaml);
		ck_assert_msg(mem_live_blocks() == start, "n=%ld: %ld blocks leaked",
			      n, mem_live_blocks() - start);
		if (!rc)
			break;
	}
	return failures;
}

START_TEST(reduce_under_oom)
{
	Case *c = load(SRCDIR "/cases/lastuse/views.yaml");

	ck_assert_int_gt(reduce_oom_loop(c), 100);
	case_free(c);
}
END_TEST

/* The same through the pass over blocks: an insert into %p0 in one arm
 * of a diamond, forced in place, %p0 read after the join. */
static const char block_conflict[] =
	"case: reduce/block-conflict\n"
	"program: |\n"
	"  func @main(%p0: tensor<4xi32>, %p1: tensor<4xi32>, %n: index) -> (tensor<4xi32>, tensor<4xi32>) {\n"
	"    %a = add %p1, 1 : tensor<4xi32>\n"
	"    %c = lt %n, 2 : index\n"
	"    cond_br %c, ^left, ^right\n"
	"  ^left:\n"
	"    %w = insert 7 into %p0[1] : tensor<4xi32>\n"
	"    %u = mul %w, %a : tensor<4xi32>\n"
	"    br ^join(%u)\n"
	"  ^right:\n"
	"    %v = sub %a, %p1 : tensor<4xi32>\n"
	"    br ^join(%v)\n"
	"  ^join(%m: tensor<4xi32>):\n"
	"    %x = add %m, %p0 : tensor<4xi32>\n"
	"    %y = neg %a : tensor<4xi32>\n"
	"    return %x, %y\n"
	"  }\n"
	"inputs:\n"
	"  p0: [1, 2, 3, 4]\n"
	"  p1: [5, 6, 7, 8]\n"
	"  n: 1\n"
	"runs:\n"
	"  - plan: {w: p0}\n";

/* The diamond goes (cond_br -> br to the writing arm, the join merged):
 * one block, the forced insert and the read of %p0 after it. */
START_TEST(reduces_block_conflict)
{
	Case *c = NULL, *rc = NULL;
	char *yaml = NULL;
	ReduceStats st;
	Diag d;

	ck_assert(!case_parse("b.yaml", block_conflict, strlen(block_conflict), 0,
			      &c, &d));
	ck_assert_msg(!reduce_case(NULL, c, 0, "reduced/b", NULL, &yaml, &st, &d),
		      "%s", d.msg);
	ck_assert_msg(!case_parse("r.yaml", yaml, strlen(yaml), 0, &rc, &d),
		      "%s\n%s", d.msg, yaml);
	ck_assert_int_eq(rc->entry->nblocks, 1);
	ck_assert_int_le(rc->prog->nops, 3);
	ck_assert_msg(strstr(yaml, "culprits: ['w:p0']") &&
		      strstr(yaml, "= insert 7 into %p0[1]"), "%s", yaml);
	case_free(rc);
	case_free(c);
	mem_free(yaml);
}
END_TEST

START_TEST(reduce_blocks_under_oom)
{
	Case *c = NULL;
	Diag d;

	ck_assert(!case_parse("b.yaml", block_conflict, strlen(block_conflict), 0,
			      &c, &d));
	ck_assert_int_gt(reduce_oom_loop(c), 100);
	case_free(c);
}
END_TEST

static Suite *
reduce_suite(void)
{
	Suite *s = suite_create("reduce");
	TCase *t = tcase_create("corpus");

	tcase_add_test(t, reduces_mutants);
	tcase_add_test(t, reduces_lastuse);
	tcase_add_test(t, reduces_bloated_seed);
	tcase_add_test(t, reduces_generate);
	tcase_add_test(t, keeps_float_inputs);
	tcase_add_test(t, reduces_blocks);
	tcase_add_test(t, reduces_block_conflict);
	tcase_add_test(t, agreeing_run_is_not_reduced);
	tcase_add_test(t, must_agree_and_deadline);
	tcase_add_test(t, keeps_fault_and_culprit);
	tcase_add_test(t, keeps_transpose_divergence);
	tcase_add_test(t, names_resolve_per_function);
	suite_add_tcase(s, t);
	t = tcase_create("oom");
	tcase_add_test(t, reduce_under_oom);
	tcase_add_test(t, reduce_blocks_under_oom);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	trust_all(); /* the project's own cases and texts run their tools */
	return tu_run((Suite *[]){reduce_suite(), NULL});
}
