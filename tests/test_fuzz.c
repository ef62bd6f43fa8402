/* test_fuzz.c: the generator (deterministic, always valid, covering the
 * ops) and the fuzz loop (one-shot clean, a broken strategy caught and
 * reduced to a case that replays).  The fuzz loop against mlir-opt is
 * test_fuzz_mlir.c (ctest label mlir); the same programs from a gcc and
 * a clang build are tests/gen-digest.sh (tests/tools/gen_digest.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"
#include "cli.h"
#include "testutil.h"

static const GenOpts opts = {.max_ops = 12, .mix = GEN_ALL, .no_copies = false};
enum { FIRST_GENERATE = 10 }; /* generate_mix: programs to the first failure */
enum { FIRST_CARRIED = 48 };  /* carried_mutant_caught: the same */
/* carried_futures: programs of seeds 0..999 that carry a future (the
 * loops mix, the loops and blocks mix, every construct), and that carry
 * one by a block argument */
enum { CARRIED_LOOPS = 317, CARRIED_CFG = 335, CARRIED_ALL = 127,
       BLOCKS_CFG = 64, BLOCKS_ALL = 57 };
/* The runs that bufferize: the whole mix, blocks and selects included
 * (seeds 7000..7399 once gave 8 one-shot failures there), without
 * generates (GEN_GENERATE, pinned apart in generate_mix): the generator
 * draws nothing for them then, so these are the programs the pins below
 * were made on. */
static const GenOpts runs = {.max_ops = 12, .mix = GEN_ALL & ~GEN_GENERATE, .no_copies = false};

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

/* gen_load's Case is the one case_parse makes of the same text: places,
 * program (field by field, prog_diff), inputs and run (the fuzz loop
 * loads built-ins' cases so); and its program printed and parsed again
 * is the same program. */
static void
same_case(const Case *a, const Case *b)
{
	char why[256], *text = tir_print(a->prog);
	Program *q;
	Diag d;

	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->about, b->about);
	ck_assert_str_eq(a->text, b->text);
	ck_assert_str_eq(a->prog->file, b->prog->file);
	ck_assert_msg(!prog_diff(a->prog, b->prog, true, why, sizeof why),
		      "%s: %s", a->name, why);
	q = tir_parse(text, strlen(text), (SrcMap){1, 0}, &d);
	ck_assert_msg(q && !prog_diff(a->prog, q, false, why, sizeof why),
		      "%s printed and parsed: %s", a->name, q ? why : d.msg);
	prog_free(q);
	mem_free(text);
	ck_assert_str_eq(a->entry->name, b->entry->name);
	ck_assert_int_eq(a->ninputs, b->ninputs);
	for (int i = 0; i < a->ninputs; i++) {
		const Tensor *x = a->inputs[i], *y = b->inputs[i];
		ck_assert(x->dt == y->dt && x->rank == y->rank && x->n == y->n);
		ck_assert(!memcmp(x->dims, y->dims, sizeof(int64_t) *
				  (size_t)x->rank));
		ck_assert(!memcmp(x->data, y->data, (size_t)x->n *
				  dtype_size(x->dt)));
		ck_assert(!x->def && !y->def);
	}
	ck_assert_int_eq(a->nruns, 1);
	ck_assert_int_eq(b->nruns, 1);
	ck_assert(!memcmp(&a->runs[0].loc, &b->runs[0].loc, sizeof(Loc)));
	ck_assert_ptr_eq(a->runs[0].strategy, b->runs[0].strategy);
	ck_assert(!memcmp(a->runs[0].memory, b->runs[0].memory,
			  sizeof a->runs[0].memory));
	ck_assert(!a->runs[0].workdir && !b->runs[0].workdir);
	ck_assert(!memcmp(&a->lim, &b->lim, sizeof a->lim));
}

START_TEST(loaded_in_memory)
{
	static const char *const strategies[] = {"one-shot", "copy-all",
						 "mutant-zero-trip"};

	for (int k = 0; k < 600; k++) {
		GenOpts o = opts;
		GenCase gc;
		Case *a = NULL, *b = NULL;
		const char *s = strategies[k % 3];
		Diag d;
		o.mix = k % 4 ? GEN_ALL : GEN_LOOPS | GEN_BRANCHES;
		o.max_ops = k % 5 ? 12 : 40;
		ck_assert(!gen_case_parts(9000 + (uint64_t)k, &o, s, NULL, &gc));
		ck_assert_msg(!gen_load(&gc, "seed-1.yaml", s, &a, &d),
			      "seed %d: %d:%d: %s", 9000 + k, d.loc.line,
			      d.loc.col, d.msg);
		ck_assert(!case_parse("seed-1.yaml", gc.yaml, strlen(gc.yaml),
				      CASE_TRUSTED, &b, &d));
		same_case(a, b);
		case_free(a);
		case_free(b);
		mem_free(gc.yaml);
	}
}
END_TEST

/* The program built in memory as the generator draws it (the fuzz loop
 * runs built-ins' programs so) is the parse of the text the same draws
 * write, field by field but for the places, on every mix alone and
 * together; building draws nothing (the same text with or without it);
 * without the text it is the same program, places too. */
START_TEST(built_in_memory)
{
	static const unsigned mixes[] = {GEN_ALL, GEN_ALL & ~GEN_CFG, GEN_SLICES,
		GEN_MATMUL, GEN_LOOPS, GEN_BRANCHES, GEN_ASYNC, GEN_CALLS,
		GEN_FORALL, GEN_CFG, GEN_GENERATE, GEN_LOOPS | GEN_ASYNC,
		GEN_CFG | GEN_ASYNC, GEN_CALLS | GEN_ASYNC | GEN_BRANCHES};
	int n = (int)(sizeof mixes / sizeof *mixes);

	for (int k = 0; k < 1400; k++) {
		GenOpts o = opts;
		GenCase gc, gt, gb;
		Program *built, *alone, *parsed;
		char why[256];
		Diag d;
		uint64_t seed = 20000 + (uint64_t)k;
		o.mix = mixes[k % n];
		o.max_ops = k % 3 ? 12 : 40;
		ck_assert(!gen_case_build(seed, &o, "one-shot", NULL, &gc, &built,
					  true));
		ck_assert(!gen_case_parts(seed, &o, "one-shot", NULL, &gt));
		ck_assert_str_eq(gc.yaml, gt.yaml);
		parsed = tir_parse(gc.yaml + gc.prog, gc.nprog,
				   (SrcMap){gc.prog_line, 0}, &d);
		ck_assert_msg(parsed, "seed %llu: %s", (unsigned long long)seed,
			      d.msg);
		ck_assert_msg(!prog_diff(parsed, built, false, why, sizeof why),
			      "seed %llu, mix %u: %s", (unsigned long long)seed,
			      o.mix, why);
		ck_assert(!gen_case_build(seed, &o, "one-shot", NULL, &gb, &alone,
					  false));
		ck_assert(!gb.yaml);
		ck_assert(gb.ninputs == gc.ninputs && gb.n == gc.n &&
			  !memcmp(gb.in, gc.in, sizeof gb.in));
		ck_assert_msg(!prog_diff(built, alone, true, why, sizeof why),
			      "seed %llu without text: %s",
			      (unsigned long long)seed, why);
		prog_free(parsed);
		prog_free(built);
		prog_free(alone);
		mem_free(gc.yaml);
		mem_free(gt.yaml);
	}
}
END_TEST

