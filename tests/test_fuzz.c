/* test_fuzz.c: the generator (deterministic, always valid, covering the
 * ops) and the fuzz loop (one-shot clean, a broken strategy caught and
 * reduced to a case that replays). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"
#include "cli.h"
#include "testutil.h"

static const GenOpts opts = {12, GEN_ALL, false};

/* Seeds near 2^64 once gave `{random: SEED}` values the loader rejects
 * (found by libFuzzer). */
START_TEST(huge_seeds_load)
{
	for (uint64_t k = 0; k < 64; k++) {
		char *y = gen_case(UINT64_MAX - k * 0x0123456789ull, &opts, "one-shot");
		Case *c = NULL;
		Diag d;
		ck_assert_msg(!case_parse("g.yaml", y, strlen(y), 0, &c, &d),
			      "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
		case_free(c);
		mem_free(y);
	}
}
END_TEST

START_TEST(same_seed_same_program)
{
	char *a = gen_case(42, &opts, "one-shot"), *b = gen_case(42, &opts, "one-shot");
	char *c = gen_case(43, &opts, "one-shot");

	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, c);
	mem_free(a);
	mem_free(b);
	mem_free(c);
}
END_TEST

/* Ops without results (condition, assert) are seen by walking the blocks. */
static void
mark_ops(const Block *b, bool *seen)
{
	for (int i = 0; b && i < b->nops; i++) {
		seen[b->ops[i]->kind] = true;
		mark_ops(b->ops[i]->body, seen);
		mark_ops(b->ops[i]->orelse, seen);
	}
}

/* Every generated program loads and verifies, and together they use
 * every op of the table. */
START_TEST(programs_are_valid_and_varied)
{
	bool seen[OP_COUNT] = {0};
	int missing = 0;

	for (uint64_t seed = 0; seed < 1500; seed++) {
		char *y = gen_case(seed, &opts, "one-shot");
		Case *c = NULL;
		Diag d;
		int rc = case_parse("g.yaml", y, strlen(y), 0, &c, &d);
		ck_assert_msg(rc == 0, "seed %d: %d:%d: %s", (int)seed, d.loc.line,
			      d.loc.col, d.msg);
		for (int i = 0; i < c->prog->nfuncs; i++)
			mark_ops(c->prog->funcs[i]->body, seen);
		case_free(c);
		mem_free(y);
	}
	/* ops with no result are seen through their neighbours */
	seen[OP_YIELD] = seen[OP_RETURN] = true;
	for (int k = 0; k < OP_COUNT; k++)
		if (!seen[k]) {
			fprintf(stderr, "never generated: %s\n", op_info[k].name);
			missing++;
		}
	ck_assert_int_eq(missing, 0);
}
END_TEST

START_TEST(one_shot_is_clean)
{
	FuzzOpts o = {0};
	FuzzStats st;

	o.strategy = strategy_find("one-shot");
	o.seed = 7000;
	o.count = 400;
	o.nshards = 1;
	o.quiet = true;
	o.gen = opts;
	ck_assert_int_eq(fuzz_run(&o, &st), 0);
	ck_assert_int_eq(st.programs, 400);
	ck_assert_int_eq(st.failures, 0);
	fuzz_stats_free(&st);
}
END_TEST

/* The two failure-path mutants are caught from seed 1 within 300
 * programs (first failures: seed 6 for both). */
START_TEST(failure_mutants_caught)
{
	static const char *const names[] = {"mutant-failure-leaks",
					    "mutant-failure-frees-early"};
	static const long first[] = {6, 6};

	for (int k = 0; k < 2; k++) {
		FuzzOpts o = {0};
		FuzzStats st;

		o.strategy = strategy_find(names[k]);
		ck_assert_ptr_nonnull(o.strategy);
		o.seed = 1;
		o.count = 300;
		o.nshards = 1;
		o.quiet = true;
		o.first = true;
		o.gen = opts;
		ck_assert_int_eq(fuzz_run(&o, &st), 1);
		ck_assert_int_eq(st.failures, 1);
		ck_assert_int_eq(st.programs, first[k]);
		fuzz_stats_free(&st);
	}
}
END_TEST

