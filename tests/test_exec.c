/* test_exec.c: the version shadow, memory accounting, culprit bisection
 * and lowering of the differential core. */
#include <stdio.h>
#include <stdlib.h>

#include "exec.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

/* ---- the shadow, directly */

static Exec *
exec_new(ExecResult *res, ExecOpts *o)
{
	static Exec X;

	memset(&X, 0, sizeof X);
	memset(res, 0, sizeof *res);
	X.res = res;
	X.o = o;
	return &X;
}

static View
view1(int64_t off, int64_t size, int64_t stride)
{
	View v = {0};

	v.dt = DT_I32;
	v.rank = 1;
	v.off = off;
	v.sizes[0] = size;
	v.strides[0] = stride;
	return v;
}

START_TEST(shadow_uniform_then_partial)
{
	ExecResult res;
	ExecOpts o = {.lim = &default_limits};
	Exec *X = exec_new(&res, &o);
	View whole = view1(0, 8, 1), odd = view1(1, 4, 2), lo = view1(0, 4, 1);
	uint32_t found = 0;
	int h;

	if (setjmp(X->oom))
		ck_abort_msg("out of memory");
	h = buf_new(X, DT_I32, 8, BUF_ALLOC, NULL, NULL);
	shadow_write(X, h, &whole, 5);
	ck_assert(X->bufs[h].uniform);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, 5, &found), -1);
	/* a strided write splits the tag: elements 1, 3, 5, 7 (a patch
	 * over the base, until a check must locate a mismatch) */
	shadow_write(X, h, &odd, 6);
	ck_assert(X->bufs[h].uniform);
	ck_assert_int_eq(X->bufs[h].npatch, 1);
	ck_assert_int_eq(shadow_mismatch(X, h, &odd, 6, &found), -1);
	ck_assert(X->bufs[h].uniform);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, 5, &found), 1);
	ck_assert_int_eq(found, 6);
	ck_assert(!X->bufs[h].uniform);
	/* lo = x[0:4]: the first stale element is lo[1] */
	ck_assert_int_eq(shadow_mismatch(X, h, &lo, 5, &found), 1);
	/* a whole write makes it uniform again */
	shadow_write(X, h, &whole, 7);
	ck_assert(X->bufs[h].uniform);
	ck_assert_int_eq(shadow_mismatch(X, h, &lo, 7, &found), -1);
	ck_assert_int_eq(res.mem.allocations, 1);
	ck_assert_int_eq(res.mem.peak_bytes, 32);
	buf_release(X, h, NULL);
	ck_assert_int_eq(X->live, 0);
	/* a freed payload is returned; touched again, it is poison */
	ck_assert_ptr_null(X->bufs[h].data);
	ck_assert_int_eq((unsigned char)buf_data(X, h)[0], 0xDE);
	ck_assert_int_eq((unsigned char)buf_data(X, h)[3], 0xEF);
	bufs_free(X);
	exec_result_free(&res);
}
END_TEST

/* A row written in place and inserted back (the row loop): the checks
 * answer from the patch, the insert's whole write drops it, and the shadow
 * never takes a tag per element.  A read the patches cannot decide, or a
 * fifth patch, expands it with the same answers. */
