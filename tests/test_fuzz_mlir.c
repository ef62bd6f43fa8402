/* test_fuzz_mlir.c: the fuzz loop against the real mlir-opt-22 (ctest
 * label mlir: about 590 tool processes, minutes of CPU under load):
 * batched tool calls give each program the verdict it gets alone, for
 * the mlir and the mlir-pipeline strategies.  Each test is a printed SKIP
 * without /usr/bin/mlir-opt-22.  The generator and the in-process fuzz
 * loop are test_fuzz.c.  The batching tests leave blocks (GEN_CFG) out:
 * the programs of their seeds as before blocks; and generates
 * (GEN_GENERATE): MLIR miscompiles a write into a captured tensor in a
 * generate body (docs/mlir-corpus.md, cause 9), which would be failures
 * there, not the bridge's. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"
#include "cli.h"
#include "testutil.h"

/* pipeline_profile_no_waste: seeds 9000..9199 on mlir-opt-22, refused
 * without a profile (in all, by reason) and the tool's crashes (seed
 * 9028's SIGSEGV without; the profile's programs crash it nowhere),
 * and the profile's programs that launch (every one executed) */
enum { REFUSED_NONE = 137, TENSOR_LAUNCH = 73, YIELD = 29, RAW = 16,
       READ_ONLY = 2, SIDE_EFFECTS = 7, CFG_LOOP = 10, CRASHES_NONE = 1,
       CRASHES_PROFILE = 0, LAUNCHING = 105 };

/* A quiet campaign of `count` programs from `seed` of strategy `name`
 * under cfg, on one shard; the mix and the rest are the caller's. */
static void
campaign(FuzzOpts *o, const char *name, const RunConfig *cfg, uint64_t seed,
	 long count)
{
	memset(o, 0, sizeof *o);
	o->strategy = strategy_parse(name);
	o->cfg = cfg;
	o->seed = seed;
	o->count = count;
	o->nshards = 1;
	o->quiet = true;
	ck_assert_ptr_nonnull(o->strategy);
}

/* ExternalOpts.batch: programs per tool call of `fuzz --strategy mlir`
 * (0: 64, 1: a call per program); the verdicts do not depend on it. */
static void
batch_calls(int batch, long *calls, long *failures)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;
	FuzzOpts o;
	FuzzStats st;
	long c0 = external_stats()->calls;

	xo.batch = batch;
	cfg.tool = &xo;
	external_forget();
	campaign(&o, "mlir", &cfg, 1000000, 100);
	o.gen = (GenOpts){.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC &
			  ~GEN_FORALL & ~GEN_CFG & ~GEN_GENERATE, .no_copies = true};
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

/* The cfg mix finds the later-block conflict of issue 22 at once: seed 7
 * (the 7th program from seed 1) writes %p1 in place in a block after the
 * entry and reads it again; mlir-opt-22 finds no conflict. */