/* Big programs: a function stops taking ops short of MAXV values in
 * scope (past it a slot was reused while still held, and every program
 * of --max-ops 2000 was rejected: "expected a name after '%'", an
 * out-of-bounds read of G.v under ASan); the program built in memory is
 * the parse of the text there too (a missing name crashed the builder). */
START_TEST(big_programs_valid)
{
	GenOpts o = opts;
	Limits lim = default_limits;

	o.max_ops = 2000;
	for (uint64_t seed = 900016; seed < 900022; seed++) {
		GenCase gc;
		Program *p, *q;
		char why[256];
		Diag d;
		ck_assert(!gen_case_build(seed, &o, "one-shot", NULL, &gc, &p, true));
		q = tir_parse(gc.yaml + gc.prog, gc.nprog,
			      (SrcMap){gc.prog_line, 0}, &d);
		ck_assert_msg(q && !tir_verify(q, &lim, &d), "seed %llu: %d:%d: %s",
			      (unsigned long long)seed, d.loc.line, d.loc.col,
			      d.msg);
		ck_assert_int_gt(q->nops, 500);
		ck_assert_msg(p && !prog_diff(q, p, false, why, sizeof why),
			      "seed %llu: %s", (unsigned long long)seed,
			      p ? why : "not built");
		prog_free(p);
		prog_free(q);
		mem_free(gc.yaml);
	}
}
END_TEST

/* Out of memory anywhere in making a program, with its text, built in
 * memory or both: -1 and nothing held (a helper's G that could not be
 * had aborted the process; building longjmps out of helpers). */
START_TEST(generator_out_of_memory)
{
	GenOpts o = opts;
	long live = mem_live_blocks();
	int failed = 0;

	o.max_ops = 40;
	for (uint64_t seed = 0; seed < 24; seed++)
		for (long n = 0; n < 40; n++) {
			GenCase gc;
			Program *p = NULL;
			int rc;
			mem_fail_after(n);
			rc = gen_case_build(seed, &o, "one-shot", NULL, &gc,
					    seed % 3 ? &p : NULL, seed % 3 != 1);
			mem_fail_after(-1);
			failed += rc != 0;
			if (!rc) {
				prog_free(p);
				mem_free(gc.yaml);
			} else {
				ck_assert(!p && !gc.yaml);
			}
			ck_assert_int_eq(mem_live_blocks(), live);
		}
	ck_assert_int_gt(failed, 100);
}
END_TEST

/* A program run in memory is judged as its text is: the same reference
 * outputs or failure, verdict, schedule and violations (one-shot,
 * copy-all and a mutant, so that some diverge). */
START_TEST(in_memory_judged_alike)
{
	static const char *const strategies[] = {"one-shot", "copy-all",
						 "mutant-zero-trip"};
	int diverged = 0;

	for (int k = 0; k < 450; k++) {
		GenCase gc, gb;
		Case *c[2] = {NULL, NULL};
		Program *p;
		Tensor **ref[2] = {NULL, NULL};
		int nref[2] = {0, 0}, rr[2];
		RunOut r[2];
		Diag d;
		const char *s = strategies[k % 3];
		uint64_t seed = 30000 + (uint64_t)k;

		ck_assert(!gen_case_parts(seed, &opts, s, NULL, &gc));
		ck_assert(!gen_case_build(seed, &opts, s, NULL, &gb, &p, false));
		ck_assert(!gen_load(&gc, "f.yaml", s, &c[0], &d));
		ck_assert(!gen_load_built(&gb, p, "f.yaml", s, &c[1], &d));
		for (int i = 0; i < 2; i++) {
			rr[i] = ref_run(c[i]->prog, c[i]->entry, c[i]->inputs,
					&c[i]->lim, &ref[i], &nref[i], &d);
			c[i]->ref_failed = rr[i] == 1 ?
				prog_op_at(c[i]->prog, OP_ASSERT, d.loc) : NULL;
			ck_assert(rr[i] == 1 ? c[i]->ref_failed != NULL : rr[i] == 0);
			diff_run(NULL, c[i], &c[i]->runs[0], NULL, ref[i], nref[i],
				 &r[i]);
		}
		ck_assert_int_eq(rr[0], rr[1]);
		ck_assert_int_eq(nref[0], nref[1]);
		for (int i = 0; i < nref[0]; i++)
			for (int64_t e = 0; e < ref[0][i]->n; e++)
				ck_assert(tensor_elem_same(ref[0][i], ref[1][i], e));
		ck_assert_int_eq(r[0].verdict, r[1].verdict);
		ck_assert_int_eq(r[0].status, r[1].status);
		ck_assert_str_eq(r[0].schedule, r[1].schedule);
		ck_assert_int_eq(r[0].nfailing, r[1].nfailing);
		ck_assert_int_eq(r[0].ex.nviols, r[1].ex.nviols);
		for (int i = 0; i < r[0].ex.nviols; i++)
			ck_assert(r[0].ex.viols[i].kind == r[1].ex.viols[i].kind &&
				  r[0].ex.viols[i].count == r[1].ex.viols[i].count);
		diverged += r[0].verdict != VERDICT_AGREE;
		for (int i = 0; i < 2; i++) {
			runout_clear(&r[i]);
			for (int j = 0; j < nref[i]; j++)
				tensor_free(ref[i][j]);
			mem_free(ref[i]);
			case_free(c[i]);
		}
		mem_free(gc.yaml);
	}
	ck_assert_int_gt(diverged, 20);
}
END_TEST

/* Two runs of one buffer program, the same bit for bit: outputs,
 * violations, failure, memory. */
static void
same_run_steps(const ExecResult *a, const ExecResult *b, uint64_t seed,
	       int i, int j, bool steps);

static void
same_run(const ExecResult *a, const ExecResult *b, uint64_t seed, int i, int j)
{
	same_run_steps(a, b, seed, i, j, true);
}

/* steps false: a violation's step may differ (sync runs a launch's body
 * before the step of its launch, a random run after it) */