/* inplace-all fails at once; the repro written to DIR is a small case
 * that replays the failure under `check`. */
START_TEST(broken_strategy_caught_and_reduced)
{
	FuzzOpts o = {0};
	FuzzStats st;
	char dir[] = "/tmp/bufdiff-fuzz-XXXXXX";
	Case *c = NULL;
	Outcome out;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	o.strategy = strategy_find("inplace-all");
	o.seed = 1;
	o.count = 3;
	o.nshards = 1;
	o.quiet = true;
	o.reduce = true;
	o.out = dir;
	o.gen = opts;
	ck_assert_int_eq(fuzz_run(&o, &st), 1);
	ck_assert_int_ge(st.nrepros, 1);
	check_file(NULL, st.repros[0], NULL, true, &c, &out);
	ck_assert_msg(out.status == STATUS_OK, "%s: %s", st.repros[0], out.why);
	ck_assert_int_ge(c->nruns, 1);
	ck_assert_int_ne(c->runs[0].verdict, VERDICT_AGREE);
	ck_assert_int_le(c->prog->nops, 12);
	outcome_clear(&out);
	case_free(c);
	for (int i = 0; i < st.nrepros; i++)
		unlink(st.repros[i]);
	rmdir(dir);
	fuzz_stats_free(&st);
}
END_TEST

/* Seeds are mixed before use: nearby seeds were one stream shifted by a
 * draw, so 3268 and 3271 (and many such pairs) gave the same program. */
START_TEST(nearby_seeds_differ)
{
	enum { N = 400 };
	static char *t[N];

	for (int i = 0; i < N; i++)
		ck_assert_ptr_nonnull(t[i] = gen_case(3000 + (uint64_t)i, &opts,
						      "one-shot"));
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N && j < i + 8; j++) {
			/* past the case's name line */
			const char *a = strstr(t[i], "program:"), *b = strstr(t[j], "program:");
			ck_assert_msg(strcmp(a, b), "seeds %d and %d", 3000 + i, 3000 + j);
		}
	for (int i = 0; i < N; i++)
		mem_free(t[i]);
}
END_TEST

/* Every construct the language has that the generator makes, in a fixed
 * number of the programs of seeds 0..1499 (counted by the generator as
 * it makes them); every program loads and verifies. */
START_TEST(constructs_counted)
{
	static const long want[GC_COUNT] = {
		[GC_RANK0] = 475, [GC_RANK3] = 598, [GC_DYNAMIC] = 577,
		[GC_I1_TENSOR] = 165, [GC_INDEX_TENSOR] = 120,
		[GC_SCALAR_ARITH] = 112, [GC_BROADCAST] = 73, [GC_IF] = 603,
		[GC_IF_BARE] = 276, [GC_FOR] = 503, [GC_FOR_MULTI] = 166,
		[GC_FOR_START] = 171, [GC_FOR_STEP] = 170, [GC_WHILE] = 114,
		[GC_FORALL] = 224, [GC_ASSERT] = 652, [GC_ASYNC] = 762,
		[GC_FUT0] = 131, [GC_FUT2] = 206, [GC_AWAIT_AGAIN] = 21,
		[GC_CALL] = 793, [GC_CALL_AGAIN] = 55, [GC_HELPER_BRANCH] = 183,
		[GC_HELPER_ASYNC] = 173, [GC_HELPER_CALL] = 166,
		[GC_DYN_INDEX] = 272, [GC_STRIDED_INSERT] = 29,
	};
	long progs[GC_COUNT] = {0};
	int bad = 0;

	for (uint64_t seed = 0; seed < 1500; seed++) {
		GenStats st = {0};
		char *y = gen_case_stats(seed, &opts, "one-shot", &st);
		Case *c = NULL;
		Diag d;
		ck_assert_ptr_nonnull(y);
		ck_assert_msg(!case_parse("g.yaml", y, strlen(y), 0, &c, &d),
			      "seed %d: %d:%d: %s", (int)seed, d.loc.line,
			      d.loc.col, d.msg);
		case_free(c);
		mem_free(y);
		for (int k = 0; k < GC_COUNT; k++)
			progs[k] += st.n[k] > 0;
	}
	for (int k = 0; k < GC_COUNT; k++)
		if (progs[k] != want[k]) {
			fprintf(stderr, "%s: in %ld programs, pinned %ld\n",
				gen_construct_names[k], progs[k], want[k]);
			bad++;
		}
	ck_assert_int_eq(bad, 0);
}
END_TEST