START_TEST(mlir_finds_later_block_conflict)
{
	RunConfig cfg = run_config_default;
	ExternalOpts xo = external_opts_default;
	FuzzOpts o;
	FuzzStats st;

	if (access("/usr/bin/mlir-opt-22", X_OK)) {
		printf("SKIP: mlir_finds_later_block_conflict: "
		       "/usr/bin/mlir-opt-22 is not installed\n");
		return;
	}
	xo.batch = 1;
	cfg.tool = &xo;
	external_forget();
	campaign(&o, "mlir", &cfg, 1, 50);
	o.first = true;
	o.gen = (GenOpts){.max_ops = 12, .mix = GEN_CFG, .no_copies = true};
	ck_assert_int_eq(fuzz_run(&o, &st), 1);
	ck_assert_int_eq(st.programs, 7);
	ck_assert_int_eq(st.tool_errors, 0);
	ck_assert_int_eq(st.buckets.n, 1);
	ck_assert_str_eq(st.buckets.b[0].sig, "conflict culprit=in-place");
	ck_assert_int_eq(st.buckets.b[0].in[6], 1); /* cfg-diamond */
	ck_assert_int_eq(st.buckets.b[0].kinds[VK_STALE_READ], 1);
	ck_assert_int_eq(st.buckets.b[0].seeds[0], 7);
	fuzz_stats_free(&st);
	external_forget();
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
	n = (size_t)fmt_snprintf(w->what, sizeof w->what, "%s|%s|%lld %lld %lld|",
			     r.tool.status, r.err.msg,
			     (long long)r.ex.mem.peak_bytes,
			     (long long)r.ex.mem.allocations,
			     (long long)r.ex.mem.copies);
	for (int i = 0; i < r.ex.nviols && n < sizeof w->what; i++) {
		const Violation *v = &r.ex.viols[i];
		n += (size_t)fmt_snprintf(w->what + n, sizeof w->what - n, "%d@%d ",
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
	GenOpts g = {.max_ops = 12,
		     .mix = GEN_ALL & ~GEN_ASYNC & ~GEN_CFG & ~GEN_GENERATE,
		     .no_copies = false};
	static Case *cases[N];
	static Seen batched[N], alone[N];
	static char *yaml[N];
	int count[VERDICT_COUNT] = {0}, nerr = 0;
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
		fmt_snprintf(file, sizeof file, "seed-%d.yaml", 7000000 + i);
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
	for (int i = 0; i < N; i++) {
		seen_run(cases[i], &batched[i]);
		/* every answer cached but the failures': each is asked
		 * alone, for its own stderr (a batch's notes number values
		 * the batch's way); in-process a batch is the programs' own
		 * calls, and only a crash is asked again */
		if (batched[i].verdict == VERDICT_TOOL_ERROR &&
		    (!inproc_wanted("mlir-opt-22") ||
		     !strncmp(batched[i].what, "killed by", 9)))
			nerr++;
	}
	ck_assert_int_eq(external_stats()->calls, c0 + nerr);
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
	ck_assert_int_eq(external_stats()->calls, c0 + nerr + N);
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

/* A campaign of `fuzz --strategy mlir-pipeline --target T --seed 9000
 * --count 200` (the default mix, no racy reads as the command's default
 * for MLIR strategies; T NULL: the default, the strategy's profile). */
static void
profile_run(const char *target, FuzzStats *st)
{
	/* a call per program: a tool that crashes in a batch may or may not
	 * flush the other programs' refusals first (a loaded machine once
	 * counted 138 refusals for 137), so each program is asked alone */
	static ExternalOpts xo;
	static RunConfig cfg;
	FuzzOpts o;

	xo = external_opts_default;
	xo.batch = 1;
	cfg = run_config_default;
	cfg.tool = &xo;
	campaign(&o, "mlir-pipeline", &cfg, 9000, 200);
	o.gen = (GenOpts){.max_ops = 12, .mix = GEN_ALL, .no_races = true};
	ck_assert_int_eq(fuzz_target_find(target, o.strategy, NULL,
					  &o.gen.target), 0);
	external_forget();
	fuzz_run(&o, st);
	ck_assert_int_eq(st->programs, 200);
	external_forget();
}

static long
refusals_of(const FuzzStats *st, const char *reason)
{
	const Bucket *k = buckets_find(&st->refusals, reason);

	return k ? k->count : 0;
}

/* The profile of mlir-pipeline on mlir-opt-22 wastes no program: without
 * it the tool refuses most, each counted by its reason and none a
 * failure; with it every program is executed (or crashes the tool: a
 * finding, in a bucket). */
START_TEST(pipeline_profile_no_waste)
{
	FuzzStats st;

	if (access("/usr/bin/mlir-opt-22", X_OK)) {
		printf("SKIP: pipeline_profile_no_waste: /usr/bin/mlir-opt-22 "
		       "is not installed\n");
		return;
	}
	profile_run("none", &st);
	ck_assert_int_eq(st.refused, REFUSED_NONE);
	ck_assert_int_eq(refusals_of(&st, "tensor-launch"), TENSOR_LAUNCH);
	ck_assert_int_eq(refusals_of(&st, "loop-yield-not-equivalent"), YIELD);
	ck_assert_int_eq(refusals_of(&st, "raw-conflict"), RAW);
	ck_assert_int_eq(refusals_of(&st, "read-only-write"), READ_ONLY);
	ck_assert_int_eq(refusals_of(&st, "unknown-side-effects"), SIDE_EFFECTS);
	ck_assert_int_eq(refusals_of(&st, "cfg-loop"), CFG_LOOP);
	ck_assert_int_eq(st.tool_errors, CRASHES_NONE); /* a finding */
	ck_assert_int_ge(st.failures, st.tool_errors);
	ck_assert_int_eq(st.refusals.b[0].seeds[0], 9004); /* the first */
	fuzz_stats_free(&st);
	profile_run(NULL, &st);
	ck_assert_int_eq(st.refused, 0);
	ck_assert_int_eq(st.tool_errors, CRASHES_PROFILE);
	for (int k = 0; k < FUZZ_CONSTRUCTS; k++) /* launches executed too */
		if (!strcmp(fuzz_construct_names[k], "async"))
			ck_assert_int_eq(st.constructs[k], LAUNCHING);
	fuzz_stats_free(&st);
}
END_TEST

/* What a tool says by design is a refusal; a crash never is. */
START_TEST(refusal_reasons)
{
	ck_assert_str_eq(fuzz_refusal("exit 1", "seed-1.yaml:3:5: error: op "
				      "was not bufferized\n"), "tensor-launch");
	ck_assert_str_eq(fuzz_refusal("exit 1", "x:1:1: error: 'linalg.fill' "
				      "op not bufferizable under the given "
				      "constraints: cannot avoid RaW conflict"),
			 "raw-conflict");
	ck_assert_ptr_null(fuzz_refusal("killed by signal 11 (SIGSEGV)",
					"x:1:1: error: op was not bufferized"));
	ck_assert_ptr_null(fuzz_refusal("exit 1", "x:1:1: error: op was not "
					"bufferized\nLLVM ERROR: boom\n"));
	ck_assert_ptr_null(fuzz_refusal("exit 1", "x:1:1: error: something "
					"else\n"));
	/* the first error is the cause */
	ck_assert_ptr_null(fuzz_refusal("exit 1", "x:1:1: error: other\n"
					"x:2:1: error: op was not bufferized"));
	ck_assert_ptr_null(fuzz_refusal("timed out after 60 s", NULL));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("fuzz-mlir");
	TCase *t = tcase_create("batches");

	tcase_add_test(t, mlir_batch_knob);
	tcase_add_test(t, pipeline_batched_same_verdicts);
	tcase_add_test(t, mlir_finds_later_block_conflict);
	suite_add_tcase(s, t);
	/* CK_RUN_CASE=profiles runs these alone */
	t = tcase_create("profiles");
	tcase_add_test(t, pipeline_profile_no_waste);
	tcase_add_test(t, refusal_reasons);
	suite_add_tcase(s, t);
	return tu_run((Suite *[]){s, NULL});
}