static void
same_run_steps(const ExecResult *a, const ExecResult *b, uint64_t seed,
	       int i, int j, bool steps)
{
	ck_assert_msg(a->nouts == b->nouts && a->nviols == b->nviols &&
		      a->failed == b->failed && !strcmp(a->aborted, b->aborted) &&
		      !memcmp(&a->mem, &b->mem, sizeof a->mem),
		      "seed %llu: random:%d and random:%d differ (0: late or sync)",
		      (unsigned long long)seed, i, j);
	for (int k = 0; k < a->nouts; k++) {
		const Tensor *x = a->outs[k], *y = b->outs[k];
		ck_assert(x->n == y->n && x->dt == y->dt);
		for (int64_t e = 0; e < x->n; e++)
			ck_assert(tensor_elem_same(x, y, e));
	}
	for (int k = 0; k < a->nviols; k++) {
		const Violation *v = &a->viols[k], *w = &b->viols[k];
		ck_assert(v->kind == w->kind && v->at == w->at &&
			  v->victim == w->victim && v->writer == w->writer &&
			  v->buffer == w->buffer && v->count == w->count &&
			  (!steps || v->step == w->step) &&
			  !strcmp(v->detail, w->detail) &&
			  !strcmp(v->launches, w->launches));
	}
}

/* The path of a run: each executed instruction and the stream it ran
 * in, in order, hashed (ExecOpts.on_step). */
typedef struct Path {
	uint64_t h;
	int64_t steps;
} Path;

static void
path_step(void *ctx, int64_t step, int64_t live, const BInst *in, int stream)
{
	Path *p = ctx;

	(void)live;
	p->h = (p->h ^ (uint64_t)(uintptr_t)in ^ (uint64_t)(stream + 1) << 48) *
	       0x100000001b3ull;
	p->steps = step;
}

/* A random schedule whose draws decide what an earlier one's did makes
 * the same run, so run_schedules counts it without running it (issue
 * 26): on generated programs with launches and foralls, under a strategy
 * that races, each seed's tape replays its own seed, and runs whose
 * tapes match are the same run.  Some do match, some do not.  The late
 * run (t[0], ex[0]) keeps the tape a random run would draw to make it,
 * and a seed that draws it is the late run too. */
START_TEST(schedule_tapes)
{
	int same = 0, differ = 0, late = 0;

	for (int k = 0; k < 200; k++) {
		uint64_t seed = 31000 + (uint64_t)k;
		const Strategy *st = strategy_find(k % 2 ? "one-shot" :
					"mutant-async-reads-end-at-launch");
		char *yaml = gen_case(seed, &opts, st->name);
		Case *c = NULL;
		Decisions ds;
		BProg *bp;
		SchedTape t[9];
		ExecResult ex[9];
		Path path[9];
		Diag d;
		ck_assert(!case_parse("s.yaml", yaml, strlen(yaml), CASE_TRUSTED,
				      &c, &d));
		mem_free(yaml);
		if (!prog_has_op(c->prog, OP_ASYNC) &&
		    !prog_has_op(c->prog, OP_FORALL)) {
			case_free(c);
			continue;
		}
		ck_assert(!decisions_make(c->prog, st, &ds));
		ck_assert((bp = bufferize_lower(c->prog, &ds, &d)) != NULL);
		for (int i = 0; i <= 8; i++) {
			ExecOpts eo = {.lim = &c->lim,
				       .sched = {i ? SCHED_RANDOM : SCHED_LATE,
						 (uint64_t)i},
				       .tape = memset(&t[i], 0, sizeof t[i]),
				       .on_step = path_step,
				       .step_ctx = &path[i]};
			path[i] = (Path){0xcbf29ce484222325ull, 0};
			ck_assert(!exec_run(bp, c->entry, c->inputs, &eo, &ex[i],
					    &d));
			ck_assert(!i || sched_tape_same(&t[i], (uint64_t)i));
			for (int j = 0; j < i; j++) {
				if (!sched_tape_same(&t[j], (uint64_t)i)) {
					differ++;
					continue;
				}
				same++;
				late += !j;
				same_run(&ex[j], &ex[i], seed, j, i);
				/* the same instructions in the same order */
				ck_assert_msg(path[j].h == path[i].h &&
					      path[j].steps == path[i].steps,
					      "seed %llu: random:%d took another "
					      "path than %d (0: late)",
					      (unsigned long long)seed, i, j);
			}
		}
		for (int i = 0; i <= 8; i++) {
			exec_result_free(&ex[i]);
			sched_tape_free(&t[i]);
		}
		bprog_free(bp);
		decisions_free(&ds);
		case_free(c);
	}
	ck_assert_int_gt(same, 100);
	ck_assert_msg(late > 50, "%d random runs are the late run", late);
	ck_assert_int_gt(differ, 100);
}
END_TEST

/* A sync run keeps the tape a random run would draw to make it: each
 * launch run at the boundary right after it, each forall trip in order
 * (rank 0).  A seed that draws it makes the same run (outputs,
 * violations, memory, as many steps; only the steps of a launch's body
 * come before its own in sync), so run_schedules counts it without
 * running it; a seed that does not is another run.  A launch made inside
 * a running launch runs at once under sync, never under random: that
 * tape matches no seed. */
static int
sync_tape_matches(const Case *c, const char *strategy, int nseeds,
		  int *other)
{
	Decisions ds;
	BProg *bp;
	SchedTape t = {0};
	ExecResult sx;
	Path sp = {0xcbf29ce484222325ull, 0};
	Diag d;
	int match = 0;

	ck_assert(!decisions_make(c->prog, strategy_find(strategy), &ds));
	ck_assert((bp = bufferize_lower(c->prog, &ds, &d)) != NULL);
	ExecOpts so = {.lim = &c->lim, .sched = {SCHED_SYNC, 0}, .tape = &t,
		       .on_step = path_step, .step_ctx = &sp};
	ck_assert(!exec_run(bp, c->entry, c->inputs, &so, &sx, &d));
	for (int seed = 1; seed <= nseeds; seed++) {
		Path rp = {0xcbf29ce484222325ull, 0};
		ExecOpts ro = {.lim = &c->lim,
			       .sched = {SCHED_RANDOM, (uint64_t)seed},
			       .on_step = path_step, .step_ctx = &rp};
		ExecResult rx;
		ck_assert(!exec_run(bp, c->entry, c->inputs, &ro, &rx, &d));
		if (sched_tape_same(&t, (uint64_t)seed)) {
			match++;
			same_run_steps(&sx, &rx, (uint64_t)seed, 0, seed, false);
			ck_assert_msg(rp.steps == sp.steps, "random:%d: %lld "
				      "steps, sync %lld", seed,
				      (long long)rp.steps, (long long)sp.steps);
		} else {
			*other += 1;
		}
		exec_result_free(&rx);
	}
	exec_result_free(&sx);
	sched_tape_free(&t);
	bprog_free(bp);
	decisions_free(&ds);
	return match;
}