START_TEST(shadow_patches)
{
	ExecResult res;
	ExecOpts o = {.lim = &default_limits};
	Exec *X = exec_new(&res, &o);
	View whole = view1(0, 16, 1), row = view1(4, 4, 1), in_row = view1(5, 2, 1);
	View across = view1(2, 4, 1);
	uint32_t found = 0;
	int h;

	if (setjmp(X->oom))
		ck_abort_msg("out of memory");
	h = buf_new(X, DT_I32, 16, BUF_ALLOC, NULL, NULL);
	shadow_write(X, h, &whole, 1);
	for (uint32_t trip = 0; trip < 3; trip++) {
		uint32_t base = 1 + 2 * trip;
		shadow_write(X, h, &row, base + 1);       /* add into the row */
		ck_assert_int_eq(shadow_mismatch(X, h, &row, base + 1, &found), -1);
		ck_assert_int_eq(shadow_mismatch(X, h, &in_row, base + 1, &found), -1);
		/* the insert reads all but its row, expecting the base */
		ck_assert_int_eq(shadow_mismatch_except(X, h, &whole, &row, base,
							&found), -1);
		shadow_write(X, h, &whole, base + 2);   /* the insert */
		ck_assert(X->bufs[h].uniform);
		ck_assert_int_eq(X->bufs[h].npatch, 0);
		ck_assert_ptr_null(X->bufs[h].vers);
	}
	/* a read across the patch's edge: found at across[2] (element 4) */
	shadow_write(X, h, &row, 9);
	ck_assert_int_eq(shadow_mismatch(X, h, &across, 7, &found), 2);
	ck_assert_int_eq(found, 9);
	ck_assert(!X->bufs[h].uniform);
	/* five partial writes: the fifth expands */
	shadow_write(X, h, &whole, 10);
	for (int k = 0; k < 5; k++) {
		View one = view1(k, 1, 1);
		shadow_write(X, h, &one, 11 + (uint32_t)k);
	}
	ck_assert(!X->bufs[h].uniform);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, 10, &found), 0);
	ck_assert_int_eq(found, 11);
	ck_assert_int_eq(shadow_mismatch_except(X, h, &whole, &row, 10, &found), 0);
	bufs_free(X);
	exec_result_free(&res);
}
END_TEST

/* A read expecting an `empty`'s version accepts any element: the
 * reference never defined them.  Other versions are still checked. */
START_TEST(shadow_undefined_version)
{
	ExecResult res;
	ExecOpts o = {.lim = &default_limits};
	Exec *X = exec_new(&res, &o);
	Program *p;
	Diag d;
	View whole = view1(0, 4, 1), first = view1(0, 1, 1), rest = view1(1, 3, 1);
	uint32_t found = 0, ve, vf, vr;
	int h;

	p = tu_parse("func @main() -> tensor<4xi32> {\n"
		     "  %e = empty : tensor<4xi32>\n"
		     "  %f = fill 0 into %e : tensor<4xi32>\n"
		     "  %r = insert 5 into %f[0] : tensor<4xi32>\n"
		     "  return %r\n"
		     "}\n", &d);
	ck_assert_ptr_nonnull(p);
	if (setjmp(X->oom))
		ck_abort_msg("out of memory");
	version_new(X, NULL, NULL);
	ve = version_new(X, p->funcs[0]->body->ops[0]->res[0], NULL);
	vf = version_new(X, p->funcs[0]->body->ops[1]->res[0], NULL);
	vr = version_new(X, p->funcs[0]->body->ops[2]->res[0], NULL);
	ck_assert(!version_undef(X, 0));
	ck_assert(version_undef(X, ve));
	ck_assert(!version_undef(X, vf));
	ck_assert(!version_undef(X, 99));
	h = buf_new(X, DT_I32, 4, BUF_ALLOC, NULL, NULL);
	shadow_write(X, h, &whole, ve);
	shadow_write(X, h, &first, vr);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, ve, &found), -1);
	ck_assert_int_eq(shadow_mismatch_except(X, h, &whole, &rest, ve,
						&found), -1);
	shadow_write(X, h, &whole, vf);
	shadow_write(X, h, &first, vr);
	ck_assert_int_eq(shadow_mismatch(X, h, &rest, vf, &found), -1);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, vf, &found), 0);
	ck_assert_int_eq(found, vr);
	/* r = insert 5 into e[0]: r[1..3] stay undefined, r[0] is not */
	ck_assert_ptr_null(undef_carry(X, h, &whole, vf, &first, 0, -1, &first));
	X->vers[vr].undef_at = undef_carry(X, h, &whole, ve, &first, 0, -1,
					   &first);
	X->vers[vr].undef_buf = h;
	ck_assert_ptr_nonnull(X->vers[vr].undef_at);
	ck_assert(!version_undef_at(X, vr, h, 0));
	ck_assert(version_undef_at(X, vr, h, 3));
	ck_assert(!version_undef_at(X, vr, h + 1, 3));  /* another buffer */
	shadow_write(X, h, &whole, vr);
	shadow_write(X, h, &rest, vf);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, vr, &found), -1);
	shadow_write(X, h, &first, vf);
	ck_assert_int_eq(shadow_mismatch(X, h, &whole, vr, &found), 0);
	ck_assert_int_eq(shadow_mismatch_except(X, h, &whole, &first, vr,
						&found), -1);
	bufs_free(X);
	versions_free(X);
	exec_result_free(&res);
	prog_free(p);
}
END_TEST