/* The reducer indexes the printed program's lines by op: an empty yield
 * the printer leaves out (an `if` or a launch without results) has no
 * line; it once read that as "the printed program does not match its
 * ops" and left every such failure unreduced. */
START_TEST(reduce_bare_regions)
{
	static const char text[] =
		"case: bare\n"
		"program: |\n"
		"  func @main(%p0: tensor<4xi32> {readonly}, %n: index) -> tensor<4xi32> {\n"
		"    %c = lt %n, 2 : index\n"
		"    if %c {\n"
		"      %u = neg %p0 : tensor<4xi32>\n"
		"    }\n"
		"    %f = async stream 0 {\n"
		"      %w = abs %p0 : tensor<4xi32>\n"
		"    }\n"
		"    await %f\n"
		"    %v = insert -2 into %p0[1] : tensor<4xi32>\n"
		"    return %v\n"
		"  }\n"
		"inputs:\n"
		"  p0: [1, 2, 3, 4]\n"
		"  n: 1\n"
		"runs:\n"
		"  - strategy: mutant-readonly-writable\n";
	Case *c = NULL, *r = NULL;
	char *y = NULL;
	ReduceStats st;
	Diag d;

	ck_assert_int_eq(case_parse("bare.yaml", text, strlen(text), 0, &c, &d), 0);
	ck_assert_msg(reduce_case(NULL, c, 0, "bare", "test", &y, &st, &d) == 0, "%s", d.msg);
	ck_assert_int_eq(st.ops_before, 10); /* the implicit yields too */
	ck_assert_int_eq(st.ops_after, 2); /* the insert and the return */
	ck_assert_int_eq(case_parse("r.yaml", y, strlen(y), 0, &r, &d), 0);
	ck_assert_ptr_null(strstr(y, "async"));
	case_free(r);
	case_free(c);
	mem_free(y);
}
END_TEST

/* Shards split the seeds: shard i of n runs seeds i, i+n, i+2n, ... */
START_TEST(shards_do_not_overlap)
{
	char *a = gen_case(100 + 1, &opts, "one-shot");
	char *b = gen_case(100 + 3, &opts, "one-shot");

	/* shard 1/2 from seed 100 runs 101, 103: different programs */
	ck_assert_str_ne(a, b);
	mem_free(a);
	mem_free(b);
}
END_TEST

/* The CLI: op mix by names or bitmask, usage errors exit 2. */
/* Same seed, same program on every compiler and machine: the text of
 * seeds 1..500 hashes to one value, so a build that evaluates the
 * generator's random picks in another order (two picks in one argument
 * list: gcc and clang differ) fails here.  Change the value only when the
 * generator changes on purpose. */
START_TEST(programs_fixed_across_compilers)
{
	uint64_t h = 1469598103934665603ull;

	for (uint64_t seed = 1; seed <= 500; seed++) {
		char *t = gen_case(seed, &opts, "one-shot");
		ck_assert_ptr_nonnull(t);
		for (const char *p = t; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		mem_free(t);
	}
	ck_assert_uint_eq(h, 0x3cefcfe715e8478full);
}
END_TEST

/* --no-copies: no `copy ... into` in any program; the same seeds with
 * copies allowed have some. */
START_TEST(no_copies)
{
	GenOpts without = opts;
	int with = 0;

	without.no_copies = true;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		char *a = gen_case(seed, &opts, "one-shot");
		char *b = gen_case(seed, &without, "one-shot");
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		with += strstr(a, " = copy ") != NULL;
		ck_assert_msg(!strstr(b, " = copy "), "seed %llu has a copy",
			      (unsigned long long)seed);
		mem_free(a);
		mem_free(b);
	}
	ck_assert_int_eq(with, 33); /* same seeds, same programs */
}
END_TEST