START_TEST(sync_tape)
{
	static const char nested[] =
		"case: n\n"
		"program: |\n"
		"  func @main(%x: tensor<4xi64>) -> tensor<4xi64> {\n"
		"    %f = async stream 1 -> (tensor<4xi64>) {\n"
		"      %g = async stream 0 -> (tensor<4xi64>) {\n"
		"        %m = mul %x, %x : tensor<4xi64>\n"
		"        yield %m\n"
		"      }\n"
		"      %w = await %g\n"
		"      yield %w\n"
		"    }\n"
		"    %y = add %x, %x : tensor<4xi64>\n"
		"    %a = await %f\n"
		"    %r = add %a, %y : tensor<4xi64>\n"
		"    return %r\n"
		"  }\n"
		"inputs:\n"
		"  x: [1, 2, 3, 4]\n";
	int match = 0, other = 0, none = 0, programs = 0;
	Case *c = NULL;
	Diag d;

	for (int k = 0; k < 300; k++) {
		uint64_t seed = 47000 + (uint64_t)k;
		const char *st = k % 2 ? "one-shot"
				       : "mutant-async-reads-end-at-launch";
		char *yaml = gen_case(seed, &opts, st);
		ck_assert(!case_parse("s.yaml", yaml, strlen(yaml), CASE_TRUSTED,
				      &c, &d));
		mem_free(yaml);
		if (prog_has_op(c->prog, OP_ASYNC) ||
		    prog_has_op(c->prog, OP_FORALL)) {
			programs++;
			match += sync_tape_matches(c, st, 16, &other);
		}
		case_free(c);
	}
	ck_assert_msg(programs > 100 && match > 100 && other > 100,
		      "%d programs: %d random runs were sync's, %d not",
		      programs, match, other);
	ck_assert(!case_parse("n.yaml", nested, strlen(nested), CASE_TRUSTED,
			      &c, &d));
	ck_assert_int_eq(sync_tape_matches(c, "one-shot", 200, &none), 0);
	ck_assert_int_eq(none, 200);
	case_free(c);
}
END_TEST

/* A late run's tape names late's forall trips by their rank among the
 * live ones (late steps them from the last): a random seed that draws
 * those ranks takes late's path, one that does not is not taken for it. */
START_TEST(late_tape_forall)
{
	static const char yaml[] =
		"case: t\n"
		"program: |\n"
		"  func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {\n"
		"    %r = forall %i = 0 to 2 shared(%o = %y) -> (tensor<4xi32>) {\n"
		"      %s = extract_slice %x[%i] [1] [1] : tensor<1xi32>\n"
		"      parallel_insert_slice %s into %o[%i] [1] [1]\n"
		"    }\n"
		"    return %r\n"
		"  }\n"
		"inputs:\n"
		"  x: [1, 2, 3, 4]\n"
		"  y: [0, 0, 0, 0]\n";
	Case *c = NULL;
	Decisions ds;
	BProg *bp;
	SchedTape late = {0};
	ExecResult lx;
	Path lp = {0xcbf29ce484222325ull, 0};
	Diag d;
	int match = 0, other = 0;

	ck_assert(!case_parse("t.yaml", yaml, strlen(yaml), CASE_TRUSTED, &c,
			      &d));
	ck_assert(!decisions_make(c->prog, strategy_find("one-shot"), &ds));
	ck_assert((bp = bufferize_lower(c->prog, &ds, &d)) != NULL);
	ExecOpts lo = {.lim = &c->lim, .sched = {SCHED_LATE, 0}, .tape = &late,
		       .on_step = path_step, .step_ctx = &lp};
	ck_assert(!exec_run(bp, c->entry, c->inputs, &lo, &lx, &d));
	for (uint64_t seed = 1; seed <= 200; seed++) {
		Path rp = {0xcbf29ce484222325ull, 0};
		ExecOpts ro = {.lim = &c->lim, .sched = {SCHED_RANDOM, seed},
			       .on_step = path_step, .step_ctx = &rp};
		ExecResult rx;
		ck_assert(!exec_run(bp, c->entry, c->inputs, &ro, &rx, &d));
		if (sched_tape_same(&late, seed)) {
			match++;
			same_run(&lx, &rx, seed, 0, (int)seed);
			ck_assert_msg(rp.h == lp.h && rp.steps == lp.steps,
				      "random:%llu is not late's path",
				      (unsigned long long)seed);
		} else {
			other += rp.h != lp.h;
		}
		exec_result_free(&rx);
	}
	/* 2 trips of a few steps: late's order is one in 2^k; of 200
	 * seeds some draw it, most do not */
	ck_assert_msg(match > 0, "%d seeds draw late's path", match);
	ck_assert_int_gt(other, 100);
	exec_result_free(&lx);
	sched_tape_free(&late);
	bprog_free(bp);
	decisions_free(&ds);
	case_free(c);
}
END_TEST

/* The runs of one buffer program share what the executor learns of it
 * (ExecShare, issue 26): every schedule's run with the share, after runs
 * of the other schedules, is the run without it. */