START_TEST(violations_fold_repeats)
{
	ExecResult res;
	ExecOpts o = {.lim = &default_limits};
	Exec *X = exec_new(&res, &o);
	BInst a = {0}, b = {0};
	View v = view1(0, 4, 1);

	if (setjmp(X->oom))
		ck_abort_msg("out of memory");
	violate(X, VK_STALE_READ, &a, NULL, &b, 0, &v, 2, NULL);
	violate(X, VK_STALE_READ, &a, NULL, &b, 0, &v, 3, NULL);
	violate(X, VK_LEAK, &a, NULL, NULL, 0, NULL, 0, NULL);
	ck_assert_int_eq(res.nviols, 2);
	ck_assert_int_eq(res.viols[0].count, 2);
	ck_assert_int_eq(res.viols[0].elem[0], 2);
	exec_result_free(&res);
}
END_TEST

/* Two NaNs compare equal whatever their payload or sign (clang swaps the
 * operands of an in-place multiply, and the NaN that comes out changes:
 * found by libFuzzer on a clang build). */
START_TEST(nan_is_nan)
{
	int64_t d1[1] = {1};
	Tensor *a = tensor_new(DT_F64, 1, d1), *b = tensor_new(DT_F64, 1, d1);
	uint64_t pos = 0x7ff8000000000000ull, neg = 0xfff8000000000001ull;

	memcpy(a->data, &pos, 8);
	memcpy(b->data, &neg, 8);
	ck_assert(!tensor_elem_equal(a, b, 0));
	ck_assert(tensor_elem_same(a, b, 0));
	tensor_setf(b, 0, 1.0);
	ck_assert(!tensor_elem_same(a, b, 0));
	tensor_free(a);
	tensor_free(b);
}
END_TEST

/* ---- whole runs through the harness */