START_TEST(cli_mix)
{
	char *ok[] = {"bufdiff", "fuzz", "--strategy", "one-shot", "--count", "50",
		      "--mix", "loops,async", "--quiet", NULL};
	char *num[] = {"bufdiff", "fuzz", "--strategy", "one-shot", "--count", "20",
		       "--mix", "51", "--quiet", NULL};
	char *bad[] = {"bufdiff", "fuzz", "--strategy", "one-shot", "--mix",
		       "bogus", NULL};
	char *nostrat[] = {"bufdiff", "fuzz", "--count", "5", NULL};

	ck_assert_int_eq(cmd_fuzz(9, ok), 0);
	ck_assert_int_eq(cmd_fuzz(9, num), 0);
	ck_assert_int_eq(cmd_fuzz(6, bad), 2);
	ck_assert_int_eq(cmd_fuzz(4, nostrat), 2);
}
END_TEST

/* ExternalOpts.batch: programs per tool call of `fuzz --strategy mlir`
 * (0: 64, 1: a call per program); the verdicts do not depend on it. */
static void
batch_calls(int batch, long *calls, long *failures)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;
	FuzzOpts o = {0};
	FuzzStats st;
	long c0 = external_stats()->calls;

	xo.batch = batch;
	cfg.tool = &xo;
	external_forget();
	o.strategy = strategy_parse("mlir");
	o.cfg = &cfg;
	o.seed = 1000000;
	o.count = 100;
	o.nshards = 1;
	o.quiet = true;
	o.gen = (GenOpts){12, GEN_ALL & ~GEN_ASYNC & ~GEN_FORALL, true};
	ck_assert_ptr_nonnull(o.strategy);
	fuzz_run(&o, &st);
	ck_assert_int_eq(st.programs, 100);
	*calls = external_stats()->calls - c0;
	*failures = st.failures;
	fuzz_stats_free(&st);
	external_forget();
}

START_TEST(mlir_batch_knob)
{
	long calls, failures;

	if (access("/usr/bin/mlir-opt-22", X_OK)) {
		printf("SKIP: mlir_batch_knob: /usr/bin/mlir-opt-22 is not "
		       "installed\n");
		return;
	}
	/* no failure: seeds 1000004 and 1000055 pass static tensors to
	 * dynamic params; the export casts them, MLIR puts the copy of such
	 * an argument on its tensor.cast (`"false"`, at the call's location)
	 * and the bridge once read that as the call's first operand, or
	 * not at all (readonly-write, stale read: false alarms) */
	batch_calls(0, &calls, &failures);     /* 64 + 36 */
	ck_assert_int_eq(calls, 2);
	ck_assert_int_eq(failures, 0);
	batch_calls(16, &calls, &failures);    /* 6 x 16 + 4 */
	ck_assert_int_eq(calls, 7);
	ck_assert_int_eq(failures, 0);
	batch_calls(1, &calls, &failures);     /* unbatched */
	ck_assert_int_eq(calls, 100);
	ck_assert_int_eq(failures, 0);
}
END_TEST

/* What one run of a case came to, to compare batched with unbatched. */
typedef struct Seen {
	Verdict verdict;
	Status status;
	char what[512];         /* tool status, error, violations, memory */
} Seen;

static void
seen_run(const Case *c, Seen *w)
{
	Tensor **ref = NULL;
	int nref = 0;
	RunOut r;
	Diag d;
	int rr = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref, &d);
	size_t n;

	ck_assert_int_ge(rr, 0);
	((Case *)c)->ref_failed = rr == 1 ? prog_op_at(c->prog, OP_ASSERT, d.loc)
					  : NULL;
	diff_run(NULL, c, &c->runs[0], NULL, ref, nref, &r);
	w->verdict = r.verdict;
	w->status = r.status;
	n = (size_t)snprintf(w->what, sizeof w->what, "%s|%s|%lld %lld %lld|",
			     r.tool.status, r.err.msg,
			     (long long)r.ex.mem.peak_bytes,
			     (long long)r.ex.mem.allocations,
			     (long long)r.ex.mem.copies);
	for (int i = 0; i < r.ex.nviols && n < sizeof w->what; i++) {
		const Violation *v = &r.ex.viols[i];
		n += (size_t)snprintf(w->what + n, sizeof w->what - n, "%d@%d ",
				      (int)v->kind, v->at ? v->at->mloc.line : 0);
	}
	runout_clear(&r);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
}