START_TEST(shared_register_files)
{
	static const Schedule sch[] = {{SCHED_SYNC, 0}, {SCHED_LATE, 0},
				       {SCHED_RANDOM, 1}, {SCHED_RANDOM, 2}};
	int nruns = 0;

	for (int k = 0; k < 150; k++) {
		uint64_t seed = 52000 + (uint64_t)k;
		const Strategy *st = strategy_find(k % 3 ? "one-shot" :
					"mutant-no-view-alias");
		char *yaml = gen_case(seed, &opts, st->name);
		ExecShare *share = exec_share_new(); /* (one program's) */
		Case *c = NULL;
		Decisions ds;
		BProg *bp;
		Diag d;
		ck_assert(share != NULL);
		ck_assert(!case_parse("s.yaml", yaml, strlen(yaml), CASE_TRUSTED,
				      &c, &d));
		mem_free(yaml);
		ck_assert(!decisions_make(c->prog, st, &ds));
		ck_assert((bp = bufferize_lower(c->prog, &ds, &d)) != NULL);
		for (int r = 0; r < 2; r++) /* twice: the files used before */
			for (int i = 0; i < 4; i++) {
				ExecOpts own = {.lim = &c->lim, .sched = sch[i]};
				ExecOpts shared = own;
				ExecResult a, b;
				shared.share = share;
				ck_assert(!exec_run(bp, c->entry, c->inputs, &own,
						    &a, &d));
				ck_assert(!exec_run(bp, c->entry, c->inputs,
						    &shared, &b, &d));
				same_run(&a, &b, seed, i, i);
				exec_result_free(&a);
				exec_result_free(&b);
				nruns++;
			}
		exec_share_free(share);
		bprog_free(bp);
		decisions_free(&ds);
		case_free(c);
	}
	ck_assert_int_eq(nruns, 150 * 8);
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

/* The ops of every block of every function. */
static void
mark_prog(const Program *p, bool *seen)
{
	for (int i = 0; i < p->nfuncs; i++)
		for (int b = 0; b < p->funcs[i]->nblocks; b++)
			mark_ops(p->funcs[i]->blocks[b], seen);
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
		mark_prog(c->prog, seen);
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

/* The generate mix (every construct but blocks, with generates): one-shot
 * is clean on 2000 programs; mutant-generate-once (the body analysed as
 * if it ran once) is caught within 100 programs from seed 1, its bucket
 * in a generate. */
START_TEST(generate_mix)
{
	static const GenOpts gen = {.max_ops = 12, .mix = GEN_ALL & ~GEN_CFG, .no_copies = false};
	FuzzOpts o = {0};
	FuzzStats st;
	long first;

	o.strategy = strategy_find("one-shot");
	o.seed = 1;
	o.count = 2000;
	o.nshards = 1;
	o.quiet = true;
	o.gen = gen;
	ck_assert_int_eq(fuzz_run(&o, &st), 0);
	ck_assert_int_eq(st.failures, 0);
	fuzz_stats_free(&st);
	o.strategy = strategy_find("mutant-generate-once");
	ck_assert_ptr_nonnull(o.strategy);
	o.count = 100;
	o.first = true;
	ck_assert_int_eq(fuzz_run(&o, &st), 1);
	first = (long)st.programs;
	fprintf(stderr, "mutant-generate-once: first failure after %ld "
		"programs: %s\n", first, st.buckets.n ? st.buckets.b[0].sig : "?");
	ck_assert_int_eq(first, FIRST_GENERATE);
	ck_assert_int_gt(st.buckets.b[0].in[8], 0); /* culprits in a generate */
	ck_assert_str_eq(sig_construct_names[8], "generate");
	fuzz_stats_free(&st);
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
	o.gen = runs;
	ck_assert_int_eq(fuzz_run(&o, &st), 0);
	ck_assert_int_eq(st.programs, 400);
	ck_assert_int_eq(st.failures, 0);
	fuzz_stats_free(&st);
}
END_TEST

/* The two failure-path mutants are caught from seed 1 within 300
 * programs (first failures: seeds 3 and 43; 69 while a free of a launch's
 * result completed the launch, hiding the early free of seed 43). */
START_TEST(failure_mutants_caught)
{
	static const char *const names[] = {"mutant-failure-leaks",
					    "mutant-failure-frees-early"};
	static const long first[] = {3, 43};

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
		o.gen = runs;
		ck_assert_int_eq(fuzz_run(&o, &st), 1);
		ck_assert_int_eq(st.failures, 1);
		ck_assert_int_eq(st.programs, first[k]);
		fuzz_stats_free(&st);
	}
}
END_TEST

/* mutant-carried-launch-ends (a launch whose future a loop or a branch
 * carries analysed as if it ended at its own awaits) is caught from seed
 * 1 within 1000 programs, in a program that carries a future. */
START_TEST(carried_mutant_caught)
{
	FuzzOpts o = {0};
	FuzzStats st;

	o.strategy = strategy_find("mutant-carried-launch-ends");
	ck_assert_ptr_nonnull(o.strategy);
	o.seed = 1;
	o.count = 1000;
	o.nshards = 1;
	o.quiet = true;
	o.first = true;
	o.gen = runs;
	ck_assert_int_eq(fuzz_run(&o, &st), 1);
	fprintf(stderr, "mutant-carried-launch-ends: first failure after %ld "
		"programs: %s\n", (long)st.programs,
		st.buckets.n ? st.buckets.b[0].sig : "?");
	ck_assert_int_eq(st.failures, 1);
	ck_assert_int_eq(st.programs, FIRST_CARRIED);
	fuzz_stats_free(&st);
}
END_TEST

/* The repro under strategy `strat`: its run's strategy line replaced
 * (the file at path, the copy at out). */
static void
repro_under(const char *path, const char *from, const char *strat,
	    const char *out)
{
	char line[4096];
	FILE *in = fopen(path, "r"), *o = fopen(out, "w");

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(o);
	while (fgets(line, sizeof line, in)) {
		if (!strncmp(line, "  - strategy: ", 14) && strstr(line, from))
			fprintf(o, "  - strategy: %s\n", strat);
		else
			fputs(line, o);
	}
	fclose(in);
	fclose(o);
}

/* inplace-all fails at once; the repro written to DIR is a small case in
 * the "must agree" form (issue 25): `check` fails on it while the strategy
 * is wrong (its run states no verdict, blame or culprits), and the same
 * case under one-shot, a correct strategy, passes. */
START_TEST(broken_strategy_caught_and_reduced)
{
	FuzzOpts o = {0};
	FuzzStats st;
	char dir[] = "/tmp/bufdiff-fuzz-XXXXXX", fixed[4200];
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
	ck_assert_msg(out.status != STATUS_OK, "%s passes check", st.repros[0]);
	ck_assert_int_ge(c->nruns, 1);
	ck_assert_int_eq(c->runs[0].verdict, VERDICT_NONE); /* must agree */
	ck_assert(!c->runs[0].has_blame && !c->runs[0].has_culprits);
	ck_assert_int_le(c->prog->nops, 12);
	ck_assert_ptr_nonnull(strstr(c->about, "Reduced from"));
	outcome_clear(&out);
	case_free(c);
	c = NULL;
	fmt_snprintf(fixed, sizeof fixed, "%s/fixed.yaml", dir);
	repro_under(st.repros[0], "inplace-all", "one-shot", fixed);
	check_file(NULL, fixed, NULL, true, &c, &out);
	ck_assert_msg(out.status == STATUS_OK, "%s: %s", fixed, out.why);
	outcome_clear(&out);
	case_free(c);
	unlink(fixed);
	for (int i = 0; i < st.nrepros; i++)
		unlink(st.repros[i]);
	ck_assert_int_eq(rmdir(dir), 0);
	fuzz_stats_free(&st);
}
END_TEST

/* A tool's errors bucket by kind: the values, lines and numbers of one
 * program are normalised away (two kinds, several names: 2 buckets). */
START_TEST(tool_error_kinds)
{
	static const char *const status[] = {
		"answer: 1:17: duplicate key 'v0' in plan",
		"answer: 3:5: duplicate key 'acc12' in plan",
		"answer: 1:12: unknown value %nosuchv1",
		"answer: 10:2: unknown value %p0.x",
		"answer: 1:17: duplicate key 'f3' in plan",
		"answer: 1:12: unknown value %n",
	};
	static const char *const want[] = {
		"tool-error: answer: N:N: duplicate key 'N' in plan",
		"tool-error: answer: N:N: unknown value %_",
	};
	char sig[512];
	RunOut r;

	for (int i = 0; i < 6; i++) {
		memset(&r, 0, sizeof r);
		r.verdict = VERDICT_TOOL_ERROR;
		fmt_snprintf(r.tool.status, sizeof r.tool.status, "%s", status[i]);
		fuzz_signature(&r, NULL, sig, sizeof sig, NULL);
		ck_assert_str_eq(sig, want[strstr(status[i], "unknown") != NULL]);
	}
	/* what precedes the first ':' is the kind as it is */
	fmt_snprintf(r.tool.status, sizeof r.tool.status, "exit 3");
	fuzz_signature(&r, NULL, sig, sizeof sig, NULL);
	ck_assert_str_eq(sig, "tool-error: exit 3");
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
		[GC_RANK0] = 444, [GC_RANK3] = 602, [GC_DYNAMIC] = 549,
		[GC_I1_TENSOR] = 158, [GC_INDEX_TENSOR] = 120,
		[GC_SCALAR_ARITH] = 96, [GC_BROADCAST] = 73, [GC_IF] = 451,
		[GC_IF_BARE] = 232, [GC_FOR] = 441, [GC_FOR_MULTI] = 94,
		[GC_FOR_START] = 132, [GC_FOR_STEP] = 164, [GC_WHILE] = 87,
		[GC_FORALL] = 187, [GC_ASSERT] = 594, [GC_ASYNC] = 744,
		[GC_FUT0] = 165, [GC_FUT2] = 140, [GC_AWAIT_AGAIN] = 19,
		[GC_CALL] = 691, [GC_CALL_AGAIN] = 35, [GC_HELPER_BRANCH] = 135,
		[GC_HELPER_ASYNC] = 163, [GC_HELPER_CALL] = 125,
		[GC_DYN_INDEX] = 257, [GC_STRIDED_INSERT] = 19,
		[GC_CFG_DIAMOND] = 200, [GC_CFG_LOOP] = 175, [GC_CFG_EXIT] = 45,
		[GC_CFG_ARG] = 262, [GC_CFG_OUTER] = 100, [GC_CFG_NESTED] = 22,
		[GC_SELECT] = 213, [GC_GENERATE] = 419, [GC_GENERATE_INSERT] = 276,
		[GC_CARRY_FOR] = 117, [GC_CARRY_TWO] = 34, [GC_CARRY_SAME] = 28,
		[GC_CARRY_TWICE] = 10, [GC_CARRY_DROP] = 23, [GC_CARRY_FUT0] = 32,
		[GC_CARRY_READS] = 140, [GC_CARRY_INTO] = 46, [GC_CARRY_NEVER] = 44,
		[GC_CARRY_BLOCK] = 90, [GC_CARRY_BACK] = 44,
		[GC_WRITE_AFTER_BRANCH_AWAIT] = 7,
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

/* What the blocks of a program hold: branches, blocks after the entry,
 * their arguments (tensors apart), functions with blocks. */
typedef struct CfgCount {
	long br, cond_br, blocks, args, tensor_args, funcs;
} CfgCount;

static void
count_blocks(const Program *p, CfgCount *n)
{
	for (int i = 0; i < p->nfuncs; i++) {
		const Func *f = p->funcs[i];
		n->funcs += f->nblocks > 1;
		for (int b = 0; b < f->nblocks; b++) {
			const Block *blk = f->blocks[b];
			const Op *t = blk->ops[blk->nops - 1];
			n->br += t->kind == OP_BR;
			n->cond_br += t->kind == OP_COND_BR;
			n->blocks += b > 0;
			n->args += blk->nargs;
			for (int k = 0; k < blk->nargs; k++)
				n->tensor_args += blk->args[k]->type->kind == TY_TENSOR;
		}
	}
}

/* The cfg mix (GEN_CFG, gen_cfg.c): every program verifies, runs under
 * the reference (to its end: nothing of the cfg mix asserts, and no
 * loop of blocks comes near the trip limit), prints and parses back to
 * the same text, and has blocks, branches and tensor block arguments in
 * the pinned numbers (seeds 0..999); the default mix has them too. */
START_TEST(cfg_programs)
{
	static const GenOpts mixes[] = {{.max_ops = 12, .mix = GEN_CFG, .no_copies = false}, {.max_ops = 12, .mix = GEN_ALL, .no_copies = false}};
	static const CfgCount want[] = {{873, 548, 1421, 931, 712, 445},
					{477, 280, 757, 485, 296, 240}};
	static const long want_progs[] = {445, 235};

	for (int m = 0; m < 2; m++) {
		CfgCount n = {0};
		long progs = 0;
		for (uint64_t seed = 0; seed < 1000; seed++) {
			char *y = gen_case(seed, &mixes[m], "one-shot"), *t1, *t2;
			Tensor **outs = NULL;
			Program *p2;
			Case *c = NULL;
			Diag d;
			int nouts = 0, rc;
			ck_assert_msg(!case_parse("g.yaml", y, strlen(y), 0, &c, &d),
				      "seed %d: %d:%d: %s", (int)seed, d.loc.line,
				      d.loc.col, d.msg);
			rc = ref_run(c->prog, c->entry, c->inputs, &c->lim, &outs,
				     &nouts, &d);
			ck_assert_msg(rc == 0 || (m && rc == 1),
				      "seed %d: reference %d: %d:%d: %s", (int)seed,
				      rc, d.loc.line, d.loc.col, d.msg);
			for (int i = 0; i < nouts; i++)
				tensor_free(outs[i]);
			mem_free(outs);
			t1 = tir_print(c->prog);
			p2 = tir_parse(t1, strlen(t1), (SrcMap){0, 0}, &d);
			ck_assert_msg(p2, "seed %d: %s", (int)seed, d.msg);
			t2 = tir_print(p2);
			ck_assert_str_eq(t1, t2);
			progs += prog_has_cfg(c->prog);
			count_blocks(c->prog, &n);
			mem_free(t1);
			mem_free(t2);
			prog_free(p2);
			case_free(c);
			mem_free(y);
		}
		fprintf(stderr, "cfg mix %d: %ld programs with blocks, %ld br, "
			"%ld cond_br, %ld blocks, %ld args (%ld tensors), %ld "
			"functions\n", m, progs, n.br, n.cond_br, n.blocks,
			n.args, n.tensor_args, n.funcs);
		ck_assert_int_eq(progs, want_progs[m]);
		ck_assert_int_eq(n.br, want[m].br);
		ck_assert_int_eq(n.cond_br, want[m].cond_br);
		ck_assert_int_eq(n.blocks, want[m].blocks);
		ck_assert_int_eq(n.args, want[m].args);
		ck_assert_int_eq(n.tensor_args, want[m].tensor_args);
		ck_assert_int_eq(n.funcs, want[m].funcs);
		/* every construct has more br than cond_br, and a block
		 * after the entry per branch target it adds */
		ck_assert_int_gt(n.br, n.cond_br);
		ck_assert_int_ge(n.blocks, n.br);
	}
	{ /* without cfg in the mix, no program has blocks */
		GenOpts o = {.max_ops = 12, .mix = GEN_ALL & ~GEN_CFG, .no_copies = false};
		for (uint64_t seed = 0; seed < 200; seed++) {
			char *y = gen_case(seed, &o, "one-shot");
			ck_assert_ptr_null(strstr(y, "cond_br"));
			ck_assert_ptr_null(strstr(y, "  br "));
			mem_free(y);
		}
	}
}
END_TEST

/* Programs with a future carried by a block argument. */
static bool
has_future_block_arg(const Program *p)
{
	for (int i = 0; i < p->nfuncs; i++)
		for (int b = 1; b < p->funcs[i]->nblocks; b++)
			for (int k = 0; k < p->funcs[i]->blocks[b]->nargs; k++)
				if (p->funcs[i]->blocks[b]->args[k]->type->kind ==
				    TY_FUTURE)
					return true;
	return false;
}

/* Carried futures (gen_carry.c, gen_cfg.c): with launches and loops in
 * the mix, prefetch loops whose iter args are futures; with blocks too,
 * futures on block arguments.  Every program of seeds 0..999 verifies,
 * runs under the reference (to its end without branches in the mix: no
 * asserts), prints and parses back to the same text; the fuzz summary's
 * `carried-future` counts them in the pinned numbers; without launches
 * nothing is carried. */
START_TEST(carried_futures)
{
	static const GenOpts mixes[] = {{.max_ops = 12, .mix = GEN_ASYNC | GEN_LOOPS, .no_copies = false},
					{.max_ops = 12, .mix = GEN_ASYNC | GEN_LOOPS | GEN_CFG, .no_copies = false},
					{.max_ops = 12, .mix = GEN_ALL, .no_copies = false}};
	static const long want_carried[] = {CARRIED_LOOPS, CARRIED_CFG,
					    CARRIED_ALL};
	static const long want_blocks[] = {0, BLOCKS_CFG, BLOCKS_ALL};
	long carried[3], by_blocks[3];

	ck_assert_str_eq(fuzz_construct_names[11], "carried-future");
	for (int m = 0; m < 3; m++) {
		long counts[FUZZ_CONSTRUCTS] = {0}, blocks = 0;
		for (uint64_t seed = 0; seed < 1000; seed++) {
			char *y = gen_case(seed, &mixes[m], "one-shot"), *t1, *t2;
			Tensor **outs = NULL;
			Program *p2;
			Case *c = NULL;
			Diag d;
			int nouts = 0, rc;
			ck_assert_msg(!case_parse("g.yaml", y, strlen(y), 0, &c, &d),
				      "mix %d seed %d: %d:%d: %s", m, (int)seed,
				      d.loc.line, d.loc.col, d.msg);
			rc = ref_run(c->prog, c->entry, c->inputs, &c->lim, &outs,
				     &nouts, &d);
			ck_assert_msg(rc == 0 || (m == 2 && rc == 1),
				      "mix %d seed %d: reference %d: %d:%d: %s", m,
				      (int)seed, rc, d.loc.line, d.loc.col, d.msg);
			for (int i = 0; i < nouts; i++)
				tensor_free(outs[i]);
			mem_free(outs);
			t1 = tir_print(c->prog);
			p2 = tir_parse(t1, strlen(t1), (SrcMap){0, 0}, &d);
			ck_assert_msg(p2, "mix %d seed %d: %s", m, (int)seed, d.msg);
			t2 = tir_print(p2);
			ck_assert_str_eq(t1, t2);
			fuzz_count_constructs(c->prog, counts);
			blocks += has_future_block_arg(c->prog);
			mem_free(t1);
			mem_free(t2);
			prog_free(p2);
			case_free(c);
			mem_free(y);
		}
		fprintf(stderr, "carried mix %d: %ld programs carry a future, "
			"%ld by a block argument\n", m, counts[11], blocks);
		carried[m] = counts[11];
		by_blocks[m] = blocks;
	}
	for (int m = 0; m < 3; m++) {
		ck_assert_int_eq(carried[m], want_carried[m]);
		ck_assert_int_eq(by_blocks[m], want_blocks[m]);
	}
	{ /* without launches nothing is carried */
		GenOpts o = {.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC, .no_copies = false};
		for (uint64_t seed = 0; seed < 200; seed++) {
			char *y = gen_case(seed, &o, "one-shot");
			ck_assert_ptr_null(strstr(y, "future<"));
			mem_free(y);
		}
	}
}
END_TEST

/* The fuzz summary's `carried-future`: a program whose for carries a
 * future in its iter args, or whose block takes one; a future awaited
 * where it was made is not carried. */
START_TEST(summary_counts_carried)
{
	static const char *const progs[] = {
		"func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
		"  %f0 = async stream 1 -> (tensor<4xf32>) {\n"
		"    %d = add %x, 1.0 : tensor<4xf32>\n"
		"    yield %d\n"
		"  }\n"
		"  %rf, %ra = for %i = 0 to %n step 1 iter(%f = %f0, %acc = %x) "
		"-> (future<tensor<4xf32>>, tensor<4xf32>) {\n"
		"    %w = await %f\n"
		"    %g = async stream 1 -> (tensor<4xf32>) {\n"
		"      %m = add %acc, 1.0 : tensor<4xf32>\n"
		"      yield %m\n"
		"    }\n"
		"    %a2 = add %acc, %w : tensor<4xf32>\n"
		"    yield %g, %a2\n"
		"  }\n"
		"  %last = await %rf\n"
		"  return %last\n"
		"}\n",
		"func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
		"  %f = async stream 0 {\n"
		"    %d = add %x, 1.0 : tensor<4xf32>\n"
		"  }\n"
		"  br ^a(%f)\n"
		"^a(%g: future<>):\n"
		"  await %g\n"
		"  return %x\n"
		"}\n",
		"func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
		"  %f = async stream 0 -> (tensor<4xf32>) {\n"
		"    yield %x\n"
		"  }\n"
		"  %y = await %f\n"
		"  return %y\n"
		"}\n"};
	long counts[FUZZ_CONSTRUCTS] = {0};
	Str b = {0};
	json_t *root, *o;
	char *j;

	for (int i = 0; i < 3; i++) {
		Diag d;
		Program *p = tir_parse(progs[i], strlen(progs[i]), (SrcMap){0, 0}, &d);
		ck_assert_msg(p, "program %d: %d:%d: %s", i, d.loc.line, d.loc.col,
			      d.msg);
		fuzz_count_constructs(p, counts);
		prog_free(p);
	}
	ck_assert_int_eq(counts[11], 2);
	ck_assert_int_eq(counts[2], 3); /* async */
	str_puts(&b, "{");
	constructs_json(&b, counts);
	str_puts(&b, "}");
	j = str_take(&b);
	root = json_loads(j, 0, NULL);
	ck_assert_ptr_nonnull(root);
	o = json_object_get(root, "constructs");
	ck_assert_int_eq(json_object_size(o), FUZZ_CONSTRUCTS);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "carried-future")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "block-arg")), 0);
	json_decref(root);
	mem_free(j);
}
END_TEST