static Case *
load(const char *text)
{
	Case *c = NULL;
	Diag d;

	if (case_parse("t.yaml", text, strlen(text), 0, &c, &d))
		ck_abort_msg("%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	return c;
}

#define SEED1024                                                        \
	"case: t\n"                                                     \
	"program: |\n"                                                  \
	"  func @main(%x: tensor<1024xi32>) -> tensor<1024xi32> {\n"    \
	"    %y = add %x, 10 : tensor<1024xi32>\n"                      \
	"    %z = add %x, %y : tensor<1024xi32>\n"                      \
	"    return %z\n"                                               \
	"  }\n"                                                         \
	"inputs:\n"                                                     \
	"  x: {splat: 1}\n"

static void
run_plan(const char *text, Outcome *o)
{
	Case *c = load(text);

	check_case(NULL, c, NULL, true, o);
	o->nouts = o->nouts; /* keep */
	case_free(c);
}

START_TEST(accounting_seed)
{
	Outcome o;
	Case *c = load(SEED1024 "runs:\n"
			       "  - plan: {y: new, z: new}\n"
			       "  - plan: {y: x, z: new}\n"
			       "    verdict: diverge\n");
	const MemStats *m;

	check_case(NULL, c, NULL, true, &o);
	ck_assert_msg(o.status == STATUS_OK, "%s", o.why);
	m = &o.runs[0].ex.mem;
	ck_assert_int_eq(m->peak_bytes, 12288);
	ck_assert_int_eq(m->allocations, 2);
	ck_assert_int_eq(m->alloc_bytes, 8192);
	ck_assert_int_eq(m->copies, 0);
	m = &o.runs[1].ex.mem;
	ck_assert_int_eq(m->peak_bytes, 8192);
	ck_assert_int_eq(m->allocations, 1);
	ck_assert_int_eq(m->alloc_bytes, 4096);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

START_TEST(accounting_overhead_and_trace)
{
	Outcome o;
	Case *c = load(SEED1024 "runs:\n  - plan: {y: new, z: new}\n");
	FILE *trace = tmpfile();
	char line[128];
	long long step, bytes, peak = 0;
	int lines = 0;

	check_case(&(RunConfig){.alloc_overhead = 100, .trace = trace,
				.nrandom = 8}, c, NULL, true, &o);
	ck_assert_int_eq(o.runs[0].ex.mem.peak_bytes, 12288 + 200);
	rewind(trace);
	while (fgets(line, sizeof line, trace)) {
		int ln;
		ck_assert_int_eq(sscanf(line, "%lld,%lld,%d", &step, &bytes, &ln), 3);
		ck_assert_int_eq(step, ++lines);
		if (bytes > peak)
			peak = bytes;
	}
	/* alloc y, compute y, alloc z, compute z, free y, return */
	ck_assert_int_eq(lines, 6);
	ck_assert_int_eq(peak, 12288 + 200);
	ck_assert_int_eq(bytes, 8192 + 100); /* x and z at the end */
	fclose(trace);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* Three in-place decisions; only b:x clobbers a value read later. */
START_TEST(bisection_finds_the_one)
{
	Outcome o;
	Case *c = load("case: t\n"
		       "program: |\n"
		       "  func @main(%x: tensor<4xi32>, %w: tensor<4xi32>) -> tensor<4xi32> {\n"
		       "    %a = add %w, 1 : tensor<4xi32>\n"
		       "    %b = mul %x, 3 : tensor<4xi32>\n"
		       "    %c = add %a, %b : tensor<4xi32>\n"
		       "    %d = sub %c, %x : tensor<4xi32>\n"
		       "    return %d\n"
		       "  }\n"
		       "inputs: {x: [1, 2, 3, 4], w: [0, 0, 0, 0]}\n"
		       "runs:\n"
		       "  - plan: {a: w, b: x, c: a}\n"
		       "    verdict: diverge\n");

	check_case(NULL, c, NULL, true, &o);
	ck_assert_msg(o.status == STATUS_OK, "%s", o.why);
	ck_assert_int_eq(o.runs[0].nculprits, 1);
	ck_assert_str_eq(o.runs[0].culprits[0]->name, "b");
	ck_assert_int_eq(o.runs[0].ex.nviols, 1);
	ck_assert_str_eq(inst_value(o.runs[0].ex.viols[0].writer)->name, "b");
	ck_assert_str_eq(inst_value(o.runs[0].ex.viols[0].at)->name, "d");
	ck_assert_str_eq(o.runs[0].ex.viols[0].victim->name, "x");
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* The executor runs a generate's body per element on real storage: a
 * plan that writes the captured %t in place is seen by the next element,
 * blamed on the insert, with the elements in the contexts. */
START_TEST(generate_in_place_seen)
{
	Outcome o;
	Case *c = load("case: t\n"
		       "program: |\n"
		       "  func @main(%t: tensor<4xi32>) -> tensor<2x2xi32> {\n"
		       "    %g = generate [%i, %j] : tensor<2x2xi32> {\n"
		       "      %k = mul %i, 2 : index\n"
		       "      %l = add %k, %j : index\n"
		       "      %u = insert 9 into %t[%l] : tensor<4xi32>\n"
		       "      %w = extract %u[0] : i32\n"
		       "      yield %w\n"
		       "    }\n"
		       "    return %g\n"
		       "  }\n"
		       "inputs: {t: [1, 2, 3, 4]}\n"
		       "expect: {outputs: [[[9, 1], [1, 1]]]}\n"
		       "runs:\n"
		       "  - plan: {u: t}\n"
		       "    verdict: diverge\n"
		       "    outputs: [[[9, 9], [9, 9]]]\n");
	const Violation *v;

	check_case(NULL, c, NULL, true, &o);
	ck_assert_msg(o.status == STATUS_OK, "%s", o.why);
	ck_assert_int_eq(o.runs[0].nculprits, 1);
	ck_assert_str_eq(o.runs[0].culprits[0]->name, "u");
	ck_assert_int_eq(o.runs[0].ex.nviols, 1);
	v = &o.runs[0].ex.viols[0];
	ck_assert_int_eq(v->kind, VK_STALE_READ);
	ck_assert_str_eq(inst_value(v->writer)->name, "u");
	ck_assert_str_eq(v->victim->name, "t");
	ck_assert_int_eq(v->count, 3);
	ck_assert_int_eq(v->wctx.n, 1);
	ck_assert_int_eq(v->wctx.at[0].op->kind, OP_GENERATE);
	ck_assert_int_eq(v->wctx.at[0].k, 0);
	ck_assert_int_eq(v->rctx.at[0].k, 1);
	outcome_clear(&o);
	case_free(c);
}
END_TEST

/* A failure that no in-place decision causes has no culprit. */
START_TEST(bisection_empty_when_not_inplace)
{
	Outcome o;

	run_plan(SEED1024 "runs:\n  - plan: {y: new}\n    free: {y: after y}\n"
			  "    verdict: diverge\n", &o);
	ck_assert_msg(o.status == STATUS_OK, "%s", o.why);
	ck_assert_int_eq(o.runs[0].nculprits, 0);
	ck_assert_int_eq(o.runs[0].ex.viols[0].kind, VK_USE_AFTER_FREE);
	outcome_clear(&o);
}
END_TEST

/* An illegal plan is an input error at its line. */
START_TEST(illegal_plans)
{
	Outcome o;

	run_plan("case: t\n"
		 "program: |\n"
		 "  func @main(%x: tensor<4xi32>, %v: tensor<2xi32>) -> tensor<2xi32> {\n"
		 "    %s = extract_slice %x[0] [2] [1] : tensor<2xi32>\n"
		 "    %y = add %s, %v : tensor<2xi32>\n"
		 "    return %y\n"
		 "  }\n"
		 "inputs: {x: [1, 2, 3, 4], v: [1, 1]}\n"
		 "runs:\n"
		 "  - free: {s: after y}\n", &o);
	ck_assert_int_eq(o.status, STATUS_BAD);
	ck_assert_int_eq(o.runs[0].err.loc.line, 10);
	ck_assert_str_eq(o.runs[0].err.msg, "free: %s is a view, not an allocation");
	outcome_clear(&o);
}
END_TEST

/* The lowering frees each buffer after its last use, loops included. */
START_TEST(lowering_frees)
{
	Diag d;
	Program *p = tu_parse(
		"func @main(%x: tensor<4xi32>, %n: index) -> tensor<4xi32> {\n"
		"  %r = for %i = 0 to %n step 1 iter(%acc = %x) -> (tensor<4xi32>) {\n"
		"    %a = add %acc, 1 : tensor<4xi32>\n"
		"    yield %a\n"
		"  }\n"
		"  %z = add %r, %x : tensor<4xi32>\n"
		"  return %z\n"
		"}\n", &d);
	Decisions ds;
	BProg *bp;
	char *text;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	ck_assert_int_eq(decisions_make(p, strategy_find("copy-all"), &ds), 0);
	bp = bufferize_lower(p, &ds, &d);
	ck_assert_ptr_nonnull(bp);
	text = bir_print(bp);
	ck_assert_msg(strstr(text,
		"  %r = alloc tensor<4xi32>                  // r:new  (copy-all gives every written result a fresh buffer (in place, it could reuse %x))  2:3\n"
		"  copy %x -> %r                             // the loop buffer starts as a copy of its init  2:3\n"
		"  %r = for %i = 0 to %n step 1 iter(%acc = %r) { // 2:3\n"
		"    %a = alloc tensor<4xi32>                // a:new  (copy-all gives every written result a fresh buffer (in place, it could reuse %acc))  3:5\n"
		"    %a = add %acc, 1                        // 3:5\n"
		"    copy %a -> %r                           // the yield lands in the loop buffer  4:5\n"
		"    free %a                                 // after its last use  4:5\n"
		"    yield %r                                // 4:5\n"
		"  }\n"
		"  %z = alloc tensor<4xi32>                  // z:new  (copy-all gives every written result a fresh buffer (in place, it could reuse %r))  6:3\n"
		"  %z = add %r, %x                           // 6:3\n"
		"  free %r                                   // after its last use  6:3\n"
		"  return %z                                 // 7:3\n"), "%s", text);
	mem_free(text);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
}
END_TEST

/* The executor's tables at their largest after n trips of program text
 * (its @main takes a 16-element i32 tensor and the trip count) bufferized
 * by strategy s; the run must agree with nothing to report. */
static void
tables_after(const char *text, const char *s, int64_t n, int64_t *bufs,
	     int64_t *vers)
{
	Diag d;
	Program *p = tu_parse(text, &d);
	Decisions ds;
	BProg *bp;
	ExecOpts eo = {.lim = &default_limits};
	ExecResult ex;
	int64_t dims[1] = {16};
	Tensor *in[2] = {tensor_new(DT_I32, 1, dims), tensor_new(DT_INDEX, 0, NULL)};

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	ck_assert_int_eq(decisions_make(p, strategy_find(s), &ds), 0);
	ck_assert_ptr_nonnull(bp = bufferize_lower(p, &ds, &d));
	tensor_seti(in[1], 0, n);
	ck_assert_int_eq(exec_run(bp, p->funcs[0], in, &eo, &ex, &d), 0);
	ck_assert_int_eq(ex.nviols, 0);
	ck_assert_str_eq(ex.aborted, "");
	ck_assert_int_eq(tensor_geti(ex.outs[0], 3), n);
	*bufs = ex.mem.table_bufs;
	*vers = ex.mem.table_vers;
	exec_result_free(&ex);
	tensor_free(in[0]);
	tensor_free(in[1]);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
}

/* Memory follows the live buffers, not the trips: a loop that allocates
 * and frees a buffer a trip (copy-all), or writes an element in place a
 * trip (one-shot: a partial write each, then a whole one), keeps its
 * buffer and version tables the same size from 10^3 to 10^5 trips. */
START_TEST(tables_bounded_by_live)
{
	static const char *const progs[][2] = {
		{"func @main(%x: tensor<16xi32>, %n: index) -> tensor<16xi32> {\n"
		 "  %r = for %i = 0 to %n step 1 iter(%acc = %x) -> (tensor<16xi32>) {\n"
		 "    %a = add %acc, 1 : tensor<16xi32>\n"
		 "    yield %a\n"
		 "  }\n"
		 "  return %r\n"
		 "}\n", "copy-all"},
		{"func @main(%x: tensor<16xi32>, %n: index) -> tensor<16xi32> {\n"
		 "  %r = for %i = 0 to %n step 1 iter(%acc = %x) -> (tensor<16xi32>) {\n"
		 "    %s = extract_slice %acc[3] [4] [1] : tensor<4xi32>\n"
		 "    %t = add %s, 1 : tensor<4xi32>\n"
		 "    %u = insert_slice %t into %acc[3] [4] [1] : tensor<16xi32>\n"
		 "    %w = add %u, 0 : tensor<16xi32>\n"
		 "    yield %w\n"
		 "  }\n"
		 "  return %r\n"
		 "}\n", "one-shot"},
	};

	for (size_t k = 0; k < sizeof progs / sizeof *progs; k++) {
		int64_t b3, v3, b5, v5;
		tables_after(progs[k][0], progs[k][1], 1000, &b3, &v3);
		tables_after(progs[k][0], progs[k][1], 100000, &b5, &v5);
		ck_assert_int_eq(b3, b5);
		ck_assert_int_eq(v3, v5);
		ck_assert_int_le(b5, 128);
		ck_assert_int_le(v5, 4096);
	}
}
END_TEST

/* Same seed, same schedule, same verdict: each schedule run twice gives
 * the same full JSON report. */
static char *
json_of(const char *path, const Schedule *s)
{
	Case *c = NULL;
	Outcome o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	check_file(&(RunConfig){.sched = s, .nrandom = 8}, path, NULL, true, &c,
		   &o);
	ck_assert_msg(o.status != STATUS_BAD, "%s", o.why);
	ck_assert(o.nruns > 0 && !o.runs[0].skipped);
	report_json(f, c, &o);
	fclose(f);
	outcome_clear(&o);
	case_free(c);
	return buf;
}

START_TEST(schedules_are_deterministic)
{
	static const char *const cases[] = {
		SRCDIR "/cases/async/two-streams-race.yaml",
		SRCDIR "/cases/async/quiz-free-before-async-reader.yaml",
		SRCDIR "/cases/async/return-with-pending-launch.yaml",
	};
	Schedule all[] = {{SCHED_SYNC, 0}, {SCHED_LATE, 0}, {SCHED_RANDOM, 1},
			  {SCHED_RANDOM, 2}, {SCHED_RANDOM, 3}, {SCHED_ALL, 0}};

	report_json_init();
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
			char *a = json_of(cases[i], &all[k]), *b;
			/* the override may break the case's own expectations:
			 * compare reports only */
			b = json_of(cases[i], &all[k]);
			ck_assert_str_eq(a, b);
			free(a);
			free(b);
		}
}
END_TEST

/* A register file's runs of slots (exec_files.c): the marked slots as
 * [lo, hi) pairs, -1 terminated, the marks cleared; past 64 runs the
 * whole file as one; a clear zeroes the runs' slots only. */
START_TEST(file_runs_of_slots)
{
	ExecResult res;
	ExecOpts o = {.lim = &default_limits};
	Exec *X = exec_new(&res, &o);
	BProg bp = {.nregs = 300};
	Reg *file = calloc(300, sizeof *file);
	const int *r;
	uint8_t *m;

	X->bp = &bp;
	X->arena = X->sarena = arena_new();
	ck_assert_ptr_nonnull(X->arena);
	if (setjmp(X->oom))
		ck_abort_msg("out of memory");
	m = file_marks(X);
	m[0] = m[1] = m[5] = m[298] = m[299] = 1;
	r = file_runs_of(X, m);
	ck_assert_int_eq(r[0], 0);
	ck_assert_int_eq(r[1], 2);
	ck_assert_int_eq(r[2], 5);
	ck_assert_int_eq(r[3], 6);
	ck_assert_int_eq(r[4], 298);
	ck_assert_int_eq(r[5], 300);
	ck_assert_int_eq(r[6], -1);
	for (int i = 0; i < 300; i++)
		ck_assert_int_eq(m[i], 0);
	/* only the runs' slots are cleared (the Debug build asserts the
	 * file is all zero after: here it is not, so only in release) */
	file[5].buf = 7;
	file[5].set = true;
	file[1].ver = 3;
#ifdef NDEBUG
	file[3].buf = 9;
#endif
	file_clear(X, file, r);
	ck_assert_int_eq(file[5].buf, 0);
	ck_assert(!file[5].set);
	ck_assert_int_eq(file[1].ver, 0);
#ifdef NDEBUG
	ck_assert_int_eq(file[3].buf, 9);
#endif
	/* 65 runs (every other slot): the whole file, one run */
	m = file_marks(X);
	for (int i = 0; i < 130; i += 2)
		m[i] = 1;
	r = file_runs_of(X, m);
	ck_assert_int_eq(r[0], 0);
	ck_assert_int_eq(r[1], 300);
	ck_assert_int_eq(r[2], -1);
	/* 64 runs: kept */
	m = file_marks(X);
	for (int i = 0; i < 128; i += 2)
		m[i] = 1;
	r = file_runs_of(X, m);
	ck_assert_int_eq(r[126], 126);
	ck_assert_int_eq(r[127], 127);
	ck_assert_int_eq(r[128], -1);
	free(file);
	arena_free(X->arena);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("exec");
	TCase *t = tcase_create("shadow");
	TCase *h = tcase_create("harness");

	tcase_add_test(t, shadow_uniform_then_partial);
	tcase_add_test(t, shadow_patches);
	tcase_add_test(t, tables_bounded_by_live);
	tcase_add_test(t, shadow_undefined_version);
	tcase_add_test(t, violations_fold_repeats);
	tcase_add_test(t, nan_is_nan);
	tcase_add_test(t, file_runs_of_slots);
	tcase_add_test(h, accounting_seed);
	tcase_add_test(h, accounting_overhead_and_trace);
	tcase_add_test(h, bisection_finds_the_one);
	tcase_add_test(h, bisection_empty_when_not_inplace);
	tcase_add_test(h, illegal_plans);
	tcase_add_test(h, generate_in_place_seen);
	tcase_add_test(h, lowering_frees);
	tcase_add_test(h, schedules_are_deterministic);
	suite_add_tcase(s, t);
	suite_add_tcase(s, h);
	return tu_run((Suite *[]){s, NULL});
}