/* Fuzz batches of mlir-pipeline (nested modules, the whole pipeline on
 * each, the answer split per module) give every program the verdict,
 * the violations with their memref lines and the memory it gets when it
 * is asked alone, tool-errors included. */
START_TEST(pipeline_batched_same_verdicts)
{
	enum { N = 320 };
	const Strategy *s = strategy_parse("mlir-pipeline");
	GenOpts g = {12, GEN_ALL & ~GEN_ASYNC, false};
	static Case *cases[N];
	static Seen batched[N], alone[N];
	static char *yaml[N];
	int count[VERDICT_COUNT] = {0};
	long c0;

	if (access("/usr/bin/mlir-opt-22", X_OK)) {
		printf("SKIP: pipeline_batched_same_verdicts: "
		       "/usr/bin/mlir-opt-22 is not installed\n");
		return;
	}
	for (int i = 0; i < N; i++) {
		char file[64];
		Diag d;
		/* the name fuzz gives it: a batch's diagnostics name it */
		snprintf(file, sizeof file, "seed-%d.yaml", 7000000 + i);
		yaml[i] = gen_case(7000000 + (uint64_t)i, &g, s->name);
		ck_assert_int_eq(case_parse(file, yaml[i], strlen(yaml[i]), 0,
					    &cases[i], &d), 0);
	}
	external_forget();
	c0 = external_stats()->calls;
	for (int i = 0; i < N; i += 64)
		external_prefill(NULL, s, cases + i, N - i < 64 ? N - i : 64);
	ck_assert_int_lt(external_stats()->calls - c0, N / 2);
	c0 = external_stats()->calls;
	for (int i = 0; i < N; i++)
		seen_run(cases[i], &batched[i]);
	ck_assert_int_eq(external_stats()->calls, c0); /* every answer cached */
	external_forget();
	for (int i = 0; i < N; i++) {
		seen_run(cases[i], &alone[i]);
		ck_assert_msg(batched[i].verdict == alone[i].verdict &&
			      batched[i].status == alone[i].status &&
			      !strcmp(batched[i].what, alone[i].what),
			      "seed %d: batched %d %d %s, alone %d %d %s",
			      7000000 + i, batched[i].verdict, batched[i].status,
			      batched[i].what, alone[i].verdict, alone[i].status,
			      alone[i].what);
		count[alone[i].verdict]++;
	}
	ck_assert_int_eq(external_stats()->calls, c0 + N);
	/* both paths of a batch: answers split and failures taken out */
	ck_assert_int_gt(count[VERDICT_AGREE], N / 4);
	ck_assert_int_gt(count[VERDICT_TOOL_ERROR], 0);
	for (int i = 0; i < N; i++) {
		case_free(cases[i]);
		mem_free(yaml[i]);
	}
	external_forget();
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("fuzz");
	TCase *t = tcase_create("generator");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, same_seed_same_program);
	tcase_add_test(t, huge_seeds_load);
	tcase_add_test(t, programs_are_valid_and_varied);
	tcase_add_test(t, failure_mutants_caught);
	tcase_add_test(t, one_shot_is_clean);
	tcase_add_test(t, broken_strategy_caught_and_reduced);
	tcase_add_test(t, shards_do_not_overlap);
	tcase_add_test(t, nearby_seeds_differ);
	tcase_add_test(t, constructs_counted);
	tcase_add_test(t, reduce_bare_regions);
	tcase_add_test(t, cli_mix);
	tcase_add_test(t, no_copies);
	tcase_add_test(t, programs_fixed_across_compilers);
	tcase_add_test(t, mlir_batch_knob);
	tcase_add_test(t, pipeline_batched_same_verdicts);
	suite_add_tcase(s, t);
	return tu_run((Suite *[]){s, NULL});
}