/* One flaw, one bucket: the signature names the kind of decision only
 * (a block argument sharing a buffer is an in-place decision too); where
 * the culprit sits among a body's blocks is counted inside the bucket:
 * an arm or a join (cfg-diamond), a loop of blocks (cfg-loop), a block
 * argument (cfg-edge, culprit kind block-arg); the entry block adds
 * nothing. */
START_TEST(bucket_counts_blocks)
{
	static const char text[] =
		"case: blocks\n"
		"program: |\n"
		"  func @main(%p0: tensor<4xi32>, %n: index) -> tensor<4xi32> {\n"
		"    %e = neg %p0 : tensor<4xi32>\n"
		"    %c = lt %n, 2 : index\n"
		"    cond_br %c, ^a, ^j(%e)\n"
		"  ^a:\n"
		"    %w = insert 7 into %p0[1] : tensor<4xi32>\n"
		"    br ^j(%w)\n"
		"  ^j(%m: tensor<4xi32>):\n"
		"    %z = const 0 : index\n"
		"    br ^h(%z, %m)\n"
		"  ^h(%i: index, %acc: tensor<4xi32>):\n"
		"    %k = lt %i, %n : index\n"
		"    cond_br %k, ^b, ^x\n"
		"  ^b:\n"
		"    %u = add %acc, %p0 : tensor<4xi32>\n"
		"    %i2 = add %i, 1 : index\n"
		"    br ^h(%i2, %u)\n"
		"  ^x:\n"
		"    return %acc\n"
		"  }\n"
		"inputs:\n"
		"  p0: [1, 2, 3, 4]\n"
		"  n: 1\n";
	static const char *const names[] = {"e", "w", "m", "u", "acc"};
	/* bits of sig_construct_names: cfg-loop 32, cfg-diamond 64,
	 * cfg-edge 128; of sig_culprit_names: block-arg 16, in-place 64 */
	static const unsigned want_in[] = {0, 64, 64 | 128, 32, 32 | 128};
	static const unsigned want_kind[] = {64, 64, 16, 64, 16};
	Case *c = NULL;
	Diag d;

	ck_assert_msg(!case_parse("b.yaml", text, strlen(text), 0, &c, &d), "%s",
		      d.msg);
	for (int i = 0; i < 5; i++) {
		Value *v = prog_value(c->prog, NULL, names[i]);
		RunOut r;
		char sig[256];
		SigInfo si;
		memset(&r, 0, sizeof r);
		r.verdict = VERDICT_DIVERGE;
		r.culprits = &v;
		r.nculprits = 1;
		fuzz_signature(&r, c, sig, sizeof sig, &si);
		ck_assert_str_eq(sig, "diverge culprit=in-place");
		ck_assert_uint_eq(si.in, want_in[i]);
		ck_assert_uint_eq(si.culprits, want_kind[i]);
		ck_assert_int_eq(si.verdict, VERDICT_DIVERGE);
		ck_assert_int_eq(si.vkind, -1);
	}
	case_free(c);
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
	ck_assert_int_eq(with, 21); /* same seeds, same programs */
}
END_TEST

/* The CLI: op mix by names or bitmask, usage errors exit 2. */
/* Every --mix name alone makes its construct (`--mix forall` once made
 * none: foralls came only with loops): of 300 programs of seeds 0..299,
 * how many hold one of its ops (cfg: a body of several blocks), and, for
 * a name with a count in fuzz's summary, that count. */
static const struct MixWant {
	const char *mix;
	const char *ops[3];
	const char *summary; /* fuzz_construct_names, or NULL */
	int programs;        /* of 300 */
} mix_wants[] = {
	{"slices", {"extract_slice", "insert_slice"}, NULL, 230},
	{"matmul", {"matmul"}, NULL, 140},
	{"loops", {"for", "while"}, "loop", 276},
	{"branches", {"if"}, "branch", 284},
	{"async", {"async"}, "async", 297},
	{"calls", {"call"}, "call", 300},
	{"forall", {"forall"}, "forall", 258},
	{"cfg", {NULL}, "cfg-diamond", 137},
	{"generate", {"generate"}, "generate", 139},
};

/* Does p hold one of w's ops (or, for none, a body of several blocks)? */
static bool
holds(const Program *p, const struct MixWant *w)
{
	bool seen[OP_COUNT] = {0};

	mark_prog(p, seen);
	if (!w->ops[0]) {
		for (int i = 0; i < p->nfuncs; i++)
			if (p->funcs[i]->nblocks > 1)
				return true;
		return false;
	}
	for (int k = 0; k < 3 && w->ops[k]; k++)
		if (seen[op_lookup(w->ops[k], strlen(w->ops[k]))])
			return true;
	return false;
}

static long
summary_count(const FuzzStats *st, const char *name)
{
	for (int i = 0; i < FUZZ_CONSTRUCTS; i++)
		if (!strcmp(fuzz_construct_names[i], name))
			return st->constructs[i];
	ck_abort_msg("no construct %s in the summary", name);
	return -1;
}

START_TEST(every_mix_alone)
{
	const struct MixWant *w = &mix_wants[_i];
	GenOpts go = {.max_ops = 12, .mix = 0, .no_copies = false};
	FuzzOpts o = {0};
	FuzzStats st;
	int n = 0;

	ck_assert_int_eq(fuzz_parse_mix(w->mix, &go.mix), 0);
	for (uint64_t seed = 0; seed < 300; seed++) {
		char *y = gen_case(seed, &go, "copy-all");
		Case *c = NULL;
		Diag d;
		ck_assert_int_eq(case_parse("g.yaml", y, strlen(y), 0, &c, &d), 0);
		n += holds(c->prog, w);
		case_free(c);
		mem_free(y);
	}
	ck_assert_msg(n == w->programs, "--mix %s: %d programs of 300 hold "
		      "its construct, expected %d", w->mix, n, w->programs);
	if (!w->summary)
		return;
	o.strategy = strategy_find("copy-all");
	o.count = 300;
	o.nshards = 1;
	o.quiet = true;
	o.gen = go;
	ck_assert_int_eq(fuzz_run(&o, &st), 0);
	ck_assert_int_gt(summary_count(&st, w->summary), 0);
	fuzz_stats_free(&st);
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

int
main(void)
{
	Suite *s = suite_create("fuzz");
	TCase *t = tcase_create("generator");

	tcase_add_test(t, same_seed_same_program);
	tcase_add_test(t, huge_seeds_load);
	tcase_add_test(t, loaded_in_memory);
	tcase_add_test(t, built_in_memory);
	tcase_add_test(t, big_programs_valid);
	tcase_add_test(t, generator_out_of_memory);
	tcase_add_test(t, in_memory_judged_alike);
	tcase_add_test(t, schedule_tapes);
	tcase_add_test(t, late_tape_forall);
	tcase_add_test(t, sync_tape);
	tcase_add_test(t, shared_register_files);
	tcase_add_test(t, programs_are_valid_and_varied);
	tcase_add_test(t, failure_mutants_caught);
	tcase_add_test(t, carried_mutant_caught);
	tcase_add_test(t, one_shot_is_clean);
	tcase_add_test(t, broken_strategy_caught_and_reduced);
	tcase_add_test(t, tool_error_kinds);
	tcase_add_test(t, shards_do_not_overlap);
	tcase_add_test(t, nearby_seeds_differ);
	tcase_add_test(t, constructs_counted);
	tcase_add_test(t, generate_mix);
	tcase_add_test(t, cfg_programs);
	tcase_add_test(t, carried_futures);
	tcase_add_test(t, summary_counts_carried);
	tcase_add_test(t, bucket_counts_blocks);
	tcase_add_test(t, reduce_bare_regions);
	tcase_add_test(t, cli_mix);
	tcase_add_loop_test(t, every_mix_alone, 0,
			    (int)(sizeof mix_wants / sizeof *mix_wants));
	tcase_add_test(t, no_copies);
	suite_add_tcase(s, t);
	return tu_run((Suite *[]){s, NULL});
}
